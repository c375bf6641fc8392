//! The check's decisions (SPEC §7, §8): from the facts of one adjudication on the as-of date,
//! which findings it has and why. Pure: no store, no engine, no text. The scan gathers the facts
//! (pricing a breach only when [`Breach::needs_balance`] says the decisions need the figure); the
//! caller names the holder and writes the reason from the [`Why`].

use super::{Code, Options, Why};
use chrono::{Days, NaiveDate};
use rust_decimal::Decimal;

/// What the check knows of a breach's fine on the as-of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Owed {
    /// Priced: nothing is owed (paid off, or no fine applies).
    Nothing,
    /// Priced: this balance, accrued to the as-of date (positive).
    Amount(Decimal),
    /// Not priced, because no decision needs the figure ([`Breach::needs_balance`]): without a
    /// payment the whole fine is owed, whatever its exact amount.
    Unknown,
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
    /// Made while a later stage's price was pending.
    pub provisional: bool,
}

/// A breach's latest notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Notice<'a> {
    pub number: &'a str,
    /// The last day to pay.
    pub deadline: NaiveDate,
}

/// One non-void breach dated on or before the as-of date, and what has been done about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Breach<'a> {
    pub id: i64,
    pub on: NaiveDate,
    pub shares: u64,
    /// Some payment against the fine is recorded on or before the as-of date.
    pub has_payments: bool,
    pub liquidation: Option<Liquidation>,
    pub notice: Option<Notice<'a>>,
    pub owed: Owed,
}

impl Breach<'_> {
    /// The latest notice, if its deadline has passed on `as_of` (the deadline day itself is
    /// still in time).
    fn overdue_notice(&self, as_of: NaiveDate) -> Option<&Notice<'_>> {
        self.notice.as_ref().filter(|n| n.deadline < as_of)
    }

    /// Whether the decisions need this breach's exact balance on `as_of`: an overdue notice shows
    /// it; after the lock-up, a payment may have settled the fine. Otherwise [`Owed::Unknown`]
    /// is enough (without payments the whole fine is owed; during the lock-up it decides nothing).
    pub(super) fn needs_balance(&self, as_of: NaiveDate, lockup_end: NaiveDate) -> bool {
        self.overdue_notice(as_of).is_some() || (as_of > lockup_end && self.has_payments)
    }
}

/// The pledge in force on the as-of date (the latest, if several).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pledge {
    pub id: i64,
    /// 1 = first degree, 2 = second degree.
    pub rank: u8,
}

/// One adjudication as the check sees it on the as-of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Adjudication<'a> {
    pub shares: u64,
    /// A lender financed the purchase (it may then hold the first-degree pledge).
    pub financed: bool,
    /// The lock-up's last day (SPEC §3): the holder is free from the next day.
    pub lockup_end: NaiveDate,
    pub pledge: Option<Pledge>,
    /// The program's later-stage price has been recorded (a provisional liquidation is stale).
    pub stage_recorded: bool,
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
        if code.severity() <= opts.min_severity {
            found(Assessed {
                code,
                breach_id,
                outstanding,
                why,
            });
        }
    };

    // a fine owed on this adjudication; the last breach whose notice is overdue, and its balance
    let mut owes = false;
    let mut overdue: Option<(i64, Decimal)> = None;
    for b in a.breaches {
        let breach = b.id;
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
            provisional: true,
        }) = b.liquidation
            && a.stage_recorded
        {
            push(
                Code::ProvisionalStale,
                Some(breach),
                None,
                Why::ProvisionalStale { liquidation },
            );
        }
        let notice_overdue = b.overdue_notice(as_of);
        if notice_overdue.is_none() && in_lockup {
            continue; // nothing about this fine is due yet
        }
        match b.owed {
            Owed::Nothing => {}
            Owed::Unknown => {
                debug_assert!(
                    notice_overdue.is_none(),
                    "breach {breach}: an overdue notice's balance is always priced"
                );
                owes = true;
            }
            Owed::Amount(due) => {
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
    match a.pledge {
        None if in_lockup || owes => push(
            Code::MissingPledge,
            None,
            None,
            if in_lockup {
                Why::MissingPledgeInLockup { end }
            } else {
                Why::MissingPledgeWhileOwed
            },
        ),
        Some(Pledge { id, rank: 2 }) if !a.financed => {
            push(Code::PledgeRank, None, None, Why::PledgeRank { pledge: id })
        }
        _ => {}
    }
    let horizon = as_of
        .checked_add_days(Days::new(u64::from(opts.within_days)))
        .unwrap_or(as_of);
    if in_lockup && end <= horizon {
        push(Code::LockupEnding, None, None, Why::LockupEnding { end });
    }
    if let Some(Pledge { id: pledge, .. }) = a.pledge {
        if !in_lockup && !owes {
            push(
                Code::PledgeReleasable,
                None,
                None,
                Why::PledgeReleasable { end, pledge },
            );
        }
        if let Some((breach, due)) = overdue {
            push(
                Code::PledgeEnforceable,
                Some(breach),
                Some(due),
                Why::PledgeEnforceable {
                    breach,
                    pledge,
                    due,
                },
            );
        }
    }
}
