//! `audit verify` for both front ends (`vigia audit verify` and the web's `/auditoria/verificar`):
//! the register checked against everything that anchors it, the checkpoint log beside it and the
//! checkpoints the chain records, by one function; what it found comes back as facts for each
//! front end to word.

use crate::store::StoreError;
use crate::store::anchors::{self, InChain, Recorded};
use crate::store::audit::{self, Anchor, Verification};
use crate::store::checkpoint::{self, CheckpointError, Key, Log};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// What [`verify`] found.
pub struct Audit {
    /// The chain through every anchor, every row against its event, the schema and the file.
    pub verification: Verification,
    /// The checkpoint log, when there is one with a line at least (an empty log anchors nothing:
    /// it is reported like a missing one).
    pub log: Option<Log>,
    pub log_path: PathBuf,
    /// The checkpoints the chain records, oldest first.
    pub recorded: Vec<Recorded>,
    /// Those checked with the key: anchors, problems, notes.
    pub in_chain: InChain,
    /// The first checkpoint the chain records since its last re-anchor that the log lacks (an
    /// index into `recorded`), where the log's every line verifies.
    pub missing: Option<usize>,
}

impl Audit {
    /// Intact: the register, a log whose every line verifies, every checkpoint the chain records
    /// verifies and is in the log. Then the log's last line is the last checkpoint.
    pub fn anchored(&self) -> Option<(usize, &(usize, checkpoint::Checkpoint))> {
        self.log
            .as_ref()
            .filter(|l| {
                self.verification.intact()
                    && l.problems.is_empty()
                    && self.in_chain.problems.is_empty()
                    && self.missing.is_none()
            })
            .and_then(|l| Some((l.anchors.len(), l.last.as_ref()?)))
    }

    /// The times the log was started again (`audit checkpoint --reanchor`), oldest first.
    pub fn reanchors(&self) -> impl Iterator<Item = (&Recorded, &str)> {
        self.recorded
            .iter()
            .filter_map(|r| Some((r, r.reanchor_reason.as_deref()?)))
    }
}

/// Why [`verify`] could not run.
#[derive(Debug)]
pub enum Failed {
    Store(StoreError),
    Checkpoint(CheckpointError),
}

impl From<StoreError> for Failed {
    fn from(e: StoreError) -> Failed {
        Failed::Store(e)
    }
}

impl From<CheckpointError> for Failed {
    fn from(e: CheckpointError) -> Failed {
        Failed::Checkpoint(e)
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Store(e) => e.fmt(f),
            Failed::Checkpoint(e) => e.fmt(f),
        }
    }
}

/// The checkpoint log of the register at `db`: `<db>.checkpoints`.
pub fn log_path(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".checkpoints");
    PathBuf::from(p)
}

/// Verifies the register on `conn` against the checkpoint log at `log_path` and the checkpoints
/// the chain records, each checked with `key`.
pub fn verify(conn: &Connection, key: &Key, log_path: &Path) -> Result<Audit, Failed> {
    // the log and the recorded checkpoints before the snapshot: every head they signed is then
    // in the snapshot
    let log = checkpoint::read(log_path, key)?.filter(|l| l.lines > 0);
    let recorded = anchors::list(conn)?;
    let in_chain = anchors::check_recorded(key, &recorded);
    let mut all: Vec<Anchor> = log.as_ref().map(|l| l.anchors.clone()).unwrap_or_default();
    all.extend(in_chain.anchors.iter().cloned());
    let verification = audit::verify_against(conn, &all)?;
    // (a line that does not verify is reported as such, not again as a checkpoint it lacks)
    let missing = log
        .as_ref()
        .filter(|l| l.problems.is_empty())
        .and_then(|l| missing_from_log(&recorded, l));
    Ok(Audit {
        verification,
        log,
        log_path: log_path.to_path_buf(),
        recorded,
        in_chain,
        missing,
    })
}

/// Whether the register's audit chain holds: with the audit key, as [`verify`] finds it intact
/// (every anchor, the log, the rows, the schema, the file); without it, the chain, the rows, the
/// schema and the file alone. Asked only when an acta does not match the register (a genuine
/// acta stops matching when the register was changed behind vigia's back): it reads the whole
/// register.
pub fn holds(conn: &Connection, key: Option<&Key>, log_path: &Path) -> Result<bool, Failed> {
    Ok(match key {
        Some(key) => verify(conn, key, log_path)?.anchored().is_some(),
        None => audit::verify(conn)?.intact(),
    })
}

/// What the acta pages know of the register's audit chain ([`holds`]) when an acta does not
/// match the register: the web verifies it in the background and remembers the verdict for the
/// register's state, so a page may come before the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainNow {
    /// It holds: an acta that does not match is not the register's.
    Holds,
    /// It does not hold, or could not be checked: the register itself needs review.
    DoesNotHold,
    /// No verdict for the register as it stands yet: its verification is under way.
    BeingVerified,
}

/// The first checkpoint the chain records since its last re-anchor that the log lacks.
pub fn missing_from_log(recorded: &[Recorded], log: &Log) -> Option<usize> {
    let since = recorded
        .iter()
        .rposition(|r| r.reanchor_reason.is_some())
        .unwrap_or(0);
    recorded[since..]
        .iter()
        .position(|r| !log.anchors.iter().any(|a| a.head == r.checkpoint.head()))
        .map(|i| since + i)
}
