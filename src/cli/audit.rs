//! `vigia audit ...`: read the audit trail and verify its hash chain against the stored rows.

use super::{CliError, Ctx, Status};
use crate::report::records::{self, Format};
use crate::store::Store;
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
        #[arg(long)]
        id: Option<i64>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Check the register against everything that anchors it: the chain through every signed
    /// checkpoint, every event against the stored rows, every row covered by an event, the schema
    /// and triggers against vigia's migrations, and SQLite's quick_check; exit 1 naming what does
    /// not match.
    Verify,
    /// Sign the chain's head (event count, head hash, UTC time) with the audit key and append it
    /// to the register's checkpoint log (`<register>.checkpoints`), once the chain is found to
    /// extend the last checkpoint.
    Checkpoint,
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
        let store = ctx.store()?;
        match self {
            AuditCommand::Log { entity, id, format } => {
                // written as read: payloads included, a large register's trail is hundreds of MB
                // the table leaves out the payload and the previous hash (and shortens the hash)
                let columns: Vec<&str> = EVENT_COLUMNS
                    .into_iter()
                    .filter(|c| format != Format::Table || !matches!(*c, "payload" | "prev_hash"))
                    .collect();
                let mut out = records::ListWriter::new(format, &columns, &mut *ctx.out)?;
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
                let key = ctx.audit_key()?;
                let log_path = ctx.checkpoint_log()?;
                // the log before the snapshot: every head it signed is then in the snapshot
                // an empty log anchors nothing: it is reported like a missing one
                let log = checkpoint::read(&log_path, &key)?.filter(|l| l.lines > 0);
                let anchors = log.as_ref().map(|l| &l.anchors[..]).unwrap_or_default();
                let v = audit::verify_against(store.conn(), anchors)?;
                report_verification(&v, log.as_ref(), &log_path, &mut *ctx.out)
            }
            AuditCommand::Checkpoint => {
                let (line, c) = Checkpointer::new(ctx, true)?.sign(&store)?;
                writeln!(
                    ctx.out,
                    "checkpoint {line}: {} events, head {}, signed {} with key {}; appended to {}",
                    c.count,
                    &c.head[..12],
                    c.at,
                    c.key,
                    ctx.checkpoint_log()?.display()
                )?;
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
}

impl Checkpointer {
    /// Reads the audit key and looks for the log (first, so that a long command fails at once
    /// when it could not sign at the end). A missing or empty log is started only when `start`
    /// (by `init` and `audit checkpoint`, run by a person): a scheduled run must not anchor
    /// whatever chain it finds after the log was removed.
    pub(crate) fn new(ctx: &Ctx<'_>, start: bool) -> Result<Checkpointer, CliError> {
        let c = Checkpointer {
            key: ctx.audit_key()?,
            log: ctx.checkpoint_log()?,
            start,
        };
        c.nothing_to_extend()?;
        Ok(c)
    }

    fn nothing_to_extend(&self) -> Result<(), CliError> {
        let empty = std::fs::metadata(&self.log).map_or(true, |m| m.len() == 0);
        if empty && !self.start {
            return Err(CliError::Refused(format!(
                "nothing was signed: there is no checkpoint in {} to extend; run `vigia audit \
                 verify`, then start the log with `vigia audit checkpoint`",
                self.log.display()
            )));
        }
        Ok(())
    }

    /// Signs the chain's head now and appends it to the checkpoint log, once every line of the
    /// log verifies and the chain is found to extend the last checkpoint (else nothing is signed:
    /// a checkpoint never anchors a chain that was rewritten). Returns the new line's number and
    /// the checkpoint. For `audit checkpoint`, `init` and `check --checkpoint`.
    pub(crate) fn sign(&self, store: &Store) -> Result<(usize, Checkpoint), CliError> {
        self.nothing_to_extend()?;
        let log = checkpoint::read(&self.log, &self.key)?.unwrap_or_default();
        if let Some(p) = log.problems.first() {
            return Err(CliError::Refused(format!(
                "nothing was signed: {p}; run `vigia audit verify`"
            )));
        }
        let from = match &log.last {
            Some((n, c)) => Anchor {
                name: format!("checkpoint {n} (signed {})", c.at),
                head: c.head(),
            },
            None => Anchor {
                name: "the start of the chain".into(),
                head: Head::genesis(),
            },
        };
        let head = audit::head_extending(store.conn(), &from)?.map_err(|m| {
            CliError::Refused(format!(
                "nothing was signed: {}; run `vigia audit verify`",
                m.reason
            ))
        })?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let c = self.key.sign(&head, &now)?;
        checkpoint::append(&self.log, &c)?;
        Ok((log.lines + 1, c))
    }
}

/// Writes what `audit verify` found: one line when intact, else a line per problem.
fn report_verification(
    v: &audit::Verification,
    log: Option<&checkpoint::Log>,
    log_path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<Status, CliError> {
    // intact: the register, and a log whose every line verifies (an empty one was left out)
    let anchored = log
        .filter(|l| v.intact() && l.problems.is_empty())
        .and_then(|l| Some((l.anchors.len(), l.last.as_ref()?)));
    if let Some((signed, (n, c))) = anchored {
        writeln!(
            out,
            "audit trail intact: {} events, chain and stored rows match; head {}",
            v.events,
            &v.head.hash[..12]
        )?;
        writeln!(
            out,
            "schema and triggers as vigia's migrations create them; SQLite quick_check ok"
        )?;
        writeln!(
            out,
            "checkpoints: {signed} signed, the last (line {n}) at {} events, {}; {} event(s) since",
            c.count,
            c.at,
            v.events - c.count
        )?;
        return Ok(Status::Ok);
    }
    if let Some(m) = &v.first_mismatch {
        let at = match &m.place {
            audit::Place::Event {
                seq,
                entity,
                entity_id,
            } => format!("event {seq} ({entity} {entity_id})"),
            audit::Place::Row { entity, entity_id } => format!("no event ({entity} {entity_id})"),
            audit::Place::Anchor { name } => name.clone(),
        };
        writeln!(out, "AUDIT MISMATCH at {at}: {}", m.reason)?;
    }
    match log {
        None => writeln!(
            out,
            "CHECKPOINT LOG MISSING: there is no checkpoint in {}: nothing outside the database \
             anchors the chain (a register from before checkpoints gets its first with `vigia \
             audit checkpoint`)",
            log_path.display()
        )?,
        Some(l) => {
            for p in &l.problems {
                writeln!(out, "CHECKPOINT LOG: {p}")?;
            }
        }
    }
    for s in &v.schema {
        writeln!(out, "SCHEMA MISMATCH: {s}")?;
    }
    for s in &v.storage {
        writeln!(out, "FILE DAMAGED (SQLite quick_check): {s}")?;
    }
    Ok(Status::Findings)
}
