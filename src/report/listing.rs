//! A listing's records as the Excel files both front ends give (`vigia breach list --format
//! xlsx|csv-excel`, the web's «Descargar» links): one sheet of the records' columns under their
//! Spanish headers, typed cells, and the Consulta sheet with what was asked; and the records
//! themselves where a front end lists them (a breach: [`breach`]).

use super::excel::{self, Asked, Table};
use super::findings::Kind;
use crate::store::breaches::Breach;
use rust_xlsxwriter::XlsxError;
use serde_json::{Value, json};

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

/// Records as the file `kind` names: a workbook with the Consulta sheet (`asked`), or the CSV
/// for a Spanish Excel.
pub fn file(kind: Kind, sheet: &str, rows: &[Value], asked: &Asked) -> Result<Vec<u8>, XlsxError> {
    let t = table(sheet, rows);
    Ok(match kind {
        Kind::Xlsx => excel::xlsx(&[t], asked)?,
        Kind::CsvExcel => excel::csv_excel(&t),
    })
}
