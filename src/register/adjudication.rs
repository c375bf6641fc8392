//! Adjudications: importing a file of them for a program. The file's rows are stored as they are
//! read; these rules then judge what was stored (one document, one holder; the program's offer
//! not exceeded) before the import is sealed by its audit event, or rolled back whole.

use super::Result;
use crate::import::{AdjudicationRow, RowError};
use crate::store::Tx;
use crate::store::import::{self, Imported, Write};
use crate::store::programs::StoredProgram;

/// Imports a file of adjudications for `program` in the caller's transaction, as `feed` reads it
/// (see [`import::write`]): all of it, or nothing with every problem by line. The same file
/// twice adds nothing.
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(
        &mut dyn FnMut(AdjudicationRow) -> crate::store::Result<()>,
    ) -> crate::store::Result<Vec<RowError>>,
) -> Result<Imported> {
    let written = match import::write(tx, program, file_name, sha256, encoding, feed)? {
        Write::AlreadyImported(prior) => return Ok(Imported::AlreadyImported(prior)),
        Write::Written(w) => *w,
    };
    let mut rows = written.file_problems.clone();
    // one document, one holder: within the file and against the register
    rows.extend(written.conflicts.iter().map(|c| RowError {
        line: c.line,
        field: "name".into(),
        value: c.name.clone(),
        reason: format!(
            "{} {} is already registered as {:?} (holder {}, in the register or earlier in this file); one document, one holder",
            c.doc_type, c.doc_number, c.registered_name, c.holder_id
        ),
    }));
    let mut whole = Vec::new();
    let p = &program.program;
    match written.shares {
        Some(shares) if written.already.checked_add(shares).is_some_and(|t| t <= p.shares_offered) => {}
        Some(shares) => whole.push(format!(
            "the file adjudicates {shares} shares; with the {} already registered that exceeds the {} offered by {}",
            written.already, p.shares_offered, p.code
        )),
        None => whole.push(format!(
            "the file's rows add up to more shares than can be counted; {} offers {}",
            p.code, p.shares_offered
        )),
    }
    if !rows.is_empty() || !whole.is_empty() {
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(crate::store::rejected(rows, whole).into());
    }
    Ok(import::seal(tx, written)?)
}
