//! The output formats a listing, the check and a liquidation share: the three of
//! `report::records` (table, JSON, CSV) and the two a Spanish-locale Excel opens (`csv-excel`,
//! `xlsx`, `report::excel`), and writing the latter to `--out` (0600, never through a symbolic
//! link: `files`).

use super::{CliError, Ctx};
use crate::report::excel::{self, Asked, Cell, Table};
use clap::ValueEnum;
use std::path::Path;

/// `--format` of the listings, the check and the liquidations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// For people.
    Table,
    Json,
    /// `,`, UTF-8, English keys, ISO dates: for programs.
    Csv,
    /// What a Spanish-locale Excel opens as it is: `;`, UTF-8 with BOM, decimal comma,
    /// dd/mm/aaaa, Spanish headers.
    CsvExcel,
    /// An Excel workbook (needs --out FILE): typed cells, and a sheet with what was asked.
    Xlsx,
}

/// What every workbook's Consulta sheet starts with: the command and when it ran.
pub fn asked(ctx: &Ctx<'_>) -> Asked {
    vec![
        (
            "Comando".into(),
            Cell::Text(format!("vigia {}", ctx.command)),
        ),
        (
            "Generado (hora de Colombia)".into(),
            Cell::DateTime(
                chrono::Utc::now()
                    .with_timezone(&crate::calendar::colombia())
                    .naive_local(),
            ),
        ),
    ]
}

/// The rate series a figure was computed with, for the Consulta sheet.
pub use crate::report::findings::asked_rates;

/// A `--format` with the `--out` it goes with, checked together by [`usable`] before any work:
/// what the writers below take, so that the pair is checked once (its fields are private: only
/// [`usable`] makes one).
#[derive(Debug, Clone, Copy)]
pub struct Output<'p> {
    format: OutFormat,
    out: Option<&'p Path>,
}

/// Writes `tables` as the format of `to` (csv-excel: one after another) to its `--out`, or
/// csv-excel to standard output when there is no `--out`.
pub fn write(
    ctx: &mut Ctx<'_>,
    to: Output<'_>,
    tables: &[Table],
    asked: &Asked,
) -> Result<(), CliError> {
    let bytes = match to.format {
        OutFormat::Xlsx => excel::xlsx(tables, asked).map_err(xlsx_error)?,
        _ => excel::csv_excel_all(tables),
    };
    match to.out {
        Some(path) => {
            crate::files::write(path, &bytes, true).map_err(|e| CliError::File {
                flag: "--out",
                path: path.to_path_buf(),
                error: e.into(),
            })?;
        }
        None => ctx.out.write_all(&bytes)?,
    }
    Ok(())
}

/// Refuses `--out` where the format writes to standard output only.
pub fn no_out(
    format: OutFormat,
    out: Option<&Path>,
    lang: crate::lang::Lang,
) -> Result<(), CliError> {
    match (format, out) {
        (OutFormat::Table | OutFormat::Json | OutFormat::Csv, Some(p)) => Err(CliError::Flag {
            flag: "--out".into(),
            value: p.display().to_string(),
            reason: crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::OutOnlyForExcel),
        }),
        _ => Ok(()),
    }
}

/// What `format` and `--out` refuse together, before any work: `--out` for the formats written
/// to standard output, a workbook without `--out`. The pair that passes is what the writers
/// take.
pub fn usable(
    format: OutFormat,
    out: Option<&Path>,
    lang: crate::lang::Lang,
) -> Result<Output<'_>, CliError> {
    no_out(format, out, lang)?;
    if format == OutFormat::Xlsx && out.is_none() {
        return Err(CliError::Flag {
            flag: "--format".into(),
            value: "xlsx".into(),
            reason: crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::WorkbookNotText),
        });
    }
    Ok(Output { format, out })
}

/// The temporary file reserved beside `path` for an Excel file (`files::reserve`: 0600, never
/// through a symbolic link), moved into place by [`place`].
fn reserve(path: &Path) -> Result<crate::files::Reserved, CliError> {
    crate::files::reserve(path, true).map_err(|e| CliError::File {
        flag: "--out",
        path: path.to_path_buf(),
        error: e.into(),
    })
}

/// The Excel file written to its reserved file, flushed to disk and moved into place.
fn place(reserved: crate::files::Reserved) -> Result<(), CliError> {
    let path = reserved.target().to_path_buf();
    let staged = reserved.finish().map_err(|e| CliError::File {
        flag: "--out",
        path,
        error: e.into(),
    })?;
    staged.place().map_err(|e| CliError::File {
        flag: "--out",
        path: e.path().to_path_buf(),
        error: e.into(),
    })?;
    Ok(())
}

/// An Excel file (csv-excel or a workbook) that `write` makes a row at a time, to `--out`
/// (staged next to it, 0600, never through a symbolic link, moved into place when whole) or,
/// csv-excel only, to standard output.
pub fn excel_file(
    ctx: &mut Ctx<'_>,
    to: Output<'_>,
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<(), rust_xlsxwriter::XlsxError>,
) -> Result<(), CliError> {
    let Some(path) = to.out else {
        return write(&mut *ctx.out).map_err(xlsx_error);
    };
    let mut reserved = reserve(path)?;
    write(&mut reserved).map_err(xlsx_error)?;
    place(reserved)
}

impl OutFormat {
    /// The format of `report::records` this is, when it is one of those three.
    pub fn plain(self) -> Option<crate::report::records::Format> {
        use crate::report::records::Format;
        match self {
            OutFormat::Table => Some(Format::Table),
            OutFormat::Json => Some(Format::Json),
            OutFormat::Csv => Some(Format::Csv),
            OutFormat::CsvExcel | OutFormat::Xlsx => None,
        }
    }
}

/// A listing's records in `format`: the table (in the run's language), JSON or CSV on standard
/// output, or for Excel one sheet named `sheet` with the Spanish headers and typed cells, and
/// the Consulta sheet with the command, when it ran and `filters` (what was asked, in order).
pub fn list(
    ctx: &mut Ctx<'_>,
    to: Output<'_>,
    sheet: &str,
    rows: &[serde_json::Value],
    filters: Asked,
) -> Result<(), CliError> {
    match to.format.plain() {
        Some(f) => {
            let text = crate::report::records::list_in(rows, f, ctx.lang);
            ctx.out.write_all(text.as_bytes())?;
            Ok(())
        }
        None => {
            let table = crate::report::listing::table(sheet, rows);
            let mut asked = asked(ctx);
            asked.extend(filters);
            write(ctx, to, &[table], &asked)
        }
    }
}

/// A listing of `found`, each as `record` makes it, in `format`, without holding the records:
/// the plain formats a record at a time (the whole list's bytes when every record has the same
/// members), the Excel files in two passes (`report::listing::write`: the whole list's bytes
/// and cells). Tens of thousands of breaches or notices in a national register: 50,000
/// breaches as records, cells and a workbook took 365 MiB.
pub fn records<T>(
    ctx: &mut Ctx<'_>,
    to: Output<'_>,
    sheet: &str,
    found: &[T],
    record: impl Fn(&T) -> serde_json::Value,
    filters: Asked,
) -> Result<(), CliError> {
    use crate::report::findings::Kind;
    let kind = match to.format {
        OutFormat::Xlsx => Kind::Xlsx,
        OutFormat::CsvExcel => Kind::CsvExcel,
        OutFormat::Table | OutFormat::Json | OutFormat::Csv => {
            let Some(first) = found.first() else {
                return list(ctx, to, sheet, &[], filters);
            };
            let first = record(first);
            let columns: Vec<&str> = first
                .as_object()
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let mut w = Listing::new(ctx, to, sheet, &columns, filters)?;
            for r in found {
                w.push(&record(r))?;
            }
            return w.finish();
        }
    };
    let mut asked = asked(ctx);
    asked.extend(filters);
    excel_file(ctx, to, |w| {
        crate::report::listing::write(kind, sheet, || found.iter().map(&record), &asked, w)
    })
}

/// A filter for the Consulta sheet: its name and value, when it was given.
pub fn filter(name: &str, value: Option<impl ToString>) -> Option<(String, Cell)> {
    value.map(|v| (name.to_string(), Cell::Text(v.to_string())))
}

/// A listing written as it is read (a national register's adjudications, the audit trail): the
/// formats of [`records::ListWriter`] on standard output, or for Excel the csv-excel (standard
/// output or `--out`) and the workbook (`--out`), staged next to the file and moved into place
/// at the end (`files::reserve`: 0600, never through a symbolic link).
pub enum Listing<'a> {
    Plain(crate::report::records::ListWriter<'a>),
    Excel {
        list: crate::report::excel_stream::ExcelList<To<'a>>,
        asked: Asked,
    },
}

/// Where an Excel listing goes: the file reserved for `--out`, or standard output.
pub enum To<'a> {
    File(crate::files::Reserved),
    Out(&'a mut dyn std::io::Write),
}

impl std::io::Write for To<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            To::File(f) => f.write(buf),
            To::Out(o) => o.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            To::File(f) => f.flush(),
            To::Out(o) => o.flush(),
        }
    }
}

impl<'a> Listing<'a> {
    pub fn new(
        ctx: &'a mut Ctx<'_>,
        to: Output<'_>,
        sheet: &str,
        columns: &[&str],
        filters: Asked,
    ) -> Result<Listing<'a>, CliError> {
        let lang = ctx.lang;
        let mut asked = asked(ctx);
        asked.extend(filters);
        if let Some(f) = to.format.plain() {
            let w = crate::report::records::ListWriter::new_in(f, columns, &mut *ctx.out, lang)?;
            return Ok(Listing::Plain(w));
        }
        let dest = match to.out {
            Some(path) => To::File(reserve(path)?),
            None => To::Out(&mut *ctx.out),
        };
        let list = match to.format {
            OutFormat::Xlsx => crate::report::excel_stream::ExcelList::xlsx(sheet, columns, dest)
                .map_err(xlsx_error)?,
            _ => crate::report::excel_stream::ExcelList::csv(columns, dest)?,
        };
        Ok(Listing::Excel { list, asked })
    }

    pub fn push(&mut self, record: &serde_json::Value) -> Result<(), CliError> {
        match self {
            Listing::Plain(w) => Ok(w.push(record)?),
            Listing::Excel { list, .. } => list.push(record).map_err(xlsx_error),
        }
    }

    pub fn finish(self) -> Result<(), CliError> {
        match self {
            Listing::Plain(w) => Ok(w.finish()?),
            Listing::Excel { list, asked } => match list.finish(&asked).map_err(xlsx_error)? {
                To::File(reserved) => place(reserved),
                To::Out(_) => Ok(()),
            },
        }
    }
}

/// A workbook that could not be written: the I/O error it is, or what rust_xlsxwriter refused.
pub fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> CliError {
    match e {
        rust_xlsxwriter::XlsxError::IoError(e) => CliError::Io(e),
        other => CliError::Wrong {
            flag: "--format".into(),
            value: "xlsx".into(),
            why: crate::said!(cli::workbook_not_made, other),
        },
    }
}
