//! The files `offer adjudicate --acta`, `offer acta`, `stage adjudicate|desert --acta` and
//! `stage acta` write, recorded (`register::acta_files`: format and SHA-256, a short write
//! transaction of its own once the file is placed and, with `--sign`, signed), and an acta's
//! bytes compared with them by `offer verify` and `stage verify` once its text matched: a file
//! that is none of them is said first (the headline never says «verificada» of it), then the
//! text's details, then the file's.

use super::{CliError, Ctx};
use crate::register::verify::File;
use crate::report::acta::Format;
use crate::store::Store;
use crate::store::acta_files::Acta;
use std::path::Path;

/// The SHA-256 of the file at `path`, read a chunk at a time; a failure names `flag`.
fn sha256_of(path: &Path, flag: &'static str) -> Result<String, CliError> {
    let error = |e: std::io::Error| CliError::File {
        flag,
        path: path.to_path_buf(),
        error: e,
    };
    let f = std::fs::File::open(path).map_err(error)?;
    crate::store::sha256_read(f).map_err(error)
}

/// Records the acta file placed at `path` (signed already when `--sign` was given: its bytes as
/// they stay), in a write transaction of its own: never under the run's lock. A file that could
/// not be recorded is removed (the command that wrote it can write it again), so that no file
/// of an acta is left that vigia would not know.
pub(super) fn record(
    store: &mut Store,
    officer: &str,
    (acta, format): (Acta, Format),
    (path, flag): (&Path, &'static str),
    issued: bool,
) -> Result<(), CliError> {
    let recorded = sha256_of(path, flag).and_then(|sha| {
        store
            .write::<_, crate::register::Error>(officer, |tx| {
                crate::register::acta_files::written(tx, acta, format.doc_format(), &sha, issued)
            })
            .map_err(CliError::from)
    });
    if recorded.is_err() {
        let _ = std::fs::remove_file(path);
    }
    recorded.map(|_| ())
}

/// [`record`] of the file `--acta` wrote of a run or conclusion just committed (`what`, said):
/// a failure says that it is in the register and that `again --out PATH` writes its acta again.
pub(super) fn issued(
    store: &mut Store,
    officer: &str,
    acta: (Acta, Format),
    path: &Path,
    (what, again): (crate::lang::Said, String),
) -> Result<(), CliError> {
    record(store, officer, acta, (path, "--acta"), true).map_err(|e| {
        let again = format!("{again} --out {}", path.display());
        super::notice::acta_unwritten(&what, "--acta", &e, &again)
    })
}

/// After an acta's text matched: its bytes against the files vigia wrote of `acta`.
pub(super) fn compared(
    conn: &rusqlite::Connection,
    acta: Acta,
    (file, flag): (&Path, &'static str),
) -> Result<File, CliError> {
    let sha = sha256_of(file, flag)?;
    Ok(crate::register::acta_files::compare(conn, acta, &sha)?)
}

/// The headline of an acta whose text matched but whose file is none vigia wrote, said before
/// the text's details; nothing for a file vigia wrote (or one written before its records).
pub(super) fn say_headline(ctx: &mut Ctx<'_>, found: &File) -> Result<(), CliError> {
    if let Some(line) = crate::catalogue::file_words::acta_headline(ctx.lang, found) {
        writeln!(ctx.out, "{line}")?;
    }
    Ok(())
}

/// The acta's file against the files vigia wrote of it, said on a line of its own after the
/// text's details. `false` when it is none of them (its bytes were changed: a finding).
pub(super) fn say_file(ctx: &mut Ctx<'_>, found: &File) -> Result<bool, CliError> {
    let line = crate::catalogue::file_words::acta(ctx.lang, found);
    writeln!(ctx.out, "{line}")?;
    Ok(found.ok())
}
