//! An uploaded first-stage acta checked against the stored adjudication, as `vigia offer
//! verify` checks it (the offer page's «Verificar el acta»): its verdict in Spanish.

use super::WebError;
use super::views;
use crate::catalogue::verification::acta_difference_sentence;
use crate::lang::Lang;
use crate::register::offering::StoredResult;
use crate::report::acta::{self, Mismatch};
use crate::report::stage_acta::{ActaKind, acta_kind};
use crate::store::programs::StoredProgram;

pub(super) use super::acta_files::Verdict;

/// Checks an acta's bytes as `vigia offer verify` does: its text must be what the stored run
/// gives, rendered again in the document's format, and the run's outcomes must still give its
/// fingerprint; then its bytes must be one of the files vigia wrote of it (`web::acta_files`).
pub(super) fn check(
    conn: &rusqlite::Connection,
    program: &StoredProgram,
    stored: Option<&StoredResult>,
    bytes: &[u8],
) -> Result<Verdict, WebError> {
    let code = &program.program.code;
    let Some(r) = stored else {
        return Ok(Verdict::DoesNot(format!(
            "El registro no tiene adjudicación de la oferta de {code}."
        )));
    };
    let Ok((format, lines)) = acta::document_lines(bytes) else {
        return Ok(Verdict::DoesNot(
            "El archivo no se pudo leer: no es un PDF, HTML o Markdown legible escrito por vigia."
                .into(),
        ));
    };
    match acta::program_code(&lines.lines) {
        None => {
            return Ok(Verdict::DoesNot(
                "El archivo no tiene la línea «Programa: …»: no es un acta de vigia.".into(),
            ));
        }
        Some(c) if &c != code => {
            return Ok(Verdict::DoesNot(format!(
                "Es un acta del programa {c}, no de {code}: verifíquela en la página de ese programa."
            )));
        }
        Some(_) => {}
    }
    // another kind of document is said as such, not as a forged acta (as `vigia offer
    // verify`), once it is of this program
    match acta_kind(&lines.lines) {
        ActaKind::FirstStage => {}
        ActaKind::LaterStage => {
            return Ok(Verdict::DoesNot(
                "Es el acta de una etapa posterior, no la de la primera etapa: verifíquela en la \
                 página de esa etapa."
                    .into(),
            ));
        }
        ActaKind::Other => {
            return Ok(Verdict::DoesNot(format!(
                "El archivo no es un acta de adjudicación de la primera etapa (no tiene la línea \
                 «{}»): un aviso o un paz y salvo se verifica en «Verificar aviso».",
                acta::TITLE
            )));
        }
    }
    let mismatch = acta::check(&program.program, r, format, &lines).map_err(|e| {
        WebError::bad_request(format!("No se pudo leer el acta recién generada: {e}"))
    })?;
    let text = match mismatch {
        Some(Mismatch::Fingerprint { recomputed }) => {
            return Ok(Verdict::Differs(format!(
                "Los resultados registrados de la adjudicación N.º {} dan la huella {recomputed}, pero la adjudicación \
             registró {}: el registro mismo necesita revisión.",
                r.run.id, r.run.fingerprint
            )));
        }
        Some(Mismatch::Text(d)) => {
            return Ok(Verdict::Differs(acta_difference_sentence(Lang::Es, &d)));
        }
        None => format!(
            "El acta coincide con la adjudicación N.º {} de {code} ({}, {}); huella {}.",
            r.run.id,
            // the words of `vigia offer verify` (Msg::ActaVerified)
            views::cuenta(r.rows.len() as u64, "aceptante", "aceptantes"),
            views::cuenta(
                r.header.awarded,
                "acción adjudicada",
                "acciones adjudicadas"
            ),
            r.run.fingerprint
        ),
    };
    // its bytes against the files vigia wrote of it, after the text's verdict
    let acta = crate::store::acta_files::Acta::Run(r.run.id);
    super::acta_files::verdict(conn, acta, bytes, text)
}
