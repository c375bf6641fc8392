//! A stored adjudication run read a page at a time, for a page that must not hold a million rows:
//! its header and recomputed fingerprint with one row in memory at a time, and one keyset page of
//! its rows (`store::outcome_page`), each as the acta shows it.

use super::Result;
use super::offering::{Fingerprint, Header, Row, each_stored_row, stored_header};
use crate::offering::adjudicate::{Cause, Status};
use crate::store::offering::Run;
use crate::store::outcome_page;
use crate::store::programs::StoredProgram;
use rusqlite::Connection;

/// How many of a run's rows (of `status` when given) come up to a row id: the place after which
/// the page that starts after it begins, whatever the key is (of another status, of no row).
pub use crate::store::outcome_page::{count_after, count_through};

/// How many persons a run has, in all and awarded (the rest were rejected).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Persons {
    pub all: u64,
    pub awarded: u64,
}

impl Persons {
    /// How many have `status` (`None`: every status).
    pub fn of(&self, status: Option<Status>) -> u64 {
        match status {
            None => self.all,
            Some(Status::Awarded) => self.awarded,
            Some(Status::Rejected) => self.all.saturating_sub(self.awarded),
        }
    }
}

/// A run's header, its fingerprint recomputed from the stored rows (read one at a time) and how
/// many rows (persons) it has, awarded or not.
pub fn recomputed(
    conn: &Connection,
    program: &StoredProgram,
    run: &Run,
) -> Result<(Header, String, Persons)> {
    let header = stored_header(conn, program, run)?;
    let mut fp = Fingerprint::default();
    fp.header(&header);
    let mut persons = Persons::default();
    each_stored_row::<super::Error>(conn, run.id, |row| {
        fp.row(&row);
        persons.all += 1;
        persons.awarded += u64::from(row.status == Status::Awarded);
        Ok(())
    })?;
    Ok((header, fp.finish(), persons))
}

/// One page of a run's rows: after row id `after` (0: the first), of `status` when given, at most
/// `limit`; each with its row id, the keyset of the next page.
pub fn rows_after(
    conn: &Connection,
    run_id: i64,
    after: i64,
    status: Option<Status>,
    limit: usize,
) -> Result<Vec<(i64, Row)>> {
    Ok(
        outcome_page::outcomes_after(conn, run_id, after, status, limit)?
            .into_iter()
            .map(|p| {
                let o = p.outcome;
                (
                    p.id,
                    Row {
                        doc_type: p.speaker.doc_type.as_str().to_string(),
                        doc_number: p.speaker.doc_number,
                        name: p.speaker.name,
                        requested: o.requested,
                        cap_shares: o.cap_shares,
                        cap_rule: o.cap_rule,
                        admitted: o.admitted,
                        quota: o.quota,
                        awarded: o.awarded,
                        status: o.status,
                        cause: o.cause.map(Cause::as_str),
                    },
                )
            })
            .collect(),
    )
}
