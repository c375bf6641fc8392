//! Holders and adjudications as stored (with their voids): one adjudication, or all of them
//! streamed in id order; voiding one. The bulk writer that imports them is [`super::import`];
//! their pledges are [`super::pledges`].

use super::breaches::Void;
use super::columns::Cols;
use super::{Result, StoreError, Tx};
use crate::ids::DocType;
use crate::import::PersonType;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use rust_decimal::Decimal;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Holder {
    pub id: i64,
    pub doc_type: DocType,
    pub doc_number: String,
    pub name: String,
    pub person_type: PersonType,
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
    /// Voided by mistake: who, when and why (it stays on record; no figure counts it).
    pub void: Option<Void>,
}

const SELECT: &str = "SELECT a.id, a.program_id, p.code, h.id, h.doc_type, h.doc_number, h.name, h.person_type,
        a.category, a.shares, a.price_per_share, a.adjudicated_on, a.lender, a.financed_shares, a.import_id, a.line,
        v.reason, v.created_at, v.created_by
    FROM adjudications a JOIN holders h ON h.id = a.holder_id JOIN programs p ON p.id = a.program_id
    LEFT JOIN adjudication_voids v ON v.adjudication_id = a.id";

impl Holder {
    /// The holder whose columns start at `at`: id, doc_type, doc_number, name, person_type.
    fn from_row(r: &Row<'_>, at: usize) -> rusqlite::Result<Holder> {
        let c = Cols::new(r, "holders");
        Ok(Holder {
            id: c.get(at)?,
            doc_type: c.get(at + 1)?,
            doc_number: c.get(at + 2)?,
            name: c.get(at + 3)?,
            person_type: c.get(at + 4)?,
        })
    }
}

impl Adjudication {
    /// A row of [`SELECT`].
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Adjudication> {
        let c = Cols::new(r, "adjudications");
        Ok(Adjudication {
            id: c.get(0)?,
            program_id: c.get(1)?,
            program_code: Cols::new(r, "programs").get(2)?,
            holder: Holder::from_row(r, 3)?,
            category: c.get(8)?,
            shares: c.shares(9)?,
            price_per_share: c.decimal(10)?,
            adjudicated_on: c.date(11)?,
            lender: c.get(12)?,
            financed_shares: c.shares(13)?,
            import_id: c.get(14)?,
            line: c.get(15)?,
            void: Void::from_row(r, "adjudication_voids", 16)?,
        })
    }
}

/// One adjudication.
pub fn get(conn: &Connection, id: i64) -> Result<Adjudication> {
    conn.prepare_cached(&format!("{SELECT} WHERE a.id = ?1"))?
        .query_row(params![id], Adjudication::from_row)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "adjudication",
            id: id.to_string(),
        })
}

/// Adjudications, optionally of one program and/or one holder document number, in id order,
/// one at a time to `f` as they are read (a national register holds a million). An error from
/// `f` (e.g. the output could not be written) stops the reading and is returned as it is.
pub fn each<E: From<StoreError>>(
    conn: &Connection,
    program_id: Option<i64>,
    doc_number: Option<&str>,
    mut f: impl FnMut(Adjudication) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut stmt = conn
        .prepare(&format!(
            "{SELECT} WHERE {} AND {} ORDER BY a.id",
            super::filter(program_id.is_some(), "a.program_id", 1),
            super::filter(doc_number.is_some(), "h.doc_number", 2),
        ))
        .map_err(StoreError::from)?;
    let mut rows = stmt
        .query(params![program_id, doc_number])
        .map_err(StoreError::from)?;
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        f(Adjudication::from_row(r).map_err(StoreError::from)?)?;
    }
    Ok(())
}

/// Voids an adjudication (the register has checked that nothing depends on it).
pub fn void(tx: &mut Tx<'_>, adjudication_id: i64, reason: &str) -> Result<i64> {
    tx.insert(
        "adjudication_voids",
        crate::store::Action::AdjudicationVoid,
        &[("adjudication_id", &adjudication_id), ("reason", &reason)],
    )
}
