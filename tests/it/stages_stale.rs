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
    let r = first_stage_adjudicated(REASON);
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
    second_stage_so_far(&r);
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
    open_tranche(&r, "3", "1", "6886682", "2024-07-15", "2024-07-26");
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

const REASON: &str = "fictional sale of 2024 under the 2004 decree (tests)";

/// `stage open` of one tranche of D3939-2004.
fn open_tranche(
    r: &crate::common::Reg,
    stage: &str,
    k: &str,
    shares: &str,
    opens: &str,
    closes: &str,
) {
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
        REASON,
    ]);
}

/// The Second Stage of D3939-2004 sells tranche 1 (6,000,000 shares) at $1,100 and none of
/// tranche 2 (6,886,682: $950 is below the $963 minimum), left to the Third: $1,100 so far.
fn second_stage_so_far(r: &crate::common::Reg) {
    open_tranche(r, "2", "1", "6000000", "2024-06-03", "2024-06-14");
    open_tranche(r, "2", "2", "6886682", "2024-06-03", "2024-06-14");
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
}

/// `vigia check --as-of` in CSV: its (code, adjudication) pairs.
fn findings(r: &crate::common::Reg, as_of: &str) -> Vec<(String, String)> {
    let o = r.run(&["check", "--as-of", as_of, "--format", "csv"]);
    crate::common::out(&o)
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].to_string(), cells[6].to_string())
        })
        .collect()
}

/// A breach of adjudication 1 on `on`: 10 shares sold at $1,000, and a payment of `paid` that
/// day.
fn breach_paid(r: &crate::common::Reg, on: &str, paid: &str) {
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        on,
        "--shares",
        "10",
        "--consideration-per-share",
        "1000",
    ]);
    r.ok(&[
        "payment", "record", "--breach", "1", "--date", on, "--amount", paid,
    ]);
}

/// SPEC §7 releases a pledge after the lock-up "and no fine of that adjudication is
/// outstanding"; a fine still provisional (SPEC §4) is not final, so its pledge stays (README,
/// choices). By hand: Ana (adjudication 1, 1,000 shares at $963 on 2024-03-15, lock-up to
/// 2026-03-15) sold 10 at $1,000 on 2024-06-01 (100 %); stage pending: reference 1,000,
/// principal 10 × 1,000 = 10,000, paid that day (0 days of interest): nothing outstanding on
/// 2026-03-20, but the fine may grow. Once `--stage none` says no later stage happened the fine
/// is final at 10,000, paid: the pledge is released.
#[test]
fn a_paid_fine_still_provisional_keeps_the_pledge() {
    let r = crate::common::Reg::new().with_holders();
    pledge_adjudication_1(&r);
    breach_paid(&r, "2024-06-01", "10000");
    let shown = fine_of_breach_1(&r, "2026-03-20");
    assert_eq!(
        (
            &shown["provisional"],
            &shown["principal"],
            &shown["total_due"]
        ),
        (&Value::from(true), &Value::from("10000"), &Value::from("0")),
        "{shown:#}"
    );
    let refused = r.fails(&["pledge", "release", "1", "--on", "2026-03-20"]);
    assert!(
        refused.contains(
            "the fine of breach 1 is provisional (the later stage's price is pending), so it may \
             still rise; the pledge secures it (Art. 10) and stays until the stage price is \
             recorded"
        ),
        "{refused}"
    );
    let o = r.with_locale(
        &[("VIGIA_LANG", "es")],
        &["pledge", "release", "1", "--on", "2026-03-20"],
    );
    assert!(
        crate::common::err(&o).contains(
            "la multa del incumplimiento N.º 1 es provisional (el precio de la etapa posterior \
             está pendiente), de modo que aún puede aumentar"
        ),
        "{}",
        crate::common::err(&o)
    );
    // the check agrees: adjudication 1's pledge is not releasable (2 and 3 have none)
    let pairs = |code: &str| -> Vec<String> {
        findings(&r, "2026-03-20")
            .into_iter()
            .filter(|(c, _)| c == code)
            .map(|(_, a)| a)
            .collect()
    };
    assert_eq!(pairs("PLEDGE_RELEASABLE"), Vec::<String>::new());
    assert!(
        r.ok(&["pledge", "release", "--releasable", "--on", "2026-03-20"])
            .contains("no pledge can be released")
    );
    // no later stage: final, paid, released
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "none",
        "--date",
        "2024-06-28",
    ]);
    assert_eq!(pairs("PLEDGE_RELEASABLE"), ["1"]);
    r.ok(&["pledge", "release", "1", "--on", "2026-03-20"]);
}

/// The same with a price so far: the Second Stage sold at $1,100 and left shares to the Third.
/// By hand: reference max(963, 1,000, 1,100) = 1,100, principal 10 × 1,100 = 11,000, paid on
/// 2024-07-10: nothing outstanding, provisional, the pledge stays. The Third sells at $1,500:
/// (iii) = 1,500, principal 15,000, 4,000 of capital unpaid since 2024-07-10: outstanding.
#[test]
fn a_paid_fine_priced_so_far_keeps_the_pledge_until_the_later_stage_concludes() {
    let r = first_stage_adjudicated(REASON);
    second_stage_so_far(&r);
    pledge_adjudication_1(&r);
    breach_paid(&r, "2024-07-10", "11000");
    let refused = r.fails(&["pledge", "release", "1", "--on", "2026-03-20"]);
    assert!(
        refused.contains(
            "the fine of breach 1 is provisional: a later stage is still pending (the stage \
             price so far is $ 1.100 per share; a higher price in that stage would raise the \
             fine); the pledge secures it (Art. 10) and stays until that stage concludes: \
             adjudicate it or declare it void"
        ),
        "{refused}"
    );
    assert!(!findings(&r, "2026-03-20").contains(&("PLEDGE_RELEASABLE".into(), "1".into())));
    open_tranche(&r, "3", "1", "6886682", "2024-07-15", "2024-07-26");
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
    let refused = r.fails(&["pledge", "release", "1", "--on", "2026-03-20"]);
    // (4,000 of capital and its interest since 2024-07-10: outstanding, no longer provisional)
    assert!(
        refused.contains("the fine of breach 1 is outstanding ($ ")
            && !refused.contains("provisional"),
        "{refused}"
    );
}

/// A program whose fine does not count the later stages' price (`reference_prices` without
/// "stage", a program parameter, SPEC §2) has no fine a pending stage can raise: paid to date,
/// it is final and the pledge is released (it was refused as "provisional" forever, and the
/// check never reported it releasable). By hand: Ana (adjudication 1, 1,000 shares at $963 on
/// 2024-03-15, lock-up to 2026-03-15) sold 10 at $1,000 on 2024-06-01 (100 %); reference
/// max(963, 1,000) = 1,000 (no stage price counted, none recorded), principal 10,000, paid that
/// day: nothing outstanding on 2026-03-20, and final.
#[test]
fn a_paid_fine_of_a_program_that_does_not_count_the_stage_price_frees_the_pledge() {
    let text = std::fs::read_to_string(crate::common::PROGRAM).unwrap();
    let line = "reference_prices = [\"acquisition\", \"transfer\", \"stage\"]";
    assert!(text.contains(line));
    let text = text.replace(line, "reference_prices = [\"acquisition\", \"transfer\"]");
    let r = crate::common::Reg::with_program(&text).with_holders();
    pledge_adjudication_1(&r);
    breach_paid(&r, "2024-06-01", "10000");
    let shown = fine_of_breach_1(&r, "2026-03-20");
    assert_eq!(
        (
            &shown["provisional"],
            &shown["principal"],
            &shown["total_due"]
        ),
        (
            &Value::from(false),
            &Value::from("10000"),
            &Value::from("0")
        ),
        "{shown:#}"
    );
    assert!(findings(&r, "2026-03-20").contains(&("PLEDGE_RELEASABLE".into(), "1".into())));
    r.ok(&["pledge", "release", "1", "--on", "2026-03-20"]);
}

/// A first-degree pledge on adjudication 1, inscribed on 01/04/2024.
fn pledge_adjudication_1(r: &crate::common::Reg) {
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
}

/// `fine show 1 --until UNTIL` as JSON.
fn fine_of_breach_1(r: &crate::common::Reg, until: &str) -> Value {
    r.json(&["fine", "show", "1", "--until", until, "--format", "json"])
}
