//! Runs the real `vigia` binary the way a user would, and compares what it prints with reviewed
//! snapshots (`tests/it/snapshots/`). Error messages are snapshotted too, so their wording is
//! reviewed like code. Figures come from SPEC.md §5's worked example.

use crate::common::{Reg, err, out};
use serde_json::Value;
use std::process::Stdio;

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

fn with(extra: &[&str]) -> Vec<String> {
    SPEC_EXAMPLE
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn quote_table_reproduces_the_spec_example() {
    let r = Reg::without_register();
    let o = r.run(SPEC_EXAMPLE);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let out = out(&o);
    assert!(
        out.contains("TOTAL A PAGAR al 10/02/2025:          $ 1.143.967"),
        "{out}"
    );
    insta::assert_snapshot!("quote_table_spec_example", out);
}

#[test]
fn quote_json_has_the_contract_keys_and_figures() {
    let r = Reg::without_register();
    let o = r.run(&with(&["--format", "json"]));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).expect("exactly one JSON object");
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
    insta::assert_snapshot!("quote_json_spec_example", out(&o));
}

#[test]
fn quote_compound_and_period_effective_match_the_spec() {
    let r = Reg::without_register();
    for (convention, interest) in [("compound", "57940"), ("period-effective", "56908")] {
        let o = r.run(&with(&["--format", "json", "--convention", convention]));
        let v: Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(v["convention"], convention);
        assert_eq!(v["interest"], interest, "{convention}");
    }
}

#[test]
fn quote_with_a_partial_payment() {
    let r = Reg::without_register();
    let o = r.run(&with(&["--payment", "2024-12-15=500000"]));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let out = out(&o);
    assert!(out.contains("$ 626.823"), "{out}");
    insta::assert_snapshot!("quote_table_with_payment", out);
}

#[test]
fn a_payment_with_cents_gives_its_columns_cents_on_every_row() {
    let r = Reg::without_register();
    let o = r.run(&with(&["--payment", "2024-12-15=500000.50"]));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let out = out(&o);
    // 1.087.500 − (500.000,50 − 17.804 of interest) = 605.303,50 of capital after the payment
    // a line that starts with `start`, its runs of spaces as one
    let line = |start: &str| {
        out.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start}: {out}"))
    };
    // the periods' capital: before the payment whole, after it with cents
    assert!(line("21/11/2024").contains("| $ 1.087.500,00 |"), "{out}");
    assert!(line("16/12/2024").contains("| $ 605.303,50 |"), "{out}");
    // the payment's interest and surplus have no cents, and show none
    assert_eq!(
        line("15/12/2024 |"),
        "15/12/2024 | $ 500.000,50 | $ 17.804 | $ 482.196,50 | $ 0 | $ 605.303,50",
        "{out}"
    );
    // the balances below one another: the capital's cents give the others theirs
    assert!(
        line("Capital pendiente:").ends_with("$ 605.303,50"),
        "{out}"
    );
    assert!(line("Intereses pendientes:").ends_with(",00"), "{out}");
    assert!(line("TOTAL A PAGAR").ends_with(",50"), "{out}");
}

#[test]
fn quote_after_the_lockup_says_no_fine_and_exits_0() {
    let r = Reg::without_register();
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
    let o = r.run(&args);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["applies"], false);
    assert_eq!(v["lockup_end"], "2026-03-15");
    assert!(v["reason"].as_str().unwrap().contains("no fine applies"));
    let o = r.run(&args[..args.len() - 2]);
    insta::assert_snapshot!("quote_not_applicable_table", out(&o));
}

#[test]
fn quote_input_errors_name_the_flag_and_value() {
    let r = Reg::without_register();
    let mut errors = String::new();
    let mut check = |label: &str, args: Vec<String>| {
        let e = r.fails(&args);
        errors.push_str(&format!("## {label}\n{e}\n"));
    };
    let base = |breach: &str, until: &str, shares: &str, price: &str| -> Vec<String> {
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
        .map(String::from)
        .to_vec()
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
        base("2024-11-20", "2025-02-10", "10", "1,450.50"),
    );
    check(
        "a price two readers read two ways",
        base("2024-11-20", "2025-02-10", "10", "1,450"),
    );
    check(
        "impossible date",
        base("2024-02-30", "2025-02-10", "10", "963"),
    );
    let mut b = base("2026-10-20", "2026-12-05", "10", "963");
    b[3] = "2025-06-01".into(); // --adjudicated: keep the breach inside the lock-up
    check("no certified rate", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,12:50,24:25"].map(String::from));
    check("brackets not increasing", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,30:25"].map(String::from));
    check("brackets beyond 24 months", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--brackets", "6:100,12:75,30:25", "--lockup-months", "30"].map(String::from));
    check("lock-up beyond 24 months", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--lockup-months", "12"].map(String::from));
    check("brackets not ending with the lock-up", b);
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--payment", "2024-11-19=100"].map(String::from));
    check("payment before the breach", b);
    let overlapping = r.file(
        "overlap.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n2024-11-01,2024-11-30,18.60,27.90,A\n2024-11-15,2025-02-28,17.59,,B\n".as_bytes(),
    );
    let mut b = base("2024-11-20", "2025-02-10", "10", "963");
    b.extend(["--rates".to_string(), overlapping]);
    let e = r.fails(&b);
    assert!(
        e.contains("overlaps the period 2024-11-01..2024-11-30 on line 2"),
        "{e}"
    );
    assert!(e.contains("line 3"), "{e}");
    insta::assert_snapshot!("quote_errors", errors);
}

#[test]
fn quote_with_another_rates_file() {
    let r = Reg::without_register();
    let rates = r.file(
        "flat.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution,note\n2030-01-01,2030-12-31,20,,Res. X,extra column\n".as_bytes(),
    );
    let o = r.run(&[
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
        &rates,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    // 1.5 × 20 = 30 % EA; 30 days: 1,000,000 × ((1.30)^(1/365) − 1) × 30 = 21,571.94… (Python
    // decimal) → 21,572.
    assert_eq!(v["periods"][0]["moratorium_ea_percent"], "30.0");
    assert_eq!(v["interest"], "21572");
}

#[test]
fn rates_list_shows_the_shipped_series() {
    let r = Reg::without_register();
    let o = r.run(&["rates", "list"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(text.contains("01/12/2024 | 31/12/2024 |"), "{text}");
    assert!(text.contains("26,39 %"));
    assert!(text.contains("249 periods, 1999-01-01..2026-10-31"));
    let o = r.run(&["rates", "list", "--format", "json"]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 249);
    let o = r.run(&["--lang", "es", "rates", "list"]);
    assert!(
        out(&o).contains("249 períodos, del 01/01/1999 al 31/10/2026; fuente: serie certificada por la Superintendencia Financiera incluida en vigia"),
        "{}",
        out(&o)
    );
}

#[test]
fn rates_check_says_in_spanish_that_a_file_is_sound() {
    let r = Reg::without_register();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("tasas.csv");
    std::fs::write(
        &f,
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2030-01-31,20,30\n2030-02-01,2030-02-28,21,\n",
    )
    .unwrap();
    let o = r.run(&["--lang", "es", "rates", "check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out(&o).ends_with("tasas.csv: 2 períodos, del 01/01/2030 al 28/02/2030, sin problemas\n"),
        "{}",
        out(&o)
    );
    std::fs::write(
        &f,
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2029-01-31,20,30\n",
    )
    .unwrap();
    let o = r.run(&["--lang", "es", "rates", "check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).starts_with("línea 2: la fecha «hasta» (valid_to) 31/01/2029 es anterior"),
        "{}",
        out(&o)
    );
    assert!(out(&o).ends_with("tasas.csv: 1 problema\n"), "{}", out(&o));
}

#[test]
fn rates_check_reports_problems_with_line_numbers() {
    let r = Reg::without_register();
    let good = r.file(
        "good.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2030-01-31,20,30\n2030-02-01,2030-02-28,21,\n".as_bytes(),
    );
    let o = r.run(&["rates", "check", &good]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("2 periods, 2030-01-01..2030-02-28, no problems"));

    let bad = r.file(
        "bad.csv",
        "valid_from,valid_to,ibc_ea_pct,usury_ea_pct\n2030-01-01,2030-01-31,20,30\n2030-01-20,2030-02-28,21,\n2030-04-01,2030-04-30,,\n2030-05-01,2030-05-31,abc,\n".as_bytes(),
    );
    let o = r.run(&["rates", "check", &bad]);
    assert_eq!(o.status.code(), Some(1));
    let out = out(&o).replace(&bad, "bad.csv");
    insta::assert_snapshot!("rates_check_bad", out);

    let missing = r.dir.path().join("missing.csv").display().to_string();
    let e = r.fails(&["rates", "check", &missing]);
    assert!(e.contains(&missing), "{e}");
}

#[test]
fn shipped_series_checks_clean_through_the_binary() {
    let r = Reg::without_register();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schema/rates/ibc_consumo_ordinario.csv"
    );
    let o = r.run(&["rates", "check", path]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
}

#[test]
fn closed_pipe_exits_quietly() {
    let r = Reg::without_register();
    let mut child = r
        .command()
        .args(["rates", "list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before vigia writes
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty(), "{}", err(&o));
}

/// The names in the "Commands:" section of a help text, or the long flags of its "Options:"
/// section: the first word of each entry line (entries are indented by two spaces, their
/// continuation lines by more).
fn help_entries(help: &str, section: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != section)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter_map(|l| {
            let entry = l
                .strip_prefix("  ")?
                .trim_start_matches("-h, ")
                .trim_start_matches("-V, ");
            let first = entry.split_whitespace().next()?;
            (first.starts_with("--") || section == "Commands:").then(|| first.to_string())
        })
        .collect()
}

#[test]
fn help_lists_the_commands() {
    let r = Reg::without_register();
    let help = r.ok(&["--help"]);
    // The variants of cli::Command, in order, and clap's own `help`.
    assert_eq!(
        help_entries(&help, "Commands:"),
        [
            "init",
            "demo",
            "program",
            "offer",
            "acceptances",
            "stage",
            "proposals",
            "adjudications",
            "pledge",
            "breach",
            "fine",
            "notice",
            "settlement",
            "holder",
            "payment",
            "rates",
            "check",
            "calendar",
            "template",
            "audit",
            "backup",
            "user",
            "serve",
            "completions",
            "man",
            "help",
        ],
        "{help}"
    );
    // Every flag of `fine quote` (cli::fine::QuoteArgs), then help and the options every
    // command has.
    let help = r.ok(&["fine", "quote", "--help"]);
    assert_eq!(
        help_entries(&help, "Options:"),
        [
            "--adjudicated",
            "--breach-date",
            "--shares",
            "--acquisition-price",
            "--transfer-price",
            "--stage-price",
            "--stage-pending",
            "--until",
            "--payment",
            "--convention",
            "--lockup-months",
            "--brackets",
            "--format",
            "--out",
            "--help",
            "--rates",
            "--db",
            "--officer",
            "--key",
            "--lang",
        ],
        "{help}"
    );
}

/// A fine paid off on 10/01/2025, quoted as of a day whose rate is not certified: nothing
/// accrues after the payment, so the liquidation runs to it and says so; a fine still owed is
/// refused for the missing rate as before.
#[test]
fn a_fine_paid_off_is_quoted_to_its_payment_when_later_rates_are_missing() {
    let r = Reg::without_register();
    // far past the embedded series: no certified rate for June 2099
    let late = |payment: &str| {
        let mut args = with(&["--payment", payment]);
        let at = args.iter().position(|a| a == "--until").unwrap();
        args[at + 1] = "10/06/2099".into();
        r.run(&args)
    };
    let o = late("10/01/2025=1.200.000");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    // by hand (SPEC §5's daily rates): 1.087.500 × 0,0006744150 × 10 = 7.334; × 0,0006418557 × 31
    // = 21.639; × 0,0006091256 × 10 = 6.624: 35.597 of interest, paid first; the rest of the
    // 1.200.000 pays the principal and leaves 1.200.000 − 35.597 − 1.087.500 = 76.903 over
    for expected in [
        "La multa quedó pagada el 10/01/2025",
        "no al 10/06/2099",
        "Intereses causados: $ 35.597",
        "TOTAL A PAGAR al 10/01/2025:                  $ 0",
        "Excedente a devolver:                 $ 76.903",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    // 500.000 leaves the fine owed: the missing rate decides the figure, and is refused
    let o = late("10/01/2025=500.000");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no certified moratorium rate"),
        "{}",
        err(&o)
    );
}
