//! `/programas/{code}/oferta`: the program's first-stage offer (Decreto 3939 Art. 4): its window
//! once opened, else (administrators) the form that opens it, as `vigia offer open` does, through
//! `register::offering::open` (the window checked there: at least the program's length from the
//! business day after the notice; outside the program's validity only with a reason). A refusal
//! is shown beside the date or the reason it names.

use super::auth::User;
use super::extract::Path;
use super::form::{Errors, Inputs, Page, Posted, Sent, keep, ok, see_other, with_status};
use super::views::{self, csrf, fecha, input, momento, page};
use super::{App, input as parse};
use crate::offering::adjudicate::Window;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::offering::{self as offers, Offer};
use crate::store::programs::{self, StoredProgram};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/programas/{code}/oferta", get(offer_page).post(offer_open))
}

/// The offer's window as typed (`vigia offer open --opens --closes --reason`).
#[derive(Default)]
struct OpenForm {
    opens: String,
    closes: String,
    reason: String,
}

impl Inputs for OpenForm {
    fn read(sent: &Sent) -> OpenForm {
        OpenForm {
            opens: sent.text(Field::OfferOpens.as_str()),
            closes: sent.text(Field::OfferCloses.as_str()),
            reason: sent.text(Field::ValidityReason.as_str()),
        }
    }
}

impl OpenForm {
    /// The window read, and the reason if one was typed; each date's problem goes in `errors`.
    fn parse(&self, errors: &mut Errors) -> Option<(Window, Option<String>)> {
        let opens = keep(errors, Field::OfferOpens.as_str(), parse::date(&self.opens));
        let closes = keep(
            errors,
            Field::OfferCloses.as_str(),
            parse::date(&self.closes),
        );
        let reason = Some(self.reason.trim().to_string()).filter(|s| !s.is_empty());
        Some((
            Window {
                opens: opens?,
                closes: closes?,
            },
            reason,
        ))
    }
}

/// The program and its offer, if opened.
fn view(
    conn: &rusqlite::Connection,
    code: &str,
) -> Result<(StoredProgram, Option<Offer>), super::WebError> {
    let p = programs::by_code(conn, code)?;
    let offer = offers::offer(conn, p.id)?;
    Ok((p, offer))
}

fn markup(
    user: &User,
    p: &StoredProgram,
    offer: Option<&Offer>,
    errors: &Errors,
    typed: &OpenForm,
) -> Markup {
    let code = &p.program.code;
    let e = |f: Field| errors.get(f.as_str());
    html! {
        p { "Programa " a href={"/programas/" (code)} { (code) } ": " (p.program.name) "." }
        (errors.general())
        @match offer {
            Some(o) => dl.hechos #oferta {
                dt { "Aviso de oferta" } dd { (fecha(o.window.opens)) }
                dt { "Cierre (último día para aceptar)" } dd { (fecha(o.window.closes)) }
                dt { "Abierta" } dd { (momento(&o.created_at)) " por " (o.created_by) }
            },
            None => {
                p { "La oferta de primera etapa de este programa aún no se ha abierto." }
                @if user.may(Role::Admin) {
                    h2 { "Abrir la oferta" }
                    p {
                        "Una sola vez por programa. La oferta permanece vigente al menos "
                        (p.program.offer.length_said().in_lang(crate::lang::Lang::Es))
                        " contados desde el día hábil siguiente al aviso (" (p.program.decree) ", " (p.program.offer.article) ")."
                    }
                    form method="post" action={"/programas/" (code) "/oferta"} {
                        (csrf(user))
                        (input(Field::OfferOpens.as_str(), views::field_label(Field::OfferOpens), &typed.opens, e(Field::OfferOpens), Some("dd/mm/aaaa: el día en que se publica el aviso")))
                        (input(Field::OfferCloses.as_str(), views::field_label(Field::OfferCloses), &typed.closes, e(Field::OfferCloses), Some("dd/mm/aaaa: el último día en que se reciben aceptaciones")))
                        (input(Field::ValidityReason.as_str(), views::field_label(Field::ValidityReason), &typed.reason, e(Field::ValidityReason), Some("solo si el aviso cae fuera de la vigencia del programa (art. 28): una prórroga, un decreto posterior")))
                        div.acciones { button type="submit" { "Abrir la oferta" } }
                    }
                }
            }
        }
    }
}

fn title(code: &str) -> String {
    format!("Oferta de primera etapa del programa {code}")
}

async fn offer_page(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    let (p, offer) = app.db(move |s| view(s.conn(), &code)).await?;
    let body = markup(
        &user,
        &p,
        offer.as_ref(),
        &Errors::default(),
        &OpenForm::default(),
    );
    ok(page(Some(&user), &title(&p.program.code), body))
}

async fn offer_open(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    sent: Posted<OpenForm>,
) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let parsed = f.parse(&mut errors);
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            if let Some((window, reason)) = parsed {
                match s.write::<_, register::Error>(&officer, |tx| {
                    register::offering::open(tx, &p, window, reason.as_deref())
                }) {
                    Ok(_) => return Ok(Ok(p.program.code)),
                    Err(e) => errors.register(e)?,
                }
            }
            let offer = offers::offer(s.conn(), p.id)?;
            Ok(Err((p, offer, errors)))
        })
        .await?;
    match result {
        Ok(code) => see_other(format!("/programas/{code}/oferta")),
        Err((p, offer, errors)) => {
            let body = errors.placed(|| markup(&user, &p, offer.as_ref(), &errors, &f));
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), &title(&p.program.code), body),
            )
        }
    }
}
