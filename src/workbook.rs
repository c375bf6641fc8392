//! A workbook's sheet as the CSV text the imports read (issue 19): `.xlsx`, `.xls` and `.ods`
//! through calamine, the first sheet or one named. Each sheet row becomes the CSV line of the same
//! number, so a row problem names the row the spreadsheet shows. Cells are written so that the
//! one reader ([`crate::input`]) reads them as the cell holds them: text as typed (an es-CO `1.450`
//! typed as text is read the Colombian way), numbers exactly and unambiguously (`963,1250` for
//! 963.125, never `963,125`), date cells and Excel day numbers in a date column as
//! `YYYY-MM-DD`. A merged header, an error cell or a computed number with more decimals than an
//! amount is typed with are refused with a sentence. Pure: bytes in, text or a reason out.

use crate::lang::Said;
use crate::said;
use crate::text::{Binary, binary};
use calamine::{Data, Dimensions, Range, Reader, Sheets, open_workbook_auto_from_rs};
use chrono::{Duration, NaiveDate};
use rust_decimal::Decimal;
use std::io::Cursor;

/// Whether `bytes` are a workbook vigia reads (rather than a CSV).
pub fn is_workbook(bytes: &[u8]) -> bool {
    matches!(
        binary(bytes),
        Some(Binary::Xlsx | Binary::Xls | Binary::Ods)
    )
}

/// `bytes` as CSV text: unchanged when they are not a workbook; the sheet `sheet` (or the first)
/// written as CSV when they are.
pub fn as_csv<'b>(
    bytes: &'b [u8],
    sheet: Option<&str>,
) -> Result<std::borrow::Cow<'b, [u8]>, Said> {
    if !is_workbook(bytes) {
        if let Some(name) = sheet {
            return Err(said!(core::sheet_was_asked_but_file_not, name));
        }
        return Ok(std::borrow::Cow::Borrowed(bytes));
    }
    to_csv(bytes, sheet).map(|t| std::borrow::Cow::Owned(t.into_bytes()))
}

/// The sheet `sheet` (or the first) of the workbook `bytes` as CSV text.
pub fn to_csv(bytes: &[u8], sheet: Option<&str>) -> Result<String, Said> {
    let (mut book, name, range) = open_sheet(bytes, sheet)?;
    let merged = merged_cells(&mut book, &name);
    // the cells that hold a formula: one with no value saved (a file written by a program that
    // does not compute) must not read as empty
    let formulas: std::collections::HashSet<(u32, u32)> = match book.worksheet_formula(&name) {
        Ok(f) => {
            let (r0, c0) = f.start().unwrap_or((0, 0));
            f.used_cells()
                .filter(|(_, _, v)| !v.trim().is_empty())
                .map(|(r, c, _)| {
                    let r = r0 + u32::try_from(r).unwrap_or(u32::MAX - r0);
                    let c = c0 + u32::try_from(c).unwrap_or(u32::MAX - c0);
                    (r, c)
                })
                .collect()
        }
        Err(_) => Default::default(),
    };
    write(&range, &merged, &formulas, &name)
}

/// An open workbook, the name of one of its sheets and that sheet's cells.
type OpenSheet<'b> = (Sheets<Cursor<&'b [u8]>>, String, calamine::Range<Data>);

/// The workbook `bytes`, the name of its sheet `sheet` (or of the first) and that sheet's cells.
fn open_sheet<'b>(bytes: &'b [u8], sheet: Option<&str>) -> Result<OpenSheet<'b>, Said> {
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|e| {
        let why = e.to_string();
        said!(core::workbook_cannot_read_save_again_from, why)
    })?;
    let names = book.sheet_names();
    let name = match sheet {
        Some(wanted) => names
            .iter()
            .find(|n| n.as_str() == wanted || n.trim().eq_ignore_ascii_case(wanted.trim()))
            .cloned()
            .ok_or_else(|| {
                let all = names.join(", ");
                said!(core::workbook_has_no_sheet_sheets, wanted, all)
            })?,
        None => names
            .first()
            .cloned()
            .ok_or_else(|| Said::new("the workbook has no sheets", "el libro no tiene hojas"))?,
    };
    let range = book.worksheet_range(&name).map_err(|e| {
        let why = e.to_string();
        said!(core::sheet_cannot_read, name, why)
    })?;
    Ok((book, name, range))
}

/// The first sheet of the workbook `bytes`, every cell as plain text with its row number
/// (1-based): text trimmed, numbers as their shortest decimal with a point (`0.4549`), date cells
/// as `YYYY-MM-DD`. For files read by position rather than by a header (the SFC's rate history,
/// whose title rows and sections `to_csv` would refuse).
pub fn cells(bytes: &[u8]) -> Result<Vec<(usize, Vec<String>)>, Said> {
    let (_, _, range) = open_sheet(bytes, None)?;
    let (first_row, first_col) = range.start().unwrap_or((0, 0));
    let mut out = Vec::new();
    for (i, row) in range.rows().enumerate() {
        let at = first_row as usize + i;
        let mut texts = vec![String::new(); first_col as usize];
        for (j, cell) in row.iter().enumerate() {
            let text = match cell {
                Data::Float(f) => exact(*f)?.normalize().to_string(),
                other => cell_text(other, false).map_err(|why| {
                    let name = cell_name(
                        u32::try_from(at).unwrap_or(u32::MAX),
                        first_col + u32::try_from(j).unwrap_or(u32::MAX),
                    );
                    Said::new(
                        format!("cell {name}: {}", why.en()),
                        format!("celda {name}: {}", why.es()),
                    )
                })?,
            };
            texts.push(text);
        }
        out.push((at + 1, texts));
    }
    Ok(out)
}

/// The merged cells of the sheet, where the format keeps them (`.xlsx`, `.xls`).
fn merged_cells(book: &mut Sheets<Cursor<&[u8]>>, name: &str) -> Vec<Dimensions> {
    match book {
        Sheets::Xlsx(x) => x.merge_cells_by_sheet_name(name).unwrap_or_default(),
        Sheets::Xls(x) => x.merge_cells_by_sheet_name(name).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A cell's name as the spreadsheet shows it: `B4`.
pub fn cell_name(row: u32, col: u32) -> String {
    let mut letters = String::new();
    let mut n = col + 1;
    while n > 0 {
        let r = (n - 1) % 26;
        letters.insert(0, char::from(b'A' + u8::try_from(r).unwrap_or(0)));
        n = (n - 1) / 26;
    }
    format!("{letters}{}", row + 1)
}

fn write(
    range: &Range<Data>,
    merged: &[Dimensions],
    formulas: &std::collections::HashSet<(u32, u32)>,
    sheet: &str,
) -> Result<String, Said> {
    let Some((first_row, first_col)) = range.start() else {
        return Ok(String::new());
    };
    // the header is the first row with anything in it
    let header_row = range
        .rows()
        .position(|r| r.iter().any(|c| !matches!(c, Data::Empty)))
        .map_or(first_row, |i| first_row + u32::try_from(i).unwrap_or(0));
    if let Some(m) = merged
        .iter()
        .find(|m| m.start.0 <= header_row && header_row <= m.end.0)
    {
        let (a, b) = (cell_name(m.start.0, m.start.1), cell_name(m.end.0, m.end.1));
        let row = header_row + 1;
        return Err(said!(
            core::header_row_sheet_has_merged_cells,
            row,
            sheet,
            a,
            b
        ));
    }
    let header: Vec<String> = range
        .rows()
        .nth((header_row - first_row) as usize)
        .map(|r| r.iter().map(|c| text_of(c).unwrap_or_default()).collect())
        .unwrap_or_default();
    let date_column: Vec<bool> = header
        .iter()
        .map(|h| {
            crate::headers::canonical(h).is_some_and(|n| crate::headers::DATE_COLUMNS.contains(&n))
        })
        .collect();
    let mut text = String::new();
    let mut unreadable: Vec<Said> = Vec::new();
    // rows above the range: empty lines, so that CSV line n is sheet row n
    for _ in 0..first_row {
        text.push('\n');
    }
    for (i, row) in range.rows().enumerate() {
        let at = first_row + u32::try_from(i).unwrap_or(u32::MAX);
        let mut cells = Vec::with_capacity(row.len() + first_col as usize);
        cells.extend(std::iter::repeat_n(String::new(), first_col as usize));
        for (j, cell) in row.iter().enumerate() {
            let col = first_col + u32::try_from(j).unwrap_or(u32::MAX);
            let is_date = at > header_row && date_column.get(j).copied().unwrap_or(false);
            let blank = match cell {
                Data::Empty => true,
                Data::String(v) => v.trim().is_empty(),
                _ => false,
            };
            let text = if blank && formulas.contains(&(at, col)) {
                Err(Said::new(
                    "holds a formula with no value saved (the file was written by a program that does not compute formulas); open it in the spreadsheet and save it, or type the value",
                    "tiene una fórmula sin valor guardado (el archivo lo escribió un programa que no \
                     calcula fórmulas); ábralo en la hoja de cálculo y guárdelo, o escriba el valor",
                ))
            } else {
                cell_text(cell, is_date)
            };
            match text {
                Ok(t) => cells.push(t),
                Err(why) => {
                    // every such cell is named, in the order the sheet has them
                    let name = cell_name(at, col);
                    unreadable.push(Said::new(
                        format!("cell {name} of sheet {sheet:?}: {}", why.en()),
                        format!("celda {name} de la hoja «{sheet}»: {}", why.es()),
                    ));
                    cells.push(String::new());
                }
            }
        }
        if cells.iter().any(|c| !c.is_empty()) {
            let quoted: Vec<String> = cells.iter().map(|c| quoted(c)).collect();
            text.push_str(&quoted.join(","));
        }
        text.push('\n');
    }
    if unreadable.is_empty() {
        return Ok(text);
    }
    let join = |lang: crate::lang::Lang| {
        unreadable
            .iter()
            .map(|w| w.in_lang(lang).to_string())
            .collect::<Vec<_>>()
            .join("; ")
    };
    Err(Said::new(
        join(crate::lang::Lang::En),
        join(crate::lang::Lang::Es),
    ))
}

/// A CSV field: quoted when it holds a comma, a quote or a line end.
fn quoted(c: &str) -> String {
    if c.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c.to_string()
    }
}

/// A cell's plain text (for the header).
fn text_of(cell: &Data) -> Option<String> {
    cell_text(cell, false).ok()
}

/// A cell as the one reader will read it; `date`: the column holds dates, so a whole number is
/// Excel's day number.
fn cell_text(cell: &Data, date: bool) -> Result<String, Said> {
    Ok(match cell {
        Data::Empty => String::new(),
        Data::String(s) => s.trim().to_string(),
        Data::Bool(b) => if *b { "si" } else { "no" }.to_string(),
        Data::Int(i) if date => serial(Decimal::from(*i))?,
        Data::Int(i) => i.to_string(),
        Data::Float(f) if date => serial(exact(*f)?)?,
        Data::Float(f) => number(*f)?,
        Data::DateTime(dt) => match dt.as_datetime() {
            Some(t) if t.time() == chrono::NaiveTime::MIN => t.date().to_string(),
            Some(t) => t.format("%Y-%m-%d %H:%M:%S").to_string(),
            None => {
                return Err(Said::new(
                    "holds a date Excel cannot place on the calendar",
                    "tiene una fecha que Excel no puede ubicar en el calendario",
                ));
            }
        },
        Data::DateTimeIso(s) => s.clone(),
        Data::DurationIso(s) => s.clone(),
        Data::Error(e) => {
            let e = e.to_string();
            return Err(said!(core::holds_error_correct_formula_type_value, e));
        }
    })
}

/// Excel's day number (1900 system) as `YYYY-MM-DD`.
fn serial(v: Decimal) -> Result<String, Said> {
    let day = (v.fract().is_zero())
        .then(|| i64::try_from(v).ok())
        .flatten()
        .and_then(serial_date);
    match day {
        Some(d) => Ok(d.to_string()),
        None => {
            let shown = crate::money::format_number(v);
            Err(said!(core::holds_number_date_column_write_date, shown))
        }
    }
}

/// The shortest decimal that is the double `f`.
fn exact(f: f64) -> Result<Decimal, Said> {
    let shortest = format!("{f}");
    Decimal::from_str_exact(&shortest)
        .map_err(|_| said!(core::holds_number_which_not_exact_amount, shortest))
}

/// The day of Excel's day number `n` (day 60 is Excel's phantom 1900-02-29: refused).
pub fn serial_date(n: i64) -> Option<NaiveDate> {
    let epoch = NaiveDate::from_ymd_opt(1899, 12, 30)?;
    match n {
        1..=59 => epoch.checked_add_signed(Duration::days(n + 1)),
        61..=2_958_465 => epoch.checked_add_signed(Duration::days(n)),
        _ => None,
    }
}

/// A number cell written so that the one reader reads the same value: the shortest decimal that
/// is the cell's double, with a decimal comma and no grouping; `963,1250` rather than the
/// ambiguous `963,125`. More than four decimals (a computed value such as 1450,4999999999998)
/// is refused: an amount is typed with at most cents.
fn number(f: f64) -> Result<String, Said> {
    let v = exact(f)?.normalize();
    if v.scale() > 4 {
        let shown = format!("{f}").replace('.', ",");
        return Err(said!(
            core::holds_computed_number_round_workbook_redondear,
            shown
        ));
    }
    let s = v.abs().to_string();
    let sign = if v.is_sign_negative() { "-" } else { "" };
    Ok(match s.split_once('.') {
        None => format!("{sign}{s}"),
        Some((int, frac)) if frac.len() == 3 && int.len() <= 3 && int != "0" => {
            format!("{sign}{int},{frac}0")
        }
        Some((int, frac)) => format!("{sign}{int},{frac}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_the_reader_reads_them() {
        for (f, want) in [
            (1450.0, "1450"),
            (1450.5, "1450,5"),
            (963.125, "963,1250"),
            (0.125, "0,125"),
            (1234.567, "1234,567"),
            (-3.0, "-3"),
        ] {
            let s = number(f).unwrap();
            assert_eq!(s, want);
            let read = crate::input::signed_amount(&s).unwrap();
            assert_eq!(read, exact(f).unwrap(), "{s}");
        }
        assert!(number(1450.4999999999998).is_err());
    }

    #[test]
    fn excel_day_numbers_are_days() {
        assert_eq!(serial_date(45366), NaiveDate::from_ymd_opt(2024, 3, 15));
        assert_eq!(serial_date(1), NaiveDate::from_ymd_opt(1900, 1, 1));
        assert_eq!(serial_date(61), NaiveDate::from_ymd_opt(1900, 3, 1));
        assert_eq!(serial_date(60), None);
        assert_eq!(cell_name(3, 1), "B4");
        assert_eq!(cell_name(0, 26), "AA1");
    }
}
