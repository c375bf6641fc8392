//! The one bulk writer of every import (adjudications with their holders, pledges,
//! acceptances): rows stored by multi-row INSERTs ([`Insert`]), the values every row shares bound
//! once per statement and a value a parameter already holds not bound again ([`Held`]); each row
//! hashed in its audited form as written by hand ([`JsonObject`]); dates, filing times and
//! amounts written without a formatter ([`Short`]). The import's one audit event then covers
//! the rows by range and digest (`audit::Cover`).

use super::prints::Members;
use super::{Result, StoreError};
use chrono::{NaiveDate, NaiveDateTime};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Statement, ToSql};
use rust_decimal::Decimal;

/// The VALUES of a multi-row INSERT of `rows` rows. The values every row shares are the numbered
/// parameters `?1..?shared`, bound once per statement; in `row`, `$1..$per_row` are the row's own
/// values, numbered after them, so a row binds only those.
pub(super) fn values_sql(row: &str, shared: usize, per_row: usize, rows: usize) -> String {
    let groups: Vec<String> = (0..rows)
        .map(|k| {
            // the highest first, so that `$1` does not match the start of `$12`
            (1..=per_row).rev().fold(row.to_string(), |sql, i| {
                sql.replace(&format!("${i}"), &format!("?{}", shared + per_row * k + i))
            })
        })
        .collect();
    groups.join(", ")
}

/// A multi-row INSERT of one table, prepared once for a full group of rows.
pub(super) struct Insert<'c> {
    conn: &'c Connection,
    /// `INSERT INTO table (columns) VALUES`.
    head: &'static str,
    /// One row's values, `?n` shared and `$n` its own.
    row: &'static str,
    /// After the values (a conflict clause), or empty.
    tail: &'static str,
    shared: Vec<Value>,
    per_row: usize,
    /// Rows of a full group.
    rows: usize,
    full: Statement<'c>,
    /// What the parameters of `full` hold from its last execution.
    held: Held,
}

impl<'c> Insert<'c> {
    /// `rows` rows a statement, each binding `per_row` values of its own after the `shared` ones.
    pub(super) fn new(
        conn: &'c Connection,
        (head, row, tail): (&'static str, &'static str, &'static str),
        per_row: usize,
        shared: Vec<Value>,
        rows: usize,
    ) -> Result<Self> {
        let full = Insert::prepare_with(conn, (head, row, tail), &shared, per_row, rows)?;
        Ok(Insert {
            conn,
            head,
            row,
            tail,
            shared,
            per_row,
            rows,
            full,
            held: Held::default(),
        })
    }

    fn prepare_with(
        conn: &'c Connection,
        (head, row, tail): (&str, &str, &str),
        shared: &[Value],
        per_row: usize,
        rows: usize,
    ) -> Result<Statement<'c>> {
        let sql = format!(
            "{head} {} {tail}",
            values_sql(row, shared.len(), per_row, rows)
        );
        let mut stmt = conn.prepare(&sql)?;
        for (i, v) in shared.iter().enumerate() {
            stmt.raw_bind_parameter(i + 1, v)?;
        }
        Ok(stmt)
    }

    /// Rows of a full group.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// Stores `group` (at most [`Insert::rows`] rows), each row's own values bound by `bind` in
    /// the order of `$1..`; returns how many rows were inserted (fewer than the group when a
    /// conflict clause skipped some). The rowids of one INSERT with no clause that skips a row
    /// (none, or `OR FAIL`, which stops the import) are consecutive, ending at
    /// `last_insert_rowid`.
    pub(super) fn insert<R>(
        &mut self,
        group: &[R],
        mut bind: impl FnMut(&R, &mut Binder<'_, 'c>) -> Result<()>,
    ) -> Result<usize> {
        assert!(group.len() <= self.rows, "a group fits one statement");
        let (mut partial, mut fresh);
        let (stmt, held) = if group.len() == self.rows {
            (&mut self.full, &mut self.held)
        } else {
            partial = Insert::prepare_with(
                self.conn,
                (self.head, self.row, self.tail),
                &self.shared,
                self.per_row,
                group.len(),
            )?;
            fresh = Held::default();
            (&mut partial, &mut fresh)
        };
        let first = self.shared.len() + 1;
        for (k, r) in group.iter().enumerate() {
            let at = first + k * self.per_row;
            let mut b = Binder {
                stmt: &mut *stmt,
                held: &mut *held,
                at,
            };
            bind(r, &mut b)?;
            debug_assert_eq!(b.at, at + self.per_row, "every value of the row bound");
        }
        Ok(stmt.raw_execute()?)
    }
}

/// The ids of the `n` rows the INSERT just run on `conn` stored (consecutive, ending at
/// `last_insert_rowid`: see [`Insert::insert`]), checked to follow on from the `ids` stored so
/// far (`(0, 0)` before the first group), which they extend; returns the first. The range is
/// what the import's audit event covers and what later checks read references against.
pub(super) fn follow_on(
    conn: &Connection,
    n: usize,
    ids: (&mut i64, &mut i64),
    what: &str,
) -> Result<i64> {
    let last = conn.last_insert_rowid();
    let first = last - n as i64 + 1;
    if *ids.0 == 0 {
        *ids.0 = first;
    } else if first != *ids.1 + 1 {
        return Err(StoreError::Corrupt(format!(
            "{what} were stored from id {first} where {} was expected",
            *ids.1 + 1
        )));
    }
    *ids.1 = last;
    Ok(first)
}

/// Binds one row's own values, in order.
pub(super) struct Binder<'s, 'c> {
    stmt: &'s mut Statement<'c>,
    held: &'s mut Held,
    at: usize,
}

impl Binder<'_, '_> {
    /// A value that differs from one row to the next, bound as it comes.
    pub(super) fn value(&mut self, v: impl ToSql) -> Result<()> {
        self.stmt.raw_bind_parameter(self.at, v)?;
        self.at += 1;
        Ok(())
    }

    /// A value often the same as the row's in the same place of the previous group (a flag, an
    /// empty column, a category): bound only when it differs.
    pub(super) fn same(&mut self, v: Param<'_>) -> Result<()> {
        self.held.bind(self.stmt, self.at, v)?;
        self.at += 1;
        Ok(())
    }
}

/// The connection's foreign-key enforcement, switched off while a bulk writer stores its rows
/// and back on when this is dropped (or [`FkOff::restore`]d); the writer checks every reference
/// it writes itself. `SQLITE_DBCONFIG_ENABLE_FKEY` takes effect inside a transaction (the pragma
/// does not) and expires the prepared statements, so a statement prepared while it is off is
/// prepared again, with the checks, once it is back on. With the checks off, a multi-row INSERT
/// no longer reads each new row's parents, and needs no statement journal when it is also
/// `OR FAIL` (SQLite keeps one for any statement writing several rows that may abort: an
/// immediate foreign key, or a constraint under the default `ABORT`).
pub(super) struct FkOff<'c> {
    conn: &'c Connection,
    was_on: bool,
}

impl<'c> FkOff<'c> {
    pub(super) fn new(conn: &'c Connection) -> Result<Self> {
        use rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_FKEY as FKEY;
        let was_on = conn.db_config(FKEY)?;
        if was_on {
            conn.set_db_config(FKEY, false)?;
        }
        Ok(FkOff { conn, was_on })
    }

    pub(super) fn restore(&mut self) -> Result<()> {
        use rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_FKEY as FKEY;
        if self.was_on {
            // cleared only once the checks are on again: a failure here leaves `Drop` to retry
            self.conn.set_db_config(FKEY, true)?;
            self.was_on = false;
        }
        Ok(())
    }
}

impl Drop for FkOff<'_> {
    fn drop(&mut self) {
        let _ = self.restore();
    }
}

/// Helper threads SQLite's sorter may use while an index set aside is built again (`PRAGMA
/// threads`): each run of keys it spills (the page cache's worth, 8 MiB) is sorted on one while
/// this thread reads the table into the next, and the runs are merged there. A
/// million holders' names: about 0.8 of the import's and the run's CPU seconds on the writing
/// thread before, 0.4 after, at about 8 MiB more memory (two runs held at once).
const SORT_THREADS: i64 = 1;

/// A secondary index set aside while a bulk write fills its table, in the write's transaction,
/// and built again, from the same SQL, before the write ends: SQLite builds an index from sorted
/// keys far faster than it inserts a million keys one at a time in no order (the holders' names,
/// compared without case). DDL is transactional: a write rolled back leaves the index as it was,
/// and the schema `audit verify` compares is the same once the write commits. Only an index no
/// statement of the write reads may be set aside.
pub(super) struct SetAside {
    name: &'static str,
    /// Its SQL while it is set aside.
    sql: Option<String>,
}

impl SetAside {
    pub(super) fn new(name: &'static str) -> SetAside {
        SetAside { name, sql: None }
    }

    /// Drops the index (once; nothing when the register does not have it).
    pub(super) fn drop(&mut self, conn: &Connection) -> Result<()> {
        if self.sql.is_some() {
            return Ok(());
        }
        let sql: Option<String> = conn
            .query_row(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1",
                [self.name],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(sql) = sql {
            conn.execute_batch(&format!("DROP INDEX \"{}\"", self.name))?;
            self.sql = Some(sql);
        }
        Ok(())
    }

    /// Builds the index again if it was set aside. Its sort runs with temporary storage on disk
    /// (the connection keeps it in memory, where a million names' sort records added about 70
    /// MiB to the import's peak), on [`SORT_THREADS`] helper threads besides this one; where
    /// SQLite refuses the change of storage inside this transaction (a temporary table already
    /// open), the index is built as the connection is (SQLite's sorter uses no helper threads
    /// with temporary storage in memory).
    pub(super) fn restore(&mut self, conn: &Connection) -> Result<()> {
        if let Some(sql) = self.sql.take() {
            // the sort keeps in memory what the page cache may hold, then spills
            super::with_cache(
                conn,
                super::STREAMING_CACHE,
                super::Temp::OnDiskIfAllowed,
                || {
                    // the sort's runs sorted (and merged) on helper threads, not this one
                    let was: i64 = conn.pragma_query_value(None, "threads", |r| r.get(0))?;
                    conn.pragma_update(None, "threads", SORT_THREADS)?;
                    let built = conn.execute_batch(&sql).map_err(StoreError::from);
                    let put_back = conn.pragma_update(None, "threads", was);
                    built?;
                    put_back.map_err(StoreError::from)
                },
            )?;
        }
        Ok(())
    }
}

/// A short text kept in place (a filing time, an amount, at most 40 bytes): what an import of a
/// million rows would otherwise allocate twice a row, and free on another thread.
#[derive(Clone, Copy)]
pub(super) struct Short {
    len: u8,
    bytes: [u8; 40],
}

impl Short {
    pub(super) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("written as text")
    }

    fn of(text: std::fmt::Arguments<'_>) -> Short {
        let mut s = Short {
            len: 0,
            bytes: [0; 40],
        };
        std::fmt::Write::write_fmt(&mut s, text).expect("a text of at most 40 bytes");
        s
    }

    /// `YYYY-MM-DD HH:MM:SS`, the stored form of a filing time.
    pub(super) fn filed(t: NaiveDateTime) -> Short {
        use chrono::{Datelike, Timelike};
        // digits by hand (a million filings are written per import; chrono re-reads its format
        // string on every call). A leap second or a year without four digits goes through chrono.
        if let Ok(y @ 0..=9999) = u32::try_from(t.year())
            && t.nanosecond() < 1_000_000_000
        {
            let d = |n: u32| b'0' + (n % 10) as u8;
            let (mo, day, h, mi, sec) = (t.month(), t.day(), t.hour(), t.minute(), t.second());
            let mut s = Short {
                len: 19,
                bytes: [0; 40],
            };
            s.bytes[..19].copy_from_slice(&[
                d(y / 1000),
                d(y / 100),
                d(y / 10),
                d(y),
                b'-',
                d(mo / 10),
                d(mo),
                b'-',
                d(day / 10),
                d(day),
                b' ',
                d(h / 10),
                d(h),
                b':',
                d(mi / 10),
                d(mi),
                b':',
                d(sec / 10),
                d(sec),
            ]);
            return s;
        }
        Short::of(format_args!("{}", t.format("%Y-%m-%d %H:%M:%S")))
    }

    /// `YYYY-MM-DD`, the stored form of a date, without a formatter (a million rows pass here).
    pub(super) fn date(d: NaiveDate) -> Short {
        use chrono::Datelike;
        match u32::try_from(d.year()) {
            Ok(y @ 0..=9999) => {
                let (m, day) = (d.month(), d.day());
                let digit = |n: u32| b'0' + (n % 10) as u8;
                let mut s = Short {
                    len: 10,
                    bytes: [0; 40],
                };
                s.bytes[..10].copy_from_slice(&[
                    digit(y / 1000),
                    digit(y / 100),
                    digit(y / 10),
                    digit(y),
                    b'-',
                    digit(m / 10),
                    digit(m),
                    b'-',
                    digit(day / 10),
                    digit(day),
                ]);
                s
            }
            _ => Short::of(format_args!("{d}")),
        }
    }

    /// An exact amount as `Display` writes it.
    pub(super) fn amount(d: Decimal) -> Short {
        // a whole amount is its digits, as `Display` writes them, without a formatter
        if d.scale() == 0
            && d.is_sign_positive()
            && let Ok(n) = u64::try_from(d.mantissa())
        {
            return Short::of(format_args!("{n}"));
        }
        Short::of(format_args!("{d}"))
    }
}

impl std::fmt::Write for Short {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let at = usize::from(self.len);
        let room = self
            .bytes
            .get_mut(at..at + s.len())
            .ok_or(std::fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = u8::try_from(at + s.len()).map_err(|_| std::fmt::Error)?;
        Ok(())
    }
}

/// A filing time in its stored form ([`Short::filed`]).
pub(super) fn parse_filed(s: &str) -> Option<NaiveDateTime> {
    // the stored form read by hand (chrono's parser re-reads its format string on every call);
    // anything else goes through chrono
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |v, &d| {
            d.is_ascii_digit().then(|| v * 10 + u32::from(d - b'0'))
        })
    };
    let fast = (b.len() == 19
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b' '
        && b[13] == b':'
        && b[16] == b':')
        .then(|| {
            let date =
                NaiveDate::from_ymd_opt(i32::try_from(num(0..4)?).ok()?, num(5..7)?, num(8..10)?)?;
            date.and_hms_opt(num(11..13)?, num(14..16)?, num(17..19)?)
        })
        .flatten();
    fast.or_else(|| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").ok())
}

/// A count of shares as SQLite stores it.
pub(super) fn stored_shares(n: u64) -> rusqlite::Result<i64> {
    i64::try_from(n).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// A value for a parameter of the INSERT.
#[derive(Clone, Copy)]
pub(super) enum Param<'a> {
    Null,
    Int(i64),
    Text(&'a str),
}

impl<'a> From<Option<&'a str>> for Param<'a> {
    fn from(text: Option<&'a str>) -> Param<'a> {
        text.map_or(Param::Null, Param::Text)
    }
}

/// What each parameter of a prepared INSERT holds since its last execution. SQLite keeps a
/// statement's bindings from one execution to the next, so a value the parameter already holds
/// is not bound again: most of an acceptance (its flags, empty columns, document and person
/// type, category) is what the filing in the same place of the previous group had, and a bound
/// text is a copy SQLite makes.
#[derive(Default)]
pub(super) struct Held(Vec<HeldParam>);

#[derive(Default)]
enum HeldParam {
    #[default]
    Unbound,
    Null,
    Int(i64),
    Text(String),
}

impl Held {
    pub(super) fn bind(
        &mut self,
        stmt: &mut rusqlite::Statement<'_>,
        index: usize,
        value: Param<'_>,
    ) -> Result<()> {
        if self.0.len() < index {
            self.0.resize_with(index, HeldParam::default);
        }
        let held = &mut self.0[index - 1];
        match (&mut *held, value) {
            (HeldParam::Null, Param::Null) => {}
            (HeldParam::Int(a), Param::Int(b)) if *a == b => {}
            (HeldParam::Text(a), Param::Text(b)) if a == b => {}
            (_, Param::Null) => {
                stmt.raw_bind_parameter(index, rusqlite::types::Null)?;
                *held = HeldParam::Null;
            }
            (_, Param::Int(n)) => {
                stmt.raw_bind_parameter(index, n)?;
                *held = HeldParam::Int(n);
            }
            (HeldParam::Text(a), Param::Text(b)) => {
                stmt.raw_bind_parameter(index, b)?;
                a.clear();
                a.push_str(b);
            }
            (_, Param::Text(b)) => {
                stmt.raw_bind_parameter(index, b)?;
                *held = HeldParam::Text(b.to_string());
            }
        }
        Ok(())
    }
}

/// A compact JSON object being written (keys are plain ASCII column names): a row's audited form
/// (the object [`super::json_of_row`] reads back, every column in table order), as `serde_json`
/// writes it, written by hand: field by field costs a third of serialising a struct, over a
/// million rows. A text that JSON escapes is written by `serde_json` itself. Made
/// [`JsonObject::gathering`], it also hashes each value as it is written, for the row's print
/// (`prints::Members`), so that the print does not read the JSON again. The check's JSON findings
/// are written the same way (`cli::check`).
pub(crate) struct JsonObject<'a> {
    pub out: &'a mut Vec<u8>,
    pub first: bool,
    members: Option<&'a mut Members>,
    /// Where the value being written starts in `out`.
    value_at: usize,
}

impl JsonObject<'_> {
    fn key(&mut self, key: &str) {
        if !self.first {
            self.close_value();
        }
        self.out.push(if self.first { b'{' } else { b',' });
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.value_at = self.out.len();
    }

    /// The value written since the last key, to the members gathered.
    fn close_value(&mut self) {
        if let Some(m) = &mut self.members {
            m.value(&self.out[self.value_at..]);
        }
    }

    /// An integer (an `i64` or a `u64`: its digits fit a `u64`).
    pub(crate) fn int(&mut self, key: &str, n: impl Into<i128>) {
        self.key(key);
        let n: i128 = n.into();
        if key == "id"
            && let (Some(m), Ok(id)) = (&mut self.members, i64::try_from(n))
        {
            m.id(id);
        }
        if n < 0 {
            self.out.push(b'-');
        }
        let mut rest = u64::try_from(n.unsigned_abs()).expect("an i64 or a u64");
        let (mut digits, mut at) = ([0u8; 20], 20);
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.out.extend_from_slice(&digits[at..]);
    }

    /// An integer, or `null`.
    pub(crate) fn int_or_null(&mut self, key: &str, n: Option<i64>) {
        match n {
            Some(n) => self.int(key, n),
            None => self.text(key, None),
        }
    }

    /// A text, or `null`.
    pub(crate) fn text(&mut self, key: &str, value: Option<&str>) {
        self.key(key);
        match value {
            None => self.out.extend_from_slice(b"null"),
            // (every byte looked at, without stopping at the first: the loop vectorises)
            Some(s)
                if s.bytes()
                    .fold(false, |e, b| e | (b == b'"') | (b == b'\\') | (b < 0x20)) =>
            {
                serde_json::to_writer(&mut *self.out, s).expect("a text serialises")
            }
            Some(s) => {
                self.out.push(b'"');
                self.out.extend_from_slice(s.as_bytes());
                self.out.push(b'"');
            }
        }
    }
}

impl<'a> JsonObject<'a> {
    /// An object written into `out` (cleared first).
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        out.clear();
        JsonObject {
            out,
            first: true,
            members: None,
            value_at: 0,
        }
    }

    /// An object written into `out` (cleared first), its members hashed into `members`
    /// (cleared first) as they are written.
    pub(super) fn gathering(out: &'a mut Vec<u8>, members: &'a mut Members) -> Self {
        members.clear();
        if cfg!(feature = "bench-without-prints") {
            return JsonObject::new(out);
        }
        JsonObject {
            members: Some(members),
            ..JsonObject::new(out)
        }
    }

    /// The object's closing brace (and its opening one when it has no members: `{}`).
    pub(crate) fn end(mut self) {
        if self.first {
            self.out.push(b'{');
        } else {
            self.close_value();
        }
        self.out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_numbers_its_own_parameters_after_the_shared_ones() {
        // one shared value, two per row: row 0 binds ?2 ?3, row 1 binds ?4 ?5
        assert_eq!(
            values_sql("($1, ?1, $2)", 1, 2, 2),
            "(?2, ?1, ?3), (?4, ?1, ?5)"
        );
        // an adjudication's shape: 5 shared + 64 rows x 8 = 517 parameters
        let sql = values_sql(
            "(?1, $1, ?2, $2, $3, $4, coalesce($5, ?3), $6, $7, $8, ?4, ?5)",
            5,
            8,
            64,
        );
        assert!(
            sql.ends_with("coalesce(?514, ?3), ?515, ?516, ?517, ?4, ?5)"),
            "{sql}"
        );
        assert!(!sql.contains('$'));
        // a row of more than nine values of its own: `$12` is not `$1` followed by a 2
        let sql = values_sql("($1, $2, $10, $11, $12)", 4, 12, 2);
        assert_eq!(sql, "(?5, ?6, ?14, ?15, ?16), (?17, ?18, ?26, ?27, ?28)");
    }

    #[test]
    fn an_object_without_members_is_written_with_both_braces() {
        let mut out = b"stale".to_vec();
        JsonObject::new(&mut out).end();
        assert_eq!(out, b"{}");
        let mut members = Members::default();
        JsonObject::gathering(&mut out, &mut members).end();
        assert_eq!(out, b"{}");
        // with members, one opening brace still
        let mut o = JsonObject::new(&mut out);
        o.int("id", 7);
        o.end();
        assert_eq!(out, br#"{"id":7}"#);
    }

    #[test]
    fn a_text_is_written_as_serde_json_writes_it() {
        // quotes, a backslash, control characters (named escapes and \u00XX ones), DEL, accents,
        // U+2028 and U+2029 (left as they are by serde_json), an emoji, an empty text
        let texts = [
            "plain",
            "",
            "Ana \"la\" Peñaloza",
            "C:\\ruta\\archivo",
            "\u{1b}[2J\u{1b}[31mRojo\u{7}\nSegunda\tlínea\r\u{8}\u{c}\u{0}\u{1f}",
            "del\u{7f} ñandú\u{2028}línea\u{2029}párrafo 🦜",
        ];
        let mut out = Vec::new();
        for t in texts {
            let mut o = JsonObject::new(&mut out);
            o.text("name", Some(t));
            o.int_or_null("id", None);
            o.int_or_null("n", Some(-7));
            o.end();
            let made = serde_json::json!({"name": t, "id": null, "n": -7}).to_string();
            assert_eq!(String::from_utf8(out.clone()).unwrap(), made, "{t:?}");
        }
        // the bytes, worked out by hand for the name with every kind of escape
        let mut o = JsonObject::new(&mut out);
        o.text("h", Some("\"\\\u{1b}\n\u{2028}é"));
        o.end();
        assert_eq!(out, "{\"h\":\"\\\"\\\\\\u001b\\n\u{2028}é\"}".as_bytes());
    }

    #[test]
    fn a_date_is_written_as_chrono_writes_it() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        for d in [
            day(2024, 3, 15),
            day(1990, 1, 1),
            day(2099, 12, 31),
            day(2024, 2, 29),
            day(1, 1, 1),
            day(9999, 12, 31),
            day(10000, 1, 1),
            day(-5, 6, 7),
        ] {
            assert_eq!(Short::date(d).as_str(), d.to_string(), "{d:?}");
        }
    }
}
