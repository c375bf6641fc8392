//! The rates-import benchmark (issue 11, item 10): `cargo run --release --example rates_import
//! [N ...]`.
//!
//! For each N (default 1,000, 4,000 and 8,000) writes a rates CSV of N daily, non-overlapping
//! periods from 2030-01-01 (past the shipped series; daily, so that 8,000 periods stay inside the
//! accepted dates 1990–2099), then times each step `vigia rates import` takes: reading the file
//! (`RateSeries::from_csv`), listing its problems (`rates::check_csv`) and adding the periods to a
//! fresh register on disk in one transaction (`register::rates::add_all`). When the release
//! binary is built (`cargo build --release`) it also times the whole command. One run each.

use chrono::{Days, NaiveDate};
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;
use vigia::rates::{RatePeriod, RateSeries, check_csv};
use vigia::store::Store;

fn csv(n: u64) -> String {
    let first = NaiveDate::from_ymd_opt(2030, 1, 1).expect("a date");
    let mut s = String::from("valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n");
    for i in 0..n {
        let d = first + Days::new(i);
        // a small wobble, never a jump of more than 5 points
        let ibc = 20 + i % 3;
        writeln!(s, "{d},{d},{ibc}.00,,SFC Res. bench {i}").expect("a String takes writes");
    }
    s
}

fn main() {
    let sizes: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("N is a count of periods"))
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 4_000, 8_000]
    } else {
        sizes
    };
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
    let dir = tempfile::tempdir().expect("a temporary directory");
    for n in sizes {
        let text = csv(n);

        let t = Instant::now();
        let series = RateSeries::from_csv(&text, "bench.csv").expect("the bench file is valid");
        let from_csv = t.elapsed().as_secs_f64();

        let t = Instant::now();
        let problems = check_csv(&text);
        let check = t.elapsed().as_secs_f64();
        assert!(problems.is_empty(), "{:?}", problems.first());

        let db = dir.path().join(format!("lib-{n}.db"));
        let mut store = Store::create(&db).expect("a fresh register");
        let periods: Vec<RatePeriod> = series.periods().to_vec();
        let t = Instant::now();
        let added = store
            .write::<_, vigia::register::Error>("bench", |tx| {
                vigia::register::rates::add_all(tx, &periods, None, None)
            })
            .expect("the periods are added");
        let add_all = t.elapsed().as_secs_f64();
        assert_eq!(added.len() as u64, n);

        let mut line = format!(
            "{n:>5} periods: from_csv {from_csv:.3} s, check_csv {check:.3} s, add_all {add_all:.3} s"
        );
        if exe.exists() {
            let file = dir.path().join(format!("rates-{n}.csv"));
            std::fs::write(&file, &text).expect("the bench file is written");
            let db = dir.path().join(format!("bin-{n}.db"));
            let vigia = |args: &[&str]| {
                let mut c = Command::new(&exe);
                c.arg("--db")
                    .arg(&db)
                    .args(["--officer", "bench"])
                    .args(args)
                    .env("VIGIA_LANG", "en")
                    .env("XDG_CONFIG_HOME", dir.path())
                    .env_remove("VIGIA_KEY")
                    .stdout(Stdio::null());
                c
            };
            assert!(vigia(&["init"]).status().expect("vigia runs").success());
            let t = Instant::now();
            let status = vigia(&["rates", "import", file.to_str().expect("a UTF-8 path")])
                .status()
                .expect("vigia runs");
            let whole = t.elapsed().as_secs_f64();
            assert!(status.success());
            write!(line, "; `vigia rates import` {whole:.3} s").expect("a String takes writes");
        }
        println!("{line}");
    }
}
