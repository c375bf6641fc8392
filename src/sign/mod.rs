//! Digital signatures on the PDFs vigia writes (issue 26): PAdES baseline B-B, over bytes.
//!
//! [`sign_pdf`] takes a finished PDF and appends a signature by incremental update (`pdf`,
//! written from the few objects `skeleton` reads where the cross-references point; a file is
//! signed the same way a chunk at a time, [`signature_update`]): the
//! bytes the PDF writer made are kept as they are, followed by a signature field, a `/Sig`
//! dictionary whose `/ByteRange` covers the whole file but its `/Contents`, and a detached CMS
//! SignedData (`cms`) in `/Contents`. [`verify_pdf`] reads every signature back and names each
//! result: the signed bytes unchanged, the whole file signed (nothing appended after the
//! signature), the signature by the certificate it names, the chain to a trusted certificate,
//! each certificate valid at the signing time the signature claims (`/M`; B-B has no timestamp).
//!
//! Pure: the key file's bytes, the trusted certificates and the time come from the caller.

mod cms;
mod failure;
mod pdf;
mod skeleton;
mod tsa;

pub use crate::pdf_read::{ReadAt, SignatureField, decode_text};
pub use failure::{Failure, Unchecked};
pub use tsa::{Stamp, TsaUrl};

use chrono::{DateTime, FixedOffset};
use der::Decode;
use x509_cert::Certificate;

/// Why a document could not be signed, or a key file not read.
#[derive(Debug)]
pub enum SignError {
    /// the PKCS#12 file does not open with this password, or is not one
    KeyFile(String),
    /// the PKCS#12 file holds no private key with its certificate
    NoCertificate,
    /// the key is not one vigia signs with (RSA)
    Key(String),
    /// the PDF could not be read or updated
    Pdf(String),
    /// a certificate or structure could not be encoded
    Encoding(String),
    /// the signature does not fit the space reserved for it (its size, the space)
    TooLarge(usize, usize),
    /// the timestamp authority at the address could not give a timestamp (why)
    Tsa(String, crate::lang::Said),
}

impl std::fmt::Display for SignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignError::KeyFile(why) => write!(
                f,
                "the PKCS#12 file could not be opened ({why}): check the file and its password"
            ),
            SignError::NoCertificate => f.write_str(
                "the PKCS#12 file holds no private key with its certificate: export the \
                 certificate with its private key",
            ),
            SignError::Key(why) => write!(f, "the private key cannot sign: {why}"),
            SignError::Pdf(why) => write!(f, "the PDF cannot be signed: {why}"),
            SignError::Encoding(why) => write!(f, "the signature cannot be encoded: {why}"),
            SignError::TooLarge(n, room) => write!(
                f,
                "the signature takes {n} bytes, more than the {room} reserved: the certificate \
                 chain is too long"
            ),
            SignError::Tsa(url, why) => write!(f, "the timestamp authority {url}: {}", why.en()),
        }
    }
}

impl std::error::Error for SignError {}

/// A signer: an RSA private key and its certificate, then the chain the PKCS#12 file carries.
pub struct Signer {
    key: rsa::PrivateKey,
    chain: Vec<Certificate>,
}

impl Signer {
    /// Reads a PKCS#12 (`.p12`, `.pfx`) file as certification authorities deliver it.
    pub fn from_pkcs12(bytes: &[u8], password: &str) -> Result<Signer, SignError> {
        let store = p12_keystore::KeyStore::from_pkcs12(
            bytes,
            password,
            p12_keystore::Pkcs12ImportPolicy::Strict,
        )
        .map_err(|e| SignError::KeyFile(e.to_string()))?;
        let (_, chain) = store.private_key_chain().ok_or(SignError::NoCertificate)?;
        let key = rsa::pkcs8::DecodePrivateKey::from_pkcs8_der(chain.key().as_der())
            .map_err(|_| SignError::Key("only RSA keys are supported".into()))?;
        let certs = chain
            .certs()
            .iter()
            .map(|c| Certificate::from_der(c.as_der()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| SignError::KeyFile(e.to_string()))?;
        if certs.is_empty() {
            return Err(SignError::NoCertificate);
        }
        Ok(Signer { key, chain: certs })
    }

    /// The signer's name as its certificate gives it (the common name, else the whole subject).
    pub fn name(&self) -> String {
        common_name(&self.chain[0])
    }

    /// The signer's id as its certificate gives it (the subject's serialNumber: the cédula or
    /// NIT Colombian certification authorities put there), if it gives one.
    pub fn id(&self) -> Option<String> {
        serial_number(&self.chain[0])
    }
}

/// The subject's serialNumber (2.5.4.5), where Colombian certification authorities put the
/// holder's cédula or NIT.
fn serial_number(cert: &Certificate) -> Option<String> {
    const SERIAL_NUMBER: der::asn1::ObjectIdentifier =
        der::asn1::ObjectIdentifier::new_unwrap("2.5.4.5");
    cert.tbs_certificate()
        .subject()
        .iter()
        .find(|atv| atv.oid == SERIAL_NUMBER)
        .and_then(|atv| {
            atv.value
                .decode_as::<der::asn1::PrintableStringRef<'_>>()
                .map(|s| s.as_str().to_string())
                .or_else(|_| atv.value.decode_as::<String>())
                .ok()
        })
}

/// The common name of a certificate's subject, else the whole subject.
fn common_name(cert: &Certificate) -> String {
    let subject = cert.tbs_certificate().subject();
    match subject.common_name() {
        Ok(Some(cn)) => String::from(cn),
        _ => subject.to_string(),
    }
}

/// What the signature says about itself.
pub struct Details<'a> {
    /// e.g. "Notificación de multa MULTA-2025-0001"
    pub reason: &'a str,
    /// e.g. "Bogotá D.C., Colombia"
    pub location: &'a str,
    /// the signing time the signer claims (the signer's clock)
    pub time: DateTime<FixedOffset>,
    /// the signatory's name and cargo (the letters' data; the certificate's id, its serialNumber,
    /// follows the cargo when it gives one) for a visible signature block at the
    /// top right of the first page; `None`: an invisible signature
    pub signatory: Option<(&'a str, &'a str)>,
    /// the timestamp authority to stamp the signature (PAdES B-T); `None`: B-B, the time is
    /// the signer's claim
    pub tsa: Option<&'a TsaUrl>,
}

/// Asks the authority at `url` for a timestamp over a test value: whether it answers with a
/// token, before anything is issued.
pub fn probe_tsa(url: &TsaUrl) -> Result<(), SignError> {
    tsa::timestamp(url, b"vigia: probe")
        .map(|_| ())
        .map_err(|why| SignError::Tsa(url.to_string(), why))
}

/// `pdf` with a PAdES B-B signature appended by incremental update.
pub fn sign_pdf(pdf: &[u8], signer: &Signer, details: &Details<'_>) -> Result<Vec<u8>, SignError> {
    let update = signature_update(pdf.len() as u64, &read_slice(pdf), signer, details)?;
    let mut out = Vec::with_capacity(pdf.len() + update.len());
    out.extend_from_slice(pdf);
    out.extend_from_slice(&update);
    Ok(out)
}

/// Reads `buf.len()` bytes of `bytes` at an offset, as [`ReadAt`] reads a file.
fn read_slice(bytes: &[u8]) -> impl Fn(u64, &mut [u8]) -> std::io::Result<()> + '_ {
    move |at: u64, buf: &mut [u8]| {
        let at = usize::try_from(at).map_err(std::io::Error::other)?;
        let part = bytes
            .get(at..at + buf.len())
            .ok_or_else(|| std::io::Error::other("outside the file"))?;
        buf.copy_from_slice(part);
        Ok(())
    }
}

/// The PAdES B-B signature of the PDF of `len` bytes that `read` reads, as the incremental
/// update to append to it: the signed file is the file's bytes, unchanged, then these. The file
/// is read where its cross-references point (`skeleton`) and hashed [`HASHED_AT_ONCE`] bytes at
/// a time: memory holds a buffer and the update, not the file (a million acceptances' acta is
/// 264 MB).
pub fn signature_update(
    len: u64,
    read: &ReadAt<'_>,
    signer: &Signer,
    details: &Details<'_>,
) -> Result<Vec<u8>, SignError> {
    let time = pdf_date(details.time);
    let name = signer.name();
    // the block's second line: the cargo, then the certificate's id of the signatory, so that the
    // reader sees which certificate signed (a name alone can be two people's)
    let id = signer.id().filter(|i| !i.trim().is_empty());
    let cargo = details.signatory.map(|(_, cargo)| match &id {
        Some(i) if cargo.trim().is_empty() => i.trim().to_string(),
        Some(i) => format!("{} \u{b7} {}", cargo.trim(), i.trim()),
        None => cargo.to_string(),
    });
    let skeleton = skeleton::read(len, read)?;
    let base = usize::try_from(len).map_err(|_| SignError::Pdf("a file over 4 GB".into()))?;
    let prepared = pdf::prepare(
        &skeleton,
        base,
        &pdf::SigFields {
            reason: details.reason,
            location: details.location,
            name: &name,
            time: &time,
            block: details
                .signatory
                .map(|(n, _)| (n, cargo.as_deref().unwrap_or(""))),
            contents_bytes: if details.tsa.is_some() {
                pdf::CONTENTS_BYTES_STAMPED
            } else {
                pdf::CONTENTS_BYTES
            },
        },
    )?;
    // a read of the file that failed: the signature is then thrown away, and nothing is sent
    // to the timestamp authority
    let failed: std::cell::RefCell<Option<std::io::Error>> = std::cell::RefCell::new(None);
    let unread = |e: &std::io::Error| SignError::Pdf(format!("the file could not be read: {e}"));
    let stamp = |signature: &[u8]| {
        if let Some(e) = failed.borrow().as_ref() {
            return Err(unread(e));
        }
        let url = details.tsa.expect("called only with an authority");
        tsa::timestamp(url, signature).map_err(|why| SignError::Tsa(url.to_string(), why))
    };
    let stamp: Option<&cms::Stamper<'_>> = details.tsa.map(|_| &stamp as _);
    // the signed bytes: the file's, a buffer at a time, then the update's but its /Contents
    let file = Signed {
        len,
        read,
        chunk: HASHED_AT_ONCE,
        failed: &failed,
    };
    let mut feed = |f: &mut dyn FnMut(&[u8])| {
        if file.each(0, len, &mut |_, bytes| {
            f(bytes);
            true
        }) {
            prepared.signed_parts().iter().for_each(|p| f(p));
        }
    };
    let der = cms::sign(&mut feed, &signer.key, &signer.chain, stamp)?;
    if let Some(e) = failed.borrow().as_ref() {
        return Err(unread(e));
    }
    prepared.fill(&der)
}

/// `D:YYYYMMDDHHmmSS+HH'mm'`
fn pdf_date(t: DateTime<FixedOffset>) -> String {
    let offset = t.offset().local_minus_utc();
    let sign = if offset < 0 { '-' } else { '+' };
    let minutes = offset.abs() / 60;
    format!(
        "D:{}{sign}{:02}'{:02}'",
        t.format("%Y%m%d%H%M%S"),
        minutes / 60,
        minutes % 60
    )
}

/// Reads a PDF date (`D:YYYYMMDDHHmmSS` then `Z`, `+HH'mm'` or `-HH'mm'`; the seconds and the
/// zone may be absent, the zone then read as UTC).
fn parse_pdf_date(s: &str) -> Option<DateTime<FixedOffset>> {
    let s = s.strip_prefix("D:").unwrap_or(s);
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 12 {
        return None;
    }
    let padded = format!("{digits:0<14}");
    let naive = chrono::NaiveDateTime::parse_from_str(&padded[..14], "%Y%m%d%H%M%S").ok()?;
    let rest: String = s[digits.len()..].chars().filter(|c| *c != '\'').collect();
    let offset = match rest.chars().next() {
        None | Some('Z') => 0,
        Some(c @ ('+' | '-')) => {
            let hh: i32 = rest.get(1..3)?.parse().ok()?;
            let mm: i32 = rest.get(3..5).map_or(Some(0), |m| m.parse().ok())?;
            let secs = (hh * 60 + mm) * 60;
            if c == '-' { -secs } else { secs }
        }
        Some(_) => return None,
    };
    naive
        .and_local_timezone(FixedOffset::east_opt(offset)?)
        .single()
}

/// The document as it was before its last revision, when that revision is a signature's
/// (a `/Sig` dictionary with a `/ByteRange`): for vigia's signed PDFs, the exact bytes the PDF
/// writer made (it ends at `%%EOF`, the line end after it is the update's), which the
/// register's record of the file names. `None` for anything else.
pub fn unsigned_revision(pdf: &[u8]) -> Option<&[u8]> {
    let marker = b"%%EOF";
    let mut ends = pdf
        .windows(marker.len())
        .enumerate()
        .filter(|(_, w)| w == marker)
        .map(|(i, _)| i + marker.len());
    let ends: Vec<usize> = ends.by_ref().collect();
    let &[.., previous, _] = ends.as_slice() else {
        return None;
    };
    // vigia's PDF writer ends a file at `%%EOF`; the line end after it is the update's
    let end = previous;
    let last = &pdf[end..];
    let has = |needle: &[u8]| last.windows(needle.len()).any(|w| w == needle);
    (has(b"/Type/Sig") && has(b"/ByteRange")).then_some(&pdf[..end])
}

/// One named result of a verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    Ok,
    Failed(Failure),
    /// could not be decided (what was missing)
    NotChecked(Unchecked),
}

impl Check {
    pub fn is_ok(&self) -> bool {
        matches!(self, Check::Ok)
    }
}

/// Everything a verification found about one signature, each result named.
#[derive(Debug)]
pub struct Verification {
    /// the signer's common name (from the certificate that signed)
    pub signer: Option<String>,
    /// the signer's subject serialNumber (the cédula or NIT), when the certificate gives one
    pub signer_id: Option<String>,
    /// `/M`: the signing time the signer claims
    pub signed_at: Option<DateTime<FixedOffset>>,
    pub reason: Option<String>,
    pub location: Option<String>,
    /// the signed bytes are the ones signed
    pub intact: Check,
    /// the byte range covers the whole file but the signature (nothing appended after it)
    pub whole_file: Check,
    /// the signature is the signer's, over what it says, naming its certificate (ESS)
    pub signature: Check,
    /// the signer's certificate chains to a trusted certificate
    pub trusted: Check,
    /// every certificate of the chain was valid at the signing time: the timestamp's when it
    /// has a valid one, else the time the signer claims
    pub valid_at_signing: Check,
    /// the signature's timestamp (PAdES B-T); `None`: the time is the signer's claim
    pub stamp: Option<Stamp>,
}

impl Verification {
    /// Every result is Ok.
    pub fn is_valid(&self) -> bool {
        [
            &self.intact,
            &self.whole_file,
            &self.signature,
            &self.trusted,
            &self.valid_at_signing,
        ]
        .iter()
        .all(|c| c.is_ok())
            && self
                .stamp
                .as_ref()
                .is_none_or(|s| s.token.is_ok() && s.trusted.is_ok())
    }
}

/// Reads trusted certificates (DER, or PEM with one or more certificates).
pub fn read_certificates(bytes: &[u8]) -> Result<Vec<Certificate>, String> {
    if bytes.starts_with(b"-----BEGIN") {
        Certificate::load_pem_chain(bytes).map_err(|e| e.to_string())
    } else {
        Certificate::from_der(bytes)
            .map(|c| vec![c])
            .map_err(|e| e.to_string())
    }
}

/// Every signature of `pdf`, verified against `trusted` (none: the chain is reported unchecked
/// as untrusted). An unsigned PDF gives an empty list.
pub fn verify_pdf(pdf: &[u8], trusted: &[Certificate]) -> Result<Vec<Verification>, SignError> {
    // the one PDF reader finds the fields, as it does for an acta read from its file
    let found = crate::pdf_read::Doc::load(pdf)
        .and_then(|doc| doc.signature_fields())
        .map_err(|e| SignError::Pdf(e.to_string()))?;
    let read = read_slice(pdf);
    verify_found(&found, pdf.len() as u64, &read, HASHED_AT_ONCE, trusted)
}

/// What is read of a signed file at once while its signed bytes are hashed.
pub const HASHED_AT_ONCE: usize = 1 << 20;

/// The signatures `found` in a file of `len` bytes (their dictionaries, read by whoever read
/// the file's form: `report::pdf::read` for an acta read from its file), verified against
/// `trusted`, the signed byte ranges read through `read` `chunk` bytes at a time as they are
/// hashed ([`HASHED_AT_ONCE`] but in tests): memory holds a buffer, not the file (a million
/// acceptances' acta is 264 MB). [`verify_pdf`] is this over bytes in memory.
pub fn verify_found(
    found: &[SignatureField],
    len: u64,
    read: &ReadAt<'_>,
    chunk: usize,
    trusted: &[Certificate],
) -> Result<Vec<Verification>, SignError> {
    let failed: std::cell::RefCell<Option<std::io::Error>> = std::cell::RefCell::new(None);
    let file = Signed {
        len,
        read,
        chunk: chunk.max(1),
        failed: &failed,
    };
    let all = found
        .iter()
        .map(|f| verify_one(&file, f, trusted))
        .collect();
    match failed.into_inner() {
        Some(e) => Err(SignError::Pdf(format!("the file could not be read: {e}"))),
        None => Ok(all),
    }
}

/// Whether the bytes `[a, b)` (the gap the signature's byte range leaves) are a hexadecimal
/// string, `<…>`: the signature's `/Contents` and nothing else; read a buffer at a time.
fn gap_is_hex(file: &Signed<'_, '_>, a: u64, b: u64) -> bool {
    b - a >= 2
        && file.each(a, b - a, &mut |at, bytes| {
            (at..).zip(bytes).all(|(pos, &x)| {
                if pos == a {
                    x == b'<'
                } else if pos == b - 1 {
                    x == b'>'
                } else {
                    x.is_ascii_hexdigit()
                }
            })
        })
}

/// A signed file read as it is verified: its length, how it is read and how much at once, and
/// the first error reading it.
struct Signed<'a, 'r> {
    len: u64,
    read: &'a ReadAt<'r>,
    chunk: usize,
    failed: &'a std::cell::RefCell<Option<std::io::Error>>,
}

impl Signed<'_, '_> {
    /// Hands the bytes `[at, at + n)` to `f` a chunk at a time; `false` when they could not be
    /// read (the error kept).
    fn each(&self, at: u64, n: u64, f: &mut dyn FnMut(u64, &[u8]) -> bool) -> bool {
        let mut buf = vec![0u8; self.chunk];
        let mut pos = at;
        while pos < at + n {
            let k = usize::try_from((at + n - pos).min(self.chunk as u64)).unwrap_or(self.chunk);
            if let Err(e) = (self.read)(pos, &mut buf[..k]) {
                self.failed.borrow_mut().get_or_insert(e);
                return false;
            }
            if !f(pos, &buf[..k]) {
                return false;
            }
            pos += k as u64;
        }
        true
    }
}

fn verify_one(
    file: &Signed<'_, '_>,
    found: &SignatureField,
    trusted: &[Certificate],
) -> Verification {
    let len = file.len;
    let signed_at = found.time.as_deref().and_then(parse_pdf_date);
    let mut v = Verification {
        signer: None,
        signer_id: None,
        signed_at,
        reason: found.reason.clone(),
        location: found.location.clone(),
        intact: Check::NotChecked(Unchecked::ByteRangeUnread),
        whole_file: Check::NotChecked(Unchecked::ByteRangeUnread),
        signature: Check::NotChecked(Unchecked::ByteRangeUnread),
        trusted: Check::NotChecked(Unchecked::ByteRangeUnread),
        valid_at_signing: Check::NotChecked(Unchecked::ByteRangeUnread),
        stamp: None,
    };
    let range: Option<Vec<u64>> = found
        .byte_range
        .iter()
        .map(|&n| u64::try_from(n).ok())
        .collect();
    let Some(&[0, a, b, c]) = range.as_deref() else {
        v.whole_file = Check::Failed(Failure::ByteRangeShape(found.byte_range.clone()));
        return v;
    };
    let end = b.checked_add(c);
    if a >= b || end.is_none_or(|e| e > len) {
        v.whole_file = Check::Failed(Failure::ByteRangeOutside(found.byte_range.clone()));
        return v;
    }
    let gap_is_contents = gap_is_hex(file, a, b);
    v.whole_file = match end {
        _ if !gap_is_contents => Check::Failed(Failure::GapNotContents),
        Some(e) if e == len => Check::Ok,
        Some(e) => Check::Failed(Failure::Appended(
            usize::try_from(len - e).unwrap_or(usize::MAX),
        )),
        None => unreachable!("checked above"),
    };
    if found.sub_filter.as_deref() != Some("ETSI.CAdES.detached")
        && found.sub_filter.as_deref() != Some("adbe.pkcs7.detached")
    {
        v.signature = Check::Failed(Failure::NotDetachedCms(found.sub_filter.clone()));
        return v;
    }
    // the signed bytes, [0, a) then [b, b + c), read a chunk at a time as they are hashed
    let mut feed = |f: &mut dyn FnMut(&[u8])| {
        let _ = file.each(0, a, &mut |_, bytes| {
            f(bytes);
            true
        }) && file.each(b, c, &mut |_, bytes| {
            f(bytes);
            true
        });
    };
    let checked = cms::check(&found.contents, &mut feed, trusted);
    v.signer = checked.signer.as_ref().map(common_name);
    v.signer_id = checked.signer.as_ref().and_then(serial_number);
    v.intact = checked.intact;
    v.signature = checked.signature;
    v.trusted = checked.chain_check;
    v.stamp = checked
        .token
        .as_ref()
        .map(|(token, value)| tsa::check(token, value, trusted));
    // a valid timestamp proves the time; without one it is the signer's claim
    let at = match v.stamp.as_ref().and_then(Stamp::proven_time) {
        Some(t) => Some(t.with_timezone(&crate::calendar::colombia())),
        None => signed_at,
    };
    v.valid_at_signing = match at {
        None => Check::NotChecked(Unchecked::NoSigningTime),
        Some(_) if checked.chain.is_empty() => Check::NotChecked(Unchecked::NoCertificate),
        Some(t) => validity_at(&checked.chain, t),
    };
    v
}

fn validity_at(chain: &[Certificate], t: DateTime<FixedOffset>) -> Check {
    let at = t.timestamp();
    for cert in chain {
        let validity = cert.tbs_certificate().validity();
        let secs = |time: x509_cert::time::Time| {
            i64::try_from(time.to_unix_duration().as_secs()).unwrap_or(i64::MAX)
        };
        let (from, to) = (secs(validity.not_before), secs(validity.not_after));
        if at < from || at > to {
            let utc = |s: i64| DateTime::from_timestamp(s, 0).unwrap_or_default();
            return Check::Failed(Failure::NotValidAt {
                holder: common_name(cert),
                at: t,
                from: utc(from),
                to: utc(to),
            });
        }
    }
    Check::Ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_dates_round_trip_and_read_other_writers_forms() {
        let t = DateTime::parse_from_rfc3339("2025-02-11T09:30:05-05:00").unwrap();
        assert_eq!(pdf_date(t), "D:20250211093005-05'00'");
        assert_eq!(parse_pdf_date(&pdf_date(t)), Some(t));
        let z = DateTime::parse_from_rfc3339("2025-02-11T14:30:05Z").unwrap();
        assert_eq!(parse_pdf_date("D:20250211143005Z"), Some(z));
        assert_eq!(parse_pdf_date("D:20250211143005"), Some(z));
        assert_eq!(parse_pdf_date("D:2025021114"), None);
    }
}
