//! The first-stage offering benchmark (issue 15): `cargo run --release --example offering [N]`.
//!
//! Generates N acceptances (default 1,000,000) with a fixed seed — natural persons with their
//! figures, 3 % late, 1 % without declarations, 2 % refusing reduction, 5 % filing twice, an
//! oversubscribed offer — then times `vigia acceptances import` against the sqlite3 shell's
//! `.import` of the same CSV into a plain table, and `vigia offer adjudicate --dry-run --format
//! csv` against a sqlite3 scan of the same rows sorted by filing time, with peak memory; then the
//! real `vigia offer adjudicate --acta FILE.pdf` (the PDF acta written a page at a time after the
//! commit) and `vigia offer acta --out FILE.md` of the same run, and `vigia offer verify` of
//! both (each read as it is checked), with their peak memory. Each
//! step runs `--runs R` times (default 3; each after `sync`, each into a fresh register) and the
//! median is reported. `--against OLD_VIGIA` times another build of vigia too, alternating with
//! this one on the same data, so that a shared machine's load falls on both alike. `--keep`
//! leaves the generated file and registers in place (for profiling) and names them. The report
//! says the load average before and after the runs: on a shared machine, compare ratios of one
//! run, not times across runs. Needs `sqlite3` and GNU `/usr/bin/time` on the PATH.
//!
//! First, the adjudication's own steps (`offering/adjudication.rs`): the dry run in every format
//! against a sorted sqlite3 scan of the columns it reads, and the real run (no acta) against its
//! dry run plus an adjudications import of the same awards. `--adjudication-only` stops there.

#[path = "offering/adjudication.rs"]
mod adjudication;

mod peak;

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
    timed_into(cmd, Stdio::null())
}

/// Runs a command under GNU time after `sync`, its standard output to `stdout`; returns
/// (seconds, peak resident MiB).
fn timed_into(cmd: &mut Command, stdout: Stdio) -> (f64, u64) {
    let _ = Command::new("sync").status();
    let stats = std::env::temp_dir().join(format!("vigia-offer-time-{}", std::process::id()));
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let start = Instant::now();
    let mut time = Command::new("/usr/bin/time");
    peak::same_env(cmd, &mut time);
    let out = time
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&stats)
        .arg(program)
        .args(args)
        .stdout(stdout)
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
    let _ = std::fs::remove_file(&stats);
    (secs, kib / 1024)
}

/// The load average over the last minute (Linux), to say how busy the machine was.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// The number of pages a PDF's page tree says it has (`/Type/Pages/Count N`).
fn pages_of(pdf: &Path) -> usize {
    let bytes = std::fs::read(pdf).unwrap_or_default();
    let key = b"/Type/Pages/Count ";
    bytes
        .windows(key.len())
        .position(|w| w == key)
        .and_then(|at| {
            let digits: String = bytes[at + key.len()..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .map(|&c| c as char)
                .collect();
            digits.parse().ok()
        })
        .unwrap_or(0)
}

/// The median of some figures.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times and peak memories of the runs of one step.
#[derive(Default)]
struct Step {
    secs: Vec<f64>,
    mib: Vec<f64>,
}

impl Step {
    fn add(&mut self, (secs, mib): (f64, u64)) {
        self.secs.push(secs);
        self.mib.push(mib as f64);
    }
    fn time(&self) -> f64 {
        median(self.secs.clone())
    }
    fn memory(&self) -> f64 {
        median(self.mib.clone())
    }
    fn runs(&self) -> String {
        let t: Vec<String> = self.secs.iter().map(|s| format!("{s:.2}")).collect();
        t.join(" ")
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut n, mut runs, mut against, mut keep) = (1_000_000u64, 3usize, None, false);
    let mut adjudication_only = false;
    let mut memory = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|r| r.parse().ok()).expect("--runs R"),
            "--against" => against = Some(args.next().expect("--against OLD_VIGIA")),
            "--keep" => keep = true,
            "--adjudication-only" => adjudication_only = true,
            "--memory" => memory = true,
            // only the peak memory table, on the registers a `--keep` run left in DIR
            "--memory-of" => {
                let dir = std::path::PathBuf::from(args.next().expect("--memory-of DIR"));
                let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
                peak_memory(&dir, &exe);
                return;
            }
            _ => n = a.parse().expect("N, the number of acceptances"),
        }
    }
    // the program offers a share per acceptance at least: no acceptances, no offering to time
    assert!(
        n > 0,
        "N, the number of acceptances, is at least 1 (it was 0)"
    );
    let load_before = load();
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

    // a program whose offer the demand exceeds: about 20 shares a person on average, offer 10;
    // the second seller keeps its 99,915 shares when the offer is over twice that, else half of
    // it (below about 20,000 persons the first seller's share would be negative)
    let offered = person * 10;
    let second = if offered > 2 * 99_915 {
        99_915
    } else {
        offered / 2
    };
    let program = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/programs/decreto-3939-2004.toml"),
    )
    .unwrap()
    .replace(
        "shares_offered = 12960982",
        &format!("shares_offered = {offered}"),
    )
    .replace(
        "shares = 12861067",
        &format!("shares = {}", offered - second),
    )
    .replace("shares = 99915", &format!("shares = {second}"));
    let program_path = dir.join("program.toml");
    std::fs::write(&program_path, program).unwrap();

    // (label, binary) of every build timed
    let mut builds = vec![("vigia".to_string(), exe.clone())];
    if let Some(old) = &against {
        builds.push(("against".to_string(), Path::new(old).to_path_buf()));
    }
    let (mut base_import, mut base_scan) = (Step::default(), Step::default());
    let mut import: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut adjudicate: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut real: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut acta_md: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut verify_pdf: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut verify_md: Vec<Step> = builds.iter().map(|_| Step::default()).collect();
    let mut acta_pages = 0usize;
    // the adjudication's own benchmark (issue 23 item 3): every dry-run format and the real run,
    // each against its baseline
    adjudication::bench(&dir, &builds, &csv_path, &program_path, runs);
    if adjudication_only {
        if keep {
            println!("kept: {}", dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&dir);
        }
        return;
    }
    for run in 0..runs {
        let base_db = dir.join("baseline.db");
        let _ = std::fs::remove_file(&base_db);
        base_import.add(timed(
            Command::new("sqlite3")
                .arg(&base_db)
                .arg(".mode csv")
                .arg(format!(".import {} acc", csv_path.display())),
        ));
        base_scan.add(timed(
            Command::new("sqlite3")
                .arg(&base_db)
                .arg(".mode csv")
                .arg("SELECT * FROM acc ORDER BY filed_at, doc_number"),
        ));
        // alternate which build goes first
        let mut order: Vec<usize> = (0..builds.len()).collect();
        if run % 2 == 1 {
            order.reverse();
        }
        for b in order {
            let db = dir.join(format!("vigia-{b}.db"));
            for suffix in ["", "-wal", "-shm", ".writer"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
            let vigia = |args: &[&str]| {
                let mut c = Command::new(&builds[b].1);
                c.arg("--db")
                    .arg(&db)
                    .args(["--officer", "bench"])
                    .args(args)
                    .env("VIGIA_LANG", "en");
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
                    "2024-03-08",
                    // the sample program's validity ended in 2005
                    "--reason",
                    "benchmark"
                ])
                .output()
                .unwrap()
                .status
                .success()
            );
            import[b].add(timed(&mut vigia(&[
                "acceptances",
                "import",
                csv_path.to_str().unwrap(),
                "--program",
                "D3939-2004",
            ])));
            adjudicate[b].add(timed(&mut vigia(&[
                "offer",
                "adjudicate",
                "D3939-2004",
                "--on",
                "2024-03-15",
                "--dry-run",
                "--format",
                "csv",
            ])));
            // the real adjudication with its PDF acta (rendered after the commit), then the
            // Markdown acta of the same run
            let pdf = dir.join(format!("acta-{b}.pdf"));
            let md = dir.join(format!("acta-{b}.md"));
            for f in [&pdf, &md] {
                let _ = std::fs::remove_file(f);
            }
            real[b].add(timed(&mut vigia(&[
                "offer",
                "adjudicate",
                "D3939-2004",
                "--on",
                "2024-03-15",
                "--acta",
                pdf.to_str().unwrap(),
            ])));
            acta_md[b].add(timed(&mut vigia(&[
                "offer",
                "acta",
                "D3939-2004",
                "--out",
                md.to_str().unwrap(),
            ])));
            acta_pages = pages_of(&pdf);
            // both actas checked against the register, read as they are compared
            verify_pdf[b].add(timed(&mut vigia(&[
                "offer",
                "verify",
                pdf.to_str().unwrap(),
            ])));
            verify_md[b].add(timed(&mut vigia(&[
                "offer",
                "verify",
                md.to_str().unwrap(),
            ])));
        }
    }
    println!(
        "offering benchmark: {n} acceptances, {person} persons; median of {runs} run(s) (each run's seconds in brackets)"
    );
    println!(
        "load average (1 min): {load_before} before, {} after",
        load()
    );
    println!(
        "sqlite3 .import      {:.2} s, {:.0} MiB [{}]",
        base_import.time(),
        base_import.memory(),
        base_import.runs()
    );
    println!(
        "sqlite3 sorted scan  {:.2} s, {:.0} MiB [{}]",
        base_scan.time(),
        base_scan.memory(),
        base_scan.runs()
    );
    for (b, (label, path)) in builds.iter().enumerate() {
        println!("{label} ({}):", path.display());
        println!(
            "  acceptances import          {:.2} s, {:.0} MiB, {:.2}x the sqlite3 .import [{}]",
            import[b].time(),
            import[b].memory(),
            import[b].time() / base_import.time(),
            import[b].runs()
        );
        println!(
            "  offer adjudicate --dry-run  {:.2} s, {:.0} MiB, {:.2}x the sorted scan [{}]",
            adjudicate[b].time(),
            adjudicate[b].memory(),
            adjudicate[b].time() / base_scan.time(),
            adjudicate[b].runs()
        );
        println!(
            "  offer adjudicate --acta PDF  {:.2} s, {:.0} MiB (the real run, its acta of {acta_pages} pages after the commit) [{}]",
            real[b].time(),
            real[b].memory(),
            real[b].runs()
        );
        println!(
            "  offer acta --out MD          {:.2} s, {:.0} MiB [{}]",
            acta_md[b].time(),
            acta_md[b].memory(),
            acta_md[b].runs()
        );
        println!(
            "  offer verify PDF             {:.2} s, {:.0} MiB [{}]",
            verify_pdf[b].time(),
            verify_pdf[b].memory(),
            verify_pdf[b].runs()
        );
        println!(
            "  offer verify MD              {:.2} s, {:.0} MiB [{}]",
            verify_md[b].time(),
            verify_md[b].memory(),
            verify_md[b].runs()
        );
    }
    // the README's table: this build's rows, each with its ratio to the baseline named
    println!(
        "| step ({n} acceptances) | time (s) | peak memory (MiB) | baseline | baseline (s) | ratio |"
    );
    println!("|---|---:|---:|---|---:|---:|");
    let row = |step: &str, s: &Step, base: Option<(&str, &Step)>| match base {
        Some((name, b)) => println!(
            "| {step} | {:.2} | {:.0} | {name} | {:.2} | {:.2}× |",
            s.time(),
            s.memory(),
            b.time(),
            s.time() / b.time()
        ),
        None => println!("| {step} | {:.2} | {:.0} | | | |", s.time(), s.memory()),
    };
    row(
        "`vigia acceptances import`",
        &import[0],
        Some(("sqlite3 `.import`", &base_import)),
    );
    row(
        "`vigia offer adjudicate --dry-run --format csv`",
        &adjudicate[0],
        Some(("sqlite3 sorted scan", &base_scan)),
    );
    row(
        &format!("`vigia offer adjudicate --acta FILE.pdf` ({acta_pages} pages)"),
        &real[0],
        None,
    );
    row("`vigia offer acta --out FILE.md`", &acta_md[0], None);
    row("`vigia offer verify FILE.pdf`", &verify_pdf[0], None);
    row("`vigia offer verify FILE.md`", &verify_md[0], None);
    println!("load average (1 min) after: {}", load());
    if memory {
        peak_memory(&dir, &builds[0].1);
    }
    if keep {
        println!("kept: {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Issue 23 item 5 (`--memory`): every command of the first stage that can touch many rows, on
/// the register the first build's run left (`vigia-0.db`, adjudicated), under `/usr/bin/time
/// -v`: the acceptances listed in every format, the acta written again in each format and each
/// verified, and (when `openssl` can make a test certificate) the PDF acta signed and its
/// signature verified from the file; a table of peak memory against the 300 MB target.
fn peak_memory(dir: &Path, exe: &Path) {
    let before = peak::load();
    let db = dir.join("vigia-0.db");
    let vigia = |args: &[&str]| {
        let mut c = Command::new(exe);
        c.arg("--db")
            .arg(&db)
            .args(["--officer", "bench"])
            .args(args)
            .env("VIGIA_LANG", "en");
        c
    };
    let out = |name: &str| dir.join(name).display().to_string();
    let mut peaks = Vec::new();
    for f in ["table", "json", "csv", "csv-excel", "xlsx"] {
        // --out is for the workbook formats; the others go to standard output (a file)
        let file = out(&format!("peak-acceptances.{f}"));
        let mut args = vec![
            "acceptances",
            "list",
            "--program",
            "D3939-2004",
            "--format",
            f,
        ];
        if f == "xlsx" || f == "csv-excel" {
            args.extend(["--out", &file]);
        }
        peaks.push(peak::measure(
            &format!("`acceptances list --format {f}`"),
            &mut vigia(&args),
            dir,
        ));
    }
    for ext in ["pdf", "md", "html"] {
        let file = out(&format!("peak-acta.{ext}"));
        let _ = std::fs::remove_file(&file);
        peaks.push(peak::measure(
            &format!("`offer acta --out FILE.{ext}`"),
            &mut vigia(&["offer", "acta", "D3939-2004", "--out", &file]),
            dir,
        ));
        peaks.push(peak::measure(
            &format!("`offer verify FILE.{ext}`"),
            &mut vigia(&["offer", "verify", &file]),
            dir,
        ));
    }
    // a signed PDF acta: a throwaway self-signed certificate made by openssl
    let key = out("peak-key.pem");
    let cert = out("peak-cert.pem");
    let p12 = out("peak-firma.p12");
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj",
        ])
        .arg("/CN=Firmante de Prueba/O=Benchmark/C=CO")
        .args(["-keyout", &key, "-out", &cert])
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("openssl")
            .args([
                "pkcs12", "-export", "-inkey", &key, "-in", &cert, "-out", &p12,
            ])
            .args(["-passout", "pass:clave-benchmark"])
            .output()
            .is_ok_and(|o| o.status.success());
    if made {
        let signed = out("peak-acta-firmada.pdf");
        let _ = std::fs::remove_file(&signed);
        peaks.push(peak::measure(
            "`offer acta --out FILE.pdf --sign P12`",
            vigia(&[
                "offer",
                "acta",
                "D3939-2004",
                "--out",
                &signed,
                "--sign",
                &p12,
            ])
            .env("VIGIA_SIGN_PASSWORD", "clave-benchmark"),
            dir,
        ));
        peaks.push(peak::measure(
            "`offer verify SIGNED.pdf`",
            &mut vigia(&["offer", "verify", &signed]),
            dir,
        ));
    }
    peak::print(
        &format!(
            "peak memory of the first stage's commands ({})",
            db.display()
        ),
        &peaks,
        &before,
        &peak::load(),
    );
}
