//! The web's verification of a notice or a paz y salvo, in English ([`super::verification`]).

use super::verification::{Mark, Outcome, Row, Said};
use crate::notice::DocFormat;
use crate::register::verify::{File, PaidSince, Standing, Text, Unverifiable, Verified};

pub(super) fn outcome(o: Outcome) -> String {
    match o {
        Outcome::Matches => {
            "The document matches the register: text, figures and fingerprint.".into()
        }
        Outcome::DoesNotMatch => {
            "The document does NOT match the register (see the detail).".into()
        }
        Outcome::Unverifiable => "The document could not be verified.".into(),
    }
}

pub(super) fn reason(e: &Unverifiable) -> String {
    format!("Reason: {}.", e.said().en())
}

pub(super) fn paid(p: &PaidSince) -> String {
    format!(
        "The fine of this notice has been paid in full ({}): {}.",
        p.on,
        paz_y_salvo(p)
    )
}

pub(super) fn mark(m: Mark) -> &'static str {
    match m {
        Mark::Holds => "✓ matches",
        Mark::Fails => "✗ does not match",
        Mark::NoData => "no data",
        Mark::Note => "ⓘ to bear in mind",
    }
}

/// What a paid fine's holder is owed: its paz y salvo, issued or to issue.
fn paz_y_salvo(p: &PaidSince) -> String {
    match &p.settlement {
        Some((number, date)) => format!("its paz y salvo is {number} of {date}"),
        None => "its paz y salvo is due, not a new payment demand".into(),
    }
}

fn format(f: DocFormat) -> &'static str {
    match f {
        DocFormat::Pdf => "PDF",
        DocFormat::Html => "HTML",
        DocFormat::Md => "Markdown",
    }
}

pub(super) fn said(v: &Verified) -> Said {
    let kind = v.kind.said();
    let kind = kind.en();
    let row = |check, mark, detail| Row {
        check,
        mark,
        detail,
    };
    let mut rows = Vec::new();
    let text = "Text and figures";
    rows.push(match &v.text {
        Text::Match => row(text, Mark::Holds, "match the register".into()),
        Text::LineDiffers {
            line,
            expected,
            found,
        } => row(
            text,
            Mark::Fails,
            format!("line {line} should say «{expected}» and says «{found}»"),
        ),
        Text::LineCount { expected, found } => row(
            text,
            Mark::Fails,
            format!("the document should have {expected} lines and has {found}"),
        ),
    });
    let file = "File";
    rows.push(match &v.file {
        File::Issued {
            sha256,
            format: f,
            at,
        } => row(
            file,
            Mark::Holds,
            format!(
                "identical to the issued file ({}, {at}; SHA-256 {sha256})",
                format(*f)
            ),
        ),
        File::RenderedAgain {
            sha256,
            format: f,
            at,
            by,
        } => row(
            file,
            Mark::Holds,
            format!(
                "identical to the file rendered again on {at} by {by} ({}; SHA-256 {sha256})",
                format(*f)
            ),
        ),
        File::NoRecord { .. } => row(
            file,
            Mark::NoData,
            format!(
                "no SHA-256 on record for this {kind} (issued before vigia recorded its files)"
            ),
        ),
        File::Changed { sha256, written } => row(
            file,
            Mark::Fails,
            format!(
                "text and figures match, but the file was changed: its SHA-256 {sha256} is not \
                 one of the {written} file(s) vigia wrote of it"
            ),
        ),
        File::Different { sha256 } => row(
            file,
            Mark::Fails,
            format!("different from every file vigia wrote of it (SHA-256 {sha256})"),
        ),
    });
    let fp = &v.fingerprint;
    let fingerprint = "Liquidation's fingerprint";
    rows.push(if fp.matches() {
        row(fingerprint, Mark::Holds, format!("{} matches", fp.stored))
    } else {
        row(
            fingerprint,
            Mark::Fails,
            format!(
                "stored {}, recomputed {}; {}",
                fp.stored,
                fp.recomputed,
                if fp.printed {
                    "the document shows it"
                } else {
                    "the document does not show it"
                }
            ),
        )
    });
    let figures = "Figures recomputed today";
    rows.push(match (&v.paid_since, v.same_figures) {
        (_, true) => row(
            figures,
            Mark::Holds,
            "the register gives the same figures".into(),
        ),
        (Some(p), false) => row(
            figures,
            Mark::Fails,
            format!(
                "the register gives different figures because the fine was paid in full after \
                 this notice (on {}): nothing is left to demand; {}",
                p.on,
                paz_y_salvo(p)
            ),
        ),
        (None, false) => row(
            figures,
            Mark::Fails,
            format!(
                "the register gives different figures (a payment, stage price or rate recorded \
                 since); issue a new {kind}"
            ),
        ),
    });
    if let (Some(p), true) = (&v.paid_since, v.same_figures) {
        rows.push(row(
            "The fine",
            Mark::Note,
            format!(
                "paid in full on {}, after this liquidation's date: nothing is left to demand; {}",
                p.on,
                paz_y_salvo(p)
            ),
        ));
    }
    for s in &v.voids {
        rows.push(row(
            "Voided payment",
            Mark::Fails,
            s.said().en().to_string(),
        ));
    }
    match &v.standing {
        Some(Standing::InForce) => rows.push(row(
            "In force",
            Mark::Holds,
            "in force: no later notice replaces it".into(),
        )),
        Some(Standing::Replaced { number, date }) => rows.push(row(
            "In force",
            Mark::Fails,
            format!("replaced by notice {number} of {date}; this notice is no longer in force"),
        )),
        None => {}
    }
    Said {
        document: (
            format!("Document: {kind} "),
            v.number.clone(),
            format!(
                " of program {}, liquidation {}.",
                v.program, v.liquidation_id
            ),
        ),
        headers: ["check", "result", "detail"],
        rows,
    }
}
