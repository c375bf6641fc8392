//! Exact-decimal elementary functions for rate conversion: `ln`, `exp − 1`, and the growth factor
//! `(1 + EA)^(days/365) − 1`. Pure arithmetic on `Decimal` (28 significant digits); no floats.
//! It must not round to pesos: callers round at their own named steps.
//!
//! Method: `ln x = 2·atanh((x−1)/(x+1))` and `exp x − 1 = Σ xᵏ/k!`, both summed until the next term
//! vanishes at 28 decimal places. The unit tests compare the results with a 50-digit reference
//! (Python `decimal`, see the test) and require agreement to 1e-24, i.e. > 20 significant digits
//! for the daily rates SPEC §5 needs to 18.

use rust_decimal::Decimal;

/// Upper bound on series terms; the series used converge in far fewer for any realistic rate.
const MAX_TERMS: u32 = 400;

/// Natural logarithm of `x` (`x > 0`), accurate to about 1e-27 for `x` in (0.2, 5).
///
/// Returns `None` for `x <= 0`.
pub fn ln(x: Decimal) -> Option<Decimal> {
    if x <= Decimal::ZERO {
        return None;
    }
    // atanh series: ln x = 2 (z + z³/3 + z⁵/5 + …), z = (x − 1)/(x + 1), |z| < 1.
    // For x far from 1 the series is slow, so reduce first: ln x = k·ln 2 + ln(x / 2ᵏ).
    let two = Decimal::TWO;
    let mut k: i64 = 0;
    let mut y = x;
    while y > Decimal::new(15, 1) {
        y /= two;
        k += 1;
    }
    while y < Decimal::new(75, 2) {
        y *= two;
        k -= 1;
    }
    let mut result = atanh_series((y - Decimal::ONE) / (y + Decimal::ONE));
    if k != 0 {
        result += Decimal::from(k) * ln2();
    }
    Some(result)
}

fn atanh_series(z: Decimal) -> Decimal {
    let z2 = z * z;
    let mut power = z;
    let mut sum = z;
    let mut n = 1u32;
    while n < MAX_TERMS {
        power *= z2;
        n += 2;
        let term = power / Decimal::from(n);
        if term.is_zero() {
            break;
        }
        sum += term;
    }
    sum * Decimal::TWO
}

fn ln2() -> Decimal {
    // ln 2 = 2·atanh(1/3).
    atanh_series(Decimal::ONE / Decimal::from(3))
}

/// `exp(x) − 1`, accurate to about 1e-27 relative for `|x| <= 1`.
///
/// Computed directly (not as `exp(x) − 1`) so that small `x` keep their significant digits.
pub fn expm1(x: Decimal) -> Decimal {
    if x.is_zero() {
        return Decimal::ZERO;
    }
    // For |x| > 1, halve and square back: e^x − 1 = (e^(x/2) − 1)(e^(x/2) + 1).
    if x.abs() > Decimal::ONE {
        let half = expm1(x / Decimal::TWO);
        return half * (half + Decimal::TWO);
    }
    let mut term = x;
    let mut sum = x;
    let mut k = 1u32;
    while k < MAX_TERMS {
        k += 1;
        term = term * x / Decimal::from(k);
        if term.is_zero() {
            break;
        }
        sum += term;
    }
    sum
}

/// `(1 + EA)^(days/365) − 1` given `ln(1 + EA)`: the growth of one peso over `days` days at an
/// effective annual rate. With `days = 1` it is the daily rate `i_d` of SPEC §5.
pub fn growth_from_log(ln_one_plus_ea: Decimal, days: i64) -> Decimal {
    expm1(ln_one_plus_ea * Decimal::from(days) / Decimal::from(365))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn assert_close(got: Decimal, want: &str, tol: &str) {
        let want = d(want);
        let diff = (got - want).abs();
        assert!(
            diff <= d(tol),
            "got {got}, want {want}, diff {diff} > {tol}"
        );
    }

    // Reference values computed independently with Python's `decimal` module at 50 digits:
    //   from decimal import Decimal as D, getcontext; getcontext().prec = 50
    //   ((1 + D(ea) / 100) ** (D(days) / 365)) - 1
    // (`**` with a non-integer exponent is correctly rounded in Python's decimal.)
    #[test]
    fn daily_rate_matches_50_digit_reference() {
        let cases = [
            (
                "27.90",
                "0.0006744150487730185254054335573356460163020632824",
            ),
            (
                "26.39",
                "0.0006418557058502669740447405493695506854783531575",
            ),
            (
                "24.89",
                "0.0006091256167400520953780925536332563440479433120",
            ),
            (
                "26.30",
                "0.0006399028515392419917546232049437837344900287466",
            ),
            (
                "68.24",
                "0.0014262801314087429793507122819120704870442891404",
            ),
            ("0.5", "0.0000136645906501863483439834218462777079487481203"),
            ("150", "0.0025135392230376766013036941186135943018255747182"),
        ];
        for (ea, want) in cases {
            let l = ln(Decimal::ONE + d(ea) / Decimal::ONE_HUNDRED).unwrap();
            assert_close(growth_from_log(l, 1), want, "0.000000000000000000000001");
        }
    }

    #[test]
    fn growth_over_many_days_matches_reference() {
        // (1.2790)^(31/365) − 1, (1.6824)^(92/365) − 1, (1.2639)^(366/365) − 1, (1.2639)^(3650/365) − 1
        let cases = [
            (
                "27.90",
                31,
                "0.0211197504583672969614770769640884581604446834980",
            ),
            (
                "68.24",
                92,
                "0.1401094702390117054271158810338553061102328401149",
            ),
            (
                "26.39",
                366,
                "0.2647112414266241524284951475803481751113760905557",
            ),
            ("26.39", 3650, "9.4022464404309232182431389814332929025601"),
        ];
        for (ea, days, want) in cases {
            let l = ln(Decimal::ONE + d(ea) / Decimal::ONE_HUNDRED).unwrap();
            assert_close(growth_from_log(l, days), want, "0.00000000000000000000001");
        }
    }

    #[test]
    fn ln_and_expm1_invert_each_other() {
        for s in ["0.001", "0.5", "1", "1.2639", "2", "3.7", "10"] {
            let x = d(s);
            let back = expm1(ln(x).unwrap()) + Decimal::ONE;
            assert_close(back, s, "0.0000000000000000000001");
        }
    }

    #[test]
    fn ln_rejects_non_positive() {
        assert_eq!(ln(Decimal::ZERO), None);
        assert_eq!(ln(d("-1")), None);
    }

    #[test]
    fn ln_of_two_is_known_constant() {
        // ln 2 = 0.69314718055994530941723212145817656807550013436026 (50 digits).
        assert_close(
            ln(Decimal::TWO).unwrap(),
            "0.6931471805599453094172321215",
            "0.000000000000000000000000001",
        );
    }
}
