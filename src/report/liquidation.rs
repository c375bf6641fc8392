//! A liquidation as people read it (Spanish table, es-CO amounts) and as machines read it (the
//! JSON of `vigia fine quote`, which is the register's stored result record, owned by
//! [`crate::liquidation`]). Formatting only: no arithmetic beyond presenting figures the engine
//! already rounded.

use crate::fine::{AppliedPayment, Liquidation, Outcome, StagePrice};
use crate::lang::fecha;
pub use crate::liquidation::{DAILY_RATE_DECIMALS, shown_daily_rate};
use crate::liquidation::{LiquidationResult, StageEntry};
use crate::money::{Places, format_cop, format_cop_dp, format_number, format_percent};
use crate::words::stage_es;
use rust_decimal::Decimal;
use std::fmt::Write as _;
use tabled::settings::{Alignment, Style, object::Columns};
use tabled::{Table, Tabled};

/// The `fine quote` JSON object: the stored result record, [`LiquidationResult`], which owns
/// its format.
pub fn to_json(outcome: &Outcome) -> serde_json::Value {
    serde_json::to_value(LiquidationResult::from(outcome)).expect("liquidation serialises")
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

/// The later stages' prices a liquidation's stage price is the highest of, and which it took
/// (LEGAL_NOTES §7.1), as one Spanish sentence; `None` when there are none to list.
pub fn stage_prices_es(stages: &[StageEntry], taken: Option<Decimal>) -> Option<String> {
    match stages {
        [] => None,
        [one] => Some(format!(
            "Precio recibido por los vendedores en la etapa posterior (numeral iii): {}, {} por acción.",
            stage_es(one.stage.number()),
            format_cop(one.price)
        )),
        several => {
            let mut marked = false;
            let listed: Vec<String> = several
                .iter()
                .map(|s| {
                    let mark = if !marked && Some(s.price) == taken {
                        marked = true;
                        " (el mayor: el que se toma)"
                    } else {
                        ""
                    };
                    format!(
                        "{}, {} por acción{mark}",
                        stage_es(s.stage.number()),
                        format_cop(s.price)
                    )
                })
                .collect();
            Some(format!(
                "Precios recibidos por los vendedores en las etapas posteriores (numeral iii: se toma el mayor; el de \
                 cada etapa, ponderado por las acciones que enajenó): {}.",
                listed.join("; ")
            ))
        }
    }
}

/// The liquidation as a person reads it, in Spanish; `stages` are the later stages' prices its
/// stage price is the highest of (empty: none to list).
pub fn to_table(outcome: &Outcome, stages: &[StageEntry]) -> String {
    match outcome {
        Outcome::NotApplicable(n) => format!(
            "NO APLICA MULTA\n\
             El incumplimiento del {} es posterior al fin de la restricción de negociabilidad ({}); \
             el adjudicatario podía disponer de sus acciones desde el {}.\n\
             Adjudicación: {}\n",
            fecha(n.breach_date),
            fecha(n.lockup_end),
            fecha(n.lockup_end.succ_opt().unwrap_or(n.lockup_end)),
            fecha(n.adjudicated)
        ),
        Outcome::Liquidated(l) => liquidation_table(l, stages),
    }
}

fn liquidation_table(l: &Liquidation, stages: &[StageEntry]) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(
        w,
        "LIQUIDACIÓN DE MULTA — Ley 226 de 1995 art. 14; programa de enajenación, art. 9"
    );
    if l.provisional {
        let _ = writeln!(
            w,
            "{}",
            match l.prices.stage {
                StagePrice::SoFar(_) =>
                    "PROVISIONAL: una etapa posterior está pendiente; la multa puede aumentar si en ella se obtiene un precio mayor.",
                _ =>
                    "PROVISIONAL: el precio de la Segunda o Tercera Etapa está pendiente; la multa puede aumentar cuando se conozca.",
            }
        );
    }
    let _ = writeln!(w);
    let _ = writeln!(w, "Adjudicación:             {}", fecha(l.adjudicated));
    let _ = writeln!(w, "Incumplimiento:           {}", fecha(l.breach_date));
    let _ = writeln!(
        w,
        "Fin de la restricción:    {} (libre desde {})",
        fecha(l.lockup_end),
        fecha(l.lockup_end.succ_opt().unwrap_or(l.lockup_end))
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
            b.upper_months,
            fecha(b.through)
        ),
        Some(after) => format!(
            "el incumplimiento ocurrió entre los {} meses y un día ({}) y los {} meses ({}) siguientes a la adjudicación",
            b.lower_months,
            fecha(after.succ_opt().unwrap_or(after)),
            b.upper_months,
            fecha(b.through)
        ),
    };
    let _ = writeln!(
        w,
        "Porcentaje aplicable:     {} — {}",
        format_percent(b.percent),
        why
    );
    let _ = writeln!(w);

    // each column of amounts with one number of decimals (`Places`)
    let column = |xs: &mut dyn Iterator<Item = Decimal>| Places::of(xs).scale();
    let present = l.prices.present();
    let dp = column(&mut present.iter().map(|(_, p)| *p));
    let prices = present.into_iter().map(|(basis, price)| PriceRow {
        basis: basis.label_es(),
        price: format_cop_dp(price, dp),
        mark: if basis == l.basis {
            "← mayor valor"
        } else {
            ""
        },
    });
    let _ = writeln!(w, "{}", table(prices, 1..2));
    if let Some(listed) = stage_prices_es(stages, l.prices.stage.known()) {
        let _ = writeln!(w, "{listed}");
    }
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
        fecha(l.breach_date),
        fecha(l.until),
        l.days
    );
    // the convention in words; its code (`--convention`) is in the JSON
    let _ = writeln!(w, "Convención: {}", l.convention.explain_es());
    if l.pieces.is_empty() {
        let _ = writeln!(w, "(sin días de causación)");
    } else {
        let capital = column(&mut l.pieces.iter().map(|p| p.capital));
        let interest = column(&mut l.pieces.iter().map(|p| p.interest));
        let rows = l.pieces.iter().map(|p| PieceRow {
            desde: fecha(p.from),
            hasta: fecha(p.to),
            days: p.days,
            ea: format_percent(p.moratorium_ea_pct),
            daily: shown_daily_rate(p.daily_rate).to_string().replace('.', ","),
            capital: format_cop_dp(p.capital, capital),
            interest: format_cop_dp(p.interest, interest),
            resolution: crate::rates::resolution_es(&p.resolution),
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
        let of = |f: fn(&AppliedPayment) -> Decimal| column(&mut l.payments.iter().map(f));
        let dp: [u32; 5] = [
            of(|p| p.amount),
            of(|p| p.to_interest),
            of(|p| p.to_capital),
            of(|p| p.surplus),
            of(|p| p.capital_after),
        ];
        let rows = l.payments.iter().map(|p| PaymentRow {
            fecha: fecha(p.date),
            valor: format_cop_dp(p.amount, dp[0]),
            to_interest: format_cop_dp(p.to_interest, dp[1]),
            to_capital: format_cop_dp(p.to_capital, dp[2]),
            surplus: format_cop_dp(p.surplus, dp[3]),
            capital_after: format_cop_dp(p.capital_after, dp[4]),
        });
        let _ = writeln!(w, "{}", table(rows, 1..6));
    }
    let _ = writeln!(w);
    // the balances, aligned one under another, are a column too
    let surplus = (l.surplus > Decimal::ZERO).then_some(l.surplus);
    let dp = column(
        &mut [l.outstanding_capital, l.outstanding_interest, l.total_due]
            .into_iter()
            .chain(surplus),
    );
    let _ = writeln!(
        w,
        "Capital pendiente:        {:>20}",
        format_cop_dp(l.outstanding_capital, dp)
    );
    let _ = writeln!(
        w,
        "Intereses pendientes:     {:>20}",
        format_cop_dp(l.outstanding_interest, dp)
    );
    let _ = writeln!(
        w,
        "TOTAL A PAGAR al {}: {:>20}",
        fecha(l.until),
        format_cop_dp(l.total_due, dp)
    );
    if let Some(surplus) = surplus {
        let _ = writeln!(
            w,
            "Excedente a devolver:     {:>20}",
            format_cop_dp(surplus, dp)
        );
    }
    let _ = writeln!(w, "Tasas: {}", crate::rates::source_es(&l.rates_source));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `vigia notice verify` compares this JSON's text with a stored result: it must be the same
    /// bytes the register stores.
    #[test]
    fn the_quote_json_is_the_stored_result() {
        let fixtures: Vec<serde_json::Value> = serde_json::from_str(include_str!(
            "../../tests/fixtures/liquidations/stored.json"
        ))
        .unwrap();
        for f in fixtures {
            let outcome =
                crate::register::liquidation::recompute(f["inputs_json"].as_str().unwrap())
                    .unwrap();
            assert_eq!(
                to_json(&outcome).to_string(),
                f["result_json"].as_str().unwrap(),
                "{}",
                f["name"]
            );
        }
    }
}
