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
