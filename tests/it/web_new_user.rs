//! What a new user found missing or wrong on the pages (h-web5): the dashboard's registered
//! breaches linked to their pages, the holders listed without a search, a voided payment in a
//! holder's history, the actions a holder's page offers.

use crate::web::*;

#[test]
fn the_dashboard_links_each_registered_breach_to_its_page() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let section = |page: &str| {
        let from = page.find("<h2>Incumplimientos registrados</h2>").unwrap();
        let to = page
            .find("<h2>Fin de los períodos de restricción</h2>")
            .unwrap();
        page[from..to].to_string()
    };
    let none = section(&o.get("/").text());
    assert!(
        none.contains("Ninguno todavía") && !none.contains("/incumplimientos/1"),
        "{none}"
    );
    // breach 1 on Ana's adjudication 1, breach 2 on Luis's adjudication 2, then voided
    let b = |o: &mut Client<'_>, adjudication: u32, shares: &str| {
        let mut f = breach_fields(&csrf, "registrar");
        f[3].1 = shares;
        o.post(
            &format!("/adjudicaciones/{adjudication}/incumplimiento"),
            &f,
        )
        .status
    };
    assert_eq!(b(&mut o, 1, "1.000"), 303);
    assert_eq!(b(&mut o, 2, "500"), 303);
    let void = o.post(
        "/incumplimientos/2/anular",
        &[("csrf", &csrf), ("void_reason", "Registrado por error")],
    );
    assert_eq!(void.status, 303, "{}", void.text());
    let list = section(&o.get("/").text());
    let one = list
        .find("<a href=\"/incumplimientos/1\">Incumplimiento 1</a>")
        .unwrap_or_else(|| panic!("breach 1 not linked: {list}"));
    let two = list
        .find("<a href=\"/incumplimientos/2\">Incumplimiento 2</a>")
        .unwrap_or_else(|| panic!("breach 2 not linked: {list}"));
    assert!(two < one, "the newest first: {list}");
    assert!(
        list.contains(
            "<a href=\"/titulares/1\">Ana Prueba</a> (<span class=\"ident\">CC 1000000001</span>)"
        ) && list.contains(
            "<a href=\"/titulares/2\">Luis Prueba</a> (<span class=\"ident\">CC 1000000002</span>)"
        ),
        "{list}"
    );
    // the voided one marked as the breach page marks it; the other one in force
    let row2 = &list[list[..two].rfind("<tr").unwrap()..one];
    assert!(
        row2.starts_with("<tr class=\"anulado\">") && row2.contains(">ANULADO<"),
        "{row2}"
    );
    assert!(list.contains("Los 2, el más reciente primero"), "{list}");
    // the link leads to the breach's page
    let page = o.get("/incumplimientos/1");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<h1>Incumplimiento 1</h1>"));
}

#[test]
fn a_voided_payment_stays_in_the_holders_history_struck_through_with_its_void() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&csrf, "registrar")
        )
        .status,
        303
    );
    for (on, amount) in [("15/12/2024", "500.000"), ("16/12/2024", "20.000")] {
        let paid = o.post(
            "/incumplimientos/1/pagos",
            &[
                ("csrf", csrf.as_str()),
                ("payment_date", on),
                ("payment_amount", amount),
                ("reference", ""),
            ],
        );
        assert_eq!(paid.status, 303, "{}", paid.text());
    }
    let void = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &csrf), ("void_reason", "Era de otro titular")],
    );
    assert_eq!(void.status, 303, "{}", void.text());
    let page = o.get("/titulares/1").text();
    let history = &page[page.find("<h2>Historia</h2>").unwrap()..];
    let table = &history[history.find("id=\"historia-tabla\"").unwrap()..];
    // payment 1, voided: its row struck through, who voided it, when and why beside it
    let at = table
        .find("Pago 1 de $\u{a0}500.000 (incumplimiento 1)")
        .unwrap_or_else(|| panic!("the voided payment is missing: {table}"));
    let row = &table[table[..at].rfind("<tr").unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(
        row.starts_with("<tr class=\"anulado\"><td>15/12/2024</td>"),
        "{row}"
    );
    assert!(
        row.contains("<del><a href=\"/incumplimientos/1\">Pago 1 de $\u{a0}500.000")
            && row.contains("ANULADO ")
            && row.contains(" por oscar: Era de otro titular"),
        "{row}"
    );
    // payment 2, in force: as before, neither struck nor marked
    let at = table.find("Pago 2 de $\u{a0}20.000").unwrap();
    let row = &table[table[..at].rfind("<tr").unwrap()..at];
    assert_eq!(
        row,
        "<tr><td>16/12/2024</td><td><a href=\"/incumplimientos/1\">"
    );
    // the picture marks it too, as voided
    assert!(
        history.contains(": Pago 1 de $\u{a0}500.000 (incumplimiento 1) (ANULADO)</title>"),
        "{history}"
    );
}

/// The names of the holders a holders' list shows, in its order, with the ids they link to.
fn listed(page: &str) -> Vec<(String, String)> {
    let table = &page[page.find("<table class=\"titulares\">").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    table
        .split("<a href=\"/titulares/")
        .skip(1)
        .map(|s| {
            let (id, rest) = s.split_once("\">").unwrap();
            (
                rest[..rest.find("</a>").unwrap()].to_string(),
                id.to_string(),
            )
        })
        .collect()
}

#[test]
fn the_holders_are_listed_by_name_fifty_a_page_without_a_search() {
    let r = crate::common::Reg::new();
    crate::web::add_user(&r, "carla", "consulta");
    // 60 holders imported from the last to the first: «titular 60» gets id 1, «Titular 01» id
    // 60; the names alternate their case, so an order by bytes or by id would differ from the
    // register's (letter case ignored); two names differ only in case, listed by id
    let mut csv = crate::common::HEADER.to_string();
    for i in (1..=60).rev() {
        let name = if i % 2 == 0 { "titular" } else { "Titular" };
        csv.push_str(&format!(
            "CC,{},{name} {i:02},natural,trabajador,10,,2024-03-15,,\n",
            2_000_000_000u64 + i
        ));
    }
    csv.push_str("CC,3000000001,zoe final,natural,trabajador,10,,2024-03-15,,\n");
    csv.push_str("CC,3000000002,ZOE FINAL,natural,trabajador,10,,2024-03-15,,\n");
    let path = r.file("titulares.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let first = c.get("/titulares").text();
    let names = listed(&first);
    let want: Vec<String> = (1..=50)
        .map(|i| format!("{} {i:02}", if i % 2 == 0 { "titular" } else { "Titular" }))
        .collect();
    assert_eq!(
        names.iter().map(|n| n.0.clone()).collect::<Vec<_>>(),
        want,
        "{first}"
    );
    // «Titular 01» was imported last: id 60
    assert_eq!(names[0].1, "60");
    let next = first
        .split("href=\"/titulares?despues=")
        .nth(1)
        .and_then(|s| s.split_once('"'))
        .map(|(id, rest)| (id.to_string(), rest.to_string()))
        .unwrap_or_else(|| panic!("no «Siguiente»: {first}"));
    assert!(next.1.contains(">Siguiente</a>"), "{first}");
    assert_eq!(
        next.0, names[49].1,
        "the next page follows the last one shown"
    );
    assert!(!first.contains(">Primera página<"), "{first}");
    let second = c.get(&format!("/titulares?despues={}", next.0)).text();
    let mut want: Vec<String> = (51..=60)
        .map(|i| format!("{} {i:02}", if i % 2 == 0 { "titular" } else { "Titular" }))
        .collect();
    want.extend(["zoe final".to_string(), "ZOE FINAL".to_string()]);
    let names = listed(&second);
    assert_eq!(
        names.iter().map(|n| n.0.clone()).collect::<Vec<_>>(),
        want,
        "{second}"
    );
    assert_eq!((names[10].1.as_str(), names[11].1.as_str()), ("61", "62"));
    assert!(
        second.contains("<a href=\"/titulares\">Primera página</a>")
            && !second.contains(">Siguiente<"),
        "{second}"
    );
    // a search still finds, and lists only what it finds
    let found = listed(&c.get("/titulares?q=zoe").text());
    assert_eq!(found.len(), 2, "{found:?}");
    // a page after a number that is none is refused, in Spanish
    let bad = c.get("/titulares?despues=x");
    assert_eq!(bad.status, 400);
    assert!(
        bad.text().contains("no es un número de titular"),
        "{}",
        bad.text()
    );
}

/// `offer adjudicate`'s Spanish table ends with what each rejection cause its rows name means:
/// the acta's words with their article (the acta's «Causales de rechazo» says the same); the
/// English table keeps the codes alone.
#[test]
fn the_offer_tables_causes_are_explained_in_spanish_as_the_acta_words_them() {
    let r = crate::offering::offer("floor-leftover-to-smallest");
    let args = [
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--dry-run",
    ];
    let es = crate::common::out(&r.with_locale(&[("VIGIA_LANG", "es")], &args));
    // the six causes of the worked example's rows, in the catalogue's order; FORM_DEFECT,
    // which no row has, not listed (Decreto 3939 de 2004 art. 12 and arts. 7 and 8)
    // (the lines under the table's last row)
    let lines: Vec<&str> = es.lines().collect();
    let rows_end = lines.iter().rposition(|l| l.contains(" | ")).unwrap();
    let legend = &lines[rows_end + 1..];
    let want = [
        "LATE: presentada por fuera del plazo de la oferta (art. 12, par. 1.º, ii)",
        "NOT_ELIGIBLE: el aceptante no tiene la calidad de destinatario de las condiciones \
         especiales (arts. 3 y 12, par. 1.º, iii)",
        "NO_DECLARATIONS: sin la declaración juramentada ni la manifestación irrevocable (art. 7, \
         num. 5; art. 8, num. 4)",
        "INFO_NOT_SUPPLIED: la información solicitada no fue suministrada oportunamente (art. 12, \
         par. 1.º, iv)",
        "PRICE_NOT_PAID: no se pagó el valor de las acciones",
        "REFUSED_REDUCTION: no aceptó la reducción y la demanda superó la oferta (art. 12, num. 2)",
    ];
    assert_eq!(legend, want, "{es}");
    // English keeps the codes only
    let en = r.ok(&args);
    assert!(
        en.contains("| LATE") && !en.contains("presentada por fuera"),
        "{en}"
    );
    // the acta words each cause the same
    r.ok(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        "acta.md",
    ]);
    let acta = std::fs::read_to_string(r.dir.path().join("acta.md")).unwrap();
    for line in want {
        let (code, words) = line.split_once(": ").unwrap();
        assert!(
            acta.lines().any(|l| l.contains(code) && l.contains(words)),
            "{code} in the acta: {acta}"
        );
    }
}

/// A holder's page offers only what the register would do: an adjudication with a breach
/// recorded against it is not voided (the page says why, in the words the refusal would use),
/// and once the breach is voided its void is offered; a pledge is not offered on shares all
/// pledged, and is once the pledge is released.
#[test]
fn the_holders_page_offers_only_the_corrections_the_register_would_make() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("action=\"/adjudicaciones/1/anular\"")
            && page.contains("action=\"/adjudicaciones/1/prendas\""),
        "{page}"
    );
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&csrf, "registrar")
        )
        .status,
        303
    );
    let page = o.get("/titulares/1").text();
    let why = "tiene registrado el incumplimiento N.º 1 (venta o negociación de las acciones del \
               20/11/2024); si se registró por error, anúlelo primero";
    assert!(
        !page.contains("action=\"/adjudicaciones/1/anular\"")
            && page.contains(&format!(
                "<p class=\"nota\" id=\"no-anulable-adjudicacion-1\">No puede anularse: {why}.</p>"
            )),
        "{page}"
    );
    // the page's reason is the register's: a void sent anyway (a page left open) is refused
    // with it, beside the form shown again with what was typed
    let before = r.dump();
    let refused = o.post(
        "/adjudicaciones/1/anular",
        &[("csrf", &csrf), ("void_reason", "Mal importada")],
    );
    assert_eq!(refused.status, 422);
    let t = refused.text();
    assert!(
        t.contains(why)
            && t.contains("id=\"motivo-adjudicacion-1-error\"")
            && t.contains("value=\"Mal importada\""),
        "{t}"
    );
    assert_eq!(r.dump(), before, "nothing was written");
    // the breach voided: the adjudication's void is offered again
    let void = o.post(
        "/incumplimientos/1/anular",
        &[("csrf", &csrf), ("void_reason", "Registrado por error")],
    );
    assert_eq!(void.status, 303, "{}", void.text());
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("action=\"/adjudicaciones/1/anular\"")
            && !page.contains("no-anulable-adjudicacion-1"),
        "{page}"
    );
    // Luis's 2.500 shares pledged whole (in grade 2, to his lender's financing): no pledge form
    r.ok(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    let page = o.get("/titulares/2").text();
    assert!(
        !page.contains("action=\"/adjudicaciones/2/prendas\"")
            && page.contains(
                "id=\"no-prenda-2\">No se registra otra prenda: la adjudicación N.º 2 \
                              ya tiene vigente la prenda N.º 1"
            ),
        "{page}"
    );
}

/// An adjudication whose every share is in a breach already recorded admits no other breach: the
/// holder's page says so where it offered «Registrar incumplimiento», the form's page says so
/// instead of the form, and a form sent anyway is refused with the same words (the register's
/// `record_blocked`).
#[test]
fn an_adjudication_with_every_share_breached_offers_no_other_breach() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let link = "href=\"/adjudicaciones/1/incumplimiento\"";
    assert!(o.get("/titulares/1").text().contains(link));
    // Ana's adjudication 1 has 1.000 shares: a breach of 1.000 covers them all
    let mut f = breach_fields(&csrf, "registrar");
    f[3].1 = "1.000";
    assert_eq!(o.post("/adjudicaciones/1/incumplimiento", &f).status, 303);
    // (a sentence of its own on the form's page: it starts with a capital there)
    let said = "odas las acciones de la adjudicación N.º 1 (1.000) ya están en incumplimientos \
                registrados: no queda ninguna por la cual registrar otro";
    let holder = o.get("/titulares/1").text();
    assert!(!holder.contains(link) && holder.contains(said), "{holder}");
    let form = o.get("/adjudicaciones/1/incumplimiento").text();
    assert!(
        form.contains(said)
            && !form.contains("<form method=\"post\" action=\"/adjudicaciones/1/incumplimiento\""),
        "{form}"
    );
    let mut f = breach_fields(&csrf, "registrar");
    f[3].1 = "1";
    let again = o.post("/adjudicaciones/1/incumplimiento", &f);
    assert_eq!(again.status, 422);
    assert!(again.text().contains(said), "{}", again.text());
}
