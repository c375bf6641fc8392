//! The first-stage adjudication (Decreto 3939 de 2004 Art. 12; SPEC §9), pure: each filing
//! judged on its own, a person's valid filings added together and capped once (Arts. 7–8),
//! acceptances refusing reduction set aside when the offer is oversubscribed, and the offer
//! shared pro rata by the program's rule. No I/O: the figures a cap needs come through a
//! closure, so the caller decides where they are read from.

use super::caps::{self, Cap, Evidence, Person};
use super::proration::{self, Quota, Rule};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use std::collections::HashMap;
use std::fmt;

/// Why an acceptance is not awarded (Art. 12 par. 1; seeds 000 and 001).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// Filed outside the offer's window (Art. 12 par. 1 (ii)).
    Late,
    /// Not a special-condition recipient (Art. 3 lit. a; Art. 12 par. 1 (iii)).
    NotEligible,
    /// Without the sworn declaration and the irrevocable commitments (Art. 7 num. 5, Art. 8
    /// num. 4: "únicamente se considerarán…").
    NoDeclarations,
    /// The documents fail the form conditions (Art. 12 par. 1 (i)); recorded by the reviewers.
    FormDefect,
    /// Information requested was not supplied (Art. 12 par. 1 (iv)): by the reviewers, or a
    /// figure an applicable cap needs.
    InfoNotSupplied,
    /// The price was not paid (seed 001 (iv)); recorded by the reviewers.
    PriceNotPaid,
    /// Refused reduction in an oversubscribed offer: set aside (Art. 12 num. 2, par. 2).
    RefusedReduction,
}

impl Cause {
    pub const ALL: [Cause; 7] = [
        Cause::Late,
        Cause::NotEligible,
        Cause::NoDeclarations,
        Cause::FormDefect,
        Cause::InfoNotSupplied,
        Cause::PriceNotPaid,
        Cause::RefusedReduction,
    ];

    /// The code in files and listings.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Late => "LATE",
            Cause::NotEligible => "NOT_ELIGIBLE",
            Cause::NoDeclarations => "NO_DECLARATIONS",
            Cause::FormDefect => "FORM_DEFECT",
            Cause::InfoNotSupplied => "INFO_NOT_SUPPLIED",
            Cause::PriceNotPaid => "PRICE_NOT_PAID",
            Cause::RefusedReduction => "REFUSED_REDUCTION",
        }
    }

    /// The causes the reviewing staff may record in the `review` column.
    pub fn from_review(s: &str) -> Option<Cause> {
        [
            Cause::FormDefect,
            Cause::InfoNotSupplied,
            Cause::PriceNotPaid,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
    }

    pub fn parse(s: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The cause in the acta's words, with its source.
    pub fn label_es(self) -> &'static str {
        match self {
            Cause::Late => "presentada por fuera del plazo de la oferta (art. 12, par. 1.º, ii)",
            Cause::NotEligible => {
                "el aceptante no tiene la calidad de destinatario de las condiciones especiales \
                 (arts. 3 y 12, par. 1.º, iii)"
            }
            Cause::NoDeclarations => {
                "sin la declaración juramentada ni la manifestación irrevocable (art. 7, num. 5; \
                 art. 8, num. 4)"
            }
            Cause::FormDefect => {
                "los documentos no cumplen las condiciones de forma (art. 12, par. 1.º, i)"
            }
            Cause::InfoNotSupplied => {
                "la información solicitada no fue suministrada oportunamente (art. 12, par. 1.º, iv)"
            }
            Cause::PriceNotPaid => "no se pagó el valor de las acciones",
            Cause::RefusedReduction => {
                "no aceptó la reducción y la demanda superó la oferta (art. 12, num. 2)"
            }
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The public offer's window (Art. 4): filings from `opens` to `closes`, both included, are in
/// time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub opens: NaiveDate,
    pub closes: NaiveDate,
}

/// What judging one filing on its own needs of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts<'a> {
    pub filed_on: NaiveDate,
    pub category: &'a str,
    pub dismissed_with_just_cause: bool,
    pub declarations: bool,
    pub review: Option<Cause>,
}

/// The first cause that applies to a filing on its own, in the order of rule 1 of issue 15:
/// late, not eligible, no declarations, the reviewers' cause. `None`: valid.
pub fn judge(f: &Facts<'_>, window: Window, categories: &[String]) -> Option<Cause> {
    if f.filed_on < window.opens || f.filed_on > window.closes {
        Some(Cause::Late)
    } else if !categories.iter().any(|c| c == f.category) || f.dismissed_with_just_cause {
        Some(Cause::NotEligible)
    } else if !f.declarations {
        Some(Cause::NoDeclarations)
    } else {
        f.review
    }
}

/// A filing as the adjudication needs it: who filed, when, for how many shares, and its cause
/// on its own (from [`judge`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filing {
    /// The caller's id of the filing (the register's acceptance id).
    pub id: i64,
    /// Filing order: by this, then by `line`.
    pub filed_at: NaiveDateTime,
    pub line: u64,
    /// The person (document type and number), as a number the caller gives.
    pub person: u32,
    pub shares: u64,
    pub accepts_reduction: bool,
    pub cause: Option<Cause>,
}

/// What the cap of a person needs: the kind of person and the figures of their first valid
/// filing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapFacts {
    pub person: Person,
    pub evidence: Evidence,
}

/// The outcome of one person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Awarded,
    Rejected,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Awarded => "awarded",
            Status::Rejected => "rejected",
        }
    }
}

/// One person's outcome, in filing order of their first valid filing (or of their first filing
/// when none is valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub person: u32,
    /// The filing that speaks for the person: their first valid filing, else their first.
    pub filing: i64,
    /// Shares asked for in the valid filings (all filings when none is valid).
    pub requested: u64,
    /// The binding cap in shares and its index in the program's caps.
    pub cap: Option<(u64, usize)>,
    /// The requested shares within the cap (0 when rejected).
    pub admitted: u64,
    /// Index into [`Adjudication::quotas`] when the person shared an oversubscribed offer.
    pub pool: Option<usize>,
    pub awarded: u64,
    pub status: Status,
    pub cause: Option<Cause>,
}

/// The program terms the adjudication applies.
#[derive(Debug, Clone, Copy)]
pub struct Terms<'a> {
    pub offered: u64,
    pub rule: Rule,
    pub caps: &'a [Cap],
    pub fixed_price: Decimal,
}

/// The adjudication: totals, and one outcome per person in filing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudication {
    pub offered: u64,
    /// Admitted shares of the valid acceptances (Art. 12: "acciones demandadas").
    pub demand: u64,
    pub awarded: u64,
    /// What passes to the Second Stage.
    pub leftover: u64,
    pub oversubscribed: bool,
    pub rule: Rule,
    pub outcomes: Vec<Outcome>,
    /// The exact quotas of the persons who shared an oversubscribed offer.
    pub quotas: Vec<Quota>,
}

/// Why an adjudication could not be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A person's requested shares, or the demand, add up to more than a count can hold.
    Overflow,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Overflow => f.write_str(
                "the acceptances add up to more shares than a count can hold; check the file",
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Per person while the filings are walked in filing order.
#[derive(Clone, Copy)]
struct Gathered {
    first: usize,
    first_valid: Option<usize>,
    requested_all: Option<u64>,
    requested_valid: Option<u64>,
    refuses: bool,
}

/// Adjudicates `filings` (any order; they are put in filing order) under `terms`. `cap_facts`
/// gives the figures of a filing (by its id) for the cap of the person it speaks for; it is
/// called once per person with a valid filing. Exact integers throughout.
pub fn adjudicate<E: From<Error>>(
    mut filings: Vec<Filing>,
    terms: Terms<'_>,
    mut cap_facts: impl FnMut(i64) -> Result<CapFacts, E>,
) -> Result<Adjudication, E> {
    filings.sort_by_key(|f| (f.filed_at, f.line));
    // persons in the order of their first filing; valid filings added together (rule 2)
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut people: Vec<Gathered> = Vec::new();
    for (i, f) in filings.iter().enumerate() {
        let k = *index.entry(f.person).or_insert_with(|| {
            people.push(Gathered {
                first: i,
                first_valid: None,
                requested_all: Some(0),
                requested_valid: Some(0),
                refuses: false,
            });
            people.len() - 1
        });
        let g = &mut people[k];
        g.requested_all = g.requested_all.and_then(|s| s.checked_add(f.shares));
        if f.cause.is_none() {
            g.first_valid.get_or_insert(i);
            g.requested_valid = g.requested_valid.and_then(|s| s.checked_add(f.shares));
            g.refuses |= !f.accepts_reduction;
        }
    }
    drop(index);
    // the filing order of a person is that of their first valid filing
    people.sort_by_key(|g| g.first_valid.unwrap_or(g.first));
    let mut outcomes = Vec::with_capacity(people.len());
    let mut refuses = Vec::with_capacity(people.len());
    for g in &people {
        let speaker = &filings[g.first_valid.unwrap_or(g.first)];
        let mut o = Outcome {
            person: speaker.person,
            filing: speaker.id,
            requested: 0,
            cap: None,
            admitted: 0,
            pool: None,
            awarded: 0,
            status: Status::Rejected,
            cause: None,
        };
        match g.first_valid {
            None => {
                o.requested = g.requested_all.ok_or(Error::Overflow)?;
                o.cause = filings[g.first].cause;
            }
            Some(_) => {
                o.requested = g.requested_valid.ok_or(Error::Overflow)?;
                let facts = cap_facts(speaker.id)?;
                match caps::binding(terms.caps, facts.person, &facts.evidence, terms.fixed_price) {
                    Err(_missing) => o.cause = Some(Cause::InfoNotSupplied),
                    Ok(bound) => {
                        o.cap = bound.map(|b| (b.shares, cap_index(terms.caps, b.cap)));
                        o.admitted = o.cap.map_or(o.requested, |(c, _)| o.requested.min(c));
                        o.status = Status::Awarded;
                    }
                }
            }
        }
        refuses.push(g.refuses);
        outcomes.push(o);
    }
    let demand = outcomes
        .iter()
        .filter(|o| o.status == Status::Awarded)
        .try_fold(0u64, |s, o| s.checked_add(o.admitted))
        .ok_or(Error::Overflow)?;
    let oversubscribed = demand > terms.offered;
    // Art. 12 num. 2: those who refuse reduction are set aside; the rest share the offer
    let mut pool = Vec::new();
    for (k, o) in outcomes.iter_mut().enumerate() {
        if o.status != Status::Awarded {
            continue;
        }
        if oversubscribed && refuses[k] {
            o.status = Status::Rejected;
            o.cause = Some(Cause::RefusedReduction);
        } else {
            pool.push(k);
        }
    }
    let admitted: Vec<u64> = pool.iter().map(|&k| outcomes[k].admitted).collect();
    let shared =
        proration::share(terms.offered, &admitted, terms.rule).map_err(|_| Error::Overflow)?;
    let quotas = shared.quotas.unwrap_or_default();
    let pooled = !quotas.is_empty();
    for (j, &k) in pool.iter().enumerate() {
        outcomes[k].awarded = shared.awards[j];
        outcomes[k].pool = pooled.then_some(j);
    }
    let awarded = shared.awards.iter().sum::<u64>();
    Ok(Adjudication {
        offered: terms.offered,
        demand,
        awarded,
        leftover: terms.offered - awarded,
        oversubscribed,
        rule: terms.rule,
        outcomes,
        quotas,
    })
}

/// The index of `cap` in `caps` (it is one of them).
fn cap_index(caps: &[Cap], cap: &Cap) -> usize {
    caps.iter()
        .position(|c| std::ptr::eq(c, cap))
        .expect("the binding cap is one of the program's")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    fn at(s: &str) -> NaiveDateTime {
        day(s).and_hms_opt(0, 0, 0).unwrap()
    }

    const W: Window = Window {
        opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
        closes: NaiveDate::from_ymd_opt(2024, 3, 4).unwrap(),
    };

    #[test]
    fn each_filing_is_judged_by_the_first_cause_in_the_rules_order() {
        let cats = vec!["trabajador".to_string(), "extrabajador".to_string()];
        let ok = Facts {
            filed_on: day("2024-01-02"),
            category: "trabajador",
            dismissed_with_just_cause: false,
            declarations: true,
            review: None,
        };
        // (case, facts, expected): every cause alone, then pairs where the earlier wins
        let cases: Vec<(&str, Facts<'_>, Option<Cause>)> = vec![
            ("valid on the first day", ok, None),
            (
                "valid on the last day",
                Facts {
                    filed_on: day("2024-03-04"),
                    ..ok
                },
                None,
            ),
            (
                "the day before it opens",
                Facts {
                    filed_on: day("2024-01-01"),
                    ..ok
                },
                Some(Cause::Late),
            ),
            (
                "the day after it closes",
                Facts {
                    filed_on: day("2024-03-05"),
                    ..ok
                },
                Some(Cause::Late),
            ),
            (
                "not a category of the program",
                Facts {
                    category: "accionista",
                    ..ok
                },
                Some(Cause::NotEligible),
            ),
            (
                "ex-employee dismissed with just cause (Art. 3 (ii))",
                Facts {
                    category: "extrabajador",
                    dismissed_with_just_cause: true,
                    ..ok
                },
                Some(Cause::NotEligible),
            ),
            (
                "no declarations",
                Facts {
                    declarations: false,
                    ..ok
                },
                Some(Cause::NoDeclarations),
            ),
            (
                "a review cause",
                Facts {
                    review: Some(Cause::PriceNotPaid),
                    ..ok
                },
                Some(Cause::PriceNotPaid),
            ),
            (
                "late and not eligible: late",
                Facts {
                    filed_on: day("2024-03-05"),
                    category: "x",
                    ..ok
                },
                Some(Cause::Late),
            ),
            (
                "not eligible and no declarations: not eligible",
                Facts {
                    category: "x",
                    declarations: false,
                    ..ok
                },
                Some(Cause::NotEligible),
            ),
            (
                "no declarations and a review cause: no declarations",
                Facts {
                    declarations: false,
                    review: Some(Cause::FormDefect),
                    ..ok
                },
                Some(Cause::NoDeclarations),
            ),
        ];
        for (case, f, want) in cases {
            assert_eq!(judge(&f, W, &cats), want, "{case}");
        }
    }

    fn filing(id: i64, filed: &str, person: u32, shares: u64) -> Filing {
        Filing {
            id,
            filed_at: at(filed),
            line: id as u64 + 1,
            person,
            shares,
            accepts_reduction: true,
            cause: None,
        }
    }

    /// Natural persons filing a return with a patrimonio líquido of `p` pesos each: the
    /// Decreto 3939 cap 3 × p / 963.
    fn caps() -> Vec<Cap> {
        #[derive(serde::Deserialize)]
        struct F {
            caps: Vec<Cap>,
        }
        toml::from_str::<F>(
            r#"
            [[caps]]
            rule = "Art. 7 num. 1"
            person = "natural"
            when = "files-tax-return"
            times = "3"
            of = "patrimonio_liquido"
            [[caps]]
            rule = "Art. 7 num. 2"
            person = "natural"
            when = "no-tax-return"
            times = "3"
            of = "income"
            "#,
        )
        .unwrap()
        .caps
    }

    fn run(
        offered: u64,
        rule: Rule,
        filings: Vec<Filing>,
        patrimonio: &dyn Fn(i64) -> Option<&'static str>,
    ) -> Adjudication {
        let caps = caps();
        adjudicate::<Error>(
            filings,
            Terms {
                offered,
                rule,
                caps: &caps,
                fixed_price: dec("963"),
            },
            |id| {
                Ok(CapFacts {
                    person: Person::Natural,
                    evidence: Evidence {
                        files_tax_return: true,
                        patrimonio_liquido: patrimonio(id).map(dec),
                        ..Evidence::default()
                    },
                })
            },
        )
        .unwrap()
    }

    /// (person, requested, admitted, awarded, cause) per outcome.
    fn table(a: &Adjudication) -> Vec<(u32, u64, u64, u64, Option<Cause>)> {
        a.outcomes
            .iter()
            .map(|o| (o.person, o.requested, o.admitted, o.awarded, o.cause))
            .collect()
    }

    const RICH: &str = "1000000000"; // 3 × 10^9 / 963 = 3,115,264 shares: never binds here

    #[test]
    fn a_demand_that_fits_is_awarded_as_admitted_with_caps_applied() {
        // person 1 asks 5,000 but 3 × 1,000,000 / 963 = 3,115.26… → capped at 3,115;
        // person 2 asks 200; offer 10,000: demand 3,315 fits, leftover 6,685 to the Second Stage
        let a = run(
            10_000,
            Rule::NearestAdjust,
            vec![
                filing(1, "2024-01-03", 1, 5_000),
                filing(2, "2024-01-04", 2, 200),
            ],
            &|id| Some(if id == 1 { "1000000" } else { RICH }),
        );
        assert_eq!(
            table(&a),
            vec![(1, 5_000, 3_115, 3_115, None), (2, 200, 200, 200, None)]
        );
        assert_eq!(a.outcomes[0].cap, Some((3_115, 0)));
        assert_eq!((a.demand, a.awarded, a.leftover), (3_315, 3_315, 6_685));
        assert!(!a.oversubscribed);
    }

    #[test]
    fn a_persons_valid_filings_are_added_and_capped_once_in_the_order_of_the_first_valid() {
        // person 7: a late filing first (2023-12-30), then two valid ones (300 + 400 = 700),
        // capped at 3 × 200,000 / 963 = 623.05… → 623. Person 8 filed between them.
        // Person 9 has only a late filing: rejected LATE, requested 50.
        let mut late = filing(1, "2023-12-30", 7, 999);
        late.cause = Some(Cause::Late);
        let mut only_late = filing(5, "2023-12-31", 9, 50);
        only_late.cause = Some(Cause::Late);
        let a = run(
            10_000,
            Rule::NearestAdjust,
            vec![
                late,
                filing(3, "2024-01-05", 7, 400),
                filing(2, "2024-01-03", 8, 10),
                filing(4, "2024-01-02", 7, 300),
                only_late,
            ],
            &|id| Some(if id == 4 { "200000" } else { RICH }),
        );
        // order: person 9 (first filing 2023-12-31, none valid), person 7 (first valid
        // 2024-01-02), person 8 (2024-01-03)
        assert_eq!(
            table(&a),
            vec![
                (9, 50, 0, 0, Some(Cause::Late)),
                (7, 700, 623, 623, None),
                (8, 10, 10, 10, None),
            ]
        );
        assert_eq!(
            a.outcomes[1].filing, 4,
            "the cap used the first valid filing"
        );
    }

    #[test]
    fn missing_evidence_is_judged_once_per_person_on_the_first_valid_filing() {
        let a = run(
            1_000,
            Rule::NearestAdjust,
            vec![
                filing(1, "2024-01-03", 1, 10),
                filing(2, "2024-01-04", 1, 10),
            ],
            &|id| if id == 1 { None } else { Some(RICH) },
        );
        assert_eq!(table(&a), vec![(1, 20, 0, 0, Some(Cause::InfoNotSupplied))]);
        assert_eq!(a.outcomes[0].status, Status::Rejected);
    }

    #[test]
    fn refusers_are_set_aside_only_when_the_offer_is_oversubscribed() {
        // offer 100; person 1 asks 80 refusing reduction, person 2 asks 60: demand 140 > 100.
        // Person 1 is set aside; person 2's 60 fits in the 100: awarded in full, 40 left over.
        let mut refuser = filing(1, "2024-01-03", 1, 80);
        refuser.accepts_reduction = false;
        let a = run(
            100,
            Rule::NearestAdjust,
            vec![refuser, filing(2, "2024-01-04", 2, 60)],
            &|_| Some(RICH),
        );
        assert_eq!(
            table(&a),
            vec![
                (1, 80, 80, 0, Some(Cause::RefusedReduction)),
                (2, 60, 60, 60, None)
            ]
        );
        assert_eq!((a.demand, a.awarded, a.leftover), (140, 60, 40));
        assert!(a.oversubscribed);
        assert!(a.quotas.is_empty(), "the rest fit: no proration");
        // the same refuser in an offer that fits everyone is awarded in full
        let mut refuser = filing(1, "2024-01-03", 1, 80);
        refuser.accepts_reduction = false;
        let a = run(
            200,
            Rule::NearestAdjust,
            vec![refuser, filing(2, "2024-01-04", 2, 60)],
            &|_| Some(RICH),
        );
        assert_eq!(
            table(&a),
            vec![(1, 80, 80, 80, None), (2, 60, 60, 60, None)]
        );
    }

    #[test]
    fn one_refusing_filing_makes_the_person_refuse() {
        let mut second = filing(2, "2024-01-04", 1, 10);
        second.accepts_reduction = false;
        let a = run(
            15,
            Rule::NearestAdjust,
            vec![
                filing(1, "2024-01-03", 1, 10),
                second,
                filing(3, "2024-01-05", 2, 10),
            ],
            &|_| Some(RICH),
        );
        assert_eq!(
            table(&a),
            vec![
                (1, 20, 20, 0, Some(Cause::RefusedReduction)),
                (2, 10, 10, 10, None)
            ]
        );
    }

    #[test]
    fn nearest_adjust_worked_by_hand() {
        // offer 10 among 3 persons asking 4 each (demand 12): quotas 10 × 4 / 12 = 3 + 4/12 each
        // → 3, 3, 3 = 9, one short: one more to the smallest, equal awards in filing order →
        // 4, 3, 3.
        let a = run(
            10,
            Rule::NearestAdjust,
            vec![
                filing(1, "2024-01-03", 1, 4),
                filing(2, "2024-01-04", 2, 4),
                filing(3, "2024-01-05", 3, 4),
            ],
            &|_| Some(RICH),
        );
        assert_eq!(
            a.outcomes.iter().map(|o| o.awarded).collect::<Vec<_>>(),
            vec![4, 3, 3]
        );
        assert_eq!(a.quotas[0].to_string(), "3 + 4/12");
        assert_eq!((a.demand, a.awarded, a.leftover), (12, 10, 0));
        // ties decided by filing time, not by the order the file lists them
        let a = run(
            10,
            Rule::NearestAdjust,
            vec![
                filing(3, "2024-01-05", 3, 4),
                filing(2, "2024-01-04", 2, 4),
                filing(1, "2024-01-06", 1, 4),
            ],
            &|_| Some(RICH),
        );
        assert_eq!(
            a.outcomes
                .iter()
                .map(|o| (o.person, o.awarded))
                .collect::<Vec<_>>(),
            vec![(2, 4), (3, 3), (1, 3)]
        );
    }

    #[test]
    fn floor_leftover_to_smallest_worked_by_hand_with_the_all_zero_edge() {
        // offer 10 among 1, 13, 6 (demand 20): quotas 0.5, 6.5, 3 → floors 0, 6, 3 = 9; the one
        // leftover share goes to the smallest positive award (3), not to the zero.
        let a = run(
            10,
            Rule::FloorLeftoverToSmallest,
            vec![
                filing(1, "2024-01-03", 1, 1),
                filing(2, "2024-01-04", 2, 13),
                filing(3, "2024-01-05", 3, 6),
            ],
            &|_| Some(RICH),
        );
        assert_eq!(
            a.outcomes.iter().map(|o| o.awarded).collect::<Vec<_>>(),
            vec![0, 6, 4]
        );
        // every award zero: offer 2 among 3, 3, 3 → quotas 2/3 each, floors 0; the first filed
        // takes both
        let a = run(
            2,
            Rule::FloorLeftoverToSmallest,
            vec![
                filing(1, "2024-01-03", 1, 3),
                filing(2, "2024-01-04", 2, 3),
                filing(3, "2024-01-05", 3, 3),
            ],
            &|_| Some(RICH),
        );
        assert_eq!(
            a.outcomes.iter().map(|o| o.awarded).collect::<Vec<_>>(),
            vec![2, 0, 0]
        );
        assert_eq!(a.outcomes[1].status, Status::Awarded);
    }
}
