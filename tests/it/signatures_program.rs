//! A program's signature rules (issue 26, `[signatures]`): a program that issues its notices and
//! paz y salvo certificates only signed refuses an unsigned `notice issue` / `settlement issue`
//! (exit 2, nothing written), and verify says whether the signer is one of the program's
//! authorised signatories, a signer who is not one being a finding (exit 1).

use crate::common::{self, Reg};
use crate::notices::spec_register_in;
use crate::signatures::{pki, pki_with_id};
use std::process::Output;

fn with_password(r: &Reg, args: &[&str]) -> Output {
    r.command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester"])
        .args(args)
        .env("VIGIA_SIGN_PASSWORD", "clave de prueba")
        .output()
        .unwrap()
}

const NOTICE: [&str; 9] = [
    "notice",
    "issue",
    "1",
    "--until",
    "2025-02-10",
    "--date",
    "2025-02-11",
    "--reason",
    "fecha del caso de prueba",
];

#[test]
fn a_program_that_requires_signatures_refuses_unsigned_documents_and_names_its_signatories() {
    let r = spec_register_in(Reg::with_program_tail(
        "\n[signatures]\nrequired_for = [\"notices\", \"settlements\"]\n\
         signatories = [\"LAURA GOMEZ RESTREPO\"]\n",
    ));
    let before = r.dump();
    let mut args = NOTICE.to_vec();
    args.extend(["--out", "n.pdf"]);
    let e = r.fails(&args);
    assert!(
        e.contains("program D3939-2004 issues its notices only signed")
            && e.contains("nothing was issued")
            && e.contains("--sign CERT.p12"),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing stored");
    assert!(!r.dir.path().join("n.pdf").exists(), "nothing written");
    // the batch is refused as a whole before its directory is made
    let e = r.fails(&[
        "notice",
        "issue",
        "--pending",
        "--until",
        "2025-02-10",
        "--out",
        "lote",
    ]);
    assert!(e.contains("only signed"), "{e}");
    assert!(!r.dir.path().join("lote").exists());

    let pki = pki((2024, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    args.extend(["--sign", &p12]);
    let o = with_password(&r, &args);
    assert!(o.status.success(), "{}", common::err(&o));
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    let t = trust.to_str().unwrap();
    let out = r.ok(&["notice", "verify", "n.pdf", "--trust", t]);
    assert!(
        out.contains("signatory: one of the program's authorised signatories"),
        "{out}"
    );

    // the paz y salvo, too
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2025-02-12",
        "--amount",
        "700000",
    ]);
    let before = r.dump();
    let e = r.fails(&["settlement", "issue", "1", "--date", "2025-02-12"]);
    assert!(
        e.contains("issues its paz y salvo certificates only signed"),
        "{e}"
    );
    assert!(e.contains("vigia settlement issue"), "{e}");
    assert_eq!(r.dump(), before);
}

#[test]
fn a_signer_who_is_not_an_authorised_signatory_is_a_finding_of_verify() {
    let r = spec_register_in(Reg::with_program_tail(
        "\n[signatures]\nsignatories = [\"Ana Ruiz Prieto\"]\n",
    ));
    let pki = pki((2024, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    // signing is not required here: an unsigned notice is issued
    let mut args = NOTICE.to_vec();
    args.extend(["--out", "n.pdf", "--sign", &p12]);
    let o = with_password(&r, &args);
    assert!(o.status.success(), "{}", common::err(&o));
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    let o = r.run(&[
        "notice",
        "verify",
        "n.pdf",
        "--trust",
        trust.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let out = common::out(&o);
    assert!(
        out.contains("certificate chain: reaches a certificate of --trust"),
        "{out}"
    );
    assert!(
        out.contains(
            "signatory: FAILED: Laura Gómez Restrepo is not one of the program's authorised signatories (Ana Ruiz Prieto)"
        ),
        "{out}"
    );
}

/// `notice verify --trust`'s output for a notice signed by Laura Gómez Restrepo (certificate
/// serialNumber `id`) under a program whose `[signatures]` is `signatures`.
fn verified_under(signatures: &str, id: Option<&str>) -> (Option<i32>, String) {
    let r = spec_register_in(Reg::with_program_tail(&format!(
        "\n[signatures]\n{signatures}\n"
    )));
    let pki = pki_with_id((2024, 2090), id);
    let p12 = r.file("firma.p12", &pki.p12);
    let mut args = NOTICE.to_vec();
    args.extend(["--out", "n.pdf", "--sign", &p12]);
    let o = with_password(&r, &args);
    assert!(o.status.success(), "{}", common::err(&o));
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    let o = r.run(&[
        "notice",
        "verify",
        "n.pdf",
        "--trust",
        trust.to_str().unwrap(),
    ]);
    (o.status.code(), common::out(&o))
}

#[test]
fn a_signatory_with_an_id_is_matched_by_the_certificates_serial_number() {
    // the cédula in the certificate is the one listed: authorised, though the listed name differs
    let (code, out) = verified_under(
        "signatories = [{ name = \"Laura Gómez R.\", id = \"52.123.456\" }]",
        Some("52123456"),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("signatory: one of the program's authorised signatories"),
        "{out}"
    );
    // another cédula under the very name listed: not her
    let (code, out) = verified_under(
        "signatories = [{ name = \"Laura Gómez Restrepo\", id = \"52123456\" }]",
        Some("79000111"),
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "signatory: FAILED: Laura Gómez Restrepo (79000111) is not one of the program's \
             authorised signatories (Laura Gómez Restrepo (52123456))"
        ),
        "{out}"
    );
    // a certificate with no serialNumber cannot be a signatory listed by id
    let (code, out) = verified_under(
        "signatories = [{ name = \"Laura Gómez Restrepo\", id = \"52123456\" }]",
        None,
    );
    assert_eq!(code, Some(1), "{out}");
    // listed by name only: the common name decides, whatever the serialNumber
    let (code, out) = verified_under("signatories = [\"LAURA GOMEZ RESTREPO\"]", Some("1"));
    assert_eq!(code, Some(0), "{out}");
}

/// The visible block of `pdf`'s signature: its appearance stream's text.
fn block_text(pdf: &[u8]) -> Vec<u8> {
    let start = pdf
        .windows(25)
        .position(|w| w == b"(Firmado digitalmente por")
        .expect("a visible block");
    let end = start + pdf[start..].windows(2).position(|w| w == b"ET").unwrap();
    pdf[start..end].to_vec()
}

#[test]
fn the_visible_block_names_the_signatorys_certificate_id_after_the_cargo() {
    let r = crate::notices::spec_register();
    let unsigned = crate::signatures::notice_pdf(&r);
    let sign = |pki: &crate::signatures::Pki| {
        let signer =
            vigia::sign::Signer::from_pkcs12(&pki.p12, crate::signatures::PASSWORD).unwrap();
        vigia::sign::sign_pdf(
            &unsigned,
            &signer,
            &vigia::sign::Details {
                reason: "Notificación de multa MULTA-2025-0001",
                location: "Colombia",
                time: chrono::DateTime::parse_from_rfc3339("2025-02-11T09:30:00-05:00").unwrap(),
                signatory: Some(("Laura Gómez Restrepo", "Jefe de la Oficina Jurídica")),
                tsa: None,
            },
        )
        .unwrap()
    };
    // WinAnsi: ó is 0xF3, í 0xED, the middle dot 0xB7
    let with_id = block_text(&sign(&pki_with_id((2025, 2090), Some("CC 52123456"))));
    assert!(
        with_id
            .windows(43)
            .any(|w| w == b"(Jefe de la Oficina Jur\xeddica \xb7 CC 52123456)".as_slice()),
        "{}",
        String::from_utf8_lossy(&with_id)
    );
    let without = block_text(&sign(&pki((2025, 2090))));
    assert!(
        without
            .windows(29)
            .any(|w| w == b"(Jefe de la Oficina Jur\xeddica)".as_slice()),
        "{}",
        String::from_utf8_lossy(&without)
    );
    assert!(!without.contains(&0xb7));
}
