//! `/prendas/importar`: a file of pledges (CSV or a workbook's first sheet, read as `vigia pledge
//! import` reads it: `crate::import::each_pledge`), every row shown as read (which adjudication
//! and holder, degree, date, lender, shares) with the problems of its line beside it, the file
//! tried in a transaction rolled back (`register::pledge::import`, the command line's call); once
//! it has no problem, the same bytes imported on confirmation in one transaction.

use super::auth::{self, PendingImport, User};
use super::form::{Inputs, Page, Posted, Sent, dry_run, ok, read_upload, upload_form, with_status};
use super::views::{self, csrf, fecha, numero, page};
use super::{App, WebError};
use crate::import::{PledgeOf, PledgeRow, RowError};
use crate::lang::Lang;
use crate::register;
use crate::register::user::Role;
use crate::store::pledges::PledgesImported;
use crate::store::{self, Store, StoreError};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/prendas/importar", get(pledges_page).post(pledges_upload))
        .route("/prendas/importar/confirmar", post(pledges_confirm))
}

/// Rows of a file shown as read (all are counted; every problem is listed).
const ROWS_SHOWN: usize = 200;

/// What a review of this page is kept under in [`App::reviewed`].
const KIND: &str = "prendas";

const TITLE: &str = "Importar prendas";

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

fn upload(user: &User) -> Markup {
    html! {
        p {
            "Archivo CSV (UTF-8 o la exportación de Excel es-CO con «;») o libro de Excel o LibreOffice "
            "(.xlsx, .xls, .ods: su primera hoja) con las prendas, con los encabezados de la plantilla de "
            "«vigia template pledges»: " (columns(&["rank", "registered_on"]))
            " y " (columns(&["adjudication_id"])) " o el documento del titular " (columns(&["doc_type", "doc_number"]))
            " (con " (columns(&["adjudicated_on"])) " y " (columns(&["program"])) " si tiene varias adjudicaciones); si aplica, "
            (columns(&["lender", "shares"])) ". También se aceptan sin tildes, en mayúsculas o minúsculas, y los nombres "
            "en inglés que escribe vigia (" code { "rank, registered_on, adjudication_id, doc_type, doc_number, adjudicated_on, program, lender, shares" } "). "
            "Cada fila sigue las reglas de «Registrar prenda». Primero se muestra cada "
            "fila como se leyó, con sus problemas; nada se escribe hasta que usted confirme, y todo o nada. "
            "El mismo archivo dos veces no agrega nada."
        }
        (upload_form(user, "/prendas/importar", "Archivo de prendas", html! {}, "Revisar el archivo"))
    }
}

/// Columns by the Spanish headers the template writes: «Grado; Fecha inscripción».
fn columns(names: &[&str]) -> Markup {
    let spanish: Vec<&str> = names.iter().map(|n| crate::headers::spanish(n)).collect();
    html! { "«" code { (spanish.join("; ")) } "»" }
}

async fn pledges_page(user: User) -> Page {
    user.require(Role::Oficial)?;
    ok(page(Some(&user), TITLE, upload(&user)))
}

/// The adjudication and holder a row names, as the register has them (when it does).
struct Named {
    adjudication: Option<i64>,
    holder: String,
}

/// A row as read, with what the register says it names.
struct Shown {
    row: PledgeRow,
    named: Named,
}

/// What a review or an import of a file came to.
enum Outcome {
    /// Every row accepted: pledges added (or to add), rows already registered, the rows shown.
    Read {
        added: usize,
        unchanged: usize,
        total: usize,
        rows: Vec<Shown>,
    },
    /// The same file was imported before: nothing added.
    Already(String),
    /// The rows as read (the first [`ROWS_SHOWN`]), how many there were, every problem.
    Problems(Vec<Shown>, usize, Vec<store::Problem>),
}

/// Whom a row names, looked up in the register (read only; a name not found is left to the
/// rules, which say why).
fn named(conn: &rusqlite::Connection, row: &PledgeRow) -> Named {
    match &row.of {
        PledgeOf::Id {
            adjudication_id, ..
        } => match store::adjudications::get(conn, *adjudication_id) {
            Ok(a) => Named {
                adjudication: Some(a.id),
                holder: format!(
                    "{} {} {}",
                    a.holder.doc_type.as_str(),
                    a.holder.doc_number,
                    a.holder.name
                ),
            },
            Err(_) => Named {
                adjudication: Some(*adjudication_id),
                holder: String::new(),
            },
        },
        PledgeOf::Holder {
            doc_type,
            doc_number,
            ..
        } => {
            let name = store::holders::search(conn, doc_number, 10)
                .unwrap_or_default()
                .into_iter()
                .find(|h| h.doc_type == *doc_type && h.doc_number == *doc_number)
                .map(|h| h.name)
                .unwrap_or_default();
            Named {
                adjudication: None,
                holder: format!("{} {doc_number} {name}", doc_type.as_str())
                    .trim()
                    .to_string(),
            }
        }
    }
}

/// Reads a file of pledges and imports it (or, with `write` false, tries it inside a
/// transaction rolled back), as the command line does.
fn import_run(
    s: &mut Store,
    officer: &str,
    (name, bytes): (&str, &[u8]),
    today: NaiveDate,
    write: bool,
) -> Result<Outcome, WebError> {
    let sha = store::sha256_hex(bytes);
    let dialect = crate::import::sniff(bytes);
    // the rows go to the register as they are read (as on the command line); only the first
    // ones are kept to be shown, and the lines counted
    let mut first: Vec<PledgeRow> = Vec::new();
    let (mut read, mut unread) = (0usize, 0usize);
    let run = |tx: &mut store::Tx<'_>| {
        register::pledge::import(tx, name, &sha, dialect.encoding, bytes, today, |sink| {
            let (_, problems) = crate::import::each_pledge_in_parallel(bytes, |r| {
                read += 1;
                if first.len() < ROWS_SHOWN {
                    first.push(r.clone());
                }
                sink(r)
            })?;
            unread = problems
                .iter()
                .map(|p| p.line)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            Ok(problems)
        })
    };
    let result = if write {
        s.write::<_, register::Error>(officer, run)
    } else {
        dry_run(s, officer, run)
    };
    let total = read + unread;
    let shown: Vec<Shown> = first
        .into_iter()
        .map(|r| Shown {
            named: named(s.conn(), &r),
            row: r,
        })
        .collect();
    let whole = |es: String| store::Problem::Whole(crate::lang::Said::new(es.clone(), es));
    Ok(match result {
        Ok(PledgesImported::Added {
            pledges, unchanged, ..
        }) => Outcome::Read {
            added: pledges,
            unchanged: unchanged.count,
            total,
            rows: shown,
        },
        Ok(PledgesImported::AlreadyImported(prior)) => Outcome::Already(format!(
            "Este archivo ya se importó (importación de prendas {} del {} por {}): no se agrega nada.",
            prior.import_id,
            views::momento(&prior.at),
            prior.by
        )),
        Err(register::Error::Store(StoreError::Rejected(ps))) => {
            Outcome::Problems(shown, total, ps)
        }
        Err(register::Error::Store(e)) => return Err(e.into()),
        Err(register::Error::Refused(r)) => {
            Outcome::Problems(shown, total, vec![whole(views::refusal_text(&r))])
        }
        Err(register::Error::Refusals(rs)) => Outcome::Problems(
            shown,
            total,
            rs.iter().map(|r| whole(views::refusal_text(r))).collect(),
        ),
        Err(register::Error::Fine(f)) => {
            Outcome::Problems(shown, total, vec![whole(views::fine_error_text(&f))])
        }
    })
}

/// The problems of a line.
fn line_problems(problems: &[store::Problem], line: usize) -> Vec<&RowError> {
    problems
        .iter()
        .filter_map(|p| match p {
            store::Problem::Row(r) if r.line == line => Some(r),
            _ => None,
        })
        .collect()
}

fn degree(rank: u8) -> &'static str {
    match rank {
        1 => "1 (primer grado)",
        _ => "2 (segundo grado)",
    }
}

/// The rows as read, each with the problems of its line beside it; a line that could not be
/// read at all shows its problems only (it has no row to show).
fn rows_table(rows: &[Shown], problems: &[store::Problem]) -> Markup {
    let shown_lines: std::collections::BTreeSet<usize> = rows.iter().map(|s| s.row.line).collect();
    let last = rows.last().map_or(usize::MAX, |s| s.row.line);
    let mut unread: Vec<usize> = problems
        .iter()
        .filter_map(|p| match p {
            store::Problem::Row(r) if !shown_lines.contains(&r.line) && r.line <= last => {
                Some(r.line)
            }
            _ => None,
        })
        .collect();
    unread.dedup();
    let mut lines: Vec<(usize, Option<&Shown>)> = rows
        .iter()
        .map(|s| (s.row.line, Some(s)))
        .chain(unread.iter().map(|&l| (l, None)))
        .collect();
    lines.sort_by_key(|(l, _)| *l);
    lines.dedup_by_key(|(l, _)| *l);
    html! {
        div.tabla.desplazable {
            table.filas-leidas {
                caption { "Las filas como se leyeron" }
                thead { tr {
                    th.num scope="col" { "Línea" } th scope="col" { "Titular" } th.num scope="col" { "Adjudicación" }
                    th scope="col" { "Grado" } th scope="col" { "Inscrita el" } th scope="col" { "Prestamista" }
                    th.num scope="col" { "Acciones" } th scope="col" { "Problemas" }
                } }
                tbody {
                    @for (line, s) in &lines {
                        @let mine = line_problems(problems, *line);
                        tr class=[(!mine.is_empty()).then_some("con-problema")] {
                            td.num { (line) }
                            @if let Some(s) = s {
                                td { (s.named.holder)
                                     @if let PledgeOf::Holder { adjudicated_on: Some(d), .. } = &s.row.of { br; "adjudicada el " (fecha(*d)) }
                                     @if let PledgeOf::Holder { program: Some(p), .. } = &s.row.of { br; "programa " (views::ident(p)) } }
                                td.num { @if let Some(a) = s.named.adjudication { (a) } }
                                td { (degree(s.row.rank)) }
                                td { (fecha(s.row.registered_on)) }
                                td { (s.row.lender.as_deref().unwrap_or("el de la adjudicación")) }
                                td.num { @match s.row.shares { Some(n) => (numero(n)), None => "todas las no pignoradas" } }
                            } @else {
                                td colspan="6" { "(la fila no pudo leerse)" }
                            }
                            td { @for e in &mine { (e.field_in(Lang::Es)) " «" (e.value) "»: " (views::razon_fila(e)) br; } }
                        }
                    }
                }
            }
        }
    }
}

/// The problems not beside a row shown: the whole file's, and those of lines past the rows shown.
fn other_problems(rows: &[Shown], problems: &[store::Problem]) -> Markup {
    let last = rows.last().map_or(0, |s| s.row.line);
    let rest: Vec<&store::Problem> = problems
        .iter()
        .filter(|p| match p {
            store::Problem::Row(r) => rows.is_empty() || r.line > last,
            store::Problem::Whole(_) => true,
        })
        .collect();
    html! {
        @if !rest.is_empty() {
            ul.problemas { @for p in rest { li { (views::problema(p)) } } }
        }
    }
}

/// What the table leaves out: said once it holds as many rows as it shows (the lines past them
/// that could not be read are listed with their problems above it).
fn more(total: usize, shown: usize) -> Markup {
    html! {
        @if shown == ROWS_SHOWN && total > shown {
            p.nota { "Se muestran las primeras " (numero(shown as u64)) " filas leídas de " (numero(total as u64)) "." }
        }
    }
}

async fn pledges_upload(
    State(app): State<Arc<App>>,
    user: User,
    mp: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(mp).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Oficial)?;
    let Some(received) = up.received() else {
        let body = html! {
            p.error role="alert" { "Elija el archivo de prendas; no se subió ninguno." }
            (upload(&user))
        };
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), TITLE, body),
        );
    };
    let (name, bytes) = (received.name.clone(), received.read().await?);
    // a workbook's first sheet, read as the command line reads it; one it cannot read is the
    // file's one problem
    let converted = crate::workbook::as_csv(&bytes, None).map(std::borrow::Cow::into_owned);
    let officer = user.name.clone();
    let today = app.today();
    let (outcome, bytes) = match converted {
        Ok(csv) => {
            let bytes = Arc::new(csv);
            let (b2, n2) = (Arc::clone(&bytes), name.clone());
            let o = app
                .db(move |s| import_run(s, &officer, (&n2, &b2), today, false))
                .await?;
            (o, bytes)
        }
        Err(why) => (
            Outcome::Problems(Vec::new(), 0, vec![store::Problem::Whole(why)]),
            Arc::new(Vec::new()),
        ),
    };
    let (status, body) = match outcome {
        Outcome::Read {
            added,
            unchanged,
            total,
            rows,
        } => {
            let token = auth::token();
            app.keep_reviewed(
                user.token(),
                KIND,
                PendingImport {
                    token: token.clone(),
                    program: String::new(),
                    name: name.clone(),
                    bytes,
                },
            );
            (
                StatusCode::OK,
                html! {
                    p.ok role="status" {
                        "El archivo «" (name) "» no tiene problemas: "
                        (views::cuenta(added as u64, "prenda", "prendas")) " por registrar"
                        @if unchanged > 0 { " y " (views::cuenta(unchanged as u64, "fila ya registrada", "filas ya registradas")) " (sin cambios)" }
                        ". Nada se ha escrito todavía."
                    }
                    (rows_table(&rows, &[]))
                    (more(total, rows.len()))
                    form method="post" action="/prendas/importar/confirmar" {
                        (csrf(&user))
                        input type="hidden" name=(Confirm::TOKEN) value=(token);
                        div.acciones { button type="submit" { "Confirmar la importación" } }
                    }
                },
            )
        }
        Outcome::Already(t) => (StatusCode::OK, html! { p.aviso { (t) } }),
        Outcome::Problems(rows, total, ps) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            html! {
                p.error role="alert" {
                    "El archivo «" (name) "» tiene " (views::cuenta(ps.len() as u64, "problema", "problemas"))
                    "; nada se escribió. " (if ps.len() == 1 { "Corríjalo" } else { "Corríjalos" }) " y vuelva a subirlo."
                }
                (other_problems(&rows, &ps))
                @if !rows.is_empty() { (rows_table(&rows, &ps)) (more(total, rows.len())) }
                (upload(&user))
            },
        ),
    };
    with_status(status, page(Some(&user), TITLE, body))
}

async fn pledges_confirm(State(app): State<Arc<App>>, user: User, sent: Posted<Confirm>) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let pending = app
        .take_reviewed(user.token(), KIND, &f.token)
        .ok_or_else(|| {
            WebError::bad_request(
                "No hay un archivo de prendas revisado pendiente de confirmar; súbalo de nuevo.",
            )
        })?;
    let officer = user.name.clone();
    let today = app.today();
    let p = pending.clone();
    let outcome = app
        .db(move |s| import_run(s, &officer, (&p.name, &p.bytes), today, true))
        .await?;
    let (status, body) = match outcome {
        Outcome::Read {
            added, unchanged, ..
        } => (
            StatusCode::OK,
            html! {
                p.ok role="status" {
                    "Importado «" (pending.name) "»: " (views::cuenta(added as u64, "prenda registrada", "prendas registradas"))
                    @if unchanged > 0 { "; " (views::cuenta(unchanged as u64, "fila ya estaba registrada", "filas ya estaban registradas")) }
                    "."
                }
                p { a href="/titulares" { "Ir a los titulares" } }
            },
        ),
        Outcome::Already(t) => (StatusCode::OK, html! { p.aviso { (t) } }),
        Outcome::Problems(_, _, ps) => (
            StatusCode::CONFLICT,
            html! {
                p.error role="alert" { "El registro cambió desde la revisión; nada se escribió:" }
                ul { @for p in &ps { li { (views::problema(p)) } } }
            },
        ),
    };
    with_status(status, page(Some(&user), TITLE, body))
}
