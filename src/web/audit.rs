//! `/auditoria`: the last events of the audit chain (all, or one table's), and the whole chain
//! verified (`vigia audit verify`: every hash, every row against its event, the schema).

use super::App;
use super::auth::User;
use super::extract::Query;
use super::form::{Page, Sent, ok};
use super::views::{self, numero, page};
use crate::store::{self, StoreError};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use maud::html;
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
                        td.num { (e.seq) } td { (views::momento(&e.at)) } td { (views::actor(&e.actor)) }
                        td { (views::accion(&e.action)) br; small { code { (e.action) } } }
                        td { (views::tabla(&e.entity)) br; small { code { (e.entity) } } }
                        td.num { (e.entity_id) } td { code { (&e.hash[..12]) "…" } }
                    }
                }
            }
        }
    };
    ok(page(Some(&user), "Auditoría", body))
}

async fn audit_verify(State(app): State<Arc<App>>, user: User) -> Page {
    let v = app.db(|s| Ok(store::audit::verify(s.conn())?)).await?;
    let body = html! {
        @match &v.first_mismatch {
            None => p.ok role="status" { "Cadena de auditoría íntegra: " (views::cuenta(v.events as u64, "evento", "eventos")) "; la cadena y las filas guardadas coinciden." },
            Some(m) => p.error role="alert" {
                @match &m.place {
                    store::audit::Place::Event { seq, entity, entity_id } => {
                        "La auditoría NO coincide en el evento " (seq) " (" (views::tabla(entity)) ", fila " (entity_id) "): "
                    }
                    store::audit::Place::Row { entity, entity_id } => {
                        "La auditoría NO coincide: la fila " (entity_id) " de " (views::tabla(entity)) " no tiene evento: "
                    }
                    store::audit::Place::Anchor { name } => {
                        "La auditoría NO coincide con " (name) ": "
                    }
                }
                (m.reason)
            },
        }
        @for problem in v.schema.iter().chain(&v.storage) {
            p.error role="alert" { (problem) }
        }
        p { a href="/auditoria" { "Volver a la auditoría" } }
    };
    ok(page(Some(&user), "Verificación de la auditoría", body))
}
