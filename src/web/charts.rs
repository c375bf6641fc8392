//! The dashboard's pictures, drawn on the server as SVG (no script): when the lock-ups end over
//! the next 24 months, and the findings by severity. Each bar carries its figures as a tooltip
//! (`title`) and the picture a caption; the same figures are in the tables beside it. Bar heights
//! are computed in whole numbers from the counts (no float near a figure).

use crate::lang::{MESES, fecha, numero};
use crate::register::lockups::Month;
use chrono::Datelike;
use maud::{Markup, html};

/// Drawing size (SVG user units).
const W: u64 = 640;
const H: u64 = 200;
const PAD: u64 = 32;

/// `n` of `max` as a length out of `room`, rounded down (at least 1 for a count above zero).
fn length(n: u64, max: u64, room: u64) -> u64 {
    if n == 0 || max == 0 {
        return 0;
    }
    // u128: a national register's counts times a few hundred units never overflow
    let l = u128::from(n) * u128::from(room) / u128::from(max);
    u64::try_from(l).unwrap_or(room).max(1)
}

fn mes_corto(m: &Month) -> String {
    let name = MESES[m.first.month0() as usize];
    format!("{} {}", &name[..3], m.first.year())
}

/// The lock-ups ending each month: one bar per month, its height the adjudications whose
/// lock-up ends in it.
pub fn lockups(months: &[Month]) -> Markup {
    let (Some(first), Some(last)) = (months.first(), months.last()) else {
        return html! {};
    };
    let max = months.iter().map(|m| m.adjudications).max().unwrap_or(0);
    let total: u64 = months.iter().map(|m| m.adjudications).sum();
    let n = months.len() as u64;
    let slot = (W - 2 * PAD) / n.max(1);
    let room = H - 2 * PAD;
    let base = H - PAD;
    let label = format!(
        "Períodos de restricción que terminan cada mes, {}",
        super::views::meses(first.first, last.first)
    );
    html! {
        figure.grafica {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (H)} role="img" aria-label=(label) {
                line.eje x1=(PAD) y1=(base) x2=(W - PAD) y2=(base) {}
                @for (i, m) in months.iter().enumerate() {
                    @let h = length(m.adjudications, max, room);
                    @let x = PAD + i as u64 * slot;
                    rect.barra x=(x + 2) y=(base - h) width=(slot.saturating_sub(4).max(1)) height=(h) {
                        title {
                            (MESES[m.first.month0() as usize]) " de " (m.first.year()) ": "
                            (numero(m.adjudications)) " adjudicación(es), " (numero(m.shares)) " acciones"
                        }
                    }
                    @if i % 3 == 0 {
                        text x=(x + slot / 2) y=(H - 8) text-anchor="middle" { (mes_corto(m)) }
                    }
                }
                text x="4" y=(PAD - 8) { "máx. " (numero(max)) " por mes" }
            }
            figcaption {
                (label) ": " (numero(total)) " adjudicación(es) en total"
                @if total == 0 { " (ninguna termina en estos meses)" }
                "."
            }
        }
    }
}

/// The findings by severity (high, medium, low), as horizontal bars.
pub fn severities(counts: [u64; 3], as_of: chrono::NaiveDate) -> Markup {
    // the severities' Spanish words are the catalogue's, as the tables around say them
    let codes = ["high", "medium", "low"];
    let es = crate::catalogue::of(crate::lang::Lang::Es);
    let names = codes.map(|c| es.code("severity", c).unwrap_or(c));
    let classes = ["sev-high", "sev-medium", "sev-low"];
    let max = counts.iter().copied().max().unwrap_or(0);
    let (row, label_w) = (28u64, 72u64);
    let h = row * 3 + 8;
    let room = W - label_w - 96;
    let label = format!("Hallazgos por severidad al {}", fecha(as_of));
    html! {
        figure.grafica {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (h)} role="img" aria-label=(label) {
                @for (i, n) in counts.iter().enumerate() {
                    @let y = 4 + i as u64 * row;
                    @let l = length(*n, max, room);
                    text x="4" y=(y + 18) { (names[i]) }
                    rect class={"barra " (classes[i])} x=(label_w) y=(y + 4) width=(l) height=(row - 8) {
                        title { "severidad " (names[i]) ": " (numero(*n)) " hallazgo(s)" }
                    }
                    text x=(label_w + l + 6) y=(y + 18) { (numero(*n)) }
                }
            }
            figcaption { (label) "." }
        }
    }
}

/// The first-stage offer against its valid demand and what was awarded, as horizontal bars, with
/// the pro-rata factor when the demand exceeds the offer (offered ÷ demand, before Art. 12's
/// rounding to whole shares).
pub fn demand(h: &crate::register::offering::Header) -> Markup {
    let bars = [
        ("ofrecidas", h.offered),
        ("demanda válida", h.demand),
        ("adjudicadas", h.awarded),
    ];
    let max = bars.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let (row, label_w) = (28u64, 120u64);
    let height = row * 3 + 8;
    let room = W - label_w - 110;
    let factor = (h.oversubscribed && h.demand > 0).then(|| {
        // exact division, shown to four decimals (a picture's caption, not a figure of the acta)
        let f = rust_decimal::Decimal::from(h.offered) / rust_decimal::Decimal::from(h.demand);
        crate::money::format_number(f.round_dp(4))
    });
    let label = format!(
        "Oferta de {}: acciones ofrecidas, demanda válida y acciones adjudicadas",
        h.program
    );
    html! {
        figure.grafica #demanda {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (height)} role="img" aria-label=(label) {
                @for (i, (name, n)) in bars.iter().enumerate() {
                    @let y = 4 + i as u64 * row;
                    @let l = length(*n, max, room);
                    text x="4" y=(y + 18) { (name) }
                    rect.barra x=(label_w) y=(y + 4) width=(l) height=(row - 8) {
                        title { (name) ": " (numero(*n)) " acciones" }
                    }
                    text x=(label_w + l + 6) y=(y + 18) { (numero(*n)) }
                }
            }
            figcaption {
                (label) "."
                @if let Some(f) = &factor {
                    " La demanda supera la oferta: factor de prorrata " (f) " (ofrecidas ÷ demanda, antes del redondeo a acciones enteras del art. 12)."
                } @else {
                    " La demanda no supera la oferta: cada aceptación admitida se adjudica entera."
                }
            }
        }
    }
}

/// A holder's history on a line: each fact a mark at its date (its words as the tooltip, its
/// page as the link), the first and last dates at the ends. The table beside it lists the same.
pub fn timeline(events: &[(chrono::NaiveDate, String, Option<String>)]) -> Markup {
    let (Some(first), Some(last)) = (
        events.iter().map(|e| e.0).min(),
        events.iter().map(|e| e.0).max(),
    ) else {
        return html! {};
    };
    let span = u64::try_from((last - first).num_days()).unwrap_or(0).max(1);
    let (height, axis) = (90u64, 50u64);
    let room = W - 2 * PAD;
    let x = |d: chrono::NaiveDate| {
        PAD + length(
            u64::try_from((d - first).num_days()).unwrap_or(0),
            span,
            room,
        )
    };
    html! {
        figure.grafica #historia-grafica {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (height)} role="img"
                aria-label={"Historia del titular, del " (fecha(first)) " al " (fecha(last))} {
                line.eje x1=(PAD) y1=(axis) x2=(W - PAD) y2=(axis) {}
                @for (i, (d, what, link)) in events.iter().enumerate() {
                    // marks of the same day stacked upwards, so none hides another
                    @let same = events[..i].iter().filter(|e| e.0 == *d).count() as u64;
                    @let cy = axis.saturating_sub(same * 9);
                    @match link {
                        Some(l) => a href=(l) { circle cx=(x(*d)) cy=(cy) r="4" { title { (fecha(*d)) ": " (what) } } },
                        None => circle cx=(x(*d)) cy=(cy) r="4" { title { (fecha(*d)) ": " (what) } },
                    }
                }
                text x=(PAD) y=(height - 12) { (fecha(first)) }
                text x=(W - PAD) y=(height - 12) text-anchor="end" { (fecha(last)) }
            }
            figcaption { "Cada punto es un hecho del registro (pase el cursor para leerlo); la tabla lo detalla." }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn the_demand_picture_gives_the_pro_rata_factor_when_oversubscribed() {
        let h = |offered, demand, awarded, oversubscribed| crate::register::offering::Header {
            program: "P".into(),
            program_sha256: String::new(),
            opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
            closes: NaiveDate::from_ymd_opt(2024, 3, 8).unwrap(),
            adjudicated_on: NaiveDate::from_ymd_opt(2024, 3, 15).unwrap(),
            offered,
            demand,
            awarded,
            leftover: offered - awarded,
            oversubscribed,
            rule: "nearest-adjust",
        };
        // 3.000 offered to a demand of 8.000: 3.000 ÷ 8.000 = 0,375
        let svg = demand(&h(3000, 8000, 3000, true)).into_string();
        assert!(svg.contains("factor de prorrata 0,375 "), "{svg}");
        assert!(
            svg.contains("<title>demanda válida: 8.000 acciones</title>"),
            "{svg}"
        );
        // the longest bar (the demand) fills the room: 640 − 120 − 110 = 410
        assert!(svg.contains("width=\"410\""), "{svg}");
        let svg = demand(&h(12_960_982, 74_300, 74_300, false)).into_string();
        assert!(svg.contains("no supera la oferta"), "{svg}");
    }

    #[test]
    fn the_timeline_puts_each_fact_at_its_date() {
        let d = |m, day| NaiveDate::from_ymd_opt(2024, m, day).unwrap();
        let svg = timeline(&[
            (d(3, 15), "Adjudicación 1".into(), None),
            (
                d(11, 20),
                "Incumplimiento 1".into(),
                Some("/incumplimientos/1".into()),
            ),
            (d(11, 20), "Otro hecho".into(), None),
        ])
        .into_string();
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        // the first at the left end, the last at the right end (640 − 32)
        assert!(svg.contains("cx=\"32\""), "{svg}");
        assert!(svg.contains("cx=\"608\" cy=\"50\""), "{svg}");
        // the second fact of the same day stacked above the first
        assert!(svg.contains("cx=\"608\" cy=\"41\""), "{svg}");
        assert!(svg.contains("<a href=\"/incumplimientos/1\">"), "{svg}");
        assert!(
            svg.contains("<title>20/11/2024: Incumplimiento 1</title>"),
            "{svg}"
        );
        assert_eq!(timeline(&[]).into_string(), "");
    }

    #[test]
    fn a_bar_is_as_long_as_its_share_of_the_longest() {
        assert_eq!(length(0, 10, 136), 0);
        assert_eq!(length(10, 10, 136), 136);
        assert_eq!(length(5, 10, 136), 68);
        // one among a million still shows
        assert_eq!(length(1, 1_000_000, 136), 1);
    }

    #[test]
    fn the_lockup_picture_has_a_bar_per_month_with_its_figures() {
        let m = |y, mo, n, s| Month {
            first: NaiveDate::from_ymd_opt(y, mo, 1).unwrap(),
            adjudications: n,
            shares: s,
        };
        let svg =
            lockups(&[m(2026, 2, 0, 0), m(2026, 3, 6, 74_900), m(2026, 4, 3, 100)]).into_string();
        assert_eq!(svg.matches("<rect").count(), 3, "{svg}");
        assert!(
            svg.contains("marzo de 2026: 6 adjudicación(es), 74.900 acciones"),
            "{svg}"
        );
        // the tallest bar fills the room (200 − 2 × 32 = 136), the half one half of it
        assert!(svg.contains("height=\"136\""), "{svg}");
        assert!(svg.contains("height=\"68\""), "{svg}");
        assert!(
            svg.contains("terminan cada mes, de febrero a abril de 2026"),
            "{svg}"
        );
        assert!(svg.contains("9 adjudicación(es) en total"), "{svg}");
    }
}
