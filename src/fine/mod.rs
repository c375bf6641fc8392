//! The Art. 9 fine (SPEC §4): the bracket of the breach date, the highest reference price, the
//! principal, and its adjustment at the maximum moratorium rate with payments imputed.
//! Pure: validated facts in, a complete [`Liquidation`] out; no I/O, no flags, no storage.

pub mod accrual;

pub use accrual::{AccrualError, AppliedPayment, Convention, Payment, Piece};

use crate::calendar::{BracketHit, FineScale, Placement};
use crate::lang::{Lang, Said, Shown, fecha};
use crate::money::round_peso;
use crate::rates::{MissingRates, RateSeries};
use crate::said;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;

/// Which reference price (Art. 9 (i)–(iii)) a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// (i) precio de adquisición por acción.
    Acquisition,
    /// (ii) precio u otra contraprestación obtenida por la transferencia.
    Transfer,
    /// (iii) precio recibido por los vendedores en la Segunda o Tercera Etapa.
    Stage,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Acquisition => "acquisition",
            Basis::Transfer => "transfer",
            Basis::Stage => "stage",
        }
    }

    pub fn label_es(self) -> &'static str {
        match self {
            Basis::Acquisition => "precio de adquisición",
            Basis::Transfer => "precio o contraprestación de la transferencia",
            Basis::Stage => "precio de la Segunda o Tercera Etapa",
        }
    }
}

/// The stage price (Art. 9 (iii)), a program-level figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StagePrice {
    /// No later stage happened (or will happen).
    Absent,
    /// A later stage is still pending: the liquidation is provisional.
    Pending,
    Known(Decimal),
    /// A stage sold at this price (the highest so far) and left shares to a later stage that is
    /// still pending: the price counts and the liquidation is provisional (SPEC §4; a higher
    /// price in the later stage would raise the fine, LEGAL_NOTES §7.1).
    SoFar(Decimal),
}

impl StagePrice {
    /// The price, when one is known (final or so far).
    pub fn known(self) -> Option<Decimal> {
        match self {
            StagePrice::Known(p) | StagePrice::SoFar(p) => Some(p),
            _ => None,
        }
    }

    /// Whether a later stage is still pending, so that a fine priced with it may still rise.
    pub fn pending(self) -> bool {
        matches!(self, StagePrice::Pending | StagePrice::SoFar(_))
    }

    /// Whether a liquidation priced with `self` must be made again now that the program's price
    /// is `now` (SPEC §8, PROVISIONAL_STALE): it was provisional, and the price the engine would
    /// use now differs from the one it used, final or so far. A price so far that appears, or
    /// changes, while a later stage is still pending may raise the fine as much as a final one.
    pub fn superseded_by(self, now: StagePrice) -> bool {
        self.pending() && self != now
    }
}

/// Whether the fine of a breach on `breach_date` may still grow (SPEC §4): it applies (the breach
/// is on or before the lock-up's last day, SPEC §3) and a later stage is still pending, so the
/// stage price it takes may rise (`stage` as the program's fine takes it:
/// `Program::stage_counted`, absent when the program does not count it). Such a fine keeps its adjudication's pledges in force even
/// when paid to date (SPEC §7 releases a pledge only when no fine is outstanding, and is silent
/// on a fine not yet final; README, choices): `pledge release` and the check's
/// PLEDGE_RELEASABLE both ask this.
pub fn may_grow(stage: StagePrice, breach_date: NaiveDate, lockup_end: NaiveDate) -> bool {
    stage.pending() && breach_date <= lockup_end
}

/// Per-share reference prices, exact COP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferencePrices {
    pub acquisition: Decimal,
    /// `None` for events with no consideration (e.g. a credit subrogation).
    pub transfer: Option<Decimal>,
    pub stage: StagePrice,
}

impl ReferencePrices {
    /// The prices present, in the order acquisition, transfer, stage.
    pub fn present(&self) -> Vec<(Basis, Decimal)> {
        let mut out = vec![(Basis::Acquisition, self.acquisition)];
        if let Some(t) = self.transfer {
            out.push((Basis::Transfer, t));
        }
        if let Some(s) = self.stage.known() {
            out.push((Basis::Stage, s));
        }
        out
    }

    /// The highest present price; on a tie the first in the order acquisition, transfer, stage.
    pub fn reference(&self) -> (Basis, Decimal) {
        let mut best = (Basis::Acquisition, self.acquisition);
        for (basis, price) in self.present() {
            if price > best.1 {
                best = (basis, price);
            }
        }
        best
    }
}

/// The facts of one breach needed to price it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FineCase {
    pub adjudicated: NaiveDate,
    pub breach_date: NaiveDate,
    pub shares: u64,
    pub prices: ReferencePrices,
    pub scale: FineScale,
}

/// An input that a caller must name back to the person who typed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Adjudicated,
    BreachDate,
    Until,
    Shares,
    AcquisitionPrice,
    TransferPrice,
    StagePrice,
    /// The payment at this 0-based position, in the order given.
    Payment(usize),
}

impl Field {
    /// The input's name in English (the CLI names the flag instead: `cli::fine::flag_of`).
    pub fn label(self) -> String {
        match self {
            Field::Adjudicated => "adjudication date".into(),
            Field::BreachDate => "breach date".into(),
            Field::Until => "until date".into(),
            Field::Shares => "shares".into(),
            Field::AcquisitionPrice => "acquisition price".into(),
            Field::TransferPrice => "transfer price".into(),
            Field::StagePrice => "stage price".into(),
            Field::Payment(i) => format!("payment #{}", i + 1),
        }
    }

    /// The input's name in Spanish, as a sentence on a page says it.
    pub fn label_es(self) -> String {
        match self {
            Field::Adjudicated => "Fecha de adjudicación".into(),
            Field::BreachDate => "Fecha del incumplimiento".into(),
            Field::Until => "Fecha de corte".into(),
            Field::Shares => "Acciones".into(),
            Field::AcquisitionPrice => "Precio de adquisición".into(),
            Field::TransferPrice => "Precio de la transferencia".into(),
            Field::StagePrice => "Precio de la etapa posterior".into(),
            Field::Payment(i) => format!("Pago N.º {}", i + 1),
        }
    }

    /// The input's name in `lang`.
    pub fn label_in(self, lang: Lang) -> String {
        match lang {
            Lang::En => self.label(),
            Lang::Es => self.label_es(),
        }
    }
}

/// Why a fine could not be computed, said in English and Spanish: [`FineError::describe`] in a
/// front end's language (`Display` is English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FineError {
    Invalid {
        field: Field,
        /// The value as each language writes it.
        value: Said,
        reason: Said,
    },
    MissingRates(MissingRates),
    /// The amounts exceed exact decimal range (about 7.9 × 10^28).
    Overflow,
}

impl FineError {
    /// The error's words in `lang`, the input named by [`Field::label_in`].
    pub fn describe(&self, lang: Lang) -> String {
        match (self, lang) {
            (
                FineError::Invalid {
                    field,
                    value,
                    reason,
                },
                _,
            ) => format!(
                "{} {}: {}",
                field.label_in(lang),
                value.in_lang(lang),
                reason.in_lang(lang)
            ),
            (FineError::MissingRates(m), Lang::En) => m.to_string(),
            (FineError::MissingRates(m), Lang::Es) => {
                let ranges: Vec<String> = m
                    .ranges
                    .iter()
                    .map(|&(a, b)| {
                        if a == b {
                            format!("el {}", fecha(a))
                        } else {
                            format!("del {} al {}", fecha(a), fecha(b))
                        }
                    })
                    .collect();
                let source = crate::rates::source_es_the(&m.source);
                format!(
                    "no hay tasa moratoria certificada {} en {source}; agregue la certificación de \
                     la Superintendencia Financiera para esas fechas",
                    ranges.join(", "),
                )
            }
            (FineError::Overflow, Lang::En) => {
                "the fine exceeds the range of exact arithmetic; check shares and prices".into()
            }
            (FineError::Overflow, Lang::Es) => "la multa excede el rango de la aritmética exacta; \
                                                 revise las acciones y los precios"
                .into(),
        }
    }
}

impl fmt::Display for FineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Lang::En))
    }
}

impl std::error::Error for FineError {}

fn invalid(field: Field, value: impl Shown, reason: Said) -> FineError {
    FineError::Invalid {
        field,
        value: value.said(),
        reason,
    }
}

/// What a liquidation concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The breach falls after the lock-up: no fine applies.
    NotApplicable(NotApplicable),
    Liquidated(Box<Liquidation>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotApplicable {
    pub adjudicated: NaiveDate,
    pub breach_date: NaiveDate,
    pub until: NaiveDate,
    pub lockup_end: NaiveDate,
}

impl NotApplicable {
    pub fn reason(&self) -> String {
        format!(
            "the breach date {} is after the lock-up ended on {} (the holder was free from {}): no fine applies",
            self.breach_date,
            self.lockup_end,
            self.lockup_end.succ_opt().unwrap_or(self.lockup_end)
        )
    }
}

/// A complete fine computation: every input and every figure a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Liquidation {
    pub convention: Convention,
    pub adjudicated: NaiveDate,
    pub breach_date: NaiveDate,
    pub until: NaiveDate,
    pub lockup_end: NaiveDate,
    pub bracket: BracketHit,
    pub shares: u64,
    pub prices: ReferencePrices,
    pub basis: Basis,
    pub reference_price: Decimal,
    /// A later stage was pending: the figure may rise once its price is known.
    pub provisional: bool,
    /// round_peso(shares × reference × percent / 100).
    pub principal: Decimal,
    /// until − breach date.
    pub days: i64,
    pub pieces: Vec<Piece>,
    pub interest: Decimal,
    pub payments: Vec<AppliedPayment>,
    pub outstanding_capital: Decimal,
    pub outstanding_interest: Decimal,
    pub surplus: Decimal,
    pub total_due: Decimal,
    /// Where the rates came from.
    pub rates_source: String,
}

/// One point of a fine's balance over time: what is owed (capital plus unpaid interest, exact
/// pesos) on `date`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BalancePoint {
    pub date: NaiveDate,
    pub balance: Decimal,
    /// The amount of the payment just applied, when this is the balance right after one.
    pub payment: Option<Decimal>,
}

impl Liquidation {
    /// The balance over time, from this liquidation's own figures (nothing recomputed): the
    /// principal on the breach date, the balance at the end of each accrual piece (before a
    /// payment of that day), and the balance right after each payment. The last point is
    /// `total_due` (zero once paid off; a surplus is not a negative balance).
    pub fn balance_series(&self) -> Vec<BalancePoint> {
        let mut points = vec![BalancePoint {
            date: self.breach_date,
            balance: self.principal,
            payment: None,
        }];
        let (mut capital, mut unpaid) = (self.principal, Decimal::ZERO);
        let mut payments = self.payments.iter().peekable();
        let mut apply = |upto: NaiveDate,
                         capital: &mut Decimal,
                         unpaid: &mut Decimal,
                         points: &mut Vec<BalancePoint>| {
            while let Some(p) = payments.next_if(|p| p.date <= upto) {
                *unpaid -= p.to_interest;
                *capital = p.capital_after;
                points.push(BalancePoint {
                    date: p.date,
                    balance: *capital + *unpaid,
                    payment: Some(p.amount),
                });
            }
        };
        for piece in &self.pieces {
            // a payment before the piece accrues (on the breach date itself)
            if let Some(before) = piece.from.pred_opt() {
                apply(before, &mut capital, &mut unpaid, &mut points);
            }
            unpaid += piece.interest;
            points.push(BalancePoint {
                date: piece.to,
                balance: capital + unpaid,
                payment: None,
            });
            apply(piece.to, &mut capital, &mut unpaid, &mut points);
        }
        apply(self.until, &mut capital, &mut unpaid, &mut points);
        points
    }
}

/// What is owed on a breach's fine as of `until` with the payments made so far (zero when no
/// fine applies). A fine its payments paid off accrues nothing after the last of them, so a
/// rate missing after that day decides nothing: the balance is then zero (issue 20, item 9).
pub fn balance(
    case: &FineCase,
    until: NaiveDate,
    payments: &[Payment],
    convention: Convention,
    rates: &RateSeries,
) -> Result<Decimal, FineError> {
    Ok(match settled(case, until, payments, convention, rates)?.0 {
        Outcome::Liquidated(l) => l.total_due,
        Outcome::NotApplicable(_) => Decimal::ZERO,
    })
}

/// [`liquidate`] as of `until`, and the day it runs to: `until`, or, when a rate missing after
/// the fine was paid off keeps it from running to `until`, the day of the last payment, which
/// paid it off (nothing accrues after it, so the missing rate decides nothing). Any other
/// missing rate is the error it is.
pub fn settled(
    case: &FineCase,
    until: NaiveDate,
    payments: &[Payment],
    convention: Convention,
    rates: &RateSeries,
) -> Result<(Outcome, NaiveDate), FineError> {
    match liquidate(case, until, payments, convention, rates) {
        Err(e @ FineError::MissingRates(_)) => match payments.iter().map(|p| p.date).max() {
            Some(last) if last < until && last >= case.breach_date => {
                match liquidate(case, last, payments, convention, rates) {
                    Ok(Outcome::Liquidated(l)) if l.total_due <= Decimal::ZERO => {
                        Ok((Outcome::Liquidated(l), last))
                    }
                    _ => Err(e),
                }
            }
            _ => Err(e),
        },
        other => other.map(|o| (o, until)),
    }
}

/// Prices a breach as of `until` (the payment or as-of date), with the payments made so far.
pub fn liquidate(
    case: &FineCase,
    until: NaiveDate,
    payments: &[Payment],
    convention: Convention,
    rates: &RateSeries,
) -> Result<Outcome, FineError> {
    validate(case, until)?;
    let lockup_end = case
        .scale
        .lockup_end(case.adjudicated)
        .ok_or(FineError::Overflow)?;
    let bracket = match case.scale.place(case.adjudicated, case.breach_date) {
        Some(Placement::Inside(hit)) => hit,
        Some(Placement::AfterLockup { lockup_end }) => {
            return Ok(Outcome::NotApplicable(NotApplicable {
                adjudicated: case.adjudicated,
                breach_date: case.breach_date,
                until,
                lockup_end,
            }));
        }
        None => return Err(FineError::Overflow), // excluded by validate
    };
    let (basis, reference_price) = case.prices.reference();
    let principal = Decimal::from(case.shares)
        .checked_mul(reference_price)
        .and_then(|v| v.checked_mul(bracket.percent))
        .and_then(|v| v.checked_div(Decimal::ONE_HUNDRED))
        .map(round_peso)
        .ok_or(FineError::Overflow)?;
    let accrual = accrual::accrue(
        principal,
        case.breach_date,
        until,
        payments,
        convention,
        rates,
    )
    .map_err(|e| match e {
        AccrualError::PaymentOutsideSpan {
            index,
            date,
            from,
            until,
        } => {
            let (from_es, until_es) = (fecha(from), fecha(until));
            invalid(
                Field::Payment(index),
                date,
                said!(
                    fine::payments_must_dated_from_breach_date,
                    from,
                    until,
                    from_es,
                    until_es
                ),
            )
        }
        AccrualError::PaymentNotPositive { index, amount } => invalid(
            Field::Payment(index),
            amount,
            said!(fine::payment_amount_must_greater_than_zero),
        ),
        AccrualError::MissingRates(m) => FineError::MissingRates(m),
    })?;
    let total_due = accrual.total_due();
    Ok(Outcome::Liquidated(Box::new(Liquidation {
        convention,
        adjudicated: case.adjudicated,
        breach_date: case.breach_date,
        until,
        lockup_end,
        bracket,
        shares: case.shares,
        prices: case.prices.clone(),
        basis,
        reference_price,
        provisional: case.prices.stage.pending(),
        principal,
        days: (until - case.breach_date).num_days(),
        pieces: accrual.pieces,
        interest: accrual.interest,
        payments: accrual.payments,
        outstanding_capital: accrual.outstanding_capital,
        outstanding_interest: accrual.outstanding_interest,
        surplus: accrual.surplus,
        total_due,
        rates_source: rates.source().to_string(),
    })))
}

fn validate(case: &FineCase, until: NaiveDate) -> Result<(), FineError> {
    let (adjudicated, breach_date) = (case.adjudicated, case.breach_date);
    let (adjudicated_es, breach_es) = (fecha(adjudicated), fecha(breach_date));
    if breach_date < adjudicated {
        return Err(invalid(
            Field::BreachDate,
            breach_date,
            said!(
                fine::before_adjudication_date_breach_can_only,
                adjudicated,
                adjudicated_es
            ),
        ));
    }
    if until < breach_date {
        return Err(invalid(
            Field::Until,
            until,
            said!(
                fine::before_breach_date_give_payment_as,
                breach_date,
                breach_es
            ),
        ));
    }
    if case.shares == 0 {
        return Err(invalid(
            Field::Shares,
            0u64,
            said!(fine::must_whole_number_shares_greater_than),
        ));
    }
    if case.prices.acquisition <= Decimal::ZERO {
        return Err(invalid(
            Field::AcquisitionPrice,
            case.prices.acquisition,
            said!(fine::must_greater_than_zero),
        ));
    }
    if let Some(t) = case.prices.transfer
        && t < Decimal::ZERO
    {
        return Err(invalid(
            Field::TransferPrice,
            t,
            said!(fine::must_not_negative_omit_when_there),
        ));
    }
    if let Some(s) = case.prices.stage.known()
        && s <= Decimal::ZERO
    {
        return Err(invalid(
            Field::StagePrice,
            s,
            said!(fine::must_greater_than_zero_omit_when),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn spec_case() -> FineCase {
        FineCase {
            adjudicated: date("2024-03-15"),
            breach_date: date("2024-11-20"),
            shares: 1000,
            prices: ReferencePrices {
                acquisition: dec("963"),
                transfer: Some(dec("1450")),
                stage: StagePrice::Known(dec("1100")),
            },
            scale: FineScale::decreto_3939_2004(),
        }
    }

    fn liquidated(o: Outcome) -> Liquidation {
        match o {
            Outcome::Liquidated(l) => *l,
            Outcome::NotApplicable(n) => panic!("not applicable: {n:?}"),
        }
    }

    #[test]
    fn spec_worked_example_end_to_end() {
        let l = liquidated(
            liquidate(
                &spec_case(),
                date("2025-02-10"),
                &[],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert_eq!(l.bracket.percent, dec("75"));
        assert_eq!((l.basis, l.reference_price), (Basis::Transfer, dec("1450")));
        assert_eq!(l.principal, dec("1087500"));
        assert_eq!(l.days, 82);
        assert_eq!(l.interest, dec("56467"));
        assert_eq!(l.total_due, dec("1143967"));
        assert_eq!(l.lockup_end, date("2026-03-15"));
        assert!(!l.provisional);
    }

    #[test]
    fn the_balance_over_time_follows_the_spec_payment_example() {
        // SPEC §5 with 500,000 paid on 2024-12-15: principal 1,087,500; 7,334 of interest to
        // Nov 30; 10,470 more to Dec 15; the payment pays those 17,804 and 482,196 of capital,
        // leaving 605,304, which accrues 6,216 (Dec 16–31), 11,430 (January), 3,873 (Feb 1–10)
        let l = liquidated(
            liquidate(
                &spec_case(),
                date("2025-02-10"),
                &[Payment {
                    date: date("2024-12-15"),
                    amount: dec("500000"),
                }],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        let p = |d: &str, b: &str, paid: Option<&str>| BalancePoint {
            date: date(d),
            balance: dec(b),
            payment: paid.map(dec),
        };
        assert_eq!(
            l.balance_series(),
            [
                p("2024-11-20", "1087500", None),
                p("2024-11-30", "1094834", None),
                p("2024-12-15", "1105304", None),
                p("2024-12-15", "605304", Some("500000")),
                p("2024-12-31", "611520", None),
                p("2025-01-31", "622950", None),
                p("2025-02-10", "626823", None),
            ]
        );
        assert_eq!(l.total_due, dec("626823"));
        // paid off on the breach date itself: the balance is zero before anything accrues
        let l = liquidated(
            liquidate(
                &spec_case(),
                date("2024-11-30"),
                &[Payment {
                    date: date("2024-11-20"),
                    amount: dec("1087500"),
                }],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert_eq!(
            l.balance_series(),
            [
                p("2024-11-20", "1087500", None),
                p("2024-11-20", "0", Some("1087500")),
                p("2024-11-30", "0", None),
            ]
        );
    }

    #[test]
    fn reference_ties_go_to_the_earlier_basis() {
        let p = |a: &str, t: Option<&str>, s: StagePrice| ReferencePrices {
            acquisition: dec(a),
            transfer: t.map(dec),
            stage: s,
        };
        assert_eq!(
            p("963", Some("963"), StagePrice::Known(dec("963"))).reference(),
            (Basis::Acquisition, dec("963"))
        );
        assert_eq!(
            p("963", Some("1100"), StagePrice::Known(dec("1100"))).reference(),
            (Basis::Transfer, dec("1100"))
        );
        assert_eq!(
            p("963", None, StagePrice::Known(dec("1100.5"))).reference(),
            (Basis::Stage, dec("1100.5"))
        );
        assert_eq!(
            p("963", None, StagePrice::Pending).reference(),
            (Basis::Acquisition, dec("963"))
        );
    }

    #[test]
    fn principal_rounds_half_up_once() {
        // 1 share × 963 × 50 % = 481.5 → 482 (half away from zero, not banker's 482 by luck:
        // 3 shares × 321 × 50 % = 481.5 too; 5 × 96.3 × 25 % = 120.375 → 120).
        let mut c = spec_case();
        c.breach_date = date("2025-04-01"); // 50 % bracket
        c.shares = 1;
        c.prices = ReferencePrices {
            acquisition: dec("963"),
            transfer: None,
            stage: StagePrice::Absent,
        };
        let l = liquidated(
            liquidate(
                &c,
                c.breach_date,
                &[],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert_eq!(l.principal, dec("482"));
        assert_eq!(l.total_due, dec("482"));
        assert!(l.pieces.is_empty());
    }

    #[test]
    fn pending_stage_makes_it_provisional() {
        let mut c = spec_case();
        c.prices.stage = StagePrice::Pending;
        let l = liquidated(
            liquidate(
                &c,
                date("2025-02-10"),
                &[],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert!(l.provisional);
    }

    /// SPEC §5's case with the Second Stage's $1,600 as the price so far (a Third Stage still
    /// pending): it counts — 1,000 × 1,600 × 75 % = 1,200,000, above the transfer's 1,087,500 —
    /// and the liquidation is provisional.
    #[test]
    fn a_stage_price_so_far_counts_and_keeps_it_provisional() {
        let mut c = spec_case();
        c.prices.stage = StagePrice::SoFar(dec("1600"));
        let l = liquidated(
            liquidate(
                &c,
                date("2024-11-20"),
                &[],
                Convention::DailySimple,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert!(l.provisional);
        assert_eq!((l.basis, l.principal), (Basis::Stage, dec("1200000")));
    }

    /// PROVISIONAL_STALE's rule, case by case (SPEC §4, §8): only a provisional liquidation (it
    /// used a pending price, or one so far) can be superseded, and it is when the price now is
    /// another — final (whatever its figure), absent, or a different price so far. SPEC §5's
    /// case priced with the transfer's 1,450 (stage pending) claims 1,087,500; once $1,600 is
    /// the price so far the engine claims 1,000 × 1,600 × 75 % = 1,200,000: superseded.
    #[test]
    fn a_provisional_liquidation_is_superseded_by_any_other_price_final_or_so_far() {
        use StagePrice::{Absent, Known, Pending, SoFar};
        let (p, q) = (dec("1600"), dec("1600.00"));
        let cases = [
            (Pending, Pending, false),
            (Pending, SoFar(p), true),
            (Pending, Known(p), true),
            (Pending, Absent, true),
            (SoFar(p), SoFar(q), false), // the same figure, written with centavos
            (SoFar(p), SoFar(dec("1700")), true),
            (SoFar(p), Known(p), true), // final now: no longer provisional
            (SoFar(p), Absent, true),
            (Known(p), Known(dec("1700")), false), // a final liquidation is never stale
            (Absent, Known(p), false),
        ];
        for (used, now, superseded) in cases {
            assert_eq!(used.superseded_by(now), superseded, "{used:?} -> {now:?}");
        }
        let mut c = spec_case();
        c.prices.stage = Pending;
        let before = liquidate(
            &c,
            date("2024-11-20"),
            &[],
            Convention::DailySimple,
            &RateSeries::shipped(),
        );
        c.prices.stage = SoFar(p);
        let now = liquidate(
            &c,
            date("2024-11-20"),
            &[],
            Convention::DailySimple,
            &RateSeries::shipped(),
        );
        let (before, now) = (liquidated(before.unwrap()), liquidated(now.unwrap()));
        assert_eq!(
            (before.principal, now.principal, before.provisional),
            (dec("1087500"), dec("1200000"), true)
        );
    }

    #[test]
    fn breach_after_the_lockup_is_not_a_fine() {
        let mut c = spec_case();
        c.breach_date = date("2026-03-16");
        match liquidate(
            &c,
            date("2026-04-01"),
            &[],
            Convention::DailySimple,
            &RateSeries::shipped(),
        )
        .unwrap()
        {
            Outcome::NotApplicable(n) => {
                assert_eq!(n.lockup_end, date("2026-03-15"));
                assert!(n.reason().contains("2026-03-15"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn input_errors_name_the_field() {
        let r = RateSeries::shipped();
        let mut c = spec_case();
        c.breach_date = date("2024-03-14");
        let e = liquidate(&c, date("2025-02-10"), &[], Convention::DailySimple, &r).unwrap_err();
        assert!(
            matches!(
                e,
                FineError::Invalid {
                    field: Field::BreachDate,
                    ..
                }
            ),
            "{e}"
        );
        let e = liquidate(
            &spec_case(),
            date("2024-11-19"),
            &[],
            Convention::DailySimple,
            &r,
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                FineError::Invalid {
                    field: Field::Until,
                    ..
                }
            ),
            "{e}"
        );
        let mut c = spec_case();
        c.shares = 0;
        assert!(matches!(
            liquidate(&c, date("2025-02-10"), &[], Convention::DailySimple, &r),
            Err(FineError::Invalid {
                field: Field::Shares,
                ..
            })
        ));
        let mut c = spec_case();
        c.prices.transfer = Some(dec("-1"));
        assert!(matches!(
            liquidate(&c, date("2025-02-10"), &[], Convention::DailySimple, &r),
            Err(FineError::Invalid {
                field: Field::TransferPrice,
                ..
            })
        ));
        let e = liquidate(
            &spec_case(),
            date("2026-12-01"),
            &[],
            Convention::DailySimple,
            &r,
        )
        .unwrap_err();
        assert!(e.to_string().contains("2026-11-01..2026-12-01"), "{e}");
    }

    #[test]
    fn huge_but_legal_inputs_stay_exact() {
        // 10^9 shares at 999,999.99 in the 100 % bracket: principal 999,999,990,000,000.
        let mut c = spec_case();
        c.breach_date = date("2024-04-01");
        c.shares = 1_000_000_000;
        c.prices = ReferencePrices {
            acquisition: dec("999999.99"),
            transfer: None,
            stage: StagePrice::Absent,
        };
        let l = liquidated(
            liquidate(
                &c,
                date("2024-04-02"),
                &[],
                Convention::Compound,
                &RateSeries::shipped(),
            )
            .unwrap(),
        );
        assert_eq!(l.principal, dec("999999990000000"));
        assert_eq!(l.total_due, l.principal + l.interest);
    }
}
