//! Front end 2: the Spanish web interface (`vigia serve`). Routes, pages, sessions; it turns
//! form inputs into validated values and register refusals back into messages next to the input
//! they name ([`register::Field::as_str`] is the input's name). No rule lives here: every write
//! calls the same `register` function as the CLI, inside `Store::write` under the signed-in user.
//!
//! The modules follow the CLI's floor plan: one per route prefix, each with its own `routes()`,
//! handlers, form structs (each input named once, a `register::Field::as_str` where the register
//! has the field) and markup; none imports another (a test in `lib.rs` says so). They stand on:
//!
//! - [`form`]: the kernel: a form read once into its struct, refusals beside their input,
//!   dry runs, uploads, responses, and today by the server's one clock in Colombia;
//! - [`views`]: the HTML (maud: every value escaped), es-CO formats and the SVG balance chart;
//! - [`letters`]: what pages say of notices and paz y salvo (deadlines, deliveries, the breach
//!   page's letter forms, recorded downloads);
//! - [`auth`]: accounts, sessions (in memory, 30 idle minutes), CSRF tokens, sign-in and its
//!   lockout (counted in the register), roles; [`cache`]: the dashboard's batch check, kept
//!   while the register does not change; [`chain`]: whether the audit chain holds under an acta
//!   that does not match, verified in the background, one at a time, kept per register state;
//! - [`extract`]: axum's extractors refusing with a Spanish page; [`frame_errors`] draws every
//!   error page with the menu of the person signed in and a link back.
//!
//! The route modules: [`session`] (`/ingresar`, `/salir`), [`dashboard`] (`/`), [`holders`]
//! (`/titulares` and the holder page's pledge and correction forms), [`pledges`]
//! (`/prendas/liberar`), [`breach_record`] (`/adjudicaciones/{id}/incumplimiento`),
//! [`breaches`] (`/incumplimientos`: payments, voids, liquidations, notices and paz y salvo
//! issued), [`liquidations`], [`notices`] (`/avisos`, «Verificar aviso»), [`settlements`]
//! (`/paz-y-salvo`), [`imports`] (`/importar`), [`audit`], [`rates`] (`/tasas`), [`users`],
//! [`programs`], [`offering`] (`/programas/{code}/oferta`), [`acceptances`] (its file of
//! acceptances, reviewed then imported), [`stages`] (`/programas/{code}/etapas/{n}`, the later
//! stages; markup in [`stages_markup`]), [`stage_proposals`] (a stage's file of proposals,
//! reviewed then imported) and [`letterhead`]
//! (`/programas/{code}/cartas`); [`pages`] assembles them.

mod acceptances;
mod acta_files;
mod audit;
mod auth;
mod backup;
mod breach_record;
mod breaches;
mod cache;
mod chain;
mod charts;
mod dashboard;
mod form;
mod holders;
mod imports;
mod letterhead;
mod letters;
mod limits;
mod liquidations;
mod notice_batch;
mod notices;
mod offer_acta;
mod offer_check;
mod offering;
mod pages;
mod pledge_import;
mod pledges;
mod programs;
mod rates;
mod rates_import;
mod session;
mod settlements;
mod signing;
mod split_pledges;
mod stage_proposals;
mod stages;
mod stages_markup;
mod tls;
mod users;
mod views;

pub use limits::Limits;
pub use tls::{TlsProblem, server_config as tls_config};

use crate::rates::RateSeries;
use crate::register;
use crate::store::{Store, StoreError};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Register calls of the server running at once, each on its own connection ([`App::db`]); as
/// many connections are kept between calls.
const DB_AT_ONCE: usize = 4;

/// How `vigia serve` was started.
#[derive(Debug, Clone)]
pub struct Config {
    pub db: PathBuf,
    pub listen: SocketAddr,
    /// Whether the session cookie is marked Secure: `--secure-cookies`, or always under TLS.
    pub secure_cookies: bool,
    /// `--tls-cert` and `--tls-key`, read and checked ([`tls_config`]): serve HTTPS.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// `--rates FILE`; else the register's series, read at each use.
    pub rates_file: Option<PathBuf>,
    /// What traffic without an account can take ([`Limits::default`], `--max-connections`,
    /// `--header-timeout`).
    pub limits: Limits,
    /// The audit key's path (`--key`, `VIGIA_KEY`, or the default): the audit page verifies
    /// against the signed checkpoints with it, as `vigia audit verify` does.
    pub audit_key: Option<PathBuf>,
    /// The certificates the office trusts (`VIGIA_TRUST`): the chains of the signatures
    /// «Verificar aviso» checks; `None`: the chains are not checked.
    pub trust: Option<Arc<Vec<x509_cert::Certificate>>>,
    /// `VIGIA_SIGN_KEYS`: the directory of the accounts' PKCS#12 files (`USER.p12`, owner-only)
    /// kept on the server; `None`: each signer uploads theirs for the session on «Firma digital».
    pub sign_keys: Option<PathBuf>,
}

impl Config {
    /// A server over `db` as a test makes it: plain HTTP, default limits, no audit key, no rates
    /// file, no trust, no signing keys.
    #[cfg(test)]
    fn over(db: &std::path::Path) -> Config {
        Config {
            db: db.to_path_buf(),
            listen: "127.0.0.1:0".parse().expect("an address"),
            secure_cookies: false,
            tls: None,
            rates_file: None,
            limits: Limits::default(),
            audit_key: None,
            trust: None,
            sign_keys: None,
        }
    }
}

/// The time now, as the server reads it (a test sets another).
pub(crate) type Clock = Box<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// What the dashboard's batch check is asked for: the as-of date and the program (`None`: all).
pub(crate) type CheckScope = (NaiveDate, Option<i64>);

/// What the check's result depends on besides its scope: the register's facts (the last audit
/// event, sign-ins left out: the check reads no account) and, with `--rates FILE`, the file's
/// SHA-256 (without it the series is in the register). Every write appends an audit event in its
/// own transaction, whichever process makes it, so a write anywhere changes this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CheckVersion {
    register: crate::store::audit::Head,
    rates_file: Option<String>,
}

/// What every request shares: the register's connections, the sessions, the sign-in attempts on
/// names that are no account, the dashboard's check and the clock.
pub(crate) struct App {
    config: Config,
    /// Connections of the register left by earlier calls, at most [`DB_AT_ONCE`].
    pool: Mutex<Vec<Store>>,
    /// One permit per register call running ([`App::db`]).
    db_slots: Arc<tokio::sync::Semaphore>,
    sessions: auth::Sessions,
    checks: cache::Fresh<CheckScope, CheckVersion, dashboard::CheckSummary>,
    /// The audit chain's verdicts for the acta pages, and its one verification running.
    chain: chain::Watch,
    /// The audit page's full verification, one at a time ([`chain::OneAtATime`]).
    audit_runs: chain::OneAtATime<Result<maud::Markup, WebError>>,
    clock: Clock,
    /// A file of acceptances reviewed and not yet confirmed, by session token.
    acceptances: Mutex<std::collections::HashMap<String, auth::PendingImport>>,
    /// A file of a later stage's proposals reviewed and not yet confirmed, by session token
    /// (with whether it came as a workbook).
    proposals: Mutex<std::collections::HashMap<String, (auth::PendingImport, bool)>>,
    /// Other files reviewed and not yet confirmed (pledges, rates), by session token and page.
    reviewed: Mutex<std::collections::HashMap<(String, &'static str), auth::PendingImport>>,
}

impl App {
    /// A server's state over `config.db`, with one connection already open (if given).
    fn new(config: Config, store: Option<Store>, clock: Clock) -> App {
        App {
            config,
            pool: Mutex::new(store.into_iter().collect()),
            db_slots: Arc::new(tokio::sync::Semaphore::new(DB_AT_ONCE)),
            sessions: auth::Sessions::default(),
            checks: cache::Fresh::default(),
            chain: chain::Watch::default(),
            audit_runs: chain::OneAtATime::default(),
            clock,
            acceptances: Mutex::default(),
            proposals: Mutex::default(),
            reviewed: Mutex::default(),
        }
    }

    /// Keeps a file reviewed on page `kind` for the session `session` until it is confirmed
    /// (a later review on the same page replaces it).
    fn keep_reviewed(&self, session: &str, kind: &'static str, p: auth::PendingImport) {
        if let Ok(mut m) = self.reviewed.lock() {
            m.insert((session.to_string(), kind), p);
        }
    }

    /// The file reviewed on page `kind` for `session`, taken (once) when `token` is its review's.
    fn take_reviewed(
        &self,
        session: &str,
        kind: &'static str,
        token: &str,
    ) -> Option<auth::PendingImport> {
        let mut m = self.reviewed.lock().ok()?;
        let key = (session.to_string(), kind);
        if m.get(&key).is_some_and(|p| p.token == token) {
            m.remove(&key)
        } else {
            None
        }
    }

    /// The time now.
    fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    /// What the dashboard's check depends on, as it stands now.
    async fn check_version(self: &Arc<Self>) -> Result<CheckVersion, WebError> {
        let app = Arc::clone(self);
        self.db(move |s| {
            let register =
                crate::store::audit::head_without(s.conn(), crate::store::users::SIGN_INS)?;
            let rates_file = match &app.config.rates_file {
                Some(path) => Some(crate::store::sha256_hex(
                    &std::fs::read(path)
                        .map_err(|e| WebError::internal(format!("{}: {e}", path.display())))?,
                )),
                None => None,
            };
            Ok(CheckVersion {
                register,
                rates_file,
            })
        })
        .await
    }

    /// Runs `f` on a connection of the register, off the async threads, at most [`DB_AT_ONCE`]
    /// at a time: a flood of requests waits for its turn instead of opening a connection (and a
    /// thread with its own memory) each.
    async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T, WebError> + Send + 'static,
    ) -> Result<T, WebError> {
        let app = Arc::clone(self);
        let slot = Arc::clone(&self.db_slots)
            .acquire_owned()
            .await
            .map_err(|e| WebError::internal(format!("register calls closed: {e}")))?;
        tokio::task::spawn_blocking(move || {
            // held until the call ends, even when the request that waits for it is gone
            let _slot = slot;
            let mut store = match app.pool.lock().map(|mut p| p.pop()) {
                Ok(Some(s)) => s,
                _ => Store::open(&app.config.db).map_err(WebError::from)?,
            };
            let out = f(&mut store);
            if let Ok(mut p) = app.pool.lock()
                && p.len() < DB_AT_ONCE
            {
                p.push(store);
            }
            out
        })
        .await
        .map_err(|e| WebError::internal(format!("task failed: {e}")))?
    }

    /// The rate series in force, as the CLI reads it.
    fn rates(&self, store: &Store) -> Result<RateSeries, WebError> {
        match &self.config.rates_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| WebError::internal(format!("{}: {e}", path.display())))?;
                RateSeries::from_csv(&text, &path.display().to_string())
                    .map_err(|e| WebError::internal(e.to_string()))
            }
            None => Ok(crate::store::rates::series(store.conn())?),
        }
    }
}

/// Why the audit could not be verified, as the server's failure.
fn audit_failed(e: crate::register::audit::Failed) -> WebError {
    match e {
        crate::register::audit::Failed::Store(e) => WebError::from(e),
        crate::register::audit::Failed::Checkpoint(e) => WebError::internal(e),
    }
}

/// Why the server stopped, or could not start.
#[derive(Debug)]
pub enum ServeError {
    /// The address could not be listened on (in use, not this machine's, not allowed).
    Listen(std::net::SocketAddr, std::io::Error),
    Io(std::io::Error),
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// Serves until the process is stopped; tells `listening` the address it listens on
/// (`http://127.0.0.1:8080/`) first, once it does.
pub fn serve(
    config: Config,
    listening: &mut dyn FnMut(&str) -> std::io::Result<()>,
) -> Result<(), ServeError> {
    // the register must open (and migrate) before anyone is told to connect
    let store = Store::open(&config.db).map_err(std::io::Error::other)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| ServeError::Listen(config.listen, e))?;
        let addr = listener.local_addr()?;
        let scheme = if config.tls.is_some() {
            "https"
        } else {
            "http"
        };
        listening(&format!("{scheme}://{addr}/"))?;
        let tls = config.tls.clone();
        let app = Arc::new(App::new(
            Config {
                // a cookie set over HTTPS is never sent back over plain HTTP
                secure_cookies: config.secure_cookies || tls.is_some(),
                limits: config.limits.clone().within_descriptors(),
                ..config
            },
            Some(store),
            Box::new(Utc::now),
        ));
        // the bounds come first: a body too large is refused, a throttled client turned away,
        // before any route's extractor (the session check included) runs
        let guards = limits::Guards::new(app.config.limits.clone(), tls.is_some());
        let router = pages::router(Arc::clone(&app)).layer(axum::middleware::from_fn_with_state(
            (app, Arc::clone(&guards)),
            limits::bound,
        ));
        Ok(limits::accept(listener, tls, router, guards).await?)
    })
}

/// A request that could not be served, as the Spanish sentence the person reads under a title.
#[derive(Debug, Clone)]
pub(crate) struct WebError {
    status: StatusCode,
    title: &'static str,
    message: String,
}

impl WebError {
    fn new(status: StatusCode, message: impl Into<String>) -> WebError {
        let title = match status {
            StatusCode::FORBIDDEN => "Acceso denegado",
            StatusCode::NOT_FOUND => "No encontrado",
            StatusCode::BAD_REQUEST => "Solicitud rechazada",
            _ => "Error",
        };
        WebError {
            status,
            title,
            message: message.into(),
        }
    }

    /// A failure the person cannot fix: the detail goes to the server's log, not the page.
    fn internal(detail: impl std::fmt::Display) -> WebError {
        eprintln!("vigia serve: internal error: {detail}");
        WebError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Ocurrió un error interno al atender la solicitud; nada quedó a medias en el registro. \
             Intente de nuevo o avise al administrador (el detalle quedó en el registro del servidor).",
        )
    }

    fn forbidden() -> WebError {
        WebError::new(
            StatusCode::FORBIDDEN,
            "Su perfil no permite esta acción. Pida a un administrador el perfil adecuado.",
        )
    }

    fn csrf() -> WebError {
        WebError::new(
            StatusCode::FORBIDDEN,
            "El formulario venció o no proviene de esta aplicación. Vuelva a la página, recárguela y envíelo de nuevo.",
        )
    }

    fn not_found(what: &str) -> WebError {
        WebError::new(
            StatusCode::NOT_FOUND,
            format!("No existe {what} en el registro."),
        )
    }

    fn bad_request(message: impl Into<String>) -> WebError {
        WebError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A request no page of this application sends (an address or a form edited by hand).
    fn invalid(message: impl Into<String>) -> WebError {
        WebError {
            title: "Solicitud no válida",
            ..WebError::new(StatusCode::BAD_REQUEST, message)
        }
    }
}

/// The Spanish name of what the store could not find.
fn thing_es(what: &str) -> &'static str {
    match what {
        "adjudication" => "la adjudicación",
        "breach" => "el incumplimiento",
        "liquidation" => "la liquidación",
        "notice" => "el aviso",
        "paz y salvo" => "el paz y salvo",
        "program" => "el programa",
        "user" => "el usuario",
        "holder" => "el titular",
        "pledge" => "la prenda",
        _ => "el registro pedido",
    }
}

impl From<StoreError> for WebError {
    fn from(e: StoreError) -> WebError {
        match e {
            StoreError::NotFound { what, id } => {
                WebError::not_found(&format!("{} {id}", thing_es(what)))
            }
            other => WebError::internal(other),
        }
    }
}

impl From<register::Error> for WebError {
    fn from(e: register::Error) -> WebError {
        match e {
            register::Error::Store(s) => s.into(),
            register::Error::Refused(r) => WebError::bad_request(format!(
                "El registro rechazó la operación: {}",
                views::refusal_text(&r)
            )),
            register::Error::Refusals(rs) => WebError::bad_request(format!(
                "El registro rechazó la operación: {}",
                rs.iter()
                    .map(views::refusal_text)
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            register::Error::Fine(f) => WebError::bad_request(views::fine_error_text(&f)),
        }
    }
}

/// An error page is drawn here without its frame's menu; [`frame_errors`] draws it again for
/// the person signed in, with a link back, from the copy kept on the response.
impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let body = views::error_page(None, self.title, &self.message, None);
        let mut r = (self.status, axum::response::Html(body.into_string())).into_response();
        secure_headers(&mut r);
        r.extensions_mut().insert(self);
        r
    }
}

/// The account of a request once the `User` extractor has checked its session, for the error
/// page's frame (set by `auth`, read by [`frame_errors`]).
#[derive(Clone, Default)]
pub(crate) struct SignedIn(Arc<Mutex<Option<auth::User>>>);

impl SignedIn {
    pub(crate) fn set(&self, user: &auth::User) {
        if let Ok(mut u) = self.0.lock() {
            *u = Some(user.clone());
        }
    }

    fn get(&self) -> Option<auth::User> {
        self.0.lock().ok().and_then(|u| u.clone())
    }
}

/// Draws every error page (a refusal, a page not found, a role or token refused) in the page
/// frame with the menu of the person signed in and a link back to the page it came from.
pub(crate) async fn frame_errors(
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let signed_in = SignedIn::default();
    req.extensions_mut().insert(signed_in.clone());
    let back = back_to(req.method() == axum::http::Method::POST, req.uri().path());
    let mut r = next.run(req).await;
    if let Some(e) = r.extensions_mut().remove::<WebError>() {
        let user = signed_in.get();
        // a record that is not there: any page of a record above the address may be the one
        // missing, so the way back is the nearest list above it (never a link to another 404)
        let back = match back {
            Some(b) if e.status == StatusCode::NOT_FOUND => back_to_list(&b),
            b => b,
        };
        let body = views::error_page(user.as_ref(), e.title, &e.message, back.as_deref());
        *r.body_mut() = axum::body::Body::from(body.into_string());
        r.headers_mut().remove(header::CONTENT_LENGTH);
    }
    r
}

/// The nearest page at or above `page` that shows no record of its own (`/titulares`,
/// `/programas`): where a request about a record that is not there goes back to.
fn back_to_list(page: &str) -> Option<String> {
    let mut p = page.to_string();
    loop {
        if !p.split('/').any(|seg| {
            !seg.is_empty()
                && (seg.bytes().all(|c| c.is_ascii_digit()) || p.starts_with("/programas/"))
        }) {
            return back_to(true, &p);
        }
        p.truncate(p.rfind('/').filter(|&i| i > 0)?);
    }
}

/// The page a failed request came from or belongs under: the form page a POST was sent from
/// (itself, or the record it is under: `/incumplimientos/7/aviso` → `/incumplimientos/7`), else
/// the nearest page above the address (`/titulares/abc` → `/titulares`). `None`: only the
/// dashboard.
fn back_to(post: bool, path: &str) -> Option<String> {
    /// The pages a GET shows (`#` a record's number, `*` a program's code).
    const PAGES: &[&str] = &[
        "/titulares",
        "/titulares/#",
        "/adjudicaciones/#/incumplimiento",
        "/incumplimientos/#",
        "/liquidaciones/#",
        "/avisos/verificar",
        "/avisos/#",
        "/importar",
        "/auditoria",
        "/respaldo",
        "/tasas",
        "/prendas/liberar",
        "/prendas/importar",
        "/tasas/importar",
        "/avisos/pendientes",
        "/usuarios",
        "/programas",
        "/programas/*",
        "/programas/*/oferta",
        "/programas/*/aceptaciones",
        "/programas/*/cartas",
        "/programas/*/etapas/#",
        "/programas/*/etapas/#/propuestas",
    ];
    let shows = |p: &str| {
        PAGES.iter().any(|page| {
            let (a, b): (Vec<&str>, Vec<&str>) =
                (page.split('/').collect(), p.split('/').collect());
            a.len() == b.len()
                && a.iter().zip(&b).all(|(x, y)| {
                    x == y
                        || (*x == "#" && !y.is_empty() && y.bytes().all(|c| c.is_ascii_digit()))
                        || (*x == "*" && !y.is_empty())
                })
        })
    };
    let mut p = path.trim_end_matches('/').to_string();
    if !post {
        // the page that failed is not the way back
        p.truncate(p.rfind('/')?);
    }
    loop {
        if shows(&p) {
            return Some(p);
        }
        p.truncate(p.rfind('/').filter(|&i| i > 0)?);
    }
}

/// The headers every page carries: a Content-Security-Policy without inline script (there is no
/// script at all), no framing, no sniffing, no referrer.
pub(crate) fn secure_headers(r: &mut Response) {
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; \
             frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// axum's `Path`, `Query` and `Form`, refusing with a Spanish page ([`WebError`]) instead of
/// axum's English text: an address whose record number is not a number names no page (404); a
/// query or form no page sends is not a valid request (400).
pub(crate) mod extract {
    use super::WebError;
    use axum::extract::path::ErrorKind;
    use axum::extract::rejection::PathRejection;
    use axum::extract::{FromRequest, FromRequestParts, Request};
    use axum::http::request::Parts;
    use serde::de::DeserializeOwned;

    /// The parts of the address (`/titulares/{id}`).
    pub(crate) struct Path<T>(pub T);

    /// The query string (`?fecha=...`).
    pub(crate) struct Query<T>(pub T);

    /// A form sent as `application/x-www-form-urlencoded`.
    pub(crate) struct Form<T>(pub T);

    impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
        type Rejection = WebError;

        async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, WebError> {
            match axum::extract::Path::<T>::from_request_parts(parts, state).await {
                Ok(p) => Ok(Path(p.0)),
                Err(PathRejection::FailedToDeserializePathParams(e)) => Err(match e.into_kind() {
                    ErrorKind::ParseError { value, .. }
                    | ErrorKind::ParseErrorAtIndex { value, .. }
                    | ErrorKind::ParseErrorAtKey { value, .. } => WebError::new(
                        axum::http::StatusCode::NOT_FOUND,
                        format!(
                            "No existe la página pedida: «{value}» no es el número de un registro."
                        ),
                    ),
                    _ => WebError::not_found("la página pedida"),
                }),
                Err(e) => Err(WebError::internal(e)),
            }
        }
    }

    impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Query<T> {
        type Rejection = WebError;

        async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, WebError> {
            axum::extract::Query::<T>::from_request_parts(parts, state)
                .await
                .map(|q| Query(q.0))
                .map_err(|_| {
                    WebError::invalid(
                        "La dirección trae datos que ninguna página de vigia envía. Vuelva a la \
                         página y use su formulario.",
                    )
                })
        }
    }

    impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequest<S> for Form<T> {
        type Rejection = WebError;

        async fn from_request(req: Request, state: &S) -> Result<Self, WebError> {
            axum::Form::<T>::from_request(req, state)
                .await
                .map(|f| Form(f.0))
                .map_err(|_| {
                    WebError::invalid(
                        "El formulario no llegó como lo envía vigia (incompleto o en otro \
                         formato). Vuelva a la página, recárguela y envíelo de nuevo.",
                    )
                })
        }
    }
}

/// What a person typed in a form, read by the one reader below both front ends
/// ([`crate::input`]: the command line's flags and the imports' cells read the same), its
/// refusals in Spanish; an empty or negative input says what to write.
pub(crate) mod input {
    use crate::input as reader;
    use chrono::NaiveDate;
    use rust_decimal::Decimal;

    /// `dd/mm/aaaa` (what the pages show), `d/m/aaaa`, `dd-mm-aaaa` or `aaaa-mm-dd`, 1990–2099.
    pub fn date(s: &str) -> Result<NaiveDate, String> {
        if s.trim().is_empty() {
            return Err("falta: indique la fecha (dd/mm/aaaa)".into());
        }
        reader::date(s).map_err(|e| e.said().es().to_string())
    }

    /// An amount in pesos the Colombian way: `1.450,50`, `1.450`, `1450,5`, `1450.50`; zero or
    /// more.
    pub fn amount(s: &str) -> Result<Decimal, String> {
        number(reader::signed_amount(s), s, "el valor", "1.450,50")
    }

    /// An amount paid: [`amount`] in pesos and centavos (at most two decimals).
    pub fn paid(s: &str) -> Result<Decimal, String> {
        number(reader::pesos_paid(s), s, "el valor", "1.450,50")
    }

    /// A percentage: `27,90` or `27.90` (a `%` after it is allowed); zero or more.
    pub fn percent(s: &str) -> Result<Decimal, String> {
        number(reader::percent(s), s, "el porcentaje", "27,90")
    }

    /// What the reader made of `s`, `what` the input asks for, `example` how to write one.
    fn number(
        read: Result<Decimal, reader::Refused>,
        s: &str,
        what: &str,
        example: &str,
    ) -> Result<Decimal, String> {
        let s = s.trim();
        match read {
            Err(e) if e.problem == reader::Problem::Empty => {
                Err(format!("falta: indique {what}, p. ej. {example}"))
            }
            Err(e)
                if matches!(
                    e.problem,
                    reader::Problem::NotANumber | reader::Problem::PercentNotANumber
                ) =>
            {
                Err(format!("«{s}» no es un número: escríbalo como {example}"))
            }
            Err(e) => Err(e.said().es().to_string()),
            Ok(v) if v.is_sign_negative() && !v.is_zero() => Err(format!(
                "«{}» es negativo: {what} debe ser positivo, p. ej. {example}",
                s.trim_start_matches('$').trim()
            )),
            Ok(v) => Ok(v),
        }
    }

    /// A whole number of shares (`1.000` or `1000`).
    pub fn count(s: &str) -> Result<u64, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err("falta: indique el número de acciones".into());
        }
        reader::count(s).map_err(|e| match e.problem {
            reader::Problem::NotANumber
            | reader::Problem::CountNotANumber
            | reader::Problem::Negative => crate::said!(web::not_whole_number_of_shares_write, s)
                .es()
                .to_string(),
            _ => e.said().es().to_string(),
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::money::dec;

        #[test]
        fn es_co_amounts_and_dates() {
            assert_eq!(amount("1.450,50"), Ok(dec("1450.50")));
            assert_eq!(amount("$ 1.087.500"), Ok(dec("1087500")));
            assert_eq!(amount("1450"), Ok(dec("1450")));
            // a point followed by two digits is a decimal point, as on the command line
            assert_eq!(amount("1450.50"), Ok(dec("1450.50")));
            assert_eq!(amount("1.450"), Ok(dec("1450")));
            assert!(amount("1,2,3").is_err());
            assert!(amount("1,450").unwrap_err().contains("dos maneras"));
            assert_eq!(
                date("5/12/2024"),
                Ok(NaiveDate::from_ymd_opt(2024, 12, 5).unwrap())
            );
            // the range the command line enforces
            assert!(
                date("01/01/1900")
                    .unwrap_err()
                    .contains("fuera de las fechas")
            );
            assert!(amount("").is_err());
            assert_eq!(
                date("20/11/2024"),
                Ok(NaiveDate::from_ymd_opt(2024, 11, 20).unwrap())
            );
            assert_eq!(
                date("2024-11-20"),
                Ok(NaiveDate::from_ymd_opt(2024, 11, 20).unwrap())
            );
            assert!(date("31/02/2024").is_err());
            assert_eq!(count("1.000"), Ok(1000));
            assert!(count("-3").is_err());
        }

        #[test]
        fn an_empty_or_negative_input_says_what_to_write() {
            assert_eq!(
                date(" "),
                Err("falta: indique la fecha (dd/mm/aaaa)".to_string())
            );
            assert_eq!(
                amount(""),
                Err("falta: indique el valor, p. ej. 1.450,50".to_string())
            );
            assert_eq!(
                amount("-100"),
                Err("«-100» es negativo: el valor debe ser positivo, p. ej. 1.450,50".to_string())
            );
            assert_eq!(
                amount("$ -1.450,50"),
                Err(
                    "«-1.450,50» es negativo: el valor debe ser positivo, p. ej. 1.450,50"
                        .to_string()
                )
            );
            assert_eq!(
                amount("mil"),
                Err("«mil» no es un número: escríbalo como 1.450,50".to_string())
            );
            assert_eq!(
                count(""),
                Err("falta: indique el número de acciones".to_string())
            );
            // a percentage's example is a percentage
            assert_eq!(percent("27,90"), Ok(dec("27.90")));
            assert_eq!(percent("27,90 %"), Ok(dec("27.90")));
            assert_eq!(percent("27.90"), Ok(dec("27.90")));
            assert_eq!(
                percent("-2"),
                Err("«-2» es negativo: el porcentaje debe ser positivo, p. ej. 27,90".to_string())
            );
            assert_eq!(
                percent(""),
                Err("falta: indique el porcentaje, p. ej. 27,90".to_string())
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{back_to, back_to_list};

    #[test]
    fn an_error_page_links_back_to_the_page_it_came_from() {
        // a form sent from a page that has it, or from the record it is under
        assert_eq!(back_to(true, "/tasas").as_deref(), Some("/tasas"));
        assert_eq!(
            back_to(true, "/incumplimientos/7/aviso").as_deref(),
            Some("/incumplimientos/7")
        );
        assert_eq!(
            back_to(true, "/incumplimientos/7/pagos/3/anular").as_deref(),
            Some("/incumplimientos/7")
        );
        assert_eq!(
            back_to(true, "/adjudicaciones/2/incumplimiento").as_deref(),
            Some("/adjudicaciones/2/incumplimiento")
        );
        // a page that failed: the page above it, never itself
        assert_eq!(
            back_to(false, "/titulares/abc").as_deref(),
            Some("/titulares")
        );
        assert_eq!(
            back_to(false, "/titulares/12").as_deref(),
            Some("/titulares")
        );
        assert_eq!(
            back_to(false, "/avisos/9/documento/xls").as_deref(),
            Some("/avisos/9")
        );
        // the program's pages: a form sent from the offer or a stage goes back to it
        assert_eq!(
            back_to(true, "/programas/D3939-2004/oferta/adjudicar").as_deref(),
            Some("/programas/D3939-2004/oferta")
        );
        assert_eq!(
            back_to(true, "/programas/D3939-2004/etapas/2/concluir").as_deref(),
            Some("/programas/D3939-2004/etapas/2")
        );
        assert_eq!(
            back_to(true, "/programas/D3939-2004/etapas/2/propuestas/confirmar").as_deref(),
            Some("/programas/D3939-2004/etapas/2/propuestas")
        );
        assert_eq!(
            back_to(false, "/programas/D3939-2004/etapas/2/acta.pdf").as_deref(),
            Some("/programas/D3939-2004/etapas/2")
        );
        // what a record not found falls back to: the nearest list above the page
        assert_eq!(
            back_to_list("/programas/NO-EXISTE/oferta").as_deref(),
            Some("/programas")
        );
        assert_eq!(
            back_to_list("/titulares/999").as_deref(),
            Some("/titulares")
        );
        assert_eq!(back_to_list("/incumplimientos/999"), None);
        assert_eq!(back_to_list("/tasas").as_deref(), Some("/tasas"));
        // nothing above it but the dashboard
        assert_eq!(back_to(false, "/adjudicaciones/abc/incumplimiento"), None);
        assert_eq!(back_to(false, "/no-existe"), None);
        assert_eq!(back_to(true, "/adjudicaciones/1/prendas"), None);
        assert_eq!(back_to(false, "/"), None);
    }
}
