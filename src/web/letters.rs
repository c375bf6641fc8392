//! The letters on the web (issue 14's rules, `src/register/notice.rs` and `settlement.rs`): a
//! notice's page (its deadline as the register has it, with what the term runs from; its delivery
//! and the form to record one; the notice it replaces and the one that replaced it), the paz y
//! salvo issued from a breach's page and its own page, every document downloaded (recorded as a
//! rendering under the signed-in user, as `vigia notice render` records its file, so that the
//! download verifies), and «Verificar aviso». The breach page's and the holder's timeline's lines
//! about letters are drawn here too. No rule lives here: each write calls the CLI's function.

use super::auth::User;
use super::extract::{Form, Path};
use super::pages::{
    Errors, Fields, Page, breach_write, csrf_of, field, ok, opt, read_upload, see_other, today,
    typed_or, upload_form,
};
use super::views::{self, csrf, fecha, input, page, pesos};
use super::{App, WebError, input as parse};
use crate::notice::{DocFormat, Via};
use crate::program::TermFrom;
use crate::register::settlement::Paid;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::notices::{self, Delivery, Doc, Notice};
use crate::store::settlements::{self, Settlement};
use crate::store::{self, programs};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use rusqlite::Connection;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/avisos/verificar", get(verify_page).post(verify_upload))
        .route("/avisos/{id}", get(notice_page))
        .route("/avisos/{id}/entrega", post(deliver))
        .route("/avisos/{id}/documento/{format}", get(notice_document))
        .route("/incumplimientos/{id}/paz-y-salvo", post(issue_settlement))
        .route("/paz-y-salvo/{id}", get(settlement_page))
        .route(
            "/paz-y-salvo/{id}/documento/{format}",
            get(settlement_document),
        )
}

// ---------------------------------------------------------------------------- what pages show

/// How a program counts a notice's payment term: from what, and how many business days.
#[derive(Debug, Clone, Copy)]
pub(super) struct TermRule {
    from: TermFrom,
    days: u32,
}

impl TermRule {
    fn of(conn: &Connection, program_id: i64) -> Result<TermRule, WebError> {
        let p = programs::by_id(conn, program_id)?.program;
        Ok(TermRule {
            from: p.letters.payment_term_from,
            days: p.payment_term_business_days,
        })
    }

    /// From what a notice's deadline runs, in Spanish: its delivery, when the program counts
    /// from it and one is recorded, else its date (`register::notice::deadline`'s reading).
    fn runs_from(self, issued: NaiveDate, delivered: Option<NaiveDate>) -> String {
        let days = self.days;
        let issued = fecha(issued);
        match (self.from, delivered) {
            (TermFrom::Delivery, Some(on)) => {
                format!("{days} días hábiles desde la entrega del {}", fecha(on))
            }
            (TermFrom::Delivery, None) => format!(
                "{days} días hábiles desde la entrega, que aún no está registrada (expedido el {issued})"
            ),
            (TermFrom::Issue, _) => format!(
                "{days} días hábiles desde la expedición del {issued} (el programa cuenta el \
                 plazo desde la fecha del aviso)"
            ),
        }
    }

    /// The hint of the notice's date in the form that issues one.
    fn issue_hint(self) -> String {
        let days = self.days;
        match self.from {
            TermFrom::Delivery => format!(
                "dd/mm/aaaa; el plazo de pago ({days} días hábiles) corre desde la entrega del \
                 aviso, una vez registrada; hasta entonces, desde esta fecha"
            ),
            TermFrom::Issue => {
                format!("dd/mm/aaaa; el plazo de pago ({days} días hábiles) corre desde esta fecha")
            }
        }
    }

    /// The hint of the delivery's date in the form that records one.
    fn delivery_hint(self) -> String {
        let days = self.days;
        match self.from {
            TermFrom::Delivery => {
                format!("dd/mm/aaaa; el plazo de pago ({days} días hábiles) correrá desde este día")
            }
            TermFrom::Issue => "dd/mm/aaaa; el programa cuenta el plazo de pago desde la fecha \
                                del aviso: la entrega no lo cambia"
                .to_string(),
        }
    }
}

/// A deadline as the pages show it: the day, or that there is none until the delivery.
fn plazo(deadline: Option<NaiveDate>) -> String {
    match deadline {
        Some(d) => fecha(d),
        None => "sin plazo aún".to_string(),
    }
}

/// A notice as the pages show it: its deadline as the register has it (`register::notice::
/// deadline`) and from what the term runs, its delivery, and the notices either side of it.
pub(super) struct NoticeLine {
    pub(super) notice: Notice,
    /// `None`: no deadline yet, the term runs from a delivery not yet recorded.
    pub(super) deadline: Option<NaiveDate>,
    /// From what the deadline runs, in Spanish ("10 días hábiles desde la entrega del …").
    pub(super) runs_from: String,
    pub(super) delivery: Option<Delivery>,
    pub(super) replaces: Option<Notice>,
    pub(super) replaced_by: Option<Notice>,
    pub(super) rule: TermRule,
}

fn notice_line(conn: &Connection, notice: Notice) -> Result<NoticeLine, WebError> {
    let rule = TermRule::of(conn, notice.program_id)?;
    let deadline = register::notice::deadline_as_stands(conn, &notice)?;
    let delivery = notices::delivery(conn, notice.id)?;
    let runs_from = rule.runs_from(
        notice.notice_date,
        delivery.as_ref().map(|d| d.delivered_on),
    );
    let replaces = notice
        .supersedes_id
        .map(|id| notices::get(conn, id))
        .transpose()?;
    let replaced_by = notices::superseded_by(conn, notice.id)?;
    Ok(NoticeLine {
        notice,
        deadline,
        runs_from,
        delivery,
        replaces,
        replaced_by,
        rule,
    })
}

/// The letters of a breach: its notices, whether its fine is paid (and its paz y salvo), and how
/// its program counts the payment term.
pub(super) struct BreachLetters {
    notices: Vec<NoticeLine>,
    /// The fine is paid in full (`register::settlement::paid`).
    pub(super) paid: Option<Paid>,
    rule: TermRule,
}

/// The letters of breach `id` (of program `program_id`), with `rates` to decide whether its fine
/// is paid. A fine the engine cannot price (a rate missing) is taken as not paid: the position
/// says why.
pub(super) fn breach_letters(
    conn: &Connection,
    id: i64,
    program_id: i64,
    rates: &crate::rates::RateSeries,
) -> Result<BreachLetters, WebError> {
    let paid = match register::settlement::paid(conn, id, rates) {
        Ok(p) => p,
        Err(register::Error::Fine(_)) => None,
        Err(e) => return Err(e.into()),
    };
    Ok(BreachLetters {
        notices: notices::list(conn, Some(id))?
            .into_iter()
            .map(|n| notice_line(conn, n))
            .collect::<Result<_, _>>()?,
        paid,
        rule: TermRule::of(conn, program_id)?,
    })
}

/// A paid fine, instead of its position to today: on which day, by which payments.
pub(super) fn paid_markup(p: &Paid) -> Markup {
    let total: rust_decimal::Decimal = p.payments.iter().map(|x| x.amount).sum();
    html! {
        p.ok #pagada role="status" {
            "La multa está pagada en su totalidad desde el " strong { (fecha(p.on)) }
            ": " (p.payments.len()) " pago(s) por " (pesos(total)) " en total no dejan saldo pendiente."
        }
        ul.pagos-multa {
            @for x in &p.payments {
                li { "Pago N.º " (x.id) " del " (fecha(x.paid_on)) ": " (pesos(x.amount))
                     @if let Some(r) = &x.reference { " (" (r) ")" } }
            }
        }
        p { "Abajo, su liquidación a esa fecha." }
    }
}

/// The breach page's notices and paz y salvo: the notices with their deadlines and deliveries;
/// then, for a paid fine, its paz y salvo (or the form to issue it) instead of a payment demand;
/// else the form to issue a notice. `void`: the breach was voided (nothing to issue).
pub(super) fn breach_letters_markup(
    user: &User,
    breach_id: i64,
    void: bool,
    l: &BreachLetters,
    as_of: NaiveDate,
    errors: &Errors,
    typed: &Fields,
) -> Markup {
    html! {
        h2 { "Avisos de cobro" }
        @if l.notices.is_empty() { p { "Ningún aviso de cobro expedido." } }
        @else {
            table.avisos {
                thead { tr { th { "número" } th { "fecha" } th { "pagar a más tardar" } th { "entrega" } th { "vigencia" } th { "documentos" } } }
                tbody {
                    @for n in &l.notices {
                        tr {
                            td { a href={"/avisos/" (n.notice.id)} { (n.notice.number) } }
                            td { (fecha(n.notice.notice_date)) }
                            td { (plazo(n.deadline)) br; small { (n.runs_from) } }
                            td { @match &n.delivery { Some(d) => { (fecha(d.delivered_on)) " por " (d.via.label_es()) }, None => "sin registrar" } }
                            td { @match &n.replaced_by { Some(r) => { "reemplazado por " a href={"/avisos/" (r.id)} { (r.number) } }, None => "vigente" } }
                            td { (doc_links("avisos", n.notice.id)) }
                        }
                    }
                }
            }
        }
        @if let Some(m) = errors.get(Field::Breach.as_str()) { p.error #breach-error role="alert" { (m) } }
        @match &l.paid {
            Some(paid) => {
                h2 { "Paz y salvo" }
                @match &paid.settlement {
                    Some(s) => p {
                        "Paz y salvo " a href={"/paz-y-salvo/" (s.id)} { (s.number) } " del " (fecha(s.settlement_date))
                        " (expedido por " (s.created_by) "). Descargar: " (doc_links("paz-y-salvo", s.id))
                    },
                    None => {
                        p.aviso { "La multa está pagada: no corresponde un aviso de cobro sino su paz y salvo." }
                        @if user.may(Role::Juridico) && !void {
                            form method="post" action={"/incumplimientos/" (breach_id) "/paz-y-salvo"} {
                                (csrf(user))
                                @let typed_date = field(typed, Field::SettlementDate.as_str());
                                (input(Field::SettlementDate.as_str(), views::field_label(Field::SettlementDate),
                                    if typed_date.is_empty() { fecha(today()) } else { typed_date.to_string() }.as_str(),
                                    errors.get(Field::SettlementDate.as_str()),
                                    Some(&format!("dd/mm/aaaa; no antes del último pago ({})", fecha(paid.on)))))
                                div.acciones { button type="submit" { "Expedir paz y salvo" } }
                            }
                        }
                    }
                }
            }
            None => {
                @if user.may(Role::Juridico) && !void {
                    form method="post" action={"/incumplimientos/" (breach_id) "/aviso"} {
                        (csrf(user))
                        (input("notice_until", "Liquidar al", &typed_or(typed, "notice_until", fecha(as_of)), errors.get("notice_until"), Some("dd/mm/aaaa")))
                        (input("notice_date", "Fecha del aviso", &typed_or(typed, "notice_date", fecha(today())), errors.get("notice_date"), Some(&l.rule.issue_hint())))
                        (input("backdate_reason", "Motivo de la fecha anterior", &typed_or(typed, "backdate_reason", String::new()), errors.get("backdate_reason"), Some("solo si el aviso lleva una fecha anterior a hoy")))
                        div.acciones { button type="submit" { "Emitir aviso" } }
                    }
                }
            }
        }
    }
}

/// The holder's timeline lines of breach `breach_id`'s letters: each notice with its deadline
/// as the register has it, its delivery, and its paz y salvo.
pub(super) fn timeline(
    conn: &Connection,
    breach_id: i64,
    out: &mut Vec<(NaiveDate, String, Option<String>)>,
) -> Result<(), WebError> {
    for n in notices::list(conn, Some(breach_id))? {
        let n = notice_line(conn, n)?;
        let link = Some(format!("/avisos/{}", n.notice.id));
        out.push((
            n.notice.notice_date,
            format!(
                "Aviso {} ({}: {}){}",
                n.notice.number,
                match n.deadline {
                    Some(d) => format!("pagar a más tardar el {}", fecha(d)),
                    None => "sin plazo aún".to_string(),
                },
                n.runs_from,
                match &n.replaces {
                    Some(r) => format!("; reemplaza al aviso {}", r.number),
                    None => String::new(),
                }
            ),
            link.clone(),
        ));
        if let Some(d) = &n.delivery {
            out.push((
                d.delivered_on,
                format!(
                    "Entrega del aviso {} por {}",
                    n.notice.number,
                    d.via.label_es()
                ),
                link,
            ));
        }
    }
    if let Some(s) = settlements::for_breach(conn, breach_id)? {
        out.push((
            s.settlement_date,
            format!(
                "Paz y salvo {} (incumplimiento {breach_id}): multa pagada",
                s.number
            ),
            Some(format!("/paz-y-salvo/{}", s.id)),
        ));
    }
    Ok(())
}

/// Links to a document's three formats; `base` is `avisos` or `paz-y-salvo`.
fn doc_links(base: &str, id: i64) -> Markup {
    html! {
        a href={"/" (base) "/" (id) "/documento/pdf"} { "PDF" } " · "
        a href={"/" (base) "/" (id) "/documento/html"} { "HTML" } " · "
        a href={"/" (base) "/" (id) "/documento/md"} { "Markdown" }
    }
}

// ---------------------------------------------------------------------------- a notice

fn notice_markup(user: &User, n: &NoticeLine, errors: &Errors, typed: &Fields) -> Markup {
    let notice = &n.notice;
    let may_deliver = n.delivery.is_none() && n.replaced_by.is_none();
    let e = |f: Field| errors.get(f.as_str());
    html! {
        @if let Some(r) = &n.replaced_by {
            p.aviso role="status" {
                "Este aviso fue reemplazado por el aviso " a href={"/avisos/" (r.id)} { (r.number) }
                " del " (fecha(r.notice_date)) ": ya no está vigente."
            }
        }
        dl.hechos {
            dt { "Número" } dd #numero { (notice.number) }
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (notice.breach_id)} { (notice.breach_id) } }
            dt { "Liquidación" } dd { a href={"/liquidaciones/" (notice.liquidation_id)} { (notice.liquidation_id) } }
            dt { "Fecha" } dd { (fecha(notice.notice_date)) }
            dt { "Pagar a más tardar" } dd #plazo { strong { (plazo(n.deadline)) } " — " (n.runs_from) }
            dt { "Emitido" } dd { (views::momento(&notice.created_at)) " por " (notice.created_by) }
            @if let Some(p) = &n.replaces {
                dt { "Reemplaza a" } dd #reemplaza { "el aviso " a href={"/avisos/" (p.id)} { (p.number) } " del " (fecha(p.notice_date)) }
            }
            @if let Some(r) = &n.replaced_by {
                dt { "Reemplazado por" } dd #reemplazado { "el aviso " a href={"/avisos/" (r.id)} { (r.number) } " del " (fecha(r.notice_date)) }
            }
        }
        h2 { "Entrega" }
        @match &n.delivery {
            Some(d) => table.entregas {
                thead { tr { th { "fecha" } th { "medio" } th { "constancia" } th { "registrada" } } }
                tbody { tr {
                    td { (fecha(d.delivered_on)) } td { (d.via.label_es()) }
                    td { (d.evidence.as_deref().unwrap_or("")) }
                    td { (views::momento(&d.created_at)) " por " (d.created_by) }
                } }
            },
            None => p { "Sin entrega registrada." },
        }
        (errors.general())
        @if let Some(m) = e(Field::Notice) { p.error #notice-error role="alert" { (m) } }
        @if user.may(Role::Oficial) && may_deliver {
            form method="post" action={"/avisos/" (notice.id) "/entrega"} {
                (csrf(user))
                (input(Field::DeliveryDate.as_str(), views::field_label(Field::DeliveryDate), field(typed, Field::DeliveryDate.as_str()), e(Field::DeliveryDate), Some(&n.rule.delivery_hint())))
                div.campo.con-error[e(Field::DeliveryVia).is_some()] {
                    label for=(Field::DeliveryVia.as_str()) { (views::field_label(Field::DeliveryVia)) }
                    select id=(Field::DeliveryVia.as_str()) name=(Field::DeliveryVia.as_str()) {
                        @for v in Via::ALL {
                            option value=(v.as_str()) selected[field(typed, Field::DeliveryVia.as_str()) == v.as_str()] { (v.label_es()) }
                        }
                    }
                    @if let Some(m) = e(Field::DeliveryVia) { p.error id={(Field::DeliveryVia.as_str()) "-error"} role="alert" { (m) } }
                }
                (input(Field::Evidence.as_str(), views::field_label(Field::Evidence), field(typed, Field::Evidence.as_str()), e(Field::Evidence), Some("guía, recibo firmado o acuse de recibo; opcional")))
                div.acciones { button type="submit" { "Registrar entrega" } }
            }
        }
        h2 { "Documentos" }
        p { "Descargar: " (doc_links("avisos", notice.id)) }
        p.nota { "Cada descarga queda registrada (formato y SHA-256) a nombre de quien la descarga, para que el archivo pueda verificarse en «Verificar aviso»." }
    }
}

async fn notice_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let n = app
        .db(move |s| notice_line(s.conn(), notices::get(s.conn(), id)?))
        .await?;
    let title = format!("Aviso {}", n.notice.number);
    ok(page(
        Some(&user),
        &title,
        notice_markup(&user, &n, &Errors::default(), &Vec::new()),
    ))
}

/// Records a notice's delivery (oficial and above, as a payment is recorded: a fact with its
/// receipt), through `register::notice::deliver` as `vigia notice delivered` does.
async fn deliver(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Oficial)?;
    let mut errors = Errors::default();
    let on = parse::date(field(&f, Field::DeliveryDate.as_str()))
        .map_err(|e| errors.put(Field::DeliveryDate.as_str(), e))
        .ok();
    let via = Via::ALL
        .into_iter()
        .find(|v| v.as_str() == field(&f, Field::DeliveryVia.as_str()));
    if via.is_none() {
        errors.put(
            Field::DeliveryVia.as_str(),
            "elija el medio de entrega".into(),
        );
    }
    let evidence = opt(&f, Field::Evidence.as_str());
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            let notice = notices::get(s.conn(), id)?;
            if let (Some(on), Some(via)) = (on, via) {
                match s.write::<_, register::Error>(&officer, |tx| {
                    register::notice::deliver(tx, &notice, on, via, evidence.as_deref(), today())
                }) {
                    Ok(_) => return Ok(Ok(())),
                    Err(e) => errors.register(e)?,
                }
            }
            if errors.is_empty() {
                errors.general.push("La operación fue rechazada.".into());
            }
            Ok(Err((notice_line(s.conn(), notice)?, errors)))
        })
        .await?;
    match result {
        Ok(()) => see_other(format!("/avisos/{id}")),
        Err((n, errors)) => {
            let title = format!("Aviso {}", n.notice.number);
            let body = notice_markup(&user, &n, &errors, &f);
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                Html(page(Some(&user), &title, body).into_string()),
            )
                .into_response())
        }
    }
}

/// A document format from the route, with its MIME type.
fn doc_format(format: &str) -> Result<(DocFormat, &'static str), WebError> {
    match format {
        "pdf" => Ok((DocFormat::Pdf, "application/pdf")),
        "html" => Ok((DocFormat::Html, "text/html; charset=utf-8")),
        "md" => Ok((DocFormat::Md, "text/markdown; charset=utf-8")),
        _ => Err(WebError::not_found("ese formato de documento")),
    }
}

/// A document as a download named `NUMBER.EXT`.
fn download(number: &str, format: DocFormat, mime: &str, bytes: Vec<u8>) -> Page {
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{number}.{}\"", format.as_str()),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// A notice's document in a format: rendered from the stored notice (same number, date, figures
/// and fingerprint) and recorded as a rendering under the signed-in user, as `vigia notice render`
/// records its file, so that the file downloaded verifies. Any role may download: the record is of
/// a file written, not a fact about the holder.
async fn notice_document(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, format)): Path<(i64, String)>,
) -> Page {
    recorded_download(&app, &user, &format, move |tx, fmt| {
        let n = notices::get(tx.conn(), id)?;
        let data = crate::notice::gather(tx.conn(), &n)?;
        let bytes = crate::report::document::notice(&data, fmt);
        Ok((Doc::Notice(n.id), n.number, bytes))
    })
    .await
}

/// A document rendered by `render` inside a write transaction, recorded there as a rendering
/// under the signed-in user, then sent as a download.
async fn recorded_download(
    app: &Arc<App>,
    user: &User,
    format: &str,
    render: impl FnOnce(
        &mut store::Tx<'_>,
        DocFormat,
    ) -> Result<(Doc, String, Vec<u8>), register::Error>
    + Send
    + 'static,
) -> Page {
    let (fmt, mime) = doc_format(format)?;
    let officer = user.name.clone();
    let (number, bytes) = app
        .db(move |s| {
            Ok(s.write::<_, register::Error>(&officer, |tx| {
                let (doc, number, bytes) = render(tx, fmt)?;
                register::notice::rendered(tx, doc, fmt, &bytes)?;
                Ok((number, bytes))
            })?)
        })
        .await?;
    download(&number, fmt, mime, bytes)
}

// ---------------------------------------------------------------------------- paz y salvo

/// Issues the paz y salvo of a breach's fine (jurídico and above, as notices are issued), through
/// `register::settlement::issue` as `vigia settlement issue` does; the certificate's page follows.
async fn issue_settlement(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    form: Form<Fields>,
) -> Page {
    let f = form.0;
    user.check_csrf(csrf_of(&f))?;
    user.require(Role::Juridico)?;
    let date = match opt(&f, Field::SettlementDate.as_str()) {
        Some(s) => parse::date(&s),
        None => Ok(today()),
    };
    let parsed = match date {
        Ok(date) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            register::settlement::issue(tx, id, date, today(), &rates).map(|i| i.settlement.id)
        }),
        Err(e) => {
            let mut errors = Errors::default();
            errors.put(Field::SettlementDate.as_str(), e);
            Err(errors)
        }
    };
    breach_write(app, user, id, f, parsed, |sid| {
        format!("/paz-y-salvo/{sid}")
    })
    .await
}

async fn settlement_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let (s, data) = app
        .db(move |st| {
            let s = settlements::get(st.conn(), id)?;
            let data = crate::notice::gather_settlement(st.conn(), &s)?;
            Ok((s, data))
        })
        .await?;
    let body = settlement_markup(&s, &data);
    ok(page(
        Some(&user),
        &format!("Paz y salvo {}", s.number),
        body,
    ))
}

fn settlement_markup(s: &Settlement, data: &crate::notice::SettlementData) -> Markup {
    let l = &data.liquidation;
    let total: rust_decimal::Decimal = l.payments.iter().map(|p| p.amount).sum();
    html! {
        dl.hechos {
            dt { "Número" } dd #numero { (s.number) }
            dt { "Titular" } dd { (data.holder_name) " (" (data.doc_type) " " (data.doc_number) ")" }
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (s.breach_id)} { (s.breach_id) } }
            dt { "Liquidación" } dd { a href={"/liquidaciones/" (s.liquidation_id)} { (s.liquidation_id) } " al " (fecha(l.until)) ": saldo " (pesos(l.total_due)) }
            @if let Some((number, date)) = &data.notice { dt { "Último aviso de cobro" } dd { (number) " del " (fecha(*date)) } }
            dt { "Fecha" } dd { (fecha(s.settlement_date)) }
            dt { "Expedido" } dd { (views::momento(&s.created_at)) " por " (s.created_by) }
        }
        h2 { "Pagos que extinguieron la multa" }
        table.pagos {
            thead { tr { th { "fecha" } th.num { "valor" } th.num { "a intereses" } th.num { "a capital" } th.num { "excedente" } } }
            tbody {
                @for p in &l.payments {
                    tr { td { (fecha(p.date)) } td.num { (pesos(p.amount)) } td.num { (pesos(p.to_interest)) } td.num { (pesos(p.to_capital)) } td.num { (pesos(p.surplus)) } }
                }
            }
            tfoot { tr { th { "total" } th.num { (pesos(total)) } th {} th {} th {} } }
        }
        h2 { "Documentos" }
        p { "Descargar: " (doc_links("paz-y-salvo", s.id)) }
        p.nota { "Cada descarga queda registrada (formato y SHA-256) a nombre de quien la descarga, para que el archivo pueda verificarse en «Verificar aviso»." }
    }
}

/// A paz y salvo's document in a format, recorded like a notice's ([`notice_document`]).
async fn settlement_document(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, format)): Path<(i64, String)>,
) -> Page {
    recorded_download(&app, &user, &format, move |tx, fmt| {
        let st = settlements::get(tx.conn(), id)?;
        let data = crate::notice::gather_settlement(tx.conn(), &st)?;
        let bytes = crate::report::document::settlement(&data, fmt);
        Ok((Doc::Settlement(st.id), st.number, bytes))
    })
    .await
}

// ---------------------------------------------------------------------------- verification

async fn verify_page(user: User) -> Page {
    let body = upload_form(
        &user,
        "/avisos/verificar",
        "Documento del aviso o del paz y salvo (PDF, HTML o Markdown)",
        html! {},
        "Verificar",
    );
    ok(page(Some(&user), "Verificar un aviso", body))
}

async fn verify_upload(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    use crate::register::verify::{self, Error, Unverifiable};
    let up = read_upload(m).await?;
    user.check_csrf(csrf_of(&up.fields))?;
    let Some((_, bytes)) = up.files.get("archivo").cloned() else {
        let body = html! {
            p.error role="alert" { "Elija el documento a verificar; no se subió ninguno." }
            (upload_form(&user, "/avisos/verificar", "Documento del aviso (PDF, HTML o Markdown)", html! {}, "Verificar"))
        };
        return Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            Html(page(Some(&user), "Verificar un aviso", body).into_string()),
        )
            .into_response());
    };
    // the register's verification, on the uploaded bytes
    let app2 = Arc::clone(&app);
    let outcome = app
        .db(move |s| {
            let docs = crate::report::document::Documents;
            let doc = match verify::read(&bytes, &docs) {
                Ok(doc) => doc,
                Err(e) => return Ok(Err(e)),
            };
            let rates = app2.rates(s)?;
            match verify::verify(s.conn(), &doc, &rates, &docs) {
                Ok(v) => Ok(Ok(v)),
                Err(Error::Unverifiable(e)) => Ok(Err(e)),
                Err(Error::Register(e)) => Err(e.into()),
            }
        })
        .await?;
    let body = html! {
        @match &outcome {
            Ok(v) if v.matches() => p.ok role="status" { "El documento coincide con el registro: texto, cifras y huella." },
            Ok(_) => p.error role="alert" { "El documento NO coincide con el registro (vea el detalle)." },
            Err(_) => p.error role="alert" { "No se pudo verificar el documento." },
        }
        @if let Ok(v) = &outcome { @if let Some(p) = &v.paid_since {
            p.aviso role="status" { "La multa de este aviso ya está pagada en su totalidad (" (fecha(p.on)) "): " (paz_y_salvo_es(p)) "." }
        } }
        h2 { "Detalle" }
        @match &outcome {
            Ok(v) => (verification(v)),
            Err(e) => p { "Motivo: " (Unverifiable::said(e).es()) "." },
        }
        (upload_form(&user, "/avisos/verificar", "Otro documento", html! {}, "Verificar"))
    };
    ok(page(Some(&user), "Verificar un aviso", body))
}

/// What a paid fine's holder is owed, in Spanish: its paz y salvo, issued or to issue.
fn paz_y_salvo_es(p: &crate::register::verify::PaidSince) -> String {
    match &p.settlement {
        Some((number, date)) => format!("su paz y salvo es el {number} del {}", fecha(*date)),
        None => "corresponde expedir su paz y salvo, no un nuevo aviso de cobro".into(),
    }
}

/// How a check of a verified document came out, as its row says it.
enum Mark {
    Holds,
    Fails,
    /// Nothing to compare.
    NoData,
    /// Not a check: something to know.
    Note,
}

/// Each check of a verified document, in Spanish: what was checked, whether it holds, and why.
fn verification(v: &crate::register::verify::Verified) -> Markup {
    use crate::register::verify::{File, Standing, Text};
    let format = |f: DocFormat| match f {
        DocFormat::Pdf => "PDF",
        DocFormat::Html => "HTML",
        DocFormat::Md => "Markdown",
    };
    let kind = v.kind.said();
    let kind = kind.es();
    let mut rows: Vec<(&str, Mark, String)> = Vec::new();
    rows.push(match &v.text {
        Text::Match => (
            "Texto y cifras",
            Mark::Holds,
            "coinciden con el registro".into(),
        ),
        Text::LineDiffers {
            line,
            expected,
            found,
        } => (
            "Texto y cifras",
            Mark::Fails,
            format!("la línea {line} debía decir «{expected}» y dice «{found}»"),
        ),
        Text::LineCount { expected, found } => (
            "Texto y cifras",
            Mark::Fails,
            format!("el documento debía tener {expected} líneas y tiene {found}"),
        ),
    });
    rows.push(match &v.file {
        File::Issued { sha256, format: f, at } => (
            "Archivo",
            Mark::Holds,
            format!(
                "idéntico al archivo emitido ({}, {}; SHA-256 {sha256})",
                format(*f),
                views::momento(at)
            ),
        ),
        File::RenderedAgain {
            sha256,
            format: f,
            at,
            by,
        } => (
            "Archivo",
            Mark::Holds,
            format!(
                "idéntico al archivo generado de nuevo el {} por {by} ({}; SHA-256 {sha256})",
                views::momento(at),
                format(*f)
            ),
        ),
        File::NoRecord { .. } => (
            "Archivo",
            Mark::NoData,
            format!(
                "no hay un SHA-256 registrado de este {kind} (se emitió antes de que vigia registrara sus archivos)"
            ),
        ),
        File::Changed { sha256, written } => (
            "Archivo",
            Mark::Fails,
            format!(
                "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 {sha256} no es el de ninguno de los {written} archivos que vigia generó"
            ),
        ),
        File::Different { sha256 } => (
            "Archivo",
            Mark::Fails,
            format!("distinto de todos los archivos que vigia generó (SHA-256 {sha256})"),
        ),
    });
    let fp = &v.fingerprint;
    rows.push(if fp.matches() {
        (
            "Huella de la liquidación",
            Mark::Holds,
            format!("{} coincide", fp.stored),
        )
    } else {
        (
            "Huella de la liquidación",
            Mark::Fails,
            format!(
                "registrada {}, recalculada {}; {}",
                fp.stored,
                fp.recomputed,
                if fp.printed {
                    "el documento la muestra"
                } else {
                    "el documento no la muestra"
                }
            ),
        )
    });
    rows.push(match (&v.paid_since, v.same_figures) {
        (_, true) => (
            "Cifras recalculadas hoy",
            Mark::Holds,
            "el registro da las mismas cifras".into(),
        ),
        (Some(p), false) => (
            "Cifras recalculadas hoy",
            Mark::Fails,
            format!(
                "el registro da cifras distintas porque la multa se pagó en su totalidad después \
                 de este aviso (el {}): ya no hay nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo_es(p)
            ),
        ),
        (None, false) => (
            "Cifras recalculadas hoy",
            Mark::Fails,
            format!(
                "el registro da cifras distintas (se registró después un pago, un precio de etapa o una tasa); emita un nuevo {kind}"
            ),
        ),
    });
    if let (Some(p), true) = (&v.paid_since, v.same_figures) {
        rows.push((
            "Estado de la multa",
            Mark::Note,
            format!(
                "pagada en su totalidad el {}, después de la fecha de esta liquidación: ya no hay \
                 nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo_es(p)
            ),
        ));
    }
    for s in &v.voids {
        rows.push(("Pago anulado", Mark::Fails, s.said().es().to_string()));
    }
    match &v.standing {
        Some(Standing::InForce) => rows.push((
            "Vigencia",
            Mark::Holds,
            "vigente: ningún aviso posterior lo reemplaza".into(),
        )),
        Some(Standing::Replaced { number, date }) => rows.push((
            "Vigencia",
            Mark::Fails,
            format!(
                "reemplazado por el aviso {number} del {}; este aviso ya no está vigente",
                fecha(*date)
            ),
        )),
        None => {}
    }
    html! {
        p { "Documento: " (kind) " " strong { (v.number) } " del programa " (v.program) ", liquidación N.º " (v.liquidation_id) "." }
        table.verificacion {
            thead { tr { th { "comprobación" } th { "resultado" } th { "detalle" } } }
            tbody {
                @for (check, mark, detail) in &rows {
                    tr {
                        td { (check) }
                        @match mark {
                            Mark::Holds => td { "✓ coincide" },
                            Mark::Fails => td.error { "✗ no coincide" },
                            Mark::NoData => td { "sin dato" },
                            Mark::Note => td { "ⓘ a tener en cuenta" },
                        }
                        td { (detail) }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    #[test]
    fn the_term_is_worded_from_the_programs_parameter() {
        let delivery = TermRule {
            from: TermFrom::Delivery,
            days: 10,
        };
        let issue = TermRule {
            from: TermFrom::Issue,
            days: 7,
        };
        let (issued, delivered) = (d("2025-02-11"), Some(d("2025-02-13")));
        assert_eq!(
            delivery.runs_from(issued, delivered),
            "10 días hábiles desde la entrega del 13/02/2025"
        );
        assert_eq!(
            delivery.runs_from(issued, None),
            "10 días hábiles desde la entrega, que aún no está registrada (expedido el 11/02/2025)"
        );
        // a program that counts from the notice's date: a delivery changes nothing
        let from_issue = "7 días hábiles desde la expedición del 11/02/2025 (el programa cuenta \
                          el plazo desde la fecha del aviso)";
        assert_eq!(issue.runs_from(issued, delivered), from_issue);
        assert_eq!(issue.runs_from(issued, None), from_issue);
        assert_eq!(
            issue.issue_hint(),
            "dd/mm/aaaa; el plazo de pago (7 días hábiles) corre desde esta fecha"
        );
        assert!(
            delivery
                .issue_hint()
                .contains("corre desde la entrega del aviso")
        );
        assert!(issue.delivery_hint().contains("la entrega no lo cambia"));
        assert_eq!(
            delivery.delivery_hint(),
            "dd/mm/aaaa; el plazo de pago (10 días hábiles) correrá desde este día"
        );
    }
}
