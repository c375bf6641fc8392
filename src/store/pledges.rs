//! Pledges of adjudicated shares to the sellers (Art. 10): reading them (with their voids),
//! storing one, releasing one, voiding one, and the bulk writer of a file of them. The rules a
//! new pledge must meet are the register's (`register::pledge`): the bulk writer asks its
//! caller's rules for every row (which adjudication a holder's document names, and whether the
//! pledge is new, already registered, or refused).

use super::audit::{Cover, RowHasher};
use super::breaches::Void;
use super::bulk::{Insert, JsonObject, Param, Short, stored_shares};
use super::columns::{Cols, Shares};
use super::import::{PriorImport, Unchanged, prior_import};
use super::voided::IdSet;
use super::{Result, StoreError, Tx};
use crate::ids::DocType;
use crate::import::{PledgeOf, Remedy, RowError};
use crate::lang::Said;
use crate::said;
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pledge {
    pub id: i64,
    pub adjudication_id: i64,
    pub rank: u8,
    pub beneficiary: String,
    pub shares: u64,
    pub lender: Option<String>,
    pub registered_on: NaiveDate,
    pub released_on: Option<NaiveDate>,
    /// Registered by mistake: it stays on record, and no rule or figure counts it.
    pub void: Option<Void>,
}

const SELECT: &str = "SELECT p.id, p.adjudication_id, p.rank, p.beneficiary, p.shares, p.lender, p.registered_on, r.released_on,
        v.reason, v.created_at, v.created_by
    FROM pledges p LEFT JOIN pledge_releases r ON r.pledge_id = p.id LEFT JOIN pledge_voids v ON v.pledge_id = p.id";

/// Pledges on an adjudication as the register held them when a document was recorded: at audit
/// event `seq`, time `at` (its `created_at`). A pledge, release or void counts when its own
/// audit event comes before `seq`; one written in bulk (an import, a release of every releasable
/// pledge: one event for many rows) when it was recorded by `at`. A document is rebuilt from
/// these, so a pledge recorded after it never changes its text (`notice verify`).
pub fn list_as_of(
    conn: &Connection,
    adjudication_id: i64,
    at: &str,
    seq: i64,
) -> Result<Vec<Pledge>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.adjudication_id, p.rank, p.beneficiary, p.shares, p.lender, p.registered_on, r.released_on,
                v.reason, v.created_at, v.created_by
            FROM pledges p
            LEFT JOIN pledge_releases r ON r.pledge_id = p.id AND COALESCE(
                (SELECT e.seq FROM audit_events e WHERE e.entity = 'pledge_releases' AND e.entity_id = r.id),
                CASE WHEN r.created_at <= ?2 THEN 0 END) < ?3
            LEFT JOIN pledge_voids v ON v.pledge_id = p.id AND COALESCE(
                (SELECT e.seq FROM audit_events e WHERE e.entity = 'pledge_voids' AND e.entity_id = v.id),
                CASE WHEN v.created_at <= ?2 THEN 0 END) < ?3
            WHERE p.adjudication_id = ?1 AND COALESCE(
                (SELECT e.seq FROM audit_events e WHERE e.entity = 'pledges' AND e.entity_id = p.id),
                CASE WHEN p.created_at <= ?2 THEN 0 END) < ?3
            ORDER BY p.id",
    )?;
    let rows = stmt.query_map(params![adjudication_id, at, seq], Pledge::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Pledges on an adjudication, released and voided ones included.
pub fn list(conn: &Connection, adjudication_id: i64) -> Result<Vec<Pledge>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE p.adjudication_id = ?1 ORDER BY p.id"
    ))?;
    let rows = stmt.query_map(params![adjudication_id], Pledge::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One pledge, with its release and its void.
pub fn get(conn: &Connection, id: i64) -> Result<Pledge> {
    conn.prepare_cached(&format!("{SELECT} WHERE p.id = ?1"))?
        .query_row(params![id], Pledge::from_row)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "pledge",
            id: id.to_string(),
        })
}

/// Voids a pledge registered by mistake (the register has checked that it may be voided).
pub fn void(tx: &mut Tx<'_>, pledge_id: i64, reason: &str) -> Result<i64> {
    tx.insert(
        "pledge_voids",
        crate::store::Action::PledgeVoid,
        &[("pledge_id", &pledge_id), ("reason", &reason)],
    )
}

impl Pledge {
    /// A row of [`SELECT`]: the pledge's columns, its release's date, then its void's.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Pledge> {
        let c = Cols::new(r, "pledges");
        Ok(Pledge {
            id: c.get(0)?,
            adjudication_id: c.get(1)?,
            rank: c.get(2)?,
            beneficiary: c.get(3)?,
            shares: c.shares(4)?,
            lender: c.get(5)?,
            registered_on: c.date(6)?,
            released_on: Cols::new(r, "pledge_releases").opt_date(7)?,
            void: Void::from_row(r, "pledge_voids", 8)?,
        })
    }
}

/// A pledge in force on an adjudication.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InForce {
    pub id: i64,
    pub rank: u8,
    /// The shares it covers (Art. 10: a lender's financed shares may carry one pledge, the rest
    /// another).
    pub shares: u64,
    pub registered_on: NaiveDate,
    /// The line of the file being imported that wrote it, when the import in progress did.
    pub line: Option<u32>,
}

/// A pledge registered (not void) on an adjudication, as a new one is compared with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Existing {
    pub id: i64,
    pub rank: u8,
    pub shares: u64,
    pub registered_on: NaiveDate,
    pub lender: Option<String>,
    /// The line of the file being imported that wrote it, when the import in progress did.
    pub line: Option<u32>,
}

/// What Art. 10's rules look at for a new pledge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate<'a> {
    pub adjudication_id: i64,
    /// The adjudication was voided.
    pub adjudication_void: bool,
    pub adjudicated_on: NaiveDate,
    /// The adjudication's shares.
    pub adjudicated: u64,
    /// The lender that financed the adjudication, if any.
    pub financed_by: Option<&'a str>,
    /// How many of its shares the lender financed (0 when not recorded).
    pub financed_shares: u64,
    pub rank: u8,
    pub registered_on: NaiveDate,
    /// The lender named for the pledge, if any.
    pub lender: Option<&'a str>,
    /// The shares the new pledge covers, when given (otherwise every share no pledge in force
    /// covers).
    pub shares: Option<u64>,
    /// The pledges already in force on the adjudication, in id order.
    pub in_force: &'a [InForce],
    /// Every pledge registered on the adjudication (not void, released ones included).
    pub registered: &'a [Existing],
}

/// What the rules make of a new pledge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A new pledge of these shares, recording this lender.
    New { lender: Option<String>, shares: u64 },
    /// The same pledge (rank, date, lender, and shares when given) is already registered:
    /// nothing to add.
    Unchanged { pledge_id: i64 },
}

/// The pledges registered on an adjudication (not void), released ones included, in id order,
/// and those in force (not released), in id order.
pub fn registered(
    conn: &Connection,
    adjudication_id: i64,
) -> Result<(Vec<Existing>, Vec<InForce>)> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.rank, p.registered_on, p.lender, p.shares,
                EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id)
         FROM pledges p
         WHERE p.adjudication_id = ?1 AND NOT EXISTS (SELECT 1 FROM pledge_voids v WHERE v.pledge_id = p.id)
         ORDER BY p.id",
    )?;
    let mut rows = stmt.query(params![adjudication_id])?;
    let (mut all, mut in_force) = (Vec::new(), Vec::new());
    while let Some(r) = rows.next()? {
        let c = Cols::new(r, "pledges");
        let e = Existing {
            id: c.get(0)?,
            rank: c.get(1)?,
            shares: c.shares(4)?,
            registered_on: c.date(2)?,
            lender: c.get(3)?,
            line: None,
        };
        if !c.get::<bool>(5)? {
            in_force.push(InForce {
                id: e.id,
                rank: e.rank,
                shares: e.shares,
                registered_on: e.registered_on,
                line: None,
            });
        }
        all.push(e);
    }
    Ok((all, in_force))
}

/// An adjudication (not void) a holder's document names in a pledge file: its id, program code
/// and date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub adjudication_id: i64,
    pub program: String,
    pub adjudicated_on: NaiveDate,
}

/// The adjudications (not void) of the holder a row of a pledge file names by document, narrowed
/// to the row's adjudication date and program when it gives them.
fn named(
    stmt: &mut rusqlite::Statement<'_>,
    doc_type: DocType,
    doc_number: &str,
    adjudicated_on: Option<NaiveDate>,
    program: Option<&str>,
) -> Result<Vec<Named>> {
    let rows = stmt.query_map(
        params![
            doc_type.as_str(),
            doc_number,
            adjudicated_on.map(|d| d.to_string()),
            program
        ],
        |r| {
            let c = Cols::new(r, "adjudications");
            Ok(Named {
                adjudication_id: c.get(0)?,
                program: c.get(1)?,
                adjudicated_on: c.date(2)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Rows of a pledge file judged together, their adjudications read in one range.
const READ_AHEAD: usize = 256;

/// Pledges stored per INSERT statement (6 values each, after the 2 they share).
const ROWS_PER_INSERT: usize = 64;

/// The register's rules a pledge file's rows are judged by (see `register::pledge`).
pub trait ImportRules {
    /// Which adjudication a row naming its holder by document pledges, among the holder's
    /// adjudications `found` (narrowed to the row's date and program); or the row's problem,
    /// without its line.
    fn which(&mut self, of: &PledgeOf, found: &[Named]) -> std::result::Result<i64, RowError>;
    /// What a row makes of its adjudication's pledges; or the row's problem, without its line.
    fn judge(&mut self, c: &Candidate<'_>) -> std::result::Result<Verdict, RowError>;
}

/// What a new pledge says (the register has checked it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPledge<'a> {
    pub adjudication_id: i64,
    pub rank: u8,
    pub beneficiary: &'a str,
    pub shares: u64,
    pub lender: Option<&'a str>,
    pub registered_on: NaiveDate,
}

/// Stores the pledge of an adjudication's shares to the sellers.
pub fn insert(tx: &mut Tx<'_>, p: &NewPledge<'_>) -> Result<i64> {
    tx.insert(
        "pledges",
        crate::store::Action::PledgeRegister,
        &[
            ("adjudication_id", &p.adjudication_id),
            ("rank", &i64::from(p.rank)),
            ("beneficiary", &p.beneficiary),
            ("shares", &Shares(p.shares)),
            ("lender", &p.lender),
            ("registered_on", &p.registered_on.to_string()),
        ],
    )
}

/// A pledge of the file, judged new, on its way to the bulk writer.
struct NewRow {
    line: usize,
    adjudication_id: i64,
    rank: u8,
    /// The sellers of its program.
    beneficiary: Arc<str>,
    shares: u64,
    lender: Option<String>,
    registered_on: Short,
}

/// Pledges stored, on their way to the hashing thread: the first one's id, then the rest's in
/// order.
type Stored = (i64, Vec<NewRow>);

/// Pledges sent to the hashing thread at a time.
const HASH_BATCH: usize = 1024;

/// Hashes stored pledges in their audited form (see [`super::json_of_row`]), in id order, on a
/// thread of their own, with each one's print (`prints`): one changed later is named by `audit
/// verify`.
fn hash_pledges(now: &str, actor: &str, batches: std::sync::mpsc::Receiver<Stored>) -> RowHasher {
    let (mut hasher, mut json) = (RowHasher::located(), Vec::with_capacity(256));
    let mut members = super::prints::Members::default();
    for (first, rows) in batches {
        for (id, r) in (first..).zip(&rows) {
            let mut o = JsonObject::gathering(&mut json, &mut members);
            o.int("id", id);
            o.int("adjudication_id", r.adjudication_id);
            o.int("rank", r.rank);
            o.text("beneficiary", Some(&r.beneficiary));
            o.int("shares", r.shares);
            o.text("lender", r.lender.as_deref());
            o.text("registered_on", Some(r.registered_on.as_str()));
            o.text("created_at", Some(now));
            o.text("created_by", Some(actor));
            o.end();
            hasher.add_members(&json, &members);
        }
    }
    hasher
}

/// `OR FAIL`: see `import::INSERT_HOLDERS` (no statement journal; an error rolls the whole
/// import back).
const INSERT_PLEDGES: &str = "INSERT OR FAIL INTO pledges (adjudication_id, rank, beneficiary, shares, lender, registered_on, \
     created_at, created_by) VALUES";
/// Shared: `?1` now, `?2` actor.
const PLEDGE_ROW: &str = "($1, $2, $3, $4, $5, $6, ?1, ?2)";

/// Pledges stored in groups through the bulk writer, then sent to be hashed in their audited
/// form ([`hash_pledges`]).
struct PledgeWriter<'c> {
    conn: &'c Connection,
    insert: Insert<'c>,
    pending: Vec<NewRow>,
    /// The adjudications of the pending rows.
    pending_ids: IdSet,
    /// The beneficiary of each program's pledges (the sellers).
    beneficiaries: std::collections::HashMap<i64, Arc<str>>,
    first_id: i64,
    last_id: i64,
    /// The file line of each pledge written, by id - first_id (to name a repeated adjudication).
    lines: Vec<u32>,
    /// Stored, not yet sent to be hashed (the first one's id, and the pledges).
    done: Stored,
    to_hasher: std::sync::mpsc::SyncSender<Stored>,
}

impl PledgeWriter<'_> {
    /// The beneficiary of the pledges of `program_id`'s adjudications (its sellers).
    fn beneficiary(&mut self, program_id: i64) -> Result<Arc<str>> {
        if let Some(b) = self.beneficiaries.get(&program_id) {
            return Ok(Arc::clone(b));
        }
        let p = super::programs::by_id(self.conn, program_id)?;
        let b: Arc<str> = p.program.pledge_beneficiary().into();
        self.beneficiaries.insert(program_id, Arc::clone(&b));
        Ok(b)
    }

    fn add(&mut self, row: NewRow) -> Result<()> {
        self.pending_ids.insert(row.adjudication_id);
        self.pending.push(row);
        if self.pending.len() == self.insert.rows() {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.insert.insert(&self.pending, |r, b| {
            b.value(r.adjudication_id)?;
            b.same(Param::Int(i64::from(r.rank)))?;
            b.same(Param::Text(&r.beneficiary))?;
            b.same(Param::Int(stored_shares(r.shares)?))?;
            b.same(Param::from(r.lender.as_deref()))?;
            b.same(Param::Text(r.registered_on.as_str()))
        })?;
        let ids = (&mut self.first_id, &mut self.last_id);
        let first = super::bulk::follow_on(self.conn, self.pending.len(), ids, "pledges")?;
        self.lines
            .extend(self.pending.iter().map(|r| r.line as u32));
        for r in &self.pending {
            self.pending_ids.remove(r.adjudication_id);
        }
        if self.done.1.is_empty() {
            self.done.0 = first;
        }
        self.done.1.append(&mut self.pending);
        if self.done.1.len() >= HASH_BATCH {
            self.send()?;
        }
        Ok(())
    }

    /// Sends the pledges stored to the hashing thread.
    fn send(&mut self) -> Result<()> {
        let batch = std::mem::replace(&mut self.done, (0, Vec::with_capacity(HASH_BATCH)));
        self.to_hasher
            .send(batch)
            .map_err(|_| StoreError::Corrupt("the hashing thread stopped".into()))
    }

    /// Stores what is left and sends it to be hashed (dropping the channel, which ends the
    /// hashing thread): the first and last ids written.
    fn finish(mut self) -> Result<(i64, i64)> {
        self.flush()?;
        if !self.done.1.is_empty() {
            self.send()?;
        }
        Ok((self.first_id, self.last_id))
    }

    /// The line of this file that wrote pledge `id`, when this import did.
    fn line_of(&self, id: i64) -> Option<u32> {
        (self.first_id > 0 && id >= self.first_id)
            .then(|| self.lines[(id - self.first_id) as usize])
    }
}

/// What the rules need of the adjudication a pledge file names, not [`super::adjudications::get`]
/// (which also parses the price and reads the holder's name and the program's code: 18 % slower
/// over 900,000 rows).
struct Pledgeable {
    void: bool,
    program_id: i64,
    shares: u64,
    adjudicated_on: NaiveDate,
    financed_by: Option<String>,
    financed_shares: u64,
    /// Its holder's document; `None` when read without it (no row of the group names one).
    document: Option<(DocType, String)>,
}

impl Pledgeable {
    /// program_id, shares, adjudicated_on, lender of the adjudication; doc_type, doc_number of
    /// its holder; whether it is void; the shares the lender financed.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Pledgeable> {
        if let Some(p) = Pledgeable::plain(r)? {
            return Ok(p);
        }
        let (a, h) = (Cols::new(r, "adjudications"), Cols::new(r, "holders"));
        Ok(Pledgeable {
            program_id: a.get(0)?,
            shares: a.shares(1)?,
            adjudicated_on: a.date(2)?,
            financed_by: a.get(3)?,
            document: match (h.get::<Option<DocType>>(4)?, h.get::<Option<String>>(5)?) {
                (Some(t), Some(n)) => Some((t, n)),
                _ => None,
            },
            void: a.get(6)?,
            financed_shares: a.shares(7)?,
        })
    }
}

impl Pledgeable {
    /// [`Pledgeable::from_row`]'s common case, read straight from the stored values (900,000
    /// rows of a national pledge file pass here; through [`Cols`] each value took a conversion
    /// and an error mapping of its own, 11 % of the storing thread): integers, an ISO date, a
    /// lender or none, and no holder's document. `None` for anything else (a document, a NULL
    /// or a type where it should not be, a value that does not convert), which `from_row` then
    /// reads through [`Cols`] to name what is wrong.
    fn plain(r: &Row<'_>) -> rusqlite::Result<Option<Pledgeable>> {
        use rusqlite::types::ValueRef::{Integer, Null, Text};
        let (
            Integer(program_id),
            Integer(shares),
            Text(on),
            Null,
            Integer(void),
            Integer(financed),
        ) = (
            r.get_ref(0)?,
            r.get_ref(1)?,
            r.get_ref(2)?,
            r.get_ref(4)?,
            r.get_ref(6)?,
            r.get_ref(7)?,
        )
        else {
            return Ok(None);
        };
        let (Ok(shares), Ok(financed_shares)) = (u64::try_from(shares), u64::try_from(financed))
        else {
            return Ok(None);
        };
        let Some(adjudicated_on) = std::str::from_utf8(on)
            .ok()
            .and_then(crate::calendar::parse_iso)
        else {
            return Ok(None);
        };
        let financed_by = match r.get_ref(3)? {
            Null => None,
            Text(t) => match std::str::from_utf8(t) {
                Ok(lender) => Some(lender.to_string()),
                Err(_) => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(Some(Pledgeable {
            void: void != 0,
            program_id,
            shares,
            adjudicated_on,
            financed_by,
            financed_shares,
            document: None,
        }))
    }
}

/// The adjudications a group of rows names, read in one range, by id from the range's first.
#[derive(Default)]
struct ReadAhead {
    lo: i64,
    rows: Vec<Option<Pledgeable>>,
}

impl ReadAhead {
    /// Empty, for a range starting at `lo`.
    fn clear(&mut self, lo: i64) {
        self.rows.clear();
        self.lo = lo;
    }

    fn insert(&mut self, id: i64, p: Pledgeable) {
        if let Ok(at) = usize::try_from(id - self.lo) {
            if self.rows.len() <= at {
                self.rows.resize_with(at + 1, || None);
            }
            self.rows[at] = Some(p);
        }
    }

    fn remove(&mut self, id: i64) -> Option<Pledgeable> {
        let at = usize::try_from(id.checked_sub(self.lo)?).ok()?;
        self.rows.get_mut(at)?.take()
    }
}

/// What a pledge import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PledgesImported {
    /// `pledges` new pledges (ids `first_id..=last_id`, both 0 when none).
    Added {
        import_id: i64,
        pledges: usize,
        first_id: i64,
        last_id: i64,
        /// Rows whose pledge was already registered: (line, pledge id) of the first few.
        unchanged: Unchanged,
    },
    /// The same file was imported before: nothing added.
    AlreadyImported(PriorImport),
}

/// Registers the pledges of a file (see [`crate::import::each_pledge`]) in the caller's
/// transaction, each row judged by `rules` (which adjudication a holder's document names; then
/// a new pledge with the lender it records, the same pledge already registered, or the row's
/// problem without its line; a pledge earlier in the file counts as registered), to the sellers
/// of its adjudication's program. Refuses (the caller's transaction then writes nothing) with
/// every problem found, each naming its line. One audit event covers the whole import.
pub fn import(
    tx: &mut Tx<'_>,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    rules: &mut dyn ImportRules,
    feed: impl FnOnce(&mut dyn FnMut(crate::import::PledgeRow) -> Result<()>) -> Result<Vec<RowError>>,
) -> Result<PledgesImported> {
    if let Some(prior) = prior_import(tx.conn(), "pledge_imports", sha256, None)? {
        return Ok(PledgesImported::AlreadyImported(prior));
    }
    let import_id = tx.insert_unaudited(
        "pledge_imports",
        &[
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ],
    )?;
    let mut problems = Vec::new();
    let mut unchanged = Unchanged::default();
    let (now, actor) = (tx.now(), tx.actor());
    let conn = tx.conn();
    let stored = std::thread::scope(|scope| -> Result<_> {
        let (to_hasher, batches) = std::sync::mpsc::sync_channel::<Stored>(4);
        let hashing = scope.spawn(move || hash_pledges(now, actor, batches));
        // SQLite's foreign-key checks off while the pledges are stored (before their INSERT is
        // prepared: see [`super::bulk::FkOff`]): a pledge is written only for an adjudication
        // read just before, in this transaction (`Pledgeable`)
        let mut fk = super::bulk::FkOff::new(conn)?;
        let mut writer = PledgeWriter {
            conn,
            insert: Insert::new(
                conn,
                (INSERT_PLEDGES, PLEDGE_ROW, ""),
                6,
                vec![Value::Text(now.to_string()), Value::Text(actor.to_string())],
                ROWS_PER_INSERT,
            )?,
            pending: Vec::with_capacity(ROWS_PER_INSERT),
            pending_ids: Default::default(),
            beneficiaries: Default::default(),
            first_id: 0,
            last_id: 0,
            lines: Vec::new(),
            done: (0, Vec::with_capacity(HASH_BATCH)),
            to_hasher,
        };
        // the adjudications with a pledge of any kind on record: only theirs are looked up (and
        // those this import pledges, added as it goes)
        let mut pledged = IdSet::default();
        {
            let mut stmt = conn.prepare("SELECT DISTINCT adjudication_id FROM pledges")?;
            let mut ids = stmt.query([])?;
            while let Some(r) = ids.next()? {
                pledged.insert(r.get(0)?);
            }
        }
        let file_problems = {
            // what the rules need of each adjudication (see `Pledgeable`)
            let mut adjudication = conn.prepare(
            "SELECT a.program_id, a.shares, a.adjudicated_on, a.lender, h.doc_type, h.doc_number,
                    EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id),
                    a.financed_shares
             FROM adjudications a JOIN holders h ON h.id = a.holder_id WHERE a.id = ?1",
        )?;
            // the adjudications a holder's document names (through the holders' unique index and
            // the adjudications' index on the holder)
            let mut by_document = conn.prepare(
            "SELECT a.id, p.code, a.adjudicated_on
             FROM holders h JOIN adjudications a ON a.holder_id = h.id JOIN programs p ON p.id = a.program_id
             WHERE h.doc_type = ?1 AND h.doc_number = ?2
               AND (?3 IS NULL OR a.adjudicated_on = ?3) AND (?4 IS NULL OR p.code = ?4)
               AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)
             ORDER BY a.id",
        )?;
            // the adjudications a group of rows names by id, read in one range when they are close
            // together (a file in the register's order), else one at a time; the holder's
            // document only for a group in which a row names one (a lookup in the holders' table
            // a row saved otherwise)
            // (whether each is void from the set read once, not a subquery a row)
            let range_sql = |document: &str, from: &str| {
                format!(
                    "SELECT a.program_id, a.shares, a.adjudicated_on, a.lender, {document},
                        0, a.financed_shares, a.id
                     FROM {from} WHERE a.id BETWEEN ?1 AND ?2"
                )
            };
            let voided = super::voided::adjudications(conn)?;
            let mut in_range = conn.prepare(&range_sql(
                "h.doc_type, h.doc_number",
                "adjudications a JOIN holders h ON h.id = a.holder_id",
            ))?;
            let mut in_range_bare = conn.prepare(&range_sql("NULL, NULL", "adjudications a"))?;
            let mut read = ReadAhead::default();
            let mut group: Vec<crate::import::PledgeRow> = Vec::with_capacity(READ_AHEAD);
            let mut judge_row =
                |row: crate::import::PledgeRow, read: &mut ReadAhead| -> Result<()> {
                    let line = row.line;
                    let mut problem =
                        |field: &str, value: String, reason: Said, remedy: Option<Remedy>| {
                            problems.push(RowError {
                                line,
                                field: field.into(),
                                value,
                                reason,
                                remedy,
                            })
                        };
                    let adjudication_id = match &row.of {
                        PledgeOf::Id {
                            adjudication_id, ..
                        } => *adjudication_id,
                        of @ PledgeOf::Holder {
                            doc_type,
                            doc_number,
                            adjudicated_on,
                            program,
                        } => {
                            let found = named(
                                &mut by_document,
                                *doc_type,
                                doc_number,
                                *adjudicated_on,
                                program.as_deref(),
                            )?;
                            match rules.which(of, &found) {
                                Ok(id) => id,
                                Err(e) => {
                                    problems.push(RowError { line, ..e });
                                    return Ok(());
                                }
                            }
                        }
                    };
                    let names_holder = matches!(
                        row.of,
                        PledgeOf::Id {
                            holder: Some(_),
                            ..
                        }
                    );
                    let found = match read.remove(adjudication_id) {
                        Some(found) if found.document.is_some() || !names_holder => Some(found),
                        _ => adjudication
                            .query_row(params![adjudication_id], Pledgeable::from_row)
                            .optional()?,
                    };
                    let Some(Pledgeable {
                        void,
                        program_id,
                        shares,
                        adjudicated_on,
                        financed_by,
                        financed_shares,
                        document,
                    }) = found
                    else {
                        problem(
                            "adjudication_id",
                            adjudication_id.to_string(),
                            Said::new(
                                "no such adjudication in the register",
                                "no hay una adjudicación con ese número en el registro",
                            ),
                            Some(Remedy::LookUpAdjudications),
                        );
                        return Ok(());
                    };
                    if let PledgeOf::Id {
                        holder: Some((t, n)),
                        ..
                    } = &row.of
                        && let Some((doc_type, doc_number)) = &document
                        && (t != doc_type || n != doc_number)
                    {
                        problem(
                            "doc_number",
                            n.clone(),
                            said!(
                                store::adjudication_belongs_not_check_file_s,
                                adjudication_id,
                                doc_type,
                                doc_number,
                                t,
                                n
                            ),
                            None,
                        );
                        return Ok(());
                    }
                    // the pledges on record (a pledge this import wrote among them: the file names the
                    // adjudication twice, and it must be stored before it is read)
                    let (registered, in_force) = if pledged.contains(adjudication_id) {
                        if writer.pending_ids.contains(adjudication_id) {
                            writer.flush()?;
                        }
                        let (mut registered, in_force) = registered(conn, adjudication_id)?;
                        for e in &mut registered {
                            e.line = writer.line_of(e.id);
                        }
                        let in_force: Vec<InForce> = in_force
                            .into_iter()
                            .map(|f| InForce {
                                line: writer.line_of(f.id),
                                ..f
                            })
                            .collect();
                        (registered, in_force)
                    } else {
                        (Vec::new(), Vec::new())
                    };
                    let candidate = Candidate {
                        adjudication_id,
                        adjudication_void: void,
                        adjudicated_on,
                        adjudicated: shares,
                        financed_by: financed_by.as_deref(),
                        financed_shares,
                        rank: row.rank,
                        registered_on: row.registered_on,
                        lender: row.lender.as_deref(),
                        shares: row.shares,
                        in_force: &in_force,
                        registered: &registered,
                    };
                    let (lender, shares) = match rules.judge(&candidate) {
                        Ok(Verdict::New { lender, shares }) => (lender, shares),
                        Ok(Verdict::Unchanged { pledge_id }) => {
                            unchanged.note(line, pledge_id);
                            return Ok(());
                        }
                        Err(e) => {
                            problems.push(RowError { line, ..e });
                            return Ok(());
                        }
                    };
                    // stored even once the import is known to be refused (it is then rolled back), so
                    // that a pledge repeated later in the file is still reported
                    pledged.insert(adjudication_id);
                    let beneficiary = writer.beneficiary(program_id)?;
                    writer.add(NewRow {
                        line,
                        adjudication_id,
                        rank: row.rank,
                        beneficiary,
                        shares,
                        lender,
                        registered_on: Short::date(row.registered_on),
                    })
                };
            let mut judge_group = |group: &mut Vec<crate::import::PledgeRow>| -> Result<()> {
                let ids = group.iter().filter_map(|r| match r.of {
                    PledgeOf::Id {
                        adjudication_id, ..
                    } => Some(adjudication_id),
                    PledgeOf::Holder { .. } => None,
                });
                let (lo, hi, n) = ids.fold((i64::MAX, i64::MIN, 0i64), |(lo, hi, n), id| {
                    (lo.min(id), hi.max(id), n + 1)
                });
                read.clear(lo);
                if n > 0 && hi - lo < 4 * n {
                    let names_holder = group.iter().any(|r| {
                        matches!(
                            r.of,
                            PledgeOf::Id {
                                holder: Some(_),
                                ..
                            }
                        )
                    });
                    let range = if names_holder {
                        &mut in_range
                    } else {
                        &mut in_range_bare
                    };
                    let mut rows = range.query(params![lo, hi])?;
                    while let Some(r) = rows.next()? {
                        let id = r.get(8)?;
                        let mut p = Pledgeable::from_row(r)?;
                        p.void = voided.contains(id);
                        read.insert(id, p);
                    }
                }
                for row in group.drain(..) {
                    judge_row(row, &mut read)?;
                }
                Ok(())
            };
            let fed = feed(&mut |row| {
                group.push(row);
                if group.len() == READ_AHEAD {
                    judge_group(&mut group)?;
                }
                Ok(())
            })?;
            judge_group(&mut group)?;
            fed
        };
        let finished = writer.finish();
        let on_again = fk.restore();
        let hasher = hashing.join().expect("the hashing thread does not panic");
        let (first_id, last_id) = finished?;
        on_again?;
        Ok((file_problems, first_id, last_id, hasher))
    })?;
    let (file_problems, first_id, last_id, mut hasher) = stored;
    let count = usize::try_from(hasher.count_so_far()).expect("a count");
    if !file_problems.is_empty() || !problems.is_empty() {
        let mut rows = file_problems;
        rows.extend(problems);
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(super::rejected(rows, Vec::new()));
    }
    // a file of pledges all registered already adds none: its event covers only itself
    let covers = if first_id == 0 {
        Vec::new()
    } else {
        hasher.store_prints(tx.conn(), "pledges", first_id)?;
        vec![Cover {
            table: "pledges",
            first: first_id,
            last: last_id,
            digest: Some(hasher.finish()),
        }]
    };
    tx.audit_bulk(
        crate::store::Action::PledgeImport,
        "pledge_imports",
        import_id,
        &covers,
    )?;
    Ok(PledgesImported::Added {
        import_id,
        pledges: count,
        first_id,
        last_id,
        unchanged,
    })
}

/// Records the release of a pledge (the caller has checked that it may be released).
pub fn release(tx: &mut Tx<'_>, pledge_id: i64, on: NaiveDate) -> Result<i64> {
    tx.insert(
        "pledge_releases",
        crate::store::Action::PledgeRelease,
        &[("pledge_id", &pledge_id), ("released_on", &on.to_string())],
    )
}
