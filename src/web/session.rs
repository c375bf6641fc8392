//! `/ingresar` and `/salir`: the sign-in form (its own CSRF token in a cookie, no session yet),
//! signing in through `auth::sign_in` (the lockout is counted in the register) and signing out.

use super::App;
use super::WebError;
use super::auth::{self, LOGIN_COOKIE, SESSION_COOKIE, User};
use super::extract::Query;
use super::form::{Inputs, Nothing, Page, Posted, Sent};
use super::views::{CSRF, page};
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use maud::html;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/ingresar", get(login_page).post(login))
        .route("/salir", post(logout))
}

/// The login page's query: why a session just ended (`auth::Ended`'s code).
const ENDED: &str = "motivo";

/// The sign-in form.
struct Login {
    name: String,
    password: String,
}

impl Login {
    const NAME: &str = "usuario";
    const PASSWORD: &str = "clave";
}

impl Inputs for Login {
    fn read(sent: &Sent) -> Login {
        Login {
            name: sent.text(Login::NAME).trim().to_string(),
            password: sent.text(Login::PASSWORD),
        }
    }
}

/// The login page; `?motivo=...` says why a session just ended (`auth::Ended`).
async fn login_page(State(app): State<Arc<App>>, headers: HeaderMap, q: Query<Sent>) -> Response {
    let ended = auth::Ended::from_code(&q.0.text(ENDED));
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
            input type="hidden" name=(CSRF) value=(t);
            @if let Some(n) = notice { p.aviso role="status" { (n) } }
            @if let Some(e) = error { p.error role="alert" { (e) } }
            div.campo { label for=(Login::NAME) { "Usuario" } input id=(Login::NAME) name=(Login::NAME) type="text" autocomplete="username"; }
            div.campo { label for=(Login::PASSWORD) { "Contraseña" } input id=(Login::PASSWORD) name=(Login::PASSWORD) type="password" autocomplete="current-password"; }
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

async fn login(State(app): State<Arc<App>>, headers: HeaderMap, sent: Posted<Login>) -> Page {
    // the login form's own token (no session yet): the cookie set with the form must come back
    let expected = auth::cookie(&headers, LOGIN_COOKIE);
    match (expected.as_deref(), sent.csrf.as_deref()) {
        (Some(a), Some(b)) if !a.is_empty() && a == b => {}
        _ => return Err(WebError::csrf()),
    }
    let Login { name, password } = sent.form;
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

async fn logout(State(app): State<Arc<App>>, user: User, sent: Posted<Nothing>) -> Page {
    user.check_csrf(sent.csrf.as_deref())?;
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
