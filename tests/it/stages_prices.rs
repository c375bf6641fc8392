//! Later stages (Todo o Nada) after the draw: void stages, bad proposal files, the stage price in the
//! fine, share-weighted tranches and the stage acta (the register and helpers are in `stages.rs`).

use crate::stages::*;
use serde_json::Value;

#[test]
fn a_void_second_stage_passes_to_the_third_and_a_void_third_means_no_stage_price() {
    let r = second_stage();
    // every proposal fails: below the minimum ($963), not the whole block, late
    let mut late = line("L", "CC:1000000103:Tres (PRUEBA)", "1500", 0);
    late = late.replace("2024-06-10", "2024-06-15");
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno (PRUEBA)", "962.99", 0),
            line("B", "CC:1000000102:Dos (PRUEBA)", "1500", 0).replace(BLOCK, "1000"),
            late,
        ],
    );
    let t = evaluate(&r, "2");
    assert_eq!(t["outcome"], "desert");
    let causes: Vec<String> = rows(&t).into_iter().map(|r| r.2).collect();
    assert_eq!(
        causes,
        ["BELOW_MINIMUM_PRICE", "NOT_WHOLE_BLOCK", "OUTSIDE_WINDOW"]
    );
    let e = r.fails(&crate::stages::adjudicate_second(&[]));
    assert!(
        e.contains("declare it void (`vigia stage desert D3939-2004 --stage 2 --on 2024-06-28`)"),
        "{e}"
    );
    // the Third Stage waits for the Second
    let e = r.fails(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "3",
        "--shares",
        BLOCK,
        "--opens",
        "2024-07-01",
        "--closes",
        "2024-07-12",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(
        e.contains("the Second Stage of D3939-2004 has not ended"),
        "{e}"
    );
    let out = r.ok(&[
        "stage",
        "desert",
        "D3939-2004",
        "--stage",
        "2",
        "--on",
        "2024-06-28",
    ]);
    assert!(out.contains("declared void on 2024-06-28 (conclusion 1): no valid proposal; 12886682 shares pass to the Third Stage"), "{out}");
    assert_eq!(stage_price(&r), "pending");
    // the Third offers the same shares, more than them is refused
    let e = r.fails(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "3",
        "--shares",
        "12886683",
        "--opens",
        "2024-07-01",
        "--closes",
        "2024-07-12",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(
        e.contains("--shares 12886683: the stage can offer 12886682 more share(s)"),
        "{e}"
    );
    r.ok(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "3",
        "--shares",
        BLOCK,
        "--opens",
        "2024-07-01",
        "--closes",
        "2024-07-12",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    let out = r.ok(&[
        "stage",
        "desert",
        "D3939-2004",
        "--stage",
        "3",
        "--on",
        "2024-07-15",
        "--acta",
        "acta3.md",
    ]);
    assert!(
        out.contains("unsold, and it was the program's last stage"),
        "{out}"
    );
    assert!(
        out.contains("the stage price is absent (as `program stage-price --stage none`)"),
        "{out}"
    );
    assert_eq!(stage_price(&r), "none (no later stage)");
    let acta = std::fs::read_to_string(r.dir.path().join("acta3.md")).unwrap();
    assert!(
        acta.contains("# Acta de declaratoria de desierta de la Tercera Etapa"),
        "{acta}"
    );
    assert!(
        acta.contains("Tramo 1: no se recibieron propuestas."),
        "{acta}"
    );
    let v = r.ok(&["stage", "verify", "acta3.md"]);
    assert!(
        v.starts_with("verified: acta of stage 3 of D3939-2004 (conclusion 2, declared void on 2024-07-15: 12886682 shares unsold)"),
        "{v}"
    );
    // the same verdict in Spanish, es-CO date and count
    let v = r.ok(&["--lang", "es", "stage", "verify", "acta3.md"]);
    assert!(
        v.starts_with("verificada: acta de la Tercera Etapa de D3939-2004 (conclusión N.º 2, declarada desierta el 15/07/2024: 12.886.682 acciones sin vender)"),
        "{v}"
    );
    r.ok(&["audit", "verify"]);
}

#[test]
fn a_bad_proposals_file_names_every_bad_line_and_writes_nothing() {
    let r = second_stage();
    let before = r.dump();
    let text = format!(
        "{HEADER}{}{}{}{}",
        line("A", "CC:1000000101:Uno", "1100", 0),
        "B,2024-06-10,CC:12:Corto,,12886682,mil,0,,tal vez,\n",
        "A,2024-06-10,CC:1000000102:Dos,,12886682,1100,-1,,si,\n",
        "C,2024-06-10,CC:1000000103:Tres,,12886682,1100,0,,si,\n".replace(",,si,\n", ",,si,,2\n"),
    );
    // the last line names a tranche: the header must have the column
    let text = text.replace(
        "funds_accredited,review\n",
        "funds_accredited,review,tranche\n",
    );
    let path = r.file("bad.csv", text.as_bytes());
    let e = r.fails(&proposals_import(&path));
    for want in [
        "line 3: bidders \"CC:12:Corto\": CC \"12\" must be 3 to 11 digits",
        "line 3: price_per_share \"mil\"",
        "line 3: funds_accredited \"tal vez\": must be si or no",
        "line 4: term_days \"-1\"",
        "line 4: proposal \"A\": the same reference as line 2",
    ] {
        assert!(e.contains(want), "{want} in {e}");
    }
    assert_eq!(r.dump(), before);
    // a clean file but for a tranche that is not open
    let path = r.file(
        "tranche.csv",
        format!(
            "{}{}",
            HEADER.replace("review\n", "review,tranche\n"),
            line("C", "CC:1000000103:Tres", "1100", 0).replace(",si,\n", ",si,,2\n")
        )
        .as_bytes(),
    );
    let e = r.fails(&proposals_import(&path));
    assert!(
        e.contains("line 2: tranche \"2\": the Second Stage has tranche 1: open this one first"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // a Spanish header: its refusals name the columns as the header writes them, the
    // register's (the tranche) as the reader's (the price)
    let path = r.file(
        "tramo.csv",
        "Propuesta;Fecha radicación;Proponentes;Beneficiario real;Acciones;Precio por acción;\
         Plazo días;Garantía;Fondos acreditados;Revisión;Tramo\n\
         C;10/06/2024;CC:1000000103:Tres;;12.886.682;1.100;0;500.000.000;si;;2\n\
         D;10/06/2024;CC:1000000104:Cuatro;;12.886.682;mil;0;500.000.000;si;;1\n"
            .as_bytes(),
    );
    let o = r.run(&[&["--lang", "es"][..], &proposals_import(&path)].concat());
    let e = String::from_utf8_lossy(&o.stderr);
    for want in [
        "línea 2: Tramo «2»: la Segunda Etapa tiene el tramo 1: abra antes este tramo",
        "línea 3: Precio por acción «mil»",
    ] {
        assert!(e.contains(want), "{want} in {e}");
    }
    assert_eq!(r.dump(), before);
    // a workbook is named, not read
    let path = r.file("x.csv", b"PK\x03\x04\x00\x00binary");
    r.fails(&proposals_import(&path));
    // the same good file twice adds nothing
    let path = r.file(
        "ok.csv",
        format!("{HEADER}{}", line("A", "CC:1000000101:Uno", "1100", 0)).as_bytes(),
    );
    r.ok(&proposals_import(&path));
    let out = r.ok(&proposals_import(&path));
    assert!(
        out.contains("was already imported as proposals import 1"),
        "{out}"
    );
}

#[test]
fn the_stage_price_flows_into_a_fine_that_was_provisional() {
    let r = second_stage();
    // adjudication 1: Ana, 1,000 shares on 2024-03-15; she sold them for $1,000 each on 2024-11-20
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
        "1000",
    ]);
    let l = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2024-11-20",
        "--format",
        "json",
    ]);
    assert_eq!(l["provisional"], true);
    assert_eq!(l["principal"], "750000"); // 1,000 × max(963, 1,000) × 75 %
    import(
        &r,
        "2",
        &[line("A", "NIT:800191045-1:Compradora (PRUEBA)", "1500", 0)],
    );
    r.ok(&crate::stages::adjudicate_second(&[]));
    // the check flags the provisional liquidation for re-liquidation
    let o = r.run(&["check", "--as-of", "2024-11-21", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&crate::common::out(&o)).unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "PROVISIONAL_STALE" && f["breach_id"] == 1),
        "{v:#}"
    );
    // a new liquidation takes the stage's $1,500: 1,000 × 1,500 × 75 % = 1,125,000, final
    let l = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2024-11-20",
        "--format",
        "json",
    ]);
    assert_eq!(l["provisional"], false);
    assert_eq!(l["principal"], "1125000");
}

/// The batch check prices an overdue fine as a liquidation does: Art. 9 (iii) is the highest of
/// the stages' prices (LEGAL_NOTES §7.1), not the price of the stage recorded last (it took the
/// latest: $1,050, below the transfer's $1,200, so it claimed 100 × 1,200 × 75 % = 90,000 + 7,506
/// = 97,506).
///
/// Worked by hand (`decimal`, SPEC §5, daily-simple): 100 shares adjudicated 2024-03-15, sold for
/// $1,200 each on 2024-09-20 (6 months and 5 days: 75 %); Stage 2 sold at $1,800, Stage 3 at
/// $1,050 → (iii) = 1,800 > 1,200 > 963; principal 100 × 1,800 × 75 % = 135,000. Interest from
/// 2024-09-21 to 2025-01-25, daily rate (1 + EA)^(1/365) − 1 of each month's moratorium rate:
/// Sep 21–30 10 d × 28.85 % → 135,000 × 0.0006947035 × 10 = 937.85 → 938; Oct 31 d × 28.17 % →
/// 135,000 × 0.0006801965 × 31 = 2,846.62 → 2,847; Nov 30 d × 27.90 % → × 0.0006744150 × 30 =
/// 2,731.38 → 2,731; Dec 31 d × 26.39 % → × 0.0006418557 × 31 = 2,686.17 → 2,686; Jan 1–25 25 d ×
/// 24.89 % → × 0.0006091256 × 25 = 2,055.80 → 2,056; interest 11,258; due 146,258. The notice,
/// delivered on Friday 2025-01-10, was due 10 business days later, 2025-01-24.
#[test]
fn the_check_takes_the_highest_stage_price_not_the_latest() {
    let r = crate::common::Reg::new().with_letterhead();
    let csv = format!(
        "{}CC,1000000001,Ana Prueba,natural,trabajador,100,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let path = r.file("a.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    for (stage, price, date) in [("2", "1800", "2024-06-28"), ("3", "1050", "2024-08-28")] {
        r.ok(&[
            "program",
            "stage-price",
            "D3939-2004",
            "--stage",
            stage,
            "--price",
            price,
            "--date",
            date,
        ]);
    }
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-09-20",
        "--shares",
        "100",
        "--consideration-per-share",
        "1200",
    ]);
    let out = r.dir.path().join("n.md").display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2024-11-30",
        "--date",
        "2024-11-30",
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "md",
        "--out",
        &out,
    ]);
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2024-0001",
        "--on",
        "2025-01-10",
        "--via",
        "personal",
    ]);
    let shown = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2025-01-25",
        "--format",
        "json",
    ]);
    assert_eq!(shown["total_due"], "146258");
    let o = r.run(&["check", "--as-of", "2025-01-25", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&crate::common::out(&o)).unwrap();
    let owed = |code: &str| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == code && f["breach_id"] == 1)
            .map(|f| f["outstanding"].clone())
    };
    assert_eq!(owed("NOTICE_OVERDUE"), Some(Value::from("146258")), "{v:#}");
    assert_eq!(
        owed("PLEDGE_ENFORCEABLE"),
        Some(Value::from("146258")),
        "{v:#}"
    );
}

#[test]
fn tranches_open_in_order_and_their_price_is_share_weighted() {
    // Tranche 1: 6,000,000 shares, tranche 2: 6,886,682. Winners at $1,100 and $1,150:
    // (6,000,000 × 1,100 + 6,886,682 × 1,150) / 12,886,682 = (6,600,000,000 + 7,919,684,300)
    // / 12,886,682 = 14,519,684,300 / 12,886,682 = 1,126.7202… → $1,126.72.
    let r = crate::stages::first_stage_adjudicated(
        "fictional sale of 2024 under the 2004 decree (tests)",
    );
    let open = |k: &str, shares: &str| {
        r.run(&[
            "stage",
            "open",
            "D3939-2004",
            "--stage",
            "2",
            "--tranche",
            k,
            "--shares",
            shares,
            "--opens",
            "2024-06-03",
            "--closes",
            "2024-06-14",
            "--reason",
            "fictional sale of 2024 under the 2004 decree (tests)",
        ])
    };
    assert_eq!(open("2", "1").status.code(), Some(2)); // tranche 1 first
    assert_eq!(open("1", "6000000").status.code(), Some(0));
    let text = format!(
        "{}{}{}",
        HEADER.replace("review\n", "review,tranche\n"),
        "A,2024-06-10,CC:1000000101:Uno,,6000000,1100,0,1,si,,1\n",
        "B,2024-06-10,CC:1000000102:Dos,,6886682,1150,0,1,si,,2\n"
    );
    // B is for tranche 2, which is not open yet: the file is refused
    let file = r.file("t.csv", text.as_bytes());
    let import = proposals_import(&file);
    let e = r.fails(&import);
    assert!(
        e.contains("line 3: tranche \"2\": the Second Stage has tranche 1: open this one first"),
        "{e}"
    );
    // with tranche 1 alone the stage does not offer the totality: adjudication is refused
    let e = r.fails(&crate::stages::adjudicate_second(&[]));
    assert!(e.contains("open the other 6886682 as tranche 2"), "{e}");
    assert_eq!(open("2", "6886682").status.code(), Some(0));
    r.ok(&import);
    let out = r.ok(&crate::stages::adjudicate_second(&[]));
    assert!(
        out.contains("$ 1.126,72 per share = (6000000 × 1100 + 6886682 × 1150) / 12886682 rounded to centavos"),
        "{out}"
    );
    assert_eq!(stage_price(&r), "1126.72");
}

/// A Second Stage that sold only part of its shares leaves the Third Stage pending: the Second's
/// price counts, as the highest so far, but every liquidation stays provisional and no paz y
/// salvo certifies the fine extinguished until the Third concludes (SPEC §4: "If a later stage is
/// still pending, the liquidation is provisional"; LEGAL_NOTES §7.1: a higher Third Stage price
/// raises the fine). They were final, and the paz y salvo was issued.
///
/// By hand: Ana (adjudication 1, 1,000 shares on 2024-03-15) sold 10 for $1,000 each on
/// 2024-07-10, within the first 6 months (100 %). The Second Stage sold tranche 1 (6,000,000
/// shares) at $1,100; tranche 2 (6,886,682) had no valid proposal ($950 < $963), so they pass to
/// the Third. (iii) so far $1,100 > 1,000 > 963: principal 10 × 1,100 × 100 % = 11,000,
/// provisional; she pays 11,000 the same day (0 days of interest). The Third Stage sells the
/// 6,886,682 at $1,500: (iii) = max(1,100, 1,500) = 1,500, principal 10 × 1,500 = 15,000, final,
/// 4,000 still owed; the check then flags the provisional liquidation (PROVISIONAL_STALE).
#[test]
fn a_partly_sold_second_stage_keeps_liquidations_provisional_until_the_third_concludes() {
    let reason = "fictional sale of 2024 under the 2004 decree (tests)";
    let r = crate::stages::first_stage_adjudicated(reason);
    let open = |stage: &str, k: &str, shares: &str, opens: &str, closes: &str| {
        r.ok(&[
            "stage",
            "open",
            "D3939-2004",
            "--stage",
            stage,
            "--tranche",
            k,
            "--shares",
            shares,
            "--opens",
            opens,
            "--closes",
            closes,
            "--reason",
            reason,
        ])
    };
    open("2", "1", "6000000", "2024-06-03", "2024-06-14");
    open("2", "2", "6886682", "2024-06-03", "2024-06-14");
    let text = format!(
        "{}{}{}",
        HEADER.replace("review\n", "review,tranche\n"),
        "A,2024-06-10,CC:1000000101:Uno,,6000000,1100,0,1,si,,1\n",
        "B,2024-06-10,CC:1000000102:Dos,,6886682,950,0,1,si,,2\n"
    );
    r.ok(&proposals_import(&r.file("t.csv", text.as_bytes())));
    let out = r.ok(&crate::stages::adjudicate_second(&[]));
    assert!(
        out.contains("6000000 of 12886682 shares awarded, 6886682 left over"),
        "{out}"
    );
    // it does not promise that the check flags provisional liquidations now: they stay
    // provisional until the Third concludes
    assert!(
        out.contains(
            "a later stage is still pending for the shares left over: this is the price so far, \
             and liquidations stay provisional until that stage concludes"
        ) && !out.contains("PROVISIONAL_STALE"),
        "{out}"
    );
    // the program says its price is the Second's so far, in words in Spanish (not English
    // glued to the price in a column of pesos)
    let shown = r.json(&["program", "show", "D3939-2004", "--format", "json"]);
    assert_eq!(
        (&shown["stage_price"], &shown["stage_price_status"]),
        (&Value::from("1100"), &Value::from("so_far")),
        "{shown:#}"
    );
    let es = r.ok(&["--lang", "es", "program", "show", "D3939-2004"]);
    let line = |head: &str| {
        es.lines()
            .find_map(|l| l.strip_prefix(head))
            .map(str::trim)
            .unwrap_or_else(|| panic!("{head} in {es}"))
            .to_string()
    };
    assert_eq!(line("Precio de etapa "), "$ 1.100");
    assert_eq!(
        line("Estado del precio de etapa "),
        "el mayor hasta ahora: una etapa posterior está pendiente (las liquidaciones son \
         provisionales)"
    );
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-07-10",
        "--shares",
        "10",
        "--consideration-per-share",
        "1000",
    ]);
    let liquidate = || {
        r.json(&[
            "fine",
            "liquidate",
            "1",
            "--until",
            "2024-07-10",
            "--format",
            "json",
        ])
    };
    let l = liquidate();
    assert_eq!(l["provisional"], true, "{l:#}");
    assert_eq!(l["reference"]["basis"], "stage");
    assert_eq!(l["principal"], "11000");
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-07-10",
        "--amount",
        "11000",
    ]);
    let check = |as_of: &str| {
        let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
        let v: Value = serde_json::from_str(&crate::common::out(&o)).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "PROVISIONAL_STALE" && f["breach_id"] == 1)
    };
    assert!(!check("2024-07-11"));
    let o = r.run(&["settlement", "issue", "1", "--date", "2024-07-11"]);
    assert_eq!(o.status.code(), Some(2), "{}", crate::common::out(&o));
    // the refusal says what is pending and what to do: the Third Stage concluded, or the final
    // price, when obtained outside vigia, recorded by hand (the price so far is recorded already:
    // not the «record the stage price first» of a price still pending)
    let why = crate::common::err(&o);
    assert!(
        why.contains("a later stage is still pending")
            && why.contains("$ 1.100")
            && why.contains("adjudicate it or declare it void")
            && why.contains(
                "adjudicate it or declare it void; or, when the sellers obtained its final price \
                 outside vigia, record that price (`vigia program stage-price D3939-2004 --stage \
                 3 --price P --date D`)"
            )
            && !why.contains("record the stage price"),
        "{why}"
    );
    let o = r.with_locale(
        &[("VIGIA_LANG", "es")],
        &["settlement", "issue", "1", "--date", "2024-07-11"],
    );
    let por_que = crate::common::err(&o);
    assert!(
        por_que.contains("una etapa posterior sigue pendiente")
            && por_que.contains("adjudíquela o declárela desierta")
            && por_que.contains(
                "si los enajenantes obtuvieron su precio final fuera de vigia, registre ese precio \
                 (`vigia program stage-price D3939-2004 --stage 3 --price P --date FECHA`)"
            )
            && !por_que.contains("registre primero el precio"),
        "{por_que}"
    );
    // the Third Stage sells what is left at $1,500
    open("3", "1", "6886682", "2024-07-15", "2024-07-26");
    let path = r.file(
        "t3.csv",
        format!("{HEADER}C,2024-07-16,CC:1000000103:Tres,,6886682,1500,0,1,si,\n").as_bytes(),
    );
    r.ok(&[
        "proposals",
        "import",
        &path,
        "--program",
        "D3939-2004",
        "--stage",
        "3",
    ]);
    let out = r.ok(&[
        "stage",
        "adjudicate",
        "D3939-2004",
        "--stage",
        "3",
        "--on",
        "2024-08-16",
    ]);
    // the Third sold everything: now the check flags them
    assert!(
        out.contains("provisional liquidations are flagged by `vigia check` (PROVISIONAL_STALE)")
            && !out.contains("price so far"),
        "{out}"
    );
    assert!(check("2024-08-20"));
    let l = liquidate();
    assert_eq!(l["provisional"], false, "{l:#}");
    assert_eq!(l["principal"], "15000");
    assert_eq!(l["total_due"], "4000");
}

#[test]
fn a_stage_acta_is_written_again_and_verified_and_a_forged_one_is_caught() {
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            line("B", "NIT:800191045-1:Dos (PRUEBA)", "1250", 365),
        ],
    );
    // not concluded yet: nothing to write
    let e = r.fails(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "early.md",
    ]);
    assert!(
        e.contains("the Second Stage of D3939-2004 has not been adjudicated nor declared void"),
        "{e}"
    );
    assert!(!r.dir.path().join("early.md").exists());
    r.ok(&crate::stages::adjudicate_second(&["--acta", "acta.pdf"]));
    let written = std::fs::read(r.dir.path().join("acta.pdf")).unwrap();
    for ext in ["md", "html", "pdf"] {
        let out = r.ok(&[
            "stage",
            "acta",
            "D3939-2004",
            "--stage",
            "2",
            "--out",
            &format!("again.{ext}"),
        ]);
        assert_eq!(
            out,
            format!(
                "acta of stage 2 of D3939-2004 (conclusion 1, adjudicated on 2024-06-28) -> again.{ext}\n"
            )
        );
    }
    // the same acta again, byte for byte
    assert_eq!(
        std::fs::read(r.dir.path().join("again.pdf")).unwrap(),
        written
    );
    // never over a file without --force
    let e = r.fails(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "again.md",
    ]);
    assert!(
        e.contains("a file already exists there; pass --force to replace it"),
        "{e}"
    );
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "again.md",
        "--force",
    ]);
    let e = r.fails(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "acta.txt",
    ]);
    assert!(e.contains("name it .pdf, .html or .md"), "{e}");
    let head: String = r
        .conn()
        .query_row(
            "SELECT hash FROM audit_events WHERE entity = 'stage_conclusions' AND entity_id = 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    for f in ["acta.pdf", "again.md", "again.html", "again.pdf"] {
        let v = r.ok(&["stage", "verify", f]);
        assert!(
            v.starts_with(
                "verified: acta of stage 2 of D3939-2004 (conclusion 1, adjudicated on 2024-06-28: 12886682 of \
                 12886682 shares at $ 1.100 per share); its records carry no fingerprint; the audit event recording \
                 it"
            ) && v.contains(&format!("has SHA-256 {head}")),
            "{f}: {v}"
        );
    }
    // a forged price is caught, naming the line
    let md = std::fs::read_to_string(r.dir.path().join("again.md")).unwrap();
    let forged = md.replace(
        "| $ 1.100 | $ 14.175.350.200 |",
        "| $ 1.000 | $ 12.886.682.000 |",
    );
    assert_ne!(forged, md);
    let f = r.file("forged.md", forged.as_bytes());
    // named on its line of the file, blank lines counted
    let line = md
        .lines()
        .position(|l| l.contains("| $ 1.100 | $ 14.175.350.200 |"))
        .unwrap()
        + 1;
    let o = r.run(&["stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with(&format!(
            "NOT VERIFIED: at line {line} of the file the document says "
        )) && v.contains("$ 1.000 | $ 12.886.682.000")
            && v.contains("$ 1.100"),
        "{v}"
    );
    let o = r.run(&["--lang", "es", "stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with(&format!(
            "NO VERIFICADO: en la línea {line} del archivo, el documento dice «"
        )) && v.contains("$ 1.000 | $ 12.886.682.000")
            && v.contains("el registro da «"),
        "{v}"
    );
    // refusals name the file
    let offer_acta = r.dir.path().join("offer.md");
    r.ok(&[
        "offer",
        "acta",
        "D3939-2004",
        "--out",
        offer_acta.to_str().unwrap(),
    ]);
    let e = r.fails(&["stage", "verify", "offer.md"]);
    assert!(
        e.contains("offer.md") && e.contains("not the acta of a later stage written by vigia"),
        "{e}"
    );
    let e = r.fails(&["stage", "verify", "missing.md"]);
    assert!(e.contains("missing.md"), "{e}");
    let nothird = md.replace("Etapa 2 — Acta N.º 1", "Etapa 3 — Acta N.º 1");
    let f = r.file("third.md", nothird.as_bytes());
    let e = r.fails(&["stage", "verify", &f]);
    assert!(
        e.contains("third.md") && e.contains("the register holds no conclusion of that stage"),
        "{e}"
    );
    // a stored award changed behind vigia's back: the records no longer give it
    r.conn()
        .execute_batch(
            "DROP TRIGGER stage_awards_no_update; UPDATE stage_awards SET price = '1000' WHERE tranche = 1;",
        )
        .unwrap();
    let o = r.run(&["stage", "verify", "again.md"]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with("NOT VERIFIED: stage 2 of D3939-2004 (conclusion 1): tranche 1: the award records the price 1000; the proposals give 1100"),
        "{v}"
    );
}

/// `vigia proposals import PATH` into the Second Stage of D3939-2004.
fn proposals_import(path: &str) -> [&str; 7] {
    [
        "proposals",
        "import",
        path,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]
}
