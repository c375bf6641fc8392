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
use rusqlite::types::ValueRef;
use rusqlite::{Connection, params};
use rust_decimal::Decimal;
use std::collections::VecDeque;

/// How far ahead of the last award matched a row's award is looked for: a file whose rows left
/// the stored order (a row added, removed or moved) finds its place again within this many.
const WINDOW: usize = 64;

/// Awards read per query.
const READ: i64 = 512;

/// A registered award (not void) of the program, with its holder. Its texts are kept one after
/// the other in one buffer, reused from one read to the next: a re-import of a million rows
/// otherwise allocated and freed seven texts a row (with the reading thread's, allocating and
/// freeing took a quarter of its CPU).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Award {
    pub id: i64,
    /// doc_type, doc_number, name, person_type, adjudicated_on (as stored, `YYYY-MM-DD`),
    /// category, lender (empty when none).
    text: String,
    /// Where each of the texts ends in `text`.
    ends: [usize; 7],
    has_lender: bool,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub financed_shares: u64,
}

impl Award {
    fn part(&self, k: usize) -> &str {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.text[start..self.ends[k]]
    }

    pub fn doc_type(&self) -> &str {
        self.part(0)
    }

    pub fn doc_number(&self) -> &str {
        self.part(1)
    }

    pub fn name(&self) -> &str {
        self.part(2)
    }

    pub fn person_type(&self) -> &str {
        self.part(3)
    }

    pub fn adjudicated_on(&self) -> &str {
        self.part(4)
    }

    pub fn category(&self) -> &str {
        self.part(5)
    }

    pub fn lender(&self) -> Option<&str> {
        self.has_lender.then(|| self.part(6))
    }
}

/// Appends the text of column `i` to `text`; false when it is NULL and may be. Anything else
/// (NULL where a text must be, another type) is the error [`Cols::get`] gives.
fn append(
    r: &rusqlite::Row<'_>,
    c: &Cols<'_, '_>,
    i: usize,
    nullable: bool,
    text: &mut String,
) -> rusqlite::Result<bool> {
    match r.get_ref(i)? {
        ValueRef::Null if nullable => Ok(false),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) => {
                text.push_str(s);
                Ok(true)
            }
            Err(_) => c.get::<String>(i).map(|_| true),
        },
        _ => c.get::<String>(i).map(|_| true),
    }
}

/// The program's awards stored before the import began, read ahead in id order.
pub(super) struct Known {
    program_id: i64,
    /// The largest id when the import began: what it stores itself is never read.
    last: i64,
    /// The id read up to.
    after: i64,
    ahead: VecDeque<Award>,
    /// The award [`Known::take`] last gave.
    taken: Award,
    /// Awards passed over or given, whose buffers the next read reuses.
    spare: Vec<Award>,
    /// The voided awards, read once (never given).
    voided: super::voided::IdSet,
}

impl Known {
    /// The awards of `program_id` stored so far; `None` when the table holds none.
    pub(super) fn new(conn: &Connection, program_id: i64) -> Result<Option<Known>> {
        let last: i64 =
            conn.query_row("SELECT coalesce(max(id), 0) FROM adjudications", [], |r| {
                r.get(0)
            })?;
        if last == 0 {
            return Ok(None);
        }
        Ok(Some(Known {
            program_id,
            last,
            after: 0,
            ahead: VecDeque::with_capacity(2 * READ as usize),
            taken: Award::default(),
            spare: Vec::new(),
            voided: super::voided::adjudications(conn)?,
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
    ) -> Result<Option<&Award>> {
        if self.ahead.len() < WINDOW {
            self.read(conn)?;
        }
        let at = self.ahead.iter().take(WINDOW).position(|a| {
            a.doc_number() == row.doc_number
                && a.adjudicated_on() == on
                && a.doc_type() == row.doc_type.as_str()
        });
        let Some(k) = at else {
            return Ok(None);
        };
        self.spare.extend(self.ahead.drain(..k));
        let found = self.ahead.pop_front().expect("found at k");
        self.spare.push(std::mem::replace(&mut self.taken, found));
        Ok(Some(&self.taken))
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
             ORDER BY a.id LIMIT ?4",
        )?;
        let mut rows = stmt.query(params![self.after, self.last, self.program_id, READ])?;
        let mut read = 0;
        while let Some(r) = rows.next()? {
            let (a, h) = (Cols::new(r, "adjudications"), Cols::new(r, "holders"));
            let id: i64 = a.get(0)?;
            read += 1;
            // a voided award is passed over here (one bit read), not by a subquery a row
            if self.voided.contains(id) {
                self.after = id;
                continue;
            }
            let mut award = self.spare.pop().unwrap_or_default();
            award.text.clear();
            award.id = id;
            for (k, (c, i)) in [
                (&h, 1),
                (&h, 2),
                (&h, 3),
                (&h, 4),
                (&a, 5),
                (&a, 6),
                (&a, 9),
            ]
            .into_iter()
            .enumerate()
            {
                let present = append(r, c, i, i == 9, &mut award.text)?;
                award.ends[k] = award.text.len();
                if i == 9 {
                    award.has_lender = present;
                }
            }
            award.shares = a.shares(7)?;
            award.price_per_share = a.decimal(8)?;
            award.financed_shares = a.shares(10)?;
            self.after = award.id;
            self.ahead.push_back(award);
        }
        if read < READ {
            // the program has no more awards up to the last id
            self.after = self.last;
        }
        Ok(())
    }
}
