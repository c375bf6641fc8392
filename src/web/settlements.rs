//! `/paz-y-salvo`: a paid fine's certificate (its payments, its liquidation, its last notice)
//! and its documents, downloaded and recorded as renderings like a notice's. It is issued from
//! the breach's page.

use super::App;
use super::auth::User;
use super::extract::Path;
use super::form::{Page, ok};
use super::letters;
use super::views::{self, PesosColumn, fecha, page, pesos};
use crate::store::notices::Doc;
use crate::store::settlements::{self, Settlement};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/paz-y-salvo/{id}", get(settlement_page))
        .route(
            "/paz-y-salvo/{id}/documento/{format}",
            get(settlement_document),
        )
}

async fn settlement_page(State(app): State<Arc<App>>, user: User, Path(id): Path<i64>) -> Page {
    let (s, data) = app
        .db(move |st| {
            let s = settlements::get(st.conn(), id)?;
            let data = crate::register::notice_data::gather_settlement(st.conn(), &s)?;
            Ok((s, data))
        })
        .await?;
    let has_signer = app.sessions.signer(user.token()).is_some();
    let body = settlement_markup(
        &s,
        &data,
        letters::sign_form(&user, "paz-y-salvo", id, has_signer),
    );
    ok(page(
        Some(&user),
        views::Title::naming(format!("Paz y salvo {}", s.number), &[&s.number]),
        body,
    ))
}

fn settlement_markup(s: &Settlement, data: &crate::notice::SettlementData, sign: Markup) -> Markup {
    let l = &data.liquidation;
    let total: rust_decimal::Decimal = l.payments.iter().map(|p| p.amount).sum();
    html! {
        dl.hechos {
            dt { "Número" } dd #numero { (views::ident(&s.number)) }
            dt { "Titular" } dd { (data.holder_name) " (" (views::documento(&data.doc_type, &data.doc_number)) ")" }
            dt { "Incumplimiento" } dd { a href={"/incumplimientos/" (s.breach_id)} { (s.breach_id) } }
            dt { "Liquidación" } dd { a href={"/liquidaciones/" (s.liquidation_id)} { (s.liquidation_id) } " al " (fecha(l.until)) ": saldo " (pesos(l.total_due)) }
            @if let Some((number, date)) = &data.notice { dt { "Último aviso de cobro" } dd { (views::ident(number)) " del " (fecha(*date)) } }
            dt { "Fecha" } dd { (fecha(s.settlement_date)) }
            dt { "Expedido" } dd { (views::momento(&s.created_at)) " por " (s.created_by) }
        }
        h2 { "Pagos que extinguieron la multa" }
        table.pagos {
            thead { tr { th { "fecha" } th.num { "valor" } th.num { "a intereses" } th.num { "a capital" } th.num { "excedente" } } }
            // the total sits under the amounts paid: one column
            @let amount = PesosColumn::of(l.payments.iter().map(|p| p.amount).chain([total]));
            @let of = |f: fn(&crate::fine::AppliedPayment) -> rust_decimal::Decimal| PesosColumn::of(l.payments.iter().map(f));
            @let (to_interest, to_capital, surplus) = (of(|p| p.to_interest), of(|p| p.to_capital), of(|p| p.surplus));
            tbody {
                @for p in &l.payments {
                    tr { td { (fecha(p.date)) } td.num { (amount.show(p.amount)) } td.num { (to_interest.show(p.to_interest)) } td.num { (to_capital.show(p.to_capital)) } td.num { (surplus.show(p.surplus)) } }
                }
            }
            tfoot { tr { th { "total" } th.num { (amount.show(total)) } th {} th {} th {} } }
        }
        h2 { "Documentos" }
        p { "Descargar: " (letters::doc_links("paz-y-salvo", s.id)) }
        (sign)
        p.nota { "Cada descarga queda registrada (formato y SHA-256) a nombre de quien la descarga, para que el archivo pueda verificarse en «Verificar aviso»." }
    }
}

/// A paz y salvo's document in a format, recorded like a notice's.
async fn settlement_document(
    State(app): State<Arc<App>>,
    user: User,
    Path((id, format)): Path<(i64, String)>,
) -> Page {
    letters::recorded_download(&app, &user, &format, move |conn, fmt| {
        let st = settlements::get(conn, id)?;
        let data = crate::register::notice_data::gather_settlement(conn, &st)?;
        let bytes = crate::report::document::settlement(&data, fmt);
        Ok((Doc::Settlement(st.id), st.number, bytes))
    })
    .await
}
