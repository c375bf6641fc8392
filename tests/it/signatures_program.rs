//! A program's signature rules (issue 26, `[signatures]`): a program that issues its notices and
//! paz y salvo certificates only signed refuses an unsigned `notice issue` / `settlement issue`
//! (exit 2, nothing written), and verify says whether the signer is one of the program's
//! authorised signatories, a signer who is not one being a finding (exit 1).

use crate::common::{self, Reg};
use crate::notices::spec_register_in;
use crate::signatures::pki;
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
