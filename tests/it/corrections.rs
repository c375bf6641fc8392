//! Keeping the register right (issue 10): re-imports that merge instead of doubling, and
//! corrections as new entries (voids of adjudications, payments and pledges), never edits. Each
//! test is one case of the issue, run through the real binary.

use crate::common::{HEADER, Reg, out};
use serde_json::Value;

/// `n` holders adjudicated on 2024-03-15, as an officer's list: CC 2000000000.., 100 shares each.
fn holders(n: usize) -> String {
    let mut csv = String::from(HEADER);
    for i in 0..n {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,100,,2024-03-15,,\n",
            2_000_000_000 + i
        ));
    }
    csv
}

fn import(r: &Reg, name: &str, csv: &str) -> std::process::Output {
    let path = r.file(name, csv.as_bytes());
    r.run(&["adjudications", "import", &path, "--program", "D3939-2004"])
}

fn count(r: &Reg, table: &str) -> i64 {
    r.conn()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |x| x.get(0))
        .unwrap()
}

fn list(r: &Reg) -> Vec<Value> {
    r.json(&["adjudications", "list", "--format", "json"])
        .as_array()
        .unwrap()
        .clone()
}

fn codes(r: &Reg, as_of: &str) -> Vec<(String, i64)> {
    let o = r.run(&["check", "--as-of", as_of, "--format", "json"]);
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["adjudication_id"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn breach(r: &Reg) {
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
}

fn pay(r: &Reg, date: &str, amount: &str, reference: &str) -> std::process::Output {
    r.run(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        date,
        "--amount",
        amount,
        "--reference",
        reference,
    ])
}

#[test]
fn reimporting_an_updated_holder_list_adds_only_the_new_holder() {
    let r = Reg::new().with_letterhead();
    let first = import(&r, "lista.csv", &holders(50));
    assert_eq!(first.status.code(), Some(0));
    // the same 50 rows and one new holder: 1 added, 50 unchanged (counted, the first by line)
    let mut updated = holders(50);
    updated.push_str("CC,3000000001,Nueva Titular,natural,pensionado,70,,2024-03-15,,\n");
    let o = r.ok(&[
        "adjudications",
        "import",
        &r.file("lista-actualizada.csv", updated.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert_eq!(
        o,
        "import 2: 1 adjudication(s) added (ids 51..51), 1 new holder(s); read as UTF-8, separator ','\n\
         50 row(s) already registered as they are, unchanged: line 2 (adjudication 1), line 3 (adjudication 2), \
         line 4 (adjudication 3), line 5 (adjudication 4), line 6 (adjudication 5) and 45 more\n"
    );
    let all = list(&r);
    assert_eq!(all.len(), 51, "every holder once");
    assert_eq!(all[50]["doc_number"], "3000000001");
    // the same rows in another order and with the program's price written out: nothing added
    let mut again: Vec<&str> = updated.lines().skip(1).collect();
    again.reverse();
    let again =
        format!("{HEADER}{}\n", again.join("\n")).replace(",,2024-03-15", ",963,2024-03-15");
    let o = r.ok(&[
        "adjudications",
        "import",
        &r.file("otra-vez.csv", again.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        o.starts_with("import 3: 0 adjudication(s) added, 0 new holder(s)")
            && o.contains("51 row(s) already registered as they are, unchanged: line 2 (adjudication 51), line 3 (adjudication 50)"),
        "{o}"
    );
    assert_eq!(list(&r).len(), 51);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn a_reimported_row_that_conflicts_is_refused_saying_what_differs() {
    let r = Reg::new().with_letterhead();
    assert_eq!(import(&r, "lista.csv", &holders(50)).status.code(), Some(0));
    let before = r.dump();
    // line 3: other shares; line 6: another price and a lender; line 52: new, but awarded again
    // on the same date on line 53 (not the same line byte for byte, which the reader reports as
    // a repeated line); the new holder would be added: all or nothing
    let mut csv = holders(50)
        .replace(
            "CC,2000000001,Titular 1,natural,trabajador,100,,",
            "CC,2000000001,Titular 1,natural,trabajador,120,,",
        )
        .replace(
            "CC,2000000004,Titular 4,natural,trabajador,100,,2024-03-15,,",
            "CC,2000000004,Titular 4,natural,trabajador,100,1000,2024-03-15,Banco X,100",
        );
    csv.push_str("CC,3000000001,Nueva,natural,trabajador,5,,2024-03-15,,\n");
    csv.push_str("CC,3000000001,Nueva,natural,trabajador,6,,2024-03-15,,\n");
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file("con-cambios.csv", csv.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    let problems: Vec<&str> = e.lines().skip(1).map(str::trim).collect();
    assert_eq!(
        problems,
        [
            "line 3: shares \"120\": CC 2000000001 on 2024-03-15 is already registered in D3939-2004 as adjudication 2 with other figures (shares 120, registered 100); if the register is right, correct the line; if the file is, void adjudication 2 (`vigia adjudications void 2 --reason TEXT`) and import the file again",
            "line 6: price_per_share \"1000\": CC 2000000004 on 2024-03-15 is already registered in D3939-2004 as adjudication 5 with other figures (price_per_share 1000, registered 963.00; lender Banco X, registered none; financed_shares 100, registered 0); if the register is right, correct the line; if the file is, void adjudication 5 (`vigia adjudications void 5 --reason TEXT`) and import the file again",
            "line 53: adjudicated_on \"2024-03-15\": line 52 of this file already awards CC 3000000001 on 2024-03-15; a holder is awarded once per program and date: keep one line (with the award's total shares)",
        ],
        "{e}"
    );
    assert!(
        e.starts_with("vigia: error: import of ")
            && e.contains("3 problem(s), nothing was written"),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing half-written");
    // another person type for a registered document: one document, one holder
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file(
            "tipo.csv",
            format!("{HEADER}CC,2000000000,Titular 0,legal,sindicato,100,,2024-03-15,,\n")
                .as_bytes(),
        ),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        e.contains("line 2: person_type \"legal\": CC 2000000000 is already registered as a natural person (holder 1"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_voided_adjudication_stays_visible_counts_for_nothing_and_may_be_imported_again() {
    let r = Reg::new().with_letterhead().with_holders();
    // adjudication 3 (the union) was imported with the wrong shares
    assert!(codes(&r, "2024-06-30").contains(&("MISSING_PLEDGE".into(), 3)));
    let e = r.fails(&["adjudications", "void", "3", "--reason", " "]);
    assert!(e.contains("--reason"), "{e}");
    let o = r.ok(&[
        "adjudications",
        "void",
        "3",
        "--reason",
        "Acciones mal digitadas: eran 5.000",
    ]);
    assert!(o.starts_with("adjudication 3 voided (void 1)"), "{o}");
    // visible, with who, when and why
    let a = r.json(&["adjudications", "show", "3", "--format", "json"]);
    let void = a["void"].as_str().unwrap();
    assert!(
        void.contains("by tester: Acciones mal digitadas: eran 5.000"),
        "{void}"
    );
    assert_eq!(list(&r).len(), 3);
    // no figure counts it: the check, a breach, a pledge
    assert!(!codes(&r, "2024-06-30").iter().any(|(_, a)| *a == 3));
    let e = r.fails(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "1",
    ]);
    assert!(
        e.contains("--adjudication 3: was voided on") && e.contains("it is not an award any more"),
        "{e}"
    );
    let e = r.fails(&[
        "pledge",
        "register",
        "3",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    assert!(e.contains("was voided"), "{e}");
    let e = r.fails(&["adjudications", "void", "3", "--reason", "otra vez"]);
    assert!(e.contains("adjudications void 3: already voided on"), "{e}");
    // its award may be imported again, corrected
    let o = r.ok(&[
        "adjudications",
        "import",
        &r.file(
            "corregido.csv",
            format!("{HEADER}NIT,999000001-2,Sindicato de Prueba,legal,sindicato,5000,963.00,2024-03-15,,\n")
                .as_bytes(),
        ),
        "--program",
        "D3939-2004",
    ]);
    assert!(
        o.starts_with("import 2: 1 adjudication(s) added (ids 4..4)"),
        "{o}"
    );
    assert!(codes(&r, "2024-06-30").contains(&("MISSING_PLEDGE".into(), 4)));
    // in the audit chain
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    let log = r.json(&[
        "audit",
        "log",
        "--entity",
        "adjudication_voids",
        "--format",
        "json",
    ]);
    assert_eq!(log[0]["action"], "adjudication.void");
}

#[test]
fn an_adjudication_something_depends_on_cannot_be_voided() {
    let r = Reg::new().with_letterhead().with_holders();
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    let e = r.fails(&["adjudications", "void", "1", "--reason", "error"]);
    assert_eq!(
        e,
        "vigia: error: adjudications void 1: has pledge 1 (rank 1, registered 2024-04-01) in force; void it first \
         if it was registered by mistake (`vigia pledge void ID --reason TEXT`)\n"
    );
    breach(&r);
    let before = r.dump();
    let e = r.fails(&["adjudications", "void", "1", "--reason", "error"]);
    assert_eq!(
        e,
        "vigia: error: adjudications void 1: has breach 1 (sale on 2024-11-20) recorded against it; void them first \
         if they were recorded by mistake (`vigia breach void ID --reason TEXT`)\n"
    );
    assert_eq!(r.dump(), before);
}

#[test]
fn a_payment_twice_or_dated_after_today_is_refused() {
    let r = Reg::new().with_letterhead().with_holders();
    breach(&r);
    assert_eq!(
        pay(&r, "2024-12-15", "500000", "c-1").status.code(),
        Some(0)
    );
    let before = r.dump();
    // the same payment again: refused, saying how to record it if it is a second real one
    let e = r.fails(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "500000.00",
        "--reference",
        "c-1",
    ]);
    assert!(
        e.starts_with("vigia: error: payment 1 of $ 500.000 on 2024-12-15 with the same reference (c-1) is already recorded against breach 1 (by tester at ")
            && e.ends_with("nothing was recorded: a payment entered twice would be counted twice. To correct it, repeat with --allow-duplicate\n"),
        "{e}"
    );
    // a payment dated next year
    let next_year = vigia::calendar::colombia_date(chrono::Utc::now()) + chrono::Days::new(366);
    let e = r.fails(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        &next_year.to_string(),
        "--amount",
        "1",
    ]);
    assert!(
        e.starts_with(&format!(
            "vigia: error: --date {next_year}: is after today ("
        )) && e.contains("record a payment once it has been made"),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // two real payments alike: the officer says so
    let o = r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "500000",
        "--reference",
        "c-1",
        "--allow-duplicate",
    ]);
    assert!(o.starts_with("payment 2:"), "{o}");
    // a different reference is not a duplicate
    assert_eq!(
        pay(&r, "2024-12-15", "500000", "c-2").status.code(),
        Some(0)
    );
}

#[test]
fn a_voided_payment_stays_listed_and_no_figure_counts_it() {
    let r = Reg::new().with_letterhead().with_holders();
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
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
    breach(&r);
    let show = |r: &Reg| {
        r.json(&[
            "fine",
            "show",
            "1",
            "--until",
            "2025-02-10",
            "--format",
            "json",
        ])
    };
    let unpaid = show(&r);
    assert_eq!(unpaid["total_due"], "1143967");
    // a payment typed against the wrong breach, liquidated and notified before it is found
    assert_eq!(
        pay(&r, "2024-12-15", "500000", "c-1").status.code(),
        Some(0)
    );
    assert_eq!(show(&r)["total_due"], "626823");
    let notice = r.dir.path().join("MULTA.md");
    let notice = notice.to_str().unwrap();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "md",
        "--out",
        notice,
    ]);
    let o = r.ok(&[
        "payment",
        "void",
        "1",
        "--reason",
        "Consignación de otro titular",
    ]);
    assert_eq!(
        o,
        "payment 1 voided (void 1); it stays on record and no figure counts it\n"
    );
    // every figure as if it had never been recorded
    assert_eq!(show(&r), unpaid);
    let e = r.fails(&["pledge", "release", "1", "--on", "2026-03-16"]);
    assert!(e.contains("fine of breach 1 is outstanding"), "{e}");
    // still listed, with who, when and why
    let p = r.json(&["payment", "list", "--breach", "1", "--format", "json"]);
    assert_eq!(p[0]["void_reason"], "Consignación de otro titular");
    assert_eq!(p[0]["voided_by"], "tester");
    assert!(p[0]["voided_at"].is_string());
    // the stored liquidation and notice keep their figures; verify says they were superseded
    assert!(r.ok(&["fine", "reproduce", "1"]).contains("$ 626.823"));
    // the notice is genuine, its figures superseded: exit 3, not the 1 of a forgery
    let o = r.run(&["notice", "verify", notice]);
    assert_eq!(o.status.code(), Some(3));
    let text = out(&o);
    assert!(
        text.contains("but no longer in force: superseded: payment 1 voided on "),
        "{text}"
    );
    assert!(
        text.contains("document text and figures: match the register")
            && text.contains("recomputed from the register today: DIFFERENT figures")
            && text.contains("superseded: payment 1 voided on ")
            && text.contains(" by tester: Consignación de otro titular"),
        "{text}"
    );
    let e = r.fails(&["payment", "void", "1", "--reason", "otra vez"]);
    assert!(e.contains("payment void 1: already voided on"), "{e}");
    // the same payment may now be recorded again (the voided one is not a duplicate)
    assert_eq!(
        pay(&r, "2024-12-15", "500000", "c-1").status.code(),
        Some(0)
    );
    assert_eq!(show(&r)["total_due"], "626823");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
    assert_eq!(count(&r, "payment_voids"), 1);
}

#[test]
fn a_pledge_registered_by_mistake_is_voided_but_a_released_one_is_not() {
    let r = Reg::new().with_letterhead().with_holders();
    // rank 1 on the financed adjudication 2 by mistake: the check takes it as in force
    r.ok(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    assert!(!codes(&r, "2024-06-30").contains(&("MISSING_PLEDGE".into(), 2)));
    let o = r.ok(&["pledge", "void", "1", "--reason", "Era de segundo grado"]);
    assert!(o.starts_with("pledge 1 voided (void 1)"), "{o}");
    assert!(codes(&r, "2024-06-30").contains(&("MISSING_PLEDGE".into(), 2)));
    let a = r.json(&["adjudications", "show", "2", "--format", "json"]);
    assert_eq!(a["pledges"][0]["void"], "Era de segundo grado");
    // the right pledge can now be registered
    r.ok(&[
        "pledge",
        "register",
        "2",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    // a released pledge is history
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    r.ok(&["pledge", "release", "1", "--on", "2026-03-16"]);
    let e = r.fails(&["pledge", "void", "3", "--reason", "error"]);
    assert!(
        e.contains("pledge void 3: was released on 2026-03-16; a release is history"),
        "{e}"
    );
    let e = r.fails(&["pledge", "void", "1", "--reason", "error"]);
    assert!(e.contains("pledge void 1: already voided on"), "{e}");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn pledges_import_by_the_holders_document_and_merge_on_reimport() {
    let r = Reg::new().with_letterhead().with_holders();
    // Ana has a second adjudication, on another date
    assert_eq!(
        import(
            &r,
            "segunda.csv",
            &format!("{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,10,,2024-04-15,,\n")
        )
        .status
        .code(),
        Some(0)
    );
    let before = r.dump();
    let ambiguous = "doc_type,doc_number,rank,registered_on\n\
                     CC,1000000002,2,2024-04-01\n\
                     CC,1000000001,1,2024-04-01\n\
                     CC,1000000099,1,2024-04-01\n";
    let e = r.fails(&["pledge", "import", &r.file("p1.csv", ambiguous.as_bytes())]);
    let problems: Vec<&str> = e.lines().skip(1).map(str::trim).collect();
    assert_eq!(
        problems,
        [
            "line 3: doc_number \"1000000001\": CC 1000000001 has 2 adjudications: 1 (D3939-2004, 2024-03-15), 4 (D3939-2004, 2024-04-15); add or fill in the column adjudicated_on (and program, if needed) to say which, or give adjudication_id",
            "line 4: doc_number \"1000000099\": CC 1000000099 has no adjudication in the register (voided ones do not count); check the document, or import the adjudication first",
        ],
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // in Spanish, under a Spanish header: the columns to add by their Spanish headers too
    let ambigua = "Tipo documento;Número de documento;Grado;Fecha inscripción\n\
                   CC;1000000001;1;01/04/2024\n";
    let e = r.fails(&[
        "--lang",
        "es",
        "pledge",
        "import",
        &r.file("p-es.csv", ambigua.as_bytes()),
    ]);
    assert!(
        e.contains(
            "línea 2: Número de documento «1000000001»: CC 1000000001 tiene 2 adjudicaciones: \
             1 (D3939-2004, 15/03/2024), 4 (D3939-2004, 15/04/2024); agregue o llene la columna \
             «Fecha adjudicación» (adjudicated_on) (y «Programa» (program), si hace falta) para \
             decir cuál, o dé la columna «Adjudicación» (adjudication_id)"
        ),
        "{e}"
    );
    assert_eq!(r.dump(), before);
    let good = "doc_type,doc_number,adjudicated_on,rank,registered_on\n\
                CC,1000000002,,2,2024-04-01\n\
                CC,1000000001,2024-04-15,1,2024-04-20\n";
    let o = r.ok(&["pledge", "import", &r.file("p2.csv", good.as_bytes())]);
    assert!(
        o.starts_with("pledge import 1: 2 pledge(s) registered (ids 1..2)"),
        "{o}"
    );
    let a = r.json(&["adjudications", "show", "4", "--format", "json"]);
    assert_eq!(a["pledges"][0]["registered_on"], "2024-04-20");
    let a = r.json(&["adjudications", "show", "2", "--format", "json"]);
    assert_eq!(a["pledges"][0]["lender"], "Banco Ejemplo");
    // the ledger's updated list: the same two rows and a new one; the two are unchanged
    let updated = "doc_type,doc_number,adjudicated_on,rank,registered_on\n\
                   CC,1000000002,,2,2024-04-01\n\
                   CC,1000000001,2024-04-15,1,2024-04-20\n\
                   NIT,999000001-2,,1,2024-04-02\n";
    let o = r.ok(&["pledge", "import", &r.file("p3.csv", updated.as_bytes())]);
    assert_eq!(
        o,
        "pledge import 2: 1 pledge(s) registered (ids 3..3); read as UTF-8, separator ','\n\
         2 row(s) already registered as they are, unchanged: line 2 (pledge 1), line 3 (pledge 2)\n"
    );
    // ... but a different pledge of an adjudication with one in force is still refused
    let e = r.fails(&[
        "pledge",
        "import",
        &r.file(
            "p4.csv",
            b"doc_type,doc_number,adjudicated_on,rank,registered_on\nCC,1000000001,2024-04-15,1,2024-04-21\n",
        ),
    ]);
    assert!(
        e.contains("line 2: adjudication_id \"4\": adjudication 4 already has pledge 2"),
        "{e}"
    );
    // a row that names no adjudication at all
    let e = r.fails(&[
        "pledge",
        "import",
        &r.file("p5.csv", b"rank,registered_on\n1,2024-04-01\n"),
    ]);
    assert!(
        e.contains("line 2: adjudication_id \"\": say which adjudication is pledged: its id, or the holder's doc_type and doc_number"),
        "{e}"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// A fine its payment paid off is liquidated (and kept) as of that payment when the rate of a
/// later day is missing: the stored liquidation says the day it runs to.
#[test]
fn a_paid_off_fine_is_liquidated_to_its_payment_when_a_later_rate_is_missing() {
    let r = Reg::new().with_letterhead().with_holders();
    breach(&r);
    assert_eq!(
        pay(&r, "2025-01-10", "1200000", "c-1").status.code(),
        Some(0)
    );
    // as of a day the embedded series does not certify (it ends on 2026-10-31)
    let shown = r.ok(&["fine", "show", "1", "--until", "2026-12-20"]);
    assert!(
        shown.contains("La multa quedó pagada el 10/01/2025"),
        "{shown}"
    );
    assert!(shown.contains("TOTAL A PAGAR al 10/01/2025:"), "{shown}");
    let kept = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2026-12-20",
        "--format",
        "json",
    ]);
    assert_eq!(kept["total_due"], "0", "{kept}");
    let until: String = r
        .conn()
        .query_row("SELECT until FROM liquidations", [], |x| x.get(0))
        .unwrap();
    assert_eq!(until, "2025-01-10");
}

#[test]
fn a_reimport_in_stored_order_with_a_row_added_and_one_left_out_adds_only_the_new_one() {
    let r = Reg::new().with_letterhead();
    assert_eq!(
        import(&r, "lista.csv", &holders(200)).status.code(),
        Some(0)
    );
    // the list exported again: Titular 99 left out, a new holder among the first rows; every
    // other row is read beside the register's awards in stored order (issue 23)
    let mut lines: Vec<String> = holders(200).lines().map(String::from).collect();
    lines.remove(100);
    lines.insert(
        50,
        "CC,3000000001,Nueva Titular,natural,pensionado,70,,2024-03-15,,".into(),
    );
    let o = r.ok(&[
        "adjudications",
        "import",
        &r.file(
            "exportada-otra-vez.csv",
            (lines.join("\n") + "\n").as_bytes(),
        ),
        "--program",
        "D3939-2004",
    ]);
    assert_eq!(
        o,
        "import 2: 1 adjudication(s) added (ids 201..201), 1 new holder(s); read as UTF-8, separator ','\n\
         199 row(s) already registered as they are, unchanged: line 2 (adjudication 1), line 3 (adjudication 2), \
         line 4 (adjudication 3), line 5 (adjudication 4), line 6 (adjudication 5) and 194 more\n"
    );
    assert_eq!(count(&r, "adjudications"), 201);
    assert_eq!(count(&r, "holders"), 201);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn a_large_first_import_builds_the_index_on_names_again_and_a_refused_one_leaves_it() {
    let r = Reg::new().with_letterhead();
    let index = |r: &Reg| -> Option<String> {
        r.conn()
            .query_row(
                "SELECT sql FROM sqlite_master WHERE name = 'holders_name_nocase'",
                [],
                |x| x.get(0),
            )
            .ok()
    };
    let sql = Some("CREATE INDEX holders_name_nocase ON holders(name COLLATE NOCASE)".to_string());
    assert_eq!(index(&r), sql);
    // more new holders than the register held (and than 16,384): the index on their names is
    // set aside while they are stored; a bad last row refuses the file, and with it the drop
    let mut bad = holders(20_000);
    bad.push_str("CC,3000000001,Mala,natural,trabajador,0,,2024-03-15,,\n");
    let e = r.fails(&[
        "adjudications",
        "import",
        &r.file("mala.csv", bad.as_bytes()),
        "--program",
        "D3939-2004",
    ]);
    assert!(e.contains("line 20002: shares"), "{e}");
    assert_eq!(count(&r, "holders"), 0);
    assert_eq!(index(&r), sql, "rolled back with the import");
    assert_eq!(
        import(&r, "lista.csv", &holders(20_000)).status.code(),
        Some(0)
    );
    assert_eq!(count(&r, "holders"), 20_000);
    assert_eq!(index(&r), sql, "built again from the same SQL");
    let plan: String = r
        .conn()
        .query_row(
            "EXPLAIN QUERY PLAN SELECT id FROM holders WHERE name >= 'titular 19' COLLATE NOCASE
             AND name < 'titular 1:' COLLATE NOCASE ORDER BY name COLLATE NOCASE",
            [],
            |x| x.get(3),
        )
        .unwrap();
    assert!(plan.contains("holders_name_nocase"), "{plan}");
    // every name is in it: counted through the index alone
    let named: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM holders INDEXED BY holders_name_nocase
             WHERE name >= 'titular 1' COLLATE NOCASE AND name < 'titular 2' COLLATE NOCASE",
            [],
            |x| x.get(0),
        )
        .unwrap();
    // Titular 1, 10..19, 100..199, 1000..1999, 10000..19999
    assert_eq!(named, 1 + 10 + 100 + 1000 + 10_000);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

/// The imports read which adjudications are void once, not award by award (issue 23): a pledge
/// file naming a voided award among others is still refused for it, with nothing written, and a
/// re-import passes over a voided award in the middle of the stored ones, adding its row again
/// and finding the awards after it unchanged.
#[test]
fn imports_pass_over_a_voided_award_between_others() {
    let r = Reg::new().with_holders();
    r.ok(&["adjudications", "void", "2", "--reason", "duplicada"]);
    let before = r.dump();
    let pledges = "adjudication_id,rank,registered_on\n\
                   1,1,2024-04-01\n\
                   2,1,2024-04-01\n\
                   3,1,2024-04-01\n";
    let e = r.fails(&[
        "pledge",
        "import",
        &r.file("prendas.csv", pledges.as_bytes()),
    ]);
    let problems: Vec<&str> = e.lines().skip(1).map(str::trim).collect();
    assert_eq!(
        problems,
        [
            "line 3: adjudication_id \"2\": was voided; it is not an award any more and takes no pledge"
        ],
        "{e}"
    );
    assert_eq!(r.dump(), before);
    // the holders' file again (a blank line added: another file): Luis's award was voided, so
    // his row is an award again (4); Ana's before it and the union's after it are unchanged
    let csv = format!(
        "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,1000,,2024-03-15,,\n\
         CC,1000000002,Luis Prueba,natural,pensionado,2500,,2024-03-15,Banco Ejemplo,2500\n\
         NIT,999000001-2,Sindicato de Prueba,legal,sindicato,50000,963.00,2024-03-15,,\n\n"
    );
    let o = import(&r, "otra-vez.csv", &csv);
    let said = out(&o);
    assert!(o.status.success(), "{said}");
    assert!(
        said.starts_with("import 2: 1 adjudication(s) added (ids 4..4)"),
        "{said}"
    );
    assert!(
        said.contains(
            "2 row(s) already registered as they are, unchanged: line 2 (adjudication 1), line 4 (adjudication 3)"
        ),
        "{said}"
    );
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}
