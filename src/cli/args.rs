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

/// A non-negative exact price per share (a negative one is refused with the reader's sentence,
/// which shows the value).
pub fn price(s: &str) -> Result<Decimal, Unread> {
    input::amount(s).map_err(Unread::from)
}

/// A year, its four digits (`calendar holidays 2026`): [`input::year`].
pub fn year(s: &str) -> Result<i32, Unread> {
    input::year(s).map_err(Unread::from)
}

/// A whole number of days or months, or a tranche's number, zero allowed: read as every count
/// (`1.000` = 1000), never by clap's own integer parser, which read `+3` and refused `1.000`.
pub fn small_count(s: &str) -> Result<u32, Unread> {
    input::small_count(s).map_err(Unread::from)
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

/// `MONTHS:PERCENT` pairs (`6:100,12:75,18:50,24:25`), each month count and percentage read as
/// every count and percentage is ([`input::small_count`], [`input::percent`]); whether they make
/// a scale is [`crate::calendar::FineScale::new`]'s to say.
pub fn brackets(s: &str) -> Result<Vec<crate::calendar::Bracket>, Unread> {
    use crate::calendar::{Bracket, ScaleError};
    let scale = |e: ScaleError| {
        let of = crate::catalogue::of;
        Unread(Said::new(
            of(crate::lang::Lang::En).scale_error(&e),
            of(crate::lang::Lang::Es).scale_error(&e),
        ))
    };
    // pairs are separated by commas, or by semicolons when there is one, so that a percentage
    // may have a decimal comma (6:100;24:37,5)
    let sep = if s.contains(';') { ';' } else { ',' };
    let items: Vec<&str> = s
        .split(sep)
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    let mut out = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Some((m, p)) = item.split_once(':') else {
            // digits alone after a pair: a decimal comma the list's commas split (24:37,5)
            if sep == ',' && k > 0 && item.bytes().all(|b| b.is_ascii_digit()) {
                let split = format!("{},{item}", items[k - 1]);
                let mut whole: Vec<String> = items.iter().map(|i| i.to_string()).collect();
                whole[k - 1] = split.clone();
                whole.remove(k);
                let semicolons = whole.join(";");
                return Err(Unread(crate::said!(
                    cli::brackets_decimal_comma_use_semicolons,
                    split,
                    semicolons
                )));
            }
            return Err(scale(ScaleError::Malformed(item.to_string())));
        };
        out.push(Bracket {
            upto_months: input::small_count(m)?,
            percent: input::percent(p)?,
        });
    }
    if out.is_empty() {
        return Err(scale(ScaleError::Empty));
    }
    Ok(out)
}

/// A record's number (`breach show 12`, `--adjudication 1450`), read as every count is (`1.450`
/// = 1450); anything else is refused saying to write its digits (clap's integer parser read `+3`
/// and answered `1.450` with Rust's «invalid digit found in string»).
pub fn id(s: &str) -> Result<i64, Unread> {
    input::count(s)
        .ok()
        .and_then(|n| i64::try_from(n).ok())
        .ok_or_else(|| {
            let v = s.trim();
            Unread(crate::said!(cli::not_record_number_write_digits, v))
        })
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

    #[test]
    fn a_negative_price_is_refused_with_the_value_and_what_to_write() {
        assert_eq!(
            price("-1.450").unwrap_err().0.es(),
            "«-1.450» es negativo; el valor debe ser cero o más"
        );
        assert_eq!(price("1.450"), Ok(dec("1450")));
    }

    #[test]
    fn a_records_number_reads_as_a_count_and_a_refusal_says_to_write_its_digits() {
        assert_eq!(id("12"), Ok(12));
        assert_eq!(id("1.450"), Ok(1450));
        assert_eq!(
            id("1,5").unwrap_err().0.es(),
            "«1,5» no es el número de un registro: escriba sus cifras, p. ej. 12"
        );
        assert_eq!(
            id("+3").unwrap_err().0.en(),
            "\"+3\" is not a record's number: write its digits, e.g. 12"
        );
        // more than the register's numbers hold (i64)
        assert!(id("9223372036854775808").is_err());
        assert_eq!(id("9223372036854775807"), Ok(i64::MAX));
    }

    #[test]
    fn days_months_and_tranches_read_as_every_count() {
        // clap's own integer parser refused `1.000` and read `+3`, which is refused as signed
        assert_eq!(small_count("1.000"), Ok(1000));
        assert_eq!(small_count("30"), Ok(30));
        assert_eq!(
            small_count("+3").unwrap_err().0.es(),
            "«+3» lleva el signo +: los valores se escriben sin signo; escriba 3"
        );
        assert!(
            small_count("1,5")
                .unwrap_err()
                .0
                .es()
                .contains("no es un número entero")
        );
    }

    #[test]
    fn brackets_read_their_months_and_percents_as_every_count_and_percentage() {
        use crate::calendar::Bracket;
        let b = |m: u32, p: &str| Bracket {
            upto_months: m,
            percent: dec(p),
        };
        assert_eq!(
            brackets("6:100,12:75,18:50,24:25"),
            Ok(vec![b(6, "100"), b(12, "75"), b(18, "50"), b(24, "25")])
        );
        assert_eq!(
            brackets("6:100 %, 24:37.5"),
            Ok(vec![b(6, "100"), b(24, "37.5")])
        );
        // `+6` was read as 6 by the integer parser the list used; every other count refuses it
        assert_eq!(
            brackets("+6:100,24:25").unwrap_err().0.es(),
            "«+6» lleva el signo +: los valores se escriben sin signo; escriba 6"
        );
        // a semicolon separates the pairs: `6;100` is two pairs, neither MONTHS:PERCENT
        assert_eq!(
            brackets("6;100").unwrap_err().0.es(),
            "el tramo «6» no es MESES:PORCENTAJE (p. ej. 6:100)"
        );
        // with semicolons a percentage may have a decimal comma
        assert_eq!(
            brackets("6:100; 24:37,5"),
            Ok(vec![b(6, "100"), b(24, "37.5")])
        );
        assert!(brackets(" , ").unwrap_err().0.es().contains("está vacía"));
    }
}
