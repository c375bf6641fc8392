//! What opens correctly in a Spanish-locale Excel: an `.xlsx` workbook with typed cells (numbers
//! as numbers, dates as dates, pesos as `$ #.##0`, rates as percentages), a frozen header, an
//! autofilter and widths that fit, and a last sheet, "Consulta", with what was asked; and
//! `csv-excel`, the CSV such an Excel reads (`;`, UTF-8 with BOM, decimal comma, dd/mm/aaaa,
//! Spanish headers), with the column names and cell types of [`crate::report::columns`].
//! Rendering only: the figures are the ones the engine and the register produced.

use crate::money::Places;
pub use crate::report::columns::{Cell, cell_of, header_es};
use crate::report::records::csv_cell;
use rust_decimal::Decimal;
use rust_xlsxwriter::{ExcelDateTime, Format, FormatAlign, Workbook, XlsxError};
use serde_json::Value;

/// A sheet of rows under one header.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The sheet's name (at most 31 characters, Excel's limit).
    pub name: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// What was asked, for the "Consulta" sheet: (what, value) in order.
pub type Asked = Vec<(String, Cell)>;

/// Records (JSON objects) as a table of the given columns, with their Spanish names.
pub fn table_of(name: &str, columns: &[&str], rows: &[Value]) -> Table {
    Table {
        name: name.to_string(),
        headers: columns.iter().map(|c| header_es(c)).collect(),
        rows: rows
            .iter()
            .map(|r| columns.iter().map(|c| cell_of(c, &r[*c])).collect())
            .collect(),
    }
}

/// The columns of records, in the order they first appear.
pub fn columns_of(rows: &[Value]) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for r in rows {
        if let Value::Object(m) = r {
            for k in m.keys() {
                if !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    cols
}

/// How one column's cells show, gathered a cell at a time ([`Shape::add`]) so that a listing
/// written as it is read shows as the whole list does: the decimals of its amounts ([`Places`], the rule the tables for
/// people follow too), the most decimals of its rates and of its numbers, and its widest cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shape {
    pesos: Places,
    percent: u32,
    number: u32,
    widest: usize,
}

impl Shape {
    pub fn add(&mut self, cell: &Cell) {
        match cell {
            Cell::Pesos(d) => self.pesos.add(*d),
            Cell::Percent(d) => self.percent = self.percent.max(d.normalize().scale()),
            Cell::Number(d) => self.number = self.number.max(d.normalize().scale()),
            _ => {}
        }
        self.widest = self.widest.max(shown_width(cell));
    }

    /// The decimals a number of the column is written with in csv-excel, as the workbook's
    /// cell shows it ([`Shape::format_of`]): each kind with its own, so that a column mixing
    /// kinds (a liquidation's summary: a percentage above prices) rounds none of them. Pesos
    /// as [`Places`] has them (0, or 2 when any amount has cents, more when one needs more),
    /// rates at least 2, daily rates at least 10 (SPEC §5).
    pub fn csv_scale(&self, cell: &Cell) -> u32 {
        self.format_of(cell).1
    }

    fn pesos_scale(&self) -> u32 {
        self.pesos.scale()
    }

    /// A workbook cell's format: its kind (a key of the formats made) and the decimals its
    /// column shows that kind with (one column may mix kinds: the summary of a liquidation,
    /// the Consulta sheet).
    pub(super) fn format_of(&self, cell: &Cell) -> (u8, u32) {
        match cell {
            Cell::Pesos(_) => (0, self.pesos_scale()),
            Cell::Percent(_) => (1, self.percent.max(2)),
            Cell::Number(_) => (2, self.number.max(10)),
            Cell::Count(_) => (3, 0),
            Cell::Date(_) => (4, 0),
            Cell::DateTime(_) => (6, 0),
            Cell::Empty | Cell::Text(_) => (5, 0),
        }
    }

    /// The width of the column under `header`, in characters as a workbook sets it.
    pub(super) fn width(&self, header: &str) -> f64 {
        self.widest.max(header.chars().count() + 3).clamp(8, 60) as f64 + 1.0
    }
}

/// The shape of each column of `rows`.
pub fn shapes(columns: usize, rows: &[Vec<Cell>]) -> Vec<Shape> {
    let mut shapes = vec![Shape::default(); columns];
    for row in rows {
        for (shape, cell) in shapes.iter_mut().zip(row) {
            shape.add(cell);
        }
    }
    shapes
}

/// `v` with `scale` decimals and a decimal comma, no grouping: `1087500`, `500000,50`, `27,90`.
pub(super) fn comma(v: Decimal, scale: u32) -> String {
    let mut v = v;
    v.rescale(scale);
    v.to_string().replace('.', ",")
}

/// The table as the CSV a Spanish-locale Excel opens as it is: UTF-8 with BOM, `;`, CRLF,
/// Spanish headers, dd/mm/aaaa, decimal comma, pesos of one column at one scale, text that
/// could be a formula quoted with `'`.
pub fn csv_excel(t: &Table) -> Vec<u8> {
    let shapes = shapes(t.headers.len(), &t.rows);
    let mut w = csv::WriterBuilder::new()
        .delimiter(b';')
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    let header: Vec<String> = t.headers.iter().map(|h| csv_cell(h).into_owned()).collect();
    let _ = w.write_record(&header);
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| match cell {
                Cell::Empty => String::new(),
                Cell::Text(s) => csv_cell(s).into_owned(),
                Cell::Count(i) => i.to_string(),
                Cell::Pesos(d) | Cell::Percent(d) | Cell::Number(d) => {
                    comma(*d, shapes[c].csv_scale(cell))
                }
                Cell::Date(d) => d.format("%d/%m/%Y").to_string(),
                Cell::DateTime(t) => t.format("%d/%m/%Y %H:%M:%S").to_string(),
            })
            .collect();
        let _ = w.write_record(&cells);
    }
    bytes.extend(w.into_inner().unwrap_or_default());
    bytes
}

/// Several tables in one CSV for a Spanish Excel, one after another with an empty line between
/// them (a liquidation: its summary, its periods, its payments); one BOM.
pub fn csv_excel_all(tables: &[Table]) -> Vec<u8> {
    let mut out = "\u{feff}".as_bytes().to_vec();
    for (i, t) in tables.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(&csv_excel(t)[3..]);
    }
    out
}

/// A liquidation (the JSON of `fine quote`, [`crate::report::liquidation::to_json`]) as its
/// sheets: the summary (concept, value), the accrual periods, the payments.
pub fn liquidation_tables(v: &Value) -> Vec<Table> {
    let pesos = |x: &Value| match x {
        Value::String(s) => Decimal::from_str_exact(s).map_or(Cell::Empty, Cell::Pesos),
        _ => Cell::Empty,
    };
    let date = |k: &str| cell_of("date", &v[k]);
    let yes = |k: &str| cell_of("", &v[k]);
    let percent = |x: &Value| match x {
        Value::String(s) => Decimal::from_str_exact(s).map_or(Cell::Empty, Cell::Percent),
        _ => Cell::Empty,
    };
    let mut summary: Vec<(&str, Cell)> = Vec::new();
    if let Some(id) = v["liquidation_id"].as_i64() {
        summary.push(("Liquidación N.º", Cell::Count(id)));
    }
    summary.extend([
        ("Hay multa", yes("applies")),
        ("Convención", cell_of("convention", &v["convention"])),
        ("Fecha adjudicación", date("adjudicated")),
        ("Fecha incumplimiento", date("breach_date")),
        ("Fecha de corte", date("until")),
        ("Fin del período de restricción", date("lockup_end")),
        ("Porcentaje de la multa", percent(&v["bracket_percent"])),
        ("Acciones", cell_of("shares", &v["shares"])),
        (
            "Precio de referencia",
            match v["reference"]["basis"].as_str() {
                Some("acquisition") => Cell::Text("adquisición (i)".into()),
                Some("transfer") => Cell::Text("transferencia (ii)".into()),
                Some("stage") => Cell::Text("etapa posterior (iii)".into()),
                Some(other) => Cell::Text(other.into()),
                None => Cell::Empty,
            },
        ),
        (
            "Precio de referencia por acción",
            pesos(&v["reference"]["price_per_share"]),
        ),
        (
            "Precio de adquisición",
            pesos(&v["reference_prices"]["acquisition"]),
        ),
        (
            "Precio de transferencia",
            pesos(&v["reference_prices"]["transfer"]),
        ),
        (
            "Precio de etapa posterior",
            pesos(&v["reference_prices"]["stage"]),
        ),
        ("Provisional", yes("provisional")),
        ("Capital (multa)", pesos(&v["principal"])),
        ("Días", cell_of("days", &v["days"])),
        ("Intereses", pesos(&v["interest"])),
        ("Capital pendiente", pesos(&v["outstanding_capital"])),
        ("Intereses pendientes", pesos(&v["outstanding_interest"])),
        ("Excedente", pesos(&v["surplus"])),
        ("Total a pagar", pesos(&v["total_due"])),
        (
            "Fuente de las tasas",
            v["rates_source"]
                .as_str()
                .map_or(Cell::Empty, |s| Cell::Text(crate::rates::source_es(s))),
        ),
    ]);
    let rows_of = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    vec![
        Table {
            name: "Liquidación".into(),
            headers: vec!["Concepto".into(), "Valor".into()],
            rows: summary
                .into_iter()
                .filter(|(_, c)| *c != Cell::Empty)
                .map(|(k, c)| vec![Cell::Text(k.into()), c])
                .collect(),
        },
        table_of(
            "Periodos",
            &[
                "from",
                "to",
                "days",
                "moratorium_ea_percent",
                "daily_rate",
                "capital",
                "interest",
                "resolution",
            ],
            &rows_of("periods"),
        ),
        table_of(
            "Pagos",
            &["date", "amount", "to_interest", "to_capital", "surplus"],
            &rows_of("payments"),
        ),
    ]
}

/// The number Excel holds for `d`: the double nearest to it, as if it had been typed.
fn double(d: Decimal) -> f64 {
    d.normalize().to_string().parse().unwrap_or_default()
}

/// Excel's number format of a column (format codes are locale-neutral: `$ #,##0` shows as
/// `$ 1.450` in a Spanish Excel).
pub(super) fn num_format(kind: &Cell, scale: u32) -> Option<String> {
    let decimals = |n: u32| {
        if n == 0 {
            String::new()
        } else {
            format!(".{}", "0".repeat(n as usize))
        }
    };
    match kind {
        Cell::Pesos(_) => Some(format!("$ #,##0{}", decimals(scale))),
        Cell::Percent(_) => Some(format!("0{}%", decimals(scale.max(2)))),
        Cell::Number(_) => Some(format!("0{}", decimals(scale))),
        Cell::Count(_) => Some("#,##0".into()),
        Cell::Date(_) => Some("dd/mm/yyyy".into()),
        Cell::DateTime(_) => Some("dd/mm/yyyy hh:mm:ss".into()),
        _ => None,
    }
}

/// How wide a cell shows, in characters.
fn shown_width(c: &Cell) -> usize {
    match c {
        Cell::Empty => 0,
        Cell::Text(s) => s.chars().count(),
        Cell::Count(i) => i.to_string().len() + 2,
        Cell::Pesos(d) => d.trunc().to_string().len() * 4 / 3 + 5,
        Cell::Percent(d) | Cell::Number(d) => d.to_string().len() + 2,
        Cell::Date(_) => 10,
        Cell::DateTime(_) => 19,
    }
}

pub(super) fn write_table(
    book: &mut Workbook,
    t: &Table,
    header: &Format,
) -> Result<(), XlsxError> {
    let sheet = book.add_worksheet();
    sheet.set_name(t.name.chars().take(31).collect::<String>())?;
    let columns = t.headers.len();
    for (c, h) in t.headers.iter().enumerate() {
        sheet.write_string_with_format(0, col(c), h, header)?;
    }
    let shapes = shapes(columns, &t.rows);
    let mut formats: std::collections::HashMap<(usize, u8), Format> = Default::default();
    for (r, row) in t.rows.iter().enumerate() {
        let r = u32::try_from(r + 1).unwrap_or(u32::MAX);
        for (c, cell) in row.iter().enumerate() {
            let (kind, scale) = shapes[c].format_of(cell);
            let f = formats.entry((c, kind)).or_insert_with(|| {
                num_format(cell, scale)
                    .map_or_else(Format::new, |f| Format::new().set_num_format(f))
            });
            write_cell(sheet, r, col(c), cell, Some(&*f))?;
        }
    }
    sheet.set_freeze_panes(1, 0)?;
    if columns > 0 {
        let last = u32::try_from(t.rows.len()).unwrap_or(u32::MAX);
        sheet.autofilter(0, 0, last, col(columns - 1))?;
    }
    for (c, shape) in shapes.iter().enumerate() {
        sheet.set_column_width(col(c), shape.width(&t.headers[c]))?;
    }
    Ok(())
}

pub(super) fn col(c: usize) -> u16 {
    u16::try_from(c).unwrap_or(u16::MAX)
}

pub(super) fn write_cell(
    sheet: &mut rust_xlsxwriter::Worksheet,
    r: u32,
    c: u16,
    cell: &Cell,
    format: Option<&Format>,
) -> Result<(), XlsxError> {
    let plain = Format::new();
    let f = format.unwrap_or(&plain);
    match cell {
        Cell::Empty => {}
        Cell::Text(s) => {
            sheet.write_string(r, c, s)?;
        }
        Cell::Count(i) => {
            sheet.write_number_with_format(r, c, *i as f64, f)?;
        }
        Cell::Pesos(d) | Cell::Number(d) => {
            sheet.write_number_with_format(r, c, double(*d), f)?;
        }
        Cell::Percent(d) => {
            sheet.write_number_with_format(r, c, double(*d / Decimal::ONE_HUNDRED), f)?;
        }
        Cell::Date(d) => {
            use chrono::Datelike;
            let day = ExcelDateTime::from_ymd(
                u16::try_from(d.year()).unwrap_or(1900),
                u8::try_from(d.month()).unwrap_or(1),
                u8::try_from(d.day()).unwrap_or(1),
            )?;
            sheet.write_datetime_with_format(r, c, &day, f)?;
        }
        Cell::DateTime(t) => {
            use chrono::{Datelike, Timelike};
            let moment = ExcelDateTime::from_ymd(
                u16::try_from(t.year()).unwrap_or(1900),
                u8::try_from(t.month()).unwrap_or(1),
                u8::try_from(t.day()).unwrap_or(1),
            )?
            .and_hms(
                u16::try_from(t.hour()).unwrap_or(0),
                u8::try_from(t.minute()).unwrap_or(0),
                f64::from(t.second()),
            )?;
            sheet.write_datetime_with_format(r, c, &moment, f)?;
        }
    }
    Ok(())
}

/// The tables as a workbook, one sheet each, and a last sheet "Consulta" with what was asked
/// and the vigia that wrote it.
pub fn xlsx(tables: &[Table], asked: &[(String, Cell)]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let header = Format::new()
        .set_bold()
        .set_align(FormatAlign::Center)
        .set_background_color("D9E1F2");
    for t in tables {
        write_table(&mut book, t, &header)?;
    }
    write_table(&mut book, &consulta(asked), &header)?;
    book.save_to_buffer()
}

/// The last sheet of a workbook: what was asked and the vigia that wrote it.
pub(super) fn consulta(asked: &[(String, Cell)]) -> Table {
    let mut rows: Vec<Vec<Cell>> = asked
        .iter()
        .map(|(k, v)| vec![Cell::Text(k.clone()), v.clone()])
        .collect();
    rows.push(vec![
        Cell::Text("Versión de vigia".into()),
        Cell::Text(env!("CARGO_PKG_VERSION").into()),
    ]);
    Table {
        name: "Consulta".into(),
        headers: vec!["Consulta".into(), "Valor".into()],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;
    use chrono::NaiveDate;
    use serde_json::json;

    #[test]
    fn records_become_typed_cells_by_their_column() {
        assert_eq!(
            cell_of("amount", &json!("500000.00")),
            Cell::Pesos(dec("500000"))
        );
        assert_eq!(
            cell_of("doc_number", &json!("0012345")),
            Cell::Text("0012345".into())
        );
        assert_eq!(cell_of("shares", &json!(1000)), Cell::Count(1000));
        assert_eq!(
            cell_of("breach_date", &json!("2024-11-20")),
            Cell::Date(NaiveDate::from_ymd_opt(2024, 11, 20).unwrap())
        );
        assert_eq!(
            cell_of("moratorium_ea_percent", &json!("27.90")),
            Cell::Percent(dec("27.90"))
        );
        assert_eq!(cell_of("void", &json!(false)), Cell::Text("no".into()));
        assert_eq!(cell_of("voided_at", &Value::Null), Cell::Empty);
    }

    #[test]
    fn a_column_mixing_kinds_writes_each_number_exactly_in_csv_excel() {
        // a liquidation's summary: a percentage above prices (one typed with three decimals),
        // then a daily rate; each kind with its own decimals (`Shape::format_of`), none rounded
        let csv = |cells: Vec<Cell>| {
            let t = Table {
                name: "Resumen".into(),
                headers: vec!["Valor".into()],
                rows: cells.into_iter().map(|c| vec![c]).collect(),
            };
            String::from_utf8(csv_excel(&t)).unwrap()
        };
        let prices = vec![
            Cell::Percent(dec("75")),
            Cell::Pesos(dec("963.125")),
            Cell::Pesos(dec("1450")),
        ];
        assert_eq!(
            csv(prices.clone()),
            "\u{feff}Valor\r\n75,00\r\n963,125\r\n1450,000\r\n"
        );
        let mut with_rate = prices;
        with_rate.push(Cell::Number(dec("0.000674415")));
        assert_eq!(
            csv(with_rate),
            "\u{feff}Valor\r\n75,00\r\n963,125\r\n1450,000\r\n0,0006744150\r\n"
        );
    }

    #[test]
    fn csv_excel_is_what_a_spanish_excel_reads() {
        let rows = vec![
            json!({"id": 1, "date": "2024-12-15", "amount": "500000.50", "reference": "=1+1"}),
            json!({"id": 2, "date": "2025-02-10", "amount": "623432", "reference": "Ñandú"}),
        ];
        let t = table_of("Pagos", &["id", "date", "amount", "reference"], &rows);
        let bytes = csv_excel(&t);
        // BOM, `;`, CRLF, Spanish headers, dd/mm/aaaa, one scale per amount column with a
        // decimal comma, a formula kept as text
        assert_eq!(
            bytes,
            "\u{feff}N.º;Fecha;Valor;Referencia\r\n\
             1;15/12/2024;500000,50;'=1+1\r\n\
             2;10/02/2025;623432,00;Ñandú\r\n"
                .as_bytes()
        );
    }
}
