//! Register records (JSON objects with ordered keys) rendered the three ways every listing and
//! showing command offers: a table for people, CSV and JSON for machines.

use serde_json::Value;
use tabled::builder::Builder;
use tabled::settings::Style;

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
