//! The check's decisions about an adjudication's pledges (SPEC §7, Art. 10; LEGAL_NOTES §7.6):
//! several may be in force, each over its shares (the financed shares in the second degree, the
//! rest in the first). MISSING_PLEDGE counts the shares none covers; PLEDGE_RANK looks at each
//! second-degree pledge; PLEDGE_RELEASABLE and PLEDGE_ENFORCEABLE name each pledge in force.
//! Pure, like [`super::assess`]; the catalogue words a pledge's part.

use super::{Code, Why};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A pledge in force on the as-of date (Art. 10: an adjudication may have several, each over its
/// shares).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pledge {
    pub id: i64,
    /// 1 = first degree, 2 = second degree.
    pub rank: u8,
    pub shares: u64,
}

/// What the pledge decisions look at of an adjudication on the as-of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Holding<'a> {
    pub shares: u64,
    /// A lender financed the purchase (it may then hold the first-degree pledge).
    pub financed: bool,
    /// How many shares the lender financed (0 when not recorded).
    pub financed_shares: u64,
    /// The lock-up's last day.
    pub lockup_end: NaiveDate,
    /// The pledges in force, in id order.
    pub pledges: &'a [Pledge],
}

/// Which part of a split adjudication a pledge covers, for the findings that name one of several
/// pledges in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub rank: u8,
    pub shares: u64,
}

/// The shares some pledges cover together (saturating: no register holds `u64::MAX` shares).
fn covered<'a>(pledges: impl IntoIterator<Item = &'a Pledge>) -> u64 {
    pledges
        .into_iter()
        .fold(0u64, |sum, p| sum.saturating_add(p.shares))
}

type Push<'p> = dyn FnMut(Code, Option<i64>, Option<Decimal>, Why) + 'p;

/// MISSING_PLEDGE (shares no pledge in force covers, during the lock-up or while a fine is
/// owed) and PLEDGE_RANK (a second-degree pledge nobody's financing explains, or second-degree
/// pledges over more shares than the lender financed).
pub(super) fn held(a: &Holding<'_>, in_lockup: bool, owes: bool, push: &mut Push<'_>) {
    let end = a.lockup_end;
    let covered_now = covered(a.pledges);
    if covered_now < a.shares && (in_lockup || owes) {
        let why = match (a.pledges.is_empty(), in_lockup) {
            (true, true) => Why::MissingPledgeInLockup { end },
            (true, false) => Why::MissingPledgeWhileOwed,
            (false, _) => Why::PledgeShort {
                end: in_lockup.then_some(end),
                covered: covered_now,
                shares: a.shares,
            },
        };
        push(Code::MissingPledge, None, None, why);
    }
    let second: Vec<&Pledge> = a.pledges.iter().filter(|p| p.rank == 2).collect();
    if !a.financed {
        for p in &second {
            push(
                Code::PledgeRank,
                None,
                None,
                Why::PledgeRank { pledge: p.id },
            );
        }
    } else if a.financed_shares > 0 {
        let in_second = covered(second.iter().copied());
        if in_second > a.financed_shares {
            push(
                Code::PledgeRank,
                None,
                None,
                Why::PledgeRankBeyondFinancing {
                    pledges: second.iter().map(|p| p.id).collect(),
                    second: in_second,
                    financed: a.financed_shares,
                },
            );
        }
    }
}

/// PLEDGE_RELEASABLE (after the lock-up, nothing owed) and PLEDGE_ENFORCEABLE (a notice overdue
/// with this balance), one finding per pledge in force, each naming its part when there are
/// several.
pub(super) fn freed_or_enforced(
    a: &Holding<'_>,
    releasable: bool,
    overdue: Option<(i64, Decimal)>,
    push: &mut Push<'_>,
) {
    let split = a.pledges.len() > 1;
    let part = |p: &Pledge| {
        split.then_some(Part {
            rank: p.rank,
            shares: p.shares,
        })
    };
    for p in a.pledges {
        if releasable {
            push(
                Code::PledgeReleasable,
                None,
                None,
                Why::PledgeReleasable {
                    end: a.lockup_end,
                    pledge: p.id,
                    of: part(p),
                },
            );
        }
        if let Some((breach, due)) = overdue {
            push(
                Code::PledgeEnforceable,
                Some(breach),
                Some(due),
                Why::PledgeEnforceable {
                    breach,
                    pledge: p.id,
                    due,
                    of: part(p),
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    //! Worked by hand: an adjudication of 1,000 shares on 2024-03-15 (lock-up to 2026-03-15), a
    //! lender financed 600 of them; pledge 7 of the 600 in the second degree, pledge 8 of the
    //! other 400 in the first. (`check::assess` calls these; `tests/it/split_pledges.rs` runs
    //! them through the binary.)
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    const SECOND: Pledge = Pledge {
        id: 7,
        rank: 2,
        shares: 600,
    };
    const FIRST: Pledge = Pledge {
        id: 8,
        rank: 1,
        shares: 400,
    };

    fn holding(pledges: &[Pledge]) -> Holding<'_> {
        Holding {
            shares: 1000,
            financed: true,
            financed_shares: 600,
            lockup_end: day("2026-03-15"),
            pledges,
        }
    }

    /// (code, why) of [`held`] during the lock-up, nothing owed.
    fn held_in_lockup(pledges: &[Pledge]) -> Vec<(Code, Why)> {
        let mut got = Vec::new();
        held(&holding(pledges), true, false, &mut |c, _, _, w| {
            got.push((c, w))
        });
        got
    }

    #[test]
    fn a_pledge_of_the_financed_shares_alone_leaves_400_without_a_pledge() {
        assert_eq!(
            held_in_lockup(&[SECOND]),
            [(
                Code::MissingPledge,
                Why::PledgeShort {
                    end: Some(day("2026-03-15")),
                    covered: 600,
                    shares: 1000,
                }
            )]
        );
        // both pledges: every share covered, each rank where Art. 10 puts it
        assert_eq!(held_in_lockup(&[SECOND, FIRST]), []);
        // none: today's finding, unchanged
        assert_eq!(
            held_in_lockup(&[]),
            [(
                Code::MissingPledge,
                Why::MissingPledgeInLockup {
                    end: day("2026-03-15")
                }
            )]
        );
    }

    #[test]
    fn the_second_degree_over_unfinanced_shares_is_a_rank_finding() {
        let all = Pledge {
            shares: 1000,
            ..SECOND
        };
        assert_eq!(
            held_in_lockup(&[all]),
            [(
                Code::PledgeRank,
                Why::PledgeRankBeyondFinancing {
                    pledges: vec![7],
                    second: 1000,
                    financed: 600,
                }
            )]
        );
    }

    #[test]
    fn each_pledge_in_force_is_releasable_and_enforceable_on_its_own() {
        let part = |p: Pledge| {
            Some(Part {
                rank: p.rank,
                shares: p.shares,
            })
        };
        let end = day("2026-03-15");
        let mut got = Vec::new();
        freed_or_enforced(&holding(&[SECOND, FIRST]), true, None, &mut |c, _, _, w| {
            got.push((c, w))
        });
        assert_eq!(
            got,
            [
                (
                    Code::PledgeReleasable,
                    Why::PledgeReleasable {
                        end,
                        pledge: 7,
                        of: part(SECOND),
                    }
                ),
                (
                    Code::PledgeReleasable,
                    Why::PledgeReleasable {
                        end,
                        pledge: 8,
                        of: part(FIRST),
                    }
                ),
            ]
        );
        // breach 1's notice is overdue with $ 1.000 owed
        let due = Decimal::from(1000);
        let mut got = Vec::new();
        freed_or_enforced(
            &holding(&[SECOND, FIRST]),
            false,
            Some((1, due)),
            &mut |c, b, o, w| got.push((c, b, o, w)),
        );
        assert_eq!(
            got,
            [
                (
                    Code::PledgeEnforceable,
                    Some(1),
                    Some(due),
                    Why::PledgeEnforceable {
                        breach: 1,
                        pledge: 7,
                        due,
                        of: part(SECOND),
                    }
                ),
                (
                    Code::PledgeEnforceable,
                    Some(1),
                    Some(due),
                    Why::PledgeEnforceable {
                        breach: 1,
                        pledge: 8,
                        due,
                        of: part(FIRST),
                    }
                ),
            ]
        );
        // a single pledge is named as before, without its part
        let mut got = Vec::new();
        freed_or_enforced(&holding(&[FIRST]), true, None, &mut |_, _, _, w| {
            got.push(w)
        });
        assert_eq!(
            got,
            [Why::PledgeReleasable {
                end,
                pledge: 8,
                of: None
            }]
        );
    }
}
