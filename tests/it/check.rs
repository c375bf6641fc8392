//! The batch check end to end: a register with one case of every finding code and one clean
//! holder, checked as of 2025-03-10. The overdue balance (1,163,124) is SPEC §5's fine accrued to
//! 2025-03-10, computed by the independent reference `tests/reference/spec_reference.py`.

use crate::common::{self, HEADER, PROGRAM, Reg};
use serde_json::Value;
use std::collections::BTreeSet;

/// Adjudications 1–7 and 9 in D3939-2004, 8 in a second program P2 (same terms).
pub(crate) fn register_with_every_case() -> Reg {
    let r = Reg::new().with_letterhead();
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
    r.ok(&[
        "program",
        "letters",
        "set",
        "P2",
        "--entity",
        "Administradora de Prueba S.A.S.",
        "--return-address",
        "Carrera 7 # 71-21",
        "--bank",
        "Banco de Prueba",
        "--account",
        "cuenta corriente No. 000-00000-0",
        "--signatory-name",
        "Firmante de Prueba",
        "--signatory-position",
        "Representante legal",
    ]);
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
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "md",
        "--out",
        &out,
    ]);
    // delivered by hand the same day: its term runs from then (a notice with no delivery has no
    // deadline yet, LEGAL_NOTES §7.3)
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-11",
        "--via",
        "personal",
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
        "--reason",
        "fecha del caso de prueba",
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

/// Rows (as the CSV has them) in the table's order: severity, program, holder; stable.
pub(crate) fn sorted_as_the_table(mut rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let rank = |s: &str| {
        ["high", "medium", "low"]
            .iter()
            .position(|x| *x == s)
            .unwrap()
    };
    rows.sort_by_key(|r| (rank(&r[1]), r[2].to_lowercase(), r[5].to_lowercase()));
    rows
}

pub(crate) fn findings(v: &Value) -> BTreeSet<(String, i64, Option<i64>)> {
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
        // issue 14: the overdue notice was never recorded as delivered either
        s("NOTICE_UNDELIVERED", 9, Some(3)),
        // issue 20: and its holder has no postal address on file
        s("HOLDER_NO_ADDRESS", 9, Some(3)),
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
    assert_eq!(v["findings_total"], 13);
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
    assert_eq!(lines.len(), 14);
    assert!(
        lines.iter().any(|l| l
            .starts_with("NOTICE_OVERDUE,high,D3939-2004,CC,1000000007,En Mora,7,2,1163124.00,")),
        "{text}"
    );

    // csv-excel and the workbook: whole pesos without decimals, as every listing shows a column
    // none of whose amounts has cents (`$ #,##0`)
    let o = r.run(&["check", "--as-of", "2025-03-10", "--format", "csv-excel"]);
    let excel = common::out(&o);
    assert!(
        excel.contains("NOTICE_OVERDUE;alta;D3939-2004;CC;1000000007;En Mora;7;2;1163124;"),
        "{excel}"
    );
    assert!(!excel.contains("1163124,00"), "{excel}");
    let path = r.dir.path().join("chequeo.xlsx");
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-03-10",
        "--format",
        "xlsx",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    let mut styles = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/styles.xml").unwrap(), &mut styles).unwrap();
    assert!(styles.contains(r#"formatCode="$ #,##0""#), "{styles}");
    assert!(!styles.contains(r#"formatCode="$ #,##0.00""#), "{styles}");

    // Table: the summary by code comes first.
    let t = r.run(&["check", "--as-of", "2025-03-10"]);
    let t = common::out(&t);
    let summary_at = t.find("findings").unwrap();
    let detail_at = t.find("reason").unwrap();
    assert!(
        t.starts_with("vigia check as of 2025-03-10: 13 finding(s)") && summary_at < detail_at,
        "{t}"
    );
    // ... then the findings (spooled to temporary files while the check runs): the same rows as
    // the CSV (which keeps the order they were found in), cell for cell, sorted by severity, then
    // program, then holder (equal keys in the order found).
    let detail: Vec<Vec<String>> = t[t.rfind("\n code ").unwrap() + 1..]
        .lines()
        .filter(|l| !l.starts_with('-'))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    let mut from_csv: Vec<Vec<String>> = csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_ne!(
        from_csv,
        sorted_as_the_table(from_csv.clone()),
        "not vacuous: the CSV's order is not the table's"
    );
    from_csv = sorted_as_the_table(from_csv);
    // the CSV writes pesos with two decimals (one scale per column), the table as computed
    for row in from_csv.iter_mut() {
        if let Some(whole) = row[8].strip_suffix(".00") {
            row[8] = whole.to_string();
        }
    }
    assert_eq!(detail.len(), 14, "{t}");
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
        [
            s("NOTICE_UNDELIVERED", 9, Some(3)),
            s("HOLDER_NO_ADDRESS", 9, Some(3)),
            s("PROVISIONAL_STALE", 9, Some(3))
        ]
        .into_iter()
        .collect()
    );
}

#[test]
fn nothing_to_do_exits_0_and_could_not_run_exits_2() {
    let r = Reg::new().with_letterhead();
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

    // No register: could not run.
    let none = Reg::without_register();
    let err = none.fails(&["--db", "missing.db", "check", "--as-of", "2025-03-10"]);
    assert!(err.contains("there is no register there"), "{err}");
    let err = none.fails(&["--lang", "es", "--db", "missing.db", "check"]);
    assert!(
        err.contains("missing.db: no hay un registro allí; créelo primero con `vigia init`"),
        "{err}"
    );
    let err = none.fails(&["--lang", "es", "--db", "missing.db", "backup", "copia.db"]);
    assert!(
        err.contains("no hay un registro allí del cual sacar copia"),
        "{err}"
    );
}

/// Issue 10's register: adjudication 1 (En Mora, pledged) with SPEC §5's breach, noticed on
/// 2025-02-11 (due 2025-02-25) and unpaid; adjudications 2–7, six holders adjudicated on
/// 2025-06-02 without a pledge (their lock-ups end 2027-06-02). The rates certified for
/// November 2026 are added (a test figure), December's not.
pub(crate) fn register_waiting_for_december() -> Reg {
    let r = Reg::new().with_letterhead();
    let mut csv = format!("{HEADER}CC,1000000001,En Mora,natural,trabajador,1000,,2024-03-15,,\n");
    for i in 2..=7 {
        csv.push_str(&format!(
            "CC,100000000{i},Sin Prenda {i},natural,trabajador,100,,2025-06-02,,\n"
        ));
    }
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
    ]);
    let out = r.dir.path().join("n1.md").display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
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
        "MULTA-2025-0001",
        "--on",
        "2025-02-11",
        "--via",
        "personal",
    ]);
    r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-30",
        "--ibc",
        "19.06",
        "--resolution",
        "test figure, not an SFC certification",
    ]);
    r
}

pub(crate) fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect()
}

/// The commands a reason suggests: the text between backticks.
pub(crate) fn suggested_commands(reason: &str) -> Vec<String> {
    reason
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn a_missing_rate_is_a_finding_and_every_other_finding_is_still_reported() {
    // issue 10: the check stopped (exit 2) on the breach whose balance needs December, and the
    // six missing pledges went unreported
    let r = register_waiting_for_december();
    let report = r.dir.path().join("check.csv");
    let o = r.run(&[
        "check",
        "--as-of",
        "2026-12-01",
        "--format",
        "csv",
        "--out",
        report.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let rows = csv_rows(&std::fs::read_to_string(&report).unwrap());
    let codes: Vec<(&str, &str)> = rows.iter().map(|r| (&r[0], &r[6])).collect();
    assert_eq!(
        codes,
        [
            ("RATE_MISSING", ""),
            ("RATE_MISSING", "1"),
            ("MISSING_PLEDGE", "2"),
            ("MISSING_PLEDGE", "3"),
            ("MISSING_PLEDGE", "4"),
            ("MISSING_PLEDGE", "5"),
            ("MISSING_PLEDGE", "6"),
            ("MISSING_PLEDGE", "7"),
        ],
        "no PLEDGE_RELEASABLE for adjudication 1: its fine may still be owed"
    );
    // first, about the register (issue 20, item 9): December has begun without its rate
    let register_wide = &rows[0];
    assert_eq!((&register_wide[1], &register_wide[7]), ("high", ""));
    assert!(
        register_wide[9].starts_with(
            "no certified moratorium rate for 2026-12-01: the fines of 1 breach(es) without a paz \
             y salvo cannot be liquidated or notified as of 2026-12-01 until it is certified"
        ),
        "{}",
        &register_wide[9]
    );
    let missing = &rows[1];
    assert_eq!(&missing[1], "high");
    assert_eq!(&missing[7], "1", "the breach");
    assert_eq!(&missing[8], "", "the balance is unknown");
    assert_eq!(
        &missing[9],
        "notice MULTA-2025-0001 was due on 2025-02-25, but the balance of breach 1 as of \
         2026-12-01 cannot be computed: no certified moratorium rate for 2026-12-01; save the SFC \
         certification for 2026-12-01..2026-12-31 in sfc-rates.csv (header \
         valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution; one row per month) and run \
         `vigia rates import sfc-rates.csv`"
    );

    // the summary counts it; --min-severity high keeps it (and the missing pledges)
    let v: Value = serde_json::from_str(&common::out(&r.run(&[
        "check",
        "--as-of",
        "2026-12-01",
        "--min-severity",
        "high",
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(v["summary"]["RATE_MISSING"], 2);
    assert_eq!(v["summary"]["MISSING_PLEDGE"], 6);
    assert_eq!(v["findings_total"], 8);
    assert_eq!(v["findings"][0]["outstanding"], Value::Null);

    // --within-days planning works the same way: everything it can, exit 1
    let o = r.run(&[
        "check",
        "--as-of",
        "2026-12-01",
        "--within-days",
        "365",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let v: Value = serde_json::from_str(&common::out(&o)).unwrap();
    assert_eq!(v["summary"]["RATE_MISSING"], 2);
    assert_eq!(v["summary"]["MISSING_PLEDGE"], 6);
    assert_eq!(v["summary"]["LOCKUP_ENDING"], 6);

    // releasing pledges in bulk releases what is decided and names what is not
    let out = r.ok(&["pledge", "release", "--releasable", "--on", "2026-12-01"]);
    assert!(
        out.contains(
            "adjudication 1 was not decided: the balance of breach 1 needs the certified \
             moratorium rate for 2026-12-01 (RATE_MISSING)"
        ),
        "{out}"
    );

    // the advice, followed as printed, prices the breach: overdue and enforceable again
    r.file(
        "sfc-rates.csv",
        b"valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n\
          2026-12-01,2026-12-31,19.06,,test figure\n",
    );
    let command = suggested_commands(&missing[9]);
    assert_eq!(command, ["vigia rates import sfc-rates.csv"]);
    r.ok(&command[0].split(' ').skip(1).collect::<Vec<_>>());
    let o = r.run(&["check", "--as-of", "2026-12-01", "--format", "csv"]);
    let rows = csv_rows(&common::out(&o));
    let codes: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(
        codes,
        [
            "NOTICE_OVERDUE",
            "PLEDGE_ENFORCEABLE",
            "MISSING_PLEDGE",
            "MISSING_PLEDGE",
            "MISSING_PLEDGE",
            "MISSING_PLEDGE",
            "MISSING_PLEDGE",
            "MISSING_PLEDGE"
        ]
    );
}

#[test]
fn next_months_rate_is_due_in_the_last_five_days_of_the_month() {
    // one finding about the register as a whole: no program, holder or adjudication
    let r = register_waiting_for_december();
    let o = r.run(&["check", "--as-of", "2026-11-26", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let text = common::out(&o);
    let due: Vec<_> = csv_rows(&text)
        .into_iter()
        .filter(|r| &r[0] == "RATE_DUE")
        .collect();
    assert_eq!(due.len(), 1, "{text}");
    assert_eq!(
        due[0].iter().collect::<Vec<_>>(),
        [
            "RATE_DUE",
            "medium",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "no certified moratorium rate for 2026-12-01..2026-12-31 yet: from 2026-12-01 balances \
             that need it cannot be computed; when the SFC certifies it, save the SFC \
             certification for 2026-12-01..2026-12-31 in sfc-rates.csv (header \
             valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution; one row per month) and run \
             `vigia rates import sfc-rates.csv`"
        ]
    );
    // CSV and JSON stream in the order found: the register's finding first
    assert!(
        text.lines().nth(1).unwrap().starts_with("RATE_DUE,"),
        "{text}"
    );
    let v: Value = serde_json::from_str(&common::out(&r.run(&[
        "check",
        "--as-of",
        "2026-11-26",
        "--format",
        "json",
    ])))
    .unwrap();
    let f = &v["findings"][0];
    assert_eq!(f["code"], "RATE_DUE");
    for field in [
        "program",
        "doc_type",
        "doc_number",
        "holder",
        "adjudication_id",
    ] {
        assert_eq!(f[field], Value::Null, "{field}");
    }
    assert_eq!(v["summary"]["RATE_DUE"], 1);

    // not before the last five days; not for --min-severity high; not once December is added
    let codes = |args: &[&str]| -> Vec<String> {
        csv_rows(&common::out(&r.run(args)))
            .iter()
            .map(|r| r[0].to_string())
            .collect()
    };
    let due = |args: &[&str]| codes(args).contains(&"RATE_DUE".to_string());
    assert!(!due(&["check", "--as-of", "2026-11-25", "--format", "csv"]));
    assert!(due(&["check", "--as-of", "2026-11-30", "--format", "csv"]));
    assert!(!due(&[
        "check",
        "--as-of",
        "2026-11-30",
        "--format",
        "csv",
        "--min-severity",
        "high"
    ]));
    r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-12-01",
        "--to",
        "2026-12-31",
        "--ibc",
        "19.06",
        "--resolution",
        "test figure",
    ]);
    assert!(!due(&["check", "--as-of", "2026-11-30", "--format", "csv"]));
}

#[test]
fn the_table_is_sorted_by_severity_then_program_then_holder() {
    let r = Reg::new().with_letterhead();
    let mut csv = String::from(HEADER);
    for (i, name) in ["Zoe", "Ñusta", "Oscar", "álvaro", "Nora", "Álvaro"]
        .iter()
        .enumerate()
    {
        csv.push_str(&format!(
            "CC,10000000{i:02},{name},natural,trabajador,100,,2025-06-02,,\n"
        ));
    }
    let path = r.file("a.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    // Zoe has a second-degree pledge nobody financed (medium): after every missing pledge (high)
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "2",
        "--registered-on",
        "2025-06-03",
        "--lender",
        "Banco X",
    ]);
    // as of 2026-10-28 (Nov not certified in the embedded series): RATE_DUE, medium, first of
    // its severity (no program, no holder)
    let o = r.run(&["check", "--as-of", "2026-10-28"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    let t = common::out(&o);
    let rows: Vec<(String, String)> = t[t.rfind("\n code ").unwrap() + 1..]
        .lines()
        .skip(2)
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[0].to_string(), c[5].to_string())
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("MISSING_PLEDGE", "álvaro"),
        ("MISSING_PLEDGE", "Álvaro"),
        ("MISSING_PLEDGE", "Nora"),
        ("MISSING_PLEDGE", "Ñusta"),
        ("MISSING_PLEDGE", "Oscar"),
        ("RATE_DUE", ""),
        ("PLEDGE_RANK", "Zoe"),
    ]
    .iter()
    .map(|(c, h)| (c.to_string(), h.to_string()))
    .collect();
    assert_eq!(rows, expected, "{t}");
}

#[test]
fn every_command_a_reason_suggests_parses_as_printed() {
    use clap::Parser;
    // every code: SPEC's cases as of 2025-03-10, and as of 2026-11-27 (November not certified:
    // the overdue balance cannot be priced, and December is due)
    let r = register_with_every_case();
    // and breach 6, liquidated and not noticed
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2025-01-15",
        "--shares",
        "10",
    ]);
    r.ok(&["fine", "liquidate", "6", "--until", "2025-02-01"]);
    let mut codes = BTreeSet::new();
    let mut commands = BTreeSet::new();
    for as_of in ["2025-03-10", "2026-11-27"] {
        let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
        let v: Value = serde_json::from_str(&common::out(&o)).unwrap();
        for f in v["findings"].as_array().unwrap() {
            codes.insert(f["code"].as_str().unwrap().to_string());
            commands.extend(suggested_commands(f["reason"].as_str().unwrap()));
        }
    }
    let all = [
        "NOTICE_OVERDUE",
        "PLEDGE_ENFORCEABLE",
        "SHARES_EXCEEDED",
        "MISSING_PLEDGE",
        "RATE_MISSING",
        "BREACH_NOT_LIQUIDATED",
        "NOTICE_UNDELIVERED",
        "HOLDER_NO_ADDRESS",
        "PROVISIONAL_STALE",
        "PLEDGE_RANK",
        "RATE_DUE",
        "LOCKUP_ENDING",
        "PLEDGE_RELEASABLE",
    ];
    assert_eq!(codes, all.iter().map(|c| c.to_string()).collect());
    // not vacuous: the commands of BREACH_NOT_LIQUIDATED (both kinds), PROVISIONAL_STALE,
    // RATE_MISSING and RATE_DUE
    let kinds: BTreeSet<String> = commands
        .iter()
        .map(|c| c.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        kinds,
        [
            "vigia fine liquidate",
            "vigia notice issue",
            "vigia rates import"
        ]
        .iter()
        .map(|c| c.to_string())
        .collect()
    );
    for command in &commands {
        // printed to be pasted into a shell: plain words, nothing a shell would read otherwise
        assert!(
            command
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || " -._".contains(c)),
            "{command}"
        );
        let words: Vec<&str> = command.split(' ').collect();
        assert_eq!(words[0], "vigia");
        if let Err(e) = vigia::cli::Cli::try_parse_from(&words) {
            panic!("`{command}` does not parse: {e}");
        }
    }
}
