//! Fine notices: issuing one (the liquidation it presents, the next number of the program's
//! sequence, the payment deadline in business days, the notice it replaces) and which breaches
//! still await one. Inside the caller's write transaction; rendering is `report`'s.

use super::Result;
use crate::holidays::add_business_days;
use crate::notice::{self, NoticeData};
use crate::rates::RateSeries;
use crate::store::{Tx, adjudications, breaches, notices, programs};
use chrono::NaiveDate;
use rusqlite::Connection;

/// A notice just stored, with everything its document shows.
#[derive(Debug, Clone)]
pub struct Issued {
    pub notice: notices::Notice,
    pub data: NoticeData,
}

/// Issues a notice for a breach: liquidates it as of `until` (or reuses the same liquidation),
/// numbers it in its program's sequence for the year of `date`, sets the deadline the program's
/// payment term after `date` in business days, and cites the notice it replaces, if any.
pub fn issue(
    tx: &mut Tx<'_>,
    breach_id: i64,
    until: NaiveDate,
    date: NaiveDate,
    rates: &RateSeries,
) -> Result<Issued> {
    let breach = breaches::get(tx.conn(), breach_id)?;
    let adj = adjudications::get(tx.conn(), breach.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let (liquidation_id, _) = super::liquidation::liquidation_for(tx, breach_id, until, rates)?;
    let previous = notices::latest_for_breach(tx.conn(), breach_id)?;
    let term = program.program.payment_term_business_days;
    let deadline = add_business_days(date, term).ok_or_else(|| {
        crate::store::StoreError::Corrupt(format!(
            "program {}: a payment term of {term} business days from {date} runs past the calendar; register a corrected program",
            program.program.code
        ))
    })?;
    let id = notices::insert(
        tx,
        program.id,
        breach_id,
        liquidation_id,
        date,
        deadline,
        previous.map(|n| n.id),
    )?;
    let stored = notices::get(tx.conn(), id)?;
    let data = notice::gather(tx.conn(), &stored)?;
    Ok(Issued {
        notice: stored,
        data,
    })
}

/// The breaches (not void) that have no notice yet, in id order.
pub fn pending(conn: &Connection) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    for b in breaches::list(conn, None, None)? {
        if b.void.is_none() && notices::latest_for_breach(conn, b.id)?.is_none() {
            out.push(b.id);
        }
    }
    Ok(out)
}
