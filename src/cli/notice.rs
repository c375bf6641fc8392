//! `vigia notice ...`: issue numbered fine notices (PDF, HTML, Markdown), one or all pending, list
//! them, and verify a document against the register.

use super::{CliError, Ctx, Status, args};
use crate::files::{self, FileError};
use crate::notice::{self, NoticeData};
use crate::register;
use crate::report::notice as doc;
use crate::report::pdf;
use crate::report::records::{self, Format};
use crate::store::{Store, StoreError, breaches, notices, programs};
use chrono::{Datelike, NaiveDate};
use clap::{Subcommand, ValueEnum};
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    /// Letter-size PDF with embedded fonts.
    Pdf,
    /// One self-contained HTML file that prints well.
    Html,
    /// Markdown, for pasting into other documents.
    Md,
}

impl DocFormat {
    fn ext(self) -> &'static str {
        match self {
            DocFormat::Pdf => "pdf",
            DocFormat::Html => "html",
            DocFormat::Md => "md",
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum NoticeCommand {
    /// Issue a fine notice for a breach: liquidates as of --until (or reuses that liquidation),
    /// gives it the next number of the program's sequence for the year (MULTA-2025-0007), stores
    /// it, and writes the document. A re-issue cites the notice it replaces.
    Issue {
        /// Breach id (omit with --pending).
        #[arg(required_unless_present = "pending", conflicts_with = "pending")]
        breach: Option<i64>,
        /// Issue one notice for every breach that has none yet (--out is then a directory, and an
        /// index.csv of what was issued is written there).
        #[arg(long)]
        pending: bool,
        /// Date the liquidation runs to.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        until: NaiveDate,
        /// The notice's own date, from which the payment term counts (default: today).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: Option<NaiveDate>,
        #[arg(long, value_enum, default_value_t = DocFormat::Pdf)]
        format: DocFormat,
        /// File to write (default: NUMBER.pdf in the current directory); a directory with --pending
        /// (created, owner-only, when missing). Never a symbolic link; never over an existing
        /// file without --force.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// Replace a file already at the document's path (with --pending: each document's and
        /// index.csv).
        #[arg(long)]
        force: bool,
    },
    /// Check a notice document against the register: its text and fingerprint must match what the
    /// stored liquidation gives, and the register's current facts must still give those figures.
    Verify { file: PathBuf },
    /// List issued notices.
    List {
        #[arg(long, value_name = "ID")]
        breach: Option<i64>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// The document of a notice in a format.
pub fn render(data: &NoticeData, format: DocFormat) -> Vec<u8> {
    let title = format!("Notificación de multa {}", data.number);
    match format {
        // officer-typed values escaped for Markdown; HTML escapes everything it writes
        DocFormat::Md => doc::markdown(&doc::markdown_blocks(data)).into_bytes(),
        DocFormat::Html => doc::html(&doc::blocks(data), &title).into_bytes(),
        DocFormat::Pdf => {
            let d = data.notice_date;
            pdf::render(
                &doc::blocks(data),
                &title,
                &format!("Notificación {}", data.number),
                (d.year(), d.month() as u8, d.day() as u8),
            )
        }
    }
}

/// The visible text of a document, in the form documents are compared; a PDF that is not one
/// vigia can read says why (which limit it broke).
fn text_of(bytes: &[u8]) -> Result<(DocFormat, Vec<String>), String> {
    if bytes.starts_with(b"%PDF-") {
        let text = pdf::extract_text(bytes).map_err(|e| e.to_string())?;
        return Ok((DocFormat::Pdf, doc::normalized_lines(&text)));
    }
    let s = std::str::from_utf8(bytes)
        .map_err(|_| "neither a PDF nor UTF-8 text (HTML or Markdown)".to_string())?;
    if s.trim_start().starts_with("<!DOCTYPE html") {
        Ok((DocFormat::Html, doc::normalized_lines(&doc::html_text(s))))
    } else {
        Ok((DocFormat::Md, doc::normalized_lines(s)))
    }
}

/// The largest document `notice verify` reads: a notice is about 80 KB.
const MAX_DOCUMENT: u64 = 20 << 20;

/// Finds `MULTA-YYYY-NNNN` and the program code (`Programa: CODE —`) in a document's lines.
fn identify(lines: &[String]) -> Option<(String, String)> {
    let number = lines.iter().find_map(|l| {
        let i = l.find("MULTA-")?;
        let cand: String = l[i..].chars().take(15).collect();
        let ok = cand.len() == 15
            && cand[6..10].bytes().all(|b| b.is_ascii_digit())
            && &cand[10..11] == "-"
            && cand[11..15].bytes().all(|b| b.is_ascii_digit());
        ok.then_some(cand)
    })?;
    let code = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("Programa: ")?;
        rest.split_whitespace().next().map(str::to_string)
    })?;
    Some((number, code))
}

struct Issued {
    number: String,
    breach_id: i64,
    liquidation_id: i64,
    doc_type: String,
    doc_number: String,
    name: String,
    total_due: String,
    deadline: NaiveDate,
    path: PathBuf,
}

/// What every notice of one `notice issue` run shares.
struct Run<'a> {
    officer: String,
    rates: &'a crate::rates::RateSeries,
    until: NaiveDate,
    date: NaiveDate,
    format: DocFormat,
    /// `--force`: replace a file at the document's path.
    force: bool,
}

/// A document that could not be written at `--out`, in the CLI's words.
fn out_error(e: FileError) -> CliError {
    let path = e.path().display().to_string();
    let reason = match e {
        FileError::Exists(_) => "a file already exists there; pass --force to replace it".into(),
        FileError::Symlink(_) => {
            "it is a symbolic link; vigia does not write through links: give the real path".into()
        }
        FileError::IsDir(_) => "it is a directory; give a file name".into(),
        FileError::Io { path, error } => {
            return CliError::File {
                flag: "--out",
                path,
                error: error.to_string(),
            };
        }
    };
    CliError::Flag {
        flag: "--out".into(),
        value: path,
        reason,
    }
}

/// Issues one notice in its own transaction. The document is written, inside the transaction, to
/// a temporary file beside its path, and moved into place only after the commit: a refused or
/// failed transaction leaves no file, and a file never shows a number the register does not hold.
fn issue_one(
    store: &mut Store,
    run: &Run<'_>,
    breach_id: i64,
    out: &dyn Fn(&str) -> PathBuf,
) -> Result<Issued, CliError> {
    let Run {
        officer,
        rates,
        until,
        date,
        format,
        force,
    } = run;
    let (officer, until, date, format, force) = (officer.as_str(), *until, *date, *format, *force);
    // If the commit fails, the staged document is dropped with the closure's result: removed.
    let (issued, staged) = store.write::<_, CliError>(officer, |tx| {
        let register::notice::Issued {
            notice: stored,
            data,
        } = register::notice::issue(tx, breach_id, until, date, rates)?;
        let path = out(&stored.number);
        let staged = files::stage(&path, &render(&data, format), force).map_err(out_error)?;
        let issued = Issued {
            number: stored.number,
            breach_id,
            liquidation_id: stored.liquidation_id,
            doc_type: data.doc_type,
            doc_number: data.doc_number,
            name: data.holder_name,
            total_due: data.liquidation.total_due.to_string(),
            deadline: stored.deadline,
            path,
        };
        Ok((issued, staged))
    })?;
    let tmp = staged.temp_path().to_path_buf();
    staged.place().map_err(|e| {
        CliError::Refused(format!(
            "notice {} is in the register, but its document could not be put at --out {} ({}); \
             it was left at {}: move it there yourself",
            issued.number,
            issued.path.display(),
            match &e {
                FileError::Io { error, .. } => error.to_string(),
                other => other.to_string(),
            },
            tmp.display()
        ))
    })?;
    Ok(issued)
}

impl NoticeCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            NoticeCommand::Issue {
                breach,
                pending,
                until,
                date,
                format,
                out,
                force,
            } => {
                let started = SystemTime::now();
                let date = date.unwrap_or_else(|| chrono::Local::now().date_naive());
                let rates = ctx.rates()?;
                let run = Run {
                    officer: ctx.officer(),
                    rates: &rates,
                    until,
                    date,
                    format,
                    force,
                };
                if !pending {
                    let breach = breach.unwrap_or_default();
                    // a symbolic link at --out is refused, whether it points at a file or a
                    // directory; a real directory receives NUMBER.EXT
                    let into_dir = match &out {
                        Some(p) => match std::fs::symlink_metadata(p) {
                            Ok(m) if m.file_type().is_symlink() => {
                                return Err(out_error(FileError::Symlink(p.clone())));
                            }
                            Ok(m) => m.is_dir(),
                            Err(_) => false,
                        },
                        None => true,
                    };
                    let target = |number: &str| {
                        let name = format!("{number}.{}", format.ext());
                        match &out {
                            Some(p) if into_dir => p.join(name),
                            Some(p) => p.clone(),
                            None => PathBuf::from(name),
                        }
                    };
                    if !into_dir {
                        // the path is known before the number: refuse before liquidating
                        files::check_target(&target(""), force).map_err(out_error)?;
                    }
                    let dir = match &out {
                        Some(p) if into_dir => p.clone(),
                        Some(p) => p
                            .parent()
                            .filter(|d| !d.as_os_str().is_empty())
                            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
                        None => PathBuf::from("."),
                    };
                    files::remove_stale(&dir, started);
                    let mut store = ctx.store()?;
                    let i = issue_one(&mut store, &run, breach, &target)?;
                    writeln!(
                        ctx.out,
                        "notice {} issued for breach {}: liquidation {}, total {} as of {until}, pay by {} -> {}",
                        i.number,
                        i.breach_id,
                        i.liquidation_id,
                        crate::money::format_cop(crate::money::dec(&i.total_due)),
                        i.deadline,
                        i.path.display()
                    )?;
                    return Ok(Status::Ok);
                }
                let dir = out.unwrap_or_else(|| PathBuf::from("."));
                let index = dir.join("index.csv");
                let mut store = ctx.store()?;
                files::private_dir(&dir).map_err(out_error)?;
                // the index of this batch would replace another's: refuse before issuing
                files::check_target(&index, force).map_err(out_error)?;
                files::remove_stale(&dir, started);
                let todo = register::notice::pending(store.conn())?;
                let progress = std::io::stderr().is_terminal();
                let mut issued = Vec::new();
                let target = |number: &str| dir.join(format!("{number}.{}", format.ext()));
                for (k, id) in todo.iter().enumerate() {
                    if progress {
                        eprint!("\rissuing notices: {}/{}", k + 1, todo.len());
                    }
                    issued.push(issue_one(&mut store, &run, *id, &target)?);
                }
                if progress && !todo.is_empty() {
                    eprintln!();
                }
                let mut w = csv::Writer::from_writer(Vec::new());
                let _ = w.write_record([
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
                ]);
                for i in &issued {
                    // a name or document typed as `=...` is text, not a formula (as in `check`)
                    let cells = [
                        i.number.clone(),
                        i.breach_id.to_string(),
                        i.liquidation_id.to_string(),
                        i.doc_type.clone(),
                        i.doc_number.clone(),
                        i.name.clone(),
                        i.total_due.clone(),
                        until.to_string(),
                        i.deadline.to_string(),
                        i.path
                            .file_name()
                            .map(|f| f.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                    ];
                    let _ = w.write_record(cells.iter().map(|c| records::csv_cell(c).into_owned()));
                }
                let bytes = w.into_inner().unwrap_or_default();
                files::write(&index, &bytes, force).map_err(out_error)?;
                writeln!(
                    ctx.out,
                    "{} notice(s) issued in {}; index: {}",
                    issued.len(),
                    dir.display(),
                    index.display()
                )?;
                Ok(Status::Ok)
            }
            NoticeCommand::List { breach, format } => {
                let store = ctx.store()?;
                let rows: Vec<Value> = notices::list(store.conn(), breach)?
                    .iter()
                    .map(|n| {
                        let supersedes = n.supersedes_id.and_then(|id| notices::get(store.conn(), id).ok()).map(|p| p.number);
                        json!({"id": n.id, "number": n.number, "breach_id": n.breach_id, "liquidation_id": n.liquidation_id,
                               "notice_date": n.notice_date.to_string(), "deadline": n.deadline.to_string(),
                               "supersedes": supersedes, "issued_at": n.created_at, "issued_by": n.created_by})
                    })
                    .collect();
                write!(ctx.out, "{}", records::list(&rows, format))?;
                Ok(Status::Ok)
            }
            NoticeCommand::Verify { file } => verify(ctx, &file),
        }
    }
}

fn verify(ctx: &mut Ctx<'_>, file: &Path) -> Result<Status, CliError> {
    let cannot_open = |e: std::io::Error| CliError::File {
        flag: "notice verify",
        path: file.to_path_buf(),
        error: e.to_string(),
    };
    let unreadable = |reason: &str| CliError::Flag {
        flag: "notice verify".into(),
        value: file.display().to_string(),
        reason: reason.into(),
    };
    let too_large = |size: u64| {
        unreadable(&format!(
            "not a notice vigia can read: it is {size} bytes long (at most {} MiB)",
            MAX_DOCUMENT >> 20
        ))
    };
    let f = std::fs::File::open(file).map_err(cannot_open)?;
    let size = f.metadata().map_err(cannot_open)?.len();
    if size > MAX_DOCUMENT {
        return Err(too_large(size));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_DOCUMENT + 1), &mut bytes)
        .map_err(cannot_open)?;
    if bytes.len() as u64 > MAX_DOCUMENT {
        return Err(too_large(bytes.len() as u64)); // it grew while being read
    }
    let (format, lines) = text_of(&bytes)
        .map_err(|why| unreadable(&format!("not a notice vigia can read: {why}")))?;
    let (number, code) = identify(&lines).ok_or_else(|| {
        unreadable("no notice number (MULTA-YYYY-NNNN) and program line found in it")
    })?;
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let program = programs::by_code(store.conn(), &code)?;
    let stored = notices::by_number(store.conn(), program.id, &number)?;
    let data = notice::gather(store.conn(), &stored)?;
    let liq = breaches::liquidations(store.conn(), Some(stored.breach_id))?
        .into_iter()
        .find(|l| l.id == stored.liquidation_id)
        .ok_or_else(|| StoreError::Corrupt(format!("notice {number} without its liquidation")))?;
    let mut ok = true;
    writeln!(
        ctx.out,
        "{}: notice {number} of program {code}, liquidation {}",
        file.display(),
        liq.id
    )?;

    // 1. The document says exactly what the stored notice and liquidation say.
    let (_, expected) = text_of(&render(&data, format))
        .map_err(|why| unreadable(&format!("cannot read back its own rendering: {why}")))?;
    match expected.iter().zip(&lines).position(|(a, b)| a != b) {
        None if expected.len() == lines.len() => {
            writeln!(ctx.out, "  document text and figures: match the register")?
        }
        None => {
            ok = false;
            writeln!(
                ctx.out,
                "  document text and figures: DO NOT MATCH ({} lines expected, {} found)",
                expected.len(),
                lines.len()
            )?;
        }
        Some(i) => {
            ok = false;
            writeln!(
                ctx.out,
                "  document text and figures: DO NOT MATCH at line {}",
                i + 1
            )?;
            writeln!(ctx.out, "    expected: {}", expected[i])?;
            writeln!(ctx.out, "    found:    {}", lines[i])?;
        }
    }
    // 2. The stored liquidation still has the fingerprint the document prints.
    let print = register::liquidation::fingerprint(&liq.inputs_json, &liq.result_json);
    let printed = lines.iter().any(|l| l.contains(&liq.sha256));
    if print == liq.sha256 && printed {
        writeln!(ctx.out, "  fingerprint {}: matches", liq.sha256)?;
    } else {
        ok = false;
        writeln!(
            ctx.out,
            "  fingerprint: DOES NOT MATCH (stored {}, recomputed {print}, in document: {printed})",
            liq.sha256
        )?;
    }
    // 3. The register's current facts still give the same figures.
    let facts = register::liquidation::facts(store.conn(), stored.breach_id, liq.until)?;
    let convention = liq.convention;
    let now = crate::report::liquidation::to_json(&register::liquidation::price(
        &facts, liq.until, convention, &rates,
    )?)
    .to_string();
    if now == liq.result_json {
        writeln!(
            ctx.out,
            "  recomputed from the register today: same figures"
        )?;
    } else {
        ok = false;
        writeln!(
            ctx.out,
            "  recomputed from the register today: DIFFERENT figures (a payment, stage price or rate recorded since); issue a new notice"
        )?;
    }
    for s in register::notice::superseded(store.conn(), &liq)? {
        ok = false;
        writeln!(ctx.out, "  {s}")?;
    }
    Ok(if ok { Status::Ok } else { Status::Findings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifies_number_and_program() {
        let lines = vec![
            "NOTIFICACIÓN DE MULTA No. MULTA-2025-0007".to_string(),
            "Programa: D3939-2004 — Decreto 3939 de 2004".to_string(),
        ];
        assert_eq!(
            identify(&lines),
            Some(("MULTA-2025-0007".into(), "D3939-2004".into()))
        );
        assert_eq!(identify(&["MULTA-25-7".to_string()]), None);
    }
}
