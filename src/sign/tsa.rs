//! RFC 3161 timestamps (PAdES B-T): a request to a timestamp authority over HTTP for the hash
//! of a signature's value, and, to verify, the token read back from the signature's unsigned
//! attribute id-aa-signatureTimeStampToken: its time, its authority, whether it is over that
//! signature and signed by a certificate for timestamping that chains to a trusted one.
//!
//! The HTTP client is a few lines over `std::net` (plain `http://`, as timestamp authorities
//! serve RFC 3161: the token is signed by the authority, so the transport needs no TLS).

use super::cms::{self, SHA256};
use super::{Check, Failure, Unchecked};
use crate::lang::Said;
use crate::said;
use ::cms::content_info::ContentInfo;
use ::cms::signed_data::SignedData;
use chrono::{DateTime, NaiveDateTime, Utc};
use der::asn1::{Int, ObjectIdentifier, OctetString, Uint};
use der::{Any, Decode, Encode, Sequence, Tag, Tagged};
use std::io::{Read, Write};
use std::time::Duration;
use x509_cert::Certificate;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::spki::AlgorithmIdentifierOwned;

/// id-ct-TSTInfo, the token's content.
const ID_TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");
/// id-kp-timeStamping
const TIME_STAMPING: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.8");
const EXTENDED_KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37");

/// The largest answer read from a timestamp authority.
const MAX_ANSWER: u64 = 1 << 20;

/// `MessageImprint ::= SEQUENCE { hashAlgorithm, hashedMessage OCTET STRING }`
#[derive(Clone, Debug, Sequence, PartialEq, Eq)]
pub struct MessageImprint {
    pub hash_algorithm: AlgorithmIdentifierOwned,
    pub hashed_message: OctetString,
}

/// `TimeStampReq` (RFC 3161 §2.4.1), without policy or extensions.
#[derive(Clone, Debug, Sequence)]
pub struct TimeStampReq {
    pub version: u8,
    pub message_imprint: MessageImprint,
    pub nonce: Option<Uint>,
    #[asn1(default = "no")]
    pub cert_req: bool,
}

fn no() -> bool {
    false
}

/// `PKIStatusInfo ::= SEQUENCE { status, statusString PKIFreeText OPTIONAL, failInfo OPTIONAL }`
#[derive(Clone, Debug, Sequence)]
pub struct PkiStatusInfo {
    pub status: u8,
    pub status_string: Option<Vec<String>>,
    pub fail_info: Option<der::asn1::BitString>,
}

/// `TimeStampResp ::= SEQUENCE { status PKIStatusInfo, timeStampToken OPTIONAL }`
#[derive(Clone, Debug, Sequence)]
pub struct TimeStampResp {
    pub status: PkiStatusInfo,
    pub time_stamp_token: Option<ContentInfo>,
}

/// `Accuracy ::= SEQUENCE { seconds OPTIONAL, millis [0] OPTIONAL, micros [1] OPTIONAL }`
#[derive(Clone, Debug, Sequence)]
pub struct Accuracy {
    pub seconds: Option<u64>,
    #[asn1(context_specific = "0", tag_mode = "IMPLICIT", optional = "true")]
    pub millis: Option<u16>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub micros: Option<u16>,
}

/// `TSTInfo` (RFC 3161 §2.4.2). `genTime` is kept as read (it may carry fractions of a second,
/// which `GeneralizedTime` does not take).
#[derive(Clone, Debug, Sequence)]
pub struct TstInfo {
    pub version: u8,
    pub policy: ObjectIdentifier,
    pub message_imprint: MessageImprint,
    pub serial_number: Int,
    pub gen_time: Any,
    pub accuracy: Option<Accuracy>,
    #[asn1(default = "no")]
    pub ordering: bool,
    pub nonce: Option<Uint>,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub tsa: Option<GeneralName>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub extensions: Option<x509_cert::ext::Extensions>,
}

/// A timestamp authority's address, checked: `http://host[:port]/path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsaUrl {
    text: String,
    host: String,
    port: u16,
    path: String,
}

impl std::fmt::Display for TsaUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl TsaUrl {
    /// Reads `http://host[:port][/path]`; anything else is refused with the reason.
    pub fn parse(text: &str) -> Result<TsaUrl, crate::lang::Said> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("https://") {
            return Err(crate::said!(core::tsa_http_only));
        }
        let Some(rest) = lower
            .get(..7)
            .filter(|p| *p == "http://")
            .map(|_| &text[7..])
        else {
            return Err(crate::said!(core::tsa_not_http_address));
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (
                h,
                p.parse::<u16>()
                    .map_err(|_| crate::said!(core::tsa_port_not_number, p))?,
            ),
            None => (authority, 80),
        };
        if host.is_empty() || host.contains(['@', ' ', '[', ']']) || port == 0 {
            return Err(crate::said!(core::tsa_names_no_host));
        }
        if path.contains([' ', '\r', '\n']) {
            return Err(crate::said!(core::tsa_blank_in_path));
        }
        Ok(TsaUrl {
            text: text.to_string(),
            host: host.to_string(),
            port,
            path: path.to_string(),
        })
    }
}

/// A timestamp token (the DER of its ContentInfo) over `data`, from the authority at `url`:
/// SHA-256 imprint, a fresh nonce, the authority's certificate asked for. The answer is checked
/// to be granted, over that imprint and with that nonce.
pub fn timestamp(url: &TsaUrl, data: &[u8]) -> Result<Vec<u8>, Said> {
    let encoding = |e: &dyn std::fmt::Display| {
        let e = e.to_string();
        said!(core::tsa_request_not_encoded, e)
    };
    let (hash, _) = cms::digest(SHA256, &[data]).expect("SHA-256 is known");
    let imprint = MessageImprint {
        hash_algorithm: AlgorithmIdentifierOwned {
            oid: SHA256,
            parameters: None,
        },
        hashed_message: OctetString::new(hash).map_err(|e| encoding(&e))?,
    };
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce).map_err(|e| said!(core::tsa_no_random_nonce, e))?;
    nonce[0] = (nonce[0] & 0x7F) | 0x01;
    let nonce = Uint::new(&nonce).map_err(|e| encoding(&e))?;
    let request = TimeStampReq {
        version: 1,
        message_imprint: imprint.clone(),
        nonce: Some(nonce.clone()),
        cert_req: true,
    }
    .to_der()
    .map_err(|e| encoding(&e))?;
    let answer = post(url, &request)?;
    let resp =
        TimeStampResp::from_der(&answer).map_err(|e| said!(core::tsa_answer_not_rfc3161, e))?;
    if resp.status.status > 1 {
        let text = resp.status.status_string.unwrap_or_default().join("; ");
        let status = resp.status.status;
        let text = if text.is_empty() {
            String::new()
        } else {
            format!(": {text}")
        };
        return Err(said!(core::tsa_refused_request, status, text));
    }
    let token = resp
        .time_stamp_token
        .ok_or_else(|| said!(core::tsa_no_token))?;
    let info = tst_info(&token).map_err(|e| said!(core::tsa_token_unreadable, e))?;
    if info.message_imprint != imprint {
        return Err(said!(core::tsa_token_other_hash));
    }
    if info.nonce.as_ref() != Some(&nonce) {
        return Err(said!(core::tsa_token_no_nonce));
    }
    token.to_der().map_err(|e| encoding(&e))
}

/// An HTTP/1.1 POST of a timestamp query; the body of a 200 answer.
fn post(url: &TsaUrl, body: &[u8]) -> Result<Vec<u8>, Said> {
    use std::net::ToSocketAddrs;
    let addrs: Vec<_> = (url.host.as_str(), url.port)
        .to_socket_addrs()
        .map_err(|e| said!(core::tsa_host_not_found, e))?
        .collect();
    let mut last = said!(core::tsa_host_no_address);
    let mut stream = None;
    for a in &addrs {
        match std::net::TcpStream::connect_timeout(a, Duration::from_secs(15)) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = said!(core::tsa_unreachable, e),
        }
    }
    let mut stream = stream.ok_or(last)?;
    let io = |e: std::io::Error| said!(core::tsa_exchange_failed, e);
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(io)?;
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .map_err(io)?;
    let host = if url.port == 80 {
        url.host.clone()
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: vigia\r\n\
         Content-Type: application/timestamp-query\r\nAccept: application/timestamp-reply\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        url.path,
        body.len()
    );
    stream.write_all(head.as_bytes()).map_err(io)?;
    stream.write_all(body).map_err(io)?;
    let mut answer = Vec::new();
    stream
        .take(MAX_ANSWER)
        .read_to_end(&mut answer)
        .map_err(io)?;
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| said!(core::tsa_answer_not_http))?;
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let body = &answer[split + 4..];
    let mut lines = head.lines();
    let status = lines.next().unwrap_or("");
    let code = status.split_whitespace().nth(1).unwrap_or("");
    if !status.starts_with("HTTP/1.") || code != "200" {
        return Err(said!(core::tsa_answered_not_ok, status));
    }
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    if header("Transfer-Encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
        return dechunk(body).ok_or_else(|| said!(core::tsa_chunked_cut));
    }
    match header("Content-Length").map(|l| l.parse::<usize>()) {
        Some(Ok(n)) if n <= body.len() => Ok(body[..n].to_vec()),
        Some(_) => Err(said!(core::tsa_answer_shorter)),
        None => Ok(body.to_vec()),
    }
}

fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let end = body.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&body[..end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        body = &body[end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}

/// The token's SignedData and its TSTInfo.
fn signed_and_info(token: &ContentInfo) -> Result<(SignedData, TstInfo), String> {
    let signed = token
        .content
        .decode_as::<SignedData>()
        .map_err(|e| format!("not a SignedData: {e}"))?;
    let encap = &signed.encap_content_info;
    if encap.econtent_type != ID_TST_INFO {
        return Err(format!(
            "its content is {}, not a TSTInfo",
            encap.econtent_type
        ));
    }
    let content = encap
        .econtent
        .as_ref()
        .ok_or("it carries no TSTInfo")?
        .decode_as::<OctetString>()
        .map_err(|e| e.to_string())?;
    let info = TstInfo::from_der(content.as_bytes()).map_err(|e| e.to_string())?;
    Ok((signed, info))
}

fn tst_info(token: &ContentInfo) -> Result<TstInfo, String> {
    signed_and_info(token).map(|(_, i)| i)
}

/// `genTime`: `YYYYMMDDHHMMSS[.fff]Z`.
fn gen_time(any: &Any) -> Option<DateTime<Utc>> {
    if any.tag() != Tag::GeneralizedTime {
        return None;
    }
    let s = std::str::from_utf8(any.value()).ok()?.strip_suffix('Z')?;
    let whole = s.split('.').next()?;
    let naive = NaiveDateTime::parse_from_str(whole, "%Y%m%d%H%M%S").ok()?;
    Some(naive.and_utc())
}

/// What a signature's timestamp says, checked.
#[derive(Debug, Clone)]
pub struct Stamp {
    /// the authority's time (`genTime`), when it could be read
    pub time: Option<DateTime<Utc>>,
    /// the authority's name: its certificate's common name, else the token's `tsa` field
    pub authority: Option<String>,
    /// the token is over this signature's value and signed by the authority's certificate (for
    /// timestamping) that it names
    pub token: Check,
    /// the authority's certificate chains to a trusted certificate
    pub trusted: Check,
}

impl Stamp {
    /// The time to judge certificates at: the authority's, when its token is valid.
    pub fn proven_time(&self) -> Option<DateTime<Utc>> {
        self.time.filter(|_| self.token.is_ok())
    }
}

/// Checks the token (the attribute's value) against the signature value it stamps.
pub(super) fn check(token: &Any, signature: &[u8], trusted: &[Certificate]) -> Stamp {
    let mut stamp = Stamp {
        time: None,
        authority: None,
        token: Check::Failed(Failure::TokenUnreadable(None)),
        trusted: Check::NotChecked(Unchecked::TokenUnread),
    };
    let Ok(info) = token.decode_as::<ContentInfo>() else {
        return stamp;
    };
    let (signed, tst) = match signed_and_info(&info) {
        Ok(x) => x,
        Err(e) => {
            stamp.token = Check::Failed(Failure::TokenUnreadable(Some(e.to_string())));
            return stamp;
        }
    };
    stamp.time = gen_time(&tst.gen_time);
    if let Some(GeneralName::DirectoryName(name)) = &tst.tsa {
        stamp.authority = Some(name.to_string());
    }
    let imprint_ok = match cms::digest(tst.message_imprint.hash_algorithm.oid, &[signature]) {
        None => Check::Failed(Failure::StampHashUnknown(
            tst.message_imprint.hash_algorithm.oid.to_string(),
        )),
        Some((h, _)) if h.as_slice() == tst.message_imprint.hashed_message.as_bytes() => Check::Ok,
        Some(_) => Check::Failed(Failure::StampOverAnotherSignature),
    };
    let content = signed
        .encap_content_info
        .econtent
        .as_ref()
        .and_then(|c| c.decode_as::<OctetString>().ok())
        .map(|o| o.as_bytes().to_vec())
        .unwrap_or_default();
    let checked = cms::check_signed(&signed, &mut |f| f(&content), trusted);
    if let Some(cert) = &checked.signer {
        stamp.authority = Some(super::common_name(cert));
    }
    stamp.token = match (&imprint_ok, &checked.intact, &checked.signature) {
        (Check::Ok, Check::Ok, Check::Ok) => match &checked.signer {
            Some(c) if is_for_timestamping(c) => Check::Ok,
            _ => Check::Failed(Failure::NotForTimestamping),
        },
        (Check::Ok, Check::Ok, other) | (Check::Ok, other, _) | (other, _, _) => other.clone(),
    };
    stamp.trusted = checked.chain_check;
    stamp
}

fn is_for_timestamping(cert: &Certificate) -> bool {
    cert.tbs_certificate()
        .extensions()
        .into_iter()
        .flatten()
        .filter(|e| e.extn_id == EXTENDED_KEY_USAGE)
        .filter_map(|e| Vec::<ObjectIdentifier>::from_der(e.extn_value.as_bytes()).ok())
        .any(|usages| usages.contains(&TIME_STAMPING))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_http_only() {
        let u = TsaUrl::parse("http://tsa.example.co:8080/tsa/rfc3161").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("tsa.example.co", 8080, "/tsa/rfc3161")
        );
        let u = TsaUrl::parse("HTTP://127.0.0.1").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("127.0.0.1", 80, "/")
        );
        assert!(TsaUrl::parse("https://tsa.example.co").is_err());
        assert!(TsaUrl::parse("tsa.example.co").is_err());
        assert!(TsaUrl::parse("http://:80/").is_err());
        assert!(TsaUrl::parse("http://h:0/").is_err());
        assert!(TsaUrl::parse("http://h:99999/").is_err());
        // said in Spanish too (the command line printed the English in a Spanish run)
        assert_eq!(
            TsaUrl::parse("http://h:99999/").unwrap_err().es(),
            "el puerto «99999» no es un número de 1 a 65535"
        );
        assert_eq!(
            TsaUrl::parse("tsa.example.co").unwrap_err().es(),
            "no es una dirección http:// (http://servidor[:puerto]/ruta)"
        );
    }

    #[test]
    fn chunked_bodies_are_joined_and_cut_ones_refused() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").as_deref(),
            Some(&b"abcde"[..])
        );
        assert_eq!(dechunk(b"5\r\nab"), None);
    }

    #[test]
    fn gen_times_with_and_without_fractions() {
        let t = |s: &str| gen_time(&Any::new(Tag::GeneralizedTime, s.as_bytes()).unwrap());
        let want = DateTime::parse_from_rfc3339("2025-02-11T14:30:05Z").unwrap();
        assert_eq!(t("20250211143005Z"), Some(want.to_utc()));
        assert_eq!(t("20250211143005.25Z"), Some(want.to_utc()));
        assert_eq!(t("20250211143005"), None);
    }
}
