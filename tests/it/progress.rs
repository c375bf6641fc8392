//! The progress bar (issue 25): drawn on standard error when it is a terminal (here, the pseudo
//! terminal util-linux's `script` gives), with percentage, rate and time left, and cleared; never
//! in standard output, and nothing at all on standard error when it is not a terminal (cron).

use crate::common::{self, Reg};

#[test]
fn the_check_shows_its_progress_on_a_terminal_only() {
    let r = Reg::new().with_holders();
    let quiet = r.run(&["check", "--as-of", "01/04/2024", "--format", "csv"]);
    assert_eq!(quiet.status.code(), Some(1));
    assert!(quiet.stderr.is_empty(), "{}", common::err(&quiet));
    let Ok(script) = which("script") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux's script is missing"
        );
        eprintln!("skipped: no `script` to give the check a terminal");
        return;
    };
    let out = r.dir.path().join("check.csv");
    let typescript = r.dir.path().join("typescript");
    let line = format!(
        "{} --db {} --officer tester check --as-of 01/04/2024 --format csv > {}",
        env!("CARGO_BIN_EXE_vigia"),
        r.db().display(),
        out.display()
    );
    let o = std::process::Command::new(script)
        .args(["-qc", &line])
        .arg(&typescript)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("VIGIA_LANG")
        .env_remove("VIGIA_KEY")
        .env("XDG_DATA_HOME", r.dir.path())
        .env("XDG_CONFIG_HOME", r.dir.path())
        .env("TMPDIR", r.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success() || o.status.code() == Some(1), "{o:?}");
    let drawn = String::from_utf8_lossy(&std::fs::read(&typescript).unwrap()).into_owned();
    assert!(drawn.contains("checking: adjudications read"), "{drawn}");
    assert!(
        drawn.contains("100% 3/3"),
        "three adjudications, all read: {drawn}"
    );
    assert!(
        drawn.contains("/s") && drawn.contains("left"),
        "rate and time left: {drawn}"
    );
    // the report is the same bytes as without a terminal
    assert_eq!(std::fs::read(&out).unwrap(), quiet.stdout);
}

fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}

/// An import of 5,000 adjudications shows its rows counted towards the file's on a terminal,
/// and nothing on standard error without one; the import is the same either way.
#[test]
fn an_import_shows_its_rows_on_a_terminal_only() {
    let r = Reg::new();
    let mut csv = crate::common::HEADER.to_string();
    for i in 0..5000 {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,10,,2024-03-15,,\n",
            2_000_000_000u64 + i
        ));
    }
    let path = r.file("muchas.csv", csv.as_bytes());
    let Ok(script) = which("script") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux's script is missing"
        );
        return;
    };
    let typescript = r.dir.path().join("typescript");
    let line = format!(
        "{} --db {} --officer tester adjudications import {path} --program D3939-2004 > {}",
        env!("CARGO_BIN_EXE_vigia"),
        r.db().display(),
        r.dir.path().join("out.txt").display()
    );
    let o = std::process::Command::new(script)
        .args(["-qc", &line])
        .arg(&typescript)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("VIGIA_LANG")
        .env_remove("VIGIA_KEY")
        .env("XDG_DATA_HOME", r.dir.path())
        .env("XDG_CONFIG_HOME", r.dir.path())
        .env("TMPDIR", r.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let drawn = String::from_utf8_lossy(&std::fs::read(&typescript).unwrap()).into_owned();
    assert!(drawn.contains("importing adjudications"), "{drawn}");
    assert!(
        drawn.contains("/5000"),
        "the file's 5,000 rows as the total: {drawn}"
    );
    let printed = std::fs::read_to_string(r.dir.path().join("out.txt")).unwrap();
    assert!(printed.contains("5000 adjudication(s) added"), "{printed}");
    // without a terminal: nothing on standard error
    let r2 = Reg::new();
    let path = r2.file("muchas.csv", csv.as_bytes());
    let o = r2.run(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        common::err(&o)
    );
}
