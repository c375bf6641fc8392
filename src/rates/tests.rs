//! Unit tests of `rates.rs`.

use super::*;
use crate::money::dec;

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

const HEADER: &str = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n";

#[test]
fn shipped_series_is_contiguous_and_valid() {
    let problems = check_csv(SHIPPED_CSV);
    // three real changes of more than 5 points (April 1999; the 2007 change of modality),
    // each a warning on its own line of the CRLF file
    let warnings: Vec<(usize, Kind)> = problems.iter().map(|p| (p.line, p.kind)).collect();
    assert_eq!(
        warnings,
        [(6, Kind::Jump), (97, Kind::Jump), (98, Kind::Jump)],
        "{problems:?}"
    );
    let s = RateSeries::shipped();
    assert_eq!(s.periods().len(), 249); // README of the series: 249 rows
    assert_eq!(s.coverage(), Some((date("1999-01-01"), date("2026-10-31"))));
}

#[test]
fn rate_in_force_uses_usury_figure_else_one_and_a_half_ibc() {
    let s = RateSeries::shipped();
    // SPEC §5 table: 2024-11 27.90, 2024-12 26.39, 2025-01 24.89, 2025-02 26.30.
    assert_eq!(
        s.period_on(date("2024-11-21")).unwrap().moratorium_ea_pct(),
        dec("27.90")
    );
    assert_eq!(
        s.period_on(date("2024-12-31")).unwrap().moratorium_ea_pct(),
        dec("26.39")
    );
    assert_eq!(
        s.period_on(date("2025-02-10")).unwrap().moratorium_ea_pct(),
        dec("26.30")
    );
    // The 1–4 January 2007 period (Res. 2441 de 2006).
    assert_eq!(
        s.period_on(date("2007-01-04")).unwrap().moratorium_ea_pct(),
        dec("31.02")
    );
    assert_eq!(
        s.period_on(date("2007-01-05")).unwrap().moratorium_ea_pct(),
        dec("20.75")
    );
    assert!(s.period_on(date("1998-12-31")).is_none());
    assert!(s.period_on(date("2026-11-01")).is_none());

    let only_ibc = format!("{HEADER}2030-01-01,2030-01-31,18.79,,X\n");
    let s = RateSeries::from_csv(&only_ibc, "t").unwrap();
    assert_eq!(s.periods()[0].moratorium_ea_pct(), dec("28.185"));
}

#[test]
fn segments_split_at_rate_changes() {
    let s = RateSeries::shipped();
    let segs = s.segments(date("2006-12-20"), date("2007-01-10")).unwrap();
    let got: Vec<_> = segs.iter().map(|g| (g.first, g.last, g.days())).collect();
    assert_eq!(
        got,
        vec![
            (date("2006-12-21"), date("2006-12-31"), 11),
            (date("2007-01-01"), date("2007-01-04"), 4),
            (date("2007-01-05"), date("2007-01-10"), 6),
        ]
    );
    assert!(
        s.segments(date("2024-01-01"), date("2024-01-01"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn missing_days_are_named_and_never_carried_forward() {
    let s = RateSeries::shipped();
    let err = s
        .segments(date("2026-10-20"), date("2026-12-05"))
        .unwrap_err();
    assert_eq!(err.ranges, vec![(date("2026-11-01"), date("2026-12-05"))]);
    let msg = err.to_string();
    assert!(msg.contains("2026-11-01..2026-12-05"), "{msg}");
    // the front end says how to pass the file (the CLI: `--rates FILE`); the core names no flag
    assert!(!msg.contains("--"), "{msg}");

    let gappy = format!("{HEADER}2030-01-01,2030-01-31,20,,A\n2030-03-01,2030-03-31,20,,B\n");
    let s = RateSeries::from_csv(&gappy, "t").unwrap();
    let err = s
        .segments(date("2029-12-30"), date("2030-04-02"))
        .unwrap_err();
    assert_eq!(
        err.ranges,
        vec![
            (date("2029-12-31"), date("2029-12-31")),
            (date("2030-02-01"), date("2030-02-28")),
            (date("2030-04-01"), date("2030-04-02")),
        ]
    );
}

#[test]
fn check_reports_every_problem_with_its_line() {
    let text = format!(
        "{HEADER}\
             2030-01-01,2030-01-31,20,30,ok\n\
             2030-01-15,2030-02-28,20,30,overlap\n\
             2030-04-01,2030-04-30,,,both empty\n\
             2030-05-01,2030-05-31,-2,,negative\n\
             2030-06-01,2030-06-31,20,,bad date\n\
             2030-07-01,2030-07-31,20,45,not 1.5x\n\
             2030-08-01,2030-08-31,2790,,absurd\n\
             2030-09-30,2030-09-01,20,,reversed\n\
             2030-10-01,2030-10-31,1,4x,malformed\n\
             2030-12-01,2030-12-31,20,,after a gap\n"
    );
    let problems = check_csv(&text);
    let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![3, 4, 5, 6, 7, 7, 8, 9, 10, 11], "{problems:#?}");
    assert!(problems[0].message.en().contains("overlaps"));
    assert!(problems[1].message.en().contains("both"));
    assert!(problems[2].message.en().contains("positive"));
    assert!(problems[3].message.en().contains("valid_to"));
    // a period whose usury is not 1.5 × IBC is still read (it may be forced in): the days
    // between it and the last good one are a gap
    assert!(problems[4].kind == Kind::UsuryRatio && problems[4].message.en().contains("1.5"));
    assert!(
        problems[5].kind == Kind::Gap
            && problems[5].message.en().contains("2030-03-01..2030-06-30")
    );
    assert!(problems[6].message.en().contains("believable"));
    assert!(problems[7].message.en().contains("before valid_from"));
    assert!(problems[8].message.en().contains("usury_ea_pct"));
    assert!(
        problems[9].kind == Kind::Gap
            && problems[9].message.en().contains("2030-08-01..2030-11-30")
    );
    let err = RateSeries::from_csv(&text, "bad.csv").unwrap_err();
    assert_eq!(err.problems.len(), 8); // the gaps alone would not stop use
}

#[test]
fn a_typed_period_is_refused_in_both_languages() {
    let typed = |from: &str, to: &str, ibc: &str, usury: Option<&str>| {
        let e = RateSeries::typed_period(
            date(from),
            date(to),
            dec(ibc),
            usury.map(dec),
            "SFC Res. 1650 de 2026",
            "formulario",
            false,
        )
        .unwrap_err();
        assert_eq!(e.problems.len(), 1, "{e:?}");
        e.problems[0].message.clone()
    };
    assert_eq!(
        typed("2026-11-30", "2026-11-01", "18.5", None),
        Said::new(
            "valid_to 2026-11-01 is before valid_from 2026-11-30",
            "la fecha «hasta» (valid_to) 01/11/2026 es anterior a la fecha «desde» (valid_from) \
                 30/11/2026"
        )
    );
    assert_eq!(
        typed("2026-11-01", "2026-11-30", "150", None),
        Said::new(
            "ibc_ea_pct 150 is not a believable % EA (must be from 1 to below 100); rates are \
                 percentages, e.g. 27.90",
            "el interés bancario corriente (ibc_ea_pct) 150 no es una tasa creíble en porcentaje \
                 efectivo anual (debe estar entre 1 y menos de 100); las tasas se escriben en \
                 porcentaje, p. ej. 27,90"
        )
    );
    // 1.5 × 18.5 = 27.75, more than 0.05 points from 30
    assert_eq!(
        typed("2026-11-01", "2026-11-30", "18.5", Some("30")),
        Said::new(
            "usury_ea_pct 30 is not 1.5 × ibc_ea_pct 18.5 (= 27.75); check both figures against \
                 the SFC resolution",
            "la tasa de usura (usury_ea_pct) 30 % no es 1,5 × el interés bancario corriente \
                 (ibc_ea_pct) 18,5 % (= 27,75 %); verifique ambas cifras en la resolución de la \
                 Superintendencia Financiera"
        )
    );
    // a gap and an overlap in a file, and a date out of range
    let text = format!(
        "{HEADER}2030-01-01,2030-01-31,20,,a\n2030-01-15,2030-02-14,20,,b\n2030-04-01,2030-04-30,20,,c\n\
             2100-01-01,2100-01-31,20,,d\n"
    );
    let es: Vec<String> = check_csv(&text)
        .iter()
        .map(|p| p.in_lang(Lang::Es))
        .collect();
    assert_eq!(
        es,
        [
            "línea 3: el período del 15/01/2030 al 14/02/2030 se superpone con el del 01/01/2030 \
                 al 31/01/2030 de la línea 2; cada día debe tener exactamente una tasa certificada",
            "línea 4: vacío: no hay tasa certificada del 15/02/2030 al 31/03/2030 (entre la línea 3 \
                 y esta)",
            "línea 5: la fecha «desde» (valid_from) 01/01/2100 está fuera de las fechas que vigia \
                 acepta, del 01/01/1990 al 31/12/2099; revise el año",
            "línea 5: la fecha «hasta» (valid_to) 31/01/2100 está fuera de las fechas que vigia \
                 acepta, del 01/01/1990 al 31/12/2099; revise el año",
        ]
    );
}

#[test]
fn implausible_rates_are_refused_and_a_confirmed_usury_figure_can_be_forced() {
    // a fraction typed as a percent (issue 10): 0.189 is not 18.9 % EA
    let text = format!("{HEADER}2030-01-01,2030-01-31,0.189,,x\n");
    let problems = check_csv(&text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0].message.en(),
        "ibc_ea_pct 0.189 is not a believable % EA (must be from 1 to below 100); rates are percentages: a fraction 0.189 would be 18.9 %, write that"
    );
    assert_eq!(
        problems[0].in_lang(Lang::Es),
        "línea 2: el interés bancario corriente (ibc_ea_pct) 0,189 no es una tasa creíble en \
             porcentaje efectivo anual (debe estar entre 1 y menos de 100); las tasas se escriben en \
             porcentaje: la fracción 0,189 sería 18,9 %, escriba eso"
    );
    assert!(RateSeries::from_csv_forced(&text, "t").is_err());
    // usury not 1.5 × IBC: refused, unless forced
    let text = format!("{HEADER}2030-01-01,2030-01-31,19.06,30.00,x\n");
    assert_eq!(
        RateSeries::from_csv(&text, "t").unwrap_err().problems[0].kind,
        Kind::UsuryRatio
    );
    let forced = RateSeries::from_csv_forced(&text, "t").unwrap();
    assert_eq!(forced.periods()[0].moratorium_ea_pct(), dec("30.00"));
    // within 0.05 points is fine (29.24 for 1.5 × 19.49 = 29.235)
    let text = format!("{HEADER}2030-01-01,2030-01-31,19.49,29.24,x\n");
    assert!(check_csv(&text).is_empty());
}

#[test]
fn a_jump_of_more_than_5_points_is_a_warning_only() {
    let text = format!(
        "{HEADER}2030-01-01,2030-01-31,19,,a\n2030-02-01,2030-02-28,24,,b\n2030-03-01,2030-03-31,29.01,,c\n"
    );
    let problems = check_csv(&text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0].to_string(),
        "line 4: warning: IBC 29.01 % EA for 2030-03-01..2030-03-31 is 5.01 points above the 24.00 % EA of 2030-02-01..2030-02-28; check it against the SFC resolution"
    );
    let series = RateSeries::from_csv(&text, "t").unwrap();
    // the register's view of a period added between two others
    let p = RatePeriod::new(
        date("2030-02-01"),
        date("2030-02-28"),
        Some(dec("13")),
        None,
        "n".into(),
        0,
    )
    .unwrap();
    let w = jumps_around(&series, &p);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].to_string()
            .contains("6 points below the 19.00 % EA of 2030-01-01..2030-01-31"),
        "{w:?}"
    );
    // the same warnings in Spanish: 13 is 6 points below 19; 29.01 is 16.01 above 13
    assert_eq!(
        w[0].said().es(),
        "el IBC de 13,00 % EA del 01/02/2030 al 28/02/2030 está 6 puntos por debajo del 19,00 % EA \
             del 01/01/2030 al 31/01/2030; compruébelo con la resolución de la Superintendencia Financiera"
    );
    assert_eq!(w[1].points(), dec("16.01"));
    assert_eq!(
        w[1].said().es(),
        "el IBC de 29,01 % EA del 01/03/2030 al 31/03/2030 está 16,01 puntos por encima del 13,00 % EA \
             del 01/02/2030 al 28/02/2030; compruébelo con la resolución de la Superintendencia Financiera"
    );
    // a rate with three decimals is shown as certified, never rounded: 32,985 − 19,06 = 13,925
    let p = RatePeriod::new(
        date("2030-02-01"),
        date("2030-02-28"),
        Some(dec("32.985")),
        None,
        "n".into(),
        0,
    )
    .unwrap();
    let series =
        RateSeries::from_csv(&format!("{HEADER}2030-01-01,2030-01-31,19.06,,a\n"), "t").unwrap();
    let w = jumps_around(&series, &p);
    assert_eq!(
        w[0].said().es(),
        "el IBC de 32,985 % EA del 01/02/2030 al 28/02/2030 está 13,925 puntos por encima del \
         19,06 % EA del 01/01/2030 al 31/01/2030; compruébelo con la resolución de la \
         Superintendencia Financiera"
    );
    // a header and no periods is an error
    let e = RateSeries::from_csv(HEADER, "t").unwrap_err();
    assert_eq!(e.problems[0].line, 2);
}

#[test]
fn header_must_name_the_required_columns_and_extra_ones_are_ignored() {
    let err = RateSeries::from_csv("from,to,ibc\n", "x.csv").unwrap_err();
    assert!(err.to_string().contains("valid_from"), "{err}");
    let text = "\u{feff}usury_ea_pct,note,valid_to,valid_from,ibc_ea_pct\n30,hi,2030-01-31,2030-01-01,20\n";
    let s = RateSeries::from_csv(text, "x").unwrap();
    assert_eq!(s.periods()[0].moratorium_ea_pct(), dec("30"));
    assert_eq!(s.periods()[0].resolution, "");
}

#[test]
fn a_resolution_reads_in_spanish() {
    assert_eq!(
        resolution_es("SB Res. 0244 de 2005 modified by Res. 0266 (date given as 2005-02-01)"),
        "SB Res. 0244 de 2005 modificada por Res. 0266 (fecha dada como 01/02/2005)"
    );
    assert_eq!(
        resolution_es("SFC Res. 1688 de 2024 (2024-08-30)"),
        "SFC Res. 1688 de 2024 (30/08/2024)"
    );
    // a number that is not a date stays as it is
    assert_eq!(resolution_es("Res. 20240830"), "Res. 20240830");
}
