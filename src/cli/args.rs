//! Value parsers shared by every command, each a thin call into [`crate::input`], the one reader
//! of what people type (the web's fields and every import's cells use it too): dates
//! (`20/11/2024`, `2024-11-20`), amounts the Colombian way (`1.450` = 1450, `1.450,50`), counts
//! (`1.000`), percentages (`18,9`), `DATE=AMOUNT` payments. Each refuses with an [`Unread`]: the
//! sentence in both languages, which clap shows after naming the flag and the value (in English;
//! `clap_lang` words it in Spanish when the run speaks Spanish).

use crate::fine::Payment;
use crate::input;
use crate::lang::Said;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;

/// Why a flag's value was not read: the sentence in English and in Spanish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread(pub Said);

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.en())
    }
}

impl std::error::Error for Unread {}

impl From<input::Refused> for Unread {
    fn from(r: input::Refused) -> Unread {
        Unread(r.said())
    }
}

impl PartialEq<&str> for Unread {
    fn eq(&self, other: &&str) -> bool {
        self.0.en() == *other
    }
}

fn unread(en: &str, es: &str) -> Unread {
    Unread(Said::new(en.to_string(), es.to_string()))
}

/// A calendar day: `DD/MM/YYYY`, `D/M/YYYY`, `DD-MM-YYYY` or `YYYY-MM-DD`, 1990–2099.
pub fn date(s: &str) -> Result<NaiveDate, Unread> {
    input::date(s).map_err(Unread::from)
}

/// An exact amount the Colombian way; a negative one is read (the rule refuses it by name).
pub fn amount(s: &str) -> Result<Decimal, Unread> {
    input::signed_amount(s).map_err(Unread::from)
}

/// An amount paid, in pesos and centavos (at most two decimals).
pub fn paid(s: &str) -> Result<Decimal, Unread> {
    input::pesos_paid(s).map_err(Unread::from)
}

/// A percentage, `18,9` or `18.9`.
pub fn percent(s: &str) -> Result<Decimal, Unread> {
    input::percent(s).map_err(Unread::from)
}

/// A non-negative exact price per share.
pub fn price(s: &str) -> Result<Decimal, Unread> {
    let p = amount(s)?;
    if p < Decimal::ZERO {
        return Err(unread(
            "a price per share cannot be negative",
            "un precio por acción no puede ser negativo",
        ));
    }
    Ok(p)
}

/// Free text (a reason, an evidence, a reference, an address, a name, a code): refused with the
/// imports' sentence when it holds a control character or one that reorders text
/// ([`input::text`]). Every text flag and argument is read through it.
pub fn text(s: &str) -> Result<String, Unread> {
    input::text(s).map(str::to_string).map_err(Unread::from)
}

/// A document number without its type (`79.263.082`, `800.197.268-4`), in its stored form.
pub fn document(s: &str) -> Result<String, Unread> {
    crate::ids::normalized_any(s).map_err(Unread)
}

/// A whole number of shares, at least 1 (`1.000` = 1000).
pub fn shares(s: &str) -> Result<u64, Unread> {
    match input::count(s) {
        Ok(0) => Err(unread(
            "the number of shares must be at least 1",
            "el número de acciones debe ser al menos 1",
        )),
        Ok(n) => Ok(n),
        Err(e) => Err(e.into()),
    }
}

/// A language, `es` or `en` (`--lang`).
pub fn lang(s: &str) -> Result<crate::lang::Lang, Unread> {
    crate::lang::Lang::parse(s).ok_or_else(|| {
        unread(
            "vigia speaks es (Spanish) or en (English); pass one of them",
            "vigia habla es (español) o en (inglés); indique uno de ellos",
        )
    })
}

/// `DATE=AMOUNT`, e.g. `15/12/2024=500.000` or `2024-12-15=500000`.
pub fn payment(s: &str) -> Result<Payment, Unread> {
    let (d, a) = s.split_once('=').ok_or_else(|| {
        unread(
            "expected DATE=AMOUNT, e.g. 15/12/2024=500.000",
            "se esperaba FECHA=MONTO, p. ej. 15/12/2024=500.000",
        )
    })?;
    let date = date(d.trim())?;
    let amount = paid(a.trim())?;
    if amount <= Decimal::ZERO {
        return Err(unread(
            "a payment amount must be greater than zero",
            "el monto de un pago debe ser mayor que cero",
        ));
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
        let p = payment("15/12/2024=500.000,00").unwrap();
        assert_eq!(p.date, NaiveDate::from_ymd_opt(2024, 12, 15).unwrap());
        assert_eq!(p.amount, dec("500000"));
        assert!(payment("2024-12-15").is_err());
        assert!(payment("2024-12-15=0").is_err());
        assert!(payment("15/12/24=5").is_err());
    }

    #[test]
    fn flags_read_amounts_the_colombian_way() {
        // the audit's cases: each was read as 1,45 / 100 / 1,10 before
        assert_eq!(price("1.450"), Ok(dec("1450")));
        assert_eq!(amount("100.000"), Ok(dec("100000")));
        assert_eq!(price("1.100"), Ok(dec("1100")));
        assert!(amount("1.4500").is_err());
        assert_eq!(shares("1.000"), Ok(1000));
        assert_eq!(percent("18,9"), Ok(dec("18.9")));
        assert_eq!(
            date("20/11/2024"),
            Ok(NaiveDate::from_ymd_opt(2024, 11, 20).unwrap())
        );
    }

    #[test]
    fn rejects_impossible_dates_and_bad_counts() {
        assert!(date("2025-02-29").is_err());
        assert!(date("2024-2-9").is_err());
        assert_eq!(
            date("0000-01-01").unwrap_err(),
            "01/01/0000 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099; check the year"
        );
        assert!(date("9999-12-31").is_err());
        assert!(date("2099-12-31").is_ok() && date("1990-01-01").is_ok());
        assert!(shares("0").is_err());
        assert!(shares("-5").is_err());
        assert!(shares("1,5").is_err());
        assert_eq!(shares("1000000000"), Ok(1_000_000_000));
        assert!(price("-1").is_err());
    }
}
