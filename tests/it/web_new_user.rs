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
