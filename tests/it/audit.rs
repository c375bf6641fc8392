//! `vigia audit ...` against a register changed behind vigia's back: rows inserted by hand, the
//! chain truncated or rewritten, the schema altered; and `audit verify` while others write.

use crate::common::{Reg, err, out};
use std::process::Output;

fn breach(r: &Reg) {
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
    ]);
}

/// `audit verify`, expecting exit 1; its stdout.
fn mismatch(r: &Reg) -> String {
    let o = r.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    out(&o)
}

fn verify_ok(o: &Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        out(o),
        err(o)
    );
}

#[test]
fn verify_reads_one_snapshot_while_an_officer_records_payments() {
    // Issue 11.2: the event scan and the table counts read different moments, so a payment
    // committed in between was "inserted outside vigia" (26 of 33 verifies exited 1).
    let r = Reg::new().with_holders();
    breach(&r);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (dir, db, done) = (r.dir.path().to_path_buf(), r.db(), done.clone());
        std::thread::spawn(move || {
            for i in 1..=40 {
                let o = std::process::Command::new(env!("CARGO_BIN_EXE_vigia"))
                    .current_dir(&dir)
                    .env("XDG_DATA_HOME", &dir)
                    .env("XDG_CONFIG_HOME", &dir)
                    .env("TMPDIR", &dir)
                    .arg("--db")
                    .arg(&db)
                    .args(["--officer", "writer", "payment", "record", "--breach", "1"])
                    .args(["--date", "2024-12-01", "--amount", &format!("{i}")])
                    .output()
                    .unwrap();
                assert_eq!(o.status.code(), Some(0), "{}", err(&o));
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    let mut runs = 0;
    while !done.load(std::sync::atomic::Ordering::SeqCst) && runs < 200 {
        verify_ok(&r.run(&["audit", "verify"]));
        runs += 1;
    }
    writer.join().unwrap();
    assert!(runs > 0);
    verify_ok(&r.run(&["audit", "verify"]));
}

#[test]
fn a_row_inserted_by_hand_after_a_bulk_release_is_found() {
    // Issue 11.3: the bulk release's event names its first row and covers first..last, and the
    // first row was counted twice, so one hand-made row went unnoticed.
    let r = Reg::new().with_holders();
    for (adj, rank) in [("1", "1"), ("2", "2"), ("3", "1")] {
        r.ok(&[
            "pledge",
            "register",
            adj,
            "--rank",
            rank,
            "--registered-on",
            "2024-04-01",
        ]);
    }
    // adjudication 2's fine is owed: its pledge (2) stays
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-06-01",
        "--shares",
        "10",
        "--consideration-per-share",
        "1000",
    ]);
    assert!(
        r.ok(&["pledge", "release", "--releasable", "--on", "2026-03-16"])
            .contains("(release ids 1..2)")
    );
    verify_ok(&r.run(&["audit", "verify"]));
    // the append-only triggers are intact: an INSERT is all it takes
    r.conn()
        .execute(
            "INSERT INTO pledge_releases (pledge_id, released_on, created_at, created_by)
             VALUES (2, '2026-03-17', '2026-03-17T00:00:00Z', 'mallory')",
            [],
        )
        .unwrap();
    let text = mismatch(&r);
    assert!(
        text.contains("pledge_releases row 3 has no audit event"),
        "{text}"
    );
}

#[test]
fn verify_names_triggers_dropped_or_added_and_a_changed_table() {
    // Issue 11.3: the schema was not compared with the migrations.
    let r = Reg::new().with_holders();
    r.conn()
        .execute_batch(
            "DROP TRIGGER payments_no_delete;
             CREATE TRIGGER payments_copy AFTER INSERT ON payments BEGIN SELECT 1; END;
             CREATE INDEX holders_name ON holders(name);",
        )
        .unwrap();
    let text = mismatch(&r);
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "SCHEMA MISMATCH: trigger payments_no_delete is missing",
            "SCHEMA MISMATCH: index holders_name was added outside vigia: CREATE INDEX holders_name ON holders(name)",
            "SCHEMA MISMATCH: trigger payments_copy was added outside vigia: CREATE TRIGGER payments_copy AFTER INSERT ON payments BEGIN SELECT 1; END",
        ],
        "{text}"
    );
}

#[test]
fn a_file_that_is_not_a_register_is_refused_and_left_untouched() {
    // Issue 11.6: any file given as --db was migrated into a register, and then verified intact.
    let r = Reg::without_register();
    let foreign = r.dir.path().join("notes.db");
    {
        let c = rusqlite::Connection::open(&foreign).unwrap();
        c.execute_batch(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
             INSERT INTO notes (text) VALUES ('keep me');
             PRAGMA user_version = 2;",
        )
        .unwrap();
    }
    let other_app = r.dir.path().join("other.db");
    {
        let c = rusqlite::Connection::open(&other_app).unwrap();
        c.execute_batch("PRAGMA application_id = 1234; CREATE TABLE t (x);")
            .unwrap();
    }
    let cases = [
        (r.file("empty.db", b""), "the file is empty"),
        (
            r.file("text.db", b"doc_type,doc_number\nCC,1\n"),
            "the file is not an SQLite database",
        ),
        (
            foreign.display().to_string(),
            "it is another application's SQLite database (schema version 2, tables notes)",
        ),
        (
            other_app.display().to_string(),
            "it is another application's SQLite database (application id 0x000004d2)",
        ),
    ];
    for (path, why) in &cases {
        let before = std::fs::read(path).unwrap();
        for args in [
            &["audit", "verify"][..],
            &["check", "--as-of", "2026-03-16"],
            &["payment", "list", "--breach", "1"],
            &["init"],
        ] {
            let mut c = r.command();
            let o = c.arg("--db").arg(path).args(args).output().unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?} on {path}: {}", out(&o));
            assert_eq!(
                err(&o),
                format!(
                    "vigia: error: --db {path}: not a vigia register: {why}; it was left \
                     untouched (only `vigia init` creates a register, where no file exists yet)\n"
                ),
                "{args:?}"
            );
            assert_eq!(
                std::fs::read(path).unwrap(),
                before,
                "{args:?} changed {path}"
            );
        }
    }
}
