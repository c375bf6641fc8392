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
        Server::start_env(r, flags, &[])
    }

    /// With more flags and environment variables.
    pub fn start_env(r: &Reg, flags: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = r
            .command()
            .envs(env.iter().copied())
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

pub(crate) fn dechunk(mut b: &[u8]) -> Vec<u8> {
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

pub(crate) fn enc(s: &str) -> String {
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
    pub(crate) cookies: HashMap<String, String>,
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
pub(crate) fn error_text(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

/// The breach of SPEC §5 on adjudication 1, as the form sends it.
pub(crate) fn breach_fields<'a>(csrf: &'a str, action: &'a str) -> Vec<(&'a str, &'a str)> {
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

/// What the login page says when a session just ended, as the redirect `to` shows it.
pub(crate) fn ended_notice(s: &Server, to: &str) -> String {
    let page = request(&s.addr, "GET", to, &[], b"");
    assert_eq!(page.status, 200, "{}", page.text());
    let t = page.text();
    let open = "<p class=\"aviso\" role=\"status\">";
    let start = t.find(open).unwrap_or_else(|| panic!("no notice in {t}")) + open.len();
    t[start..start + t[start..].find("</p>").unwrap()].to_string()
}

/// How many times the server ran the dashboard's check, as its header says.
pub(crate) fn check_runs(resp: &Resp) -> u64 {
    assert_eq!(resp.status, 200, "{}", resp.text());
    resp.header("x-vigia-check-runs")
        .expect("the dashboard says how many times it ran the check")
        .parse()
        .unwrap()
}

/// The row of the rates table for the period starting on `from` (dd/mm/aaaa).
pub(crate) fn rate_row(page: &str, from: &str) -> String {
    let start = page
        .find(&format!("<tr><td>{from}</td>"))
        .unwrap_or_else(|| panic!("no row for {from} in {page}"));
    let len = page[start..].find("</tr>").unwrap();
    page[start..start + len].to_string()
}

/// The test-only certificate authority, certificate and key of tests/fixtures/tls/.
pub(crate) fn tls_fixture(name: &str) -> String {
    format!("{}/tests/fixtures/tls/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// One HTTPS request over a rustls client that trusts only the test CA; the raw response.
pub(crate) fn https_get(addr: &str, path: &str) -> Result<String, rustls::Error> {
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

/// The text of every general message (`<p class="error" role="alert">`, no input's id) of a page.
pub(crate) fn general_errors(page: &str) -> Vec<String> {
    let open = "<p class=\"error\" role=\"alert\">";
    page.match_indices(open)
        .map(|(i, _)| {
            let start = i + open.len();
            page[start..start + page[start..].find("</p>").unwrap()].to_string()
        })
        .collect()
}
