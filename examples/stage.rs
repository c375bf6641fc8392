//! The later-stage benchmark (issue 23 item 4): `cargo run --release --example stage -- N`.
//!
//! Generates N proposals (default 100,000) for one tranche of the Second Stage of the sample
//! program, after a first stage recorded as concluded outside vigia: distinct bidders, each for
//! the whole block (Todo o Nada), at distinct prices (so no tie and no draw), 2 % below the
//! minimum price, 1 % without a guarantee. Then runs under `/usr/bin/time -v` the stage's
//! commands that grow with its proposals: the proposals import, the evaluation (its table to a
//! file), the adjudication with its PDF acta (`stage adjudicate --acta`), the acta again in
//! Markdown and HTML (`stage acta --out`), and `stage verify` of the PDF, Markdown and HTML actas;
//! and prints a table of peak memory against the 300 MB target, with the load average. `--keep`
//! leaves the register and files in place and names them. Needs GNU `/usr/bin/time`.

mod peak;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// The shares the first stage of the sample program left for the Second Stage.
const BLOCK: u64 = 12_886_682;

fn main() {
    let (mut n, mut keep) = (100_000u64, false);
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--keep" => keep = true,
            _ => n = a.parse().expect("N, the number of proposals"),
        }
    }
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/vigia");
    assert!(
        exe.exists(),
        "build the release binary first: cargo build --release"
    );
    let dir = std::env::temp_dir().join(format!("vigia-stage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("stage.db");
    let vigia = |args: &[&str]| {
        let mut c = Command::new(&exe);
        c.arg("--db")
            .arg(&db)
            .arg("--key")
            .arg(dir.join("audit.key"))
            .args(["--officer", "bench", "--lang", "en"])
            .args(args);
        c
    };
    let ok = |args: &[&str]| {
        let o = vigia(args).output().expect("vigia runs");
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let program =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/programs/decreto-3939-2004.toml");
    ok(&["init"]);
    ok(&["program", "add", program.to_str().unwrap()]);
    ok(&[
        "offer",
        "record-external",
        "D3939-2004",
        "--on",
        "2024-03-15",
        "--awarded",
        "74300",
        "--acta",
        "Acta de referencia (benchmark)",
    ]);
    let block = BLOCK.to_string();
    ok(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "2",
        "--shares",
        &block,
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
        // the sample program's validity ended in 2005
        "--reason",
        "benchmark",
    ]);

    // N proposals: distinct bidders and prices (the highest wins: no tie, no draw)
    let mut csv = String::with_capacity(n as usize * 110);
    csv.push_str("Propuesta;Fecha radicación;Proponentes;Beneficiario real;Acciones;Precio por acción;Plazo días;Garantía;Fondos acreditados;Revisión\n");
    for i in 0..n {
        let day = 3 + i % 12;
        let (h, m) = (8 + i % 10, i % 60);
        // the program's minimum price is $ 963: 2 % below it
        let price = if i % 50 == 7 { 900 } else { 1000 + i };
        let guarantee = if i % 100 == 13 { "" } else { "500000000" };
        let _ = writeln!(
            csv,
            "P-{};{day:02}/06/2024 {h:02}:{m:02};CC:{}:Proponente Sintético {};;{BLOCK};{price};0;{guarantee};sí;",
            i + 1,
            2_000_000_000 + i,
            i + 1
        );
    }
    let csv_path = dir.join("propuestas.csv");
    std::fs::write(&csv_path, &csv).unwrap();
    drop(csv);
    eprintln!("generated {n} proposals in {}", dir.display());

    let before = peak::load();
    let file = |name: &str| dir.join(name).display().to_string();
    let (pdf, md, html) = (file("acta.pdf"), file("acta.md"), file("acta.html"));
    let stage = ["D3939-2004", "--stage", "2"];
    let with = |head: &[&'static str], tail: &[&str]| -> Vec<String> {
        head.iter()
            .map(|s| s.to_string())
            .chain(stage.iter().map(|s| s.to_string()))
            .chain(tail.iter().map(|s| s.to_string()))
            .collect()
    };
    let steps: Vec<(String, Vec<String>)> = vec![
        (
            "`proposals import`".into(),
            vec![
                "proposals".into(),
                "import".into(),
                csv_path.display().to_string(),
                "--program".into(),
                "D3939-2004".into(),
                "--stage".into(),
                "2".into(),
            ],
        ),
        (
            "`stage evaluate` (table)".into(),
            with(&["stage", "evaluate"], &[]),
        ),
        (
            "`stage adjudicate --acta FILE.pdf`".into(),
            with(
                &["stage", "adjudicate"],
                &["--on", "2024-06-28", "--acta", &pdf],
            ),
        ),
        (
            "`stage acta --out FILE.md`".into(),
            with(&["stage", "acta"], &["--out", &md]),
        ),
        (
            "`stage acta --out FILE.html`".into(),
            with(&["stage", "acta"], &["--out", &html]),
        ),
        (
            "`stage verify FILE.pdf`".into(),
            vec!["stage".into(), "verify".into(), pdf.clone()],
        ),
        (
            "`stage verify FILE.md`".into(),
            vec!["stage".into(), "verify".into(), md.clone()],
        ),
        (
            "`stage verify FILE.html`".into(),
            vec!["stage".into(), "verify".into(), html.clone()],
        ),
    ];
    let mut peaks = Vec::new();
    for (label, args) in &steps {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        peaks.push(peak::measure(label, &mut vigia(&args), &dir));
    }
    let size = |f: &str| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
    peak::print(
        &format!("stage 2 with {n} proposals: peak memory"),
        &peaks,
        &before,
        &peak::load(),
    );
    println!(
        "acta sizes: PDF {} bytes, Markdown {} bytes, HTML {} bytes",
        size(&pdf),
        size(&md),
        size(&html)
    );
    if keep {
        println!("kept: {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
