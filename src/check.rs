//! The periodic batch check (SPEC §8): every finding about every adjudication and breach as of a
//! date, each with a stable code, a severity and a one-line reason; overdue fines carry their
//! balance accrued to the as-of date. Streams through the store; prices through the engine with
//! one parsed rate series. No printing.

use crate::calendar::FineScale;
use crate::money::format_cop;
use crate::rates::RateSeries;
use crate::register::{self, Result};
use crate::store::{StoreError, programs, scan};
use chrono::{Days, NaiveDate};
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

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

struct Program {
    code: String,
    scale: FineScale,
}

fn programs(conn: &Connection) -> Result<HashMap<i64, Program>> {
    let mut out = HashMap::new();
    for p in programs::list(conn)? {
        let scale = p
            .program
            .scale()
            .map_err(|e| StoreError::Corrupt(format!("program {}: {e}", p.program.code)))?;
        out.insert(
            p.id,
            Program {
                code: p.program.code.clone(),
                scale,
            },
        );
    }
    Ok(out)
}

/// Runs the check. `progress` is called with the number of adjudications read so far.
pub fn run(
    conn: &Connection,
    opts: &Options,
    rates: &RateSeries,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<Finding>> {
    let programs = programs(conn)?;
    let as_of = opts.as_of;
    let lockup_end = |program_id: i64, adjudicated: NaiveDate| {
        programs
            .get(&program_id)
            .and_then(|p| p.scale.lockup_end(adjudicated))
            .unwrap_or(adjudicated)
    };
    let code_of = |program_id: i64| {
        programs
            .get(&program_id)
            .map(|p| p.code.clone())
            .unwrap_or_default()
    };
    let mut findings = Vec::new();
    // Adjudications with a fine still owed on the as-of date, and those whose notice is overdue.
    let mut owing: HashSet<i64> = HashSet::new();
    let mut overdue: HashMap<i64, (i64, Decimal)> = HashMap::new();

    scan::breaches(conn, opts.program_id, as_of, |b| {
        let finding = |code: Code, outstanding: Option<Decimal>, reason: String| Finding {
            code,
            program: code_of(b.program_id),
            doc_type: b.doc_type.clone(),
            doc_number: b.doc_number.clone(),
            holder: b.name.clone(),
            adjudication_id: b.adjudication_id,
            breach_id: Some(b.id),
            outstanding,
            reason,
        };
        match (&b.latest_liquidation, &b.latest_notice) {
            (None, _) => findings.push(finding(
                Code::BreachNotLiquidated,
                None,
                format!(
                    "breach {} of {} has no liquidation: run `vigia fine liquidate {}`",
                    b.id, b.breach_date, b.id
                ),
            )),
            (Some(_), None) => findings.push(finding(
                Code::BreachNotLiquidated,
                None,
                format!(
                    "breach {} of {} has no notice: run `vigia notice issue {}`",
                    b.id, b.breach_date, b.id
                ),
            )),
            _ => {}
        }
        if let Some((liq, true)) = b.latest_liquidation
            && b.stage_recorded
        {
            findings.push(finding(
                Code::ProvisionalStale,
                None,
                format!("liquidation {liq} was provisional and the stage price is now recorded: liquidate again"),
            ));
        }
        let notice_overdue = b
            .latest_notice
            .as_ref()
            .filter(|(_, deadline)| *deadline < as_of);
        let lockup_over = as_of > lockup_end(b.program_id, b.adjudicated_on);
        if notice_overdue.is_some() || lockup_over {
            // Without any payment the whole fine is owed; with payments, the engine says.
            // Without any payment the whole fine is owed; the exact balance is computed only when
            // it is shown (an overdue notice) or when payments may have settled it.
            let due = if b.has_payments || notice_overdue.is_some() {
                register::outstanding(conn, b.id, as_of, rates).map_err(|e| match e {
                    register::Error::Store(s) => s,
                    register::Error::Fine(f) => {
                        StoreError::Refused(format!("breach {}: {f}", b.id))
                    }
                })?
            } else {
                Decimal::ONE
            };
            if due > Decimal::ZERO {
                owing.insert(b.adjudication_id);
                if let Some((number, deadline)) = notice_overdue {
                    overdue.insert(b.adjudication_id, (b.id, due));
                    findings.push(finding(
                        Code::NoticeOverdue,
                        Some(due),
                        format!(
                            "notice {number} was due on {deadline}; {} outstanding as of {as_of}",
                            format_cop(due)
                        ),
                    ));
                }
            }
        }
        Ok(())
    })?;

    let mut read = 0u64;
    let until = as_of
        .checked_add_days(Days::new(u64::from(opts.within_days)))
        .unwrap_or(as_of);
    scan::adjudications(conn, opts.program_id, as_of, |a| {
        read += 1;
        if read.is_multiple_of(10_000) {
            progress(read);
        }
        let end = lockup_end(a.program_id, a.adjudicated_on);
        let in_lockup = as_of <= end;
        let mut push =
            |code: Code, breach_id: Option<i64>, outstanding: Option<Decimal>, reason: String| {
                findings.push(Finding {
                    code,
                    program: code_of(a.program_id),
                    doc_type: a.doc_type.clone(),
                    doc_number: a.doc_number.clone(),
                    holder: a.name.clone(),
                    adjudication_id: a.id,
                    breach_id,
                    outstanding,
                    reason,
                })
            };
        if a.breached_shares > a.shares {
            push(
                Code::SharesExceeded,
                None,
                None,
                format!(
                    "breaches cover {} shares but only {} were adjudicated",
                    a.breached_shares, a.shares
                ),
            );
        }
        let owes = owing.contains(&a.id);
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
            ),
            Some((pledge, 2)) if !a.financed => push(
                Code::PledgeRank,
                None,
                None,
                format!(
                    "pledge {pledge} is second degree but the adjudication was not financed: it should be first degree"
                ),
            ),
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
            );
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
                );
            }
            if let Some((breach, due)) = overdue.get(&a.id) {
                push(
                    Code::PledgeEnforceable,
                    Some(*breach),
                    Some(*due),
                    format!(
                        "the fine of breach {breach} is overdue: pledge {pledge} secures {} (Art. 10)",
                        format_cop(*due)
                    ),
                );
            }
        }
        Ok(())
    })?;
    progress(read);
    findings.sort_by(|x, y| {
        (x.code, x.adjudication_id, x.breach_id).cmp(&(y.code, y.adjudication_id, y.breach_id))
    });
    Ok(findings)
}
