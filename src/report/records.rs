//! Register records (JSON objects with ordered keys) rendered the three ways every listing and
//! showing command offers: a table for people, CSV and JSON for machines.

use serde_json::Value;
use tabled::builder::Builder;
use tabled::settings::Style;
use unicode_width::UnicodeWidthStr;

/// Output format of register listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => {
            if *b {
                "yes".into()
            } else {
                "no".into()
            }
        }
        other => other.to_string(),
    }
}

fn columns(rows: &[Value]) -> Vec<String> {
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

/// A list of records: table (one row each), CSV (header + rows) or a JSON array.
pub fn list(rows: &[Value], format: Format) -> String {
    match format {
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&Value::Array(rows.to_vec())).expect("json")
        ),
        Format::Csv => {
            let cols = columns(rows);
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(&cols);
            for r in rows {
                let _ = w.write_record(cols.iter().map(|c| cell(&r[c])));
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        Format::Table => {
            if rows.is_empty() {
                return "(none)\n".into();
            }
            let cols = columns(rows);
            let mut b = Builder::default();
            b.push_record(cols.iter().cloned());
            for r in rows {
                b.push_record(cols.iter().map(|c| cell(&r[c])));
            }
            let mut t = b.build();
            t.with(Style::psql());
            format!("{t}\n")
        }
    }
}

/// A CSV writer's error as the I/O error it is (so that a closed pipe is recognised as one).
pub fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// A list of records written as they come, in the same bytes as [`list`] would give for them
/// all: for listings too long to hold (a national register's adjudications). Every record has
/// the given columns, in that order.
pub enum ListWriter<'a> {
    Csv {
        w: Box<csv::Writer<&'a mut dyn std::io::Write>>,
        columns: Vec<String>,
    },
    Json {
        out: &'a mut dyn std::io::Write,
        first: bool,
    },
    Table {
        out: &'a mut dyn std::io::Write,
        columns: Vec<String>,
        table: Box<SpooledTable>,
    },
}

impl<'a> ListWriter<'a> {
    pub fn new(
        format: Format,
        columns: &[&str],
        out: &'a mut dyn std::io::Write,
    ) -> std::io::Result<ListWriter<'a>> {
        Ok(match format {
            Format::Csv => {
                let mut w = csv::Writer::from_writer(out);
                w.write_record(columns).map_err(csv_io)?;
                ListWriter::Csv {
                    w: Box::new(w),
                    columns: columns.iter().map(|c| c.to_string()).collect(),
                }
            }
            Format::Json => ListWriter::Json { out, first: true },
            Format::Table => ListWriter::Table {
                out,
                columns: columns.iter().map(|c| c.to_string()).collect(),
                table: Box::new(SpooledTable::new(columns)?),
            },
        })
    }

    pub fn push(&mut self, record: &Value) -> std::io::Result<()> {
        match self {
            ListWriter::Csv { w, columns } => {
                let cells: Vec<String> = columns.iter().map(|c| cell(&record[c])).collect();
                w.write_record(&cells).map_err(csv_io)
            }
            ListWriter::Json { out, first } => {
                // as serde_json pretty-prints an array: each element indented by two spaces
                let text = serde_json::to_string_pretty(record).expect("json");
                out.write_all(if *first { b"[\n" } else { b",\n" })?;
                *first = false;
                for (i, line) in text.lines().enumerate() {
                    if i > 0 {
                        out.write_all(b"\n")?;
                    }
                    write!(out, "  {line}")?;
                }
                Ok(())
            }
            ListWriter::Table { columns, table, .. } => {
                let cells: Vec<String> = columns.iter().map(|c| cell(&record[c])).collect();
                table.push(&cells)
            }
        }
    }

    pub fn finish(self) -> std::io::Result<()> {
        match self {
            ListWriter::Csv { mut w, .. } => w.flush(),
            ListWriter::Json { out, first } => {
                out.write_all(if first { b"[]\n" } else { b"\n]\n" })
            }
            ListWriter::Table { out, table, .. } => table.write_to(out),
        }
    }
}

/// A table too long to hold in memory (a batch check can find a million things): rows go to a
/// temporary file as they come, with each column's width, and are rendered at the end in the
/// style of [`list`] (psql), line by line, so memory stays flat however many rows there are.
pub struct SpooledTable {
    header: Vec<String>,
    widths: Vec<usize>,
    spool: csv::Writer<std::io::BufWriter<std::fs::File>>,
    rows: u64,
}

impl SpooledTable {
    pub fn new(header: &[&str]) -> std::io::Result<SpooledTable> {
        Ok(SpooledTable {
            header: header.iter().map(|h| h.to_string()).collect(),
            widths: header.iter().map(|h| h.width()).collect(),
            spool: csv::Writer::from_writer(std::io::BufWriter::new(tempfile::tempfile()?)),
            rows: 0,
        })
    }

    /// Adds a row (one cell per header column).
    pub fn push<S: AsRef<str>>(&mut self, cells: &[S]) -> std::io::Result<()> {
        for (w, c) in self.widths.iter_mut().zip(cells) {
            *w = (*w).max(c.as_ref().width());
        }
        self.rows += 1;
        self.spool
            .write_record(cells.iter().map(|c| c.as_ref().as_bytes()))
            .map_err(csv_io)
    }

    /// Writes the table (`(none)` when no row was added).
    pub fn write_to(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.rows == 0 {
            return out.write_all(b"(none)\n");
        }
        let widths = self.widths;
        let line = |out: &mut dyn std::io::Write, cells: &mut dyn Iterator<Item = &str>| {
            for (i, (c, w)) in cells.zip(&widths).enumerate() {
                let pad = w - c.width();
                let sep = if i == 0 { "" } else { "|" };
                write!(out, "{sep} {c}{:pad$} ", "")?;
            }
            out.write_all(b"\n")
        };
        line(out, &mut self.header.iter().map(String::as_str))?;
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
        writeln!(out, "{}", rule.join("+"))?;
        let mut file = self
            .spool
            .into_inner()
            .map_err(|e| e.into_error())?
            .into_inner()?;
        std::io::Seek::rewind(&mut file)?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(std::io::BufReader::new(file));
        let mut record = csv::StringRecord::new();
        while reader.read_record(&mut record).map_err(csv_io)? {
            line(out, &mut record.iter())?;
        }
        Ok(())
    }
}

/// One record: `key: value` lines, CSV with one row, or a JSON object.
pub fn one(record: &Value, format: Format) -> String {
    match format {
        Format::Json => format!("{}\n", serde_json::to_string_pretty(record).expect("json")),
        Format::Csv => list(std::slice::from_ref(record), Format::Csv),
        Format::Table => {
            // Scalars as `key  value` lines; lists of records as titled tables below them.
            let mut out = String::new();
            let mut sections = String::new();
            if let Value::Object(m) = record {
                let width = m.keys().map(|k| k.chars().count()).max().unwrap_or(0);
                for (k, v) in m {
                    match v {
                        Value::Array(items) if items.iter().all(Value::is_object) => {
                            let flat: Vec<Value> = items.iter().map(flatten).collect();
                            sections.push_str(&format!("\n{k}:\n{}", list(&flat, Format::Table)));
                        }
                        Value::Array(_) | Value::Object(_) => out.push_str(&format!(
                            "{k:<width$}  {}\n",
                            serde_json::to_string(v).unwrap_or_default()
                        )),
                        other => out.push_str(&format!("{k:<width$}  {}\n", cell(other))),
                    }
                }
            }
            out + &sections
        }
    }
}

/// A record whose nested lists are summarised (e.g. `payments: 2`) so it fits one table row.
fn flatten(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let x = match x {
                        Value::Array(a) => Value::from(a.len()),
                        Value::Object(_) => Value::String(x.to_string()),
                        other => other.clone(),
                    };
                    (k.clone(), x)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_spooled_table_renders_exactly_like_a_listed_one() {
        // tabled's psql rendering is the reference: accents, empty cells, a cell wider than its
        // header and a header wider than its cells
        let rows = vec![
            json!({"code": "MISSING_PLEDGE", "holder": "Ana Gómez Peñaloza", "breach_id": ""}),
            json!({"code": "X", "holder": "Sindicato Ficticio de Trabajadores", "breach_id": "12"}),
        ];
        let mut spooled = SpooledTable::new(&["code", "holder", "breach_id"]).unwrap();
        for r in &rows {
            let cells: Vec<String> = ["code", "holder", "breach_id"]
                .iter()
                .map(|c| cell(&r[*c]))
                .collect();
            spooled.push(&cells).unwrap();
        }
        let mut out = Vec::new();
        spooled.write_to(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), list(&rows, Format::Table));

        let mut out = Vec::new();
        SpooledTable::new(&["code"])
            .unwrap()
            .write_to(&mut out)
            .unwrap();
        assert_eq!(out, b"(none)\n");
    }

    #[test]
    fn a_list_written_as_it_comes_is_the_list_written_at_once() {
        let rows = vec![
            json!({"id": 1, "name": "Ana Gómez", "lender": null, "shares": 1000, "ok": true,
                   "payload": {"row": {"a": [1, 2]}, "covers": []}}),
            json!({"id": 2, "name": "Sindicato \"Unidos\", Bogotá", "lender": "Banco X", "shares": 5, "ok": false,
                   "payload": null}),
        ];
        let columns = ["id", "name", "lender", "shares", "ok", "payload"];
        for format in [Format::Table, Format::Json, Format::Csv] {
            let mut out = Vec::new();
            let mut w = ListWriter::new(format, &columns, &mut out).unwrap();
            for r in &rows {
                w.push(r).unwrap();
            }
            w.finish().unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                list(&rows, format),
                "{format:?}"
            );
        }
        // nothing to list: the same for a person and for JSON; CSV keeps its header
        for (format, expected) in [
            (Format::Table, "(none)\n"),
            (Format::Json, "[]\n"),
            (Format::Csv, "id,name,lender,shares,ok,payload\n"),
        ] {
            let mut out = Vec::new();
            ListWriter::new(format, &columns, &mut out)
                .unwrap()
                .finish()
                .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
        assert_eq!(list(&[], Format::Json), "[]\n");
    }
}
