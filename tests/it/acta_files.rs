//! Every acta file vigia writes is recorded by its SHA-256 (`acta_files`), and `offer verify`,
//! `stage verify` and the web's acta verification say, after the text's verdict, whether the
//! file is one vigia wrote: a PDF whose bytes were changed where its text is not (an embedded
//! font's data) keeps its text but is refused (exit 1).

use crate::common::{Reg, out};
use crate::web::{Client, PASSWORD, Server, add_user};
use sha2::{Digest, Sha256};

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `pdf` with 200 bytes overwritten by '0' in the middle of its longest stream (a font's data:
/// the text is read through the fonts' maps, never their glyphs).
fn damaged(pdf: &[u8]) -> Vec<u8> {
    let find = |from: usize, what: &[u8]| {
        pdf[from..]
            .windows(what.len())
            .position(|w| w == what)
            .map(|p| p + from)
    };
    let (mut at, mut longest) = (0, (0, 0));
    while let Some(start) = find(at, b"stream\n").or_else(|| find(at, b"stream\r\n")) {
        let Some(end) = find(start, b"endstream") else {
            break;
        };
        if end - start > longest.1 - longest.0 {
            longest = (start, end);
        }
        at = end + 9;
    }
    assert!(longest.1 - longest.0 > 1000, "a long stream: {longest:?}");
    let mut out = pdf.to_vec();
    let mid = (longest.0 + longest.1) / 2;
    out[mid..mid + 200].fill(b'0');
    assert_ne!(out, pdf);
    out
}

/// The Second Stage adjudicated to its one proposal, its acta written with it (`etapa.pdf`).
fn second_stage_adjudicated() -> Reg {
    use crate::stages::{adjudicate_second, import, line, second_stage};
    let r = second_stage();
    import(
        &r,
        "2",
        &[line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0)],
    );
    r.ok(&adjudicate_second(&["--acta", "etapa.pdf"]));
    r
}

const TEXT_OK: &str = "verified: acta of adjudication 1 of EBSA-TEST";
const CHANGED_EN: &str =
    "the file is none of those vigia wrote: the text matches, but its bytes changed (SHA-256 ";
const CHANGED_ES: &str = "el archivo no es ninguno de los que vigia escribió: el texto coincide, pero sus bytes cambiaron (SHA-256 ";
const HEADLINE_EN: &str =
    "NOT VERIFIED: the text matches the register, but the file is not the one issued";
const HEADLINE_ES: &str =
    "NO VERIFICADA: el texto coincide con el registro, pero el archivo no es el emitido";

/// The lines of a tampered acta's verification: the headline first (never «verified»), then the
/// text's details (`text`), then the file's finding ending in the file's SHA-256.
fn tampered_lines(said: &str, headline: &str, text: &str, changed: &str, sha: &str) {
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines[0], headline, "{said}");
    assert!(lines[1].starts_with(text), "{said}");
    assert_eq!(lines[2], format!("{changed}{sha})"), "{said}");
    assert!(
        !said.contains("verified:") && !said.contains("verificada:"),
        "{said}"
    );
}

#[test]
fn a_first_stage_acta_whose_bytes_changed_is_refused_on_the_command_line_and_the_web() {
    let r = crate::offering::offer("floor-leftover-to-smallest");
    r.ok(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        "acta.pdf",
    ]);
    let pdf = std::fs::read(r.dir.path().join("acta.pdf")).unwrap();
    // untouched: its text, then its file, the one written with the run
    let o = r.ok(&["offer", "verify", "acta.pdf"]);
    let lines: Vec<&str> = o.lines().collect();
    assert!(lines[0].starts_with(TEXT_OK), "{o}");
    let issued = format!(
        "file: identical to the issued file (SHA-256 {}, pdf of ",
        sha(&pdf)
    );
    assert!(lines[1].starts_with(&issued), "{o}");
    let o = r.ok(&["--lang", "es", "offer", "verify", "acta.pdf"]);
    let issued_es = format!(
        "archivo: idéntico al emitido (SHA-256 {}, pdf del ",
        sha(&pdf)
    );
    assert!(o.lines().nth(1).unwrap().starts_with(&issued_es), "{o}");
    // 200 bytes overwritten: the text still verifies, the file does not (exit 1)
    let bad = damaged(&pdf);
    let f = r.file("dañada.pdf", &bad);
    let o = r.run(&["offer", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    // the first line says so: never «verified» of a file vigia did not write
    tampered_lines(
        &out(&o),
        HEADLINE_EN,
        "text: acta of adjudication 1 of EBSA-TEST",
        CHANGED_EN,
        &sha(&bad),
    );
    let o = r.run(&["--lang", "es", "offer", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    tampered_lines(
        &out(&o),
        HEADLINE_ES,
        "texto: acta de la adjudicación N.º 1 de EBSA-TEST",
        CHANGED_ES,
        &sha(&bad),
    );
    // written again: identical to that file, by whom
    r.ok(&["offer", "acta", "EBSA-TEST", "--out", "again.md"]);
    let o = r.ok(&["offer", "verify", "again.md"]);
    let again = std::fs::read(r.dir.path().join("again.md")).unwrap();
    let line = o.lines().nth(1).unwrap();
    assert!(
        line.starts_with("file: identical to the file rendered again on ")
            && line.ends_with(&format!(" by tester (md, SHA-256 {})", sha(&again))),
        "{o}"
    );
    // the web: the same two files, and an acta downloaded from it, recorded under its user
    add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let verify = "/programas/EBSA-TEST/oferta/verificar";
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.pdf", &pdf))
        .text();
    assert!(
        t.contains("class=\"resultado verificada\"")
            && t.contains(&format!(
                "Archivo: idéntico al emitido (SHA-256 {}, pdf del ",
                sha(&pdf)
            )),
        "{t}"
    );
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("dañada.pdf", &bad))
        .text();
    assert!(
        t.contains("<strong>NO VERIFICADA: el texto coincide con el registro, pero el archivo no es el emitido.</strong> El texto del acta coincide con la adjudicación N.º 1")
            && !t.contains("No coincide")
            && t.contains(&format!(
                "El archivo no es ninguno de los que vigia escribió: el texto coincide, pero sus bytes cambiaron (SHA-256 {}).",
                sha(&bad)
            )),
        "{t}"
    );
    let got = c.get("/programas/EBSA-TEST/oferta/acta.html");
    assert_eq!(got.status, 200);
    let f = r.file("descargada.html", &got.body);
    let o = r.ok(&["offer", "verify", &f]);
    assert!(
        o.lines()
            .nth(1)
            .unwrap()
            .ends_with(&format!(" by carla (html, SHA-256 {})", sha(&got.body))),
        "{o}"
    );
}

#[test]
fn a_later_stage_acta_whose_bytes_changed_is_refused_on_the_command_line_and_the_web() {
    let r = second_stage_adjudicated();
    let pdf = std::fs::read(r.dir.path().join("etapa.pdf")).unwrap();
    let o = r.ok(&["stage", "verify", "etapa.pdf"]);
    let lines: Vec<&str> = o.lines().collect();
    assert!(
        lines[0].starts_with("verified: acta of stage 2 of D3939-2004"),
        "{o}"
    );
    let issued = format!(
        "file: identical to the issued file (SHA-256 {}, pdf of ",
        sha(&pdf)
    );
    assert!(lines[1].starts_with(&issued), "{o}");
    let bad = damaged(&pdf);
    let f = r.file("dañada.pdf", &bad);
    let o = r.run(&["--lang", "es", "stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    tampered_lines(
        &out(&o),
        HEADLINE_ES,
        "texto: acta de la Segunda Etapa de D3939-2004 (conclusión N.º 1, ",
        CHANGED_ES,
        &sha(&bad),
    );
    let o = r.run(&["stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    tampered_lines(
        &out(&o),
        HEADLINE_EN,
        "text: acta of stage 2 of D3939-2004 (conclusion 1, ",
        CHANGED_EN,
        &sha(&bad),
    );
    // written again in another format: identical to that file
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "e.md",
    ]);
    let o = r.ok(&["stage", "verify", "e.md"]);
    assert!(
        o.contains("file: identical to the file rendered again on "),
        "{o}"
    );
    // the web's verification on the stage's page
    add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let verify = "/programas/D3939-2004/etapas/2/verificar";
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("etapa.pdf", &pdf))
        .text();
    assert!(
        t.contains("class=\"resultado verificada\"") && t.contains("Archivo: idéntico al emitido"),
        "{t}"
    );
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("dañada.pdf", &bad))
        .text();
    assert!(
        t.contains("<strong>NO VERIFICADA: el texto coincide con el registro, pero el archivo no es el emitido.</strong> El texto del acta coincide con la conclusión N.º 1")
            && !t.contains("NO está verificada") && t.contains(&format!(
            "El archivo no es ninguno de los que vigia escribió: el texto coincide, pero sus bytes cambiaron (SHA-256 {}).",
            sha(&bad)
        )),
        "{t}"
    );
}
