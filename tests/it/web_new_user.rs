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
        list.contains("<a href=\"/titulares/1\">Ana Prueba</a> (CC 1000000001)")
            && list.contains("<a href=\"/titulares/2\">Luis Prueba</a> (CC 1000000002)"),
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
