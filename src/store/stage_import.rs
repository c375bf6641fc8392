//! A stage's proposals written in bulk: one file's proposals and their bidders through the one
//! bulk writer of every import ([`super::bulk`]: multi-row INSERTs), each row hashed in its
//! audited form as it is stored, with its print kept ([`super::prints`]), and one audit event
//! per file covering both tables by range and digest: `audit verify` names a proposal or a
//! bidder changed by hand, row and column. The write lock is held, so the rows get the ids after
//! the last one, in file order (checked as they are stored).

use super::audit::{Cover, RowHasher};
use super::bulk::{Insert, JsonObject, Short, stored_shares};
use super::prints::Members;
use super::{Result, StoreError, Tx};
use crate::later_stages::Stage;
use crate::offering::proposals::{Bidder, ProposalRow};
use rusqlite::Connection;
use rusqlite::types::Value;

/// Proposals per multi-row INSERT (11 values each, after the 5 they share).
const PROPOSALS_PER_INSERT: usize = 32;

const INSERT_PROPOSALS: &str = "INSERT INTO proposals (program_id, stage, tranche, import_id, line, reference, filed_at, \
     beneficial_owner, shares, price_per_share, term_days, guarantee, funds_accredited, review, created_at, created_by) \
     VALUES";
/// Shared: `?1` program, `?2` stage, `?3` import, `?4` now, `?5` actor.
const PROPOSAL_ROW: &str = "(?1, ?2, $1, ?3, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, ?4, ?5)";
const PROPOSAL_VALUES: usize = 11;

/// Bidders per multi-row INSERT (5 values each, after the 2 they share).
const BIDDERS_PER_INSERT: usize = 64;

const INSERT_BIDDERS: &str = "INSERT INTO proposal_bidders (proposal_id, seq, doc_type, doc_number, name, created_at, \
     created_by) VALUES";
/// Shared: `?1` now, `?2` actor.
const BIDDER_ROW: &str = "($1, $2, $3, $4, $5, ?1, ?2)";
const BIDDER_VALUES: usize = 5;

/// What a proposals import wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenProposals {
    pub import_id: i64,
    pub rows: usize,
    pub first_id: i64,
    pub last_id: i64,
}

/// The page cache (`PRAGMA cache_size`, KiB) of a proposals import: its inserts append to the
/// proposals and bidders by id and to two indexes, which a smaller cache than the connection's
/// 64 MiB serves as well (a million proposals: 263 MiB peak, 337 with 64 MiB and the parse's
/// references as strings; the file's bytes and those references are most of the rest).
pub const IMPORT_CACHE: i64 = -16384;

/// Runs `f` (a proposals import's reading and writing) with the connection's page cache at
/// [`IMPORT_CACHE`], put back afterwards whatever `f` returned: `f`'s own error first.
pub fn with_import_cache<'c, T, E: From<StoreError>>(
    tx: &mut Tx<'c>,
    f: impl FnOnce(&mut Tx<'c>) -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let saved = super::PageCache::set(tx.conn(), IMPORT_CACHE, super::Temp::AsIs)?;
    let out = f(tx);
    let put_back = saved.put_back(tx.conn());
    let out = out?;
    put_back?;
    Ok(out)
}

/// Records the import of `file` (name, SHA-256, encoding) into a program's stage, its rows to
/// follow ([`ProposalWriter`]); returns its id.
pub fn begin_proposals(
    tx: &mut Tx<'_>,
    program_id: i64,
    stage: Stage,
    file: (&str, &str, &str),
) -> Result<i64> {
    let (file_name, sha256, encoding) = file;
    tx.insert_unaudited(
        "proposal_imports",
        &[
            ("program_id", &program_id),
            ("stage", &stage),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ],
    )
}

/// What every row of one import shares.
struct Shared {
    program_id: i64,
    stage: i64,
    import_id: i64,
    now: String,
    actor: String,
}

/// A file's proposals and their bidders, stored [`PROPOSALS_PER_INSERT`] at a time as they are
/// pushed: memory holds a group of rows (and the rows' prints), not the file's rows.
pub struct ProposalWriter<'c> {
    conn: &'c Connection,
    shared: Shared,
    proposals: Insert<'c>,
    bidders: Insert<'c>,
    /// The proposals pushed and not yet stored.
    pending: Vec<ProposalRow>,
    /// The ids the next proposal and the next bidder get.
    next: (i64, i64),
    /// The first ids written (of proposals, of bidders).
    first: (i64, i64),
    hashes: (RowHasher, RowHasher),
    json: Vec<u8>,
    members: Members,
    rows: usize,
}

/// The first id a row of `table` written now gets: SQLite gives a row without an id the one
/// after the largest (the tables are append-only).
fn next_id(conn: &Connection, table: &str) -> Result<i64> {
    Ok(conn.query_row(
        &format!("SELECT coalesce(max(id), 0) + 1 FROM {table}"),
        [],
        |r| r.get(0),
    )?)
}

impl<'c> ProposalWriter<'c> {
    /// A writer of the rows of import `import_id` ([`begin_proposals`]) into a program's stage,
    /// in the transaction `tx` holds (its time and officer stamp every row).
    pub fn new(
        tx: &'c Tx<'_>,
        program_id: i64,
        stage: Stage,
        import_id: i64,
    ) -> Result<ProposalWriter<'c>> {
        let conn = tx.conn();
        let shared = Shared {
            program_id,
            stage: i64::from(stage.number()),
            import_id,
            now: tx.now().to_string(),
            actor: tx.actor().to_string(),
        };
        let (now, actor) = (
            Value::Text(shared.now.clone()),
            Value::Text(shared.actor.clone()),
        );
        let proposals = Insert::new(
            conn,
            (INSERT_PROPOSALS, PROPOSAL_ROW, ""),
            PROPOSAL_VALUES,
            vec![
                Value::Integer(program_id),
                Value::Integer(shared.stage),
                Value::Integer(import_id),
                now.clone(),
                actor.clone(),
            ],
            PROPOSALS_PER_INSERT,
        )?;
        let bidders = Insert::new(
            conn,
            (INSERT_BIDDERS, BIDDER_ROW, ""),
            BIDDER_VALUES,
            vec![now, actor],
            BIDDERS_PER_INSERT,
        )?;
        let next = (
            next_id(conn, "proposals")?,
            next_id(conn, "proposal_bidders")?,
        );
        Ok(ProposalWriter {
            conn,
            shared,
            proposals,
            bidders,
            pending: Vec::with_capacity(PROPOSALS_PER_INSERT),
            next,
            first: next,
            hashes: (RowHasher::located(), RowHasher::located()),
            json: Vec::with_capacity(512),
            members: Members::default(),
            rows: 0,
        })
    }

    /// Takes one proposal with its bidders, stored with the group it completes.
    pub fn push(&mut self, r: ProposalRow) -> Result<()> {
        self.pending.push(r);
        self.rows += 1;
        if self.pending.len() == PROPOSALS_PER_INSERT {
            self.flush()?;
        }
        Ok(())
    }

    /// The proposals taken so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Stores the proposals pending, then their bidders, each row hashed with the id it gets.
    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let group = std::mem::take(&mut self.pending);
        let filed: Vec<Short> = group.iter().map(|r| Short::filed(r.filed_at)).collect();
        let amounts: Vec<(Short, Option<Short>)> = group
            .iter()
            .map(|r| {
                (
                    Short::amount(r.price_per_share),
                    r.guarantee.map(Short::amount),
                )
            })
            .collect();
        let first = self.next.0;
        for (k, r) in group.iter().enumerate() {
            let mut o = JsonObject::gathering(&mut self.json, &mut self.members);
            proposal_json(
                &mut o,
                &self.shared,
                first + k as i64,
                r,
                &filed[k],
                &amounts[k],
            );
            o.end();
            self.hashes.0.add_members(&self.json, &self.members);
        }
        let rows: Vec<(usize, &ProposalRow)> = group.iter().enumerate().collect();
        self.proposals.insert(&rows, |&(k, r), b| {
            b.value(r.tranche)?;
            b.value(r.line as i64)?;
            b.value(&r.reference)?;
            b.value(filed[k].as_str())?;
            b.value(r.beneficial_owner.as_deref())?;
            b.value(stored_shares(r.shares)?)?;
            b.value(amounts[k].0.as_str())?;
            b.value(r.term_days)?;
            b.value(amounts[k].1.as_ref().map(Short::as_str))?;
            b.value(i64::from(r.funds_accredited))?;
            b.value(r.review.as_deref())
        })?;
        self.next.0 = self.stored_up_to("proposals", first, group.len())?;
        // the bidders of the group, in the order of their proposals and of the file
        let bidders: Vec<(i64, i64, &Bidder)> = group
            .iter()
            .enumerate()
            .flat_map(|(k, r)| {
                (1..)
                    .zip(&r.bidders)
                    .map(move |(seq, b)| (first + k as i64, seq, b))
            })
            .collect();
        for part in bidders.chunks(BIDDERS_PER_INSERT) {
            let first = self.next.1;
            for (k, (proposal, seq, b)) in part.iter().enumerate() {
                let mut o = JsonObject::gathering(&mut self.json, &mut self.members);
                bidder_json(&mut o, &self.shared, first + k as i64, (*proposal, *seq), b);
                o.end();
                self.hashes.1.add_members(&self.json, &self.members);
            }
            self.bidders.insert(part, |&(proposal, seq, bidder), b| {
                b.value(proposal)?;
                b.value(seq)?;
                b.value(bidder.doc_type.as_str())?;
                b.value(&bidder.doc_number)?;
                b.value(&bidder.name)
            })?;
            self.next.1 = self.stored_up_to("proposal bidders", first, part.len())?;
        }
        // the prints of full chunks stored as they fill (a million rows' prints are 70 MB)
        self.hashes
            .0
            .store_full_prints(self.conn, "proposals", self.first.0)?;
        self.hashes
            .1
            .store_full_prints(self.conn, "proposal_bidders", self.first.1)?;
        // the group's buffer used again for the next
        self.pending = group;
        self.pending.clear();
        Ok(())
    }

    /// The id after the `n` rows an INSERT just stored from `first`, checked: one INSERT without
    /// conflict clauses gives consecutive rowids after the largest, the ids the rows were
    /// hashed with.
    fn stored_up_to(&self, what: &str, first: i64, n: usize) -> Result<i64> {
        let last = first + n as i64 - 1;
        if self.conn.last_insert_rowid() != last {
            return Err(StoreError::Corrupt(format!(
                "{what} were stored up to id {} where {last} was expected",
                self.conn.last_insert_rowid()
            )));
        }
        Ok(last + 1)
    }

    /// Stores what is pending; what [`seal_proposals`] covers with the import's event.
    pub fn end(mut self) -> Result<StoredProposals> {
        self.flush()?;
        Ok(StoredProposals {
            import_id: self.shared.import_id,
            rows: self.rows,
            proposals: (self.first.0, self.next.0 - 1),
            bidders: (self.first.1, self.next.1 - 1),
            hashes: self.hashes,
        })
    }
}

/// What a [`ProposalWriter`] stored, for [`seal_proposals`].
pub struct StoredProposals {
    import_id: i64,
    rows: usize,
    /// First and last ids (the last before the first when none was written).
    proposals: (i64, i64),
    bidders: (i64, i64),
    hashes: (RowHasher, RowHasher),
}

/// Covers what a [`ProposalWriter`] stored with the import's one audit event: each table by
/// range and digest, the rows' prints stored first (the event records their digest).
pub fn seal_proposals(tx: &mut Tx<'_>, s: StoredProposals) -> Result<WrittenProposals> {
    let (mut proposals, mut bidders) = s.hashes;
    let mut covers = Vec::new();
    for (table, (first, last), hash) in [
        ("proposals", s.proposals, &mut proposals),
        ("proposal_bidders", s.bidders, &mut bidders),
    ] {
        if last >= first {
            hash.store_prints(tx.conn(), table, first)?;
            covers.push(Cover {
                table,
                first,
                last,
                digest: Some(std::mem::take(hash).finish()),
            });
        }
    }
    tx.audit_bulk(
        crate::store::Action::ProposalsImport,
        "proposal_imports",
        s.import_id,
        &covers,
    )?;
    let written = s.rows > 0;
    Ok(WrittenProposals {
        import_id: s.import_id,
        rows: s.rows,
        first_id: if written { s.proposals.0 } else { 0 },
        last_id: if written { s.proposals.1 } else { 0 },
    })
}

/// A proposal in its audited form (the columns of `proposals` in table order; see
/// [`JsonObject`]).
fn proposal_json(
    o: &mut JsonObject<'_>,
    s: &Shared,
    id: i64,
    r: &ProposalRow,
    filed: &Short,
    (price, guarantee): &(Short, Option<Short>),
) {
    o.int("id", id);
    o.int("program_id", s.program_id);
    o.int("stage", s.stage);
    o.int("tranche", r.tranche);
    o.int("import_id", s.import_id);
    o.int("line", r.line as u64);
    o.text("reference", Some(&r.reference));
    o.text("filed_at", Some(filed.as_str()));
    o.text("beneficial_owner", r.beneficial_owner.as_deref());
    o.int("shares", r.shares);
    o.text("price_per_share", Some(price.as_str()));
    o.int("term_days", r.term_days);
    o.text("guarantee", guarantee.as_ref().map(Short::as_str));
    o.int("funds_accredited", u8::from(r.funds_accredited));
    o.text("review", r.review.as_deref());
    o.text("created_at", Some(&s.now));
    o.text("created_by", Some(&s.actor));
}

/// A bidder in its audited form (the columns of `proposal_bidders` in table order).
fn bidder_json(
    o: &mut JsonObject<'_>,
    s: &Shared,
    id: i64,
    (proposal, seq): (i64, i64),
    b: &Bidder,
) {
    o.int("id", id);
    o.int("proposal_id", proposal);
    o.int("seq", seq);
    o.text("doc_type", Some(b.doc_type.as_str()));
    o.text("doc_number", Some(&b.doc_number));
    o.text("name", Some(&b.name));
    o.text("created_at", Some(&s.now));
    o.text("created_by", Some(&s.actor));
}
