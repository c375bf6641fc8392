//! Breaches of the lock-up (Art. 8 / Art. 9): what a breach may be when it is recorded, and when
//! one may be voided. Every rule reads the register inside the caller's write transaction.

use super::{Act, Field, Record, Refusal, Result};
use crate::calendar::Placement;
use crate::lang::Shown;
use crate::lang::{Said, fecha, numero};
use crate::money::format_cop;
use crate::said;
use crate::store::Tx;
use crate::store::adjudications::Adjudication;
use crate::store::breaches::{self, NewBreach};
use crate::store::{notices, programs, settlements};
use chrono::NaiveDate;
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
            let id = adjudication.id;
            Refusal::Rule(said!(
                register_fines::breaches_recorded_adjudication_add_up_more,
                id
            ))
        })?;
    }
    Ok(adjudication.shares.saturating_sub(breached))
}

/// Why no breach may be recorded against adjudication `id` whatever is typed, if none may: it
/// was voided, or breaches already recorded cover every one of its shares. [`record`] asks it; a
/// front end asks it before it offers the form.
pub fn record_blocked(conn: &Connection, id: i64) -> Result<Option<Refusal>> {
    let adj = match super::adjudication::live(conn, id) {
        Ok(a) => a,
        Err(super::Error::Refused(r)) => return Ok(Some(r)),
        Err(e) => return Err(e),
    };
    if unbreached_shares(conn, &adj)? > 0 {
        return Ok(None);
    }
    let shares = adj.shares;
    let shares_es = numero(shares);
    Ok(Some(Refusal::value(
        Field::Adjudication,
        id,
        said!(
            register_fines::every_share_in_a_breach,
            id,
            shares,
            shares_es
        ),
    )))
}

/// Records a breach after checking it against the adjudication and the program: of a kind the
/// program lists, dated inside the lock-up and not after `today` (the officer's date, as the
/// front end knows it), for at least one share and no more than the adjudication has left, and
/// inscribed in the share ledger (when given) neither before the breach nor after `today`.
pub fn record(tx: &mut Tx<'_>, b: &NewBreach<'_>, today: NaiveDate) -> Result<i64> {
    let today_es = fecha(today);
    if b.breach_date > today {
        return Err(Refusal::value(
            Field::BreachDate,
            b.breach_date,
            said!(
                register_fines::after_today_record_breach_once_has,
                today,
                today_es
            ),
        )
        .into());
    }
    if b.shares == 0 {
        return Err(Refusal::value(
            Field::Shares,
            b.shares,
            said!(register_fines::must_at_least_1_breach_covers),
        )
        .into());
    }
    let adj = super::adjudication::live(tx.conn(), b.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    if !program.program.breach_kinds.contains(&b.kind) {
        let kinds = &program.program.breach_kinds;
        let code = &program.program.code;
        let listed = kinds
            .iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let listed_es = kinds
            .iter()
            .map(|k| k.label_es())
            .collect::<Vec<_>>()
            .join("; ");
        return Err(Refusal::Value {
            field: Field::BreachKind,
            value: Said::new(b.kind.as_str(), b.kind.label_es()),
            reason: said!(
                register_fines::program_does_not_list_that_breach,
                code,
                listed,
                listed_es
            ),
            remedy: None,
        }
        .into());
    }
    // Art. 7 num. 5 / Art. 8 num. 4: "subrogar el crédito" presupposes a credit that financed the
    // purchase: with no lender on record there is none to subrogate (issue 20, item 7)
    if b.kind == crate::program::BreachKind::CreditSubrogation && adj.lender.is_none() {
        let id = adj.id;
        return Err(Refusal::Value {
            field: Field::BreachKind,
            value: Said::new(b.kind.as_str(), b.kind.label_es()),
            reason: said!(register_fines::adjudication_was_not_financed_no_lender, id),
            remedy: None,
        }
        .into());
    }
    let scale = program.scale()?;
    let (adjudicated, adjudicated_es) = (adj.adjudicated_on, fecha(adj.adjudicated_on));
    let id = adj.id;
    match scale.place(adj.adjudicated_on, b.breach_date) {
        None => {
            return Err(Refusal::value(
                Field::BreachDate,
                b.breach_date,
                said!(
                    register_fines::before_adjudication_breach_can_only_follow,
                    adjudicated,
                    adjudicated_es
                ),
            )
            .into());
        }
        Some(Placement::AfterLockup { lockup_end }) => {
            let free = lockup_end.succ_opt().unwrap_or(lockup_end);
            let (end_es, free_es) = (fecha(lockup_end), fecha(free));
            return Err(Refusal::value(
                Field::BreachDate,
                b.breach_date,
                said!(
                    register_fines::no_fine_applies_lock_up_adjudication,
                    id,
                    lockup_end,
                    free,
                    end_es,
                    free_es
                ),
            )
            .into());
        }
        Some(Placement::Inside(_)) => {}
    }
    // what was typed is judged first; then whether any breach is left to record
    if let Some(r) = record_blocked(tx.conn(), b.adjudication_id)? {
        return Err(r.into());
    }
    let remaining = unbreached_shares(tx.conn(), &adj)?;
    if b.shares > remaining {
        let shares = adj.shares;
        let (shares_es, remaining_es) = (numero(shares), numero(remaining));
        return Err(Refusal::value(
            Field::Shares,
            b.shares,
            said!(
                register_fines::adjudication_has_shares_only_them_not,
                id,
                shares,
                remaining,
                shares_es,
                remaining_es
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
            return Err(Refusal::value(field, v, said!(register_fines::must_not_negative)).into());
        }
    }
    if let Some(r) = b.registered_on
        && r < adj.adjudicated_on
    {
        return Err(Refusal::value(
            Field::RegisteredOn,
            r,
            said!(
                register_fines::before_adjudication,
                adjudicated,
                adjudicated_es
            ),
        )
        .into());
    }
    if let Some(r) = b.registered_on {
        let (breach, breach_es) = (b.breach_date, fecha(b.breach_date));
        if r < b.breach_date {
            return Err(Refusal::value(
                Field::RegisteredOn,
                r,
                said!(
                    register_fines::before_breach_share_ledger_inscribes_transfer,
                    breach,
                    breach_es
                ),
            )
            .into());
        }
        if r > today {
            return Err(Refusal::value(
                Field::RegisteredOn,
                r,
                said!(
                    register_fines::after_today_record_inscription_once_has,
                    today,
                    today_es
                ),
            )
            .into());
        }
    }
    Ok(breaches::record(tx, b)?)
}

/// Voids a breach recorded in error: it stays on record, marked void, with who, when and why.
/// Refused without a reason, for a breach already voided, and while something depends on it:
/// a paz y salvo or a notice issued for it (a document delivered to its holder cannot be taken
/// back, so a breach that was notified stays on record), or a payment in force (void it first:
/// money received against a voided breach would drop out of every figure unexplained).
pub fn void(tx: &mut Tx<'_>, breach_id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(Refusal::value(
            Field::VoidReason,
            reason,
            said!(register_fines::say_why_breach_voided),
        )
        .into());
    }
    let b = breaches::get(tx.conn(), breach_id)?;
    if let Some(v) = &b.void {
        return Err(
            Refusal::value(Field::Breach, breach_id, super::already_voided(v, false)).into(),
        );
    }
    if let Some(d) = depends_on(tx.conn(), breach_id)? {
        return Err(match d.first {
            Some(first) => Refusal::Blocked {
                field: Field::Breach,
                value: breach_id.said(),
                reason: d.reason,
                first: Box::new(first),
            },
            None => Refusal::value(Field::Breach, breach_id, d.reason),
        }
        .into());
    }
    Ok(breaches::void(tx, breach_id, reason)?)
}

/// Why a breach may not be voided, if something depends on it: its paz y salvo, its notices
/// (what cannot be undone, said first), or its payments in force (what can: void them first).
/// A front end asks before it offers the void.
pub fn depends_on(conn: &Connection, breach_id: i64) -> Result<Option<Dependent>> {
    if let Some(p) = settlements::for_breach(conn, breach_id)? {
        let (number, on, on_es) = (&p.number, p.settlement_date, fecha(p.settlement_date));
        return Ok(Some(Dependent::final_(said!(
            register_fines::paz_y_salvo_was_issued_certificate,
            number,
            on,
            on_es
        ))));
    }
    let issued = notices::list(conn, Some(breach_id))?;
    if !issued.is_empty() {
        let list = issued
            .iter()
            .map(|n| format!("{} of {}", n.number, n.notice_date))
            .collect::<Vec<_>>()
            .join(", ");
        let lista = issued
            .iter()
            .map(|n| format!("{} del {}", n.number, fecha(n.notice_date)))
            .collect::<Vec<_>>()
            .join(", ");
        let (notices_en, was, avisos) = if issued.len() == 1 {
            ("notice", "was", "el aviso de cobro")
        } else {
            ("notices", "were", "los avisos de cobro")
        };
        let expedido = if issued.len() == 1 {
            "se expidió"
        } else {
            "se expidieron"
        };
        return Ok(Some(Dependent::final_(said!(
            register_fines::issued_notice_demanded_fine_from_holder,
            notices_en,
            list,
            was,
            expedido,
            avisos,
            lista
        ))));
    }
    let paid = breaches::payments(conn, breach_id)?;
    if !paid.is_empty() {
        let list = paid
            .iter()
            .map(|p| {
                format!(
                    "payment {} of {} on {}",
                    p.id,
                    format_cop(p.amount),
                    p.paid_on
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let lista = paid
            .iter()
            .map(|p| {
                format!(
                    "el pago N.º {} por {} del {}",
                    p.id,
                    format_cop(p.amount),
                    fecha(p.paid_on)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let (tiene, anulelos) = if paid.len() == 1 {
            ("tiene vigente", "anúlelo primero")
        } else {
            ("tiene vigentes", "anúlelos primero")
        };
        return Ok(Some(Dependent {
            reason: said!(
                register_fines::has_force_against_fine_money_received,
                list,
                tiene,
                lista,
                anulelos
            ),
            first: Some(Act::Void(Record::Payment)),
        }));
    }
    Ok(None)
}

/// What a breach's void waits for ([`depends_on`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependent {
    pub reason: Said,
    /// The act that lifts it, when one can (its payments voided); `None`: it stays.
    pub first: Option<Act>,
}

impl Dependent {
    /// Something that cannot be undone (a paz y salvo, a notice).
    fn final_(reason: Said) -> Dependent {
        Dependent {
            reason,
            first: None,
        }
    }
}
