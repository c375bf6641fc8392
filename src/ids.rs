//! Colombian identification documents (SPEC §10): document types and the NIT check digit (DV,
//! DIAN Orden Administrativa 4 de 1989). Pure validation; no storage.

use crate::lang::Said;
use crate::said;
use std::fmt;
use std::str::FromStr;

/// Document type of a holder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DocType {
    /// Cédula de ciudadanía.
    Cc,
    /// Cédula de extranjería.
    Ce,
    /// Tarjeta de identidad.
    Ti,
    /// Pasaporte.
    Pa,
    /// Permiso Especial de Permanencia.
    Pep,
    /// Permiso por Protección Temporal.
    Ppt,
    /// Número de Identificación Tributaria, with its check digit.
    Nit,
}

impl DocType {
    pub const ALL: [DocType; 7] = [
        DocType::Cc,
        DocType::Ce,
        DocType::Ti,
        DocType::Pa,
        DocType::Pep,
        DocType::Ppt,
        DocType::Nit,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DocType::Cc => "CC",
            DocType::Ce => "CE",
            DocType::Ti => "TI",
            DocType::Pa => "PA",
            DocType::Pep => "PEP",
            DocType::Ppt => "PPT",
            DocType::Nit => "NIT",
        }
    }

    pub fn name_es(self) -> &'static str {
        match self {
            DocType::Cc => "cédula de ciudadanía",
            DocType::Ce => "cédula de extranjería",
            DocType::Ti => "tarjeta de identidad",
            DocType::Pa => "pasaporte",
            DocType::Pep => "permiso especial de permanencia",
            DocType::Ppt => "permiso por protección temporal",
            DocType::Nit => "NIT",
        }
    }
}

impl serde::Serialize for DocType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl fmt::Display for DocType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl DocType {
    /// A document type as written (any case), or why not in English and Spanish.
    pub fn read(s: &str) -> Result<DocType, Said> {
        // compared without case, not upper-cased into a copy (a million rows a file)
        let t = s.trim();
        DocType::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| said!(core::unknown_document_type_use_one_cc, s))
    }
}

impl FromStr for DocType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DocType::read(s).map_err(|e| e.en().to_string())
    }
}

/// NIT check digit: weights 3, 7, 13, … 71 from the rightmost digit; r = Σ mod 11;
/// DV = r when r is 0 or 1, else 11 − r. `None` when `digits` is empty, longer than 15 or not
/// all digits.
pub fn nit_check_digit(digits: &str) -> Option<u32> {
    const WEIGHTS: [u32; 15] = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];
    if digits.is_empty()
        || digits.len() > WEIGHTS.len()
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .zip(WEIGHTS)
        .map(|(b, w)| u32::from(b - b'0') * w)
        .sum();
    let r = sum % 11;
    Some(if r <= 1 { r } else { 11 - r })
}

/// Validates a document number for its type and returns its canonical form (digits only; a NIT
/// as `NNNNNNNNN-D`), or says why not in English and Spanish. Dots and spaces people type are
/// removed.
pub fn normalized(doc_type: DocType, number: &str) -> Result<String, Said> {
    let cleaned = clean(number);
    match doc_type {
        DocType::Nit => {
            let (base, dv) = match cleaned.split_once('-') {
                Some((b, d)) => (b.to_string(), Some(d.to_string())),
                None => (cleaned.clone(), None),
            };
            let expected = nit_check_digit(&base)
                .ok_or_else(|| said!(core::nit_must_up_15_digits_followed, number))?;
            match dv {
                None => Err(said!(core::nit_lacks_check_digit_write, base, expected)),
                Some(d) if d == expected.to_string() => Ok(format!("{base}-{expected}")),
                Some(d) => Err(said!(
                    core::nit_has_wrong_check_digit_dian,
                    base,
                    d,
                    expected
                )),
            }
        }
        DocType::Cc | DocType::Ti => {
            if (3..=11).contains(&cleaned.len()) && cleaned.bytes().all(|b| b.is_ascii_digit()) {
                Ok(cleaned)
            } else {
                Err(said!(core::must_3_11_digits, doc_type, number))
            }
        }
        DocType::Ce | DocType::Pa | DocType::Pep | DocType::Ppt => {
            let up = cleaned.to_ascii_uppercase();
            if (3..=20).contains(&up.len()) && up.bytes().all(|b| b.is_ascii_alphanumeric()) {
                Ok(up)
            } else {
                Err(said!(core::must_3_20_letters_digits, doc_type, number))
            }
        }
    }
}

/// The number without the dots, commas and spaces people type (`79.263.082`, `79 263 082`).
fn clean(number: &str) -> String {
    // the common case of a million-row file: letters and digits only, nothing to take out
    if number.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return number.to_string();
    }
    let compact: String = number.chars().filter(|c| !c.is_whitespace()).collect();
    // separators group thousands (`79.263.082`, `800.197.268-4`); anywhere else (`30000,54`, a
    // number cell's decimals) they are kept, so that the number is refused rather than read
    // as another one
    let body = compact
        .rsplit_once('-')
        .map_or(compact.as_str(), |(b, _)| b);
    let groups: Vec<&str> = body.split(['.', ',']).collect();
    let grouped = groups.len() == 1
        || ((1..=3).contains(&groups[0].len()) && groups[1..].iter().all(|g| g.len() == 3));
    if grouped {
        compact.replace(['.', ','], "")
    } else {
        compact
    }
}

/// [`normalized_any`] with why not in English (the tests' spelling).
#[cfg(test)]
fn normalize_any(number: &str) -> Result<String, String> {
    normalized_any(number).map_err(|e| e.en().to_string())
}

/// A document number given without its type (e.g. to find a holder), in the canonical form
/// [`normalized`] stores: dots and spaces removed, letters upper-cased, and a number with `-DV`
/// checked as a NIT. Refused when it cannot be any document's number, with why not in both
/// languages.
pub fn normalized_any(number: &str) -> Result<String, Said> {
    let cleaned = clean(number);
    if cleaned.contains('-') {
        return normalized(DocType::Nit, &cleaned);
    }
    let up = cleaned.to_ascii_uppercase();
    if (3..=20).contains(&up.len()) && up.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(up)
    } else {
        Err(said!(
            "{number:?} is not a document number: write 3 to 20 letters or digits (dots and spaces are ignored), or a NIT with its check digit, e.g. 800197268-4",
            "«{number}» no es un número de documento: escriba de 3 a 20 letras o dígitos (los puntos y \
             espacios no cuentan), o un NIT con su dígito de verificación, p. ej. 800197268-4"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`normalized`] in English, as the command line says it.
    fn normalize(doc_type: DocType, number: &str) -> Result<String, String> {
        normalized(doc_type, number).map_err(|e| e.en().to_string())
    }

    #[test]
    fn nit_check_digits_from_spec_and_public_sources() {
        // SPEC §10 and LEGAL_NOTES §4.2.
        assert_eq!(nit_check_digit("800197268"), Some(4));
        assert_eq!(nit_check_digit("800191045"), Some(1));
        assert_eq!(nit_check_digit("899999068"), Some(1)); // Ecopetrol, "899.999.068-1"
        assert_eq!(nit_check_digit("41261533"), Some(2));
        assert_eq!(nit_check_digit("901458652"), Some(7));
        assert_eq!(nit_check_digit(""), None);
        assert_eq!(nit_check_digit("12a"), None);
    }

    #[test]
    fn normalizes_and_rejects_with_the_expected_digit() {
        assert_eq!(
            normalize(DocType::Nit, "800.197.268-4"),
            Ok("800197268-4".into())
        );
        let e = normalize(DocType::Nit, "800197268-5").unwrap_err();
        assert!(e.contains("gives 4"), "{e}");
        let e = normalized(DocType::Nit, "800197268-5").unwrap_err();
        assert_eq!(
            e.es(),
            "el NIT 800197268-5 tiene un dígito de verificación errado: el algoritmo de la DIAN da 4 \
             (800197268-4); revise el número"
        );
        let e = normalize(DocType::Nit, "800197268").unwrap_err();
        assert!(e.contains("800197268-4"), "{e}");
        assert_eq!(normalize(DocType::Cc, "79.123.456"), Ok("79123456".into()));
        assert!(normalize(DocType::Cc, "79A").is_err());
        assert_eq!(normalize(DocType::Pa, "ab12345"), Ok("AB12345".into()));
        assert_eq!("cc".parse::<DocType>(), Ok(DocType::Cc));
        assert!("RUT".parse::<DocType>().is_err());
    }

    #[test]
    fn a_number_without_its_type_takes_the_stored_form() {
        assert_eq!(normalize_any("79.263.082"), Ok("79263082".into()));
        assert_eq!(normalize_any(" 79 263 082 "), Ok("79263082".into()));
        // separators that do not group thousands are not dropped: the number is refused
        assert!(normalized(DocType::Cc, "30000,54").is_err());
        assert!(normalized(DocType::Cc, "3.0000.54").is_err());
        assert_eq!(normalized(DocType::Cc, "79,263,082"), Ok("79263082".into()));
        assert_eq!(normalize_any("800.197.268-4"), Ok("800197268-4".into()));
        assert_eq!(normalize_any("ab12345"), Ok("AB12345".into()));
        assert!(
            normalize_any("800197268-5")
                .unwrap_err()
                .contains("gives 4")
        );
        assert!(normalize_any("79/263").is_err());
        assert!(normalize_any("").is_err());
        // the same form the typed normaliser stores
        assert_eq!(
            normalize_any("1.000.000.001"),
            normalize(DocType::Cc, "1000000001")
        );
    }
}
