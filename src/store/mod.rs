//! The register in SQLite (rusqlite, bundled): opening with pragmas and numbered migrations, one
//! transaction per command, and the SHA-256-chained audit trail every write appends to.
//! One file per aggregate returns domain types; nothing here formats output or parses flags.

pub mod adjudications;
pub mod audit;
pub mod breaches;
pub mod columns;
pub mod holders;
pub mod import;
pub mod notices;
pub mod pledges;
pub mod programs;
pub mod rates;
pub mod scan;
pub mod users;

use crate::import::RowError;
use rusqlite::{Connection, OpenFlags, Transaction, params};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::Path;

/// Numbered migrations, applied in order; `PRAGMA user_version` holds how many ran.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_register.sql",
        include_str!("../../schema/0001_register.sql"),
    ),
    (
        "0002_notices.sql",
        include_str!("../../schema/0002_notices.sql"),
    ),
    (
        "0003_check_indexes.sql",
        include_str!("../../schema/0003_check_indexes.sql"),
    ),
    (
        "0004_pledge_imports.sql",
        include_str!("../../schema/0004_pledge_imports.sql"),
    ),
    (
        "0007_users.sql",
        include_str!("../../schema/0007_users.sql"),
    ),
];

/// Errors of the storage layer.
#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
    /// The database was written by a newer vigia.
    TooNew {
        found: i64,
        known: i64,
    },
    /// A stored value could not be read back (a hand edit, or a bug).
    Corrupt(String),
    /// Something the person asked for does not exist.
    NotFound {
        what: &'static str,
        id: String,
    },
    /// Input rejected row by row (e.g. an import): every problem, rows in line order.
    Rejected(Vec<Problem>),
}

/// One reason an input was refused: a row of a file (naming its line, field and value), or the
/// input as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    Row(RowError),
    Whole(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Row(e) => e.fmt(f),
            Problem::Whole(m) => f.write_str(m),
        }
    }
}

/// An import's refusal: the row problems in line order (the file's own and the register's are
/// found in separate passes; a line's problems keep their order), then the whole file's.
pub(crate) fn rejected(mut rows: Vec<RowError>, whole: Vec<String>) -> StoreError {
    rows.sort_by_key(|e| e.line);
    StoreError::Rejected(
        rows.into_iter()
            .map(Problem::Row)
            .chain(whole.into_iter().map(Problem::Whole))
            .collect(),
    )
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
            StoreError::TooNew { found, known } => write!(
                f,
                "the database has schema version {found} but this vigia knows only {known}; use a newer vigia"
            ),
            StoreError::Corrupt(m) => write!(
                f,
                "stored data cannot be read: {m}; run `vigia audit verify`"
            ),
            StoreError::NotFound { what, id } => write!(f, "no {what} {id} in the register"),
            StoreError::Rejected(problems) => {
                write!(f, "{} problem(s), nothing was written:", problems.len())?;
                for p in problems {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    /// A stored value that did not convert (see [`columns::Cols::get`]) is corrupt data, not a
    /// database error.
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::FromSqlConversionFailure(_, _, cause)
                if cause.is::<columns::Corruption>() =>
            {
                StoreError::Corrupt(cause.to_string())
            }
            e => StoreError::Sqlite(e),
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Page cache (`PRAGMA cache_size`, negative: KiB) for connections that only stream through
/// tables in order: the operating system's cache serves those reads, and a large page cache only
/// costs memory and time (the check over a million adjudications ran in 145 MB with the default
/// 64 MiB per connection, in 26 MB and about 15 % faster with this).
pub const STREAMING_CACHE: i64 = -8192;

/// A second, read-only connection to the register `conn` is open on, for reading on another
/// thread; `None` for an in-memory register (which no other connection can see).
pub fn reader(conn: &Connection) -> Result<Option<Connection>> {
    let Some(path) = conn.path().filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let reader = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    configure(&reader)?;
    reader.pragma_update(None, "cache_size", STREAMING_CACHE)?;
    Ok(Some(reader))
}

/// An optional filter as SQL an index can serve: `col = ?n` when the value is given, `?n IS NULL`
/// (always true) when not. The parameter stays in the statement either way, so the caller binds
/// the same list; `(?n IS NULL OR col = ?n)` would keep SQLite from using an index on `col`.
pub(crate) fn filter(given: bool, col: &str, n: usize) -> String {
    if given {
        format!("{col} = ?{n}")
    } else {
        format!("?{n} IS NULL")
    }
}

/// An open register.
pub struct Store {
    conn: Connection,
}

fn configure(conn: &Connection) -> Result<()> {
    // Another writer (a large import takes seconds) is waited for rather than failed on.
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // 64 MiB of page cache: imports and the batch check walk big indexes.
    conn.pragma_update(None, "cache_size", -65536)?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    // A prepared statement keeps its plan whatever values are bound: without this, SQLite (built
    // with STAT4) re-plans some statements at every new binding (a pledge import spent half its
    // time re-preparing one lookup).
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    Ok(())
}

impl Store {
    /// Opens an existing register (never creates one).
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        configure(&conn)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    /// Creates a register (or opens the one there) and applies the migrations.
    pub fn create(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)?;
        configure(&conn)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    /// An in-memory register, for tests.
    pub fn in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory()?;
        configure(&conn)?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    /// Schema version (number of migrations applied).
    pub fn version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<()> {
        let found = self.version()?;
        let known = MIGRATIONS.len() as i64;
        if found > known {
            return Err(StoreError::TooNew { found, known });
        }
        if found == known {
            return Ok(());
        }
        // Under the write lock, and from the version read under it: two processes opening an old
        // register at once migrate it once.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Read access.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Runs `f` in one transaction as `actor`; commits only if it succeeds.
    pub fn write<T, E: From<StoreError>>(
        &mut self,
        actor: &str,
        f: impl FnOnce(&mut Tx<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        // IMMEDIATE: the write lock is taken (waiting up to the busy timeout for another writer)
        // before anything is read, so a concurrent writer can never invalidate what this
        // transaction read; a deferred one would fail with "database is locked" instead of waiting.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let mut w = Tx {
            tx,
            actor: actor.to_string(),
            now: now_utc(),
        };
        let out = f(&mut w)?;
        w.tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }
}

/// A write transaction: every insert goes through [`Tx::insert`], which appends its audit event.
pub struct Tx<'c> {
    tx: Transaction<'c>,
    actor: String,
    now: String,
}

impl Tx<'_> {
    pub fn conn(&self) -> &Connection {
        &self.tx
    }

    pub fn now(&self) -> &str {
        &self.now
    }

    pub fn actor(&self) -> &str {
        &self.actor
    }

    /// Inserts one row (the `created_at`/`created_by` columns are added here), appends the audit
    /// event `action` with the stored row as payload, and returns the new id.
    pub fn insert(
        &mut self,
        table: &'static str,
        action: &str,
        columns: &[(&str, &dyn rusqlite::ToSql)],
    ) -> Result<i64> {
        let id = self.insert_unaudited(table, columns)?;
        audit::append(&self.tx, &self.now, &self.actor, action, table, id, &[])?;
        Ok(id)
    }

    /// Inserts one row like [`Tx::insert`] but appends no event: the caller covers it with
    /// [`Tx::audit_bulk`] in the same transaction. For imports of many rows.
    pub fn insert_unaudited(
        &mut self,
        table: &'static str,
        columns: &[(&str, &dyn rusqlite::ToSql)],
    ) -> Result<i64> {
        let mut names: Vec<&str> = columns.iter().map(|(n, _)| *n).collect();
        names.extend(["created_at", "created_by"]);
        let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("?{i}")).collect();
        let sql = format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            names.join(", "),
            placeholders.join(", ")
        );
        let mut values: Vec<&dyn rusqlite::ToSql> = columns.iter().map(|(_, v)| *v).collect();
        values.push(&self.now);
        values.push(&self.actor);
        self.tx.prepare_cached(&sql)?.execute(values.as_slice())?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Appends one event for `entity` row `id` that also covers rows written in bulk.
    pub fn audit_bulk(
        &mut self,
        action: &str,
        entity: &'static str,
        id: i64,
        covers: &[audit::Cover],
    ) -> Result<i64> {
        audit::append(&self.tx, &self.now, &self.actor, action, entity, id, covers)
    }
}

fn now_utc() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The stored row as a JSON object, columns in table order: the audit payload, and what
/// `audit verify` compares it with. `table` (read back from the trail by `verify`) must be one of
/// the audited tables before it goes into the SQL.
pub fn row_json(conn: &Connection, table: &str, id: i64) -> Result<Option<Value>> {
    let key = match table {
        "audit_events" => "seq",
        t if audit::AUDITED.contains(&t) => "id",
        t => {
            return Err(StoreError::Corrupt(format!(
                "{t:?} is not an audited table"
            )));
        }
    };
    let mut stmt = conn.prepare_cached(&format!("SELECT * FROM {table} WHERE {key} = ?1"))?;
    let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
    let mut rows = stmt.query(params![id])?;
    match rows.next()? {
        Some(r) => Ok(Some(json_of_row(r, &names)?)),
        None => Ok(None),
    }
}

/// A row as a JSON object with its columns in order: integers as numbers, text as strings, NULL
/// as null. The one definition of a row's audited form.
pub fn json_of_row(r: &rusqlite::Row<'_>, names: &[String]) -> Result<Value> {
    let mut map = Map::new();
    for (i, name) in names.iter().enumerate() {
        let v = match r.get_ref(i)? {
            rusqlite::types::ValueRef::Null => Value::Null,
            rusqlite::types::ValueRef::Integer(n) => Value::from(n),
            rusqlite::types::ValueRef::Real(x) => Value::String(format!("REAL:{x}")),
            rusqlite::types::ValueRef::Text(t) => {
                Value::String(String::from_utf8_lossy(t).into_owned())
            }
            rusqlite::types::ValueRef::Blob(b) => Value::String(hex(b)),
        };
        map.insert(name.clone(), v);
    }
    Ok(Value::Object(map))
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `data`, lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// Reads a stored exact decimal.
pub fn decimal(text: &str, what: &str) -> Result<rust_decimal::Decimal> {
    crate::money::parse_decimal(text)
        .map_err(|_| StoreError::Corrupt(format!("{what} {text:?} is not a decimal")))
}

/// Reads a stored ISO date.
pub fn date(text: &str, what: &str) -> Result<chrono::NaiveDate> {
    crate::calendar::parse_iso(text)
        .ok_or_else(|| StoreError::Corrupt(format!("{what} {text:?} is not a date")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables and columns the code reads and writes.
    const EXPECTED: &[(&str, &[&str])] = &[
        (
            "programs",
            &[
                "id",
                "code",
                "source_toml",
                "sha256",
                "created_at",
                "created_by",
            ],
        ),
        (
            "stage_prices",
            &[
                "id",
                "program_id",
                "stage",
                "price",
                "recorded_on",
                "created_at",
                "created_by",
            ],
        ),
        (
            "holders",
            &[
                "id",
                "doc_type",
                "doc_number",
                "name",
                "person_type",
                "created_at",
                "created_by",
            ],
        ),
        (
            "imports",
            &[
                "id",
                "program_id",
                "file_name",
                "sha256",
                "encoding",
                "created_at",
                "created_by",
            ],
        ),
        (
            "pledge_imports",
            &[
                "id",
                "file_name",
                "sha256",
                "encoding",
                "created_at",
                "created_by",
            ],
        ),
        (
            "adjudications",
            &[
                "id",
                "program_id",
                "holder_id",
                "import_id",
                "line",
                "category",
                "shares",
                "price_per_share",
                "adjudicated_on",
                "lender",
                "financed_shares",
                "created_at",
                "created_by",
            ],
        ),
        (
            "pledges",
            &[
                "id",
                "adjudication_id",
                "rank",
                "beneficiary",
                "shares",
                "lender",
                "registered_on",
                "created_at",
                "created_by",
            ],
        ),
        (
            "pledge_releases",
            &["id", "pledge_id", "released_on", "created_at", "created_by"],
        ),
        (
            "breaches",
            &[
                "id",
                "adjudication_id",
                "kind",
                "breach_date",
                "shares",
                "consideration_per_share",
                "consideration_total",
                "registered_on",
                "evidence",
                "created_at",
                "created_by",
            ],
        ),
        (
            "breach_voids",
            &["id", "breach_id", "reason", "created_at", "created_by"],
        ),
        (
            "payments",
            &[
                "id",
                "breach_id",
                "paid_on",
                "amount",
                "reference",
                "created_at",
                "created_by",
            ],
        ),
        (
            "liquidations",
            &[
                "id",
                "breach_id",
                "until",
                "convention",
                "provisional",
                "total_due",
                "inputs_json",
                "result_json",
                "sha256",
                "created_at",
                "created_by",
            ],
        ),
        (
            "rate_periods",
            &[
                "id",
                "valid_from",
                "valid_to",
                "ibc_ea_pct",
                "usury_ea_pct",
                "resolution",
                "created_at",
                "created_by",
            ],
        ),
        (
            "rate_supersessions",
            &[
                "id",
                "by_rate_id",
                "superseded_rate_id",
                "shipped_valid_from",
                "reason",
                "created_at",
                "created_by",
            ],
        ),
        (
            "audit_events",
            &[
                "seq",
                "at",
                "actor",
                "action",
                "entity",
                "entity_id",
                "payload",
                "prev_hash",
                "hash",
            ],
        ),
        (
            "notices",
            &[
                "id",
                "program_id",
                "year",
                "seq",
                "number",
                "breach_id",
                "liquidation_id",
                "notice_date",
                "deadline",
                "supersedes_id",
                "created_at",
                "created_by",
            ],
        ),
        ("users", &["id", "name", "role", "created_at", "created_by"]),
        (
            "user_passwords",
            &["id", "user_id", "phc", "created_at", "created_by"],
        ),
        (
            "user_disables",
            &["id", "user_id", "created_at", "created_by"],
        ),
    ];

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
    fn rows_cannot_be_updated_or_deleted() {
        let mut store = Store::in_memory().unwrap();
        store
            .write("tester", |tx| {
                tx.insert(
                    "holders",
                    "holder.create",
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
    }
}
