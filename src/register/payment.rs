//! Payments against a breach's fine: what a payment may be when it is recorded. The breach is read
//! inside the caller's write transaction, so a void recorded meanwhile cannot be missed.

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
}

/// Records a payment against a breach's fine: a positive amount, for a breach that is not void,
/// dated on or after the breach.
pub fn record(tx: &mut Tx<'_>, p: &NewPayment<'_>) -> Result<i64> {
    if p.amount <= Decimal::ZERO {
        return Err(Refusal::value(
            Field::PaymentAmount,
            p.amount,
            "a payment must be greater than zero",
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
    Ok(breaches::record_payment(
        tx,
        p.breach_id,
        p.paid_on,
        p.amount,
        p.reference,
    )?)
}
