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
        "--reason",
        "fecha del caso de prueba",
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
    crate::notices::pay_in_full(&r);
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
    assert!(o.trim_end().ends_with("; left out: 1 paid in full"), "{o}");
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
    // the certificate says the fine was paid with these payments: neither can be voided now
    // (voiding one would leave a debt the holder holds a paz y salvo against)
    let before = r.dump();
    let e = r.fails(&["payment", "void", "1", "--reason", "error"]);
    assert!(
        e.contains("breach 1 has the paz y salvo PAZ-2025-0001 of 2025-02-12")
            && e.contains("cannot be taken back"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // and no payment is recorded after it, whatever its date (a review found one accepted,
    // dated before the certificate, which then made the certificate's figures differ)
    for date in ["2024-12-15", "2025-02-13"] {
        let e = r.fails(&[
            "payment", "record", "--breach", "1", "--date", date, "--amount", "1,45",
        ]);
        assert!(
            e.contains(
                "--breach 1: has the paz y salvo PAZ-2025-0001 of 2025-02-12, which certifies its fine \
                 paid in full: no payment is recorded after it"
            ),
            "{e}"
        );
    }
    let o = r.run(&[
        "--lang",
        "es",
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "15/12/2024",
        "--amount",
        "1,45",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        crate::common::err(&o).contains(
            "tiene el paz y salvo PAZ-2025-0001 del 12/02/2025, que certifica su multa pagada por \
             completo: después de él no se registran pagos"
        ),
        "{}",
        crate::common::err(&o)
    );
    assert_eq!(r.dump(), before);
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
    // a file it cannot verify is refused naming the command the officer ran
    std::fs::write(path(&r, "vacio.md"), "").unwrap();
    let e = r.fails(&["settlement", "verify", &path(&r, "vacio.md")]);
    assert!(e.contains("settlement verify "), "{e}");
    assert!(!e.contains("notice verify"), "{e}");
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
    // v.md, genuine, is now replaced by MULTA-2025-0003: authentic but no longer in force, exit 3
    // (neither 0 nor the 1 of a forgery)
    let o = r.run(&["notice", "verify", &path(&r, "v.md")]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        common::out(&o).trim_end().ends_with(
            "The document is authentic (text, figures and fingerprint as vigia issued it), but no \
             longer in force: replaced by notice MULTA-2025-0003 of 2025-02-12."
        ),
        "{}",
        common::out(&o)
    );
    let o = r.run(&["--lang", "es", "notice", "verify", &path(&r, "v.md")]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        common::out(&o).contains(
            "pero ya no está vigente: lo reemplazó el aviso MULTA-2025-0003 del 12/02/2025."
        ),
        "{}",
        common::out(&o)
    );
    let o = r.run(&["notice", "verify", &path(&r, "v.pdf")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::out(&o)
            .trim_end()
            .ends_with("The document does NOT match the register (see the detail)."),
        "{}",
        common::out(&o)
    );
    assert!(
        common::out(&o).contains("text and figures match, but the file was changed"),
        "{}",
        common::out(&o)
    );
    // in Spanish, with the one file vigia wrote of it
    let o = r.run(&["--lang", "es", "notice", "verify", &path(&r, "v.pdf")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::out(&o).contains("no es el del único archivo que vigia escribió de él"),
        "{}",
        common::out(&o)
    );
}

/// The issuer block that ends the test program (the shipped program's `[letters]` section is the
/// last table of the file).
const ISSUER: &str = r#"
[letters.issuer]
entity = "Administradora de la Enajenación S.A.S."
nit = "900123456-8"
address = "Carrera 7 # 71-21"
city = "Bogotá D.C."
bank = "Banco de Prueba"
account = "cuenta corriente No. 000-12345-6"
reference = "{number}-{doc}"
signatory_name = "María Firmante"
signatory_position = "Representante legal"

[[letters.paragraphs]]
heading = "Recursos"
text = "Contra esta notificación procede la reclamación ante los vendedores dentro de los diez días hábiles siguientes a su recibo."
"#;

/// Point 4: the letter's content from data: the issuer's letterhead, the city and date line in
/// words, the holder's address (a versioned, audited correction; a document keeps the version
/// in force when it was recorded), payment instructions with the reference, the signatory, the
/// program's paragraphs; and no doubled punctuation after a name ending in a period.
#[test]
fn the_letter_comes_from_the_program_and_the_holders_contact_versions() {
    let r = Reg::with_program_tail(ISSUER)
        .with_file_letterhead()
        .with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "100",
        "--evidence",
        "contrato de compraventa.",
    ]);
    let e = r.fails(&["holder", "update", "1000000001", "--email", "ana@"]);
    assert!(e.contains("--email ana@: is not an e-mail address"), "{e}");
    r.ok(&[
        "holder",
        "update",
        "1.000.000.001",
        "--address",
        "Calle 10 # 5-20",
        "--city",
        "Medellín",
        "--email",
        "ana@example.co",
    ]);
    issue(&r, "1", "2025-02-10", "2025-02-11", "md", "n.md");
    let md = std::fs::read_to_string(r.dir.path().join("n.md")).unwrap();
    for expected in [
        "Administradora de la Enajenación S.A.S.  \nNIT 900123456-8  \nCarrera 7 \\# 71-21, Bogotá D.C.",
        "Bogotá D.C., 11 de febrero de 2025",
        "Ana Prueba, identificado(a) con CC No. 1000000001. Dirección: Calle 10 \\# 5-20, Medellín. \
         Correo electrónico: ana@example.co.",
        "Forma de pago: consignación o transferencia a cuenta corriente No. 000-12345-6 a nombre de \
         Administradora de la Enajenación S.A.S., en Banco de Prueba, citando la referencia \
         MULTA-2025-0001-1000000001.",
        "## 5. Recursos",
        "Contra esta notificación procede la reclamación",
        "María Firmante  \nRepresentante legal  \nAdministradora de la Enajenación S.A.S.  \n",
        "Soporte: contrato de compraventa.",
        // no pledge registered: an internal finding, not a sentence of the letter (issue 20)
        "El pago de esta multa puede exigirse por las vías legales.",
    ] {
        assert!(md.contains(expected), "missing {expected:?} in\n{md}");
    }
    assert!(!md.contains(".."), "doubled punctuation in\n{md}");
    assert!(!md.contains("garantiza el pago de esta multa"), "{md}");
    assert!(!md.contains("no consta"), "{md}");
    // a correction later: a new version, audited; the issued notice keeps the old address
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Avenida 1 # 2-3",
    ]);
    let history = r.json(&["holder", "show", "1000000001", "--format", "json"]);
    assert_eq!(history.as_array().unwrap().len(), 2);
    assert_eq!(history[1]["city"], "Medellín");
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
        md,
        std::fs::read_to_string(r.dir.path().join("again.md")).unwrap()
    );
    assert!(
        r.ok(&["notice", "verify", &path(&r, "n.md")])
            .contains("identical to the issued file")
    );
    let log = r.json(&["audit", "log", "--format", "json"]);
    assert_eq!(
        log.as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"] == "holder.update")
            .count(),
        2
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// Point 4: the holder's address, city and e-mail as optional columns of the adjudications CSV:
/// a row that gives them records a contact version as `holder update` does, in the same import
/// (audited as `holder.update`), and the notice prints them; a contact already current adds
/// nothing; a file without the columns imports as before.
#[test]
fn the_adjudications_csv_may_carry_the_holders_contact() {
    let r = Reg::with_program_tail(ISSUER).with_file_letterhead();
    let csv = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares,address,city,email\n\
               CC,1000000001,Ana Prueba,natural,trabajador,1000,,2024-03-15,,,Calle 10 # 5-20,Medellín,ana@example.co\n\
               CC,1000000002,Luis Prueba,natural,pensionado,2500,,2024-03-15,Banco Ejemplo,2500,,,\n";
    // a malformed e-mail is a row problem: nothing is written
    let bad = r.file("bad.csv", csv.replace("ana@example.co", "ana@").as_bytes());
    let e = r.fails(&["adjudications", "import", &bad, "--program", "D3939-2004"]);
    assert!(
        e.contains("line 2: email \"ana@\": is not an e-mail address"),
        "{e}"
    );
    let file = r.file("holders.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &file, "--program", "D3939-2004"]);
    let ana = r.json(&["holder", "show", "1000000001", "--format", "json"]);
    assert_eq!(ana.as_array().unwrap().len(), 1, "{ana}");
    assert_eq!(ana[0]["address"], "Calle 10 # 5-20");
    assert_eq!(ana[0]["city"], "Medellín");
    assert_eq!(ana[0]["email"], "ana@example.co");
    // a row without the contact columns filled records nothing for its holder
    let luis = r.json(&["holder", "show", "1000000002", "--format", "json"]);
    assert_eq!(luis.as_array().unwrap().len(), 0, "{luis}");
    let contact_events = |r: &Reg| {
        r.json(&["audit", "log", "--format", "json"])
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"] == "holder.update")
            .count()
    };
    assert_eq!(contact_events(&r), 1);
    // a second file with the same contact adds no version; one with a new city adds one that
    // keeps the address and e-mail given before
    let same = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares,city,address\n\
                CC,1000000001,Ana Prueba,natural,trabajador,10,,2024-04-15,,,Medellín,Calle 10 # 5-20\n";
    let same = r.file("same.csv", same.as_bytes());
    r.ok(&["adjudications", "import", &same, "--program", "D3939-2004"]);
    assert_eq!(contact_events(&r), 1);
    let moved = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares,city\n\
                 CC,1000000001,Ana Prueba,natural,trabajador,10,,2024-05-15,,,Cali\n";
    let moved = r.file("moved.csv", moved.as_bytes());
    r.ok(&["adjudications", "import", &moved, "--program", "D3939-2004"]);
    assert_eq!(contact_events(&r), 2);
    let ana = r.json(&["holder", "show", "1000000001", "--format", "json"]);
    assert_eq!(ana.as_array().unwrap().len(), 2, "{ana}");
    assert_eq!(ana[1]["address"], "Calle 10 # 5-20");
    assert_eq!(ana[1]["city"], "Cali");
    assert_eq!(ana[1]["email"], "ana@example.co");
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "100",
    ]);
    issue(&r, "1", "2025-02-10", "2025-02-11", "md", "n.md");
    let md = std::fs::read_to_string(r.dir.path().join("n.md")).unwrap();
    assert!(
        md.contains(
            "Ana Prueba, identificado(a) con CC No. 1000000001. Dirección: Calle 10 \\# 5-20, Cali. \
             Correo electrónico: ana@example.co."
        ),
        "{md}"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));

    // the file without the columns (the usual fixture) imports as before: no contact recorded
    let r = Reg::new().with_letterhead().with_holders();
    let ana = r.json(&["holder", "show", "1000000001", "--format", "json"]);
    assert_eq!(ana.as_array().unwrap().len(), 0, "{ana}");
    let adjudications = r.json(&["adjudications", "list", "--format", "json"]);
    assert_eq!(adjudications.as_array().unwrap().len(), 3);
}

/// Point 3: a notice's delivery is recorded once, not before the notice, and the payment term
/// runs from it (the shipped program's reading); `notice list` shows it.
#[test]
fn delivery_is_recorded_and_the_term_runs_from_it() {
    let r = spec_register();
    let o = issue(&r, "1", "2025-02-10", "2025-02-11", "md", "n.md");
    assert!(
        o.contains(
            "no deadline until its delivery is recorded (delivered on its date, pay by 2025-02-25)"
        ),
        "{o}"
    );
    let e = r.fails(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-10",
        "--via",
        "personal",
    ]);
    assert!(
        e.contains("--on 2025-02-10: is before the notice's date (2025-02-11)"),
        "{e}"
    );
    // certified mail needs an address on file (issue 20)
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Calle 10 # 5-20",
    ]);
    let o = r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-14",
        "--via",
        "correo-certificado",
        "--evidence",
        "guía 123 (DEMO)",
    ]);
    // 10 business days from Friday 14 February 2025: 28 February
    assert!(
        o.contains("delivered on 2025-02-14 by correo certificado")
            && o.contains("runs from delivery: pay by 2025-02-28"),
        "{o}"
    );
    let e = r.fails(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-15",
        "--via",
        "personal",
    ]);
    assert!(
        e.contains("its delivery is already recorded: 2025-02-14"),
        "{e}"
    );
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list[0]["deadline"], "2025-02-28");
    assert_eq!(list[0]["delivered_on"], "2025-02-14");
    assert_eq!(list[0]["via"], "correo-certificado");
    // the document does not change with the delivery
    assert!(
        r.ok(&["notice", "verify", &path(&r, "n.md")])
            .contains("identical to the issued file")
    );
    // the check counts from delivery: not overdue on 2025-02-27 (it was due on 2025-02-25
    // counted from the notice's date), overdue on 2025-03-03, due on 2025-02-28
    assert_eq!(codes(&r, "2025-02-27"), Vec::<String>::new());
    let o = r.run(&["check", "--as-of", "2025-03-03", "--format", "json"]);
    let overdue: serde_json::Value = serde_json::from_str(&common::out(&o)).unwrap();
    let f = overdue["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "NOTICE_OVERDUE")
        .expect("overdue after the term from delivery");
    assert!(
        f["reason"]
            .as_str()
            .unwrap()
            .starts_with("notice MULTA-2025-0001 was due on 2025-02-28"),
        "{f}"
    );
}

/// The codes of the check's findings about adjudication 1 as of a date.
fn codes(r: &Reg, as_of: &str) -> Vec<String> {
    let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&common::out(&o)).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["adjudication_id"] == 1)
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// Point 3, the check: a notice issued and not delivered within the program's term is a finding
/// (NOTICE_UNDELIVERED, 5 business days in the shipped program); a fine paid off needs no
/// notice (no BREACH_NOT_LIQUIDATED), and its old notice's deadline passes without a finding.
#[test]
fn the_check_asks_for_delivery_and_leaves_settled_fines_alone() {
    let r = spec_register();
    issue(&r, "1", "2025-02-10", "2025-02-11", "md", "n.md");
    // an address on file, so no HOLDER_NO_ADDRESS (issue 20) among the findings followed here
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Calle 10 # 5-20",
    ]);
    // the program counts the term from delivery: until one is recorded the notice has no
    // deadline (never overdue, LEGAL_NOTES §7.3) and asks for delivery, medium within the 5
    // business days from Tuesday 2025-02-11 (Tuesday 2025-02-18), high after them
    let severity = |as_of: &str| {
        let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&common::out(&o)).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["adjudication_id"] == 1)
            .map(|f| {
                format!(
                    "{} {}",
                    f["code"].as_str().unwrap(),
                    f["severity"].as_str().unwrap()
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(severity("2025-02-18"), ["NOTICE_UNDELIVERED medium"]);
    assert_eq!(severity("2025-02-19"), ["NOTICE_UNDELIVERED high"]);
    assert_eq!(
        severity("2025-03-10"),
        ["NOTICE_UNDELIVERED high"],
        "never NOTICE_OVERDUE"
    );
    // paid in full on 2025-02-10: the old notice's deadline passes without a finding
    crate::notices::pay_in_full(&r);
    assert_eq!(codes(&r, "2025-03-10"), Vec::<String>::new());
    r.ok(&[
        "settlement",
        "issue",
        "1",
        "--date",
        "2025-02-12",
        "--format",
        "md",
        "--out",
        &path(&r, "p.md"),
    ]);
    assert_eq!(codes(&r, "2025-03-10"), Vec::<String>::new());
    // a second breach, liquidated and paid off without a notice: nothing asks to notify it
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
    ]);
    r.ok(&["fine", "liquidate", "2", "--until", "2024-11-21"]);
    let due = r.json(&[
        "fine",
        "show",
        "2",
        "--until",
        "2024-11-21",
        "--format",
        "json",
    ]);
    let total = due["total_due"].as_str().unwrap().to_string();
    let o = r.run(&["check", "--as-of", "2024-11-21", "--format", "json"]);
    assert!(common::out(&o).contains("BREACH_NOT_LIQUIDATED"));
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "2",
        "--date",
        "2024-11-21",
        "--amount",
        &total,
    ]);
    // (breach 1's notice, dated 11/02/2025, did not exist yet on 22/11/2024: the check as of
    // that day rightly asks for it; breach 2, paid in full, is not asked about)
    let o = r.run(&["check", "--as-of", "2024-11-22", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&common::out(&o)).unwrap();
    let about = |breach: i64| {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "BREACH_NOT_LIQUIDATED" && f["breach_id"] == breach)
            .count()
    };
    assert_eq!(about(2), 0, "{report}");
    assert_eq!(about(1), 1, "{report}");
}

/// The pages of a PDF document, each as the lines `report::pdf` reads back.
fn pages(r: &Reg, name: &str) -> Vec<Vec<String>> {
    let bytes = std::fs::read(r.dir.path().join(name)).unwrap();
    vigia::report::pdf::extract_pages(&bytes)
        .unwrap()
        .iter()
        .map(|p| p.lines().map(str::to_string).collect())
        .collect()
}

/// Fails on what a lawyer would not send: a short table split across pages (a split table
/// repeats its header on the next page), a page holding only the signature, a last page holding
/// only a table (and its introduction) and the signature, an ISO date, a doubled period, a
/// backquote.
fn check_layout(what: &str, pages: &[Vec<String>]) {
    let text = pages.concat().join("\n");
    let headers = [
        "Precio de referencia | Por acción",
        "Fecha | Valor | A intereses | A capital | Excedente",
        "Concepto | Valor",
        "Vendedor | Acciones | Valor",
        "Desde | Hasta | Días",
    ];
    for h in headers {
        let on: Vec<usize> = pages
            .iter()
            .enumerate()
            .filter(|(_, p)| p.iter().any(|l| l.starts_with(h)))
            .map(|(i, _)| i + 1)
            .collect();
        assert!(
            on.len() <= 1,
            "{what}: table {h:?} split over pages {on:?}\n{text}"
        );
    }
    for (i, p) in pages.iter().enumerate() {
        assert_ne!(
            p.first().map(String::as_str),
            Some("Atentamente,"),
            "{what}: page {} starts with the signature\n{text}",
            i + 1
        );
    }
    // the last page holds more than a table and the signature: a table (with the paragraph that
    // introduces it) alone above the signature reads as an appendix signed by itself
    if let Some(last) = pages.last().filter(|_| pages.len() > 1)
        && let Some(sig) = last.iter().position(|l| l == "Atentamente,")
    {
        let mut before: Vec<&str> = last[..sig].iter().map(String::as_str).collect();
        while before.last().is_some_and(|l| l.contains(" | ")) {
            before.pop();
        }
        // the introducing paragraph: its last line ends with a colon, its earlier (wrapped)
        // lines end with neither a period nor a colon
        if before.last().is_some_and(|l| l.ends_with(':')) {
            before.pop();
            while before
                .last()
                .is_some_and(|l| !l.ends_with('.') && !l.ends_with(':'))
            {
                before.pop();
            }
        }
        assert!(
            !before.is_empty(),
            "{what}: the last page holds only a table and the signature\n{text}"
        );
    }
    let iso = text.as_bytes().windows(10).any(|w| {
        w[..4].iter().all(u8::is_ascii_digit)
            && w[4] == b'-'
            && w[5..7].iter().all(u8::is_ascii_digit)
            && w[7] == b'-'
            && w[8..].iter().all(u8::is_ascii_digit)
    });
    assert!(!iso, "{what}: an ISO date\n{text}");
    assert!(
        !text.contains("..") && !text.contains('`'),
        "{what}\n{text}"
    );
}

/// Point 5: every page of a set of notices (short and long, with and without payments,
/// provisional, each kind of breach) and of a paz y salvo passes the layout check.
#[test]
fn every_page_of_a_set_of_notices_is_laid_out_as_a_letter() {
    // with the stage price: short with a payment, then long (two years of monthly rates)
    let r = spec_register();
    issue(&r, "1", "2025-02-10", "2025-02-11", "pdf", "short.pdf");
    issue(&r, "1", "2026-10-31", "2026-11-03", "pdf", "long.pdf");
    let long = pages(&r, "long.pdf");
    assert!(long.len() >= 3, "the long notice has {} pages", long.len());
    // not vacuous: every table the check looks for is in the long notice
    for h in [
        "Precio de referencia | Por acción",
        "Fecha | Valor | A intereses | A capital | Excedente",
        "Concepto | Valor",
        "Vendedor | Acciones | Valor",
        "Desde | Hasta | Días",
    ] {
        assert!(
            long.concat().iter().any(|l| l.starts_with(h)),
            "{h} in {long:?}"
        );
    }
    check_layout("short, with a payment", &pages(&r, "short.pdf"));
    check_layout("long, with a payment", &long);
    crate::notices::pay_in_full(&r);
    r.ok(&[
        "settlement",
        "issue",
        "1",
        "--date",
        "2025-02-12",
        "--out",
        &path(&r, "paz.pdf"),
    ]);
    check_layout("paz y salvo", &pages(&r, "paz.pdf"));

    // no stage price yet: provisional, without payments, one notice per kind of breach
    let r = Reg::new().with_letterhead().with_holders();
    for (adjudication, kind, date) in [
        ("1", "sale", "2024-05-20"),
        ("3", "beneficial-owner", "2024-09-20"),
        ("3", "dacion-en-pago", "2025-01-20"),
        ("2", "credit-subrogation", "2025-06-20"),
    ] {
        r.ok(&[
            "breach",
            "record",
            "--adjudication",
            adjudication,
            "--kind",
            kind,
            "--date",
            date,
            "--shares",
            "10",
        ]);
    }
    for breach in 1..=4 {
        let name = format!("kind-{breach}.pdf");
        issue(
            &r,
            &breach.to_string(),
            "2025-08-29",
            "2025-09-01",
            "pdf",
            &name,
        );
        let p = pages(&r, &name);
        assert!(
            p.concat().join(" ").contains("LIQUIDACIÓN PROVISIONAL"),
            "breach {breach}"
        );
        check_layout(&format!("provisional, breach {breach}"), &p);
    }
}
