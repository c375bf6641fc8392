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
    /// The authorised signatories: each a name as their certificate gives it (its common
    /// name), or `{ name = "…", id = "…" }` with the number the certification authority puts in
    /// the certificate's subject serialNumber (2.5.4.5: the cédula or NIT), which is then what
    /// is matched. Default none: any signer.
    #[serde(default)]
    signatories: Vec<SignatoryFile>,
}

/// A signatory as written: a name, or a name with an identification number.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum SignatoryFile {
    Name(String),
    WithId { name: String, id: String },
}

/// An authorised signatory: matched by `id` against the certificate's subject serialNumber
/// when given, else by `name` against its common name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signatory {
    pub name: String,
    pub id: Option<String>,
}

impl std::fmt::Display for Signatory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{} ({id})", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// The program's signature rules, validated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signatures {
    pub required_for: Vec<Signed>,
    pub signatories: Vec<Signatory>,
}

impl SignaturesFile {
    pub fn validate(self) -> Result<Signatures, (&'static str, Said)> {
        let signatories: Vec<Signatory> = self
            .signatories
            .into_iter()
            .map(|s| match s {
                SignatoryFile::Name(name) => Signatory { name, id: None },
                SignatoryFile::WithId { name, id } => Signatory { name, id: Some(id) },
            })
            .collect();
        if let Some(s) = signatories
            .iter()
            .find(|s| s.id.as_deref().is_some_and(|i| id_key(i).is_empty()))
        {
            let s = s.to_string();
            return Err((
                "signatures.signatories",
                said!(program::id_number_certificate_s_serialnumber_c, s),
            ));
        }
        if let Some(s) = signatories.iter().find(|s| s.name.trim().is_empty()) {
            let s = s.to_string();
            return Err((
                "signatures.signatories",
                said!(program::signatory_name_as_certificate_gives, s),
            ));
        }
        let mut required_for = self.required_for;
        required_for.dedup();
        Ok(Signatures {
            required_for,
            signatories,
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

    /// Whether the signer whose certificate gives the common name `name` and the subject
    /// serialNumber `serial` is an authorised signatory: a signatory with an id matches the
    /// serialNumber (its letters and digits, case aside: `CC 52.123.456` is `cc52123456`, not
    /// `52123456`), one without matches the name, case, accents aside.
    pub fn authorises(&self, name: &str, serial: Option<&str>) -> Authorised {
        if self.signatories.is_empty() {
            return Authorised::NoneListed;
        }
        let key = fold(name);
        let serial = serial.map(id_key);
        let matches = |s: &Signatory| match &s.id {
            Some(id) => serial.as_deref() == Some(id_key(id).as_str()),
            None => fold(&s.name) == key,
        };
        if self.signatories.iter().any(matches) {
            Authorised::Yes
        } else {
            Authorised::No
        }
    }
}

/// An identification number compared by its letters and digits, case aside.
fn id_key(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
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
        assert_eq!(s.authorises("LAURA GOMEZ RESTREPO", None), Authorised::Yes);
        assert_eq!(s.authorises("Laura Gómez", None), Authorised::No);
        let none = read("").unwrap();
        assert!(!none.required(Signed::Notices));
        assert_eq!(none.authorises("cualquiera", None), Authorised::NoneListed);
        assert_eq!(
            read("signatories = [\" \"]").unwrap_err().0,
            "signatures.signatories"
        );
        assert!(toml::from_str::<SignaturesFile>("required_for = [\"actas\"]").is_err());
    }

    #[test]
    fn a_signatory_with_an_id_is_matched_by_the_certificates_serial_number_not_its_name() {
        let s = read(
            "signatories = [{ name = \"Laura Gómez Restrepo\", id = \"52.123.456\" }, \"Ana Ruiz\"]",
        )
        .unwrap();
        assert_eq!(
            s.signatories[0].to_string(),
            "Laura Gómez Restrepo (52.123.456)"
        );
        // the number matches whatever the common name says
        assert_eq!(
            s.authorises("LAURA GOMEZ R.", Some("52123456")),
            Authorised::Yes
        );
        // the right name with another number, or with none, is not her
        assert_eq!(
            s.authorises("Laura Gómez Restrepo", Some("79000111")),
            Authorised::No
        );
        assert_eq!(s.authorises("Laura Gómez Restrepo", None), Authorised::No);
        // a prefix is part of the number: CC52123456 is not 52123456
        assert_eq!(s.authorises("x", Some("CC52123456")), Authorised::No);
        // a signatory without an id is matched by name, whatever the number
        assert_eq!(s.authorises("ana ruiz", Some("1")), Authorised::Yes);
        assert_eq!(
            read("signatories = [{ name = \"Laura\", id = \" . \" }]")
                .unwrap_err()
                .0,
            "signatures.signatories"
        );
    }
}
