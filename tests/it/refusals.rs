//! Every refusal of a register rule, as the person reads it on the command line: the flag, the
//! value and what to do. The snapshot was taken from the binary before the rules moved below the
//! CLI (issue 9), so it pins that the wording did not change; each refused command also leaves
//! the register exactly as it was.

use crate::common::Reg;

#[test]
fn every_register_refusal_names_the_flag_the_value_and_what_to_do() {
    let r = Reg::new().with_holders();
    let mut seen = String::new();
    let mut refused = |args: &[&str]| {
        let before = r.dump();
        let e = r.fails(args);
        assert_eq!(r.dump(), before, "{args:?} wrote something");
        seen.push_str(&format!("$ vigia {}\n{e}\n", args.join(" ")));
    };
    let breach = |date: &'static str, shares: &'static str| {
        vec![
            "breach",
            "record",
            "--adjudication",
            "1",
            "--kind",
            "sale",
            "--date",
            date,
            "--shares",
            shares,
        ]
    };
    refused(&breach("2024-03-14", "10"));
    refused(&breach("2026-03-16", "10"));
    refused(&breach("2024-11-20", "1001"));
    refused(
        &[
            &breach("2024-11-20", "10")[..],
            &["--consideration-per-share", "-5"],
        ]
        .concat(),
    );
    refused(
        &[
            &breach("2024-11-20", "10")[..],
            &["--consideration-total", "-5"],
        ]
        .concat(),
    );
    refused(
        &[
            &breach("2024-11-20", "10")[..],
            &["--registered-on", "2024-03-14"],
        ]
        .concat(),
    );
    refused(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    refused(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-03-14",
    ]);
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    refused(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-02",
    ]);
    refused(&["pledge", "release", "1", "--on", "2026-03-15"]);
    refused(&["pledge", "release", "3", "--on", "2026-03-16"]);
    r.ok(&breach("2024-11-20", "1000"));
    refused(&["pledge", "release", "1", "--on", "2026-03-16"]);
    refused(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "0",
    ]);
    refused(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-11-19",
        "--amount",
        "10",
    ]);
    refused(&["breach", "void", "1", "--reason", "  "]);
    r.ok(&["breach", "void", "1", "--reason", "registrado por error"]);
    refused(&["breach", "void", "1", "--reason", "otra vez"]);
    refused(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "10",
    ]);
    refused(&["fine", "liquidate", "1", "--until", "2025-02-10"]);
    refused(&[
        "rates",
        "add",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--ibc",
        "20",
        "--resolution",
        "x",
    ]);
    let changed = std::fs::read_to_string(crate::common::PROGRAM)
        .unwrap()
        .replace(
            "payment_term_business_days = 10",
            "payment_term_business_days = 11",
        );
    assert!(changed.contains("payment_term_business_days = 11"));
    let changed = r.file("changed.toml", changed.as_bytes());
    refused(&["program", "add", &changed]);
    let import = |name: &str, rows: &str| {
        let path = r.file(name, format!("{}{rows}", crate::common::HEADER).as_bytes());
        vec![
            "adjudications".to_string(),
            "import".into(),
            path,
            "--program".into(),
            "D3939-2004".into(),
        ]
    };
    let args = import(
        "renamed.csv",
        "CC,1000000001,Ana Otra,natural,trabajador,10,,2024-03-16,,\n\
         CC,1000000009,Nueva,natural,trabajador,10,,2024-03-16,,\n\
         CC,1000000009,Nueva Otra,natural,trabajador,10,,2024-03-16,,\n",
    );
    refused(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // Decreto 3939 offers 12,960,982 shares; 53,500 are already adjudicated
    let args = import(
        "too-many.csv",
        "CC,1000000008,Grande,natural,trabajador,12907483,,2024-03-16,,\n",
    );
    refused(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let args = import(
        "overflow.csv",
        "CC,1000000011,Uno,natural,trabajador,9223372036854775807,,2024-03-16,,\n\
         CC,1000000012,Dos,natural,trabajador,9223372036854775807,,2024-03-16,,\n\
         CC,1000000013,Tres,natural,trabajador,2,,2024-03-16,,\n",
    );
    refused(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // the voided breach's void line carries the time it was voided: keep only the words
    let seen = seen
        .lines()
        .map(|l| match l.find("already voided on ") {
            Some(i) => format!(
                "{}already voided on <time> by tester (registrado por error)",
                &l[..i]
            ),
            None => match l.find(" was voided on ") {
                Some(i) => format!(
                    "{} was voided on <time> by tester (registrado por error); it has no fine",
                    &l[..i]
                ),
                None => l.to_string(),
            },
        })
        .collect::<Vec<_>>()
        .join("\n")
        .replace(&r.dir.path().display().to_string(), "<dir>");
    insta::assert_snapshot!(seen);
}
