//! Issue 20 item 10, letters a lawyer signs as shipped, one test per point: the letterhead is
//! register data with its own audited command, and a letter without it is refused naming what is
//! missing; the notice cites the obligation breached from the program file; it writes no
//! admission about an unrecorded pledge; it says how to confirm it with the sellers; a backdated
//! notice needs a reason and shows its issue date; no certified mail without an address
//! (HOLDER_NO_ADDRESS); a provisional notice demands the sum and says it will be re-liquidated;
//! `$` and `%` keep to their figures; the demo's payments follow the notices they answer; and the
//! notices and paz y salvo certificates of the earlier version still render and verify byte for
//! byte.

use crate::common::{self, Reg};

fn path(r: &Reg, name: &str) -> String {
    r.dir.path().join(name).display().to_string()
}

const REASON: &str = "carta firmada en su fecha y registrada después";

/// The full letterhead of the tests.
const LETTERHEAD: &[&str] = &[
    "program",
    "letters",
    "set",
    "D3939-2004",
    "--entity",
    "Fiduciaria de Prueba S.A.",
    "--nit",
    "900123456-8",
    "--return-address",
    "Calle 72 # 10-07, oficina 301",
    "--city",
    "Bogotá D.C.",
    "--bank",
    "Banco de Prueba",
    "--account",
    "cuenta corriente No. 123-45678-9",
    "--signatory-name",
    "Carmen Firma Real",
    "--signatory-position",
    "Vicepresidente Jurídico",
];

/// The test holders; breach 1: Ana Prueba (natural person, adjudication 1, not pledged) sold her
/// 1,000 shares for $ 1.450 each on 2024-11-20 (the SPEC §5 example); no stage price recorded.
fn breached() -> Reg {
    let r = Reg::new().with_holders();
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
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    r
}

fn issue_md(r: &Reg, breach: &str, name: &str) -> String {
    r.ok(&[
        "notice",
        "issue",
        breach,
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        REASON,
        "--format",
        "md",
        "--out",
        &path(r, name),
    ]);
    std::fs::read_to_string(r.dir.path().join(name)).unwrap()
}

/// The letterhead is register data: refused without it (naming every part missing), set and
/// changed by `program letters set` as audited versions of the same program (no new code).
#[test]
fn a_letter_without_the_registers_letterhead_is_refused_naming_what_is_missing() {
    let r = breached();
    let issue = [
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        REASON,
    ];
    let e = r.fails(&issue);
    assert!(
        e.contains(
            "program D3939-2004: has no letterhead in the register: a letter needs the issuer, the \
             signatory's name, the signatory's position, the return address, the payment bank and \
             the payment account"
        ) && e.contains("vigia program letters set CODE"),
        "{e}"
    );
    let o = r.ok(&[
        "program",
        "letters",
        "set",
        "D3939-2004",
        "--entity",
        "Fiduciaria de Prueba S.A.",
        "--signatory-name",
        "Carmen Firma Real",
    ]);
    assert!(
        o.contains("letterhead version 1 set; a notice still needs the signatory's position"),
        "{o}"
    );
    let e = r.fails(&issue);
    assert!(
        e.contains(
            "its letterhead lacks the signatory's position, the return address, the payment bank \
             and the payment account, which a notice needs"
        ),
        "{e}"
    );
    // a wrong check digit is refused, naming the flag (900123456: DV 8)
    let e = r.fails(&[
        "program",
        "letters",
        "set",
        "D3939-2004",
        "--nit",
        "900123456-7",
    ]);
    assert!(e.contains("--nit 900123456-7") && e.contains('8'), "{e}");
    r.ok(LETTERHEAD);
    let e = r.fails(LETTERHEAD);
    assert!(e.contains("nothing to change"), "{e}");
    r.ok(&issue);
    let versions = r.json(&[
        "program",
        "letters",
        "history",
        "D3939-2004",
        "--format",
        "json",
    ]);
    let versions = versions.as_array().unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0]["signatory_position"], serde_json::Value::Null);
    assert_eq!(versions[1]["signatory_position"], "Vicepresidente Jurídico");
    assert_eq!(versions[1]["notice_lacks"], "");
    // the same program, one registration
    let programs = r.json(&["program", "list", "--format", "json"]);
    assert_eq!(programs.as_array().unwrap().len(), 1);
    let audited: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM audit_events WHERE action = 'letters.set'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(audited, 2);
    r.ok(&["audit", "verify"]);
}

/// A paz y salvo needs who certifies and where to answer, not a payment account.
#[test]
fn a_paz_y_salvo_needs_the_signatory_and_return_address_but_no_account() {
    let r = breached();
    // 1,143,967 pays the fine in full on 2025-02-10 (SPEC §5)
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2025-02-10",
        "--amount",
        "1143967",
    ]);
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "none",
        "--date",
        "2024-06-28",
    ]);
    let paz = [
        "settlement",
        "issue",
        "1",
        "--date",
        "2025-02-12",
        "--format",
        "md",
    ];
    let e = r.fails(&paz);
    assert!(e.contains("has no letterhead in the register: a letter needs the issuer, the signatory's name, the signatory's position and the return address"), "{e}");
    r.ok(&[
        "program",
        "letters",
        "set",
        "D3939-2004",
        "--entity",
        "Fiduciaria de Prueba S.A.",
        "--signatory-name",
        "Carmen Firma Real",
        "--signatory-position",
        "Vicepresidente Jurídico",
        "--return-address",
        "Calle 72 # 10-07",
    ]);
    let o = r.ok(&paz);
    assert!(o.contains("PAZ-2025-0001"), "{o}");
    let md = std::fs::read_to_string(r.dir.path().join("PAZ-2025-0001.md")).unwrap();
    assert!(
        md.contains("Carmen Firma Real  \nVicepresidente Jurídico"),
        "{md}"
    );
    // no pledge on record: not a sentence of the certificate; no program to run
    assert!(
        !md.contains("no consta") && !md.contains("vigia notice verify"),
        "{md}"
    );
    assert!(
        md.contains(
            "comuníquese con los vendedores en Calle 72 \\# 10-07 citando su número, PAZ-2025-0001"
        ),
        "{md}"
    );
}

/// Art. 9 fines the breach of Art. 7 num. 5 (natural persons) and Art. 8 num. 4 (legal persons):
/// the notice cites the holder's, from the program file, with the promise the breach broke.
#[test]
fn the_notice_cites_the_declaration_breached_for_the_holders_kind_of_person() {
    let r = breached();
    r.ok(LETTERHEAD);
    // the union (NIT, adjudication 3) gave 100 of its shares in payment
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        "dacion-en-pago",
        "--date",
        "2024-11-20",
        "--shares",
        "100",
        "--consideration-per-share",
        "963",
    ]);
    let natural = issue_md(&r, "1", "natural.md");
    assert!(
        natural.contains(
            "manifestó por escrito su voluntad irrevocable de no negociar las acciones dentro del \
             período de restricción de negociabilidad (Decreto 3939 de 2004, artículo 7, numeral 5), \
             que termina el 15 de marzo de 2026."
        ),
        "{natural}"
    );
    assert!(natural.contains("dentro de ese período y en contra de esa obligación"));
    assert!(natural.contains(
        "Decreto 3939 de 2004, artículo 9: el incumplimiento de esas obligaciones acarrea una multa"
    ));
    assert!(!natural.contains("artículo 8, numeral 4"), "{natural}");
    let legal = issue_md(&r, "2", "legal.md");
    assert!(
        legal.contains(
            "voluntad irrevocable de no dar en pago las acciones dentro del período de restricción de \
             negociabilidad (Decreto 3939 de 2004, artículo 8, numeral 4)"
        ),
        "{legal}"
    );
    // a legal person is "identificada", a natural person "identificado(a)"
    assert!(legal.contains("identificada con NIT No."), "{legal}");
    assert!(natural.contains("identificado(a) con CC No."), "{natural}");
}

/// An unrecorded pledge is the sellers' internal finding: the letter says nothing of it.
#[test]
fn a_pledge_the_register_does_not_show_is_not_a_sentence_of_the_letter() {
    let r = breached();
    r.ok(LETTERHEAD);
    let md = issue_md(&r, "1", "n.md");
    assert!(!md.contains("no consta"), "{md}");
    assert!(!md.contains("no está garantizado"), "{md}");
    assert!(md.contains("El pago de esta multa puede exigirse por las vías legales."));
}

/// The recipient is told how to confirm the letter with the sellers, not to run a program.
#[test]
fn the_letter_says_how_to_confirm_it_with_the_sellers_not_to_run_a_program() {
    let r = breached();
    r.ok(LETTERHEAD);
    let md = issue_md(&r, "1", "n.md");
    assert!(!md.contains("vigia"), "{md}");
    assert!(
        md.contains(
            "Para confirmar la autenticidad de esta notificación, comuníquese con los vendedores en \
             Calle 72 \\# 10-07, oficina 301 citando su número, MULTA-2025-0001, y la huella de la \
             liquidación indicada arriba"
        ),
        "{md}"
    );
    assert!(md.contains("Huella de la liquidación No. 1 (SHA-256): "));
}

/// A notice dated before the day it is issued needs a reason; both dates are kept, and the
/// document shows the day it was issued.
#[test]
fn a_backdated_notice_needs_its_reason_and_shows_its_issue_date() {
    let r = breached();
    r.ok(LETTERHEAD);
    let before = r.dump();
    let e = r.fails(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
    ]);
    assert!(
        e.contains("--date 2025-02-11: is before today (")
            && e.contains("a notice is dated the day it is issued unless the reason for an earlier date is recorded (--reason VALUE)"),
        "{e}"
    );
    assert_eq!(before, r.dump(), "nothing written");
    let e = r.fails(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        " ",
    ]);
    assert!(e.contains("--reason \"\": is empty"), "{e}");
    let md = issue_md(&r, "1", "n.md");
    let today = vigia::calendar::colombia_date(chrono::Utc::now());
    let issued = format!(
        "Fecha de expedición: {}",
        vigia::report::notice::long_date(today)
    );
    assert!(
        md.contains("Bogotá D.C., 11 de febrero de 2025  \n"),
        "{md}"
    );
    assert!(md.contains(&issued), "{issued}\n{md}");
    let (issued_on, reason): (String, String) = r
        .conn()
        .query_row(
            "SELECT issued_on, backdate_reason FROM document_texts WHERE notice_id = 1",
            [],
            |x| Ok((x.get(0)?, x.get(1)?)),
        )
        .unwrap();
    assert_eq!(issued_on, today.to_string());
    assert_eq!(reason, REASON);
    let date: String = r
        .conn()
        .query_row("SELECT notice_date FROM notices WHERE id = 1", [], |x| {
            x.get(0)
        })
        .unwrap();
    assert_eq!(date, "2025-02-11");
    // dated today, a reason is refused (nothing to explain)
    let t = today.to_string();
    let e = r.fails(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        &t,
        "--reason",
        REASON,
    ]);
    assert!(
        e.contains("is recorded only for a notice dated before the day it is issued"),
        "{e}"
    );
    // the backdated notice verifies
    let o = r.ok(&["notice", "verify", &path(&r, "n.md")]);
    assert!(
        o.contains("document text and figures: match the register"),
        "{o}"
    );
}

/// No address on file: no certified mail (and the check says so), but a delivery by hand.
#[test]
fn a_holder_with_no_address_gets_no_certified_mail_and_the_check_warns() {
    let r = breached();
    r.ok(LETTERHEAD);
    issue_md(&r, "1", "n.md");
    let check = r.run(&["check", "--as-of", "2025-02-12", "--format", "json"]);
    let findings: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let codes: Vec<&str> = findings["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"HOLDER_NO_ADDRESS"), "{codes:?}");
    let mail = [
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-12",
        "--via",
        "correo-certificado",
    ];
    let e = r.fails(&mail);
    assert!(
        e.contains("--via correo-certificado: the holder Ana Prueba has no postal address on file")
            && e.contains("(vigia holder update DOC --address TEXT --city TEXT)"),
        "{e}"
    );
    let e = r.fails(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-12",
        "--via",
        "correo-electronico",
    ]);
    assert!(e.contains("has no e-mail address on file"), "{e}");
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-12",
        "--via",
        "personal",
        "--evidence",
        "recibido firmado",
    ]);
    let check = r.run(&["check", "--as-of", "2025-02-12", "--format", "json"]);
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(!out.contains("HOLDER_NO_ADDRESS"), "delivered: {out}");
}

/// With an address on file, certified mail is recorded and HOLDER_NO_ADDRESS is not reported.
#[test]
fn with_an_address_certified_mail_is_recorded() {
    let r = breached();
    r.ok(LETTERHEAD);
    issue_md(&r, "1", "n.md");
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Calle 1 # 2-3",
        "--city",
        "Cali",
    ]);
    let check = r.run(&["check", "--as-of", "2025-02-12", "--format", "json"]);
    assert!(!String::from_utf8_lossy(&check.stdout).contains("HOLDER_NO_ADDRESS"));
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-12",
        "--via",
        "correo-certificado",
    ]);
}

/// Stage price pending: the notice demands the sum liquidated and says it will be re-liquidated.
/// SPEC §5: 1,000 shares × $ 1.450 × 75 % = $ 1.087.500, interest to 2025-02-10 $ 56.467,
/// total $ 1.143.967.
#[test]
fn a_provisional_notice_demands_the_sum_and_says_it_will_be_reliquidated() {
    let r = breached();
    r.ok(LETTERHEAD);
    let md = issue_md(&r, "1", "n.md");
    assert!(
        md.contains(
            "**LIQUIDACIÓN PROVISIONAL: el precio de la Segunda o Tercera Etapa aún no se ha \
             registrado. Esta notificación cobra la suma liquidada con los precios conocidos, \
             $ 1.143.967; cuando se registre el precio de la etapa, la multa se reliquidará y se le \
             notificará la nueva liquidación.**"
        ),
        "{md}"
    );
    assert!(!md.contains("puede aumentar"), "{md}");
    assert!(md.contains("TOTAL A PAGAR AL 10 DE FEBRERO DE 2025: $ 1.143.967"));
}

/// `$` and `%` never part from their figures: no-break spaces in HTML (and the PDF's text);
/// Markdown keeps plain spaces.
#[test]
fn money_and_percent_keep_to_their_figures_in_html() {
    let r = breached();
    r.ok(LETTERHEAD);
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        REASON,
        "--format",
        "html",
        "--out",
        &path(&r, "n.html"),
    ]);
    let html = std::fs::read_to_string(r.dir.path().join("n.html")).unwrap();
    assert!(html.contains("$\u{a0}1.143.967"), "{html}");
    assert!(html.contains("× 75\u{a0}% = $\u{a0}1.087.500"), "{html}");
    let body = &html[html.find("<body>").unwrap()..];
    assert!(!body.contains("$ 1") && !body.contains(" %"), "{body}");
    let o = r.ok(&["notice", "verify", &path(&r, "n.html")]);
    assert!(
        o.contains("document text and figures: match the register"),
        "{o}"
    );
    let md = issue_md(&r, "1", "n.md");
    assert!(md.contains("$ 1.143.967") && !md.contains('\u{a0}'));
}

/// The demo's payments come after the notice each answers.
#[test]
fn the_demo_pays_no_fine_before_the_notice_it_answers() {
    let r = Reg::without_register();
    let db = r.dir.path().join("demo").join("vigia.db");
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("demo")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", common::err(&o));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let early: Vec<(i64, String)> = conn
        .prepare(
            "SELECT p.id, p.paid_on FROM payments p
             WHERE NOT EXISTS (SELECT 1 FROM notices n
                               WHERE n.breach_id = p.breach_id AND n.notice_date <= p.paid_on)",
        )
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(early.is_empty(), "payments before any notice: {early:?}");
    let n: i64 = conn
        .query_row("SELECT count(*) FROM payments", [], |x| x.get(0))
        .unwrap();
    assert_eq!(n, 3, "the demo records three payments (one voided)");
}

/// The notices and paz y salvo certificates written by the version before issue 20 (a register
/// and files made by it, in tests/fixtures/notices-v1) still verify, and render again to the same
/// bytes, with their own text (layout 1) and the program file's letterhead; a new notice in that
/// register needs the register's letterhead.
#[test]
fn the_documents_of_the_earlier_version_verify_and_render_byte_for_byte() {
    let r = Reg::new();
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/notices-v1");
    for f in std::fs::read_dir(fixtures).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), r.dir.path().join(f.file_name())).unwrap();
    }
    for (file, kind) in [
        ("MULTA-2025-0001.md", "notice"),
        ("MULTA-2025-0001.html", "notice"),
        ("MULTA-2025-0001.pdf", "notice"),
        ("PAZ-2025-0001.md", "paz y salvo"),
        ("PAZ-2025-0001.pdf", "paz y salvo"),
    ] {
        let o = r.ok(&["notice", "verify", &path(&r, file)]);
        assert!(
            o.contains(&format!("{file}: {kind} "))
                && o.contains("document text and figures: match the register")
                && o.contains("file: identical to the")
                && o.contains(": matches")
                && o.contains("same figures"),
            "{o}"
        );
    }
    for (number, format, file) in [
        ("MULTA-2025-0001", "md", "MULTA-2025-0001.md"),
        ("MULTA-2025-0001", "pdf", "MULTA-2025-0001.pdf"),
        ("MULTA-2025-0001", "html", "MULTA-2025-0001.html"),
        ("PAZ-2025-0001", "pdf", "PAZ-2025-0001.pdf"),
        ("PAZ-2025-0001", "md", "PAZ-2025-0001.md"),
    ] {
        let again = format!("again-{file}");
        r.ok(&[
            "notice",
            "render",
            number,
            "--format",
            format,
            "--out",
            &path(&r, &again),
        ]);
        assert_eq!(
            std::fs::read(r.dir.path().join(file)).unwrap(),
            std::fs::read(r.dir.path().join(&again)).unwrap(),
            "{file} renders again byte for byte"
        );
    }
    // its old text: the program file's letterhead and the sentences of layout 1
    let md = std::fs::read_to_string(r.dir.path().join("MULTA-2025-0001.md")).unwrap();
    assert!(md.contains("En el registro no consta la inscripción de la prenda"));
    assert!(md.contains("Firmante de Prueba"));
    let o = r.ok(&["fine", "reproduce", "1"]);
    assert!(
        o.contains("liquidation 1 reproduces: total due $ 1.143.967 as of 2025-02-10"),
        "{o}"
    );
    let e = r.fails(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-11",
        "--date",
        "2025-02-11",
        "--reason",
        REASON,
    ]);
    assert!(e.contains("has no letterhead in the register"), "{e}");
}

/// «Cartas» on the web: the page says what a notice lacks; a lawyer records a version (the NIT's
/// refusal next to its input, nothing written), and the notice then issues.
#[test]
fn the_letterhead_is_set_on_its_own_web_page() {
    use crate::web::{Client, PASSWORD, Server, add_user};
    let r = breached();
    add_user(&r, "julia", "juridico");
    add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let page = j.get("/programas/D3939-2004/cartas").text();
    assert!(
        page.contains("El programa aún no tiene membrete en el registro"),
        "{page}"
    );
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    assert!(
        !c.get("/programas/D3939-2004/cartas")
            .text()
            .contains("Registrar membrete")
    );
    let fields = |nit: &'static str| {
        vec![
            ("entity", "Fiduciaria de Prueba S.A."),
            ("issuer_nit", nit),
            ("address", "Calle 72 # 10-07"),
            ("city", "Bogotá D.C."),
            ("bank", "Banco de Prueba"),
            ("account", "cuenta corriente No. 123-45678-9"),
            ("payment_reference", ""),
            ("signatory_name", "Carmen Firma Real"),
            ("signatory_position", "Vicepresidente Jurídico"),
        ]
    };
    let before = r.dump();
    let mut bad = fields("900123456-7");
    bad.push(("csrf", &jcsrf));
    let refused = j.post("/programas/D3939-2004/cartas", &bad);
    assert_eq!(refused.status, 422);
    let t = refused.text();
    assert!(
        t.contains("id=\"issuer_nit-error\"") && t.contains("900123456-7"),
        "{t}"
    );
    assert_eq!(r.dump(), before, "nothing written");
    let mut good = fields("900123456-8");
    good.push(("csrf", &jcsrf));
    let done = j.post("/programas/D3939-2004/cartas", &good);
    assert_eq!(done.status, 303, "{}", done.text());
    let page = j.get("/programas/D3939-2004/cartas").text();
    assert!(page.contains("Membrete vigente: versión 1"), "{page}");
    assert!(page.contains("Carmen Firma Real"));
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        REASON,
    ]);
}
