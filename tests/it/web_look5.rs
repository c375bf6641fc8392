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
