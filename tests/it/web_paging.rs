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
    const NAME: &str = "<td data-label=\"Nombre\">";
    page.match_indices(&format!("{NAME}Persona "))
        .map(|(i, _)| page[i + NAME.len()..i + NAME.len() + 11].to_string())
        .collect()
}

/// The next page's address, if the page links one.
fn next(page: &str) -> Option<String> {
    let i = page.find("id=\"siguientes\" href=\"")? + 22;
    Some(page[i..i + page[i..].find('"')?].replace("&amp;", "&"))
}

/// Every page from `start` on, following the link `next` finds on each to the next: the rows
/// `rows` finds on them, in order, and how many each page held.
fn walk(
    c: &mut Client<'_>,
    start: &str,
    rows: fn(&str) -> Vec<String>,
    next: fn(&str) -> Option<String>,
) -> (Vec<String>, Vec<usize>) {
    let (mut seen, mut sizes, mut at) = (Vec::new(), Vec::new(), start.to_string());
    loop {
        let p = c.get(&at);
        assert_eq!(p.status, 200, "{}", p.text());
        let t = p.text();
        let here = rows(&t);
        sizes.push(here.len());
        seen.extend(here);
        match next(&t) {
            Some(n) => at = n,
            None => return (seen, sizes),
        }
    }
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
    let (seen, sizes) = walk(&mut c, OFFER, persons, next);
    assert_eq!(sizes, [200, 200, 50]);
    let want: Vec<String> = (0..450).map(|k| format!("Persona {k:03}")).collect();
    assert_eq!(seen, want);
    // the link counts the rows the next page holds: 200, then the 50 left, and one alone; each
    // page says where it starts and ends (counted in the register: the address has only a key)
    let first = c.get(OFFER).text();
    assert!(first.contains(">Siguientes 200 →<"), "{first}");
    assert!(
        first.contains("<caption>Personas 1 a 200 de 450</caption>"),
        "{first}"
    );
    let second = c.get(&next(&first).expect("a second page")).text();
    assert!(
        second.contains(">Siguientes 50 →<") && !second.contains("Siguientes 200"),
        "{second}"
    );
    assert!(
        second.contains("<caption>Personas 201 a 400 de 450</caption>"),
        "{second}"
    );
    let third = c.get(&next(&second).expect("a third page")).text();
    assert!(third.contains("Personas 401 a 450 de 450"), "{third}");
    let (first_id, last): (i64, i64) = r
        .conn()
        .query_row("SELECT min(id), max(id) FROM offering_outcomes", [], |x| {
            Ok((x.get(0)?, x.get(1)?))
        })
        .unwrap();
    // after the 249th row (450 − 201): rows 250 to 449, one left
    let one_left = c.get(&format!("{OFFER}?desde={}", last - 201)).text();
    assert!(one_left.contains(">Siguiente →<"), "{one_left}");
    assert!(one_left.contains("Personas 250 a 449 de 450"), "{one_left}");
    // a place past the end shows none and says so, with the way back
    let past = c.get(&format!("{OFFER}?desde={}", last + 9999)).text();
    assert!(persons(&past).is_empty(), "{past}");
    assert!(
        past.contains("Ninguna persona en esta página: la tabla tiene 450.")
            && past.contains("Desde el principio"),
        "{past}"
    );

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
    // 450 − 9 = 441 adjudicated: the second page holds the 201st to the 400th
    assert!(p.contains("Personas 201 a 400 de 441"), "{p}");
    // a key the filter's pages never send (Persona 049's, rejected) still gives the true place:
    // the 49 adjudicated up to it (0 to 48), then the 50th on
    let p = c
        .get(&format!(
            "{OFFER}?resultado=adjudicada&desde={}",
            first_id + 49
        ))
        .text();
    assert_eq!(persons(&p).first().map(String::as_str), Some("Persona 050"));
    assert!(p.contains("Personas 50 a 249 de 441"), "{p}");
    // a filter no page sends
    assert_eq!(c.get(&format!("{OFFER}?resultado=todas")).status, 400);
}

/// A stage's proposals paged in the order of their evaluation (issue 23 items 4 and 5: a
/// national stage has a million): `?tramo=` and `?desde=` the place a page starts at, at most 200
/// proposals a page, the next page linked while proposals remain, the tranche's count on each.
#[test]
fn a_stage_s_proposals_are_paged_in_the_order_of_the_evaluation() {
    use crate::stages::{BLOCK, import, second_stage};
    const STAGE: &str = "/programas/D3939-2004/etapas/2";
    let r = second_stage();
    add_user(&r, "carla", "consulta");
    // 450 proposals for the whole block at distinct prices, term 0 (its value is its price);
    // 1 of every 50 without its funds accredited: rejected
    let lines: Vec<String> = (0..450u32)
        .map(|k| {
            let funds = if k % 50 == 49 { "no" } else { "si" };
            format!(
                "P-{k:03},2024-06-10,CC:{}:Proponente {k},,{BLOCK},{},0,500000000,{funds},\n",
                1_000_000_000 + k,
                2000 + k
            )
        })
        .collect();
    import(&r, "2", &lines);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let references = |page: &str| -> Vec<String> {
        let cell = "<td data-label=\"Propuesta\">";
        page.match_indices(&format!("{cell}P-"))
            .map(|(i, _)| page[i + cell.len()..i + cell.len() + 5].to_string())
            .collect()
    };
    let next = |page: &str| -> Option<String> {
        let i = page.find("class=\"siguientes\" href=\"")? + 25;
        Some(page[i..i + page[i..].find('"')?].replace("&amp;", "&"))
    };
    // the valid by price, highest first; then the rejected as filed
    let want: Vec<String> = (0..450)
        .rev()
        .filter(|k| k % 50 != 49)
        .chain((0..450).filter(|k| k % 50 == 49))
        .map(|k| format!("P-{k:03}"))
        .collect();
    let (seen, sizes) = walk(&mut c, STAGE, references, next);
    assert_eq!(sizes, [200, 200, 50]);
    assert_eq!(seen, want);
    // page 2 as its link names it: places 201 to 400, a link back to the first page
    let second = c.get(&format!("{STAGE}?tramo=1&desde=200")).text();
    assert!(
        second.contains(
            "Propuestas 201 a 400 de 450, por puesto; las rechazadas, al final y en el orden en \
             que se radicaron."
        ),
        "{second}"
    );
    assert_eq!(references(&second), want[200..400]);
    assert!(second.contains(&format!(
        "href=\"{STAGE}?tramo=1&amp;desde=0#tramo-1\">Desde el principio"
    )));
    // the first page has no link back; the standing is the tranche's whatever the page
    let first = c.get(STAGE).text();
    assert!(first.contains("Propuestas 1 a 200 de 450"), "{first}");
    // the link counts the proposals the next page holds: 200, then the 50 left, and one alone
    assert!(first.contains(">Siguientes 200 →<"), "{first}");
    assert!(
        second.contains(">Siguientes 50 →<") && !second.contains("Siguientes 200"),
        "{second}"
    );
    let one_left = c.get(&format!("{STAGE}?tramo=1&desde=249")).text();
    assert!(one_left.contains(">Siguiente →<"), "{one_left}");
    assert!(!first.contains("Desde el principio"));
    for page in [&first, &second] {
        assert!(
            page.contains("Gana la propuesta <strong>P-448</strong>"),
            "{page}"
        );
    }
    // another tranche number shows the first page; a place past the end, none
    assert_eq!(
        references(&c.get(&format!("{STAGE}?tramo=2&desde=200")).text()),
        want[..200]
    );
    // a place past the end shows none, however far (the largest `desde` the address takes too)
    for desde in [900, u64::MAX] {
        let past = c.get(&format!("{STAGE}?tramo=1&desde={desde}"));
        assert_eq!(past.status, 200, "{desde}: {}", past.text());
        let past = past.text();
        assert!(references(&past).is_empty());
        assert!(
            past.contains("Ninguna propuesta en esta página: el tramo tiene 450."),
            "{past}"
        );
        assert!(past.contains("Desde el principio"), "{past}");
    }
}

/// A tranche on one page says how many proposals it shows, in Spanish: one is «Una propuesta»
/// (it read «1 propuestas»), more are counted and said to be by place.
#[test]
fn a_tranche_on_one_page_counts_its_proposals_in_spanish() {
    use crate::stages::{import, line, second_stage};
    const STAGE: &str = "/programas/D3939-2004/etapas/2";
    let r = second_stage();
    add_user(&r, "carla", "consulta");
    import(&r, "2", &[line("P-1", "CC:1000000101:Una", "1100", 0)]);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get(STAGE).text();
    assert!(
        t.contains("<p class=\"paginado\">Una propuesta.</p>"),
        "{t}"
    );
    drop(c);
    drop(s);
    import(
        &r,
        "2",
        &[
            line("P-2", "CC:1000000102:Dos", "1200", 0),
            line("P-3", "CC:1000000103:Tres", "900", 0),
        ],
    );
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get(STAGE).text();
    assert!(
        t.contains(
            "<p class=\"paginado\">3 propuestas, por puesto; las rechazadas, al final y en el \
             orden en que se radicaron.</p>"
        ),
        "{t}"
    );
}
