//! `vigia notice ...`: issue numbered fine notices (PDF, HTML, Markdown), one or all pending;
//! render a stored notice (or paz y salvo) again in any format, under its own number; record a
//! notice's delivery; list them; and verify a document against the register, down to its bytes.

use super::places::out_error;
use super::{CliError, Ctx, Status, args};
use crate::files::{self, FileError};
use crate::lang::Lang;
use crate::notice::{NoticeData, SettlementData, Via};
use crate::register;
use crate::register::verify::{self, Unverifiable};
use crate::report::document::Documents;
use crate::store::Store;
use crate::store::notices::Doc;
use chrono::NaiveDate;
use clap::{Subcommand, ValueEnum};
use serde_json::json;
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
        #[arg(required_unless_present = "pending", conflicts_with = "pending", value_parser = super::args::id)]
        breach: Option<i64>,
        /// Issue one notice for every breach that has none yet (--out is then a directory, and an
        /// index.csv of what was issued is written there).
        #[arg(long)]
        pending: bool,
        /// Date the liquidation runs to.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        until: NaiveDate,
        /// The notice's own date, from which the payment term counts (default: today); not after
        /// today, not before --until, nor before the notice it replaces. A date before today
        /// needs --reason; the notice keeps both dates and shows the day it was issued.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: Option<NaiveDate>,
        /// Why the notice is dated before today (kept in the register with it, not printed).
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: Option<String>,
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
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Write a stored notice (or paz y salvo) again, in any format: the same number, date,
    /// figures and fingerprint. No number is used; the file's SHA-256 is recorded for `verify`.
    Render {
        /// MULTA-YYYY-NNNN (or PAZ-YYYY-NNNN).
        #[arg(value_parser = super::args::text)]
        number: String,
        /// The program, when the number is in several.
        #[arg(value_parser = super::args::text, long, value_name = "CODE")]
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
        #[arg(value_parser = super::args::text)]
        number: String,
        #[arg(value_parser = super::args::text, long, value_name = "CODE")]
        program: Option<String>,
        /// The day it was delivered.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
        #[arg(long, value_enum)]
        via: ViaArg,
        /// What proves it: a receipt, a guide number, the e-mail's delivery receipt.
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        evidence: Option<String>,
    },
    /// Check a notice or paz y salvo document against the register: its text and fingerprint must
    /// match what the stored liquidation gives, the register's current facts must still give
    /// those figures, and its bytes are compared with the files vigia wrote of it. Says when a
    /// notice was replaced by a later one or its fine paid in full since. A differing line is
    /// named by its line in a Markdown or HTML file, its page and line in a PDF. Exit status: 0
    /// authentic and in force; 3 authentic (as vigia issued it) but no longer in force (paid in
    /// full, replaced, its figures superseded); 1 does not match the register, or a signature
    /// does not hold; 2 the file cannot be verified.
    Verify {
        file: PathBuf,
        /// A directory of the certificates the office trusts (the certification authorities'
        /// roots, PEM or DER): a signed document's signer must chain to one of them.
        #[arg(long, value_name = "DIR")]
        trust: Option<PathBuf>,
    },
    /// List issued notices.
    List {
        #[arg(long, value_name = "ID", value_parser = super::args::id)]
        breach: Option<i64>,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

/// The document of a paz y salvo in a format.
pub fn render_settlement(data: &SettlementData, format: DocFormat) -> Vec<u8> {
    crate::report::document::settlement(data, format.core())
}

/// The document of a notice in a format.
pub fn render(data: &NoticeData, format: DocFormat) -> Vec<u8> {
    crate::report::document::notice(data, format.core())
}

/// What `notice issue` says of a notice it issued, and where its document went.
struct Issued {
    number: String,
    breach_id: i64,
    liquidation_id: i64,
    total_due: String,
    deadline: NaiveDate,
    /// The program counts the payment term from delivery.
    from_delivery: bool,
    path: PathBuf,
    /// The letterhead it was issued under (the signature's location and visible block).
    issuer: crate::program::Issuer,
    /// Its line of a batch's `index.csv`.
    line: crate::report::notice_index::IndexLine,
}

/// What every notice of one `notice issue` run shares.
struct Run<'a> {
    officer: String,
    rates: &'a crate::rates::RateSeries,
    until: NaiveDate,
    date: NaiveDate,
    /// The officer's date: no notice is dated after it.
    today: NaiveDate,
    /// `--reason`: why the notices are dated before today.
    reason: Option<String>,
    format: DocFormat,
    /// `--force`: replace a file at the document's path.
    force: bool,
    /// `--sign`: the key each PDF is signed with after its commit (issue 26).
    signer: Option<super::sign::Signing>,
}

/// Issues one notice: one call into the rules (`register::notice::issue`) in one transaction,
/// which also reserves the document's temporary file beside its path (the path depends on the
/// number), so that a path that cannot be written refuses the notice while nothing is stored.
/// The document is rendered after the commit, without the write lock, and placed by
/// [`finish_document`]: a file never shows a number the register does not hold.
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
        today,
        reason,
        format,
        force,
        signer: _,
    } = run;
    let (officer, until, date, today, format, force) =
        (officer.as_str(), *until, *date, *today, *format, *force);
    let reason = reason.as_deref();
    // If the commit fails, the reserved file is dropped with the closure's result: removed.
    let (i, reserved) = store.write::<_, CliError>(officer, |tx| {
        let i = register::notice::issue(tx, breach_id, until, date, today, reason, rates)?;
        let reserved =
            files::reserve(&out(&i.notice.number), force).map_err(|e| out_error("--out", e))?;
        Ok((i, reserved))
    })?;
    let register::notice::Issued { notice, data } = i;
    let bytes = render(&data, format);
    let path = finish_document(
        store,
        officer,
        reserved,
        &bytes,
        (Doc::Notice(notice.id), format),
        Some(Committed::Notice(&notice.number)),
    )?;
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Issued {
        line: crate::report::notice_index::IndexLine::of(breach_id, &data, &file),
        number: notice.number,
        breach_id,
        liquidation_id: notice.liquidation_id,
        total_due: data.liquidation.total_due.to_string(),
        deadline: notice.deadline,
        from_delivery: data.letters.payment_term_from == crate::program::TermFrom::Delivery,
        path,
        issuer: data.letters.issuer.clone(),
    })
}

/// What a command already stored when its document is written: a notice or a paz y salvo, by
/// its number (`MULTA-2025-0001`), named in each language.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Committed<'a> {
    Notice(&'a str),
    Settlement(&'a str),
}

impl Committed<'_> {
    fn named(self) -> crate::lang::Said {
        match self {
            Committed::Notice(n) => crate::said!(cli::notice_named, n),
            Committed::Settlement(n) => crate::said!(cli::settlement_named, n),
        }
    }

    fn number(self) -> String {
        match self {
            Committed::Notice(n) | Committed::Settlement(n) => n.to_string(),
        }
    }
}

/// Writes a document (rendered outside any transaction) into the file reserved for it, records
/// the file's format and SHA-256 (`register::notice::rendered`, a short transaction of its own,
/// so that `verify` knows the file) and moves it into place. `committed` names what a command
/// already stored: a failure then says that it is in the register and how to write its document
/// again.
pub(crate) fn finish_document(
    store: &mut Store,
    officer: &str,
    reserved: files::Reserved,
    bytes: &[u8],
    (doc, format): (Doc, DocFormat),
    committed: Option<Committed<'_>>,
) -> Result<PathBuf, CliError> {
    let path = reserved.target().to_path_buf();
    let shown = path.display().to_string();
    let after_commit = |what: Committed<'_>, why: crate::lang::Said| {
        let (what, number) = (what.named(), what.number());
        CliError::Said(crate::lang::Said::new(
            crate::said::en::cli::in_register_document_unwritten(
                &what.en(),
                &shown,
                &why.en(),
                &number,
            ),
            crate::said::es::cli::in_register_document_unwritten(
                &what.es(),
                &shown,
                &why.es(),
                &number,
            ),
        ))
    };
    let staged = reserved.fill(bytes).map_err(|e| match committed {
        Some(what) => after_commit(what, super::places::file_error_said(&e)),
        None => out_error("--out", e),
    })?;
    // If this write fails, the staged document is dropped with it: removed.
    store
        .write::<_, register::Error>(officer, |tx| {
            register::notice::rendered(tx, doc, format.core(), bytes)
        })
        .map_err(|e| match committed {
            Some(what) => {
                let e = CliError::from(e);
                let why = crate::lang::Said::each(|lang| e.describe(lang));
                after_commit(what, why)
            }
            None => e.into(),
        })?;
    let what = committed.map_or_else(|| crate::said!(cli::the_document), Committed::named);
    place(staged, &what, "--out", &path)?;
    Ok(path)
}

/// Moves a document staged after a committed transaction into place, to the path given by
/// `flag`; `what` names it.
pub(crate) fn place(
    staged: files::Staged,
    what: &crate::lang::Said,
    flag: &str,
    path: &Path,
) -> Result<(), CliError> {
    let staged_at = &staged.temp_path().to_path_buf();
    staged
        .place()
        .map_err(|e| not_placed(what, flag, path, &e, staged_at))?;
    Ok(())
}

/// `what` (said in each language) is in the register, but its document written at `tmp` could
/// not be moved to `flag PATH`, for the reason `e`.
pub(crate) fn not_placed(
    what: &crate::lang::Said,
    flag: &str,
    path: &Path,
    e: &FileError,
    tmp: &Path,
) -> CliError {
    let (shown, tmp) = (path.display().to_string(), tmp.display().to_string());
    let why = super::places::file_error_said(e);
    CliError::Said(crate::lang::Said::new(
        crate::said::en::cli::in_register_document_not_placed(
            &what.en(),
            &flag,
            &shown,
            &why.en(),
            &tmp,
        ),
        crate::said::es::cli::in_register_document_not_placed(
            &what.es(),
            &flag,
            &shown,
            &why.es(),
            &tmp,
        ),
    ))
}

/// `what` (said in each language) is in the register, but its acta could not be written at
/// `flag` for the reason `e`; `again` is the command that writes it again.
pub(crate) fn acta_unwritten(
    what: &crate::lang::Said,
    flag: &str,
    e: &CliError,
    again: &str,
) -> CliError {
    CliError::Said(crate::lang::Said::new(
        crate::said::en::cli::in_register_acta_unwritten(
            &what.en(),
            &flag,
            &e.describe(Lang::En),
            &again,
        ),
        crate::said::es::cli::in_register_acta_unwritten(
            &what.es(),
            &flag,
            &e.describe(Lang::Es),
            &again,
        ),
    ))
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
                return Err(out_error("--out", FileError::Symlink(p.to_path_buf())));
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
        register::Error::Refused(r) => CliError::Refusal {
            refusal: Box::new(r),
            flag: |f| match f {
                register::Field::Notice | register::Field::Settlement => "NUMBER",
                register::Field::Breach => "breach",
                other => super::flag_of(other),
            },
        },
        other => other.into(),
    }
}

/// Renders a stored notice or paz y salvo again (from a read of the register, no write lock) and
/// writes it, recording the file's SHA-256.
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
    files::check_target(&path, force).map_err(|e| out_error("--out", e))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        files::remove_stale(dir, started);
    }
    let mut store = ctx.store()?;
    let officer = ctx.officer();
    let (doc, bytes) = if number.starts_with("PAZ-") {
        let r = register::settlement::render(store.conn(), number, program).map_err(by_number)?;
        (
            Doc::Settlement(r.settlement.id),
            render_settlement(&r.data, format),
        )
    } else {
        let r = register::notice::render(store.conn(), number, program).map_err(by_number)?;
        (Doc::Notice(r.notice.id), render(&r.data, format))
    };
    let reserved = files::reserve(&path, force).map_err(|e| out_error("--out", e))?;
    finish_document(&mut store, &officer, reserved, &bytes, (doc, format), None)?;
    ctx.say(crate::catalogue::msg::Msg::RenderedAgain {
        number,
        ext: format.ext(),
        path: &path.display().to_string(),
    })?;
    Ok(Status::Ok)
}

/// `notice issue BREACH`: one notice; the document at `--out` (a file, or NUMBER.EXT in a
/// directory or the current one).
fn issue_single(
    ctx: &mut Ctx<'_>,
    run: &Run<'_>,
    breach: i64,
    out: Option<PathBuf>,
    started: SystemTime,
) -> Result<Status, CliError> {
    let (format, force, until) = (run.format, run.force, run.until);
    // a symbolic link at --out is refused, whether it points at a file or a directory; a real
    // directory receives NUMBER.EXT
    let into_dir = match &out {
        Some(p) => match std::fs::symlink_metadata(p) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(out_error("--out", FileError::Symlink(p.clone())));
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
        files::check_target(&target(""), force).map_err(|e| out_error("--out", e))?;
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
    let notices = crate::program_sign::Signed::Notices;
    super::sign::require_signed(store.conn(), &[breach], notices, run.signer.is_some())?;
    let i = issue_one(&mut store, run, breach, &target).map_err(|e| match e {
        // the breach is the command's argument here, not a flag
        CliError::Refusal { refusal, .. } => CliError::Refusal {
            refusal,
            flag: |f| match f {
                crate::register::Field::Breach => "breach",
                f => super::flag_of(f),
            },
        },
        other => other,
    })?;
    signed(run, &i)?;
    ctx.say(crate::catalogue::msg::Msg::NoticeIssued {
        number: &i.number,
        breach: i.breach_id,
        liquidation: i.liquidation_id,
        total: crate::money::dec(&i.total_due),
        until,
        // no deadline until the delivery is recorded (LEGAL_NOTES §7.3)
        deadline: if i.from_delivery {
            crate::catalogue::msg::Deadline::FromDelivery(i.deadline)
        } else {
            crate::catalogue::msg::Deadline::By(i.deadline)
        },
        path: &i.path.display().to_string(),
    })?;
    Ok(Status::Ok)
}

/// Signs an issued notice's PDF, placed after its commit, when `--sign` was given.
fn signed(run: &Run<'_>, i: &Issued) -> Result<(), CliError> {
    match &run.signer {
        Some(s) => super::sign::sign_file(
            s,
            &i.path,
            &crate::register::signing::notice_reason(&i.number),
            Some(&i.issuer),
        ),
        None => Ok(()),
    }
}

/// `notice issue --pending`: a notice for every breach that awaits one, each in its own
/// transaction, the documents and an index.csv in `--out` (a directory).
fn issue_pending(
    ctx: &mut Ctx<'_>,
    run: &Run<'_>,
    out: Option<PathBuf>,
    started: SystemTime,
) -> Result<Status, CliError> {
    let (format, force, until) = (run.format, run.force, run.until);
    let dir = out.unwrap_or_else(|| PathBuf::from("."));
    let index = dir.join("index.csv");
    let mut store = ctx.store()?;
    let (todo, skipped) = register::notice::pending_and_skipped(store.conn(), until, run.rates)?;
    let notices = crate::program_sign::Signed::Notices;
    super::sign::require_signed(store.conn(), &todo, notices, run.signer.is_some())?;
    files::private_dir(&dir).map_err(|e| out_error("--out", e))?;
    // the index of this batch would replace another's: refuse before issuing
    files::check_target(&index, force).map_err(|e| out_error("--out", e))?;
    files::remove_stale(&dir, started);
    let ctx_lang = ctx.lang;
    let bar = super::progress::Progress::new(
        super::progress::Counting::Notices,
        todo.len() as u64,
        ctx_lang,
    );
    let mut issued = Vec::new();
    let target = |number: &str| dir.join(format!("{number}.{}", format.ext()));
    for (k, id) in todo.iter().enumerate() {
        let i = issue_one(&mut store, run, *id, &target)?;
        signed(run, &i)?;
        issued.push(i);
        bar.at(k as u64 + 1);
    }
    bar.done();
    let bytes =
        crate::report::notice_index::index_csv(issued.iter().map(|i| i.line.clone()).collect());
    files::write(&index, &bytes, force).map_err(|e| out_error("--out", e))?;
    ctx.say(crate::catalogue::msg::Msg::NoticesIssued {
        count: issued.len() as u64,
        dir: &dir.display().to_string(),
        index: &index.display().to_string(),
        skipped,
    })?;
    Ok(Status::Ok)
}

/// `notice list`: each notice with the one it replaced, its delivery and its deadline as it
/// stands (`register::notice::listing`).
fn list(
    ctx: &mut Ctx<'_>,
    breach: Option<i64>,
    format: super::out::OutFormat,
    out: Option<&std::path::Path>,
) -> Result<Status, CliError> {
    let to = super::out::usable(format, out, ctx.lang)?;
    let store = ctx.store()?;
    let found = register::notice::listing(store.conn(), breach)?;
    let record = |l: &register::notice::Listed| {
        let (n, delivery) = (&l.notice, &l.delivery);
        // no deadline yet while it awaits its delivery (LEGAL_NOTES §7.3)
        json!({"id": n.id, "number": n.number, "breach_id": n.breach_id, "liquidation_id": n.liquidation_id,
                   "notice_date": n.notice_date.to_string(), "deadline": l.deadline.map(|d| d.to_string()),
                   "awaits_delivery": l.deadline.is_none(),
                   "delivered_on": delivery.as_ref().map(|d| d.delivered_on.to_string()),
                   "via": delivery.as_ref().map(|d| d.via.as_str()),
                   "supersedes": l.supersedes, "issued_at": n.created_at, "issued_by": n.created_by})
    };
    let filters = super::out::filter("Incumplimiento", breach)
        .into_iter()
        .collect();
    // a record at a time (a national register's notices are tens of thousands)
    super::out::records(ctx, to, "Avisos", &found, record, filters)?;
    Ok(Status::Ok)
}

/// `notice delivered`: one call into the rules (`register::notice::record_delivery`).
fn delivered(
    ctx: &mut Ctx<'_>,
    number: &str,
    program: Option<&str>,
    on: NaiveDate,
    via: ViaArg,
    evidence: Option<&str>,
) -> Result<Status, CliError> {
    let mut store = ctx.store()?;
    let officer = ctx.officer();
    let today = ctx.today();
    let d = store
        .write::<_, register::Error>(&officer, |tx| {
            register::notice::record_delivery(tx, number, program, on, via.into(), evidence, today)
        })
        .map_err(by_number)?;
    ctx.say(crate::catalogue::msg::Msg::NoticeDelivered {
        number: &d.notice.number,
        on: d.delivery.delivered_on,
        via: d.delivery.via.label_es(),
        term_days: match d.term_from {
            crate::program::TermFrom::Delivery => Some(d.term_days),
            crate::program::TermFrom::Issue => None,
        },
        due: d.deadline,
    })?;
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
                reason,
                format,
                out,
                force,
                sign,
            } => {
                // the key file opens before anything is issued (issue 26)
                let signer = sign.signer(format == DocFormat::Pdf)?;
                let started = SystemTime::now();
                let today = ctx.today();
                let rates = ctx.rates()?;
                let run = Run {
                    officer: ctx.officer(),
                    rates: &rates,
                    until,
                    date: date.unwrap_or(today),
                    today,
                    reason,
                    format,
                    force,
                    signer,
                };
                match (pending, breach) {
                    (false, breach) => {
                        issue_single(ctx, &run, breach.unwrap_or_default(), out, started)
                    }
                    (true, _) => issue_pending(ctx, &run, out, started),
                }
            }
            NoticeCommand::List {
                breach,
                format,
                out,
            } => list(ctx, breach, format, out.as_deref()),
            NoticeCommand::Verify { file, trust } => {
                verify(ctx, "notice verify", &file, trust.as_deref())
            }
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
            } => delivered(
                ctx,
                &number,
                program.as_deref(),
                on,
                via,
                evidence.as_deref(),
            ),
        }
    }
}

/// `notice verify FILE` (and `settlement verify`): reads the file (at most
/// [`verify::MAX_DOCUMENT`] bytes), checks it against the register (`register::verify`) and
/// says each check's outcome, then what it comes to: exit 0 authentic and in force, 3 authentic
/// but no longer in force (paid in full, replaced, its figures superseded), 1 does not match the
/// register or its signature does not hold.
/// `command`: the command the user ran (`notice verify`, `settlement verify`), which refusals
/// name with the file.
pub(crate) fn verify(
    ctx: &mut Ctx<'_>,
    command: &'static str,
    file: &Path,
    trust: Option<&Path>,
) -> Result<Status, CliError> {
    let cannot_open = |e: std::io::Error| CliError::File {
        flag: command,
        path: file.to_path_buf(),
        error: e,
    };
    // worded in the run's language, like every refusal
    let unverifiable = |e: Unverifiable| {
        let said = e.said();
        // an acta: the command that verifies it
        let (en, es) = match &e {
            Unverifiable::Acta { stage: 1, .. } => (
                "; on the command line: `vigia offer verify FILE`",
                "; en la línea de comandos: `vigia offer verify ARCHIVO`",
            ),
            Unverifiable::Acta { .. } => (
                "; on the command line: `vigia stage verify FILE`",
                "; en la línea de comandos: `vigia stage verify ARCHIVO`",
            ),
            _ => ("", ""),
        };
        if e.is_in_file() {
            let path = file.display();
            CliError::Said(crate::lang::Said::new(
                format!("{command} {path}: {}{en}", said.en()),
                format!("{command} {path}: {}{es}", said.es()),
            ))
        } else {
            CliError::Said(said)
        }
    };
    let f = std::fs::File::open(file).map_err(cannot_open)?;
    let size = f.metadata().map_err(cannot_open)?.len();
    if size > verify::MAX_DOCUMENT {
        return Err(unverifiable(Unverifiable::TooLarge(size)));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(f, verify::MAX_DOCUMENT + 1),
        &mut bytes,
    )
    .map_err(cannot_open)?;
    // a signed PDF is checked against the register as the document vigia wrote (the bytes
    // before the signature's update), its signatures on the whole file (issue 26); a file that
    // grew while being read is refused by `read`
    let trusted = super::sign::trust(trust)?;
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let checked = crate::register::verify_signed::document(
        store.conn(),
        &bytes,
        trusted.as_deref(),
        &rates,
        &Documents,
    )
    .map_err(|e| match e {
        verify::Error::Unverifiable(e) => unverifiable(e),
        verify::Error::Register(e) => e.into(),
    })?;
    let v = &checked.register;
    let file = file.display().to_string();
    let words = crate::catalogue::of(ctx.lang);
    for line in words.verified(v, &file) {
        writeln!(ctx.out, "{line}")?;
    }
    super::sign::say(ctx.out, &checked.signatures, ctx.lang)?;
    let outcome = checked.outcome();
    writeln!(ctx.out, "{}", words.verdict(v.kind, &outcome))?;
    Ok(match outcome {
        verify::Outcome::InForce => Status::Ok,
        verify::Outcome::Lapsed(_) => Status::Lapsed,
        verify::Outcome::Mismatch | verify::Outcome::BadSignature => Status::Findings,
    })
}
