//! The first-stage offer in the browser (issue 22, item 2): `/programas/{code}/oferta` shows the
//! offer's window once opened, and opens it for an administrator as `vigia offer open` does, the
//! window checked by the register (Decreto 3939 Art. 4) and a refusal beside the date it names.

use crate::web::{Client, PASSWORD, Server, register_with_users};

const PAGE: &str = "/programas/D3939-2004/oferta";

/// The text of the refusal shown next to the input `name`, if any.
fn error_beside(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

fn offers(r: &crate::common::Reg) -> Vec<(String, String, String)> {
    let conn = r.conn();
    let mut q = conn
        .prepare("SELECT opens, closes, created_by FROM offers ORDER BY id")
        .unwrap();
    q.query_map([], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The reason the shipped 2004 program needs for an offer in 2024 (outside its validity).
const REASON: &str = "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)";

#[test]
fn an_administrator_opens_the_offer_with_its_window_checked_by_the_register() {
    let r = register_with_users();
    let s = Server::start(&r);

    // anyone signed in sees that it is not open; only an administrator is offered the form
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get(PAGE);
    assert_eq!(t.status, 200);
    assert!(t.text().contains("aún no se ha abierto"), "{}", t.text());
    assert!(!t.text().contains("Abrir la oferta"), "{}", t.text());
    let window = |csrf: &str, closes: &str, reason: &str| {
        vec![
            ("csrf", csrf.to_string()),
            ("offer_opens", "15/01/2024".to_string()),
            ("offer_closes", closes.to_string()),
            ("validity_reason", reason.to_string()),
        ]
    };
    let post = |c: &mut Client<'_>, fields: &[(&str, String)]| {
        let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        c.post(PAGE, &f)
    };
    // a role below admin, or a form without the session's token: refused, nothing written
    assert_eq!(
        post(&mut c, &window(&ccsrf, "18/03/2024", REASON)).status,
        403
    );
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        post(&mut o, &window(&ocsrf, "18/03/2024", REASON)).status,
        403
    );
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    assert_eq!(post(&mut a, &window("x", "18/03/2024", REASON)).status, 403);
    assert!(offers(&r).is_empty());
    assert!(a.get(PAGE).text().contains("Abrir la oferta"));

    // notice on Monday 15/01/2024, counted from Tuesday the 16th: two months end on Saturday
    // 16/03/2024, so the window closes on Monday 18/03/2024 at the earliest
    let short = post(&mut a, &window(&acsrf, "15/03/2024", REASON));
    assert_eq!(short.status, 422);
    let t = short.text();
    let e = error_beside(&t, "offer_closes").unwrap_or_else(|| panic!("{t}"));
    assert!(e.contains("18/03/2024 o después"), "{e}");
    // what was typed is shown again
    assert!(t.contains("value=\"15/03/2024\""), "{t}");
    // a date that is no date, beside its input, in Spanish
    let bad = post(&mut a, &window(&acsrf, "31/02/2024", REASON));
    assert_eq!(bad.status, 422);
    assert!(
        error_beside(&bad.text(), "offer_closes").is_some(),
        "{}",
        bad.text()
    );
    // 2024 lies outside the 2004 program's validity: the reason is asked for beside its input
    let no_reason = post(&mut a, &window(&acsrf, "18/03/2024", ""));
    assert_eq!(no_reason.status, 422);
    assert!(
        error_beside(&no_reason.text(), "validity_reason").is_some(),
        "{}",
        no_reason.text()
    );
    assert!(offers(&r).is_empty(), "nothing written by a refusal");

    // the window the CLI's own test opens
    let done = post(&mut a, &window(&acsrf, "18/03/2024", REASON));
    assert_eq!(done.status, 303, "{}", done.text());
    assert_eq!(done.header("location"), Some(PAGE));
    assert_eq!(
        offers(&r),
        [(
            "2024-01-15".to_string(),
            "2024-03-18".to_string(),
            "adela".to_string()
        )]
    );
    let t = c.get(PAGE).text();
    assert!(
        t.contains("15/01/2024") && t.contains("18/03/2024") && t.contains("por adela"),
        "{t}"
    );
    // once per program
    let again = post(&mut a, &window(&acsrf, "18/04/2024", REASON));
    assert_eq!(again.status, 422);
    assert!(again.text().contains("ya se abrió"), "{}", again.text());
    assert_eq!(offers(&r).len(), 1);
}

const TEST_PROGRAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/programs/ebsa-2010-test.toml"
);

const HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,\
files_tax_return,patrimonio_liquido,income,investment_limit,patrimonio_ajustado,declarations,review,lender,financed_shares\n";

/// Part of `offering.rs`'s worked example (offer 10): demand 1 + 13 + 6 = 20 > 10, floors of
/// 10/20, 130/20, 60/20 = 0, 6, 3 and the one share left to the smallest positive award (3 → 4);
/// the late filing is rejected.
const ACCEPTANCES: &str = "\
2024-01-16 08:00,CC,1000000001,Uno Prueba,natural,trabajador,1,,si,100000000,,,,si,,,
2024-01-16 09:00,CC,1000000002,Dos Prueba,natural,trabajador,13,,si,100000000,,,,si,,Banco Ejemplo,13
2024-01-17,CC,1000000003,Tres Prueba,natural,pensionado,6,si,si,100000000,,,,si,,,
2024-03-19,CC,1000000006,Seis Tarde,natural,trabajador,5,,si,100000000,,,,si,,,
";

/// The test program with its offer open from 15/01/2024 to 18/03/2024 (by the CLI).
fn open_offer() -> crate::common::Reg {
    let r = crate::common::Reg::new();
    r.ok(&["program", "add", TEST_PROGRAM]);
    r.ok(&[
        "offer",
        "open",
        "EBSA-TEST",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
    ]);
    r
}

/// What an adjudication wrote: the run's figures and fingerprint, and the awards.
fn written(r: &crate::common::Reg) -> (String, Vec<(String, i64)>) {
    let conn = r.conn();
    let run: String = conn
        .query_row(
            "SELECT adjudicated_on || ' ' || offered || ' ' || demand || ' ' || awarded || ' ' || fingerprint FROM offering_runs",
            [],
            |x| x.get(0),
        )
        .unwrap();
    let mut q = conn
        .prepare(
            "SELECT h.doc_number, a.shares FROM adjudications a JOIN holders h ON h.id = a.holder_id ORDER BY a.id",
        )
        .unwrap();
    let awards = q
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (run, awards)
}

#[test]
fn acceptances_are_reviewed_then_imported_and_the_offer_adjudicated_as_the_cli_does() {
    let r = open_offer();
    for (name, role) in [("oscar", "oficial"), ("adela", "admin")] {
        crate::web::add_user(&r, name, role);
    }
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let acc = "/programas/EBSA-TEST/aceptaciones";
    let count = |r: &crate::common::Reg| -> i64 {
        r.conn()
            .query_row("SELECT count(*) FROM acceptances", [], |x| x.get(0))
            .unwrap()
    };

    // a file with a bad row: its line and column, nothing written
    let bad = format!(
        "{HEADER}{ACCEPTANCES}2024-01-18,NIT,900000005-1,Cinco Fondo,legal,fondo-empleados,2,,si,100000000,,,,si,,,\n\
         2024-01-18,CC,1000000004,Cuatro,natural,trabajador,mil,,si,1,,,,si,,,\n"
    );
    let resp = o.upload(acc, &[("csrf", &ocsrf)], ("a.csv", bad.as_bytes()));
    assert_eq!(resp.status, 422, "{}", resp.text());
    let t = resp.text();
    assert!(
        t.contains("tiene 1 problema") && t.contains("<td class=\"num\">7</td>"),
        "{t}"
    );
    // the rows as read name the kind of person in Spanish: «jurídica», «natural»
    assert!(
        t.contains("<td>Cinco Fondo</td><td>jurídica</td>")
            && t.contains("<td>Uno Prueba</td><td>natural</td>")
            && !t.contains("<td>legal</td>"),
        "{t}"
    );
    // the review writes nothing; without the token it is refused
    let good = format!("{HEADER}{ACCEPTANCES}");
    assert_eq!(
        o.upload(acc, &[("csrf", "x")], ("a.csv", good.as_bytes()))
            .status,
        403
    );
    let review = o.upload(acc, &[("csrf", &ocsrf)], ("a.csv", good.as_bytes()));
    assert_eq!(review.status, 200, "{}", review.text());
    let t = review.text();
    assert!(t.contains("4 aceptaciones por agregar"), "{t}");
    assert_eq!(count(&r), 0);
    let token = {
        let i = t.find("name=\"token\" value=\"").unwrap() + 20;
        t[i..i + 64].to_string()
    };
    let done = o.post(
        "/programas/EBSA-TEST/aceptaciones/confirmar",
        &[("csrf", &ocsrf), ("token", &token)],
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(
        done.text().contains("4 aceptaciones agregadas"),
        "{}",
        done.text()
    );
    assert_eq!(count(&r), 4);

    // the adjudication: an oficial may not; the preview writes nothing
    let page = "/programas/EBSA-TEST/oferta/adjudicar";
    assert_eq!(
        o.post(
            page,
            &[
                ("csrf", &ocsrf),
                ("adjudication_date", "20/03/2024"),
                ("accion", "vista")
            ]
        )
        .status,
        403
    );
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    // before the offer closed: refused beside the date
    let early = a.post(
        page,
        &[
            ("csrf", &acsrf),
            ("adjudication_date", "18/03/2024"),
            ("accion", "vista"),
        ],
    );
    assert_eq!(early.status, 422, "{}", early.text());
    assert!(
        error_beside(&early.text(), "adjudication_date").is_some(),
        "{}",
        early.text()
    );
    let preview = a.post(
        page,
        &[
            ("csrf", &acsrf),
            ("adjudication_date", "20/03/2024"),
            ("accion", "vista"),
        ],
    );
    assert_eq!(preview.status, 200, "{}", preview.text());
    let t = preview.text();
    assert!(
        t.contains("Vista previa (nada se ha adjudicado)") && t.contains("una sola vez (art. 12)"),
        "{t}"
    );
    // the table's headers are words a person reads, not the register's field names
    assert!(
        t.contains("<th class=\"num\" scope=\"col\">Acciones pedidas</th>")
            && t.contains("<th scope=\"col\">Resultado</th>")
            && !t.contains("<th>documento</th>"),
        "{t}"
    );
    let adjudications = |r: &crate::common::Reg| -> i64 {
        r.conn()
            .query_row("SELECT count(*) FROM adjudications", [], |x| x.get(0))
            .unwrap()
    };
    assert_eq!(adjudications(&r), 0);
    // before the adjudication there is no acta to download
    assert!(!t.contains("/oferta/acta.pdf"), "{t}");
    assert!(
        !a.get("/programas/EBSA-TEST/oferta")
            .text()
            .contains("Descargar acta"),
    );
    let fingerprint = {
        let i = t.find("name=\"huella\" value=\"").unwrap() + 21;
        t[i..i + 64].to_string()
    };
    // a confirmation of another result is not written
    let stale = a.post(
        page,
        &[
            ("csrf", &acsrf),
            ("adjudication_date", "20/03/2024"),
            ("accion", "adjudicar"),
            ("huella", &"0".repeat(64)),
        ],
    );
    assert_eq!(stale.status, 409, "{}", stale.text());
    assert_eq!(adjudications(&r), 0);
    let done = a.post(
        page,
        &[
            ("csrf", &acsrf),
            ("adjudication_date", "20/03/2024"),
            ("accion", "adjudicar"),
            ("huella", &fingerprint),
        ],
    );
    assert_eq!(done.status, 303, "{}", done.text());
    let shown = a.get("/programas/EBSA-TEST/oferta").text();
    assert!(
        shown.contains("Adjudicación N.º 1 del 20/03/2024") && shown.contains(&fingerprint),
        "{shown}"
    );
    // the picture of the offer against its demand (issue 22 item 6): the 10 shares awarded
    let figure = &shown[shown.find("id=\"demanda\"").expect("the demand picture")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    assert!(
        figure.contains("<title>adjudicadas: 10 acciones</title>")
            && figure.contains("<title>ofrecidas: "),
        "{figure}"
    );

    // the same acceptances adjudicated by the CLI on a twin register write the same
    let twin = open_offer();
    let csv = twin.file("a.csv", good.as_bytes());
    twin.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    twin.ok(&["offer", "adjudicate", "EBSA-TEST", "--on", "2024-03-20"]);
    let (run, awards) = written(&r);
    assert_eq!((run.clone(), awards.clone()), written(&twin));
    assert!(run.ends_with(&fingerprint), "{run}");
    // worked by hand above: 0, 6 and 4 shares, nothing to the late filing
    assert_eq!(
        awards,
        [("1000000002".to_string(), 6), ("1000000003".to_string(), 4)]
    );
}

/// The test program's offer adjudicated by the CLI on 20/03/2024 over the four acceptances.
fn adjudicated() -> crate::common::Reg {
    let r = open_offer();
    let csv = r.file("a.csv", format!("{HEADER}{ACCEPTANCES}").as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    r.ok(&["offer", "adjudicate", "EBSA-TEST", "--on", "2024-03-20"]);
    r
}

#[test]
fn the_acta_is_downloaded_and_verified_in_the_browser_as_the_cli_verifies_it() {
    let r = adjudicated();
    crate::web::add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    // the lowest role reads the offer, downloads its acta and verifies one
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let shown = c.get(PAGE_TEST).text();
    assert!(
        shown.contains("Descargar acta")
            && shown.contains("href=\"/programas/EBSA-TEST/oferta/acta.pdf\"")
            && shown.contains("href=\"/programas/EBSA-TEST/oferta/acta.md\"")
            && shown.contains("href=\"/programas/EBSA-TEST/oferta/acta.html\"")
            && shown.contains("Verificar un acta")
            // the verdict is shown under the form: the answer page opens there, not at its top
            && shown.contains("action=\"/programas/EBSA-TEST/oferta/verificar#acta\""),
        "{shown}"
    );
    let pdf = c.get("/programas/EBSA-TEST/oferta/acta.pdf");
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(
        pdf.header("content-disposition"),
        Some("attachment; filename=\"acta-EBSA-TEST-1.pdf\"")
    );
    assert!(pdf.body.starts_with(b"%PDF"));
    // the download, sent from the file it was rendered into, is the command line's acta
    r.ok(&["offer", "acta", "EBSA-TEST", "--out", "cli.pdf"]);
    assert!(pdf.body == std::fs::read(r.dir.path().join("cli.pdf")).unwrap());
    assert_eq!(
        pdf.header("content-length"),
        Some(pdf.body.len().to_string().as_str())
    );
    // the command line verifies the downloaded file against the register
    let path = r.file("acta.pdf", &pdf.body);
    let o = r.run(&["offer", "verify", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", crate::common::out(&o));
    assert!(crate::common::out(&o).contains("verified: acta of adjudication 1 of EBSA-TEST"));

    let verify = "/programas/EBSA-TEST/oferta/verificar";
    let good = c.upload(verify, &[("csrf", &csrf)], ("acta.pdf", &pdf.body));
    assert_eq!(good.status, 200, "{}", good.text());
    let t = good.text();
    assert!(
        t.contains("Verificada.")
            && t.contains("El acta coincide con la adjudicación N.º 1 de EBSA-TEST"),
        "{t}"
    );
    assert!(!t.contains("No coincide"), "{t}");
    // its count in the command line's words («aceptantes», not «personas»)
    let es = crate::common::out(&r.run(&["--lang", "es", "offer", "verify", &path]));
    let counts = &es[es.find("de EBSA-TEST (").unwrap() + "de EBSA-TEST ".len()..];
    let counts = &counts[..=counts.find(')').unwrap()];
    assert!(counts.contains(" aceptantes, "), "{es}");
    assert!(
        t.contains(&format!(
            "El acta coincide con la adjudicación N.º 1 de EBSA-TEST {counts};"
        )),
        "{counts} in {t}"
    );
    // one byte changed: not verified (by the web, nor by the command line)
    // (a byte of the first page's text: the largest stream that is not a font's, whose
    // dictionary is `<</Filter/FlateDecode/Length N>>`)
    let mut bad = pdf.body.clone();
    let k = {
        let (b, pat) = (&pdf.body, b"<</Filter/FlateDecode/Length ");
        (0..b.len() - pat.len())
            .filter(|&i| &b[i..i + pat.len()] == pat)
            .map(|i| {
                let digits = b[i + pat.len()..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let n: usize = std::str::from_utf8(&b[i + pat.len()..i + pat.len() + digits])
                    .unwrap()
                    .parse()
                    .unwrap();
                (n, i + pat.len() + digits + ">>\nstream\n".len() + n / 2)
            })
            .max()
            .expect("a content stream")
            .1
    };
    bad[k] ^= 0x01;
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.pdf", &bad))
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada."),
        "{t}"
    );
    assert!(!t.contains("Verificada."), "{t}");
    let o = r.run(&["offer", "verify", &r.file("malo.pdf", &bad)]);
    assert_ne!(o.status.code(), Some(0), "{}", crate::common::out(&o));
    // the Markdown acta: a changed figure is named by its line
    let md = c.get("/programas/EBSA-TEST/oferta/acta.md");
    assert_eq!(
        md.header("content-disposition"),
        Some("attachment; filename=\"acta-EBSA-TEST-1.md\"")
    );
    r.ok(&["offer", "acta", "EBSA-TEST", "--out", "cli.md"]);
    assert!(md.body == std::fs::read(r.dir.path().join("cli.md")).unwrap());
    let text = md.text();
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.md", text.as_bytes()))
        .text();
    assert!(t.contains("Verificada."), "{t}");
    // another kind of document (a later stage's acta, a notice) is said as such, as `offer
    // verify` says it: not as an acta that no longer matches (nor with the audit chain's note)
    let stage_acta = text.replacen(
        "Acta de adjudicación de la Primera Etapa",
        "Acta de adjudicación de la Segunda Etapa",
        1,
    ) + "\nEtapa 2 — Acta N.º 1\n";
    let t = c
        .upload(
            verify,
            &[("csrf", &csrf)],
            ("etapa.md", stage_acta.as_bytes()),
        )
        .text();
    assert!(
        t.contains("Es el acta de una etapa posterior, no la de la primera etapa: verifíquela en la página de esa etapa.")
            && !t.contains("En la página 1")
            && !t.contains("cadena de auditoría"),
        "{t}"
    );
    let notice = "# Aviso de cobro de la multa\n\nPrograma: EBSA-TEST\n";
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("aviso.md", notice.as_bytes()))
        .text();
    assert!(
        t.contains("El archivo no es un acta de adjudicación de la primera etapa (no tiene la línea «Acta de adjudicación de la Primera Etapa»)")
            && !t.contains("cadena de auditoría"),
        "{t}"
    );
    // the HTML acta, as `offer acta --out cli.html` writes it, verified too
    let html = c.get("/programas/EBSA-TEST/oferta/acta.html");
    assert_eq!(html.status, 200);
    assert_eq!(
        (
            html.header("content-type"),
            html.header("content-disposition")
        ),
        (
            Some("text/html; charset=utf-8"),
            Some("attachment; filename=\"acta-EBSA-TEST-1.html\"")
        )
    );
    r.ok(&["offer", "acta", "EBSA-TEST", "--out", "cli.html"]);
    assert!(html.body == std::fs::read(r.dir.path().join("cli.html")).unwrap());
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.html", &html.body))
        .text();
    assert!(t.contains("Verificada."), "{t}");
    // «Verificar aviso» refuses the acta, saying where it is verified, with a link there
    let t = c
        .upload(
            "/avisos/verificar",
            &[("csrf", &csrf)],
            ("acta.md", text.as_bytes()),
        )
        .text();
    assert!(
        t.contains(
            "es el acta de la Primera Etapa del programa EBSA-TEST, no un aviso de cobro ni un paz \
             y salvo: las actas se verifican contra los registros de su etapa, en la web en la \
             página de la oferta del programa («Verificar el acta»)."
        ) && t.contains("href=\"/programas/EBSA-TEST/oferta#acta\""),
        "{t}"
    );
    let (run, _) = written(&r);
    let fingerprint = run.rsplit(' ').next().unwrap().to_string();
    assert!(text.contains(&fingerprint), "{text}");
    let other = format!(
        "{}{}",
        if fingerprint.starts_with('0') {
            '1'
        } else {
            '0'
        },
        &fingerprint[1..]
    );
    let tampered = text.replacen(&fingerprint, &other, 1);
    // the register's audit chain verified on the audit page: it holds, and the acta pages take
    // that verdict for the register as it stands (an acta that does not match asks it)
    assert!(
        c.get("/auditoria/verificar")
            .text()
            .contains("Cadena de auditoría íntegra"),
    );
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.md", tampered.as_bytes()))
        .text();
    // named on the fingerprint's line of the file, blank lines counted
    let line = text.lines().position(|l| l.contains(&fingerprint)).unwrap() + 1;
    assert!(
        t.contains("No coincide")
            && t.contains(&format!(
                "En la línea {line} del archivo, el documento dice «"
            ))
            && t.contains(&other),
        "{t}"
    );
    // the register's audit chain holds (the verdict the audit page filed): the page says so,
    // and that what differs is the document, not the register
    assert!(
        t.contains(
            "La cadena de auditoría del registro se verifica: el registro no se cambió por fuera de \
             vigia; lo que difiere es el documento. Vea la verificación en \
             <a href=\"/auditoria/verificar\">Auditoría</a>."
        ) && !t.contains("auditoria-rota")
            && !t.contains("auditoria-en-curso"),
        "{t}"
    );
    // without the session's token: refused
    assert_eq!(
        c.upload(verify, &[("csrf", "x")], ("acta.pdf", &pdf.body))
            .status,
        403
    );
    // a person's award changed in the register behind vigia's back (its trigger put back as the
    // migration wrote it): the genuine acta no longer matches; the verdict kept for the register
    // before is not this register's: its audit chain is being verified (in the background, the
    // page does not wait), then it does not verify either, with a link to the page that says
    // what changed
    let trigger = "CREATE TRIGGER offering_outcomes_no_update BEFORE UPDATE ON offering_outcomes \
                   BEGIN SELECT RAISE(ABORT, 'offering_outcomes is append-only: record a \
                   correction instead'); END;";
    r.conn()
        .execute_batch(&format!(
            "DROP TRIGGER offering_outcomes_no_update; \
             UPDATE offering_outcomes SET awarded = awarded + 1 WHERE id = (SELECT min(id) FROM offering_outcomes); \
             {trigger}"
        ))
        .unwrap();
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.md", text.as_bytes()))
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && t.contains(
                "La cadena de auditoría del registro se está verificando en segundo plano (un \
                 acta auténtica deja de coincidir cuando el registro se alteró): suba el acta de \
                 nuevo cuando termine (segundos en un registro pequeño, alrededor de un minuto \
                 en uno de un millón de titulares) para saber si se verifica, o vea la \
                 verificación en \
                 <a href=\"/auditoria/verificar\">Auditoría</a>."
            )
            && !t.contains("auditoria-rota"),
        "{t}"
    );
    // (the audit page's verification, which the test waits for, gives the verdict at once)
    assert!(
        c.get("/auditoria/verificar")
            .text()
            .contains("La auditoría NO coincide")
    );
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("acta.md", text.as_bytes()))
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && !t.contains("auditoria-en-curso")
            && t.contains(
                "La cadena de auditoría del registro tampoco se verifica: un acta auténtica deja \
                 de coincidir cuando el registro se alteró. Vea qué cambió en \
                 <a href=\"/auditoria/verificar\">Auditoría</a>."
            ),
        "{t}"
    );
    // a file that is no acta says so, and nothing of the chain: it is not an acta that stopped
    // matching (and the whole register is not read for it)
    let t = c
        .upload(verify, &[("csrf", &csrf)], ("nota.md", &b"Una nota.\n"[..]))
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && t.contains("no tiene la línea «Programa: …»")
            && !t.contains("auditoria-rota"),
        "{t}"
    );
    // (as `vigia audit verify` finds it: the rows, the schema intact)
    let o = r.run(&["audit", "verify"]);
    let said = crate::common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(
        said.contains("AUDIT MISMATCH")
            && said.contains("offering_outcomes 1..")
            && !said.contains("SCHEMA"),
        "{said}"
    );
}

const PAGE_TEST: &str = "/programas/EBSA-TEST/oferta";

/// The preview pages through every person (issue 22 item 2): 450 acceptances of the test
/// program (offer 10) — 5 on time for one share each (demand 5 ≤ 10: all awarded) and 445
/// filed after the close (rejected) — shown 200 at a time and filtered by result, with nothing
/// written; an officer may not see it.
#[test]
fn the_preview_of_a_large_offer_is_shown_a_page_at_a_time_and_filtered() {
    let r = open_offer();
    let mut csv = HEADER.to_string();
    for i in 1..=450u32 {
        let filed = if i <= 5 {
            format!("2024-01-16 08:{i:02}")
        } else {
            format!("2024-03-19 {:02}:{:02}", 8 + i / 60, i % 60)
        };
        // the late ask 1 to 9 shares (i mod 9 + 1): the order by shares asked has its ties
        let shares = if i <= 5 { 1 } else { 1 + i % 9 };
        csv.push_str(&format!(
            "{filed},CC,{},Persona {i},natural,trabajador,{shares},,si,100000000,,,,si,,,\n",
            1_000_000_000 + i
        ));
    }
    let file = r.dir.path().join("muchas.csv");
    std::fs::write(&file, csv).unwrap();
    r.ok(&[
        "acceptances",
        "import",
        file.to_str().unwrap(),
        "--program",
        "EBSA-TEST",
    ]);
    crate::web::add_user(&r, "adela", "admin");
    crate::web::add_user(&r, "oscar", "oficial");
    let s = Server::start(&r);
    let (mut a, _) = Client::signed_in(&s, "adela", PASSWORD);
    let (mut o, _) = Client::signed_in(&s, "oscar", PASSWORD);
    let base = "/programas/EBSA-TEST/oferta/vista?fecha=20/03/2024";
    assert_eq!(o.get(base).status, 403);
    // a person's cells carry their column's name (a phone shows each cell under it)
    let rows = |t: &str| {
        t.matches("<td data-label=\"Documento\"><span class=\"ident\">CC 1")
            .count()
    };
    let results = |t: &str, what: &str| {
        t.matches(&format!(
            "<td class=\"resultado\" data-label=\"Resultado\">{what}"
        ))
        .count()
    };

    let first = a.get(base);
    assert_eq!(first.status, 200, "{}", first.text());
    let t = first.text();
    // the page says where it starts and ends, and in which order the preview lists the persons
    assert!(
        t.contains("<caption>Personas 1 a 200 de 450 (en el orden del acta)</caption>"),
        "{t}"
    );
    assert_eq!(rows(&t), 200);
    assert!(
        t.contains("<td data-label=\"Documento\"><span class=\"ident\">CC 1000000001</span></td>"),
        "the first filed comes first: {t}"
    );
    assert!(t.contains("desde=200"), "a link to the next page: {t}");
    assert!(t.contains("Confirmar la adjudicación"), "{t}");

    let second = a.get(&format!("{base}&desde=200")).text();
    assert_eq!(rows(&second), 200);
    assert!(
        second.contains("<caption>Personas 201 a 400 de 450 (en el orden del acta)</caption>"),
        "{second}"
    );
    // the link says how many follow: 450 − 400 = 50, not a full page
    assert!(t.contains("Siguientes 200 →"), "{t}");
    assert!(
        second.contains("Siguientes 50 →") && !second.contains("Siguientes 200"),
        "{second}"
    );
    assert!(
        !second.contains(
            "<td data-label=\"Documento\"><span class=\"ident\">CC 1000000001</span></td>"
        ),
        "{second}"
    );
    let last = a.get(&format!("{base}&desde=400")).text();
    assert_eq!(rows(&last), 50, "450 − 400");
    assert!(last.contains("Personas 401 a 450 de 450"), "{last}");
    assert!(
        !last.contains("id=\"siguientes-vista\""),
        "no page after the last: {last}"
    );

    let rejected = a.get(&format!("{base}&resultado=rechazada")).text();
    assert!(
        rejected.contains("445 de las 450 personas son rechazadas"),
        "{rejected}"
    );
    assert_eq!(rows(&rejected), 200);
    assert_eq!(results(&rejected, "rechazada"), 200);
    assert_eq!(results(&rejected, "adjudicada"), 0);
    // the place among the rejected
    assert!(rejected.contains("Personas 1 a 200 de 445"), "{rejected}");
    assert!(
        rejected.contains("resultado=rechazada"),
        "the next page keeps the filter"
    );
    let awarded = a.get(&format!("{base}&resultado=adjudicada")).text();
    assert!(
        awarded.contains("5 de las 450 personas son adjudicadas"),
        "{awarded}"
    );
    assert_eq!(results(&awarded, "adjudicada"), 5);

    // sorted: most shares asked first, ties in the acta's order — 50 rows ask 9 (i = 8, 17, …,
    // 449), 50 ask 8, 50 ask 7, 49 ask 6 (i = 14 … 446), then the first asking 5 is i = 13 (the
    // 200th); the next page starts with the second asking 5, i = 22
    let before = |t: &str, x: u32, y: u32| {
        let at = |i: u32| {
            t.find(&format!(
                "<td data-label=\"Documento\"><span class=\"ident\">CC {}</span></td>",
                1_000_000_000 + i
            ))
        };
        matches!((at(x), at(y)), (Some(a), Some(b)) if a < b)
    };
    let asked = a.get(&format!("{base}&orden=pedidas")).text();
    assert_eq!(rows(&asked), 200);
    assert!(before(&asked, 8, 17) && before(&asked, 449, 7), "{asked}");
    assert!(
        before(&asked, 446, 13),
        "the last asking 6, then the first asking 5"
    );
    assert!(
        !asked.contains(
            "<td data-label=\"Documento\"><span class=\"ident\">CC 1000000022</span></td>"
        ),
        "{asked}"
    );
    let asked2 = a.get(&format!("{base}&orden=pedidas&desde=200")).text();
    let doc = "<td data-label=\"Documento\"><span class=\"ident\">";
    let first_row = asked2
        .find(doc)
        .map(|i| &asked2[i + doc.len()..i + doc.len() + 14]);
    assert_eq!(first_row, Some("CC 1000000022<"), "{asked2}");
    // an order other than the acta's is said beside the place in it (the «Orden» field shows which)
    assert!(
        asked2.contains("<caption>Personas 201 a 400 de 450 (en el orden elegido)</caption>"),
        "{asked2}"
    );
    assert!(
        asked.contains("<caption>Personas 1 a 200 de 450 (en el orden elegido)</caption>"),
        "{asked}"
    );
    assert!(
        asked.contains("orden=pedidas"),
        "the next page keeps the order"
    );
    // most awarded first: the five awarded, in the acta's order
    let most = a.get(&format!("{base}&orden=adjudicadas")).text();
    assert!(before(&most, 1, 2) && before(&most, 5, 6), "{most}");
    // by name, as text: Persona 1, Persona 10, Persona 100, …
    let named = a
        .get(&format!("{base}&orden=nombre&resultado=rechazada"))
        .text();
    assert!(
        before(&named, 10, 100) && before(&named, 100, 101),
        "{named}"
    );
    assert!(
        !named.contains(
            "<td data-label=\"Documento\"><span class=\"ident\">CC 1000000001</span></td>"
        ),
        "only the rejected"
    );

    // a filter or an order no page sends, a date that is no date
    assert_eq!(a.get(&format!("{base}&resultado=todas")).status, 400);
    assert_eq!(a.get(&format!("{base}&orden=precio")).status, 400);
    assert_eq!(
        a.get("/programas/EBSA-TEST/oferta/vista?fecha=31/02/2024")
            .status,
        400
    );
    let runs: i64 = r
        .conn()
        .query_row("SELECT count(*) FROM offering_runs", [], |x| x.get(0))
        .unwrap();
    assert_eq!(runs, 0, "a preview writes nothing");
}
