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
                error: e.to_string(),
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
        crate::files::write(&target, kept.as_bytes(), force).map_err(|e| CliError::Flag {
            flag: "backup".into(),
            value: target.display().to_string(),
            reason: format!("the copy was written, but not its checkpoint log: {e}"),
        })?;
    Ok(Some((placed, n)))
}

/// The store's reason in the command's words: the argument or flag, its value, what to do.
fn refusal(e: Error, file: &Path, register: &Path) -> CliError {
    let (db, f) = (register.display(), file.display());
    let reason = match &e {
        Error::TargetIsSymlink => crate::said!(
            "it is a symbolic link, which vigia neither writes through nor replaces; give the path \
             of a real file",
            "es un enlace simbólico, a través del cual vigia no escribe ni al que reemplaza; indique \
             la ruta de un archivo real"
        ),
        Error::TargetExists => crate::said!(
            "it already exists and was left as it is; pass --force to replace it, or give a new \
             file name (e.g. with the date in it)",
            "ya existe y se dejó como está; use --force para reemplazarlo, o indique otro nombre de \
             archivo (p. ej. con la fecha)"
        ),
        Error::TargetNotAFile => crate::said!(
            "it is a directory or not a plain file; give a file name, e.g. DIR/vigia-YYYY-MM-DD.db",
            "es un directorio o no es un archivo común; indique un nombre de archivo, p. ej. \
             DIRECTORIO/vigia-AAAA-MM-DD.db"
        ),
        Error::TargetIsRegister => crate::said!(
            "it is the register itself (--db {db}) or one of its -wal/-shm/-journal files; write \
             the backup to another file",
            "es el propio registro (--db {db}) o uno de sus archivos -wal/-shm/-journal; escriba la \
             copia en otro archivo"
        ),
        Error::Io { .. } => crate::said!(
            "{e}; check that the directory exists, that you may write there and that there is \
             room; no file was written",
            "{e}; revise que el directorio exista, que pueda escribir allí y que haya espacio; no se \
             escribió ningún archivo"
        ),
        Error::Sqlite(_) => crate::said!(
            "{e}; check --db {db} with `vigia audit verify`; no file was written",
            "{e}; revise --db {db} con `vigia audit verify`; no se escribió ningún archivo"
        ),
        Error::Busy(_) => crate::said!(
            "{e}; stop whatever opened the temporary copy and run it again; no file was written",
            "{e}; detenga lo que abrió la copia temporal y ejecútelo de nuevo; no se escribió ningún \
             archivo"
        ),
        Error::Check(_) => crate::said!(
            "{e}; no file was written; run it again, and if it fails again check the register \
             (--db {db}) with `vigia audit verify`",
            "{e}; no se escribió ningún archivo; ejecútelo de nuevo y, si vuelve a fallar, revise el \
             registro (--db {db}) con `vigia audit verify`"
        ),
    };
    let (en, es) = (reason.en(), reason.es());
    CliError::Said(crate::said!("backup {f}: {en}", "backup {f}: {es}"))
}
