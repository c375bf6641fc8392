//! `/incumplimientos`: a breach's page (its facts, its position or its paid fine, payments,
//! liquidations, notices and paz y salvo) and the page's forms: a payment recorded or voided
//! (`vigia payment record|void`), the breach voided (`vigia breach void`), a liquidation stored
//! (`vigia fine liquidate`), a notice issued (`vigia notice issue`) and a paid fine's paz y salvo
//! issued (`vigia settlement issue`). A refusal draws the page again with the message beside the
//! input it names; an action the register would refuse (voiding a breach with letters or
//! payments) is not offered.

use super::auth::User;
use super::extract::{Path, Query};
use super::form::{
    Errors, Inputs, Page, Posted, Sent, VoidForm, download, keep, ok, see_other, with_status,
};
use super::letters::{self, LetterTyped, NoticeForm, SettlementForm};
use super::views::{self, PesosColumn, csrf, fecha, input, numero, page, pesos};
use super::{App, WebError, input as parse};
use crate::fine::Outcome;
use crate::register::user::Role;
use crate::register::{self, Field, Refusal};
use crate::store::{self, Store, adjudications, breaches};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/incumplimientos/descargar", get(breaches_download))
        .route("/incumplimientos/{id}", get(breach_page))
        .route("/incumplimientos/{id}/pagos", post(payment))
        .route("/incumplimientos/{id}/anular", post(void_breach))
        .route(
            "/incumplimientos/{id}/pagos/{payment}/anular",
            post(void_payment),
        )
        .route("/incumplimientos/{id}/liquidar", post(liquidate))
        .route("/incumplimientos/{id}/aviso", post(issue_notice))
        .route("/incumplimientos/{id}/paz-y-salvo", post(issue_settlement))
}

/// The breach page's query: the date of the position shown.
const AS_OF: &str = "hasta";

// ---------------------------------------------------------------------------- the forms

/// A payment against the fine (`vigia payment record`).
#[derive(Default)]
struct PaymentForm {
    date: String,
    amount: String,
    reference: String,
    /// Ticked: two real payments alike (same day, amount and reference) are confirmed.
    allow_duplicate: bool,
}

impl PaymentForm {
    /// The bank's reference or the receipt (no register field: the rules do not read it).
    const REFERENCE: &str = "reference";
    /// The value a ticked checkbox sends.
    const TICKED: &str = "si";
}

impl Inputs for PaymentForm {
    fn read(sent: &Sent) -> PaymentForm {
        PaymentForm {
            date: sent.text(Field::PaymentDate.as_str()),
            amount: sent.text(Field::PaymentAmount.as_str()),
            reference: sent.text(PaymentForm::REFERENCE),
            allow_duplicate: sent.opt(Field::AllowDuplicate.as_str()).is_some(),
        }
    }
}

/// A liquidation stored (`vigia fine liquidate --until`).
#[derive(Default)]
struct LiquidateForm {
    until: String,
}

impl LiquidateForm {
    /// The liquidation's date (no register field: any date the rates cover).
    const UNTIL: &str = "until";
}

impl Inputs for LiquidateForm {
    fn read(sent: &Sent) -> LiquidateForm {
        LiquidateForm {
            until: sent.text(LiquidateForm::UNTIL),
        }
    }
}

/// The form of the breach page that was sent, as typed.
#[derive(Default)]
enum Typed {
    #[default]
    Nothing,
    Payment(PaymentForm),
    VoidBreach(VoidForm),
    /// A payment's void: its reason is not shown again in the breach's own void form.
    VoidPayment,
    Liquidate(LiquidateForm),
    Notice(NoticeForm),
    Settlement(SettlementForm),
}

// ---------------------------------------------------------------------------- the page

struct BreachView {
    breach: breaches::Breach,
    adj: adjudications::Adjudication,
    payments: Vec<breaches::StoredPayment>,
    liquidations: Vec<breaches::StoredLiquidation>,
    /// The latest liquidation, when it must be made again (PROVISIONAL_STALE, as the check
    /// asks: `register::liquidation::stale`); an earlier one is already made again.
    stale: Option<i64>,
    /// Its notices and paz y salvo, and whether its fine is paid.
    letters: letters::BreachLetters,
    position: Result<Outcome, String>,
    /// The position's date: the one asked for, or the day a paid fine was paid.
    as_of: NaiveDate,
    /// Why the breach cannot be voided (its paz y salvo, its notices, its payments), in Spanish:
    /// the page says so instead of offering a void the register would refuse.
    void_blocked: Option<String>,
    /// A paz y salvo certifies the fine paid with its payments: none can be voided (the register
    /// refuses it), so none is offered.
    certified: bool,
}

/// `can_sign`: the session holds a certificate (`/firma`), so a program that issues its
/// documents only signed is offered them (signed on download).
fn breach_view(
    app: &App,
    s: &mut Store,
    id: i64,
    as_of: NaiveDate,
    can_sign: bool,
) -> Result<BreachView, WebError> {
    let today = app.today();
    let breach = breaches::get(s.conn(), id)?;
    let adj = adjudications::get(s.conn(), breach.adjudication_id)?;
    let rates = app.rates(s)?;
    let letters = letters::breach_letters(s.conn(), id, adj.program_id, &rates, today, can_sign)?;
    // a paid fine is not priced to today: its position is the day it was paid
    let as_of = letters.paid.as_ref().map_or(as_of, |p| p.on);
    let position = match register::liquidation::facts(s.conn(), id, as_of) {
        Ok(facts) => {
            let conv = facts.program.program.convention;
            register::liquidation::price(&facts, as_of, conv, &rates).map_err(|e| match e {
                register::Error::Fine(f) => views::fine_error_text(&f),
                other => other.to_string(),
            })
        }
        Err(register::Error::Refused(r)) => Err(views::refusal_text(&r)),
        Err(e) => return Err(e.into()),
    };
    let void_blocked = register::breach::depends_on(s.conn(), id)?
        .map(|d| d.reason.in_lang(crate::lang::Lang::Es).to_string());
    let certified = crate::store::settlements::for_breach(s.conn(), id)?.is_some();
    let liquidations = breaches::liquidations(s.conn(), Some(id))?;
    let stage = crate::store::programs::stage_price(s.conn(), adj.program_id)?;
    let stale = match liquidations.last() {
        Some(l) if register::liquidation::stale(s.conn(), l.id, l.provisional, stage)? => {
            Some(l.id)
        }
        _ => None,
    };
    Ok(BreachView {
        void_blocked,
        certified,
        // voided payments too, marked: what was voided stays on record
        payments: breaches::payments_recorded(s.conn(), id)?,
        liquidations,
        stale,
        letters,
        breach,
        adj,
        position,
        as_of,
    })
}

fn breach_markup(user: &User, v: &BreachView, errors: &Errors, typed: &Typed) -> Markup {
    let b = &v.breach;
    let e = |k: Field| errors.get(k.as_str());
    let none = (PaymentForm::default(), VoidForm::default());
    let payment = match typed {
        Typed::Payment(f) => f,
        _ => &none.0,
    };
    let void = match typed {
        Typed::VoidBreach(f) => f,
        _ => &none.1,
    };
    let until = match typed {
        Typed::Liquidate(f) => f.until.clone(),
        _ => fecha(v.as_of),
    };
    let letters_typed = LetterTyped {
        notice: match typed {
            Typed::Notice(f) => Some(f),
            _ => None,
        },
        settlement: match typed {
            Typed::Settlement(f) => Some(f),
            _ => None,
        },
    };
    html! {
        dl.hechos {
            dt { "Titular" } dd { a href={"/titulares/" (v.adj.holder.id)} { (v.adj.holder.name) } " (" (views::documento(v.adj.holder.doc_type, &v.adj.holder.doc_number)) ")" }
            dt { "Adjudicación" } dd { (v.adj.id) " — " (numero(v.adj.shares)) " acciones el " (fecha(v.adj.adjudicated_on)) }
            dt { "Tipo" } dd { (b.kind.label_es()) }
            dt { "Fecha" } dd { (fecha(b.breach_date)) }
            dt { "Acciones" } dd { (numero(b.shares)) }
            @if let Some(p) = b.transfer_price() { dt { "Contraprestación por acción" } dd { (pesos(p)) } }
            @if let Some(ev) = &b.evidence { dt { "Prueba" } dd { (ev) } }
            dt { "Registrado" } dd { (views::momento(&b.created_at)) " por " (b.created_by) }
            @if let Some(vd) = &b.void { dt { "ANULADO" } dd { (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason) } }
        }
        (errors.general())
        @match &v.letters.paid {
            Some(paid) => {
                h2 { "Multa pagada" }
                (letters::paid_markup(paid))
            }
            None => {
                h2 { "Posición al " (fecha(v.as_of)) }
                form method="get" action={"/incumplimientos/" (b.id)} {
                    div.campo { label for=(AS_OF) { "Calcular al" } input id=(AS_OF) name=(AS_OF) type="text" value=(fecha(v.as_of)); }
                    button type="submit" { "Calcular" }
                }
            }
        }
        @match &v.position {
            Ok(o) => {
                // the balance over time, each payment marked (the engine's series)
                @if let Outcome::Liquidated(l) = o { (super::charts::balance(l)) }
                (views::outcome(o))
            },
            Err(m) => p.error role="alert" { (views::sentence(m)) },
        }
        h2 { "Pagos" }
        table.pagos {
            thead { tr { th { "N.º" } th { "fecha" } th.num { "valor" } th { "referencia" } th { "registrado por" } th { "anulación" } } }
            @let amounts = PesosColumn::of(v.payments.iter().map(|p| p.amount));
            tbody {
                @for p in &v.payments {
                    tr class=[p.void.is_some().then_some("anulado")] {
                        td data-label="N.º" { (p.id) } td data-label="Fecha" { (fecha(p.paid_on)) } td.num data-label="Valor" { (amounts.show(p.amount)) } td data-label="Referencia" { (p.reference.as_deref().unwrap_or("")) } td data-label="Registrado por" { (p.created_by) }
                        td data-label="Anulación" {
                            @if let Some(vd) = &p.void { "ANULADO " (views::momento(&vd.at)) " por " (vd.by) ": " (vd.reason) }
                            @else if user.may(Role::Oficial) && !v.certified {
                                form.anular method="post" action={"/incumplimientos/" (b.id) "/pagos/" (p.id) "/anular"} {
                                    (csrf(user))
                                    label for={"motivo-pago-" (p.id)} { "Motivo" }
                                    input id={"motivo-pago-" (p.id)} name=(Field::VoidReason.as_str()) type="text" required;
                                    button type="submit" { "Anular pago" }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(m) = errors.get(Field::Payment.as_str()) { p.error role="alert" { (views::sentence(m)) } }
        @if user.may(Role::Oficial) && b.void.is_none() && v.certified {
            p.nota { "La multa tiene su paz y salvo: después de él no se registran pagos (una suma recibida después se devuelve a quien la pagó, fuera de la multa)." }
        }
        @if user.may(Role::Oficial) && b.void.is_none() && !v.certified {
            form method="post" action={"/incumplimientos/" (b.id) "/pagos"} {
                (csrf(user))
                (input(Field::PaymentDate.as_str(), views::field_label(Field::PaymentDate), &payment.date, e(Field::PaymentDate), Some("dd/mm/aaaa")))
                (input(Field::PaymentAmount.as_str(), views::field_label(Field::PaymentAmount), &payment.amount, e(Field::PaymentAmount), Some("en pesos, p. ej. 500.000")))
                (input(PaymentForm::REFERENCE, "Referencia (consignación, recibo)", &payment.reference, None, None))
                // offered once the register found the same payment recorded: two real payments alike
                @if let Some(m) = e(Field::AllowDuplicate) {
                    div.campo.con-error {
                        label {
                            input type="checkbox" name=(Field::AllowDuplicate.as_str()) value=(PaymentForm::TICKED);
                            " " (views::field_label(Field::AllowDuplicate)) " (es otro pago, igual al ya registrado)"
                        }
                        p.error id={(Field::AllowDuplicate.as_str()) "-error"} role="alert" { (views::sentence(m)) }
                    }
                }
                div.acciones { button type="submit" { "Registrar pago" } }
            }
        }
        h2 { "Liquidaciones" }
        @if v.liquidations.is_empty() { p #sin-liquidaciones { "Ninguna liquidación guardada." } }
        @else {
            table.liquidaciones {
                thead { tr { th { "N.º" } th { "al" } th { "convención" } th.num { "total" } th { "huella" } } }
                @let totals = PesosColumn::of(v.liquidations.iter().map(|l| l.total_due));
                tbody { @for l in &v.liquidations { tr { td data-label="N.º" { a href={"/liquidaciones/" (l.id)} { (l.id) } } td data-label="Al" { (fecha(l.until)) } td data-label="Convención" { (l.convention.name_es()) } td.num data-label="Total" { (totals.show(l.total_due)) } td data-label="Huella" { code { (&l.sha256[..16]) "…" } } } } }
            }
            @if let Some(id) = v.stale {
                p.aviso.desactualizada {
                    "La liquidación N.º " (id) " es provisional y el precio de la etapa cambió desde que se hizo: liquide de nuevo la multa (PROVISIONAL_STALE)."
                }
            }
        }
        @if user.may(Role::Juridico) && b.void.is_none() && v.letters.paid.is_some() {
            p #sin-liquidar { "La multa está pagada: no queda saldo que liquidar." }
        }
        @if user.may(Role::Juridico) && b.void.is_none() && v.letters.paid.is_none() {
            form method="post" action={"/incumplimientos/" (b.id) "/liquidar"} {
                (csrf(user))
                (input(LiquidateForm::UNTIL, "Liquidar al", &until, errors.get(LiquidateForm::UNTIL), Some("dd/mm/aaaa")))
                div.acciones { button type="submit" { "Liquidar y guardar" } }
            }
        }
        (letters::breach_letters_markup(user, b.id, b.void.is_some(), &v.letters, v.as_of, errors, letters_typed))
        @if user.may(Role::Oficial) && b.void.is_none() && v.void_blocked.is_some() {
            h2 { "Anular el incumplimiento" }
            p #no-anulable { "No puede anularse: " (v.void_blocked.as_deref().unwrap_or("")) "." }
        }
        @if user.may(Role::Oficial) && b.void.is_none() && v.void_blocked.is_none() {
            h2 { "Anular el incumplimiento" }
            p { "Solo si se registró por error: queda en el registro, marcado como anulado, con quién, cuándo y por qué, y ninguna cifra lo cuenta." }
            form method="post" action={"/incumplimientos/" (b.id) "/anular"} {
                (csrf(user))
                (input(Field::VoidReason.as_str(), views::field_label(Field::VoidReason), &void.reason, e(Field::VoidReason), None))
                div.acciones { button type="submit" { "Anular incumplimiento" } }
            }
        }
    }
}

async fn breach_page(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    q: Query<Sent>,
) -> Page {
    let as_of = match q.0.opt(AS_OF) {
        Some(s) => parse::date(&s).map_err(WebError::bad_request)?,
        None => app.today(),
    };
    let app2 = Arc::clone(&app);
    let can_sign = app.sessions.signer(user.token()).is_some();
    let v = app
        .db(move |s| breach_view(&app2, s, id, as_of, can_sign))
        .await?;
    let body = breach_markup(&user, &v, &Errors::default(), &Typed::Nothing);
    ok(page(Some(&user), format!("Incumplimiento {id}"), body))
}

/// The download's query: the file (`xlsx` or `csv-excel`) and the filters of `vigia breach
/// list` (`--program`, `--adjudication`).
const FORMAT: &str = "formato";
const PROGRAM: &str = "programa";
const ADJUDICATION: &str = "adjudicacion";

/// The breaches (voided ones too, marked) as `vigia breach list --format xlsx|csv-excel` writes
/// them, with its filters; consulta and above (every account).
async fn breaches_download(State(app): State<Arc<App>>, user: User, q: Query<Sent>) -> Page {
    use crate::report::excel::Cell;
    use crate::report::findings::Kind;
    let kind = match q.0.opt(FORMAT).as_deref() {
        Some("xlsx") => Kind::Xlsx,
        Some("csv-excel") => Kind::CsvExcel,
        other => {
            return Err(WebError::invalid(format!(
                "El formato «{}» no existe: pida «xlsx» o «csv-excel».",
                crate::input::escaped(other.unwrap_or(""))
            )));
        }
    };
    let program = q.0.opt(PROGRAM);
    let adjudication = match q.0.opt(ADJUDICATION) {
        Some(a) => Some(a.parse::<i64>().map_err(|_| {
            WebError::invalid(format!(
                "La adjudicación «{}» no es un número.",
                crate::input::escaped(&a)
            ))
        })?),
        None => None,
    };
    let mut asked = vec![
        (
            "Origen".into(),
            Cell::Text("incumplimientos, descargados de vigia serve".into()),
        ),
        ("Descargado por".into(), Cell::Text(user.name.clone())),
        (
            "Generado (hora de Colombia)".into(),
            Cell::DateTime(
                app.now()
                    .with_timezone(&crate::calendar::colombia())
                    .naive_local(),
            ),
        ),
    ];
    // as `vigia breach list` names its filters on the Consulta sheet
    asked.extend(adjudication.map(|a| ("Adjudicación".to_string(), Cell::Text(a.to_string()))));
    asked.extend(
        program
            .clone()
            .map(|p| ("Programa".to_string(), Cell::Text(p))),
    );
    let bytes = app
        .db(move |s| {
            let program_id = program
                .map(|c| store::programs::by_code(s.conn(), &c).map(|p| p.id))
                .transpose()?;
            // the file made a row at a time: only its bytes are held, not the list's cells
            let found = breaches::list(s.conn(), adjudication, program_id)?;
            let mut bytes = Vec::new();
            crate::report::listing::write(
                kind,
                "Incumplimientos",
                || found.iter().map(crate::report::listing::breach),
                &asked,
                &mut bytes,
            )
            .map_err(|e| WebError::internal(format!("breaches file: {e}")))?;
            Ok(bytes)
        })
        .await?;
    match kind {
        Kind::Xlsx => download(
            "vigia-incumplimientos.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            bytes,
        ),
        Kind::CsvExcel => download(
            "vigia-incumplimientos.csv",
            "text/csv; charset=utf-8",
            bytes,
        ),
    }
}

// ---------------------------------------------------------------------------- the writes

/// Runs a write on a breach's page; a refusal shows the page again with the message next to the
/// input it names.
async fn breach_write<T: Send + 'static>(
    app: Arc<App>,
    user: User,
    id: i64,
    typed: Typed,
    parsed: Result<
        impl FnOnce(&App, &mut store::Tx<'_>) -> register::Result<T> + Send + 'static,
        Errors,
    >,
    done: impl FnOnce(T) -> String + Send + 'static,
) -> Page {
    let officer = user.name.clone();
    let app2 = Arc::clone(&app);
    let can_sign = app.sessions.signer(user.token()).is_some();
    let result = app
        .db(move |s| {
            let mut errors = match parsed {
                Ok(write) => match s.write::<_, register::Error>(&officer, |tx| write(&app2, tx)) {
                    Ok(t) => return Ok(Ok(done(t))),
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
            let v = breach_view(&app2, s, id, app2.today(), can_sign)?;
            Ok(Err((v, errors)))
        })
        .await?;
    match result {
        Ok(to) => see_other(to),
        Err((v, errors)) => {
            let body = errors.placed(|| breach_markup(&user, &v, &errors, &typed));
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), format!("Incumplimiento {id}"), body),
            )
        }
    }
}

/// The breach's own page, after a write on it.
fn to_breach(id: i64) -> impl FnOnce(i64) -> String + Send + 'static {
    move |_| format!("/incumplimientos/{id}")
}

async fn payment(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<PaymentForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let today = app.today();
    let mut errors = Errors::default();
    let date = keep(
        &mut errors,
        Field::PaymentDate.as_str(),
        parse::date(&f.date),
    );
    let amount = keep(
        &mut errors,
        Field::PaymentAmount.as_str(),
        parse::paid(&f.amount),
    );
    let reference = Some(f.reference.trim().to_string()).filter(|s| !s.is_empty());
    let allow_duplicate = f.allow_duplicate;
    let parsed = match (date, amount) {
        (Some(paid_on), Some(amount)) => Ok(move |_: &App, tx: &mut store::Tx<'_>| {
            register::payment::record(
                tx,
                &register::payment::NewPayment {
                    breach_id: id,
                    paid_on,
                    amount,
                    reference: reference.as_deref(),
                    today,
                    allow_duplicate,
                },
            )
        }),
        _ => Err(errors),
    };
    breach_write(app, user, id, Typed::Payment(f), parsed, to_breach(id)).await
}

async fn void_breach(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<VoidForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let reason = f.reason.clone();
    let write = move |_: &App, tx: &mut store::Tx<'_>| register::breach::void(tx, id, &reason);
    breach_write(
        app,
        user,
        id,
        Typed::VoidBreach(f),
        Ok(write),
        to_breach(id),
    )
    .await
}

async fn void_payment(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, payment)): Path<(i64, i64)>,
    sent: Posted<VoidForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let write = move |_: &App, tx: &mut store::Tx<'_>| {
        // the page is the breach's: the register refuses a payment of another breach; a refusal
        // of the reason is shown beside the payments, not the breach's own form
        register::payment::void_of_breach(tx, id, payment, &f.reason).map_err(|e| match e {
            register::Error::Refused(Refusal::Value {
                field: Field::VoidReason,
                reason,
                ..
            }) => Refusal::value(Field::Payment, payment, reason).into(),
            other => other,
        })
    };
    breach_write(app, user, id, Typed::VoidPayment, Ok(write), to_breach(id)).await
}

async fn liquidate(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<LiquidateForm>,
) -> Page {
    let f = sent.checked(&user, Role::Juridico)?;
    let parsed = match parse::date(&f.until) {
        Ok(until) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            let rates = app.rates_tx(tx)?;
            register::liquidation::liquidate(tx, id, until, None, &rates).map(|(lid, _)| lid)
        }),
        Err(e) => {
            let mut errors = Errors::default();
            errors.put(LiquidateForm::UNTIL, e);
            Err(errors)
        }
    };
    breach_write(app, user, id, Typed::Liquidate(f), parsed, |lid| {
        format!("/liquidaciones/{lid}")
    })
    .await
}

async fn issue_notice(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<NoticeForm>,
) -> Page {
    let f = sent.checked(&user, Role::Juridico)?;
    let today = app.today();
    let mut errors = Errors::default();
    let can_sign = app.sessions.signer(user.token()).is_some();
    let parsed = match f.parse(today, &mut errors) {
        Some(n) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            // a program that issues its notices only signed refuses here unless the session
            // holds a certificate to sign them with (`/firma`; signed on the notice's page)
            if !can_sign {
                register::signed_only::refuse_unsigned(
                    tx.conn(),
                    id,
                    crate::program_sign::Signed::Notices,
                )?;
            }
            let rates = app.rates_tx(tx)?;
            let reason = n.backdate_reason.as_deref();
            register::notice::issue(tx, id, n.until, n.date, today, reason, &rates)
                .map(|i| i.notice.id)
        }),
        None => Err(errors),
    };
    breach_write(app, user, id, Typed::Notice(f), parsed, |nid| {
        format!("/avisos/{nid}")
    })
    .await
}

/// Issues the paz y salvo of a breach's fine (jurídico and above, as notices are issued), through
/// `register::settlement::issue` as `vigia settlement issue` does; the certificate's page follows.
async fn issue_settlement(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<SettlementForm>,
) -> Page {
    let f = sent.checked(&user, Role::Juridico)?;
    let today = app.today();
    let mut errors = Errors::default();
    let can_sign = app.sessions.signer(user.token()).is_some();
    let parsed = match f.parse(today, &mut errors) {
        Some(date) => Ok(move |app: &App, tx: &mut store::Tx<'_>| {
            if !can_sign {
                register::signed_only::refuse_unsigned(
                    tx.conn(),
                    id,
                    crate::program_sign::Signed::Settlements,
                )?;
            }
            let rates = app.rates_tx(tx)?;
            register::settlement::issue(tx, id, date, today, &rates).map(|i| i.settlement.id)
        }),
        None => Err(errors),
    };
    breach_write(app, user, id, Typed::Settlement(f), parsed, |sid| {
        format!("/paz-y-salvo/{sid}")
    })
    .await
}
