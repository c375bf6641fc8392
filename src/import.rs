//! Reading an adjudications CSV the way people really have it: UTF-8 with or without BOM, or the
//! es-CO Excel export (Windows-1252, `;` separator, `1.450,50` amounts, `15/03/2024` dates).
//! Pure: bytes in, validated rows or every row problem out; storage is the caller's job.

use crate::ids::{self, DocType};
use crate::money::parse_decimal;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;

pub const COLUMNS: [&str; 10] = [
    "doc_type",
    "doc_number",
    "name",
    "person_type",
    "category",
    "shares",
    "price_per_share",
    "adjudicated_on",
    "lender",
    "financed_shares",
];

/// Natural or legal person (persona natural / jurídica).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonType {
    Natural,
    Legal,
}

impl PersonType {
    pub fn as_str(self) -> &'static str {
        match self {
            PersonType::Natural => "natural",
            PersonType::Legal => "legal",
        }
    }
}

impl std::str::FromStr for PersonType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "natural" => Ok(PersonType::Natural),
            "legal" | "juridica" | "jurídica" => Ok(PersonType::Legal),
            _ => Err(format!(
                "{s:?} is not a person type; use natural or legal (jurídica)"
            )),
        }
    }
}

/// One valid row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjudicationRow {
    pub line: usize,
    pub doc_type: DocType,
    /// Canonical document number (NIT with `-DV`).
    pub doc_number: String,
    pub name: String,
    pub person_type: PersonType,
    pub category: String,
    pub shares: u64,
    /// `None`: the program's fixed price.
    pub price_per_share: Option<Decimal>,
    pub adjudicated_on: NaiveDate,
    pub lender: Option<String>,
    pub financed_shares: u64,
}

/// A problem with one row (or the header, line 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: usize,
    pub field: String,
    pub value: String,
    pub reason: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {} {:?}: {}",
            self.line, self.field, self.value, self.reason
        )
    }
}

/// How the file was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    pub encoding: &'static str,
    pub separator: u8,
    /// `1.450,50` amounts and `dd/mm/yyyy` dates.
    pub es_co: bool,
}

/// Decodes bytes: UTF-8 (a BOM is dropped), else Windows-1252.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return (String::from_utf8_lossy(rest).into_owned(), "UTF-8 (BOM)");
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), "UTF-8"),
        Err(_) => (
            bytes.iter().map(|&b| windows_1252(b)).collect(),
            "Windows-1252",
        ),
    }
}

/// Windows-1252 to Unicode: Latin-1 except 0x80–0x9F.
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    if (0x80..0xA0).contains(&b) {
        HIGH[usize::from(b - 0x80)]
    } else {
        char::from(b)
    }
}

/// Parses the whole file; returns every valid row, or every problem found.
pub fn parse(
    bytes: &[u8],
    categories: &[String],
) -> Result<(Vec<AdjudicationRow>, Dialect), Vec<RowError>> {
    let (text, encoding) = decode(bytes);
    let first_line = text.lines().next().unwrap_or("");
    let separator = if first_line.contains(';') && !first_line.contains(',') {
        b';'
    } else {
        b','
    };
    let dialect = Dialect {
        encoding,
        separator,
        es_co: separator == b';',
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header_error = |reason: String| {
        vec![RowError {
            line: 1,
            field: "header".into(),
            value: first_line.into(),
            reason,
        }]
    };
    let headers = reader
        .headers()
        .map_err(|e| header_error(e.to_string()))?
        .clone();
    let names: Vec<String> = headers.iter().map(|h| h.trim().to_lowercase()).collect();
    let mut index = [0usize; 10];
    for (i, col) in COLUMNS.iter().enumerate() {
        index[i] = names.iter().position(|n| n == col).ok_or_else(|| {
            header_error(format!(
                "missing column {col}; the header must name {}",
                COLUMNS.join(",")
            ))
        })?;
    }
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize).unwrap_or(0);
                errors.push(RowError {
                    line,
                    field: "row".into(),
                    value: String::new(),
                    reason: e.to_string(),
                });
                continue;
            }
        };
        let line = record.position().map(|p| p.line() as usize).unwrap_or(0);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let get = |i: usize| record.get(index[i]).unwrap_or("").to_string();
        match parse_row(line, &get, dialect, categories) {
            Ok(row) => rows.push(row),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(RowError {
            line: 2,
            field: "row".into(),
            value: String::new(),
            reason: "the file has no rows".into(),
        });
    }
    if errors.is_empty() {
        Ok((rows, dialect))
    } else {
        Err(errors)
    }
}

fn parse_row(
    line: usize,
    get: &dyn Fn(usize) -> String,
    dialect: Dialect,
    categories: &[String],
) -> Result<AdjudicationRow, Vec<RowError>> {
    let mut errors = Vec::new();
    let mut fail = |field: &str, value: &str, reason: String| {
        errors.push(RowError {
            line,
            field: field.into(),
            value: value.into(),
            reason,
        });
    };
    let doc_type_s = get(0);
    let doc_type = doc_type_s
        .parse::<DocType>()
        .map_err(|e| fail("doc_type", &doc_type_s, e))
        .ok();
    let doc_number_s = get(1);
    let doc_number = doc_type.and_then(|t| {
        ids::normalize(t, &doc_number_s)
            .map_err(|e| fail("doc_number", &doc_number_s, e))
            .ok()
    });
    let name = get(2);
    if name.is_empty() {
        fail("name", "", "the holder's name is required".into());
    }
    let person_s = get(3);
    let person_type = person_s
        .parse::<PersonType>()
        .map_err(|e| fail("person_type", &person_s, e))
        .ok();
    let category = get(4);
    if !categories.iter().any(|c| c == &category) {
        fail(
            "category",
            &category,
            format!(
                "not a special-condition category of this program; use one of {}",
                categories.join(", ")
            ),
        );
    }
    let shares_s = get(5);
    let shares = parse_count(&shares_s, dialect)
        .filter(|&n| n > 0)
        .ok_or(())
        .map_err(|_| {
            fail(
                "shares",
                &shares_s,
                "must be a whole number of shares greater than zero".into(),
            )
        })
        .ok();
    let price_s = get(6);
    let price_per_share = if price_s.is_empty() {
        Some(None)
    } else {
        match parse_amount(&price_s, dialect) {
            Some(p) if p > Decimal::ZERO => Some(Some(p)),
            _ => {
                let example = if dialect.es_co { "963,00" } else { "963.00" };
                fail(
                    "price_per_share",
                    &price_s,
                    format!(
                        "must be a positive amount such as {example}, or empty for the program's fixed price"
                    ),
                );
                None
            }
        }
    };
    let date_s = get(7);
    let adjudicated_on = parse_date(&date_s, dialect)
        .map_err(|_| {
            fail(
                "adjudicated_on",
                &date_s,
                "must be a date YYYY-MM-DD (or DD/MM/YYYY in an Excel export)".into(),
            )
        })
        .ok();
    let lender_s = get(8);
    let lender = (!lender_s.is_empty()).then_some(lender_s);
    let financed_s = get(9);
    let financed_shares = if financed_s.is_empty() {
        Some(0)
    } else {
        parse_count(&financed_s, dialect).or_else(|| {
            fail(
                "financed_shares",
                &financed_s,
                "must be a whole number of shares".into(),
            );
            None
        })
    };
    if let (Some(f), Some(n)) = (financed_shares, shares) {
        if f > n {
            fail(
                "financed_shares",
                &financed_s,
                format!("exceeds the {n} shares adjudicated"),
            );
        }
        if f > 0 && lender.is_none() {
            fail(
                "lender",
                "",
                "financed_shares is set, so the lender that financed them is required".into(),
            );
        }
    }
    match (
        doc_type,
        doc_number,
        person_type,
        shares,
        price_per_share,
        adjudicated_on,
        financed_shares,
    ) {
        (
            Some(doc_type),
            Some(doc_number),
            Some(person_type),
            Some(shares),
            Some(price_per_share),
            Some(adjudicated_on),
            Some(financed_shares),
        ) if errors.is_empty() => Ok(AdjudicationRow {
            line,
            doc_type,
            doc_number,
            name,
            person_type,
            category,
            shares,
            price_per_share,
            adjudicated_on,
            lender,
            financed_shares,
        }),
        _ => Err(errors),
    }
}

fn parse_count(s: &str, dialect: Dialect) -> Option<u64> {
    let cleaned: String = if dialect.es_co {
        s.replace('.', "")
    } else {
        s.to_string()
    };
    cleaned.trim().parse().ok()
}

fn parse_amount(s: &str, dialect: Dialect) -> Option<Decimal> {
    let text = if dialect.es_co {
        s.replace('.', "").replace(',', ".")
    } else {
        s.to_string()
    };
    parse_decimal(text.trim().trim_start_matches('$').trim()).ok()
}

fn parse_date(s: &str, dialect: Dialect) -> Result<NaiveDate, ()> {
    if s.len() == 10
        && let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
    {
        return Ok(d);
    }
    if dialect.es_co
        && let Ok(d) = NaiveDate::parse_from_str(s, "%d/%m/%Y")
    {
        return Ok(d);
    }
    Err(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn cats() -> Vec<String> {
        vec!["trabajador".into(), "sindicato".into()]
    }

    const HEADER: &str = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n";

    #[test]
    fn reads_plain_utf8_with_bom() {
        let text = format!(
            "\u{feff}{HEADER}CC,79123456,José Pérez,natural,trabajador,1000,,2024-03-15,,\nNIT,800197268-4,Sindicato Único,legal,sindicato,5000,963.50,2024-03-15,Banco X,5000\n"
        );
        let (rows, dialect) = parse(text.as_bytes(), &cats()).unwrap();
        assert_eq!(dialect.encoding, "UTF-8 (BOM)");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].price_per_share, None);
        assert_eq!(rows[1].price_per_share, Some(dec("963.50")));
        assert_eq!(rows[1].lender.as_deref(), Some("Banco X"));
        assert_eq!(rows[1].line, 3);
    }

    #[test]
    fn reads_the_es_co_excel_export() {
        let header = HEADER.replace(',', ";");
        let mut bytes = header.into_bytes();
        // "José Pérez" in Windows-1252: é = 0xE9; amounts 1.450,50 and dates 15/03/2024.
        bytes.extend_from_slice(
            b"CC;79.123.456;Jos\xE9 P\xE9rez;natural;trabajador;1.000;1.450,50;15/03/2024;;\n",
        );
        let (rows, dialect) = parse(&bytes, &cats()).unwrap();
        assert_eq!(
            dialect,
            Dialect {
                encoding: "Windows-1252",
                separator: b';',
                es_co: true
            }
        );
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].doc_number, "79123456");
        assert_eq!(rows[0].shares, 1000);
        assert_eq!(rows[0].price_per_share, Some(dec("1450.50")));
        assert_eq!(
            rows[0].adjudicated_on,
            NaiveDate::from_ymd_opt(2024, 3, 15).unwrap()
        );
    }

    #[test]
    fn reports_every_bad_field_with_its_line() {
        let text = format!(
            "{HEADER}\
             XX,1,A,natural,trabajador,10,,2024-03-15,,\n\
             NIT,800197268-5,B,legal,sindicato,10,,2024-03-15,,\n\
             CC,123456,C,alien,trabajador,0,,2024-03-15,,\n\
             CC,123457,D,natural,gerente,10,-3,2024-02-30,,\n\
             CC,123458,E,natural,trabajador,10,,2024-03-15,,20\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (2, "doc_type"),
                (3, "doc_number"),
                (4, "person_type"),
                (4, "shares"),
                (5, "category"),
                (5, "price_per_share"),
                (5, "adjudicated_on"),
                (6, "financed_shares"),
                (6, "lender"),
            ]
        );
        assert!(errors[1].reason.contains("gives 4"), "{}", errors[1]);
    }

    #[test]
    fn header_must_name_every_column() {
        let errors = parse(b"doc_type,doc_number\nCC,1\n", &cats()).unwrap_err();
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].reason.contains("missing column name"),
            "{}",
            errors[0]
        );
    }
}
