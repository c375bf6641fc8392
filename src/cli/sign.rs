//! The command line's side of digital signatures (issue 26): `--sign CERT.p12` on the commands
//! that issue documents (the password from `--sign-password-stdin` or `VIGIA_SIGN_PASSWORD`,
//! never a flag value), applied to the written PDF after the register's commit; and the
//! signature's results in `notice verify`, against the certificates of `--trust DIR`.

use super::CliError;
use crate::sign::{self, Signer, TsaUrl};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable that holds the PKCS#12 password when `--sign-password-stdin` is
/// not given.
pub const PASSWORD_VAR: &str = "VIGIA_SIGN_PASSWORD";

/// The environment variable naming the directory of the certificates `vigia serve` trusts.
pub const TRUST_VAR: &str = "VIGIA_TRUST";

/// The environment variable naming the directory of the signers' key files `vigia serve` keeps
/// (`USER.p12`, owner-only); unset, each signer uploads theirs for the session.
pub const KEYS_VAR: &str = "VIGIA_SIGN_KEYS";

/// `--sign` and its password, flattened into the issuing commands.
#[derive(Debug, Args)]
pub struct SignArgs {
    /// Sign the PDF (PAdES) with the certificate and private key of this PKCS#12 file (.p12,
    /// .pfx), as the certification authority delivered it. Its password is read from standard
    /// input with --sign-password-stdin, else from the environment variable
    /// VIGIA_SIGN_PASSWORD.
    #[arg(long, value_name = "CERT.p12")]
    pub sign: Option<PathBuf>,
    /// Read the PKCS#12 password from the first line of standard input.
    #[arg(long, requires = "sign")]
    pub sign_password_stdin: bool,
    /// Timestamp the signature (PAdES B-T) at this RFC 3161 timestamp authority
    /// (http://host[:port]/path, as the authority gives it). Without it the signing time is the
    /// signer's clock.
    #[arg(long, value_name = "URL", requires = "sign")]
    pub tsa: Option<String>,
}

/// A signer with the timestamp authority that stamps its signatures, if any.
pub struct Signing {
    pub signer: Signer,
    pub tsa: Option<TsaUrl>,
}

/// Why a key file was not loaded, or a document not signed, in both languages.
fn refused_said(e: &sign::SignError) -> crate::lang::Said {
    crate::lang::Said::each(|lang| crate::catalogue::signature_why::sign_refused(lang, e))
}

/// The refusal of `--tsa URL` whose authority gives no timestamp, in both languages.
fn tsa_refused(url: &str, why: &crate::lang::Said) -> CliError {
    CliError::Said(crate::lang::Said::new(
        crate::said::en::cli::tsa_gave_no_timestamp(&url, &why.en()),
        crate::said::es::cli::tsa_gave_no_timestamp(&url, &why.es()),
    ))
}

impl SignArgs {
    /// Opens the key file before anything is issued: a wrong password or file refuses the command
    /// with nothing written. `None` without `--sign`.
    pub fn signer(&self, format_is_pdf: bool) -> Result<Option<Signing>, CliError> {
        self.signer_or(
            format_is_pdf,
            crate::said!(cli::only_pdf_signed_add_format_pdf),
        )
    }

    /// [`SignArgs::signer`] for an acta, whose format is its file's extension (`--acta`,
    /// `--out`): refused unless that file is a PDF.
    pub fn signer_for_acta(
        &self,
        acta: Option<&Path>,
        flag: &str,
    ) -> Result<Option<Signing>, CliError> {
        let is_pdf = acta
            .and_then(|a| a.extension())
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("pdf"));
        self.signer_or(is_pdf, crate::said!(cli::only_pdf_signed_acta_as_pdf, flag))
    }

    /// `not_pdf`: the refusal when the document is not a PDF (only a PDF carries a signature).
    fn signer_or(
        &self,
        format_is_pdf: bool,
        not_pdf: crate::lang::Said,
    ) -> Result<Option<Signing>, CliError> {
        let Some(path) = &self.sign else {
            return Ok(None);
        };
        let wrong = |why: crate::lang::Said| CliError::Wrong {
            flag: "--sign".into(),
            value: path.display().to_string(),
            why,
        };
        if !format_is_pdf {
            return Err(wrong(not_pdf));
        }
        let bytes = std::fs::read(path).map_err(|e| CliError::File {
            flag: "--sign",
            path: path.clone(),
            error: e,
        })?;
        let password = if self.sign_password_stdin {
            let mut line = String::new();
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| wrong(crate::said!(cli::sign_password_unreadable, e)))?;
            line.trim_end_matches(['\n', '\r']).to_string()
        } else {
            std::env::var(PASSWORD_VAR)
                .map_err(|_| wrong(crate::said!(cli::sign_no_password, PASSWORD_VAR)))?
        };
        let signer = Signer::from_pkcs12(&bytes, &password).map_err(|e| wrong(refused_said(&e)))?;
        // the authority answers before anything is issued: one that is down or refuses leaves
        // nothing written
        let tsa = match &self.tsa {
            None => None,
            Some(text) => {
                let url = TsaUrl::parse(text).map_err(|why| CliError::Wrong {
                    flag: "--tsa".into(),
                    value: text.clone(),
                    why,
                })?;
                sign::probe_tsa(&url).map_err(|e| match e {
                    sign::SignError::Tsa(_, why) => tsa_refused(text, &why),
                    other => tsa_refused(text, &refused_said(&other)),
                })?;
                Some(url)
            }
        };
        Ok(Some(Signing { signer, tsa }))
    }
}

/// Signs the document already placed at `path` (after the register's commit) and puts the
/// signed file there in its place (temporary file and rename, owner-only), a buffer at a time
/// (`register::signing::sign_file`).
pub fn sign_file(
    signing: &Signing,
    path: &Path,
    reason: &str,
    letterhead: Option<&crate::program::Issuer>,
) -> Result<(), CliError> {
    let shown = path.display().to_string();
    let refused = |e: crate::register::signing::SignFileError| {
        let why = match &e {
            crate::register::signing::SignFileError::Sign(e) => refused_said(e),
            crate::register::signing::SignFileError::File(e) => super::places::file_error_said(e),
        };
        CliError::Said(crate::lang::Said::new(
            crate::said::en::cli::written_but_unsigned(&shown, &why.en()),
            crate::said::es::cli::written_but_unsigned(&shown, &why.es()),
        ))
    };
    crate::register::signing::sign_file(
        path,
        &signing.signer,
        signing.tsa.as_ref(),
        reason,
        letterhead,
        chrono::Utc::now(),
    )
    .map_err(refused)
}

/// `program`'s letterhead in force (`register::signing::letterhead`).
pub fn letterhead(
    conn: &rusqlite::Connection,
    p: &crate::store::programs::StoredProgram,
) -> Option<crate::program::Issuer> {
    crate::register::signing::letterhead(conn, p)
}

/// Refuses, before anything is issued, an unsigned document of `breaches` whose program requires
/// `what` signed (`[signatures] required_for`). A breach that cannot be read is left to the
/// rules, which refuse it in their own words.
pub fn require_signed(
    conn: &rusqlite::Connection,
    breaches: &[i64],
    what: crate::program_sign::Signed,
    signed: bool,
) -> Result<(), CliError> {
    use crate::program_sign::Signed;
    if signed {
        return Ok(());
    }
    for &id in breaches {
        let Ok(b) = crate::store::breaches::get(conn, id) else {
            continue;
        };
        let Ok(a) = crate::store::adjudications::get(conn, b.adjudication_id) else {
            continue;
        };
        let p = crate::store::programs::by_id(conn, a.program_id)?;
        if p.program.signatures.required(what) {
            let code = &p.program.code;
            return Err(CliError::Said(match what {
                Signed::Notices => crate::said!(cli::program_signs_notices, code),
                Signed::Settlements => crate::said!(cli::program_signs_settlements, code),
            }));
        }
    }
    Ok(())
}

/// The certificates an office trusts: every `.pem`, `.crt`, `.cer` or `.der` file of `dir`.
pub fn trusted(dir: &Path) -> Result<Vec<x509_cert::Certificate>, CliError> {
    trusted_from(dir, "--trust")
}

/// [`trusted`], the directory given by `flag` (`--trust`, or `VIGIA_TRUST` for `vigia serve`).
pub fn trusted_from(
    dir: &Path,
    flag: &'static str,
) -> Result<Vec<x509_cert::Certificate>, CliError> {
    use crate::register::verify_signed::{self, TrustError};
    verify_signed::trust_dir(dir).map_err(|e| match e {
        TrustError::Unreadable(path, error) => CliError::File { flag, path, error },
        TrustError::NotCertificate(path, e) => CliError::Wrong {
            flag: flag.into(),
            value: path.display().to_string(),
            why: crate::said!(cli::not_a_certificate, e),
        },
        TrustError::Empty(dir) => CliError::Wrong {
            flag: flag.into(),
            value: dir.display().to_string(),
            why: crate::said!(cli::trust_dir_empty),
        },
    })
}

/// The certificates of `--trust DIR`, read; `None` without it.
pub fn trust(dir: Option<&Path>) -> Result<Option<Vec<x509_cert::Certificate>>, CliError> {
    dir.map(trusted).transpose()
}

/// Says a document's signatures (`register::verify_signed`), each result worded by the
/// catalogue; `Ok(true)` when every signature holds (or there is none). Nothing is said of an
/// unsigned document.
pub fn say(
    out: &mut dyn Write,
    r: &crate::register::verify_signed::SignatureReport,
    lang: crate::lang::Lang,
) -> Result<bool, CliError> {
    use crate::catalogue::signature::{self, TrustFrom};
    for line in signature::report(lang, r, TrustFrom::Flag) {
        writeln!(out, "{line}")?;
    }
    Ok(r.holds())
}

/// The signatures of an acta read from its file (`report::acta_file`, its signed bytes hashed
/// as they are read), checked against `--trust` and, with `signatures` (the document's
/// program's), each signer against its authorised signatories, said as [`say`] does.
pub fn report(
    out: &mut dyn Write,
    acta: &crate::report::acta_file::ActaFile,
    trust: Option<&Path>,
    signatures: Option<&crate::program_sign::Signatures>,
    lang: crate::lang::Lang,
) -> Result<bool, CliError> {
    let trusted = self::trust(trust)?;
    let verified = acta.verify_signatures(trusted.as_deref().unwrap_or(&[]));
    let r = crate::register::verify_signed::report_of(verified, trusted.is_some(), signatures);
    say(out, &r, lang)
}
