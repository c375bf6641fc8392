//! The first-stage offering in SQLite: the offer's window, acceptances written in bulk (one
//! audit event per file covering its rows by range and hash), and the adjudication run with its
//! outcomes (one audit event covering the run, its outcomes and the adjudications it wrote).
//! Rows are mapped to domain types once; no rule is decided here.

use super::audit::{Cover, RowHasher};
use super::columns::{Cols, Day, Shares};
use super::import::PriorImport;
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx};
use crate::import::PersonType;
use crate::import::RowError;
use crate::offering::adjudicate::{Cause, Window};
use crate::offering::caps::Evidence;
use crate::offering::file::AcceptanceRow;
use chrono::{NaiveDate, NaiveDateTime};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use serde::Serialize;

/// A program's recorded offer window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub id: i64,
    pub program_id: i64,
    pub window: Window,
    pub created_at: String,
    pub created_by: String,
}

/// The program's offer, if one was opened.
pub fn offer(conn: &Connection, program_id: i64) -> Result<Option<Offer>> {
    Ok(conn
        .query_row(
            "SELECT id, program_id, opens, closes, created_at, created_by FROM offers WHERE program_id = ?1",
            params![program_id],
            |r| {
                let c = Cols::new(r, "offers");
                Ok(Offer {
                    id: c.get(0)?,
                    program_id: c.get(1)?,
                    window: Window {
                        opens: c.date(2)?,
                        closes: c.date(3)?,
                    },
                    created_at: c.get(4)?,
                    created_by: c.get(5)?,
                })
            },
        )
        .optional()?)
}

/// Records a program's offer window (audited).
pub fn insert_offer(tx: &mut Tx<'_>, program_id: i64, window: Window) -> Result<i64> {
    tx.insert(
        "offers",
        "offer.open",
        &[
            ("program_id", &program_id),
            ("opens", &Day(window.opens)),
            ("closes", &Day(window.closes)),
        ],
    )
}

/// An acceptance as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acceptance {
    pub id: i64,
    pub import_id: i64,
    pub row: AcceptanceRow,
}

/// `YYYY-MM-DD HH:MM:SS`, the stored form of a filing time.
pub fn filed_text(t: NaiveDateTime) -> String {
    Short::filed(t).as_str().to_string()
}

/// A short text kept in place (a filing time, an amount, at most 40 bytes): what an import of a
/// million rows would otherwise allocate twice a row, and free on another thread.
#[derive(Clone, Copy)]
struct Short {
    len: u8,
    bytes: [u8; 40],
}

impl Short {
    fn as_str(&self) -> &str {
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

    /// [`filed_text`].
    fn filed(t: NaiveDateTime) -> Short {
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

    /// [`amount_text`].
    fn amount(d: Decimal) -> Short {
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

fn parse_filed(s: &str) -> Option<NaiveDateTime> {
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

const ACCEPTANCE_COLUMNS: &str = "id, import_id, line, filed_at, doc_type, doc_number, name, person_type, category, shares, \
     accepts_reduction, files_tax_return, patrimonio_liquido, income, is_director, annual_salary, investment_limit, \
     patrimonio_ajustado, declarations, dismissed_with_just_cause, review, lender, financed_shares, \
     (SELECT amount FROM acceptance_figures f WHERE f.acceptance_id = acceptances.id \
      AND f.measure = 'income_financial_statements')";

fn acceptance_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Acceptance> {
    let c = Cols::new(r, "acceptances");
    let filed: String = c.get(3)?;
    let corrupt = |what: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            3,
            rusqlite::types::Type::Text,
            Box::new(super::columns::Corruption(format!("acceptances.{what}"))),
        )
    };
    let review: Option<String> = c.get(20)?;
    let review = match review {
        None => None,
        Some(s) => Some(Cause::from_review(&s).ok_or_else(|| corrupt(&format!("review {s:?}")))?),
    };
    let flag = |i: usize| -> rusqlite::Result<bool> { Ok(c.get::<i64>(i)? != 0) };
    Ok(Acceptance {
        id: c.get(0)?,
        import_id: c.get(1)?,
        row: AcceptanceRow {
            line: usize::try_from(c.get::<i64>(2)?).unwrap_or(0),
            filed_at: parse_filed(&filed).ok_or_else(|| corrupt(&format!("filed_at {filed:?}")))?,
            doc_type: c.get(4)?,
            doc_number: c.get(5)?,
            name: c.get(6)?,
            person_type: c.get(7)?,
            category: c.get(8)?,
            shares: c.shares(9)?,
            accepts_reduction: flag(10)?,
            files_tax_return: flag(11)?,
            patrimonio_liquido: c.opt_decimal(12)?,
            income: c.opt_decimal(13)?,
            is_director: flag(14)?,
            annual_salary: c.opt_decimal(15)?,
            investment_limit: c.opt_decimal(16)?,
            patrimonio_ajustado: c.opt_decimal(17)?,
            declarations: flag(18)?,
            dismissed_with_just_cause: flag(19)?,
            review,
            lender: c.get(21)?,
            financed_shares: c.shares(22)?,
            income_financial_statements: c.opt_decimal(23)?,
        },
    })
}

/// One acceptance by id.
pub fn acceptance(conn: &Connection, id: i64) -> Result<Acceptance> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACCEPTANCE_COLUMNS} FROM acceptances WHERE id = ?1"
    ))?;
    stmt.query_row(params![id], acceptance_of)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "acceptance",
            id: id.to_string(),
        })
}

/// Every acceptance of a program (or of all programs), in the order they were stored, one at a
/// time to `f`.
pub fn each_acceptance<E: From<StoreError>>(
    conn: &Connection,
    program_id: Option<i64>,
    mut f: impl FnMut(i64, Acceptance) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {ACCEPTANCE_COLUMNS}, program_id FROM acceptances WHERE {} ORDER BY id",
            super::filter(program_id.is_some(), "program_id", 1)
        ))
        .map_err(StoreError::from)?;
    let mut rows = stmt.query(params![program_id]).map_err(StoreError::from)?;
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let a = acceptance_of(r).map_err(StoreError::from)?;
        let program: i64 = r.get(24).map_err(StoreError::from)?;
        f(program, a)?;
    }
    Ok(())
}

/// What the adjudication reads of every filing, one at a time, in stored order: what judging it
/// needs, who filed it, and (on demand, [`FilingColumns::cap_figures`]) the figures of its cap.
pub struct FilingColumns<'a> {
    pub id: i64,
    pub line: u64,
    pub filed_at: NaiveDateTime,
    pub doc_type: &'a str,
    pub doc_number: &'a str,
    pub name: &'a str,
    pub category: &'a str,
    pub shares: u64,
    pub accepts_reduction: bool,
    pub declarations: bool,
    pub dismissed_with_just_cause: bool,
    pub review: Option<Cause>,
    row: &'a rusqlite::Row<'a>,
}

/// The figures a cap is judged on, as filed.
pub struct CapFigures {
    pub person_type: PersonType,
    pub evidence: Evidence,
}

impl FilingColumns<'_> {
    /// The filer's kind of person (eligibility depends on it: Art. 3).
    pub fn person_type(&self) -> Result<PersonType> {
        Ok(Cols::new(self.row, "acceptances").get(12)?)
    }

    /// The filing's person type and figures, read from its row only when asked (the
    /// adjudication needs them of a person's first valid filing only).
    pub fn cap_figures(&self) -> Result<CapFigures> {
        let c = Cols::new(self.row, "acceptances");
        let flag = |i: usize| -> rusqlite::Result<bool> { Ok(c.get::<i64>(i)? != 0) };
        Ok(CapFigures {
            person_type: c.get(12)?,
            evidence: Evidence {
                files_tax_return: flag(13)?,
                is_director: flag(16)?,
                patrimonio_liquido: c.opt_decimal(14)?,
                income: c.opt_decimal(15)?,
                annual_salary: c.opt_decimal(17)?,
                investment_limit: c.opt_decimal(18)?,
                patrimonio_ajustado: c.opt_decimal(19)?,
                income_financial_statements: c.opt_decimal(20)?,
            },
        })
    }
}

/// Every filing of a program as [`FilingColumns`], in stored order: one scan, nothing kept. The
/// connection's page cache is the small streaming one while it lasts (a million filings would
/// otherwise fill the 64 MiB cache with pages read once).
pub fn each_filing<E: From<StoreError>>(
    conn: &Connection,
    program_id: i64,
    f: impl FnMut(FilingColumns<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let cache: i64 = conn
        .pragma_query_value(None, "cache_size", |r| r.get(0))
        .map_err(StoreError::from)?;
    conn.pragma_update(None, "cache_size", super::STREAMING_CACHE)
        .map_err(StoreError::from)?;
    let scanned = scan_filings(conn, program_id, f);
    conn.pragma_update(None, "cache_size", cache)
        .map_err(StoreError::from)?;
    scanned
}

fn scan_filings<E: From<StoreError>>(
    conn: &Connection,
    program_id: i64,
    mut f: impl FnMut(FilingColumns<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(
            "SELECT id, line, filed_at, doc_type, doc_number, name, category, shares, accepts_reduction,
                    declarations, dismissed_with_just_cause, review,
                    person_type, files_tax_return, patrimonio_liquido, income, is_director, annual_salary,
                    investment_limit, patrimonio_ajustado,
                    (SELECT amount FROM acceptance_figures f WHERE f.acceptance_id = acceptances.id
                     AND f.measure = 'income_financial_statements')
             FROM acceptances WHERE program_id = ?1 ORDER BY id",
        )
        .map_err(StoreError::from)?;
    let mut rows = stmt.query(params![program_id]).map_err(StoreError::from)?;
    let corrupt = |what: String| StoreError::Corrupt(format!("acceptances.{what}"));
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let get_str = |i: usize| -> Result<&str> {
            match r.get_ref(i)? {
                rusqlite::types::ValueRef::Text(t) => {
                    std::str::from_utf8(t).map_err(|_| corrupt(format!("column {i} is not UTF-8")))
                }
                _ => Err(corrupt(format!("column {i} is not text"))),
            }
        };
        let filed = get_str(2)?;
        let review = match r.get_ref(11).map_err(StoreError::from)? {
            rusqlite::types::ValueRef::Null => None,
            _ => {
                let s = get_str(11)?;
                Some(Cause::from_review(s).ok_or_else(|| corrupt(format!("review {s:?}")))?)
            }
        };
        let int = |i: usize| -> Result<i64> { Ok(r.get::<_, i64>(i)?) };
        let filing = FilingColumns {
            id: int(0)?,
            line: u64::try_from(int(1)?).map_err(|_| corrupt("line is negative".into()))?,
            filed_at: parse_filed(filed).ok_or_else(|| corrupt(format!("filed_at {filed:?}")))?,
            doc_type: get_str(3)?,
            doc_number: get_str(4)?,
            name: get_str(5)?,
            category: get_str(6)?,
            shares: r.get::<_, Shares>(7).map_err(StoreError::from)?.0,
            accepts_reduction: int(8)? != 0,
            declarations: int(9)? != 0,
            dismissed_with_just_cause: int(10)? != 0,
            review,
            row: r,
        };
        f(filing)?;
    }
    Ok(())
}

/// Acceptances stored for the program so far.
pub fn count(conn: &Connection, program_id: i64) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM acceptances WHERE program_id = ?1",
        params![program_id],
        |r| r.get(0),
    )?)
}

/// Rows per multi-row INSERT (21 values each, after the 4 they share).
const ROWS_PER_INSERT: usize = 32;

const INSERT_ACCEPTANCES: &str = "INSERT INTO acceptances (program_id, import_id, line, filed_at, doc_type, doc_number, name, \
     person_type, category, shares, accepts_reduction, files_tax_return, patrimonio_liquido, income, is_director, \
     annual_salary, investment_limit, patrimonio_ajustado, declarations, dismissed_with_just_cause, review, lender, \
     financed_shares, created_at, created_by) VALUES";
const PER_ROW: usize = 21;

fn insert_sql(rows: usize) -> String {
    let groups: Vec<String> = (0..rows)
        .map(|k| {
            let own: Vec<String> = (1..=PER_ROW)
                .map(|i| format!("?{}", 4 + PER_ROW * k + i))
                .collect();
            format!("(?1, ?2, {}, ?3, ?4)", own.join(", "))
        })
        .collect();
    format!("{INSERT_ACCEPTANCES} {}", groups.join(", "))
}

/// What [`write_acceptances`] stored, for the rules to judge before [`seal_acceptances`].
pub struct StoredAcceptances {
    pub import_id: i64,
    pub file_problems: Vec<RowError>,
    pub rows: usize,
    pub first: i64,
    pub last: i64,
    hash: RowHasher,
    /// The `acceptance_figures` rows written with them (first, last), if any.
    figures: Option<(i64, i64)>,
}

/// What [`write_acceptances`] did.
pub enum AcceptanceWrite {
    Written(Box<StoredAcceptances>),
    AlreadyImported(PriorImport),
}

/// What an acceptances import added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportedAcceptances {
    Added {
        import_id: i64,
        rows: usize,
        first_id: i64,
        last_id: i64,
    },
    AlreadyImported(PriorImport),
}

/// What the store makes of an acceptance on the reading thread ([`Prepare`]): its stored texts
/// (the filing time and the five amounts); the row is hashed in its audited form there too.
pub struct Prepared(Texts);

/// The reading thread's part of an acceptances import: run on each valid row, in file order.
pub type Prepare<'a> = dyn FnMut(&AcceptanceRow) -> Prepared + Send + 'a;

/// The storing part: a batch of rows with what [`Prepare`] made of each, on the calling thread
/// (the rows are left in the batch, to be freed by the thread that made them).
pub type StoreRows<'a> = dyn FnMut(&mut Vec<(AcceptanceRow, Prepared)>) -> Result<()> + 'a;

/// Stores an acceptances file's rows in the caller's transaction, as `feed` reads them (it runs
/// [`Prepare`] on each valid row as it is read, hands the rows to [`StoreRows`] in batches and
/// returns the file's problems), in groups by multi-row INSERTs. Each row is hashed in its
/// audited form as it is read: the write lock is held, so the rows get the ids after the last
/// one, in file order (checked as they are stored).
pub fn write_acceptances(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(&mut Prepare<'_>, &mut StoreRows<'_>) -> Result<Vec<RowError>>,
) -> Result<AcceptanceWrite> {
    if let Some(prior) = tx
        .conn()
        .query_row(
            "SELECT id, created_at, created_by FROM acceptance_imports WHERE sha256 = ?1 AND program_id = ?2",
            params![sha256, program.id],
            |r| {
                Ok(PriorImport {
                    import_id: r.get(0)?,
                    at: r.get(1)?,
                    by: r.get(2)?,
                })
            },
        )
        .optional()?
    {
        return Ok(AcceptanceWrite::AlreadyImported(prior));
    }
    let import_id = tx.insert_unaudited(
        "acceptance_imports",
        &[
            ("program_id", &program.id),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ],
    )?;
    let (now, actor) = (tx.now().to_string(), tx.actor().to_string());
    let ctx = RowContext {
        program_id: program.id,
        import_id,
        now: &now,
        actor: &actor,
    };
    let conn = tx.conn();
    // SQLite gives a row without an id the one after the largest (the table is append-only)
    let first: i64 = conn.query_row(
        "SELECT coalesce(max(id), 0) + 1 FROM acceptances",
        [],
        |r| r.get(0),
    )?;
    let (mut hash, mut json, mut next) = (RowHasher::default(), Vec::with_capacity(1024), first);
    let mut prepare = |r: &AcceptanceRow| {
        let texts = [
            Some(Short::filed(r.filed_at)),
            r.patrimonio_liquido.map(Short::amount),
            r.income.map(Short::amount),
            r.annual_salary.map(Short::amount),
            r.investment_limit.map(Short::amount),
            r.patrimonio_ajustado.map(Short::amount),
        ];
        json.clear();
        acceptance_json(&mut json, &ctx, next, r, &texts);
        hash.add_bytes(&json);
        next += 1;
        Prepared(texts)
    };
    let mut writer = AcceptanceWriter {
        conn,
        ctx,
        full: prepare_insert(conn, &ctx, ROWS_PER_INSERT)?,
        held: Held::default(),
        next: first,
        figures: None,
    };
    let file_problems = feed(&mut prepare, &mut |batch| writer.store(batch))?;
    let rows = usize::try_from(writer.next - first).expect("ids only grow");
    let (first, last) = if rows == 0 {
        (0, 0)
    } else {
        (first, writer.next - 1)
    };
    let figures = writer.figures;
    Ok(AcceptanceWrite::Written(Box::new(StoredAcceptances {
        import_id,
        file_problems,
        rows,
        first,
        last,
        hash,
        figures,
    })))
}

/// What every acceptance of one import shares.
#[derive(Clone, Copy)]
struct RowContext<'a> {
    program_id: i64,
    import_id: i64,
    now: &'a str,
    actor: &'a str,
}

/// An acceptance's stored texts: the filing time and the five amounts.
type Texts = [Option<Short>; 6];

fn prepare_insert<'c>(
    conn: &'c Connection,
    ctx: &RowContext<'_>,
    rows: usize,
) -> Result<rusqlite::Statement<'c>> {
    let mut stmt = conn.prepare(&insert_sql(rows))?;
    stmt.raw_bind_parameter(1, ctx.program_id)?;
    stmt.raw_bind_parameter(2, ctx.import_id)?;
    stmt.raw_bind_parameter(3, ctx.now)?;
    stmt.raw_bind_parameter(4, ctx.actor)?;
    Ok(stmt)
}

/// Stores acceptances [`ROWS_PER_INSERT`] at a time.
struct AcceptanceWriter<'c, 'x> {
    conn: &'c Connection,
    ctx: RowContext<'x>,
    full: rusqlite::Statement<'c>,
    /// What the parameters of `full` hold from its last execution.
    held: Held,
    /// The id the next row gets.
    next: i64,
    /// The first and last `acceptance_figures` rows written, if any.
    figures: Option<(i64, i64)>,
}

impl AcceptanceWriter<'_, '_> {
    fn store(&mut self, batch: &[(AcceptanceRow, Prepared)]) -> Result<()> {
        batch
            .chunks(ROWS_PER_INSERT)
            .try_for_each(|group| self.insert(group))
    }

    fn insert(&mut self, group: &[(AcceptanceRow, Prepared)]) -> Result<()> {
        let (mut partial, mut fresh);
        let (stmt, held) = if group.len() == ROWS_PER_INSERT {
            (&mut self.full, &mut self.held)
        } else {
            partial = prepare_insert(self.conn, &self.ctx, group.len())?;
            fresh = Held::default();
            (&mut partial, &mut fresh)
        };
        let mut i = 5;
        for (r, Prepared(t)) in group {
            use Param::{Int, Text};
            let flag = |b: bool| Int(i64::from(b));
            // what differs from one filing to the next is bound as it comes
            stmt.raw_bind_parameter(i, r.line as i64)?;
            stmt.raw_bind_parameter(i + 1, t[0].as_ref().map(Short::as_str))?;
            stmt.raw_bind_parameter(i + 3, &r.doc_number)?;
            stmt.raw_bind_parameter(i + 4, &r.name)?;
            held.bind(stmt, i + 2, Text(r.doc_type.as_str()))?;
            held.bind(stmt, i + 5, Text(r.person_type.as_str()))?;
            held.bind(stmt, i + 6, Text(&r.category))?;
            held.bind(stmt, i + 7, Int(stored_shares(r.shares)?))?;
            held.bind(stmt, i + 8, flag(r.accepts_reduction))?;
            held.bind(stmt, i + 9, flag(r.files_tax_return))?;
            held.bind(stmt, i + 10, Param::from(t[1].as_ref().map(Short::as_str)))?;
            held.bind(stmt, i + 11, Param::from(t[2].as_ref().map(Short::as_str)))?;
            held.bind(stmt, i + 12, flag(r.is_director))?;
            held.bind(stmt, i + 13, Param::from(t[3].as_ref().map(Short::as_str)))?;
            held.bind(stmt, i + 14, Param::from(t[4].as_ref().map(Short::as_str)))?;
            held.bind(stmt, i + 15, Param::from(t[5].as_ref().map(Short::as_str)))?;
            held.bind(stmt, i + 16, flag(r.declarations))?;
            held.bind(stmt, i + 17, flag(r.dismissed_with_just_cause))?;
            held.bind(stmt, i + 18, Param::from(r.review.map(Cause::as_str)))?;
            held.bind(stmt, i + 19, Param::from(r.lender.as_deref()))?;
            held.bind(stmt, i + 20, Int(stored_shares(r.financed_shares)?))?;
            i += PER_ROW;
        }
        stmt.raw_execute()?;
        // one INSERT without conflict clauses gives consecutive rowids after the largest: the
        // ids the rows were hashed with
        let last = self.next + group.len() as i64 - 1;
        if self.conn.last_insert_rowid() != last {
            return Err(StoreError::Corrupt(format!(
                "acceptances were stored up to id {} where {last} was expected",
                self.conn.last_insert_rowid()
            )));
        }
        for (k, (r, _)) in (0..).zip(group) {
            if let Some(v) = r.income_financial_statements {
                self.figure(self.next + k, "income_financial_statements", v)?;
            }
        }
        self.next = last + 1;
        Ok(())
    }

    /// Stores a figure of acceptance `id` beyond the acceptances' own columns (migration 0013).
    fn figure(&mut self, id: i64, measure: &str, amount: Decimal) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO acceptance_figures (acceptance_id, measure, amount, created_at, created_by)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                id,
                measure,
                Short::amount(amount).as_str(),
                self.ctx.now,
                self.ctx.actor
            ])?;
        let row = self.conn.last_insert_rowid();
        self.figures = Some(self.figures.map_or((row, row), |(first, _)| (first, row)));
        Ok(())
    }
}

/// A count of shares as SQLite stores it.
fn stored_shares(n: u64) -> rusqlite::Result<i64> {
    i64::try_from(n).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// A value for a parameter of the INSERT.
#[derive(Clone, Copy)]
enum Param<'a> {
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
struct Held(Vec<HeldParam>);

#[derive(Default)]
enum HeldParam {
    #[default]
    Unbound,
    Null,
    Int(i64),
    Text(String),
}

impl Held {
    fn bind(
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

/// An acceptance in its audited form: the object [`super::json_of_row`] reads back (every
/// column in table order), as `serde_json` writes it, written by hand: field by field costs a
/// third of serialising a struct, over a million rows. A text that JSON escapes is written by
/// `serde_json` itself.
fn acceptance_json(
    out: &mut Vec<u8>,
    ctx: &RowContext<'_>,
    id: i64,
    r: &AcceptanceRow,
    [filed, pl, inc, sal, lim, aj]: &Texts,
) {
    let mut o = JsonObject { out, first: true };
    o.int("id", id);
    o.int("program_id", ctx.program_id);
    o.int("import_id", ctx.import_id);
    o.int("line", r.line as u64);
    o.text("filed_at", filed.as_ref().map(Short::as_str));
    o.text("doc_type", Some(r.doc_type.as_str()));
    o.text("doc_number", Some(&r.doc_number));
    o.text("name", Some(&r.name));
    o.text("person_type", Some(r.person_type.as_str()));
    o.text("category", Some(&r.category));
    o.int("shares", r.shares);
    o.int("accepts_reduction", u8::from(r.accepts_reduction));
    o.int("files_tax_return", u8::from(r.files_tax_return));
    o.text("patrimonio_liquido", pl.as_ref().map(Short::as_str));
    o.text("income", inc.as_ref().map(Short::as_str));
    o.int("is_director", u8::from(r.is_director));
    o.text("annual_salary", sal.as_ref().map(Short::as_str));
    o.text("investment_limit", lim.as_ref().map(Short::as_str));
    o.text("patrimonio_ajustado", aj.as_ref().map(Short::as_str));
    o.int("declarations", u8::from(r.declarations));
    o.int(
        "dismissed_with_just_cause",
        u8::from(r.dismissed_with_just_cause),
    );
    o.text("review", r.review.map(Cause::as_str));
    o.text("lender", r.lender.as_deref());
    o.int("financed_shares", r.financed_shares);
    o.text("created_at", Some(ctx.now));
    o.text("created_by", Some(ctx.actor));
    o.out.push(b'}');
}

/// A compact JSON object being written (keys are plain ASCII column names).
struct JsonObject<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl JsonObject<'_> {
    fn key(&mut self, key: &str) {
        self.out.push(if self.first { b'{' } else { b',' });
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    /// An integer (an `i64` or a `u64`: its digits fit a `u64`).
    fn int(&mut self, key: &str, n: impl Into<i128>) {
        self.key(key);
        let n: i128 = n.into();
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

    /// A text, or `null`.
    fn text(&mut self, key: &str, value: Option<&str>) {
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

/// Covers what [`write_acceptances`] stored with the import's one audit event.
pub fn seal_acceptances(tx: &mut Tx<'_>, s: StoredAcceptances) -> Result<ImportedAcceptances> {
    let mut covers = vec![Cover {
        table: "acceptances",
        first: s.first,
        last: s.last,
        digest: Some(s.hash.finish()),
    }];
    if let Some((first, last)) = s.figures {
        covers.push(Cover {
            table: "acceptance_figures",
            first,
            last,
            digest: None,
        });
    }
    tx.audit_bulk(
        "acceptances.import",
        "acceptance_imports",
        s.import_id,
        &covers,
    )?;
    Ok(ImportedAcceptances::Added {
        import_id: s.import_id,
        rows: s.rows,
        first_id: s.first,
        last_id: s.last,
    })
}

/// A stored adjudication run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub id: i64,
    pub program_id: i64,
    pub import_id: Option<i64>,
    pub adjudicated_on: NaiveDate,
    pub rule: String,
    pub offered: u64,
    pub demand: u64,
    pub awarded: u64,
    pub leftover: u64,
    pub oversubscribed: bool,
    pub fingerprint: String,
    pub created_at: String,
    pub created_by: String,
}

const RUN_COLUMNS: &str = "id, program_id, import_id, adjudicated_on, rule, offered, demand, awarded, leftover, \
     oversubscribed, fingerprint, created_at, created_by";

fn run_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Run> {
    let c = Cols::new(r, "offering_runs");
    Ok(Run {
        id: c.get(0)?,
        program_id: c.get(1)?,
        import_id: c.get(2)?,
        adjudicated_on: c.date(3)?,
        rule: c.get(4)?,
        offered: c.shares(5)?,
        demand: c.shares(6)?,
        awarded: c.shares(7)?,
        leftover: c.shares(8)?,
        oversubscribed: c.get::<i64>(9)? != 0,
        fingerprint: c.get(10)?,
        created_at: c.get(11)?,
        created_by: c.get(12)?,
    })
}

/// The program's adjudication run, if it took place.
pub fn run(conn: &Connection, program_id: i64) -> Result<Option<Run>> {
    Ok(conn
        .query_row(
            &format!("SELECT {RUN_COLUMNS} FROM offering_runs WHERE program_id = ?1"),
            params![program_id],
            run_of,
        )
        .optional()?)
}

/// A run by its number.
pub fn run_by_id(conn: &Connection, id: i64) -> Result<Run> {
    conn.query_row(
        &format!("SELECT {RUN_COLUMNS} FROM offering_runs WHERE id = ?1"),
        params![id],
        run_of,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "adjudication run",
        id: id.to_string(),
    })
}

/// One person's stored outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredOutcome {
    pub seq: u64,
    pub acceptance_id: i64,
    pub requested: u64,
    pub cap_shares: Option<u64>,
    pub cap_rule: Option<String>,
    pub admitted: u64,
    pub quota: Option<String>,
    pub awarded: u64,
    pub status: String,
    pub cause: Option<String>,
    pub adjudication_id: Option<i64>,
}

/// A run's outcomes in filing order, one at a time to `f`.
pub fn each_outcome<E: From<StoreError>>(
    conn: &Connection,
    run_id: i64,
    mut f: impl FnMut(StoredOutcome) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(
            "SELECT seq, acceptance_id, requested, cap_shares, cap_rule, admitted, quota, awarded, status, cause,
                    adjudication_id FROM offering_outcomes WHERE run_id = ?1 ORDER BY seq",
        )
        .map_err(StoreError::from)?;
    let mut rows = stmt.query(params![run_id]).map_err(StoreError::from)?;
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let c = Cols::new(r, "offering_outcomes");
        let o = (|| -> rusqlite::Result<StoredOutcome> {
            Ok(StoredOutcome {
                seq: c.shares(0)?,
                acceptance_id: c.get(1)?,
                requested: c.shares(2)?,
                cap_shares: c.get::<Option<Shares>>(3)?.map(|s| s.0),
                cap_rule: c.get(4)?,
                admitted: c.shares(5)?,
                quota: c.get(6)?,
                awarded: c.shares(7)?,
                status: c.get(8)?,
                cause: c.get(9)?,
                adjudication_id: c.get(10)?,
            })
        })()
        .map_err(StoreError::from)?;
        f(o)?;
    }
    Ok(())
}

/// The person an outcome names: the document and name of the acceptance that speaks for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Speaker {
    pub doc_type: crate::ids::DocType,
    pub doc_number: String,
    pub name: String,
}

/// A run's outcomes in filing order, each with the person of the acceptance it points at, one
/// at a time to `f`: one query joining the two tables (no lookup per outcome).
pub fn each_outcome_with_speaker<E: From<StoreError>>(
    conn: &Connection,
    run_id: i64,
    mut f: impl FnMut(StoredOutcome, Speaker) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(
            "SELECT o.seq, o.acceptance_id, o.requested, o.cap_shares, o.cap_rule, o.admitted, o.quota, o.awarded,
                    o.status, o.cause, o.adjudication_id, a.id, a.doc_type, a.doc_number, a.name
             FROM offering_outcomes o LEFT JOIN acceptances a ON a.id = o.acceptance_id
             WHERE o.run_id = ?1 ORDER BY o.seq",
        )
        .map_err(StoreError::from)?;
    let mut rows = stmt.query(params![run_id]).map_err(StoreError::from)?;
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let c = Cols::new(r, "offering_outcomes");
        let o = (|| -> rusqlite::Result<StoredOutcome> {
            Ok(StoredOutcome {
                seq: c.shares(0)?,
                acceptance_id: c.get(1)?,
                requested: c.shares(2)?,
                cap_shares: c.get::<Option<Shares>>(3)?.map(|s| s.0),
                cap_rule: c.get(4)?,
                admitted: c.shares(5)?,
                quota: c.get(6)?,
                awarded: c.shares(7)?,
                status: c.get(8)?,
                cause: c.get(9)?,
                adjudication_id: c.get(10)?,
            })
        })()
        .map_err(StoreError::from)?;
        if c.get::<Option<i64>>(11)
            .map_err(StoreError::from)?
            .is_none()
        {
            return Err(StoreError::NotFound {
                what: "acceptance",
                id: o.acceptance_id.to_string(),
            }
            .into());
        }
        let c = Cols::new(r, "acceptances");
        let speaker = (|| -> rusqlite::Result<Speaker> {
            Ok(Speaker {
                doc_type: c.get(12)?,
                doc_number: c.get(13)?,
                name: c.get(14)?,
            })
        })()
        .map_err(StoreError::from)?;
        f(o, speaker)?;
    }
    Ok(())
}

/// The run's row, before its outcomes.
pub struct NewRun<'a> {
    pub program_id: i64,
    pub import_id: Option<i64>,
    pub adjudicated_on: NaiveDate,
    pub rule: &'a str,
    pub offered: u64,
    pub demand: u64,
    pub awarded: u64,
    pub leftover: u64,
    pub oversubscribed: bool,
    pub fingerprint: &'a str,
}

/// Inserts the run's row (covered later by [`seal_run`]).
pub fn insert_run(tx: &mut Tx<'_>, r: &NewRun<'_>) -> Result<i64> {
    tx.insert_unaudited(
        "offering_runs",
        &[
            ("program_id", &r.program_id),
            ("import_id", &r.import_id),
            ("adjudicated_on", &Day(r.adjudicated_on)),
            ("rule", &r.rule),
            ("offered", &Shares(r.offered)),
            ("demand", &Shares(r.demand)),
            ("awarded", &Shares(r.awarded)),
            ("leftover", &Shares(r.leftover)),
            ("oversubscribed", &i64::from(r.oversubscribed)),
            ("fingerprint", &r.fingerprint),
        ],
    )
}

/// An outcome row as audited.
#[derive(Serialize)]
struct OutcomeJson<'a> {
    id: i64,
    run_id: i64,
    seq: u64,
    acceptance_id: i64,
    requested: u64,
    cap_shares: Option<u64>,
    cap_rule: Option<&'a str>,
    admitted: u64,
    quota: Option<&'a str>,
    awarded: u64,
    status: &'a str,
    cause: Option<&'a str>,
    adjudication_id: Option<i64>,
    created_at: &'a str,
    created_by: &'a str,
}

/// Writes a run's outcomes, hashing them as audited; returns their id range and digest.
pub struct OutcomeWriter<'t, 'c> {
    tx: &'t Tx<'c>,
    run_id: i64,
    hash: RowHasher,
    first: i64,
    last: i64,
    json: Vec<u8>,
}

impl<'t, 'c> OutcomeWriter<'t, 'c> {
    pub fn new(tx: &'t Tx<'c>, run_id: i64) -> Self {
        OutcomeWriter {
            tx,
            run_id,
            hash: RowHasher::default(),
            first: 0,
            last: 0,
            json: Vec::with_capacity(256),
        }
    }

    pub fn add(&mut self, o: &StoredOutcome) -> Result<()> {
        let conn = self.tx.conn();
        let mut stmt = conn.prepare_cached(
            "INSERT INTO offering_outcomes (run_id, seq, acceptance_id, requested, cap_shares, cap_rule, admitted,
             quota, awarded, status, cause, adjudication_id, created_at, created_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )?;
        stmt.execute(params![
            self.run_id,
            Shares(o.seq),
            o.acceptance_id,
            Shares(o.requested),
            o.cap_shares.map(Shares),
            o.cap_rule,
            Shares(o.admitted),
            o.quota,
            Shares(o.awarded),
            o.status,
            o.cause,
            o.adjudication_id,
            self.tx.now(),
            self.tx.actor(),
        ])?;
        let id = conn.last_insert_rowid();
        if self.first == 0 {
            self.first = id;
        }
        self.last = id;
        self.json.clear();
        serde_json::to_writer(
            &mut self.json,
            &OutcomeJson {
                id,
                run_id: self.run_id,
                seq: o.seq,
                acceptance_id: o.acceptance_id,
                requested: o.requested,
                cap_shares: o.cap_shares,
                cap_rule: o.cap_rule.as_deref(),
                admitted: o.admitted,
                quota: o.quota.as_deref(),
                awarded: o.awarded,
                status: &o.status,
                cause: o.cause.as_deref(),
                adjudication_id: o.adjudication_id,
                created_at: self.tx.now(),
                created_by: self.tx.actor(),
            },
        )
        .expect("row serialises");
        self.hash.add_bytes(&self.json);
        Ok(())
    }

    /// The cover of the outcomes written (none when there were none).
    pub fn finish(self) -> Option<Cover> {
        (self.first != 0).then(|| Cover {
            table: "offering_outcomes",
            first: self.first,
            last: self.last,
            digest: Some(self.hash.finish()),
        })
    }
}

/// The run's one audit event, covering its outcomes and whatever else it wrote with it (the
/// `imports` row and the adjudications and holders of its awards).
pub fn seal_run(tx: &mut Tx<'_>, run_id: i64, covers: &[Cover]) -> Result<i64> {
    tx.audit_bulk("offer.adjudicate", "offering_runs", run_id, covers)
}

/// Shares already adjudicated for the program by any means.
pub fn adjudicated_shares(conn: &Connection, program_id: i64) -> Result<u64> {
    super::import::program_shares(conn, program_id)
}

/// The largest adjudication id so far (the next single INSERT continues after it).
pub fn max_adjudication_id(conn: &Connection) -> Result<i64> {
    Ok(
        conn.query_row("SELECT coalesce(max(id), 0) FROM adjudications", [], |r| {
            r.get(0)
        })?,
    )
}

/// An exact amount for the audited JSON and messages.
pub fn amount_text(d: Option<Decimal>) -> Option<String> {
    d.map(|d| Short::amount(d).as_str().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_amount_is_written_as_display_writes_it() {
        for text in [
            "0",
            "7",
            "12500000",
            "18446744073709551615",
            "18446744073709551616",
            "79228162514264337593543950335",
            "12500000.50",
            "0.05",
            "1.0",
            "-3",
            "-0",
            "0.000",
        ] {
            let d = crate::money::dec(text);
            assert_eq!(amount_text(Some(d)), Some(d.to_string()), "{text}");
        }
        assert_eq!(amount_text(None), None);
    }

    const HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,\
        accepts_reduction,files_tax_return,patrimonio_liquido,income,is_director,annual_salary,\
        investment_limit,patrimonio_ajustado,declarations,dismissed_with_just_cause,review,lender,\
        financed_shares\n";

    /// A register with the acceptances of `csv` (after [`HEADER`]) imported by `actor`.
    fn imported(actor: &str, csv: &str) -> super::super::Store {
        use crate::program::{DECRETO_3939_2004, Program};
        let mut store = super::super::Store::in_memory().unwrap();
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::program::add(tx, &program, DECRETO_3939_2004)
            })
            .unwrap();
        let p = super::super::programs::by_code(store.conn(), &program.code).unwrap();
        let day = |m, d| NaiveDate::from_ymd_opt(2024, m, d).unwrap();
        let window = Window {
            opens: day(1, 2),
            closes: day(3, 8),
        };
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::offering::open(tx, &p, window, Some("test: a 2024 offer"))
            })
            .unwrap();
        let file = format!("{HEADER}{csv}");
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::offering::import(
                    tx,
                    &p,
                    "a.csv",
                    "sha",
                    "UTF-8",
                    |prepare, store| {
                        Ok(crate::offering::file::each_in_parallel(
                            file.as_bytes(),
                            &p.program,
                            prepare,
                            store,
                        )?
                        .1)
                    },
                )
            })
            .unwrap();
        store
    }

    #[test]
    fn every_filing_reads_back_as_filed_whatever_the_filing_before_it_held() {
        // 70 filings: two full groups and a partial one, each column changing with its own
        // period, so that a place in a group holds now the value it held last time, now another
        let pick = |k: usize, options: &[&'static str]| options[k % options.len()];
        let mut csv = String::new();
        for k in 0..70 {
            let (doc_type, doc, person) = if k % 7 == 3 {
                let digits = (800_000_000 + k).to_string();
                let dv = crate::ids::nit_check_digit(&digits).unwrap();
                ("NIT", format!("{digits}-{dv}"), "legal")
            } else {
                ("CC", (1_000_000_000 + k).to_string(), "natural")
            };
            let shares = 1 + k % 5;
            let lender = pick(k, &["", "", "Banco Uno", "", "Banco \"Dos\""]);
            let financed = if lender.is_empty() {
                String::new()
            } else {
                (shares / 2).to_string()
            };
            let lender = if lender.contains('"') {
                "\"Banco \"\"Dos\"\"\""
            } else {
                lender
            };
            csv.push_str(&format!(
                "2024-01-{:02} 09:{:02},{doc_type},{doc},Persona {k},{person},{},{shares},{},{},{},{},{},{},{},{},{},{},{},{lender},{financed}\n",
                2 + k % 28,
                k % 60,
                pick(k, &["trabajador", "trabajador", "pensionado", "trabajador", "sindicato"]),
                pick(k, &["", "no", "si"]),
                pick(k, &["si", "no"]),
                pick(k, &["", "1000000", "", "2500000.75"]),
                pick(k, &["", "", "", "800000", ""]),
                pick(k, &["", "si", "", "", "", "", "no"]),
                pick(k, &["", "", "90000000"]),
                pick(k, &["", "12000000", "", "", "", "", "", ""]),
                pick(k, &["", "", "", "", "", "", "", "", "0.50"]),
                pick(k, &["si", "si", "", "si"]),
                pick(k, &["", "", "", "", "si", ""]),
                pick(k, &["", "", "", "", "", "", "", "", "", "", "PRICE_NOT_PAID"]),
            ));
        }
        let store = imported("ana", &csv);
        let mut filed = Vec::new();
        let file = format!("{HEADER}{csv}");
        let program =
            crate::program::Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
        let (_, problems) = crate::offering::file::each(file.as_bytes(), &program, |r| {
            filed.push(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(filed.len(), 70);
        for (id, row) in (1..).zip(&filed) {
            assert_eq!(
                &acceptance(store.conn(), id).unwrap().row,
                row,
                "filing {id}"
            );
        }
        assert!(super::super::audit::verify(store.conn()).unwrap().intact());
    }

    #[test]
    fn the_audited_form_written_by_hand_is_what_verify_reads_back() {
        let actor = "ana \"la\" jefa";
        // texts JSON escapes, amounts with and without cents, empty columns
        let store = imported(
            actor,
            "2024-01-15 09:30:07,CC,1000000001,\"Ana \"\"la\"\" Pérez \\ Ñandú\",natural,trabajador,\
             12,no,si,12500000.50,,si,0.05,7000000,0,si,no,form_defect,\"Banco \"\"Uno\"\"\",5\n\
             2024-01-16,NIT,800000001-1,Fondo Ñ,legal,trabajador,3,,,,,,,,,,,,,\n",
        );
        let conn = store.conn();
        let mut stmt = conn
            .prepare("SELECT * FROM acceptances ORDER BY id")
            .unwrap();
        let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
        let read_back: Vec<String> = stmt
            .query_map([], |r| {
                Ok(super::super::json_of_row(r, &names).unwrap().to_string())
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(read_back.len(), 2);
        let now: String = conn
            .query_row("SELECT created_at FROM acceptances WHERE id = 1", [], |r| {
                r.get(0)
            })
            .unwrap();
        let ctx = RowContext {
            program_id: 1,
            import_id: 1,
            now: &now,
            actor,
        };
        for (id, want) in (1..).zip(&read_back) {
            let row = acceptance(conn, id).unwrap().row;
            let texts = [
                Some(Short::filed(row.filed_at)),
                row.patrimonio_liquido.map(Short::amount),
                row.income.map(Short::amount),
                row.annual_salary.map(Short::amount),
                row.investment_limit.map(Short::amount),
                row.patrimonio_ajustado.map(Short::amount),
            ];
            let mut json = Vec::new();
            acceptance_json(&mut json, &ctx, id, &row, &texts);
            assert_eq!(String::from_utf8(json).unwrap(), *want);
        }
        assert!(read_back[0].contains(r#""name":"Ana \"la\" Pérez \\ Ñandú""#));
        assert!(read_back[0].contains(r#""annual_salary":"0.05""#));
        assert!(read_back[1].contains(r#""lender":null"#));
        // and the import's one event covers them by that form
        assert!(super::super::audit::verify(conn).unwrap().intact());
    }

    #[test]
    fn filing_times_are_written_and_read_as_chrono_does() {
        let chrono_text = |t: NaiveDateTime| t.format("%Y-%m-%d %H:%M:%S").to_string();
        let chrono_parse = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").ok();
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let times = [
            day(2024, 1, 2).and_hms_opt(0, 0, 0).unwrap(),
            day(1999, 12, 31).and_hms_opt(23, 59, 59).unwrap(),
            day(2024, 2, 29).and_hms_opt(8, 5, 9).unwrap(),
            day(1, 1, 1).and_hms_opt(1, 2, 3).unwrap(),
            day(9999, 12, 31).and_hms_opt(12, 0, 0).unwrap(),
            day(10000, 1, 1).and_hms_opt(12, 0, 0).unwrap(),
            day(2016, 12, 31)
                .and_hms_milli_opt(23, 59, 59, 1_000)
                .unwrap(),
        ];
        for t in times {
            assert_eq!(filed_text(t), chrono_text(t), "{t:?}");
            assert_eq!(
                parse_filed(&filed_text(t)),
                chrono_parse(&chrono_text(t)),
                "{t:?}"
            );
        }
        for s in [
            "2024-01-02 08:00:00",
            "2024-02-30 08:00:00",
            "2024-01-02 24:00:00",
            "2024-01-02 23:59:60",
            "2024-01-02T08:00:00",
            "2024-01-02 08:00",
            "+2024-01-02 08:00:00",
            "2024-1-02 08:00:00 ",
            "２０２４-01-02 08:00:0",
            "",
        ] {
            assert_eq!(parse_filed(s), chrono_parse(s), "{s:?}");
        }
    }
}
