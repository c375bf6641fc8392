//! Bad input, everywhere, gets a sentence (issues 10 and 11): files as Excel on Windows writes
//! them (CRLF), files that are not CSV at all, mixed encodings, control characters, repeated
//! lines, impossible dates and counts, implausible rates and program numbers. Each refusal names
//! the field, the value and what to do, exits 2 and leaves the register as it was.

use crate::common::{HEADER, PROGRAM, Reg};

const IMPORT: [&str; 2] = ["adjudications", "import"];

fn import_args(path: &str) -> [&str; 5] {
    [IMPORT[0], IMPORT[1], path, "--program", "D3939-2004"]
}

/// The problems an import lists, one per line, without the first line.
fn problems(e: &str) -> Vec<&str> {
    e.lines().skip(1).map(str::trim).collect()
}

/// A minimal xlsx: a zip whose entries include the workbook under `xl/`.
const XLSX: &[u8] = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00[Content_Types].xml\x00\x00PK\x03\x04\x14\x00xl/workbook.xml\x00";
const XLS: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00\x00\x00\x00\x00\x00\x00\x00";
const PDF: &[u8] = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
const ZIP: &[u8] = b"PK\x03\x04\x14\x00\x00\x00\x08\x00adjudicaciones.csv\x00\x01\x02";
const ELF: &[u8] = b"\x7FELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00";

#[test]
fn a_crlf_file_names_the_real_line() {
    let r = Reg::new().with_holders();
    let before = r.dump();
    let csv = format!(
        "{HEADER}CC,1000000101,Ana,natural,trabajador,10,,2024-03-15,,\n\
         CC,1000000102,Bob,natural,trabajador,10,,2024-02-30,,\n\
         \n\
         CC,1000000103,Eva,natural,trabajador,0,,2024-03-15,,\n"
    )
    .replace('\n', "\r\n");
    let e = r.fails(&import_args(&r.file("crlf.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 3: adjudicated_on \"2024-02-30\": \"2024-02-30\" is not a day of the calendar; check the day and the month (DD/MM/YYYY)",
            "line 5: shares \"0\": must be a whole number of shares greater than zero",
        ],
        "{e}"
    );
    // a quoted name over two lines starts on its line; the row after it is numbered after both
    let csv = format!(
        "{HEADER}CC,1000000104,\"Ana\r\nMaría\",natural,trabajador,10,,2024-03-15,,\r\n\
         CC,1000000105,Bob,natural,trabajador,10,,2024-02-30,,\r\n"
    );
    let e = r.fails(&import_args(&r.file("multi.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 2: name \"Ana\\r\\nMaría\": has the control character U+000D at character 4; values are printed on notices and must be plain text: remove it",
            "line 4: adjudicated_on \"2024-02-30\": \"2024-02-30\" is not a day of the calendar; check the day and the month (DD/MM/YYYY)",
        ],
        "{e}"
    );
    // the pledge reader is the same reader
    let pledges = "adjudication_id,rank,registered_on\r\n1,1,2024-04-01\r\n2,3,2024-04-01\r\n";
    let e = r.fails(&["pledge", "import", &r.file("p.csv", pledges.as_bytes())]);
    assert_eq!(
        problems(&e),
        [
            "line 3: rank \"3\": must be 1 (first degree) or 2 (second degree, when the lender holds the first)"
        ],
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_crlf_rates_file_names_the_real_line() {
    // the SFC-style series is CRLF (schema/rates/ibc_consumo_ordinario.csv is)
    let r = Reg::without_register();
    let rates = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\r\n\
                 2030-01-01,2030-01-31,20,30,A\r\n\
                 2030-02-01,2030-02-28,abc,,B\r\n";
    let o = r.run(&["rates", "check", &r.file("r.csv", rates.as_bytes())]);
    assert_eq!(o.status.code(), Some(1));
    let out = crate::common::out(&o);
    assert!(out.starts_with("line 3: ibc_ea_pct \"abc\""), "{out}");
}

#[test]
fn files_that_are_not_csv_are_named_never_echoed() {
    let r = Reg::new().with_holders();
    let before = r.dump();
    for (name, bytes, says) in [
        (
            "adjudicaciones.xlsx",
            XLSX,
            "this is an Excel workbook (.xlsx), not a CSV file; open it in the spreadsheet, save it as \"CSV UTF-8 (Comma delimited)\" or \"CSV (separado por punto y coma)\" and import that file",
        ),
        (
            "adjudicaciones.xls",
            XLS,
            "this is an Excel 97-2003 workbook (.xls)",
        ),
        ("resolucion.pdf", PDF, "this is a PDF document"),
        ("datos.zip", ZIP, "this is a zip archive"),
        (
            "programa",
            ELF,
            "this is a binary file (it contains NUL bytes)",
        ),
    ] {
        let path = r.file(name, bytes);
        for args in [
            &import_args(&path)[..],
            &["pledge", "import", &path][..],
            &["rates", "import", &path][..],
            &["rates", "check", &path][..],
            &["program", "add", &path][..],
            &["--rates", &path, "rates", "list"][..],
        ] {
            let e = r.fails(args);
            // the imports read workbooks (issue 19): one that is not a real workbook is named so
            let imports = args[0] == "adjudications" || args[0] == "pledge";
            let says = if imports
                && bytes[..2] != *b"%P"
                && (name.ends_with(".xlsx") || name.ends_with(".xls"))
            {
                "the workbook cannot be read"
            } else {
                says
            };
            assert!(e.contains(&format!("{path}: {says}")), "{args:?}: {e}");
            assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
            assert!(!e.contains("PK") && !e.contains("\\u{0}"), "{e}");
        }
    }
    assert_eq!(r.dump(), before);
}

#[test]
fn a_bom_with_windows_1252_content_is_refused_naming_the_byte() {
    let r = Reg::new();
    let before = r.dump();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(HEADER.as_bytes());
    bytes.extend_from_slice(b"CC,1000000101,Ana,natural,trabajador,10,,2024-03-15,,\r\n");
    bytes.extend_from_slice(
        b"CC,1000000102,Jos\xE9 P\xE9rez,natural,trabajador,10,,2024-03-15,,\r\n",
    );
    let path = r.file("bom.csv", &bytes);
    let e = r.fails(&import_args(&path));
    assert_eq!(
        e.trim(),
        format!(
            "vigia: error: adjudications import {path}: line 3, column 18: byte 0xE9 is not UTF-8 (in Windows-1252 it would be 'é'), \
             yet the file starts with a UTF-8 byte-order mark: it mixes two encodings and its names would be stored mangled; \
             save it again as \"CSV UTF-8 (Comma delimited)\" and import that file"
        )
    );
    assert_eq!(r.dump(), before);
    // a TOML or rates file must be UTF-8: the byte is named, not "stream did not contain valid UTF-8"
    let toml = std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"X\"");
    let mut latin = toml.into_bytes();
    latin.extend_from_slice(b"\n# Bogot\xE1\n");
    let path = r.file("latin.toml", &latin);
    let e = r.fails(&["program", "add", &path]);
    assert!(e.contains("byte 0xE1 is not UTF-8"), "{e}");
}

#[test]
fn control_characters_in_names_are_refused() {
    let r = Reg::new().with_holders();
    let before = r.dump();
    let csv = format!(
        "{HEADER}CC,1000000101,Ana\u{0}Gómez,natural,trabajador,10,,2024-03-15,,\n\
         CC,1000000102,Bob,natural,trabajador,10,,2024-03-15,Banco\u{7}X,10\n"
    );
    let e = r.fails(&import_args(&r.file("ctl.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 2: name \"Ana\\0Gómez\": has the control character U+0000 at character 4; values are printed on notices and must be plain text: remove it",
            "line 3: lender \"Banco\\u{7}X\": has the control character U+0007 at character 6; values are printed on notices and must be plain text: remove it",
        ],
        "{e}"
    );
    let pledges = "adjudication_id,rank,registered_on,lender\n2,2,2024-04-01,Banco\u{1b}Y\n";
    let e = r.fails(&["pledge", "import", &r.file("p.csv", pledges.as_bytes())]);
    assert!(
        e.contains("line 2: lender \"Banco\\u{1b}Y\": has the control character U+001B"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_line_repeated_byte_for_byte_is_reported_with_both_lines() {
    let r = Reg::new();
    let before = r.dump();
    let row = "CC,1000000101,Ana,natural,trabajador,10,,2024-03-15,,\n";
    let csv =
        format!("{HEADER}{row}CC,1000000102,Bob,natural,trabajador,10,,2024-03-15,,\n\n{row}{row}");
    let e = r.fails(&import_args(&r.file("dup.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 5: repeats line 2 exactly; a row is listed once: remove one of the two",
            "line 6: repeats line 2 exactly; a row is listed once: remove one of the two",
        ],
        "{e}"
    );
    assert_eq!(r.dump(), before);
    let r = Reg::new().with_holders();
    let pledges = "adjudication_id,rank,registered_on\r\n1,1,2024-04-01\r\n3,1,2024-04-01\r\n1,1,2024-04-01\r\n";
    let e = r.fails(&["pledge", "import", &r.file("p.csv", pledges.as_bytes())]);
    assert_eq!(
        problems(&e),
        ["line 4: repeats line 2 exactly; a row is listed once: remove one of the two"],
        "{e}"
    );
}

#[test]
fn a_rates_file_with_a_header_and_no_periods_is_an_error() {
    let r = Reg::without_register();
    let path = r.file(
        "empty.csv",
        b"valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\r\n",
    );
    let o = r.run(&["rates", "check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        crate::common::out(&o).contains("line 2: the file has a header but no periods"),
        "{}",
        crate::common::out(&o)
    );
    let e = r.fails(&["--rates", &path, "rates", "list"]);
    assert!(e.contains("the file has a header but no periods"), "{e}");
}

#[test]
fn dates_outside_1990_to_2099_are_refused_with_the_range() {
    let r = Reg::new();
    let before = r.dump();
    let csv = format!(
        "{HEADER}CC,1000000101,Ana,natural,trabajador,10,,0000-01-01,,\n\
         CC,1000000102,Bob,natural,trabajador,10,,9999-12-31,,\n"
    );
    let e = r.fails(&import_args(&r.file("far.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 2: adjudicated_on \"0000-01-01\": 01/01/0000 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099; check the year",
            "line 3: adjudicated_on \"9999-12-31\": 31/12/9999 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099; check the year",
        ],
        "{e}"
    );
    // the es-CO Excel layout goes through the same parser
    let csv = format!(
        "{}CC;1000000101;Ana;natural;trabajador;10;;31/12/9999;;\n",
        HEADER.replace(',', ";")
    );
    let e = r.fails(&import_args(&r.file("far-es.csv", csv.as_bytes())));
    assert!(
        e.contains("line 2: adjudicated_on \"31/12/9999\": 31/12/9999 is outside"),
        "{e}"
    );
    // flags
    let e = r.fails(&[
        "rates",
        "add",
        "--from",
        "9999-12-01",
        "--to",
        "9999-12-31",
        "--ibc",
        "19",
        "--resolution",
        "x",
    ]);
    assert!(
        e.contains("01/12/9999 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099"),
        "{e}"
    );
    // rates files
    let rates = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n0000-01-01,0000-01-31,20,30\n";
    let o = r.run(&["rates", "check", &r.file("r.csv", rates.as_bytes())]);
    assert_eq!(o.status.code(), Some(1));
    let out = crate::common::out(&o);
    assert!(
        out.contains("line 2: valid_from 0000-01-01 is outside the dates vigia accepts"),
        "{out}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_holder_is_found_by_the_document_as_people_write_it() {
    let r = Reg::new().with_holders();
    for doc in ["1000000001", "1.000.000.001", "1 000 000 001"] {
        let rows = r.json(&["adjudications", "list", "--holder", doc, "--format", "json"]);
        assert_eq!(rows.as_array().map(Vec::len), Some(1), "{doc}: {rows}");
        assert_eq!(rows[0]["doc_number"], "1000000001");
    }
    let rows = r.json(&[
        "adjudications",
        "list",
        "--holder",
        "999.000.001-2",
        "--format",
        "json",
    ]);
    assert_eq!(rows[0]["name"], "Sindicato de Prueba", "{rows}");
    let e = r.fails(&["adjudications", "list", "--holder", "999.000.001-9"]);
    assert!(e.contains("wrong check digit"), "{e}");
    let e = r.fails(&["adjudications", "list", "--holder", "79/263"]);
    assert!(e.contains("is not a document number"), "{e}");
}

#[test]
fn implausible_rates_are_refused_everywhere_and_a_confirmed_usury_figure_needs_a_reason() {
    let r = Reg::new();
    let add = |extra: &[&str]| {
        let mut args = vec![
            "rates",
            "add",
            "--from",
            "2026-11-01",
            "--to",
            "2026-11-30",
            "--resolution",
            "SFC Res. 1650 de 2026",
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let before = r.dump();
    // a fraction typed as a percent (issue 10: it was stored as 0.2835 % EA)
    let e = r.fails(&add(&["--ibc", "0.189"]));
    assert_eq!(
        e.trim(),
        "vigia: error: rates add --from 2026-11-01 --to 2026-11-30: --ibc 0.189 is not a believable % EA (must be from 1 to below 100); \
         rates are percentages: a fraction 0.189 would be 18.9 %, write that"
    );
    let e = r.fails(&add(&["--ibc", "19.06", "--usury", "30"]));
    assert!(
        e.contains("--usury 30 is not 1.5 × --ibc 19.06 (= 28.590); check both figures against the SFC resolution; \
                    if the resolution prints exactly this figure, repeat with --force --reason TEXT"),
        "{e}"
    );
    // --force needs a reason, and a reason needs --force or --supersede
    r.fails(&add(&["--ibc", "19.06", "--usury", "30", "--force"]));
    r.fails(&add(&["--ibc", "19.06", "--usury", "30", "--reason", "x"]));
    // --force does not make an implausible IBC acceptable
    r.fails(&add(&["--ibc", "0.189", "--force", "--reason", "x"]));
    assert_eq!(r.dump(), before);
    let o = r.ok(&add(&[
        "--ibc",
        "19.06",
        "--usury",
        "30",
        "--force",
        "--reason",
        "the resolution prints 30.00",
    ]));
    assert!(
        o.starts_with("rate 1: 2026-11-01..2026-11-30 moratorium 30 % EA"),
        "{o}"
    );
    let action: String = r
        .conn()
        .query_row(
            "SELECT action FROM audit_events WHERE entity = 'rate_periods' AND entity_id = 1",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(action, "rate.add forced: the resolution prints 30.00");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    // --force alone supersedes nothing
    r.fails(&add(&["--ibc", "19.06", "--force", "--reason", "again"]));
    // a change of more than 5 points from the month before is a warning, not a refusal
    let o = r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-12-01",
        "--to",
        "2026-12-31",
        "--ibc",
        "25.10",
        "--resolution",
        "SFC Res. 1800 de 2026",
    ]);
    assert!(
        o.contains("  warning: IBC 25.10 % EA for 2026-12-01..2026-12-31 is 6.04 points above the 19.06 % EA of 2026-11-01..2026-11-30"),
        "{o}"
    );
    // in a Spanish run, in Spanish, the rate as typed (32,985, not 32,98): 32,985 − 25,10 = 7,885
    let o = r.ok(&[
        "--lang",
        "es",
        "rates",
        "add",
        "--from",
        "01/01/2027",
        "--to",
        "31/01/2027",
        "--ibc",
        "32,985",
        "--resolution",
        "SFC Res. 1 de 2027",
    ]);
    assert!(
        o.contains(
            "  advertencia: el IBC de 32,985 % EA del 01/01/2027 al 31/01/2027 está 7,885 puntos \
             por encima del 25,10 % EA del 01/12/2026 al 31/12/2026; compruébelo con la resolución \
             de la Superintendencia Financiera"
        ),
        "{o}"
    );

    // the same standard for files: check, import and --rates
    let rates = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\r\n2030-01-01,2030-01-31,0.189,,x\r\n";
    let path = r.file("fraction.csv", rates.as_bytes());
    let o = r.run(&["rates", "check", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", crate::common::out(&o));
    assert!(crate::common::out(&o).contains("line 2: ibc_ea_pct 0.189 is not a believable % EA"));
    let e = r.fails(&["rates", "import", &path]);
    assert!(
        e.contains("line 2: ibc_ea_pct 0.189 is not a believable % EA"),
        "{e}"
    );
    let e = r.fails(&["--rates", &path, "rates", "list"]);
    assert!(
        e.contains("line 2: ibc_ea_pct 0.189 is not a believable % EA"),
        "{e}"
    );
}

#[test]
fn rates_check_lists_jumps_as_warnings_and_still_exits_0() {
    let r = Reg::without_register();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schema/rates/ibc_consumo_ordinario.csv"
    );
    let o = r.run(&["rates", "check", path]);
    assert_eq!(o.status.code(), Some(0));
    let out = crate::common::out(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with(
            "line 6: warning: IBC 33.57 % EA for 1999-04-01..1999-04-30 is 6.19 points below"
        ),
        "{out}"
    );
    assert!(
        lines[3].ends_with("249 periods, 1999-01-01..2026-10-31, no problems"),
        "{out}"
    );
}

#[test]
fn a_row_of_more_shares_than_the_program_offers_is_refused_by_line() {
    let r = Reg::new();
    let before = r.dump();
    let csv = format!(
        "{HEADER}CC,1000000101,Ana,natural,trabajador,9223372036854775807,,2024-03-15,,\n\
         CC,1000000102,Bob,natural,trabajador,12960983,,2024-03-15,,\n\
         CC,1000000103,Eva,natural,trabajador,10,,2024-03-15,Banco X,11\n"
    );
    let e = r.fails(&import_args(&r.file("big.csv", csv.as_bytes())));
    assert_eq!(
        problems(&e),
        [
            "line 2: shares \"9223372036854775807\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
            "line 3: shares \"12960983\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
            "line 4: financed_shares \"11\": exceeds the 10 shares adjudicated",
        ],
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn program_numbers_are_bounded_with_the_rule_in_the_message() {
    let r = Reg::new();
    let before = r.dump();
    let shipped = std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"OTRO\"");
    let refused = |from: &str, to: &str| {
        assert!(shipped.contains(from), "{from}");
        let path = r.file("p.toml", shipped.replace(from, to).as_bytes());
        r.fails(&["program", "add", &path])
    };
    // issue 11: accepted, then `notice issue` spun for 10 s and panicked
    let e = refused(
        "payment_term_business_days = 10",
        "payment_term_business_days = 4294967295",
    );
    assert!(
        e.ends_with("field `payment_term_business_days`: 4294967295 is not a term vigia counts: write 1 to 90 business days (the shipped program uses 10)\n"),
        "{e}"
    );
    let e = refused("lockup_months = 24", "lockup_months = 36");
    assert!(
        e.contains("field `lockup_months`: 36 months is not a lock-up Ley 226 de 1995 art. 14 allows: write 1 to 24"),
        "{e}"
    );
    // sellers whose shares overflow when summed (a panic in a debug build, a wrap in release)
    let e = refused("shares = 12861067", "shares = 18446744073709551615");
    assert!(
        e.contains(
            "field `sellers.shares`: the sellers' shares add up to more than 9223372036854775807"
        ),
        "{e}"
    );
    // in Spanish under --lang es (the command line said the program's refusals in English only)
    let path = r.file(
        "p.toml",
        shipped
            .replace("shares = 12861067", "shares = 18446744073709551615")
            .as_bytes(),
    );
    let e = r.fails(&["--lang", "es", "program", "add", &path]);
    assert!(
        e.contains(
            "campo `sellers.shares`: las acciones de los vendedores (`shares` de cada \
             `[[sellers]]`) suman más de 9.223.372.036.854.775.807"
        ),
        "{e}"
    );
    let e = refused(
        "shares_offered = 12960982",
        "shares_offered = 18446744073709551615",
    );
    assert!(e.contains("field `shares_offered`: 18446744073709551615 is not a number of shares vigia can register"), "{e}");
    assert_eq!(r.dump(), before);
}

#[test]
fn a_bad_rates_file_names_its_first_problem_and_the_command_that_lists_all() {
    let r = Reg::without_register();
    let rates = "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
                 2030-01-01,2030-01-31,abc,,A\n\
                 2030-02-01,2030-02-28,xyz,,B\n";
    let path = r.file("r.csv", rates.as_bytes());
    let e = r.fails(&["--rates", &path, "rates", "list"]);
    assert!(e.contains(&format!("rates file {path}: line 2: ")), "{e}");
    assert!(
        e.contains(&format!(
            "(and 1 more problem(s); run `vigia rates check {path}` to list them all)"
        )),
        "{e}"
    );
}
