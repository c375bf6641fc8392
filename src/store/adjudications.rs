//! Holders and adjudications as stored: one adjudication, or all of them streamed in id order.
//! The bulk writer that imports them is [`super::import`]; their pledges are [`super::pledges`].

use super::{Result, StoreError, date, decimal};
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
        f(cook(raw(r).map_err(StoreError::from)?)?)?;
    }
    Ok(())
}
