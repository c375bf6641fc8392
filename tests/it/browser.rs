//! The web interface in a real browser: headless Chromium driven over WebDriver (chromedriver's
//! W3C endpoints, spoken with the same small HTTP client as `web.rs`) signs in, finds a holder by
//! a dotted document, records a breach after previewing its fine, issues the notice, downloads
//! the PDF, and voids a payment with a reason. Screenshots of the main pages are written to the
//! test's directory, and to `tests/golden/web-*.png` with `VIGIA_UPDATE_SCREENSHOTS=1` (reviewed
//! by eye, not compared: they show today's date). Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them);
//! without them the test says so and passes, except under CI, where it fails.

use crate::web::{PASSWORD, Server, register_with_users, request};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) struct Driver {
    child: Child,
    addr: String,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            &[],
            b"",
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn call(addr: &str, method: &str, path: &str, body: Value) -> Value {
    let body = if method == "GET" {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let r = request(
        addr,
        method,
        path,
        &[("Content-Type", "application/json")],
        &body,
    );
    let v: Value =
        serde_json::from_slice(&r.body).unwrap_or_else(|_| panic!("{method} {path}: {}", r.text()));
    assert_eq!(r.status, 200, "{method} {path}: {v}");
    v["value"].clone()
}

impl Driver {
    pub(crate) fn start(downloads: &Path) -> Option<Driver> {
        let binary = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
            .into_iter()
            .find(|p| Path::new(p).exists())?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr = format!("127.0.0.1:{port}");
        let t0 = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut d = Driver {
            child,
            addr,
            session: String::new(),
        };
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,1100", "--lang=es-CO"],
                "prefs": {"download.default_directory": downloads.display().to_string(),
                          "download.prompt_for_download": false}
            }
        }}});
        let v = call(&d.addr, "POST", "/session", caps);
        d.session = v["sessionId"].as_str().unwrap().to_string();
        Some(d)
    }

    pub(crate) fn cmd(&self, method: &str, path: &str, body: Value) -> Value {
        call(
            &self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        )
    }

    pub(crate) fn go(&self, url: &str) {
        self.cmd("POST", "/url", json!({ "url": url }));
    }

    pub(crate) fn find(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    pub(crate) fn type_in(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/clear"), json!({}));
        self.cmd(
            "POST",
            &format!("/element/{e}/value"),
            json!({ "text": text }),
        );
    }

    pub(crate) fn click(&self, css: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/click"), json!({}));
    }

    pub(crate) fn source(&self) -> String {
        self.cmd("GET", "/source", json!({}))
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The page's source once it contains `text` (a click that submits a form may return before
    /// the next page has loaded); fails after 20 s.
    pub(crate) fn wait(&self, text: &str) -> String {
        let t0 = Instant::now();
        loop {
            let src = self.source();
            if src.contains(text) {
                return src;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "{text:?} never appeared in {src}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub(crate) fn url(&self) -> String {
        self.cmd("GET", "/url", json!({}))
            .as_str()
            .unwrap()
            .to_string()
    }

    pub(crate) fn screenshot(&self, dir: &Path, name: &str) {
        let b64 = self.cmd("GET", "/screenshot", json!({}));
        let png = base64(b64.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(dir.join(format!("web-{name}.png")), &png).unwrap();
        if std::env::var_os("VIGIA_UPDATE_SCREENSHOTS").is_some() {
            let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
            std::fs::write(golden.join(format!("web-{name}.png")), &png).unwrap();
        }
    }
}

impl Driver {
    /// Runs `script` in the page and returns its value.
    pub(crate) fn script(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Resizes the window (the page's viewport follows).
    pub(crate) fn resize(&self, width: i64, height: i64) {
        self.cmd(
            "POST",
            "/window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// Signs in on `base`'s login page as `user` (with [`PASSWORD`]) and waits for the dashboard.
    pub(crate) fn sign_in(&self, base: &str, user: &str) {
        self.go(&format!("{base}/ingresar"));
        self.wait("<h1>Ingresar</h1>");
        self.type_in("#usuario", user);
        self.type_in("#clave", PASSWORD);
        self.click("form[action='/ingresar'] button");
        self.wait(&format!("{user} · "));
    }

    /// Fails unless the document is no wider than the window (`what` names the page), the words of no
    /// table's caption and of no refusal run past the window's right edge (a caption wraps, a refusal is
    /// read without scrolling its table), and no table that scrolls sideways in its box is
    /// taller than the window (its scroll bar would be out of sight: the table looked cut off).
    pub(crate) fn fits(&self, what: &str) {
        let w = self.script("return [document.documentElement.scrollWidth, window.innerWidth]");
        let (page, window) = (w[0].as_i64().unwrap(), w[1].as_i64().unwrap());
        assert!(
            page <= window,
            "{what}: the document is {page} px wide in a {window} px window"
        );
        let past = self.script(
            "const w = document.documentElement.clientWidth; \
             return [...document.querySelectorAll('caption, [role=alert]')] \
               .filter(e => { const r = document.createRange(); r.selectNodeContents(e); \
                              return r.getBoundingClientRect().right > w + 1; }) \
               .map(e => e.textContent)",
        );
        assert_eq!(
            past,
            json!([]),
            "{what}: past the window's right edge at {window} px"
        );
        let tall = self.script(
            "return [...document.querySelectorAll('.tabla')] \
               .filter(b => b.scrollWidth > b.clientWidth && b.getBoundingClientRect().height > window.innerHeight) \
               .map(b => b.textContent.slice(0, 60))",
        );
        assert_eq!(
            tall,
            json!([]),
            "{what}: a wide table taller than the window at {window} px"
        );
    }

    /// The text of each element matching `css` that a reader does not see once the window is
    /// scrolled (down only) to it: past the window's right edge, or hidden in a box scrolled
    /// sideways (the point at its middle is another element's).
    pub(crate) fn out_of_view(&self, css: &str) -> Value {
        self.script(&format!(
            "return [...document.querySelectorAll({css:?})].filter(e => {{ \
               const r0 = e.getBoundingClientRect(); \
               window.scrollTo(0, window.scrollY + r0.top - window.innerHeight / 2); \
               const r = e.getBoundingClientRect(); \
               const x = r.left + Math.min(r.width / 2, 4), y = r.top + r.height / 2; \
               if (r.width === 0 || r.right > document.documentElement.clientWidth + 1) return true; \
               const at = document.elementFromPoint(x, y); \
               return !(at && (at === e || e.contains(at) || at.contains(e))); }}) \
             .map(e => e.textContent.trim())"
        ))
    }

    /// The identifiers (`span.ident`: a document, a notice's number, a program's code) a line
    /// breaks: each spread over more than one line box (`NIT 999000001-` | `2`).
    pub(crate) fn idents_broken(&self) -> Value {
        self.script(
            "return [...document.querySelectorAll('.ident')] \
               .filter(e => e.getClientRects().length > 1).map(e => e.textContent)",
        )
    }

    /// The pictures (`figure.grafica`) not wholly in the window's width: their picture ends
    /// past the window's right edge or is scrolled sideways in its box; each by its id.
    pub(crate) fn charts_cut(&self) -> Value {
        self.script(
            "const w = document.documentElement.clientWidth; \
             return [...document.querySelectorAll('figure.grafica')] \
               .filter(f => f.querySelector('svg').getBoundingClientRect().right > w + 1 \
                            || f.scrollWidth > f.clientWidth + 1) \
               .map(f => f.id)",
        )
    }

    /// The text of the cells that carry their column's name to stack under it on a phone (the
    /// check's count by code, a batch's notices, an offer's adjudication) and end past the
    /// window's right edge: hidden in a box scrolled sideways, as they were on a phone before
    /// those tables stacked.
    pub(crate) fn cut_off(&self) -> Value {
        self.script(
            "return [...document.querySelectorAll('td[data-label]')] \
               .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1) \
               .map(e => e.textContent)",
        )
    }

    /// The pictures' labels shown (an axis's months, a bar's name and count): the words of each,
    /// and whether it ends past the window's right edge or its picture's (then it is hidden in
    /// the picture's box, scrolled sideways, as the bar charts' counts and last month were on a
    /// phone).
    pub(crate) fn chart_labels(&self) -> Vec<(String, bool)> {
        let v = self.script(
            "const w = document.documentElement.clientWidth; \
             return [...document.querySelectorAll('figure.grafica svg text')] \
               .filter(t => getComputedStyle(t).display !== 'none') \
               .map(t => { const r = t.getBoundingClientRect(); \
                           const box = t.closest('figure').getBoundingClientRect(); \
                           return [t.textContent, \
                                   r.right > Math.min(w, box.right) + 1 || r.left < box.left - 1]; })",
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|l| (l[0].as_str().unwrap().to_string(), l[1].as_bool().unwrap()))
            .collect()
    }

    /// The codes in capitals (a finding's, a cause's: `td code`) that a line breaks inside a
    /// word, each with the lines it is broken into: a code may break only after an underscore
    /// (`BREACH_NOT_` | `LIQUIDATED`, not `BREACH_NOT_LIQUIDATE` | `D`).
    pub(crate) fn codes_broken_inside_a_word(&self) -> Value {
        self.script(
            "return [...document.querySelectorAll('td code')].map(c => { \
               const lines = []; let cur = '', top = null; \
               const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT); \
               for (let n; (n = walk.nextNode());) for (let i = 0; i < n.length; i++) { \
                 const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); \
                 const y = r.getBoundingClientRect().top; \
                 if (top !== null && Math.abs(y - top) > 2) { lines.push(cur); cur = ''; } \
                 top = y; cur += n.data[i]; } \
               lines.push(cur); return lines; }) \
             .filter(ls => /^[A-Z_]+$/.test(ls.join('')) && ls.slice(0, -1).some(l => !l.endsWith('_')))",
        )
    }

    /// The bytes of `name` once the browser has finished downloading it into `dir` (Chromium
    /// writes `NAME.crdownload` first); fails after 30 s, naming what the directory holds.
    pub(crate) fn downloaded(&self, dir: &Path, name: &str) -> Vec<u8> {
        let file = dir.join(name);
        let t0 = Instant::now();
        loop {
            let partial = dir.join(format!("{name}.crdownload"));
            if file.exists() && !partial.exists() {
                return std::fs::read(&file).unwrap();
            }
            if t0.elapsed() > Duration::from_secs(30) {
                let seen: Vec<_> = std::fs::read_dir(dir)
                    .unwrap()
                    .flatten()
                    .map(|e| e.file_name())
                    .collect();
                panic!("{name} was not downloaded; the directory holds {seen:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => 0,
        }
    };
    let clean: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let pad = chunk.iter().filter(|c| **c == b'=').count();
        let n = chunk.iter().fold(0u32, |acc, c| (acc << 6) | val(*c))
            << (6 * (4 - chunk.len() as u32));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    out
}

#[test]
fn an_officer_records_a_breach_and_issues_the_notice_in_a_browser() {
    let r = register_with_users();
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
    let s = Server::start(&r);
    let base = format!("http://{}", s.addr);
    let shots = r.dir.path();

    // anonymous: the login page; sign in as the lawyer (who may also record breaches)
    d.go(&format!("{base}/"));
    d.wait("<h1>Ingresar</h1>");
    assert!(d.url().ends_with("/ingresar"));
    d.screenshot(shots, "ingresar");
    d.type_in("#usuario", "julia");
    d.type_in("#clave", PASSWORD);
    d.click("form[action='/ingresar'] button");
    d.wait("julia · jurídico");
    d.screenshot(shots, "tablero");

    // find the holder by her dotted document
    d.type_in("#q", "1.000.000.001");
    d.click("form[action='/titulares'] button");
    d.wait("Ana Prueba");
    d.click("table.titulares a");
    d.wait("Historia");
    d.screenshot(shots, "titular");

    // the breach form: preview the fine, then record it
    d.click("a[href='/adjudicaciones/1/incumplimiento']");
    d.wait("<h1>Registrar incumplimiento</h1>");
    d.type_in("#breach_date", "20/11/2024");
    d.type_in("#shares", "1.000");
    d.type_in("#consideration_per_share", "1.450");
    d.type_in("#until", "10/02/2025");
    d.click("button[value='vista']");
    let preview = d.wait("Vista previa (nada se ha registrado)");
    assert!(preview.contains("$&nbsp;1.087.500"), "{preview}");
    assert!(preview.contains("← mayor valor"));
    d.screenshot(shots, "vista-previa");
    d.click("button[value='registrar']");
    d.wait("<h1>Incumplimiento 1</h1>");

    // not liquidated yet: the dashboard's finding says so, its code in a narrow column broken
    // only after an underscore, at a laptop's width and a phone's
    for (width, height) in [(1366, 900), (1024, 768), (390, 844)] {
        d.resize(width, height);
        d.go(&format!("{base}/"));
        let t = d.wait("</main>");
        assert!(t.contains("BREACH_<wbr>NOT_<wbr>LIQUIDATED"), "{t}");
        assert_eq!(
            d.codes_broken_inside_a_word(),
            json!([]),
            "the dashboard at {width} px"
        );
    }
    d.resize(1366, 900);
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("<h1>Incumplimiento 1</h1>");

    // liquidate and see the fine
    d.type_in("#until", "10/02/2025");
    d.click("form[action$='/liquidar'] button");
    let liq = d.wait("<h1>Liquidación N.º 1</h1>");
    assert!(
        liq.contains("$&nbsp;1.087.500") && liq.contains("<polyline"),
        "{liq}"
    );
    assert!(
        liq.contains("Liquidación N.º 1") && liq.contains("$&nbsp;1.087.500"),
        "{liq}"
    );
    d.screenshot(shots, "liquidacion");

    // issue the notice and download its PDF
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("Emitir aviso");
    d.type_in("#notice_until", "10/02/2025");
    d.type_in("#notice_date", "11/02/2025");
    d.type_in("#backdate_reason", "fecha del caso de prueba");
    d.click("form[action$='/aviso'] button");
    d.wait("<h1>Aviso <span class=\"ident\">MULTA-2025-0001</span></h1>");
    d.screenshot(shots, "aviso");
    d.click("a[href='/avisos/1/documento/pdf']");
    let file = downloads.join("MULTA-2025-0001.pdf");
    let t0 = Instant::now();
    while !file.exists() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(200));
    }
    let pdf = std::fs::read(&file).expect("the browser downloaded the PDF");
    assert!(pdf.starts_with(b"%PDF-"));
    // it is the register's notice
    let verify = r.run(&["notice", "verify", file.to_str().unwrap()]);
    assert!(verify.status.success(), "{verify:?}");

    // a payment, then voided from the breach's page with a reason
    d.go(&format!("{base}/incumplimientos/1"));
    d.wait("Registrar pago");
    d.type_in("#payment_date", "15/12/2024");
    d.type_in("#payment_amount", "500.000");
    d.click("form[action$='/pagos'] button");
    d.wait("Anular pago");
    d.type_in("#motivo-pago-1", "Era de otro titular");
    d.click("form[action$='/pagos/1/anular'] button");
    let page = d.wait("ANULADO");
    assert!(page.contains("por julia: Era de otro titular"), "{page}");
    d.screenshot(shots, "incumplimiento");

    // on a phone (390 px wide) no page is wider than the screen: the header's links wrap, wide
    // tables scroll in their own box (the pages rendered 1037 px wide before)
    d.cmd("POST", "/window/rect", json!({"width": 390, "height": 844}));
    for path in [
        "/",
        "/titulares/1",
        "/incumplimientos/1",
        "/prendas/liberar",
        "/auditoria",
        "/auditoria/verificar",
    ] {
        d.go(&format!("{base}{path}"));
        d.wait("</main>");
        d.fits(path);
    }
    d.screenshot(shots, "incumplimiento-390");
}

/// The offering's and the stage's pages in a real browser at a laptop's width (1366 px) and a
/// phone's (390 px): no page is wider than the window (wide tables scroll in their own box), and
/// the pages show what the register holds. Screenshots of each are left in the test's directory.
#[test]
fn the_offering_and_stage_pages_fit_a_laptop_and_a_phone() {
    let reason = "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)";
    let r = crate::stages::first_stage_adjudicated(reason);
    let dir = r.dir.path().to_path_buf();
    let props = r.file(
        "props.csv",
        include_bytes!("../../schema/demo/propuestas-demo.csv"),
    );
    r.ok(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "2",
        "--shares",
        "12886682",
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
        "--reason",
        reason,
    ]);
    r.ok(&[
        "proposals",
        "import",
        &props,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    crate::web::add_user(&r, "adela", "admin");
    let downloads = dir.join("descargas");
    std::fs::create_dir_all(&downloads).unwrap();
    let Some(d) = Driver::start(&downloads) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is missing: .ci/run installs chromium and chromium-driver"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return;
    };
    let s = Server::start(&r);
    let base = format!("http://{}", s.addr);
    d.go(&format!("{base}/"));
    d.wait("<h1>Ingresar</h1>");
    d.type_in("#usuario", "adela");
    d.type_in("#clave", PASSWORD);
    d.click("form[action='/ingresar'] button");
    d.wait("adela · admin");
    let pages = [
        // checked before the lock-ups' end (03/2026), so that its months' chart is drawn: with
        // none ending in the 24 months shown, a sentence says so instead
        ("/?fecha=01/01/2026", "tablero", "Tablero"),
        ("/programas/D3939-2004", "programa", "D3939-2004"),
        ("/programas/D3939-2004/oferta", "oferta", "Acta"),
        ("/programas/D3939-2004/etapas/2", "etapa-2", "Segunda Etapa"),
        // a later page of the tranche's proposals, with its count and its links
        (
            "/programas/D3939-2004/etapas/2?tramo=1&desde=5",
            "etapa-2-pagina",
            "Propuestas 6 a 10 de 10",
        ),
    ];
    for (width, height) in [(1366, 900), (390, 844)] {
        d.cmd(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
        for (path, name, text) in pages {
            d.go(&format!("{base}{path}"));
            let page = d.wait("</main>");
            assert!(page.contains(text), "{path}: {text:?} missing");
            d.fits(&format!("{path} at {width} px"));
            assert_eq!(d.cut_off(), json!([]), "{path} at {width} px");
            // every label of the pictures in view: the dashboard's months and findings, the
            // offer's bars with their counts (the offered shares' too, the longest bar)
            assert_eq!(
                d.codes_broken_inside_a_word(),
                json!([]),
                "{path} at {width} px"
            );
            let labels = d.chart_labels();
            let cut: Vec<&String> = labels.iter().filter(|l| l.1).map(|l| &l.0).collect();
            assert!(cut.is_empty(), "{path} at {width} px: {cut:?} cut off");
            let shown: Vec<&str> = labels.iter().map(|l| l.0.as_str()).collect();
            match name {
                "tablero" => assert!(shown.iter().any(|l| l.starts_with("máx.")), "{shown:?}"),
                "oferta" => assert!(
                    ["ofrecidas", "demanda válida", "adjudicadas"]
                        .iter()
                        .all(|n| shown.contains(n))
                        && shown.len() == 6,
                    "{shown:?}"
                ),
                _ => {}
            }
            d.screenshot(&dir, &format!("{name}-{width}"));
        }
    }
    // the proposals as read: P-12 and its price in the stage's table
    d.go(&format!("{base}/programas/D3939-2004/etapas/2"));
    let stage = d.wait("</main>");
    assert!(stage.contains("P-12"), "the imported proposals are listed");
    if let Some(keep) = std::env::var_os("VIGIA_KEEP_SCREENSHOTS") {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "png") {
                let _ = std::fs::copy(e.path(), std::path::Path::new(&keep).join(e.file_name()));
            }
        }
    }
}

/// The pages of files and batches (pledge and rates imports reviewed row by row, the pending
/// notices and the batch issued from them, the backup, the check) at a laptop's width and a
/// phone's: the document is never wider than the window, the rows' tables scrolling inside their
/// own box, and on a phone the batch's notices and the check's count stacked, every cell in view.
#[test]
fn the_import_notice_batch_and_backup_pages_fit_a_laptop_and_a_phone() {
    let r = crate::notices::spec_register();
    crate::web::add_user(&r, "adela", "admin");
    let dir = r.dir.path().to_path_buf();
    let pledges = r.file(
        "prendas.csv",
        "adjudication_id,rank,registered_on,lender\n2,2,2024-04-01,\nx,3,2024-13-01,\n3,1,2024-04-02,\n"
            .as_bytes(),
    );
    let rates = r.file(
        "tasas.csv",
        b"valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
          2026-10-01,2026-10-31,19.10,,SFC Res. corregida de 2026 por un error de transcripcion\n\
          2026-11-01,2026-11-30,19.00,,SFC Res. 1650 de 2026 (2026-10-30)\n",
    );
    let downloads = dir.join("descargas");
    std::fs::create_dir_all(&downloads).unwrap();
    let Some(d) = Driver::start(&downloads) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is missing: .ci/run installs chromium and chromium-driver"
        );
        eprintln!("skipped: no chromedriver (apt-get install chromium chromium-driver)");
        return;
    };
    let s = Server::start(&r);
    let base = format!("http://{}", s.addr);
    d.go(&format!("{base}/"));
    d.wait("<h1>Ingresar</h1>");
    d.type_in("#usuario", "adela");
    d.type_in("#clave", PASSWORD);
    d.click("form[action='/ingresar'] button");
    d.wait("adela · admin");
    let fits = |what: &str, width: i64| {
        d.fits(&format!("{what} at {width} px"));
        d.screenshot(&dir, &format!("{what}-{width}"));
    };
    let pending = format!("{base}/avisos/pendientes?notice_until=10/02/2025");
    for (width, height) in [(1366, 900), (390, 844)] {
        d.cmd(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
        // the pledges as read, line 3's problems beside it
        d.go(&format!("{base}/prendas/importar"));
        d.wait("</main>");
        d.type_in("#archivo", &pledges);
        d.click("form[action='/prendas/importar'] button");
        let page = d.wait("Las filas como se leyeron");
        assert!(page.contains("(la fila no pudo leerse)"), "{page}");
        fits("prendas-revision", width);
        // the rates read and what they change
        d.go(&format!("{base}/tasas/importar"));
        d.wait("</main>");
        d.type_in("#archivo", &rates);
        d.click("form[action='/tasas/importar'] button");
        let page = d.wait("Los períodos como se leyeron");
        assert!(page.contains("Reemplaza del 01/10/2026"), "{page}");
        fits("tasas-revision", width);
        d.go(&pending);
        let page = d.wait("</main>");
        assert!(page.contains("Emitir 1 aviso"), "{page}");
        fits("avisos-pendientes", width);
        d.go(&format!("{base}/respaldo"));
        d.wait("Descargar la copia");
        fits("respaldo", width);
        // the check as of a day two holders had no pledge: its count by code in view
        d.go(&format!("{base}/?fecha=30/06/2024"));
        let page = d.wait("</main>");
        assert!(page.contains("MISSING_<wbr>PLEDGE"), "{page}");
        assert_eq!(d.cut_off(), json!([]), "the check's count at {width} px");
        fits("chequeo", width);
    }
    // the batch issued from the phone, its page at both widths
    d.go(&pending);
    d.wait("Emitir 1 aviso");
    d.type_in("#notice_date", "11/02/2025");
    d.type_in("#backdate_reason", "fecha del caso de prueba");
    d.click("form[action='/avisos/pendientes'][method='post'] button");
    d.wait("1 aviso emitido");
    for (width, height) in [(390, 844), (1366, 900)] {
        d.cmd(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
        d.go(&d.url());
        let page = d.wait("</main>");
        assert!(
            page.contains("MULTA-2025-0001") && page.contains("$&nbsp;626.823"),
            "{page}"
        );
        assert_eq!(d.cut_off(), json!([]), "the batch's notices at {width} px");
        fits("avisos-lote", width);
    }
    if let Some(keep) = std::env::var_os("VIGIA_KEEP_SCREENSHOTS") {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "png") {
                let _ = std::fs::copy(e.path(), std::path::Path::new(&keep).join(e.file_name()));
            }
        }
    }
}
