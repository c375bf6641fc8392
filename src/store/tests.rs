//! Unit tests of `mod.rs`.

use super::*;

mod schema;
use schema::EXPECTED;

#[test]
fn migrations_apply_to_an_empty_database_and_match_the_code() {
    let store = Store::in_memory().unwrap();
    assert_eq!(store.version().unwrap(), MIGRATIONS.len() as i64);
    let mut tables: Vec<String> = store
        .conn()
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<std::result::Result<_, _>>()
        .unwrap();
    let mut want: Vec<String> = EXPECTED.iter().map(|(t, _)| t.to_string()).collect();
    tables.sort();
    want.sort();
    assert_eq!(tables, want);
    for (table, columns) in EXPECTED {
        let got: Vec<String> = store
            .conn()
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        assert_eq!(&got, columns, "table {table}");
    }
}

#[test]
fn row_json_reads_only_audited_tables() {
    let store = Store::in_memory().unwrap();
    assert_eq!(row_json(store.conn(), "holders", 1).unwrap(), None);
    for table in ["sqlite_master", "holders; DROP TABLE holders", "nope"] {
        match row_json(store.conn(), table, 1) {
            Err(StoreError::Corrupt(m)) => {
                assert_eq!(m, format!("{table:?} is not an audited table"))
            }
            other => panic!("{table}: {other:?}"),
        }
    }
}

#[test]
fn an_optional_filter_lets_sqlite_use_the_index() {
    let store = Store::in_memory().unwrap();
    let plan = |sql: &str| -> String {
        let mut stmt = store
            .conn()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let rows = stmt.query_map([7i64], |r| r.get::<_, String>(3)).unwrap();
        rows.map(|r| r.unwrap()).collect::<Vec<_>>().join("; ")
    };
    let given = plan(&format!(
        "SELECT id FROM liquidations WHERE {}",
        filter(true, "breach_id", 1)
    ));
    assert!(
        given.contains("USING COVERING INDEX liquidations_breach"),
        "{given}"
    );
    // what it replaces: a scan of the whole table
    let old = plan("SELECT id FROM liquidations WHERE (?1 IS NULL OR breach_id = ?1)");
    assert!(
        !old.contains("INDEX liquidations_breach (breach_id=?)"),
        "{old}"
    );
    assert_eq!(filter(false, "breach_id", 1), "?1 IS NULL");
}

#[test]
fn an_older_register_is_migrated_on_open_and_a_newer_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        // a register as version 3 of vigia left it
        let conn = Connection::open(&path).unwrap();
        for (_, sql) in &MIGRATIONS[..3] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.version().unwrap(), MIGRATIONS.len() as i64);
    let app: i32 = store
        .conn()
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap();
    assert_eq!(app, APPLICATION_ID, "adopted in the migrating transaction");
    let n: i64 = store
        .conn()
        .query_row("SELECT count(*) FROM pledge_imports", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
    drop(store);
    // opening again changes nothing
    assert_eq!(
        Store::open(&path).unwrap().version().unwrap(),
        MIGRATIONS.len() as i64
    );
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    match Store::open(&path) {
        Err(StoreError::TooNew { found: 99, known }) => {
            assert_eq!(known, MIGRATIONS.len() as i64)
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a register from a newer vigia was opened"),
    }
}

#[test]
fn a_register_from_before_application_ids_is_adopted_and_a_lookalike_refused() {
    let dir = tempfile::tempdir().unwrap();
    let legacy = |name: &str, extra: &str| {
        let path = dir.path().join(name);
        let conn = Connection::open(&path).unwrap();
        for (_, sql) in MIGRATIONS {
            conn.execute_batch(sql).unwrap();
        }
        conn.execute_batch(extra).unwrap();
        conn.pragma_update(None, "user_version", MIGRATIONS.len() as i64)
            .unwrap();
        path
    };
    // the current schema, as vigia left it before it set an application id
    let path = legacy("old.db", "");
    let store = Store::open(&path).unwrap();
    let app: i32 = store
        .conn()
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap();
    assert_eq!(app, APPLICATION_ID);
    assert!(audit::verify(store.conn()).unwrap().intact());
    // vigia's tables and one more: not recognised, not touched
    let path = legacy("lookalike.db", "CREATE TABLE extra (x);");
    let before = std::fs::read(&path).unwrap();
    match Store::open(&path) {
        Err(StoreError::NotARegister(why)) => assert!(
            why.en().starts_with(&format!(
                "it is another application's SQLite database (schema version {}, tables ",
                MIGRATIONS.len()
            )),
            "{why}"
        ),
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // `create` on an existing register opens it; on anything else refuses
    assert!(Store::create(&dir.path().join("old.db")).is_ok());
    assert!(matches!(
        Store::create(&path),
        Err(StoreError::NotARegister(_))
    ));
}

#[test]
fn a_writer_that_waits_in_vain_names_the_command_holding_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.db");
    drop(Store::create(&path).unwrap());
    let note = WriterNote::path_of(&path);
    let mut importing = Store::open(&path).unwrap();
    importing.set_command("`vigia adjudications import`");
    importing
        .write("ana", |_| {
            assert!(note.exists(), "the writer left no note");
            let mut other = Store::open(&path)?;
            other.set_busy_timeout(std::time::Duration::from_millis(200));
            let e = other
                .write("luis", |_| Ok::<_, StoreError>(()))
                .unwrap_err();
            let text = e.to_string();
            let want = format!(
                "the register is busy: `vigia adjudications import` by ana (process {}), \
                     writing since 20",
                std::process::id()
            );
            assert!(text.starts_with(&want), "{text}");
            assert!(
                text.ends_with(
                    ", and still held its write lock after 0.2 s; nothing was written: run \
                         the command again when that one has finished"
                ),
                "{text}"
            );
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert!(!note.exists(), "the note outlived the write");
    // a refused write removes its note too
    let refused: Result<()> = importing.write("ana", |_| Err(StoreError::Corrupt("x".into())));
    assert!(refused.is_err());
    assert!(!note.exists());
    // a lock held by something that is not vigia
    let sqlite3 = Connection::open(&path).unwrap();
    sqlite3.execute_batch("BEGIN IMMEDIATE").unwrap();
    importing.set_busy_timeout(std::time::Duration::from_millis(100));
    let e = importing
        .write("ana", |_| Ok::<_, StoreError>(()))
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the register is busy: another program (no vigia command"),
        "{e}"
    );
}

#[test]
fn rows_cannot_be_updated_or_deleted() {
    let mut store = Store::in_memory().unwrap();
    store
        .write("tester", |tx| {
            tx.insert(
                "holders",
                crate::store::Action::HolderCreate,
                &[
                    ("doc_type", &"CC"),
                    ("doc_number", &"123"),
                    ("name", &"A"),
                    ("person_type", &"natural"),
                ],
            )
        })
        .unwrap();
    let e = store
        .conn()
        .execute("UPDATE holders SET name = 'B'", [])
        .unwrap_err();
    assert!(e.to_string().contains("append-only"), "{e}");
    assert!(store.conn().execute("DELETE FROM holders", []).is_err());
    assert!(
        store
            .conn()
            .execute("DELETE FROM audit_events", [])
            .is_err()
    );
}

#[test]
fn reopening_applies_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.db");
    Store::create(&path).unwrap();
    let s = Store::open(&path).unwrap();
    assert_eq!(s.version().unwrap(), MIGRATIONS.len() as i64);
    let mode: String = s
        .conn()
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = s
        .conn()
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
    // FULL (2): the WAL synced at every commit, so a recorded write survives a power cut
    let sync: i64 = s
        .conn()
        .pragma_query_value(None, "synchronous", |r| r.get(0))
        .unwrap();
    assert_eq!(sync, 2);
}

#[test]
fn a_refusal_names_each_rows_column_as_the_refused_files_header_writes_it() {
    let row = |field: &str| {
        Problem::Row(RowError::new(
            2,
            field,
            "7",
            crate::lang::Said::new("why", "por qué"),
        ))
    };
    let whole = Problem::Whole(crate::lang::Said::new("the file", "el archivo"));
    let refused = || {
        StoreError::Rejected(vec![
            row("adjudication_id"),
            row("rank"),
            row("lender"),
            row("header"),
            whole.clone(),
        ])
    };
    // a Spanish header with a byte-order mark and `;`; `lender` is not in it
    let spanish = "\u{feff}Adjudicación;GRADO ; Fecha inscripción\n7;1;02/04/2024\n".as_bytes();
    let fields = |e: StoreError| match e {
        StoreError::Rejected(ps) => ps
            .iter()
            .map(|p| match p {
                Problem::Row(e) => e.field.clone(),
                Problem::Whole(w) => w.en().to_string(),
            })
            .collect::<Vec<_>>(),
        other => panic!("not a refusal: {other}"),
    };
    let want = ["Adjudicación", "GRADO", "lender", "header", "the file"];
    assert_eq!(fields(refused().headed(spanish)), want);
    // named twice, as named once
    assert_eq!(fields(refused().headed(spanish).headed(spanish)), want);
    // an English header: vigia's names as they were
    let english = b"adjudication_id,rank,registered_on\n7,1,2024-04-02\n";
    assert_eq!(
        fields(refused().headed(english)),
        ["adjudication_id", "rank", "lender", "header", "the file"]
    );
    // bytes that are not text: nothing to name by
    assert_eq!(
        fields(refused().headed(b"PK\x03\x04\x00\xff\xfe")),
        ["adjudication_id", "rank", "lender", "header", "the file"]
    );
    // any other error as it was
    let x = crate::lang::Said::new("x".to_string(), "x".to_string());
    let other = StoreError::NotARegister(x).headed(spanish);
    assert!(matches!(other, StoreError::NotARegister(m) if m.en() == "x"));
}
