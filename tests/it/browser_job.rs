//! The whole job in a real browser (issue 22's "done when"): headless Chromium over WebDriver
//! (`browser.rs`'s driver) runs a program's life entirely through the pages, at a laptop's
//! width (1366 px) and a phone's (390 px): the first-stage offer opened, the acceptances
//! uploaded and reviewed, the adjudication's dry run and its confirmation, the acta downloaded;
//! the Second Stage's tranche, proposals, evaluation and adjudication, its acta downloaded; then
//! a breach recorded, liquidated, noticed and paid, its paz y salvo issued and downloaded. Only
//! the register's setup (init, the program, the letterhead, the accounts) uses the command line;
//! the command line then verifies each downloaded document against the register. Every page
//! visited is checked to be no wider than the window.
//!
//! The figures asserted are worked out below by hand from SPEC.md and the files uploaded.

use crate::browser::Driver;
use crate::common::Reg;
use crate::web::{Server, add_user};
use std::path::Path;

const PROGRAM: &str = "/programas/D3939-2004";
const STAGE: &str = "/programas/D3939-2004/etapas/2";
const REASON: &str = "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)";

/// Four acceptances of the shipped program (Decreto 3939 de 2004: 12,960,982 shares at $ 963;
/// the offer open from 02/01/2024 to 08/03/2024):
/// - Ana (an employee filing a tax return, patrimonio líquido 60,000,000): Art. 7 num. 1 caps
///   her at 3 × 60,000,000 / 963 = 186,915.88 → 186,915 shares; she asks 1,000 and gets them;
/// - Luis (a pensioner who files none, income 12,000,000): Art. 7 num. 2, 3 × 12,000,000 / 963 =
///   37,383.17 → 37,383; he asks 2,500 and gets them;
/// - Carmen (an employee who files none, income 10,000,000): 3 × 10,000,000 / 963 = 31,152.65 →
///   31,152; she asks 50,000, which is taken as 31,152;
/// - Pedro files on 11/03/2024, after the close: rejected as late.
///
/// Demand 1,000 + 2,500 + 31,152 = 34,652 < 12,960,982: no proration, every valid acceptance
/// gets what was admitted, and 12,960,982 − 34,652 = 12,926,330 shares pass to the Second Stage.
const ACCEPTANCES: &str = "\
filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,files_tax_return,patrimonio_liquido,income,investment_limit,patrimonio_ajustado,declarations,review,lender,financed_shares
2024-01-10 09:15,CC,1000000001,Ana Prueba Gómez,natural,trabajador,1000,,si,60000000,,,,si,,,
2024-01-11 10:40,CC,1000000002,Luis Prueba Rojas,natural,pensionado,2500,,no,,12000000,,,si,,,
2024-01-12 08:05,CC,1000000004,Carmen Prueba Díaz,natural,trabajador,50000,,no,,10000000,,,si,,,
2024-03-11 16:00,CC,1000000006,Pedro Tardío Ruiz,natural,trabajador,400,,si,60000000,,,,si,,,
";

/// Two proposals for the whole leftover, each paying the next banking day (term 0): under the
/// present-value criterion with no term the value is the price itself, so P-2 ($ 1.200) ranks
/// first and P-1 ($ 1.100) second; no tie, no draw.
const PROPOSALS: &str = "\
proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,guarantee,funds_accredited,review
P-1,2024-06-10 10:00,CC:1000000101:Uno Postor (PRUEBA),,12926330,1100,0,500000000,si,
P-2,2024-06-11 09:30,NIT:800191045-1:Inversiones Postoras S.A.S. (PRUEBA),,12926330,1200,0,500000000,si,
";

/// The register's setup by the command line (the only part that is): the shipped program, its
/// letterhead, and one account for each role the job needs.
fn setup() -> Reg {
    let r = Reg::new().with_letterhead();
    for (name, role) in [
        ("oscar", "oficial"),
        ("julia", "juridico"),
        ("adela", "admin"),
    ] {
        add_user(&r, name, role);
    }
    r
}

/// What the `<dd>` after the `<dt>` that says `term` holds (maud writes no space between them).
fn fact<'p>(page: &'p str, term: &str) -> &'p str {
    let open = format!("<dt>{term}</dt><dd");
    let at = page
        .find(&open)
        .unwrap_or_else(|| panic!("no {term:?} in {page}"))
        + open.len();
    let start = at + page[at..].find('>').unwrap() + 1;
    let len = page[start..].find("</dd>").unwrap();
    &page[start..start + len]
}

/// The table row (`<tr>…</tr>`) that contains `needle`.
fn row<'p>(page: &'p str, needle: &str) -> &'p str {
    let at = page
        .find(needle)
        .unwrap_or_else(|| panic!("no {needle:?} in {page}"));
    let start = page[..at].rfind("<tr").unwrap();
    let len = page[start..].find("</tr>").unwrap();
    &page[start..start + len]
}

/// The CLI's verdict on a downloaded document: its standard output, the command having
/// succeeded.
fn verified(r: &Reg, args: &[&str]) -> String {
    let o = r.run(args);
    let out = crate::common::out(&o);
    assert!(
        o.status.success(),
        "{args:?}: {out}{}",
        crate::common::err(&o)
    );
    out
}

fn the_whole_job(width: i64, height: i64) {
    let r = setup();
    let downloads = r.dir.path().join("descargas");
    std::fs::create_dir_all(&downloads).unwrap();
    let Some(d) = Driver::start(&downloads) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is missing: .ci/run installs chromium and chromium-driver"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return;
    };
    d.resize(width, height);
    let inner = d.script("return window.innerWidth").as_i64().unwrap();
    assert!(
        (width - 20..=width).contains(&inner),
        "the window is {inner} px wide, not about {width}"
    );
    let s = Server::start(&r);
    let base = format!("http://{}", s.addr);
    let shots = r.dir.path().to_path_buf();
    // a screenshot of the window with the element `css` at its top
    let shot = |name: &str, css: &str| {
        d.script(&format!(
            "document.querySelector(\"{css}\").scrollIntoView(); return 0"
        ));
        d.screenshot(&shots, &format!("job-{width}-{name}"));
    };
    let csv = |name: &str, text: &str| r.file(name, text.as_bytes());

    // ---------------------------------------------------------------- the first stage
    d.sign_in(&base, "adela");
    d.fits("the dashboard");
    // the programs: each one's cells in view (stacked as cards on a phone), its code whole
    d.go(&format!("{base}/programas"));
    d.wait("</main>");
    d.fits("the programs");
    assert_eq!(
        d.out_of_view("table.programas td"),
        serde_json::json!([]),
        "the programs"
    );
    assert_eq!(d.idents_broken(), serde_json::json!([]), "the programs");
    d.go(&format!("{base}{PROGRAM}/oferta"));
    d.wait("aún no se ha abierto");
    d.fits("the offer before it opens");
    d.type_in("#offer_opens", "02/01/2024");
    d.type_in("#offer_closes", "08/03/2024");
    d.type_in("#validity_reason", REASON);
    d.click(&format!("form[action='{PROGRAM}/oferta'] button"));
    // notice on Tuesday 02/01/2024, counted from the 3rd: two months end on 03/03/2024, a
    // Sunday, so 08/03/2024 is allowed (the CLI's own demo)
    let page = d.wait("Cierre (último día para aceptar)");
    assert_eq!(fact(&page, "Aviso de oferta (apertura)"), "02/01/2024");
    assert_eq!(
        fact(&page, "Cierre (último día para aceptar)"),
        "08/03/2024"
    );
    d.fits("the open offer");

    d.click(&format!("a[href='{PROGRAM}/aceptaciones']"));
    d.wait("</main>");
    d.fits("the acceptances' upload");
    d.type_in("#archivo", &csv("aceptaciones.csv", ACCEPTANCES));
    d.click(&format!("form[action='{PROGRAM}/aceptaciones'] button"));
    let page = d.wait("4 aceptaciones por agregar");
    // the rows as read, before anything is written: Carmen's 50,000 shares as she asked them
    assert!(page.contains("Las filas como se leyeron"), "{page}");
    let carmen = row(&page, "<td><span class=\"ident\">CC 1000000004</span></td>");
    assert!(
        carmen.contains("<td>Carmen Prueba Díaz</td>")
            && carmen.contains("<td class=\"num\">50.000</td>")
            && carmen.contains("<td class=\"num\">$&nbsp;10.000.000</td>"),
        "{carmen}"
    );
    d.fits("the acceptances as read");
    shot("aceptaciones", "main");
    d.click(&format!(
        "form[action='{PROGRAM}/aceptaciones/confirmar'] button"
    ));
    d.wait("4 aceptaciones agregadas");
    d.fits("the acceptances imported");

    // the dry run: nothing adjudicated yet
    d.go(&format!("{base}{PROGRAM}/oferta"));
    d.wait("Adjudicar la oferta");
    d.type_in("#adjudication_date", "15/03/2024");
    d.click("button[value='vista']");
    let page = d.wait("Vista previa (nada se ha adjudicado)");
    assert_eq!(fact(&page, "Acciones ofrecidas"), "12.960.982");
    assert_eq!(fact(&page, "Demanda válida"), "34.652");
    assert_eq!(fact(&page, "Acciones adjudicadas"), "34.652");
    assert_eq!(fact(&page, "Sin adjudicar"), "12.926.330");
    assert_eq!(fact(&page, "Sobredemanda"), "no");
    for (doc, requested, cap, awarded) in [
        ("CC 1000000001", "1.000", "186.915", "1.000"),
        ("CC 1000000002", "2.500", "37.383", "2.500"),
        ("CC 1000000004", "50.000", "31.152", "31.152"),
    ] {
        // each cell carries its column's name, under which a phone shows it
        let tr = row(
            &page,
            &format!("<td data-label=\"Documento\"><span class=\"ident\">{doc}</span></td>"),
        );
        assert!(
            tr.contains(&format!(
                "<td class=\"num\" data-label=\"Acciones pedidas\">{requested}</td>"
            )) && tr.contains(&format!(
                "<td class=\"num\" data-label=\"Tope por persona\">{cap}<br>"
            )) && tr.contains(&format!(
                "<td class=\"num\" data-label=\"Acciones admitidas\">{awarded}</td>\
                 <td class=\"num\" data-label=\"Acciones adjudicadas\">{awarded}</td>"
            )) && tr.contains("<td class=\"resultado\" data-label=\"Resultado\">adjudicada"),
            "{tr}"
        );
    }
    let late = row(
        &page,
        "<td data-label=\"Documento\"><span class=\"ident\">CC 1000000006</span></td>",
    );
    assert!(
        late.contains("rechazada") && late.contains("<code class=\"codigo\">LATE</code>"),
        "{late}"
    );
    // the confirmation names what it does
    assert!(
        page.contains("Al confirmar, la adjudicación del 15/03/2024 se escribe en el registro una sola vez (art. 12): las 34.652 acciones adjudicadas"),
        "{page}"
    );
    d.fits("the adjudication's dry run");
    assert_eq!(d.cut_off(), serde_json::json!([]), "the dry run's persons");
    shot("vista-adjudicacion", "#vista-previa");
    d.click("button[value='adjudicar']");
    let page = d.wait("Adjudicación N.º 1 del 15/03/2024");
    assert!(
        page.contains("Las 12.926.330 acciones sin adjudicar pasan a la"),
        "{page}"
    );
    d.fits("the adjudicated offer");
    assert_eq!(
        d.cut_off(),
        serde_json::json!([]),
        "the adjudication's persons"
    );
    d.click(&format!("a[href='{PROGRAM}/oferta/acta.pdf']"));
    let acta = d.downloaded(&downloads, "acta-D3939-2004-1.pdf");
    assert!(acta.starts_with(b"%PDF-"));
    let path = downloads.join("acta-D3939-2004-1.pdf");
    let out = verified(&r, &["offer", "verify", path.to_str().unwrap()]);
    assert!(
        out.contains(
            "verified: acta of adjudication 1 of D3939-2004 (4 acceptor(s), 34652 shares awarded)"
        ),
        "{out}"
    );

    // ---------------------------------------------------------------- the Second Stage
    d.go(&format!("{base}{STAGE}"));
    d.wait("Abrir el tramo 1");
    d.fits("the Second Stage before its tranche");
    // the tranche offers what the first stage left, as the form proposes
    let shares = d.script("return document.getElementById('shares').value");
    assert_eq!(shares, "12.926.330");
    d.type_in("#stage_opens", "03/06/2024");
    d.type_in("#stage_closes", "14/06/2024");
    d.type_in("#validity_reason", REASON);
    d.click(&format!("form[action='{STAGE}/tramos'] button"));
    let page = d.wait("Importar un archivo de propuestas");
    // the minimum price is the first stage's, $ 963 (Art. 14 a)
    let tr = row(&page, "<td class=\"num\">12.926.330</td>");
    assert!(
        tr.contains("03/06/2024") && tr.contains("14/06/2024") && tr.contains("$&nbsp;963"),
        "{tr}"
    );
    d.fits("the open tranche");
    d.click(&format!("a[href='{STAGE}/propuestas']"));
    d.wait("</main>");
    d.type_in("#archivo", &csv("propuestas.csv", PROPOSALS));
    d.click(&format!("form[action='{STAGE}/propuestas'] button"));
    let page = d.wait("2 propuestas por agregar");
    assert!(
        page.contains("$&nbsp;1.200") && page.contains("$&nbsp;1.100"),
        "{page}"
    );
    d.fits("the proposals as read");
    d.click(&format!(
        "form[action='{STAGE}/propuestas/confirmar'] button"
    ));
    d.wait("2 propuestas agregadas");
    d.go(&format!("{base}{STAGE}"));
    let page = d.wait("Adjudicar la etapa o declararla desierta");
    let first = row(&page, "<td data-label=\"Propuesta\">P-2</td>");
    let second = row(&page, "<td data-label=\"Propuesta\">P-1</td>");
    // the table lists them by place, though P-1 was filed first
    assert!(
        page.find("<td data-label=\"Propuesta\">P-2</td>")
            < page.find("<td data-label=\"Propuesta\">P-1</td>"),
        "{page}"
    );
    // ranked by value (= price: no term to discount): P-2 first and winning, P-1 second
    assert!(
        first.contains("<td class=\"num\" data-label=\"Puesto\">1</td><td data-label=\"Propuesta\">P-2</td>")
            && first.contains("<td class=\"num\" data-label=\"Valor\">$&nbsp;1.200</td><td class=\"resultado\" data-label=\"Resultado\"><strong>ganadora</strong>"),
        "{first}"
    );
    assert!(
        second.contains(
            "<td class=\"num\" data-label=\"Puesto\">2</td><td data-label=\"Propuesta\">P-1</td>"
        ) && second.contains("<td class=\"num\" data-label=\"Valor\">$&nbsp;1.100</td>"),
        "{second}"
    );
    d.fits("the evaluation");
    // each proposal's value and result in view, not past a sideways scroll
    assert_eq!(
        d.out_of_view("table.propuestas td:is(.resultado, [data-label='Valor'])"),
        serde_json::json!([]),
        "the evaluation"
    );
    shot("evaluacion", "table.propuestas");
    d.type_in("#stage_decision_date", "28/06/2024");
    d.click("button[value='vista-adjudicar']");
    // Friday 28/06/2024; Monday 01/07 is a holiday (San Pedro y San Pablo, moved): payment due
    // on Tuesday 02/07/2024 (Art. 14 c); the one tranche's winning price is the stage price
    let page = d.wait("Vista previa (nada se ha escrito)");
    assert!(
        page.contains("02/07/2024")
            && page.contains("<strong>$&nbsp;1.200 por acción</strong>")
            && page.contains("12.926.330 de 12.926.330 acciones a sus ganadores"),
        "{page}"
    );
    d.fits("the stage's dry run");
    d.click("button[value='adjudicar']");
    let page = d.wait("Precio de la Segunda Etapa");
    assert!(
        page.contains("Precio de la Segunda Etapa (registro N.º 1): $&nbsp;1.200 por acción")
            && page.contains("adjudicada el 28/06/2024"),
        "{page}"
    );
    d.fits("the concluded stage");
    assert_eq!(
        d.out_of_view("table.adjudicacion-etapa td"),
        serde_json::json!([]),
        "the stage's awards"
    );
    shot("etapa-adjudicada", "main");
    d.click(&format!("a[href='{STAGE}/acta.pdf']"));
    let acta = d.downloaded(&downloads, "acta-D3939-2004-etapa-2-1.pdf");
    assert!(acta.starts_with(b"%PDF-"));
    let path = downloads.join("acta-D3939-2004-etapa-2-1.pdf");
    let out = verified(&r, &["stage", "verify", path.to_str().unwrap()]);
    assert!(
        out.starts_with("verified: acta of stage 2 of D3939-2004"),
        "{out}"
    );

    // ---------------------------------------------------------------- a breach to its paz y salvo
    d.click("form[action='/salir'] button");
    d.wait("<h1>Ingresar</h1>");
    d.sign_in(&base, "oscar");
    d.type_in("#q", "1.000.000.001");
    d.click("form[action='/titulares'] button");
    d.wait("Ana Prueba Gómez");
    d.fits("the holder search");
    d.click("table.titulares a");
    let page = d.wait("Historia");
    d.fits("the holder's page");
    assert_eq!(
        d.charts_cut(),
        serde_json::json!([]),
        "the holder's history"
    );
    assert_eq!(
        d.idents_broken(),
        serde_json::json!([]),
        "the holder's page"
    );
    assert!(page.contains("15/03/2024"), "{page}");
    d.click("a[href$='/incumplimiento']");
    d.wait("<h1>Registrar incumplimiento</h1>");
    // SPEC §5's worked example on the adjudication of 15/03/2024: a sale on 20/11/2024, in the
    // 75 % bracket (after 15/09/2024, up to 15/03/2025), of 1,000 shares at $ 1.450; the highest
    // of 963 (acquisition), 1,450 (transfer) and 1,200 (the stage just adjudicated) is the
    // transfer's: principal 1,000 × 1,450 × 75 % = 1,087,500
    d.type_in("#breach_date", "20/11/2024");
    d.type_in("#shares", "1.000");
    d.type_in("#consideration_per_share", "1.450");
    d.type_in("#evidence", "contrato de compraventa");
    d.type_in("#until", "10/02/2025");
    d.click("button[value='vista']");
    let page = d.wait("Vista previa (nada se ha registrado)");
    assert!(
        page.contains("$&nbsp;1.087.500") && page.contains("$&nbsp;1.200"),
        "{page}"
    );
    d.fits("the breach's preview");
    d.click("button[value='registrar']");
    d.wait("<h1>Incumplimiento 1</h1>");
    d.fits("the breach");
    d.click("form[action='/salir'] button");
    d.wait("<h1>Ingresar</h1>");

    // the lawyer liquidates to 10/02/2025 and issues the notice
    d.sign_in(&base, "julia");
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("Liquidar y guardar");
    d.type_in("#until", "10/02/2025");
    d.click("form[action$='/liquidar'] button");
    // SPEC §5: 82 days in four pieces, 7,334 + 21,639 + 20,535 + 6,959 = 56,467 of interest;
    // 1,087,500 + 56,467 = 1,143,967
    let page = d.wait("<h1>Liquidación N.º 1</h1>");
    for piece in [
        "$&nbsp;7.334",
        "$&nbsp;21.639",
        "$&nbsp;20.535",
        "$&nbsp;6.959",
        "$&nbsp;56.467",
    ] {
        assert!(page.contains(piece), "{piece} in {page}");
    }
    assert!(page.contains("$&nbsp;1.143.967"), "{page}");
    d.fits("the liquidation");
    shot("liquidacion", "main");
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("Emitir aviso");
    d.type_in("#notice_until", "10/02/2025");
    d.type_in("#notice_date", "10/02/2025");
    d.type_in("#backdate_reason", "fecha del caso de prueba");
    d.click("form[action$='/aviso'] button");
    let page = d.wait("<h1>Aviso <span class=\"ident\">MULTA-2025-0001</span></h1>");
    assert_eq!(
        fact(&page, "Valor cobrado"),
        "<strong>$&nbsp;1.143.967</strong> (liquidado al 10/02/2025)"
    );
    d.fits("the notice");
    assert_eq!(d.idents_broken(), serde_json::json!([]), "the notice");
    // its delivery recorded: each of its cells in view
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-11",
        "--via",
        "personal",
        "--evidence",
        "Acta de entrega firmada",
    ]);
    d.go(&format!("{base}/avisos/1"));
    d.wait("Acta de entrega firmada");
    d.fits("the delivered notice");
    assert_eq!(
        d.out_of_view("table.entregas td"),
        serde_json::json!([]),
        "the delivery"
    );
    d.click("form[action='/salir'] button");
    d.wait("<h1>Ingresar</h1>");

    // the officer records the whole payment on the notice's day: interest first (56,467), then
    // capital (1,087,500): nothing left
    d.sign_in(&base, "oscar");
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("Registrar pago");
    d.type_in("#payment_date", "10/02/2025");
    d.type_in("#payment_amount", "1.143.967");
    d.click("form[action$='/pagos'] button");
    let page = d.wait("Multa pagada");
    assert!(page.contains("$&nbsp;1.143.967"), "{page}");
    // the balance over time on the breach page: the principal on the breach date, each piece's
    // end (SPEC §5's pieces added up: 1,094,834 on 30/11, 1,116,473 on 31/12, 1,137,008 on
    // 31/01, 1,143,967 on 10/02) and the payment that leaves nothing
    let chart = &page[page.find("id=\"saldo\"").expect("the balance picture")..];
    let chart = &chart[..chart.find("</figure>").unwrap()];
    for point in [
        "<title>20/11/2024: $&nbsp;1.087.500</title>",
        "<title>30/11/2024: $&nbsp;1.094.834</title>",
        "<title>31/12/2024: $&nbsp;1.116.473</title>",
        "<title>31/01/2025: $&nbsp;1.137.008</title>",
        "<title>10/02/2025: $&nbsp;1.143.967</title>",
        "<title>10/02/2025: pago de $&nbsp;1.143.967; queda $&nbsp;0</title>",
    ] {
        assert!(chart.contains(point), "{point} in {chart}");
    }
    d.fits("the paid breach");
    d.click("form[action='/salir'] button");
    d.wait("<h1>Ingresar</h1>");

    // the lawyer issues the paz y salvo and downloads it
    d.sign_in(&base, "julia");
    d.go(&format!("{base}/incumplimientos/1"));
    let page = d.wait("Expedir paz y salvo");
    assert!(
        !page.contains("Emitir aviso"),
        "a paid fine is not demanded"
    );
    d.fits("the breach before its paz y salvo");
    d.type_in("#settlement_date", "12/02/2025");
    d.click("form[action$='/paz-y-salvo'] button");
    d.wait("<h1>Paz y salvo <span class=\"ident\">PAZ-2025-0001</span></h1>");
    d.fits("the paz y salvo");
    d.click("a[href='/paz-y-salvo/1/documento/pdf']");
    let pdf = d.downloaded(&downloads, "PAZ-2025-0001.pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    let path = downloads.join("PAZ-2025-0001.pdf");
    let out = verified(&r, &["settlement", "verify", path.to_str().unwrap()]);
    assert!(out.contains("PAZ-2025-0001"), "{out}");
    // after the paz y salvo the breach page offers no write the register would refuse
    d.go(&format!("{base}/incumplimientos/1"));
    let page = d.wait("</main>");
    assert!(
        !page.contains("Anular incumplimiento") && !page.contains("Registrar pago"),
        "{page}"
    );
    d.fits("the settled breach");
    assert_eq!(d.charts_cut(), serde_json::json!([]), "the balance");
    assert_eq!(
        d.idents_broken(),
        serde_json::json!([]),
        "the settled breach"
    );
    shot("paz-y-salvo", "#saldo");
    r.ok(&["audit", "verify"]);
    keep_screenshots(&shots);
}

/// With `VIGIA_KEEP_SCREENSHOTS=DIR`, the run's screenshots are copied there to look at.
fn keep_screenshots(dir: &Path) {
    if let Some(keep) = std::env::var_os("VIGIA_KEEP_SCREENSHOTS") {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "png") {
                let _ = std::fs::copy(e.path(), Path::new(&keep).join(e.file_name()));
            }
        }
    }
}

#[test]
fn a_first_stage_a_second_stage_and_a_breach_to_its_paz_y_salvo_on_a_laptop() {
    the_whole_job(1366, 900);
}

#[test]
fn a_first_stage_a_second_stage_and_a_breach_to_its_paz_y_salvo_on_a_phone() {
    the_whole_job(390, 844);
}
