//! The seeds' shipped first-stage programs (issue 27), each registered by its code, a small
//! offering run under its rules and a breach fined under its fine article, every figure worked by
//! hand from the seed's words (../shared/seeds/000, 001, 003).

use crate::common::Reg;
use serde_json::Value;

const HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,\
files_tax_return,patrimonio_liquido,income,income_financial_statements,investment_limit,patrimonio_ajustado,\
declarations,review\n";

/// A register with the shipped program `code`, its offer open from Monday 2024-01-15 (the
/// earliest close, two months from Tuesday 16: Saturday 2024-03-16 → Monday 18) and `rows`
/// imported; the adjudication of 2024-03-20 as JSON (written when `write`).
fn offering(code: &str, rows: &str) -> (Reg, Value) {
    let r = Reg::new();
    assert!(r.ok(&["program", "add", code]).contains(code));
    r.ok(&[
        "offer",
        "open",
        code,
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
    ]);
    let csv = r.file("acc.csv", format!("{HEADER}{rows}").as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", code]);
    let v = r.json(&[
        "offer",
        "adjudicate",
        code,
        "--on",
        "2024-03-20",
        "--format",
        "json",
    ]);
    (r, v)
}

/// (doc_number, admitted, awarded, cause) per person, in filing order.
fn outcomes(v: &Value) -> Vec<(String, u64, u64, String)> {
    v["acceptances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["doc_number"].as_str().unwrap().to_string(),
                a["admitted"].as_u64().unwrap(),
                a["awarded"].as_u64().unwrap(),
                a["cause"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn row(d: &str, admitted: u64, awarded: u64, cause: &str) -> (String, u64, u64, String) {
    (d.to_string(), admitted, awarded, cause.to_string())
}

/// The adjudication id of the holder `doc` in `code`.
fn adjudication_of(r: &Reg, code: &str, doc: &str) -> String {
    let adj = r.json(&[
        "adjudications",
        "list",
        "--program",
        code,
        "--format",
        "json",
    ]);
    adj.as_array()
        .unwrap()
        .iter()
        .find(|a| a["doc_number"] == doc)
        .map(|a| a["id"].to_string())
        .unwrap()
}

/// Records a sale of `shares` on `date` at `price` per share by `doc` and returns its fine's
/// principal as `fine show --until` the breach day gives it (no day of interest yet).
fn fine_principal(r: &Reg, code: &str, doc: &str, date: &str, shares: &str, price: &str) -> Value {
    let adj = adjudication_of(r, code, doc);
    let out = r.ok(&[
        "breach",
        "record",
        "--adjudication",
        &adj,
        "--kind",
        "sale",
        "--date",
        date,
        "--shares",
        shares,
        "--consideration-per-share",
        price,
    ]);
    let id = out
        .split_whitespace()
        .find_map(|w| w.parse::<u64>().ok())
        .unwrap()
        .to_string();
    let v = r.json(&["fine", "show", &id, "--until", date, "--format", "json"]);
    v["principal"].clone()
}

#[test]
fn ebsa_2010_caps_a_legal_person_at_five_times_the_least_income_of_its_two_documents() {
    // Seed 003, fixed price $1.000 (an example figure of the program file). The union: num. 3
    // limit 1.000.000.000 / 1.000 = 1.000.000 shares; num. 4 1 × ajustado 500.000.000 →
    // 500.000; num. 5 five times the least of (a) the return's 40.000.000 and (b) the
    // statements' 30.000.000 = 150.000.000 → 150.000; num. 6 122.122.301: the least is num. 5's
    // 150.000 (it asked 200.000: "se entenderá presentada" for 150.000). The cooperative lacks
    // document (b): information not supplied. The fund lacks num. 3's certificate: the
    // program's own cause. The worker: 3 × 100.000.000 / 1.000 = 300.000 ≥ 1.000 asked.
    // Demand 150.000 + 1.000 ≤ the offer: each gets what was admitted.
    let (r, v) = offering(
        "EBSA-2010",
        "\
2024-01-16,NIT,999000001-2,Sindicato EBSA,legal,sindicato,200000,,si,,40000000,30000000,1000000000,500000000,si,
2024-01-17,NIT,999000002-1,Cooperativa Sin Estados,legal,cooperativa,1000,,si,,40000000,,1000000000,500000000,si,
2024-01-18,NIT,999000003-7,Fondo Sin Certificado,legal,fondo-empleados,1000,,si,,40000000,30000000,1000000000,500000000,si,sin_certificado_limites
2024-01-19,CC,1000000001,Ana Trabajadora,natural,trabajador,1000,,si,100000000,,,,,si,
",
    );
    assert_eq!(
        outcomes(&v),
        vec![
            row("999000001-2", 150_000, 150_000, ""),
            row("999000002-1", 0, 0, "INFO_NOT_SUPPLIED"),
            row("999000003-7", 0, 0, "SIN_CERTIFICADO_LIMITES"),
            row("1000000001", 1_000, 1_000, ""),
        ]
    );
    assert_eq!(
        v["acceptances"][0]["cap_rule"],
        "EBSA 2010, numeral 5: cinco veces los ingresos anuales (a) y (b)"
    );
    assert_eq!(v["acceptances"][0]["cap_shares"], 150_000);
    // the acta words the program's cause with its numeral
    let path = r.dir.path().join("acta.md");
    r.ok(&[
        "offer",
        "acta",
        "EBSA-2010",
        "--out",
        path.to_str().unwrap(),
    ]);
    let acta = std::fs::read_to_string(&path).unwrap();
    assert!(
        acta.contains("certificado del revisor fiscal") && acta.contains("(numeral 3)"),
        "{acta}"
    );
    // a sale of 10.000 shares at $1.200 on 2024-05-20, within six months of the award (100 %):
    // the highest of acquisition $1.000 and transfer $1.200 → 10.000 × 1.200 = $12.000.000
    let principal = fine_principal(
        &r,
        "EBSA-2010",
        "999000001-2",
        "2024-05-20",
        "10000",
        "1200",
    );
    assert_eq!(principal, "12000000");
}

#[test]
fn semilla_001_records_the_reglamentos_own_cause_and_prorates_the_rest() {
    // Seed 001, 1.000.000 shares at $1.000 (example figures); each worker's cap 3 ×
    // 1.000.000.000 / 1.000 = 3.000.000 never binds. Demand 600.000 + 500.000 + 400.000 =
    // 1.500.000 > 1.000.000: the one refusing reduction is set aside, the cause (v) filing
    // ("las demás que sean establecidas en el Reglamento") rejected; the program's rule
    // (nearest-adjust, an example of the reglamento's mechanism) shares the offer among
    // 1.100.000: 600.000/1.1 = 545.454,54… → 545.455; 500.000/1.1 = 454.545,45… → 454.545; sum
    // 1.000.000, nothing to adjust.
    let (r, v) = offering(
        "SEMILLA-001",
        "\
2024-01-16,CC,1000000001,Ana,natural,trabajador,600000,,si,1000000000,,,,,si,
2024-01-17,CC,1000000002,Beto,natural,trabajador,500000,si,si,1000000000,,,,,si,
2024-01-18,CC,1000000003,Carla,natural,pensionado,400000,no,si,1000000000,,,,,si,
2024-01-19,CC,1000000004,Dora,natural,trabajador,100,,si,1000000000,,,,,si,OTRA_CAUSAL
",
    );
    assert_eq!(
        outcomes(&v),
        vec![
            row("1000000001", 600_000, 545_455, ""),
            row("1000000002", 500_000, 454_545, ""),
            row("1000000003", 400_000, 0, "REFUSED_REDUCTION"),
            row("1000000004", 0, 0, "OTRA_CAUSAL"),
        ]
    );
    // the table's legend says what the program's own cause is
    let fresh = Reg::new();
    fresh.ok(&["program", "add", "SEMILLA-001"]);
    fresh.ok(&[
        "offer",
        "open",
        "SEMILLA-001",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
    ]);
    let csv = fresh.file(
        "acc.csv",
        format!("{HEADER}2024-01-19,CC,1000000004,Dora,natural,trabajador,100,,si,1000000000,,,,,si,OTRA_CAUSAL\n")
            .as_bytes(),
    );
    fresh.ok(&["acceptances", "import", &csv, "--program", "SEMILLA-001"]);
    let table = fresh.ok(&[
        "offer",
        "adjudicate",
        "SEMILLA-001",
        "--on",
        "2024-03-20",
        "--dry-run",
    ]);
    assert!(
        table.contains(
            "OTRA_CAUSAL: otra causal de rechazo establecida en el Reglamento de Primera Etapa \
             (Reglamento de Primera Etapa, causal (v) del artículo de adjudicación)"
        ),
        "{table}"
    );
    let path = r.dir.path().join("acta.md");
    r.ok(&[
        "offer",
        "acta",
        "SEMILLA-001",
        "--out",
        path.to_str().unwrap(),
    ]);
    let acta = std::fs::read_to_string(&path).unwrap();
    assert!(
        acta.contains("otra causal de rechazo establecida en el Reglamento de Primera Etapa"),
        "{acta}"
    );
    // the acta cites the program's own articles, never Decreto 3939's
    for own in [
        "a los montos máximos de los artículos 8 y 9",
        "(regla (ii) del artículo de adjudicación; mecanismo de prorrateo del Reglamento de Primera Etapa)",
        "no aceptó la reducción y la demanda superó la oferta (mecanismo de prorrateo del Reglamento de Primera Etapa (EJEMPLO))",
    ] {
        assert!(acta.contains(own), "{own} in {acta}");
    }
    for decreto_3939 in [
        "artículos 7 y 8",
        "Decreto 3939 de 2004, artículo 12",
        "art. 12, num. 2",
    ] {
        assert!(!acta.contains(decreto_3939), "{decreto_3939} in {acta}");
    }
    // the fine of its art. 10: a sale of 1.000 shares at $900 on 2024-12-01, in the second
    // bracket (2024-09-20 < d ≤ 2025-03-20: 75 %); the highest of $1.000 and $900 is the
    // acquisition: 1.000 × 1.000 × 75 % = $750.000
    let principal = fine_principal(&r, "SEMILLA-001", "1000000001", "2024-12-01", "1000", "900");
    assert_eq!(principal, "750000");
    // Decreto 3939 has no such cause: the same file is refused there, naming the column
    let d = r.file(
        "d.csv",
        format!("{HEADER}2024-01-19,CC,1000000004,Dora,natural,trabajador,100,,si,1000000000,,,,,si,OTRA_CAUSAL\n")
            .as_bytes(),
    );
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
        "--reason",
        "caso de prueba fuera de la vigencia",
    ]);
    let e = r.fails(&["acceptances", "import", &d, "--program", "D3939-2004"]);
    assert!(e.contains("review") && e.contains("OTRA_CAUSAL"), "{e}");
}

#[test]
fn semilla_000_gives_the_fractions_leftover_to_the_smallest_award() {
    // Seed 000, 1.000.000 shares at $1.000 (example figures). Demand 700.001 + 500.000 + 300.000
    // = 1.500.001 > 1.000.000 (the reglamento's cause sets the fourth aside): "a prorrata, en
    // forma directamente proporcional", floors 466.667 (466.667,02…), 333.333 (333.333,11…),
    // 199.999 (199.999,86…) = 999.999; the one share left "al aceptante al cual se le hubiere
    // adjudicado el menor número de acciones": the third, 200.000.
    let (r, v) = offering(
        "SEMILLA-000",
        "\
2024-01-16,CC,1000000001,Ana,natural,trabajador,700001,,si,1000000000,,,,,si,
2024-01-17,CC,1000000002,Beto,natural,trabajador,500000,,si,1000000000,,,,,si,
2024-01-18,CC,1000000003,Carla,natural,pensionado,300000,,si,1000000000,,,,,si,
2024-01-19,CC,1000000004,Dora,natural,trabajador,100,,si,1000000000,,,,,si,causal_reglamento
",
    );
    assert_eq!(
        outcomes(&v),
        vec![
            row("1000000001", 700_001, 466_667, ""),
            row("1000000002", 500_000, 333_333, ""),
            row("1000000003", 300_000, 200_000, ""),
            row("1000000004", 0, 0, "CAUSAL_REGLAMENTO"),
        ]
    );
    assert_eq!(v["leftover"], 0);
    // the fine of its art. 4: 100 shares sold at $2.000 on 2024-04-01, within six months
    // (100 %): the transfer's $2.000 beats the $1.000 paid → 100 × 2.000 = $200.000
    let principal = fine_principal(&r, "SEMILLA-000", "1000000003", "2024-04-01", "100", "2000");
    assert_eq!(principal, "200000");
}
