//! `/importar`: a file of adjudications (CSV or a workbook's first sheet, as `vigia adjudications
//! import` reads it) tried in a transaction rolled back, every problem listed by line; once it
//! has none, the same bytes imported on confirmation (kept in the session meanwhile).

use super::auth::{self, PendingImport, User};
use super::form::{
    Inputs, Page, Posted, Sent, dry_run, ok, program_codes, read_upload, upload_form, with_status,
};
use super::views::{self, csrf, page};
use super::{App, WebError};
use crate::lang::Lang;
use crate::register;
use crate::register::user::Role;
use crate::store::{self, Store, StoreError, programs};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/importar", get(import_page).post(import_upload))
        .route("/importar/confirmar", post(import_confirm))
}

/// The upload form's program input.
const PROGRAM: &str = "programa";

/// The confirmation of a file reviewed: the token of the review kept in the session.
struct Confirm {
    token: String,
}

impl Confirm {
    const TOKEN: &str = "token";
}

impl Inputs for Confirm {
    fn read(sent: &Sent) -> Confirm {
        Confirm {
            token: sent.text(Confirm::TOKEN),
        }
    }
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
        div.campo { label for=(PROGRAM) { "Programa" } select id=(PROGRAM) name=(PROGRAM) { @for c in codes { option value=(c) selected[c == chosen] { (c) } } } }
    };
    html! {
        p { "Archivo CSV (UTF-8 o la exportación de Excel es-CO con «;») o libro de Excel o LibreOffice (.xlsx, .xls, .ods: su primera hoja), con los encabezados en español o en inglés. Primero se muestra cada problema por línea; nada se escribe hasta que usted confirme." }
        (upload_form(user, "/importar", "Archivo de adjudicaciones", extra, "Revisar el archivo"))
        p { "Las prendas de adjudicaciones ya registradas se importan en " a href="/prendas/importar" { "Importar prendas" } "." }
    }
}

async fn import_upload(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Oficial)?;
    let program = up.fields.text(PROGRAM);
    let Some(received) = up.received() else {
        let codes = program_codes(&app).await?;
        let body = html! {
            p.error role="alert" { "Elija el archivo a importar; no se subió ninguno." }
            (import_form(&user, &codes, &program))
        };
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), "Importar adjudicaciones", body),
        );
    };
    // written to a temporary file as it arrived; read when parsed
    let (name, bytes) = (received.name.clone(), received.read().await?);
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
                    input type="hidden" name=(Confirm::TOKEN) value=(token);
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
                thead { tr { th.num scope="col" { "Línea" } th scope="col" { "Columna" } th scope="col" { "Valor" } th scope="col" { "Problema" } } }
                tbody {
                    @for p in &problems {
                        @match p {
                            store::Problem::Row(r) => tr { td.num { (r.line) } td { (r.field_in(Lang::Es)) } td { (r.value) } td { (views::razon_fila(r)) } },
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
        register::adjudication::import(tx, &p, name, &sha, dialect.encoding, bytes, |sink| {
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

async fn import_confirm(State(app): State<Arc<App>>, user: User, sent: Posted<Confirm>) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let pending = app
        .sessions
        .pending(user.token())
        .filter(|p| p.token == f.token)
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
            html! { p.error role="alert" { "El registro cambió desde la revisión; nada se escribió:" } ul { @for p in &ps { li { (views::problema(p)) } } } }
        }
    };
    ok(page(Some(&user), "Importar adjudicaciones", body))
}
