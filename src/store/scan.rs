//! Streaming reads for the batch check: one pass over the adjudications (with the pledge in force
//! and the breached shares of each) and one over the breaches (with their latest liquidation and
//! notice). Rows go to a callback as they are read; nothing is collected here.

use super::{Result, date};
use chrono::NaiveDate;
use rusqlite::{Connection, params};

/// One adjudication as the check sees it on the as-of date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjudicationRow {
    pub id: i64,
    pub program_id: i64,
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
    pub shares: u64,
    pub adjudicated_on: NaiveDate,
    pub financed: bool,
    /// The pledge in force on the as-of date: (id, rank).
    pub pledge: Option<(i64, u8)>,
    /// Shares of non-void breaches dated on or before the as-of date.
    pub breached_shares: u64,
}

/// Calls `f` for every adjudication (of one program, or all) adjudicated on or before `as_of`,
/// in id order.
pub fn adjudications(
    conn: &Connection,
    program_id: Option<i64>,
    as_of: NaiveDate,
    mut f: impl FnMut(AdjudicationRow) -> Result<()>,
) -> Result<()> {
    let as_of_s = as_of.to_string();
    let mut stmt = conn.prepare(
        "SELECT a.id, a.program_id, h.doc_type, h.doc_number, h.name, a.shares, a.adjudicated_on,
                (a.lender IS NOT NULL OR a.financed_shares > 0),
                (SELECT p.id FROM pledges p
                   WHERE p.adjudication_id = a.id AND p.registered_on <= ?2
                     AND NOT EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id AND r.released_on <= ?2)
                   ORDER BY p.id DESC LIMIT 1) AS pledge_id,
                (SELECT p.rank FROM pledges p
                   WHERE p.adjudication_id = a.id AND p.registered_on <= ?2
                     AND NOT EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id AND r.released_on <= ?2)
                   ORDER BY p.id DESC LIMIT 1) AS pledge_rank,
                (SELECT coalesce(sum(b.shares), 0) FROM breaches b
                   WHERE b.adjudication_id = a.id AND b.breach_date <= ?2
                     AND NOT EXISTS (SELECT 1 FROM breach_voids v WHERE v.breach_id = b.id))
         FROM adjudications a JOIN holders h ON h.id = a.holder_id
         WHERE (?1 IS NULL OR a.program_id = ?1) AND a.adjudicated_on <= ?2
         ORDER BY a.id",
    )?;
    let mut rows = stmt.query(params![program_id, as_of_s])?;
    while let Some(r) = rows.next()? {
        let pledge_id: Option<i64> = r.get(8)?;
        let pledge_rank: Option<i64> = r.get(9)?;
        let pledge = pledge_id
            .zip(pledge_rank)
            .map(|(id, rank)| (id, rank as u8));
        let on: String = r.get(6)?;
        f(AdjudicationRow {
            id: r.get(0)?,
            program_id: r.get(1)?,
            doc_type: r.get(2)?,
            doc_number: r.get(3)?,
            name: r.get(4)?,
            shares: r.get::<_, i64>(5)? as u64,
            adjudicated_on: date(&on, "adjudicated_on")?,
            financed: r.get(7)?,
            pledge,
            breached_shares: r.get::<_, i64>(10)? as u64,
        })?;
    }
    Ok(())
}

/// One non-void breach with what has been done about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreachRow {
    pub id: i64,
    pub adjudication_id: i64,
    pub program_id: i64,
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
    pub breach_date: NaiveDate,
    pub adjudicated_on: NaiveDate,
    /// Some payment against the fine is recorded on or before the as-of date.
    pub has_payments: bool,
    /// The latest liquidation: (id, provisional).
    pub latest_liquidation: Option<(i64, bool)>,
    /// The latest notice: (number, deadline).
    pub latest_notice: Option<(String, NaiveDate)>,
    /// The program has recorded its stage price (or that there is none).
    pub stage_recorded: bool,
}

/// Calls `f` for every non-void breach dated on or before `as_of`, in id order.
pub fn breaches(
    conn: &Connection,
    program_id: Option<i64>,
    as_of: NaiveDate,
    mut f: impl FnMut(BreachRow) -> Result<()>,
) -> Result<()> {
    let as_of_s = as_of.to_string();
    let mut stmt = conn.prepare(
        "SELECT b.id, b.adjudication_id, a.program_id, h.doc_type, h.doc_number, h.name, b.breach_date,
                (SELECT l.id FROM liquidations l WHERE l.breach_id = b.id ORDER BY l.id DESC LIMIT 1),
                (SELECT l.provisional FROM liquidations l WHERE l.breach_id = b.id ORDER BY l.id DESC LIMIT 1),
                (SELECT n.number FROM notices n WHERE n.breach_id = b.id ORDER BY n.id DESC LIMIT 1),
                (SELECT n.deadline FROM notices n WHERE n.breach_id = b.id ORDER BY n.id DESC LIMIT 1),
                EXISTS (SELECT 1 FROM stage_prices s WHERE s.program_id = a.program_id),
                a.adjudicated_on,
                EXISTS (SELECT 1 FROM payments y WHERE y.breach_id = b.id AND y.paid_on <= ?2)
         FROM breaches b JOIN adjudications a ON a.id = b.adjudication_id JOIN holders h ON h.id = a.holder_id
         WHERE (?1 IS NULL OR a.program_id = ?1) AND b.breach_date <= ?2
           AND NOT EXISTS (SELECT 1 FROM breach_voids v WHERE v.breach_id = b.id)
         ORDER BY b.id",
    )?;
    let mut rows = stmt.query(params![program_id, as_of_s])?;
    while let Some(r) = rows.next()? {
        let on: String = r.get(6)?;
        let liq: Option<i64> = r.get(7)?;
        let provisional: Option<bool> = r.get(8)?;
        let number: Option<String> = r.get(9)?;
        let deadline: Option<String> = r.get(10)?;
        f(BreachRow {
            id: r.get(0)?,
            adjudication_id: r.get(1)?,
            program_id: r.get(2)?,
            doc_type: r.get(3)?,
            doc_number: r.get(4)?,
            name: r.get(5)?,
            breach_date: date(&on, "breach_date")?,
            latest_liquidation: liq.map(|id| (id, provisional.unwrap_or(false))),
            latest_notice: match (number, deadline) {
                (Some(n), Some(d)) => Some((n, date(&d, "deadline")?)),
                _ => None,
            },
            stage_recorded: r.get(11)?,
            adjudicated_on: date(&r.get::<_, String>(12)?, "adjudicated_on")?,
            has_payments: r.get(13)?,
        })?;
    }
    Ok(())
}
