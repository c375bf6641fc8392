//! A document signed after the register's commit (issue 26), the same way from both front ends:
//! the signature's location is the letterhead's city, its visible block the letterhead's
//! signatory, its claimed time the caller's clock in Colombia's legal time; and the key files an
//! office keeps on the server for `vigia serve` (`VIGIA_SIGN_KEYS`), read owner-only and never
//! through a link.

use crate::program::Issuer;
use crate::sign::{self, Details, SignError, Signer, TsaUrl};
use crate::store::programs::StoredProgram;
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// `program`'s letterhead in force (the register's, else the program file's): its city is where
/// its documents are signed, as the notices' date line says; its signatory, the visible block's.
pub fn letterhead(conn: &Connection, p: &StoredProgram) -> Option<Issuer> {
    crate::store::letterheads::current(conn, p.id)
        .ok()
        .flatten()
        .map(|l| l.issuer)
        .or_else(|| Some(p.program.letters.issuer.clone()))
}

/// `pdf` signed by `signer` for `reason` ("Notificación de multa MULTA-2025-0001"), at `now`
/// (the signer's claim, said in Colombia's legal time, not the server's zone), located and with
/// the visible block of `letterhead`, timestamped by `tsa` when given.
pub fn sign(
    pdf: &[u8],
    signer: &Signer,
    tsa: Option<&TsaUrl>,
    reason: &str,
    letterhead: Option<&Issuer>,
    now: DateTime<Utc>,
) -> Result<Vec<u8>, SignError> {
    let location = location(letterhead);
    sign::sign_pdf(
        pdf,
        signer,
        &details(&location, tsa, reason, letterhead, now),
    )
}

/// Why a document's file could not be signed.
#[derive(Debug)]
pub enum SignFileError {
    Sign(SignError),
    File(crate::files::FileError),
}

impl std::fmt::Display for SignFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignFileError::Sign(e) => write!(f, "{e}"),
            SignFileError::File(e) => write!(f, "{e}"),
        }
    }
}

/// The PDF at `path` signed as [`sign`] signs bytes, in place: the file is read where its
/// cross-references point and hashed a buffer at a time, then copied with the signature's update
/// appended to a temporary file renamed over it (`files::append`): memory holds a buffer, not
/// the document (a million acceptances' acta is 264 MB).
pub fn sign_file(
    path: &Path,
    signer: &Signer,
    tsa: Option<&TsaUrl>,
    reason: &str,
    letterhead: Option<&Issuer>,
    now: DateTime<Utc>,
) -> Result<(), SignFileError> {
    use std::os::unix::fs::FileExt;
    let io = |e: std::io::Error| {
        SignFileError::File(crate::files::FileError::Io {
            path: path.to_path_buf(),
            error: e,
        })
    };
    crate::files::check_target(path, true).map_err(SignFileError::File)?;
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let read = |at: u64, buf: &mut [u8]| file.read_exact_at(buf, at);
    let location = location(letterhead);
    let update = sign::signature_update(
        len,
        &read,
        signer,
        &details(&location, tsa, reason, letterhead, now),
    )
    .map_err(SignFileError::Sign)?;
    crate::files::append(path, &file, len, &update).map_err(SignFileError::File)?;
    Ok(())
}

/// Where a document is signed: the letterhead's city, in Colombia.
fn location(letterhead: Option<&Issuer>) -> String {
    let city = letterhead.and_then(|l| l.city.as_deref());
    match city {
        Some(c) if !c.trim().is_empty() => format!("{}, Colombia", c.trim()),
        _ => "Colombia".to_string(),
    }
}

/// What the signature says about itself (see [`sign`]).
fn details<'a>(
    location: &'a str,
    tsa: Option<&'a TsaUrl>,
    reason: &'a str,
    letterhead: Option<&'a Issuer>,
    now: DateTime<Utc>,
) -> Details<'a> {
    Details {
        reason,
        location,
        time: now.with_timezone(&crate::calendar::colombia()),
        signatory: letterhead.and_then(|l| {
            let name = l
                .signatory_name
                .as_deref()
                .filter(|n| !n.trim().is_empty())?;
            Some((name, l.signatory_position.as_deref().unwrap_or("")))
        }),
        tsa,
    }
}

/// The reason a notice's signature gives.
pub fn notice_reason(number: &str) -> String {
    format!("Notificación de multa {number}")
}

/// The reason a paz y salvo's signature gives.
pub fn settlement_reason(number: &str) -> String {
    format!("Paz y salvo {number}")
}

/// Why a key file kept on the server could not be read.
#[derive(Debug)]
pub enum KeyFileError {
    /// the account has no key file there (its path)
    Missing(PathBuf),
    /// the path is a link, or not a regular file (its path)
    NotPlainFile(PathBuf),
    /// the file can be read by others than its owner (its path, its mode)
    NotPrivate(PathBuf, u32),
    /// it could not be read (its path, why)
    Unreadable(PathBuf, String),
}

/// Key files are at most this big: a PKCS#12 with its chain is a few kilobytes.
pub const MAX_KEY_FILE: u64 = 256 << 10;

/// The PKCS#12 file of account `user` in `dir` (`USER.p12`): a plain file (not a link), owner-only
/// (no permission for group or others), read once; the account names vigia accepts have no path
/// separator, a name that does is refused as missing.
pub fn read_key_file(dir: &Path, user: &str) -> Result<Vec<u8>, KeyFileError> {
    use std::io::Read;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let path = dir.join(format!("{user}.p12"));
    if user.is_empty() || user.starts_with('.') || user.contains(['/', '\\', '\0']) {
        return Err(KeyFileError::Missing(path));
    }
    let meta = match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(KeyFileError::Missing(path));
        }
        Err(e) => return Err(KeyFileError::Unreadable(path, e.to_string())),
        Ok(m) => m,
    };
    if !meta.file_type().is_file() {
        return Err(KeyFileError::NotPlainFile(path));
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(KeyFileError::NotPrivate(path, mode));
    }
    let unreadable = |e: std::io::Error| KeyFileError::Unreadable(path.clone(), e.to_string());
    let file = std::fs::File::open(&path).map_err(unreadable)?;
    // the file opened is the one looked at, not a link put in its place since
    let opened = file.metadata().map_err(unreadable)?;
    if (opened.dev(), opened.ino()) != (meta.dev(), meta.ino()) {
        return Err(KeyFileError::NotPlainFile(path));
    }
    let mut bytes = Vec::new();
    file.take(MAX_KEY_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_KEY_FILE {
        return Err(KeyFileError::Unreadable(
            path,
            format!("larger than {MAX_KEY_FILE} bytes"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_key_file_is_read_only_when_owner_only_plain_and_named_by_an_account() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("julia.p12");
        std::fs::write(&p, b"p12").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(
            read_key_file(dir.path(), "julia"),
            Err(KeyFileError::NotPrivate(_, 0o644))
        ));
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_key_file(dir.path(), "julia").unwrap(), b"p12");
        std::os::unix::fs::symlink(&p, dir.path().join("adela.p12")).unwrap();
        assert!(matches!(
            read_key_file(dir.path(), "adela"),
            Err(KeyFileError::NotPlainFile(_))
        ));
        assert!(matches!(
            read_key_file(dir.path(), "oscar"),
            Err(KeyFileError::Missing(_))
        ));
        assert!(matches!(
            read_key_file(dir.path(), "../julia"),
            Err(KeyFileError::Missing(_))
        ));
    }
}
