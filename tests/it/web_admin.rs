//! The web interface's corrections and administration over HTTP (the server and client of
//! `web`): voiding an adjudication or a pledge from the holder's page, releasing every releasable
//! pledge after a preview, the accounts and the programs. Every new route without a session,
//! with the wrong role, without its CSRF token; each write against the same write made by the
//! CLI on a twin register, and in the audit trail under the signed-in user.

use crate::common::{PROGRAM, Reg};
use crate::web::{Client, PASSWORD, Server, register_with_users, request};
use std::io::Write;
use std::process::Stdio;

/// The rows a query gives, one string each, for comparing two registers.
fn rows(r: &Reg, sql: &str) -> Vec<String> {
    let conn = r.conn();
    let mut stmt = conn.prepare(sql).unwrap();
    let n = stmt.column_count();
    let mut q = stmt.query([]).unwrap();
    let mut out = Vec::new();
    while let Some(row) = q.next().unwrap() {
        let cells: Vec<String> = (0..n)
            .map(|i| format!("{:?}", row.get::<_, rusqlite::types::Value>(i).unwrap()))
            .collect();
        out.push(cells.join(" | "));
    }
    out
}

/// Who did what to which row, for the audit events after `seq`.
fn events_after(r: &Reg, seq: i64) -> Vec<String> {
    rows(
        r,
        &format!(
            "SELECT actor, action, entity, entity_id FROM audit_events WHERE seq > {seq} ORDER BY seq"
        ),
    )
}

fn last_seq(r: &Reg) -> i64 {
    r.conn()
        .query_row("SELECT coalesce(max(seq), 0) FROM audit_events", [], |x| {
            x.get(0)
        })
        .unwrap()
}

/// The CLI run as `officer`, with `stdin` on its standard input; expects success.
fn cli_as(r: &Reg, officer: &str, args: &[&str], stdin: &str) -> String {
    let mut child = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", officer])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{args:?}: {o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The shipped program under another code (a new program for `program add`).
fn other_program(code: &str) -> String {
    std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", &format!("code = \"{code}\""))
}

#[test]
fn every_admin_route_needs_a_session_its_role_and_its_token() {
    let r = register_with_users();
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    let s = Server::start(&r);
    for path in [
        "/prendas/liberar",
        "/usuarios",
        "/programas",
        "/programas/D3939-2004",
    ] {
        let resp = request(&s.addr, "GET", path, &[], b"");
        assert_eq!(resp.status, 303, "GET {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "GET {path}");
    }
    // each form: its route, its fields without the token, and who may send it
    type Post<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);
    let posts: [Post<'_>; 6] = [
        (
            "/adjudicaciones/3/anular",
            vec![("void_reason", "error")],
            "oscar",
        ),
        ("/prendas/1/anular", vec![("void_reason", "error")], "oscar"),
        (
            "/prendas/liberar",
            vec![("fecha", "16/03/2026"), ("accion", "vista")],
            "oscar",
        ),
        (
            "/usuarios",
            vec![
                ("nombre", "nuevo"),
                ("perfil", "admin"),
                ("clave", PASSWORD),
                ("clave_repetida", PASSWORD),
            ],
            "adela",
        ),
        (
            "/usuarios/deshabilitar",
            vec![("usuario", "carla")],
            "adela",
        ),
        (
            "/usuarios/clave",
            vec![
                ("usuario", "carla"),
                ("nueva_clave", "otra clave larga"),
                ("nueva_clave_repetida", "otra clave larga"),
            ],
            "adela",
        ),
    ];
    for (path, _, _) in &posts {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x&void_reason=y");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    let anonymous = request(
        &s.addr,
        "POST",
        "/programas",
        &[("Content-Type", "multipart/form-data; boundary=x")],
        b"--x--\r\n",
    );
    assert_eq!(anonymous.status, 303);
    assert_eq!(anonymous.header("location"), Some("/ingresar"));
    // signing in is recorded (the lockout counts from the register): the snapshot comes after
    let (mut consulta, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut juridico, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let (mut oficial, _) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut admin, _) = Client::signed_in(&s, "adela", PASSWORD);
    let before = r.dump();

    // the role below the one each route needs is refused, with the token of its own session
    assert_eq!(consulta.get("/prendas/liberar").status, 403);
    assert_eq!(juridico.get("/usuarios").status, 403);
    for (path, fields, role) in &posts {
        let (who, csrf) = if *role == "oscar" {
            (&mut consulta, &ccsrf)
        } else {
            (&mut juridico, &jcsrf)
        };
        let mut f = fields.clone();
        f.push(("csrf", csrf.as_str()));
        let resp = who.post(path, &f);
        assert_eq!(resp.status, 403, "POST {path}");
        assert!(
            resp.text().contains("Su perfil no permite esta acción"),
            "{}",
            resp.text()
        );
    }
    let up = juridico.upload(
        "/programas",
        &[("csrf", &jcsrf)],
        ("p.toml", other_program("PRUEBA-1").as_bytes()),
    );
    assert_eq!(up.status, 403);
    // reading the programs is open to every role; the upload form is the admin's
    let list = consulta.get("/programas");
    assert_eq!(list.status, 200);
    assert!(!list.text().contains("Registrar el programa"));
    assert_eq!(consulta.get("/programas/D3939-2004").status, 200);
    // the menu offers only what the role may do
    let menu = consulta.get("/").text();
    assert!(menu.contains("href=\"/programas\""));
    assert!(!menu.contains("href=\"/usuarios\"") && !menu.contains("href=\"/prendas/liberar\""));
    let consulta_holder = consulta.get("/titulares/1").text();
    assert!(!consulta_holder.contains("Anular prenda"));

    // the right role without the token, or with another session's, is refused too
    for (path, fields, role) in &posts {
        let who = if *role == "oscar" {
            &mut oficial
        } else {
            &mut admin
        };
        assert_eq!(who.post(path, fields).status, 403, "POST {path}");
        let mut f = fields.clone();
        f.push(("csrf", jcsrf.as_str()));
        assert_eq!(who.post(path, &f).status, 403, "POST {path}");
    }
    let up = admin.upload(
        "/programas",
        &[],
        ("p.toml", other_program("PRUEBA-1").as_bytes()),
    );
    assert_eq!(up.status, 403);
    let up = admin.upload(
        "/programas",
        &[("csrf", &ccsrf)],
        ("p.toml", other_program("PRUEBA-1").as_bytes()),
    );
    assert_eq!(up.status, 403);
    let menu = admin.get("/").text();
    assert!(menu.contains("href=\"/usuarios\"") && menu.contains("href=\"/prendas/liberar\""));
    assert_eq!(r.dump(), before, "nothing was written");
}

#[test]
fn adjudications_and_pledges_are_voided_from_the_holders_page_as_the_cli_does() {
    let setup = |r: &Reg| {
        r.ok(&[
            "pledge",
            "register",
            "1",
            "--rank",
            "1",
            "--registered-on",
            "2024-04-01",
        ]);
    };
    let r = register_with_users();
    setup(&r);
    let twin = register_with_users();
    setup(&twin);
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let page = o.get("/titulares/1").text();
    // the pledge may be voided; the adjudication may not while the pledge is in force: the
    // page says why instead of offering a void the register would refuse
    assert!(
        page.contains("Anular prenda")
            && !page.contains("Anular adjudicación")
            && page.contains(
                "<p class=\"nota\" id=\"no-anulable-adjudicacion-1\">No puede anularse: tiene \
                 vigente la prenda N.º 1 (de grado 1, inscrita el 01/04/2024); si se inscribió por \
                 error, anúlela primero.</p>"
            ),
        "{page}"
    );
    let before = r.dump();
    let seq = last_seq(&r);

    // the adjudication has a pledge in force: refused, next to the adjudication's form
    let refused = o.post(
        "/adjudicaciones/1/anular",
        &[
            ("csrf", &csrf),
            ("correccion", "adjudicacion"),
            ("void_reason", "Mal importada"),
        ],
    );
    assert_eq!(refused.status, 422);
    let t = refused.text();
    assert!(t.contains("id=\"motivo-adjudicacion-1-error\""), "{t}");
    // the refusal names the adjudication by its Spanish label, and the reason typed stays
    assert!(t.contains("role=\"alert\">Adjudicación 1"), "{t}");
    assert!(t.contains("value=\"Mal importada\""), "{t}");
    // a pledge voided without a reason: refused next to that pledge's form
    let blank = o.post(
        "/prendas/1/anular",
        &[("csrf", &csrf), ("void_reason", "  ")],
    );
    assert_eq!(blank.status, 422);
    let t = blank.text();
    assert!(
        t.contains("id=\"motivo-prenda-1-error\" role=\"alert\">Motivo de la anulación"),
        "{t}"
    );
    // a pledge that does not exist
    let missing = o.post(
        "/prendas/99/anular",
        &[("csrf", &csrf), ("void_reason", "x")],
    );
    assert_eq!(missing.status, 404);
    assert!(
        missing
            .text()
            .contains("No existe la prenda 99 en el registro.")
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // the pledge, then the adjudication, voided with a reason: as the CLI does it
    let reason_p = "Inscrita por error <i>";
    let done = o.post(
        "/prendas/1/anular",
        &[("csrf", &csrf), ("void_reason", reason_p)],
    );
    assert_eq!(done.status, 303, "{}", done.text());
    assert_eq!(done.header("location"), Some("/titulares/1"));
    let reason_a = "Titular equivocado";
    let done = o.post(
        "/adjudicaciones/1/anular",
        &[("csrf", &csrf), ("void_reason", reason_a)],
    );
    assert_eq!(done.status, 303, "{}", done.text());
    cli_as(
        &twin,
        "oscar",
        &["pledge", "void", "1", "--reason", reason_p],
        "",
    );
    cli_as(
        &twin,
        "oscar",
        &["adjudications", "void", "1", "--reason", reason_a],
        "",
    );
    for sql in [
        "SELECT id, pledge_id, reason, created_by FROM pledge_voids ORDER BY id",
        "SELECT id, adjudication_id, reason, created_by FROM adjudication_voids ORDER BY id",
    ] {
        let web = rows(&r, sql);
        assert_eq!(web.len(), 1, "{sql}");
        assert_eq!(web, rows(&twin, sql), "{sql}");
    }
    let expected = vec![
        "Text(\"oscar\") | Text(\"pledge.void\") | Text(\"pledge_voids\") | Integer(1)",
        "Text(\"oscar\") | Text(\"adjudication.void\") | Text(\"adjudication_voids\") | Integer(1)",
    ];
    assert_eq!(events_after(&r, seq), expected);
    assert_eq!(events_after(&twin, last_seq(&twin) - 2), expected);
    // the page shows both voids, with who and why (escaped), and no form to void them again
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("por oscar: Inscrita por error &lt;i&gt;")
            && page.contains("por oscar: Titular equivocado"),
        "{page}"
    );
    assert!(page.contains("1 (ANULADA)") && page.contains("grado 1 (anulada)"));
    assert!(!page.contains("action=\"/prendas/1/anular\""));
    assert!(!page.contains("action=\"/adjudicaciones/1/anular\""));
    // nor a link to record a breach of the voided adjudication
    assert!(
        !page.contains("href=\"/adjudicaciones/1/incumplimiento\""),
        "{page}"
    );
    // twice is refused, and nothing more is written
    let before = r.dump();
    let again = o.post(
        "/prendas/1/anular",
        &[("csrf", &csrf), ("void_reason", "otra vez")],
    );
    assert_eq!(again.status, 422);
    assert!(
        again.text().contains("id=\"motivo-prenda-1-error\""),
        "{}",
        again.text()
    );
    assert_eq!(r.dump(), before);
    r.ok(&["audit", "verify"]);
}

/// Adjudications 1 (Ana) and 3 (the union) pledged in first degree; 2 without a pledge.
fn pledged() -> Reg {
    let r = register_with_users();
    for adj in ["1", "3"] {
        r.ok(&[
            "pledge",
            "register",
            adj,
            "--rank",
            "1",
            "--registered-on",
            "2024-04-01",
        ]);
    }
    r
}

/// The hidden input `name` of a page.
fn hidden(page: &str, name: &str) -> String {
    let key = format!("name=\"{name}\" value=\"");
    let i = page
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {page}"))
        + key.len();
    page[i..i + page[i..].find('"').unwrap()].to_string()
}

#[test]
fn releasable_pledges_are_released_in_bulk_after_a_preview_as_the_cli_does() {
    let r = pledged();
    let twin = pledged();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let form = o.get("/prendas/liberar");
    assert_eq!(form.status, 200);
    assert!(form.text().contains("Fecha de la liberación"));
    let before = r.dump();
    let seq = last_seq(&r);

    // not a date: a Spanish sentence next to the input
    let bad = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", "31/02/2026"),
            ("accion", "vista"),
        ],
    );
    assert_eq!(bad.status, 422);
    assert!(
        bad.text().contains(
            "«31/02/2026» no es un día del calendario; revise el día y el mes (dd/mm/aaaa)"
        ),
        "{}",
        bad.text()
    );
    // the lock-up runs until 15/03/2026: nothing is releasable, and nothing to confirm
    let early = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", "15/03/2026"),
            ("accion", "vista"),
        ],
    );
    assert_eq!(early.status, 200);
    let t = early.text();
    assert!(
        t.contains("Ninguna prenda puede liberarse el 15/03/2026."),
        "{t}"
    );
    assert!(!t.contains("Confirmar la liberación"), "{t}");
    // the day after: both pledged adjudications, previewed, nothing written
    let preview = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", "16/03/2026"),
            ("programa", "D3939-2004"),
            ("accion", "vista"),
        ],
    );
    assert_eq!(preview.status, 200);
    let t = preview.text();
    assert!(
        t.contains(
            "Se liberarían las prendas de 2 adjudicaciones el 16/03/2026 (programa \
             <span class=\"ident\">D3939-2004</span>)."
        ),
        "{t}"
    );
    assert!(
        t.contains("Ana Prueba") && t.contains("Sindicato de Prueba") && !t.contains("Luis Prueba"),
        "{t}"
    );
    assert!(t.contains("Confirmar la liberación"), "{t}");
    assert_eq!(r.dump(), before, "a preview writes nothing");
    let print = hidden(&t, "huella");
    // a confirmation of another list (here: another fingerprint) previews again, writes nothing
    let stale = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", "16/03/2026"),
            ("programa", "D3939-2004"),
            ("huella", &"0".repeat(64)),
            ("accion", "liberar"),
        ],
    );
    assert_eq!(stale.status, 409);
    assert!(
        stale.text().contains("cambiaron desde la vista previa"),
        "{}",
        stale.text()
    );
    assert_eq!(r.dump(), before);
    // confirmed
    let done = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", &hidden(&t, "fecha")),
            ("programa", &hidden(&t, "programa")),
            ("huella", &print),
            ("accion", "liberar"),
        ],
    );
    assert_eq!(done.status, 200);
    assert!(
        done.text().contains(
            "Se liberaron las prendas de 2 adjudicaciones el 16/03/2026 (liberaciones 1 a 2)."
        ),
        "{}",
        done.text()
    );
    let out = cli_as(
        &twin,
        "oscar",
        &[
            "pledge",
            "release",
            "--releasable",
            "--program",
            "D3939-2004",
            "--on",
            "2026-03-16",
        ],
        "",
    );
    assert!(
        out.contains("released the pledges of 2 adjudication(s)"),
        "{out}"
    );
    let sql = "SELECT id, pledge_id, released_on, created_by FROM pledge_releases ORDER BY id";
    assert_eq!(rows(&r, sql).len(), 2);
    assert_eq!(rows(&r, sql), rows(&twin, sql));
    let expected = vec![
        "Text(\"oscar\") | Text(\"pledge.release-releasable\") | Text(\"pledge_releases\") | Integer(1)",
    ];
    assert_eq!(events_after(&r, seq), expected);
    assert_eq!(events_after(&twin, last_seq(&twin) - 1), expected);
    let page = o.get("/titulares/3").text();
    assert!(page.contains("Prenda 2 liberada"), "{page}");
    // nothing is left to release
    let after = o.post(
        "/prendas/liberar",
        &[
            ("csrf", &csrf),
            ("fecha", "16/03/2026"),
            ("accion", "vista"),
        ],
    );
    assert!(
        after
            .text()
            .contains("Ninguna prenda puede liberarse el 16/03/2026.")
    );
    r.ok(&["audit", "verify"]);
}

#[test]
fn accounts_are_managed_by_an_admin_as_the_cli_does() {
    let r = register_with_users();
    let twin = register_with_users();
    let s = Server::start(&r);
    let (mut a, csrf) = Client::signed_in(&s, "adela", PASSWORD);
    let list = a.get("/usuarios");
    assert_eq!(list.status, 200);
    let t = list.text();
    for expected in [
        "<td>carla</td><td>consulta</td><td>activo</td>",
        "<td>oscar</td><td>oficial de cumplimiento</td><td>activo</td>",
        "<td>julia</td><td>jurídico</td>",
        "<td>adela</td><td>administración</td>",
        "(su cuenta)",
    ] {
        assert!(t.contains(expected), "{expected} in {t}");
    }
    // no button to disable one's own account
    assert!(!t.contains("name=\"usuario\" value=\"adela\""), "{t}");
    let before = r.dump();

    // two passwords that differ: a Spanish sentence by the second, nothing written, no echo
    let typo = a.post(
        "/usuarios",
        &[
            ("csrf", &csrf),
            ("nombre", "nora"),
            ("perfil", "juridico"),
            ("clave", "una clave secreta"),
            ("clave_repetida", "una clave secretA"),
        ],
    );
    assert_eq!(typo.status, 422);
    let t = typo.text();
    assert!(t.contains("id=\"clave_repetida-error\""), "{t}");
    assert!(
        t.contains("Las dos contraseñas escritas no coinciden; escriba la misma dos veces."),
        "{t}"
    );
    assert!(
        !t.contains("una clave secret"),
        "a password is never sent back"
    );
    assert!(t.contains("value=\"nora\""), "{t}");
    // refused by the register (too short): said on the page in a Spanish sentence
    let short = a.post(
        "/usuarios",
        &[
            ("csrf", &csrf),
            ("nombre", "nora"),
            ("perfil", "juridico"),
            ("clave", "corta"),
            ("clave_repetida", "corta"),
        ],
    );
    assert_eq!(short.status, 422);
    assert!(
        short.text().contains("El registro no hizo el cambio: "),
        "{}",
        short.text()
    );
    // an admin cannot disable their own account (the register's rule), even by a forged form
    let own = a.post(
        "/usuarios/deshabilitar",
        &[("csrf", &csrf), ("usuario", "adela")],
    );
    assert_eq!(own.status, 422);
    assert!(
        own.text().contains("El registro no hizo el cambio: "),
        "{}",
        own.text()
    );
    // an account that does not exist
    let nobody = a.post(
        "/usuarios/deshabilitar",
        &[("csrf", &csrf), ("usuario", "nadie")],
    );
    assert_eq!(nobody.status, 404);
    assert!(
        nobody
            .text()
            .contains("No existe el usuario nadie en el registro.")
    );
    assert_eq!(r.dump(), before, "nothing was written");
    let seq = last_seq(&r);

    // add, disable, new password: as `vigia user` does, under the signed-in admin
    let new_password = "la clave de nora 1";
    let added = a.post(
        "/usuarios",
        &[
            ("csrf", &csrf),
            ("nombre", "nora"),
            ("perfil", "juridico"),
            ("clave", new_password),
            ("clave_repetida", new_password),
        ],
    );
    assert_eq!(added.status, 303, "{}", added.text());
    assert_eq!(added.header("location"), Some("/usuarios"));
    let disabled = a.post(
        "/usuarios/deshabilitar",
        &[("csrf", &csrf), ("usuario", "oscar")],
    );
    assert_eq!(disabled.status, 303, "{}", disabled.text());
    let carla_password = "la nueva clave de carla";
    let changed = a.post(
        "/usuarios/clave",
        &[
            ("csrf", &csrf),
            ("usuario", "carla"),
            ("nueva_clave", carla_password),
            ("nueva_clave_repetida", carla_password),
        ],
    );
    assert_eq!(changed.status, 303, "{}", changed.text());
    let twin_seq = last_seq(&twin);
    cli_as(
        &twin,
        "adela",
        &[
            "user",
            "add",
            "nora",
            "--role",
            "juridico",
            "--password-stdin",
        ],
        &format!("{new_password}\n"),
    );
    cli_as(&twin, "adela", &["user", "disable", "oscar"], "");
    cli_as(
        &twin,
        "adela",
        &["user", "password", "carla", "--password-stdin"],
        &format!("{carla_password}\n"),
    );
    for sql in [
        "SELECT id, name, role, created_by FROM users ORDER BY id",
        "SELECT id, user_id, created_by FROM user_disables ORDER BY id",
        "SELECT id, user_id, created_by FROM user_passwords ORDER BY id",
    ] {
        assert_eq!(rows(&r, sql), rows(&twin, sql), "{sql}");
    }
    let web_events = events_after(&r, seq);
    assert_eq!(web_events, events_after(&twin, twin_seq));
    assert_eq!(web_events.len(), 4, "{web_events:?}");
    assert!(web_events.iter().all(|e| e.starts_with("Text(\"adela\")")));
    // what was written works: nora signs in, oscar cannot, carla only with her new password
    assert_eq!(Client::new(&s).login("nora", new_password).status, 303);
    assert_eq!(Client::new(&s).login("oscar", PASSWORD).status, 401);
    assert_eq!(Client::new(&s).login("carla", PASSWORD).status, 401);
    assert_eq!(Client::new(&s).login("carla", carla_password).status, 303);
    let t = a.get("/usuarios").text();
    assert!(
        t.contains("<td>oscar</td><td>oficial de cumplimiento</td><td>deshabilitado</td>"),
        "{t}"
    );
    assert!(
        t.contains("<td>nora</td><td>jurídico</td><td>activo</td>"),
        "{t}"
    );
    r.ok(&["audit", "verify"]);
}

#[test]
fn the_last_enabled_administrator_is_not_disabled_from_the_command_line() {
    let r = register_with_users();
    let before = r.dump();
    // adela is the only administrator (the command line acts as `tester`, no account)
    let e = r.fails(&["user", "disable", "adela"]);
    assert_eq!(
        e.trim_end(),
        "vigia: error: user adela is the last enabled administrator; add another administrator \
         before disabling this one, or nobody could manage the accounts",
    );
    assert_eq!(r.dump(), before, "nothing was written");
    // with a second administrator, either may go, but not both
    cli_as(
        &r,
        "adela",
        &["user", "add", "beto", "--role", "admin", "--password-stdin"],
        &format!("{PASSWORD}\n"),
    );
    cli_as(&r, "root", &["user", "disable", "adela"], "");
    let before = r.dump();
    let e = r.fails(&["user", "disable", "beto"]);
    assert!(
        e.contains("user beto is the last enabled administrator"),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing was written");
}

#[test]
fn a_new_password_set_by_an_administrator_ends_a_lockout() {
    let r = register_with_users();
    let s = Server::start(&r);
    let lock = |name: &str| {
        for _ in 0..5 {
            assert_eq!(Client::new(&s).login(name, "no es la clave").status, 401);
        }
        let resp = Client::new(&s).login(name, PASSWORD);
        assert_eq!(resp.status, 401);
        assert!(
            resp.text()
                .contains("pida a un administrador que le asigne una contraseña nueva"),
            "{}",
            resp.text()
        );
    };
    // from the «Usuarios» page
    lock("oscar");
    let (mut a, csrf) = Client::signed_in(&s, "adela", PASSWORD);
    let oscar_password = "la nueva clave de oscar";
    let changed = a.post(
        "/usuarios/clave",
        &[
            ("csrf", &csrf),
            ("usuario", "oscar"),
            ("nueva_clave", oscar_password),
            ("nueva_clave_repetida", oscar_password),
        ],
    );
    assert_eq!(changed.status, 303, "{}", changed.text());
    assert_eq!(Client::new(&s).login("oscar", oscar_password).status, 303);
    // from the command line; the count starts again: four failures lock nothing
    lock("carla");
    let carla_password = "la nueva clave de carla";
    cli_as(
        &r,
        "adela",
        &["user", "password", "carla", "--password-stdin"],
        &format!("{carla_password}\n"),
    );
    for _ in 0..4 {
        assert_eq!(Client::new(&s).login("carla", "no es la clave").status, 401);
    }
    assert_eq!(Client::new(&s).login("carla", carla_password).status, 303);
    r.ok(&["audit", "verify"]);
}

#[test]
fn programs_are_listed_shown_and_added_by_an_admin_as_the_cli_does() {
    let r = register_with_users();
    let twin = register_with_users();
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    let list = c.get("/programas").text();
    assert!(
        list.contains("href=\"/programas/D3939-2004\"") && list.contains("$\u{a0}963"),
        "{list}"
    );
    // one program's terms, with the SHA-256 of its TOML as `program show` gives it
    let shown = c.get("/programas/D3939-2004");
    assert_eq!(shown.status, 200);
    let t = shown.text();
    let sha = r.json(&["program", "show", "D3939-2004", "--format", "json"])["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    use sha2::Digest;
    let file_sha: String = sha2::Sha256::digest(std::fs::read(PROGRAM).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(sha, file_sha);
    for expected in [
        sha.as_str(),
        "24 meses",
        "Decreto 3939 de 2004, artículo 7, numeral 1",
        "persona natural, que declara renta",
        "3 veces el patrimonio líquido",
        "persona jurídica</td><td>una vez el límite legal o estatutario de inversión",
    ] {
        assert!(t.contains(expected), "{expected} in {t}");
    }
    assert_eq!(c.get("/programas/NO-EXISTE").status, 404);

    let (mut a, csrf) = Client::signed_in(&s, "adela", PASSWORD);
    assert!(a.get("/programas").text().contains("Registrar el programa"));
    let before = r.dump();
    // not a program: a Spanish sentence, nothing written
    let bad = a.upload(
        "/programas",
        &[("csrf", &csrf)],
        ("malo.toml", b"code = \"X\"\n"),
    );
    assert_eq!(bad.status, 422);
    assert!(
        bad.text()
            .contains("El archivo «malo.toml» no es un programa válido; nada se registró."),
        "{}",
        bad.text()
    );
    // the first field a program must have after its code, named in Spanish
    assert!(
        bad.text().contains(
            "Motivo: falta el campo `name`, que es obligatorio. Detalle técnico del lector TOML: \
             «missing field `name`»"
        ),
        "{}",
        bad.text()
    );
    let binary = a.upload(
        "/programas",
        &[("csrf", &csrf)],
        ("libro.xlsx", b"PK\x03\x04xl/workbook.xml\0\0\0"),
    );
    assert_eq!(binary.status, 422);
    assert!(
        binary
            .text()
            .contains("no es un archivo de texto UTF-8 (un programa es un archivo TOML)"),
        "{}",
        binary.text()
    );
    // another file under a code already registered: the register refuses it
    let changed = other_program("D3939-2004") + "\n# otro contenido\n";
    let refused = a.upload(
        "/programas",
        &[("csrf", &csrf)],
        ("cambiado.toml", changed.as_bytes()),
    );
    assert_eq!(refused.status, 422);
    assert!(
        refused.text().contains("El registro rechazó el programa: "),
        "{}",
        refused.text()
    );
    // the same file again adds nothing
    let same = a.upload(
        "/programas",
        &[("csrf", &csrf)],
        ("d3939.toml", &std::fs::read(PROGRAM).unwrap()),
    );
    assert_eq!(same.status, 200);
    assert!(
        same.text()
            .contains("ya estaba registrado (id 1) con el mismo contenido"),
        "{}",
        same.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // a new program, as `vigia program add` registers it, under the signed-in admin
    let seq = last_seq(&r);
    let text = other_program("PRUEBA-1");
    let added = a.upload(
        "/programas",
        &[("csrf", &csrf)],
        ("prueba.toml", text.as_bytes()),
    );
    assert_eq!(added.status, 303, "{}", added.text());
    assert_eq!(added.header("location"), Some("/programas/PRUEBA-1"));
    let twin_seq = last_seq(&twin);
    let path = twin.file("prueba.toml", text.as_bytes());
    cli_as(&twin, "adela", &["program", "add", &path], "");
    let sql = "SELECT id, code, source_toml, sha256, created_by FROM programs ORDER BY id";
    assert_eq!(rows(&r, sql), rows(&twin, sql));
    let web_events = events_after(&r, seq);
    assert_eq!(
        web_events,
        vec!["Text(\"adela\") | Text(\"program.add\") | Text(\"programs\") | Integer(2)"]
    );
    assert_eq!(web_events, events_after(&twin, twin_seq));
    let page = a.get("/programas/PRUEBA-1").text();
    let sha: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(page.contains(&sha) && page.contains("por adela"), "{page}");
    r.ok(&["audit", "verify"]);
}

/// `serve` says where it listens in the run's language, and an address already taken is
/// refused naming the address and what to do (it was «cannot write the output»), exit 2.
#[test]
fn serve_says_where_it_listens_and_refuses_a_port_in_use_by_its_name() {
    let r = Reg::new();
    let first = Server::start(&r);
    let o = r.with_locale(
        &[("LANG", "C"), ("LC_ALL", ""), ("LC_MESSAGES", "")],
        &["serve", "--listen", &first.addr],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.starts_with(&format!(
            "vigia: error: serve --listen {}: no se puede escuchar ahí (",
            first.addr
        )) && e.contains("elija otro puerto"),
        "{e}"
    );
    assert!(o.stdout.is_empty(), "{o:?}");
    // the first server's line, in Spanish under the C locale
    let mut child = r
        .command()
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .arg("--db")
        .arg(r.db())
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("vigia serve: http://127.0.0.1:")
            && line.ends_with(&format!(
                "/ (registro {}); deténgalo con Ctrl-C\n",
                r.db().display()
            )),
        "{line}"
    );
}
