//! Holders, adjudications (imported all-or-nothing) and the pledges on them (Art. 10).

use super::audit::{Cover, RowHasher};
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx, date, decimal};
use crate::import::{AdjudicationRow, RowError};
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use rust_decimal::Decimal;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Holder {
    pub id: i64,
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
    pub person_type: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Adjudication {
    pub id: i64,
    pub program_id: i64,
    pub program_code: String,
    pub holder: Holder,
    pub category: String,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub adjudicated_on: NaiveDate,
    pub lender: Option<String>,
    pub financed_shares: u64,
    pub import_id: i64,
    pub line: i64,
}

/// An earlier import of the same file: which, when, by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriorImport {
    pub import_id: i64,
    pub at: String,
    pub by: String,
}

/// The earlier import of the same file, if any: `table` is `imports` or `pledge_imports`, and
/// `scope` narrows the match (an adjudications file is imported once per program).
fn prior_import(
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

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    Added {
        import_id: i64,
        rows: usize,
        new_holders: usize,
        first_id: i64,
        last_id: i64,
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
    line: i64,
    category: &'a str,
    shares: i64,
    price_per_share: &'a str,
    adjudicated_on: &'a str,
    lender: Option<&'a str>,
    financed_shares: i64,
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
    own_price: Option<String>,
    row: AdjudicationRow,
}

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
                    line: r.line as i64,
                    category: &r.category,
                    shares: r.shares as i64,
                    price_per_share: w.own_price.as_deref().unwrap_or(ctx.fixed_price),
                    adjudicated_on: std::str::from_utf8(&on).expect("ascii date"),
                    lender: r.lender.as_deref(),
                    financed_shares: r.financed_shares as i64,
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
struct Writer<'a> {
    conn: &'a Connection,
    ctx: RowContext<'a>,
    /// The statements for a full group ([`ROWS_PER_INSERT`] rows), prepared once.
    full: GroupStatements<'a>,
    pending: Vec<Written>,
    done: Vec<Written>,
    to_hasher: std::sync::mpsc::SyncSender<Vec<Written>>,
    problems: Vec<String>,
    holders: (i64, i64),
    adjudications: (i64, i64),
    count: usize,
    shares: u64,
    /// The largest holder id so far: new holders get the ids after it.
    max_holder: i64,
}

impl<'a> Writer<'a> {
    fn add(&mut self, row: AdjudicationRow) -> Result<()> {
        self.count += 1;
        self.shares += row.shares;
        let own_price = row.price_per_share.map(|p| p.to_string());
        self.pending.push(Written {
            id: 0,
            holder_id: 0,
            new_holder: false,
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
        if self.pending.len() == ROWS_PER_INSERT {
            self.store_holders(None)?;
            self.store_adjudications(None)?;
        } else {
            let mut last = GroupStatements::prepare(self.conn, &self.ctx, self.pending.len())?;
            self.store_holders(Some(&mut last.holders))?;
            self.store_adjudications(Some(&mut last.adjudications))?;
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

    /// Stores the pending rows' holders with `stmt`, or the full-group statement.
    fn store_holders(&mut self, stmt: Option<&mut rusqlite::Statement<'a>>) -> Result<()> {
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
                "SELECT id, name FROM holders WHERE doc_type = ?1 AND doc_number = ?2",
            )?;
            let mut hashed: std::collections::HashSet<i64> = std::collections::HashSet::new();
            for w in self.pending.iter_mut() {
                let r = &w.row;
                let (id, name): (i64, String) = find
                    .query_row(params![r.doc_type.as_str(), r.doc_number], |x| {
                        Ok((x.get(0)?, x.get(1)?))
                    })?;
                w.holder_id = id;
                w.new_holder = id > before && hashed.insert(id);
                if !w.new_holder && name != r.name {
                    // one document, one holder: within the file and against the register
                    self.problems.push(format!(
                        "line {}: name {:?}: {} {} is already registered as {:?} (holder {id}, in the register or earlier in this file); one document, one holder",
                        r.line, r.name, r.doc_type, r.doc_number, name
                    ));
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
        Ok(())
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
            stmt.raw_bind_parameter(i + 3, r.shares as i64)?;
            stmt.raw_bind_parameter(i + 4, w.own_price.as_deref())?;
            stmt.raw_bind_parameter(i + 5, std::str::from_utf8(&on).expect("ascii date"))?;
            stmt.raw_bind_parameter(i + 6, r.lender.as_deref())?;
            stmt.raw_bind_parameter(i + 7, r.financed_shares as i64)?;
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
            problems: self.problems,
            holders: self.holders,
            adjudications: self.adjudications,
            count: self.count,
            shares: self.shares,
        })
    }
}

/// What a [`Writer`] stored: problems found, id ranges of new holders and adjudications, rows and
/// shares.
struct StoredRows {
    problems: Vec<String>,
    holders: (i64, i64),
    adjudications: (i64, i64),
    count: usize,
    shares: u64,
}

/// Imports rows for a program in the caller's transaction, as `feed` reads them: `feed` hands
/// each valid row to the sink it is given and returns the problems it found in the file. Refuses
/// (the caller's transaction then writes nothing) on any row problem, on a document already
/// registered under another name, or when the program's offer would be exceeded. Rows are stored
/// in groups by multi-row INSERTs, holders deduplicated by their unique index, and covered by one
/// audit event for the whole import: rows hashed on a second thread as they are written.
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(&mut dyn FnMut(AdjudicationRow) -> Result<()>) -> Result<Vec<RowError>>,
) -> Result<Imported> {
    if let Some(prior) = prior_import(tx.conn(), "imports", sha256, Some(program.id))? {
        return Ok(Imported::AlreadyImported(prior));
    }
    let already: i64 = tx.conn().query_row(
        "SELECT coalesce(sum(shares), 0) FROM adjudications WHERE program_id = ?1",
        params![program.id],
        |r| r.get(0),
    )?;
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
                full: GroupStatements::prepare(tx.conn(), &ctx, ROWS_PER_INSERT)?,
                pending: Vec::with_capacity(ROWS_PER_INSERT),
                done: Vec::with_capacity(HASH_BATCH),
                to_hasher,
                problems: Vec::new(),
                holders: (0, 0),
                adjudications: (0, 0),
                count: 0,
                shares: 0,
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
    let mut problems: Vec<String> = file_problems.iter().map(RowError::to_string).collect();
    problems.extend(stored.problems);
    super::by_line(&mut problems);
    if already as u64 + stored.shares > program.program.shares_offered {
        problems.push(format!(
            "the file adjudicates {} shares; with the {already} already registered that exceeds the {} offered by {}",
            stored.shares, program.program.shares_offered, program.program.code
        ));
    }
    if !problems.is_empty() {
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(StoreError::Rejected(problems));
    }
    let new_holders = holder_hash.count_so_far();
    let (first_id, last_id) = stored.adjudications;
    let mut covers = vec![Cover {
        table: "adjudications",
        first: first_id,
        last: last_id,
        digest: Some(adjudication_hash.finish()),
    }];
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
    })
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

const SELECT: &str = "SELECT a.id, a.program_id, p.code, h.id, h.doc_type, h.doc_number, h.name, h.person_type,
        a.category, a.shares, a.price_per_share, a.adjudicated_on, a.lender, a.financed_shares, a.import_id, a.line
    FROM adjudications a JOIN holders h ON h.id = a.holder_id JOIN programs p ON p.id = a.program_id";

type RawAdjudication = (Adjudication, String, String);

fn raw(r: &Row<'_>) -> rusqlite::Result<RawAdjudication> {
    Ok((
        Adjudication {
            id: r.get(0)?,
            program_id: r.get(1)?,
            program_code: r.get(2)?,
            holder: Holder {
                id: r.get(3)?,
                doc_type: r.get(4)?,
                doc_number: r.get(5)?,
                name: r.get(6)?,
                person_type: r.get(7)?,
            },
            category: r.get(8)?,
            shares: r.get::<_, i64>(9)? as u64,
            price_per_share: Decimal::ZERO,
            adjudicated_on: NaiveDate::MIN,
            lender: r.get(12)?,
            financed_shares: r.get::<_, i64>(13)? as u64,
            import_id: r.get(14)?,
            line: r.get(15)?,
        },
        r.get(10)?,
        r.get(11)?,
    ))
}

fn cook((mut a, price, on): RawAdjudication) -> Result<Adjudication> {
    a.price_per_share = decimal(&price, "price_per_share")?;
    a.adjudicated_on = date(&on, "adjudicated_on")?;
    Ok(a)
}

/// One adjudication.
pub fn get(conn: &Connection, id: i64) -> Result<Adjudication> {
    let r = conn
        .prepare_cached(&format!("{SELECT} WHERE a.id = ?1"))?
        .query_row(params![id], raw)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "adjudication",
            id: id.to_string(),
        })?;
    cook(r)
}

/// Adjudications, optionally of one program and/or one holder document number, in id order,
/// one at a time to `f` as they are read (a national register holds a million).
pub fn each(
    conn: &Connection,
    program_id: Option<i64>,
    doc_number: Option<&str>,
    mut f: impl FnMut(Adjudication) -> Result<()>,
) -> Result<()> {
    let mut stmt = conn.prepare(&format!(
        "{SELECT} WHERE {} AND {} ORDER BY a.id",
        super::filter(program_id.is_some(), "a.program_id", 1),
        super::filter(doc_number.is_some(), "h.doc_number", 2),
    ))?;
    let mut rows = stmt.query(params![program_id, doc_number])?;
    while let Some(r) = rows.next()? {
        f(cook(raw(r)?)?)?;
    }
    Ok(())
}

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
}

/// Pledges on an adjudication, released ones included.
pub fn pledges(conn: &Connection, adjudication_id: i64) -> Result<Vec<Pledge>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.adjudication_id, p.rank, p.beneficiary, p.shares, p.lender, p.registered_on, r.released_on
         FROM pledges p LEFT JOIN pledge_releases r ON r.pledge_id = p.id WHERE p.adjudication_id = ?1 ORDER BY p.id",
    )?;
    let rows = stmt.query_map(params![adjudication_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, Option<String>>(5)?,
            r.get::<_, String>(6)?,
            r.get::<_, Option<String>>(7)?,
        ))
    })?;
    rows.map(|r| {
        let (id, adjudication_id, rank, beneficiary, shares, lender, on, released) = r?;
        Ok(Pledge {
            id,
            adjudication_id,
            rank: rank as u8,
            beneficiary,
            shares: shares as u64,
            lender,
            registered_on: date(&on, "registered_on")?,
            released_on: released.map(|d| date(&d, "released_on")).transpose()?,
        })
    })
    .collect()
}

/// A pledge in force on an adjudication: (id, rank, registered on).
type InForce = (i64, u8, NaiveDate);

/// Art. 10's rules for a new pledge on adjudication `adjudication_id` (adjudicated on
/// `adjudicated_on`, financed by `financed_by`): registered on or after the adjudication, second
/// degree only with a financing lender (the pledge's own or the adjudication's), and no other
/// pledge in force. Returns the lender the pledge records, or the field at fault and why.
fn pledge_rules(
    (adjudication_id, adjudicated_on, financed_by): (i64, NaiveDate, Option<&str>),
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
    in_force: Option<InForce>,
) -> std::result::Result<Option<String>, (&'static str, String)> {
    if registered_on < adjudicated_on {
        return Err((
            "registered_on",
            format!(
                "is before the adjudication on {adjudicated_on}; a pledge is registered after the shares are adjudicated"
            ),
        ));
    }
    let lender = lender.or(financed_by).map(str::to_string);
    if rank == 2 && lender.is_none() {
        return Err((
            "rank",
            format!(
                "adjudication {adjudication_id} has no financing lender; a second-degree pledge is taken only when \
                 the lender holds the first (Art. 10): name the lender or use rank 1"
            ),
        ));
    }
    if let Some((id, rank, on)) = in_force {
        return Err((
            "adjudication_id",
            format!(
                "adjudication {adjudication_id} already has pledge {id} (rank {rank}, registered {on}) in force; release it first"
            ),
        ));
    }
    Ok(lender)
}

/// The pledge in force on an adjudication (the latest, if several), if any.
fn in_force(conn: &Connection, adjudication_id: i64) -> Result<Option<InForce>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.rank, p.registered_on FROM pledges p
         WHERE p.adjudication_id = ?1 AND NOT EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id)
         ORDER BY p.id DESC LIMIT 1",
    )?;
    let found: Option<(i64, i64, String)> = stmt
        .query_row(params![adjudication_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    found
        .map(|(id, rank, on)| Ok((id, rank as u8, date(&on, "registered_on")?)))
        .transpose()
}

/// Registers the pledge of an adjudication's shares to the sellers.
pub fn register_pledge(
    tx: &mut Tx<'_>,
    adjudication: &Adjudication,
    beneficiary: &str,
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
) -> Result<i64> {
    let lender = pledge_rules(
        (
            adjudication.id,
            adjudication.adjudicated_on,
            adjudication.lender.as_deref(),
        ),
        rank,
        registered_on,
        lender,
        in_force(tx.conn(), adjudication.id)?,
    )
    .map_err(|(field, reason)| {
        StoreError::Refused(match field {
            "registered_on" => format!("--registered-on {registered_on}: {reason}"),
            "rank" => format!("--rank {rank}: {reason} (--lender NAME)"),
            _ => reason,
        })
    })?;
    tx.insert(
        "pledges",
        "pledge.register",
        &[
            ("adjudication_id", &adjudication.id),
            ("rank", &i64::from(rank)),
            ("beneficiary", &beneficiary),
            ("shares", &(adjudication.shares as i64)),
            ("lender", &lender),
            ("registered_on", &registered_on.to_string()),
        ],
    )
}

/// A pledge row as audited (columns in table order, like [`super::json_of_row`] reads it).
#[derive(Serialize)]
struct PledgeJson<'a> {
    id: i64,
    adjudication_id: i64,
    rank: i64,
    beneficiary: &'a str,
    shares: i64,
    lender: Option<&'a str>,
    registered_on: &'a str,
    created_at: &'a str,
    created_by: &'a str,
}

/// What a pledge import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PledgesImported {
    Added {
        import_id: i64,
        pledges: usize,
        first_id: i64,
        last_id: i64,
    },
    /// The same file was imported before: nothing added.
    AlreadyImported(PriorImport),
}

/// Registers the pledges of a file (see [`crate::import::each_pledge`]) in the caller's
/// transaction, each under the same rules as [`register_pledge`] (a pledge earlier in the file
/// counts as in force), to the sellers of its adjudication's program. Refuses (the caller's
/// transaction then writes nothing) with every problem found, each naming its line. One audit
/// event covers the whole import.
pub fn import_pledges(
    tx: &mut Tx<'_>,
    file_name: &str,
    sha256: &str,
    encoding: &str,
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
    let mut beneficiaries: std::collections::HashMap<i64, String> = Default::default();
    let (mut first_id, mut last_id, mut count) = (0i64, 0i64, 0usize);
    // the file line of each pledge written, by id - first_id (to name a repeated adjudication)
    let mut lines: Vec<u32> = Vec::new();
    // the pledges as written, in their audited form
    let (mut hasher, mut json) = (RowHasher::default(), Vec::with_capacity(256));
    let file_problems = {
        let conn = tx.conn();
        // what the rules need of each adjudication, not `get` (which also parses the price and
        // reads the holder's name and the program's code: 18 % slower over 900,000 rows)
        let mut adjudication = conn.prepare(
            "SELECT a.program_id, a.shares, a.adjudicated_on, a.lender, h.doc_type, h.doc_number
             FROM adjudications a JOIN holders h ON h.id = a.holder_id WHERE a.id = ?1",
        )?;
        let mut insert = conn.prepare(
            "INSERT INTO pledges (adjudication_id, rank, beneficiary, shares, lender, registered_on, created_at, created_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let (now, actor) = (tx.now(), tx.actor());
        feed(&mut |row| {
            let found: Option<(i64, i64, String, Option<String>, String, String)> = adjudication
                .query_row(params![row.adjudication_id], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ))
                })
                .optional()?;
            let line = row.line;
            let Some((program_id, shares, on, financed_by, doc_type, doc_number)) = found else {
                problems.push(format!(
                    "line {line}: adjudication_id \"{}\": no such adjudication in the register (see `vigia adjudications list`)",
                    row.adjudication_id
                ));
                return Ok(());
            };
            if let Some((t, n)) = &row.holder
                && (t.as_str() != doc_type || *n != doc_number)
            {
                problems.push(format!(
                    "line {line}: doc_number \"{n}\": adjudication {} belongs to {doc_type} {doc_number}, not {t} {n}; check the file's rows",
                    row.adjudication_id
                ));
                return Ok(());
            }
            let adjudicated_on = date(&on, "adjudicated_on")?;
            let current = in_force(conn, row.adjudication_id)?;
            let rules = pledge_rules(
                (row.adjudication_id, adjudicated_on, financed_by.as_deref()),
                row.rank,
                row.registered_on,
                row.lender.as_deref(),
                current,
            );
            // a pledge in force written by this import: the file names the adjudication twice
            let from_this_file = current
                .filter(|(id, _, _)| first_id > 0 && *id >= first_id)
                .map(|(id, _, _)| lines[(id - first_id) as usize]);
            let lender = match (rules, from_this_file) {
                (Ok(lender), _) => lender,
                (Err(("adjudication_id", _)), Some(earlier)) => {
                    problems.push(format!(
                        "line {line}: adjudication_id \"{}\": line {earlier} of this file already pledges it; one pledge in force per adjudication",
                        row.adjudication_id
                    ));
                    return Ok(());
                }
                (Err((field, reason)), _) => {
                    let value = match field {
                        "registered_on" => row.registered_on.to_string(),
                        "rank" => row.rank.to_string(),
                        _ => row.adjudication_id.to_string(),
                    };
                    problems.push(format!("line {line}: {field} \"{value}\": {reason}"));
                    return Ok(());
                }
            };
            // stored even once the import is known to be refused (it is then rolled back), so
            // that a pledge repeated later in the file is still reported
            let beneficiary = match beneficiaries.get(&program_id) {
                Some(b) => b,
                None => {
                    let p = super::programs::by_id(conn, program_id)?;
                    beneficiaries
                        .entry(program_id)
                        .or_insert(p.program.pledge_beneficiary())
                }
            };
            insert.execute(params![
                row.adjudication_id,
                i64::from(row.rank),
                beneficiary,
                shares,
                lender,
                row.registered_on.to_string(),
                now,
                actor
            ])?;
            last_id = conn.last_insert_rowid();
            if first_id == 0 {
                first_id = last_id;
            }
            json.clear();
            serde_json::to_writer(
                &mut json,
                &PledgeJson {
                    id: last_id,
                    adjudication_id: row.adjudication_id,
                    rank: i64::from(row.rank),
                    beneficiary,
                    shares,
                    lender: lender.as_deref(),
                    registered_on: &row.registered_on.to_string(),
                    created_at: now,
                    created_by: actor,
                },
            )
            .expect("row serialises");
            hasher.add_bytes(&json);
            lines.push(line as u32);
            count += 1;
            Ok(())
        })?
    };
    let mut all: Vec<String> = file_problems.iter().map(RowError::to_string).collect();
    all.extend(problems);
    super::by_line(&mut all);
    if !all.is_empty() {
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(StoreError::Rejected(all));
    }
    tx.audit_bulk(
        "pledge.import",
        "pledge_imports",
        import_id,
        &[Cover {
            table: "pledges",
            first: first_id,
            last: last_id,
            digest: Some(hasher.finish()),
        }],
    )?;
    Ok(PledgesImported::Added {
        import_id,
        pledges: count,
        first_id,
        last_id,
    })
}

/// Records the release of a pledge (the caller has checked that it may be released).
pub fn release_pledge(tx: &mut Tx<'_>, pledge_id: i64, on: NaiveDate) -> Result<i64> {
    tx.insert(
        "pledge_releases",
        "pledge.release",
        &[("pledge_id", &pledge_id), ("released_on", &on.to_string())],
    )
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
