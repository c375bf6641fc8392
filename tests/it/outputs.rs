//! Issue 24, items 4–6: `check --out` writes like every other output (0600, no symbolic link
//! followed); a killed backup's hidden copy does not stay forever; control characters typed in
//! a flag get the imports' refusal and never reach the terminal or the register.

use crate::common::{self, Reg};
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, SystemTime};

fn mode(p: &std::path::Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn check_out_writes_0600_and_refuses_a_symbolic_link() {
    let r = Reg::new().with_holders();
    let new = r.dir.path().join("informe.csv");
    let args = |out: &std::path::Path| {
        vec![
            "check".to_string(),
            "--as-of".into(),
            "2025-03-10".into(),
            "--format".into(),
            "csv".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let report = |out: &std::path::Path| {
        let o = r.run(&args(out));
        // 1: the check found something (the lock-ups are running), 0: nothing
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{}",
            common::err(&o)
        );
        o
    };
    report(&new);
    assert_eq!(mode(&new), 0o600, "a new report");
    // one that was readable by others is replaced by a private one
    std::fs::set_permissions(&new, std::fs::Permissions::from_mode(0o644)).unwrap();
    report(&new);
    assert_eq!(mode(&new), 0o600, "a replaced report");
    assert!(std::fs::read_to_string(&new).unwrap().starts_with("code,"));

    // a link planted where the report goes: refused, and the file it points to left alone
    let victim = r.dir.path().join("ajeno.txt");
    std::fs::write(&victim, "no es de vigia\n").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = r.dir.path().join("enlace.csv");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let err = r.fails(&args(&link));
    assert!(
        err.contains("--out") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "no es de vigia\n"
    );
    assert_eq!(mode(&victim), 0o644);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // a dangling link too: nothing is created where it points
    let dangling = r.dir.path().join("colgante.csv");
    std::os::unix::fs::symlink(r.dir.path().join("nuevo.csv"), &dangling).unwrap();
    r.fails(&args(&dangling));
    assert!(!r.dir.path().join("nuevo.csv").exists());
    // no temporary file is left behind by the refusals
    let temps: Vec<_> = std::fs::read_dir(r.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".vigia-"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
    // a device is still written to (standard output through /dev/stdout, a link to a pipe here)
    let o = report(std::path::Path::new("/dev/stdout"));
    assert!(common::out(&o).starts_with("code,"), "{}", common::out(&o));
}

/// Leaves a file named `name` in `dir`, last modified `age` ago.
fn leftover(dir: &std::path::Path, name: &str, age: Duration) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, b"SQLite format 3\0 datos personales").unwrap();
    let f = std::fs::File::options().write(true).open(&p).unwrap();
    f.set_modified(SystemTime::now() - age).unwrap();
    p
}

#[test]
fn a_killed_backups_hidden_copy_is_removed_by_the_next_backup_or_write_there() {
    let r = Reg::new().with_holders();
    let dir = r.dir.path().join("copias");
    std::fs::create_dir(&dir).unwrap();
    let hour = Duration::from_secs(3600);
    // what a backup killed before its rename leaves (its copy and SQLite's journal beside it),
    // named as this build and as earlier builds named them, an hour old
    let stale = [
        leftover(&dir, ".vigia-tmp-backup-v.db.Xa12bc.vigia-backup", hour),
        leftover(
            &dir,
            ".vigia-tmp-backup-v.db.Xa12bc.vigia-backup-journal",
            hour,
        ),
        leftover(&dir, ".v.db.Q9w8e7.vigia-backup", hour),
    ];
    // one another backup may still be writing (a minute old), and files that are not vigia's
    let fresh = leftover(
        &dir,
        ".vigia-tmp-backup-w.db.Zz0000.vigia-backup",
        hour / 60,
    );
    let others = [
        leftover(&dir, ".v.db.Q9w8e7.backup", hour),
        leftover(&dir, "vigia-backup", hour),
        leftover(&dir, "notas.vigia-backup", hour),
    ];
    r.ok(&["backup", dir.join("v.db").to_str().unwrap()]);
    for p in &stale {
        assert!(!p.exists(), "{} was left", p.display());
    }
    for p in others.iter().chain([&fresh]) {
        assert!(p.exists(), "{} was removed", p.display());
    }
    // the same by a report written into the directory
    let again = leftover(&dir, ".vigia-tmp-backup-x.db.Ab1234.vigia-backup", hour);
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-03-10",
        "--format",
        "json",
        "--out",
        dir.join("informe.json").to_str().unwrap(),
    ]);
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{}",
        common::err(&o)
    );
    assert!(!again.exists());
    assert!(fresh.exists());
}

#[test]
fn control_characters_in_flags_are_refused_and_never_echoed() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
        "--consideration-per-share",
        "1450",
    ]);
    let before = r.dump();
    let hostile = [
        ("\u{1b}[2J\u{1b}[31mCalle 1", 0x1B, 1),
        ("Calle\u{7} 1", 0x07, 6),
        ("Calle \u{202E}0001", 0x202E, 7),
    ];
    for (value, code, at) in hostile {
        let commands: [Vec<&str>; 4] = [
            vec!["holder", "update", "1000000001", "--address", value],
            vec![
                "breach",
                "record",
                "--adjudication",
                "2",
                "--kind",
                "sale",
                "--date",
                "2024-11-20",
                "--shares",
                "10",
                "--consideration-per-share",
                "1450",
                "--evidence",
                value,
            ],
            vec![
                "payment",
                "record",
                "--breach",
                "1",
                "--date",
                "2024-12-01",
                "--amount",
                "1000",
                "--reference",
                value,
            ],
            vec!["user", "add", value, "--role", "consulta"],
        ];
        for args in commands {
            let o = r.run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", common::err(&o));
            assert!(o.stdout.is_empty());
            let err = common::err(&o);
            for c in ['\u{1b}', '\u{7}', '\u{202E}'] {
                assert!(!err.contains(c), "{args:?} echoed {c:?}: {err:?}");
            }
            assert!(
                err.contains(&format!(
                    "has the control character U+{code:04X} at character {at}; values are \
                     printed on notices and must be plain text: remove it"
                )),
                "{args:?}: {err}"
            );
        }
    }
    assert_eq!(r.dump(), before, "nothing was written");
    // the imports give the same refusal for the right-to-left override
    let csv = format!(
        "{}CC,1000000009,Ana \u{202E}Prueba,natural,trabajador,1000,,2024-03-15,,\n",
        common::HEADER
    );
    let err = r.fails(&[
        "adjudications",
        "import",
        &r.file("rlo.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        err.contains("has the control character U+202E at character 5"),
        "{err}"
    );
    assert!(!err.contains('\u{202E}'), "{err:?}");
    assert_eq!(r.dump(), before);
}
