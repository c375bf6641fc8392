//! Accrual of the Art. 9 adjustment at the maximum moratorium rate (SPEC §5) and imputation of
//! payments, interest first then capital (C.C. Art. 1653; SPEC §6). Pure: takes a principal, a
//! span, payments and a rate series; returns every piece, each rounded to the peso on its own.

use crate::money::round_peso;
use crate::rates::{MissingRates, RateSeries, Segment};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;
use std::str::FromStr;

/// How the moratorium rate turns capital into interest over a piece of `days` days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Convention {
    /// capital × i_d × days, i_d = (1 + EA)^(1/365) − 1; capital constant (C.Co. 886).
    #[default]
    DailySimple,
    /// capital × ((1 + EA)^(days/365) − 1); capital constant.
    PeriodEffective,
    /// (capital + unpaid interest) × ((1 + EA)^(days/365) − 1): capitalises interest.
    Compound,
}

impl Convention {
    pub const ALL: [Convention; 3] = [
        Convention::DailySimple,
        Convention::PeriodEffective,
        Convention::Compound,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Convention::DailySimple => "daily-simple",
            Convention::PeriodEffective => "period-effective",
            Convention::Compound => "compound",
        }
    }

    /// The convention's name in Spanish, as documents print it.
    pub fn name_es(self) -> &'static str {
        match self {
            Convention::DailySimple => "interés simple diario",
            Convention::PeriodEffective => "interés efectivo por tramo",
            Convention::Compound => "interés compuesto",
        }
    }

    /// One plain Spanish sentence saying how interest was computed, for liquidations and notices.
    pub fn explain_es(self) -> &'static str {
        match self {
            Convention::DailySimple => {
                "Interés simple diario: cada día se liquida sobre el capital pendiente a la tasa diaria \
                 equivalente (1 + tasa EA)^(1/365) − 1, sin capitalizar intereses (C.Co. art. 886)."
            }
            Convention::PeriodEffective => {
                "Interés efectivo por tramo: en cada tramo el capital pendiente se multiplica por \
                 (1 + tasa EA)^(días/365) − 1, sin capitalizar intereses (C.Co. art. 886)."
            }
            Convention::Compound => {
                "Interés compuesto: en cada tramo el capital más los intereses no pagados se \
                 multiplican por (1 + tasa EA)^(días/365) − 1; los intereses se capitalizan."
            }
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Convention {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Convention::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                format!("{s:?} is not a convention; use daily-simple, period-effective or compound")
            })
    }
}

/// A dated payment against a fine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub date: NaiveDate,
    pub amount: Decimal,
}

/// One row of a liquidation: consecutive days under one rate and one capital.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// First day accrued (inclusive).
    pub from: NaiveDate,
    /// Last day accrued (inclusive).
    pub to: NaiveDate,
    pub days: i64,
    pub moratorium_ea_pct: Decimal,
    pub daily_rate: Decimal,
    pub resolution: String,
    /// The base that accrued: outstanding capital (plus unpaid interest under `compound`).
    pub capital: Decimal,
    /// Rounded to the peso.
    pub interest: Decimal,
}

/// How one payment was imputed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedPayment {
    pub date: NaiveDate,
    pub amount: Decimal,
    pub to_interest: Decimal,
    pub to_capital: Decimal,
    /// What exceeded the whole debt: to be refunded.
    pub surplus: Decimal,
    /// Capital still owed right after this payment.
    pub capital_after: Decimal,
}

/// The result of accruing a principal over a span with payments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accrual {
    pub pieces: Vec<Piece>,
    pub payments: Vec<AppliedPayment>,
    /// Sum of the pieces' interest (paid or not).
    pub interest: Decimal,
    pub outstanding_capital: Decimal,
    pub outstanding_interest: Decimal,
    /// Sum of the payments' surpluses.
    pub surplus: Decimal,
}

impl Accrual {
    /// capital + unpaid interest.
    pub fn total_due(&self) -> Decimal {
        self.outstanding_capital + self.outstanding_interest
    }
}

/// Why an accrual could not be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccrualError {
    /// Payment number `index` (0-based, in the order given) is dated outside `[from, until]`.
    PaymentOutsideSpan {
        index: usize,
        date: NaiveDate,
        from: NaiveDate,
        until: NaiveDate,
    },
    /// Payment number `index` is zero or negative.
    PaymentNotPositive {
        index: usize,
        amount: Decimal,
    },
    MissingRates(MissingRates),
}

/// Accrues `principal` over the days `from < d <= until` under `convention`, splitting at every
/// rate change and at every payment, and imputes each payment to unpaid interest first, then to
/// capital, keeping any excess as surplus. Payments on the same day apply in the order given.
pub fn accrue(
    principal: Decimal,
    from: NaiveDate,
    until: NaiveDate,
    payments: &[Payment],
    convention: Convention,
    rates: &RateSeries,
) -> Result<Accrual, AccrualError> {
    for (index, p) in payments.iter().enumerate() {
        if p.date < from || p.date > until {
            return Err(AccrualError::PaymentOutsideSpan {
                index,
                date: p.date,
                from,
                until,
            });
        }
        if p.amount <= Decimal::ZERO {
            return Err(AccrualError::PaymentNotPositive {
                index,
                amount: p.amount,
            });
        }
    }
    let segments = rates
        .segments(from, until)
        .map_err(AccrualError::MissingRates)?;
    let mut order: Vec<&Payment> = payments.iter().collect();
    order.sort_by_key(|p| p.date); // stable: same-day payments keep the recorded order

    let mut walk = Walk {
        segments: &segments,
        next_segment: 0,
        through: from,
        convention,
        capital: principal,
        unpaid_interest: Decimal::ZERO,
        pieces: Vec::new(),
    };
    let mut applied = Vec::with_capacity(order.len());
    for p in order {
        walk.accrue_through(p.date);
        applied.push(walk.apply(p));
    }
    walk.accrue_through(until);

    let interest = walk.pieces.iter().map(|p| p.interest).sum();
    let surplus = applied.iter().map(|p: &AppliedPayment| p.surplus).sum();
    Ok(Accrual {
        pieces: walk.pieces,
        payments: applied,
        interest,
        outstanding_capital: walk.capital,
        outstanding_interest: walk.unpaid_interest,
        surplus,
    })
}

struct Walk<'a, 'r> {
    segments: &'a [Segment<'r>],
    next_segment: usize,
    /// Last day already accrued.
    through: NaiveDate,
    convention: Convention,
    capital: Decimal,
    unpaid_interest: Decimal,
    pieces: Vec<Piece>,
}

impl Walk<'_, '_> {
    fn accrue_through(&mut self, target: NaiveDate) {
        while self.through < target {
            let Some(seg) = self.segments.get(self.next_segment) else {
                return; // cannot happen: segments cover (from, until] and target <= until
            };
            let first = self.through.succ_opt().expect("date within range");
            let last = seg.last.min(target);
            let days = (last - first).num_days() + 1;
            let period = seg.period;
            let base = match self.convention {
                Convention::Compound => self.capital + self.unpaid_interest,
                _ => self.capital,
            };
            let raw = match self.convention {
                Convention::DailySimple => base * period.daily_rate() * Decimal::from(days),
                Convention::PeriodEffective | Convention::Compound => base * period.growth(days),
            };
            let interest = round_peso(raw);
            self.unpaid_interest += interest;
            self.pieces.push(Piece {
                from: first,
                to: last,
                days,
                moratorium_ea_pct: period.moratorium_ea_pct(),
                daily_rate: period.daily_rate(),
                resolution: period.resolution.clone(),
                capital: base,
                interest,
            });
            self.through = last;
            if last == seg.last {
                self.next_segment += 1;
            }
        }
    }

    fn apply(&mut self, p: &Payment) -> AppliedPayment {
        let to_interest = p.amount.min(self.unpaid_interest);
        let rest = p.amount - to_interest;
        let to_capital = rest.min(self.capital);
        let surplus = rest - to_capital;
        self.unpaid_interest -= to_interest;
        self.capital -= to_capital;
        AppliedPayment {
            date: p.date,
            amount: p.amount,
            to_interest,
            to_capital,
            surplus,
            capital_after: self.capital,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn interests(a: &Accrual) -> Vec<Decimal> {
        a.pieces.iter().map(|p| p.interest).collect()
    }

    fn ints(xs: &[i64]) -> Vec<Decimal> {
        xs.iter().map(|&x| Decimal::from(x)).collect()
    }

    // SPEC §5 worked example: principal 1,087,500 from 2024-11-20 to 2025-02-10 (82 days).
    fn spec_example(convention: Convention, payments: &[Payment]) -> Accrual {
        accrue(
            dec("1087500"),
            date("2024-11-20"),
            date("2025-02-10"),
            payments,
            convention,
            &RateSeries::shipped(),
        )
        .unwrap()
    }

    #[test]
    fn spec_example_daily_simple() {
        let a = spec_example(Convention::DailySimple, &[]);
        assert_eq!(interests(&a), ints(&[7334, 21639, 20535, 6959]));
        let days: Vec<i64> = a.pieces.iter().map(|p| p.days).collect();
        assert_eq!(days, vec![10, 31, 31, 10]);
        assert_eq!(a.pieces[0].from, date("2024-11-21"));
        assert_eq!(a.pieces[3].to, date("2025-02-10"));
        assert_eq!(a.interest, dec("56467"));
        assert_eq!(a.total_due(), dec("1143967"));
    }

    #[test]
    fn spec_example_period_effective() {
        let a = spec_example(Convention::PeriodEffective, &[]);
        assert_eq!(interests(&a), ints(&[7357, 21848, 20724, 6979]));
        assert_eq!(a.interest, dec("56908"));
    }

    #[test]
    fn spec_example_compound() {
        let a = spec_example(Convention::Compound, &[]);
        assert_eq!(interests(&a), ints(&[7357, 21996, 21283, 7304]));
        assert_eq!(a.interest, dec("57940"));
        // the bases grow by the unpaid interest
        assert_eq!(a.pieces[1].capital, dec("1094857"));
    }

    #[test]
    fn spec_example_with_partial_payment() {
        let pay = [Payment {
            date: date("2024-12-15"),
            amount: dec("500000"),
        }];
        let a = spec_example(Convention::DailySimple, &pay);
        assert_eq!(interests(&a), ints(&[7334, 10470, 6216, 11430, 3873]));
        let p = &a.payments[0];
        assert_eq!(
            (p.to_interest, p.to_capital, p.surplus),
            (dec("17804"), dec("482196"), dec("0"))
        );
        assert_eq!(a.outstanding_capital, dec("605304"));
        assert_eq!(a.outstanding_interest, dec("21519"));
        assert_eq!(a.total_due(), dec("626823"));
        assert_eq!(a.pieces[2].capital, dec("605304"));
        assert_eq!(
            (a.pieces[1].to, a.pieces[2].from),
            (date("2024-12-15"), date("2024-12-16"))
        );
    }

    #[test]
    fn payment_on_the_breach_day_goes_to_capital() {
        let pay = [Payment {
            date: date("2024-11-20"),
            amount: dec("87500"),
        }];
        let a = spec_example(Convention::DailySimple, &pay);
        let p = &a.payments[0];
        assert_eq!((p.to_interest, p.to_capital), (dec("0"), dec("87500")));
        assert_eq!(a.pieces[0].capital, dec("1000000"));
        assert_eq!(a.outstanding_capital, dec("1000000"));
    }

    #[test]
    fn payment_on_the_until_day_settles_after_accruing_that_day() {
        let pay = [Payment {
            date: date("2025-02-10"),
            amount: dec("1143967"),
        }];
        let a = spec_example(Convention::DailySimple, &pay);
        assert_eq!(interests(&a), ints(&[7334, 21639, 20535, 6959]));
        let p = &a.payments[0];
        assert_eq!(
            (p.to_interest, p.to_capital, p.surplus),
            (dec("56467"), dec("1087500"), dec("0"))
        );
        assert_eq!(a.total_due(), dec("0"));
    }

    #[test]
    fn overpayment_is_kept_as_surplus_and_accrual_stops() {
        let pay = [
            Payment {
                date: date("2024-12-15"),
                amount: dec("2000000"),
            },
            Payment {
                date: date("2025-01-10"),
                amount: dec("5"),
            },
        ];
        let a = spec_example(Convention::DailySimple, &pay);
        // 17,804 interest + 1,087,500 capital settled; the rest is refundable.
        assert_eq!(a.payments[0].surplus, dec("894696"));
        assert_eq!(a.payments[1].surplus, dec("5"));
        assert_eq!(a.surplus, dec("894701"));
        assert_eq!(a.total_due(), dec("0"));
        assert!(a.pieces[2..].iter().all(|p| p.interest.is_zero()));
        // days still add up over the whole span
        assert_eq!(a.pieces.iter().map(|p| p.days).sum::<i64>(), 82);
    }

    #[test]
    fn same_day_payments_apply_in_recorded_order() {
        let pay = [
            Payment {
                date: date("2024-12-15"),
                amount: dec("10000"),
            },
            Payment {
                date: date("2024-12-15"),
                amount: dec("10000"),
            },
        ];
        let a = spec_example(Convention::DailySimple, &pay);
        assert_eq!(
            (a.payments[0].to_interest, a.payments[0].to_capital),
            (dec("10000"), dec("0"))
        );
        assert_eq!(
            (a.payments[1].to_interest, a.payments[1].to_capital),
            (dec("7804"), dec("2196"))
        );
    }

    #[test]
    fn rejects_payments_outside_the_span_or_not_positive() {
        let r = RateSeries::shipped();
        let early = [Payment {
            date: date("2024-11-19"),
            amount: dec("1"),
        }];
        assert!(matches!(
            accrue(
                dec("1"),
                date("2024-11-20"),
                date("2025-02-10"),
                &early,
                Convention::DailySimple,
                &r
            ),
            Err(AccrualError::PaymentOutsideSpan { index: 0, .. })
        ));
        let zero = [Payment {
            date: date("2024-12-01"),
            amount: dec("0"),
        }];
        assert!(matches!(
            accrue(
                dec("1"),
                date("2024-11-20"),
                date("2025-02-10"),
                &zero,
                Convention::DailySimple,
                &r
            ),
            Err(AccrualError::PaymentNotPositive { index: 0, .. })
        ));
    }

    #[test]
    fn span_across_the_four_day_january_2007_period() {
        // 2006-12-31 → 2007-01-06: 4 days at 31.02 % (Res. 2441/2006), 2 days at 20.75 %.
        let a = accrue(
            dec("1000000"),
            date("2006-12-31"),
            date("2007-01-06"),
            &[],
            Convention::DailySimple,
            &RateSeries::shipped(),
        )
        .unwrap();
        let rows: Vec<_> = a
            .pieces
            .iter()
            .map(|p| (p.days, p.moratorium_ea_pct, p.interest))
            .collect();
        // By hand (Python decimal, 50 digits): 1e6 × ((1.3102)^(1/365) − 1) × 4 = 2,961.97… → 2,962;
        // 1e6 × ((1.2075)^(1/365) − 1) × 2 = 1,033.43… → 1,033.
        assert_eq!(
            rows,
            vec![
                (4, dec("31.02"), dec("2962")),
                (2, dec("20.75"), dec("1033"))
            ]
        );
    }

    #[test]
    fn span_across_a_leap_day_counts_it() {
        // 2024-02-27 → 2024-03-02 = 4 days (28, 29 Feb, 1, 2 Mar); the daily rate keeps 365.
        let a = accrue(
            dec("1000000"),
            date("2024-02-27"),
            date("2024-03-02"),
            &[],
            Convention::DailySimple,
            &RateSeries::shipped(),
        )
        .unwrap();
        let rows: Vec<_> = a
            .pieces
            .iter()
            .map(|p| (p.to, p.days, p.interest))
            .collect();
        // By hand (Python decimal): 1e6 × ((1.3497)^(1/365) − 1) × 2 = 1,643.87 → 1,644 (Feb 28–29
        // at 34.97 %); 1e6 × ((1.3330)^(1/365) − 1) × 2 = 1,575.59 → 1,576 (Mar 1–2 at 33.30 %).
        assert_eq!(
            rows,
            vec![
                (date("2024-02-29"), 2, dec("1644")),
                (date("2024-03-02"), 2, dec("1576"))
            ]
        );
    }
}
