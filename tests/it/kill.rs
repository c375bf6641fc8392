//! Issue 11: kill -9 at any moment leaves a sound register and no orphan document. The real
//! binary runs an import of 3,000 adjudications, a liquidation and a `notice issue --pending`
//! batch of PDFs, and is killed with SIGKILL (`Child::kill` on unix) after delays spread from 0
//! to about the command's duration, measured once on a copy of the register: 16 kills in all. After
//! each: SQLite's `integrity_check` is ok, `vigia audit verify` exits 0 (the events since the
//! last checkpoint are reported as such, which is not a finding), the import is all or nothing,
//! and every document in an output directory bears a number the register stores, none twice.
//! Allowed leftovers: vigia's own hidden `.vigia-tmp-*` staged files, which a later run in that
//! directory removes once they are 10 minutes old (`files::remove_stale`). No timing asserts.

use crate::common::{HEADER, Reg};
use std::collections::HashSet;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const HOLDERS: usize = 3000;
const BREACHES: usize = 8;

/// Runs `args` on a copy of the register, and how long it took.
fn duration_on_a_copy(r: &Reg, args: &[&str]) -> Duration {
    let copy = r.dir.path().join("timing.db");
    std::fs::copy(r.db(), &copy).unwrap();
    let start = Instant::now();
    let o = r
        .command()
        .arg("--db")
        .arg(&copy)
        .args(["--officer", "timing"])
        .args(args)
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for suffix in ["", "-wal", "-shm", ".checkpoints"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
    }
    took
}

/// Starts `args` and kills it after `delay` unless it has ended by then; whether it was killed.
fn kill_after(r: &Reg, args: &[&str], delay: Duration) -> bool {
    let mut child = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() >= delay {
            let killed = child.kill().is_ok();
            child.wait().unwrap();
            return killed;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// The register is sound: SQLite finds nothing, and neither does `audit verify`.
fn assert_sound(r: &Reg, after: &str) {
    let check: String = r
        .conn()
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    assert_eq!(check, "ok", "{after}");
    let o = r.run(&["audit", "verify"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{after}: audit verify\n{}{}",
        crate::common::out(&o),
        crate::common::err(&o)
    );
}

fn count(r: &Reg, table: &str) -> i64 {
    r.conn()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap()
}

/// Every file in `dir`: a document whose number the register stores (not seen in another
/// directory), the batch's index, or a staged `.vigia-tmp-*` file; the documents' numbers.
fn documents(dir: &Path, stored: &HashSet<String>, seen: &mut HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return; // killed before the directory was made
    };
    for entry in entries {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name == "index.csv" || name.starts_with(".vigia-tmp-") {
            continue;
        }
        let number = name
            .strip_suffix(".pdf")
            .unwrap_or_else(|| panic!("{}: unexpected file {name}", dir.display()));
        assert!(
            stored.contains(number),
            "{}: {name} bears a number the register does not store",
            dir.display()
        );
        assert!(seen.insert(number.to_string()), "{number} in two files");
    }
}

#[test]
fn kill_9_during_import_liquidation_and_notices_leaves_a_sound_register_and_no_orphans() {
    let r = Reg::new().with_letterhead();
    let mut csv = HEADER.to_string();
    for i in 0..HOLDERS {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,100,,2024-03-15,,\n",
            2_000_000_000 + i
        ));
    }
    let file = r.file("holders.csv", csv.as_bytes());
    let import = ["adjudications", "import", &file, "--program", "D3939-2004"];

    // 1. the import: all or nothing, whenever it dies
    let took = duration_on_a_copy(&r, &import);
    for k in 0..6u32 {
        let delay = took * k / 6;
        kill_after(&r, &import, delay);
        assert_sound(&r, &format!("import killed after {delay:?}"));
        let rows = count(&r, "adjudications");
        assert!(rows == 0 || rows == HOLDERS as i64, "{rows} rows imported");
    }
    if count(&r, "adjudications") == 0 {
        r.ok(&import);
    }

    for id in 1..=BREACHES {
        r.ok(&[
            "breach",
            "record",
            "--adjudication",
            &id.to_string(),
            "--kind",
            "sale",
            "--date",
            "2024-11-20",
            "--shares",
            "10",
            "--consideration-per-share",
            "1450",
        ]);
    }

    // 2. a liquidation: stored whole or not at all
    let liquidate = ["fine", "liquidate", "1", "--until", "2025-02-10"];
    let took = duration_on_a_copy(&r, &liquidate);
    for k in 0..4u32 {
        let delay = took * k / 3;
        let before = count(&r, "liquidations");
        kill_after(&r, &liquidate, delay);
        assert_sound(&r, &format!("fine liquidate killed after {delay:?}"));
        assert!(count(&r, "liquidations") - before <= 1);
    }

    // 3. a batch of notices, each run into its own directory
    let pending = |dir: &str| {
        vec![
            "notice".to_string(),
            "issue".into(),
            "--pending".into(),
            "--until".into(),
            "2025-02-10".into(),
            "--date".into(),
            "2025-02-11".into(),
            "--reason".into(),
            "fecha del caso de prueba".into(),
            "--out".into(),
            dir.into(),
        ]
    };
    let timing_dir = r.dir.path().join("timing-out");
    let args = pending(timing_dir.to_str().unwrap());
    let took = duration_on_a_copy(&r, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let mut dirs = Vec::new();
    for k in 0..6u32 {
        let delay = took * k / 6;
        let dir = r.dir.path().join(format!("out-{k}"));
        let args = pending(dir.to_str().unwrap());
        kill_after(
            &r,
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            delay,
        );
        assert_sound(&r, &format!("notice issue killed after {delay:?}"));
        dirs.push(dir);
    }
    // what the batches left: no document whose number the register does not store
    let stored: HashSet<String> = r
        .conn()
        .prepare("SELECT number FROM notices")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut seen = HashSet::new();
    for dir in &dirs {
        documents(dir, &stored, &mut seen);
    }
    // and the register's own directory holds only the register and what the runs were given
    for entry in std::fs::read_dir(r.dir.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let expected = name.starts_with("vigia.db")
            || name.starts_with("out-")
            || name.starts_with("timing")
            || ["holders.csv", "vigia"].contains(&name.as_str());
        assert!(expected, "a file left behind: {name}");
    }
}
