//! Amounts in Spanish words, the way Colombian legal documents write a total:
//! "UN MILLÓN CIENTO CUARENTA Y TRES MIL NOVECIENTOS SESENTA Y SIETE PESOS M/CTE". Long scale
//! (mil millones, billón = 10^12). Pure.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

const UNITS: [&str; 30] = [
    "CERO",
    "UNO",
    "DOS",
    "TRES",
    "CUATRO",
    "CINCO",
    "SEIS",
    "SIETE",
    "OCHO",
    "NUEVE",
    "DIEZ",
    "ONCE",
    "DOCE",
    "TRECE",
    "CATORCE",
    "QUINCE",
    "DIECISÉIS",
    "DIECISIETE",
    "DIECIOCHO",
    "DIECINUEVE",
    "VEINTE",
    "VEINTIUNO",
    "VEINTIDÓS",
    "VEINTITRÉS",
    "VEINTICUATRO",
    "VEINTICINCO",
    "VEINTISÉIS",
    "VEINTISIETE",
    "VEINTIOCHO",
    "VEINTINUEVE",
];
const TENS: [&str; 10] = [
    "",
    "",
    "",
    "TREINTA",
    "CUARENTA",
    "CINCUENTA",
    "SESENTA",
    "SETENTA",
    "OCHENTA",
    "NOVENTA",
];
const HUNDREDS: [&str; 10] = [
    "",
    "CIENTO",
    "DOSCIENTOS",
    "TRESCIENTOS",
    "CUATROCIENTOS",
    "QUINIENTOS",
    "SEISCIENTOS",
    "SETECIENTOS",
    "OCHOCIENTOS",
    "NOVECIENTOS",
];

/// 1..=999. `apocope`: "UNO" becomes "UN" ("VEINTIÚN") before a noun or MIL/MILLONES.
fn below_thousand(n: u64, apocope: bool) -> String {
    debug_assert!((1..1000).contains(&n));
    let (h, rest) = (n / 100, n % 100);
    let mut parts: Vec<String> = Vec::new();
    if h > 0 {
        parts.push(if n == 100 {
            "CIEN".into()
        } else {
            HUNDREDS[h as usize].into()
        });
    }
    if rest > 0 {
        let word = if rest < 30 {
            UNITS[rest as usize].to_string()
        } else {
            let (t, u) = (rest / 10, rest % 10);
            if u == 0 {
                TENS[t as usize].to_string()
            } else {
                format!("{} Y {}", TENS[t as usize], UNITS[u as usize])
            }
        };
        let word = if apocope {
            match word.as_str() {
                "VEINTIUNO" => "VEINTIÚN".to_string(),
                w if w == "UNO" || w.ends_with(" UNO") => format!("{}UN", &w[..w.len() - 3]),
                _ => word,
            }
        } else {
            word
        };
        parts.push(word);
    }
    parts.join(" ")
}

/// 1..=999,999.
fn below_million(n: u64, apocope: bool) -> String {
    let (th, rest) = (n / 1000, n % 1000);
    let mut parts = Vec::new();
    match th {
        0 => {}
        1 => parts.push("MIL".to_string()),
        _ => parts.push(format!("{} MIL", below_thousand(th, true))),
    }
    if rest > 0 {
        parts.push(below_thousand(rest, apocope));
    }
    parts.join(" ")
}

/// A whole number in words. `apocope` for a number that precedes a noun ("VEINTIÚN PESOS").
/// A later stage's name as the decrees write it: "Segunda Etapa", "Tercera Etapa"…
pub fn stage_es(stage: u8) -> String {
    const ORDINALS: [&str; 9] = [
        "Primera", "Segunda", "Tercera", "Cuarta", "Quinta", "Sexta", "Séptima", "Octava", "Novena",
    ];
    match ORDINALS.get(usize::from(stage).wrapping_sub(1)) {
        Some(o) => format!("{o} Etapa"),
        None => format!("Etapa {stage}"),
    }
}

pub fn number(n: u64, apocope: bool) -> String {
    if n == 0 {
        return "CERO".into();
    }
    let billions = n / 1_000_000_000_000;
    let millions = (n / 1_000_000) % 1_000_000;
    let rest = n % 1_000_000;
    let mut parts = Vec::new();
    match billions {
        0 => {}
        1 => parts.push("UN BILLÓN".to_string()),
        b => parts.push(format!("{} BILLONES", number(b, true))),
    }
    match millions {
        0 => {}
        1 => parts.push("UN MILLÓN".to_string()),
        m => parts.push(format!("{} MILLONES", below_million(m, true))),
    }
    if rest > 0 {
        parts.push(below_million(rest, apocope));
    }
    parts.join(" ")
}

/// A peso amount in words with "PESOS M/CTE" (moneda corriente): "UN PESO", "DOS MILLONES DE
/// PESOS", cents as "CON 50/100". `None` for negative amounts or beyond 10^18.
pub fn pesos(amount: Decimal) -> Option<String> {
    if amount.is_sign_negative() && !amount.is_zero() {
        return None;
    }
    let whole = amount.trunc();
    let cents = ((amount - whole) * Decimal::ONE_HUNDRED).round().to_u64()?;
    let n = whole.to_u64()?;
    if n >= 1_000_000_000_000_000_000 {
        return None;
    }
    let words = number(n, true);
    let unit = if n == 1 { "PESO" } else { "PESOS" };
    // "UN MILLÓN DE PESOS", "DOS BILLONES DE PESOS": a round million or billion takes "DE".
    let de = if n != 0
        && (words.ends_with("MILLÓN")
            || words.ends_with("MILLONES")
            || words.ends_with("BILLÓN")
            || words.ends_with("BILLONES"))
    {
        " DE"
    } else {
        ""
    };
    let cents = if cents > 0 {
        format!(" CON {cents:02}/100")
    } else {
        String::new()
    };
    Some(format!("{words}{de} {unit}{cents} M/CTE"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn w(n: u64) -> String {
        number(n, false)
    }

    #[test]
    fn units_and_irregular_forms() {
        assert_eq!(w(0), "CERO");
        assert_eq!(w(1), "UNO");
        assert_eq!(w(15), "QUINCE");
        assert_eq!(w(16), "DIECISÉIS");
        assert_eq!(w(21), "VEINTIUNO");
        assert_eq!(w(22), "VEINTIDÓS");
        assert_eq!(w(31), "TREINTA Y UNO");
        assert_eq!(w(100), "CIEN");
        assert_eq!(w(101), "CIENTO UNO");
        assert_eq!(w(500), "QUINIENTOS");
        assert_eq!(w(777), "SETECIENTOS SETENTA Y SIETE");
        assert_eq!(w(999), "NOVECIENTOS NOVENTA Y NUEVE");
    }

    #[test]
    fn thousands_millions_billions() {
        assert_eq!(w(1000), "MIL");
        assert_eq!(w(1001), "MIL UNO");
        assert_eq!(w(21_000), "VEINTIÚN MIL");
        assert_eq!(w(101_000), "CIENTO UN MIL");
        assert_eq!(w(500_500), "QUINIENTOS MIL QUINIENTOS");
        assert_eq!(w(1_000_000), "UN MILLÓN");
        assert_eq!(w(2_000_000), "DOS MILLONES");
        assert_eq!(w(21_000_000), "VEINTIÚN MILLONES");
        assert_eq!(w(1_000_000_000), "MIL MILLONES");
        assert_eq!(w(2_500_000_000), "DOS MIL QUINIENTOS MILLONES");
        assert_eq!(w(1_000_000_000_000), "UN BILLÓN");
        assert_eq!(w(3_000_001_000_000), "TRES BILLONES UN MILLÓN");
    }

    #[test]
    fn pesos_as_legal_documents_write_them() {
        // The total of SPEC §5's worked example.
        assert_eq!(
            pesos(dec("1143967")).unwrap(),
            "UN MILLÓN CIENTO CUARENTA Y TRES MIL NOVECIENTOS SESENTA Y SIETE PESOS M/CTE"
        );
        assert_eq!(pesos(dec("1")).unwrap(), "UN PESO M/CTE");
        assert_eq!(pesos(dec("21")).unwrap(), "VEINTIÚN PESOS M/CTE");
        assert_eq!(pesos(dec("31")).unwrap(), "TREINTA Y UN PESOS M/CTE");
        assert_eq!(pesos(dec("0")).unwrap(), "CERO PESOS M/CTE");
        assert_eq!(pesos(dec("1000000")).unwrap(), "UN MILLÓN DE PESOS M/CTE");
        assert_eq!(
            pesos(dec("2000000")).unwrap(),
            "DOS MILLONES DE PESOS M/CTE"
        );
        assert_eq!(pesos(dec("1000001")).unwrap(), "UN MILLÓN UN PESOS M/CTE");
        assert_eq!(
            pesos(dec("626823.5")).unwrap(),
            "SEISCIENTOS VEINTISÉIS MIL OCHOCIENTOS VEINTITRÉS PESOS CON 50/100 M/CTE"
        );
        assert_eq!(pesos(dec("-1")), None);
    }
}
