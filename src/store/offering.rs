//! The first-stage offering in SQLite: the offer's window, acceptances written in bulk (one
//! audit event per file covering its rows by range and hash), and the adjudication run with its
//! outcomes (one audit event covering the run, its outcomes and the adjudications it wrote).
//! Rows are mapped to domain types once; no rule is decided here.

use super::audit::{Cover, RowHasher};
use super::bulk::{FkOff, Insert, Param, Short, parse_filed};
use super::columns::{Cols, Day, Shares};
use super::{Result, StoreError, Tx};
use crate::caps::Evidence;
use crate::import::PersonType;
use crate::offering::adjudicate::{Cause, Status, Window};
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
        crate::store::Action::OfferOpen,
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

    /// The filing's lender and financed shares, which an award's adjudication takes (read only
    /// when [`each_filing`] was asked for them).
    pub fn award_figures(&self) -> Result<(Option<&str>, u64)> {
        let c = Cols::new(self.row, "acceptances");
        let lender = match self.row.get_ref(21)? {
            rusqlite::types::ValueRef::Null => None,
            rusqlite::types::ValueRef::Text(t) => Some(
                std::str::from_utf8(t)
                    .map_err(|_| StoreError::Corrupt("acceptances.lender is not UTF-8".into()))?,
            ),
            _ => return Err(StoreError::Corrupt("acceptances.lender is not text".into())),
        };
        Ok((lender, c.shares(22)?))
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
/// otherwise fill the 64 MiB cache with pages read once). `award`: the lender and financed
/// shares are read too ([`FilingColumns::award_figures`]).
pub fn each_filing<E: From<StoreError>>(
    conn: &Connection,
    program_id: i64,
    award: bool,
    f: impl FnMut(FilingColumns<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let cache: i64 = conn
        .pragma_query_value(None, "cache_size", |r| r.get(0))
        .map_err(StoreError::from)?;
    conn.pragma_update(None, "cache_size", super::STREAMING_CACHE)
        .map_err(StoreError::from)?;
    let scanned = scan_filings(conn, program_id, award, f);
    conn.pragma_update(None, "cache_size", cache)
        .map_err(StoreError::from)?;
    scanned
}

fn scan_filings<E: From<StoreError>>(
    conn: &Connection,
    program_id: i64,
    award: bool,
    mut f: impl FnMut(FilingColumns<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let award_columns = if award {
        ", lender, financed_shares"
    } else {
        ""
    };
    let mut stmt = conn
        .prepare(&format!(
            "SELECT id, line, filed_at, doc_type, doc_number, name, category, shares, accepts_reduction,
                    declarations, dismissed_with_just_cause, review,
                    person_type, files_tax_return, patrimonio_liquido, income, is_director, annual_salary,
                    investment_limit, patrimonio_ajustado,
                    (SELECT amount FROM acceptance_figures f WHERE f.acceptance_id = acceptances.id
                     AND f.measure = 'income_financial_statements'){award_columns}
             FROM acceptances WHERE program_id = ?1 ORDER BY id"
        ))
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

pub use super::acceptances::{
    AcceptanceWrite, ImportedAcceptances, Prepare, Prepared, StoreRows, StoredAcceptances,
    seal_acceptances, write_acceptances,
};

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
    pub status: Status,
    pub cause: Option<crate::offering::adjudicate::Cause>,
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
    status: Status,
    cause: Option<&'a str>,
    adjudication_id: Option<i64>,
    created_at: &'a str,
    created_by: &'a str,
}

/// The acceptances a run read in its transaction, by id (one bit each): what its outcomes may
/// point at. Acceptances are never deleted and the run holds the write lock, so an id read is
/// an acceptance of the register until the run commits.
#[derive(Default)]
pub struct ReadAcceptances {
    bits: Vec<u64>,
}

impl ReadAcceptances {
    pub fn insert(&mut self, id: i64) {
        if let Ok(i) = usize::try_from(id) {
            let word = i / 64;
            if word >= self.bits.len() {
                self.bits.resize(word + 1, 0);
            }
            self.bits[word] |= 1 << (i % 64);
        }
    }

    pub fn contains(&self, id: i64) -> bool {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.bits.get(i / 64).map(|w| w & (1 << (i % 64)) != 0))
            .unwrap_or(false)
    }
}

/// The outcomes' multi-row INSERT (`OR FAIL`: no statement journal, see `bulk::FkOff`).
const INSERT_OUTCOMES: &str = "INSERT OR FAIL INTO offering_outcomes (run_id, seq, acceptance_id, requested, \
     cap_shares, cap_rule, admitted, quota, awarded, status, cause, adjudication_id, created_at, created_by) VALUES";
/// Shared: `?1` the run, `?2` now, `?3` actor.
const OUTCOME_ROW: &str = "(?1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ?2, ?3)";

/// Outcomes stored per INSERT statement (11 values each, after the 3 they share).
const OUTCOMES_PER_INSERT: usize = 64;

/// Outcomes handed to the hashing thread per message.
const OUTCOMES_PER_HASH: usize = 1024;

/// Outcomes as stored, on their way to the hashing thread: the id of the first, then the rows
/// (their ids follow on).
type StoredGroup = (i64, Vec<StoredOutcome>);

/// Hashes the stored outcomes of run `run_id` in their audited form, in the order they were
/// stored, as they come: their digest once the writer hangs up.
fn hash_outcomes(
    run_id: i64,
    (now, actor): (String, String),
    stored: std::sync::mpsc::Receiver<StoredGroup>,
) -> (i64, String) {
    let mut hash = RowHasher::default();
    let mut json = Vec::with_capacity(256);
    for (first, rows) in stored {
        for (id, o) in (first..).zip(&rows) {
            json.clear();
            serde_json::to_writer(
                &mut json,
                &OutcomeJson {
                    id,
                    run_id,
                    seq: o.seq,
                    acceptance_id: o.acceptance_id,
                    requested: o.requested,
                    cap_shares: o.cap_shares,
                    cap_rule: o.cap_rule.as_deref(),
                    admitted: o.admitted,
                    quota: o.quota.as_deref(),
                    awarded: o.awarded,
                    status: o.status,
                    cause: o.cause.map(|c| c.as_str()),
                    adjudication_id: o.adjudication_id,
                    created_at: &now,
                    created_by: &actor,
                },
            )
            .expect("row serialises");
            hash.add_bytes(&json);
        }
    }
    hash.finish()
}

/// Writes a run's outcomes, a group at a time through the bulk writer, and has them hashed as
/// audited on a second thread (as an import's rows are: the writing and the hashing overlap);
/// returns their id range and digest.
pub struct OutcomeWriter<'t, 'c> {
    tx: &'t Tx<'c>,
    run_id: i64,
    /// What the outcomes may point at: the acceptances the run read, and the adjudications its
    /// awards were written as (first and last id).
    read: &'t ReadAcceptances,
    adjudications: Option<(i64, i64)>,
    insert: Insert<'t>,
    pending: Vec<StoredOutcome>,
    fk: FkOff<'t>,
    /// Outcomes stored and not yet handed to the hashing thread, the id of the first.
    stored: StoredGroup,
    to_hasher: std::sync::mpsc::SyncSender<StoredGroup>,
    hasher: std::thread::JoinHandle<(i64, String)>,
    first: i64,
    last: i64,
}

impl<'t, 'c> OutcomeWriter<'t, 'c> {
    /// A writer for the outcomes of run `run_id`, just inserted in `tx`, whose acceptances are
    /// among `read` and whose adjudications are within `adjudications`.
    pub fn new(
        tx: &'t Tx<'c>,
        run_id: i64,
        read: &'t ReadAcceptances,
        adjudications: Option<(i64, i64)>,
    ) -> Result<Self> {
        // SQLite checks each outcome's `acceptance_id` by a point read of the acceptances
        // table, one scattered page per outcome in filing order (a million outcomes spent
        // about 3 of every 4 seconds of their writing there); the writer checks the three
        // references itself instead (see [`OutcomeWriter::add`]). Off before the INSERT is
        // prepared.
        let fk = FkOff::new(tx.conn())?;
        let text = |s: &str| rusqlite::types::Value::Text(s.to_string());
        let insert = Insert::new(
            tx.conn(),
            (INSERT_OUTCOMES, OUTCOME_ROW, ""),
            11,
            vec![
                rusqlite::types::Value::Integer(run_id),
                text(tx.now()),
                text(tx.actor()),
            ],
            OUTCOMES_PER_INSERT,
        )?;
        // a few groups in flight at most: memory stays flat
        let (to_hasher, stored) = std::sync::mpsc::sync_channel(4);
        let who = (tx.now().to_string(), tx.actor().to_string());
        let hasher = std::thread::spawn(move || hash_outcomes(run_id, who, stored));
        Ok(OutcomeWriter {
            tx,
            run_id,
            read,
            adjudications,
            insert,
            pending: Vec::with_capacity(OUTCOMES_PER_INSERT),
            fk,
            stored: (0, Vec::with_capacity(OUTCOMES_PER_HASH)),
            to_hasher,
            hasher,
            first: 0,
            last: 0,
        })
    }

    /// Writes one outcome (with the next ones of its group). Its references are checked here,
    /// as the foreign keys would: its run is the writer's (inserted before it, with the foreign
    /// keys on), its acceptance one the run read, its adjudication one of those its awards were
    /// written as.
    pub fn add(&mut self, o: StoredOutcome) -> Result<()> {
        if !self.read.contains(o.acceptance_id) {
            return Err(StoreError::Corrupt(format!(
                "outcome {} of run {}: acceptance {} was not read by the run",
                o.seq, self.run_id, o.acceptance_id
            )));
        }
        if let Some(a) = o.adjudication_id
            && !self
                .adjudications
                .is_some_and(|(first, last)| (first..=last).contains(&a))
        {
            return Err(StoreError::Corrupt(format!(
                "outcome {} of run {}: adjudication {a} was not written by the run",
                o.seq, self.run_id
            )));
        }
        self.pending.push(o);
        if self.pending.len() == self.insert.rows() {
            self.flush()?;
        }
        Ok(())
    }

    /// Stores the pending outcomes in one INSERT and passes them on to be hashed as stored
    /// (their ids follow on from the group before, checked).
    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        // the rule, status and cause are mostly what the outcome in the same place of the
        // group before had: bound only when they differ (a bound text is a copy SQLite makes)
        self.insert.insert(&self.pending, |o, b| {
            b.value(Shares(o.seq))?;
            b.value(o.acceptance_id)?;
            b.value(Shares(o.requested))?;
            b.value(o.cap_shares.map(Shares))?;
            b.same(Param::from(o.cap_rule.as_deref()))?;
            b.value(Shares(o.admitted))?;
            b.value(&o.quota)?;
            b.value(Shares(o.awarded))?;
            b.same(Param::Text(o.status.as_str()))?;
            b.same(Param::from(o.cause.map(|c| c.as_str())))?;
            b.value(o.adjudication_id)
        })?;
        let ids = (&mut self.first, &mut self.last);
        let first = super::bulk::follow_on(self.tx.conn(), self.pending.len(), ids, "outcomes")?;
        if self.stored.1.is_empty() {
            self.stored.0 = first;
        }
        self.stored.1.append(&mut self.pending);
        if self.stored.1.len() >= OUTCOMES_PER_HASH {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Hands the outcomes stored so far to the hashing thread.
    fn hand_over(&mut self) -> Result<()> {
        let full = std::mem::replace(&mut self.stored, (0, Vec::with_capacity(OUTCOMES_PER_HASH)));
        self.to_hasher
            .send(full)
            .map_err(|_| StoreError::Corrupt("the outcomes' hashing thread stopped".into()))
    }

    /// The cover of the outcomes written (none when there were none), the foreign keys on
    /// again.
    pub fn finish(mut self) -> Result<Option<Cover>> {
        self.flush()?;
        if !self.stored.1.is_empty() {
            self.hand_over()?;
        }
        let OutcomeWriter {
            to_hasher,
            hasher,
            mut fk,
            first,
            last,
            ..
        } = self;
        drop(to_hasher); // the hashing thread ends with the last group
        let digest = hasher
            .join()
            .expect("the outcomes' hashing thread does not panic");
        fk.restore()?;
        Ok((first != 0).then_some(Cover {
            table: "offering_outcomes",
            first,
            last,
            digest: Some(digest),
        }))
    }
}

/// Page cache (`PRAGMA cache_size`, negative: KiB) while a run writes its awards and outcomes.
/// The adjudication's computation is in memory then, and the connection's 64 MiB came on top of
/// it: a million acceptances' real run peaked at 292 MiB with it and at 262 MiB with this, in no
/// more time (8 MiB, the streaming cache, took a fifth longer to write the awards). Since the
/// names' index is sorted with a helper thread (`bulk::SORT_THREADS`) the run peaks at 276 MiB
/// with this; 48 MiB, which reads fewer pages, peaked at 289 MiB (303 MB, over issue 23's 300).
pub const AWARDS_CACHE: i64 = -32768;

/// The run's one audit event, covering its outcomes and whatever else it wrote with it (the
/// `imports` row and the adjudications and holders of its awards).
pub fn seal_run(tx: &mut Tx<'_>, run_id: i64, covers: &[Cover]) -> Result<i64> {
    tx.audit_bulk(
        crate::store::Action::OfferAdjudicate,
        "offering_runs",
        run_id,
        covers,
    )
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
    fn the_acceptances_read_are_told_apart_by_id() {
        let mut read = ReadAcceptances::default();
        for id in [0, 63, 64, 1000] {
            read.insert(id);
        }
        read.insert(-1);
        for id in [0, 63, 64, 1000] {
            assert!(read.contains(id), "{id}");
        }
        for id in [-1, 1, 62, 65, 999, 1001, 1 << 40] {
            assert!(!read.contains(id), "{id}");
        }
    }

    #[test]
    fn an_outcome_pointing_at_what_the_run_did_not_read_or_write_is_refused() {
        let mut store = crate::store::Store::in_memory().unwrap();
        let fk = |conn: &Connection| -> i64 {
            conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))
                .unwrap()
        };
        let outcome = |acceptance_id, adjudication_id: Option<i64>| StoredOutcome {
            seq: 1,
            acceptance_id,
            requested: 5,
            cap_shares: None,
            cap_rule: None,
            admitted: 5,
            quota: None,
            awarded: u64::from(adjudication_id.is_some()) * 5,
            status: Status::Awarded,
            cause: None,
            adjudication_id,
        };
        let mut read = ReadAcceptances::default();
        read.insert(7);
        let refused: Result<()> = store.write("ana", |tx| {
            assert_eq!(fk(tx.conn()), 1);
            let mut w = OutcomeWriter::new(tx, 1, &read, Some((10, 12)))?;
            assert_eq!(fk(tx.conn()), 0, "SQLite's checks are off while it writes");
            let e = w.add(outcome(8, None)).unwrap_err().to_string();
            assert!(e.contains("acceptance 8 was not read"), "{e}");
            let e = w.add(outcome(7, Some(13))).unwrap_err().to_string();
            assert!(e.contains("adjudication 13 was not written"), "{e}");
            let e = w.add(outcome(7, Some(9))).unwrap_err().to_string();
            assert!(e.contains("adjudication 9 was not written"), "{e}");
            drop(w);
            assert_eq!(fk(tx.conn()), 1, "a writer dropped half-way puts them back");
            let mut w = OutcomeWriter::new(tx, 1, &read, None)?;
            let e = w.add(outcome(7, Some(10))).unwrap_err().to_string();
            assert!(e.contains("adjudication 10 was not written"), "{e}");
            assert_eq!(w.finish()?, None, "nothing was written");
            assert_eq!(fk(tx.conn()), 1);
            Err(StoreError::Corrupt("rolled back".into()))
        });
        assert!(refused.is_err());
        assert_eq!(fk(store.conn()), 1);
    }

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
