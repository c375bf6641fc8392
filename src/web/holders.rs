//! `/titulares`: the search and a holder's page (its adjudications, pledges, corrections and
//! timeline), with the page's forms: a pledge registered or released on an adjudication
//! (`/adjudicaciones/{id}/prendas`, `/liberar`, as `vigia pledge register|release`) and the
//! corrections (`/adjudicaciones/{id}/anular`, `/prendas/{id}/anular`, as `vigia adjudications
//! void` and `vigia pledge void`). A refusal draws the page again with the message beside the
//! input it names, in the form that was sent.

use super::auth::User;
use super::charts::Fact;
use super::extract::{Path, Query};
use super::form::{Errors, Inputs, Page, Posted, Sent, VoidForm, keep, ok, see_other, with_status};
use super::views::{self, PesosColumn, SEARCH, csrf, fecha, input, momento, numero, page, pesos};
use super::{App, WebError, input as parse};
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::{self, StoreError, adjudications, breaches, pledges};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/titulares", get(search))
        .route("/titulares/{id}", get(holder))
        .route("/titulares/{id}/contacto", post(contact_update))
        .route("/adjudicaciones/{id}/prendas", post(pledge_register))
        .route("/adjudicaciones/{id}/liberar", post(pledge_release))
        .route("/adjudicaciones/{id}/anular", post(void_adjudication))
        .route("/prendas/{id}/anular", post(void_pledge))
}

// ---------------------------------------------------------------------------- the forms

/// A pledge registered on an adjudication (`vigia pledge register`).
#[derive(Default)]
struct PledgeForm {
    rank: String,
    registered_on: String,
    lender: String,
    shares: String,
}

impl Inputs for PledgeForm {
    fn read(sent: &Sent) -> PledgeForm {
        PledgeForm {
            rank: sent.text(Field::PledgeRank.as_str()),
            registered_on: sent.text(Field::RegisteredOn.as_str()),
            lender: sent.text(Field::Lender.as_str()),
            shares: sent.text(Field::Shares.as_str()),
        }
    }
}

/// What `register::pledge::register` is given.
struct NewPledge {
    rank: u8,
    on: NaiveDate,
    lender: Option<String>,
    shares: Option<u64>,
}

impl PledgeForm {
    /// The form read; each input's problem goes in `errors`.
    fn parse(&self, errors: &mut Errors) -> Option<NewPledge> {
        let rank = match self.rank.trim() {
            "1" => Some(1u8),
            "2" => Some(2u8),
            _ => {
                errors.put(
                    Field::PledgeRank.as_str(),
                    "Escriba el grado de la prenda: 1 o 2.".into(),
                );
                None
            }
        };
        let on = keep(
            errors,
            Field::RegisteredOn.as_str(),
            parse::date(&self.registered_on),
        );
        let shares = keep(
            errors,
            Field::Shares.as_str(),
            Some(self.shares.trim())
                .filter(|s| !s.is_empty())
                .map(parse::count)
                .transpose(),
        );
        Some(NewPledge {
            rank: rank?,
            on: on?,
            lender: Some(self.lender.trim().to_string()).filter(|s| !s.is_empty()),
            shares: shares?,
        })
    }
}

/// The pledges of an adjudication released (`vigia pledge release`), or one of them.
#[derive(Default)]
struct ReleaseForm {
    /// One of several pledges in force (`--pledge`); empty: every one.
    pledge: String,
    on: String,
}

impl Inputs for ReleaseForm {
    fn read(sent: &Sent) -> ReleaseForm {
        ReleaseForm {
            pledge: sent.text(Field::Pledge.as_str()),
            on: sent.text(Field::ReleaseDate.as_str()),
        }
    }
}

/// Where the holder receives letters (`vigia holder update`): each input replaces that detail,
/// an empty one clears it.
#[derive(Default)]
struct ContactForm {
    address: String,
    city: String,
    email: String,
}

impl Inputs for ContactForm {
    fn read(sent: &Sent) -> ContactForm {
        ContactForm {
            address: sent.text(Field::Address.as_str()),
            city: sent.text(Field::City.as_str()),
            email: sent.text(Field::Email.as_str()),
        }
    }
}

impl ContactForm {
    /// The details in force, as the form shows them before anything is typed.
    fn of(c: &crate::contact::Contact) -> ContactForm {
        let text = |x: &Option<String>| x.clone().unwrap_or_default();
        ContactForm {
            address: text(&c.address),
            city: text(&c.city),
            email: text(&c.email),
        }
    }
}

/// The form of a holder's page that was sent, with the record it is about, as typed.
#[derive(Default)]
enum Typed {
    #[default]
    Nothing,
    Pledge(i64, PledgeForm),
    Release(i64, ReleaseForm),
    VoidAdjudication(i64, VoidForm),
    VoidPledge(i64, VoidForm),
    Contact(ContactForm),
}

impl Typed {
    /// The adjudication whose pledge form was sent.
    fn pledge_forms_of(&self) -> Option<i64> {
        match self {
            Typed::Pledge(a, _) | Typed::Release(a, _) => Some(*a),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------- the pages

/// At most this many holders per search, and per page of the list of every holder.
const SEARCH_LIMIT: usize = 50;

/// The list's query: the id of the last holder of the page before (its next page follows it in
/// the name order).
const AFTER: &str = "despues";

async fn search(State(app): State<Arc<App>>, user: User, q: Query<Sent>) -> Page {
    let query = q.0.text(SEARCH);
    let after = match q.0.opt(AFTER) {
        Some(a) => Some(
            a.parse::<i64>()
                .map_err(|_| WebError::bad_request("«despues» no es un número de titular"))?,
        ),
        None => None,
    };
    let listing = query.trim().is_empty();
    let qq = query.clone();
    let mut found = app
        .db(move |s| {
            Ok(if listing {
                // one more than the page, to know whether a next page follows
                store::holders::page(s.conn(), after, SEARCH_LIMIT + 1)?
            } else {
                store::holders::search(s.conn(), &qq, SEARCH_LIMIT)?
            })
        })
        .await?;
    let more = listing && found.len() > SEARCH_LIMIT;
    found.truncate(SEARCH_LIMIT);
    let body = html! {
        (views::holder_search("Documento (con o sin puntos) o comienzo del nombre", &query))
        @if listing {
            @if found.is_empty() {
                @if after.is_some() { p { "No hay más titulares. " a href="/titulares" { "Primera página" } } }
                @else { p { "El registro no tiene titulares todavía: llegan con las adjudicaciones importadas." } }
            } @else {
                (holders_table(&found, &if after.is_some() { format!("Titulares por nombre, de {SEARCH_LIMIT} en {SEARCH_LIMIT} (página siguiente)") } else { format!("Titulares por nombre, de {SEARCH_LIMIT} en {SEARCH_LIMIT}") }))
                p.paginas {
                    @if after.is_some() { a href="/titulares" { "Primera página" } }
                    @if after.is_some() && more { " · " }
                    @if more { @if let Some(last) = found.last() { a href={"/titulares?" (AFTER) "=" (last.id)} rel="next" { "Siguiente" } } }
                }
            }
        } @else {
            @if found.is_empty() { p { "Ningún titular coincide con «" (query) "»." } }
            @else {
                (holders_table(&found, &format!("Titulares que coinciden con «{query}»")))
                @if found.len() == SEARCH_LIMIT { p { "Se muestran los primeros " (SEARCH_LIMIT) "; precise la búsqueda." } }
            }
        }
    };
    ok(page(Some(&user), "Titulares", body))
}

/// Holders found or listed, each linked to its page.
fn holders_table(found: &[adjudications::Holder], caption: &str) -> Markup {
    html! {
        table.titulares {
            caption { (caption) }
            thead { tr { th { "documento" } th { "nombre" } th { "persona" } } }
            tbody {
                @for h in found {
                    tr {
                        td { (views::documento(h.doc_type, &h.doc_number)) }
                        td { a href={"/titulares/" (h.id)} { (h.name) } }
                        td { (h.person_type.name_es()) }
                    }
                }
            }
        }
    }
}

struct HolderView {
    holder: adjudications::Holder,
    /// The contact details in force, with who recorded them and when; `None`: never recorded.
    contact: Option<store::contacts::Version>,
    adjudications: Vec<Held>,
    timeline: Vec<Fact>,
}

/// One of the holder's adjudications as its page shows it: its pledges, its shares no breach
/// covers, and why the register would refuse a pledge or its void whatever is typed (the page
/// then says so instead of offering the form).
struct Held {
    a: adjudications::Adjudication,
    pledges: Vec<pledges::Pledge>,
    free: u64,
    /// `register::pledge::register_blocked`, in Spanish.
    pledge_blocked: Option<String>,
    /// `register::adjudication::void_blocked`, in Spanish.
    void_blocked: Option<String>,
    /// `register::breach::record_blocked`, in Spanish.
    breach_blocked: Option<String>,
}

async fn holder(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let v = app.db(move |s| holder_view(s.conn(), id)).await?;
    let body = holder_markup(&user, &v, &Errors::default(), &Typed::Nothing);
    ok(page(Some(&user), &v.holder.name, body))
}

/// A holder's page; `errors` and `typed` belong to the form that was sent.
fn holder_markup(user: &User, v: &HolderView, errors: &Errors, typed: &Typed) -> Markup {
    let h = &v.holder;
    let sent_for = typed.pledge_forms_of();
    let none = (PledgeForm::default(), ReleaseForm::default());
    html! {
        p.titular { (views::documento(h.doc_type, &h.doc_number)) }
        (contact_markup(user, v, errors, typed))
        h2 { "Adjudicaciones" }
        table.adjudicaciones {
            thead { tr { th { "N.º" } th { "programa" } th { "fecha" } th.num { "acciones" } th.num { "precio" } th.num { "acciones sin incumplimiento" } th { "prendas" } th { "incumplimiento" } } }
            @let prices = PesosColumn::of(v.adjudications.iter().map(|h| h.a.price_per_share));
            tbody {
                @for Held { a, pledges: ps, free, breach_blocked, .. } in &v.adjudications {
                    tr {
                        td data-label="N.º" { (a.id) @if a.void.is_some() { " (ANULADA)" } } td data-label="Programa" { (views::ident(&a.program_code)) } td data-label="Fecha" { (fecha(a.adjudicated_on)) }
                        td.num data-label="Acciones" { (numero(a.shares)) } td.num data-label="Precio" { (prices.show(a.price_per_share)) } td.num data-label="Acciones sin incumplimiento" { (numero(*free)) }
                        td data-label="Prendas" { @for p in ps { "grado " (p.rank) @if p.void.is_some() { " (anulada)" } @else if p.released_on.is_some() { " (liberada)" } " " } }
                        td.accion {
                            @if user.may(Role::Oficial) {
                                @match breach_blocked {
                                    None => { a href={"/adjudicaciones/" (a.id) "/incumplimiento"} { "Registrar incumplimiento" } }
                                    // a voided adjudication says so in its number; the other
                                    // reason is said where the form would be
                                    Some(why) if a.void.is_none() => { span.nota { (why) } }
                                    Some(_) => {}
                                }
                            }
                        }
                    }
                }
            }
        }
        @if user.may(Role::Oficial) {
            h2 { "Prendas" }
            @if !matches!(typed, Typed::Contact(_)) { (errors.general()) }
            @for Held { a, pledges: ps, pledge_blocked, .. } in &v.adjudications {
                @let mine = sent_for == Some(a.id);
                // a refusal about the adjudication itself (voided meanwhile, say): under its
                // heading, even when it no longer takes the forms
                @let about_it = if mine { errors.get(Field::Adjudication.as_str()) } else { None };
                @if a.void.is_none() || about_it.is_some() {
                    h3 { "Adjudicación " (a.id) }
                }
                @if let Some(e) = about_it {
                    p.error id={"adjudicacion-" (a.id) "-error"} role="alert" { (views::sentence(e)) }
                }
                @if a.void.is_none() {
                    @let pf = match typed { Typed::Pledge(x, f) if *x == a.id => f, _ => &none.0 };
                    @let rf = match typed { Typed::Release(x, f) if *x == a.id => f, _ => &none.1 };
                    @let error_here = |k: Field| if mine { errors.get(k.as_str()) } else { None };
                    // no pledge the form could send would be registered (every share pledged):
                    // the register's reason instead of the form, unless the form just came back
                    @if let (Some(why), false) = (pledge_blocked, mine) {
                        p.cubiertas id={"no-prenda-" (a.id)} { "No se registra otra prenda: " (why) "." }
                    } @else {
                    form method="post" action={"/adjudicaciones/" (a.id) "/prendas"} {
                        (csrf(user))
                        (input(Field::PledgeRank.as_str(), views::field_label(Field::PledgeRank), &pf.rank, error_here(Field::PledgeRank), Some("1 o 2")))
                        (input(Field::RegisteredOn.as_str(), views::field_label(Field::RegisteredOn), &pf.registered_on, error_here(Field::RegisteredOn), Some("dd/mm/aaaa")))
                        (input(Field::Lender.as_str(), views::field_label(Field::Lender), &pf.lender, error_here(Field::Lender), Some("solo si la adjudicación fue financiada")))
                        (input(Field::Shares.as_str(), views::field_label(Field::Shares), &pf.shares, error_here(Field::Shares), Some("vacío: todas las aún no pignoradas; las financiadas en grado 2 y el resto en grado 1 (art. 10)")))
                        div.acciones { button type="submit" { "Registrar prenda" } }
                    }
                    }
                    @let in_force: Vec<&pledges::Pledge> = ps.iter().filter(|p| p.released_on.is_none() && p.void.is_none()).collect();
                    @if !in_force.is_empty() {
                        form method="post" action={"/adjudicaciones/" (a.id) "/liberar"} {
                            (csrf(user))
                            @if in_force.len() > 1 {
                                (super::split_pledges::which_to_release(&in_force, &rf.pledge))
                            }
                            (input(Field::ReleaseDate.as_str(), views::field_label(Field::ReleaseDate), &rf.on, error_here(Field::ReleaseDate), Some("dd/mm/aaaa; solo terminado el período de restricción y sin multa pendiente")))
                            div.acciones { button type="submit" { "Liberar prendas" } }
                        }
                    }
                }
            }
        }
        @if user.may(Role::Oficial) { (corrections(user, v, errors, typed)) }
        h2 { "Historia" }
        (super::charts::timeline(&v.timeline))
        table.historia #historia-tabla {
            thead { tr { th { "fecha" } th { "hecho" } } }
            tbody {
                @for f in &v.timeline {
                    tr class=[f.voided.is_some().then_some("anulado")] {
                        td { (fecha(f.on)) }
                        td {
                            @let what = views::with_idents(&f.what, &f.idents);
                            @let words = html! { @match &f.link { Some(l) => a href=(l) { (what) }, None => (what) } };
                            @if let Some(vd) = &f.voided { del { (words) } br; span.anulacion { (vd) } } @else { (words) }
                        }
                    }
                }
            }
        }
    }
}

/// Where the holder receives letters, in force: shown to everyone, changed by an oficial and
/// above (a new version, audited; letters already issued keep the one they were issued with).
fn contact_markup(user: &User, v: &HolderView, errors: &Errors, typed: &Typed) -> Markup {
    let shown = |x: &Option<String>| x.clone().unwrap_or_else(|| "—".into());
    let none = crate::contact::Contact::default();
    let current = v.contact.as_ref().map_or(&none, |c| &c.contact);
    let in_force = ContactForm::of(current);
    let form = match typed {
        Typed::Contact(f) => f,
        _ => &in_force,
    };
    let e = |k: Field| match typed {
        Typed::Contact(_) => errors.get(k.as_str()),
        _ => None,
    };
    html! {
        h2 { "Datos de contacto" }
        dl.hechos {
            dt { (views::field_label(Field::Address)) } dd #contacto-direccion { (shown(&current.address)) }
            dt { (views::field_label(Field::City)) } dd #contacto-ciudad { (shown(&current.city)) }
            dt { (views::field_label(Field::Email)) } dd #contacto-correo { (shown(&current.email)) }
            @if let Some(c) = &v.contact {
                dt { "Registrados" } dd { (momento(&c.created_at)) " por " (c.created_by) " (versión " (c.id) ")" }
            }
        }
        @if user.may(Role::Oficial) {
            @if matches!(typed, Typed::Contact(_)) { (errors.general()) }
            form method="post" action={"/titulares/" (v.holder.id) "/contacto"} {
                (csrf(user))
                (input(Field::Address.as_str(), views::field_label(Field::Address), &form.address, e(Field::Address), Some("vacío: sin dirección")))
                (input(Field::City.as_str(), views::field_label(Field::City), &form.city, e(Field::City), None))
                (input(Field::Email.as_str(), views::field_label(Field::Email), &form.email, e(Field::Email), Some("p. ej. nombre@dominio.co")))
                div.acciones { button type="submit" { "Guardar datos de contacto" } }
            }
        }
    }
}

/// The corrections on a holder's page (oficial and above): void an adjudication or a pledge
/// recorded by mistake, with a reason.
fn corrections(user: &User, v: &HolderView, errors: &Errors, typed: &Typed) -> Markup {
    let errors_of = |fields: &[Field]| -> Vec<String> {
        fields
            .iter()
            .filter_map(|f| errors.get(f.as_str()).map(str::to_string))
            .collect()
    };
    let reason = Field::VoidReason.as_str();
    html! {
        h2 { "Correcciones" }
        p {
            "Solo para lo registrado por error. Lo anulado queda en el registro, marcado, con quién, "
            "cuándo y por qué, y ninguna regla ni cifra lo cuenta. Una prenda liberada no se anula "
            "(la liberación es historia), y una adjudicación se anula solo sin incumplimientos ni "
            "prendas vigentes."
        }
        @for Held { a, pledges: ps, void_blocked, .. } in &v.adjudications {
            h3 { "Adjudicación " (a.id) " (" (fecha(a.adjudicated_on)) ", " (numero(a.shares)) " acciones)" }
            @if let Some(vd) = &a.void {
                p.aviso { "ANULADA " (momento(&vd.at)) " por " (vd.by) ": " (vd.reason) }
            }
            @if !ps.is_empty() {
                table.prendas {
                    thead { tr { th { "prenda" } th { "grado" } th.num { "acciones" } th { "inscrita" } th { "estado" } } }
                    tbody {
                        @for p in ps {
                            @let mine = match typed { Typed::VoidPledge(x, f) if *x == p.id => Some(f), _ => None };
                            @let id = format!("motivo-prenda-{}", p.id);
                            tr class=[p.void.is_some().then_some("anulado")] {
                                td data-label="Prenda" { (p.id) } td data-label="Grado" { (p.rank) } td.num data-label="Acciones" { (numero(p.shares)) } td data-label="Inscrita" { (fecha(p.registered_on)) }
                                td data-label="Estado" {
                                    @if let Some(vd) = &p.void {
                                        "ANULADA " (momento(&vd.at)) " por " (vd.by) ": " (vd.reason)
                                    } @else if let Some(on) = p.released_on {
                                        "liberada el " (fecha(on))
                                    } @else {
                                        form.anular method="post" action={"/prendas/" (p.id) "/anular"} {
                                            (csrf(user))
                                            label for=(id) { (views::field_label(Field::VoidReason)) }
                                            input id=(id) name=(reason) type="text" required
                                                value=(mine.map_or("", |f| f.reason.as_str()));
                                            button type="submit" { "Anular prenda" }
                                        }
                                    }
                                    @if mine.is_some() {
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
            @let mine = match typed { Typed::VoidAdjudication(x, f) if *x == a.id => Some(f), _ => None };
            // what the register would refuse whatever the reason: said, not offered (unless
            // the form just came back refused, with what was typed)
            @if let (Some(why), true, None) = (void_blocked, a.void.is_none(), mine) {
                p.nota id={"no-anulable-adjudicacion-" (a.id)} { "No puede anularse: " (why) "." }
            } @else if a.void.is_none() {
                @let id = format!("motivo-adjudicacion-{}", a.id);
                form.anular method="post" action={"/adjudicaciones/" (a.id) "/anular"} {
                    (csrf(user))
                    label for=(id) { (views::field_label(Field::VoidReason)) }
                    input id=(id) name=(reason) type="text" required
                        value=(mine.map_or("", |f| f.reason.as_str()));
                    button type="submit" { "Anular adjudicación" }
                }
            }
            // below the form, or in its place when the adjudication is void already
            @if mine.is_some() {
                @for e in errors_of(&[Field::VoidReason, Field::Adjudication]) {
                    p.error id={"motivo-adjudicacion-" (a.id) "-error"} role="alert" { (views::sentence(&e)) }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------- the writes

/// Whose page a write is made from.
#[derive(Clone, Copy)]
enum On {
    /// The holder of this adjudication.
    Adjudication(i64),
    Holder(i64),
}

/// Runs a write from a holder's page (`on`); a refusal shows the page again with the message
/// next to the input it names, in the form that was sent.
async fn holder_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    on: On,
    typed: Typed,
    parsed: Result<
        impl FnOnce(&App, &mut store::Tx<'_>) -> register::Result<T> + Send + 'static,
        Errors,
    >,
) -> Page {
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let result = app
        .db(move |s| {
            let holder = match on {
                On::Adjudication(a) => adjudications::get(s.conn(), a)?.holder.id,
                On::Holder(h) => {
                    store::holders::get(s.conn(), h)?
                        .ok_or_else(|| WebError::not_found(&format!("el titular {h}")))?
                        .id
                }
            };
            let mut errors = match parsed {
                Ok(write) => match s.write::<_, register::Error>(&officer, |tx| write(&app2, tx)) {
                    Ok(_) => return Ok(Ok(holder)),
                    Err(e) => {
                        let mut errors = Errors::default();
                        errors.register(e)?;
                        errors
                    }
                },
                Err(errors) => errors,
            };
            if errors.is_empty() {
                errors.general.push("La operación fue rechazada.".into());
            }
            let v = holder_view(s.conn(), holder)?;
            Ok(Err((v, errors)))
        })
        .await?;
    match result {
        Ok(holder) => see_other(format!("/titulares/{holder}")),
        Err((v, errors)) => {
            let body = errors.placed(|| holder_markup(&user, &v, &errors, &typed));
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), &v.holder.name, body),
            )
        }
    }
}

async fn pledge_register(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<PledgeForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let today = app.today();
    let mut errors = Errors::default();
    let parsed = match form.parse(&mut errors) {
        Some(p) => Ok(move |_: &App, tx: &mut store::Tx<'_>| {
            register::pledge::register(tx, id, p.rank, p.on, p.lender.as_deref(), p.shares, today)
        }),
        None => Err(errors),
    };
    holder_write(
        app,
        user,
        On::Adjudication(id),
        Typed::Pledge(id, form),
        parsed,
    )
    .await
}

async fn pledge_release(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<ReleaseForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let today = app.today();
    // one of several pledges in force, when the form names it (`vigia pledge release --pledge`)
    let one = form.pledge.trim().parse::<i64>().ok();
    let parsed = match parse::date(&form.on) {
        Ok(on) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            match one {
                // a pledge of this adjudication only (the page offers no other)
                Some(p) if pledges::get(tx.conn(), p)?.adjudication_id != id => {
                    Err(StoreError::NotFound {
                        what: "pledge",
                        id: p.to_string(),
                    }
                    .into())
                }
                Some(p) => {
                    register::pledge::release_pledge(tx, p, on, today, &rates).map(|r| vec![r])
                }
                None => register::pledge::release(tx, id, on, today, &rates),
            }
        }),
        Err(e) => {
            let mut errors = Errors::default();
            errors.put(Field::ReleaseDate.as_str(), e);
            Err(errors)
        }
    };
    holder_write(
        app,
        user,
        On::Adjudication(id),
        Typed::Release(id, form),
        parsed,
    )
    .await
}

/// `vigia adjudications void ID --reason TEXT`.
async fn void_adjudication(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<VoidForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let reason = form.reason.clone();
    let write =
        move |_: &App, tx: &mut store::Tx<'_>| register::adjudication::void(tx, id, &reason);
    holder_write(
        app,
        user,
        On::Adjudication(id),
        Typed::VoidAdjudication(id, form),
        Ok(write),
    )
    .await
}

/// `vigia pledge void ID --reason TEXT`.
async fn void_pledge(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<VoidForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let adjudication = app
        .db(move |s| Ok(pledges::get(s.conn(), id)?.adjudication_id))
        .await?;
    let reason = form.reason.clone();
    let write = move |_: &App, tx: &mut store::Tx<'_>| register::pledge::void(tx, id, &reason);
    holder_write(
        app,
        user,
        On::Adjudication(adjudication),
        Typed::VoidPledge(id, form),
        Ok(write),
    )
    .await
}

/// `vigia holder update`: the holder's address, city and e-mail, as the form has them, through
/// `register::holder::update` (a new version, audited; refused when it changes nothing or the
/// e-mail is not one).
async fn contact_update(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<ContactForm>,
) -> Page {
    let form = sent.checked(&user, Role::Oficial)?;
    let update = register::holder::Update {
        address: Some(form.address.clone()),
        city: Some(form.city.clone()),
        email: Some(form.email.clone()),
    };
    let write = move |_: &App, tx: &mut store::Tx<'_>| register::holder::update(tx, id, &update);
    holder_write(app, user, On::Holder(id), Typed::Contact(form), Ok(write)).await
}

/// The holder's page as it stands: its adjudications with their pledges and unbreached shares,
/// and the timeline of everything recorded about them.
fn holder_view(conn: &rusqlite::Connection, id: i64) -> Result<HolderView, WebError> {
    let holder = store::holders::get(conn, id)?
        .ok_or_else(|| WebError::not_found(&format!("el titular {id}")))?;
    // by the holder's id through its index: a filter on the document would scan a million rows
    let adjs = store::holders::adjudication_ids(conn, id)?
        .into_iter()
        .map(|a| adjudications::get(conn, a))
        .collect::<Result<Vec<_>, StoreError>>()?;
    let contact = store::contacts::history(conn, id)?.pop();
    let mut timeline: Vec<Fact> = Vec::new();
    let mut out = Vec::new();
    for a in adjs {
        timeline.push(
            Fact::new(
                a.adjudicated_on,
                format!(
                    "Adjudicación {}: {} acciones a {} (programa {})",
                    a.id,
                    numero(a.shares),
                    pesos(a.price_per_share),
                    a.program_code
                ),
                None,
            )
            .naming(&[&a.program_code]),
        );
        // the lock-up's last day (Ley 226 art. 14), from the program's own rule
        let program = crate::store::programs::by_id(conn, a.program_id)?;
        if a.void.is_none()
            && let Some(end) = program.scale()?.lockup_end(a.adjudicated_on)
        {
            timeline.push(Fact::new(
                end,
                format!(
                    "Fin del período de restricción de la adjudicación {} (libre desde el día siguiente)",
                    a.id
                ),
                None,
            ));
        }
        let ps = pledges::list(conn, a.id)?;
        for p in &ps {
            timeline.push(Fact::new(
                p.registered_on,
                format!(
                    "Prenda {} de grado {} sobre {} acciones de la adjudicación {}",
                    p.id,
                    p.rank,
                    numero(p.shares),
                    a.id
                ),
                None,
            ));
            if let Some(r) = p.released_on {
                timeline.push(Fact::new(r, format!("Prenda {} liberada", p.id), None));
            }
        }
        for b in breaches::list(conn, Some(a.id), None)? {
            let link = Some(format!("/incumplimientos/{}", b.id));
            timeline.push(Fact::new(
                b.breach_date,
                format!(
                    "Incumplimiento {} ({}): {} acciones{}",
                    b.id,
                    b.kind.label_es(),
                    numero(b.shares),
                    if b.void.is_some() { " (ANULADO)" } else { "" }
                ),
                link.clone(),
            ));
            // voided payments too, struck through with their void, as the breach's page lists them
            for p in breaches::payments_recorded(conn, b.id)? {
                timeline.push(Fact {
                    voided: p.void.as_ref().map(|vd| {
                        format!("ANULADO {} por {}: {}", momento(&vd.at), vd.by, vd.reason)
                    }),
                    ..Fact::new(
                        p.paid_on,
                        format!(
                            "Pago {} de {} (incumplimiento {})",
                            p.id,
                            pesos(p.amount),
                            b.id
                        ),
                        link.clone(),
                    )
                });
            }
            for l in breaches::liquidations(conn, Some(b.id))? {
                timeline.push(Fact::new(
                    l.until,
                    format!(
                        "Liquidación {} al {}: total {}",
                        l.id,
                        fecha(l.until),
                        pesos(l.total_due)
                    ),
                    Some(format!("/liquidaciones/{}", l.id)),
                ));
            }
            super::letters::timeline(conn, b.id, &mut timeline)?;
        }
        let free = register::breach::unbreached_shares(conn, &a)?;
        let words = |r: Option<register::Refusal>| r.map(|r| views::refusal_reason(&r));
        out.push(Held {
            pledge_blocked: words(register::pledge::register_blocked(conn, a.id)?),
            void_blocked: words(register::adjudication::void_blocked(conn, a.id)?),
            breach_blocked: words(register::breach::record_blocked(conn, a.id)?),
            a,
            pledges: ps,
            free,
        });
    }
    timeline.sort_by_key(|t| t.on);
    Ok(HolderView {
        holder,
        contact,
        adjudications: out,
        timeline,
    })
}
