//! Runs the real `vigia` binary the way a user would, and compares what it prints with reviewed
//! snapshots (`tests/snapshots/`). Error messages are snapshotted too, so their wording is
//! reviewed like code. Figures come from SPEC.md §5's worked example.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn vigia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vigia"))
        .args(args)
        .env_remove("VIGIA_DB")
        // no register anywhere: quotes use the embedded series
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join("vigia-cli-no-register"),
        )
        .output()
        .expect("run vigia")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

const SPEC_EXAMPLE: &[&str] = &[
    "fine",
    "quote",
    "--adjudicated",
    "2024-03-15",
    "--breach-date",
    "2024-11-20",
    "--shares",
    "1000",
    "--acquisition-price",
    "963",
    "--transfer-price",
    "1450",
    "--stage-price",
    "1100",
    "--until",
    "2025-02-10",
];

fn with(extra: &[&str]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = SPEC_EXAMPLE.to_vec();
    for e in extra {
        v.push(Box::leak(e.to_string().into_boxed_str()));
    }
    v
}

/// Runs and expects exit 2 with an empty stdout; returns stderr.
fn fails(args: &[&str]) -> String {
    let o = vigia(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "stdout: {}\nstderr: {}",
        stdout(&o),
        stderr(&o)
    );
    assert!(
        o.stdout.is_empty(),
        "stdout must stay empty on error: {}",
        stdout(&o)
    );
    stderr(&o)
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vigia-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn quote_table_reproduces_the_spec_example() {
    let o = vigia(SPEC_EXAMPLE);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("TOTAL A PAGAR al 2025-02-10:          $ 1.143.967"),
        "{out}"
    );
    insta::assert_snapshot!("quote_table_spec_example", out);
}

#[test]
fn quote_json_has_the_contract_keys_and_figures() {
    let o = vigia(&with(&["--format", "json"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("exactly one JSON object");
    for key in [
        "applies",
        "convention",
        "adjudicated",
        "breach_date",
        "until",
        "lockup_end",
        "bracket_percent",
        "shares",
        "reference",
        "reference_prices",
        "principal",
        "days",
        "periods",
        "interest",
        "payments",
        "outstanding_capital",
        "outstanding_interest",
        "total_due",
    ] {
        assert!(v.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(v["applies"], true);
    assert_eq!(v["convention"], "daily-simple");
    assert_eq!(v["bracket_percent"], "75");
    assert_eq!(v["reference"]["basis"], "transfer");
    assert_eq!(v["reference"]["price_per_share"], "1450");
    assert_eq!(v["reference_prices"]["stage"], "1100");
    assert_eq!(v["principal"], "1087500");
    assert_eq!(v["days"], 82);
    assert_eq!(v["lockup_end"], "2026-03-15");
    let interests: Vec<&str> = v["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["interest"].as_str().unwrap())
        .collect();
    assert_eq!(interests, ["7334", "21639", "20535", "6959"]);
    assert_eq!(v["periods"][0]["from"], "2024-11-21");
    assert_eq!(v["periods"][0]["moratorium_ea_percent"], "27.90");
    assert_eq!(v["interest"], "56467");
    assert_eq!(v["total_due"], "1143967");
    insta::assert_snapshot!("quote_json_spec_example", stdout(&o));
}

#[test]
fn quote_compound_and_period_effective_match_the_spec() {
    for (convention, interest) in [("compound", "57940"), ("period-effective", "56908")] {
        let o = vigia(&with(&["--format", "json", "--convention", convention]));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["convention"], convention);
        assert_eq!(v["interest"], interest, "{convention}");
    }
}

#[test]
fn quote_with_a_partial_payment() {
    let o = vigia(&with(&["--payment", "2024-12-15=500000"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("$ 626.823"), "{out}");
    insta::assert_snapshot!("quote_table_with_payment", out);
}

#[test]
fn quote_after_the_lockup_says_no_fine_and_exits_0() {
    let args = [
        "fine",
        "quote",
        "--adjudicated",
        "2024-03-15",
        "--breach-date",
        "2026-03-16",
        "--shares",
        "10",
        "--acquisition-price",
        "963",
        "--until",
        "2026-04-01",
        "--format",
        "json",
    ];
    let o = vigia(&args);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["applies"], false);
    assert_eq!(v["lockup_end"], "2026-03-15");
    assert!(v["reason"].as_str().unwrap().contains("no fine applies"));
    let o = vigia(&args[..args.len() - 2]);
    insta::assert_snapshot!("quote_not_applicable_table", stdout(&o));
}

#[test]
fn quote_input_errors_name_the_flag_and_value() {
    let mut errors = String::new();
    let mut check = |label: &str, args: Vec<&str>| {
        let e = fails(&args);
        errors.push_str(&format!("## {label}\n{e}\n"));
    };
    let base = |breach: &str, until: &str, shares: &str, price: &str| -> Vec<&'static str> {
        [
            "fine",
            "quote",
            "--adjudicated",
            "2024-03-15",
            "--breach-date",
            breach,
            "--shares",
            shares,
            "--acquisition-price",
            price,
            "--until",
            until,
        ]
        .iter()
        .map(|s| &*Box::leak(s.to_string().into_boxed_str()))
        .collect()
    };
    check(
        "breach before adjudication",
        base("2024-03-14", "2025-02-10", "10", "963"),
    );
    check(
        "until before breach",
        base("2024-11-20", "2024-11-19", "10", "963"),
    );
    check("zero shares", base("2024-11-20", "2025-02-10", "0", "963"));
    check(
        "negative price",
        base("2024-11-20", "2025-02-10", "10", "-963"),
    );
    check(
        "malformed price",
        base("2024-11-20", "2025-02-10", "10", "1.450,50"),
    );
    check(
        "impossible date",
        base("2024-02-30", "2025-02-10", "10", "963"),
    );
    let mut b = base("2026-10-20", "2026-12-05", "10", "963");
    b[3] = "2025-06-01"; // --adjudicated: keep the breach inside the lock-up
    check("no certified rate", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,12:50,24:25"]);
    check("brackets not increasing", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,30:25"]);
    check("brackets beyond 24 months", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,30:25", "--lockup-months", "30"]);
    check("lock-up beyond 24 months", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--lockup-months", "12"]);
    check("brackets not ending with the lock-up", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--payment", "2024-11-19=100"]);
    check("payment before the breach", b);
    let overlapping = temp_file(
        "overlap.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n2024-11-01,2024-11-30,18.60,27.90,A\n2024-11-15,2025-02-28,17.59,,B\n",
    );
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend([
        "--rates",
        Box::leak(overlapping.display().to_string().into_boxed_str()),
    ]);
    let e = fails(&b);
    assert!(
        e.contains("overlaps the period 2024-11-01..2024-11-30 on line 2"),
        "{e}"
    );
    assert!(e.contains("line 3"), "{e}");
    insta::assert_snapshot!("quote_errors", errors);
}

#[test]
fn quote_with_another_rates_file() {
    let rates = temp_file(
        "flat.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution,note\n2030-01-01,2030-12-31,20,,Res. X,extra column\n",
    );
    let o = vigia(&[
        "fine",
        "quote",
        "--adjudicated",
        "2030-01-10",
        "--breach-date",
        "2030-02-01",
        "--shares",
        "1",
        "--acquisition-price",
        "1000000",
        "--until",
        "2030-03-03",
        "--format",
        "json",
        "--rates",
        rates.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // 1.5 × 20 = 30 % EA; 30 days: 1,000,000 × ((1.30)^(1/365) − 1) × 30 = 21,571.94… (Python
    // decimal) → 21,572.
    assert_eq!(v["periods"][0]["moratorium_ea_percent"], "30.0");
    assert_eq!(v["interest"], "21572");
}

#[test]
fn rates_list_shows_the_shipped_series() {
    let o = vigia(&["rates", "list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("2024-12-01 | 2024-12-31 |"), "{out}");
    assert!(out.contains("26,39 %"));
    assert!(out.contains("249 periods, 1999-01-01..2026-10-31"));
    let o = vigia(&["rates", "list", "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 249);
}

#[test]
fn rates_check_reports_problems_with_line_numbers() {
    let good = temp_file(
        "good.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2030-01-31,20,30\n2030-02-01,2030-02-28,21,\n",
    );
    let o = vigia(&["rates", "check", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("2 periods, 2030-01-01..2030-02-28, no problems"));

    let bad = temp_file(
        "bad.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2030-01-31,20,30\n2030-01-20,2030-02-28,21,\n2030-04-01,2030-04-30,,\n2030-05-01,2030-05-31,abc,\n",
    );
    let o = vigia(&["rates", "check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o).replace(bad.to_str().unwrap(), "bad.csv");
    insta::assert_snapshot!("rates_check_bad", out);

    let e = fails(&["rates", "check", "/nonexistent/rates.csv"]);
    assert!(e.contains("/nonexistent/rates.csv"), "{e}");
}

#[test]
fn shipped_series_checks_clean_through_the_binary() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schema/rates/ibc_consumo_ordinario.csv"
    );
    let o = vigia(&["rates", "check", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn closed_pipe_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vigia"))
        .args(["rates", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before vigia writes
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::io::stdout().flush();
}

#[test]
fn help_lists_the_commands() {
    let out = stdout(&vigia(&["--help"]));
    assert!(out.contains("fine") && out.contains("rates"), "{out}");
    let out = stdout(&vigia(&["fine", "quote", "--help"]));
    for flag in [
        "--adjudicated",
        "--breach-date",
        "--payment",
        "--convention",
        "--brackets",
        "--rates",
        "--format",
    ] {
        assert!(out.contains(flag), "missing {flag} in help");
    }
}
