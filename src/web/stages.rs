//! `/programas/{code}/etapas/{n}` (n = 2 or 3): a later stage of the program in Todo o Nada
//! (Decreto 3939 Arts. 3, 13–19, 22; seed 002), as `vigia stage ...` runs it: the tranches
//! opened (`register::stage::open`), the evaluation of the proposals with their ranking
//! (`evaluate`), the invitations to improve of a tie (`improve`), the draw with its seed and the
//! recomputation anyone can repeat (`draw`, `verify_draws`), the adjudication or the declaration
//! that the stage is void after a preview naming the consequences (`adjudicate`, `desert`, tried
//! first in a transaction rolled back), and the stage acta downloaded and verified (`recheck`).
//! Every write calls the register function the command line calls; a refusal is shown beside
//! the button that caused it. The page's markup is [`super::stages_markup`]; the proposals'
//! file is reviewed and imported on its own page ([`super::stage_proposals`]).

use super::acta_files::Verdict;
use super::auth::User;
use super::extract::{Path, Query};
use super::form::{
    Errors, Inputs, Page, Posted, Sent, download_acta, dry_run, keep, read_upload, render_to_temp,
    see_other, to_acta_form, with_status,
};
use super::stages_markup::{self as m, OpenTyped, Paging, Typed, View, load, load_at, stage_of};
use super::views::{self, csrf, fecha, numero, page, pesos};
use super::{App, WebError, input as parse};
use crate::catalogue::verification::acta_difference_sentence;
use crate::lang::Lang;
use crate::register::stage::{self as rules, Concluded, Open};
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::report::acta::{self as documents, Format};
use crate::report::stage_acta::{self, StageActaData};
use crate::store::stage::Kind;
use crate::store::{self, Store};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/programas/{code}/etapas/{n}", get(stage_page))
        .route("/programas/{code}/etapas/{n}/tramos", post(open_tranche))
        .route("/programas/{code}/etapas/{n}/mejoras", post(improve))
        .route("/programas/{code}/etapas/{n}/sorteo", post(draw))
        .route("/programas/{code}/etapas/{n}/concluir", post(conclude))
        .route("/programas/{code}/etapas/{n}/acta.pdf", get(acta_pdf))
        .route("/programas/{code}/etapas/{n}/acta.md", get(acta_md))
        .route("/programas/{code}/etapas/{n}/acta.html", get(acta_html))
        .route(
            "/programas/{code}/etapas/{n}/verificar",
            get(to_acta_form).post(acta_verify),
        )
}

/// The page with `errors` beside the form `typed.sent` names: 422 when there are any.
fn respond(user: &User, v: &View, errors: &Errors, typed: &Typed) -> Page {
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let body = errors.placed(|| m::markup(user, v, errors, typed));
    with_status(status, page(Some(user), m::title(v.code(), v.stage), body))
}

async fn stage_page(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    Query(paging): Query<Paging>,
) -> Page {
    let a = Arc::clone(&app);
    let v = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            load_at(&a, s, (p, stage), paging)
        })
        .await?;
    respond(&user, &v, &Errors::default(), &Typed::default())
}

// ---------------------------------------------------------------------------- a tranche

/// A tranche as typed (`vigia stage open --tranche --shares --opens --closes --reason`).
struct OpenForm(OpenTyped);

impl Inputs for OpenForm {
    fn read(sent: &Sent) -> OpenForm {
        OpenForm(OpenTyped {
            tranche: sent.text(Field::Tranche.as_str()),
            shares: sent.text(Field::Shares.as_str()),
            opens: sent.text(Field::StageOpens.as_str()),
            closes: sent.text(Field::StageCloses.as_str()),
            reason: sent.text(Field::ValidityReason.as_str()),
        })
    }
}

/// A tranche's number (`1`, `2`…), read as the command line reads a count.
fn tranche_number(s: &str) -> Result<u32, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("falta: indique el número del tramo, p. ej. 1".into());
    }
    crate::input::count(t)
        .ok()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("«{t}» no es el número de un tramo: escriba 1, 2, 3…"))
}

/// The tranche's inputs read, each problem beside its input.
struct OpenParsed {
    tranche: u32,
    shares: u64,
    opens: NaiveDate,
    closes: NaiveDate,
    reason: Option<String>,
}

impl OpenForm {
    fn parse(&self, errors: &mut Errors) -> Option<OpenParsed> {
        let o = &self.0;
        let tranche = keep(errors, Field::Tranche.as_str(), tranche_number(&o.tranche));
        let shares = keep(errors, Field::Shares.as_str(), parse::count(&o.shares));
        let opens = keep(errors, Field::StageOpens.as_str(), parse::date(&o.opens));
        let closes = keep(errors, Field::StageCloses.as_str(), parse::date(&o.closes));
        Some(OpenParsed {
            tranche: tranche?,
            shares: shares?,
            opens: opens?,
            closes: closes?,
            reason: Some(o.reason.trim().to_string()).filter(|s| !s.is_empty()),
        })
    }
}

async fn open_tranche(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    sent: Posted<OpenForm>,
) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let read = f.parse(&mut errors);
    let officer = user.name.clone();
    let a = Arc::clone(&app);
    let (v, errors, written) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            let mut written = false;
            if let Some(o) = &read {
                let open = Open {
                    stage,
                    tranche: o.tranche,
                    shares: o.shares,
                    opens: o.opens,
                    closes: o.closes,
                    reason: o.reason.as_deref(),
                };
                match s.write::<_, register::Error>(&officer, |tx| rules::open(tx, &p, open)) {
                    Ok(_) => written = true,
                    Err(e) => errors.register(e)?,
                }
            }
            Ok((load(&a, s, p, stage)?, errors, written))
        })
        .await?;
    if written {
        return see_other(v.base());
    }
    let typed = Typed {
        sent: m::Sent::Open,
        open: f.0,
        ..Typed::default()
    };
    respond(&user, &v, &errors, &typed)
}

// ---------------------------------------------------------------------------- the tie

/// A tied bidder's answer to the invitation to improve (`vigia stage improve --proposal
/// --price`).
struct ImproveForm {
    proposal: String,
    price: String,
}

impl Inputs for ImproveForm {
    fn read(sent: &Sent) -> ImproveForm {
        ImproveForm {
            proposal: sent.text(Field::Proposal.as_str()),
            price: sent.text(Field::ImprovedPrice.as_str()),
        }
    }
}

async fn improve(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    sent: Posted<ImproveForm>,
) -> Page {
    let f = sent.checked(&user, Role::Oficial)?;
    let mut errors = Errors::default();
    let price = keep(
        &mut errors,
        Field::ImprovedPrice.as_str(),
        parse::amount(&f.price),
    );
    let reference = f.proposal.trim().to_string();
    let officer = user.name.clone();
    let a = Arc::clone(&app);
    let (v, errors, done) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            let mut done = None;
            if let Some(price) = price {
                match s.write::<_, register::Error>(&officer, |tx| {
                    let rates = a.rates_tx(tx)?;
                    rules::improve(tx, &p, stage, &reference, price, &rates)
                }) {
                    Ok(i) if i.counted => {
                        done = Some(format!(
                            "Respuesta N.º {} registrada: la propuesta {reference} (tramo {}) sube su precio de {} a {} por acción; la evaluación de abajo ya la cuenta",
                            i.id,
                            i.tranche,
                            pesos(i.original),
                            pesos(i.offered)
                        ))
                    }
                    Ok(i) => {
                        done = Some(format!(
                            "Respuesta N.º {} registrada: la propuesta {reference} (tramo {}) ofreció {}, que no supera su precio original de {}: se registra y no cuenta; queda el precio original",
                            i.id,
                            i.tranche,
                            pesos(i.offered),
                            pesos(i.original)
                        ))
                    }
                    Err(e) => errors.register(e)?,
                }
            }
            Ok((load(&a, s, p, stage)?, errors, done))
        })
        .await?;
    let typed = Typed {
        sent: m::Sent::Improve,
        proposal: f.proposal,
        price: if done.is_some() {
            String::new()
        } else {
            f.price
        },
        done,
        ..Typed::default()
    };
    respond(&user, &v, &errors, &typed)
}

/// The draw of a persisting tie (`vigia stage draw --tranche --seed`).
struct DrawForm {
    tranche: String,
    seed: String,
}

impl Inputs for DrawForm {
    fn read(sent: &Sent) -> DrawForm {
        DrawForm {
            tranche: sent.text(Field::Tranche.as_str()),
            seed: sent.text(Field::DrawSeed.as_str()),
        }
    }
}

async fn draw(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    sent: Posted<DrawForm>,
) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let mut errors = Errors::default();
    let tranche = keep(
        &mut errors,
        Field::Tranche.as_str(),
        tranche_number(&f.tranche),
    );
    let seed = f.seed.clone();
    let officer = user.name.clone();
    let a = Arc::clone(&app);
    let (v, errors, done) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            let mut done = None;
            if let Some(tranche) = tranche {
                match s.write::<_, register::Error>(&officer, |tx| {
                    let rates = a.rates_tx(tx)?;
                    rules::draw(tx, &p, stage, tranche, &seed, &rates)
                }) {
                    Ok(d) => {
                        done = Some(format!(
                            "Sorteo N.º {} del tramo {}: {}; gana la propuesta {}. Abajo, cómo repetirlo",
                            d.id,
                            d.tranche,
                            m::draw_place(
                                &d.draw.number,
                                d.draw.sorted.len(),
                                d.draw.index
                            ),
                            d.draw.winner
                        ))
                    }
                    Err(e) => errors.register(e)?,
                }
            }
            Ok((load(&a, s, p, stage)?, errors, done))
        })
        .await?;
    let typed = Typed {
        sent: m::Sent::Draw,
        seed: if done.is_some() {
            String::new()
        } else {
            f.seed
        },
        done,
        ..Typed::default()
    };
    respond(&user, &v, &errors, &typed)
}

// ---------------------------------------------------------------------------- the conclusion

/// The decision asked for: its day, what it is (a preview, or the confirmation of one) and the
/// preview's fingerprint.
struct ConcludeForm {
    on: String,
    action: String,
    previewed: String,
}

impl Inputs for ConcludeForm {
    fn read(sent: &Sent) -> ConcludeForm {
        ConcludeForm {
            on: sent.text(Field::StageDecisionDate.as_str()),
            action: sent.text(m::ACTION),
            previewed: sent.text(m::FINGERPRINT),
        }
    }
}

/// What a conclusion writes, as one text: its fingerprint is what the confirmation compares.
fn fingerprint(c: &Concluded) -> String {
    let k = &c.conclusion;
    store::sha256_hex(
        format!(
            "{:?}|{}|{}|{}|{}|{:?}|{:?}|{:?}",
            k.kind, k.decided_on, k.offered, k.awarded, k.leftover, k.price, c.awards, c.parts
        )
        .as_bytes(),
    )
}

/// The preview of a conclusion: what it writes, what follows from it, and the confirmation.
fn confirmation(user: &User, v: &View, on: NaiveDate, c: &Concluded, adjudicate: bool) -> Markup {
    let k = &c.conclusion;
    let name = v.stage.name_es();
    let (action, button) = if adjudicate {
        (m::ADJUDICATE, "Confirmar la adjudicación")
    } else {
        (m::DESERT, "Confirmar la declaratoria de desierta")
    };
    html! {
        section #vista-previa {
            h3 { "Vista previa (nada se ha escrito)" }
            @if adjudicate { (m::awards_table(c)) }
            p.aviso #consecuencias {
                @if adjudicate {
                    "Al confirmar, la " (name) " Etapa de " (v.code()) " queda adjudicada el " (fecha(on)) " una sola vez (art. 3: la etapa se agota): "
                    (numero(k.awarded)) " de " (numero(k.offered)) " acciones a sus ganadores, cuyos proponentes responden solidariamente y pagan a más tardar en la fecha indicada (art. 14 c, art. 17 c)"
                    @if k.leftover > 0 { "; las " (numero(k.leftover)) " de los tramos desiertos pasan a la etapa siguiente" }
                    ". "
                    @if let Some(price) = k.price {
                        "El precio de la etapa, " strong { (pesos(price)) " por acción" } ", pasa a ser el precio de referencia del art. 9 (iii) del programa desde esa fecha"
                        @if c.later_stage_pending {
                            "; como hay acciones sobrantes para una etapa posterior, es el precio hasta ahora y las liquidaciones siguen provisionales hasta que esa etapa concluya. "
                        } @else {
                            ", y las liquidaciones provisionales quedarán señaladas para reliquidar. "
                        }
                    }
                    "Después no se reciben propuestas, mejoras ni sorteos en esta etapa."
                } @else {
                    "Al confirmar, la " (name) " Etapa de " (v.code()) " queda declarada desierta el " (fecha(on)) " una sola vez (art. 3): ninguna propuesta es válida; "
                    @if c.stage_price.is_some() {
                        "sus " (numero(k.leftover)) " acciones quedan sin vender y, por ser la última etapa del programa, el registro anota que no hay precio del art. 9 (iii) (como «sin etapa posterior»)."
                    } @else {
                        "sus " (numero(k.leftover)) " acciones pasan a la Tercera Etapa."
                    }
                    " Después no se reciben propuestas, mejoras ni sorteos en esta etapa."
                }
            }
            form method="post" action={(v.base()) "/concluir"} {
                (csrf(user))
                input type="hidden" name=(Field::StageDecisionDate.as_str()) value=(fecha(on));
                input type="hidden" name=(m::FINGERPRINT) value=(fingerprint(c));
                div.acciones { button type="submit" name=(m::ACTION) value=(action) { (button) } }
            }
        }
    }
}

/// What a conclusion form led to.
enum Decision {
    Preview(Box<Concluded>, bool),
    Refused,
    Done,
}

async fn conclude(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    sent: Posted<ConcludeForm>,
) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let (adjudicate, confirm) = match f.action.as_str() {
        m::PREVIEW_ADJUDICATE => (true, false),
        m::ADJUDICATE => (true, true),
        m::PREVIEW_DESERT => (false, false),
        m::DESERT => (false, true),
        _ => {
            return Err(WebError::invalid(
                "El formulario no dice si adjudicar la etapa o declararla desierta; use sus botones.",
            ));
        }
    };
    let mut errors = Errors::default();
    let on = keep(
        &mut errors,
        Field::StageDecisionDate.as_str(),
        parse::date(&f.on),
    );
    let previewed = f.previewed.clone();
    let officer = user.name.clone();
    let a = Arc::clone(&app);
    let (v, errors, decision) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            let Some(on) = on else {
                return Ok((load(&a, s, p, stage)?, errors, Decision::Refused));
            };
            let run = |tx: &mut store::Tx<'_>| {
                let rates = a.rates_tx(tx)?;
                if adjudicate {
                    rules::adjudicate(tx, &p, stage, on, &rates)
                } else {
                    rules::desert(tx, &p, stage, on, &rates)
                }
            };
            let computed = match dry_run(s, &officer, run) {
                Ok(c) => c,
                Err(e) => {
                    errors.register(e)?;
                    return Ok((load(&a, s, p, stage)?, errors, Decision::Refused));
                }
            };
            let same = fingerprint(&computed) == previewed;
            if confirm && same {
                match s.write::<_, register::Error>(&officer, run) {
                    Ok(_) => return Ok((load(&a, s, p, stage)?, errors, Decision::Done)),
                    Err(e) => {
                        errors.register(e)?;
                        return Ok((load(&a, s, p, stage)?, errors, Decision::Refused));
                    }
                }
            }
            Ok((
                load(&a, s, p, stage)?,
                errors,
                Decision::Preview(Box::new(computed), confirm),
            ))
        })
        .await?;
    let mut errors = errors;
    let (status, shown) = match decision {
        Decision::Done => return see_other(v.base()),
        Decision::Refused => (StatusCode::UNPROCESSABLE_ENTITY, None),
        Decision::Preview(c, changed) => {
            let on = c.conclusion.decided_on;
            let status = if changed {
                errors.general.push(
                    "Lo que la decisión escribiría cambió desde la vista previa; nada se escribió. \
                     Revise la nueva y confirme otra vez."
                        .into(),
                );
                StatusCode::CONFLICT
            } else {
                StatusCode::OK
            };
            (status, Some(confirmation(&user, &v, on, &c, adjudicate)))
        }
    };
    let typed = Typed {
        sent: m::Sent::Conclude,
        on: f.on,
        confirmation: shown,
        ..Typed::default()
    };
    let body = errors.placed(|| m::markup(&user, &v, &errors, &typed));
    with_status(status, page(Some(&user), m::title(v.code(), v.stage), body))
}

// ---------------------------------------------------------------------------- the acta

/// The acta of the concluded stage, read and rendered outside any write transaction into a
/// private temporary file as it is made (`stage_acta::write`), its file recorded
/// (`register::acta_files`) under the signed-in user, and sent from it as a download, a chunk at
/// a time.
async fn acta_file(app: Arc<App>, user: User, code: String, n: u8, format: Format) -> Page {
    let officer = user.name.clone();
    let a = Arc::clone(&app);
    let made = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            if crate::store::stage::conclusion(s.conn(), p.id, stage)?.is_none() {
                return Ok(None);
            }
            let rates = a.rates(s)?;
            let c = rules::concluded(s.conn(), &p, stage, &rates)?;
            let data = StageActaData {
                program: &p.program,
                stage,
                concluded: &c,
                conn: s.conn(),
                layout: stage_acta::Layout::CURRENT,
            };
            let ((), file) = render_to_temp(|out| {
                stage_acta::write(out, &data, format)
                    .map_err(|e| WebError::internal(format!("the acta could not be written: {e}")))
            })?;
            // its file recorded in a short write of its own, after it is rendered
            let (mut file, len) = file;
            let acta = (
                crate::store::acta_files::Acta::Conclusion(c.conclusion.id),
                format,
            );
            super::acta_files::record(s, &officer, acta, &mut file)?;
            let file = (file, len);
            // a program's code is letters, digits, '-' and '_' (program.rs), safe in a file name
            Ok(Some((
                format!(
                    "acta-{}-etapa-{}-{}",
                    p.program.code, stage, c.conclusion.id
                ),
                file,
            )))
        })
        .await?;
    let Some((name, file)) = made else {
        return Err(WebError::not_found(
            "una adjudicación ni una declaratoria de desierta de esta etapa",
        ));
    };
    download_acta(&name, format, file)
}

async fn acta_pdf(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
) -> Page {
    acta_file(app, user, code, n, Format::Pdf).await
}

async fn acta_md(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
) -> Page {
    acta_file(app, user, code, n, Format::Md).await
}

async fn acta_html(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
) -> Page {
    acta_file(app, user, code, n, Format::Html).await
}

/// Checks an acta's bytes as `vigia stage verify` does: the stage it names must be this page's,
/// its stored proposals, improvements and draws must give the stored conclusion
/// (`register::stage::recheck`), and its text must be what they render in its format.
fn check(app: &App, s: &Store, v: &View, bytes: &[u8]) -> Result<Verdict, WebError> {
    let (code, n) = (v.code(), v.stage);
    let name = v.stage.name_es();
    let Ok((format, lines)) = documents::document_lines(bytes) else {
        return Ok(Verdict::DoesNot(
            "El archivo no se pudo leer: no es un PDF, HTML o Markdown legible escrito por vigia."
                .into(),
        ));
    };
    let Some((stage, acta_id)) = lines
        .lines
        .iter()
        .find_map(|l| stage_acta::parse_number_line(l))
    else {
        return Ok(Verdict::DoesNot(
            "El archivo no tiene la línea «Etapa N — Acta N.º K»: no es el acta de una etapa posterior escrita por \
             vigia (el acta de la primera etapa se verifica en la página de la oferta)."
                .into(),
        ));
    };
    match documents::program_code(&lines.lines) {
        None => {
            return Ok(Verdict::DoesNot(
                "El archivo no tiene la línea «Programa: …»: no es un acta de vigia.".into(),
            ));
        }
        Some(c) if c != code || stage != n => {
            let etapa = stage.name_es();
            return Ok(Verdict::DoesNot(format!(
                "Es el acta N.º {acta_id} de la {etapa} Etapa del programa {c}, no de la {name} Etapa de {code}: \
                 verifíquela en la página de esa etapa."
            )));
        }
        Some(_) => {}
    }
    let Some(c) = &v.concluded else {
        return Ok(Verdict::DoesNot(format!(
            "Es el acta N.º {acta_id} de la {name} Etapa de {code}, pero el registro no tiene una conclusión de esa \
             etapa."
        )));
    };
    let rates = app.rates(s)?;
    let (fresh_c, differences) = rules::recheck(s.conn(), &v.program, n, &rates)?;
    if let Some(d) = differences.first() {
        return Ok(Verdict::Differs(format!(
            "Los registros de la {name} Etapa (conclusión N.º {}) no dan lo que la conclusión registró: {}. \
             El registro mismo necesita revisión (auditoría).",
            c.conclusion.id,
            crate::catalogue::stage::discrepancy(crate::lang::Lang::Es, d)
        )));
    }
    // in the current layout, then in the earlier ones (an acta written before keeps its text and
    // page breaks); a difference is named in the layout that agrees longest
    // (`stage_acta::LayoutChecks`)
    let mut checks = stage_acta::LayoutChecks::default();
    for layout in stage_acta::Layout::ALL
        .into_iter()
        .filter(|l| l.tried_for(format))
    {
        let data = StageActaData {
            program: &v.program.program,
            stage: n,
            concluded: &fresh_c,
            conn: s.conn(),
            layout,
        };
        // a register that cannot be read for the acta's tables is the server's failure
        let rendered = stage_acta::render(&data, format).map_err(WebError::internal)?;
        let fresh = documents::lines_of(&rendered, format).map_err(|e| {
            WebError::bad_request(format!("No se pudo leer el acta recién generada: {e}"))
        })?;
        if checks.add(documents::first_difference(&lines, &fresh)) {
            break;
        }
    }
    let first = checks.difference();
    let k = &c.conclusion;
    if let Some(d) = first {
        return Ok(Verdict::Differs(acta_difference_sentence(Lang::Es, &d)));
    }
    let text = match (k.kind, k.price) {
        (Kind::Adjudicated, Some(price)) => format!(
            "El acta coincide con la conclusión N.º {} de la {name} Etapa de {code}: adjudicada el {}, {} de {} \
                 acciones a {} por acción.",
            k.id,
            fecha(k.decided_on),
            numero(k.awarded),
            numero(k.offered),
            pesos(price)
        ),
        _ => format!(
            "El acta coincide con la conclusión N.º {} de la {name} Etapa de {code}: declarada desierta el {}, {} \
                 acciones sin vender.",
            k.id,
            fecha(k.decided_on),
            numero(k.leftover)
        ),
    };
    // its bytes against the files vigia wrote of it, after the text's verdict
    let acta = crate::store::acta_files::Acta::Conclusion(k.id);
    super::acta_files::verdict(s.conn(), acta, bytes, text)
}

async fn acta_verify(
    State(app): State<Arc<App>>,
    user: User,
    Path((code, n)): Path<(String, u8)>,
    mp: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(mp).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Consulta)?;
    let file = up.file();
    let a = Arc::clone(&app);
    let (v, verdict, chain) = app
        .db(move |s| {
            let (p, stage) = stage_of(s, &code, n)?;
            let v = load(&a, s, p, stage)?;
            let verdict = match &file {
                Some((_, bytes)) => Some(check(&a, s, &v, bytes)?),
                None => None,
            };
            // an acta that does not match: what is known of the register's audit chain (asked
            // only then; verified in the background, never waited for)
            let chain = matches!(verdict, Some(Verdict::Differs(_))).then(|| a.chain_now());
            Ok((v, verdict, chain))
        })
        .await?;
    let (status, shown) = match verdict {
        Some(Verdict::Matches(t)) => (
            StatusCode::OK,
            html! { div.resultado.verificada #verificacion role="status" { p { strong { "Verificada." } " " (t) } } },
        ),
        Some(Verdict::DoesNot(t) | Verdict::Differs(t)) => (
            StatusCode::OK,
            html! { div.resultado.no-verificada #verificacion role="alert" { p { strong { "No coincide: el acta NO está verificada." } " " (t) } @if let Some(c) = chain { (views::chain_note(c)) } } },
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
        sent: m::Sent::Verify,
        verdict: Some(shown),
        ..Typed::default()
    };
    let body = m::markup(&user, &v, &Errors::default(), &typed);
    with_status(status, page(Some(&user), m::title(v.code(), v.stage), body))
}

#[cfg(test)]
mod tests {
    use super::tranche_number;

    #[test]
    fn a_tranche_number_is_a_whole_number_from_one() {
        assert_eq!(tranche_number(" 2 "), Ok(2));
        assert!(
            tranche_number("0")
                .unwrap_err()
                .contains("no es el número de un tramo")
        );
        assert!(tranche_number("dos").is_err());
        assert!(tranche_number("").unwrap_err().starts_with("falta"));
    }
}
