//! A timestamp authority on loopback for the tests (RFC 3161 over HTTP): a thread answering each
//! POST with a TimeStampResp whose token is signed by a test TSA certificate (extendedKeyUsage
//! timeStamping) under its own test root. Written here from RFC 3161 and RFC 5652, sharing no
//! code with vigia's client; pdfsig and pyHanko judge what it makes.

use crate::signatures::{ca_params, key};
use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::asn1::{GeneralizedTime, ObjectIdentifier, OctetString, SetOfVec, Uint};
use der::{Any, Decode, Encode, Sequence};
use rcgen::{CertificateParams, DnType, ExtendedKeyUsagePurpose, Issuer, KeyUsagePurpose};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::net::TcpListener;
use x509_cert::Certificate;
use x509_cert::attr::Attribute;
use x509_cert::spki::AlgorithmIdentifierOwned;

const ID_TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const SIGNING_CERTIFICATE_V2: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
const SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const POLICY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.4.1.99999.1");

#[derive(Clone, Debug, Sequence)]
struct Imprint {
    algorithm: AlgorithmIdentifierOwned,
    hashed: OctetString,
}

#[derive(Clone, Debug, Sequence)]
struct Request {
    version: u8,
    imprint: Imprint,
    policy: Option<ObjectIdentifier>,
    nonce: Option<Uint>,
    #[asn1(default = "no")]
    cert_req: bool,
}

fn no() -> bool {
    false
}

#[derive(Clone, Debug, Sequence)]
struct TstInfo {
    version: u8,
    policy: ObjectIdentifier,
    imprint: Imprint,
    serial: u64,
    gen_time: GeneralizedTime,
    nonce: Option<Uint>,
}

#[derive(Clone, Debug, Sequence)]
struct StatusInfo {
    status: u8,
    text: Option<Vec<String>>,
}

#[derive(Clone, Debug, Sequence)]
struct Response {
    status: StatusInfo,
    token: Option<ContentInfo>,
}

#[derive(Clone, Debug, Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
}

#[derive(Clone, Debug, Sequence)]
struct EssCertIdV2 {
    hash: OctetString,
}

/// What the test authority does with each request.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// grants: a token over the request's imprint with its nonce
    Grant,
    /// refuses: PKIStatus rejection (2) with a reason
    Refuse,
}

/// A running test authority: its address and its root (PEM), which an office would trust.
pub(crate) struct TestTsa {
    pub(crate) url: String,
    pub(crate) root_pem: String,
}

fn attribute(oid: ObjectIdentifier, value: &impl Encode) -> Attribute {
    let mut values = SetOfVec::new();
    values
        .insert(Any::from_der(&value.to_der().unwrap()).unwrap())
        .unwrap();
    Attribute { oid, values }
}

/// Starts an authority on 127.0.0.1 (a free port) answering as `mode` says, until the test
/// process ends.
pub(crate) fn start(mode: Mode) -> TestTsa {
    let (root_key, tsa_key) = (key("ca"), key("intermediate"));
    let root_params = ca_params("Raíz de Sellado de Prueba vigia");
    let root = root_params.self_signed(&root_key).unwrap();
    let issuer = Issuer::from_params(&root_params, &root_key);
    let mut p = CertificateParams::new(Vec::<String>::new()).unwrap();
    p.distinguished_name
        .push(DnType::CommonName, "TSA de Prueba vigia");
    p.distinguished_name
        .push(DnType::OrganizationName, "Sellado de Prueba S.A.S.");
    p.distinguished_name.push(DnType::CountryName, "CO");
    p.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    p.extended_key_usages = vec![ExtendedKeyUsagePurpose::TimeStamping];
    p.not_before = rcgen::date_time_ymd(2024, 1, 1);
    p.not_after = rcgen::date_time_ymd(2090, 1, 1);
    let tsa_cert = p.signed_by(&tsa_key, &issuer).unwrap();
    let tsa = Certificate::from_der(tsa_cert.der()).unwrap();
    let root_cert = Certificate::from_der(root.der()).unwrap();
    let private: rsa::PrivateKey =
        rsa::pkcs8::DecodePrivateKey::from_pkcs8_der(&tsa_key.serialize_der()).unwrap();

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/tsa", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut serial = 0u64;
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            // headers, then Content-Length bytes of body
            let body = loop {
                let Ok(n) = stream.read(&mut buf) else {
                    break None;
                };
                if n == 0 {
                    break None;
                }
                got.extend_from_slice(&buf[..n]);
                let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") else {
                    continue;
                };
                let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if got.len() >= end + 4 + len {
                    assert!(head.contains("content-type: application/timestamp-query"));
                    break Some(got[end + 4..end + 4 + len].to_vec());
                }
            };
            let Some(body) = body else { continue };
            serial += 1;
            let answer = answer(mode, &body, serial, &private, &tsa, &root_cert);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/timestamp-reply\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                answer.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&answer);
        }
    });
    TestTsa {
        url,
        root_pem: root.pem(),
    }
}

fn answer(
    mode: Mode,
    body: &[u8],
    serial: u64,
    key: &rsa::PrivateKey,
    tsa: &Certificate,
    root: &Certificate,
) -> Vec<u8> {
    let request = Request::from_der(body).expect("a TimeStampReq");
    assert_eq!(request.version, 1);
    assert_eq!(request.imprint.algorithm.oid, SHA256);
    assert!(request.cert_req, "vigia asks for the TSA's certificate");
    assert!(request.nonce.is_some(), "vigia sends a nonce");
    if mode == Mode::Refuse {
        return Response {
            status: StatusInfo {
                status: 2,
                text: Some(vec!["servicio suspendido para pruebas".into()]),
            },
            token: None,
        }
        .to_der()
        .unwrap();
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let info = TstInfo {
        version: 1,
        policy: POLICY,
        imprint: request.imprint,
        serial,
        gen_time: GeneralizedTime::from_unix_duration(std::time::Duration::from_secs(
            now.as_secs(),
        ))
        .unwrap(),
        nonce: request.nonce,
    }
    .to_der()
    .unwrap();
    let attrs = SetOfVec::try_from(vec![
        attribute(CONTENT_TYPE, &ID_TST_INFO),
        attribute(
            MESSAGE_DIGEST,
            &OctetString::new(Sha256::digest(&info).to_vec()).unwrap(),
        ),
        attribute(
            SIGNING_CERTIFICATE_V2,
            &SigningCertificateV2 {
                certs: vec![EssCertIdV2 {
                    hash: OctetString::new(Sha256::digest(tsa.to_der().unwrap()).to_vec()).unwrap(),
                }],
            },
        ),
    ])
    .unwrap();
    let signature = key
        .sign(
            rsa::Pkcs1v15Sign::new::<Sha256>(),
            &Sha256::digest(attrs.to_der().unwrap()),
        )
        .unwrap();
    let tbs = tsa.tbs_certificate();
    let alg = |oid, null: bool| AlgorithmIdentifierOwned {
        oid,
        parameters: null.then(Any::null),
    };
    let mut certificates = SetOfVec::new();
    for c in [tsa, root] {
        certificates
            .insert(CertificateChoices::Certificate(c.clone()))
            .unwrap();
    }
    let mut digests = SetOfVec::new();
    digests.insert(alg(SHA256, false)).unwrap();
    let signed = SignedData {
        version: CmsVersion::V3,
        digest_algorithms: digests,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_TST_INFO,
            econtent: Some(Any::encode_from(&OctetString::new(info).unwrap()).unwrap()),
        },
        certificates: Some(CertificateSet(certificates)),
        crls: None,
        signer_infos: SignerInfos(
            SetOfVec::try_from(vec![SignerInfo {
                version: CmsVersion::V1,
                sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
                    issuer: tbs.issuer().clone(),
                    serial_number: tbs.serial_number().clone(),
                }),
                digest_alg: alg(SHA256, false),
                signed_attrs: Some(attrs),
                signature_algorithm: alg(RSA, true),
                signature: OctetString::new(signature).unwrap(),
                unsigned_attrs: None,
            }])
            .unwrap(),
        ),
    };
    Response {
        status: StatusInfo {
            status: 0,
            text: None,
        },
        token: Some(ContentInfo {
            content_type: ID_SIGNED_DATA,
            content: Any::encode_from(&signed).unwrap(),
        }),
    }
    .to_der()
    .unwrap()
}
