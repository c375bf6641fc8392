//! A stored notice's or paz y salvo's content gathered from the register: the liquidation
//! recomputed from its own stored inputs, the holder's contact in force on its date, the
//! letterhead it recorded, the pledges, the sellers' split ([`crate::notice`] holds what the
//! documents show and how their figures are derived; this gathers it).

use crate::fine::Outcome;
use crate::liquidation::LiquidationInputs;

use crate::notice::{NoticeData, SettlementData, per_day, split_largest_remainder};
use crate::register::{self, Error, Result};
use crate::store::StoreError;
use crate::store::adjudications;
use crate::store::breaches;
use crate::store::contacts::{self, Contact};
use crate::store::letterheads;
use crate::store::notices::{self, Notice};
use crate::store::pledges::{self, Pledge};
use crate::store::programs;
use chrono::NaiveDate;
use rusqlite::Connection;

/// A stored document's text version: its layout, the letterhead it shows, the day it was issued
/// and why it is dated earlier (for a document of layout 1: its own date, no reason).
fn text_of(
    conn: &Connection,
    doc: notices::Doc,
    date: NaiveDate,
    file_issuer: &crate::program::Issuer,
) -> Result<(u8, crate::program::Issuer, NaiveDate, Option<String>)> {
    Ok(match letterheads::text_of(conn, doc)? {
        Some(t) => (
            t.layout,
            letterheads::get(conn, t.letterhead_id)?.issuer,
            t.issued_on,
            t.backdate_reason,
        ),
        None => (1, file_issuer.clone(), date, None),
    })
}

fn corrupt(m: String) -> Error {
    Error::Store(StoreError::Corrupt(m))
}

/// Gathers a stored notice's content. The liquidation is recomputed from its own stored inputs,
/// so the document does not change when the register's rates or facts change later.
pub fn gather(conn: &Connection, notice: &Notice) -> Result<NoticeData> {
    let liq = breaches::liquidations(conn, Some(notice.breach_id))?
        .into_iter()
        .find(|l| l.id == notice.liquidation_id)
        .ok_or_else(|| {
            corrupt(format!(
                "notice {} points at a missing liquidation",
                notice.number
            ))
        })?;
    let liquidation = match register::liquidation::recompute(&liq.inputs_json)? {
        Outcome::Liquidated(l) => *l,
        Outcome::NotApplicable(_) => {
            return Err(corrupt(format!("liquidation {} applies no fine", liq.id)));
        }
    };
    let inputs = LiquidationInputs::from_json(&liq.inputs_json)
        .map_err(|e| corrupt(format!("liquidation {} inputs: {e}", liq.id)))?;
    let breach = breaches::get(conn, notice.breach_id)?;
    let adj = adjudications::get(conn, breach.adjudication_id)?;
    let program = programs::by_id(conn, adj.program_id)?;
    // the pledges as the register held them when the notice was recorded
    let seq =
        crate::store::audit::head_at(conn, "notices", notice.id)?.map_or(i64::MAX, |h| h.count);
    let all_pledges = pledges::list_as_of(conn, adj.id, &notice.created_at, seq)?;
    let pledge = pledge_on(&all_pledges, notice.notice_date);
    let in_force = in_force_on(&all_pledges, notice.notice_date);
    let supersedes = match notice.supersedes_id {
        Some(id) => {
            let n = notices::get(conn, id)?;
            Some((n.number, n.notice_date))
        }
        None => None,
    };
    let p = &program.program;
    let chain = crate::store::audit::head_at(conn, "notices", notice.id)?;
    let contact = contact_at(conn, adj.holder.id, chain.as_ref())?;
    let (layout, issuer, issued_on, backdate_reason) = text_of(
        conn,
        notices::Doc::Notice(notice.id),
        notice.notice_date,
        &p.letters.issuer,
    )?;
    let mut letters = p.letters.clone();
    letters.issuer = issuer;
    let declaration = match adj.holder.person_type {
        crate::import::PersonType::Natural => p.letters.declaration_natural.clone(),
        crate::import::PersonType::Legal => p.letters.declaration_legal.clone(),
    };
    let weights: Vec<u64> = p.sellers.iter().map(|s| s.shares).collect();
    let amounts = split_largest_remainder(liquidation.total_due, &weights);
    let split = p
        .sellers
        .iter()
        .zip(amounts)
        .map(|(s, a)| (s.name.clone(), s.shares, a))
        .collect();
    Ok(NoticeData {
        layout,
        number: notice.number.clone(),
        notice_date: notice.notice_date,
        issued_on,
        backdate_reason,
        declaration,
        deadline: notice.deadline,
        term_business_days: p.payment_term_business_days,
        supersedes,
        program_code: p.code.clone(),
        decree: p.decree.clone(),
        fine_article: p.fine_article.clone(),
        pledge_article: p.pledge_article.clone(),
        issuer: p.issuer.clone(),
        sellers: p.sellers.clone(),
        holder_name: adj.holder.name.clone(),
        doc_type: adj.holder.doc_type.to_string(),
        doc_number: adj.holder.doc_number.clone(),
        category: adj.category.clone(),
        adjudication_id: adj.id,
        adjudicated_on: adj.adjudicated_on,
        adjudicated_shares: adj.shares,
        adjudication_price: adj.price_per_share,
        pledge,
        pledges: in_force,
        breach,
        liquidation_id: liq.id,
        fingerprint: liq.sha256,
        chain,
        per_day: per_day(&liquidation, inputs.day_after.as_ref()),
        stage_prices: inputs.prices.stages,
        liquidation,
        split,
        reference: letters.issuer.reference_for(
            &notice.number,
            &adj.holder.doc_number,
            notice.breach_id,
        ),
        letters,
        contact,
    })
}

/// The holder's contact details in force at a document's audit event (the latest now, when the
/// document has none).
fn contact_at(
    conn: &Connection,
    holder_id: i64,
    chain: Option<&crate::store::audit::Head>,
) -> Result<Option<Contact>> {
    Ok(match chain {
        Some(h) => contacts::at_event(conn, holder_id, h.count)?,
        None => contacts::current(conn, holder_id)?,
    }
    .filter(|c| !c.is_empty()))
}

/// The pledge in force on `on`, or the latest one.
/// Every pledge in force on `on` (not void, registered by then, not yet released), in the order
/// registered: an adjudication split between degrees has several (Art. 10).
fn in_force_on(pledges: &[Pledge], on: NaiveDate) -> Vec<Pledge> {
    pledges
        .iter()
        .filter(|p| {
            p.void.is_none() && p.registered_on <= on && p.released_on.is_none_or(|r| r > on)
        })
        .cloned()
        .collect()
}

fn pledge_on(pledges: &[Pledge], on: NaiveDate) -> Option<Pledge> {
    let live: Vec<&Pledge> = pledges.iter().filter(|p| p.void.is_none()).collect();
    live.iter()
        .rev()
        .find(|p| p.registered_on <= on && p.released_on.is_none_or(|r| r > on))
        .or(live.last())
        .map(|p| (*p).clone())
}

/// Gathers a stored paz y salvo's content; the liquidation is recomputed from its stored inputs.
pub fn gather_settlement(
    conn: &Connection,
    s: &crate::store::settlements::Settlement,
) -> Result<SettlementData> {
    let liq = breaches::liquidations(conn, Some(s.breach_id))?
        .into_iter()
        .find(|l| l.id == s.liquidation_id)
        .ok_or_else(|| {
            corrupt(format!(
                "paz y salvo {} points at a missing liquidation",
                s.number
            ))
        })?;
    let liquidation = match register::liquidation::recompute(&liq.inputs_json)? {
        Outcome::Liquidated(l) => *l,
        Outcome::NotApplicable(_) => {
            return Err(corrupt(format!("liquidation {} applies no fine", liq.id)));
        }
    };
    let breach = breaches::get(conn, s.breach_id)?;
    let adj = adjudications::get(conn, breach.adjudication_id)?;
    let program = programs::by_id(conn, adj.program_id)?;
    let p = &program.program;
    let chain = crate::store::audit::head_at(conn, "settlements", s.id)?;
    let contact = contact_at(conn, adj.holder.id, chain.as_ref())?;
    let notice = notices::latest_for_breach(conn, s.breach_id)?.map(|n| (n.number, n.notice_date));
    let (layout, issuer, _, _) = text_of(
        conn,
        notices::Doc::Settlement(s.id),
        s.settlement_date,
        &p.letters.issuer,
    )?;
    let mut letters = p.letters.clone();
    letters.issuer = issuer;
    // the pledges as the register held them when the certificate was recorded
    let held = pledges::list_as_of(
        conn,
        adj.id,
        &s.created_at,
        crate::store::audit::head_at(conn, "settlements", s.id)?.map_or(i64::MAX, |h| h.count),
    )?;
    Ok(SettlementData {
        layout,
        number: s.number.clone(),
        date: s.settlement_date,
        program_code: p.code.clone(),
        decree: p.decree.clone(),
        fine_article: p.fine_article.clone(),
        pledge_article: p.pledge_article.clone(),
        sellers: p.sellers.clone(),
        letters,
        holder_name: adj.holder.name.clone(),
        doc_type: adj.holder.doc_type.to_string(),
        doc_number: adj.holder.doc_number.clone(),
        contact,
        adjudication_id: adj.id,
        adjudicated_on: adj.adjudicated_on,
        breach,
        notice,
        pledge: pledge_on(&held, s.settlement_date),
        pledges: in_force_on(&held, s.settlement_date),
        liquidation_id: liq.id,
        fingerprint: liq.sha256,
        chain,
        liquidation,
    })
}
