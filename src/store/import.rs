//! The bulk writer of an adjudications import: rows stored in groups by multi-row INSERTs,
//! holders deduplicated by their unique index, hashed on a second thread for the import's one
//! audit event. A row whose award (holder, adjudication date) the program already has is not
//! stored: it goes to the register's rule, which says whether it is unchanged or a conflict.
//! Also what every file import shares: finding an earlier import of the same file.

use super::audit::{Cover, RowHasher};
use super::columns::{Cols, Shares};
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx};
use crate::import::{AdjudicationRow, RowError};
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use serde::Serialize;

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
pub(super) const UNCHANGED_NAMED: usize = 5;

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

/// A holder row as audited (columns in table order; must serialise exactly like
/// [`super::json_of_row`] reads it back).
#[derive(Serialize)]
struct HolderRow<'a> {
    id: i64,
    doc_type: &'a str,
    doc_number: &'a str,
    name: &'a str,
    person_type: &'a str,
    created_at: &'a str,
    created_by: &'a str,
}

/// An adjudication row as audited.
#[derive(Serialize)]
struct AdjudicationJson<'a> {
    id: i64,
    program_id: i64,
    holder_id: i64,
    import_id: i64,
    line: usize,
    category: &'a str,
    shares: u64,
    price_per_share: &'a str,
    adjudicated_on: &'a str,
    lender: Option<&'a str>,
    financed_shares: u64,
    created_at: &'a str,
    created_by: &'a str,
}

/// Rows stored per INSERT statement (an adjudication binds 12 values, a holder 6).
const ROWS_PER_INSERT: usize = 64;

/// Rows hashed per message to the hashing thread.
const HASH_BATCH: usize = 1024;

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
    let (mut holders, mut adjudications) = (RowHasher::default(), RowHasher::default());
    let mut json = Vec::with_capacity(512);
    for batch in rows {
        for w in batch {
            let r = &w.row;
            if w.new_holder {
                json.clear();
                serde_json::to_writer(
                    &mut json,
                    &HolderRow {
                        id: w.holder_id,
                        doc_type: r.doc_type.as_str(),
                        doc_number: &r.doc_number,
                        name: &r.name,
                        person_type: r.person_type.as_str(),
                        created_at: ctx.now,
                        created_by: ctx.actor,
                    },
                )
                .expect("row serialises");
                holders.add_bytes(&json);
            }
            let on = iso_date(r.adjudicated_on);
            json.clear();
            serde_json::to_writer(
                &mut json,
                &AdjudicationJson {
                    id: w.id,
                    program_id: ctx.program_id,
                    holder_id: w.holder_id,
                    import_id: ctx.import_id,
                    line: r.line,
                    category: &r.category,
                    shares: r.shares,
                    price_per_share: w.own_price.as_deref().unwrap_or(ctx.fixed_price),
                    adjudicated_on: std::str::from_utf8(&on).expect("ascii date"),
                    lender: r.lender.as_deref(),
                    financed_shares: r.financed_shares,
                    created_at: ctx.now,
                    created_by: ctx.actor,
                },
            )
            .expect("row serialises");
            adjudications.add_bytes(&json);
        }
    }
    (holders, adjudications)
}

/// The VALUES of a multi-row INSERT of `rows` rows. The values every row shares (program,
/// import, the program's price, when and by whom) are the numbered parameters `?1..?shared`,
/// bound once per statement; in `row`, `$1..$9` are the row's own fields, numbered after them,
/// so a row binds only those (`per_row` of them).
fn values_sql(row: &str, shared: usize, per_row: usize, rows: usize) -> String {
    let groups: Vec<String> = (0..rows)
        .map(|k| {
            (1..=per_row).fold(row.to_string(), |sql, i| {
                sql.replace(&format!("${i}"), &format!("?{}", shared + per_row * k + i))
            })
        })
        .collect();
    groups.join(", ")
}

const INSERT_HOLDERS: &str =
    "INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, created_by) VALUES";
/// Shared: `?1` now, `?2` actor.
const HOLDER_ROW: &str = "($1, $2, $3, $4, ?1, ?2)";
const INSERT_ADJUDICATIONS: &str =
    "INSERT INTO adjudications (program_id, holder_id, import_id, line, category, shares,
     price_per_share, adjudicated_on, lender, financed_shares, created_at, created_by) VALUES";
/// Shared: `?1` program, `?2` import, `?3` the program's price (for a row without its own),
/// `?4` now, `?5` actor.
const ADJUDICATION_ROW: &str = "(?1, $1, ?2, $2, $3, $4, coalesce($5, ?3), $6, $7, $8, ?4, ?5)";

/// The two statements that store a group of rows, with the shared values bound.
struct GroupStatements<'a> {
    holders: rusqlite::Statement<'a>,
    adjudications: rusqlite::Statement<'a>,
}

impl<'a> GroupStatements<'a> {
    fn prepare(conn: &'a Connection, ctx: &RowContext<'_>, rows: usize) -> Result<Self> {
        let mut holders = conn.prepare(&format!(
            "{INSERT_HOLDERS} {} ON CONFLICT (doc_type, doc_number) DO NOTHING",
            values_sql(HOLDER_ROW, 2, 4, rows)
        ))?;
        holders.raw_bind_parameter(1, ctx.now)?;
        holders.raw_bind_parameter(2, ctx.actor)?;
        let mut adjudications = conn.prepare(&format!(
            "{INSERT_ADJUDICATIONS} {}",
            values_sql(ADJUDICATION_ROW, 5, 8, rows)
        ))?;
        adjudications.raw_bind_parameter(1, ctx.program_id)?;
        adjudications.raw_bind_parameter(2, ctx.import_id)?;
        adjudications.raw_bind_parameter(3, ctx.fixed_price)?;
        adjudications.raw_bind_parameter(4, ctx.now)?;
        adjudications.raw_bind_parameter(5, ctx.actor)?;
        Ok(GroupStatements {
            holders,
            adjudications,
        })
    }
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
    /// The statements for a full group ([`ROWS_PER_INSERT`] rows), prepared once.
    full: GroupStatements<'a>,
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
}

impl<'a> Writer<'a, '_, '_> {
    fn add(&mut self, row: AdjudicationRow) -> Result<()> {
        let own_price = row.price_per_share.map(|p| p.to_string());
        self.pending.push(Written {
            id: 0,
            holder_id: 0,
            new_holder: false,
            holder_conflict: false,
            own_price,
            row,
        });
        if self.pending.len() == ROWS_PER_INSERT {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let all_new = if self.pending.len() == ROWS_PER_INSERT {
            self.store_holders(None)?
        } else {
            let mut last = GroupStatements::prepare(self.conn, &self.ctx, self.pending.len())?;
            self.store_holders(Some(&mut last.holders))?
        };
        // a holder new in this group has no award yet: only a group with a holder seen before
        // (registered, or earlier in the file) can repeat one
        if !all_new {
            self.set_repeats_aside()?;
        }
        if self.pending.len() == ROWS_PER_INSERT {
            self.store_adjudications(None)?;
        } else if !self.pending.is_empty() {
            let mut last = GroupStatements::prepare(self.conn, &self.ctx, self.pending.len())?;
            self.store_adjudications(Some(&mut last.adjudications))?;
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
                    let on = iso_date(r.adjudicated_on);
                    let on = std::str::from_utf8(&on).expect("ascii date");
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
                Ok(()) => {
                    self.unchanged.count += 1;
                    if self.unchanged.first.len() < UNCHANGED_NAMED {
                        self.unchanged.first.push((r.line, repeated.registered.id));
                    }
                }
                Err(problem) => self.repeats.push(problem),
            }
        }
        self.pending = keep;
        Ok(())
    }

    /// Stores the pending rows' holders with `stmt`, or the full-group statement. True when
    /// every document was new.
    fn store_holders(&mut self, stmt: Option<&mut rusqlite::Statement<'a>>) -> Result<bool> {
        let conn = self.conn;
        let before = self.max_holder;
        let stmt = stmt.unwrap_or(&mut self.full.holders);
        let mut i = 3;
        for w in &self.pending {
            let r = &w.row;
            stmt.raw_bind_parameter(i, r.doc_type.as_str())?;
            stmt.raw_bind_parameter(i + 1, &r.doc_number)?;
            stmt.raw_bind_parameter(i + 2, &r.name)?;
            stmt.raw_bind_parameter(i + 3, r.person_type.as_str())?;
            i += 4;
        }
        let inserted = stmt.raw_execute()?;
        if inserted == self.pending.len() {
            // every document was new: rowids were given in order
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

    /// Stores the pending rows' adjudications with `stmt`, or the full-group statement.
    fn store_adjudications(&mut self, stmt: Option<&mut rusqlite::Statement<'a>>) -> Result<()> {
        let conn = self.conn;
        let stmt = stmt.unwrap_or(&mut self.full.adjudications);
        let mut i = 6;
        for w in &self.pending {
            let r = &w.row;
            let on = iso_date(r.adjudicated_on);
            stmt.raw_bind_parameter(i, w.holder_id)?;
            stmt.raw_bind_parameter(i + 1, r.line as i64)?;
            stmt.raw_bind_parameter(i + 2, &r.category)?;
            stmt.raw_bind_parameter(i + 3, Shares(r.shares))?;
            stmt.raw_bind_parameter(i + 4, w.own_price.as_deref())?;
            stmt.raw_bind_parameter(i + 5, std::str::from_utf8(&on).expect("ascii date"))?;
            stmt.raw_bind_parameter(i + 6, r.lender.as_deref())?;
            stmt.raw_bind_parameter(i + 7, Shares(r.financed_shares))?;
            i += 8;
        }
        stmt.raw_execute()?;
        // a single INSERT without conflict clauses gives consecutive rowids
        let last = conn.last_insert_rowid();
        let first = last - self.pending.len() as i64 + 1;
        for (k, w) in self.pending.iter_mut().enumerate() {
            w.id = first + k as i64;
        }
        if self.adjudications.0 == 0 {
            self.adjudications.0 = first;
        }
        self.adjudications.1 = last;
        Ok(())
    }

    /// Stores what is left and sends the last rows to the hashing thread (dropping the channel,
    /// which ends it).
    fn finish(mut self) -> Result<StoredRows> {
        self.flush()?;
        if !self.done.is_empty() {
            let _ = self.to_hasher.send(std::mem::take(&mut self.done));
        }
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

/// Stores the rows of a file for a program in the caller's transaction, as `feed` reads them:
/// `feed` hands each valid row to the sink it is given and returns the problems it found in the
/// file. Rows are stored in groups by multi-row INSERTs, holders deduplicated by their unique
/// index, and hashed on a second thread as they are written. A row whose award is already
/// registered (see [`Repeated`]) is not stored but handed to `judge`. What was stored comes back
/// as facts for the register's rules; [`seal`] then covers it with one audit event, or the
/// caller rolls the transaction back.
pub fn write(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    judge: &mut Judge<'_>,
    feed: impl FnOnce(&mut dyn FnMut(AdjudicationRow) -> Result<()>) -> Result<Vec<RowError>>,
) -> Result<Write> {
    if let Some(prior) = prior_import(tx.conn(), "imports", sha256, Some(program.id))? {
        return Ok(Write::AlreadyImported(prior));
    }
    let already = program_shares(tx.conn(), program.id)?;
    let import_id = tx.insert_unaudited(
        "imports",
        &[
            ("program_id", &program.id),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ],
    )?;
    let (now, actor) = (tx.now().to_string(), tx.actor().to_string());
    let fixed_price = program.program.fixed_price.to_string();
    let ctx = RowContext {
        program_id: program.id,
        import_id,
        fixed_price: &fixed_price,
        now: &now,
        actor: &actor,
    };
    let (file_problems, stored, holder_hash, adjudication_hash) =
        std::thread::scope(|scope| -> Result<_> {
            let (to_hasher, from_store) = std::sync::mpsc::sync_channel::<Vec<Written>>(4);
            let hasher = scope.spawn(move || hash_rows(&ctx, from_store));
            let mut writer = Writer {
                conn: tx.conn(),
                ctx,
                fixed_price: program.program.fixed_price,
                judge,
                unchanged: Unchanged::default(),
                repeats: Vec::new(),
                full: GroupStatements::prepare(tx.conn(), &ctx, ROWS_PER_INSERT)?,
                pending: Vec::with_capacity(ROWS_PER_INSERT),
                done: Vec::with_capacity(HASH_BATCH),
                to_hasher,
                conflicts: Vec::new(),
                holders: (0, 0),
                adjudications: (0, 0),
                count: 0,
                shares: Some(0),
                max_holder: tx.conn().query_row(
                    "SELECT coalesce(max(id), 0) FROM holders",
                    [],
                    |r| r.get(0),
                )?,
            };
            let fed = feed(&mut |row| writer.add(row));
            let stored = writer.finish();
            let (holder_hash, adjudication_hash) =
                hasher.join().expect("the hashing thread does not panic");
            Ok((fed?, stored?, holder_hash, adjudication_hash))
        })?;
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
    let mut stmt = conn.prepare_cached(
        "SELECT a.shares FROM adjudications a WHERE a.program_id = ?1
           AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)",
    )?;
    let mut rows = stmt.query(params![program_id])?;
    let mut total: u64 = 0;
    while let Some(r) = rows.next()? {
        let n = Cols::new(r, "adjudications").shares(0)?;
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
    tx.audit_bulk("adjudications.import", "imports", import_id, &covers)?;
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

/// `YYYY-MM-DD` without going through a formatter (a million rows pass here).
fn iso_date(d: NaiveDate) -> [u8; 10] {
    use chrono::Datelike;
    let (y, m, day) = (d.year() as u32, d.month(), d.day());
    let digit = |n: u32| b'0' + (n % 10) as u8;
    [
        digit(y / 1000),
        digit(y / 100),
        digit(y / 10),
        digit(y),
        b'-',
        digit(m / 10),
        digit(m),
        b'-',
        digit(day / 10),
        digit(day),
    ]
}

#[cfg(test)]
mod tests {
    use super::values_sql;

    #[test]
    fn each_row_numbers_its_own_parameters_after_the_shared_ones() {
        // one shared value, two per row: row 0 binds ?2 ?3, row 1 binds ?4 ?5
        assert_eq!(
            values_sql("($1, ?1, $2)", 1, 2, 2),
            "(?2, ?1, ?3), (?4, ?1, ?5)"
        );
        // the statements' real shapes: 5 shared + 64 rows x 8 = 517 parameters
        let sql = values_sql(super::ADJUDICATION_ROW, 5, 8, 64);
        assert!(
            sql.ends_with("coalesce(?514, ?3), ?515, ?516, ?517, ?4, ?5)"),
            "{sql}"
        );
        assert!(!sql.contains('$'));
    }
}
