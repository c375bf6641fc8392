//! A first stage concluded outside vigia, in SQLite (migration 0013): the one record a program may
//! have of an adjudication run elsewhere, and what the register's imported adjudications of the
//! program add up to (to check it against). No rule is decided here.

use super::columns::{Cols, Day, Shares};
use super::{Result, Tx};
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};

/// A first stage recorded as concluded outside vigia.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalFirstStage {
    pub id: i64,
    pub adjudicated_on: NaiveDate,
    pub offered: u64,
    pub awarded: u64,
    pub leftover: u64,
    /// The acta's reference (e.g. "Acta 014 de 2007 de la Junta Directiva").
    pub acta: String,
    pub created_at: String,
    pub created_by: String,
}

/// What to record.
#[derive(Debug, Clone, Copy)]
pub struct NewExternal<'a> {
    pub program_id: i64,
    pub adjudicated_on: NaiveDate,
    pub offered: u64,
    pub awarded: u64,
    pub acta: &'a str,
}

/// Records it (audited as `offer.record-external`).
pub fn insert(tx: &mut Tx<'_>, e: &NewExternal<'_>) -> Result<i64> {
    tx.insert(
        "external_first_stages",
        crate::store::Action::OfferRecordExternal,
        &[
            ("program_id", &e.program_id),
            ("adjudicated_on", &Day(e.adjudicated_on)),
            ("offered", &Shares(e.offered)),
            ("awarded", &Shares(e.awarded)),
            ("leftover", &Shares(e.offered - e.awarded.min(e.offered))),
            ("acta", &e.acta),
        ],
    )
}

/// The program's record, if any.
pub fn get(conn: &Connection, program_id: i64) -> Result<Option<ExternalFirstStage>> {
    Ok(conn
        .query_row(
            "SELECT id, adjudicated_on, offered, awarded, leftover, acta, created_at, created_by
             FROM external_first_stages WHERE program_id = ?1",
            params![program_id],
            |r| {
                let c = Cols::new(r, "external_first_stages");
                Ok(ExternalFirstStage {
                    id: c.get(0)?,
                    adjudicated_on: c.date(1)?,
                    offered: c.shares(2)?,
                    awarded: c.shares(3)?,
                    leftover: c.shares(4)?,
                    acta: c.get(5)?,
                    created_at: c.get(6)?,
                    created_by: c.get(7)?,
                })
            },
        )
        .optional()?)
}

/// The program's adjudications in force (not voided): how many, their shares, and their
/// adjudication dates (distinct, in order).
pub fn adjudicated(conn: &Connection, program_id: i64) -> Result<(u64, u64, Vec<NaiveDate>)> {
    let mut st = conn.prepare(
        "SELECT a.shares, a.adjudicated_on FROM adjudications a
         WHERE a.program_id = ?1
           AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)",
    )?;
    let mut rows = st.query(params![program_id])?;
    let (mut count, mut shares, mut days) = (0u64, 0u64, Vec::new());
    while let Some(r) = rows.next()? {
        let c = Cols::new(r, "adjudications");
        count += 1;
        shares = shares.saturating_add(c.shares(0)?);
        days.push(c.date(1)?);
    }
    days.sort_unstable();
    days.dedup();
    Ok((count, shares, days))
}
