//! «Cartas» of a program (`vigia program letters show|set|history`): the letterhead in force
//! (issuer, NIT, return address, city, payment bank, account and reference, signatory), what a
//! notice or a paz y salvo still lacks, every version, and the form that records a new one
//! (role jurídico). The rule is `register::letterhead`'s; no rule lives here.

use super::App;
use super::auth::User;
use super::extract::{Form, Path};
use super::pages::{Errors, Fields, Page, csrf_of, ok, see_other};
use super::views::{csrf, input, momento, page};
use crate::program::Issuer;
use crate::register::letterhead::{self, For, Update};
use crate::register::user::Role;
use crate::store::letterheads::{self, Letterhead};
use crate::store::programs;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route(
        "/programas/{code}/cartas",
        get(letters_page).post(letters_set),
    )
}

/// The form's inputs: (input name, label, the part of the letterhead). The NIT's and the
/// reference's names are their register fields', so a refusal lands next to them.
const INPUTS: &[(&str, &str)] = &[
    (
        "entity",
        "Emisor (entidad que escribe en nombre de los vendedores)",
    ),
    ("issuer_nit", "NIT del emisor"),
    ("address", "Dirección de respuesta y devolución"),
    ("city", "Ciudad de la fecha"),
    ("bank", "Banco de pago"),
    ("account", "Cuenta de pago"),
    ("payment_reference", "Referencia de pago"),
    ("signatory_name", "Nombre de quien firma"),
    ("signatory_position", "Cargo de quien firma"),
];

fn value<'a>(i: &'a Issuer, name: &str) -> Option<&'a str> {
    match name {
        "entity" => i.entity.as_deref(),
        "issuer_nit" => i.nit.as_deref(),
        "address" => i.address.as_deref(),
        "city" => i.city.as_deref(),
        "bank" => i.bank.as_deref(),
        "account" => i.account.as_deref(),
        "payment_reference" => i.reference.as_deref(),
        "signatory_name" => i.signatory_name.as_deref(),
        "signatory_position" => i.signatory_position.as_deref(),
        _ => None,
    }
}

fn lacks_es(i: &Issuer, kind: For) -> String {
    let parts: Vec<String> = letterhead::missing(i, kind)
        .iter()
        .map(|p| p.said().es().to_string())
        .collect();
    if parts.is_empty() {
        "nada".into()
    } else {
        parts.join(", ")
    }
}

struct View {
    code: String,
    /// The program file's `[letters.issuer]`: the form's values before the first version.
    file: Issuer,
    history: Vec<Letterhead>,
}

fn markup(user: &User, v: &View, errors: &Errors, typed: Option<&Fields>) -> Markup {
    let current = v.history.last();
    let shown = current.map_or(&v.file, |l| &l.issuer);
    let typed_value = |name: &str| -> String {
        match typed {
            Some(t) => t
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, x)| x.clone())
                .unwrap_or_default(),
            None => value(shown, name).unwrap_or_default().to_string(),
        }
    };
    html! {
        (errors.general())
        @match current {
            Some(l) => {
                p { "Membrete vigente: versión " (l.id) ", registrada el " (momento(&l.created_at)) " por " (l.created_by) "." }
                dl.hechos {
                    @for (name, label) in INPUTS {
                        dt { (label) } dd { (value(&l.issuer, name).unwrap_or("—")) }
                    }
                    dt { "A un aviso de cobro le falta" } dd { (lacks_es(&l.issuer, For::Notice)) }
                    dt { "A un paz y salvo le falta" } dd { (lacks_es(&l.issuer, For::Settlement)) }
                }
            }
            None => p.aviso {
                "El programa aún no tiene membrete en el registro: no se emiten avisos de cobro ni paz y salvo hasta registrarlo. "
                "El formulario trae los valores del archivo del programa, si los tiene."
            },
        }
        @if user.may(Role::Juridico) {
            h2 { "Registrar una nueva versión" }
            form method="post" action={"/programas/" (v.code) "/cartas"} {
                (csrf(user))
                @for (name, label) in INPUTS {
                    (input(name, label, &typed_value(name), errors.get(name), None))
                }
                div.acciones { button type="submit" { "Registrar membrete" } }
            }
        }
        @if v.history.len() > 1 {
            h2 { "Versiones anteriores" }
            table {
                thead { tr { th { "versión" } th { "emisor" } th { "firma" } th { "registrada" } } }
                tbody {
                    @for l in v.history.iter().rev().skip(1) {
                        tr {
                            td { (l.id) }
                            td { (l.issuer.entity.as_deref().unwrap_or("—")) }
                            td { (l.issuer.signatory_name.as_deref().unwrap_or("—")) ", " (l.issuer.signatory_position.as_deref().unwrap_or("—")) }
                            td { (momento(&l.created_at)) " por " (l.created_by) }
                        }
                    }
                }
            }
        }
    }
}

fn view(s: &crate::store::Store, code: &str) -> Result<View, super::WebError> {
    let p = programs::by_code(s.conn(), code)?;
    Ok(View {
        code: p.program.code.clone(),
        file: p.program.letters.issuer.clone(),
        history: letterheads::history(s.conn(), p.id)?,
    })
}

async fn letters_page(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    let v = app.db(move |s| view(s, &code)).await?;
    let title = format!("Cartas del programa {}", v.code);
    ok(page(
        Some(&user),
        &title,
        markup(&user, &v, &Errors::default(), None),
    ))
}

async fn letters_set(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Juridico)?;
    // every input is sent: each replaces its part, an empty one clears it
    let get = |name: &str| {
        Some(
            f.iter()
                .find(|(k, _)| k == name)
                .map(|(_, x)| x.clone())
                .unwrap_or_default(),
        )
    };
    let u = Update {
        entity: get("entity"),
        nit: get("issuer_nit"),
        address: get("address"),
        city: get("city"),
        bank: get("bank"),
        account: get("account"),
        reference: get("payment_reference"),
        signatory_name: get("signatory_name"),
        signatory_position: get("signatory_position"),
    };
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            match s.write::<_, crate::register::Error>(&officer, |tx| letterhead::set(tx, &p, &u)) {
                Ok(_) => Ok(Ok(p.program.code)),
                Err(e) => {
                    let mut errors = Errors::default();
                    errors.register(e)?;
                    Ok(Err((view(s, &code)?, errors)))
                }
            }
        })
        .await?;
    match result {
        Ok(code) => see_other(format!("/programas/{code}/cartas")),
        Err((v, errors)) => {
            let body = errors.placed(|| markup(&user, &v, &errors, Some(&f)));
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                Html(
                    page(
                        Some(&user),
                        &format!("Cartas del programa {}", v.code),
                        body,
                    )
                    .into_string(),
                ),
            )
                .into_response())
        }
    }
}
