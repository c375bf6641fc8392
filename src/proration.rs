//! Sharing an oversubscribed offer pro rata (Decreto 3939 Art. 12 num. 2; seed 000's variant), in
//! exact integer arithmetic: every award is a whole number of shares, no award exceeds what its
//! acceptance admitted, and the awards of an oversubscribed offer add up to the offer exactly.

use std::cmp::Ordering;
use std::fmt;

/// How quotas become whole shares (a program parameter, `proration` in the program file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Decreto 3939 Art. 12 num. 2: each quota to the nearest whole share (halves up); if the
    /// sum exceeds the offer, one share less for each award starting with the largest,
    /// descending; if it falls short, one more for each starting with the smallest, ascending.
    /// Equal awards go in filing order.
    NearestAdjust,
    /// Seed 000: every quota rounded down; every leftover share goes to the acceptance with the
    /// smallest award (the smallest positive award; equal awards in filing order; the first filed
    /// if every award is zero), up to what it admitted, then to the next smallest. Program
    /// files written before the rule had its full name say `floor-smallest`.
    #[serde(alias = "floor-smallest")]
    FloorLeftoverToSmallest,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::NearestAdjust => "nearest-adjust",
            Rule::FloorLeftoverToSmallest => "floor-leftover-to-smallest",
        }
    }

    /// Where the rule comes from, for the acta.
    /// The rule in the acta's words, without its source.
    pub fn describe_es(self) -> &'static str {
        match self {
            Rule::NearestAdjust => {
                "prorrata con aproximación al entero más próximo y ajuste de una acción por \
                 adjudicatario"
            }
            Rule::FloorLeftoverToSmallest => {
                "prorrata por defecto, con las acciones sobrantes de las fracciones al aceptante \
                 de menor adjudicación"
            }
        }
    }

    pub fn source_es(self) -> &'static str {
        match self {
            Rule::NearestAdjust => {
                "prorrata con aproximación al entero más próximo y ajuste de una acción por \
                 adjudicatario (Decreto 3939 de 2004, artículo 12, numeral 2)"
            }
            Rule::FloorLeftoverToSmallest => {
                "prorrata por defecto, con las acciones sobrantes de las fracciones al aceptante \
                 de menor adjudicación"
            }
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Rule, String> {
        match s {
            "nearest-adjust" => Ok(Rule::NearestAdjust),
            "floor-leftover-to-smallest" => Ok(Rule::FloorLeftoverToSmallest),
            _ => Err(format!(
                "{s:?} is not a proration rule; use nearest-adjust (Decreto 3939 Art. 12) or \
                 floor-leftover-to-smallest"
            )),
        }
    }
}

/// A quota: `offer × admitted / demand` shares, exactly, as a whole part and a remainder over
/// the demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    pub whole: u64,
    /// The fraction's numerator; its denominator is the demand.
    pub remainder: u128,
    pub demand: u128,
}

impl Quota {
    /// The quota rounded to the nearest whole share, halves up.
    fn nearest(self) -> u64 {
        // remainder / demand >= 1/2  ⇔  2 × remainder >= demand
        if 2 * self.remainder >= self.demand {
            self.whole + 1
        } else {
            self.whole
        }
    }

    /// The quota as [`fmt::Display`] writes it, made in one allocation (a run writes one a
    /// person, a million at national scale).
    pub fn text(self) -> String {
        use fmt::Write as _;
        let mut s = String::with_capacity(64);
        let _infallible = write!(s, "{self}");
        s
    }
}

impl fmt::Display for Quota {
    /// `1234 + 56/789`, or `1234` when exact: the quota as the person checking it would write it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.remainder == 0 {
            return write!(f, "{}", self.whole);
        }
        // the same digits, as 64-bit numbers when they fit (a demand of shares always does):
        // formatting a 128-bit one divides by 128 bits
        match (u64::try_from(self.remainder), u64::try_from(self.demand)) {
            (Ok(r), Ok(d)) => write!(f, "{} + {r}/{d}", self.whole),
            _ => write!(f, "{} + {}/{}", self.whole, self.remainder, self.demand),
        }
    }
}

/// Why shares could not be shared out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The admitted shares add up to more than a count can hold.
    DemandOverflow,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::DemandOverflow => {
                f.write_str("the admitted shares add up to more than a count can hold")
            }
        }
    }
}

impl std::error::Error for Error {}

/// The outcome: one award per acceptance, in the order given (filing order), with its quota
/// when the offer was oversubscribed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub demand: u64,
    pub oversubscribed: bool,
    pub awards: Vec<u64>,
    /// Each acceptance's exact quota; `None` when the demand fits in the offer.
    pub quotas: Option<Vec<Quota>>,
}

/// Shares `offer` among acceptances that admitted `admitted[i]` shares each, given in filing
/// order. If the demand fits in the offer everyone gets what was admitted; otherwise the quotas
/// are `offer × admitted / demand` and `rule` makes them whole.
pub fn share(offer: u64, admitted: &[u64], rule: Rule) -> Result<Shared, Error> {
    let demand = admitted
        .iter()
        .try_fold(0u64, |s, &a| s.checked_add(a))
        .ok_or(Error::DemandOverflow)?;
    if demand <= offer {
        return Ok(Shared {
            demand,
            oversubscribed: false,
            awards: admitted.to_vec(),
            quotas: None,
        });
    }
    // offer < demand ≤ u64::MAX, so every product fits in u128 and every quota is below its
    // admitted shares.
    let quotas: Vec<Quota> = admitted
        .iter()
        .map(|&a| {
            let product = u128::from(offer) * u128::from(a);
            let d = u128::from(demand);
            Quota {
                whole: u64::try_from(product / d).expect("a quota is below its admitted shares"),
                remainder: product % d,
                demand: d,
            }
        })
        .collect();
    let awards = match rule {
        Rule::NearestAdjust => nearest_adjust(offer, admitted, &quotas),
        Rule::FloorLeftoverToSmallest => floor_leftover(offer, admitted, &quotas),
    };
    Ok(Shared {
        demand,
        oversubscribed: true,
        awards,
        quotas: Some(quotas),
    })
}

/// Art. 12 num. 2. Each pass over the awards in the article's order moves one share each until
/// the sum is the offer; an acceptance already at its admitted shares gets no more.
fn nearest_adjust(offer: u64, admitted: &[u64], quotas: &[Quota]) -> Vec<u64> {
    let mut awards: Vec<u64> = quotas.iter().map(|q| q.nearest()).collect();
    // Every award is at most its admitted shares (a quota below an integer rounds to at most it),
    // and the sum of the awards is within n/2 of the offer, so it fits in a u64.
    let mut sum: u64 = awards.iter().sum();
    // the order is fixed by the rounded awards, before any share moves
    let mut order: Vec<usize> = (0..awards.len()).collect();
    match sum.cmp(&offer) {
        Ordering::Equal => {}
        Ordering::Greater => {
            // largest first; equal awards in filing order
            order.sort_by(|&i, &j| awards[j].cmp(&awards[i]).then(i.cmp(&j)));
            while sum > offer {
                for &i in &order {
                    if sum == offer {
                        break;
                    }
                    if awards[i] > 0 {
                        awards[i] -= 1;
                        sum -= 1;
                    }
                }
            }
        }
        Ordering::Less => {
            // smallest first; equal awards in filing order
            order.sort_by(|&i, &j| awards[i].cmp(&awards[j]).then(i.cmp(&j)));
            while sum < offer {
                let before = sum;
                for &i in &order {
                    if sum == offer {
                        break;
                    }
                    if awards[i] < admitted[i] {
                        awards[i] += 1;
                        sum += 1;
                    }
                }
                assert!(
                    sum > before,
                    "the demand exceeds the offer, so someone can take more"
                );
            }
        }
    }
    awards
}

/// Seed 000: floors, then the leftover to the smallest positive award (equal awards in filing
/// order), up to its admitted shares, then the next smallest; awards of zero come last, in
/// filing order (so the first filed takes it all when every award is zero).
fn floor_leftover(offer: u64, admitted: &[u64], quotas: &[Quota]) -> Vec<u64> {
    let mut awards: Vec<u64> = quotas.iter().map(|q| q.whole).collect();
    let mut left = offer - awards.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..awards.len()).collect();
    order.sort_by_key(|&i| (awards[i] == 0, awards[i], i));
    for i in order {
        if left == 0 {
            break;
        }
        let room = admitted[i] - awards[i];
        let given = room.min(left);
        awards[i] += given;
        left -= given;
    }
    debug_assert_eq!(
        left, 0,
        "the demand exceeds the offer, so the leftover finds room"
    );
    awards
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn awards(offer: u64, admitted: &[u64], rule: Rule) -> Vec<u64> {
        share(offer, admitted, rule).unwrap().awards
    }

    #[test]
    fn a_demand_that_fits_is_awarded_in_full() {
        let s = share(100, &[30, 70], Rule::NearestAdjust).unwrap();
        assert_eq!(s.awards, vec![30, 70]);
        assert!(!s.oversubscribed);
        assert_eq!(s.quotas, None);
    }

    #[test]
    fn nearest_rounding_that_overshoots_takes_from_the_largest_first() {
        // offer 10 among 3 × 2 admitted shares... worked by hand: demand 12, quotas
        // 10×4/12 = 3.33, 10×4/12 = 3.33, 10×4/12 = 3.33 → 3,3,3 = 9 < 10: the smallest first
        // (all equal: filing order) gets one more → 4,3,3.
        assert_eq!(awards(10, &[4, 4, 4], Rule::NearestAdjust), vec![4, 3, 3]);
        // offer 5 among 3,3,3,1 (demand 10): quotas 1.5, 1.5, 1.5, 0.5 → halves up 2,2,2,1 = 7;
        // two too many: take one from the largest (2,2,2 equal: filing order) → 1,1,2,1.
        assert_eq!(
            awards(5, &[3, 3, 3, 1], Rule::NearestAdjust),
            vec![1, 1, 2, 1]
        );
        // offer 7 among 10, 5 (demand 15): quotas 4.67, 2.33 → 5, 2 = 7: nothing to adjust.
        assert_eq!(awards(7, &[10, 5], Rule::NearestAdjust), vec![5, 2]);
    }

    #[test]
    fn nearest_rounding_that_falls_short_adds_to_the_smallest_first() {
        // offer 10 among 6, 6, 6 (demand 18): quotas 3.33 each → 3,3,3 = 9; one more to the
        // first filed of the equal smallest.
        assert_eq!(awards(10, &[6, 6, 6], Rule::NearestAdjust), vec![4, 3, 3]);
        // offer 100 among 1, 1, 198 (demand 200): quotas 0.5, 0.5, 99 → 1, 1, 99 = 101; one too
        // many: the largest (99) gives one → 1, 1, 98.
        assert_eq!(
            awards(100, &[1, 1, 198], Rule::NearestAdjust),
            vec![1, 1, 98]
        );
    }

    #[test]
    fn the_floor_rule_gives_the_leftover_to_the_smallest_positive_award() {
        // offer 10 among 6, 6, 6 → floors 3,3,3; leftover 1 to the first filed (equal).
        assert_eq!(
            awards(10, &[6, 6, 6], Rule::FloorLeftoverToSmallest),
            vec![4, 3, 3]
        );
        // offer 10 among 1, 13, 6 (demand 20): quotas 0.5, 6.5, 3 → floors 0, 6, 3 = 9; the
        // smallest positive award is 3 (third acceptance), not the zero: it takes the 1.
        assert_eq!(
            awards(10, &[1, 13, 6], Rule::FloorLeftoverToSmallest),
            vec![0, 6, 4]
        );
        // every award zero: offer 2 among 3, 3, 3 → floors 0,0,0 (quota 0.67 each); the first
        // filed takes the 2.
        assert_eq!(
            awards(2, &[3, 3, 3], Rule::FloorLeftoverToSmallest),
            vec![2, 0, 0]
        );
        // the receiver is capped at what it admitted, the rest goes to the next smallest:
        // offer 4 among 1, 1, 1, 1, 1 → floors 0 each; first filed takes 1 (its admitted), then
        // the next... 1,1,1,1,0.
        assert_eq!(
            awards(4, &[1, 1, 1, 1, 1], Rule::FloorLeftoverToSmallest),
            vec![1, 1, 1, 1, 0]
        );
    }

    #[test]
    fn quotas_are_exact_fractions() {
        let s = share(10, &[4, 4, 4], Rule::NearestAdjust).unwrap();
        let q = s.quotas.unwrap();
        assert_eq!(q[0].to_string(), "3 + 4/12");
        assert_eq!(
            share(6, &[4, 4, 4], Rule::NearestAdjust)
                .unwrap()
                .quotas
                .unwrap()[0]
                .to_string(),
            "2"
        );
        assert_eq!(
            share(1, &[u64::MAX, 1], Rule::NearestAdjust),
            Err(Error::DemandOverflow)
        );
    }

    #[test]
    fn a_quota_is_written_with_every_digit_however_wide_its_numbers() {
        let q = |whole, remainder, demand| Quota {
            whole,
            remainder,
            demand,
        };
        // the widest a demand of shares gives (64 bits), and wider (written by 128-bit digits)
        let cases = [
            (q(7, 0, 9), "7"),
            (q(5, 17_623_950, 19_274_226), "5 + 17623950/19274226"),
            (
                q(u64::MAX, u128::from(u64::MAX) - 1, u128::from(u64::MAX)),
                "18446744073709551615 + 18446744073709551614/18446744073709551615",
            ),
            (
                q(1, 1, u128::from(u64::MAX) + 1),
                "1 + 1/18446744073709551616",
            ),
        ];
        for (quota, text) in cases {
            assert_eq!(quota.to_string(), text);
            assert_eq!(quota.text(), text);
        }
    }

    #[test]
    fn rules_are_named_as_in_the_program_file() {
        for r in [Rule::NearestAdjust, Rule::FloorLeftoverToSmallest] {
            assert_eq!(r.as_str().parse::<Rule>(), Ok(r));
        }
        assert!("largest-remainder".parse::<Rule>().is_err());
    }

    proptest! {
        #[test]
        fn an_oversubscribed_offer_is_awarded_exactly(
            admitted in proptest::collection::vec(0u64..1_000_000_000_000, 1..40),
            offer_part in 0u64..1000,
            floor in any::<bool>(),
        ) {
            let demand: u64 = admitted.iter().sum();
            let offer = demand.saturating_sub(1) * offer_part / 1000;
            let rule = if floor { Rule::FloorLeftoverToSmallest } else { Rule::NearestAdjust };
            let s = share(offer, &admitted, rule).unwrap();
            prop_assert_eq!(s.awards.len(), admitted.len());
            for (a, m) in s.awards.iter().zip(&admitted) {
                prop_assert!(a <= m, "award {} above admitted {}", a, m);
            }
            let total: u64 = s.awards.iter().sum();
            prop_assert_eq!(total, offer.min(demand));
            if let Some(q) = s.quotas {
                if floor {
                    // nobody below the floor, and the leftover went in the rule's order: every
                    // acceptance given more than its floor comes before every one that had room
                    // and got nothing more
                    let key = |i: usize| (q[i].whole == 0, q[i].whole, i);
                    for i in 0..q.len() {
                        prop_assert!(s.awards[i] >= q[i].whole);
                        for j in 0..q.len() {
                            if s.awards[i] > q[i].whole && s.awards[j] == q[j].whole && s.awards[j] < admitted[j] {
                                prop_assert!(key(i) < key(j), "{} got the leftover before {}", i, j);
                            }
                        }
                    }
                } else {
                    for (a, q) in s.awards.iter().zip(&q) {
                        // within a share and a half of the exact quota (rounded, then one move)
                        let exact_twice = 2 * u128::from(q.whole) * q.demand + 2 * q.remainder;
                        let award_twice = 2 * u128::from(*a) * q.demand;
                        prop_assert!(award_twice.abs_diff(exact_twice) <= 3 * q.demand);
                    }
                }
            }
        }
    }
}
