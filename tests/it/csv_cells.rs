//! Issue 11, item 8: every CSV vigia writes treats a cell that a spreadsheet would run as a formula
//! (`=`, `+`, `-`, `@` ...) as text, with a leading `'` — here the `index.csv` of
//! `notice issue --pending` (the check's CSV has its own test in `check.rs`).

use crate::common::{HEADER, Reg};

#[test]
fn the_index_of_a_pending_batch_neutralises_formula_cells() {
    let r = Reg::new().with_letterhead();
    let names = [
        "=HYPERLINK(\"http://evil\",\"Ana\")",
        "@SUM(1+1)",
        "+57 Luis",
        "-1+2",
    ];
    let mut csv = HEADER.to_string();
    for (i, name) in names.iter().enumerate() {
        csv.push_str(&format!(
            "CC,100000000{i},\"{}\",natural,trabajador,1000,,2024-03-15,,\n",
            name.replace('"', "\"\"")
        ));
    }
    let path = r.file("holders.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    for id in 1..=names.len() {
        r.ok(&[
            "breach",
            "record",
            "--adjudication",
            &id.to_string(),
            "--kind",
            "sale",
            "--date",
            "2024-11-20",
            "--shares",
            "10",
            "--consideration-per-share",
            "1450",
        ]);
    }
    let dir = r.dir.path().join("lote");
    r.ok(&[
        "notice",
        "issue",
        "--pending",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "md",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let index = std::fs::read(dir.join("index.csv")).unwrap();
    // csv-excel: after the BOM, `;` between cells, Spanish headers
    let index = index.strip_prefix("\u{feff}".as_bytes()).unwrap().to_vec();
    let csv_excel = || {
        csv::ReaderBuilder::new()
            .delimiter(b';')
            .from_reader(index.as_slice())
    };
    let mut reader = csv_excel();
    let headers = reader.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut written: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[at("Nombre")].to_string())
        .collect();
    written.sort();
    let mut expected: Vec<String> = names.iter().map(|n| format!("'{n}")).collect();
    expected.sort();
    assert_eq!(written, expected, "{}", String::from_utf8_lossy(&index));
    // a plain number stays a number: the totals are not prefixed
    for record in csv_excel().records() {
        let total = record.unwrap()[at("Total a pagar")].to_string();
        assert!(
            total.bytes().all(|b| b.is_ascii_digit() || b == b','),
            "{total}"
        );
    }
}
