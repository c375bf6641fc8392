//! The periodic batch check (SPEC §8): every finding about every adjudication and breach as of a
//! date, each with a stable code, a severity and a one-line reason; overdue fines carry their
//! balance accrued to the as-of date. Streams through the store (findings go to a sink as they
//! are found) and prices through the engine with one parsed rate series. No printing.

use crate::calendar::FineScale;
use crate::fine::{self, Convention, Outcome, Payment, StagePrice};
use crate::money::format_cop;
use crate::program::Program;
use crate::rates::RateSeries;
use crate::register;
use crate::store::breaches::transfer_price;
use crate::store::{Result, StoreError, programs, scan};
use chrono::{Days, NaiveDate};
use foldhash::HashMap;
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde::Serialize;

/// What a finding is about; the names are stable (schedulers and spreadsheets key on them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    NoticeOverdue,
    PledgeEnforceable,
    SharesExceeded,
    MissingPledge,
    BreachNotLiquidated,
    ProvisionalStale,
    PledgeRank,
    LockupEnding,
    PledgeReleasable,
}

impl Code {
    pub const ALL: [Code; 9] = [
        Code::NoticeOverdue,
        Code::PledgeEnforceable,
        Code::SharesExceeded,
        Code::MissingPledge,
        Code::BreachNotLiquidated,
        Code::ProvisionalStale,
        Code::PledgeRank,
        Code::LockupEnding,
        Code::PledgeReleasable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::NoticeOverdue => "NOTICE_OVERDUE",
            Code::PledgeEnforceable => "PLEDGE_ENFORCEABLE",
            Code::SharesExceeded => "SHARES_EXCEEDED",
            Code::MissingPledge => "MISSING_PLEDGE",
            Code::BreachNotLiquidated => "BREACH_NOT_LIQUIDATED",
            Code::ProvisionalStale => "PROVISIONAL_STALE",
            Code::PledgeRank => "PLEDGE_RANK",
            Code::LockupEnding => "LOCKUP_ENDING",
            Code::PledgeReleasable => "PLEDGE_RELEASABLE",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::NoticeOverdue
            | Code::PledgeEnforceable
            | Code::SharesExceeded
            | Code::MissingPledge => Severity::High,
            Code::BreachNotLiquidated | Code::ProvisionalStale | Code::PledgeRank => {
                Severity::Medium
            }
            Code::LockupEnding | Code::PledgeReleasable => Severity::Low,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    High,
    Medium,
    Low,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// One thing that needs attention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    pub program: String,
    pub doc_type: String,
    pub doc_number: String,
    pub holder: String,
    pub adjudication_id: i64,
    pub breach_id: Option<i64>,
    /// Balance accrued to the as-of date, for overdue fines.
    pub outstanding: Option<Decimal>,
    pub reason: String,
}

/// What to check.
#[derive(Debug, Clone)]
pub struct Options {
    pub as_of: NaiveDate,
    pub program_id: Option<i64>,
    /// LOCKUP_ENDING: lock-ups that end within this many days after the as-of date.
    pub within_days: u32,
}

/// A program's terms, read once.
struct Terms {
    program: Program,
    scale: FineScale,
    stage: StagePrice,
    stage_recorded: bool,
    convention: Convention,
}

fn terms(conn: &Connection) -> Result<HashMap<i64, Terms>> {
    let mut out = HashMap::default();
    for p in programs::list(conn)? {
        let corrupt = |m: String| StoreError::Corrupt(format!("program {}: {m}", p.program.code));
        let scale = p.program.scale().map_err(|e| corrupt(e.to_string()))?;
        let convention = p.program.convention().map_err(corrupt)?;
        let latest = programs::latest_stage(conn, p.id)?;
        out.insert(
            p.id,
            Terms {
                stage: latest
                    .as_ref()
                    .map(|r| r.as_stage_price())
                    .unwrap_or(StagePrice::Pending),
                stage_recorded: latest.is_some(),
                program: p.program,
                scale,
                convention,
            },
        );
    }
    Ok(out)
}

/// Balance of a breach's fine on `as_of` with the payments recorded up to then.
fn outstanding(
    conn: &Connection,
    t: &Terms,
    a: &scan::AdjudicationRow,
    b: &scan::BreachRow,
    as_of: NaiveDate,
    rates: &RateSeries,
) -> Result<Decimal> {
    let case = register::fine_case(
        &t.program,
        t.scale.clone(),
        t.stage,
        (a.adjudicated_on, a.price_per_share),
        (
            b.breach_date,
            b.shares,
            transfer_price(b.consideration_per_share, b.consideration_total, b.shares),
        ),
    );
    let payments: Vec<Payment> = if b.has_payments {
        register::payments_until(conn, b.id, as_of)?
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    } else {
        Vec::new()
    };
    match fine::liquidate(&case, as_of, &payments, t.convention, rates) {
        Ok(Outcome::Liquidated(l)) => Ok(l.total_due),
        Ok(Outcome::NotApplicable(_)) => Ok(Decimal::ZERO),
        Err(e) => Err(StoreError::Refused(format!("breach {}: {e}", b.id))),
    }
}

/// Runs the check, handing each finding to `sink` as it is found, adjudication by adjudication
/// (its breaches' findings first). `progress` gets the adjudications read so far.
pub fn run(
    conn: &Connection,
    opts: &Options,
    rates: &RateSeries,
    sink: &mut dyn FnMut(Finding) -> Result<()>,
    progress: &mut dyn FnMut(u64),
) -> Result<()> {
    let terms = terms(conn)?;
    let as_of = opts.as_of;
    let until = as_of
        .checked_add_days(Days::new(u64::from(opts.within_days)))
        .unwrap_or(as_of);
    let mut ends: HashMap<(i64, NaiveDate), NaiveDate> = HashMap::default();
    let mut read = 0u64;
    let mut holders_stmt = scan::Holders::statement(conn)?;
    let mut holders = scan::Holders::new(conn, &mut holders_stmt)?;
    scan::adjudications_with_breaches(conn, opts.program_id, as_of, |a, breaches| {
        read += 1;
        if read.is_multiple_of(10_000) {
            progress(read);
        }
        let t = terms
            .get(&a.program_id)
            .ok_or_else(|| StoreError::Corrupt(format!("program {} is missing", a.program_id)))?;
        let end = *ends
            .entry((a.program_id, a.adjudicated_on))
            .or_insert_with(|| {
                t.scale
                    .lockup_end(a.adjudicated_on)
                    .unwrap_or(a.adjudicated_on)
            });
        let in_lockup = as_of <= end;
        // the holder is looked up only for the adjudications that have something to report
        let mut holder: Option<(String, String, String)> = None;
        let mut push = |code: Code,
                        breach_id: Option<i64>,
                        outstanding: Option<Decimal>,
                        reason: String|
         -> Result<()> {
            if holder.is_none() {
                holder = Some(holders.get(a.holder_id)?);
            }
            let (doc_type, doc_number, name) = holder.clone().unwrap_or_default();
            sink(Finding {
                code,
                program: t.program.code.clone(),
                doc_type,
                doc_number,
                holder: name,
                adjudication_id: a.id,
                breach_id,
                outstanding,
                reason,
            })
        };

        let mut owes = false;
        let mut overdue: Option<(i64, Decimal)> = None;
        for b in breaches {
            match (&b.latest_liquidation, &b.latest_notice) {
                (None, _) => push(
                    Code::BreachNotLiquidated,
                    Some(b.id),
                    None,
                    format!(
                        "breach {} of {} has no liquidation: run `vigia fine liquidate {}`",
                        b.id, b.breach_date, b.id
                    ),
                )?,
                (Some(_), None) => push(
                    Code::BreachNotLiquidated,
                    Some(b.id),
                    None,
                    format!(
                        "breach {} of {} has no notice: run `vigia notice issue {}`",
                        b.id, b.breach_date, b.id
                    ),
                )?,
                _ => {}
            }
            if let Some((liq, true)) = b.latest_liquidation
                && t.stage_recorded
            {
                push(
                    Code::ProvisionalStale,
                    Some(b.id),
                    None,
                    format!(
                        "liquidation {liq} was provisional and the stage price is now recorded: liquidate again"
                    ),
                )?;
            }
            let notice_overdue = b
                .latest_notice
                .as_ref()
                .filter(|(_, deadline)| *deadline < as_of);
            if notice_overdue.is_some() || !in_lockup {
                // Without any payment the whole fine is owed; the exact balance is computed only
                // when it is shown (an overdue notice) or when payments may have settled it.
                let due = if b.has_payments || notice_overdue.is_some() {
                    outstanding(conn, t, &a, b, as_of, rates)?
                } else {
                    Decimal::ONE
                };
                if due > Decimal::ZERO {
                    owes = true;
                    if let Some((number, deadline)) = notice_overdue {
                        overdue = Some((b.id, due));
                        push(
                            Code::NoticeOverdue,
                            Some(b.id),
                            Some(due),
                            format!(
                                "notice {number} was due on {deadline}; {} outstanding as of {as_of}",
                                format_cop(due)
                            ),
                        )?;
                    }
                }
            }
        }

        let breached_shares: u64 = breaches.iter().map(|b| b.shares).sum();
        if breached_shares > a.shares {
            push(
                Code::SharesExceeded,
                None,
                None,
                format!(
                    "breaches cover {breached_shares} shares but only {} were adjudicated",
                    a.shares
                ),
            )?;
        }
        match a.pledge {
            None if in_lockup || owes => push(
                Code::MissingPledge,
                None,
                None,
                if in_lockup {
                    format!(
                        "no pledge in force during the lock-up (ends {end}): register it (Art. 10)"
                    )
                } else {
                    "no pledge in force while a fine is owed: register it (Art. 10)".to_string()
                },
            )?,
            Some((pledge, 2)) if !a.financed => push(
                Code::PledgeRank,
                None,
                None,
                format!(
                    "pledge {pledge} is second degree but the adjudication was not financed: it should be first degree"
                ),
            )?,
            _ => {}
        }
        if in_lockup && end <= until {
            push(
                Code::LockupEnding,
                None,
                None,
                format!(
                    "the lock-up ends on {end}; the holder is free from {}",
                    end.succ_opt().unwrap_or(end)
                ),
            )?;
        }
        if let Some((pledge, _)) = a.pledge {
            if !in_lockup && !owes {
                push(
                    Code::PledgeReleasable,
                    None,
                    None,
                    format!(
                        "the lock-up ended on {end} and no fine is owed: pledge {pledge} can be released"
                    ),
                )?;
            }
            if let Some((breach, due)) = overdue {
                push(
                    Code::PledgeEnforceable,
                    Some(breach),
                    Some(due),
                    format!(
                        "the fine of breach {breach} is overdue: pledge {pledge} secures {} (Art. 10)",
                        format_cop(due)
                    ),
                )?;
            }
        }
        Ok(())
    })?;
    progress(read);
    Ok(())
}
