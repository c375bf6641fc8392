//! h-web7's fixes in a real browser (`browser::Driver`), on a phone (390 px) and a laptop
//! (1366 px): the identifiers of a page's title and of the holder's history on one line each,
//! the file fields in Spanish (the native «Choose File» hidden, «Elegir archivo» and «Ningún
//! archivo elegido», then the chosen file's name), the offer's «Resultado» at a readable width.

use crate::browser::Driver;
use crate::web::Server;
use serde_json::json;

/// Whether `css`'s first element is drawn (not `display: none`, wider than a pixel).
fn shown(d: &Driver, css: &str) -> bool {
    d.script(&format!(
        "const e = document.querySelector({css:?}); \
         return !!e && e.getClientRects().length > 0 && e.getBoundingClientRect().width > 1"
    ))
    .as_bool()
    .unwrap()
}

#[test]
fn titles_histories_file_fields_and_results_read_whole_on_a_phone_and_a_laptop() {
    let r = crate::web_letters::register();
    crate::web_letters::issue_first_notice(&r);
    let seed = crate::web_look7::seed_adjudicated();
    let dir = r.dir.path().to_path_buf();
    let Some(d) = Driver::start(&dir.join("descargas")) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is missing: .ci/run installs chromium and chromium-driver"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return;
    };
    let file = r.file("un-archivo-de-adjudicaciones.csv", b"x\n");
    let s = Server::start(&r);
    let base = format!("http://{}", s.addr);
    d.sign_in(&base, "oscar");
    for (width, height) in [(390, 844), (1366, 900)] {
        d.resize(width, height);
        let at = |path: &str| format!("{path} at {width} px");
        // the offer's and the notice's titles: their identifier in the heading, on one line
        for (path, id) in [
            ("/programas/D3939-2004/oferta", "D3939-2004"),
            ("/avisos/1", "MULTA-2025-0001"),
        ] {
            d.go(&format!("{base}{path}"));
            d.wait("</main>");
            d.fits(&at(path));
            assert_eq!(
                d.script("return [...document.querySelectorAll('h1 .ident')].map(e => [e.textContent, e.getClientRects().length])"),
                json!([[id, 1]]),
                "{}",
                at(path)
            );
        }
        // the holder's history: each number and code inside its sentence on one line
        d.go(&format!("{base}/titulares/1"));
        d.wait("</main>");
        d.fits(&at("/titulares/1"));
        let idents = d.script(
            "return [...document.querySelectorAll('#historia-tabla .ident')].map(e => e.textContent)",
        );
        assert!(
            idents
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i == "MULTA-2025-0001"),
            "{idents}"
        );
        assert_eq!(d.idents_broken(), json!([]), "{}", at("/titulares/1"));
        // a file field: the button and the words in Spanish, the native control out of sight
        // until a file is chosen, then its name (the browser's own text) instead of the words
        d.go(&format!("{base}/importar"));
        d.wait("</main>");
        d.fits(&at("/importar"));
        assert!(shown(&d, ".archivo label.boton"), "{}", at("/importar"));
        assert!(shown(&d, ".archivo .ninguno"), "{}", at("/importar"));
        assert!(!shown(&d, "#archivo"), "{}", at("/importar"));
        assert_eq!(
            d.script("return document.querySelector('.archivo label.boton').textContent"),
            json!("Elegir archivo")
        );
        let input = d.find("#archivo");
        d.cmd(
            "POST",
            &format!("/element/{input}/value"),
            json!({ "text": file }),
        );
        assert!(!shown(&d, ".archivo .ninguno"), "{}", at("/importar"));
        assert!(shown(&d, "#archivo"), "{}", at("/importar"));
        d.fits(&at("/importar with a file chosen"));
    }
    // the offer's results (a rejection's cause in the program's words) at a readable width on
    // a laptop: the figures' headings wrap to leave it room
    let s2 = Server::start(&seed);
    let base2 = format!("http://{}", s2.addr);
    d.sign_in(&base2, "oscar");
    d.resize(1366, 900);
    d.go(&format!("{base2}/programas/SEMILLA-001/oferta"));
    d.wait("</main>");
    d.fits("the seed's offer at 1366 px");
    let widths = d.script(
        "return [...document.querySelectorAll('table.adjudicacion td.resultado')] \
           .map(e => e.getBoundingClientRect().width)",
    );
    let widths = widths.as_array().unwrap();
    assert_eq!(widths.len(), 2, "{widths:?}");
    // 16rem at the page's 16 px
    assert!(
        widths.iter().all(|w| w.as_f64().unwrap() >= 256.0),
        "{widths:?}"
    );
}
