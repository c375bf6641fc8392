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

/// A void recorded since a stored liquidation that changes its figures: a payment it applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superseded {
    pub payment_id: i64,
    pub void: breaches::Void,
}

impl std::fmt::Display for Superseded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "superseded: payment {} voided on {} by {}: {}",
            self.payment_id, self.void.at, self.void.by, self.void.reason
        )
    }
}

/// The voids that change a stored liquidation's figures (and the notices that present it): the
/// payments it applied that have been voided since. The stored liquidation keeps its figures; a
/// new notice presents the register as it is now.
pub fn superseded(
    conn: &Connection,
    liquidation: &breaches::StoredLiquidation,
) -> Result<Vec<Superseded>> {
    let inputs = crate::liquidation::LiquidationInputs::from_json(&liquidation.inputs_json)
        .map_err(|e| {
            crate::store::StoreError::Corrupt(format!("liquidation {} inputs: {e}", liquidation.id))
        })?;
    let mut out = Vec::new();
    for p in &inputs.payments {
        if let Some(void) = breaches::payment(conn, p.id)?.void {
            out.push(Superseded {
                payment_id: p.id,
                void,
            });
        }
    }
    Ok(out)
}
