//! The dashboard, the imports' previews, the rates and the audit pages (the harness is in `web.rs`).

use crate::common::Reg;
use crate::web::*;

#[test]
fn the_dashboard_runs_the_check_again_only_when_the_register_changes() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // `signed_in` visited the dashboard once, as of today
    let today = c.get("/");
    assert_eq!(check_runs(&today), 1);
    let at = "/?fecha=10/03/2025";
    let first = c.get(at);
    assert_eq!(check_runs(&first), 2);
    assert_eq!(
        first
            .text()
            .matches("BREACH_<wbr>NOT_<wbr>LIQUIDATED")
            .count(),
        0
    );
    let again = c.get(at);
    assert_eq!(
        check_runs(&again),
        2,
        "nothing changed: served from the cache"
    );
    assert_eq!(again.text(), first.text());
    // another person signing in changes no fact of the register
    let (mut other, _) = Client::signed_in(&s, "carla", PASSWORD);
    assert_eq!(check_runs(&other.get(at)), 2);

    // a breach recorded through the form: the next visit shows it
    let saved = c.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "registrar"),
    );
    assert_eq!(saved.status, 303);
    let after = other.get(at);
    assert_eq!(check_runs(&after), 3);
    let t = after.text();
    // once in the summary, once in the list of findings
    assert_eq!(
        t.matches("BREACH_<wbr>NOT_<wbr>LIQUIDATED").count(),
        2,
        "{t}"
    );
    assert!(t.contains("href=\"/incumplimientos/1\""), "{t}");

    // and one recorded by the CLI, another process
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "100",
        "--consideration-per-share",
        "1450",
    ]);
    let after = c.get(at);
    assert_eq!(check_runs(&after), 4);
    let t = after.text();
    assert_eq!(
        t.matches("BREACH_<wbr>NOT_<wbr>LIQUIDATED").count(),
        3,
        "{t}"
    );
    assert!(t.contains("href=\"/incumplimientos/2\""), "{t}");
    assert_eq!(check_runs(&c.get(at)), 4);

    // each date is kept apart, and a change reaches them all
    assert_eq!(check_runs(&c.get("/?fecha=11/03/2025")), 5);
    assert_eq!(check_runs(&c.get(at)), 5);
    r.ok(&["breach", "void", "2", "--reason", "registrado por error"]);
    let after = c.get(at);
    assert_eq!(check_runs(&after), 6);
    assert_eq!(
        after
            .text()
            .matches("BREACH_<wbr>NOT_<wbr>LIQUIDATED")
            .count(),
        2
    );
    assert_eq!(check_runs(&c.get("/?fecha=11/03/2025")), 7);
}

/// The page `o` is shown for the file of adjudications `name` uploaded to the import page.
fn adjudications_preview(o: &mut Client<'_>, csrf: &str, name: &str, bytes: &[u8]) -> String {
    o.upload(
        "/importar",
        &[("csrf", csrf), ("programa", "D3939-2004")],
        (name, bytes),
    )
    .text()
}

#[test]
fn imports_are_previewed_by_line_then_confirmed() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let before = r.dump();
    let bad = format!(
        "{}CC,2000000001,Nueva Persona,natural,trabajador,10,,2024-03-15,,\nCC,2000000002,Otra,natural,astronauta,10,,2024-03-15,,\nCC,1000000001,Otro Nombre,natural,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = adjudications_preview(&mut o, &csrf, "malo.csv", bad.as_bytes());
    // the file's problem (line 3) and the register's (line 4) in one preview
    assert!(
        t.contains("tiene 2 problemas; nada se escribió. Corríjalos y vuelva a subirlo."),
        "{t}"
    );
    assert!(
        t.contains("<td class=\"num\">3</td><td>category</td><td>astronauta</td>"),
        "{t}"
    );
    assert!(
        t.contains("<td class=\"num\">4</td><td>name</td><td>Otro Nombre</td>"),
        "{t}"
    );
    assert_eq!(r.dump(), before);
    // a Spanish header: the register's refusals name its columns so (Ana's award again with
    // other figures; her document under another name), and a pledge of an adjudication the
    // register does not hold on the pledges' page
    let spanish = "Tipo documento;Número de documento;Nombre;Tipo persona;Categoría;Acciones;\
                   Precio por acción;Fecha adjudicación;Acreedor;Acciones financiadas\n\
                   CC;1000000001;Ana Prueba;natural;trabajador;900;;15/03/2024;;\n\
                   CC;1000000001;Otro Nombre;natural;trabajador;10;;16/03/2024;;\n";
    let t = adjudications_preview(&mut o, &csrf, "es.csv", spanish.as_bytes());
    for want in [
        "<td class=\"num\">2</td><td>Acciones</td><td>900</td>",
        "(Acciones 900, en el registro 1.000)",
        "<td class=\"num\">3</td><td>Nombre</td><td>Otro Nombre</td>",
    ] {
        assert!(t.contains(want), "{want} in {t}");
    }
    let prendas = "Adjudicación;Grado;Fecha inscripción\n7;1;02/04/2024\n";
    let t = o
        .upload(
            "/prendas/importar",
            &[("csrf", &csrf)],
            ("p.csv", prendas.as_bytes()),
        )
        .text();
    let want = "Adjudicación «7»: no hay una adjudicación con ese número";
    assert!(t.contains(want), "{want} in {t}");
    assert_eq!(r.dump(), before);
    let good = format!(
        "{}CC,2000000001,Nueva Persona,natural,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = adjudications_preview(&mut o, &csrf, "bueno.csv", good.as_bytes());
    assert!(
        t.contains("no tiene problemas: 1 adjudicación y 1 titular nuevo por agregar."),
        "{t}"
    );
    assert_eq!(r.dump(), before, "nothing before the confirmation");
    let token = {
        let i = t.find("name=\"token\" value=\"").unwrap() + 20;
        t[i..i + 64].to_string()
    };
    let done = o
        .post("/importar/confirmar", &[("csrf", &csrf), ("token", &token)])
        .text();
    assert!(done.contains("Importado «bueno.csv»"), "{done}");
    assert!(r.ok(&["adjudications", "list"]).contains("Nueva Persona"));
    // the same confirmation again finds nothing pending
    assert_eq!(
        o.post("/importar/confirmar", &[("csrf", &csrf), ("token", &token)])
            .status,
        400
    );
}

#[test]
fn the_dashboard_gives_each_finding_its_reason_in_spanish() {
    // issue 13: the check's reasons were English on a Spanish page
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get("/?fecha=30/06/2024").text();
    // Ana Prueba's adjudication of 15/03/2024 has no pledge; its lock-up ends two years later
    assert!(
        t.contains(
            "<td data-label=\"Motivo\">no hay prenda vigente durante el período de restricción \
             (termina el 15/03/2026): regístrela (art. 10)</td>"
        ),
        "{t}"
    );
    assert!(!t.contains("no pledge"), "{t}");
    // each code is named in Spanish, the code beside it: the summary's row (three holders
    // without a pledge: Ana, Luis, the union) and each of the three findings listed
    assert!(
        t.contains(
            "<td data-label=\"Código\">Falta la prenda<br><small><code class=\"codigo\">MISSING_<wbr>PLEDGE</code></small></td>\
             <td data-label=\"Programa\"><span class=\"ident\">D3939-2004</span></td><td class=\"num\" data-label=\"Hallazgos\">3</td>"
        ),
        "{t}"
    );
    assert_eq!(
        t.matches("Falta la prenda<br><small><code class=\"codigo\">MISSING_<wbr>PLEDGE</code>")
            .count(),
        1 + 3,
        "{t}"
    );
    // the command line says the same finding in English, as before
    let csv = crate::common::out(&r.run(&["check", "--as-of", "2024-06-30", "--format", "csv"]));
    assert!(
        csv.contains(
            "no pledge in force during the lock-up (ends 2026-03-15): register it (Art. 10)"
        ),
        "{csv}"
    );
}

#[test]
fn the_import_preview_says_every_problem_in_spanish() {
    // issue 13: the preview of a bad file listed its problems in English
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let before = r.dump();
    let mut preview = |name: &str, bytes: &[u8]| {
        let t = adjudications_preview(&mut o, &csrf, name, bytes);
        // the problems' table: no English sentence, nor the English "line N:" glue
        let table = &t[t
            .find("<table class=\"problemas\"")
            .expect("a problems table")..];
        for english in ["line", "not a", "must be", "repeats", "already", "this is"] {
            assert!(!table.contains(english), "{english:?} in {table}");
        }
        t
    };
    let bad = format!(
        "{}CC,2000000001,Nueva Persona,natural,trabajador,10,,2024-13-01,,\n\
         CC,2000000001,Nueva Persona,natural,trabajador,10,,2024-13-01,,\n\
         CC,2000000002,Otra,alien,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = preview("malo.csv", bad.as_bytes());
    assert!(
        t.contains("tiene 3 problemas; nada se escribió. Corríjalos"),
        "{t}"
    );
    for row in [
        "<td class=\"num\">2</td><td>adjudicated_on</td><td>2024-13-01</td><td>«2024-13-01» no es \
         un día del calendario; revise el día y el mes (dd/mm/aaaa)</td>",
        "<td class=\"num\">3</td><td></td><td></td><td>repite exactamente la línea 2; cada fila \
         va una sola vez: borre una de las dos</td>",
        "<td class=\"num\">4</td><td>person_type</td><td>alien</td><td>«alien» no es un tipo de \
         persona; use natural o legal (jurídica)</td>",
    ] {
        assert!(t.contains(row), "{row}\n{t}");
    }
    // what the register finds: a document already registered under another name, and more
    // shares than the program offers
    let conflict = format!(
        "{}CC,1000000001,Otro Nombre,natural,trabajador,10,,2024-03-15,,\n\
         CC,2000000003,Muchas Acciones,natural,trabajador,12960982,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = preview("conflicto.csv", conflict.as_bytes());
    for row in [
        "<td class=\"num\">2</td><td>name</td><td>Otro Nombre</td><td>CC 1000000001 ya está \
         registrado como «Ana Prueba» (titular N.º 1, en el registro o antes en este archivo); un \
         documento, un titular</td>",
        "<td>el archivo adjudica 12.960.992 acciones; con las 53.500 ya registradas supera las \
         12.960.982 que ofrece D3939-2004</td>",
    ] {
        assert!(t.contains(row), "{row}\n{t}");
    }
    // the file's problems and the register's in one preview, in line order (the review saw the
    // register's only on a second upload, once the file's were fixed)
    let both = format!(
        "{}CC,2000000004,Nueva,natural,trabajador,abc,,2024-03-15,,\n\
         CC,1000000001,Otro Nombre,natural,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = preview("ambos.csv", both.as_bytes());
    assert!(
        t.contains("tiene 2 problemas; nada se escribió. Corríjalos"),
        "{t}"
    );
    let shares = t.find("<td class=\"num\">2</td><td>shares</td><td>abc</td>");
    let name = t.find("<td class=\"num\">3</td><td>name</td><td>Otro Nombre</td>");
    assert!(matches!((shares, name), (Some(a), Some(b)) if a < b), "{t}");
    // a workbook that cannot be read (workbooks are read since issue 19)
    let t = preview(
        "libro.xlsx",
        b"PK\x03\x04\x14\x00\x06\x00[Content_Types].xml xl/workbook.xml",
    );
    assert!(t.contains("<td>el libro no se puede leer ("), "{t}");
    assert_eq!(r.dump(), before);
    // the command line reads the same file in English, as before
    let path = r.file("malo.csv", bad.as_bytes());
    let err = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        err.contains("line 4: person_type \"alien\": \"alien\" is not a person type; use natural or legal (jurídica)"),
        "{err}"
    );
}

#[test]
fn rates_are_added_by_an_admin() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut a, csrf) = Client::signed_in(&s, "adela", PASSWORD);
    let rate = |from: &str, to: &str, ibc: &str, usury: &str, resolution: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("from", from.to_string()),
            ("to", to.to_string()),
            ("ibc", ibc.to_string()),
            ("usury", usury.to_string()),
            ("resolution", resolution.to_string()),
            ("supersede_reason", String::new()),
        ]
    };
    let post = |c: &mut Client<'_>, v: &[(&str, String)]| {
        let refs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
        c.post("/tasas", &refs)
    };
    // the shipped series, each column's rates with its decimals (the IBC two; the moratorium
    // three, as 1,5 × 26,53 = 39,795 in 10/2023) and each resolution's date dd/mm/aaaa
    let t = a.get("/tasas").text();
    assert_eq!(
        rate_row(&t, "01/09/2026"),
        "<tr><td>01/09/2026</td><td>30/09/2026</td><td class=\"num\">19,49 %</td>\
         <td class=\"num\">29,240 %</td><td>SFC Res. 1260 de 2026 (31/08/2026)</td>"
    );
    // the percentage inputs ask for a percentage
    let resp = post(&mut a, &rate("01/11/2026", "30/11/2026", "", "", "x"));
    assert_eq!(resp.status, 422);
    assert_eq!(
        error_text(&resp.text(), "ibc").as_deref(),
        Some("Falta: indique el porcentaje, p. ej. 27,90."),
    );
    let resp = post(
        &mut a,
        &rate("01/11/2026", "30/11/2026", "17,8,4", "-3", "x"),
    );
    // 17.84 reads as 17,84 since issue 19 (a point before two digits is a decimal point)
    assert_eq!(
        error_text(&resp.text(), "ibc").as_deref(),
        Some(
            "«17,8,4» tiene más de un separador: una tasa en porcentaje lleva solo la coma decimal, sin puntos de miles, p. ej. 27,90."
        ),
    );
    assert_eq!(
        error_text(&resp.text(), "usury").as_deref(),
        Some("«-3» es negativo: el porcentaje debe ser positivo, p. ej. 27,90."),
    );

    // November: 17,84 % after October's 19,06 % (1,22 points): confirmed, no warning; the
    // moratorium rate is 1,5 × 17,84 = 26,76
    let added = post(
        &mut a,
        &rate(
            "01/11/2026",
            "30/11/2026",
            "17,84",
            "",
            "SFC Res. 9999 de 2026 (2026-10-30)",
        ),
    );
    assert_eq!(added.status, 200, "{}", added.text());
    let t = added.text();
    assert!(
        t.contains("<p class=\"ok\" role=\"status\">Certificación agregada: del 01/11/2026 al 30/11/2026.</p>"),
        "{t}"
    );
    assert!(!t.contains("Atención"), "{t}");
    assert_eq!(
        rate_row(&t, "01/11/2026"),
        "<tr><td>01/11/2026</td><td>30/11/2026</td><td class=\"num\">17,84 %</td>\
         <td class=\"num\">26,760 %</td><td>SFC Res. 9999 de 2026 (30/10/2026)</td>"
    );
    // the form is empty again
    assert!(t.contains("name=\"ibc\" type=\"text\" value=\"\""), "{t}");

    // December: 25 % is 7,16 points above November's 17,84 %: added, with the CLI's warning
    let added = post(&mut a, &rate("01/12/2026", "31/12/2026", "25", "37,5", "R"));
    assert_eq!(added.status, 200, "{}", added.text());
    let t = added.text();
    assert!(
        t.contains(
            "<p class=\"aviso\" role=\"alert\">Atención: el IBC de 25,00 % EA del 01/12/2026 al \
             31/12/2026 está 7,16 puntos por encima del 17,84 % EA del 01/11/2026 al 30/11/2026; \
             compruébelo con la resolución de la Superintendencia Financiera.</p>"
        ),
        "{t}"
    );
    assert!(
        rate_row(&t, "01/12/2026")
            .contains("<td class=\"num\">25,00 %</td><td class=\"num\">37,500 %</td>")
    );
    // the audit trail says what was done
    assert!(
        a.get("/auditoria")
            .text()
            .contains("<td data-label=\"Acción\">Registro de una certificación de tasa<br><small><code class=\"codigo\">rate.<wbr>add</code>"),
    );
    // the command line warns of the same jump, in English
    let twin = Reg::new().with_letterhead();
    twin.ok(&[
        "rates",
        "add",
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-30",
        "--ibc",
        "17.84",
        "--resolution",
        "x",
    ]);
    let out = twin.ok(&[
        "rates",
        "add",
        "--from",
        "2026-12-01",
        "--to",
        "2026-12-31",
        "--ibc",
        "25",
        "--usury",
        "37.5",
        "--resolution",
        "R",
    ]);
    assert!(
        out.contains(
            "warning: IBC 25.00 % EA for 2026-12-01..2026-12-31 is 7.16 points above the 17.84 % EA \
             of 2026-11-01..2026-11-30; check it against the SFC resolution"
        ),
        "{out}"
    );

    // a period that overlaps one in force is refused beside the reason that would replace it
    let before = r.dump();
    let refused = post(&mut a, &rate("01/11/2026", "30/11/2026", "18", "", "otra"));
    assert_eq!(refused.status, 422);
    let shown = error_text(&refused.text(), "supersede_reason").unwrap_or_default();
    assert!(
        shown.starts_with("El período del 01/11/2026 al 30/11/2026 se superpone con el del 01/11/2026 al 30/11/2026"),
        "{}",
        refused.text()
    );
    assert!(!refused.text().contains("Certificación agregada"));
    assert_eq!(r.dump(), before, "nothing was written");
    // the period's own checks, in Spanish with decimal commas: 1,5 × 18,5 = 27,75
    let typed = a.post(
        "/tasas",
        &[
            ("csrf", &csrf),
            ("from", "01/12/2026"),
            ("to", "31/12/2026"),
            ("ibc", "18,5"),
            ("usury", "30"),
            ("resolution", "otra"),
        ],
    );
    assert_eq!(typed.status, 422);
    assert!(
        typed.text().contains(
            "La certificación no es válida: la tasa de usura (usury_ea_pct) 30 % no es 1,5 × el \
             interés bancario corriente (ibc_ea_pct) 18,5 % (= 27,75 %); verifique ambas cifras en la \
             resolución de la Superintendencia Financiera"
        ),
        "{}",
        typed.text()
    );
}

/// Issue 13's review: an upload sent without a file landed on an error page.
#[test]
fn an_upload_without_a_file_shows_its_form_again_with_a_message() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    let before = r.dump();
    // a file input left empty: the browser sends a part without a file name or bytes
    let none = ("", &b""[..]);
    for (admin, path, said, form) in [
        (
            false,
            "/importar",
            "Elija el archivo a importar; no se subió ninguno.",
            "<option value=\"D3939-2004\" selected>",
        ),
        (
            false,
            "/avisos/verificar",
            "Elija el documento a verificar; no se subió ninguno.",
            "<form method=\"post\" action=\"/avisos/verificar\" enctype=\"multipart/form-data\" novalidate>",
        ),
        (
            true,
            "/programas",
            "Elija el archivo del programa; no se subió ninguno.",
            "<form method=\"post\" action=\"/programas\" enctype=\"multipart/form-data\" novalidate>",
        ),
    ] {
        let (c, csrf) = if admin {
            (&mut a, &acsrf)
        } else {
            (&mut o, &ocsrf)
        };
        let resp = c.upload(path, &[("csrf", csrf), ("programa", "D3939-2004")], none);
        assert_eq!(resp.status, 422, "{path}: {}", resp.text());
        let t = resp.text();
        assert_eq!(general_errors(&t), [said], "{path}: {t}");
        assert!(t.contains(form), "{path}: {t}");
    }
    assert_eq!(r.dump(), before);
}

/// Issue 13's review of the audit page: the actor of a sign-in that failed, the tables by
/// their SQL names, "hash".
#[test]
fn the_audit_page_says_its_tables_and_actors_in_spanish() {
    let r = register_with_users();
    let s = Server::start(&r);
    assert_eq!(Client::new(&s).login("oscar", "no es la clave").status, 401);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get("/auditoria").text();
    assert!(
        t.contains("<td data-label=\"Usuario\">(sin sesión)</td><td data-label=\"Acción\">Intento de ingreso fallido<br><small><code class=\"codigo\">user.<wbr>sign_<wbr>in_<wbr>failed</code></small></td>\
                    <td data-label=\"Tabla\">Ingresos al sistema<br><small><code class=\"codigo\">user_<wbr>sign_<wbr>ins</code></small></td>"),
        "{t}"
    );
    assert!(
        !t.contains("(not signed in)")
            && t.contains("<th>huella</th>")
            && !t.contains("<th>hash</th>"),
        "{t}"
    );
    // the register keeps what it stored
    let stored: String = r
        .conn()
        .query_row(
            "SELECT actor FROM audit_events WHERE action = 'user.sign_in_failed'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(stored, "(not signed in)");
    // the filter is a list of Spanish names whose values are the tables
    assert!(
        t.contains("<select id=\"tabla\" name=\"tabla\"><option value=\"\" selected>Todas las tablas</option>")
            && t.contains("<option value=\"payment_voids\">Anulaciones de pagos (payment_voids)</option>")
            && t.contains("<option value=\"renderings\">Documentos generados (renderings)</option>"),
        "{t}"
    );
    let t = c.get("/auditoria?tabla=user_sign_ins").text();
    assert!(
        t.contains(
            "<option value=\"user_sign_ins\" selected>Ingresos al sistema (user_sign_ins)</option>"
        ),
        "{t}"
    );
    // two sign-ins (carla's failed one is oscar's) and nothing else
    assert!(
        t.contains("<caption>Últimos 2 eventos de la tabla Ingresos al sistema</caption>"),
        "{t}"
    );
    assert_eq!(
        t.matches("<code class=\"codigo\">user_<wbr>sign_<wbr>ins</code>")
            .count(),
        2,
        "{t}"
    );
    assert!(!t.contains("<code class=\"codigo\">users</code>"), "{t}");
}

/// Issue 13's review of the dashboard: which rate months are missing; findings by severity,
/// program and holder; "Primer hallazgo" for one.
#[test]
fn the_dashboard_names_missing_months_and_sorts_its_findings() {
    use chrono::Datelike;
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // the shipped series ends on 31/10/2026; this test runs on 01/12/2026 or later, so
    // November is missing, and every month through today's
    let t = o.get("/").text();
    let today = vigia::calendar::colombia_date(chrono::Utc::now());
    let meses = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ];
    let this_month = format!("{} de {}", meses[today.month0() as usize], today.year());
    let open = "<p class=\"aviso\" role=\"alert\">";
    let start = t.find(open).unwrap_or_else(|| panic!("{t}")) + open.len();
    let warning = &t[start..start + t[start..].find("</p>").unwrap()];
    assert!(
        warning.starts_with("Faltan las tasas de noviembre")
            && warning.contains(&format!(
                "{this_month} (la serie termina el 31/10/2026): agréguelas en «Tasas»"
            )),
        "{warning}"
    );
    if (today.year(), today.month()) == (2026, 12) {
        assert!(warning.starts_with(
            "Faltan las tasas de noviembre y diciembre de 2026 (la serie termina el 31/10/2026)"
        ));
    }

    // Ana's and Luis's adjudications pledged (Luis's to the bank that financed it), the
    // union's not: on 01/02/2026 that is the one finding
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    r.ok(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
        "--lender",
        "Banco Ejemplo",
    ]);
    let t = o.get("/?fecha=01/02/2026").text();
    assert!(
        t.contains("Hallazgos al 01/02/2026: 1</h2>")
            && t.contains("<caption>Primer hallazgo, por severidad, programa y titular</caption>"),
        "{t}"
    );
    // on 01/03/2026, 15 days before the lock-ups end on 15/03/2026, with a breach of the
    // union's: its missing pledge (high), its breach not liquidated (medium), each lock-up
    // ending (low), holders by name within a severity
    assert_eq!(
        o.post(
            "/adjudicaciones/3/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let t = o.get("/?fecha=01/03/2026").text();
    let start = t
        .find("<table class=\"hallazgos\">")
        .unwrap_or_else(|| panic!("{t}"));
    let table = &t[start..start + t[start..].find("</table>").unwrap()];
    // each cell names its column, so at phone width the reason is shown under its label
    assert_eq!(
        table.matches("data-label=\"Motivo\"").count(),
        table.matches("<tr>").count() - 1,
        "{table}"
    );
    let rows: Vec<(String, String)> = table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            // the code as written, without the line breaks offered after its underscores
            let code = row
                .split("<code class=\"codigo\">")
                .nth(1)
                .unwrap()
                .split("</code>")
                .next()
                .unwrap()
                .replace("<wbr>", "");
            let holder = row
                .split("<a href=\"/titulares?q=")
                .nth(1)
                .and_then(|a| a.split("\">").nth(1))
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            (code.to_string(), holder.to_string())
        })
        .collect();
    let expected = [
        ("MISSING_PLEDGE", "Sindicato de Prueba"),
        ("BREACH_NOT_LIQUIDATED", "Sindicato de Prueba"),
        ("LOCKUP_ENDING", "Ana Prueba"),
        ("LOCKUP_ENDING", "Luis Prueba"),
        ("LOCKUP_ENDING", "Sindicato de Prueba"),
    ];
    assert_eq!(
        rows,
        expected.map(|(a, b)| (a.to_string(), b.to_string())),
        "{table}"
    );
    assert!(
        table
            .contains("<caption>Primeros 5 hallazgos, por severidad, programa y titular</caption>"),
        "{table}"
    );
}

/// Issue 22 item 6: the dashboard draws when the lock-ups end (24 months from the check's date)
/// and the findings by severity, server-rendered SVG with each bar's figures.
#[test]
fn the_dashboard_draws_the_lockups_ending_and_the_findings_by_severity() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get("/?fecha=30/06/2024").text();
    // the three adjudications of 15/03/2024 (1.000 + 2.500 + 50.000 shares) end on 15/03/2026
    let lockups = &t[t
        .find("aria-label=\"Períodos de restricción que terminan cada mes, de junio de 2024 a mayo de 2026\"")
        .expect("the lock-ups picture")..];
    let lockups = &lockups[..lockups.find("</figure>").unwrap()];
    assert_eq!(lockups.matches("<rect").count(), 24, "{lockups}");
    assert!(
        lockups.contains("<title>marzo de 2026: 3 adjudicaciones, 53.500 acciones</title>"),
        "{lockups}"
    );
    assert!(lockups.contains("3 adjudicaciones en total."), "{lockups}");
    // the findings: three holders without a pledge (high), nothing medium or low
    assert!(
        t.contains("<title>severidad alta: 3 hallazgos</title>"),
        "{t}"
    );
    assert!(
        t.contains("<title>severidad media: 0 hallazgos</title>"),
        "{t}"
    );
    // a voided adjudication no longer counts
    r.ok(&[
        "adjudications",
        "void",
        "1",
        "--reason",
        "cargada por error",
    ]);
    let t = c.get("/?fecha=30/06/2024").text();
    assert!(
        t.contains("<title>marzo de 2026: 2 adjudicaciones, 52.500 acciones</title>"),
        "{t}"
    );
    // after the lock-ups, none ends in the 24 months shown: a sentence says so (with where to
    // look for those that ended), not an empty chart
    let t = c.get("/?fecha=01/04/2026").text();
    assert!(
        t.contains(
            "Ninguna adjudicación vigente termina su período de restricción de abril de 2026 a \
             marzo de 2028. Para ver los que terminaron antes, haga el chequeo a una fecha \
             anterior («Chequeo al»)."
        ),
        "{t}"
    );
    assert!(
        !t.contains("Períodos de restricción que terminan cada mes"),
        "{t}"
    );
}
