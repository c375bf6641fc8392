//! How the command line words what `stage verify` and `stage draw --verify` find: a stage's
//! conclusion or a draw that differs from its records (the rules return typed findings).

use crate::register::stage as rules;

/// `none`, or the value.
fn or_none<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "none".into(), |x| x.to_string())
}

/// A recorded draw's difference from its recomputation, in the command line's words.
pub(super) fn draw_discrepancy(d: &rules::DrawDiscrepancy) -> String {
    use rules::DrawDiscrepancy as D;
    match d {
        D::NoTie { tranche } => format!("the register shows no tie in tranche {tranche} any more"),
        D::Text { hashed, recomputed } => {
            format!("the text hashed was {hashed:?}; the record gives {recomputed:?}")
        }
        D::Digest {
            recorded,
            recomputed,
        } => format!("the digest recorded is {recorded}; SHA-256 gives {recomputed}"),
        D::NumberAndPlace {
            number,
            place,
            recomputed_number,
            recomputed_place,
        } => format!(
            "the number and place recorded are {number} and {place}; recomputed {recomputed_number} and \
             {recomputed_place}"
        ),
        D::Winner {
            recorded,
            recomputed,
        } => format!("the winner recorded is {recorded}; the draw gives {recomputed}"),
    }
}

/// A stage's stored conclusion's difference from its records, in the command line's words.
pub(super) fn discrepancy(d: &rules::Discrepancy) -> String {
    use rules::Discrepancy as D;
    match d {
        D::AwardCount { awards, tranches } => format!(
            "the conclusion records {awards} tranche award(s); the stage has {tranches} tranche(s)"
        ),
        D::NoAward { tranche: t } => format!("tranche {t} has no stored award"),
        D::Shares {
            tranche: t,
            recorded,
            offered,
        } => format!(
            "tranche {t}: the award records {recorded} shares; the tranche offers {offered}"
        ),
        D::StillTied {
            tranche: t,
            between,
        } => format!(
            "tranche {t}: the stored proposals are tied between {}, but the conclusion records a decision",
            between.join(", ")
        ),
        D::WinnerOfNone { tranche: t } => format!(
            "tranche {t}: the stored proposals give no valid one, but the award names a winner"
        ),
        D::OtherWinner { tranche: t, winner } => format!(
            "tranche {t}: the stored proposals give {winner} as the winner, but the award records another"
        ),
        D::Price {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records the price {}; the proposals give {given}",
            or_none(*recorded)
        ),
        D::Value {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records the value {}; the criterion gives {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::Draw {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records draw {}; the register gives {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::Rate {
            tranche: t,
            recorded,
            given,
        } => format!(
            "tranche {t}: the award records a rate of {recorded} % EA; the criterion gives {}",
            given.map_or_else(|| "none".into(), |g| format!("{g} % EA"))
        ),
        D::Awarded { recorded, sum } => {
            format!("the conclusion records {recorded} shares awarded; its awards add up to {sum}")
        }
        D::NotAddingUp {
            offered,
            awarded,
            leftover,
        } => format!(
            "the conclusion records {offered} offered, {awarded} awarded and {leftover} left over, which do \
             not add up"
        ),
        D::StagePrice { recorded, given } => format!(
            "the conclusion records the stage price {}; its awards give {}",
            or_none(*recorded),
            or_none(*given)
        ),
        D::DrawRecord {
            draw,
            tranche,
            found,
        } => format!(
            "draw {draw} (tranche {tranche}): {}",
            draw_discrepancy(found)
        ),
    }
}
