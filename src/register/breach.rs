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
                "the breaches recorded on adjudication {id} add up to more shares than can be counted",
                "los incumplimientos registrados sobre la adjudicación N.º {id} suman más acciones de las \
                 que se pueden contar"
            ))
        })?;
    }
    Ok(adjudication.shares.saturating_sub(breached))
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
                "is after today ({today}); record a breach once it has taken place, with the date it took place",
                "es posterior a la fecha de hoy ({today_es}); registre el incumplimiento una vez ocurrido, con \
                 la fecha en que ocurrió"
            ),
        )
        .into());
    }
    if b.shares == 0 {
        return Err(Refusal::value(
            Field::Shares,
            b.shares,
            said!(
                "must be at least 1: a breach covers the shares negotiated",
                "debe ser al menos 1: un incumplimiento cubre las acciones negociadas"
            ),
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
                "program {code} does not list that breach kind; it lists {listed}",
                "el programa {code} no contempla ese tipo de incumplimiento; contempla: {listed_es}"
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
            reason: said!(
                "adjudication {id} was not financed (no lender on record), so there is no credit to subrogate; record the breach as what it was, or correct the adjudication's lender first",
                "la adjudicación {id} no fue financiada (no tiene prestamista registrado), así que \
                 no hay crédito que subrogar; registre el incumplimiento como lo que fue, o corrija \
                 antes el prestamista de la adjudicación"
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
                "adjudication {id} has {shares} shares, and only {remaining} of them are not in a \
                 breach already recorded: record at most {remaining}",
                "la adjudicación N.º {id} tiene {shares_es} acciones y solo quedan {remaining_es} sin un \
                 incumplimiento ya registrado: registre como máximo {remaining_es}"
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
    if let Some(r) = b.registered_on {
        let (breach, breach_es) = (b.breach_date, fecha(b.breach_date));
        if r < b.breach_date {
            return Err(Refusal::value(
                Field::RegisteredOn,
                r,
                said!(
                    "is before the breach on {breach}; the share ledger inscribes a transfer once it has been agreed",
                    "es anterior al incumplimiento del {breach_es}; el libro de registro de acciones inscribe un \
                     traspaso después de acordado"
                ),
            )
            .into());
        }
        if r > today {
            return Err(Refusal::value(
                Field::RegisteredOn,
                r,
                said!(
                    "is after today ({today}); record the inscription once it has been made",
                    "es posterior a la fecha de hoy ({today_es}); registre la inscripción una vez hecha"
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
            "its paz y salvo {number} of {on} was issued: a certificate given to the holder cannot be taken back, \
             so a settled breach stays on record",
            "se expidió su paz y salvo {number} del {on_es}: un certificado entregado al titular no puede \
             retirarse, de modo que un incumplimiento con paz y salvo permanece en el registro"
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
            "the {notices_en} {list} {was} issued for it: a notice demanded the fine from the holder and cannot be taken \
             back, so a notified breach stays on record; if it was recorded in error, withdraw the notice by the \
             issuer's own written act (vigia does not record that act)",
            "por él {expedido} {avisos} {lista}: un aviso le cobró la multa al titular y no puede retirarse, de modo \
             que un incumplimiento notificado permanece en el registro; si se registró por error, el emisor debe \
             revocar el aviso mediante un acto escrito propio (vigia no registra ese acto)"
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
                "has {list} in force against its fine; money received against a voided breach would drop out of every \
                 figure unexplained: void the payments first, saying why",
                "{tiene} {lista} de su multa; el dinero recibido por un incumplimiento anulado desaparecería de todas las \
                 cifras sin explicación: {anulelos}, indicando el motivo"
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
