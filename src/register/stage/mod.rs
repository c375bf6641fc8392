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

mod conclude;
mod evaluate;
mod tie;

pub use conclude::{
    Concluded, Discrepancy, Part, adjudicate, concluded, desert, payment_due, recheck, stage_price,
};
pub use evaluate::{Each, Named, RateUsed, Row, Standing, TrancheEvaluation, evaluate};
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
                register_stage::program_provides_stages_2_after_first,
                code,
                last
            ),
        )
        .into());
    }
    let Some(previous) = stage.previous() else {
        let first = super::external::first_stage(conn, program)?.ok_or_else(|| Refusal::Waits {
            reason: said!(register_stage::first_stage_has_not_been_adjudicated, code),
            first: vec![
                Act::AdjudicateOffer {
                    program: code.to_string(),
                },
                Act::RecordExternal {
                    program: code.to_string(),
                },
            ],
        })?;
        if first.leftover == 0 {
            let on = first.adjudicated_on;
            let on_es = fecha(on);
            return Err(Refusal::Rule(said!(
                register_stage::first_stage_placed_every_share_adjudicated,
                code,
                on,
                on_es
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
            register_stage::stage_has_not_ended_third_stage,
            prev_name,
            code,
            prev_es
        ))
    })?;
    if prev.leftover == 0 {
        let on = prev.decided_on;
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            register_stage::stage_sold_every_share_nothing_left,
            prev_name,
            code,
            on,
            stage,
            prev_es,
            on_es
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
            register_stage::stage_was_art_3_stage_exhausted,
            name,
            code,
            how,
            on,
            name_es,
            como,
            on_es
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
            said!(register_stage::must_at_least_1_tranche_offers),
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
                register_stage::already_open_shares_by_next_tranche,
                shares,
                opens,
                closes,
                by,
                next,
                shares_es,
                opens_es,
                closes_es
            ),
        )
        .into());
    }
    if o.tranche != next {
        return Err(Refusal::value(
            Field::Tranche,
            o.tranche,
            said!(register_stage::tranches_opened_order_next_one, next),
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
                register_stage::stage_can_offer_more_share_s,
                left,
                all,
                held,
                left_es,
                all_es,
                tienen
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
                register_stage::stage_follows_previous_one_which_ended,
                since,
                since_es
            ),
        )
        .into());
    }
    if o.closes < o.opens {
        let (opens, opens_es) = (o.opens, fecha(o.opens));
        return Err(Refusal::value(
            Field::StageCloses,
            o.closes,
            said!(register_stage::before_opening, opens, opens_es),
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

/// Imports a stage's proposals file (`bytes`, read by `offering::proposals`) in the caller's
/// transaction: all of it, or nothing with every bad row by line. Each good row is judged against
/// the register and written as it is read (memory holds a group of 32 rows and a blob of their
/// prints, not the file's rows: `store::ProposalWriter`; a bad row anywhere then rolls the
/// transaction back, the prints stored so far with it), `seen` shown each. The same file twice adds
/// nothing, unless the stage is concluded: that is refused first. The stage must have open
/// tranches, no improvement or draw yet (the proposals were read), and not be concluded.
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: Stage,
    file: (&str, &str, &str),
    bytes: &[u8],
    seen: &mut dyn FnMut(&ProposalRow),
) -> Result<Imported> {
    let conn = tx.conn();
    let code = &program.program.code;
    // a concluded stage first: the same file again there would be refused anyway, and "already
    // imported" alone did not say that nothing more can be done in the stage
    refuse_if_concluded(conn, program, stage)?;
    if let Some(prior) = store::prior_import(conn, program.id, stage, file.1)? {
        return Ok(Imported::AlreadyImported(prior));
    }
    available(conn, program, stage)?;
    let tranches = store::tranches(conn, program.id, stage)?;
    let (name, name_es) = (stage.name(), stage.name_es());
    if tranches.is_empty() {
        return Err(Refusal::Waits {
            reason: said!(
                register_stage::stage_has_no_open_tranche_proposals,
                name,
                code,
                name_es
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
            register_stage::proposals_stage_were_read_tie_round,
            name,
            code,
            name_es
        ))
        .into());
    }
    // with no proposal stored before, a row's reference cannot be (the file's own are unique)
    let earlier = store::any_proposal(conn, program.id, stage)?;
    store::with_import_cache(tx, |tx| {
        write_rows(
            tx,
            program,
            stage,
            (file, bytes),
            (&tranches, earlier),
            seen,
        )
    })
}

/// The rows of `bytes` judged against the register and written as they are read, for
/// [`import`].
fn write_rows(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    stage: Stage,
    (file, bytes): ((&str, &str, &str), &[u8]),
    (tranches, earlier): (&[store::Tranche], bool),
    seen: &mut dyn FnMut(&ProposalRow),
) -> Result<Imported> {
    let import_id = store::begin_proposals(tx, program.id, stage, file)?;
    let mut writer = store::ProposalWriter::new(tx, program.id, stage, import_id)?;
    let mut problems = Vec::new();
    let (_, file_problems) =
        crate::offering::proposals::each::<crate::store::StoreError>(bytes, |r| {
            seen(&r);
            let conn = tx.conn();
            if !tranches.iter().any(|t| t.tranche == r.tranche) {
                let (name, nombre, n) = (stage.name(), stage.name_es(), tranches.len());
                problems.push(RowError {
                    line: r.line,
                    field: "tranche".into(),
                    value: r.tranche.to_string(),
                    reason: said!(register_stage::stage_has_tranche_s_1_open, name, n, nombre),
                    remedy: None,
                });
            }
            let stored = if earlier {
                store::stored_reference(conn, program.id, stage, &r.reference)?
            } else {
                None
            };
            if let Some((id, import)) = stored {
                problems.push(RowError {
                    line: r.line,
                    field: "proposal".into(),
                    value: r.reference.clone(),
                    reason: said!(
                        register_stage::already_registered_proposal_proposals_import_one,
                        id,
                        import
                    ),
                    remedy: None,
                });
            }
            if problems.is_empty() {
                writer.push(r)?;
            }
            Ok(())
        })?;
    if !file_problems.is_empty() || !problems.is_empty() {
        let mut all = file_problems;
        all.append(&mut problems);
        return Err(crate::store::rejected(all, Vec::new()).headed(bytes).into());
    }
    if writer.rows() == 0 {
        return Err(Refusal::Rule(said!(register_stage::file_holds_no_proposal)).into());
    }
    let stored = writer.end()?;
    Ok(Imported::Added(store::seal_proposals(tx, stored)?))
}
