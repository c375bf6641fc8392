//! What `rates import-sfc` says about the Superintendencia's history it read, in each language:
//! the lines are facts ([`SfcLine`]); [`en`] and [`es`] word them (the Spanish with es-CO dates,
//! counts and percentages).

use crate::lang::{Lang, fecha, numero};
use crate::money::format_percent;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A period the file certifies, as the plan lists it.
#[derive(Debug, Clone, Copy)]
pub struct Period<'a> {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub ibc: Option<Decimal>,
    pub moratorium: Decimal,
    pub resolution: &'a str,
}

/// Where a superseded period in force came from.
#[derive(Debug, Clone, Copy)]
pub enum InForce {
    Shipped,
    Register(i64),
}

/// One line of the import's plan.
#[derive(Debug, Clone, Copy)]
pub enum SfcLine<'a> {
    Read {
        name: &'a str,
        certifications: u64,
        other_rows: u64,
    },
    LeftOut {
        count: u64,
        first_date: NaiveDate,
        resolution: &'a str,
        from: NaiveDate,
        to: NaiveDate,
    },
    Cut {
        earlier: &'a str,
        earlier_from: NaiveDate,
        file_to: NaiveDate,
        governs_to: NaiveDate,
        by: &'a str,
        by_from: NaiveDate,
        by_to: NaiveDate,
    },
    Unchanged {
        count: u64,
    },
    KeptResolution {
        from: NaiveDate,
        to: NaiveDate,
        in_force: &'a str,
        file: &'a str,
    },
    New {
        count: u64,
        dry_run: bool,
    },
    Adds(Period<'a>),
    Supersede {
        count: u64,
    },
    Supersedes {
        from: NaiveDate,
        to: NaiveDate,
        ibc: Option<Decimal>,
        resolution: &'a str,
        origin: InForce,
        by: Period<'a>,
    },
    BeforeLey510 {
        count: u64,
        ley_510: NaiveDate,
    },
}

/// The line in `lang`.
pub fn word(lang: Lang, line: &SfcLine<'_>) -> String {
    match lang {
        Lang::En => en(line),
        Lang::Es => es(line),
    }
}

fn period_en(p: &Period<'_>) -> String {
    format!(
        "{}..{} IBC {} % → moratorium {} % EA ({})",
        p.from,
        p.to,
        p.ibc.map_or("-".to_string(), |i| i.to_string()),
        p.moratorium,
        p.resolution
    )
}

fn period_es(p: &Period<'_>) -> String {
    format!(
        "del {} al {}: IBC {} → moratoria {} EA ({})",
        fecha(p.from),
        fecha(p.to),
        p.ibc.map_or("—".to_string(), format_percent),
        format_percent(p.moratorium),
        res(p.resolution)
    )
}

/// In English, the command line's words.
pub fn en(line: &SfcLine<'_>) -> String {
    match line {
        SfcLine::Read {
            name,
            certifications,
            other_rows,
        } => format!(
            "{name}: {certifications} certification(s) of the series (bancario corriente to 2006, \
             consumo and crédito comercial y de consumo in January–March 2007, crédito de consumo y \
             ordinario from April 2007); {other_rows} row(s) of other modalities left aside"
        ),
        SfcLine::LeftOut {
            count,
            first_date,
            resolution,
            from,
            to,
        } => format!(
            "left out: {count} certification(s) that start before {first_date} (vigia reads no \
             earlier date), the last {resolution} for {from}..{to}"
        ),
        SfcLine::Cut {
            earlier,
            earlier_from,
            file_to,
            governs_to,
            by,
            by_from,
            by_to,
        } => format!(
            "cut: {earlier} ({earlier_from}..{file_to}) governs to {governs_to}: {by} certified \
             {by_from}..{by_to} after it"
        ),
        SfcLine::Unchanged { count } => format!(
            "unchanged: {count} period(s) in force with the same days and IBC (their published \
             usury figures stay)"
        ),
        SfcLine::KeptResolution {
            from,
            to,
            in_force,
            file,
        } => format!(
            "  {from}..{to}: in force as {in_force}, the file says {file} (kept as in force)"
        ),
        SfcLine::New { count, dry_run } => format!(
            "new: {count} period(s) ({}; moratorium 1.5 × IBC: the history prints no usury figure)",
            if *dry_run { "would add" } else { "adds" }
        ),
        SfcLine::Adds(p) => format!("  {}", period_en(p)),
        SfcLine::Supersede { count } => {
            format!("supersede: {count} period(s) in force certified differently by the file")
        }
        SfcLine::Supersedes {
            from,
            to,
            ibc,
            resolution,
            origin,
            by,
        } => format!(
            "  {from}..{to} IBC {} ({resolution}, {}) → {}",
            ibc.map_or("-".to_string(), |i| i.to_string()),
            match origin {
                InForce::Shipped => "embedded series".to_string(),
                InForce::Register(id) => format!("register rate {id}"),
            },
            period_en(by)
        ),
        SfcLine::BeforeLey510 { count, ley_510 } => format!(
            "  warning: {count} period(s) start before {ley_510} (Ley 510 de 1999 art. 111): 1.5 × \
             IBC was not yet the statutory moratorium rate then (it amended C.Co. art. 884); check \
             before liquidating over them"
        ),
    }
}

/// `1 período`, `249 períodos`.
pub(crate) fn periodos(n: u64) -> String {
    match n {
        1 => "1 período".to_string(),
        n => format!("{} períodos", numero(n)),
    }
}

fn certificaciones(n: u64) -> String {
    match n {
        1 => "1 certificación".to_string(),
        n => format!("{} certificaciones", numero(n)),
    }
}

/// En español, con fechas, cifras y porcentajes es-CO.
/// A resolution's citation in Spanish words and dates ([`crate::rates::resolution_es`]).
fn res(resolution: &str) -> String {
    crate::rates::resolution_es(resolution)
}

pub fn es(line: &SfcLine<'_>) -> String {
    match line {
        SfcLine::Read {
            name,
            certifications,
            other_rows,
        } => format!(
            "{name}: {} de la serie (bancario corriente hasta 2006; consumo y crédito comercial y \
             de consumo en enero–marzo de 2007; crédito de consumo y ordinario desde abril de \
             2007); {} de otras modalidades no se usan",
            certificaciones(*certifications),
            match other_rows {
                1 => "1 fila".to_string(),
                n => format!("{} filas", numero(*n)),
            }
        ),
        SfcLine::LeftOut {
            count,
            first_date,
            resolution,
            from,
            to,
        } => format!(
            "no se toman: {} que empiezan antes del {} (vigia no lee fechas anteriores); la \
             última, {}, del {} al {}",
            certificaciones(*count),
            fecha(*first_date),
            res(resolution),
            fecha(*from),
            fecha(*to)
        ),
        SfcLine::Cut {
            earlier,
            earlier_from,
            file_to,
            governs_to,
            by,
            by_from,
            by_to,
        } => format!(
            "recorte: {} (del {} al {}) rige hasta el {}: {} certificó del {} al {} \
             después",
            res(earlier),
            fecha(*earlier_from),
            fecha(*file_to),
            fecha(*governs_to),
            res(by),
            fecha(*by_from),
            fecha(*by_to)
        ),
        SfcLine::Unchanged { count } => format!(
            "sin cambios: {} vigentes con los mismos días e IBC (sus cifras de usura publicadas \
             se conservan)",
            periodos(*count)
        ),
        SfcLine::KeptResolution {
            from,
            to,
            in_force,
            file,
        } => format!(
            "  del {} al {}: vigente como {}, el archivo dice {} (se conserva la \
             vigente)",
            fecha(*from),
            fecha(*to),
            res(in_force),
            res(file)
        ),
        SfcLine::New { count, dry_run } => format!(
            "nuevos: {} ({}; moratoria 1,5 × IBC: el histórico no publica cifra de usura)",
            periodos(*count),
            if *dry_run {
                "se agregarían"
            } else {
                "se agregan"
            }
        ),
        SfcLine::Adds(p) => format!("  {}", period_es(p)),
        SfcLine::Supersede { count } => format!(
            "reemplazos: {} vigentes que el archivo certifica de otra forma",
            periodos(*count)
        ),
        SfcLine::Supersedes {
            from,
            to,
            ibc,
            resolution,
            origin,
            by,
        } => format!(
            "  del {} al {}: IBC {} ({}, {}) → {}",
            fecha(*from),
            fecha(*to),
            ibc.map_or("—".to_string(), format_percent),
            res(resolution),
            match origin {
                InForce::Shipped => "serie incluida en vigia".to_string(),
                InForce::Register(id) => format!("tasa N.º {id} del registro"),
            },
            period_es(by)
        ),
        SfcLine::BeforeLey510 { count, ley_510 } => format!(
            "  advertencia: {} empiezan antes del {} (Ley 510 de 1999 art. 111): 1,5 × IBC aún \
             no era la tasa moratoria legal (modificó el art. 884 del C. Co.); revíselos antes de \
             liquidar sobre ellos",
            periodos(*count),
            fecha(*ley_510)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn every_line_is_worded_in_both_languages_and_spanish_dates_are_dd_mm_aaaa() {
        let p = Period {
            from: day("1998-12-01"),
            to: day("1998-12-31"),
            ibc: Some(Decimal::new(4771, 2)),
            moratorium: Decimal::new(71565, 3),
            resolution: "SB Res. 2384 de 1998",
        };
        let (a, b) = (day("2017-07-01"), day("2017-09-30"));
        let lines = [
            SfcLine::Read {
                name: "h.csv",
                certifications: 310,
                other_rows: 1,
            },
            SfcLine::LeftOut {
                count: 16,
                first_date: day("1990-01-01"),
                resolution: "r",
                from: a,
                to: b,
            },
            SfcLine::Cut {
                earlier: "r",
                earlier_from: a,
                file_to: b,
                governs_to: b,
                by: "s",
                by_from: a,
                by_to: b,
            },
            SfcLine::Unchanged { count: 243 },
            SfcLine::KeptResolution {
                from: a,
                to: b,
                in_force: "r",
                file: "s",
            },
            SfcLine::New {
                count: 1,
                dry_run: true,
            },
            SfcLine::Adds(p),
            SfcLine::Supersede { count: 0 },
            SfcLine::Supersedes {
                from: a,
                to: b,
                ibc: None,
                resolution: "r",
                origin: InForce::Register(3),
                by: p,
            },
            SfcLine::BeforeLey510 {
                count: 51,
                ley_510: day("1999-08-03"),
            },
        ];
        for l in &lines {
            let (en, es) = (word(Lang::En, l), word(Lang::Es, l));
            assert_ne!(en, es, "{l:?}");
            assert!(
                !es.contains("2017-07-01") && !es.contains("period(s)"),
                "{es}"
            );
        }
        // worked by hand: 47,71 % × 1,5 = 71,565 %
        assert_eq!(
            word(Lang::Es, &SfcLine::Adds(p)),
            "  del 01/12/1998 al 31/12/1998: IBC 47,71 % → moratoria 71,565 % EA (SB Res. 2384 de 1998)"
        );
        assert_eq!(
            word(
                Lang::Es,
                &SfcLine::New {
                    count: 1,
                    dry_run: true
                }
            ),
            "nuevos: 1 período (se agregarían; moratoria 1,5 × IBC: el histórico no publica cifra de usura)"
        );
    }
}
