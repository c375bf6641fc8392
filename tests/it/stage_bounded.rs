//! The evaluation of a later stage a proposal at a time (issue 23 items 4 and 5): the register
//! reads the tranche's proposals again from the store for each row it writes and holds only what
//! the result needs. On a file with a rejection of every kind, two proposals tied below the best
//! and the winner filed last, the rows streamed from the store are those worked out by hand and
//! those of the whole-in-memory evaluation (`offering::stage::evaluate_among`) of the same file;
//! the JSON of `stage evaluate` is the same rows.

use crate::common::Reg;
use crate::stage_snapshot::{parsed, terms};
use crate::stages::{BLOCK, HEADER, import, line, second_stage};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::ops::ControlFlow;
use vigia::later_stages::Stage;
use vigia::offering::stage as core;

/// The proposals with a cause, and the tie, in the file's order (columns as `HEADER`: proposal,
/// filed_at, bidders, beneficial_owner, shares, price_per_share, term_days, guarantee,
/// funds_accredited, review).
fn special() -> String {
    let g = "500000000";
    format!(
        "T-1,2024-06-10,CC:1000000001:Uno,,{BLOCK},1100,0,{g},si,\n\
         T-2,2024-06-11,CC:1000000002:Dos,,{BLOCK},1100,0,{g},si,\n\
         LATE,2024-06-15,CC:1000000003:Tres,,{BLOCK},900,0,{g},si,\n\
         LOW,2024-06-10,CC:1000000004:Cuatro,,{BLOCK},962.99,0,{g},si,\n\
         TERM,2024-06-10,CC:1000000005:Cinco,,{BLOCK},5000,30,{g},si,\n\
         PART,2024-06-10,CC:1000000006:Seis,,1000,5000,0,{g},si,\n\
         J-A,2024-06-10,CC:1000000007:Siete|NIT:800191045-1:Grupo,,{BLOCK},5000,0,{g},si,\n\
         J-B,2024-06-10,NIT:800191045-1:Grupo,,{BLOCK},5000,0,{g},si,\n\
         O-A,2024-06-10,CC:1000000009:Nueve,grupo-x,{BLOCK},5000,0,{g},si,\n\
         O-B,2024-06-10,CC:1000000010:Diez,grupo-x,{BLOCK},5000,0,{g},si,\n\
         NOG,2024-06-10,CC:1000000011:Once,,{BLOCK},5000,0,,si,\n\
         FUNDS,2024-06-10,CC:1000000012:Doce,,{BLOCK},5000,0,{g},no,\n\
         REV,2024-06-10,CC:1000000013:Trece,,{BLOCK},5000,0,{g},si,FORM_DEFECT\n"
    )
}

/// The cause each of [`special`]'s proposals must get, worked out by hand in the order of
/// `Cause`'s variants: LATE was filed the day after the close (and is below the minimum too: the
/// window comes first); Decreto 3939 wants payment the next banking day (`max_term_days = 0`);
/// J-A and J-B share a NIT, O-A and O-B a beneficial owner.
const CAUSES: [(&str, Option<&str>); 13] = [
    ("T-1", None),
    ("T-2", None),
    ("LATE", Some("OUTSIDE_WINDOW")),
    ("LOW", Some("BELOW_MINIMUM_PRICE")),
    ("TERM", Some("TERM_TOO_LONG")),
    ("PART", Some("NOT_WHOLE_BLOCK")),
    ("J-A", Some("SAME_BIDDER")),
    ("J-B", Some("SAME_BIDDER")),
    ("O-A", Some("SAME_BIDDER")),
    ("O-B", Some("SAME_BIDDER")),
    ("NOG", Some("NO_GUARANTEE")),
    ("FUNDS", Some("FUNDS_NOT_ACCREDITED")),
    ("REV", Some("FORM_DEFECT")),
];

/// The file's lines, and each proposal's reference and cause: [`special`], 150 valid proposals
/// at 1,000 to 1,049 (each price three times), then the winner at 1,200, filed last.
fn file() -> (Vec<String>, Vec<(String, Option<&'static str>)>) {
    let mut lines = vec![special()];
    let mut want: Vec<(String, Option<&str>)> =
        CAUSES.iter().map(|(r, c)| (r.to_string(), *c)).collect();
    for i in 0..150 {
        let bidder = format!("CC:{}:Relleno {i}", 1_000_001_000 + i);
        let price = (1000 + i % 50).to_string();
        lines.push(line(&format!("F-{i:03}"), &bidder, &price, 0));
        want.push((format!("F-{i:03}"), None));
    }
    lines.push(line("WIN", "CC:1000000099:Ganadora", "1200", 0));
    want.push(("WIN".into(), None));
    (lines, want)
}

#[test]
fn the_streamed_evaluation_is_the_one_worked_out_and_the_whole_in_memory_one() {
    let r: Reg = second_stage();
    let (lines, want) = file();
    import(&r, "2", &lines);
    let text = format!("{HEADER}{}", lines.concat());

    let store = vigia::store::Store::open(&r.db()).unwrap();
    let conn = store.conn();
    let rates = vigia::store::rates::series(conn).unwrap();
    let p = vigia::store::programs::by_code(conn, "D3939-2004").unwrap();
    let (evals, rows) = vigia::store::Snapshot::read(conn, |snap| {
        let evals = vigia::register::stage::evaluate(snap, &p, Stage::Second, &rates).unwrap();
        let mut rows = Vec::new();
        evals[0].each_row::<vigia::store::StoreError>(snap, &mut |row| {
            rows.push(row);
            Ok(ControlFlow::Continue(()))
        })?;
        Ok::<_, vigia::store::StoreError>((evals, rows))
    })
    .unwrap();
    assert_eq!(evals.len(), 1);
    let e = &evals[0];

    // by hand: each cause; the valid values are 1,200 (WIN), 1,100 (T-1, T-2) and 1,000 to
    // 1,049, so WIN ranks 1, the tie 2, and a price x below them 2 + (1,049 − x + 1)
    assert_eq!(rows.len(), want.len());
    for (row, (reference, cause)) in rows.iter().zip(&want) {
        assert_eq!(&row.proposal, reference);
        assert_eq!(row.cause.as_deref(), *cause, "{reference}");
        let price: Decimal = row.price.parse().unwrap();
        let rank = match reference.as_str() {
            "WIN" => Some(1),
            "T-1" | "T-2" => Some(2),
            _ if cause.is_some() => None,
            _ => Some(2 + (1049 - price.to_string().parse::<usize>().unwrap() + 1)),
        };
        assert_eq!(row.rank, rank, "{reference}");
        let status = match (reference.as_str(), cause) {
            ("WIN", _) => "winner",
            (_, Some(_)) => "rejected",
            _ => "valid",
        };
        assert_eq!(row.status, status, "{reference}");
    }
    assert_eq!(
        e.proposal(match e.standing {
            vigia::register::stage::Standing::Winner {
                proposal,
                draw: None,
            } => proposal,
            ref s => panic!("{s:?}"),
        })
        .row
        .reference,
        "WIN"
    );
    assert!(e.original_tie.is_empty(), "the tie is below the best");

    // the same file evaluated whole in memory, as the register did before it streamed
    let (in_memory, outcome) =
        core::evaluate_among(&terms(&p, e), &parsed(&text), &[], &HashMap::new());
    assert_eq!(outcome, core::Outcome::Winner(want.len() - 1));
    for (row, m) in rows.iter().zip(&in_memory) {
        assert_eq!(row.cause, m.cause.as_ref().map(|c| c.code().to_string()));
        assert_eq!(row.price, m.price.to_string());
        assert_eq!(row.value, m.value.map(|v| format!("{v:.2}")));
        assert_eq!(row.rank, m.rank, "{}", row.proposal);
    }

    // `stage evaluate --format json` writes the same rows as it reads them
    let json = r.json(&[
        "stage",
        "evaluate",
        "D3939-2004",
        "--stage",
        "2",
        "--format",
        "json",
    ]);
    let t = &json["tranches"][0];
    assert_eq!(t["winner"], "WIN");
    assert_eq!(t["proposals"], serde_json::to_value(&rows).unwrap());
}
