//! The awards a program already has, read in stored order beside a re-import of its file (issue
//! 23): a row of the file that is one of the next stored awards (same document and adjudication
//! date) is judged from what this read brought, without storing its holder or looking anything
//! up; any other row goes the bulk writer's way (`import::Writer`: stored, or found and judged).
//! A file exported again from the same list has its rows in the order they were stored, so a
//! re-import of a million unchanged rows reads the table once instead of making three lookups a
//! row.

use super::Result;
use super::columns::Cols;
use crate::import::AdjudicationRow;
use rusqlite::{Connection, params};
use rust_decimal::Decimal;
use std::collections::VecDeque;

/// How far ahead of the last award matched a row's award is looked for: a file whose rows left
/// the stored order (a row added, removed or moved) finds its place again within this many.
const WINDOW: usize = 64;

/// Awards read per query.
const READ: i64 = 512;

/// A registered award (not void) of the program, with its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Award {
    pub id: i64,
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
    pub person_type: String,
    /// As stored (`YYYY-MM-DD`).
    pub adjudicated_on: String,
    pub category: String,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub lender: Option<String>,
    pub financed_shares: u64,
}

/// The program's awards stored before the import began, read ahead in id order.
pub(super) struct Known {
    program_id: i64,
    /// The largest id when the import began: what it stores itself is never read.
    last: i64,
    /// The id read up to.
    after: i64,
    ahead: VecDeque<Award>,
}

impl Known {
    /// The awards of `program_id` stored so far; `None` when the table holds none.
    pub(super) fn new(conn: &Connection, program_id: i64) -> Result<Option<Known>> {
        let last: i64 =
            conn.query_row("SELECT coalesce(max(id), 0) FROM adjudications", [], |r| {
                r.get(0)
            })?;
        Ok((last > 0).then(|| Known {
            program_id,
            last,
            after: 0,
            ahead: VecDeque::with_capacity(2 * READ as usize),
        }))
    }

    /// The registered award of `row` (adjudication date `on`, as stored) when it is among the
    /// next [`WINDOW`] not yet matched; the awards before it are passed over (a row of the file
    /// that names one of them later is looked up the usual way).
    pub(super) fn take(
        &mut self,
        conn: &Connection,
        row: &AdjudicationRow,
        on: &str,
    ) -> Result<Option<Award>> {
        if self.ahead.len() < WINDOW {
            self.read(conn)?;
        }
        let at = self.ahead.iter().take(WINDOW).position(|a| {
            a.doc_number == row.doc_number
                && a.adjudicated_on == on
                && a.doc_type == row.doc_type.as_str()
        });
        Ok(at.and_then(|k| {
            self.ahead.drain(..k);
            self.ahead.pop_front()
        }))
    }

    /// Reads the next awards (none once past the last).
    fn read(&mut self, conn: &Connection) -> Result<()> {
        if self.after >= self.last {
            return Ok(());
        }
        let mut stmt = conn.prepare_cached(
            "SELECT a.id, h.doc_type, h.doc_number, h.name, h.person_type, a.adjudicated_on,
                    a.category, a.shares, a.price_per_share, a.lender, a.financed_shares
             FROM adjudications a JOIN holders h ON h.id = a.holder_id
             WHERE a.id > ?1 AND a.id <= ?2 AND a.program_id = ?3
               AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)
             ORDER BY a.id LIMIT ?4",
        )?;
        let mut rows = stmt.query(params![self.after, self.last, self.program_id, READ])?;
        let mut read = 0;
        while let Some(r) = rows.next()? {
            let (a, h) = (Cols::new(r, "adjudications"), Cols::new(r, "holders"));
            let award = Award {
                id: a.get(0)?,
                doc_type: h.get(1)?,
                doc_number: h.get(2)?,
                name: h.get(3)?,
                person_type: h.get(4)?,
                adjudicated_on: a.get(5)?,
                category: a.get(6)?,
                shares: a.shares(7)?,
                price_per_share: a.decimal(8)?,
                lender: a.get(9)?,
                financed_shares: a.shares(10)?,
            };
            self.after = award.id;
            self.ahead.push_back(award);
            read += 1;
        }
        if read < READ {
            // the program has no more awards up to the last id
            self.after = self.last;
        }
        Ok(())
    }
}
