//! The Excel outputs of reports too long to hold (the batch check's million findings), written
//! row by row in the formats of [`super::excel`]: the CSV a Spanish-locale Excel opens
//! ([`CsvExcelStream`]) and a workbook whose data sheet is kept on disk as it is written
//! (rust_xlsxwriter's constant-memory mode, [`XlsxStream`]). Each column shows as a first pass
//! over the rows found ([`XlsxStream::shaped`]: [`super::listing::write`], [`ExcelList`], a
//! listing's records spooled while that pass is made, and the check's findings,
//! [`super::findings::Writer`]), the whole list's rule.

use super::excel::{Asked, Cell, Shape, col, comma, num_format, write_cell};
use super::records::csv_cell;
use rust_xlsxwriter::{Format, FormatAlign, Workbook, XlsxError};
use std::io::Write;

/// The csv-excel of [`super::excel::csv_excel`], a row at a time.
pub struct CsvExcelStream<W: Write> {
    w: csv::Writer<W>,
    shapes: Vec<Shape>,
}

impl<W: Write> CsvExcelStream<W> {
    /// Writes the BOM and the header; `shapes` give the decimals of each column's numbers.
    pub fn new(mut out: W, headers: &[String], shapes: &[Shape]) -> std::io::Result<Self> {
        out.write_all("\u{feff}".as_bytes())?;
        let mut w = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::CRLF)
            .from_writer(out);
        w.write_record(headers.iter().map(|h| csv_cell(h).into_owned()))
            .map_err(super::records::csv_io)?;
        Ok(CsvExcelStream {
            w,
            shapes: shapes.to_vec(),
        })
    }

    pub fn push(&mut self, row: &[Cell]) -> std::io::Result<()> {
        let cells = row.iter().enumerate().map(|(c, cell)| match cell {
            Cell::Empty => String::new(),
            Cell::Text(s) => csv_cell(s).into_owned(),
            Cell::Count(i) => i.to_string(),
            Cell::Pesos(d) | Cell::Percent(d) | Cell::Number(d) => {
                comma(*d, self.shapes.get(c).map_or(0, |s| s.csv_scale(cell)))
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
/// number format is its kind's at its column's scale, as a first pass over the rows found it
/// ([`XlsxStream::shaped`]).
pub struct XlsxStream {
    book: Workbook,
    formats: std::collections::HashMap<(usize, u8), Format>,
    rows: u32,
    columns: usize,
    shapes: Vec<Shape>,
}

impl XlsxStream {
    /// The workbook [`super::excel::xlsx`] makes of the same rows, written a row at a time:
    /// `shapes` are what a first pass over them found ([`Shape::add`]).
    pub fn shaped(name: &str, headers: &[String], shapes: Vec<Shape>) -> Result<Self, XlsxError> {
        let widths: Vec<f64> = headers
            .iter()
            .zip(&shapes)
            .map(|(h, s)| s.width(h))
            .collect();
        Self::open(name, headers, &widths, shapes)
    }

    fn open(
        name: &str,
        headers: &[String],
        widths: &[f64],
        shapes: Vec<Shape>,
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
        })
    }

    pub fn push(&mut self, row: &[Cell]) -> Result<(), XlsxError> {
        self.rows = self
            .rows
            .checked_add(1)
            .ok_or(XlsxError::RowColumnLimitError)?;
        let fixed = Shape::default();
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

    /// The autofilter over the rows written, the Consulta sheet (the one the whole list's
    /// workbook has, [`super::excel::xlsx`]), and the workbook to `out`.
    pub fn finish(mut self, asked: &Asked, out: &mut dyn Write) -> Result<(), XlsxError> {
        let (rows, columns) = (self.rows, self.columns);
        let sheet = self.book.worksheet_from_index(0)?;
        if columns > 0 {
            sheet.autofilter(0, 0, rows, col(columns - 1))?;
        }
        let consulta = super::excel::consulta(asked);
        super::excel::write_table(&mut self.book, &consulta, &header_format())?;
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

/// A listing's records written for Excel as they are read, to the writer it owns: the Spanish
/// header of each column and each value typed by its column ([`super::columns::cell_of`]),
/// shown by the whole-list rule as [`super::listing::write`] shows a list held in memory (an
/// amount column has decimals only when an amount in it has cents; a column is as wide as its
/// widest cell). The rule needs the whole list before the first row, so the values are spooled
/// to a temporary file as they come (one JSON array a line) while each column's [`Shape`] is
/// found, and written from there at the end: memory holds a row, not the list.
pub struct ExcelList<W: Write> {
    xlsx: Option<String>,
    keys: Vec<String>,
    shapes: Vec<Shape>,
    spool: std::io::BufWriter<std::fs::File>,
    out: W,
}

impl<W: Write> ExcelList<W> {
    fn start(xlsx: Option<String>, keys: &[&str], out: W) -> std::io::Result<Self> {
        Ok(ExcelList {
            xlsx,
            keys: keys.iter().map(|k| k.to_string()).collect(),
            shapes: vec![Shape::default(); keys.len()],
            spool: std::io::BufWriter::new(tempfile::tempfile()?),
            out,
        })
    }

    /// csv-excel to `out`.
    pub fn csv(keys: &[&str], out: W) -> std::io::Result<Self> {
        Self::start(None, keys, out)
    }

    /// A workbook with one sheet named `sheet`, written to `out` when it ends.
    pub fn xlsx(sheet: &str, keys: &[&str], out: W) -> Result<Self, XlsxError> {
        Ok(Self::start(Some(sheet.to_string()), keys, out)?)
    }

    pub fn push(&mut self, record: &serde_json::Value) -> Result<(), XlsxError> {
        let values: Vec<&serde_json::Value> = self.keys.iter().map(|k| &record[k]).collect();
        for ((k, v), shape) in self.keys.iter().zip(&values).zip(&mut self.shapes) {
            shape.add(&super::columns::cell_of(k, v));
        }
        serde_json::to_writer(&mut self.spool, &values).map_err(std::io::Error::from)?;
        self.spool.write_all(b"\n")?;
        Ok(())
    }

    /// Ends the listing: the rows read back from the spool and written, the CSV or the workbook
    /// (with `asked`); the writer given back (a file to be placed).
    pub fn finish(self, asked: &Asked) -> Result<W, XlsxError> {
        use std::io::{BufRead, Seek};
        let ExcelList {
            xlsx,
            keys,
            shapes,
            spool,
            mut out,
        } = self;
        let mut spool = spool.into_inner().map_err(|e| e.into_error())?;
        spool.rewind()?;
        let headers: Vec<String> = keys.iter().map(|k| super::columns::header_es(k)).collect();
        let mut rows = std::io::BufReader::new(spool).lines().map(|line| {
            let values: Vec<serde_json::Value> =
                serde_json::from_str(&line?).map_err(std::io::Error::from)?;
            Ok::<Vec<Cell>, std::io::Error>(
                keys.iter()
                    .zip(&values)
                    .map(|(k, v)| super::columns::cell_of(k, v))
                    .collect(),
            )
        });
        match xlsx {
            Some(sheet) => {
                let mut book = XlsxStream::shaped(&sheet, &headers, shapes)?;
                for row in rows.by_ref() {
                    book.push(&row?)?;
                }
                book.finish(asked, &mut out)?;
                Ok(out)
            }
            None => {
                let mut w = CsvExcelStream::new(out, &headers, &shapes)?;
                for row in rows {
                    w.push(&row?)?;
                }
                Ok(w.into_inner()?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// A sheet's XML inside a workbook's zip, each shared string's index replaced by the
    /// string (a sheet written in constant memory keeps its strings inline, so the indices of
    /// the next sheet's strings differ).
    fn sheet_xml(book: &[u8], n: usize) -> String {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
        let mut read = |name: &str| {
            let mut xml = String::new();
            zip.by_name(name).unwrap().read_to_string(&mut xml).unwrap();
            xml
        };
        let xml = read(&format!("xl/worksheets/sheet{n}.xml"));
        let shared = read("xl/sharedStrings.xml");
        let strings: Vec<&str> = shared
            .split("<si>")
            .skip(1)
            .map(|si| {
                let text = &si[si.find('>').unwrap() + 1..];
                &text[..text.find("</t>").unwrap()]
            })
            .collect();
        let key = "t=\"s\"><v>";
        let mut out = String::new();
        let mut rest = xml.as_str();
        while let Some(at) = rest.find(key) {
            out.push_str(&rest[..at + key.len()]);
            rest = &rest[at + key.len()..];
            let end = rest.find("</v>").unwrap();
            out.push_str(strings[rest[..end].parse::<usize>().unwrap()]);
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    /// The Consulta sheet of a workbook written a row at a time (the check's findings, a
    /// listing read as it is written, the whole-list rule's two passes) is the whole list's
    /// workbook's, to the byte: one writer.
    #[test]
    fn every_workbook_has_the_same_consulta_sheet() {
        let asked: Asked = vec![
            ("Comando".into(), Cell::Text("vigia check".into())),
            (
                "Generado (hora de Colombia)".into(),
                Cell::DateTime(
                    chrono::NaiveDate::from_ymd_opt(2025, 2, 11)
                        .unwrap()
                        .and_hms_opt(9, 30, 0)
                        .unwrap(),
                ),
            ),
            ("Hallazgos".into(), Cell::Count(3)),
            (
                "Saldo".into(),
                Cell::Pesos(rust_decimal::Decimal::new(108100, 2)),
            ),
        ];
        let headers = vec!["Nombre".to_string()];
        let rows = vec![vec![Cell::Text("Sindicato de Prueba".into())]];
        let whole = super::super::excel::xlsx(
            &[super::super::excel::Table {
                name: "Datos".into(),
                headers: headers.clone(),
                rows: rows.clone(),
            }],
            &asked,
        )
        .unwrap();
        let streamed = |mut book: XlsxStream| {
            for r in &rows {
                book.push(r).unwrap();
            }
            let mut out = Vec::new();
            book.finish(&asked, &mut out).unwrap();
            out
        };
        let consulta = sheet_xml(&whole, 2);
        // the header, the four asked and the version
        assert!(
            consulta.contains(r#"<dimension ref="A1:B6"/>"#),
            "{consulta}"
        );
        assert!(consulta.contains(r#"t="s"><v>Hallazgos</v>"#), "{consulta}");
        let mut shape = Shape::default();
        shape.add(&rows[0][0]);
        let shaped = streamed(XlsxStream::shaped("Datos", &headers, vec![shape]).unwrap());
        assert_eq!(sheet_xml(&shaped, 2), consulta);
    }
}
