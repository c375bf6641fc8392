//! Accounts of the web interface as stored (migration 0007): users, their password hashes (the
//! latest row wins) and disables, each an audited append-only row. No rule lives here
//! (`register::user` decides); no password is ever handled in clear.

use super::{Result, StoreError, Tx};
use rusqlite::{Connection, OptionalExtension, params};

/// An account as it stands now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub name: String,
    /// `consulta`, `oficial`, `juridico` or `admin` (the schema checks it).
    pub role: String,
    /// The latest password hash (argon2id, PHC string).
    pub phc: Option<String>,
    pub disabled: bool,
    pub created_at: String,
    pub created_by: String,
}

const SELECT: &str = "SELECT u.id, u.name, u.role, u.created_at, u.created_by,
        (SELECT p.phc FROM user_passwords p WHERE p.user_id = u.id ORDER BY p.id DESC LIMIT 1),
        EXISTS (SELECT 1 FROM user_disables d WHERE d.user_id = u.id)
    FROM users u";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        id: r.get(0)?,
        name: r.get(1)?,
        role: r.get(2)?,
        created_at: r.get(3)?,
        created_by: r.get(4)?,
        phc: r.get(5)?,
        disabled: r.get(6)?,
    })
}

/// The account called `name`, if any.
pub fn by_name(conn: &Connection, name: &str) -> Result<Option<User>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE u.name = ?1"))?
        .query_row(params![name], from_row)
        .optional()?)
}

/// Every account, in id order.
pub fn list(conn: &Connection) -> Result<Vec<User>> {
    let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY u.id"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A new account (audited); its password is a separate row.
pub fn insert(tx: &mut Tx<'_>, name: &str, role: &str) -> Result<i64> {
    tx.insert("users", "user.add", &[("name", &name), ("role", &role)])
}

/// A new password hash for an account (audited).
pub fn set_password(tx: &mut Tx<'_>, user_id: i64, phc: &str) -> Result<i64> {
    tx.insert(
        "user_passwords",
        "user.password",
        &[("user_id", &user_id), ("phc", &phc)],
    )
}

/// Disables an account (audited).
pub fn disable(tx: &mut Tx<'_>, user_id: i64) -> Result<i64> {
    tx.insert("user_disables", "user.disable", &[("user_id", &user_id)])
}

/// The account called `name`, or `NotFound`.
pub fn get(conn: &Connection, name: &str) -> Result<User> {
    by_name(conn, name)?.ok_or_else(|| StoreError::NotFound {
        what: "user",
        id: name.to_string(),
    })
}
