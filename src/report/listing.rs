//! A listing's records as the Excel files both front ends give (`vigia breach list --format
//! xlsx|csv-excel`, the web's «Descargar» links): one sheet of the records' columns under their
//! Spanish headers, typed cells, and the Consulta sheet with what was asked; and the records
//! themselves where a front end lists them (a breach: [`breach`]).

use super::excel::{self, Asked, Cell, Shape, Table};
use super::excel_stream::{CsvExcelStream, XlsxStream};
use super::findings::Kind;
use crate::store::breaches::Breach;
use rust_xlsxwriter::XlsxError;
use serde_json::{Value, json};
use std::io::Write;

/// A breach as a record (`vigia breach list|show`, the web's download of the breaches).
pub fn breach(b: &Breach) -> Value {
    json!({
        "id": b.id,
        "adjudication_id": b.adjudication_id,
        "kind": b.kind.as_str(),
        "breach_date": b.breach_date.to_string(),
        "shares": b.shares,
        "consideration_per_share": b.consideration_per_share.map(|d| d.to_string()),
        "consideration_total": b.consideration_total.map(|d| d.to_string()),
        "registered_on": b.registered_on.map(|d| d.to_string()),
        "evidence": b.evidence,
        "recorded_at": b.created_at,
        "recorded_by": b.created_by,
        "void": b.void.is_some(),
        "void_reason": b.void.as_ref().map(|v| v.reason.clone()),
        "voided_at": b.void.as_ref().map(|v| v.at.clone()),
        "voided_by": b.void.as_ref().map(|v| v.by.clone()),
    })
}

/// Records as one sheet named `sheet`: their columns in the order they first appear.
pub fn table(sheet: &str, rows: &[Value]) -> Table {
    let columns = excel::columns_of(rows);
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    excel::table_of(sheet, &columns, rows)
}

/// Records as the file `kind` names, to `out`: a workbook with the Consulta sheet (`asked`), or
/// the CSV for a Spanish Excel. Written a row at a time, in two passes over `records()`: the
/// first finds the columns (in the order they first appear) and how each shows (an amount
/// column's decimals depend on whether any amount has cents, a column's width on its widest
/// cell), the second writes the rows. The same csv-excel, byte for byte, and the same
/// workbook's cells, formats and widths as the whole list's writers ([`excel::csv_excel`],
/// [`excel::xlsx`] of [`table`]) without holding the list: 50,000 breaches as records, cells
/// and a workbook in memory took 310 MiB (xlsx) and 365 MiB (csv-excel).
pub fn write<I>(
    kind: Kind,
    sheet: &str,
    records: impl Fn() -> I,
    asked: &Asked,
    out: &mut dyn Write,
) -> Result<(), XlsxError>
where
    I: Iterator<Item = Value>,
{
    let mut columns: Vec<String> = Vec::new();
    let mut shapes: Vec<Shape> = Vec::new();
    for record in records() {
        let Value::Object(m) = record else { continue };
        for (k, v) in &m {
            let c = match columns.iter().position(|c| c == k) {
                Some(c) => c,
                None => {
                    columns.push(k.clone());
                    shapes.push(Shape::default());
                    columns.len() - 1
                }
            };
            shapes[c].add(&excel::cell_of(k, v));
        }
    }
    let headers: Vec<String> = columns.iter().map(|c| excel::header_es(c)).collect();
    let row = |r: &Value| -> Vec<Cell> {
        columns
            .iter()
            .map(|c| excel::cell_of(c, &r[c.as_str()]))
            .collect()
    };
    match kind {
        Kind::Xlsx => {
            let mut book = XlsxStream::shaped(sheet, &headers, shapes)?;
            for r in records() {
                book.push(&row(&r))?;
            }
            book.finish(asked, out)
        }
        Kind::CsvExcel => {
            let mut w = CsvExcelStream::new(out, &headers, &shapes)?;
            for r in records() {
                w.push(&row(&r))?;
            }
            Ok(w.finish()?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{Data, Reader, Xlsx};

    /// Two passes over the records: the one behind `breach list --format csv-excel|xlsx` and
    /// the web's download.
    fn written(kind: Kind, records: &[Value]) -> Vec<u8> {
        let asked = vec![("Comando".to_string(), Cell::Text("prueba".into()))];
        let mut out = Vec::new();
        write(kind, "Hoja", || records.iter().cloned(), &asked, &mut out).unwrap();
        out
    }

    fn cells(xlsx: Vec<u8>) -> Vec<(String, Vec<Vec<Data>>)> {
        let mut book = Xlsx::new(std::io::Cursor::new(xlsx)).unwrap();
        book.sheet_names()
            .into_iter()
            .map(|s| {
                let rows = book.worksheet_range(&s).unwrap();
                (s, rows.rows().map(|r| r.to_vec()).collect())
            })
            .collect()
    }

    #[test]
    fn amounts_without_cents_are_written_without_decimals_as_the_whole_list_writes_them() {
        let records = vec![
            json!({"id": 1, "amount": "1081", "daily_rate": "0.0006", "void": false}),
            json!({"id": 2, "amount": "900", "daily_rate": null, "void": true}),
        ];
        let csv = written(Kind::CsvExcel, &records);
        assert_eq!(
            String::from_utf8(csv.clone()).unwrap(),
            "\u{feff}N.º;Valor;Tasa diaria;Anulado\r\n\
             1;1081;0,0006000000;no\r\n\
             2;900;;sí\r\n"
        );
        assert_eq!(csv, excel::csv_excel(&table("Hoja", &records)));
    }

    #[test]
    fn one_amount_with_cents_gives_its_whole_column_two_decimals() {
        let records = vec![
            json!({"id": 1, "amount": "1081"}),
            json!({"id": 2, "amount": "900.5", "evidence": "=1+1"}),
        ];
        let csv = written(Kind::CsvExcel, &records);
        assert_eq!(
            String::from_utf8(csv.clone()).unwrap(),
            "\u{feff}N.º;Valor;Soporte\r\n1;1081,00;\r\n2;900,50;'=1+1\r\n"
        );
        assert_eq!(csv, excel::csv_excel(&table("Hoja", &records)));
    }

    #[test]
    fn the_workbook_written_a_row_at_a_time_has_the_whole_lists_cells() {
        let records = vec![
            json!({"id": 1, "amount": "1081", "breach_date": "2024-05-03", "kind": "sale"}),
            json!({"id": 2, "amount": "900.5", "breach_date": null, "kind": "sale"}),
        ];
        let asked = vec![("Comando".to_string(), Cell::Text("prueba".into()))];
        let whole = excel::xlsx(&[table("Hoja", &records)], &asked).unwrap();
        let streamed = cells(written(Kind::Xlsx, &records));
        assert_eq!(streamed, cells(whole));
        let (name, rows) = &streamed[0];
        assert_eq!(name, "Hoja");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2][1], Data::Float(900.5));
        assert_eq!(streamed[1].0, "Consulta");
    }

    #[test]
    fn no_records_give_the_whole_lists_empty_files() {
        let csv = written(Kind::CsvExcel, &[]);
        assert_eq!(csv, excel::csv_excel(&table("Hoja", &[])));
        let asked = vec![("Comando".to_string(), Cell::Text("prueba".into()))];
        let whole = excel::xlsx(&[table("Hoja", &[])], &asked).unwrap();
        assert_eq!(cells(written(Kind::Xlsx, &[])), cells(whole));
    }
}
