//! Payments against a breach's fine: what a payment may be when it is recorded, and when one
//! recorded by mistake may be voided. The breach and its payments are read inside the caller's
//! write transaction, so a void or a payment recorded meanwhile cannot be missed.

use super::{Field, Refusal, Result};
use crate::store::Tx;
use crate::store::breaches;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// What a new payment says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPayment<'a> {
    pub breach_id: i64,
    pub paid_on: NaiveDate,
    pub amount: Decimal,
    /// Bank reference, receipt number.
    pub reference: Option<&'a str>,
    /// Today, as the front end knows it (the officer's local date): no payment is dated after it.
    pub today: NaiveDate,
    /// The officer confirms a payment exactly like one already recorded (two real payments of
    /// the same amount on the same day with the same reference).
    pub allow_duplicate: bool,
}

/// Records a payment against a breach's fine: a positive amount, for a breach that is not void,
/// dated on or after the breach and not after today; not exactly like a payment already
/// recorded (same breach, date, amount and reference) unless the officer says it is meant.
pub fn record(tx: &mut Tx<'_>, p: &NewPayment<'_>) -> Result<i64> {
    if p.amount <= Decimal::ZERO {
        return Err(Refusal::value(
            Field::PaymentAmount,
            p.amount,
            "a payment must be greater than zero",
        )
        .into());
    }
    if p.paid_on > p.today {
        return Err(Refusal::value(
            Field::PaymentDate,
            p.paid_on,
            format!(
                "is after today ({}); record a payment once it has been made, with the date it was made",
                p.today
            ),
        )
        .into());
    }
    let b = breaches::get(tx.conn(), p.breach_id)?;
    if let Some(v) = &b.void {
        return Err(Refusal::value(
            Field::Breach,
            p.breach_id,
            format!(
                "the breach was voided ({}); it has no fine to pay",
                v.reason
            ),
        )
        .into());
    }
    if p.paid_on < b.breach_date {
        return Err(Refusal::value(
            Field::PaymentDate,
            p.paid_on,
            format!(
                "is before the breach on {}; payments against the fine come after it",
                b.breach_date
            ),
        )
        .into());
    }
    if !p.allow_duplicate
        && let Some(same) = breaches::payments(tx.conn(), p.breach_id)?
            .into_iter()
            .find(|q| {
                q.paid_on == p.paid_on
                    && q.amount == p.amount
                    && q.reference.as_deref() == p.reference
            })
    {
        return Err(Refusal::Repeat {
            reason: format!(
                "payment {} of {} on {} with the same reference ({}) is already recorded against breach {} \
                 (by {} at {}); nothing was recorded: a payment entered twice would be counted twice",
                same.id,
                crate::money::format_cop(same.amount),
                same.paid_on,
                same.reference.as_deref().unwrap_or("none"),
                p.breach_id,
                same.created_by,
                same.created_at
            ),
            with: Field::AllowDuplicate,
        }
        .into());
    }
    Ok(breaches::record_payment(
        tx,
        p.breach_id,
        p.paid_on,
        p.amount,
        p.reference,
    )?)
}

/// Voids a payment recorded by mistake: it stays on record, marked void, with who, when and why,
/// and no figure counts it any more (the fine, the check, notices, pledge releases). Liquidations
/// and notices that used it keep their stored figures; `notice verify` says they were superseded
/// (see [`super::notice::superseded`]). Refused without a reason and for one already voided.
pub fn void(tx: &mut Tx<'_>, payment_id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(
            Refusal::value(Field::VoidReason, reason, "say why the payment is voided").into(),
        );
    }
    let p = breaches::payment(tx.conn(), payment_id)?;
    if let Some(v) = &p.void {
        return Err(Refusal::value(
            Field::Payment,
            payment_id,
            format!("already voided on {} by {} ({})", v.at, v.by, v.reason),
        )
        .into());
    }
    Ok(breaches::void_payment(tx, payment_id, reason)?)
}
