//! The first-stage offering benchmark (issue 15): `cargo run --release --example offering [N]`.
//!
//! Generates N acceptances (default 1,000,000) with a fixed seed — natural persons with their
//! figures, 3 % late, 1 % without declarations, 2 % refusing reduction, 5 % filing twice, an
//! oversubscribed offer — then times `vigia acceptances import` against the sqlite3 shell's
//! `.import` of the same CSV into a plain table, and `vigia offer adjudicate --dry-run --format
//! csv` against a sqlite3 scan of the same rows sorted by filing time, with peak memory. One run
//! each, after `sync`. Needs `sqlite3` and GNU `/usr/bin/time` on the PATH.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Runs a command under GNU time with stdout to /dev/null; returns (seconds, peak resident MiB).
fn timed(cmd: &mut Command) -> (f64, u64) {
    let _ = Command::new("sync").status();
    let stats = std::env::temp_dir().join(format!("vigia-offer-time-{}", std::process::id()));
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&stats)
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("/usr/bin/time runs");
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kib: u64 = std::fs::read_to_string(&stats)
        .ok()
        .and_then(|s| s.trim().lines().last()?.trim().parse().ok())
        .unwrap_or(0);
    (secs, kib / 1024)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("vigia-offering-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
    assert!(
        exe.exists(),
        "build the release binary first: cargo build --release"
    );
    let mut rng = Rng(0x5EED_2026_1201);

    let csv_path = dir.join("aceptaciones.csv");
    let mut csv = String::with_capacity(n as usize * 110);
    csv.push_str("filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,files_tax_return,patrimonio_liquido,income,declarations,lender,financed_shares\n");
    let mut person = 0u64;
    for i in 0..n {
        // 5 % of the rows are a second filing of the previous person
        if i == 0 || rng.below(20) != 0 {
            person += 1;
        }
        let late = rng.below(100) < 3;
        let day = if late { 70 } else { rng.below(60) };
        let date = chrono::NaiveDate::from_ymd_opt(2024, 1, 3).unwrap() + chrono::Days::new(day);
        let (h, m) = (8 + rng.below(10), rng.below(60));
        let shares = 1 + rng.below(40);
        let refuses = if rng.below(50) == 0 { "no" } else { "" };
        let decl = if rng.below(100) == 0 { "" } else { "si" };
        let (files, pl, inc) = if rng.below(2) == 0 {
            (
                "si",
                (1_000_000 + rng.below(50_000_000)).to_string(),
                String::new(),
            )
        } else {
            (
                "no",
                String::new(),
                (500_000 + rng.below(20_000_000)).to_string(),
            )
        };
        let (lender, fin) = if rng.below(4) == 0 {
            ("Banco Ejemplo", shares.to_string())
        } else {
            ("", String::new())
        };
        let _ = writeln!(
            csv,
            "{date} {h:02}:{m:02},CC,{},Aceptante Sintético {person},natural,trabajador,{shares},{refuses},{files},{pl},{inc},{decl},{lender},{fin}",
            1_000_000_000 + person
        );
    }
    std::fs::write(&csv_path, &csv).unwrap();
    drop(csv);
    eprintln!("generated {n} acceptances ({person} persons)");

    // a program whose offer the demand exceeds: about 20 shares a person on average, offer 10
    let program = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/programs/decreto-3939-2004.toml"),
    )
    .unwrap()
    .replace(
        "shares_offered = 12960982",
        &format!("shares_offered = {}", person * 10),
    )
    .replace(
        "shares = 12861067",
        &format!("shares = {}", person * 10 - 99915),
    );
    let program_path = dir.join("program.toml");
    std::fs::write(&program_path, program).unwrap();

    let db = dir.join("vigia.db");
    let vigia = |args: &[&str]| {
        let mut c = Command::new(&exe);
        c.arg("--db")
            .arg(&db)
            .args(["--officer", "bench"])
            .args(args);
        c
    };
    assert!(vigia(&["init"]).output().unwrap().status.success());
    assert!(
        vigia(&["program", "add", program_path.to_str().unwrap()])
            .output()
            .unwrap()
            .status
            .success()
    );
    assert!(
        vigia(&[
            "offer",
            "open",
            "D3939-2004",
            "--opens",
            "2024-01-02",
            "--closes",
            "2024-03-08"
        ])
        .output()
        .unwrap()
        .status
        .success()
    );

    let base_db = dir.join("baseline.db");
    let (base_import, base_import_mb) = timed(
        Command::new("sqlite3")
            .arg(&base_db)
            .arg(".mode csv")
            .arg(format!(".import {} acc", csv_path.display())),
    );
    let (import, import_mb) = timed(&mut vigia(&[
        "acceptances",
        "import",
        csv_path.to_str().unwrap(),
        "--program",
        "D3939-2004",
    ]));
    let (base_scan, base_scan_mb) = timed(
        Command::new("sqlite3")
            .arg(&base_db)
            .arg(".mode csv")
            .arg("SELECT * FROM acc ORDER BY filed_at, doc_number"),
    );
    let (adjudicate, adjudicate_mb) = timed(&mut vigia(&[
        "offer",
        "adjudicate",
        "D3939-2004",
        "--on",
        "2024-03-15",
        "--dry-run",
        "--format",
        "csv",
    ]));
    println!("offering benchmark: {n} acceptances, {person} persons (one run each)");
    println!(
        "import:      vigia {import:.1} s, {import_mb} MB | sqlite3 .import {base_import:.1} s, {base_import_mb} MB | ratio {:.2}",
        import / base_import
    );
    println!(
        "adjudicate:  vigia --dry-run {adjudicate:.1} s, {adjudicate_mb} MB | sqlite3 sorted scan {base_scan:.1} s, {base_scan_mb} MB | ratio {:.2}",
        adjudicate / base_scan
    );
    let _ = std::fs::remove_dir_all(&dir);
}
