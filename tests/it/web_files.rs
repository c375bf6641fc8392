//! The files of issue 22, item 3, in the browser: a file of pledges and a rates file reviewed
//! row by row (each row as read, its problem beside it), then imported on confirmation; the
//! pending notices issued as one batch and their documents downloaded as a zip; the
//! administrator's backup download. Each route refused to a role below it and without its CSRF
//! token, each outcome checked against the register (or the CLI's own verification).

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Resp, Server, add_user, error_text, register_with_users};

fn count(r: &Reg, table: &str) -> i64 {
    r.conn()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |x| x.get(0))
        .unwrap()
}

/// The review's token of a preview page.
fn token(page: &str) -> String {
    let open = "name=\"token\" value=\"";
    let i = page
        .find(open)
        .unwrap_or_else(|| panic!("no token in {page}"))
        + open.len();
    page[i..i + page[i..].find('"').unwrap()].to_string()
}

/// The row of the table of rows read whose first cell is line `line`.
fn line_row(page: &str, line: usize) -> String {
    let cell = format!("><td class=\"num\">{line}</td>");
    let start = page
        .find(&cell)
        .unwrap_or_else(|| panic!("no line {line} in {page}"));
    let len = page[start..].find("</tr>").unwrap();
    page[start..start + len].to_string()
}

#[test]
fn a_file_of_pledges_is_shown_as_read_with_each_rows_problem_then_imported_whole() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    const UP: &str = "/prendas/importar";

    // consulta may not import; a form without its token is refused before anything is read
    assert_eq!(c.get(UP).status, 403);
    let good = "adjudication_id;rank;registered_on;doc_type;doc_number\n\
                2;2;01/04/2024;;\n\
                ;1;02/04/2024;NIT;999000001-2\n";
    assert_eq!(
        c.upload(UP, &[("csrf", &ccsrf)], ("p.csv", good.as_bytes()))
            .status,
        403
    );
    assert_eq!(
        o.upload(UP, &[("csrf", "x")], ("p.csv", good.as_bytes()))
            .status,
        403
    );
    let page = o.get(UP);
    assert_eq!(page.status, 200);
    assert!(
        page.text().contains("href=\"/prendas/importar\"")
            || page.text().contains("action=\"/prendas/importar\"")
    );

    // a bad file: line 2 is refused by the rules (adjudication 1 has no lender for a second
    // degree), line 3 cannot be read; every row shown, nothing written
    let before = r.dump();
    let bad = "adjudication_id,rank,registered_on,lender,doc_type,doc_number\n\
               1,2,2024-04-01,,,\n\
               x,3,2024-13-01,,CC,\n\
               3,1,2024-04-02,,,\n";
    let t = o.upload(UP, &[("csrf", &ocsrf)], ("bad.csv", bad.as_bytes()));
    assert_eq!(t.status, 422, "{}", t.text());
    let page = t.text();
    let two = line_row(&page, 2);
    assert!(two.contains("CC 1000000001 Ana Prueba"), "{two}");
    assert!(
        two.contains("2 (segundo grado)") && two.contains("01/04/2024"),
        "{two}"
    );
    assert!(
        two.contains("rank «2»:") && two.contains("prestamista"),
        "{two}"
    );
    let three = line_row(&page, 3);
    assert!(three.contains("(la fila no pudo leerse)"), "{three}");
    assert!(
        three.contains("adjudication_id «x»:") && three.contains("rank «3»:"),
        "{three}"
    );
    // line 4 has no problem: shown as read, without one
    let four = line_row(&page, 4);
    assert!(
        four.contains("NIT 999000001-2 Sindicato de Prueba")
            && four.contains("todas las no pignoradas"),
        "{four}"
    );
    assert!(!four.contains("con-problema") && !page.contains("Confirmar la importación"));
    assert_eq!(r.dump(), before);

    // a good file (the es-CO Excel layout, a holder named by her document): reviewed, then
    // imported once confirmed
    let t = o.upload(UP, &[("csrf", &ocsrf)], ("prendas.csv", good.as_bytes()));
    assert_eq!(t.status, 200, "{}", t.text());
    let page = t.text();
    assert!(page.contains("2 prendas por registrar"), "{page}");
    let two = line_row(&page, 2);
    assert!(
        two.contains("CC 1000000002 Luis Prueba") && two.contains("el de la adjudicación"),
        "{two}"
    );
    assert!(line_row(&page, 3).contains("NIT 999000001-2 Sindicato de Prueba"));
    assert_eq!(r.dump(), before, "a review writes nothing");
    let tok = token(&page);
    // the confirmation too needs the role and the token
    assert_eq!(
        c.post(
            &format!("{UP}/confirmar"),
            &[("csrf", &ccsrf), ("token", &tok)]
        )
        .status,
        403
    );
    assert_eq!(
        o.post(
            &format!("{UP}/confirmar"),
            &[("csrf", "x"), ("token", &tok)]
        )
        .status,
        403
    );
    let done = o.post(
        &format!("{UP}/confirmar"),
        &[("csrf", &ocsrf), ("token", &tok)],
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(
        done.text().contains("2 prendas registradas"),
        "{}",
        done.text()
    );
    assert_eq!(count(&r, "pledges"), 2);
    // rank 2 took adjudication 2's lender, as `pledge import` does
    let lender: String = r
        .conn()
        .query_row(
            "SELECT lender FROM pledges WHERE adjudication_id = 2",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(lender, "Banco Ejemplo");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    // a token is good once
    assert_eq!(
        o.post(
            &format!("{UP}/confirmar"),
            &[("csrf", &ocsrf), ("token", &tok)]
        )
        .status,
        400
    );
    // the same file again adds nothing
    let again = o.upload(UP, &[("csrf", &ocsrf)], ("prendas.csv", good.as_bytes()));
    assert!(again.text().contains("ya se importó"), "{}", again.text());
    assert_eq!(count(&r, "pledges"), 2);

    // a long file: every row counted and checked, the first 200 shown
    let mut long = String::from("adjudication_id,rank,registered_on,shares\n");
    let day = chrono::NaiveDate::from_ymd_opt(2024, 4, 1).unwrap();
    for k in 0..250 {
        // one share each, registered on 250 days in a row (each row distinct)
        long.push_str(&format!("1,1,{},1\n", day + chrono::Days::new(k)));
    }
    let t = o.upload(UP, &[("csrf", &ocsrf)], ("largo.csv", long.as_bytes()));
    assert_eq!(t.status, 200, "{}", t.text());
    let page = t.text();
    assert!(page.contains("250 prendas por registrar"), "{page}");
    assert!(
        page.contains("Se muestran las primeras 200 filas leídas de 250."),
        "{page}"
    );
    assert_eq!(page.matches("CC 1000000001 Ana Prueba").count(), 200);
}

#[test]
fn a_rates_file_shows_what_each_period_changes_and_a_replacement_needs_its_reason() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    const UP: &str = "/tasas/importar";
    // the embedded series ends with October 2026 (SFC Res. 1472 de 2026, IBC 19,06)
    let file = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
                2026-10-01,2026-10-31,19.10,,SFC Res. corregida\n\
                2026-11-01,2026-11-30,19.00,,SFC Res. 1650 de 2026 (2026-10-30)\n";
    // an officer may not add rates; the administrator's form needs its token
    assert_eq!(o.get(UP).status, 403);
    assert_eq!(
        o.upload(UP, &[("csrf", &ocsrf)], ("t.csv", file.as_bytes()))
            .status,
        403
    );
    assert_eq!(
        a.upload(UP, &[("csrf", "x")], ("t.csv", file.as_bytes()))
            .status,
        403
    );

    // a file with a problem: by line, nothing written
    let before = r.dump();
    let bad = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
               2026-12-01,2026-12-31,18,,A\n2027-01-01,2027-01-31,,,B\n";
    let t = a.upload(UP, &[("csrf", &acsrf)], ("bad.csv", bad.as_bytes()));
    assert_eq!(t.status, 422, "{}", t.text());
    assert!(t.text().contains("Línea 3: "), "{}", t.text());
    assert_eq!(r.dump(), before);

    let t = a.upload(UP, &[("csrf", &acsrf)], ("tasas.csv", file.as_bytes()));
    assert_eq!(t.status, 200, "{}", t.text());
    let page = t.text();
    let oct = line_row(&page, 2);
    // 1,5 × 19,10 = 28,65; it replaces the embedded October
    assert!(
        oct.contains("01/10/2026") && oct.contains("19,10") && oct.contains("28,65"),
        "{oct}"
    );
    assert!(
        oct.contains(
            "Reemplaza del 01/10/2026 al 31/10/2026 (SFC Res. 1472 de 2026, serie incorporada)"
        ),
        "{oct}"
    );
    let nov = line_row(&page, 3);
    // 1,5 × 19,00 = 28,50; nothing in force then
    assert!(
        nov.contains("28,50") && nov.contains("Nuevo") && nov.contains("(30/10/2026)"),
        "{nov}"
    );
    assert!(page.contains("Agregar 2 períodos"), "{page}");
    assert_eq!(r.dump(), before, "a review writes nothing");
    let tok = token(&page);

    // without the reason: refused beside the reason's input, nothing written, the review kept
    let confirm = format!("{UP}/confirmar");
    let t = a.post(
        &confirm,
        &[("csrf", &acsrf), ("token", &tok), ("supersede_reason", "")],
    );
    assert_eq!(t.status, 422, "{}", t.text());
    let why = error_text(&t.text(), "supersede_reason").expect("the refusal beside the reason");
    assert!(why.contains("se superpone"), "{why}");
    assert_eq!(r.dump(), before);
    // an officer cannot confirm it
    assert_eq!(
        o.post(
            &confirm,
            &[("csrf", &ocsrf), ("token", &tok), ("supersede_reason", "x")]
        )
        .status,
        403
    );
    let done = a.post(
        &confirm,
        &[
            ("csrf", &acsrf),
            ("token", &tok),
            ("supersede_reason", "la resolución se corrigió"),
        ],
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(
        done.text().contains("2 períodos agregados"),
        "{}",
        done.text()
    );
    assert_eq!(count(&r, "rate_periods"), 2);
    let rates = a.get("/tasas").text();
    assert!(
        crate::web::rate_row(&rates, "01/11/2026").contains("28,50"),
        "{rates}"
    );
    assert!(
        crate::web::rate_row(&rates, "01/10/2026").contains("28,65"),
        "{rates}"
    );
    // one number of decimals per column: the moratorium of 10/2023 is 1,5 × 26,53 = 39,795 %,
    // so November 2024's 27,90 shows as 27,900 % in the same column (h-look4 saw 2 beside 3)
    let oct_2023 = crate::web::rate_row(&rates, "01/10/2023");
    assert!(
        oct_2023.contains("39,795\u{a0}%") || oct_2023.contains("39,795 %"),
        "{oct_2023}"
    );
    let nov_2024 = crate::web::rate_row(&rates, "01/11/2024");
    assert!(nov_2024.contains("27,900"), "{nov_2024}");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// SPEC §5's register (breach 1, $ 626.823 due on 10/02/2025) with a second breach, on the
/// union's adjudication, and one account per role.
fn two_breaches() -> Reg {
    let r = crate::notices::spec_register();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    for (name, role) in [
        ("carla", "consulta"),
        ("oscar", "oficial"),
        ("julia", "juridico"),
        ("adela", "admin"),
    ] {
        add_user(&r, name, role);
    }
    r
}

fn issue<'a>(c: &mut Client<'_>, csrf: &'a str, date: &'a str, ids: &[&'a str]) -> Resp {
    let mut f = vec![
        ("csrf", csrf),
        ("notice_until", "10/02/2025"),
        ("notice_date", date),
        ("backdate_reason", "fecha del caso de prueba"),
    ];
    f.extend(ids.iter().map(|i| ("breach", *i)));
    c.post("/avisos/pendientes", &f)
}

#[test]
fn the_pending_notices_are_issued_as_one_batch_and_their_documents_come_as_a_zip() {
    let r = two_breaches();
    let s = Server::start(&r);
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    const LIST: &str = "/avisos/pendientes?notice_until=10/02/2025";

    // the list as `notice issue --pending` finds it: both breaches; consulta reads it, without
    // the button
    let seen = c.get(LIST);
    assert_eq!(seen.status, 200, "{}", seen.text());
    let t = seen.text();
    assert!(
        t.contains("2 incumplimientos pendientes de aviso al 10/02/2025"),
        "{t}"
    );
    // none is left out yet, so no line says so
    assert!(!t.contains("Quedan fuera del lote"), "{t}");
    // each breach's kind in words, as its own page says it, not the command line's code
    assert!(
        t.contains("venta o negociación de las acciones") && !t.contains(">venta<"),
        "{t}"
    );
    assert!(
        t.contains("CC 1000000001 Ana Prueba") && t.contains("NIT 999000001-2 Sindicato de Prueba"),
        "{t}"
    );
    assert!(
        !t.contains("Emitir 2 avisos") && !t.contains("En el lote"),
        "{t}"
    );
    assert!(j.get(LIST).text().contains("Emitir 2 avisos"));

    // a role below jurídico, or no token: refused, nothing written
    let before = r.dump();
    assert_eq!(issue(&mut c, &ccsrf, "11/02/2025", &["1", "2"]).status, 403);
    assert_eq!(issue(&mut o, &ocsrf, "11/02/2025", &["1", "2"]).status, 403);
    assert_eq!(issue(&mut j, "x", "11/02/2025", &["1", "2"]).status, 403);
    // a notice dated before its liquidation: the register's refusal beside the date, nothing issued
    let t = issue(&mut j, &jcsrf, "01/02/2025", &["1", "2"]);
    assert_eq!(t.status, 422, "{}", t.text());
    assert!(
        error_text(&t.text(), "notice_date").is_some(),
        "{}",
        t.text()
    );
    assert_eq!(r.dump(), before);

    let done = issue(&mut j, &jcsrf, "11/02/2025", &["1", "2"]);
    assert_eq!(done.status, 303, "{}", done.text());
    let to = done.header("location").unwrap().to_string();
    assert_eq!(count(&r, "notices"), 2);
    let numbers: Vec<String> = {
        let conn = r.conn();
        let mut st = conn
            .prepare("SELECT number FROM notices ORDER BY id")
            .unwrap();
        st.query_map([], |x| x.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(numbers, ["MULTA-2025-0001", "MULTA-2025-0002"]);
    let batch = j.get(&to);
    assert_eq!(batch.status, 200);
    let t = batch.text();
    assert!(
        t.contains("2 avisos emitidos") && t.contains("$\u{a0}626.823"),
        "{t}"
    );
    // nothing is pending any more, and the page says why the two are left out (as `notice
    // issue --pending` does); the same batch again is refused beside nothing: it is said
    assert!(
        j.get(LIST)
            .text()
            .contains("Quedan fuera del lote: 2 que ya tienen aviso.")
    );
    assert!(
        j.get(LIST)
            .text()
            .contains("No hay incumplimientos pendientes de aviso al 10/02/2025")
    );
    let again = issue(&mut j, &jcsrf, "11/02/2025", &["1"]);
    assert_eq!(again.status, 422);
    assert!(
        again.text().contains("ya no está pendiente de aviso"),
        "{}",
        again.text()
    );
    assert_eq!(count(&r, "notices"), 2);

    // the zip: each PDF and the index, each rendering recorded; each PDF verifies with the CLI
    let renderings = count(&r, "renderings");
    let z = c.get(&format!("{to}/documentos.zip"));
    assert_eq!(z.status, 200);
    assert_eq!(z.header("content-type"), Some("application/zip"));
    assert_eq!(count(&r, "renderings"), renderings + 2);
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(z.body.clone())).unwrap();
    let mut names: Vec<String> = zip.file_names().map(|n| n.unwrap().into_owned()).collect();
    names.sort();
    assert_eq!(
        names,
        ["MULTA-2025-0001.pdf", "MULTA-2025-0002.pdf", "index.csv"]
    );
    let mut index = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("index.csv").unwrap(), &mut index).unwrap();
    // the CLI's index.csv (`notice issue --pending`): csv-excel, Spanish headers, dd/mm/aaaa
    let lines: Vec<&str> = index.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "\u{feff}Número;Incumplimiento;Liquidación;Tipo documento;Número documento;Nombre;Total a pagar;Hasta;Vence;Archivo"
    );
    assert!(
        lines[1].starts_with("MULTA-2025-0001;1;")
            && lines[1].contains(";626823;10/02/2025;")
            && lines[1].ends_with(";MULTA-2025-0001.pdf"),
        "{index}"
    );
    for n in ["MULTA-2025-0001", "MULTA-2025-0002"] {
        let mut pdf = Vec::new();
        std::io::Read::read_to_end(&mut zip.by_name(&format!("{n}.pdf")).unwrap(), &mut pdf)
            .unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        let path = r.file(&format!("{n}.pdf"), &pdf);
        let o = r.run(&["notice", "verify", &path]);
        assert_eq!(o.status.code(), Some(0), "{}", crate::common::out(&o));
    }
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn an_administrator_downloads_a_checked_copy_of_the_register() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    assert_eq!(j.get("/respaldo").status, 403);
    assert_eq!(j.post("/respaldo", &[("csrf", &jcsrf)]).status, 403);
    assert_eq!(a.post("/respaldo", &[("csrf", "x")]).status, 403);
    assert!(a.get("/respaldo").text().contains("Descargar la copia"));
    let events = count(&r, "audit_events");
    let copy = a.post("/respaldo", &[("csrf", &acsrf)]);
    assert_eq!(copy.status, 200);
    assert!(
        copy.header("content-disposition")
            .is_some_and(|d| d.starts_with("attachment; filename=\"vigia-respaldo-")),
        "{:?}",
        copy.headers
    );
    assert_eq!(copy.header("content-type"), Some("application/zip"));
    // the copy is the register as it was: the same audit events, the same holders, intact
    // against the checkpoint log's lines unzipped beside it
    assert_eq!(
        copy.header("x-vigia-backup-events"),
        Some(events.to_string().as_str())
    );
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(copy.body.clone())).unwrap();
    let mut names: Vec<String> = zip.file_names().map(|n| n.unwrap().into_owned()).collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names[0].starts_with("vigia-respaldo-") && names[0].ends_with(".db"),
        "{names:?}"
    );
    assert_eq!(names[1], format!("{}.checkpoints", names[0]));
    let mut db = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name(&names[0]).unwrap(), &mut db).unwrap();
    assert!(db.starts_with(b"SQLite format 3\0"));
    let mut log = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name(&names[1]).unwrap(), &mut log).unwrap();
    let path = r.dir.path().join("copia.db");
    std::fs::write(&path, &db).unwrap();
    std::fs::write(r.dir.path().join("copia.db.checkpoints"), &log).unwrap();
    let copied = rusqlite::Connection::open(&path).unwrap();
    let n = |c: &rusqlite::Connection, t: &str| -> i64 {
        c.query_row(&format!("SELECT count(*) FROM {t}"), [], |x| x.get(0))
            .unwrap()
    };
    assert_eq!(n(&copied, "audit_events"), events);
    assert_eq!(n(&copied, "adjudications"), 3);
    let o = r
        .command()
        .arg("--db")
        .arg(&path)
        .args(["audit", "verify"])
        .output()
        .unwrap();
    assert!(
        crate::common::out(&o).contains("intact"),
        "{}{}",
        crate::common::out(&o),
        crate::common::err(&o)
    );
    // no copy is left in the server's temporary directory (the test's)
    let left: Vec<_> = std::fs::read_dir(r.dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".vigia-respaldo-")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_program_that_issues_only_signed_notices_is_not_offered_them_unsigned_in_the_browser() {
    let r = crate::notices::spec_register_in(Reg::with_program_tail(
        "\n[signatures]\nrequired_for = [\"notices\", \"settlements\"]\n\
         signatories = [\"LAURA GOMEZ RESTREPO\"]\n",
    ));
    add_user(&r, "julia", "juridico");
    let s = Server::start(&r);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let before = r.dump();
    // the breach page says why instead of offering the form
    let page = j.get("/incumplimientos/1").text();
    assert!(
        page.contains("id=\"sin-firma\"")
            && page.contains("el programa D3939-2004 emite sus avisos solo firmados")
            && !page.contains("action=\"/incumplimientos/1/aviso\""),
        "{page}"
    );
    // a form sent anyway is refused beside the breach, nothing stored
    let t = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(t.status, 422, "{}", t.text());
    assert!(
        error_text(&t.text(), "breach").is_some_and(|m| m.contains("solo firmados")),
        "{}",
        t.text()
    );
    // the batch leaves it out, saying why beside it, and offers no button
    let list = j.get("/avisos/pendientes?notice_until=10/02/2025").text();
    assert!(
        error_text(&list, "breach-1").is_some_and(|m| m.contains("solo firmados")),
        "{list}"
    );
    assert!(!list.contains("Emitir"), "{list}");
    let t = issue(&mut j, &jcsrf, "11/02/2025", &["1"]);
    assert_eq!(t.status, 422, "{}", t.text());
    assert!(t.text().contains("solo firmados"), "{}", t.text());
    assert_eq!(r.dump(), before);
}
