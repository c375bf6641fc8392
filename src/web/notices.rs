//! `/avisos`: a notice's page (its deadline as the register has it, with what the term runs
//! from; its delivery and the form that records one, as `vigia notice delivered`; the notices
//! either side of it), its documents downloaded and recorded as renderings, and «Verificar
//! aviso», which checks an uploaded notice or paz y salvo against the register itself.

use super::auth::User;
use super::extract::Path;
use super::form::{
    Errors, Inputs, Page, Posted, Sent, keep, ok, read_upload, see_other, upload_form, with_status,
};
use super::letters::{self, NoticeLine};
use super::views::{self, csrf, fecha, input, page, pesos};
use super::{App, input as parse};
use crate::notice::Via;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store::notices::{self, Doc};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/avisos/verificar", get(verify_page).post(verify_upload))
        .route("/avisos/{id}", get(notice_page))
        .route("/avisos/{id}/entrega", post(deliver))
        .route("/avisos/{id}/documento/{format}", get(notice_document))
}

/// A notice's delivery (`vigia notice delivered`).
#[derive(Default)]
struct DeliveryForm {
    on: String,
    via: String,
    evidence: String,
}

impl Inputs for DeliveryForm {
    fn read(sent: &Sent) -> DeliveryForm {
        DeliveryForm {
            on: sent.text(Field::DeliveryDate.as_str()),
            via: sent.text(Field::DeliveryVia.as_str()),
            evidence: sent.text(Field::Evidence.as_str()),
        }
    }
}

fn notice_markup(
    user: &User,
    n: &NoticeLine,
    errors: &Errors,
    typed: &DeliveryForm,
    sign: Markup,
) -> Markup {
    let notice = &n.notice;
    let may_deliver = n.delivery.is_none() && n.replaced_by.is_none();
    let e = |f: Field| errors.get(f.as_str());
    html! {
        @if let Some(r) = &n.replaced_by {
            p.aviso role="status" {
                "Este aviso fue reemplazado por el aviso " a href={"/avisos/" (r.id)} { (views::ident(&r.number)) }
                " del " (fecha(r.notice_date)) ": ya no está vigente."
            }
        }
        dl.hechos {
            dt { "Número" } dd #numero { (views::ident(&notice.number)) }
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (notice.breach_id)} { (notice.breach_id) } }
            dt { "Liquidación" } dd { a href={"/liquidaciones/" (notice.liquidation_id)} { (notice.liquidation_id) } }
            @if let Some((until, total)) = n.demands {
                dt { "Valor cobrado" } dd #valor { strong { (pesos(total)) } " (liquidado al " (fecha(until)) ")" }
            }
            dt { "Fecha" } dd { (fecha(notice.notice_date)) }
            dt { "Pagar a más tardar" } dd #plazo { strong { (letters::plazo(n.deadline)) } " — " (n.runs_from) }
            dt { "Emitido" } dd { (views::momento(&notice.created_at)) " por " (notice.created_by) }
            @if let Some(p) = &n.replaces {
                dt { "Reemplaza a" } dd #reemplaza { "el aviso " a href={"/avisos/" (p.id)} { (views::ident(&p.number)) } " del " (fecha(p.notice_date)) }
            }
            @if let Some(r) = &n.replaced_by {
                dt { "Reemplazado por" } dd #reemplazado { "el aviso " a href={"/avisos/" (r.id)} { (views::ident(&r.number)) } " del " (fecha(r.notice_date)) }
            }
        }
        h2 { "Entrega" }
        @match &n.delivery {
            Some(d) => table.entregas.tarjetas {
                thead { tr { th { "fecha" } th { "medio" } th { "constancia" } th { "registrada" } } }
                tbody { tr {
                    td data-label="Fecha" { (fecha(d.delivered_on)) } td data-label="Medio" { (d.via.label_es()) }
                    td data-label="Constancia" { (d.evidence.as_deref().unwrap_or("")) }
                    td data-label="Registrada" { (views::momento(&d.created_at)) " por " (d.created_by) }
                } }
            },
            None => p { "Sin entrega registrada." },
        }
        (errors.general())
        @if let Some(m) = e(Field::Notice) { p.error #notice-error role="alert" { (m) } }
        @if user.may(Role::Oficial) && may_deliver {
            form method="post" action={"/avisos/" (notice.id) "/entrega"} {
                (csrf(user))
                (input(Field::DeliveryDate.as_str(), views::field_label(Field::DeliveryDate), &typed.on, e(Field::DeliveryDate), Some(&n.rule.delivery_hint())))
                div.campo.con-error[e(Field::DeliveryVia).is_some()] {
                    label for=(Field::DeliveryVia.as_str()) { (views::field_label(Field::DeliveryVia)) }
                    select id=(Field::DeliveryVia.as_str()) name=(Field::DeliveryVia.as_str()) {
                        @for v in Via::ALL {
                            option value=(v.as_str()) selected[typed.via == v.as_str()] { (v.label_es()) }
                        }
                    }
                    @if let Some(m) = e(Field::DeliveryVia) { p.error id={(Field::DeliveryVia.as_str()) "-error"} role="alert" { (m) } }
                }
                (input(Field::Evidence.as_str(), views::field_label(Field::Evidence), &typed.evidence, e(Field::Evidence), Some("guía, recibo firmado o acuse de recibo; opcional")))
                div.acciones { button type="submit" { "Registrar entrega" } }
            }
        }
        h2 { "Documentos" }
        p { "Descargar: " (letters::doc_links("avisos", notice.id)) }
        (sign)
        p.nota { "Cada descarga queda registrada (formato y SHA-256) a nombre de quien la descarga, para que el archivo pueda verificarse en «Verificar aviso»." }
    }
}

async fn notice_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let n = app
        .db(move |s| letters::notice_line(s.conn(), notices::get(s.conn(), id)?))
        .await?;
    let title = views::Title::naming(format!("Aviso {}", n.notice.number), &[&n.notice.number]);
    ok(page(
        Some(&user),
        &title,
        notice_markup(
            &user,
            &n,
            &Errors::default(),
            &DeliveryForm::default(),
            sign_form(&app, &user, id),
        ),
    ))
}

/// Records a notice's delivery (oficial and above, as a payment is recorded: a fact with its
/// receipt), through `register::notice::deliver` as `vigia notice delivered` does.
async fn deliver(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<DeliveryForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let today = app.today();
    let mut errors = Errors::default();
    let on = keep(
        &mut errors,
        Field::DeliveryDate.as_str(),
        parse::date(&f.on),
    );
    let via = Via::ALL.into_iter().find(|v| v.as_str() == f.via);
    if via.is_none() {
        errors.put(
            Field::DeliveryVia.as_str(),
            "elija el medio de entrega".into(),
        );
    }
    let evidence = Some(f.evidence.trim().to_string()).filter(|s| !s.is_empty());
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            let notice = notices::get(s.conn(), id)?;
            if let (Some(on), Some(via)) = (on, via) {
                match s.write::<_, register::Error>(&officer, |tx| {
                    register::notice::deliver(tx, &notice, on, via, evidence.as_deref(), today)
                }) {
                    Ok(_) => return Ok(Ok(())),
                    Err(e) => errors.register(e)?,
                }
            }
            if errors.is_empty() {
                errors.general.push("La operación fue rechazada.".into());
            }
            Ok(Err((letters::notice_line(s.conn(), notice)?, errors)))
        })
        .await?;
    match result {
        Ok(()) => see_other(format!("/avisos/{id}")),
        Err((n, errors)) => {
            let title =
                views::Title::naming(format!("Aviso {}", n.notice.number), &[&n.notice.number]);
            let body = notice_markup(&user, &n, &errors, &f, sign_form(&app, &user, id));
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(Some(&user), &title, body),
            )
        }
    }
}

/// «Firmar y descargar PDF», or where to load a certificate.
fn sign_form(app: &App, user: &User, id: i64) -> Markup {
    let has_signer = app.sessions.signer(user.token()).is_some();
    letters::sign_form(user, "avisos", id, has_signer)
}

// ---------------------------------------------------------------------------- documents

/// A notice's document in a format: rendered from the stored notice (same number, date, figures
/// and fingerprint) and recorded as a rendering under the signed-in user, as `vigia notice render`
/// records its file, so that the file downloaded verifies. Any role may download: the record is of
/// a file written, not a fact about the holder.
async fn notice_document(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, format)): Path<(i64, String)>,
) -> Page {
    letters::recorded_download(&app, &user, &format, move |conn, fmt| {
        let n = notices::get(conn, id)?;
        let data = crate::register::notice_data::gather(conn, &n)?;
        let bytes = crate::report::document::notice(&data, fmt);
        Ok((Doc::Notice(n.id), n.number, bytes))
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
    use crate::catalogue::signature::{self, TrustFrom};
    use crate::lang::Lang;
    use crate::register::verify::Error;
    use crate::register::verify_signed;
    let up = read_upload(m).await?;
    user.check_csrf(up.fields.csrf())?;
    let Some(received) = up.received() else {
        let body = html! {
            p.error role="alert" { "Elija el documento a verificar; no se subió ninguno." }
            (upload_form(&user, "/avisos/verificar", "Documento del aviso (PDF, HTML o Markdown)", html! {}, "Verificar"))
        };
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), "Verificar un aviso", body),
        );
    };
    // written to a temporary file as it arrived; read when parsed
    let bytes = received.read().await?;
    // the register's verification on the revision vigia wrote, the signatures on the whole file
    // (issue 26), as `vigia notice verify` does
    let app2 = Arc::clone(&app);
    let outcome = app
        .db(move |s| {
            let docs = crate::report::document::Documents;
            let rates = app2.rates(s)?;
            let trust = app2.config.trust.as_deref().map(Vec::as_slice);
            match verify_signed::document(s.conn(), &bytes, trust, &rates, &docs) {
                Ok(v) => Ok(Ok(v)),
                Err(Error::Unverifiable(e)) => Ok(Err(e)),
                Err(Error::Register(e)) => Err(e.into()),
            }
        })
        .await?;
    let words = crate::catalogue::of(Lang::Es);
    let body = match &outcome {
        Ok(c) => {
            use crate::register::verify::Outcome;
            let outcome = c.outcome();
            let said = words.verification(&c.register, &outcome);
            html! {
                // authentic and in force; authentic but no longer in force (a warning, not the
                // error's colour); not the register's
                @match outcome {
                    Outcome::InForce => p.ok #resultado role="status" { (said.outcome) },
                    Outcome::Lapsed(_) => p.aviso #resultado role="status" { (said.outcome) },
                    Outcome::Mismatch | Outcome::BadSignature => p.error #resultado role="alert" { (said.outcome) },
                }
                @if let Some(summary) = signature::summary(Lang::Es, &c.signatures) {
                    @if c.signatures.holds() { p.ok #firma role="status" { (summary) } }
                    @else { p.error #firma role="alert" { (summary) } }
                }
                @if let Some(paid) = &said.paid { p.aviso role="status" { (paid) } }
                h2 { "Detalle" }
                (checks(&said))
                @if c.signatures.is_signed() {
                    h2 { "Firma digital" }
                    ul.firma {
                        @for l in signature::report(Lang::Es, &c.signatures, TrustFrom::Server) {
                            li { (l.trim()) }
                        }
                    }
                }
                (upload_form(&user, "/avisos/verificar", "Otro documento", html! {}, "Verificar"))
            }
        }
        Err(e) => {
            use crate::register::verify::Unverifiable;
            let said = words.unverifiable(e);
            // an acta: a link to the page whose form verifies it
            let acta = match (e, &said.acta_link) {
                (
                    Unverifiable::Acta {
                        stage,
                        program: Some(code),
                    },
                    Some(words),
                ) => Some(match stage {
                    1 => (format!("/programas/{code}/oferta#acta"), words),
                    n => (format!("/programas/{code}/etapas/{n}#acta"), words),
                }),
                _ => None,
            };
            html! {
                p.error role="alert" { (said.outcome) }
                h2 { "Detalle" }
                p { (said.reason) }
                @if let Some((href, words)) = acta {
                    p { a #verificar-acta href=(href) { (words) } }
                }
                (upload_form(&user, "/avisos/verificar", "Otro documento", html! {}, "Verificar"))
            }
        }
    };
    ok(page(Some(&user), "Verificar un aviso", body))
}

/// Each check of a verified document as the catalogue words it (in Spanish): what was checked,
/// whether it holds, and why.
fn checks(said: &crate::catalogue::verification::Said) -> Markup {
    use crate::catalogue::verification::Mark;
    let (before, number, after) = &said.document;
    let [check, result, detail] = said.headers;
    html! {
        p { (before) strong { (views::ident(number)) } (after) }
        table.verificacion {
            thead { tr { th { (check) } th { (result) } th { (detail) } } }
            tbody {
                @for row in &said.rows {
                    // each cell names its column, for the rows stacked on a phone
                    tr {
                        td data-label=(check) { (row.check) }
                        @match row.mark {
                            Mark::Fails => td.error data-label=(result) { (row.shown) },
                            Mark::Lapsed => td.vencido data-label=(result) { (row.shown) },
                            _ => td data-label=(result) { (row.shown) },
                        }
                        td data-label=(detail) { (row.detail) }
                    }
                }
            }
        }
    }
}
