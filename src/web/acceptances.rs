//! `/programas/{code}/aceptaciones`: a file of acceptances of the program's offer (CSV or a
//! workbook's first sheet, as `vigia acceptances import` reads it) tried first in a transaction
//! rolled back, every problem listed by line; once it has none, the same bytes imported on
//! confirmation (kept for the session meanwhile). The register's rules refuse a file before the
//! offer is open or after it was adjudicated.

use super::auth::{self, PendingImport, User};
use super::extract::Path;
use super::form::{Inputs, Page, Posted, Sent, dry_run, ok, read_upload, upload_form, with_status};
use super::views::{self, csrf, numero, page, pesos};
use super::{App, WebError};
use crate::lang::Lang;
use crate::offering::file::AcceptanceRow;
use crate::register;
use crate::register::user::Role;
use crate::store::offering::ImportedAcceptances;
use crate::store::{self, Store, StoreError, programs};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(
            "/programas/{code}/aceptaciones",
            get(acceptances_page).post(acceptances_upload),
        )
        .route(
            "/programas/{code}/aceptaciones/confirmar",
            post(acceptances_confirm),
        )
}

/// The confirmation of a file reviewed: the token of the review kept for the session.
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

fn title(code: &str) -> views::Title {
    views::Title::naming(
        format!("Aceptaciones de la oferta del programa {code}"),
        &[code],
    )
}

fn upload(user: &User, code: &str) -> Markup {
    html! {
        p {
            "Archivo CSV (UTF-8 o la exportación de Excel es-CO con «;») o libro de Excel o LibreOffice "
            "(.xlsx, .xls, .ods: su primera hoja) con las aceptaciones de la oferta, con los encabezados "
            "en español o en inglés. Primero se muestra cada problema por línea; nada se escribe hasta "
            "que usted confirme. El mismo archivo dos veces no agrega nada."
        }
        (upload_form(user, &format!("/programas/{code}/aceptaciones"), "Archivo de aceptaciones", html! {}, "Revisar el archivo"))
        p { a href={"/programas/" (code) "/oferta"} { "Volver a la oferta" } }
    }
}

async fn acceptances_page(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
) -> Page {
    user.require(Role::Oficial)?;
    let code = app
        .db(move |s| Ok(programs::by_code(s.conn(), &code)?.program.code))
        .await?;
    ok(page(Some(&user), title(&code), upload(&user, &code)))
}

/// What a review or an import of a file of acceptances came to.
enum Outcome {
    /// Every row read: the sentence that says how many.
    Read(String),
    /// The same file was imported before: nothing added.
    Already(String),
    /// Every problem, nothing written.
    Problems(Vec<store::Problem>),
}

/// Imports (or, with `write` false, tries inside a rolled-back transaction) a file of
/// acceptances of program `code`.
fn import_run(
    s: &mut Store,
    officer: &str,
    code: &str,
    name: &str,
    bytes: &[u8],
    write: bool,
) -> Result<Outcome, WebError> {
    let whole = |es: String| {
        Outcome::Problems(vec![store::Problem::Whole(crate::lang::Said::new(
            es.clone(),
            es,
        ))])
    };
    let p = programs::by_code(s.conn(), code)?;
    let sha = store::sha256_hex(bytes);
    let dialect = crate::import::sniff(bytes);
    let run = |tx: &mut store::Tx<'_>| {
        register::offering::import(
            tx,
            &p,
            name,
            &sha,
            dialect.encoding,
            bytes,
            |prepare, rows| {
                Ok(crate::offering::file::each_in_parallel(bytes, &p.program, prepare, rows)?.1)
            },
        )
    };
    let result = if write {
        s.write::<_, register::Error>(officer, run)
    } else {
        dry_run(s, officer, run)
    };
    Ok(match result {
        Ok(ImportedAcceptances::Added { rows, .. }) => Outcome::Read(format!(
            "{} {}.",
            views::cuenta(rows as u64, "aceptación", "aceptaciones"),
            if write { "agregadas" } else { "por agregar" }
        )),
        Ok(ImportedAcceptances::AlreadyImported(prior)) => Outcome::Already(format!(
            "Este archivo ya se importó (importación {} del {} por {}): no se agrega nada.",
            prior.import_id,
            views::momento(&prior.at),
            prior.by
        )),
        Err(register::Error::Store(StoreError::Rejected(ps))) => Outcome::Problems(ps),
        Err(register::Error::Store(e)) => return Err(e.into()),
        Err(register::Error::Refused(r)) => whole(views::refusal_text(&r)),
        Err(register::Error::Refusals(rs)) => whole(
            rs.iter()
                .map(views::refusal_text)
                .collect::<Vec<_>>()
                .join("; "),
        ),
        Err(register::Error::Fine(f)) => whole(views::fine_error_text(&f)),
    })
}

/// How many rows of a file the review shows as read (a national offering has a million).
const ROWS_SHOWN: usize = 200;

/// The first [`ROWS_SHOWN`] rows of `bytes` that could be read, read as the import reads them (a
/// row with a problem is not among them: its line is in the problems' table).
fn rows_read(s: &Store, code: &str, bytes: &[u8]) -> Result<Vec<AcceptanceRow>, WebError> {
    let p = programs::by_code(s.conn(), code)?;
    let mut rows = Vec::new();
    // the reading stops at the first row past those shown (an error of `f` stops it)
    let _stopped = crate::offering::file::each(bytes, &p.program, |row| {
        if rows.len() == ROWS_SHOWN {
            return Err(());
        }
        rows.push(row);
        Ok(())
    });
    Ok(rows)
}

fn yes(b: bool) -> &'static str {
    if b { "sí" } else { "no" }
}

/// The rows as read, with the problems of each line beside it.
fn rows_table(rows: &[AcceptanceRow], problems: &[store::Problem]) -> Markup {
    let of_line = |line: usize| -> Vec<String> {
        problems
            .iter()
            .filter_map(|p| match p {
                store::Problem::Row(r) if r.line == line => Some(format!(
                    "{} «{}»: {}",
                    r.field_in(Lang::Es),
                    r.value,
                    views::razon_fila(r)
                )),
                _ => None,
            })
            .collect()
    };
    let money = |x: Option<rust_decimal::Decimal>| x.map(pesos).unwrap_or_default();
    html! {
        div.tabla.desplazable {
            table.filas-leidas {
                caption {
                    "Las filas como se leyeron"
                    @if rows.len() == ROWS_SHOWN { " (las primeras " (numero(ROWS_SHOWN as u64)) ")" }
                }
                thead { tr {
                    th.num scope="col" { "Línea" } th scope="col" { "Radicada" } th scope="col" { "Documento" } th scope="col" { "Nombre" }
                    th scope="col" { "Persona" } th scope="col" { "Categoría" } th.num scope="col" { "Acciones" }
                    th scope="col" { "Acepta reducción" } th scope="col" { "Declara renta" } th.num scope="col" { "Patrimonio líquido" }
                    th.num scope="col" { "Ingresos" } th scope="col" { "Declaraciones" } th scope="col" { "Revisión" }
                    th scope="col" { "Acreedor" } th.num scope="col" { "Acciones financiadas" } th scope="col" { "Problemas" }
                } }
                tbody {
                    @for r in rows {
                        @let mine = of_line(r.line);
                        tr class=[(!mine.is_empty()).then_some("con-problema")] {
                            td.num { (r.line) } td { (r.filed_at.format("%d/%m/%Y %H:%M")) }
                            td { (views::documento(r.doc_type, &r.doc_number)) } td { (r.name) }
                            td { (r.person_type.name_es()) } td { (r.category) } td.num { (numero(r.shares)) }
                            td { (yes(r.accepts_reduction)) } td { (yes(r.files_tax_return)) }
                            td.num { (money(r.patrimonio_liquido)) } td.num { (money(r.income)) }
                            td { (yes(r.declarations)) } td { @if let Some(c) = r.review { (c.label_es()) } }
                            td { (r.lender.as_deref().unwrap_or("")) }
                            td.num { @if r.financed_shares > 0 { (numero(r.financed_shares)) } }
                            td { @for e in &mine { (e) br; } }
                        }
                    }
                }
            }
        }
    }
}

/// The problems of a file, by line, as the page lists them.
fn problems_table(name: &str, problems: &[store::Problem]) -> Markup {
    html! {
        p.error role="alert" {
            "El archivo «" (name) "» tiene " (views::cuenta(problems.len() as u64, "problema", "problemas"))
            "; nada se escribió. " (if problems.len() == 1 { "Corríjalo" } else { "Corríjalos" }) " y vuelva a subirlo."
        }
        table.problemas {
            thead { tr { th.num scope="col" { "Línea" } th scope="col" { "Columna" } th scope="col" { "Valor" } th scope="col" { "Problema" } } }
            tbody {
                @for p in problems {
                    @match p {
                        store::Problem::Row(r) => tr { td.num { (r.line) } td { (r.field_in(Lang::Es)) } td { (r.value) } td { (views::razon_fila(r)) } },
                        store::Problem::Whole(w) => tr { td.num {} td {} td {} td { (w.es()) } },
                    }
                }
            }
        }
    }
}

async fn acceptances_upload(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Oficial)?;
    let Some(received) = up.received() else {
        let body = html! {
            p.error role="alert" { "Elija el archivo de aceptaciones; no se subió ninguno." }
            (upload(&user, &code))
        };
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), title(&code), body),
        );
    };
    // written to a temporary file as it arrived; read when parsed
    let (name, bytes) = (received.name.clone(), received.read().await?);
    // a workbook's first sheet, read as the command line reads it; one it cannot read is the
    // file's one problem
    let converted = crate::workbook::as_csv(&bytes, None).map(std::borrow::Cow::into_owned);
    let officer = user.name.clone();
    let (outcome, bytes, rows) = match converted {
        Ok(csv) => {
            let bytes = Arc::new(csv);
            let (b2, c2, n2) = (Arc::clone(&bytes), code.clone(), name.clone());
            let (o, rows) = app
                .db(move |s| {
                    let o = import_run(s, &officer, &c2, &n2, &b2, false)?;
                    Ok((o, rows_read(s, &c2, &b2)?))
                })
                .await?;
            (o, bytes, rows)
        }
        Err(why) => (
            Outcome::Problems(vec![store::Problem::Whole(why)]),
            Arc::new(Vec::new()),
            Vec::new(),
        ),
    };
    let (status, body) = match outcome {
        Outcome::Read(summary) => {
            let token = auth::token();
            if let Ok(mut pending) = app.acceptances.lock() {
                pending.insert(
                    user.token().to_string(),
                    PendingImport {
                        token: token.clone(),
                        program: code.clone(),
                        name: name.clone(),
                        bytes,
                    },
                );
            }
            (
                StatusCode::OK,
                html! {
                    p.ok role="status" { "El archivo «" (name) "» no tiene problemas: " (summary) " Nada se ha escrito todavía." }
                    (rows_table(&rows, &[]))
                    form method="post" action={"/programas/" (code) "/aceptaciones/confirmar"} {
                        (csrf(&user))
                        input type="hidden" name=(Confirm::TOKEN) value=(token);
                        div.acciones { button type="submit" { "Confirmar la importación" } }
                    }
                },
            )
        }
        Outcome::Already(m) => (StatusCode::OK, html! { p.aviso { (m) } }),
        Outcome::Problems(ps) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            html! {
                (problems_table(&name, &ps))
                @if !rows.is_empty() { (rows_table(&rows, &ps)) }
                (upload(&user, &code))
            },
        ),
    };
    with_status(status, page(Some(&user), title(&code), body))
}

async fn acceptances_confirm(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    sent: Posted<Confirm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let pending = app
        .acceptances
        .lock()
        .ok()
        .and_then(|mut p| p.remove(user.token()))
        .filter(|p| p.token == f.token && p.program == code)
        .ok_or_else(|| {
            WebError::bad_request(
                "No hay un archivo de aceptaciones revisado pendiente de confirmar; súbalo de nuevo.",
            )
        })?;
    let officer = user.name.clone();
    let p = pending.clone();
    let outcome = app
        .db(move |s| import_run(s, &officer, &p.program, &p.name, &p.bytes, true))
        .await?;
    let (status, body) = match outcome {
        Outcome::Read(summary) => (
            StatusCode::OK,
            html! {
                p.ok role="status" { "Importado «" (pending.name) "»: " (summary) }
                p { a href={"/programas/" (code) "/oferta"} { "Volver a la oferta" } }
            },
        ),
        Outcome::Already(m) => (StatusCode::OK, html! { p.aviso { (m) } }),
        Outcome::Problems(ps) => (
            StatusCode::CONFLICT,
            html! {
                p.error role="alert" { "El registro cambió desde la revisión; nada se escribió:" }
                ul { @for p in &ps { li { (views::problema(p)) } } }
            },
        ),
    };
    with_status(status, page(Some(&user), title(&code), body))
}
