//! Paz y salvo certificates of settled fines: numbered per program and year of their date
//! (`PAZ-2025-0001`), one per breach, each pointing at the liquidation that shows the fine paid.

use super::columns::Cols;
use super::{Result, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settlement {
    pub id: i64,
    pub program_id: i64,
    pub number: String,
    pub breach_id: i64,
    pub liquidation_id: i64,
    pub settlement_date: NaiveDate,
    pub created_at: String,
    pub created_by: String,
}

/// `PAZ-2025-0001`.
pub fn format_number(year: i32, seq: i64) -> String {
    format!("PAZ-{year}-{seq:04}")
}

/// Stores a paz y salvo with the next number of its program's sequence for its year.
pub fn insert(
    tx: &mut Tx<'_>,
    program_id: i64,
    breach_id: i64,
    liquidation_id: i64,
    date: NaiveDate,
) -> Result<i64> {
    let year = date.year();
    let seq: i64 = tx.conn().query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM settlements WHERE program_id = ?1 AND year = ?2",
        params![program_id, year],
        |r| r.get(0),
    )?;
    tx.insert(
        "settlements",
        crate::store::Action::SettlementIssue,
        &[
            ("program_id", &program_id),
            ("year", &i64::from(year)),
            ("seq", &seq),
            ("number", &format_number(year, seq)),
            ("breach_id", &breach_id),
            ("liquidation_id", &liquidation_id),
            ("settlement_date", &date.to_string()),
        ],
    )
}

const SELECT: &str = "SELECT id, program_id, number, breach_id, liquidation_id, settlement_date,
    created_at, created_by FROM settlements";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Settlement> {
    let c = Cols::new(r, "settlements");
    Ok(Settlement {
        id: c.get(0)?,
        program_id: c.get(1)?,
        number: c.get(2)?,
        breach_id: c.get(3)?,
        liquidation_id: c.get(4)?,
        settlement_date: c.date(5)?,
        created_at: c.get(6)?,
        created_by: c.get(7)?,
    })
}

pub fn get(conn: &Connection, id: i64) -> Result<Settlement> {
    conn.query_row(&format!("{SELECT} WHERE id = ?1"), params![id], from_row)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "paz y salvo",
            id: id.to_string(),
        })
}

/// The paz y salvo of a breach, if one was issued.
pub fn for_breach(conn: &Connection, breach_id: i64) -> Result<Option<Settlement>> {
    Ok(conn
        .query_row(
            &format!("{SELECT} WHERE breach_id = ?1"),
            params![breach_id],
            from_row,
        )
        .optional()?)
}

/// The certificates numbered `number`, in any program.
pub fn with_number(conn: &Connection, number: &str) -> Result<Vec<Settlement>> {
    let mut stmt = conn.prepare(&format!("{SELECT} WHERE number = ?1 ORDER BY id"))?;
    let rows = stmt.query_map(params![number], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every certificate, in id order.
pub fn list(conn: &Connection) -> Result<Vec<Settlement>> {
    let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
