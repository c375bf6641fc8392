//! Pledges of adjudicated shares to the sellers (Art. 10): reading them, storing one, releasing
//! one, and the bulk writer of a file of them. The rules a new pledge must meet are the
//! register's (`register::pledge`): the bulk writer asks its caller's rule for every row.

use super::audit::{Cover, RowHasher};
use super::columns::{Cols, Shares};
use super::import::{PriorImport, prior_import};
use super::{Result, Tx};
use crate::ids::DocType;
use crate::import::RowError;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

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
pub fn list(conn: &Connection, adjudication_id: i64) -> Result<Vec<Pledge>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.adjudication_id, p.rank, p.beneficiary, p.shares, p.lender, p.registered_on, r.released_on
         FROM pledges p LEFT JOIN pledge_releases r ON r.pledge_id = p.id WHERE p.adjudication_id = ?1 ORDER BY p.id",
    )?;
    let rows = stmt.query_map(params![adjudication_id], Pledge::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl Pledge {
    /// A pledge with its release: id, adjudication_id, rank, beneficiary, shares, lender,
    /// registered_on, then `pledge_releases.released_on`.
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
        })
    }
}

/// A pledge in force on an adjudication.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InForce {
    pub id: i64,
    pub rank: u8,
    pub registered_on: NaiveDate,
    /// The line of the file being imported that wrote it, when the import in progress did.
    pub line: Option<u32>,
}

/// What Art. 10's rules look at for a new pledge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate<'a> {
    pub adjudication_id: i64,
    pub adjudicated_on: NaiveDate,
    /// The lender that financed the adjudication, if any.
    pub financed_by: Option<&'a str>,
    pub rank: u8,
    pub registered_on: NaiveDate,
    /// The lender named for the pledge, if any.
    pub lender: Option<&'a str>,
    /// The pledge already in force on the adjudication, if any.
    pub in_force: Option<InForce>,
}

/// The pledge in force on an adjudication (the latest, if several), if any.
pub fn in_force(conn: &Connection, adjudication_id: i64) -> Result<Option<InForce>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.rank, p.registered_on FROM pledges p
         WHERE p.adjudication_id = ?1 AND NOT EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id)
         ORDER BY p.id DESC LIMIT 1",
    )?;
    Ok(stmt
        .query_row(params![adjudication_id], |r| {
            let c = Cols::new(r, "pledges");
            Ok(InForce {
                id: c.get(0)?,
                rank: c.get(1)?,
                registered_on: c.date(2)?,
                line: None,
            })
        })
        .optional()?)
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
        "pledge.register",
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

/// A pledge row as audited (columns in table order, like [`super::json_of_row`] reads it).
#[derive(Serialize)]
struct PledgeJson<'a> {
    id: i64,
    adjudication_id: i64,
    rank: u8,
    beneficiary: &'a str,
    shares: u64,
    lender: Option<&'a str>,
    registered_on: &'a str,
    created_at: &'a str,
    created_by: &'a str,
}

/// What the rules need of the adjudication a pledge file names, not [`super::adjudications::get`]
/// (which also parses the price and reads the holder's name and the program's code: 18 % slower
/// over 900,000 rows).
struct Pledgeable {
    program_id: i64,
    shares: u64,
    adjudicated_on: NaiveDate,
    financed_by: Option<String>,
    doc_type: DocType,
    doc_number: String,
}

impl Pledgeable {
    /// program_id, shares, adjudicated_on, lender of the adjudication; doc_type, doc_number of
    /// its holder.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Pledgeable> {
        let (a, h) = (Cols::new(r, "adjudications"), Cols::new(r, "holders"));
        Ok(Pledgeable {
            program_id: a.get(0)?,
            shares: a.shares(1)?,
            adjudicated_on: a.date(2)?,
            financed_by: a.get(3)?,
            doc_type: h.get(4)?,
            doc_number: h.get(5)?,
        })
    }
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
/// transaction, each accepted by `rules` (which returns the lender the pledge records, or the
/// row's problem without its line; a pledge earlier in the file counts as in force), to the
/// sellers of its adjudication's program. Refuses (the caller's transaction then writes
/// nothing) with every problem found, each naming its line. One audit event covers the whole
/// import.
pub fn import(
    tx: &mut Tx<'_>,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    mut rules: impl FnMut(&Candidate<'_>) -> std::result::Result<Option<String>, RowError>,
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
        // what the rules need of each adjudication (see `Pledgeable`)
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
            let found = adjudication
                .query_row(params![row.adjudication_id], Pledgeable::from_row)
                .optional()?;
            let line = row.line;
            let mut problem = |field: &str, value: String, reason: String| {
                problems.push(RowError {
                    line,
                    field: field.into(),
                    value,
                    reason,
                })
            };
            let Some(Pledgeable {
                program_id,
                shares,
                adjudicated_on,
                financed_by,
                doc_type,
                doc_number,
            }) = found
            else {
                problem(
                    "adjudication_id",
                    row.adjudication_id.to_string(),
                    "no such adjudication in the register (see `vigia adjudications list`)".into(),
                );
                return Ok(());
            };
            if let Some((t, n)) = &row.holder
                && (*t != doc_type || *n != doc_number)
            {
                problem(
                    "doc_number",
                    n.clone(),
                    format!(
                        "adjudication {} belongs to {doc_type} {doc_number}, not {t} {n}; check the file's rows",
                        row.adjudication_id
                    ),
                );
                return Ok(());
            }
            // a pledge in force written by this import: the file names the adjudication twice
            let in_force = in_force(conn, row.adjudication_id)?.map(|f| InForce {
                line: (first_id > 0 && f.id >= first_id).then(|| lines[(f.id - first_id) as usize]),
                ..f
            });
            let candidate = Candidate {
                adjudication_id: row.adjudication_id,
                adjudicated_on,
                financed_by: financed_by.as_deref(),
                rank: row.rank,
                registered_on: row.registered_on,
                lender: row.lender.as_deref(),
                in_force,
            };
            let lender = match rules(&candidate) {
                Ok(lender) => lender,
                Err(e) => {
                    problems.push(RowError { line, ..e });
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
                row.rank,
                beneficiary,
                Shares(shares),
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
                    rank: row.rank,
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
    if !file_problems.is_empty() || !problems.is_empty() {
        let mut rows = file_problems;
        rows.extend(problems);
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(super::rejected(rows, Vec::new()));
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
pub fn release(tx: &mut Tx<'_>, pledge_id: i64, on: NaiveDate) -> Result<i64> {
    tx.insert(
        "pledge_releases",
        "pledge.release",
        &[("pledge_id", &pledge_id), ("released_on", &on.to_string())],
    )
}
