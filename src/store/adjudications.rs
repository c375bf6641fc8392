//! Holders, adjudications (imported all-or-nothing) and the pledges on them (Art. 10).

use super::audit::Cover;
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx, date, decimal};
use crate::import::AdjudicationRow;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::HashMap;

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
    AlreadyImported {
        import_id: i64,
        at: String,
        by: String,
    },
}

/// Imports validated rows for a program in the caller's transaction. Refuses (nothing written)
/// when a document already belongs to a holder with another name, or when the program's offer
/// would be exceeded.
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    rows: &[AdjudicationRow],
) -> Result<Imported> {
    let before: Option<(i64, String, String)> = tx
        .conn()
        .query_row(
            "SELECT id, created_at, created_by FROM imports WHERE program_id = ?1 AND sha256 = ?2",
            params![program.id, sha256],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    if let Some((import_id, at, by)) = before {
        return Ok(Imported::AlreadyImported { import_id, at, by });
    }

    // Same document, one name: within the file and against the register.
    let mut problems = Vec::new();
    let mut seen: HashMap<(String, String), (usize, String)> = HashMap::new();
    let mut known: HashMap<(String, String), Option<(i64, String)>> = HashMap::new();
    for r in rows {
        let key = (r.doc_type.as_str().to_string(), r.doc_number.clone());
        if let Some((line, name)) = seen.get(&key) {
            if *name != r.name {
                problems.push(format!(
                    "line {}: name {:?}: {} {} is {:?} on line {line}; one document, one holder",
                    r.line, r.name, key.0, key.1, name
                ));
            }
        } else {
            seen.insert(key.clone(), (r.line, r.name.clone()));
        }
        if !known.contains_key(&key) {
            let existing = holder_by_doc(tx.conn(), &key.0, &key.1)?.map(|h| (h.id, h.name));
            known.insert(key.clone(), existing);
        }
        if let Some(Some((id, name))) = known.get(&key)
            && *name != r.name
        {
            problems.push(format!(
                "line {}: name {:?}: {} {} is already registered as {:?} (holder {id}); fix the file or the name",
                r.line, r.name, key.0, key.1, name
            ));
        }
    }
    let already: i64 = tx.conn().query_row(
        "SELECT coalesce(sum(shares), 0) FROM adjudications WHERE program_id = ?1",
        params![program.id],
        |r| r.get(0),
    )?;
    let adding: u64 = rows.iter().map(|r| r.shares).sum();
    if already as u64 + adding > program.program.shares_offered {
        problems.push(format!(
            "the file adjudicates {adding} shares; with the {already} already registered that exceeds the {} offered by {}",
            program.program.shares_offered, program.program.code
        ));
    }
    if !problems.is_empty() {
        return Err(StoreError::Refused(format!(
            "nothing was imported:\n  {}",
            problems.join("\n  ")
        )));
    }

    let import_id = tx.insert_unaudited(
        "imports",
        &[
            ("program_id", &program.id),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("rows", &(rows.len() as i64)),
            ("encoding", &encoding),
        ],
    )?;
    let mut holder_ids: HashMap<(String, String), i64> = HashMap::new();
    let mut new_holders = Vec::new();
    let mut adjudication_ids = Vec::with_capacity(rows.len());
    for r in rows {
        let key = (r.doc_type.as_str().to_string(), r.doc_number.clone());
        let holder_id = match (holder_ids.get(&key), known.get(&key)) {
            (Some(id), _) => *id,
            (None, Some(Some((id, _)))) => *id,
            _ => {
                let id = tx.insert_unaudited(
                    "holders",
                    &[
                        ("doc_type", &key.0),
                        ("doc_number", &key.1),
                        ("name", &r.name),
                        ("person_type", &r.person_type.as_str()),
                    ],
                )?;
                new_holders.push(id);
                id
            }
        };
        holder_ids.insert(key, holder_id);
        let price = r
            .price_per_share
            .unwrap_or(program.program.fixed_price)
            .to_string();
        let id = tx.insert_unaudited(
            "adjudications",
            &[
                ("program_id", &program.id),
                ("holder_id", &holder_id),
                ("import_id", &import_id),
                ("line", &(r.line as i64)),
                ("category", &r.category),
                ("shares", &(r.shares as i64)),
                ("price_per_share", &price),
                ("adjudicated_on", &r.adjudicated_on.to_string()),
                ("lender", &r.lender),
                ("financed_shares", &(r.financed_shares as i64)),
            ],
        )?;
        adjudication_ids.push(id);
    }
    let first_id = *adjudication_ids.first().unwrap_or(&0);
    let last_id = *adjudication_ids.last().unwrap_or(&0);
    let mut covers = vec![Cover {
        table: "adjudications",
        first: first_id,
        last: last_id,
    }];
    if let (Some(a), Some(b)) = (new_holders.first(), new_holders.last()) {
        covers.push(Cover {
            table: "holders",
            first: *a,
            last: *b,
        });
    }
    tx.audit_bulk("adjudications.import", "imports", import_id, &covers)?;
    Ok(Imported::Added {
        import_id,
        rows: rows.len(),
        new_holders: new_holders.len(),
        first_id,
        last_id,
    })
}

fn holder_by_doc(conn: &Connection, doc_type: &str, doc_number: &str) -> Result<Option<Holder>> {
    Ok(conn
        .query_row(
            "SELECT id, doc_type, doc_number, name, person_type FROM holders WHERE doc_type = ?1 AND doc_number = ?2",
            params![doc_type, doc_number],
            |r| {
                Ok(Holder { id: r.get(0)?, doc_type: r.get(1)?, doc_number: r.get(2)?, name: r.get(3)?, person_type: r.get(4)? })
            },
        )
        .optional()?)
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
        .query_row(&format!("{SELECT} WHERE a.id = ?1"), params![id], raw)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "adjudication",
            id: id.to_string(),
        })?;
    cook(r)
}

/// Adjudications, optionally of one program and/or one holder document number, in id order.
pub fn list(
    conn: &Connection,
    program_id: Option<i64>,
    doc_number: Option<&str>,
) -> Result<Vec<Adjudication>> {
    let mut stmt = conn.prepare(&format!(
        "{SELECT} WHERE (?1 IS NULL OR a.program_id = ?1) AND (?2 IS NULL OR h.doc_number = ?2) ORDER BY a.id"
    ))?;
    let rows = stmt.query_map(params![program_id, doc_number], raw)?;
    rows.map(|r| cook(r?)).collect()
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
    let mut stmt = conn.prepare(
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

/// Registers the pledge of an adjudication's shares to the sellers.
pub fn register_pledge(
    tx: &mut Tx<'_>,
    adjudication: &Adjudication,
    beneficiary: &str,
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
) -> Result<i64> {
    if registered_on < adjudication.adjudicated_on {
        return Err(StoreError::Refused(format!(
            "--registered-on {registered_on}: is before the adjudication on {}; a pledge is registered after the shares are adjudicated",
            adjudication.adjudicated_on
        )));
    }
    let lender = lender
        .map(str::to_string)
        .or_else(|| adjudication.lender.clone());
    if rank == 2 && lender.is_none() {
        return Err(StoreError::Refused(format!(
            "--rank 2: adjudication {} has no financing lender; a second-degree pledge is taken only when the lender \
             holds the first (Art. 10). Give --lender NAME or use --rank 1",
            adjudication.id
        )));
    }
    if let Some(p) = pledges(tx.conn(), adjudication.id)?
        .into_iter()
        .find(|p| p.released_on.is_none())
    {
        return Err(StoreError::Refused(format!(
            "adjudication {} already has pledge {} (rank {}, registered {}) in force; release it first",
            adjudication.id, p.id, p.rank, p.registered_on
        )));
    }
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

/// Records the release of a pledge (the caller has checked that it may be released).
pub fn release_pledge(tx: &mut Tx<'_>, pledge_id: i64, on: NaiveDate) -> Result<i64> {
    tx.insert(
        "pledge_releases",
        "pledge.release",
        &[("pledge_id", &pledge_id), ("released_on", &on.to_string())],
    )
}
