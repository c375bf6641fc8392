//! The later stages (issue 12; Decreto 3939 de 2004 Arts. 3, 13–19, 22; seed 002), through the
//! binary: a clean win, a tie broken by an improvement, a lower improvement ignored, a persisting
//! tie decided by a draw worked by hand, a joint proposal sharing a bidder with another, a void
//! Second Stage passing to a void Third, bad files, and the stage price flowing into a fine that
//! was provisional.
//!
//! Every register here runs the first stage from the demo's acceptances (awarded 74,300 of
//! 12,960,982 shares on 2024-03-15): the Second Stage offers the 12,886,682 left. The IBC in
//! force on 2024-06-14 (the close) is 20.56 % EA (SFC Res. 1143 de 2024).

use crate::common::Reg;
use serde_json::Value;

pub(crate) const BLOCK: &str = "12886682";
pub(crate) const HEADER: &str = "proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,guarantee,funds_accredited,review\n";

/// A register after the first stage, with the Second Stage's single tranche open from
/// 2024-06-03 to 2024-06-14.
/// The demo's acceptances (`schema/demo`) offered from 02/01/2024 to 08/03/2024 and adjudicated on
/// 15/03/2024, the offer opened with `reason` (outside the program's validity).
pub(crate) fn first_stage_adjudicated(reason: &str) -> Reg {
    let r = Reg::new();
    let acc = r.file(
        "acc.csv",
        include_bytes!("../../schema/demo/aceptaciones-demo.csv"),
    );
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-02",
        "--closes",
        "2024-03-08",
        "--reason",
        reason,
    ]);
    r.ok(&["acceptances", "import", &acc, "--program", "D3939-2004"]);
    r.ok(&["offer", "adjudicate", "D3939-2004", "--on", "2024-03-15"]);
    r
}

pub(crate) fn second_stage() -> Reg {
    let r = first_stage_adjudicated("fictional sale of 2024 under the 2004 decree (tests)");
    // outside the program's validity (Art. 28, through 26/11/2005) a tranche needs a reason
    let e = r.fails(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "2",
        "--shares",
        BLOCK,
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
    ]);
    assert!(
        e.contains("the tranche opens on 2024-06-03, outside the validity of program D3939-2004"),
        "{e}"
    );
    let out = r.ok(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "2",
        "--shares",
        BLOCK,
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(
        out.contains("the stage has 12886682 share(s) to offer"),
        "{out}"
    );
    r
}

/// `stage adjudicate D3939-2004 --stage 2 --on 2024-06-28` (a Friday, after the Second Stage's
/// close), then `extra` (`--acta FILE`, `--sign KEY`).
pub(crate) fn adjudicate_second<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "stage",
        "adjudicate",
        "D3939-2004",
        "--stage",
        "2",
        "--on",
        "2024-06-28",
    ];
    args.extend_from_slice(extra);
    args
}

/// A valid proposal line for the whole block: reference, bidders, price, term.
pub(crate) fn line(reference: &str, bidders: &str, price: &str, term: u32) -> String {
    format!("{reference},2024-06-10,{bidders},,{BLOCK},{price},{term},500000000,si,\n")
}

pub(crate) fn import(r: &Reg, stage: &str, lines: &[String]) -> String {
    let path = r.file(
        &format!("prop-{stage}-{}.csv", lines.len()),
        format!("{HEADER}{}", lines.concat()).as_bytes(),
    );
    r.ok(&[
        "proposals",
        "import",
        &path,
        "--program",
        "D3939-2004",
        "--stage",
        stage,
    ])
}

pub(crate) fn evaluate(r: &Reg, stage: &str) -> Value {
    r.json(&[
        "stage",
        "evaluate",
        "D3939-2004",
        "--stage",
        stage,
        "--format",
        "json",
    ])["tranches"][0]
        .clone()
}

/// (proposal, status, cause, value) per row.
pub(crate) fn rows(t: &Value) -> Vec<(String, String, String, String)> {
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
            )
        })
        .collect()
}

pub(crate) fn row(p: &str, s: &str, c: &str, v: &str) -> (String, String, String, String) {
    (p.into(), s.into(), c.into(), v.into())
}

pub(crate) fn stage_price(r: &Reg) -> Value {
    r.json(&["program", "show", "D3939-2004", "--format", "json"])["stage_price"].clone()
}

#[test]
fn a_clean_win_by_present_value_and_its_price_becomes_the_stage_price() {
    // A: 1,100 paid at once → 1,100.00. B: 1,250 in 365 days: under Decreto 3939 the price is
    // paid the next banking business day (Arts. 14 c, 17 c; LEGAL_NOTES §7.2), so B is not valid
    // (TERM_TOO_LONG); at 20.56 % EA it would have been worth 1,250 / 1.2056 = 1,036.83 anyway.
    // A wins. (Present value over a term: `offering::stage` tests, for programs that allow one.)
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            line("B", "NIT:800191045-1:Dos (PRUEBA)", "1250", 365),
        ],
    );
    let t = evaluate(&r, "2");
    assert_eq!(t["rate_ea_pct"], "20.56");
    assert_eq!(t["outcome"], "winner");
    assert_eq!(
        rows(&t),
        [
            row("A", "winner", "", "1100.00"),
            row("B", "rejected", "TERM_TOO_LONG", "")
        ]
    );
    assert_eq!(stage_price(&r), "pending");
    // adjudication on the window's last day is refused: the proposals close on 2024-06-14
    let e = r.fails(&[
        "stage",
        "adjudicate",
        "D3939-2004",
        "--stage",
        "2",
        "--on",
        "2024-06-14",
    ]);
    assert!(
        e.contains(
            "--on 2024-06-14: the Second Stage of D3939-2004 receives proposals until 2024-06-14"
        ),
        "{e}"
    );
    // Friday 2024-06-28: Monday 2024-07-01 is a holiday (San Pedro y San Pablo, moved), so the
    // next banking business day is Tuesday 2024-07-02 (Art. 14 c)
    let out = r.ok(&adjudicate_second(&["--acta", "acta.md"]));
    assert!(
        out.contains("tranche 1: 12886682 shares to A (CC 1000000101 Uno (PRUEBA); jointly liable) at $ 1.100 per share = $ 14.175.350.200, present value $ 1.100; payment due 2024-07-02"),
        "{out}"
    );
    assert!(out.contains("stage price record 1: program D3939-2004, stage 2, $ 1.100 per share (Art. 9 (iii)) from 2024-06-28"), "{out}");
    assert_eq!(stage_price(&r), "1100");
    let acta = std::fs::read_to_string(r.dir.path().join("acta.md")).unwrap();
    assert!(
        acta.contains("# Acta de adjudicación de la Segunda Etapa"),
        "{acta}"
    );
    assert!(acta.contains("| 1 | 12.886.682 | A | CC 1000000101 Uno (PRUEBA) | $ 1.100 | $ 14.175.350.200 | 02/07/2024 |"), "{acta}");
    // once: the stage is exhausted (Art. 3)
    let e = r.fails(&[
        "stage",
        "adjudicate",
        "D3939-2004",
        "--stage",
        "2",
        "--on",
        "2024-06-29",
    ]);
    assert!(
        e.contains("was adjudicated on 2024-06-28 (Art. 3: the stage is exhausted)"),
        "{e}"
    );
    // nothing is left: no Third Stage
    let e = r.fails(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "3",
        "--shares",
        "1",
        "--opens",
        "2024-07-01",
        "--closes",
        "2024-07-10",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(
        e.contains("sold every share on 2024-06-28: nothing is left for stage 3"),
        "{e}"
    );
    r.ok(&["audit", "verify"]);
}

#[test]
fn a_tie_broken_by_an_improvement_and_a_lower_one_ignored() {
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            line("B", "CC:1000000102:Dos (PRUEBA)", "1100", 0),
            line("C", "CC:1000000103:Tres (PRUEBA)", "1050", 0),
        ],
    );
    let t = evaluate(&r, "2");
    assert_eq!(t["outcome"], "tie");
    assert_eq!(t["tied"], serde_json::json!(["A", "B"]));
    // a tie must be decided before adjudicating
    let e = r.fails(&adjudicate_second(&[]));
    assert!(
        e.contains("tranche 1 is tied between A, B at the best value"),
        "{e}"
    );
    // only the tied are invited
    let e = r.fails(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "C",
        "--price",
        "1200",
    ]);
    assert!(e.contains("--proposal C: only proposals tied at the best value are invited to improve: it is not tied at the best value"), "{e}");
    // A answers with less: recorded and ignored, still a tie
    let out = r.ok(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "A",
        "--price",
        "1090",
    ]);
    assert!(
        out.contains("offered $ 1.090, not above its original $ 1.100: recorded and ignored"),
        "{out}"
    );
    let t = evaluate(&r, "2");
    assert_eq!(t["outcome"], "tie");
    assert_eq!(t["proposals"][0]["improved_price"], "1090");
    assert_eq!(t["proposals"][0]["price"], "1100");
    // once per bidder
    let e = r.fails(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "A",
        "--price",
        "1200",
    ]);
    assert!(
        e.contains("already answered the invitation with $ 1.090"),
        "{e}"
    );
    // B raises to 1,120: B wins when the proposals are read again
    r.ok(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "B",
        "--price",
        "1120",
    ]);
    let t = evaluate(&r, "2");
    assert_eq!(
        rows(&t),
        [
            row("A", "valid", "", "1100.00"),
            row("B", "winner", "", "1120.00"),
            row("C", "valid", "", "1050.00"),
        ]
    );
    // no tie left: nothing to draw
    let e = r.fails(&["stage", "draw", "D3939-2004", "--stage", "2", "--seed", "x"]);
    assert!(
        e.contains("tranche 1 has no tie to draw: B has the best value"),
        "{e}"
    );
    // proposals were read: no later file
    let path = r.file(
        "late.csv",
        format!("{HEADER}{}", line("D", "CC:1000000104:Cuatro", "2000", 0)).as_bytes(),
    );
    let e = r.fails(&[
        "proposals",
        "import",
        &path,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    assert!(e.contains("a tie round has begun"), "{e}");
    let out = r.ok(&adjudicate_second(&[]));
    assert!(
        out.contains("to B (CC 1000000102 Dos (PRUEBA); jointly liable) at $ 1.120 per share"),
        "{out}"
    );
    assert_eq!(stage_price(&r), "1120");
    r.ok(&["audit", "verify"]);
}

#[test]
fn a_persisting_tie_is_decided_by_a_draw_worked_by_hand() {
    // Sorted by their UTF-8 bytes: P-07, P-12, P-3 ('0' < '1' < '3'). The text hashed is
    // "baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3"; `printf %s TEXT | sha256sum` gives
    // 23f61e2bc21a358dd0252228198ed92df6fd0a7881d16a80faeb53c908743ab2; its first 8 bytes,
    // 0x23f61e2bc21a358d = 2591291808887223693, whose digits add up to 93, a multiple of 3: the
    // remainder mod 3 is 0, and P-07, place 0, wins.
    let r = second_stage();
    import(
        &r,
        "2",
        &[
            line("P-3", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            line("P-12", "CC:1000000102:Dos (PRUEBA)", "1100", 0),
            line("P-07", "CC:1000000103:Tres (PRUEBA)", "1100", 0),
        ],
    );
    // P-12 answers the invitation with the same price: not above, ignored; the tie persists
    r.ok(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "P-12",
        "--price",
        "1100",
    ]);
    let e = r.fails(&[
        "stage",
        "draw",
        "D3939-2004",
        "--stage",
        "2",
        "--seed",
        "a|b",
    ]);
    assert!(
        e.contains("--seed a|b: must be the public entropy named"),
        "{e}"
    );
    let out = r.ok(&[
        "stage",
        "draw",
        "D3939-2004",
        "--stage",
        "2",
        "--seed",
        "baloto-2025-03-20",
    ]);
    for want in [
        "tied, sorted by their UTF-8 bytes: P-07, P-12, P-3",
        "text hashed: baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3",
        "SHA-256: 23f61e2bc21a358dd0252228198ed92df6fd0a7881d16a80faeb53c908743ab2",
        "first 8 bytes as an unsigned integer: 2591291808887223693",
        "2591291808887223693 mod 3 = 0: P-07 wins",
    ] {
        assert!(out.contains(want), "{want} in {out}");
    }
    // recorded in the audit trail: seed, text hashed, digest and winner
    let payload: String = r
        .conn()
        .query_row(
            "SELECT payload FROM audit_events WHERE action = 'stage.draw'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    for want in [
        "\"seed\":\"baloto-2025-03-20\"",
        "\"hashed_text\":\"baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3\"",
        "\"digest\":\"23f61e2bc21a358dd0252228198ed92df6fd0a7881d16a80faeb53c908743ab2\"",
        "\"winner\":\"P-07\"",
    ] {
        assert!(payload.contains(want), "{want} in {payload}");
    }
    let out = r.ok(&["stage", "draw", "--verify", "D3939-2004", "--stage", "2"]);
    assert!(
        out.starts_with("verified: draw 1 of stage 2 of D3939-2004, tranche 1"),
        "{out}"
    );
    let e = r.fails(&[
        "stage",
        "draw",
        "D3939-2004",
        "--stage",
        "2",
        "--seed",
        "otra",
    ]);
    assert!(
        e.contains("tranche 1 was already drawn (draw 1, seed \"baloto-2025-03-20\", winner P-07)"),
        "{e}"
    );
    let e = r.fails(&[
        "stage",
        "improve",
        "D3939-2004",
        "--stage",
        "2",
        "--proposal",
        "P-3",
        "--price",
        "1200",
    ]);
    assert!(e.contains("closed when the tie was drawn"), "{e}");
    let t = evaluate(&r, "2");
    assert_eq!(t["winner"], "P-07");
    assert_eq!(t["draw"], 1);
    let out = r.ok(&adjudicate_second(&[]));
    assert!(
        out.contains("to P-07") && out.contains("(decided by draw 1)"),
        "{out}"
    );
    // its acta, written again, shows the draw and verifies
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "acta.md",
    ]);
    let acta = std::fs::read_to_string(r.dir.path().join("acta.md")).unwrap();
    assert!(acta.contains("## 4. Sorteo"), "{acta}");
    assert!(
        r.ok(&["stage", "verify", "acta.md"])
            .starts_with("verified: acta of stage 2 of D3939-2004"),
    );
    // a draw tampered with in the file is caught
    r.conn()
        .execute_batch(
            "DROP TRIGGER stage_draws_no_update; UPDATE stage_draws SET winner = 'P-12' WHERE id = 1;",
        )
        .unwrap();
    let o = r.run(&["stage", "draw", "--verify", "D3939-2004", "--stage", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(crate::common::out(&o).contains("NOT VERIFIED: draw 1 of stage 2 of D3939-2004, tranche 1: the winner recorded is P-12; the draw gives P-07"));
    let o = r.run(&[
        "--lang",
        "es",
        "stage",
        "draw",
        "--verify",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        crate::common::out(&o).contains("NO VERIFICADO: sorteo N.º 1 de la Segunda Etapa de D3939-2004, tramo 1: el ganador registrado es P-12; el sorteo da P-07"),
        "{}",
        crate::common::out(&o)
    );
    // and the acta no longer verifies: its draw does not recompute
    let o = r.run(&["stage", "verify", "acta.md"]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with("NOT VERIFIED: stage 2 of D3939-2004 (conclusion 1): draw 1 (tranche 1): the winner recorded is P-12; the draw gives P-07"),
        "{v}"
    );
    let o = r.run(&["--lang", "es", "stage", "verify", "acta.md"]);
    let v = crate::common::out(&o);
    assert!(
        v.starts_with("NO VERIFICADO: Segunda Etapa de D3939-2004 (conclusión N.º 1): sorteo N.º 1 (tramo 1): el ganador registrado es P-12; el sorteo da P-07; ejecute `vigia audit verify`"),
        "{v}"
    );
}

#[test]
fn a_joint_proposal_sharing_a_bidder_with_another_rejects_both() {
    // J is joint (Uno and Dos, jointly liable); S is Dos alone: Dos is in two proposals, so both
    // are rejected (seed 002); O and P share a beneficial owner: both rejected; V wins.
    let r = second_stage();
    let mut o = line("O", "CC:1000000105:Cinco (PRUEBA)", "1500", 0);
    o = o.replace(",,12886682", ",grupo-x,12886682");
    let mut p = line("P", "CC:1000000106:Seis (PRUEBA)", "1500", 0);
    p = p.replace(",,12886682", ",grupo-x,12886682");
    import(
        &r,
        "2",
        &[
            line(
                "J",
                "CC:1000000101:Uno (PRUEBA)|CC:1000000102:Dos (PRUEBA)",
                "1400",
                0,
            ),
            line("S", "CC:1000000102:Dos (PRUEBA)", "1300", 0),
            o,
            p,
            line("V", "CC:1000000104:Cuatro (PRUEBA)", "1000", 0),
        ],
    );
    let t = evaluate(&r, "2");
    assert_eq!(
        rows(&t),
        [
            row("J", "rejected", "SAME_BIDDER", ""),
            row("S", "rejected", "SAME_BIDDER", ""),
            row("O", "rejected", "SAME_BIDDER", ""),
            row("P", "rejected", "SAME_BIDDER", ""),
            row("V", "winner", "", "1000.00"),
        ]
    );
}

/// `stage evaluate`'s Spanish table ends with what each cause its rows name means, in the words
/// of the stage's page and acta: vigia's own in their order, then one the staff recorded on
/// review; the cells keep the codes, and the English table the codes alone.
#[test]
fn the_stage_tables_causes_are_explained_in_spanish() {
    let r = second_stage();
    // B: a year to pay (TERM_TOO_LONG); C: funds not accredited; D: a cause found on review
    let c = line("C", "CC:1000000103:Tres (PRUEBA)", "1200", 0).replace(",si,", ",no,");
    let d = line("D", "CC:1000000104:Cuatro (PRUEBA)", "1300", 0)
        .replace(",si,\n", ",si,FORM_DEFECT\n");
    import(
        &r,
        "2",
        &[
            line("A", "CC:1000000101:Uno (PRUEBA)", "1100", 0),
            line("B", "NIT:800191045-1:Dos (PRUEBA)", "1250", 365),
            c,
            d,
        ],
    );
    let args = ["stage", "evaluate", "D3939-2004", "--stage", "2"];
    let es = crate::common::out(&r.with_locale(&[("VIGIA_LANG", "es")], &args));
    let lines: Vec<&str> = es.lines().collect();
    let rows_end = lines.iter().rposition(|l| l.contains(" | ")).unwrap();
    assert!(lines[rows_end].contains("FORM_DEFECT"), "{es}");
    assert_eq!(
        &lines[rows_end + 1..],
        [
            "TERM_TOO_LONG: plazo de pago mayor que el permitido",
            "FUNDS_NOT_ACCREDITED: origen de los fondos no acreditado",
            "FORM_DEFECT: causal registrada en la revisión",
        ],
        "{es}"
    );
    // English keeps the codes only
    let en = r.ok(&args);
    assert!(
        en.contains("TERM_TOO_LONG") && !en.contains("plazo de pago"),
        "{en}"
    );
    assert!(en.lines().last().unwrap().contains(" | "), "{en}");
}
