//! The Excel outputs of reports too long to hold (the batch check's million findings), written
//! row by row in the formats of [`super::excel`]: the CSV a Spanish-locale Excel opens
//! ([`CsvExcelStream`]) and a workbook whose data sheet is kept on disk as it is written
//! (rust_xlsxwriter's constant-memory mode, [`XlsxStream`]). A column's scale is fixed when the
//! report starts (it cannot be seen in rows not yet found): pesos with two decimals, unless a
//! first pass over the rows found each column's ([`XlsxStream::shaped`],
//! [`super::listing::write`]). And [`ExcelList`]: a listing's records (JSON objects) into
//! either, typed by their column.

use super::excel::{Asked, Cell, Shape, col, comma, num_format, write_cell};
use super::records::csv_cell;
use rust_xlsxwriter::{Format, FormatAlign, Workbook, XlsxError};
use std::io::Write;

/// The csv-excel of [`super::excel::csv_excel`], a row at a time.
pub struct CsvExcelStream<W: Write> {
    w: csv::Writer<W>,
    scales: Vec<u32>,
}

impl<W: Write> CsvExcelStream<W> {
    /// Writes the BOM and the header; `scales` are the decimals of each column's numbers.
    pub fn new(mut out: W, headers: &[String], scales: &[u32]) -> std::io::Result<Self> {
        out.write_all("\u{feff}".as_bytes())?;
        let mut w = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::CRLF)
            .from_writer(out);
        w.write_record(headers.iter().map(|h| csv_cell(h).into_owned()))
            .map_err(super::records::csv_io)?;
        Ok(CsvExcelStream {
            w,
            scales: scales.to_vec(),
        })
    }

    pub fn push(&mut self, row: &[Cell]) -> std::io::Result<()> {
        let cells = row.iter().enumerate().map(|(c, cell)| match cell {
            Cell::Empty => String::new(),
            Cell::Text(s) => csv_cell(s).into_owned(),
            Cell::Count(i) => i.to_string(),
            Cell::Pesos(d) | Cell::Percent(d) | Cell::Number(d) => {
                comma(*d, self.scales.get(c).copied().unwrap_or(0))
            }
            Cell::Date(d) => d.format("%d/%m/%Y").to_string(),
            Cell::DateTime(t) => t.format("%d/%m/%Y %H:%M:%S").to_string(),
        });
        self.w.write_record(cells).map_err(super::records::csv_io)
    }

    pub fn finish(self) -> std::io::Result<()> {
        self.into_inner().map(drop)
    }

    /// The rows flushed, and the writer they went to.
    pub fn into_inner(self) -> std::io::Result<W> {
        self.w.into_inner().map_err(|e| e.into_error())
    }
}

/// A workbook written a row at a time: one data sheet in constant memory (frozen header,
/// autofilter, widths given up front), then the Consulta sheet with what was asked. Each cell's
/// number format is its kind's at its column's scale: pesos with two decimals, rates with two,
/// daily rates with ten, dates dd/mm/aaaa ([`XlsxStream::new`]), or each column's as a first
/// pass over the rows found it ([`XlsxStream::shaped`]).
pub struct XlsxStream {
    book: Workbook,
    formats: std::collections::HashMap<(usize, u8), Format>,
    rows: u32,
    columns: usize,
    shapes: Vec<Shape>,
    /// The Consulta sheet as the whole list's workbook has it ([`super::excel::xlsx`]).
    whole_consulta: bool,
}

impl XlsxStream {
    /// A data sheet named `name` under `headers`, each column `widths` characters wide.
    pub fn new(name: &str, headers: &[String], widths: &[usize]) -> Result<Self, XlsxError> {
        let widths: Vec<f64> = headers
            .iter()
            .enumerate()
            .map(|(c, h)| {
                let width = widths
                    .get(c)
                    .copied()
                    .unwrap_or(12)
                    .max(h.chars().count() + 3);
                width.clamp(8, 60) as f64 + 1.0
            })
            .collect();
        let shapes = vec![Shape::with_cents(); headers.len()];
        Self::open(name, headers, &widths, shapes, false)
    }

    /// The workbook [`super::excel::xlsx`] makes of the same rows, written a row at a time:
    /// `shapes` are what a first pass over them found ([`Shape::add`]).
    pub fn shaped(name: &str, headers: &[String], shapes: Vec<Shape>) -> Result<Self, XlsxError> {
        let widths: Vec<f64> = headers
            .iter()
            .zip(&shapes)
            .map(|(h, s)| s.width(h))
            .collect();
        Self::open(name, headers, &widths, shapes, true)
    }

    fn open(
        name: &str,
        headers: &[String],
        widths: &[f64],
        shapes: Vec<Shape>,
        whole_consulta: bool,
    ) -> Result<Self, XlsxError> {
        let mut book = Workbook::new();
        let header = header_format();
        let sheet = book.add_worksheet_with_constant_memory()?;
        sheet.set_name(name.chars().take(31).collect::<String>())?;
        // what precedes the rows in the sheet's XML is set before the first row
        sheet.set_freeze_panes(1, 0)?;
        for (c, width) in widths.iter().enumerate() {
            sheet.set_column_width(col(c), *width)?;
        }
        for (c, h) in headers.iter().enumerate() {
            sheet.write_string_with_format(0, col(c), h, &header)?;
        }
        Ok(XlsxStream {
            book,
            formats: Default::default(),
            rows: 0,
            columns: headers.len(),
            shapes,
            whole_consulta,
        })
    }

    pub fn push(&mut self, row: &[Cell]) -> Result<(), XlsxError> {
        self.rows = self
            .rows
            .checked_add(1)
            .ok_or(XlsxError::RowColumnLimitError)?;
        let fixed = Shape::with_cents();
        let sheet = self.book.worksheet_from_index(0)?;
        for (c, cell) in row.iter().enumerate() {
            let (kind, scale) = self.shapes.get(c).unwrap_or(&fixed).format_of(cell);
            let f = self.formats.entry((c, kind)).or_insert_with(|| {
                num_format(cell, scale)
                    .map_or_else(Format::new, |f| Format::new().set_num_format(f))
            });
            write_cell(sheet, self.rows, col(c), cell, Some(&*f))?;
        }
        Ok(())
    }

    /// The autofilter over the rows written, the Consulta sheet, and the workbook to `out`.
    pub fn finish(mut self, asked: &Asked, out: &mut dyn Write) -> Result<(), XlsxError> {
        let header = header_format();
        let (rows, columns) = (self.rows, self.columns);
        let sheet = self.book.worksheet_from_index(0)?;
        if columns > 0 {
            sheet.autofilter(0, 0, rows, col(columns - 1))?;
        }
        if self.whole_consulta {
            super::excel::write_table(&mut self.book, &super::excel::consulta(asked), &header)?;
            return save(self.book, out);
        }
        let consulta = self.book.add_worksheet();
        consulta.set_name("Consulta")?;
        consulta.write_string_with_format(0, 0, "Consulta", &header)?;
        consulta.write_string_with_format(0, 1, "Valor", &header)?;
        let version = (
            "Versión de vigia".to_string(),
            Cell::Text(env!("CARGO_PKG_VERSION").into()),
        );
        for (r, (k, v)) in asked.iter().chain([&version]).enumerate() {
            let r = u32::try_from(r + 1).unwrap_or(u32::MAX);
            consulta.write_string(r, 0, k)?;
            let f = num_format(v, 0).map_or_else(Format::new, |f| Format::new().set_num_format(f));
            write_cell(consulta, r, 1, v, Some(&f))?;
        }
        consulta.set_column_width(0, 28)?;
        consulta.set_column_width(1, 48)?;
        save(self.book, out)
    }
}

/// The zip assembled where it can seek, then copied to `out` (a file being staged, a spool for
/// standard output, a download's body).
fn save(mut book: Workbook, out: &mut dyn Write) -> Result<(), XlsxError> {
    let mut zip = tempfile::tempfile()?;
    book.save_to_writer(&mut zip)?;
    std::io::Seek::rewind(&mut zip)?;
    std::io::copy(&mut zip, out)?;
    Ok(())
}

fn header_format() -> Format {
    Format::new()
        .set_bold()
        .set_align(FormatAlign::Center)
        .set_background_color("D9E1F2")
}

/// A listing's records written for Excel as they are read to the writer it owns: the Spanish
/// header of each column and each value typed by its column ([`super::columns::cell_of`]).
pub enum ExcelList<W: Write> {
    Csv {
        w: Box<CsvExcelStream<W>>,
        keys: Vec<String>,
    },
    Xlsx {
        book: Box<XlsxStream>,
        keys: Vec<String>,
        out: W,
    },
}

impl<W: Write> ExcelList<W> {
    fn headers(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|k| super::columns::header_es(k)).collect()
    }

    /// csv-excel to `out`.
    pub fn csv(keys: &[&str], out: W) -> std::io::Result<Self> {
        let scales: Vec<u32> = keys
            .iter()
            .map(|k| if super::columns::is_pesos(k) { 2 } else { 0 })
            .collect();
        Ok(ExcelList::Csv {
            w: Box::new(CsvExcelStream::new(out, &Self::headers(keys), &scales)?),
            keys: keys.iter().map(|k| k.to_string()).collect(),
        })
    }

    /// A workbook with one sheet named `sheet`, written to `out` when it ends.
    pub fn xlsx(sheet: &str, keys: &[&str], out: W) -> Result<Self, XlsxError> {
        let widths: Vec<usize> = keys
            .iter()
            .map(|k| if *k == "name" { 30 } else { 12 })
            .collect();
        Ok(ExcelList::Xlsx {
            book: Box::new(XlsxStream::new(sheet, &Self::headers(keys), &widths)?),
            keys: keys.iter().map(|k| k.to_string()).collect(),
            out,
        })
    }

    pub fn push(&mut self, record: &serde_json::Value) -> Result<(), XlsxError> {
        let (ExcelList::Csv { keys, .. } | ExcelList::Xlsx { keys, .. }) = self;
        let row: Vec<Cell> = keys
            .iter()
            .map(|k| super::columns::cell_of(k, &record[k]))
            .collect();
        match self {
            ExcelList::Csv { w, .. } => Ok(w.push(&row)?),
            ExcelList::Xlsx { book, .. } => book.push(&row),
        }
    }

    /// Ends the listing: the CSV flushed, or the workbook, with `asked`, written; the writer
    /// given back (a file to be placed).
    pub fn finish(self, asked: &Asked) -> Result<W, XlsxError> {
        match self {
            ExcelList::Csv { w, .. } => Ok(w.into_inner()?),
            ExcelList::Xlsx { book, mut out, .. } => {
                book.finish(asked, &mut out)?;
                Ok(out)
            }
        }
    }
}
