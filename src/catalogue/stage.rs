//! What the register finds when it recomputes a later stage's conclusion or draw from its
//! records (`register::stage::Discrepancy`, `DrawDiscrepancy`), worded in English and in Spanish
//! (es-CO figures): the command line's `stage verify` and `stage draw --verify` and the web's
//! stage pages say it alike.

use crate::lang::{Lang, numero};
use crate::money::{format_cop, format_number, format_percent};
use crate::register::stage as rules;

/// `none`, or the value.
fn or_none<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "none".into(), |x| x.to_string())
}

/// A recorded draw's difference from its recomputation, in the command line's words.
fn draw_discrepancy_en(d: &rules::DrawDiscrepancy) -> String {
    use rules::DrawDiscrepancy as D;
    match d {
        D::NoTie { tranche } => format!("the register shows no tie in tranche {tranche} any more"),
        D::Text { hashed, recomputed } => {
            format!("the text hashed was {hashed:?}; the record gives {recomputed:?}")
        }
        D::Digest {
            recorded,
            recomputed,
        } => format!("the digest recorded is {recorded}; SHA-256 gives {recomputed}"),
        D::NumberAndPlace {
            number,
            place,
            recomputed_number,
            recomputed_place,
        } => format!(
            "the number and place recorded are {number} and {place}; recomputed {recomputed_number} and \
             {recomputed_place}"
        ),
        D::Winner {
            recorded,
            recomputed,
        } => format!("the winner recorded is {recorded}; the draw gives {recomputed}"),
    }
}

/// A stage's stored conclusion's difference from its records, in the command line's words.
fn discrepancy_en(d: &rules::Discrepancy) -> String {
    use rules::Discrepancy as D;
    match d {
        D::AwardCount { awards, tranches } => format!(
            "the conclusion records {awards} tranche award(s); the stage has {tranches} tranche(s)"
        ),
        D::NoAward { tranche: t } => format!("tranche {t} has no stored award"),
        D::Shares {
            tranche: t,
            recorded,
            offered,
        } => format!(
            "tranche {t}: the award records {recorded} shares; the tranche offers {offered}"
        ),
        D::StillTied {
            tranche: t,
            between,
        } => format!(
            "tranche {t}: the stored proposals are tied between {}, but the conclusion records a decision",
            between.join(", ")
        ),
        D::WinnerOfNone { tranche: t } => format!(
            "tranche {t}: the stored proposals give no valid one, but the award names a winner"
        ),
        D::OtherWinner { tranche: t, winner } => format!(
            "tranche {t}: the stored proposals give {winner} as the winner, but the award records another"
        ),
        D::Price {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records the price {}; the proposals give {given}",
            or_none(*recorded)
        ),
        D::Value {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records the value {}; the criterion gives {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::Draw {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records draw {}; the register gives {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::Rate {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records a rate of {recorded} % EA; the criterion gives {}",
            given.map_or_else(|| "none".into(), |g| format!("{g} % EA"))
        ),
        D::Awarded { recorded, sum } => {
            format!("the conclusion records {recorded} shares awarded; its awards add up to {sum}")
        }
        D::NotAddingUp {
            offered,
            awarded,
            leftover,
        } => format!(
            "the conclusion records {offered} offered, {awarded} awarded and {leftover} left over, which do \
             not add up"
        ),
        D::StagePrice { recorded, given } => format!(
            "the conclusion records the stage price {}; its awards give {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::DrawRecord {
            draw,
            tranche,
            found,
        } => format!(
            "draw {draw} (tranche {tranche}): {}",
            draw_discrepancy_en(found)
        ),
    }
}

/// A recorded draw's difference from its recomputation, in `lang`.
pub fn draw_discrepancy(lang: Lang, d: &rules::DrawDiscrepancy) -> String {
    match lang {
        Lang::En => draw_discrepancy_en(d),
        Lang::Es => draw_discrepancy_es(d),
    }
}

/// A stage's stored conclusion's difference from its records, in `lang`.
pub fn discrepancy(lang: Lang, d: &rules::Discrepancy) -> String {
    match lang {
        Lang::En => discrepancy_en(d),
        Lang::Es => discrepancy_es(d),
    }
}

/// `ninguno`, or the value as es-CO writes it.
fn o_ninguno<T>(x: Option<T>, shown: impl Fn(T) -> String) -> String {
    x.map_or_else(|| "ninguno".into(), shown)
}

pub(crate) fn acciones(n: u64) -> String {
    format!("{} acciones", numero(n))
}

fn draw_discrepancy_es(d: &rules::DrawDiscrepancy) -> String {
    use rules::DrawDiscrepancy as D;
    match d {
        D::NoTie { tranche } => {
            format!("el registro ya no muestra empate en el tramo {tranche}")
        }
        D::Text { hashed, recomputed } => {
            format!("el texto resumido fue {hashed:?}; el registro da {recomputed:?}")
        }
        D::Digest {
            recorded,
            recomputed,
        } => format!("el resumen registrado es {recorded}; SHA-256 da {recomputed}"),
        D::NumberAndPlace {
            number,
            place,
            recomputed_number,
            recomputed_place,
        } => format!(
            "el número y el puesto registrados son {number} y {place}; recalculados, \
             {recomputed_number} y {recomputed_place}"
        ),
        D::Winner {
            recorded,
            recomputed,
        } => format!("el ganador registrado es {recorded}; el sorteo da {recomputed}"),
    }
}

fn discrepancy_es(d: &rules::Discrepancy) -> String {
    use rules::Discrepancy as D;
    match d {
        D::AwardCount { awards, tranches } => format!(
            "la conclusión registra {} de tramo; la etapa tiene {}",
            crate::lang::cuenta(*awards as u64, "adjudicación", "adjudicaciones"),
            crate::lang::cuenta(*tranches as u64, "tramo", "tramos")
        ),
        D::NoAward { tranche: t } => format!("el tramo {t} no tiene adjudicación guardada"),
        D::Shares {
            tranche: t,
            recorded,
            offered,
        } => format!(
            "tramo {t}: la adjudicación registra {}; el tramo ofrece {}",
            acciones(*recorded),
            acciones(*offered)
        ),
        D::StillTied {
            tranche: t,
            between,
        } => format!(
            "tramo {t}: las propuestas guardadas están empatadas entre {}, pero la conclusión \
             registra una decisión",
            between.join(", ")
        ),
        D::WinnerOfNone { tranche: t } => format!(
            "tramo {t}: las propuestas guardadas no dan ninguna válida, pero la adjudicación nombra \
             un ganador"
        ),
        D::OtherWinner { tranche: t, winner } => format!(
            "tramo {t}: las propuestas guardadas dan como ganador a {winner}, pero la adjudicación \
             registra otro"
        ),
        D::Price {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el precio {}; las propuestas dan {}",
            o_ninguno(*recorded, format_cop),
            format_cop(*given)
        ),
        D::Value {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el valor {}; el criterio da {}",
            o_ninguno(*recorded, format_number),
            o_ninguno(*given, format_number)
        ),
        D::Draw {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el sorteo {}; el registro da {}",
            o_ninguno(*recorded, |n| format!("N.º {n}")),
            o_ninguno(*given, |n| format!("N.º {n}"))
        ),
        D::Rate {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra una tasa de {} EA; el criterio da {}",
            format_percent(*recorded),
            o_ninguno(*given, |g| format!("{} EA", format_percent(g)))
        ),
        D::Awarded { recorded, sum } => format!(
            "la conclusión registra {} adjudicadas; sus adjudicaciones suman {}",
            acciones(*recorded),
            numero(*sum)
        ),
        D::NotAddingUp {
            offered,
            awarded,
            leftover,
        } => format!(
            "la conclusión registra {} ofrecidas, {} adjudicadas y {} sobrantes, que no cuadran",
            numero(*offered),
            numero(*awarded),
            numero(*leftover)
        ),
        D::StagePrice { recorded, given } => format!(
            "la conclusión registra el precio de la etapa {}; sus adjudicaciones dan {}",
            o_ninguno(*recorded, format_cop),
            o_ninguno(*given, format_cop)
        ),
        D::DrawRecord {
            draw,
            tranche,
            found,
        } => format!(
            "sorteo N.º {draw} (tramo {tranche}): {}",
            draw_discrepancy_es(found)
        ),
    }
}

/// A stage proposal's cause of rejection in Spanish words (the stage page, the acta's table);
/// its code (`Cause::code`) stays for machines (the command line's CSV and JSON).
pub fn cause_es(c: &crate::offering::stage::Cause) -> String {
    use crate::offering::stage::Cause;
    match c {
        Cause::OutsideWindow => "presentada fuera de las fechas del tramo".into(),
        Cause::BelowMinimumPrice => "precio por debajo del mínimo".into(),
        Cause::TermTooLong => "plazo de pago mayor que el permitido".into(),
        Cause::NotWholeBlock => {
            "no es por la totalidad de las acciones del tramo (Todo o Nada)".into()
        }
        Cause::SameBidder => "un proponente o beneficiario real en más de una propuesta".into(),
        Cause::NoGuarantee => "sin garantía de seriedad suficiente".into(),
        Cause::FundsNotAccredited => "origen de los fondos no acreditado".into(),
        Cause::Review(code) => format!("causal registrada en la revisión ({code})"),
    }
}

/// Under `stage evaluate`'s Spanish table, what each cause its rows name (`used`, by code)
/// means: vigia's own in their order, then those the staff recorded on review, each as
/// «CÓDIGO: palabras» (the stage page's and the acta's words, [`cause_es`]).
pub fn causes_legend_es(used: &std::collections::BTreeSet<String>) -> Vec<String> {
    use crate::offering::stage::Cause;
    let own = Cause::BUILT_IN
        .iter()
        .filter(|c| used.contains(c.code()))
        .map(|c| format!("{}: {}", c.code(), cause_es(c)));
    let review = used
        .iter()
        .filter(|code| matches!(Cause::from_code(code), Cause::Review(_)))
        .map(|code| format!("{code}: causal registrada en la revisión"));
    own.chain(review).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    #[test]
    fn spanish_discrepancies_write_es_co_figures() {
        // worked by hand: 1.500 and 2.000 acciones; $ 1.450,50 with es-CO separators
        assert_eq!(
            discrepancy(
                Lang::Es,
                &rules::Discrepancy::Shares {
                    tranche: 2,
                    recorded: 1500,
                    offered: 2000
                }
            ),
            "tramo 2: la adjudicación registra 1.500 acciones; el tramo ofrece 2.000 acciones"
        );
        assert_eq!(
            discrepancy(
                Lang::Es,
                &rules::Discrepancy::Price {
                    tranche: 1,
                    recorded: None,
                    given: Decimal::new(145050, 2)
                }
            ),
            "tramo 1: la adjudicación registra el precio ninguno; las propuestas dan $ 1.450,50"
        );
        assert_ne!(
            discrepancy(Lang::En, &rules::Discrepancy::NoAward { tranche: 1 }),
            discrepancy(Lang::Es, &rules::Discrepancy::NoAward { tranche: 1 })
        );
    }
}
