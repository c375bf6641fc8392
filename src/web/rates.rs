//! `/tasas`: the rate series in force and, for an administrator, a certification added from its
//! resolution (`vigia rates add`): the same checks as a rates file row, then the register's
//! (a period that replaces others needs its reason); the warnings of a jump in IBC follow.

use super::auth::User;
use super::form::{Errors, Inputs, Page, Posted, Sent, keep};
use super::views::{self, csrf, fecha, input, page};
use super::{App, input as parse};
use crate::money::format_percent_dp;
use crate::register::user::Role;
use crate::register::{self, Field};
use crate::store;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use chrono::NaiveDate;
use maud::html;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/tasas", get(rates_page).post(rates_add))
}

/// A certification typed from its resolution.
#[derive(Default)]
struct RateForm {
    from: String,
    to: String,
    ibc: String,
    usury: String,
    resolution: String,
    supersede_reason: String,
}

impl RateForm {
    const FROM: &str = "from";
    const TO: &str = "to";
    const IBC: &str = "ibc";
    const USURY: &str = "usury";
    const RESOLUTION: &str = "resolution";
}

impl Inputs for RateForm {
    fn read(sent: &Sent) -> RateForm {
        RateForm {
            from: sent.text(RateForm::FROM),
            to: sent.text(RateForm::TO),
            ibc: sent.text(RateForm::IBC),
            usury: sent.text(RateForm::USURY),
            resolution: sent.text(RateForm::RESOLUTION),
            supersede_reason: sent.text(Field::SupersedeReason.as_str()),
        }
    }
}

/// The certification read: its days, rates and resolution.
struct TypedPeriod {
    from: NaiveDate,
    to: NaiveDate,
    ibc: rust_decimal::Decimal,
    usury: Option<rust_decimal::Decimal>,
    resolution: String,
    reason: Option<String>,
}

impl RateForm {
    /// The form read; each input's problem goes in `errors`.
    fn parse(&self, errors: &mut Errors) -> Option<TypedPeriod> {
        let given = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        let from = keep(errors, RateForm::FROM, parse::date(&self.from));
        let to = keep(errors, RateForm::TO, parse::date(&self.to));
        let ibc = keep(errors, RateForm::IBC, parse::percent(&self.ibc));
        let usury = keep(
            errors,
            RateForm::USURY,
            given(&self.usury).map(|u| parse::percent(&u)).transpose(),
        );
        let resolution = given(&self.resolution);
        if resolution.is_none() {
            errors.put(
                RateForm::RESOLUTION,
                "escriba la resolución que certifica la tasa".into(),
            );
        }
        Some(TypedPeriod {
            from: from?,
            to: to?,
            ibc: ibc?,
            usury: usury?,
            resolution: resolution?,
            reason: given(&self.supersede_reason),
        })
    }
}

async fn rates_page(State(app): State<Arc<App>>, user: User) -> Page {
    rates_markup(
        app,
        user,
        Errors::default(),
        RateForm::default(),
        StatusCode::OK,
        None,
    )
    .await
}

/// A certification just added, as the rates page confirms it: its days and the warnings of a
/// jump in IBC beside the periods next to it (`vigia rates add` prints the same).
struct RateAdded {
    from: NaiveDate,
    to: NaiveDate,
    jumps: Vec<crate::rates::Jump>,
}

/// The rates page; `errors` and `typed` belong to the form that was sent, `added` the
/// certification it added.
async fn rates_markup(
    app: Arc<App>,
    user: User,
    errors: Errors,
    typed: RateForm,
    status: StatusCode,
    added: Option<RateAdded>,
) -> Page {
    let app2 = Arc::clone(&app);
    let periods = app
        .db(move |s| Ok(app2.rates(s)?.periods().to_vec()))
        .await?;
    let body = errors.placed(|| html! {
        (errors.general())
        @if let Some(a) = &added {
            p.ok role="status" { "Certificación agregada: del " (fecha(a.from)) " al " (fecha(a.to)) "." }
            @for j in &a.jumps {
                p.aviso role="alert" { "Atención: " (j.said().es()) "." }
            }
        }
        @if user.may(Role::Admin) {
            h2 { "Agregar una certificación" }
            form method="post" action="/tasas" {
                (csrf(&user))
                (input(RateForm::FROM, "Desde", &typed.from, errors.get(RateForm::FROM), Some("dd/mm/aaaa")))
                (input(RateForm::TO, "Hasta", &typed.to, errors.get(RateForm::TO), Some("dd/mm/aaaa, inclusive")))
                (input(RateForm::IBC, "Interés bancario corriente (% EA)", &typed.ibc, errors.get(RateForm::IBC), Some("p. ej. 17,84")))
                (input(RateForm::USURY, "Tasa de usura (% EA), si la resolución la trae", &typed.usury, errors.get(RateForm::USURY), Some("p. ej. 26,76; si se deja vacía, 1,5 veces el IBC")))
                (input(RateForm::RESOLUTION, "Resolución", &typed.resolution, errors.get(RateForm::RESOLUTION), Some("p. ej. SFC Res. 1650 de 2026 (30/10/2026)")))
                (input(Field::SupersedeReason.as_str(), views::field_label(Field::SupersedeReason), &typed.supersede_reason, errors.get(Field::SupersedeReason.as_str()), Some("solo si reemplaza períodos vigentes")))
                div.acciones { button type="submit" { "Agregar" } }
            }
            p { "Varios períodos a la vez, de un archivo CSV: " a href="/tasas/importar" { "Importar tasas" } "." }
        }
        // each column with one number of decimals, the most any of its rates has (39,795 %
        // beside 27,900 %), as a column of amounts is shown: no rate is rounded
        @let ibc = crate::report::notice::percent_places(periods.iter().filter_map(|p| p.ibc_ea_pct));
        @let moratorium = crate::report::notice::percent_places(periods.iter().map(|p| p.moratorium_ea_pct()));
        @let newest: Vec<_> = periods.iter().rev().collect();
        @let (recent, older) = newest.split_at(newest.len().min(SHOWN_PERIODS));
        (rates_table("Serie vigente (más reciente primero)", recent, ibc, moratorium))
        // the older periods folded: the whole series made the page thousands of pixels tall
        @if !older.is_empty() {
            details.periodos-anteriores {
                summary { "Los " (older.len()) " períodos anteriores" }
                (rates_table("Períodos anteriores (más reciente primero)", older, ibc, moratorium))
            }
        }
    });
    let mut r = Html(page(Some(&user), "Tasas certificadas", body).into_string()).into_response();
    *r.status_mut() = status;
    Ok(r)
}

/// The most recent periods shown open on the rates page (two years of monthly certifications);
/// the older ones are folded under them.
const SHOWN_PERIODS: usize = 24;

/// A table of rate periods, each rate column with `ibc` and `moratorium` decimals.
fn rates_table(
    caption: &str,
    periods: &[&crate::rates::RatePeriod],
    ibc: u32,
    moratorium: u32,
) -> maud::Markup {
    html! {
        table.tasas {
            caption { (caption) }
            thead { tr { th { "desde" } th { "hasta" } th.num { "IBC % EA" } th.num { "moratoria % EA" } th { "resolución" } } }
            tbody {
                @for p in periods {
                    tr { td { (fecha(p.valid_from)) } td { (fecha(p.valid_to)) }
                         td.num { @if let Some(i) = p.ibc_ea_pct { (format_percent_dp(i, ibc)) } }
                         td.num { (format_percent_dp(p.moratorium_ea_pct(), moratorium)) } td { (views::resolucion(&p.resolution)) } }
                }
            }
        }
    }
}

async fn rates_add(State(app): State<Arc<App>>, user: User, sent: Posted<RateForm>) -> Page {
    let f = sent.checked(&user, Role::Admin)?;
    let TypedPeriod {
        from,
        to,
        ibc,
        usury,
        resolution,
        reason,
    } = {
        let mut errors = Errors::default();
        match f.parse(&mut errors) {
            Some(p) => p,
            None => {
                return rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None)
                    .await;
            }
        }
    };
    let mut errors = Errors::default();
    // the same checks as a rates file row, as `vigia rates add` does
    let period = match crate::rates::RateSeries::typed_period(
        from,
        to,
        ibc,
        usury,
        &resolution,
        "formulario",
        false,
    ) {
        Ok(p) => p,
        Err(e) => {
            errors.general.push(format!(
                "La certificación no es válida: {}",
                e.problems
                    .iter()
                    .map(|p| p.message.es().to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
            return rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None)
                .await;
        }
    };
    let officer = user.name.clone();
    let result = app
        .db(move |s| {
            match s.write::<_, register::Error>(&officer, |tx| {
                register::rates::add(tx, &period, reason.as_deref(), None)
            }) {
                // the register's series now, as `vigia rates add` reads it for its warnings
                Ok(_) => Ok(Ok(RateAdded {
                    from: period.valid_from,
                    to: period.valid_to,
                    jumps: crate::rates::jumps_around(&store::rates::series(s.conn())?, &period),
                })),
                Err(e) => Ok(Err(e)),
            }
        })
        .await?;
    match result {
        Ok(added) => {
            rates_markup(
                app,
                user,
                Errors::default(),
                RateForm::default(),
                StatusCode::OK,
                Some(added),
            )
            .await
        }
        Err(e) => {
            errors.register(e)?;
            rates_markup(app, user, errors, f, StatusCode::UNPROCESSABLE_ENTITY, None).await
        }
    }
}
