//! Where a holder receives letters (address, city, e-mail), as versions: each correction is a new
//! row, the latest in force; a document shows the version in force when it was recorded (the
//! audit trail orders them).

use super::columns::Cols;
use super::{Action, Result, Tx};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

pub use crate::contact::Contact;

/// A stored version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Version {
    pub id: i64,
    pub holder_id: i64,
    pub contact: Contact,
    pub created_at: String,
    pub created_by: String,
}

/// Stores a new version for `holder_id` (audited as `action`).
pub fn insert(tx: &mut Tx<'_>, holder_id: i64, c: &Contact, action: Action) -> Result<i64> {
    tx.insert(
        "holder_contacts",
        action,
        &[
            ("holder_id", &holder_id),
            ("address", &c.address),
            ("city", &c.city),
            ("email", &c.email),
        ],
    )
}

const SELECT: &str =
    "SELECT c.id, c.holder_id, c.address, c.city, c.email, c.created_at, c.created_by
    FROM holder_contacts c";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
    let c = Cols::new(r, "holder_contacts");
    Ok(Version {
        id: c.get(0)?,
        holder_id: c.get(1)?,
        contact: Contact {
            address: c.get(2)?,
            city: c.get(3)?,
            email: c.get(4)?,
        },
        created_at: c.get(5)?,
        created_by: c.get(6)?,
    })
}

/// Every version of a holder's contact details, oldest first.
pub fn history(conn: &Connection, holder_id: i64) -> Result<Vec<Version>> {
    let mut stmt = conn.prepare(&format!("{SELECT} WHERE c.holder_id = ?1 ORDER BY c.id"))?;
    let rows = stmt.query_map(params![holder_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The version in force now.
pub fn current(conn: &Connection, holder_id: i64) -> Result<Option<Contact>> {
    Ok(history(conn, holder_id)?.pop().map(|v| v.contact))
}

/// The version that was in force at audit event `seq`: the latest recorded before it. A document
/// recorded at `seq` shows this one, so a later correction does not change it.
pub fn at_event(conn: &Connection, holder_id: i64, seq: i64) -> Result<Option<Contact>> {
    Ok(conn
        .query_row(
            &format!(
                "{SELECT} JOIN audit_events e ON e.entity = 'holder_contacts' AND e.entity_id = c.id
                 WHERE c.holder_id = ?1 AND e.seq < ?2 ORDER BY e.seq DESC LIMIT 1"
            ),
            params![holder_id, seq],
            from_row,
        )
        .optional()?
        .map(|v| v.contact))
}
