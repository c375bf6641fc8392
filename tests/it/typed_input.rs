//! What an officer types is read once, the Colombian way (issue 19): `1.450` is one thousand four
//! hundred and fifty on every flag, form and file; what two readers could read two ways is
//! refused with both readings; Spanish headers, es-CO values, the decree's numerals and workbooks
//! made by a spreadsheet library import like their CSV twins. Each expectation is worked by hand.

use crate::common::{HEADER, Reg};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use serde_json::Value;

/// The adjudications a register holds, as `adjudications list --format json` gives them,
/// without the import's own ids.
fn adjudications(r: &Reg) -> Vec<Value> {
    let v = r.json(&["adjudications", "list", "--format", "json"]);
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut a = a.clone();
            a.as_object_mut().unwrap().remove("import_id");
            a
        })
        .collect()
}

#[test]
fn a_consideration_of_1_450_is_one_thousand_four_hundred_and_fifty_pesos() {
    let r = Reg::new().with_holders();
    // adjudication 1: 1,000 shares at $ 963 on 2024-03-15; 400 sold on 20/11/2024 (75 %)
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "venta",
        "--date",
        "20/11/2024",
        "--shares",
        "400",
        "--consideration-per-share",
        "1.450",
    ]);
    let b = r.json(&["breach", "show", "1", "--format", "json"]);
    assert_eq!(b["kind"], "sale", "{b}");
    assert_eq!(b["consideration_per_share"], "1450", "{b}");
    // 400 × $ 1.450 × 75 % = $ 435.000 (the transfer price wins over $ 963)
    let show = r.ok(&["fine", "show", "1", "--until", "10/02/2025"]);
    assert!(
        show.contains("400 acciones × $ 1.450 × 75 % = $ 435.000"),
        "{show}"
    );
    // a payment of 100.000 is a hundred thousand pesos
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "15/12/2024",
        "--amount",
        "100.000",
    ]);
    let p = r.json(&["payment", "list", "--breach", "1", "--format", "json"]);
    assert_eq!(p[0]["amount"], "100000", "{p}");
    // the stage price 1.100 is one thousand one hundred
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--price",
        "1.100",
        "--date",
        "28/06/2024",
    ]);
    let g = r.json(&["program", "show", "D3939-2004", "--format", "json"]);
    assert!(g.to_string().contains("\"1100\""), "{g}");
}

#[test]
fn a_quote_reads_the_transfer_price_the_colombian_way() {
    let r = Reg::without_register();
    let quote = |price: &str| {
        r.ok(&[
            "fine",
            "quote",
            "--adjudicated",
            "15/03/2024",
            "--breach-date",
            "20/11/2024",
            "--shares",
            "1.000",
            "--acquisition-price",
            "963",
            "--transfer-price",
            price,
            "--stage-price",
            "1.100",
            "--until",
            "10/02/2025",
            "--format",
            "json",
        ])
    };
    // SPEC §5's worked example: principal 1,087,500 = 1,000 × 1,450 × 75 %
    for typed in ["1.450", "1450", "1.450,00", "$ 1.450", "1450.00"] {
        let v: Value = serde_json::from_str(&quote(typed)).unwrap();
        assert_eq!(v["principal"], "1087500", "{typed}: {v}");
    }
}

#[test]
fn what_two_readers_read_two_ways_is_refused_with_both_readings_and_nothing_written() {
    let r = Reg::new().with_holders();
    let before = r.dump();
    let record = |price: &str| {
        r.run(&[
            "breach",
            "record",
            "--adjudication",
            "1",
            "--kind",
            "sale",
            "--date",
            "2024-11-20",
            "--shares",
            "400",
            "--consideration-per-share",
            price,
        ])
    };
    for (typed, says) in [
        (
            "1,450",
            "can be read two ways: 1,45 (a decimal comma) or 1.450 (a thousands comma)",
        ),
        ("1.4500", "cannot be read for certain: the point is neither"),
        ("1,450.50", "is written the US way"),
        ("1.45.0", "has its separators in the wrong places"),
    ] {
        let o = record(typed);
        assert_eq!(o.status.code(), Some(2), "{typed}");
        let e = crate::common::err(&o);
        assert!(
            e.contains("--consideration-per-share") && e.contains(says),
            "{typed}: {e}"
        );
    }
    let o = r.run(&[
        "payment", "record", "--breach", "1", "--date", "15/12/24", "--amount", "5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::err(&o).contains("two-digit year"));
    assert_eq!(r.dump(), before);
}

#[test]
fn rates_take_a_decimal_comma_and_flags_take_es_co_dates_and_counts() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "rates",
        "add",
        "--from",
        "01/01/2030",
        "--to",
        "31/01/2030",
        "--ibc",
        "18,9",
        "--resolution",
        "SFC Res. 1 de 2030",
    ]);
    let rates = r.ok(&["rates", "list", "--format", "json"]);
    // 18,9 % and its moratorium 1.5 × 18.9 = 28.35
    let at = rates.find("2030-01-01").expect("the period added");
    let period = &rates[at..at + rates[at..].find('}').unwrap()];
    assert!(
        period.contains("\"18.9\"") && period.contains("28.35"),
        "{period}"
    );
    let out = r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        "Dación en pago",
        "--date",
        "10-06-2024",
        "--shares",
        "20.000",
    ]);
    assert!(
        out.contains("dacion-en-pago of 20000 shares on 2024-06-10"),
        "{out}"
    );
}

#[test]
fn spanish_headers_es_co_values_and_numerals_import_like_the_english_file() {
    let english = Reg::new();
    let csv = format!(
        "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,1000,963,2024-03-05,,\n\
         CC,1000000002,Luis Prueba,natural,extrabajador,2500,1450.50,2024-03-15,Banco Ejemplo,2500\n"
    );
    english.ok(&[
        "adjudications",
        "import",
        &english.file("en.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    let spanish = Reg::new();
    let csv = "Tipo documento;Número documento;Nombre;Tipo persona;Categoría;Acciones;Precio por \
               acción;Fecha adjudicación;Acreedor;Acciones financiadas\n\
               CC;1.000.000.001;Ana Prueba;Natural;Trabajador;1.000;$ 963;5/03/2024;;\n\
               CC;1000000002;Luis Prueba;NATURAL;(ii);2.500;1.450,50;15/03/2024;Banco Ejemplo;2.500\n";
    spanish.ok(&[
        "adjudications",
        "import",
        &spanish.file("es.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert_eq!(adjudications(&spanish), adjudications(&english));
    // (i) names two categories: refused with both, never guessed
    let csv = "Tipo documento;Número documento;Nombre;Tipo persona;Categoría;Acciones;Precio por \
               acción;Fecha adjudicación;Acreedor;Acciones financiadas\n\
               CC;1000000009;Eva;natural;(i);10;;15/03/2024;;\n";
    let e = spanish.fails(&[
        "adjudications",
        "import",
        &spanish.file("i.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        e.contains(
            "line 2: Categoría \"(i)\": (i) names several categories (trabajador, pensionado)"
        ),
        "{e}"
    );
}

/// An open first-stage offer of the shipped program.
fn offer() -> Reg {
    let r = Reg::new();
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "15/01/2024",
        "--closes",
        "18/03/2024",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    r
}

const ACCEPTANCES: &str = "Fecha radicación,Tipo documento,Número documento,Nombre,Tipo persona,\
Categoría,Acciones,Acepta reducción,Declaraciones\n";

#[test]
fn an_acceptance_category_is_read_whatever_its_case_and_an_unknown_one_is_refused_at_import() {
    let r = offer();
    let csv = format!(
        "{ACCEPTANCES}16/01/2024 09:30,CC,1000000001,Uno,natural,Trabajador,1.000,Sí,si\n\
         16/01/2024 10:00,CC,1000000002,Dos,natural,ninguna,10,,si\n"
    );
    r.ok(&[
        "acceptances",
        "import",
        &r.file("a.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    let v = r.json(&["acceptances", "list", "--format", "json"]);
    assert_eq!(v[0]["category"], "trabajador", "{v}");
    assert_eq!(v[0]["shares"], 1000, "{v}");
    // "ninguna" is recorded, to be rejected as not a recipient when adjudicating
    assert_eq!(v[1]["category"], "ninguna", "{v}");
    // "Sí" read as yes, and the empty cell is silence, which accepts the reduction: a JSON
    // boolean, and «sí» in the Spanish table (never the unaccented "si")
    assert_eq!(v[0]["accepts_reduction"], true, "{v}");
    assert_eq!(v[1]["accepts_reduction"], true, "{v}");
    let t = r.ok(&["--lang", "es", "acceptances", "list"]);
    assert!(t.contains("| sí ") && !t.contains("| si "), "{t}");
    let before = r.dump();
    let csv = format!("{ACCEPTANCES}17/01/2024,CC,1000000003,Tres,natural,accionista,10,,si\n");
    let e = r.fails(&[
        "acceptances",
        "import",
        &r.file("b.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        e.contains("line 2: Categoría \"accionista\": \"accionista\" is not a special-condition category of D3939-2004; use one of trabajador (i)"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

/// The workbook twin of a CSV: the same rows, numbers as number cells, dates as date cells and
/// as Excel day numbers, es-CO text where a person types text.
fn workbook(title_row: bool) -> Vec<u8> {
    let mut book = Workbook::new();
    let date = Format::new().set_num_format("dd/mm/yyyy");
    let s = book.add_worksheet();
    s.set_name("Adjudicaciones").unwrap();
    let top = u32::from(title_row);
    if title_row {
        s.merge_range(0, 0, 0, 3, "Adjudicaciones de 2024", &Format::new())
            .unwrap();
    }
    let headers = [
        "Tipo documento",
        "Número documento",
        "Nombre",
        "Tipo persona",
        "Categoría",
        "Acciones",
        "Precio por acción",
        "Fecha adjudicación",
        "Acreedor",
        "Acciones financiadas",
    ];
    for (c, h) in (0u16..).zip(headers) {
        s.write_string(top, c, h).unwrap();
    }
    // row 2: number cells and a date cell
    s.write_string(top + 1, 0, "CC").unwrap();
    s.write_number(top + 1, 1, 1_000_000_001.0).unwrap();
    s.write_string(top + 1, 2, "Ana Prueba").unwrap();
    s.write_string(top + 1, 3, "natural").unwrap();
    s.write_string(top + 1, 4, "trabajador").unwrap();
    s.write_number(top + 1, 5, 1000.0).unwrap();
    s.write_number(top + 1, 6, 963.0).unwrap();
    let day = ExcelDateTime::from_ymd(2024, 3, 5).unwrap();
    s.write_datetime_with_format(top + 1, 7, &day, &date)
        .unwrap();
    // row 3: es-CO text where a person typed it, and a day number in a General cell
    s.write_string(top + 2, 0, "CC").unwrap();
    s.write_string(top + 2, 1, "1.000.000.002").unwrap();
    s.write_string(top + 2, 2, "Luis Prueba").unwrap();
    s.write_string(top + 2, 3, "natural").unwrap();
    s.write_string(top + 2, 4, "(ii)").unwrap();
    s.write_string(top + 2, 5, "2.500").unwrap();
    s.write_number(top + 2, 6, 1450.5).unwrap();
    s.write_number(top + 2, 7, 45366.0).unwrap(); // 15/03/2024
    s.write_string(top + 2, 8, "Banco Ejemplo").unwrap();
    s.write_number(top + 2, 9, 2500.0).unwrap();
    book.add_worksheet().set_name("Notas").unwrap();
    book.save_to_buffer().unwrap()
}

#[test]
fn a_workbook_made_by_a_spreadsheet_library_imports_like_its_csv_twin() {
    let csv = Reg::new();
    let text = format!(
        "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,1000,963,2024-03-05,,\n\
         CC,1000000002,Luis Prueba,natural,extrabajador,2500,\"1450,5\",2024-03-15,Banco Ejemplo,2500\n"
    );
    csv.ok(&[
        "adjudications",
        "import",
        &csv.file("a.csv", text.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    let book = Reg::new();
    let path = book.file("adjudicaciones.xlsx", &workbook(false));
    let out = book.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(out.contains("2 adjudication(s) added"), "{out}");
    assert_eq!(adjudications(&book), adjudications(&csv));
    // the same rows again: found as imported before, nothing added
    let again = book.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(again.contains("already imported"), "{again}");
    // a sheet that is not there is named with the ones that are
    let e = book.fails(&[
        "adjudications",
        "import",
        &path,
        "--program",
        "D3939-2004",
        "--sheet",
        "Hoja9",
    ]);
    assert!(
        e.contains("the workbook has no sheet \"Hoja9\"; its sheets are Adjudicaciones, Notas"),
        "{e}"
    );
}

#[test]
fn a_workbook_row_problem_names_the_row_the_spreadsheet_shows_and_a_merged_header_is_refused() {
    let r = Reg::new();
    let before = r.dump();
    // the header on row 2 under a merged title on row 1
    let path = r.file("titulo.xlsx", &workbook(true));
    let e = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        e.contains("the header row 1 of sheet \"Adjudicaciones\" has merged cells (A1:D1)"),
        "{e}"
    );
    // a bad value on row 3 of the sheet is line 3
    let mut book = Workbook::new();
    let s = book.add_worksheet();
    for (c, h) in (0u16..).zip(HEADER.trim().split(',')) {
        s.write_string(0, c, h).unwrap();
    }
    for (row, shares) in [(1u32, "10"), (2, "1,450")] {
        for (c, v) in (0u16..).zip([
            "CC",
            "",
            "Ana",
            "natural",
            "trabajador",
            shares,
            "",
            "15/03/2024",
        ]) {
            s.write_string(row, c, v).unwrap();
        }
        s.write_string(row, 1, format!("100000000{row}")).unwrap();
    }
    let path = r.file("malo.xlsx", &book.save_to_buffer().unwrap());
    let e = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        e.contains(
            "line 3: shares \"1,450\": \"1,450\": a comma starts the decimals (and this count \
             is whole) or groups thousands; if you mean 1.450, write 1.450"
        ),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn every_template_imports_as_it_stands_in_both_formats() {
    for ext in ["csv", "xlsx"] {
        let r = Reg::new();
        let path = r.dir.path().join(format!("plantilla.{ext}"));
        let path = path.to_str().unwrap();
        r.ok(&["template", "adjudicaciones", "--out", path]);
        let out = r.ok(&["adjudications", "import", path, "--program", "D3939-2004"]);
        assert!(out.contains("1 adjudication(s) added"), "{ext}: {out}");
        let a = &adjudications(&r)[0];
        assert_eq!(
            (a["doc_number"].as_str(), a["shares"].as_u64()),
            (Some("79263082"), Some(4000)),
            "{ext}: {a}"
        );
        // the pledge template pledges that adjudication; the acceptance template files one
        let pledge = r.dir.path().join(format!("prendas.{ext}"));
        r.ok(&["template", "prendas", "--out", pledge.to_str().unwrap()]);
        let out = r.ok(&["pledge", "import", pledge.to_str().unwrap()]);
        assert!(out.contains("1 pledge"), "{ext}: {out}");
    }
    let r = offer();
    let path = r.dir.path().join("aceptaciones.xlsx");
    r.ok(&["template", "aceptaciones", "--out", path.to_str().unwrap()]);
    let out = r.ok(&[
        "acceptances",
        "import",
        path.to_str().unwrap(),
        "--program",
        "D3939-2004",
    ]);
    assert!(out.contains("1 acceptance"), "{out}");
    let e = r.fails(&["template", "propuestas", "--out", "x.txt"]);
    assert!(e.contains("FILE.xlsx"), "{e}");
}

#[test]
fn the_shipped_program_is_added_by_its_code_and_its_file_printed() {
    let r = Reg::without_register();
    let db = r.dir.path().join("r.db");
    let db = db.to_str().unwrap();
    r.ok(&["--db", db, "init"]);
    let out = r.ok(&["--db", db, "program", "add", "D3939-2004"]);
    assert!(out.contains("program D3939-2004 (id 1) added"), "{out}");
    let file = r.ok(&["program", "show-file", "d3939-2004"]);
    assert_eq!(
        file,
        std::fs::read_to_string(crate::common::PROGRAM).unwrap()
    );
    let e = r.fails(&["program", "show-file", "D0000"]);
    assert!(e.contains("the shipped ones are D3939-2004"), "{e}");
}

#[test]
fn two_names_for_one_column_and_a_stray_separator_are_refused() {
    let r = Reg::new();
    let before = r.dump();
    // `Precio` and `Precio por acción` both name price_per_share: which to read is a guess
    let csv = "Tipo documento;Número documento;Nombre;Tipo persona;Categoría;Acciones;Precio;\
               Precio por acción;Fecha adjudicación;Acreedor;Acciones financiadas\n\
               CC;1000000001;Ana;natural;trabajador;10;1.450;2.000;15/03/2024;;\n";
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file("dos.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        e.contains("columns \"Precio\" and \"Precio por acción\" both name price_per_share"),
        "{e}"
    );
    // a document number whose separator does not group thousands is refused, not joined
    let csv = format!("{HEADER}CC,\"30000,54\",Ana,natural,trabajador,10,,2024-03-15,,\n");
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file("doc.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(e.contains("line 2: doc_number \"30000,54\""), "{e}");
    assert_eq!(r.dump(), before);
}

#[test]
fn payments_are_in_centavos_and_amounts_have_a_ceiling() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "20/11/2024",
        "--shares",
        "10",
        "--consideration-per-share",
        "1.450",
    ]);
    let before = r.dump();
    let pay = |amount: &str| {
        r.run(&[
            "payment",
            "record",
            "--breach",
            "1",
            "--date",
            "15/12/2024",
            "--amount",
            amount,
        ])
    };
    let o = pay("1.000,001");
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::err(&o).contains("fractions of a centavo"));
    let o = pay("99999999999999999999999999");
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::err(&o).contains("is too large"));
    assert_eq!(r.dump(), before);
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "15/12/2024",
        "--amount",
        "1.000,50",
    ]);
}

#[test]
fn program_and_rates_files_read_numbers_and_dates_the_same_way() {
    // a program's fixed price "1.450" is one thousand four hundred and fifty
    let r = Reg::without_register();
    let db = r.dir.path().join("r.db");
    let db = db.to_str().unwrap();
    r.ok(&["--db", db, "init"]);
    let text = std::fs::read_to_string(crate::common::PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"P1450\"")
        .replace("fixed_price = \"963.00\"", "fixed_price = \"1.450\"");
    assert!(
        text.contains("fixed_price = \"1.450\""),
        "the shipped file's fixed price"
    );
    let path = r.file("p.toml", text.as_bytes());
    r.ok(&["--db", db, "program", "add", &path]);
    let v = r.json(&["--db", db, "program", "show", "P1450", "--format", "json"]);
    assert_eq!(v["fixed_price"], "1450", "{v}");
    // a rates file with es-CO dates and a decimal comma
    let rates = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
                 01/11/2027,30/11/2027,\"18,9\",,SFC Res. 1 de 2027\n";
    let o = r.run(&["rates", "check", &r.file("r.csv", rates.as_bytes())]);
    assert_eq!(o.status.code(), Some(0), "{}", crate::common::err(&o));
}

#[test]
fn every_unreadable_cell_of_a_workbook_is_named_at_once() {
    let r = Reg::new();
    let mut book = Workbook::new();
    let s = book.add_worksheet();
    for (c, h) in (0u16..).zip(HEADER.trim().split(',')) {
        s.write_string(0, c, h).unwrap();
    }
    for row in [1u32, 2] {
        for (c, v) in (0u16..).zip(["CC", "", "Ana", "natural", "trabajador", "10"]) {
            s.write_string(row, c, v).unwrap();
        }
        s.write_string(row, 1, format!("100000000{row}")).unwrap();
        s.write_string(row, 7, "15/03/2024").unwrap();
    }
    // a computed price (G2) and half a day in the date column (H3)
    s.write_number(1, 6, 1450.4999999999998).unwrap();
    s.write_number(2, 7, 45366.5).unwrap();
    let path = r.file("dos.xlsx", &book.save_to_buffer().unwrap());
    let e = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        e.contains("cell G2 of sheet \"Sheet1\": holds the computed number 1450,4999999999998")
            && e.contains(
                "; cell H3 of sheet \"Sheet1\": holds the number 45.366,5 in a date column"
            ),
        "{e}"
    );
}
