//! `/liquidaciones/{id}`: a stored liquidation, recomputed from the inputs it keeps, with its
//! fingerprint and the chart of the balance over time.

use super::App;
use super::auth::User;
use super::extract::Path;
use super::form::{Page, ok};
use super::views::{self, page};
use crate::fine::Outcome;
use crate::register;
use crate::store::breaches;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use maud::html;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/liquidaciones/{id}", get(liquidation_page))
}

async fn liquidation_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let (l, outcome) = app
        .db(move |s| {
            let l = breaches::liquidation(s.conn(), id)?;
            let o = register::liquidation::recompute(&l.inputs_json)?;
            Ok((l, o))
        })
        .await?;
    let body = html! {
        dl.hechos {
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (l.breach_id)} { (l.breach_id) } }
            dt { "Liquidada" } dd { (views::momento(&l.created_at)) " por " (l.created_by) }
            dt { "Huella SHA-256" } dd { code { (l.sha256) } }
        }
        @if let Outcome::Liquidated(liq) = &outcome { (super::charts::balance(liq)) }
        (views::outcome(&outcome))
    };
    ok(page(Some(&user), format!("Liquidación N.º {id}"), body))
}
