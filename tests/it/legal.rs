//! The legal readings decided in LEGAL_NOTES §7 (issue 20), each worked by hand from the decree.

use crate::common::Reg;

/// Breach 1: 10 of adjudication 1's shares (963 each, adjudicated 2024-03-15) sold on 2024-06-10
/// (inside the first six months: 100 %) at $ 1.200 each.
fn breach_at_1200(r: &Reg) {
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "10/06/2024",
        "--shares",
        "10",
        "--consideration-per-share",
        "1.200",
    ]);
}

fn stage(r: &Reg, stage: &str, price: &str, date: &str) {
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

/// Issues breach 1's notice liquidated to and dated `day` (a day gone by: with its reason) as
/// `format` into the register's directory as `name`; the file's path.
fn issue(r: &Reg, day: &str, format: &str, name: &str) -> String {
    let path = r.dir.path().join(name).display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        day,
        "--date",
        day,
        "--format",
        format,
        "--out",
        &path,
        "--reason",
        "test: dated as of the liquidation",
    ]);
    path
}

#[test]
fn with_two_later_stages_the_fine_takes_the_highest_stage_price() {
    // LEGAL_NOTES §7.1: Stage 2 sold at $ 1.800, Stage 3 at $ 1.050, transfer $ 1.200:
    // (iii) = 1.800, principal 10 × 1.800 × 100 % = $ 18.000 (not the latest stage's 1.050,
    // which would let the transfer win: 10 × 1.200 = $ 12.000)
    let r = Reg::new().with_holders().with_letterhead();
    breach_at_1200(&r);
    stage(&r, "2", "1.800", "28/06/2024");
    stage(&r, "3", "1.050", "30/09/2024");
    let v = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2024-12-10",
        "--format",
        "json",
    ]);
    assert_eq!(v["principal"], "18000", "{v}");
    // every stage price listed, and which was taken
    assert_eq!(
        v["stage_prices"],
        serde_json::json!([{"stage": 2, "price": "1800"}, {"stage": 3, "price": "1050"}]),
        "{v}"
    );
    let listed = "Segunda Etapa, $ 1.800 por acción (el mayor: el que se toma); Tercera Etapa, \
                  $ 1.050 por acción.";
    let table = r.ok(&["fine", "show", "1", "--until", "2024-12-10"]);
    assert!(table.contains(listed), "{table}");
    let table = r.ok(&["fine", "liquidate", "1", "--until", "2024-12-10"]);
    assert!(table.contains(listed), "{table}");
    let md = issue(&r, "2024-12-10", "md", "aviso.md");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains(listed), "{text}");
    // a stage's price corrected by hand is a correction: refused without its reason (exit 2,
    // nothing written), then recorded with it; its latest record counts
    let correct = [
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--price",
        "1.100",
        "--date",
        "02/10/2024",
    ];
    let before = r.dump();
    let why = r.fails(&correct);
    assert!(
        why.contains(
            "has stage 2's ($ 1.800) price recorded, which its liquidations take; recording $ 1.100 per share for stage 2"
        ) && why.contains("repeat with --reason"),
        "{why}"
    );
    assert_eq!(r.dump(), before, "nothing written");
    let said = r.ok(&[&correct[..], &["--reason", "precio mal digitado"]].concat());
    assert!(
        said.contains("(a correction: it replaces stage 2's $ 1.800)"),
        "{said}"
    );
    let v = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2024-12-10",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["principal"], "12000",
        "1.200 now beats 1.100 and 1.050: {v}"
    );
}

#[test]
fn a_credit_subrogation_needs_a_credit() {
    // Art. 7 num. 5: "subrogar el crédito" presupposes the lender that financed the purchase;
    // adjudication 1 had none, adjudication 2 was financed by Banco Ejemplo
    let r = Reg::new().with_holders();
    let before = r.dump();
    let args = |adj: &'static str| {
        [
            "breach",
            "record",
            "--adjudication",
            adj,
            "--kind",
            "subrogacion-credito",
            "--date",
            "10/06/2024",
            "--shares",
            "10",
        ]
    };
    let e = r.fails(&args("1"));
    assert!(
        e.contains("adjudication 1 was not financed (no lender on record), so there is no credit to subrogate"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    let out = r.ok(&args("2"));
    assert!(out.contains("credit-subrogation of 10 shares"), "{out}");
}

#[test]
fn a_category_belongs_to_natural_or_legal_persons_and_just_cause_bars_ex_workers_only() {
    // LEGAL_NOTES §7.5 (Decreto 3939 Art. 3): a NIT filed as a worker is refused at import
    let r = Reg::new();
    let before = r.dump();
    let csv = format!(
        "{}NIT,800197268-4,Empresa,legal,trabajador,10,,2024-03-15,,\n",
        crate::common::HEADER
    );
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file("nit.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        e.contains("line 2: category \"trabajador\": trabajador is not a category of a legal person under D3939-2004 (Art. 3)"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // acceptances: a person filed as a union is not eligible; a pensioner dismissed with just
    // cause is (the proviso qualifies ex-workers only); an ex-worker so dismissed is not
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
    let csv = "filed_at,doc_type,doc_number,name,person_type,category,shares,declarations,\
               dismissed_with_just_cause\n\
               16/01/2024,CC,1000000001,Uno,natural,sindicato,10,si,\n\
               16/01/2024,CC,1000000002,Dos,natural,pensionado,10,si,si\n\
               16/01/2024,CC,1000000003,Tres,natural,extrabajador,10,si,si\n";
    r.ok(&[
        "acceptances",
        "import",
        &r.file("a.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    let v = r.json(&[
        "offer",
        "adjudicate",
        "D3939-2004",
        "--on",
        "20/03/2024",
        "--dry-run",
        "--format",
        "json",
    ]);
    let text = v.to_string();
    let status = |name: &str| {
        let at = text.find(&format!("\"{name}\"")).expect(name);
        let rest = &text[at..];
        let end = rest.find('}').unwrap();
        rest[..end].to_string()
    };
    assert!(status("Uno").contains("NOT_ELIGIBLE"), "{}", status("Uno"));
    assert!(!status("Dos").contains("NOT_ELIGIBLE"), "{}", status("Dos"));
    assert!(
        status("Tres").contains("NOT_ELIGIBLE"),
        "{}",
        status("Tres")
    );
}

#[test]
fn a_fine_paid_off_needs_no_rate_to_release_its_pledge() {
    // issue 20, item 9: SPEC §5's fine, $ 1.143.967 at 2025-02-10 (1.000 × 1.450 × 75 % =
    // 1.087.500 plus 56.467 of interest), paid in full that day; the embedded series ends on
    // 31/10/2026, so a release on 01/11/2026 cannot price the fine to that day, and needs not
    let r = Reg::new().with_holders();
    // SPEC §5's stage price, $ 1.100 (below the transfer's): final, so a paid fine frees the
    // pledge (a provisional one keeps it: README, choices)
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
        "20/11/2024",
        "--shares",
        "1.000",
        "--consideration-per-share",
        "1.450",
    ]);
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "01/04/2024",
    ]);
    let release = ["pledge", "release", "1", "--on", "01/11/2026"];
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "10/02/2025",
        "--amount",
        "1.000.000",
    ]);
    // not paid off: the balance to 01/11/2026 needs November's rate, which is missing
    let e = r.fails(&release);
    assert!(e.contains("2026-11-01"), "{e}");
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "10/02/2025",
        "--amount",
        "143.967",
    ]);
    let out = r.ok(&release);
    assert!(out.contains("released"), "{out}");
}

#[test]
fn interest_per_day_after_a_liquidation_is_quoted_at_the_next_days_rate() {
    // LEGAL_NOTES §7.4. Breach 1 (10 shares at $ 1.200 on 10/06/2024, 100 %): principal
    // 10 × 1.200 = $ 12.000. Liquidated until 30/11/2024, the last day of November (moratorium
    // 27,90 % EA); the day after, 01/12/2024, is December's: the SFC's published 26,39 % EA
    // (Res. 2394 de 2024), certified through 31/12/2024. Per day on $ 12.000:
    // 12.000 × (1,2639^(1/365) − 1) = 12.000 × 0,000641… = $ 7,70 → $ 8; November's 27,90 %
    // would give 12.000 × 0,000674… = $ 8,09 → $ 8 as well, so the rate and date tell them apart.
    let r = Reg::new().with_holders().with_letterhead();
    breach_at_1200(&r);
    let md = issue(&r, "30/11/2024", "md", "aviso.md");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains(
            "Por cada día adicional a partir del 1 de diciembre de 2024 se causan $ 8 de intereses \
             (tasa moratoria de 26,39 % EA vigente el 1 de diciembre de 2024, certificada hasta el \
             31 de diciembre de 2024, sobre $ 12.000), hasta el pago; los días posteriores al 31 de \
             diciembre de 2024 causan intereses a las tasas que la Superintendencia Financiera \
             certifique para ellos."
        ),
        "{text}"
    );
}

#[test]
fn a_day_after_with_no_certified_rate_quotes_no_figure() {
    // the embedded series ends on 31/10/2026: a liquidation until then has no rate for
    // 01/11/2026, so the notice names no per-day figure and says why
    let r = Reg::new().with_holders().with_letterhead();
    breach_at_1200(&r);
    let md = issue(&r, "31/10/2026", "md", "aviso.md");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains(
            "A partir del 1 de noviembre de 2026 y hasta el pago se causan intereses sobre $ 12.000 a la \
             tasa máxima moratoria que la Superintendencia Financiera certifique para cada día; a la \
             fecha de esta liquidación no está certificada la tasa de ese día."
        ),
        "{text}"
    );
    assert!(!text.contains("Por cada día adicional"), "{text}");
}

#[test]
fn a_month_begun_without_its_rate_is_said_for_the_register_and_no_suggestion_fails() {
    // issue 20, item 9: the embedded series ends on 31/10/2026. As of 01/12/2026 November and
    // December are uncertified: RATE_MISSING for the register (high), and breach 1, which has
    // no liquidation, is not told to run a liquidation that would fail for that reason.
    let r = Reg::new().with_holders();
    breach_at_1200(&r);
    let check = |as_of: &str| {
        let out = r.run(&["check", "--as-of", as_of, "--format", "json"]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let v = check("2026-12-01");
    let findings = v["findings"]
        .as_array()
        .unwrap_or_else(|| v.as_array().unwrap());
    let register_wide = findings
        .iter()
        .find(|f| f["code"] == "RATE_MISSING" && f["breach_id"].is_null())
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(register_wide["severity"], "high");
    let reason = register_wide["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "no certified moratorium rate for 2026-11-01..2026-12-01: the fines of 1 breach(es) \
             without a paz y salvo cannot be liquidated or notified as of 2026-12-01 until it is \
             certified; save the SFC certification for 2026-11-01..2026-12-31"
        ),
        "{reason}"
    );
    let no_liquidation = findings
        .iter()
        .find(|f| f["code"] == "BREACH_NOT_LIQUIDATED")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        no_liquidation["reason"],
        "breach 1 of 2024-06-10 has no liquidation: once the moratorium rate for \
         2026-11-01..2026-12-31 is certified (RATE_MISSING), run `vigia fine liquidate 1 --until \
         2026-12-01`"
    );
    // the command it names does fail today, for that reason
    let e = r.fails(&["fine", "liquidate", "1", "--until", "2026-12-01"]);
    assert!(e.contains("2026-11-01"), "{e}");
    // on the last certified day nothing is missing and the suggestion is plain
    let v = check("2026-10-31");
    let findings = v["findings"]
        .as_array()
        .unwrap_or_else(|| v.as_array().unwrap());
    assert!(!findings.iter().any(|f| f["code"] == "RATE_MISSING"), "{v}");
    let no_liquidation = findings
        .iter()
        .find(|f| f["code"] == "BREACH_NOT_LIQUIDATED")
        .unwrap();
    assert_eq!(
        no_liquidation["reason"],
        "breach 1 of 2024-06-10 has no liquidation: run `vigia fine liquidate 1 --until 2026-10-31`"
    );
}

#[test]
fn releasing_every_releasable_pledge_skips_only_what_a_missing_rate_leaves_undecided() {
    // adjudication 1: SPEC §5's fine, paid in full on 10/02/2025 ($ 1.143.967), pledged;
    // adjudication 3 (the union, 50.000 shares at 963): 10 shares sold on 10/06/2024 at
    // 1.200 (fine $ 12.000), $ 1.000 paid on 01/07/2024, pledged. On 01/11/2026 (November
    // uncertified) adjudication 1's pledge is released: paid off, it needs no rate;
    // adjudication 3's balance cannot be priced, so its pledge is kept and that is said.
    let r = Reg::new().with_holders();
    // SPEC §5's stage price, $ 1.100 (below the transfer's): final, so a paid fine frees the
    // pledge (a provisional one keeps it: README, choices)
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
    for (adjudication, date, shares, price) in [
        ("1", "20/11/2024", "1.000", "1.450"),
        ("3", "10/06/2024", "10", "1.200"),
    ] {
        r.ok(&[
            "breach",
            "record",
            "--adjudication",
            adjudication,
            "--kind",
            "sale",
            "--date",
            date,
            "--shares",
            shares,
            "--consideration-per-share",
            price,
        ]);
        r.ok(&[
            "pledge",
            "register",
            adjudication,
            "--rank",
            "1",
            "--registered-on",
            "01/04/2024",
        ]);
    }
    for (breach, date, amount) in [
        ("1", "10/02/2025", "1.143.967"),
        ("2", "01/07/2024", "1.000"),
    ] {
        r.ok(&[
            "payment", "record", "--breach", breach, "--date", date, "--amount", amount,
        ]);
    }
    let out = r.ok(&["pledge", "release", "--releasable", "--on", "01/11/2026"]);
    assert!(
        out.contains("released the pledges of 1 adjudication(s) on 2026-11-01"),
        "{out}"
    );
    assert!(
        out.contains(
            "adjudication 3 was not decided: the balance of breach 2 needs the certified \
             moratorium rate for 2026-11-01 (RATE_MISSING)"
        ),
        "{out}"
    );
    let released = |adjudication: &str| {
        let v = r.json(&["adjudications", "show", adjudication, "--format", "json"]);
        let p = &v["pledges"][0];
        assert!(!p.is_null(), "{v}");
        !p["released_on"].is_null()
    };
    assert!(released("1"));
    assert!(!released("3"));
}

#[test]
fn an_offer_or_a_stage_outside_the_programs_validity_needs_a_recorded_reason() {
    // Art. 28: the program is in force one year from its publication (D.O. 45744, 26/11/2004),
    // through 26/11/2005 (C.C. art. 67). The demo's offer of 02/01/2024 is outside it.
    let r = Reg::new();
    let open = |extra: &[&str]| {
        let mut args = vec![
            "offer",
            "open",
            "D3939-2004",
            "--opens",
            "02/01/2024",
            "--closes",
            "08/03/2024",
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let before = r.dump();
    let o = r.run(&open(&[]));
    assert_eq!(o.status.code(), Some(2));
    let e = crate::common::err(&o);
    assert!(
        e.contains(
            "the offer opens on 2024-01-02, outside the validity of program D3939-2004 (Decreto \
             3939 de 2004, valid from 2004-11-26 through 2005-11-26 (artículo 28)): if an extension \
             or a later decree allows it, record why"
        ),
        "{e}"
    );
    assert!(e.contains("--reason TEXT"), "{e}");
    assert_eq!(r.dump(), before, "nothing written");
    let out = r.ok(&open(&[
        "--reason",
        "Decreto 9999 de 2023 extends the program (fictional)",
    ]));
    assert!(
        out.contains(
            "outside the program's validity (valid from 2004-11-26 through 2005-11-26 (artículo \
             28)): the reason given is recorded with it"
        ),
        "{out}"
    );
    let kept: (String, i64, String, String) = r
        .conn()
        .query_row(
            "SELECT act, act_id, act_date, reason FROM validity_exceptions",
            [],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        kept,
        (
            "offer".to_string(),
            1,
            "2024-01-02".to_string(),
            "Decreto 9999 de 2023 extends the program (fictional)".to_string()
        )
    );
    // inside the validity no reason is asked for: the last day counts
    let inside = Reg::new();
    let out = inside.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "26/11/2005",
        "--closes",
        "30/01/2006",
    ]);
    assert!(!out.contains("validity"), "{out}");
    let none: i64 = inside
        .conn()
        .query_row("SELECT count(*) FROM validity_exceptions", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(none, 0);
}

#[test]
fn an_undelivered_notice_is_listed_without_a_deadline_until_its_delivery() {
    // LEGAL_NOTES §7.3: the shipped program counts the term from delivery, so a notice with no
    // delivery recorded has no deadline yet; delivered on 03/12/2024 (a Tuesday), 10 business
    // days later is 17/12/2024 (no holiday in between: Ley 51 de 1983's of December is the 8th,
    // a Sunday in 2024).
    let r = Reg::new().with_holders().with_letterhead();
    breach_at_1200(&r);
    r.ok(&[
        "holder",
        "update",
        "1000000001",
        "--address",
        "Calle 1 # 2-3",
        "--city",
        "Bogotá",
    ]);
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "29/11/2024",
        "--date",
        "29/11/2024",
        "--format",
        "md",
        "--out",
        &r.dir.path().join("a.md").display().to_string(),
        "--reason",
        "test: dated as of the liquidation",
    ]);
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list[0]["deadline"], serde_json::Value::Null, "{list}");
    assert_eq!(list[0]["awaits_delivery"], true, "{list}");
    // undelivered past its 5 business days (06/12/2024): high, in the summary too
    let o = r.run(&["check", "--as-of", "2024-12-10"]);
    let table = crate::common::out(&o);
    let summary = table.split("\n\n").next().unwrap();
    let line = summary
        .lines()
        .find(|l| l.contains("NOTICE_UNDELIVERED"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(line.contains("high"), "{table}");
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2024-0001",
        "--on",
        "03/12/2024",
        "--via",
        "correo-certificado",
    ]);
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list[0]["deadline"], "2024-12-17", "{list}");
    assert_eq!(list[0]["awaits_delivery"], false, "{list}");
}

#[test]
fn a_pledge_recorded_after_a_notice_does_not_change_what_the_notice_verifies_against() {
    // a review found `notice verify` refusing a genuine notice once a pledge (registered in the
    // ledger before the notice's date) was recorded after the notice: the document is rebuilt
    // from the register as it stood when the notice was recorded
    let r = Reg::new().with_holders().with_letterhead();
    breach_at_1200(&r);
    let html = issue(&r, "29/11/2024", "html", "aviso.html");
    r.ok(&["notice", "verify", &html]);
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "01/04/2024",
    ]);
    let out = r.ok(&["notice", "verify", &html]);
    assert!(!out.contains("DO NOT MATCH"), "{out}");
    // a notice issued now names the pledge
    let md = issue(&r, "29/11/2024", "md", "nuevo.md");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains(
            "Las acciones fueron pignoradas en favor de los vendedores con prenda de primer grado"
        ),
        "{text}"
    );
}

#[test]
fn an_ex_worker_must_say_whether_dismissed_with_just_cause() {
    // LEGAL_NOTES §7.5: a just-cause dismissal bars ex-workers; an empty cell could be read as
    // "no" or as "not asked": refused for an ex-worker (nothing written), "no" for the others
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
    let before = r.dump();
    let csv = "filed_at,doc_type,doc_number,name,person_type,category,shares,declarations,\
               dismissed_with_just_cause\n\
               16/01/2024,CC,1000000001,Uno,natural,trabajador,10,si,\n\
               16/01/2024,CC,1000000003,Tres,natural,extrabajador,10,si,\n";
    let file = r.file("a.csv", csv.as_bytes());
    let e = r.fails(&["acceptances", "import", &file, "--program", "D3939-2004"]);
    assert!(
        e.contains("line 3")
            && e.contains(
                "a filer of category extrabajador must say whether they were dismissed with just \
                 cause (si or no)"
            )
            && !e.contains("line 2"),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing written");
    let csv = csv.replace("extrabajador,10,si,\n", "extrabajador,10,si,no\n");
    let out = r.ok(&[
        "acceptances",
        "import",
        &r.file("b.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(out.contains("2 acceptance"), "{out}");
}
