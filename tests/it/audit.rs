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
fn a_schema_version_lowered_by_hand_is_said_in_one_sentence_and_nothing_is_migrated() {
    // Issue 24.8: a lowered user_version made the next migration fail on a table it creates,
    // and SQLite's answer printed that migration's whole SQL.
    let r = Reg::new().with_holders();
    r.conn().pragma_update(None, "user_version", 10).unwrap();
    let before = r.dump();
    let latest = vigia::store::MIGRATIONS.len();
    // every table from migration 11 (letterheads) to 16 (bulk_row_prints) is there already
    let e = r.fails(&["audit", "verify"]);
    assert_eq!(
        e,
        format!(
            "vigia: error: the register's schema version was changed by hand: it says 10, but \
             the register already holds table letterheads, which migration 11 creates; nothing \
             was migrated or written. Restore the register from its latest backup, or put the \
             version back (PRAGMA user_version = {latest}) and verify the audit trail\n"
        )
    );
    let es = r.with_locale(&[("VIGIA_LANG", "es")], &["holder", "show", "1"]);
    assert_eq!(es.status.code(), Some(2));
    let es = crate::common::err(&es);
    assert!(
        es.starts_with(
            "vigia: error: la versión del esquema del registro se cambió a mano: dice 10, pero \
             el registro ya tiene la tabla letterheads, que crea la migración 11;"
        ),
        "{es}"
    );
    assert_eq!(es.lines().count(), 1, "{es}");
    assert_eq!(r.dump(), before, "the register changed");
    let version: i64 = r
        .conn()
        .pragma_query_value(None, "user_version", |x| x.get(0))
        .unwrap();
    assert_eq!(version, 10);
    // put back as the sentence says, the register opens and verifies again
    r.conn()
        .pragma_update(None, "user_version", latest as i64)
        .unwrap();
    r.ok(&["audit", "verify"]);
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
                     untouched: `vigia init` creates a register, and only where no file exists \
                     yet\n"
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

/// Edits the register the way someone with the file and sqlite3 but without the audit key would:
/// the append-only triggers dropped, `sql` run, the triggers put back exactly as they were (so
/// that the schema check has nothing to say).
pub(crate) fn behind_vigias_back(r: &Reg, sql: &str) {
    let c = r.conn();
    let triggers: Vec<(String, String)> = c
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (name, _) in &triggers {
        c.execute_batch(&format!("DROP TRIGGER {name}")).unwrap();
    }
    c.execute_batch(sql).unwrap();
    for (_, sql) in &triggers {
        c.execute_batch(sql).unwrap();
    }
}

/// `audit verify` with the locale variables `env`, expecting exit 1 (a mismatch found); its stdout.
pub(crate) fn mismatch_in(r: &Reg, env: &[(&str, &str)]) -> String {
    let o = r.with_locale(env, &["audit", "verify"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    out(&o)
}

/// `audit verify` finds nothing to report.
pub(crate) fn intact(r: &Reg) {
    let o = r.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
}

/// The payload of audit event `seq`, as JSON.
pub(crate) fn payload(r: &Reg, seq: i64) -> serde_json::Value {
    let text: String = r
        .conn()
        .query_row(
            "SELECT payload FROM audit_events WHERE seq = ?1",
            [seq],
            |x| x.get(0),
        )
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Leaves the bulk write of event `seq` as an import made before row prints were kept (issue
/// 24.2) left it: the prints of `tables` (an SQL list, or none for every table) deleted, none
/// named in the event's payload, and the chain's hashes recomputed from there, as the earlier
/// vigia wrote them.
pub(crate) fn as_before_prints(r: &Reg, seq: i64, tables: Option<&str>) {
    let mut v = payload(r, seq);
    for c in v["covers"].as_array_mut().unwrap() {
        assert!(c.as_object_mut().unwrap().remove("prints").is_some());
    }
    let which = tables.map_or(String::new(), |t| format!(" WHERE table_name IN ({t})"));
    behind_vigias_back(
        r,
        &format!(
            "DELETE FROM bulk_row_prints{which};
             UPDATE audit_events SET payload = '{}' WHERE seq = {seq}",
            v.to_string().replace('\'', "''")
        ),
    );
    rehash_from(r, seq);
}

/// Recomputes every event's hash from `from` on, as vigia computes them (the chain is unkeyed).
pub(crate) fn rehash_from(r: &Reg, from: i64) {
    use sha2::{Digest, Sha256};
    let c = r.conn();
    let mut prev: String = c
        .query_row(
            "SELECT coalesce((SELECT hash FROM audit_events WHERE seq = ?1 - 1), ?2)",
            rusqlite::params![from, "0".repeat(64)],
            |x| x.get(0),
        )
        .unwrap();
    let events: Vec<(i64, String)> = c
        .prepare(
            "SELECT seq, seq || char(10) || at || char(10) || actor || char(10) || action || char(10)
                    || entity || char(10) || entity_id || char(10) || payload
             FROM audit_events WHERE seq >= ?1 ORDER BY seq",
        )
        .unwrap()
        .query_map([from], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut sql = String::new();
    for (seq, fields) in events {
        let hash: String = Sha256::digest(format!("{prev}\n{fields}").as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        sql.push_str(&format!(
            "UPDATE audit_events SET prev_hash = '{prev}', hash = '{hash}' WHERE seq = {seq};\n"
        ));
        prev = hash;
    }
    behind_vigias_back(r, &sql);
}

fn record_breach(r: &Reg, date: &str, shares: &str) {
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        date,
        "--shares",
        shares,
    ]);
}

#[test]
fn init_creates_a_private_key_outside_the_register_and_a_first_checkpoint() {
    let r = Reg::without_register();
    let db = r.dir.path().join("data/vigia.db");
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let key = r.dir.path().join("vigia/audit.key"); // $XDG_CONFIG_HOME/vigia/audit.key
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "register created: {} (schema version {})",
            db.display(),
            vigia::store::MIGRATIONS.len()
        )
    );
    assert!(
        lines[1].starts_with(&format!("audit key created: {} (id ", key.display())),
        "{text}"
    );
    assert_eq!(
        lines[2],
        format!(
            "checkpoint log created: {}.checkpoints (checkpoint 1: 0 events)",
            db.display()
        )
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&key), 0o600);
        assert_eq!(mode(&r.dir.path().join("data/vigia.db.checkpoints")), 0o600);
        assert_eq!(mode(&db), 0o600);
    }
    // a second init keeps the key and the log
    let key_before = std::fs::read(&key).unwrap();
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("init")
        .output()
        .unwrap();
    assert!(out(&o).contains("audit key in use"), "{}", out(&o));
    assert_eq!(std::fs::read(&key).unwrap(), key_before);
    let log = std::fs::read_to_string(r.dir.path().join("data/vigia.db.checkpoints")).unwrap();
    assert_eq!(log.lines().count(), 1);
}

#[test]
fn a_truncated_chain_is_caught_back_to_the_last_checkpoint() {
    // Issue 11.3: removing the last commands together with their rows left a shorter chain that
    // verified; so did a register with every row and event deleted ("intact: 0 events").
    let r = Reg::new().with_holders();
    record_breach(&r, "2024-11-20", "10");
    record_breach(&r, "2024-12-20", "20");
    // events: 1 init's checkpoint, 2 the program, 3 the import, 4 and 5 the breaches
    let o = r.ok(&["audit", "checkpoint"]);
    assert!(o.starts_with("checkpoint 2: 5 events, head "), "{o}");
    // the last breach removed with its event, and the checkpoint's record after it
    behind_vigias_back(
        &r,
        "DELETE FROM breaches WHERE id = 2; DELETE FROM audit_checkpoints WHERE id = 2;
         DELETE FROM audit_events WHERE seq >= 5;",
    );
    let text = mismatch(&r);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("AUDIT MISMATCH at checkpoint 2 (signed ")
            && text.trim_end().ends_with(
                "it signed 5 events and the chain now has 4: events were removed from the end of \
                 the chain"
            ),
        "{text}"
    );
    // and nothing is signed over it
    let e = r.fails(&["audit", "checkpoint"]);
    assert!(
        e.contains("the chain now has 4 events: events were removed from its end"),
        "{e}"
    );

    // everything deleted
    let r = Reg::new().with_holders();
    r.ok(&["audit", "checkpoint"]);
    let tables: Vec<String> = r
        .conn()
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |x| x.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let wipe: String = std::iter::once("PRAGMA foreign_keys = OFF;".to_string())
        .chain(tables.iter().map(|t| format!("DELETE FROM {t};")))
        .collect();
    behind_vigias_back(&r, &wipe);
    let text = mismatch(&r);
    assert!(
        text.contains("it signed 3 events and the chain now has 0"),
        "{text}"
    );
}

#[test]
fn a_rewritten_chain_with_its_hashes_recomputed_is_caught() {
    // Issue 11.3: the chain is unkeyed SHA-256; whoever edits a row and its event can recompute
    // every hash after it. A signed checkpoint of the old head does not match any more.
    let r = Reg::new().with_holders();
    record_breach(&r, "2024-11-20", "10");
    record_breach(&r, "2024-12-20", "20");
    r.ok(&["audit", "checkpoint"]);
    behind_vigias_back(
        &r,
        "UPDATE breaches SET shares = 1 WHERE id = 1;
         UPDATE audit_events SET payload = replace(payload, '\"shares\":10', '\"shares\":1')
          WHERE seq = 4;",
    );
    rehash_from(&r, 4);
    // the chain alone says nothing is wrong: that is what the checkpoint is for
    let text = mismatch(&r);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("AUDIT MISMATCH at checkpoint 2 (signed ")
            && text.contains("event 5 is not the one it signed: the chain was rewritten"),
        "{text}"
    );
}

#[test]
fn the_checkpoint_log_itself_is_checked() {
    let r = Reg::new().with_holders();
    let log = format!("{}.checkpoints", r.db().display());
    // a forged line: the count raised without the key
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replace("\"count\":0", "\"count\":9")).unwrap();
    let o = mismatch(&r);
    assert_eq!(
        o,
        "CHECKPOINT LOG: line 1 of the checkpoint log: its signature does not verify: the line \
         was altered or forged\n"
    );
    // an emptied log, or none at all: nothing anchors the chain
    std::fs::write(&log, "").unwrap();
    let o = mismatch(&r);
    assert!(
        o.starts_with(&format!(
            "CHECKPOINT LOG MISSING: there is no checkpoint in {log}: "
        )),
        "{o}"
    );
    std::fs::remove_file(&log).unwrap();
    assert_eq!(mismatch(&r), o);
    // the nightly check does not start a log over whatever chain it finds; a person does
    let e = r.fails(&["check", "--as-of", "2024-06-01", "--checkpoint"]);
    assert!(
        e.contains(&format!(
            "nothing was signed: there is no checkpoint in {log} to extend"
        )),
        "{e}"
    );
    // nor does a person over a chain with events, unless the loss is said and recorded
    let e = r.fails(&["audit", "checkpoint"]);
    assert!(
        e.contains("a new log would anchor whatever the chain holds now"),
        "{e}"
    );
    assert!(
        r.ok(&[
            "audit",
            "checkpoint",
            "--reanchor",
            "--reason",
            "prueba: log borrado"
        ])
        .starts_with("checkpoint 1: 3 events")
    );
    // the nightly check anchors the day
    let o = r.run(&[
        "check",
        "--as-of",
        "2024-06-01",
        "--checkpoint",
        "--format",
        "csv",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o)); // findings, and a checkpoint
    let v = r.ok(&["audit", "verify"]);
    assert!(v.contains("; 0 event(s) since\n"), "{v}");
    // without the key nothing can be verified or signed
    let key = r.dir.path().join("vigia/audit.key");
    let moved = r.dir.path().join("elsewhere.key");
    std::fs::rename(&key, &moved).unwrap();
    let e = r.fails(&["audit", "verify"]);
    assert!(e.contains("there is no key there"), "{e}");
    // --key names it
    let v = r.ok(&["--key", moved.to_str().unwrap(), "audit", "verify"]);
    assert!(v.starts_with("audit trail intact"), "{v}");
}

/// The forger's steps of issue 24.1, as someone with the register file and sqlite3 but without
/// the audit key would take them: breach 1's shares changed (10 → 1) with the triggers dropped,
/// its event's payload to match, every hash from it on recomputed.
fn forge_breach_shares(r: &Reg) {
    // events: 1 init's checkpoint, 2 the program, 3 the import, 4 breach 1
    behind_vigias_back(
        r,
        "UPDATE breaches SET shares = 1 WHERE id = 1;
         UPDATE audit_events SET payload = replace(payload, '\"shares\":10', '\"shares\":1')
          WHERE seq = 4;",
    );
    rehash_from(r, 4);
}

/// Nothing `audit verify` says may lead an officer to a command that anchors the chain as it
/// stands: a plain `audit checkpoint` (or `init`) is never suggested.
fn suggests_no_plain_checkpoint(text: &str) {
    assert!(
        !text.contains("`vigia audit checkpoint`"),
        "suggests a command that would anchor the forged chain: {text}"
    );
}

#[test]
fn a_rewritten_chain_whose_checkpoint_log_was_deleted_cannot_be_anchored_again() {
    let r = Reg::new().with_holders();
    breach(&r);
    r.ok(&["audit", "checkpoint"]); // signs 4 events; its record is event 5
    let log = std::path::PathBuf::from(format!("{}.checkpoints", r.db().display()));
    forge_breach_shares(&r);
    std::fs::remove_file(&log).unwrap();

    // the chain itself carries the signature over its head at event 4: the rewrite breaks it
    let text = mismatch(&r);
    assert!(
        text.starts_with(
            "AUDIT MISMATCH at the checkpoint the chain records in audit_checkpoints row 2 (signed "
        ) && text.contains("event 4 is not the one it signed: the chain was rewritten"),
        "{text}"
    );
    assert!(text.contains("CHECKPOINT LOG MISSING: "), "{text}");
    assert!(text.contains("the chain records 2 checkpoint(s)"), "{text}");
    suggests_no_plain_checkpoint(&text);
    // the same findings in Spanish: every line and the refusal worded in Spanish
    let o = r.run(&["--lang", "es", "audit", "verify"]);
    assert_eq!(o.status.code(), Some(1));
    let es = out(&o);
    assert!(
        es.starts_with("DISCREPANCIA EN LA AUDITORÍA en ")
            && es.contains(
                "FALTA EL REGISTRO DE PUNTOS DE CONTROL: no hay ningún punto de control en "
            )
            && es.contains("la cadena registra 2 puntos de control"),
        "{es}"
    );
    assert!(
        !es.contains("CHECKPOINT") && !es.contains("AUDIT MISMATCH"),
        "{es}"
    );
    suggests_no_plain_checkpoint(&es);
    let o = r.run(&["--lang", "es", "audit", "checkpoint"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(
        e.contains("no se firmó nada: no hay registro de puntos de control en ")
            && e.contains("y la cadena tiene 5 eventos"),
        "{e}"
    );

    // none of the commands that once re-anchored it does now, and no log appears
    let e = r.fails(&["audit", "checkpoint"]);
    assert!(
        e.contains("there is no checkpoint log at") && e.contains("and the chain has 5 events"),
        "{e}"
    );
    let o = r.run(&["init"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("CHECKPOINT LOG MISSING"), "{}", out(&o));
    let e = r.fails(&["check", "--as-of", "2025-01-01", "--checkpoint"]);
    assert!(e.contains("nothing was signed"), "{e}");
    // not even a re-anchor, said and recorded: the chain no longer extends what it recorded
    let e = r.fails(&[
        "audit",
        "checkpoint",
        "--reanchor",
        "--reason",
        "el log se perdió",
    ]);
    assert!(
        e.contains("nothing was signed") && e.contains("event 4 is not the one it signed"),
        "{e}"
    );
    assert!(!log.exists(), "a log was started over the forged chain");
    let still = mismatch(&r);
    assert_eq!(still, text, "the refusals changed nothing");

    // the forger also rewrites the recorded checkpoint's head to the forged one: its signature
    // no longer verifies, and nobody without the key can make it again
    let forged_head: String = r
        .conn()
        .query_row("SELECT hash FROM audit_events WHERE seq = 4", [], |x| {
            x.get(0)
        })
        .unwrap();
    behind_vigias_back(
        &r,
        &format!(
            "UPDATE audit_checkpoints SET head = '{forged_head}' WHERE id = 2;
             UPDATE audit_events SET payload = (SELECT json_object('id', id, 'events', events,
                 'head', head, 'signed_at', signed_at, 'key_id', key_id, 'signature', signature,
                 'reanchor_reason', reanchor_reason, 'created_at', created_at,
                 'created_by', created_by) FROM audit_checkpoints WHERE id = 2)
              WHERE seq = 5;"
        ),
    );
    rehash_from(&r, 5);
    let text = mismatch(&r);
    assert!(
        text.starts_with(
            "CHECKPOINT IN THE CHAIN: the checkpoint the chain records in audit_checkpoints row 2"
        ) && text.contains("its signature does not verify"),
        "{text}"
    );
    suggests_no_plain_checkpoint(&text);
    let e = r.fails(&["audit", "checkpoint", "--reanchor", "--reason", "x"]);
    assert!(e.contains("its signature does not verify"), "{e}");
    assert!(!log.exists());
}

#[test]
fn a_chain_stripped_of_its_checkpoints_is_anchored_again_only_on_the_record() {
    // what the key cannot stop: the recorded checkpoints removed along with the log, the chain
    // rehashed. A re-anchor is then possible, but only said and recorded, and every verify after
    // reports it.
    let r = Reg::new().with_holders();
    breach(&r);
    r.ok(&["audit", "checkpoint"]);
    forge_breach_shares(&r);
    behind_vigias_back(
        &r,
        "DELETE FROM audit_checkpoints; DELETE FROM audit_events WHERE entity = 'audit_checkpoints';
         UPDATE audit_events SET seq = seq - 1;",
    );
    rehash_from(&r, 1);
    let log = std::path::PathBuf::from(format!("{}.checkpoints", r.db().display()));
    std::fs::remove_file(&log).unwrap();
    let text = mismatch(&r);
    assert!(text.contains("it records no checkpoint"), "{text}");
    suggests_no_plain_checkpoint(&text);
    let e = r.fails(&["audit", "checkpoint"]);
    assert!(
        e.contains("a new log would anchor whatever the chain holds now"),
        "{e}"
    );
    r.ok(&[
        "audit",
        "checkpoint",
        "--reanchor",
        "--reason",
        "disco dañado",
    ]);
    let v = r.ok(&["audit", "verify"]);
    assert!(v.starts_with("audit trail intact"), "{v}");
    assert!(
        v.contains("CHECKPOINT LOG STARTED AGAIN on ")
            && v.contains(" by tester at 3 events (audit_checkpoints row 1): disco dañado"),
        "{v}"
    );
    // and it stays said: a later write and checkpoint do not make it go away
    breach(&r);
    r.ok(&["audit", "checkpoint"]);
    let v = r.ok(&["audit", "verify"]);
    assert!(v.contains(": disco dañado;"), "{v}");
    // a second re-anchor needs a lost log, not a log that is there
    let e = r.fails(&["audit", "checkpoint", "--reanchor", "--reason", "otra vez"]);
    assert!(
        e.contains("--reanchor starts a checkpoint log only where there is none"),
        "{e}"
    );
}

#[test]
fn a_lost_log_is_started_again_only_by_a_recorded_reanchor_over_a_chain_that_still_verifies() {
    let r = Reg::new().with_holders();
    breach(&r);
    r.ok(&["audit", "checkpoint"]);
    let log = std::path::PathBuf::from(format!("{}.checkpoints", r.db().display()));
    std::fs::remove_file(&log).unwrap();
    // the chain is checked against the checkpoints it records even without the log
    let text = mismatch(&r);
    assert!(!text.contains("AUDIT MISMATCH"), "{text}");
    assert!(text.starts_with("CHECKPOINT LOG MISSING: "), "{text}");
    suggests_no_plain_checkpoint(&text);
    // --reason alone, or --reanchor alone, is a usage error
    r.fails(&["audit", "checkpoint", "--reanchor"]);
    r.fails(&["audit", "checkpoint", "--reason", "x"]);
    let o = r.ok(&[
        "audit",
        "checkpoint",
        "--reanchor",
        "--reason",
        "el servidor se reinstaló y el log no estaba en la copia",
    ]);
    assert!(o.starts_with("checkpoint 1: 5 events"), "{o}");
    let v = r.ok(&["audit", "verify"]);
    assert!(v.starts_with("audit trail intact: 6 events"), "{v}");
    assert!(v.contains("; 0 event(s) since\n"), "{v}");
    assert!(
        v.contains("(audit_checkpoints row 3): el servidor se reinstaló"),
        "{v}"
    );
    // a log put back from an older copy (without the last recorded checkpoint) is found
    let text = std::fs::read_to_string(&log).unwrap();
    breach(&r);
    r.ok(&["audit", "checkpoint"]);
    std::fs::write(&log, text).unwrap();
    let text = mismatch(&r);
    assert!(
        text.contains("which is not in") && text.contains("replaced by an older copy or cut"),
        "{text}"
    );
}

/// A review followed the demo's hint without its key and read "the chain was rewritten": with
/// another key than the register's, verify says to verify with the register's key first.
#[test]
fn a_register_verified_with_another_key_says_to_use_its_own_key_first() {
    let r = Reg::new().with_holders();
    r.ok(&["audit", "checkpoint"]);
    // another register's key (made by its own init)
    let other = r.dir.path().join("other.key");
    let o = r
        .command()
        .args(["--db"])
        .arg(r.dir.path().join("other.db"))
        .arg("--key")
        .arg(&other)
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = r.run(&["--key", other.to_str().unwrap(), "audit", "verify"]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(
        text.contains("it was signed by another key")
            && text.contains(
                "if this register's checkpoints are signed with another audit key, verify again \
                 with that key; if this is its key, the chain was rewritten or the row forged"
            ),
        "{text}"
    );
    // with its own key, intact
    assert!(r.ok(&["audit", "verify"]).starts_with("audit trail intact"));
}

/// With no --officer and an environment that names nobody (a bare cron job or container), the
/// audit trail names the system account (a review found "unknown" there).
#[cfg(target_os = "linux")]
#[test]
fn a_write_by_nobody_named_is_recorded_with_its_system_account() {
    use std::os::unix::fs::MetadataExt;
    let r = Reg::new();
    let o = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args([
            "user",
            "add",
            "eva",
            "--role",
            "consulta",
            "--password-stdin",
        ])
        .env_remove("USER")
        .env_remove("USERNAME")
        .env_remove("LOGNAME")
        .env_remove("VIGIA_OFFICER")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(b"una clave larga de prueba\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let uid = std::fs::metadata("/proc/self").unwrap().uid();
    let log = r.ok(&["audit", "log", "--entity", "users", "--format", "csv"]);
    assert!(log.contains(&format!(",uid {uid},user.add,")), "{log}");
}
