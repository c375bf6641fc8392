//! A stage acta written by the version before layout 2 (`tests/fixtures/stage-acta-v1`: the
//! register, its checkpoint log and key, and the Second Stage's acta in Markdown and PDF, all
//! written by commit dc15531; its README says how). Today's build verifies that acta as it was
//! written, on the command line and on the stage's page, and names the line of one figure
//! changed in it: drift in the earlier layout's rendering shows here, not only in an acta
//! rendered in that layout by today's code.

use crate::common::{Reg, out};
use crate::web::{Client, PASSWORD, Server, add_user};

const FIXTURE: &str = "stage-acta-v1";
const MD: &str = "acta-segunda-etapa-D3939-2004.md";
const PDF: &str = "acta-segunda-etapa-D3939-2004.pdf";
const STAGE: &str = "/programas/D3939-2004/etapas/2";

/// The award's line as the earlier build wrote it, and the same line with its price per share
/// changed from $ 1.100 to $ 1.000 (the value left as it was).
const AWARD: &str = "| 1 | 12.886.682 | P-12 | CC 1000000101 Carla Postora (DEMO); CC 1000000102 \
                     Darío Postor (DEMO) | $ 1.100 | $ 14.175.350.200 | 02/07/2024 |";
const FORGED: &str = "| 1 | 12.886.682 | P-12 | CC 1000000101 Carla Postora (DEMO); CC 1000000102 \
                      Darío Postor (DEMO) | $ 1.000 | $ 14.175.350.200 | 02/07/2024 |";

/// The fixture's Markdown acta with the award's price changed, and the number of the changed
/// line in the file as an editor counts it (blank lines too).
fn forged(r: &Reg) -> (String, usize) {
    let text = std::fs::read_to_string(r.dir.path().join(MD)).unwrap();
    let forged = text.replacen(AWARD, FORGED, 1);
    assert_ne!(forged, text, "the award's line is in the acta");
    let line = text.lines().position(|l| l == AWARD).unwrap() + 1;
    (forged, line)
}

#[test]
fn the_stage_acta_written_before_layout_2_verifies_and_a_figure_changed_in_it_is_named() {
    let r = Reg::copy_of(FIXTURE);
    // the fixture is what its README says: layout 1 (the causes as codes, «la etapa 2»)
    let md = std::fs::read_to_string(r.dir.path().join(MD)).unwrap();
    assert!(
        md.contains("| Rechazada: TERM\\_TOO\\_LONG |")
            && md.contains("Causales de rechazo: OUTSIDE_WINDOW (presentada fuera del plazo)")
            && md.contains("conclusión N.º 1 de la etapa 2 del programa D3939-2004"),
        "{md}"
    );
    for file in [MD, PDF] {
        let o = r.ok(&["stage", "verify", file]);
        assert!(
            o.starts_with(
                "verified: acta of stage 2 of D3939-2004 (conclusion 1, adjudicated on \
                 2024-06-28: 12886682 of 12886682 shares at $ 1.100 per share)"
            ),
            "{file}: {o}"
        );
    }
    // one figure changed: exit 1, the line named with what each side says
    let (text, line) = forged(&r);
    // `grep -n` finds it on the file's line 52: its 32nd line of text, 20 blank lines above it
    assert_eq!(line, 52, "the award is on the acta file's line 52");
    let f = r.file("forjada.md", text.as_bytes());
    let o = r.run(&["stage", "verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(
        out(&o).trim_end(),
        format!(
            "NOT VERIFIED: at line 52 of the file the document says \"{FORGED}\"; the register \
             gives \"{AWARD}\""
        )
    );
    // the earlier build's chain and signed checkpoint hold under today's
    assert!(
        r.ok(&["audit", "verify"])
            .starts_with("audit trail intact: 13 events")
    );
}

/// The stage's page verifies the same files (green), names the changed line (red), and
/// «Verificar aviso» sends the acta to the stage's page.
#[test]
fn the_stage_page_verifies_the_acta_written_before_layout_2() {
    let r = Reg::copy_of(FIXTURE);
    add_user(&r, "carla", "consulta");
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "carla", PASSWORD);
    let verify = format!("{STAGE}/verificar");
    for file in [MD, PDF] {
        let bytes = std::fs::read(r.dir.path().join(file)).unwrap();
        let t = c.upload(&verify, &[("csrf", &csrf)], (file, &bytes)).text();
        assert!(
            t.contains("class=\"resultado verificada\"")
                && t.contains("<strong>Verificada.</strong>")
                && t.contains("conclusión N.º 1 de la Segunda Etapa"),
            "{file}: {t}"
        );
        let t = c
            .upload("/avisos/verificar", &[("csrf", &csrf)], (file, &bytes))
            .text();
        assert!(
            t.contains(
                "<a id=\"verificar-acta\" href=\"/programas/D3939-2004/etapas/2#acta\">Verificar \
                 el acta en la página de la Segunda Etapa del programa</a>"
            ),
            "{file}: {t}"
        );
    }
    let (text, line) = forged(&r);
    let t = c
        .upload(&verify, &[("csrf", &csrf)], ("forjada.md", text.as_bytes()))
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && t.contains(&format!(
                "En la línea {line} del archivo, el documento dice «{FORGED}»; el registro da \
                 «{AWARD}»."
            )),
        "{t}"
    );
}
