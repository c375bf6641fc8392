//! `vigia check`: the periodic batch check, for people (table) and schedulers (CSV, JSON, exit
//! status 0 nothing to do / 1 findings / 2 could not run).

use super::{CliError, Ctx, Status, args};
use crate::check::{self, Code, Finding, Options};
use crate::report::records::{self, Format};
use crate::store::programs;
use chrono::NaiveDate;
use clap::Args;
use serde_json::{Value, json};
use std::io::IsTerminal;
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
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

fn record(f: &Finding) -> Value {
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

/// Findings per code, in code order, codes without findings left out.
fn summary(findings: &[Finding]) -> Vec<(Code, usize)> {
    Code::ALL
        .iter()
        .map(|c| (*c, findings.iter().filter(|f| f.code == *c).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

pub fn run(a: CheckArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let as_of = a.as_of.unwrap_or_else(|| chrono::Local::now().date_naive());
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let program_id = a
        .program
        .as_ref()
        .map(|c| programs::by_code(store.conn(), c).map(|p| p.id))
        .transpose()?;
    let tty = std::io::stderr().is_terminal();
    let mut progress = |n: u64| {
        if tty {
            eprint!("\rchecking: {n} adjudications read");
        }
    };
    let findings = check::run(
        store.conn(),
        &Options {
            as_of,
            program_id,
            within_days: a.within_days,
        },
        &rates,
        &mut progress,
    )?;
    if tty {
        eprintln!();
    }
    let rows: Vec<Value> = findings.iter().map(record).collect();
    let counts = summary(&findings);
    let text = match a.format {
        Format::Json => {
            let summary: serde_json::Map<String, Value> = counts
                .iter()
                .map(|(c, n)| (c.as_str().to_string(), json!(n)))
                .collect();
            let v = json!({"as_of": as_of.to_string(), "findings_total": findings.len(), "summary": summary, "findings": rows});
            format!("{}\n", serde_json::to_string_pretty(&v).expect("json"))
        }
        Format::Csv => records::list(&rows, Format::Csv),
        Format::Table => {
            let mut s = format!("vigia check as of {as_of}: {} finding(s)\n", findings.len());
            if !findings.is_empty() {
                let sum: Vec<Value> = counts
                    .iter()
                    .map(|(c, n)| json!({"code": c.as_str(), "severity": c.severity().as_str(), "findings": n}))
                    .collect();
                s.push_str(&records::list(&sum, Format::Table));
                s.push('\n');
                s.push_str(&records::list(&rows, Format::Table));
            }
            s
        }
    };
    match &a.out {
        Some(path) => std::fs::write(path, text).map_err(|e| CliError::File {
            flag: "--out",
            path: path.clone(),
            error: e.to_string(),
        })?,
        None => write!(ctx.out, "{text}")?,
    }
    Ok(if findings.is_empty() {
        Status::Ok
    } else {
        Status::Findings
    })
}
