//! A stage's conclusion, once: adjudicated (each tranche to its winner, payment due the next
//! banking business day, the share-weighted stage price recorded as the program's Art. 9 (iii)
//! price) or declared void; a concluded stage read back, and re-checked against its records.

use super::evaluate::{Standing, TrancheEvaluation, evaluate};
use super::tie::{DrawDiscrepancy, verify_draws};
use super::{available, refuse_if_concluded};
use crate::holidays::{add_business_days, next_business_day};
use crate::lang::{fecha, numero};
use crate::later_stages::Stage;
use crate::rates::RateSeries;
use crate::register::Act;
use crate::register::{Field, Refusal, Result};
use crate::said;
use crate::store::StoreError;
use crate::store::programs::{self, StoredProgram};
use crate::store::stage::{
    self as store, Award, Conclusion, Kind, NewConclusion, ProposalKey, StoredProposal,
};
use crate::store::{Snapshot, Tx};
use chrono::{Days, NaiveDate};
use rusqlite::Connection;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

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
    /// The proposals the awards name, as stored.
    pub awarded: Vec<StoredProposal>,
    /// Shares left to a later stage of the program still to conclude
    /// ([`Stage::leaves_a_later_stage`]): the stage price recorded is then a price so far and
    /// liquidations stay provisional.
    pub later_stage_pending: bool,
}

impl Concluded {
    /// The proposal award `a` names, if any.
    pub fn awarded_proposal(&self, a: &Award) -> Option<&StoredProposal> {
        let id = a.proposal_id?;
        self.awarded.iter().find(|p| p.id == id)
    }
}

/// The proposals `awards` name, read from the store (one a tranche).
fn awarded_proposals(
    conn: &Connection,
    program: &StoredProgram,
    stage: Stage,
    awards: &[Award],
) -> Result<Vec<StoredProposal>> {
    let mut out = Vec::new();
    for id in awards.iter().filter_map(|a| a.proposal_id) {
        if let Some(p) = store::proposal(conn, program.id, stage, ProposalKey::Id(id))? {
            out.push(p);
        }
    }
    Ok(out)
}

fn check_decision_day(
    program: &StoredProgram,
    stage: Stage,
    evals: &[TrancheEvaluation],
    on: NaiveDate,
) -> Result<()> {
    if let Some(t) = evals.iter().map(|e| &e.tranche).max_by_key(|t| t.closes)
        && on <= t.closes
    {
        let (name, name_es, code) = (stage.name(), stage.name_es(), &program.program.code);
        let (closes, tranche) = (t.closes, t.tranche);
        let closes_es = fecha(closes);
        return Err(Refusal::value(
            Field::StageDecisionDate,
            on,
            said!(
                register_stage::stage_receives_proposals_until_tranche_decide,
                name,
                code,
                closes,
                tranche,
                name_es,
                closes_es
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
    stage: Stage,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Concluded> {
    let conn = tx.conn();
    let code = program.program.code.clone();
    let available = available(conn, program, stage)?;
    refuse_if_concluded(conn, program, stage)?;
    let evals = evaluate(tx.snapshot(), program, stage, rates)?;
    let offered: u64 = evals.iter().map(|e| e.tranche.shares).sum();
    let (name, name_es) = (stage.name(), stage.name_es());
    if offered != available.shares {
        let next = evals.len() + 1;
        let (all, missing) = (available.shares, available.shares - offered);
        let (all_es, offered_es, missing_es) = (numero(all), numero(offered), numero(missing));
        return Err(Refusal::Waits {
            reason: said!(
                register_stage::stage_offers_totality_what_previous_stage,
                name,
                all,
                offered,
                missing,
                next,
                name_es,
                all_es,
                offered_es,
                missing_es
            ),
            first: vec![Act::OpenTranche {
                program: code.clone(),
                stage,
                tranche: Some(next),
                shares: Some(missing),
            }],
        }
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
                return Err(Refusal::Waits {
                    reason: said!(
                        register_stage::tranche_tied_between_at_best_value,
                        tranche,
                        tied
                    ),
                    first: vec![
                        Act::Improve,
                        Act::Draw {
                            program: code.clone(),
                            stage,
                            tranche,
                        },
                    ],
                }
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
                let (p, ev) = (e.proposal(*proposal), e.evaluated(*proposal));
                let due = payment_due(on, p.row.term_days).ok_or_else(|| {
                    Refusal::value(
                        Field::StageDecisionDate,
                        on,
                        said!(register_stage::payment_date_falls_outside_calendar),
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
    let price = stage_price(&parts).ok_or_else(|| Refusal::Waits {
        reason: said!(
            register_stage::no_tranche_stage_has_valid_proposal,
            name,
            code,
            name_es
        ),
        first: vec![Act::DeclareVoid {
            program: code.clone(),
            stage,
            on,
        }],
    })?;
    let awarded: u64 = parts.iter().map(|p| p.shares).sum();
    let sp = programs::record_stage(tx, program.id, Some((stage, price)), on, None)?;
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
    let awarded_proposals = awarded_proposals(tx.conn(), program, stage, &awards)?;
    let later_stage_pending =
        stage.leaves_a_later_stage(program.program.later_stages.last, conclusion.leftover);
    Ok(Concluded {
        later_stage_pending,
        conclusion,
        awards,
        parts,
        stage_price: Some((sp, Some(price))),
        evaluations: evals,
        awarded: awarded_proposals,
    })
}

/// Declares the stage void (desierta) on `on`: refused while a tranche has a valid proposal. Its
/// shares pass to the next stage; when it is the program's last stage, the register records
/// that there is no Art. 9 (iii) price (as `program stage-price --stage none` does).
pub fn desert(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: Stage,
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
        evaluate(tx.snapshot(), program, stage, rates)?
    };
    check_decision_day(program, stage, &evals, on)?;
    if on <= available.since {
        let (since, since_es) = (available.since, fecha(available.since));
        return Err(Refusal::value(
            Field::StageDecisionDate,
            on,
            said!(
                register_stage::previous_stage_ended_decide_later_day,
                since,
                since_es
            ),
        )
        .into());
    }
    if let Some(e) = evals
        .iter()
        .find(|e| !matches!(e.standing, Standing::Desert))
    {
        let best: Vec<&str> = e
            .best()
            .iter()
            .map(|x| x.proposal.row.reference.as_str())
            .collect();
        let (tranche, best) = (e.tranche.tranche, best.join(", "));
        return Err(Refusal::Waits {
            reason: said!(
                register_stage::tranche_has_valid_proposal_stage_with,
                tranche,
                best
            ),
            first: vec![Act::AdjudicateStage {
                program: code.clone(),
                stage,
                on,
            }],
        }
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
        Some(programs::record_stage(tx, program.id, None, on, None)?)
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
    let later_stage_pending =
        stage.leaves_a_later_stage(program.program.later_stages.last, conclusion.leftover);
    Ok(Concluded {
        later_stage_pending,
        conclusion,
        awards,
        parts: Vec::new(),
        stage_price: sp.map(|id| (id, None)),
        evaluations: evals,
        awarded: Vec::new(),
    })
}

/// A concluded stage read back with its evaluation, for the acta.
pub fn concluded(
    conn: &Connection,
    program: &StoredProgram,
    stage: Stage,
    rates: &RateSeries,
) -> Result<Concluded> {
    let conclusion = store::conclusion(conn, program.id, stage)?.ok_or_else(|| {
        let (name, name_es, code) = (stage.name(), stage.name_es(), &program.program.code);
        Refusal::Rule(said!(
            register_stage::stage_has_not_been_adjudicated_nor,
            name,
            code,
            name_es
        ))
    })?;
    let awards = store::awards(conn, conclusion.id)?;
    let evaluations = if store::tranches(conn, program.id, stage)?.is_empty() {
        Vec::new()
    } else {
        Snapshot::read(conn, |s| evaluate(s, program, stage, rates))?
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
    let awarded = awarded_proposals(conn, program, stage, &awards)?;
    let later_stage_pending =
        stage.leaves_a_later_stage(program.program.later_stages.last, conclusion.leftover);
    Ok(Concluded {
        later_stage_pending,
        conclusion,
        awards,
        parts,
        stage_price,
        evaluations,
        awarded,
    })
}

/// How a stage's stored conclusion differs from what its stored records give now (found by
/// [`recheck`]); each front end words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Discrepancy {
    /// The conclusion records `awards` tranche awards; the stage has `tranches` tranches.
    AwardCount { awards: usize, tranches: usize },
    /// A tranche has no stored award.
    NoAward { tranche: u32 },
    /// The award records other shares than the tranche offers.
    Shares {
        tranche: u32,
        recorded: u64,
        offered: u64,
    },
    /// The stored proposals are tied (between these references), yet a decision is recorded.
    StillTied { tranche: u32, between: Vec<String> },
    /// No stored proposal is valid, yet the award names a winner.
    WinnerOfNone { tranche: u32 },
    /// The stored proposals give `winner`; the award records another.
    OtherWinner { tranche: u32, winner: String },
    /// The award's price differs from the winning proposal's.
    Price {
        tranche: u32,
        recorded: Option<Decimal>,
        given: Decimal,
    },
    /// The award's value differs from the criterion's.
    Value {
        tranche: u32,
        recorded: Option<Decimal>,
        given: Option<Decimal>,
    },
    /// The award's draw differs from the register's.
    Draw {
        tranche: u32,
        recorded: Option<i64>,
        given: Option<i64>,
    },
    /// The award's rate (% EA) differs from the criterion's.
    Rate {
        tranche: u32,
        recorded: Decimal,
        given: Option<Decimal>,
    },
    /// The conclusion records `recorded` shares awarded; its awards add up to `sum`.
    Awarded { recorded: u64, sum: u64 },
    /// Offered, awarded and left over do not add up.
    NotAddingUp {
        offered: u64,
        awarded: u64,
        leftover: u64,
    },
    /// The conclusion's stage price differs from its awards'.
    StagePrice {
        recorded: Option<Decimal>,
        given: Option<Decimal>,
    },
    /// A recorded draw of the stage does not verify.
    DrawRecord {
        draw: i64,
        tranche: u32,
        found: DrawDiscrepancy,
    },
}

/// Reads a concluded stage back and recomputes what its acta states from the stored records: the
/// evaluation of the stored proposals (improvements and draws counted) must give each stored
/// award (winner, price, value, rate, draw), the awarded shares and leftover must add up, the
/// stage price must be the share-weighted average of the awards, and every recorded draw must
/// recompute. The differences come back in words (empty: consistent).
pub fn recheck(
    conn: &Connection,
    program: &StoredProgram,
    stage: Stage,
    rates: &RateSeries,
) -> Result<(Concluded, Vec<Discrepancy>)> {
    let c = concluded(conn, program, stage, rates)?;
    let k = &c.conclusion;
    let mut diffs = Vec::new();
    if !c.evaluations.is_empty() && c.awards.len() != c.evaluations.len() {
        diffs.push(Discrepancy::AwardCount {
            awards: c.awards.len(),
            tranches: c.evaluations.len(),
        });
    }
    for e in &c.evaluations {
        let t = e.tranche.tranche;
        let Some(a) = c.awards.iter().find(|a| a.tranche == t) else {
            diffs.push(Discrepancy::NoAward { tranche: t });
            continue;
        };
        if a.shares != e.tranche.shares {
            diffs.push(Discrepancy::Shares {
                tranche: t,
                recorded: a.shares,
                offered: e.tranche.shares,
            });
        }
        match &e.standing {
            Standing::Tie(v) => diffs.push(Discrepancy::StillTied {
                tranche: t,
                between: e.references(v).iter().map(|r| r.to_string()).collect(),
            }),
            Standing::Desert => {
                if a.proposal_id.is_some() || a.price.is_some() {
                    diffs.push(Discrepancy::WinnerOfNone { tranche: t });
                }
            }
            Standing::Winner { proposal, draw } => {
                let (p, ev) = (e.proposal(*proposal), e.evaluated(*proposal));
                if a.proposal_id != Some(p.id) {
                    diffs.push(Discrepancy::OtherWinner {
                        tranche: t,
                        winner: p.row.reference.clone(),
                    });
                }
                if a.price != Some(ev.price) {
                    diffs.push(Discrepancy::Price {
                        tranche: t,
                        recorded: a.price,
                        given: ev.price,
                    });
                }
                if a.value != ev.value {
                    diffs.push(Discrepancy::Value {
                        tranche: t,
                        recorded: a.value,
                        given: ev.value,
                    });
                }
                if a.draw_id != *draw {
                    diffs.push(Discrepancy::Draw {
                        tranche: t,
                        recorded: a.draw_id,
                        given: *draw,
                    });
                }
            }
        }
        let given = e.rate.as_ref().map(|r| r.rate_ea_pct);
        if let Some(r) = a.rate_ea_pct
            && Some(r) != given
        {
            diffs.push(Discrepancy::Rate {
                tranche: t,
                recorded: r,
                given,
            });
        }
    }
    let awarded: u64 = c.parts.iter().map(|x| x.shares).sum();
    if awarded != k.awarded {
        diffs.push(Discrepancy::Awarded {
            recorded: k.awarded,
            sum: awarded,
        });
    }
    if k.offered.checked_sub(k.awarded) != Some(k.leftover) {
        diffs.push(Discrepancy::NotAddingUp {
            offered: k.offered,
            awarded: k.awarded,
            leftover: k.leftover,
        });
    }
    let price = stage_price(&c.parts);
    if price != k.price {
        diffs.push(Discrepancy::StagePrice {
            recorded: k.price,
            given: price,
        });
    }
    if !store::draws(conn, program.id, stage)?.is_empty() {
        for d in verify_draws(conn, program, stage, rates)? {
            for found in d.differences {
                diffs.push(Discrepancy::DrawRecord {
                    draw: d.stored.id,
                    tranche: d.stored.tranche,
                    found,
                });
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
