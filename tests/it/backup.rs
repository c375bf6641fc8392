//! `vigia backup FILE`: the copy holds the same rows and verifies, is private, never replaces a
//! file unless asked, never follows a symbolic link, and is consistent while another process
//! keeps writing.

use crate::common::{Reg, dump, err};
use rusqlite::Connection;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A register with holders, a breach and a payment.
fn register() -> Reg {
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
        "1000",
        "--consideration-per-share",
        "1450",
        "--evidence",
        "contrato de compraventa",
    ]);
    pay(&r);
    r
}

fn pay(r: &Reg) {
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "1",
        // the same small payment again and again: real, not entered twice by mistake
        "--allow-duplicate",
    ]);
}

fn quick_check(path: &Path) -> String {
    Connection::open(path)
        .unwrap()
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .unwrap()
}

/// Files the backup may have left beside its target (its temporary file and SQLite's).
fn leftovers(r: &Reg) -> Vec<String> {
    std::fs::read_dir(r.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("vigia-backup"))
        .collect()
}

/// The register's audit events and chain head, as `backup` prints them.
fn chain(conn: &Connection) -> (i64, String) {
    conn.query_row(
        "SELECT count(*), (SELECT hash FROM audit_events ORDER BY seq DESC LIMIT 1) FROM audit_events",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .unwrap()
}

/// Runs `vigia --db COPY audit verify` and expects it intact.
fn verifies(r: &Reg, copy: &Path) {
    let o = r
        .command()
        .arg("--db")
        .arg(copy)
        .args(["audit", "verify"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", err(&o));
    assert!(out.starts_with("audit trail intact"), "{out}");
}

#[test]
fn a_backup_holds_the_same_rows_and_verifies() {
    let r = register();
    let copy = r.dir.path().join("copy.db");
    let line = r.ok(&["backup".as_ref(), copy.as_os_str()]);
    let (events, head) = chain(&r.conn());
    let bytes = std::fs::metadata(&copy).unwrap().len();
    assert_eq!(
        line,
        format!(
            "backup written to {}: {bytes} bytes, {events} audit event(s), chain head {head}\n\
             checkpoint log copied to {}.checkpoints: 1 checkpoint(s) the copy's chain reaches\n",
            copy.display(),
            copy.display()
        )
    );
    assert_eq!(dump(&Connection::open(&copy).unwrap()), r.dump());
    assert_eq!(quick_check(&copy), "ok");
    verifies(&r, &copy);
    assert_eq!(leftovers(&r), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn the_copy_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let r = register();
    let copy = r.dir.path().join("copy.db");
    r.ok(&["backup".as_ref(), copy.as_os_str()]);
    let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

#[test]
fn an_existing_file_is_replaced_only_with_force() {
    let r = register();
    let target = PathBuf::from(r.file("yesterday.db", b"yesterday's backup"));
    let e = r.fails(&["backup".as_ref(), target.as_os_str()]);
    assert_eq!(
        e,
        format!(
            "vigia: error: backup {}: it already exists and was left as it is; pass --force to \
             replace it, or give a new file name (e.g. with the date in it)\n",
            target.display()
        )
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"yesterday's backup");
    assert_eq!(leftovers(&r), Vec::<String>::new());
    // in Spanish, in Spanish (a review found it English)
    let o = r.run(&[
        "--lang".as_ref(),
        "es".as_ref(),
        "backup".as_ref(),
        target.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        crate::common::err(&o),
        format!(
            "vigia: error: backup {}: ya existe y se dejó como está; use --force para reemplazarlo, \
             o indique otro nombre de archivo (p. ej. con la fecha)\n",
            target.display()
        )
    );

    r.ok(&["backup".as_ref(), target.as_os_str(), "--force".as_ref()]);
    assert_eq!(dump(&Connection::open(&target).unwrap()), r.dump());
    assert_eq!(leftovers(&r), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_refused_even_with_force() {
    let r = register();
    let elsewhere = PathBuf::from(r.file("elsewhere.db", b"not to be touched"));
    let link = r.dir.path().join("link.db");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let dangling = r.dir.path().join("dangling.db");
    std::os::unix::fs::symlink(r.dir.path().join("nowhere.db"), &dangling).unwrap();
    for target in [&link, &dangling] {
        for force in [&[][..], &["--force"][..]] {
            let mut args: Vec<&OsStr> = vec!["backup".as_ref(), target.as_os_str()];
            args.extend(force.iter().map(OsStr::new));
            let e = r.fails(&args);
            assert!(e.contains("it is a symbolic link"), "{e}");
        }
    }
    assert_eq!(std::fs::read(&elsewhere).unwrap(), b"not to be touched");
    assert!(!r.dir.path().join("nowhere.db").exists());
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(leftovers(&r), Vec::<String>::new());
}

#[test]
fn the_register_itself_and_directories_are_refused() {
    let r = register();
    let before = r.dump();
    let db = r.db();
    let e = r.fails(&["backup".as_ref(), db.as_os_str(), "--force".as_ref()]);
    assert!(e.contains("it is the register itself"), "{e}");
    let wal = r.dir.path().join("vigia.db-wal");
    let e = r.fails(&["backup".as_ref(), wal.as_os_str(), "--force".as_ref()]);
    assert!(e.contains("it is the register itself"), "{e}");
    let e = r.fails(&[
        "backup".as_ref(),
        r.dir.path().as_os_str(),
        "--force".as_ref(),
    ]);
    assert!(e.contains("not a plain file"), "{e}");
    let missing = r.dir.path().join("no-such-dir").join("copy.db");
    let e = r.fails(&["backup".as_ref(), missing.as_os_str()]);
    assert!(e.contains("check that the directory exists"), "{e}");
    assert_eq!(r.dump(), before);
    assert_eq!(leftovers(&r), Vec::<String>::new());
}

/// Another process records payments (the real binary, 150 times, then it stops by itself) while
/// five backups are taken: each finishes and verifies. No timing is asserted; the writer starts
/// before the first backup, so the backups run among its writes.
#[test]
fn backups_taken_while_another_process_writes_verify() {
    const WRITES: usize = 150;
    const BACKUPS: usize = 5;
    let r = Arc::new(register());
    let done = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (r, done) = (Arc::clone(&r), Arc::clone(&done));
        std::thread::spawn(move || {
            for _ in 0..WRITES {
                pay(&r);
                done.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    // bounded: the writer either writes or panics (then `done` stops and the join reports it)
    for _ in 0..2000 {
        if done.load(Ordering::SeqCst) >= 3 || writer.is_finished() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let mut copies = Vec::new();
    for i in 0..BACKUPS {
        let copy = r.dir.path().join(format!("during-{i}.db"));
        let line = r.ok(&["backup".as_ref(), copy.as_os_str()]);
        assert!(line.starts_with("backup written to "), "{line}");
        copies.push(copy);
    }
    writer.join().expect("the writer failed");
    assert_eq!(done.load(Ordering::SeqCst), WRITES);
    let mut last = 0;
    for copy in &copies {
        assert_eq!(quick_check(copy), "ok", "{}", copy.display());
        let (events, _) = chain(&Connection::open(copy).unwrap());
        assert!(
            events >= last,
            "{}: the copies go back in time",
            copy.display()
        );
        last = events;
        verifies(&r, copy);
    }
    assert!(last <= chain(&r.conn()).0);
    assert_eq!(leftovers(&r), Vec::<String>::new());
}
