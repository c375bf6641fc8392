//! The first-stage offering (issue 15; Decreto 3939 de 2004 Arts. 4, 7, 8, 12; seeds 000 and
//! 003): the window, the acceptances import, the adjudication under each proration rule worked
//! by hand, the refusal of a second run, and the acta rendered and verified.

use crate::common::Reg;
use serde_json::Value;

const TEST_PROGRAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/programs/ebsa-2010-test.toml"
);

const HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,\
files_tax_return,patrimonio_liquido,income,investment_limit,patrimonio_ajustado,declarations,review,lender,financed_shares\n";

/// The worked example (offer 10). Natural persons file a return with a patrimonio líquido of
/// $100.000.000 (cap 311.526 shares: never binds here). The union (NIT) is capped by seed 003:
/// limit 5.000.000 / 963 → 5.192; 1 × ajustado 2.000 / 963 → 2; 5 × income 10.000 / 963 → 51;
/// 122.122.301 shares: the least is 2.
const ACCEPTANCES: &str = "\
2024-01-16 08:00,CC,1000000001,Uno Prueba,natural,trabajador,1,,si,100000000,,,,si,,,
2024-01-16 09:00,CC,1000000002,Dos Prueba,natural,trabajador,13,,si,100000000,,,,si,,Banco Ejemplo,13
2024-01-17,CC,1000000003,Tres Prueba,natural,pensionado,6,si,si,100000000,,,,si,,,
2024-01-18,NIT,999000001-2,Sindicato de Prueba,legal,sindicato,100,,no,,10000,5000000,2000,si,,,
2024-01-19,CC,1000000005,Cinco Rehúsa,natural,trabajador,5,no,si,100000000,,,,si,,,
2024-03-19,CC,1000000006,Seis Tarde,natural,trabajador,5,,si,100000000,,,,si,,,
2024-01-20,CC,1000000007,Siete Accionista,natural,accionista,5,,si,100000000,,,,si,,,
2024-01-21,NIT,999000003-7,Fondo Sin Cifras,legal,fondo-empleados,5,,no,,,,,si,,,
2024-01-22,CC,1000000009,Nueve No Pagó,natural,trabajador,5,,si,100000000,,,,si,PRICE_NOT_PAID,,
2024-01-23,CC,1000000010,Diez Sin Declaración,natural,trabajador,5,,si,100000000,,,,,,,
";

/// A fresh register with the program `text` registered and its offer open from 2024-01-15 to
/// 2024-03-18, nothing imported.
pub(crate) fn opened(text: &str) -> Reg {
    let r = Reg::new();
    let program = r.file("program.toml", text.as_bytes());
    r.ok(&["program", "add", &program]);
    r.ok(&[
        "offer",
        "open",
        "EBSA-TEST",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
    ]);
    r
}

/// The acceptances `csv` (its text) imported into `r` and the offer adjudicated on 2024-03-20,
/// its acta written to `acta.pdf`.
pub(crate) fn adjudicated_with_acta(r: &Reg, csv: &str) {
    let csv = r.file("acc.csv", csv.as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    r.ok(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        "acta.pdf",
    ]);
}

/// A register with the test program (`rule` as its proration) and its offer open from
/// 2024-01-15 to 2024-03-18, the acceptances imported.
pub(crate) fn offer(rule: &str) -> Reg {
    let text = std::fs::read_to_string(TEST_PROGRAM)
        .unwrap()
        .replace("floor-leftover-to-smallest", rule);
    let r = opened(&text);
    let csv = r.file("acc.csv", format!("{HEADER}{ACCEPTANCES}").as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    r
}

fn dry(r: &Reg) -> Value {
    r.json(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--dry-run",
        "--format",
        "json",
    ])
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

fn expected(awards: [u64; 4]) -> Vec<(String, u64, u64, String)> {
    let row = |d: &str, adm: u64, aw: u64, c: &str| (d.to_string(), adm, aw, c.to_string());
    vec![
        row("1000000001", 1, awards[0], ""),
        row("1000000002", 13, awards[1], ""),
        row("1000000003", 6, awards[2], ""),
        row("999000001-2", 2, awards[3], ""),
        row("1000000005", 5, 0, "REFUSED_REDUCTION"),
        row("1000000007", 0, 0, "NOT_ELIGIBLE"),
        row("999000003-7", 0, 0, "INFO_NOT_SUPPLIED"),
        row("1000000009", 0, 0, "PRICE_NOT_PAID"),
        row("1000000010", 0, 0, "NO_DECLARATIONS"),
        row("1000000006", 0, 0, "LATE"),
    ]
}

#[test]
fn seed_000s_floor_rule_worked_by_hand() {
    // Demand of the valid acceptances: 1 + 13 + 6 + 2 + 5 = 27 > 10, so the refuser (5) is set
    // aside and 22 share the 10: quotas 10/22 = 0.45, 130/22 = 5.91, 60/22 = 2.73, 20/22 = 0.91;
    // floors 0, 5, 2, 0 = 7; the 3 left go to the smallest positive award (2: the third), which
    // has room for them (admitted 6) → 0, 5, 5, 0.
    let r = offer("floor-leftover-to-smallest");
    let v = dry(&r);
    assert_eq!(outcomes(&v), expected([0, 5, 5, 0]));
    assert_eq!(
        (
            &v["offered"],
            &v["demand"],
            &v["awarded"],
            &v["leftover"],
            &v["oversubscribed"]
        ),
        (
            &Value::from(10),
            &Value::from(27),
            &Value::from(10),
            &Value::from(0),
            &Value::from(true)
        )
    );
    assert_eq!(v["rule"], "floor-leftover-to-smallest");
    assert_eq!(v["acceptances"][1]["quota"], "5 + 20/22");
    assert_eq!(v["acceptances"][3]["cap_shares"], 2);
    assert_eq!(
        v["acceptances"][3]["cap_rule"],
        "Semilla 003, una vez el patrimonio ajustado"
    );
    assert_eq!(v["acceptances"][4]["status"], "rejected");
}

#[test]
fn decreto_3939s_nearest_adjust_worked_by_hand() {
    // The same quotas rounded to the nearest share: 0, 6, 3, 1 = 10, the offer: nothing to adjust.
    let r = offer("nearest-adjust");
    let v = dry(&r);
    assert_eq!(outcomes(&v), expected([0, 6, 3, 1]));
    assert_eq!(v["rule"], "nearest-adjust");
}

#[test]
fn the_run_writes_the_awards_once_and_a_second_run_is_refused() {
    let r = offer("floor-leftover-to-smallest");
    // before the run every acceptance is pending: the Spanish list says «pendiente», and the word
    // it prints selects them as `pending` does
    let all = r.json(&["acceptances", "list", "--format", "json"]);
    let n = all.as_array().unwrap().len();
    assert!(n > 0);
    for typed in ["pending", "pendiente", "Pendiente"] {
        let listed = r.json(&[
            "--lang",
            "es",
            "acceptances",
            "list",
            "--status",
            typed,
            "--format",
            "json",
        ]);
        assert_eq!(listed.as_array().unwrap().len(), n, "{typed}");
    }
    let table = r.ok(&["--lang", "es", "acceptances", "list"]);
    assert!(
        table.contains("pendiente") && !table.contains("pending"),
        "{table}"
    );
    let before = r.dump();
    let preview = dry(&r);
    assert_eq!(r.dump(), before, "a dry run writes nothing");
    let v = r.json(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--format",
        "json",
    ]);
    assert_eq!(v["run"], 1);
    assert_eq!(
        v["fingerprint"], preview["fingerprint"],
        "the dry run's result is the run's"
    );
    let adj = r.json(&[
        "adjudications",
        "list",
        "--program",
        "EBSA-TEST",
        "--format",
        "json",
    ]);
    let awarded: Vec<(String, u64, String)> = adj
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["doc_number"].as_str().unwrap().into(),
                a["shares"].as_u64().unwrap(),
                a["adjudicated_on"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        awarded,
        [
            ("1000000002".to_string(), 5, "2024-03-20".to_string()),
            ("1000000003".to_string(), 5, "2024-03-20".to_string())
        ]
    );
    // the lender and its financed shares follow the award, never above it
    assert_eq!(adj[0]["lender"], "Banco Ejemplo");
    assert_eq!(adj[0]["financed_shares"], 5);
    assert!(r.ok(&["audit", "verify"]).starts_with("audit trail intact"));
    // the outcomes were written with SQLite's foreign-key checks off (the writer checks them):
    // every reference resolves, each outcome to its person's acceptance and award, in filing
    // order
    let conn = r.conn();
    let broken: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(broken, 0);
    let mut stmt = conn
        .prepare(
            "SELECT a.doc_number, o.awarded, d.shares FROM offering_outcomes o
             JOIN acceptances a ON a.id = o.acceptance_id
             LEFT JOIN adjudications d ON d.id = o.adjudication_id ORDER BY o.seq",
        )
        .unwrap();
    let linked: Vec<(String, i64, Option<i64>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let want: Vec<(String, i64, Option<i64>)> = expected([0, 5, 5, 0])
        .into_iter()
        .map(|(doc, _, awarded, _)| {
            let awarded = i64::try_from(awarded).unwrap();
            (doc, awarded, (awarded > 0).then_some(awarded))
        })
        .collect();
    assert_eq!(linked, want);
    let after = r.dump();
    let e = r.fails(&["offer", "adjudicate", "EBSA-TEST", "--on", "2024-03-21"]);
    assert!(e.contains("en una sola oportunidad"), "{e}");
    assert_eq!(r.dump(), after, "the refused run wrote nothing");
    // and no acceptance can join an adjudicated offer
    let late = r.file(
        "late.csv",
        format!("{HEADER}2024-01-16,CC,1000000011,Once,natural,trabajador,1,,si,1,,,,si,,,\n")
            .as_bytes(),
    );
    let e = r.fails(&["acceptances", "import", &late, "--program", "EBSA-TEST"]);
    assert!(e.contains("adjudicated on 2024-03-20"), "{e}");
    let listed = r.json(&[
        "acceptances",
        "list",
        "--status",
        "rejected",
        "--format",
        "json",
    ]);
    assert_eq!(listed.as_array().unwrap().len(), 6);
    let listed = r.json(&[
        "--lang",
        "es",
        "acceptances",
        "list",
        "--status",
        "rechazada",
        "--format",
        "json",
    ]);
    assert_eq!(
        listed.as_array().unwrap().len(),
        6,
        "«rechazada» as the list prints it"
    );
}

#[test]
fn an_acta_path_that_cannot_be_written_refuses_the_run_with_nothing_stored() {
    // the acta is rendered after the commit, from the stored run; its file is reserved inside
    // the transaction, so a directory that does not exist refuses before the run is stored
    let r = offer("floor-leftover-to-smallest");
    let missing = r.dir.path().join("no-such-dir").join("acta.md");
    let before = r.dump();
    let e = r.fails(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        missing.to_str().unwrap(),
    ]);
    assert!(e.contains("--acta") && e.contains("no-such-dir"), "{e}");
    assert_eq!(r.dump(), before, "the register changed");
    std::fs::create_dir(missing.parent().unwrap()).unwrap();
    let out = r.ok(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        missing.to_str().unwrap(),
    ]);
    assert!(out.contains("acta -> "), "{out}");
    // the streamed Markdown acta is the one `offer acta` writes again, and it verifies
    let again = r.dir.path().join("again.md");
    r.ok(&[
        "offer",
        "acta",
        "EBSA-TEST",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&missing).unwrap(),
        std::fs::read(&again).unwrap()
    );
    let v = r.ok(&["offer", "verify", missing.to_str().unwrap()]);
    assert!(v.starts_with("verified: acta of adjudication 1"), "{v}");
}

#[test]
fn the_acta_renders_in_three_formats_and_verifies() {
    let r = offer("floor-leftover-to-smallest");
    let pdf = r.dir.path().join("acta.pdf");
    let out = r.ok(&[
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
        pdf.to_str().unwrap(),
    ]);
    assert!(out.contains("acta -> "), "{out}");
    for ext in ["md", "html"] {
        let p = r.dir.path().join(format!("acta.{ext}"));
        r.ok(&["offer", "acta", "EBSA-TEST", "--out", p.to_str().unwrap()]);
    }
    for ext in ["pdf", "md", "html"] {
        let p = r.dir.path().join(format!("acta.{ext}"));
        let v = r.ok(&["offer", "verify", p.to_str().unwrap()]);
        assert!(
            v.starts_with("verified: acta of adjudication 1 of EBSA-TEST"),
            "{ext}: {v}"
        );
    }
    let md = std::fs::read_to_string(r.dir.path().join("acta.md")).unwrap();
    for text in [
        "Acta de adjudicación de la Primera Etapa",
        "Programa: EBSA-TEST",
        "Adjudicación N.º 1",
        "| Sobrantes, que pasan a la Segunda Etapa | 0 |",
        "Rechazada: REFUSED_REDUCTION",
        "15 de enero de 2024",
    ] {
        assert!(md.contains(text), "{text}\n{md}");
    }
    // an acta whose figures were changed does not verify
    let forged = md.replace("| 5 + 20/22 |", "| 6 + 20/22 |");
    assert_ne!(forged, md);
    let f = r.file("forged.md", forged.as_bytes());
    // named on its line of the file, blank lines counted
    let line = md
        .lines()
        .position(|l| l.contains("| 5 + 20/22 |"))
        .unwrap()
        + 1;
    let o = r.run(&["offer", "verify", &f]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with(&format!(
            "NOT VERIFIED: at line {line} of the file the document says "
        )) && v.contains("6 + 20/22")
            && v.contains("5 + 20/22"),
        "{v}"
    );
    // another kind of document is said as such (exit 2), never as a forged acta
    let notice = r.file(
        "aviso.md",
        "Administradora de la Enajenación\n# NOTIFICACIÓN DE MULTA No. MULTA-2025-0001\nPrograma: EBSA-TEST\n"
            .as_bytes(),
    );
    let o = r.run(&["offer", "verify", &notice]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        crate::common::err(&o).contains("not a first-stage acta written by vigia")
            && crate::common::err(&o).contains("`vigia notice verify`"),
        "{}",
        crate::common::err(&o)
    );
    // in Spanish, the same difference in Spanish words, the lines quoted with «»
    let o = r.run(&["--lang", "es", "offer", "verify", &f]);
    assert_eq!(o.status.code(), Some(1));
    let v = crate::common::out(&o);
    assert!(
        v.starts_with(&format!(
            "NO VERIFICADO: en la línea {line} del archivo, el documento dice «"
        )) && v.contains("6 + 20/22")
            && v.contains("»; el registro da «")
            && v.contains("5 + 20/22"),
        "{v}"
    );
}

#[test]
fn the_window_is_at_least_two_months_from_the_business_day_after_the_notice() {
    let r = Reg::new();
    // notice Monday 2024-01-15 → counted from Tuesday 16 → 2024-03-16, a Saturday → Monday 18
    let e = r.fails(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-15",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(
        e.contains("--closes 2024-03-15")
            && e.contains("2024-03-18 or later")
            && e.contains("art. 4"),
        "{e}"
    );
    // acceptances need an open offer
    let csv = r.file(
        "a.csv",
        format!("{HEADER}2024-01-16,CC,1000000001,Uno,natural,trabajador,1,,si,1,,,,si,,,\n")
            .as_bytes(),
    );
    let e = r.fails(&["acceptances", "import", &csv, "--program", "D3939-2004"]);
    assert!(e.contains("has no offer yet"), "{e}");
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    let e = r.fails(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-04-18",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    assert!(e.contains("already opened"), "{e}");
    // the adjudication comes after the window
    r.ok(&["acceptances", "import", &csv, "--program", "D3939-2004"]);
    let e = r.fails(&["offer", "adjudicate", "D3939-2004", "--on", "2024-03-18"]);
    assert!(e.starts_with("vigia: error: --on 2024-03-18:"), "{e}");
}

#[test]
fn a_bad_file_names_every_bad_line_and_writes_nothing() {
    let r = Reg::new();
    r.ok(&[
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-15",
        "--closes",
        "2024-03-18",
        "--reason",
        "fictional sale of 2024 under the 2004 decree (tests)",
    ]);
    let before = r.dump();
    let csv = r.file(
        "bad.csv",
        format!(
            "{HEADER}2024-01-16,CC,1000000001,Uno,natural,trabajador,1,,si,1,,,,si,,,\n\
             16/01/24,CC,1000000002,Dos,natural,trabajador,1,,si,1,,,,si,,,\n\
             2024-01-16,CC,1000000003,Tres,natural,trabajador,0,,si,1,,,,si,,,\n\
             2024-01-16,CC,1000000004,Cuatro,natural,trabajador,1,quizá,si,1,,,,si,LATE,,\n\
             2024-01-16,NIT,800197268-5,Cinco,legal,sindicato,1,,no,,,,,si,,,\n\
             2024-01-16,CC,1000000006,Seis,natural,trabajador,5,,si,1.5e3,,,,si,,,7\n"
        )
        .as_bytes(),
    );
    let e = r.fails(&["acceptances", "import", &csv, "--program", "D3939-2004"]);
    for want in [
        "line 3: filed_at \"16/01/24\"",
        "line 4: shares \"0\"",
        "line 5: accepts_reduction \"quizá\"",
        "line 5: review \"LATE\"",
        "line 6: doc_number \"800197268-5\"",
        "line 7: patrimonio_liquido \"1.5e3\"",
        "line 7: financed_shares \"7\"",
        "line 7: lender",
    ] {
        assert!(e.contains(want), "{want}\n{e}");
    }
    assert_eq!(r.dump(), before);
}

/// A PDF acta whose row printed on several lines differs (a name's last word, on the row's
/// last line): `offer verify` quotes the whole row, its lines joined with a space, and names
/// the row's first line. The acta of one register is checked against another's whose only
/// difference is that word.
#[test]
fn a_pdf_actas_row_printed_on_several_lines_is_quoted_whole_at_its_first_line() {
    let name = |last: &str| {
        format!(
            "María de los Ángeles Restrepo Gómez Gómez Gómez Peñaloza Sarmiento Villamizar \
             Castellanos Arango Buitrago Quintero {last}"
        )
    };
    let adjudicated = |last: &str| {
        let r = opened(&std::fs::read_to_string(TEST_PROGRAM).unwrap());
        let rows = ACCEPTANCES.replace("Tres Prueba", &name(last));
        adjudicated_with_acta(&r, &format!("{HEADER}{rows}"));
        r
    };
    let (issued, register) = (adjudicated("Zuluaga"), adjudicated("Zuloaga"));
    let acta = issued.dir.path().join("acta.pdf");
    let o = register.run(&["offer", "verify", acta.to_str().unwrap()]);
    let v = crate::common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{v}");
    // the row as the issued acta prints it, read back page by page: from the line with the
    // person's place and the name's first words to the one the name ends on
    let pages = vigia::report::pdf::extract_pages(&std::fs::read(&acta).unwrap()).unwrap();
    let (page, lines) = pages
        .iter()
        .map(|p| {
            p.lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
        })
        .enumerate()
        .find(|(_, lines)| lines.iter().any(|l| l.starts_with("3 | CC | María")))
        .unwrap();
    let first = lines
        .iter()
        .position(|l| l.starts_with("3 | CC | María"))
        .unwrap();
    let last = (first..lines.len())
        .find(|&k| lines[k].ends_with("Zuluaga"))
        .unwrap();
    assert!(last > first, "the row takes several lines: {lines:?}");
    let row = lines[first..=last].join(" ");
    assert_eq!(
        v,
        format!(
            "NOT VERIFIED: at page {}, line {} the document says {row:?}; the register gives {:?}\n",
            page + 1,
            first + 1,
            row.replace(" Zuluaga", " Zuloaga")
        )
    );
}
