//! A stage's proposals go through the one bulk writer of every import (issue 23 item 1): each
//! proposal and bidder leaves its print (issue 24.2), so `audit verify` names a proposal or a
//! bidder changed by hand, row and column (a forged price changes who wins the stage); an import
//! written before prints were kept is still reported by range.

use crate::audit::{
    as_before_prints, behind_vigias_back, intact, mismatch_in as mismatch, payload,
};
use crate::common::{Reg, err, out};
use crate::stages::{BLOCK, import, second_stage};

/// Proposals in the file: more than one blob of prints (4096 rows a blob) and more than one
/// multi-row INSERT's group, ending inside one.
const ROWS: usize = 5000;

/// Every 10th proposal is joint (two bidders): 5,500 bidders.
const BIDDERS: usize = ROWS + ROWS / 10;

/// The Second Stage with [`ROWS`] proposals imported; the import's event.
fn imported() -> (Reg, i64) {
    let r = second_stage();
    let lines: Vec<String> = (0..ROWS)
        .map(|i| {
            let mut bidders = format!("CC:{}:Proponente {i}", 2_000_000_000 + i);
            if i % 10 == 9 {
                bidders.push_str(&format!("|CC:{}:Socio {i}", 3_000_000_000u64 + i as u64));
            }
            // a name JSON escapes, a beneficial owner, a proposal without a guarantee: each
            // hashed as `audit verify` reads it back
            let (bidders, owner, guarantee) = match i {
                3 => (
                    "\"CC:2000000003:Proponente \"\"3\"\" \\ Ñandú\"".to_string(),
                    "grupo-3",
                    "500000000",
                ),
                4 => (bidders, "", ""),
                _ => (bidders, "", "500000000"),
            };
            format!(
                "P-{i:05},2024-06-10,{bidders},{owner},{BLOCK},{},30,{guarantee},si,\n",
                1000 + i
            )
        })
        .collect();
    import(&r, "2", &lines);
    let seq: i64 = r
        .conn()
        .query_row(
            "SELECT seq FROM audit_events WHERE action = 'proposals.import'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    intact(&r);
    (r, seq)
}

fn count(r: &Reg, sql: &str) -> i64 {
    r.conn().query_row(sql, [], |x| x.get(0)).unwrap()
}

#[test]
fn a_proposal_or_a_bidder_changed_by_hand_is_named_by_row_and_column() {
    let (r, seq) = imported();
    // the rows as written (ids from 1 in a fresh register) and their prints, a blob per 4096
    assert_eq!(count(&r, "SELECT count(*) FROM proposals"), ROWS as i64);
    assert_eq!(
        count(&r, "SELECT count(*) FROM proposal_bidders"),
        BIDDERS as i64
    );
    for (table, rows) in [("proposals", ROWS), ("proposal_bidders", BIDDERS)] {
        let blobs = count(
            &r,
            &format!(
                "SELECT count(*) FROM bulk_row_prints WHERE table_name = '{table}' AND first_id = 1"
            ),
        );
        assert_eq!(blobs, rows.div_ceil(4096) as i64, "{table}");
    }
    // the event covers both tables by range, with the prints' digest
    let v = payload(&r, seq);
    let covers = v["covers"].as_array().unwrap();
    assert_eq!(covers.len(), 2, "{v}");
    assert_eq!(
        (
            &covers[0]["table"],
            &covers[0]["last"],
            covers[0]["prints"]["chunks"].as_i64()
        ),
        (
            &serde_json::json!("proposals"),
            &serde_json::json!(ROWS),
            Some(2)
        )
    );
    assert_eq!(covers[1]["last"], serde_json::json!(BIDDERS));

    // the rows as the file gave them, their audited form verified above
    let (name, owner, guarantee): (String, Option<String>, Option<String>) = r
        .conn()
        .query_row(
            "SELECT b.name, p.beneficial_owner, (SELECT guarantee FROM proposals WHERE id = 5)
             FROM proposals p JOIN proposal_bidders b ON b.proposal_id = p.id WHERE p.id = 4",
            [],
            |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (name.as_str(), owner.as_deref(), guarantee),
        ("Proponente \"3\" \\ Ñandú", Some("grupo-3"), None)
    );

    // proposal P-03210 (id 3211) offered 1000 + 3210: a forged price
    let price: String = r
        .conn()
        .query_row(
            "SELECT price_per_share FROM proposals WHERE id = 3211 AND reference = 'P-03210'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(price, "4210");
    behind_vigias_back(
        &r,
        "UPDATE proposals SET price_per_share = '99999' WHERE id = 3211",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains(&format!(
            "AUDIT MISMATCH at event {seq} (proposal_imports 1): rows written with it no longer \
             match what was recorded: proposals: row 3211, column price_per_share changed"
        )),
        "{text}"
    );
    let texto = mismatch(&r, &[("VIGIA_LANG", "es")]);
    assert!(
        texto.contains(
            "proposals: fila 3211, columna «Precio por acción» (price_per_share) modificada"
        ),
        "{texto}"
    );
    behind_vigias_back(
        &r,
        "UPDATE proposals SET price_per_share = '4210' WHERE id = 3211",
    );
    intact(&r);

    // the second bidder of joint proposal P-00019 (id 20): each proposal's bidders follow those
    // of the one before, P-00009's partner is bidder 11, P-00019's own 21 and its partner 22
    let (seq_no, name): (i64, String) = r
        .conn()
        .query_row(
            "SELECT seq, name FROM proposal_bidders WHERE id = 22 AND proposal_id = 20",
            [],
            |x| Ok((x.get(0)?, x.get(1)?)),
        )
        .unwrap();
    assert_eq!((seq_no, name.as_str()), (2, "Socio 19"));
    behind_vigias_back(
        &r,
        "UPDATE proposal_bidders SET doc_number = '1' WHERE id = 22",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains("proposal_bidders: row 22, column doc_number changed"),
        "{text}"
    );
}

#[test]
fn a_proposals_import_recorded_without_prints_is_reported_by_range() {
    let (r, seq) = imported();
    // the register as a proposals import made before left it: no prints, none in the event's
    // payload
    as_before_prints(&r, seq, Some("'proposals', 'proposal_bidders'"));
    intact(&r);
    behind_vigias_back(
        &r,
        "UPDATE proposals SET price_per_share = '99999' WHERE id = 3211",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains(&format!(
            "rows written with it no longer match what was recorded (e.g. proposals 1..{ROWS}, \
             proposal_bidders 1..{BIDDERS} edited or removed by hand)\n"
        )),
        "{text}"
    );
}

/// A file refused at a row far into it (past the first blob of prints, which the writer stores
/// as it fills) leaves the register as it was: no proposal, bidder, print, import or event; the
/// same file mended then imports from id 1 with its prints from there.
#[test]
fn a_proposals_import_refused_far_into_its_rows_leaves_no_row_and_no_print() {
    let r = second_stage();
    let events = count(&r, "SELECT count(*) FROM audit_events");
    let prints = count(&r, "SELECT count(*) FROM bulk_row_prints");
    // 5,000 proposals for tranche 1 (every 10th joint, one of 71 bidders); the one on line 4,502 names tranche 2,
    // which the stage has not opened: refused after 4,500 rows and a blob of prints were stored
    let file = |bad: u32| -> String {
        let mut text = String::from(
            "proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,\
             guarantee,funds_accredited,review,tranche\n",
        );
        for i in 0..ROWS as u32 {
            let mut bidders = format!("CC:{}:Proponente {i}", 2_000_000_000 + i);
            if i % 10 == 9 {
                bidders.push_str(&format!(
                    "|CC:{}:Socio {i}",
                    3_000_000_000u64 + u64::from(i)
                ));
            }
            if i == 100 {
                // a consortium of 71: its bidders go into two multi-row INSERTs (64 a statement)
                for k in 1..=70u64 {
                    bidders.push_str(&format!("|CC:{}:Consorciado {k}", 4_000_000_000 + k));
                }
            }
            let tranche = if i == bad { 2 } else { 1 };
            text.push_str(&format!(
                "P-{i:05},2024-06-10,{bidders},,{BLOCK},{},30,500000000,si,,{tranche}\n",
                1000 + i
            ));
        }
        r.file(&format!("prop-{bad}.csv"), text.as_bytes())
    };
    let bad = file(4500);
    let o = r.with_locale(
        &[("VIGIA_LANG", "es")],
        &[
            "proposals",
            "import",
            &bad,
            "--program",
            "D3939-2004",
            "--stage",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}{}", out(&o), err(&o));
    assert!(
        err(&o).contains("1 problema, no se escribió nada")
            && err(&o).contains("línea 4502: tranche «2»"),
        "{}",
        err(&o)
    );
    for table in ["proposals", "proposal_bidders", "proposal_imports"] {
        assert_eq!(
            count(&r, &format!("SELECT count(*) FROM {table}")),
            0,
            "{table}"
        );
    }
    assert_eq!(count(&r, "SELECT count(*) FROM bulk_row_prints"), prints);
    assert_eq!(count(&r, "SELECT count(*) FROM audit_events"), events);
    intact(&r);

    // mended (no row names tranche 2): every row from id 1, two blobs of prints a table
    let good = file(ROWS as u32);
    r.ok(&[
        "proposals",
        "import",
        &good,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    assert_eq!(
        (
            count(&r, "SELECT min(id) FROM proposals"),
            count(&r, "SELECT max(id) FROM proposals"),
            count(&r, "SELECT max(id) FROM proposal_bidders"),
        ),
        (1, ROWS as i64, BIDDERS as i64 + 70)
    );
    for table in ["proposals", "proposal_bidders"] {
        let blobs = count(
            &r,
            &format!(
                "SELECT count(*) FROM bulk_row_prints WHERE table_name = '{table}' AND first_id = 1"
            ),
        );
        assert_eq!(blobs, 2, "{table}");
    }
    intact(&r);
    // the consortium's (P-00100, id 101) last bidder: after the 100 proposals before it and
    // their 10 partners (P-00009, P-00019, ..., P-00099), its 71 bidders are ids 111 to 181
    let (proposal, seq_no, name): (i64, i64, String) = r
        .conn()
        .query_row(
            "SELECT proposal_id, seq, name FROM proposal_bidders WHERE id = 181",
            [],
            |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (proposal, seq_no, name.as_str()),
        (101, 71, "Consorciado 70")
    );
    behind_vigias_back(
        &r,
        "UPDATE proposal_bidders SET name = 'Otro' WHERE id = 181",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains("proposal_bidders: row 181, column name changed"),
        "{text}"
    );
}
