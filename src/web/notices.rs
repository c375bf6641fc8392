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
use crate::notice::{DocFormat, Via};
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
                "Este aviso fue reemplazado por el aviso " a href={"/avisos/" (r.id)} { (r.number) }
                " del " (fecha(r.notice_date)) ": ya no está vigente."
            }
        }
        dl.hechos {
            dt { "Número" } dd #numero { (notice.number) }
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (notice.breach_id)} { (notice.breach_id) } }
            dt { "Liquidación" } dd { a href={"/liquidaciones/" (notice.liquidation_id)} { (notice.liquidation_id) } }
            @if let Some((until, total)) = n.demands {
                dt { "Valor cobrado" } dd #valor { strong { (pesos(total)) } " (liquidado al " (fecha(until)) ")" }
            }
            dt { "Fecha" } dd { (fecha(notice.notice_date)) }
            dt { "Pagar a más tardar" } dd #plazo { strong { (letters::plazo(n.deadline)) } " — " (n.runs_from) }
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
    let title = format!("Aviso {}", n.notice.number);
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
            let title = format!("Aviso {}", n.notice.number);
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
    use crate::register::verify::{Error, Unverifiable};
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
    let body = html! {
        @match &outcome {
            Ok(c) if c.register.matches() => p.ok role="status" { "El documento coincide con el registro: texto, cifras y huella." },
            Ok(_) => p.error role="alert" { "El documento NO coincide con el registro (vea el detalle)." },
            Err(_) => p.error role="alert" { "No se pudo verificar el documento." },
        }
        @if let Ok(c) = &outcome { @if let Some(summary) = signature::summary(Lang::Es, &c.signatures) {
            @if c.signatures.holds() { p.ok #firma role="status" { (summary) } }
            @else { p.error #firma role="alert" { (summary) } }
        } }
        @if let Ok(c) = &outcome { @if let Some(p) = &c.register.paid_since {
            p.aviso role="status" { "La multa de este aviso ya está pagada en su totalidad (" (fecha(p.on)) "): " (paz_y_salvo_es(p)) "." }
        } }
        h2 { "Detalle" }
        @match &outcome {
            Ok(c) => {
                (verification(&c.register))
                @if c.signatures.is_signed() {
                    h2 { "Firma digital" }
                    ul.firma {
                        @for l in signature::report(Lang::Es, &c.signatures, TrustFrom::Server) {
                            li { (l.trim()) }
                        }
                    }
                }
            }
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
                "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 {sha256} no es {}",
                match written {
                    1 => "el del único archivo que vigia generó".to_string(),
                    n => format!("el de ninguno de los {} archivos que vigia generó", crate::lang::numero(*n as u64)),
                }
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
