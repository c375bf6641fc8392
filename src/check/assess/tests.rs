//! Unit tests of `assess.rs`.

//! Every expectation is worked out by hand from SPEC §7–§8 and the rules above: an
//! adjudication of 2024-03-15 with a 24-month lock-up, whose last day is 2026-03-15 (SPEC §3:
//! the holder is free from 2026-03-16).
use super::*;
use crate::check::Severity;
mod cases;
use cases::cases;

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
            stale: false,
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
        may_grow: false,
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
    stage_so_far: bool,
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
        stage_so_far: false,
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
                stale: true,
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
                so_far: false,
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
            stage_so_far: c.stage_so_far,
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
    assert_eq!(cases.len(), 47);
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
