//! `/avisos/pendientes`: `vigia notice issue --pending` in the browser. The breaches that await a
//! notice as of a date (`register::notice::pending`, the command line's list), each tried in a
//! transaction rolled back so that one the register would refuse shows why beside it and is left
//! out of the batch; the rest issued in one action (`register::notice::issue` for each, in one
//! transaction: all or nothing). The batch's page then offers a zip of the documents (PDF, and
//! the command line's index.csv), rendered from the register after the commit, never under the
//! write lock, each download recorded as the documents' renderings.

use super::auth::User;
use super::extract::{Path, Query};
use super::form::{
    Errors, Inputs, Page, Posted, Sent, download_file, dry_run, keep, ok, see_other, with_status,
};
use super::letters::{self, NoticeLine};
use super::views::{self, PesosColumn, csrf, fecha, input, page};
use super::{App, WebError, input as parse};
use crate::catalogue::msg::Msg;
use crate::notice::DocFormat;
use crate::register::notice::Skipped;
use crate::register::user::Role;
use crate::register::{self, Field, Refusal};
use crate::store::{self, StoreError, notices};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/avisos/pendientes", get(pending_page).post(issue_batch))
        .route("/avisos/lote/{first}/{last}", get(batch_page))
        .route("/avisos/lote/{first}/{last}/documentos.zip", get(batch_zip))
}

/// The most notices one batch holds (its page lists the first [`LISTED`]; its zip, every one).
const MAX_BATCH: i64 = 1_000_000;

/// Notices a batch's page lists.
const LISTED: i64 = 200;

/// The batch form: the liquidations' date, the notices' date and its reason, the breaches shown
/// as issuable.
#[derive(Default)]
struct BatchForm {
    until: String,
    date: String,
    backdate_reason: String,
    breaches: Vec<String>,
}

impl BatchForm {
    /// The date the liquidations run to (no register field), as on the breach page.
    const UNTIL: &str = "notice_until";
}

impl Inputs for BatchForm {
    fn read(sent: &Sent) -> BatchForm {
        BatchForm {
            until: sent.text(BatchForm::UNTIL),
            date: sent.text(Field::NoticeDate.as_str()),
            backdate_reason: sent.text(Field::BackdateReason.as_str()),
            breaches: sent.all(Field::Breach.as_str()),
        }
    }
}

/// A breach that awaits its notice, as the list shows it.
struct Awaiting {
    breach: store::breaches::Breach,
    holder: String,
    program: String,
    /// Why the register (or the web) would not issue it now; `None`: it goes in the batch.
    refused: Option<String>,
}

/// What the list is read for.
struct Asked {
    until: NaiveDate,
    date: NaiveDate,
    reason: Option<String>,
    /// Whether each is tried in a transaction rolled back: only for who may issue them (the
    /// others read the list without taking the write lock).
    try_each: bool,
    /// Whether the session holds a certificate (`/firma`): a program that issues its notices
    /// only signed is offered them, and the batch's documents are signed.
    signing: bool,
}

/// The certificate `user`'s session holds, when it may sign with it (jurídico and above).
fn session_signer(app: &App, user: &User) -> Option<Arc<crate::sign::Signer>> {
    user.may(Role::Juridico)
        .then(|| app.sessions.signer(user.token()))
        .flatten()
}

/// Whether `user`'s session holds a certificate it may sign with.
fn signing(app: &App, user: &User) -> bool {
    session_signer(app, user).is_some()
}

/// The breaches that await a notice as of `until`, each tried alone in a transaction rolled back.
fn awaiting(
    s: &mut store::Store,
    app: &App,
    officer: &str,
    asked: &Asked,
) -> Result<(Vec<Awaiting>, Skipped), WebError> {
    let rates = app.rates(s)?;
    let (ids, skipped) = register::notice::pending_and_skipped(s.conn(), asked.until, &rates)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let breach = store::breaches::get(s.conn(), id)?;
        let a = store::adjudications::get(s.conn(), breach.adjudication_id)?;
        let p = store::programs::by_id(s.conn(), a.program_id)?;
        let unsigned = if asked.signing {
            Ok(())
        } else {
            register::signed_only::refuse_unsigned(
                s.conn(),
                id,
                crate::program_sign::Signed::Notices,
            )
        };
        let refused = if let Err(e) = unsigned {
            Some(super::form::refusal_texts(e)?.join("; "))
        } else if !asked.try_each {
            None
        } else {
            let (until, date, today) = (asked.until, asked.date, app.today());
            let reason = asked.reason.clone();
            match dry_run(s, officer, |tx| {
                register::notice::issue(tx, id, until, date, today, reason.as_deref(), &rates)
            }) {
                Ok(_) => None,
                Err(register::Error::Store(e)) => return Err(e.into()),
                Err(e) => Some(super::form::refusal_texts(e)?.join("; ")),
            }
        };
        out.push(Awaiting {
            holder: format!(
                "{} {} {}",
                a.holder.doc_type.as_str(),
                a.holder.doc_number,
                a.holder.name
            ),
            program: p.program.code,
            breach,
            refused,
        });
    }
    Ok((out, skipped))
}

fn list_markup(
    user: &User,
    (list, skipped): &(Vec<Awaiting>, Skipped),
    typed: &BatchForm,
    errors: &Errors,
    until: NaiveDate,
) -> Markup {
    let issuable: Vec<&Awaiting> = list.iter().filter(|a| a.refused.is_none()).collect();
    let e = |f: &str| errors.get(f);
    let breach_error = |id: i64| {
        errors
            .get(&format!("{}-{id}", Field::Breach.as_str()))
            .map(str::to_string)
    };
    errors.placed(|| {
        html! {
            p {
                "Los incumplimientos sin aviso cuya multa no está saldada ni tiene paz y salvo, como los lista "
                "«vigia notice issue --pending». Cada aviso liquida la multa hasta la fecha indicada y toma el número "
                "siguiente de su programa; se emiten todos en una sola operación: todo o nada."
            }
            form.filtros method="get" action="/avisos/pendientes" {
                (input(BatchForm::UNTIL, "Liquidar hasta", &typed.until, None, Some("dd/mm/aaaa")))
                div.acciones { button type="submit" { "Ver los pendientes a esa fecha" } }
            }
            (errors.general())
            @let left_out = crate::catalogue::of(crate::lang::Lang::Es).msg(&Msg::NoticesLeftOut { skipped: *skipped });
            @if !left_out.is_empty() { p.nota { (left_out) "." } }
            @if list.is_empty() {
                p.ok role="status" { "No hay incumplimientos pendientes de aviso al " (fecha(until)) "." }
            } @else {
                div.tabla {
                    table.pendientes {
                        caption { (views::cuenta(list.len() as u64, "incumplimiento pendiente", "incumplimientos pendientes")) " de aviso al " (fecha(until)) }
                        thead { tr {
                            th.num scope="col" { "Incumplimiento" } th scope="col" { "Titular" } th scope="col" { "Programa" }
                            th scope="col" { "Fecha" } th scope="col" { "Tipo" }
                            @if user.may(Role::Juridico) { th scope="col" { "En el lote" } }
                        } }
                        tbody {
                            @for a in list {
                                @let mine = breach_error(a.breach.id).or(a.refused.clone());
                                tr class=[mine.is_some().then_some("con-problema")] {
                                    td.num data-label="Incumplimiento" { a href={"/incumplimientos/" (a.breach.id)} { (a.breach.id) } }
                                    td data-label="Titular" { (a.holder) } td data-label="Programa" { (a.program) }
                                    td data-label="Fecha" { (fecha(a.breach.breach_date)) } td data-label="Tipo" { (a.breach.kind.label_es()) }
                                    @if user.may(Role::Juridico) { td data-label="En el lote" {
                                        @match &mine {
                                            Some(m) => p.error id={(Field::Breach.as_str()) "-" (a.breach.id) "-error"} role="alert" { "Queda fuera. " (views::sentence(m)) },
                                            None => "Sí",
                                        }
                                    } }
                                }
                            }
                        }
                    }
                }
                @if user.may(Role::Juridico) {
                    @if issuable.is_empty() {
                        p.nota { "Ningún aviso puede emitirse ahora: cada fila dice por qué." }
                    } @else {
                        form method="post" action="/avisos/pendientes" {
                            (csrf(user))
                            input type="hidden" name=(BatchForm::UNTIL) value=(fecha(until));
                            @for a in &issuable { input type="hidden" name=(Field::Breach.as_str()) value=(a.breach.id); }
                            (input(Field::NoticeDate.as_str(), views::field_label(Field::NoticeDate), &typed.date, e(Field::NoticeDate.as_str()), Some("dd/mm/aaaa; vacía: hoy")))
                            (input(Field::BackdateReason.as_str(), views::field_label(Field::BackdateReason), &typed.backdate_reason, e(Field::BackdateReason.as_str()), Some("solo si la fecha es anterior a hoy")))
                            div.acciones { button type="submit" { "Emitir " (views::cuenta(issuable.len() as u64, "aviso", "avisos")) } }
                        }
                    }
                }
            }
        }
    })
}

#[derive(serde::Deserialize)]
struct ListQuery {
    notice_until: Option<String>,
}

async fn pending_page(State(app): State<Arc<App>>, user: User, Query(q): Query<ListQuery>) -> Page {
    let today = app.today();
    let typed = BatchForm {
        until: q.notice_until.clone().unwrap_or_else(|| fecha(today)),
        ..BatchForm::default()
    };
    let mut errors = Errors::default();
    let until = keep(&mut errors, BatchForm::UNTIL, parse::date(&typed.until));
    let Some(until) = until else {
        let body = errors.placed(|| html! {
            form.filtros method="get" action="/avisos/pendientes" {
                (input(BatchForm::UNTIL, "Liquidar hasta", &typed.until, errors.get(BatchForm::UNTIL), Some("dd/mm/aaaa")))
                div.acciones { button type="submit" { "Ver los pendientes a esa fecha" } }
            }
        });
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), TITLE, body),
        );
    };
    let list = pending_for(&app, &user, until, today).await?;
    ok(page(
        Some(&user),
        TITLE,
        list_markup(&user, &list, &typed, &errors, until),
    ))
}

const TITLE: &str = "Avisos pendientes";

/// What is pending to `until`, as the list shows it to `user` (each breach tried in a
/// rolled-back transaction for those who may issue), dated today.
async fn pending_for(
    app: &Arc<App>,
    user: &User,
    until: NaiveDate,
    today: NaiveDate,
) -> Result<(Vec<Awaiting>, Skipped), WebError> {
    let asked = Asked {
        until,
        date: today,
        reason: None,
        try_each: user.may(Role::Juridico),
        signing: signing(app, user),
    };
    let (app2, officer) = (Arc::clone(app), user.name.clone());
    app.db(move |s| awaiting(s, &app2, &officer, &asked)).await
}

/// Why a batch was not issued: the breach whose notice the register refused, and why.
enum BatchError {
    Breach(i64, Box<register::Error>),
    Store(StoreError),
}

impl From<StoreError> for BatchError {
    fn from(e: StoreError) -> Self {
        BatchError::Store(e)
    }
}

async fn issue_batch(State(app): State<Arc<App>>, user: User, sent: Posted<BatchForm>) -> Page {
    let f = sent.checked(&user, Role::Juridico)?;
    let today = app.today();
    let mut errors = Errors::default();
    let until = keep(&mut errors, BatchForm::UNTIL, parse::date(&f.until));
    let date = keep(
        &mut errors,
        Field::NoticeDate.as_str(),
        match f.date.trim() {
            "" => Ok(today),
            d => parse::date(d),
        },
    );
    let ids: Vec<i64> = f
        .breaches
        .iter()
        .filter_map(|b| b.trim().parse().ok())
        .collect();
    if ids.len() != f.breaches.len() || ids.is_empty() {
        return Err(WebError::invalid(
            "El lote no llegó como lo envía la página de avisos pendientes: vuelva a ella y envíelo de nuevo.",
        ));
    }
    let reason = Some(f.backdate_reason.trim().to_string()).filter(|r| !r.is_empty());
    let (Some(until), Some(date)) = (until, date) else {
        let until = until.unwrap_or(today);
        let list = pending_for(&app, &user, until, today).await?;
        return with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(
                Some(&user),
                TITLE,
                list_markup(&user, &list, &f, &errors, until),
            ),
        );
    };
    let (app2, officer) = (Arc::clone(&app), user.name.clone());
    let (wanted, r2) = (ids.clone(), reason.clone());
    let signs = signing(&app, &user);
    let outcome = app
        .db(move |s| {
            let rates = app2.rates(s)?;
            let done = s.write::<_, BatchError>(&officer, |tx| {
                // what is pending now, inside the transaction: a breach issued meanwhile is refused
                let now = register::notice::pending(tx.conn(), until, &rates)
                    .map_err(|e| BatchError::Breach(0, Box::new(e)))?;
                let mut issued = Vec::with_capacity(wanted.len());
                for &id in &wanted {
                    if !now.contains(&id) {
                        return Err(BatchError::Breach(
                            id,
                            Box::new(
                                Refusal::value(
                                    Field::Breach,
                                    id,
                                    crate::said!(web::no_longer_awaits_notice_one_was),
                                )
                                .into(),
                            ),
                        ));
                    }
                    if !signs {
                        register::signed_only::refuse_unsigned(
                            tx.conn(),
                            id,
                            crate::program_sign::Signed::Notices,
                        )
                        .map_err(|e| BatchError::Breach(id, Box::new(e)))?;
                    }
                    let i =
                        register::notice::issue(tx, id, until, date, today, r2.as_deref(), &rates)
                            .map_err(|e| BatchError::Breach(id, Box::new(e)))?;
                    issued.push(i.notice.id);
                }
                Ok(issued)
            });
            Ok(done)
        })
        .await?;
    match outcome {
        Ok(issued) => {
            let (first, last) = (
                issued.iter().copied().min().unwrap_or(0),
                issued.iter().copied().max().unwrap_or(0),
            );
            see_other(format!("/avisos/lote/{first}/{last}"))
        }
        Err(BatchError::Store(e)) => Err(e.into()),
        Err(BatchError::Breach(id, e)) => {
            // the date and its reason beside their inputs; anything else beside the breach
            let e = *e;
            match e {
                register::Error::Refused(ref r)
                    if matches!(
                        views::refusal_field(r),
                        Some(Field::NoticeDate | Field::BackdateReason)
                    ) =>
                {
                    errors.register(e)?
                }
                other => {
                    let text = super::form::refusal_texts(other)?.join("; ");
                    errors.put(&format!("{}-{id}", Field::Breach.as_str()), text);
                }
            }
            let asked = Asked {
                until,
                date: today,
                reason: None,
                try_each: user.may(Role::Juridico),
                signing: signing(&app, &user),
            };
            let (app2, officer) = (Arc::clone(&app), user.name.clone());
            let list = app
                .db(move |s| awaiting(s, &app2, &officer, &asked))
                .await?;
            with_status(
                StatusCode::UNPROCESSABLE_ENTITY,
                page(
                    Some(&user),
                    TITLE,
                    list_markup(&user, &list, &f, &errors, until),
                ),
            )
        }
    }
}

/// The notices of a batch: ids `first..=last` (one transaction gave them in order).
fn batch(
    conn: &rusqlite::Connection,
    (first, last): (i64, i64),
    at_most: i64,
) -> Result<Vec<NoticeLine>, WebError> {
    if first < 1 || last < first || last - first >= MAX_BATCH {
        return Err(WebError::not_found("ese lote de avisos"));
    }
    (first..=last.min(first.saturating_add(at_most - 1)))
        .map(|id| letters::notice_line(conn, notices::get(conn, id)?))
        .collect()
}

async fn batch_page(
    State(app): State<Arc<App>>,
    user: User,
    Path((first, last)): Path<(i64, i64)>,
) -> Page {
    let signs = signing(&app, &user);
    let lines = app
        .db(move |s| {
            let lines = batch(s.conn(), (first, last), LISTED)?;
            lines
                .into_iter()
                .map(|l| {
                    let d = crate::register::notice_data::gather(s.conn(), &l.notice)?;
                    Ok((l, d.holder_name, d.liquidation.total_due))
                })
                .collect::<Result<Vec<_>, WebError>>()
        })
        .await?;
    let body = html! {
        p.ok role="status" {
            (views::cuenta((last - first + 1) as u64, "aviso emitido", "avisos emitidos")) " en este lote"
            @if last - first + 1 > LISTED { "; se listan los primeros " (LISTED) }
            "."
        }
        p { a.boton href={"/avisos/lote/" (first) "/" (last) "/documentos.zip"} {
            @if signs { "Descargar los documentos firmados con su certificado (zip: PDF e index.csv)" }
            @else { "Descargar los documentos (zip: PDF e index.csv)" }
        } }
        p.nota { "Cada descarga queda registrada (formato y SHA-256 de cada documento) a nombre de quien la descarga, para que los archivos puedan verificarse en «Verificar aviso»." }
        div.tabla {
            table.lote {
                thead { tr { th scope="col" { "Número" } th.num scope="col" { "Incumplimiento" } th scope="col" { "Titular" } th.num scope="col" { "Total" } th scope="col" { "Pagar a más tardar" } } }
                @let totals = PesosColumn::of(lines.iter().map(|(_, _, t)| *t));
                tbody {
                    @for (l, holder, total) in &lines {
                        tr {
                            td data-label="Número" { a href={"/avisos/" (l.notice.id)} { (views::ident(&l.notice.number)) } }
                            td.num data-label="Incumplimiento" { a href={"/incumplimientos/" (l.notice.breach_id)} { (l.notice.breach_id) } }
                            td data-label="Titular" { (holder) }
                            td.num data-label="Total" { (totals.show(*total)) }
                            td data-label="Pagar a más tardar" { (letters::plazo(l.deadline)) br; small { (l.runs_from) } }
                        }
                    }
                }
            }
        }
        p { a href="/avisos/pendientes" { "Volver a los avisos pendientes" } }
    };
    ok(page(Some(&user), "Lote de avisos", body))
}

/// The batch's documents: each notice rendered from the register (a read, no write lock) into a
/// zip written to an unnamed temporary file (0600, gone once closed), one document in memory at
/// a time; their renderings recorded in one short transaction; the zip streamed from the file.
async fn batch_zip(
    State(app): State<Arc<App>>,
    user: User,
    Path((first, last)): Path<(i64, i64)>,
) -> Page {
    let officer = user.name.clone();
    let signer = session_signer(&app, &user);
    let now = app.now();
    let file = app
        .db(move |s| {
            let internal = |e: &dyn std::fmt::Display| WebError::internal(format!("zip: {e}"));
            let lines = batch(s.conn(), (first, last), MAX_BATCH)?;
            if signer.is_none() {
                for l in &lines {
                    register::signed_only::refuse_unsigned(
                        s.conn(),
                        l.notice.breach_id,
                        crate::program_sign::Signed::Notices,
                    )
                    .map_err(|e| {
                        WebError::new(
                            StatusCode::CONFLICT,
                            format!(
                                "{}: cargue su certificado en «Firma digital» (/firma) y descargue el lote firmado.",
                                super::form::refusal_texts(e)
                                    .map(|t| t.join("; "))
                                    .unwrap_or_default()
                            ),
                        )
                    })?;
                }
            }
            let tmp = tempfile::tempfile().map_err(|e| internal(&e))?;
            let mut zip = Zipped::new(tmp);
            let mut files = Vec::with_capacity(lines.len());
            for l in &lines {
                let data = crate::register::notice_data::gather(s.conn(), &l.notice)?;
                let pdf = crate::report::document::notice(&data, DocFormat::Pdf);
                // the rendering is recorded as vigia wrote it; the signature is added after it
                files.push((
                    notices::Doc::Notice(l.notice.id),
                    DocFormat::Pdf,
                    store::sha256_hex(&pdf),
                ));
                let pdf = match &signer {
                    None => pdf,
                    Some(signer) => letters::signed_pdf(
                        &pdf,
                        signer,
                        &register::signing::notice_reason(&l.notice.number),
                        &data.letters.issuer,
                        now,
                        &l.notice.number,
                    )?,
                };
                zip.add(&l.notice, &data, &pdf).map_err(|e| internal(&e))?;
            }
            let file = zip.finish().map_err(|e| internal(&e))?;
            s.write::<_, register::Error>(&officer, |tx| {
                register::renderings::rendered_all(tx, &files)
            })?;
            Ok(file)
        })
        .await?;
    download_file(
        &format!("avisos-{first}-{last}.zip"),
        "application/zip",
        file,
        Vec::new(),
    )
}

/// The zip of a batch as it is written: each notice's PDF as NUMBER.pdf, then index.csv as
/// `notice issue --pending` writes it (`report::notice_index`, the one writer).
struct Zipped {
    zip: zip::ZipWriter<std::io::BufWriter<std::fs::File>>,
    index: Vec<crate::report::notice_index::IndexLine>,
}

impl Zipped {
    fn options() -> zip::write::SimpleFileOptions {
        zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(0o600)
    }

    fn new(file: std::fs::File) -> Zipped {
        Zipped {
            zip: zip::ZipWriter::new(std::io::BufWriter::new(file)),
            index: Vec::new(),
        }
    }

    fn add(
        &mut self,
        n: &notices::Notice,
        d: &crate::notice::NoticeData,
        pdf: &[u8],
    ) -> Result<(), String> {
        use std::io::Write;
        let file = format!("{}.pdf", n.number);
        self.zip
            .start_file(file.as_str(), Zipped::options())
            .map_err(|e| e.to_string())?;
        self.zip.write_all(pdf).map_err(|e| e.to_string())?;
        self.index.push(crate::report::notice_index::IndexLine::of(
            n.breach_id,
            d,
            &file,
        ));
        Ok(())
    }

    /// The zip closed, its file rewound to be read, with its length.
    fn finish(mut self) -> Result<(std::fs::File, u64), String> {
        use std::io::{Seek, Write};
        let index = crate::report::notice_index::index_csv(self.index);
        self.zip
            .start_file("index.csv", Zipped::options())
            .map_err(|e| e.to_string())?;
        self.zip.write_all(&index).map_err(|e| e.to_string())?;
        let mut file = self
            .zip
            .finish()
            .map_err(|e| e.to_string())?
            .into_inner()
            .map_err(|e| e.to_string())?;
        let len = file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|e| e.to_string())?;
        file.rewind().map_err(|e| e.to_string())?;
        Ok((file, len))
    }
}
