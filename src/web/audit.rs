//! `/auditoria`: the last events of the audit chain (all, or one table's), and the whole chain
//! verified as `vigia audit verify` verifies it (`register::audit::verify`: through the signed
//! checkpoints of the log and of the chain, every hash, every row against its event, the schema),
//! its findings in Spanish.

use super::auth::User;
use super::chain::Run;
use super::extract::Query;
use super::form::{Page, Sent, ok};
use super::views::{self, numero, page};
use super::{App, WebError};
use crate::register::{self, audit::Audit};
use crate::store::checkpoint;
use crate::store::{self, StoreError};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/auditoria", get(audit_page))
        .route("/auditoria/verificar", get(audit_verify))
}

/// The audit page's query: the table whose events are shown.
const TABLE: &str = "tabla";

/// Events shown on the audit page.
const AUDIT_PAGE: usize = 100;

async fn audit_page(State(app): State<Arc<App>>, user: User, q: Query<Sent>) -> Page {
    // the audited tables, by their Spanish names
    let mut tables: Vec<&str> = store::audit::AUDITED.to_vec();
    tables.sort_by_key(|t| views::tabla(t).to_lowercase());
    let entity = q.0.opt(TABLE);
    let e2 = entity.clone();
    let events = app
        .db(move |s| {
            let mut last = std::collections::VecDeque::new();
            store::audit::each_event::<StoreError>(s.conn(), e2.as_deref(), None, |e| {
                if last.len() == AUDIT_PAGE {
                    last.pop_front();
                }
                last.push_back(e);
                Ok(std::ops::ControlFlow::Continue(()))
            })?;
            Ok(last)
        })
        .await?;
    let body = html! {
        p { a href="/auditoria/verificar" { "Verificar la cadena completa" } }
        form method="get" action="/auditoria" {
            div.campo {
                label for=(TABLE) { "Tabla" }
                select id=(TABLE) name=(TABLE) {
                    option value="" selected[entity.is_none()] { "Todas las tablas" }
                    @for t in &tables {
                        option value=(t) selected[entity.as_deref() == Some(*t)] { (views::tabla(t)) " (" (t) ")" }
                    }
                }
            }
            button type="submit" { "Filtrar" }
        }
        table.auditoria {
            caption {
                @match events.len() {
                    0 => "Ningún evento",
                    1 => "El último evento",
                    n => { "Últimos " (numero(n as u64)) " eventos" }
                }
                @if let Some(t) = &entity { " de la tabla " (views::tabla(t)) }
            }
            thead { tr { th.num { "N.º" } th { "momento" } th { "usuario" } th { "acción" } th { "tabla" } th.num { "id" } th { "huella" } } }
            tbody {
                @for e in events.iter().rev() {
                    tr {
                        td.num data-label="N.º" { (e.seq) } td data-label="Momento" { (views::momento(&e.at)) } td data-label="Usuario" { (views::actor(&e.actor)) }
                        td data-label="Acción" { (views::accion(&e.action)) br; small { (views::codigo(&e.action)) } }
                        td data-label="Tabla" { (views::tabla(&e.entity)) br; small { (views::codigo(&e.entity)) } }
                        td.num data-label="Id" { (e.entity_id) } td data-label="Huella" { code { (&e.hash[..12]) "…" } }
                    }
                }
            }
        }
    };
    ok(page(Some(&user), "Auditoría", body))
}

/// What the page could not check, in Spanish: the audit key unknown or unreadable.
fn no_key(why: &str) -> String {
    format!(
        "No se pudo verificar la auditoría contra sus puntos de control firmados: {why}. \
         La verificación necesita la clave pública de auditoría (la que `vigia init` creó): \
         inicie `vigia serve` con --key RUTA o VIGIA_KEY, como `vigia audit verify`."
    )
}

async fn audit_verify(State(app): State<Arc<App>>, user: User) -> Page {
    let (run, found) = verified(&app).await;
    let found = found?;
    let body = html! {
        p.nota {
            "Verificación iniciada el " (views::momento(&run.at.to_rfc3339()))
            @if !run.own { " por otra consulta, que seguía en curso: su resultado, que vale para el registro como estaba entonces" }
            "."
        }
        (found)
        p { a href="/auditoria" { "Volver a la auditoría" } }
    };
    ok(page(Some(&user), "Verificación de la auditoría", body))
}

/// The whole chain verified, as the page shows it: by the verification under way, or by one
/// started now ([`super::chain::OneAtATime`]: a full verification takes a core for over a
/// minute on a national register, and any signed-in person may ask for it).
async fn verified(app: &Arc<App>) -> (Run<Result<Markup, WebError>>, Result<Markup, WebError>) {
    let a = Arc::clone(app);
    let run = app
        .audit_runs
        .join(app.now(), async move { verify_now(&a).await });
    let found = run.clone().result().await.unwrap_or_else(|| {
        Err(WebError::internal(
            "la verificación de la auditoría no terminó".to_string(),
        ))
    });
    (run, found)
}

/// `vigia audit verify`, with the server's audit key, its findings in Spanish (or why it could
/// not run); its verdict is the acta pages' for the register's state before it ran.
async fn verify_now(app: &Arc<App>) -> Result<Markup, WebError> {
    let key_path = app.config.audit_key.clone();
    let log_path = register::audit::log_path(&app.config.db);
    let a = Arc::clone(app);
    let found = app
        .db(move |s| {
            // the register's state before it is read: the acta pages take this verdict for it
            let state = a.chain_state();
            let Some(path) = key_path else {
                return Ok(Err(no_key("no se conoce la ruta de la clave")));
            };
            let key = match checkpoint::Key::load(&path) {
                Ok(k) => k,
                Err(e) => return Ok(Err(no_key(&e.to_string()))),
            };
            let found =
                register::audit::verify(s.conn(), &key, &log_path).map_err(super::audit_failed)?;
            a.chain_learned(state, &found);
            Ok(Ok(found))
        })
        .await?;
    Ok(match &found {
        Ok(found) => verification(found),
        Err(why) => html! { p.error role="alert" { (why) } },
    })
}

/// What `register::audit::verify` found, as `vigia audit verify` reports it, in Spanish.
fn verification(found: &Audit) -> Markup {
    let v = &found.verification;
    let missing = found.missing.map(|i| &found.recorded[i]);
    let log_path = found.log_path.display().to_string();
    html! {
        @if let Some((signed, (n, c))) = found.anchored() {
            p.ok role="status" { "Cadena de auditoría íntegra: " (views::cuenta(v.events as u64, "evento", "eventos")) "; la cadena y las filas guardadas coinciden (último eslabón " code { (&v.head.hash[..12]) } ")." }
            p { "Esquema y disparadores como los crean las migraciones de vigia; la revisión del archivo por SQLite (quick_check) no encontró daños." }
            @let own = found.recorded.iter().any(|r| r.checkpoint == *c);
            p { "Puntos de control: " (views::cuenta(signed as u64, "firmado", "firmados")) "; el último (línea " (n) " de " code { (log_path) } ") con " (views::cuenta(c.count as u64, "evento", "eventos")) ", firmado el " (views::momento(&c.at)) "; " (views::cuenta((v.events - c.count - i64::from(own)).max(0) as u64, "evento", "eventos")) " después." }
        } @else {
            @if let Some(m) = &v.first_mismatch {
                p.error role="alert" {
                    @match &m.place {
                        store::audit::Place::Event { seq, entity, entity_id } => {
                            "La auditoría NO coincide en el evento " (seq) " (" (views::tabla(entity)) ", fila " (entity_id) "): "
                        }
                        store::audit::Place::Row { entity, entity_id } => {
                            "La auditoría NO coincide: la fila " (entity_id) " de " (views::tabla(entity)) " no tiene evento: "
                        }
                        store::audit::Place::Anchor { name } => {
                            "La auditoría NO coincide con " (name.es()) ": "
                        }
                    }
                    @match &m.located {
                        Some(l) => { "filas escritas con él ya no coinciden con lo registrado: " (views::tabla(&l.table)) " (" code { (l.table) } "): " (located(l)) }
                        None => (m.reason.es()),
                    }
                }
            } @else if !v.intact() {
                p.error role="alert" { "La cadena y las filas guardadas coinciden, pero:" }
            }
            @for p in &found.in_chain.problems {
                p.error role="alert" { "Punto de control registrado en la cadena: " (p.es()) }
            }
            @match &found.log {
                None => p.error role="alert" {
                    "FALTA EL REGISTRO DE PUNTOS DE CONTROL: no hay ningún punto de control en " code { (log_path) } "; "
                    @match found.recorded.last() {
                        Some(r) => { "la cadena registra " (views::cuenta(found.recorded.len() as u64, "punto", "puntos")) " de control, el último firmado el " (views::momento(&r.checkpoint.at)) " con " (views::cuenta(r.checkpoint.count as u64, "evento", "eventos")) ", y se verificó contra ellos" }
                        None => "nada fuera de la base de datos ancla la cadena, y ella no registra ningún punto de control",
                    }
                    ". Restaure el registro desde una copia de respaldo (`vigia backup` lo escribe junto a cada copia como ARCHIVO.checkpoints); solo si se perdió para siempre, `vigia audit checkpoint --reanchor --reason TEXTO` inicia uno nuevo (queda en la cadena y toda verificación posterior lo informa)."
                },
                Some(l) => {
                    @for p in &l.problems {
                        p.error role="alert" { "Registro de puntos de control: " (p.es()) }
                    }
                }
            }
            @if let Some(r) = missing {
                p.error role="alert" {
                    "Registro de puntos de control: la cadena registra el punto de control firmado " (r.checkpoint.at) " con " (views::cuenta(r.checkpoint.count as u64, "evento", "eventos")) " (fila " (r.id) " de audit_checkpoints), que no está en " code { (log_path) } ": el registro fue reemplazado por una copia anterior o recortado; restáurelo desde una copia de respaldo."
                }
            }
            @for s in &v.schema {
                p.error role="alert" { "El esquema NO coincide con las migraciones: " (s.es()) }
            }
            @for s in &v.storage {
                p.error role="alert" { "Archivo dañado (quick_check de SQLite): " (s) }
            }
        }
        @for (r, reason) in found.reanchors() {
            p.aviso { "El registro de puntos de control se inició de nuevo el " (views::momento(&r.created_at)) " por " (views::actor(&r.created_by)) " con " (views::cuenta(r.checkpoint.count as u64, "evento", "eventos")) " (fila " (r.id) " de audit_checkpoints): " (reason) "; lo que la cadena tenía antes solo lo anclan los puntos de control que ella registra." }
        }
        @for n in &found.in_chain.notes {
            p.aviso { "Nota: " (n.es()) }
        }
    }
}

/// The row of a bulk write found changed, in Spanish, without its table (the page names it).
fn located(l: &store::prints::Located) -> String {
    l.change_said().in_lang(crate::lang::Lang::Es).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_requests_at_once_run_one_verification_and_show_its_result() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("vigia.db");
        let store = crate::store::Store::create(&db).unwrap();
        let key = dir.path().join("audit.key");
        checkpoint::Key::create(&key).unwrap();
        let mut config = super::super::Config::over(&db);
        config.audit_key = Some(key);
        let app = Arc::new(App::new(config, Some(store), Box::new(chrono::Utc::now)));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // the second asks while the first's verification runs (it cannot end before both
        // have asked: this thread is the runtime's only one)
        let ((first, a), (second, b)) =
            rt.block_on(async { tokio::join!(verified(&app), verified(&app)) });
        assert_eq!(app.audit_runs.started(), 1);
        assert!(first.own && !second.own);
        assert_eq!(first.at, second.at);
        let (a, b) = (a.unwrap().into_string(), b.unwrap().into_string());
        assert_eq!(a, b);
        // a verification that ran, with the key: this new register has no checkpoint log yet
        assert!(
            a.contains("FALTA EL REGISTRO DE PUNTOS DE CONTROL") && !a.contains("No se pudo"),
            "{a}"
        );
        // asked after it ended: a verification of its own
        let (third, _) = rt.block_on(verified(&app));
        assert!(third.own);
        assert_eq!(app.audit_runs.started(), 2);
    }
}
