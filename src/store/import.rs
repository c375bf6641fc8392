//! An adjudications import through the bulk writer ([`super::bulk`]): rows stored in groups,
//! holders deduplicated by their unique index, hashed on a second thread for the import's one
//! audit event. A row whose award (holder, adjudication date) the program already has is not
//! stored: it goes to the register's rule, which says whether it is unchanged or a conflict.
//! Also what every file import shares: finding an earlier import of the same file.

use super::audit::{Cover, RowHasher};
use super::bulk::{self, Insert, JsonObject, Short};
use super::columns::Cols;
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx};
use crate::import::{AdjudicationRow, RowError};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;

/// An earlier import of the same file: which, when, by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriorImport {
    pub import_id: i64,
    pub at: String,
    pub by: String,
}

/// The earlier import of the same file, if any: `table` is `imports` or `pledge_imports`, and
/// `scope` narrows the match (an adjudications file is imported once per program).
pub(super) fn prior_import(
    conn: &Connection,
    table: &str,
    sha256: &str,
    program_id: Option<i64>,
) -> Result<Option<PriorImport>> {
    let scope = if program_id.is_some() {
        "AND program_id = ?2"
    } else {
        "AND ?2 IS NULL"
    };
    Ok(conn
        .query_row(
            &format!("SELECT id, created_at, created_by FROM {table} WHERE sha256 = ?1 {scope}"),
            params![sha256, program_id],
            |r| {
                Ok(PriorImport {
                    import_id: r.get(0)?,
                    at: r.get(1)?,
                    by: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// How many of an import's rows were already registered as they are, and the first few of them
/// (line, adjudication id).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unchanged {
    pub count: usize,
    pub first: Vec<(usize, i64)>,
}

/// Lines of [`Unchanged`] named one by one; the rest are counted.
const UNCHANGED_NAMED: usize = 5;

impl Unchanged {
    /// Counts the row on `line` (registered as adjudication or pledge `id`), keeping the first
    /// lines named whatever order the rows are judged in.
    pub(super) fn note(&mut self, line: usize, id: i64) {
        self.count += 1;
        let at = self.first.partition_point(|&(l, _)| l < line);
        if at < UNCHANGED_NAMED {
            self.first.insert(at, (line, id));
            self.first.truncate(UNCHANGED_NAMED);
        }
    }
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// `rows` new adjudications (ids `first_id..=last_id`, both 0 when none).
    Added {
        import_id: i64,
        rows: usize,
        new_holders: usize,
        first_id: i64,
        last_id: i64,
        unchanged: Unchanged,
    },
    /// The same file was imported before: nothing added.
    AlreadyImported(PriorImport),
}

/// Rows stored per INSERT statement (an adjudication binds 12 values, a holder 6).
const ROWS_PER_INSERT: usize = 64;

/// Rows hashed per message to the hashing thread.
const HASH_BATCH: usize = 1024;

/// New holders an import adds before it may set the index on their names aside (when it has
/// also added more than the register held).
const SET_ASIDE_FROM: i64 = 16_384;

/// What every row of one import shares, for its audited form.
#[derive(Clone, Copy)]
struct RowContext<'a> {
    program_id: i64,
    import_id: i64,
    fixed_price: &'a str,
    now: &'a str,
    actor: &'a str,
}

/// A row as stored, on its way to the hashing thread.
struct Written {
    id: i64,
    holder_id: i64,
    new_holder: bool,
    /// Its holder's document is registered (by now) under another name or person type.
    holder_conflict: bool,
    own_price: Option<String>,
    /// Its adjudication date as stored.
    on: Short,
    row: AdjudicationRow,
}

/// An award the program already has for a row's holder and adjudication date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisteredAward {
    /// 0 when it is an earlier line of the same group, not yet stored.
    pub id: i64,
    /// The line of this file that awarded it, when this import did.
    pub line_in_this_file: Option<usize>,
    pub category: String,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub lender: Option<String>,
    pub financed_shares: u64,
}

/// A row of the file whose key (program, holder document, adjudication date) is already
/// registered: not stored; the register's rule says whether it is unchanged or a conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated<'a> {
    pub row: &'a AdjudicationRow,
    /// The row's price per share: its own, or the program's fixed price.
    pub price_per_share: Decimal,
    pub registered: RegisteredAward,
}

/// The register's judgement of a [`Repeated`] row: `Ok` unchanged, `Err` the row's problem.
pub type Judge<'j> = dyn FnMut(&Repeated<'_>) -> std::result::Result<(), RowError> + 'j;

/// Hashes stored rows in their audited form (see [`super::json_of_row`]): new holders and
/// adjudications, in the order they were written.
fn hash_rows(
    ctx: &RowContext<'_>,
    rows: std::sync::mpsc::Receiver<Vec<Written>>,
) -> (RowHasher, RowHasher) {
    // each row's print kept too (`prints`): a row changed later is named by `audit verify`
    let (mut holders, mut adjudications) = (RowHasher::located(), RowHasher::located());
    let mut json = Vec::with_capacity(512);
    let mut members = super::prints::Members::default();
    for batch in rows {
        for w in batch {
            let r = &w.row;
            if w.new_holder {
                let mut o = JsonObject::gathering(&mut json, &mut members);
                o.int("id", w.holder_id);
                o.text("doc_type", Some(r.doc_type.as_str()));
                o.text("doc_number", Some(&r.doc_number));
                o.text("name", Some(&r.name));
                o.text("person_type", Some(r.person_type.as_str()));
                o.text("created_at", Some(ctx.now));
                o.text("created_by", Some(ctx.actor));
                o.end();
                holders.add_members(&json, &members);
            }
            let mut o = JsonObject::gathering(&mut json, &mut members);
            o.int("id", w.id);
            o.int("program_id", ctx.program_id);
            o.int("holder_id", w.holder_id);
            o.int("import_id", ctx.import_id);
            o.int("line", r.line as u64);
            o.text("category", Some(&r.category));
            o.int("shares", r.shares);
            o.text(
                "price_per_share",
                Some(w.own_price.as_deref().unwrap_or(ctx.fixed_price)),
            );
            o.text("adjudicated_on", Some(w.on.as_str()));
            o.text("lender", r.lender.as_deref());
            o.int("financed_shares", r.financed_shares);
            o.text("created_at", Some(ctx.now));
            o.text("created_by", Some(ctx.actor));
            o.end();
            adjudications.add_members(&json, &members);
        }
    }
    (holders, adjudications)
}

// `OR FAIL`: a row that breaks a constraint ends the statement without undoing the rows it
// stored before (the error then rolls the whole import back), so SQLite keeps no statement
// journal, a copy of every page each statement changes (with the foreign-key checks on, it
// keeps one anyway: see [`bulk::FkOff`])
const INSERT_HOLDERS: &str = "INSERT OR FAIL INTO holders (doc_type, doc_number, name, person_type, created_at, created_by) VALUES";
/// Shared: `?1` now, `?2` actor.
const HOLDER_ROW: &str = "($1, $2, $3, $4, ?1, ?2)";
const INSERT_ADJUDICATIONS: &str =
    "INSERT OR FAIL INTO adjudications (program_id, holder_id, import_id, line, category, shares,
     price_per_share, adjudicated_on, lender, financed_shares, created_at, created_by) VALUES";
/// Shared: `?1` program, `?2` import, `?3` the program's price (for a row without its own),
/// `?4` now, `?5` actor.
const ADJUDICATION_ROW: &str = "(?1, $1, ?2, $2, $3, $4, coalesce($5, ?3), $6, $7, $8, ?4, ?5)";

/// The two INSERTs that store a group of rows, with the shared values bound.
fn inserts<'c>(conn: &'c Connection, ctx: &RowContext<'_>) -> Result<(Insert<'c>, Insert<'c>)> {
    let text = |s: &str| Value::Text(s.to_string());
    let holders = Insert::new(
        conn,
        (
            INSERT_HOLDERS,
            HOLDER_ROW,
            "ON CONFLICT (doc_type, doc_number) DO NOTHING",
        ),
        4,
        vec![text(ctx.now), text(ctx.actor)],
        ROWS_PER_INSERT,
    )?;
    let adjudications = Insert::new(
        conn,
        (INSERT_ADJUDICATIONS, ADJUDICATION_ROW, ""),
        8,
        vec![
            Value::Integer(ctx.program_id),
            Value::Integer(ctx.import_id),
            text(ctx.fixed_price),
            text(ctx.now),
            text(ctx.actor),
        ],
        ROWS_PER_INSERT,
    )?;
    Ok((holders, adjudications))
}

/// Stores an import's rows in groups: one multi-row INSERT for their holders (a document already
/// registered, or repeated in the group, is kept once and its name checked), one for the
/// adjudications, then hands them to the hashing thread.
struct Writer<'a, 'w, 'j> {
    conn: &'a Connection,
    ctx: RowContext<'a>,
    /// The program's fixed price, for a row without its own.
    fixed_price: Decimal,
    judge: &'w mut Judge<'j>,
    /// Rows already registered (judged unchanged) and rows refused by the judge.
    unchanged: Unchanged,
    repeats: Vec<RowError>,
    /// The INSERTs of holders and of adjudications.
    holders_insert: Insert<'a>,
    adjudications_insert: Insert<'a>,
    pending: Vec<Written>,
    done: Vec<Written>,
    to_hasher: std::sync::mpsc::SyncSender<Vec<Written>>,
    conflicts: Vec<NameConflict>,
    holders: (i64, i64),
    adjudications: (i64, i64),
    count: usize,
    /// Shares of the rows so far; `None` once they add up to more than a count can hold.
    shares: Option<u64>,
    /// The largest holder id so far: new holders get the ids after it.
    max_holder: i64,
    /// The largest holder id when the import began.
    held_before: i64,
    /// The index on the holders' names while it is set aside (see [`bulk::SetAside`]).
    name_index: bulk::SetAside,
    /// The program's awards stored before, read in stored order (a re-import's rows).
    known: Option<super::reimport::Known>,
}

impl<'a> Writer<'a, '_, '_> {
    fn add(&mut self, row: AdjudicationRow) -> Result<()> {
        if self.judged_as_known(&row)? {
            return Ok(());
        }
        let own_price = row.price_per_share.map(|p| p.to_string());
        self.pending.push(Written {
            id: 0,
            holder_id: 0,
            new_holder: false,
            holder_conflict: false,
            own_price,
            on: Short::date(row.adjudicated_on),
            row,
        });
        if self.pending.len() == ROWS_PER_INSERT {
            self.flush()?;
        }
        Ok(())
    }

    /// Judges `row` when it is one of the next awards the program had before this import
    /// ([`super::reimport::Known`]) and its holder is registered under the same name and person
    /// type: unchanged (counted) or refused, as [`Writer::set_repeats_aside`] would; true when so.
    fn judged_as_known(&mut self, row: &AdjudicationRow) -> Result<bool> {
        let Some(known) = &mut self.known else {
            return Ok(false);
        };
        let on = Short::date(row.adjudicated_on);
        let Some(award) = known.take(self.conn, row, on.as_str())? else {
            return Ok(false);
        };
        if award.name() != row.name || award.person_type() != row.person_type.as_str() {
            // one document, one holder: the writer reports it
            return Ok(false);
        }
        let repeated = Repeated {
            row,
            price_per_share: row.price_per_share.unwrap_or(self.fixed_price),
            registered: RegisteredAward {
                id: award.id,
                line_in_this_file: None,
                category: award.category().to_string(),
                shares: award.shares,
                price_per_share: award.price_per_share,
                lender: award.lender().map(str::to_string),
                financed_shares: award.financed_shares,
            },
        };
        match (self.judge)(&repeated) {
            Ok(()) => self.unchanged.note(row.line, award.id),
            Err(problem) => self.repeats.push(problem),
        }
        Ok(true)
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let all_new = self.store_holders()?;
        // an import that adds more holders than the register held (at least a few groups'
        // worth) stores them faster without the index on their names, built again at the end
        let added = self.max_holder - self.held_before;
        if added > self.held_before.max(SET_ASIDE_FROM) {
            self.name_index.drop(self.conn)?;
        }
        // a holder new in this group has no award yet: only a group with a holder seen before
        // (registered, or earlier in the file) can repeat one
        if !all_new {
            self.set_repeats_aside()?;
        }
        if !self.pending.is_empty() {
            self.store_adjudications()?;
        }
        for w in &self.pending {
            self.count += 1;
            self.shares = self.shares.and_then(|s| s.checked_add(w.row.shares));
        }
        self.done.append(&mut self.pending);
        if self.done.len() >= HASH_BATCH {
            let full = std::mem::replace(&mut self.done, Vec::with_capacity(HASH_BATCH));
            self.to_hasher
                .send(full)
                .map_err(|_| StoreError::Corrupt("the hashing thread stopped".into()))?;
        }
        Ok(())
    }

    /// Takes out of the pending group every row whose holder already has an award of the
    /// program on its date (registered and not void, or earlier in this file), and hands it to
    /// the judge: unchanged (counted) or refused. Looked up through the index on the holder: a
    /// holder has few awards.
    fn set_repeats_aside(&mut self) -> Result<()> {
        let mut find = self.conn.prepare_cached(
            "SELECT a.id, a.import_id, a.line, a.category, a.shares, a.price_per_share, a.lender, a.financed_shares
             FROM adjudications a
             WHERE a.holder_id = ?1 AND a.program_id = ?2 AND a.adjudicated_on = ?3
               AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)
             ORDER BY a.id LIMIT 1",
        )?;
        let pending = std::mem::take(&mut self.pending);
        let mut keep: Vec<Written> = Vec::with_capacity(pending.len());
        for w in pending {
            let r = &w.row;
            // a name or person type conflict is reported as such, not judged again here
            if w.holder_conflict {
                keep.push(w);
                continue;
            }
            let earlier_in_group = keep
                .iter()
                .find(|k| k.holder_id == w.holder_id && k.row.adjudicated_on == r.adjudicated_on);
            let registered = match earlier_in_group {
                Some(k) => Some(RegisteredAward {
                    id: 0,
                    line_in_this_file: Some(k.row.line),
                    category: k.row.category.clone(),
                    shares: k.row.shares,
                    price_per_share: k.row.price_per_share.unwrap_or(self.fixed_price),
                    lender: k.row.lender.clone(),
                    financed_shares: k.row.financed_shares,
                }),
                None if w.new_holder => None,
                None => {
                    let on = w.on.as_str();
                    find.query_row(params![w.holder_id, self.ctx.program_id, on], |x| {
                        let c = Cols::new(x, "adjudications");
                        let import_id: i64 = c.get(1)?;
                        let line: usize = c.get::<i64>(2)?.try_into().unwrap_or(0);
                        Ok(RegisteredAward {
                            id: c.get(0)?,
                            line_in_this_file: (import_id == self.ctx.import_id).then_some(line),
                            category: c.get(3)?,
                            shares: c.shares(4)?,
                            price_per_share: c.decimal(5)?,
                            lender: c.get(6)?,
                            financed_shares: c.shares(7)?,
                        })
                    })
                    .optional()?
                }
            };
            let Some(registered) = registered else {
                keep.push(w);
                continue;
            };
            let repeated = Repeated {
                row: r,
                price_per_share: r.price_per_share.unwrap_or(self.fixed_price),
                registered,
            };
            match (self.judge)(&repeated) {
                Ok(()) => self.unchanged.note(r.line, repeated.registered.id),
                Err(problem) => self.repeats.push(problem),
            }
        }
        self.pending = keep;
        Ok(())
    }

    /// Stores the pending rows' holders. True when every document was new.
    fn store_holders(&mut self) -> Result<bool> {
        use super::bulk::Param::Text;
        let conn = self.conn;
        let before = self.max_holder;
        let inserted = self.holders_insert.insert(&self.pending, |w, b| {
            let r = &w.row;
            b.same(Text(r.doc_type.as_str()))?;
            b.value(&r.doc_number)?;
            b.value(&r.name)?;
            b.same(Text(r.person_type.as_str()))
        })?;
        if inserted == self.pending.len() {
            // every document was new: rowids were given in order, after the largest (checked:
            // the adjudications' references to their holders rest on it, SQLite's checks off)
            let last = conn.last_insert_rowid();
            if last != before + inserted as i64 {
                return Err(StoreError::Corrupt(format!(
                    "holders were stored up to id {last} where {} was expected",
                    before + inserted as i64
                )));
            }
            for (k, w) in self.pending.iter_mut().enumerate() {
                w.holder_id = before + 1 + k as i64;
                w.new_holder = true;
            }
        } else {
            let mut find = conn.prepare_cached(
                "SELECT id, name, person_type FROM holders WHERE doc_type = ?1 AND doc_number = ?2",
            )?;
            let mut hashed: std::collections::HashSet<i64> = std::collections::HashSet::new();
            for w in self.pending.iter_mut() {
                let r = &w.row;
                let (id, name, person_type): (i64, String, crate::import::PersonType) = find
                    .query_row(params![r.doc_type.as_str(), r.doc_number], |x| {
                        let c = Cols::new(x, "holders");
                        Ok((c.get(0)?, c.get(1)?, c.get(2)?))
                    })?;
                w.holder_id = id;
                w.new_holder = id > before && hashed.insert(id);
                if !w.new_holder && (name != r.name || person_type != r.person_type) {
                    w.holder_conflict = true;
                    self.conflicts.push(NameConflict {
                        line: r.line,
                        doc_type: r.doc_type,
                        doc_number: r.doc_number.clone(),
                        name: r.name.clone(),
                        person_type: r.person_type,
                        holder_id: id,
                        registered_name: name,
                        registered_person_type: person_type,
                    });
                }
            }
        }
        for w in self.pending.iter().filter(|w| w.new_holder) {
            if self.holders.0 == 0 {
                self.holders.0 = w.holder_id;
            }
            self.holders.1 = w.holder_id;
            self.max_holder = self.max_holder.max(w.holder_id);
        }
        Ok(inserted == self.pending.len())
    }

    /// Stores the pending rows' adjudications.
    fn store_adjudications(&mut self) -> Result<()> {
        use super::bulk::Param;
        let conn = self.conn;
        self.adjudications_insert.insert(&self.pending, |w, b| {
            let r = &w.row;
            b.value(w.holder_id)?;
            b.value(r.line as i64)?;
            b.same(Param::Text(&r.category))?;
            b.same(Param::Int(super::bulk::stored_shares(r.shares)?))?;
            b.same(Param::from(w.own_price.as_deref()))?;
            b.same(Param::Text(w.on.as_str()))?;
            b.same(Param::from(r.lender.as_deref()))?;
            b.same(Param::Int(super::bulk::stored_shares(r.financed_shares)?))
        })?;
        let (from, to) = &mut self.adjudications;
        let first = super::bulk::follow_on(conn, self.pending.len(), (from, to), "adjudications")?;
        for (k, w) in self.pending.iter_mut().enumerate() {
            w.id = first + k as i64;
        }
        Ok(())
    }

    /// Stores what is left and sends the last rows to the hashing thread (dropping the channel,
    /// which ends it).
    fn finish(mut self) -> Result<StoredRows> {
        self.flush()?;
        if !self.done.is_empty() {
            let _ = self.to_hasher.send(std::mem::take(&mut self.done));
        }
        self.name_index.restore(self.conn)?;
        Ok(StoredRows {
            conflicts: self.conflicts,
            holders: self.holders,
            adjudications: self.adjudications,
            count: self.count,
            shares: self.shares,
            unchanged: self.unchanged,
            repeats: self.repeats,
        })
    }
}

/// A row whose document is already registered (in the register or earlier in the file) under
/// another name or person type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameConflict {
    pub line: usize,
    pub doc_type: crate::ids::DocType,
    pub doc_number: String,
    pub name: String,
    pub person_type: crate::import::PersonType,
    pub holder_id: i64,
    pub registered_name: String,
    pub registered_person_type: crate::import::PersonType,
}

/// What a [`Writer`] stored: documents found under another name, id ranges of new holders and
/// adjudications, rows and shares.
struct StoredRows {
    conflicts: Vec<NameConflict>,
    holders: (i64, i64),
    adjudications: (i64, i64),
    count: usize,
    shares: Option<u64>,
    unchanged: Unchanged,
    repeats: Vec<RowError>,
}

/// What [`write`] stored, for the register's rules to judge before [`seal`] (or the rollback).
pub struct Stored {
    import_id: i64,
    /// Problems of the file's own rows (the reader's).
    pub file_problems: Vec<RowError>,
    /// Rows whose document is registered under another name or person type.
    pub conflicts: Vec<NameConflict>,
    /// Rows whose award is registered with other figures (or repeated in the file), as the
    /// register's rule described them.
    pub repeats: Vec<RowError>,
    /// Shares of the program's adjudications (not void) before this import.
    pub already: u64,
    /// Shares of the rows stored; `None` when they add up to more than a count can hold.
    pub shares: Option<u64>,
    stored: StoredRows,
    holder_hash: RowHasher,
    adjudication_hash: RowHasher,
}

/// What [`write`] did.
pub enum Write {
    Written(Box<Stored>),
    /// The same file was imported for this program before: nothing written.
    AlreadyImported(PriorImport),
}

/// The SHA-256 an import's `imports` row records: the file's, known before its rows are read,
/// or one worked out meanwhile (a first-stage run's fingerprint, hashed on another thread while
/// its awards are stored), asked for once the rows are stored.
pub enum Sha256<'s> {
    Known(&'s str),
    Later(&'s mut dyn FnMut() -> String),
}

/// Stores the rows of a file for a program in the caller's transaction, as `feed` reads them:
/// `feed` hands each valid row to the sink it is given and returns the problems it found in the
/// file. Rows are stored in groups by multi-row INSERTs, holders deduplicated by their unique
/// index, and hashed on a second thread as they are written. A row whose award is already
/// registered (see [`Repeated`]) is not stored but handed to `judge`. What was stored comes back
/// as facts for the register's rules; [`seal`] then covers it with one audit event, or the
/// caller rolls the transaction back. With a [`Sha256::Later`], the `imports` row is inserted
/// once the rows are stored, at the id they were stored under (the next one: the write lock is
/// held), and an earlier import of the same SHA-256 is found only then.
pub fn write(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: Sha256<'_>,
    encoding: &str,
    judge: &mut Judge<'_>,
    feed: impl FnOnce(&mut dyn FnMut(AdjudicationRow) -> Result<()>) -> Result<Vec<RowError>>,
) -> Result<Write> {
    let import_row = |tx: &mut Tx<'_>, id: Option<i64>, sha256: &str| {
        let mut columns: Vec<(&str, &dyn rusqlite::ToSql)> = vec![
            ("program_id", &program.id),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ];
        if let Some(id) = &id {
            columns.push(("id", id));
        }
        tx.insert_unaudited("imports", &columns)
    };
    let (import_id, mut later) = match sha256 {
        Sha256::Known(sha256) => {
            if let Some(prior) = prior_import(tx.conn(), "imports", sha256, Some(program.id))? {
                return Ok(Write::AlreadyImported(prior));
            }
            (import_row(tx, None, sha256)?, None)
        }
        Sha256::Later(sha256) => {
            let next: i64 =
                tx.conn()
                    .query_row("SELECT coalesce(max(id), 0) + 1 FROM imports", [], |r| {
                        r.get(0)
                    })?;
            (next, Some(sha256))
        }
    };
    let already = program_shares(tx.conn(), program.id)?;
    let (now, actor) = (tx.now().to_string(), tx.actor().to_string());
    let fixed_price = program.program.fixed_price.to_string();
    let ctx = RowContext {
        program_id: program.id,
        import_id,
        fixed_price: &fixed_price,
        now: &now,
        actor: &actor,
    };
    let (file_problems, stored, mut holder_hash, mut adjudication_hash) =
        std::thread::scope(|scope| -> Result<_> {
            let (to_hasher, from_store) = std::sync::mpsc::sync_channel::<Vec<Written>>(4);
            let hasher = scope.spawn(move || hash_rows(&ctx, from_store));
            // SQLite's foreign-key checks off while the rows are stored (before the INSERTs are
            // prepared: see [`bulk::FkOff`]); the rows' references are the writer's own: the
            // `imports` row, just inserted with the checks on, and its program, and each row's
            // holder, stored by the group's INSERT (its ids checked) or found by its document
            let mut fk = bulk::FkOff::new(tx.conn())?;
            let (holders_insert, adjudications_insert) = inserts(tx.conn(), &ctx)?;
            let max_holder =
                tx.conn()
                    .query_row("SELECT coalesce(max(id), 0) FROM holders", [], |r| r.get(0))?;
            let mut writer = Writer {
                conn: tx.conn(),
                ctx,
                fixed_price: program.program.fixed_price,
                judge,
                unchanged: Unchanged::default(),
                repeats: Vec::new(),
                holders_insert,
                adjudications_insert,
                pending: Vec::with_capacity(ROWS_PER_INSERT),
                done: Vec::with_capacity(HASH_BATCH),
                to_hasher,
                conflicts: Vec::new(),
                holders: (0, 0),
                adjudications: (0, 0),
                count: 0,
                shares: Some(0),
                max_holder,
                held_before: max_holder,
                name_index: bulk::SetAside::new("holders_name_nocase"),
                known: super::reimport::Known::new(tx.conn(), program.id)?,
            };
            let fed = feed(&mut |row| writer.add(row));
            let stored = writer.finish();
            let on_again = fk.restore();
            let (holder_hash, adjudication_hash) =
                hasher.join().expect("the hashing thread does not panic");
            let (fed, stored) = (fed?, stored?);
            on_again?;
            Ok((fed, stored, holder_hash, adjudication_hash))
        })?;
    if let Some(sha256) = &mut later {
        // the rows' `import_id` is this row's: inserted with the foreign-key checks on, at the
        // id the rows were given (checked)
        let sha256 = sha256();
        if let Some(prior) = prior_import(tx.conn(), "imports", &sha256, Some(program.id))? {
            return Ok(Write::AlreadyImported(prior));
        }
        let id = import_row(tx, Some(import_id), &sha256)?;
        if id != import_id {
            return Err(StoreError::Corrupt(format!(
                "the import was stored as {id} where {import_id} was expected"
            )));
        }
    }
    if stored.adjudications.0 != 0 {
        adjudication_hash.store_prints(tx.conn(), "adjudications", stored.adjudications.0)?;
    }
    if stored.holders.0 != 0 {
        holder_hash.store_prints(tx.conn(), "holders", stored.holders.0)?;
    }
    Ok(Write::Written(Box::new(Stored {
        import_id,
        file_problems,
        conflicts: stored.conflicts.clone(),
        repeats: stored.repeats.clone(),
        already,
        shares: stored.shares,
        stored,
        holder_hash,
        adjudication_hash,
    })))
}

/// Shares of a program's adjudications (not void); corrupt if they add up to more than a count
/// can hold.
pub fn program_shares(conn: &Connection, program_id: i64) -> Result<u64> {
    // the voided ones left out from the set read once, not by a subquery a row
    let voided = super::voided::adjudications(conn)?;
    let mut stmt =
        conn.prepare_cached("SELECT a.id, a.shares FROM adjudications a WHERE a.program_id = ?1")?;
    let mut rows = stmt.query(params![program_id])?;
    let mut total: u64 = 0;
    while let Some(r) = rows.next()? {
        let c = Cols::new(r, "adjudications");
        if voided.contains(c.get(0)?) {
            continue;
        }
        let n = c.shares(1)?;
        total = total.checked_add(n).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "the adjudications of program {program_id} add up to more shares than can be counted"
            ))
        })?;
    }
    Ok(total)
}

/// Covers what [`write`] stored with the import's one audit event.
pub fn seal(tx: &mut Tx<'_>, w: Stored) -> Result<Imported> {
    let Stored {
        import_id,
        stored,
        holder_hash,
        adjudication_hash,
        ..
    } = w;
    let new_holders = holder_hash.count_so_far();
    let (first_id, last_id) = stored.adjudications;
    // an import of rows all registered already adds none: its event covers only itself
    let mut covers = Vec::new();
    if first_id != 0 {
        covers.push(Cover {
            table: "adjudications",
            first: first_id,
            last: last_id,
            digest: Some(adjudication_hash.finish()),
        });
    }
    if stored.holders.0 != 0 {
        covers.push(Cover {
            table: "holders",
            first: stored.holders.0,
            last: stored.holders.1,
            digest: Some(holder_hash.finish()),
        });
    }
    tx.audit_bulk(
        crate::store::Action::AdjudicationsImport,
        "imports",
        import_id,
        &covers,
    )?;
    Ok(Imported::Added {
        import_id,
        rows: stored.count,
        new_holders: new_holders as usize,
        first_id,
        last_id,
        unchanged: stored.unchanged,
    })
}

/// Like [`seal`] for a writer that covers the import with its own one event (the offering's
/// adjudication run, `store::offering::seal_run`): the covers of the `imports` row and of what
/// was stored, and what was added; no event is appended here.
pub fn covers(w: Stored) -> (Vec<Cover>, Imported) {
    let Stored {
        import_id,
        stored,
        holder_hash,
        adjudication_hash,
        ..
    } = w;
    let new_holders = holder_hash.count_so_far();
    let (first_id, last_id) = stored.adjudications;
    let mut covers = vec![
        Cover {
            table: "imports",
            first: import_id,
            last: import_id,
            digest: None,
        },
        Cover {
            table: "adjudications",
            first: first_id,
            last: last_id,
            digest: Some(adjudication_hash.finish()),
        },
    ];
    if stored.holders.0 != 0 {
        covers.push(Cover {
            table: "holders",
            first: stored.holders.0,
            last: stored.holders.1,
            digest: Some(holder_hash.finish()),
        });
    }
    let added = Imported::Added {
        import_id,
        rows: stored.count,
        new_holders: new_holders as usize,
        first_id,
        last_id,
        unchanged: stored.unchanged,
    };
    (covers, added)
}
