//! `vigia audit ...`: read the audit trail and verify its hash chain against the stored rows.

use super::audit_words::{self, Line};
use super::{CliError, Ctx, Status};
use crate::lang::Lang;
use crate::register::{self, audit::Audit};
use crate::store::Store;
use crate::store::anchors::{self, Recorded};
use crate::store::audit::{self, Anchor, Head};
use crate::store::checkpoint::{self, Checkpoint};
use clap::Subcommand;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// The events, oldest first.
    Log {
        /// Only events of this table (programs, adjudications, imports, breaches, payments,
        /// liquidations, pledges, rate_periods, ...).
        #[arg(value_parser = super::args::text, long)]
        entity: Option<String>,
        /// Only events of this row id (with --entity).
        #[arg(long, value_parser = super::args::id)]
        id: Option<i64>,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Check the register against everything that anchors it: the chain through every signed
    /// checkpoint, every event against the stored rows, every row covered by an event, the schema
    /// and triggers against vigia's migrations, and SQLite's quick_check; exit 1 naming what does
    /// not match.
    Verify,
    /// Sign the chain's head (event count, head hash, UTC time) with the audit key, append it
    /// to the register's checkpoint log (`<register>.checkpoints`) and record it in the chain,
    /// once the chain is found to extend the last checkpoint. Where the chain has events and
    /// there is no log, nothing is signed: restore the log from a backup.
    Checkpoint {
        /// Start a new checkpoint log where the chain has events but the log is lost for good
        /// (never where a log is): the chain must still verify against every checkpoint it
        /// records; the reason is recorded in the chain and reported by every later `audit
        /// verify`.
        #[arg(long, requires = "reason")]
        reanchor: bool,
        /// Why the log had to be started again (with --reanchor).
        #[arg(long, value_parser = super::args::text, value_name = "TEXT", requires = "reanchor")]
        reason: Option<String>,
    },
}

/// An event's columns in `audit log`.
const EVENT_COLUMNS: [&str; 9] = [
    "seq",
    "at",
    "actor",
    "action",
    "entity",
    "entity_id",
    "payload",
    "prev_hash",
    "hash",
];

impl AuditCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            AuditCommand::Log {
                entity,
                id,
                format,
                out: out_path,
            } => {
                use super::out::OutFormat as Format;
                // refused before the register is opened
                let to = super::out::usable(format, out_path.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let filters: crate::report::excel::Asked = [
                    super::out::filter("Tabla", entity.as_ref()),
                    super::out::filter("Fila", id),
                ]
                .into_iter()
                .flatten()
                .collect();
                // written as read: payloads included, a large register's trail is hundreds of MB
                // the table leaves out the payload and the previous hash (and shortens the hash)
                let columns: Vec<&str> = EVENT_COLUMNS
                    .into_iter()
                    .filter(|c| format != Format::Table || !matches!(*c, "payload" | "prev_hash"))
                    .collect();
                let mut out = super::out::Listing::new(ctx, to, "Auditoría", &columns, filters)?;
                audit::each_event(
                    store.conn(),
                    entity.as_deref(),
                    id,
                    |e| -> Result<_, CliError> {
                        let mut v = json!({"seq": e.seq, "at": e.at, "actor": e.actor, "action": e.action, "entity": e.entity, "entity_id": e.entity_id});
                        if format != Format::Table {
                            v["payload"] = serde_json::from_str(&e.payload).unwrap_or(Value::Null);
                            v["prev_hash"] = json!(e.prev_hash);
                            v["hash"] = json!(e.hash);
                        } else {
                            v["hash"] = json!(e.hash[..12].to_string());
                        }
                        out.push(&v)?;
                        Ok(std::ops::ControlFlow::Continue(()))
                    },
                )?;
                out.finish()?;
                Ok(Status::Ok)
            }
            AuditCommand::Verify => {
                let store = ctx.store()?;
                let key = ctx.audit_key()?;
                let found = register::audit::verify(store.conn(), &key, &ctx.checkpoint_log()?)
                    .map_err(|e| match e {
                        register::audit::Failed::Store(e) => CliError::from(e),
                        register::audit::Failed::Checkpoint(e) => CliError::from(e),
                    })?;
                report_verification(&found, ctx.lang, &mut *ctx.out)
            }
            AuditCommand::Checkpoint { reanchor, reason } => {
                let mut store = ctx.store()?;
                let officer = ctx.officer();
                let reason = reason.filter(|_| reanchor);
                let (line, c) = Checkpointer::new(ctx, true)?
                    .reanchoring(reason)
                    .sign(&mut store, &officer)?;
                let path = ctx.checkpoint_log()?;
                let l = Line::Signed {
                    line,
                    checkpoint: &c,
                    path: &path,
                };
                writeln!(ctx.out, "{}", audit_words::line(ctx.lang, &l))?;
                Ok(Status::Ok)
            }
        }
    }
}

/// The audit key and the checkpoint log of the register, ready to sign its head.
pub(crate) struct Checkpointer {
    key: checkpoint::Key,
    log: PathBuf,
    start: bool,
    reanchor: Option<String>,
}

impl Checkpointer {
    /// Reads the audit key and looks for the log (first, so that a long command fails at once
    /// when it could not sign at the end). A missing or empty log is started only when `start`
    /// (by `init` and `audit checkpoint`, run by a person), and then only over an empty chain or
    /// with [`Checkpointer::reanchoring`]: a scheduled run must not anchor whatever chain it
    /// finds after the log was removed, and neither must a person who was not told.
    pub(crate) fn new(ctx: &Ctx<'_>, start: bool) -> Result<Checkpointer, CliError> {
        let c = Checkpointer {
            key: ctx.audit_key()?,
            log: ctx.checkpoint_log()?,
            start,
            reanchor: None,
        };
        c.nothing_to_extend()?;
        Ok(c)
    }

    /// Starts a new log where the chain has events and the log is lost, for `reason`.
    pub(crate) fn reanchoring(self, reason: Option<String>) -> Checkpointer {
        Checkpointer {
            reanchor: reason,
            ..self
        }
    }

    fn no_log(&self) -> bool {
        std::fs::metadata(&self.log).map_or(true, |m| m.len() == 0)
    }

    fn nothing_to_extend(&self) -> Result<(), CliError> {
        if self.no_log() && !self.start {
            let log = self.log.display();
            return Err(CliError::Said(crate::said!(
                cli::nothing_was_signed_there_no_checkpoint,
                log
            )));
        }
        Ok(())
    }

    /// Signs the chain's head now, appends it to the checkpoint log and records it in the chain
    /// (one write transaction: the head cannot move between the signature and its record; the
    /// line is appended before the commit, so a log may hold a checkpoint the chain does not, never
    /// the other way round). Nothing is signed unless every line of the log and every checkpoint
    /// the chain records verifies, the log holds every checkpoint the chain records since the last
    /// re-anchor, and the chain extends the last of them: a checkpoint never anchors a chain that
    /// was rewritten. Returns the new line's number and the checkpoint. For `audit checkpoint`,
    /// `init` and `check --checkpoint`.
    pub(crate) fn sign(
        &self,
        store: &mut Store,
        officer: &str,
    ) -> Result<(usize, Checkpoint), CliError> {
        self.nothing_to_extend()?;
        let refused = |why: &crate::lang::Said| {
            let (en, es) = (why.en(), why.es());
            CliError::Said(crate::said!(
                cli::nothing_was_signed_run_vigia_audit,
                en,
                es
            ))
        };
        let log = checkpoint::read(&self.log, &self.key)?.unwrap_or_default();
        if let Some(p) = log.problems.first() {
            return Err(refused(p));
        }
        let recorded = anchors::list(store.conn())?;
        let in_chain = anchors::check_recorded(&self.key, &recorded);
        if let Some(p) = in_chain.problems.first() {
            return Err(refused(p));
        }
        let events = audit::head(store.conn())?.count;
        match (self.no_log(), &self.reanchor) {
            (false, Some(_)) => {
                let (path, lines) = (self.log.display(), log.lines);
                return Err(CliError::Said(crate::said!(
                    cli::nothing_was_signed_reanchor_starts_checkpoint,
                    path,
                    lines
                )));
            }
            (true, None) if events > 0 => {
                return Err(CliError::Said(missing_log(&self.log, events, &recorded)));
            }
            _ => {}
        }
        if !self.no_log()
            && let Some(i) = register::audit::missing_from_log(&recorded, &log)
        {
            let r = &recorded[i];
            let why = crate::lang::Said::new(
                audit_words::not_in_log(Lang::En, r, &self.log),
                audit_words::not_in_log(Lang::Es, r, &self.log),
            );
            return Err(refused(&why));
        }
        // the latest head signed, in the log or in the chain
        let from = log
            .anchors
            .iter()
            .chain(&in_chain.anchors)
            .max_by_key(|a| a.head.count)
            .cloned()
            .unwrap_or(Anchor {
                name: crate::said!(cli::start_chain),
                head: Head::genesis(),
            });
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let c = store.write::<_, CliError>(officer, |tx| {
            let head = audit::head_extending(tx.conn(), &from)?.map_err(|m| refused(&m.reason))?;
            let c = self.key.sign(&head, &now)?;
            checkpoint::append(&self.log, &c)?;
            anchors::record(tx, &c, self.reanchor.as_deref())?;
            Ok(c)
        })?;
        Ok((log.lines + 1, c))
    }
}

/// Why no new log is started over a chain with events (and what to do instead).
fn missing_log(path: &std::path::Path, events: i64, recorded: &[Recorded]) -> crate::lang::Said {
    let (held, tiene) = match recorded.last() {
        Some(r) => (
            format!(
                ", and records {} checkpoint(s), the last signed {} at {} events",
                recorded.len(),
                r.checkpoint.at,
                r.checkpoint.count
            ),
            format!(
                ", y registra {} de control, el último firmado el {} a los {}",
                crate::lang::cuenta(recorded.len() as u64, "punto", "puntos"),
                crate::lang::momento(&r.checkpoint.at),
                crate::lang::cuenta(r.checkpoint.count.unsigned_abs(), "evento", "eventos")
            ),
        ),
        None => (String::new(), String::new()),
    };
    let path = path.display();
    let eventos = crate::lang::numero(events.unsigned_abs());
    crate::said!(
        cli::nothing_was_signed_there_no_checkpoint_2,
        path,
        events,
        held,
        eventos,
        tiene
    )
}

/// Writes what `audit verify` found: three lines when intact, else a line per problem; every
/// re-anchor of the log, in both cases.
fn report_verification(found: &Audit, lang: Lang, out: &mut dyn Write) -> Result<Status, CliError> {
    let (v, log) = (&found.verification, found.log.as_ref());
    let missing = found.missing.map(|i| &found.recorded[i]);
    if let Some((signed, (n, c))) = found.anchored() {
        // the last checkpoint's own record in the chain is not news
        let own = found.recorded.iter().any(|r| r.checkpoint == *c);
        let said = crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::AuditIntact {
            events: v.events,
            head: &v.head.hash[..12],
            signed: signed as u64,
            line: *n as u64,
            at_events: c.count,
            at: &c.at,
            since: v.events - c.count - i64::from(own),
        });
        writeln!(out, "{said}")?;
        restarts(found, lang, out)?;
        return Ok(Status::Ok);
    }
    let say = |out: &mut dyn Write, l: Line<'_>| writeln!(out, "{}", audit_words::line(lang, &l));
    if let Some(m) = &v.first_mismatch {
        say(
            out,
            Line::Mismatch {
                place: &m.place,
                reason: &m.reason,
            },
        )?;
        // the row a bulk write's prints name, in Spanish (the English reason above names it)
        if let Some(l) = m.located.as_ref().filter(|_| lang != Lang::En) {
            writeln!(out, "FILA ALTERADA: {}", l.said().in_lang(lang))?;
        }
    }
    for p in &found.in_chain.problems {
        say(out, Line::InChain(p))?;
    }
    match log {
        None => say(
            out,
            Line::LogMissing {
                path: &found.log_path,
                recorded: &found.recorded,
            },
        )?,
        Some(l) => {
            for p in &l.problems {
                say(out, Line::Log(p))?;
            }
        }
    }
    if let Some(r) = missing {
        say(
            out,
            Line::NotInLog {
                recorded: r,
                path: &found.log_path,
            },
        )?;
    }
    for s in &v.schema {
        say(out, Line::Schema(s))?;
    }
    for s in &v.storage {
        say(out, Line::Storage(s))?;
    }
    restarts(found, lang, out)?;
    Ok(Status::Findings)
}

/// Every time the log was started again, and the checkpoints that cannot be checked.
fn restarts(found: &Audit, lang: Lang, out: &mut dyn Write) -> Result<(), CliError> {
    for (recorded, reason) in found.reanchors() {
        let l = Line::Restarted { recorded, reason };
        writeln!(out, "{}", audit_words::line(lang, &l))?;
    }
    for n in &found.in_chain.notes {
        writeln!(out, "{}", audit_words::line(lang, &Line::Note(n)))?;
    }
    Ok(())
}
