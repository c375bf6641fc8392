//! Accounts of the web interface as stored (migration 0007): users, their password hashes (the
//! latest row wins) and disables, and (migration 0010) their sign-ins, each an audited
//! append-only row. No rule lives here (`register::user` decides); no password is ever handled in
//! clear.

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
    /// The row of `user_passwords` that hash is (a new password is a new row).
    pub password_id: Option<i64>,
    pub disabled: bool,
    pub created_at: String,
    pub created_by: String,
}

const SELECT: &str = "SELECT u.id, u.name, u.role, u.created_at, u.created_by,
        (SELECT p.phc FROM user_passwords p WHERE p.user_id = u.id ORDER BY p.id DESC LIMIT 1),
        EXISTS (SELECT 1 FROM user_disables d WHERE d.user_id = u.id),
        (SELECT p.id FROM user_passwords p WHERE p.user_id = u.id ORDER BY p.id DESC LIMIT 1)
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
        password_id: r.get(7)?,
    })
}

/// The account called `name`, if any.
pub fn by_name(conn: &Connection, name: &str) -> Result<Option<User>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE u.name = ?1"))?
        .query_row(params![name], from_row)
        .optional()?)
}

/// The account `id`, if any: a seek of the primary key and of the indexes of its passwords and
/// disables (what every request of a web session reads).
pub fn by_id(conn: &Connection, id: i64) -> Result<Option<User>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE u.id = ?1"))?
        .query_row(params![id], from_row)
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
    tx.insert(
        "users",
        crate::store::Action::UserAdd,
        &[("name", &name), ("role", &role)],
    )
}

/// A new password hash for an account (audited).
pub fn set_password(tx: &mut Tx<'_>, user_id: i64, phc: &str) -> Result<i64> {
    tx.insert(
        "user_passwords",
        crate::store::Action::UserPassword,
        &[("user_id", &user_id), ("phc", &phc)],
    )
}

/// Disables an account (audited).
pub fn disable(tx: &mut Tx<'_>, user_id: i64) -> Result<i64> {
    tx.insert(
        "user_disables",
        crate::store::Action::UserDisable,
        &[("user_id", &user_id)],
    )
}

/// The table of sign-ins (migration 0010).
pub const SIGN_INS: &str = "user_sign_ins";

/// A sign-in attempt on an account (audited): `succeeded`, or failed.
pub fn record_sign_in(tx: &mut Tx<'_>, user_id: i64, succeeded: bool) -> Result<i64> {
    let action = if succeeded {
        crate::store::Action::UserSignIn
    } else {
        crate::store::Action::UserSignInFailed
    };
    tx.insert(
        SIGN_INS,
        action,
        &[("user_id", &user_id), ("succeeded", &succeeded)],
    )
}

/// The failed sign-ins on an account since the later of its last successful sign-in and its
/// latest password (all of them if it never signed in and its password was never changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failures {
    pub count: u64,
    /// When the latest was recorded (UTC, RFC 3339), if there is one.
    pub latest_at: Option<String>,
}

/// The failures counted by [`failures_since_sign_in`] (`?1`: the account).
const FAILURES: &str = "WITH success AS (
             SELECT coalesce(max(id), 0) AS id FROM user_sign_ins
             WHERE user_id = ?1 AND succeeded = 1
         ),
         password AS (
             SELECT coalesce((
                 SELECT e.seq FROM audit_events e
                 WHERE e.entity = 'user_passwords'
                   AND e.entity_id = (SELECT max(p.id) FROM user_passwords p
                                      WHERE p.user_id = ?1)
             ), 0) AS seq
         ),
         since AS (
             SELECT coalesce((
                 SELECT s.id FROM user_sign_ins s
                 JOIN audit_events e ON e.entity = 'user_sign_ins' AND e.entity_id = s.id
                 WHERE s.user_id = ?1 AND s.succeeded = 0
                   AND s.id > (SELECT id FROM success)
                   AND e.seq < (SELECT seq FROM password)
                 ORDER BY s.id DESC LIMIT 1
             ), (SELECT id FROM success)) AS id
         )
         SELECT
             (SELECT count(*) FROM user_sign_ins
              WHERE user_id = ?1 AND succeeded = 0 AND id > (SELECT id FROM since)),
             (SELECT created_at FROM user_sign_ins
              WHERE user_id = ?1 AND succeeded = 0 AND id > (SELECT id FROM since)
              ORDER BY id DESC LIMIT 1)";

/// The failed sign-ins on account `user_id` since the later of its last successful sign-in and
/// the setting of its latest password (`register::user::locked_until` decides what they mean).
///
/// A password and a sign-in are rows of two tables, and their times are whole seconds, so which
/// came first is read from the audit trail, which orders every write of the register: the
/// password's event (a seek of `audit_entity`) against the events of the failures since the last
/// success, walked from the newest back to the first one before it (seeks of `audit_entity`, as
/// many as the failures recorded after the password, and all of them since the last success
/// when the password is older; sign-ins are only ever added, so their ids grow in the trail's
/// order). The count and the latest failure after that are seeks of the `(user_id, succeeded,
/// id)` index.
pub fn failures_since_sign_in(conn: &Connection, user_id: i64) -> Result<Failures> {
    let (count, latest_at): (i64, Option<String>) = conn
        .prepare_cached(FAILURES)?
        .query_row(params![user_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(Failures {
        count: u64::try_from(count)
            .map_err(|_| StoreError::Corrupt(format!("a count of {count} sign-ins")))?,
        latest_at,
    })
}

/// The account called `name`, or `NotFound`.
pub fn get(conn: &Connection, name: &str) -> Result<User> {
    by_name(conn, name)?.ok_or_else(|| StoreError::NotFound {
        what: "user",
        id: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn the_failures_are_counted_through_indexes() {
        let store = Store::in_memory().unwrap();
        let plan: Vec<String> = store
            .conn()
            .prepare(&format!("EXPLAIN QUERY PLAN {FAILURES}"))
            .unwrap()
            .query_map([7i64], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        // every read of the three tables is a seek of one of their indexes: the only scans are
        // of the one-row results of the query's own steps
        for step in &plan {
            if let Some(what) = step.strip_prefix("SCAN ") {
                assert!(
                    ["CONSTANT ROW", "success", "password", "since"].contains(&what),
                    "{step} in {plan:?}"
                );
            }
        }
        let plan = plan.join("; ");
        for index in ["user_sign_ins_user", "audit_entity", "user_passwords_user"] {
            assert!(plan.contains(index), "{index} in {plan}");
        }
    }
}
