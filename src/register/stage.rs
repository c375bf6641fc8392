//! The later stages' rules (Decreto 3939 de 2004 Arts. 3, 13–19, 22; seed 002; issue 12): what a
//! stage may offer (what the previous stage left), its tranches and windows, the proposals import
//! (all or nothing), the evaluation under the program's criterion, the improvement round of a
//! tie, the draw that decides a persisting one, and the stage's conclusion once: adjudicated (the
//! price per share becomes the program's Art. 9 (iii) reference price) or declared void. Every
//! rule runs inside the caller's transaction; refusals name fields, never flags.

use super::{Field, Refusal, Result};
use crate::holidays::{add_business_days, next_business_day};
use crate::import::RowError;
use crate::lang::{fecha, momento, numero};
use crate::later_stages::Valuation;
use crate::money::format_cop;
use crate::offering::proposals::ProposalRow;
use crate::offering::stage::{self as core, Draw, Evaluated, Outcome, Proposal, Terms};
use crate::program::{Criterion, CriterionRate};
use crate::rates::RateSeries;
use crate::said;
use crate::store::Tx;
use crate::store::programs::{self, StoredProgram};
use crate::store::stage::{
    self as store, Award, Conclusion, Kind, NewConclusion, NewDraw, NewTranche, StoredDraw,
    StoredProposal, Tranche,
};
use crate::store::{StoreError, import::PriorImport};
use chrono::{Days, NaiveDate};
use rusqlite::Connection;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use std::collections::HashMap;

/// "Segunda" or "Tercera".
pub fn stage_name_es(stage: u8) -> &'static str {
    if stage == 2 { "Segunda" } else { "Tercera" }
}

/// "Second" or "Third", for messages.
pub fn stage_name(stage: u8) -> &'static str {
    if stage == 2 { "Second" } else { "Third" }
}

/// What a stage may offer: the shares the previous stage left, and the day it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Available {
    pub shares: u64,
    /// The first-stage adjudication, or the Second Stage's conclusion.
    pub since: NaiveDate,
}

/// The shares stage `stage` of `program` may offer (Art. 13: "la totalidad de las Acciones que
/// no sean enajenados en la Primera Etapa"; Art. 16: those not sold in the Second).
pub fn available(conn: &Connection, program: &StoredProgram, stage: u8) -> Result<Available> {
    let code = &program.program.code;
    let last = program.program.later_stages.last;
    if !(2..=last).contains(&stage) {
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
    if stage == 2 {
        let first = super::external::first_stage(conn, program)?.ok_or_else(|| {
            Refusal::Rule(said!(
                "the first stage of {code} has not been adjudicated: the Second Stage offers what it leaves \
                 (Art. 13); run `vigia offer adjudicate {code} --on D` first, or, if it was concluded outside vigia, \
                 record it with `vigia offer record-external {code} --on D --awarded N --acta REF`",
                "la primera etapa de {code} no se ha adjudicado: la Segunda Etapa ofrece lo que aquella no \
                 enajenó (art. 13); adjudique primero la oferta de la primera etapa o, si concluyó fuera de \
                 vigia, registre esa adjudicación"
            ))
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
    }
    let (prev_name, prev_es) = (stage_name(stage - 1), stage_name_es(stage - 1));
    let prev = store::conclusion(conn, program.id, stage - 1)?.ok_or_else(|| {
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

fn refuse_if_concluded(conn: &Connection, program: &StoredProgram, stage: u8) -> Result<()> {
    if let Some(c) = store::conclusion(conn, program.id, stage)? {
        let (name, name_es, code) = (
            stage_name(stage),
            stage_name_es(stage),
            &program.program.code,
        );
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
    pub stage: u8,
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
    stage: u8,
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
    let (name, name_es) = (stage_name(stage), stage_name_es(stage));
    if tranches.is_empty() {
        return Err(Refusal::Rule(said!(
            "the {name} Stage of {code} has no open tranche: proposals answer a public invitation (Art. 13); open it \
             first with `vigia stage open {code} --stage {stage} --shares N --opens D --closes D`",
            "la {name_es} Etapa de {code} no tiene un tramo abierto: las propuestas responden a una invitación \
             pública (art. 13); abra primero un tramo, con sus acciones y sus fechas de apertura y cierre"
        ))
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
            let (name, nombre, n) = (stage_name(stage), stage_name_es(stage), tranches.len());
            problems.push(RowError {
                line: r.line,
                field: "tranche".into(),
                value: r.tranche.to_string(),
                reason: said!(
                    "the {name} Stage has tranche(s) 1 to {n}: open this one first",
                    "la {nombre} Etapa tiene los tramos 1 a {n}: abra antes este tramo"
                ),
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
                ),
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

/// The rate a tranche's proposals are discounted at, and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RateUsed {
    pub rate_ea_pct: Decimal,
    /// "IBC in force on 2024-06-14 (SFC Res. …)" or "fixed by the program".
    pub source: String,
}

/// The program's criterion as tranche `t` applies it, with the rate a present value discounts
/// at (none for the other criteria).
fn valuation_for(
    program: &StoredProgram,
    t: &Tranche,
    rates: &RateSeries,
) -> Result<(Valuation, Option<RateUsed>)> {
    let rate = match program.program.later_stages.criterion {
        Criterion::HighestPrice => return Ok((Valuation::HighestPrice, None)),
        Criterion::PriceAndTerm(w) => return Ok((Valuation::PriceAndTerm(w), None)),
        Criterion::PresentValue(rate) => rate,
    };
    let used = rate_for(rate, t, rates)?;
    Ok((
        Valuation::PresentValue {
            rate_ea_pct: used.rate_ea_pct,
        },
        Some(used),
    ))
}

fn rate_for(rate: CriterionRate, t: &Tranche, rates: &RateSeries) -> Result<RateUsed> {
    match rate {
        CriterionRate::Fixed(r) => Ok(RateUsed {
            rate_ea_pct: r,
            source: "fixed by the program".into(),
        }),
        CriterionRate::Ibc => {
            let (closes, tranche) = (t.closes, t.tranche);
            let closes_es = fecha(closes);
            let p = rates.period_on(t.closes).ok_or_else(|| {
                Refusal::Rule(said!(
                    "no certified rate is in force on {closes} (tranche {tranche} closes then) and the program's criterion \
                     discounts at the IBC in force on the closing date: add it with `vigia rates add`",
                    "no hay tasa certificada vigente el {closes_es} (fecha de cierre del tramo {tranche}) y el \
                     criterio del programa descuenta al interés bancario corriente vigente en la fecha de cierre: \
                     agregue la certificación de esa fecha"
                ))
            })?;
            let ibc = p.ibc_ea_pct.ok_or_else(|| {
                let (from, to) = (p.valid_from, p.valid_to);
                let (from_es, to_es) = (fecha(from), fecha(to));
                Refusal::Rule(said!(
                    "the rate period {from}..{to} gives no interés bancario corriente; the program's criterion needs it",
                    "el período de tasas del {from_es} al {to_es} no trae el interés bancario corriente; el criterio \
                     del programa lo requiere"
                ))
            })?;
            Ok(RateUsed {
                rate_ea_pct: ibc,
                source: format!("IBC in force on {} ({})", t.closes, p.resolution),
            })
        }
    }
}

fn core_proposal(p: &StoredProposal) -> Proposal {
    Proposal {
        reference: p.row.reference.clone(),
        filed_on: p.row.filed_at.date(),
        bidders: p.row.bidders.iter().map(|b| b.key()).collect(),
        beneficial_owner: p.row.beneficial_owner.clone(),
        shares: p.row.shares,
        price_per_share: p.row.price_per_share,
        term_days: p.row.term_days,
        guarantee: p.row.guarantee,
        funds_accredited: p.row.funds_accredited,
        review: p.row.review.clone(),
    }
}

/// One proposal as evaluated (the row `stage evaluate` prints).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub tranche: u32,
    pub proposal: String,
    pub filed_at: String,
    pub bidders: String,
    pub beneficial_owner: Option<String>,
    pub shares: u64,
    pub price_per_share: String,
    /// The price offered in the improvement round, counted or not.
    pub improved_price: Option<String>,
    /// The price that counts.
    pub price: String,
    pub term_days: u32,
    /// Under the criterion (valid proposals): pesos with centavos, or the points of
    /// `price-and-term` with four decimals.
    pub value: Option<String>,
    pub rank: Option<usize>,
    /// winner, tied, valid or rejected.
    pub status: &'static str,
    pub cause: Option<String>,
}

/// How a tranche stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The best value, or the winner of the recorded draw.
    Winner { proposal: usize, draw: Option<i64> },
    /// Tied at the best value and not yet drawn: the proposals' indexes.
    Tie(Vec<usize>),
    /// No valid proposal.
    Desert,
}

/// One tranche evaluated.
#[derive(Debug, Clone)]
pub struct TrancheEvaluation {
    pub tranche: Tranche,
    /// The criterion as applied.
    pub valuation: Valuation,
    /// The rate of a present value (`None`: the criterion discounts nothing).
    pub rate: Option<RateUsed>,
    /// The tranche's proposals, in stored order.
    pub proposals: Vec<StoredProposal>,
    pub evaluated: Vec<Evaluated>,
    /// The improvement each proposal offered, if any.
    pub improvements: Vec<Option<store::Improvement>>,
    /// The tie of the proposals as filed (before any improvement): who may improve.
    pub original_tie: Vec<usize>,
    pub standing: Standing,
    pub draw: Option<StoredDraw>,
}

impl TrancheEvaluation {
    /// The rows, in stored order.
    pub fn rows(&self) -> Vec<Row> {
        let winner = match self.standing {
            Standing::Winner { proposal, .. } => Some(proposal),
            _ => None,
        };
        let tied = self.outcome_tie().unwrap_or_default();
        self.proposals
            .iter()
            .zip(&self.evaluated)
            .zip(&self.improvements)
            .enumerate()
            .map(|(i, ((p, e), imp))| Row {
                tranche: self.tranche.tranche,
                proposal: p.row.reference.clone(),
                filed_at: crate::store::offering::filed_text(p.row.filed_at),
                bidders: p
                    .row
                    .bidders
                    .iter()
                    .map(|b| format!("{} {} {}", b.doc_type.as_str(), b.doc_number, b.name))
                    .collect::<Vec<_>>()
                    .join("; "),
                beneficial_owner: p.row.beneficial_owner.clone(),
                shares: p.row.shares,
                price_per_share: p.row.price_per_share.to_string(),
                improved_price: imp.as_ref().map(|m| m.price.to_string()),
                price: e.price.to_string(),
                term_days: p.row.term_days,
                value: e.value.map(|v| {
                    let dp = crate::later_stages::decimals(self.valuation) as usize;
                    format!("{v:.dp$}")
                }),
                rank: e.rank,
                status: if Some(i) == winner {
                    "winner"
                } else if tied.contains(&i) {
                    "tied"
                } else if e.cause.is_none() {
                    "valid"
                } else {
                    "rejected"
                },
                cause: e.cause.as_ref().map(|c| c.code().to_string()),
            })
            .collect()
    }

    /// The proposals tied at the best value with the improvements counted (drawn or not).
    pub fn outcome_tie(&self) -> Option<Vec<usize>> {
        let best: Vec<usize> = self
            .evaluated
            .iter()
            .filter(|e| e.rank == Some(1))
            .map(|e| e.index)
            .collect();
        (best.len() > 1).then_some(best)
    }

    /// The tied proposals' references.
    pub fn references(&self, idx: &[usize]) -> Vec<&str> {
        idx.iter()
            .map(|&i| self.proposals[i].row.reference.as_str())
            .collect()
    }
}

/// Every tranche of a stage evaluated, the improvements and any draw taken into account.
pub fn evaluate(
    conn: &Connection,
    program: &StoredProgram,
    stage: u8,
    rates: &RateSeries,
) -> Result<Vec<TrancheEvaluation>> {
    let code = &program.program.code;
    let tranches = store::tranches(conn, program.id, stage)?;
    if tranches.is_empty() {
        let (name, name_es) = (stage_name(stage), stage_name_es(stage));
        return Err(Refusal::Rule(said!(
            "the {name} Stage of {code} has no open tranche; open it with `vigia stage open {code} --stage {stage} \
             --shares N --opens D --closes D`",
            "la {name_es} Etapa de {code} no tiene un tramo abierto; abra primero un tramo, con sus acciones y \
             sus fechas de apertura y cierre"
        ))
        .into());
    }
    let all = store::proposals(conn, program.id, stage)?;
    let mut improvements = store::improvements(conn, program.id, stage)?;
    let draws = store::draws(conn, program.id, stage)?;
    let mut out = Vec::new();
    for t in tranches {
        let (valuation, rate) = valuation_for(program, &t, rates)?;
        let terms = Terms {
            opens: t.opens,
            closes: t.closes,
            shares: t.shares,
            minimum_price: t.minimum_price,
            minimum_guarantee: program.program.later_stages.minimum_guarantee,
            valuation,
            max_term_days: program.program.later_stages.max_term_days,
        };
        let (mine, others): (Vec<&StoredProposal>, Vec<&StoredProposal>) =
            all.iter().partition(|p| p.row.tranche == t.tranche);
        let ps: Vec<Proposal> = mine.iter().map(|p| core_proposal(p)).collect();
        let os: Vec<Proposal> = others.iter().map(|p| core_proposal(p)).collect();
        let imps: Vec<Option<store::Improvement>> =
            mine.iter().map(|p| improvements.remove(&p.id)).collect();
        let improved: HashMap<usize, Decimal> = imps
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.as_ref().map(|m| (i, m.price)))
            .collect();
        let (_, original) = core::evaluate_among(&terms, &ps, &os, &HashMap::new());
        let original_tie = match original {
            Outcome::Tie(v) => v,
            _ => Vec::new(),
        };
        let (evaluated, outcome) = core::evaluate_among(&terms, &ps, &os, &improved);
        let draw = draws.iter().find(|d| d.tranche == t.tranche).cloned();
        let mine: Vec<StoredProposal> = mine.into_iter().cloned().collect();
        let standing = match (outcome, &draw) {
            (Outcome::Winner(i), None) => Standing::Winner {
                proposal: i,
                draw: None,
            },
            (Outcome::Tie(v), Some(d)) => {
                let i = v
                    .iter()
                    .copied()
                    .find(|&i| mine[i].id == d.proposal_id)
                    .ok_or_else(|| {
                        StoreError::Corrupt(format!(
                            "draw {} names proposal {}, which is not tied in tranche {}",
                            d.id, d.winner, t.tranche
                        ))
                    })?;
                Standing::Winner {
                    proposal: i,
                    draw: Some(d.id),
                }
            }
            (Outcome::Tie(v), None) => Standing::Tie(v),
            (Outcome::Desert, None) => Standing::Desert,
            (_, Some(d)) => {
                return Err(StoreError::Corrupt(format!(
                    "draw {} decided a tie in tranche {} that the register no longer shows",
                    d.id, t.tranche
                ))
                .into());
            }
        };
        out.push(TrancheEvaluation {
            tranche: t,
            valuation,
            rate,
            proposals: mine,
            evaluated,
            improvements: imps,
            original_tie,
            standing,
            draw,
        });
    }
    Ok(out)
}

fn proposal_by_reference<'a>(
    evals: &'a [TrancheEvaluation],
    reference: &str,
) -> Option<(&'a TrancheEvaluation, usize)> {
    evals.iter().find_map(|e| {
        e.proposals
            .iter()
            .position(|p| p.row.reference == reference)
            .map(|i| (e, i))
    })
}

/// What an improvement did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Improved {
    pub id: i64,
    pub tranche: u32,
    pub original: Decimal,
    pub offered: Decimal,
    /// False: not above the original, which stands.
    pub counted: bool,
}

/// Records a tied proposal's answer to the invitation to improve (seed 002): only a proposal tied
/// at the best value as filed, once, while the round is open (the stage not concluded and its
/// tranche not drawn). A price not above the original is recorded and ignored.
pub fn improve(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: u8,
    reference: &str,
    price: Decimal,
    rates: &RateSeries,
) -> Result<Improved> {
    let conn = tx.conn();
    refuse_if_concluded(conn, program, stage)?;
    let evals = evaluate(conn, program, stage, rates)?;
    let (name, name_es, code) = (
        stage_name(stage),
        stage_name_es(stage),
        &program.program.code,
    );
    let (e, i) = proposal_by_reference(&evals, reference).ok_or_else(|| {
        Refusal::value(
            Field::Proposal,
            reference,
            said!(
                "is not a proposal of the {name} Stage of {code}",
                "no es una propuesta de la {name_es} Etapa de {code}"
            ),
        )
    })?;
    if !e.original_tie.contains(&i) {
        let (why, porque) = match &e.evaluated[i].cause {
            Some(c) => (
                format!("it was rejected ({c})"),
                format!("fue rechazada ({c})"),
            ),
            None => (
                "it is not tied at the best value".to_string(),
                "no está empatada en el mejor valor".to_string(),
            ),
        };
        return Err(Refusal::value(
            Field::Proposal,
            reference,
            said!(
                "only proposals tied at the best value are invited to improve (seed 002): {why}",
                "solo las propuestas empatadas en el mejor valor son invitadas a mejorar su precio: {porque}"
            ),
        )
        .into());
    }
    let tranche = e.tranche.tranche;
    if let Some(d) = &e.draw {
        let (at, draw) = (&d.created_at, d.id);
        let at_es = momento(at);
        return Err(Refusal::value(
            Field::Proposal,
            reference,
            said!(
                "the improvement round of tranche {tranche} closed when the tie was drawn on {at} (draw {draw})",
                "la ronda de mejora del tramo {tranche} se cerró cuando el empate se sorteó el {at_es} \
                 (sorteo N.º {draw})"
            ),
        )
        .into());
    }
    if let Some(m) = &e.improvements[i] {
        let (offered, at) = (format_cop(m.price), &m.created_at);
        let at_es = momento(at);
        return Err(Refusal::value(
            Field::Proposal,
            reference,
            said!(
                "already answered the invitation with {offered} on {at}; a bidder answers once",
                "ya respondió la invitación con {offered} el {at_es}; cada proponente responde una sola vez"
            ),
        )
        .into());
    }
    if price <= Decimal::ZERO {
        return Err(Refusal::value(
            Field::ImprovedPrice,
            price,
            said!("must be greater than zero", "debe ser mayor que cero"),
        )
        .into());
    }
    let original = e.proposals[i].row.price_per_share;
    let counted = price > original;
    let proposal_id = e.proposals[i].id;
    let tranche = e.tranche.tranche;
    let id = store::insert_improvement(tx, proposal_id, price, counted)?;
    Ok(Improved {
        id,
        tranche,
        original,
        offered: price,
        counted,
    })
}

/// What a draw did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    pub id: i64,
    pub tranche: u32,
    pub draw: Draw,
}

/// Decides a persisting tie in `tranche` by the verifiable draw (`offering::stage::draw`) seeded
/// with `seed`, and records it (audited with its seed, text, digest and winner). Refused without
/// a tie, or when the tranche was drawn before.
pub fn draw(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: u8,
    tranche: u32,
    seed: &str,
    rates: &RateSeries,
) -> Result<Drawn> {
    let conn = tx.conn();
    refuse_if_concluded(conn, program, stage)?;
    if seed.trim().is_empty() || seed.contains('|') || seed.chars().any(char::is_control) {
        return Err(Refusal::value(
            Field::DrawSeed,
            seed,
            said!(
                "must be the public entropy named (e.g. a lottery's result), without '|' or control characters",
                "debe ser la fuente pública de azar anunciada (p. ej., el resultado de una lotería), sin «|» ni \
                 caracteres de control"
            ),
        )
        .into());
    }
    let evals = evaluate(conn, program, stage, rates)?;
    let e = evals
        .iter()
        .find(|e| e.tranche.tranche == tranche)
        .ok_or_else(|| {
            let (name, name_es) = (stage_name(stage), stage_name_es(stage));
            Refusal::value(
                Field::Tranche,
                tranche,
                said!(
                    "the {name} Stage has no such tranche",
                    "la {name_es} Etapa no tiene ese tramo"
                ),
            )
        })?;
    if let Some(d) = &e.draw {
        let (draw, seed, winner, code) = (d.id, &d.seed, &d.winner, &program.program.code);
        return Err(Refusal::Rule(said!(
            "tranche {tranche} was already drawn (draw {draw}, seed {seed:?}, winner {winner}); check it with `vigia stage draw \
             --verify {code} --stage {stage}`",
            "el empate del tramo {tranche} ya se sorteó (sorteo N.º {draw}, semilla «{seed}», propuesta ganadora {winner}); \
             puede verificar ese sorteo en lugar de repetirlo"
        ))
        .into());
    }
    let tied = match &e.standing {
        Standing::Tie(v) => v.clone(),
        Standing::Winner { proposal, .. } => {
            let best = &e.proposals[*proposal].row.reference;
            return Err(Refusal::Rule(said!(
                "tranche {tranche} has no tie to draw: {best} has the best value",
                "el tramo {tranche} no tiene empate que sortear: la propuesta {best} tiene el mejor valor"
            ))
            .into());
        }
        Standing::Desert => {
            return Err(Refusal::Rule(said!(
                "tranche {tranche} has no valid proposal: nothing to draw",
                "el tramo {tranche} no tiene ninguna propuesta válida: no hay nada que sortear"
            ))
            .into());
        }
    };
    let refs = e.references(&tied);
    let d = core::draw(seed, &program.program.code, stage, tranche, &refs)
        .expect("a tie has two proposals or more");
    let proposal_id = e
        .proposals
        .iter()
        .find(|p| p.row.reference == d.winner)
        .map(|p| p.id)
        .expect("the winner is one of the tied");
    let id = store::insert_draw(
        tx,
        &NewDraw {
            program_id: program.id,
            stage,
            tranche,
            draw: &d,
            seed,
            proposal_id,
        },
    )?;
    Ok(Drawn {
        id,
        tranche,
        draw: d,
    })
}

/// A recorded draw recomputed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawCheck {
    pub stored: StoredDraw,
    pub recomputed: Draw,
    /// Every difference between the record and the recomputation, in words (empty: verified).
    pub differences: Vec<String>,
}

/// Recomputes every recorded draw of the stage from its record (the seed, the program, the
/// stage, the tranche and the tie the register shows) and compares.
pub fn verify_draws(
    conn: &Connection,
    program: &StoredProgram,
    stage: u8,
    rates: &RateSeries,
) -> Result<Vec<DrawCheck>> {
    let draws = store::draws(conn, program.id, stage)?;
    if draws.is_empty() {
        let (name, name_es, code) = (
            stage_name(stage),
            stage_name_es(stage),
            &program.program.code,
        );
        return Err(Refusal::Rule(said!(
            "the {name} Stage of {code} has no recorded draw",
            "la {name_es} Etapa de {code} no tiene ningún sorteo registrado"
        ))
        .into());
    }
    let evals = evaluate(conn, program, stage, rates)?;
    let mut out = Vec::new();
    for d in draws {
        let e = evals.iter().find(|e| e.tranche.tranche == d.tranche);
        let tied: Vec<&str> = e
            .and_then(|e| e.outcome_tie().map(|t| e.references(&t)))
            .unwrap_or_default();
        let r = core::draw(&d.seed, &program.program.code, stage, d.tranche, &tied);
        let Some(r) = r else {
            out.push(DrawCheck {
                differences: vec![format!(
                    "the register shows no tie in tranche {} any more",
                    d.tranche
                )],
                recomputed: Draw {
                    sorted: Vec::new(),
                    text: String::new(),
                    digest: String::new(),
                    number: 0,
                    index: 0,
                    winner: String::new(),
                },
                stored: d,
            });
            continue;
        };
        let mut differences = Vec::new();
        if r.text != d.hashed_text {
            differences.push(format!(
                "the text hashed was {:?}; the record gives {:?}",
                d.hashed_text, r.text
            ));
        }
        if r.digest != d.digest {
            differences.push(format!(
                "the digest recorded is {}; SHA-256 gives {}",
                d.digest, r.digest
            ));
        }
        if r.number.to_string() != d.number || r.index != d.winner_index {
            differences.push(format!(
                "the number and place recorded are {} and {}; recomputed {} and {}",
                d.number, d.winner_index, r.number, r.index
            ));
        }
        if r.winner != d.winner {
            differences.push(format!(
                "the winner recorded is {}; the draw gives {}",
                d.winner, r.winner
            ));
        }
        out.push(DrawCheck {
            stored: d,
            recomputed: r,
            differences,
        });
    }
    Ok(out)
}

/// One tranche's share of the stage price: its shares and winning price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Part {
    pub tranche: u32,
    pub shares: u64,
    pub price: Decimal,
}

/// The stage's price per share: the share-weighted average of the adjudicated tranches' prices
/// (one tranche: its price), rounded to centavos half away from zero, the only rounding.
pub fn stage_price(parts: &[Part]) -> Option<Decimal> {
    let shares: u64 = parts.iter().map(|p| p.shares).sum();
    if shares == 0 {
        return None;
    }
    let total: Decimal = parts
        .iter()
        .map(|p| p.price * Decimal::from(p.shares))
        .sum();
    Some(
        (total / Decimal::from(shares))
            .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
            .normalize(),
    )
}

/// The day a winner pays: the banking business day after the adjudication (Art. 14 c, Art. 17 c),
/// or the end of the term the proposal offered when that is later (seed 002's programs weigh the
/// term), moved to a business day.
pub fn payment_due(on: NaiveDate, term_days: u32) -> Option<NaiveDate> {
    let next = add_business_days(on, 1)?;
    let term = next_business_day(on.checked_add_days(Days::new(u64::from(term_days)))?);
    Some(next.max(term))
}

/// What concluding a stage did.
#[derive(Debug, Clone)]
pub struct Concluded {
    pub conclusion: Conclusion,
    pub awards: Vec<Award>,
    pub parts: Vec<Part>,
    /// The stage price record written (`None` price: no later stage, `--stage none`).
    pub stage_price: Option<(i64, Option<Decimal>)>,
    pub evaluations: Vec<TrancheEvaluation>,
}

fn check_decision_day(
    program: &StoredProgram,
    stage: u8,
    evals: &[TrancheEvaluation],
    on: NaiveDate,
) -> Result<()> {
    if let Some(t) = evals.iter().map(|e| &e.tranche).max_by_key(|t| t.closes)
        && on <= t.closes
    {
        let (name, name_es, code) = (
            stage_name(stage),
            stage_name_es(stage),
            &program.program.code,
        );
        let (closes, tranche) = (t.closes, t.tranche);
        let closes_es = fecha(closes);
        return Err(Refusal::value(
            Field::StageDecisionDate,
            on,
            said!(
                "the {name} Stage of {code} receives proposals until {closes} (tranche {tranche}): decide on a later day",
                "la {name_es} Etapa de {code} recibe propuestas hasta el {closes_es} (tramo {tranche}): decida en \
                 una fecha posterior"
            ),
        )
        .into());
    }
    Ok(())
}

/// Adjudicates the stage on `on`, once: each tranche to its winner (a tie must be drawn first; a
/// tranche without a valid proposal is void and its shares pass on), the payment due dates, and
/// the stage price (the share-weighted average of the winning prices) recorded as the program's
/// Art. 9 (iii) price from `on`. The tranches must offer every share the stage has.
pub fn adjudicate(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: u8,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Concluded> {
    let conn = tx.conn();
    let code = program.program.code.clone();
    let available = available(conn, program, stage)?;
    refuse_if_concluded(conn, program, stage)?;
    let evals = evaluate(conn, program, stage, rates)?;
    let offered: u64 = evals.iter().map(|e| e.tranche.shares).sum();
    let (name, name_es) = (stage_name(stage), stage_name_es(stage));
    if offered != available.shares {
        let next = evals.len() + 1;
        let (all, missing) = (available.shares, available.shares - offered);
        let (all_es, offered_es, missing_es) = (numero(all), numero(offered), numero(missing));
        return Err(Refusal::Rule(said!(
            "the {name} Stage offers the totality of what the previous stage left (Arts. 13, 16): {all} shares, but its \
             tranches hold {offered}; open the other {missing} as tranche {next} (`vigia stage open {code} --stage {stage} \
             --tranche {next} --shares {missing} ...`)",
            "la {name_es} Etapa ofrece la totalidad de lo que dejó la etapa anterior (arts. 13 y 16): \
             {all_es} acciones, pero sus tramos suman {offered_es}; abra las {missing_es} restantes como el \
             tramo {next}"
        ))
        .into());
    }
    check_decision_day(program, stage, &evals, on)?;
    let mut awards = Vec::new();
    let mut parts = Vec::new();
    for e in &evals {
        let t = &e.tranche;
        match &e.standing {
            Standing::Tie(v) => {
                let (tranche, tied) = (t.tranche, e.references(v).join(", "));
                return Err(Refusal::Rule(said!(
                    "tranche {tranche} is tied between {tied} at the best value: invite them to improve (`vigia stage improve`) \
                     and decide a persisting tie by lot (`vigia stage draw {code} --stage {stage} --tranche {tranche} \
                     --seed TEXT`) before adjudicating",
                    "en el tramo {tranche} hay empate en el mejor valor entre {tied}: antes de adjudicar, invite a \
                     los proponentes empatados a mejorar su precio y, si el empate persiste, decídalo por sorteo"
                ))
                .into());
            }
            Standing::Desert => awards.push(Award {
                tranche: t.tranche,
                shares: t.shares,
                proposal_id: None,
                price: None,
                term_days: None,
                rate_ea_pct: e.rate.as_ref().map(|r| r.rate_ea_pct),
                value: None,
                payment_due: None,
                draw_id: None,
            }),
            Standing::Winner { proposal, draw } => {
                let p = &e.proposals[*proposal];
                let ev = &e.evaluated[*proposal];
                let due = payment_due(on, p.row.term_days).ok_or_else(|| {
                    Refusal::value(
                        Field::StageDecisionDate,
                        on,
                        said!(
                            "the payment date falls outside the calendar",
                            "la fecha de pago queda fuera del calendario"
                        ),
                    )
                })?;
                parts.push(Part {
                    tranche: t.tranche,
                    shares: t.shares,
                    price: ev.price,
                });
                awards.push(Award {
                    tranche: t.tranche,
                    shares: t.shares,
                    proposal_id: Some(p.id),
                    price: Some(ev.price),
                    term_days: Some(p.row.term_days),
                    rate_ea_pct: e.rate.as_ref().map(|r| r.rate_ea_pct),
                    value: ev.value,
                    payment_due: Some(due),
                    draw_id: *draw,
                });
            }
        }
    }
    let price = stage_price(&parts).ok_or_else(|| {
        Refusal::Rule(said!(
            "no tranche of the {name} Stage of {code} has a valid proposal: declare it void with `vigia stage desert \
             {code} --stage {stage} --on {on}`",
            "ningún tramo de la {name_es} Etapa de {code} tiene una propuesta válida: declare desierta la etapa"
        ))
    })?;
    let awarded: u64 = parts.iter().map(|p| p.shares).sum();
    let sp = programs::record_stage(tx, program.id, Some((stage, price)), on)?;
    let c = NewConclusion {
        program_id: program.id,
        stage,
        kind: Kind::Adjudicated,
        decided_on: on,
        offered,
        awarded,
        leftover: available.shares - awarded,
        price: Some(price),
        stage_price_id: Some(sp),
    };
    store::write_conclusion(tx, &c, &awards)?;
    let conclusion = store::conclusion(tx.conn(), program.id, stage)?
        .ok_or_else(|| StoreError::Corrupt("the conclusion just written is missing".into()))?;
    Ok(Concluded {
        conclusion,
        awards,
        parts,
        stage_price: Some((sp, Some(price))),
        evaluations: evals,
    })
}

/// Declares the stage void (desierta) on `on`: refused while a tranche has a valid proposal. Its
/// shares pass to the next stage; when it is the program's last stage, the register records
/// that there is no Art. 9 (iii) price (as `program stage-price --stage none` does).
pub fn desert(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: u8,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Concluded> {
    let conn = tx.conn();
    let code = program.program.code.clone();
    let available = available(conn, program, stage)?;
    refuse_if_concluded(conn, program, stage)?;
    let tranches = store::tranches(conn, program.id, stage)?;
    let evals = if tranches.is_empty() {
        Vec::new()
    } else {
        evaluate(conn, program, stage, rates)?
    };
    check_decision_day(program, stage, &evals, on)?;
    if on <= available.since {
        let (since, since_es) = (available.since, fecha(available.since));
        return Err(Refusal::value(
            Field::StageDecisionDate,
            on,
            said!(
                "the previous stage ended on {since}: decide on a later day",
                "la etapa anterior concluyó el {since_es}: decida en una fecha posterior"
            ),
        )
        .into());
    }
    if let Some(e) = evals
        .iter()
        .find(|e| !matches!(e.standing, Standing::Desert))
    {
        let best: Vec<&str> = e
            .evaluated
            .iter()
            .filter(|x| x.rank == Some(1))
            .map(|x| e.proposals[x.index].row.reference.as_str())
            .collect();
        let (tranche, best) = (e.tranche.tranche, best.join(", "));
        return Err(Refusal::Rule(said!(
            "tranche {tranche} has a valid proposal ({best}): a stage with a valid proposal is adjudicated (`vigia stage \
             adjudicate {code} --stage {stage} --on {on}`), not declared void",
            "el tramo {tranche} tiene una propuesta válida ({best}): una etapa con propuesta válida se adjudica, \
             no se declara desierta"
        ))
        .into());
    }
    let awards: Vec<Award> = evals
        .iter()
        .map(|e| Award {
            tranche: e.tranche.tranche,
            shares: e.tranche.shares,
            proposal_id: None,
            price: None,
            term_days: None,
            rate_ea_pct: e.rate.as_ref().map(|r| r.rate_ea_pct),
            value: None,
            payment_due: None,
            draw_id: None,
        })
        .collect();
    let last = stage >= program.program.later_stages.last;
    let sp = if last {
        Some(programs::record_stage(tx, program.id, None, on)?)
    } else {
        None
    };
    let c = NewConclusion {
        program_id: program.id,
        stage,
        kind: Kind::Desert,
        decided_on: on,
        offered: available.shares,
        awarded: 0,
        leftover: available.shares,
        price: None,
        stage_price_id: sp,
    };
    store::write_conclusion(tx, &c, &awards)?;
    let conclusion = store::conclusion(tx.conn(), program.id, stage)?
        .ok_or_else(|| StoreError::Corrupt("the conclusion just written is missing".into()))?;
    Ok(Concluded {
        conclusion,
        awards,
        parts: Vec::new(),
        stage_price: sp.map(|id| (id, None)),
        evaluations: evals,
    })
}

/// A concluded stage read back with its evaluation, for the acta.
pub fn concluded(
    conn: &Connection,
    program: &StoredProgram,
    stage: u8,
    rates: &RateSeries,
) -> Result<Concluded> {
    let conclusion = store::conclusion(conn, program.id, stage)?.ok_or_else(|| {
        let (name, name_es, code) = (
            stage_name(stage),
            stage_name_es(stage),
            &program.program.code,
        );
        Refusal::Rule(said!(
            "the {name} Stage of {code} has not been adjudicated nor declared void",
            "la {name_es} Etapa de {code} no ha sido adjudicada ni declarada desierta"
        ))
    })?;
    let awards = store::awards(conn, conclusion.id)?;
    let evaluations = if store::tranches(conn, program.id, stage)?.is_empty() {
        Vec::new()
    } else {
        evaluate(conn, program, stage, rates)?
    };
    let parts = awards
        .iter()
        .filter_map(|a| {
            a.price.map(|price| Part {
                tranche: a.tranche,
                shares: a.shares,
                price,
            })
        })
        .collect();
    let stage_price = conclusion.stage_price_id.map(|id| (id, conclusion.price));
    Ok(Concluded {
        conclusion,
        awards,
        parts,
        stage_price,
        evaluations,
    })
}

/// Reads a concluded stage back and recomputes what its acta states from the stored records: the
/// evaluation of the stored proposals (improvements and draws counted) must give each stored
/// award (winner, price, value, rate, draw), the awarded shares and leftover must add up, the
/// stage price must be the share-weighted average of the awards, and every recorded draw must
/// recompute. The differences come back in words (empty: consistent).
pub fn recheck(
    conn: &Connection,
    program: &StoredProgram,
    stage: u8,
    rates: &RateSeries,
) -> Result<(Concluded, Vec<String>)> {
    let c = concluded(conn, program, stage, rates)?;
    let k = &c.conclusion;
    let mut diffs = Vec::new();
    if !c.evaluations.is_empty() && c.awards.len() != c.evaluations.len() {
        diffs.push(format!(
            "the conclusion records {} tranche award(s); the stage has {} tranche(s)",
            c.awards.len(),
            c.evaluations.len()
        ));
    }
    for e in &c.evaluations {
        let t = e.tranche.tranche;
        let Some(a) = c.awards.iter().find(|a| a.tranche == t) else {
            diffs.push(format!("tranche {t} has no stored award"));
            continue;
        };
        if a.shares != e.tranche.shares {
            diffs.push(format!(
                "tranche {t}: the award records {} shares; the tranche offers {}",
                a.shares, e.tranche.shares
            ));
        }
        match &e.standing {
            Standing::Tie(v) => diffs.push(format!(
                "tranche {t}: the stored proposals are tied between {}, but the conclusion records a decision",
                e.references(v).join(", ")
            )),
            Standing::Desert => {
                if a.proposal_id.is_some() || a.price.is_some() {
                    diffs.push(format!(
                        "tranche {t}: the stored proposals give no valid one, but the award names a winner"
                    ));
                }
            }
            Standing::Winner { proposal, draw } => {
                let p = &e.proposals[*proposal];
                let ev = &e.evaluated[*proposal];
                if a.proposal_id != Some(p.id) {
                    diffs.push(format!(
                        "tranche {t}: the stored proposals give {} as the winner, but the award records another",
                        p.row.reference
                    ));
                }
                if a.price != Some(ev.price) {
                    diffs.push(format!(
                        "tranche {t}: the award records the price {}; the proposals give {}",
                        a.price.map_or_else(|| "none".into(), |x| x.to_string()),
                        ev.price
                    ));
                }
                if a.value != ev.value {
                    diffs.push(format!(
                        "tranche {t}: the award records the value {}; the criterion gives {}",
                        a.value.map_or_else(|| "none".into(), |x| x.to_string()),
                        ev.value.map_or_else(|| "none".into(), |x| x.to_string())
                    ));
                }
                if a.draw_id != *draw {
                    diffs.push(format!(
                        "tranche {t}: the award records draw {}; the register gives {}",
                        a.draw_id.map_or_else(|| "none".into(), |x| x.to_string()),
                        draw.map_or_else(|| "none".into(), |x| x.to_string())
                    ));
                }
            }
        }
        let given = e.rate.as_ref().map(|r| r.rate_ea_pct);
        if let Some(r) = a.rate_ea_pct
            && Some(r) != given
        {
            diffs.push(format!(
                "tranche {t}: the award records a rate of {r} % EA; the criterion gives {}",
                given.map_or_else(|| "none".into(), |g| format!("{g} % EA"))
            ));
        }
    }
    let awarded: u64 = c.parts.iter().map(|x| x.shares).sum();
    if awarded != k.awarded {
        diffs.push(format!(
            "the conclusion records {} shares awarded; its awards add up to {awarded}",
            k.awarded
        ));
    }
    if k.offered.checked_sub(k.awarded) != Some(k.leftover) {
        diffs.push(format!(
            "the conclusion records {} offered, {} awarded and {} left over, which do not add up",
            k.offered, k.awarded, k.leftover
        ));
    }
    let price = stage_price(&c.parts);
    if price != k.price {
        diffs.push(format!(
            "the conclusion records the stage price {}; its awards give {}",
            k.price.map_or_else(|| "none".into(), |x| x.to_string()),
            price.map_or_else(|| "none".into(), |x| x.to_string())
        ));
    }
    if !store::draws(conn, program.id, stage)?.is_empty() {
        for d in verify_draws(conn, program, stage, rates)? {
            for x in d.differences {
                diffs.push(format!(
                    "draw {} (tranche {}): {x}",
                    d.stored.id, d.stored.tranche
                ));
            }
        }
    }
    Ok((c, diffs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn d(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    #[test]
    fn the_stage_price_is_the_share_weighted_average_of_the_tranches() {
        // one tranche: its price
        let one = [Part {
            tranche: 1,
            shares: 1000,
            price: dec("1100"),
        }];
        assert_eq!(stage_price(&one), Some(dec("1100")));
        // (1,100 × 6,000,000 + 1,150 × 6,876,682) / 12,876,682
        // = (6,600,000,000 + 7,908,184,300) / 12,876,682 = 14,508,184,300 / 12,876,682
        // = 1,126.7020… → 1,126.70
        let two = [
            Part {
                tranche: 1,
                shares: 6_000_000,
                price: dec("1100"),
            },
            Part {
                tranche: 2,
                shares: 6_876_682,
                price: dec("1150"),
            },
        ];
        assert_eq!(stage_price(&two), Some(dec("1126.7")));
        assert_eq!(stage_price(&[]), None);
    }

    #[test]
    fn payment_is_due_the_next_banking_business_day_or_at_the_end_of_the_term() {
        // Friday 2024-06-28; Monday 2024-07-01 is San Pedro y San Pablo (moved): Tuesday 2
        assert_eq!(payment_due(d("2024-06-28"), 0), Some(d("2024-07-02")));
        // a Tuesday: Wednesday
        assert_eq!(payment_due(d("2024-06-25"), 0), Some(d("2024-06-26")));
        // 30 days: 2024-07-28 is a Sunday → Monday 29
        assert_eq!(payment_due(d("2024-06-28"), 30), Some(d("2024-07-29")));
    }
}
