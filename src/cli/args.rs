//! Value parsers shared by every command: ISO dates, exact amounts, `DATE=AMOUNT` payments.
//! Each returns a message clap shows after naming the flag and the value.

use crate::fine::Payment;
use crate::money::parse_decimal;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// `YYYY-MM-DD`, a real calendar day in the range vigia accepts (`calendar::parse_input`).
pub fn date(s: &str) -> Result<NaiveDate, String> {
    crate::calendar::parse_input(s).map_err(|e| e.to_string())
}

/// An exact decimal amount, no thousands separators.
pub fn amount(s: &str) -> Result<Decimal, String> {
    parse_decimal(s).map_err(|e| format!("not an exact amount: {}", e.hint()))
}

/// A non-negative exact price per share.
pub fn price(s: &str) -> Result<Decimal, String> {
    let p = amount(s)?;
    if p < Decimal::ZERO {
        return Err("a price per share cannot be negative".into());
    }
    Ok(p)
}

/// A document number without its type (`79.263.082`, `800.197.268-4`), in its stored form.
pub fn document(s: &str) -> Result<String, String> {
    crate::ids::normalize_any(s)
}

/// A whole number of shares, at least 1.
pub fn shares(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("the number of shares must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of shares, without separators, e.g. 1000".into()),
    }
}

/// `DATE=AMOUNT`, e.g. `2024-12-15=500000`.
pub fn payment(s: &str) -> Result<Payment, String> {
    let (d, a) = s
        .split_once('=')
        .ok_or_else(|| "expected DATE=AMOUNT, e.g. 2024-12-15=500000".to_string())?;
    let date = date(d.trim())?;
    let amount = amount(a.trim())?;
    if amount <= Decimal::ZERO {
        return Err("a payment amount must be greater than zero".into());
    }
    Ok(Payment { date, amount })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    #[test]
    fn parses_payments() {
        let p = payment("2024-12-15=500000").unwrap();
        assert_eq!(p.date, NaiveDate::from_ymd_opt(2024, 12, 15).unwrap());
        assert_eq!(p.amount, dec("500000"));
        assert!(payment("2024-12-15").is_err());
        assert!(payment("2024-12-15=0").is_err());
        assert!(payment("2024-12-15=500.000,00").is_err());
        assert!(payment("15/12/2024=5").is_err());
    }

    #[test]
    fn rejects_impossible_dates_and_bad_counts() {
        assert!(date("2025-02-29").is_err());
        assert!(date("2024-2-9").is_err());
        assert_eq!(
            date("0000-01-01").unwrap_err(),
            "0000-01-01 is outside the dates vigia accepts, 1990-01-01 to 2099-12-31; check the year"
        );
        assert!(date("9999-12-31").is_err());
        assert!(date("2099-12-31").is_ok() && date("1990-01-01").is_ok());
        assert!(shares("0").is_err());
        assert!(shares("-5").is_err());
        assert!(shares("1.000").is_err());
        assert_eq!(shares("1000000000"), Ok(1_000_000_000));
        assert!(price("-1").is_err());
    }
}
