//! One page of a stored adjudication run's outcomes, by keyset: the outcomes after a given row,
//! in filing order, optionally only those of one status, at most `limit`. A run's outcomes are
//! written in filing order in one transaction, so their row ids follow their `seq`: the page is a
//! range of the table's primary key, read without scanning or sorting the run (a national offering
//! has a million outcomes).

use super::columns::{Cols, Shares};
use super::offering::{Speaker, StoredOutcome};
use super::{Result, StoreError};
use crate::offering::adjudicate::Status;
use rusqlite::{Connection, params};

/// An outcome of the page: its row id (the keyset to continue after), the outcome and the person.
pub struct PagedOutcome {
    pub id: i64,
    pub outcome: StoredOutcome,
    pub speaker: Speaker,
}

/// How many outcomes of run `run_id` follow row id `after` (with `status` when given), counted
/// up to `limit`: what the next page will hold, read by the same keyset without reading the rest
/// of a million.
pub fn count_after(
    conn: &Connection,
    run_id: i64,
    after: i64,
    status: Option<Status>,
    limit: usize,
) -> Result<usize> {
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM (SELECT 1 FROM offering_outcomes o
         WHERE o.id > ?2 AND o.run_id = ?1 AND (?3 IS NULL OR o.status = ?3)
         ORDER BY o.id LIMIT ?4)",
    )?;
    let status = status.map(Status::as_str);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let n: i64 = stmt.query_row(params![run_id, after, status, limit], |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// How many outcomes of run `run_id` (with `status` when given) have a row id up to `after`, that
/// one included: the place of the page that starts after `after`, true whatever `after` is (a
/// row of another status, of no row). A range of the primary key, counted without reading the
/// outcomes' persons: less than the page's own pass over every row of the run.
pub fn count_through(
    conn: &Connection,
    run_id: i64,
    after: i64,
    status: Option<Status>,
) -> Result<u64> {
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM offering_outcomes o
         WHERE o.id <= ?2 AND o.run_id = ?1 AND (?3 IS NULL OR o.status = ?3)",
    )?;
    let status = status.map(Status::as_str);
    let n: i64 = stmt.query_row(params![run_id, after, status], |r| r.get(0))?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// The outcomes of run `run_id` whose row id is above `after` (0: from the first), with `status`
/// when given, in filing order, at most `limit`.
pub fn outcomes_after(
    conn: &Connection,
    run_id: i64,
    after: i64,
    status: Option<Status>,
    limit: usize,
) -> Result<Vec<PagedOutcome>> {
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.seq, o.acceptance_id, o.requested, o.cap_shares, o.cap_rule, o.admitted, o.quota,
                o.awarded, o.status, o.cause, o.adjudication_id, a.doc_type, a.doc_number, a.name
         FROM offering_outcomes o JOIN acceptances a ON a.id = o.acceptance_id
         WHERE o.id > ?2 AND o.run_id = ?1 AND (?3 IS NULL OR o.status = ?3)
         ORDER BY o.id LIMIT ?4",
    )?;
    let status = status.map(Status::as_str);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut rows = stmt.query(params![run_id, after, status, limit])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let c = Cols::new(r, "offering_outcomes");
        let page = (|| -> rusqlite::Result<PagedOutcome> {
            Ok(PagedOutcome {
                id: c.get(0)?,
                outcome: StoredOutcome {
                    seq: c.shares(1)?,
                    acceptance_id: c.get(2)?,
                    requested: c.shares(3)?,
                    cap_shares: c.get::<Option<Shares>>(4)?.map(|s| s.0),
                    cap_rule: c.get(5)?,
                    admitted: c.shares(6)?,
                    quota: c.get(7)?,
                    awarded: c.shares(8)?,
                    status: c.get(9)?,
                    cause: c.get(10)?,
                    adjudication_id: c.get(11)?,
                },
                speaker: Speaker {
                    doc_type: c.get(12)?,
                    doc_number: c.get(13)?,
                    name: c.get(14)?,
                },
            })
        })()
        .map_err(StoreError::from)?;
        out.push(page);
    }
    Ok(out)
}
