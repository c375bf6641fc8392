//! What a fine notice says (gathered from the register by `register::notice_data`): the
//! parties, the facts, the computation, the deadline, the split among the sellers, the interest per
//! additional day. Rendering (Markdown, HTML, PDF) is in `report::notice`. No I/O beyond reads.

use crate::fine::{Convention, Liquidation};
use crate::liquidation::{DayAfter, StageEntry};
use crate::money::round_peso;
use crate::program::{Letters, Seller, TermFrom};
use crate::store::breaches::Breach;
use crate::store::contacts::Contact;
use crate::store::pledges::Pledge;
use chrono::NaiveDate;
use rust_decimal::Decimal;

pub use crate::contact::{DocFormat, Via};

/// The text version of the documents issued now (recorded with each; see
/// `store::letterheads::DocText`). 1 is the text of the documents issued before issue 20, which
/// keep it: their letterhead is the program file's, and `report::notice_v1` renders them. 2 and
/// 3 are `report::notice_v2`'s: 3 prints the notice's reference prices with all their decimals
/// (layout 2 rounded them to two: «$ 1.450,13» for 1.450,125) and says a price *so far* keeps the
/// liquidation provisional until the later stage concludes. A paz y salvo reads the same in 2
/// and 3.
pub const LAYOUT: u8 = 3;

/// Everything a notice document shows.
#[derive(Debug, Clone)]
pub struct NoticeData {
    /// The text version it renders with ([`LAYOUT`]; 1 for notices issued before it).
    pub layout: u8,
    pub number: String,
    pub notice_date: NaiveDate,
    /// The day it was issued; its `notice_date` may be earlier, with `backdate_reason`.
    pub issued_on: NaiveDate,
    pub backdate_reason: Option<String>,
    /// The article and numeral of the acceptor's declaration the breach goes against, for the
    /// holder's kind of person (program file, `[letters]`), when the program names it.
    pub declaration: Option<String>,
    pub deadline: NaiveDate,
    pub term_business_days: u32,
    /// The notice this one replaces: number and date.
    pub supersedes: Option<(String, NaiveDate)>,
    pub program_code: String,
    pub decree: String,
    pub fine_article: String,
    pub pledge_article: String,
    pub issuer: String,
    pub sellers: Vec<Seller>,
    pub holder_name: String,
    pub doc_type: String,
    pub doc_number: String,
    pub category: String,
    pub adjudication_id: i64,
    pub adjudicated_on: NaiveDate,
    pub adjudicated_shares: u64,
    pub adjudication_price: Decimal,
    /// The pledge in force on the notice date (or the latest one).
    pub pledge: Option<Pledge>,
    /// Every pledge in force on the notice date (layout 2 names each: split pledges, Art. 10).
    pub pledges: Vec<Pledge>,
    pub breach: Breach,
    pub liquidation_id: i64,
    pub fingerprint: String,
    /// The audit chain's head right after the notice was recorded: the document can be checked
    /// against the chain and its signed checkpoints.
    pub chain: Option<crate::store::audit::Head>,
    pub liquidation: Liquidation,
    pub per_day: PerDay,
    /// The later stages' prices the stage price is the highest of (empty in liquidations stored
    /// before they were kept).
    pub stage_prices: Vec<StageEntry>,
    /// Informative split of the total due among the sellers: (name, shares, amount).
    pub split: Vec<(String, u64, Decimal)>,
    /// The program's letterhead (the register's one the notice recorded; the program file's for
    /// layout 1), payment instructions, paragraphs and the term's start.
    pub letters: Letters,
    /// The payment reference the holder quotes.
    pub reference: String,
    /// The holder's contact details in force when the notice was recorded.
    pub contact: Option<Contact>,
}

/// Everything a paz y salvo shows: the fine, the liquidation that shows it paid (every payment
/// with its imputation), and the pledge.
#[derive(Debug, Clone)]
pub struct SettlementData {
    /// The text version it renders with ([`LAYOUT`]; 1 for those issued before it).
    pub layout: u8,
    pub number: String,
    pub date: NaiveDate,
    pub program_code: String,
    pub decree: String,
    pub fine_article: String,
    pub pledge_article: String,
    pub sellers: Vec<Seller>,
    pub letters: Letters,
    pub holder_name: String,
    pub doc_type: String,
    pub doc_number: String,
    pub contact: Option<Contact>,
    pub adjudication_id: i64,
    pub adjudicated_on: NaiveDate,
    pub breach: Breach,
    /// The latest notice of the breach (number, date), if one was issued.
    pub notice: Option<(String, NaiveDate)>,
    /// The pledge in force on the certificate's date (or the latest one).
    pub pledge: Option<Pledge>,
    /// Every pledge in force on the certificate's date (layout 2 names each when several).
    pub pledges: Vec<Pledge>,
    pub liquidation_id: i64,
    pub fingerprint: String,
    pub chain: Option<crate::store::audit::Head>,
    pub liquidation: Liquidation,
}

/// A notice's payment deadline: the one it was issued with (the term from its date), or, when
/// the program counts the term from delivery and a delivery is recorded, the term from the day
/// of delivery (business days, Ley 51 de 1983's holidays skipped).
pub fn effective_deadline(
    issued: NaiveDate,
    delivered: Option<NaiveDate>,
    from: TermFrom,
    term_business_days: u32,
) -> NaiveDate {
    match (from, delivered) {
        (TermFrom::Delivery, Some(on)) => {
            crate::holidays::add_business_days(on, term_business_days).unwrap_or(issued)
        }
        _ => issued,
    }
}

/// Interest that accrues for each day after the until date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerDay {
    pub amount: Decimal,
    pub base: Decimal,
    pub ea_pct: Decimal,
    /// Whose rate `ea_pct` is.
    pub rate: PerDayRate,
}

/// Which day's rate quotes the interest of each day after a liquidation's until date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerDayRate {
    /// The until date's (liquidations stored before the day after's rate was kept).
    UntilDate,
    /// The day after the until date's (LEGAL_NOTES §7.4), certified through `certified_to`.
    DayAfter { certified_to: NaiveDate },
    /// The day after the until date has no certified rate yet: no figure is quoted.
    Uncertified,
}

/// Splits `total` among shares-weighted parties so the parts sum exactly to `total`: each gets
/// the floor of its proportional share in whole units (pesos, or cents when `total` has cents),
/// and the units left over go one each to the largest remainders (ties: listed order).
///
/// No weights can overflow it: they are summed as decimals, and a share of the total whose exact
/// product would pass 28 digits is computed from the weight's fraction of the sum instead.
pub fn split_largest_remainder(total: Decimal, weights: &[u64]) -> Vec<Decimal> {
    let sum = weights
        .iter()
        .try_fold(Decimal::ZERO, |s, &w| s.checked_add(Decimal::from(w)));
    let sum_d = match sum {
        Some(s) if !s.is_zero() => s,
        _ => return vec![Decimal::ZERO; weights.len()],
    };
    let unit = if total.fract().is_zero() {
        Decimal::ONE
    } else {
        Decimal::new(1, 2)
    };
    let units = (total / unit).trunc();
    let mut parts: Vec<(Decimal, Decimal, usize)> = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let w = Decimal::from(w);
            let exact = units
                .checked_mul(w)
                .map_or_else(|| units * (w / sum_d), |p| p / sum_d);
            (exact.trunc(), exact - exact.trunc(), i)
        })
        .collect();
    let assigned: Decimal = parts.iter().map(|p| p.0).sum();
    let mut left = units - assigned;
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| parts[b].1.cmp(&parts[a].1).then(a.cmp(&b)));
    for i in order {
        if left <= Decimal::ZERO {
            break;
        }
        parts[i].0 += Decimal::ONE;
        left -= Decimal::ONE;
    }
    parts.into_iter().map(|(u, _, _)| u * unit).collect()
}

/// Interest for one more day after the until date, on the base that accrues (capital; capital
/// plus unpaid interest under `compound`): at the rate of the day after the until date when the
/// liquidation kept it (LEGAL_NOTES §7.4), else at the until date's rate, as liquidations stored
/// before it was kept were quoted.
pub fn per_day(l: &Liquidation, day_after: Option<&DayAfter>) -> PerDay {
    let base = match l.convention {
        Convention::Compound => l.outstanding_capital + l.outstanding_interest,
        _ => l.outstanding_capital,
    };
    let nothing = |rate| PerDay {
        amount: Decimal::ZERO,
        base,
        ea_pct: Decimal::ZERO,
        rate,
    };
    match day_after {
        Some(DayAfter::Certified { rate }) => match crate::liquidation::rate_period(rate) {
            Some(period) => PerDay {
                amount: round_peso(base * period.daily_rate()),
                base,
                ea_pct: rate.moratorium_ea_pct,
                rate: PerDayRate::DayAfter {
                    certified_to: rate.valid_to,
                },
            },
            None => nothing(PerDayRate::Uncertified),
        },
        Some(DayAfter::Uncertified) => nothing(PerDayRate::Uncertified),
        None => match l.pieces.last() {
            Some(p) => PerDay {
                amount: round_peso(base * p.daily_rate),
                base,
                ea_pct: p.moratorium_ea_pct,
                rate: PerDayRate::UntilDate,
            },
            None => nothing(PerDayRate::UntilDate),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fine::Outcome;
    use crate::money::dec;

    #[test]
    fn the_day_after_quotes_its_own_rate_and_old_records_their_until_dates() {
        // SPEC §5's fine, unpaid: capital 1.000 × 1.450 × 75 % = $ 1.087.500, liquidated until
        // 31/01/2025 (moratorium 24,89 % EA); 01/02/2025 is February's, 26,30 % EA. Per day:
        // 1.087.500 × (1,2630^(1/365) − 1) = $ 695,89 → $ 696 (kept day after); at January's
        // 24,89 %: $ 662,42 → $ 662 (a liquidation stored before the day after was kept).
        use crate::calendar::{Bracket, FineScale};
        use crate::fine::{FineCase, ReferencePrices, StagePrice};
        use crate::rates::RateSeries;
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let brackets = [(6, "100"), (12, "75"), (18, "50"), (24, "25")]
            .map(|(m, p)| Bracket {
                upto_months: m,
                percent: dec(p),
            })
            .to_vec();
        let case = FineCase {
            adjudicated: d("2024-03-15"),
            breach_date: d("2024-11-20"),
            shares: 1000,
            prices: ReferencePrices {
                acquisition: dec("963"),
                transfer: Some(dec("1450")),
                stage: StagePrice::Absent,
            },
            scale: FineScale::new(24, brackets).unwrap(),
        };
        let rates = RateSeries::shipped();
        let Ok(Outcome::Liquidated(l)) =
            crate::fine::liquidate(&case, d("2025-01-31"), &[], Convention::DailySimple, &rates)
        else {
            panic!("a fine")
        };
        assert_eq!(l.outstanding_capital, dec("1087500"));
        let old = per_day(&l, None);
        assert_eq!((old.amount, old.ea_pct), (dec("662"), dec("24.89")));
        assert_eq!(old.rate, PerDayRate::UntilDate);
        let february = rates.period_on(d("2025-02-01")).unwrap();
        let kept = DayAfter::Certified {
            rate: february.into(),
        };
        let new = per_day(&l, Some(&kept));
        assert_eq!((new.amount, new.ea_pct), (dec("696"), dec("26.30")));
        assert_eq!(
            new.rate,
            PerDayRate::DayAfter {
                certified_to: d("2025-02-28")
            }
        );
        let none = per_day(&l, Some(&DayAfter::Uncertified));
        assert_eq!(
            (none.amount, none.rate),
            (dec("0"), PerDayRate::Uncertified)
        );
    }

    #[test]
    fn largest_remainder_split_sums_exactly() {
        // Decreto 3939 sellers: Bancafé 12,861,067 and Granahorrar 99,915 shares.
        let w = [12_861_067, 99_915];
        let parts = split_largest_remainder(dec("1143967"), &w);
        assert_eq!(parts.iter().copied().sum::<Decimal>(), dec("1143967"));
        // 1,143,967 × 12,861,067 / 12,960,982 = 1,135,148.27… → 1,135,148; the other 8,818.73… → 8,818,
        // and the left-over peso goes to the larger remainder (0.73…): 8,819.
        assert_eq!(parts, vec![dec("1135148"), dec("8819")]);
        let parts = split_largest_remainder(dec("10"), &[1, 1, 1]);
        assert_eq!(parts, vec![dec("4"), dec("3"), dec("3")]);
        let parts = split_largest_remainder(dec("0.05"), &[1, 1]);
        assert_eq!(parts, vec![dec("0.03"), dec("0.02")]);
        assert_eq!(
            split_largest_remainder(dec("7"), &[0, 0]),
            vec![dec("0"), dec("0")]
        );
    }

    #[test]
    fn the_split_never_overflows_on_sellers_shares() {
        // issue 11: sellers' shares summed as u64 overflowed (a panic in a debug build)
        let parts = split_largest_remainder(Decimal::from(1001), &[u64::MAX, u64::MAX]);
        assert_eq!(parts, vec![Decimal::from(501), Decimal::from(500)]);
        // a total whose product with a weight passes 28 digits: split from the fraction
        let total = dec("1000000000000000");
        let parts = split_largest_remainder(total, &[u64::MAX, 1, 12_345]);
        assert_eq!(parts.iter().copied().sum::<Decimal>(), total);
        assert_eq!(parts[1], Decimal::ZERO);
    }
}
