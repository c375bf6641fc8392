//! The rate series and rates-file problems, as a table or JSON.

use crate::money::format_percent;
use crate::rates::{Problem, RatePeriod};
use crate::report::notice::short_date;
use serde_json::json;
use tabled::settings::{Alignment, Style, object::Columns};
use tabled::{Table, Tabled};

#[derive(Tabled)]
struct Row {
    desde: String,
    hasta: String,
    #[tabled(rename = "IBC EA")]
    ibc: String,
    #[tabled(rename = "máx. moratoria EA")]
    moratorium: String,
    #[tabled(rename = "origen")]
    origin: &'static str,
    #[tabled(rename = "resolución")]
    resolution: String,
}

fn origin(p: &RatePeriod) -> &'static str {
    if p.usury_ea_pct.is_some() {
        "certificada"
    } else {
        "1,5 × IBC"
    }
}

/// One row per period: dates, IBC, moratorium rate and whether it was printed or derived.
pub fn periods_table(periods: &[RatePeriod]) -> String {
    let rows = periods.iter().map(|p| Row {
        desde: short_date(p.valid_from),
        hasta: short_date(p.valid_to),
        ibc: p
            .ibc_ea_pct
            .map(format_percent)
            .unwrap_or_else(|| "—".into()),
        moratorium: format_percent(p.moratorium_ea_pct()),
        origin: origin(p),
        resolution: crate::rates::resolution_es(&p.resolution),
    });
    let mut t = Table::new(rows);
    t.with(Style::psql());
    t.modify(Columns::new(2..4), Alignment::right());
    t.to_string()
}

/// The periods as a JSON array (rates as decimal strings).
pub fn periods_json(periods: &[RatePeriod]) -> serde_json::Value {
    periods
        .iter()
        .map(|p| {
            json!({
                "valid_from": p.valid_from.to_string(),
                "valid_to": p.valid_to.to_string(),
                "ibc_ea_percent": p.ibc_ea_pct.map(|r| r.to_string()),
                "usury_ea_percent": p.usury_ea_pct.map(|r| r.to_string()),
                "moratorium_ea_percent": p.moratorium_ea_pct().to_string(),
                "resolution": p.resolution,
            })
        })
        .collect()
}

/// One line per problem, `line N: message`.
pub fn problems_text(problems: &[Problem], lang: crate::lang::Lang) -> String {
    problems
        .iter()
        .map(|p| format!("{}\n", p.in_lang(lang)))
        .collect()
}
