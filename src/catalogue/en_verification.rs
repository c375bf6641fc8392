//! The web's verification of a notice or a paz y salvo, in English ([`super::verification`]).

use super::verification::{Mark, Row, Said, Unverified};
use crate::notice::DocFormat;
use crate::register::verify::{File, PaidSince, Standing, Text, Unverifiable, Verified};

pub(super) fn unverifiable(e: &Unverifiable) -> Unverified {
    Unverified {
        outcome: "The document could not be verified.".into(),
        reason: format!("Reason: {}.", e.said().en()),
    }
}

fn paid(p: &PaidSince) -> String {
    format!(
        "The fine of this notice has been paid in full ({}): {}.",
        p.on,
        paz_y_salvo(p)
    )
}

fn mark(m: Mark) -> &'static str {
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

pub(super) fn verification(v: &Verified) -> Said {
    let kind = v.kind.said();
    let kind = kind.en();
    let row = |check, mark, detail| Row {
        check,
        mark,
        shown: self::mark(mark),
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
        outcome: if v.matches() {
            "The document matches the register: text, figures and fingerprint.".into()
        } else {
            "The document does NOT match the register (see the detail).".into()
        },
        paid: v.paid_since.as_ref().map(paid),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::verify::{Fingerprint, Kind};

    fn day(s: &str) -> chrono::NaiveDate {
        s.parse().unwrap()
    }

    /// A notice changed after issue, paid in full since with no paz y salvo yet, and replaced.
    fn changed() -> Verified {
        Verified {
            kind: Kind::Notice,
            number: "MULTA-2025-0003".into(),
            program: "D3939-2004".into(),
            liquidation_id: 7,
            text: Text::Match,
            file: File::Changed {
                sha256: "ab12".into(),
                written: 2,
            },
            fingerprint: Fingerprint {
                stored: "f1".into(),
                recomputed: "f2".into(),
                printed: false,
            },
            same_figures: false,
            voids: Vec::new(),
            standing: Some(Standing::Replaced {
                number: "MULTA-2025-0009".into(),
                date: day("2025-03-04"),
            }),
            paid_since: Some(PaidSince {
                on: day("2025-03-01"),
                settlement: None,
            }),
        }
    }

    #[test]
    fn each_check_is_worded_in_english_with_its_mark() {
        let s = verification(&changed());
        let marks: Vec<Mark> = s.rows.iter().map(|r| r.mark).collect();
        assert_eq!(
            marks,
            [
                Mark::Holds,
                Mark::Fails,
                Mark::Fails,
                Mark::Fails,
                Mark::Fails
            ]
        );
        assert_eq!(s.rows[1].check, "File");
        assert_eq!(s.rows[1].shown, "✗ does not match");
        assert_eq!(
            s.rows[4].detail,
            "replaced by notice MULTA-2025-0009 of 2025-03-04; this notice is no longer in force"
        );
        assert_eq!(s.document.1, "MULTA-2025-0003");
        assert_eq!(
            s.outcome,
            "The document does NOT match the register (see the detail)."
        );
    }
}
