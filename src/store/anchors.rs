//! The signed checkpoints recorded in the audit chain itself (`audit_checkpoints`, one audited
//! row each, written in the transaction that signs): the chain carries the signatures over its
//! own earlier heads, so that a chain rewritten before one of them does not verify even when the
//! checkpoint log beside the register is gone. Reads and writes rows, and checks them with the
//! audit key (`checkpoint::Key`).

use super::audit::Anchor;
use super::checkpoint::{Checkpoint, Key};
use super::{Result, Tx};
use crate::lang::Said;
use crate::said;
use rusqlite::{Connection, params};

/// A checkpoint as the chain records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Its row.
    pub id: i64,
    pub checkpoint: Checkpoint,
    /// Why a new checkpoint log was started at it (`audit checkpoint --reanchor --reason`).
    pub reanchor_reason: Option<String>,
    /// Who recorded it, and when (UTC).
    pub created_by: String,
    pub created_at: String,
}

/// Records `c` in the chain (its own audit event follows the head it signs); `reanchor` when it
/// starts a new checkpoint log.
pub fn record(tx: &mut Tx<'_>, c: &Checkpoint, reanchor: Option<&str>) -> Result<i64> {
    let action = match reanchor {
        Some(_) => crate::store::Action::AuditReanchor,
        None => crate::store::Action::AuditCheckpoint,
    };
    tx.insert(
        "audit_checkpoints",
        action,
        &[
            ("events", &c.count),
            ("head", &c.head),
            ("signed_at", &c.at),
            ("key_id", &c.key),
            ("signature", &c.signature),
            ("reanchor_reason", &reanchor),
        ],
    )
}

/// Every checkpoint the chain records, oldest first.
pub fn list(conn: &Connection) -> Result<Vec<Recorded>> {
    let mut stmt = conn.prepare(
        "SELECT id, events, head, signed_at, key_id, signature, reanchor_reason, created_by,
                created_at
         FROM audit_checkpoints ORDER BY id",
    )?;
    let rows = stmt.query_map(params![], |r| {
        Ok(Recorded {
            id: r.get(0)?,
            checkpoint: Checkpoint {
                count: r.get(1)?,
                head: r.get(2)?,
                at: r.get(3)?,
                key: r.get(4)?,
                signature: r.get(5)?,
            },
            reanchor_reason: r.get(6)?,
            created_by: r.get(7)?,
            created_at: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The checkpoints the chain records (these rows) checked with `key`: those that verify
/// become anchors the chain must pass through; a forged or altered one is a problem; one signed by
/// another key before the last re-anchor (a key lost with its log) is a note only.
#[derive(Debug, Default)]
pub struct InChain {
    pub anchors: Vec<Anchor>,
    pub problems: Vec<Said>,
    pub notes: Vec<Said>,
}

/// Checks every checkpoint the chain records (oldest first) with `key`.
pub fn check_recorded(key: &Key, recorded: &[Recorded]) -> InChain {
    let last_reanchor = recorded
        .iter()
        .rposition(|r| r.reanchor_reason.is_some())
        .unwrap_or(0);
    let mut out = InChain::default();
    for (i, r) in recorded.iter().enumerate() {
        let c = &r.checkpoint;
        let (id, at, count) = (r.id, &c.at, c.count);
        let (at_es, count_es) = (
            crate::lang::momento(at),
            crate::lang::numero(count.unsigned_abs()),
        );
        let name = said!(
            store::checkpoint_chain_records_audit_checkpoints_row,
            id,
            at,
            count,
            at_es,
            count_es
        );
        match key.check(c) {
            None => out.anchors.push(Anchor {
                name,
                head: c.head(),
            }),
            Some(_) if i < last_reanchor && c.key != key.id() => {
                let (en, es, other) = (name.en(), name.es(), &c.key);
                out.notes
                    .push(said!(store::was_signed_by_another_key_id, en, other, es))
            }
            // another key: most often the wrong one was given (the register's key is where `init`
            // or the demo made it), which is no evidence of tampering by itself
            Some(why) if c.key != key.id() => {
                let (en, es, w_en, w_es) = (name.en(), name.es(), why.en(), why.es());
                out.problems.push(said!(
                    store::if_this_register_s_checkpoints_signed,
                    en,
                    w_en,
                    es,
                    w_es
                ))
            }
            Some(why) => {
                let (en, es, w_en, w_es) = (name.en(), name.es(), why.en(), why.es());
                out.problems.push(said!(
                    store::chain_was_rewritten_row_forged,
                    en,
                    w_en,
                    es,
                    w_es
                ))
            }
        }
    }
    out
}
