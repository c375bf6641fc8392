//! The table of cases `assess` is checked against, each worked out by hand (see the parent).

use super::*;

pub(super) fn cases() -> Vec<Case> {
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
            ..case("after the lock-up, no payment, no rate, no pledge: owed whatever its figure")
        },
        Case {
            min_severity: Severity::High,
            breaches: vec![Breach {
                liquidation: Some(Liquidation {
                    id: 21,
                    stale: true,
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
            ..case("a notice awaiting delivery is never overdue nor makes the pledge enforceable")
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
            breaches: vec![Breach {
                liquidation: Some(Liquidation {
                    id: 21,
                    stale: true,
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
                    so_far: false,
                },
            )],
            ..case("a provisional liquidation and the stage price now final")
        },
        Case {
            stage_so_far: true,
            breaches: vec![Breach {
                liquidation: Some(Liquidation {
                    id: 21,
                    stale: true,
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
                    so_far: true,
                },
            )],
            ..case("a provisional liquidation and another stage price so far")
        },
        Case {
            breaches: vec![Breach {
                liquidation: Some(Liquidation {
                    id: 21,
                    stale: false,
                }),
                ..breach(11)
            }],
            ..case("a provisional liquidation the stage price has not changed since")
        },
        Case {
            breaches: vec![breach(11)],
            ..case("a final liquidation")
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
        Case {
            as_of: "2026-03-16",
            breaches: vec![Breach {
                has_payments: true,
                owed: Owed::Nothing,
                may_grow: true,
                ..breach(11)
            }],
            ..case("after the lock-up, paid off to zero but still provisional: not releasable")
        },
        // every rule at once, in the order the check reports them; then by severity
        Case {
            as_of: "2026-03-01",
            pledges: vec![Pledge { rank: 2, ..PLEDGE }],
            breaches: everything(),
            expected: everything_found(Severity::Low),
            ..case("every rule at once")
        },
        Case {
            as_of: "2026-03-01",
            min_severity: Severity::Medium,
            pledges: vec![Pledge { rank: 2, ..PLEDGE }],
            breaches: everything(),
            expected: everything_found(Severity::Medium),
            ..case("every rule at once, medium and high only")
        },
        Case {
            as_of: "2026-03-01",
            min_severity: Severity::High,
            pledges: vec![Pledge { rank: 2, ..PLEDGE }],
            breaches: everything(),
            expected: everything_found(Severity::High),
            ..case("every rule at once, high only")
        },
    ]
}
