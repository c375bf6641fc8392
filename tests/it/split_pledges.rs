//! Split pledges (Art. 10; LEGAL_NOTES §7.6; issue 20, item 6): when a lender financed part of an
//! adjudication, the financed shares carry the sellers' second-degree pledge and the rest a
//! first-degree one. Every figure worked by hand: adjudication 1 is 1.000 shares adjudicated on
//! 15/03/2024 (lock-up to 15/03/2026), 600 of them financed by Banco Ejemplo.

use crate::common::{HEADER, Reg};
use serde_json::Value;

fn register() -> Reg {
    let r = Reg::new();
    let csv = format!(
        "{HEADER}CC,1000000004,Eva Prueba,natural,trabajador,1000,,2024-03-15,Banco Ejemplo,600\n"
    );
    let path = r.file("financed.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    r
}

fn pledge(r: &Reg, rank: &str, shares: Option<&str>) -> String {
    let mut args = vec![
        "pledge",
        "register",
        "1",
        "--rank",
        rank,
        "--registered-on",
        "01/04/2024",
    ];
    if let Some(n) = shares {
        args.extend(["--shares", n]);
    }
    r.ok(&args)
}

/// (code, reason) of every finding on adjudication 1 as of `as_of`.
fn findings(r: &Reg, as_of: &str) -> Vec<(String, String)> {
    let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
    let v: Value = serde_json::from_str(&crate::common::out(&o)).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["adjudication_id"] == 1)
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_financed_shares_in_the_second_degree_and_the_rest_in_the_first_cover_the_adjudication() {
    let r = register();
    assert!(
        pledge(&r, "2", Some("600"))
            .starts_with("pledge 1: 600 shares of adjudication 1, rank 2, to "),
    );
    // 1.000 − 600 = 400 shares without a pledge during the lock-up
    let found = findings(&r, "2024-06-30");
    assert_eq!(
        found,
        [(
            "MISSING_PLEDGE".to_string(),
            "pledges in force cover 600 of the 1000 shares: 400 shares have no pledge during the \
             lock-up (ends 2026-03-15): register their pledge (Art. 10)"
                .to_string()
        )]
    );
    // without --shares: every share no pledge in force covers, the 400
    assert!(
        pledge(&r, "1", None).starts_with("pledge 2: 400 shares of adjudication 1, rank 1, to "),
    );
    assert_eq!(findings(&r, "2024-06-30"), []);
    // both in force cover the 1.000: not one share more
    let before = r.dump();
    let e = r.fails(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "02/04/2024",
        "--shares",
        "1",
    ]);
    assert_eq!(
        e.trim(),
        "vigia: error: --shares 1: is more than the 0 shares of adjudication 1 that no pledge in \
         force covers (1000 adjudicated; in force: pledge 1: rank 2, 600 shares, registered \
         2024-04-01; pledge 2: rank 1, 400 shares, registered 2024-04-01); the pledges in force \
         together cover at most the shares adjudicated"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn the_second_degree_covers_only_the_financed_shares() {
    let r = register();
    let before = r.dump();
    // 700 in the second degree: 100 of them were not financed
    let e = r.fails(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "2",
        "--registered-on",
        "01/04/2024",
        "--shares",
        "700",
    ]);
    assert!(
        e.starts_with(
            "vigia: error: --shares 700: the lender financed 600 of the 1000 shares of \
             adjudication 1, and second-degree pledges would cover 700;"
        ),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_pledge_file_splits_an_adjudication_between_two_rows() {
    let r = register();
    // the Spanish header of the new column (the refusal names it so), and the count written the
    // es-CO way
    let file = "Adjudicación,Grado,Fecha inscripción,Acciones pignoradas\n\
                1,2,01/04/2024,600\n\
                1,1,01/04/2024,\n\
                1,1,02/04/2024,1\n";
    let e = r.fails(&["pledge", "import", &r.file("p.csv", file.as_bytes())]);
    assert!(
        e.contains(
            "line 4: Acciones pignoradas \"1\": is more than the 0 shares of adjudication 1 that no pledge in \
             force covers (1000 adjudicated; in force: line 2 of this file: rank 2, 600 shares, \
             registered 2024-04-01; line 3 of this file: rank 1, 400 shares, registered \
             2024-04-01)"
        ),
        "{e}"
    );
    let file = "Adjudicación,Grado,Fecha inscripción,Acciones pignoradas\n\
                1,2,01/04/2024,600\n\
                1,1,01/04/2024,\n";
    let out = r.ok(&["pledge", "import", &r.file("p2.csv", file.as_bytes())]);
    assert!(out.contains("2 pledge(s) registered (ids 1..2)"), "{out}");
    let shares: Vec<(i64, i64)> = r
        .conn()
        .prepare("SELECT rank, shares FROM pledges ORDER BY id")
        .unwrap()
        .query_map([], |x| Ok((x.get(0)?, x.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(shares, [(2, 600), (1, 400)]);
    assert_eq!(findings(&r, "2024-06-30"), []);
}

#[test]
fn each_pledge_is_released_and_enforced_on_its_own() {
    let r = register().with_letterhead();
    // SPEC §5's stage price, $ 1.100 (below the transfer's): final, so a paid fine frees the
    // pledge (a provisional one keeps it: README, choices)
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--price",
        "1100",
        "--date",
        "2024-06-28",
    ]);
    pledge(&r, "2", Some("600"));
    pledge(&r, "1", Some("400"));
    // SPEC §5's breach on all 1.000 shares, noticed and delivered on 11/02/2025: overdue by
    // 10/03/2025, owing 1.000 × 1.450 × 75 % = 1.087.500 plus interest at the moratorium rate
    // from 21/11/2024 (7.334 + 21.639 + 20.535 + 19.485 for February's 28 days at 26,30 % +
    // 6.631 for March 1–10 at 24,92 %) = 1.163.124
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    let out = r.dir.path().join("n.md").display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--format",
        "md",
        "--out",
        &out,
        "--reason",
        "test: dated as of the liquidation",
    ]);
    // the notice names both pledges in force, each with its shares and degree
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains(
            "Las acciones están pignoradas en favor de los vendedores (artículo 10): 600 acciones \
             con prenda de segundo grado sin tenencia, inscrita el 1 de abril de 2024 (después de \
             la prenda de primer grado del acreedor financiador, Banco Ejemplo); 400 acciones con \
             prenda de primer grado sin tenencia, inscrita el 1 de abril de 2024."
        ),
        "{text}"
    );
    r.ok(&[
        "notice",
        "delivered",
        "MULTA-2025-0001",
        "--on",
        "2025-02-11",
        "--via",
        "personal",
    ]);
    let found = findings(&r, "2025-03-10");
    let enforceable: Vec<&str> = found
        .iter()
        .filter(|(c, _)| c == "PLEDGE_ENFORCEABLE")
        .map(|(_, why)| why.as_str())
        .collect();
    assert_eq!(
        enforceable,
        [
            "the fine of breach 1 is overdue: pledge 1 (second degree, 600 shares: after the \
             lender's first-degree pledge) secures $ 1.163.124 (Art. 10)",
            "the fine of breach 1 is overdue: pledge 2 (rank 1, 400 shares) secures $ 1.163.124 \
             (Art. 10)",
        ]
    );
    // while the fine is owed neither pledge is released, the one asked for nor all of them
    let e = r.fails(&["pledge", "release", "--pledge", "2", "--on", "16/03/2026"]);
    assert!(e.contains("the fine of breach 1 is outstanding"), "{e}");
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "10/03/2025",
        "--amount",
        "1.163.124",
    ]);
    // paid off: after the lock-up each pledge is releasable, each named with its part
    assert_eq!(
        findings(&r, "2026-03-16"),
        [
            (
                "PLEDGE_RELEASABLE".to_string(),
                "the lock-up ended on 2026-03-15 and no fine is owed: pledge 1 (rank 2, 600 \
                 shares) can be released"
                    .to_string()
            ),
            (
                "PLEDGE_RELEASABLE".to_string(),
                "the lock-up ended on 2026-03-15 and no fine is owed: pledge 2 (rank 1, 400 \
                 shares) can be released"
                    .to_string()
            ),
        ]
    );
    // on the lock-up's last day, not yet
    let e = r.fails(&["pledge", "release", "--pledge", "2", "--on", "15/03/2026"]);
    assert!(
        e.contains("the lock-up of adjudication 1 runs until 2026-03-15"),
        "{e}"
    );
    assert_eq!(
        r.ok(&["pledge", "release", "--pledge", "2", "--on", "16/03/2026"])
            .trim(),
        "released pledge 2 on 2026-03-16 (release id 1)"
    );
    let e = r.fails(&["pledge", "release", "--pledge", "2", "--on", "17/03/2026"]);
    assert!(
        e.contains("--pledge 2: was released on 2026-03-16 already"),
        "{e}"
    );
    // the other one is still in force, alone now; the bulk release takes it
    assert_eq!(
        findings(&r, "2026-03-16"),
        [(
            "PLEDGE_RELEASABLE".to_string(),
            "the lock-up ended on 2026-03-15 and no fine is owed: pledge 1 can be released"
                .to_string()
        )]
    );
    let out = r.ok(&["pledge", "release", "--releasable", "--on", "16/03/2026"]);
    assert!(
        out.contains("released the pledges of 1 adjudication(s)"),
        "{out}"
    );
    assert_eq!(findings(&r, "2026-03-16"), []);
}

#[test]
fn the_holders_page_registers_a_pledge_of_some_shares_and_releases_one_of_several() {
    use crate::web::{Client, PASSWORD, Server, add_user};
    let r = register();
    add_user(&r, "oscar", "oficial");
    let s = Server::start(&r);
    let (mut o, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let pledge = |rank: &'static str, shares: &'static str| {
        vec![
            ("csrf", csrf.as_str()),
            ("adjudication", "1"),
            ("pledge_rank", rank),
            ("registered_on", "01/04/2024"),
            ("lender", ""),
            ("shares", shares),
        ]
    };
    let resp = o.post("/adjudicaciones/1/prendas", &pledge("2", "600"));
    assert_eq!(resp.status, 303, "{}", resp.text());
    // 401 of the 400 left: refused next to the input, nothing written
    let before = r.dump();
    let resp = o.post("/adjudicaciones/1/prendas", &pledge("1", "401"));
    assert_eq!(resp.status, 422);
    let page = resp.text();
    assert!(page.contains("id=\"shares-error\""), "{page}");
    assert!(
        page.contains(
            "supera las 400 acciones de la adjudicación N.º 1 que ninguna prenda vigente cubre"
        ),
        "{page}"
    );
    assert_eq!(r.dump(), before);
    // empty: the 400 left
    let resp = o.post("/adjudicaciones/1/prendas", &pledge("1", ""));
    assert_eq!(resp.status, 303, "{}", resp.text());
    let page = o.get("/titulares/1").text();
    assert!(
        page.contains("Prenda 2 de grado 1 sobre 400 acciones"),
        "{page}"
    );
    assert!(
        page.contains("N.º 1: de grado 2, sobre 600 acciones"),
        "{page}"
    );
    // release only the first-degree one
    let resp = o.post(
        "/adjudicaciones/1/liberar",
        &[
            ("csrf", csrf.as_str()),
            ("adjudication", "1"),
            ("pledge", "2"),
            ("release_date", "16/03/2026"),
        ],
    );
    assert_eq!(resp.status, 303, "{}", resp.text());
    let released: Vec<i64> = r
        .conn()
        .prepare("SELECT pledge_id FROM pledge_releases")
        .unwrap()
        .query_map([], |x| x.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(released, [2]);
}

#[test]
fn the_paz_y_salvo_names_each_pledge_in_force() {
    // SPEC §5's breach (1.000 shares at $ 1.450 on 20/11/2024, 75 %), no later stage, paid the
    // same day: 1.000 × 1.450 × 75 % = $ 1.087.500, no interest. Pledge 1 holds the 600 financed
    // shares in the second degree, pledge 2 the other 400 in the first.
    let r = register().with_letterhead();
    pledge(&r, "2", Some("600"));
    pledge(&r, "1", Some("400"));
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "none",
        "--date",
        "01/07/2024",
    ]);
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "20/11/2024",
        "--amount",
        "1.087.500",
    ]);
    let paz = r.dir.path().join("paz.md").display().to_string();
    r.ok(&[
        "settlement",
        "issue",
        "1",
        "--date",
        "20/11/2024",
        "--format",
        "md",
        "--out",
        &paz,
    ]);
    let text = std::fs::read_to_string(&paz).unwrap();
    assert!(
        text.contains(
            "Las prendas sobre las acciones (N.º 1, de segundo grado sobre 600 acciones; N.º 2, de \
             primer grado sobre 400 acciones; artículo 10 del Decreto 3939 de 2004) se mantienen hasta \
             el fin del período de restricción de negociabilidad"
        ),
        "{text}"
    );
}
