//! A first stage concluded outside vigia (issue 27; seed 002's later-stage sales): a program whose
//! first-stage offer was run and adjudicated elsewhere records, once, the adjudication's date, the
//! shares awarded and left over and the acta's reference, so that its later stages run in vigia
//! (Decreto 3939 art. 13: the Second Stage offers what the first did not sell). Refused when vigia
//! opened or adjudicated the first stage itself. Every rule runs inside the caller's transaction.

use super::{Field, Refusal, Result};
use crate::lang::{fecha, numero};
use crate::said;
use crate::store::Tx;
use crate::store::external::{self as store, ExternalFirstStage, NewExternal};
use crate::store::programs::StoredProgram;
use chrono::NaiveDate;
use rusqlite::Connection;

/// What the officer states of the first stage concluded elsewhere.
#[derive(Debug, Clone, Copy)]
pub struct External<'a> {
    /// The day the first stage was adjudicated.
    pub on: NaiveDate,
    /// The shares it awarded (the rest of the program's `shares_offered` is left over).
    pub awarded: u64,
    /// The reference of the acta that states the adjudication.
    pub acta: &'a str,
}

/// How the first stage of a program ended, wherever it ran: the shares it left and the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstStage {
    pub leftover: u64,
    pub adjudicated_on: NaiveDate,
}

/// The first stage's end: vigia's own adjudication run, or the record of one concluded outside
/// vigia; `None` when neither exists yet.
pub fn first_stage(conn: &Connection, program: &StoredProgram) -> Result<Option<FirstStage>> {
    if let Some(run) = crate::store::offering::run(conn, program.id)? {
        return Ok(Some(FirstStage {
            leftover: run.leftover,
            adjudicated_on: run.adjudicated_on,
        }));
    }
    Ok(store::get(conn, program.id)?.map(|e| FirstStage {
        leftover: e.leftover,
        adjudicated_on: e.adjudicated_on,
    }))
}

/// Refuses to open a first-stage offer in vigia for a program whose first stage was recorded as
/// concluded outside it.
pub fn refuse_if_recorded(conn: &Connection, program: &StoredProgram) -> Result<()> {
    if let Some(e) = store::get(conn, program.id)? {
        let (code, on, acta, id) = (&program.program.code, e.adjudicated_on, &e.acta, e.id);
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            "the first stage of {code} was concluded outside vigia (record {id}: adjudicated on {on}, {acta}); a \
             program has one first stage",
            "la primera etapa de {code} concluyó fuera de vigia (registro N.º {id}: adjudicada el {on_es}, {acta}); \
             un programa tiene una sola primera etapa"
        ))
        .into());
    }
    Ok(())
}

/// Records the first stage of `program` as concluded outside vigia: once, only when vigia did not
/// open its offer, with `awarded` at most the program's shares offered and, when the register
/// holds adjudications of the program (imported), equal to their shares.
pub fn record(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    x: External<'_>,
) -> Result<ExternalFirstStage> {
    let conn = tx.conn();
    let code = &program.program.code;
    if let Some(e) = store::get(conn, program.id)? {
        let (id, on, awarded, acta, by) =
            (e.id, e.adjudicated_on, e.awarded, &e.acta, &e.created_by);
        let (on_es, awarded_es) = (fecha(on), numero(awarded));
        return Err(Refusal::Rule(said!(
            "the first stage of {code} is already recorded as concluded outside vigia (record {id}: {awarded} shares \
             awarded on {on}, {acta}, by {by}); records are never edited",
            "la primera etapa de {code} ya está registrada como concluida fuera de vigia (registro N.º {id}: \
             {awarded_es} acciones adjudicadas el {on_es}, {acta}, por {by}); los registros no se modifican"
        ))
        .into());
    }
    if let Some(run) = crate::store::offering::run(conn, program.id)? {
        let (id, on) = (run.id, run.adjudicated_on);
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            "vigia adjudicated the first stage of {code} itself (run {id}, on {on}): it cannot also have concluded \
             outside vigia",
            "vigia adjudicó la primera etapa de {code} (Adjudicación N.º {id}, el {on_es}): no puede haber concluido \
             también fuera de vigia"
        ))
        .into());
    }
    if let Some(o) = crate::store::offering::offer(conn, program.id)? {
        let (id, opens) = (o.id, o.window.opens);
        let opens_es = fecha(opens);
        return Err(Refusal::Rule(said!(
            "the first-stage offer of {code} is run in vigia (offer {id}, opened on {opens}): adjudicate it in vigia",
            "la oferta de primera etapa de {code} se lleva en vigia (oferta N.º {id}, abierta el {opens_es}): \
             adjudíquela en vigia"
        ))
        .into());
    }
    let offered = program.program.shares_offered;
    if x.awarded > offered {
        let offered_es = numero(offered);
        return Err(Refusal::value(
            Field::ExternalAwarded,
            x.awarded,
            said!(
                "program {code} offers {offered} shares in all (shares_offered): the first stage cannot award more",
                "el programa {code} ofrece {offered_es} acciones en total (shares_offered): la primera etapa no puede \
                 adjudicar más"
            ),
        )
        .into());
    }
    let acta = x.acta.trim();
    if acta.is_empty() || acta.chars().any(char::is_control) {
        return Err(Refusal::value(
            Field::ActaReference,
            x.acta,
            said!(
                "must name the acta that states the adjudication (e.g. \"Acta 014 de 2007\"), on one line",
                "debe nombrar el acta que consigna la adjudicación (p. ej., «Acta 014 de 2007»), en una sola línea"
            ),
        )
        .into());
    }
    let (count, shares, _) = store::adjudicated(conn, program.id)?;
    if count > 0 && shares != x.awarded {
        let (shares_es, count_es) = (numero(shares), numero(count));
        return Err(Refusal::value(
            Field::ExternalAwarded,
            x.awarded,
            said!(
                "the register holds {count} adjudication(s) of {code} imported for {shares} shares: the first stage \
                 awarded what they add up to; correct the figure or the import",
                "el registro tiene {count_es} adjudicación(es) de {code} importadas por {shares_es} acciones: la \
                 primera etapa adjudicó lo que ellas suman; corrija la cifra o la importación"
            ),
        )
        .into());
    }
    let id = store::insert(
        tx,
        &NewExternal {
            program_id: program.id,
            adjudicated_on: x.on,
            offered,
            awarded: x.awarded,
            acta,
        },
    )?;
    store::get(tx.conn(), program.id)?
        .filter(|e| e.id == id)
        .ok_or_else(|| {
            crate::store::StoreError::Corrupt("the record just written is missing".into()).into()
        })
}
