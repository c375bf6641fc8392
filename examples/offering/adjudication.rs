//! The adjudication's own benchmark (issue 23 item 3), apart from the acta's steps:
//! `vigia offer adjudicate --dry-run` in every format against a sqlite3 scan of the same
//! columns the adjudication reads, sorted by filing order, written out as CSV; and the real
//! `vigia offer adjudicate` (no acta) against its dry run plus a `vigia adjudications import`
//! of the same awards (exported from the run's register with the sqlite3 shell) into a fresh
//! register. Each step is the median of R runs, each after `sync`, each into a fresh register;
//! every output is hashed (SHA-256) so that two builds can be shown to write the same bytes.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The columns the adjudication reads of every filing (`store::offering::each_filing`),
/// in filing order: the baseline's query.
const SORTED_SCAN: &str = "SELECT id, line, filed_at, doc_type, doc_number, name, category, shares,
    accepts_reduction, declarations, dismissed_with_just_cause, review, person_type,
    files_tax_return, patrimonio_liquido, income, is_director, annual_salary, investment_limit,
    patrimonio_ajustado,
    (SELECT amount FROM acceptance_figures f WHERE f.acceptance_id = acceptances.id
     AND f.measure = 'income_financial_statements')
  FROM acceptances WHERE program_id = 1 ORDER BY filed_at, line, id;";

/// The awards a run registered, as an adjudications file (`vigia adjudications import`).
const AWARDS: &str = "SELECT h.doc_type AS doc_type, h.doc_number AS doc_number, h.name AS name,
    h.person_type AS person_type, a.category AS category, a.shares AS shares,
    a.price_per_share AS price_per_share, a.adjudicated_on AS adjudicated_on,
    coalesce(a.lender, '') AS lender,
    CASE WHEN a.financed_shares > 0 THEN a.financed_shares ELSE '' END AS financed_shares
  FROM adjudications a JOIN holders h ON h.id = a.holder_id ORDER BY a.id;";

/// What a run stored, without the times and officers that differ from run to run: the run's
/// totals and fingerprint, its outcomes, the adjudications and holders it registered.
const STORED: &str = "SELECT program_id, import_id, adjudicated_on, rule, offered, demand, awarded,
    leftover, oversubscribed, fingerprint FROM offering_runs;
  SELECT id, run_id, seq, acceptance_id, requested, cap_shares, cap_rule, admitted, quota, awarded,
    status, cause, adjudication_id FROM offering_outcomes ORDER BY id;
  SELECT id, program_id, holder_id, import_id, line, category, shares, price_per_share,
    adjudicated_on, lender, financed_shares FROM adjudications ORDER BY id;
  SELECT id, doc_type, doc_number, name, person_type FROM holders ORDER BY id;";

/// The dry run's formats, timed one by one.
const FORMATS: [&str; 3] = ["csv", "json", "table"];

/// Times and peak memories of the runs of one step, and the hash of what the last run wrote.
#[derive(Default)]
struct Step {
    secs: Vec<f64>,
    mib: Vec<u64>,
    sha256: String,
}

impl Step {
    fn add(&mut self, (secs, mib, sha256): (f64, u64, String)) {
        self.secs.push(secs);
        self.mib.push(mib);
        self.sha256 = sha256;
    }
    fn time(&self) -> f64 {
        let mut v = self.secs.clone();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }
    fn memory(&self) -> u64 {
        let mut v = self.mib.clone();
        v.sort_unstable();
        v[v.len() / 2]
    }
    fn runs(&self) -> String {
        let t: Vec<String> = self.secs.iter().map(|s| format!("{s:.2}")).collect();
        t.join(" ")
    }
}

/// The load averages over 1, 5 and 15 minutes.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|e| format!("unknown ({e})"))
}

fn sha256_of(path: &Path) -> String {
    use std::io::Read;
    let mut h = Sha256::new();
    let mut f = std::fs::File::open(path).expect("the output is there");
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).expect("the output reads");
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `cmd` under GNU time after `sync`, its standard output into `out`: (seconds, peak
/// resident MiB, SHA-256 of `out`).
fn timed(cmd: &mut Command, out: &Path) -> (f64, u64, String) {
    let file = std::fs::File::create(out).expect("the output file is made");
    let (secs, mib) = super::timed_into(cmd, file.into());
    (secs, mib, sha256_of(out))
}

/// Removes a register and its companions.
fn remove_register(db: &Path) {
    for suffix in ["", "-wal", "-shm", ".writer"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

fn sqlite3(db: &Path, mode: &[&str], sql: &str) -> Command {
    let mut c = Command::new("sqlite3");
    c.arg(db).args(mode).arg(sql);
    c
}

/// The steps of one build.
#[derive(Default)]
struct Timings {
    import: Step,
    dry: [Step; 3],
    real: Step,
    stored: String,
    awards_import: Step,
}

/// Times the adjudication of `builds` (label, binary) on the acceptances of `csv` under
/// `program`, `runs` times, and prints each step with its ratio to its baseline.
pub fn bench(dir: &Path, builds: &[(String, PathBuf)], csv: &Path, program: &Path, runs: usize) {
    let load_before = load();
    let (mut scan, mut times) = (Step::default(), Vec::new());
    times.resize_with(builds.len(), Timings::default);
    let mut awards_rows = 0usize;
    for run in 0..runs {
        let mut order: Vec<usize> = (0..builds.len()).collect();
        if run % 2 == 1 {
            order.reverse();
        }
        for b in order {
            let t = &mut times[b];
            let db = dir.join(format!("adj-{b}.db"));
            remove_register(&db);
            let vigia = |db: &Path, args: &[&str]| {
                let mut c = Command::new(&builds[b].1);
                c.arg("--db")
                    .arg(db)
                    .args(["--officer", "bench"])
                    .args(args)
                    .env("VIGIA_LANG", "en");
                c
            };
            let ok = |mut c: Command| {
                let out = c.output().expect("vigia runs");
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            };
            ok(vigia(&db, &["init"]));
            ok(vigia(&db, &["program", "add", program.to_str().unwrap()]));
            ok(vigia(
                &db,
                &[
                    "offer",
                    "open",
                    "D3939-2004",
                    "--opens",
                    "2024-01-02",
                    "--closes",
                    "2024-03-08",
                    "--reason",
                    "benchmark",
                ],
            ));
            let adjudicate = ["offer", "adjudicate", "D3939-2004", "--on", "2024-03-15"];
            t.import.add(timed(
                &mut vigia(
                    &db,
                    &[
                        "acceptances",
                        "import",
                        csv.to_str().unwrap(),
                        "--program",
                        "D3939-2004",
                    ],
                ),
                &dir.join("import.out"),
            ));
            // the register as the import left it (its writer's close checkpointed the WAL),
            // for the real run
            let real_db = dir.join(format!("adj-{b}-real.db"));
            remove_register(&real_db);
            std::fs::copy(&db, &real_db).expect("the register is copied");
            if b == 0 {
                scan.add(timed(
                    &mut sqlite3(&db, &["-csv"], SORTED_SCAN),
                    &dir.join("scan.csv"),
                ));
            }
            for (i, format) in FORMATS.iter().enumerate() {
                let mut args = adjudicate.to_vec();
                args.extend(["--dry-run", "--format", format]);
                t.dry[i].add(timed(
                    &mut vigia(&db, &args),
                    &dir.join(format!("dry-{b}.{format}")),
                ));
            }
            let mut args = adjudicate.to_vec();
            args.extend(["--format", "json"]);
            t.real.add(timed(
                &mut vigia(&real_db, &args),
                &dir.join(format!("real-{b}.json")),
            ));
            let stored = dir.join(format!("stored-{b}.txt"));
            let out = sqlite3(&real_db, &["-csv"], STORED)
                .output()
                .expect("sqlite3 runs");
            std::fs::write(&stored, &out.stdout).unwrap();
            t.stored = sha256_of(&stored);
            // the same awards, imported into a fresh register
            let awards = dir.join(format!("awards-{b}.csv"));
            let out = sqlite3(&real_db, &["-csv", "-header"], AWARDS)
                .output()
                .expect("sqlite3 runs");
            awards_rows = out.stdout.iter().filter(|&&c| c == b'\n').count() - 1;
            std::fs::write(&awards, &out.stdout).unwrap();
            let fresh = dir.join(format!("adj-{b}-awards.db"));
            remove_register(&fresh);
            ok(vigia(&fresh, &["init"]));
            ok(vigia(
                &fresh,
                &["program", "add", program.to_str().unwrap()],
            ));
            t.awards_import.add(timed(
                &mut vigia(
                    &fresh,
                    &[
                        "adjudications",
                        "import",
                        awards.to_str().unwrap(),
                        "--program",
                        "D3939-2004",
                    ],
                ),
                &dir.join("awards-import.out"),
            ));
        }
    }
    println!(
        "offer adjudicate: median of {runs} run(s) (each run's seconds in brackets); load average {load_before} before, {} after",
        load()
    );
    println!(
        "sqlite3 sorted scan of the columns read: {:.2} s, {} MiB [{}]",
        scan.time(),
        scan.memory(),
        scan.runs()
    );
    for (b, (label, path)) in builds.iter().enumerate() {
        let t = &times[b];
        println!("{label} ({}):", path.display());
        println!(
            "  acceptances import           {:.2} s, {} MiB [{}]",
            t.import.time(),
            t.import.memory(),
            t.import.runs()
        );
        for (i, format) in FORMATS.iter().enumerate() {
            println!(
                "  dry run --format {format:<6}      {:.2} s, {} MiB, {:.2}x the sorted scan [{}] sha256 {}",
                t.dry[i].time(),
                t.dry[i].memory(),
                t.dry[i].time() / scan.time(),
                t.dry[i].runs(),
                t.dry[i].sha256
            );
        }
        let budget = t.dry[1].time() + t.awards_import.time();
        println!(
            "  adjudications import ({awards_rows} awards) {:.2} s, {} MiB [{}]",
            t.awards_import.time(),
            t.awards_import.memory(),
            t.awards_import.runs()
        );
        println!(
            "  real run --format json       {:.2} s, {} MiB, {:.2}x its dry run plus the awards' import ({budget:.2} s) [{}] sha256 {}, stored sha256 {}",
            t.real.time(),
            t.real.memory(),
            t.real.time() / budget,
            t.real.runs(),
            t.real.sha256,
            t.stored
        );
    }
    let t = &times[0];
    println!("| step | time (s) | peak memory (MiB) | baseline | baseline (s) | ratio | target |");
    println!("|---|---:|---:|---|---:|---:|---|");
    for (i, format) in FORMATS.iter().enumerate() {
        println!(
            "| `vigia offer adjudicate --dry-run --format {format}` | {:.2} | {} | sqlite3 sorted scan of the columns read | {:.2} | {:.2}× | ≤ 2× |",
            t.dry[i].time(),
            t.dry[i].memory(),
            scan.time(),
            t.dry[i].time() / scan.time()
        );
    }
    let budget = t.dry[1].time() + t.awards_import.time();
    println!(
        "| `vigia offer adjudicate --format json` (the real run) | {:.2} | {} | its dry run + `vigia adjudications import` of its {awards_rows} awards | {budget:.2} | {:.2}× | ≤ 1×, < 300 MB |",
        t.real.time(),
        t.real.memory(),
        t.real.time() / budget
    );
    println!("load average after: {}", load());
}
