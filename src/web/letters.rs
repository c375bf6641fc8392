//! What the pages say about letters (issue 14's rules, `src/register/notice.rs` and
//! `settlement.rs`), shared by the pages that show them and handling no route: a notice's
//! deadline as the register has it, with what the term runs from; a breach's notices, whether
//! its fine is paid and its paz y salvo, with the forms that issue either (the breach page's,
//! [`NoticeForm`] and [`SettlementForm`]); the holder's timeline lines about letters; a document
//! downloaded and recorded as a rendering under the signed-in user.

use super::auth::User;
use super::charts::Fact;
use super::form::{Errors, Inputs, Page, Sent, download, keep};
use super::views::{self, PesosColumn, csrf, fecha, input, pesos};
use super::{App, WebError, input as parse};
use crate::notice::DocFormat;
use crate::program::TermFrom;
use crate::register::settlement::Paid;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::notices::{self, Delivery, Doc, Notice};
use crate::store::{programs, settlements};
use chrono::NaiveDate;
use maud::{Markup, html};
use rusqlite::Connection;
use std::sync::Arc;

// ---------------------------------------------------------------------------- the forms

/// A notice issued from the breach page (`vigia notice issue`).
#[derive(Default)]
pub(super) struct NoticeForm {
    until: String,
    date: String,
    backdate_reason: String,
}

impl NoticeForm {
    /// The liquidation's date (no register field: the notice's liquidation is made to it).
    const UNTIL: &str = "notice_until";
}

impl Inputs for NoticeForm {
    fn read(sent: &Sent) -> NoticeForm {
        NoticeForm {
            until: sent.text(NoticeForm::UNTIL),
            date: sent.text(Field::NoticeDate.as_str()),
            backdate_reason: sent.text(Field::BackdateReason.as_str()),
        }
    }
}

/// What `register::notice::issue` is given from the form.
pub(super) struct NewNotice {
    pub(super) until: NaiveDate,
    pub(super) date: NaiveDate,
    pub(super) backdate_reason: Option<String>,
}

impl NoticeForm {
    /// The form read, `today` the notice's date when none is typed; each input's problem goes
    /// in `errors`.
    pub(super) fn parse(&self, today: NaiveDate, errors: &mut Errors) -> Option<NewNotice> {
        let until = keep(errors, NoticeForm::UNTIL, parse::date(&self.until));
        let date = keep(
            errors,
            Field::NoticeDate.as_str(),
            match self.date.trim() {
                "" => Ok(today),
                d => parse::date(d),
            },
        );
        Some(NewNotice {
            until: until?,
            date: date?,
            backdate_reason: Some(self.backdate_reason.trim().to_string())
                .filter(|s| !s.is_empty()),
        })
    }
}

/// A paid fine's paz y salvo issued from the breach page (`vigia settlement issue`).
#[derive(Default)]
pub(super) struct SettlementForm {
    date: String,
}

impl Inputs for SettlementForm {
    fn read(sent: &Sent) -> SettlementForm {
        SettlementForm {
            date: sent.text(Field::SettlementDate.as_str()),
        }
    }
}

impl SettlementForm {
    /// The paz y salvo's date: the one typed, else `today`; its problem goes in `errors`.
    pub(super) fn parse(&self, today: NaiveDate, errors: &mut Errors) -> Option<NaiveDate> {
        let date = match self.date.trim() {
            "" => Ok(today),
            d => parse::date(d),
        };
        keep(errors, Field::SettlementDate.as_str(), date)
    }
}

/// The letter forms of the breach page that was sent, as typed.
#[derive(Default, Clone, Copy)]
pub(super) struct LetterTyped<'a> {
    pub(super) notice: Option<&'a NoticeForm>,
    pub(super) settlement: Option<&'a SettlementForm>,
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
    pub(super) fn delivery_hint(self) -> String {
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
pub(super) fn plazo(deadline: Option<NaiveDate>) -> String {
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
    /// What the notice demands: its liquidation's date and total due.
    pub(super) demands: Option<(NaiveDate, rust_decimal::Decimal)>,
}

pub(super) fn notice_line(conn: &Connection, notice: Notice) -> Result<NoticeLine, WebError> {
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
    let demands = crate::store::breaches::liquidations(conn, Some(notice.breach_id))?
        .into_iter()
        .find(|l| l.id == notice.liquidation_id)
        .map(|l| (l.until, l.total_due));
    Ok(NoticeLine {
        notice,
        deadline,
        runs_from,
        delivery,
        replaces,
        replaced_by,
        rule,
        demands,
    })
}

/// The letters of a breach: its notices, whether its fine is paid (and its paz y salvo), and how
/// its program counts the payment term.
pub(super) struct BreachLetters {
    notices: Vec<NoticeLine>,
    /// The fine is paid in full (`register::settlement::paid`).
    pub(super) paid: Option<Paid>,
    rule: TermRule,
    /// Today, by the server's clock: the date the forms default to.
    today: NaiveDate,
    /// Why a notice, or a paz y salvo, cannot be issued here: the program issues it only signed
    /// (`register::signed_only`), which the web cannot do.
    unsigned_refused: (Option<String>, Option<String>),
}

/// The letters of breach `id` (of program `program_id`), with `rates` to decide whether its fine
/// is paid. A fine the engine cannot price (a rate missing) is taken as not paid: the position
/// says why.
pub(super) fn breach_letters(
    conn: &Connection,
    id: i64,
    program_id: i64,
    rates: &crate::rates::RateSeries,
    today: NaiveDate,
    can_sign: bool,
) -> Result<BreachLetters, WebError> {
    let paid = match register::settlement::paid(conn, id, rates) {
        Ok(p) => p,
        Err(register::Error::Fine(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let refused = |what| match register::signed_only::refuse_unsigned(conn, id, what) {
        _ if can_sign => Ok(None),
        Ok(()) => Ok(None),
        Err(register::Error::Refused(r)) => Ok(Some(views::refusal_text(&r))),
        Err(e) => Err(WebError::from(e)),
    };
    let unsigned_refused = (
        refused(crate::program_sign::Signed::Notices)?,
        refused(crate::program_sign::Signed::Settlements)?,
    );
    Ok(BreachLetters {
        unsigned_refused,
        notices: notices::list(conn, Some(id))?
            .into_iter()
            .map(|n| notice_line(conn, n))
            .collect::<Result<_, _>>()?,
        paid,
        rule: TermRule::of(conn, program_id)?,
        today,
    })
}

/// A paid fine, instead of its position to today: on which day, by which payments.
pub(super) fn paid_markup(p: &Paid) -> Markup {
    let total: rust_decimal::Decimal = p.payments.iter().map(|x| x.amount).sum();
    html! {
        p.ok #pagada role="status" {
            "La multa está pagada en su totalidad desde el " strong { (fecha(p.on)) }
            ": " (views::cuenta(p.payments.len() as u64, "pago", "pagos")) " por " (pesos(total)) " en total no dejan saldo pendiente."
        }
        @let amounts = PesosColumn::of(p.payments.iter().map(|x| x.amount));
        ul.pagos-multa {
            @for x in &p.payments {
                li { "Pago N.º " (x.id) " del " (fecha(x.paid_on)) ": " (amounts.show(x.amount))
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
    typed: LetterTyped<'_>,
) -> Markup {
    let today = l.today;
    html! {
        h2 { "Avisos de cobro" }
        @if l.notices.is_empty() { p { "Ningún aviso de cobro expedido." } }
        @else {
            table.avisos {
                thead { tr { th { "número" } th { "fecha" } th { "pagar a más tardar" } th { "entrega" } th { "vigencia" } th { "documentos" } } }
                tbody {
                    @for n in &l.notices {
                        tr {
                            td data-label="Número" { a href={"/avisos/" (n.notice.id)} { (views::ident(&n.notice.number)) } }
                            td data-label="Fecha" { (fecha(n.notice.notice_date)) }
                            td data-label="Pagar a más tardar" { (plazo(n.deadline)) br; small { (n.runs_from) } }
                            td data-label="Entrega" { @match &n.delivery { Some(d) => { (fecha(d.delivered_on)) " por " (d.via.label_es()) }, None => "sin registrar" } }
                            td data-label="Vigencia" { @match &n.replaced_by { Some(r) => { "reemplazado por " a href={"/avisos/" (r.id)} { (views::ident(&r.number)) } }, None => { @match &l.paid { Some(p) => { "cumplido: multa pagada el " (fecha(p.on)) }, None => "vigente" } } } }
                            td data-label="Documentos" { (doc_links("avisos", n.notice.id)) }
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
                        "Paz y salvo " a href={"/paz-y-salvo/" (s.id)} { (views::ident(&s.number)) } " del " (fecha(s.settlement_date))
                        " (expedido por " (s.created_by) "). Descargar: " (doc_links("paz-y-salvo", s.id))
                    },
                    None => {
                        p.aviso { "La multa está pagada: no corresponde un aviso de cobro sino su paz y salvo." }
                        @if let (Some(why), true) = (&l.unsigned_refused.1, user.may(Role::Juridico) && !void) {
                            p.aviso #sin-firma { "No se expide desde aquí: " (why) ". Para expedirlo aquí, cargue su certificado en " a href="/firma" { "Firma digital" } " y fírmelo en su página." }
                        } @else if user.may(Role::Juridico) && !void {
                            form method="post" action={"/incumplimientos/" (breach_id) "/paz-y-salvo"} {
                                (csrf(user))
                                @let typed_date = typed.settlement.map_or("", |s| s.date.as_str());
                                (input(Field::SettlementDate.as_str(), views::field_label(Field::SettlementDate),
                                    if typed_date.is_empty() { fecha(today) } else { typed_date.to_string() }.as_str(),
                                    errors.get(Field::SettlementDate.as_str()),
                                    Some(&format!("dd/mm/aaaa; no antes del último pago ({})", fecha(paid.on)))))
                                div.acciones { button type="submit" { "Expedir paz y salvo" } }
                            }
                        }
                    }
                }
            }
            None => {
                @if let (Some(why), true) = (&l.unsigned_refused.0, user.may(Role::Juridico) && !void) {
                    p.aviso #sin-firma { "No se emite desde aquí: " (why) ". Para emitirlo aquí, cargue su certificado en " a href="/firma" { "Firma digital" } " y fírmelo en su página." }
                } @else if user.may(Role::Juridico) && !void {
                    form method="post" action={"/incumplimientos/" (breach_id) "/aviso"} {
                        (csrf(user))
                        @let (until, date, reason) = match typed.notice {
                            Some(n) => (n.until.clone(), n.date.clone(), n.backdate_reason.clone()),
                            None => (fecha(as_of), fecha(today), String::new()),
                        };
                        (input(NoticeForm::UNTIL, "Liquidar al", &until, errors.get(NoticeForm::UNTIL), Some("dd/mm/aaaa")))
                        (input(Field::NoticeDate.as_str(), "Fecha del aviso", &date, errors.get(Field::NoticeDate.as_str()), Some(&l.rule.issue_hint())))
                        (input(Field::BackdateReason.as_str(), "Motivo de la fecha anterior", &reason, errors.get(Field::BackdateReason.as_str()), Some("solo si el aviso lleva una fecha anterior a hoy")))
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
    out: &mut Vec<super::charts::Fact>,
) -> Result<(), WebError> {
    for n in notices::list(conn, Some(breach_id))? {
        let n = notice_line(conn, n)?;
        let link = Some(format!("/avisos/{}", n.notice.id));
        out.push(
            Fact::new(
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
            )
            .naming(&[
                &n.notice.number,
                n.replaces.as_ref().map_or("", |r| r.number.as_str()),
            ]),
        );
        if let Some(d) = &n.delivery {
            out.push(
                Fact::new(
                    d.delivered_on,
                    format!(
                        "Entrega del aviso {} por {}",
                        n.notice.number,
                        d.via.label_es()
                    ),
                    link,
                )
                .naming(&[&n.notice.number]),
            );
        }
    }
    if let Some(s) = settlements::for_breach(conn, breach_id)? {
        out.push(
            Fact::new(
                s.settlement_date,
                format!(
                    "Paz y salvo {} (incumplimiento {breach_id}): multa pagada",
                    s.number
                ),
                Some(format!("/paz-y-salvo/{}", s.id)),
            )
            .naming(&[&s.number]),
        );
    }
    Ok(())
}

/// Links to a document's three formats; `base` is `avisos` or `paz-y-salvo`.
pub(super) fn doc_links(base: &str, id: i64) -> Markup {
    html! {
        a href={"/" (base) "/" (id) "/documento/pdf"} { "PDF" } " · "
        a href={"/" (base) "/" (id) "/documento/html"} { "HTML" } " · "
        a href={"/" (base) "/" (id) "/documento/md"} { "Markdown" }
    }
}

/// The form that signs a document's PDF with the session's certificate and downloads it
/// («Firmar y descargar PDF», jurídico and above), or where to load one; `base` is `avisos` or
/// `paz-y-salvo`.
pub(super) fn sign_form(user: &User, base: &str, id: i64, has_signer: bool) -> Markup {
    html! {
        @if user.may(Role::Juridico) {
            @if has_signer {
                form.firmar method="post" action={"/" (base) "/" (id) "/firmar"} {
                    (csrf(user))
                    button type="submit" { "Firmar y descargar PDF" }
                }
            } @else {
                p.nota #firmar { "Para firmar este documento digitalmente, cargue su certificado en "
                    a href="/firma" { "Firma digital" } "." }
            }
        }
    }
}

// ---------------------------------------------------------------------------- downloads

/// A document's PDF rendered as [`recorded_download`] renders it, its rendering recorded (the
/// unsigned bytes: what a signed file's revision before its signature is), then signed with the
/// session's `signer` after the commit (`register::signing::sign`, as `--sign` signs) and sent.
pub(super) async fn signed_download(
    app: &Arc<App>,
    user: &User,
    signer: Arc<crate::sign::Signer>,
    render: impl FnOnce(
        &rusqlite::Connection,
    ) -> Result<
        (Doc, String, Vec<u8>, String, crate::program::Issuer),
        register::Error,
    > + Send
    + 'static,
) -> Page {
    let officer = user.name.clone();
    let now = app.now();
    let (number, signed) = app
        .db(move |s| {
            let (doc, number, bytes, reason, issuer) = render(s.conn())?;
            s.write::<_, register::Error>(&officer, |tx| {
                register::notice::rendered(tx, doc, DocFormat::Pdf, &bytes)
            })?;
            let signed = signed_pdf(&bytes, &signer, &reason, &issuer, now, &number);
            Ok((number, signed))
        })
        .await?;
    download(&format!("{number}.pdf"), "application/pdf", signed?)
}

/// Document `number`'s PDF signed with `signer` as `--sign` signs it (B-B, no timestamp); a
/// signature refused is said in Spanish.
pub(super) fn signed_pdf(
    bytes: &[u8],
    signer: &crate::sign::Signer,
    reason: &str,
    issuer: &crate::program::Issuer,
    now: chrono::DateTime<chrono::Utc>,
    number: &str,
) -> Result<Vec<u8>, WebError> {
    register::signing::sign(bytes, signer, None, reason, Some(issuer), now).map_err(|e| {
        WebError::new(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "El documento {number} no se pudo firmar: {}.",
                crate::catalogue::signature_why::sign_refused(crate::lang::Lang::Es, &e)
            ),
        )
    })
}

/// A document format from the route, with its MIME type.
pub(super) fn doc_format(format: &str) -> Result<(DocFormat, &'static str), WebError> {
    match format {
        "pdf" => Ok((DocFormat::Pdf, "application/pdf")),
        "html" => Ok((DocFormat::Html, "text/html; charset=utf-8")),
        "md" => Ok((DocFormat::Md, "text/markdown; charset=utf-8")),
        _ => Err(WebError::not_found("ese formato de documento")),
    }
}

/// under the signed-in user, then sent as a download.
pub(super) async fn recorded_download(
    app: &Arc<App>,
    user: &User,
    format: &str,
    render: impl FnOnce(
        &rusqlite::Connection,
        DocFormat,
    ) -> Result<(Doc, String, Vec<u8>), register::Error>
    + Send
    + 'static,
) -> Page {
    let (fmt, mime) = doc_format(format)?;
    let officer = user.name.clone();
    let (number, bytes) = app
        .db(move |s| {
            // rendered from a read of the register (a stored document's facts never change),
            // then its rendering recorded in a short write: never rendered under the write lock
            let (doc, number, bytes) = render(s.conn(), fmt)?;
            s.write::<_, register::Error>(&officer, |tx| {
                register::notice::rendered(tx, doc, fmt, &bytes)
            })?;
            Ok((number, bytes))
        })
        .await?;
    download(&format!("{number}.{}", fmt.as_str()), mime, bytes)
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
