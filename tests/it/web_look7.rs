//! What the last newcomers' passes left (h-web7): identifiers whole in page titles and in the
//! holder's history, file fields in Spanish without a script, the offer's own dates under their
//! own labels, a program's fine brackets and minimum guarantee in words, the first stage's
//! causes in the program's words, a register-wide finding's card labelled, the holder's last
//! column headed, no empty `class` attribute.

use crate::common::Reg;
use crate::web::*;

/// The `<h1>` of `page`, with its markup.
fn heading(page: &str) -> &str {
    let at = page
        .find("<h1>")
        .unwrap_or_else(|| panic!("no heading: {page}"));
    &page[at..at + page[at..].find("</h1>").unwrap() + 5]
}

const IDENT: &str = "<span class=\"ident\">";

#[test]
fn identifiers_in_page_titles_and_the_holders_history_are_marked_whole() {
    let r = crate::web_letters::register();
    crate::web_letters::issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "julia", PASSWORD);
    // each page's heading marks its identifier; the window's title keeps the plain words
    for (path, title) in [
        ("/avisos/1", "Aviso MULTA-2025-0001"),
        ("/programas/D3939-2004", "Programa D3939-2004"),
        (
            "/programas/D3939-2004/oferta",
            "Oferta de primera etapa del programa D3939-2004",
        ),
        (
            "/programas/D3939-2004/aceptaciones",
            "Aceptaciones de la oferta del programa D3939-2004",
        ),
        (
            "/programas/D3939-2004/etapas/2",
            "Segunda Etapa del programa D3939-2004",
        ),
        (
            "/programas/D3939-2004/cartas",
            "Cartas del programa D3939-2004",
        ),
    ] {
        let page = c.get(path).text();
        let id = title.rsplit(' ').next().unwrap();
        let marked = title.replace(id, &format!("{IDENT}{id}</span>"));
        assert_eq!(heading(&page), format!("<h1>{marked}</h1>"), "{path}");
        assert!(
            page.contains(&format!("<title>{title} — vigia</title>")),
            "{path}: {page}"
        );
    }
    // the holder's history: the program's code and the notice's number inside their sentences
    let holder = c.get("/titulares/1").text();
    let history = &holder[holder.find("id=\"historia-tabla\"").unwrap()..];
    assert!(
        history.contains(&format!("(programa {IDENT}D3939-2004</span>)")),
        "{history}"
    );
    assert!(
        history.contains(&format!("Aviso {IDENT}MULTA-2025-0001</span> (")),
        "{history}"
    );
    // the chart's tooltips (plain text) keep the words as they are
    assert!(holder.contains(": Aviso MULTA-2025-0001 ("), "{holder}");
}

#[test]
fn file_fields_say_elegir_archivo_without_a_script() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut j, _) = Client::signed_in(&s, "julia", PASSWORD);
    for path in ["/importar", "/firma", "/programas/D3939-2004/aceptaciones"] {
        let resp = j.get(path);
        let page = resp.text();
        // a label styled as a button opens the picker; «Ningún archivo elegido» until a file
        // is chosen; the input required, so that the style sheet tells an empty one
        assert!(
            page.contains(
                "<label class=\"boton\" for=\"archivo\" aria-hidden=\"true\">Elegir archivo</label>"
            ) && page.contains(
                "<span class=\"ninguno\" aria-hidden=\"true\">Ningún archivo elegido</span>"
            ),
            "{path}: {page}"
        );
        let input = &page[page.find("<input id=\"archivo\"").unwrap()..];
        let input = &input[..input.find('>').unwrap()];
        assert!(
            input.contains("type=\"file\"") && input.contains("required"),
            "{input}"
        );
        // its form sends without a file all the same: the server refuses in Spanish
        let form = &page[..page.find("<input id=\"archivo\"").unwrap()];
        let form = &form[form.rfind("<form").unwrap()..];
        assert!(form.contains("novalidate"), "{path}: {form}");
        // no script: the CSP allows none
        assert!(!page.contains("<script"), "{path}");
        let csp = resp.header("content-security-policy").unwrap();
        assert!(
            csp.starts_with("default-src 'none';") && !csp.contains("script-src"),
            "{csp}"
        );
    }
    let css = j.get("/estilo.css").text();
    for rule in [
        ".archivo input[type=file]::file-selector-button { display: none; }",
        ".archivo input[type=file]:valid ~ .ninguno { display: none; }",
    ] {
        assert!(css.contains(rule), "{rule}");
    }
}

#[test]
fn the_offer_shows_its_own_dates_and_the_record_apart() {
    let r = register_with_users();
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
        "--reason",
        "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)",
    ]);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let page = c.get("/programas/D3939-2004/oferta").text();
    assert!(
        page.contains(
            "<dt>Aviso de oferta (apertura)</dt><dd>15/01/2024</dd>\
             <dt>Cierre (último día para aceptar)</dt><dd>18/03/2024</dd>\
             <dt>Registrada</dt><dd>"
        ),
        "{page}"
    );
    assert!(!page.contains("<dt>Abierta</dt>"), "{page}");
}

#[test]
fn a_programs_brackets_and_guarantee_are_said_in_words() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let page = c.get("/programas/D3939-2004").text();
    // Decreto 3939 art. 9: 100 % within six months, then 75, 50 and 25 % each six months more
    let tramos = &page[page.find("<table class=\"tramos\">").unwrap()..];
    let tramos = &tramos[..tramos.find("</table>").unwrap()];
    let rows: Vec<&str> = tramos.split("<tr><td>").skip(1).collect();
    let spans: Vec<&str> = rows
        .iter()
        .map(|r| &r[..r.find("</td>").unwrap()])
        .collect();
    assert_eq!(
        spans,
        [
            "hasta 6 meses",
            "6 meses y un día a 12 meses",
            "12 meses y un día a 18 meses",
            "18 meses y un día a 24 meses",
        ]
    );
    // the shipped program's minimum guarantee is "0": a guarantee of any amount (a proposal
    // without one is still rejected, NO_GUARANTEE)
    assert!(
        page.contains("garantía de seriedad de cualquier monto (sin mínimo)")
            && !page.contains("garantía mínima $"),
        "{page}"
    );
}

const SEED_HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,\
accepts_reduction,files_tax_return,patrimonio_liquido,income,income_financial_statements,\
investment_limit,patrimonio_ajustado,declarations,review\n";

/// SEMILLA-001's offer adjudicated on 2024-03-20 with two rejections: one late (a built-in
/// cause the program rewords), one for the program's own OTRA_CAUSAL; `carla` (consulta) and
/// `oscar` (oficial) may sign in.
pub(crate) fn seed_adjudicated() -> Reg {
    let r = Reg::new();
    add_user(&r, "carla", "consulta");
    add_user(&r, "oscar", "oficial");
    r.ok(&["program", "add", "SEMILLA-001"]);
    r.ok(&[
        "offer",
        "open",
        "SEMILLA-001",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
    ]);
    let csv = r.file(
        "acc.csv",
        format!(
            "{SEED_HEADER}2024-03-19,CC,1000000003,Tarde,natural,trabajador,100,,si,1000000000,,,,,si,\n\
             2024-01-19,CC,1000000004,Dora,natural,trabajador,100,,si,1000000000,,,,,si,OTRA_CAUSAL\n"
        )
        .as_bytes(),
    );
    r.ok(&["acceptances", "import", &csv, "--program", "SEMILLA-001"]);
    r.ok(&["offer", "adjudicate", "SEMILLA-001", "--on", "2024-03-20"]);
    r
}

#[test]
fn the_first_stages_causes_are_the_programs_own_words_as_in_the_acta() {
    let r = seed_adjudicated();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let page = c.get("/programas/SEMILLA-001/oferta").text();
    for said in [
        "rechazada: la aceptación se presentó por fuera del plazo de la oferta pública \
         (causal (i) del artículo de adjudicación de la Primera Etapa)",
        "rechazada: otra causal de rechazo establecida en el Reglamento de Primera Etapa \
         (Reglamento de Primera Etapa, causal (v) del artículo de adjudicación)",
    ] {
        assert!(page.contains(said), "{said}: {page}");
    }
    // the acta says the same
    let acta = c.get("/programas/SEMILLA-001/oferta/acta.md").text();
    assert!(
        acta.contains("la aceptación se presentó por fuera del plazo de la oferta pública")
            && acta
                .contains("otra causal de rechazo establecida en el Reglamento de Primera Etapa"),
        "{acta}"
    );
}

#[test]
fn a_register_wide_finding_is_labelled_and_the_holders_columns_headed() {
    let r = crate::check::register_waiting_for_december();
    for (name, role) in [("carla", "consulta"), ("oscar", "oficial")] {
        add_user(&r, name, role);
    }
    let s = Server::start(&r);
    let (mut o, _) = Client::signed_in(&s, "oscar", PASSWORD);
    let page = o.get("/?fecha=01/12/2026").text();
    let table = &page[page.find("<table class=\"hallazgos\">").unwrap()..];
    let first = &table[table.find("<tbody><tr>").unwrap()..];
    let first = &first[..first.find("</tr>").unwrap()];
    // RATE_MISSING about the whole register: its card says whose it is, like the others'
    assert!(first.contains("RATE_<wbr>MISSING"), "{first}");
    assert!(
        first.contains(
            "<td data-label=\"Titular\">ninguno: el hallazgo es de todo el registro</td>\
             <td data-label=\"Adjudicación\"></td>"
        ),
        "{first}"
    );
    // and the count by code leaves its program's cell empty (a phone's card leaves it out)
    assert!(page.contains("<td data-label=\"Programa\"></td>"), "{page}");
    // the holder's adjudications: every column headed, the last one's links included
    let holder = o.get("/titulares/1").text();
    let thead = &holder[holder
        .find("<table class=\"adjudicaciones\"><thead>")
        .unwrap()..];
    let thead = &thead[..thead.find("</thead>").unwrap()];
    assert!(
        thead.ends_with("<th>prendas</th><th>incumplimiento</th></tr>"),
        "{thead}"
    );
    assert!(!thead.contains("<th></th>"), "{thead}");
    // no page writes an empty class (rows not voided, a balance's points not payments)
    for path in [
        "/",
        "/titulares/1",
        "/incumplimientos/1",
        "/liquidaciones/1",
    ] {
        let page = o.get(path).text();
        assert!(!page.contains("class=\"\""), "{path}: {page}");
    }
}
