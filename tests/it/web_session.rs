//! The web's sessions, roles, CSRF tokens, escaping and TLS, over HTTP against the real `vigia serve`
//! (the harness is in `web.rs`).

use crate::web::*;
use std::io::{Read, Write};
use std::net::TcpStream;

#[test]
fn every_route_needs_a_session() {
    let r = register_with_users();
    let s = Server::start(&r);
    for path in [
        "/",
        "/titulares",
        "/titulares?q=1000000001",
        "/titulares/1",
        "/adjudicaciones/1/incumplimiento",
        "/incumplimientos/1",
        "/liquidaciones/1",
        "/avisos/1",
        "/avisos/1/documento/pdf",
        "/avisos/verificar",
        "/importar",
        "/auditoria",
        "/auditoria/verificar",
        "/tasas",
        "/firma",
        "/no-existe",
    ] {
        let resp = request(&s.addr, "GET", path, &[], b"");
        assert_eq!(resp.status, 303, "GET {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "GET {path}");
        assert!(resp.header("content-security-policy").is_some());
    }
    for path in [
        "/salir",
        "/adjudicaciones/1/incumplimiento",
        "/incumplimientos/1/pagos",
        "/incumplimientos/1/liquidar",
        "/incumplimientos/1/aviso",
        "/avisos/verificar",
        "/importar",
        "/importar/confirmar",
        "/tasas",
        "/firma",
        "/firma/quitar",
        "/avisos/1/firmar",
        "/paz-y-salvo/1/firmar",
    ] {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    // the login page and the style sheet are the only things served without a session
    let login = request(&s.addr, "GET", "/ingresar", &[], b"");
    assert_eq!(login.status, 200);
    let csp = login.header("content-security-policy").unwrap();
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    let cookie = login.header("set-cookie").unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    assert_eq!(request(&s.addr, "GET", "/estilo.css", &[], b"").status, 200);
}

#[test]
fn sessions_cookies_logout_and_lockout() {
    let r = register_with_users();
    let s = Server::start(&r);
    let mut c = Client::new(&s);
    let resp = c.login("julia", PASSWORD);
    assert_eq!(resp.status, 303);
    let set = resp.header("set-cookie").unwrap();
    assert!(
        set.starts_with("vigia_sesion=")
            && set.contains("HttpOnly")
            && set.contains("SameSite=Strict")
    );
    let home = c.get("/");
    assert_eq!(home.status, 200);
    assert!(home.text().contains("julia · jurídico"));
    // logging out needs the form's token, then ends the session
    assert_eq!(c.post("/salir", &[]).status, 403);
    let csrf = home.csrf();
    assert_eq!(c.post("/salir", &[("csrf", &csrf)]).status, 303);
    assert_eq!(c.get("/").status, 303);

    // a login form without its token is refused
    let mut m = Client::new(&s);
    let resp = m.post("/ingresar", &[("usuario", "julia"), ("clave", PASSWORD)]);
    assert_eq!(resp.status, 403);
    assert!(resp.text().contains("El formulario venció"));

    // five wrong passwords lock the account, even for the right one
    let mut x = Client::new(&s);
    for _ in 0..5 {
        let resp = x.login("oscar", "no es la clave");
        assert_eq!(resp.status, 401);
        assert!(resp.text().contains("Usuario o contraseña incorrectos"));
    }
    let resp = x.login("oscar", PASSWORD);
    assert_eq!(resp.status, 401);
    assert!(
        resp.text().contains("bloqueada durante 15 minutos"),
        "{}",
        resp.text()
    );
    // other accounts are not affected
    assert_eq!(Client::new(&s).login("carla", PASSWORD).status, 303);

    // a disabled account cannot sign in
    r.ok(&["user", "disable", "carla"]);
    assert_eq!(Client::new(&s).login("carla", PASSWORD).status, 401);
}

#[test]
fn a_session_ends_when_its_account_is_disabled_or_given_a_new_password() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, _) = Client::signed_in(&s, "oscar", PASSWORD);
    let token = o.cookies["vigia_sesion"].clone();
    assert_eq!(o.get("/titulares/1").status, 200);
    // disabled from the command line while the session is open: its next request ends it
    r.ok(&["user", "disable", "oscar"]);
    let resp = o.get("/titulares/1");
    assert_eq!(resp.status, 303);
    let to = resp.header("location").unwrap().to_string();
    assert_eq!(to, "/ingresar?motivo=cuenta-deshabilitada");
    assert!(
        resp.header("set-cookie")
            .is_some_and(|c| c.starts_with("vigia_sesion=;") && c.contains("Max-Age=0")),
        "{:?}",
        resp.headers
    );
    assert_eq!(
        ended_notice(&s, &to),
        "Su sesión terminó: la cuenta fue deshabilitada. Si cree que es un error, pida ayuda a un administrador."
    );
    // the session is gone from the server, not only from the browser
    let cookie = format!("vigia_sesion={token}");
    let again = request(&s.addr, "GET", "/", &[("Cookie", &cookie)], b"");
    assert_eq!(again.header("location"), Some("/ingresar"));

    // a new password set by an administrator ends every session begun with the old one
    let (mut j1, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let (mut j2, _) = Client::signed_in(&s, "julia", PASSWORD);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    let new_password = "la clave nueva de julia";
    let changed = a.post(
        "/usuarios/clave",
        &[
            ("csrf", &acsrf),
            ("usuario", "julia"),
            ("nueva_clave", new_password),
            ("nueva_clave_repetida", new_password),
        ],
    );
    assert_eq!(changed.status, 303, "{}", changed.text());
    let before = r.dump();
    // a form sent with the old session writes nothing
    let resp = j1.post(
        "/adjudicaciones/1/prendas",
        &[
            ("csrf", &jcsrf),
            ("adjudication", "1"),
            ("pledge_rank", "1"),
            ("registered_on", "01/04/2024"),
        ],
    );
    assert_eq!(resp.status, 303);
    assert_eq!(
        resp.header("location"),
        Some("/ingresar?motivo=clave-nueva")
    );
    assert_eq!(r.dump(), before, "nothing was written");
    assert_eq!(
        j2.get("/").header("location"),
        Some("/ingresar?motivo=clave-nueva")
    );
    assert_eq!(
        ended_notice(&s, "/ingresar?motivo=clave-nueva"),
        "Su sesión terminó porque se asignó una contraseña nueva a la cuenta. Ingrese con la contraseña nueva."
    );
    assert_eq!(Client::new(&s).login("julia", PASSWORD).status, 401);
    let (mut j3, _) = Client::signed_in(&s, "julia", new_password);
    assert_eq!(j3.get("/").status, 200);
    // the administrator's own session was not touched
    assert_eq!(a.get("/usuarios").status, 200);
    // an unknown reason says nothing
    let plain = request(&s.addr, "GET", "/ingresar?motivo=%3Cb%3E", &[], b"");
    assert_eq!(plain.status, 200);
    assert!(!plain.text().contains("class=\"aviso\""));
}

#[test]
fn a_lockout_survives_a_restart_of_the_server() {
    let r = register_with_users();
    let s = Server::start(&r);
    for _ in 0..5 {
        let resp = Client::new(&s).login("oscar", "no es la clave");
        assert_eq!(resp.status, 401);
        assert!(resp.text().contains("Usuario o contraseña incorrectos"));
    }
    drop(s);
    // another server process over the same register
    let s = Server::start(&r);
    let resp = Client::new(&s).login("oscar", PASSWORD);
    assert_eq!(resp.status, 401);
    assert!(resp.text().contains("bloqueada durante 15 minutos"));
    assert_eq!(Client::new(&s).login("julia", PASSWORD).status, 303);
    // every attempt on an account is in the audit trail: who signed in, and each failure
    let log = r.json(&[
        "audit",
        "log",
        "--entity",
        "user_sign_ins",
        "--format",
        "json",
    ]);
    let events: Vec<(&str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["actor"].as_str().unwrap()))
        .collect();
    let mut expected = vec![("user.sign_in_failed", "(not signed in)"); 5];
    expected.push(("user.sign_in", "julia"));
    assert_eq!(
        events, expected,
        "the refusal during the lockout is not recorded"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn roles_are_checked_on_the_server() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut consulta, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    // reads are open to every role
    for path in [
        "/",
        "/titulares?q=1.000.000.001",
        "/titulares/1",
        "/tasas",
        "/auditoria",
    ] {
        assert_eq!(consulta.get(path).status, 200, "{path}");
    }
    // writes are not
    let forbidden = consulta.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "registrar"),
    );
    assert_eq!(forbidden.status, 403);
    assert!(
        forbidden
            .text()
            .contains("Su perfil no permite esta acción")
    );
    assert_eq!(consulta.get("/adjudicaciones/1/incumplimiento").status, 403);
    assert_eq!(consulta.get("/importar").status, 403);
    let mut oficial = Client::signed_in(&s, "oscar", PASSWORD);
    let (ref mut o, ref ocsrf) = oficial;
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(ocsrf, "registrar")
        )
        .status,
        303
    );
    assert_eq!(
        o.post(
            "/incumplimientos/1/liquidar",
            &[("csrf", ocsrf), ("until", "10/02/2025")]
        )
        .status,
        403
    );
    assert_eq!(
        o.post(
            "/incumplimientos/1/aviso",
            &[("csrf", ocsrf), ("notice_until", "10/02/2025")]
        )
        .status,
        403
    );
    assert_eq!(
        o.post(
            "/tasas",
            &[
                ("csrf", ocsrf),
                ("from", "01/11/2026"),
                ("to", "30/11/2026"),
                ("ibc", "17,5"),
                ("resolution", "X")
            ]
        )
        .status,
        403
    );
    // the pages offer only what the role may do
    let page = o.get("/incumplimientos/1").text();
    assert!(page.contains("Registrar pago") && !page.contains("Emitir aviso"));
    assert!(r.ok(&["breach", "list"]).contains("sale"));
}

#[test]
fn forms_without_their_csrf_token_are_refused() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut admin, csrf) = Client::signed_in(&s, "adela", PASSWORD);
    let before = r.dump();
    let no_token: Vec<(&str, &str)> = breach_fields(&csrf, "registrar")
        .into_iter()
        .filter(|(k, _)| *k != "csrf")
        .collect();
    for (path, fields) in [
        ("/adjudicaciones/1/incumplimiento", no_token.clone()),
        (
            "/incumplimientos/1/pagos",
            vec![
                ("payment_date", "15/12/2024"),
                ("payment_amount", "500.000"),
            ],
        ),
        ("/incumplimientos/1/liquidar", vec![("until", "10/02/2025")]),
        (
            "/incumplimientos/1/aviso",
            vec![("notice_until", "10/02/2025")],
        ),
        ("/tasas", vec![("from", "01/11/2026")]),
        ("/importar/confirmar", vec![("token", "x")]),
    ] {
        let resp = admin.post(path, &fields);
        assert_eq!(resp.status, 403, "POST {path}");
        // another session's token is no better
        let wrong: Vec<(&str, &str)> = fields
            .iter()
            .copied()
            .chain([("csrf", "0".repeat(64).leak() as &str)])
            .collect();
        assert_eq!(admin.post(path, &wrong).status, 403, "POST {path}");
    }
    let up = admin.upload("/importar", &[("programa", "D3939-2004")], ("a.csv", b"x"));
    assert_eq!(up.status, 403);
    let up = admin.upload("/avisos/verificar", &[], ("a.pdf", b"x"));
    assert_eq!(up.status, 403);
    assert_eq!(r.dump(), before, "nothing was written");
}

#[test]
fn a_holder_named_like_a_script_is_shown_as_text() {
    let r = register_with_users();
    let csv = format!(
        "{}CC,1000000009,<script>alert(1)</script>,natural,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let path = r.file("xss.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let s = Server::start(&r);
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    for page in [
        c.get("/titulares?q=%3Cscript"),
        c.get("/titulares?q=1.000.000.009"),
        c.get("/titulares/4"),
    ] {
        let t = page.text();
        assert_eq!(page.status, 200);
        assert!(t.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{t}");
        assert!(!t.contains("<script"), "{t}");
    }
}

#[test]
fn tls_serves_https_with_secure_cookies() {
    let r = register_with_users();
    let (cert, key) = (tls_fixture("cert.pem"), tls_fixture("key.pem"));
    let s = Server::start_with(&r, &["--tls-cert", &cert, "--tls-key", &key]);
    let page = https_get(&s.addr, "/ingresar").unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    // HSTS: a browser that saw this never tries plain HTTP for a year (issue 24.3)
    assert!(
        page.to_ascii_lowercase()
            .contains("\r\nstrict-transport-security: max-age=31536000\r\n"),
        "{page}"
    );
    assert!(page.contains("Ingresar"), "{page}");
    let cookie = page
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no cookie in {page}"));
    assert!(
        cookie.contains("; Secure") && cookie.contains("HttpOnly"),
        "{cookie}"
    );

    // plain HTTP on the HTTPS port gets no page
    let mut plain = TcpStream::connect(&s.addr).unwrap();
    plain
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    plain
        .write_all(b"GET /ingresar HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut raw = Vec::new();
    let _closed = plain.read_to_end(&mut raw);
    assert!(!String::from_utf8_lossy(&raw).contains("Ingresar"));

    // without TLS the cookie is not Secure (it would never come back over plain HTTP)
    let s = Server::start(&r);
    let plain = request(&s.addr, "GET", "/ingresar", &[], b"");
    assert!(!plain.header("set-cookie").unwrap().contains("Secure"));
    assert!(plain.header("strict-transport-security").is_none());
}

#[test]
fn tls_flags_go_together_and_are_checked() {
    let r = register_with_users();
    let (cert, key) = (tls_fixture("cert.pem"), tls_fixture("key.pem"));
    let e = r.fails(&["serve", "--tls-cert", &cert]);
    assert!(
        e.contains("--tls-cert") && e.contains("add --tls-key FILE"),
        "{e}"
    );
    let e = r.fails(&["serve", "--tls-key", &key]);
    assert!(
        e.contains("--tls-key") && e.contains("add --tls-cert FILE"),
        "{e}"
    );
    // a key in place of the certificate, and a certificate in place of the key
    let e = r.fails(&["serve", "--tls-cert", &key, "--tls-key", &key]);
    assert!(
        e.contains("--tls-cert") && e.contains("no certificate"),
        "{e}"
    );
    let e = r.fails(&["serve", "--tls-cert", &cert, "--tls-key", &cert]);
    assert!(e.contains("--tls-key") && e.contains("private key"), "{e}");
    // a key that is not the certificate's
    let other = tls_fixture("other-key.pem");
    let e = r.fails(&["serve", "--tls-cert", &cert, "--tls-key", &other]);
    assert!(e.contains("does not go with the certificate"), "{e}");
    let e = r.fails(&["serve", "--tls-cert", "/no/such.pem", "--tls-key", &key]);
    assert!(e.contains("--tls-cert /no/such.pem: cannot open it"), "{e}");
    // each said in Spanish too (they were English in a Spanish run)
    let es = |cert: &str, key: &str| {
        r.fails(&[
            "--lang",
            "es",
            "serve",
            "--tls-cert",
            cert,
            "--tls-key",
            key,
        ])
    };
    let e = es(&key, &key);
    assert!(
        e.contains(&format!(
            "--tls-cert {key}: no contiene ningún certificado (se espera un archivo PEM"
        )),
        "{e}"
    );
    let e = es(&cert, &cert);
    assert!(
        e.contains(&format!(
            "--tls-key {cert}: no contiene una clave privada PEM que se pueda usar"
        )),
        "{e}"
    );
    let e = es(&cert, &other);
    assert!(
        e.contains(&format!(
            "--tls-key {other}: no corresponde al certificado {cert} ("
        )),
        "{e}"
    );
    let e = es("/no/such.pem", &key);
    assert!(
        e.contains("--tls-cert /no/such.pem: no se puede abrir (no existe el archivo o la carpeta"),
        "{e}"
    );
}
