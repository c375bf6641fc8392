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
            register_holdings::first_stage_was_concluded_outside_vigia,
            code,
            id,
            on,
            acta,
            on_es
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
            register_holdings::first_stage_already_recorded_as_concluded,
            code,
            id,
            awarded,
            on,
            acta,
            by,
            awarded_es,
            on_es
        ))
        .into());
    }
    if let Some(run) = crate::store::offering::run(conn, program.id)? {
        let (id, on) = (run.id, run.adjudicated_on);
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            register_holdings::vigia_adjudicated_first_stage_itself_run,
            code,
            id,
            on,
            on_es
        ))
        .into());
    }
    if let Some(o) = crate::store::offering::offer(conn, program.id)? {
        let (id, opens) = (o.id, o.window.opens);
        let opens_es = fecha(opens);
        return Err(Refusal::Rule(said!(
            register_holdings::first_stage_offer_run_vigia_offer,
            code,
            id,
            opens,
            opens_es
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
                register_holdings::program_offers_shares_all_shares_offered,
                code,
                offered,
                offered_es
            ),
        )
        .into());
    }
    let acta = x.acta.trim();
    if acta.is_empty() || acta.chars().any(char::is_control) {
        return Err(Refusal::value(
            Field::ActaReference,
            x.acta,
            said!(register_holdings::must_name_acta_that_states_adjudication),
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
                register_holdings::register_holds_adjudication_s_imported_shares,
                count,
                code,
                shares,
                count_es,
                shares_es
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
