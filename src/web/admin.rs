//! The pages of what the CLI could do and the browser could not: voiding an adjudication or a
//! pledge from the holder's page (`vigia adjudications void`, `vigia pledge void`), releasing
//! every releasable pledge at once after a preview (`vigia pledge release --releasable`), the
//! accounts (`vigia user`) and the programs (`vigia program list|show|add`). Each handler checks
//! the CSRF token, then the role, and calls the same `register` function as its command; no rule
//! lives here.

use super::auth::User;
use super::extract::{Form, Path};
use super::pages::{
    Errors, Fields, HolderView, Page, csrf_of, dry_run, field, ok, opt, pledge_write,
    program_codes, read_upload, see_other, today, upload_form,
};
use super::views::{self, csrf, fecha, momento, numero, page, pesos};
use super::{App, WebError, input as parse};
use crate::check;
use crate::fine::StagePrice;
use crate::offering::caps::{Cap, Measure, Person, When};
use crate::program::{Criterion, CriterionRate, TermFrom};
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::programs::{self, Added, StoredProgram};
use crate::store::{self, Store, adjudications, pledges, users};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/adjudicaciones/{id}/anular", post(void_adjudication))
        .route("/prendas/{id}/anular", post(void_pledge))
        .route("/prendas/liberar", get(release_page).post(release_submit))
        .route("/usuarios", get(users_page).post(user_add))
        .route("/usuarios/deshabilitar", post(user_disable))
        .route("/usuarios/clave", post(user_password))
        .route("/programas", get(programs_page).post(program_add))
        .route("/programas/{code}", get(program_page))
}

/// A page with a status other than 200 (a refusal: 422).
fn with_status(status: StatusCode, m: Markup) -> Page {
    Ok((status, Html(m.into_string())).into_response())
}

/// A labelled password input (never filled in again), with its error.
fn password(name: &str, label: &str, error: Option<&str>) -> Markup {
    html! {
        div.campo.con-error[error.is_some()] {
            label for=(name) { (label) }
            input id=(name) name=(name) type="password" autocomplete="new-password";
            @if let Some(e) = error { p.error id={(name) "-error"} role="alert" { (views::sentence(e)) } }
        }
    }
}

// ---------------------------------------------------------------------------- corrections

/// The corrections on a holder's page (oficial and above): void an adjudication or a pledge
/// recorded by mistake, with a reason. `errors` and `typed` belong to the form that was sent:
/// its `correccion` input says which kind, `adjudication` and `pledge` which record.
pub(super) fn holder_corrections(
    user: &User,
    v: &HolderView,
    errors: &Errors,
    typed: &Fields,
) -> Markup {
    let sent = field(typed, "correccion");
    let sent_adjudication = field(typed, "adjudication").parse::<i64>().ok();
    let sent_pledge = field(typed, "pledge").parse::<i64>().ok();
    let reason_typed = field(typed, Field::VoidReason.as_str());
    let errors_of = |fields: &[Field]| -> Vec<String> {
        fields
            .iter()
            .filter_map(|f| errors.get(f.as_str()).map(str::to_string))
            .collect()
    };
    html! {
        h2 { "Correcciones" }
        p {
            "Solo para lo registrado por error. Lo anulado queda en el registro, marcado, con quién, "
            "cuándo y por qué, y ninguna regla ni cifra lo cuenta. Una prenda liberada no se anula "
            "(la liberación es historia), y una adjudicación se anula solo sin incumplimientos ni "
            "prendas vigentes."
        }
        @for (a, ps, _) in &v.adjudications {
            h3 { "Adjudicación " (a.id) " (" (fecha(a.adjudicated_on)) ", " (numero(a.shares)) " acciones)" }
            @if let Some(vd) = &a.void {
                p.aviso { "ANULADA " (momento(&vd.at)) " por " (vd.by) ": " (vd.reason) }
            }
            @if !ps.is_empty() {
                table.prendas {
                    thead { tr { th { "prenda" } th { "grado" } th.num { "acciones" } th { "inscrita" } th { "estado" } } }
                    tbody {
                        @for p in ps {
                            @let mine = sent == "prenda" && sent_pledge == Some(p.id);
                            @let id = format!("motivo-prenda-{}", p.id);
                            tr.anulado[p.void.is_some()] {
                                td { (p.id) } td { (p.rank) } td.num { (numero(p.shares)) } td { (fecha(p.registered_on)) }
                                td {
                                    @if let Some(vd) = &p.void {
                                        "ANULADA " (momento(&vd.at)) " por " (vd.by) ": " (vd.reason)
                                    } @else if let Some(on) = p.released_on {
                                        "liberada el " (fecha(on))
                                    } @else {
                                        form.anular method="post" action={"/prendas/" (p.id) "/anular"} {
                                            (csrf(user))
                                            input type="hidden" name="correccion" value="prenda";
                                            label for=(id) { (views::field_label(Field::VoidReason)) }
                                            input id=(id) name=(Field::VoidReason.as_str()) type="text" required
                                                value=(if mine { reason_typed } else { "" });
                                            button type="submit" { "Anular prenda" }
                                        }
                                    }
                                    @if mine {
                                        @for e in errors_of(&[Field::VoidReason, Field::Pledge]) {
                                            p.error id={(id) "-error"} role="alert" { (views::sentence(&e)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            @if a.void.is_none() {
                @let mine = sent == "adjudicacion" && sent_adjudication == Some(a.id);
                @let id = format!("motivo-adjudicacion-{}", a.id);
                form.anular method="post" action={"/adjudicaciones/" (a.id) "/anular"} {
                    (csrf(user))
                    input type="hidden" name="correccion" value="adjudicacion";
                    label for=(id) { (views::field_label(Field::VoidReason)) }
                    input id=(id) name=(Field::VoidReason.as_str()) type="text" required
                        value=(if mine { reason_typed } else { "" });
                    button type="submit" { "Anular adjudicación" }
                }
            }
            // below the form, or in its place when the adjudication is void already
            @if sent == "adjudicacion" && sent_adjudication == Some(a.id) {
                @for e in errors_of(&[Field::VoidReason, Field::Adjudication]) {
                    p.error id={"motivo-adjudicacion-" (a.id) "-error"} role="alert" { (views::sentence(&e)) }
                }
            }
        }
    }
}

/// What a correction form sent, marked with the record it is about.
fn correction_typed(f: Fields, kind: &str, record: (&str, i64)) -> Fields {
    let mut typed: Fields = f
        .into_iter()
        .filter(|(k, _)| k == Field::VoidReason.as_str())
        .collect();
    typed.push(("correccion".into(), kind.into()));
    typed.push((record.0.into(), record.1.to_string()));
    typed
}

/// `vigia adjudications void ID --reason TEXT`.
async fn void_adjudication(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let reason = field(&f, Field::VoidReason.as_str()).to_string();
    let write =
        move |_: &App, tx: &mut store::Tx<'_>| register::adjudication::void(tx, id, &reason);
    let typed = correction_typed(f, "adjudicacion", ("adjudication", id));
    pledge_write(app, user, id, typed, Ok(write)).await
}

/// `vigia pledge void ID --reason TEXT`.
async fn void_pledge(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let adjudication = app
        .db(move |s| Ok(pledges::get(s.conn(), id)?.adjudication_id))
        .await?;
    let reason = field(&f, Field::VoidReason.as_str()).to_string();
    let write = move |_: &App, tx: &mut store::Tx<'_>| register::pledge::void(tx, id, &reason);
    let typed = correction_typed(f, "prenda", ("pledge", id));
    pledge_write(app, user, adjudication, typed, Ok(write)).await
}

// ---------------------------------------------------------------------------- bulk release

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

/// A register error as the sentences a page shows; a store failure goes up.
fn refusal_texts(e: register::Error) -> Result<Vec<String>, WebError> {
    Ok(match e {
        register::Error::Refused(r) => vec![views::refusal_text(&r)],
        register::Error::Refusals(rs) => rs.iter().map(views::refusal_text).collect(),
        register::Error::Fine(f) => vec![views::fine_error_text(&f)],
        register::Error::Store(s) => return Err(s.into()),
    })
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
        register::pledge::release_many(tx, &candidates, on, super::pages::today(), &rates)
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
            (views::input("fecha", "Fecha de la liberación", on, error, Some("dd/mm/aaaa; posterior al fin de la restricción")))
            div.campo {
                label for="programa" { "Programa" }
                select id="programa" name="programa" {
                    option value="" selected[program.is_none()] { "Todos los programas" }
                    @for c in codes { option value=(c) selected[program == Some(c.as_str())] { (c) } }
                }
            }
            div.acciones { button type="submit" name="accion" value="vista" { "Ver qué se liberaría" } }
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
                        @if let Some(p) = &plan.program { " (programa " (p) ")" } "."
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
                                td { a href={"/titulares/" (a.holder.id)} { (a.holder.name) } " (" (a.holder.doc_type.to_string()) " " (a.holder.doc_number) ")" }
                                td { (a.program_code) } td { (fecha(a.adjudicated_on)) } td.num { (numero(a.shares)) }
                                td { @for p in ps { "prenda " (p.id) " (grado " (p.rank) ") " } }
                            }
                        }
                    }
                }
            }
            @if matches!(plan.verdict, Ok(Some(_))) {
                form method="post" action="/prendas/liberar" {
                    (csrf(user))
                    input type="hidden" name="fecha" value=(fecha(plan.on));
                    input type="hidden" name="programa" value=(plan.program.as_deref().unwrap_or(""));
                    input type="hidden" name="huella" value=(plan.fingerprint);
                    div.acciones { button type="submit" name="accion" value="liberar" { "Confirmar la liberación" } }
                }
            }
        }
    }
}

const RELEASE_TITLE: &str = "Liberar las prendas liberables";

async fn release_page(State(app): State<Arc<App>>, user: User) -> Page {
    user.require(Role::Oficial)?;
    let codes = program_codes(&app).await?;
    let body = release_form(&user, &codes, &fecha(today()), None, None);
    ok(page(Some(&user), RELEASE_TITLE, body))
}

/// What a release form led to.
enum ReleaseOutcome {
    /// The preview (`changed`: the confirmation found another list than the one previewed).
    Preview(ReleasePlan, bool),
    Done(ReleasePlan, Option<register::pledge::Released>),
    Refused(ReleasePlan, Vec<String>),
}

async fn release_submit(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let codes = program_codes(&app).await?;
    let program = opt(&f, "programa");
    let on = match parse::date(field(&f, "fecha")) {
        Ok(on) => on,
        Err(e) => {
            let body = release_form(
                &user,
                &codes,
                field(&f, "fecha"),
                program.as_deref(),
                Some(&e),
            );
            return with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), RELEASE_TITLE, body),
            );
        }
    };
    let confirm = field(&f, "accion") == "liberar";
    let previewed = field(&f, "huella").to_string();
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
                register::pledge::release_many(
                    tx,
                    &plan.candidates,
                    on,
                    super::pages::today(),
                    &rates,
                )
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

// ---------------------------------------------------------------------------- users

/// The inputs of the user forms: add (`nombre`, `perfil`, `clave`, `clave_repetida`) and new
/// password (`usuario`, `nueva_clave`, `nueva_clave_repetida`).
async fn users_markup(
    app: Arc<App>,
    user: User,
    errors: Errors,
    typed: Fields,
    status: StatusCode,
) -> Page {
    let all = app.db(|s| Ok(users::list(s.conn())?)).await?;
    let role_of = |r: &str| {
        r.parse::<Role>()
            .map(Role::label_es)
            .unwrap_or("perfil desconocido")
    };
    let body = errors.placed(|| html! {
        (errors.general())
        table.usuarios {
            thead { tr { th { "usuario" } th { "perfil" } th { "estado" } th { "creado" } th {} } }
            tbody {
                @for u in &all {
                    tr.anulado[u.disabled] {
                        td { (u.name) } td { (role_of(&u.role)) }
                        td { @if u.disabled { "deshabilitado" } @else { "activo" } }
                        td { (momento(&u.created_at)) " por " (u.created_by) }
                        td {
                            @if u.name == user.name {
                                "(su cuenta)"
                            } @else if !u.disabled {
                                form.anular method="post" action="/usuarios/deshabilitar" {
                                    (csrf(&user))
                                    input type="hidden" name="usuario" value=(u.name);
                                    button type="submit" { "Deshabilitar" }
                                }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Agregar un usuario" }
        form method="post" action="/usuarios" {
            (csrf(&user))
            (views::input("nombre", "Usuario", field(&typed, "nombre"), errors.get("nombre"), Some("letras, dígitos, «.», «-», «_» o «@»")))
            div.campo.con-error[errors.get("perfil").is_some()] {
                label for="perfil" { "Perfil" }
                select id="perfil" name="perfil" {
                    @for r in Role::ALL {
                        option value=(r.as_str()) selected[field(&typed, "perfil") == r.as_str()] { (r.label_es()) }
                    }
                }
                small { "consulta lee todo; oficial además importa y registra adjudicaciones, prendas, incumplimientos, pagos y correcciones; jurídico además liquida y emite avisos; administración además gestiona programas, tasas y usuarios" }
                @if let Some(e) = errors.get("perfil") { p.error id="perfil-error" role="alert" { (views::sentence(e)) } }
            }
            (password("clave", "Contraseña (al menos 10 caracteres)", errors.get("clave")))
            (password("clave_repetida", "Repita la contraseña", errors.get("clave_repetida")))
            div.acciones { button type="submit" { "Agregar usuario" } }
        }
        h2 { "Cambiar una contraseña" }
        form method="post" action="/usuarios/clave" {
            (csrf(&user))
            div.campo {
                label for="usuario" { "Usuario" }
                select id="usuario" name="usuario" {
                    @for u in all.iter().filter(|u| !u.disabled) {
                        option value=(u.name) selected[field(&typed, "usuario") == u.name] { (u.name) }
                    }
                }
            }
            (password("nueva_clave", "Nueva contraseña (al menos 10 caracteres)", errors.get("nueva_clave")))
            (password("nueva_clave_repetida", "Repita la nueva contraseña", errors.get("nueva_clave_repetida")))
            div.acciones { button type="submit" { "Cambiar la contraseña" } }
        }
    });
    with_status(status, page(Some(&user), "Usuarios", body))
}

async fn users_page(State(app): State<Arc<App>>, user: User) -> Page {
    user.require(Role::Admin)?;
    users_markup(app, user, Errors::default(), Vec::new(), StatusCode::OK).await
}

/// The two passwords typed, if they are the same (the CLI's prompt asks twice too).
fn twice(f: &Fields, first: &str, again: &str, errors: &mut Errors) -> Option<String> {
    let p = field(f, first);
    if p != field(f, again) {
        errors.put(
            again,
            "Las dos contraseñas escritas no coinciden; escriba la misma dos veces. No se cambió nada."
                .into(),
        );
        return None;
    }
    Some(p.to_string())
}

/// Runs a user write as the signed-in admin: back to the list, or the list with the refusal.
async fn user_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    typed: Fields,
    errors: Errors,
    write: Option<impl FnOnce(&mut store::Tx<'_>) -> register::Result<T> + Send + 'static>,
) -> Page {
    let mut errors = errors;
    if let Some(write) = write {
        let officer = user.name.clone();
        let result = app
            .db(move |s| Ok(s.write::<_, register::Error>(&officer, write)))
            .await?;
        match result {
            Ok(_) => return see_other("/usuarios".into()),
            Err(e) => errors.general.extend(
                refusal_texts(e)?
                    .into_iter()
                    .map(|t| format!("El registro no hizo el cambio: {t}")),
            ),
        }
    }
    // passwords are never sent back to the page
    let typed: Fields = typed
        .into_iter()
        .filter(|(k, _)| matches!(k.as_str(), "nombre" | "perfil" | "usuario"))
        .collect();
    users_markup(app, user, errors, typed, StatusCode::UNPROCESSABLE_ENTITY).await
}

/// `vigia user add NAME --role ROLE`.
async fn user_add(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Admin)?;
    let mut errors = Errors::default();
    let name = field(&f, "nombre").trim().to_string();
    let role = field(&f, "perfil")
        .parse::<Role>()
        .map_err(|_| errors.put("perfil", "Elija un perfil de la lista.".into()))
        .ok();
    let pass = twice(&f, "clave", "clave_repetida", &mut errors);
    let write = match (role, pass) {
        (Some(role), Some(pass)) => {
            Some(move |tx: &mut store::Tx<'_>| register::user::add(tx, &name, role, &pass))
        }
        _ => None,
    };
    user_write(app, user, f, errors, write).await
}

/// `vigia user disable NAME`.
async fn user_disable(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Admin)?;
    let name = field(&f, "usuario").to_string();
    let write = move |tx: &mut store::Tx<'_>| register::user::disable(tx, &name);
    user_write(app, user, f, Errors::default(), Some(write)).await
}

/// `vigia user password NAME`.
async fn user_password(State(app): State<Arc<App>>, user: User, form: Form<Fields>) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Admin)?;
    let mut errors = Errors::default();
    let name = field(&f, "usuario").to_string();
    let write = twice(&f, "nueva_clave", "nueva_clave_repetida", &mut errors)
        .map(|pass| move |tx: &mut store::Tx<'_>| register::user::set_password(tx, &name, &pass));
    user_write(app, user, f, errors, write).await
}

// ---------------------------------------------------------------------------- programs

async fn programs_markup(
    app: Arc<App>,
    user: User,
    message: Option<Markup>,
    status: StatusCode,
) -> Page {
    let all = app.db(|s| Ok(programs::list(s.conn())?)).await?;
    let body = html! {
        @if let Some(m) = message { (m) }
        table.programas {
            thead { tr { th { "código" } th { "nombre" } th { "decreto" } th.num { "acciones ofrecidas" } th.num { "precio fijo" } th { "registrado" } } }
            tbody {
                @for p in &all {
                    tr {
                        td { a href={"/programas/" (p.program.code)} { (p.program.code) } }
                        td { (p.program.name) } td { (p.program.decree) }
                        td.num { (numero(p.program.shares_offered)) } td.num { (pesos(p.program.fixed_price)) }
                        td { (momento(&p.created_at)) " por " (p.created_by) }
                    }
                }
            }
        }
        @if user.may(Role::Admin) {
            h2 { "Registrar un programa" }
            p {
                "El archivo TOML del programa (vea schema/programs/decreto-3939-2004.toml). Un programa "
                "no se edita nunca: el mismo archivo otra vez no agrega nada, y un archivo distinto "
                "con un código ya registrado se rechaza (regístrelo con otro código)."
            }
            (upload_form(&user, "/programas", "Archivo del programa (TOML)", html! {}, "Registrar el programa"))
        }
    };
    with_status(status, page(Some(&user), "Programas", body))
}

async fn programs_page(State(app): State<Arc<App>>, user: User) -> Page {
    programs_markup(app, user, None, StatusCode::OK).await
}

/// `vigia program add FILE`.
async fn program_add(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(csrf_of(&up.fields))?;
    user.require(Role::Admin)?;
    let refused = |app, user, m: String| {
        programs_markup(
            app,
            user,
            Some(html! { p.error role="alert" { (views::sentence(&m)) } }),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let Some((name, bytes)) = up.files.get("archivo").cloned() else {
        let m = "Elija el archivo del programa; no se subió ninguno.".to_string();
        return refused(app, user, m).await;
    };
    // read as `vigia program add` reads its file: UTF-8 text, then the program's own checks
    let text = match crate::text::utf8(&bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            let m = format!(
                "El archivo «{name}» no es un archivo de texto UTF-8 (un programa es un archivo TOML); nada se registró. Detalle: {e}"
            );
            return refused(app, user, m).await;
        }
    };
    let program = match crate::program::Program::from_toml(&text) {
        Ok(p) => p,
        Err(e) => {
            let m = format!(
                "El archivo «{name}» no es un programa válido; nada se registró. Motivo: {}",
                e.in_lang(crate::lang::Lang::Es)
            );
            return refused(app, user, m).await;
        }
    };
    let officer = user.name.clone();
    let code = program.code.clone();
    let result = app
        .db(move |s| {
            Ok(s.write::<_, register::Error>(&officer, |tx| {
                register::program::add(tx, &program, &text)
            }))
        })
        .await?;
    match result {
        Ok(Added::New(_)) => see_other(format!("/programas/{code}")),
        Ok(Added::AlreadyThere(id)) => {
            let m = html! {
                p.aviso role="status" {
                    "El programa " a href={"/programas/" (code)} { (code) } " ya estaba registrado (id " (id)
                    ") con el mismo contenido: no se agregó nada."
                }
            };
            programs_markup(app, user, Some(m), StatusCode::OK).await
        }
        Err(e) => {
            let m = format!(
                "El registro rechazó el programa: {}",
                refusal_texts(e)?.join("; ")
            );
            refused(app, user, m).await
        }
    }
}

fn measure_es(m: Measure) -> &'static str {
    match m {
        Measure::PatrimonioLiquido => "el patrimonio líquido",
        Measure::Income => "los ingresos",
        Measure::AnnualSalary => "el salario anual",
        Measure::InvestmentLimit => "el límite legal o estatutario de inversión",
        Measure::PatrimonioAjustado => "el patrimonio ajustado",
        Measure::IncomeFinancialStatements => "los ingresos de los estados financieros",
    }
}

/// A cap's documents in words: one, or the least or the sum of several.
fn measures_es(of: &[Measure], combine: crate::offering::caps::Combine) -> String {
    let names: Vec<&str> = of.iter().map(|&m| measure_es(m)).collect();
    match (names.split_last(), combine) {
        (Some((last, [])), _) => (*last).to_string(),
        (Some((last, rest)), crate::offering::caps::Combine::Least) => {
            format!("el menor entre {} y {last}", rest.join(", "))
        }
        (Some((last, rest)), crate::offering::caps::Combine::Sum) => {
            format!("la suma de {} y {last}", rest.join(", "))
        }
        (None, _) => String::new(),
    }
}

/// One cap in words: to whom it applies and how much it allows.
fn cap_es(c: &Cap) -> (String, String) {
    let person = match c.person {
        Person::Natural => "persona natural",
        Person::Legal => "persona jurídica",
    };
    let when = match c.when {
        When::Always => "",
        When::FilesTaxReturn => ", que declara renta",
        When::NoTaxReturn => ", que no declara renta",
        When::Director => ", con cargo directivo en la sociedad",
    };
    let limit = match (c.times, c.of.is_empty(), c.shares) {
        (Some(t), false, _) if t == rust_decimal::Decimal::ONE => {
            format!("una vez {}", measures_es(&c.of, c.combine))
        }
        (Some(t), false, _) => {
            format!(
                "{} veces {}",
                crate::money::format_number(t),
                measures_es(&c.of, c.combine)
            )
        }
        (_, _, Some(n)) => format!("{} acciones", numero(n)),
        _ => String::new(),
    };
    (format!("{person}{when}"), limit)
}

async fn program_page(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    let (p, stage): (StoredProgram, StagePrice) = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            let stage = programs::stage_price(s.conn(), p.id)?;
            Ok((p, stage))
        })
        .await?;
    let g = &p.program;
    let body = html! {
        dl.hechos {
            dt { "Código" } dd { (g.code) }
            dt { "Nombre" } dd { (g.name) }
            dt { "Norma" } dd { (g.decree) " (multa: " (g.fine_article) "; prenda: " (g.pledge_article) ")" }
            dt { "Emisor" } dd { (g.issuer) }
            dt { "Acciones ofrecidas" } dd { (numero(g.shares_offered)) }
            dt { "Precio fijo por acción" } dd { (pesos(g.fixed_price)) }
            dt { "Período de restricción" } dd { (g.lockup_months) " meses" }
            dt { "Precios de referencia" } dd { (g.reference_prices.iter().map(|b| b.label_es()).collect::<Vec<_>>().join("; ")) }
            dt { "Incumplimientos" } dd { (g.breach_kinds.iter().map(|k| k.label_es()).collect::<Vec<_>>().join("; ")) }
            dt { "Convención de intereses" } dd {
                // its Spanish name, its code, then how it computes (the explanation without the name it starts with)
                @let explain = g.convention.explain_es();
                (views::capital(g.convention.name_es())) " (" code { (g.convention.as_str()) } "): "
                (explain.split_once(": ").filter(|(head, _)| head.to_lowercase() == g.convention.name_es()).map_or(explain, |(_, how)| how))
            }
            dt { "Plazo de pago del aviso" } dd {
                (g.payment_term_business_days) " días hábiles desde "
                @match g.letters.payment_term_from { TermFrom::Delivery => "la entrega del aviso", TermFrom::Issue => "la fecha del aviso" }
            }
            dt { "Precio de la etapa posterior" } dd {
                @match stage {
                    StagePrice::Known(x) => { (pesos(x)) " por acción" }
                    StagePrice::Absent => "no hay etapa posterior",
                    StagePrice::Pending => "pendiente (las liquidaciones son provisionales)",
                }
            }
            dt { "Prorrata" } dd { (g.proration.source_es()) }
            dt { "Etapas posteriores" } dd {
                "hasta la " @if g.later_stages.last == 2 { "Segunda" } @else { "Tercera" } " Etapa; "
                @match g.later_stages.criterion {
                    Criterion::PresentValue(CriterionRate::Ibc) => "valor presente al interés bancario corriente vigente al cierre",
                    Criterion::PresentValue(CriterionRate::Fixed(r)) => { "valor presente al " (views::tasa(r)) " EA" }
                    Criterion::HighestPrice => "mayor precio",
                    Criterion::PriceAndTerm(w) => { "precio y plazo (pesos " (w.price) " y " (w.term) ")" }
                }
                "; garantía mínima " (pesos(g.later_stages.minimum_guarantee))
            }
            dt { "Categorías" } dd { (g.categories.join(", ")) }
            dt { "Huella SHA-256 del TOML" } dd { code { (p.sha256) } }
            dt { "Registrado" } dd { (momento(&p.created_at)) " por " (p.created_by) }
        }
        p { a href={"/programas/" (g.code) "/cartas"} { "Membrete, firma y cuenta de pago de las cartas" } }
        h2 { "Vendedores" }
        table.vendedores {
            thead { tr { th { "vendedor" } th { "NIT" } th.num { "acciones" } } }
            tbody { @for s in &g.sellers { tr { td { (s.name) } td { (s.nit.as_deref().unwrap_or("")) } td.num { (numero(s.shares)) } } } }
        }
        h2 { "Tramos de la multa" }
        table.tramos {
            thead { tr { th { "desde el mes" } th { "hasta el mes" } th.num { "porcentaje" } } }
            tbody {
                @for (i, b) in g.brackets.iter().enumerate() {
                    tr {
                        td { (if i == 0 { 0 } else { g.brackets[i - 1].upto_months }) }
                        td { (b.upto_months) }
                        td.num { (crate::money::format_percent(b.percent)) }
                    }
                }
            }
        }
        h2 { "Topes de la primera etapa" }
        @if g.caps.is_empty() {
            p { "El programa no fija topes." }
        } @else {
            table.topes {
                caption { "Cada tope que aplica al aceptante lo limita; cuenta el menor" }
                thead { tr { th { "norma" } th { "aplica a" } th { "hasta" } } }
                tbody {
                    @for c in &g.caps {
                        @let (who, limit) = cap_es(c);
                        tr { td { (c.rule) } td { (who) } td { (limit) } }
                    }
                }
            }
        }
        p { a href="/programas" { "Volver a los programas" } }
    };
    ok(page(Some(&user), &format!("Programa {}", g.code), body))
}
