//! The first-stage adjudication's rows (`vigia offer adjudicate`) as CSV or a table, written as
//! they come, straight from each [`Row`]'s fields: the same bytes as the record listing
//! ([`super::records::ListWriter`]) writes for the row's JSON object, without making that
//! object (a map of eleven keys per person, a million times).

use super::columns::{csv_value, header_es, is_pesos, shown_es};
use super::records::{Format, SpooledTable, csv_cell, csv_io};
use crate::lang::Lang;
use crate::register::offering::Row;
use serde_json::Value;
use std::borrow::Cow;
use std::io::Write;

/// The rows' columns, in order (the keys of a row's JSON object).
pub const COLUMNS: [&str; 11] = [
    "doc_type",
    "doc_number",
    "name",
    "requested",
    "cap_shares",
    "cap_rule",
    "admitted",
    "quota",
    "awarded",
    "status",
    "cause",
];

/// A cell of a row, as its JSON value would be.
enum Field<'r> {
    Text(&'r str),
    Count(u64),
    Null,
}

fn fields(r: &Row) -> [Field<'_>; 11] {
    fn text(s: Option<&str>) -> Field<'_> {
        s.map_or(Field::Null, Field::Text)
    }
    let count = |n: Option<u64>| n.map_or(Field::Null, Field::Count);
    [
        Field::Text(&r.doc_type),
        Field::Text(&r.doc_number),
        Field::Text(&r.name),
        Field::Count(r.requested),
        count(r.cap_shares),
        text(r.cap_rule.as_deref()),
        Field::Count(r.admitted),
        text(r.quota.as_deref()),
        Field::Count(r.awarded),
        Field::Text(r.status.as_str()),
        text(r.cause),
    ]
}

/// A cell as the listing shows it in English (and writes it in CSV, before `csv_value`): text
/// as it is, a number in digits, nothing for null.
fn plain(f: &Field<'_>) -> Cow<'static, str> {
    match f {
        Field::Text(s) => Cow::Owned((*s).to_string()),
        Field::Count(n) => Cow::Owned(n.to_string()),
        Field::Null => Cow::Borrowed(""),
    }
}

/// A cell as a Spanish table shows it ([`shown_es`] of its JSON value).
fn spanish(key: &str, f: &Field<'_>) -> String {
    match f {
        Field::Text(s) => shown_es(key, &Value::String((*s).to_string())),
        Field::Count(n) => shown_es(key, &Value::from(*n)),
        Field::Null => String::new(),
    }
}

/// The rows written one at a time, as CSV (header first) or as a table (spooled, rendered at
/// [`RowWriter::finish`]).
pub enum RowWriter<'a> {
    Csv(Box<csv::Writer<&'a mut dyn Write>>),
    Table {
        out: &'a mut dyn Write,
        table: Box<SpooledTable>,
        lang: Lang,
    },
}

impl<'a> RowWriter<'a> {
    /// `format` is CSV or a table (JSON is written by the caller, with the result's totals).
    pub fn new(format: Format, out: &'a mut dyn Write, lang: Lang) -> std::io::Result<Self> {
        Ok(match format {
            Format::Table => {
                let names: Vec<String> = match lang {
                    Lang::En => COLUMNS.iter().map(|c| c.to_string()).collect(),
                    Lang::Es => COLUMNS.iter().map(|c| header_es(c)).collect(),
                };
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                RowWriter::Table {
                    out,
                    table: Box::new(SpooledTable::new(&names)?),
                    lang,
                }
            }
            Format::Csv | Format::Json => {
                let mut w = csv::Writer::from_writer(out);
                w.write_record(COLUMNS).map_err(csv_io)?;
                RowWriter::Csv(Box::new(w))
            }
        })
    }

    pub fn push(&mut self, r: &Row) -> std::io::Result<()> {
        let fields = fields(r);
        match self {
            RowWriter::Csv(w) => {
                for (key, f) in COLUMNS.iter().zip(&fields) {
                    let cell = match f {
                        Field::Text(s) if !is_pesos(key) => csv_cell(s),
                        Field::Count(n) => Cow::Owned(n.to_string()),
                        Field::Null => Cow::Borrowed(""),
                        f => Cow::Owned(csv_cell(&csv_value(key, plain(f).into_owned())).into()),
                    };
                    w.write_field(cell.as_bytes()).map_err(csv_io)?;
                }
                w.write_record(None::<&[u8]>).map_err(csv_io)
            }
            RowWriter::Table { table, lang, .. } => match lang {
                Lang::En => table.push(&fields.each_ref().map(plain)),
                Lang::Es => table.push(&std::array::from_fn::<_, 11, _>(|i| {
                    spanish(COLUMNS[i], &fields[i])
                })),
            },
        }
    }

    pub fn finish(self) -> std::io::Result<()> {
        match self {
            RowWriter::Csv(mut w) => w.flush(),
            RowWriter::Table { out, table, lang } => match lang {
                Lang::En => table.write_to(out),
                Lang::Es => table.write_to_saying(out, "(ninguno)"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offering::adjudicate::Status;
    use crate::report::records::ListWriter;

    /// Rows with what a cell may hold: nulls, a name a spreadsheet would take for a formula,
    /// one that looks like a date, quotes and commas, accents, a control character.
    fn rows() -> Vec<Row> {
        let row = |doc: &str, name: &str, cap: Option<(u64, &str)>, quota: Option<&str>| Row {
            doc_type: "CC".into(),
            doc_number: doc.into(),
            name: name.into(),
            requested: 1_234_567,
            cap_shares: cap.map(|c| c.0),
            cap_rule: cap.map(|c| c.1.to_string()),
            admitted: 12,
            quota: quota.map(str::to_string),
            awarded: if quota.is_some() { 5 } else { 0 },
            status: if quota.is_some() {
                Status::Awarded
            } else {
                Status::Rejected
            },
            cause: if quota.is_some() { None } else { Some("LATE") },
        };
        vec![
            row(
                "10",
                "=SUM(A1)",
                Some((40, "art. 7, num. 1")),
                Some("5 + 2/3"),
            ),
            row("11", "2024-01-31", None, None),
            row(
                "12",
                "Peñaloza, \"la\" Ana\u{7}",
                Some((3, "-x")),
                Some("0 + 1/9"),
            ),
        ]
    }

    #[test]
    fn rows_are_written_as_the_record_listing_writes_their_json_objects() {
        for (format, lang) in [
            (Format::Csv, Lang::En),
            (Format::Table, Lang::En),
            (Format::Table, Lang::Es),
        ] {
            let (mut ours, mut listed) = (Vec::new(), Vec::new());
            let mut w = RowWriter::new(format, &mut ours, lang).unwrap();
            let mut l = ListWriter::new_in(format, &COLUMNS, &mut listed, lang).unwrap();
            for r in rows() {
                w.push(&r).unwrap();
                l.push(&serde_json::to_value(&r).unwrap()).unwrap();
            }
            w.finish().unwrap();
            l.finish().unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(listed).unwrap(),
                "{format:?} {lang:?}"
            );
        }
    }

    #[test]
    fn the_columns_are_a_rows_json_keys_in_order() {
        let value = serde_json::to_value(&rows()[0]).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, COLUMNS);
    }
}
