//! Every route the web's router declares, over HTTP against the real `vigia serve`: without a
//! session each one sends the browser to the sign-in page; every POST without the session's CSRF
//! token (or with another's) is refused with nothing written; and each role gets 403 from every
//! route its role may not use, nothing written either.
//!
//! The routes are not listed here by hand: they are read from the source of `src/web/` (each
//! `routes()`'s `.route("PATH", get(HANDLER).post(HANDLER))`), and each handler's role from its
//! own body (`user.require(Role::X)` or `sent.checked(&user, Role::X)`; none: any signed-in user),
//! whether it needs a session from its signature (a `User` extractor), and whether it reads a
//! multipart upload (a `Multipart` extractor). A route added to a module is tested without
//! touching this file; a handful of routes are cross-checked by hand against the README's roles.

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Server, add_user, request};

/// The roles, lowest first, as `vigia user add --role` names them (`register::user::Role::ALL`).
const ROLES: [&str; 4] = ["consulta", "oficial", "juridico", "admin"];
/// One account of each role, in the order of [`ROLES`].
const USERS: [&str; 4] = ["carla", "oscar", "julia", "adela"];

/// One method of one route, as the source declares it.
#[derive(Debug, Clone)]
struct Route {
    method: &'static str,
    path: String,
    handler: String,
    file: String,
    /// The least role that may use it (an index into [`ROLES`]).
    role: usize,
    /// Served without a session (the sign-in page and the style sheet).
    public: bool,
    /// The form is a multipart upload.
    multipart: bool,
}

impl Route {
    /// The path with a value for each parameter: the shipped program, the Second Stage, the
    /// PDF format, and id 1 for every other (`{id}`, `{payment}`, `{first}` …).
    fn concrete(&self) -> String {
        let mut out = String::new();
        let mut rest = self.path.as_str();
        while let Some(i) = rest.find('{') {
            let j = rest[i..].find('}').unwrap() + i;
            out.push_str(&rest[..i]);
            out.push_str(match &rest[i + 1..j] {
                "code" => "D3939-2004",
                "n" => "2",
                "format" => "pdf",
                _ => "1",
            });
            rest = &rest[j + 1..];
        }
        out + rest
    }
}

/// The text from `open` (an index of `(`) to its matching `)`.
fn balanced(text: &str, open: usize) -> &str {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open..open + i + 1];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses from {open}")
}

/// The text of the item that starts at `at` up to its closing brace at the start of a line.
fn item_at(text: &str, at: usize) -> &str {
    let len = text[at..]
        .find("\n}\n")
        .unwrap_or_else(|| panic!("no end of the item at {at}"));
    &text[at..at + len + 2]
}

/// The handler `name`'s `async fn` (its signature and body), in `own` or else in any file of
/// `src/web/` (a handler may be named with its module).
fn handler_text<'s>(sources: &'s [(String, String)], own: &str, name: &str) -> (&'s str, &'s str) {
    let sig = format!("async fn {name}(");
    let mut files: Vec<&(String, String)> = sources.iter().filter(|(f, _)| f == own).collect();
    files.extend(sources.iter().filter(|(f, _)| f != own));
    for (file, text) in files {
        if let Some(at) = text.find(&sig) {
            return (file.as_str(), item_at(text, at));
        }
    }
    panic!("no `async fn {name}` in src/web/")
}

/// Every route of `src/web/`, read from the source of each router function.
fn declared_routes() -> Vec<Route> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    sources.sort();
    let mut routes = Vec::new();
    for (file, text) in &sources {
        // the router functions only (a test module or a comment may say `.route(` too)
        for start in ["pub(super) fn routes()", "pub fn router("] {
            let Some(at) = text.find(start) else { continue };
            let body = item_at(text, at);
            let mut from = 0;
            while let Some(k) = body[from..].find(".route(") {
                let open = from + k + ".route".len();
                let call = balanced(body, open);
                from = open + call.len();
                let q0 = call.find('"').unwrap() + 1;
                let path = call[q0..q0 + call[q0..].find('"').unwrap()].to_string();
                let rest = &call[q0 + path.len() + 1..];
                let mut found = 0;
                for method in ["get", "post", "put", "delete", "patch"] {
                    for (i, _) in rest.match_indices(&format!("{method}(")) {
                        // `get(` itself, not the end of another word (`target(`)
                        if i > 0 && rest.as_bytes()[i - 1].is_ascii_alphanumeric() {
                            continue;
                        }
                        let inner = balanced(rest, i + method.len());
                        let name = inner[1..inner.len() - 1].rsplit("::").next().unwrap();
                        let (hfile, h) = handler_text(&sources, file, name);
                        let signature = &h[..h.find('{').unwrap()];
                        let role = ["Consulta", "Oficial", "Juridico", "Admin"]
                            .iter()
                            .rposition(|r| {
                                h.contains(&format!("require(Role::{r})"))
                                    || h.contains(&format!("checked(&user, Role::{r})"))
                            })
                            .unwrap_or(0);
                        routes.push(Route {
                            method: if method == "get" { "GET" } else { "POST" },
                            path: path.clone(),
                            handler: name.to_string(),
                            file: hfile.to_string(),
                            role,
                            public: !signature.contains(": User"),
                            multipart: signature.contains("Multipart"),
                        });
                        assert!(
                            method == "get" || method == "post",
                            "{method} {path}: the test sends only GET and POST"
                        );
                        found += 1;
                    }
                }
                assert!(found > 0, "{file}: no handler read for {path}");
            }
        }
    }
    routes
}

/// A register holding one of each thing the routes name by id 1 (SPEC §5's breach, its payment,
/// liquidation and notice) and one account per role.
fn register() -> Reg {
    let r = crate::notices::spec_register();
    for (name, role) in USERS.iter().zip(ROLES) {
        add_user(&r, name, role);
    }
    r
}

#[test]
fn the_routes_are_read_from_the_source_and_agree_with_the_roles_by_hand() {
    let routes = declared_routes();
    // every `.route(` of the routers was read (none skipped by the reading itself)
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let calls: usize = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let t = std::fs::read_to_string(e.path()).unwrap();
            let t = t.split("#[cfg(test)]").next().unwrap().to_string();
            t.matches(".route(").count()
        })
        .sum();
    let mut paths: Vec<&str> = routes.iter().map(|r| r.path.as_str()).collect();
    paths.dedup();
    assert_eq!(paths.len(), calls, "{paths:#?}");
    assert!(routes.len() > 80, "only {} routes read", routes.len());
    // a few by hand, from the README's roles: consulta reads, oficial records facts, jurídico
    // liquidates and issues letters, admin runs programs, offers, stages, rates, users, backups
    let role = |method: &str, path: &str| -> (&str, bool) {
        let r = routes
            .iter()
            .find(|r| r.method == method && r.path == path)
            .unwrap_or_else(|| panic!("{method} {path} not declared"));
        (ROLES[r.role], r.public)
    };
    for (method, path, want) in [
        ("GET", "/titulares", "consulta"),
        ("GET", "/incumplimientos/{id}", "consulta"),
        ("POST", "/incumplimientos/{id}/pagos", "oficial"),
        ("POST", "/adjudicaciones/{id}/incumplimiento", "oficial"),
        ("POST", "/programas/{code}/aceptaciones", "oficial"),
        ("POST", "/incumplimientos/{id}/liquidar", "juridico"),
        ("POST", "/incumplimientos/{id}/aviso", "juridico"),
        ("POST", "/incumplimientos/{id}/paz-y-salvo", "juridico"),
        ("POST", "/programas/{code}/oferta", "admin"),
        ("POST", "/programas/{code}/oferta/adjudicar", "admin"),
        ("POST", "/programas/{code}/etapas/{n}/concluir", "admin"),
        ("GET", "/respaldo", "admin"),
        ("POST", "/usuarios", "admin"),
        ("POST", "/programas/{code}/oferta/verificar", "consulta"),
    ] {
        assert_eq!(role(method, path), (want, false), "{method} {path}");
    }
    // the forms any signed-in user may send, by hand: each of the others writes, and a write
    // route whose handler forgot its role would be read as open to all and land here
    let open: Vec<&str> = routes
        .iter()
        .filter(|r| r.method == "POST" && r.role == 0)
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(
        open,
        [
            "/avisos/verificar",
            "/programas/{code}/oferta/verificar",
            "/ingresar",
            "/salir",
            // drops the session's own certificate: nothing reaches the register
            "/firma/quitar",
            "/programas/{code}/etapas/{n}/verificar",
        ],
        "POST routes without a role"
    );
    assert_eq!(role("GET", "/ingresar"), ("consulta", true));
    assert_eq!(role("GET", "/estilo.css"), ("consulta", true));
    assert!(
        routes
            .iter()
            .filter(|r| r.public)
            .all(|r| r.path == "/ingresar" || r.path == "/estilo.css"),
        "{:#?}",
        routes.iter().filter(|r| r.public).collect::<Vec<_>>()
    );
    let uploads: Vec<&str> = routes
        .iter()
        .filter(|r| r.multipart)
        .map(|r| r.path.as_str())
        .collect();
    assert!(
        uploads.contains(&"/programas/{code}/aceptaciones")
            && uploads.contains(&"/avisos/verificar"),
        "{uploads:?}"
    );
}

#[test]
fn every_route_needs_a_session_and_every_form_its_csrf_token() {
    let routes = declared_routes();
    let r = register();
    let s = Server::start(&r);
    for route in &routes {
        let path = route.concrete();
        let resp = request(&s.addr, route.method, &path, &[], b"csrf=x");
        if route.public {
            assert_ne!(resp.status, 303, "{} {path}", route.method);
            continue;
        }
        assert_eq!(
            resp.status, 303,
            "{} {path} without a session",
            route.method
        );
        assert_eq!(
            resp.header("location"),
            Some("/ingresar"),
            "{} {path}",
            route.method
        );
    }

    // as the administrator, who may use every route: no token, or another session's, refused
    let (mut a, _) = Client::signed_in(&s, "adela", PASSWORD);
    let before = r.dump();
    let other = "0".repeat(64);
    for route in routes.iter().filter(|r| r.method == "POST" && !r.public) {
        let path = route.concrete();
        for token in [None, Some(other.as_str())] {
            let fields: Vec<(&str, &str)> = token.map(|t| ("csrf", t)).into_iter().collect();
            let resp = if route.multipart {
                a.upload(&path, &fields, ("a.csv", b"x"))
            } else {
                a.post(&path, &fields)
            };
            assert_eq!(
                resp.status,
                403,
                "POST {path} ({}::{}) with token {token:?}: {}",
                route.file,
                route.handler,
                resp.text()
            );
        }
    }
    // still signed in (the sign-out without its token did nothing), and nothing was written
    assert!(a.get("/").text().contains("adela · "));
    assert_eq!(r.dump(), before, "a refused form wrote something");
    // the sign-in form's own token: without it no one signs in
    let mut anon = Client::new(&s);
    let resp = anon.post("/ingresar", &[("usuario", "adela"), ("clave", PASSWORD)]);
    assert_eq!(resp.status, 403, "{}", resp.text());
    assert_eq!(anon.get("/").status, 303);
}

#[test]
fn each_role_is_refused_every_route_above_it_with_nothing_written() {
    let routes = declared_routes();
    let r = register();
    let s = Server::start(&r);
    let clients: Vec<(Client<'_>, String)> = USERS
        .iter()
        .map(|u| Client::signed_in(&s, u, PASSWORD))
        .collect();
    let mut clients = clients;
    let before = r.dump();
    let mut refused = 0;
    for route in routes.iter().filter(|r| !r.public && r.role > 0) {
        let path = route.concrete();
        for (level, (c, csrf)) in clients.iter_mut().enumerate().take(route.role) {
            let resp = match (route.method, route.multipart) {
                ("GET", _) => c.get(&path),
                (_, true) => c.upload(&path, &[("csrf", csrf)], ("a.csv", b"x")),
                _ => c.post(&path, &[("csrf", csrf)]),
            };
            assert_eq!(
                resp.status,
                403,
                "{} {path} ({}::{}, for {} and above) as {}: {}",
                route.method,
                route.file,
                route.handler,
                ROLES[route.role],
                ROLES[level],
                resp.text()
            );
            refused += 1;
        }
    }
    assert_eq!(r.dump(), before, "a refused request wrote something");
    assert!(refused > 60, "only {refused} refusals tried");

    // the derivation is not stricter than the server: a role allowed a page gets no 403
    // (pages only: the forms would write)
    for route in routes.iter().filter(|r| !r.public && r.method == "GET") {
        let path = route.concrete();
        for (level, (c, _)) in clients.iter_mut().enumerate().skip(route.role) {
            let resp = c.get(&path);
            // a 303 to the sign-in page is a refusal; a verification form's address sends
            // a GET on to its page (tested below)
            let to_sign_in = resp.status == 303
                && resp
                    .header("location")
                    .is_none_or(|l| l.starts_with("/ingresar"));
            assert!(
                resp.status != 403 && !to_sign_in,
                "GET {path} ({}::{}) as {}: {}",
                route.file,
                route.handler,
                ROLES[level],
                resp.status
            );
        }
    }
}

/// A verification form's address opened with a GET (the address bar keeps the form's target
/// after an upload; a reload, a bookmark, a new tab): sent back to the page that holds the form,
/// never a bare 405. Every `…/verificar` route is read from the source, so one added without its
/// GET fails here; the pages they lead to are worked out by hand.
#[test]
fn a_get_of_a_verification_form_address_goes_to_the_page_that_holds_the_form() {
    let routes = declared_routes();
    let mut verify: Vec<&str> = routes
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/verificar"))
        .map(|r| r.path.as_str())
        .collect();
    verify.sort();
    assert_eq!(
        verify,
        [
            "/avisos/verificar",
            "/programas/{code}/etapas/{n}/verificar",
            "/programas/{code}/oferta/verificar",
        ]
    );
    let r = register();
    let s = Server::start(&r);
    // the lowest role: any signed-in user may verify
    let (mut c, _) = Client::signed_in(&s, "carla", PASSWORD);
    for (path, to) in [
        (
            "/programas/D3939-2004/oferta/verificar",
            "/programas/D3939-2004/oferta#acta",
        ),
        (
            "/programas/D3939-2004/etapas/2/verificar",
            "/programas/D3939-2004/etapas/2#acta",
        ),
        // a code no program has is still sent to its page (which says so), encoded
        (
            "/programas/D%203939/oferta/verificar",
            "/programas/D%203939/oferta#acta",
        ),
    ] {
        let resp = c.get(path);
        assert_eq!(resp.status, 303, "GET {path}: {}", resp.text());
        assert_eq!(resp.header("location"), Some(to), "GET {path}");
    }
    // the notices' form is its own page: a GET shows it
    let resp = c.get("/avisos/verificar");
    assert_eq!(resp.status, 200);
    assert!(resp.text().contains("type=\"file\""), "{}", resp.text());
}
