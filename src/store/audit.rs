//! The audit trail: one event per write (sequence, UTC time, actor, action, entity, payload),
//! each chained to the previous by SHA-256, and `verify`, which recomputes the chain and compares
//! every payload with the row as it is stored now.

use super::{Result, StoreError, row_json, sha256_hex};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Tables whose every row must be covered by an audit event.
pub const AUDITED: &[&str] = &[
    "programs",
    "stage_prices",
    "holders",
    "imports",
    "adjudications",
    "pledge_imports",
    "pledges",
    "pledge_releases",
    "breaches",
    "breach_voids",
    "payments",
    "liquidations",
    "rate_periods",
    "rate_supersessions",
    "notices",
    "users",
    "user_passwords",
    "user_disables",
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub seq: i64,
    pub at: String,
    pub actor: String,
    pub action: String,
    pub entity: String,
    pub entity_id: i64,
    pub payload: String,
    pub prev_hash: String,
    pub hash: String,
}

/// SHA-256 over the event's fields and the previous event's hash (the `hash` field is ignored).
fn chain_hash(e: &Event) -> String {
    let text = format!(
        "{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
        e.prev_hash, e.seq, e.at, e.actor, e.action, e.entity, e.entity_id, e.payload
    );
    sha256_hex(text.as_bytes())
}

/// A contiguous range of rows written in bulk and covered by one event (e.g. an import).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cover {
    pub table: &'static str,
    pub first: i64,
    pub last: i64,
    /// Count and SHA-256 of the rows, when the writer computed them as it wrote (they must equal
    /// what [`range_digest`] reads back; `audit verify` checks exactly that).
    pub digest: Option<(i64, String)>,
}

/// Hashes rows the way [`range_digest`] does: each row's JSON followed by a newline.
#[derive(Default)]
pub struct RowHasher {
    hasher: Sha256,
    count: i64,
}

impl RowHasher {
    pub fn add(&mut self, row_json: &str) {
        self.add_bytes(row_json.as_bytes());
    }

    pub fn add_bytes(&mut self, row_json: &[u8]) {
        self.hasher.update(row_json);
        self.hasher.update(b"\n");
        self.count += 1;
    }

    pub fn count_so_far(&self) -> i64 {
        self.count
    }

    pub fn finish(self) -> (i64, String) {
        (self.count, super::hex(&self.hasher.finalize()))
    }
}

/// Count and SHA-256 of the rows `first..=last` of `table`, as stored now.
fn range_digest(conn: &Connection, table: &str, first: i64, last: i64) -> Result<(i64, String)> {
    let mut h = RowHasher::default();
    let mut stmt = conn.prepare(&format!(
        "SELECT * FROM {table} WHERE id BETWEEN ?1 AND ?2 ORDER BY id"
    ))?;
    let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
    let mut rows = stmt.query(params![first, last])?;
    while let Some(r) = rows.next()? {
        h.add(&super::json_of_row(r, &names)?.to_string());
    }
    Ok(h.finish())
}

fn payload_for(conn: &Connection, entity: &str, entity_id: i64, covers: &[Cover]) -> Result<Value> {
    let row = row_json(conn, entity, entity_id)?.unwrap_or(Value::Null);
    if covers.is_empty() {
        return Ok(row);
    }
    let mut list = Vec::new();
    for c in covers {
        let (count, sha) = match &c.digest {
            Some(d) => d.clone(),
            None => range_digest(conn, c.table, c.first, c.last)?,
        };
        list.push(json!({"table": c.table, "first": c.first, "last": c.last, "count": count, "sha256": sha}));
    }
    Ok(json!({"row": row, "covers": list}))
}

/// Appends the event for a row just written; `covers` names rows written in bulk with it.
pub fn append(
    conn: &Connection,
    at: &str,
    actor: &str,
    action: &str,
    entity: &str,
    entity_id: i64,
    covers: &[Cover],
) -> Result<i64> {
    let payload = payload_for(conn, entity, entity_id, covers)?.to_string();
    let last: Option<(i64, String)> = conn
        .query_row(
            "SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let (seq, prev) = match last {
        Some((s, h)) => (s + 1, h),
        None => (1, GENESIS.to_string()),
    };
    let mut e = Event {
        seq,
        at: at.to_string(),
        actor: actor.to_string(),
        action: action.to_string(),
        entity: entity.to_string(),
        entity_id,
        payload,
        prev_hash: prev,
        hash: String::new(),
    };
    e.hash = chain_hash(&e);
    conn.execute(
        "INSERT INTO audit_events (seq, at, actor, action, entity, entity_id, payload, prev_hash, hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![e.seq, e.at, e.actor, e.action, e.entity, e.entity_id, e.payload, e.prev_hash, e.hash],
    )?;
    Ok(seq)
}

/// Events in order, optionally only those of one entity table (and one id), one at a time to `f`
/// as they are read, until `f` breaks (the trail of a large register, payloads included, is
/// hundreds of megabytes). An error from `f` stops the reading and is returned as it is.
pub fn each_event<E: From<StoreError>>(
    conn: &Connection,
    entity: Option<&str>,
    entity_id: Option<i64>,
    mut f: impl FnMut(Event) -> std::result::Result<ControlFlow<()>, E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(&format!(
            "SELECT seq, at, actor, action, entity, entity_id, payload, prev_hash, hash FROM audit_events
             WHERE {} AND {} ORDER BY seq",
            super::filter(entity.is_some(), "entity", 1),
            super::filter(entity_id.is_some(), "entity_id", 2),
        ))
        .map_err(StoreError::from)?;
    let mut rows = stmt
        .query(params![entity, entity_id])
        .map_err(StoreError::from)?;
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let event = Event::from_row(r).map_err(StoreError::from)?;
        if f(event)?.is_break() {
            break;
        }
    }
    Ok(())
}

impl Event {
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Event> {
        Ok(Event {
            seq: r.get(0)?,
            at: r.get(1)?,
            actor: r.get(2)?,
            action: r.get(3)?,
            entity: r.get(4)?,
            entity_id: r.get(5)?,
            payload: r.get(6)?,
            prev_hash: r.get(7)?,
            hash: r.get(8)?,
        })
    }
}

/// The first thing `verify` found wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// The event that does not match (0 when a row has no event at all).
    pub seq: i64,
    pub entity: String,
    pub entity_id: i64,
    pub reason: String,
}

/// Result of a verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    pub events: i64,
    pub first_mismatch: Option<Mismatch>,
}

/// Recomputes the chain and compares each payload with the stored rows it covers; then checks
/// that every row of the audited tables is covered by an event. Stops at the first mismatch.
pub fn verify(conn: &Connection) -> Result<Verification> {
    let total: i64 = conn.query_row("SELECT count(*) FROM audit_events", [], |r| r.get(0))?;
    let mut prev = GENESIS.to_string();
    // table -> covered (first, last) ranges
    let mut covered: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
    let mut first_mismatch: Option<Mismatch> = None;
    let mut expected_seq = 0i64;
    // events are read one at a time: the trail of a large register does not fit in memory
    each_event::<StoreError>(conn, None, None, |event| {
        expected_seq += 1;
        let e = &event;
        let mismatch = |reason: String| Mismatch {
            seq: e.seq,
            entity: e.entity.clone(),
            entity_id: e.entity_id,
            reason,
        };
        let found = if e.seq != expected_seq {
            Some(mismatch(format!(
                "sequence jumps from {} to {}: events were removed",
                expected_seq - 1,
                e.seq
            )))
        } else if e.prev_hash != prev {
            Some(mismatch(
                "its previous-hash link does not match the event before it".into(),
            ))
        } else if chain_hash(e) != e.hash {
            Some(mismatch(
                "its hash does not match its contents: the event was altered".into(),
            ))
        } else {
            let recorded: Value = serde_json::from_str(&e.payload).unwrap_or(Value::Null);
            let covers: Vec<Cover> = recorded
                .get("covers")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|c| {
                            let table =
                                AUDITED.iter().find(|t| Some(**t) == c["table"].as_str())?;
                            Some(Cover {
                                table,
                                first: c["first"].as_i64()?,
                                last: c["last"].as_i64()?,
                                digest: None,
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            covered
                .entry(e.entity.clone())
                .or_default()
                .push((e.entity_id, e.entity_id));
            for c in &covers {
                covered
                    .entry(c.table.to_string())
                    .or_default()
                    .push((c.first, c.last));
            }
            let now = payload_for(conn, &e.entity, e.entity_id, &covers)?;
            if now == recorded {
                None
            } else if now.get("covers").is_some() && now["row"] == recorded["row"] {
                Some(mismatch(format!(
                    "rows written with it no longer match what was recorded (e.g. {} edited or removed by hand)",
                    covers
                        .iter()
                        .map(|c| format!("{} {}..{}", c.table, c.first, c.last))
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            } else if now
                .get("covers")
                .map(|_| &now["row"])
                .unwrap_or(&now)
                .is_null()
            {
                Some(mismatch(format!(
                    "{} row {} no longer exists",
                    e.entity, e.entity_id
                )))
            } else {
                Some(mismatch(format!(
                    "{} row {} differs from what was recorded: stored now {}, recorded {}",
                    e.entity,
                    e.entity_id,
                    now.get("covers").map(|_| &now["row"]).unwrap_or(&now),
                    recorded
                        .get("covers")
                        .map(|_| &recorded["row"])
                        .unwrap_or(&recorded)
                )))
            }
        };
        if found.is_some() {
            first_mismatch = found;
            return Ok(ControlFlow::Break(()));
        }
        prev = event.hash;
        Ok(ControlFlow::Continue(()))
    })?;
    if first_mismatch.is_some() {
        return Ok(Verification {
            events: total,
            first_mismatch,
        });
    }
    for table in AUDITED {
        let ranges = covered.remove(*table).unwrap_or_default();
        let rows: i64 =
            conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
        let mut ranges = ranges;
        ranges.sort();
        ranges.dedup();
        let covered_count: i64 = ranges.iter().map(|(a, b)| b - a + 1).sum();
        if rows > covered_count || ranges.is_empty() && rows > 0 {
            let mut stmt = conn.prepare(&format!("SELECT id FROM {table} ORDER BY id"))?;
            let ids = stmt.query_map([], |r| r.get::<_, i64>(0))?;
            for id in ids {
                let id = id?;
                if !ranges.iter().any(|(a, b)| *a <= id && id <= *b) {
                    return Ok(Verification {
                        events: total,
                        first_mismatch: Some(Mismatch {
                            seq: 0,
                            entity: table.to_string(),
                            entity_id: id,
                            reason: format!(
                                "{table} row {id} has no audit event: it was inserted outside vigia"
                            ),
                        }),
                    });
                }
            }
        }
    }
    Ok(Verification {
        events: total,
        first_mismatch: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::Store;
    use super::*;

    fn holder(store: &mut Store, n: &str) -> i64 {
        store
            .write("ana", |tx| {
                tx.insert(
                    "holders",
                    "holder.create",
                    &[
                        ("doc_type", &"CC"),
                        ("doc_number", &n),
                        ("name", &"A"),
                        ("person_type", &"natural"),
                    ],
                )
            })
            .unwrap()
    }

    #[test]
    fn chain_verifies_and_names_the_first_tampered_event() {
        let mut store = Store::in_memory().unwrap();
        holder(&mut store, "111");
        let id2 = holder(&mut store, "222");
        holder(&mut store, "333");
        let v = verify(store.conn()).unwrap();
        assert_eq!(
            v,
            Verification {
                events: 3,
                first_mismatch: None
            }
        );
        let mut events = Vec::new();
        each_event::<StoreError>(store.conn(), Some("holders"), None, |e| {
            events.push(e);
            Ok(ControlFlow::Continue(()))
        })
        .unwrap();
        assert_eq!(events[1].prev_hash, events[0].hash);
        assert_eq!(events[0].actor, "ana");
        assert!(events[1].payload.contains("\"doc_number\":\"222\""));

        // A hand edit in SQLite (the append-only trigger has to be dropped first).
        store
            .conn()
            .execute_batch(
                "DROP TRIGGER holders_no_update; UPDATE holders SET name = 'B' WHERE id = 2;",
            )
            .unwrap();
        let m = verify(store.conn()).unwrap().first_mismatch.unwrap();
        assert_eq!((m.seq, m.entity.as_str(), m.entity_id), (2, "holders", id2));
        assert!(m.reason.contains("differs"), "{}", m.reason);
    }

    #[test]
    fn rows_without_events_are_found() {
        let mut store = Store::in_memory().unwrap();
        holder(&mut store, "111");
        store
            .conn()
            .execute("INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, created_by) VALUES ('CC','9','X','natural','t','u')", [])
            .unwrap();
        let m = verify(store.conn()).unwrap().first_mismatch.unwrap();
        assert_eq!((m.seq, m.entity_id), (0, 2));
    }
}
