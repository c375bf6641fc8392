//! A document's verification with its signature (issue 26), the one both front ends call: the
//! register's checks run on the revision vigia wrote (a signed PDF's bytes before the
//! signature's update, `sign::unsigned_revision`), the signatures on the whole file, each signer
//! against the program's authorised signatories. It words nothing (`catalogue::signature` does).

use super::verify::{self, Documents, Error, Outcome, Verified};
use crate::program_sign::{Authorised, Signatures};
use crate::rates::RateSeries;
use crate::sign::{self, Verification};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use x509_cert::Certificate;

/// One signature of a document, verified, with whether its signer may sign the program's
/// documents (`None`: the program is not known).
#[derive(Debug)]
pub struct Signature {
    pub verification: Verification,
    pub authorised: Option<Authorised>,
    /// the program's signatories, listed (for the finding of a signer who is not one)
    pub listed: String,
}

/// What was found of a document's signatures.
#[derive(Debug)]
pub enum Found {
    /// not a PDF, or a PDF with no signature: the register's checks are all it has
    Unsigned,
    /// the signatures could not be read (why)
    Unreadable(String),
    Signed(Vec<Signature>),
}

/// A document's signatures, and whether the office's trusted certificates were given (without
/// them the chains are not checked and do not count against the signature).
#[derive(Debug)]
pub struct SignatureReport {
    pub found: Found,
    pub trust_given: bool,
}

impl Signature {
    /// Whether this signature holds: every result, the chain only when there was a trust store
    /// to check it against, and the signer one of the program's when it lists them.
    pub fn holds(&self, trust_given: bool) -> bool {
        let v = &self.verification;
        let stamp_ok = v.stamp.as_ref().is_none_or(|s| s.token.is_ok());
        let signed = if trust_given {
            v.is_valid()
        } else {
            v.intact.is_ok()
                && v.whole_file.is_ok()
                && v.signature.is_ok()
                && v.valid_at_signing.is_ok()
                && stamp_ok
        };
        signed && self.authorised != Some(Authorised::No)
    }
}

impl SignatureReport {
    /// Whether every signature holds (an unsigned document holds: nothing is claimed of it).
    pub fn holds(&self) -> bool {
        match &self.found {
            Found::Unsigned => true,
            Found::Unreadable(_) => false,
            Found::Signed(all) => all.iter().all(|s| s.holds(self.trust_given)),
        }
    }

    /// Whether the document carries at least one signature.
    pub fn is_signed(&self) -> bool {
        !matches!(self.found, Found::Unsigned)
    }
}

/// The signatures of `bytes` (the whole file as received), against `trusted` (`None`: no trust
/// store), each signer matched against `program`'s signatories when the program is known.
pub fn signatures(
    bytes: &[u8],
    trusted: Option<&[Certificate]>,
    program: Option<&Signatures>,
) -> SignatureReport {
    let trust_given = trusted.is_some();
    if !bytes.starts_with(b"%PDF-") {
        return SignatureReport {
            found: Found::Unsigned,
            trust_given,
        };
    }
    report_of(
        sign::verify_pdf(bytes, trusted.unwrap_or(&[])),
        trust_given,
        program,
    )
}

/// The report of signatures already verified (`sign::verify_pdf` of bytes, or
/// `sign::verify_found` of a file read as it is hashed: a large acta), `trust_given` saying
/// whether they were checked against a trust store, each signer matched against `program`'s
/// signatories when the program is known.
pub fn report_of(
    verified: Result<Vec<Verification>, sign::SignError>,
    trust_given: bool,
    program: Option<&Signatures>,
) -> SignatureReport {
    let found = match verified {
        Err(e) => Found::Unreadable(e.to_string()),
        Ok(all) if all.is_empty() => Found::Unsigned,
        Ok(all) => Found::Signed(
            all.into_iter()
                .map(|v| {
                    let authorised = program.map(|p| {
                        p.authorises(v.signer.as_deref().unwrap_or(""), v.signer_id.as_deref())
                    });
                    let listed = program
                        .map(|p| {
                            p.signatories
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default();
                    Signature {
                        verification: v,
                        authorised,
                        listed,
                    }
                })
                .collect(),
        ),
    };
    SignatureReport { found, trust_given }
}

/// A notice's or paz y salvo's verification: the register's and the signature's.
#[derive(Debug)]
pub struct Checked {
    pub register: Verified,
    pub signatures: SignatureReport,
}

impl Checked {
    /// Whether the document matches the register and its signatures hold.
    pub fn holds(&self) -> bool {
        self.outcome() == Outcome::InForce
    }

    /// The register's outcome, unless a signature does not hold: then the document is not to
    /// be relied on, whatever the register says of it ([`Outcome::BadSignature`]); a document
    /// that does not match the register stays [`Outcome::Mismatch`].
    pub fn outcome(&self) -> Outcome {
        match self.register.outcome() {
            Outcome::Mismatch => Outcome::Mismatch,
            _ if !self.signatures.holds() => Outcome::BadSignature,
            o => o,
        }
    }
}

/// Checks `bytes`, a notice or paz y salvo as received (signed or not), against the register and
/// its signatures against `trusted`: the register's checks on the revision vigia wrote (the
/// bytes before a signature's update), the signatures on the whole file.
pub fn document(
    conn: &Connection,
    bytes: &[u8],
    trusted: Option<&[Certificate]>,
    rates: &RateSeries,
    docs: &dyn Documents,
) -> Result<Checked, Error> {
    let written = sign::unsigned_revision(bytes).unwrap_or(bytes);
    // an acta is verified on its program's pages: one naming a program this register does not
    // hold is refused as that program unknown (no page to point to)
    let doc = verify::read(written, docs).map_err(|e| match e {
        verify::Unverifiable::Acta {
            program: Some(code),
            ..
        } if matches!(
            crate::store::programs::by_code(conn, &code),
            Err(crate::store::StoreError::NotFound { .. })
        ) =>
        {
            verify::Unverifiable::UnknownProgram(code)
        }
        e => e,
    })?;
    let register = verify::verify(conn, &doc, rates, docs)?;
    let program = crate::store::programs::by_code(conn, &register.program)
        .ok()
        .map(|p| p.program.signatures);
    let signatures = signatures(bytes, trusted, program.as_ref());
    Ok(Checked {
        register,
        signatures,
    })
}

/// Why an office's trust store could not be read.
#[derive(Debug)]
pub enum TrustError {
    /// the directory or a file in it could not be read (the path, why)
    Unreadable(PathBuf, std::io::Error),
    /// a file is not a certificate (the path, why)
    NotCertificate(PathBuf, String),
    /// the directory holds no certificate file
    Empty(PathBuf),
}

/// The certificates an office trusts: every `.pem`, `.crt`, `.cer` or `.der` file of `dir`
/// (`--trust DIR`, `VIGIA_TRUST`), in name order; links are not followed.
pub fn trust_dir(dir: &Path) -> Result<Vec<Certificate>, TrustError> {
    let entries = std::fs::read_dir(dir).map_err(|e| TrustError::Unreadable(dir.into(), e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                ["pem", "crt", "cer", "der"].contains(&e.to_ascii_lowercase().as_str())
            })
        })
        .collect();
    paths.sort();
    let mut certs = Vec::new();
    for p in &paths {
        let bytes = std::fs::read(p).map_err(|e| TrustError::Unreadable(p.clone(), e))?;
        certs.extend(
            sign::read_certificates(&bytes)
                .map_err(|e| TrustError::NotCertificate(p.clone(), e))?,
        );
    }
    if certs.is_empty() {
        return Err(TrustError::Empty(dir.into()));
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::verify::{Fingerprint, Kind, Lapse, Standing, Text};

    /// A notice as vigia issued it, replaced since.
    fn replaced() -> Verified {
        Verified {
            kind: Kind::Notice,
            number: "MULTA-2025-0001".into(),
            program: "D3939-2004".into(),
            liquidation_id: 1,
            text: Text::Match,
            file: verify::File::NoRecord {
                sha256: "ab".into(),
            },
            fingerprint: Fingerprint {
                stored: "f".into(),
                recomputed: "f".into(),
                printed: true,
            },
            same_figures: true,
            voids: vec![],
            standing: Some(Standing::Replaced {
                number: "MULTA-2025-0002".into(),
                date: "2025-02-12".parse().unwrap(),
            }),
            paid_since: None,
        }
    }

    #[test]
    fn a_signature_that_does_not_hold_outweighs_the_register() {
        let checked = |register: Verified, found: Found| Checked {
            register,
            signatures: SignatureReport {
                found,
                trust_given: false,
            },
        };
        let lapsed = Outcome::Lapsed(vec![Lapse::Replaced {
            number: "MULTA-2025-0002".into(),
            date: "2025-02-12".parse().unwrap(),
        }]);
        // unsigned: the register's answer
        let c = checked(replaced(), Found::Unsigned);
        assert_eq!(c.outcome(), lapsed);
        assert!(!c.holds());
        let mut in_force = replaced();
        in_force.standing = Some(Standing::InForce);
        assert!(checked(in_force.clone(), Found::Unsigned).holds());
        // a signature that cannot be read: not to be relied on, in force or not
        let bad = || Found::Unreadable("x".into());
        assert_eq!(checked(replaced(), bad()).outcome(), Outcome::BadSignature);
        assert_eq!(checked(in_force, bad()).outcome(), Outcome::BadSignature);
        // a document that does not match stays a mismatch
        let mut altered = replaced();
        altered.text = Text::LineCount {
            expected: 3,
            found: 4,
        };
        assert_eq!(checked(altered, bad()).outcome(), Outcome::Mismatch);
    }
}
