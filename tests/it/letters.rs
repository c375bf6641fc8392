//! Issue 14, notices that are complete letters, one test per point: a stored notice rendered
//! again in any format under its own number; a settled fine gets a paz y salvo, never a payment
//! demand; `notice verify` compares bytes and names the notice that replaced one; the delivery
//! of a notice and the term that runs from it; the letter's content from the program and the
//! holder's contact versions; the layout of every page of a set of notices.

use crate::common::{self, Reg};
use crate::notices::{chain_head_checked_as, spec_register};

fn path(r: &Reg, name: &str) -> String {
    r.dir.path().join(name).display().to_string()
}

fn issue(r: &Reg, breach: &str, until: &str, date: &str, format: &str, name: &str) -> String {
    r.ok(&[
        "notice",
        "issue",
        breach,
        "--until",
        until,
        "--date",
        date,
        "--format",
        format,
        "--out",
        &path(r, name),
    ])
}

/// Point 1: `notice render` writes the same notice (number, date, figures, fingerprint) in
/// another format, as often as needed; only `notice issue` uses a number.
#[test]
fn render_writes_the_same_notice_in_another_format_without_a_number() {
    let r = spec_register();
    issue(&r, "1", "2025-02-10", "2025-02-11", "pdf", "n.pdf");
    let md_issued = {
        let o = r.ok(&[
            "notice",
            "render",
            "MULTA-2025-0001",
            "--format",
            "md",
            "--out",
            &path(&r, "n.md"),
        ]);
        assert!(o.contains("MULTA-2025-0001 rendered again as md"), "{o}");
        std::fs::read_to_string(r.dir.path().join("n.md")).unwrap()
    };
    r.ok(&[
        "notice",
        "render",
        "MULTA-2025-0001",
        "--format",
        "html",
        "--out",
        &path(&r, "n.html"),
    ]);
    // twice in the same format: the same bytes
    r.ok(&[
        "notice",
        "render",
        "MULTA-2025-0001",
        "--format",
        "md",
        "--out",
        &path(&r, "again.md"),
    ]);
    assert_eq!(
        md_issued,
        std::fs::read_to_string(r.dir.path().join("again.md")).unwrap()
    );
    assert!(md_issued.contains("NOTIFICACIÓN DE MULTA No. MULTA-2025-0001"));
    assert!(!md_issued.contains("reemplaza"), "{md_issued}");
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list.as_array().unwrap().len(), 1, "no number was used");
    for name in ["n.pdf", "n.md", "n.html"] {
        let o = r.ok(&["notice", "verify", &path(&r, name)]);
        assert!(
            o.contains("document text and figures: match")
                && o.contains("file: identical to the")
                && o.contains("in force"),
            "{name}: {o}"
        );
    }
    assert!(
        r.ok(&["notice", "verify", &path(&r, "n.pdf")])
            .contains("file: identical to the issued file")
    );
    // an unknown number is refused, naming it
    let e = r.fails(&["notice", "render", "MULTA-2025-0009", "--format", "md"]);
    assert!(
        e.contains("NUMBER MULTA-2025-0009: no notice has this number"),
        "{e}"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// Point 2: a fine with nothing outstanding gets no payment demand (refused, pointing to the
/// certificate; `--pending` skips it) but a paz y salvo, numbered, with every payment and its
/// imputation, verifiable like a notice, carrying the audit chain's head.
#[test]
fn a_settled_fine_gets_a_paz_y_salvo_and_never_a_payment_demand() {
    let r = spec_register();
    // not yet paid in full: no certificate
    let e = r.fails(&["settlement", "issue", "1", "--date", "2025-02-11"]);
    assert!(e.contains("is still outstanding"), "{e}");
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2025-02-10",
        "--amount",
        "626823",
    ]);
    let e = r.fails(&["notice", "issue", "1", "--until", "2025-02-20"]);
    assert!(
        e.contains("breach 1: nothing is outstanding on its fine as of 2025-02-20")
            && e.contains("vigia settlement issue BREACH"),
        "{e}"
    );
    // the batch skips it
    let o = r.ok(&[
        "notice",
        "issue",
        "--pending",
        "--until",
        "2025-02-20",
        "--out",
        &path(&r, "batch"),
    ]);
    assert!(o.starts_with("0 notice(s) issued"), "{o}");
    let o = r.ok(&[
        "settlement",
        "issue",
        "1",
        "--date",
        "2025-02-12",
        "--format",
        "md",
        "--out",
        &path(&r, "paz.md"),
    ]);
    assert!(
        o.contains("paz y salvo PAZ-2025-0001 issued for breach 1")
            && o.contains("2 payment(s) of $ 1.126.823 in all"),
        "{o}"
    );
    let md = std::fs::read_to_string(r.dir.path().join("paz.md")).unwrap();
    for expected in [
        "# PAZ Y SALVO No. PAZ-2025-0001",
        "Programa: D3939-2004 — Decreto 3939 de 2004",
        "| 15/12/2024 | $ 500.000 | $ 17.804 | $ 482.196 | $ 0 |",
        "| 10/02/2025 | $ 626.823 | $ 21.519 | $ 605.304 | $ 0 |",
        "| Saldo | $ 0 |",
        "la obligación quedó extinguida (Código Civil, artículo 1625)",
        // inside the lock-up: the pledge stays until it ends
        "se mantiene hasta el fin del período de restricción de negociabilidad, el 15 de marzo de 2026",
        "interés simple diario",
    ] {
        assert!(md.contains(expected), "missing {expected:?} in\n{md}");
    }
    assert!(!md.contains("TOTAL A PAGAR"), "{md}");
    chain_head_checked_as(&r, &md, ("settlements", "settlement.issue"));
    let o = r.ok(&["notice", "verify", &path(&r, "paz.md")]);
    assert!(
        o.contains("paz y salvo PAZ-2025-0001 of program D3939-2004")
            && o.contains("file: identical to the issued file")
            && o.contains("same figures"),
        "{o}"
    );
    // rendered again in PDF, verified by `settlement verify`
    r.ok(&[
        "notice",
        "render",
        "PAZ-2025-0001",
        "--format",
        "pdf",
        "--out",
        &path(&r, "paz.pdf"),
    ]);
    assert!(
        r.ok(&["settlement", "verify", &path(&r, "paz.pdf")])
            .contains("document text and figures: match")
    );
    // one per breach
    let e = r.fails(&["settlement", "issue", "1", "--date", "2025-02-13"]);
    assert!(
        e.contains("already has its paz y salvo, PAZ-2025-0001"),
        "{e}"
    );
    let e = r.fails(&["notice", "issue", "1", "--until", "2025-02-20"]);
    assert!(
        e.contains("its fine is settled: paz y salvo PAZ-2025-0001"),
        "{e}"
    );
    assert_eq!(
        r.json(&["settlement", "list", "--format", "json"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// Point 6: `notice verify` compares the file's bytes with the ones vigia wrote, and always says
/// when a notice was replaced, and by which.
#[test]
fn verify_compares_the_bytes_and_names_the_notice_that_replaced_one() {
    let r = spec_register();
    issue(&r, "1", "2025-02-10", "2025-02-11", "html", "v.html");
    issue(&r, "1", "2025-02-10", "2025-02-11", "md", "v.md");
    // the text is the same, a byte is not (an extra blank line in the HTML)
    let html = std::fs::read_to_string(r.dir.path().join("v.html")).unwrap();
    std::fs::write(
        r.dir.path().join("v.html"),
        html.replacen("<body>\n", "<body>\n\n", 1),
    )
    .unwrap();
    let o = r.run(&["notice", "verify", &path(&r, "v.html")]);
    assert_eq!(o.status.code(), Some(1));
    let out = common::out(&o);
    assert!(
        out.contains("document text and figures: match")
            && out.contains("file: text and figures match, but the file was changed"),
        "{out}"
    );
    // MULTA-2025-0001 was replaced by MULTA-2025-0002: said, and exit 1
    assert!(
        out.contains(
            "superseded: replaced by notice MULTA-2025-0002 of 2025-02-11; this notice is no longer in force"
        ),
        "{out}"
    );
    let o = r.ok(&["notice", "verify", &path(&r, "v.md")]);
    assert!(
        o.contains("file: identical to the issued file") && o.contains("in force"),
        "{o}"
    );
    // a PDF whose metadata changed (same length, same text): not the file vigia wrote
    issue(&r, "1", "2025-02-10", "2025-02-12", "pdf", "v.pdf");
    let mut bytes = std::fs::read(r.dir.path().join("v.pdf")).unwrap();
    let at = bytes
        .windows(7)
        .position(|w| w == b"(vigia)")
        .expect("the producer in the PDF's metadata");
    bytes[at + 5] = b'b';
    std::fs::write(r.dir.path().join("v.pdf"), &bytes).unwrap();
    let o = r.run(&["notice", "verify", &path(&r, "v.pdf")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::out(&o).contains("text and figures match, but the file was changed"),
        "{}",
        common::out(&o)
    );
}
