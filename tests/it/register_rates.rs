//! Rates added to the register and pending stage prices, as liquidations see them.

use crate::common::Reg;

#[test]
fn a_pending_stage_price_makes_the_liquidation_provisional() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        // no consideration (adjudication 1 was not financed: no credit to subrogate)
        "beneficial-owner",
        "--date",
        "2024-11-20",
        "--shares",
        "1000",
    ]);
    let l = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2024-11-20",
        "--format",
        "json",
    ]);
    assert_eq!(l["provisional"], true);
    assert_eq!(l["principal"], "722250"); // 1,000 × 963 × 75 %
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "none",
        "--date",
        "2025-01-31",
    ]);
    let l = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2024-11-20",
        "--format",
        "json",
    ]);
    assert_eq!(l["provisional"], false);
    assert_eq!(l["liquidation_id"], 2);
    let e = r.fails(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--date",
        "2025-01-31",
    ]);
    assert!(e.contains("needs the per-share price"), "{e}");
}

#[test]
fn rates_added_to_the_register_extend_the_series_and_corrections_keep_old_liquidations() {
    let r = Reg::new().with_holders();
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "none",
        "--date",
        "2024-06-30",
    ]);
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        "sale",
        "--date",
        "2026-03-01",
        "--shares",
        "100",
    ]);
    let e = r.fails(&["fine", "liquidate", "1", "--until", "2026-11-15"]);
    assert!(e.contains("2026-11-01..2026-11-15"), "{e}");
    let add = r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-30",
        "--ibc",
        "18.90",
        "--resolution",
        "SFC Res. prueba",
    ]);
    assert!(add.contains("moratorium 28.350 % EA"), "{add}");
    let first = r.json(&[
        "fine",
        "liquidate",
        "1",
        "--until",
        "2026-11-15",
        "--format",
        "json",
    ]);
    let total = first["total_due"].as_str().unwrap().to_string();

    // Correcting October 2026 needs a reason; the old row stays on record.
    let e = r.fails(&[
        "rates",
        "add",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--ibc",
        "20",
        "--resolution",
        "x",
    ]);
    assert!(
        e.contains("overlaps 2026-10-01..2026-10-31") && e.contains("--supersede"),
        "{e}"
    );
    let o = r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--ibc",
        "20",
        "--resolution",
        "x",
        "--supersede",
        "--reason",
        "test correction",
    ]);
    assert!(o.contains("supersedes 2026-10-01..2026-10-31"), "{o}");
    let live = r.json(&[
        "fine",
        "show",
        "1",
        "--until",
        "2026-11-15",
        "--format",
        "json",
    ]);
    assert_ne!(
        live["total_due"].as_str().unwrap(),
        total,
        "the correction changes live figures"
    );
    // ... but not the stored liquidation, which still reproduces from its own rate rows.
    assert!(r.ok(&["fine", "reproduce", "1"]).contains("reproduces"));
    let b = r.json(&["breach", "show", "1", "--format", "json"]);
    assert_eq!(b["liquidations"][0]["total_due"].as_str().unwrap(), total);

    // `fine quote` uses the register's series too.
    let q = r.json(&[
        "fine",
        "quote",
        "--adjudicated",
        "2025-06-01",
        "--breach-date",
        "2026-10-20",
        "--shares",
        "1",
        "--acquisition-price",
        "1000",
        "--until",
        "2026-11-02",
        "--format",
        "json",
    ]);
    assert_eq!(q["periods"][0]["moratorium_ea_percent"], "30.0");
    assert_eq!(q["periods"][1]["moratorium_ea_percent"], "28.350");

    // rates import is all or nothing
    let before = r.dump();
    let bad = r.file(
        "r.csv",
        b"valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n2026-12-01,2026-12-31,18,,A\n2027-01-01,2027-01-31,,,B\n",
    );
    let e = r.fails(&["rates", "import", &bad]);
    assert!(e.contains("line 3"), "{e}");
    assert_eq!(r.dump(), before);
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}
