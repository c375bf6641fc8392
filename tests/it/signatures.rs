//! PAdES signatures (issue 26) on a real notice, checked by two validators that share no code
//! with vigia: poppler's `pdfsig` and pyHanko. Each test makes its own certification authority,
//! intermediate and signer (rcgen, over the fixed RSA keys in `fixtures/sign/`, so no slow key
//! generation), a PKCS#12 file as a certification authority would deliver it, and signs the
//! notice `notice issue` wrote.

use crate::common::Reg;
use crate::notices::spec_register;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose,
    PKCS_RSA_SHA256,
};
use std::path::Path;
use std::process::Command;
use vigia::sign::{self, Check, Details, Failure};

pub(crate) const PASSWORD: &str = "clave de prueba";

/// A test PKI: the root's certificate (PEM, what an office trusts) and the signer's PKCS#12.
pub(crate) struct Pki {
    pub(crate) root_pem: String,
    pub(crate) p12: Vec<u8>,
}

pub(crate) fn key(name: &str) -> KeyPair {
    let pem = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/sign/{name}.key.pem")),
    )
    .unwrap();
    KeyPair::from_pem_and_sign_algo(&pem, &PKCS_RSA_SHA256).unwrap()
}

pub(crate) fn ca_params(cn: &str) -> CertificateParams {
    let mut p = CertificateParams::new(Vec::<String>::new()).unwrap();
    p.distinguished_name.push(DnType::CommonName, cn);
    p.distinguished_name
        .push(DnType::OrganizationName, "Autoridad de Prueba S.A.S.");
    p.distinguished_name.push(DnType::CountryName, "CO");
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    p.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    p.not_before = rcgen::date_time_ymd(2024, 1, 1);
    p.not_after = rcgen::date_time_ymd(2090, 1, 1);
    p
}

/// Root → intermediate → signer "Laura Gómez Restrepo", the signer valid over `valid` (years).
pub(crate) fn pki(valid: (i32, i32)) -> Pki {
    pki_with_id(valid, None)
}

/// [`pki`] with the signer's subject serialNumber (2.5.4.5) set to `id`, as Colombian
/// certification authorities carry the holder's cédula.
pub(crate) fn pki_with_id(valid: (i32, i32), id: Option<&str>) -> Pki {
    let (root_key, mid_key, signer_key) = (key("ca"), key("intermediate"), key("signer"));
    let root_params = ca_params("Raíz de Prueba vigia");
    let root = root_params.self_signed(&root_key).unwrap();
    let root_issuer = Issuer::from_params(&root_params, &root_key);
    let mid_params = ca_params("Subordinada de Prueba vigia");
    let mid = mid_params.signed_by(&mid_key, &root_issuer).unwrap();
    let mid_issuer = Issuer::from_params(&mid_params, &mid_key);
    let mut p = CertificateParams::new(Vec::<String>::new()).unwrap();
    p.distinguished_name
        .push(DnType::CommonName, "Laura Gómez Restrepo");
    p.distinguished_name.push(
        DnType::OrganizationName,
        "Oficina de Cumplimiento de Prueba",
    );
    p.distinguished_name.push(DnType::CountryName, "CO");
    if let Some(id) = id {
        p.distinguished_name
            .push(DnType::CustomDnType(vec![2, 5, 4, 5]), id);
    }
    p.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::ContentCommitment,
    ];
    p.not_before = rcgen::date_time_ymd(valid.0, 1, 1);
    p.not_after = rcgen::date_time_ymd(valid.1, 1, 1);
    let signer = p.signed_by(&signer_key, &mid_issuer).unwrap();

    let chain = [signer.der(), mid.der(), root.der()]
        .iter()
        .map(|d| p12_keystore::Certificate::from_der(d).unwrap())
        .collect::<Vec<_>>();
    let private = p12_keystore::PrivateKey::from_der(&signer_key.serialize_der()).unwrap();
    let mut store = p12_keystore::KeyStore::new();
    store.add_entry(
        "firma",
        p12_keystore::KeyStoreEntry::PrivateKeyChain(p12_keystore::PrivateKeyChain::new(
            b"firma".to_vec(),
            private,
            chain,
        )),
    );
    Pki {
        root_pem: root.pem(),
        p12: store.writer(PASSWORD).write().unwrap(),
    }
}

fn signing_time() -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339("2025-02-11T09:30:00-05:00").unwrap()
}

/// The SPEC §5 notice MULTA-2025-0001 as `notice issue` writes it, in PDF.
pub(crate) fn notice_pdf(r: &Reg) -> Vec<u8> {
    let path = r.dir.path().join("n.pdf");
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "pdf",
        "--out",
        path.to_str().unwrap(),
    ]);
    std::fs::read(&path).unwrap()
}

fn signed(pdf: &[u8], pki: &Pki) -> Vec<u8> {
    let signer = sign::Signer::from_pkcs12(&pki.p12, PASSWORD).unwrap();
    assert_eq!(signer.name(), "Laura Gómez Restrepo");
    sign::sign_pdf(
        pdf,
        &signer,
        &Details {
            reason: "Notificación de multa MULTA-2025-0001",
            location: "Bogotá D.C., Colombia",
            time: signing_time(),
            signatory: None,
            tsa: None,
        },
    )
    .unwrap()
}

/// `pdfsig FILE`'s report.
pub(crate) fn pdfsig(path: &Path) -> String {
    let out = Command::new("pdfsig")
        .arg(path)
        .output()
        .expect("pdfsig (Debian poppler-utils) is installed; .ci/run installs it");
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// pyHanko's validation against the test root: (exit status 0, its report).
pub(crate) fn pyhanko(path: &Path, root_pem: &str) -> (bool, String) {
    let dir = path.parent().unwrap();
    let root = dir.join("raiz.pem");
    std::fs::write(&root, root_pem).unwrap();
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sign/pyhanko_validate.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(path)
        .arg(&root)
        .output()
        .expect("pyHanko (PyPI pyhanko) is installed; .ci/run installs it");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_signed_notice_passes_pdfsig_pyhanko_and_vigia_and_a_changed_byte_fails_all_three() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let unsigned = notice_pdf(&r);
    let signed = signed(&unsigned, &pki);
    // the PDF writer's bytes are kept: the signature is appended after them
    assert_eq!(&signed[..unsigned.len()], &unsigned[..]);
    let path = r.dir.path().join("firmada.pdf");
    std::fs::write(&path, &signed).unwrap();

    let report = pdfsig(&path);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    assert!(report.contains("Laura Gómez Restrepo"), "{report}");
    assert!(report.contains("ETSI.CAdES.detached"), "{report}");
    let (ok, report) = pyhanko(&path, &pki.root_pem);
    assert!(ok, "{report}");
    assert!(
        report.contains("SUMMARY INTACT VALID TRUSTED ENTIRE_FILE"),
        "{report}"
    );

    let trusted = sign::read_certificates(pki.root_pem.as_bytes()).unwrap();
    let found = sign::verify_pdf(&signed, &trusted).unwrap();
    assert_eq!(found.len(), 1);
    let v = &found[0];
    assert!(v.is_valid(), "{v:?}");
    assert_eq!(v.signer.as_deref(), Some("Laura Gómez Restrepo"));
    assert_eq!(
        v.reason.as_deref(),
        Some("Notificación de multa MULTA-2025-0001")
    );
    assert_eq!(v.location.as_deref(), Some("Bogotá D.C., Colombia"));
    assert_eq!(v.signed_at, Some(signing_time()));

    // one byte of the notice's own content changed (inside its first stream)
    let mut tampered = signed.clone();
    let at = signed.windows(7).position(|w| w == b"stream\n").unwrap() + 20;
    tampered[at] ^= 0x01;
    let bad = r.dir.path().join("alterada.pdf");
    std::fs::write(&bad, &tampered).unwrap();
    let report = pdfsig(&bad);
    assert!(!report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Digest Mismatch"), "{report}");
    let (ok, report) = pyhanko(&bad, &pki.root_pem);
    assert!(!ok, "{report}");
    assert!(report.contains("SUMMARY NOT-INTACT"), "{report}");
    let v = &sign::verify_pdf(&tampered, &trusted).unwrap()[0];
    assert!(!v.is_valid());
    assert!(matches!(v.intact, Check::Failed(_)), "{v:?}");
    assert_eq!(
        v.signature,
        Check::Ok,
        "the signature itself is still the signer's"
    );
}

#[test]
fn an_expired_or_untrusted_certificate_and_bytes_added_after_signing_are_each_named() {
    let r = spec_register();
    let unsigned = notice_pdf(&r);
    let good = pki((2025, 2090));
    let trusted = sign::read_certificates(good.root_pem.as_bytes()).unwrap();

    // a signer whose certificate ended on 01/01/2024 signs on 11/02/2025
    let expired = pki((2023, 2024));
    let signed_expired = signed(&unsigned, &expired);
    let v = &sign::verify_pdf(&signed_expired, &trusted).unwrap()[0];
    assert_eq!(v.intact, Check::Ok);
    assert_eq!(v.signature, Check::Ok);
    assert_eq!(v.trusted, Check::Ok);
    let Check::Failed(Failure::NotValidAt { holder, at, to, .. }) = &v.valid_at_signing else {
        panic!("{v:?}")
    };
    assert_eq!(holder, "Laura Gómez Restrepo");
    assert_eq!(*at, signing_time());
    assert_eq!(to.to_rfc3339(), "2024-01-01T00:00:00+00:00");
    let path = r.dir.path().join("vencida.pdf");
    std::fs::write(&path, &signed_expired).unwrap();
    let (ok, report) = pyhanko(&path, &expired.root_pem);
    assert!(!ok, "pyHanko accepts an expired signer: {report}");

    // a good signature checked against another office's root
    let signed_good = signed(&unsigned, &good);
    let other_root = ca_params("Otra Raíz de Prueba")
        .self_signed(&key("intermediate"))
        .unwrap();
    let other = sign::read_certificates(other_root.pem().as_bytes()).unwrap();
    let v = &sign::verify_pdf(&signed_good, &other).unwrap()[0];
    assert_eq!((&v.intact, &v.signature), (&Check::Ok, &Check::Ok));
    assert!(
        matches!(&v.trusted, Check::Failed(Failure::UntrustedRoot(root)) if root.contains("Raíz de Prueba vigia")),
        "{v:?}"
    );
    let v = &sign::verify_pdf(&signed_good, &[]).unwrap()[0];
    assert!(
        matches!(&v.trusted, Check::Failed(Failure::NoTrustGiven(_))),
        "{v:?}"
    );
    let path = r.dir.path().join("otra.pdf");
    std::fs::write(&path, &signed_good).unwrap();
    let (ok, report) = pyhanko(&path, &other_root.pem());
    assert!(!ok && report.contains("UNTRUSTED"), "{report}");

    // bytes appended after the signature: the signed part is intact, the file is not all signed
    let mut appended = signed_good.clone();
    appended.extend_from_slice(b"% added after signing\n");
    let v = &sign::verify_pdf(&appended, &trusted).unwrap()[0];
    assert_eq!(v.intact, Check::Ok);
    assert!(
        v.whole_file == Check::Failed(Failure::Appended(22)),
        "{v:?}"
    );
    assert!(!v.is_valid());
    let path = r.dir.path().join("añadida.pdf");
    std::fs::write(&path, &appended).unwrap();
    let report = pdfsig(&path);
    assert!(report.contains("Not total document signed"), "{report}");

    // an unsigned notice has no signature to report
    assert!(sign::verify_pdf(&unsigned, &trusted).unwrap().is_empty());
}

#[test]
fn notice_issue_sign_writes_a_signed_notice_that_notice_verify_and_both_validators_accept() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    let path = r.dir.path().join("n.pdf");
    let issue = |extra: &[&str]| {
        let mut args = vec![
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            "2025-02-11",
            "--reason",
            "fecha del caso de prueba",
            "--out",
            path.to_str().unwrap(),
            "--sign",
            &p12,
        ];
        args.extend_from_slice(extra);
        r.command()
            .arg("--db")
            .arg(r.db())
            .args(["--officer", "tester"])
            .args(&args)
            .env(vigia_password_var(), PASSWORD)
            .output()
            .unwrap()
    };
    // a wrong password refuses the command before anything is issued
    let wrong = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester"])
        .args([
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--sign",
            &p12,
        ])
        .env(vigia_password_var(), "otra")
        .output()
        .unwrap();
    assert_eq!(
        wrong.status.code(),
        Some(2),
        "{}",
        crate::common::err(&wrong)
    );
    assert!(
        crate::common::err(&wrong).contains("--sign"),
        "{}",
        crate::common::err(&wrong)
    );
    assert!(
        r.json(&["notice", "list", "--format", "json"])
            .as_array()
            .unwrap()
            .is_empty()
    );

    let o = issue(&[]);
    assert!(o.status.success(), "{}", crate::common::err(&o));
    let report = pdfsig(&path);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    let (ok, report) = pyhanko(&path, &pki.root_pem);
    assert!(ok, "{report}");

    let p = path.to_str().unwrap();
    let t = trust.to_str().unwrap();
    let out = r.ok(&["notice", "verify", p, "--trust", t]);
    assert!(out.contains("file: identical to the issued file"), "{out}");
    assert!(out.contains("signature by Laura Gómez Restrepo"), "{out}");
    assert!(
        out.contains("reason: Notificación de multa MULTA-2025-0001"),
        "{out}"
    );
    assert!(
        out.contains("signed bytes: unchanged since signing"),
        "{out}"
    );
    assert!(
        out.contains("certificate chain: reaches a certificate of --trust"),
        "{out}"
    );

    // one byte changed: vigia's verify says which check failed, with exit status 1
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(7).position(|w| w == b"stream\n").unwrap() + 20;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let o = r.run(&["notice", "verify", p, "--trust", t]);
    assert_eq!(o.status.code(), Some(1));
    let out = crate::common::out(&o);
    assert!(out.contains("signed bytes: FAILED"), "{out}");
}

/// Where the signature's incremental update starts: after the PDF writer's `%%EOF`.
pub(crate) fn unsigned_len(pdf: &[u8]) -> usize {
    pdf.windows(5).position(|w| w == b"%%EOF").unwrap() + 5
}

fn vigia_password_var() -> &'static str {
    "VIGIA_SIGN_PASSWORD"
}

/// The CMS of the first signature of `pdf`: the hex string of `/Contents<…>`, decoded (the zero
/// padding after the DER is left, it holds none of the searched encodings).
fn first_cms(pdf: &[u8]) -> Vec<u8> {
    let start = pdf.windows(10).position(|w| w == b"/Contents<").unwrap() + 10;
    let len = pdf[start..].iter().position(|&b| b == b'>').unwrap();
    let hex = std::str::from_utf8(&pdf[start..start + len]).unwrap();
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn the_cms_has_no_signing_time_attribute_the_claimed_time_is_the_m_entry() {
    // ETSI EN 319 142-1 (PAdES baseline): the signing-time attribute shall not be present; the
    // claimed time is the signature dictionary's /M. The DER of the attribute types (OID tag 06,
    // length 09, 1.2.840.113549.1.9.N), searched in the signature's own bytes.
    let oid = |n: u8| {
        [
            0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, n,
        ]
    };
    let has = |cms: &[u8], n: u8| cms.windows(11).any(|w| w == oid(n));
    let r = spec_register();
    let pki = pki((2025, 2090));
    let signed = signed(&notice_pdf(&r), &pki);
    let cms = first_cms(&signed);
    assert!(has(&cms, 3), "content-type is signed");
    assert!(has(&cms, 4), "message-digest is signed");
    assert!(!has(&cms, 5), "no signing-time attribute");
    // the claimed time is in /M, which pdfsig reports as the signing time
    assert!(signed.windows(5).any(|w| w == b"/M(D:"));
    let path = r.dir.path().join("firmada.pdf");
    std::fs::write(&path, &signed).unwrap();
    let report = pdfsig(&path);
    assert!(report.contains("Signing Time:"), "{report}");
    assert!(report.contains("Signature is Valid"), "{report}");
}

/// Other writers' PDFs (`tests/fixtures/sign/other_writers.py`): a cross-reference table, and a
/// catalog and pages inside an object stream with predicted,
/// compressed cross-references. Each is signed (read with vigia's own reader, as its PDFs are),
/// its bytes kept, and pdfsig, pyHanko and vigia find the signature valid over the whole file.
#[test]
fn other_writers_pdfs_with_a_cross_reference_table_or_object_streams_are_signed_and_valid() {
    let pki = pki((2025, 2090));
    let dir = tempfile::tempdir().unwrap();
    let trusted = sign::read_certificates(pki.root_pem.as_bytes()).unwrap();
    for name in ["classic.pdf", "objstm.pdf"] {
        let unsigned = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/sign")
                .join(name),
        )
        .unwrap();
        let signed = signed(&unsigned, &pki);
        assert_eq!(&signed[..unsigned.len()], &unsigned[..], "{name}");
        let path = dir.path().join(name);
        std::fs::write(&path, &signed).unwrap();
        let report = pdfsig(&path);
        assert!(report.contains("Signature is Valid"), "{name}: {report}");
        assert!(report.contains("Total document signed"), "{name}: {report}");
        let (ok, report) = pyhanko(&path, &pki.root_pem);
        assert!(ok, "{name}: {report}");
        assert!(
            report.contains("SUMMARY INTACT VALID TRUSTED ENTIRE_FILE"),
            "{name}: {report}"
        );
        let found = sign::verify_pdf(&signed, &trusted).unwrap();
        assert_eq!(found.len(), 1, "{name}");
        assert!(found[0].is_valid(), "{name}: {:?}", found[0]);
    }
}
