//! One handler per route. Every route but the login page and the style sheet needs a session
//! (the [`User`] extractor sends anyone else to `/ingresar`); every form is checked for its CSRF
//! token, then for the role, before anything is read or written. Writes call the register's
//! functions inside `Store::write` under the signed-in user's name.

use super::auth::{self, LOGIN_COOKIE, PendingImport, SESSION_COOKIE, User};
use super::extract::{Form, Path, Query};
use super::views::{self, csrf, fecha, input, numero, page, pesos};
use super::{App, WebError, input as parse};
use crate::check;
use crate::fine::{self, Outcome};
use crate::register::user::Role;
use crate::register::{self, Field, Refusal};
use crate::store::breaches::NewBreach;
use crate::store::{self, Store, StoreError, adjudications, breaches, pledges, programs};
use axum::Router;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use rust_decimal::Decimal;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

pub(super) type Fields = Vec<(String, String)>;
pub(super) type Page = Result<Response, WebError>;

/// The largest upload (an import file of a national offering is about 100 MB).
const MAX_UPLOAD: usize = 256 << 20;

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(dashboard))
        .route("/estilo.css", get(css))
        .route("/ingresar", get(login_page).post(login))
        .route("/salir", post(logout))
        .route("/titulares", get(search))
        .route("/titulares/{id}", get(holder))
        .route(
            "/adjudicaciones/{id}/incumplimiento",
            get(breach_form).post(breach_submit),
        )
        .route("/adjudicaciones/{id}/prendas", post(pledge_register))
        .route("/adjudicaciones/{id}/liberar", post(pledge_release))
        .route("/incumplimientos/{id}", get(breach_page))
        .route("/incumplimientos/{id}/pagos", post(payment))
        .route("/incumplimientos/{id}/anular", post(void_breach))
        .route(
            "/incumplimientos/{id}/pagos/{payment}/anular",
            post(void_payment),
        )
        .route("/incumplimientos/{id}/liquidar", post(liquidate))
        .route("/incumplimientos/{id}/aviso", post(issue_notice))
        .route("/liquidaciones/{id}", get(liquidation_page))
        .route("/importar", get(import_page).post(import_upload))
        .route("/importar/confirmar", post(import_confirm))
        .route("/auditoria", get(audit_page))
        .route("/auditoria/verificar", get(audit_verify))
        .route("/tasas", get(rates_page).post(rates_add))
        .merge(super::admin::routes())
        .merge(super::letters::routes())
        .merge(super::letterhead::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_UPLOAD))
        .layer(axum::middleware::from_fn(super::frame_errors))
        .layer(axum::middleware::map_response(
            |mut r: Response| async move {
                super::secure_headers(&mut r);
                r
            },
        ))
        .with_state(app)
}

pub(super) fn ok(m: Markup) -> Page {
    Ok(Html(m.into_string()).into_response())
}

pub(super) fn see_other(to: String) -> Page {
    Ok(Redirect::to(&to).into_response())
}

pub(super) fn field<'a>(f: &'a Fields, name: &str) -> &'a str {
    f.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

pub(super) fn opt(f: &Fields, name: &str) -> Option<String> {
    Some(field(f, name).trim().to_string()).filter(|s| !s.is_empty())
}

pub(super) fn csrf_of(f: &Fields) -> Option<&str> {
    f.iter().find(|(k, _)| k == "csrf").map(|(_, v)| v.as_str())
}

pub(super) fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// A date from a query string or form (`dd/mm/aaaa` or ISO), `default` when empty.
fn date_or(f: &Fields, name: &str, default: NaiveDate) -> Result<NaiveDate, String> {
    match opt(f, name) {
        Some(s) => parse::date(&s),
        None => Ok(default),
    }
}

/// The outcome of a write tried in a transaction that is always rolled back (a preview): what the
/// rules said, and nothing written.
enum Dry<T> {
    Refused(register::Error),
    Accepted(T),
}

impl<T> From<StoreError> for Dry<T> {
    fn from(e: StoreError) -> Self {
        Dry::Refused(register::Error::Store(e))
    }
}

pub(super) fn dry_run<T>(
    store: &mut Store,
    officer: &str,
    f: impl FnOnce(&mut store::Tx<'_>) -> register::Result<T>,
) -> Result<T, register::Error> {
    match store.write::<(), Dry<T>>(officer, |tx| match f(tx) {
        Ok(t) => Err(Dry::Accepted(t)),
        Err(e) => Err(Dry::Refused(e)),
    }) {
        Err(Dry::Accepted(t)) => Ok(t),
        Err(Dry::Refused(e)) => Err(e),
        Ok(()) => unreachable!("the closure never succeeds"),
    }
}

/// What was wrong with a form that was sent: messages by input name, and general ones. A
/// message is shown next to its input when the page shows that input, else in the general list
/// ([`Errors::placed`]): a refusal whose field has no input on the page (the breach of a
/// payment, the adjudication of a breach, a confirmation not offered yet) is never dropped.
#[derive(Default)]
pub(super) struct Errors {
    /// By input name, in the order they were given.
    by_field: Vec<(String, String)>,
    pub(super) general: Vec<String>,
    /// The inputs that showed their message in the rendering under way.
    shown: RefCell<HashSet<String>>,
    /// What no input showed in the first rendering: the general list shows it in the second.
    unplaced: RefCell<Vec<String>>,
    /// Whether the rendering under way showed the general list.
    listed: Cell<bool>,
}

impl Errors {
    pub(super) fn put(&mut self, name: &str, message: String) {
        match self.by_field.iter_mut().find(|(k, _)| k == name) {
            Some((_, m)) => *m = message,
            None => self.by_field.push((name.to_string(), message)),
        }
    }
    /// The message for the input `name`, which the page shows next to it.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        let m = self.by_field.iter().find(|(k, _)| k == name)?;
        self.shown.borrow_mut().insert(name.to_string());
        Some(m.1.as_str())
    }
    pub(super) fn is_empty(&self) -> bool {
        self.by_field.is_empty() && self.general.is_empty()
    }
    /// A register error: refusals by the input they name, anything else in the general list;
    /// a failure to read goes up.
    pub(super) fn register(&mut self, e: register::Error) -> Result<(), WebError> {
        match e {
            register::Error::Refused(r) => self.refusal(&r),
            register::Error::Refusals(rs) => rs.iter().for_each(|r| self.refusal(r)),
            register::Error::Fine(f) => self.general.push(views::fine_error_text(&f)),
            register::Error::Store(StoreError::Rejected(ps)) => self
                .general
                .extend(ps.iter().map(|p| p.in_lang(crate::lang::Lang::Es))),
            register::Error::Store(s) => return Err(s.into()),
        }
        Ok(())
    }
    fn refusal(&mut self, r: &Refusal) {
        let text = views::refusal_text(r);
        match views::refusal_field(r) {
            Some(f) => self.put(f.as_str(), text),
            None => self.general.push(text),
        }
    }
    /// The general list, where the page puts it (above the form): the general messages and, in
    /// the second rendering of [`Errors::placed`], those no input showed.
    pub(super) fn general(&self) -> Markup {
        self.listed.set(true);
        self.list()
    }
    fn list(&self) -> Markup {
        let unplaced = self.unplaced.borrow();
        html! {
            @for g in self.general.iter().chain(unplaced.iter()) {
                p.error role="alert" { (views::sentence(g)) }
            }
        }
    }
    /// Renders a page that shows these errors: once to learn which inputs show their message,
    /// again when some did not, so that the general list holds them; a page that shows no
    /// general list gets it above everything.
    pub(super) fn placed(&self, render: impl Fn() -> Markup) -> Markup {
        self.shown.borrow_mut().clear();
        self.unplaced.borrow_mut().clear();
        self.listed.set(false);
        let mut m = render();
        let left: Vec<String> = {
            let shown = self.shown.borrow();
            self.by_field
                .iter()
                .filter(|(k, _)| !shown.contains(k))
                .map(|(_, m)| m.clone())
                .collect()
        };
        if !left.is_empty() {
            *self.unplaced.borrow_mut() = left;
            self.listed.set(false);
            m = render();
        }
        if self.listed.get() {
            m
        } else {
            html! { (self.list()) (m) }
        }
    }
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        views::CSS,
    )
        .into_response()
}

async fn not_found(user: User) -> WebError {
    let _ = user;
    WebError::not_found("la página pedida")
}

// ---------------------------------------------------------------------------- login, logout

/// The login page; `?motivo=...` says why a session just ended (`auth::Ended`).
async fn login_page(State(app): State<Arc<App>>, headers: HeaderMap, q: Query<Fields>) -> Response {
    let ended = auth::Ended::from_code(field(&q.0, "motivo"));
    login_form(&app, &headers, None, ended.map(auth::Ended::message))
}

/// The login form, with its token: the one already in the browser's login cookie (a second tab,
/// or a request the browser makes on its own, must not invalidate the form on screen), else new.
/// `error` says why a sign-in failed, `notice` why a session ended.
fn login_form(
    app: &App,
    headers: &HeaderMap,
    error: Option<&str>,
    notice: Option<&str>,
) -> Response {
    let t = auth::cookie(headers, LOGIN_COOKIE)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(auth::token);
    let body = html! {
        form method="post" action="/ingresar" {
            input type="hidden" name="csrf" value=(t);
            @if let Some(n) = notice { p.aviso role="status" { (n) } }
            @if let Some(e) = error { p.error role="alert" { (e) } }
            div.campo { label for="usuario" { "Usuario" } input id="usuario" name="usuario" type="text" autocomplete="username"; }
            div.campo { label for="clave" { "Contraseña" } input id="clave" name="clave" type="password" autocomplete="current-password"; }
            div.acciones { button type="submit" { "Ingresar" } }
        }
    };
    let status = if error.is_some() {
        StatusCode::UNAUTHORIZED
    } else {
        StatusCode::OK
    };
    let mut r = (status, Html(page(None, "Ingresar", body).into_string())).into_response();
    if let Ok(v) = HeaderValue::from_str(&auth::set_cookie(
        LOGIN_COOKIE,
        &t,
        app.config.secure_cookies,
        None,
    )) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r
}

async fn login(State(app): State<Arc<App>>, headers: HeaderMap, form: Form<Fields>) -> Page {
    let f = form.0;
    // the login form's own token (no session yet): the cookie set with the form must come back
    let expected = auth::cookie(&headers, LOGIN_COOKIE);
    match (expected.as_deref(), csrf_of(&f)) {
        (Some(a), Some(b)) if !a.is_empty() && a == b => {}
        _ => return Err(WebError::csrf()),
    }
    let name = field(&f, "usuario").trim().to_string();
    let password = field(&f, "clave").to_string();
    match auth::sign_in(&app, &name, password).await? {
        auth::Outcome::SignedIn(token) => {
            let mut r = Redirect::to("/").into_response();
            let h = r.headers_mut();
            for c in [
                auth::set_cookie(SESSION_COOKIE, &token, app.config.secure_cookies, None),
                auth::set_cookie(LOGIN_COOKIE, "", app.config.secure_cookies, Some(0)),
            ] {
                if let Ok(v) = HeaderValue::from_str(&c) {
                    h.append(header::SET_COOKIE, v);
                }
            }
            Ok(r)
        }
        auth::Outcome::Locked(_) => Ok(login_form(
            &app,
            &headers,
            Some(
                "La cuenta está bloqueada durante 15 minutos tras cinco intentos fallidos. Espere, \
                 o pida a un administrador que le asigne una contraseña nueva: eso la desbloquea.",
            ),
            None,
        )),
        auth::Outcome::Refused => Ok(login_form(
            &app,
            &headers,
            Some("Usuario o contraseña incorrectos (o la cuenta está deshabilitada)."),
            None,
        )),
    }
}

async fn logout(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    user.check_csrf(csrf_of(&form.0))?;
    app.sessions.close(user.token());
    let mut r = Redirect::to("/ingresar").into_response();
    if let Ok(v) = HeaderValue::from_str(&auth::set_cookie(
        SESSION_COOKIE,
        "",
        app.config.secure_cookies,
        Some(0),
    )) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(r)
}

// ---------------------------------------------------------------------------- dashboard

/// The batch check over the whole register as of a date, as the dashboard shows it.
pub(crate) struct CheckSummary {
    /// Findings by (severity rank, code, program).
    counts: BTreeMap<(u8, String, String), u64>,
    /// The first [`SHOWN_FINDINGS`] by severity, program and holder ([`FindingKey`]).
    shown: Vec<check::Finding>,
    total: u64,
    /// Why the check stopped, if it did.
    error: Option<String>,
    coverage: Option<(NaiveDate, NaiveDate)>,
    /// When it was computed (UTC, RFC 3339).
    computed_at: String,
}

/// Findings listed on the dashboard (all are counted).
const SHOWN_FINDINGS: usize = 200;

/// The dashboard's order of findings: severity (alta first), program, holder (by name, then
/// document number), adjudication, breach, then the order the check found them in.
type FindingKey = (u8, String, String, String, i64, i64, u64);

/// Keeps the first [`SHOWN_FINDINGS`] of `kept` in [`FindingKey`] order.
fn keep_first(kept: &mut Vec<(FindingKey, check::Finding)>) {
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    kept.truncate(SHOWN_FINDINGS);
}

/// Runs the batch check as of `as_of` (every program).
fn run_check(app: &App, s: &mut Store, as_of: NaiveDate) -> Result<CheckSummary, WebError> {
    let rates = app.rates(s)?;
    let coverage = rates.coverage();
    let mut counts: BTreeMap<(u8, String, String), u64> = BTreeMap::new();
    let mut kept: Vec<(FindingKey, check::Finding)> = Vec::new();
    let mut total = 0u64;
    let opts = check::Options {
        as_of,
        program_id: None,
        within_days: 30,
        min_severity: check::Severity::Low,
    };
    let run = check::run::<check::Error>(
        s.conn(),
        &opts,
        &rates,
        |f| {
            total += 1;
            let rank = match f.severity() {
                check::Severity::High => 0,
                check::Severity::Medium => 1,
                check::Severity::Low => 2,
            };
            *counts
                .entry((
                    rank,
                    f.code.as_str().to_string(),
                    // a finding about the register as a whole (RATE_DUE) has no program
                    f.holding
                        .as_ref()
                        .map(|h| h.program.clone())
                        .unwrap_or_default(),
                ))
                .or_default() += 1;
            let key = match &f.holding {
                Some(h) => (
                    rank,
                    h.program.clone(),
                    h.holder.clone(),
                    h.doc_number.clone(),
                    h.adjudication_id,
                    f.breach_id.unwrap_or(0),
                    total,
                ),
                None => (
                    rank,
                    String::new(),
                    String::new(),
                    String::new(),
                    0,
                    0,
                    total,
                ),
            };
            kept.push((key, f));
            // sorted and cut back now and then: never more than twice the list in memory
            if kept.len() == 2 * SHOWN_FINDINGS {
                keep_first(&mut kept);
            }
            Ok(())
        },
        |_| {},
    );
    let error = match run {
        Ok(()) => None,
        // the register's own answer, kept with the result until it changes
        Err(e @ check::Error::Fine { .. }) => Some(format!(
            "El chequeo no pudo terminar: {}",
            e.es(views::fine_error_text)
        )),
        // a failure to read is no result: not kept, the next visit tries again
        Err(check::Error::Store(e)) => return Err(e.into()),
    };
    keep_first(&mut kept);
    Ok(CheckSummary {
        counts,
        shown: kept.into_iter().map(|(_, f)| f).collect(),
        total,
        error,
        coverage,
        computed_at: app.now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    })
}

/// The check as of `as_of`: kept from an earlier visit while the register and the rates are
/// those it was computed from (`App::check_version`), else computed once for everyone asking.
async fn check_summary(app: &Arc<App>, as_of: NaiveDate) -> Result<Arc<CheckSummary>, WebError> {
    let compute = Arc::clone(app);
    app.checks
        .get(
            (as_of, None),
            || app.check_version(),
            move || async move {
                let a = Arc::clone(&compute);
                compute.db(move |s| run_check(&a, s, as_of)).await
            },
        )
        .await
}

/// The response header that says how many times this server has run the dashboard's check (a
/// test sees through it that a visit was served from the cache).
pub(crate) const CHECK_RUNS_HEADER: &str = "x-vigia-check-runs";

/// A finding code's Spanish name (the summary keeps the code as text).
fn code_es(code: &str) -> &'static str {
    check::Code::ALL
        .into_iter()
        .find(|c| c.as_str() == code)
        .map_or("", |c| {
            crate::catalogue::of(crate::lang::Lang::Es).code_name(c)
        })
}

async fn dashboard(State(app): State<Arc<App>>, user: User, q: Query<Fields>) -> Page {
    let as_of = date_or(&q.0, "fecha", today()).map_err(WebError::bad_request)?;
    let summary = check_summary(&app, as_of).await?;
    let CheckSummary {
        counts,
        shown,
        total,
        error,
        coverage,
        computed_at,
    } = &*summary;
    let coverage = *coverage;
    let sev_es = ["alta", "media", "baja"];
    let rate_warning = coverage.and_then(|(_, last)| rates_due(last, today()));
    let body = html! {
        form method="get" action="/" {
            div.campo { label for="fecha" { "Chequeo al" } input id="fecha" name="fecha" type="text" value=(fecha(as_of)); }
            button type="submit" { "Actualizar" }
        }
        form method="get" action="/titulares" {
            div.campo { label for="q" { "Buscar titular (documento, con o sin puntos, o nombre)" } input id="q" name="q" type="text"; }
            button type="submit" { "Buscar" }
        }
        h2 { "Tasas certificadas" }
        @match coverage {
            Some((_, last)) => {
                p { "Última tasa certificada hasta el " strong { (fecha(last)) } "." }
                @if let Some(w) = rate_warning {
                    p.aviso role="alert" { (w) }
                }
            }
            None => p.aviso { "No hay tasas certificadas." }
        }
        h2 { "Hallazgos al " (fecha(as_of)) ": " (numero(*total)) }
        p.nota { "Chequeo calculado el " (views::momento(computed_at)) "; se calcula de nuevo en cuanto cambia el registro." }
        @if let Some(e) = error { p.error role="alert" { (e) } }
        table.resumen {
            thead { tr { th { "severidad" } th { "código" } th { "programa" } th.num { "hallazgos" } } }
            tbody {
                @for ((rank, code, program), n) in counts {
                    tr { td class={"sev-" (["high","medium","low"][*rank as usize])} { (sev_es[*rank as usize]) } td { (code_es(code)) br; small { code { (code) } } } td { (program) } td.num { (n) } }
                }
            }
        }
        @if !shown.is_empty() {
            table.hallazgos {
                caption {
                    @if shown.len() == 1 { "Primer hallazgo" }
                    @else { "Primeros " (numero(shown.len() as u64)) " hallazgos" }
                    ", por severidad, programa y titular"
                }
                thead { tr { th { "código" } th { "titular" } th { "adjudicación" } th { "incumplimiento" } th.num { "saldo" } th { "motivo" } } }
                tbody {
                    @for f in shown {
                        tr {
                            td class={"sev-" (f.severity().as_str())} { (crate::catalogue::of(crate::lang::Lang::Es).code_name(f.code)) br; small { code { (f.code.as_str()) } } }
                            @if let Some(h) = &f.holding {
                                td { a href={"/titulares?q=" (h.doc_number)} { (h.holder) } " (" (h.doc_type) " " (h.doc_number) ")" }
                                td { (h.adjudication_id) }
                            } @else {
                                td { "todo el registro" }
                                td {}
                            }
                            td { @if let Some(b) = f.breach_id { a href={"/incumplimientos/" (b)} { (b) } } }
                            td.num { @if let Some(o) = f.outstanding { (pesos(o)) } }
                            td { (crate::catalogue::of(crate::lang::Lang::Es).finding(f, &crate::catalogue::InWords)) }
                        }
                    }
                }
            }
        }
    };
    let mut r = ok(page(Some(&user), "Tablero", body))?;
    r.headers_mut()
        .insert(CHECK_RUNS_HEADER, HeaderValue::from(app.checks.computed()));
    Ok(r)
}

use chrono::Datelike;

/// What the dashboard says about the rates the series lacks on `today`, the series ending on
/// `last`: the months from the one after its end through today's, which the register needs now
/// ("Faltan las tasas de noviembre y diciembre de 2026"), or, when those are there, next month's
/// (certified near the end of this one); `None` when next month's is there too.
fn rates_due(last: NaiveDate, today: NaiveDate) -> Option<String> {
    let month_of = |d: NaiveDate| d.with_day(1);
    let this_month = month_of(today)?;
    let next_month = crate::calendar::add_months(this_month, 1)?;
    let first_missing = month_of(last.succ_opt()?)?;
    let ends = fecha(last);
    if first_missing <= this_month {
        let months = views::meses(first_missing, this_month);
        Some(if first_missing == this_month {
            format!(
                "Falta la tasa {months} (la serie termina el {ends}): agréguela en «Tasas»; sin ella \
                 no se liquidan los días que cubre."
            )
        } else {
            format!(
                "Faltan las tasas {months} (la serie termina el {ends}): agréguelas en «Tasas»; sin \
                 ellas no se liquidan los días que cubren."
            )
        })
    } else if first_missing == next_month {
        Some(format!(
            "Falta la tasa del mes siguiente, {} (la serie termina el {ends}): agréguela en «Tasas» \
             cuando la Superintendencia Financiera la certifique.",
            views::meses(next_month, next_month).trim_start_matches("de ")
        ))
    } else {
        None
    }
}

// ---------------------------------------------------------------------------- holders

/// At most this many holders per search.
const SEARCH_LIMIT: usize = 50;

async fn search(State(app): State<Arc<App>>, user: User, q: Query<Fields>) -> Page {
    let query = field(&q.0, "q").to_string();
    let qq = query.clone();
    let found = app
        .db(move |s| Ok(store::holders::search(s.conn(), &qq, SEARCH_LIMIT)?))
        .await?;
    let body = html! {
        form method="get" action="/titulares" {
            div.campo { label for="q" { "Documento (con o sin puntos) o comienzo del nombre" } input id="q" name="q" type="text" value=(query); }
            button type="submit" { "Buscar" }
        }
        @if !query.trim().is_empty() {
            @if found.is_empty() { p { "Ningún titular coincide con «" (query) "»." } }
            @else {
                table.titulares {
                    thead { tr { th { "documento" } th { "nombre" } th { "persona" } } }
                    tbody {
                        @for h in &found {
                            tr {
                                td { (h.doc_type.to_string()) " " (h.doc_number) }
                                td { a href={"/titulares/" (h.id)} { (h.name) } }
                                td { (format!("{:?}", h.person_type).to_lowercase()) }
                            }
                        }
                    }
                }
                @if found.len() == SEARCH_LIMIT { p { "Se muestran los primeros " (SEARCH_LIMIT) "; precise la búsqueda." } }
            }
        }
    };
    ok(page(Some(&user), "Titulares", body))
}

pub(super) struct HolderView {
    pub(super) holder: adjudications::Holder,
    pub(super) adjudications: Vec<(adjudications::Adjudication, Vec<pledges::Pledge>, u64)>,
    timeline: Vec<(NaiveDate, String, Option<String>)>,
}

fn holder_view(conn: &rusqlite::Connection, id: i64) -> Result<HolderView, WebError> {
    let holder = store::holders::get(conn, id)?
        .ok_or_else(|| WebError::not_found(&format!("el titular {id}")))?;
    // by the holder's id through its index: a filter on the document would scan a million rows
    let adjs = store::holders::adjudication_ids(conn, id)?
        .into_iter()
        .map(|a| adjudications::get(conn, a))
        .collect::<Result<Vec<_>, StoreError>>()?;
    let mut timeline: Vec<(NaiveDate, String, Option<String>)> = Vec::new();
    let mut out = Vec::new();
    for a in adjs {
        timeline.push((
            a.adjudicated_on,
            format!(
                "Adjudicación {}: {} acciones a {} (programa {})",
                a.id,
                numero(a.shares),
                pesos(a.price_per_share),
                a.program_code
            ),
            None,
        ));
        let ps = pledges::list(conn, a.id)?;
        for p in &ps {
            timeline.push((
                p.registered_on,
                format!(
                    "Prenda {} de grado {} sobre {} acciones de la adjudicación {}",
                    p.id,
                    p.rank,
                    numero(p.shares),
                    a.id
                ),
                None,
            ));
            if let Some(r) = p.released_on {
                timeline.push((r, format!("Prenda {} liberada", p.id), None));
            }
        }
        for b in breaches::list(conn, Some(a.id), None)? {
            let link = Some(format!("/incumplimientos/{}", b.id));
            timeline.push((
                b.breach_date,
                format!(
                    "Incumplimiento {} ({}): {} acciones{}",
                    b.id,
                    b.kind.label_es(),
                    numero(b.shares),
                    if b.void.is_some() { " (ANULADO)" } else { "" }
                ),
                link.clone(),
            ));
            for p in breaches::payments(conn, b.id)? {
                timeline.push((
                    p.paid_on,
                    format!(
                        "Pago {} de {} (incumplimiento {})",
                        p.id,
                        pesos(p.amount),
                        b.id
                    ),
                    link.clone(),
                ));
            }
            for l in breaches::liquidations(conn, Some(b.id))? {
                timeline.push((
                    l.until,
                    format!(
                        "Liquidación {} al {}: total {}",
                        l.id,
                        fecha(l.until),
                        pesos(l.total_due)
                    ),
                    Some(format!("/liquidaciones/{}", l.id)),
                ));
            }
            super::letters::timeline(conn, b.id, &mut timeline)?;
        }
        let free = register::breach::unbreached_shares(conn, &a)?;
        out.push((a, ps, free));
    }
    timeline.sort_by_key(|t| t.0);
    Ok(HolderView {
        holder,
        adjudications: out,
        timeline,
    })
}

async fn holder(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let v = app.db(move |s| holder_view(s.conn(), id)).await?;
    let body = holder_markup(&user, &v, &Errors::default(), &Vec::new());
    ok(page(Some(&user), &v.holder.name, body))
}

/// A holder's page; `errors` and `typed` belong to the pledge form that was sent (its
/// `adjudication` input says which; a correction's form also says `correccion`, and shows its
/// own refusals).
fn holder_markup(user: &User, v: &HolderView, errors: &Errors, typed: &Fields) -> Markup {
    let h = &v.holder;
    let sent_for = field(typed, "adjudication")
        .parse::<i64>()
        .ok()
        .filter(|_| field(typed, "correccion").is_empty());
    html! {
        p.titular { (h.doc_type.to_string()) " " (h.doc_number) }
        h2 { "Adjudicaciones" }
        table.adjudicaciones {
            thead { tr { th { "N.º" } th { "programa" } th { "fecha" } th.num { "acciones" } th.num { "precio" } th.num { "acciones sin incumplimiento" } th { "prendas" } th {} } }
            tbody {
                @for (a, ps, free) in &v.adjudications {
                    tr {
                        td { (a.id) @if a.void.is_some() { " (ANULADA)" } } td { (a.program_code) } td { (fecha(a.adjudicated_on)) }
                        td.num { (numero(a.shares)) } td.num { (pesos(a.price_per_share)) } td.num { (numero(*free)) }
                        td { @for p in ps { "grado " (p.rank) @if p.void.is_some() { " (anulada)" } @else if p.released_on.is_some() { " (liberada)" } " " } }
                        td { @if user.may(Role::Oficial) && a.void.is_none() { a href={"/adjudicaciones/" (a.id) "/incumplimiento"} { "Registrar incumplimiento" } } }
                    }
                }
            }
        }
        @if user.may(Role::Oficial) {
            h2 { "Prendas" }
            (errors.general())
            @for (a, ps, _) in &v.adjudications {
                @let mine = sent_for == Some(a.id);
                // a refusal about the adjudication itself (voided meanwhile, say): under its
                // heading, even when it no longer takes the forms
                @let about_it = if mine { errors.get(Field::Adjudication.as_str()) } else { None };
                @if a.void.is_none() || about_it.is_some() {
                    h3 { "Adjudicación " (a.id) }
                }
                @if let Some(e) = about_it {
                    p.error id={"adjudicacion-" (a.id) "-error"} role="alert" { (views::sentence(e)) }
                }
                // shares no pledge in force covers: the register refuses a pledge beyond them
                @let uncovered = register::pledge_shares::uncovered(a.shares, ps);
                @if a.void.is_none() {
                    @let typed_here = |k: &str| if mine { field(typed, k).to_string() } else { String::new() };
                    @let error_here = |k: Field| if mine { errors.get(k.as_str()) } else { None };
                    @if uncovered == 0 && !mine {
                        p.cubiertas { "Las prendas vigentes cubren todas sus acciones (" (numero(a.shares)) ")." }
                    } @else {
                    form method="post" action={"/adjudicaciones/" (a.id) "/prendas"} {
                        (csrf(user))
                        input type="hidden" name="adjudication" value=(a.id);
                        (input(Field::PledgeRank.as_str(), views::field_label(Field::PledgeRank), &typed_here(Field::PledgeRank.as_str()), error_here(Field::PledgeRank), Some("1 o 2")))
                        (input(Field::RegisteredOn.as_str(), views::field_label(Field::RegisteredOn), &typed_here(Field::RegisteredOn.as_str()), error_here(Field::RegisteredOn), Some("dd/mm/aaaa")))
                        (input(Field::Lender.as_str(), views::field_label(Field::Lender), &typed_here(Field::Lender.as_str()), error_here(Field::Lender), Some("solo si la adjudicación fue financiada")))
                        (input(Field::Shares.as_str(), views::field_label(Field::Shares), &typed_here(Field::Shares.as_str()), error_here(Field::Shares), Some("vacío: todas las aún no pignoradas; las financiadas en grado 2 y el resto en grado 1 (art. 10)")))
                        div.acciones { button type="submit" { "Registrar prenda" } }
                    }
                    }
                    @let in_force: Vec<&pledges::Pledge> = ps.iter().filter(|p| p.released_on.is_none() && p.void.is_none()).collect();
                    @if !in_force.is_empty() {
                        form method="post" action={"/adjudicaciones/" (a.id) "/liberar"} {
                            (csrf(user))
                            input type="hidden" name="adjudication" value=(a.id);
                            @if in_force.len() > 1 {
                                (super::split_pledges::which_to_release(&in_force, &typed_here(Field::Pledge.as_str())))
                            }
                            (input(Field::ReleaseDate.as_str(), views::field_label(Field::ReleaseDate), &typed_here(Field::ReleaseDate.as_str()), error_here(Field::ReleaseDate), Some("dd/mm/aaaa; solo terminado el período de restricción y sin multa pendiente")))
                            div.acciones { button type="submit" { "Liberar prendas" } }
                        }
                    }
                }
            }
        }
        @if user.may(Role::Oficial) { (super::admin::holder_corrections(user, v, errors, typed)) }
        h2 { "Historia" }
        table.historia {
            thead { tr { th { "fecha" } th { "hecho" } } }
            tbody {
                @for (d, what, link) in &v.timeline {
                    tr { td { (fecha(*d)) } td { @match link { Some(l) => a href=(l) { (what) }, None => (what) } } }
                }
            }
        }
    }
}

/// Runs a write from a holder's page (a pledge, or a correction of `admin`); a refusal shows the
/// page again with the message next to the input it names, in the form that was sent.
pub(super) async fn pledge_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    adjudication: i64,
    typed: Fields,
    parsed: Result<
        impl FnOnce(&App, &mut store::Tx<'_>) -> register::Result<T> + Send + 'static,
        Errors,
    >,
) -> Page {
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let result = app
        .db(move |s| {
            let holder = adjudications::get(s.conn(), adjudication)?.holder.id;
            let mut errors = match parsed {
                Ok(write) => match s.write::<_, register::Error>(&officer, |tx| write(&app2, tx)) {
                    Ok(_) => return Ok(Ok(holder)),
                    Err(e) => {
                        let mut errors = Errors::default();
                        errors.register(e)?;
                        errors
                    }
                },
                Err(errors) => errors,
            };
            if errors.is_empty() {
                errors.general.push("La operación fue rechazada.".into());
            }
            let v = holder_view(s.conn(), holder)?;
            Ok(Err((v, errors)))
        })
        .await?;
    match result {
        Ok(holder) => see_other(format!("/titulares/{holder}")),
        Err((v, errors)) => {
            let mut typed = typed;
            typed.retain(|(k, _)| k != "adjudication");
            typed.push(("adjudication".into(), adjudication.to_string()));
            let body = errors.placed(|| holder_markup(&user, &v, &errors, &typed));
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                Html(page(Some(&user), &v.holder.name, body).into_string()),
            )
                .into_response())
        }
    }
}

async fn pledge_register(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let mut errors = Errors::default();
    let rank = match field(&f, Field::PledgeRank.as_str()).trim() {
        "1" => Some(1u8),
        "2" => Some(2u8),
        _ => {
            errors.put(
                Field::PledgeRank.as_str(),
                "Escriba el grado de la prenda: 1 o 2.".into(),
            );
            None
        }
    };
    let date = parse::date(field(&f, Field::RegisteredOn.as_str()))
        .map_err(|e| errors.put(Field::RegisteredOn.as_str(), e))
        .ok();
    let lender = opt(&f, Field::Lender.as_str());
    let shares = opt(&f, Field::Shares.as_str())
        .map(|s| parse::count(&s))
        .transpose()
        .map_err(|e| errors.put(Field::Shares.as_str(), e));
    let parsed = match (rank, date, shares) {
        (Some(rank), Some(on), Ok(shares)) => Ok(move |_: &App, tx: &mut store::Tx<'_>| {
            register::pledge::register(tx, id, rank, on, lender.as_deref(), shares, today())
        }),
        _ => Err(errors),
    };
    pledge_write(app, user, id, f, parsed).await
}

async fn pledge_release(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    // one of several pledges in force, when the form names it (`vigia pledge release --pledge`)
    let one = opt(&f, Field::Pledge.as_str()).and_then(|p| p.parse::<i64>().ok());
    let parsed = match parse::date(field(&f, Field::ReleaseDate.as_str())) {
        Ok(on) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            match one {
                // a pledge of this adjudication only (the page offers no other)
                Some(p) if pledges::get(tx.conn(), p)?.adjudication_id != id => {
                    Err(StoreError::NotFound {
                        what: "pledge",
                        id: p.to_string(),
                    }
                    .into())
                }
                Some(p) => {
                    register::pledge::release_pledge(tx, p, on, today(), &rates).map(|r| vec![r])
                }
                None => register::pledge::release(tx, id, on, today(), &rates),
            }
        }),
        Err(e) => {
            let mut errors = Errors::default();
            errors.put(Field::ReleaseDate.as_str(), e);
            Err(errors)
        }
    };
    pledge_write(app, user, id, f, parsed).await
}

// ---------------------------------------------------------------------------- breaches

/// What the breach form holds, as typed.
#[derive(Default)]
struct BreachInput {
    values: HashMap<String, String>,
}

const BREACH_INPUTS: [&str; 8] = [
    "breach_kind",
    "breach_date",
    "shares",
    "consideration_per_share",
    "consideration_total",
    "registered_on",
    "evidence",
    "until",
];

impl BreachInput {
    fn from(f: &Fields) -> BreachInput {
        BreachInput {
            values: BREACH_INPUTS
                .iter()
                .map(|k| (k.to_string(), field(f, k).to_string()))
                .collect(),
        }
    }
    fn get(&self, k: &str) -> &str {
        self.values.get(k).map(String::as_str).unwrap_or("")
    }
}

struct ParsedBreach {
    kind: crate::program::BreachKind,
    date: NaiveDate,
    shares: u64,
    per_share: Option<Decimal>,
    total: Option<Decimal>,
    registered_on: Option<NaiveDate>,
    evidence: Option<String>,
    until: NaiveDate,
}

fn parse_breach(i: &BreachInput, errors: &mut Errors) -> Option<ParsedBreach> {
    fn keep<T>(errors: &mut Errors, name: &str, r: Result<T, String>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                errors.put(name, e);
                None
            }
        }
    }
    let opt_of = |k: &str| Some(i.get(k).trim()).filter(|s| !s.is_empty());
    let kind = keep(
        errors,
        Field::BreachKind.as_str(),
        i.get("breach_kind")
            .parse::<crate::program::BreachKind>()
            .map_err(|_| "elija el tipo de incumplimiento".to_string()),
    );
    let date = keep(
        errors,
        Field::BreachDate.as_str(),
        parse::date(i.get("breach_date")),
    );
    let shares = keep(
        errors,
        Field::Shares.as_str(),
        parse::count(i.get("shares")),
    );
    let per_share = keep(
        errors,
        Field::ConsiderationPerShare.as_str(),
        opt_of("consideration_per_share")
            .map(parse::amount)
            .transpose(),
    );
    let total = keep(
        errors,
        Field::ConsiderationTotal.as_str(),
        opt_of("consideration_total").map(parse::amount).transpose(),
    );
    let registered_on = keep(
        errors,
        Field::RegisteredOn.as_str(),
        opt_of("registered_on").map(parse::date).transpose(),
    );
    let until = keep(
        errors,
        "until",
        opt_of("until").map(parse::date).unwrap_or(Ok(today())),
    );
    Some(ParsedBreach {
        kind: kind?,
        date: date?,
        shares: shares?,
        per_share: per_share?,
        total: total?,
        registered_on: registered_on?,
        evidence: opt_of("evidence").map(str::to_string),
        until: until?,
    })
}

fn breach_form_markup(
    user: &User,
    adj: &adjudications::Adjudication,
    kinds: &[crate::program::BreachKind],
    i: &BreachInput,
    errors: &Errors,
    preview: Option<Markup>,
) -> Markup {
    let e = |k: Field| errors.get(k.as_str());
    let until = if i.get("until").is_empty() {
        fecha(today())
    } else {
        i.get("until").to_string()
    };
    html! {
        p {
            "Adjudicación " (adj.id) " de " a href={"/titulares/" (adj.holder.id)} { (adj.holder.name) }
            " (" (adj.holder.doc_type.to_string()) " " (adj.holder.doc_number) "): " (numero(adj.shares))
            " acciones el " (fecha(adj.adjudicated_on)) ", programa " (adj.program_code) "."
        }
        (errors.general())
        @if let Some(vd) = &adj.void {
            p.aviso {
                "ANULADA " (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason)
                ". Una adjudicación anulada no admite incumplimientos."
            }
        } @else {
        form method="post" action={"/adjudicaciones/" (adj.id) "/incumplimiento"} {
            (csrf(user))
            div.campo.con-error[e(Field::BreachKind).is_some()] {
                label for="breach_kind" { "Tipo de incumplimiento" }
                select id="breach_kind" name="breach_kind" {
                    @for k in kinds {
                        option value=(k.as_str()) selected[i.get("breach_kind") == k.as_str()] { (k.label_es()) }
                    }
                }
                @if let Some(m) = e(Field::BreachKind) { p.error role="alert" { (views::sentence(m)) } }
            }
            (input("breach_date", views::field_label(Field::BreachDate), i.get("breach_date"), e(Field::BreachDate), Some("dd/mm/aaaa")))
            (input("shares", views::field_label(Field::Shares), i.get("shares"), e(Field::Shares), None))
            (input("consideration_per_share", views::field_label(Field::ConsiderationPerShare), i.get("consideration_per_share"), e(Field::ConsiderationPerShare), Some("en pesos, p. ej. 1.450,50; o deje vacío y use el total")))
            (input("consideration_total", views::field_label(Field::ConsiderationTotal), i.get("consideration_total"), e(Field::ConsiderationTotal), None))
            (input("registered_on", views::field_label(Field::RegisteredOn), i.get("registered_on"), e(Field::RegisteredOn), Some("inscripción en el libro de accionistas, dd/mm/aaaa")))
            (input("evidence", "Prueba (documento, carta, asiento)", i.get("evidence"), None, None))
            (input("until", "Vista previa de la multa al", &until, errors.get("until"), Some("dd/mm/aaaa; por defecto hoy")))
            div.acciones {
                button type="submit" name="accion" value="vista" { "Vista previa de la multa" }
                button type="submit" name="accion" value="registrar" { "Registrar incumplimiento" }
            }
        }
        }
        @if let Some(p) = preview { section #vista-previa { h2 { "Vista previa (nada se ha registrado)" } (p) } }
    }
}

async fn breach_form(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    user.require(Role::Oficial)?;
    let (adj, kinds) = app
        .db(move |s| {
            let adj = adjudications::get(s.conn(), id)?;
            let p = programs::by_id(s.conn(), adj.program_id)?;
            Ok((adj, p.program.breach_kinds))
        })
        .await?;
    let body = breach_form_markup(
        &user,
        &adj,
        &kinds,
        &BreachInput::default(),
        &Errors::default(),
        None,
    );
    ok(page(Some(&user), "Registrar incumplimiento", body))
}

async fn breach_submit(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let save = field(&f, "accion") == "registrar";
    let input = BreachInput::from(&f);
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let done = app
        .db(move |s| {
            let adj = adjudications::get(s.conn(), id)?;
            let program = programs::by_id(s.conn(), adj.program_id)?;
            let mut errors = Errors::default();
            let Some(p) = parse_breach(&input, &mut errors) else {
                return Ok(Err((
                    adj,
                    program.program.breach_kinds,
                    input,
                    errors,
                    None,
                )));
            };
            let new = NewBreach {
                adjudication_id: id,
                kind: p.kind,
                breach_date: p.date,
                shares: p.shares,
                consideration_per_share: p.per_share,
                consideration_total: p.total,
                registered_on: p.registered_on,
                evidence: p.evidence.as_deref(),
            };
            if save {
                match s.write::<_, register::Error>(&officer, |tx| {
                    register::breach::record(tx, &new, today())
                }) {
                    Ok(bid) => return Ok(Ok(bid)),
                    Err(e) => errors.register(e)?,
                }
                return Ok(Err((
                    adj,
                    program.program.breach_kinds,
                    input,
                    errors,
                    None,
                )));
            }
            // the preview: the same rules in a transaction rolled back, then the engine
            if let Err(e) = dry_run(s, &officer, |tx| {
                register::breach::record(tx, &new, today())
            }) {
                errors.register(e)?;
            }
            if adj.void.is_some() {
                // no fine of a voided adjudication to preview
                return Ok(Err((
                    adj,
                    program.program.breach_kinds,
                    input,
                    errors,
                    None,
                )));
            }
            let rates = app2.rates(s)?;
            let case = register::liquidation::fine_case(
                &program.program,
                program.scale()?,
                programs::stage_price(s.conn(), program.id)?,
                (adj.adjudicated_on, adj.price_per_share),
                (
                    p.date,
                    p.shares,
                    breaches::transfer_price(p.per_share, p.total, p.shares),
                ),
            );
            let preview =
                match fine::liquidate(&case, p.until, &[], program.program.convention, &rates) {
                    Ok(o) => views::outcome(&o),
                    Err(e) => html! { p.error role="alert" { (views::sentence(&views::fine_error_text(&e))) } },
                };
            Ok(Err((
                adj,
                program.program.breach_kinds,
                input,
                errors,
                Some(preview),
            )))
        })
        .await?;
    match done {
        Ok(bid) => see_other(format!("/incumplimientos/{bid}")),
        Err((adj, kinds, input, errors, preview)) => {
            let status = if errors.is_empty() {
                StatusCode::OK
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            let body = errors.placed(|| {
                breach_form_markup(&user, &adj, &kinds, &input, &errors, preview.clone())
            });
            Ok((
                status,
                Html(page(Some(&user), "Registrar incumplimiento", body).into_string()),
            )
                .into_response())
        }
    }
}

struct BreachView {
    breach: breaches::Breach,
    adj: adjudications::Adjudication,
    payments: Vec<breaches::StoredPayment>,
    liquidations: Vec<breaches::StoredLiquidation>,
    /// Its notices and paz y salvo, and whether its fine is paid.
    letters: super::letters::BreachLetters,
    position: Result<Outcome, String>,
    /// The position's date: the one asked for, or the day a paid fine was paid.
    as_of: NaiveDate,
    /// Why the breach cannot be voided (its paz y salvo, its notices, its payments), in Spanish:
    /// the page says so instead of offering a void the register would refuse.
    void_blocked: Option<String>,
}

fn breach_view(
    app: &App,
    s: &mut Store,
    id: i64,
    as_of: NaiveDate,
) -> Result<BreachView, WebError> {
    let breach = breaches::get(s.conn(), id)?;
    let adj = adjudications::get(s.conn(), breach.adjudication_id)?;
    let rates = app.rates(s)?;
    let letters = super::letters::breach_letters(s.conn(), id, adj.program_id, &rates)?;
    // a paid fine is not priced to today: its position is the day it was paid
    let as_of = letters.paid.as_ref().map_or(as_of, |p| p.on);
    let position = match register::liquidation::facts(s.conn(), id, as_of) {
        Ok(facts) => {
            let conv = facts.program.program.convention;
            register::liquidation::price(&facts, as_of, conv, &rates).map_err(|e| match e {
                register::Error::Fine(f) => views::fine_error_text(&f),
                other => other.to_string(),
            })
        }
        Err(register::Error::Refused(r)) => Err(views::refusal_text(&r)),
        Err(e) => return Err(e.into()),
    };
    let void_blocked = register::breach::depends_on(s.conn(), id)?
        .map(|d| d.reason.in_lang(crate::lang::Lang::Es).to_string());
    Ok(BreachView {
        void_blocked,
        // voided payments too, marked: what was voided stays on record
        payments: breaches::payments_recorded(s.conn(), id)?,
        liquidations: breaches::liquidations(s.conn(), Some(id))?,
        letters,
        breach,
        adj,
        position,
        as_of,
    })
}

fn breach_markup(user: &User, v: &BreachView, errors: &Errors, typed: &Fields) -> Markup {
    let b = &v.breach;
    let e = |k: Field| errors.get(k.as_str());
    html! {
        dl.hechos {
            dt { "Titular" } dd { a href={"/titulares/" (v.adj.holder.id)} { (v.adj.holder.name) } " (" (v.adj.holder.doc_type.to_string()) " " (v.adj.holder.doc_number) ")" }
            dt { "Adjudicación" } dd { (v.adj.id) " — " (numero(v.adj.shares)) " acciones el " (fecha(v.adj.adjudicated_on)) }
            dt { "Tipo" } dd { (b.kind.label_es()) }
            dt { "Fecha" } dd { (fecha(b.breach_date)) }
            dt { "Acciones" } dd { (numero(b.shares)) }
            @if let Some(p) = b.transfer_price() { dt { "Contraprestación por acción" } dd { (pesos(p)) } }
            @if let Some(ev) = &b.evidence { dt { "Prueba" } dd { (ev) } }
            dt { "Registrado" } dd { (views::momento(&b.created_at)) " por " (b.created_by) }
            @if let Some(vd) = &b.void { dt { "ANULADO" } dd { (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason) } }
        }
        (errors.general())
        @match &v.letters.paid {
            Some(paid) => {
                h2 { "Multa pagada" }
                (super::letters::paid_markup(paid))
            }
            None => {
                h2 { "Posición al " (fecha(v.as_of)) }
                form method="get" action={"/incumplimientos/" (b.id)} {
                    div.campo { label for="hasta" { "Calcular al" } input id="hasta" name="hasta" type="text" value=(fecha(v.as_of)); }
                    button type="submit" { "Calcular" }
                }
            }
        }
        @match &v.position { Ok(o) => (views::outcome(o)), Err(m) => p.error role="alert" { (views::sentence(m)) } }
        h2 { "Pagos" }
        table.pagos {
            thead { tr { th { "N.º" } th { "fecha" } th.num { "valor" } th { "referencia" } th { "registrado por" } th { "anulación" } } }
            tbody {
                @for p in &v.payments {
                    tr.anulado[p.void.is_some()] {
                        td { (p.id) } td { (fecha(p.paid_on)) } td.num { (pesos(p.amount)) } td { (p.reference.as_deref().unwrap_or("")) } td { (p.created_by) }
                        td {
                            @if let Some(vd) = &p.void { "ANULADO " (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason) }
                            @else if user.may(Role::Oficial) {
                                form.anular method="post" action={"/incumplimientos/" (b.id) "/pagos/" (p.id) "/anular"} {
                                    (csrf(user))
                                    label for={"motivo-pago-" (p.id)} { "Motivo" }
                                    input id={"motivo-pago-" (p.id)} name="void_reason" type="text" required;
                                    button type="submit" { "Anular pago" }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(m) = errors.get(Field::Payment.as_str()) { p.error role="alert" { (views::sentence(m)) } }
        @if user.may(Role::Oficial) && b.void.is_none() {
            form method="post" action={"/incumplimientos/" (b.id) "/pagos"} {
                (csrf(user))
                (input("payment_date", views::field_label(Field::PaymentDate), field(typed, "payment_date"), e(Field::PaymentDate), Some("dd/mm/aaaa")))
                (input("payment_amount", views::field_label(Field::PaymentAmount), field(typed, "payment_amount"), e(Field::PaymentAmount), Some("en pesos, p. ej. 500.000")))
                (input("reference", "Referencia (consignación, recibo)", field(typed, "reference"), None, None))
                // offered once the register found the same payment recorded: two real payments alike
                @if let Some(m) = e(Field::AllowDuplicate) {
                    div.campo.con-error {
                        label {
                            input type="checkbox" name=(Field::AllowDuplicate.as_str()) value="si";
                            " " (views::field_label(Field::AllowDuplicate)) " (es otro pago, igual al ya registrado)"
                        }
                        p.error id={(Field::AllowDuplicate.as_str()) "-error"} role="alert" { (views::sentence(m)) }
                    }
                }
                div.acciones { button type="submit" { "Registrar pago" } }
            }
        }
        h2 { "Liquidaciones" }
        table.liquidaciones {
            thead { tr { th { "N.º" } th { "al" } th { "convención" } th.num { "total" } th { "huella" } } }
            tbody { @for l in &v.liquidations { tr { td { a href={"/liquidaciones/" (l.id)} { (l.id) } } td { (fecha(l.until)) } td { (l.convention.name_es()) } td.num { (pesos(l.total_due)) } td { code { (&l.sha256[..16]) "…" } } } } }
        }
        @if user.may(Role::Juridico) && b.void.is_none() {
            form method="post" action={"/incumplimientos/" (b.id) "/liquidar"} {
                (csrf(user))
                (input("until", "Liquidar al", &typed_or(typed, "until", fecha(v.as_of)), errors.get("until"), Some("dd/mm/aaaa")))
                div.acciones { button type="submit" { "Liquidar y guardar" } }
            }
        }
        (super::letters::breach_letters_markup(user, b.id, b.void.is_some(), &v.letters, v.as_of, errors, typed))
        @if user.may(Role::Oficial) && b.void.is_none() && v.void_blocked.is_some() {
            h2 { "Anular el incumplimiento" }
            p #no-anulable { "No puede anularse: " (v.void_blocked.as_deref().unwrap_or("")) "." }
        }
        @if user.may(Role::Oficial) && b.void.is_none() && v.void_blocked.is_none() {
            h2 { "Anular el incumplimiento" }
            p { "Solo si se registró por error: queda en el registro, marcado como anulado, con quién, cuándo y por qué, y ninguna cifra lo cuenta." }
            form method="post" action={"/incumplimientos/" (b.id) "/anular"} {
                (csrf(user))
                (input("void_reason", views::field_label(Field::VoidReason), field(typed, "void_reason"), e(Field::VoidReason), None))
                div.acciones { button type="submit" { "Anular incumplimiento" } }
            }
        }
    }
}

/// What was typed in the input `name` of the form that was sent, else `default`.
pub(super) fn typed_or(typed: &Fields, name: &str, default: String) -> String {
    typed
        .iter()
        .find(|(k, _)| k == name)
        .map_or(default, |(_, v)| v.clone())
}

async fn breach_page(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    q: Query<Fields>,
) -> Page {
    let as_of = date_or(&q.0, "hasta", today()).map_err(WebError::bad_request)?;
    let app2 = Arc::clone(&app);
    let v = app.db(move |s| breach_view(&app2, s, id, as_of)).await?;
    let body = breach_markup(&user, &v, &Errors::default(), &Vec::new());
    ok(page(Some(&user), &format!("Incumplimiento {id}"), body))
}

/// Runs a write on a breach's page; a refusal shows the page again with the message next to the
/// input it names.
pub(super) async fn breach_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    id: i64,
    typed: Fields,
    parsed: Result<
        impl FnOnce(&App, &mut store::Tx<'_>) -> register::Result<T> + Send + 'static,
        Errors,
    >,
    done: impl FnOnce(T) -> String + Send + 'static,
) -> Page {
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let result = app
        .db(move |s| {
            let mut errors = match parsed {
                Ok(write) => match s.write::<_, register::Error>(&officer, |tx| write(&app2, tx)) {
                    Ok(t) => return Ok(Ok(done(t))),
                    Err(e) => {
                        let mut errors = Errors::default();
                        errors.register(e)?;
                        errors
                    }
                },
                Err(errors) => errors,
            };
            if errors.is_empty() {
                errors.general.push("La operación fue rechazada.".into());
            }
            let v = breach_view(&app2, s, id, today())?;
            Ok(Err((v, errors)))
        })
        .await?;
    match result {
        Ok(to) => see_other(to),
        Err((v, errors)) => {
            let body = errors.placed(|| breach_markup(&user, &v, &errors, &typed));
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                Html(page(Some(&user), &format!("Incumplimiento {id}"), body).into_string()),
            )
                .into_response())
        }
    }
}

async fn payment(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let mut errors = Errors::default();
    let date = parse::date(field(&f, "payment_date"))
        .map_err(|e| errors.put(Field::PaymentDate.as_str(), e))
        .ok();
    let amount = parse::paid(field(&f, "payment_amount"))
        .map_err(|e| errors.put(Field::PaymentAmount.as_str(), e))
        .ok();
    let reference = opt(&f, "reference");
    // a checkbox: two real payments alike (same day, amount and reference) are confirmed
    let allow_duplicate = opt(&f, "allow_duplicate").is_some();
    let parsed = match (date, amount) {
        (Some(paid_on), Some(amount)) => Ok(move |_: &App, tx: &mut store::Tx<'_>| {
            register::payment::record(
                tx,
                &register::payment::NewPayment {
                    breach_id: id,
                    paid_on,
                    amount,
                    reference: reference.as_deref(),
                    today: chrono::Local::now().date_naive(),
                    allow_duplicate,
                },
            )
        }),
        _ => Err(errors),
    };
    breach_write(app, user, id, f, parsed, move |_| {
        format!("/incumplimientos/{id}")
    })
    .await
}

async fn void_breach(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let reason = field(&f, Field::VoidReason.as_str()).to_string();
    let write = move |_: &App, tx: &mut store::Tx<'_>| register::breach::void(tx, id, &reason);
    breach_write(app, user, id, f, Ok(write), move |_| {
        format!("/incumplimientos/{id}")
    })
    .await
}

async fn void_payment(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, payment)): Path<(i64, i64)>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let reason = field(&f, Field::VoidReason.as_str()).to_string();
    let write = move |_: &App, tx: &mut store::Tx<'_>| {
        // the page is the breach's: the register refuses a payment of another breach; a refusal
        // of the reason is shown beside the payments, not the breach's own form
        register::payment::void_of_breach(tx, id, payment, &reason).map_err(|e| match e {
            register::Error::Refused(Refusal::Value {
                field: Field::VoidReason,
                reason,
                ..
            }) => Refusal::value(Field::Payment, payment, reason).into(),
            other => other,
        })
    };
    let typed: Fields = f.into_iter().filter(|(k, _)| k != "void_reason").collect();
    breach_write(app, user, id, typed, Ok(write), move |_| {
        format!("/incumplimientos/{id}")
    })
    .await
}

async fn liquidate(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Juridico)?;
    let parsed = match parse::date(field(&f, "until")) {
        Ok(until) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            register::liquidation::liquidate(tx, id, until, None, &rates).map(|(lid, _)| lid)
        }),
        Err(e) => {
            let mut errors = Errors::default();
            errors.put("until", e);
            Err(errors)
        }
    };
    breach_write(app, user, id, f, parsed, |lid| {
        format!("/liquidaciones/{lid}")
    })
    .await
}

async fn issue_notice(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Juridico)?;
    let mut errors = Errors::default();
    let until = parse::date(field(&f, "notice_until"))
        .map_err(|e| errors.put("notice_until", e))
        .ok();
    let date = date_or(&f, "notice_date", today())
        .map_err(|e| errors.put("notice_date", e))
        .ok();
    let reason = opt(&f, "backdate_reason");
    let parsed = match (until, date) {
        (Some(until), Some(date)) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            let reason = reason.as_deref();
            register::notice::issue(tx, id, until, date, today(), reason, &rates)
                .map(|i| i.notice.id)
        }),
        _ => Err(errors),
    };
    breach_write(app, user, id, f, parsed, |nid| format!("/avisos/{nid}")).await
}

impl App {
    /// The rate series, read inside a write transaction.
    pub(super) fn rates_tx(
        &self,
        tx: &store::Tx<'_>,
    ) -> register::Result<crate::rates::RateSeries> {
        match &self.config.rates_file {
            Some(_) => {
                let text = std::fs::read_to_string(self.config.rates_file.as_ref().expect("some"))
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?;
                crate::rates::RateSeries::from_csv(&text, "--rates")
                    .map_err(|e| StoreError::Corrupt(e.to_string()).into())
            }
            None => Ok(store::rates::series(tx.conn())?),
        }
    }
}

// ---------------------------------------------------------------------------- liquidations

async fn liquidation_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let (l, outcome) = app
        .db(move |s| {
            let l = breaches::liquidations(s.conn(), None)?
                .into_iter()
                .find(|l| l.id == id)
                .ok_or_else(|| WebError::not_found(&format!("la liquidación {id}")))?;
            let o = register::liquidation::recompute(&l.inputs_json)?;
            Ok((l, o))
        })
        .await?;
    let body = html! {
        dl.hechos {
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (l.breach_id)} { (l.breach_id) } }
            dt { "Liquidada" } dd { (views::momento(&l.created_at)) " por " (l.created_by) }
            dt { "Huella SHA-256" } dd { code { (l.sha256) } }
        }
        @if let Outcome::Liquidated(liq) = &outcome { (views::balance_chart(liq)) }
        (views::outcome(&outcome))
    };
    ok(page(Some(&user), &format!("Liquidación N.º {id}"), body))
}

// ---------------------------------------------------------------------------- uploads

/// The uploaded parts of a multipart form: text fields and files (name, bytes).
pub(super) struct Upload {
    pub(super) fields: Fields,
    pub(super) files: HashMap<String, (String, Vec<u8>)>,
}

pub(super) async fn read_upload(
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Upload, WebError> {
    let bad = || {
        WebError::bad_request("El formulario no llegó completo; envíelo de nuevo con el archivo.")
    };
    let mut m = m.map_err(|_| bad())?;
    let mut up = Upload {
        fields: Vec::new(),
        files: HashMap::new(),
    };
    while let Some(part) = m.next_field().await.map_err(|_| bad())? {
        let name = part.name().unwrap_or("").to_string();
        match part.file_name().map(str::to_string) {
            Some(file) => {
                let bytes = part.bytes().await.map_err(|_| bad())?;
                // a file input left empty: the browser sends a part without name or bytes
                if !(file.is_empty() && bytes.is_empty()) {
                    up.files.insert(name, (file, bytes.to_vec()));
                }
            }
            None => {
                let text = part.text().await.map_err(|_| bad())?;
                up.fields.push((name, text));
            }
        }
    }
    Ok(up)
}

pub(super) fn upload_form(
    user: &User,
    action: &str,
    file_label: &str,
    extra: Markup,
    button: &str,
) -> Markup {
    html! {
        form method="post" action=(action) enctype="multipart/form-data" {
            (csrf(user))
            (extra)
            div.campo { label for="archivo" { (file_label) } input id="archivo" name="archivo" type="file"; }
            div.acciones { button type="submit" { (button) } }
        }
    }
}

// ---------------------------------------------------------------------------- imports

/// The codes of the programs in the register.
pub(super) async fn program_codes(app: &Arc<App>) -> Result<Vec<String>, WebError> {
    app.db(|s| {
        Ok(programs::list(s.conn())?
            .into_iter()
            .map(|p| p.program.code)
            .collect())
    })
    .await
}

async fn import_page(State(app): State<Arc<App>>, user: User) -> Page {
    user.require(Role::Oficial)?;
    let codes = program_codes(&app).await?;
    ok(page(
        Some(&user),
        "Importar adjudicaciones",
        import_form(&user, &codes, ""),
    ))
}

/// The import form, `chosen` the program selected.
fn import_form(user: &User, codes: &[String], chosen: &str) -> Markup {
    let extra = html! {
        div.campo { label for="programa" { "Programa" } select id="programa" name="programa" { @for c in codes { option value=(c) selected[c == chosen] { (c) } } } }
    };
    html! {
        p { "Archivo CSV (UTF-8 o la exportación de Excel es-CO con «;») o libro de Excel o LibreOffice (.xlsx, .xls, .ods: su primera hoja), con los encabezados en español o en inglés. Primero se muestra cada problema por línea; nada se escribe hasta que usted confirme." }
        (upload_form(user, "/importar", "Archivo de adjudicaciones", extra, "Revisar el archivo"))
    }
}

async fn import_upload(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(csrf_of(&up.fields))?;
    user.require(Role::Oficial)?;
    let program = field(&up.fields, "programa").to_string();
    let Some((name, bytes)) = up.files.get("archivo").cloned() else {
        let codes = program_codes(&app).await?;
        let body = html! {
            p.error role="alert" { "Elija el archivo a importar; no se subió ninguno." }
            (import_form(&user, &codes, &program))
        };
        return Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            Html(page(Some(&user), "Importar adjudicaciones", body).into_string()),
        )
            .into_response());
    };
    // a workbook's first sheet, read as the command line reads it; one it cannot read is the
    // file's one problem
    let converted = crate::workbook::as_csv(&bytes, None).map(std::borrow::Cow::into_owned);
    let bytes = Arc::new(converted.as_ref().map_or_else(|_| Vec::new(), Clone::clone));
    let officer = user.name.clone();
    let (b2, p2, n2) = (Arc::clone(&bytes), program.clone(), name.clone());
    let outcome = match converted {
        Ok(_) => {
            app.db(move |s| Ok(import_run(s, &officer, &p2, &n2, &b2, false)))
                .await?
        }
        Err(why) => Err(vec![store::Problem::Whole(why)]),
    };
    let body = match outcome {
        Ok(Ok(summary)) => {
            let token = auth::token();
            app.sessions.set_pending(
                user.token(),
                Some(PendingImport {
                    token: token.clone(),
                    program: program.clone(),
                    name: name.clone(),
                    bytes,
                }),
            );
            html! {
                p.ok role="status" { "El archivo «" (name) "» no tiene problemas: " (summary) " Nada se ha escrito todavía." }
                form method="post" action="/importar/confirmar" {
                    (csrf(&user))
                    input type="hidden" name="token" value=(token);
                    div.acciones { button type="submit" { "Confirmar la importación" } }
                }
            }
        }
        Ok(Err(message)) => html! { p.aviso { (message) } },
        Err(problems) => html! {
            p.error role="alert" {
                "El archivo «" (name) "» tiene " (views::cuenta(problems.len() as u64, "problema", "problemas"))
                "; nada se escribió. " (if problems.len() == 1 { "Corríjalo" } else { "Corríjalos" }) " y vuelva a subirlo."
            }
            table.problemas {
                thead { tr { th.num { "línea" } th { "columna" } th { "valor" } th { "problema" } } }
                tbody {
                    @for p in &problems {
                        @match p {
                            store::Problem::Row(r) => tr { td.num { (r.line) } td { (r.field) } td { (r.value) } td { (r.reason.es()) } },
                            store::Problem::Whole(w) => tr { td.num {} td {} td {} td { (w.es()) } },
                        }
                    }
                }
            }
        },
    };
    ok(page(Some(&user), "Importar adjudicaciones", body))
}

/// Imports (or, with `write` false, tries inside a rolled-back transaction) a file of
/// adjudications: `Ok(Ok(summary))`, `Ok(Err(already imported))`, or `Err(every problem)`.
#[allow(clippy::type_complexity, reason = "three outcomes a page shows")]
fn import_run(
    s: &mut Store,
    officer: &str,
    program: &str,
    name: &str,
    bytes: &[u8],
    write: bool,
) -> Result<Result<String, String>, Vec<store::Problem>> {
    let whole =
        |en: String, es: String| vec![store::Problem::Whole(crate::lang::Said::new(en, es))];
    let p = programs::by_code(s.conn(), program).map_err(|e| {
        let es = match &e {
            StoreError::NotFound { .. } => format!("no hay un programa «{program}» en el registro"),
            other => format!("no se pudo leer el programa «{program}»: {other}"),
        };
        whole(e.to_string(), es)
    })?;
    let sha = store::sha256_hex(bytes);
    let dialect = crate::import::sniff(bytes);
    let run = |tx: &mut store::Tx<'_>| {
        register::adjudication::import(tx, &p, name, &sha, dialect.encoding, |sink| {
            Ok(crate::import::each_in_parallel(bytes, &p.program, sink)?.1)
        })
    };
    let result = if write {
        s.write::<_, register::Error>(officer, run)
    } else {
        dry_run(s, officer, run)
    };
    match result {
        Ok(store::import::Imported::Added {
            rows, new_holders, ..
        }) => Ok(Ok(format!(
            "{} y {} {}.",
            views::cuenta(rows as u64, "adjudicación", "adjudicaciones"),
            views::cuenta(new_holders as u64, "titular nuevo", "titulares nuevos"),
            if write { "agregados" } else { "por agregar" }
        ))),
        Ok(store::import::Imported::AlreadyImported(prior)) => Ok(Err(format!(
            "Este archivo ya se importó (importación {} del {} por {}): no se agrega nada.",
            prior.import_id,
            views::momento(&prior.at),
            prior.by
        ))),
        Err(register::Error::Store(StoreError::Rejected(ps))) => Err(ps),
        Err(register::Error::Refused(r)) => Err(whole(r.to_string(), views::refusal_text(&r))),
        Err(register::Error::Fine(f)) => Err(whole(f.to_string(), views::fine_error_text(&f))),
        Err(e) => Err(whole(
            e.to_string(),
            format!("no se pudo importar el archivo: {e}"),
        )),
    }
}

async fn import_confirm(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let pending = app
        .sessions
        .pending(user.token())
        .filter(|p| p.token == field(&f, "token"))
        .ok_or_else(|| {
            WebError::bad_request(
                "No hay un archivo revisado pendiente de confirmar; súbalo de nuevo.",
            )
        })?;
    app.sessions.set_pending(user.token(), None);
    let officer = user.name.clone();
    let p = pending.clone();
    let outcome = app
        .db(move |s| Ok(import_run(s, &officer, &p.program, &p.name, &p.bytes, true)))
        .await?;
    let body = match outcome {
        Ok(Ok(summary)) => {
            html! { p.ok role="status" { "Importado «" (pending.name) "»: " (summary) } }
        }
        Ok(Err(m)) => html! { p.aviso { (m) } },
        Err(ps) => {
            html! { p.error role="alert" { "El registro cambió desde la revisión; nada se escribió:" } ul { @for p in &ps { li { (p.in_lang(crate::lang::Lang::Es)) } } } }
        }
    };
    ok(page(Some(&user), "Importar adjudicaciones", body))
}

// ---------------------------------------------------------------------------- audit, rates

/// Events shown on the audit page.
const AUDIT_PAGE: usize = 100;

async fn audit_page(State(app): State<Arc<App>>, user: User, q: Query<Fields>) -> Page {
    // the audited tables, by their Spanish names
    let mut tables: Vec<&str> = store::audit::AUDITED.to_vec();
    tables.sort_by_key(|t| views::tabla(t).to_lowercase());
    let entity = opt(&q.0, "tabla");
    let e2 = entity.clone();
    let events = app
        .db(move |s| {
            let mut last = std::collections::VecDeque::new();
            store::audit::each_event::<StoreError>(s.conn(), e2.as_deref(), None, |e| {
                if last.len() == AUDIT_PAGE {
                    last.pop_front();
                }
                last.push_back(e);
                Ok(std::ops::ControlFlow::Continue(()))
            })?;
            Ok(last)
        })
        .await?;
    let body = html! {
        p { a href="/auditoria/verificar" { "Verificar la cadena completa" } }
        form method="get" action="/auditoria" {
            div.campo {
                label for="tabla" { "Tabla" }
                select id="tabla" name="tabla" {
                    option value="" selected[entity.is_none()] { "Todas las tablas" }
                    @for t in &tables {
                        option value=(t) selected[entity.as_deref() == Some(*t)] { (views::tabla(t)) " (" (t) ")" }
                    }
                }
            }
            button type="submit" { "Filtrar" }
        }
        table.auditoria {
            caption {
                @match events.len() {
                    0 => "Ningún evento",
                    1 => "El último evento",
                    n => { "Últimos " (numero(n as u64)) " eventos" }
                }
                @if let Some(t) = &entity { " de la tabla " (views::tabla(t)) }
            }
            thead { tr { th.num { "N.º" } th { "momento" } th { "usuario" } th { "acción" } th { "tabla" } th.num { "id" } th { "huella" } } }
            tbody {
                @for e in events.iter().rev() {
                    tr {
                        td.num { (e.seq) } td { (views::momento(&e.at)) } td { (views::actor(&e.actor)) }
                        td { (views::accion(&e.action)) br; small { code { (e.action) } } }
                        td { (views::tabla(&e.entity)) br; small { code { (e.entity) } } }
                        td.num { (e.entity_id) } td { code { (&e.hash[..12]) "…" } }
                    }
                }
            }
        }
    };
    ok(page(Some(&user), "Auditoría", body))
}

async fn audit_verify(State(app): State<Arc<App>>, user: User) -> Page {
    let v = app.db(|s| Ok(store::audit::verify(s.conn())?)).await?;
    let body = html! {
        @match &v.first_mismatch {
            None => p.ok role="status" { "Cadena de auditoría íntegra: " (views::cuenta(v.events as u64, "evento", "eventos")) "; la cadena y las filas guardadas coinciden." },
            Some(m) => p.error role="alert" {
                @match &m.place {
                    store::audit::Place::Event { seq, entity, entity_id } => {
                        "La auditoría NO coincide en el evento " (seq) " (" (views::tabla(entity)) ", fila " (entity_id) "): "
                    }
                    store::audit::Place::Row { entity, entity_id } => {
                        "La auditoría NO coincide: la fila " (entity_id) " de " (views::tabla(entity)) " no tiene evento: "
                    }
                    store::audit::Place::Anchor { name } => {
                        "La auditoría NO coincide con " (name) ": "
                    }
                }
                (m.reason)
            },
        }
        @for problem in v.schema.iter().chain(&v.storage) {
            p.error role="alert" { (problem) }
        }
        p { a href="/auditoria" { "Volver a la auditoría" } }
    };
    ok(page(Some(&user), "Verificación de la auditoría", body))
}

async fn rates_page(State(app): State<Arc<App>>, user: User) -> Page {
    rates_markup(
        app,
        user,
        Errors::default(),
        Vec::new(),
        StatusCode::OK,
        None,
    )
    .await
}

/// A certification just added, as the rates page confirms it: its days and the warnings of a
/// jump in IBC beside the periods next to it (`vigia rates add` prints the same).
struct RateAdded {
    from: NaiveDate,
    to: NaiveDate,
    jumps: Vec<crate::rates::Jump>,
}

/// The rates page; `errors` and `typed` belong to the form that was sent, `added` the
/// certification it added.
async fn rates_markup(
    app: Arc<App>,
    user: User,
    errors: Errors,
    typed: Fields,
    status: StatusCode,
    added: Option<RateAdded>,
) -> Page {
    let app2 = Arc::clone(&app);
    let periods = app
        .db(move |s| Ok(app2.rates(s)?.periods().to_vec()))
        .await?;
    let body = errors.placed(|| html! {
        (errors.general())
        @if let Some(a) = &added {
            p.ok role="status" { "Certificación agregada: del " (fecha(a.from)) " al " (fecha(a.to)) "." }
            @for j in &a.jumps {
                p.aviso role="alert" { "Atención: " (j.said().es()) "." }
            }
        }
        @if user.may(Role::Admin) {
            h2 { "Agregar una certificación" }
            form method="post" action="/tasas" {
                (csrf(&user))
                (input("from", "Desde", field(&typed, "from"), errors.get("from"), Some("dd/mm/aaaa")))
                (input("to", "Hasta", field(&typed, "to"), errors.get("to"), Some("dd/mm/aaaa, inclusive")))
                (input("ibc", "Interés bancario corriente (% EA)", field(&typed, "ibc"), errors.get("ibc"), Some("p. ej. 17,84")))
                (input("usury", "Tasa de usura (% EA), si la resolución la trae", field(&typed, "usury"), errors.get("usury"), Some("p. ej. 26,76; si se deja vacía, 1,5 veces el IBC")))
                (input("resolution", "Resolución", field(&typed, "resolution"), errors.get("resolution"), Some("p. ej. SFC Res. 1650 de 2026 (30/10/2026)")))
                (input(Field::SupersedeReason.as_str(), views::field_label(Field::SupersedeReason), field(&typed, Field::SupersedeReason.as_str()), errors.get(Field::SupersedeReason.as_str()), Some("solo si reemplaza periodos vigentes")))
                div.acciones { button type="submit" { "Agregar" } }
            }
        }
        table.tasas {
            caption { "Serie vigente (más reciente primero)" }
            thead { tr { th { "desde" } th { "hasta" } th.num { "IBC % EA" } th.num { "moratoria % EA" } th { "resolución" } } }
            tbody {
                @for p in periods.iter().rev() {
                    tr { td { (fecha(p.valid_from)) } td { (fecha(p.valid_to)) }
                         td.num { @if let Some(i) = p.ibc_ea_pct { (views::tasa(i)) } }
                         td.num { (views::tasa(p.moratorium_ea_pct())) } td { (views::resolucion(&p.resolution)) } }
                }
            }
        }
    });
    let mut r = Html(page(Some(&user), "Tasas certificadas", body).into_string()).into_response();
    *r.status_mut() = status;
    Ok(r)
}

async fn rates_add(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Admin)?;
    let mut errors = Errors::default();
    let from = parse::date(field(&f, "from"))
        .map_err(|e| errors.put("from", e))
        .ok();
    let to = parse::date(field(&f, "to"))
        .map_err(|e| errors.put("to", e))
        .ok();
    let ibc = parse::percent(field(&f, "ibc"))
        .map_err(|e| errors.put("ibc", e))
        .ok();
    let usury = opt(&f, "usury")
        .map(|u| parse::percent(&u))
        .transpose()
        .map_err(|e| errors.put("usury", e))
        .ok();
    let resolution = opt(&f, "resolution");
    if resolution.is_none() {
        errors.put(
            "resolution",
            "escriba la resolución que certifica la tasa".into(),
        );
    }
    let reason = opt(&f, Field::SupersedeReason.as_str());
    let (Some(from), Some(to), Some(ibc), Some(usury), Some(resolution)) =
        (from, to, ibc, usury, resolution)
    else {
        return rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None).await;
    };
    // the same checks as a rates file row, as `vigia rates add` does
    let period = match crate::rates::RateSeries::typed_period(
        from,
        to,
        ibc,
        usury,
        &resolution,
        "formulario",
        false,
    ) {
        Ok(p) => p,
        Err(e) => {
            errors.general.push(format!(
                "La certificación no es válida: {}",
                e.problems
                    .iter()
                    .map(|p| p.message.es().to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
            return rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None)
                .await;
        }
    };
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            match s.write::<_, register::Error>(&officer, |tx| {
                register::rates::add(tx, &period, reason.as_deref(), None)
            }) {
                // the register's series now, as `vigia rates add` reads it for its warnings
                Ok(_) => Ok(Ok(RateAdded {
                    from: period.valid_from,
                    to: period.valid_to,
                    jumps: crate::rates::jumps_around(&store::rates::series(s.conn())?, &period),
                })),
                Err(e) => Ok(Err(e)),
            }
        })
        .await?;
    match result {
        Ok(added) => {
            rates_markup(
                app,
                user,
                Errors::default(),
                Vec::new(),
                StatusCode::OK,
                Some(added),
            )
            .await
        }
        Err(e) => {
            errors.register(e)?;
            rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::said;

    /// Every field a refusal may name. The match makes a new variant a compile error here, so
    /// it cannot be left out of the test below.
    fn every_field() -> Vec<Field> {
        let all = vec![
            Field::Adjudication,
            Field::Payment,
            Field::Pledge,
            Field::AllowDuplicate,
            Field::Breach,
            Field::BreachKind,
            Field::BreachDate,
            Field::Shares,
            Field::ConsiderationPerShare,
            Field::ConsiderationTotal,
            Field::RegisteredOn,
            Field::PledgeRank,
            Field::Lender,
            Field::ReleaseDate,
            Field::PaymentDate,
            Field::PaymentAmount,
            Field::VoidReason,
            Field::SupersedeReason,
            Field::OfferOpens,
            Field::OfferCloses,
            Field::AdjudicationDate,
            Field::Stage,
            Field::Tranche,
            Field::StageOpens,
            Field::StageCloses,
            Field::Proposal,
            Field::ImprovedPrice,
            Field::DrawSeed,
            Field::StageDecisionDate,
            Field::Notice,
            Field::Program,
            Field::Settlement,
            Field::SettlementDate,
            Field::DeliveryDate,
            Field::DeliveryVia,
            Field::Evidence,
            Field::Holder,
            Field::DocType,
            Field::Address,
            Field::City,
            Field::Email,
            Field::NoticeDate,
            Field::Letterhead,
            Field::IssuerNit,
            Field::PaymentReference,
            Field::BackdateReason,
            Field::ExternalAwarded,
            Field::ActaReference,
        ];
        for f in &all {
            match f {
                Field::Adjudication
                | Field::Payment
                | Field::Pledge
                | Field::AllowDuplicate
                | Field::Breach
                | Field::BreachKind
                | Field::BreachDate
                | Field::Shares
                | Field::ConsiderationPerShare
                | Field::ConsiderationTotal
                | Field::RegisteredOn
                | Field::PledgeRank
                | Field::Lender
                | Field::ReleaseDate
                | Field::PaymentDate
                | Field::PaymentAmount
                | Field::VoidReason
                | Field::SupersedeReason
                | Field::ValidityReason
                | Field::OfferOpens
                | Field::OfferCloses
                | Field::AdjudicationDate
                | Field::Stage
                | Field::Tranche
                | Field::StageOpens
                | Field::StageCloses
                | Field::Proposal
                | Field::ImprovedPrice
                | Field::DrawSeed
                | Field::StageDecisionDate
                | Field::Notice
                | Field::Program
                | Field::Settlement
                | Field::SettlementDate
                | Field::DeliveryDate
                | Field::DeliveryVia
                | Field::Evidence
                | Field::Holder
                | Field::DocType
                | Field::Address
                | Field::City
                | Field::Email
                | Field::NoticeDate
                | Field::Letterhead
                | Field::IssuerNit
                | Field::PaymentReference
                | Field::BackdateReason
                | Field::ExternalAwarded
                | Field::ActaReference => {}
            }
        }
        all
    }

    /// How many times `needle` occurs in `hay`.
    fn times(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    /// The refusals a register may give about `f`, each with a reason naming the field's code.
    fn refusals_about(f: Field) -> Vec<Refusal> {
        let other = if f == Field::Lender {
            Field::Breach
        } else {
            Field::Lender
        };
        vec![
            Refusal::value(
                f,
                7i64,
                crate::lang::Said::new("x", format!("motivo sobre {}", f.as_str())),
            ),
            Refusal::Repeat {
                reason: crate::lang::Said::new("x", format!("repetido sobre {}", f.as_str())),
                with: f,
            },
            Refusal::OneOf(f, other),
        ]
    }

    #[test]
    fn a_refusal_of_every_field_is_shown_once_whatever_inputs_the_page_has() {
        for f in every_field() {
            for r in refusals_about(f) {
                let mut errors = Errors::default();
                errors.register(r.clone().into()).unwrap();
                let text = views::sentence(&views::refusal_text(&r));
                // a page with a general list but no input for the field: in the list
                let listed = errors
                    .placed(|| html! { h2 { "Pagos" } (errors.general()) p { "formulario" } })
                    .into_string();
                assert_eq!(times(&listed, &text), 1, "{f:?} {r:?}: {listed}");
                assert!(listed.find(&text) < listed.find("formulario"), "{listed}");
                // a page without a general list: above everything
                let bare = errors.placed(|| html! { p { "formulario" } }).into_string();
                assert_eq!(times(&bare, &text), 1, "{f:?} {r:?}: {bare}");
                assert!(
                    bare.starts_with("<p class=\"error\" role=\"alert\">"),
                    "{bare}"
                );
                // a page with the field's input: beside it, not in the list too
                let name = views::refusal_field(&r).map(Field::as_str).unwrap_or("");
                let beside = errors
                    .placed(|| {
                        html! {
                            (errors.general())
                            (views::input(name, "etiqueta", "", errors.get(name), None))
                        }
                    })
                    .into_string();
                assert_eq!(times(&beside, &text), 1, "{f:?} {r:?}: {beside}");
                assert!(
                    beside.contains(&format!("id=\"{name}-error\" role=\"alert\">{text}</p>")),
                    "{f:?} {r:?}: {beside}"
                );
            }
        }
    }

    #[test]
    fn general_refusals_and_unplaced_ones_are_listed_together_in_order() {
        let mut errors = Errors::default();
        errors.put(
            "payment_date",
            "falta: indique la fecha (dd/mm/aaaa)".into(),
        );
        errors.put("allow_duplicate", "el pago ya está registrado".into());
        errors
            .register(Refusal::Rule(said!("x", "nada que liberar")).into())
            .unwrap();
        let page = errors
            .placed(|| {
                html! {
                    (errors.general())
                    (views::input("payment_date", "Fecha del pago", "", errors.get("payment_date"), None))
                }
            })
            .into_string();
        assert_eq!(
            page,
            "<p class=\"error\" role=\"alert\">Nada que liberar.</p>\
             <p class=\"error\" role=\"alert\">El pago ya está registrado.</p>\
             <div class=\"campo con-error\"><label for=\"payment_date\">Fecha del pago</label>\
             <input id=\"payment_date\" name=\"payment_date\" type=\"text\" value=\"\">\
             <p class=\"error\" id=\"payment_date-error\" role=\"alert\">Falta: indique la fecha (dd/mm/aaaa).</p></div>"
        );
    }

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    #[test]
    fn the_dashboard_names_the_missing_rate_months() {
        // issue 13's review: on 01/12/2026 a series ending on 31/10/2026 lacks November and December
        assert_eq!(
            rates_due(day("2026-10-31"), day("2026-12-01")).as_deref(),
            Some(
                "Faltan las tasas de noviembre y diciembre de 2026 (la serie termina el 31/10/2026): \
                 agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
        // one month of this year, one of the last
        assert_eq!(
            rates_due(day("2026-11-30"), day("2027-01-15")).as_deref(),
            Some(
                "Faltan las tasas de diciembre de 2026 y enero de 2027 (la serie termina el \
                 30/11/2026): agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
        // today's month only (a series ending in the middle of it lacks it too)
        assert_eq!(
            rates_due(day("2026-12-15"), day("2026-12-20")).as_deref(),
            Some(
                "Falta la tasa de diciembre de 2026 (la serie termina el 15/12/2026): agréguela en \
                 «Tasas»; sin ella no se liquidan los días que cubre."
            )
        );
        // this month's is there, next month's not yet
        assert_eq!(
            rates_due(day("2026-12-31"), day("2026-12-01")).as_deref(),
            Some(
                "Falta la tasa del mes siguiente, enero de 2027 (la serie termina el 31/12/2026): \
                 agréguela en «Tasas» cuando la Superintendencia Financiera la certifique."
            )
        );
        // next month's is there too
        assert_eq!(rates_due(day("2027-01-31"), day("2026-12-01")), None);
        // a long gap is said as a span
        assert_eq!(
            rates_due(day("2025-10-31"), day("2026-12-01")).as_deref(),
            Some(
                "Faltan las tasas de noviembre de 2025 a diciembre de 2026 (la serie termina el \
                 31/10/2025): agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
    }
}
