//! How the web words what the register finds when it recomputes a stage's conclusion or a draw
//! from its records (`register::stage::Discrepancy`, `DrawDiscrepancy`): in Spanish, amounts and
//! counts the es-CO way.

use crate::lang::numero;
use crate::money::{format_cop, format_number};
use crate::register::stage as rules;
use rust_decimal::Decimal;

fn o_ninguno<T>(x: Option<T>, f: impl Fn(T) -> String) -> String {
    x.map_or_else(|| "ninguno".into(), f)
}

/// A recorded draw's difference from its recomputation.
pub fn diferencia_sorteo(d: &rules::DrawDiscrepancy) -> String {
    use rules::DrawDiscrepancy as D;
    match d {
        D::NoTie { tranche } => {
            format!("el registro ya no muestra un empate en el tramo {tranche}")
        }
        D::Text { hashed, recomputed } => {
            format!(
                "el texto con el que se calculó el hash fue «{hashed}»; el registro da «{recomputed}»"
            )
        }
        D::Digest {
            recorded,
            recomputed,
        } => {
            format!("el hash registrado es {recorded}; SHA-256 da {recomputed}")
        }
        D::NumberAndPlace {
            number,
            place,
            recomputed_number,
            recomputed_place,
        } => format!(
            "el número y el puesto registrados son {number} y {place}; recalculados, {recomputed_number} y \
             {recomputed_place}"
        ),
        D::Winner {
            recorded,
            recomputed,
        } => {
            format!("el ganador registrado es {recorded}; el sorteo da {recomputed}")
        }
    }
}

/// A stage's stored conclusion's difference from its records.
pub fn discrepancia(d: &rules::Discrepancy) -> String {
    use rules::Discrepancy as D;
    let pesos = |x: Decimal| format_cop(x);
    match d {
        D::AwardCount { awards, tranches } => format!(
            "la conclusión registra {awards} adjudicación(es) de tramo; la etapa tiene {tranches} tramo(s)"
        ),
        D::NoAward { tranche: t } => format!("el tramo {t} no tiene adjudicación registrada"),
        D::Shares {
            tranche: t,
            recorded,
            offered,
        } => format!(
            "tramo {t}: la adjudicación registra {} acciones; el tramo ofrece {}",
            numero(*recorded),
            numero(*offered)
        ),
        D::StillTied {
            tranche: t,
            between,
        } => format!(
            "tramo {t}: las propuestas registradas están empatadas entre {}, pero la conclusión registra una \
             decisión",
            between.join(", ")
        ),
        D::WinnerOfNone { tranche: t } => format!(
            "tramo {t}: ninguna propuesta registrada es válida, pero la adjudicación nombra un ganador"
        ),
        D::OtherWinner { tranche: t, winner } => format!(
            "tramo {t}: las propuestas registradas dan como ganadora a {winner}, pero la adjudicación registra otra"
        ),
        D::Price {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el precio {}; las propuestas dan {}",
            o_ninguno(*recorded, pesos),
            pesos(*given)
        ),
        D::Value {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el valor {}; el criterio da {}",
            o_ninguno(*recorded, pesos),
            o_ninguno(*given, pesos)
        ),
        D::Draw {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra el sorteo {}; el registro da {}",
            o_ninguno(*recorded, |x| x.to_string()),
            o_ninguno(*given, |x| x.to_string())
        ),
        D::Rate {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tramo {t}: la adjudicación registra una tasa de {} % EA; el criterio da {}",
            format_number(*recorded),
            o_ninguno(*given, |g| format!("{} % EA", format_number(g)))
        ),
        D::Awarded { recorded, sum } => format!(
            "la conclusión registra {} acciones adjudicadas; sus adjudicaciones suman {}",
            numero(*recorded),
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
            "la conclusión registra el precio de etapa {}; sus adjudicaciones dan {}",
            o_ninguno(*recorded, pesos),
            o_ninguno(*given, pesos)
        ),
        D::DrawRecord {
            draw,
            tranche,
            found,
        } => {
            format!(
                "sorteo N.º {draw} (tramo {tranche}): {}",
                diferencia_sorteo(found)
            )
        }
    }
}
