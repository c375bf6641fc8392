//! The later stages (Decreto 3939 Arts. 13–19, 22; seed 002's "Todo o Nada" sale): judging the
//! proposals for a tranche, valuing them by the program's criterion, finding the best or the tie,
//! and the draw that decides a persisting tie in a way anyone can re-check. Pure: no I/O.

use crate::later_stages::Stage;
use chrono::NaiveDate;
use rust_decimal::{Decimal, RoundingStrategy};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt;

pub use crate::later_stages::Valuation;

/// Why a proposal is rejected; the names are stable (the acta and scripts print them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// Filed before the window opened or after it closed.
    OutsideWindow,
    /// Price per share below the minimum (the first stage's fixed price: Art. 14 a, Art. 17 a).
    BelowMinimumPrice,
    /// A payment term longer than the program allows (Decreto 3939 Arts. 14 c, 17 c: the next
    /// banking business day).
    TermTooLong,
    /// Todo o Nada: the proposal is not for exactly the tranche's shares.
    NotWholeBlock,
    /// A person or beneficial owner in more than one proposal: all of them are rejected.
    SameBidder,
    /// No seriousness guarantee (Art. 19), or less than the program asks.
    NoGuarantee,
    /// Source of funds not accredited (Art. 22).
    FundsNotAccredited,
    /// A cause the staff recorded on review.
    Review(String),
}

impl Cause {
    pub fn code(&self) -> &str {
        match self {
            Cause::OutsideWindow => "OUTSIDE_WINDOW",
            Cause::BelowMinimumPrice => "BELOW_MINIMUM_PRICE",
            Cause::TermTooLong => "TERM_TOO_LONG",
            Cause::NotWholeBlock => "NOT_WHOLE_BLOCK",
            Cause::SameBidder => "SAME_BIDDER",
            Cause::NoGuarantee => "NO_GUARANTEE",
            Cause::FundsNotAccredited => "FUNDS_NOT_ACCREDITED",
            Cause::Review(code) => code,
        }
    }
}

impl Cause {
    /// vigia's own causes, in the order the stage's table explains them.
    pub const BUILT_IN: [Cause; 7] = [
        Cause::OutsideWindow,
        Cause::BelowMinimumPrice,
        Cause::TermTooLong,
        Cause::NotWholeBlock,
        Cause::SameBidder,
        Cause::NoGuarantee,
        Cause::FundsNotAccredited,
    ];

    /// The cause a code names ([`Cause::code`]): a code of none of vigia's own is one the staff
    /// recorded on review.
    pub fn from_code(code: &str) -> Cause {
        Cause::BUILT_IN
            .into_iter()
            .find(|c| c.code() == code)
            .unwrap_or_else(|| Cause::Review(code.to_string()))
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One proposal for a tranche.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// The bidder's reference.
    pub reference: String,
    pub filed_on: NaiveDate,
    /// Every bidder's document (`DOC_TYPE:NUMBER`); a joint proposal has several.
    pub bidders: Vec<String>,
    /// A group key: bidders forming one beneficial owner share it.
    pub beneficial_owner: Option<String>,
    pub shares: u64,
    pub price_per_share: Decimal,
    /// Days from adjudication to payment.
    pub term_days: u32,
    /// The seriousness guarantee in pesos (Art. 19).
    pub guarantee: Option<Decimal>,
    /// Source of funds accredited (Art. 22).
    pub funds_accredited: bool,
    /// A cause recorded by the staff who reviewed it.
    pub review: Option<String>,
}

/// What a tranche asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    pub opens: NaiveDate,
    pub closes: NaiveDate,
    /// The tranche's shares (Todo o Nada).
    pub shares: u64,
    pub minimum_price: Decimal,
    /// The least guarantee the program asks (zero: any guarantee given).
    pub minimum_guarantee: Decimal,
    /// The program's criterion, its rate resolved ([`Valuation`]).
    pub valuation: Valuation,
    /// The longest payment term a proposal may offer, in days (`None`: any).
    pub max_term_days: Option<u32>,
}

/// A proposal as evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluated {
    /// Index in the proposals given.
    pub index: usize,
    pub cause: Option<Cause>,
    /// The price per share that counts (the original, or a higher improvement).
    pub price: Decimal,
    /// Its value under the criterion (valid proposals only): pesos with centavos (present
    /// value, highest price) or points with four decimals (price and term).
    pub value: Option<Decimal>,
    /// 1 for the best value; tied proposals share a rank.
    pub rank: Option<usize>,
}

/// The outcome of an evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// One proposal has the best value.
    Winner(usize),
    /// Several share the best value: an improvement round, then a draw.
    Tie(Vec<usize>),
    /// No valid proposal: the stage is declared void (desierta).
    Desert,
}

/// The present value of a price paid `term_days` after adjudication at `rate_ea_pct` effective
/// annual, rounded to centavos: `price / (1 + r)^(term/365)`.
pub fn present_value(price: Decimal, term_days: u32, rate_ea_pct: Decimal) -> Option<Decimal> {
    let ln = crate::exact::ln(Decimal::ONE + rate_ea_pct / Decimal::ONE_HUNDRED)?;
    let growth = crate::exact::growth_from_log(ln, i64::from(term_days));
    let v = price.checked_div(Decimal::ONE + growth)?;
    Some(v.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero))
}

/// The cause proposal `p` is rejected for, the first that applies in the order of [`Cause`]'s
/// variants (`None`: valid); `same_bidder` says whether a person or beneficial owner of it is in
/// another proposal of the stage (see [`keys`]). The one place a proposal is judged.
pub fn judge(terms: &Terms, p: &Proposal, same_bidder: bool) -> Option<Cause> {
    if p.filed_on < terms.opens || p.filed_on > terms.closes {
        Some(Cause::OutsideWindow)
    } else if p.price_per_share < terms.minimum_price {
        Some(Cause::BelowMinimumPrice)
    } else if terms.max_term_days.is_some_and(|most| p.term_days > most) {
        Some(Cause::TermTooLong)
    } else if p.shares != terms.shares {
        Some(Cause::NotWholeBlock)
    } else if same_bidder {
        Some(Cause::SameBidder)
    } else if p
        .guarantee
        .is_none_or(|g| g <= Decimal::ZERO || g < terms.minimum_guarantee)
    {
        Some(Cause::NoGuarantee)
    } else if !p.funds_accredited {
        Some(Cause::FundsNotAccredited)
    } else {
        p.review.clone().map(Cause::Review)
    }
}

/// Who proposal `p` is for the one-proposal-per-person rule: every bidder's `DOC_TYPE:NUMBER`
/// and its beneficial-owner group, each once. Two proposals sharing a key are both `SAME_BIDDER`
/// (the store finds the same keys in SQL: `store::stage::same_bidders`).
pub fn keys(p: &Proposal) -> Vec<&str> {
    let mut keys: Vec<&str> = p.bidders.iter().map(String::as_str).collect();
    if let Some(owner) = &p.beneficial_owner {
        keys.push(owner.as_str());
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The price per share that counts: the original, or an improvement above it (`improved`: the
/// price offered in the improvement round; a lower one is ignored).
pub fn counted_price(p: &Proposal, improved: Option<Decimal>) -> Decimal {
    match improved {
        Some(better) if better > p.price_per_share => better,
        _ => p.price_per_share,
    }
}

/// The best price and the shortest term among a tranche's valid proposals (what the points of
/// `price-and-term` are relative to), gathered a proposal at a time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extremes {
    pub best_price: Option<Decimal>,
    pub shortest_days: Option<u32>,
}

impl Extremes {
    /// Counts one valid proposal: the price that counts and its term.
    pub fn add(&mut self, price: Decimal, term_days: u32) {
        self.best_price = Some(self.best_price.map_or(price, |b| b.max(price)));
        self.shortest_days = Some(self.shortest_days.map_or(term_days, |s| s.min(term_days)));
    }
}

/// The value of a valid proposal under the criterion: its price that counts and term, `ex` the
/// tranche's [`Extremes`] (read only by `price-and-term`). Pesos with centavos, or points with
/// four decimals.
pub fn value(v: Valuation, price: Decimal, term_days: u32, ex: &Extremes) -> Option<Decimal> {
    match v {
        Valuation::PresentValue { rate_ea_pct } => present_value(price, term_days, rate_ea_pct),
        Valuation::HighestPrice => {
            Some(price.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero))
        }
        Valuation::PriceAndTerm(w) => {
            crate::later_stages::points(w, price, ex.best_price?, term_days, ex.shortest_days?)
        }
    }
}

/// The distinct values of a tranche's valid proposals, best first: a value's rank is its place
/// (1 for the best; equal values share a rank).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranking(Vec<Decimal>);

impl Ranking {
    /// From every valid proposal's value, in any order.
    pub fn new(mut values: Vec<Decimal>) -> Ranking {
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        values.shrink_to_fit();
        Ranking(values)
    }

    /// The rank of `value`: 1 + the number of distinct better values (searched by halves: a scan
    /// per row took 4 minutes for 100,000 proposals of distinct values). `None` for a value no
    /// valid proposal has.
    pub fn rank(&self, value: Decimal) -> Option<usize> {
        self.0
            .binary_search_by(|x| value.cmp(x))
            .ok()
            .map(|p| p + 1)
    }

    /// The best value, if any proposal is valid.
    pub fn best(&self) -> Option<Decimal> {
        self.0.first().copied()
    }
}

/// The proposals at the best value, gathered a proposal at a time in any order (only those at
/// the best so far are kept): one is the winner, several a tie, none a void tranche.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Best<T> {
    value: Option<Decimal>,
    at: Vec<T>,
}

impl<T> Best<T> {
    /// Counts `item`, of value `value`.
    pub fn add(&mut self, value: Decimal, item: T) {
        match self.value {
            Some(b) if value < b => {}
            Some(b) if value == b => self.at.push(item),
            _ => {
                self.value = Some(value);
                self.at.clear();
                self.at.push(item);
            }
        }
    }

    /// The best value and those at it, in the order they were counted.
    pub fn into_parts(self) -> (Option<Decimal>, Vec<T>) {
        (self.value, self.at)
    }
}

/// The outcome of the proposals at the best value (their indexes).
pub fn outcome(best: Vec<usize>) -> Outcome {
    match best.as_slice() {
        [] => Outcome::Desert,
        [one] => Outcome::Winner(*one),
        _ => Outcome::Tie(best),
    }
}

/// Judges every proposal (causes in the order of [`Cause`]'s variants, the first that applies),
/// values the valid ones with the improvements taken into account (`improved[i]`: the best price
/// proposal `i` offered in an improvement round; a lower one is ignored), and ranks them.
pub fn evaluate(
    terms: &Terms,
    proposals: &[Proposal],
    improved: &HashMap<usize, Decimal>,
) -> (Vec<Evaluated>, Outcome) {
    evaluate_among(terms, proposals, &[], improved)
}

/// [`evaluate`] for one tranche of a stage whose other tranches received `others`: a person or
/// beneficial owner in one of those as well is in more than one proposal (`SAME_BIDDER`), and
/// `others` are otherwise not judged. Every proposal in memory: the register evaluates a stage
/// of any size a proposal at a time from the store with the same pieces ([`judge`],
/// [`counted_price`], [`Extremes`], [`value`], [`Ranking`], [`Best`]).
pub fn evaluate_among(
    terms: &Terms,
    proposals: &[Proposal],
    others: &[Proposal],
    improved: &HashMap<usize, Decimal>,
) -> (Vec<Evaluated>, Outcome) {
    // a person or beneficial owner in more than one proposal (those of other tranches numbered
    // after this tranche's)
    let mut seen: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, p) in proposals.iter().chain(others).enumerate() {
        for k in keys(p) {
            seen.entry(k).or_default().push(i);
        }
    }
    let mut same_bidder = vec![false; proposals.len() + others.len()];
    for ids in seen.values().filter(|ids| ids.len() > 1) {
        for &i in ids {
            same_bidder[i] = true;
        }
    }
    let mut rows: Vec<Evaluated> = proposals
        .iter()
        .enumerate()
        .map(|(i, p)| Evaluated {
            index: i,
            cause: judge(terms, p, same_bidder[i]),
            price: counted_price(p, improved.get(&i).copied()),
            value: None,
            rank: None,
        })
        .collect();
    let mut ex = Extremes::default();
    for r in rows.iter().filter(|r| r.cause.is_none()) {
        ex.add(r.price, proposals[r.index].term_days);
    }
    for r in rows.iter_mut().filter(|r| r.cause.is_none()) {
        r.value = value(terms.valuation, r.price, proposals[r.index].term_days, &ex);
    }
    let ranking = Ranking::new(rows.iter().filter_map(|r| r.value).collect());
    let mut best = Best::default();
    for r in &mut rows {
        r.rank = r.value.and_then(|v| ranking.rank(v));
        if let Some(v) = r.value {
            best.add(v, r.index);
        }
    }
    (rows, outcome(best.into_parts().1))
}

/// A draw among tied proposals, as recorded and printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The tied references sorted by their UTF-8 bytes.
    pub sorted: Vec<String>,
    /// `SEED|PROGRAM|STAGE|TRANCHE|REF1,REF2,…`, the text hashed.
    pub text: String,
    /// SHA-256 of `text`, lowercase hex.
    pub digest: String,
    /// The first 8 bytes of the digest as a big-endian unsigned integer.
    pub number: u64,
    /// `number` modulo the number of tied proposals: the winner's place in `sorted`.
    pub index: usize,
    pub winner: String,
}

/// Decides a persisting tie so that anyone can re-check it with any SHA-256 tool: sort the tied
/// references by their UTF-8 bytes, hash `SEED|PROGRAM|STAGE|TRANCHE|REF1,REF2,…`, read the
/// first 8 bytes as a big-endian unsigned integer and take it modulo the number of tied
/// proposals: that place in the sorted list wins. `None` without a tie to decide.
pub fn draw(seed: &str, program: &str, stage: Stage, tranche: u32, tied: &[&str]) -> Option<Draw> {
    if tied.len() < 2 {
        return None;
    }
    let mut sorted: Vec<String> = tied.iter().map(|s| s.to_string()).collect();
    sorted.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    let text = format!("{seed}|{program}|{stage}|{tranche}|{}", sorted.join(","));
    let digest = Sha256::digest(text.as_bytes());
    let number = u64::from_be_bytes(
        digest[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    );
    let index = usize::try_from(number % sorted.len() as u64).expect("below the count");
    let digest: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Some(Draw {
        winner: sorted[index].clone(),
        sorted,
        text,
        digest,
        number,
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn terms() -> Terms {
        Terms {
            opens: d("2025-03-03"),
            closes: d("2025-03-14"),
            shares: 1_000_000,
            minimum_price: dec("963"),
            minimum_guarantee: dec("0"),
            valuation: Valuation::PresentValue {
                rate_ea_pct: dec("17.84"),
            },
            max_term_days: None,
        }
    }

    fn proposal(reference: &str, bidder: &str, price: &str, term_days: u32) -> Proposal {
        Proposal {
            reference: reference.into(),
            filed_on: d("2025-03-10"),
            bidders: vec![bidder.into()],
            beneficial_owner: None,
            shares: 1_000_000,
            price_per_share: dec(price),
            term_days,
            guarantee: Some(dec("50000000")),
            funds_accredited: true,
            review: None,
        }
    }

    #[test]
    fn present_value_discounts_the_price_by_the_term() {
        // paid on adjudication: the price itself
        assert_eq!(
            present_value(dec("1100"), 0, dec("17.84")),
            Some(dec("1100.00"))
        );
        // 365 days at 17.84 % EA: 1100 / 1.1784 = 933.4691…→ 933.47
        assert_eq!(
            present_value(dec("1100"), 365, dec("17.84")),
            Some(dec("933.47"))
        );
    }

    #[test]
    fn the_best_value_wins_and_a_shorter_term_can_beat_a_higher_price() {
        // A: 1,100 in 365 days → 933.47; B: 1,000 paid at once → 1,000.00: B wins
        let ps = vec![
            proposal("A", "CC:1", "1100", 365),
            proposal("B", "CC:2", "1000", 0),
        ];
        let (rows, outcome) = evaluate(&terms(), &ps, &HashMap::new());
        assert_eq!(outcome, Outcome::Winner(1));
        assert_eq!(rows[1].rank, Some(1));
        assert_eq!(rows[0].rank, Some(2));
    }

    #[test]
    fn every_cause_in_its_order() {
        let t = terms();
        let mut late = proposal("late", "CC:1", "1000", 0);
        late.filed_on = d("2025-03-15");
        late.price_per_share = dec("900"); // also below minimum: the window comes first
        let low = proposal("low", "CC:2", "962.99", 0);
        let mut part = proposal("part", "CC:3", "1000", 0);
        part.shares = 999_999;
        let joint_a = Proposal {
            bidders: vec!["CC:4".into(), "NIT:9".into()],
            ..proposal("joint-a", "", "1000", 0)
        };
        let joint_b = proposal("joint-b", "NIT:9", "1000", 0);
        let mut owner_a = proposal("owner-a", "CC:5", "1000", 0);
        owner_a.beneficial_owner = Some("grupo-x".into());
        let mut owner_b = proposal("owner-b", "CC:6", "1000", 0);
        owner_b.beneficial_owner = Some("grupo-x".into());
        let mut unguaranteed = proposal("nog", "CC:7", "1000", 0);
        unguaranteed.guarantee = None;
        let mut funds = proposal("funds", "CC:8", "1000", 0);
        funds.funds_accredited = false;
        let mut reviewed = proposal("rev", "CC:10", "1000", 0);
        reviewed.review = Some("FORM_DEFECT".into());
        let good = proposal("good", "CC:11", "1000", 0);
        let ps = vec![
            late,
            low,
            part,
            joint_a,
            joint_b,
            owner_a,
            owner_b,
            unguaranteed,
            funds,
            reviewed,
            good,
        ];
        let (rows, outcome) = evaluate(&t, &ps, &HashMap::new());
        let causes: Vec<Option<String>> = rows
            .iter()
            .map(|r| r.cause.as_ref().map(|c| c.code().to_string()))
            .collect();
        let want = [
            Some("OUTSIDE_WINDOW"),
            Some("BELOW_MINIMUM_PRICE"),
            Some("NOT_WHOLE_BLOCK"),
            Some("SAME_BIDDER"),
            Some("SAME_BIDDER"),
            Some("SAME_BIDDER"),
            Some("SAME_BIDDER"),
            Some("NO_GUARANTEE"),
            Some("FUNDS_NOT_ACCREDITED"),
            Some("FORM_DEFECT"),
            None,
        ];
        assert_eq!(causes, want.map(|c| c.map(str::to_string)));
        assert_eq!(outcome, Outcome::Winner(10));
    }

    #[test]
    fn a_tie_is_broken_by_an_improvement_and_a_lower_one_is_ignored() {
        let ps = vec![
            proposal("A", "CC:1", "1000", 0),
            proposal("B", "CC:2", "1000", 0),
        ];
        let (_, outcome) = evaluate(&terms(), &ps, &HashMap::new());
        assert_eq!(outcome, Outcome::Tie(vec![0, 1]));
        // B offers less: ignored, still a tie
        let lower = HashMap::from([(1, dec("999"))]);
        let (rows, outcome) = evaluate(&terms(), &ps, &lower);
        assert_eq!(rows[1].price, dec("1000"));
        assert_eq!(outcome, Outcome::Tie(vec![0, 1]));
        // A raises to 1,001: A wins
        let raised = HashMap::from([(0, dec("1001")), (1, dec("999"))]);
        let (rows, outcome) = evaluate(&terms(), &ps, &raised);
        assert_eq!(rows[0].price, dec("1001"));
        assert_eq!(outcome, Outcome::Winner(0));
    }

    #[test]
    fn a_bidder_in_another_tranche_is_in_more_than_one_proposal() {
        let ps = vec![
            proposal("A", "CC:1", "1000", 0),
            proposal("B", "CC:2", "1000", 0),
        ];
        let others = vec![proposal("T2-A", "CC:1", "1000", 0)];
        let (rows, outcome) = evaluate_among(&terms(), &ps, &others, &HashMap::new());
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].cause, Some(Cause::SameBidder));
        assert_eq!(outcome, Outcome::Winner(1));
    }

    #[test]
    fn no_valid_proposal_is_a_desert_stage() {
        let ps = vec![proposal("A", "CC:1", "900", 0)];
        assert_eq!(evaluate(&terms(), &ps, &HashMap::new()).1, Outcome::Desert);
        assert_eq!(evaluate(&terms(), &[], &HashMap::new()).1, Outcome::Desert);
    }

    #[test]
    fn the_draw_can_be_checked_with_any_sha256_tool() {
        // Worked by hand: sorted ["P-07", "P-12", "P-3"] (bytes: '0' < '1' < '3'); text
        // "baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3"; `printf %s TEXT | sha256sum` gives
        // 23f61e2bc21a358d…; its first 8 bytes 0x23f61e2bc21a358d = 2591291808887223693, and
        // 2591291808887223693 mod 3 = 0: "P-07" wins.
        let dr = draw(
            "baloto-2025-03-20",
            "D3939-2004",
            Stage::Second,
            1,
            &["P-3", "P-12", "P-07"],
        )
        .unwrap();
        assert_eq!(dr.sorted, ["P-07", "P-12", "P-3"]);
        assert_eq!(dr.text, "baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3");
        assert_eq!(
            dr.digest,
            "23f61e2bc21a358dd0252228198ed92df6fd0a7881d16a80faeb53c908743ab2"
        );
        assert_eq!(dr.number, 2_591_291_808_887_223_693);
        assert_eq!((dr.index, dr.winner.as_str()), (0, "P-07"));
        assert!(draw("s", "P", Stage::Second, 1, &["only"]).is_none());
    }

    #[test]
    fn a_term_longer_than_the_program_allows_is_its_own_cause_and_never_wins() {
        // LEGAL_NOTES §7.2: $ 1.800 in 365 days is worth 1.800 / 1,1784 = 1.527,49 at 17,84 %,
        // more than $ 1.500 cash; under Decreto 3939 (next banking day) it is not valid at all
        let ps = [
            proposal("A", "CC:1", "1800", 365),
            proposal("B", "CC:2", "1500", 0),
        ];
        let free = evaluate(&terms(), &ps, &HashMap::new());
        assert_eq!(free.1, Outcome::Winner(0));
        let bounded = Terms {
            max_term_days: Some(0),
            ..terms()
        };
        let (rows, outcome) = evaluate(&bounded, &ps, &HashMap::new());
        assert_eq!(rows[0].cause, Some(Cause::TermTooLong));
        assert_eq!(
            rows[0].cause.as_ref().map(Cause::code),
            Some("TERM_TOO_LONG")
        );
        assert_eq!(outcome, Outcome::Winner(1));
    }

    #[test]
    fn highest_price_ignores_the_term() {
        // A: 1,100 in 365 days; B: 1,000 at once. By price alone A wins (1,100.00 > 1,000.00),
        // where present value at 17.84 % gave B (the test above)
        let t = Terms {
            valuation: Valuation::HighestPrice,
            ..terms()
        };
        let ps = vec![
            proposal("A", "CC:1", "1100", 365),
            proposal("B", "CC:2", "1000", 0),
        ];
        let (rows, outcome) = evaluate(&t, &ps, &HashMap::new());
        assert_eq!(outcome, Outcome::Winner(0));
        assert_eq!(rows[0].value, Some(dec("1100.00")));
        assert_eq!(rows[1].value, Some(dec("1000.00")));
    }

    #[test]
    fn price_and_term_points_are_relative_to_the_valid_proposals() {
        // weights 0.8 / 0.2. Valid: A 1,300 in 60 days, B 1,250 in 30 days, C 1,200 at once
        // (counted as 1 day); D 1,500 in 1 day is below no minimum but filed late: rejected, so
        // neither its price nor its term counts. Best price 1,300, shortest term 1.
        // A: 100 × (0.8 × 1300/1300 + 0.2 × 1/60) = 100 × (0.8 + 0.00333…) = 80.3333
        // B: 100 × (0.8 × 1250/1300 + 0.2 × 1/30) = 100 × (0.769230769… + 0.006666…) = 77.5897
        // C: 100 × (0.8 × 1200/1300 + 0.2 × 1/1) = 100 × (0.738461538… + 0.2) = 93.8462
        let t = Terms {
            valuation: Valuation::PriceAndTerm(crate::later_stages::Weights {
                price: dec("0.8"),
                term: dec("0.2"),
            }),
            ..terms()
        };
        let mut late = proposal("D", "CC:4", "1500", 1);
        late.filed_on = d("2025-03-15");
        let ps = vec![
            proposal("A", "CC:1", "1300", 60),
            proposal("B", "CC:2", "1250", 30),
            proposal("C", "CC:3", "1200", 0),
            late,
        ];
        let (rows, outcome) = evaluate(&t, &ps, &HashMap::new());
        let values: Vec<Option<Decimal>> = rows.iter().map(|r| r.value).collect();
        assert_eq!(
            values,
            [
                Some(dec("80.3333")),
                Some(dec("77.5897")),
                Some(dec("93.8462")),
                None
            ]
        );
        let ranks: Vec<Option<usize>> = rows.iter().map(|r| r.rank).collect();
        assert_eq!(ranks, [Some(2), Some(3), Some(1), None]);
        assert_eq!(outcome, Outcome::Winner(2));
    }

    #[test]
    fn ranks_count_the_distinct_better_values_ties_sharing_theirs() {
        // prices 1000, 1001, …, 1009 paid at once, each twice: values are the prices; the
        // distinct values above a price are 1009 − price of them, so its rank is 1010 − price
        let ps: Vec<Proposal> = (0..20)
            .map(|i| {
                let price = 1000 + i % 10;
                proposal(&format!("P{i}"), &format!("CC:{i}"), &price.to_string(), 0)
            })
            .collect();
        let (rows, outcome) = evaluate(&terms(), &ps, &HashMap::new());
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.rank, Some(1010 - (1000 + i % 10)), "proposal {i}");
        }
        assert_eq!(outcome, Outcome::Tie(vec![9, 19]));
    }

    proptest::proptest! {
        /// A value's rank is 1 + the number of distinct greater values among the valid ones,
        /// counted here one by one; the proposals `Best` keeps, gathered in any order, are
        /// exactly those ranked 1, in the order they were counted.
        #[test]
        fn the_ranking_and_the_best_gathered_a_proposal_at_a_time_are_the_counted_ones(
            cents in proptest::collection::vec(0i64..40, 0..60),
        ) {
            let values: Vec<Decimal> = cents.iter().map(|&c| Decimal::new(100_000 + c, 2)).collect();
            let ranking = Ranking::new(values.clone());
            let mut best = Best::default();
            for (i, &v) in values.iter().enumerate() {
                let mut greater: Vec<Decimal> = values.iter().copied().filter(|&x| x > v).collect();
                greater.sort_unstable();
                greater.dedup();
                proptest::prop_assert_eq!(ranking.rank(v), Some(greater.len() + 1));
                best.add(v, i);
            }
            let ranked_first: Vec<usize> = (0..values.len())
                .filter(|&i| ranking.rank(values[i]) == Some(1))
                .collect();
            let (top, at) = best.into_parts();
            proptest::prop_assert_eq!(top, values.iter().copied().max());
            proptest::prop_assert_eq!(ranking.best(), top);
            proptest::prop_assert_eq!(&at, &ranked_first);
            proptest::prop_assert_eq!(ranking.rank(Decimal::new(99, 0)), None);
        }
    }
}
