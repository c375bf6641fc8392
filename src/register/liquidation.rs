//! Pricing a stored breach: the facts the register holds about it, the fine as of a date (live),
//! and the immutable liquidation that keeps every input, stored and reproduced through
//! [`crate::liquidation`]'s typed record.

use super::{Error, Refusal, Result};
use crate::calendar::FineScale;
use crate::fine::{self, Basis, FineCase, Outcome, Payment, ReferencePrices, StagePrice};
use crate::lang::momento;
use crate::liquidation::{
    AdjudicationFacts, BracketTerm, BreachFacts, DayAfter, HolderFacts, LiquidationInputs,
    LiquidationResult, PaymentFact, PriceFacts, ProgramTerms, RateFact, StageEntry,
};
use crate::rates::RateSeries;
use crate::said;
use crate::store::adjudications::{self, Adjudication};
use crate::store::breaches::{self, Breach, NewLiquidation};
use crate::store::programs::{self, StoredProgram};
use crate::store::{self, StoreError, Tx};
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

/// Everything needed to price one stored breach.
pub struct Facts {
    pub breach: Breach,
    pub adjudication: Adjudication,
    pub program: StoredProgram,
    pub stage: StagePrice,
    /// The later stages' prices `stage` is the highest of (empty unless it counts and is known).
    pub stage_prices: Vec<StageEntry>,
    pub case: FineCase,
    /// Payments dated on or before the until date, in the order recorded.
    pub payments: Vec<(i64, Payment)>,
}

/// The engine's view of a breach under its program: only the reference prices the program lists
/// count. `adjudication` is (date, price per share); `breach` is (date, shares, consideration
/// per share).
pub fn fine_case(
    program: &crate::program::Program,
    scale: FineScale,
    stage: StagePrice,
    adjudication: (NaiveDate, Decimal),
    breach: (NaiveDate, u64, Option<Decimal>),
) -> FineCase {
    FineCase {
        adjudicated: adjudication.0,
        breach_date: breach.0,
        shares: breach.1,
        prices: ReferencePrices {
            acquisition: adjudication.1,
            transfer: if program.uses(Basis::Transfer) {
                breach.2
            } else {
                None
            },
            stage: program.stage_counted(stage),
        },
        scale,
    }
}

/// Gathers the stored facts of a breach; payments after `until` are left out.
pub fn facts(conn: &Connection, breach_id: i64, until: NaiveDate) -> Result<Facts> {
    let breach = breaches::get(conn, breach_id)?;
    if let Some(v) = &breach.void {
        let (at, by, why) = (&v.at, &v.by, &v.reason);
        let at_es = momento(at);
        return Err(Refusal::Rule(said!(
            register_fines::breach_was_voided_by_has_no,
            breach_id,
            at,
            by,
            why,
            at_es
        ))
        .into());
    }
    let adjudication = adjudications::get(conn, breach.adjudication_id)?;
    let program = programs::by_id(conn, adjudication.program_id)?;
    let (case, stage, stage_prices) = case_of(
        conn,
        &program,
        &adjudication,
        (breach.breach_date, breach.shares, breach.transfer_price()),
    )?;
    let payments = payments_until(conn, breach_id, until)?;
    Ok(Facts {
        breach,
        adjudication,
        program,
        stage,
        stage_prices,
        case,
        payments,
    })
}

/// The case of a breach of `adjudication` (date, shares, consideration per share), recorded or
/// not: the program's scale and the stage price in force, with the later stages' prices that
/// price is the highest of (empty unless it counts and is known).
fn case_of(
    conn: &Connection,
    program: &StoredProgram,
    adjudication: &Adjudication,
    breach: (NaiveDate, u64, Option<Decimal>),
) -> Result<(FineCase, StagePrice, Vec<StageEntry>)> {
    let (stage, stages) = programs::stage_price_and_stages(conn, program.id)?;
    let case = fine_case(
        &program.program,
        program.scale()?,
        stage,
        (adjudication.adjudicated_on, adjudication.price_per_share),
        breach,
    );
    let stage_prices = match case.prices.stage {
        StagePrice::Known(_) | StagePrice::SoFar(_) => stages
            .into_iter()
            .map(|(stage, price)| StageEntry { stage, price })
            .collect(),
        _ => Vec::new(),
    };
    Ok((case, stage, stage_prices))
}

/// Whether stored liquidation `id` must be made again (PROVISIONAL_STALE, SPEC §8): it was
/// `provisional` and the stage price the engine would use now (`now`, from
/// [`programs::stage_price`]) differs from the one it used, final or so far
/// ([`StagePrice::superseded_by`]). The check, the breach page and `breach show` ask this, and
/// only this. The price it used is read only when it decides: a provisional liquidation used a
/// pending price, so any final one now supersedes it; and while nothing is recorded (`now`
/// pending) it used pending too, a record never being removed.
pub fn stale(
    conn: &Connection,
    id: i64,
    provisional: bool,
    now: StagePrice,
) -> std::result::Result<bool, StoreError> {
    if !provisional {
        return Ok(false);
    }
    let used = match now {
        StagePrice::SoFar(_) => breaches::liquidation_stage(conn, id)?,
        StagePrice::Pending | StagePrice::Known(_) | StagePrice::Absent => StagePrice::Pending,
    };
    Ok(used.superseded_by(now))
}

/// The fine a breach not recorded yet would carry as of `until`, under its program's convention
/// and without payments (the web's preview before recording it): its case is assembled as
/// [`facts`] assembles a stored breach's.
pub fn preview(
    conn: &Connection,
    new: &breaches::NewBreach<'_>,
    until: NaiveDate,
    rates: &RateSeries,
) -> Result<Outcome> {
    let adjudication = adjudications::get(conn, new.adjudication_id)?;
    let program = programs::by_id(conn, adjudication.program_id)?;
    let transfer = breaches::transfer_price(
        new.consideration_per_share,
        new.consideration_total,
        new.shares,
    );
    let (case, _, _) = case_of(
        conn,
        &program,
        &adjudication,
        (new.breach_date, new.shares, transfer),
    )?;
    Ok(fine::liquidate(
        &case,
        until,
        &[],
        program.program.convention,
        rates,
    )?)
}

/// The payments against a breach dated on or before `until`, in the order recorded, with their ids.
pub fn payments_until(
    conn: &Connection,
    breach_id: i64,
    until: NaiveDate,
) -> store::Result<Vec<(i64, Payment)>> {
    Ok(breaches::payments(conn, breach_id)?
        .into_iter()
        .filter(|sp| sp.paid_on <= until)
        .map(|sp| {
            (
                sp.id,
                Payment {
                    date: sp.paid_on,
                    amount: sp.amount,
                },
            )
        })
        .collect())
}

/// Prices a stored breach as of `until` with the payments recorded up to then.
pub fn price(
    facts: &Facts,
    until: NaiveDate,
    convention: fine::Convention,
    rates: &RateSeries,
) -> Result<Outcome> {
    Ok(fine::liquidate(
        &facts.case,
        until,
        &payments_of(facts),
        convention,
        rates,
    )?)
}

/// The payments of a breach's facts, as the engine takes them.
fn payments_of(facts: &Facts) -> Vec<Payment> {
    facts.payments.iter().map(|(_, p)| p.clone()).collect()
}

/// [`price`], run to the day the fine was paid off when a rate missing after that day keeps it
/// from running to `until` ([`fine::settled`]); with the day it runs to.
pub fn settle(
    facts: &Facts,
    until: NaiveDate,
    convention: fine::Convention,
    rates: &RateSeries,
) -> Result<(Outcome, NaiveDate)> {
    Ok(fine::settled(
        &facts.case,
        until,
        &payments_of(facts),
        convention,
        rates,
    )?)
}

/// The program's default convention.
pub fn default_convention(facts: &Facts) -> Result<fine::Convention> {
    Ok(facts.program.program.convention)
}

/// The inputs of a liquidation, complete enough to reproduce it without the register, as stored.
pub fn inputs_json(
    facts: &Facts,
    until: NaiveDate,
    convention: fine::Convention,
    rates: &RateSeries,
) -> String {
    let breach_date = facts.breach.breach_date;
    let mut prices = PriceFacts::from(&facts.case.prices);
    prices.stages = facts.stage_prices.clone();
    let day_after = match until.succ_opt().and_then(|d| rates.period_on(d)) {
        Some(p) => DayAfter::Certified { rate: p.into() },
        None => DayAfter::Uncertified,
    };
    LiquidationInputs {
        program: (&facts.program).into(),
        adjudication: (&facts.adjudication).into(),
        breach: (&facts.breach).into(),
        prices,
        convention,
        until,
        payments: facts.payments.iter().map(PaymentFact::from).collect(),
        rates_source: rates.source().to_string(),
        rates: rates
            .periods()
            .iter()
            .filter(|r| r.valid_to > breach_date && r.valid_from <= until)
            .map(RateFact::from)
            .collect(),
        day_after: Some(day_after),
    }
    .to_json()
}

/// Fingerprint of a stored liquidation: SHA-256 of its inputs and result as stored.
pub fn fingerprint(inputs_json: &str, result_json: &str) -> String {
    store::sha256_hex(format!("{inputs_json}\n{result_json}").as_bytes())
}

/// Computes and stores an immutable liquidation of a breach as of `until` (or as of the day its
/// fine was paid off, when a rate after that day is missing: [`settle`]); returns its id and the
/// outcome, whose date says which.
pub fn liquidate(
    tx: &mut Tx<'_>,
    breach_id: i64,
    until: NaiveDate,
    convention: Option<fine::Convention>,
    rates: &RateSeries,
) -> Result<(i64, Outcome)> {
    let facts = facts(tx.conn(), breach_id, until)?;
    let convention = match convention {
        Some(c) => c,
        None => default_convention(&facts)?,
    };
    // a fine paid off runs to the day it was paid off when a later rate is missing
    let (outcome, until) = settle(&facts, until, convention, rates)?;
    let inputs = inputs_json(&facts, until, convention, rates);
    let result = LiquidationResult::from(&outcome).to_json();
    let (provisional, total_due) = match &outcome {
        Outcome::Liquidated(l) => (l.provisional, l.total_due),
        Outcome::NotApplicable(_) => (false, Decimal::ZERO),
    };
    let sha = fingerprint(&inputs, &result);
    let id = breaches::insert_liquidation(
        tx,
        &NewLiquidation {
            breach_id,
            until,
            convention,
            provisional,
            total_due,
            inputs_json: &inputs,
            result_json: &result,
            sha256: &sha,
        },
    )?;
    Ok((id, outcome))
}

/// A stored liquidation of a breach as of `until` under the program's convention: the existing one
/// when the register would compute exactly the same inputs and result again, else a new one.
pub fn liquidation_for(
    tx: &mut Tx<'_>,
    breach_id: i64,
    until: NaiveDate,
    rates: &RateSeries,
) -> Result<(i64, Outcome)> {
    let f = facts(tx.conn(), breach_id, until)?;
    let convention = default_convention(&f)?;
    let outcome = price(&f, until, convention, rates)?;
    let inputs = inputs_json(&f, until, convention, rates);
    let result = LiquidationResult::from(&outcome).to_json();
    if let Some(existing) = breaches::liquidations(tx.conn(), Some(breach_id))?
        .into_iter()
        .find(|l| l.until == until && l.inputs_json == inputs && l.result_json == result)
    {
        return Ok((existing.id, outcome));
    }
    liquidate(tx, breach_id, until, Some(convention), rates)
}

/// Recomputes a stored liquidation from its own stored inputs (not from the register's current
/// state) and returns the result JSON it gives now; equal to the stored one when nothing changed.
pub fn reproduce(inputs_json: &str) -> Result<String> {
    Ok(LiquidationResult::from(&recompute(inputs_json)?).to_json())
}

/// The outcome a stored liquidation's inputs give.
pub fn recompute(inputs_json: &str) -> Result<Outcome> {
    let bad = |m: String| Error::Store(StoreError::Corrupt(format!("liquidation inputs: {m}")));
    let inputs = LiquidationInputs::from_json(inputs_json).map_err(|e| bad(e.to_string()))?;
    let case = inputs.fine_case().map_err(bad)?;
    let rates = inputs.rate_series().map_err(bad)?;
    Ok(fine::liquidate(
        &case,
        inputs.until,
        &inputs.fine_payments(),
        inputs.convention,
        &rates,
    )?)
}

/// Total due on a breach's fine as of `on`, with the payments recorded up to then, under the
/// program's convention.
pub fn outstanding(
    conn: &Connection,
    breach_id: i64,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Decimal> {
    let facts = facts(conn, breach_id, on)?;
    let convention = default_convention(&facts)?;
    let until = on.max(facts.breach.breach_date);
    let payments: Vec<Payment> = facts.payments.iter().map(|(_, p)| p.clone()).collect();
    Ok(fine::balance(
        &facts.case,
        until,
        &payments,
        convention,
        rates,
    )?)
}

// The stored records as the liquidation's facts (the record's format is `crate::liquidation`'s;
// the conversion lives here, above both the store and that pure module).
impl From<&StoredProgram> for ProgramTerms {
    fn from(s: &StoredProgram) -> Self {
        let p = &s.program;
        ProgramTerms {
            code: p.code.clone(),
            sha256: s.sha256.clone(),
            decree: p.decree.clone(),
            fine_article: p.fine_article.clone(),
            lockup_months: p.lockup_months,
            brackets: p
                .brackets
                .iter()
                .map(|b| BracketTerm {
                    upto_months: b.upto_months,
                    percent: b.percent,
                })
                .collect(),
            reference_prices: p
                .reference_prices
                .iter()
                .map(|b| b.as_str().to_string())
                .collect(),
        }
    }
}

impl From<&Adjudication> for AdjudicationFacts {
    fn from(a: &Adjudication) -> Self {
        AdjudicationFacts {
            id: a.id,
            adjudicated_on: a.adjudicated_on,
            shares: a.shares,
            price_per_share: a.price_per_share,
            holder: HolderFacts {
                doc_type: a.holder.doc_type.to_string(),
                doc_number: a.holder.doc_number.clone(),
                name: a.holder.name.clone(),
            },
        }
    }
}

impl From<&Breach> for BreachFacts {
    fn from(b: &Breach) -> Self {
        BreachFacts {
            id: b.id,
            kind: b.kind,
            breach_date: b.breach_date,
            shares: b.shares,
            consideration_per_share: b.consideration_per_share,
            consideration_total: b.consideration_total,
        }
    }
}
