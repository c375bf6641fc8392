//! `vigia notice ...`: issue numbered fine notices (PDF, HTML, Markdown), one or all pending;
//! render a stored notice (or paz y salvo) again in any format, under its own number; record a
//! notice's delivery; list them; and verify a document against the register, down to its bytes.

use super::{CliError, Ctx, Status, args};
use crate::files::{self, FileError};
use crate::notice::{self, NoticeData, SettlementData, Via};
use crate::register;
use crate::report::notice as doc;
use crate::report::pdf;
use crate::report::records::{self, Format};
use crate::store::notices::Doc;
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
    pub(crate) fn ext(self) -> &'static str {
        self.core().as_str()
    }

    /// The register's name for the format.
    pub(crate) fn core(self) -> crate::notice::DocFormat {
        match self {
            DocFormat::Pdf => crate::notice::DocFormat::Pdf,
            DocFormat::Html => crate::notice::DocFormat::Html,
            DocFormat::Md => crate::notice::DocFormat::Md,
        }
    }
}

/// How a notice reached its holder (`--via`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViaArg {
    /// Certified mail, with its delivery receipt.
    CorreoCertificado,
    /// E-mail, with its delivery or read receipt.
    CorreoElectronico,
    /// Handed over in person, with a signed receipt.
    Personal,
}

impl From<ViaArg> for Via {
    fn from(v: ViaArg) -> Via {
        match v {
            ViaArg::CorreoCertificado => Via::CorreoCertificado,
            ViaArg::CorreoElectronico => Via::CorreoElectronico,
            ViaArg::Personal => Via::Personal,
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
    /// Write a stored notice (or paz y salvo) again, in any format: the same number, date,
    /// figures and fingerprint. No number is used; the file's SHA-256 is recorded for `verify`.
    Render {
        /// MULTA-YYYY-NNNN (or PAZ-YYYY-NNNN).
        number: String,
        /// The program, when the number is in several.
        #[arg(long, value_name = "CODE")]
        program: Option<String>,
        #[arg(long, value_enum, default_value_t = DocFormat::Pdf)]
        format: DocFormat,
        /// File to write (default: NUMBER.EXT in the current directory; a directory receives
        /// NUMBER.EXT). Never a symbolic link; never over an existing file without --force.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        #[arg(long)]
        force: bool,
    },
    /// Record that a notice was delivered to its holder (notificación): when the program counts
    /// the payment term from delivery, the deadline runs from this day.
    Delivered {
        /// MULTA-YYYY-NNNN.
        number: String,
        #[arg(long, value_name = "CODE")]
        program: Option<String>,
        /// The day it was delivered.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
        #[arg(long, value_enum)]
        via: ViaArg,
        /// What proves it: a receipt, a guide number, the e-mail's delivery receipt.
        #[arg(long, value_name = "TEXT")]
        evidence: Option<String>,
    },
    /// Check a notice or paz y salvo document against the register: its text and fingerprint must
    /// match what the stored liquidation gives, the register's current facts must still give
    /// those figures, and its bytes are compared with the files vigia wrote of it. Says when a
    /// notice was replaced by a later one.
    Verify { file: PathBuf },
    /// List issued notices.
    List {
        #[arg(long, value_name = "ID")]
        breach: Option<i64>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// The document of a paz y salvo in a format.
pub fn render_settlement(data: &SettlementData, format: DocFormat) -> Vec<u8> {
    use crate::report::settlement as paz;
    let title = format!("Paz y salvo {}", data.number);
    match format {
        DocFormat::Md => doc::markdown(&paz::markdown_blocks(data)).into_bytes(),
        DocFormat::Html => doc::html(&paz::blocks(data), &title).into_bytes(),
        DocFormat::Pdf => {
            let d = data.date;
            pdf::render(
                &paz::blocks(data),
                &title,
                &title,
                (d.year(), d.month() as u8, d.day() as u8),
            )
        }
    }
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

/// The number in a line: `MULTA-YYYY-NNNN` or `PAZ-YYYY-NNNN`.
fn number_in(l: &str, prefix: &str) -> Option<String> {
    let i = l.find(prefix)?;
    let n = prefix.len();
    let cand: String = l[i..].chars().take(n + 9).collect();
    let ok = cand.len() == n + 9
        && cand[n..n + 4].bytes().all(|b| b.is_ascii_digit())
        && &cand[n + 4..n + 5] == "-"
        && cand[n + 5..n + 9].bytes().all(|b| b.is_ascii_digit());
    ok.then_some(cand)
}

/// Finds the document's number (`MULTA-YYYY-NNNN` in a notice's title, or `PAZ-YYYY-NNNN` in a
/// paz y salvo's) and the program code (`Programa: CODE —`) in a document's lines.
fn identify(lines: &[String]) -> Option<(String, String)> {
    let number = lines.iter().find_map(|l| {
        if l.trim_start_matches('#')
            .trim_start()
            .starts_with("PAZ Y SALVO No. ")
        {
            number_in(l, "PAZ-")
        } else {
            number_in(l, "MULTA-")
        }
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
    /// The program counts the payment term from delivery.
    from_delivery: bool,
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
pub(crate) fn out_error(e: FileError) -> CliError {
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
        let bytes = render(&data, format);
        register::notice::rendered(tx, Doc::Notice(stored.id), format.core(), &bytes)?;
        let staged = files::stage(&path, &bytes, force).map_err(out_error)?;
        let issued = Issued {
            number: stored.number,
            breach_id,
            liquidation_id: stored.liquidation_id,
            doc_type: data.doc_type,
            doc_number: data.doc_number,
            name: data.holder_name,
            total_due: data.liquidation.total_due.to_string(),
            deadline: stored.deadline,
            from_delivery: data.letters.payment_term_from == crate::program::TermFrom::Delivery,
            path,
        };
        Ok((issued, staged))
    })?;
    place(staged, &format!("notice {}", issued.number), &issued.path)?;
    Ok(issued)
}

/// Moves a document staged inside a committed transaction into place; `what` names it.
pub(crate) fn place(staged: files::Staged, what: &str, path: &Path) -> Result<(), CliError> {
    let tmp = staged.temp_path().to_path_buf();
    staged.place().map_err(|e| {
        CliError::Refused(format!(
            "{what} is in the register, but its document could not be put at --out {} ({}); \
             it was left at {}: move it there yourself",
            path.display(),
            match &e {
                FileError::Io { error, .. } => error.to_string(),
                other => other.to_string(),
            },
            tmp.display()
        ))
    })?;
    Ok(())
}

/// Where a document goes: `--out` as a file, or NAME.EXT inside `--out` when it is a directory
/// (or in the current directory without `--out`). A symbolic link at `--out` is refused.
pub(crate) fn target_of(
    out: Option<&Path>,
    name: &str,
    format: DocFormat,
) -> Result<PathBuf, CliError> {
    let file = format!("{name}.{}", format.ext());
    Ok(match out {
        Some(p) => match std::fs::symlink_metadata(p) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(out_error(FileError::Symlink(p.to_path_buf())));
            }
            Ok(m) if m.is_dir() => p.join(file),
            _ => p.to_path_buf(),
        },
        None => PathBuf::from(file),
    })
}

/// A register refusal about a document named by its number (a positional argument).
pub(crate) fn by_number(e: register::Error) -> CliError {
    match e {
        register::Error::Refused(r) => CliError::Refused(super::refusal(&r, |f| match f {
            register::Field::Notice | register::Field::Settlement => "NUMBER",
            register::Field::Breach => "breach",
            other => super::flag_of(other),
        })),
        other => other.into(),
    }
}

/// Renders a stored notice or paz y salvo again and writes it, recording the file's SHA-256.
fn render_again(
    ctx: &mut Ctx<'_>,
    number: &str,
    program: Option<&str>,
    format: DocFormat,
    out: Option<&Path>,
    force: bool,
) -> Result<Status, CliError> {
    let started = SystemTime::now();
    let path = target_of(out, number, format)?;
    files::check_target(&path, force).map_err(out_error)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        files::remove_stale(dir, started);
    }
    let mut store = ctx.store()?;
    let officer = ctx.officer();
    let staged = store.write::<_, CliError>(&officer, |tx| {
        let (doc, bytes) = if number.starts_with("PAZ-") {
            let r = register::settlement::render(tx.conn(), number, program).map_err(by_number)?;
            (
                Doc::Settlement(r.settlement.id),
                render_settlement(&r.data, format),
            )
        } else {
            let r = register::notice::render(tx.conn(), number, program).map_err(by_number)?;
            (Doc::Notice(r.notice.id), render(&r.data, format))
        };
        register::notice::rendered(tx, doc, format.core(), &bytes)?;
        files::stage(&path, &bytes, force).map_err(out_error)
    })?;
    place(staged, number, &path)?;
    writeln!(
        ctx.out,
        "{number} rendered again as {} (same number, date and figures) -> {}",
        format.ext(),
        path.display()
    )?;
    Ok(Status::Ok)
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
                    let i = issue_one(&mut store, &run, breach, &target).map_err(|e| match e {
                        CliError::Refused(m) => {
                            CliError::Refused(m.replacen("--breach", "breach", 1))
                        }
                        other => other,
                    })?;
                    writeln!(
                        ctx.out,
                        "notice {} issued for breach {}: liquidation {}, total {} as of {until}, pay by {}{} -> {}",
                        i.number,
                        i.breach_id,
                        i.liquidation_id,
                        crate::money::format_cop(crate::money::dec(&i.total_due)),
                        i.deadline,
                        if i.from_delivery {
                            " (counted from the notice's date until its delivery is recorded)"
                        } else {
                            ""
                        },
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
                let todo = register::notice::pending(store.conn(), until, &rates)?;
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
                        let delivery = notices::delivery(store.conn(), n.id).ok().flatten();
                        let due = register::notice::deadline(store.conn(), n).unwrap_or(n.deadline);
                        json!({"id": n.id, "number": n.number, "breach_id": n.breach_id, "liquidation_id": n.liquidation_id,
                               "notice_date": n.notice_date.to_string(), "deadline": due.to_string(),
                               "delivered_on": delivery.as_ref().map(|d| d.delivered_on.to_string()),
                               "via": delivery.as_ref().map(|d| d.via.as_str()),
                               "supersedes": supersedes, "issued_at": n.created_at, "issued_by": n.created_by})
                    })
                    .collect();
                write!(ctx.out, "{}", records::list(&rows, format))?;
                Ok(Status::Ok)
            }
            NoticeCommand::Verify { file } => verify(ctx, &file),
            NoticeCommand::Render {
                number,
                program,
                format,
                out,
                force,
            } => render_again(
                ctx,
                &number,
                program.as_deref(),
                format,
                out.as_deref(),
                force,
            ),
            NoticeCommand::Delivered {
                number,
                program,
                on,
                via,
                evidence,
            } => {
                let mut store = ctx.store()?;
                let officer = ctx.officer();
                let today = chrono::Local::now().date_naive();
                let (n, d, due) = store.write::<_, CliError>(&officer, |tx| {
                    let n = register::notice::find(tx.conn(), &number, program.as_deref())
                        .map_err(by_number)?;
                    let d = register::notice::deliver(
                        tx,
                        &n,
                        on,
                        via.into(),
                        evidence.as_deref(),
                        today,
                    )
                    .map_err(by_number)?;
                    let due = register::notice::deadline(tx.conn(), &n)?;
                    Ok((n, d, due))
                })?;
                let program = programs::by_id(store.conn(), n.program_id)?;
                let p = &program.program;
                let term = match p.letters.payment_term_from {
                    crate::program::TermFrom::Delivery => format!(
                        "the payment term ({} business days) now runs from delivery: pay by {due}",
                        p.payment_term_business_days
                    ),
                    crate::program::TermFrom::Issue => format!(
                        "the program counts the payment term from the notice's date: pay by {due}"
                    ),
                };
                writeln!(
                    ctx.out,
                    "notice {} delivered on {} by {}; {term}",
                    n.number,
                    d.delivered_on,
                    d.via.label_es()
                )?;
                Ok(Status::Ok)
            }
        }
    }
}

pub(crate) fn verify(ctx: &mut Ctx<'_>, file: &Path) -> Result<Status, CliError> {
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
        unreadable(
            "no document number (MULTA-YYYY-NNNN or PAZ-YYYY-NNNN) and program line found in it",
        )
    })?;
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let conn = store.conn();
    let program = programs::by_code(conn, &code)?;
    // what the document is: its stored record, a fresh rendering, its liquidation
    let (kind, doc, breach_id, liquidation_id, expected_bytes) = if number.starts_with("PAZ-") {
        let s = crate::store::settlements::with_number(conn, &number)?
            .into_iter()
            .find(|s| s.program_id == program.id)
            .ok_or_else(|| StoreError::NotFound {
                what: "paz y salvo",
                id: number.clone(),
            })?;
        let data = notice::gather_settlement(conn, &s)?;
        (
            "paz y salvo",
            Doc::Settlement(s.id),
            s.breach_id,
            s.liquidation_id,
            render_settlement(&data, format),
        )
    } else {
        let stored = notices::by_number(conn, program.id, &number)?;
        let data = notice::gather(conn, &stored)?;
        (
            "notice",
            Doc::Notice(stored.id),
            stored.breach_id,
            stored.liquidation_id,
            render(&data, format),
        )
    };
    let liq = breaches::liquidations(conn, Some(breach_id))?
        .into_iter()
        .find(|l| l.id == liquidation_id)
        .ok_or_else(|| StoreError::Corrupt(format!("{kind} {number} without its liquidation")))?;
    let mut ok = true;
    writeln!(
        ctx.out,
        "{}: {kind} {number} of program {code}, liquidation {}",
        file.display(),
        liq.id
    )?;

    // 1. The document says exactly what the stored record and liquidation say.
    let (_, expected) = text_of(&expected_bytes)
        .map_err(|why| unreadable(&format!("cannot read back its own rendering: {why}")))?;
    let text_matches = expected == lines;
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
    // 2. The file's bytes: one vigia wrote (and recorded), or changed since.
    let sha = crate::store::sha256_hex(&bytes);
    let written = notices::renderings(conn, doc)?;
    match written.iter().position(|r| r.sha256 == sha) {
        Some(0) => writeln!(
            ctx.out,
            "  file: identical to the issued file (SHA-256 {sha}, {} of {})",
            written[0].format.as_str(),
            written[0].created_at
        )?,
        Some(i) => writeln!(
            ctx.out,
            "  file: identical to the file rendered again on {} by {} ({}, SHA-256 {sha})",
            written[i].created_at,
            written[i].created_by,
            written[i].format.as_str()
        )?,
        None if written.is_empty() => writeln!(
            ctx.out,
            "  file: no SHA-256 on record for this {kind} (issued before vigia recorded its files)"
        )?,
        None if text_matches => {
            ok = false;
            writeln!(
                ctx.out,
                "  file: text and figures match, but the file was changed: its SHA-256 {sha} is not one of the {} file(s) vigia wrote of it",
                written.len()
            )?;
        }
        None => {
            ok = false;
            writeln!(
                ctx.out,
                "  file: DIFFERENT from every file vigia wrote of it (SHA-256 {sha})"
            )?;
        }
    }
    // 3. The stored liquidation still has the fingerprint the document prints.
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
    // 4. The register's current facts still give the same figures.
    let facts = register::liquidation::facts(conn, breach_id, liq.until)?;
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
            "  recomputed from the register today: DIFFERENT figures (a payment, stage price or rate recorded since); issue a new {kind}"
        )?;
    }
    for s in register::notice::superseded(conn, &liq)? {
        ok = false;
        writeln!(ctx.out, "  {s}")?;
    }
    // 5. A notice replaced by a later one is no longer the one in force.
    if let Doc::Notice(id) = doc {
        match notices::superseded_by(conn, id)? {
            Some(next) => {
                ok = false;
                writeln!(
                    ctx.out,
                    "  superseded: replaced by notice {} of {}; this notice is no longer in force",
                    next.number, next.notice_date
                )?;
            }
            None => writeln!(ctx.out, "  in force: no later notice replaces it")?,
        }
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
