//! A later stage's acta written as it is made (issue 23 item 4): on a stage of 400 proposals
//! (a PDF of many pages, an HTML file read in several chunks), `stage adjudicate --acta` and
//! `stage acta` give, in every format, the bytes of the acta built whole from the same register
//! (the blocks of `report::stage_acta` rendered at once, as the acta was before it streamed);
//! `stage verify` accepts each, and catches one changed proposal in each.

use crate::common::Reg;
use crate::stages::{BLOCK, adjudicate_second, import, second_stage};
use vigia::later_stages::Stage;
use vigia::report::{notice, pdf, stage_acta};

const PROPOSALS: usize = 400;

/// Proposal `i`: its own bidder and price (1,101 up, so none ties); every 40th below the
/// minimum price of 1,100 (rejected), every 7th paying in 30 days.
fn proposal(i: usize) -> String {
    let price = if i % 40 == 39 { 1000 } else { 1101 + i };
    let term = if i.is_multiple_of(7) { 30 } else { 0 };
    format!(
        "P{i:04},2024-06-10,CC:{}:Proponente {i} (PRUEBA),,{BLOCK},{price},{term},500000000,si,\n",
        1_000_000_000 + i
    )
}

/// The acta of the Second Stage built whole, as it was before it streamed.
fn whole(r: &Reg) -> [Vec<u8>; 3] {
    whole_in(r, stage_acta::Layout::CURRENT)
}

/// The acta built whole in a layout.
fn whole_in(r: &Reg, layout: stage_acta::Layout) -> [Vec<u8>; 3] {
    let store = vigia::store::Store::open(&r.db()).unwrap();
    let conn = store.conn();
    let rates = vigia::store::rates::series(conn).unwrap();
    let p = vigia::store::programs::by_code(conn, "D3939-2004").unwrap();
    let c = vigia::register::stage::concluded(conn, &p, Stage::Second, &rates).unwrap();
    let d = stage_acta::StageActaData {
        program: &p.program,
        stage: Stage::Second,
        concluded: &c,
        conn,
        layout,
    };
    // an acta written before named its stage «la etapa 2»; one written now as the decrees do
    let title = if layout == stage_acta::Layout::CausesAsCodes {
        "Acta de la etapa 2 de D3939-2004"
    } else {
        "Acta de la Segunda Etapa de D3939-2004"
    };
    let footer = stage_acta::number_line(Stage::Second, c.conclusion.id);
    [
        notice::markdown(&stage_acta::markdown_blocks(&d).unwrap()).into_bytes(),
        notice::html(&stage_acta::plain_blocks(&d).unwrap(), title).into_bytes(),
        // from layout 3 a heading is kept with what follows it (the PDF grouping of notices'
        // text version 2)
        pdf::render_layout(
            &stage_acta::plain_blocks(&d).unwrap(),
            title,
            &footer,
            (2024, 6, 28),
            if layout == stage_acta::Layout::HeadingsKept {
                2
            } else {
                1
            },
        ),
    ]
}

#[test]
fn a_stage_acta_written_as_it_is_made_is_the_acta_built_whole_and_verifies() {
    let r = second_stage();
    let lines: Vec<String> = (0..PROPOSALS).map(proposal).collect();
    import(&r, "2", &lines);
    r.ok(&adjudicate_second(&["--acta", "acta.pdf"]));
    let [md, html, pdf] = whole(&r);
    // many pages, and more than one chunk of HTML (64 KiB) to read back
    assert!(pdf.len() > 50_000, "{}", pdf.len());
    assert!(html.len() > 65_536, "{}", html.len());
    let read = |f: &str| std::fs::read(r.dir.path().join(f)).unwrap();
    assert!(read("acta.pdf") == pdf, "the acta after the adjudication");
    for (ext, bytes) in [("md", &md), ("html", &html), ("pdf", &pdf)] {
        let f = format!("again.{ext}");
        r.ok(&["stage", "acta", "D3939-2004", "--stage", "2", "--out", &f]);
        assert!(read(&f) == *bytes, "stage acta --out {f}");
        let out = r.ok(&["stage", "verify", &f]);
        assert!(out.contains("verified"), "{f}: {out}");
    }
    // a rejection's cause in words in the table; its code only in the command line's CSV
    let text = String::from_utf8(md.clone()).unwrap();
    assert!(
        text.contains("| Rechazada: plazo de pago mayor que el permitido |")
            && !text.contains("Rechazada: TERM"),
        "{text}"
    );
    // an acta written by the earlier layout (causes as codes) keeps its text and still verifies
    let [old_md, old_html, old_pdf] = whole_in(&r, stage_acta::Layout::CausesAsCodes);
    assert!(
        String::from_utf8(old_md.clone())
            .unwrap()
            .contains("| Rechazada: TERM")
    );
    // (made here by the library, never written by vigia of this register's conclusion, which
    // was recorded after vigia began recording acta files: its text verifies, its file is none
    // vigia wrote, exit 1; `tests/fixtures/stage-acta-v1` holds one written before)
    for (ext, bytes) in [("md", &old_md), ("html", &old_html), ("pdf", &old_pdf)] {
        let f = r.file(&format!("earlier.{ext}"), bytes);
        let o = r.run(&["stage", "verify", &f]);
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        let out = crate::common::out(&o);
        assert!(
            out.starts_with(
                "NOT VERIFIED: the text matches the register, but the file is not the one \
                 issued\ntext: acta of stage 2"
            ) && out.contains("the file is none of those vigia wrote: the text matches"),
            "{f}: {out}"
        );
    }
    // an earlier acta changed far down its table: named where it was changed, not at its first
    // rejection (a code where the current layout has words)
    let old_text = String::from_utf8(old_md).unwrap();
    let forged_old = old_text.replace("| 1 | P0351 |", "| 1 | P0351X |");
    assert_ne!(forged_old, old_text);
    let f = r.file("earlier-forged.md", forged_old.as_bytes());
    let o = r.run(&["stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let said = crate::common::out(&o);
    assert!(
        said.contains("P0351X") && !said.contains("TERM_TOO_LONG"),
        "{said}"
    );
    // the winner is the highest price: the last proposal not below the minimum
    assert!(text.contains("| 1 | P0398 |"), "the table of proposals");
    assert!(text.contains("Adjudicataria"));
    // one proposal's price changed, far down the table: each format is caught there
    let forged_md = text.replace("| 1 | P0350 |", "| 1 | P0350X |");
    assert_ne!(forged_md, text);
    r.file("forged.md", forged_md.as_bytes());
    let html_text = String::from_utf8(html.clone()).unwrap();
    let forged_html = html_text.replace(">P0350<", ">P0350X<");
    assert_ne!(forged_html, html_text);
    r.file("forged.html", forged_html.as_bytes());
    for f in ["forged.md", "forged.html"] {
        let o = r.run(&["stage", "verify", f]);
        assert_eq!(o.status.code(), Some(1), "{f}: {o:?}");
        let said = crate::common::out(&o);
        assert!(said.contains("P0350X"), "{f}: {said}");
    }
}
