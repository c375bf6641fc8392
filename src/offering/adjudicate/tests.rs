//! Unit tests of `adjudicate.rs`.

#[test]
fn a_program_reads_and_words_its_own_review_causes() {
    use crate::program::{DECRETO_3939_2004, Program, SEMILLA_001};
    // seed 001 (v): the reglamento's own cause; and (iii) reworded with the seed's numbering
    let s001 = Program::from_toml(SEMILLA_001).unwrap();
    let own = Cause::of_review(&s001, "otra_causal").unwrap();
    assert_eq!(own.as_str(), "OTRA_CAUSAL");
    assert_eq!(
        Cause::InfoNotSupplied.label_for(&s001),
        "la información solicitada para subsanar o aclarar la aceptación no fue suministrada \
             oportunamente (causal (iii) del artículo de adjudicación de la Primera Etapa)"
    );
    let d3939 = Program::from_toml(DECRETO_3939_2004).unwrap();
    assert!(Cause::of_review(&d3939, "OTRA_CAUSAL").is_err());
    assert_eq!(
        Cause::InfoNotSupplied.label_for(&d3939),
        Cause::InfoNotSupplied.label_es()
    );
}

use super::*;
use crate::money::dec;

#[test]
fn an_outcome_reads_back_its_stored_name_and_nothing_else() {
    // the names the database and the result's JSON hold (issue 15's rows)
    assert_eq!(Status::parse("awarded"), Some(Status::Awarded));
    assert_eq!(Status::parse("rejected"), Some(Status::Rejected));
    for s in Status::ALL {
        assert_eq!(Status::parse(s.as_str()), Some(s));
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            format!("\"{}\"", s.as_str())
        );
    }
    for other in ["pending", "Awarded", "awarded ", "adjudicada", ""] {
        assert_eq!(Status::parse(other), None, "{other:?}");
    }
}

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
        person_type: crate::import::PersonType::Natural,
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
        let who = Eligibility {
            categories: &cats,
            legal: None,
            just_cause: None,
        };
        assert_eq!(judge(&f, W, &who), want, "{case}");
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
    assert!(
        a.outcomes.iter().all(|o| a.quota(o).is_none()),
        "the rest fit: no proration"
    );
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
    assert_eq!(a.quota(&a.outcomes[0]).unwrap().to_string(), "3 + 4/12");
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

#[test]
fn categories_belong_to_natural_or_legal_persons_and_just_cause_bars_ex_workers_only() {
    // LEGAL_NOTES §7.5, Decreto 3939 Art. 3: (i)-(ii) natural persons, (iii)-(x) legal
    use crate::import::PersonType::{Legal, Natural};
    let p = crate::program::Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
    let who = p.eligibility();
    assert!(who.eligible("trabajador", Natural, false));
    assert!(
        !who.eligible("trabajador", Legal, false),
        "a NIT filed as a worker"
    );
    assert!(who.eligible("sindicato", Legal, false));
    assert!(
        !who.eligible("sindicato", Natural, false),
        "a person filed as a union"
    );
    // "siempre y cuando no hayan sido desvinculados con justa causa" qualifies item (ii)
    assert!(!who.eligible("extrabajador", Natural, true));
    assert!(who.eligible("pensionado", Natural, true));
    assert!(who.eligible("sindicato", Legal, true));
    // a program written before the keys judges as it always did
    let old = Eligibility {
        categories: &p.categories,
        legal: None,
        just_cause: None,
    };
    assert!(old.eligible("trabajador", Legal, false));
    assert!(!old.eligible("pensionado", Natural, true));
}
