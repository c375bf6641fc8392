//! The evaluation of a stage's proposals under the program's criterion (the rate of present
//! value from the register's series, improvements counted, a recorded draw applied): each
//! tranche's rows, ranking and standing.

use crate::lang::fecha;
use crate::later_stages::Stage;
use crate::later_stages::Valuation;
use crate::offering::stage::{self as core, Evaluated, Outcome, Proposal, Terms};
use crate::program::{Criterion, CriterionRate};
use crate::rates::RateSeries;
use crate::register::Act;
use crate::register::{Refusal, Result};
use crate::said;
use crate::store::StoreError;
use crate::store::programs::StoredProgram;
use crate::store::stage::{self as store, StoredDraw, StoredProposal, Tranche};
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::HashMap;

/// The rate a tranche's proposals are discounted at, and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RateUsed {
    pub rate_ea_pct: Decimal,
    /// "IBC in force on 2024-06-14 (SFC Res. …)" or "fixed by the program" (the JSON's words).
    pub source: String,
    /// The same in Spanish: «IBC vigente el 14/06/2024 (SFC Res. … (31/05/2024))».
    #[serde(skip)]
    pub source_es: String,
}

/// The program's criterion as tranche `t` applies it, with the rate a present value discounts
/// at (none for the other criteria).
pub(super) fn valuation_for(
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

pub(super) fn rate_for(rate: CriterionRate, t: &Tranche, rates: &RateSeries) -> Result<RateUsed> {
    match rate {
        CriterionRate::Fixed(r) => Ok(RateUsed {
            rate_ea_pct: r,
            source: "fixed by the program".into(),
            source_es: "fijada por el programa".into(),
        }),
        CriterionRate::Ibc => {
            let (closes, tranche) = (t.closes, t.tranche);
            let closes_es = fecha(closes);
            let p = rates.period_on(t.closes).ok_or_else(|| Refusal::Waits {
                reason: said!(
                    register_stage::no_certified_rate_force_tranche_closes,
                    closes,
                    tranche,
                    closes_es
                ),
                first: vec![Act::AddRate],
            })?;
            let ibc = p.ibc_ea_pct.ok_or_else(|| {
                let (from, to) = (p.valid_from, p.valid_to);
                let (from_es, to_es) = (fecha(from), fecha(to));
                Refusal::Rule(said!(
                    register_stage::rate_period_gives_no_inter_s,
                    from,
                    to,
                    from_es,
                    to_es
                ))
            })?;
            Ok(RateUsed {
                rate_ea_pct: ibc,
                source: format!("IBC in force on {} ({})", t.closes, p.resolution),
                source_es: format!(
                    "IBC vigente el {} ({})",
                    fecha(t.closes),
                    crate::rates::resolution_es(&p.resolution)
                ),
            })
        }
    }
}

pub(super) fn core_proposal(p: &StoredProposal) -> Proposal {
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
        let tied = self.outcome_tie().unwrap_or_default();
        (0..self.len()).map(|i| self.row_at(i, &tied)).collect()
    }

    /// How many rows the tranche has (its proposals).
    pub fn len(&self) -> usize {
        self.proposals
            .len()
            .min(self.evaluated.len())
            .min(self.improvements.len())
    }

    /// Whether the tranche received no proposal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The row of the `i`-th proposal (in stored order), `tied` being [`Self::outcome_tie`]:
    /// one row at a time, for an acta written as its rows are made.
    pub fn row_at(&self, i: usize, tied: &[usize]) -> Row {
        let winner = match self.standing {
            Standing::Winner { proposal, .. } => Some(proposal),
            _ => None,
        };
        let (p, e, imp) = (
            &self.proposals[i],
            &self.evaluated[i],
            &self.improvements[i],
        );
        Row {
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
        }
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
    stage: Stage,
    rates: &RateSeries,
) -> Result<Vec<TrancheEvaluation>> {
    let code = &program.program.code;
    let tranches = store::tranches(conn, program.id, stage)?;
    if tranches.is_empty() {
        let (name, name_es) = (stage.name(), stage.name_es());
        return Err(Refusal::Waits {
            reason: said!(
                register_stage::stage_has_no_open_tranche_open,
                name,
                code,
                name_es
            ),
            first: vec![Act::OpenTranche {
                program: code.clone(),
                stage,
                tranche: None,
                shares: None,
            }],
        }
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

pub(super) fn proposal_by_reference<'a>(
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
