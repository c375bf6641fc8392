//! The web interface under load (issue 13): `cargo build --release && cargo run --release
//! --example web_load -- [--db PATH] [--n N] [--requests R] [--sessions S]`.
//!
//! Builds the national register as `examples/national.rs` does, without its timings — N
//! adjudications (default 1,000,000) imported through `vigia adjudications import`, pledges for
//! 90 % through `vigia pledge import`, 50,000 breaches, 20,000 liquidations and 10,000 payments
//! (scaled down with N) through the library — or reuses the register at `--db PATH` (one this
//! example left behind: its holders are `Titular Sintético i` with document 1000000000 + i).
//! Then it adds a `consulta` account, starts the release binary's `vigia serve` on 127.0.0.1
//! (a free port), signs in S sessions (default 20), and has each one send its share of R
//! requests per route (default 2,000) over its own keep-alive connection, all S at once:
//!
//! - holder search by document, typed with dots (`/titulares?q=1.000.123.456`);
//! - holder search by the start of a name (`/titulares?q=Titular Sintético 12345`);
//! - a holder's page (`/titulares/ID`);
//! - the dashboard (`/`: the batch check over the whole register as of today).
//!
//! Before the sessions start, one visit to the dashboard runs the check (the first since the
//! server started); every later visit must be served from the server's cache (the register does
//! not change meanwhile), which the server's `x-vigia-check-runs` header confirms at the end.
//! It prints the first visit's time, and p50, p95, p99 and the slowest answer per route. Only
//! 127.0.0.1 is ever contacted;
//! the loop is bounded in count (R per route) and in time (10 minutes), then the server is
//! stopped. The register is left in place for `--db` next time.

use chrono::{Days, NaiveDate};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use vigia::fine::Convention;
use vigia::store::{Store, breaches};

const USER: &str = "carga";
const PASSWORD: &str = "clave de carga 2026";
/// No run of the load loop lasts longer than this.
const TIME_LIMIT: Duration = Duration::from_secs(600);

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

struct Opts {
    db: Option<PathBuf>,
    n: u64,
    requests: u64,
    sessions: u64,
}

fn opts() -> Opts {
    let mut o = Opts {
        db: None,
        n: 1_000_000,
        requests: 2_000,
        sessions: 20,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--db" => o.db = Some(PathBuf::from(value())),
            "--n" => o.n = value().parse().expect("--n N"),
            "--requests" => o.requests = value().parse().expect("--requests R"),
            "--sessions" => o.sessions = value().parse().expect("--sessions S"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(o.sessions > 0 && o.requests >= o.sessions);
    o
}

fn vigia(exe: &Path, db: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(exe);
    c.arg("--db")
        .arg(db)
        .args(["--officer", "bench"])
        .args(args);
    c
}

fn ok(c: &mut Command) -> String {
    let out = c.output().expect("vigia runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The national register of `examples/national.rs` (same seed, same shapes), in `dir`.
fn build(exe: &Path, dir: &Path, n: u64) -> PathBuf {
    let scale = |x: u64| (x * n / 1_000_000).max(1);
    let (n_breaches, n_liquidations, n_payments) = (scale(50_000), scale(20_000), scale(10_000));
    let mut rng = Rng(0x5EED_2026_1129);
    let t = Instant::now();
    let csv_path = dir.join("adjudicaciones.csv");
    let mut csv = String::with_capacity(n as usize * 90);
    csv.push_str("doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n");
    let first_day = NaiveDate::from_ymd_opt(2023, 1, 2).unwrap();
    let mut dates = Vec::with_capacity(n as usize);
    let mut shares = Vec::with_capacity(n as usize);
    for i in 0..n {
        let day = first_day + Days::new(rng.below(60));
        let s = 1 + rng.below(12);
        let (lender, fin) = if rng.below(3) == 0 {
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
    let db = dir.join("vigia.db");
    let program =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/programs/decreto-3939-2004.toml");
    ok(&mut vigia(exe, &db, &["init"]));
    ok(&mut vigia(
        exe,
        &db,
        &["program", "add", program.to_str().unwrap()],
    ));
    ok(&mut vigia(
        exe,
        &db,
        &[
            "adjudications",
            "import",
            csv_path.to_str().unwrap(),
            "--program",
            "D3939-2004",
        ],
    ));
    let pledges_csv = dir.join("prendas.csv");
    let mut text = String::from("adjudication_id,rank,registered_on\n");
    for id in 1..=n {
        if id % 10 != 0 {
            let _ = writeln!(text, "{id},1,{}", dates[id as usize - 1] + Days::new(20));
        }
    }
    std::fs::write(&pledges_csv, text).unwrap();
    ok(&mut vigia(
        exe,
        &db,
        &["pledge", "import", pledges_csv.to_str().unwrap()],
    ));
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
    eprintln!(
        "built the register ({n} adjudications, {n_breaches} breaches, {n_liquidations} liquidations, {n_payments} payments) in {:.0} s",
        t.elapsed().as_secs_f64()
    );
    db
}

/// One keep-alive HTTP/1.1 connection to the server, with one session's cookies.
struct Conn {
    addr: String,
    reader: BufReader<TcpStream>,
    cookies: Vec<(String, String)>,
}

struct Answer {
    status: u16,
    body: String,
    /// The dashboard's count of check runs.
    check_runs: Option<u64>,
}

impl Conn {
    fn open(addr: &str) -> Conn {
        let s = TcpStream::connect(addr).expect("connects to 127.0.0.1");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.set_nodelay(true).unwrap();
        Conn {
            addr: addr.to_string(),
            reader: BufReader::new(s),
            cookies: Vec::new(),
        }
    }

    fn send(&mut self, method: &str, path: &str, body: &str) -> Answer {
        let cookie = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if !cookie.is_empty() {
            let _ = write!(head, "Cookie: {cookie}\r\n");
        }
        if method == "POST" {
            head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        }
        head.push_str("\r\n");
        head.push_str(body);
        self.reader.get_mut().write_all(head.as_bytes()).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status line: {line:?}"));
        let mut length = 0;
        let mut check_runs = None;
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (k, v) = l.split_once(':').expect("a header");
            let v = v.trim();
            if k.eq_ignore_ascii_case("content-length") {
                length = v.parse().unwrap();
            } else if k.eq_ignore_ascii_case("x-vigia-check-runs") {
                check_runs = Some(v.parse().expect("a count"));
            } else if k.eq_ignore_ascii_case("transfer-encoding") {
                panic!("unexpected transfer-encoding {v}");
            } else if k.eq_ignore_ascii_case("set-cookie") {
                let kv = v.split(';').next().unwrap();
                let (name, value) = kv.split_once('=').unwrap();
                self.cookies.retain(|(n, _)| n != name);
                if !value.is_empty() {
                    self.cookies.push((name.to_string(), value.to_string()));
                }
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        Answer {
            status,
            body: String::from_utf8_lossy(&body).into_owned(),
            check_runs,
        }
    }

    fn sign_in(&mut self) {
        let page = self.send("GET", "/ingresar", "");
        let i = page
            .body
            .find("name=\"csrf\" value=\"")
            .expect("a csrf input")
            + 19;
        let csrf = page.body[i..i + 64].to_string();
        let form = format!(
            "csrf={csrf}&usuario={USER}&clave={}",
            PASSWORD.replace(' ', "+")
        );
        let r = self.send("POST", "/ingresar", &form);
        assert_eq!(r.status, 303, "sign-in failed: {}", r.body);
    }
}

const ROUTES: [&str; 4] = [
    "search by document",
    "search by name prefix",
    "holder page",
    "dashboard",
];

/// The dotted form of a document number (`1000123456` → `1.000.123.456`).
fn dotted(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(c);
    }
    out
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

fn main() {
    let o = opts();
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
    assert!(
        exe.exists(),
        "build the release binary first: cargo build --release"
    );
    let db = match &o.db {
        Some(db) => {
            assert!(db.exists(), "{}: no register there", db.display());
            db.clone()
        }
        None => {
            let dir = std::env::temp_dir().join(format!("vigia-web-load-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            build(&exe, &dir, o.n)
        }
    };
    let holders: i64 = Store::open(&db)
        .unwrap()
        .conn()
        .query_row("SELECT count(*) FROM holders", [], |r| r.get(0))
        .unwrap();
    let holders = holders as u64;
    assert!(holders > 0, "no holders in {}", db.display());

    // the account (already there when the register is reused)
    let mut add = vigia(
        &exe,
        &db,
        &[
            "user",
            "add",
            USER,
            "--role",
            "consulta",
            "--password-stdin",
        ],
    );
    let mut child = add
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    let _already_there = child.wait().unwrap();

    let mut server = vigia(&exe, &db, &["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");

    // the first visit to the dashboard runs the check
    let mut first = Conn::open(&addr);
    first.sign_in();
    let t = Instant::now();
    let a = first.send("GET", "/", "");
    let first_visit = t.elapsed();
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body.contains("Hallazgos al "), "{}", a.body);
    assert_eq!(a.check_runs, Some(1), "the first visit runs the check");

    let per_session = o.requests / o.sessions;
    let started = Instant::now();
    let deadline = started + TIME_LIMIT;
    let threads: Vec<_> = (0..o.sessions)
        .map(|k| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut rng = Rng(0x00C0_FFEE_0000 + k);
                let mut conn = Conn::open(&addr);
                conn.sign_in();
                let mut times: [Vec<Duration>; 4] = Default::default();
                for _ in 0..per_session {
                    if Instant::now() > deadline {
                        break;
                    }
                    let i = rng.below(holders);
                    let paths = [
                        format!("/titulares?q={}", dotted(1_000_000_000 + i)),
                        // "Titular Sintético 1234" and the few holders whose number goes on
                        format!("/titulares?q=Titular+Sint%C3%A9tico+{}", (i / 10).max(1000)),
                        format!("/titulares/{}", 1 + i),
                        "/".to_string(),
                    ];
                    // what each answer must hold: the holder's link, a name's link, the name
                    let expect = [
                        format!("href=\"/titulares/{}\"", 1 + i),
                        "<td><a href=\"/titulares/".to_string(),
                        format!("<h1>Titular Sintético {i}</h1>"),
                        "Hallazgos al ".to_string(),
                    ];
                    for (r, path) in paths.iter().enumerate() {
                        let t = Instant::now();
                        let a = conn.send("GET", path, "");
                        times[r].push(t.elapsed());
                        assert_eq!(a.status, 200, "{path}: {}", a.body);
                        assert!(a.body.contains(&expect[r]), "{path}: {}", a.body);
                    }
                }
                times
            })
        })
        .collect();
    let mut all: [Vec<Duration>; 4] = Default::default();
    for t in threads {
        for (r, v) in t.join().expect("a session failed").into_iter().enumerate() {
            all[r].extend(v);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    drop(first);
    let mut last = Conn::open(&addr);
    last.sign_in();
    let last = last.send("GET", "/", "");
    assert_eq!(
        last.check_runs,
        Some(1),
        "every later visit was served from the cache"
    );
    let _stopped = server.kill();
    let _ = server.wait();

    println!(
        "{} sessions over {} holders; {:.1} s; {:.0} requests/s",
        o.sessions,
        holders,
        elapsed,
        all.iter().map(Vec::len).sum::<usize>() as f64 / elapsed
    );
    println!(
        "dashboard, first visit (runs the check): {:.2} s",
        first_visit.as_secs_f64()
    );
    println!("| route | requests | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (r, v) in all.iter_mut().enumerate() {
        v.sort();
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
            ROUTES[r],
            v.len(),
            percentile(v, 0.50),
            percentile(v, 0.95),
            percentile(v, 0.99),
            percentile(v, 1.0)
        );
    }
    println!("register: {} (reuse with --db)", db.display());
}
