//! `vigia check`: the periodic batch check, for people (table) and schedulers (CSV, JSON, exit
//! status 0 nothing to do / 1 findings / 2 could not run). CSV and JSON are written as findings
//! are found, the table's rows spooled (sorted) to temporary files until its summary is written,
//! so memory stays flat however many holders there are; the report reaches standard output or
//! `--out` only when the whole run succeeded.

use super::out::OutFormat as Format;
use super::out::xlsx_error;
use super::{CliError, Ctx, Status, args};
use crate::check::{self, Code, Finding, Holding, Options, Severity};
use crate::lang::Lang;
use crate::report::excel::header_es;
use crate::report::records;
use crate::store::bulk::JsonObject;
use crate::store::programs;
use chrono::NaiveDate;
use clap::Args;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Date the check is made as of (default: today).
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub as_of: Option<NaiveDate>,
    /// Only this program (default: all).
    #[arg(value_parser = super::args::text, long)]
    pub program: Option<String>,
    /// LOCKUP_ENDING: lock-ups ending within this many days.
    #[arg(long, value_name = "DAYS", default_value_t = 30, value_parser = super::args::small_count)]
    pub within_days: u32,
    /// Only findings of this severity or higher; the exit status then counts only those (e.g.
    /// `high` for a job that should alert only when someone must act now).
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = MinSeverity::Low)]
    pub min_severity: MinSeverity,
    /// table, json and csv as ever; csv-excel (`;`, BOM, decimal comma, Spanish headers) and
    /// xlsx (a workbook, with --out) for a Spanish-locale Excel.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the report here instead of standard output (a workbook needs it).
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

use crate::report::findings::{self, COLUMNS};

/// A finding's cells; a finding about the register as a whole (RATE_DUE) has empty program,
/// holder and adjudication cells.
fn cells(f: &Finding, lang: Lang) -> [Cow<'_, str>; 10] {
    let holding = |field: fn(&Holding) -> &String| {
        f.holding
            .as_ref()
            .map_or(Cow::Borrowed(""), |h| Cow::Borrowed(field(h).as_str()))
    };
    [
        Cow::Borrowed(f.code.as_str()),
        Cow::Borrowed(f.severity().as_str()),
        holding(|h| &h.program),
        holding(|h| &h.doc_type),
        holding(|h| &h.doc_number),
        holding(|h| &h.holder),
        f.holding.as_ref().map_or(Cow::Borrowed(""), |h| {
            Cow::Owned(h.adjudication_id.to_string())
        }),
        f.breach_id
            .map(|b| Cow::Owned(b.to_string()))
            .unwrap_or(Cow::Borrowed("")),
        f.outstanding
            .map(|d| Cow::Owned(d.to_string()))
            .unwrap_or(Cow::Borrowed("")),
        Cow::Owned(super::remedy::reason(f, lang)),
    ]
}

/// A finding as a JSON object, written into `out` (cleared first); about the register as a whole
/// (RATE_DUE), program, holder and adjudication are null. Written field by field in the keys'
/// order (`store::bulk::JsonObject`: the bytes `serde_json` writes for the object), into one
/// buffer for every finding, not through a map or a struct serialised for each of a million.
fn json_of(out: &mut Vec<u8>, f: &Finding, lang: Lang) {
    let h = f.holding.as_ref();
    let mut o = JsonObject::new(out);
    o.text("code", Some(f.code.as_str()));
    o.text("severity", Some(f.severity().as_str()));
    o.text("program", h.map(|h| h.program.as_str()));
    o.text("doc_type", h.map(|h| h.doc_type.as_str()));
    o.text("doc_number", h.map(|h| h.doc_number.as_str()));
    o.text("holder", h.map(|h| h.holder.as_str()));
    o.int_or_null("adjudication_id", h.map(|h| h.adjudication_id));
    o.int_or_null("breach_id", f.breach_id);
    o.text(
        "outstanding",
        f.outstanding.map(|d| d.to_string()).as_deref(),
    );
    o.text("reason", Some(&super::remedy::reason(f, lang)));
    o.end();
}

/// Where a finding goes in the table: by severity, then program, then holder (by name as a
/// Spanish reader orders names, then document); equal keys keep the order they were found in.
fn push_sorted(table: &mut records::SpooledTable, f: &Finding, lang: Lang) -> std::io::Result<()> {
    let rank = match f.severity() {
        Severity::High => "0",
        Severity::Medium => "1",
        Severity::Low => "2",
    };
    let mut cells = cells(f, lang);
    // shown with the decimals of every balance of the table
    if let Some(d) = f.outstanding {
        cells[8] = Cow::Owned(records::amount_cell(d));
    }
    // the severity in words, as the Spanish catalogue says it (CSV and JSON keep the code)
    if let Some(word) = crate::catalogue::of(lang).code("severity", &cells[1]) {
        cells[1] = Cow::Borrowed(word);
    }
    match &f.holding {
        Some(h) => {
            let program = records::collation_key(&h.program);
            let holder = records::collation_key(&h.holder);
            table.push_sorted(
                &[rank, &program, &holder, &h.doc_type, &h.doc_number],
                &cells,
            )
        }
        None => table.push_sorted(&[rank], &cells),
    }
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

/// The bytes of the report gathered before each write to its file.
const BUFFER: usize = 1 << 18;

/// Where the report is written while the check runs. Nothing reaches its destination unless
/// the whole run succeeds: a run that fails leaves standard output empty and `--out FILE` as it
/// was, however much had been written (main's buffer alone could not promise that: it flushes
/// as it fills).
enum Target {
    /// `--out FILE`, a file or none yet: a new temporary file in the same directory, mode 0600
    /// (so memory stays flat), moved over FILE at the end (`files::stage_file`: a symbolic link
    /// is refused, never followed, like every other output of vigia).
    File {
        tmp: std::io::BufWriter<crate::files::SyncedAsWritten>,
        staged: crate::files::Staged,
    },
    /// Standard output, or `--out` naming something that is not a file (`/dev/stdout`, a pipe):
    /// an anonymous temporary file, copied there at the end.
    Spool {
        spool: std::io::BufWriter<std::fs::File>,
        device: Option<PathBuf>,
    },
    /// Standard output, for the table: nothing is written before the end anyway.
    Stdout,
}

impl Target {
    fn open(out: Option<&Path>, format: Format, lang: Lang) -> Result<Target, CliError> {
        let file_error = |path: &Path, e: std::io::Error| CliError::File {
            flag: "--out",
            path: path.to_path_buf(),
            error: e,
        };
        let spool = || -> Result<_, CliError> {
            Ok(std::io::BufWriter::with_capacity(
                BUFFER,
                tempfile::tempfile()?,
            ))
        };
        let Some(path) = out else {
            return Ok(match format {
                Format::Table => Target::Stdout,
                Format::Csv | Format::Json | Format::CsvExcel => Target::Spool {
                    spool: spool()?,
                    device: None,
                },
                Format::Xlsx => {
                    return Err(CliError::Flag {
                        flag: "--format".into(),
                        value: "xlsx".into(),
                        reason: crate::catalogue::of(lang)
                            .msg(&crate::catalogue::msg::Msg::WorkbookNotText),
                    });
                }
            });
        };
        // a device or a pipe (`/dev/stdout` is a link to one) holds no copy of the report on
        // disk: it is written to, through a link or not; a file never is through a link
        let device = std::fs::metadata(path)
            .ok()
            .is_some_and(|m| !m.is_file() && !m.is_dir());
        if device {
            return Ok(Target::Spool {
                spool: spool()?,
                device: Some(path.to_path_buf()),
            });
        }
        let (staged, tmp) = crate::files::stage_file(path, true).map_err(|e| match e {
            crate::files::FileError::Symlink(p) => CliError::Flag {
                flag: "--out".into(),
                value: p.display().to_string(),
                reason: crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::OutIsSymlink),
            },
            crate::files::FileError::Io { path, error } => file_error(&path, error),
            other => file_error(path, other.into()),
        })?;
        // leftovers of runs killed before their rename, as every write into a directory does
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        crate::files::remove_stale(dir.unwrap_or(Path::new(".")), std::time::SystemTime::now());
        Ok(Target::File {
            tmp: std::io::BufWriter::with_capacity(
                BUFFER,
                crate::files::SyncedAsWritten::new(tmp)?,
            ),
            staged,
        })
    }

    fn writer<'a>(&'a mut self, stdout: &'a mut dyn Write) -> &'a mut dyn Write {
        match self {
            Target::File { tmp, .. } => tmp,
            Target::Spool { spool, .. } => spool,
            Target::Stdout => stdout,
        }
    }

    /// The run succeeded: the report goes to its destination.
    fn finish(self, stdout: &mut dyn Write) -> Result<(), CliError> {
        let file_error = |path: PathBuf, e: std::io::Error| CliError::File {
            flag: "--out",
            path,
            error: e,
        };
        match self {
            Target::File { tmp, staged } => {
                let file = tmp.into_inner().map_err(|e| e.into_error())?.into_file()?;
                file.sync_all()?;
                drop(file);
                staged.place().map_err(|e| {
                    let path = e.path().to_path_buf();
                    file_error(path, e.into())
                })?;
            }
            Target::Spool { spool, device } => {
                let mut file = spool.into_inner().map_err(|e| e.into_error())?;
                file.rewind()?;
                match device {
                    None => {
                        std::io::copy(&mut file, stdout)?;
                    }
                    Some(path) => {
                        let mut to = std::fs::OpenOptions::new()
                            .write(true)
                            .open(&path)
                            .map_err(|e| file_error(path, e))?;
                        std::io::copy(&mut file, &mut to)?;
                    }
                }
            }
            Target::Stdout => {}
        }
        Ok(stdout.flush()?)
    }
}

/// Where findings go as they are found.
enum Sink<'a> {
    Csv(Box<csv::Writer<&'a mut dyn Write>>),
    Json {
        out: &'a mut dyn Write,
        first: bool,
        /// The finding being written.
        line: Vec<u8>,
    },
    Table {
        out: &'a mut dyn Write,
        table: Box<records::SpooledTable>,
        lang: Lang,
    },
    /// csv-excel or xlsx: the writer the web's downloads use too.
    Excel(findings::Writer<&'a mut dyn Write>),
}

impl Sink<'_> {
    /// Ends the report: the JSON's totals, or the table with its summary by code first.
    fn close(
        self,
        as_of: NaiveDate,
        counts: &[usize],
        most_urgent: &[check::Severity],
    ) -> Result<(), CliError> {
        let total: usize = counts.iter().sum();
        let present = || {
            Code::ALL
                .iter()
                .zip(counts)
                .zip(most_urgent)
                .filter(|((_, n), _)| **n > 0)
        };
        match self {
            Sink::Csv(w) => {
                w.into_inner().map_err(|e| e.into_error())?;
            }
            Sink::Json { out, .. } => {
                let summary: serde_json::Map<String, Value> = present()
                    .map(|((c, n), _)| (c.as_str().to_string(), json!(n)))
                    .collect();
                writeln!(
                    out,
                    "\n  ],\n  \"findings_total\": {total},\n  \"summary\": {}\n}}",
                    Value::Object(summary)
                )?;
            }
            Sink::Excel(w) => w.finish(total).map_err(xlsx_error)?,
            Sink::Table { out, table, lang } => {
                match lang {
                    Lang::En => writeln!(out, "vigia check as of {as_of}: {total} finding(s)")?,
                    Lang::Es => writeln!(
                        out,
                        "chequeo de vigia al {}: {}",
                        crate::lang::fecha(as_of),
                        crate::lang::cuenta(total as u64, "hallazgo", "hallazgos")
                    )?,
                }
                if total > 0 {
                    let sum: Vec<Value> = present()
                        // the most urgent of the code's findings
                        .map(|((c, n), s)| json!({"code": c.as_str(), "severity": s.as_str(), "findings": n}))
                        .collect();
                    writeln!(
                        out,
                        "{}",
                        records::list_in(&sum, records::Format::Table, lang)
                    )?;
                    table.write_to(out)?;
                }
            }
        }
        Ok(())
    }
}

/// What was asked, for the workbook's Consulta sheet.
fn asked_of(
    a: &CheckArgs,
    opts: &Options,
    rates: &crate::rates::RateSeries,
    asked: crate::report::excel::Asked,
) -> crate::report::excel::Asked {
    findings::asked_of(asked, opts, a.program.as_deref(), rates)
}

pub fn run(a: CheckArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let as_of = a.as_of.unwrap_or_else(|| ctx.today());
    let rates = ctx.rates()?;
    let mut store = ctx.store()?;
    let checkpointer = (a.checkpoint)
        .then(|| super::audit::Checkpointer::new(ctx, false))
        .transpose()?;
    let program_id = a
        .program
        .as_ref()
        .map(|c| programs::by_code(store.conn(), c).map(|p| p.id))
        .transpose()?;
    let mut target = Target::open(a.out.as_deref(), a.format, ctx.lang)?;
    let ctx_asked = super::out::asked(ctx);
    let lang = ctx.lang;
    let out = target.writer(&mut *ctx.out);
    let total = crate::store::scan::adjudications_count(store.conn(), program_id)?;
    let bar = super::progress::Progress::new(super::progress::Counting::Check, total, lang);
    let mut progress = |n: u64| bar.at(n);
    let mut counts = [0usize; Code::ALL.len()];
    let mut most_urgent: Vec<check::Severity> = Code::ALL.iter().map(|c| c.severity()).collect();
    let opts = Options {
        as_of,
        program_id,
        within_days: a.within_days,
        min_severity: a.min_severity.into(),
    };
    // Opening, one finding at a time, closing: CSV and JSON stream in the order the check finds
    // them; the table spools its rows, sorted, to temporary files so that the summary by code
    // can come first.
    let mut sink = match a.format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(COLUMNS).map_err(records::csv_io)?;
            Sink::Csv(Box::new(w))
        }
        Format::Json => {
            write!(out, "{{\n  \"as_of\": \"{as_of}\",\n  \"findings\": [")?;
            Sink::Json {
                out,
                first: true,
                line: Vec::new(),
            }
        }
        Format::Table => Sink::Table {
            out,
            table: Box::new(
                records::SpooledTable::sorted(
                    &match lang {
                        Lang::En => COLUMNS.map(String::from),
                        Lang::Es => COLUMNS.map(header_es),
                    }
                    .each_ref()
                    .map(String::as_str),
                )
                .amounts_in(lang),
            ),
            lang,
        },
        Format::CsvExcel => Sink::Excel(
            findings::Writer::new(findings::Kind::CsvExcel, out, Vec::new()).map_err(xlsx_error)?,
        ),
        Format::Xlsx => Sink::Excel(
            findings::Writer::new(
                findings::Kind::Xlsx,
                out,
                asked_of(&a, &opts, &rates, ctx_asked),
            )
            .map_err(xlsx_error)?,
        ),
    };
    // A failed write stops the run and is reported as what it is (a closed pipe is not an
    // error).
    check::run(
        store.conn(),
        &opts,
        &rates,
        |f| -> Result<(), CliError> {
            counts[f.code as usize] += 1;
            // a code's findings may be more urgent than the code (NOTICE_UNDELIVERED past its term)
            let worst = &mut most_urgent[f.code as usize];
            *worst = (*worst).min(f.severity());
            match &mut sink {
                Sink::Csv(w) => {
                    let mut cells = cells(&f, lang);
                    // pesos with at least two decimals, never rounded (csv_value)
                    cells[8] = Cow::Owned(crate::report::columns::csv_value(
                        "outstanding",
                        cells[8].to_string(),
                    ));
                    w.write_record(cells.iter().map(|c| match records::csv_cell(c) {
                        Cow::Borrowed(c) => Cow::Borrowed(c.as_bytes()),
                        Cow::Owned(c) => Cow::Owned(c.into_bytes()),
                    }))
                    .map_err(records::csv_io)?
                }
                Sink::Json { out, first, line } => {
                    let sep = if *first { "\n    " } else { ",\n    " };
                    *first = false;
                    json_of(line, &f, lang);
                    out.write_all(sep.as_bytes())?;
                    out.write_all(line)?
                }
                Sink::Table { table, .. } => push_sorted(table, &f, lang)?,
                Sink::Excel(w) => w
                    .push(&f, &super::remedy::reason(&f, lang))
                    .map_err(xlsx_error)?,
            }
            Ok(())
        },
        &mut progress,
    )?;
    let total: usize = counts.iter().sum();
    sink.close(as_of, &counts, &most_urgent)?;
    // signed before the report goes out: a check whose checkpoint fails prints nothing
    if let Some(c) = &checkpointer {
        c.sign(&mut store, &ctx.officer())?;
    }
    bar.done();
    target.finish(&mut *ctx.out)?;
    Ok(if total == 0 {
        Status::Ok
    } else {
        Status::Findings
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Context, RatesHome, Why};

    #[test]
    fn a_findings_json_is_the_object_its_keys_make_in_order() {
        let day = |s: &str| s.parse::<NaiveDate>().unwrap();
        let context = Context {
            as_of: day("2025-06-30"),
            rates: RatesHome::Register,
            uncertified: None,
        };
        let held = |holder: &str, doc_number: &str| Finding {
            code: Code::PledgeReleasable,
            holding: Some(Holding {
                program: "D3939-2004".into(),
                doc_type: "CC".into(),
                doc_number: doc_number.into(),
                holder: holder.into(),
                adjudication_id: 7,
            }),
            breach_id: Some(3),
            outstanding: Some(rust_decimal::Decimal::new(145_050, 2)),
            why: Why::LockupEnding {
                end: day("2025-07-01"),
            },
            context: context.clone(),
        };
        let register_wide = Finding {
            code: Code::RateDue,
            holding: None,
            breach_id: None,
            outstanding: None,
            why: Why::RateDue {
                first: day("2025-07-01"),
            },
            context: context.clone(),
        };
        // quotes and accents; a backslash; control characters (a terminal's escape, a bell, a
        // line break, a tab), DEL, U+2028 and an emoji, which serde_json leaves as they are
        let findings = [
            held("Ana \"la\" Peñaloza", "1000000007"),
            held("Núñez \\ Ávila", "10\\7"),
            held(
                "\u{1b}[31mRojo\u{7}\nSegunda\tlínea\u{7f}\u{2028}🦜",
                "1000000007",
            ),
            register_wide,
        ];
        let mut line = b"stale".to_vec();
        for f in &findings {
            let h = f.holding.as_ref();
            // the object serde_json makes of the same values, key by key
            let made = json!({
                "code": f.code.as_str(),
                "severity": f.severity().as_str(),
                "program": h.map(|h| &h.program),
                "doc_type": h.map(|h| &h.doc_type),
                "doc_number": h.map(|h| &h.doc_number),
                "holder": h.map(|h| &h.holder),
                "adjudication_id": h.map(|h| h.adjudication_id),
                "breach_id": f.breach_id,
                "outstanding": f.outstanding.map(|d| d.to_string()),
                "reason": super::super::remedy::reason(f, Lang::Es),
            });
            json_of(&mut line, f, Lang::Es);
            assert_eq!(String::from_utf8(line.clone()).unwrap(), made.to_string());
        }
        // the bytes, worked out by hand
        json_of(&mut line, &findings[0], Lang::En);
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            r#"{"code":"PLEDGE_RELEASABLE","severity":"low","program":"D3939-2004","doc_type":"CC","doc_number":"1000000007","holder":"Ana \"la\" Peñaloza","adjudication_id":7,"breach_id":3,"outstanding":"1450.50","reason":"the lock-up ends on 2025-07-01; the holder is free from 2025-07-02"}"#
        );
        json_of(&mut line, &findings[2], Lang::En);
        let holder =
            r#""holder":"\u001b[31mRojo\u0007\nSegunda\tlínea"#.to_string() + "\u{7f}\u{2028}🦜\",";
        assert!(
            String::from_utf8(line.clone()).unwrap().contains(&holder),
            "{}",
            String::from_utf8_lossy(&line)
        );
    }
}
