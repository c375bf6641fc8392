//! Seed 002's program (FOGAFIN's later-stage sale in "Todo o Nada", shipped as `FOGAFIN-TON`;
//! issue 27), through the binary: registered by its code, its first stage recorded as concluded
//! outside vigia (holders imported from a CSV), a Second Stage evaluated by price and term with
//! a joint proposal, a beneficial owner filing twice and a price below the program's own
//! minimum, adjudicated, its price recorded as Art. 9 (iii), and a breach fined with it.
//!
//! The program's figures are the file's examples: 1,000,000 shares offered, first-stage price
//! $ 1.000, later-stage minimum $ 1.200, weights 0.8 (price) and 0.2 (term), lock-up 24 months
//! with 100 % in the first 12.

use crate::common::{HEADER, Reg};
use serde_json::Value;

const CODE: &str = "FOGAFIN-TON";
const BLOCK: &str = "400000";
const PROPOSALS: &str = "proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,guarantee,funds_accredited,review\n";

/// A proposal for the whole block, filed on 2024-06-10.
fn line(reference: &str, bidders: &str, owner: &str, price: &str, term: u32) -> String {
    format!("{reference},2024-06-10,{bidders},{owner},{BLOCK},{price},{term},500000000,si,\n")
}

fn rows(t: &Value) -> Vec<(String, String, String, String, String)> {
    t["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["proposal"].as_str().unwrap().to_string(),
                p["status"].as_str().unwrap().to_string(),
                p["cause"].as_str().unwrap_or("").to_string(),
                p["value"].as_str().unwrap_or("").to_string(),
                p["rank"].as_u64().map_or(String::new(), |r| r.to_string()),
            )
        })
        .collect()
}

fn row(p: &str, s: &str, c: &str, v: &str, k: &str) -> (String, String, String, String, String) {
    (p.into(), s.into(), c.into(), v.into(), k.into())
}

#[test]
fn seed_002_runs_its_second_stage_by_price_and_term_after_a_first_stage_outside_vigia() {
    let r = Reg::new();
    r.ok(&["program", "add", CODE]);

    // the first stage, adjudicated outside vigia on 2024-03-15: its holders come from a CSV
    // (adjudications 1 and 2: 400,000 + 200,000 = 600,000 shares at $ 1.000)
    let holders = r.file(
        "holders.csv",
        format!(
            "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,400000,1000.00,2024-03-15,,\n\
             NIT,999000001-2,Fondo de Empleados de Prueba,legal,fondo-empleados,200000,1000.00,2024-03-15,,\n"
        )
        .as_bytes(),
    );
    r.ok(&["adjudications", "import", &holders, "--program", CODE]);

    // before it is recorded, no later stage can open (Art. 13: it offers what the first left)
    let open = [
        "stage",
        "open",
        CODE,
        "--stage",
        "2",
        "--shares",
        BLOCK,
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
    ];
    let e = r.fails(&open);
    assert!(
        e.contains(
            "record that adjudication (`vigia offer adjudicate FOGAFIN-TON --on D`; \
             `vigia offer record-external FOGAFIN-TON --on D --awarded N --acta REF`)"
        ),
        "{e}"
    );
    // the figure must be what the imported adjudications add up to (600,000), and at most the
    // program's 1,000,000
    let record = |awarded: &str| {
        vec![
            "offer".to_string(),
            "record-external".into(),
            CODE.into(),
            "--on".into(),
            "2024-03-15".into(),
            "--awarded".into(),
            awarded.into(),
            "--acta".into(),
            "Acta 001 de 2024 (ejemplo)".into(),
        ]
    };
    let e = r.fails(&record("500000"));
    assert!(
        e.contains("--awarded 500000: the register holds 2 adjudication(s) of FOGAFIN-TON imported for 600000 shares"),
        "{e}"
    );
    let e = r.fails(&record("1000001"));
    assert!(
        e.contains("--awarded 1000001: program FOGAFIN-TON offers 1000000 shares in all"),
        "{e}"
    );
    // 1,000,000 − 600,000 = 400,000 left for the Second Stage
    let out = r.ok(&record("600.000"));
    assert!(
        out.contains("first stage of FOGAFIN-TON recorded as concluded outside vigia (record 1): adjudicated on 2024-03-15, 600000 of 1000000 shares awarded, 400000 left for the Second Stage (Acta 001 de 2024 (ejemplo))"),
        "{out}"
    );
    // the holders imported afterwards cannot add up to more than the record's 600,000
    // (a review found 1,100,000 shares of a 1,000,000 offer once the record came first)
    let more = r.file(
        "more.csv",
        format!("{HEADER}CC,1000000003,Otra Prueba,natural,trabajador,1,1000.00,2024-03-15,,\n")
            .as_bytes(),
    );
    let before = r.dump();
    let e = r.fails(&["adjudications", "import", &more, "--program", CODE]);
    assert!(
        e.contains(
            "the file adjudicates 1 shares; with the 600000 already registered that exceeds the \
             600000 the first stage of FOGAFIN-TON awarded as recorded (concluded outside vigia on \
             2024-03-15, acta Acta 001 de 2024 (ejemplo))"
        ),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing written");
    // once; and a first-stage offer in vigia is refused after it
    let e = r.fails(&record("600000"));
    assert!(
        e.contains("is already recorded as concluded outside vigia (record 1"),
        "{e}"
    );
    let e = r.fails(&[
        "offer",
        "open",
        CODE,
        "--opens",
        "2024-07-01",
        "--closes",
        "2024-09-30",
    ]);
    assert!(
        e.contains("the first stage of FOGAFIN-TON was concluded outside vigia (record 1"),
        "{e}"
    );
    // vigia running the first stage of D3939-2004 (its offer opened) cannot record one outside
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-02",
        "--closes",
        "2024-03-08",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    let mut d3939 = record("1");
    d3939[2] = "D3939-2004".into();
    let e = r.fails(&d3939);
    assert!(
        e.contains("the first-stage offer of D3939-2004 is run in vigia (offer 1"),
        "{e}"
    );

    // the Second Stage: one tranche of the 400,000 left (Todo o Nada), minimum $ 1.200 (the
    // program's figure, not the first stage's $ 1.000)
    let out = r.ok(&open);
    assert!(
        out.contains("the stage has 400000 share(s) to offer"),
        "{out}"
    );
    let lines = [
        // A: 1,300 in 60 days
        line("A", "CC:1000000101:Uno (PRUEBA)", "", "1300", 60),
        // B: joint (Dos and Tres, jointly liable), 1,300 in 30 days
        line(
            "B",
            "CC:1000000102:Dos (PRUEBA)|NIT:800191045-1:Tres (PRUEBA)",
            "",
            "1300",
            30,
        ),
        // C: 1,250 paid at once (0 days, counted as 1)
        line("C", "CC:1000000103:Cuatro (PRUEBA)", "", "1250", 0),
        // D: 1,150 < 1,200: BELOW_MINIMUM_PRICE (it would have the shortest term: it counts not)
        line("D", "CC:1000000104:Cinco (PRUEBA)", "", "1150", 0),
        // E and F: one beneficial owner, two proposals: both rejected (SAME_BIDDER)
        line("E", "CC:1000000105:Seis (PRUEBA)", "grupo-x", "1400", 0),
        line("F", "CC:1000000106:Siete (PRUEBA)", "grupo-x", "1350", 0),
    ];
    let path = r.file(
        "proposals.csv",
        format!("{PROPOSALS}{}", lines.concat()).as_bytes(),
    );
    r.ok(&[
        "proposals",
        "import",
        &path,
        "--program",
        CODE,
        "--stage",
        "2",
    ]);
    let t = r.json(&[
        "stage", "evaluate", CODE, "--stage", "2", "--format", "json",
    ])["tranches"][0]
        .clone();
    assert_eq!(t["minimum_price"], "1200.00");
    assert_eq!(t["criterion"], "price-and-term");
    assert_eq!(t["rate_ea_pct"], Value::Null);
    // valid: A, B, C; best price 1,300, shortest term 1 day (C's 0 counted as 1)
    // A: 100 × (0.8 × 1300/1300 + 0.2 × 1/60) = 100 × (0.8 + 0.003333…) = 80.3333
    // B: 100 × (0.8 × 1300/1300 + 0.2 × 1/30) = 100 × (0.8 + 0.006666…) = 80.6667
    // C: 100 × (0.8 × 1250/1300 + 0.2 × 1/1) = 100 × (0.769230769… + 0.2) = 96.9231
    // C has the best value although B and A offer more per share: the term counts
    assert_eq!(t["outcome"], "winner");
    assert_eq!(t["winner"], "C");
    assert_eq!(
        rows(&t),
        [
            row("A", "valid", "", "80.3333", "3"),
            row("B", "valid", "", "80.6667", "2"),
            row("C", "winner", "", "96.9231", "1"),
            row("D", "rejected", "BELOW_MINIMUM_PRICE", "", ""),
            row("E", "rejected", "SAME_BIDDER", "", ""),
            row("F", "rejected", "SAME_BIDDER", "", ""),
        ]
    );

    // adjudicated on Friday 2024-06-28: C pays the next banking business day, Tuesday 2024-07-02
    // (Monday 1 is San Pedro y San Pablo, moved); 400,000 × 1,250 = 500,000,000
    let out = r.ok(&[
        "stage",
        "adjudicate",
        CODE,
        "--stage",
        "2",
        "--on",
        "2024-06-28",
        "--acta",
        "acta.md",
    ]);
    assert!(
        out.contains("tranche 1: 400000 shares to C (CC 1000000103 Cuatro (PRUEBA); jointly liable) at $ 1.250 per share = $ 500.000.000, 96.9231 points; payment due 2024-07-02"),
        "{out}"
    );
    assert!(
        out.contains(
            "program FOGAFIN-TON, stage 2, $ 1.250 per share (Art. 9 (iii)) from 2024-06-28"
        ),
        "{out}"
    );
    let acta = std::fs::read_to_string(r.dir.path().join("acta.md")).unwrap();
    assert!(
        acta.contains("al precio mínimo de $ 1.200 por acción fijado en el programa"),
        "{acta}"
    );
    assert!(
        acta.contains(
            "puntaje = 100 × (0,8 × precio ÷ mejor precio + 0,2 × plazo más corto ÷ plazo)"
        ),
        "{acta}"
    );
    // it cites the program's articles ([later_stages.articles]), never Decreto 3939's
    assert!(
        acta.contains("precio por debajo del mínimo (Reglamento de Venta (EJEMPLO)"),
        "{acta}"
    );
    for decreto_3939 in [
        "artículos 3 literal b)",
        "artículos 14 a y 17 a",
        "artículo 22",
    ] {
        assert!(!acta.contains(decreto_3939), "{decreto_3939} in {acta}");
    }
    // the acta verifies against the register (its evaluation recomputed from the records)
    let acta_path = r.dir.path().join("acta.md");
    r.ok(&["stage", "verify", acta_path.to_str().unwrap()]);
    assert_eq!(
        r.json(&["program", "show", CODE, "--format", "json"])["stage_price"],
        "1250"
    );

    // Ana (adjudication 1, 2024-03-15) sells 1,000 shares at $ 1.100 on 2024-11-20: 8 months in,
    // the first bracket (up to 12 months: 100 %). Art. 9 (i) 1,000, (ii) 1,100, (iii) the stage's
    // 1,250: the highest is 1,250. Principal 1,000 × 1,250 × 100 % = 1,250,000.
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
        "1100",
    ]);
    let f = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2024-11-20",
        "--format",
        "json",
    ]);
    assert_eq!(f["principal"], "1250000", "{f:#}");
    assert_eq!(f["provisional"], false, "{f:#}");
    r.ok(&["audit", "verify"]);
}
