//! `vigia backup FILE`: a checked copy of the register, taken while officers keep writing. The
//! copy itself is `store::backup`'s; this file words its refusals with the argument and the flag,
//! shows progress on a terminal and prints the line an officer compares with the register.

use super::{CliError, Ctx, Status};
use crate::store::backup::{self, Error};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// Where to write the copy: a new file in an existing directory, written readable by its
    /// owner only (0600).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Replace FILE if it is an existing plain file (never a symbolic link, a directory or the
    /// register itself).
    #[arg(long)]
    pub force: bool,
}

pub fn run(a: BackupArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let register = ctx.require_db_path()?;
    if !register.exists() {
        return Err(CliError::Unusable {
            flag: "--db",
            value: register.display().to_string(),
            unusable: super::places::Unusable::RegisterToBackUp,
        });
    }
    let terminal = std::io::stderr().is_terminal();
    let mut shown = None;
    let copied = backup::backup(&register, &a.file, a.force, |done, total| {
        let percent = (done * 100).checked_div(total).unwrap_or(100);
        if terminal && shown != Some(percent) {
            eprint!("\rbacking up: {percent} %");
            shown = Some(percent);
        }
    });
    if shown.is_some() {
        eprintln!();
    }
    let copied = copied.map_err(|e| refusal(e, &a.file, &register))?;
    let anchors = copy_checkpoints(ctx, &copied, a.force)?;
    ctx.say(crate::catalogue::msg::Msg::BackupWritten {
        path: &copied.path.display().to_string(),
        bytes: copied.bytes,
        events: copied.events as u64,
        head: copied.head.as_deref(),
    })?;
    if let Some((path, n)) = anchors {
        ctx.say(crate::catalogue::msg::Msg::CheckpointsCopied {
            path: &path.display().to_string(),
            count: n as u64,
        })?;
    }
    Ok(Status::Ok)
}

/// Copies the register's checkpoint log beside the copy (`FILE.checkpoints`, 0600), so that
/// `vigia --db FILE audit verify` checks the copy against the same signed heads. Only the lines
/// the copy's chain reaches are copied: a checkpoint signed after the copy's snapshot would
/// otherwise make the copy look truncated. The lines are copied as they are (the key is not
/// needed: verifying the copy checks their signatures).
fn copy_checkpoints(
    ctx: &Ctx<'_>,
    copied: &backup::Copied,
    force: bool,
) -> Result<Option<(PathBuf, usize)>, CliError> {
    let log = ctx.checkpoint_log()?;
    let text = match std::fs::read_to_string(&log) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(CliError::File {
                flag: "--db",
                path: log,
                error: e,
            });
        }
    };
    let mut kept = String::new();
    let mut n = 0;
    // complete lines only (one without its newline is being appended right now)
    for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
        let reached = serde_json::from_str::<crate::store::checkpoint::Checkpoint>(line)
            .map(|c| c.count <= copied.events)
            // a line that cannot be read is copied as it is: verifying the copy reports it
            .unwrap_or(true);
        if reached {
            kept.push_str(line);
            n += 1;
        }
    }
    let mut target = copied.path.clone().into_os_string();
    target.push(".checkpoints");
    let target = PathBuf::from(target);
    let placed =
        crate::files::write(&target, kept.as_bytes(), force).map_err(|e| CliError::Wrong {
            flag: "backup".into(),
            value: target.display().to_string(),
            why: crate::said!(cli::copy_written_not_checkpoint_log, e),
        })?;
    Ok(Some((placed, n)))
}

/// The store's reason in the command's words: the argument or flag, its value, what to do.
fn refusal(e: Error, file: &Path, register: &Path) -> CliError {
    let (db, f) = (register.display(), file.display());
    let reason = match &e {
        Error::TargetIsSymlink => crate::said!(cli::symbolic_link_which_vigia_neither_writes),
        Error::TargetExists => crate::said!(cli::already_exists_was_left_as_pass),
        Error::TargetNotAFile => crate::said!(cli::directory_not_plain_file_give_file),
        Error::TargetIsRegister => crate::said!(cli::register_itself_db_one_wal_shm, db),
        Error::Io { .. } => crate::said!(cli::check_that_directory_exists_that_you, e),
        Error::Sqlite(_) => crate::said!(cli::check_db_with_vigia_audit_verify, e, db),
        Error::Busy(_) => crate::said!(cli::stop_whatever_opened_temporary_copy_run, e),
        Error::Check(_) => crate::said!(cli::no_file_was_written_run_again, e, db),
    };
    let (en, es) = (reason.en(), reason.es());
    CliError::Said(crate::said!(cli::backup, f, en, es))
}
