//! The batch check end to end: a register with one case of every finding code and one clean
//! holder, checked as of 2025-03-10. The overdue balance (1,163,124) is SPEC §5's fine accrued to
//! 2025-03-10, computed by the independent reference `tests/reference/spec_reference.py`.

use crate::common::{self, HEADER, PROGRAM, Reg};
use serde_json::Value;
use std::collections::BTreeSet;

/// Adjudications 1–7 and 9 in D3939-2004, 8 in a second program P2 (same terms).
fn register_with_every_case() -> Reg {
    let r = Reg::new();
    let csv = format!(
        "{HEADER}CC,1000000001,Limpio,natural,trabajador,100,,2024-03-15,,\n\
         CC,1000000002,Sin Prenda,natural,trabajador,100,,2024-03-15,,\n\
         CC,1000000003,Rango Dos,natural,trabajador,100,,2024-03-15,,\n\
         CC,1000000004,Termina Pronto,natural,trabajador,100,,2023-03-25,,\n\
         CC,1000000005,Ya Libre,natural,trabajador,100,,2023-01-10,,\n\
         CC,1000000006,Sin Liquidar,natural,trabajador,100,,2024-03-15,,\n\
         CC,1000000007,En Mora,natural,trabajador,1000,,2024-03-15,,\n\
         CC,1000000009,Excedido,natural,trabajador,10,,2024-03-15,,\n"
    );
    let path = r.file("a.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let p2 = std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"P2\"");
    let p2 = r.file("p2.toml", p2.as_bytes());
    r.ok(&["program", "add", &p2]);
    let path = r.file(
        "b.csv",
        format!("{HEADER}CC,1000000008,Provisional,natural,trabajador,100,,2024-03-15,,\n")
            .as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "P2"]);
    // adjudication ids: 1..7 and 8 = Excedido (D3939), 9 = Provisional (P2)
    for adj in ["1", "4", "5", "6", "7", "8", "9"] {
        r.ok(&[
            "pledge",
            "register",
            adj,
            "--rank",
            "1",
            "--registered-on",
            "2024-04-01",
        ]);
    }
    r.ok(&[
        "pledge",
        "register",
        "3",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
        "--lender",
        "Banco X",
    ]);
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
    // 6: a breach with no liquidation
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "6",
        "--kind",
        "sale",
        "--date",
        "2024-12-01",
        "--shares",
        "10",
    ]);
    // 7: SPEC §5's breach, noticed on 2025-02-11 (due 2025-02-25), unpaid
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "7",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    let out = r.dir.path().join("n7.md").display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "2",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--format",
        "md",
        "--out",
        &out,
    ]);
    // 9 (P2): liquidated and noticed while P2's stage price was pending, then the price arrives
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "9",
        "--kind",
        "sale",
        "--date",
        "2025-01-10",
        "--shares",
        "5",
    ]);
    let out = r.dir.path().join("n9.md").display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "3",
        "--until",
        "2025-03-05",
        "--date",
        "2025-03-05",
        "--format",
        "md",
        "--out",
        &out,
    ]);
    r.ok(&[
        "program",
        "stage-price",
        "P2",
        "--stage",
        "2",
        "--price",
        "1000",
        "--date",
        "2025-03-06",
    ]);
    // 8: breaches exceeding the adjudicated shares can only come from outside vigia's rules
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "8",
        "--kind",
        "sale",
        "--date",
        "2024-12-01",
        "--shares",
        "10",
    ]);
    r.conn()
        .execute(
            "INSERT INTO breaches (adjudication_id, kind, breach_date, shares, created_at, created_by)
             VALUES (8, 'sale', '2024-12-02', 5, '2025-01-01T00:00:00Z', 'migration')",
            [],
        )
        .unwrap();
    r
}

fn findings(v: &Value) -> BTreeSet<(String, i64, Option<i64>)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["adjudication_id"].as_i64().unwrap(),
                f["breach_id"].as_i64(),
            )
        })
        .collect()
}

#[test]
fn every_finding_code_once_and_the_clean_holder_never() {
    let r = register_with_every_case();
    let o = r.run(&["check", "--as-of", "2025-03-10", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let v: Value = serde_json::from_str(&common::out(&o)).unwrap();
    let s = |c: &str, a: i64, b: Option<i64>| (c.to_string(), a, b);
    let expected: BTreeSet<_> = [
        s("MISSING_PLEDGE", 2, None),
        s("PLEDGE_RANK", 3, None),
        s("LOCKUP_ENDING", 4, None),
        s("PLEDGE_RELEASABLE", 5, None),
        s("BREACH_NOT_LIQUIDATED", 6, Some(1)),
        s("NOTICE_OVERDUE", 7, Some(2)),
        s("PLEDGE_ENFORCEABLE", 7, Some(2)),
        s("SHARES_EXCEEDED", 8, None),
        s("BREACH_NOT_LIQUIDATED", 8, Some(4)),
        s("BREACH_NOT_LIQUIDATED", 8, Some(5)),
        s("PROVISIONAL_STALE", 9, Some(3)),
    ]
    .into_iter()
    .collect();
    assert_eq!(findings(&v), expected);
    assert!(
        !v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["adjudication_id"] == 1),
        "the clean holder has no finding"
    );
    let overdue = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "NOTICE_OVERDUE")
        .unwrap();
    assert_eq!(overdue["outstanding"], "1163124");
    assert_eq!(overdue["severity"], "high");
    assert_eq!(overdue["doc_number"], "1000000007");
    assert_eq!(v["as_of"], "2025-03-10");
    assert_eq!(v["findings_total"], 11);
    assert_eq!(v["summary"]["BREACH_NOT_LIQUIDATED"], 3);
    assert_eq!(v["summary"]["NOTICE_OVERDUE"], 1);

    // CSV: a header and one line per finding.
    let csv = r.run(&["check", "--as-of", "2025-03-10", "--format", "csv"]);
    assert_eq!(csv.status.code(), Some(1));
    let text = common::out(&csv);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "code,severity,program,doc_type,doc_number,holder,adjudication_id,breach_id,outstanding,reason"
    );
    assert_eq!(lines.len(), 12);
    assert!(
        lines
            .iter()
            .any(|l| l
                .starts_with("NOTICE_OVERDUE,high,D3939-2004,CC,1000000007,En Mora,7,2,1163124,")),
        "{text}"
    );

    // Table: the summary by code comes first.
    let t = r.run(&["check", "--as-of", "2025-03-10"]);
    let t = common::out(&t);
    let summary_at = t.find("findings").unwrap();
    let detail_at = t.find("reason").unwrap();
    assert!(
        t.starts_with("vigia check as of 2025-03-10: 11 finding(s)") && summary_at < detail_at,
        "{t}"
    );
    // ... then the findings (spooled to a temporary file while the check runs): the same rows as
    // the CSV, in the same order, cell for cell.
    let detail: Vec<Vec<String>> = t[t.rfind("\n code ").unwrap() + 1..]
        .lines()
        .filter(|l| !l.starts_with('-'))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    let from_csv: Vec<Vec<String>> = csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_eq!(detail.len(), 12, "{t}");
    assert_eq!(detail[0][0], "code");
    assert_eq!(detail[1..], from_csv[..]);

    // --min-severity keeps the findings that urgent or more, and the exit status follows them.
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-03-10",
        "--min-severity",
        "high",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let high: Value = serde_json::from_str(&common::out(&o)).unwrap();
    assert_eq!(
        findings(&high),
        [
            s("MISSING_PLEDGE", 2, None),
            s("NOTICE_OVERDUE", 7, Some(2)),
            s("PLEDGE_ENFORCEABLE", 7, Some(2)),
            s("SHARES_EXCEEDED", 8, None),
        ]
        .into_iter()
        .collect()
    );
    assert_eq!(high["findings_total"], 4);

    // --program limits the check; --out writes the report to a file.
    let file = r.dir.path().join("report.json");
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-03-10",
        "--program",
        "P2",
        "--format",
        "json",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        findings(&v),
        [s("PROVISIONAL_STALE", 9, Some(3))].into_iter().collect()
    );
}

#[test]
fn nothing_to_do_exits_0_and_could_not_run_exits_2() {
    let r = Reg::new();
    let path = r.file(
        "a.csv",
        format!("{HEADER}CC,1000000001,Limpio,natural,trabajador,100,,2024-03-15,,\n").as_bytes(),
    );
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
    let o = r.ok(&["check", "--as-of", "2025-03-10"]);
    assert!(o.contains("0 finding(s)"), "{o}");
    // as of 2026-02-20 its lock-up ends within 30 days (2026-03-15): a low finding, which
    // --min-severity medium leaves out (exit 0)
    let o = r.run(&["check", "--as-of", "2026-02-20", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::out(&o).contains("\nLOCKUP_ENDING,low,"),
        "{}",
        common::out(&o)
    );
    let o = r.ok(&["check", "--as-of", "2026-02-20", "--min-severity", "medium"]);
    assert!(o.contains("0 finding(s)"), "{o}");

    // A report that cannot be written: could not run, naming the flag.
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-03-10",
        "--out",
        r.dir
            .path()
            .join("no-such-dir/report.csv")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::err(&o).contains("--out "), "{}", common::err(&o));

    // An overdue notice whose balance needs rates the register does not have: could not run.
    let r = register_with_every_case();
    let o = r.run(&["check", "--as-of", "2027-01-15"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        common::err(&o).contains("no certified moratorium rate for 2026-11-01..2027-01-15"),
        "{}",
        common::err(&o)
    );
}
