//! The letters' letterhead of a program as register data (migration 0011): each change a new
//! version, the latest in force; and the text version each document issued since records (its
//! layout, the letterhead it shows, its issue day, why it is dated earlier). A document with no
//! text row is of an earlier version: layout 1, the program file's letterhead.

use super::columns::Cols;
use super::{Result, Tx};
use crate::program::Issuer;
use crate::store::notices::Doc;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

/// One stored version of a program's letterhead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Letterhead {
    pub id: i64,
    pub program_id: i64,
    pub issuer: Issuer,
    pub created_at: String,
    pub created_by: String,
}

/// Stores a new version of `program_id`'s letterhead.
pub fn insert(tx: &mut Tx<'_>, program_id: i64, i: &Issuer) -> Result<i64> {
    tx.insert(
        "letterheads",
        crate::store::Action::LettersSet,
        &[
            ("program_id", &program_id),
            ("entity", &i.entity),
            ("nit", &i.nit),
            ("address", &i.address),
            ("city", &i.city),
            ("bank", &i.bank),
            ("account", &i.account),
            ("reference", &i.reference),
            ("signatory_name", &i.signatory_name),
            ("signatory_position", &i.signatory_position),
        ],
    )
}

const SELECT: &str = "SELECT id, program_id, entity, nit, address, city, bank, account, reference,
    signatory_name, signatory_position, created_at, created_by FROM letterheads";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Letterhead> {
    let c = Cols::new(r, "letterheads");
    Ok(Letterhead {
        id: c.get(0)?,
        program_id: c.get(1)?,
        issuer: Issuer {
            entity: c.get(2)?,
            nit: c.get(3)?,
            address: c.get(4)?,
            city: c.get(5)?,
            bank: c.get(6)?,
            account: c.get(7)?,
            reference: c.get(8)?,
            signatory_name: c.get(9)?,
            signatory_position: c.get(10)?,
        },
        created_at: c.get(11)?,
        created_by: c.get(12)?,
    })
}

/// Every version of a program's letterhead, oldest first.
pub fn history(conn: &Connection, program_id: i64) -> Result<Vec<Letterhead>> {
    let mut stmt = conn.prepare(&format!("{SELECT} WHERE program_id = ?1 ORDER BY id"))?;
    let rows = stmt.query_map(params![program_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The version in force now.
pub fn current(conn: &Connection, program_id: i64) -> Result<Option<Letterhead>> {
    Ok(history(conn, program_id)?.pop())
}

pub fn get(conn: &Connection, id: i64) -> Result<Letterhead> {
    conn.query_row(&format!("{SELECT} WHERE id = ?1"), params![id], from_row)
        .optional()?
        .ok_or_else(|| super::StoreError::NotFound {
            what: "letterhead",
            id: id.to_string(),
        })
}

/// The text version a document was issued with (none for a document of an earlier version).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocText {
    /// 2 for the documents of issue 20 (see `report::notice_v2`).
    pub layout: u8,
    pub letterhead_id: i64,
    /// The day it was issued (the officer's date), which a notice's own date may precede.
    pub issued_on: NaiveDate,
    /// Why a notice is dated before the day it was issued.
    pub backdate_reason: Option<String>,
}

/// Records the text version of a document just stored.
pub fn insert_text(tx: &mut Tx<'_>, doc: Doc, t: &DocText) -> Result<i64> {
    let (notice, settlement) = match doc {
        Doc::Notice(id) => (Some(id), None),
        Doc::Settlement(id) => (None, Some(id)),
    };
    tx.insert(
        "document_texts",
        crate::store::Action::DocumentText,
        &[
            ("notice_id", &notice),
            ("settlement_id", &settlement),
            ("layout", &i64::from(t.layout)),
            ("letterhead_id", &t.letterhead_id),
            ("issued_on", &t.issued_on.to_string()),
            ("backdate_reason", &t.backdate_reason),
        ],
    )
}

/// The text version of a document, if it has one.
pub fn text_of(conn: &Connection, doc: Doc) -> Result<Option<DocText>> {
    let (col, id) = match doc {
        Doc::Notice(id) => ("notice_id", id),
        Doc::Settlement(id) => ("settlement_id", id),
    };
    Ok(conn
        .query_row(
            &format!(
                "SELECT layout, letterhead_id, issued_on, backdate_reason FROM document_texts WHERE {col} = ?1"
            ),
            params![id],
            |r| {
                let c = Cols::new(r, "document_texts");
                let layout: i64 = c.get(0)?;
                Ok(DocText {
                    layout: u8::try_from(layout).unwrap_or(u8::MAX),
                    letterhead_id: c.get(1)?,
                    issued_on: c.date(2)?,
                    backdate_reason: c.get(3)?,
                })
            },
        )
        .optional()?)
}
