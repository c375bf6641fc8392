//! The later stages' program keys that vary between programs (issue 27): the technical criterion
//! that compares proposals (*criterio técnico de comparación*: present value, highest price, or
//! price and term weighted as the *reglamento* says) and the later-stage minimum price (a figure,
//! or the first stage's price), with the pure arithmetic of each criterion. Pure: no I/O; read by
//! `program` (the file) and `offering::stage` (the evaluation).

use crate::lang::Said;
use crate::said;
use rust_decimal::{Decimal, RoundingStrategy};

/// FOGAFIN's later-stage sale in "Todo o Nada" (seed 002), shipped with the binary: the first
/// program whose criterion weighs the price and the term. Its figures are examples to replace.
pub const FOGAFIN_TODO_O_NADA: &str = include_str!("../schema/programs/fogafin-todo-o-nada.toml");

/// A later stage of a sale (Art. 14 and 17): the Second or the Third. The register stores and
/// the command line reads its number (2 or 3); `from_number` is the one checked way back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Second,
    Third,
}

impl Stage {
    /// Both later stages, in order.
    pub const ALL: [Stage; 2] = [Stage::Second, Stage::Third];

    /// The stage's number as stored: 2 or 3.
    pub fn number(self) -> u8 {
        match self {
            Stage::Second => 2,
            Stage::Third => 3,
        }
    }

    /// The stage numbered `n`, if `n` is a later stage (2 or 3).
    pub fn from_number(n: u8) -> Option<Stage> {
        match n {
            2 => Some(Stage::Second),
            3 => Some(Stage::Third),
            _ => None,
        }
    }

    /// Whether this stage, concluded with `leftover` shares unsold in a program whose last stage
    /// is `last`, leaves a later stage still to conclude: until it does, the Art. 9 (iii) price
    /// is only the highest so far and liquidations stay provisional (SPEC §4).
    pub fn leaves_a_later_stage(self, last: Stage, leftover: u64) -> bool {
        leftover > 0 && self < last
    }

    /// The stage before this one, if it is a later stage too.
    pub fn previous(self) -> Option<Stage> {
        match self {
            Stage::Second => None,
            Stage::Third => Some(Stage::Second),
        }
    }

    /// "Second" or "Third", for messages.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Second => "Second",
            Stage::Third => "Third",
        }
    }

    /// "Segunda" or "Tercera".
    pub fn name_es(self) -> &'static str {
        match self {
            Stage::Second => "Segunda",
            Stage::Third => "Tercera",
        }
    }
}

/// Serialized as its number (`2`, `3`), as stored liquidations always held it.
impl serde::Serialize for Stage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> serde::Deserialize<'de> for Stage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stage, D::Error> {
        let n = <u8 as serde::Deserialize>::deserialize(d)?;
        Stage::from_number(n)
            .ok_or_else(|| serde::de::Error::custom(format!("{n} is not a later stage (2 or 3)")))
    }
}

impl TryFrom<u8> for Stage {
    type Error = u8;
    fn try_from(n: u8) -> Result<Stage, u8> {
        Stage::from_number(n).ok_or(n)
    }
}

/// Its number, as messages and documents always wrote it: `2`, `3`.
impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Its number, in both languages.
impl crate::lang::Shown for Stage {
    fn shown(&self, _: crate::lang::Lang) -> String {
        self.to_string()
    }
}

/// The technical criterion of comparison (`[later_stages] criterion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// `present-value` (the default): `price / (1 + r)^(term_days/365)`, `r` effective annual
    /// (the term is worth what waiting for the money costs).
    PresentValue(CriterionRate),
    /// `highest-price`: the price per share alone (a program that pays at once, or whose
    /// reglamento ignores the term).
    HighestPrice,
    /// `price-and-term`: points weighted as the reglamento says (seed 002: "deberá considerar el
    /// precio ofrecido y el plazo para la compra"), see [`points`].
    PriceAndTerm(Weights),
}

/// The effective annual rate a present value discounts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriterionRate {
    /// The interés bancario corriente in force on the stage's closing date (the register's
    /// rate series).
    Ibc,
    /// A fixed rate, % EA.
    Fixed(Decimal),
}

impl CriterionRate {
    /// As the program file writes it: `ibc` or the percent.
    pub fn as_text(self) -> String {
        match self {
            CriterionRate::Ibc => "ibc".into(),
            CriterionRate::Fixed(r) => r.to_string(),
        }
    }
}

/// The weights of `price-and-term` (`price_weight`, `term_weight`): exact decimals, each above 0
/// and below 1, summing to exactly 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    pub price: Decimal,
    pub term: Decimal,
}

/// The later stages' minimum price per share (`[later_stages] minimum_price`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinimumPrice {
    /// `"first-stage"` (the default): the first stage's fixed price (Decreto 3939 Arts. 14 a,
    /// 17 a: "no podrá ser inferior al precio fijo de la Primera Etapa").
    FirstStage,
    /// A figure in pesos the program states.
    Fixed(Decimal),
}

impl MinimumPrice {
    /// The minimum a tranche opened now asks, given the program's first-stage fixed price.
    pub fn resolve(self, fixed_price: Decimal) -> Decimal {
        match self {
            MinimumPrice::FirstStage => fixed_price,
            MinimumPrice::Fixed(p) => p,
        }
    }
}

/// A criterion as a tranche applies it: the rate of a present value resolved to a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Valuation {
    /// Present value at this effective annual percent (e.g. `17.84`).
    PresentValue {
        rate_ea_pct: Decimal,
    },
    HighestPrice,
    PriceAndTerm(Weights),
}

/// The decimals a criterion's value is rounded to (half away from zero), and printed with:
/// pesos with centavos, or points with four decimals.
pub fn decimals(v: Valuation) -> u32 {
    match v {
        Valuation::PriceAndTerm(_) => 4,
        _ => 2,
    }
}

/// A term as `price-and-term` counts it: days from adjudication to payment, at least one
/// (payment is never before the banking business day after the adjudication, so an offer to
/// pay at once, 0 days, counts as 1).
pub fn counted_term(term_days: u32) -> Decimal {
    Decimal::from(term_days.max(1))
}

/// The points of `price-and-term`, out of 100:
///
/// `100 × (w_price × price / best_price + w_term × shortest_term / term)`
///
/// where `best_price` is the highest price and `shortest_term` the shortest term (each counted
/// by [`counted_term`]) among the tranche's valid proposals, improvements counted; rounded to
/// four decimals half away from zero. The best proposal in both scores 100; equal points are a
/// tie.
pub fn points(
    w: Weights,
    price: Decimal,
    best_price: Decimal,
    term_days: u32,
    shortest_days: u32,
) -> Option<Decimal> {
    let price_part = w.price.checked_mul(price.checked_div(best_price)?)?;
    let term_part = w
        .term
        .checked_mul(counted_term(shortest_days).checked_div(counted_term(term_days))?)?;
    let v = Decimal::ONE_HUNDRED.checked_mul(price_part.checked_add(term_part)?)?;
    Some(v.round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero))
}

/// A key of `[later_stages]` refused: its name and why.
pub type KeyError = (&'static str, Said);

fn unknown(name: &str) -> KeyError {
    (
        "later_stages.criterion",
        said!(core::write_present_value_highest_price_price, name),
    )
}

/// Reads `criterion`, `rate`, `price_weight` and `term_weight` as the file writes them.
pub fn criterion(
    name: Option<&str>,
    rate: Option<CriterionRate>,
    price_weight: Option<Decimal>,
    term_weight: Option<Decimal>,
) -> Result<Criterion, KeyError> {
    let name = name.map(str::trim).unwrap_or("present-value");
    if !["present-value", "highest-price", "price-and-term"].contains(&name) {
        return Err(unknown(name));
    }
    let weighted = name == "price-and-term";
    if !weighted && (price_weight.is_some() || term_weight.is_some()) {
        let key = if price_weight.is_some() {
            "later_stages.price_weight"
        } else {
            "later_stages.term_weight"
        };
        return Err((
            key,
            said!(core::weights_belong_criterion_price_term_criterion, name),
        ));
    }
    if name != "present-value" && rate.is_some() {
        return Err((
            "later_stages.rate",
            said!(core::discount_rate_belongs_criterion_present_value, name),
        ));
    }
    match name {
        "present-value" => Ok(Criterion::PresentValue(rate.unwrap_or(CriterionRate::Ibc))),
        "highest-price" => Ok(Criterion::HighestPrice),
        "price-and-term" => {
            let (Some(price), Some(term)) = (price_weight, term_weight) else {
                let key = if price_weight.is_none() {
                    "later_stages.price_weight"
                } else {
                    "later_stages.term_weight"
                };
                return Err((key, said!(core::criterion_price_term_needs_both_weights)));
            };
            for (key, w) in [
                ("later_stages.price_weight", price),
                ("later_stages.term_weight", term),
            ] {
                if w <= Decimal::ZERO || w >= Decimal::ONE {
                    return Err((key, said!(core::weight_above_0_below_1_criterion, w)));
                }
            }
            if price + term != Decimal::ONE {
                let sum = price + term;
                return Err((
                    "later_stages.term_weight",
                    said!(core::price_weight_term_weight_add_up, price, term, sum),
                ));
            }
            Ok(Criterion::PriceAndTerm(Weights { price, term }))
        }
        _ => Err(unknown(name)),
    }
}

/// Reads `minimum_price`: `"first-stage"` or a price in pesos as a quoted string.
pub fn minimum_price(text: Option<&str>) -> Result<MinimumPrice, KeyError> {
    let Some(s) = text.map(str::trim) else {
        return Ok(MinimumPrice::FirstStage);
    };
    if s == "first-stage" {
        return Ok(MinimumPrice::FirstStage);
    }
    match crate::input::amount(s) {
        Ok(p) if p > Decimal::ZERO => Ok(MinimumPrice::Fixed(p)),
        _ => Err((
            "later_stages.minimum_price",
            said!(core::write_first_stage_first_stage_s, s),
        )),
    }
}

/// `[later_stages.articles]` as written: what a stage's acta cites for each rule, every key
/// optional, Decreto 3939 de 2004's articles by default (so its actas read as they always did).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArticlesFile {
    /// The Second Stage's articles. Default "artículos 3 literal b), 13, 14, 15, 19 y 22".
    #[serde(default)]
    second: Option<String>,
    /// The Third Stage's articles. Default "artículos 3 literal c), 16, 17, 18, 19 y 22".
    #[serde(default)]
    third: Option<String>,
    /// The minimum price. Default "artículos 14 a y 17 a".
    #[serde(default)]
    minimum_price: Option<String>,
    /// Payment the next banking business day. Default "artículos 14 c y 17 c".
    #[serde(default)]
    payment: Option<String>,
    /// The seriousness guarantee. Default "artículo 19".
    #[serde(default)]
    guarantee: Option<String>,
    /// The source of the funds. Default "artículo 22".
    #[serde(default)]
    funds: Option<String>,
    /// A void Second Stage passing to the Third. Default "artículo 16".
    #[serde(default)]
    to_third: Option<String>,
    /// The stage price as the fine's reference. Default "artículo 9, numeral iii".
    #[serde(default)]
    stage_price: Option<String>,
}

/// What a stage's acta cites, validated (see [`ArticlesFile`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Articles {
    pub second: String,
    pub third: String,
    pub minimum_price: String,
    pub payment: String,
    pub guarantee: String,
    pub funds: String,
    pub to_third: String,
    pub stage_price: String,
}

impl Default for Articles {
    fn default() -> Self {
        Articles {
            second: "artículos 3 literal b), 13, 14, 15, 19 y 22".into(),
            third: "artículos 3 literal c), 16, 17, 18, 19 y 22".into(),
            minimum_price: "artículos 14 a y 17 a".into(),
            payment: "artículos 14 c y 17 c".into(),
            guarantee: "artículo 19".into(),
            funds: "artículo 22".into(),
            to_third: "artículo 16".into(),
            stage_price: "artículo 9, numeral iii".into(),
        }
    }
}

impl ArticlesFile {
    /// The citations, or the key written empty.
    pub fn validate(self) -> Result<Articles, KeyError> {
        let d = Articles::default();
        let pick = |key: &'static str, v: Option<String>, default: String| match v {
            None => Ok(default),
            Some(a) if a.trim().is_empty() => {
                Err((key, said!(core::write_what_acta_cites_leave_key)))
            }
            Some(a) => Ok(a.trim().to_string()),
        };
        Ok(Articles {
            second: pick("later_stages.articles.second", self.second, d.second)?,
            third: pick("later_stages.articles.third", self.third, d.third)?,
            minimum_price: pick(
                "later_stages.articles.minimum_price",
                self.minimum_price,
                d.minimum_price,
            )?,
            payment: pick("later_stages.articles.payment", self.payment, d.payment)?,
            guarantee: pick(
                "later_stages.articles.guarantee",
                self.guarantee,
                d.guarantee,
            )?,
            funds: pick("later_stages.articles.funds", self.funds, d.funds)?,
            to_third: pick("later_stages.articles.to_third", self.to_third, d.to_third)?,
            stage_price: pick(
                "later_stages.articles.stage_price",
                self.stage_price,
                d.stage_price,
            )?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    #[test]
    fn a_stage_is_2_or_3_and_its_number_reads_back() {
        assert_eq!(Stage::Second.number(), 2);
        assert_eq!(Stage::Third.number(), 3);
        for s in Stage::ALL {
            assert_eq!(Stage::from_number(s.number()), Some(s));
        }
        for n in [0u8, 1, 4, 255] {
            assert_eq!(Stage::from_number(n), None);
            assert_eq!(Stage::try_from(n), Err(n));
        }
        // stored liquidations hold the number: `{"stage":2,...}`, and only 2 or 3 reads back
        assert_eq!(serde_json::to_string(&Stage::Third).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Stage>("2").unwrap(), Stage::Second);
        assert!(serde_json::from_str::<Stage>("4").is_err());
        assert_eq!(Stage::Third.previous(), Some(Stage::Second));
        assert_eq!(Stage::Second.previous(), None);
        assert_eq!(
            (Stage::Second.name_es(), Stage::Third.name()),
            ("Segunda", "Third")
        );
    }

    fn w(p: &str, t: &str) -> Weights {
        Weights {
            price: dec(p),
            term: dec(t),
        }
    }

    #[test]
    fn points_weigh_the_price_against_the_best_and_the_term_against_the_shortest() {
        // 0.7 × 1,000/1,000 + 0.3 × 30/30 = 1 → 100
        assert_eq!(
            points(w("0.7", "0.3"), dec("1000"), dec("1000"), 30, 30),
            Some(dec("100"))
        );
        // 0.7 × 950/1,000 + 0.3 × 30/90 = 0.665 + 0.1 = 0.765 → 76.5
        assert_eq!(
            points(w("0.7", "0.3"), dec("950"), dec("1000"), 90, 30),
            Some(dec("76.5"))
        );
        // 0.6 × 1,000/1,200 + 0.4 × 1/1 (0 days counts as 1) = 0.5 + 0.4 = 0.9 → 90
        assert_eq!(
            points(w("0.6", "0.4"), dec("1000"), dec("1200"), 0, 0),
            Some(dec("90"))
        );
        // 0.6 × 1 + 0.4 × 1/365 = 0.6 + 0.001095890410… = 0.601095890… → 60.1096 (4 decimals)
        assert_eq!(
            points(w("0.6", "0.4"), dec("1200"), dec("1200"), 365, 0),
            Some(dec("60.1096"))
        );
    }

    #[test]
    fn the_criterion_keys_default_to_present_value_at_the_ibc_and_check_the_weights() {
        assert_eq!(
            criterion(None, None, None, None),
            Ok(Criterion::PresentValue(CriterionRate::Ibc))
        );
        assert_eq!(
            criterion(Some("highest-price"), None, None, None),
            Ok(Criterion::HighestPrice)
        );
        assert_eq!(
            criterion(
                Some("price-and-term"),
                None,
                Some(dec("0.7")),
                Some(dec("0.3"))
            ),
            Ok(Criterion::PriceAndTerm(w("0.7", "0.3")))
        );
        let field = |r: Result<Criterion, KeyError>| r.unwrap_err().0;
        // 0.7 + 0.4 = 1.1
        let e = criterion(
            Some("price-and-term"),
            None,
            Some(dec("0.7")),
            Some(dec("0.4")),
        )
        .unwrap_err();
        assert_eq!(e.0, "later_stages.term_weight");
        assert!(e.1.en().contains("add up to 1.1"), "{}", e.1.en());
        assert_eq!(
            field(criterion(
                Some("price-and-term"),
                None,
                Some(dec("1")),
                Some(dec("0"))
            )),
            "later_stages.price_weight"
        );
        assert_eq!(
            field(criterion(
                Some("price-and-term"),
                None,
                Some(dec("0.5")),
                None
            )),
            "later_stages.term_weight"
        );
        assert_eq!(
            field(criterion(
                Some("highest-price"),
                Some(CriterionRate::Ibc),
                None,
                None
            )),
            "later_stages.rate"
        );
        assert_eq!(
            field(criterion(None, None, Some(dec("0.5")), None)),
            "later_stages.price_weight"
        );
        assert_eq!(
            field(criterion(Some("lowest"), None, None, None)),
            "later_stages.criterion"
        );
    }

    #[test]
    fn the_minimum_price_is_the_first_stage_price_unless_the_program_names_a_figure() {
        assert_eq!(minimum_price(None), Ok(MinimumPrice::FirstStage));
        assert_eq!(
            minimum_price(Some("first-stage")),
            Ok(MinimumPrice::FirstStage)
        );
        assert_eq!(
            minimum_price(Some("1200.50")),
            Ok(MinimumPrice::Fixed(dec("1200.50")))
        );
        assert_eq!(MinimumPrice::FirstStage.resolve(dec("963")), dec("963"));
        assert_eq!(
            MinimumPrice::Fixed(dec("1200.50")).resolve(dec("963")),
            dec("1200.50")
        );
        for bad in ["0", "-5", "cheap"] {
            assert_eq!(
                minimum_price(Some(bad)).unwrap_err().0,
                "later_stages.minimum_price"
            );
        }
    }

    #[test]
    fn the_shipped_seed_002_program_weighs_price_and_term_and_names_its_minimum() {
        let p = crate::program::Program::from_toml(FOGAFIN_TODO_O_NADA).unwrap();
        assert_eq!(p.code, "FOGAFIN-TON");
        assert_eq!(
            p.later_stages.criterion,
            Criterion::PriceAndTerm(w("0.8", "0.2"))
        );
        assert_eq!(
            p.later_stages.minimum_price,
            MinimumPrice::Fixed(dec("1200.00"))
        );
        assert_eq!(p.later_stages.max_term_days, None);
        assert_eq!(p.later_stages.last, Stage::Second);
        assert_eq!(
            crate::program::embedded("fogafin ton"),
            Some(FOGAFIN_TODO_O_NADA)
        );
    }
}
