//! A tie at the best value: the improvement round (only the tied, once, until the draw) and the
//! draw that decides a persisting tie, and its re-check from the record.

use super::evaluate::{Standing, evaluate, proposal_by_reference};
use super::refuse_if_concluded;
use crate::lang::momento;
use crate::later_stages::Stage;
use crate::money::format_cop;
use crate::offering::stage::{self as core, Draw};
use crate::rates::RateSeries;
use crate::register::Act;
use crate::register::{Field, Refusal, Result};
use crate::said;
use crate::store::programs::StoredProgram;
use crate::store::stage::{self as store, NewDraw, StoredDraw};
use crate::store::{Snapshot, Tx};
use rusqlite::Connection;
use rust_decimal::Decimal;

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
    stage: Stage,
    reference: &str,
    price: Decimal,
    rates: &RateSeries,
) -> Result<Improved> {
    let conn = tx.conn();
    refuse_if_concluded(conn, program, stage)?;
    let evals = evaluate(tx.snapshot(), program, stage, rates)?;
    let (name, name_es, code) = (stage.name(), stage.name_es(), &program.program.code);
    let (e, p) = proposal_by_reference(conn, &evals, reference)?.ok_or_else(|| {
        Refusal::value(
            Field::Proposal,
            reference,
            said!(register_stage::not_proposal_stage, name, code, name_es),
        )
    })?;
    let invited = e
        .named_id(p.id)
        .filter(|n| e.original_tie.contains(&n.index));
    let Some(invited) = invited else {
        // its place does not change its cause (the rule reads no place)
        let (why, porque) = match &e.judge(0, &p).cause {
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
                register_stage::only_proposals_tied_at_best_value,
                why,
                porque
            ),
        )
        .into());
    };
    let tranche = e.tranche.tranche;
    if let Some(d) = &e.draw {
        let (at, draw) = (&d.created_at, d.id);
        let at_es = momento(at);
        return Err(Refusal::value(
            Field::Proposal,
            reference,
            said!(
                register_stage::improvement_round_tranche_closed_when_tie,
                tranche,
                at,
                draw,
                at_es
            ),
        )
        .into());
    }
    if let Some(m) = &invited.improvement {
        let (offered, at) = (format_cop(m.price), &m.created_at);
        let at_es = momento(at);
        return Err(Refusal::value(
            Field::Proposal,
            reference,
            said!(
                register_stage::already_answered_invitation_with_bidder_answers,
                offered,
                at,
                at_es
            ),
        )
        .into());
    }
    if price <= Decimal::ZERO {
        return Err(Refusal::value(
            Field::ImprovedPrice,
            price,
            said!(register_stage::must_greater_than_zero),
        )
        .into());
    }
    let original = invited.proposal.row.price_per_share;
    let counted = price > original;
    let proposal_id = invited.proposal.id;
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
    stage: Stage,
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
            said!(register_stage::must_public_entropy_named_e_g),
        )
        .into());
    }
    let evals = evaluate(tx.snapshot(), program, stage, rates)?;
    let e = evals
        .iter()
        .find(|e| e.tranche.tranche == tranche)
        .ok_or_else(|| {
            let (name, name_es) = (stage.name(), stage.name_es());
            Refusal::value(
                Field::Tranche,
                tranche,
                said!(register_stage::stage_has_no_such_tranche, name, name_es),
            )
        })?;
    if let Some(d) = &e.draw {
        let (draw, seed, winner, code) = (d.id, &d.seed, &d.winner, &program.program.code);
        return Err(Refusal::Waits {
            reason: said!(
                register_stage::tranche_was_already_drawn_draw_seed,
                tranche,
                draw,
                seed,
                winner
            ),
            first: vec![Act::VerifyDraws {
                program: code.to_string(),
                stage,
            }],
        }
        .into());
    }
    let tied = match &e.standing {
        Standing::Tie(v) => v.clone(),
        Standing::Winner { proposal, .. } => {
            let best = &e.proposal(*proposal).row.reference;
            return Err(Refusal::Rule(said!(
                register_stage::tranche_has_no_tie_draw_has,
                tranche,
                best
            ))
            .into());
        }
        Standing::Desert => {
            return Err(Refusal::Rule(said!(
                register_stage::tranche_has_no_valid_proposal_nothing,
                tranche
            ))
            .into());
        }
    };
    let refs = e.references(&tied);
    let d = core::draw(seed, &program.program.code, stage, tranche, &refs)
        .expect("a tie has two proposals or more");
    let proposal_id = tied
        .iter()
        .map(|&i| e.proposal(i))
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
    /// Every difference between the record and the recomputation (empty: verified).
    pub differences: Vec<DrawDiscrepancy>,
}

/// How a recorded draw differs from its recomputation; each front end words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawDiscrepancy {
    /// The register shows no tie in the draw's tranche any more.
    NoTie { tranche: u32 },
    /// The text hashed differs from the one the record gives.
    Text { hashed: String, recomputed: String },
    /// The digest recorded differs from SHA-256 of the text.
    Digest {
        recorded: String,
        recomputed: String,
    },
    /// The number and place recorded differ from the recomputed ones.
    NumberAndPlace {
        number: String,
        place: usize,
        recomputed_number: u64,
        recomputed_place: usize,
    },
    /// The winner recorded differs from the draw's.
    Winner {
        recorded: String,
        recomputed: String,
    },
}

/// Recomputes every recorded draw of the stage from its record (the seed, the program, the
/// stage, the tranche and the tie the register shows) and compares.
pub fn verify_draws(
    conn: &Connection,
    program: &StoredProgram,
    stage: Stage,
    rates: &RateSeries,
) -> Result<Vec<DrawCheck>> {
    let draws = store::draws(conn, program.id, stage)?;
    if draws.is_empty() {
        let (name, name_es, code) = (stage.name(), stage.name_es(), &program.program.code);
        return Err(Refusal::Rule(said!(
            register_stage::stage_has_no_recorded_draw,
            name,
            code,
            name_es
        ))
        .into());
    }
    let evals = Snapshot::read(conn, |s| evaluate(s, program, stage, rates))?;
    let mut out = Vec::new();
    for d in draws {
        let e = evals.iter().find(|e| e.tranche.tranche == d.tranche);
        let tied: Vec<&str> = e
            .and_then(|e| e.outcome_tie().map(|t| e.references(&t)))
            .unwrap_or_default();
        let r = core::draw(&d.seed, &program.program.code, stage, d.tranche, &tied);
        let Some(r) = r else {
            out.push(DrawCheck {
                differences: vec![DrawDiscrepancy::NoTie { tranche: d.tranche }],
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
            differences.push(DrawDiscrepancy::Text {
                hashed: d.hashed_text.clone(),
                recomputed: r.text.clone(),
            });
        }
        if r.digest != d.digest {
            differences.push(DrawDiscrepancy::Digest {
                recorded: d.digest.clone(),
                recomputed: r.digest.clone(),
            });
        }
        if r.number.to_string() != d.number || r.index != d.winner_index {
            differences.push(DrawDiscrepancy::NumberAndPlace {
                number: d.number.clone(),
                place: d.winner_index,
                recomputed_number: r.number,
                recomputed_place: r.index,
            });
        }
        if r.winner != d.winner {
            differences.push(DrawDiscrepancy::Winner {
                recorded: d.winner.clone(),
                recomputed: r.winner.clone(),
            });
        }
        out.push(DrawCheck {
            stored: d,
            recomputed: r,
            differences,
        });
    }
    Ok(out)
}
