//! The register in SQLite (rusqlite, bundled): opening (only a vigia register: its application
//! id) with pragmas and numbered migrations, one transaction per command (leaving a note of who
//! writes beside the file), and the SHA-256-chained audit trail every write appends to, anchored
//! by signed checkpoints kept outside the database.
//! One file per aggregate returns domain types; nothing here formats output or parses flags.

pub mod acceptances;
pub mod acta_files;
pub mod adjudications;
pub mod anchors;
pub mod audit;
pub mod audit_action;
pub mod backup;
pub mod breaches;
pub(crate) mod bulk;
pub mod checkpoint;
pub mod columns;
pub mod contacts;
pub mod external;
mod hash;
pub mod holders;
pub mod import;
pub mod letterheads;
pub mod lockups;
pub mod notices;
pub mod offering;
pub mod outcome_page;
pub mod pledges;
pub mod prints;
pub mod programs;
mod queue;
pub mod rates;
mod reimport;
pub mod scan;
mod schema_version;
pub mod settlements;
pub mod stage;
mod stage_import;
pub mod users;
mod voided;
pub mod wal;

use crate::import::RowError;
use crate::lang::{Lang, Said};
pub use audit_action::Action;
pub use hash::{hex, sha256_hex, sha256_read};
use rusqlite::{Connection, OpenFlags, Transaction, params};
use serde_json::{Map, Value};
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
        "0005_corrections.sql",
        include_str!("../../schema/0005_corrections.sql"),
    ),
    (
        "0006_offering.sql",
        include_str!("../../schema/0006_offering.sql"),
    ),
    (
        "0007_users.sql",
        include_str!("../../schema/0007_users.sql"),
    ),
    (
        "0008_letters.sql",
        include_str!("../../schema/0008_letters.sql"),
    ),
    (
        "0009_stages.sql",
        include_str!("../../schema/0009_stages.sql"),
    ),
    (
        "0010_sign_ins.sql",
        include_str!("../../schema/0010_sign_ins.sql"),
    ),
    (
        "0011_letterheads.sql",
        include_str!("../../schema/0011_letterheads.sql"),
    ),
    (
        "0012_validity.sql",
        include_str!("../../schema/0012_validity.sql"),
    ),
    (
        "0013_external_first_stage.sql",
        include_str!("../../schema/0013_external_first_stage.sql"),
    ),
    (
        "0014_acceptance_figures.sql",
        include_str!("../../schema/0014_acceptance_figures.sql"),
    ),
    (
        "0015_audit_checkpoints.sql",
        include_str!("../../schema/0015_audit_checkpoints.sql"),
    ),
    (
        "0016_bulk_row_prints.sql",
        include_str!("../../schema/0016_bulk_row_prints.sql"),
    ),
    (
        "0017_acta_files.sql",
        include_str!("../../schema/0017_acta_files.sql"),
    ),
];

/// `PRAGMA application_id` of a vigia register ("vigi" in ASCII): what tells it apart from any
/// other SQLite file. Set by the first migration's transaction (and on registers created before
/// it was, when they are first opened).
pub const APPLICATION_ID: i32 = 0x7669_6769;

/// What is in a file given as a register, read without writing anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Identity {
    /// A register with vigia's application id.
    Register,
    /// A register created before vigia set its application id: no id, a known schema version,
    /// and exactly the tables the migrations up to that version create.
    Legacy,
}

/// Decides whether the database on `conn` is a vigia register, reading only (the header pragmas
/// and the table names).
fn identify(conn: &Connection) -> Result<Identity> {
    let not_sqlite = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            StoreError::NotARegister(crate::said!(store::file_not_sqlite))
        }
        _ => StoreError::Sqlite(e),
    };
    let app: i32 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .map_err(not_sqlite)?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(not_sqlite)?;
    let known = MIGRATIONS.len() as i64;
    if app == APPLICATION_ID {
        return match version {
            v if v > known => Err(StoreError::TooNew { found: v, known }),
            v if v >= 1 => Ok(Identity::Register),
            v => Err(StoreError::NotARegister(crate::said!(
                store::vigia_id_but_schema_version,
                v
            ))),
        };
    }
    if app != 0 {
        let app = format!("{app:#010x}");
        return Err(StoreError::NotARegister(crate::said!(
            store::another_application_id,
            app
        )));
    }
    let tables = table_names(conn)?;
    if tables.is_empty() && version == 0 {
        return Err(StoreError::NotARegister(crate::said!(
            store::sqlite_without_tables
        )));
    }
    if (1..=known).contains(&version) {
        let legacy = Connection::open_in_memory()?;
        for (_, sql) in &MIGRATIONS[..version as usize] {
            legacy.execute_batch(sql)?;
        }
        if table_names(&legacy)? == tables {
            return Ok(Identity::Legacy);
        }
    }
    let mut listed: Vec<&str> = tables.iter().map(String::as_str).take(5).collect();
    if tables.len() > 5 {
        listed.push("...");
    }
    let listed = listed.join(", ");
    Err(StoreError::NotARegister(crate::said!(
        store::another_application_tables,
        version,
        listed
    )))
}

fn table_names(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) != 'sqlite_'
         ORDER BY name",
    )?;
    let names = stmt.query_map([], |r| r.get(0))?;
    Ok(names.collect::<rusqlite::Result<_>>()?)
}

/// Errors of the storage layer.
#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
    /// The database was written by a newer vigia.
    TooNew {
        found: i64,
        known: i64,
    },
    /// The schema version (`PRAGMA user_version`) is lower than the schema the file holds: it
    /// was changed by hand. Nothing was migrated.
    VersionLowered {
        /// The version the file says.
        found: i64,
        /// A table the file holds that a later migration creates.
        table: String,
        /// The migration that creates it.
        created_by: i64,
        /// The highest migration whose table the file holds: the version it should say.
        holds: i64,
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
    /// The file is not a vigia register (empty, not SQLite, another application's database); it
    /// was not changed.
    NotARegister(crate::lang::Said),
    /// Another writer held the write lock for the whole busy timeout.
    Busy {
        /// Its note (who writes, officer, process, since when), when it left one.
        holder: Option<Writer>,
        waited: std::time::Duration,
    },
}

/// One reason an input was refused: a row of a file (naming its line, field and value), or the
/// input as a whole; said in English and Spanish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    Row(RowError),
    Whole(Said),
}

impl Problem {
    /// The problem as one line in `lang` (a row's with its line: `line 4: ...`, `línea 4: ...`).
    pub fn in_lang(&self, lang: Lang) -> String {
        match self {
            Problem::Row(e) => e.in_lang(lang),
            Problem::Whole(m) => m.in_lang(lang).to_string(),
        }
    }
}

/// In English, the command line's language.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Row(e) => e.fmt(f),
            Problem::Whole(m) => m.fmt(f),
        }
    }
}

/// An import's refusal: the row problems in line order (the file's own and the register's are
/// collected apart in one reading of the file, every valid row judged even after a bad one; a
/// line's problems keep their order), then the whole file's.
pub(crate) fn rejected(mut rows: Vec<RowError>, whole: Vec<Said>) -> StoreError {
    rows.sort_by_key(|e| e.line);
    StoreError::Rejected(
        rows.into_iter()
            .map(Problem::Row)
            .chain(whole.into_iter().map(Problem::Whole))
            .collect(),
    )
}

impl StoreError {
    /// An import's refusal ([`StoreError::Rejected`]) with each row's column named as the header
    /// of `bytes`, the refused file, writes it (`Precio por acción` or `price_per_share`:
    /// [`crate::import::Headed`], the header read again only now), and its value quoted as the
    /// row's cell writes it (`1.450,50`, not the `1450.50` a rule read); any other error as it is.
    /// The one place every import's refusals are named so, the reader's and the register's alike.
    pub(crate) fn headed(self, bytes: &[u8]) -> StoreError {
        match self {
            StoreError::Rejected(mut problems) => {
                let header = crate::import::Headed::of(bytes);
                let mut rows: Vec<&mut crate::import::RowError> = problems
                    .iter_mut()
                    .filter_map(|p| match p {
                        Problem::Row(e) => Some(e),
                        Problem::Whole(_) => None,
                    })
                    .collect();
                crate::import::Headed::quote_cells(bytes, &mut rows);
                for e in rows {
                    header.name(std::slice::from_mut(e));
                }
                StoreError::Rejected(problems)
            }
            other => other,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
            StoreError::TooNew { found, known } => write!(
                f,
                "the database has schema version {found} but this vigia knows only {known}; use a newer vigia"
            ),
            StoreError::VersionLowered {
                found,
                table,
                created_by,
                holds,
            } => write!(
                f,
                "the register's schema version was changed by hand: it says {found}, but the \
                 register already holds table {table}, which migration {created_by} creates; nothing \
                 was migrated or written. Restore the register from its latest backup, or put \
                 the version back (PRAGMA user_version = {holds}) and verify the audit trail"
            ),
            StoreError::Corrupt(m) => write!(
                f,
                "stored data cannot be read: {m}; verify the register's audit trail"
            ),
            StoreError::NotFound { what, id } => write!(f, "no {what} {id} in the register"),
            StoreError::Busy {
                holder: Some(h),
                waited,
            } => write!(
                f,
                "the register is busy: {} by {} (process {}), writing since {}, and still held \
                 its write lock after {}; nothing was written: run the command again when that \
                 one has finished",
                h.who.as_deref().unwrap_or("a vigia command"),
                h.actor,
                h.process,
                h.since,
                seconds(*waited)
            ),
            StoreError::Busy {
                holder: None,
                waited,
            } => write!(
                f,
                "the register is busy: another program (no vigia command left its name: perhaps \
                 the sqlite3 shell or a copy of the file) still held its write lock after {} s; \
                 nothing was written: try again when it has finished",
                seconds(*waited)
            ),
            StoreError::NotARegister(why) => write!(
                f,
                "not a vigia register: {}; it was left untouched",
                why.en()
            ),
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

/// "30 s", "0.2 s".
fn seconds(d: std::time::Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

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

/// Where a connection keeps its temporary tables and sorts while [`PageCache::set`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Temp {
    /// As the connection keeps them (`MEMORY`).
    AsIs,
    /// On disk.
    OnDisk,
    /// On disk where SQLite allows that change (not inside a transaction with a temporary
    /// table open); as the connection keeps them where it does not.
    OnDiskIfAllowed,
}

/// A connection's page cache (`PRAGMA cache_size`) and temporary storage (`temp_store`) as they
/// were before [`PageCache::set`] changed them, to be put back by [`PageCache::put_back`]. The
/// one place that saves, sets and restores them; [`with_cache`] for a closure.
#[must_use = "the connection's page cache is put back by put_back"]
pub struct PageCache {
    cache: i64,
    /// `temp_store` as it was, when it was changed.
    temp: Option<i64>,
}

impl PageCache {
    /// Sets `conn`'s page cache to `cache` (negative: KiB) and its temporary storage as `temp`
    /// says; what they were, for [`PageCache::put_back`].
    pub fn set(conn: &Connection, cache: i64, temp: Temp) -> Result<PageCache> {
        let was: i64 = conn.pragma_query_value(None, "cache_size", |r| r.get(0))?;
        let temp_was: i64 = conn.pragma_query_value(None, "temp_store", |r| r.get(0))?;
        let on_disk = match temp {
            Temp::AsIs => false,
            Temp::OnDisk => {
                conn.pragma_update(None, "temp_store", "FILE")?;
                true
            }
            Temp::OnDiskIfAllowed => conn.pragma_update(None, "temp_store", "FILE").is_ok(),
        };
        let saved = PageCache {
            cache: was,
            temp: on_disk.then_some(temp_was),
        };
        if let Err(e) = conn.pragma_update(None, "cache_size", cache) {
            let _ = saved.put_back(conn);
            return Err(e.into());
        }
        Ok(saved)
    }

    /// Puts back the page cache and temporary storage [`PageCache::set`] found.
    pub fn put_back(self, conn: &Connection) -> Result<()> {
        conn.pragma_update(None, "cache_size", self.cache)?;
        if let Some(temp) = self.temp {
            conn.pragma_update(None, "temp_store", temp)?;
        }
        Ok(())
    }
}

/// Runs `f` with `conn`'s page cache set to `cache` and its temporary storage as `temp` says
/// ([`PageCache`]), both put back afterwards whatever `f` returned: `f`'s own error first, a
/// failure to put them back only when `f` succeeded.
pub fn with_cache<T, E: From<StoreError>>(
    conn: &Connection,
    cache: i64,
    temp: Temp,
    f: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let saved = PageCache::set(conn, cache, temp)?;
    let out = f();
    let put_back = saved.put_back(conn);
    let out = out?;
    put_back?;
    Ok(out)
}

/// Runs `f` with `conn` set for a long read in order (an acta's million rows read, rendered and
/// checked): the small streaming page cache, and temporary tables and sorts on disk (the
/// connection's `temp_store` is `MEMORY`, so a read sorted without an index, such as a run's
/// outcomes by their order, held every row's sort record: 200 MiB for a million). Both are put
/// back afterwards, whatever `f` returned.
pub fn streaming<T>(conn: &Connection, f: impl FnOnce() -> T) -> Result<T> {
    with_cache(conn, STREAMING_CACHE, Temp::OnDisk, || {
        Ok::<_, StoreError>(f())
    })
}

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
    /// The command writing, for the note another writer reads when it cannot get the lock
    /// (e.g. "payment record").
    command: String,
    /// How long a write waits for the lock (`PRAGMA busy_timeout`).
    busy_timeout: std::time::Duration,
}

/// How long a write waits for another writer before giving up (`PRAGMA busy_timeout`).
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The note a writer leaves beside the register while it holds the write lock, `<db>.writer`
/// (mode 0600): written once `BEGIN IMMEDIATE` has the lock, removed before the commit (so that it
/// never removes the next writer's note). A writer that waited the whole busy timeout names the
/// command from it. Best effort: a directory it cannot write to only loses the name.
struct WriterNote(Option<std::path::PathBuf>);

/// Who holds the write lock, as the note it left says: each front end words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    /// The front end's name for itself and what it does (none: it gave none).
    pub who: Option<String>,
    /// The officer writing.
    pub actor: String,
    pub process: u32,
    /// Since when, UTC (RFC 3339).
    pub since: String,
}

impl Writer {
    /// The note's text: one field a line (who, officer, process, since).
    fn note(&self) -> String {
        let one_line = |s: &str| s.replace(['\n', '\r'], " ");
        format!(
            "{}\n{}\n{}\n{}\n",
            one_line(self.who.as_deref().unwrap_or("")),
            one_line(&self.actor),
            self.process,
            self.since
        )
    }

    /// A note read back; none when it is not one (empty, cut, another format).
    fn of_note(text: &str) -> Option<Writer> {
        let mut lines = text.lines();
        let who = lines.next()?.trim();
        let actor = lines.next()?.trim().to_string();
        let process = lines.next()?.trim().parse().ok()?;
        let since = lines.next()?.trim().to_string();
        Some(Writer {
            who: Some(who.to_string()).filter(|w| !w.is_empty()),
            actor,
            process,
            since,
        })
        .filter(|w| !w.actor.is_empty() && !w.since.is_empty())
    }
}

impl WriterNote {
    fn path_of(db: &Path) -> std::path::PathBuf {
        let mut p = db.as_os_str().to_owned();
        p.push(".writer");
        p.into()
    }

    fn leave(conn: &Connection, text: &str) -> WriterNote {
        let Some(db) = conn.path().filter(|p| !p.is_empty()) else {
            return WriterNote(None);
        };
        let note = Self::path_of(Path::new(db));
        // written aside and renamed over: a link planted at the note's path is replaced, never
        // followed
        let mut aside = note.clone().into_os_string();
        aside.push(format!(".{}", std::process::id()));
        let aside = std::path::PathBuf::from(aside);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options
            .open(&aside)
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
            .and_then(|()| std::fs::rename(&aside, &note));
        if written.is_err() {
            let _ignored = std::fs::remove_file(&aside);
            return WriterNote(None);
        }
        WriterNote(Some(note))
    }

    /// The note of the writer holding the lock on the register at `db` now, if it left one.
    fn read(db: Option<&Path>) -> Option<Writer> {
        Writer::of_note(&std::fs::read_to_string(Self::path_of(db?)).ok()?)
    }
}

impl Drop for WriterNote {
    fn drop(&mut self) {
        if let Some(p) = &self.0 {
            let _ignored = std::fs::remove_file(p);
        }
    }
}

/// `BEGIN IMMEDIATE` on `conn`; a lock still held by another writer after the busy timeout
/// becomes [`StoreError::Busy`], naming that writer when it left a note.
fn begin_immediate(conn: &mut Connection, waited: std::time::Duration) -> Result<Transaction<'_>> {
    let db = conn
        .path()
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from);
    match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => Ok(tx),
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => {
            Err(StoreError::Busy {
                holder: WriterNote::read(db.as_deref()),
                waited,
            })
        }
        Err(e) => Err(e.into()),
    }
}

fn configure(conn: &Connection) -> Result<()> {
    // Another writer (a large import takes seconds) is waited for rather than failed on.
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // A write vigia reports as recorded survives a power cut or a crash of the machine: the WAL is
    // synced at every commit (`NORMAL` syncs it only at the checkpoint, so the last commits could
    // be lost, and with them the record a notice already handed over was rendered from). An
    // import is one commit: the sync it waits for is the one its checkpoint made anyway.
    conn.pragma_update(None, "synchronous", "FULL")?;
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
    /// Opens an existing register (never creates one). Anything that is not a vigia register
    /// (see [`APPLICATION_ID`]) is refused before anything is written to it.
    pub fn open(path: &Path) -> Result<Store> {
        if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
            return Err(StoreError::NotARegister(crate::said!(store::file_empty)));
        }
        {
            // read only: a file that is not a register must stay byte-for-byte as it is
            let probe = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            identify(&probe)?;
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        configure(&conn)?;
        let mut store = Store {
            conn,
            command: String::new(),
            busy_timeout: BUSY_TIMEOUT,
        };
        // again on this connection, in case the file was replaced in between
        identify(&store.conn)?;
        store.conn.pragma_update(None, "journal_mode", "WAL")?;
        store.migrate()?;
        Ok(store)
    }

    /// Creates a register where no file exists (mode 0600 from the start, where the OS allows),
    /// or opens the register there; any other file there is refused untouched.
    pub fn create(path: &Path) -> Result<Store> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Store::open(path),
            Err(e) => {
                return Err(StoreError::NotARegister(crate::said!(
                    store::cannot_create,
                    e
                )));
            }
        }
        let created = (|| {
            let conn = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            configure(&conn)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            let mut store = Store {
                conn,
                command: String::new(),
                busy_timeout: BUSY_TIMEOUT,
            };
            store.migrate()?;
            Ok(store)
        })();
        if created.is_err() {
            // an empty file left behind would be refused as "not a register" ever after
            let _ignored = std::fs::remove_file(path);
        }
        created
    }

    /// An in-memory register, for tests.
    pub fn in_memory() -> Result<Store> {
        let conn = Connection::open_in_memory()?;
        configure(&conn)?;
        let mut store = Store {
            conn,
            command: String::new(),
            busy_timeout: BUSY_TIMEOUT,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Schema version (number of migrations applied).
    pub fn version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Applies the migrations not yet applied and sets vigia's application id, in one
    /// transaction. Only ever called on a new database or one [`identify`] accepted.
    fn migrate(&mut self) -> Result<()> {
        let found = self.version()?;
        let known = MIGRATIONS.len() as i64;
        if found > known {
            return Err(StoreError::TooNew { found, known });
        }
        let app: i32 = self
            .conn
            .pragma_query_value(None, "application_id", |r| r.get(0))?;
        if found == known && app == APPLICATION_ID {
            return Ok(());
        }
        // Under the write lock, and from the version read under it: two processes opening an old
        // register at once migrate it once.
        let tx = begin_immediate(&mut self.conn, self.busy_timeout)?;
        let found: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        schema_version::not_lowered(&tx, found)?;
        for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        tx.commit()?;
        Ok(())
    }

    /// Read access.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Names who writes through this store as its front end words itself (the command line:
    /// "`vigia payment record`"), for the note another writer reads when it waits for the lock
    /// in vain.
    pub fn set_command(&mut self, command: &str) {
        self.command = command.to_string();
    }

    /// Waits `d` instead of 30 s for another writer (tests).
    #[cfg(test)]
    fn set_busy_timeout(&mut self, d: std::time::Duration) {
        self.conn.busy_timeout(d).expect("a busy timeout is set");
        self.busy_timeout = d;
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
        let now = now_utc();
        // this process's writers queue first (dropped last: after the commit or the rollback)
        let db = self.conn.path().filter(|p| !p.is_empty()).map(Path::new);
        let Some(_turn) = queue::wait(db, self.busy_timeout) else {
            return Err(StoreError::Busy {
                holder: WriterNote::read(db),
                waited: self.busy_timeout,
            }
            .into());
        };
        let tx = begin_immediate(&mut self.conn, self.busy_timeout)?;
        let writer = Writer {
            who: Some(self.command.clone()).filter(|c| !c.is_empty()),
            actor: actor.to_string(),
            process: std::process::id(),
            since: now.clone(),
        };
        let note = WriterNote::leave(&tx, &writer.note());
        let mut w = Tx {
            tx,
            actor: actor.to_string(),
            now,
        };
        let out = f(&mut w);
        drop(note); // while the lock is still held: never the next writer's note
        let out = out?;
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

/// A connection inside a transaction: every read through it sees the register as one commit
/// left it, whatever another connection commits meanwhile (in WAL mode each autocommit read is
/// its own snapshot). What reads a thing in several passes and then writes it takes one, so it
/// cannot be called outside a transaction.
#[derive(Clone, Copy)]
pub struct Snapshot<'c>(&'c Connection);

impl<'c> Snapshot<'c> {
    /// `f` given a snapshot of `conn`: a read transaction of its own (deferred: the snapshot is
    /// taken at the first read and held until `f` returns, then rolled back), or the transaction
    /// `conn` is already in.
    pub fn read<T, E: From<StoreError>>(
        conn: &Connection,
        f: impl FnOnce(Snapshot<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        if !conn.is_autocommit() {
            return f(Snapshot(conn));
        }
        let tx = conn.unchecked_transaction().map_err(StoreError::from)?;
        let out = f(Snapshot(&tx));
        drop(tx); // read only: the rollback ends the snapshot
        out
    }
}

impl std::ops::Deref for Snapshot<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.0
    }
}

impl Tx<'_> {
    pub fn conn(&self) -> &Connection {
        &self.tx
    }

    /// The write transaction's own snapshot (what it reads, it reads as of its start).
    pub fn snapshot(&self) -> Snapshot<'_> {
        Snapshot(&self.tx)
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
        action: Action,
        columns: &[(&str, &dyn rusqlite::ToSql)],
    ) -> Result<i64> {
        let id = self.insert_unaudited(table, columns)?;
        audit::append(
            &self.tx,
            &self.now,
            &self.actor,
            action.as_str(),
            table,
            id,
            &[],
        )?;
        Ok(id)
    }

    /// [`Tx::insert`] for an action that carries a note in its stored code (`rate.add forced:
    /// REASON`): the table has no column for it, and the event's payload must stay the stored row.
    pub fn insert_noted(
        &mut self,
        table: &'static str,
        action: Action,
        note: &str,
        columns: &[(&str, &dyn rusqlite::ToSql)],
    ) -> Result<i64> {
        let id = self.insert_unaudited(table, columns)?;
        let code = action.noted(note);
        audit::append(&self.tx, &self.now, &self.actor, &code, table, id, &[])?;
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
        action: Action,
        entity: &'static str,
        id: i64,
        covers: &[audit::Cover],
    ) -> Result<i64> {
        audit::append(
            &self.tx,
            &self.now,
            &self.actor,
            action.as_str(),
            entity,
            id,
            covers,
        )
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

/// The tables, indexes and triggers of the register as `(type, name) -> SQL`, whitespace
/// collapsed; SQLite's own objects (`sqlite_*`) left out.
fn schema_of(conn: &Connection) -> Result<std::collections::BTreeMap<(String, String), String>> {
    let mut stmt = conn.prepare(
        "SELECT type, name, coalesce(sql, '') FROM sqlite_master
         WHERE substr(name, 1, 7) != 'sqlite_' ORDER BY type, name",
    )?;
    let rows = stmt.query_map([], |r| {
        let sql: String = r.get(2)?;
        Ok((
            (r.get(0)?, r.get(1)?),
            sql.split_whitespace().collect::<Vec<_>>().join(" "),
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The schema the migrations create, in an empty in-memory database.
fn migrated_schema() -> Result<std::collections::BTreeMap<(String, String), String>> {
    let conn = Connection::open_in_memory()?;
    for (_, sql) in MIGRATIONS {
        conn.execute_batch(sql)?;
    }
    schema_of(&conn)
}

/// How the register's tables, indexes and triggers differ from what the migrations create (a
/// dropped append-only trigger, an added one, an altered table), one sentence each.
pub fn schema_differences(conn: &Connection) -> Result<Vec<crate::lang::Said>> {
    use crate::said;
    let want = migrated_schema()?;
    let have = schema_of(conn)?;
    // SQLite's kinds of schema object, in Spanish
    let es = |kind: &str| match kind {
        "table" => "la tabla",
        "index" => "el índice",
        "trigger" => "el disparador",
        "view" => "la vista",
        _ => "el objeto",
    };
    let mut out = Vec::new();
    for ((kind, name), sql) in &want {
        let kind_es = es(kind);
        match have.get(&(kind.clone(), name.clone())) {
            None => out.push(said!("{kind} {name} is missing", "falta {kind_es} {name}")),
            Some(s) if s != sql => out.push(said!(
                "{kind} {name} differs from the one vigia's migrations create: {s}",
                "{kind_es} {name} difiere del que crean las migraciones de vigia: {s}"
            )),
            Some(_) => {}
        }
    }
    for ((kind, name), sql) in &have {
        if !want.contains_key(&(kind.clone(), name.clone())) {
            let kind_es = es(kind);
            out.push(said!(
                "{kind} {name} was added outside vigia: {sql}",
                "{kind_es} {name} se añadió por fuera de vigia: {sql}"
            ));
        }
    }
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let migrations = MIGRATIONS.len();
    if version != migrations as i64 {
        out.push(said!(
            "the schema version is {version}, not {migrations}",
            "la versión del esquema es {version}, no {migrations}"
        ));
    }
    Ok(out)
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
mod tests;
