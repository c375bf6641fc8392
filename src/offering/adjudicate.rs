//! The first-stage adjudication (Decreto 3939 de 2004 Art. 12; SPEC §9), pure: each filing
//! judged on its own, a person's valid filings added together and capped once (Arts. 7–8),
//! acceptances refusing reduction set aside when the offer is oversubscribed, and the offer
//! shared pro rata by the program's rule. No I/O: the figures a cap needs come through a
//! closure, so the caller decides where they are read from.

use crate::caps::{self, Cap, Evidence, Person};
use crate::lang::Said;
use crate::program::Program;
use crate::proration::{self, Quota, Rule};
use crate::said;
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use serde::Serialize;
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
    /// A cause the program's own reglamento adds (`[[review_causes]]`, seed 001 (v)), by its
    /// code; recorded by the reviewers. Its wording and article are the program's
    /// ([`Cause::label_for`]).
    Program(&'static str),
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
            Cause::Program(code) => code,
        }
    }

    /// The built-in causes the reviewing staff may record in the `review` column (a program
    /// adds its own: [`Cause::of_review`]).
    pub const REVIEW: [Cause; 3] = [
        Cause::FormDefect,
        Cause::InfoNotSupplied,
        Cause::PriceNotPaid,
    ];

    /// A review cause as stored: a built-in one, or a program's (its code was checked against
    /// the program when the acceptance was imported).
    pub fn from_review(s: &str) -> Option<Cause> {
        Cause::REVIEW
            .into_iter()
            .find(|c| c.as_str() == s)
            .or_else(|| Cause::program(s))
    }

    /// A code written as a program cause's and not a built-in one.
    fn program(s: &str) -> Option<Cause> {
        (crate::program_offer::is_code(s) && !Cause::ALL.iter().any(|c| c.as_str() == s))
            .then(|| Cause::Program(crate::program_offer::intern(s)))
    }

    pub fn parse(s: &str) -> Option<Cause> {
        Cause::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .or_else(|| Cause::program(s))
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
            Cause::Program(_) => "causal establecida en el reglamento del programa",
        }
    }
}

/// A cause as a program reads and words it: its own `[[review_causes]]` beside the built-in ones.
impl Cause {
    /// The review cause an acceptance's `review` cell names (any case): a built-in one, or one
    /// of the program's `[[review_causes]]`; else why not, listing the codes it may be.
    pub fn of_review(program: &Program, cell: &str) -> Result<Cause, Said> {
        let code = cell.trim().to_uppercase();
        if let Some(c) = Cause::REVIEW.into_iter().find(|c| c.as_str() == code) {
            return Ok(c);
        }
        if let Some(own) = program.review_causes.iter().find(|c| c.code == code) {
            return Ok(Cause::Program(crate::program_offer::intern(&own.code)));
        }
        let codes: Vec<&str> = Cause::REVIEW
            .iter()
            .map(|c| c.as_str())
            .chain(program.review_causes.iter().map(|c| c.code.as_str()))
            .collect();
        let (list, program) = (codes.join(", "), &program.code);
        Err(said!(offering::must_one_review_causes_empty, list, program))
    }

    /// A cause in the acta's words, with its source: a program cause's wording and article.
    pub fn label_for(self, program: &Program) -> String {
        let cause = self;
        match cause {
            Cause::Program(code) => program
                .review_causes
                .iter()
                .find(|c| c.code == code)
                .map_or_else(
                    || cause.label_es().to_string(),
                    |c| format!("{} ({})", c.wording.trim(), c.article.trim()),
                ),
            // the program may reword a built-in cause with its own article
            builtin => program
                .review_causes
                .iter()
                .find(|c| c.code == builtin.as_str())
                .map_or_else(
                    || builtin.label_es().to_string(),
                    |c| format!("{} ({})", c.wording.trim(), c.article.trim()),
                ),
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

/// Who may accept (Art. 3): the program's categories, which of them are legal persons', and
/// which a dismissal with just cause disqualifies (LEGAL_NOTES §7.5).
#[derive(Debug, Clone, Copy)]
pub struct Eligibility<'a> {
    pub categories: &'a [String],
    /// `None`: categories are not tied to a kind of person.
    pub legal: Option<&'a [String]>,
    /// `None`: a just-cause dismissal disqualifies every category.
    pub just_cause: Option<&'a [String]>,
}

impl Eligibility<'_> {
    /// Whether `category` belongs to the kind of person `person` is (always, when the program
    /// does not tie categories to kinds of person).
    pub fn fits(&self, category: &str, person: crate::import::PersonType) -> bool {
        let legal = person == crate::import::PersonType::Legal;
        self.legal
            .is_none_or(|l| l.iter().any(|c| c == category) == legal)
    }

    /// Whether a filer of `category`, a `person` person, is a special-condition recipient.
    pub fn eligible(
        &self,
        category: &str,
        person: crate::import::PersonType,
        dismissed_with_just_cause: bool,
    ) -> bool {
        let named = |list: &[String]| list.iter().any(|c| c == category);
        named(self.categories)
            && self.fits(category, person)
            && !(dismissed_with_just_cause && self.just_cause.is_none_or(named))
    }
}

/// What judging one filing on its own needs of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts<'a> {
    pub filed_on: NaiveDate,
    pub category: &'a str,
    pub person_type: crate::import::PersonType,
    pub dismissed_with_just_cause: bool,
    pub declarations: bool,
    pub review: Option<Cause>,
}

/// The first cause that applies to a filing on its own, in the order of rule 1 of issue 15:
/// late, not eligible, no declarations, the reviewers' cause. `None`: valid.
pub fn judge(f: &Facts<'_>, window: Window, who: &Eligibility<'_>) -> Option<Cause> {
    if f.filed_on < window.opens || f.filed_on > window.closes {
        Some(Cause::Late)
    } else if !who.eligible(f.category, f.person_type, f.dismissed_with_just_cause) {
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

/// The outcome of one person: stored, listed and fingerprinted as `awarded` or `rejected` (its
/// [`as_str`](Status::as_str)); the store reads those names back exactly and refuses any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Awarded,
    Rejected,
}

impl Status {
    pub const ALL: [Status; 2] = [Status::Awarded, Status::Rejected];

    /// The stored name back as a status; `None` for any other text (no guess).
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|v| v.as_str() == s)
    }

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
    /// The person shared an oversubscribed offer: their quota is [`Adjudication::quota`].
    pub pooled: bool,
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
    /// The admitted shares of those who shared an oversubscribed offer (the quotas'
    /// denominator); 0 when nobody did.
    pub pool_demand: u64,
}

impl Adjudication {
    /// The exact quota of a person who shared an oversubscribed offer: `offered × admitted /
    /// pool demand`, as [`proration::share`] computes it (recomputed here rather than kept, so
    /// that a million quotas do not stay in memory while the result is written).
    pub fn quota(&self, o: &Outcome) -> Option<Quota> {
        o.pooled.then(|| {
            let product = u128::from(self.offered) * u128::from(o.admitted);
            let d = u128::from(self.pool_demand);
            Quota {
                whole: u64::try_from(product / d).expect("a quota is below its admitted shares"),
                remainder: product % d,
                demand: d,
            }
        })
    }
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

/// Where a filing stands in filing order: by `filed_at`, then by `line`, then by `seq` (the
/// caller's order of filings otherwise equal: the register's stored order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Order {
    pub filed_at: NaiveDateTime,
    pub line: u64,
    pub seq: u64,
}

/// One person while their filings are gathered, in any order (rule 2): the filing that speaks
/// for them so far (the first valid, else the first), its cause or the cap judged on it, and the
/// shares asked for.
#[derive(Debug, Clone, Copy)]
struct Acceptor {
    speaker: Order,
    filing: i64,
    requested_all: u64,
    requested_valid: u64,
    /// The cap of the first valid filing: (shares, index in the program's caps).
    cap: Option<(u64, u32)>,
    person: u32,
    /// The cause of the first filing, while none is valid.
    cause: Option<Cause>,
    has_valid: bool,
    /// The first valid filing lacks a figure an applicable cap needs.
    info_missing: bool,
    refuses: bool,
    overflow_all: bool,
    overflow_valid: bool,
}

/// Gathers filings person by person, in any order, then adjudicates ([`Gatherer::finish`]).
/// Memory is one small record per person; a filing is forgotten once added.
pub struct Gatherer<'a> {
    terms: Terms<'a>,
    acceptors: Vec<Acceptor>,
}

impl<'a> Gatherer<'a> {
    pub fn new(terms: Terms<'a>) -> Self {
        Gatherer {
            terms,
            acceptors: Vec::new(),
        }
    }

    /// Persons gathered so far (the next new person is numbered this).
    pub fn persons(&self) -> u32 {
        u32::try_from(self.acceptors.len()).expect("fewer than 4 billion persons")
    }

    /// Adds a filing of person `k` (numbered from 0 in the order they first appear; `k` =
    /// [`Gatherer::persons`] is a new person, reported as `person` in the outcome). When the
    /// filing becomes the first valid one of its person, `cap_facts` gives its figures and the
    /// cap is judged on them. Returns whether the filing now speaks for its person.
    pub fn add<E: From<Error>>(
        &mut self,
        k: u32,
        person: u32,
        order: Order,
        filing: &Filing,
        cap_facts: impl FnOnce() -> Result<CapFacts, E>,
    ) -> Result<bool, E> {
        let k = k as usize;
        if k == self.acceptors.len() {
            self.acceptors.push(Acceptor {
                speaker: order,
                filing: filing.id,
                requested_all: 0,
                requested_valid: 0,
                cap: None,
                person,
                cause: filing.cause,
                has_valid: false,
                info_missing: false,
                refuses: false,
                overflow_all: false,
                overflow_valid: false,
            });
        }
        let terms = self.terms;
        let a = &mut self.acceptors[k];
        match a.requested_all.checked_add(filing.shares) {
            Some(s) => a.requested_all = s,
            None => a.overflow_all = true,
        }
        if filing.cause.is_some() {
            if !a.has_valid && order <= a.speaker {
                (a.speaker, a.filing, a.cause) = (order, filing.id, filing.cause);
                return Ok(true);
            }
            return Ok(false);
        }
        match a.requested_valid.checked_add(filing.shares) {
            Some(s) => a.requested_valid = s,
            None => a.overflow_valid = true,
        }
        a.refuses |= !filing.accepts_reduction;
        if a.has_valid && order > a.speaker {
            return Ok(false);
        }
        (a.speaker, a.filing, a.cause, a.has_valid) = (order, filing.id, None, true);
        let facts = cap_facts()?;
        match caps::binding(terms.caps, facts.person, &facts.evidence, terms.fixed_price) {
            Err(_missing) => (a.cap, a.info_missing) = (None, true),
            Ok(bound) => {
                a.info_missing = false;
                a.cap = bound.map(|b| {
                    let i = cap_index(terms.caps, b.cap);
                    (
                        b.shares,
                        u32::try_from(i).expect("fewer than 4 billion caps"),
                    )
                });
            }
        }
        Ok(true)
    }

    /// Adjudicates what was gathered: persons in the filing order of their speaking filing,
    /// refusers set aside when oversubscribed, the offer shared by the program's rule.
    pub fn finish(self) -> Result<Adjudication, Error> {
        let terms = self.terms;
        let mut acceptors = self.acceptors;
        // the filing order of a person is that of their first valid filing (unique: seq breaks
        // every tie)
        acceptors.sort_unstable_by_key(|a| a.speaker);
        // outcomes are made from the last person back, and the records they come from given
        // back as they go, so that both lists are never whole in memory at once
        let n = acceptors.len();
        let mut refuses = Vec::with_capacity(n);
        let mut outcomes = Vec::with_capacity(n);
        while let Some(a) = acceptors.pop() {
            if acceptors.capacity() - acceptors.len() >= 1 << 16 {
                acceptors.shrink_to_fit();
            }
            let mut o = Outcome {
                person: a.person,
                filing: a.filing,
                requested: 0,
                cap: None,
                admitted: 0,
                pooled: false,
                awarded: 0,
                status: Status::Rejected,
                cause: None,
            };
            if !a.has_valid {
                if a.overflow_all {
                    return Err(Error::Overflow);
                }
                o.requested = a.requested_all;
                o.cause = a.cause;
            } else {
                if a.overflow_valid {
                    return Err(Error::Overflow);
                }
                o.requested = a.requested_valid;
                if a.info_missing {
                    o.cause = Some(Cause::InfoNotSupplied);
                } else {
                    o.cap = a.cap.map(|(s, i)| (s, i as usize));
                    o.admitted = o.cap.map_or(o.requested, |(c, _)| o.requested.min(c));
                    o.status = Status::Awarded;
                }
            }
            refuses.push(a.refuses);
            outcomes.push(o);
        }
        drop(acceptors);
        outcomes.reverse();
        refuses.reverse();
        let demand = outcomes
            .iter()
            .filter(|o| o.status == Status::Awarded)
            .try_fold(0u64, |s, o| s.checked_add(o.admitted))
            .ok_or(Error::Overflow)?;
        let oversubscribed = demand > terms.offered;
        // Art. 12 num. 2: those who refuse reduction are set aside; the rest share the offer
        let mut admitted = Vec::new();
        for (o, &refuses) in outcomes.iter_mut().zip(&refuses) {
            if o.status != Status::Awarded {
                continue;
            }
            if oversubscribed && refuses {
                o.status = Status::Rejected;
                o.cause = Some(Cause::RefusedReduction);
            } else {
                admitted.push(o.admitted);
            }
        }
        drop(refuses);
        let shared =
            proration::share(terms.offered, &admitted, terms.rule).map_err(|_| Error::Overflow)?;
        drop(admitted);
        let pooled = shared.quotas.as_ref().is_some_and(|q| !q.is_empty());
        drop(shared.quotas);
        let mut awards = shared.awards.iter();
        for o in outcomes.iter_mut().filter(|o| o.status == Status::Awarded) {
            o.awarded = *awards.next().expect("one award per pooled person");
            o.pooled = pooled;
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
            pool_demand: if pooled { shared.demand } else { 0 },
        })
    }
}

/// Adjudicates `filings` (any order; they are put in filing order, equal filings in the order
/// given) under `terms`. `cap_facts` gives the figures of a filing (by its id) for the cap of
/// the person it speaks for; it is called once per person with a valid filing. Exact integers
/// throughout.
pub fn adjudicate<E: From<Error>>(
    mut filings: Vec<Filing>,
    terms: Terms<'_>,
    mut cap_facts: impl FnMut(i64) -> Result<CapFacts, E>,
) -> Result<Adjudication, E> {
    filings.sort_by_key(|f| (f.filed_at, f.line));
    let mut numbers: HashMap<u32, u32> = HashMap::new();
    let mut g = Gatherer::new(terms);
    for (seq, f) in filings.iter().enumerate() {
        let next = g.persons();
        let k = *numbers.entry(f.person).or_insert(next);
        let order = Order {
            filed_at: f.filed_at,
            line: f.line,
            seq: seq as u64,
        };
        g.add(k, f.person, order, f, || cap_facts(f.id))?;
    }
    Ok(g.finish()?)
}

/// The index of `cap` in `caps` (it is one of them).
fn cap_index(caps: &[Cap], cap: &Cap) -> usize {
    caps.iter()
        .position(|c| std::ptr::eq(c, cap))
        .expect("the binding cap is one of the program's")
}

#[cfg(test)]
mod tests;
