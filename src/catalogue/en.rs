//! The English catalogue: the command line's language (scripts and the README rely on its
//! words). Dates ISO, amounts es-CO (`$ 1.087.500`), as the command line always printed them.

use super::{Catalogue, Front, SUGGESTED_RATES_FILE};
use crate::check::{Code, Finding, Part, RatesHome, Remedy, Undecided, Why};
use crate::money::format_cop;
use chrono::NaiveDate;

/// English.
pub struct En;

impl Catalogue for En {
    fn finding(&self, f: &Finding, front: &dyn Front) -> String {
        let as_of = f.context.as_of;
        let remedy = f.remedy();
        let act = || remedy.as_ref().map_or(String::new(), |r| act(r, front));
        // what a liquidation or a notice as of the as-of date waits for, if anything
        let once = match f.context.uncertified {
            Some((first, last)) => format!(
                "once the moratorium rate for {first}..{last} is certified (RATE_MISSING), "
            ),
            None => String::new(),
        };
        match &f.why {
            Why::NoLiquidation { breach, on } => format!(
                "breach {breach} of {on} has no liquidation: {once}{}",
                act()
            ),
            Why::NoNotice { breach, on } => {
                format!("breach {breach} of {on} has no notice: {once}{}", act())
            }
            Why::ProvisionalStale {
                liquidation,
                so_far: false,
                ..
            } => format!(
                "liquidation {liquidation} was provisional and the stage price is now recorded: {once}{}",
                act()
            ),
            Why::ProvisionalStale {
                liquidation,
                so_far: true,
                ..
            } => format!(
                "liquidation {liquidation} is provisional and the stage price has changed since it was \
                 made (the highest so far; a later stage is still pending): {once}{}",
                act()
            ),
            Why::NoticeUndelivered {
                number,
                deliver_by,
                late: true,
            } => format!(
                "notice {number} has no recorded delivery and was to be delivered by {deliver_by}: deliver it, then {}",
                act()
            ),
            Why::HolderNoAddress { number } => format!(
                "notice {number} is undelivered and its holder has no postal address on file: it cannot go by certified mail; {}",
                act()
            ),
            Why::NoticeUndelivered {
                number, deliver_by, ..
            } => format!(
                "notice {number} has no recorded delivery: its payment term runs from delivery, so it has no deadline yet; deliver it by {deliver_by}, then {}",
                act()
            ),
            Why::NoticeOverdue {
                number,
                deadline,
                due,
            } => format!(
                "notice {number} was due on {deadline}; {} outstanding as of {as_of}",
                format_cop(*due)
            ),
            Why::RateMissing {
                breach,
                overdue,
                missing,
            } => {
                let why = match overdue {
                    Some((number, deadline)) => {
                        format!("notice {number} was due on {deadline}, but ")
                    }
                    None => String::new(),
                };
                format!(
                    "{why}the balance of breach {breach} as of {as_of} cannot be computed: no certified moratorium rate for {}; {}",
                    ranges(missing),
                    act()
                )
            }
            Why::SharesExceeded {
                breached,
                adjudicated,
            } => {
                format!("breaches cover {breached} shares but only {adjudicated} were adjudicated")
            }
            Why::MissingPledgeInLockup { end } => {
                format!("no pledge in force during the lock-up (ends {end}): register it (Art. 10)")
            }
            Why::MissingPledgeWhileOwed => {
                "no pledge in force while a fine is owed: register it (Art. 10)".to_string()
            }
            Why::PledgeShort {
                end,
                covered,
                shares,
            } => short(*end, *covered, *shares),
            Why::PledgeRank { pledge } => format!(
                "pledge {pledge} is second degree but the adjudication was not financed: it should be first degree"
            ),
            Why::RatesUncertified { from, to, open } => {
                let what = match open {
                    0 => "no breach has a fine to liquidate now, but none could be".to_string(),
                    n => format!(
                        "the fines of {n} breach(es) without a paz y salvo cannot be liquidated or notified"
                    ),
                };
                format!(
                    "no certified moratorium rate for {}: {what} as of {as_of} until it is certified; {}",
                    ranges(&[(*from, *to)]),
                    act()
                )
            }
            Why::PledgeRankBeyondFinancing {
                pledges: ids,
                second,
                financed,
            } => beyond(ids, *second, *financed),
            Why::RateDue { .. } => {
                let (first, last) = match &remedy {
                    Some(Remedy::Certify { first, last, .. }) => (*first, *last),
                    _ => (as_of, as_of),
                };
                format!(
                    "no certified moratorium rate for {first}..{last} yet: from {first} balances that need it cannot be computed; when the SFC certifies it, {}",
                    act()
                )
            }
            Why::LockupEnding { end } => format!(
                "the lock-up ends on {end}; the holder is free from {}",
                end.succ_opt().unwrap_or(*end)
            ),
            Why::PledgeReleasable { end, pledge, of } => format!(
                "the lock-up ended on {end} and no fine is owed: pledge {pledge}{} can be released",
                part(of, false)
            ),
            Why::PledgeEnforceable {
                breach,
                pledge,
                due,
                of,
            } => format!(
                "the fine of breach {breach} is overdue: pledge {pledge}{} secures {} (Art. 10)",
                part(of, true),
                format_cop(*due)
            ),
        }
    }

    fn code_name(&self, code: Code) -> &'static str {
        match code {
            Code::NoticeOverdue => "Notice overdue and unpaid",
            Code::PledgeEnforceable => "Pledge enforceable",
            Code::SharesExceeded => "More shares breached than adjudicated",
            Code::MissingPledge => "Pledge missing",
            Code::RateMissing => "A certified rate the balance needs is missing",
            Code::BreachNotLiquidated => "Breach not liquidated",
            Code::NoticeUndelivered => "Notice without a recorded delivery",
            Code::HolderNoAddress => "Holder without an address for the notice",
            Code::ProvisionalStale => "Provisional liquidation without the stage price",
            Code::PledgeRank => "Pledge degree without financing",
            Code::RateDue => "Next month's rate missing",
            Code::LockupEnding => "Lock-up ending",
            Code::PledgeReleasable => "Pledge releasable",
        }
    }

    fn undecided(&self, u: &Undecided) -> String {
        format!(
            "adjudication {} was not decided: the balance of breach {} needs the certified moratorium rate for {}",
            u.adjudication,
            u.breach,
            ranges(&u.missing)
        )
    }

    fn msg(&self, m: &super::msg::Msg<'_>) -> String {
        super::en_msg::msg(m)
    }

    fn draw_place(&self, number: &dyn std::fmt::Display, tied: u64, index: u64) -> String {
        super::en_msg::draw_place(number, tied, index)
    }

    fn code(&self, _: &str, _: &str) -> Option<&'static str> {
        None
    }

    /// The store's own words.
    fn io_error(&self, e: &std::io::Error) -> String {
        e.to_string()
    }

    fn store_error(&self, e: &crate::store::StoreError) -> String {
        e.to_string()
    }

    fn scale_error(&self, e: &crate::calendar::ScaleError) -> String {
        e.to_string()
    }

    fn verified(&self, v: &crate::register::verify::Verified, file: &str) -> Vec<String> {
        super::en_msg::verified(v, file)
    }

    fn verification(
        &self,
        v: &crate::register::verify::Verified,
        o: &crate::register::verify::Outcome,
    ) -> super::verification::Said {
        super::en_verification::verification(v, o)
    }

    fn verdict(
        &self,
        kind: crate::register::verify::Kind,
        o: &crate::register::verify::Outcome,
    ) -> String {
        super::en_verification::verdict(kind, o)
    }

    fn unverifiable(
        &self,
        e: &crate::register::verify::Unverifiable,
    ) -> super::verification::Unverified {
        super::en_verification::unverifiable(e)
    }

    fn page_of(&self, what: super::Listed, before: u64, shown: u64, of: u64) -> String {
        let (one, many) = match what {
            super::Listed::Persons => ("Person", "Persons"),
            super::Listed::Proposals => ("Proposal", "Proposals"),
        };
        let (first, last) = (before.saturating_add(1), before.saturating_add(shown));
        if first >= last {
            format!("{one} {first} of {of}")
        } else {
            format!("{many} {first} to {last} of {of}")
        }
    }

    fn in_order(&self, order: super::Order) -> &'static str {
        match order {
            super::Order::Acta => " (in the acta's order)",
            super::Order::Chosen => " (in the chosen order)",
        }
    }

    fn bracket_span(&self, after: Option<u32>, upto: u32) -> String {
        let months = |n: u32| match n {
            1 => "1 month".to_string(),
            n => format!("{n} months"),
        };
        match after {
            None => format!("up to {}", months(upto)),
            Some(a) => format!("{} and one day to {}", months(a), months(upto)),
        }
    }
}

/// What to do, as `front` does it.
fn act(remedy: &Remedy, front: &dyn Front) -> String {
    let command = front.command(remedy);
    match (remedy, command) {
        (Remedy::Liquidate { .. } | Remedy::IssueNotice { .. }, Some(c)) => format!("run `{c}`"),
        (Remedy::Liquidate { breach, until }, None) => {
            format!("liquidate the fine of breach {breach} as of {until}")
        }
        (Remedy::IssueNotice { until, .. }, None) => {
            format!("issue its notice with the fine liquidated as of {until}")
        }
        (Remedy::RecordDelivery { .. }, Some(c)) => format!("record the day and channel with {c}"),
        (Remedy::RecordDelivery { .. }, None) => {
            "record the day and channel of the delivery".to_string()
        }
        (Remedy::RecordAddress { .. }, command) => {
            let address = match command {
                Some(c) => format!("record the address with {c}"),
                None => "record the holder's postal address".to_string(),
            };
            match front.by_hand() {
                Some(o) => format!("{address}, or deliver it by hand ({o})"),
                None => format!("{address}, or deliver it by hand"),
            }
        }
        (Remedy::Certify { first, last, into }, command) => match (into, command) {
            (RatesHome::Register, Some(c)) => format!(
                "save the SFC certification for {first}..{last} in {SUGGESTED_RATES_FILE} (header \
                 valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution; one row per month) and \
                 run `{c}`"
            ),
            (RatesHome::Register, None) => {
                format!("add the SFC certification for {first}..{last} to the register's rates")
            }
            (RatesHome::File(path), _) => format!(
                "add the SFC certification for {first}..{last} to {path} (one row per month)"
            ),
        },
    }
}

/// Days without a rate: "2026-11-03, 2026-12-01..2026-12-31".
fn ranges(missing: &[(NaiveDate, NaiveDate)]) -> String {
    let text: Vec<String> = missing
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}..{b}")
            }
        })
        .collect();
    text.join(", ")
}

/// " (rank 2, 600 shares)" after a pledge's number, when it is one of several in force; an
/// enforceable second-degree one comes after the lender's first-degree pledge.
fn part(of: &Option<Part>, enforced: bool) -> String {
    match of {
        None => String::new(),
        Some(Part { rank: 2, shares }) if enforced => {
            format!(" (second degree, {shares} shares: after the lender's first-degree pledge)")
        }
        Some(Part { rank, shares }) => format!(" (rank {rank}, {shares} shares)"),
    }
}

/// The reason of [`Why::PledgeShort`].
fn short(end: Option<NaiveDate>, covered: u64, shares: u64) -> String {
    let uncovered = shares.saturating_sub(covered);
    let when = match end {
        Some(end) => format!("during the lock-up (ends {end})"),
        None => "while a fine is owed".to_string(),
    };
    format!(
        "pledges in force cover {covered} of the {shares} shares: {uncovered} shares have no pledge {when}: register their pledge (Art. 10)"
    )
}

/// The reason of [`Why::PledgeRankBeyondFinancing`].
fn beyond(pledges: &[i64], second: u64, financed: u64) -> String {
    let list: Vec<String> = pledges.iter().map(i64::to_string).collect();
    let (s, list) = (if pledges.len() > 1 { "s" } else { "" }, list.join(", "));
    let over = second.saturating_sub(financed);
    format!(
        "second-degree pledge{s} {list} cover{} {second} shares but the lender financed {financed}: {over} of them should carry the first-degree pledge (Art. 10)",
        if pledges.len() > 1 { "" } else { "s" }
    )
}
