//! The files vigia wrote of an acta (the first stage's run, a later stage's conclusion): each
//! recorded by its format and SHA-256 in a short transaction of its own, after the file is
//! written (never under the run's write lock), and a document's bytes compared with them when
//! it is verified. Its text is checked apart (`report::acta`, `report::stage_acta`).

use super::Result;
use super::verify::File;
use crate::contact::DocFormat;
use crate::store::Tx;
use crate::store::acta_files::{self, Acta};
use rusqlite::Connection;

/// Records a file written of `acta`: its format and the SHA-256 of its bytes as placed (a
/// signed acta's after its signature). `issued`: written by the command that recorded the run or
/// conclusion.
pub fn written(
    tx: &mut Tx<'_>,
    acta: Acta,
    format: DocFormat,
    sha256: &str,
    issued: bool,
) -> Result<i64> {
    Ok(acta_files::insert(tx, acta, format, sha256, issued)?)
}

/// A document of `acta` whose text matched, its bytes having the SHA-256 `sha256`, against the
/// files vigia wrote of it: the one it is ([`File::Issued`], [`File::RenderedAgain`]); none of
/// them, of an acta recorded before vigia recorded acta files ([`File::NoRecord`]: it may be a
/// file written then); none of them otherwise ([`File::Changed`]:
/// every file vigia wrote of it is recorded, so its bytes were changed).
pub fn compare(conn: &Connection, acta: Acta, sha256: &str) -> Result<File> {
    let written = acta_files::of(conn, acta)?.unwrap_or_default();
    let sha256 = sha256.to_string();
    let found = written.iter().find(|f| f.sha256 == sha256);
    if found.is_none() && acta_files::predates_records(conn, acta)? {
        return Ok(File::NoRecord { sha256 });
    }
    Ok(match found {
        Some(f) if f.issued => File::Issued {
            sha256,
            format: f.format,
            at: f.created_at.clone(),
        },
        Some(f) => File::RenderedAgain {
            sha256,
            format: f.format,
            at: f.created_at.clone(),
            by: f.created_by.clone(),
        },
        None => File::Changed {
            sha256,
            written: written.len(),
        },
    })
}
