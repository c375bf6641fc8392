//! Colombian pesos as exact decimals: the one rounding step (`round_peso`, half away from zero),
//! strict parsing of amounts typed by people, and es-CO formatting (`$ 1.087.500`, `$ 963,45`).
//! No floats; no I/O.

use rust_decimal::{Decimal, RoundingStrategy};
use std::str::FromStr;

/// Rounds to whole pesos, halves away from zero (SPEC §4: "round_peso").
pub fn round_peso(x: Decimal) -> Decimal {
    x.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
}

/// Why a typed amount was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountError {
    /// Not a plain decimal number.
    Malformed,
    /// Uses `,` (a thousands or decimal comma), which is ambiguous on the command line.
    Comma,
}

impl AmountError {
    /// What to do about it, for error messages.
    pub fn hint(&self) -> &'static str {
        match self {
            AmountError::Malformed => "write a plain number such as 1450 or 963.50",
            AmountError::Comma => {
                "write it without thousands separators and with a decimal point, e.g. 1450.50"
            }
        }
    }
}

/// Parses a plain decimal number: digits, optional leading `-`, optional `.` fraction.
/// Rejects thousands separators, exponents, `NaN` and anything else a float parser would accept.
pub fn parse_decimal(text: &str) -> Result<Decimal, AmountError> {
    let t = text.trim();
    if t.contains(',') {
        return Err(AmountError::Comma);
    }
    let digits = t.strip_prefix('-').unwrap_or(t);
    let mut parts = digits.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let ok_int = !int.is_empty() && int.bytes().all(|b| b.is_ascii_digit());
    let ok_frac = frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if !ok_int || !ok_frac {
        return Err(AmountError::Malformed);
    }
    Decimal::from_str_exact(t).map_err(|_| AmountError::Malformed)
}

/// Formats pesos the es-CO way: `$ 1.087.500`, `$ 963,45`, `$ 1.087.500,50`, `-$ 12`.
/// Whole amounts print without decimals; fractional ones keep their own digits, and at least
/// two (cents are written as two digits: never `$ 1.087.500,5`).
pub fn format_cop(x: Decimal) -> String {
    let sign = if x.is_sign_negative() && !x.is_zero() {
        "-"
    } else {
        ""
    };
    let a = x.abs().normalize();
    if a.scale() == 1 {
        return format_cop_dp(x, 2);
    }
    format!("{sign}$ {}", format_number(a))
}

/// Formats pesos with exactly `dp` decimals (rounded half away from zero when there are more):
/// `$ 1.450,50` beside `$ 2,25` in a table where any cent appears.
pub fn format_cop_dp(x: Decimal, dp: u32) -> String {
    let mut r = x.round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    r.rescale(dp);
    let sign = if r.is_sign_negative() && !r.is_zero() {
        "-"
    } else {
        ""
    };
    let s = r.abs().to_string();
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let grouped = format_number(Decimal::from_str(int).unwrap_or_default());
    if frac.is_empty() {
        format!("{sign}$ {grouped}")
    } else {
        format!("{sign}$ {grouped},{frac}")
    }
}

/// The decimals every amount of one column shows with, the one rule of every list of amounts
/// (the Spanish and English tables, the csv-excel and workbook columns, a liquidation's tables):
/// the most any of them needs, and at least two when any has a fraction (cents are two digits),
/// so that `$ 963,00` stands beside `$ 1.450,50` and `$ 963` beside `$ 1.450`, whatever scale
/// each was stored with. Exact: no amount is rounded to fit. Gathered an amount at a time
/// ([`Places::add`]), so that a list written as it is read shows as the whole list does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Places {
    most: u32,
}

impl Places {
    pub fn of(amounts: impl IntoIterator<Item = Decimal>) -> Places {
        let mut p = Places::default();
        for x in amounts {
            p.add(x);
        }
        p
    }

    pub fn add(&mut self, x: Decimal) {
        self.most = self.most.max(x.normalize().scale());
    }

    /// The column's decimals: 0 when no amount has a fraction.
    pub fn scale(self) -> u32 {
        match self.most {
            0 => 0,
            most => most.max(2),
        }
    }
}

/// `x` exactly, with at least two decimals (`963` → `963.00`, `32.985` stays, `2.2500` → `2.25`):
/// growing the scale only adds zeros, and no digit it has is dropped.
pub fn two_or_more_decimals(x: Decimal) -> Decimal {
    let mut x = x.normalize();
    x.rescale(x.scale().max(2));
    x
}

/// Formats a percentage with exactly `dp` decimals: `28,35 %` beside `28,59 %`.
pub fn format_percent_dp(x: Decimal, dp: u32) -> String {
    let mut r = x.round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    r.rescale(dp);
    format!("{} %", r.to_string().replace('.', ","))
}

/// Formats a non-negative decimal with `.` thousands and `,` decimals: `1.087.500`, `963,45`.
pub fn format_number(x: Decimal) -> String {
    let s = x.normalize().to_string();
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s, None),
    };
    let (neg, int) = match int.strip_prefix('-') {
        Some(rest) => ("-", rest.to_string()),
        None => ("", int),
    };
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{neg}{grouped},{f}"),
        None => format!("{neg}{grouped}"),
    }
}

/// Formats a percentage the es-CO way with a decimal comma: `27,90 %`.
pub fn format_percent(x: Decimal) -> String {
    format!("{} %", x.to_string().replace('.', ","))
}

/// Parses a decimal known to be well formed (constants in code and tests).
pub fn dec(text: &str) -> Decimal {
    Decimal::from_str(text).expect("constant decimal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_peso_halves_away_from_zero() {
        assert_eq!(round_peso(dec("481.5")), dec("482"));
        assert_eq!(round_peso(dec("481.4999")), dec("481"));
        assert_eq!(round_peso(dec("482.5")), dec("483")); // not banker's rounding
        assert_eq!(round_peso(dec("-481.5")), dec("-482"));
    }

    #[test]
    fn formats_es_co() {
        assert_eq!(format_cop(dec("1087500")), "$ 1.087.500");
        assert_eq!(format_cop(dec("963.45")), "$ 963,45");
        assert_eq!(format_cop(dec("963.00")), "$ 963");
        assert_eq!(format_cop(dec("100")), "$ 100");
        assert_eq!(format_cop(dec("1000")), "$ 1.000");
        assert_eq!(format_cop(dec("0")), "$ 0");
        assert_eq!(format_cop(dec("-12345")), "-$ 12.345");
        // cents are two digits, however the amount was scaled
        assert_eq!(format_cop(dec("1087500.50")), "$ 1.087.500,50");
        assert_eq!(format_cop(dec("1087500.5")), "$ 1.087.500,50");
        assert_eq!(format_cop(dec("-0.5")), "-$ 0,50");
        assert_eq!(format_cop(dec("2.125")), "$ 2,125");
        assert_eq!(format_number(dec("1234567890123")), "1.234.567.890.123");
        assert_eq!(format_percent(dec("27.90")), "27,90 %");
    }

    #[test]
    fn a_columns_places_are_the_most_any_amount_needs_and_two_for_any_cent() {
        let places = |xs: &[&str]| Places::of(xs.iter().map(|x| dec(x))).scale();
        // stored scales do not count: 963.00 needs none
        assert_eq!(places(&["963.00", "963", "1450"]), 0);
        assert_eq!(places(&["963.00", "1450.5"]), 2);
        assert_eq!(places(&["963", "2.125"]), 3);
        assert_eq!(places(&["-0.5"]), 2);
        assert_eq!(places(&[]), 0);
    }

    #[test]
    fn parses_only_plain_decimals() {
        assert_eq!(parse_decimal("1450"), Ok(dec("1450")));
        assert_eq!(parse_decimal("963.50"), Ok(dec("963.50")));
        assert_eq!(parse_decimal("-3"), Ok(dec("-3")));
        assert_eq!(parse_decimal("1,450"), Err(AmountError::Comma));
        assert_eq!(parse_decimal("1e3"), Err(AmountError::Malformed));
        assert_eq!(parse_decimal("NaN"), Err(AmountError::Malformed));
        assert_eq!(parse_decimal(".5"), Err(AmountError::Malformed));
        assert_eq!(parse_decimal("5."), Err(AmountError::Malformed));
        assert_eq!(parse_decimal(""), Err(AmountError::Malformed));
    }
}
