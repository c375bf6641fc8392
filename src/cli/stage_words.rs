//! How the command line words what `stage verify` and `stage draw --verify` find: a stage's
//! conclusion or a draw that differs from its records (the rules return typed findings), and
//! the lines `stage acta` and `stage verify` print, in English and in Spanish (es-CO figures).

use crate::lang::{Lang, fecha, numero};
use crate::later_stages::Stage;
use crate::money::{format_cop, format_number, format_percent};
use crate::register::stage as rules;
use crate::store::stage::{Conclusion, Kind};
use chrono::NaiveDate;

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
pub(super) fn draw_discrepancy(lang: Lang, d: &rules::DrawDiscrepancy) -> String {
    match lang {
        Lang::En => draw_discrepancy_en(d),
        Lang::Es => draw_discrepancy_es(d),
    }
}

/// A stage's stored conclusion's difference from its records, in `lang`.
pub(super) fn discrepancy(lang: Lang, d: &rules::Discrepancy) -> String {
    match lang {
        Lang::En => discrepancy_en(d),
        Lang::Es => discrepancy_es(d),
    }
}

/// `ninguno`, or the value as es-CO writes it.
fn o_ninguno<T>(x: Option<T>, shown: impl Fn(T) -> String) -> String {
    x.map_or_else(|| "ninguno".into(), shown)
}

fn acciones(n: u64) -> String {
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
            "la conclusión registra {awards} adjudicación(es) de tramo; la etapa tiene {tranches} \
             tramo(s)"
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

/// A line `stage acta`, `stage verify` and `stage draw --verify` print.
pub(super) enum Line<'a> {
    /// A draw that differs from its recomputation.
    DrawNotVerified {
        draw: i64,
        stage: Stage,
        code: &'a str,
        tranche: u32,
        found: &'a [rules::DrawDiscrepancy],
    },
    /// The acta written, of which conclusion.
    ActaWritten {
        stage: Stage,
        code: &'a str,
        conclusion: &'a Conclusion,
        path: &'a str,
    },
    /// A conclusion that differs from its records.
    StageNotVerified {
        stage: Stage,
        code: &'a str,
        conclusion: i64,
        found: &'a rules::Discrepancy,
    },
    /// The acta matches the register; `anchor`: the audit event recording the conclusion.
    Verified {
        stage: Stage,
        code: &'a str,
        conclusion: &'a Conclusion,
        anchor: Option<(u64, &'a str)>,
    },
}

fn decided_en(k: &Conclusion) -> String {
    match (k.kind, k.price) {
        (Kind::Adjudicated, Some(price)) => format!(
            "adjudicated on {}: {} of {} shares at {} per share",
            k.decided_on,
            k.awarded,
            k.offered,
            format_cop(price)
        ),
        _ => format!(
            "declared void on {}: {} shares unsold",
            k.decided_on, k.leftover
        ),
    }
}

fn decided_es(k: &Conclusion) -> String {
    match (k.kind, k.price) {
        (Kind::Adjudicated, Some(price)) => format!(
            "adjudicada el {}: {} de {} a {} por acción",
            fecha(k.decided_on),
            numero(k.awarded),
            acciones(k.offered),
            format_cop(price)
        ),
        _ => format!(
            "declarada desierta el {}: {} sin vender",
            fecha(k.decided_on),
            acciones(k.leftover)
        ),
    }
}

fn kind_es(kind: Kind, on: NaiveDate) -> String {
    match kind {
        Kind::Adjudicated => format!("adjudicada el {}", fecha(on)),
        Kind::Desert => format!("declarada desierta el {}", fecha(on)),
    }
}

/// The line in `lang`.
pub(super) fn line(lang: Lang, l: &Line<'_>) -> String {
    match (lang, l) {
        (
            _,
            Line::DrawNotVerified {
                draw,
                stage,
                code,
                tranche,
                found,
            },
        ) => {
            let found = found
                .iter()
                .map(|d| draw_discrepancy(lang, d))
                .collect::<Vec<_>>()
                .join("; ");
            match lang {
                Lang::En => format!(
                    "NOT VERIFIED: draw {draw} of stage {stage} of {code}, tranche {tranche}: {found}"
                ),
                Lang::Es => format!(
                    "NO VERIFICADO: sorteo N.º {draw} de la etapa {stage} de {code}, tramo \
                     {tranche}: {found}"
                ),
            }
        }
        (
            Lang::En,
            Line::ActaWritten {
                stage,
                code,
                conclusion: k,
                path,
            },
        ) => format!(
            "acta of stage {stage} of {code} (conclusion {}, {} on {}) -> {path}",
            k.id,
            k.kind.as_str(),
            k.decided_on
        ),
        (
            Lang::Es,
            Line::ActaWritten {
                stage,
                code,
                conclusion: k,
                path,
            },
        ) => format!(
            "acta de la etapa {stage} de {code} (conclusión N.º {}, {}) -> {path}",
            k.id,
            kind_es(k.kind, k.decided_on)
        ),
        (
            Lang::En,
            Line::StageNotVerified {
                stage,
                code,
                conclusion,
                found,
            },
        ) => format!(
            "NOT VERIFIED: stage {stage} of {code} (conclusion {conclusion}): {}; run `vigia audit \
             verify`",
            discrepancy(Lang::En, found)
        ),
        (
            Lang::Es,
            Line::StageNotVerified {
                stage,
                code,
                conclusion,
                found,
            },
        ) => format!(
            "NO VERIFICADO: etapa {stage} de {code} (conclusión N.º {conclusion}): {}; ejecute \
             `vigia audit verify`",
            discrepancy(Lang::Es, found)
        ),
        (
            Lang::En,
            Line::Verified {
                stage,
                code,
                conclusion: k,
                anchor,
            },
        ) => format!(
            "verified: acta of stage {stage} of {code} (conclusion {}, {}); {}",
            k.id,
            decided_en(k),
            match anchor {
                None =>
                    "the register holds no audit event for it: run `vigia audit verify`".to_string(),
                Some((count, hash)) => format!(
                    "its records carry no fingerprint; the audit event recording it (event \
                     {count}) has SHA-256 {hash}: check it against the chain with `vigia audit \
                     verify` and `vigia audit log --entity stage_conclusions --id {}`",
                    k.id
                ),
            }
        ),
        (
            Lang::Es,
            Line::Verified {
                stage,
                code,
                conclusion: k,
                anchor,
            },
        ) => format!(
            "verificada: acta de la etapa {stage} de {code} (conclusión N.º {}, {}); {}",
            k.id,
            decided_es(k),
            match anchor {
                None => "el registro no tiene evento de auditoría que la registre: ejecute \
                         `vigia audit verify`"
                    .to_string(),
                Some((count, hash)) => format!(
                    "sus registros no llevan huella; el evento de auditoría que la registra \
                     (evento N.º {count}) tiene SHA-256 {hash}: cotéjelo con la cadena con \
                     `vigia audit verify` y `vigia audit log --entity stage_conclusions --id {}`",
                    k.id
                ),
            }
        ),
    }
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
        let k = Conclusion {
            id: 1,
            stage: Stage::Second,
            kind: Kind::Adjudicated,
            decided_on: NaiveDate::from_ymd_opt(2024, 6, 28).unwrap(),
            offered: 12_886_682,
            awarded: 12_886_682,
            leftover: 0,
            price: Some(Decimal::new(1100, 0)),
            stage_price_id: None,
            created_at: String::new(),
            created_by: String::new(),
        };
        let written = Line::ActaWritten {
            stage: Stage::Second,
            code: "D3939-2004",
            conclusion: &k,
            path: "acta.md",
        };
        assert_eq!(
            line(Lang::Es, &written),
            "acta de la etapa 2 de D3939-2004 (conclusión N.º 1, adjudicada el 28/06/2024) -> acta.md"
        );
        assert_eq!(
            line(Lang::En, &written),
            "acta of stage 2 of D3939-2004 (conclusion 1, adjudicated on 2024-06-28) -> acta.md"
        );
        assert_ne!(
            discrepancy(Lang::En, &rules::Discrepancy::NoAward { tranche: 1 }),
            discrepancy(Lang::Es, &rules::Discrepancy::NoAward { tranche: 1 })
        );
    }
}
