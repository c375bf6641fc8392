//! `/programas/{code}/oferta`: the program's first-stage offer (Decreto 3939 Art. 4): its window
//! once opened, else (administrators) the form that opens it, as `vigia offer open` does, through
//! `register::offering::open` (the window checked there: at least the program's length from the
//! business day after the notice; outside the program's validity only with a reason). A refusal
//! is shown beside the date or the reason it names. Once open: its acceptances (imported on
//! their own page) adjudicated as `vigia offer adjudicate` does (Art. 12), after a dry run whose
//! table the confirmation must find unchanged (its fingerprint), and the run it wrote.

use super::auth::User;
use super::extract::{Path, Query};
use super::form::{
    Errors, Inputs, Page, Posted, Sent, keep, ok, read_upload, see_other, to_acta_form,
    upload_form, with_status,
};
use super::offer_acta;
use super::offer_check::{Verdict, check};
use super::views::{self, csrf, fecha, input, momento, numero, page};
use super::{App, WebError, input as parse};
use crate::offering::adjudicate::Window;
use crate::offering::adjudicate::{Cause, Status};
use crate::program::Program;
use crate::register::offering::{self as rules, Header, Row};
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::offering::{self as offers, Offer};
use crate::store::programs::{self, StoredProgram};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/programas/{code}/oferta", get(offer_page).post(offer_open))
        .route("/programas/{code}/oferta/adjudicar", post(adjudicate))
        .route("/programas/{code}/oferta/vista", get(preview_page))
        .route("/programas/{code}/oferta/acta.pdf", get(offer_acta::pdf))
        .route("/programas/{code}/oferta/acta.md", get(offer_acta::md))
        .route("/programas/{code}/oferta/acta.html", get(offer_acta::html))
        .route(
            "/programas/{code}/oferta/verificar",
            get(to_acta_form).post(acta_verify),
        )
}

/// Rows of an adjudication shown (all are counted).
const ROWS_SHOWN: usize = 200;

/// The adjudication asked for: its date, and, once previewed, the confirmation with the
/// preview's fingerprint.
#[derive(Default)]
struct AdjudicateForm {
    on: String,
    confirm: bool,
    previewed: String,
}

impl AdjudicateForm {
    const ACTION: &str = "accion";
    const PREVIEW: &str = "vista";
    const ADJUDICATE: &str = "adjudicar";
    const FINGERPRINT: &str = "huella";
}

impl Inputs for AdjudicateForm {
    fn read(sent: &Sent) -> AdjudicateForm {
        AdjudicateForm {
            on: sent.text(Field::AdjudicationDate.as_str()),
            confirm: sent.text(AdjudicateForm::ACTION) == AdjudicateForm::ADJUDICATE,
            previewed: sent.text(AdjudicateForm::FINGERPRINT),
        }
    }
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

/// The program's offer as it stands: none, open, or adjudicated (its stored run, one page of
/// its rows).
struct View {
    program: StoredProgram,
    offer: Option<Offer>,
    run: Option<RunPage>,
}

/// Which page of a stored run's rows is shown: `?desde=` the row after which it starts (the
/// keyset: a page is read by the table's key, never by counting rows), `?resultado=` only the
/// persons adjudicated or rejected.
#[derive(Debug, Default, Clone, serde::Deserialize)]
struct Paging {
    desde: Option<i64>,
    resultado: Option<String>,
}

/// The `?resultado=` a page sends for each status, and how its filter names it.
const RESULTS: [(&str, Status, &str); 2] = [
    ("adjudicada", Status::Awarded, "adjudicadas"),
    ("rechazada", Status::Rejected, "rechazadas"),
];

/// The filter's «Resultado» choice, `current` selected (empty: every status).
fn result_select(id: &str, current: &str) -> Markup {
    html! {
        div.campo {
            label for=(id) { "Resultado" }
            select id=(id) name="resultado" {
                option value="" selected[current.is_empty()] { "todos" }
                @for (value, _, shown) in RESULTS {
                    option value=(value) selected[current == value] { (shown) }
                }
            }
        }
    }
}

impl Paging {
    /// The status asked for; a value no page sends is refused.
    fn status(&self) -> Result<Option<Status>, WebError> {
        match self.resultado.as_deref().unwrap_or("") {
            "" => Ok(None),
            typed => match RESULTS.iter().find(|(value, ..)| *value == typed) {
                Some((_, status, _)) => Ok(Some(*status)),
                None => Err(WebError::invalid(
                    "El filtro «resultado» es «adjudicada» o «rechazada»: vuelva a la página de la oferta y use su formulario.",
                )),
            },
        }
    }
}

/// A stored run as its page shows it: the header, the fingerprint recomputed from every row (read
/// one at a time), how many persons, and one page of rows, where it starts and the key of the
/// next.
struct RunPage {
    run: offers::Run,
    header: Header,
    recomputed: String,
    persons: register::offering_page::Persons,
    /// How many of the persons shown (of the status asked for) come before this page.
    before: u64,
    rows: Vec<(i64, Row)>,
    /// The keyset of the next page and how many rows it holds.
    next: Option<(i64, usize)>,
    paging: Paging,
}

fn view(conn: &rusqlite::Connection, code: &str, paging: &Paging) -> Result<View, WebError> {
    let program = programs::by_code(conn, code)?;
    let offer = offers::offer(conn, program.id)?;
    let run = match offers::run(conn, program.id)? {
        Some(run) => {
            let (header, recomputed, persons) =
                register::offering_page::recomputed(conn, &program, &run)?;
            let after = paging.desde.unwrap_or(0).max(0);
            // the page's place, counted (a key in the address is only where to read from)
            let before = match after {
                0 => 0,
                _ => register::offering_page::count_through(conn, run.id, after, paging.status()?)?,
            };
            let mut rows = register::offering_page::rows_after(
                conn,
                run.id,
                after,
                paging.status()?,
                ROWS_SHOWN + 1,
            )?;
            let next = match (rows.len() > ROWS_SHOWN).then(|| rows[ROWS_SHOWN - 1].0) {
                Some(n) => Some((
                    n,
                    register::offering_page::count_after(
                        conn,
                        run.id,
                        n,
                        paging.status()?,
                        ROWS_SHOWN,
                    )?,
                )),
                None => None,
            };
            rows.truncate(ROWS_SHOWN);
            Some(RunPage {
                run,
                header,
                recomputed,
                persons,
                before,
                rows,
                next,
                paging: paging.clone(),
            })
        }
        None => None,
    };
    Ok(View {
        program,
        offer,
        run,
    })
}

/// What a sent form shows again: the open form as typed, or the adjudication's date and its
/// preview.
#[derive(Default)]
struct Typed {
    open: OpenForm,
    on: String,
    preview: Option<Markup>,
    /// The verification of an uploaded acta, shown beside its form.
    verdict: Option<Markup>,
}

fn markup(user: &User, v: &View, errors: &Errors, typed: &Typed) -> Markup {
    let (p, offer) = (&v.program, v.offer.as_ref());
    let code = &p.program.code;
    let e = |f: Field| errors.get(f.as_str());
    html! {
        p { "Programa " a href={"/programas/" (code)} { (views::ident(code)) } ": " (p.program.name) "." }
        (errors.general())
        @match offer {
            Some(o) => {
                dl.hechos #oferta {
                    dt { "Aviso de oferta (apertura)" } dd { (fecha(o.window.opens)) }
                    dt { "Cierre (último día para aceptar)" } dd { (fecha(o.window.closes)) }
                    dt { "Registrada" } dd { (momento(&o.created_at)) " por " (o.created_by) }
                }
                @match &v.run {
                    Some(r) => (run_markup(user, &p.program, r, typed.verdict.as_ref())),
                    None => (to_adjudicate(user, code, errors, typed)),
                }
            },
            None => {
                p { "La oferta de primera etapa de este programa aún no se ha abierto." }
                @if user.may(Role::Admin) {
                    h2 { "Abrir la oferta" }
                    p {
                        "Una sola vez por programa. La oferta permanece vigente al menos "
                        (p.program.offer.length_said().in_lang(crate::lang::Lang::Es))
                        " (" (p.program.decree) ", " (p.program.offer.article) ")."
                    }
                    form method="post" action={"/programas/" (code) "/oferta"} {
                        (csrf(user))
                        (input(Field::OfferOpens.as_str(), views::field_label(Field::OfferOpens), &typed.open.opens, e(Field::OfferOpens), Some("dd/mm/aaaa: el día en que se publica el aviso")))
                        (input(Field::OfferCloses.as_str(), views::field_label(Field::OfferCloses), &typed.open.closes, e(Field::OfferCloses), Some("dd/mm/aaaa: el último día en que se reciben aceptaciones")))
                        (input(Field::ValidityReason.as_str(), views::field_label(Field::ValidityReason), &typed.open.reason, e(Field::ValidityReason), Some("solo si el aviso cae fuera de la vigencia del programa (art. 28): una prórroga, un decreto posterior")))
                        div.acciones { button type="submit" { "Abrir la oferta" } }
                    }
                }
            }
        }
    }
}

fn title(code: &str) -> views::Title {
    views::Title::naming(
        format!("Oferta de primera etapa del programa {code}"),
        &[code],
    )
}

async fn offer_page(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    Query(paging): Query<Paging>,
) -> Page {
    paging.status()?;
    let v = app.db(move |s| view(s.conn(), &code, &paging)).await?;
    let body = markup(&user, &v, &Errors::default(), &Typed::default());
    ok(page(Some(&user), title(&v.program.program.code), body))
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
            Ok(Err((
                view(s.conn(), &p.program.code, &Paging::default())?,
                errors,
            )))
        })
        .await?;
    match result {
        Ok(code) => see_other(format!("/programas/{code}/oferta")),
        Err((v, errors)) => {
            let typed = Typed {
                open: f,
                ..Typed::default()
            };
            let body = errors.placed(|| markup(&user, &v, &errors, &typed));
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), title(&v.program.program.code), body),
            )
        }
    }
}

// ---------------------------------------------------------------------------- the adjudication

/// The acceptances' page and, for an administrator, the form that previews the adjudication.
fn to_adjudicate(user: &User, code: &str, errors: &Errors, typed: &Typed) -> Markup {
    let on = Field::AdjudicationDate.as_str();
    html! {
        @if user.may(Role::Oficial) {
            p { a href={"/programas/" (code) "/aceptaciones"} { "Importar un archivo de aceptaciones" } }
        }
        @if user.may(Role::Admin) {
            h2 { "Adjudicar la oferta" }
            p { "Una sola vez (art. 12): primero se muestra la adjudicación calculada; nada se escribe hasta que usted confirme." }
            form method="post" action={"/programas/" (code) "/oferta/adjudicar"} {
                (csrf(user))
                (input(on, views::field_label(Field::AdjudicationDate), &typed.on, errors.get(on), Some("dd/mm/aaaa; después del cierre de la oferta")))
                div.acciones { button type="submit" name=(AdjudicateForm::ACTION) value=(AdjudicateForm::PREVIEW) { "Vista previa de la adjudicación" } }
            }
        }
        @if let Some(p) = &typed.preview { (p) }
    }
}

/// A person's status and cause in Spanish, the cause in the program's words when its file rewords
/// it (as the command line's table and the acta say it: `Cause::label_for`).
fn outcome_es(program: &Program, row: &Row) -> String {
    let status = match row.status {
        Status::Awarded => "adjudicada",
        Status::Rejected => "rechazada",
    };
    match row.cause.and_then(Cause::parse) {
        Some(c) => format!("{status}: {}", c.label_for(program)),
        None => status.to_string(),
    }
}

/// The columns of an adjudication's table and whether each is a figure; a phone shows each
/// cell under its column's name (`data-label`).
const COLUMNS: [(&str, bool); 7] = [
    ("Documento", false),
    ("Nombre", false),
    ("Acciones pedidas", true),
    ("Tope por persona", true),
    ("Acciones admitidas", true),
    ("Acciones adjudicadas", true),
    ("Resultado", false),
];

/// The summary and a page of the rows of an adjudication, computed or stored: the `shown` rows
/// after the first `before` of `count`.
fn result_table<'r>(
    (program, h): (&Program, &Header),
    rows: impl Iterator<Item = &'r Row>,
    (before, shown): (usize, usize),
    count: usize,
    order: Option<crate::catalogue::Order>,
) -> Markup {
    let l = |i: usize| COLUMNS[i].0;
    html! {
        dl.hechos #adjudicacion {
            dt { "Acciones ofrecidas" } dd { (numero(h.offered)) }
            dt { "Demanda válida" } dd { (numero(h.demand)) }
            dt { "Acciones adjudicadas" } dd { (numero(h.awarded)) }
            dt { "Sin adjudicar" } dd { (numero(h.leftover)) }
            dt { "Sobredemanda" } dd { @if h.oversubscribed { "sí: " (h.rule.parse::<crate::proration::Rule>().map_or(h.rule, |r| r.describe_es())) " (" code { (h.rule) } ")" } @else { "no" } }
        }
        (super::charts::demand(h))
        table.adjudicacion {
            @if shown > 0 && (shown < count || order == Some(crate::catalogue::Order::Chosen)) {
                caption { (views::page_of(crate::catalogue::Listed::Persons, before, shown, count)) @if let Some(o) = order { (views::in_order(o)) } }
            }
            @if shown == 0 && count > 0 { caption { "Ninguna persona en esta página: la tabla tiene " (numero(count as u64)) "." } }
            thead { tr { @for (head, num) in COLUMNS { @if num { th.num scope="col" { (head) } } @else { th scope="col" { (head) } } } } }
            tbody {
                @for r in rows {
                    tr {
                        td data-label=(l(0)) { (views::documento(&r.doc_type, &r.doc_number)) } td data-label=(l(1)) { (r.name) }
                        td.num data-label=(l(2)) { (numero(r.requested)) }
                        td.num data-label=(l(3)) { @if let Some(c) = r.cap_shares { (numero(c)) @if let Some(rule) = &r.cap_rule { br; small { (rule) } } } }
                        td.num data-label=(l(4)) { (numero(r.admitted)) } td.num data-label=(l(5)) { (numero(r.awarded)) }
                        td.resultado data-label=(l(6)) { (outcome_es(program, r)) @if let Some(c) = r.cause { br; small { (views::codigo(c)) } } }
                    }
                }
            }
        }
    }
}

/// The run an adjudication wrote, as stored, with its acta to download and the form that
/// verifies one.
fn run_markup(user: &User, program: &Program, r: &RunPage, verdict: Option<&Markup>) -> Markup {
    let code = program.code.as_str();
    let base = format!("/programas/{code}/oferta");
    let resultado = r.paging.resultado.clone().unwrap_or_default();
    let filtered = |desde: i64| {
        let mut q = format!("{base}?desde={desde}");
        if !resultado.is_empty() {
            q.push_str(&format!("&resultado={resultado}"));
        }
        q
    };
    html! {
        h2 { "Adjudicación N.º " (r.run.id) " del " (fecha(r.run.adjudicated_on)) }
        p { "Registrada " (momento(&r.run.created_at)) " por " (r.run.created_by) "; huella SHA-256 " code #huella { (r.run.fingerprint) } "." }
        @if r.recomputed != r.run.fingerprint {
            p.error role="alert" { "La huella recalculada (" code { (r.recomputed) } ") no coincide con la registrada." }
        }
        form.filtros method="get" action=(base) {
            (result_select("resultado", &resultado))
            div.acciones { button type="submit" { "Filtrar" } }
        }
        @let n = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
        (result_table((program, &r.header), r.rows.iter().map(|(_, row)| row), (n(r.before), r.rows.len()), n(r.persons.of(r.paging.status().ok().flatten())), None))
        nav.paginas aria-label="Páginas de la tabla" {
            @if r.paging.desde.unwrap_or(0) > 0 { a href=(filtered(0)) { "Desde el principio" } " " }
            @if let Some((n, following)) = r.next { a #siguientes href=(filtered(n)) { (views::siguientes(following)) } }
        }
        @if r.header.leftover > 0 {
            p #etapas { "Las " (numero(r.header.leftover)) " acciones sin adjudicar pasan a la " a href={"/programas/" (code) "/etapas/2"} { "Segunda Etapa" } " (art. 13)." }
        }
        section #acta {
            h2 { "Acta de la adjudicación" }
            p {
                "Descargar acta: "
                a href={"/programas/" (code) "/oferta/acta.pdf"} download { "PDF" } " · "
                a href={"/programas/" (code) "/oferta/acta.html"} download { "HTML" } " · "
                a href={"/programas/" (code) "/oferta/acta.md"} download { "Markdown" }
                " (la misma que escribe el programa de línea de comandos)."
            }
            h3 { "Verificar un acta" }
            p { "Suba un acta (PDF, HTML o Markdown) para comprobar que su texto es el que da la adjudicación registrada." }
            div.verificacion {
                (upload_form(user, &format!("/programas/{code}/oferta/verificar#acta"), "Archivo del acta", html! {}, "Verificar el acta"))
                @if let Some(v) = verdict { (v) }
            }
        }
    }
}

/// What an adjudication form led to.
enum Adjudication {
    /// The preview (`changed`: the confirmation found another result than the one previewed).
    Preview(Markup, bool),
    Refused(Errors),
    Done,
}

/// The preview of an adjudication computed on `on`: its table, what confirming does, and the
/// confirmation carrying the result's fingerprint.
fn preview_markup(
    user: &User,
    program: &Program,
    on: chrono::NaiveDate,
    (header, rows, count): (&Header, &[Row], usize),
    fingerprint: &str,
    shown: &PreviewShown,
) -> Markup {
    let code = &program.code;
    let base = format!("/programas/{code}/oferta/vista");
    let page_at = |desde: usize| {
        let mut q = format!("{base}?fecha={}&desde={desde}", fecha(on));
        if !shown.resultado.is_empty() {
            q.push_str(&format!("&resultado={}", shown.resultado));
        }
        if !shown.orden.is_empty() {
            q.push_str(&format!("&orden={}", shown.orden));
        }
        q
    };
    let next = shown.from.saturating_add(rows.len());
    html! {
        section #vista-previa {
            h2 { "Vista previa (nada se ha adjudicado)" }
            form.filtros method="get" action=(base) {
                input type="hidden" name="fecha" value=(fecha(on));
                (result_select("resultado-vista", &shown.resultado))
                div.campo {
                    label for="orden-vista" { "Orden" }
                    select id="orden-vista" name="orden" {
                        option value="" selected[shown.orden.is_empty()] { "el del acta" }
                        option value="pedidas" selected[shown.orden == "pedidas"] { "más acciones pedidas primero" }
                        option value="adjudicadas" selected[shown.orden == "adjudicadas"] { "más acciones adjudicadas primero" }
                        option value="nombre" selected[shown.orden == "nombre"] { "por nombre (A–Z)" }
                    }
                }
                div.acciones { button type="submit" { "Filtrar y ordenar" } }
            }
            @if shown.matching < count {
                p #filtradas { (numero(shown.matching as u64)) " de las " (numero(count as u64)) " personas son " (shown.resultado) "s." }
            }
            @let order = if shown.orden.is_empty() { crate::catalogue::Order::Acta } else { crate::catalogue::Order::Chosen };
            (result_table((program, header), rows.iter(), (shown.from, rows.len()), shown.matching, Some(order)))
            nav.paginas aria-label="Páginas de la vista previa" {
                @if shown.from > 0 { a href=(page_at(0)) { "Desde el principio" } " " }
                @if next < shown.matching { a #siguientes-vista href=(page_at(next)) { (views::siguientes((shown.matching - next).min(ROWS_SHOWN))) } }
            }
            p.aviso #consecuencias {
                "Al confirmar, la adjudicación del " (fecha(on)) " se escribe en el registro una sola vez (art. 12): "
                "las " (numero(header.awarded)) " acciones adjudicadas pasan a ser adjudicaciones del registro, "
                "cada una sujeta a su período de restricción, y ya no podrán considerarse aceptaciones posteriores."
            }
            form method="post" action={"/programas/" (code) "/oferta/adjudicar"} {
                (csrf(user))
                input type="hidden" name=(Field::AdjudicationDate.as_str()) value=(fecha(on));
                input type="hidden" name=(AdjudicateForm::FINGERPRINT) value=(fingerprint);
                div.acciones { button type="submit" name=(AdjudicateForm::ACTION) value=(AdjudicateForm::ADJUDICATE) { "Confirmar la adjudicación" } }
            }
        }
    }
}

/// Which part of a preview is shown: from the `from`-th person (0-based, in the acta's order)
/// of the `matching` persons that have the status `resultado` (empty: every status).
struct PreviewShown {
    from: usize,
    matching: usize,
    resultado: String,
    /// `?orden=` as sent (empty: the acta's order).
    orden: String,
}

/// How a preview's rows are ordered: as the acta lists them, or by a column (ties in the
/// acta's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Acta,
    /// Shares asked for, most first.
    Requested,
    /// Shares awarded, most first.
    Awarded,
    /// Name, A to Z (case and accents aside).
    Name,
}

impl Order {
    /// `?orden=` as its form sends it; a value no page sends is refused.
    fn parse(orden: Option<&str>) -> Result<Order, WebError> {
        Ok(match orden.unwrap_or("") {
            "" => Order::Acta,
            "pedidas" => Order::Requested,
            "adjudicadas" => Order::Awarded,
            "nombre" => Order::Name,
            _ => {
                return Err(WebError::invalid(
                    "El orden es «pedidas», «adjudicadas» o «nombre»: vuelva a la página de la oferta y use su formulario.",
                ));
            }
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Order::Acta => "",
            Order::Requested => "pedidas",
            Order::Awarded => "adjudicadas",
            Order::Name => "nombre",
        }
    }
}

/// A row's place under an [`Order`] other than the acta's.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum SortKey {
    MostFirst(std::cmp::Reverse<u64>),
    Text(String),
}

/// One page of a computed adjudication's rows, from the `from`-th of those with `status`
/// (`None`: all), with how many persons there are in all and how many match.
fn preview_rows(
    conn: &rusqlite::Connection,
    p: &StoredProgram,
    computed: &rules::Computed,
    status: Option<Status>,
    from: usize,
    order: Order,
) -> Result<(Vec<Row>, usize, PreviewShown), register::Error> {
    let wanted = |r: &Row| status.is_none_or(|s| r.status == s);
    // sorted by a column: a first pass keeps each matching row's key and place in the acta (a
    // number or a name, never the row), sorts them and keeps the places of this page's rows
    let page: Option<Vec<(usize, usize)>> = match order {
        Order::Acta => None,
        _ => {
            let (mut keys, mut seq) = (Vec::new(), 0usize);
            rules::each_row::<register::Error>(conn, p, computed, |r, _| {
                if wanted(r) {
                    let key = match order {
                        Order::Requested => SortKey::MostFirst(std::cmp::Reverse(r.requested)),
                        Order::Awarded => SortKey::MostFirst(std::cmp::Reverse(r.awarded)),
                        _ => SortKey::Text(crate::input::folded(&r.name)),
                    };
                    keys.push((key, seq));
                }
                seq += 1;
                Ok(())
            })?;
            keys.sort();
            let mut places: Vec<(usize, usize)> = keys
                .into_iter()
                .skip(from)
                .take(ROWS_SHOWN)
                .enumerate()
                .map(|(at, (_, seq))| (seq, at))
                .collect();
            places.sort_unstable();
            Some(places)
        }
    };
    let (mut rows, mut count, mut matching) = (Vec::new(), 0usize, 0usize);
    let mut slots: Vec<Option<Row>> = vec![None; page.as_ref().map_or(0, Vec::len)];
    let mut next = 0usize;
    rules::each_row::<register::Error>(conn, p, computed, |r, _| {
        let seq = count;
        count += 1;
        if wanted(r) {
            match &page {
                None if matching >= from && rows.len() < ROWS_SHOWN => rows.push(r.clone()),
                Some(places) if places.get(next).is_some_and(|&(s, _)| s == seq) => {
                    slots[places[next].1] = Some(r.clone());
                    next += 1;
                }
                _ => {}
            }
            matching += 1;
        }
        Ok(())
    })?;
    if page.is_some() {
        rows = slots.into_iter().flatten().collect();
    }
    let resultado = RESULTS
        .iter()
        .find(|(_, s, _)| Some(*s) == status)
        .map_or("", |(value, ..)| value);
    let shown = PreviewShown {
        from,
        matching,
        resultado: resultado.to_string(),
        orden: order.as_str().to_string(),
    };
    Ok((rows, count, shown))
}

/// The preview of the adjudication on `?fecha=`, a page at a time (`?desde=`, `?resultado=`):
/// computed again for each page, as the confirmation computes it, and written nowhere.
#[derive(Debug, Default, serde::Deserialize)]
struct PreviewQuery {
    fecha: Option<String>,
    desde: Option<usize>,
    resultado: Option<String>,
    orden: Option<String>,
}

async fn preview_page(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    Query(q): Query<PreviewQuery>,
) -> Page {
    user.require(Role::Admin)?;
    let status = Paging {
        desde: None,
        resultado: q.resultado.clone(),
    }
    .status()?;
    let on = parse::date(q.fecha.as_deref().unwrap_or("")).map_err(|why| {
        WebError::invalid(format!(
            "La fecha de la vista previa {:?}: {why}; vuelva a la página de la oferta y use su formulario.",
            q.fecha.as_deref().unwrap_or("")
        ))
    })?;
    let from = q.desde.unwrap_or(0);
    let order = Order::parse(q.orden.as_deref())?;
    let u2 = user.clone();
    let (v, preview) = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            let computed = rules::compute(s.conn(), &p, on)?;
            let fingerprint = rules::fingerprint(s.conn(), &p, &computed)?;
            let (rows, count, shown) = preview_rows(s.conn(), &p, &computed, status, from, order)?;
            let header = computed.header(&p);
            let preview = preview_markup(
                &u2,
                &p.program,
                on,
                (&header, &rows, count),
                &fingerprint,
                &shown,
            );
            Ok((view(s.conn(), &code, &Paging::default())?, preview))
        })
        .await?;
    let code = v.program.program.code.clone();
    let typed = Typed {
        on: fecha(on),
        preview: Some(preview),
        ..Typed::default()
    };
    let errors = Errors::default();
    ok(page(
        Some(&user),
        title(&code),
        markup(&user, &v, &errors, &typed),
    ))
}

async fn adjudicate(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    sent: Posted<AdjudicateForm>,
) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let on = keep(
        &mut errors,
        Field::AdjudicationDate.as_str(),
        parse::date(&f.on),
    );
    let (confirm, previewed) = (f.confirm, f.previewed.clone());
    let officer = user.name.clone();
    let u2 = user.clone();
    let (v, outcome) = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            let Some(on) = on else {
                return Ok((
                    view(s.conn(), &code, &Paging::default())?,
                    Adjudication::Refused(errors),
                ));
            };
            let computed = match rules::compute(s.conn(), &p, on) {
                Ok(c) => c,
                Err(e) => {
                    errors.register(e)?;
                    return Ok((
                        view(s.conn(), &code, &Paging::default())?,
                        Adjudication::Refused(errors),
                    ));
                }
            };
            let fingerprint = rules::fingerprint(s.conn(), &p, &computed)?;
            if confirm && fingerprint == previewed {
                return match s
                    .write::<_, register::Error>(&officer, |tx| rules::adjudicate(tx, &p, on))
                {
                    Ok(_) => Ok((
                        view(s.conn(), &code, &Paging::default())?,
                        Adjudication::Done,
                    )),
                    Err(e) => {
                        errors.register(e)?;
                        Ok((
                            view(s.conn(), &code, &Paging::default())?,
                            Adjudication::Refused(errors),
                        ))
                    }
                };
            }
            let (rows, count, shown) = preview_rows(s.conn(), &p, &computed, None, 0, Order::Acta)?;
            let header = computed.header(&p);
            let preview = preview_markup(
                &u2,
                &p.program,
                on,
                (&header, &rows, count),
                &fingerprint,
                &shown,
            );
            let changed = confirm && fingerprint != previewed;
            Ok((
                view(s.conn(), &code, &Paging::default())?,
                Adjudication::Preview(preview, changed),
            ))
        })
        .await?;
    let code = v.program.program.code.clone();
    let (status, errors, preview) = match outcome {
        Adjudication::Done => return see_other(format!("/programas/{code}/oferta")),
        Adjudication::Refused(errors) => (StatusCode::UNPROCESSABLE_ENTITY, errors, None),
        Adjudication::Preview(preview, changed) => {
            let mut errors = Errors::default();
            let status = if changed {
                errors.general.push(
                    "La adjudicación calculada cambió desde la vista previa; nada se escribió. \
                     Revise la nueva y confirme otra vez."
                        .into(),
                );
                StatusCode::CONFLICT
            } else {
                StatusCode::OK
            };
            (status, errors, Some(preview))
        }
    };
    let typed = Typed {
        on: f.on,
        preview,
        ..Typed::default()
    };
    let body = errors.placed(|| markup(&user, &v, &errors, &typed));
    with_status(status, page(Some(&user), title(&code), body))
}

// ---------------------------------------------------------------------------- the acta

async fn acta_verify(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Consulta)?;
    let file = up.file();
    let a = Arc::clone(&app);
    let (v, verdict, chain) = app
        .db(move |s| {
            let v = view(s.conn(), &code, &Paging::default())?;
            let verdict = match &file {
                Some((_, bytes)) => {
                    // the whole stored result: the acta is checked against every row
                    let stored = match offers::run(s.conn(), v.program.id)? {
                        Some(run) => Some(rules::stored_result(s.conn(), &v.program, run)?),
                        None => None,
                    };
                    Some(check(s.conn(), &v.program, stored.as_ref(), bytes)?)
                }
                None => None,
            };
            // an acta that does not match: what is known of the register's audit chain (asked
            // only then; verified in the background, never waited for)
            let chain = matches!(verdict, Some(Verdict::Differs(_))).then(|| a.chain_now());
            Ok((v, verdict, chain))
        })
        .await?;
    let (status, shown) = match verdict {
        Some(Verdict::Matches(m)) => (
            StatusCode::OK,
            html! { div.resultado.verificada #verificacion role="status" { p { strong { "Verificada." } " " (m) } } },
        ),
        Some(Verdict::DoesNot(m) | Verdict::Differs(m)) => (
            StatusCode::OK,
            html! { div.resultado.no-verificada #verificacion role="alert" { p { strong { "No coincide: el acta NO está verificada." } " " (m) } @if let Some(c) = chain { (views::chain_note(c)) } } },
        ),
        Some(Verdict::FileChanged { headline, said }) => (
            StatusCode::OK,
            html! { div.resultado.no-verificada #verificacion role="alert" { p { strong { (headline) } " " (said) } } },
        ),
        None => (
            StatusCode::UNPROCESSABLE_ENTITY,
            html! { p.error #verificacion role="alert" { "Elija el archivo del acta; no se subió ninguno." } },
        ),
    };
    let typed = Typed {
        verdict: Some(shown),
        ..Typed::default()
    };
    let body = markup(&user, &v, &Errors::default(), &typed);
    with_status(
        status,
        page(Some(&user), title(&v.program.program.code), body),
    )
}
