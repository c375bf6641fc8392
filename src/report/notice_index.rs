//! The `index.csv` of a batch of notices, one writer for `notice issue --pending` (beside the
//! documents in `--out`) and the web's batch zip: the csv-excel of [`crate::report::excel`]
//! (`;`, UTF-8 with BOM, Spanish headers, dd/mm/aaaa, pesos with a decimal comma), as
//! `notice list --format csv-excel` writes the same columns.

use crate::notice::NoticeData;
use crate::report::excel::{self, Cell, Table};

/// The columns of the index, in order (their Spanish names from `report::columns`).
const COLUMNS: [&str; 10] = [
    "number",
    "breach_id",
    "liquidation_id",
    "doc_type",
    "doc_number",
    "name",
    "total_due",
    "until",
    "deadline",
    "file",
];

/// One notice's line: its cells, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexLine(Vec<Cell>);

impl IndexLine {
    /// The line of a notice of breach `breach_id` issued with `data`, whose document is `file`
    /// (its name in the directory or the zip). The deadline is empty while the notice awaits
    /// its delivery (LEGAL_NOTES §7.3), as in `notice list`.
    pub fn of(breach_id: i64, data: &NoticeData, file: &str) -> IndexLine {
        let from_delivery = data.letters.payment_term_from == crate::program::TermFrom::Delivery;
        IndexLine(vec![
            Cell::Text(data.number.clone()),
            Cell::Count(breach_id),
            Cell::Count(data.liquidation_id),
            Cell::Text(data.doc_type.clone()),
            Cell::Text(data.doc_number.clone()),
            Cell::Text(data.holder_name.clone()),
            Cell::Pesos(data.liquidation.total_due),
            Cell::Date(data.liquidation.until),
            if from_delivery {
                Cell::Empty
            } else {
                Cell::Date(data.deadline)
            },
            Cell::Text(file.to_string()),
        ])
    }
}

/// The index of `lines`: text a spreadsheet would run as a formula is written as text (`'=…`).
pub fn index_csv(lines: Vec<IndexLine>) -> Vec<u8> {
    excel::csv_excel(&Table {
        name: "Avisos".into(),
        headers: COLUMNS.iter().map(|c| excel::header_es(c)).collect(),
        rows: lines.into_iter().map(|l| l.0).collect(),
    })
}
