//! The register end to end: the real binary on temporary databases, the way a compliance officer
//! uses it. Figures are SPEC.md §5's worked example (principal 1,087,500; 1,143,967 due at
//! 2025-02-10 without payments; 626,823 after paying 500,000 on 2024-12-15).

use serde_json::Value;

use crate::common::{HEADER, PROGRAM, Reg, err, out};

pub(crate) fn interests(v: &Value) -> Vec<String> {
    v["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["interest"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_whole_life_of_a_fine() {
    let r = Reg::new().with_holders();
    assert!(
        r.ok(&[
            "pledge",
            "register",
            "1",
            "--rank",
            "1",
            "--registered-on",
            "2024-04-01"
        ])
        .contains("pledge 1")
    );
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--price",
        "1100",
        "--date",
        "2024-06-28",
    ]);
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
        "--consideration-per-share",
        "1450",
        "--evidence",
        "contrato",
    ]);

    // Liquidated before any payment: SPEC §5 without payments.
    let l = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2025-02-10",
        "--format",
        "json",
    ]);
    assert_eq!(l["liquidation_id"], 1);
    assert_eq!(l["principal"], "1087500");
    assert_eq!(l["reference"]["basis"], "transfer");
    assert_eq!(interests(&l), ["7334", "21639", "20535", "6959"]);
    assert_eq!(l["total_due"], "1143967");
    assert_eq!(l["provisional"], false);

    // A partial payment: SPEC §5 with the payment of 500,000 on 2024-12-15.
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "500000",
        "--reference",
        "c-1",
    ]);
    let s = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2025-02-10",
        "--format",
        "json",
    ]);
    assert_eq!(interests(&s), ["7334", "10470", "6216", "11430", "3873"]);
    assert_eq!(s["payments"][0]["to_interest"], "17804");
    assert_eq!(s["payments"][0]["to_capital"], "482196");
    assert_eq!(s["total_due"], "626823");

    // The pledge stays while the fine is outstanding, and while the lock-up runs.
    let e = r.fails(&["pledge", "release", "1", "--on", "2026-03-16"]);
    assert!(e.contains("fine of breach 1 is outstanding"), "{e}");
    let e = r.fails(&["pledge", "release", "1", "--on", "2026-03-15"]);
    assert!(e.contains("runs until 2026-03-15"), "{e}");

    // Paid in full on 2025-02-10.
    crate::notices::pay_in_full(&r);
    let s = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2025-02-10",
        "--format",
        "json",
    ]);
    assert_eq!(s["total_due"], "0");
    assert_eq!(s["payments"][1]["to_interest"], "21519");
    assert_eq!(s["payments"][1]["to_capital"], "605304");

    assert!(
        r.ok(&["pledge", "release", "1", "--on", "2026-03-16"])
            .contains("released")
    );
    let a = r.json(&["adjudications", "show", "1", "--format", "json"]);
    assert_eq!(a["pledges"][0]["released_on"], "2026-03-16");
    assert_eq!(a["breaches"][0]["payments"].as_array().unwrap().len(), 2);
    assert_eq!(a["unbreached_shares"], 0);

    // The stored liquidation is unchanged by later payments and reproduces from its inputs.
    assert!(
        r.ok(&["fine", "reproduce", "1"])
            .contains("reproduces: total due $ 1.143.967")
    );
    let b = r.json(&["breach", "show", "1", "--format", "json"]);
    assert_eq!(b["liquidations"][0]["total_due"], "1143967");

    let v = r.ok(&["audit", "verify"]);
    assert!(v.contains("audit trail intact"), "{v}");
    let log = r.json(&["audit", "log", "--format", "json"]);
    let actions: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "audit.checkpoint",
            "program.add",
            "adjudications.import",
            "pledge.register",
            "program.stage-price",
            "breach.record",
            "fine.liquidate",
            "payment.record",
            "payment.record",
            "pledge.release"
        ]
    );
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .all(|e| e["actor"] == "tester")
    );
}

#[test]
fn init_reports_the_path_and_protects_the_file() {
    let r = Reg::without_register();
    let db = r.dir.path().join("sub").join("r.db");
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("init")
        .output()
        .unwrap();
    assert!(
        out(&o).contains(&format!("register created: {}", db.display())),
        "{}",
        out(&o)
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&db).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    // VIGIA_DB is used when --db is absent; commands refuse a register that does not exist.
    let o = r
        .command()
        .args(["program", "list"])
        .env("VIGIA_DB", r.dir.path().join("missing.db"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("vigia init"), "{}", err(&o));
}

#[test]
fn a_failed_import_changes_nothing_and_names_every_bad_row() {
    let r = Reg::new();
    let before = r.dump();
    let csv = format!(
        "{HEADER}CC,1000000001,Ana,natural,trabajador,1000,,2024-03-15,,\n\
         NIT,999000001-9,Mal DV,legal,sindicato,10,,2024-03-15,,\n\
         CC,1000000003,Sin Fecha,natural,trabajador,10,,15-03-24,,\n\
         CC,1000000004,Cero,natural,trabajador,0,,2024-03-15,,\n\
         XX,1,Tipo,natural,trabajador,10,,2024-03-15,,\n\
         CC,1000000005,Categoria,natural,gerente,10,,2024-03-15,,\n\
         CC,1000000006,Precio,natural,trabajador,10,-5,2024-03-15,,\n\
         CC,1000000007,Financiado,natural,trabajador,10,,2024-03-15,,11\n\
         CC,1000000008,,natural,trabajador,10,,2024-03-15,,\n"
    );
    let path = r.file("bad.csv", csv.as_bytes());
    let e = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    for expected in [
        "line 3: doc_number \"999000001-9\": NIT 999000001-9 has a wrong check digit: the DIAN algorithm gives 2",
        "line 4: adjudicated_on \"15-03-24\"",
        "line 5: shares \"0\"",
        "line 6: doc_type \"XX\"",
        "line 7: category \"gerente\"",
        "line 8: price_per_share \"-5\"",
        "line 9: financed_shares \"11\"",
        "line 10: name \"\"",
        "nothing was written",
    ] {
        assert!(e.contains(expected), "missing {expected:?} in:\n{e}");
    }
    assert_eq!(
        r.dump(),
        before,
        "a failed import must leave the store as it was"
    );

    // A holder whose document is already registered under another name: refused as a whole.
    let good = r.file(
        "good.csv",
        format!("{HEADER}CC,1000000001,Ana,natural,trabajador,1000,,2024-03-15,,\n").as_bytes(),
    );
    r.ok(&["adjudications", "import", &good, "--program", "D3939-2004"]);
    let before = r.dump();
    let clash = r.file(
        "clash.csv",
        format!("{HEADER}CC,1000000009,Nuevo,natural,trabajador,5,,2024-03-15,,\nCC,1000000001,Ana María,natural,trabajador,5,,2024-03-15,,\n").as_bytes(),
    );
    let e = r.fails(&["adjudications", "import", &clash, "--program", "D3939-2004"]);
    assert!(
        e.contains("line 3") && e.contains("already registered as \"Ana\""),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // the same clash after a bad row (issue 13's review): both in one upload, in line order
    let both = r.file(
        "both.csv",
        format!("{HEADER}CC,1000000009,Nuevo,natural,trabajador,abc,,2024-03-15,,\nCC,1000000001,Ana María,natural,trabajador,5,,2024-03-15,,\n").as_bytes(),
    );
    let e = r.fails(&["adjudications", "import", &both, "--program", "D3939-2004"]);
    let shares = e.find("line 2: shares \"abc\"");
    let name = e.find("line 3: name \"Ana María\": CC 1000000001 is already registered as \"Ana\"");
    assert!(matches!((shares, name), (Some(a), Some(b)) if a < b), "{e}");
    assert!(e.contains("2 problem(s), nothing was written"), "{e}");
    assert_eq!(r.dump(), before);
}

#[test]
fn one_holder_with_several_adjudications_in_one_file() {
    // The same document twice with the same name: two adjudications, one holder (rows are stored
    // in groups of 64, so also across a group boundary: rows 2 and 70).
    let r = Reg::new();
    let mut csv = String::from(HEADER);
    csv.push_str("CC,1000000001,Ana,natural,trabajador,10,,2024-03-15,,\n");
    for i in 0..67 {
        csv.push_str(&format!(
            "CC,{},Otro {i},natural,trabajador,1,,2024-03-15,,\n",
            2_000_000_000 + i
        ));
    }
    csv.push_str("CC,1000000001,Ana,natural,trabajador,5,,2024-04-15,,\n");
    let path = r.file("dup.csv", csv.as_bytes());
    let o = r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        o.contains("69 adjudication(s) added") && o.contains("68 new holder(s)"),
        "{o}"
    );
    let mine = r.json(&[
        "adjudications",
        "list",
        "--holder",
        "1000000001",
        "--format",
        "json",
    ]);
    assert_eq!(mine.as_array().unwrap().len(), 2);
    assert_eq!(mine[0]["shares"], 10);
    assert_eq!(mine[1]["shares"], 5);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));

    // ... and with another name in the same group: refused, nothing written.
    let before = r.dump();
    let bad = format!(
        "{HEADER}CC,3000000001,Eva,natural,trabajador,1,,2024-03-15,,\nCC,3000000001,Eva María,natural,trabajador,1,,2024-03-15,,\n"
    );
    let path = r.file("dup2.csv", bad.as_bytes());
    let e = r.fails(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        e.contains("line 3") && e.contains("already registered as \"Eva\""),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn reimporting_the_same_file_adds_nothing() {
    let r = Reg::new();
    let path = r.file(
        "a.csv",
        format!("{HEADER}CC,1000000001,Ana,natural,trabajador,1000,,2024-03-15,,\n").as_bytes(),
    );
    assert!(
        r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"])
            .contains("1 adjudication(s) added")
    );
    let before = r.dump();
    let again = r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        again.contains("already imported as import 1") && again.contains("nothing added"),
        "{again}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn imports_the_es_co_excel_export() {
    let r = Reg::new();
    let mut bytes = HEADER.replace(',', ";").into_bytes();
    // Windows-1252: "José Núñez" (é = E9, ú = FA, ñ = F1); 1.450,50 and 15/03/2024.
    bytes.extend_from_slice(
        b"CC;79.123.456;Jos\xE9 N\xFA\xF1ez;natural;trabajador;1.000;1.450,50;15/03/2024;;\r\n",
    );
    bytes.extend_from_slice(b"NIT;999.000.002-1;Fondo de Empleados;jur\xEDdica;fondo-empleados;20.000;;15/03/2024;Banco Ejemplo;20.000\r\n");
    let path = r.file("excel.csv", &bytes);
    let o = r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        o.contains("Windows-1252") && o.contains("separator ';'"),
        "{o}"
    );
    let list = r.json(&["adjudications", "list", "--format", "json"]);
    assert_eq!(list[0]["name"], "José Núñez");
    assert_eq!(list[0]["doc_number"], "79123456");
    assert_eq!(list[0]["shares"], 1000);
    assert_eq!(list[0]["price_per_share"], "1450.50");
    assert_eq!(list[1]["doc_number"], "999000002-1");
    assert_eq!(list[1]["price_per_share"], "963.00"); // empty = the program's fixed price
    assert_eq!(list[1]["financed_shares"], 20000);

    // The UTF-8 file with a BOM reads the same.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(
        format!("{HEADER}CC,1000000010,Ñandú Pérez,natural,trabajador,5,,2024-03-15,,\n")
            .as_bytes(),
    );
    let path = r.file("bom.csv", &bom);
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let list = r.json(&[
        "adjudications",
        "list",
        "--holder",
        "1000000010",
        "--format",
        "json",
    ]);
    assert_eq!(list[0]["name"], "Ñandú Pérez");
}

#[test]
fn audit_verify_names_a_breach_edited_by_hand() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
    ]);
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-12-20",
        "--shares",
        "20",
    ]);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    let seq: i64 = r
        .conn()
        .query_row(
            "SELECT seq FROM audit_events WHERE entity = 'breaches' AND entity_id = 2",
            [],
            |x| x.get(0),
        )
        .unwrap();
    // Somebody edits the second breach in SQLite (dropping the append-only guard first).
    r.conn()
        .execute_batch(
            "DROP TRIGGER breaches_no_update; UPDATE breaches SET shares = 2 WHERE id = 2;",
        )
        .unwrap();
    let o = r.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(
        text.contains(&format!("AUDIT MISMATCH at event {seq} (breaches 2)")),
        "{text}"
    );
    assert!(
        text.contains("\"shares\":2") && text.contains("\"shares\":20"),
        "{text}"
    );

    // An imported adjudication edited by hand is found through its import's event, named by
    // row and column (issue 24.2).
    let r = Reg::new().with_holders();
    r.conn()
        .execute_batch("DROP TRIGGER adjudications_no_update; UPDATE adjudications SET shares = 999 WHERE id = 2;")
        .unwrap();
    let o = r.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains("(imports 1)")
            && out(&o).contains("adjudications: row 2, column shares changed"),
        "{}",
        out(&o)
    );
}

#[test]
fn breaches_are_refused_with_the_reason() {
    let r = Reg::new().with_holders();
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2026-03-16",
        "--shares",
        "1",
    ]);
    assert!(
        e.contains("no fine applies") && e.contains("ended on 2026-03-15"),
        "{e}"
    );
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-03-14",
        "--shares",
        "1",
    ]);
    assert!(e.contains("before the adjudication"), "{e}");
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "600",
    ]);
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "dacion-en-pago",
        "--date",
        "2024-12-01",
        "--shares",
        "401",
    ]);
    assert!(
        e.contains("only 400 of them are not in a breach already recorded: record at most 400"),
        "{e}"
    );
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "99",
        "--kind",
        "sale",
        "--date",
        "2024-12-01",
        "--shares",
        "1",
    ]);
    assert!(e.contains("no adjudication 99"), "{e}");
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "robo",
        "--date",
        "2024-12-01",
        "--shares",
        "1",
    ]);
    assert!(e.contains("unknown breach kind"), "{e}");

    // A program that lists only sales refuses the other kinds.
    let only_sales = std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"SOLO-VENTA\"")
        .replace(
            "breach_kinds = [\"sale\", \"beneficial-owner\", \"dacion-en-pago\", \"credit-subrogation\"]",
            "breach_kinds = [\"sale\"]",
        );
    let p = r.file("solo.toml", only_sales.as_bytes());
    r.ok(&["program", "add", &p]);
    let csv = r.file(
        "s.csv",
        format!("{HEADER}CC,1000000020,Eva,natural,trabajador,10,,2024-03-15,,\n").as_bytes(),
    );
    r.ok(&["adjudications", "import", &csv, "--program", "SOLO-VENTA"]);
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "4",
        "--kind",
        "credit-subrogation",
        "--date",
        "2024-12-01",
        "--shares",
        "1",
    ]);
    assert!(
        e.contains("does not list that breach kind; it lists sale"),
        "{e}"
    );
}

#[test]
fn a_voided_breach_stays_on_record_and_frees_its_shares() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
    ]);
    assert!(
        r.ok(&["breach", "void", "1", "--reason", "wrong holder"])
            .contains("voided")
    );
    let b = r.json(&["breach", "show", "1", "--format", "json"]);
    assert_eq!(b["void"], true);
    assert_eq!(b["void_reason"], "wrong holder");
    assert_eq!(b["voided_by"], "tester");
    let e = r.fails(&["fine", "liquidate", "1", "--until", "2025-02-10"]);
    assert!(e.contains("voided"), "{e}");
    let e = r.fails(&["breach", "void", "1", "--reason", "again"]);
    assert!(e.contains("already voided"), "{e}");
    // the shares are free to be recorded in a correct breach
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-21",
        "--shares",
        "1000",
    ]);
    let csv = r.ok(&["breach", "list", "--format", "csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("id,adjudication_id,kind,breach_date,shares"),
        "{csv}"
    );
    assert_eq!(lines.len(), 3);
}

/// The cells of the column headed `header` in a psql-style table, row by row.
fn column_of(table: &str, header: &str) -> Vec<String> {
    let cells =
        |line: &str| -> Vec<String> { line.split('|').map(|c| c.trim().to_string()).collect() };
    let mut lines = table.lines();
    let at = cells(lines.next().unwrap())
        .iter()
        .position(|h| h == header)
        .unwrap_or_else(|| panic!("no column {header}: {table}"));
    lines
        .skip(1) // the rule under the header
        .map(|l| cells(l)[at].clone())
        .collect()
}

#[test]
fn a_listings_prices_show_with_one_number_of_decimals_per_list() {
    let r = Reg::new();
    // the program's fixed price is stored as 963.00; typed, it is 963
    let path = r.file(
        "a.csv",
        format!(
            "{HEADER}CC,1000000001,Ana,natural,trabajador,10,963,2024-03-15,,\n\
             CC,1000000002,Berta,natural,trabajador,10,,2024-03-15,,\n"
        )
        .as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let list = r.json(&["adjudications", "list", "--format", "json"]);
    assert_eq!(list[0]["price_per_share"], "963");
    assert_eq!(list[1]["price_per_share"], "963.00");
    // no price needs decimals: none shows them
    let es = r.ok(&["--lang", "es", "adjudications", "list"]);
    assert_eq!(
        column_of(&es, "Precio por acción"),
        ["$ 963", "$ 963"],
        "{es}"
    );
    let en = r.ok(&["adjudications", "list"]);
    assert_eq!(column_of(&en, "price_per_share"), ["963", "963"], "{en}");
    // one price with cents: every price of the list shows two decimals
    let path = r.file(
        "b.csv",
        format!("{HEADER}CC,1000000003,Carla,natural,trabajador,10,1450.5,2024-03-15,,\n")
            .as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let es = r.ok(&["--lang", "es", "adjudications", "list"]);
    assert_eq!(
        column_of(&es, "Precio por acción"),
        ["$ 963,00", "$ 963,00", "$ 1.450,50"],
        "{es}"
    );
    let en = r.ok(&["adjudications", "list"]);
    assert_eq!(
        column_of(&en, "price_per_share"),
        ["963.00", "963.00", "1450.50"],
        "{en}"
    );
}

#[test]
fn listings_offer_table_json_and_csv() {
    let r = Reg::new().with_holders();
    let t = r.ok(&["adjudications", "list", "--as-of", "2025-01-01"]);
    assert!(
        t.contains("Sindicato de Prueba") && t.contains("locked"),
        "{t}"
    );
    let j = r.json(&[
        "adjudications",
        "list",
        "--status",
        "free",
        "--as-of",
        "2026-03-16",
        "--format",
        "json",
    ]);
    assert_eq!(j.as_array().unwrap().len(), 3);
    let j = r.json(&[
        "adjudications",
        "list",
        "--status",
        "locked",
        "--as-of",
        "2026-03-16",
        "--format",
        "json",
    ]);
    assert_eq!(j.as_array().unwrap().len(), 0);
    // the words the Spanish list prints select the same rows: «libre» as free (the 3 above),
    // «en restricción» as locked (none of them on 16/03/2026)
    for (typed, rows) in [
        ("libre", 3),
        ("Libre", 3),
        ("en restricción", 0),
        ("en-restriccion", 0),
    ] {
        let j = r.json(&[
            "--lang",
            "es",
            "adjudications",
            "list",
            "--status",
            typed,
            "--as-of",
            "16/03/2026",
            "--format",
            "json",
        ]);
        assert_eq!(j.as_array().unwrap().len(), rows, "{typed}");
    }
    let c = r.ok(&["program", "list", "--format", "csv"]);
    assert_eq!(
        c.lines().next().unwrap(),
        "id,code,decree,name,shares_offered,fixed_price"
    );
    let p = r.json(&["program", "show", "D3939-2004", "--format", "json"]);
    assert_eq!(p["shares_offered"], 12960982);
    assert_eq!(p["stage_price"], "pending");
    let created = r.json(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "credit-subrogation",
        "--date",
        "2024-05-01",
        "--shares",
        "2500",
        "--format",
        "json",
    ]);
    assert_eq!(created["id"], 1);
    assert_eq!(created["kind"], "credit-subrogation");
    let e = r.fails(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    assert!(e.contains("no financing lender"), "{e}");
    r.ok(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    let e = r.fails(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-02",
    ]);
    assert!(e.contains("already has pledge 1"), "{e}");
    // registering the same program file twice adds nothing; a changed file under the same code is refused
    assert!(r.ok(&["program", "add", PROGRAM]).contains("nothing added"));
    let changed = std::fs::read_to_string(PROGRAM).unwrap().replace(
        "payment_term_business_days = 10",
        "payment_term_business_days = 15",
    );
    let p = r.file("changed.toml", changed.as_bytes());
    let e = r.fails(&["program", "add", &p]);
    assert!(e.contains("never edited"), "{e}");
}

#[test]
fn demo_runs_the_life_of_a_fine() {
    let r = Reg::without_register();
    let db = r.dir.path().join("demo.db");
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("demo")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    for expected in [
        "TOTAL A PAGAR al 10/02/2025:            $ 626.823",
        "refused, as it should be",
        "audit trail intact",
        "(DEMO)",
    ] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
    // the web's hint names the demo's own audit key, which its audit pages check checkpoints with
    let key = db.with_file_name("audit.key");
    assert!(
        text.contains(&format!(
            "$ vigia --db {} --key {} serve",
            db.display(),
            key.display()
        )),
        "{text}"
    );
    // a second run refuses to overwrite: it names --db and leaves the register as it was
    let before = std::fs::read(&db).unwrap();
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("demo")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "{}", out(&o));
    assert!(
        err(&o).contains(&format!("--db {}", db.display())),
        "{}",
        err(&o)
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
}
