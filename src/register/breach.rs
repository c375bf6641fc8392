//! Breaches of the lock-up (Art. 8 / Art. 9): what a breach may be when it is recorded, and when
//! one may be voided. Every rule reads the register inside the caller's write transaction.

use super::{Field, Refusal, Result};
use crate::calendar::Placement;
use crate::lang::{Said, fecha, numero};
use crate::said;
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
            let id = adjudication.id;
            Refusal::Rule(said!(
                "the breaches recorded on adjudication {id} add up to more shares than can be counted",
                "los incumplimientos registrados sobre la adjudicación N.º {id} suman más acciones de las \
                 que se pueden contar"
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
                "program {code} does not list that breach kind; it lists {listed}",
                "el programa {code} no contempla ese tipo de incumplimiento; contempla: {listed_es}"
            ),
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
                    "is before the adjudication on {adjudicated}; a breach can only follow the adjudication",
                    "es anterior a la adjudicación del {adjudicated_es}; un incumplimiento solo puede ser \
                     posterior a la adjudicación"
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
                    "no fine applies: the lock-up of adjudication {id} ended on {lockup_end} and the holder was free \
                     from {free}; nothing was recorded",
                    "no hay lugar a multa: el período de restricción de negociabilidad de la adjudicación N.º {id} \
                     terminó el {end_es} y el titular podía negociar libremente sus acciones desde el {free_es}; \
                     no se registró nada"
                ),
            )
            .into());
        }
        Some(Placement::Inside(_)) => {}
    }
    let remaining = unbreached_shares(tx.conn(), &adj)?;
    if b.shares > remaining {
        let shares = adj.shares;
        let (shares_es, remaining_es) = (numero(shares), numero(remaining));
        return Err(Refusal::value(
            Field::Shares,
            b.shares,
            said!(
                "adjudication {id} has {shares} shares of which {remaining} are not already covered by a recorded breach",
                "la adjudicación N.º {id} tiene {shares_es} acciones, de las cuales {remaining_es} no están \
                 cubiertas ya por un incumplimiento registrado"
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
            return Err(Refusal::value(
                field,
                v,
                said!("must not be negative", "no puede ser negativa"),
            )
            .into());
        }
    }
    if let Some(r) = b.registered_on
        && r < adj.adjudicated_on
    {
        return Err(Refusal::value(
            Field::RegisteredOn,
            r,
            said!(
                "is before the adjudication on {adjudicated}",
                "es anterior a la adjudicación del {adjudicated_es}"
            ),
        )
        .into());
    }
    Ok(breaches::record(tx, b)?)
}

/// Voids a breach recorded in error: it stays on record, marked void, with who, when and why.
/// Refused without a reason, and for a breach already voided.
pub fn void(tx: &mut Tx<'_>, breach_id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(Refusal::value(
            Field::VoidReason,
            reason,
            said!(
                "say why the breach is voided",
                "indique por qué se anula el incumplimiento"
            ),
        )
        .into());
    }
    let b = breaches::get(tx.conn(), breach_id)?;
    if let Some(v) = &b.void {
        return Err(
            Refusal::value(Field::Breach, breach_id, super::already_voided(v, false)).into(),
        );
    }
    Ok(breaches::void(tx, breach_id, reason)?)
}
