//! The stage's evaluation read in one snapshot, and the streamed evaluation on the cases its
//! shortcuts exist for: each worked out by hand and compared with the whole-in-memory evaluation
//! (`offering::stage::evaluate_among`) of the same proposals.
//!
//! - a proposals import committed by another process between the evaluation and the rows it
//!   prints is in neither (one read transaction, `store::Snapshot`);
//! - an empty tranche's JSON parses;
//! - an acta whose rows cannot be read is an error, never a shorter table or a panic;
//! - price and term with an improvement that moves the best price (the extremes read in a pass
//!   of their own), a bidder in two tranches, a recorded draw.

use crate::common::Reg;
use crate::stages::{HEADER, import, line, second_stage};
use std::collections::HashMap;
use vigia::later_stages::Stage;
use vigia::offering::{proposals, stage as core};
use vigia::register::stage::{Row, Standing, TrancheEvaluation, evaluate};
use vigia::store::programs::StoredProgram;
use vigia::store::{Snapshot, StoreError};

/// The stage's evaluation and every tranche's rows, read from `r`'s register in one snapshot.
fn streamed(r: &Reg, code: &str) -> (StoredProgram, Vec<TrancheEvaluation>, Vec<Vec<Row>>) {
    let store = vigia::store::Store::open(&r.db()).unwrap();
    let conn = store.conn();
    let rates = vigia::store::rates::series(conn).unwrap();
    let p = vigia::store::programs::by_code(conn, code).unwrap();
    let (evals, rows) = Snapshot::read(conn, |snap| {
        let evals = evaluate(snap, &p, Stage::Second, &rates).unwrap();
        let rows = evals.iter().map(|e| e.rows(snap)).collect::<Result<_, _>>();
        Ok::<_, StoreError>((evals, rows.unwrap()))
    })
    .unwrap();
    (p, evals, rows)
}

/// The proposals of a proposals file (`HEADER` and lines), as the core judges them.
pub(crate) fn parsed(text: &str) -> Vec<core::Proposal> {
    let mut all = Vec::new();
    proposals::each::<()>(text.as_bytes(), |r| {
        all.push(core::Proposal {
            reference: r.reference,
            filed_on: r.filed_at.date(),
            bidders: r.bidders.iter().map(|b| b.key()).collect(),
            beneficial_owner: r.beneficial_owner,
            shares: r.shares,
            price_per_share: r.price_per_share,
            term_days: r.term_days,
            guarantee: r.guarantee,
            funds_accredited: r.funds_accredited,
            review: r.review,
        });
        Ok(())
    })
    .unwrap();
    all
}

/// Tranche `e`'s terms as the register applies them.
pub(crate) fn terms(p: &StoredProgram, e: &TrancheEvaluation) -> core::Terms {
    let t = &e.tranche;
    core::Terms {
        opens: t.opens,
        closes: t.closes,
        shares: t.shares,
        minimum_price: t.minimum_price,
        minimum_guarantee: p.program.later_stages.minimum_guarantee,
        valuation: e.valuation,
        max_term_days: p.program.later_stages.max_term_days,
    }
}

/// The rows' (cause, price, value, rank) are the in-memory evaluation's, `dp` decimals.
fn same_as(rows: &[Row], in_memory: &[core::Evaluated], dp: usize) {
    assert_eq!(rows.len(), in_memory.len());
    for (row, m) in rows.iter().zip(in_memory) {
        let p = &row.proposal;
        assert_eq!(
            row.cause,
            m.cause.as_ref().map(|c| c.code().to_string()),
            "{p}"
        );
        assert_eq!(row.price, m.price.to_string(), "{p}");
        assert_eq!(row.value, m.value.map(|v| format!("{v:.dp$}")), "{p}");
        assert_eq!(row.rank, m.rank, "{p}");
    }
}

/// (proposal, status, cause, value, rank) of each row.
fn seen(rows: &[Row]) -> Vec<(String, &str, String, String, Option<usize>)> {
    rows.iter()
        .map(|r| {
            (
                r.proposal.clone(),
                r.status,
                r.cause.clone().unwrap_or_default(),
                r.value.clone().unwrap_or_default(),
                r.rank,
            )
        })
        .collect()
}

fn want(
    p: &str,
    s: &'static str,
    c: &str,
    v: &str,
    k: Option<usize>,
) -> (String, &'static str, String, String, Option<usize>) {
    (p.into(), s, c.into(), v.into(), k)
}

#[test]
fn an_import_committed_between_the_evaluation_and_its_rows_is_in_neither() {
    // chosen: the evaluation and its rows take a `Snapshot` (a connection in a transaction), so
    // they cannot be read outside one; here another process commits between them
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno", "1100", 0),
            line("B", "CC:1000000102:Dos", "1200", 0),
        ],
    );
    let store = vigia::store::Store::open(&r.db()).unwrap();
    let conn = store.conn();
    let rates = vigia::store::rates::series(conn).unwrap();
    let p = vigia::store::programs::by_code(conn, "D3939-2004").unwrap();
    let rows = Snapshot::read(conn, |snap| {
        let evals = evaluate(snap, &p, Stage::Second, &rates).unwrap();
        // C shares A's bidder and offers the best price: read, it would make A a SAME_BIDDER
        // row the evaluation did not rank, and a valid row without a rank
        import(
            &r,
            "2",
            &[
                line("C", "CC:1000000101:Uno", "1300", 0),
                line("D", "CC:1000000104:Cuatro", "1250", 0),
            ],
        );
        assert_eq!(evals[0].len(), 2);
        evals[0].rows(snap)
    })
    .unwrap();
    assert_eq!(
        seen(&rows),
        [
            want("A", "valid", "", "1100.00", Some(2)),
            want("B", "winner", "", "1200.00", Some(1)),
        ]
    );
    // a new snapshot sees the import: A and C share a bidder, D wins
    let (_, _, after) = streamed(&r, "D3939-2004");
    assert_eq!(
        seen(&after[0]),
        [
            want("A", "rejected", "SAME_BIDDER", "", None),
            want("B", "valid", "", "1200.00", Some(2)),
            want("C", "rejected", "SAME_BIDDER", "", None),
            want("D", "winner", "", "1250.00", Some(1)),
        ]
    );
}

#[test]
fn an_empty_tranche_is_an_empty_list_in_json() {
    let r = second_stage();
    let text = r.ok(&[
        "stage",
        "evaluate",
        "D3939-2004",
        "--stage",
        "2",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&text).expect("the JSON parses");
    assert_eq!(doc["tranches"][0]["proposals"], serde_json::json!([]));
    assert_eq!(doc["tranches"][0]["outcome"], "desert");
}

#[test]
fn an_acta_whose_rows_cannot_be_read_is_an_error() {
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno", "1100", 0),
            line("B", "CC:1000000102:Dos", "1200", 0),
        ],
    );
    r.ok(&crate::stages::adjudicate_second(&[]));
    let store = vigia::store::Store::open(&r.db()).unwrap();
    let conn = store.conn();
    let rates = vigia::store::rates::series(conn).unwrap();
    let p = vigia::store::programs::by_code(conn, "D3939-2004").unwrap();
    let c = vigia::register::stage::concluded(conn, &p, Stage::Second, &rates).unwrap();
    // the rows read from a register without the proposals' table
    let empty = rusqlite::Connection::open_in_memory().unwrap();
    let d = vigia::report::stage_acta::StageActaData {
        program: &p.program,
        stage: Stage::Second,
        concluded: &c,
        conn: &empty,
        layout: vigia::report::stage_acta::Layout::CURRENT,
    };
    use vigia::report::stage_acta;
    assert!(
        stage_acta::plain_blocks(&d).is_err(),
        "never a table without its rows"
    );
    assert!(stage_acta::markdown_blocks(&d).is_err());
    use vigia::report::acta::Format;
    for format in [Format::Md, Format::Html, Format::Pdf] {
        assert!(stage_acta::render(&d, format).is_err(), "{format:?}");
    }
    // read from the register, the same acta renders
    let d = stage_acta::StageActaData { conn, ..d };
    assert!(stage_acta::plain_blocks(&d).is_ok());
}

/// FOGAFIN-TON (price and term, 0.8 and 0.2, minimum $ 1.200) with its first stage recorded as
/// concluded outside vigia and one Second Stage tranche of 400,000 shares open.
fn price_and_term() -> Reg {
    let r = Reg::new();
    r.ok(&["program", "add", "FOGAFIN-TON"]);
    let holders = r.file(
        "holders.csv",
        format!(
            "{}CC,1000000001,Ana Prueba,natural,trabajador,600000,1000.00,2024-03-15,,\n",
            crate::common::HEADER
        )
        .as_bytes(),
    );
    r.ok(&[
        "adjudications",
        "import",
        &holders,
        "--program",
        "FOGAFIN-TON",
    ]);
    r.ok(&[
        "offer",
        "record-external",
        "FOGAFIN-TON",
        "--on",
        "2024-03-15",
        "--awarded",
        "600000",
        "--acta",
        "Acta 001 de 2024 (ejemplo)",
    ]);
    r.ok(&[
        "stage",
        "open",
        "FOGAFIN-TON",
        "--stage",
        "2",
        "--shares",
        "400000",
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
    ]);
    r
}

#[test]
fn price_and_term_with_an_improvement_that_moves_the_best_price() {
    let r = price_and_term();
    let l = |p: &str, b: &str, price: &str, term: u32| {
        format!("{p},2024-06-10,{b},,400000,{price},{term},500000000,si,\n")
    };
    let lines = [
        l("A", "CC:1000000101:Uno", "1300", 60),
        l("B", "CC:1000000102:Dos", "1300", 60),
        l("C", "CC:1000000103:Tres", "1200", 120),
    ];
    let text = format!("{HEADER}{}", lines.concat());
    let file = r.file("p.csv", text.as_bytes());
    r.ok(&[
        "proposals",
        "import",
        &file,
        "--program",
        "FOGAFIN-TON",
        "--stage",
        "2",
    ]);
    // as filed: best price 1,300, shortest term 60 days
    // A = B = 100 × (0.8 × 1300/1300 + 0.2 × 60/60) = 100: tied
    // C = 100 × (0.8 × 1200/1300 + 0.2 × 60/120) = 100 × (0.738461… + 0.1) = 83.8462
    let (_, _, rows) = streamed(&r, "FOGAFIN-TON");
    assert_eq!(
        seen(&rows[0]),
        [
            want("A", "tied", "", "100.0000", Some(1)),
            want("B", "tied", "", "100.0000", Some(1)),
            want("C", "valid", "", "83.8462", Some(2)),
        ]
    );
    r.ok(&[
        "stage",
        "improve",
        "FOGAFIN-TON",
        "--stage",
        "2",
        "--proposal",
        "A",
        "--price",
        "1400",
    ]);
    // A's 1,400 is the best price now, for every proposal's points:
    // A = 100 × (0.8 × 1400/1400 + 0.2) = 100
    // B = 100 × (0.8 × 1300/1400 + 0.2) = 100 × (0.742857… + 0.2) = 94.2857
    // C = 100 × (0.8 × 1200/1400 + 0.2 × 60/120) = 100 × (0.685714… + 0.1) = 78.5714
    let (p, evals, rows) = streamed(&r, "FOGAFIN-TON");
    let e = &evals[0];
    assert_eq!(
        seen(&rows[0]),
        [
            want("A", "winner", "", "100.0000", Some(1)),
            want("B", "valid", "", "94.2857", Some(2)),
            want("C", "valid", "", "78.5714", Some(3)),
        ]
    );
    assert_eq!(rows[0][0].improved_price.as_deref(), Some("1400"));
    assert_eq!(e.original_tie, [0, 1], "A and B were tied as filed");
    assert!(matches!(
        e.standing,
        Standing::Winner {
            proposal: 0,
            draw: None
        }
    ));
    let improved = HashMap::from([(0, "1400".parse().unwrap())]);
    let (in_memory, outcome) = core::evaluate_among(&terms(&p, e), &parsed(&text), &[], &improved);
    assert_eq!(outcome, core::Outcome::Winner(0));
    same_as(&rows[0], &in_memory, 4);
}

#[test]
fn a_bidder_in_two_tranches_is_rejected_in_both() {
    let reason = "fictional sale of 2024 under the 2004 decree (tests)";
    let r = crate::stages::first_stage_adjudicated(reason);
    for (k, shares) in [("1", "6000000"), ("2", "6886682")] {
        r.ok(&[
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
            reason,
        ]);
    }
    let one =
        |p: &str, b: &str, price: &str| format!("{p},2024-06-10,{b},,6000000,{price},0,1,si,,1\n");
    let two =
        |p: &str, b: &str, price: &str| format!("{p},2024-06-10,{b},,6886682,{price},0,1,si,,2\n");
    let (t1, t2) = (
        [
            one("A", "CC:1000000101:Uno", "1100"),
            one("B", "CC:1000000102:Dos", "1000"),
        ],
        [
            two("C", "CC:1000000101:Uno", "1150"),
            two("D", "CC:1000000104:Cuatro", "1050"),
        ],
    );
    let header = HEADER.replace("review\n", "review,tranche\n");
    let file = r.file(
        "t.csv",
        format!("{header}{}{}", t1.concat(), t2.concat()).as_bytes(),
    );
    r.ok(&[
        "proposals",
        "import",
        &file,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    // Uno filed A in tranche 1 and C in tranche 2: both SAME_BIDDER; B and D win their tranche
    let (p, evals, rows) = streamed(&r, "D3939-2004");
    assert_eq!(
        seen(&rows[0]),
        [
            want("A", "rejected", "SAME_BIDDER", "", None),
            want("B", "winner", "", "1000.00", Some(1)),
        ]
    );
    assert_eq!(
        seen(&rows[1]),
        [
            want("C", "rejected", "SAME_BIDDER", "", None),
            want("D", "winner", "", "1050.00", Some(1)),
        ]
    );
    let (p1, p2) = (
        parsed(&format!("{header}{}", t1.concat())),
        parsed(&format!("{header}{}", t2.concat())),
    );
    let none = HashMap::new();
    let (m1, o1) = core::evaluate_among(&terms(&p, &evals[0]), &p1, &p2, &none);
    let (m2, o2) = core::evaluate_among(&terms(&p, &evals[1]), &p2, &p1, &none);
    assert_eq!(
        (o1, o2),
        (core::Outcome::Winner(1), core::Outcome::Winner(1))
    );
    same_as(&rows[0], &m1, 2);
    same_as(&rows[1], &m2, 2);
}

#[test]
fn a_recorded_draw_names_the_winner_and_leaves_the_other_tied() {
    let r = second_stage();
    let lines = [
        line("A", "CC:1000000101:Uno", "1100", 0),
        line("B", "CC:1000000102:Dos", "1100", 0),
        line("C", "CC:1000000103:Tres", "1000", 0),
    ];
    import(&r, "2", &lines);
    r.ok(&[
        "stage",
        "draw",
        "D3939-2004",
        "--stage",
        "2",
        "--seed",
        "semilla-publica",
    ]);
    // the draw's winner worked out with the rule every SHA-256 tool can check
    let d = core::draw(
        "semilla-publica",
        "D3939-2004",
        Stage::Second,
        1,
        &["A", "B"],
    )
    .unwrap();
    let (winner, other) = if d.winner == "A" {
        ("A", "B")
    } else {
        ("B", "A")
    };
    let (p, evals, rows) = streamed(&r, "D3939-2004");
    let e = &evals[0];
    assert!(
        matches!(e.standing, Standing::Winner { draw: Some(_), .. }),
        "{:?}",
        e.standing
    );
    let status = |x: &str| {
        if x == winner {
            "winner"
        } else {
            assert_eq!(x, other);
            "tied"
        }
    };
    assert_eq!(
        seen(&rows[0]),
        [
            want("A", status("A"), "", "1100.00", Some(1)),
            want("B", status("B"), "", "1100.00", Some(1)),
            want("C", "valid", "", "1000.00", Some(2)),
        ]
    );
    let text = format!("{HEADER}{}", lines.concat());
    let (in_memory, outcome) =
        core::evaluate_among(&terms(&p, e), &parsed(&text), &[], &HashMap::new());
    assert_eq!(outcome, core::Outcome::Tie(vec![0, 1]));
    same_as(&rows[0], &in_memory, 2);
}
