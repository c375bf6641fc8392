//! The router: every route prefix's `routes()` in one `Router`, with the style sheet, the page
//! not found, the upload limit, the error frame and the security headers. Each module owns its
//! routes, handlers, form structs and markup; every route but the login page and the style
//! sheet needs a session (the `User` extractor sends anyone else to `/ingresar`); every form is
//! checked for its CSRF token, then for the role, before anything is read or written.

use super::auth::User;
use super::{
    App, WebError, acceptances, audit, backup, breach_record, breaches, dashboard, holders,
    imports, letterhead, liquidations, notice_batch, notices, offering, pledge_import, pledges,
    programs, rates, rates_import, session, settlements, signing, stage_proposals, stages, users,
    views,
};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;

/// The largest upload (an import file of a national offering is about 100 MB).
const MAX_UPLOAD: usize = 256 << 20;

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/estilo.css", get(css))
        .merge(session::routes())
        .merge(dashboard::routes())
        .merge(holders::routes())
        .merge(pledges::routes())
        .merge(pledge_import::routes())
        .merge(breach_record::routes())
        .merge(breaches::routes())
        .merge(liquidations::routes())
        .merge(notices::routes())
        .merge(notice_batch::routes())
        .merge(settlements::routes())
        .merge(signing::routes())
        .merge(imports::routes())
        .merge(audit::routes())
        .merge(backup::routes())
        .merge(rates::routes())
        .merge(rates_import::routes())
        .merge(users::routes())
        .merge(programs::routes())
        .merge(offering::routes())
        .merge(acceptances::routes())
        .merge(stages::routes())
        .merge(stage_proposals::routes())
        .merge(letterhead::routes())
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
