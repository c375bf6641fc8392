//! `/programas/{code}/etapas/{n}/propuestas`: a file of proposals of a later stage (CSV or a
//! workbook's first sheet, read as `vigia proposals import` reads it): every row shown as read,
//! with the problems of its line, and the file tried in a transaction rolled back
//! (`register::stage::import`, the command line's call); once it has no problem, the same bytes
//! imported on confirmation (kept for the session meanwhile). The register refuses a file before
//! a tranche is open, once a tie round began, or after the stage concluded.

use super::auth::{self, PendingImport, User};
use super::extract::Path;
use super::form::{Inputs, Page, Posted, Sent, dry_run, ok, read_upload, upload_form, with_status};
use super::stages_markup::stage_of;
use super::views::{self, PesosColumn, csrf, numero, page};
use super::{App, WebError};
use crate::import::RowError;
use crate::lang::Lang;
use crate::later_stages::Stage;
use crate::offering::proposals::ProposalRow;
use crate::register;
use crate::register::stage::{self as rules, Imported};
use crate::register::user::Role;
use crate::store::{self, Store, StoreError};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(
            "/programas/{code}/etapas/{n}/propuestas",
            get(proposals_page).post(proposals_upload),
        )
        .route(
            "/programas/{code}/etapas/{n}/propuestas/confirmar",
            post(proposals_confirm),
        )
}

/// Rows of a file shown as read (all are counted).
const ROWS_SHOWN: usize = 200;

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

fn base(code: &str, stage: Stage) -> String {
    format!("/programas/{code}/etapas/{stage}")
}

fn title(code: &str, stage: Stage) -> views::Title {
    let text = format!(
        "Propuestas de la {} Etapa del programa {code}",
        stage.name_es()
    );
    views::Title::naming(text, &[code])
}

/// What the pending review is kept under: the program and the stage.
fn pending_key(code: &str, stage: Stage) -> String {
    format!("{code}/{stage}")
}

fn upload(user: &User, code: &str, stage: Stage) -> Markup {
    let base = base(code, stage);
    html! {
        p {
            "Archivo CSV (UTF-8 o la exportación de Excel es-CO con «;») o libro de Excel o LibreOffice "
            "(.xlsx, .xls, .ods: su primera hoja) con las propuestas de la etapa: columnas "
            code { "Propuesta; Fecha radicación; Proponentes; Acciones; Precio por acción; Plazo días" }
            " y, si aplica, " code { "Beneficiario real; Garantía; Fondos acreditados; Revisión; Tramo" }
            " (en cualquier orden; también sus nombres en inglés: " code { "proposal, filed_at, bidders, …" } "). "
            code { "Proponentes" } ": "
            code { "TIPO:NÚMERO:NOMBRE" } ", varios separados por «|» (una propuesta conjunta). "
            "Primero se muestra cada fila como se leyó, con sus problemas; nada se escribe hasta que usted "
            "confirme. El mismo archivo dos veces no agrega nada."
        }
        (upload_form(user, &format!("{base}/propuestas"), "Archivo de propuestas", html! {}, "Revisar el archivo"))
        p { a href=(base) { "Volver a la etapa" } }
    }
}

async fn proposals_page(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
) -> Page {
    user.require(Role::Oficial)?;
    let (code, stage) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            Ok((p.program.code, stage))
        })
        .await?;
    ok(page(
        Some(&user),
        title(&code, stage),
        upload(&user, &code, stage),
    ))
}

/// What a review or an import of a file came to.
enum Outcome {
    /// Every row read and accepted: how many, and the rows as read.
    Read(usize, Vec<ProposalRow>),
    /// The same file was imported before: nothing added.
    Already(String),
    /// The rows as read, and every problem; nothing written.
    Problems(Vec<ProposalRow>, Vec<store::Problem>),
}

/// Reads a file of proposals and imports it (or, with `write` false, tries it inside a
/// transaction rolled back) into stage `stage` of program `code`, as the command line does.
fn import_run(
    s: &mut Store,
    officer: &str,
    (code, n): (&str, u8),
    (name, bytes, workbook): (&str, &[u8], bool),
    write: bool,
) -> Result<Outcome, WebError> {
    let (p, stage) = stage_of(s, code, n)?;
    let sha = store::sha256_hex(bytes);
    let dialect = crate::import::sniff(bytes);
    let encoding = if workbook {
        "workbook"
    } else {
        dialect.encoding
    };
    let mut shown: Vec<ProposalRow> = Vec::new();
    let run = |tx: &mut store::Tx<'_>| {
        rules::import(tx, &p, stage, (name, &sha, encoding), bytes, &mut |r| {
            if shown.len() < ROWS_SHOWN {
                shown.push(r.clone());
            }
        })
    };
    let result = if write {
        s.write::<_, register::Error>(officer, run)
    } else {
        dry_run(s, officer, run)
    };
    if matches!(result, Err(register::Error::Refused(_))) && shown.is_empty() {
        // refused before a row was read (concluded, no open tranche, a tie round started): the
        // page still shows the file's first rows, read for that alone and never written
        let _stopped = crate::offering::proposals::each::<()>(bytes, |r| {
            shown.push(r);
            if shown.len() < ROWS_SHOWN {
                Ok(())
            } else {
                Err(())
            }
        });
    }
    let whole = |es: String| store::Problem::Whole(crate::lang::Said::new(es.clone(), es));
    Ok(match result {
        Ok(Imported::Added(w)) => Outcome::Read(w.rows, shown),
        Ok(Imported::AlreadyImported(prior)) => Outcome::Already(format!(
            "Este archivo ya se importó (importación {} del {} por {}): no se agrega nada.",
            prior.import_id,
            views::momento(&prior.at),
            prior.by
        )),
        Err(register::Error::Store(StoreError::Rejected(ps))) => Outcome::Problems(shown, ps),
        Err(register::Error::Store(e)) => return Err(e.into()),
        Err(register::Error::Refused(r)) => {
            Outcome::Problems(shown, vec![whole(views::refusal_text(&r))])
        }
        Err(register::Error::Refusals(rs)) => Outcome::Problems(
            shown,
            rs.iter().map(|r| whole(views::refusal_text(r))).collect(),
        ),
        Err(register::Error::Fine(f)) => {
            Outcome::Problems(shown, vec![whole(views::fine_error_text(&f))])
        }
    })
}

/// The problems of a line, as the rows' table shows them.
fn line_problems(problems: &[store::Problem], line: usize) -> Vec<&RowError> {
    problems
        .iter()
        .filter_map(|p| match p {
            store::Problem::Row(r) if r.line == line => Some(r),
            _ => None,
        })
        .collect()
}

/// The rows as read, each with the problems of its line (beside its reference, in a column only
/// when a row shown has any: a line that could not be read is only in the problems' table).
fn rows_table(rows: &[ProposalRow], problems: &[store::Problem]) -> Markup {
    let any = rows
        .iter()
        .any(|r| !line_problems(problems, r.line).is_empty());
    html! {
        div.tabla.desplazable {
            table.filas-leidas {
                caption { "Las filas como se leyeron" }
                thead { tr {
                    // a line's problems next to its reference, not past a dozen columns to scroll to
                    th.num scope="col" { "Línea" } th scope="col" { "Propuesta" }
                    @if any { th scope="col" { "Problemas" } }
                    th.num scope="col" { "Tramo" }
                    th scope="col" { "Presentada" } th scope="col" { "Proponentes" } th scope="col" { "Beneficiario real" }
                    th.num scope="col" { "Acciones" } th.num scope="col" { "Precio por acción" } th.num scope="col" { "Plazo (días)" }
                    th.num scope="col" { "Garantía" } th scope="col" { "Fondos acreditados" } th scope="col" { "Revisión" }
                } }
                @let prices = PesosColumn::of(rows.iter().map(|r| r.price_per_share));
                @let guarantees = PesosColumn::of(rows.iter().filter_map(|r| r.guarantee));
                tbody {
                    @for r in rows {
                        @let mine = line_problems(problems, r.line);
                        tr class=[(!mine.is_empty()).then_some("con-problema")] {
                            td.num { (r.line) } td { (r.reference) }
                            @if any { td.problemas-linea { @for e in &mine { (e.field_in(Lang::Es)) " «" (e.value) "»: " (e.reason.es()) br; } } }
                            td.num { (r.tranche) }
                            td { (r.filed_at.format("%d/%m/%Y %H:%M")) }
                            td.proponentes { @for (k, b) in r.bidders.iter().enumerate() { @if k > 0 { br; } (views::documento(b.doc_type, &b.doc_number)) " " (b.name) } }
                            td { (r.beneficial_owner.as_deref().unwrap_or("")) }
                            td.num { (numero(r.shares)) } td.num { (prices.show(r.price_per_share)) } td.num { (r.term_days) }
                            td.num { @if let Some(g) = r.guarantee { (guarantees.show(g)) } }
                            td { @if r.funds_accredited { "sí" } @else { "no" } }
                            td { (r.review.as_deref().unwrap_or("")) }
                        }
                    }
                }
            }
        }
    }
}

/// Every problem of a file, by line, as the page lists them (lines that could not be read at all
/// appear only here).
fn problems_table(name: &str, problems: &[store::Problem]) -> Markup {
    html! {
        p.error role="alert" {
            "El archivo «" (name) "» tiene " (views::cuenta(problems.len() as u64, "problema", "problemas"))
            "; nada se escribió. " (if problems.len() == 1 { "Corríjalo" } else { "Corríjalos" }) " y vuelva a subirlo."
        }
        div.tabla {
            table.problemas {
                thead { tr { th.num scope="col" { "Línea" } th scope="col" { "Columna" } th scope="col" { "Valor" } th scope="col" { "Problema" } } }
                tbody {
                    @for p in problems {
                        @match p {
                            store::Problem::Row(r) => tr { td.num { (r.line) } td { (r.field_in(Lang::Es)) } td { (r.value) } td { (r.reason.es()) } },
                            store::Problem::Whole(w) => tr { td.num {} td {} td {} td { (w.es()) } },
                        }
                    }
                }
            }
        }
    }
}

async fn proposals_upload(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    mp: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(mp).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Oficial)?;
    let c2 = code.clone();
    let (code, stage) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &c2, n)?;
            Ok((p.program.code, stage))
        })
        .await?;
    let Some((name, bytes)) = up.file() else {
        let body = html! {
            p.error role="alert" { "Elija el archivo de propuestas; no se subió ninguno." }
            (upload(&user, &code, stage))
        };
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), title(&code, stage), body),
        );
    };
    // a workbook's first sheet, read as the command line reads it; one it cannot read is the
    // file's one problem
    let workbook = crate::workbook::is_workbook(&bytes);
    let converted = crate::workbook::as_csv(&bytes, None).map(std::borrow::Cow::into_owned);
    let officer = user.name.clone();
    let (outcome, bytes) = match converted {
        Ok(csv) => {
            let bytes = Arc::new(csv);
            let (b2, c2, n2) = (Arc::clone(&bytes), code.clone(), name.clone());
            let o = app
                .db(move |s| import_run(s, &officer, (&c2, n), (&n2, &b2, workbook), false))
                .await?;
            (o, bytes)
        }
        Err(why) => (
            Outcome::Problems(Vec::new(), vec![store::Problem::Whole(why)]),
            Arc::new(Vec::new()),
        ),
    };
    let base = base(&code, stage);
    let (status, body) = match outcome {
        Outcome::Read(count, rows) => {
            let token = auth::token();
            if let Ok(mut pending) = app.proposals.lock() {
                pending.insert(
                    user.token().to_string(),
                    (
                        PendingImport {
                            token: token.clone(),
                            program: pending_key(&code, stage),
                            name: name.clone(),
                            bytes,
                        },
                        workbook,
                    ),
                );
            }
            (
                StatusCode::OK,
                html! {
                    p.ok role="status" {
                        "El archivo «" (name) "» no tiene problemas: "
                        (views::cuenta(count as u64, "propuesta", "propuestas")) " por agregar. Nada se ha escrito todavía."
                    }
                    (rows_table(&rows, &[]))
                    form method="post" action={(base) "/propuestas/confirmar"} {
                        (csrf(&user))
                        input type="hidden" name=(Confirm::TOKEN) value=(token);
                        div.acciones { button type="submit" { "Confirmar la importación" } }
                    }
                    p { a href=(base) { "Volver a la etapa" } }
                },
            )
        }
        Outcome::Already(t) => (
            StatusCode::OK,
            html! { p.aviso { (t) } p { a href=(base) { "Volver a la etapa" } } },
        ),
        Outcome::Problems(rows, ps) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            html! {
                (problems_table(&name, &ps))
                @if !rows.is_empty() { (rows_table(&rows, &ps)) }
                (upload(&user, &code, stage))
            },
        ),
    };
    with_status(status, page(Some(&user), title(&code, stage), body))
}

async fn proposals_confirm(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    sent: Posted<Confirm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let key = Stage::try_from(n)
        .map(|s| pending_key(&code, s))
        .unwrap_or_default();
    let (pending, workbook) = app
        .proposals
        .lock()
        .ok()
        .and_then(|mut p| p.remove(user.token()))
        .filter(|(p, _)| p.token == f.token && p.program == key)
        .ok_or_else(|| {
            WebError::bad_request(
                "No hay un archivo de propuestas revisado pendiente de confirmar; súbalo de nuevo.",
            )
        })?;
    let officer = user.name.clone();
    let p = pending.clone();
    let c2 = code.clone();
    let (outcome, stage, code) = app
        .db(move |s| {
            let (prog, stage) = stage_of(s, &c2, n)?;
            let o = import_run(s, &officer, (&c2, n), (&p.name, &p.bytes, workbook), true)?;
            Ok((o, stage, prog.program.code))
        })
        .await?;
    let base = base(&code, stage);
    let (status, body) = match outcome {
        Outcome::Read(count, _) => (
            StatusCode::OK,
            html! {
                p.ok role="status" {
                    "Importado «" (pending.name) "»: " (views::cuenta(count as u64, "propuesta", "propuestas")) " agregadas a la "
                    (stage.name_es()) " Etapa."
                }
                p { a href=(base) { "Ver la evaluación de la etapa" } }
            },
        ),
        Outcome::Already(t) => (StatusCode::OK, html! { p.aviso { (t) } }),
        Outcome::Problems(_, ps) => (
            StatusCode::CONFLICT,
            html! {
                p.error role="alert" { "El registro cambió desde la revisión; nada se escribió:" }
                ul { @for p in &ps { li { (p.in_lang(crate::lang::Lang::Es)) } } }
                p { a href=(base) { "Volver a la etapa" } }
            },
        ),
    };
    with_status(status, page(Some(&user), title(&code, stage), body))
}
