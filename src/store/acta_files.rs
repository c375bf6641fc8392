//! The files vigia wrote of an acta (migration 0017): each one's format and SHA-256, who wrote
//! it and when, and whether it was the file written with the run or conclusion itself.

use super::columns::Cols;
use super::{Result, Tx};
use crate::contact::DocFormat;
use rusqlite::{Connection, OptionalExtension, params};

/// The record an acta is of: the first stage's run, or a later stage's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acta {
    Run(i64),
    Conclusion(i64),
}

impl Acta {
    fn column(self) -> (&'static str, i64) {
        match self {
            Acta::Run(id) => ("run_id", id),
            Acta::Conclusion(id) => ("conclusion_id", id),
        }
    }
}

/// A file vigia wrote of an acta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActaFile {
    pub id: i64,
    pub format: DocFormat,
    pub sha256: String,
    /// Written by the command that recorded the run or conclusion (not written again).
    pub issued: bool,
    pub created_at: String,
    pub created_by: String,
}

/// Records a file written of `acta`.
pub fn insert(
    tx: &mut Tx<'_>,
    acta: Acta,
    format: DocFormat,
    sha256: &str,
    issued: bool,
) -> Result<i64> {
    let (run, conclusion) = match acta {
        Acta::Run(id) => (Some(id), None),
        Acta::Conclusion(id) => (None, Some(id)),
    };
    tx.insert(
        "acta_files",
        crate::store::Action::DocumentRender,
        &[
            ("run_id", &run),
            ("conclusion_id", &conclusion),
            ("format", &format),
            ("sha256", &sha256),
            ("issued", &issued),
        ],
    )
}

/// Whether the register has the table (a register opened without its migrations has not).
fn has_table(conn: &Connection) -> Result<bool> {
    let table: Option<i64> = conn
        .query_row(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'acta_files'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    Ok(table.is_some())
}

/// The files written of `acta`, in the order they were written; `None` on a register that has
/// no such table (opened without being migrated: it recorded no acta's file).
pub fn of(conn: &Connection, acta: Acta) -> Result<Option<Vec<ActaFile>>> {
    if !has_table(conn)? {
        return Ok(None);
    }
    let (col, id) = acta.column();
    let mut stmt = conn.prepare(&format!(
        "SELECT id, format, sha256, issued, created_at, created_by FROM acta_files \
         WHERE {col} = ?1 ORDER BY id"
    ))?;
    let rows = stmt.query_map(params![id], |r| {
        let c = Cols::new(r, "acta_files");
        Ok(ActaFile {
            id: c.get(0)?,
            format: c.get(1)?,
            sha256: c.get(2)?,
            issued: c.get(3)?,
            created_at: c.get(4)?,
            created_by: c.get(5)?,
        })
    })?;
    Ok(Some(rows.collect::<rusqlite::Result<_>>()?))
}

/// Whether `acta`'s run or conclusion was recorded before vigia recorded acta files (before
/// migration 0017 ran on the register): its files may have been written unrecorded.
pub fn predates_records(conn: &Connection, acta: Acta) -> Result<bool> {
    if !has_table(conn)? {
        return Ok(true);
    }
    let (of, id) = match acta {
        Acta::Run(id) => ("offering_runs", id),
        Acta::Conclusion(id) => ("stage_conclusions", id),
    };
    let before: Option<bool> = conn.query_row(
        &format!(
            "SELECT (SELECT created_at FROM {of} WHERE id = ?1) \
             < (SELECT since FROM acta_files_since WHERE id = 1)"
        ),
        params![id],
        |r| r.get(0),
    )?;
    // NULL: no such record (not asked by a verification, which found it)
    Ok(before.unwrap_or(true))
}

/// An acta file's SHA-256 (lower-case hex), read a chunk at a time: [`super::sha256_read`].
pub use super::sha256_read as sha256_of;
