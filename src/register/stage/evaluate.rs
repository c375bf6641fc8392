//! The evaluation of a stage's proposals under the program's criterion (the rate of present
//! value from the register's series, improvements counted, a recorded draw applied): each
//! tranche's rows, ranking and standing.

use crate::lang::fecha;
use crate::later_stages::Stage;
use crate::later_stages::Valuation;
use crate::offering::stage::{
    self as core, Best, Evaluated, Extremes, Outcome, Proposal, Ranking, Terms,
};
use crate::program::{Criterion, CriterionRate};
use crate::rates::RateSeries;
use crate::register::Act;
use crate::register::{Refusal, Result};
use crate::said;
use crate::store::programs::StoredProgram;
use crate::store::stage::{self as store, ProposalKey, StoredDraw, StoredProposal, Tranche};
use crate::store::{Snapshot, StoreError};
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::Arc;

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

/// A proposal the evaluation names (the winner, the tied, those tied as filed), held whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// Its place among the tranche's proposals, in stored order.
    pub index: usize,
    pub proposal: StoredProposal,
    pub evaluated: Evaluated,
    /// The improvement it offered, if any.
    pub improvement: Option<store::Improvement>,
}

/// One tranche evaluated: what the result needs (the best value and who holds it, the tie as
/// filed, the distinct values that rank every proposal), never the tranche's proposals
/// themselves, which [`TrancheEvaluation::each`] reads again from the store a proposal at a time
/// and judges with the same rule.
#[derive(Debug, Clone)]
pub struct TrancheEvaluation {
    pub tranche: Tranche,
    /// The criterion as applied.
    pub valuation: Valuation,
    /// The rate of a present value (`None`: the criterion discounts nothing).
    pub rate: Option<RateUsed>,
    program_id: i64,
    terms: Terms,
    /// How many proposals the tranche received.
    count: usize,
    /// The stage's proposals sharing a person or beneficial owner with another, by id.
    same_bidder: Arc<HashSet<i64>>,
    /// The stage's improvements, by proposal id.
    improvements: Arc<HashMap<i64, store::Improvement>>,
    /// The best price and shortest term of the valid proposals, improvements counted.
    extremes: Extremes,
    ranking: Ranking,
    /// The proposals the result names, by index.
    named: Vec<Named>,
    /// The tie of the proposals as filed (before any improvement): who may improve.
    pub original_tie: Vec<usize>,
    pub standing: Standing,
    pub draw: Option<StoredDraw>,
}

/// A proposal handed on by [`TrancheEvaluation::each`]: its place, itself, as evaluated, and
/// its improvement.
pub struct Each<'a> {
    pub index: usize,
    pub proposal: &'a StoredProposal,
    pub evaluated: &'a Evaluated,
    pub improvement: Option<&'a store::Improvement>,
}

impl TrancheEvaluation {
    /// How many rows the tranche has (its proposals).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the tranche received no proposal.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The proposal at `index` when the evaluation names it (the winner, a tied proposal, one
    /// tied as filed).
    pub fn named(&self, index: usize) -> Option<&Named> {
        self.named
            .binary_search_by_key(&index, |n| n.index)
            .ok()
            .map(|k| &self.named[k])
    }

    /// The proposal at `index`, which the evaluation names (an index of its standing or tie).
    pub fn proposal(&self, index: usize) -> &StoredProposal {
        &self.name(index).proposal
    }

    /// How the proposal at `index`, which the evaluation names, was evaluated.
    pub fn evaluated(&self, index: usize) -> &Evaluated {
        &self.name(index).evaluated
    }

    fn name(&self, index: usize) -> &Named {
        self.named(index)
            .expect("the standing and the ties index proposals the evaluation names")
    }

    /// The named proposal with this id, if the evaluation names it.
    pub fn named_id(&self, id: i64) -> Option<&Named> {
        self.named.iter().find(|n| n.proposal.id == id)
    }

    /// Proposal `p` of this tranche, at `index`, judged and valued by the tranche's rule.
    pub fn judge(&self, index: usize, p: &StoredProposal) -> Evaluated {
        let core = core_proposal(p);
        let cause = core::judge(&self.terms, &core, self.same_bidder.contains(&p.id));
        let price = core::counted_price(&core, self.improvements.get(&p.id).map(|m| m.price));
        let value = match cause {
            None => core::value(self.valuation, price, core.term_days, &self.extremes),
            Some(_) => None,
        };
        Evaluated {
            index,
            cause,
            price,
            value,
            rank: value.and_then(|v| self.ranking.rank(v)),
        }
    }

    /// Each proposal of the tranche as evaluated, in stored order, read again from the store and
    /// handed to `f` until it says to stop: one proposal in memory at a time.
    pub fn each<E: From<StoreError>>(
        &self,
        conn: Snapshot<'_>,
        f: &mut dyn FnMut(Each<'_>) -> std::result::Result<ControlFlow<()>, E>,
    ) -> std::result::Result<(), E> {
        let mut index = 0;
        store::each_proposal(
            &conn,
            self.program_id,
            self.tranche.stage,
            self.tranche.tranche,
            &mut |p| {
                let evaluated = self.judge(index, &p);
                let flow = f(Each {
                    index,
                    proposal: &p,
                    evaluated: &evaluated,
                    improvement: self.improvements.get(&p.id),
                })?;
                index += 1;
                Ok(flow)
            },
        )
    }

    /// Each row (`stage evaluate` prints), in stored order, handed to `f` until it says to stop
    /// (see [`Self::each`]).
    pub fn each_row<E: From<StoreError>>(
        &self,
        conn: Snapshot<'_>,
        f: &mut dyn FnMut(Row) -> std::result::Result<ControlFlow<()>, E>,
    ) -> std::result::Result<(), E> {
        let tied = self.outcome_tie().unwrap_or_default();
        self.each(conn, &mut |x| f(self.row_of(&x, &tied)))
    }

    /// Every row in memory, in stored order (a page that shows a tranche whole).
    pub fn rows(&self, conn: Snapshot<'_>) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        self.each_row::<StoreError>(conn, &mut |r| {
            rows.push(r);
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(rows)
    }

    /// The proposals at places `from..from + n` of the ranking as the stage's page lists them
    /// (ranked proposals by place, those of one place as stored, then the rest as stored), as
    /// evaluated, in that order. Read in two passes over the tranche, a proposal at a time: the
    /// first counts the proposals of each place, the second keeps the page's. Memory holds a
    /// count per distinct value (as the ranking itself does) and the page, not the tranche.
    pub fn ranked_page(&self, conn: Snapshot<'_>, from: usize, n: usize) -> Result<Vec<Named>> {
        // how many proposals hold each place (ranks are 1, 2, ... by distinct value)
        let mut at_rank: Vec<usize> = Vec::new();
        self.each::<StoreError>(conn, &mut |x| {
            if let Some(r) = x.evaluated.rank {
                if at_rank.len() < r {
                    at_rank.resize(r, 0);
                }
                at_rank[r - 1] += 1;
            }
            Ok(ControlFlow::Continue(()))
        })?;
        // then where the next proposal of each place stands, the unranked after them all
        let mut next = 0usize;
        for c in &mut at_rank {
            let count = *c;
            *c = next;
            next += count;
        }
        let end = from.saturating_add(n);
        let mut page: Vec<(usize, Named)> = Vec::new();
        self.each::<StoreError>(conn, &mut |x| {
            let slot = match x.evaluated.rank {
                Some(r) => &mut at_rank[r - 1],
                None => &mut next,
            };
            let place = *slot;
            *slot += 1;
            if (from..end).contains(&place) {
                page.push((
                    place,
                    Named {
                        index: x.index,
                        proposal: x.proposal.clone(),
                        evaluated: x.evaluated.clone(),
                        improvement: x.improvement.cloned(),
                    },
                ));
            }
            Ok(ControlFlow::Continue(()))
        })?;
        page.sort_unstable_by_key(|(place, _)| *place);
        Ok(page.into_iter().map(|(_, named)| named).collect())
    }

    /// The row of a proposal, `tied` being [`Self::outcome_tie`].
    fn row_of(&self, x: &Each<'_>, tied: &[usize]) -> Row {
        let winner = match self.standing {
            Standing::Winner { proposal, .. } => Some(proposal),
            _ => None,
        };
        let (i, p, e) = (x.index, x.proposal, x.evaluated);
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
            improved_price: x.improvement.map(|m| m.price.to_string()),
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
            .named
            .iter()
            .filter(|n| n.evaluated.rank == Some(1))
            .map(|n| n.index)
            .collect();
        (best.len() > 1).then_some(best)
    }

    /// The proposals at the best value (the winner, or the tied).
    pub fn best(&self) -> Vec<&Named> {
        self.named
            .iter()
            .filter(|n| n.evaluated.rank == Some(1))
            .collect()
    }

    /// The tied proposals' references.
    pub fn references(&self, idx: &[usize]) -> Vec<&str> {
        idx.iter()
            .map(|&i| self.proposal(i).row.reference.as_str())
            .collect()
    }
}

/// What one pass over a tranche's valid proposals gathers: the best value and those at it, as
/// filed and with the improvements counted, and every value with them (for the ranks).
struct Pass {
    best: Best<(usize, i64)>,
    original: Best<(usize, i64)>,
    values: Vec<Decimal>,
}

/// Evaluates tranche `t` a proposal at a time from the store: the extremes of `price-and-term`
/// first (a pass more), then each valid proposal's value as filed and as improved.
fn evaluate_tranche(
    conn: &Connection,
    program: &StoredProgram,
    t: Tranche,
    terms: Terms,
    rate: Option<RateUsed>,
    same_bidder: &Arc<HashSet<i64>>,
    improvements: &Arc<HashMap<i64, store::Improvement>>,
) -> Result<(TrancheEvaluation, Vec<(usize, i64)>)> {
    let improved = |p: &StoredProposal| improvements.get(&p.id).map(|m| m.price);
    let (mut ex, mut ex_original) = (Extremes::default(), Extremes::default());
    let mut count = 0usize;
    let mut e = TrancheEvaluation {
        tranche: t,
        valuation: terms.valuation,
        rate,
        program_id: program.id,
        terms,
        count: 0,
        same_bidder: Arc::clone(same_bidder),
        improvements: Arc::clone(improvements),
        extremes: Extremes::default(),
        ranking: Ranking::default(),
        named: Vec::new(),
        original_tie: Vec::new(),
        standing: Standing::Desert,
        draw: None,
    };
    let each = |e: &TrancheEvaluation, f: &mut dyn FnMut(&StoredProposal, core::Proposal)| {
        store::each_proposal::<StoreError>(
            conn,
            program.id,
            e.tranche.stage,
            e.tranche.tranche,
            &mut |p| {
                let c = core_proposal(&p);
                f(&p, c);
                Ok(ControlFlow::Continue(()))
            },
        )
    };
    if matches!(e.valuation, Valuation::PriceAndTerm(_)) {
        each(&e, &mut |p, c| {
            if core::judge(&e.terms, &c, same_bidder.contains(&p.id)).is_none() {
                ex.add(core::counted_price(&c, improved(p)), c.term_days);
                ex_original.add(c.price_per_share, c.term_days);
            }
        })?;
    }
    let mut pass = Pass {
        best: Best::default(),
        original: Best::default(),
        values: Vec::new(),
    };
    each(&e, &mut |p, c| {
        let i = count;
        count += 1;
        if core::judge(&e.terms, &c, same_bidder.contains(&p.id)).is_some() {
            return;
        }
        let (price, term) = (core::counted_price(&c, improved(p)), c.term_days);
        let v = core::value(e.valuation, price, term, &ex);
        if let Some(v) = v {
            pass.values.push(v);
            pass.best.add(v, (i, p.id));
        }
        // as filed: the same value unless an improvement or the extremes it moved change it
        let as_filed = if improved(p).is_some() || ex != ex_original {
            core::value(e.valuation, c.price_per_share, term, &ex_original)
        } else {
            v
        };
        if let Some(v) = as_filed {
            pass.original.add(v, (i, p.id));
        }
    })?;
    e.count = count;
    e.extremes = ex;
    e.ranking = Ranking::new(pass.values);
    let best = pass.best.into_parts().1;
    let original = pass.original.into_parts().1;
    if original.len() > 1 {
        e.original_tie = original.iter().map(|&(i, _)| i).collect();
    }
    let mut wanted: Vec<(usize, i64)> = best.clone();
    if original.len() > 1 {
        wanted.extend(original);
    }
    wanted.sort_unstable();
    wanted.dedup();
    let mut named = Vec::with_capacity(wanted.len());
    for (index, id) in wanted {
        let proposal = store::proposal(conn, program.id, e.tranche.stage, ProposalKey::Id(id))?
            .ok_or_else(|| StoreError::Corrupt(format!("proposal {id} vanished while read")))?;
        named.push(Named {
            index,
            evaluated: e.judge(index, &proposal),
            improvement: improvements.get(&id).cloned(),
            proposal,
        });
    }
    e.named = named;
    Ok((e, best))
}

/// Every tranche of a stage evaluated, the improvements and any draw taken into account: a
/// proposal at a time from the store (memory holds the distinct values that rank them and the
/// proposals the result names, not the proposals).
pub fn evaluate(
    conn: Snapshot<'_>,
    program: &StoredProgram,
    stage: Stage,
    rates: &RateSeries,
) -> Result<Vec<TrancheEvaluation>> {
    let code = &program.program.code;
    let tranches = store::tranches(&conn, program.id, stage)?;
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
    let same_bidder = Arc::new(store::same_bidders(&conn, program.id, stage)?);
    let improvements = Arc::new(store::improvements(&conn, program.id, stage)?);
    let draws = store::draws(&conn, program.id, stage)?;
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
        let number = t.tranche;
        let (mut e, best) =
            evaluate_tranche(&conn, program, t, terms, rate, &same_bidder, &improvements)?;
        let outcome = core::outcome(best.iter().map(|&(i, _)| i).collect());
        let draw = draws.iter().find(|d| d.tranche == number).cloned();
        e.standing = match (outcome, &draw) {
            (Outcome::Winner(i), None) => Standing::Winner {
                proposal: i,
                draw: None,
            },
            (Outcome::Tie(v), Some(d)) => {
                let i = best
                    .iter()
                    .find(|&&(_, id)| id == d.proposal_id)
                    .map(|&(i, _)| i)
                    .ok_or_else(|| {
                        StoreError::Corrupt(format!(
                            "draw {} names proposal {}, which is not tied in tranche {}",
                            d.id, d.winner, number
                        ))
                    })?;
                debug_assert!(v.contains(&i));
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
                    d.id, number
                ))
                .into());
            }
        };
        e.draw = draw;
        out.push(e);
    }
    Ok(out)
}

/// The tranche and place of the proposal of the stage with `reference`, read from the store.
pub(super) fn proposal_by_reference<'a>(
    conn: &Connection,
    evals: &'a [TrancheEvaluation],
    reference: &str,
) -> Result<Option<(&'a TrancheEvaluation, StoredProposal)>> {
    let Some(e) = evals.first() else {
        return Ok(None);
    };
    let found = store::proposal(
        conn,
        e.program_id,
        e.tranche.stage,
        ProposalKey::Reference(reference),
    )?;
    Ok(found.and_then(|p| {
        evals
            .iter()
            .find(|e| e.tranche.tranche == p.row.tranche)
            .map(|e| (e, p))
    }))
}
