//! A stored liquidation as one typed record: the inputs that reproduce it ([`LiquidationInputs`])
//! and the result they gave ([`LiquidationResult`]), serialised to the exact bytes the register
//! hashes and read back from them. Owns the stored format only: it converts to and from the
//! engine's types (the store's records convert in `register::liquidation`), computes no figure
//! and does no I/O.
//!
//! Field order is key order (serde_json keeps it), `None` in the inputs is `null`, amounts are
//! decimal strings: changing any of these changes every fingerprint, which the fixture tests pin.

use crate::calendar::{Bracket, FineScale};
use crate::fine::{
    AppliedPayment, Basis, Convention, FineCase, Liquidation, NotApplicable, Outcome, Payment,
    Piece, ReferencePrices, StagePrice,
};
use crate::program::BreachKind;
use crate::rates::{RatePeriod, RateSeries};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Decimals kept of a daily rate in the result (SPEC §5).
pub const DAILY_RATE_DECIMALS: u32 = 10;

/// The daily rate as the result keeps it: a fraction with 10 decimals.
pub fn shown_daily_rate(rate: Decimal) -> Decimal {
    rate.round_dp(DAILY_RATE_DECIMALS)
}

/// Everything a liquidation was computed from, complete enough to compute it again without the
/// register: the program's terms, the adjudication, the breach, the reference prices, the
/// payments up to `until` and the rate periods the accrual could touch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiquidationInputs {
    pub program: ProgramTerms,
    pub adjudication: AdjudicationFacts,
    pub breach: BreachFacts,
    pub prices: PriceFacts,
    #[serde(with = "convention_text")]
    pub convention: Convention,
    pub until: NaiveDate,
    pub payments: Vec<PaymentFact>,
    pub rates_source: String,
    pub rates: Vec<RateFact>,
    /// The rate of the day after `until`, which quotes the interest of each further day
    /// (LEGAL_NOTES §7.4). Absent in liquidations stored before it was kept: their notices quote
    /// the rate of the until date, as they always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_after: Option<DayAfter>,
}

/// The day after a liquidation's until date: its certified rate, or none certified yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase", deny_unknown_fields)]
pub enum DayAfter {
    Certified { rate: RateFact },
    Uncertified,
}

/// The clauses of the programa de enajenación the fine depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramTerms {
    pub code: String,
    /// SHA-256 of the program file as registered.
    pub sha256: String,
    pub decree: String,
    pub fine_article: String,
    pub lockup_months: u32,
    pub brackets: Vec<BracketTerm>,
    pub reference_prices: Vec<String>,
}

/// One step of the fine scale (Art. 9 lits. a–d).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BracketTerm {
    pub upto_months: u32,
    pub percent: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjudicationFacts {
    pub id: i64,
    pub adjudicated_on: NaiveDate,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub holder: HolderFacts,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HolderFacts {
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreachFacts {
    pub id: i64,
    pub kind: BreachKind,
    pub breach_date: NaiveDate,
    pub shares: u64,
    pub consideration_per_share: Option<Decimal>,
    pub consideration_total: Option<Decimal>,
}

/// The reference prices the program lets count (Art. 9 (i)–(iii)), per share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceFacts {
    pub acquisition: Decimal,
    pub transfer: Option<Decimal>,
    pub stage: StageFact,
    /// The later stages' own prices the stage price is the highest of (LEGAL_NOTES §7.1), so the
    /// documents list them; absent when none was recorded, and in liquidations stored before
    /// they were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<StageEntry>,
}

/// One later stage's price per share, as recorded for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageEntry {
    pub stage: crate::later_stages::Stage,
    pub price: Decimal,
}

/// The stage price (Art. 9 (iii)) as it stood: `{"status": "none" | "pending" | "known" |
/// "so_far", ...}` (`so_far`: a stage's price, a later stage still pending).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase", deny_unknown_fields)]
pub enum StageFact {
    #[serde(rename = "none")]
    Absent,
    Pending,
    Known {
        price: Decimal,
    },
    #[serde(rename = "so_far")]
    SoFar {
        price: Decimal,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentFact {
    pub id: i64,
    pub date: NaiveDate,
    pub amount: Decimal,
}

/// A certified rate period; `moratorium_ea_pct` is what the period gave, kept for the reader
/// (it is derived again from the other figures when the liquidation is computed again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateFact {
    pub valid_from: NaiveDate,
    pub valid_to: NaiveDate,
    pub ibc_ea_pct: Option<Decimal>,
    pub usury_ea_pct: Option<Decimal>,
    pub moratorium_ea_pct: Decimal,
    pub resolution: String,
}

impl LiquidationInputs {
    /// The stored bytes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("liquidation inputs serialise")
    }

    /// Reads stored bytes back.
    pub fn from_json(text: &str) -> Result<LiquidationInputs, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The engine's case, or why the stored terms no longer make one.
    pub fn fine_case(&self) -> Result<FineCase, String> {
        let brackets = self
            .program
            .brackets
            .iter()
            .map(|b| Bracket {
                upto_months: b.upto_months,
                percent: b.percent,
            })
            .collect();
        let scale =
            FineScale::new(self.program.lockup_months, brackets).map_err(|e| e.to_string())?;
        Ok(FineCase {
            adjudicated: self.adjudication.adjudicated_on,
            breach_date: self.breach.breach_date,
            shares: self.breach.shares,
            prices: ReferencePrices {
                acquisition: self.prices.acquisition,
                transfer: self.prices.transfer,
                stage: self.prices.stage.into(),
            },
            scale,
        })
    }

    /// The payments, in the order recorded.
    pub fn fine_payments(&self) -> Vec<Payment> {
        self.payments
            .iter()
            .map(|p| Payment {
                date: p.date,
                amount: p.amount,
            })
            .collect()
    }

    /// The stored rate periods as a series, or why they no longer make one.
    pub fn rate_series(&self) -> Result<RateSeries, String> {
        let periods = self
            .rates
            .iter()
            .map(|r| {
                rate_period(r).ok_or_else(|| {
                    format!(
                        "rate {}..{} has neither an IBC nor a usury rate that gives a positive moratorium rate",
                        r.valid_from, r.valid_to
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        RateSeries::from_periods(periods, &self.rates_source).map_err(|e| e.to_string())
    }
}

/// A stored rate fact as the period it was, or `None` when its figures give no positive
/// moratorium rate.
pub fn rate_period(r: &RateFact) -> Option<RatePeriod> {
    RatePeriod::new(
        r.valid_from,
        r.valid_to,
        r.ibc_ea_pct,
        r.usury_ea_pct,
        r.resolution.clone(),
        0,
    )
}

impl From<&ReferencePrices> for PriceFacts {
    fn from(p: &ReferencePrices) -> Self {
        PriceFacts {
            acquisition: p.acquisition,
            transfer: p.transfer,
            stage: p.stage.into(),
            stages: Vec::new(),
        }
    }
}

impl From<StagePrice> for StageFact {
    fn from(s: StagePrice) -> Self {
        match s {
            StagePrice::Absent => StageFact::Absent,
            StagePrice::Pending => StageFact::Pending,
            StagePrice::Known(price) => StageFact::Known { price },
            StagePrice::SoFar(price) => StageFact::SoFar { price },
        }
    }
}

impl From<StageFact> for StagePrice {
    fn from(s: StageFact) -> Self {
        match s {
            StageFact::Absent => StagePrice::Absent,
            StageFact::Pending => StagePrice::Pending,
            StageFact::Known { price } => StagePrice::Known(price),
            StageFact::SoFar { price } => StagePrice::SoFar(price),
        }
    }
}

impl From<&(i64, Payment)> for PaymentFact {
    fn from((id, p): &(i64, Payment)) -> Self {
        PaymentFact {
            id: *id,
            date: p.date,
            amount: p.amount,
        }
    }
}

impl From<&RatePeriod> for RateFact {
    fn from(p: &RatePeriod) -> Self {
        RateFact {
            valid_from: p.valid_from,
            valid_to: p.valid_to,
            ibc_ea_pct: p.ibc_ea_pct,
            usury_ea_pct: p.usury_ea_pct,
            moratorium_ea_pct: p.moratorium_ea_pct(),
            resolution: p.resolution.clone(),
        }
    }
}

/// What a liquidation concluded, as stored and as `vigia fine quote --format json` prints it:
/// either a fine (`"applies": true`) or why none applies (`"applies": false`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LiquidationResult {
    Liquidated(Box<LiquidatedResult>),
    NotApplicable(NotApplicableResult),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotApplicableResult {
    pub applies: Applies<false>,
    pub reason: String,
    pub adjudicated: NaiveDate,
    pub breach_date: NaiveDate,
    pub until: NaiveDate,
    pub lockup_end: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiquidatedResult {
    pub applies: Applies<true>,
    #[serde(with = "convention_text")]
    pub convention: Convention,
    pub adjudicated: NaiveDate,
    pub breach_date: NaiveDate,
    pub until: NaiveDate,
    pub lockup_end: NaiveDate,
    pub bracket_percent: Decimal,
    pub shares: u64,
    pub reference: ResultReference,
    pub reference_prices: ResultPrices,
    pub provisional: bool,
    pub principal: Decimal,
    pub days: i64,
    pub periods: Vec<ResultPeriod>,
    pub interest: Decimal,
    pub payments: Vec<ResultPayment>,
    pub outstanding_capital: Decimal,
    pub outstanding_interest: Decimal,
    pub surplus: Decimal,
    pub total_due: Decimal,
    pub rates_source: String,
}

/// The reference price the fine took: the highest present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultReference {
    #[serde(with = "basis_text")]
    pub basis: Basis,
    pub price_per_share: Decimal,
}

/// The reference prices present; an absent one is left out (not `null`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultPrices {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acquisition: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<Decimal>,
}

/// One accrual piece; `daily_rate` is [`shown_daily_rate`] of the engine's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultPeriod {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub days: i64,
    pub moratorium_ea_percent: Decimal,
    pub daily_rate: Decimal,
    pub resolution: String,
    pub capital: Decimal,
    pub interest: Decimal,
}

/// How one payment was imputed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultPayment {
    pub date: NaiveDate,
    pub amount: Decimal,
    pub to_interest: Decimal,
    pub to_capital: Decimal,
    pub surplus: Decimal,
}

impl LiquidationResult {
    /// The stored bytes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("liquidation result serialises")
    }

    #[cfg(test)]
    /// Reads stored bytes back.
    pub fn from_json(text: &str) -> Result<LiquidationResult, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl From<&Outcome> for LiquidationResult {
    fn from(outcome: &Outcome) -> Self {
        match outcome {
            Outcome::NotApplicable(n) => LiquidationResult::NotApplicable(n.into()),
            Outcome::Liquidated(l) => LiquidationResult::Liquidated(Box::new(l.as_ref().into())),
        }
    }
}

impl From<&NotApplicable> for NotApplicableResult {
    fn from(n: &NotApplicable) -> Self {
        NotApplicableResult {
            applies: Applies,
            reason: n.reason(),
            adjudicated: n.adjudicated,
            breach_date: n.breach_date,
            until: n.until,
            lockup_end: n.lockup_end,
        }
    }
}

impl From<&Liquidation> for LiquidatedResult {
    fn from(l: &Liquidation) -> Self {
        let mut prices = ResultPrices {
            acquisition: None,
            transfer: None,
            stage: None,
        };
        for (basis, price) in l.prices.present() {
            match basis {
                Basis::Acquisition => prices.acquisition = Some(price),
                Basis::Transfer => prices.transfer = Some(price),
                Basis::Stage => prices.stage = Some(price),
            }
        }
        LiquidatedResult {
            applies: Applies,
            convention: l.convention,
            adjudicated: l.adjudicated,
            breach_date: l.breach_date,
            until: l.until,
            lockup_end: l.lockup_end,
            bracket_percent: l.bracket.percent,
            shares: l.shares,
            reference: ResultReference {
                basis: l.basis,
                price_per_share: l.reference_price,
            },
            reference_prices: prices,
            provisional: l.provisional,
            principal: l.principal,
            days: l.days,
            periods: l.pieces.iter().map(ResultPeriod::from).collect(),
            interest: l.interest,
            payments: l.payments.iter().map(ResultPayment::from).collect(),
            outstanding_capital: l.outstanding_capital,
            outstanding_interest: l.outstanding_interest,
            surplus: l.surplus,
            total_due: l.total_due,
            rates_source: l.rates_source.clone(),
        }
    }
}

impl From<&Piece> for ResultPeriod {
    fn from(p: &Piece) -> Self {
        ResultPeriod {
            from: p.from,
            to: p.to,
            days: p.days,
            moratorium_ea_percent: p.moratorium_ea_pct,
            daily_rate: shown_daily_rate(p.daily_rate),
            resolution: p.resolution.clone(),
            capital: p.capital,
            interest: p.interest,
        }
    }
}

impl From<&AppliedPayment> for ResultPayment {
    fn from(p: &AppliedPayment) -> Self {
        ResultPayment {
            date: p.date,
            amount: p.amount,
            to_interest: p.to_interest,
            to_capital: p.to_capital,
            surplus: p.surplus,
        }
    }
}

/// The `applies` flag of a result, fixed by its variant: `Applies<true>` is written `true` and
/// reads only `true`, so a result says one thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applies<const YES: bool>;

impl<const YES: bool> Serialize for Applies<YES> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(YES)
    }
}

impl<'de, const YES: bool> Deserialize<'de> for Applies<YES> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if bool::deserialize(d)? == YES {
            Ok(Applies)
        } else {
            Err(serde::de::Error::custom(format!("applies must be {YES}")))
        }
    }
}

/// A convention as its name (`daily-simple`, `period-effective`, `compound`).
mod convention_text {
    use crate::fine::Convention;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Convention, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Convention, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A reference-price basis as its name (`acquisition`, `transfer`, `stage`).
mod basis_text {
    use crate::fine::Basis;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(b: &Basis, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(b.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Basis, D::Error> {
        let name = String::deserialize(d)?;
        [Basis::Acquisition, Basis::Transfer, Basis::Stage]
            .into_iter()
            .find(|b| b.as_str() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{name:?} is not a reference price; use acquisition, transfer or stage"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fine::Convention;
    use crate::money::dec;
    use crate::program::Program;
    use crate::rates::RateSeries;
    use crate::register;
    use crate::store::breaches::{self, NewBreach};
    use crate::store::{Store, programs};
    use chrono::NaiveDate;
    use serde::Deserialize;

    /// The program and rates of the fixtures: copies, so that a change to the shipped files does
    /// not change the facts the fixtures were stored from.
    const PROGRAM: &str = include_str!("../tests/fixtures/liquidations/program.toml");
    const RATES: &str = include_str!("../tests/fixtures/liquidations/rates.csv");
    const RATES_SOURCE: &str = "tests/fixtures/liquidations/rates.csv";

    /// One stored liquidation as the register wrote it before its format became a type.
    #[derive(Deserialize)]
    struct Fixture {
        name: String,
        id: i64,
        inputs_json: String,
        result_json: String,
        sha256: String,
    }

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    /// Builds the register of the fixtures and stores its liquidations; returns the store and the
    /// name and id of each liquidation.
    fn stored_liquidations() -> (Store, Vec<(&'static str, i64)>) {
        let mut store = Store::in_memory().unwrap();
        let rates = RateSeries::from_csv(RATES, RATES_SOURCE).unwrap();
        let program = Program::from_toml(PROGRAM).unwrap();
        store
            .write::<_, crate::register::Error>("t", |tx| {
                crate::register::program::add(tx, &program, PROGRAM)
            })
            .unwrap();
        let p = programs::by_code(store.conn(), "D3939-2004").unwrap();
        let csv = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n\
                   CC,1000000001,\"José \"\"Pepe\"\" Núñez\",natural,trabajador,1000,,2024-03-15,,\n\
                   CC,1000000002,Luis Prueba,natural,pensionado,2500,,2024-03-15,Banco Ejemplo,2500\n\
                   NIT,999000001-2,Sindicato de Prueba,legal,sindicato,50000,963.00,2024-03-15,,\n";
        store
            .write::<_, crate::register::Error>("t", |tx| {
                crate::register::adjudication::import_csv(tx, &p, csv)
            })
            .unwrap();
        let breach = |store: &mut Store, b: NewBreach<'_>| {
            store.write("t", |tx| breaches::record(tx, &b)).unwrap()
        };
        let pay = |store: &mut Store, breach: i64, on: &str, amount: &str| {
            store
                .write("t", |tx| {
                    breaches::record_payment(tx, breach, day(on), dec(amount), None)
                })
                .unwrap();
        };
        let liquidate =
            |store: &mut Store, breach: i64, until: &str, convention: Option<Convention>| {
                store
                    .write("t", |tx| {
                        register::liquidation::liquidate(tx, breach, day(until), convention, &rates)
                    })
                    .unwrap()
                    .0
            };
        let mut out = Vec::new();

        // No stage price recorded yet: pending, so provisional; the transfer price is the highest.
        let sale = breach(
            &mut store,
            NewBreach {
                adjudication_id: 1,
                kind: crate::program::BreachKind::Sale,
                breach_date: day("2024-11-20"),
                shares: 1000,
                consideration_per_share: Some(dec("1450")),
                consideration_total: None,
                registered_on: None,
                evidence: None,
            },
        );
        out.push((
            "provisional-transfer-daily-simple",
            liquidate(&mut store, sale, "2025-02-10", None),
        ));

        // A known stage price; a subrogation has no consideration; two payments.
        store
            .write("t", |tx| {
                programs::record_stage(
                    tx,
                    p.id,
                    Some((crate::later_stages::Stage::Second, dec("1100.50"))),
                    day("2024-06-28"),
                    None,
                )
            })
            .unwrap();
        let subrogation = breach(
            &mut store,
            NewBreach {
                adjudication_id: 3,
                kind: crate::program::BreachKind::CreditSubrogation,
                breach_date: day("2024-06-10"),
                shares: 20000,
                consideration_per_share: None,
                consideration_total: None,
                registered_on: Some(day("2024-06-20")),
                evidence: Some("escritura"),
            },
        );
        pay(&mut store, subrogation, "2024-08-15", "1500000");
        pay(&mut store, subrogation, "2024-12-20", "2500000.50");
        for (name, convention) in [
            ("stage-payments-daily-simple", Convention::DailySimple),
            (
                "stage-payments-period-effective",
                Convention::PeriodEffective,
            ),
            ("stage-payments-compound", Convention::Compound),
        ] {
            out.push((
                name,
                liquidate(&mut store, subrogation, "2025-01-15", Some(convention)),
            ));
        }

        // After the lock-up (written past the rules, which would refuse it): no fine applies.
        let late = breach(
            &mut store,
            NewBreach {
                adjudication_id: 2,
                kind: crate::program::BreachKind::DacionEnPago,
                breach_date: day("2026-04-01"),
                shares: 2500,
                consideration_per_share: None,
                consideration_total: Some(dec("3000000")),
                registered_on: None,
                evidence: None,
            },
        );
        out.push((
            "not-applicable",
            liquidate(&mut store, late, "2026-05-01", None),
        ));

        // No later stage: overpaid, so a surplus to refund.
        store
            .write("t", |tx| {
                programs::record_stage(tx, p.id, None, day("2025-02-20"), None)
            })
            .unwrap();
        pay(&mut store, sale, "2025-03-01", "2000000");
        out.push((
            "no-stage-surplus",
            liquidate(&mut store, sale, "2025-03-10", None),
        ));
        (store, out)
    }

    /// Liquidations stored by the register before their format was a type (commit 201fab7),
    /// from the facts [`stored_liquidations`] records.
    fn fixtures() -> Vec<Fixture> {
        serde_json::from_str(include_str!("../tests/fixtures/liquidations/stored.json")).unwrap()
    }

    #[test]
    fn the_same_facts_store_the_same_bytes_and_fingerprint() {
        let (store, made) = stored_liquidations();
        let rows = breaches::liquidations(store.conn(), None).unwrap();
        let fixtures = fixtures();
        assert_eq!(made.len(), fixtures.len());
        for ((name, id), f) in made.into_iter().zip(&fixtures) {
            assert_eq!((name, id), (f.name.as_str(), f.id));
            let l = rows.iter().find(|l| l.id == id).unwrap();
            // what this version keeps beside them (the day after's rate, the stages' prices)
            // aside, the inputs are the earlier bytes
            let mut kept = LiquidationInputs::from_json(&l.inputs_json).unwrap();
            let day_after = kept.day_after.take();
            let stages = std::mem::take(&mut kept.prices.stages);
            assert_eq!(kept.to_json(), f.inputs_json, "{name}: inputs");
            assert_eq!(l.result_json, f.result_json, "{name}: result");
            assert_eq!(
                l.sha256,
                register::liquidation::fingerprint(&l.inputs_json, &l.result_json),
                "{name}: fingerprint"
            );
            // the day after the until date: its own period when the fixtures' rates certify
            // it, else none (the not-applicable case runs until 2026-05-01, past them)
            let next = kept.until.succ_opt().unwrap();
            match day_after {
                Some(DayAfter::Certified { rate }) => {
                    assert!(rate.valid_from <= next && next <= rate.valid_to, "{name}")
                }
                Some(DayAfter::Uncertified) => assert_eq!(name, "not-applicable"),
                None => panic!("{name}: no day after kept"),
            }
            // only a known stage price lists the stages it is the highest of
            let known = matches!(
                kept.prices.stage,
                StageFact::Known { .. } | StageFact::SoFar { .. }
            );
            assert_eq!(!stages.is_empty(), known, "{name}: {stages:?}");
            assert_eq!(
                register::liquidation::fingerprint(&f.inputs_json, &f.result_json),
                f.sha256,
                "{name}"
            );
        }
    }

    #[test]
    fn stored_liquidations_reproduce_from_their_own_inputs() {
        for f in fixtures() {
            let again = register::liquidation::reproduce(&f.inputs_json).unwrap();
            assert_eq!(again, f.result_json, "{}", f.name);
        }
    }

    #[test]
    fn stored_liquidations_read_back_to_the_same_bytes() {
        for f in fixtures() {
            let inputs = LiquidationInputs::from_json(&f.inputs_json).unwrap();
            assert_eq!(inputs.to_json(), f.inputs_json, "{}: inputs", f.name);
            let result = LiquidationResult::from_json(&f.result_json).unwrap();
            assert_eq!(result.to_json(), f.result_json, "{}: result", f.name);
            let applies = !matches!(result, LiquidationResult::NotApplicable(_));
            assert_eq!(applies, f.name != "not-applicable", "{}", f.name);
        }
    }

    #[test]
    fn a_malformed_stored_record_is_corrupt_and_says_where() {
        let corrupt = |inputs: &str| match register::liquidation::recompute(inputs) {
            Err(register::Error::Store(crate::store::StoreError::Corrupt(m))) => m,
            other => panic!("{inputs}: {other:?}"),
        };
        let f = &fixtures()[0];
        assert!(corrupt("{").starts_with("liquidation inputs: "));
        let m = corrupt(
            &f.inputs_json
                .replace(r#""status":"pending""#, r#""status":"later""#),
        );
        assert!(
            m.starts_with("liquidation inputs: unknown variant `later`"),
            "{m}"
        );
        let m = corrupt(
            &f.inputs_json
                .replace(r#""convention":"daily-simple""#, r#""convention":"simple""#),
        );
        assert!(m.contains("is not a convention"), "{m}");
        let m = corrupt(&f.inputs_json.replace(r#","until":"2025-02-10""#, ""));
        assert!(m.contains("missing field `until`"), "{m}");
        // A result says one thing: a fine whose `applies` is false is not a result.
        let wrong = f
            .result_json
            .replacen(r#""applies":true"#, r#""applies":false"#, 1);
        assert!(LiquidationResult::from_json(&wrong).is_err());
    }
}
