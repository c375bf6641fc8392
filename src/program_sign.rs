//! Digital signatures as program data (issue 26): whether the program's notices and paz y salvo
//! certificates must be signed (`vigia notice issue` / `settlement issue` then refuse to issue
//! without `--sign`), and who may sign them (verify says whether the certificate's holder is one
//! of them). `[signatures]`, optional as a whole. Pure: validates what the program file says.

use crate::lang::Said;
use crate::said;
use serde::Deserialize;

/// A document a program may require to be signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Signed {
    /// Notificaciones de multa (`notice issue`).
    Notices,
    /// Paz y salvo certificates (`settlement issue`).
    Settlements,
}

/// `[signatures]` as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignaturesFile {
    /// The documents that are issued only signed: `["notices", "settlements"]`. Default none.
    #[serde(default)]
    required_for: Vec<Signed>,
    /// The authorised signatories, each as their certificate names them (its common name).
    /// Default none: any signer.
    #[serde(default)]
    signatories: Vec<String>,
}

/// The program's signature rules, validated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signatures {
    pub required_for: Vec<Signed>,
    pub signatories: Vec<String>,
}

impl SignaturesFile {
    pub fn validate(self) -> Result<Signatures, (&'static str, Said)> {
        if let Some(s) = self.signatories.iter().find(|s| s.trim().is_empty()) {
            let s = s.clone();
            return Err((
                "signatures.signatories",
                said!(
                    "{s:?}: a signatory is a name, as the certificate gives it",
                    "«{s}»: cada firmante es un nombre, como lo trae su certificado"
                ),
            ));
        }
        let mut required_for = self.required_for;
        required_for.dedup();
        Ok(Signatures {
            required_for,
            signatories: self.signatories,
        })
    }
}

/// Whether a signer is one of the program's signatories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authorised {
    /// The program lists none: anyone the trusted chain vouches for.
    NoneListed,
    Yes,
    No,
}

impl Signatures {
    /// Whether `what` is issued only signed.
    pub fn required(&self, what: Signed) -> bool {
        self.required_for.contains(&what)
    }

    /// Whether the signer named `name` (the certificate's common name) is an authorised
    /// signatory: the same name, case, accents aside.
    pub fn authorises(&self, name: &str) -> Authorised {
        if self.signatories.is_empty() {
            return Authorised::NoneListed;
        }
        let key = fold(name);
        if self.signatories.iter().any(|s| fold(s) == key) {
            Authorised::Yes
        } else {
            Authorised::No
        }
    }
}

/// A name compared case, accents and spacing aside (`LAURA GOMEZ  restrepo` is
/// `Laura Gómez Restrepo`).
fn fold(s: &str) -> String {
    crate::input::folded(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Signatures, (&'static str, Said)> {
        toml::from_str::<SignaturesFile>(text).unwrap().validate()
    }

    #[test]
    fn required_documents_and_signatories_are_read_and_names_compared_accents_aside() {
        let s = read(
            "required_for = [\"notices\"]\nsignatories = [\"Laura Gómez Restrepo\", \"Ana Ruiz\"]",
        )
        .unwrap();
        assert!(s.required(Signed::Notices));
        assert!(!s.required(Signed::Settlements));
        assert_eq!(s.authorises("LAURA GOMEZ RESTREPO"), Authorised::Yes);
        assert_eq!(s.authorises("Laura Gómez"), Authorised::No);
        let none = read("").unwrap();
        assert!(!none.required(Signed::Notices));
        assert_eq!(none.authorises("cualquiera"), Authorised::NoneListed);
        assert_eq!(
            read("signatories = [\" \"]").unwrap_err().0,
            "signatures.signatories"
        );
        assert!(toml::from_str::<SignaturesFile>("required_for = [\"actas\"]").is_err());
    }
}
