//! `vigia audit ...`: read the audit trail and verify its hash chain against the stored rows.

use super::{CliError, Ctx, Status};
use crate::report::records::{self, Format};
use crate::store::audit;
use clap::Subcommand;
use serde_json::{Value, json};
use std::io::Write;

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// The events, oldest first.
    Log {
        /// Only events of this table (programs, adjudications, imports, breaches, payments,
        /// liquidations, pledges, rate_periods, ...).
        #[arg(long)]
        entity: Option<String>,
        /// Only events of this row id (with --entity).
        #[arg(long)]
        id: Option<i64>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Recompute the chain and compare every event with the stored rows; exit 1 naming the first
    /// event that does not match.
    Verify,
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
                let v = audit::verify(store.conn())?;
                report_verification(&v, &mut *ctx.out)
            }
        }
    }
}

/// Writes what `audit verify` found: one line when intact, else a line per problem.
fn report_verification(v: &audit::Verification, out: &mut dyn Write) -> Result<Status, CliError> {
    if v.intact() {
        writeln!(
            out,
            "audit trail intact: {} events, chain and stored rows match; schema and triggers as \
             vigia created them; head {}",
            v.events,
            &v.head.hash[..12]
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
    for s in &v.schema {
        writeln!(out, "SCHEMA MISMATCH: {s}")?;
    }
    for s in &v.storage {
        writeln!(out, "FILE DAMAGED (SQLite quick_check): {s}")?;
    }
    Ok(Status::Findings)
}
