//! Caps on what one acceptor may buy in the first stage (Decreto 3939 Arts. 7 and 8; seed 003's
//! Art. for another program). Caps are program data: each is a multiple of a figure the acceptor
//! proves (patrimonio líquido, income, salary, investment limit, patrimonio ajustado), in pesos
//! converted to whole shares at the fixed price rounding down, or a number of shares. Every cap
//! that applies to the acceptor binds; the least is the one that counts. An acceptance above its
//! cap is "taken as made" for the cap (Art. 7 num. 4), not rejected.

use rust_decimal::Decimal;
use serde::Deserialize;
use std::fmt;

/// Natural or legal person, as a cap names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Person {
    Natural,
    Legal,
}

/// A figure the acceptor proves, in pesos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Patrimonio líquido of the income-tax return.
    PatrimonioLiquido,
    /// Income (certificate of income and withholdings, or annual income).
    Income,
    /// Annual salary (directors, Art. 7 num. 3).
    AnnualSalary,
    /// The legal or statutory investment limit (Art. 8 num. 1).
    InvestmentLimit,
    /// Patrimonio ajustado: assets − liabilities − valuation surplus (Art. 8 num. 2 b).
    PatrimonioAjustado,
    /// Annual income as the audited financial statements show it (seed 003 num. 5 (b)), beside
    /// the return's `income` (num. 5 (a)).
    IncomeFinancialStatements,
}

impl Measure {
    /// The acceptances file's column for the figure.
    pub fn column(self) -> &'static str {
        match self {
            Measure::PatrimonioLiquido => "patrimonio_liquido",
            Measure::Income => "income",
            Measure::AnnualSalary => "annual_salary",
            Measure::InvestmentLimit => "investment_limit",
            Measure::PatrimonioAjustado => "patrimonio_ajustado",
            Measure::IncomeFinancialStatements => "income_financial_statements",
        }
    }
}

/// When a cap applies, besides the kind of person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum When {
    #[default]
    Always,
    /// The acceptor files an income-tax return.
    FilesTaxReturn,
    /// The acceptor does not file one.
    NoTaxReturn,
    /// The acceptor holds a directive post in the company.
    Director,
}

/// How a cap's several documents combine into the one figure it multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    /// The least of the figures: each document caps on its own (seed 003 num. 5: income "que
    /// figuren en: (a) … y (b) …"). The default.
    #[default]
    Least,
    /// Their sum.
    Sum,
}

/// `of = "income"` or `of = ["income", "income_financial_statements"]`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Measure>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(Measure),
        Many(Vec<Measure>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(m) => vec![m],
        OneOrMany::Many(v) => v,
    })
}

/// One cap of a program (`[[caps]]` in the program file).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cap {
    /// Where the cap comes from, as printed in the acta: "Decreto 3939 Art. 7 num. 1".
    pub rule: String,
    pub person: Person,
    #[serde(default)]
    pub when: When,
    /// `times × of` pesos…
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub times: Option<Decimal>,
    /// The figure, or the documents whose figures `combine` makes one (`of = ["income",
    /// "income_financial_statements"]`, seed 003 num. 5); a list of one is the single figure.
    #[serde(default, deserialize_with = "one_or_many")]
    pub of: Vec<Measure>,
    /// How several documents of `of` combine: `"least"` (default) or `"sum"`. A cap any of whose
    /// documents is missing is "información no suministrada", as a missing figure always was.
    #[serde(default)]
    pub combine: Combine,
    /// …or a number of shares.
    pub shares: Option<u64>,
}

/// What an acceptor declares for the caps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    pub files_tax_return: bool,
    pub is_director: bool,
    pub patrimonio_liquido: Option<Decimal>,
    pub income: Option<Decimal>,
    pub annual_salary: Option<Decimal>,
    pub investment_limit: Option<Decimal>,
    pub patrimonio_ajustado: Option<Decimal>,
    pub income_financial_statements: Option<Decimal>,
}

impl Evidence {
    fn figure(&self, m: Measure) -> Option<Decimal> {
        match m {
            Measure::PatrimonioLiquido => self.patrimonio_liquido,
            Measure::Income => self.income,
            Measure::AnnualSalary => self.annual_salary,
            Measure::InvestmentLimit => self.investment_limit,
            Measure::PatrimonioAjustado => self.patrimonio_ajustado,
            Measure::IncomeFinancialStatements => self.income_financial_statements,
        }
    }

    /// The figure a cap multiplies: its documents' figures combined, or the first document
    /// missing.
    fn combined(&self, of: &[Measure], combine: Combine) -> Result<Decimal, Measure> {
        let mut out: Option<Decimal> = None;
        for &m in of {
            let f = self.figure(m).ok_or(m)?;
            out = Some(match (out, combine) {
                (None, _) => f,
                (Some(a), Combine::Least) => a.min(f),
                // beyond Decimal's 7.9 × 10^28 pesos no cap binds
                (Some(a), Combine::Sum) => a.checked_add(f).unwrap_or(Decimal::MAX),
            });
        }
        out.ok_or(Measure::Income)
    }
}

/// Why a program's caps are not usable (checked when the program is read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidCap {
    pub index: usize,
    pub reason: String,
}

impl fmt::Display for InvalidCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "caps[{}]: {}", self.index, self.reason)
    }
}

/// Checks that every cap is either `times` × `of` (a positive multiple) or `shares` (> 0).
pub fn validate(caps: &[Cap]) -> Result<(), InvalidCap> {
    for (index, c) in caps.iter().enumerate() {
        let bad = |reason: &str| {
            Err(InvalidCap {
                index,
                reason: format!("{} ({})", reason, c.rule),
            })
        };
        let mut seen: Vec<Measure> = Vec::new();
        if let Some(twice) = c.of.iter().find(|&&m| {
            let again = seen.contains(&m);
            seen.push(m);
            again
        }) {
            return bad(&format!("{} is listed twice in of", twice.column()));
        }
        match (c.times, c.of.is_empty(), c.shares) {
            (Some(t), false, None) if t > Decimal::ZERO => {}
            (Some(_), false, None) => return bad("times must be greater than zero"),
            (None, true, Some(n)) if n > 0 => {}
            (None, true, Some(_)) => return bad("shares must be greater than zero"),
            _ => {
                return bad("give either times and of (a multiple of a figure in pesos) or shares");
            }
        }
        // a combination needs documents to combine: `combine` with one figure is a slip
        if c.combine == Combine::Sum && c.of.len() < 2 {
            return bad("combine = \"sum\" adds several documents: list two or more in of");
        }
        if c.rule.trim().is_empty() {
            return bad("rule must say where the cap comes from");
        }
    }
    Ok(())
}

/// The cap that binds an acceptor: the least in shares of the caps that apply, with the rule it
/// comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound<'a> {
    pub shares: u64,
    pub cap: &'a Cap,
}

/// The binding cap for an acceptor (`None` when no cap applies), or the first figure an
/// applicable cap needs that the acceptor did not supply ("información no suministrada").
pub fn binding<'a>(
    caps: &'a [Cap],
    person: Person,
    evidence: &Evidence,
    fixed_price: Decimal,
) -> Result<Option<Bound<'a>>, Measure> {
    let mut best: Option<Bound<'a>> = None;
    for cap in caps.iter().filter(|c| c.person == person) {
        let applies = match cap.when {
            When::Always => true,
            When::FilesTaxReturn => evidence.files_tax_return,
            When::NoTaxReturn => !evidence.files_tax_return,
            When::Director => evidence.is_director,
        };
        if !applies {
            continue;
        }
        let shares = match (cap.times, cap.shares) {
            (_, Some(n)) => n,
            (Some(times), None) if !cap.of.is_empty() => {
                let figure = evidence.combined(&cap.of, cap.combine)?;
                whole_shares(times, figure, fixed_price)
            }
            _ => continue, // rejected by `validate`
        };
        if best.as_ref().is_none_or(|b| shares < b.shares) {
            best = Some(Bound { shares, cap });
        }
    }
    Ok(best)
}

/// `floor(times × pesos / price)` shares, exactly (a negative figure allows none). The quotient
/// from `Decimal` division is rounded at 28 digits, so it is corrected by exact multiplication.
fn whole_shares(times: Decimal, pesos: Decimal, price: Decimal) -> u64 {
    if price <= Decimal::ZERO {
        return 0;
    }
    let Some(amount) = times.checked_mul(pesos) else {
        return u64::MAX;
    };
    if amount <= Decimal::ZERO {
        return 0;
    }
    let Some(mut q) = amount.checked_div(price).map(|q| q.floor()) else {
        return u64::MAX;
    };
    let fits = |q: Decimal| q.checked_mul(price).is_some_and(|v| v <= amount);
    while q > Decimal::ZERO && !fits(q) {
        q -= Decimal::ONE;
    }
    while fits(q + Decimal::ONE) {
        q += Decimal::ONE;
    }
    u64::try_from(q).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    /// Decreto 3939 Arts. 7 and 8 as program data.
    fn decreto_3939() -> Vec<Cap> {
        let toml = r#"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 7 num. 1"
            person = "natural"
            when = "files-tax-return"
            times = "3"
            of = "patrimonio_liquido"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 7 num. 2"
            person = "natural"
            when = "no-tax-return"
            times = "3"
            of = "income"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 7 num. 3"
            person = "natural"
            when = "director"
            times = "3"
            of = "annual_salary"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 8 num. 1"
            person = "legal"
            times = "1"
            of = "investment_limit"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 8 num. 2 a)"
            person = "legal"
            when = "files-tax-return"
            times = "2"
            of = "patrimonio_liquido"
            [[caps]]
            rule = "Decreto 3939 de 2004 Art. 8 num. 2 b)"
            person = "legal"
            when = "no-tax-return"
            times = "2"
            of = "patrimonio_ajustado"
        "#;
        #[derive(Deserialize)]
        struct F {
            caps: Vec<Cap>,
        }
        let caps = toml::from_str::<F>(toml).unwrap().caps;
        validate(&caps).unwrap();
        caps
    }

    #[test]
    fn a_natural_person_is_capped_by_three_times_the_figure_of_their_return() {
        let caps = decreto_3939();
        // 3 × 10,000,000 / 963 = 31,152.64… → 31,152 shares
        let filer = Evidence {
            files_tax_return: true,
            patrimonio_liquido: Some(dec("10000000")),
            ..Evidence::default()
        };
        let b = binding(&caps, Person::Natural, &filer, dec("963"))
            .unwrap()
            .unwrap();
        assert_eq!(b.shares, 31_152);
        assert_eq!(b.cap.rule, "Decreto 3939 de 2004 Art. 7 num. 1");
        // a non-filer: 3 × income 5,000,000 / 963 = 15,576.32… → 15,576
        let other = Evidence {
            income: Some(dec("5000000")),
            ..Evidence::default()
        };
        let b = binding(&caps, Person::Natural, &other, dec("963"))
            .unwrap()
            .unwrap();
        assert_eq!(b.shares, 15_576);
        // a filer without the figure: information not supplied, naming it
        let bare = Evidence {
            files_tax_return: true,
            ..Evidence::default()
        };
        assert_eq!(
            binding(&caps, Person::Natural, &bare, dec("963")),
            Err(Measure::PatrimonioLiquido)
        );
    }

    #[test]
    fn a_director_is_held_to_the_least_of_the_caps() {
        let caps = decreto_3939();
        // patrimonio 3 × 10,000,000 → 31,152 shares; salary 3 × 2,000,000 / 963 = 6,230.53… → 6,230
        let director = Evidence {
            files_tax_return: true,
            is_director: true,
            patrimonio_liquido: Some(dec("10000000")),
            annual_salary: Some(dec("2000000")),
            ..Evidence::default()
        };
        let b = binding(&caps, Person::Natural, &director, dec("963"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (b.shares, b.cap.rule.as_str()),
            (6_230, "Decreto 3939 de 2004 Art. 7 num. 3")
        );
    }

    #[test]
    fn a_legal_person_is_held_to_its_investment_limit_and_twice_its_equity() {
        let caps = decreto_3939();
        // limit 100,000,000 / 963 = 103,842.16… → 103,842; 2 × ajustado 40,000,000 / 963 =
        // 83,073.72… → 83,073: the second binds
        let union = Evidence {
            investment_limit: Some(dec("100000000")),
            patrimonio_ajustado: Some(dec("40000000")),
            ..Evidence::default()
        };
        let b = binding(&caps, Person::Legal, &union, dec("963"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (b.shares, b.cap.rule.as_str()),
            (83_073, "Decreto 3939 de 2004 Art. 8 num. 2 b)")
        );
        // without the investment limit: not supplied
        let no_limit = Evidence {
            patrimonio_ajustado: Some(dec("40000000")),
            ..Evidence::default()
        };
        assert_eq!(
            binding(&caps, Person::Legal, &no_limit, dec("963")),
            Err(Measure::InvestmentLimit)
        );
    }

    #[test]
    fn a_cap_in_shares_binds_when_it_is_the_least() {
        // seed 003 (EBSA 2010), legal persons: 1 × ajustado, 5 × income, 122,122,301 shares
        let caps = vec![
            Cap {
                rule: "seed 003 num. 5".into(),
                person: Person::Legal,
                when: When::Always,
                times: Some(dec("1")),
                of: vec![Measure::PatrimonioAjustado],
                combine: Combine::Least,
                shares: None,
            },
            Cap {
                rule: "seed 003 num. 7".into(),
                person: Person::Legal,
                when: When::Always,
                times: None,
                of: Vec::new(),
                combine: Combine::Least,
                shares: Some(122_122_301),
            },
        ];
        validate(&caps).unwrap();
        let rich = Evidence {
            patrimonio_ajustado: Some(dec("1000000000000")),
            ..Evidence::default()
        };
        // 10^12 / 1,000 = 10^9 shares > 122,122,301
        let b = binding(&caps, Person::Legal, &rich, dec("1000"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (b.shares, b.cap.rule.as_str()),
            (122_122_301, "seed 003 num. 7")
        );
        // a natural person is not touched by legal persons' caps
        assert_eq!(
            binding(&caps, Person::Natural, &rich, dec("1000")),
            Ok(None)
        );
    }

    #[test]
    fn several_documents_combine_by_the_least_or_their_sum() {
        // 5 × income read from two documents: 40.000.000 (return) and 30.000.000 (financial
        // statements) at $ 1.000 a share: least → 5 × 30.000.000 / 1.000 = 150.000 shares;
        // sum → 5 × 70.000.000 / 1.000 = 350.000 shares; a document missing: not supplied
        let cap = |combine| Cap {
            rule: "seed 003 num. 5".into(),
            person: Person::Legal,
            when: When::Always,
            times: Some(dec("5")),
            of: vec![Measure::Income, Measure::IncomeFinancialStatements],
            combine,
            shares: None,
        };
        let both = Evidence {
            income: Some(dec("40000000")),
            income_financial_statements: Some(dec("30000000")),
            ..Evidence::default()
        };
        for (combine, shares) in [(Combine::Least, 150_000), (Combine::Sum, 350_000)] {
            let caps = vec![cap(combine)];
            validate(&caps).unwrap();
            let b = binding(&caps, Person::Legal, &both, dec("1000"))
                .unwrap()
                .unwrap();
            assert_eq!(b.shares, shares, "{combine:?}");
        }
        // a sum of one document is a slip in the program file
        let mut single = cap(Combine::Sum);
        single.of = vec![Measure::Income];
        assert!(
            validate(&[single])
                .unwrap_err()
                .reason
                .contains("list two or more")
        );
        let one = Evidence {
            income: Some(dec("40000000")),
            ..Evidence::default()
        };
        assert_eq!(
            binding(&[cap(Combine::Sum)], Person::Legal, &one, dec("1000")),
            Err(Measure::IncomeFinancialStatements)
        );
    }

    #[test]
    fn pesos_become_whole_shares_exactly_rounding_down() {
        assert_eq!(whole_shares(dec("3"), dec("963"), dec("963")), 3);
        assert_eq!(whole_shares(dec("3"), dec("962.99"), dec("963")), 2);
        // a quotient whose 28-digit rounding lands on the next integer: 1 / (1/3 + ε)
        assert_eq!(
            whole_shares(dec("1"), dec("1"), dec("0.3333333333333333333333333334")),
            2
        );
        assert_eq!(whole_shares(dec("1"), dec("-5"), dec("963")), 0);
    }

    #[test]
    fn a_cap_is_a_multiple_or_a_number_of_shares() {
        let mut c = decreto_3939();
        c[0].shares = Some(5);
        assert_eq!(validate(&c).unwrap_err().index, 0);
        c[0].shares = None;
        c[0].times = Some(dec("0"));
        assert!(
            validate(&c)
                .unwrap_err()
                .reason
                .contains("greater than zero")
        );
    }
}
