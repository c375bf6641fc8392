//! The SFC's certification history as the Superintendencia publishes it (the workbook
//! `Historicocertificacionsuperfinancieratasasdeinteres.xls`, or its CSV export): sections with
//! their own header rows, Spanish month abbreviations (`27-Ags-80`, `31-Dic-92`), rates as `18.00%`
//! or as fractions (`0.4549`), several modalities, dashes for "not certified". Reads the line the
//! shipped series follows (the single bancario corriente to 2006, consumo / comercial y de consumo
//! in the first quarter of 2007, consumo y ordinario from April 2007: Decreto 2555 de 2010 art.
//! 11.2.5.1.3) into periods held to the checks of a typed period. Pure: cells in, periods out.

use crate::lang::{Said, fecha};
use crate::rates::{Kind, Problem, RatePeriod, RateSeries};
use crate::said;
use chrono::{Datelike, Days, NaiveDate};
use rust_decimal::Decimal;

/// The column of a section the series takes, by the SFC's own heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Modality {
    /// "BANCARIO CORRIENTE": the single IBC, certified until December 2006.
    BancarioCorriente,
    /// "CONSUMO" (Res. 2441 de 2006, 1–4 January 2007), after Decreto 4090 de 2006 split it.
    Consumo,
    /// "CRÉDITO COMERCIAL Y DE CONSUMO" (Res. 0008 de 2007, to March 2007).
    ComercialYConsumo,
    /// "CRÉDITO DE CONSUMO Y ORDINARIO", from April 2007 (Decreto 519 de 2007).
    ConsumoYOrdinario,
}

impl Modality {
    /// The heading as the SFC prints it.
    pub fn heading(self) -> &'static str {
        match self {
            Modality::BancarioCorriente => "bancario corriente",
            Modality::Consumo => "consumo",
            Modality::ComercialYConsumo => "crédito comercial y de consumo",
            Modality::ConsumoYOrdinario => "crédito de consumo y ordinario",
        }
    }

    /// The modality of a heading (folded: `input::folded`), if it is one the series takes.
    fn of(folded: &str) -> Option<Modality> {
        match folded {
            "bancariocorriente" | "interesbancariocorriente" => Some(Modality::BancarioCorriente),
            "consumo" => Some(Modality::Consumo),
            "creditocomercialydeconsumo" => Some(Modality::ComercialYConsumo),
            "creditodeconsumoyordinario" => Some(Modality::ConsumoYOrdinario),
            _ => None,
        }
    }

    /// The days this modality is the series' line: what the SFC certified for them.
    fn governs(self, from: NaiveDate, to: NaiveDate) -> bool {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap_or(NaiveDate::MIN);
        match self {
            Modality::BancarioCorriente => to <= day(2006, 12, 31),
            Modality::Consumo | Modality::ComercialYConsumo => {
                from >= day(2007, 1, 1) && to <= day(2007, 3, 31)
            }
            Modality::ConsumoYOrdinario => from >= day(2007, 4, 1),
        }
    }

    /// The modality the series uses on `d`, in words.
    fn expected_on(d: NaiveDate) -> &'static str {
        if d.year() <= 2006 {
            "bancario corriente"
        } else if d < NaiveDate::from_ymd_opt(2007, 4, 1).unwrap_or(NaiveDate::MAX) {
            "consumo, or crédito comercial y de consumo"
        } else {
            "crédito de consumo y ordinario"
        }
    }
}

/// One certification of the series' line, as the file gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Certification {
    /// The file's line (a workbook's row).
    pub line: usize,
    /// The resolution's number as printed (`0428`, `94`, `0244 modif por 0266`).
    pub number: String,
    /// The resolution's date (column FECHA).
    pub issued: NaiveDate,
    pub valid_from: NaiveDate,
    /// Inclusive; earlier than the file's when a later resolution re-certified the last days.
    pub valid_to: NaiveDate,
    /// The IBC, % EA.
    pub ibc_ea_pct: Decimal,
    pub modality: Modality,
}

impl Certification {
    /// The resolution as the shipped series names it: `SB Res. 2514 de 1998 (1998-12-30)`; the
    /// Superintendencia Bancaria until Decreto 4327 de 2005 (25 November 2005) merged it into the
    /// Superintendencia Financiera.
    pub fn resolution(&self) -> String {
        let merged = NaiveDate::from_ymd_opt(2005, 11, 25).unwrap_or(NaiveDate::MIN);
        let who = if self.issued < merged { "SB" } else { "SFC" };
        let (number, modified) = split_modified(&self.number);
        let year = self.issued.year();
        let issued = self.issued;
        match modified {
            Some(by) => format!("{who} Res. {number} de {year} modified by Res. {by} ({issued})"),
            None => format!("{who} Res. {number} de {year} ({issued})"),
        }
    }
}

/// `0244 modif por 0266` as (`0244`, Some(`0266`)); numbers padded to four digits (`94` → `0094`).
fn split_modified(number: &str) -> (String, Option<String>) {
    let pad = |n: &str| {
        let n = n.trim();
        if n.len() < 4 && n.chars().all(|c| c.is_ascii_digit()) {
            format!("{n:0>4}")
        } else {
            n.to_string()
        }
    };
    let lower = number.to_lowercase();
    for sep in [" modificada por ", " modif. por ", " modif por "] {
        if let Some(at) = lower.find(sep) {
            return (pad(&number[..at]), Some(pad(&number[at + sep.len()..])));
        }
    }
    (pad(number), None)
}

/// A certification cut short because a later resolution certified its last days again (Res. 0907
/// de 2017 certified July–September 2017; Res. 1155 de 2017 then certified September alone).
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The earlier certification, already cut.
    pub earlier: Certification,
    /// Its last day as the file gives it.
    pub file_to: NaiveDate,
    /// The later one.
    pub by: Certification,
}

/// What the file holds for the series.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// In date order, not overlapping.
    pub certifications: Vec<Certification>,
    pub cuts: Vec<Cut>,
    /// Rows that certify only other modalities (microcrédito, comercial, ordinary loans).
    pub other_rows: usize,
}

/// The history in `bytes`: the workbook's first sheet (`.xls`, `.xlsx`, `.ods`), or a CSV export.
pub fn read_file(bytes: &[u8]) -> Result<Reading, Vec<Problem>> {
    let rows = if crate::workbook::is_workbook(bytes) {
        crate::workbook::cells(bytes).map_err(|why| vec![error(1, why)])?
    } else {
        csv_rows(bytes).map_err(|p| vec![p])?
    };
    read(&rows)
}

/// The cells of a CSV export (UTF-8 or Windows-1252, `,` or `;`), row by row with their lines.
pub fn csv_rows(bytes: &[u8]) -> Result<Vec<(usize, Vec<String>)>, Problem> {
    let (text, _) = crate::text::decode(bytes).map_err(|e| error(1, e.said()))?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let delimiter = if first.matches(';').count() > first.matches(',').count() {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            let why = e.to_string();
            error(line, said!(rates::cannot_read_as_csv, why))
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        rows.push((line, record.iter().map(|c| c.trim().to_string()).collect()));
    }
    Ok(rows)
}

fn error(line: usize, message: Said) -> Problem {
    Problem {
        line,
        message,
        kind: Kind::Error,
    }
}

/// The columns of a section, found by their headings.
struct Section {
    resolution: usize,
    issued: usize,
    from: usize,
    to: usize,
    rate: usize,
    modality: Modality,
}

/// Headings of a section: a row starting with RESOLUCION, and the row below it when it
/// starts empty and names the validity's DESDE/HASTA (the 2007 sections).
fn section(line: usize, head: &[String], sub: Option<&[String]>) -> Result<Section, Problem> {
    let width = head.len().max(sub.map_or(0, <[String]>::len));
    let names: Vec<String> = (0..width)
        .map(|i| {
            let below = sub.and_then(|s| s.get(i)).filter(|c| !c.trim().is_empty());
            crate::input::folded(below.or(head.get(i)).map_or("", String::as_str))
        })
        .collect();
    let find = |wanted: &[&str]| names.iter().position(|n| wanted.contains(&n.as_str()));
    let missing = |what: &str| error(line, said!(rates::section_s_headings_have_no_column, what));
    let resolution = find(&["resolucion"]).ok_or_else(|| missing("RESOLUCION"))?;
    let issued = find(&["fecha"]).ok_or_else(|| missing("FECHA"))?;
    let from = find(&["desde", "vigenciadesde"]).ok_or_else(|| missing("DESDE"))?;
    let to = find(&["hasta", "vigenciahasta"]).ok_or_else(|| missing("HASTA"))?;
    let (rate, modality) = names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Modality::of(n).map(|m| (i, m)))
        .max_by_key(|(_, m)| *m)
        .ok_or_else(|| {
            error(
                line,
                Said::new(
                    "the section has no column of the series vigia uses (BANCARIO CORRIENTE to \
                     2006, CONSUMO or CRÉDITO COMERCIAL Y DE CONSUMO in early 2007, CRÉDITO DE \
                     CONSUMO Y ORDINARIO from April 2007)",
                    "la sección no tiene columna de la serie que usa vigia (BANCARIO CORRIENTE \
                     hasta 2006, CONSUMO o CRÉDITO COMERCIAL Y DE CONSUMO a comienzos de 2007, \
                     CRÉDITO DE CONSUMO Y ORDINARIO desde abril de 2007)",
                ),
            )
        })?;
    Ok(Section {
        resolution,
        issued,
        from,
        to,
        rate,
        modality,
    })
}

/// Reads the rows of the history (a CSV export's, or a workbook sheet's through
/// `workbook::cells`). Rows above the first heading (a title) are skipped; every problem is
/// listed with its line.
pub fn read(rows: &[(usize, Vec<String>)]) -> Result<Reading, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut found = Vec::new();
    let mut other_rows = 0;
    let mut current: Option<Section> = None;
    let mut i = 0;
    while i < rows.len() {
        let (line, cells) = (&rows[i].0, &rows[i].1);
        let line = *line;
        i += 1;
        let cell = |k: usize| cells.get(k).map_or("", |c| c.trim());
        if cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if crate::input::folded(cell(0)) == "resolucion" {
            let next = rows.get(i).map(|(_, c)| c.as_slice());
            let sub = next.filter(|n| {
                n.first().is_none_or(|c| c.trim().is_empty())
                    && n.iter().any(|c| crate::input::folded(c) == "desde")
            });
            if sub.is_some() {
                i += 1;
            }
            match section(line, cells, sub) {
                Ok(s) => current = Some(s),
                Err(p) => {
                    problems.push(p);
                    current = None;
                }
            }
            continue;
        }
        let Some(s) = &current else {
            continue; // a title above the first heading, or rows of a section refused above
        };
        let Some(rate) = rate(cell(s.rate)).transpose() else {
            other_rows += 1;
            continue;
        };
        let number = cell(s.resolution).to_string();
        let dates = (
            date(cell(s.issued), "FECHA"),
            date(cell(s.from), "DESDE"),
            date(cell(s.to), "HASTA"),
        );
        let (issued, from, to, ibc) = match (dates, rate) {
            ((Ok(a), Ok(b), Ok(c)), Ok(r)) => (a, b, c, r),
            ((a, b, c), r) => {
                for e in [a.err(), b.err(), c.err(), r.err()].into_iter().flatten() {
                    problems.push(error(line, e));
                }
                continue;
            }
        };
        if number.is_empty() {
            problems.push(error(
                line,
                Said::new(
                    "the row has a rate but no resolution number",
                    "la fila tiene una tasa pero no el número de la resolución",
                ),
            ));
            continue;
        }
        if to < from {
            let (a, b) = (fecha(from), fecha(to));
            problems.push(error(
                line,
                said!(
                    rates::res_validity_ends_before_starts,
                    number,
                    to,
                    from,
                    b,
                    a
                ),
            ));
            continue;
        }
        if !s.modality.governs(from, to) {
            let (heading, expected) = (s.modality.heading(), Modality::expected_on(from));
            let (a, b) = (fecha(from), fecha(to));
            problems.push(error(
                line,
                said!(
                    rates::res_certifies_but_series_uses_those,
                    number,
                    heading,
                    from,
                    to,
                    expected,
                    a,
                    b
                ),
            ));
            continue;
        }
        found.push(Certification {
            line,
            number,
            issued,
            valid_from: from,
            valid_to: to,
            ibc_ea_pct: ibc,
            modality: s.modality,
        });
    }
    if current.is_none() && found.is_empty() && problems.is_empty() {
        problems.push(error(
            1,
            Said::new(
                "no heading row (RESOLUCION, FECHA, VIGENCIA ...) was found: the file is not the \
                 SFC's certification history",
                "no se encontró la fila de encabezados (RESOLUCION, FECHA, VIGENCIA ...): el \
                 archivo no es el histórico de certificaciones de la SFC",
            ),
        ));
    }
    found.sort_by_key(|c| (c.valid_from, c.issued, c.line));
    let mut certifications: Vec<Certification> = Vec::with_capacity(found.len());
    let mut cuts = Vec::new();
    for c in found {
        if let Some(prev) = certifications.last_mut()
            && c.valid_from <= prev.valid_to
        {
            let day_before = c.valid_from.checked_sub_days(Days::new(1));
            if c.issued > prev.issued
                && c.valid_from > prev.valid_from
                && c.valid_to >= prev.valid_to
                && let Some(end) = day_before
            {
                let file_to = prev.valid_to;
                prev.valid_to = end;
                cuts.push(Cut {
                    earlier: prev.clone(),
                    file_to,
                    by: c.clone(),
                });
            } else {
                let (n, pn, pl) = (&c.number, &prev.number, prev.line);
                problems.push(error(
                    c.line,
                    said!(rates::res_overlaps_res_line_not_later, n, pn, pl),
                ));
                continue;
            }
        }
        certifications.push(c);
    }
    if problems.is_empty() {
        Ok(Reading {
            certifications,
            cuts,
            other_rows,
        })
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

/// The periods a reading gives the series, and what it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct Periods {
    pub periods: Vec<RatePeriod>,
    /// Certifications that start before the first day vigia accepts (1990-01-01).
    pub before_first_date: Vec<Certification>,
}

impl Reading {
    /// The certifications as periods of the series, each held to the checks of a period typed
    /// with `vigia rates add` (the IBC alone: the moratorium rate is exactly 1.5 × IBC, since the
    /// history prints no usury figure). Those that start before 1990 are left out (vigia reads
    /// no earlier date), never cut.
    pub fn periods(&self, source: &str) -> Result<Periods, Vec<Problem>> {
        let mut out = Vec::with_capacity(self.certifications.len());
        let mut before_first_date = Vec::new();
        let mut problems = Vec::new();
        for c in &self.certifications {
            if c.valid_from < crate::calendar::FIRST_DATE {
                before_first_date.push(c.clone());
                continue;
            }
            match RateSeries::typed_period(
                c.valid_from,
                c.valid_to,
                c.ibc_ea_pct,
                None,
                &c.resolution(),
                source,
                false,
            ) {
                Ok(mut p) => {
                    p.line = c.line;
                    out.push(p);
                }
                Err(e) => problems.extend(
                    e.problems
                        .into_iter()
                        .map(|p| Problem { line: c.line, ..p }),
                ),
            }
        }
        if problems.is_empty() {
            Ok(Periods {
                periods: out,
                before_first_date,
            })
        } else {
            Err(problems)
        }
    }
}

/// A rate cell: `18.00%` (a percent), `0.4549` (a fraction: 45.49 %), dashes or nothing (not
/// certified: `None`). A bare number of 1 or more is neither and is refused.
fn rate(text: &str) -> Result<Option<Decimal>, Said> {
    let t = text.trim();
    if t.is_empty() || t.chars().all(|c| c == '-') {
        return Ok(None);
    }
    let unreadable = || said!(rates::rate_neither_percent_18_00_nor, t);
    let v = crate::input::published_percent(t).map_err(|_| unreadable())?;
    let pct = if t.ends_with('%') {
        v
    } else if v < Decimal::ONE && v > Decimal::ZERO {
        v * Decimal::ONE_HUNDRED
    } else {
        return Err(unreadable());
    };
    // as the shipped series writes it: 45.49, 36.50, 18.00
    Ok(Some(crate::money::two_or_more_decimals(pct)))
}

/// The Spanish month abbreviations of the history (`Ags` and `Ago` both August).
const MONTHS: [(&str, u32); 14] = [
    ("ene", 1),
    ("feb", 2),
    ("mar", 3),
    ("abr", 4),
    ("may", 5),
    ("jun", 6),
    ("jul", 7),
    ("ago", 8),
    ("ags", 8),
    ("sep", 9),
    ("set", 9),
    ("oct", 10),
    ("nov", 11),
    ("dic", 12),
];

/// A date cell: ISO `1999-01-29` (a workbook's date cells), or `29-Oct-71` / `29-Oct-1971` with a
/// Spanish month. A two-digit year is 19yy from 70 and 20yy below (the history starts in 1971).
fn date(text: &str, column: &str) -> Result<NaiveDate, Said> {
    let t = text.trim();
    let bad = || said!(rates::not_date_29_oct_71_31, column, t);
    if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Ok(d);
    }
    let parts: Vec<&str> = t.split(['-', '/', ' ']).collect();
    let [day, month, year] = parts[..] else {
        return Err(bad());
    };
    let month = month.trim_end_matches('.').to_lowercase();
    let month = month.get(..3).unwrap_or("");
    let m = MONTHS
        .iter()
        .find(|(name, _)| *name == month)
        .map(|(_, m)| *m)
        .ok_or_else(bad)?;
    let d: u32 = day.parse().map_err(|_| bad())?;
    let y: i32 = year.parse().map_err(|_| bad())?;
    let y = match year.len() {
        2 if y >= 70 => 1900 + y,
        2 => 2000 + y,
        4 => y,
        _ => return Err(bad()),
    };
    NaiveDate::from_ymd_opt(y, m, d).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    const SAMPLE: &[u8] =
        include_bytes!("../tests/fixtures/rates/sfc_certification_history_sample.csv");

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn sample() -> Reading {
        read(&csv_rows(SAMPLE).unwrap()).unwrap()
    }

    #[test]
    fn cells_are_read_as_the_history_writes_them() {
        assert_eq!(date("27-Ags-80", "HASTA"), Ok(d("1980-08-27")));
        assert_eq!(date("31-Dic-92", "HASTA"), Ok(d("1992-12-31")));
        assert_eq!(date("01-Ene-93", "DESDE"), Ok(d("1993-01-01")));
        assert_eq!(date("30-Ago-95", "FECHA"), Ok(d("1995-08-30")));
        assert_eq!(date("29-Jul-05", "FECHA"), Ok(d("2005-07-29")));
        assert_eq!(date("1999-03-05", "FECHA"), Ok(d("1999-03-05")));
        assert!(date("31-Feb-92", "HASTA").is_err());
        assert!(date("31-Foo-92", "HASTA").is_err());
        assert_eq!(rate("18.00%"), Ok(Some(dec("18.00"))));
        assert_eq!(rate("0.4549"), Ok(Some(dec("45.49"))));
        assert_eq!(rate("0,4549"), Ok(Some(dec("45.49"))));
        assert_eq!(rate("0.365").unwrap().unwrap().to_string(), "36.50");
        assert_eq!(rate("0.4841").unwrap().unwrap().to_string(), "48.41");
        assert_eq!(rate("----"), Ok(None));
        assert_eq!(rate(""), Ok(None));
        // 18 could be 18 % or 1 800 %: refused
        assert!(rate("18").is_err());
        assert_eq!(split_modified("94"), ("0094".into(), None));
        assert_eq!(
            split_modified("0244 modif por 0266"),
            ("0244".into(), Some("0266".into()))
        );
    }

    #[test]
    fn the_sample_reads_the_series_line_of_each_section() {
        let r = sample();
        let first = &r.certifications[0];
        assert_eq!(
            (first.valid_from, first.valid_to, first.ibc_ea_pct),
            (d("1971-10-29"), d("1972-02-09"), dec("14.00"))
        );
        assert_eq!(first.resolution(), "SB Res. 2865 de 1971 (1971-10-29)");
        let on = |day: &str| {
            r.certifications
                .iter()
                .find(|c| c.valid_from <= d(day) && d(day) <= c.valid_to)
                .unwrap()
        };
        // 2007-01: the sixth column (consumo), not comercial's 11.07 nor microcrédito's 21.39
        assert_eq!(on("2007-01-02").ibc_ea_pct, dec("20.68"));
        assert_eq!(on("2007-01-02").modality, Modality::Consumo);
        assert_eq!(on("2007-02-15").ibc_ea_pct, dec("13.83"));
        assert_eq!(on("2007-05-15").ibc_ea_pct, dec("16.75"));
        assert_eq!(on("2007-05-15").modality, Modality::ConsumoYOrdinario);
        // the fraction 0.4549 of January 1999 and the ordinary-loan column left aside
        assert_eq!(on("1999-01-15").ibc_ea_pct, dec("45.49"));
        assert_eq!(on("1984-01-01").ibc_ea_pct, dec("18.00"));
        assert_eq!(on("1986-04-01").ibc_ea_pct, dec("33.81"));
        assert_eq!(
            on("2020-02-10").resolution(),
            "SFC Res. 0094 de 2020 (2020-01-30)"
        );
        // Res. 0907 de 2017 governs July and August; Res. 1155 certified September after it
        assert_eq!(r.cuts.len(), 1);
        assert_eq!(r.cuts[0].earlier.number, "0907");
        assert_eq!(r.cuts[0].earlier.valid_to, d("2017-08-31"));
        assert_eq!(r.cuts[0].file_to, d("2017-09-30"));
        assert_eq!(r.cuts[0].by.number, "1155");
        let last = r.certifications.last().unwrap();
        assert_eq!(
            (last.valid_from, last.valid_to, last.ibc_ea_pct),
            (d("2026-04-01"), d("2026-04-30"), dec("17.84"))
        );
        // the periods pass the checks of `rates add` and do not overlap
        let p = r.periods("sample").unwrap();
        // 2865 de 1971 to 1361 de 1989 (1989-05-03..1990-05-24), 16 certifications of the IBC:
        // before vigia's first date, left out
        assert_eq!(p.before_first_date.len(), 16);
        assert_eq!(p.before_first_date.last().unwrap().number, "1361");
        assert_eq!(p.periods[0].valid_from, d("1990-05-25"));
        assert_eq!(p.periods[0].moratorium_ea_pct(), dec("51.405"));
        assert_eq!(p.periods.len() + 16, r.certifications.len());
        RateSeries::from_periods(p.periods, "sample").unwrap();
    }

    /// The shipped series follows this history from 1999 (its README): where they overlap, every
    /// period has the same days, IBC, resolution number and date.
    #[test]
    fn the_sample_agrees_row_by_row_with_the_shipped_series() {
        let r = sample();
        let shipped = RateSeries::shipped();
        let (start, end) = (d("1999-01-01"), d("2026-04-30"));
        let overlap: Vec<&Certification> = r
            .certifications
            .iter()
            .filter(|c| c.valid_from >= start && c.valid_to <= end)
            .collect();
        let in_shipped: Vec<&RatePeriod> = shipped
            .periods()
            .iter()
            .filter(|p| p.valid_from >= start && p.valid_to <= end)
            .collect();
        // the README's count: 243 periods in both
        assert_eq!(overlap.len(), 243);
        assert_eq!(in_shipped.len(), 243);
        let mut differ = Vec::new();
        for (c, p) in overlap.iter().zip(&in_shipped) {
            assert_eq!(
                (c.valid_from, c.valid_to, Some(c.ibc_ea_pct)),
                (p.valid_from, p.valid_to, p.ibc_ea_pct),
                "line {}",
                c.line
            );
            if c.resolution() != p.resolution {
                differ.push((c.resolution(), p.resolution.clone()));
            }
        }
        // the two differences the data README names: W's "0244 modif por 0266" (dated as its
        // validity's first day), and Res. 1688 de 2024, dated 2024-08-31 in W, 2024-08-30 shipped
        assert_eq!(
            differ,
            vec![
                (
                    "SB Res. 0244 de 2005 modified by Res. 0266 (2005-02-01)".to_string(),
                    "SB Res. 0244 de 2005 modified by Res. 0266 (date given as 2005-02-01)"
                        .to_string()
                ),
                (
                    "SFC Res. 1688 de 2024 (2024-08-31)".to_string(),
                    "SFC Res. 1688 de 2024 (2024-08-30)".to_string()
                ),
            ]
        );
        // and nothing of the sample before 1999 overlaps the shipped series
        assert!(
            r.certifications
                .iter()
                .filter(|c| c.valid_from < start)
                .all(|c| c.valid_to < start)
        );
    }

    #[test]
    fn problems_name_their_line() {
        let text = "resolucion,fecha,vigencia_desde,vigencia_hasta,corriente,bancario_corriente\n\
                    2865,29-Oct-71,29-Oct-71,09-Feb-72,18.00%,14\n\
                    290,10-Feb-72,10-Feb-72,30-Jul-73,14.00%,14.00%\n\
                    291,10-Feb-72,01-Mar-72,30-Jul-73,14.00%,15.00%\n\
                    RESOLUCION,FECHA,VIGENCIA,,INTERES ANUAL EFECTIVO,,\n\
                    ,,DESDE,HASTA,CRÉDITO DE CONSUMO Y ORDINARIO,,MICROCRÉDITO\n\
                    0428,2007-03-30,2006-04-01,2006-06-30,0.1675,,\n";
        let problems = read(&csv_rows(text.as_bytes()).unwrap()).unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, vec![2, 4, 7], "{problems:?}");
        assert!(problems[0].message.en().contains("\"14\""));
        assert!(
            problems[1]
                .message
                .en()
                .starts_with("Res. 291 overlaps Res. 290 (line 3)")
        );
        assert!(
            problems[2]
                .message
                .en()
                .contains("but the series uses bancario corriente")
        );
        let none = read(&csv_rows(b"a,b\n1,2\n").unwrap()).unwrap_err();
        assert!(none[0].message.en().starts_with("no heading row"));
    }

    #[test]
    fn a_semicolon_export_with_decimal_commas_reads_the_same() {
        let text = "RESOLUCION;FECHA;VIGENCIA;;INTERES ANUAL EFECTIVO;;\n\
                    ;;DESDE;HASTA;CRÉDITO DE CONSUMO Y ORDINARIO;;MICROCRÉDITO\n\
                    0428;30-Mar-07;01-Abr-07;30-Jun-07;16,75%;;\n";
        let r = read(&csv_rows(text.as_bytes()).unwrap()).unwrap();
        assert_eq!(r.certifications[0].ibc_ea_pct, dec("16.75"));
        assert_eq!(r.certifications[0].valid_to, d("2007-06-30"));
    }
}
