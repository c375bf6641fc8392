//! PAdES signatures (issue 26) on a paz y salvo and on the actas (`settlement issue`,
//! `offer adjudicate --acta`, `stage adjudicate --acta`, `stage acta` with `--sign`), checked by
//! the two validators that share no code with vigia (poppler's `pdfsig`, pyHanko) and by vigia's
//! own verifications with `--trust`; one byte changed after signing fails all three.

use crate::common::{self, Reg};
use crate::signatures::{pdfsig, pki, pyhanko};
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::process::Output;

const PASSWORD: &str = "clave de prueba";

/// The signer's PKCS#12 and a trust directory holding the test root.
fn keys(r: &Reg) -> (String, PathBuf, String) {
    let pki = pki((2024, 2090));
    let p12 = r.file("firma.p12", &pki.p12);
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    (p12, trust, pki.root_pem)
}

/// Runs with the register and the key file's password in `VIGIA_SIGN_PASSWORD`.
fn with_password(r: &Reg, args: &[&str]) -> Output {
    r.command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester"])
        .args(args)
        .env("VIGIA_SIGN_PASSWORD", PASSWORD)
        .output()
        .unwrap()
}

/// `offer adjudicate EBSA-TEST` on 2024-03-20 with its PDF acta `acta.pdf` signed with `p12`:
/// the acta's path and the run's output, which succeeded.
fn adjudicate_signed(r: &Reg, p12: &str) -> (PathBuf, Output) {
    let path = r.dir.path().join("acta.pdf");
    let o = with_password(
        r,
        &[
            "offer",
            "adjudicate",
            "EBSA-TEST",
            "--on",
            "2024-03-20",
            "--acta",
            path.to_str().unwrap(),
            "--sign",
            p12,
        ],
    );
    assert!(o.status.success(), "{}", common::err(&o));
    (path, o)
}

/// Both validators accept the file: valid, the whole file signed, trusted.
fn validators_accept(path: &Path, root_pem: &str) {
    let report = pdfsig(path);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    assert!(report.contains("Laura Gómez Restrepo"), "{report}");
    let (ok, report) = pyhanko(path, root_pem);
    assert!(ok, "{report}");
    assert!(
        report.contains("SUMMARY INTACT VALID TRUSTED ENTIRE_FILE"),
        "{report}"
    );
}

/// Changes one signed byte that no reader of the text depends on: the minor version of the
/// header (`%PDF-1.3` becomes `%PDF-1.2`). Both validators then refuse the signature.
fn tamper(path: &Path, root_pem: &str) {
    let mut bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"%PDF-1.3");
    bytes[7] = b'2';
    std::fs::write(path, &bytes).unwrap();
    let report = pdfsig(path);
    assert!(!report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Digest Mismatch"), "{report}");
    let (ok, report) = pyhanko(path, root_pem);
    assert!(!ok, "{report}");
    assert!(report.contains("SUMMARY NOT-INTACT"), "{report}");
}

#[test]
fn a_signed_paz_y_salvo_passes_both_validators_and_settlement_verify_and_a_changed_byte_fails_all()
{
    let r = crate::notices::spec_register();
    let (p12, trust, root) = keys(&r);
    crate::notices::pay_in_full(&r);
    let path = r.dir.path().join("paz.pdf");
    let p = path.to_str().unwrap();
    let o = with_password(
        &r,
        &[
            "settlement",
            "issue",
            "1",
            "--date",
            "2025-02-11",
            "--out",
            p,
            "--sign",
            &p12,
        ],
    );
    assert!(o.status.success(), "{}", common::err(&o));
    validators_accept(&path, &root);
    // the visible block: the widget has a place on the page and an appearance naming the
    // letterhead's signatory and cargo (the test's letterhead: Firmante de Prueba, Representante
    // legal), in the signature's own revision
    let bytes = std::fs::read(&path).unwrap();
    let update = &bytes[crate::signatures::unsigned_len(&bytes)..];
    let has = |needle: &[u8]| update.windows(needle.len()).any(|w| w == needle);
    assert!(has(b"/Rect[350 736 550 774]/AP<</N "));
    assert!(has(b"(Firmado digitalmente por)"));
    assert!(has(b"(Firmante de Prueba)") && has(b"(Representante legal)"));
    let t = trust.to_str().unwrap();
    let out = r.ok(&["settlement", "verify", p, "--trust", t]);
    assert!(out.contains("file: identical to the issued file"), "{out}");
    assert!(out.contains("signature by Laura Gómez Restrepo"), "{out}");
    assert!(out.contains("reason: Paz y salvo PAZ-2025-0001"), "{out}");
    assert!(
        out.contains("certificate chain: reaches a certificate of --trust"),
        "{out}"
    );

    tamper(&path, &root);
    let o = r.run(&["settlement", "verify", p, "--trust", t]);
    assert_eq!(o.status.code(), Some(1), "{}", common::out(&o));
    let out = common::out(&o);
    assert!(out.contains("signed bytes: FAILED"), "{out}");
}

#[test]
fn a_signed_first_stage_acta_passes_both_validators_and_offer_verify_and_a_changed_byte_fails_all()
{
    let r = crate::offering::offer("floor-leftover-to-smallest");
    let (p12, trust, root) = keys(&r);
    // a signature needs a PDF: an acta in Markdown is refused before anything is adjudicated
    let before = r.dump();
    let o = with_password(
        &r,
        &[
            "offer",
            "adjudicate",
            "EBSA-TEST",
            "--on",
            "2024-03-20",
            "--acta",
            "acta.md",
            "--sign",
            &p12,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", common::out(&o));
    let e = common::err(&o);
    assert!(e.contains("--sign") && e.contains("--acta FILE.pdf"), "{e}");
    assert_eq!(r.dump(), before, "nothing was stored");
    assert!(!r.dir.path().join("acta.md").exists());

    let (path, o) = adjudicate_signed(&r, &p12);
    let p = path.to_str().unwrap();
    assert!(common::out(&o).contains("acta -> "));
    validators_accept(&path, &root);
    let t = trust.to_str().unwrap();
    let out = r.ok(&["offer", "verify", p, "--trust", t]);
    assert!(
        out.starts_with("verified: acta of adjudication 1 of EBSA-TEST"),
        "{out}"
    );
    // the file recorded is the signed one (its SHA-256 taken after signing)
    let signed = std::fs::read(&path).unwrap();
    let sha: String = sha2::Sha256::digest(&signed)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        out.contains(&format!(
            "file: identical to the issued file (SHA-256 {sha}, pdf of "
        )),
        "{out}"
    );
    assert!(out.contains("signature by Laura Gómez Restrepo"), "{out}");
    assert!(
        out.contains("reason: Acta de adjudicación EBSA-TEST"),
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
    // without --trust the chain is said to be unchecked, and that alone is no finding
    let out = r.ok(&["offer", "verify", p]);
    assert!(out.contains("certificate chain: not checked"), "{out}");

    // the text is still the register's; the signature is what catches the changed byte
    tamper(&path, &root);
    let o = r.run(&["offer", "verify", p, "--trust", t]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let out = common::out(&o);
    // its file is none vigia wrote: said first, the text's match after it
    assert!(
        out.starts_with(
            "NOT VERIFIED: the text matches the register, but the file is not the one issued\n\
             text: acta of adjudication 1"
        ),
        "{out}"
    );
    assert!(out.contains("signed bytes: FAILED"), "{out}");
    assert!(
        out.contains("the file is none of those vigia wrote"),
        "{out}"
    );
}

#[test]
fn a_signed_stage_acta_passes_both_validators_and_stage_verify_and_a_changed_byte_fails_all() {
    let r = crate::stages::second_stage();
    let (p12, trust, root) = keys(&r);
    crate::stages::import(
        &r,
        "2",
        &[
            crate::stages::line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            crate::stages::line("B", "NIT:800191045-1:Dos (PRUEBA)", "1250", 365),
        ],
    );
    let o = with_password(
        &r,
        &crate::stages::adjudicate_second(&["--acta", "acta.pdf", "--sign", &p12]),
    );
    assert!(o.status.success(), "{}", common::err(&o));
    let path = r.dir.path().join("acta.pdf");
    validators_accept(&path, &root);
    let t = trust.to_str().unwrap();
    let out = r.ok(&["stage", "verify", "acta.pdf", "--trust", t]);
    assert!(
        out.starts_with("verified: acta of stage 2 of D3939-2004"),
        "{out}"
    );
    assert!(
        out.contains("reason: Acta de la Segunda Etapa D3939-2004"),
        "{out}"
    );
    assert!(
        out.contains("certificate chain: reaches a certificate of --trust"),
        "{out}"
    );
    // written again by `stage acta --sign`: signed as well
    let o = with_password(
        &r,
        &[
            "stage",
            "acta",
            "D3939-2004",
            "--stage",
            "2",
            "--out",
            "again.pdf",
            "--sign",
            &p12,
        ],
    );
    assert!(o.status.success(), "{}", common::err(&o));
    validators_accept(&r.dir.path().join("again.pdf"), &root);

    tamper(&path, &root);
    let o = r.run(&["stage", "verify", "acta.pdf", "--trust", t]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    assert!(common::out(&o).contains("signed bytes: FAILED"));
}

/// What two verifications of the same signatures found, side by side: the named results.
fn results(all: &[vigia::sign::Verification]) -> Vec<String> {
    all.iter()
        .map(|v| {
            format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                v.signer,
                v.reason,
                v.signed_at,
                v.intact,
                v.whole_file,
                v.signature,
                v.trusted,
                v.valid_at_signing
            )
        })
        .collect()
}

#[test]
fn a_signed_acta_of_many_pages_verified_from_its_file_a_small_chunk_at_a_time_finds_what_the_whole_file_gives()
 {
    use vigia::report::acta_file::ActaFile;
    // 5,000 acceptances: an acta of hundreds of pages, read back 4 KiB at a time
    let program = std::fs::read_to_string(crate::offering_scale::TEST_PROGRAM).unwrap();
    let r = crate::offering::opened(&program);
    let csv = r.file(
        "acc.csv",
        crate::offering_scale::acceptances(5_000).as_bytes(),
    );
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    let (p12, _, root) = keys(&r);
    let (path, _) = adjudicate_signed(&r, &p12);
    validators_accept(&path, &root);
    let trusted = vigia::sign::read_certificates(root.as_bytes()).unwrap();
    let chunk = 4096;
    let check = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        assert!(bytes.len() > 100 * chunk, "{} bytes", bytes.len());
        let whole = vigia::sign::verify_pdf(&bytes, &trusted).unwrap();
        let acta = ActaFile::open(path, chunk).unwrap();
        assert!(acta.is_signed());
        let streamed = acta.verify_signatures(&trusted).unwrap();
        assert_eq!(results(&streamed), results(&whole));
        streamed
    };
    let v = check(&path);
    assert_eq!(v.len(), 1);
    assert!(v[0].is_valid(), "{:?}", results(&v));
    assert_eq!(v[0].signer.as_deref(), Some("Laura Gómez Restrepo"));

    // a byte changed far inside the signed bytes (a page's compressed content): not intact
    let mut bytes = std::fs::read(&path).unwrap();
    let stream = bytes[bytes.len() / 2..]
        .windows(7)
        .position(|w| w == b"stream\n")
        .unwrap();
    let at = bytes.len() / 2 + stream + 7 + 10;
    bytes[at] ^= 0x01;
    let changed = r.dir.path().join("changed.pdf");
    std::fs::write(&changed, &bytes).unwrap();
    let v = check(&changed);
    assert!(
        matches!(v[0].intact, vigia::sign::Check::Failed(_)),
        "{:?}",
        results(&v)
    );
    assert!(v[0].whole_file.is_ok());

    // bytes appended after the signature: the signature no longer covers the whole file
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(b"\n% appended\n");
    let appended = r.dir.path().join("appended.pdf");
    std::fs::write(&appended, &bytes).unwrap();
    let v = check(&appended);
    assert_eq!(
        v[0].whole_file,
        vigia::sign::Check::Failed(vigia::sign::Failure::Appended(12))
    );
    assert!(v[0].intact.is_ok());
}
