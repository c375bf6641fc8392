//! A liquidation as people read it (Spanish table, es-CO amounts) and as machines read it (the
//! JSON contract of `vigia fine quote`, reused by the register). Formatting only: no arithmetic
//! beyond presenting figures the engine already rounded.

use crate::fine::{Basis, Liquidation, NotApplicable, Outcome};
use crate::money::{format_cop, format_number, format_percent};
use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt::Write as _;
use tabled::settings::{Alignment, Style, object::Columns};
use tabled::{Table, Tabled};

/// Decimals shown for a daily rate (SPEC §5).
pub const DAILY_RATE_DECIMALS: u32 = 10;

#[derive(Serialize)]
struct JsonNotApplicable {
    applies: bool,
    reason: String,
    adjudicated: String,
    breach_date: String,
    until: String,
    lockup_end: String,
}

#[derive(Serialize)]
struct JsonLiquidation {
    applies: bool,
    convention: &'static str,
    adjudicated: String,
    breach_date: String,
    until: String,
    lockup_end: String,
    bracket_percent: Decimal,
    shares: u64,
    reference: JsonReference,
    reference_prices: JsonPrices,
    provisional: bool,
    principal: Decimal,
    days: i64,
    periods: Vec<JsonPeriod>,
    interest: Decimal,
    payments: Vec<JsonPayment>,
    outstanding_capital: Decimal,
    outstanding_interest: Decimal,
    surplus: Decimal,
    total_due: Decimal,
    rates_source: String,
}

#[derive(Serialize)]
struct JsonReference {
    basis: &'static str,
    price_per_share: Decimal,
}

#[derive(Serialize)]
struct JsonPrices {
    #[serde(skip_serializing_if = "Option::is_none")]
    acquisition: Option<Decimal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transfer: Option<Decimal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stage: Option<Decimal>,
}

#[derive(Serialize)]
struct JsonPeriod {
    from: String,
    to: String,
    days: i64,
    moratorium_ea_percent: Decimal,
    daily_rate: Decimal,
    resolution: String,
    capital: Decimal,
    interest: Decimal,
}

#[derive(Serialize)]
struct JsonPayment {
    date: String,
    amount: Decimal,
    to_interest: Decimal,
    to_capital: Decimal,
    surplus: Decimal,
}

/// The daily rate as shown: a fraction with 10 decimals.
pub fn shown_daily_rate(rate: Decimal) -> Decimal {
    rate.round_dp(DAILY_RATE_DECIMALS)
}

/// The `fine quote` JSON object.
pub fn to_json(outcome: &Outcome) -> serde_json::Value {
    match outcome {
        Outcome::NotApplicable(n) => serde_json::to_value(not_applicable_json(n)),
        Outcome::Liquidated(l) => serde_json::to_value(liquidation_json(l)),
    }
    .expect("liquidation serialises")
}

fn not_applicable_json(n: &NotApplicable) -> JsonNotApplicable {
    JsonNotApplicable {
        applies: false,
        reason: n.reason(),
        adjudicated: n.adjudicated.to_string(),
        breach_date: n.breach_date.to_string(),
        until: n.until.to_string(),
        lockup_end: n.lockup_end.to_string(),
    }
}

fn liquidation_json(l: &Liquidation) -> JsonLiquidation {
    let mut prices = JsonPrices {
        acquisition: None,
        transfer: None,
        stage: None,
    };
    for (basis, price) in l.prices.present() {
        match basis {
            Basis::Acquisition => prices.acquisition = Some(price),
            Basis::Transfer => prices.transfer = Some(price),
            Basis::Stage => prices.stage = Some(price),
        }
    }
    JsonLiquidation {
        applies: true,
        convention: l.convention.as_str(),
        adjudicated: l.adjudicated.to_string(),
        breach_date: l.breach_date.to_string(),
        until: l.until.to_string(),
        lockup_end: l.lockup_end.to_string(),
        bracket_percent: l.bracket.percent,
        shares: l.shares,
        reference: JsonReference {
            basis: l.basis.as_str(),
            price_per_share: l.reference_price,
        },
        reference_prices: prices,
        provisional: l.provisional,
        principal: l.principal,
        days: l.days,
        periods: l
            .pieces
            .iter()
            .map(|p| JsonPeriod {
                from: p.from.to_string(),
                to: p.to.to_string(),
                days: p.days,
                moratorium_ea_percent: p.moratorium_ea_pct,
                daily_rate: shown_daily_rate(p.daily_rate),
                resolution: p.resolution.clone(),
                capital: p.capital,
                interest: p.interest,
            })
            .collect(),
        interest: l.interest,
        payments: l
            .payments
            .iter()
            .map(|p| JsonPayment {
                date: p.date.to_string(),
                amount: p.amount,
                to_interest: p.to_interest,
                to_capital: p.to_capital,
                surplus: p.surplus,
            })
            .collect(),
        outstanding_capital: l.outstanding_capital,
        outstanding_interest: l.outstanding_interest,
        surplus: l.surplus,
        total_due: l.total_due,
        rates_source: l.rates_source.clone(),
    }
}

#[derive(Tabled)]
struct PriceRow {
    #[tabled(rename = "precio de referencia")]
    basis: &'static str,
    #[tabled(rename = "por acción")]
    price: String,
    #[tabled(rename = "")]
    mark: &'static str,
}

#[derive(Tabled)]
struct PieceRow {
    desde: String,
    hasta: String,
    #[tabled(rename = "días")]
    days: i64,
    #[tabled(rename = "tasa moratoria EA")]
    ea: String,
    #[tabled(rename = "tasa diaria")]
    daily: String,
    capital: String,
    #[tabled(rename = "interés")]
    interest: String,
    #[tabled(rename = "resolución")]
    resolution: String,
}

#[derive(Tabled)]
struct PaymentRow {
    fecha: String,
    valor: String,
    #[tabled(rename = "a intereses")]
    to_interest: String,
    #[tabled(rename = "a capital")]
    to_capital: String,
    #[tabled(rename = "excedente")]
    surplus: String,
    #[tabled(rename = "capital después")]
    capital_after: String,
}

fn table<T: Tabled>(rows: impl IntoIterator<Item = T>, right: std::ops::Range<usize>) -> String {
    let mut t = Table::new(rows);
    t.with(Style::psql());
    t.modify(Columns::new(right), Alignment::right());
    t.to_string()
}

/// The liquidation as a person reads it, in Spanish.
pub fn to_table(outcome: &Outcome) -> String {
    match outcome {
        Outcome::NotApplicable(n) => format!(
            "NO APLICA MULTA\n\
             El incumplimiento del {} es posterior al fin de la restricción de negociabilidad ({}); \
             el adjudicatario podía disponer de sus acciones desde el {}.\n\
             Adjudicación: {}\n",
            n.breach_date,
            n.lockup_end,
            n.lockup_end.succ_opt().unwrap_or(n.lockup_end),
            n.adjudicated
        ),
        Outcome::Liquidated(l) => liquidation_table(l),
    }
}

fn liquidation_table(l: &Liquidation) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(
        w,
        "LIQUIDACIÓN DE MULTA — Ley 226 de 1995 art. 14; programa de enajenación, art. 9"
    );
    if l.provisional {
        let _ = writeln!(
            w,
            "PROVISIONAL: el precio de la Segunda o Tercera Etapa está pendiente; la multa puede aumentar cuando se conozca."
        );
    }
    let _ = writeln!(w);
    let _ = writeln!(w, "Adjudicación:             {}", l.adjudicated);
    let _ = writeln!(w, "Incumplimiento:           {}", l.breach_date);
    let _ = writeln!(
        w,
        "Fin de la restricción:    {} (libre desde {})",
        l.lockup_end,
        l.lockup_end.succ_opt().unwrap_or(l.lockup_end)
    );
    let _ = writeln!(
        w,
        "Acciones en incumplimiento: {}",
        format_number(Decimal::from(l.shares))
    );
    let b = &l.bracket;
    let why = match b.after {
        None => format!(
            "el incumplimiento ocurrió dentro de los primeros {} meses siguientes a la adjudicación (hasta el {})",
            b.upper_months, b.through
        ),
        Some(after) => format!(
            "el incumplimiento ocurrió entre los {} meses y un día ({}) y los {} meses ({}) siguientes a la adjudicación",
            b.lower_months,
            after.succ_opt().unwrap_or(after),
            b.upper_months,
            b.through
        ),
    };
    let _ = writeln!(
        w,
        "Porcentaje aplicable:     {} — {}",
        format_percent(b.percent),
        why
    );
    let _ = writeln!(w);

    let prices = l
        .prices
        .present()
        .into_iter()
        .map(|(basis, price)| PriceRow {
            basis: basis.label_es(),
            price: format_cop(price),
            mark: if basis == l.basis {
                "← mayor valor"
            } else {
                ""
            },
        });
    let _ = writeln!(w, "{}", table(prices, 1..2));
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "Multa (capital): {} acciones × {} × {} = {}",
        format_number(Decimal::from(l.shares)),
        format_cop(l.reference_price),
        format_percent(b.percent),
        format_cop(l.principal)
    );
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "Ajuste a la tasa máxima moratoria (C.Co. art. 884), del {} exclusive al {} inclusive: {} días",
        l.breach_date, l.until, l.days
    );
    let _ = writeln!(
        w,
        "Convención: {}. {}",
        l.convention,
        l.convention.explain_es()
    );
    if l.pieces.is_empty() {
        let _ = writeln!(w, "(sin días de causación)");
    } else {
        let rows = l.pieces.iter().map(|p| PieceRow {
            desde: p.from.to_string(),
            hasta: p.to.to_string(),
            days: p.days,
            ea: format_percent(p.moratorium_ea_pct),
            daily: shown_daily_rate(p.daily_rate).to_string().replace('.', ","),
            capital: format_cop(p.capital),
            interest: format_cop(p.interest),
            resolution: p.resolution.clone(),
        });
        let _ = writeln!(w, "{}", table(rows, 2..7));
    }
    let _ = writeln!(w, "Intereses causados: {}", format_cop(l.interest));
    if !l.payments.is_empty() {
        let _ = writeln!(w);
        let _ = writeln!(
            w,
            "Pagos (se imputan primero a intereses y luego a capital, C.C. art. 1653)"
        );
        let rows = l.payments.iter().map(|p| PaymentRow {
            fecha: p.date.to_string(),
            valor: format_cop(p.amount),
            to_interest: format_cop(p.to_interest),
            to_capital: format_cop(p.to_capital),
            surplus: format_cop(p.surplus),
            capital_after: format_cop(p.capital_after),
        });
        let _ = writeln!(w, "{}", table(rows, 1..6));
    }
    let _ = writeln!(w);
    let _ = writeln!(
        w,
        "Capital pendiente:        {:>20}",
        format_cop(l.outstanding_capital)
    );
    let _ = writeln!(
        w,
        "Intereses pendientes:     {:>20}",
        format_cop(l.outstanding_interest)
    );
    let _ = writeln!(
        w,
        "TOTAL A PAGAR al {}: {:>20}",
        l.until,
        format_cop(l.total_due)
    );
    if l.surplus > Decimal::ZERO {
        let _ = writeln!(w, "Excedente a devolver:     {:>20}", format_cop(l.surplus));
    }
    let _ = writeln!(w, "Tasas: {}", l.rates_source);
    s
}
