//! Every refusal of a register rule, as the person reads it on the command line: the flag, the
//! value and what to do. The snapshot was taken from the binary before the rules moved below the
//! CLI (issue 9), so it pins that the wording did not change; each refused command also leaves
//! the register exactly as it was.

use crate::common::Reg;

#[test]
fn every_register_refusal_names_the_flag_the_value_and_what_to_do() {
    let r = Reg::new().with_letterhead().with_holders();
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

/// Issue 13's review: dates after today or out of order, a breach of no shares, and a breach
/// voided while payments, notices or a paz y salvo depend on it. Each is refused with exit
/// status 2, names the flag, and leaves the register exactly as it was.
#[test]
fn future_or_out_of_order_dates_and_voids_with_dependents_write_nothing() {
    let r = crate::notices::spec_register();
    let refused = |args: &[&str], expected: &[&str]| {
        let before = r.dump();
        let e = r.fails(args);
        assert_eq!(r.dump(), before, "{args:?} wrote something");
        for x in expected {
            assert!(e.contains(x), "{args:?}: {e:?} lacks {x:?}");
        }
    };
    let breach = |extra: &[&'static str]| {
        [
            &[
                "breach",
                "record",
                "--adjudication",
                "3",
                "--kind",
                "sale",
                "--date",
                "2024-11-20",
                "--shares",
                "10",
            ][..],
            extra,
        ]
        .concat()
    };
    // the date of a breach that has not happened (after the lock-up too: today is said first)
    refused(
        &[
            "breach",
            "record",
            "--adjudication",
            "3",
            "--kind",
            "sale",
            "--date",
            "2099-01-01",
            "--shares",
            "10",
        ],
        &["--date 2099-01-01: is after today ("],
    );
    refused(
        &breach(&["--registered-on", "2024-11-19"]),
        &["--registered-on 2024-11-19: is before the breach on 2024-11-20"],
    );
    refused(
        &breach(&["--registered-on", "2099-01-01"]),
        &["--registered-on 2099-01-01: is after today ("],
    );
    refused(
        &[
            "pledge",
            "register",
            "3",
            "--rank",
            "1",
            "--registered-on",
            "2099-01-01",
        ],
        &["--registered-on 2099-01-01: is after today ("],
    );
    let file = r.file(
        "future.csv",
        b"adjudication_id,rank,registered_on\n3,1,2024-04-01\n2,1,2099-01-01\n",
    );
    refused(
        &["pledge", "import", &file],
        &["line 3: registered_on \"2099-01-01\": is after today ("],
    );
    refused(
        &["pledge", "release", "1", "--on", "2099-01-01"],
        &["--on 2099-01-01: is after today ("],
    );
    // the reviewer's notice dated after the day it was issued
    refused(
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            "2099-01-01",
            "--reason",
            "fecha del caso de prueba",
        ],
        &["--date 2099-01-01: is after today ("],
    );
    refused(
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            "2025-02-09",
            "--reason",
            "fecha del caso de prueba",
        ],
        &["--date 2025-02-09: is before the day the fine is liquidated to (2025-02-10)"],
    );
    let out = r.dir.path().join("n.md").display().to_string();
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
    // ... and the backdated one that would have replaced it
    refused(
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-05",
            "--date",
            "2025-02-06",
            "--reason",
            "fecha del caso de prueba",
        ],
        &[
            "--date 2025-02-06: is before notice MULTA-2025-0001 of 2025-02-11, which this one would replace",
        ],
    );
    refused(
        &["breach", "void", "1", "--reason", "registrado por error"],
        &[
            "breach void 1: the notice MULTA-2025-0001 of 2025-02-11 was issued for it",
            "a notified breach stays on record",
        ],
    );
    // a breach with a payment in force: the payment is voided first
    r.ok(&breach(&["--registered-on", "2024-11-20"]));
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "2",
        "--date",
        "2024-12-16",
        "--amount",
        "1000",
    ]);
    refused(
        &["breach", "void", "2", "--reason", "otro titular"],
        &[
            "breach void 2: has payment 2 of $ 1.000 on 2024-12-16 in force against its fine",
            "(`vigia payment void ID --reason TEXT`)",
        ],
    );
    r.ok(&["payment", "void", "2", "--reason", "devuelto"]);
    assert!(
        r.ok(&["breach", "void", "2", "--reason", "otro titular"])
            .contains("breach 2 voided")
    );
}
