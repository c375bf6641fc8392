//! Paths the command line cannot use, in each language: the refusals of `--db` and `--key`
//! before any command runs, and of a document's `--out`, `--acta` or `--dir`, naming the flag,
//! the environment variable and the command or flag that helps (the command line's own words,
//! so they live beside it).

use super::CliError;
use crate::files::FileError;
use crate::lang::Lang;

/// Why a path given by a flag cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    /// No `--db`, no `VIGIA_DB` and no data directory on this system.
    DataDirectory,
    /// No `--key`, no `VIGIA_KEY` and no configuration directory on this system.
    ConfigDirectory,
    /// The register named is not there.
    Register,
    /// `vigia backup` of a register that is not there.
    RegisterToBackUp,
    /// A document's path holds a file and `--force` was not given.
    Exists,
    /// A document's path is a symbolic link.
    Symlink,
    /// A document's path is a directory.
    IsDir,
}

impl Unusable {
    /// The reason in `lang`.
    pub fn reason(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Unusable::DataDirectory, Lang::En) => {
                "no data directory is known on this system; pass --db PATH or set VIGIA_DB"
            }
            (Unusable::DataDirectory, Lang::Es) => {
                "este sistema no tiene directorio de datos conocido; indique --db RUTA o defina \
                 VIGIA_DB"
            }
            (Unusable::ConfigDirectory, Lang::En) => {
                "no configuration directory is known on this system; pass --key PATH or set \
                 VIGIA_KEY"
            }
            (Unusable::ConfigDirectory, Lang::Es) => {
                "este sistema no tiene directorio de configuración conocido; indique --key RUTA o \
                 defina VIGIA_KEY"
            }
            (Unusable::Register, Lang::En) => {
                "there is no register there; create it with `vigia init` (same --db) first"
            }
            (Unusable::Register, Lang::Es) => {
                "no hay un registro allí; créelo primero con `vigia init` (con el mismo --db)"
            }
            (Unusable::RegisterToBackUp, Lang::En) => {
                "there is no register there to back up; check the path (or VIGIA_DB)"
            }
            (Unusable::RegisterToBackUp, Lang::Es) => {
                "no hay un registro allí del cual sacar copia; revise la ruta (o VIGIA_DB)"
            }
            (Unusable::Exists, Lang::En) => {
                "a file already exists there; pass --force to replace it"
            }
            (Unusable::Exists, Lang::Es) => {
                "ya hay un archivo allí; agregue --force para reemplazarlo"
            }
            (Unusable::Symlink, Lang::En) => {
                "it is a symbolic link; vigia does not write through links: give the real path"
            }
            (Unusable::Symlink, Lang::Es) => {
                "es un enlace simbólico; vigia no escribe a través de enlaces: indique la ruta real"
            }
            (Unusable::IsDir, Lang::En) => "it is a directory; give a file name",
            (Unusable::IsDir, Lang::Es) => "es un directorio; indique un nombre de archivo",
        }
    }
}

/// Why a file could not be written or moved, in each language (an I/O error in the
/// catalogue's words, the others as [`Unusable`] says them).
pub(crate) fn file_error_said(e: &FileError) -> crate::lang::Said {
    crate::lang::Said::each(|lang| match e {
        FileError::Exists(_) => Unusable::Exists.reason(lang).to_string(),
        FileError::Symlink(_) => Unusable::Symlink.reason(lang).to_string(),
        FileError::IsDir(_) => Unusable::IsDir.reason(lang).to_string(),
        FileError::Io { error, .. } => crate::catalogue::of(lang).io_error(error),
    })
}

/// A document that could not be written at `flag`'s path.
pub(crate) fn out_error(flag: &'static str, e: FileError) -> CliError {
    let value = e.path().display().to_string();
    let unusable = match e {
        FileError::Exists(_) => Unusable::Exists,
        FileError::Symlink(_) => Unusable::Symlink,
        FileError::IsDir(_) => Unusable::IsDir,
        FileError::Io { path, error } => {
            return CliError::File { flag, path, error };
        }
    };
    CliError::Unusable {
        flag,
        value,
        unusable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_has_its_own_words_in_each_language_and_names_its_flag() {
        for (m, flag) in [
            (Unusable::DataDirectory, "--db"),
            (Unusable::ConfigDirectory, "--key"),
            (Unusable::Register, "--db"),
            (Unusable::RegisterToBackUp, "VIGIA_DB"),
            (Unusable::Exists, "--force"),
            (Unusable::Symlink, "vigia"),
            (Unusable::IsDir, "directorio"),
        ] {
            let (en, es) = (m.reason(Lang::En), m.reason(Lang::Es));
            assert_ne!(en, es);
            assert!(en.contains(flag) || es.contains(flag), "{m:?}");
        }
    }
}
