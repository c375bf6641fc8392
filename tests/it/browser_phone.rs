//! The breach's, the holder's, the audit's and the rates' pages on a phone (390 px) and a laptop
//! (1366 px) in a real browser (`browser::Driver`): what a reader comes for is in view without
//! scrolling a table sideways (the interest of each piece and its total, the liquidations'
//! totals, the payments' allocation, «Registrar incumplimiento», every audit cell), an audit
//! code breaks only after a dot or an underscore, and the rates' page is not thousands of pixels
//! tall. Screenshots are left in the test's directory (and copied with VIGIA_KEEP_SCREENSHOTS).

use crate::browser::Driver;
use crate::web::{Client, PASSWORD, Server, breach_fields, register_with_users};
use serde_json::{Value, json};

impl Driver {
    /// The codes of `td code.codigo` that a line breaks other than after a dot or an underscore,
    /// each with its lines (`settlement.issu` | `e`, as the audit page broke them).
    fn codes_broken_badly(&self) -> Value {
        self.script(
            "return [...document.querySelectorAll('td code.codigo')].map(c => { \
               const lines = []; let cur = '', top = null; \
               const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT); \
               for (let n; (n = walk.nextNode());) for (let i = 0; i < n.length; i++) { \
                 const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); \
                 const y = r.getBoundingClientRect().top; \
                 if (top !== null && Math.abs(y - top) > 2) { lines.push(cur); cur = ''; } \
                 top = y; cur += n.data[i]; } \
               lines.push(cur); return lines; }) \
             .filter(ls => ls.slice(0, -1).some(l => !/[._]$/.test(l)))",
        )
    }
}

#[test]
fn the_breach_holder_audit_and_rates_pages_show_what_matters_on_a_phone() {
    let r = register_with_users();
    let dir = r.dir.path().to_path_buf();
    let Some(d) = Driver::start(&dir.join("descargas")) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is missing: .ci/run installs chromium and chromium-driver"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return;
    };
    let s = Server::start(&r);
    // SPEC §5's breach, a payment, another voided, liquidated to 10/02/2025
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&csrf, "registrar")
        )
        .status,
        303
    );
    for (on, amount) in [("15/12/2024", "500.000"), ("16/12/2024", "1.000")] {
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
    let voided = o.post(
        "/incumplimientos/1/pagos/2/anular",
        &[("csrf", &csrf), ("void_reason", "Era de otro titular")],
    );
    assert_eq!(voided.status, 303, "{}", voided.text());
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let liq = j.post(
        "/incumplimientos/1/liquidar",
        &[("csrf", jcsrf.as_str()), ("until", "10/02/2025")],
    );
    assert_eq!(liq.status, 303, "{}", liq.text());
    let base = format!("http://{}", s.addr);
    d.sign_in(&base, "oscar");
    for (width, height) in [(390, 844), (1366, 900)] {
        d.resize(width, height);
        let at = |path: &str| format!("{path} at {width} px");
        // the breach: each piece's interest, the interest accrued, the payments' allocation,
        // the liquidations' totals and what is due
        // (as of 10/02/2025: the rates certified end before today)
        d.go(&format!("{base}/incumplimientos/1?hasta=10/02/2025"));
        let page = d.wait("</main>");
        assert!(page.contains("Intereses causados"), "{page}");
        d.fits(&at("/incumplimientos/1"));
        for css in [
            "table.causacion tbody td:nth-child(7)",
            "table.causacion tfoot td.num",
            "table.pagos td:not(:empty)",
            "table.liquidaciones td:nth-child(4)",
            "#total",
        ] {
            assert_eq!(
                d.out_of_view(css),
                json!([]),
                "{css} on {}",
                at("the breach")
            );
        }
        assert_eq!(d.cut_off(), json!([]), "{}", at("the breach"));
        d.screenshot(&dir, &format!("incumplimiento-{width}"));
        // the holder: «Registrar incumplimiento» of each adjudication, and its figures
        d.go(&format!("{base}/titulares/1"));
        d.wait("</main>");
        d.fits(&at("/titulares/1"));
        assert_eq!(
            d.out_of_view("table.adjudicaciones a[href$='/incumplimiento']"),
            json!([]),
            "{}",
            at("the holder")
        );
        assert_eq!(d.cut_off(), json!([]), "{}", at("the holder"));
        d.screenshot(&dir, &format!("titular-{width}"));
        // the audit: every cell in view, its codes broken only after a dot or an underscore
        d.go(&format!("{base}/auditoria"));
        let page = d.wait("</main>");
        assert!(page.contains("payment.<wbr>void"), "{page}");
        d.fits(&at("/auditoria"));
        assert_eq!(
            d.out_of_view("table.auditoria td:not(:empty)"),
            json!([]),
            "{}",
            at("the audit")
        );
        assert_eq!(d.codes_broken_badly(), json!([]), "{}", at("the audit"));
        d.screenshot(&dir, &format!("auditoria-{width}"));
        // the rates: the recent ones' moratorium in view (older ones folded), the page a few
        // screens tall (the whole series, its resolutions in a column, made it ~20.000 px on a
        // phone)
        d.go(&format!("{base}/tasas"));
        d.wait("</main>");
        d.fits(&at("/tasas"));
        assert_eq!(
            d.out_of_view("main > table.tasas tbody td:nth-child(4)"),
            json!([]),
            "{}",
            at("the rates")
        );
        let tall = d
            .script("return document.documentElement.scrollHeight")
            .as_i64()
            .unwrap();
        assert!(tall < 4 * height, "/tasas is {tall} px tall at {width} px");
        d.screenshot(&dir, &format!("tasas-{width}"));
    }
    if let Some(keep) = std::env::var_os("VIGIA_KEEP_SCREENSHOTS") {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "png") {
                let _ = std::fs::copy(e.path(), std::path::Path::new(&keep).join(e.file_name()));
            }
        }
    }
}
