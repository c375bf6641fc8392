//! Signed checkpoints of the audit chain, kept outside the database (as Certificate Transparency
//! does for its logs): an Ed25519 key file, and a log file of signed chain heads (event count,
//! head hash, UTC time). Owns those two files and their formats; reads nothing from SQLite.

use super::audit::{Anchor, Head};
use crate::lang::Said;
use crate::said;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a signature covers: the format's name and version, then the head and the time.
fn message(count: i64, head: &str, at: &str) -> String {
    format!("vigia audit checkpoint v1\n{count}\n{head}\n{at}\n")
}

/// Errors of the key file and the checkpoint log.
#[derive(Debug)]
pub enum CheckpointError {
    /// The key file cannot be created, read or understood.
    Key { path: PathBuf, why: Said },
    /// There is no key file at the path: `vigia init` creates one, or the key is elsewhere (each
    /// front end says how to name its path).
    KeyMissing { path: PathBuf },
    /// The checkpoint log cannot be read or appended to.
    Log { path: PathBuf, why: Said },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Key { path, why } => {
                write!(f, "audit key {}: {}", path.display(), why.en())
            }
            CheckpointError::KeyMissing { path } => write!(
                f,
                "audit key {}: there is no key there; create one with the register, or give the key's path",
                path.display()
            ),
            CheckpointError::Log { path, why } => {
                write!(f, "checkpoint log {}: {}", path.display(), why.en())
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

type Result<T> = std::result::Result<T, CheckpointError>;

/// The audit key: the public half always, the secret half when this copy can sign.
pub struct Key {
    path: PathBuf,
    public: VerifyingKey,
    secret: Option<SigningKey>,
}

impl Key {
    /// Creates a new key file at `path` (mode 0600; its directory, when created, 0700). Refuses
    /// if anything exists there, a symbolic link included: a key is never overwritten.
    pub fn create(path: &Path) -> Result<Key> {
        let fail = |why: Said| CheckpointError::Key {
            path: path.to_path_buf(),
            why,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder
                .create(dir)
                .map_err(|e| fail(said!(store::key_directory_not_created, e)))?;
        }
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| fail(said!(store::key_no_random_bytes, e)))?;
        let secret = SigningKey::from_bytes(&seed);
        let public = secret.verifying_key();
        let text = format!(
            "# vigia audit key (Ed25519). Whoever holds the secret line can sign checkpoints of the\n\
             # audit chain: keep it away from the register. A copy without it can only verify.\n\
             public {}\nsecret {}\n",
            super::hex(public.as_bytes()),
            super::hex(&secret.to_bytes()),
        );
        let mut options = std::fs::OpenOptions::new();
        // O_CREAT | O_EXCL: fails on anything already there, and never follows a symbolic link
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options
            .open(path)
            .map_err(|e| fail(said!(store::key_not_created, e)))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| fail(said!(store::key_not_written, e)))?;
        Ok(Key {
            path: path.to_path_buf(),
            public,
            secret: Some(secret),
        })
    }

    /// Reads a key file: a symbolic link is refused, and so is a secret key other users can read.
    pub fn load(path: &Path) -> Result<Key> {
        let fail = |why: Said| CheckpointError::Key {
            path: path.to_path_buf(),
            why,
        };
        let meta = std::fs::symlink_metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                CheckpointError::KeyMissing {
                    path: path.to_path_buf(),
                }
            } else {
                fail(said!(store::cannot_be_read, e))
            }
        })?;
        if meta.file_type().is_symlink() || !meta.is_file() {
            return Err(fail(said!(store::key_not_regular_file)));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| fail(said!(store::cannot_be_read, e)))?;
        let mut public = None;
        let mut secret = None;
        for line in text.lines().map(str::trim) {
            match line.split_once(' ') {
                Some(("public", h)) => {
                    public = Some(bytes32(h).ok_or_else(|| fail(said!(store::key_public_not_hex)))?)
                }
                Some(("secret", h)) => {
                    secret = Some(bytes32(h).ok_or_else(|| fail(said!(store::key_secret_not_hex)))?)
                }
                _ => {}
            }
        }
        let public = public.ok_or_else(|| fail(said!(store::key_no_public_line)))?;
        let public =
            VerifyingKey::from_bytes(&public).map_err(|_| fail(said!(store::key_not_ed25519)))?;
        let secret = secret.map(|s| SigningKey::from_bytes(&s));
        if let Some(s) = &secret {
            if s.verifying_key() != public {
                return Err(fail(said!(store::key_lines_mismatch)));
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = meta.permissions().mode() & 0o777;
                if mode & 0o077 != 0 {
                    let mode = format!("{mode:o}");
                    return Err(fail(said!(store::key_readable_by_others, mode)));
                }
            }
        }
        Ok(Key {
            path: path.to_path_buf(),
            public,
            secret,
        })
    }

    /// The key's id: the first 16 hex digits of the SHA-256 of its public half.
    pub fn id(&self) -> String {
        super::sha256_hex(self.public.as_bytes())[..16].to_string()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Signs `head` as of `at` (UTC, RFC 3339).
    pub fn sign(&self, head: &Head, at: &str) -> Result<Checkpoint> {
        let secret = self.secret.as_ref().ok_or_else(|| CheckpointError::Key {
            path: self.path.clone(),
            why: said!(store::key_public_only),
        })?;
        let sig = secret.sign(message(head.count, &head.hash, at).as_bytes());
        Ok(Checkpoint {
            count: head.count,
            head: head.hash.clone(),
            at: at.to_string(),
            key: self.id(),
            signature: super::hex(&sig.to_bytes()),
        })
    }

    /// Why `c` was not signed by this key, if it was not.
    pub fn check(&self, c: &Checkpoint) -> Option<Said> {
        if c.key != self.id() {
            let (other, this) = (&c.key, self.id());
            return Some(said!(store::was_signed_by_another_key_id_2, other, this));
        }
        let sig = bytes64(&c.signature).map(|b| Signature::from_bytes(&b));
        let ok = sig.is_some_and(|s| {
            self.public
                .verify_strict(message(c.count, &c.head, &c.at).as_bytes(), &s)
                .is_ok()
        });
        (!ok).then(|| said!(store::signature_does_not_verify_line_was))
    }
}

/// One signed chain head: a line of the checkpoint log (JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Events in the chain.
    pub count: i64,
    /// Hash of the last event (all zeros for an empty chain).
    pub head: String,
    /// When it was signed, UTC.
    pub at: String,
    /// Id of the key that signed it.
    pub key: String,
    /// Ed25519 signature, hex.
    pub signature: String,
}

impl Checkpoint {
    pub fn head(&self) -> Head {
        Head {
            count: self.count,
            hash: self.head.clone(),
        }
    }
}

/// The checkpoint log as read and checked with a key.
#[derive(Debug, Default)]
pub struct Log {
    /// Every line that verifies, as a head the chain must pass through.
    pub anchors: Vec<Anchor>,
    /// The last line that verifies.
    pub last: Option<(usize, Checkpoint)>,
    /// Lines that do not verify, one sentence each.
    pub problems: Vec<Said>,
    /// Lines in the log (a line still being written, without its newline, is not counted).
    pub lines: usize,
}

/// Reads the checkpoint log at `path` and checks every line with `key`; `None` when there is no
/// log there.
pub fn read(path: &Path, key: &Key) -> Result<Option<Log>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(CheckpointError::Log {
                path: path.to_path_buf(),
                why: said!(store::cannot_be_read, e),
            });
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    // a line is complete with its newline: one without is being appended right now
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut log = Log::default();
    for (i, line) in complete.lines().enumerate() {
        let n = i + 1;
        log.lines = n;
        let c = match serde_json::from_str::<Checkpoint>(line) {
            Ok(c) => c,
            Err(e) => {
                log.problems
                    .push(said!(store::line_checkpoint_log_cannot_read, n, e));
                continue;
            }
        };
        match key.check(&c) {
            Some(why) => {
                let (en, es) = (why.en(), why.es());
                log.problems
                    .push(said!(store::line_checkpoint_log, n, en, es))
            }
            None => {
                let at = &c.at;
                log.anchors.push(Anchor {
                    name: said!(store::checkpoint_signed, n, at),
                    head: c.head(),
                });
                log.last = Some((n, c));
            }
        }
    }
    Ok(Some(log))
}

/// Appends `c` to the log at `path` as one line, in one write (creating the log, mode 0600).
pub fn append(path: &Path, c: &Checkpoint) -> Result<()> {
    let fail = |e: std::io::Error| CheckpointError::Log {
        path: path.to_path_buf(),
        why: said!(store::log_not_appended, e),
    };
    let mut line = serde_json::to_string(c).expect("a checkpoint serialises");
    line.push('\n');
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(fail)?;
    file.write_all(line.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)
}

fn bytes32(hex: &str) -> Option<[u8; 32]> {
    unhex(hex)?.try_into().ok()
}

fn bytes64(hex: &str) -> Option<[u8; 64]> {
    unhex(hex)?.try_into().ok()
}

fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(count: i64) -> Head {
        Head {
            count,
            hash: super::super::sha256_hex(&count.to_le_bytes()),
        }
    }

    #[test]
    fn a_signed_log_reads_back_and_an_altered_line_does_not_verify() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::create(&dir.path().join("k/audit.key")).unwrap();
        let log = dir.path().join("r.db.checkpoints");
        for n in [0, 3, 7] {
            append(&log, &key.sign(&head(n), "2026-03-16T02:00:00Z").unwrap()).unwrap();
        }
        let read_back = read(&log, &Key::load(key.path()).unwrap())
            .unwrap()
            .unwrap();
        assert!(read_back.problems.is_empty());
        assert_eq!(read_back.anchors.len(), 3);
        assert_eq!(read_back.last.as_ref().unwrap().1.head(), head(7));
        // the count raised by hand
        let text = std::fs::read_to_string(&log).unwrap();
        std::fs::write(&log, text.replacen("\"count\":7", "\"count\":8", 1)).unwrap();
        let altered = read(&log, &key).unwrap().unwrap();
        assert_eq!(
            altered.problems.iter().map(Said::en).collect::<Vec<_>>(),
            [
                "line 3 of the checkpoint log: its signature does not verify: the line was altered or forged"
            ]
        );
        // signed by somebody else's key
        let other = Key::create(&dir.path().join("other.key")).unwrap();
        let foreign = read(&log, &other).unwrap().unwrap();
        assert_eq!(foreign.anchors.len(), 0);
        assert!(foreign.problems[0].en().contains("signed by another key"));
        assert!(foreign.problems[0].es().contains("lo firmó otra clave"));
        // a line being written (no newline yet) is not read
        let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        f.write_all(b"{\"count\":").unwrap();
        assert_eq!(read(&log, &key).unwrap().unwrap().lines, 3);
    }

    #[cfg(unix)]
    #[test]
    fn the_key_is_private_never_overwritten_and_a_link_is_not_followed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.key");
        let key = Key::create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(Key::create(&path).is_err(), "overwrote a key");
        assert_eq!(Key::load(&path).unwrap().id(), key.id());
        let link = dir.path().join("link.key");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(Key::create(&link).is_err());
        assert!(Key::load(&link).is_err());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        match Key::load(&path) {
            Err(e) => assert!(e.to_string().contains("chmod 600"), "{e}"),
            Ok(_) => panic!("a key others can read was accepted"),
        }
        // a public-only copy verifies but cannot sign
        let public = dir.path().join("public.key");
        let text = std::fs::read_to_string(&path).unwrap();
        let only: String = text
            .lines()
            .filter(|l| !l.starts_with("secret"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&public, only).unwrap();
        let copy = Key::load(&public).unwrap();
        assert_eq!(copy.id(), key.id());
        assert!(copy.sign(&head(1), "2026-01-01T00:00:00Z").is_err());
    }
}
