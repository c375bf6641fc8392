//! The register's rules on top of the store and the fine engine: what a breach may be, pricing a
//! stored breach (live or as an immutable liquidation that keeps every input), and when a pledge
//! may be released. No clap and no printing.

use crate::calendar::{FineScale, Placement};
use crate::fine::{
    self, Basis, FineCase, FineError, Outcome, Payment, ReferencePrices, StagePrice,
};
use crate::rates::{RatePeriod, RateSeries};
use crate::report::liquidation::to_json;
use crate::store::adjudications::{self, Adjudication};
use crate::store::breaches::{self, Breach, NewBreach, NewLiquidation};
use crate::store::pledges;
use crate::store::programs::{self, StoredProgram};
use crate::store::{self, StoreError, Tx};
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::fmt;

/// Errors of the register's rules.
#[derive(Debug)]
pub enum Error {
    Store(StoreError),
    Fine(FineError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Store(e) => e.fmt(f),
            Error::Fine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        Error::Store(e)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Store(StoreError::Sqlite(e))
    }
}

impl From<FineError> for Error {
    fn from(e: FineError) -> Self {
        Error::Fine(e)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

fn refused(message: String) -> Error {
    Error::Store(StoreError::Refused(message))
}

/// Shares of an adjudication not yet covered by a (non-void) breach.
pub fn unbreached_shares(conn: &Connection, adjudication: &Adjudication) -> Result<u64> {
    let breached: u64 = breaches::list(conn, Some(adjudication.id), None)?
        .iter()
        .filter(|b| b.void.is_none())
        .map(|b| b.shares)
        .sum();
    Ok(adjudication.shares.saturating_sub(breached))
}

/// Records a breach after checking it against the adjudication and the program.
pub fn record_breach(tx: &mut Tx<'_>, b: &NewBreach<'_>) -> Result<i64> {
    let adj = adjudications::get(tx.conn(), b.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    if !program.program.breach_kinds.contains(&b.kind) {
        let kinds: Vec<&str> = program
            .program
            .breach_kinds
            .iter()
            .map(|k| k.as_str())
            .collect();
        return Err(refused(format!(
            "--kind {}: program {} does not list that breach kind; it lists {}",
            b.kind.as_str(),
            program.program.code,
            kinds.join(", ")
        )));
    }
    let scale = program.scale()?;
    match scale.place(adj.adjudicated_on, b.breach_date) {
        None => {
            return Err(refused(format!(
                "--date {}: is before the adjudication on {}; a breach can only follow the adjudication",
                b.breach_date, adj.adjudicated_on
            )));
        }
        Some(Placement::AfterLockup { lockup_end }) => {
            return Err(refused(format!(
                "--date {}: no fine applies: the lock-up of adjudication {} ended on {lockup_end} and the holder was free \
                 from {}; nothing was recorded",
                b.breach_date,
                adj.id,
                lockup_end.succ_opt().unwrap_or(lockup_end)
            )));
        }
        Some(Placement::Inside(_)) => {}
    }
    let remaining = unbreached_shares(tx.conn(), &adj)?;
    if b.shares > remaining {
        return Err(refused(format!(
            "--shares {}: adjudication {} has {} shares of which {remaining} are not already covered by a recorded breach",
            b.shares, adj.id, adj.shares
        )));
    }
    if b.consideration_per_share.is_some() && b.consideration_total.is_some() {
        return Err(refused(
            "give --consideration-per-share or --consideration-total, not both".into(),
        ));
    }
    for (flag, v) in [
        ("--consideration-per-share", b.consideration_per_share),
        ("--consideration-total", b.consideration_total),
    ] {
        if let Some(v) = v
            && v < Decimal::ZERO
        {
            return Err(refused(format!("{flag} {v}: must not be negative")));
        }
    }
    if let Some(r) = b.registered_on
        && r < adj.adjudicated_on
    {
        return Err(refused(format!(
            "--registered-on {r}: is before the adjudication on {}",
            adj.adjudicated_on
        )));
    }
    Ok(breaches::record(tx, b)?)
}

/// Everything needed to price one stored breach.
pub struct Facts {
    pub breach: Breach,
    pub adjudication: Adjudication,
    pub program: StoredProgram,
    pub stage: StagePrice,
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
            stage: if program.uses(Basis::Stage) {
                stage
            } else {
                StagePrice::Absent
            },
        },
        scale,
    }
}

/// Gathers the stored facts of a breach; payments after `until` are left out.
pub fn facts(conn: &Connection, breach_id: i64, until: NaiveDate) -> Result<Facts> {
    let breach = breaches::get(conn, breach_id)?;
    if let Some(v) = &breach.void {
        return Err(refused(format!(
            "breach {breach_id} was voided on {} by {} ({}); it has no fine",
            v.at, v.by, v.reason
        )));
    }
    let adjudication = adjudications::get(conn, breach.adjudication_id)?;
    let program = programs::by_id(conn, adjudication.program_id)?;
    let stage = programs::stage_price(conn, program.id)?;
    let case = fine_case(
        &program.program,
        program.scale()?,
        stage,
        (adjudication.adjudicated_on, adjudication.price_per_share),
        (breach.breach_date, breach.shares, breach.transfer_price()),
    );
    let payments = payments_until(conn, breach_id, until)?;
    Ok(Facts {
        breach,
        adjudication,
        program,
        stage,
        case,
        payments,
    })
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
    let payments: Vec<Payment> = facts.payments.iter().map(|(_, p)| p.clone()).collect();
    Ok(fine::liquidate(
        &facts.case,
        until,
        &payments,
        convention,
        rates,
    )?)
}

/// The program's default convention.
pub fn default_convention(facts: &Facts) -> Result<fine::Convention> {
    Ok(facts.program.program.convention)
}

fn period_json(p: &RatePeriod) -> Value {
    json!({
        "valid_from": p.valid_from.to_string(),
        "valid_to": p.valid_to.to_string(),
        "ibc_ea_pct": p.ibc_ea_pct.map(|d| d.to_string()),
        "usury_ea_pct": p.usury_ea_pct.map(|d| d.to_string()),
        "moratorium_ea_pct": p.moratorium_ea_pct().to_string(),
        "resolution": p.resolution,
    })
}

fn stage_json(s: StagePrice) -> Value {
    match s {
        StagePrice::Absent => json!({"status": "none"}),
        StagePrice::Pending => json!({"status": "pending"}),
        StagePrice::Known(p) => json!({"status": "known", "price": p.to_string()}),
    }
}

/// The inputs of a liquidation, complete enough to reproduce it without the register.
pub fn inputs_json(
    facts: &Facts,
    until: NaiveDate,
    convention: fine::Convention,
    rates: &RateSeries,
) -> Value {
    let p = &facts.program.program;
    let a = &facts.adjudication;
    let b = &facts.breach;
    let used: Vec<Value> = rates
        .periods()
        .iter()
        .filter(|r| r.valid_to > b.breach_date && r.valid_from <= until)
        .map(period_json)
        .collect();
    json!({
        "program": {
            "code": p.code, "sha256": facts.program.sha256, "decree": p.decree, "fine_article": p.fine_article,
            "lockup_months": p.lockup_months,
            "brackets": p.brackets.iter().map(|x| json!({"upto_months": x.upto_months, "percent": x.percent.to_string()})).collect::<Vec<_>>(),
            "reference_prices": p.reference_prices,
        },
        "adjudication": {
            "id": a.id, "adjudicated_on": a.adjudicated_on.to_string(), "shares": a.shares,
            "price_per_share": a.price_per_share.to_string(),
            "holder": {"doc_type": a.holder.doc_type, "doc_number": a.holder.doc_number, "name": a.holder.name},
        },
        "breach": {
            "id": b.id, "kind": b.kind.as_str(), "breach_date": b.breach_date.to_string(), "shares": b.shares,
            "consideration_per_share": b.consideration_per_share.map(|d| d.to_string()),
            "consideration_total": b.consideration_total.map(|d| d.to_string()),
        },
        "prices": {
            "acquisition": facts.case.prices.acquisition.to_string(),
            "transfer": facts.case.prices.transfer.map(|d| d.to_string()),
            "stage": stage_json(facts.case.prices.stage),
        },
        "convention": convention.as_str(),
        "until": until.to_string(),
        "payments": facts.payments.iter().map(|(id, p)| json!({"id": id, "date": p.date.to_string(), "amount": p.amount.to_string()})).collect::<Vec<_>>(),
        "rates_source": rates.source(),
        "rates": used,
    })
}

/// Fingerprint of a stored liquidation: SHA-256 of its inputs and result as stored.
pub fn fingerprint(inputs_json: &str, result_json: &str) -> String {
    store::sha256_hex(format!("{inputs_json}\n{result_json}").as_bytes())
}

/// Computes and stores an immutable liquidation of a breach as of `until`; returns its id and
/// the outcome.
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
    let outcome = price(&facts, until, convention, rates)?;
    let inputs = inputs_json(&facts, until, convention, rates).to_string();
    let result = to_json(&outcome).to_string();
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
    let inputs = inputs_json(&f, until, convention, rates).to_string();
    let result = to_json(&outcome).to_string();
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
    Ok(to_json(&recompute(inputs_json)?).to_string())
}

/// The outcome a stored liquidation's inputs give.
pub fn recompute(inputs_json: &str) -> Result<Outcome> {
    let bad = |m: &str| Error::Store(StoreError::Corrupt(format!("liquidation inputs: {m}")));
    let v: Value = serde_json::from_str(inputs_json).map_err(|_| bad("not JSON"))?;
    let s = |x: &Value| {
        x.as_str()
            .map(str::to_string)
            .ok_or_else(|| bad("missing text"))
    };
    let d = |x: &Value| -> Result<NaiveDate> { store::date(&s(x)?, "date").map_err(Error::Store) };
    let dec =
        |x: &Value| -> Result<Decimal> { store::decimal(&s(x)?, "amount").map_err(Error::Store) };
    let opt_dec = |x: &Value| -> Result<Option<Decimal>> {
        if x.is_null() {
            Ok(None)
        } else {
            dec(x).map(Some)
        }
    };
    let brackets: Vec<crate::calendar::Bracket> = v["program"]["brackets"]
        .as_array()
        .ok_or_else(|| bad("brackets"))?
        .iter()
        .map(|b| {
            Ok(crate::calendar::Bracket {
                upto_months: b["upto_months"]
                    .as_u64()
                    .ok_or_else(|| bad("upto_months"))? as u32,
                percent: dec(&b["percent"])?,
            })
        })
        .collect::<Result<_>>()?;
    let lockup = v["program"]["lockup_months"]
        .as_u64()
        .ok_or_else(|| bad("lockup_months"))? as u32;
    let scale = FineScale::new(lockup, brackets).map_err(|e| bad(&e.to_string()))?;
    let stage = match v["prices"]["stage"]["status"].as_str() {
        Some("known") => StagePrice::Known(dec(&v["prices"]["stage"]["price"])?),
        Some("pending") => StagePrice::Pending,
        _ => StagePrice::Absent,
    };
    let case = FineCase {
        adjudicated: d(&v["adjudication"]["adjudicated_on"])?,
        breach_date: d(&v["breach"]["breach_date"])?,
        shares: v["breach"]["shares"]
            .as_u64()
            .ok_or_else(|| bad("shares"))?,
        prices: ReferencePrices {
            acquisition: dec(&v["prices"]["acquisition"])?,
            transfer: opt_dec(&v["prices"]["transfer"])?,
            stage,
        },
        scale,
    };
    let payments: Vec<Payment> = v["payments"]
        .as_array()
        .ok_or_else(|| bad("payments"))?
        .iter()
        .map(|p| {
            Ok(Payment {
                date: d(&p["date"])?,
                amount: dec(&p["amount"])?,
            })
        })
        .collect::<Result<_>>()?;
    let periods: Vec<RatePeriod> = v["rates"]
        .as_array()
        .ok_or_else(|| bad("rates"))?
        .iter()
        .map(|r| {
            RatePeriod::new(
                d(&r["valid_from"])?,
                d(&r["valid_to"])?,
                opt_dec(&r["ibc_ea_pct"])?,
                opt_dec(&r["usury_ea_pct"])?,
                s(&r["resolution"])?,
                0,
            )
            .ok_or_else(|| bad("rate"))
        })
        .collect::<Result<_>>()?;
    let rates = RateSeries::from_periods(periods, &s(&v["rates_source"])?)
        .map_err(|e| bad(&e.to_string()))?;
    let convention: fine::Convention = s(&v["convention"])?.parse().map_err(|m: String| bad(&m))?;
    Ok(fine::liquidate(
        &case,
        d(&v["until"])?,
        &payments,
        convention,
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
    Ok(
        match price(&facts, on.max(facts.breach.breach_date), convention, rates)? {
            Outcome::Liquidated(l) => l.total_due,
            Outcome::NotApplicable(_) => Decimal::ZERO,
        },
    )
}

/// The pledges in force on an adjudication that may be released on `on` (Art. 10: after the
/// lock-up's last day, with no fine of the adjudication outstanding on that date), or why not.
fn releasable(
    conn: &Connection,
    adj: &adjudications::Adjudication,
    scale: &FineScale,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<std::result::Result<Vec<i64>, String>> {
    let lockup_end = scale
        .lockup_end(adj.adjudicated_on)
        .unwrap_or(adj.adjudicated_on);
    if on <= lockup_end {
        return Ok(Err(format!(
            "--on {on}: the lock-up of adjudication {} runs until {lockup_end}; the pledge can be released from {}",
            adj.id,
            lockup_end.succ_opt().unwrap_or(lockup_end)
        )));
    }
    for b in breaches::list(conn, Some(adj.id), None)?
        .iter()
        .filter(|b| b.void.is_none())
    {
        let due = outstanding(conn, b.id, on, rates)?;
        if due > Decimal::ZERO {
            return Ok(Err(format!(
                "--on {on}: the fine of breach {} is outstanding ({} as of {on}); the pledge secures it (Art. 10) and stays \
                 until the fine is paid",
                b.id,
                crate::money::format_cop(due)
            )));
        }
    }
    let active: Vec<i64> = pledges::list(conn, adj.id)?
        .into_iter()
        .filter(|p| p.released_on.is_none())
        .map(|p| p.id)
        .collect();
    if active.is_empty() {
        return Ok(Err(format!(
            "adjudication {} has no pledge in force to release",
            adj.id
        )));
    }
    Ok(Ok(active))
}

/// Releases every pledge in force on an adjudication, if the lock-up has ended and no fine of
/// the adjudication is outstanding on `on`. Returns the release ids.
pub fn release_pledges(
    tx: &mut Tx<'_>,
    adjudication_id: i64,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Vec<i64>> {
    let adj = adjudications::get(tx.conn(), adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let pledges = releasable(tx.conn(), &adj, &program.scale()?, on, rates)?.map_err(refused)?;
    let mut out = Vec::new();
    for pledge_id in pledges {
        out.push(pledges::release(tx, pledge_id, on)?);
    }
    Ok(out)
}

/// What a release in bulk did: adjudications, and the range of release ids written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    pub adjudications: usize,
    pub first_id: i64,
    pub last_id: i64,
}

/// Releases the pledges of every adjudication in `candidates` (as the batch check finds them:
/// `PLEDGE_RELEASABLE` on `on`), each checked again under the rules of [`release_pledges`] in
/// this transaction; refused, with every reason, if any of them may not be released. One audit
/// event covers all the releases. `None` when there is nothing to release.
pub fn release_many(
    tx: &mut Tx<'_>,
    candidates: &[i64],
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Option<Released>> {
    let mut scales = programs::Scales::default();
    let mut problems = Vec::new();
    let (mut first_id, mut last_id) = (0, 0);
    let on_text = on.to_string();
    for &id in candidates {
        let adj = adjudications::get(tx.conn(), id)?;
        let scale = scales.get(tx.conn(), adj.program_id)?;
        match releasable(tx.conn(), &adj, scale, on, rates)? {
            Err(why) => problems.push(why),
            Ok(pledges) => {
                for pledge_id in pledges {
                    last_id = tx.insert_unaudited(
                        "pledge_releases",
                        &[("pledge_id", &pledge_id), ("released_on", &on_text)],
                    )?;
                    if first_id == 0 {
                        first_id = last_id;
                    }
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::Store(StoreError::Rejected(
            problems.into_iter().map(store::Problem::Whole).collect(),
        )));
    }
    if first_id == 0 {
        return Ok(None);
    }
    tx.audit_bulk(
        "pledge.release-releasable",
        "pledge_releases",
        first_id,
        &[crate::store::audit::Cover {
            table: "pledge_releases",
            first: first_id,
            last: last_id,
            digest: None,
        }],
    )?;
    Ok(Some(Released {
        adjudications: candidates.len(),
        first_id,
        last_id,
    }))
}
