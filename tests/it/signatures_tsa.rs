//! Timestamps on signatures (issue 26, PAdES B-T): `--tsa URL` asks an RFC 3161 authority (a
//! test one on loopback, `tsa_server`) for a token over the signature, which pdfsig and pyHanko
//! accept and vigia's verify reports (its time, its authority, whether it holds); an authority
//! that refuses or is down refuses the command with nothing issued.

use crate::common::Reg;
use crate::notices::spec_register;
use crate::signatures::{PASSWORD, notice_pdf, pdfsig, pki};
use crate::tsa_server::{self, Mode};
use std::path::Path;
use std::process::Command;
use vigia::sign::{self, Check, Details, TsaUrl};

fn pyhanko_ts(path: &Path, root: &str, tsa_root: &str) -> (bool, String) {
    let dir = path.parent().unwrap();
    std::fs::write(dir.join("raiz.pem"), root).unwrap();
    std::fs::write(dir.join("raiz-tsa.pem"), tsa_root).unwrap();
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sign/pyhanko_validate_ts.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(path)
        .arg(dir.join("raiz.pem"))
        .arg(dir.join("raiz-tsa.pem"))
        .output()
        .expect("pyHanko is installed");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_timestamped_signature_passes_pdfsig_pyhanko_and_vigia_at_the_authoritys_time() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let tsa = tsa_server::start(Mode::Grant);
    let url = TsaUrl::parse(&tsa.url).unwrap();
    let unsigned = notice_pdf(&r);
    let signer = sign::Signer::from_pkcs12(&pki.p12, PASSWORD).unwrap();
    let before = chrono::Utc::now().timestamp();
    let signed = sign::sign_pdf(
        &unsigned,
        &signer,
        &Details {
            reason: "Notificación de multa MULTA-2025-0001",
            location: "Bogotá D.C., Colombia",
            time: chrono::Utc::now().with_timezone(&vigia::calendar::colombia()),
            signatory: None,
            tsa: Some(&url),
        },
    )
    .unwrap();
    let after = chrono::Utc::now().timestamp();
    assert_eq!(&signed[..unsigned.len()], &unsigned[..]);
    let path = r.dir.path().join("sellada.pdf");
    std::fs::write(&path, &signed).unwrap();

    let report = pdfsig(&path);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    let (ok, report) = pyhanko_ts(&path, &pki.root_pem, &tsa.root_pem);
    assert!(ok, "{report}");
    assert!(
        report.contains("SUMMARY INTACT VALID TRUSTED ENTIRE_FILE"),
        "{report}"
    );
    assert!(
        report.contains("The timestamp token is cryptographically sound."),
        "{report}"
    );
    assert!(
        report.contains("The TSA certificate is trusted."),
        "{report}"
    );
    assert!(
        report.lines().any(|l| l.starts_with("TIMESTAMP 20")),
        "{report}"
    );

    let mut trusted = sign::read_certificates(pki.root_pem.as_bytes()).unwrap();
    trusted.extend(sign::read_certificates(tsa.root_pem.as_bytes()).unwrap());
    let v = &sign::verify_pdf(&signed, &trusted).unwrap()[0];
    assert!(v.is_valid(), "{v:?}");
    let stamp = v.stamp.as_ref().expect("a timestamp");
    assert_eq!(stamp.token, Check::Ok);
    assert_eq!(stamp.trusted, Check::Ok);
    assert_eq!(stamp.authority.as_deref(), Some("TSA de Prueba vigia"));
    let t = stamp.time.unwrap().timestamp();
    assert!(
        before - 1 <= t && t <= after + 1,
        "{t} not in {before}..{after}"
    );

    // the signer's root alone: the signature holds, the authority is not trusted
    let only_signer = sign::read_certificates(pki.root_pem.as_bytes()).unwrap();
    let v = &sign::verify_pdf(&signed, &only_signer).unwrap()[0];
    assert_eq!(v.trusted, Check::Ok);
    let stamp = v.stamp.as_ref().unwrap();
    assert_eq!(stamp.token, Check::Ok);
    assert!(matches!(stamp.trusted, Check::Failed(_)), "{stamp:?}");
    assert!(!v.is_valid());

    // a signature without --tsa has no timestamp
    let v = &sign::verify_pdf(
        &sign::sign_pdf(
            &unsigned,
            &signer,
            &Details {
                reason: "x",
                location: "y",
                time: chrono::Utc::now().with_timezone(&vigia::calendar::colombia()),
                signatory: None,
                tsa: None,
            },
        )
        .unwrap(),
        &trusted,
    )
    .unwrap()[0];
    assert!(v.stamp.is_none());
}

fn issue(r: &Reg, p12: &str, out: &Path, tsa: &str, lang: &str) -> std::process::Output {
    r.command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester"])
        .args([
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
            out.to_str().unwrap(),
            "--sign",
            p12,
            "--tsa",
            tsa,
        ])
        .env("VIGIA_SIGN_PASSWORD", PASSWORD)
        .env("VIGIA_LANG", lang)
        .output()
        .unwrap()
}

#[test]
fn notice_issue_tsa_stamps_the_notice_and_notice_verify_reports_the_timestamp_in_both_languages() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let tsa = tsa_server::start(Mode::Grant);
    let p12 = r.file("firma.p12", &pki.p12);
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    std::fs::write(trust.join("raiz-tsa.pem"), &tsa.root_pem).unwrap();
    let path = r.dir.path().join("n.pdf");
    let o = issue(&r, &p12, &path, &tsa.url, "en");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (ok, report) = pyhanko_ts(&path, &pki.root_pem, &tsa.root_pem);
    assert!(ok, "{report}");

    let verify = |lang: &str| {
        let o = r.with_locale(
            &[("VIGIA_LANG", lang)],
            &[
                "notice",
                "verify",
                path.to_str().unwrap(),
                "--trust",
                trust.to_str().unwrap(),
            ],
        );
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, en) = verify("en");
    assert_eq!(code, Some(0), "{en}");
    assert!(
        en.contains("    timestamp: ") && en.contains(" by TSA de Prueba vigia"),
        "{en}"
    );
    assert!(
        en.contains(
            "    timestamp token: valid over this signature, by a timestamping certificate"
        ),
        "{en}"
    );
    assert!(
        en.contains("    timestamp authority: reaches a certificate of --trust"),
        "{en}"
    );
    assert!(
        en.contains("certificate validity: every certificate valid at the timestamp's time"),
        "{en}"
    );
    let (code, es) = verify("es");
    assert_eq!(code, Some(0), "{es}");
    assert!(
        es.contains("    sello de tiempo: ") && es.contains(" de TSA de Prueba vigia"),
        "{es}"
    );
    assert!(
        es.contains("token del sello: válido sobre esta firma"),
        "{es}"
    );

    // without the authority's root the timestamp's authority is not trusted: a finding
    std::fs::remove_file(trust.join("raiz-tsa.pem")).unwrap();
    let (code, en) = verify("en");
    assert_eq!(code, Some(1), "{en}");
    assert!(en.contains("    timestamp authority: FAILED: "), "{en}");
}

#[test]
fn without_tsa_verify_says_the_time_is_the_signers_claim() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    let path = r.dir.path().join("n.pdf");
    let o = r
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
            "--date",
            "2025-02-11",
            "--reason",
            "fecha del caso de prueba",
            "--out",
            path.to_str().unwrap(),
            "--sign",
            &p12,
        ])
        .env("VIGIA_SIGN_PASSWORD", PASSWORD)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = r.with_locale(
        &[("VIGIA_LANG", "es")],
        &["notice", "verify", path.to_str().unwrap()],
    );
    let es = String::from_utf8_lossy(&o.stdout);
    assert!(
        es.contains("    sello de tiempo: ninguno: Hora del firmante, sin sello de tiempo"),
        "{es}"
    );
    // every result of the signature is said in Spanish, not only its time
    for line in [
        "  firma de ",
        "    bytes firmados: sin cambios desde la firma",
        "    cobertura: todo el archivo salvo la firma misma",
        "    firma: hecha con el certificado que nombra",
        "    cadena de certificados: sin verificar: dé --trust DIR",
        "    vigencia de los certificados: todos los certificados vigentes a la hora que declara el firmante",
    ] {
        assert!(es.contains(line), "{line:?} in {es}");
    }
    assert!(
        !es.contains("signed bytes") && !es.contains("coverage:"),
        "{es}"
    );
    let o = r.run(&["notice", "verify", path.to_str().unwrap()]);
    let en = String::from_utf8_lossy(&o.stdout);
    assert!(en.contains("signer's clock, no timestamp"), "{en}");
}

#[test]
fn an_authority_that_refuses_or_is_down_refuses_the_issue_with_nothing_written() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    let path = r.dir.path().join("n.pdf");
    let refusing = tsa_server::start(Mode::Refuse);
    // a port nothing listens on
    let down = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/tsa", l.local_addr().unwrap())
    };
    for (url, lang, said) in [
        (&refusing.url, "en", "servicio suspendido para pruebas"),
        (&down, "en", "cannot be reached"),
        // the reason in Spanish too (it was English inside the Spanish sentence)
        (&down, "es", "no se puede conectar con ella ("),
        (&refusing.url, "es", "rechazó la solicitud (PKIStatus 2"),
        (
            &refusing.url,
            "es",
            "la autoridad de sellado de tiempo no dio un sello",
        ),
    ] {
        let o = issue(&r, &p12, &path, url, lang);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("--tsa {url}")), "{err}");
        assert!(err.contains(said), "{err}");
        if lang == "en" {
            assert!(err.contains("nothing was issued"), "{err}");
        } else {
            assert!(err.contains("no se emitió nada"), "{err}");
        }
        assert!(!path.exists(), "no notice file is written");
    }
    // the register has no notice: the breach still awaits one
    let list = r.ok(&["notice", "list"]);
    assert!(!list.contains("MULTA-2025-0001"), "{list}");
    // an https address is refused before anything is asked
    let o = issue(&r, &p12, &path, "https://tsa.example.co/tsa", "en");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("http:// only"));
}

/// The timestamp token (its DER) in the first signature's CMS of `pdf`.
fn token_of(pdf: &[u8]) -> Vec<u8> {
    use der::{Decode, Encode};
    let start = pdf.windows(10).position(|w| w == b"/Contents<").unwrap() + 10;
    let len = pdf[start..].iter().position(|&b| b == b'>').unwrap();
    let hex = std::str::from_utf8(&pdf[start..start + len]).unwrap();
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let mut reader = der::SliceReader::new(&bytes).unwrap();
    let info = cms::content_info::ContentInfo::decode(&mut reader).unwrap();
    let signed = info
        .content
        .decode_as::<cms::signed_data::SignedData>()
        .unwrap();
    let stamp_oid = der::asn1::ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.14");
    let si = signed.signer_infos.0.iter().next().unwrap();
    let attr = si
        .unsigned_attrs
        .as_ref()
        .unwrap()
        .iter()
        .find(|a| a.oid == stamp_oid)
        .unwrap();
    attr.values.iter().next().unwrap().to_der().unwrap()
}

fn upper_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

#[test]
fn a_timestamp_token_of_another_signature_put_in_this_one_is_refused_by_verify() {
    let r = spec_register();
    let pki = pki((2025, 2090));
    let tsa = tsa_server::start(Mode::Grant);
    let url = TsaUrl::parse(&tsa.url).unwrap();
    let unsigned = notice_pdf(&r);
    let signer = sign::Signer::from_pkcs12(&pki.p12, PASSWORD).unwrap();
    let sign_at = |rfc3339: &str| {
        sign::sign_pdf(
            &unsigned,
            &signer,
            &Details {
                reason: "Notificación de multa MULTA-2025-0001",
                location: "Bogotá D.C., Colombia",
                time: chrono::DateTime::parse_from_rfc3339(rfc3339).unwrap(),
                signatory: None,
                tsa: Some(&url),
            },
        )
        .unwrap()
    };
    // two signatures of the same notice at different claimed times: different signature values,
    // each stamped by the authority
    let first = sign_at("2025-02-11T09:30:00-05:00");
    let second = sign_at("2025-02-11T10:45:00-05:00");
    let mut trusted = sign::read_certificates(pki.root_pem.as_bytes()).unwrap();
    trusted.extend(sign::read_certificates(tsa.root_pem.as_bytes()).unwrap());
    for pdf in [&first, &second] {
        let v = &sign::verify_pdf(pdf, &trusted).unwrap()[0];
        assert!(v.is_valid(), "{v:?}");
    }
    // the first signature's token moved into the second (an unsigned attribute, outside what the
    // signature covers): a genuine token, by a trusted authority, over another signature
    let (moved, own) = (token_of(&first), token_of(&second));
    assert_ne!(moved, own);
    assert_eq!(moved.len(), own.len(), "the tokens are alike in size");
    let (moved, own) = (upper_hex(&moved), upper_hex(&own));
    let text = String::from_utf8_lossy(&second).into_owned();
    assert_eq!(text.matches(&own).count(), 1);
    let at = second
        .windows(own.len())
        .position(|w| w == own.as_bytes())
        .unwrap();
    let mut forged = second.clone();
    forged[at..at + moved.len()].copy_from_slice(moved.as_bytes());
    assert_eq!(token_of(&forged), token_of(&first));

    let v = &sign::verify_pdf(&forged, &trusted).unwrap()[0];
    // the signature itself still holds: only the timestamp is not this signature's
    assert_eq!((&v.intact, &v.signature), (&Check::Ok, &Check::Ok));
    let stamp = v.stamp.as_ref().unwrap();
    assert_eq!(
        stamp.token,
        Check::Failed(vigia::sign::Failure::StampOverAnotherSignature)
    );
    assert_eq!(stamp.proven_time(), None, "its time proves nothing here");
    assert!(!v.is_valid());
    // and `notice verify` says so, exit 1, in Spanish with a Spanish reason
    let path = r.file("sello-movido.pdf", &forged);
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir_all(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    std::fs::write(trust.join("raiz-tsa.pem"), &tsa.root_pem).unwrap();
    let o = r.run(&[
        "--lang",
        "es",
        "notice",
        "verify",
        &path,
        "--trust",
        trust.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", crate::common::out(&o));
    let out = crate::common::out(&o);
    assert!(
        out.contains("    token del sello: NO VÁLIDO: el sello de tiempo es de otra firma\n"),
        "{out}"
    );
}
