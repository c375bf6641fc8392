//! Payments against a breach's fine: what a payment may be when it is recorded, and when one
//! recorded by mistake may be voided. The breach and its payments are read inside the caller's
//! write transaction, so a void or a payment recorded meanwhile cannot be missed.

use super::{Field, Refusal, Result};
use crate::lang::{fecha, momento};
use crate::money::format_cop;
use crate::said;
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
            said!(register_fines::payment_must_greater_than_zero),
        )
        .into());
    }
    if p.paid_on > p.today {
        let (today, today_es) = (p.today, fecha(p.today));
        return Err(Refusal::value(
            Field::PaymentDate,
            p.paid_on,
            said!(
                register_fines::after_today_record_payment_once_has,
                today,
                today_es
            ),
        )
        .into());
    }
    let b = breaches::get(tx.conn(), p.breach_id)?;
    if let Some(v) = &b.void {
        let why = &v.reason;
        return Err(Refusal::value(
            Field::Breach,
            p.breach_id,
            said!(register_fines::breach_was_voided_has_no_fine, why),
        )
        .into());
    }
    // a paz y salvo certifies the fine paid: a sum received after it is not a payment of the fine
    // (it is returned to whoever paid it), and a payment counted now would contradict the
    // certificate given to the holder
    if let Some(paz) = crate::store::settlements::for_breach(tx.conn(), p.breach_id)? {
        let (number, on, on_es, breach) = (
            &paz.number,
            paz.settlement_date,
            fecha(paz.settlement_date),
            p.breach_id,
        );
        return Err(Refusal::value(
            Field::Breach,
            breach,
            said!(
                register_fines::has_paz_y_salvo_which_certifies,
                number,
                on,
                on_es
            ),
        )
        .into());
    }
    if p.paid_on < b.breach_date {
        let (breach_date, breach_es) = (b.breach_date, fecha(b.breach_date));
        return Err(Refusal::value(
            Field::PaymentDate,
            p.paid_on,
            said!(
                register_fines::before_breach_payments_against_fine_come,
                breach_date,
                breach_es
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
        let (id, amount, on, by, at) = (
            same.id,
            format_cop(same.amount),
            same.paid_on,
            &same.created_by,
            &same.created_at,
        );
        let (on_es, at_es) = (fecha(on), momento(at));
        let reference = same.reference.as_deref().unwrap_or("none");
        let referencia = same.reference.as_deref().unwrap_or("ninguna");
        let breach = p.breach_id;
        return Err(Refusal::Repeat {
            reason: said!(
                register_fines::payment_with_same_reference_already_recorded,
                id,
                amount,
                on,
                reference,
                breach,
                by,
                at,
                on_es,
                referencia,
                at_es
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
    void_checked(tx, None, payment_id, reason)
}

/// Voids a payment as [`void`] does, named as a payment of breach `breach_id` (a breach's page
/// voids its own payments): refused when it is another breach's.
pub fn void_of_breach(
    tx: &mut Tx<'_>,
    breach_id: i64,
    payment_id: i64,
    reason: &str,
) -> Result<i64> {
    void_checked(tx, Some(breach_id), payment_id, reason)
}

fn void_checked(
    tx: &mut Tx<'_>,
    breach_id: Option<i64>,
    payment_id: i64,
    reason: &str,
) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(Refusal::value(
            Field::VoidReason,
            reason,
            said!(register_fines::say_why_payment_voided),
        )
        .into());
    }
    let p = breaches::payment(tx.conn(), payment_id)?;
    if let Some(named) = breach_id
        && p.breach_id != named
    {
        let of = p.breach_id;
        return Err(Refusal::value(
            Field::Payment,
            payment_id,
            said!(register_fines::belongs_breach_not_breach, of, named),
        )
        .into());
    }
    if let Some(v) = &p.void {
        return Err(
            Refusal::value(Field::Payment, payment_id, super::already_voided(v, false)).into(),
        );
    }
    // a paz y salvo certified the fine paid with this payment: voiding it would leave a debt the
    // certificate given to the holder says is settled (it cannot be taken back)
    // (a payment recorded after the certificate, which older versions accepted, is not one of
    // those it counts: it may be voided)
    if let Some(paz) = crate::store::settlements::for_breach(tx.conn(), p.breach_id)?
        && p.created_at.as_str() <= paz.created_at.as_str()
    {
        let (number, on, on_es, breach) = (
            &paz.number,
            paz.settlement_date,
            fecha(paz.settlement_date),
            p.breach_id,
        );
        return Err(Refusal::value(
            Field::Payment,
            payment_id,
            said!(
                register_fines::breach_has_paz_y_salvo_which,
                breach,
                number,
                on,
                on_es
            ),
        )
        .into());
    }
    Ok(breaches::void_payment(tx, payment_id, reason)?)
}
