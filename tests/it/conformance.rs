//! Conformance: every case names its source. First the hand-worked cases (SPEC.md §3 and §5,
//! Decreto 3939 de 2004 Art. 9), then 400 random cases computed by the independent reference
//! implementation `tests/reference/spec_reference.py` (day-by-day walk, Python `decimal` at 60
//! digits), replayed here through the library and compared peso for peso.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::Value;
use std::str::FromStr;
use vigia::calendar::FineScale;
use vigia::fine::{
    Convention, FineCase, Liquidation, Outcome, Payment, ReferencePrices, StagePrice, liquidate,
};
use vigia::rates::RateSeries;

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn quote(
    adjudicated: &str,
    breach: &str,
    shares: u64,
    prices: (&str, Option<&str>, Option<&str>),
    until: &str,
    payments: &[(&str, &str)],
    convention: Convention,
) -> Outcome {
    let case = FineCase {
        adjudicated: date(adjudicated),
        breach_date: date(breach),
        shares,
        prices: ReferencePrices {
            acquisition: dec(prices.0),
            transfer: prices.1.map(dec),
            stage: prices
                .2
                .map(|s| StagePrice::Known(dec(s)))
                .unwrap_or(StagePrice::Absent),
        },
        scale: FineScale::decreto_3939_2004(),
    };
    let payments: Vec<Payment> = payments
        .iter()
        .map(|(d, a)| Payment {
            date: date(d),
            amount: dec(a),
        })
        .collect();
    liquidate(
        &case,
        date(until),
        &payments,
        convention,
        &RateSeries::shipped(),
    )
    .unwrap()
}

fn liq(o: Outcome) -> Liquidation {
    match o {
        Outcome::Liquidated(l) => *l,
        Outcome::NotApplicable(n) => panic!("expected a fine, got {n:?}"),
    }
}

fn pieces(l: &Liquidation) -> Vec<i64> {
    l.pieces
        .iter()
        .map(|p| i64::try_from(p.interest.mantissa()).unwrap())
        .collect()
}

/// SPEC.md §5 worked example, the three conventions.
#[test]
fn spec_5_worked_example_all_conventions() {
    let prices = ("963", Some("1450"), Some("1100"));
    let expected = [
        (
            Convention::DailySimple,
            vec![7334, 21639, 20535, 6959],
            "56467",
            "1143967",
        ),
        (
            Convention::PeriodEffective,
            vec![7357, 21848, 20724, 6979],
            "56908",
            "1144408",
        ),
        (
            Convention::Compound,
            vec![7357, 21996, 21283, 7304],
            "57940",
            "1145440",
        ),
    ];
    for (convention, want_pieces, interest, total) in expected {
        let l = liq(quote(
            "2024-03-15",
            "2024-11-20",
            1000,
            prices,
            "2025-02-10",
            &[],
            convention,
        ));
        assert_eq!(l.principal, dec("1087500"), "{convention}");
        assert_eq!(pieces(&l), want_pieces, "{convention}");
        assert_eq!(l.interest, dec(interest), "{convention}");
        assert_eq!(l.total_due, dec(total), "{convention}");
    }
}

/// SPEC.md §5, the same example with a payment of 500,000 on 2024-12-15.
#[test]
fn spec_5_worked_example_with_payment() {
    let l = liq(quote(
        "2024-03-15",
        "2024-11-20",
        1000,
        ("963", Some("1450"), Some("1100")),
        "2025-02-10",
        &[("2024-12-15", "500000")],
        Convention::DailySimple,
    ));
    assert_eq!(pieces(&l), vec![7334, 10470, 6216, 11430, 3873]);
    assert_eq!(l.payments[0].to_interest, dec("17804"));
    assert_eq!(l.payments[0].to_capital, dec("482196"));
    assert_eq!(l.outstanding_capital, dec("605304"));
    assert_eq!(l.outstanding_interest, dec("21519"));
    assert_eq!(l.total_due, dec("626823"));
}

/// SPEC.md §3 / Decreto 3939 Art. 9 lits. a–d: anniversaries and the day after each.
#[test]
fn spec_3_bracket_boundaries_price_the_principal() {
    // 100 shares at 1,000 (acquisition only): principal = 100,000 × percent.
    let cases = [
        ("2024-09-15", "100000"),
        ("2024-09-16", "75000"),
        ("2025-03-15", "75000"),
        ("2025-03-16", "50000"),
        ("2025-09-15", "50000"),
        ("2025-09-16", "25000"),
        ("2026-03-15", "25000"),
    ];
    for (breach, principal) in cases {
        let l = liq(quote(
            "2024-03-15",
            breach,
            100,
            ("1000", None, None),
            breach,
            &[],
            Convention::DailySimple,
        ));
        assert_eq!(l.principal, dec(principal), "breach {breach}");
    }
    match quote(
        "2024-03-15",
        "2026-03-16",
        100,
        ("1000", None, None),
        "2026-03-16",
        &[],
        Convention::DailySimple,
    ) {
        Outcome::NotApplicable(n) => assert_eq!(n.lockup_end, date("2026-03-15")),
        other => panic!("{other:?}"),
    }
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

/// 400 random cases (2006–2026, fractional prices, up to 10^9 shares, payments, all conventions)
/// from the independent reference implementation.
#[test]
fn random_cases_match_the_independent_reference() {
    let text = include_str!("../conformance/random_cases.json");
    let cases: Vec<Value> = serde_json::from_str(text).unwrap();
    assert_eq!(cases.len(), 400);
    let rates = RateSeries::shipped();
    let mut applied = 0;
    for c in &cases {
        let id = &c["id"];
        let opt = |k: &str| c[k].as_str().map(dec);
        let case = FineCase {
            adjudicated: date(s(&c["adjudicated"])),
            breach_date: date(s(&c["breach_date"])),
            shares: c["shares"].as_u64().unwrap(),
            prices: ReferencePrices {
                acquisition: dec(s(&c["acquisition_price"])),
                transfer: opt("transfer_price"),
                stage: opt("stage_price")
                    .map(StagePrice::Known)
                    .unwrap_or(StagePrice::Absent),
            },
            scale: FineScale::decreto_3939_2004(),
        };
        let payments: Vec<Payment> = c["payments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Payment {
                date: date(s(&p["date"])),
                amount: dec(s(&p["amount"])),
            })
            .collect();
        let convention: Convention = s(&c["convention"]).parse().unwrap();
        let want = &c["expected"];
        let outcome =
            liquidate(&case, date(s(&c["until"])), &payments, convention, &rates).unwrap();
        let l = match outcome {
            Outcome::NotApplicable(n) => {
                assert_eq!(want["applies"], Value::Bool(false), "case {id}");
                assert_eq!(
                    n.lockup_end.to_string(),
                    s(&want["lockup_end"]),
                    "case {id}"
                );
                continue;
            }
            Outcome::Liquidated(l) => l,
        };
        applied += 1;
        assert_eq!(want["applies"], Value::Bool(true), "case {id}");
        assert_eq!(
            l.bracket.percent,
            dec(s(&want["bracket_percent"])),
            "case {id}"
        );
        assert_eq!(l.basis.as_str(), s(&want["basis"]), "case {id}");
        assert_eq!(l.principal, dec(s(&want["principal"])), "case {id}");
        let want_pieces = want["pieces"].as_array().unwrap();
        assert_eq!(l.pieces.len(), want_pieces.len(), "case {id}: piece count");
        for (got, w) in l.pieces.iter().zip(want_pieces) {
            assert_eq!(got.from.to_string(), s(&w["from"]), "case {id}");
            assert_eq!(got.to.to_string(), s(&w["to"]), "case {id}");
            assert_eq!(
                got.interest,
                dec(s(&w["interest"])),
                "case {id}: piece {}",
                got.from
            );
        }
        let want_payments = want["payments"].as_array().unwrap();
        assert_eq!(
            l.payments.len(),
            want_payments.len(),
            "case {id}: payment count"
        );
        for (got, w) in l.payments.iter().zip(want_payments) {
            assert_eq!(got.to_interest, dec(s(&w["to_interest"])), "case {id}");
            assert_eq!(got.to_capital, dec(s(&w["to_capital"])), "case {id}");
            assert_eq!(got.surplus, dec(s(&w["surplus"])), "case {id}");
        }
        assert_eq!(l.interest, dec(s(&want["interest"])), "case {id}");
        assert_eq!(
            l.outstanding_capital,
            dec(s(&want["outstanding_capital"])),
            "case {id}"
        );
        assert_eq!(
            l.outstanding_interest,
            dec(s(&want["outstanding_interest"])),
            "case {id}"
        );
        assert_eq!(l.total_due, dec(s(&want["total_due"])), "case {id}");
    }
    assert!(applied > 250, "too few applicable cases: {applied}");
}
