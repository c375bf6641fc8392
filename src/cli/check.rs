//! `vigia check`: the periodic batch check, for people (table) and schedulers (CSV, JSON, exit
//! status 0 nothing to do / 1 findings / 2 could not run). CSV and JSON are written as findings
//! are found, the table's rows spooled to a temporary file until its summary is written, so memory
//! stays flat however many holders there are.

use super::{CliError, Ctx, Status, args};
use crate::check::{self, Code, Finding, Options, Severity};
use crate::report::records::{self, Format};
use crate::store::programs;
use chrono::NaiveDate;
use clap::Args;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Date the check is made as of (default: today).
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub as_of: Option<NaiveDate>,
    /// Only this program (default: all).
    #[arg(long)]
    pub program: Option<String>,
    /// LOCKUP_ENDING: lock-ups ending within this many days.
    #[arg(long, value_name = "DAYS", default_value_t = 30)]
    pub within_days: u32,
    /// Only findings of this severity or higher; the exit status then counts only those (e.g.
    /// `high` for a job that should alert only when someone must act now).
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = MinSeverity::Low)]
    pub min_severity: MinSeverity,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// After the check, sign the audit chain's head into the checkpoint log (as `vigia audit
    /// checkpoint` does), so that a nightly run anchors the day's writes.
    #[arg(long)]
    pub checkpoint: bool,
}

/// `--min-severity`: the flag's values, kept out of the core's `Severity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MinSeverity {
    High,
    Medium,
    Low,
}

impl From<MinSeverity> for Severity {
    fn from(s: MinSeverity) -> Severity {
        match s {
            MinSeverity::High => Severity::High,
            MinSeverity::Medium => Severity::Medium,
            MinSeverity::Low => Severity::Low,
        }
    }
}

const COLUMNS: [&str; 10] = [
    "code",
    "severity",
    "program",
    "doc_type",
    "doc_number",
    "holder",
    "adjudication_id",
    "breach_id",
    "outstanding",
    "reason",
];

fn cells(f: &Finding) -> [Cow<'_, str>; 10] {
    [
        Cow::Borrowed(f.code.as_str()),
        Cow::Borrowed(f.code.severity().as_str()),
        Cow::Borrowed(&f.program),
        Cow::Borrowed(&f.doc_type),
        Cow::Borrowed(&f.doc_number),
        Cow::Borrowed(&f.holder),
        Cow::Owned(f.adjudication_id.to_string()),
        f.breach_id
            .map(|b| Cow::Owned(b.to_string()))
            .unwrap_or(Cow::Borrowed("")),
        f.outstanding
            .map(|d| Cow::Owned(d.to_string()))
            .unwrap_or(Cow::Borrowed("")),
        Cow::Borrowed(&f.reason),
    ]
}

fn json_of(f: &Finding) -> Value {
    json!({
        "code": f.code.as_str(),
        "severity": f.code.severity().as_str(),
        "program": f.program,
        "doc_type": f.doc_type,
        "doc_number": f.doc_number,
        "holder": f.holder,
        "adjudication_id": f.adjudication_id,
        "breach_id": f.breach_id,
        "outstanding": f.outstanding.map(|d| d.to_string()),
        "reason": f.reason,
    })
}

impl From<check::Error> for CliError {
    fn from(e: check::Error) -> Self {
        match e {
            check::Error::Store(e) => CliError::Store(e),
            check::Error::Fine { breach, error } => CliError::Breach {
                breach,
                error: Box::new(error.into()),
            },
        }
    }
}

/// Where findings go as they are found.
enum Sink<'a> {
    Csv(Box<csv::Writer<&'a mut dyn Write>>),
    Json {
        out: &'a mut dyn Write,
        first: bool,
    },
    Table {
        out: &'a mut dyn Write,
        table: Box<records::SpooledTable>,
    },
}

pub fn run(a: CheckArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let as_of = a.as_of.unwrap_or_else(|| chrono::Local::now().date_naive());
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let checkpointer = (a.checkpoint)
        .then(|| super::audit::Checkpointer::new(ctx, false))
        .transpose()?;
    let program_id = a
        .program
        .as_ref()
        .map(|c| programs::by_code(store.conn(), c).map(|p| p.id))
        .transpose()?;
    // Where the report goes: a file (written as we go) or our buffered standard output.
    let mut file = match &a.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| CliError::File {
                flag: "--out",
                path: path.clone(),
                error: e.to_string(),
            })?,
        )),
        None => None,
    };
    let out: &mut dyn Write = match file.as_mut() {
        Some(f) => f,
        None => &mut *ctx.out,
    };
    let tty = std::io::stderr().is_terminal();
    let mut progress = |n: u64| {
        if tty {
            eprint!("\rchecking: {n} adjudications read");
        }
    };
    let mut counts = [0usize; Code::ALL.len()];
    let opts = Options {
        as_of,
        program_id,
        within_days: a.within_days,
        min_severity: a.min_severity.into(),
    };
    // Opening, one finding at a time, closing: CSV and JSON stream; the table spools its rows
    // to a temporary file so that the summary by code can come first.
    let mut sink = match a.format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(COLUMNS).map_err(records::csv_io)?;
            Sink::Csv(Box::new(w))
        }
        Format::Json => {
            write!(out, "{{\n  \"as_of\": \"{as_of}\",\n  \"findings\": [")?;
            Sink::Json { out, first: true }
        }
        Format::Table => Sink::Table {
            out,
            table: Box::new(records::SpooledTable::new(&COLUMNS)?),
        },
    };
    // A failed write stops the run and is reported as what it is (a closed pipe is not an
    // error).
    check::run(
        store.conn(),
        &opts,
        &rates,
        |f| -> Result<(), CliError> {
            counts[f.code as usize] += 1;
            match &mut sink {
                Sink::Csv(w) => w
                    .write_record(cells(&f).iter().map(|c| c.as_bytes()))
                    .map_err(records::csv_io)?,
                Sink::Json { out, first } => {
                    let sep = if *first { "\n    " } else { ",\n    " };
                    *first = false;
                    write!(out, "{sep}{}", json_of(&f))?
                }
                Sink::Table { table, .. } => table.push(&cells(&f))?,
            }
            Ok(())
        },
        &mut progress,
    )?;
    let total: usize = counts.iter().sum();
    let present = || Code::ALL.iter().zip(counts).filter(|(_, n)| *n > 0);
    let out = match sink {
        Sink::Csv(w) => w.into_inner().map_err(|e| e.into_error())?,
        Sink::Json { out, .. } => {
            let summary: serde_json::Map<String, Value> = present()
                .map(|(c, n)| (c.as_str().to_string(), json!(n)))
                .collect();
            writeln!(
                out,
                "\n  ],\n  \"findings_total\": {total},\n  \"summary\": {}\n}}",
                Value::Object(summary)
            )?;
            out
        }
        Sink::Table { out, table } => {
            writeln!(out, "vigia check as of {as_of}: {total} finding(s)")?;
            if total > 0 {
                let sum: Vec<Value> = present()
                    .map(|(c, n)| json!({"code": c.as_str(), "severity": c.severity().as_str(), "findings": n}))
                    .collect();
                writeln!(out, "{}", records::list(&sum, Format::Table))?;
                table.write_to(out)?;
            }
            out
        }
    };
    if let Some(c) = &checkpointer {
        c.sign(&store)?;
    }
    if tty {
        eprintln!();
    }
    out.flush()?;
    Ok(if total == 0 {
        Status::Ok
    } else {
        Status::Findings
    })
}
