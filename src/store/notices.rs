//! Fine notices: numbered per program and year, each pointing at its liquidation; a re-issue
//! names the notice it replaces. Also the files written of a notice or a paz y salvo
//! (renderings: format and SHA-256) and a notice's delivery.

use super::columns::Cols;
use super::{Result, StoreError, Tx};
use crate::contact::{DocFormat, Via};
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
        crate::store::Action::NoticeIssue,
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

/// The notices numbered `number`, in any program (a number is unique within its program).
pub fn with_number(conn: &Connection, number: &str) -> Result<Vec<Notice>> {
    let mut stmt = conn.prepare(&format!("{SELECT} WHERE number = ?1 ORDER BY id"))?;
    let rows = stmt.query_map(params![number], Notice::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The notice that replaced this one, if any.
pub fn superseded_by(conn: &Connection, id: i64) -> Result<Option<Notice>> {
    Ok(conn
        .query_row(
            &format!("{SELECT} WHERE supersedes_id = ?1 ORDER BY id LIMIT 1"),
            params![id],
            Notice::from_row,
        )
        .optional()?)
}

/// A document a rendering is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc {
    Notice(i64),
    Settlement(i64),
}

/// A file vigia wrote of a notice or a paz y salvo: its format and the SHA-256 of its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendering {
    pub id: i64,
    pub format: DocFormat,
    pub sha256: String,
    pub created_at: String,
    pub created_by: String,
}

/// Records a file written of `doc`.
pub fn insert_rendering(tx: &mut Tx<'_>, doc: Doc, format: DocFormat, sha256: &str) -> Result<i64> {
    let (notice, settlement) = match doc {
        Doc::Notice(id) => (Some(id), None),
        Doc::Settlement(id) => (None, Some(id)),
    };
    tx.insert(
        "renderings",
        crate::store::Action::DocumentRender,
        &[
            ("notice_id", &notice),
            ("settlement_id", &settlement),
            ("format", &format),
            ("sha256", &sha256),
        ],
    )
}

/// The files written of `doc`, in the order they were written.
pub fn renderings(conn: &Connection, doc: Doc) -> Result<Vec<Rendering>> {
    let (col, id) = match doc {
        Doc::Notice(id) => ("notice_id", id),
        Doc::Settlement(id) => ("settlement_id", id),
    };
    let mut stmt = conn.prepare(&format!(
        "SELECT id, format, sha256, created_at, created_by FROM renderings WHERE {col} = ?1 ORDER BY id"
    ))?;
    let rows = stmt.query_map(params![id], |r| {
        let c = Cols::new(r, "renderings");
        Ok(Rendering {
            id: c.get(0)?,
            format: c.get(1)?,
            sha256: c.get(2)?,
            created_at: c.get(3)?,
            created_by: c.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The delivery (*notificación*) of a notice to its holder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delivery {
    pub id: i64,
    pub notice_id: i64,
    pub delivered_on: NaiveDate,
    pub via: Via,
    pub evidence: Option<String>,
    pub created_at: String,
    pub created_by: String,
}

/// Records a notice's delivery (one per notice).
pub fn insert_delivery(
    tx: &mut Tx<'_>,
    notice_id: i64,
    on: NaiveDate,
    via: Via,
    evidence: Option<&str>,
) -> Result<i64> {
    tx.insert(
        "notice_deliveries",
        crate::store::Action::NoticeDelivered,
        &[
            ("notice_id", &notice_id),
            ("delivered_on", &on.to_string()),
            ("via", &via),
            ("evidence", &evidence),
        ],
    )
}

const SELECT_DELIVERY: &str = "SELECT id, notice_id, delivered_on, via, evidence, created_at, created_by FROM notice_deliveries";

fn delivery_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Delivery> {
    let c = Cols::new(r, "notice_deliveries");
    Ok(Delivery {
        id: c.get(0)?,
        notice_id: c.get(1)?,
        delivered_on: c.date(2)?,
        via: c.get(3)?,
        evidence: c.get(4)?,
        created_at: c.get(5)?,
        created_by: c.get(6)?,
    })
}

/// The delivery of a notice, if one is recorded.
pub fn delivery(conn: &Connection, notice_id: i64) -> Result<Option<Delivery>> {
    Ok(conn
        .query_row(
            &format!("{SELECT_DELIVERY} WHERE notice_id = ?1"),
            params![notice_id],
            delivery_row,
        )
        .optional()?)
}

/// Every delivery, by notice id (for the check, which reads the small tables once).
pub fn deliveries(conn: &Connection) -> Result<Vec<Delivery>> {
    let mut stmt = conn.prepare(&format!("{SELECT_DELIVERY} ORDER BY id"))?;
    let rows = stmt.query_map([], delivery_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
