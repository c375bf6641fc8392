//! The CMS side: a detached SignedData over a digest (PAdES baseline B-B: content type,
//! message digest and ESS signing-certificate-v2 signed; the claimed time is the `/M` of the
//! signature dictionary, as ETSI EN 319 142-1 asks, not a CMS signing-time attribute), and its
//! verification: the digest, the signature, the signing certificate it names, the chain to a
//! trusted certificate and each certificate's validity at the claimed time.

use super::{Check, Failure, SignError, Unchecked};
use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::Decode;
use der::asn1::{ObjectIdentifier, OctetString, SetOfVec};
use der::{Any, Encode, Sequence};
use rsa::{Pkcs1v15Sign, PrivateKey as RsaPrivateKey, PublicKey as RsaPublicKey};
use sha2::{Digest, Sha256, Sha384, Sha512};
use x509_cert::Certificate;
use x509_cert::attr::Attribute;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::AlgorithmIdentifierOwned;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const SIGNING_CERTIFICATE_V2: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
pub(super) const SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
const SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3");
const RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
/// id-aa-signatureTimeStampToken, the unsigned attribute that carries a timestamp token.
const SIGNATURE_TIMESTAMP: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.14");
const SHA256_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
const SHA384_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.12");
const SHA512_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.13");

/// RFC 5035 `SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, policies … }`
#[derive(Clone, Debug, Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
}

/// `ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial OPTIONAL }`
#[derive(Clone, Debug, Sequence)]
struct EssCertIdV2 {
    hash_algorithm: Option<AlgorithmIdentifierOwned>,
    cert_hash: OctetString,
    issuer_serial: Option<IssuerSerial>,
}

#[derive(Clone, Debug, Sequence)]
struct IssuerSerial {
    issuer: Vec<GeneralName>,
    serial_number: SerialNumber,
}

fn algorithm(oid: ObjectIdentifier, null: bool) -> AlgorithmIdentifierOwned {
    AlgorithmIdentifierOwned {
        oid,
        parameters: null.then(Any::null),
    }
}

fn attribute(oid: ObjectIdentifier, value: &impl Encode) -> Result<Attribute, der::Error> {
    let mut values = SetOfVec::new();
    values.insert(Any::from_der(&value.to_der()?)?)?;
    Ok(Attribute { oid, values })
}

/// The hash named by an algorithm identifier, of the given parts in order.
pub(super) fn digest(oid: ObjectIdentifier, parts: &[&[u8]]) -> Option<(Vec<u8>, Pkcs1v15Sign)> {
    digest_fed(oid, &mut |f| parts.iter().for_each(|p| f(p)))
}

/// Bytes handed to a sink in order, a piece at a time: what a signature covers, from memory or
/// read from a file as it is hashed.
pub(super) type Feed<'a> = dyn FnMut(&mut dyn FnMut(&[u8])) + 'a;

/// The hash named by an algorithm identifier, of the bytes `feed` gives.
pub(super) fn digest_fed(
    oid: ObjectIdentifier,
    feed: &mut Feed<'_>,
) -> Option<(Vec<u8>, Pkcs1v15Sign)> {
    fn run<D: Digest + der::oid::AssociatedOid>(feed: &mut Feed<'_>) -> (Vec<u8>, Pkcs1v15Sign) {
        let mut d = D::new();
        feed(&mut |p| d.update(p));
        (d.finalize().to_vec(), Pkcs1v15Sign::new::<D>())
    }
    match oid {
        o if o == SHA256 || o == SHA256_RSA => Some(run::<Sha256>(feed)),
        o if o == SHA384 || o == SHA384_RSA => Some(run::<Sha384>(feed)),
        o if o == SHA512 || o == SHA512_RSA => Some(run::<Sha512>(feed)),
        _ => None,
    }
}

/// What timestamps a signature value: the token's DER (PAdES B-T).
pub(super) type Stamper<'a> = dyn Fn(&[u8]) -> Result<Vec<u8>, SignError> + 'a;

/// A detached SignedData (DER) over the bytes `feed` gives, signed by `key` whose certificate is
/// `chain[0]`.
pub(super) fn sign(
    feed: &mut Feed<'_>,
    key: &RsaPrivateKey,
    chain: &[Certificate],
    stamp: Option<&Stamper<'_>>,
) -> Result<Vec<u8>, SignError> {
    let der_err = |e: der::Error| SignError::Encoding(e.to_string());
    let signer = chain.first().ok_or(SignError::NoCertificate)?;
    let (message_digest, _) = digest_fed(SHA256, feed).expect("SHA-256 is known");
    let signer_der = signer.to_der().map_err(der_err)?;
    let tbs = signer.tbs_certificate();
    let ess = SigningCertificateV2 {
        certs: vec![EssCertIdV2 {
            hash_algorithm: None,
            cert_hash: OctetString::new(Sha256::digest(&signer_der).to_vec()).map_err(der_err)?,
            issuer_serial: Some(IssuerSerial {
                issuer: vec![GeneralName::DirectoryName(tbs.issuer().clone())],
                serial_number: tbs.serial_number().clone(),
            }),
        }],
    };
    let attrs = SetOfVec::try_from(vec![
        attribute(CONTENT_TYPE, &ID_DATA).map_err(der_err)?,
        attribute(
            MESSAGE_DIGEST,
            &OctetString::new(message_digest).map_err(der_err)?,
        )
        .map_err(der_err)?,
        attribute(SIGNING_CERTIFICATE_V2, &ess).map_err(der_err)?,
    ])
    .map_err(der_err)?;
    let (attrs_digest, scheme) =
        digest(SHA256, &[&attrs.to_der().map_err(der_err)?]).expect("SHA-256 is known");
    let signature = key
        .sign(scheme, &attrs_digest)
        .map_err(|e| SignError::Key(e.to_string()))?;
    // PAdES B-T: the authority's token over the signature value, unsigned
    let unsigned_attrs = match stamp {
        None => None,
        Some(stamp) => {
            let token = Any::from_der(&stamp(&signature)?).map_err(der_err)?;
            let mut values = SetOfVec::new();
            values.insert(token).map_err(der_err)?;
            Some(
                SetOfVec::try_from(vec![Attribute {
                    oid: SIGNATURE_TIMESTAMP,
                    values,
                }])
                .map_err(der_err)?,
            )
        }
    };
    let info = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: algorithm(SHA256, false),
        signed_attrs: Some(attrs),
        signature_algorithm: algorithm(RSA, true),
        signature: OctetString::new(signature).map_err(der_err)?,
        unsigned_attrs,
    };
    let mut certificates = SetOfVec::new();
    for cert in chain {
        certificates
            .insert(CertificateChoices::Certificate(cert.clone()))
            .map_err(der_err)?;
    }
    let mut digests = SetOfVec::new();
    digests.insert(algorithm(SHA256, false)).map_err(der_err)?;
    let signed = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: digests,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: Some(CertificateSet(certificates)),
        crls: None,
        signer_infos: SignerInfos(SetOfVec::try_from(vec![info]).map_err(der_err)?),
    };
    ContentInfo {
        content_type: ID_SIGNED_DATA,
        content: Any::encode_from(&signed).map_err(der_err)?,
    }
    .to_der()
    .map_err(der_err)
}

/// What the CMS says, checked: the named results of one signature.
pub(super) struct Checked {
    pub(super) signer: Option<Certificate>,
    pub(super) intact: Check,
    pub(super) signature: Check,
    pub(super) chain: Vec<Certificate>,
    pub(super) chain_check: Check,
    /// the signature's timestamp token (PAdES B-T), when it carries one, and the signature
    /// value it stamps
    pub(super) token: Option<(Any, Vec<u8>)>,
}

fn failed(why: Failure) -> Check {
    Check::Failed(why)
}

/// Checks the SignedData in `contents` (DER, zero padding allowed) against the signed `parts`,
/// and the signer's chain against `trusted` (certificates, DER).
pub(super) fn check(contents: &[u8], parts: &mut Feed<'_>, trusted: &[Certificate]) -> Checked {
    let Some(signed) = read_signed_data(contents) else {
        let mut out = unread();
        out.signature = failed(Failure::NotSignedData);
        return out;
    };
    let mut out = check_signed(&signed, parts, trusted);
    if let Some(info) = signed.signer_infos.0.iter().next() {
        let token = info
            .unsigned_attrs
            .iter()
            .flat_map(|a| a.iter())
            .find(|a| a.oid == SIGNATURE_TIMESTAMP);
        out.token = token
            .and_then(|a| a.values.iter().next())
            .map(|t| (t.clone(), info.signature.as_bytes().to_vec()));
    }
    out
}

fn unread() -> Checked {
    Checked {
        signer: None,
        intact: Check::NotChecked(Unchecked::SignatureUnread),
        signature: Check::NotChecked(Unchecked::SignatureUnread),
        chain: Vec::new(),
        chain_check: Check::NotChecked(Unchecked::SignatureUnread),
        token: None,
    }
}

/// Checks a SignedData's first signer over the detached `parts` (its digest, signature, ESS
/// signing certificate) and its chain against `trusted`.
pub(super) fn check_signed(
    signed: &SignedData,
    parts: &mut Feed<'_>,
    trusted: &[Certificate],
) -> Checked {
    let mut out = unread();
    let certs: Vec<Certificate> = signed
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|c| match c {
            CertificateChoices::Certificate(c) => Some(c.clone()),
            CertificateChoices::Other(_) => None,
        })
        .collect();
    let Some(info) = signed.signer_infos.0.iter().next() else {
        out.signature = failed(Failure::NoSigner);
        return out;
    };
    let SignerIdentifier::IssuerAndSerialNumber(sid) = &info.sid else {
        out.signature = failed(Failure::SignerByKeyId);
        return out;
    };
    let Some(signer) = certs.iter().find(|c| {
        c.tbs_certificate().issuer() == &sid.issuer
            && c.tbs_certificate().serial_number() == &sid.serial_number
    }) else {
        out.signature = failed(Failure::SignerCertificateMissing);
        return out;
    };
    out.signer = Some(signer.clone());
    let Some(attrs) = &info.signed_attrs else {
        out.signature = failed(Failure::NoSignedAttributes);
        return out;
    };
    let value = |oid: ObjectIdentifier| {
        attrs
            .iter()
            .find(|a| a.oid == oid)
            .and_then(|a| a.values.iter().next())
    };
    // 1. the digest of the signed bytes
    out.intact = match digest_fed(info.digest_alg.oid, parts) {
        None => failed(Failure::UnknownDigest(info.digest_alg.oid.to_string())),
        Some((d, _)) => match value(MESSAGE_DIGEST).and_then(|v| v.decode_as::<OctetString>().ok())
        {
            Some(m) if m.as_bytes() == d.as_slice() => Check::Ok,
            Some(_) => failed(Failure::DigestMismatch),
            None => failed(Failure::NoMessageDigest),
        },
    };
    // 2. the signature over the signed attributes, by the signer's key; the ESS attribute names
    //    that very certificate (PAdES)
    let attrs_der = attrs.to_der().unwrap_or_default();
    out.signature = match (
        digest(info.digest_alg.oid, &[&attrs_der]),
        public_key(signer),
    ) {
        (None, _) => failed(Failure::UnknownDigest(info.digest_alg.oid.to_string())),
        (_, None) => failed(Failure::NotRsaKey),
        (Some((d, scheme)), Some(key)) => {
            if key.verify(scheme, &d, info.signature.as_bytes()).is_err() {
                failed(Failure::SignatureMismatch)
            } else {
                ess_names(value(SIGNING_CERTIFICATE_V2), signer)
            }
        }
    };
    // 3. the chain, up to a trusted certificate
    let (chain, check) = chain_to(signer, &certs, trusted);
    out.chain = chain;
    out.chain_check = check;
    out
}

fn read_signed_data(contents: &[u8]) -> Option<SignedData> {
    // the DER value alone: the zero padding after it is not part of it
    let mut reader = der::SliceReader::new(contents).ok()?;
    let info: ContentInfo = der::Decode::decode(&mut reader).ok()?;
    (info.content_type == ID_SIGNED_DATA)
        .then(|| info.content.decode_as::<SignedData>().ok())
        .flatten()
}

fn ess_names(value: Option<&Any>, signer: &Certificate) -> Check {
    let Some(ess) = value.and_then(|v| v.decode_as::<SigningCertificateV2>().ok()) else {
        return failed(Failure::NoEss);
    };
    let Some(first) = ess.certs.first() else {
        return failed(Failure::EssEmpty);
    };
    let oid = first.hash_algorithm.as_ref().map_or(SHA256, |a| a.oid);
    let der = signer.to_der().unwrap_or_default();
    match digest(oid, &[&der]) {
        Some((h, _)) if h.as_slice() == first.cert_hash.as_bytes() => Check::Ok,
        Some(_) => failed(Failure::EssOtherCertificate),
        None => failed(Failure::UnknownDigest(oid.to_string())),
    }
}

fn public_key(cert: &Certificate) -> Option<RsaPublicKey> {
    let spki = cert.tbs_certificate().subject_public_key_info();
    let der = spki.to_der().ok()?;
    rsa::pkcs8::DecodePublicKey::from_public_key_der(&der).ok()
}

/// Whether `issuer`'s key signed `cert`.
fn signed_by(cert: &Certificate, issuer: &Certificate) -> bool {
    let Some(key) = public_key(issuer) else {
        return false;
    };
    let Ok(tbs) = cert.tbs_certificate().to_der() else {
        return false;
    };
    let Some((d, scheme)) = digest(cert.signature_algorithm().oid, &[&tbs]) else {
        return false;
    };
    cert.signature()
        .as_bytes()
        .is_some_and(|sig| key.verify(scheme, &d, sig).is_ok())
}

/// The path from `signer` up through `pool` (the signature's certificates) and `trusted`,
/// each certificate signed by the next; trusted when it reaches a certificate of `trusted`.
fn chain_to(
    signer: &Certificate,
    pool: &[Certificate],
    trusted: &[Certificate],
) -> (Vec<Certificate>, Check) {
    let mut chain = vec![signer.clone()];
    loop {
        let current = chain.last().expect("never empty");
        if trusted.contains(current) {
            return (chain, Check::Ok);
        }
        if chain.len() > 10 {
            return (chain, failed(Failure::ChainTooLong));
        }
        let issuer_name = current.tbs_certificate().issuer();
        let next = trusted
            .iter()
            .chain(pool)
            .find(|c| c.tbs_certificate().subject() == issuer_name && signed_by(current, c));
        match next.filter(|n| !chain.contains(n)).cloned() {
            Some(n) => chain.push(n),
            None => {
                let self_signed = current.tbs_certificate().subject() == issuer_name;
                let issuer_name = issuer_name.to_string();
                let why = if trusted.is_empty() {
                    Failure::NoTrustGiven(issuer_name)
                } else if self_signed {
                    Failure::UntrustedRoot(issuer_name)
                } else {
                    Failure::NoTrustedReached(issuer_name)
                };
                return (chain, failed(why));
            }
        }
    }
}
