//! The later stages' rules (Decreto 3939 de 2004 Arts. 3, 13–19, 22; seed 002; issue 12): what a
//! stage may offer (what the previous stage left), its tranches and windows, the proposals import
//! (all or nothing), the evaluation under the program's criterion, the improvement round of a
//! tie, the draw that decides a persisting one, and the stage's conclusion once: adjudicated (the
//! price per share becomes the program's Art. 9 (iii) reference price) or declared void. Every
//! rule runs inside the caller's transaction; refusals name fields, never flags.

use super::{Act, Field, Refusal, Result};
use crate::import::RowError;
use crate::lang::{fecha, numero};
use crate::later_stages::Stage;
use crate::offering::proposals::ProposalRow;
use crate::said;
use crate::store::Tx;
use crate::store::import::PriorImport;
use crate::store::programs::StoredProgram;
use crate::store::stage::{self as store, Kind, NewTranche};
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;
use std::collections::HashMap;

mod conclude;
mod evaluate;
mod tie;

pub use conclude::{
    Concluded, Discrepancy, Part, adjudicate, concluded, desert, payment_due, recheck, stage_price,
};
pub use evaluate::{RateUsed, Row, Standing, TrancheEvaluation, evaluate};
pub use tie::{DrawCheck, DrawDiscrepancy, Drawn, Improved, draw, improve, verify_draws};

/// What a stage may offer: the shares the previous stage left, and the day it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Available {
    pub shares: u64,
    /// The first-stage adjudication, or the Second Stage's conclusion.
    pub since: NaiveDate,
}

/// The shares stage `stage` of `program` may offer (Art. 13: "la totalidad de las Acciones que
/// no sean enajenados en la Primera Etapa"; Art. 16: those not sold in the Second).
pub fn available(conn: &Connection, program: &StoredProgram, stage: Stage) -> Result<Available> {
    let code = &program.program.code;
    let last = program.program.later_stages.last;
    if stage > last {
        return Err(Refusal::value(
            Field::Stage,
            stage,
            said!(
                "program {code} provides for stages 2 to {last} after the first",
                "el programa {code} prevé, después de la primera, las etapas 2 a {last}"
            ),
        )
        .into());
    }
    let Some(previous) = stage.previous() else {
        let first = super::external::first_stage(conn, program)?.ok_or_else(|| {
            Refusal::Waits {
                reason: said!(
                    "the first stage of {code} has not been adjudicated: the Second Stage offers what it leaves \
                     (Art. 13); adjudicate the first stage's offer first or, if it was concluded outside vigia, \
                     record that adjudication",
                    "la primera etapa de {code} no se ha adjudicado: la Segunda Etapa ofrece lo que aquella no \
                     enajenó (art. 13); adjudique primero la oferta de la primera etapa o, si concluyó fuera de \
                     vigia, registre esa adjudicación"
                ),
                first: vec![
                    Act::AdjudicateOffer {
                        program: code.to_string(),
                    },
                    Act::RecordExternal {
                        program: code.to_string(),
                    },
                ],
            }
        })?;
        if first.leftover == 0 {
            let on = first.adjudicated_on;
            let on_es = fecha(on);
            return Err(Refusal::Rule(said!(
                "the first stage of {code} placed every share (adjudicated on {on}): nothing is left for a Second Stage",
                "la primera etapa de {code} colocó todas las acciones (adjudicada el {on_es}): no queda \
                 nada para una Segunda Etapa"
            ))
            .into());
        }
        return Ok(Available {
            shares: first.leftover,
            since: first.adjudicated_on,
        });
    };
    let (prev_name, prev_es) = (previous.name(), previous.name_es());
    let prev = store::conclusion(conn, program.id, previous)?.ok_or_else(|| {
        Refusal::Rule(said!(
            "the {prev_name} Stage of {code} has not ended: the Third Stage offers what it did not sell (Art. 16); \
             adjudicate it or declare it void first",
            "la {prev_es} Etapa de {code} no ha concluido: la Tercera Etapa ofrece lo que aquella no enajenó \
             (art. 16); adjudíquela o declárela desierta primero"
        ))
    })?;
    if prev.leftover == 0 {
        let on = prev.decided_on;
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            "the {prev_name} Stage of {code} sold every share on {on}: nothing is left for stage {stage}",
            "la {prev_es} Etapa de {code} enajenó todas las acciones el {on_es}: no queda nada para la etapa {stage}"
        ))
        .into());
    }
    Ok(Available {
        shares: prev.leftover,
        since: prev.decided_on,
    })
}

fn refuse_if_concluded(conn: &Connection, program: &StoredProgram, stage: Stage) -> Result<()> {
    if let Some(c) = store::conclusion(conn, program.id, stage)? {
        let (name, name_es, code) = (stage.name(), stage.name_es(), &program.program.code);
        let (how, como) = match c.kind {
            Kind::Adjudicated => ("adjudicated", "adjudicada"),
            Kind::Desert => ("declared void", "declarada desierta"),
        };
        let (on, on_es) = (c.decided_on, fecha(c.decided_on));
        return Err(Refusal::Rule(said!(
            "the {name} Stage of {code} was {how} on {on} (Art. 3: the stage is exhausted); nothing more can be done in it",
            "la {name_es} Etapa de {code} fue {como} el {on_es} (art. 3: la etapa se agotó); no puede hacerse \
             nada más en ella"
        ))
        .into());
    }
    Ok(())
}

/// A tranche to open.
#[derive(Debug, Clone, Copy)]
pub struct Open<'r> {
    pub stage: Stage,
    pub tranche: u32,
    pub shares: u64,
    pub opens: NaiveDate,
    pub closes: NaiveDate,
    /// Why it opens outside the program's validity, when it does ([`super::validity`]).
    pub reason: Option<&'r str>,
}

/// What opening a tranche did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub id: i64,
    pub available: Available,
    /// Shares of the stage in open tranches, this one included.
    pub offered: u64,
    pub minimum_price: Decimal,
}

/// Opens a tranche of a later stage: the shares come from what the previous stage left; the
/// minimum price is the program's `minimum_price` (by default the first stage's fixed price:
/// Art. 14 a, Art. 17 a), fixed on the tranche when it opens.
pub fn open(tx: &mut Tx<'_>, program: &StoredProgram, o: Open<'_>) -> Result<Opened> {
    let conn = tx.conn();
    if o.shares == 0 {
        return Err(Refusal::value(
            Field::Shares,
            o.shares,
            said!(
                "must be at least 1: a tranche offers shares",
                "debe ser al menos 1: un tramo ofrece acciones"
            ),
        )
        .into());
    }
    let available = available(conn, program, o.stage)?;
    refuse_if_concluded(conn, program, o.stage)?;
    let existing = store::tranches(conn, program.id, o.stage)?;
    let next = existing.len() as u32 + 1;
    if let Some(t) = existing.iter().find(|t| t.tranche == o.tranche) {
        let (shares, opens, closes, by) = (t.shares, t.opens, t.closes, &t.created_by);
        let (shares_es, opens_es, closes_es) = (numero(shares), fecha(opens), fecha(closes));
        return Err(Refusal::value(
            Field::Tranche,
            o.tranche,
            said!(
                "is already open ({shares} shares, {opens} to {closes}, by {by}); the next tranche is {next}",
                "ya está abierto ({shares_es} acciones, del {opens_es} al {closes_es}, por {by}); el siguiente \
                 tramo es el {next}"
            ),
        )
        .into());
    }
    if o.tranche != next {
        return Err(Refusal::value(
            Field::Tranche,
            o.tranche,
            said!(
                "tranches are opened in order: the next one is {next}",
                "los tramos se abren en orden: el siguiente es el {next}"
            ),
        )
        .into());
    }
    let taken: u64 = existing.iter().map(|t| t.shares).sum();
    let left = available.shares - taken.min(available.shares);
    if o.shares > left {
        let all = available.shares;
        let (held, tienen) = if taken > 0 {
            (
                format!(" and open tranches hold {taken}"),
                format!(" y los tramos abiertos ya tienen {}", numero(taken)),
            )
        } else {
            (String::new(), String::new())
        };
        let (left_es, all_es) = (numero(left), numero(all));
        return Err(Refusal::value(
            Field::Shares,
            o.shares,
            said!(
                "the stage can offer {left} more share(s): the previous stage left {all}{held}",
                "la etapa puede ofrecer {left_es} acción(es) más: la etapa anterior dejó {all_es}{tienen}"
            ),
        )
        .into());
    }
    if o.opens <= available.since {
        let (since, since_es) = (available.since, fecha(available.since));
        return Err(Refusal::value(
            Field::StageOpens,
            o.opens,
            said!(
                "the stage follows the previous one, which ended on {since}: open it on a later day",
                "la etapa sigue a la anterior, que concluyó el {since_es}: ábrala en una fecha posterior"
            ),
        )
        .into());
    }
    if o.closes < o.opens {
        let (opens, opens_es) = (o.opens, fecha(o.opens));
        return Err(Refusal::value(
            Field::StageCloses,
            o.closes,
            said!(
                "is before the opening on {opens}",
                "es anterior a la apertura del {opens_es}"
            ),
        )
        .into());
    }
    let act = crate::store::programs::Act::Tranche;
    let outside = super::validity::reason_needed(program, act, o.opens, o.reason)?;
    let minimum_price = program
        .program
        .later_stages
        .minimum_price
        .resolve(program.program.fixed_price);
    let id = store::insert_tranche(
        tx,
        &NewTranche {
            program_id: program.id,
            stage: o.stage,
            tranche: o.tranche,
            shares: o.shares,
            opens: o.opens,
            closes: o.closes,
            minimum_price,
        },
    )?;
    super::validity::record(tx, program, act, id, o.opens, outside)?;
    Ok(Opened {
        id,
        available,
        offered: taken + o.shares,
        minimum_price,
    })
}

/// What a proposals import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    Added(store::WrittenProposals),
    AlreadyImported(PriorImport),
}

/// Imports a stage's proposals file in the caller's transaction: all of it, or nothing with every
/// bad row by line. The same file twice adds nothing. The stage must have open tranches, no
/// improvement or draw yet (the proposals were read), and not be concluded.
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: Stage,
    file: (&str, &str, &str),
    rows: Vec<ProposalRow>,
    file_problems: Vec<RowError>,
) -> Result<Imported> {
    let conn = tx.conn();
    let code = &program.program.code;
    if let Some(prior) = store::prior_import(conn, program.id, stage, file.1)? {
        return Ok(Imported::AlreadyImported(prior));
    }
    available(conn, program, stage)?;
    refuse_if_concluded(conn, program, stage)?;
    let tranches = store::tranches(conn, program.id, stage)?;
    let (name, name_es) = (stage.name(), stage.name_es());
    if tranches.is_empty() {
        return Err(Refusal::Waits {
            reason: said!(
                "the {name} Stage of {code} has no open tranche: proposals answer a public invitation (Art. 13); open a \
                 tranche first, with its shares and its opening and closing dates",
                "la {name_es} Etapa de {code} no tiene un tramo abierto: las propuestas responden a una invitación \
                 pública (art. 13); abra primero un tramo, con sus acciones y sus fechas de apertura y cierre"
            ),
            first: vec![Act::OpenTranche {
                program: code.to_string(),
                stage,
                tranche: None,
                shares: None,
            }],
        }
        .into());
    }
    if !store::improvements(conn, program.id, stage)?.is_empty()
        || !store::draws(conn, program.id, stage)?.is_empty()
    {
        return Err(Refusal::Rule(said!(
            "the proposals of the {name} Stage of {code} were read and a tie round has begun: later proposals cannot \
             be considered",
            "las propuestas de la {name_es} Etapa de {code} ya se leyeron y comenzó la ronda de desempate: no \
             pueden considerarse propuestas posteriores"
        ))
        .into());
    }
    let known: HashMap<String, (i64, i64)> = store::proposals(conn, program.id, stage)?
        .into_iter()
        .map(|p| (p.row.reference, (p.id, p.import_id)))
        .collect();
    let mut problems = file_problems;
    for r in &rows {
        if !tranches.iter().any(|t| t.tranche == r.tranche) {
            let (name, nombre, n) = (stage.name(), stage.name_es(), tranches.len());
            problems.push(RowError {
                line: r.line,
                field: "tranche".into(),
                value: r.tranche.to_string(),
                reason: said!(
                    "the {name} Stage has tranche(s) 1 to {n}: open this one first",
                    "la {nombre} Etapa tiene los tramos 1 a {n}: abra antes este tramo"
                ),
                remedy: None,
            });
        }
        if let Some((id, import)) = known.get(&r.reference) {
            problems.push(RowError {
                line: r.line,
                field: "proposal".into(),
                value: r.reference.clone(),
                reason: said!(
                    "is already registered (proposal {id}, proposals import {import}): one proposal, one reference",
                    "ya está registrada (propuesta N.º {id}, importación de propuestas N.º {import}): una propuesta, \
                     una referencia"
                ), remedy: None,
            });
        }
    }
    if !problems.is_empty() {
        return Err(crate::store::rejected(problems, Vec::new()).into());
    }
    if rows.is_empty() {
        return Err(Refusal::Rule(said!(
            "the file holds no proposal",
            "el archivo no contiene ninguna propuesta"
        ))
        .into());
    }
    Ok(Imported::Added(store::write_proposals(
        tx, program.id, stage, file, &rows,
    )?))
}
