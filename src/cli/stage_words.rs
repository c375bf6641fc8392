//! The lines `stage acta`, `stage verify`, `stage draw --verify` and `offer verify` print, in
//! English and in Spanish (es-CO figures); each difference found is worded by `catalogue::stage`.

use crate::catalogue::stage::{acciones, discrepancy, draw_discrepancy};
use crate::catalogue::verification::acta_difference;
use crate::lang::{Lang, fecha, numero};
use crate::later_stages::Stage;
use crate::money::format_cop;
use crate::register::stage as rules;
use crate::report::acta::Difference;
use crate::store::stage::{Conclusion, Kind};
use chrono::NaiveDate;

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
    /// A document (an acta of either stage) that departs from a fresh rendering of the register.
    DocumentDiffers(&'a Difference),
    /// A first-stage run whose stored outcomes no longer give the fingerprint it recorded.
    RunFingerprint {
        run: i64,
        code: &'a str,
        recomputed: &'a str,
        recorded: &'a str,
    },
    /// The acta matches the register; `anchor`: the audit event recording the conclusion;
    /// `text_only` when its file is none vigia wrote (said before it: the line then says the
    /// text's match, not «verificada»).
    Verified {
        stage: Stage,
        code: &'a str,
        conclusion: &'a Conclusion,
        anchor: Option<(u64, &'a str)>,
        text_only: bool,
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
        (Lang::En, Line::DocumentDiffers(d)) => {
            format!("NOT VERIFIED: {}", acta_difference(lang, d))
        }
        (Lang::Es, Line::DocumentDiffers(d)) => {
            format!("NO VERIFICADO: {}", acta_difference(lang, d))
        }
        (
            Lang::En,
            Line::RunFingerprint {
                run,
                code,
                recomputed,
                recorded,
            },
        ) => format!(
            "NOT VERIFIED: run {run} of {code}: its stored outcomes give fingerprint {recomputed}, \
             but the run recorded {recorded}; run `vigia audit verify`"
        ),
        (
            Lang::Es,
            Line::RunFingerprint {
                run,
                code,
                recomputed,
                recorded,
            },
        ) => format!(
            "NO VERIFICADO: la adjudicación N.º {run} de {code}: sus resultados guardados dan la \
             huella {recomputed}, pero la adjudicación registró {recorded}; ejecute `vigia audit \
             verify`"
        ),
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
                    "NO VERIFICADO: sorteo N.º {draw} de la {etapa} Etapa de {code}, tramo \
                     {tranche}: {found}",
                    etapa = stage.name_es()
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
            "acta de la {etapa} Etapa de {code} (conclusión N.º {}, {}) -> {path}",
            k.id,
            kind_es(k.kind, k.decided_on),
            etapa = stage.name_es()
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
            "NO VERIFICADO: {etapa} Etapa de {code} (conclusión N.º {conclusion}): {}; ejecute \
             `vigia audit verify`",
            discrepancy(Lang::Es, found),
            etapa = stage.name_es()
        ),
        (
            Lang::En,
            Line::Verified {
                stage,
                code,
                conclusion: k,
                anchor,
                text_only,
            },
        ) => format!(
            "{}: acta of stage {stage} of {code} (conclusion {}, {}); {}",
            if *text_only { "text" } else { "verified" },
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
                text_only,
            },
        ) => format!(
            "{}: acta de la {etapa} Etapa de {code} (conclusión N.º {}, {}); {}",
            if *text_only { "texto" } else { "verificada" },
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
            },
            etapa = stage.name_es()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    #[test]
    fn the_acta_line_names_its_conclusion_in_each_language() {
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
            "acta de la Segunda Etapa de D3939-2004 (conclusión N.º 1, adjudicada el 28/06/2024) -> acta.md"
        );
        assert_eq!(
            line(Lang::En, &written),
            "acta of stage 2 of D3939-2004 (conclusion 1, adjudicated on 2024-06-28) -> acta.md"
        );
    }
}
