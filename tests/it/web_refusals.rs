//! Refusals and errors as Spanish sentences beside what caused them (the harness is in `web.rs`).

use crate::web::*;

/// A register refusal reaches the page in Spanish, worded by the rule that refused (dates
/// dd/mm/aaaa, the lender named as the form names it), and none of the CLI's English.
#[test]
fn refusals_are_shown_in_spanish() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let before = r.dump();
    // adjudication 1 (Ana Prueba) was not financed: no second-degree pledge without a lender
    let resp = o.post(
        "/adjudicaciones/1/prendas",
        &[
            ("csrf", &ocsrf),
            ("adjudication", "1"),
            ("pledge_rank", "2"),
            ("registered_on", "01/04/2024"),
            ("lender", ""),
        ],
    );
    assert_eq!(resp.status, 422);
    let t = resp.text();
    assert_eq!(
        error_text(&t, "pledge_rank").as_deref(),
        Some(
            "Grado de la prenda 2: la adjudicación N.º 1 no tiene prestamista que haya financiado la \
             compra; la prenda de segundo grado solo procede cuando el prestamista tiene la de primer \
             grado (art. 10): indique el prestamista o use el grado 1 (el campo «Prestamista»)."
        ),
        "{t}"
    );
    assert!(
        !t.contains("financing lender") && !t.contains("Art. 10"),
        "{t}"
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // a payment dated after today
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    // the server's today is Colombia's (UTC−5), whatever the machine's time zone
    let today = || {
        vigia::calendar::colombia_date(chrono::Utc::now())
            .format("%d/%m/%Y")
            .to_string()
    };
    let days = [today(), String::new()];
    let resp = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "31/12/2099"),
            ("payment_amount", "500.000"),
            ("reference", ""),
        ],
    );
    let days = [days[0].clone(), today()];
    assert_eq!(resp.status, 422);
    let t = resp.text();
    let shown = error_text(&t, "payment_date").unwrap_or_default();
    let expected = |day: &str| {
        format!(
            "Fecha del pago 31/12/2099: es posterior a la fecha de hoy ({day}); registre el pago una vez \
             efectuado, con la fecha en que se hizo."
        )
    };
    assert!(
        days.iter().any(|d| shown == expected(d)),
        "{shown:?} is not {:?}",
        expected(&days[0])
    );
    assert!(
        !t.contains("is after today") && !t.contains("2099-12-31"),
        "{t}"
    );
}

/// Issue 13's review: refusals about something the form has no input for (the payment already
/// recorded, the fine already paid, the voided adjudication, the pledge already released) came
/// back as a bare 422. Each is now said, and a repeated payment may be confirmed.
#[test]
fn refusals_without_an_input_of_their_own_are_shown_above_the_form() {
    let r = register_with_users();
    r.ok(&[
        "pledge",
        "register",
        "3",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let payment = |day: &str, amount: &str, confirmed: bool| {
        let mut f = vec![
            ("csrf", ocsrf.as_str()),
            ("payment_date", day.to_string().leak() as &str),
            ("payment_amount", amount.to_string().leak() as &str),
            ("reference", "Consignación 1"),
        ];
        if confirmed {
            f.push(("allow_duplicate", "si"));
        }
        f
    };
    assert_eq!(
        o.post(
            "/incumplimientos/1/pagos",
            &payment("15/12/2024", "500.000", false)
        )
        .status,
        303
    );
    // the same payment again: refused, said beside the confirmation it offers, the typed
    // values kept so that ticking it is enough
    let before = r.dump();
    let again = o.post(
        "/incumplimientos/1/pagos",
        &payment("15/12/2024", "500.000", false),
    );
    assert_eq!(again.status, 422);
    let t = again.text();
    let shown = error_text(&t, "allow_duplicate").unwrap_or_else(|| panic!("{t}"));
    assert!(
        shown.starts_with(
            "El pago N.º 1 por $\u{a0}500.000 del 15/12/2024 con la misma referencia (Consignación 1) ya \
             está registrado en el incumplimiento N.º 1 (lo registró oscar el "
        ) && shown.ends_with(
            "no se registró nada: un pago ingresado dos veces se contaría dos veces. Para corregirlo, \
             repita la operación con la casilla «Registrar de todos modos» marcada."
        ),
        "{shown}"
    );
    assert!(
        t.contains("<input type=\"checkbox\" name=\"allow_duplicate\" value=\"si\"> Registrar de todos modos"),
        "{t}"
    );
    for (name, value) in [
        ("payment_date", "15/12/2024"),
        ("payment_amount", "500.000"),
        ("reference", "Consignación 1"),
    ] {
        assert!(
            t.contains(&format!(
                "id=\"{name}\" name=\"{name}\" type=\"text\" value=\"{value}\""
            )),
            "{name} in {t}"
        );
    }
    assert_eq!(r.dump(), before, "nothing was written");
    // the form offers no confirmation until the register asks for one
    assert!(
        !o.get("/incumplimientos/1")
            .text()
            .contains("allow_duplicate")
    );
    // confirmed: a second payment, as `--allow-duplicate` records it
    assert_eq!(
        o.post(
            "/incumplimientos/1/pagos",
            &payment("15/12/2024", "500.000", true)
        )
        .status,
        303
    );
    let payments: i64 = r
        .conn()
        .query_row("SELECT count(*) FROM payments", [], |x| x.get(0))
        .unwrap();
    assert_eq!(payments, 2);

    // paid in full (SPEC §5's fine: 1.087.500 of capital, under 1.000.000 + 200.000 with its
    // interest to mid-December): a notice would demand $ 0; the dates typed stay
    assert_eq!(
        o.post(
            "/incumplimientos/1/pagos",
            &payment("16/12/2024", "200.000", false)
        )
        .status,
        303
    );
    let before = r.dump();
    let notice = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(notice.status, 422);
    let t = notice.text();
    // said in the notices' section, right above the notice form it refuses
    assert!(
        t.contains(
            "<p class=\"error\" id=\"breach-error\" role=\"alert\">Incumplimiento 1: su multa no \
             tiene saldo pendiente al 10/02/2025 (está pagada en su totalidad): un aviso de cobro \
             pediría $ 0 (corresponde expedir el paz y salvo)</p><form method=\"post\" \
             action=\"/incumplimientos/1/aviso\">"
        ),
        "{t}"
    );
    assert!(
        t.contains("id=\"notice_until\" name=\"notice_until\" type=\"text\" value=\"10/02/2025\"")
            && t.contains(
                "id=\"notice_date\" name=\"notice_date\" type=\"text\" value=\"11/02/2025\""
            ),
        "{t}"
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // a pledge released, released again (a page left open): said on the holder's page
    let release = [("csrf", ocsrf.as_str()), ("release_date", "16/03/2026")];
    assert_eq!(o.post("/adjudicaciones/3/liberar", &release).status, 303);
    let before = r.dump();
    let again = o.post("/adjudicaciones/3/liberar", &release);
    assert_eq!(again.status, 422);
    assert_eq!(
        general_errors(&again.text()),
        ["La adjudicación N.º 3 no tiene prenda vigente que liberar."],
        "{}",
        again.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // a breach of a voided adjudication: the page says it is voided and offers no form
    r.ok(&[
        "adjudications",
        "void",
        "2",
        "--reason",
        "Registrada por error",
    ]);
    let page = o.get("/adjudicaciones/2/incumplimiento");
    assert_eq!(page.status, 200);
    let t = page.text();
    assert!(
        t.contains("<p class=\"aviso\">ANULADA ")
            && t.contains(
                ": Registrada por error. Una adjudicación anulada no admite incumplimientos.</p>"
            ),
        "{t}"
    );
    assert!(
        !t.contains("action=\"/adjudicaciones/2/incumplimiento\""),
        "{t}"
    );
    // sent from a page opened before the void: refused, said, still no form and no preview
    let before = r.dump();
    for action in ["registrar", "vista"] {
        let resp = o.post(
            "/adjudicaciones/2/incumplimiento",
            &breach_fields(&ocsrf, action),
        );
        assert_eq!(resp.status, 422, "{action}");
        let t = resp.text();
        let said = general_errors(&t);
        assert_eq!(said.len(), 1, "{t}");
        assert!(
            said[0].starts_with("Adjudicación 2: fue anulada el ")
                && said[0].ends_with(" (Registrada por error); ya no es una adjudicación vigente."),
            "{t}"
        );
        assert!(
            !t.contains("action=\"/adjudicaciones/2/incumplimiento\"")
                && !t.contains("vista-previa"),
            "{t}"
        );
    }
    assert_eq!(r.dump(), before, "nothing was written");
}

/// Issue 13's review: `/titulares/abc` answered axum's English plain text, and error pages had
/// no menu. Every refusal is a Spanish page in the frame, with the menu of the person signed in
/// and a link back.
#[test]
fn bad_addresses_and_refused_requests_are_spanish_pages_with_the_menu() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let menu = "<nav><a href=\"/\">Tablero</a><a href=\"/titulares\">Titulares</a>\
                <a href=\"/importar\">Importar</a>";
    for (path, back) in [
        ("/titulares/abc", Some("/titulares")),
        ("/adjudicaciones/abc/incumplimiento", None),
        ("/incumplimientos/1x", None),
    ] {
        let resp = o.get(path);
        assert_eq!(resp.status, 404, "{path}");
        assert_eq!(
            resp.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert!(resp.header("content-security-policy").is_some());
        let t = resp.text();
        let value = path.split('/').nth(2).unwrap();
        assert!(
            t.contains("<h1>No encontrado</h1>")
                && t.contains(&format!(
                    "<p class=\"error\" role=\"alert\">No existe la página pedida: «{value}» no es \
                     el número de un registro.</p>"
                )),
            "{path}: {t}"
        );
        assert!(
            t.contains(menu) && t.contains("oscar · oficial"),
            "{path}: {t}"
        );
        let links = match back {
            Some(b) => format!("<a href=\"{b}\">Volver</a> · <a href=\"/\">Ir al tablero</a>"),
            None => "<p class=\"volver\"><a href=\"/\">Ir al tablero</a></p>".into(),
        };
        assert!(t.contains(&links), "{path}: {t}");
        assert!(!t.contains("Invalid URL"), "{t}");
    }
    // a form with a bad address, or not sent as a form
    let resp = o.post(
        "/incumplimientos/abc/pagos",
        &[("csrf", &ocsrf), ("payment_date", "15/12/2024")],
    );
    assert_eq!(resp.status, 404);
    let cookie = format!("vigia_sesion={}", o.cookies["vigia_sesion"]);
    let resp = request(
        &s.addr,
        "POST",
        "/incumplimientos/1/pagos",
        &[("Cookie", &cookie), ("Content-Type", "text/plain")],
        b"csrf=x",
    );
    assert_eq!(resp.status, 400);
    let t = resp.text();
    assert!(
        t.contains("<h1>Solicitud no válida</h1>")
            && t.contains("El formulario no llegó como lo envía vigia")
            && t.contains(menu)
            && t.contains("<a href=\"/incumplimientos/1\">Volver</a>"),
        "{t}"
    );
    // a record that is not there, a token that is not the session's, a role that may not
    let t = o.get("/liquidaciones/99").text();
    assert!(
        t.contains("<h1>No encontrado</h1>")
            && t.contains("No existe la liquidación 99 en el registro.")
            && t.contains(menu),
        "{t}"
    );
    let resp = o.post("/tasas", &[("csrf", "otro")]);
    assert_eq!(resp.status, 403);
    let t = resp.text();
    assert!(
        t.contains("<h1>Acceso denegado</h1>")
            && t.contains(menu)
            && t.contains("<a href=\"/tasas\">Volver</a>"),
        "{t}"
    );
    let resp = c.get("/importar");
    assert_eq!(resp.status, 403);
    let t = resp.text();
    assert!(
        t.contains("Su perfil no permite esta acción")
            && t.contains("<nav><a href=\"/\">Tablero</a><a href=\"/titulares\">Titulares</a><a href=\"/avisos/verificar\">")
            && t.contains("carla · consulta"),
        "{t}"
    );
    // nobody signed in: the same page, without a menu
    let resp = request(
        &s.addr,
        "POST",
        "/ingresar",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        b"usuario=x",
    );
    assert_eq!(resp.status, 403);
    let t = resp.text();
    assert!(
        t.contains("<h1>Acceso denegado</h1>") && !t.contains("<nav>"),
        "{t}"
    );
}

/// Issue 13's review of the wording: an empty field, a negative amount, an empty reason, the
/// convention, the holder's table.
#[test]
fn the_pages_word_their_messages_as_sentences() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let t = o
        .post(
            "/incumplimientos/1/pagos",
            &[
                ("csrf", &ocsrf),
                ("payment_date", ""),
                ("payment_amount", "-100"),
            ],
        )
        .text();
    assert_eq!(
        error_text(&t, "payment_date").as_deref(),
        Some("Falta: indique la fecha (dd/mm/aaaa).")
    );
    assert_eq!(
        error_text(&t, "payment_amount").as_deref(),
        Some("«-100» es negativo: el valor debe ser positivo, p. ej. 1.450,50.")
    );
    let t = o
        .post(
            "/incumplimientos/1/anular",
            &[("csrf", &ocsrf), ("void_reason", "")],
        )
        .text();
    assert_eq!(
        error_text(&t, "void_reason").as_deref(),
        Some("Motivo de la anulación: indique por qué se anula el incumplimiento.")
    );
    // the preview's resolutions with their dates dd/mm/aaaa, its rates with two decimals
    let t = o
        .post(
            "/adjudicaciones/2/incumplimiento",
            &breach_fields(&ocsrf, "vista"),
        )
        .text();
    assert!(
        t.contains("<td class=\"num\" data-label=\"Tasa EA\">27,90 %</td>")
            && t.contains("<td data-label=\"Resolución\">SFC Res. 2168 de 2024 (31/10/2024)</td>")
            && !t.contains("2024-10-31"),
        "{t}"
    );
    let t = o.get("/titulares/1").text();
    assert!(
        t.contains(
            "<th>N.º</th><th>programa</th><th>fecha</th><th class=\"num\">acciones</th>\
                    <th class=\"num\">precio</th><th class=\"num\">acciones sin incumplimiento</th>"
        ),
        "{t}"
    );
    let t = o.get("/programas/D3939-2004").text();
    assert!(
        t.contains(
            "<dt>Convención de intereses</dt><dd title=\"convention = &quot;daily-simple&quot; en el \
             archivo del programa\">Interés simple diario. Cada día se liquida sobre el capital pendiente"
        ),
        "{t}"
    );
}
