//! Files of stored documents written together (the web's zip of a batch of notices): each
//! recorded as a rendering by its SHA-256, as `notice render` records its file, so that every
//! file verifies; the documents themselves are rendered before, outside the transaction.

use super::Result;
use crate::notice::DocFormat;
use crate::store::Tx;
use crate::store::notices::{self, Doc};

/// Records each `(document, format, SHA-256 of its file)` as a rendering, in order.
pub fn rendered_all(tx: &mut Tx<'_>, files: &[(Doc, DocFormat, String)]) -> Result<()> {
    for (doc, format, sha) in files {
        notices::insert_rendering(tx, *doc, *format, sha)?;
    }
    Ok(())
}
