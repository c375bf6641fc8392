//! The check's decisions (SPEC §7, §8): from the facts of one adjudication on the as-of date,
//! which findings it has and why; and whether next month's rate is due ([`rate_due`]). Pure: no store, no engine, no text. The scan gathers the facts
//! (pricing a breach only when [`Breach::needs_balance`] says the decisions need the figure); the
//! caller names the holder and writes the reason from the [`Why`].

use super::{Code, Options, RATE_DUE_DAYS, Why};
use crate::calendar::add_months;
use chrono::{Datelike, Days, NaiveDate};
use rust_decimal::Decimal;

/// What the check knows of a breach's fine on the as-of date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Owed {
    /// Priced: nothing is owed (paid off, or no fine applies).
    Nothing,
    /// Priced: this balance, accrued to the as-of date (positive).
    Amount(Decimal),
    /// Not priced, because no decision needs the figure ([`Breach::needs_balance`]): without a
    /// payment the whole fine is owed, whatever its exact amount.
    Unknown,
    /// Needed but not priced: these days of its accrual have no certified rate (a RATE_MISSING
    /// finding). Owed for certain without a payment; with payments it may be settled.
    Unpriced(Vec<(NaiveDate, NaiveDate)>),
}

impl Owed {
    /// What a balance the engine computed means: owed only when positive.
    pub(super) fn priced(balance: Decimal) -> Owed {
        if balance > Decimal::ZERO {
            Owed::Amount(balance)
        } else {
            Owed::Nothing
        }
    }
}

/// A breach's latest liquidation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Liquidation {
    pub id: i64,
    /// It was provisional and the stage price the engine would use now is another, final or so
    /// far (`register::liquidation::stale`): it claims a figure no longer due.
    pub stale: bool,
}

/// A breach's latest notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Notice<'a> {
    pub number: &'a str,
    /// The last day to pay: from delivery when the program says so and a delivery is recorded,
    /// from the notice's date otherwise.
    pub deadline: NaiveDate,
    /// No delivery is recorded on or before the as-of date.
    pub undelivered: bool,
    /// The program counts the payment term from delivery and none is recorded: the notice has
    /// no deadline yet, so it is never overdue and never makes the pledge enforceable
    /// (LEGAL_NOTES §7.3).
    pub awaits_delivery: bool,
    /// The last day it may go undelivered (the program's term after its date).
    pub deliver_by: NaiveDate,
    /// It is undelivered and its holder has no postal address on file (HOLDER_NO_ADDRESS).
    pub holder_no_address: bool,
}

/// One non-void breach dated on or before the as-of date, and what has been done about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Breach<'a> {
    pub id: i64,
    pub on: NaiveDate,
    pub shares: u64,
    /// Some payment against the fine is recorded on or before the as-of date.
    pub has_payments: bool,
    pub liquidation: Option<Liquidation>,
    pub notice: Option<Notice<'a>>,
    /// A paz y salvo certifies the fine paid: nothing about it needs attention.
    pub settled: bool,
    /// Its fine may still grow (`fine::may_grow`: a later stage is pending): paid or not, it
    /// keeps the pledges in force.
    pub may_grow: bool,
    pub owed: Owed,
}

impl Breach<'_> {
    /// The latest notice, if its deadline has passed on `as_of` (the deadline day itself is
    /// still in time).
    fn overdue_notice(&self, as_of: NaiveDate) -> Option<&Notice<'_>> {
        self.notice
            .as_ref()
            .filter(|n| !n.awaits_delivery && n.deadline < as_of)
    }

    /// Whether the decisions need this breach's exact balance on `as_of`: an overdue notice shows
    /// it; after the lock-up, a payment may have settled the fine. Otherwise [`Owed::Unknown`]
    /// is enough (without payments the whole fine is owed; during the lock-up it decides nothing).
    pub(super) fn needs_balance(&self, as_of: NaiveDate, lockup_end: NaiveDate) -> bool {
        // (a notice awaiting delivery asks for it only while payments have not paid it off)
        !self.settled
            && (self.overdue_notice(as_of).is_some()
                || (self.has_payments
                    && (as_of > lockup_end || self.notice.is_none_or(|n| n.awaits_delivery))))
    }

    /// Payments have paid the fine off: nothing to liquidate, notify or deliver.
    fn paid_off(&self) -> bool {
        self.settled || (self.has_payments && self.owed == Owed::Nothing)
    }
}

pub(super) use super::pledges::Pledge;

/// One adjudication as the check sees it on the as-of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Adjudication<'a> {
    pub shares: u64,
    /// A lender financed the purchase (it may then hold the first-degree pledge).
    pub financed: bool,
    /// How many shares the lender financed (0 when not recorded).
    pub financed_shares: u64,
    /// The lock-up's last day (SPEC §3): the holder is free from the next day.
    pub lockup_end: NaiveDate,
    /// The pledges in force, in id order.
    pub pledges: &'a [Pledge],
    /// The program's later-stage price is only the highest so far (a later stage is still
    /// pending): a stale liquidation's reason says the price changed, not that it is final.
    pub stage_so_far: bool,
    pub breaches: &'a [Breach<'a>],
}

/// One finding about an adjudication: its holder and program still to be named, its reason to be
/// written from `why`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Assessed {
    pub code: Code,
    pub breach_id: Option<i64>,
    /// Balance accrued to the as-of date, for overdue fines.
    pub outstanding: Option<Decimal>,
    pub why: Why,
}

/// The findings of one adjudication as of `opts.as_of`, handed to `found` in the order the check
/// reports them (each breach's first); those less urgent than `opts.min_severity` are left out.
pub(super) fn assess(a: &Adjudication<'_>, opts: &Options, mut found: impl FnMut(Assessed)) {
    let as_of = opts.as_of;
    let in_lockup = as_of <= a.lockup_end;
    let end = a.lockup_end;
    let mut push = |code: Code, breach_id: Option<i64>, outstanding: Option<Decimal>, why: Why| {
        if super::severity_of(code, &why) <= opts.min_severity {
            found(Assessed {
                code,
                breach_id,
                outstanding,
                why,
            });
        }
    };

    // a fine owed on this adjudication; one that may be (its balance could not be priced); the
    // last breach whose notice is overdue, and its balance
    let mut owes = false;
    let mut may_owe = false;
    let mut overdue: Option<(i64, Decimal)> = None;
    // a fine not final yet (a later stage pending), paid to date or not
    let mut may_grow = false;
    for b in a.breaches {
        let breach = b.id;
        may_grow |= b.may_grow;
        if b.paid_off() {
            continue; // settled: no notice to ask for, nothing owed (issue 14)
        }
        match (&b.liquidation, &b.notice) {
            (None, _) => push(
                Code::BreachNotLiquidated,
                Some(breach),
                None,
                Why::NoLiquidation { breach, on: b.on },
            ),
            (Some(_), None) => push(
                Code::BreachNotLiquidated,
                Some(breach),
                None,
                Why::NoNotice { breach, on: b.on },
            ),
            _ => {}
        }
        if let Some(Liquidation {
            id: liquidation,
            stale: true,
        }) = b.liquidation
        {
            push(
                Code::ProvisionalStale,
                Some(breach),
                None,
                Why::ProvisionalStale {
                    breach,
                    liquidation,
                    so_far: a.stage_so_far,
                },
            );
        }
        // a notice whose term runs from delivery is reported from the day it is issued until
        // a delivery is recorded (medium; high once its delivery term has passed); one whose
        // term runs from its date, only once the delivery term has passed
        if let Some(n) = &b.notice
            && n.undelivered
            && (n.awaits_delivery || as_of > n.deliver_by)
        {
            push(
                Code::NoticeUndelivered,
                Some(breach),
                None,
                Why::NoticeUndelivered {
                    number: n.number.to_string(),
                    deliver_by: n.deliver_by,
                    late: as_of > n.deliver_by,
                },
            );
        }
        if let Some(n) = &b.notice
            && n.holder_no_address
        {
            push(
                Code::HolderNoAddress,
                Some(breach),
                None,
                Why::HolderNoAddress {
                    number: n.number.to_string(),
                },
            );
        }
        let notice_overdue = b.overdue_notice(as_of);
        if notice_overdue.is_none() && in_lockup {
            continue; // nothing about this fine is due yet
        }
        match &b.owed {
            Owed::Nothing => {}
            Owed::Unpriced(missing) => {
                // stands in for NOTICE_OVERDUE and PLEDGE_ENFORCEABLE, which need the figure
                push(
                    Code::RateMissing,
                    Some(breach),
                    None,
                    Why::RateMissing {
                        breach,
                        overdue: notice_overdue.map(|n| (n.number.to_string(), n.deadline)),
                        missing: missing.clone(),
                    },
                );
                may_owe = true;
                owes |= !b.has_payments;
            }
            Owed::Unknown => {
                debug_assert!(
                    notice_overdue.is_none(),
                    "breach {breach}: an overdue notice's balance is always priced"
                );
                owes = true;
            }
            &Owed::Amount(due) => {
                owes = true;
                if let Some(notice) = notice_overdue {
                    overdue = Some((breach, due));
                    push(
                        Code::NoticeOverdue,
                        Some(breach),
                        Some(due),
                        Why::NoticeOverdue {
                            number: notice.number.to_string(),
                            deadline: notice.deadline,
                            due,
                        },
                    );
                }
            }
        }
    }

    let breached: u64 = a.breaches.iter().map(|b| b.shares).sum();
    if breached > a.shares {
        push(
            Code::SharesExceeded,
            None,
            None,
            Why::SharesExceeded {
                breached,
                adjudicated: a.shares,
            },
        );
    }
    let holding = super::pledges::Holding {
        shares: a.shares,
        financed: a.financed,
        financed_shares: a.financed_shares,
        lockup_end: a.lockup_end,
        pledges: a.pledges,
    };
    super::pledges::held(&holding, in_lockup, owes, &mut push);
    let horizon = as_of
        .checked_add_days(Days::new(u64::from(opts.within_days)))
        .unwrap_or(as_of);
    if in_lockup && end <= horizon {
        push(Code::LockupEnding, None, None, Why::LockupEnding { end });
    }
    let releasable = !in_lockup && !owes && !may_owe && !may_grow;
    super::pledges::freed_or_enforced(&holding, releasable, overdue, &mut push);
}

/// The days up to `as_of` with no certified rate, when `as_of` itself has none: from the first
/// uncertified day of the run that ends on `as_of` (looked for back to a year before it). `None`
/// when `as_of` is certified.
pub(super) fn uncertified_days(
    as_of: NaiveDate,
    certified: impl Fn(NaiveDate) -> bool,
) -> Option<(NaiveDate, NaiveDate)> {
    if certified(as_of) {
        return None;
    }
    let mut from = as_of;
    for _ in 0..366 {
        match from.pred_opt() {
            Some(d) if !certified(d) => from = d,
            _ => break,
        }
    }
    Some((from, as_of))
}

/// RATE_MISSING about the register as a whole (issue 20, item 9): a month has begun, up to the
/// as-of date, without its certification (`uncertified`, from [`uncertified_days`]), so nothing
/// can be liquidated or notified as of that date; `open` breaches may need it.
pub(super) fn rates_uncertified(
    opts: &Options,
    uncertified: Option<(NaiveDate, NaiveDate)>,
    open: u64,
) -> Option<Assessed> {
    let code = Code::RateMissing;
    let (from, to) = uncertified?;
    (code.severity() <= opts.min_severity).then_some(Assessed {
        code,
        breach_id: None,
        outstanding: None,
        why: Why::RatesUncertified { from, to, open },
    })
}

/// RATE_DUE, about the register as a whole: on the last [`RATE_DUE_DAYS`] days of the as-of
/// date's month, the first day of the next month has no certified rate (`certified` says whether
/// a day has one). `None` when it is not due, or less urgent than `opts.min_severity`.
pub(super) fn rate_due(opts: &Options, certified: impl Fn(NaiveDate) -> bool) -> Option<Assessed> {
    let code = Code::RateDue;
    let first = add_months(opts.as_of.with_day(1)?, 1)?;
    let due = (first - opts.as_of).num_days() <= i64::from(RATE_DUE_DAYS)
        && code.severity() <= opts.min_severity
        && !certified(first);
    due.then_some(Assessed {
        code,
        breach_id: None,
        outstanding: None,
        why: Why::RateDue { first },
    })
}

#[cfg(test)]
mod tests;
