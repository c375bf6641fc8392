//! The adjudications in force (not voided) gathered by program and adjudication date: what the
//! lock-ups' calendar is computed from (one GROUP BY, a handful of rows for a national offering).

use super::Result;
use super::columns::Cols;
use chrono::NaiveDate;
use rusqlite::Connection;

/// The adjudications of one program on one date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateGroup {
    pub program_id: i64,
    pub adjudicated_on: NaiveDate,
    pub adjudications: u64,
    pub shares: u64,
}

/// Every (program, adjudication date) with its count and shares, voided adjudications left out.
pub fn by_date(conn: &Connection) -> Result<Vec<DateGroup>> {
    let mut st = conn.prepare(
        "SELECT a.program_id, a.adjudicated_on, COUNT(*), SUM(a.shares)
           FROM adjudications a
          WHERE NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)
          GROUP BY a.program_id, a.adjudicated_on
          ORDER BY a.program_id, a.adjudicated_on",
    )?;
    let rows = st.query_map([], |r| {
        let c = Cols::new(r, "adjudications");
        Ok(DateGroup {
            program_id: c.get(0)?,
            adjudicated_on: c.date(1)?,
            adjudications: c.shares(2)?,
            shares: c.shares(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}
