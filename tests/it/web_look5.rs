//! What a new user's browser pass found (look5, h-web6): the person type worded as in Colombia,
//! identifiers that never break at their hyphens, a fully paid fine's state and actions, a
//! program's page in a web user's words.

use crate::web::*;

/// The row of the holders' table that names `name`, from its `<tr>` to its `</tr>`.
fn row<'a>(page: &'a str, name: &str) -> &'a str {
    let at = page
        .find(&format!(">{name}</a>"))
        .unwrap_or_else(|| panic!("{name} not listed: {page}"));
    let from = page[..at].rfind("<tr").unwrap();
    let to = at + page[at..].find("</tr>").unwrap();
    &page[from..to]
}

#[test]
fn the_holders_list_says_natural_or_juridica() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let page = c.get("/titulares").text();
    let sindicato = row(&page, "Sindicato de Prueba");
    assert!(
        sindicato.contains(">jurídica</td>") && !sindicato.contains("legal"),
        "{sindicato}"
    );
    let ana = row(&page, "Ana Prueba");
    assert!(ana.contains(">natural</td>"), "{ana}");
    // a search lists them the same way
    let found = c.get("/titulares?q=Sindicato").text();
    assert!(
        row(&found, "Sindicato de Prueba").contains(">jurídica</td>"),
        "{found}"
    );
}

#[test]
fn identifiers_are_marked_never_to_break_at_their_hyphens() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let ident = |text: &str| format!("<span class=\"ident\">{text}</span>");
    // the NIT with its check digit, the program's code: each whole in one span
    let page = c.get("/titulares").text();
    assert!(
        row(&page, "Sindicato de Prueba").contains(&ident("NIT 999000001-2")),
        "{page}"
    );
    let holder = c.get("/titulares/3").text();
    assert!(
        holder.contains(&ident("NIT 999000001-2")) && holder.contains(&ident("D3939-2004")),
        "{holder}"
    );
    let programs = c.get("/programas").text();
    assert!(programs.contains(&ident("D3939-2004")), "{programs}");
    // and the style sheet keeps such a span on one line
    let css = c.get("/estilo.css").text();
    assert!(
        css.contains(".ident { white-space: nowrap; overflow-wrap: normal; }"),
        "{css}"
    );
}

#[test]
fn a_fully_paid_fine_says_so_and_offers_only_what_is_left_to_do() {
    let r = crate::web_letters::register();
    crate::web_letters::issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let state = |j: &mut Client<'_>| {
        let page = j.get("/").text();
        let at = page
            .find("<td data-label=\"Estado\">")
            .unwrap_or_else(|| panic!("no state: {page}"));
        page[at..at + page[at..].find("</td>").unwrap()].to_string()
    };
    let vigencia = |page: &str| {
        let at = page.find("<td data-label=\"Vigencia\">").unwrap();
        page[at..at + page[at..].find("</td>").unwrap()].to_string()
    };
    // owed: registered, liquidated on demand, its notice in force
    assert_eq!(state(&mut j), "<td data-label=\"Estado\">registrado");
    let owed = j.get("/incumplimientos/1").text();
    assert!(owed.contains("Liquidar y guardar"), "{owed}");
    assert_eq!(vigencia(&owed), "<td data-label=\"Vigencia\">vigente");
    // SPEC §5's fine paid in full by a second payment (500.000 on 15/12/2024 already recorded)
    let paid = j.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &jcsrf),
            ("payment_date", "10/02/2025"),
            ("payment_amount", "626.823"),
            ("reference", ""),
        ],
    );
    assert_eq!(paid.status, 303, "{}", paid.text());
    assert_eq!(
        state(&mut j),
        "<td data-label=\"Estado\">pagado el 10/02/2025"
    );
    let page = j.get("/incumplimientos/1").text();
    assert!(!page.contains("Liquidar y guardar"), "{page}");
    assert!(
        page.contains(
            "<p id=\"sin-liquidar\">La multa está pagada: no queda saldo que liquidar.</p>"
        ),
        "{page}"
    );
    assert_eq!(
        vigencia(&page),
        "<td data-label=\"Vigencia\">cumplido: multa pagada el 10/02/2025"
    );
    // its paz y salvo named on the dashboard
    let issued = j.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &jcsrf), ("settlement_date", "12/02/2025")],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(
        state(&mut j),
        "<td data-label=\"Estado\">pagado el 10/02/2025; paz y salvo <a href=\"/paz-y-salvo/1\">\
         <span class=\"ident\">PAZ-2025-0001</span></a>"
    );
}

#[test]
fn a_programs_page_speaks_to_a_web_user() {
    let r = register_with_users();
    // the same decree under another code, its first seller's NIT given
    let toml = std::fs::read_to_string(crate::common::PROGRAM)
        .unwrap()
        .replacen("code = \"D3939-2004\"", "code = \"D3939-NIT\"", 1)
        .replacen(
            "name = \"Bancafé\"\n",
            "name = \"Bancafé\"\nnit = \"999000001-2\"\n",
            1,
        );
    let path = r.file("con-nit.toml", toml.as_bytes());
    r.ok(&["program", "add", &path]);
    let s = Server::start(&r);
    let (mut a, _) = Client::signed_in(&s, "adela", PASSWORD);
    let page = a.get("/programas/D3939-2004").text();
    let at = page.find("<dt>Categorías</dt><dd>").unwrap() + "<dt>Categorías</dt><dd>".len();
    let categories = &page[at..at + page[at..].find("</dd>").unwrap()];
    assert_eq!(
        categories,
        "trabajador (i), pensionado (i), extrabajador (ii), asociación de empleados (iii), \
         sindicato (iv), federación de sindicatos (v), fondo de empleados (vi), fondo mutuo de \
         inversión (vii), fondo de cesantías y pensiones (viii), cooperativa (ix), caja de \
         compensación familiar (x)"
    );
    // no seller has a NIT: no NIT column
    let sellers = |page: &str| {
        let at = page.find("<table class=\"vendedores\">").unwrap();
        page[at..at + page[at..].find("</table>").unwrap()].to_string()
    };
    let none = sellers(&page);
    assert!(
        !none.contains("NIT") && none.contains("<td>Bancafé</td><td class=\"num\">12.861.067</td>"),
        "{none}"
    );
    // one has: the column, and «—» for the other
    let one = sellers(&a.get("/programas/D3939-NIT").text());
    assert!(
        one.contains("<th>NIT</th>")
            && one.contains("<td>Bancafé</td><td><span class=\"ident\">999000001-2</span></td>")
            && one.contains("<td>Granahorrar Banco Comercial S.A.</td><td>—</td>"),
        "{one}"
    );
    // the programs' list does not send a web user to a path in vigia's sources
    let list = a.get("/programas").text();
    assert!(
        list.contains("Registrar un programa") && !list.contains("schema/"),
        "{list}"
    );
}
