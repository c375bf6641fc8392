//! The computation of a notice (the bracket, the principal, the accrual pieces, the payments
//! and their imputation, the totals and the total in words), the same in every layout of the
//! notice's text: `notice_v1` and `notice_v2` add it where their text has it.

use super::notice::*;
use crate::money::{format_cop, format_percent, format_percent_dp};
use crate::notice::NoticeData;
use crate::report::liquidation::shown_daily_rate;
use rust_decimal::Decimal;

/// Pushes the computation's blocks onto `out`, with `q` applied to every value an officer typed
/// (a certification's resolution).
pub(super) fn computation(d: &NoticeData, q: &dyn Fn(&str) -> String, out: &mut Vec<Block>) {
    let l = &d.liquidation;
    let hit = &l.bracket;
    let why = match hit.after {
        None => format!(
            "dentro de los primeros {} meses siguientes a la adjudicación (hasta el {})",
            hit.upper_months,
            long_date(hit.through)
        ),
        Some(after) => format!(
            "entre los {} meses y un día ({}) y los {} meses ({}) siguientes a la adjudicación",
            hit.lower_months,
            long_date(after.succ_opt().unwrap_or(after)),
            hit.upper_months,
            long_date(hit.through)
        ),
    };
    out.push(Block::Para(format!(
        "Porcentaje aplicable: {}, porque el incumplimiento ocurrió {why}.",
        format_percent(hit.percent)
    )));
    out.push(Block::Strong(format!(
        "Multa: {} acciones × {} × {} = {}",
        n(l.shares),
        format_cop(l.reference_price),
        format_percent(hit.percent),
        format_cop(l.principal)
    )));
    out.push(Block::Para(format!(
        "Ajuste a la tasa máxima moratoria desde el día siguiente al incumplimiento ({}) hasta el {} inclusive: {} días. {}",
        long_date(l.breach_date.succ_opt().unwrap_or(l.breach_date)),
        long_date(l.until),
        l.days,
        l.convention.explain_es()
    )));
    if !l.pieces.is_empty() {
        out.push(Block::Table {
            header: [
                "Desde",
                "Hasta",
                "Días",
                "Tasa mor. EA",
                "Tasa diaria",
                "Capital",
                "Interés",
                "Certificación",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            rows: {
                let money = MoneyFmt::of(l.pieces.iter().flat_map(|p| [p.capital, p.interest]));
                let pct = percent_places(l.pieces.iter().map(|p| p.moratorium_ea_pct));
                l.pieces
                    .iter()
                    .map(|p| {
                        vec![
                            short_date(p.from),
                            short_date(p.to),
                            p.days.to_string(),
                            format_percent_dp(p.moratorium_ea_pct, pct),
                            shown_daily_rate(p.daily_rate).to_string().replace('.', ","),
                            money.cop(p.capital),
                            money.cop(p.interest),
                            q(&p.resolution),
                        ]
                    })
                    .collect()
            },
            right: vec![false, false, true, true, true, true, true, false],
        });
    }
    out.push(Block::Para(format!(
        "Intereses causados: {}.",
        format_cop(l.interest)
    )));
    if !l.payments.is_empty() {
        out.push(Block::Para("Pagos recibidos, imputados primero a intereses y luego a capital (Código Civil, artículo 1653):".into()));
        out.push(Block::Table {
            header: ["Fecha", "Valor", "A intereses", "A capital", "Excedente"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows: payment_rows(l),
            right: vec![false, true, true, true, true],
        });
    }
    let money = MoneyFmt::of([
        l.outstanding_capital,
        l.outstanding_interest,
        l.total_due,
        l.surplus,
    ]);
    let mut totals = vec![
        vec![
            "Capital pendiente".to_string(),
            money.cop(l.outstanding_capital),
        ],
        vec![
            "Intereses pendientes".to_string(),
            money.cop(l.outstanding_interest),
        ],
        vec![
            format!("Total a pagar al {}", long_date(l.until)),
            money.cop(l.total_due),
        ],
    ];
    if l.surplus > Decimal::ZERO {
        totals.push(vec!["Excedente a devolver".into(), money.cop(l.surplus)]);
    }
    out.push(Block::Table {
        header: vec!["Concepto".into(), "Valor".into()],
        rows: totals,
        right: vec![false, true],
    });
    let words = crate::words::pesos(l.total_due).unwrap_or_default();
    out.push(Block::Strong(format!(
        "TOTAL A PAGAR AL {}: {} ({words}).",
        long_date(l.until).to_uppercase(),
        format_cop(l.total_due)
    )));
}
