//! The web's verification of a notice or a paz y salvo, in English ([`super::verification`]).

use super::verification::{Found, Mark, Said, Unverified, format, place};
use crate::lang::Lang;
use crate::register::verify::{
    File, Kind, Lapse, Outcome, PaidSince, Standing, Text, Unverifiable, Verified,
};

pub(super) fn unverifiable(e: &Unverifiable) -> Unverified {
    Unverified {
        outcome: "The document could not be verified.".into(),
        reason: format!("Reason: {}.", e.said().en()),
        acta_link: match e {
            Unverifiable::Acta {
                stage,
                program: Some(_),
            } => Some(format!(
                "Verify the acta on the program's {} page",
                match stage {
                    1 => "offer",
                    2 => "Second Stage",
                    _ => "Third Stage",
                }
            )),
            _ => None,
        },
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
        Mark::Note => "• to bear in mind",
        Mark::Lapsed => "• no longer in force",
    }
}

/// When a notice's fine was paid in full, against the notice's date and the day it prices the
/// fine to: "paid in full on 2025-02-10, the notice's own date".
pub(super) fn paid_on(p: &PaidSince) -> String {
    let (on, notice) = (p.on, p.notice_date);
    let when = if on == notice {
        "the notice's own date".to_string()
    } else if on > notice {
        format!("after the notice's date ({notice})")
    } else if on == p.until {
        format!("the day the notice prices the fine to (the notice is of {notice})")
    } else {
        format!("before the notice's date ({notice})")
    };
    format!("paid in full on {on}, {when}")
}

/// A paz y salvo whose figures the register no longer gives: why (no payment or void is
/// recorded after one) and what it calls for (vigia issues one per fine, not a new one).
pub(super) const PAZ_OTHER_FIGURES: &str = "(a stage price or rate recorded since): review the \
     fine's liquidation; a paz y salvo is not issued twice";

/// What a verification comes to, in one sentence (the web's headline, the command line's last
/// line).
pub(super) fn verdict(kind: Kind, o: &Outcome) -> String {
    match o {
        Outcome::InForce => {
            "The document matches the register: text, figures and fingerprint; it is in force."
                .into()
        }
        Outcome::Lapsed(why) => {
            let why: Vec<String> = why.iter().map(|l| lapse(l, kind)).collect();
            format!(
                "The document is authentic (text, figures and fingerprint as vigia issued it), but \
                 no longer in force: {}.",
                why.join("; ")
            )
        }
        Outcome::Mismatch => "The document does NOT match the register (see the detail).".into(),
        Outcome::BadSignature => "The document's digital signature does not hold (see \
             «Digital signature»): it is not to be relied on, whatever the register says."
            .into(),
    }
}

/// Why an authentic document is no longer in force, in English.
fn lapse(l: &Lapse, kind: Kind) -> String {
    match l {
        Lapse::Paid(p) => format!("the fine was {}; {}", paid_on(p), paz_y_salvo(p)),
        Lapse::Replaced { number, date } => format!("replaced by notice {number} of {date}"),
        Lapse::Voided(s) => s.said().en().to_string(),
        Lapse::OtherFigures if kind == Kind::Settlement => {
            format!("the register gives other figures today {PAZ_OTHER_FIGURES}")
        }
        Lapse::OtherFigures => "the register gives other figures today (a payment, stage price \
                                or rate recorded since); a new notice is due"
            .into(),
    }
}

/// What a paid fine's holder is owed: its paz y salvo, issued or to issue.
fn paz_y_salvo(p: &PaidSince) -> String {
    match &p.settlement {
        Some((number, date)) => format!("its paz y salvo is {number} of {date}"),
        None => "its paz y salvo is due, not a new payment demand".into(),
    }
}

/// What `f` checked and found, in English (`k`: the document's kind).
fn words(f: &Found<'_>, k: Kind) -> (&'static str, String) {
    let kind = k.said();
    let kind = kind.en();
    match f {
        Found::Text(Text::Match) => ("Text and figures", "match the register".into()),
        Found::Text(Text::LineDiffers {
            at,
            expected,
            found,
        }) => (
            "Text and figures",
            format!(
                "at {} it should say «{expected}» and says «{found}»",
                place(Lang::En, at)
            ),
        ),
        Found::Text(Text::LineCount { expected, found }) => (
            "Text and figures",
            format!("the document should have {expected} lines and has {found}"),
        ),
        Found::File(file) => ("File", file_en(file, kind)),
        Found::Fingerprint(fp) if fp.matches() => (
            "Liquidation's fingerprint",
            format!("{} matches", fp.stored),
        ),
        Found::Fingerprint(fp) => (
            "Liquidation's fingerprint",
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
        ),
        Found::SameFigures => (
            "Figures recomputed today",
            "the register gives the same figures".into(),
        ),
        Found::OtherFigures(Some(p)) => (
            "Figures recomputed today",
            format!(
                "the register gives different figures because the fine was {}: nothing is left \
                 to demand; {}",
                paid_on(p),
                paz_y_salvo(p)
            ),
        ),
        Found::OtherFigures(None) if k == Kind::Settlement => (
            "Figures recomputed today",
            format!("the register gives different figures {PAZ_OTHER_FIGURES}"),
        ),
        Found::OtherFigures(None) => (
            "Figures recomputed today",
            format!(
                "the register gives different figures (a payment, stage price or rate recorded \
                 since); issue a new {kind}"
            ),
        ),
        Found::PaidSince(p) => (
            "The fine",
            format!(
                "paid in full on {}, after this liquidation's date: nothing is left to demand; {}",
                p.on,
                paz_y_salvo(p)
            ),
        ),
        Found::Void(s) => ("Voided payment", s.said().en().to_string()),
        Found::Standing(Standing::InForce) => {
            ("Later notice", "no later notice replaces it".into())
        }
        Found::Standing(Standing::Replaced { number, date }) => (
            "Later notice",
            format!("replaced by notice {number} of {date}; this notice is no longer in force"),
        ),
    }
}

/// The file against those vigia wrote, in English.
fn file_en(file: &File, kind: &str) -> String {
    match file {
        File::Issued {
            sha256,
            format: f,
            at,
        } => format!(
            "identical to the issued file ({}, {at}; SHA-256 {sha256})",
            format(*f)
        ),
        File::RenderedAgain {
            sha256,
            format: f,
            at,
            by,
        } => format!(
            "identical to the file rendered again on {at} by {by} ({}; SHA-256 {sha256})",
            format(*f)
        ),
        File::NoRecord { .. } => {
            format!("no SHA-256 on record for this {kind} (issued before vigia recorded its files)")
        }
        File::Changed { sha256, written } => format!(
            "text and figures match, but the file was changed: its SHA-256 {sha256} is not one of \
             the {written} file(s) vigia wrote of it"
        ),
        File::Different { sha256 } => {
            format!("different from every file vigia wrote of it (SHA-256 {sha256})")
        }
    }
}

/// The web's verification of `v`, whose outcome (with its signature's) is `o`.
pub(super) fn verification(v: &Verified, o: &Outcome) -> Said {
    let kind = v.kind.said();
    let kind = kind.en();
    let rows = super::verification::rows(v, |f| words(f, v.kind), mark);
    Said {
        outcome: verdict(v.kind, o),
        paid: match o {
            Outcome::Lapsed(_) => None,
            _ => v.paid_since.as_ref().map(paid),
        },
        document: (
            format!("Document: {kind} "),
            v.number.clone(),
            format!(
                " of program {}, liquidation {}.",
                v.program, v.liquidation_id
            ),
        ),
        headers: ["Check", "Result", "Detail"],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::verification::{changed, lapsed};

    #[test]
    fn each_check_is_worded_in_english_with_its_mark() {
        let v = changed();
        let s = verification(&v, &v.outcome());
        let marks: Vec<Mark> = s.rows.iter().map(|r| r.mark).collect();
        assert_eq!(
            marks,
            [
                Mark::Holds,
                Mark::Fails,
                Mark::Fails,
                Mark::Lapsed,
                Mark::Lapsed
            ]
        );
        assert_eq!(s.rows[1].check, "File");
        assert_eq!(s.rows[1].shown, "✗ does not match");
        assert_eq!(s.rows[4].shown, "• no longer in force");
        assert_eq!(
            s.rows[3].detail,
            "the register gives different figures because the fine was paid in full on \
             2025-03-01, after the notice's date (2025-02-20): nothing is left to demand; its paz \
             y salvo is due, not a new payment demand"
        );
        assert_eq!(
            s.rows[4].detail,
            "replaced by notice MULTA-2025-0009 of 2025-03-04; this notice is no longer in force"
        );
        assert_eq!(s.document.1, "MULTA-2025-0003");
        assert_eq!(
            s.outcome,
            "The document does NOT match the register (see the detail)."
        );
        // the same notice as vigia issued it: authentic, no longer in force, why and since when
        let v = lapsed();
        let o = v.outcome();
        assert_eq!(
            verification(&v, &o).outcome,
            "The document is authentic (text, figures and fingerprint as vigia issued it), but no \
             longer in force: the fine was paid in full on 2025-03-01, after the notice's date \
             (2025-02-20); its paz y salvo is due, not a new payment demand; replaced by notice \
             MULTA-2025-0009 of 2025-03-04."
        );
        // a paz y salvo is issued once per fine: not "a new paz y salvo is due"
        assert_eq!(
            verdict(
                Kind::Settlement,
                &Outcome::Lapsed(vec![Lapse::OtherFigures])
            ),
            "The document is authentic (text, figures and fingerprint as vigia issued it), but no \
             longer in force: the register gives other figures today (a stage price or rate \
             recorded since): review the fine's liquidation; a paz y salvo is not issued twice."
        );
        let mut p = v.paid_since.clone().unwrap();
        p.on = p.notice_date;
        assert_eq!(
            paid_on(&p),
            "paid in full on 2025-02-20, the notice's own date"
        );
    }
}
