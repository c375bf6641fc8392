//! The national-offering benchmark (issue #5): `cargo run --release --example national [N]`.
//!
//! Generates a synthetic offering with a fixed seed — N adjudications (default 1,000,000), pledges
//! for 90 % of them, 50,000 breaches, 20,000 liquidations, 10,000 payments (scaled down with N) —
//! imports the adjudications through `vigia adjudications import` and the pledges through
//! `vigia pledge import`, seeds the rest through the library in audited transactions, runs
//! `vigia check`, and reports times and peak memory next to two baselines measured in the same
//! run on the same data: the sqlite3 shell's `.import` of the same CSV into a plain table (and,
//! for the adjudications and the pledges, the shell writing the same rows into vigia's own
//! tables and indexes: what SQLite alone costs for the same writes), and
//! plain sqlite3 SELECTs of every column the check reads (adjudications with their holders and
//! pledges, breaches and what was done about them); also a re-import of the same
//! rows (every row already registered: nothing added), and the same rows in no order into a
//! fresh register (a list not sorted by document, as most real lists are). Every timing is the median of three runs,
//! each after `sync`, each ratio printed next to it, with the load average before and after.
//! `cargo run --release --example national -- N imports` times only the imports; `-- N check DB`
//! only the check, on the register `DB` an earlier run left with `--keep` (without it the
//! generated files are removed at the end). Needs `sqlite3`
//! and GNU `/usr/bin/time` on the PATH (Debian: sqlite3, time).

mod peak;

use chrono::{Days, NaiveDate};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use vigia::fine::Convention;
use vigia::store::{Store, breaches};

/// A small deterministic generator (xorshift64*), so every run builds the same offering.
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

/// Flushes dirty pages (the files just written) so that a timed step does not pay for them.
fn settle() {
    let _ = Command::new("sync").status();
}

/// The run with the median time.
fn median(mut runs: Vec<(f64, u64, String)>) -> (f64, u64, String) {
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    runs.swap_remove(runs.len() / 2)
}

/// Runs a command under GNU time; returns (seconds, peak resident KiB, stdout).
fn timed(cmd: &mut Command) -> (f64, u64, String) {
    let stats = std::env::temp_dir().join(format!("vigia-bench-time-{}", std::process::id()));
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
        .output()
        .expect("/usr/bin/time runs");
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kib = std::fs::read_to_string(&stats)
        .ok()
        .and_then(|s| s.trim().lines().last()?.trim().parse().ok())
        .unwrap_or(0);
    (secs, kib, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The second baseline of the adjudications import: the sqlite3 shell writes the same rows into
/// vigia's own tables of a register `vigia init` and `program add` made (its page size and WAL;
/// `synchronous = FULL`, a 64 MiB page cache, the foreign-key checks off, as vigia's bulk
/// writer has them): `.import` of the file into a temporary table (named by its header), then in one transaction the
/// `imports` row, the holders and the adjudications by `INSERT OR FAIL ... SELECT` in file order
/// (the holders' ids are their lines', the register having none), the index on the holders'
/// names set aside and built again as vigia does; the checkpoint at the close. What SQLite alone
/// costs for vigia's writes, without the checks, the audited JSON, the hashes, the prints
/// (`bulk_row_prints`) and the audit event vigia adds. `(now, price)`: the `created_at` and
/// the program's price per share vigia stored, so that the rows are the same size.
fn own_schema_import(
    template: &Path,
    db: &Path,
    csv: &Path,
    (now, price): (&str, &str),
) -> (f64, u64, String) {
    fresh_copy(template, db);
    let program = Command::new("sqlite3")
        .arg(db)
        .arg("SELECT id FROM programs WHERE code = 'D3939-2004'")
        .output()
        .unwrap();
    let program = String::from_utf8_lossy(&program.stdout).trim().to_string();
    let write = format!(
        "BEGIN IMMEDIATE;
         INSERT INTO imports (id, program_id, file_name, sha256, encoding, created_at, created_by)
           VALUES (1, {program}, 'adjudicaciones.csv', 'baseline', 'utf-8', '{now}', 'bench');
         DROP INDEX holders_name_nocase;
         INSERT OR FAIL INTO holders (doc_type, doc_number, name, person_type, created_at, created_by)
           SELECT doc_type, doc_number, name, person_type, '{now}', 'bench' FROM temp.adj ORDER BY rowid;
         INSERT OR FAIL INTO adjudications (program_id, holder_id, import_id, line, category, shares,
             price_per_share, adjudicated_on, lender, financed_shares, created_at, created_by)
           SELECT {program}, rowid, 1, rowid + 1, category, CAST(shares AS INTEGER),
             coalesce(nullif(price_per_share, ''), '{price}'), adjudicated_on, nullif(lender, ''),
             coalesce(CAST(nullif(financed_shares, '') AS INTEGER), 0), '{now}', 'bench'
           FROM temp.adj ORDER BY rowid;
         CREATE INDEX holders_name_nocase ON holders(name COLLATE NOCASE);
         COMMIT;
         SELECT count(*) FROM adjudications;"
    );
    shell_write(db, csv, "adj", &write)
}

/// The second baseline of the pledge import: the sqlite3 shell writes the same file's pledges
/// into vigia's own `pledges` table and index of the register as the adjudications import left
/// it (`before`, one file), with the same settings as [`own_schema_import`]: `.import` of the
/// file into a temporary table, then in one transaction the `pledge_imports` row and the pledges
/// by `INSERT OR FAIL ... SELECT` in file order, each joined to its adjudication (the reference
/// vigia checks, and the shares and lender a pledge of every share records); the checkpoint at
/// the close. Without vigia's rules, audited JSON, hashes, prints and audit event. `(now,
/// beneficiary)`: the `created_at` and the sellers vigia stored, so that the rows are the same.
fn own_schema_pledges(
    before: &Path,
    db: &Path,
    csv: &Path,
    (now, beneficiary): (&str, &str),
) -> (f64, u64, String) {
    fresh_copy(before, db);
    let beneficiary = beneficiary.replace('\'', "''");
    let write = format!(
        "BEGIN IMMEDIATE;
         INSERT INTO pledge_imports (file_name, sha256, encoding, created_at, created_by)
           VALUES ('prendas.csv', 'baseline', 'utf-8', '{now}', 'bench');
         INSERT OR FAIL INTO pledges (adjudication_id, rank, beneficiary, shares, lender,
             registered_on, created_at, created_by)
           SELECT a.id, CAST(p.rank AS INTEGER), '{beneficiary}', a.shares, a.lender,
             p.registered_on, '{now}', 'bench'
           FROM temp.p JOIN adjudications a ON a.id = CAST(p.adjudication_id AS INTEGER)
           ORDER BY p.rowid;
         COMMIT;
         SELECT count(*) FROM pledges;"
    );
    shell_write(db, csv, "p", &write)
}

/// `db` made anew as a copy of `from` (its WAL and shared-memory files removed first).
fn fresh_copy(from: &Path, db: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::copy(from, db).unwrap();
}

/// Times the sqlite3 shell importing `csv` into the temporary table `table` of `db` and running
/// `write`, with vigia's settings for a bulk write (`synchronous`, page cache, temporary store,
/// the foreign-key checks off), after `sync`.
fn shell_write(db: &Path, csv: &Path, table: &str, write: &str) -> (f64, u64, String) {
    settle();
    timed(
        Command::new("sqlite3")
            .arg(db)
            .arg("PRAGMA synchronous = FULL; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = OFF;")
            .arg(format!(".import --csv --schema temp {} {table}", csv.display()))
            .arg(write),
    )
}

/// The two values `sql` (`SELECT x || '|' || y … LIMIT 1`) reads from the register `db`: what
/// vigia stored for its rows' time and a fixed column, which the shell's baseline rows copy.
fn first_stored(db: &Path, sql: &str) -> (String, String) {
    let out = Command::new("sqlite3").arg(db).arg(sql).output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (a, b) = out.split_once('|').expect("a row was stored");
    (a.to_string(), b.to_string())
}

fn main() {
    // `--keep` anywhere: the generated files stay (for `check DB` and `memory-of DIR` later)
    let keep = std::env::args().any(|a| a == "--keep");
    let args: Vec<String> = std::env::args().filter(|a| a != "--keep").collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    // `national memory-of DIR`: only the peak memory table, on the register a run left in DIR
    if arg(1) == Some("memory-of") {
        let dir = std::path::PathBuf::from(arg(2).expect("memory-of DIR"));
        let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
        peak_memory(&dir, &dir.join("vigia.db"), &exe);
        return;
    }
    let n: u64 = arg(1).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    // `imports` as the second argument: only the imports (issue 23 target 1), each three times
    let imports_only = arg(2) == Some("imports");
    println!("load average before: {}", load_average());
    // `check DB` as the second and third arguments: only the check, on a register kept
    if arg(2) == Some("check") {
        let db = std::path::PathBuf::from(arg(3).expect("check DB"));
        let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
        let dir = db.parent().expect("the register's folder").to_path_buf();
        check_bench(&exe, &db, &dir);
        println!("load average after: {}", load_average());
        return;
    }
    let scale = |x: u64| (x * n / 1_000_000).max(1);
    let (n_breaches, n_liquidations, n_payments) = (scale(50_000), scale(20_000), scale(10_000));
    let dir = std::env::temp_dir().join(format!("vigia-national-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
    assert!(
        exe.exists(),
        "build the release binary first: cargo build --release"
    );
    let mut rng = Rng(0x5EED_2026_1129);

    // 1. The adjudications CSV.
    let t = Instant::now();
    let csv_path = dir.join("adjudicaciones.csv");
    let mut csv = String::with_capacity(n as usize * 90);
    csv.push_str("doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n");
    let first_day = NaiveDate::from_ymd_opt(2023, 1, 2).unwrap();
    let mut dates = Vec::with_capacity(n as usize);
    let mut shares = Vec::with_capacity(n as usize);
    for i in 0..n {
        let day = first_day + Days::new(rng.below(60)); // one sale window
        let s = 1 + rng.below(12);
        let financed = rng.below(3) == 0;
        let (lender, fin) = if financed {
            ("Banco Ejemplo", s.to_string())
        } else {
            ("", String::new())
        };
        let _ = writeln!(
            csv,
            "CC,{},Titular Sintético {i},natural,trabajador,{s},,{day},{lender},{fin}",
            1_000_000_000 + i
        );
        dates.push(day);
        shares.push(s);
    }
    std::fs::write(&csv_path, &csv).unwrap();
    drop(csv);
    eprintln!(
        "generated {n} adjudications in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    // 2 and 3. The sqlite3 shell's .import of the same file into a plain table, and vigia's import
    //    into a fresh register: each three times, alternating, on a flushed disk; medians kept.
    let db = dir.join("vigia.db");
    let vigia = |args: &[&str]| {
        let mut c = Command::new(&exe);
        c.arg("--db")
            .arg(&db)
            .args(["--officer", "bench"])
            .args(args)
            .env("VIGIA_LANG", "en");
        c
    };
    let program =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/programs/decreto-3939-2004.toml");
    let (mut base_runs, mut import_runs, mut own_runs) = (Vec::new(), Vec::new(), Vec::new());
    // a register as `init` and `program add` leave it, for the second baseline
    let template = dir.join("template.db");
    for _ in 0..3 {
        let base_db = dir.join("baseline.db");
        let _ = std::fs::remove_file(&base_db);
        settle();
        base_runs.push(timed(
            Command::new("sqlite3")
                .arg(&base_db)
                .arg(".mode csv")
                .arg(format!(".import {} adj", csv_path.display())),
        ));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        assert!(vigia(&["init"]).output().unwrap().status.success());
        // the shipped program offers 12,960,982 shares: enough for the synthetic offering
        assert!(
            vigia(&["program", "add", program.to_str().unwrap()])
                .output()
                .unwrap()
                .status
                .success()
        );
        if !template.exists() {
            // one file: the WAL checkpointed into it by the writer's close
            std::fs::copy(&db, &template).unwrap();
        }
        settle();
        import_runs.push(timed(&mut vigia(&[
            "adjudications",
            "import",
            csv_path.to_str().unwrap(),
            "--program",
            "D3939-2004",
        ])));
        // what vigia stored as the rows' time and price, for the shell's rows
        let (now, price) = first_stored(
            &db,
            "SELECT created_at || '|' || price_per_share FROM adjudications ORDER BY id LIMIT 1",
        );
        let own = own_schema_import(
            &template,
            &dir.join("own-schema.db"),
            &csv_path,
            (&now, &price),
        );
        assert_eq!(own.2.trim(), n.to_string(), "the shell stored every row");
        own_runs.push(own);
    }
    let (import_base_s, import_base_kib, _) = median(base_runs);
    let (own_s, own_kib, _) = median(own_runs);
    let (import_s, import_kib, out) = median(import_runs);
    eprintln!("{}", out.trim());

    // 3b. Re-import of the same rows (a new export of the unchanged list: the same file with
    //     blank lines added at its end, so that it is not the same file): every row is already
    //     registered as it is, nothing is added. Three runs, each with its own file.
    let mut reimport_runs = Vec::new();
    for k in 1..=3 {
        let again = dir.join(format!("adjudicaciones-{k}.csv"));
        let mut bytes = std::fs::read(&csv_path).unwrap();
        bytes.extend(std::iter::repeat_n(b'\n', k));
        std::fs::write(&again, bytes).unwrap();
        settle();
        let run = timed(&mut vigia(&[
            "adjudications",
            "import",
            again.to_str().unwrap(),
            "--program",
            "D3939-2004",
        ]));
        assert!(run.2.contains(" 0 adjudication(s) added"), "{}", run.2);
        reimport_runs.push(run);
    }
    let (reimport_s, reimport_kib, _) = median(reimport_runs);

    // 3c. The same rows in no order (a list exported by name or by filing, not by document: the
    //     holders' unique index then takes its keys at random places), each run into a fresh
    //     register of its own (the pledges below refer to the first import's ids), next to the
    //     shell writing the shuffled file into vigia's tables. The plain `.import` does not
    //     depend on the order: its median above is the baseline.
    let shuffled_csv = dir.join("adjudicaciones-desordenadas.csv");
    {
        let text = std::fs::read_to_string(&csv_path).unwrap();
        let (header, body) = text.split_once('\n').unwrap();
        let mut lines: Vec<&str> = body.lines().collect();
        let mut order = Rng(0x5EED_0001_5AFF);
        for i in (1..lines.len()).rev() {
            let j = order.below(i as u64 + 1) as usize;
            lines.swap(i, j);
        }
        let mut out = String::with_capacity(text.len());
        out.push_str(header);
        out.push('\n');
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
        std::fs::write(&shuffled_csv, out).unwrap();
    }
    let shuffled_db = dir.join("desordenado.db");
    let (mut shuffled_runs, mut shuffled_own_runs) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        fresh_copy(&template, &shuffled_db);
        settle();
        let run = timed(
            Command::new(&exe)
                .env("VIGIA_LANG", "en")
                .arg("--db")
                .arg(&shuffled_db)
                .args(["--officer", "bench", "adjudications", "import"])
                .arg(&shuffled_csv)
                .args(["--program", "D3939-2004"]),
        );
        assert!(
            run.2.contains(&format!(" {n} adjudication(s) added")),
            "{}",
            run.2
        );
        shuffled_runs.push(run);
        let (now, price) = first_stored(
            &shuffled_db,
            "SELECT created_at || '|' || price_per_share FROM adjudications ORDER BY id LIMIT 1",
        );
        let own = own_schema_import(
            &template,
            &dir.join("own-schema.db"),
            &shuffled_csv,
            (&now, &price),
        );
        assert_eq!(own.2.trim(), n.to_string(), "the shell stored every row");
        shuffled_own_runs.push(own);
    }
    let (shuffled_s, shuffled_kib, _) = median(shuffled_runs);
    let (shuffled_own_s, _, _) = median(shuffled_own_runs);

    // 4. Pledges for 90 % of the adjudications through `vigia pledge import` (one run, next to
    //    the sqlite3 shell's .import of the same file), then breaches, liquidations and payments,
    //    audited, through the library.
    let pledges_csv = dir.join("prendas.csv");
    let mut text = String::from("adjudication_id,rank,registered_on\n");
    for id in 1..=n {
        if id % 10 != 0 {
            let _ = writeln!(text, "{id},1,{}", dates[id as usize - 1] + Days::new(20));
        }
    }
    std::fs::write(&pledges_csv, text).unwrap();
    // the register as the adjudications import left it, to import the pledges into three times
    let before_pledges = dir.join("before-pledges.db");
    let (mut pledge_base_runs, mut pledge_runs, mut pledge_own_runs) =
        (Vec::new(), Vec::new(), Vec::new());
    for run in 0..3 {
        let base_db = dir.join("baseline-pledges.db");
        let _ = std::fs::remove_file(&base_db);
        settle();
        pledge_base_runs.push(timed(
            Command::new("sqlite3")
                .arg(&base_db)
                .arg(".mode csv")
                .arg(format!(".import {} pledges", pledges_csv.display())),
        ));
        if run == 0 {
            // one file: the WAL checkpointed into it by the last writer's close
            std::fs::copy(&db, &before_pledges).unwrap();
        } else {
            for suffix in ["-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
            std::fs::copy(&before_pledges, &db).unwrap();
        }
        settle();
        pledge_runs.push(timed(&mut vigia(&[
            "pledge",
            "import",
            pledges_csv.to_str().unwrap(),
        ])));
        // what vigia stored as the pledges' time and beneficiary, for the shell's rows
        let (now, beneficiary) = first_stored(
            &db,
            "SELECT created_at || '|' || beneficiary FROM pledges ORDER BY id LIMIT 1",
        );
        let own = own_schema_pledges(
            &before_pledges,
            &dir.join("own-schema-pledges.db"),
            &pledges_csv,
            (&now, &beneficiary),
        );
        assert_eq!(
            own.2.trim(),
            (n - n / 10).to_string(),
            "the shell stored every pledge"
        );
        pledge_own_runs.push(own);
    }
    let (pledge_base_s, _, _) = median(pledge_base_runs);
    let (pledge_own_s, pledge_own_kib, _) = median(pledge_own_runs);
    let (pledge_s, pledge_kib, out) = median(pledge_runs);
    eprintln!("{}", out.trim());
    let mib = |k: u64| k as f64 / 1024.0;
    let import_rows = || {
        println!(
            "| vigia adjudications import | {import_s:.2} | {:.0} | sqlite3 .import | {import_base_s:.2} | {:.2}× |",
            mib(import_kib),
            import_s / import_base_s
        );
        println!(
            "| vigia adjudications import | {import_s:.2} | {:.0} | sqlite3 into vigia's own tables and indexes ({:.0} MiB) | {own_s:.2} | {:.2}× |",
            mib(import_kib),
            mib(own_kib),
            import_s / own_s
        );
        println!(
            "| vigia adjudications import, the same rows again (all unchanged) | {reimport_s:.2} | {:.0} | sqlite3 .import | {import_base_s:.2} | {:.2}× |",
            mib(reimport_kib),
            reimport_s / import_base_s
        );
        println!(
            "| vigia adjudications import, the same rows in no order | {shuffled_s:.2} | {:.0} | sqlite3 .import | {import_base_s:.2} | {:.2}× |",
            mib(shuffled_kib),
            shuffled_s / import_base_s
        );
        println!(
            "| vigia adjudications import, the same rows in no order | {shuffled_s:.2} | {:.0} | sqlite3 into vigia's own tables and indexes, the same file | {shuffled_own_s:.2} | {:.2}× |",
            mib(shuffled_kib),
            shuffled_s / shuffled_own_s
        );
        println!(
            "| vigia pledge import ({} pledges) | {pledge_s:.2} | {:.0} | sqlite3 .import | {pledge_base_s:.2} | {:.2}× |",
            n - n / 10,
            mib(pledge_kib),
            pledge_s / pledge_base_s
        );
        println!(
            "| vigia pledge import ({} pledges) | {pledge_s:.2} | {:.0} | sqlite3 into vigia's own pledges table and index ({:.0} MiB) | {pledge_own_s:.2} | {:.2}× |",
            n - n / 10,
            mib(pledge_kib),
            mib(pledge_own_kib),
            pledge_s / pledge_own_s
        );
    };
    if imports_only {
        println!("national offering benchmark, imports only: {n} adjudications");
        println!("| step | time (s) | peak memory (MiB) | baseline | baseline time (s) | ratio |");
        println!("|---|---:|---:|---|---:|---:|");
        import_rows();
        println!("load average after: {}", load_average());
        leave(&dir, keep);
        return;
    }
    let t = Instant::now();
    let mut store = Store::open(&db).unwrap();
    let mut breached = Vec::new();
    store
        .write::<_, vigia::register::Error>("bench", |tx| {
            let mut seen = std::collections::HashSet::new();
            while breached.len() < n_breaches as usize {
                let adj = 1 + rng.below(n) as i64;
                if !seen.insert(adj) {
                    continue;
                }
                let day = dates[adj as usize - 1] + Days::new(30 + rng.below(600));
                let b = vigia::store::breaches::NewBreach {
                    adjudication_id: adj,
                    kind: vigia::program::BreachKind::Sale,
                    breach_date: day,
                    shares: 1 + rng.below(shares[adj as usize - 1]),
                    consideration_per_share: Some(rust_decimal::Decimal::from(
                        900 + rng.below(900),
                    )),
                    consideration_total: None,
                    registered_on: None,
                    evidence: None,
                };
                let today = chrono::Local::now().date_naive();
                breached.push((vigia::register::breach::record(tx, &b, today)?, day));
            }
            Ok(())
        })
        .unwrap();
    let rates = vigia::store::rates::series(store.conn()).unwrap();
    let as_of = NaiveDate::from_ymd_opt(2025, 6, 30).unwrap();
    store
        .write::<_, vigia::register::Error>("bench", |tx| {
            for (breach, day) in breached.iter().take(n_liquidations as usize) {
                let until = (*day + Days::new(60)).min(as_of);
                vigia::register::liquidation::liquidate(
                    tx,
                    *breach,
                    until,
                    Some(Convention::DailySimple),
                    &rates,
                )?;
            }
            for (breach, day) in breached.iter().take(n_payments as usize) {
                breaches::record_payment(
                    tx,
                    *breach,
                    *day + Days::new(10),
                    rust_decimal::Decimal::from(1000 + rng.below(100_000)),
                    None,
                )?;
            }
            Ok(())
        })
        .unwrap();
    drop(store);
    eprintln!(
        "seeded {n_breaches} breaches, {n_liquidations} liquidations, {n_payments} payments in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    println!(
        "national offering benchmark: {n} adjudications, {n_breaches} breaches, {n_liquidations} liquidations, {n_payments} payments"
    );
    println!("| step | time (s) | peak memory (MiB) | baseline | baseline time (s) | ratio |");
    println!("|---|---:|---:|---|---:|---:|");
    import_rows();
    println!(
        "baseline peak memory: .import {:.0} MiB",
        mib(import_base_kib)
    );
    check_bench(&exe, &db, &dir);
    println!("load average after: {}", load_average());
    if arg(2) == Some("memory") {
        peak_memory(&dir, &db, &exe);
    }
    leave(&dir, keep);
}

/// Removes the files a run generated (about 2 GB at a million rows) unless `--keep` was given.
fn leave(dir: &Path, keep: bool) {
    if keep {
        println!("files kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(dir);
        let stats = format!("vigia-bench-time-{}", std::process::id());
        let _ = std::fs::remove_file(std::env::temp_dir().join(stats));
        println!("files removed ({}; --keep keeps them)", dir.display());
    }
}

/// Times `vigia check` on the register `db` (as `main` builds it) against the sqlite3 scan of the
/// columns it reads, and prints its rows of the table: `national N check DB` runs only this, on
/// a register kept from an earlier run.
fn check_bench(exe: &Path, db: &Path, dir: &Path) {
    let mib = |k: u64| k as f64 / 1024.0;
    let vigia = |args: &[&str]| {
        let mut c = Command::new(exe);
        c.arg("--db")
            .arg(db)
            .args(["--officer", "bench"])
            .args(args)
            .env("VIGIA_LANG", "en");
        c
    };
    // 5. Baseline: a plain SELECT scan of every column the check reads (median of three): each
    //    adjudication with its holder's document and name (a finding names them) and its
    //    pledges, then the breaches and the small tables of what was done about them. Before
    //    issue 23 the baseline read only the adjudications' shares and the pledges' ids (the
    //    narrow scan, still timed for comparison).
    let scan_of = |sql: &'static str| {
        move || {
            settle();
            timed(Command::new("sqlite3").arg(db).arg(sql))
        }
    };
    let scan = scan_of(CHECK_COLUMNS_SCAN);
    let (scan_s, scan_kib, _) = median(vec![scan(), scan(), scan()]);
    let narrow = scan_of(
        "SELECT count(*), sum(a.shares), count(p.id) FROM adjudications a LEFT JOIN pledges p ON p.adjudication_id = a.id;",
    );
    let (narrow_s, _, _) = median(vec![narrow(), narrow(), narrow()]);

    // 6. vigia check: mid lock-up (the usual periodic run), and after every lock-up has ended
    //    (when nearly every pledge becomes releasable: a finding per holder). Medians of three.
    //    The after-lock-up run is also timed in the default table format, whose findings are
    //    spooled to a temporary file so that the summary can come first.
    let check = |as_of: &str, format: &str| {
        let report = dir.join(format!("check-{as_of}.{format}"));
        let mut runs = Vec::new();
        for _ in 0..3 {
            settle();
            runs.push(timed(&mut vigia(&[
                "check",
                "--as-of",
                as_of,
                "--format",
                format,
                "--out",
                report.to_str().unwrap(),
            ])));
        }
        let (s, kib, _) = median(runs);
        let findings = std::fs::read_to_string(&report)
            .map(|s| s.lines().count().saturating_sub(1))
            .unwrap_or(0);
        (s, kib, findings)
    };
    let (check_s, check_kib, findings) = check("2024-06-30", "csv");
    let (late_s, late_kib, late_findings) = check("2025-06-30", "csv");
    let (json_s, json_kib, _) = check("2025-06-30", "json");
    let (table_s, table_kib, _) = check("2025-06-30", "table");

    println!("| step | time (s) | peak memory (MiB) | baseline | baseline time (s) | ratio |");
    println!("|---|---:|---:|---|---:|---:|");
    println!(
        "| vigia check as of 2024-06-30 ({findings} findings) | {check_s:.2} | {:.0} | sqlite3 SELECT scan of the columns read | {scan_s:.2} | {:.2}× |",
        mib(check_kib),
        check_s / scan_s
    );
    println!(
        "| vigia check as of 2025-06-30 ({late_findings} findings) | {late_s:.2} | {:.0} | sqlite3 SELECT scan of the columns read | {scan_s:.2} | {:.2}× |",
        mib(late_kib),
        late_s / scan_s
    );
    println!(
        "| vigia check as of 2025-06-30, JSON | {json_s:.2} | {:.0} | sqlite3 SELECT scan of the columns read | {scan_s:.2} | {:.2}× |",
        mib(json_kib),
        json_s / scan_s
    );
    println!(
        "| vigia check as of 2025-06-30, table format | {table_s:.2} | {:.0} | sqlite3 SELECT scan of the columns read | {scan_s:.2} | {:.2}× |",
        mib(table_kib),
        table_s / scan_s
    );
    println!(
        "baseline peak memory: scan {:.0} MiB; files in {}",
        mib(scan_kib),
        dir.display()
    );
    println!(
        "the narrow scan of before (shares and pledge ids only): {narrow_s:.2} s; the check's ratios to it: {:.2}×, {:.2}×, {:.2}× (JSON), {:.2}× (table)",
        check_s / narrow_s,
        late_s / narrow_s,
        json_s / narrow_s,
        table_s / narrow_s
    );
}

/// Issue 23 item 5 (`national N memory`): every command that can touch many rows of the register
/// just built, under `/usr/bin/time -v` (listings in every format, the check in every format,
/// the audit trail's log and verification, a backup) and, on a register of at most 2,000
/// breaches (`national 20000 memory`: 1,000), a batch of notices (`notice issue --pending`) with
/// notices per second and what the command said it left out; a table of peak memory against
/// the 300 MB target.
fn peak_memory(dir: &Path, db: &Path, exe: &Path) {
    let before = peak::load();
    let vigia = |args: &[&str]| {
        let mut c = Command::new(exe);
        c.arg("--db")
            .arg(db)
            .args(["--officer", "bench"])
            .args(args)
            .env("VIGIA_LANG", "en");
        c
    };
    let out = |name: &str| dir.join(name).display().to_string();
    let mut peaks = Vec::new();
    let formats = ["table", "json", "csv", "csv-excel", "xlsx"];
    for (what, list) in [
        ("adjudications list", &["adjudications", "list"][..]),
        ("breach list", &["breach", "list"][..]),
        (
            "payment list --breach 1",
            &["payment", "list", "--breach", "1"][..],
        ),
        ("notice list", &["notice", "list"][..]),
        ("audit log", &["audit", "log"][..]),
    ] {
        for f in formats {
            // --out is for the workbook formats; the others go to standard output (a file)
            let file = out(&format!("peak-{}.{f}", what.replace(' ', "-")));
            let mut args = list.to_vec();
            args.extend(["--format", f]);
            if f == "xlsx" || f == "csv-excel" {
                args.extend(["--out", &file]);
            }
            peaks.push(peak::measure(
                &format!("`{what} --format {f}`"),
                &mut vigia(&args),
                dir,
            ));
        }
    }
    for f in formats {
        let file = out(&format!("peak-check.{f}"));
        peaks.push(peak::measure(
            &format!("`check --as-of 2025-06-30 --format {f}`"),
            &mut vigia(&[
                "check",
                "--as-of",
                "2025-06-30",
                "--format",
                f,
                "--out",
                &file,
            ]),
            dir,
        ));
    }
    peaks.push(peak::measure(
        "`audit verify`",
        &mut vigia(&["audit", "verify"]),
        dir,
    ));
    let copy = out("peak-backup.db");
    let _ = std::fs::remove_file(&copy);
    peaks.push(peak::measure(
        "`backup FILE`",
        &mut vigia(&["backup", &copy]),
        dir,
    ));
    let _ = std::fs::remove_file(&copy);
    // a batch of notices: at most 2,000 breaches, so that the batch stays about a thousand
    let breaches: u64 = Command::new("sqlite3")
        .arg(db)
        .arg("SELECT count(*) FROM breaches")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0);
    let mut rate = None;
    if breaches <= 2_000 {
        let set = vigia(&[
            "program",
            "letters",
            "set",
            "D3939-2004",
            "--entity",
            "Administradora (BENCH)",
            "--nit",
            "900123456-8",
            "--return-address",
            "Carrera 7 # 71-21",
            "--city",
            "Bogotá D.C.",
            "--bank",
            "Banco Ficticio",
            "--account",
            "cuenta corriente 000",
            "--signatory-name",
            "Firmante Ficticio",
            "--signatory-position",
            "Representante legal",
        ])
        .output()
        .expect("vigia runs");
        assert!(
            set.status.success(),
            "{}",
            String::from_utf8_lossy(&set.stderr)
        );
        let notices = out("peak-notices");
        let _ = std::fs::remove_dir_all(&notices);
        let p = peak::measure(
            &format!("`notice issue --pending` ({breaches} breaches)"),
            &mut vigia(&[
                "notice",
                "issue",
                "--pending",
                "--until",
                "2025-06-30",
                "--date",
                "2025-07-01",
                "--reason",
                "benchmark",
                "--out",
                &notices,
            ]),
            dir,
        );
        let issued = std::fs::read_to_string(Path::new(&notices).join("index.csv"))
            .map(|s| s.lines().count().saturating_sub(1))
            .unwrap_or(0);
        // the command's own line: how many it issued and which breaches it left out, and why
        let said = std::fs::read_to_string(dir.join("peak-stdout.txt")).unwrap_or_default();
        rate = Some((issued, issued as f64 / p.secs, said.trim().to_string()));
        peaks.push(p);
    }
    peak::print(
        "peak memory of every command that can touch many rows",
        &peaks,
        &before,
        &peak::load(),
    );
    match rate {
        Some((issued, per_s, said)) => {
            println!(
                "notice batch: {issued} notices, {per_s:.1} a second; the command said: {said}"
            )
        }
        None => println!(
            "notice batch: not run ({breaches} breaches; `national 20000 memory` runs it on 1,000)"
        ),
    }
}

/// The baseline of `vigia check`: every column the check reads, read by the sqlite3 shell in
/// plain SELECTs (aggregated, so that the shell prints one line: each column is read, nothing
/// formatted).
const CHECK_COLUMNS_SCAN: &str =
    "SELECT count(*), sum(a.program_id), sum(a.shares), max(a.adjudicated_on),
    count(a.lender), sum(length(a.price_per_share)), sum(a.financed_shares),
    sum(length(h.doc_type) + length(h.doc_number) + length(h.name)),
    count(p.id), sum(p.rank), sum(p.shares), max(p.registered_on)
  FROM adjudications a JOIN holders h ON h.id = a.holder_id
  LEFT JOIN pledges p ON p.adjudication_id = a.id;
SELECT count(*), sum(adjudication_id), max(breach_date), sum(shares),
    count(consideration_per_share), count(consideration_total) FROM breaches;
SELECT count(*), sum(breach_id), sum(provisional) FROM liquidations;
SELECT count(*), max(notice_date), max(deadline) FROM notices;
SELECT count(*), max(paid_on) FROM payments;
SELECT count(*) FROM settlements;";

/// The system's load averages over 1, 5 and 15 minutes (`/proc/loadavg`), or why not.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|e| format!("unknown ({e})"))
}
