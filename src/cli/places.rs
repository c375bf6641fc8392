//! Where the register and the audit key are not, in each language: the refusals of `--db` and
//! `--key` before any command runs, naming the flag, the environment variable and the command
//! that helps (the command line's own words, so they live beside it).

use crate::lang::Lang;

/// Why `--db` or `--key` cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// No `--db`, no `VIGIA_DB` and no data directory on this system.
    DataDirectory,
    /// No `--key`, no `VIGIA_KEY` and no configuration directory on this system.
    ConfigDirectory,
    /// The register named is not there.
    Register,
    /// `vigia backup` of a register that is not there.
    RegisterToBackUp,
}

impl Missing {
    /// The reason in `lang`.
    pub fn reason(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Missing::DataDirectory, Lang::En) => {
                "no data directory is known on this system; pass --db PATH or set VIGIA_DB"
            }
            (Missing::DataDirectory, Lang::Es) => {
                "este sistema no tiene directorio de datos conocido; indique --db RUTA o defina \
                 VIGIA_DB"
            }
            (Missing::ConfigDirectory, Lang::En) => {
                "no configuration directory is known on this system; pass --key PATH or set \
                 VIGIA_KEY"
            }
            (Missing::ConfigDirectory, Lang::Es) => {
                "este sistema no tiene directorio de configuración conocido; indique --key RUTA o \
                 defina VIGIA_KEY"
            }
            (Missing::Register, Lang::En) => {
                "there is no register there; create it with `vigia init` (same --db) first"
            }
            (Missing::Register, Lang::Es) => {
                "no hay un registro allí; créelo primero con `vigia init` (con el mismo --db)"
            }
            (Missing::RegisterToBackUp, Lang::En) => {
                "there is no register there to back up; check the path (or VIGIA_DB)"
            }
            (Missing::RegisterToBackUp, Lang::Es) => {
                "no hay un registro allí del cual sacar copia; revise la ruta (o VIGIA_DB)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_has_its_own_words_in_each_language_and_names_its_flag() {
        for (m, flag) in [
            (Missing::DataDirectory, "--db"),
            (Missing::ConfigDirectory, "--key"),
            (Missing::Register, "--db"),
            (Missing::RegisterToBackUp, "VIGIA_DB"),
        ] {
            let (en, es) = (m.reason(Lang::En), m.reason(Lang::Es));
            assert_ne!(en, es);
            assert!(en.contains(flag) && es.contains(flag), "{m:?}");
        }
    }
}
