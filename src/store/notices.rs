//! Fine notices: numbered per program and year, each pointing at its liquidation; a re-issue
//! names the notice it replaces.

use super::columns::Cols;
use super::{Result, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub id: i64,
    pub program_id: i64,
    pub number: String,
    pub breach_id: i64,
    pub liquidation_id: i64,
    pub notice_date: NaiveDate,
    pub deadline: NaiveDate,
    pub supersedes_id: Option<i64>,
    pub created_at: String,
    pub created_by: String,
}

/// `MULTA-2025-0007`.
pub fn format_number(year: i32, seq: i64) -> String {
    format!("MULTA-{year}-{seq:04}")
}

/// Stores a notice with the next number of its program's sequence for the notice's year.
pub fn insert(
    tx: &mut Tx<'_>,
    program_id: i64,
    breach_id: i64,
    liquidation_id: i64,
    notice_date: NaiveDate,
    deadline: NaiveDate,
    supersedes_id: Option<i64>,
) -> Result<i64> {
    let year = notice_date.year();
    let seq: i64 = tx.conn().query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM notices WHERE program_id = ?1 AND year = ?2",
        params![program_id, year],
        |r| r.get(0),
    )?;
    tx.insert(
        "notices",
        "notice.issue",
        &[
            ("program_id", &program_id),
            ("year", &i64::from(year)),
            ("seq", &seq),
            ("number", &format_number(year, seq)),
            ("breach_id", &breach_id),
            ("liquidation_id", &liquidation_id),
            ("notice_date", &notice_date.to_string()),
            ("deadline", &deadline.to_string()),
            ("supersedes_id", &supersedes_id),
        ],
    )
}

const SELECT: &str = "SELECT id, program_id, number, breach_id, liquidation_id, notice_date, deadline, supersedes_id,
    created_at, created_by FROM notices";

impl Notice {
    /// A row of [`SELECT`].
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Notice> {
        let c = Cols::new(r, "notices");
        Ok(Notice {
            id: c.get(0)?,
            program_id: c.get(1)?,
            number: c.get(2)?,
            breach_id: c.get(3)?,
            liquidation_id: c.get(4)?,
            notice_date: c.date(5)?,
            deadline: c.date(6)?,
            supersedes_id: c.get(7)?,
            created_at: c.get(8)?,
            created_by: c.get(9)?,
        })
    }
}

pub fn get(conn: &Connection, id: i64) -> Result<Notice> {
    conn.query_row(
        &format!("{SELECT} WHERE id = ?1"),
        params![id],
        Notice::from_row,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "notice",
        id: id.to_string(),
    })
}

/// The notice with this number in this program.
pub fn by_number(conn: &Connection, program_id: i64, number: &str) -> Result<Notice> {
    conn.query_row(
        &format!("{SELECT} WHERE program_id = ?1 AND number = ?2"),
        params![program_id, number],
        Notice::from_row,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "notice",
        id: number.to_string(),
    })
}

/// Notices, optionally of one breach, in id order.
pub fn list(conn: &Connection, breach_id: Option<i64>) -> Result<Vec<Notice>> {
    let mut stmt = conn.prepare(&format!(
        "{SELECT} WHERE {} ORDER BY id",
        super::filter(breach_id.is_some(), "breach_id", 1)
    ))?;
    let rows = stmt.query_map(params![breach_id], Notice::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The latest notice of a breach (the one in force), if any.
pub fn latest_for_breach(conn: &Connection, breach_id: i64) -> Result<Option<Notice>> {
    Ok(list(conn, Some(breach_id))?.pop())
}
