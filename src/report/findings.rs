//! The batch check's findings for a Spanish-locale Excel, once for both front ends: the columns,
//! each finding's typed cells, what was asked for the Consulta sheet, and the writer that streams
//! them as a workbook ([`super::excel_stream::XlsxStream`]) or as csv-excel
//! ([`super::excel_stream::CsvExcelStream`]). `vigia check --format xlsx|csv-excel` and the web's
//! «Descargar» links write the same cells; only the reason's words are each front end's (the
//! command to run on the command line, the page to use in the browser).

use super::excel::{Asked, Cell, Shape, header_es};
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

/// The findings written for Excel by the whole-list rule every listing follows
/// ([`super::listing::write`]: an amount column has decimals only when an amount in it has
/// cents; a column is as wide as its widest cell). The rule needs every finding before the
/// first row, so each finding's cells are spooled to a temporary file as they come (one JSON
/// array a line) while each column's [`Shape`] is found, and the file is written from there at
/// [`Writer::finish`]: memory holds a row, not a million findings.
pub struct Writer<W: Write> {
    kind: Kind,
    out: W,
    asked: Asked,
    shapes: Vec<Shape>,
    spool: std::io::BufWriter<std::fs::File>,
}

impl<W: Write> Writer<W> {
    /// `asked` is the Consulta sheet's (the workbook's; csv-excel has none).
    pub fn new(kind: Kind, out: W, asked: Asked) -> Result<Self, XlsxError> {
        Ok(Writer {
            kind,
            out,
            asked,
            shapes: vec![Shape::default(); COLUMNS.len()],
            spool: std::io::BufWriter::new(tempfile::tempfile()?),
        })
    }

    /// One finding, its reason in the front end's words.
    pub fn push(&mut self, f: &Finding, reason: &str) -> Result<(), XlsxError> {
        let cells = typed_cells(f, reason);
        for (shape, cell) in self.shapes.iter_mut().zip(&cells) {
            shape.add(cell);
        }
        serde_json::to_writer(&mut self.spool, &cells).map_err(std::io::Error::from)?;
        self.spool.write_all(b"\n")?;
        Ok(())
    }

    /// The end: the rows read back and written, the workbook with the number of findings
    /// (`total`) on its Consulta sheet.
    pub fn finish(self, total: usize) -> Result<(), XlsxError> {
        use std::io::{BufRead, Seek};
        let Writer {
            kind,
            mut out,
            mut asked,
            shapes,
            spool,
        } = self;
        let mut spool = spool.into_inner().map_err(|e| e.into_error())?;
        spool.rewind()?;
        let mut rows = std::io::BufReader::new(spool)
            .lines()
            .map(|line| serde_json::from_str::<Vec<Cell>>(&line?).map_err(std::io::Error::from));
        let headers = headers();
        match kind {
            Kind::CsvExcel => {
                let mut w = CsvExcelStream::new(out, &headers, &shapes)?;
                for row in rows {
                    w.push(&row?)?;
                }
                Ok(w.finish()?)
            }
            Kind::Xlsx => {
                let mut book = XlsxStream::shaped(SHEET, &headers, shapes)?;
                for row in rows.by_ref() {
                    book.push(&row?)?;
                }
                asked.push((
                    "Hallazgos".into(),
                    Cell::Count(i64::try_from(total).unwrap_or(i64::MAX)),
                ));
                book.finish(&asked, &mut out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Code, Context, RatesHome, Why};
    use rust_decimal::Decimal;

    fn finding(outstanding: Option<Decimal>) -> Finding {
        Finding {
            code: Code::RateDue,
            holding: None,
            breach_id: None,
            outstanding,
            why: Why::MissingPledgeWhileOwed,
            context: Context {
                as_of: "2025-03-10".parse().unwrap(),
                rates: RatesHome::Register,
                uncertified: None,
            },
        }
    }

    fn csv_excel(outstanding: &[Option<Decimal>]) -> String {
        let mut out = Vec::new();
        let mut w = Writer::new(Kind::CsvExcel, &mut out, Vec::new()).unwrap();
        for o in outstanding {
            w.push(&finding(*o), "motivo").unwrap();
        }
        w.finish(outstanding.len()).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The outstanding column: whole pesos as `1081` while no amount has cents, every amount with
    /// two decimals once one has (`1081,00`, `900,50`), as every listing's csv-excel.
    #[test]
    fn the_outstanding_column_has_decimals_only_when_an_amount_has_cents() {
        let lines = |csv: String| -> Vec<String> {
            csv.split("\r\n")
                .skip(1)
                .filter(|l| !l.is_empty())
                .map(|l| l.split(';').nth(8).unwrap().to_string())
                .collect()
        };
        let whole = csv_excel(&[Some(Decimal::new(1081, 0)), None]);
        assert!(whole.starts_with("\u{feff}Código;Gravedad;"), "{whole}");
        assert_eq!(lines(whole), ["1081", ""]);
        let cents = csv_excel(&[Some(Decimal::new(1081, 0)), Some(Decimal::new(90050, 2))]);
        assert_eq!(lines(cents), ["1081,00", "900,50"]);
    }
}
