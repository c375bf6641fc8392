//! The batch check's findings for a Spanish-locale Excel, once for both front ends: the columns,
//! each finding's typed cells, what was asked for the Consulta sheet, and the writer that streams
//! them as a workbook ([`super::excel_stream::XlsxStream`]) or as csv-excel
//! ([`super::excel_stream::CsvExcelStream`]). `vigia check --format xlsx|csv-excel` and the web's
//! «Descargar» links write the same cells; only the reason's words are each front end's (the
//! command to run on the command line, the page to use in the browser).

use super::excel::{Asked, Cell, header_es};
use super::excel_stream::{CsvExcelStream, XlsxStream};
use crate::check::{Finding, Options};
use rust_xlsxwriter::XlsxError;
use std::io::Write;

/// The findings' columns (the keys of `vigia check --format csv|json`).
pub const COLUMNS: [&str; 10] = [
    "code",
    "severity",
    "program",
    "doc_type",
    "doc_number",
    "holder",
    "adjudication_id",
    "breach_id",
    "outstanding",
    "reason",
];

/// The data sheet's name.
pub const SHEET: &str = "Chequeo";

/// The columns' Spanish headers.
pub fn headers() -> Vec<String> {
    COLUMNS.iter().map(|c| header_es(c)).collect()
}

/// A finding's cells for Excel, typed: ids as numbers, the outstanding balance as pesos;
/// `reason` is the finding said in the front end's words.
pub fn typed_cells(f: &Finding, reason: &str) -> Vec<Cell> {
    let text = |s: &str| {
        if s.is_empty() {
            Cell::Empty
        } else {
            Cell::Text(s.to_string())
        }
    };
    let h = f.holding.as_ref();
    vec![
        text(f.code.as_str()),
        super::columns::cell_of("severity", &f.severity().as_str().into()),
        h.map_or(Cell::Empty, |h| text(&h.program)),
        h.map_or(Cell::Empty, |h| text(&h.doc_type)),
        h.map_or(Cell::Empty, |h| text(&h.doc_number)),
        h.map_or(Cell::Empty, |h| text(&h.holder)),
        h.map_or(Cell::Empty, |h| Cell::Count(h.adjudication_id)),
        f.breach_id.map_or(Cell::Empty, Cell::Count),
        f.outstanding.map_or(Cell::Empty, Cell::Pesos),
        text(reason),
    ]
}

/// The Excel columns: each one's kind and scale (pesos with two decimals: a column's scale is
/// fixed before its rows are found) and width.
pub fn excel_columns() -> [(Cell, u32, usize); 10] {
    let text = |w| (Cell::Empty, 0, w);
    [
        text(22),
        text(9),
        text(12),
        text(8),
        text(14),
        text(30),
        (Cell::Count(0), 0, 12),
        (Cell::Count(0), 0, 12),
        (Cell::Pesos(rust_decimal::Decimal::ZERO), 2, 16),
        text(60),
    ]
}

/// What the check was asked, after `asked`'s first lines (who asked, when): the as-of date, the
/// program (`None`: every one), the lock-up window, the minimum severity and the rate series.
pub fn asked_of(
    mut asked: Asked,
    opts: &Options,
    program: Option<&str>,
    rates: &crate::rates::RateSeries,
) -> Asked {
    asked.push(("Fecha de corte".into(), Cell::Date(opts.as_of)));
    asked.push((
        "Programa".into(),
        Cell::Text(program.unwrap_or("todos").into()),
    ));
    asked.push((
        "Indisponibilidades que terminan dentro de (días)".into(),
        Cell::Count(i64::from(opts.within_days)),
    ));
    asked.push((
        "Gravedad mínima".into(),
        super::columns::cell_of("min_severity", &opts.min_severity.as_str().into()),
    ));
    asked_rates(&mut asked, rates);
    asked
}

/// The rate series a figure was computed with, for the Consulta sheet.
pub fn asked_rates(asked: &mut Asked, rates: &crate::rates::RateSeries) {
    let coverage = rates
        .coverage()
        .map(|(a, b)| format!(", {} a {}", crate::lang::fecha(a), crate::lang::fecha(b)))
        .unwrap_or_default();
    asked.push((
        "Serie de tasas".into(),
        Cell::Text(format!(
            "{} ({} períodos{coverage})",
            crate::rates::source_es(rates.source()),
            rates.periods().len()
        )),
    ));
}

/// Which of the two Excel files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `;`, UTF-8 with BOM, decimal comma, dd/mm/aaaa, Spanish headers.
    CsvExcel,
    /// A workbook: the findings' sheet, then the Consulta sheet.
    Xlsx,
}

/// The findings written as they are found, to `out` (the workbook only at [`Writer::finish`]:
/// its zip is assembled at the end).
pub enum Writer<W: Write> {
    CsvExcel(Box<CsvExcelStream<W>>),
    Xlsx {
        out: W,
        book: Box<XlsxStream>,
        asked: Asked,
    },
}

impl<W: Write> Writer<W> {
    /// The header written (csv-excel) or the sheet begun (xlsx); `asked` is the Consulta sheet's.
    pub fn new(kind: Kind, out: W, asked: Asked) -> Result<Self, XlsxError> {
        let headers = headers();
        Ok(match kind {
            Kind::CsvExcel => {
                let scales: Vec<u32> = excel_columns().iter().map(|(_, s, _)| *s).collect();
                Writer::CsvExcel(Box::new(CsvExcelStream::new(out, &headers, &scales)?))
            }
            Kind::Xlsx => Writer::Xlsx {
                out,
                book: Box::new(XlsxStream::new(
                    SHEET,
                    &headers,
                    &excel_columns().map(|(_, _, width)| width),
                )?),
                asked,
            },
        })
    }

    /// One finding, its reason in the front end's words.
    pub fn push(&mut self, f: &Finding, reason: &str) -> Result<(), XlsxError> {
        let cells = typed_cells(f, reason);
        match self {
            Writer::CsvExcel(w) => Ok(w.push(&cells)?),
            Writer::Xlsx { book, .. } => book.push(&cells),
        }
    }

    /// The end: the workbook, with the number of findings (`total`) on its Consulta sheet.
    pub fn finish(self, total: usize) -> Result<(), XlsxError> {
        match self {
            Writer::CsvExcel(w) => Ok(w.finish()?),
            Writer::Xlsx {
                mut out,
                book,
                mut asked,
            } => {
                asked.push((
                    "Hallazgos".into(),
                    Cell::Count(i64::try_from(total).unwrap_or(i64::MAX)),
                ));
                book.finish(&asked, &mut out)
            }
        }
    }
}
