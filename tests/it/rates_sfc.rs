//! `vigia rates import-sfc`: the SFC's certification history as published (the verbatim sample
//! of `/work/shared/data/rates`, and a workbook laid out as the SFC lays out its own), previewed,
//! added in one transaction, and compared with the shipped series.

use crate::common::Reg;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

const SAMPLE: &[u8] = include_bytes!("../fixtures/rates/sfc_certification_history_sample.csv");

fn period<'a>(list: &'a serde_json::Value, from: &str) -> &'a serde_json::Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|p| p["valid_from"] == from)
        .unwrap_or_else(|| panic!("no period from {from}"))
}

#[test]
fn the_sample_is_previewed_then_added_and_the_shipped_figures_stay() {
    let r = Reg::new();
    let f = r.file("historico.csv", SAMPLE);
    let before = r.dump();
    let dry = r.ok(&["rates", "import-sfc", &f, "--dry-run"]);
    assert_eq!(r.dump(), before, "a dry run writes nothing");
    // 310 certifications of the line: 16 before 1990 left out, 243 the shipped series has
    // (README of the data: they agree on every period), 51 from 1990-05-25 to 1998-12-31 new
    for expected in [
        "310 certification(s) of the series",
        "left out: 16 certification(s) that start before 1990-01-01",
        "cut: SFC Res. 0907 de 2017 (2017-06-30) (2017-07-01..2017-09-30) governs to 2017-08-31",
        "unchanged: 243 period(s)",
        "2024-09-01..2024-09-30: in force as SFC Res. 1688 de 2024 (2024-08-30), the file says \
         SFC Res. 1688 de 2024 (2024-08-31)",
        "new: 51 period(s)",
        // 1.5 × 34.27 = 51.405
        "  1990-05-25..1991-02-28 IBC 34.27 % → moratorium 51.405 % EA (SB Res. 1851 de 1990 \
         (1990-05-25))",
        // the fraction 0.4549's neighbour: 0.4771 is 47.71 %, × 1.5 = 71.565
        "  1998-12-01..1998-12-31 IBC 47.71 % → moratorium 71.565 % EA (SB Res. 2384 de 1998",
        "supersede: 0 period(s)",
        "warning: 51 period(s) start before 1999-08-03",
        "dry run: nothing was written",
    ] {
        assert!(dry.contains(expected), "{expected:?} not in\n{dry}");
    }
    // the same plan in Spanish, es-CO dates and percentages (the figures as above)
    let seco = r.ok(&["--lang", "es", "rates", "import-sfc", &f, "--dry-run"]);
    for expected in [
        "310 certificaciones de la serie",
        "no se toman: 16 certificaciones que empiezan antes del 01/01/1990",
        "sin cambios: 243 períodos vigentes",
        "nuevos: 51 períodos (se agregarían;",
        "  del 25/05/1990 al 28/02/1991: IBC 34,27 % → moratoria 51,405 % EA",
        "reemplazos: 0 períodos",
        "advertencia: 51 períodos empiezan antes del 03/08/1999",
        "simulación: no se escribió nada",
    ] {
        assert!(seco.contains(expected), "{expected:?} not in\n{seco}");
    }
    assert!(!seco.contains("period(s)"), "{seco}");

    let done = r.ok(&["rates", "import-sfc", &f]);
    assert!(done.contains("51 period(s) added from"), "{done}");
    let list = r.json(&["rates", "list", "--format", "json"]);
    assert_eq!(list.as_array().unwrap().len(), 249 + 51);
    let first = period(&list, "1990-05-25");
    assert_eq!(first["moratorium_ea_percent"], "51.405");
    assert_eq!(first["resolution"], "SB Res. 1851 de 1990 (1990-05-25)");
    // the shipped periods keep the usury figure the SFC published: 25.12, not 1.5 × 16.75
    let april_2007 = period(&list, "2007-04-01");
    assert_eq!(april_2007["moratorium_ea_percent"], "25.12");
    assert_eq!(
        period(&list, "2024-09-01")["resolution"],
        "SFC Res. 1688 de 2024 (2024-08-30)"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    // a second import finds everything in force
    let again = r.ok(&["rates", "import-sfc", &f]);
    assert!(again.contains("unchanged: 294 period(s)"), "{again}");
    assert!(again.contains("0 period(s) added"), "{again}");
}

/// A workbook as the SFC lays it out: a title above the headings, merged headings, a section
/// of its own in 2007, dates as date cells, rates as percent-formatted fractions.
fn workbook(april_2026: f64) -> Vec<u8> {
    let mut book = Workbook::new();
    let s = book.add_worksheet();
    let pct = Format::new().set_num_format("0.00%");
    let date = Format::new().set_num_format("dd-mmm-yy");
    let day = |y: u16, m: u8, d: u8| ExcelDateTime::from_ymd(y, m, d).unwrap();
    s.merge_range(0, 0, 0, 6, "HISTÓRICO CERTIFICACIONES", &Format::new())
        .unwrap();
    s.merge_range(2, 2, 2, 3, "VIGENCIA", &Format::new())
        .unwrap();
    for (c, h) in ["RESOLUCION", "FECHA"].iter().enumerate() {
        s.write(2, c as u16, *h).unwrap();
    }
    s.merge_range(2, 4, 2, 6, "INTERES ANUAL EFECTIVO", &Format::new())
        .unwrap();
    for (c, h) in [
        (2, "DESDE"),
        (3, "HASTA"),
        (4, "CORRIENTE"),
        (5, "BANCARIO CORRIENTE"),
    ] {
        s.write(3, c, h).unwrap();
    }
    // 1998-12: IBC 47.71 %, new to the series
    s.write(4, 0, "2384").unwrap();
    s.write_datetime_with_format(4, 1, day(1998, 11, 30), &date)
        .unwrap();
    s.write_datetime_with_format(4, 2, day(1998, 12, 1), &date)
        .unwrap();
    s.write_datetime_with_format(4, 3, day(1998, 12, 31), &date)
        .unwrap();
    s.write(4, 4, "----").unwrap();
    s.write_number_with_format(4, 5, 0.4771, &pct).unwrap();
    // the 2007-04 section
    s.write(5, 0, "RESOLUCION").unwrap();
    s.write(5, 1, "FECHA").unwrap();
    s.write(5, 2, "VIGENCIA").unwrap();
    s.write(5, 4, "INTERES ANUAL EFECTIVO").unwrap();
    for (c, h) in [
        (2, "DESDE"),
        (3, "HASTA"),
        (4, "CRÉDITO DE CONSUMO Y ORDINARIO"),
        (6, "MICROCRÉDITO"),
    ] {
        s.write(6, c, h).unwrap();
    }
    s.write(7, 0, "517").unwrap();
    s.write_datetime_with_format(7, 1, day(2026, 3, 27), &date)
        .unwrap();
    s.write_datetime_with_format(7, 2, day(2026, 4, 1), &date)
        .unwrap();
    s.write_datetime_with_format(7, 3, day(2026, 4, 30), &date)
        .unwrap();
    s.write_number_with_format(7, 4, april_2026, &pct).unwrap();
    s.write_number_with_format(7, 6, 0.4181, &pct).unwrap();
    book.save_to_buffer().unwrap()
}

#[test]
fn the_workbook_is_read_and_a_different_figure_needs_a_reason() {
    let r = Reg::new();
    // the SFC's own figure for April 2026 (17.84 %): in force already
    let same = r.file("historico.xlsx", &workbook(0.1784));
    let out = r.ok(&["rates", "import-sfc", &same]);
    assert!(out.contains("2 certification(s) of the series"), "{out}");
    assert!(out.contains("unchanged: 1 period(s)"), "{out}");
    assert!(
        out.contains(
            "1998-12-01..1998-12-31 moratorium 71.565 % EA (SB Res. 2384 de 1998 (1998-11-30))"
        ),
        "{out}"
    );

    // another figure for April 2026 replaces the one in force only with a reason
    let other = r.file("otro.xlsx", &workbook(0.1790));
    let before = r.dump();
    let e = r.fails(&["rates", "import-sfc", &other]);
    assert!(
        e.contains("2026-04-01..2026-04-30 overlaps 2026-04-01..2026-04-30 (SFC Res. 0517 de 2026 (2026-03-27), embedded series)"),
        "{e}"
    );
    assert!(e.contains("--supersede --reason TEXT"), "{e}");
    assert_eq!(r.dump(), before, "nothing written");
    let out = r.ok(&[
        "rates",
        "import-sfc",
        &other,
        "--supersede",
        "--reason",
        "corrected by the SFC",
    ]);
    assert!(
        out.contains("  2026-04-01..2026-04-30 IBC 17.84 (SFC Res. 0517 de 2026 (2026-03-27), embedded series) → 2026-04-01..2026-04-30 IBC 17.90 % → moratorium 26.850 % EA"),
        "{out}"
    );
    let list = r.json(&["rates", "list", "--format", "json"]);
    assert_eq!(
        period(&list, "2026-04-01")["moratorium_ea_percent"],
        "26.850"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn a_file_that_is_not_the_history_is_refused_with_its_lines() {
    let r = Reg::new();
    let f = r.file(
        "h.csv",
        "RESOLUCION,FECHA,VIGENCIA,,INTERES ANUAL EFECTIVO,,\n\
         ,,DESDE,HASTA,CRÉDITO DE CONSUMO Y ORDINARIO,,MICROCRÉDITO\n\
         517,2026-03-27,2026-04-01,2026-04-30,17.84,,\n"
            .as_bytes(),
    );
    let before = r.dump();
    let e = r.fails(&["rates", "import-sfc", &f]);
    assert!(
        e.contains("1 problem(s), nothing was written:\n  line 3: the rate \"17.84\" is neither a percent (18.00%) nor a fraction (0.1800)"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}
