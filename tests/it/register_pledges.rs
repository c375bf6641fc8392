//! Pledges imported and released in bulk, and officers writing at the same time.

use crate::common::{Reg, err, out};
use serde_json::Value;

#[test]
fn officers_writing_at_the_same_time_wait_for_each_other() {
    // Sixteen processes record a breach each at once. Every write takes the write lock before
    // it reads (BEGIN IMMEDIATE), so each waits its turn instead of failing with "database is
    // locked" (with deferred transactions most of them failed), and the audit chain stays whole.
    let r = Reg::new().with_holders();
    let children: Vec<_> = (1..=16)
        .map(|i| {
            r.command()
                .arg("--db")
                .arg(r.db())
                .args(["--officer", &format!("officer-{i}")])
                .args([
                    "breach",
                    "record",
                    "--adjudication",
                    "3",
                    "--kind",
                    "sale",
                    "--date",
                    &format!("2024-06-{i:02}"),
                    "--shares",
                    "10",
                    "--consideration-per-share",
                    "1000",
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    }
    let n: i64 = r
        .conn()
        .query_row("SELECT count(*) FROM breaches", [], |x| x.get(0))
        .unwrap();
    assert_eq!(n, 16);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn pledges_import_in_bulk_under_the_rules_of_pledge_register() {
    let r = Reg::new().with_holders();

    // A bad file: every problem, in line order, and nothing written.
    let before = r.dump();
    let bad = "adjudication_id,rank,registered_on,lender,doc_type,doc_number\n\
               1,2,2024-04-01,,,\n\
               1,1,2024-03-01,,,\n\
               9,1,2024-04-01,,,\n\
               1,1,2024-04-01,,CC,1000000002\n\
               3,1,2024-04-01,,,\n\
               3,1,2024-04-02,,,\n\
               x,3,2024-13-01,,CC,\n";
    let e = r.fails(&["pledge", "import", &r.file("bad.csv", bad.as_bytes())]);
    let problems: Vec<&str> = e.lines().skip(1).map(str::trim).collect();
    assert_eq!(
        problems,
        [
            "line 2: rank \"2\": adjudication 1 has no financing lender; a second-degree pledge is taken only when the lender holds the first (Art. 10): name the lender or use rank 1",
            "line 3: registered_on \"2024-03-01\": is before the adjudication on 2024-03-15; a pledge is registered after the shares are adjudicated",
            "line 4: adjudication_id \"9\": no such adjudication in the register (see `vigia adjudications list`)",
            "line 5: doc_number \"1000000002\": adjudication 1 belongs to CC 1000000001, not CC 1000000002; check the file's rows",
            // several pledges may be in force (Art. 10), but line 6 pledged every share already
            "line 7: adjudication_id \"3\": the 50000 shares of adjudication 3 are all pledged already (line 6 of this file: rank 1, 50000 shares, registered 2024-04-01); give each row its shares to split them between pledges",
            "line 8: adjudication_id \"x\": must be the id of an adjudication (see `vigia adjudications list`)",
            "line 8: rank \"3\": must be 1 (first degree) or 2 (second degree, when the lender holds the first)",
            "line 8: registered_on \"2024-13-01\": \"2024-13-01\" is not a day of the calendar; check the day and the month (DD/MM/YYYY)",
            "line 8: doc_number \"\": give it with doc_type, or leave both empty",
        ],
        "{e}"
    );
    assert!(e.starts_with("vigia: error: import of "), "{e}");
    assert_eq!(r.dump(), before);

    // A good file (the es-CO Excel layout): adjudication 2 is financed, so rank 2 takes its
    // lender; the union's document is checked; adjudication 1 is left without a pledge.
    let good = "adjudication_id;rank;registered_on;doc_type;doc_number\n\
                2;2;01/04/2024;;\n\
                3;1;02/04/2024;NIT;999000001-2\n";
    let path = r.file("prendas.csv", good.as_bytes());
    let o = r.ok(&["pledge", "import", &path]);
    assert_eq!(
        o.trim(),
        "pledge import 1: 2 pledge(s) registered (ids 1..2); read as UTF-8, separator ';'"
    );
    let two = r.json(&["adjudications", "show", "2", "--format", "json"]);
    let pledge = &two["pledges"][0];
    assert_eq!(pledge["rank"], 2);
    assert_eq!(pledge["lender"], "Banco Ejemplo");
    assert_eq!(pledge["shares"], 2500);
    assert_eq!(pledge["registered_on"], "2024-04-01");
    assert_eq!(
        pledge["beneficiary"],
        "Bancafé y Granahorrar Banco Comercial S.A."
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    // the same file again adds nothing
    let after = r.dump();
    assert!(
        r.ok(&["pledge", "import", &path])
            .contains("already imported as pledge import 1")
    );
    assert_eq!(r.dump(), after);
    // only adjudication 1 still lacks its pledge
    let check = r.run(&["check", "--as-of", "2024-06-01", "--format", "csv"]);
    let text = out(&check);
    let missing: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("MISSING_PLEDGE"))
        .collect();
    assert_eq!(missing.len(), 1, "{text}");
    assert!(missing[0].contains(",1000000001,Ana Prueba,1,"), "{text}");
}

#[test]
fn every_releasable_pledge_is_released_at_once_and_no_other() {
    let r = Reg::new().with_holders();
    for (adj, rank) in [("1", "1"), ("2", "2"), ("3", "1")] {
        r.ok(&[
            "pledge",
            "register",
            adj,
            "--rank",
            rank,
            "--registered-on",
            "2024-04-01",
        ]);
    }
    // adjudication 2 has an unpaid fine: its pledge secures it
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-06-01",
        "--shares",
        "10",
        "--consideration-per-share",
        "1000",
    ]);
    // the lock-ups (adjudicated 2024-03-15) run until 2026-03-15: nothing before
    assert_eq!(
        r.ok(&["pledge", "release", "--releasable", "--on", "2026-03-15"])
            .trim(),
        "no pledge can be released on 2026-03-15"
    );
    let before = r.dump();
    let o = r.ok(&["pledge", "release", "--releasable", "--on", "2026-03-16"]);
    assert_eq!(
        o.trim(),
        "released the pledges of 2 adjudication(s) on 2026-03-16 (release ids 1..2)"
    );
    let released = |adj: &str| {
        r.json(&["adjudications", "show", adj, "--format", "json"])["pledges"][0]["released_on"]
            .clone()
    };
    assert_eq!(released("1"), "2026-03-16");
    assert_eq!(released("2"), Value::Null);
    assert_eq!(released("3"), "2026-03-16");
    // one audit event covers both releases, and the chain verifies
    assert_eq!(r.dump().len(), before.len() + 3); // two releases, one event
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    // nothing left to release; the check agrees
    assert!(
        r.ok(&["pledge", "release", "--releasable", "--on", "2026-03-20"])
            .contains("no pledge can be released")
    );
    let check = r.run(&["check", "--as-of", "2026-03-20", "--format", "csv"]);
    assert_eq!(check.status.code(), Some(1), "{}", err(&check));
    let text = out(&check);
    // (code, adjudication): only adjudication 2's unliquidated breach is left
    let findings: Vec<(&str, &str)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0], cells[6])
        })
        .collect();
    assert_eq!(findings, [("BREACH_NOT_LIQUIDATED", "2")], "{text}");
    // an adjudication and --releasable together make no sense
    r.fails(&[
        "pledge",
        "release",
        "1",
        "--releasable",
        "--on",
        "2026-03-20",
    ]);
}
