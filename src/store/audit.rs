//! The audit trail: one event per write (sequence, UTC time, actor, action, entity, payload),
//! each chained to the previous by SHA-256; its [`Head`]; and `verify`, which in one snapshot
//! recomputes the chain through every signed head ([`Anchor`]), compares every payload with the
//! rows as stored now, and checks coverage, schema and file. Reads no file but the database (the
//! checkpoint log is `checkpoint`'s).

use super::{Result, StoreError, row_json, sha256_hex};
use crate::lang::Said;
use crate::said;
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
    "adjudication_voids",
    "payment_voids",
    "pledge_voids",
    "offers",
    "acceptance_imports",
    "acceptances",
    "offering_runs",
    "offering_outcomes",
    "users",
    "user_passwords",
    "user_disables",
    "user_sign_ins",
    "stage_tranches",
    "proposal_imports",
    "proposals",
    "proposal_bidders",
    "stage_improvements",
    "stage_draws",
    "stage_conclusions",
    "stage_awards",
    "settlements",
    "renderings",
    "notice_deliveries",
    "holder_contacts",
    "letterheads",
    "document_texts",
    "validity_exceptions",
    "external_first_stages",
    "acceptance_figures",
    "audit_checkpoints",
    "acta_files",
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

/// Hashes rows the way [`range_digest`] does: each row's JSON followed by a newline; when made
/// [`RowHasher::located`], also keeps each row's print (`prints`), to name a row changed later.
#[derive(Default)]
pub struct RowHasher {
    hasher: Sha256,
    count: i64,
    prints: Option<super::prints::Prints>,
}

impl RowHasher {
    /// A hasher that also keeps the rows' prints, for [`RowHasher::store_prints`].
    pub fn located() -> RowHasher {
        // a build that measures the prints' cost keeps none (Cargo.toml, `bench-without-prints`)
        if cfg!(feature = "bench-without-prints") {
            return RowHasher::default();
        }
        RowHasher {
            prints: Some(super::prints::Prints::default()),
            ..RowHasher::default()
        }
    }

    /// Stores the prints kept so far as those of the rows of `table` written from id `first`
    /// on (in the write transaction, before the event that covers them: its payload records
    /// their digest).
    pub fn store_prints(&mut self, conn: &Connection, table: &str, first: i64) -> Result<()> {
        match &mut self.prints {
            Some(p) => p.store(conn, table, first),
            None => Ok(()),
        }
    }

    /// Stores the prints of full chunks kept so far ([`super::prints::Prints::store_full`]), as
    /// the rows are written: memory then holds a chunk of prints, not the import's.
    pub fn store_full_prints(&mut self, conn: &Connection, table: &str, first: i64) -> Result<()> {
        match &mut self.prints {
            Some(p) => p.store_full(conn, table, first),
            None => Ok(()),
        }
    }

    pub fn add(&mut self, row_json: &str) {
        self.add_bytes(row_json.as_bytes());
    }

    /// A row written by `bulk::JsonObject::gathering`, whose members' hashes it gathered: hashed
    /// as [`RowHasher::add_bytes`] hashes it, its print made from those hashes.
    pub fn add_members(&mut self, row_json: &[u8], members: &super::prints::Members) {
        self.hasher.update(row_json);
        self.hasher.update(b"\n");
        self.count += 1;
        if let Some(p) = &mut self.prints {
            p.add_members(members);
        }
    }

    pub fn add_bytes(&mut self, row_json: &[u8]) {
        self.hasher.update(row_json);
        self.hasher.update(b"\n");
        self.count += 1;
        if let Some(p) = &mut self.prints {
            p.add(row_json);
        }
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
        let mut cover = json!({"table": c.table, "first": c.first, "last": c.last, "count": count, "sha256": sha});
        // the rows' prints, where the write kept them (`prints`); an empty range has none (the
        // next write of the table starts at the same id)
        if c.last >= c.first
            && let Some((chunks, sha)) = super::prints::digest(conn, c.table, c.first)?
        {
            cover["prints"] = json!({"chunks": chunks, "sha256": sha});
        }
        list.push(cover);
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

/// The head of the chain: how many events there are and the hash of the last one (the genesis
/// hash, all zeros, when there are none). What a checkpoint signs and a notice carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Head {
    pub count: i64,
    pub hash: String,
}

impl Head {
    /// The head of an empty chain.
    pub fn genesis() -> Head {
        Head {
            count: 0,
            hash: GENESIS.to_string(),
        }
    }
}

/// The head of the chain right after the event that recorded row `id` of `entity` (its first
/// event), if there is one: what a document issued in that write carries, and can be checked
/// against the chain and its checkpoints later.
pub fn head_at(conn: &Connection, entity: &str, id: i64) -> Result<Option<Head>> {
    Ok(conn
        .query_row(
            "SELECT seq, hash FROM audit_events WHERE entity = ?1 AND entity_id = ?2 ORDER BY seq LIMIT 1",
            rusqlite::params![entity, id],
            |r| {
                Ok(Head {
                    count: r.get(0)?,
                    hash: r.get(1)?,
                })
            },
        )
        .optional()?)
}

/// The head of the chain as stored now.
pub fn head(conn: &Connection) -> Result<Head> {
    Ok(conn
        .query_row(
            "SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1",
            [],
            |r| {
                Ok(Head {
                    count: r.get(0)?,
                    hash: r.get(1)?,
                })
            },
        )
        .optional()?
        .unwrap_or_else(Head::genesis))
}

/// The last event that is not about a row of `entity` (its sequence number and hash; the genesis
/// head when there is none): e.g. the last change to the register's facts, leaving sign-ins
/// (`user_sign_ins`) out. Every write appends an event in its own transaction, so this changes
/// whenever a row of any other table is written, by any process. Reads back from the chain's end
/// through the events about `entity` that came after.
pub fn head_without(conn: &Connection, entity: &str) -> Result<Head> {
    Ok(conn
        .prepare_cached(
            "SELECT seq, hash FROM audit_events WHERE entity <> ?1 ORDER BY seq DESC LIMIT 1",
        )?
        .query_row(params![entity], |r| {
            Ok(Head {
                count: r.get(0)?,
                hash: r.get(1)?,
            })
        })
        .optional()?
        .unwrap_or_else(Head::genesis))
}

/// A head the chain must still pass through, taken earlier and kept outside the database (a
/// signed checkpoint, once its signature has been checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// What the anchor is, for the report: e.g. "checkpoint 3 (signed 2026-03-16T02:00:00Z)".
    pub name: Said,
    pub head: Head,
}

/// The head of the chain now, once the chain is found to extend `from` (a head signed earlier):
/// the event at `from.count` still has `from`'s hash, and every event after it links to the one
/// before and hashes to what it says. What a new checkpoint may sign (a consistency check, as in
/// Certificate Transparency; the rows are `verify`'s job). Read in one snapshot.
pub fn head_extending(
    conn: &Connection,
    from: &Anchor,
) -> Result<std::result::Result<Head, Mismatch>> {
    // one snapshot: its own read transaction, or the write transaction it is called in
    let own = match conn.is_autocommit() {
        true => Some(conn.unchecked_transaction()?),
        false => None,
    };
    let tx: &Connection = own.as_deref().unwrap_or(conn);
    let start = from.head.count.max(1);
    let mut stmt = tx.prepare(
        "SELECT seq, at, actor, action, entity, entity_id, payload, prev_hash, hash FROM audit_events
         WHERE seq >= ?1 ORDER BY seq",
    )?;
    let mut rows = stmt.query(params![start])?;
    let mut last = Head::genesis();
    let mut expected = start;
    while let Some(r) = rows.next()? {
        let e = Event::from_row(r)?;
        let broken = if e.seq != expected {
            Some(said!(store::event_missing, expected))
        } else if e.seq == from.head.count && e.hash != from.head.hash {
            let seq = e.seq;
            Some(said!(store::event_not_one_signed, seq))
        } else if e.seq > from.head.count.max(1) && e.prev_hash != last.hash
            || e.seq == 1 && e.prev_hash != GENESIS
        {
            let seq = e.seq;
            Some(said!(store::event_s_link_event_before_broken, seq))
        } else if chain_hash(&e) != e.hash {
            let seq = e.seq;
            Some(said!(store::event_was_altered, seq))
        } else {
            None
        };
        if let Some(why) = broken {
            return Ok(Err(anchor_mismatch(from, why)));
        }
        last = Head {
            count: e.seq,
            hash: e.hash,
        };
        expected += 1;
    }
    drop(rows);
    drop(stmt);
    if last.count < from.head.count {
        let now = head(tx)?.count;
        return Ok(Err(anchor_mismatch(
            from,
            said!(store::chain_now_has_events_events_were, now),
        )));
    }
    Ok(Ok(last))
}

/// Where `verify` found something wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Place {
    /// An event: its chain link, its hash, or the rows it recorded.
    Event {
        seq: i64,
        entity: String,
        entity_id: i64,
    },
    /// A row no event covers.
    Row { entity: String, entity_id: i64 },
    /// A head taken earlier that the chain no longer passes through.
    Anchor {
        #[serde(serialize_with = "in_english")]
        name: Said,
    },
}

/// The first thing `verify` found wrong in the chain and the rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub place: Place,
    /// What is wrong there (serialized in English, the machine formats' language).
    #[serde(serialize_with = "in_english")]
    pub reason: Said,
    /// The row (and column) of a bulk write found changed, where its prints name it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub located: Option<super::prints::Located>,
}

/// A reason in the machine formats: its English sentence.
fn in_english<S: serde::Serializer>(reason: &Said, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(reason.en())
}

/// Reasons in the machine formats: their English sentences.
fn all_in_english<S: serde::Serializer>(
    reasons: &[Said],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(reasons.iter().map(Said::en))
}

/// Result of a verification. Intact when all three are empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    pub events: i64,
    /// The head the chain was verified at (one snapshot: later writes are not part of it).
    pub head: Head,
    pub first_mismatch: Option<Mismatch>,
    /// How the tables, indexes and triggers differ from what the migrations create.
    #[serde(serialize_with = "all_in_english")]
    pub schema: Vec<Said>,
    /// What SQLite's `quick_check` found wrong in the file (empty when it says ok).
    pub storage: Vec<String>,
}

impl Verification {
    pub fn intact(&self) -> bool {
        self.first_mismatch.is_none() && self.schema.is_empty() && self.storage.is_empty()
    }
}

/// [`verify_against`] with no anchors.
pub fn verify(conn: &Connection) -> Result<Verification> {
    verify_against(conn, &[])
}

/// Verifies the register in one read transaction (one snapshot, whatever is written meanwhile):
/// SQLite's `quick_check` of the file; the schema against the migrations; the chain (each link and
/// hash recomputed, each payload compared with the rows it covers now, the chain passing through
/// every anchor's head); then that every row of the audited tables is covered by an event. The
/// chain and rows stop at the first mismatch.
pub fn verify_against(conn: &Connection, anchors: &[Anchor]) -> Result<Verification> {
    // Deferred: the snapshot is taken at the first read below and held to the end.
    let tx = conn.unchecked_transaction()?;
    let storage = quick_check(&tx)?;
    let schema = super::schema_differences(&tx)?;
    let head = head(&tx)?;
    let first_mismatch = chain_and_rows(&tx, anchors)?;
    drop(tx); // read only: the rollback ends the snapshot
    Ok(Verification {
        events: head.count,
        head,
        first_mismatch,
        schema,
        storage,
    })
}

/// SQLite's own check of the file's structure; empty when it says "ok".
fn quick_check(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare("PRAGMA quick_check")?;
    let found = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(if found == ["ok"] { Vec::new() } else { found })
}

fn chain_and_rows(conn: &Connection, anchors: &[Anchor]) -> Result<Option<Mismatch>> {
    let mut prev = GENESIS.to_string();
    // table -> covered (first, last) ranges
    let mut covered: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
    let mut first_mismatch: Option<Mismatch> = None;
    let mut expected_seq = 0i64;
    for a in anchors.iter().filter(|a| a.head.count == 0) {
        if a.head.hash != GENESIS {
            return Ok(Some(anchor_mismatch(
                a,
                said!(store::signed_empty_chain_with_non_zero),
            )));
        }
    }
    // events are read one at a time: the trail of a large register does not fit in memory
    each_event::<StoreError>(conn, None, None, |event| {
        expected_seq += 1;
        let e = &event;
        let at = Place::Event {
            seq: e.seq,
            entity: e.entity.clone(),
            entity_id: e.entity_id,
        };
        let mismatch = |reason: Said| Mismatch {
            place: at.clone(),
            reason,
            located: None,
        };
        let found = if e.seq != expected_seq {
            let (from, to) = (expected_seq - 1, e.seq);
            Some(mismatch(said!(
                store::sequence_jumps_from_events_were_removed,
                from,
                to
            )))
        } else if e.prev_hash != prev {
            Some(mismatch(said!(store::previous_hash_link_does_not_match)))
        } else if chain_hash(e) != e.hash {
            Some(mismatch(said!(store::hash_does_not_match_contents_event)))
        } else if let Some(a) = anchors
            .iter()
            .find(|a| a.head.count == e.seq && a.head.hash != e.hash)
        {
            let seq = e.seq;
            Some(anchor_mismatch(
                a,
                said!(store::event_not_one_signed_chain_was, seq),
            ))
        } else {
            payload_mismatch(conn, e, &mut covered)?.map(|(reason, located)| Mismatch {
                located,
                ..mismatch(reason)
            })
        };
        if found.is_some() {
            first_mismatch = found;
            return Ok(ControlFlow::Break(()));
        }
        prev = event.hash;
        Ok(ControlFlow::Continue(()))
    })?;
    if first_mismatch.is_some() {
        return Ok(first_mismatch);
    }
    if let Some(a) = anchors.iter().find(|a| a.head.count > expected_seq) {
        let signed = a.head.count;
        return Ok(Some(anchor_mismatch(
            a,
            said!(
                store::signed_events_chain_now_has_events,
                signed,
                expected_seq
            ),
        )));
    }
    for table in AUDITED {
        let ranges = merged(covered.remove(*table).unwrap_or_default());
        if let Some(id) = first_uncovered(conn, table, &ranges)? {
            return Ok(Some(Mismatch {
                place: Place::Row {
                    entity: table.to_string(),
                    entity_id: id,
                },
                reason: said!(store::row_has_no_audit_event_was, table, id),
                located: None,
            }));
        }
    }
    Ok(None)
}

fn anchor_mismatch(a: &Anchor, why: Said) -> Mismatch {
    let (count, hash) = (a.head.count, &a.head.hash[..a.head.hash.len().min(12)]);
    let (en, es) = (why.en(), why.es());
    Mismatch {
        place: Place::Anchor {
            name: a.name.clone(),
        },
        reason: said!(
            store::chain_no_longer_passes_through_head,
            count,
            hash,
            en,
            es
        ),
        located: None,
    }
}

/// Compares an event's payload with the rows it covers as stored now, recording what it covers:
/// what differs, and the row and column of a bulk write that its prints name.
fn payload_mismatch(
    conn: &Connection,
    e: &Event,
    covered: &mut BTreeMap<String, Vec<(i64, i64)>>,
) -> Result<Option<(Said, Option<super::prints::Located>)>> {
    let recorded: Value = serde_json::from_str(&e.payload).unwrap_or(Value::Null);
    let covers: Vec<Cover> = recorded
        .get("covers")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|c| {
                    let table = AUDITED.iter().find(|t| Some(**t) == c["table"].as_str())?;
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
    let row_of = |v: &Value| {
        v.get("covers")
            .map(|_| v["row"].clone())
            .unwrap_or(v.clone())
    };
    Ok(if now == recorded {
        None
    } else if now.get("covers").is_some() && now["row"] == recorded["row"] {
        let ranges: Vec<_> = covers.iter().map(|c| (c.table, c.first, c.last)).collect();
        let (located, reprinted) =
            super::prints::locate_in_covers(conn, &ranges, &recorded["covers"], &now["covers"])?;
        let reason = match &located {
            Some(l) => {
                let row = l.said();
                let (en, es) = (row.en(), row.es());
                said!(store::rows_written_with_no_longer_match, en, es)
            }
            None => {
                let (ranges, rangos): (Vec<_>, Vec<_>) = covers
                    .iter()
                    .map(|c| {
                        let (table, first, last) = (c.table, c.first, c.last);
                        let tabla = crate::headers::table_es(table);
                        (
                            format!("{table} {first}..{last}"),
                            format!("{tabla} ({table}) {first} a {last}"),
                        )
                    })
                    .unzip();
                let (ranges, rangos) = (ranges.join(", "), rangos.join(", "));
                let tables = reprinted.join(", ");
                let tablas = reprinted
                    .iter()
                    .map(|t| format!("{} ({t})", crate::headers::table_es(t)))
                    .collect::<Vec<_>>()
                    .join(", ");
                let (also_en, also_es) = match reprinted.is_empty() {
                    true => (String::new(), String::new()),
                    false => (
                        format!("; the prints kept of the rows of {tables} were changed too"),
                        format!(
                            "; también se cambiaron las huellas guardadas de las filas de {tablas}"
                        ),
                    ),
                };
                said!(
                    store::rows_written_with_no_longer_match_2,
                    ranges,
                    rangos,
                    also_en,
                    also_es
                )
            }
        };
        return Ok(Some((reason, located)));
    } else if row_of(&now).is_null() {
        let (table, id) = (&e.entity, e.entity_id);
        Some(said!(store::row_no_longer_exists, table, id))
    } else {
        let (table, id, now, then) = (&e.entity, e.entity_id, row_of(&now), row_of(&recorded));
        Some(said!(
            store::row_differs_from_what_was_recorded,
            table,
            id,
            now,
            then
        ))
    }
    .map(|reason| (reason, None)))
}

/// The ranges sorted and merged where they overlap or touch, so that no id is counted twice (an
/// event that names its first row and covers first..last covers that row once).
fn merged(mut ranges: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    ranges.sort();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match out.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// The first id of `table` outside the disjoint `ranges`, if any. The rows inside each range are
/// counted by the primary key; only when they do not add up to the table's count are the ids
/// walked to name the one outside.
fn first_uncovered(conn: &Connection, table: &str, ranges: &[(i64, i64)]) -> Result<Option<i64>> {
    let rows: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
    let mut inside = 0i64;
    {
        let mut stmt = conn.prepare(&format!(
            "SELECT count(*) FROM {table} WHERE id BETWEEN ?1 AND ?2"
        ))?;
        for (a, b) in ranges {
            inside += stmt.query_row(params![a, b], |r| r.get::<_, i64>(0))?;
        }
    }
    if inside == rows {
        return Ok(None);
    }
    let mut stmt = conn.prepare(&format!("SELECT id FROM {table} ORDER BY id"))?;
    let mut ids = stmt.query([])?;
    let mut next = ranges.iter().peekable();
    while let Some(r) = ids.next()? {
        let id: i64 = r.get(0)?;
        while next.peek().is_some_and(|(_, b)| *b < id) {
            next.next();
        }
        if next.peek().is_none_or(|(a, _)| *a > id) {
            return Ok(Some(id));
        }
    }
    Ok(None)
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
                    crate::store::Action::HolderCreate,
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
    fn the_head_without_an_entity_skips_its_events_at_the_end() {
        let mut store = Store::in_memory().unwrap();
        assert_eq!(
            head_without(store.conn(), "user_sign_ins").unwrap(),
            Head::genesis()
        );
        holder(&mut store, "111");
        let facts = head(store.conn()).unwrap();
        assert_eq!(facts.count, 1);
        store
            .write("admin", |tx| {
                let user = tx.insert(
                    "users",
                    crate::store::Action::UserAdd,
                    &[("name", &"ana"), ("role", &"oficial")],
                )?;
                tx.insert(
                    "user_sign_ins",
                    crate::store::Action::UserSignIn,
                    &[("user_id", &user), ("succeeded", &true)],
                )
            })
            .unwrap();
        // the account is a fact; its sign-in is not
        let with_user = head(store.conn()).unwrap();
        assert_eq!(with_user.count, 3);
        let without = head_without(store.conn(), "user_sign_ins").unwrap();
        assert_eq!(without.count, 2);
        assert_ne!(without, facts);
        let plan: String = store
            .conn()
            .query_row(
                "EXPLAIN QUERY PLAN SELECT seq, hash FROM audit_events WHERE entity <> ?1 ORDER BY seq DESC LIMIT 1",
                ["user_sign_ins"],
                |r| r.get(3),
            )
            .unwrap();
        assert_eq!(plan, "SCAN audit_events", "read back from the end by seq");
    }

    #[test]
    fn chain_verifies_and_names_the_first_tampered_event() {
        let mut store = Store::in_memory().unwrap();
        holder(&mut store, "111");
        let id2 = holder(&mut store, "222");
        holder(&mut store, "333");
        let v = verify(store.conn()).unwrap();
        assert!(v.intact(), "{v:?}");
        assert_eq!(v.events, 3);
        assert_eq!(v.head, head(store.conn()).unwrap());
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
        let v = verify(store.conn()).unwrap();
        let m = v.first_mismatch.unwrap();
        assert_eq!(
            m.place,
            Place::Event {
                seq: 2,
                entity: "holders".into(),
                entity_id: id2
            }
        );
        assert!(m.reason.en().contains("differs"), "{}", m.reason);
        // and the dropped trigger is named
        assert_eq!(
            v.schema.iter().map(Said::en).collect::<Vec<_>>(),
            ["trigger holders_no_update is missing"]
        );
        assert_eq!(v.schema[0].es(), "falta el disparador holders_no_update");
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
        assert_eq!(
            m.place,
            Place::Row {
                entity: "holders".into(),
                entity_id: 2
            }
        );
    }
}
