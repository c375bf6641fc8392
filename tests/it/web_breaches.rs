//! Breaches, payments, liquidations, notices, voids and pledges through the web's forms, each
//! checked against the register the CLI reads (the harness is in `web.rs`).

use crate::common::Reg;
use crate::web::*;

#[test]
fn a_breach_recorded_through_the_form_equals_the_cli_one() {
    let web = register_with_users();
    let s = Server::start(&web);
    let (mut c, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // the preview prices the fine and writes nothing
    let before = web.dump();
    let preview = c.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "vista"),
    );
    assert_eq!(preview.status, 200);
    let t = preview.text();
    for expected in [
        "Vista previa (nada se ha registrado)",
        "75 % — entre los meses 6 y 12",
        "$\u{a0}1.450",
        "← mayor valor",
        "$\u{a0}1.087.500",
        "21/11/2024",
        "TOTAL A PAGAR al 10/02/2025",
    ] {
        assert!(t.contains(expected), "{expected} in {t}");
    }
    assert_eq!(web.dump(), before, "a preview writes nothing");
    let saved = c.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "registrar"),
    );
    assert_eq!(saved.status, 303);
    assert_eq!(saved.header("location"), Some("/incumplimientos/1"));

    let cli = Reg::new().with_letterhead().with_holders();
    let o = cli
        .command()
        .arg("--db")
        .arg(cli.db())
        .args([
            "--officer",
            "oscar",
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
            "--evidence",
            "Contrato <b>de prueba</b>",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let strip = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("recorded_at");
        v
    };
    let a = strip(web.json(&["breach", "show", "1", "--format", "json"]));
    let b = strip(cli.json(&["breach", "show", "1", "--format", "json"]));
    assert_eq!(a, b);
    assert_eq!(
        a["recorded_by"], "oscar",
        "the signed-in user is the officer"
    );
    let log = web.ok(&["audit", "log", "--entity", "breaches"]);
    assert!(log.contains("oscar"), "{log}");

    // a refusal is shown next to the input it names, and nothing is written
    let before = web.dump();
    let mut late = breach_fields(&csrf, "registrar");
    late[2] = ("breach_date", "16/03/2026");
    late[3] = ("shares", "10");
    let refused = c.post("/adjudicaciones/1/incumplimiento", &late);
    assert_eq!(refused.status, 422);
    let t = refused.text();
    assert_eq!(
        error_text(&t, "breach_date").as_deref(),
        Some(
            "Fecha del incumplimiento 16/03/2026: no hay lugar a multa: el período de restricción de \
             negociabilidad de la adjudicación N.º 1 terminó el 15/03/2026 y el titular podía negociar \
             libremente sus acciones desde el 16/03/2026; no se registró nada."
        ),
        "{t}"
    );
    let mut bad = breach_fields(&csrf, "registrar");
    bad[3] = ("shares", "mil");
    let t = c.post("/adjudicaciones/1/incumplimiento", &bad).text();
    assert!(
        t.contains("id=\"shares-error\"") && t.contains("no es un número entero"),
        "{t}"
    );
    assert_eq!(web.dump(), before);
}

#[test]
fn payments_liquidations_notices_and_downloads() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let paid = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "15/12/2024"),
            ("payment_amount", "500.000"),
            ("reference", "Consignación 1"),
        ],
    );
    assert_eq!(paid.status, 303);
    let early = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "19/11/2024"),
            ("payment_amount", "1"),
        ],
    );
    assert_eq!(early.status, 422);
    assert!(
        early.text().contains("id=\"payment_date-error\""),
        "{}",
        early.text()
    );

    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    // none liquidated yet: a sentence says so, as for the notices, and no empty table
    let t = j.get("/incumplimientos/1").text();
    assert!(
        t.contains(
            "<h2>Liquidaciones</h2><p id=\"sin-liquidaciones\">Ninguna liquidación guardada.</p>"
        ) && !t.contains("<table class=\"liquidaciones\">")
            && t.contains("Ningún aviso de cobro expedido."),
        "{t}"
    );
    let liq = j.post(
        "/incumplimientos/1/liquidar",
        &[("csrf", &jcsrf), ("until", "10/02/2025")],
    );
    assert_eq!(liq.status, 303);
    let t = j.get("/incumplimientos/1").text();
    assert!(
        t.contains("<table class=\"liquidaciones\">") && !t.contains("sin-liquidaciones"),
        "{t}"
    );
    let page = j.get(liq.header("location").unwrap()).text();
    assert!(
        page.contains("<svg") && page.contains("<polyline"),
        "{page}"
    );
    assert!(
        page.contains("$\u{a0}626.823"),
        "SPEC §5 with the payment: {page}"
    );
    // the daily rate of 27,90 % EA is (1,279)^(1/365) − 1 = 0,000674415 0…, written with a comma;
    // the convention by its Spanish name
    assert!(
        page.contains("<td class=\"num\" data-label=\"Tasa diaria\">0,0006744150</td>"),
        "{page}"
    );
    assert!(
        page.contains(
            "Convención de intereses: interés simple diario. Cada día se liquida sobre el capital"
        ) && !page.contains("Interés simple diario:"),
        "{page}"
    );
    let issued = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    let notice = j.get(issued.header("location").unwrap());
    assert!(notice.text().contains("MULTA-2025-0001"));
    let pdf = j.get("/avisos/1/documento/pdf");
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(
        pdf.header("content-disposition")
            .unwrap()
            .contains("MULTA-2025-0001.pdf")
    );
    assert!(pdf.body.starts_with(b"%PDF-"));
    let md = j.get("/avisos/1/documento/md");
    assert!(md.text().contains("626.823"));
    // the downloaded document verifies against the register, uploaded back
    let verified = j.upload(
        "/avisos/verificar",
        &[("csrf", &jcsrf)],
        ("aviso.pdf", &pdf.body),
    );
    assert!(
        verified
            .text()
            .contains("El documento coincide con el registro"),
        "{}",
        verified.text()
    );
    let mut altered = md.text();
    altered = altered.replace("626.823", "526.823");
    let refused = j.upload(
        "/avisos/verificar",
        &[("csrf", &jcsrf)],
        ("aviso.md", altered.as_bytes()),
    );
    assert!(refused.text().contains("NO coincide"), "{}", refused.text());
    // the holder's page shows the whole story in order
    let t = j.get("/titulares/1").text();
    let order = [
        "Adjudicación 1",
        "Incumplimiento 1",
        "Pago 1",
        "Liquidación 1",
        "Aviso MULTA-2025-0001",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|w| t.find(w).unwrap_or_else(|| panic!("{w} in {t}")))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
    // and draws it (issue 22 item 6): a mark per fact, the lock-up's end among them
    let figure = &t[t
        .find("id=\"historia-grafica\"")
        .expect("the timeline picture")..];
    let figure = &figure[..figure.find("</figure>").unwrap()];
    assert!(
        figure.contains(
            "<title>15/03/2026: Fin del período de restricción de la adjudicación 1 (libre desde el \
             día siguiente)</title>"
        ) && figure.contains("<a href=\"/incumplimientos/1\">"),
        "{figure}"
    );
    // a phone cannot hover: the caption sends to the table, which holds each point's words
    assert!(
        figure.contains(
            "<figcaption>Cada punto es un hecho del registro; <a href=\"#historia-tabla\">la tabla \
             de abajo</a> da la fecha y lo que pasó de cada uno (con un ratón, también se lee al \
             pasar el cursor sobre el punto).</figcaption>"
        ) && t.contains("<table class=\"historia\" id=\"historia-tabla\">")
            && !t.contains("pase el cursor para leerlo"),
        "{figure}"
    );
    // a breach is told by its kind, then its shares
    assert!(
        t.contains("Incumplimiento 1 (venta o negociación de las acciones): "),
        "{t}"
    );
    // the audit trail holds every write, by who made it, and verifies
    let audit = j.get("/auditoria").text();
    assert!(audit.contains("oscar") && audit.contains("julia"));
    // each action said in Spanish, its stable code beside it (a line may break after its dot)
    for (label, code) in [
        ("Registro de un incumplimiento", "breach.<wbr>record"),
        ("Liquidación de una multa", "fine.<wbr>liquidate"),
        ("Expedición de un aviso de cobro", "notice.<wbr>issue"),
    ] {
        assert!(
            audit.contains(&format!(
                "<td data-label=\"Acción\">{label}<br><small><code class=\"codigo\">{code}</code>"
            )),
            "{label} / {code} in {audit}"
        );
    }
    // times in Colombia's legal time, never UTC
    assert!(audit.contains("(hora de Colombia)") && !audit.contains("UTC"));
    assert!(
        j.get("/auditoria/verificar")
            .text()
            .contains("Cadena de auditoría íntegra")
    );
}

#[test]
fn a_column_of_amounts_shows_every_amount_with_the_columns_decimals() {
    // a whole payment beside one with centavos: both with two decimals, as the command line's
    // tables (`money::Places`), never «$ 500.000» above «$ 1.450,50»
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    for (date, amount) in [("15/12/2024", "500.000"), ("16/12/2024", "1.450,50")] {
        let paid = o.post(
            "/incumplimientos/1/pagos",
            &[
                ("csrf", &ocsrf),
                ("payment_date", date),
                ("payment_amount", amount),
            ],
        );
        assert_eq!(paid.status, 303, "{}", paid.text());
    }
    let page = o.get("/incumplimientos/1").text();
    assert!(
        page.contains("<td class=\"num\" data-label=\"Valor\">$\u{a0}500.000,00</td>")
            && page.contains("<td class=\"num\" data-label=\"Valor\">$\u{a0}1.450,50</td>")
            && !page.contains("$\u{a0}500.000<"),
        "{page}"
    );
}

#[test]
fn payments_and_breaches_are_voided_by_an_officer_with_a_reason() {
    let r = register_with_users();
    let s = Server::start(&r);
    // anonymous: to the login page, nothing written
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x&void_reason=y");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let pay = |o: &mut Client<'_>, reference: &str| {
        o.post(
            "/incumplimientos/1/pagos",
            &[
                ("csrf", &ocsrf),
                ("payment_date", "15/12/2024"),
                ("payment_amount", "500.000"),
                ("reference", reference),
            ],
        )
        .status
    };
    assert_eq!(pay(&mut o, "Consignación 1"), 303);
    let page = o.get("/incumplimientos/1").text();
    // with a payment in force the breach cannot be voided: the page says why, not a form the
    // register would refuse
    assert!(
        page.contains("Anular pago")
            && !page.contains("Anular incumplimiento")
            && page.contains("<p id=\"no-anulable\">No puede anularse: "),
        "{page}"
    );
    // a consulta sees no void forms and may not void (oficial and the roles above it may)
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    // (signing in is recorded: what follows must write nothing more)
    let before = r.dump();
    let page = c.get("/incumplimientos/1").text();
    assert!(!page.contains("Anular pago") && !page.contains("Anular incumplimiento"));
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        let resp = c.post(path, &[("csrf", &ccsrf), ("void_reason", "error")]);
        assert_eq!(resp.status, 403, "POST {path}");
        assert!(resp.text().contains("Su perfil no permite esta acción"));
    }
    // without the CSRF token, or with another one, an officer is refused too
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        assert_eq!(o.post(path, &[("void_reason", "error")]).status, 403);
        let other = "0".repeat(64);
        let resp = o.post(path, &[("csrf", &other), ("void_reason", "error")]);
        assert_eq!(resp.status, 403);
    }
    // without a reason the register refuses, next to the payments; a payment of another breach
    // is not voided from this one
    let resp = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", " ")],
    );
    assert_eq!(resp.status, 422);
    assert!(
        resp.text().contains(
            "<p class=\"error\" role=\"alert\">Pago 1: indique por qué se anula el pago.</p>"
        ),
        "{}",
        resp.text()
    );
    let resp = o.post(
        "/incumplimientos/2/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "error")],
    );
    assert_eq!(resp.status, 404, "{}", resp.text());
    assert_eq!(r.dump(), before, "nothing was written");
    // with a breach 2 (of adjudication 2), the register refuses payment 1 from its page
    let mut second = breach_fields(&ocsrf, "registrar");
    second[3].1 = "500";
    assert_eq!(
        o.post("/adjudicaciones/2/incumplimiento", &second).status,
        303
    );
    let before = r.dump();
    let resp = o.post(
        "/incumplimientos/2/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "error")],
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    assert!(
        resp.text().contains(
            "<p class=\"error\" role=\"alert\">Pago 1: pertenece al incumplimiento N.º 1, no al N.º 2.</p>"
        ),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // the officer voids the payment: it stays, marked, with who and why (escaped)
    let resp = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "Era de otro titular <b>")],
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/incumplimientos/1").text();
    assert!(
        page.contains("ANULADO") && page.contains("por oscar: Era de otro titular &lt;b&gt;"),
        "{page}"
    );
    let cli = r.ok(&["payment", "list", "--breach", "1"]);
    assert!(cli.contains("Era de otro titular <b>"), "{cli}");
    // twice is refused
    let again = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "otra vez")],
    );
    assert_eq!(again.status, 422);
    assert!(
        again.text().contains("Pago 1: ya fue anulado el ")
            && again
                .text()
                .contains(" por oscar (Era de otro titular &lt;b&gt;)"),
        "{}",
        again.text()
    );
    // with the payment voided, the breach's own void is offered
    let page = o.get("/incumplimientos/1").text();
    assert!(page.contains("Anular incumplimiento"), "{page}");

    // then the breach itself, as the CLI would
    let resp = o.post(
        "/incumplimientos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "Registrado por error")],
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/incumplimientos/1").text();
    assert!(
        page.contains("ANULADO") && page.contains("Registrado por error"),
        "{page}"
    );
    assert!(!page.contains("Anular incumplimiento") && !page.contains("Registrar pago"));
    // both voids are in the audit trail under the officer who made them
    let voids: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM audit_events WHERE actor = 'oscar' AND action LIKE '%void%'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(voids, 2);
    r.ok(&["audit", "verify"]);
}

#[test]
fn pledges_are_registered_and_released_from_the_holders_page() {
    let r = register_with_users();
    let s = Server::start(&r);
    for path in ["/adjudicaciones/1/prendas", "/adjudicaciones/1/liberar"] {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x&pledge_rank=1");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // (signing in is recorded: what follows must write nothing more)
    let before = r.dump();
    assert!(!c.get("/titulares/1").text().contains("Registrar prenda"));
    let pledge = |csrf: &str| {
        vec![
            ("csrf".to_string(), csrf.to_string()),
            ("adjudication".into(), "1".into()),
            ("pledge_rank".into(), "1".into()),
            ("registered_on".into(), "01/04/2024".into()),
            ("lender".into(), String::new()),
        ]
    };
    let fields = |v: &[(String, String)]| -> Vec<(String, String)> { v.to_vec() };
    let post = |cl: &mut Client<'_>, path: &str, v: &[(String, String)]| {
        let refs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        cl.post(path, &refs)
    };
    // a consulta may not; nobody without the form's token may
    assert_eq!(
        post(&mut c, "/adjudicaciones/1/prendas", &pledge(&ccsrf)).status,
        403
    );
    let release = |csrf: &str, on: &str| {
        vec![
            ("csrf".to_string(), csrf.to_string()),
            ("adjudication".into(), "1".into()),
            ("release_date".into(), on.to_string()),
        ]
    };
    assert_eq!(
        post(
            &mut c,
            "/adjudicaciones/1/liberar",
            &release(&ccsrf, "16/03/2026")
        )
        .status,
        403
    );
    assert!(o.get("/titulares/1").text().contains("Registrar prenda"));
    let mut no_token = fields(&pledge(&ocsrf));
    no_token.retain(|(k, _)| k != "csrf");
    assert_eq!(
        post(&mut o, "/adjudicaciones/1/prendas", &no_token).status,
        403
    );
    let mut no_token = release(&ocsrf, "16/03/2026");
    no_token.remove(0);
    assert_eq!(
        post(&mut o, "/adjudicaciones/1/liberar", &no_token).status,
        403
    );
    // a degree that is neither 1 nor 2 is refused next to its input, nothing written
    let mut bad = pledge(&ocsrf);
    bad[2].1 = "3".into();
    let resp = post(&mut o, "/adjudicaciones/1/prendas", &bad);
    assert_eq!(resp.status, 422);
    assert!(
        resp.text().contains("id=\"pledge_rank-error\""),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // registered, as the CLI would
    let resp = post(&mut o, "/adjudicaciones/1/prendas", &pledge(&ocsrf));
    assert_eq!(resp.status, 303, "{}", resp.text());
    assert_eq!(resp.header("location"), Some("/titulares/1"));
    let page = o.get("/titulares/1").text();
    assert!(page.contains("Prenda 1 de grado 1"), "{page}");
    assert!(page.contains("Liberar prendas"), "{page}");
    // its 1.000 shares are all pledged: no second pledge is offered (the register would refuse
    // one), the page says so in the register's words
    assert!(!page.contains("Registrar prenda"), "{page}");
    assert!(
        page.contains(
            "No se registra otra prenda: la adjudicación N.º 1 ya tiene vigente la prenda N.º 1 \
             (de grado 1, inscrita el 01/04/2024); libérela primero."
        ),
        "{page}"
    );
    // the lock-up has not ended on 15/03/2026: refused with the register's reason
    let resp = post(
        &mut o,
        "/adjudicaciones/1/liberar",
        &release(&ocsrf, "15/03/2026"),
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    let resp = post(
        &mut o,
        "/adjudicaciones/1/liberar",
        &release(&ocsrf, "16/03/2026"),
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("Prenda 1 liberada") && page.contains("(liberada)"),
        "{page}"
    );
    // released, its shares are free to pledge again
    assert!(page.contains("Registrar prenda"), "{page}");
    let writes: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM audit_events WHERE actor = 'oscar' AND action LIKE 'pledge.%'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(writes, 2);
    r.ok(&["audit", "verify"]);
}

#[test]
fn a_refusal_about_the_adjudication_is_shown_on_the_holders_page() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert!(o.get("/titulares/1").text().contains("Registrar prenda"));
    // voided meanwhile (another officer, another tab): the page on screen still has the form
    r.ok(&[
        "adjudications",
        "void",
        "1",
        "--reason",
        "Registrada por error",
    ]);
    let before = r.dump();
    let resp = o.post(
        "/adjudicaciones/1/prendas",
        &[
            ("csrf", &csrf),
            ("adjudication", "1"),
            ("pledge_rank", "1"),
            ("registered_on", "01/04/2024"),
            ("lender", ""),
        ],
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    assert_eq!(
        error_text(&resp.text(), "adjudicacion-1").as_deref(),
        Some("Adjudicación 1: fue anulada; ya no es una adjudicación vigente y no admite prenda."),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");
}

/// Issue 13: «Verificar un aviso» checks the uploaded bytes itself (not through the command
/// line) and says each check in Spanish: a notice as issued, the same notice tampered with, the
/// notice once replaced, a file that is no document. The command line still says it in English.
#[test]
fn verifying_a_notice_says_each_check_in_spanish() {
    let r = crate::notices::spec_register();
    add_user(&r, "carla", "consulta");
    let path = |name: &str| r.dir.path().join(name).display().to_string();
    let issue = |date: &str, format: &str, name: &str| {
        r.ok(&[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            date,
            "--reason",
            "fecha del caso de prueba",
            "--format",
            format,
            "--out",
            &path(name),
        ])
    };
    issue("2025-02-11", "pdf", "n.pdf");
    r.ok(&[
        "notice",
        "render",
        "MULTA-2025-0001",
        "--format",
        "md",
        "--out",
        &path("n.md"),
    ]);
    let pdf = std::fs::read(path("n.pdf")).unwrap();
    let md = std::fs::read_to_string(path("n.md")).unwrap();
    // when the PDF was recorded, as the page writes it: Colombia's time, UTC−5
    let at: String = r
        .conn()
        .query_row(
            "SELECT created_at FROM renderings WHERE notice_id = 1 ORDER BY id LIMIT 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    let at_es = (chrono::DateTime::parse_from_rfc3339(&at).unwrap() - chrono::TimeDelta::hours(5))
        .format("%d/%m/%Y %H:%M (hora de Colombia)")
        .to_string();

    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let mut verify = |name: &str, bytes: &[u8]| {
        let t = c
            .upload("/avisos/verificar", &[("csrf", &csrf)], (name, bytes))
            .text();
        // what the verification says: from the page's title to the form for another document
        let start = t.find("</h1>").expect("the page's title");
        let end = start + t[start..].find("<form").expect("the upload form");
        let said = t[start..end].to_string();
        let lower = said.to_lowercase();
        for english in [
            "match",
            "notice",
            "file",
            "fingerprint",
            "recomputed",
            "superseded",
            "in force",
            "different",
            "identical",
            "issued",
            "expected",
            "found",
            "line ",
            "register",
            "voided",
            "payment",
            "liquidation",
            "not a",
            " of ",
        ] {
            assert!(!lower.contains(english), "{english:?} in {said}");
        }
        said
    };

    // as issued
    let t = verify("aviso.pdf", &pdf);
    for expected in [
        "El documento coincide con el registro: texto, cifras y huella; está vigente.",
        "Documento: aviso de cobro <strong><span class=\"ident\">MULTA-2025-0001</span></strong> del programa D3939-2004, \
         liquidación N.º 1.",
        "<td data-label=\"Comprobación\">Texto y cifras</td><td data-label=\"Resultado\">✓ coincide</td><td data-label=\"Detalle\">coinciden con el registro</td>",
        &format!(
            "<td data-label=\"Resultado\">✓ coincide</td><td data-label=\"Detalle\">idéntico al archivo emitido (PDF, {at_es}; SHA-256 "
        ),
        "<td data-label=\"Comprobación\">Cifras recalculadas hoy</td><td data-label=\"Resultado\">✓ coincide</td><td data-label=\"Detalle\">el registro da las mismas \
         cifras</td>",
        "<td data-label=\"Comprobación\">Aviso posterior</td><td data-label=\"Resultado\">✓ coincide</td><td data-label=\"Detalle\">ningún aviso \
         posterior lo reemplaza</td>",
    ] {
        assert!(t.contains(expected), "{expected:?} in {t}");
    }
    assert!(!t.contains("✗"), "{t}");

    // the total edited in the Markdown: the line, what it should say and what it says
    let tampered = md.replace("$ 626.823", "$ 26.823");
    // its line in the file, as an editor counts it (blank lines too)
    let line = md.lines().position(|l| l.contains("$ 626.823")).unwrap() + 1;
    // `grep -n` on the notice: line 77 (its 47th line of text)
    assert_eq!(line, 77, "{md}");
    let t = verify("aviso.md", tampered.as_bytes());
    for expected in [
        "El documento NO coincide con el registro (vea el detalle).".to_string(),
        format!(
            "<td data-label=\"Comprobación\">Texto y cifras</td><td class=\"error\" data-label=\"Resultado\">✗ no coincide</td><td data-label=\"Detalle\">en la línea {line} \
             del archivo debía decir «| Total a pagar al 10 de febrero de 2025 | $ 626.823 |» y dice «| Total \
             a pagar al 10 de febrero de 2025 | $ 26.823 |»</td>"
        ),
        "<td data-label=\"Comprobación\">Archivo</td><td class=\"error\" data-label=\"Resultado\">✗ no coincide</td><td data-label=\"Detalle\">distinto de todos los archivos \
         que vigia generó (SHA-256 "
            .to_string(),
    ] {
        assert!(t.contains(&expected), "{expected:?} in {t}");
    }
    // the command line says the same in English, as before
    let o = r.run(&["notice", "verify", &r.file("t.md", tampered.as_bytes())]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        crate::common::out(&o).contains(&format!(
            "document text and figures: DO NOT MATCH at line {line} of the file"
        )),
        "{}",
        crate::common::out(&o)
    );

    // replaced by a later notice
    issue("2025-02-12", "md", "n2.md");
    // genuine, but no longer in force: a warning (class aviso), not the error of a forgery
    let t = verify("aviso.pdf", &pdf);
    for expected in [
        "<p class=\"aviso\" id=\"resultado\" role=\"status\">El documento es auténtico (texto, \
         cifras y huella tal como vigia lo emitió), pero ya no está vigente: lo reemplazó el aviso \
         MULTA-2025-0002 del 12/02/2025.</p>",
        "<td data-label=\"Comprobación\">Aviso posterior</td><td class=\"vencido\" data-label=\"Resultado\">• ya no vigente</td><td data-label=\"Detalle\">reemplazado por el \
         aviso MULTA-2025-0002 del 12/02/2025; este aviso ya no está vigente</td>",
    ] {
        assert!(t.contains(expected), "{expected:?} in {t}");
    }
    assert!(
        !t.contains("NO coincide") && !t.contains("class=\"error\""),
        "{t}"
    );

    // no document at all
    let t = verify("foto.jpg", b"\xff\xd8\xff\xe0 JFIF");
    assert!(
        t.contains("No se pudo verificar el documento.")
            && t.contains(
                "Motivo: no es un documento que vigia pueda leer: no es un PDF ni texto UTF-8 \
                 (HTML o Markdown)."
            ),
        "{t}"
    );
}
