//! The *paz y salvo* of a settled fine: issued only when the payments recorded extinguish it
//! (nothing outstanding on the day of the last payment, from a final liquidation), numbered per
//! program and year (`PAZ-2025-0001`), one per breach. Inside the caller's write transaction;
//! rendering is `report`'s.

use super::{Act, Field, Refusal, Result};
use crate::fine::{Outcome, StagePrice};
use crate::lang::{Said, Shown, fecha, momento};
use crate::money::format_cop;
use crate::notice::{self, SettlementData};
use crate::rates::RateSeries;
use crate::said;
use crate::store::settlements::{self, Settlement};
use crate::store::{Tx, adjudications, breaches, programs};
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

/// A paz y salvo just stored, with everything its document shows.
#[derive(Debug, Clone)]
pub struct Issued {
    pub settlement: Settlement,
    pub data: SettlementData,
}

/// Issues the paz y salvo of a breach's fine, dated `date`: liquidates the fine as of the last
/// payment (or reuses that liquidation) and refuses unless it shows nothing outstanding.
pub fn issue(
    tx: &mut Tx<'_>,
    breach_id: i64,
    date: NaiveDate,
    today: NaiveDate,
    rates: &RateSeries,
) -> Result<Issued> {
    if date > today {
        let today_es = fecha(today);
        return Err(Refusal::value(
            Field::SettlementDate,
            date,
            said!(
                register_fines::after_today_paz_y_salvo_dated,
                today,
                today_es
            ),
        )
        .into());
    }
    let breach = breaches::get(tx.conn(), breach_id)?;
    let refuse =
        |reason: Said| -> super::Error { Refusal::value(Field::Breach, breach_id, reason).into() };
    if let Some(v) = &breach.void {
        let (at, why) = (&v.at, &v.reason);
        let at_es = momento(at);
        return Err(refuse(said!(
            register_fines::was_voided_has_no_fine,
            at,
            why,
            at_es
        )));
    }
    if let Some(s) = settlements::for_breach(tx.conn(), breach_id)? {
        let (number, on, on_es) = (&s.number, s.settlement_date, fecha(s.settlement_date));
        return Err(refuse(said!(
            register_fines::already_has_paz_y_salvo_render,
            number,
            on,
            on_es
        )));
    }
    let last = breaches::payments(tx.conn(), breach_id)?
        .into_iter()
        .filter(|p| p.void.is_none())
        .map(|p| p.paid_on)
        .max()
        .ok_or_else(|| refuse(said!(register_fines::no_payment_recorded_against_fine)))?;
    let last_es = fecha(last);
    if date < last {
        return Err(Refusal::value(
            Field::SettlementDate,
            date,
            said!(
                register_fines::before_last_payment_certificate_comes_after,
                last,
                last_es
            ),
        )
        .into());
    }
    let (liquidation_id, outcome) =
        super::liquidation::liquidation_for(tx, breach_id, last, rates)?;
    let adj = adjudications::get(tx.conn(), breach.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    match &outcome {
        // a price so far: the stage price is recorded and a later stage (the program's last) is
        // still pending, which its conclusion ends, or its final price recorded by hand
        Outcome::Liquidated(l) if l.provisional => {
            let (reason, stage) = match l.prices.stage {
                StagePrice::SoFar(p) => {
                    let price = format_cop(p);
                    let reason = said!(
                        register_fines::liquidation_provisional_later_stage_pending,
                        price
                    );
                    (reason, Some(program.program.later_stages.last))
                }
                _ => (
                    said!(register_fines::liquidation_provisional_later_stage_s_price),
                    None,
                ),
            };
            let program = program.program.code.clone();
            return Err(Refusal::Blocked {
                field: Field::Breach,
                value: breach_id.said(),
                reason,
                first: Box::new(Act::RecordStagePrice { program, stage }),
            }
            .into());
        }
        Outcome::Liquidated(l) if l.total_due > Decimal::ZERO => {
            let due = format_cop(l.total_due);
            return Err(refuse(said!(
                register_fines::still_outstanding_day_last_payment_paz,
                due,
                last,
                last_es
            )));
        }
        Outcome::Liquidated(_) => {}
        Outcome::NotApplicable(_) => {
            return Err(refuse(said!(register_fines::no_fine_applies)));
        }
    }
    let letterhead =
        super::letterhead::require(tx.conn(), &program, super::letterhead::For::Settlement)?;
    let id = settlements::insert(tx, program.id, breach_id, liquidation_id, date)?;
    crate::store::letterheads::insert_text(
        tx,
        crate::store::notices::Doc::Settlement(id),
        &crate::store::letterheads::DocText {
            layout: notice::LAYOUT,
            letterhead_id: letterhead.id,
            issued_on: today,
            backdate_reason: None,
        },
    )?;
    let settlement = settlements::get(tx.conn(), id)?;
    let data = crate::register::notice_data::gather_settlement(tx.conn(), &settlement)?;
    Ok(Issued { settlement, data })
}

/// The paz y salvo numbered `number`; `program` (a code) when the number is in several programs.
pub fn find(conn: &Connection, number: &str, program: Option<&str>) -> Result<Settlement> {
    let mut found = settlements::with_number(conn, number)?;
    if let Some(code) = program {
        let p = programs::by_code(conn, code)?;
        found.retain(|s| s.program_id == p.id);
    }
    match found.len() {
        0 => Err(Refusal::value(
            Field::Settlement,
            number,
            said!(register_fines::no_paz_y_salvo_has_this),
        )
        .into()),
        1 => Ok(found.remove(0)),
        n => Err(Refusal::Value {
            field: Field::Settlement,
            value: number.said(),
            reason: said!(register_fines::programs_have_paz_y_salvo_with, n),
            remedy: Some(Field::Program),
        }
        .into()),
    }
}

/// The data of a stored paz y salvo, to render it again.
pub fn render(conn: &Connection, number: &str, program: Option<&str>) -> Result<Issued> {
    let settlement = find(conn, number, program)?;
    let data = crate::register::notice_data::gather_settlement(conn, &settlement)?;
    Ok(Issued { settlement, data })
}

/// A fine paid in full: the day of the payment that left nothing outstanding, the payments (not
/// void) that paid it, and its paz y salvo when one was issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    pub on: NaiveDate,
    pub payments: Vec<breaches::StoredPayment>,
    pub settlement: Option<Settlement>,
}

/// Whether a breach's fine is paid in full, by the rule [`issue`] applies: a paz y salvo was
/// issued, or the payments recorded leave nothing outstanding on the day of the last one, from a
/// liquidation that is not provisional. `None` for a voided breach, a breach with no fine or no
/// payment, and a fine with a balance.
pub fn paid(conn: &Connection, breach_id: i64, rates: &RateSeries) -> Result<Option<Paid>> {
    if breaches::get(conn, breach_id)?.void.is_some() {
        return Ok(None);
    }
    let payments = breaches::payments(conn, breach_id)?;
    let Some(on) = payments.iter().map(|p| p.paid_on).max() else {
        return Ok(None);
    };
    let settlement = settlements::for_breach(conn, breach_id)?;
    if settlement.is_none() {
        let facts = super::liquidation::facts(conn, breach_id, on)?;
        let convention = super::liquidation::default_convention(&facts)?;
        match super::liquidation::price(&facts, on, convention, rates)? {
            Outcome::Liquidated(l) if !l.provisional && l.total_due <= Decimal::ZERO => {}
            _ => return Ok(None),
        }
    }
    Ok(Some(Paid {
        on,
        payments,
        settlement,
    }))
}
