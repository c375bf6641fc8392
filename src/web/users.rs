//! `/usuarios` (administrators): the accounts, and an account added, disabled or given a new
//! password (`vigia user add|disable|password`), each password typed twice as the CLI's prompt
//! asks. Passwords are never shown again.

use super::App;
use super::auth::User;
use super::form::{Errors, Inputs, Page, Posted, Sent, refusal_texts, see_other, with_status};
use super::views::{self, csrf, momento, page};
use crate::register;
use crate::register::user::Role;
use crate::store::{self, users};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/usuarios", get(users_page).post(user_add))
        .route("/usuarios/deshabilitar", post(user_disable))
        .route("/usuarios/clave", post(user_password))
}

/// The input naming an existing account (disable it, change its password).
const ACCOUNT: &str = "usuario";

/// An account added.
struct NewUser {
    name: String,
    role: String,
    password: String,
    again: String,
}

impl NewUser {
    const NAME: &str = "nombre";
    const ROLE: &str = "perfil";
    const PASSWORD: &str = "clave";
    const AGAIN: &str = "clave_repetida";
}

impl Inputs for NewUser {
    fn read(sent: &Sent) -> NewUser {
        NewUser {
            name: sent.text(NewUser::NAME),
            role: sent.text(NewUser::ROLE),
            password: sent.text(NewUser::PASSWORD),
            again: sent.text(NewUser::AGAIN),
        }
    }
}

/// An account disabled.
struct Account {
    account: String,
}

impl Inputs for Account {
    fn read(sent: &Sent) -> Account {
        Account {
            account: sent.text(ACCOUNT),
        }
    }
}

/// An account's new password.
struct NewPassword {
    account: String,
    password: String,
    again: String,
}

impl NewPassword {
    const PASSWORD: &str = "nueva_clave";
    const AGAIN: &str = "nueva_clave_repetida";
}

impl Inputs for NewPassword {
    fn read(sent: &Sent) -> NewPassword {
        NewPassword {
            account: sent.text(ACCOUNT),
            password: sent.text(NewPassword::PASSWORD),
            again: sent.text(NewPassword::AGAIN),
        }
    }
}

/// What the page shows again of the form that was sent: never a password.
#[derive(Default)]
struct Shown {
    name: String,
    role: String,
    account: String,
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

/// The accounts and the forms; `typed` what the form that was sent showed (never a password).
async fn users_markup(
    app: Arc<App>,
    user: User,
    errors: Errors,
    typed: Shown,
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
                    tr class=[u.disabled.then_some("anulado")] {
                        td { (u.name) } td { (role_of(&u.role)) }
                        td { @if u.disabled { "deshabilitado" } @else { "activo" } }
                        td { (momento(&u.created_at)) " por " (u.created_by) }
                        td {
                            @if u.name == user.name {
                                "(su cuenta)"
                            } @else if !u.disabled {
                                form.anular method="post" action="/usuarios/deshabilitar" {
                                    (csrf(&user))
                                    input type="hidden" name=(ACCOUNT) value=(u.name);
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
            (views::input(NewUser::NAME, "Usuario", &typed.name, errors.get(NewUser::NAME), Some("letras, dígitos, «.», «-», «_» o «@»")))
            div.campo.con-error[errors.get(NewUser::ROLE).is_some()] {
                label for=(NewUser::ROLE) { "Perfil" }
                select id=(NewUser::ROLE) name=(NewUser::ROLE) {
                    @for r in Role::ALL {
                        option value=(r.as_str()) selected[typed.role == r.as_str()] { (r.label_es()) }
                    }
                }
                small { "consulta lee todo; oficial además importa y registra adjudicaciones, prendas, incumplimientos, pagos y correcciones; jurídico además liquida y emite avisos; administración además gestiona programas, tasas y usuarios" }
                @if let Some(e) = errors.get(NewUser::ROLE) { p.error id={(NewUser::ROLE) "-error"} role="alert" { (views::sentence(e)) } }
            }
            (password(NewUser::PASSWORD, "Contraseña (al menos 10 caracteres)", errors.get(NewUser::PASSWORD)))
            (password(NewUser::AGAIN, "Repita la contraseña", errors.get(NewUser::AGAIN)))
            div.acciones { button type="submit" { "Agregar usuario" } }
        }
        h2 { "Cambiar una contraseña" }
        form method="post" action="/usuarios/clave" {
            (csrf(&user))
            div.campo {
                label for=(ACCOUNT) { "Usuario" }
                select id=(ACCOUNT) name=(ACCOUNT) {
                    @for u in all.iter().filter(|u| !u.disabled) {
                        option value=(u.name) selected[typed.account == u.name] { (u.name) }
                    }
                }
            }
            (password(NewPassword::PASSWORD, "Nueva contraseña (al menos 10 caracteres)", errors.get(NewPassword::PASSWORD)))
            (password(NewPassword::AGAIN, "Repita la nueva contraseña", errors.get(NewPassword::AGAIN)))
            div.acciones { button type="submit" { "Cambiar la contraseña" } }
        }
    });
    with_status(status, page(Some(&user), "Usuarios", body))
}

async fn users_page(State(app): State<Arc<App>>, user: User) -> Page {
    user.require(Role::Admin)?;
    users_markup(
        app,
        user,
        Errors::default(),
        Shown::default(),
        StatusCode::OK,
    )
    .await
}

/// The two passwords typed, if they are the same (the CLI's prompt asks twice too); else the
/// message goes beside the second, named `again`.
fn twice(password: &str, repeated: &str, again: &str, errors: &mut Errors) -> Option<String> {
    if password != repeated {
        errors.put(
            again,
            "Las dos contraseñas escritas no coinciden; escriba la misma dos veces. No se cambió nada."
                .into(),
        );
        return None;
    }
    Some(password.to_string())
}

/// Runs a user write as the signed-in admin: back to the list, or the list with the refusal.
async fn user_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    shown: Shown,
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
    users_markup(app, user, errors, shown, StatusCode::UNPROCESSABLE_ENTITY).await
}

/// `vigia user add NAME --role ROLE`.
async fn user_add(State(app): State<Arc<App>>, user: User, sent: Posted<NewUser>) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let role = f
        .role
        .parse::<Role>()
        .map_err(|_| errors.put(NewUser::ROLE, "Elija un perfil de la lista.".into()))
        .ok();
    let pass = twice(&f.password, &f.again, NewUser::AGAIN, &mut errors);
    let name = f.name.trim().to_string();
    let write = match (role, pass) {
        (Some(role), Some(pass)) => {
            Some(move |tx: &mut store::Tx<'_>| register::user::add(tx, &name, role, &pass))
        }
        _ => None,
    };
    // passwords are never sent back to the page
    let shown = Shown {
        name: f.name,
        role: f.role,
        account: String::new(),
    };
    user_write(app, user, shown, errors, write).await
}

/// `vigia user disable NAME`.
async fn user_disable(State(app): State<Arc<App>>, user: User, sent: Posted<Account>) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let name = f.account.clone();
    let write = move |tx: &mut store::Tx<'_>| register::user::disable(tx, &name);
    let shown = Shown {
        account: f.account,
        ..Shown::default()
    };
    user_write(app, user, shown, Errors::default(), Some(write)).await
}

/// `vigia user password NAME`.
async fn user_password(State(app): State<Arc<App>>, user: User, sent: Posted<NewPassword>) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let name = f.account.clone();
    let write = twice(&f.password, &f.again, NewPassword::AGAIN, &mut errors)
        .map(|pass| move |tx: &mut store::Tx<'_>| register::user::set_password(tx, &name, &pass));
    let shown = Shown {
        account: f.account,
        ..Shown::default()
    };
    user_write(app, user, shown, errors, write).await
}
