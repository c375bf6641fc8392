//! The offering's stored adjudication paged by keyset (issue 22, item 2: a table over a million
//! rows): `?desde=` the row after which a page starts, `?resultado=` one status; each page at most
//! 200 rows, in filing order, the next page's link while rows remain.

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Server, add_user};

const OFFER: &str = "/programas/D3939-2004/oferta";

/// 450 workers accept 1.000 shares each, filed a minute apart; 1 of every 50 files no
/// declaration of the rules (Art. 9): rejected.
fn adjudicated() -> Reg {
    let r = Reg::new();
    let mut csv = String::from(
        "Fecha radicación;Tipo documento;Número documento;Nombre;Tipo persona;Categoría;Acciones;Acepta reducción;Declara renta;Patrimonio líquido;Ingresos;Es directivo;Salario anual;Límite de inversión;Patrimonio ajustado;Declaraciones;Desvinculado con justa causa;Revisión;Acreedor;Acciones financiadas\n",
    );
    for k in 0..450u32 {
        let declares = if k % 50 == 49 { "no" } else { "sí" };
        csv.push_str(&format!(
            "10/01/2024 {:02}:{:02};CC;{};Persona {k:03};Natural;Trabajador;1.000;;sí;60.000.000;;;;;;{declares};;;;\n",
            8 + k / 60,
            k % 60,
            1_000_000_000 + u64::from(k)
        ));
    }
    let acc = r.file("acc.csv", csv.as_bytes());
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-02",
        "--closes",
        "2024-03-08",
        "--reason",
        "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)",
    ]);
    r.ok(&["acceptances", "import", &acc, "--program", "D3939-2004"]);
    r.ok(&["offer", "adjudicate", "D3939-2004", "--on", "2024-03-15"]);
    add_user(&r, "carla", "consulta");
    r
}

/// The persons of a page's table, in order (their names).
fn persons(page: &str) -> Vec<String> {
    page.match_indices("<td>Persona ")
        .map(|(i, _)| page[i + 4..i + 15].to_string())
        .collect()
}

/// The next page's address, if the page links one.
fn next(page: &str) -> Option<String> {
    let i = page.find("id=\"siguientes\" href=\"")? + 22;
    Some(page[i..i + page[i..].find('"')?].replace("&amp;", "&"))
}

#[test]
fn the_stored_adjudication_is_paged_by_keyset_and_filtered_by_result() {
    let r = adjudicated();
    let rejected: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM offering_outcomes WHERE status = 'rejected'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    // 9 of the 450 filed no declaration (k = 49, 99, ..., 449)
    assert_eq!(rejected, 9);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);

    // three pages of 200, 200 and 50 persons in filing order, each linking the next
    let mut seen = Vec::new();
    let mut at = OFFER.to_string();
    let mut sizes = Vec::new();
    loop {
        let p = c.get(&at);
        assert_eq!(p.status, 200, "{}", p.text());
        let t = p.text();
        let here = persons(&t);
        sizes.push(here.len());
        seen.extend(here);
        match next(&t) {
            Some(n) => at = n,
            None => break,
        }
    }
    assert_eq!(sizes, [200, 200, 50]);
    let want: Vec<String> = (0..450).map(|k| format!("Persona {k:03}")).collect();
    assert_eq!(seen, want);
    assert!(c.get(OFFER).text().contains("200 personas de 450"));

    // only the rejected: the nine, on one page, without a next link
    let p = c.get(&format!("{OFFER}?resultado=rechazada")).text();
    let want: Vec<String> = (0..450)
        .filter(|k| k % 50 == 49)
        .map(|k| format!("Persona {k:03}"))
        .collect();
    assert_eq!(persons(&p), want);
    assert!(next(&p).is_none());
    // the adjudicated, from its second page on: the filter is kept in the link
    let first = c.get(&format!("{OFFER}?resultado=adjudicada")).text();
    let second = next(&first).expect("a second page of adjudicated persons");
    assert!(second.contains("resultado=adjudicada"), "{second}");
    let p = c.get(&second).text();
    // the first page held persons 0..=203 but the four rejected among them (49, 99, 149, 199)
    assert_eq!(persons(&p).first().map(String::as_str), Some("Persona 204"));
    // a filter no page sends
    assert_eq!(c.get(&format!("{OFFER}?resultado=todas")).status, 400);
}
