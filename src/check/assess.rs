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
    /// Made while a later stage's price was pending.
    pub provisional: bool,
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
    for b in a.breaches {
        let breach = b.id;
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
            provisional: true,
        }) = b.liquidation
            && a.stage_recorded
        {
            push(
                Code::ProvisionalStale,
                Some(breach),
                None,
                Why::ProvisionalStale {
                    breach,
                    liquidation,
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
    let releasable = !in_lockup && !owes && !may_owe;
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
mod tests {
    //! Every expectation is worked out by hand from SPEC §7–§8 and the rules above: an
    //! adjudication of 2024-03-15 with a 24-month lock-up, whose last day is 2026-03-15 (SPEC §3:
    //! the holder is free from 2026-03-16).
    use super::*;
    use crate::check::Severity;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    const END: &str = "2026-03-15";
    const PLEDGE: Pledge = Pledge {
        id: 7,
        rank: 1,
        shares: 100,
    };

    /// Breach `id` of 10 shares on 2024-11-20, liquidated (liquidation `id + 10`, final) and
    /// noticed with a deadline of 2027-01-15 (after every as-of date below), no payment.
    fn breach(id: i64) -> Breach<'static> {
        Breach {
            id,
            on: day("2024-11-20"),
            shares: 10,
            has_payments: false,
            liquidation: Some(Liquidation {
                id: id + 10,
                provisional: false,
            }),
            notice: Some(Notice {
                number: "MULTA-2025-0001",
                deadline: day("2027-01-15"),
                undelivered: false,
                awaits_delivery: false,
                holder_no_address: false,
                deliver_by: day("2024-12-10"),
            }),
            settled: false,
            owed: Owed::Unknown,
        }
    }

    fn notice(number: &'static str, deadline: &str) -> Option<Notice<'static>> {
        Some(Notice {
            number,
            deadline: day(deadline),
            undelivered: false,
            awaits_delivery: false,
            deliver_by: day("2024-12-10"),
            holder_no_address: false,
        })
    }

    fn cop(n: i64) -> Decimal {
        Decimal::from(n)
    }

    fn found(code: Code, breach: Option<i64>, outstanding: Option<Decimal>, why: Why) -> Assessed {
        Assessed {
            code,
            breach_id: breach,
            outstanding,
            why,
        }
    }

    struct Case {
        name: &'static str,
        as_of: &'static str,
        within_days: u32,
        min_severity: Severity,
        shares: u64,
        financed: bool,
        financed_shares: u64,
        pledges: Vec<Pledge>,
        stage_recorded: bool,
        breaches: Vec<Breach<'static>>,
        expected: Vec<Assessed>,
    }

    /// 100 shares, not financed, a first-degree pledge (7), no stage price, no breach, as of
    /// 2025-06-30 (mid lock-up), within 30 days, every severity: nothing to report.
    fn case(name: &'static str) -> Case {
        Case {
            name,
            as_of: "2025-06-30",
            within_days: 30,
            min_severity: Severity::Low,
            shares: 100,
            financed: false,
            financed_shares: 0,
            pledges: vec![PLEDGE],
            stage_recorded: false,
            breaches: Vec::new(),
            expected: Vec::new(),
        }
    }

    /// December 2026 has no certified rate.
    fn unpriced() -> Owed {
        Owed::Unpriced(vec![(day("2026-12-01"), day("2026-12-31"))])
    }

    fn rate_missing(breach: i64, overdue: Option<(&str, &str)>) -> Assessed {
        found(
            Code::RateMissing,
            Some(breach),
            None,
            Why::RateMissing {
                breach,
                overdue: overdue.map(|(n, d)| (n.to_string(), day(d))),
                missing: vec![(day("2026-12-01"), day("2026-12-31"))],
            },
        )
    }

    fn cases() -> Vec<Case> {
        let end = day(END);
        vec![
            case("clean: pledged, mid lock-up, no breach"),
            // NOTICE_OVERDUE and PLEDGE_ENFORCEABLE
            Case {
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: Owed::Amount(cop(637_486)),
                    ..breach(11)
                }],
                expected: vec![
                    found(
                        Code::NoticeOverdue,
                        Some(11),
                        Some(cop(637_486)),
                        Why::NoticeOverdue {
                            number: "MULTA-2025-0001".into(),
                            deadline: day("2025-02-25"),
                            due: cop(637_486),
                        },
                    ),
                    found(
                        Code::PledgeEnforceable,
                        Some(11),
                        Some(cop(637_486)),
                        Why::PledgeEnforceable {
                            breach: 11,
                            pledge: 7,
                            due: cop(637_486),
                            of: None,
                        },
                    ),
                ],
                ..case("notice past its deadline with a balance: overdue, the pledge enforceable")
            },
            Case {
                as_of: "2025-02-26",
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: Owed::Amount(cop(1)),
                    ..breach(11)
                }],
                expected: vec![
                    found(
                        Code::NoticeOverdue,
                        Some(11),
                        Some(cop(1)),
                        Why::NoticeOverdue {
                            number: "MULTA-2025-0001".into(),
                            deadline: day("2025-02-25"),
                            due: cop(1),
                        },
                    ),
                    found(
                        Code::PledgeEnforceable,
                        Some(11),
                        Some(cop(1)),
                        Why::PledgeEnforceable {
                            breach: 11,
                            pledge: 7,
                            due: cop(1),
                            of: None,
                        },
                    ),
                ],
                ..case("the day after the deadline, one peso outstanding: overdue")
            },
            Case {
                as_of: "2025-02-25",
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: Owed::Unknown, // not priced: not needed (see needs_balance)
                    ..breach(11)
                }],
                ..case("on the deadline itself the notice is still in time")
            },
            Case {
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: Owed::Nothing,
                    ..breach(11)
                }],
                ..case("notice past its deadline but nothing outstanding (paid off): nothing due")
            },
            Case {
                pledges: vec![],
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: Owed::Amount(cop(5_000)),
                    ..breach(11)
                }],
                expected: vec![
                    found(
                        Code::NoticeOverdue,
                        Some(11),
                        Some(cop(5_000)),
                        Why::NoticeOverdue {
                            number: "MULTA-2025-0001".into(),
                            deadline: day("2025-02-25"),
                            due: cop(5_000),
                        },
                    ),
                    found(
                        Code::MissingPledge,
                        None,
                        None,
                        Why::MissingPledgeInLockup { end },
                    ),
                ],
                ..case("notice overdue without a pledge: nothing to enforce, the pledge is missing")
            },
            Case {
                breaches: vec![
                    Breach {
                        notice: notice("MULTA-2025-0001", "2025-02-25"),
                        owed: Owed::Amount(cop(100)),
                        ..breach(11)
                    },
                    Breach {
                        notice: notice("MULTA-2025-0002", "2025-03-10"),
                        owed: Owed::Amount(cop(200)),
                        ..breach(12)
                    },
                ],
                expected: vec![
                    found(
                        Code::NoticeOverdue,
                        Some(11),
                        Some(cop(100)),
                        Why::NoticeOverdue {
                            number: "MULTA-2025-0001".into(),
                            deadline: day("2025-02-25"),
                            due: cop(100),
                        },
                    ),
                    found(
                        Code::NoticeOverdue,
                        Some(12),
                        Some(cop(200)),
                        Why::NoticeOverdue {
                            number: "MULTA-2025-0002".into(),
                            deadline: day("2025-03-10"),
                            due: cop(200),
                        },
                    ),
                    found(
                        Code::PledgeEnforceable,
                        Some(12),
                        Some(cop(200)),
                        Why::PledgeEnforceable {
                            breach: 12,
                            pledge: 7,
                            due: cop(200),
                            of: None,
                        },
                    ),
                ],
                ..case("two overdue notices: one enforceable pledge, naming the last breach")
            },
            // RATE_MISSING
            Case {
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![rate_missing(11, Some(("MULTA-2025-0001", "2025-02-25")))],
                ..case(
                    "notice overdue, no rate to price it: RATE_MISSING stands in for overdue and enforceable",
                )
            },
            Case {
                pledges: vec![],
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![
                    rate_missing(11, Some(("MULTA-2025-0001", "2025-02-25"))),
                    found(
                        Code::MissingPledge,
                        None,
                        None,
                        Why::MissingPledgeInLockup { end },
                    ),
                ],
                ..case("notice overdue, no rate, no pledge during the lock-up: both reported")
            },
            Case {
                as_of: "2026-06-30",
                breaches: vec![Breach {
                    has_payments: true,
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![rate_missing(11, None)],
                ..case(
                    "after the lock-up, payments, no rate to price the rest: the pledge is not releasable",
                )
            },
            Case {
                as_of: "2026-06-30",
                pledges: vec![],
                breaches: vec![Breach {
                    has_payments: true,
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![rate_missing(11, None)],
                ..case(
                    "after the lock-up, payments may have settled it, no pledge: not known to be owed",
                )
            },
            Case {
                as_of: "2026-06-30",
                pledges: vec![],
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![
                    rate_missing(11, Some(("MULTA-2025-0001", "2025-02-25"))),
                    found(Code::MissingPledge, None, None, Why::MissingPledgeWhileOwed),
                ],
                ..case(
                    "after the lock-up, no payment, no rate, no pledge: owed whatever its figure",
                )
            },
            Case {
                min_severity: Severity::High,
                stage_recorded: true,
                breaches: vec![Breach {
                    liquidation: Some(Liquidation {
                        id: 21,
                        provisional: true,
                    }),
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    owed: unpriced(),
                    ..breach(11)
                }],
                expected: vec![rate_missing(11, Some(("MULTA-2025-0001", "2025-02-25")))],
                ..case("high only: RATE_MISSING is high, the stale liquidation medium")
            },
            // SHARES_EXCEEDED
            Case {
                breaches: vec![
                    Breach {
                        shares: 60,
                        ..breach(11)
                    },
                    Breach {
                        shares: 41,
                        ..breach(12)
                    },
                ],
                expected: vec![found(
                    Code::SharesExceeded,
                    None,
                    None,
                    Why::SharesExceeded {
                        breached: 101,
                        adjudicated: 100,
                    },
                )],
                ..case("breaches of 60 and 41 shares out of 100")
            },
            Case {
                breaches: vec![
                    Breach {
                        shares: 60,
                        ..breach(11)
                    },
                    Breach {
                        shares: 40,
                        ..breach(12)
                    },
                ],
                ..case("breaches of 60 and 40 shares out of 100: every share, not more")
            },
            // MISSING_PLEDGE
            Case {
                pledges: vec![],
                expected: vec![found(
                    Code::MissingPledge,
                    None,
                    None,
                    Why::MissingPledgeInLockup { end },
                )],
                ..case("no pledge during the lock-up")
            },
            Case {
                as_of: "2026-06-30",
                pledges: vec![],
                breaches: vec![breach(11)], // no payment: owed in full, not priced
                expected: vec![found(
                    Code::MissingPledge,
                    None,
                    None,
                    Why::MissingPledgeWhileOwed,
                )],
                ..case("no pledge after the lock-up while an unpaid fine is owed")
            },
            Case {
                as_of: "2026-06-30",
                pledges: vec![],
                breaches: vec![Breach {
                    has_payments: true,
                    owed: Owed::Nothing,
                    ..breach(11)
                }],
                ..case("no pledge after the lock-up, the fine paid off: nothing to secure")
            },
            Case {
                as_of: "2026-03-16",
                pledges: vec![],
                ..case("no pledge the day after the lock-up, no fine")
            },
            // BREACH_NOT_LIQUIDATED
            Case {
                breaches: vec![Breach {
                    liquidation: None,
                    notice: None,
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::BreachNotLiquidated,
                    Some(11),
                    None,
                    Why::NoLiquidation {
                        breach: 11,
                        on: day("2024-11-20"),
                    },
                )],
                ..case("a breach without a liquidation")
            },
            Case {
                breaches: vec![Breach {
                    notice: None,
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::BreachNotLiquidated,
                    Some(11),
                    None,
                    Why::NoNotice {
                        breach: 11,
                        on: day("2024-11-20"),
                    },
                )],
                ..case("a liquidated breach without a notice")
            },
            // issue 14: a fine paid off is settled: no notice asked for, nothing to deliver
            Case {
                breaches: vec![Breach {
                    notice: None,
                    has_payments: true,
                    owed: Owed::Nothing,
                    ..breach(11)
                }],
                ..case("a liquidated breach paid off without a notice: nothing to notify")
            },
            Case {
                as_of: "2025-03-10",
                breaches: vec![Breach {
                    notice: notice("MULTA-2025-0001", "2025-02-25"),
                    settled: true,
                    has_payments: true,
                    ..breach(11)
                }],
                ..case("a paz y salvo: the old notice's deadline has passed, nothing is due")
            },
            // NOTICE_UNDELIVERED
            // LEGAL_NOTES §7.3: the term runs from delivery and none is recorded: no deadline
            // yet, so neither overdue (its issued deadline of 2025-02-25 has passed) nor
            // enforceable, though the balance is owed; medium while in its delivery term ...
            Case {
                breaches: vec![Breach {
                    notice: Some(Notice {
                        number: "MULTA-2025-0001",
                        deadline: day("2025-02-25"),
                        undelivered: true,
                        awaits_delivery: true,
                        holder_no_address: false,
                        deliver_by: day("2025-07-08"),
                    }),
                    owed: Owed::Amount(cop(637_486)),
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::NoticeUndelivered,
                    Some(11),
                    None,
                    Why::NoticeUndelivered {
                        number: "MULTA-2025-0001".into(),
                        deliver_by: day("2025-07-08"),
                        late: false,
                    },
                )],
                ..case(
                    "a notice awaiting delivery is never overdue nor makes the pledge enforceable",
                )
            },
            // ... and high once it has passed
            Case {
                min_severity: Severity::High,
                breaches: vec![Breach {
                    notice: Some(Notice {
                        number: "MULTA-2025-0001",
                        deadline: day("2025-02-25"),
                        undelivered: true,
                        awaits_delivery: true,
                        holder_no_address: false,
                        deliver_by: day("2025-03-04"),
                    }),
                    owed: Owed::Amount(cop(637_486)),
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::NoticeUndelivered,
                    Some(11),
                    None,
                    Why::NoticeUndelivered {
                        number: "MULTA-2025-0001".into(),
                        deliver_by: day("2025-03-04"),
                        late: true,
                    },
                )],
                ..case("a notice awaiting delivery past its delivery term is high")
            },
            Case {
                breaches: vec![Breach {
                    notice: Some(Notice {
                        number: "MULTA-2025-0001",
                        deadline: day("2027-01-15"),
                        undelivered: true,
                        awaits_delivery: false,
                        holder_no_address: false,
                        deliver_by: day("2025-06-29"),
                    }),
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::NoticeUndelivered,
                    Some(11),
                    None,
                    Why::NoticeUndelivered {
                        number: "MULTA-2025-0001".into(),
                        deliver_by: day("2025-06-29"),
                        late: true,
                    },
                )],
                ..case("a notice with no delivery recorded past its delivery term")
            },
            Case {
                breaches: vec![Breach {
                    notice: Some(Notice {
                        number: "MULTA-2025-0001",
                        deadline: day("2027-01-15"),
                        undelivered: true,
                        awaits_delivery: false,
                        holder_no_address: false,
                        deliver_by: day("2025-06-30"),
                    }),
                    ..breach(11)
                }],
                ..case("a notice undelivered on the last day of its delivery term: still in time")
            },
            // HOLDER_NO_ADDRESS: the same notice, to a holder with no postal address on file
            Case {
                breaches: vec![Breach {
                    notice: Some(Notice {
                        number: "MULTA-2025-0001",
                        deadline: day("2027-01-15"),
                        undelivered: true,
                        awaits_delivery: false,
                        holder_no_address: true,
                        deliver_by: day("2025-06-30"),
                    }),
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::HolderNoAddress,
                    Some(11),
                    None,
                    Why::HolderNoAddress {
                        number: "MULTA-2025-0001".into(),
                    },
                )],
                ..case("an undelivered notice to a holder with no address on file")
            },
            // PROVISIONAL_STALE
            Case {
                stage_recorded: true,
                breaches: vec![Breach {
                    liquidation: Some(Liquidation {
                        id: 21,
                        provisional: true,
                    }),
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::ProvisionalStale,
                    Some(11),
                    None,
                    Why::ProvisionalStale {
                        breach: 11,
                        liquidation: 21,
                    },
                )],
                ..case("a provisional liquidation and the stage price now recorded")
            },
            Case {
                stage_recorded: false,
                breaches: vec![Breach {
                    liquidation: Some(Liquidation {
                        id: 21,
                        provisional: true,
                    }),
                    ..breach(11)
                }],
                ..case("a provisional liquidation while the stage is still pending")
            },
            Case {
                stage_recorded: true,
                breaches: vec![breach(11)],
                ..case("a final liquidation and the stage price recorded")
            },
            // PLEDGE_RANK
            Case {
                pledges: vec![Pledge { rank: 2, ..PLEDGE }],
                expected: vec![found(
                    Code::PledgeRank,
                    None,
                    None,
                    Why::PledgeRank { pledge: 7 },
                )],
                ..case("a second-degree pledge on an adjudication nobody financed")
            },
            Case {
                pledges: vec![Pledge { rank: 2, ..PLEDGE }],
                financed: true,
                ..case("a second-degree pledge when a lender financed the purchase")
            },
            // LOCKUP_ENDING
            Case {
                as_of: "2026-02-13",
                expected: vec![found(
                    Code::LockupEnding,
                    None,
                    None,
                    Why::LockupEnding { end },
                )],
                ..case("the lock-up ends exactly 30 days after the as-of date")
            },
            Case {
                as_of: "2026-02-12",
                ..case("the lock-up ends 31 days after the as-of date")
            },
            Case {
                as_of: END,
                within_days: 0,
                expected: vec![found(
                    Code::LockupEnding,
                    None,
                    None,
                    Why::LockupEnding { end },
                )],
                ..case("on the lock-up's last day, within 0 days")
            },
            Case {
                as_of: "2026-03-14",
                within_days: 0,
                ..case("the day before the lock-up's last day, within 0 days")
            },
            // PLEDGE_RELEASABLE
            Case {
                as_of: "2026-03-16",
                expected: vec![found(
                    Code::PledgeReleasable,
                    None,
                    None,
                    Why::PledgeReleasable {
                        end,
                        pledge: 7,
                        of: None,
                    },
                )],
                ..case("the day after the lock-up's last day, no fine: releasable")
            },
            Case {
                as_of: END,
                expected: vec![found(
                    Code::LockupEnding,
                    None,
                    None,
                    Why::LockupEnding { end },
                )],
                ..case("on the lock-up's last day the pledge is not releasable yet")
            },
            Case {
                as_of: "2026-03-16",
                breaches: vec![breach(11)],
                ..case("after the lock-up, an unpaid fine (not priced): not releasable")
            },
            Case {
                as_of: "2026-03-16",
                breaches: vec![Breach {
                    has_payments: true,
                    owed: Owed::Amount(cop(1)),
                    ..breach(11)
                }],
                ..case("after the lock-up, one peso still owed after payments: not releasable")
            },
            Case {
                as_of: "2026-03-16",
                breaches: vec![Breach {
                    has_payments: true,
                    owed: Owed::Nothing,
                    ..breach(11)
                }],
                expected: vec![found(
                    Code::PledgeReleasable,
                    None,
                    None,
                    Why::PledgeReleasable {
                        end,
                        pledge: 7,
                        of: None,
                    },
                )],
                ..case("after the lock-up, the fine paid off to zero: releasable")
            },
            // every rule at once, in the order the check reports them; then by severity
            Case {
                as_of: "2026-03-01",
                stage_recorded: true,
                pledges: vec![Pledge { rank: 2, ..PLEDGE }],
                breaches: everything(),
                expected: everything_found(Severity::Low),
                ..case("every rule at once")
            },
            Case {
                as_of: "2026-03-01",
                min_severity: Severity::Medium,
                stage_recorded: true,
                pledges: vec![Pledge { rank: 2, ..PLEDGE }],
                breaches: everything(),
                expected: everything_found(Severity::Medium),
                ..case("every rule at once, medium and high only")
            },
            Case {
                as_of: "2026-03-01",
                min_severity: Severity::High,
                stage_recorded: true,
                pledges: vec![Pledge { rank: 2, ..PLEDGE }],
                breaches: everything(),
                expected: everything_found(Severity::High),
                ..case("every rule at once, high only")
            },
        ]
    }

    /// Breach 11 (60 shares) never liquidated; breach 12 (50 shares) liquidated provisionally
    /// (22), noticed N-2 due 2026-02-20, 1,000 outstanding.
    fn everything() -> Vec<Breach<'static>> {
        vec![
            Breach {
                shares: 60,
                liquidation: None,
                notice: None,
                ..breach(11)
            },
            Breach {
                shares: 50,
                liquidation: Some(Liquidation {
                    id: 22,
                    provisional: true,
                }),
                notice: notice("N-2", "2026-02-20"),
                owed: Owed::Amount(cop(1_000)),
                ..breach(12)
            },
        ]
    }

    /// As of 2026-03-01 (lock-up ends 2026-03-15, within 30 days), stage recorded, pledge 7
    /// second degree and not financed.
    fn everything_found(min: Severity) -> Vec<Assessed> {
        let end = day(END);
        let due = Some(cop(1_000));
        let all = vec![
            found(
                Code::BreachNotLiquidated,
                Some(11),
                None,
                Why::NoLiquidation {
                    breach: 11,
                    on: day("2024-11-20"),
                },
            ),
            found(
                Code::ProvisionalStale,
                Some(12),
                None,
                Why::ProvisionalStale {
                    breach: 12,
                    liquidation: 22,
                },
            ),
            found(
                Code::NoticeOverdue,
                Some(12),
                due,
                Why::NoticeOverdue {
                    number: "N-2".into(),
                    deadline: day("2026-02-20"),
                    due: cop(1_000),
                },
            ),
            found(
                Code::SharesExceeded,
                None,
                None,
                Why::SharesExceeded {
                    breached: 110,
                    adjudicated: 100,
                },
            ),
            found(Code::PledgeRank, None, None, Why::PledgeRank { pledge: 7 }),
            found(Code::LockupEnding, None, None, Why::LockupEnding { end }),
            found(
                Code::PledgeEnforceable,
                Some(12),
                due,
                Why::PledgeEnforceable {
                    breach: 12,
                    pledge: 7,
                    due: cop(1_000),
                    of: None,
                },
            ),
        ];
        let kept: Vec<Assessed> = all
            .into_iter()
            .filter(|f| super::super::severity_of(f.code, &f.why) <= min)
            .collect();
        // the filter is checked by hand too: 3 high, 3 medium, 1 low
        let expected_len = match min {
            Severity::High => 3,
            Severity::Medium => 6,
            Severity::Low => 7,
        };
        assert_eq!(kept.len(), expected_len);
        kept
    }

    #[test]
    fn assess_decides_every_case_as_worked_out_by_hand() {
        let cases = cases();
        let mut failures = Vec::new();
        for c in &cases {
            let opts = Options {
                as_of: day(c.as_of),
                program_id: None,
                within_days: c.within_days,
                min_severity: c.min_severity,
            };
            let a = Adjudication {
                shares: c.shares,
                financed: c.financed,
                financed_shares: c.financed_shares,
                lockup_end: day(END),
                pledges: &c.pledges,
                stage_recorded: c.stage_recorded,
                breaches: &c.breaches,
            };
            let mut got = Vec::new();
            assess(&a, &opts, |f| got.push(f));
            if got != c.expected {
                failures.push(format!(
                    "{}:\n  expected {:?}\n  got      {:?}",
                    c.name, c.expected, got
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // not vacuous: every code is expected somewhere (RATE_DUE, about the register as a
        // whole, in its own test), and so is a clean result
        for code in Code::ALL.into_iter().filter(|c| *c != Code::RateDue) {
            assert!(
                cases
                    .iter()
                    .any(|c| c.expected.iter().any(|f| f.code == code)),
                "no case expects {}",
                code.as_str()
            );
        }
        assert!(cases.iter().any(|c| c.expected.is_empty()));
        assert_eq!(cases.len(), 45);
    }

    #[test]
    fn rate_due_in_the_last_five_days_of_a_month_without_next_months_rate() {
        // (as of, last certified day, min severity, next month's first day if due)
        let cases = [
            ("2026-11-25", "2026-11-30", Severity::Low, None),
            (
                "2026-11-26",
                "2026-11-30",
                Severity::Low,
                Some("2026-12-01"),
            ),
            (
                "2026-11-30",
                "2026-11-30",
                Severity::Low,
                Some("2026-12-01"),
            ),
            (
                "2026-11-30",
                "2026-11-30",
                Severity::Medium,
                Some("2026-12-01"),
            ),
            ("2026-11-30", "2026-11-30", Severity::High, None),
            ("2026-11-30", "2026-12-31", Severity::Low, None),
            ("2026-12-01", "2026-11-30", Severity::Low, None),
            ("2026-10-26", "2026-10-31", Severity::Low, None),
            (
                "2026-10-27",
                "2026-10-31",
                Severity::Low,
                Some("2026-11-01"),
            ),
            (
                "2026-12-27",
                "2026-12-31",
                Severity::Low,
                Some("2027-01-01"),
            ),
            ("2028-02-24", "2028-02-29", Severity::Low, None),
            (
                "2028-02-25",
                "2028-02-29",
                Severity::Low,
                Some("2028-03-01"),
            ),
            (
                "2027-02-24",
                "2027-02-28",
                Severity::Low,
                Some("2027-03-01"),
            ),
        ];
        for (as_of, certified_to, min_severity, due) in cases {
            let opts = Options {
                as_of: day(as_of),
                program_id: None,
                within_days: 30,
                min_severity,
            };
            let expected = due.map(|first| {
                found(
                    Code::RateDue,
                    None,
                    None,
                    Why::RateDue { first: day(first) },
                )
            });
            assert_eq!(
                rate_due(&opts, |d| d <= day(certified_to)),
                expected,
                "as of {as_of}, certified to {certified_to}, {min_severity:?}"
            );
        }
        assert_eq!(Code::RateDue.severity(), Severity::Medium);
    }

    #[test]
    fn a_balance_is_priced_only_when_a_decision_needs_it() {
        let end = day(END);
        let overdue = notice("N", "2025-02-25");
        let in_time = notice("N", "2025-06-30");
        // (notice, payments, as of, needed)
        let cases = [
            (None, false, "2025-06-30", false),
            // payments with no notice yet: the balance says whether the fine is settled
            (None, true, "2025-06-30", true),
            (in_time, true, "2025-06-30", false),
            (overdue, false, "2025-06-30", true),
            (overdue, true, "2025-06-30", true),
            (None, true, END, true),
            (None, true, "2026-03-16", true),
            (None, false, "2026-03-16", false),
            (overdue, false, "2026-03-16", true),
        ];
        for (notice, has_payments, as_of, needed) in cases {
            let b = Breach {
                notice,
                has_payments,
                ..breach(11)
            };
            assert_eq!(
                b.needs_balance(day(as_of), end),
                needed,
                "{notice:?}, payments {has_payments}, as of {as_of}"
            );
            // a paz y salvo settles it: no figure is ever needed
            let settled = Breach { settled: true, ..b };
            assert!(!settled.needs_balance(day(as_of), end));
        }
    }

    #[test]
    fn a_priced_balance_is_owed_only_when_positive() {
        assert_eq!(Owed::priced(Decimal::ZERO), Owed::Nothing);
        assert_eq!(Owed::priced(cop(1)), Owed::Amount(cop(1)));
        assert_eq!(
            Owed::priced(Decimal::new(1, 2)),
            Owed::Amount(Decimal::new(1, 2))
        );
    }
}
