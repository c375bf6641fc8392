//! `/adjudicaciones/{id}/incumplimiento`: a breach recorded from its form (`vigia breach
//! record`), or previewed first: the register's rules tried in a transaction rolled back, and
//! the fine the breach would carry, priced by `register::liquidation::preview` (the case it
//! assembles for a stored breach). Nothing is written by a preview.

use super::auth::User;
use super::extract::Path;
use super::form::{Errors, Inputs, Page, Posted, Sent, dry_run, keep, ok, see_other, with_status};
use super::views::{self, csrf, fecha, input, numero, page};
use super::{App, input as parse};
use crate::program::BreachKind;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::breaches::NewBreach;
use crate::store::{adjudications, programs};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use chrono::NaiveDate;
use maud::{Markup, html};
use rust_decimal::Decimal;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route(
        "/adjudicaciones/{id}/incumplimiento",
        get(breach_form).post(breach_submit),
    )
}

/// The breach form, as typed.
#[derive(Default)]
struct BreachForm {
    kind: String,
    date: String,
    shares: String,
    per_share: String,
    total: String,
    registered_on: String,
    evidence: String,
    /// The date of the preview's fine (no register field: the fine is not stored).
    until: String,
    /// Record it (else: preview it).
    save: bool,
}

impl BreachForm {
    const UNTIL: &str = "until";
    /// Which button was pressed: [`BreachForm::PREVIEW`] or [`BreachForm::SAVE`].
    const ACTION: &str = "accion";
    const PREVIEW: &str = "vista";
    const SAVE: &str = "registrar";
}

impl Inputs for BreachForm {
    fn read(sent: &Sent) -> BreachForm {
        BreachForm {
            kind: sent.text(Field::BreachKind.as_str()),
            date: sent.text(Field::BreachDate.as_str()),
            shares: sent.text(Field::Shares.as_str()),
            per_share: sent.text(Field::ConsiderationPerShare.as_str()),
            total: sent.text(Field::ConsiderationTotal.as_str()),
            registered_on: sent.text(Field::RegisteredOn.as_str()),
            evidence: sent.text(Field::Evidence.as_str()),
            until: sent.text(BreachForm::UNTIL),
            save: sent.text(BreachForm::ACTION) == BreachForm::SAVE,
        }
    }
}

/// The breach form read: what `register::breach::record` is given, and the preview's date.
struct ParsedBreach {
    kind: BreachKind,
    date: NaiveDate,
    shares: u64,
    per_share: Option<Decimal>,
    total: Option<Decimal>,
    registered_on: Option<NaiveDate>,
    evidence: Option<String>,
    until: NaiveDate,
}

impl ParsedBreach {
    fn new_breach(&self, adjudication_id: i64) -> NewBreach<'_> {
        NewBreach {
            adjudication_id,
            kind: self.kind,
            breach_date: self.date,
            shares: self.shares,
            consideration_per_share: self.per_share,
            consideration_total: self.total,
            registered_on: self.registered_on,
            evidence: self.evidence.as_deref(),
        }
    }
}

/// `text` trimmed, `None` when empty.
fn given(text: &str) -> Option<&str> {
    Some(text.trim()).filter(|s| !s.is_empty())
}

impl BreachForm {
    /// The form read; each input's problem goes in `errors`. `today` is the preview's default.
    fn parse(&self, today: NaiveDate, errors: &mut Errors) -> Option<ParsedBreach> {
        let kind = keep(
            errors,
            Field::BreachKind.as_str(),
            self.kind
                .parse::<BreachKind>()
                .map_err(|_| "elija el tipo de incumplimiento".to_string()),
        );
        let date = keep(errors, Field::BreachDate.as_str(), parse::date(&self.date));
        let shares = keep(errors, Field::Shares.as_str(), parse::count(&self.shares));
        let per_share = keep(
            errors,
            Field::ConsiderationPerShare.as_str(),
            given(&self.per_share).map(parse::amount).transpose(),
        );
        let total = keep(
            errors,
            Field::ConsiderationTotal.as_str(),
            given(&self.total).map(parse::amount).transpose(),
        );
        let registered_on = keep(
            errors,
            Field::RegisteredOn.as_str(),
            given(&self.registered_on).map(parse::date).transpose(),
        );
        let until = keep(
            errors,
            BreachForm::UNTIL,
            given(&self.until).map_or(Ok(today), parse::date),
        );
        Some(ParsedBreach {
            kind: kind?,
            date: date?,
            shares: shares?,
            per_share: per_share?,
            total: total?,
            registered_on: registered_on?,
            evidence: given(&self.evidence).map(str::to_string),
            until: until?,
        })
    }
}

/// The form's page: the adjudication, the form as typed with its refusals, and the preview.
struct FormPage {
    adj: adjudications::Adjudication,
    kinds: Vec<BreachKind>,
    today: NaiveDate,
    errors: Errors,
    preview: Option<Markup>,
    /// `register::breach::record_blocked`, in Spanish: no form is offered.
    blocked: Option<String>,
}

fn breach_form_markup(user: &User, p: &FormPage, i: &BreachForm) -> Markup {
    let (adj, errors) = (&p.adj, &p.errors);
    let e = |k: Field| errors.get(k.as_str());
    let until = if i.until.is_empty() {
        fecha(p.today)
    } else {
        i.until.clone()
    };
    let kind = Field::BreachKind.as_str();
    html! {
        p {
            "Adjudicación " (adj.id) " de " a href={"/titulares/" (adj.holder.id)} { (adj.holder.name) }
            " (" (views::documento(adj.holder.doc_type, &adj.holder.doc_number)) "): " (numero(adj.shares))
            " acciones el " (fecha(adj.adjudicated_on)) ", programa " (views::ident(&adj.program_code)) "."
        }
        (errors.general())
        @if let Some(vd) = &adj.void {
            p.aviso {
                "ANULADA " (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason)
                ". Una adjudicación anulada no admite incumplimientos."
            }
        } @else if let Some(why) = &p.blocked {
            p.aviso { (views::sentence(why)) }
        } @else {
        form method="post" action={"/adjudicaciones/" (adj.id) "/incumplimiento"} {
            (csrf(user))
            div.campo.con-error[e(Field::BreachKind).is_some()] {
                label for=(kind) { "Tipo de incumplimiento" }
                select id=(kind) name=(kind) {
                    @for k in &p.kinds {
                        option value=(k.as_str()) selected[i.kind == k.as_str()] { (k.label_es()) }
                    }
                }
                @if let Some(m) = e(Field::BreachKind) { p.error role="alert" { (views::sentence(m)) } }
            }
            (input(Field::BreachDate.as_str(), views::field_label(Field::BreachDate), &i.date, e(Field::BreachDate), Some("dd/mm/aaaa")))
            (input(Field::Shares.as_str(), views::field_label(Field::Shares), &i.shares, e(Field::Shares), None))
            (input(Field::ConsiderationPerShare.as_str(), views::field_label(Field::ConsiderationPerShare), &i.per_share, e(Field::ConsiderationPerShare), Some("en pesos, p. ej. 1.450,50; o deje vacío y use el total")))
            (input(Field::ConsiderationTotal.as_str(), views::field_label(Field::ConsiderationTotal), &i.total, e(Field::ConsiderationTotal), None))
            (input(Field::RegisteredOn.as_str(), views::field_label(Field::RegisteredOn), &i.registered_on, e(Field::RegisteredOn), Some("inscripción en el libro de accionistas, dd/mm/aaaa")))
            (input(Field::Evidence.as_str(), "Prueba (documento, carta, asiento)", &i.evidence, None, None))
            (input(BreachForm::UNTIL, "Vista previa de la multa al", &until, errors.get(BreachForm::UNTIL), Some("dd/mm/aaaa; por defecto hoy")))
            div.acciones {
                button type="submit" name=(BreachForm::ACTION) value=(BreachForm::PREVIEW) { "Vista previa de la multa" }
                button type="submit" name=(BreachForm::ACTION) value=(BreachForm::SAVE) { "Registrar incumplimiento" }
            }
        }
        }
        @if let Some(p) = &p.preview { section #vista-previa { h2 { "Vista previa (nada se ha registrado)" } (p) } }
    }
}

/// Why the register would refuse any breach of adjudication `id` (`record_blocked`), in Spanish.
fn blocked(conn: &rusqlite::Connection, id: i64) -> Result<Option<String>, register::Error> {
    Ok(register::breach::record_blocked(conn, id)?.map(|r| views::refusal_reason(&r)))
}

async fn breach_form(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    user.require(Role::Oficial)?;
    let today = app.today();
    let (adj, kinds, blocked) = app
        .db(move |s| {
            let adj = adjudications::get(s.conn(), id)?;
            let p = programs::by_id(s.conn(), adj.program_id)?;
            Ok((adj, p.program.breach_kinds, blocked(s.conn(), id)?))
        })
        .await?;
    let p = FormPage {
        adj,
        kinds,
        today,
        errors: Errors::default(),
        preview: None,
        blocked,
    };
    let body = breach_form_markup(&user, &p, &BreachForm::default());
    ok(page(Some(&user), "Registrar incumplimiento", body))
}

async fn breach_submit(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<BreachForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let today = app.today();
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let (form, done) = app
        .db(move |s| {
            let adj = adjudications::get(s.conn(), id)?;
            let kinds = programs::by_id(s.conn(), adj.program_id)?
                .program
                .breach_kinds;
            let mut fp = FormPage {
                adj,
                kinds,
                today,
                errors: Errors::default(),
                preview: None,
                blocked: None,
            };
            let Some(p) = form.parse(today, &mut fp.errors) else {
                return Ok((form, Err(fp)));
            };
            let new = p.new_breach(id);
            if form.save {
                match s.write::<_, register::Error>(&officer, |tx| {
                    register::breach::record(tx, &new, today)
                }) {
                    Ok(bid) => return Ok((form, Ok(bid))),
                    Err(e) => fp.errors.register(e)?,
                }
                return Ok((form, Err(fp)));
            }
            // the preview: the same rules in a transaction rolled back, then the fine
            if let Err(e) = dry_run(s, &officer, |tx| register::breach::record(tx, &new, today)) {
                fp.errors.register(e)?;
            }
            // no fine of a voided adjudication to preview
            if fp.adj.void.is_none() {
                let rates = app2.rates(s)?;
                fp.preview = Some(
                    match register::liquidation::preview(s.conn(), &new, p.until, &rates) {
                        Ok(o) => views::outcome(&o),
                        Err(register::Error::Fine(e)) => html! {
                            p.error role="alert" { (views::sentence(&views::fine_error_text(&e))) }
                        },
                        Err(e) => return Err(e.into()),
                    },
                );
            }
            Ok((form, Err(fp)))
        })
        .await?;
    match done {
        Ok(bid) => see_other(format!("/incumplimientos/{bid}")),
        Err(p) => {
            let status = if p.errors.is_empty() {
                StatusCode::OK
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            let body = p.errors.placed(|| breach_form_markup(&user, &p, &form));
            with_status(status, page(Some(&user), "Registrar incumplimiento", body))
        }
    }
}
