//! A provisional liquidation superseded by a stage price *so far* (PROVISIONAL_STALE, SPEC §8):
//! the check, `breach show` and the breach page ask the same rule
//! (`register::liquidation::stale`), the page's notes too.

use crate::stages::*;
use serde_json::Value;

/// SPEC §4: a liquidation made while the later stage was pending is provisional; SPEC §8 flags
/// a provisional liquidation whose stage price has since been recorded — a price so far too,
/// when it is not the one the liquidation used.
///
/// By hand: Ana (adjudication 1, 1,000 shares at $963 on 2024-03-15) sold 10 for $1,000 each
/// on 2024-07-10 (first 6 months: 100 %). Liquidated before any stage price: (iii) pending,
/// reference max(963, 1,000) = 1,000 (transfer), principal 10 × 1,000 × 100 % = 10,000,
/// provisional. The Second Stage then sells 6,000,000 shares at $1,100 and leaves 6,886,682 to
/// the Third: (iii) so far = 1,100, the engine now claims 10 × 1,100 = 11,000 — 1,000 more than
/// stored: flagged. Made again with 1,100 so far: 11,000, provisional, not flagged (same price).
/// The Third sells the rest at $1,500: (iii) = max(1,100, 1,500) = 1,500, final: flagged again.
#[test]
fn a_price_so_far_that_raises_the_fine_flags_the_provisional_liquidation() {
    let r = first_stage_adjudicated("fictional sale of 2024 under the 2004 decree (tests)");
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
    assert_eq!(
        (&l["provisional"], &l["reference"]["basis"], &l["principal"]),
        (
            &Value::from(true),
            &Value::from("transfer"),
            &Value::from("10000")
        ),
        "{l:#}"
    );
    // the check's PROVISIONAL_STALE findings about breach 1, and the reasons they give
    let stale = |lang: &str| -> Vec<String> {
        let o = r.run(&[
            "--lang",
            lang,
            "check",
            "--as-of",
            "2024-07-11",
            "--format",
            "json",
        ]);
        let v: Value = serde_json::from_str(&crate::common::out(&o)).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "PROVISIONAL_STALE" && f["breach_id"] == 1)
            .map(|f| f["reason"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    // `breach show`: which of its liquidations are stale, in id order
    let shown = || -> Vec<bool> {
        let b = r.json(&["breach", "show", "1", "--format", "json"]);
        b["liquidations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["stale"].as_bool().unwrap())
            .collect()
    };
    assert!(stale("en").is_empty(), "nothing recorded: still pending");
    assert_eq!(shown(), [false]);

    // the Second Stage sells one tranche at $1,100 and leaves the other to the Third
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
            "fictional sale of 2024 under the 2004 decree (tests)",
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
    let path = r.file("t.csv", text.as_bytes());
    r.ok(&[
        "proposals",
        "import",
        &path,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    r.ok(&adjudicate_second(&[]));
    assert_eq!(
        stale("en"),
        [
            "liquidation 1 is provisional and the stage price has changed since it was made (the \
          highest so far; a later stage is still pending): run `vigia fine liquidate 1 --until \
          2024-07-11`"
        ]
    );
    assert_eq!(
        stale("es"),
        [
            "la liquidación N.º 1 es provisional y el precio de la etapa cambió desde que se hizo \
          (es el mayor hasta ahora; una etapa posterior sigue pendiente): ejecute `vigia fine \
          liquidate 1 --until 2024-07-11`"
        ]
    );
    assert_eq!(shown(), [true]);
    // the breach page says so, in Spanish
    crate::web::add_user(&r, "carla", "consulta");
    let server = crate::web::Server::start(&r);
    let (mut c, _) = crate::web::Client::signed_in(&server, "carla", crate::web::PASSWORD);
    let page = c.get("/incumplimientos/1").text();
    assert!(
        page.contains(
            "La liquidación N.º 1 es provisional y el precio de la etapa cambió desde que se \
             hizo: liquide de nuevo la multa (PROVISIONAL_STALE)."
        ),
        "{page}"
    );
    drop(server);

    // made again with the price so far: 11,000, still provisional, no longer stale
    let l = liquidate();
    assert_eq!(
        (&l["provisional"], &l["reference"]["basis"], &l["principal"]),
        (
            &Value::from(true),
            &Value::from("stage"),
            &Value::from("11000")
        ),
        "{l:#}"
    );
    assert!(stale("en").is_empty());
    assert_eq!(shown(), [true, false]);
    let server = crate::web::Server::start(&r);
    let (mut c, _) = crate::web::Client::signed_in(&server, "carla", crate::web::PASSWORD);
    let page = c.get("/incumplimientos/1").text();
    // (the first is stale still, but made again: the page speaks of the latest, as the check)
    assert!(
        page.contains("Liquidaciones") && !page.contains("PROVISIONAL_STALE"),
        "{page}"
    );
    drop(server);

    // the Third Stage sells the rest at $1,500: final, so the second liquidation is stale too
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
    r.ok(&[
        "stage",
        "adjudicate",
        "D3939-2004",
        "--stage",
        "3",
        "--on",
        "2024-08-16",
    ]);
    assert_eq!(
        stale("en"),
        [
            "liquidation 2 was provisional and the stage price is now recorded: run `vigia fine \
          liquidate 1 --until 2024-07-11`"
        ]
    );
    assert_eq!(shown(), [true, true]);
}
