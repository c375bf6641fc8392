//! `cargo bench`: how long one fine quote takes.
//!
//! 1. In-process: one `liquidate` over a 20-year span (2006-10-31 → 2026-10-31) on a monthly rate
//!    series (240 monthly periods built from the shipped figures), for each convention, with and
//!    without payments; the target is well under a millisecond.
//! 2. Whole process: `vigia fine quote` over the same span with the embedded series, spawned
//!    repeatedly; the target is under 20 ms.
//!
//! Plain `std::time::Instant` timing with a warm-up and a median of repeated runs (no framework,
//! to keep the build lean). Prints a table; asserts nothing (speed lives here, not in tests).

use chrono::NaiveDate;
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};
use vigia::calendar::{FineScale, add_months};
use vigia::fine::{Convention, FineCase, Payment, ReferencePrices, StagePrice, liquidate};
use vigia::money::dec;
use vigia::rates::{RatePeriod, RateSeries};

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// 240+ monthly periods: each month takes the moratorium rate the shipped series has on its
/// first day (quarterly certifications become three monthly rows).
fn monthly_series() -> RateSeries {
    let shipped = RateSeries::shipped();
    let start = date("2006-10-01");
    let mut periods = Vec::new();
    for m in 0..242 {
        let first = add_months(start, m).unwrap();
        let last = add_months(start, m + 1).unwrap().pred_opt().unwrap();
        let Some(p) = shipped.period_on(first) else {
            break;
        };
        periods.push(
            RatePeriod::new(
                first,
                last,
                p.ibc_ea_pct,
                p.usury_ea_pct,
                p.resolution.clone(),
                0,
            )
            .unwrap(),
        );
    }
    RateSeries::from_periods(periods, "monthly bench series").unwrap()
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let rates = monthly_series();
    let case = FineCase {
        adjudicated: date("2006-03-15"),
        breach_date: date("2006-10-31"),
        shares: 123_456_789,
        prices: ReferencePrices {
            acquisition: dec("963.25"),
            transfer: Some(dec("1450.5")),
            stage: StagePrice::Known(dec("1100")),
        },
        scale: FineScale::decreto_3939_2004(),
    };
    let until = date("2026-10-31");
    let payments: Vec<Payment> = (1..=20)
        .map(|y| Payment {
            date: add_months(date("2006-11-15"), 12 * y - 1).unwrap(),
            amount: dec("5000000000"),
        })
        .collect();
    println!(
        "in-process quote, 20 years ({} monthly periods)",
        rates.periods().len()
    );
    println!(
        "{:<18} {:>10} {:>14} {:>8}",
        "convention", "payments", "median", "pieces"
    );
    for conv in Convention::ALL {
        for pays in [&[][..], &payments[..]] {
            let mut pieces = 0;
            for _ in 0..20 {
                black_box(liquidate(&case, until, pays, conv, &rates).unwrap());
            }
            let times: Vec<Duration> = (0..300)
                .map(|_| {
                    let t = Instant::now();
                    let out =
                        black_box(liquidate(black_box(&case), until, pays, conv, &rates).unwrap());
                    let e = t.elapsed();
                    if let vigia::fine::Outcome::Liquidated(l) = out {
                        pieces = l.pieces.len();
                    }
                    e
                })
                .collect();
            println!(
                "{:<18} {:>10} {:>11.1} µs {:>8}",
                conv.as_str(),
                pays.len(),
                median(times).as_secs_f64() * 1e6,
                pieces
            );
        }
    }

    let exe = env!("CARGO_BIN_EXE_vigia");
    let args = [
        "fine",
        "quote",
        "--adjudicated",
        "2006-03-15",
        "--breach-date",
        "2006-10-31",
        "--shares",
        "123456789",
        "--acquisition-price",
        "963.25",
        "--transfer-price",
        "1450.5",
        "--until",
        "2026-10-31",
        "--format",
        "json",
    ];
    let run = || {
        let t = Instant::now();
        let o = Command::new(exe).args(args).output().unwrap();
        assert!(o.status.success());
        t.elapsed()
    };
    for _ in 0..3 {
        run();
    }
    let times: Vec<Duration> = (0..30).map(|_| run()).collect();
    println!(
        "\nwhole process `vigia fine quote` over 20 years, embedded series: median {:.1} ms (30 runs)",
        median(times).as_secs_f64() * 1e3
    );
}
