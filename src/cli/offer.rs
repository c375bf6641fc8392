//! `vigia offer ...`: open the first-stage offer's window, adjudicate it (once; a dry run writes
//! nothing) with its acta, and verify an acta against the register.

use super::places::out_error;
use super::progress::{Counting, Progress};
use super::stage_words::{self, Line};
use super::{CliError, Ctx, Status, args};
use crate::files::{self, FileError};
use crate::offering::adjudicate::Window;
use crate::register::offering::{self as rules, Header, Row};
use crate::report::acta;
use crate::report::acta_file::{self, ActaFile, Unread};
use crate::report::offer_result::RowWriter;
use crate::report::records::Format;
use crate::report::stage_acta::ActaKind;
use crate::store::acta_files::Acta;
use crate::store::programs::{self, StoredProgram};
use chrono::NaiveDate;
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum OfferCommand {
    /// Record the public offer's window (Decreto 3939 Art. 4: at least two months from the
    /// business day after the notice).
    Open {
        /// Program code.
        #[arg(value_parser = super::args::text)]
        code: String,
        /// The day the notice (aviso de oferta) is published: acceptances count from it.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        opens: NaiveDate,
        /// The last day acceptances are received.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        closes: NaiveDate,
        /// Why it opens outside the program's validity (Decreto 3939 art. 28), when it does: an
        /// extension, a later decree. Recorded with it.
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: Option<String>,
    },
    /// Evaluate every acceptance and adjudicate the offer (Art. 12): the awards become
    /// adjudications of the register in one transaction, as a numbered run with a SHA-256
    /// fingerprint. Once per program.
    Adjudicate {
        /// Program code.
        #[arg(value_parser = super::args::text)]
        code: String,
        /// The day of the adjudication (after the offer closed).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
        /// Compute and show the adjudication; write nothing.
        #[arg(long)]
        dry_run: bool,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Also write the acta (its format from the extension: .pdf, .html or .md). Never over an
        /// existing file without --force.
        #[arg(long, value_name = "FILE")]
        acta: Option<PathBuf>,
        /// Replace a file already at --acta.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Write the acta of a program's adjudication again (its file's SHA-256 is recorded for
    /// `verify`).
    Acta {
        /// Program code.
        #[arg(value_parser = super::args::text)]
        code: String,
        /// The file (.pdf, .html or .md).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Check an acta against the register: its text must be what the stored run gives, and the
    /// run's fingerprint must match its stored outcomes (exit 1 names the first difference where
    /// a reader finds it: its line in a Markdown or HTML file, its page and line in a PDF). A
    /// PDF, Markdown or HTML acta is read as it is compared, a page or a chunk at a time,
    /// whatever its size; a PDF written before a heading was kept with its table is compared
    /// with that layout's page breaks (read again when the current layout does not match).
    /// Then its bytes are compared with the files vigia wrote of the acta (their SHA-256 are
    /// recorded): exit 1 when its text matches but the file is none of them, said on the first
    /// line («NOT VERIFIED: the text matches the register, but the file is not the one issued»).
    Verify {
        file: PathBuf,
        /// A directory of the certificates the office trusts (see `notice verify`): a signed
        /// acta's signer must chain to one of them.
        #[arg(long, value_name = "DIR")]
        trust: Option<PathBuf>,
    },
    /// Record a first stage concluded outside vigia (its adjudication date, the shares awarded,
    /// the acta's reference), once, so the program's later stages run in vigia (Art. 13: the
    /// Second Stage offers what the first left). Refused when vigia runs the first stage itself.
    RecordExternal(super::offer_external::RecordExternal),
}

pub(super) use crate::report::acta::Format as ActaFormat;

pub(super) fn acta_format(path: &Path, flag: &str) -> Result<ActaFormat, CliError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase)
        .as_deref()
    {
        Some("pdf") => Ok(ActaFormat::Pdf),
        Some("html") | Some("htm") => Ok(ActaFormat::Html),
        Some("md") => Ok(ActaFormat::Md),
        _ => Err(CliError::Wrong {
            flag: flag.into(),
            value: path.display().to_string(),
            why: crate::said!(cli::acta_format_from_extension),
        }),
    }
}

/// Writes the acta of a program's stored run to `out` and says which run it is, as its rows are
/// read from the register (`report::acta_stored`), so memory holds a row or a page, not the run.
fn write_acta(
    conn: &rusqlite::Connection,
    p: &StoredProgram,
    format: ActaFormat,
    out: &mut dyn Write,
) -> Result<i64, CliError> {
    use crate::report::acta_stored::{self, Unwritten};
    acta_stored::write(conn, p, format, out).map_err(|e| match e {
        Unwritten::NotAdjudicated => {
            let code = &p.program.code;
            CliError::Said(crate::said!(cli::offer_not_adjudicated, code))
        }
        Unwritten::Register(e) => CliError::from(e),
        Unwritten::Rows { run, reason } => {
            CliError::Said(crate::said!(cli::acta_of_run_unwritten, run, reason))
        }
        Unwritten::Io(e) => CliError::from(e),
    })
}

/// Where an acta went, or why it could not be moved there and where its bytes wait.
type Placed = std::result::Result<PathBuf, (FileError, PathBuf)>;

/// Writes the acta of a program's stored run into the file reserved for it, flushed, and moves
/// it into place; the run's id and where the acta is.
fn acta_into(
    conn: &rusqlite::Connection,
    p: &StoredProgram,
    format: ActaFormat,
    mut reserved: files::Reserved,
    flag: &'static str,
) -> Result<(i64, Placed), CliError> {
    let run = write_acta(conn, p, format, &mut reserved)?;
    let staged = reserved.finish().map_err(|e| out_error(flag, e))?;
    let tmp = staged.temp_path().to_path_buf();
    Ok((run, staged.place().map_err(|e| (e, tmp))))
}

/// Writes the acta of run `run_id`, just committed, into the file reserved for it (rendered from
/// a read of the stored run, no write lock held) and moves it into place. A failure says that
/// the run is in the register and how to write its acta again.
fn write_acta_after_commit(
    conn: &rusqlite::Connection,
    p: &StoredProgram,
    format: ActaFormat,
    reserved: files::Reserved,
    run_id: i64,
) -> Result<PathBuf, CliError> {
    let path = reserved.target().to_path_buf();
    let code = &p.program.code;
    let what = crate::said!(cli::adjudication_run_named, run_id, code);
    let (_, placed) = acta_into(conn, p, format, reserved, "--acta").map_err(|e| {
        let again = format!("vigia offer acta {code} --out {}", path.display());
        super::notice::acta_unwritten(&what, "--acta", &e, &again)
    })?;
    placed.map_err(|(e, tmp)| super::notice::not_placed(&what, "--acta", &path, &e, &tmp))
}

/// The rejection causes a result's rows name, by code.
type Causes = std::collections::BTreeSet<&'static str>;

/// Under a Spanish table, what each built-in rejection cause its rows name means, in the acta's
/// words and with its source (`Cause::label_for`: the web's result and the acta's «Causales de
/// rechazo» say the same); then the program's own review causes (their code is the rows'
/// cause), each with its wording and article, as the acta words it.
fn causes_legend(
    out: &mut dyn Write,
    p: &crate::program::Program,
    used: &Causes,
    lang: crate::lang::Lang,
) -> std::io::Result<()> {
    use crate::offering::adjudicate::Cause;
    if lang == crate::lang::Lang::Es {
        for c in Cause::ALL {
            // a built-in cause the program rewords is said below, with the program's causes
            let reworded = p.review_causes.iter().any(|own| own.code == c.as_str());
            if used.contains(c.as_str()) && !reworded {
                writeln!(out, "{}: {}", c.as_str(), c.label_for(p))?;
            }
        }
    }
    for c in &p.review_causes {
        writeln!(out, "{}: {} ({})", c.code, c.wording, c.article)?;
    }
    Ok(())
}

/// The bar of an adjudication: its acceptances, counted as the result is written out.
fn adjudicating(c: &rules::Computed, lang: crate::lang::Lang) -> super::progress::Progress {
    super::progress::Progress::new(
        super::progress::Counting::Adjudicating,
        c.adjudication.outcomes.len() as u64,
        lang,
    )
}

/// Hands each row of a result to the sink it is given.
type EachRow<'a> =
    dyn FnMut(&mut dyn FnMut(&Row) -> Result<(), CliError>) -> Result<(), CliError> + 'a;

/// Writes the result: JSON (an object with the totals, the rows, the run and its fingerprint),
/// CSV (the rows), or a table (totals, then the rows). The JSON of a dry run (no `fingerprint`
/// given) says the fingerprint its rows make, hashed from the lines written; a run's says the one
/// it stored, so its rows are not hashed again, and the CSV and the table say none.
fn write_result(
    (out, lang): (&mut dyn Write, crate::lang::Lang),
    format: Format,
    header: &Header,
    each: &mut EachRow<'_>,
    run: Option<i64>,
    fingerprint: Option<&str>,
) -> Result<Causes, CliError> {
    let mut causes = Causes::new();
    match format {
        Format::Json => {
            json_head(out, header)?;
            let mut fp = fingerprint.is_none().then(|| {
                let mut fp = rules::Fingerprint::default();
                fp.header(header);
                fp
            });
            let mut first = true;
            // each row serialised once: the line the fingerprint hashes is the one written
            let mut line = Vec::new();
            each(&mut |r| {
                line.clear();
                serde_json::to_writer(&mut line, r).expect("row");
                if let Some(fp) = &mut fp {
                    fp.line(&line);
                }
                out.write_all(if first { b"\n    " } else { b",\n    " })?;
                first = false;
                out.write_all(&line)?;
                Ok(())
            })?;
            let fingerprint = match fp {
                Some(fp) => fp.finish(),
                None => fingerprint.unwrap_or_default().to_string(),
            };
            json_tail(out, run, &fingerprint)?;
            Ok(causes)
        }
        Format::Csv | Format::Table => {
            if format == Format::Table {
                let line =
                    crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::OfferHeader {
                        program: &header.program,
                        offered: header.offered,
                        demand: header.demand,
                        awarded: header.awarded,
                        leftover: header.leftover,
                        oversubscribed: header.oversubscribed,
                        rule: header.rule,
                    });
                writeln!(out, "{line}")?;
            }
            let mut list = RowWriter::new(format, &mut *out, lang)?;
            each(&mut |r| {
                list.push(r)?;
                causes.extend(r.cause);
                Ok(())
            })?;
            list.finish()?;
            Ok(causes)
        }
    }
}

/// The JSON result up to its rows: the totals, then the opening of `acceptances`.
fn json_head(out: &mut dyn Write, header: &Header) -> std::io::Result<()> {
    let mut obj = serde_json::to_value(header).expect("header serialises");
    let map = obj.as_object_mut().expect("an object");
    map.shift_remove("program_sha256");
    let mut text = serde_json::to_string_pretty(&obj).expect("json");
    text.truncate(text.len() - 2); // "\n}"
    write!(out, "{text},\n  \"acceptances\": [")
}

/// The JSON result after its rows: the run and its fingerprint.
fn json_tail(out: &mut dyn Write, run: Option<i64>, fingerprint: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "\n  ],\n  \"run\": {},\n  \"fingerprint\": {}\n}}",
        run.map_or("null".into(), |r| r.to_string()),
        serde_json::to_string(fingerprint).expect("json")
    )
}

/// A real run's JSON rows, written on the fingerprint's thread as the run writes the register
/// (`rules::Spool`), into a private temporary file beside the register (mode 0600, already
/// unlinked: no name to follow, and gone with the process on every path), and copied to the
/// output after the commit, between [`json_head`] and [`json_tail`]: the same bytes
/// [`write_result`] writes, without serialising the rows again once the write lock is let go.
/// Nothing reaches the output before the commit; a spool that could not be made or written is
/// dropped and the result written from the computation instead.
struct JsonSpool {
    file: std::io::BufWriter<std::fs::File>,
    first: bool,
    failed: bool,
}

impl JsonSpool {
    /// A spool beside the register at `db` (the temporary directory for one in memory).
    fn new(db: Option<&str>) -> Option<Self> {
        let dir = db
            .filter(|p| !p.is_empty())
            .and_then(|p| Path::new(p).parent())
            .map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            });
        let file = match dir {
            Some(d) => tempfile::tempfile_in(d),
            None => tempfile::tempfile(),
        };
        Some(JsonSpool {
            file: std::io::BufWriter::with_capacity(SPOOL_CHUNK, file.ok()?),
            first: true,
            failed: false,
        })
    }

    /// One row's line, with the separator before it (the first error stops the spool).
    fn push(&mut self, line: &[u8]) {
        if self.failed {
            return;
        }
        let sep: &[u8] = if self.first { b"\n    " } else { b",\n    " };
        self.first = false;
        self.failed = self
            .file
            .write_all(sep)
            .and_then(|()| self.file.write_all(line))
            .is_err();
    }

    /// The rows spooled, rewound for reading; none when the spool failed.
    fn rows(self) -> Option<std::fs::File> {
        use std::io::Seek;
        if self.failed {
            return None;
        }
        let mut file = self.file.into_inner().ok()?;
        file.rewind().ok()?;
        Some(file)
    }
}

/// Bytes copied at a time from a spool to the output.
const SPOOL_CHUNK: usize = 1 << 20;

/// Copies `rows` to `out`.
fn copy_spooled(mut rows: std::fs::File, out: &mut dyn Write) -> std::io::Result<()> {
    use std::io::Read;
    let mut buf = vec![0u8; SPOOL_CHUNK];
    loop {
        match rows.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => out.write_all(&buf[..n])?,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

impl OfferCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            OfferCommand::Open {
                code,
                opens,
                closes,
                reason,
            } => {
                let mut store = ctx.store()?;
                let p = programs::by_code(store.conn(), &code)?;
                let id = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    rules::open(tx, &p, Window { opens, closes }, reason.as_deref())
                })?;
                ctx.say(crate::catalogue::msg::Msg::OfferOpened {
                    id,
                    code: &code,
                    opens,
                    closes,
                    earliest: rules::earliest_close(&p.program, opens),
                })?;
                super::outside_validity(ctx, &p.program, opens)?;
            }
            OfferCommand::Adjudicate {
                code,
                on,
                dry_run,
                format,
                acta,
                force,
                sign,
            } => {
                // the key file opens before anything is adjudicated (issue 26)
                let signer = sign.signer_for_acta(acta.as_deref(), "--acta")?;
                let af = acta
                    .as_deref()
                    .map(|a| acta_format(a, "--acta"))
                    .transpose()?;
                if dry_run && acta.is_some() {
                    return Err(CliError::Wrong {
                        flag: "--acta".into(),
                        value: acta.map(|a| a.display().to_string()).unwrap_or_default(),
                        why: crate::said!(cli::dry_run_records_no_acta),
                    });
                }
                if let Some(a) = &acta {
                    files::check_target(a, force).map_err(|e| out_error("--acta", e))?;
                }
                let mut store = ctx.store()?;
                let p = programs::by_code(store.conn(), &code)?;
                // the acceptances the adjudication reads, counted on a terminal's bar as they are
                let acceptances = crate::store::offering::count(store.conn(), p.id)?;
                let acceptances = u64::try_from(acceptances).unwrap_or(0);
                if dry_run {
                    let conn = store.conn();
                    let reading =
                        Progress::new(Counting::AdjudicationReading, acceptances, ctx.lang);
                    let c = rules::compute_counting(conn, &p, on, &mut reading.counter())?;
                    reading.done();
                    let header = c.header(&p);
                    let bar = adjudicating(&c, ctx.lang);
                    let mut tick = bar.counter();
                    let written = write_result(
                        (ctx.out, ctx.lang),
                        format,
                        &header,
                        &mut |f| {
                            rules::each_row::<CliError>(conn, &p, &c, |r, _| {
                                tick();
                                f(r)
                            })
                        },
                        None,
                        None,
                    );
                    drop(tick);
                    bar.done();
                    let causes = written?;
                    if format == Format::Table {
                        causes_legend(ctx.out, &p.program, &causes, ctx.lang)?;
                    }
                    return Ok(Status::Ok);
                }
                // one call into the rules; the acta's file is reserved in the transaction (a path
                // that cannot be written refuses the run while nothing is stored) and the acta is
                // rendered after the commit, from the stored run, without the write lock
                // one bar over both phases: each acceptance read, then each award registered (at
                // most one per acceptance, so the total is an upper bound the bar may end short of)
                let total = acceptances.saturating_mul(2);
                let bar = Progress::new(Counting::AdjudicationReading, total, ctx.lang);
                let n = std::cell::Cell::new(0u64);
                let tick = || {
                    n.set(n.get() + 1);
                    if n.get().is_multiple_of(4096) {
                        bar.at(n.get());
                    }
                };
                let (mut read, mut written) = (tick, tick);
                // a JSON result's rows are spooled as the run is written, copied out after it
                let mut spool = (format == Format::Json)
                    .then(|| JsonSpool::new(store.conn().path()))
                    .flatten();
                let mut to_spool = |line: &[u8]| {
                    if let Some(s) = &mut spool {
                        s.push(line);
                    }
                };
                let spooling: rules::Spool<'_> = if format == Format::Json {
                    Some(&mut to_spool)
                } else {
                    None
                };
                // the commit's checkpoint (a copy of every page the run wrote) runs beside the
                // result's writing, on a connection of its own, and is waited for at the end
                let c_done = store.write_checkpointing_aside::<_, CliError>(&ctx.officer(), |tx| {
                    let counters = rules::Counters {
                        read: &mut read,
                        written: &mut written,
                    };
                    let (c, done) = rules::adjudicate_counting(tx, &p, on, counters, spooling)?;
                    let reserved = acta
                        .as_deref()
                        .map(|path| files::reserve(path, force).map_err(|e| out_error("--acta", e)))
                        .transpose()?;
                    Ok((c, done, reserved))
                });
                bar.done();
                let ((c, done, reserved), checkpointing) = c_done?;
                // the result first, from the computation in memory, which is then dropped:
                // the acta is rendered from the stored run, and both never share the memory
                let header = c.header(&p);
                let mut causes = Causes::new();
                if let Some(rows) = spool.and_then(JsonSpool::rows) {
                    json_head(ctx.out, &header)?;
                    copy_spooled(rows, ctx.out)?;
                    json_tail(ctx.out, Some(done.run_id), &done.fingerprint)?;
                } else {
                    let conn = store.conn();
                    let bar = adjudicating(&c, ctx.lang);
                    let mut tick = bar.counter();
                    let written = write_result(
                        (ctx.out, ctx.lang),
                        format,
                        &header,
                        &mut |f| {
                            rules::each_row::<CliError>(conn, &p, &c, |r, _| {
                                tick();
                                f(r)
                            })
                        },
                        Some(done.run_id),
                        Some(&done.fingerprint),
                    );
                    drop(tick);
                    bar.done();
                    causes = written?;
                }
                drop(c);
                let placed = match (reserved, af) {
                    (Some(r), Some(f)) => Some(write_acta_after_commit(
                        store.conn(),
                        &p,
                        f,
                        r,
                        done.run_id,
                    )?),
                    _ => None,
                };
                if let (Some(s), Some(path)) = (&signer, &placed) {
                    let issuer = super::sign::letterhead(store.conn(), &p);
                    super::sign::sign_file(
                        s,
                        path,
                        &format!("Acta de adjudicación {code}"),
                        issuer.as_ref(),
                    )?;
                }
                // its file recorded once placed (and signed), in a transaction of its own
                if let (Some(path), Some(f)) = (&placed, af) {
                    let run_id = done.run_id;
                    let again = format!("vigia offer acta {code}");
                    let what = (
                        crate::said!(cli::adjudication_run_named, run_id, code),
                        again,
                    );
                    let acta = (Acta::Run(run_id), f);
                    super::acta_record::issued(&mut store, &ctx.officer(), acta, path, what)?;
                }
                if format == Format::Table {
                    causes_legend(ctx.out, &p.program, &causes, ctx.lang)?;
                    ctx.say(crate::catalogue::msg::Msg::OfferRun {
                        run: done.run_id,
                        code: &code,
                        ids: done.adjudications,
                        new_holders: done.new_holders as u64,
                        fingerprint: &done.fingerprint,
                    })?;
                    if let Some(path) = placed {
                        ctx.say(crate::catalogue::msg::Msg::ActaWritten {
                            path: &path.display().to_string(),
                        })?;
                    }
                }
                // before the register is closed (on an early return too: it waits when dropped)
                checkpointing.finish();
            }
            OfferCommand::Acta {
                code,
                out,
                force,
                sign,
            } => {
                let signer = sign.signer_for_acta(Some(&out), "--out")?;
                let f = acta_format(&out, "--out")?;
                files::check_target(&out, force).map_err(|e| out_error("--out", e))?;
                let mut store = ctx.store()?;
                let p = programs::by_code(store.conn(), &code)?;
                let reserved = files::reserve(&out, force).map_err(|e| out_error("--out", e))?;
                let (run, placed) = acta_into(store.conn(), &p, f, reserved, "--out")?;
                let path = placed.map_err(|(e, tmp)| {
                    let _ = std::fs::remove_file(tmp); // nothing to keep: no run was just stored
                    out_error("--out", e)
                })?;
                if let Some(s) = &signer {
                    let issuer = super::sign::letterhead(store.conn(), &p);
                    super::sign::sign_file(
                        s,
                        &path,
                        &format!("Acta de adjudicación {code}"),
                        issuer.as_ref(),
                    )?;
                }
                let acta = (Acta::Run(run), f);
                super::acta_record::record(
                    &mut store,
                    &ctx.officer(),
                    acta,
                    (&path, "--out"),
                    false,
                )?;
                ctx.say(crate::catalogue::msg::Msg::ActaOfRun {
                    run,
                    code: &code,
                    path: &path.display().to_string(),
                })?;
            }
            OfferCommand::Verify { file, trust } => return verify(ctx, &file, trust.as_deref()),
            OfferCommand::RecordExternal(r) => return r.run(ctx),
        }
        Ok(Status::Ok)
    }
}

/// A document given to `flag` (`offer verify`, `stage verify`) that could not be read, naming
/// the file: the reader's detail (English) inside a sentence of the run's language.
pub(super) fn unreadable(flag: &'static str, file: &Path, reason: &str) -> CliError {
    wrong(
        flag,
        file,
        crate::said!(report::document_unreadable, reason),
    )
}

/// A refusal about a document given to `flag`, naming the file, said in both languages.
pub(super) fn wrong(flag: &'static str, file: &Path, why: crate::lang::Said) -> CliError {
    CliError::Wrong {
        flag: flag.into(),
        value: file.display().to_string(),
        why,
    }
}

/// Why an acta given to `flag` could not be read, naming the file.
pub(super) fn unread(flag: &'static str, file: &Path, e: Unread) -> CliError {
    match e {
        Unread::Io(e) => CliError::File {
            flag,
            path: file.to_path_buf(),
            error: e,
        },
        // the reader's detail stays English, inside a sentence of the run's language
        Unread::Document(reason) => unreadable(flag, file, &reason),
        Unread::Pdf(e) => wrong(flag, file, crate::report::document::unreadable_pdf(&e)),
    }
}

/// Opens an acta given to `flag` (`report::acta_file`: read as it is checked, a chunk or a
/// page at a time) and reads its first lines, where it says what it is.
pub(super) fn open_acta(
    file: &Path,
    flag: &'static str,
) -> Result<(ActaFile, Vec<String>), CliError> {
    let acta = ActaFile::open(file, acta_file::CHUNK).map_err(|e| unread(flag, file, e))?;
    let head = acta.head().map_err(|e| unread(flag, file, e))?;
    Ok((acta, head))
}

/// The signatures of an acta, when it carries any (issue 26), each result said; `true` when
/// every one is valid or there is none.
pub(super) fn signatures(
    ctx: &mut Ctx<'_>,
    acta: &ActaFile,
    trust: Option<&Path>,
    p: &StoredProgram,
) -> Result<bool, CliError> {
    if !acta.is_signed() {
        return Ok(true);
    }
    super::sign::report(ctx.out, acta, trust, Some(&p.program.signatures), ctx.lang)
}

/// The acta's lines (`open`, read from the first once per layout tried) checked against the
/// stored run: the number of rows and the mismatch if any; the inner `Err` says why the document
/// could not be read (in English). The stored rows and the document are read as they are
/// compared (a page or a chunk of each in memory, not the run), in every format.
fn check_acta(
    conn: &rusqlite::Connection,
    (p, run, header): (&StoredProgram, &crate::store::offering::Run, &Header),
    format: ActaFormat,
    open: &mut acta::OpenLines<'_>,
) -> Result<Result<(u64, Option<acta::Mismatch>), String>, CliError> {
    let head = acta::ActaHead {
        program: &p.program,
        run_id: run.id,
        fingerprint: &run.fingerprint,
        header,
    };
    Ok(acta::check_streamed(
        &head,
        &|f| rules::each_stored_row::<acta::Pass>(conn, run.id, |r| f(&r)),
        format,
        open,
    ))
}

fn verify(ctx: &mut Ctx<'_>, file: &Path, trust: Option<&Path>) -> Result<Status, CliError> {
    const FLAG: &str = "offer verify";
    let (acta, lines) = open_acta(file, FLAG)?;
    let format = acta.format();
    let unreadable = |reason: String| unreadable(FLAG, file, &reason);
    // another kind of document is said as such, not as a forged acta
    let f = file.display();
    match crate::report::stage_acta::acta_kind(&lines) {
        ActaKind::FirstStage => {}
        ActaKind::LaterStage => {
            return Err(CliError::Said(crate::said!(
                cli::offer_verify_this_acta_later_stage,
                f
            )));
        }
        ActaKind::Other => {
            let title = acta::TITLE;
            return Err(CliError::Said(crate::said!(
                cli::offer_verify_not_first_stage_acta,
                f,
                title
            )));
        }
    }
    let code = acta::program_code(&lines)
        .ok_or_else(|| wrong(FLAG, file, crate::said!(cli::acta_without_program_line)))?;
    let store = ctx.store()?;
    let conn = store.conn();
    let p = programs::by_code(conn, &code)?;
    let run = crate::store::offering::run(conn, p.id)?.ok_or_else(|| {
        wrong(
            FLAG,
            file,
            crate::said!(cli::register_holds_no_adjudication, code),
        )
    })?;
    let header = rules::stored_header(conn, &p, &run)?;
    // the stored rows read in order with the small page cache, sorted on disk; the document
    // read again for each layout a PDF is compared with until one gives its text
    let checked = crate::store::streaming(conn, || {
        check_acta(conn, (&p, &run, &header), format, &mut || acta.open_lines())
    })?;
    let (count, found) = checked?.map_err(unreadable)?;
    match found {
        Some(acta::Mismatch::Fingerprint { recomputed }) => {
            let line = Line::RunFingerprint {
                run: run.id,
                code: &code,
                recomputed: &recomputed,
                recorded: &run.fingerprint,
            };
            writeln!(ctx.out, "{}", stage_words::line(ctx.lang, &line))?;
            return Ok(Status::Findings);
        }
        Some(acta::Mismatch::Text(d)) => {
            let line = Line::DocumentDiffers(&d);
            writeln!(ctx.out, "{}", stage_words::line(ctx.lang, &line))?;
            return Ok(Status::Findings);
        }
        None => {}
    }
    // its bytes against the files vigia wrote of it: one that is none of them is said first
    let found = super::acta_record::compared(conn, Acta::Run(run.id), (file, FLAG))?;
    super::acta_record::say_headline(ctx, &found)?;
    ctx.say(crate::catalogue::msg::Msg::ActaVerified {
        run: run.id,
        code: &code,
        acceptors: count,
        awarded: header.awarded,
        fingerprint: &run.fingerprint,
        text_only: !found.ok(),
    })?;
    let same = super::acta_record::say_file(ctx, &found)?;
    // the signature, when the acta carries one (issue 26), each result named
    Ok(if signatures(ctx, &acta, trust, &p)? && same {
        Status::Ok
    } else {
        Status::Findings
    })
}
