//! `/prendas/liberar`: every releasable pledge released at once after a preview (`vigia pledge
//! release --releasable [--program P] --on DATE`): the candidates are what the batch check
//! reports as PLEDGE_RELEASABLE, the register's rules are tried in a transaction rolled back,
//! and the confirmation must find the same list. The pledges of one adjudication are released
//! from the holder's page.

use super::auth::User;
use super::form::{
    Inputs, Page, Posted, Sent, dry_run, ok, program_codes, refusal_texts, with_status,
};
use super::views::{self, csrf, fecha, numero, page};
use super::{App, WebError, input as parse};
use crate::check;
use crate::register;
use crate::register::user::Role;
use crate::store::{self, Store, adjudications, pledges, programs};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/prendas/liberar", get(release_page).post(release_submit))
}

/// The release form: its date and program, and, once previewed, the confirmation with the
/// preview's fingerprint.
struct ReleaseAllForm {
    on: String,
    program: Option<String>,
    confirm: bool,
    previewed: String,
}

impl ReleaseAllForm {
    const ON: &str = "fecha";
    const PROGRAM: &str = "programa";
    const ACTION: &str = "accion";
    const FINGERPRINT: &str = "huella";
    /// The [`ReleaseAllForm::ACTION`] of the preview's button and of the confirmation's.
    const PREVIEW: &str = "vista";
    const RELEASE: &str = "liberar";
}

impl Inputs for ReleaseAllForm {
    fn read(sent: &Sent) -> ReleaseAllForm {
        ReleaseAllForm {
            on: sent.text(Self::ON),
            program: sent.opt(Self::PROGRAM),
            confirm: sent.text(Self::ACTION) == Self::RELEASE,
            previewed: sent.text(Self::FINGERPRINT),
        }
    }
}

/// Adjudications listed in a release preview (the count is always given).
const RELEASE_SHOWN: usize = 200;

/// What `vigia pledge release --releasable [--program P] --on DATE` would do, tried in a
/// transaction rolled back.
struct ReleasePlan {
    on: NaiveDate,
    program: Option<String>,
    /// What the batch check reports as PLEDGE_RELEASABLE on that date.
    candidates: Vec<i64>,
    /// The adjudications it could not decide for lack of a certified rate, in Spanish.
    undecided: Vec<String>,
    /// The first [`RELEASE_SHOWN`] candidates with their pledges in force.
    shown: Vec<(adjudications::Adjudication, Vec<pledges::Pledge>)>,
    /// What the register's rules said: the releases it would write, or every refusal.
    verdict: Result<Option<register::pledge::Released>, Vec<String>>,
    /// SHA-256 of the date, the program and the candidates: the confirmation must find the same.
    fingerprint: String,
}

fn check_error(e: check::Error) -> WebError {
    match e {
        check::Error::Store(s) => s.into(),
        check::Error::Fine { breach, error } => WebError::bad_request(format!(
            "No se puede decidir qué prendas liberar: el incumplimiento {breach} no se pudo liquidar: {}",
            views::fine_error_text(&error)
        )),
    }
}

fn release_plan(
    app: &App,
    s: &mut Store,
    officer: &str,
    on: NaiveDate,
    program: Option<String>,
) -> Result<(ReleasePlan, crate::rates::RateSeries), WebError> {
    let rates = app.rates(s)?;
    let program_id = program
        .as_deref()
        .map(|c| programs::by_code(s.conn(), c).map(|p| p.id))
        .transpose()?;
    // the candidates, as the CLI finds them: what the batch check reports as releasable
    let opts = check::Options {
        as_of: on,
        program_id,
        within_days: 0,
        min_severity: check::Severity::Low,
    };
    let found = check::adjudications_with(s.conn(), &opts, &rates, check::Code::PledgeReleasable)
        .map_err(check_error)?;
    let undecided = found
        .undecided
        .iter()
        .map(|u| crate::catalogue::of(crate::lang::Lang::Es).undecided(u))
        .collect();
    let candidates = found.ids;
    let shown = candidates
        .iter()
        .take(RELEASE_SHOWN)
        .map(|&id| {
            let a = adjudications::get(s.conn(), id)?;
            let ps = pledges::list(s.conn(), id)?
                .into_iter()
                .filter(|p| p.released_on.is_none() && p.void.is_none())
                .collect();
            Ok((a, ps))
        })
        .collect::<Result<Vec<_>, store::StoreError>>()?;
    let verdict = match dry_run(s, officer, |tx| {
        register::pledge::release_many(tx, &candidates, on, app.today(), &rates)
    }) {
        Ok(r) => Ok(r),
        Err(e) => Err(refusal_texts(e)?),
    };
    let ids: Vec<String> = candidates.iter().map(i64::to_string).collect();
    let fingerprint = store::sha256_hex(
        format!(
            "{on}|{}|{}",
            program.as_deref().unwrap_or(""),
            ids.join(",")
        )
        .as_bytes(),
    );
    Ok((
        ReleasePlan {
            on,
            program,
            candidates,
            undecided,
            shown,
            verdict,
            fingerprint,
        },
        rates,
    ))
}

fn release_form(
    user: &User,
    codes: &[String],
    on: &str,
    program: Option<&str>,
    error: Option<&str>,
) -> Markup {
    html! {
        p {
            "Libera de una vez las prendas de todas las adjudicaciones que el chequeo reporta como "
            "liberables (PLEDGE_RELEASABLE) en la fecha: terminado el período de restricción y sin "
            "multa pendiente. Primero se muestra qué se liberaría; nada se escribe hasta que usted confirme. "
            "Las prendas de una sola adjudicación se liberan desde la página del titular."
        }
        form method="post" action="/prendas/liberar" {
            (csrf(user))
            (views::input(ReleaseAllForm::ON, "Fecha de la liberación", on, error, Some("dd/mm/aaaa; posterior al fin de la restricción")))
            div.campo {
                label for=(ReleaseAllForm::PROGRAM) { "Programa" }
                select id=(ReleaseAllForm::PROGRAM) name=(ReleaseAllForm::PROGRAM) {
                    option value="" selected[program.is_none()] { "Todos los programas" }
                    @for c in codes { option value=(c) selected[program == Some(c.as_str())] { (c) } }
                }
            }
            div.acciones { button type="submit" name=(ReleaseAllForm::ACTION) value=(ReleaseAllForm::PREVIEW) { "Ver qué se liberaría" } }
        }
    }
}

fn release_preview(user: &User, plan: &ReleasePlan) -> Markup {
    let n = plan.candidates.len();
    html! {
        section #vista-previa {
            h2 { "Vista previa (nada se ha liberado)" }
            @match &plan.verdict {
                Ok(None) => p.aviso { "Ninguna prenda puede liberarse el " (fecha(plan.on)) "." },
                Ok(Some(_)) => {
                    p.ok role="status" {
                        "Se liberarían las prendas de " (views::cuenta(n as u64, "adjudicación", "adjudicaciones")) " el " (fecha(plan.on))
                        @if let Some(p) = &plan.program { " (programa " (views::ident(p)) ")" } "."
                    }
                }
                Err(problems) => {
                    p.error role="alert" { "El registro no permite esta liberación; nada se liberará:" }
                    ul { @for m in problems { li { (views::sentence(m)) } } }
                }
            }
            @if !plan.undecided.is_empty() {
                p.aviso {
                    "No se decidieron, y no se liberarán, las prendas de "
                    (views::cuenta(plan.undecided.len() as u64, "adjudicación", "adjudicaciones"))
                    " (RATE_MISSING):"
                }
                ul { @for m in &plan.undecided { li { (views::sentence(m)) } } }
            }
            @if !plan.shown.is_empty() {
                table.liberacion {
                    @if plan.shown.len() < n { caption { "Primeras " (plan.shown.len()) " de " (numero(n as u64)) } }
                    thead { tr { th { "adjudicación" } th { "titular" } th { "programa" } th { "fecha" } th.num { "acciones" } th { "prendas vigentes" } } }
                    tbody {
                        @for (a, ps) in &plan.shown {
                            tr {
                                td { (a.id) }
                                td { a href={"/titulares/" (a.holder.id)} { (a.holder.name) } " (" (views::documento(a.holder.doc_type, &a.holder.doc_number)) ")" }
                                td { (views::ident(&a.program_code)) } td { (fecha(a.adjudicated_on)) } td.num { (numero(a.shares)) }
                                td { @for p in ps { "prenda " (p.id) " (grado " (p.rank) ") " } }
                            }
                        }
                    }
                }
            }
            @if matches!(plan.verdict, Ok(Some(_))) {
                form method="post" action="/prendas/liberar" {
                    (csrf(user))
                    input type="hidden" name=(ReleaseAllForm::ON) value=(fecha(plan.on));
                    input type="hidden" name=(ReleaseAllForm::PROGRAM) value=(plan.program.as_deref().unwrap_or(""));
                    input type="hidden" name=(ReleaseAllForm::FINGERPRINT) value=(plan.fingerprint);
                    div.acciones { button type="submit" name=(ReleaseAllForm::ACTION) value=(ReleaseAllForm::RELEASE) { "Confirmar la liberación" } }
                }
            }
        }
    }
}

const RELEASE_TITLE: &str = "Liberar las prendas liberables";

async fn release_page(State(app): State<Arc<App>>, user: User) -> Page {
    user.require(Role::Oficial)?;
    let codes = program_codes(&app).await?;
    let body = release_form(&user, &codes, &fecha(app.today()), None, None);
    ok(page(Some(&user), RELEASE_TITLE, body))
}

/// What a release form led to.
enum ReleaseOutcome {
    /// The preview (`changed`: the confirmation found another list than the one previewed).
    Preview(ReleasePlan, bool),
    Done(ReleasePlan, Option<register::pledge::Released>),
    Refused(ReleasePlan, Vec<String>),
}

async fn release_submit(
    State(app): State<Arc<App>>,
    user: User,
    sent: Posted<ReleaseAllForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let codes = program_codes(&app).await?;
    let program = f.program;
    let on = match parse::date(&f.on) {
        Ok(on) => on,
        Err(e) => {
            let body = release_form(&user, &codes, &f.on, program.as_deref(), Some(&e));
            return with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), RELEASE_TITLE, body),
            );
        }
    };
    let (confirm, previewed) = (f.confirm, f.previewed);
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let outcome = app
        .db(move |s| {
            let (plan, rates) = release_plan(&app2, s, &officer, on, program)?;
            if !confirm || plan.fingerprint != previewed || plan.verdict.is_err() {
                let changed = confirm && plan.fingerprint != previewed;
                return Ok(ReleaseOutcome::Preview(plan, changed));
            }
            match s.write::<_, register::Error>(&officer, |tx| {
                register::pledge::release_many(tx, &plan.candidates, on, app2.today(), &rates)
            }) {
                Ok(r) => Ok(ReleaseOutcome::Done(plan, r)),
                Err(e) => {
                    let problems = refusal_texts(e)?;
                    Ok(ReleaseOutcome::Refused(plan, problems))
                }
            }
        })
        .await?;
    let (status, body) = match outcome {
        ReleaseOutcome::Preview(plan, changed) => {
            let status = if changed {
                StatusCode::CONFLICT
            } else {
                StatusCode::OK
            };
            (
                status,
                html! {
                    @if changed {
                        p.error role="alert" { "Las prendas liberables cambiaron desde la vista previa; nada se liberó. Revise la nueva lista y confirme otra vez." }
                    }
                    (release_form(&user, &codes, &fecha(plan.on), plan.program.as_deref(), None))
                    (release_preview(&user, &plan))
                },
            )
        }
        ReleaseOutcome::Done(plan, Some(r)) => (
            StatusCode::OK,
            html! {
                p.ok role="status" {
                    "Se liberaron las prendas de " (views::cuenta(r.adjudications as u64, "adjudicación", "adjudicaciones")) " el "
                    (fecha(plan.on)) " (liberaciones " (r.first_id) " a " (r.last_id) ")."
                }
                p { a href="/" { "Volver al tablero" } }
            },
        ),
        ReleaseOutcome::Done(plan, None) => (
            StatusCode::OK,
            html! { p.aviso { "Ninguna prenda puede liberarse el " (fecha(plan.on)) "; nada se escribió." } },
        ),
        ReleaseOutcome::Refused(plan, problems) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            html! {
                p.error role="alert" { "El registro rechazó la liberación; nada se escribió:" }
                ul { @for m in &problems { li { (views::sentence(m)) } } }
                (release_form(&user, &codes, &fecha(plan.on), plan.program.as_deref(), None))
            },
        ),
    };
    with_status(status, page(Some(&user), RELEASE_TITLE, body))
}
