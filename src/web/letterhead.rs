//! «Cartas» of a program (`vigia program letters show|set|history`): the letterhead in force
//! (issuer, NIT, return address, city, payment bank, account and reference, signatory), what a
//! notice or a paz y salvo still lacks, every version, and the form that records a new one
//! (role jurídico). The rule is `register::letterhead`'s; no rule lives here.

use super::App;
use super::auth::User;
use super::extract::Path;
use super::form::{Errors, Inputs, Page, Posted, Sent, ok, see_other, with_status};
use super::views::{self, csrf, input, momento, page};
use crate::program::Issuer;
use crate::register::Field;
use crate::register::letterhead::{self, For, Update};
use crate::register::user::Role;
use crate::store::letterheads::{self, Letterhead};
use crate::store::programs;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route(
        "/programas/{code}/cartas",
        get(letters_page).post(letters_set),
    )
}

/// The parts of a letterhead the form edits, in the form's order. The NIT's, the address's,
/// the city's and the reference's inputs are named by their register fields, so a refusal lands
/// next to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Entity,
    Nit,
    Address,
    City,
    Bank,
    Account,
    Reference,
    SignatoryName,
    SignatoryPosition,
}

impl Part {
    const ALL: [Part; 9] = [
        Part::Entity,
        Part::Nit,
        Part::Address,
        Part::City,
        Part::Bank,
        Part::Account,
        Part::Reference,
        Part::SignatoryName,
        Part::SignatoryPosition,
    ];

    /// The part's input.
    fn name(self) -> &'static str {
        match self {
            Part::Entity => "entity",
            Part::Nit => Field::IssuerNit.as_str(),
            Part::Address => Field::Address.as_str(),
            Part::City => Field::City.as_str(),
            Part::Bank => "bank",
            Part::Account => "account",
            Part::Reference => Field::PaymentReference.as_str(),
            Part::SignatoryName => "signatory_name",
            Part::SignatoryPosition => "signatory_position",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Part::Entity => "Emisor (entidad que escribe en nombre de los vendedores)",
            Part::Nit => "NIT del emisor",
            Part::Address => "Dirección de respuesta y devolución",
            Part::City => "Ciudad de la fecha",
            Part::Bank => "Banco de pago",
            Part::Account => "Cuenta de pago",
            Part::Reference => "Referencia de pago",
            Part::SignatoryName => "Nombre de quien firma",
            Part::SignatoryPosition => "Cargo de quien firma",
        }
    }

    /// The part in a letterhead.
    fn of(self, i: &Issuer) -> Option<&str> {
        match self {
            Part::Entity => i.entity.as_deref(),
            Part::Nit => i.nit.as_deref(),
            Part::Address => i.address.as_deref(),
            Part::City => i.city.as_deref(),
            Part::Bank => i.bank.as_deref(),
            Part::Account => i.account.as_deref(),
            Part::Reference => i.reference.as_deref(),
            Part::SignatoryName => i.signatory_name.as_deref(),
            Part::SignatoryPosition => i.signatory_position.as_deref(),
        }
    }
}

/// A new version of the letterhead: every part as typed (an empty one clears it).
struct LetterheadForm([String; 9]);

impl Inputs for LetterheadForm {
    fn read(sent: &Sent) -> LetterheadForm {
        LetterheadForm(Part::ALL.map(|p| sent.text(p.name())))
    }
}

impl LetterheadForm {
    fn get(&self, p: Part) -> &str {
        &self.0[p as usize]
    }

    /// What `register::letterhead::set` is given: each part replaces its own.
    fn update(&self) -> Update {
        let part = |p: Part| Some(self.get(p).to_string());
        Update {
            entity: part(Part::Entity),
            nit: part(Part::Nit),
            address: part(Part::Address),
            city: part(Part::City),
            bank: part(Part::Bank),
            account: part(Part::Account),
            reference: part(Part::Reference),
            signatory_name: part(Part::SignatoryName),
            signatory_position: part(Part::SignatoryPosition),
        }
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

/// What the payment reference's placeholders become in each letter.
const REFERENCE_HINT: &str = "En cada carta, {number} se reemplaza por el número del aviso (MULTA-2025-0001), {doc} por el \
    número de documento del titular y {breach} por el número del incumplimiento; p. ej. «{number}-{doc}» se lee \
    «MULTA-2025-0001-79263082». Vacío: el número del aviso.";

struct View {
    code: String,
    /// The program file's `[letters.issuer]`: the form's values before the first version.
    file: Issuer,
    history: Vec<Letterhead>,
}

fn markup(user: &User, v: &View, errors: &Errors, typed: Option<&LetterheadForm>) -> Markup {
    let current = v.history.last();
    let shown = current.map_or(&v.file, |l| &l.issuer);
    let typed_value = |p: Part| -> String {
        match typed {
            Some(t) => t.get(p).to_string(),
            None => p.of(shown).unwrap_or_default().to_string(),
        }
    };
    html! {
        (errors.general())
        @match current {
            Some(l) => {
                p { "Membrete vigente: versión " (l.id) ", registrada el " (momento(&l.created_at)) " por " (l.created_by) "." }
                dl.hechos {
                    @for p in Part::ALL {
                        dt { (p.label()) } dd {
                            (p.of(&l.issuer).unwrap_or("—"))
                            @if p == Part::Reference {
                                " — en el aviso N.º MULTA-2025-0001 del incumplimiento N.º 7 de CC 79263082 se lee «"
                                (l.issuer.reference_for("MULTA-2025-0001", "79263082", 7)) "»"
                            }
                        }
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
                @for p in Part::ALL {
                    (input(p.name(), p.label(), &typed_value(p), errors.get(p.name()), (p == Part::Reference).then_some(REFERENCE_HINT)))
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
    let title = views::Title::naming(format!("Cartas del programa {}", v.code), &[&v.code]);
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
    sent: Posted<LetterheadForm>,
) -> Page {
    let f = sent.checked(&user, Role::Juridico)?;
    let u = f.update();
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
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(
                    Some(&user),
                    views::Title::naming(format!("Cartas del programa {}", v.code), &[&v.code]),
                    body,
                ),
            )
        }
    }
}
