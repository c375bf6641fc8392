//! The acta files the web writes (the first stage's and a later stage's downloads), recorded
//! as the command line records its own (`register::acta_files`: format and SHA-256, in a short
//! write transaction after the file is rendered, never under another write), and an uploaded
//! acta's bytes compared with the files vigia wrote of it, once its text verified.

use super::WebError;
use crate::register::verify::File;
use crate::report::acta::Format;
use crate::store::Store;
use crate::store::acta_files::Acta;
use std::io::Seek;

/// What checking an uploaded acta (the first stage's or a later stage's) against the register
/// found, in Spanish.
pub(super) enum Verdict {
    Matches(String),
    /// Not an acta of this page (unreadable, another program or stage, nothing to compare with).
    DoesNot(String),
    /// This page's acta, compared with the register, does not match it (its text, or the
    /// register's own records): only then is the audit chain asked about
    /// (`App::chain_now`).
    Differs(String),
    /// Its text matches the register, but its bytes are none of the files vigia wrote of it:
    /// not verified, and said first (an officer reading the headline alone is not misled).
    FileChanged {
        headline: String,
        said: String,
    },
}

/// Records the acta file rendered into `file` (a private temporary file, then sent), under
/// `officer`: its SHA-256 read from it, the file rewound for the download.
pub(super) fn record(
    s: &mut Store,
    officer: &str,
    (acta, format): (Acta, Format),
    file: &mut std::fs::File,
) -> Result<(), WebError> {
    let failed = |e: std::io::Error| WebError::internal(format!("temporary file: {e}"));
    file.rewind().map_err(failed)?;
    let sha = crate::store::acta_files::sha256_of(&mut *file).map_err(failed)?;
    file.rewind().map_err(failed)?;
    s.write::<_, crate::register::Error>(officer, |tx| {
        crate::register::acta_files::written(tx, acta, format.doc_format(), &sha, false)
    })?;
    Ok(())
}

/// The verdict on an uploaded acta of `acta` whose text verified (`text`, the sentence that
/// says so), once its `bytes` are compared with the files vigia wrote of it: verified, with the
/// sentence that says what the file is (Spanish, as the command line's `offer verify` says it);
/// or, when they are none of them, not verified, the catalogue's headline (`NO VERIFICADA: …`,
/// what `vigia offer verify` says first) before the text's verdict said as the text's.
pub(super) fn verdict(
    conn: &rusqlite::Connection,
    acta: Acta,
    bytes: &[u8],
    text: String,
) -> Result<Verdict, WebError> {
    let sha = crate::store::sha256_hex(bytes);
    let found: File = crate::register::acta_files::compare(conn, acta, &sha)?;
    let said = crate::catalogue::file_words::acta(crate::lang::Lang::Es, &found);
    let mut chars = said.chars();
    let said: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let file = format!("{said}.");
    Ok(
        match crate::catalogue::file_words::acta_headline(crate::lang::Lang::Es, &found) {
            None => Verdict::Matches(format!("{text} {file}")),
            Some(headline) => {
                // the text's verdict as the text's, not the acta's
                let text = text.replacen("El acta coincide", "El texto del acta coincide", 1);
                Verdict::FileChanged {
                    headline: format!("{headline}."),
                    said: format!("{text} {file}"),
                }
            }
        },
    )
}
