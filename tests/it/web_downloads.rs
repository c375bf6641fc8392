//! The web's downloads (issue 22): the dashboard's check as the workbook and the CSV for Excel
//! that `vigia check --format xlsx|csv-excel` writes, read back with calamine; and a holder's
//! contact details shown and changed on the holder's page.

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Server, register_with_users, request};
use calamine::{Data, Reader, Xlsx};

/// The rows of a workbook's sheet.
fn sheet(bytes: &[u8], name: &str) -> Vec<Vec<Data>> {
    let mut book: Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    let range = book.worksheet_range(name).unwrap();
    range.rows().map(|r| r.to_vec()).collect()
}

const HEADERS: [&str; 10] = [
    "Código",
    "Gravedad",
    "Programa",
    "Tipo documento",
    "Número documento",
    "Titular",
    "Adjudicación",
    "Incumplimiento",
    "Saldo pendiente",
    "Motivo",
];

/// A breach of 10 shares on adjudication 1 (Ana Prueba), recorded by the command line.
fn breach(r: &Reg) {
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
    ]);
}

#[test]
fn web_downloads_the_check_as_the_cli_writes_it() {
    let r = register_with_users();
    breach(&r);
    let cli = r.file("cli.xlsx", b"");
    std::fs::remove_file(&cli).unwrap();
    let o = r.run(&[
        "check",
        "--as-of",
        "10/02/2025",
        "--format",
        "xlsx",
        "--out",
        &cli,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", crate::common::err(&o));
    let cli_rows = sheet(&std::fs::read(&cli).unwrap(), "Chequeo");

    let s = Server::start(&r);
    // without a session: to the sign-in, no file
    let anon = request(
        &s.addr,
        "GET",
        "/chequeo/descargar?fecha=2025-02-10&formato=xlsx",
        &[],
        b"",
    );
    assert_eq!(anon.status, 303);
    assert_eq!(anon.header("location"), Some("/ingresar"));

    // consulta, the lowest role, sees the links and downloads
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let dash = c.get("/?fecha=10/02/2025").text();
    assert!(
        dash.contains("href=\"/chequeo/descargar?fecha=2025-02-10&amp;formato=xlsx\"")
            && dash.contains("Descargar Excel (.xlsx)")
            && dash.contains("href=\"/chequeo/descargar?fecha=2025-02-10&amp;formato=csv-excel\"")
            && dash.contains("Descargar CSV para Excel"),
        "{dash}"
    );
    let x = c.get("/chequeo/descargar?fecha=2025-02-10&formato=xlsx");
    assert_eq!(x.status, 200, "{}", x.text());
    assert_eq!(
        x.header("content-type"),
        Some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    );
    assert_eq!(
        x.header("content-disposition"),
        Some("attachment; filename=\"vigia-chequeo-2025-02-10.xlsx\"")
    );
    let rows = sheet(&x.body, "Chequeo");
    let header: Vec<String> = rows[0].iter().map(|c| c.to_string()).collect();
    assert_eq!(header, HEADERS);
    // the same findings, cell for cell, as the command line's (the reason aside: the command
    // line names the command to run, the page says it in words)
    assert_eq!(rows.len(), cli_rows.len());
    assert!(rows.len() > 1, "findings expected: {rows:?}");
    for (w, c) in rows.iter().zip(&cli_rows) {
        assert_eq!(w[..9], c[..9]);
    }
    // typed cells: the adjudication and breach ids are numbers, the document number text
    let ana = rows
        .iter()
        .find(|r| r[7] == Data::Float(1.0))
        .expect("a finding on breach 1");
    assert_eq!(ana[5], Data::String("Ana Prueba".into()));
    assert_eq!(ana[4], Data::String("1000000001".into()));
    assert_eq!(ana[6], Data::Float(1.0));
    assert!(matches!(&ana[9], Data::String(s) if !s.is_empty() && !s.contains("vigia ")));
    // the Consulta sheet: the as-of date as a date, who downloaded, how many findings
    let asked = sheet(&x.body, "Consulta");
    let value = |k: &str| {
        asked
            .iter()
            .find(|r| r[0] == Data::String(k.into()))
            .unwrap_or_else(|| panic!("no {k} in {asked:?}"))[1]
            .clone()
    };
    match value("Fecha de corte") {
        Data::DateTime(d) => assert_eq!(d.as_datetime().unwrap().date().to_string(), "2025-02-10"),
        other => panic!("the as-of date is not a date: {other:?}"),
    }
    assert_eq!(value("Descargado por"), Data::String("carla".into()));
    assert_eq!(value("Hallazgos"), Data::Float((rows.len() - 1) as f64));

    // the CSV for Excel: BOM, `;`, CRLF, the Spanish header, a line per finding
    let v = c.get("/chequeo/descargar?fecha=10/02/2025&formato=csv-excel");
    assert_eq!(v.status, 200, "{}", v.text());
    assert_eq!(v.header("content-type"), Some("text/csv; charset=utf-8"));
    assert_eq!(
        v.header("content-disposition"),
        Some("attachment; filename=\"vigia-chequeo-2025-02-10.csv\"")
    );
    assert!(v.body.starts_with("\u{feff}".as_bytes()));
    let csv = v.text();
    assert!(
        csv.starts_with(&format!("\u{feff}{}\r\n", HEADERS.join(";"))),
        "{csv}"
    );
    assert_eq!(csv.matches("\r\n").count(), rows.len(), "{csv}");
    assert!(
        csv.contains(";D3939-2004;CC;1000000001;Ana Prueba;1;1;"),
        "{csv}"
    );
    // an unknown format is refused with a sentence, not a file
    let bad = c.get("/chequeo/descargar?formato=pdf");
    assert_eq!(bad.status, 400);
    assert!(bad.text().contains("«pdf» no existe"), "{}", bad.text());
}

/// The text of the refusal shown next to the input `name`, if any (as maud escaped it).
fn error_beside(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

/// The `holder.update` events of the audit chain: (actor, row id).
fn contact_events(r: &Reg) -> Vec<(String, i64)> {
    r.json(&["audit", "log", "--format", "json"])
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "holder.update")
        .map(|e| {
            (
                e["actor"].as_str().unwrap().to_string(),
                e["entity_id"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The contact form as sent, all three details given.
fn fields(csrf: &str) -> Vec<(&str, &str)> {
    vec![
        ("csrf", csrf),
        ("address", "Calle 10 # 20-30"),
        ("city", "Bogotá"),
        ("email", "ana@ejemplo.co"),
    ]
}

#[test]
fn web_holder_contact_shown_and_changed_by_an_oficial() {
    let r = register_with_users();
    let s = Server::start(&r);
    // Ana Prueba (holder 1) has no contact details yet
    let (mut carla, carla_csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let page = carla.get("/titulares/1").text();
    assert!(page.contains("Datos de contacto"), "{page}");
    assert!(page.contains("id=\"contacto-direccion\">—</dd>"), "{page}");
    // consulta sees them, is offered no form, and is refused the write
    assert!(!page.contains("action=\"/titulares/1/contacto\""), "{page}");
    assert_eq!(
        carla
            .post("/titulares/1/contacto", &fields(&carla_csrf))
            .status,
        403
    );
    assert!(contact_events(&r).is_empty());

    let (mut oscar, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let csrf = csrf.as_str();
    let page = oscar.get("/titulares/1").text();
    assert!(page.contains("action=\"/titulares/1/contacto\""), "{page}");
    // without the form's token: refused
    assert_eq!(
        oscar
            .post("/titulares/1/contacto", &fields("x")[1..])
            .status,
        403
    );
    // an implausible e-mail: refused beside it, what was typed kept, nothing written
    let bad = oscar.post(
        "/titulares/1/contacto",
        &[
            ("csrf", csrf),
            ("address", "Calle 10 # 20-30"),
            ("city", "Bogotá"),
            ("email", "ana@ejemplo"),
        ],
    );
    assert_eq!(bad.status, 422, "{}", bad.text());
    let t = bad.text();
    let e = error_beside(&t, "email").expect("a refusal beside the e-mail");
    assert!(
        e.contains("ana@ejemplo") && e.contains("correo electrónico"),
        "{e}"
    );
    assert!(t.contains("value=\"Calle 10 # 20-30\""), "{t}");
    assert!(contact_events(&r).is_empty());
    // a control character: refused, nothing written
    let ctl = oscar.post(
        "/titulares/1/contacto",
        &[
            ("csrf", csrf),
            ("address", "Calle 10\u{7} # 20-30"),
            ("city", "Bogotá"),
            ("email", "ana@ejemplo.co"),
        ],
    );
    assert!(ctl.status >= 400, "{}", ctl.text());
    assert!(ctl.text().contains("control"), "{}", ctl.text());
    assert!(contact_events(&r).is_empty());
    // accepted: a new version by oscar, audited, shown on the page and by `holder show`
    let ok = oscar.post("/titulares/1/contacto", &fields(csrf));
    assert_eq!(ok.status, 303, "{}", ok.text());
    assert_eq!(ok.header("location"), Some("/titulares/1"));
    let events = contact_events(&r);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, "oscar");
    let shown = r.json(&["holder", "show", "1000000001", "--format", "json"]);
    let versions = shown.as_array().unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0]["address"], "Calle 10 # 20-30");
    assert_eq!(versions[0]["city"], "Bogotá");
    assert_eq!(versions[0]["email"], "ana@ejemplo.co");
    assert_eq!(versions[0]["recorded_by"], "oscar");
    assert_eq!(versions[0]["version"], events[0].1);
    let page = carla.get("/titulares/1").text();
    assert!(
        page.contains("id=\"contacto-direccion\">Calle 10 # 20-30</dd>"),
        "{page}"
    );
    assert!(
        page.contains("id=\"contacto-ciudad\">Bogotá</dd>"),
        "{page}"
    );
    assert!(
        page.contains("id=\"contacto-correo\">ana@ejemplo.co</dd>"),
        "{page}"
    );
    // the same again changes nothing: refused in the contact section, no new version
    let same = oscar.post("/titulares/1/contacto", &fields(csrf));
    assert_eq!(same.status, 422);
    assert!(
        same.text().contains("No hay nada que cambiar"),
        "{}",
        same.text()
    );
    // clearing the e-mail (an empty input) is a new version without it
    let cleared = oscar.post(
        "/titulares/1/contacto",
        &[
            ("csrf", csrf),
            ("address", "Calle 10 # 20-30"),
            ("city", "Bogotá"),
            ("email", ""),
        ],
    );
    assert_eq!(cleared.status, 303, "{}", cleared.text());
    assert_eq!(contact_events(&r).len(), 2);
    let page = oscar.get("/titulares/1").text();
    assert!(page.contains("id=\"contacto-correo\">—</dd>"), "{page}");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn web_downloads_the_breaches_as_breach_list_writes_them() {
    let r = register_with_users();
    breach(&r);
    let cli = r.file("incumplimientos.xlsx", b"");
    std::fs::remove_file(&cli).unwrap();
    r.ok(&["breach", "list", "--format", "xlsx", "--out", &cli]);
    let cli_rows = sheet(&std::fs::read(&cli).unwrap(), "Incumplimientos");
    let s = Server::start(&r);
    let anon = request(
        &s.addr,
        "GET",
        "/incumplimientos/descargar?formato=xlsx",
        &[],
        b"",
    );
    assert_eq!(anon.status, 303);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let dash = c.get("/").text();
    assert!(
        dash.contains("href=\"/incumplimientos/descargar?formato=xlsx\"")
            && dash.contains("href=\"/incumplimientos/descargar?formato=csv-excel\""),
        "{dash}"
    );
    let x = c.get("/incumplimientos/descargar?formato=xlsx&adjudicacion=1&programa=D3939-2004");
    assert_eq!(x.status, 200, "{}", x.text());
    assert_eq!(
        x.header("content-disposition"),
        Some("attachment; filename=\"vigia-incumplimientos.xlsx\"")
    );
    let rows = sheet(&x.body, "Incumplimientos");
    // the command line's sheet, cell for cell
    assert_eq!(rows, cli_rows);
    // by hand: the header in Spanish, then breach 1 of 10 shares sold on 20/11/2024, typed
    let col = |h: &str| {
        rows[0]
            .iter()
            .position(|c| *c == Data::String(h.into()))
            .unwrap_or_else(|| panic!("no column {h} in {:?}", rows[0]))
    };
    assert_eq!(rows.len(), 2);
    let b = &rows[1];
    assert_eq!(b[col("N.º")], Data::Float(1.0));
    assert_eq!(b[col("Adjudicación")], Data::Float(1.0));
    assert_eq!(b[col("Clase")], Data::String("venta".into()));
    assert_eq!(b[col("Acciones")], Data::Float(10.0));
    assert_eq!(b[col("Anulado")], Data::String("no".into()));
    match &b[col("Fecha incumplimiento")] {
        Data::DateTime(d) => assert_eq!(d.as_datetime().unwrap().date().to_string(), "2024-11-20"),
        other => panic!("the breach date is not a date: {other:?}"),
    }
    let asked = sheet(&x.body, "Consulta");
    assert!(
        asked.iter().any(|r| r[0] == Data::String("Programa".into())
            && r[1] == Data::String("D3939-2004".into()))
    );
    // the CSV for Excel: BOM, `;`, dd/mm/aaaa
    let v = c.get("/incumplimientos/descargar?formato=csv-excel");
    assert_eq!(v.status, 200);
    assert_eq!(
        v.header("content-disposition"),
        Some("attachment; filename=\"vigia-incumplimientos.csv\"")
    );
    let csv = v.text();
    assert!(
        csv.starts_with("\u{feff}N.º;Adjudicación;Clase;Fecha incumplimiento;Acciones;"),
        "{csv}"
    );
    assert!(csv.contains("\r\n1;1;venta;20/11/2024;10;"), "{csv}");
    // an unknown program is no file
    assert_eq!(
        c.get("/incumplimientos/descargar?formato=xlsx&programa=NO")
            .status,
        404
    );
}
