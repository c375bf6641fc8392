//! The web interface over HTTP: the real `vigia serve` on a free port of 127.0.0.1, driven by a
//! small HTTP/1.1 client (no cookies but the ones the server sets). Every route without a session,
//! with the wrong role, without its CSRF token; the escaped holder name; a breach recorded through
//! the form against the same breach recorded by the CLI; the lockout; previews that write nothing;
//! notices issued and downloaded; an import previewed by line, then confirmed.

use crate::common::Reg;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

/// `vigia serve` on a free loopback port; stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(r: &Reg) -> Server {
        Server::start_with(r, &[])
    }

    /// With more `vigia serve` flags; `addr` is then without its scheme.
    pub fn start_with(r: &Reg, flags: &[&str]) -> Server {
        let mut child = r
            .command()
            .arg("--db")
            .arg(r.db())
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "vigia serve: http://127.0.0.1:PORT/ (register ...)", or https://
        let addr = line
            .split("://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The server's process id (its descriptors and memory are read from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    /// The value of the first hidden CSRF input.
    pub fn csrf(&self) -> String {
        let t = self.text();
        let i = t.find("name=\"csrf\" value=\"").expect("a csrf input") + 19;
        t[i..i + 64].to_string()
    }
}

/// One HTTP/1.1 request, `Connection: close`.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut s = TcpStream::connect(addr).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    // read to the end of the body: by its Content-Length when given (chromedriver says
    // `Connection: close` and keeps the socket open), else until the server closes
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let split = loop {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "the connection closed before the headers ended");
        raw.extend_from_slice(&buf[..n]);
        if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
    };
    let length = String::from_utf8_lossy(&raw[..split])
        .split("\r\n")
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok());
    match length {
        Some(len) => {
            while raw.len() < split + 4 + len {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "the connection closed before the body ended");
                raw.extend_from_slice(&buf[..n]);
            }
        }
        None => {
            s.read_to_end(&mut raw).unwrap();
        }
    }
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Resp {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let n = usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + n]);
        b = &b[eol + 4 + n..];
    }
}

pub fn form(fields: &[(&str, &str)]) -> Vec<u8> {
    fields
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".into(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A browser of one person: its cookies.
pub struct Client<'s> {
    server: &'s Server,
    cookies: HashMap<String, String>,
}

impl<'s> Client<'s> {
    pub fn new(server: &'s Server) -> Client<'s> {
        Client {
            server,
            cookies: HashMap::new(),
        }
    }

    fn send(&mut self, method: &str, path: &str, ctype: Option<&str>, body: &[u8]) -> Resp {
        let cookie: String = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let mut h = Vec::new();
        if !cookie.is_empty() {
            h.push(("Cookie", cookie.as_str()));
        }
        if let Some(c) = ctype {
            h.push(("Content-Type", c));
        }
        let r = request(&self.server.addr, method, path, &h, body);
        for (k, v) in &r.headers {
            if k.eq_ignore_ascii_case("set-cookie") {
                let (kv, attrs) = v.split_once(';').unwrap_or((v, ""));
                let (name, value) = kv.split_once('=').unwrap();
                if value.is_empty() || attrs.contains("Max-Age=0") {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value.to_string());
                }
            }
        }
        r
    }

    pub fn get(&mut self, path: &str) -> Resp {
        self.send("GET", path, None, b"")
    }

    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Resp {
        self.send(
            "POST",
            path,
            Some("application/x-www-form-urlencoded"),
            &form(fields),
        )
    }

    /// A multipart form with one file input `archivo`.
    pub fn upload(&mut self, path: &str, fields: &[(&str, &str)], file: (&str, &[u8])) -> Resp {
        let boundary = "----vigiaPrueba7MA4YWxkTrZu0gW";
        let mut body = Vec::new();
        for (k, v) in fields {
            body.extend(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                )
                .as_bytes(),
            );
        }
        body.extend(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"archivo\"; filename=\"{}\"\r\nContent-Type: application/octet-stream\r\n\r\n",
                file.0
            )
            .as_bytes(),
        );
        body.extend(file.1);
        body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
        let ctype = format!("multipart/form-data; boundary={boundary}");
        self.send("POST", path, Some(&ctype), &body)
    }

    pub fn login(&mut self, user: &str, password: &str) -> Resp {
        let page = self.get("/ingresar");
        let csrf = page.csrf();
        self.post(
            "/ingresar",
            &[("csrf", &csrf), ("usuario", user), ("clave", password)],
        )
    }

    /// Signed in: the CSRF token of this session (from any page).
    pub fn signed_in(server: &'s Server, user: &str, password: &str) -> (Client<'s>, String) {
        let mut c = Client::new(server);
        let r = c.login(user, password);
        assert_eq!(r.status, 303, "{}", r.text());
        let csrf = c.get("/").csrf();
        (c, csrf)
    }
}

pub const PASSWORD: &str = "clave de prueba 1";

/// Adds an account with [`PASSWORD`].
pub fn add_user(r: &Reg, name: &str, role: &str) {
    let mut c = r.command();
    c.arg("--db")
        .arg(r.db())
        .args([
            "--officer",
            "admin",
            "user",
            "add",
            name,
            "--role",
            role,
            "--password-stdin",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
}

/// A register with the test holders and one account per role.
pub fn register_with_users() -> Reg {
    let r = Reg::new().with_letterhead().with_holders();
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

/// The text of the refusal shown next to the input `name`, if any (as maud escaped it).
fn error_text(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

/// The breach of SPEC §5 on adjudication 1, as the form sends it.
fn breach_fields<'a>(csrf: &'a str, action: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("csrf", csrf),
        ("breach_kind", "sale"),
        ("breach_date", "20/11/2024"),
        ("shares", "1.000"),
        ("consideration_per_share", "1.450"),
        ("consideration_total", ""),
        ("registered_on", ""),
        ("evidence", "Contrato <b>de prueba</b>"),
        ("until", "10/02/2025"),
        ("accion", action),
    ]
}

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

/// What the login page says when a session just ended, as the redirect `to` shows it.
fn ended_notice(s: &Server, to: &str) -> String {
    let page = request(&s.addr, "GET", to, &[], b"");
    assert_eq!(page.status, 200, "{}", page.text());
    let t = page.text();
    let open = "<p class=\"aviso\" role=\"status\">";
    let start = t.find(open).unwrap_or_else(|| panic!("no notice in {t}")) + open.len();
    t[start..start + t[start..].find("</p>").unwrap()].to_string()
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

/// How many times the server ran the dashboard's check, as its header says.
fn check_runs(resp: &Resp) -> u64 {
    assert_eq!(resp.status, 200, "{}", resp.text());
    resp.header("x-vigia-check-runs")
        .expect("the dashboard says how many times it ran the check")
        .parse()
        .unwrap()
}

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
    assert_eq!(first.text().matches("BREACH_NOT_LIQUIDATED").count(), 0);
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
    assert_eq!(t.matches("BREACH_NOT_LIQUIDATED").count(), 2, "{t}");
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
    assert_eq!(t.matches("BREACH_NOT_LIQUIDATED").count(), 3, "{t}");
    assert!(t.contains("href=\"/incumplimientos/2\""), "{t}");
    assert_eq!(check_runs(&c.get(at)), 4);

    // each date is kept apart, and a change reaches them all
    assert_eq!(check_runs(&c.get("/?fecha=11/03/2025")), 5);
    assert_eq!(check_runs(&c.get(at)), 5);
    r.ok(&["breach", "void", "2", "--reason", "registrado por error"]);
    let after = c.get(at);
    assert_eq!(check_runs(&after), 6);
    assert_eq!(after.text().matches("BREACH_NOT_LIQUIDATED").count(), 2);
    assert_eq!(check_runs(&c.get("/?fecha=11/03/2025")), 7);
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
fn a_breach_recorded_through_the_form_equals_the_cli_one() {
    let web = register_with_users();
    let s = Server::start(&web);
    let (mut c, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // the preview prices the fine and writes nothing
    let before = web.dump();
    let preview = c.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "vista"),
    );
    assert_eq!(preview.status, 200);
    let t = preview.text();
    for expected in [
        "Vista previa (nada se ha registrado)",
        "75 % — entre los meses 6 y 12",
        "$ 1.450",
        "← mayor valor",
        "$ 1.087.500",
        "21/11/2024",
        "TOTAL A PAGAR al 10/02/2025",
    ] {
        assert!(t.contains(expected), "{expected} in {t}");
    }
    assert_eq!(web.dump(), before, "a preview writes nothing");
    let saved = c.post(
        "/adjudicaciones/1/incumplimiento",
        &breach_fields(&csrf, "registrar"),
    );
    assert_eq!(saved.status, 303);
    assert_eq!(saved.header("location"), Some("/incumplimientos/1"));

    let cli = Reg::new().with_letterhead().with_holders();
    let o = cli
        .command()
        .arg("--db")
        .arg(cli.db())
        .args([
            "--officer",
            "oscar",
            "breach",
            "record",
            "--adjudication",
            "1",
            "--kind",
            "sale",
            "--date",
            "2024-11-20",
            "--shares",
            "1000",
            "--consideration-per-share",
            "1450",
            "--evidence",
            "Contrato <b>de prueba</b>",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let strip = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("recorded_at");
        v
    };
    let a = strip(web.json(&["breach", "show", "1", "--format", "json"]));
    let b = strip(cli.json(&["breach", "show", "1", "--format", "json"]));
    assert_eq!(a, b);
    assert_eq!(
        a["recorded_by"], "oscar",
        "the signed-in user is the officer"
    );
    let log = web.ok(&["audit", "log", "--entity", "breaches"]);
    assert!(log.contains("oscar"), "{log}");

    // a refusal is shown next to the input it names, and nothing is written
    let before = web.dump();
    let mut late = breach_fields(&csrf, "registrar");
    late[2] = ("breach_date", "16/03/2026");
    late[3] = ("shares", "10");
    let refused = c.post("/adjudicaciones/1/incumplimiento", &late);
    assert_eq!(refused.status, 422);
    let t = refused.text();
    assert_eq!(
        error_text(&t, "breach_date").as_deref(),
        Some(
            "Fecha del incumplimiento 16/03/2026: no hay lugar a multa: el período de restricción de \
             negociabilidad de la adjudicación N.º 1 terminó el 15/03/2026 y el titular podía negociar \
             libremente sus acciones desde el 16/03/2026; no se registró nada."
        ),
        "{t}"
    );
    let mut bad = breach_fields(&csrf, "registrar");
    bad[3] = ("shares", "mil");
    let t = c.post("/adjudicaciones/1/incumplimiento", &bad).text();
    assert!(
        t.contains("id=\"shares-error\"") && t.contains("no es un número entero"),
        "{t}"
    );
    assert_eq!(web.dump(), before);
}

#[test]
fn payments_liquidations_notices_and_downloads() {
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
    let paid = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "15/12/2024"),
            ("payment_amount", "500.000"),
            ("reference", "Consignación 1"),
        ],
    );
    assert_eq!(paid.status, 303);
    let early = o.post(
        "/incumplimientos/1/pagos",
        &[
            ("csrf", &ocsrf),
            ("payment_date", "19/11/2024"),
            ("payment_amount", "1"),
        ],
    );
    assert_eq!(early.status, 422);
    assert!(
        early.text().contains("id=\"payment_date-error\""),
        "{}",
        early.text()
    );

    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let liq = j.post(
        "/incumplimientos/1/liquidar",
        &[("csrf", &jcsrf), ("until", "10/02/2025")],
    );
    assert_eq!(liq.status, 303);
    let page = j.get(liq.header("location").unwrap()).text();
    assert!(
        page.contains("<svg") && page.contains("<polyline"),
        "{page}"
    );
    assert!(
        page.contains("$ 626.823"),
        "SPEC §5 with the payment: {page}"
    );
    // the daily rate of 27,90 % EA is (1,279)^(1/365) − 1 = 0,000674415 0…, written with a comma;
    // the convention by its Spanish name
    assert!(
        page.contains("<td class=\"num\">0,0006744150</td>"),
        "{page}"
    );
    assert!(
        page.contains("Convención: interés simple diario (<code>daily-simple</code>)"),
        "{page}"
    );
    let issued = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &jcsrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    let notice = j.get(issued.header("location").unwrap());
    assert!(notice.text().contains("MULTA-2025-0001"));
    let pdf = j.get("/avisos/1/documento/pdf");
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(
        pdf.header("content-disposition")
            .unwrap()
            .contains("MULTA-2025-0001.pdf")
    );
    assert!(pdf.body.starts_with(b"%PDF-"));
    let md = j.get("/avisos/1/documento/md");
    assert!(md.text().contains("626.823"));
    // the downloaded document verifies against the register, uploaded back
    let verified = j.upload(
        "/avisos/verificar",
        &[("csrf", &jcsrf)],
        ("aviso.pdf", &pdf.body),
    );
    assert!(
        verified
            .text()
            .contains("El documento coincide con el registro"),
        "{}",
        verified.text()
    );
    let mut altered = md.text();
    altered = altered.replace("626.823", "526.823");
    let refused = j.upload(
        "/avisos/verificar",
        &[("csrf", &jcsrf)],
        ("aviso.md", altered.as_bytes()),
    );
    assert!(refused.text().contains("NO coincide"), "{}", refused.text());
    // the holder's page shows the whole story in order
    let t = j.get("/titulares/1").text();
    let order = [
        "Adjudicación 1",
        "Incumplimiento 1",
        "Pago 1",
        "Liquidación 1",
        "Aviso MULTA-2025-0001",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|w| t.find(w).unwrap_or_else(|| panic!("{w} in {t}")))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
    // a breach is told by its kind, then its shares
    assert!(
        t.contains("Incumplimiento 1 (venta o negociación de las acciones): "),
        "{t}"
    );
    // the audit trail holds every write, by who made it, and verifies
    let audit = j.get("/auditoria").text();
    assert!(audit.contains("oscar") && audit.contains("julia"));
    // each action said in Spanish, its stable code beside it
    for (label, code) in [
        ("Registro de un incumplimiento", "breach.record"),
        ("Liquidación de una multa", "fine.liquidate"),
        ("Expedición de un aviso de cobro", "notice.issue"),
    ] {
        assert!(
            audit.contains(&format!("<td>{label}<br><small><code>{code}</code>")),
            "{label} / {code} in {audit}"
        );
    }
    // times in Colombia's legal time, never UTC
    assert!(audit.contains("(hora de Colombia)") && !audit.contains("UTC"));
    assert!(
        j.get("/auditoria/verificar")
            .text()
            .contains("Cadena de auditoría íntegra")
    );
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
    let t = o
        .upload(
            "/importar",
            &[("csrf", &csrf), ("programa", "D3939-2004")],
            ("malo.csv", bad.as_bytes()),
        )
        .text();
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
    let good = format!(
        "{}CC,2000000001,Nueva Persona,natural,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let t = o
        .upload(
            "/importar",
            &[("csrf", &csrf), ("programa", "D3939-2004")],
            ("bueno.csv", good.as_bytes()),
        )
        .text();
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
            "<td>Falta la prenda<br><small><code>MISSING_PLEDGE</code></small></td>\
             <td>D3939-2004</td><td class=\"num\">3</td>"
        ),
        "{t}"
    );
    assert_eq!(
        t.matches("Falta la prenda<br><small><code>MISSING_PLEDGE</code>")
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
        let t = o
            .upload(
                "/importar",
                &[("csrf", &csrf), ("programa", "D3939-2004")],
                (name, bytes),
            )
            .text();
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

/// The row of the rates table for the period starting on `from` (dd/mm/aaaa).
fn rate_row(page: &str, from: &str) -> String {
    let start = page
        .find(&format!("<tr><td>{from}</td>"))
        .unwrap_or_else(|| panic!("no row for {from} in {page}"));
    let len = page[start..].find("</tr>").unwrap();
    page[start..start + len].to_string()
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
    // the shipped series, each rate with two decimals and each resolution's date dd/mm/aaaa
    let t = a.get("/tasas").text();
    assert_eq!(
        rate_row(&t, "01/09/2026"),
        "<tr><td>01/09/2026</td><td>30/09/2026</td><td class=\"num\">19,49 %</td>\
         <td class=\"num\">29,24 %</td><td>SFC Res. 1260 de 2026 (31/08/2026)</td>"
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
            "«17,8,4» tiene los separadores fuera de lugar; escriba un punto cada tres dígitos para los miles y una coma para los decimales, p. ej. 1.450.000,50."
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
         <td class=\"num\">26,76 %</td><td>SFC Res. 9999 de 2026 (30/10/2026)</td>"
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
            .contains("<td class=\"num\">25,00 %</td><td class=\"num\">37,50 %</td>")
    );
    // the audit trail says what was done
    assert!(
        a.get("/auditoria")
            .text()
            .contains("<td>Registro de una certificación de tasa<br><small><code>rate.add</code>"),
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
            "warning: IBC 25 % EA for 2026-12-01..2026-12-31 is 7.16 points above the 17.84 % EA \
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

/// The test-only certificate authority, certificate and key of tests/fixtures/tls/.
fn tls_fixture(name: &str) -> String {
    format!("{}/tests/fixtures/tls/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// One HTTPS request over a rustls client that trusts only the test CA; the raw response.
fn https_get(addr: &str, path: &str) -> Result<String, rustls::Error> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    use std::sync::Arc;
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(tls_fixture("ca.pem")).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = ServerName::try_from("127.0.0.1").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(config), name)?;
    let tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut raw = Vec::new();
    let read = tls
        .write_all(head.as_bytes())
        .and_then(|_| tls.read_to_end(&mut raw));
    match read {
        Ok(_) => Ok(String::from_utf8_lossy(&raw).into_owned()),
        Err(e) => match e.into_inner().map(|i| i.downcast::<rustls::Error>()) {
            Some(Ok(tls_error)) => Err(*tls_error),
            other => panic!("not a TLS error: {other:?}"),
        },
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
    assert!(e.contains("--tls-cert /no/such.pem: cannot read it"), "{e}");
}

#[test]
fn payments_and_breaches_are_voided_by_an_officer_with_a_reason() {
    let r = register_with_users();
    let s = Server::start(&r);
    // anonymous: to the login page, nothing written
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x&void_reason=y");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        o.post(
            "/adjudicaciones/1/incumplimiento",
            &breach_fields(&ocsrf, "registrar")
        )
        .status,
        303
    );
    let pay = |o: &mut Client<'_>, reference: &str| {
        o.post(
            "/incumplimientos/1/pagos",
            &[
                ("csrf", &ocsrf),
                ("payment_date", "15/12/2024"),
                ("payment_amount", "500.000"),
                ("reference", reference),
            ],
        )
        .status
    };
    assert_eq!(pay(&mut o, "Consignación 1"), 303);
    let page = o.get("/incumplimientos/1").text();
    // with a payment in force the breach cannot be voided: the page says why, not a form the
    // register would refuse
    assert!(
        page.contains("Anular pago")
            && !page.contains("Anular incumplimiento")
            && page.contains("<p id=\"no-anulable\">No puede anularse: "),
        "{page}"
    );
    // a consulta sees no void forms and may not void (oficial and the roles above it may)
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    // (signing in is recorded: what follows must write nothing more)
    let before = r.dump();
    let page = c.get("/incumplimientos/1").text();
    assert!(!page.contains("Anular pago") && !page.contains("Anular incumplimiento"));
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        let resp = c.post(path, &[("csrf", &ccsrf), ("void_reason", "error")]);
        assert_eq!(resp.status, 403, "POST {path}");
        assert!(resp.text().contains("Su perfil no permite esta acción"));
    }
    // without the CSRF token, or with another one, an officer is refused too
    for path in [
        "/incumplimientos/1/anular",
        "/incumplimientos/1/pagos/1/anular",
    ] {
        assert_eq!(o.post(path, &[("void_reason", "error")]).status, 403);
        let other = "0".repeat(64);
        let resp = o.post(path, &[("csrf", &other), ("void_reason", "error")]);
        assert_eq!(resp.status, 403);
    }
    // without a reason the register refuses, next to the payments; a payment of another breach
    // is not voided from this one
    let resp = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", " ")],
    );
    assert_eq!(resp.status, 422);
    assert!(
        resp.text().contains(
            "<p class=\"error\" role=\"alert\">Pago 1: indique por qué se anula el pago.</p>"
        ),
        "{}",
        resp.text()
    );
    let resp = o.post(
        "/incumplimientos/2/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "error")],
    );
    assert_eq!(resp.status, 404, "{}", resp.text());
    assert_eq!(r.dump(), before, "nothing was written");
    // with a breach 2 (of adjudication 2), the register refuses payment 1 from its page
    let mut second = breach_fields(&ocsrf, "registrar");
    second[3].1 = "500";
    assert_eq!(
        o.post("/adjudicaciones/2/incumplimiento", &second).status,
        303
    );
    let before = r.dump();
    let resp = o.post(
        "/incumplimientos/2/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "error")],
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    assert!(
        resp.text().contains(
            "<p class=\"error\" role=\"alert\">Pago 1: pertenece al incumplimiento N.º 1, no al N.º 2.</p>"
        ),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // the officer voids the payment: it stays, marked, with who and why (escaped)
    let resp = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "Era de otro titular <b>")],
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/incumplimientos/1").text();
    assert!(
        page.contains("ANULADO") && page.contains("por oscar: Era de otro titular &lt;b&gt;"),
        "{page}"
    );
    let cli = r.ok(&["payment", "list", "--breach", "1"]);
    assert!(cli.contains("Era de otro titular <b>"), "{cli}");
    // twice is refused
    let again = o.post(
        "/incumplimientos/1/pagos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "otra vez")],
    );
    assert_eq!(again.status, 422);
    assert!(
        again.text().contains("Pago 1: ya fue anulado el ")
            && again
                .text()
                .contains(" por oscar (Era de otro titular &lt;b&gt;)"),
        "{}",
        again.text()
    );
    // with the payment voided, the breach's own void is offered
    let page = o.get("/incumplimientos/1").text();
    assert!(page.contains("Anular incumplimiento"), "{page}");

    // then the breach itself, as the CLI would
    let resp = o.post(
        "/incumplimientos/1/anular",
        &[("csrf", &ocsrf), ("void_reason", "Registrado por error")],
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/incumplimientos/1").text();
    assert!(
        page.contains("ANULADO") && page.contains("Registrado por error"),
        "{page}"
    );
    assert!(!page.contains("Anular incumplimiento") && !page.contains("Registrar pago"));
    // both voids are in the audit trail under the officer who made them
    let voids: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM audit_events WHERE actor = 'oscar' AND action LIKE '%void%'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(voids, 2);
    r.ok(&["audit", "verify"]);
}

#[test]
fn pledges_are_registered_and_released_from_the_holders_page() {
    let r = register_with_users();
    let s = Server::start(&r);
    for path in ["/adjudicaciones/1/prendas", "/adjudicaciones/1/liberar"] {
        let resp = request(&s.addr, "POST", path, &[], b"csrf=x&pledge_rank=1");
        assert_eq!(resp.status, 303, "POST {path}");
        assert_eq!(resp.header("location"), Some("/ingresar"), "POST {path}");
    }
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    // (signing in is recorded: what follows must write nothing more)
    let before = r.dump();
    assert!(!c.get("/titulares/1").text().contains("Registrar prenda"));
    let pledge = |csrf: &str| {
        vec![
            ("csrf".to_string(), csrf.to_string()),
            ("adjudication".into(), "1".into()),
            ("pledge_rank".into(), "1".into()),
            ("registered_on".into(), "01/04/2024".into()),
            ("lender".into(), String::new()),
        ]
    };
    let fields = |v: &[(String, String)]| -> Vec<(String, String)> { v.to_vec() };
    let post = |cl: &mut Client<'_>, path: &str, v: &[(String, String)]| {
        let refs: Vec<(&str, &str)> = v.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        cl.post(path, &refs)
    };
    // a consulta may not; nobody without the form's token may
    assert_eq!(
        post(&mut c, "/adjudicaciones/1/prendas", &pledge(&ccsrf)).status,
        403
    );
    let release = |csrf: &str, on: &str| {
        vec![
            ("csrf".to_string(), csrf.to_string()),
            ("adjudication".into(), "1".into()),
            ("release_date".into(), on.to_string()),
        ]
    };
    assert_eq!(
        post(
            &mut c,
            "/adjudicaciones/1/liberar",
            &release(&ccsrf, "16/03/2026")
        )
        .status,
        403
    );
    assert!(o.get("/titulares/1").text().contains("Registrar prenda"));
    let mut no_token = fields(&pledge(&ocsrf));
    no_token.retain(|(k, _)| k != "csrf");
    assert_eq!(
        post(&mut o, "/adjudicaciones/1/prendas", &no_token).status,
        403
    );
    let mut no_token = release(&ocsrf, "16/03/2026");
    no_token.remove(0);
    assert_eq!(
        post(&mut o, "/adjudicaciones/1/liberar", &no_token).status,
        403
    );
    // a degree that is neither 1 nor 2 is refused next to its input, nothing written
    let mut bad = pledge(&ocsrf);
    bad[2].1 = "3".into();
    let resp = post(&mut o, "/adjudicaciones/1/prendas", &bad);
    assert_eq!(resp.status, 422);
    assert!(
        resp.text().contains("id=\"pledge_rank-error\""),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");

    // registered, as the CLI would
    let resp = post(&mut o, "/adjudicaciones/1/prendas", &pledge(&ocsrf));
    assert_eq!(resp.status, 303, "{}", resp.text());
    assert_eq!(resp.header("location"), Some("/titulares/1"));
    let page = o.get("/titulares/1").text();
    assert!(page.contains("Prenda 1 de grado 1"), "{page}");
    assert!(page.contains("Liberar prendas"), "{page}");
    // its 1.000 shares are all pledged: no second pledge is offered (the register would refuse
    // one), the page says so
    assert!(!page.contains("Registrar prenda"), "{page}");
    assert!(
        page.contains("Las prendas vigentes cubren todas sus acciones (1.000)."),
        "{page}"
    );
    // the lock-up has not ended on 15/03/2026: refused with the register's reason
    let resp = post(
        &mut o,
        "/adjudicaciones/1/liberar",
        &release(&ocsrf, "15/03/2026"),
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    let resp = post(
        &mut o,
        "/adjudicaciones/1/liberar",
        &release(&ocsrf, "16/03/2026"),
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("Prenda 1 liberada") && page.contains("(liberada)"),
        "{page}"
    );
    // released, its shares are free to pledge again
    assert!(page.contains("Registrar prenda"), "{page}");
    let writes: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM audit_events WHERE actor = 'oscar' AND action LIKE 'pledge.%'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(writes, 2);
    r.ok(&["audit", "verify"]);
}

#[test]
fn a_refusal_about_the_adjudication_is_shown_on_the_holders_page() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert!(o.get("/titulares/1").text().contains("Registrar prenda"));
    // voided meanwhile (another officer, another tab): the page on screen still has the form
    r.ok(&[
        "adjudications",
        "void",
        "1",
        "--reason",
        "Registrada por error",
    ]);
    let before = r.dump();
    let resp = o.post(
        "/adjudicaciones/1/prendas",
        &[
            ("csrf", &csrf),
            ("adjudication", "1"),
            ("pledge_rank", "1"),
            ("registered_on", "01/04/2024"),
            ("lender", ""),
        ],
    );
    assert_eq!(resp.status, 422, "{}", resp.text());
    assert_eq!(
        error_text(&resp.text(), "adjudicacion-1").as_deref(),
        Some("Adjudicación 1: fue anulada; ya no es una adjudicación vigente y no admite prenda."),
        "{}",
        resp.text()
    );
    assert_eq!(r.dump(), before, "nothing was written");
}

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

/// Issue 13: «Verificar un aviso» checks the uploaded bytes itself (not through the command
/// line) and says each check in Spanish: a notice as issued, the same notice tampered with, the
/// notice once replaced, a file that is no document. The command line still says it in English.
#[test]
fn verifying_a_notice_says_each_check_in_spanish() {
    let r = crate::notices::spec_register();
    add_user(&r, "carla", "consulta");
    let path = |name: &str| r.dir.path().join(name).display().to_string();
    let issue = |date: &str, format: &str, name: &str| {
        r.ok(&[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            date,
            "--reason",
            "fecha del caso de prueba",
            "--format",
            format,
            "--out",
            &path(name),
        ])
    };
    issue("2025-02-11", "pdf", "n.pdf");
    r.ok(&[
        "notice",
        "render",
        "MULTA-2025-0001",
        "--format",
        "md",
        "--out",
        &path("n.md"),
    ]);
    let pdf = std::fs::read(path("n.pdf")).unwrap();
    let md = std::fs::read_to_string(path("n.md")).unwrap();
    // when the PDF was recorded, as the page writes it: Colombia's time, UTC−5
    let at: String = r
        .conn()
        .query_row(
            "SELECT created_at FROM renderings WHERE notice_id = 1 ORDER BY id LIMIT 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    let at_es = (chrono::DateTime::parse_from_rfc3339(&at).unwrap() - chrono::TimeDelta::hours(5))
        .format("%d/%m/%Y %H:%M (hora de Colombia)")
        .to_string();

    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let mut verify = |name: &str, bytes: &[u8]| {
        let t = c
            .upload("/avisos/verificar", &[("csrf", &csrf)], (name, bytes))
            .text();
        // what the verification says: from the page's title to the form for another document
        let start = t.find("</h1>").expect("the page's title");
        let end = start + t[start..].find("<form").expect("the upload form");
        let said = t[start..end].to_string();
        let lower = said.to_lowercase();
        for english in [
            "match",
            "notice",
            "file",
            "fingerprint",
            "recomputed",
            "superseded",
            "in force",
            "different",
            "identical",
            "issued",
            "expected",
            "found",
            "line ",
            "register",
            "voided",
            "payment",
            "liquidation",
            "not a",
            " of ",
        ] {
            assert!(!lower.contains(english), "{english:?} in {said}");
        }
        said
    };

    // as issued
    let t = verify("aviso.pdf", &pdf);
    for expected in [
        "El documento coincide con el registro: texto, cifras y huella.",
        "Documento: aviso de cobro <strong>MULTA-2025-0001</strong> del programa D3939-2004, \
         liquidación N.º 1.",
        "<td>Texto y cifras</td><td>✓ coincide</td><td>coinciden con el registro</td>",
        &format!("<td>✓ coincide</td><td>idéntico al archivo emitido (PDF, {at_es}; SHA-256 "),
        "<td>Cifras recalculadas hoy</td><td>✓ coincide</td><td>el registro da las mismas cifras</td>",
        "<td>Vigencia</td><td>✓ coincide</td><td>vigente: ningún aviso posterior lo reemplaza</td>",
    ] {
        assert!(t.contains(expected), "{expected:?} in {t}");
    }
    assert!(!t.contains("✗"), "{t}");

    // the total edited in the Markdown: the line, what it should say and what it says
    let tampered = md.replace("$ 626.823", "$ 26.823");
    let line = md
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .position(|l| l.contains("$ 626.823"))
        .unwrap()
        + 1;
    let t = verify("aviso.md", tampered.as_bytes());
    for expected in [
        "El documento NO coincide con el registro (vea el detalle).".to_string(),
        format!(
            "<td>Texto y cifras</td><td class=\"error\">✗ no coincide</td><td>la línea {line} \
             debía decir «| Total a pagar al 10 de febrero de 2025 | $ 626.823 |» y dice «| Total \
             a pagar al 10 de febrero de 2025 | $ 26.823 |»</td>"
        ),
        "<td>Archivo</td><td class=\"error\">✗ no coincide</td><td>distinto de todos los archivos \
         que vigia generó (SHA-256 "
            .to_string(),
    ] {
        assert!(t.contains(&expected), "{expected:?} in {t}");
    }
    // the command line says the same in English, as before
    let o = r.run(&["notice", "verify", &r.file("t.md", tampered.as_bytes())]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        crate::common::out(&o).contains(&format!(
            "document text and figures: DO NOT MATCH at line {line}"
        )),
        "{}",
        crate::common::out(&o)
    );

    // replaced by a later notice
    issue("2025-02-12", "md", "n2.md");
    let t = verify("aviso.pdf", &pdf);
    assert!(
        t.contains("El documento NO coincide con el registro")
            && t.contains(
                "<td>Vigencia</td><td class=\"error\">✗ no coincide</td><td>reemplazado por el \
                 aviso MULTA-2025-0002 del 12/02/2025; este aviso ya no está vigente</td>"
            ),
        "{t}"
    );

    // no document at all
    let t = verify("foto.jpg", b"\xff\xd8\xff\xe0 JFIF");
    assert!(
        t.contains("No se pudo verificar el documento.")
            && t.contains(
                "Motivo: no es un documento que vigia pueda leer: no es un PDF ni texto UTF-8 \
                 (HTML o Markdown)."
            ),
        "{t}"
    );
}

/// The text of every general message (`<p class="error" role="alert">`, no input's id) of a page.
fn general_errors(page: &str) -> Vec<String> {
    let open = "<p class=\"error\" role=\"alert\">";
    page.match_indices(open)
        .map(|(i, _)| {
            let start = i + open.len();
            page[start..start + page[start..].find("</p>").unwrap()].to_string()
        })
        .collect()
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
            "El pago N.º 1 por $ 500.000 del 15/12/2024 con la misma referencia (Consignación 1) ya \
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
            "<form method=\"post\" action=\"/avisos/verificar\" enctype=\"multipart/form-data\">",
        ),
        (
            true,
            "/programas",
            "Elija el archivo del programa; no se subió ninguno.",
            "<form method=\"post\" action=\"/programas\" enctype=\"multipart/form-data\">",
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
        t.contains("<td>(sin sesión)</td><td>Intento de ingreso fallido<br><small><code>user.sign_in_failed</code></small></td>\
                    <td>Ingresos al sistema<br><small><code>user_sign_ins</code></small></td>"),
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
    assert_eq!(t.matches("<code>user_sign_ins</code>").count(), 2, "{t}");
    assert!(!t.contains("<code>users</code>"), "{t}");
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
            let code = row
                .split("<code>")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
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
        t.contains("<td class=\"num\">27,90 %</td>")
            && t.contains("<td>SFC Res. 2168 de 2024 (31/10/2024)</td>")
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
            "<dt>Convención de intereses</dt><dd>Interés simple diario (<code>daily-simple</code>): \
             cada día se liquida sobre el capital pendiente"
        ),
        "{t}"
    );
}
