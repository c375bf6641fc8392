//! A stage acta's PDF of layout 2 ended its first page with the heading «3. Propuestas y su
//! evaluación», its table on the next (a table that fits on a page is never split, and the
//! heading was not kept with it). Layout 3 keeps a heading with the block after it. Page breaks
//! are part of what `stage verify` compares (a page's footer is among its lines of text), so an
//! acta of layout 2 keeps verifying only against layout 2's rendering:
//! `tests/fixtures/stage-acta-v2/` holds one, written by the build before layout 3 (its README
//! says how) from the register of `tests/fixtures/stage-acta-v1`.

use crate::acta_pages::{after_heading, heading_alone_on_page_1, holds_table_start as holds};
use crate::common::Reg;
use crate::web::{Client, PASSWORD, Server, add_user};

const PDF: &str = "acta-segunda-etapa-D3939-2004.pdf";
const HEADING: &str = "3. Propuestas y su evaluación";

/// Each page's lines of text of `file` in the register's folder.
fn pages(r: &Reg, file: &str) -> Vec<Vec<String>> {
    crate::acta_pages::pages(&std::fs::read(r.dir.path().join(file)).unwrap())
}

/// The table's header row and its first row (P-07, the first proposal filed, as the fixture's
/// Markdown acta lists it) are among `lines`.
fn holds_table_start(lines: &[String]) -> bool {
    holds(lines, ("Tramo", &["Propuesta", "Resultado"]), "P-07")
}

/// The register of `stage-acta-v1` with the layout-2 PDF beside it, as `layout-2.pdf`.
fn register() -> Reg {
    let r = Reg::copy_of("stage-acta-v1");
    let v2 = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stage-acta-v2")
        .join(PDF);
    std::fs::copy(v2, r.dir.path().join("layout-2.pdf")).unwrap();
    r
}

#[test]
fn a_stage_acta_keeps_its_heading_with_the_table_and_the_acta_of_layout_2_still_verifies() {
    let r = register();
    // the acta written before: its first page ends on the heading, above nothing of its table
    let old = pages(&r, "layout-2.pdf");
    heading_alone_on_page_1(&old, HEADING, holds_table_start);
    // today's acta: the heading's page holds the table's header row and first row
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "layout-3.pdf",
    ]);
    let new = pages(&r, "layout-3.pdf");
    let (_, rest) = after_heading(&new, HEADING);
    assert!(holds_table_start(&rest), "{new:?}");
    assert_ne!(old, new, "the page break moved");
    // both verify on the command line: each against its own layout's page breaks
    for file in ["layout-2.pdf", "layout-3.pdf"] {
        let o = r.ok(&["stage", "verify", file]);
        assert!(
            o.starts_with("verified: acta of stage 2 of D3939-2004 (conclusion 1,"),
            "{file}: {o}"
        );
    }
    // and on the stage's page
    add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    for file in ["layout-2.pdf", "layout-3.pdf"] {
        let bytes = std::fs::read(r.dir.path().join(file)).unwrap();
        let t = c
            .upload(
                "/programas/D3939-2004/etapas/2/verificar",
                &[("csrf", &csrf)],
                (file, &bytes),
            )
            .text();
        assert!(
            t.contains("class=\"resultado verificada\"")
                && t.contains("<strong>Verificada.</strong>"),
            "{file}: {t}"
        );
    }
}
