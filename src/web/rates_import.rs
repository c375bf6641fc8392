//! `/tasas/importar`: a rates file (the CSV `vigia rates import` reads: `valid_from, valid_to,
//! ibc_ea_pct, usury_ea_pct, resolution`) read with the same checks (`RateSeries::from_csv`),
//! every problem by line; once it has none, each period read shown with what it changes in the
//! series in force (`register::rates::plan`) and the file tried in a transaction rolled back
//! (`register::rates::add_all`, the command line's call); on confirmation, every period added
//! in one transaction, a period that replaces others only with the reason typed beside it.

use super::auth::{self, PendingImport, User};
use super::form::{
    Errors, Inputs, Page, Posted, Sent, dry_run, ok, read_upload, upload_form, with_status,
};
use super::views::{self, csrf, fecha, input, page};
use super::{App, WebError};
use crate::rates::{Kind, RatePeriod, RateSeries};
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::{self, Store};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/tasas/importar", get(rates_page).post(rates_upload))
        .route("/tasas/importar/confirmar", post(rates_confirm))
}

/// What a review of this page is kept under in [`App::reviewed`].
const KIND: &str = "tasas";

const TITLE: &str = "Importar tasas certificadas";

/// The confirmation of a file reviewed: the review's token and, when a period replaces others,
/// why.
#[derive(Default)]
struct Confirm {
    token: String,
    reason: String,
}

impl Confirm {
    const TOKEN: &str = "token";
}

impl Inputs for Confirm {
    fn read(sent: &Sent) -> Confirm {
        Confirm {
            token: sent.text(Confirm::TOKEN),
            reason: sent.text(Field::SupersedeReason.as_str()),
        }
    }
}

fn upload(user: &User) -> Markup {
    html! {
        p {
            "Archivo CSV (UTF-8) con estos encabezados, en inglés, como lo lee «vigia rates import»: "
            code { "valid_from" } " (desde, dd/mm/aaaa o aaaa-mm-dd), " code { "valid_to" } " (hasta), "
            code { "ibc_ea_pct" } " (interés bancario corriente, % efectivo anual), " code { "usury_ea_pct" }
            " (tasa de usura, % efectivo anual) y " code { "resolution" }
            " (la resolución de la Superintendencia Financiera que la certifica). Cada período con las mismas comprobaciones de «Agregar una certificación». "
            "Primero se muestra cada período leído y lo que cambia en la serie vigente; nada se escribe hasta que "
            "usted confirme, y todo o nada. El historial de la Superintendencia (.xls) se importa con «vigia rates import-sfc»."
        }
        (upload_form(user, "/tasas/importar", "Archivo de tasas", html! {}, "Revisar el archivo"))
        p { a href="/tasas" { "Volver a las tasas" } }
    }
}

async fn rates_page(user: User) -> Page {
    user.require(Role::Admin)?;
    ok(page(Some(&user), TITLE, upload(&user)))
}

/// A period read, with what it does to the series in force.
struct Change {
    period: RatePeriod,
    /// The periods in force it replaces, as the page words them (none: a new period).
    replaces: Vec<String>,
}

/// A file read: its periods and what each changes, and its warnings (jumps in IBC).
struct Review {
    changes: Vec<Change>,
    warnings: Vec<String>,
}

/// Reads a rates file as `vigia rates import` does; every problem (Spanish, by line) when it
/// cannot be used.
fn read(text: &str, name: &str) -> Result<(Vec<RatePeriod>, Vec<String>), Vec<String>> {
    let series = RateSeries::from_csv(text, name).map_err(|e| {
        e.problems
            .iter()
            .map(|p| p.in_lang(crate::lang::Lang::Es))
            .collect::<Vec<_>>()
    })?;
    let warnings = crate::rates::check_csv(text)
        .iter()
        .filter(|p| p.kind == Kind::Jump)
        .map(|p| p.in_lang(crate::lang::Lang::Es))
        .collect();
    Ok((series.periods().to_vec(), warnings))
}

/// The periods read compared with the series in force (the register's plan).
fn review(s: &Store, periods: Vec<RatePeriod>, warnings: Vec<String>) -> Result<Review, WebError> {
    let plan = register::rates::plan(s.conn(), &periods)?;
    let said = |q: &RatePeriod, origin: &store::rates::Origin| {
        format!(
            "del {} al {} ({}, {})",
            fecha(q.valid_from),
            fecha(q.valid_to),
            views::resolucion(&q.resolution),
            match origin {
                store::rates::Origin::Shipped => "serie incorporada".to_string(),
                store::rates::Origin::Register(id) => format!("tasa N.º {id} del registro"),
            }
        )
    };
    let changes = periods
        .into_iter()
        .map(|p| {
            let same = |q: &RatePeriod| q.valid_from == p.valid_from && q.valid_to == p.valid_to;
            let replaces = if let Some((now, _)) = plan.unchanged.iter().find(|(_, t)| same(t)) {
                // the same days and IBC: added again, it replaces the one in force
                vec![format!(
                    "del {} al {} ({}; mismos días e IBC)",
                    fecha(now.valid_from),
                    fecha(now.valid_to),
                    views::resolucion(&now.resolution)
                )]
            } else if let Some((_, old)) = plan.superseding.iter().find(|(t, _)| same(t)) {
                old.iter().map(|(o, q)| said(q, o)).collect()
            } else {
                Vec::new()
            };
            Change {
                period: p,
                replaces,
            }
        })
        .collect();
    Ok(Review { changes, warnings })
}

/// The file tried (rolled back, `write` false) or added: the register's refusal, if any, in
/// `errors`.
fn add_run(
    s: &mut Store,
    officer: &str,
    periods: &[RatePeriod],
    reason: Option<&str>,
    write: bool,
) -> Result<Result<usize, register::Error>, WebError> {
    let run = |tx: &mut store::Tx<'_>| register::rates::add_all(tx, periods, reason, None);
    let r = if write {
        s.write::<_, register::Error>(officer, run)
    } else {
        dry_run(s, officer, run)
    };
    Ok(r.map(|added| added.len()))
}

fn preview(
    user: &User,
    name: &str,
    r: &Review,
    token: &str,
    errors: &Errors,
    typed: &Confirm,
) -> Markup {
    let overlaps = r.changes.iter().any(|c| !c.replaces.is_empty());
    let reason = Field::SupersedeReason.as_str();
    // a refusal of anything but the reason: the register would refuse the file as it is
    let refused = !errors.general.is_empty();
    errors.placed(|| {
        html! {
            p.ok role="status" {
                "El archivo «" (name) "» se leyó sin problemas: "
                (views::cuenta(r.changes.len() as u64, "período", "períodos")) ". Nada se ha escrito todavía."
            }
            @for w in &r.warnings { p.aviso role="alert" { "Atención: " (w) "." } }
            (errors.general())
            div.tabla {
                table.filas-leidas {
                    caption { "Los períodos como se leyeron y lo que cambian" }
                    thead { tr {
                        th.num scope="col" { "Línea" } th scope="col" { "Desde" } th scope="col" { "Hasta" }
                        th.num scope="col" { "IBC % EA" } th.num scope="col" { "Usura % EA" } th.num scope="col" { "Moratoria % EA" }
                        th scope="col" { "Resolución" } th scope="col" { "Cambio en la serie vigente" }
                    } }
                    tbody {
                        @for c in &r.changes {
                            @let p = &c.period;
                            tr class=[(!c.replaces.is_empty()).then_some("con-problema")] {
                                td.num { (p.line) } td { (fecha(p.valid_from)) } td { (fecha(p.valid_to)) }
                                td.num { @if let Some(i) = p.ibc_ea_pct { (views::tasa(i)) } }
                                td.num { @if let Some(u) = p.usury_ea_pct { (views::tasa(u)) } }
                                td.num { (views::tasa(p.moratorium_ea_pct())) }
                                td { (views::resolucion(&p.resolution)) }
                                td { @if c.replaces.is_empty() { "Nuevo" } @else { "Reemplaza " @for (k, q) in c.replaces.iter().enumerate() { @if k > 0 { "; " } (q) } } }
                            }
                        }
                    }
                }
            }
            @if refused {
                p.nota { "El registro rechazaría este archivo: corríjalo y vuelva a subirlo." }
            } @else {
                form method="post" action="/tasas/importar/confirmar" {
                    (csrf(user))
                    input type="hidden" name=(Confirm::TOKEN) value=(token);
                    @if overlaps {
                        (input(reason, views::field_label(Field::SupersedeReason), &typed.reason, errors.get(reason),
                            Some("obligatorio: hay períodos que reemplazan otros vigentes, que salen de la serie y quedan en el registro")))
                    }
                    div.acciones { button type="submit" { "Agregar " (views::cuenta(r.changes.len() as u64, "período", "períodos")) } }
                }
            }
            p { a href="/tasas/importar" { "Subir otro archivo" } }
        }
    })
}

async fn rates_upload(
    State(app): State<Arc<App>>,
    user: User,
    mp: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(mp).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Admin)?;
    let refused = |user: &User, problems: Vec<String>| {
        with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(
                Some(user),
                TITLE,
                html! {
                    @for p in &problems { p.error role="alert" { (views::sentence(p)) } }
                    (upload(user))
                },
            ),
        )
    };
    let Some(received) = up.received() else {
        return refused(
            &user,
            vec!["Elija el archivo de tasas; no se subió ninguno.".into()],
        );
    };
    let (name, bytes) = (received.name.clone(), received.read().await?);
    let Ok(text) = String::from_utf8(bytes) else {
        return refused(
            &user,
            vec![format!(
                "El archivo «{name}» no está en UTF-8: guárdelo como CSV UTF-8 y vuelva a subirlo"
            )],
        );
    };
    let (periods, warnings) = match read(&text, &name) {
        Ok(r) => r,
        Err(mut problems) => {
            problems.insert(
                0,
                format!(
                    "El archivo «{name}» tiene {}; nada se escribió",
                    views::cuenta(problems.len() as u64, "problema", "problemas")
                ),
            );
            return refused(&user, problems);
        }
    };
    let officer = user.name.clone();
    let (r, tried) = app
        .db(move |s| {
            let tried = add_run(s, &officer, &periods, None, false)?;
            Ok((review(s, periods, warnings)?, tried))
        })
        .await?;
    let mut errors = Errors::default();
    if let Err(e) = tried {
        errors.register(e)?;
    }
    let token = auth::token();
    if errors.general.is_empty() {
        app.keep_reviewed(
            user.token(),
            KIND,
            PendingImport {
                token: token.clone(),
                program: String::new(),
                name: name.clone(),
                bytes: Arc::new(text.into_bytes()),
            },
        );
    }
    // an overlap is refused without the reason the confirmation asks for: no message yet
    let errors = if errors.general.is_empty() {
        Errors::default()
    } else {
        errors
    };
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    with_status(
        status,
        page(
            Some(&user),
            TITLE,
            preview(&user, &name, &r, &token, &errors, &Confirm::default()),
        ),
    )
}

async fn rates_confirm(State(app): State<Arc<App>>, user: User, sent: Posted<Confirm>) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let pending = app
        .take_reviewed(user.token(), KIND, &f.token)
        .ok_or_else(|| {
            WebError::bad_request(
                "No hay un archivo de tasas revisado pendiente de confirmar; súbalo de nuevo.",
            )
        })?;
    let text = String::from_utf8_lossy(&pending.bytes).into_owned();
    let (periods, warnings) = read(&text, &pending.name).map_err(|ps| {
        WebError::internal(format!("a reviewed rates file no longer reads: {ps:?}"))
    })?;
    let officer = user.name.clone();
    let reason = Some(f.reason.trim().to_string()).filter(|r| !r.is_empty());
    let (r, done) = app
        .db(move |s| {
            let done = add_run(s, &officer, &periods, reason.as_deref(), true)?;
            Ok((review(s, periods, warnings)?, done))
        })
        .await?;
    match done {
        Ok(n) => ok(page(
            Some(&user),
            TITLE,
            html! {
                p.ok role="status" {
                    "Importado «" (pending.name) "»: " (views::cuenta(n as u64, "período agregado", "períodos agregados")) " a la serie."
                }
                p { a href="/tasas" { "Ver la serie vigente" } }
            },
        )),
        Err(e) => {
            // the same review again, the refusal beside the input that caused it
            let mut errors = Errors::default();
            errors.register(e)?;
            let token = pending.token.clone();
            let name = pending.name.clone();
            app.keep_reviewed(user.token(), KIND, pending);
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(
                    Some(&user),
                    TITLE,
                    preview(&user, &name, &r, &token, &errors, &f),
                ),
            )
        }
    }
}
