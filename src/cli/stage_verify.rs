//! `vigia stage verify FILE`: a later stage's acta against the register (its stored records
//! recomputed, then its text against a fresh rendering line by line, then its file and its
//! signatures).

use super::offer::{open_acta, unread, unreadable, wrong};
use super::stage_words;
use super::{CliError, Ctx, Status};
use crate::register::stage as rules;
use crate::report::stage_acta::{self, StageActaData};
use crate::store::acta_files::Acta;
use crate::store::programs;
use std::path::Path;

/// `stage verify FILE`: which program and stage the document names, the stored records
/// recomputed, then the document's text against a fresh rendering, line by line.
pub(super) fn verify(
    ctx: &mut Ctx<'_>,
    file: &Path,
    trust: Option<&Path>,
) -> Result<Status, CliError> {
    const FLAG: &str = "stage verify";
    let (acta, lines) = open_acta(file, FLAG)?;
    let format = acta.format();
    let (stage, acta_id) = lines
        .iter()
        .find_map(|l| stage_acta::parse_number_line(l))
        .ok_or_else(|| {
            let f = file.display();
            CliError::Said(crate::said!(cli::no_etapa_n_acta_n_k, FLAG, f))
        })?;
    let code = lines
        .iter()
        .find_map(|l| {
            l.strip_prefix("Programa: ")?
                .split_whitespace()
                .next()
                .map(str::to_string)
        })
        .ok_or_else(|| wrong(FLAG, file, crate::said!(cli::acta_without_program_line)))?;
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let conn = store.conn();
    let p = programs::by_code(conn, &code)?;
    if crate::store::stage::conclusion(conn, p.id, stage)?.is_none() {
        let said = crate::said!(cli::stage_acta_without_conclusion, acta_id, stage, code);
        return Err(wrong(FLAG, file, said));
    }
    let (c, differences) = rules::recheck(conn, &p, stage, &rates)?;
    let k = &c.conclusion;
    if let Some(d) = differences.first() {
        let line = stage_words::line(
            ctx.lang,
            &stage_words::Line::StageNotVerified {
                stage,
                code: &code,
                conclusion: k.id,
                found: d,
            },
        );
        writeln!(ctx.out, "{line}")?;
        return Ok(Status::Findings);
    }
    // the document read as it is compared, and the acta rendered again as it is compared: a
    // chunk or a page of each in memory; in the current layout, then in the earlier ones (an
    // acta written before keeps its text and page breaks); a difference is named in the layout
    // that agrees longest
    let mut checks = stage_acta::LayoutChecks::default();
    for layout in stage_acta::Layout::ALL
        .into_iter()
        .filter(|l| l.tried_for(format))
    {
        let data = StageActaData {
            program: &p.program,
            stage,
            concluded: &c,
            conn,
            layout,
        };
        let mut document = acta.lines().map_err(|e| unread(FLAG, file, e))?;
        let d = stage_acta::check(&data, format, &mut || document.next_line())
            .map_err(|reason| unreadable(FLAG, file, &reason))?;
        if checks.add(d) {
            break;
        }
    }
    let differs = checks.difference();
    if let Some(d) = differs {
        let line = stage_words::line(ctx.lang, &stage_words::Line::DocumentDiffers(&d));
        writeln!(ctx.out, "{line}")?;
        return Ok(Status::Findings);
    }
    let head = crate::store::audit::head_at(conn, "stage_conclusions", k.id)?;
    // its bytes against the files vigia wrote of it: one that is none of them is said first
    let found = super::acta_record::compared(conn, Acta::Conclusion(k.id), (file, FLAG))?;
    super::acta_record::say_headline(ctx, &found)?;
    let line = stage_words::line(
        ctx.lang,
        &stage_words::Line::Verified {
            stage,
            code: &code,
            conclusion: k,
            anchor: head.as_ref().map(|h| (h.count as u64, h.hash.as_str())),
            text_only: !found.ok(),
        },
    );
    writeln!(ctx.out, "{line}")?;
    let same = super::acta_record::say_file(ctx, &found)?;
    // the signature, when the acta carries one (issue 26), each result named
    Ok(
        if super::offer::signatures(ctx, &acta, trust, &p)? && same {
            Status::Ok
        } else {
            Status::Findings
        },
    )
}
