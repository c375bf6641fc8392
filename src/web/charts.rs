//! The pictures, drawn on the server as SVG (no script): the dashboard's lock-ups ending over
//! the next 24 months and findings by severity, the offer against its demand, and a fine's
//! balance over time (the engine's series, `fine::Liquidation::balance_series`). Each bar carries its figures as a tooltip
//! (`title`) and the picture a caption; the same figures are in the tables beside it. Bar heights
//! and coordinates are computed in whole numbers from the counts, days and cents (no float near a
//! figure).

use super::views::{self, pesos};
use crate::fine::Liquidation;
use crate::lang::{MESES, fecha, numero};
use crate::register::lockups::Month;
use chrono::Datelike;
use chrono::NaiveDate;
use maud::{Markup, html};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

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
/// lock-up ends in it; a sentence instead when none ends in these months (an empty chart read
/// as a broken one: the demo's lock-ups all ended before today's).
pub fn lockups(months: &[Month]) -> Markup {
    let (Some(first), Some(last)) = (months.first(), months.last()) else {
        return html! {};
    };
    let max = months.iter().map(|m| m.adjudications).max().unwrap_or(0);
    let total: u64 = months.iter().map(|m| m.adjudications).sum();
    if total == 0 {
        return html! {
            p #restricciones-ninguna {
                "Ninguna adjudicación vigente termina su período de restricción "
                (super::views::meses(first.first, last.first))
                ". Para ver los que terminaron antes, haga el chequeo a una fecha anterior («Chequeo al»)."
            }
        };
    }
    let n = months.len() as u64;
    let slot = (W - 2 * PAD) / n.max(1);
    let room = H - 2 * PAD;
    let base = H - PAD;
    let label = format!(
        "Períodos de restricción que terminan cada mes, {}",
        super::views::meses(first.first, last.first)
    );
    html! {
        figure.grafica.barras {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (H)} role="img" aria-label=(label) {
                line.eje x1=(PAD) y1=(base) x2=(W - PAD) y2=(base) {}
                @for (i, m) in months.iter().enumerate() {
                    @let h = length(m.adjudications, max, room);
                    @let x = PAD + i as u64 * slot;
                    rect.barra x=(x + 2) y=(base - h) width=(slot.saturating_sub(4).max(1)) height=(h) {
                        title {
                            (MESES[m.first.month0() as usize]) " de " (m.first.year()) ": "
                            (views::cuenta(m.adjudications, "adjudicación", "adjudicaciones")) ", " (views::cuenta(m.shares, "acción", "acciones"))
                        }
                    }
                    // every third month; on a phone, whose style sets the text larger, every
                    // sixth (the others are `.entre`), so no label overlaps the next
                    @if i % 6 == 0 {
                        text x=(x + slot / 2) y=(H - 8) text-anchor="middle" { (mes_corto(m)) }
                    } @else if i % 3 == 0 {
                        text.entre x=(x + slot / 2) y=(H - 8) text-anchor="middle" { (mes_corto(m)) }
                    }
                }
                text x="4" y=(PAD - 8) { "máx. " (numero(max)) " por mes" }
            }
            figcaption {
                (label) ": " (views::cuenta(total, "adjudicación", "adjudicaciones")) " en total."
            }
        }
    }
}

/// Horizontal bars, one per `(name, count, class, tooltip)`, the longest `max`: each name on its
/// own line over its bar, so no name is cut by a bar's start at any width; each count after its
/// bar, or inside it (light on dark) when the bar is longer than half the room, so no figure runs
/// past the drawing's right edge however long its bar and however large the text is set (the
/// phone's style sets it larger, the drawing scaled down to the screen).
fn hbars(bars: &[(&str, u64, &str, String)], label: &str) -> Markup {
    let max = bars.iter().map(|b| b.1).max().unwrap_or(0);
    let row = 46u64;
    let height = row * bars.len() as u64 + 4;
    let room = W - 8;
    html! {
        svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (W) " " (height)} role="img" aria-label=(label) {
            @for (i, (name, n, class, tip)) in bars.iter().enumerate() {
                @let y = 4 + i as u64 * row;
                @let l = length(*n, max, room);
                text.nombre x="4" y=(y + 14) { (name) }
                rect class={"barra" @if !class.is_empty() { " " (class) }} x="4" y=(y + 20) width=(l) height="22" {
                    title { (tip) }
                }
                @if l > room / 2 {
                    text.cifra.dentro x=(4 + l - 6) y=(y + 36) text-anchor="end" { (numero(*n)) }
                } @else {
                    text.cifra x=(4 + l + 6) y=(y + 36) { (numero(*n)) }
                }
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
    let bars: Vec<(&str, u64, &str, String)> = (0..3)
        .map(|i| {
            let tip = format!(
                "severidad {}: {}",
                names[i],
                views::cuenta(counts[i], "hallazgo", "hallazgos")
            );
            (names[i], counts[i], classes[i], tip)
        })
        .collect();
    let label = format!("Hallazgos por severidad al {}", fecha(as_of));
    html! {
        figure.grafica.barras {
            (hbars(&bars, &label))
            figcaption { (label) "." }
        }
    }
}

/// The first-stage offer against its valid demand and what was awarded, as horizontal bars, with
/// the pro-rata factor when the demand exceeds the offer (offered ÷ demand, before Art. 12's
/// rounding to whole shares).
pub fn demand(h: &crate::register::offering::Header) -> Markup {
    let bars: Vec<(&str, u64, &str, String)> = [
        ("ofrecidas", h.offered),
        ("demanda válida", h.demand),
        ("adjudicadas", h.awarded),
    ]
    .into_iter()
    .map(|(name, n)| {
        let tip = format!("{name}: {}", views::cuenta(n, "acción", "acciones"));
        (name, n, "", tip)
    })
    .collect();
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
        figure.grafica.barras #demanda {
            (hbars(&bars, &label))
            figcaption {
                (views::with_idents(&label, &[&h.program])) "."
                @if let Some(f) = &factor {
                    " La demanda supera la oferta: factor de prorrata " (f) " (ofrecidas ÷ demanda, antes del redondeo a acciones enteras del art. 12)."
                } @else {
                    " La demanda no supera la oferta: cada aceptación admitida se adjudica entera."
                }
            }
        }
    }
}

/// A fact of a holder's history: its day, its words, the page it links to, and, when it was
/// recorded by mistake and voided, who voided it, when and why (it stays in the history, struck
/// through, as the breach's page shows it).
pub struct Fact {
    pub on: NaiveDate,
    pub what: String,
    pub link: Option<String>,
    pub voided: Option<String>,
    /// The identifiers its words name (a notice's number, a program's code), shown whole.
    pub idents: Vec<String>,
}

impl Fact {
    /// A fact in force.
    pub fn new(on: NaiveDate, what: String, link: Option<String>) -> Fact {
        Fact {
            on,
            what,
            link,
            voided: None,
            idents: Vec::new(),
        }
    }

    /// The fact, its words naming `idents`.
    pub fn naming(self, idents: &[&str]) -> Fact {
        Fact {
            idents: idents.iter().map(|s| s.to_string()).collect(),
            ..self
        }
    }
}

/// A holder's history on a line: each fact a mark at its date (its words as the tooltip, its
/// page as the link), the first and last dates at the ends. The table beside it lists the same.
pub fn timeline(events: &[Fact]) -> Markup {
    let (Some(first), Some(last)) = (
        events.iter().map(|e| e.on).min(),
        events.iter().map(|e| e.on).max(),
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
                @for (i, Fact { on: d, what, link, voided, .. }) in events.iter().enumerate() {
                    // marks of the same day stacked upwards, so none hides another
                    @let same = events[..i].iter().filter(|e| e.on == *d).count() as u64;
                    @let cy = axis.saturating_sub(same * 9);
                    @let said = if voided.is_some() { format!("{what} (ANULADO)") } else { what.clone() };
                    @match link {
                        Some(l) => a href=(l) { circle class=[voided.is_some().then_some("anulado")] cx=(x(*d)) cy=(cy) r="4" { title { (fecha(*d)) ": " (said) } } },
                        None => circle class=[voided.is_some().then_some("anulado")] cx=(x(*d)) cy=(cy) r="4" { title { (fecha(*d)) ": " (said) } },
                    }
                }
                text x=(PAD) y=(height - 12) { (fecha(first)) }
                text x=(W - PAD) y=(height - 12) text-anchor="end" { (fecha(last)) }
            }
            // a phone cannot hover: the caption sends to the table, which says each point's words
            figcaption { "Cada punto es un hecho del registro; " a href="#historia-tabla" { "la tabla de abajo" } " da la fecha y lo que pasó de cada uno (con un ratón, también se lee al pasar el cursor sobre el punto)." }
        }
    }
}

/// A balance's cents as a whole number (balances are whole pesos; a payment may carry cents).
fn cents(v: Decimal) -> i128 {
    (v * Decimal::ONE_HUNDRED).round().to_i128().unwrap_or(0)
}

/// A fine's balance over time as a line through the engine's points (each piece's end, each
/// payment, which is marked), each with its date and balance as a tooltip. The vertical axis
/// starts a little under the lowest balance, so that a small change shows.
pub fn balance(l: &Liquidation) -> Markup {
    let points = l.balance_series();
    // the left margin holds the amounts, written up to the axis
    let (w, h, pad, left) = (i128::from(W as u32), 220i128, 48i128, 96i128);
    let top = points
        .iter()
        .map(|p| p.balance)
        .fold(Decimal::ONE, Decimal::max);
    let lowest = points.iter().map(|p| p.balance).fold(top, Decimal::min);
    let (top_c, lowest_c) = (cents(top).max(100), cents(lowest));
    // 98 % of the lowest, in whole pesos; from zero when that leaves less than a peso of range
    let low_c = (lowest_c * 98 / 100) / 100 * 100;
    let low_c = if top_c - low_c < 100 { 0 } else { low_c };
    let first = l.breach_date;
    let span = i128::from((l.until - first).num_days().max(1));
    let x = |d: NaiveDate| left + i128::from((d - first).num_days()) * (w - left - pad) / span;
    let y = |v: Decimal| (h - pad / 2) - (cents(v) - low_c) * (h - pad) / (top_c - low_c);
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{},{}", x(p.date), y(p.balance)))
        .collect();
    let low = Decimal::from_i128_with_scale(low_c, 2);
    html! {
        figure.grafica #saldo {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (w) " " (h)} role="img"
                aria-label="Saldo de la multa en el tiempo" {
                line.eje x1=(left) y1=(h - pad / 2) x2=(w - pad) y2=(h - pad / 2) {}
                line.eje x1=(left) y1=(pad / 2) x2=(left) y2=(h - pad / 2) {}
                polyline.saldo points=(line.join(" ")) {}
                @for p in &points {
                    circle class=[p.payment.is_some().then_some("pago")] cx=(x(p.date)) cy=(y(p.balance)) r=(if p.payment.is_some() { 5 } else { 3 }) {
                        title {
                            (fecha(p.date)) ": "
                            @if let Some(paid) = p.payment { "pago de " (pesos(paid)) "; queda " }
                            (pesos(p.balance))
                        }
                    }
                }
                text x=(left - 4) y=(pad / 2 + 4) text-anchor="end" { (pesos(top)) }
                text x=(left - 4) y=(h - pad / 2) text-anchor="end" { (pesos(low)) }
                text x=(left) y=(h - 4) { (fecha(first)) }
                text x=(w - pad) y=(h - 4) text-anchor="end" { (fecha(l.until)) }
            }
            figcaption {
                "Saldo (capital más intereses pendientes) del " (fecha(first)) " al " (fecha(l.until))
                @let n = points.iter().filter(|p| p.payment.is_some()).count();
                @if n > 0 { ", con " (views::cuenta(n as u64, "pago marcado", "pagos marcados")) }
                ": " (pesos(l.total_due)) " al final."
            }
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
        // the longest bar (the demand) fills the room, 640 − 8 = 632, its count inside its end;
        // the offer's, 632 × 3.000 ÷ 8.000 = 237, its count after it
        assert!(
            svg.contains(
                "<rect class=\"barra\" x=\"4\" y=\"70\" width=\"632\" height=\"22\">"
            ) && svg.contains(
                "<text class=\"cifra dentro\" x=\"630\" y=\"86\" text-anchor=\"end\">8.000</text>"
            ),
            "{svg}"
        );
        assert!(
            svg.contains("<rect class=\"barra\" x=\"4\" y=\"24\" width=\"237\" height=\"22\">")
                && svg.contains("<text class=\"cifra\" x=\"247\" y=\"40\">3.000</text>"),
            "{svg}"
        );
        let svg = demand(&h(12_960_982, 74_300, 74_300, false)).into_string();
        assert!(svg.contains("no supera la oferta"), "{svg}");
    }

    #[test]
    fn the_timeline_puts_each_fact_at_its_date() {
        let d = |m, day| NaiveDate::from_ymd_opt(2024, m, day).unwrap();
        let svg = timeline(&[
            Fact::new(d(3, 15), "Adjudicación 1".into(), None),
            Fact::new(
                d(11, 20),
                "Incumplimiento 1".into(),
                Some("/incumplimientos/1".into()),
            ),
            Fact::new(d(11, 20), "Otro hecho".into(), None),
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
    fn the_balance_line_is_scaled_in_whole_numbers_from_days_and_cents() {
        use crate::fine::{Convention, FineCase, Outcome, Payment, ReferencePrices, StagePrice};
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let case = FineCase {
            adjudicated: d(2024, 3, 15),
            breach_date: d(2024, 11, 20),
            shares: 1000,
            prices: ReferencePrices {
                acquisition: Decimal::from(963),
                transfer: Some(Decimal::from(1450)),
                stage: StagePrice::Known(Decimal::from(1100)),
            },
            scale: crate::calendar::FineScale::decreto_3939_2004(),
        };
        let paid = [Payment {
            date: d(2024, 12, 15),
            amount: Decimal::from(500_000),
        }];
        let rates = crate::rates::RateSeries::shipped();
        let Outcome::Liquidated(l) = crate::fine::liquidate(
            &case,
            d(2025, 2, 10),
            &paid,
            Convention::DailySimple,
            &rates,
        )
        .unwrap() else {
            panic!("a fine applies")
        };
        let svg = balance(&l).into_string();
        // SPEC §5 with the payment: 82 days over 640 − 96 − 48 = 496 units, x = 96 + days × 496
        // / 82; the balance from 1,105,304 (at the top, y = 24) down to 98 % of the lowest
        // (605,304 → 593,197 pesos, at y = 196) over 172 units. The breach: 1,087,500 →
        // 196 − 49,430,300 × 172 / 51,210,700 = 196 − 166 = 30; the payment's day, 25 days
        // on: x = 96 + 12,400 / 82 = 247, before it at the top, after it (605,304) at
        // 196 − 1,210,700 × 172 / 51,210,700 = 192; the end (626,823): x = 592,
        // y = 196 − 3,362,600 × 172 / 51,210,700 = 185
        assert!(
            svg.contains("points=\"96,30 ")
                && svg.contains(" 247,24 247,192 ")
                && svg.contains(" 592,185\""),
            "{svg}"
        );
        assert!(
            svg.contains("<circle class=\"pago\" cx=\"247\" cy=\"192\" r=\"5\"><title>15/12/2024: pago de $\u{a0}500.000; queda $\u{a0}605.304</title>"),
            "{svg}"
        );
        assert!(svg.contains(">$\u{a0}593.197</text>"), "{svg}");
        assert!(
            svg.contains("1 pago marcado: $\u{a0}626.823 al final."),
            "{svg}"
        );
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
            svg.contains("marzo de 2026: 6 adjudicaciones, 74.900 acciones"),
            "{svg}"
        );
        // the tallest bar fills the room (200 − 2 × 32 = 136), the half one half of it
        assert!(svg.contains("height=\"136\""), "{svg}");
        assert!(svg.contains("height=\"68\""), "{svg}");
        assert!(
            svg.contains("terminan cada mes, de febrero a abril de 2026"),
            "{svg}"
        );
        assert!(svg.contains("9 adjudicaciones en total"), "{svg}");
    }
}
