//! The web interface under load (issues 13 and 22): `cargo build --release && cargo run
//! --release --example web_load -- [--db PATH] [--n N] [--requests R] [--sessions S]
//! [--writes W]`.
//!
//! Builds the national register as `examples/national.rs` does, without its timings — N
//! adjudications (default 1,000,000) imported through `vigia adjudications import`, pledges for
//! 90 % through `vigia pledge import`, 50,000 breaches, 20,000 liquidations and 10,000 payments
//! (scaled down with N) through the library — or reuses the register at `--db PATH` (one this
//! example left behind: its holders are `Titular Sintético i` with document 1000000000 + i).
//! Then it adds a `consulta` account and a `juridico` one (the role that liquidates and issues
//! notices), sets the program's letterhead (a notice needs it), starts the release binary's `vigia serve` on 127.0.0.1
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
//!
//! Then the writes (after the reads, so the dashboard's figures above are the cache's): S
//! sessions signed in as `juridico`, all at once, each on its own slice of the adjudication ids
//! and its share of W adjudications without a breach (default 400), send the forms as a person
//! would, each with the CSRF token of the page it is on:
//!
//! - the breach form's preview (`accion=vista`: a sale within the lock-up, above the price paid);
//! - the breach recorded from the same form (`accion=registrar`);
//! - a payment on the breach's page;
//! - a liquidation to 60 days after the breach;
//! - a notice to that day, dated as the form shows (today).
//!
//! Each write must answer 303 to the page it made, and that page must show what was written
//! (the breach's evidence and date, the payment's reference, the liquidation's number, the
//! notice's breach and day); no answer may be a lock error.
//!
//! It prints the first visit's time, the load average (`/proc/loadavg`) before and after, and
//! p50, p95, p99 and the slowest answer per route, reads and writes (the writes' times are the
//! form's POST; the pages they lead to are checked, not timed). Only 127.0.0.1 is ever contacted;
//! each loop is bounded in count (R per route, W writes) and in time (10 minutes each), then the
//! server is stopped. The register is left in place for `--db` next time (with the writes of
//! each run: a rerun breaches other adjudications).

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
    writes: u64,
}

fn opts() -> Opts {
    let mut o = Opts {
        db: None,
        n: 1_000_000,
        requests: 2_000,
        sessions: 20,
        writes: 400,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--db" => o.db = Some(PathBuf::from(value())),
            "--n" => o.n = value().parse().expect("--n N"),
            "--requests" => o.requests = value().parse().expect("--requests R"),
            "--sessions" => o.sessions = value().parse().expect("--sessions S"),
            "--writes" => o.writes = value().parse().expect("--writes W"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(o.sessions > 0 && o.requests >= o.sessions && o.writes >= o.sessions);
    o
}

fn vigia(exe: &Path, db: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(exe);
    c.arg("--db")
        .arg(db)
        .args(["--officer", "bench"])
        .args(args)
        .env("VIGIA_LANG", "en");
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
    /// Where a 303 sends the browser.
    location: Option<String>,
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
        let mut location = None;
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
            } else if k.eq_ignore_ascii_case("location") {
                location = Some(v.to_string());
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
            location,
        }
    }

    fn sign_in(&mut self, user: &str) {
        let page = self.send("GET", "/ingresar", "");
        let csrf = csrf_of(&page.body);
        let form = format!(
            "csrf={csrf}&usuario={user}&clave={}",
            PASSWORD.replace(' ', "+")
        );
        let r = self.send("POST", "/ingresar", &form);
        assert_eq!(r.status, 303, "sign-in failed: {}", r.body);
    }
}

/// The CSRF token of a page's forms (one per session).
fn csrf_of(body: &str) -> String {
    let i = body.find("name=\"csrf\" value=\"").expect("a csrf input") + 19;
    body[i..i + 64].to_string()
}

/// The value a form shows in its input `name` (what a person submits when they leave it).
fn shown(body: &str, name: &str) -> String {
    let i = body
        .find(&format!("name=\"{name}\""))
        .unwrap_or_else(|| panic!("no input {name}"));
    let v = i + body[i..].find("value=\"").expect("a value") + 7;
    body[v..v + body[v..].find('"').unwrap()].to_string()
}

/// `application/x-www-form-urlencoded`, as a browser sends a form.
fn form(fields: &[(&str, &str)]) -> String {
    let enc = |s: &str| {
        let mut out = String::new();
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    out.push(b as char)
                }
                b' ' => out.push('+'),
                _ => {
                    let _ = write!(out, "%{b:02X}");
                }
            }
        }
        out
    };
    fields
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// A day as the forms show and read it (`dd/mm/aaaa`).
fn fecha(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// The account that writes: jurídico, the role that liquidates and issues notices (and, as it is
/// above oficial, records breaches and payments).
const WRITER: &str = "carga-juridico";

const WRITES: [&str; 5] = [
    "breach preview",
    "record a breach",
    "record a payment",
    "liquidate",
    "issue a notice",
];

/// An adjudication a session breaches: its id, its shares, its day.
struct Target {
    id: i64,
    shares: u64,
    on: NaiveDate,
}

/// For each of `sessions` sessions, `each` adjudications without a breach from its own slice
/// of the register's ids, so no two sessions write on one adjudication.
fn targets(db: &Path, sessions: u64, each: u64) -> Vec<Vec<Target>> {
    let store = Store::open(db).unwrap();
    let conn = store.conn();
    let last: i64 = conn
        .query_row("SELECT max(id) FROM adjudications", [], |r| r.get(0))
        .unwrap();
    let slice = last / sessions as i64;
    let mut q = conn
        .prepare(
            "SELECT a.id, a.shares, a.adjudicated_on FROM adjudications a \
             WHERE a.id >= ?1 AND a.id < ?2 \
             AND NOT EXISTS (SELECT 1 FROM breaches b WHERE b.adjudication_id = a.id) \
             ORDER BY a.id LIMIT ?3",
        )
        .unwrap();
    (0..sessions as i64)
        .map(|k| {
            let rows: Vec<Target> = q
                .query_map((1 + k * slice, 1 + (k + 1) * slice, each as i64), |r| {
                    let on: String = r.get(2)?;
                    Ok(Target {
                        id: r.get(0)?,
                        shares: r.get::<_, i64>(1)? as u64,
                        on: on.parse().expect("an ISO date"),
                    })
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert_eq!(
                rows.len() as u64,
                each,
                "session {k}: too few unbreached adjudications"
            );
            rows
        })
        .collect()
}

impl Conn {
    /// A page that must be there and hold `proof`.
    fn page(&mut self, path: &str, proof: &str) -> String {
        let a = self.send("GET", path, "");
        unlocked(path, &a);
        assert_eq!(a.status, 200, "{path}: {}", a.body);
        assert!(a.body.contains(proof), "{path}: no {proof:?} in {}", a.body);
        a.body
    }

    /// A form sent, timed into `times`: it must answer 303 to a page starting with `to`.
    fn written(&mut self, times: &mut Vec<Duration>, path: &str, body: &str, to: &str) -> String {
        let t = Instant::now();
        let a = self.send("POST", path, body);
        times.push(t.elapsed());
        unlocked(path, &a);
        assert_eq!(a.status, 303, "{path} {body}: {}", a.body);
        let at = a.location.expect("a 303 says where");
        assert!(at.starts_with(to), "{path}: sent to {at}");
        at
    }
}

/// No answer may be a lock error (the register busy): a server error or the word.
fn unlocked(path: &str, a: &Answer) {
    let lower = a.body.to_lowercase();
    assert!(
        a.status < 500 && !lower.contains("busy") && !lower.contains("ocupado"),
        "{path}: {} {}",
        a.status,
        a.body
    );
}

/// One session's writes, as a person sends them through the forms: for each adjudication, the
/// breach form, its preview, the breach recorded, a payment, a liquidation and a notice, each
/// with the form page's CSRF token, each answer checked against the page it leads to.
fn write_session(addr: &str, k: u64, targets: &[Target], deadline: Instant) -> [Vec<Duration>; 5] {
    let mut rng = Rng(0xB4EA_C400_0000 + k);
    let mut conn = Conn::open(addr);
    conn.sign_in(WRITER);
    let mut times: [Vec<Duration>; 5] = Default::default();
    for (j, t) in targets.iter().enumerate() {
        if Instant::now() > deadline {
            break;
        }
        // within the 24 months' lock-up, sold above the price paid: a fine is due
        let day = t.on + Days::new(30 + rng.below(600));
        let shares = (1 + rng.below(t.shares)).to_string();
        let until = fecha(day + Days::new(60));
        let evidence = format!("Carga: sesión {k}, incumplimiento {j}");
        let path = format!("/adjudicaciones/{}/incumplimiento", t.id);
        let page = conn.page(&path, &format!("Adjudicación {} de ", t.id));
        let fields = [
            ("csrf", csrf_of(&page)),
            ("breach_kind", "sale".into()),
            ("breach_date", fecha(day)),
            ("shares", shares.clone()),
            ("consideration_per_share", "10.000".into()),
            ("consideration_total", String::new()),
            ("registered_on", String::new()),
            ("evidence", evidence.clone()),
            ("until", until.clone()),
        ];
        let mut fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        for (name, _) in &fields[1..] {
            assert!(
                page.contains(&format!("name=\"{name}\"")),
                "{path}: no {name}"
            );
        }
        fields.push(("accion", "vista"));
        let t0 = Instant::now();
        let a = conn.send("POST", &path, &form(&fields));
        times[0].push(t0.elapsed());
        unlocked(&path, &a);
        assert_eq!(a.status, 200, "{path} preview: {}", a.body);
        assert!(
            a.body.contains("Vista previa (nada se ha registrado)")
                && !a.body.contains("role=\"alert\""),
            "{path} preview: {}",
            a.body
        );
        fields.pop();
        fields.push(("accion", "registrar"));
        let breach = conn.written(&mut times[1], &path, &form(&fields), "/incumplimientos/");
        let page = conn.page(&breach, &format!("<dd>{evidence}</dd>"));
        assert!(
            page.contains(&format!("<dd>{}</dd>", fecha(day))),
            "{breach}: {page}"
        );

        let reference = format!("CARGA-{k}-{j}");
        let paid = fecha(day + Days::new(10));
        let body = form(&[
            ("csrf", &csrf_of(&page)),
            ("payment_date", &paid),
            ("payment_amount", "1.000"),
            ("reference", &reference),
        ]);
        let to = conn.written(&mut times[2], &format!("{breach}/pagos"), &body, &breach);
        let page = conn.page(&to, &format!("<td>{reference}</td>"));

        let body = form(&[("csrf", &csrf_of(&page)), ("until", &until)]);
        let liq = conn.written(
            &mut times[3],
            &format!("{breach}/liquidar"),
            &body,
            "/liquidaciones/",
        );
        let lid = liq.rsplit('/').next().unwrap();
        let page = conn.page(&liq, &format!("Liquidación N.º {lid}"));
        assert!(
            page.contains(&format!("href=\"{breach}\"")),
            "{liq}: {page}"
        );

        let page = conn.page(&breach, &format!("action=\"{breach}/aviso\""));
        let body = form(&[
            ("csrf", &csrf_of(&page)),
            ("notice_until", &until),
            ("notice_date", &shown(&page, "notice_date")),
            ("backdate_reason", ""),
        ]);
        let notice = conn.written(&mut times[4], &format!("{breach}/aviso"), &body, "/avisos/");
        let page = conn.page(&notice, &format!("href=\"{breach}\""));
        assert!(
            page.contains(&format!("(liquidado al {until})")),
            "{notice}: {page}"
        );
    }
    times
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

/// The machine's load averages over 1, 5 and 15 minutes.
fn loadavg() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

fn main() {
    let o = opts();
    let load_before = loadavg();
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

    // the accounts (already there when the register is reused)
    for (user, role) in [(USER, "consulta"), (WRITER, "juridico")] {
        let mut add = vigia(
            &exe,
            &db,
            &["user", "add", user, "--role", role, "--password-stdin"],
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
    }
    // the letterhead a notice needs (already there when the register is reused)
    let letterheads: i64 = Store::open(&db)
        .unwrap()
        .conn()
        .query_row("SELECT count(*) FROM letterheads", [], |r| r.get(0))
        .unwrap();
    if letterheads == 0 {
        ok(&mut vigia(
            &exe,
            &db,
            &[
                "program",
                "letters",
                "set",
                "D3939-2004",
                "--entity",
                "Administradora de Carga S.A.S.",
                "--return-address",
                "Carrera 7 # 71-21, Bogotá D.C.",
                "--bank",
                "Banco de Carga",
                "--account",
                "cuenta corriente No. 000-00000-0",
                "--signatory-name",
                "Firmante de Carga",
                "--signatory-position",
                "Representante legal",
            ],
        ));
    }
    let each = o.writes.div_ceil(o.sessions);
    let targets = targets(&db, o.sessions, each);

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
    first.sign_in(USER);
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
                conn.sign_in(USER);
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
    last.sign_in(USER);
    let last = last.send("GET", "/", "");
    assert_eq!(
        last.check_runs,
        Some(1),
        "every later visit was served from the cache"
    );

    // the writes: each session its own adjudications, all S at once
    let started_writes = Instant::now();
    let deadline = started_writes + TIME_LIMIT;
    let threads: Vec<_> = targets
        .into_iter()
        .enumerate()
        .map(|(k, mine)| {
            let addr = addr.clone();
            std::thread::spawn(move || write_session(&addr, k as u64, &mine, deadline))
        })
        .collect();
    let mut writes: [Vec<Duration>; 5] = Default::default();
    for t in threads {
        for (r, v) in t
            .join()
            .expect("a writing session failed")
            .into_iter()
            .enumerate()
        {
            writes[r].extend(v);
        }
    }
    let writes_elapsed = started_writes.elapsed().as_secs_f64();
    let _stopped = server.kill();
    let _ = server.wait();
    let load_after = loadavg();

    println!(
        "{} sessions over {} holders; {:.1} s; {:.0} requests/s",
        o.sessions,
        holders,
        elapsed,
        all.iter().map(Vec::len).sum::<usize>() as f64 / elapsed
    );
    println!(
        "writes: {} sessions, {} adjudications breached, {:.1} s",
        o.sessions,
        writes[1].len(),
        writes_elapsed
    );
    println!("load average before: {load_before}; after: {load_after}");
    println!(
        "dashboard, first visit (runs the check): {:.2} s",
        first_visit.as_secs_f64()
    );
    println!("| route | requests | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |");
    println!("|---|---:|---:|---:|---:|---:|");
    let names = ROUTES.iter().chain(WRITES.iter());
    for (name, v) in names.zip(all.iter_mut().chain(writes.iter_mut())) {
        v.sort();
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |",
            name,
            v.len(),
            percentile(v, 0.50),
            percentile(v, 0.95),
            percentile(v, 0.99),
            percentile(v, 1.0)
        );
    }
    println!("register: {} (reuse with --db)", db.display());
}
