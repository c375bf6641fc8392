//! The letters in the web interface (issue 13 over issue 14's rules): each notice's deadline as
//! the register has it and from what it runs, deliveries recorded from the notice's page, the
//! notice a later one replaced, documents downloaded from the pages verifying, and the paz y salvo
//! of a paid fine (issued, shown, downloaded, in the holder's story). Figures: SPEC §5's breach
//! with its payment of $ 500.000 on 15/12/2024, $ 626.823 due on 10/02/2025. Deadlines are
//! counted by hand in Colombian business days (Ley 51 de 1983: San José 2025 moves to Monday
//! 24/03/2025).

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Resp, Server, add_user, request};

/// SPEC §5's register with one account per role but administration.
pub(crate) fn register() -> Reg {
    let r = crate::notices::spec_register();
    // mail needs the holder's address (and e-mail her e-mail) on file (issue 20)
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Calle 10 # 5-20",
        "--email",
        "ana@example.co",
    ]);
    for (name, role) in [
        ("carla", "consulta"),
        ("oscar", "oficial"),
        ("julia", "juridico"),
    ] {
        add_user(&r, name, role);
    }
    r
}

/// MULTA-2025-0001 as the demo issues it: liquidated to 10/02/2025, dated 11/02/2025, as a PDF.
pub(crate) fn issue_first_notice(r: &Reg) -> Vec<u8> {
    let path = r.dir.path().join("MULTA-2025-0001.pdf");
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        "fecha del caso de prueba",
        "--out",
        path.to_str().unwrap(),
    ]);
    std::fs::read(path).unwrap()
}

/// The text of the element with this id (as maud escaped it), up to its closing tag.
fn by_id(page: &str, id: &str, close: &str) -> String {
    let open = format!("id=\"{id}\"");
    let start = page
        .find(&open)
        .unwrap_or_else(|| panic!("#{id} in {page}"));
    let start = start + page[start..].find('>').unwrap() + 1;
    let len = page[start..].find(close).unwrap();
    page[start..start + len].to_string()
}

fn deliver(c: &mut Client<'_>, csrf: &str, notice: i64, on: &str, via: &str, ev: &str) -> Resp {
    c.post(
        &format!("/avisos/{notice}/entrega"),
        &[
            ("csrf", csrf),
            ("delivery_date", on),
            ("delivery_via", via),
            ("evidence", ev),
        ],
    )
}

/// Who made each audited write of `action`, in order.
fn audit_actors(r: &Reg, action: &str) -> Vec<String> {
    let conn = r.conn();
    let mut st = conn
        .prepare("SELECT actor FROM audit_events WHERE action = ?1 ORDER BY seq")
        .unwrap();
    st.query_map([action], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// What «Verificar aviso» says of an uploaded document.
fn verify(c: &mut Client<'_>, csrf: &str, name: &str, bytes: &[u8]) -> String {
    let r = c.upload("/avisos/verificar", &[("csrf", csrf)], (name, bytes));
    assert_eq!(r.status, 200, "{}", r.text());
    r.text()
}

/// Issue 13, item 1: the demo's MULTA-2025-0001 was delivered on 13/02/2025, so its deadline is
/// the register's 27/02/2025 (ten business days from delivery: Fri 14, Mon 17 … Thu 27; February
/// 2025 has no holiday), no longer the 25/02/2025 counted from its date (Wed 12 … Tue 25) — on
/// its page, on the breach's page and in the holder's story alike.
#[test]
fn a_notice_shows_the_registers_deadline_and_what_it_runs_from() {
    let r = register();
    issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut j, _) = Client::signed_in(&s, "julia", PASSWORD);
    let page = j.get("/avisos/1").text();
    assert_eq!(
        by_id(&page, "plazo", "</dd>"),
        // no deadline until its delivery is recorded (LEGAL_NOTES §7.3)
        "<strong>sin plazo aún</strong> — 10 días hábiles desde la entrega, que aún no está \
         registrada (expedido el 11/02/2025)"
    );
    assert!(page.contains("Sin entrega registrada."), "{page}");
    // the form that issues a notice says where the term runs from, as the program has it
    let breach = j.get("/incumplimientos/1").text();
    assert!(
        breach.contains(
            "el plazo de pago (10 días hábiles) corre desde la entrega del aviso, una vez \
             registrada; hasta entonces, desde esta fecha"
        ),
        "{breach}"
    );
    assert!(!breach.contains("se cuenta en días hábiles desde esta fecha"));

    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let done = deliver(
        &mut o,
        &ocsrf,
        1,
        "13/02/2025",
        "correo-certificado",
        "Guía 0001",
    );
    assert_eq!(done.status, 303, "{}", done.text());
    assert_eq!(done.header("location"), Some("/avisos/1"));

    let page = j.get("/avisos/1").text();
    assert_eq!(
        by_id(&page, "plazo", "</dd>"),
        "<strong>27/02/2025</strong> — 10 días hábiles desde la entrega del 13/02/2025"
    );
    assert!(
        page.contains("<td data-label=\"Fecha\">13/02/2025</td><td data-label=\"Medio\">correo certificado</td><td data-label=\"Constancia\">Guía 0001</td><td data-label=\"Registrada\">")
            && page.contains(" por oscar</td>"),
        "{page}"
    );
    // no form to deliver it twice
    assert!(!o.get("/avisos/1").text().contains("Registrar entrega"));
    let breach = j.get("/incumplimientos/1").text();
    assert!(
        breach.contains(
            "<td data-label=\"Pagar a más tardar\">27/02/2025<br><small>10 días hábiles desde la \
             entrega del 13/02/2025</small></td><td data-label=\"Entrega\">13/02/2025 por correo \
             certificado</td><td data-label=\"Vigencia\">vigente</td>"
        ),
        "{breach}"
    );
    let holder = j.get("/titulares/1").text();
    for line in [
        "Aviso <span class=\"ident\">MULTA-2025-0001</span> (pagar a más tardar el 27/02/2025: \
         10 días hábiles desde la entrega del 13/02/2025)",
        "<td>13/02/2025</td><td><a href=\"/avisos/1\">Entrega del aviso \
         <span class=\"ident\">MULTA-2025-0001</span> por correo certificado</a>",
    ] {
        assert!(holder.contains(line), "{line} in {holder}");
    }
    for p in [&page, &breach, &holder] {
        assert!(!p.contains("25/02/2025"), "the deadline as issued in {p}");
    }
    // the command line has the same deadline
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list[0]["deadline"], "2025-02-27");
}

/// Issue 13, items 2 and 4, with a holiday: MULTA-2025-0002 issued from the breach's page on Fri
/// 14/03/2025 replaces 0001; its term from its date is Mon 17 … Fri 21, (Mon 24 San José), Tue 25
/// … Mon 31/03/2025; delivered on Tue 18/03/2025, Wed 19 … Fri 21, (24), Tue 25 … Mon 31, Tue 1,
/// Wed 02/04/2025. Each notice names the other; the replaced one is not delivered.
#[test]
fn a_replaced_notice_names_its_successor_and_deadlines_skip_holidays() {
    let r = register();
    issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let issued = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "14/03/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(issued.header("location"), Some("/avisos/2"));
    let second = j.get("/avisos/2").text();
    assert_eq!(
        by_id(&second, "plazo", "</dd>"),
        // no deadline until its delivery is recorded (LEGAL_NOTES §7.3)
        "<strong>sin plazo aún</strong> — 10 días hábiles desde la entrega, que aún no está \
         registrada (expedido el 14/03/2025)"
    );
    assert_eq!(
        by_id(&second, "reemplaza", "</dd>"),
        "el aviso <a href=\"/avisos/1\"><span class=\"ident\">MULTA-2025-0001</span></a> del 11/02/2025"
    );
    assert!(!second.contains("Reemplazado por"), "{second}");
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let first = o.get("/avisos/1").text();
    assert_eq!(
        by_id(&first, "reemplazado", "</dd>"),
        "el aviso <a href=\"/avisos/2\"><span class=\"ident\">MULTA-2025-0002</span></a> del 14/03/2025"
    );
    assert!(
        first.contains(
            "Este aviso fue reemplazado por el aviso <a href=\"/avisos/2\"><span class=\"ident\">MULTA-2025-0002</span></a> \
             del 14/03/2025: ya no está vigente."
        ),
        "{first}"
    );
    // the replaced notice offers no delivery, and the register refuses one
    assert!(!first.contains("Registrar entrega"), "{first}");
    let before = r.dump();
    let refused = deliver(&mut o, &ocsrf, 1, "18/03/2025", "personal", "");
    assert_eq!(refused.status, 422);
    assert_eq!(
        by_id(&refused.text(), "notice-error", "</p>"),
        "Notificación MULTA-2025-0001: este aviso fue reemplazado por el aviso MULTA-2025-0002 \
         del 14/03/2025: entregue ese"
    );
    assert_eq!(r.dump(), before, "nothing written");

    let done = deliver(&mut o, &ocsrf, 2, "18/03/2025", "personal", "");
    assert_eq!(done.status, 303, "{}", done.text());
    let second = j.get("/avisos/2").text();
    assert_eq!(
        by_id(&second, "plazo", "</dd>"),
        "<strong>02/04/2025</strong> — 10 días hábiles desde la entrega del 18/03/2025"
    );
    // no evidence typed: none recorded
    assert!(
        second.contains("<td data-label=\"Fecha\">18/03/2025</td><td data-label=\"Medio\">entrega personal</td><td data-label=\"Constancia\"></td>"),
        "{second}"
    );
    let breach = j.get("/incumplimientos/1").text();
    assert!(
        breach.contains("<td data-label=\"Vigencia\">reemplazado por <a href=\"/avisos/2\"><span class=\"ident\">MULTA-2025-0002</span></a></td>")
            && breach.contains(
                "<td data-label=\"Pagar a más tardar\">02/04/2025<br><small>10 días hábiles desde la entrega del 18/03/2025</small>"
            ),
        "{breach}"
    );
    let holder = j.get("/titulares/1").text();
    assert!(
        holder.contains(
            "Aviso MULTA-2025-0002 (pagar a más tardar el 02/04/2025: 10 días hábiles desde la \
             entrega del 18/03/2025); reemplaza al aviso MULTA-2025-0001"
        ),
        "{holder}"
    );
}

/// Issue 13, item 2: who records a delivery (oficial and above: a fact with its receipt, like a
/// payment), and the register's refusals in Spanish next to the input they name.
#[test]
fn deliveries_are_recorded_by_an_officer_and_refused_in_spanish() {
    let r = register();
    issue_first_notice(&r);
    let s = Server::start(&r);
    // without a session: to the login page
    for (method, path) in [
        ("POST", "/avisos/1/entrega"),
        ("POST", "/incumplimientos/1/paz-y-salvo"),
        ("GET", "/paz-y-salvo/1"),
        ("GET", "/paz-y-salvo/1/documento/pdf"),
    ] {
        let resp = request(&s.addr, method, path, &[], b"csrf=x");
        assert_eq!(resp.status, 303, "{method} {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"));
    }
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // (signing in is written: the register is compared from here)
    let before = r.dump();
    assert!(!c.get("/avisos/1").text().contains("Registrar entrega"));
    let forbidden = deliver(&mut c, &ccsrf, 1, "13/02/2025", "personal", "");
    assert_eq!(forbidden.status, 403);
    assert!(o.get("/avisos/1").text().contains("Registrar entrega"));
    // without its CSRF token
    let no_token = o.post(
        "/avisos/1/entrega",
        &[
            ("delivery_date", "13/02/2025"),
            ("delivery_via", "personal"),
        ],
    );
    assert_eq!(no_token.status, 403);
    let early = deliver(&mut o, &ocsrf, 1, "10/02/2025", "personal", "");
    assert_eq!(early.status, 422);
    assert_eq!(
        by_id(&early.text(), "delivery_date-error", "</p>"),
        "Fecha de entrega 10/02/2025: es anterior a la fecha del aviso (11/02/2025); un aviso \
         se entrega después de emitido."
    );
    let future = deliver(&mut o, &ocsrf, 1, "01/01/2099", "personal", "");
    assert!(
        by_id(&future.text(), "delivery_date-error", "</p>")
            .starts_with("Fecha de entrega 01/01/2099: es posterior a la fecha de hoy ("),
        "{}",
        future.text()
    );
    let typo = deliver(&mut o, &ocsrf, 1, "31/02/2025", "paloma", "");
    assert_eq!(typo.status, 422);
    let t = typo.text();
    assert_eq!(
        by_id(&t, "delivery_date-error", "</p>"),
        "«31/02/2025» no es un día del calendario; revise el día y el mes (dd/mm/aaaa)."
    );
    assert_eq!(
        by_id(&t, "delivery_via-error", "</p>"),
        "elija el medio de entrega"
    );
    // what was typed stays in the form
    assert!(t.contains("value=\"31/02/2025\""), "{t}");
    assert_eq!(
        o.get("/avisos/9").status,
        404,
        "a notice that does not exist"
    );
    let missing = deliver(&mut o, &ocsrf, 9, "13/02/2025", "personal", "");
    assert_eq!(missing.status, 404);
    assert!(
        missing
            .text()
            .contains("No existe el aviso 9 en el registro.")
    );
    assert_eq!(r.dump(), before, "nothing written by a refused delivery");

    let by_email = deliver(
        &mut o,
        &ocsrf,
        1,
        "13/02/2025",
        "correo-electronico",
        "Acuse de lectura",
    );
    assert_eq!(by_email.status, 303, "{}", by_email.text());
    let again = deliver(&mut o, &ocsrf, 1, "14/02/2025", "personal", "");
    assert_eq!(again.status, 422);
    assert!(
        by_id(&again.text(), "notice-error", "</p>").starts_with(
            "Notificación MULTA-2025-0001: su entrega ya está registrada: el 13/02/2025 por \
             correo electrónico (registrada por oscar el "
        ),
        "{}",
        again.text()
    );
    let (via, evidence, by): (String, String, String) = r
        .conn()
        .query_row(
            "SELECT via, evidence, created_by FROM notice_deliveries",
            [],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (via.as_str(), evidence.as_str(), by.as_str()),
        ("correo-electronico", "Acuse de lectura", "oscar")
    );
    assert_eq!(
        audit_actors(&r, "notice.delivered"),
        ["oscar"],
        "in the audit trail under who recorded it"
    );
}

/// Issue 13, item 3: a document downloaded from the pages, in each format, verifies — each
/// download is recorded as a rendering under the person who downloaded it, as `vigia notice
/// render` records its file. Before, a Markdown download was "modified": none of the files vigia
/// had recorded.
#[test]
fn documents_downloaded_from_the_pages_verify() {
    let r = register();
    let issued_pdf = issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    for (format, name, label) in [
        ("md", "MULTA-2025-0001.md", "Markdown"),
        ("html", "MULTA-2025-0001.html", "HTML"),
        ("pdf", "MULTA-2025-0001.pdf", "PDF"),
    ] {
        let doc = c.get(&format!("/avisos/1/documento/{format}"));
        assert_eq!(doc.status, 200);
        assert_eq!(
            doc.header("content-disposition"),
            Some(format!("attachment; filename=\"{name}\"").as_str())
        );
        let t = verify(&mut c, &ccsrf, name, &doc.body);
        assert!(
            t.contains(
                "El documento coincide con el registro: texto, cifras y huella; está vigente."
            ),
            "{format}: {t}"
        );
        assert!(!t.contains("fue modificado") && !t.contains("✗"), "{t}");
        if format == "pdf" && doc.body == issued_pdf {
            // the same bytes as the file `notice issue` wrote: the first on record
            assert!(t.contains("idéntico al archivo emitido (PDF, "), "{t}");
        } else {
            assert!(
                t.contains(" por carla (") && t.contains(&format!(" por carla ({label}; SHA-256 ")),
                "{t}"
            );
        }
    }
    // three renderings more, by carla, each with its format and the SHA-256 of what was sent
    let rows: Vec<(String, String)> = {
        let conn = r.conn();
        let mut st = conn
            .prepare("SELECT format, created_by FROM renderings WHERE notice_id = 1 ORDER BY id")
            .unwrap();
        st.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let rows: Vec<(&str, &str)> = rows.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        rows[1..],
        [("md", "carla"), ("html", "carla"), ("pdf", "carla")]
    );
    assert_eq!(rows.len(), 4, "{rows:?}");
    // an unknown format is no document, and nothing is recorded
    assert_eq!(c.get("/avisos/1/documento/docx").status, 404);
    let n: i64 = r
        .conn()
        .query_row("SELECT count(*) FROM renderings", [], |row| row.get(0))
        .unwrap();
    assert_eq!(n, 4);
    // the audit trail says who wrote each file
    assert_eq!(
        audit_actors(&r, "document.render")[1..],
        ["carla", "carla", "carla"]
    );
    // the command line agrees with the page about the Markdown downloaded
    let md = c.get("/avisos/1/documento/md");
    let path = r.file("descargado.md", &md.body);
    let o = r.run(&["notice", "verify", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", crate::common::out(&o));
}

/// Issue 13, items 5 and 6: once the fine is paid in full (the rest, $ 626.823, paid on
/// 10/02/2025: with the $ 500.000 of 15/12/2024, $ 1.126.823), the breach's page says so instead
/// of pricing it to today, offers its paz y salvo instead of a payment demand; the paz y salvo is
/// issued by a lawyer, has its page and downloads that verify, and joins the holder's story; and
/// the notice issued before the payment verifies as a notice of a fine paid since.
#[test]
fn a_paid_fine_gets_its_paz_y_salvo_on_the_web() {
    let r = register();
    let notice_pdf = issue_first_notice(&r);
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let paid = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "10/02/2025"),
            ("payment_amount", "626.823"),
            ("reference", "Consignación 0002"),
        ],
    );
    assert_eq!(paid.status, 303, "{}", paid.text());

    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let page = j.get("/incumplimientos/1").text();
    assert_eq!(
        by_id(&page, "pagada", "</p>"),
        "La multa está pagada en su totalidad desde el <strong>10/02/2025</strong>: 2 pagos \
         por $\u{a0}1.126.823 en total no dejan saldo pendiente."
    );
    for expected in [
        "<li>Pago N.º 1 del 15/12/2024: $\u{a0}500.000</li>",
        "<li>Pago N.º 2 del 10/02/2025: $\u{a0}626.823 (Consignación 0002)</li>",
        "La multa está pagada: no corresponde un aviso de cobro sino su paz y salvo.",
        "Expedir paz y salvo",
        "no antes del último pago (10/02/2025)",
    ] {
        assert!(page.contains(expected), "{expected} in {page}");
    }
    // not priced to today, so no rate is missing; no payment demand offered
    for absent in [
        "No hay tasa moratoria certificada",
        "Posición al",
        "Emitir aviso",
    ] {
        assert!(!page.contains(absent), "{absent} in {page}");
    }
    // the notice issued before the payment: a notice of a fine paid since, not one to re-issue
    // genuine and no longer in force: a warning, not a mismatch; paid on the day the notice
    // (of 11/02) prices the fine to, not "after" it
    let t = verify(&mut j, &jcsrf, "aviso.pdf", &notice_pdf);
    for expected in [
        "<p class=\"aviso\" id=\"resultado\" role=\"status\">El documento es auténtico (texto, \
         cifras y huella tal como vigia lo emitió), pero ya no está vigente: la multa se pagó en \
         su totalidad el 10/02/2025, el día al que el aviso liquida la multa (el aviso es del \
         11/02/2025); corresponde expedir su paz y salvo, no un nuevo aviso de cobro.</p>",
        "<td data-label=\"Comprobación\">Cifras recalculadas hoy</td><td class=\"vencido\" \
         data-label=\"Resultado\">• ya no vigente</td><td data-label=\"Detalle\">el registro da \
         cifras distintas porque la multa se pagó en su totalidad el 10/02/2025, el día al que el \
         aviso liquida la multa (el aviso es del 11/02/2025): ya no hay nada que cobrar; \
         corresponde expedir su paz y salvo, no un nuevo aviso de cobro</td>",
    ] {
        assert!(t.contains(expected), "{expected} in {t}");
    }
    for absent in [
        "emita un nuevo",
        "después",
        "NO coincide",
        "class=\"error\"",
    ] {
        assert!(!t.contains(absent), "{absent} in {t}");
    }
    // a payment demand is refused by the register, said above the forms
    let before = r.dump();
    let demand = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "12/02/2025"),
            ("notice_date", "12/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(demand.status, 422);
    assert_eq!(
        by_id(&demand.text(), "breach-error", "</p>"),
        "Incumplimiento 1: su multa no tiene saldo pendiente al 12/02/2025 (está pagada en su \
         totalidad): un aviso de cobro pediría $ 0 (corresponde expedir el paz y salvo)"
    );
    // an officer may not issue it; a lawyer may not date it before the last payment
    let forbidden = o.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &ocsrf), ("settlement_date", "12/02/2025")],
    );
    assert_eq!(forbidden.status, 403);
    assert!(
        !o.get("/incumplimientos/1")
            .text()
            .contains("Expedir paz y salvo")
    );
    let early = j.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &jcsrf), ("settlement_date", "09/02/2025")],
    );
    assert_eq!(early.status, 422);
    assert_eq!(
        by_id(&early.text(), "settlement_date-error", "</p>"),
        "Fecha del paz y salvo 09/02/2025: es anterior al último pago (10/02/2025); el paz y \
         salvo se expide después de él."
    );
    assert_eq!(r.dump(), before, "nothing written by the refusals");

    let issued = j.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &jcsrf), ("settlement_date", "12/02/2025")],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(issued.header("location"), Some("/paz-y-salvo/1"));
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    // the breach page no longer offers a void the register would refuse: it says why
    let page = j.get("/incumplimientos/1").text();
    assert!(!page.contains("Anular incumplimiento"), "{page}");
    assert!(
        by_id(&page, "no-anulable", "</p>").starts_with(
            "No puede anularse: se expidió su paz y salvo PAZ-2025-0001 del 12/02/2025"
        ),
        "{page}"
    );
    // nor a payment: after the paz y salvo none is recorded, and the page says so
    assert!(!page.contains("Registrar pago"), "{page}");
    assert!(
        page.contains("La multa tiene su paz y salvo: después de él no se registran pagos"),
        "{page}"
    );
    let sent = j.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &jcsrf),
            ("payment_date", "15/12/2024"),
            ("payment_amount", "1,45"),
        ],
    );
    assert!(
        sent.text().contains(
            "que certifica su multa pagada por completo: después de él no se registran pagos"
        ),
        "{}",
        sent.text()
    );
    let paz = c.get("/paz-y-salvo/1").text();
    assert!(
        paz.contains("<h1>Paz y salvo <span class=\"ident\">PAZ-2025-0001</span></h1>"),
        "{paz}"
    );
    for expected in [
        "<dd id=\"numero\"><span class=\"ident\">PAZ-2025-0001</span></dd>",
        "<dt>Fecha</dt><dd>12/02/2025</dd>",
        "<dt>Último aviso de cobro</dt><dd><span class=\"ident\">MULTA-2025-0001</span> del 11/02/2025</dd>",
        " al 10/02/2025: saldo $\u{a0}0</dd>",
        // the imputation of each payment: interest first (C.C. art. 1653)
        "<td>15/12/2024</td><td class=\"num\">$\u{a0}500.000</td><td class=\"num\">$\u{a0}17.804</td>\
         <td class=\"num\">$\u{a0}482.196</td>",
        "<td>10/02/2025</td><td class=\"num\">$\u{a0}626.823</td><td class=\"num\">$\u{a0}21.519</td>\
         <td class=\"num\">$\u{a0}605.304</td>",
        "<th class=\"num\">$\u{a0}1.126.823</th>",
        "href=\"/paz-y-salvo/1/documento/pdf\"",
    ] {
        assert!(paz.contains(expected), "{expected} in {paz}");
    }
    // its downloads verify, recorded under who downloaded them
    for (format, name) in [("pdf", "PAZ-2025-0001.pdf"), ("md", "PAZ-2025-0001.md")] {
        let doc = c.get(&format!("/paz-y-salvo/1/documento/{format}"));
        assert_eq!(doc.status, 200);
        assert_eq!(
            doc.header("content-disposition"),
            Some(format!("attachment; filename=\"{name}\"").as_str())
        );
        let t = verify(&mut c, &ccsrf, name, &doc.body);
        assert!(
            t.contains("El documento coincide con el registro")
                && t.contains("Documento: paz y salvo <strong><span class=\"ident\">PAZ-2025-0001</span></strong>"),
            "{t}"
        );
    }
    let by: Vec<String> = {
        let conn = r.conn();
        let mut st = conn
            .prepare("SELECT created_by FROM renderings WHERE settlement_id = 1 ORDER BY id")
            .unwrap();
        st.query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(by, ["carla", "carla"]);
    assert_eq!(c.get("/paz-y-salvo/9").status, 404);

    // the breach's page lists it, and offers no second one; a second is refused
    let page = j.get("/incumplimientos/1").text();
    assert!(
        page.contains(
            "Paz y salvo <a href=\"/paz-y-salvo/1\"><span class=\"ident\">PAZ-2025-0001</span></a> del 12/02/2025 (expedido \
             por julia)."
        ) && !page.contains("Expedir paz y salvo"),
        "{page}"
    );
    let twice = j.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &jcsrf), ("settlement_date", "13/02/2025")],
    );
    assert_eq!(twice.status, 422);
    assert!(
        by_id(&twice.text(), "breach-error", "</p>").starts_with(
            "Incumplimiento 1: ya tiene su paz y salvo, el PAZ-2025-0001 del 12/02/2025"
        ),
        "{}",
        twice.text()
    );
    // the notice now points at the certificate
    let t = verify(&mut c, &ccsrf, "aviso.pdf", &notice_pdf);
    assert!(
        t.contains("ya no hay nada que cobrar; su paz y salvo es el PAZ-2025-0001 del 12/02/2025")
            && t.contains(
                "pero ya no está vigente: la multa se pagó en su totalidad el 10/02/2025, el día \
                 al que el aviso liquida la multa (el aviso es del 11/02/2025); su paz y salvo es \
                 el PAZ-2025-0001 del 12/02/2025."
            ),
        "{t}"
    );
    // the holder's story, in order
    let holder = c.get("/titulares/1").text();
    let order = [
        "Pago 1 de $\u{a0}500.000",
        "Pago 2 de $\u{a0}626.823",
        "Aviso MULTA-2025-0001",
        "<a href=\"/paz-y-salvo/1\">Paz y salvo <span class=\"ident\">PAZ-2025-0001</span> \
         (incumplimiento 1): multa pagada</a>",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|w| holder.find(w).unwrap_or_else(|| panic!("{w} in {holder}")))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
    // the CLI sees the same certificate
    assert!(r.ok(&["settlement", "list"]).contains("PAZ-2025-0001"));
}
