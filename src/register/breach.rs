//! Breaches of the lock-up (Art. 8 / Art. 9): what a breach may be when it is recorded, and when
//! one may be voided. Every rule reads the register inside the caller's write transaction.

use super::{Field, Refusal, Result};
use crate::calendar::Placement;
use crate::store::Tx;
use crate::store::adjudications::Adjudication;
use crate::store::breaches::{self, NewBreach};
use crate::store::programs;
use rusqlite::Connection;
use rust_decimal::Decimal;

/// Shares of an adjudication not yet covered by a (non-void) breach.
pub fn unbreached_shares(conn: &Connection, adjudication: &Adjudication) -> Result<u64> {
    let mut breached: u64 = 0;
    for b in breaches::list(conn, Some(adjudication.id), None)?
        .iter()
        .filter(|b| b.void.is_none())
    {
        breached = breached.checked_add(b.shares).ok_or_else(|| {
            Refusal::Rule(format!(
                "the breaches recorded on adjudication {} add up to more shares than can be counted",
                adjudication.id
            ))
        })?;
    }
    Ok(adjudication.shares.saturating_sub(breached))
}

/// Records a breach after checking it against the adjudication and the program.
pub fn record(tx: &mut Tx<'_>, b: &NewBreach<'_>) -> Result<i64> {
    let adj = super::adjudication::live(tx.conn(), b.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    if !program.program.breach_kinds.contains(&b.kind) {
        let kinds: Vec<&str> = program
            .program
            .breach_kinds
            .iter()
            .map(|k| k.as_str())
            .collect();
        return Err(Refusal::value(
            Field::BreachKind,
            b.kind.as_str(),
            format!(
                "program {} does not list that breach kind; it lists {}",
                program.program.code,
                kinds.join(", ")
            ),
        )
        .into());
    }
    let scale = program.scale()?;
    match scale.place(adj.adjudicated_on, b.breach_date) {
        None => {
            return Err(Refusal::value(
                Field::BreachDate,
                b.breach_date,
                format!(
                    "is before the adjudication on {}; a breach can only follow the adjudication",
                    adj.adjudicated_on
                ),
            )
            .into());
        }
        Some(Placement::AfterLockup { lockup_end }) => {
            return Err(Refusal::value(
                Field::BreachDate,
                b.breach_date,
                format!(
                    "no fine applies: the lock-up of adjudication {} ended on {lockup_end} and the holder was free \
                     from {}; nothing was recorded",
                    adj.id,
                    lockup_end.succ_opt().unwrap_or(lockup_end)
                ),
            )
            .into());
        }
        Some(Placement::Inside(_)) => {}
    }
    let remaining = unbreached_shares(tx.conn(), &adj)?;
    if b.shares > remaining {
        return Err(Refusal::value(
            Field::Shares,
            b.shares,
            format!(
                "adjudication {} has {} shares of which {remaining} are not already covered by a recorded breach",
                adj.id, adj.shares
            ),
        )
        .into());
    }
    if b.consideration_per_share.is_some() && b.consideration_total.is_some() {
        return Err(Refusal::OneOf(Field::ConsiderationPerShare, Field::ConsiderationTotal).into());
    }
    for (field, v) in [
        (Field::ConsiderationPerShare, b.consideration_per_share),
        (Field::ConsiderationTotal, b.consideration_total),
    ] {
        if let Some(v) = v
            && v < Decimal::ZERO
        {
            return Err(Refusal::value(field, v, "must not be negative").into());
        }
    }
    if let Some(r) = b.registered_on
        && r < adj.adjudicated_on
    {
        return Err(Refusal::value(
            Field::RegisteredOn,
            r,
            format!("is before the adjudication on {}", adj.adjudicated_on),
        )
        .into());
    }
    Ok(breaches::record(tx, b)?)
}

/// Voids a breach recorded in error: it stays on record, marked void, with who, when and why.
/// Refused without a reason, and for a breach already voided.
pub fn void(tx: &mut Tx<'_>, breach_id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(
            Refusal::value(Field::VoidReason, reason, "say why the breach is voided").into(),
        );
    }
    let b = breaches::get(tx.conn(), breach_id)?;
    if let Some(v) = &b.void {
        return Err(Refusal::value(
            Field::Breach,
            breach_id,
            format!("already voided on {} by {} ({})", v.at, v.by, v.reason),
        )
        .into());
    }
    Ok(breaches::void(tx, breach_id, reason)?)
}
