//! A *programa de enajenación* as data (SPEC §2): every clause of the decree that the fine, the
//! pledge and the notices depend on, read from a reviewable TOML file and validated. Pure: parses
//! text it is given.

use crate::calendar::{Bracket, FineScale, MAX_LOCKUP_MONTHS, ScaleError};
use crate::fine::{Basis, Convention, StagePrice};
use crate::ids::{DocType, normalized};
use crate::lang::{Lang, Said, numero};
use crate::said;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::later_stages::{Criterion, CriterionRate, MinimumPrice, Weights};

/// The Decreto 3939 de 2004 (Terpel del Centro) program shipped with the binary.
pub const DECRETO_3939_2004: &str = include_str!("../schema/programs/decreto-3939-2004.toml");

/// The program of seed 000 (a first phase pro rata, leftovers to the smallest award; issue 27).
pub const SEMILLA_000: &str = include_str!("../schema/programs/semilla-000.toml");
/// The program of seed 001 (Comité de Dirección, causes (i)–(v); issue 27).
pub const SEMILLA_001: &str = include_str!("../schema/programs/semilla-001.toml");
/// The EBSA 2010 program of seed 003 (legal persons' documents and caps; issue 27).
pub const EBSA_2010: &str = include_str!("../schema/programs/ebsa-2010.toml");

/// The programs shipped inside the binary, by code: `vigia program add D3939-2004` registers one
/// with no file, `vigia program show-file D3939-2004` prints it to start another. The seeds'
/// programs carry figures marked EXAMPLE TO REPLACE in their comments.
pub const EMBEDDED: [(&str, &str); 5] = [
    ("D3939-2004", DECRETO_3939_2004),
    ("SEMILLA-000", SEMILLA_000),
    ("SEMILLA-001", SEMILLA_001),
    ("EBSA-2010", EBSA_2010),
    ("FOGAFIN-TON", crate::later_stages::FOGAFIN_TODO_O_NADA),
];

/// The shipped program file whose code is `code` (case and hyphens aside: `d3939 2004`).
pub fn embedded(code: &str) -> Option<&'static str> {
    let key = crate::input::folded(code);
    EMBEDDED
        .iter()
        .find(|(c, _)| crate::input::folded(c) == key)
        .map(|(_, text)| *text)
}

/// The kinds of breach a program can list (Decreto 3939 Art. 7 num. 5, Art. 8 num. 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum BreachKind {
    /// Venta o negociación de las acciones.
    Sale,
    /// Transferencia del beneficio real.
    BeneficialOwner,
    /// Dación en pago.
    DacionEnPago,
    /// Subrogación del crédito que financió la compra.
    CreditSubrogation,
}

impl BreachKind {
    pub const ALL: [BreachKind; 4] = [
        BreachKind::Sale,
        BreachKind::BeneficialOwner,
        BreachKind::DacionEnPago,
        BreachKind::CreditSubrogation,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BreachKind::Sale => "sale",
            BreachKind::BeneficialOwner => "beneficial-owner",
            BreachKind::DacionEnPago => "dacion-en-pago",
            BreachKind::CreditSubrogation => "credit-subrogation",
        }
    }

    /// The act, to be followed by "de N acciones" in a sentence.
    pub fn act_es(self) -> &'static str {
        match self {
            BreachKind::Sale => "la venta o negociación",
            BreachKind::BeneficialOwner => "la transferencia de la calidad de beneficiario real",
            BreachKind::DacionEnPago => "la dación en pago",
            BreachKind::CreditSubrogation => "la subrogación del crédito que financió la compra",
        }
    }

    /// What the acceptor declared not to do (Art. 7 num. 5 / Art. 8 num. 4, ordinals (i)–(iv)),
    /// to follow "su voluntad irrevocable de".
    pub fn promise_es(self) -> &'static str {
        match self {
            BreachKind::Sale => "no negociar las acciones",
            BreachKind::BeneficialOwner => {
                "no realizar conductas que conduzcan a que personas diferentes de usted tengan el carácter de \
                 beneficiario real de los derechos derivados de las acciones"
            }
            BreachKind::DacionEnPago => "no dar en pago las acciones",
            BreachKind::CreditSubrogation => {
                "no subrogar el crédito con el que financió la adquisición de las acciones"
            }
        }
    }

    pub fn label_es(self) -> &'static str {
        match self {
            BreachKind::Sale => "venta o negociación de las acciones",
            BreachKind::BeneficialOwner => "transferencia de la calidad de beneficiario real",
            BreachKind::DacionEnPago => "dación en pago de las acciones",
            BreachKind::CreditSubrogation => "subrogación del crédito que financió la compra",
        }
    }
}

impl BreachKind {
    /// The Spanish name the command line and files also take (`venta`, `dacion-en-pago`,
    /// `beneficiario-real`, `subrogacion-credito`).
    pub fn spanish(self) -> &'static str {
        match self {
            BreachKind::Sale => "venta",
            BreachKind::BeneficialOwner => "beneficiario-real",
            BreachKind::DacionEnPago => "dacion-en-pago",
            BreachKind::CreditSubrogation => "subrogacion-credito",
        }
    }
}

/// The English or the Spanish name, whatever its case, accents and hyphens (`Dación en pago`,
/// `VENTA`, `credit_subrogation`).
impl std::str::FromStr for BreachKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = crate::input::folded(s);
        let also = |k: BreachKind| match k {
            BreachKind::Sale => &["negociacion", "ventaonegociacion"][..],
            BreachKind::CreditSubrogation => &["subrogacion", "subrogaciondelcredito"][..],
            BreachKind::BeneficialOwner => &["beneficioreal"][..],
            BreachKind::DacionEnPago => &["dacion"][..],
        };
        BreachKind::ALL
            .into_iter()
            .find(|k| {
                crate::input::folded(k.as_str()) == key
                    || crate::input::folded(k.spanish()) == key
                    || also(*k).contains(&key.as_str())
            })
            .ok_or_else(|| {
                format!(
                    "unknown breach kind {s:?}; use sale (venta), beneficial-owner \
                     (beneficiario-real), dacion-en-pago or credit-subrogation (subrogacion-credito)"
                )
            })
    }
}

/// One seller (vendedor) and the shares it offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seller {
    pub name: String,
    /// `NNNNNNNNN-D`; optional because decrees rarely print it, validated when present.
    #[serde(default)]
    pub nit: Option<String>,
    pub shares: u64,
}

/// One fine bracket as written in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BracketSpec {
    pub upto_months: u32,
    #[serde(deserialize_with = "exact_decimal")]
    pub percent: Decimal,
}

/// From when a notice's payment term runs (issue 14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TermFrom {
    /// From the day the notice is delivered to the holder (recorded with `notice delivered`);
    /// until a delivery is recorded, from the notice's date. The usual reading of notification.
    #[default]
    Delivery,
    /// From the notice's date.
    Issue,
}

/// Who signs and where to pay: the letterhead of the notices and paz y salvo certificates. In a
/// program file (`[letters.issuer]`) every field is optional: it is the letterhead of the
/// documents issued before the register held one, and the starting values of the first
/// `program letters set`; the register's letterhead (`store::letterheads`, issue 20) is what new
/// documents show, and they are refused while it lacks what they need
/// (`register::letterhead::missing`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issuer {
    /// The entity that writes on the sellers' behalf (e.g. the sale's administrator).
    #[serde(default)]
    pub entity: Option<String>,
    /// `NNNNNNNNN-D`, check digit verified.
    #[serde(default)]
    pub nit: Option<String>,
    #[serde(default)]
    pub address: Option<String>,
    /// The city of the date line ("Bogotá D.C., 11 de febrero de 2025").
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub bank: Option<String>,
    /// e.g. "cuenta corriente No. 000-00000-0".
    #[serde(default)]
    pub account: Option<String>,
    /// The reference the holder quotes when paying: `{number}` (the notice's), `{doc}` (the
    /// holder's document number) and `{breach}` are replaced. Default `{number}`.
    #[serde(default)]
    pub reference: Option<String>,
    #[serde(default)]
    pub signatory_name: Option<String>,
    #[serde(default)]
    pub signatory_position: Option<String>,
}

/// A paragraph the program adds to every notice, under its own heading (e.g. the recourse the
/// holder has).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paragraph {
    pub heading: String,
    pub text: String,
}

/// The `[letters]` section of a program file: optional as a whole, each field with a default, so
/// programs registered before it still read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Letters {
    #[serde(default)]
    pub payment_term_from: TermFrom,
    /// Business days after its date an issued notice may go without a recorded delivery before
    /// the check reports it (NOTICE_UNDELIVERED).
    #[serde(default = "default_undelivered")]
    pub undelivered_after_business_days: u32,
    #[serde(default)]
    pub issuer: Issuer,
    #[serde(default)]
    pub paragraphs: Vec<Paragraph>,
    /// The article and numeral of the acceptor's declaration whose breach the fine sanctions,
    /// for a natural person (Decreto 3939: "artículo 7, numeral 5"); cited by the notices.
    #[serde(default)]
    pub declaration_natural: Option<String>,
    /// The same for a legal person (Decreto 3939: "artículo 8, numeral 4").
    #[serde(default)]
    pub declaration_legal: Option<String>,
}

/// NOTICE_UNDELIVERED's default: certified mail in Colombia usually arrives within a week, and a
/// notice still undelivered then should be chased well before its payment term would end.
pub const DEFAULT_UNDELIVERED_AFTER: u32 = 5;

fn default_undelivered() -> u32 {
    DEFAULT_UNDELIVERED_AFTER
}

impl Default for Letters {
    fn default() -> Self {
        Letters {
            payment_term_from: TermFrom::default(),
            undelivered_after_business_days: DEFAULT_UNDELIVERED_AFTER,
            issuer: Issuer::default(),
            paragraphs: Vec::new(),
            declaration_natural: None,
            declaration_legal: None,
        }
    }
}

impl Issuer {
    /// The payment reference for a notice.
    pub fn reference_for(&self, number: &str, doc: &str, breach: i64) -> String {
        self.reference
            .as_deref()
            .unwrap_or("{number}")
            .replace("{number}", number)
            .replace("{doc}", doc)
            .replace("{breach}", &breach.to_string())
    }
}

use crate::caps::{self, Cap};
use crate::proration::Rule;

/// A programa de enajenación, validated: what [`Program::from_toml`] makes of a program file
/// (`schema/programs/*.toml`). Its clauses are domain types, checked once when the file is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Short code used on the command line, e.g. `D3939-2004`.
    pub code: String,
    pub name: String,
    /// e.g. "Decreto 3939 de 2004".
    pub decree: String,
    /// The article that sets the fine, e.g. "artículo 9".
    pub fine_article: String,
    /// The article that sets the pledge, e.g. "artículo 10".
    pub pledge_article: String,
    pub issuer: String,
    pub sellers: Vec<Seller>,
    pub shares_offered: u64,
    /// First-stage fixed price per share (COP, exact; write it as a quoted string).
    pub fixed_price: Decimal,
    pub lockup_months: u32,
    pub brackets: Vec<BracketSpec>,
    /// Which of acquisition, transfer, stage the fine takes the highest of (acquisition always).
    pub reference_prices: Vec<Basis>,
    pub breach_kinds: Vec<BreachKind>,
    /// Special-condition recipient categories accepted in adjudication imports.
    pub categories: Vec<String>,
    /// Other names of the categories (the decree's numerals `(i)`…`(x)`): each names one
    /// category, or several the file must then tell apart ([`crate::categories`]).
    pub category_aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// What an acceptance may give as its category for a filer who belongs to none (`ninguna`):
    /// the filing is recorded and rejected as not a special-condition recipient (Art. 12 par. 1
    /// (iii)); any other name that is not a category is refused at import.
    pub not_recipients: Vec<String>,
    /// The categories of legal persons (Art. 3: associations, unions, funds, cooperatives ...);
    /// the others are natural persons'. `None`: the program does not tie them (a file written
    /// before the key).
    pub legal_person_categories: Option<Vec<String>>,
    /// The categories a dismissal with just cause disqualifies (Decreto 3939 Art. 3 (ii): the
    /// ex-workers only). `None`: every category, as before the key.
    pub just_cause_categories: Option<Vec<String>>,
    /// The program's default accrual convention.
    pub convention: Convention,
    /// "sfc-ibc-consumo-ordinario": the embedded SFC series plus the register's additions.
    pub rate_series: String,
    /// Business days a notice gives to pay.
    pub payment_term_business_days: u32,
    /// How an oversubscribed first stage is pro-rated (SPEC §9; Art. 12 num. 2).
    pub proration: Rule,
    /// Caps on what one acceptor may buy in the first stage (Arts. 7–8), least binds.
    pub caps: Vec<Cap>,
    /// How the Second and Third Stages are decided (Arts. 3, 13–19, 22; seed 002).
    pub later_stages: LaterStages,
    /// `[validity]`: the days the program's offer and stages may open on (Decreto 3939 art. 28);
    /// `None`: the file states none.
    pub validity: Option<crate::validity::Validity>,
    /// Letterhead, payment instructions and delivery rules of the notices.
    pub letters: Letters,
    /// `[offer]`: the first-stage offer's minimum length and from when it runs (Decreto 3939
    /// art. 4 when absent).
    pub offer: crate::program_offer::Offer,
    /// `[[review_causes]]`: the causes the program's reglamento adds to the built-in ones
    /// (seed 001 (v)); none when absent.
    pub review_causes: Vec<crate::program_offer::ReviewCause>,
    /// `[signatures]`: the documents issued only signed, and who may sign them (issue 26).
    pub signatures: crate::program_sign::Signatures,
}

/// The later stages as program data (`[later_stages]`, every key optional): how many stages the
/// program has, the technical criterion that compares proposals (the real *reglamento de
/// enajenación* defines it; vigia ships `present-value`) and the least seriousness guarantee
/// (Art. 19).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaterStages {
    /// The last stage the program provides for: 3 (Decreto 3939 Art. 3) or 2. A void last stage
    /// means there is no Art. 9 (iii) price.
    pub last: crate::later_stages::Stage,
    pub criterion: Criterion,
    /// The least guarantee a proposal must carry, in pesos (zero: any guarantee).
    pub minimum_guarantee: Decimal,
    /// The longest payment term, in days after the adjudication, a proposal may offer
    /// (Decreto 3939 Arts. 14 c and 17 c: payment the next banking business day, so 0); `None`:
    /// any term up to ten years, valued by the criterion (seed 002).
    pub max_term_days: Option<u32>,
    /// The least price per share a later-stage proposal may offer (Arts. 14 a, 17 a: the first
    /// stage's fixed price, the default).
    pub minimum_price: MinimumPrice,
    /// What a stage's acta cites (`[later_stages.articles]`; Decreto 3939's by default).
    pub articles: crate::later_stages::Articles,
}

impl Default for LaterStages {
    fn default() -> Self {
        LaterStages {
            last: crate::later_stages::Stage::Third,
            criterion: Criterion::PresentValue(CriterionRate::Ibc),
            minimum_guarantee: Decimal::ZERO,
            max_term_days: None,
            minimum_price: MinimumPrice::FirstStage,
            articles: crate::later_stages::Articles::default(),
        }
    }
}

/// `[later_stages]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LaterStagesFile {
    #[serde(default)]
    last: Option<u8>,
    /// The technical criterion of comparison (seed 002: "el criterio técnico de comparación
    /// definido en el Reglamento de Venta"): "present-value" (default), "highest-price" or
    /// "price-and-term" ([`crate::later_stages::points`]).
    #[serde(default)]
    criterion: Option<String>,
    /// "present-value" only: "ibc" (default: the IBC in force on the closing date) or a percent
    /// EA as a quoted string.
    #[serde(default)]
    rate: Option<String>,
    /// "price-and-term" only, required there: the price's weight, a quoted decimal above 0 and
    /// below 1; with `term_weight` it sums to exactly 1 (the reglamento's weights; seed 002).
    #[serde(default, deserialize_with = "opt_exact_decimal")]
    price_weight: Option<Decimal>,
    /// "price-and-term" only, required there: the term's weight (see `price_weight`).
    #[serde(default, deserialize_with = "opt_exact_decimal")]
    term_weight: Option<Decimal>,
    /// The later stages' minimum price per share: "first-stage" (default: the first stage's fixed
    /// price, Decreto 3939 Arts. 14 a, 17 a) or a price in pesos as a quoted string (a program
    /// whose decree or reglamento sets its own minimum).
    #[serde(default)]
    minimum_price: Option<String>,
    #[serde(default, deserialize_with = "opt_exact_decimal")]
    minimum_guarantee: Option<Decimal>,
    #[serde(default)]
    max_term_days: Option<u32>,
    /// `[later_stages.articles]`: what a stage's acta cites for each rule (Decreto 3939's by
    /// default).
    #[serde(default)]
    articles: crate::later_stages::ArticlesFile,
}

fn opt_exact_decimal<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
    exact_decimal(d).map(Some)
}

impl LaterStagesFile {
    fn validate(self) -> Result<LaterStages, ProgramError> {
        let d = LaterStages::default();
        let last = match self.last {
            None => d.last,
            Some(n) => crate::later_stages::Stage::from_number(n).ok_or_else(|| {
                let last = n;
                err(
                    "later_stages.last",
                    said!(program::program_has_second_stage_perhaps_third, last),
                )
            })?,
        };
        let rate = match self.rate.as_deref().map(str::trim) {
            None => None,
            Some("ibc") => Some(CriterionRate::Ibc),
            Some(s) => {
                // the reader's own sentence when it says more than "not a number" (32.985: its
                // two readings, and how to write the rate)
                let r = crate::input::percent(s).map_err(|e| {
                    err(
                        "later_stages.rate",
                        if e.explains() {
                            e.said()
                        } else {
                            said!(program::write_ibc_ibc_force_closing_date, s)
                        },
                    )
                })?;
                if r <= Decimal::ZERO || r >= Decimal::ONE_HUNDRED * Decimal::TEN {
                    return Err(err(
                        "later_stages.rate",
                        said!(program::effective_annual_percent_above_0_below, s),
                    ));
                }
                Some(CriterionRate::Fixed(r))
            }
        };
        let criterion = crate::later_stages::criterion(
            self.criterion.as_deref(),
            rate,
            self.price_weight,
            self.term_weight,
        )
        .map_err(|(field, message)| err(field, message))?;
        let minimum_price = crate::later_stages::minimum_price(self.minimum_price.as_deref())
            .map_err(|(field, message)| err(field, message))?;
        let minimum_guarantee = self.minimum_guarantee.unwrap_or(d.minimum_guarantee);
        if minimum_guarantee < Decimal::ZERO {
            return Err(err(
                "later_stages.minimum_guarantee",
                said!(program::must_zero_more_pesos),
            ));
        }
        if let Some(days) = self.max_term_days
            && days > MAX_TERM_DAYS
        {
            let most = MAX_TERM_DAYS;
            return Err(err(
                "later_stages.max_term_days",
                said!(program::at_most_days_ten_years, days, most),
            ));
        }
        let articles = self
            .articles
            .validate()
            .map_err(|(field, m)| err(field, m))?;
        Ok(LaterStages {
            last,
            criterion,
            minimum_guarantee,
            max_term_days: self.max_term_days,
            minimum_price,
            articles,
        })
    }
}

/// The program file as written (`schema/programs/*.toml`), before it is validated into a
/// [`Program`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramFile {
    /// Short code used on the command line, e.g. `D3939-2004`.
    code: String,
    name: String,
    /// e.g. "Decreto 3939 de 2004".
    decree: String,
    /// The article that sets the fine, e.g. "artículo 9".
    fine_article: String,
    /// The article that sets the pledge, e.g. "artículo 10".
    pledge_article: String,
    issuer: String,
    sellers: Vec<Seller>,
    shares_offered: u64,
    /// First-stage fixed price per share (COP, exact; write it as a quoted string).
    #[serde(deserialize_with = "exact_decimal")]
    fixed_price: Decimal,
    lockup_months: u32,
    brackets: Vec<BracketSpec>,
    /// Which of acquisition, transfer, stage the fine takes the highest of.
    reference_prices: Vec<String>,
    breach_kinds: Vec<BreachKind>,
    /// Special-condition recipient categories accepted in adjudication imports.
    categories: Vec<String>,
    /// `[category_aliases]`: `"(ii)" = ["extrabajador"]`.
    #[serde(default)]
    category_aliases: std::collections::BTreeMap<String, Vec<String>>,
    /// `not_recipients = ["ninguna"]`.
    #[serde(default)]
    not_recipients: Vec<String>,
    #[serde(default)]
    legal_person_categories: Option<Vec<String>>,
    #[serde(default)]
    just_cause_categories: Option<Vec<String>>,
    /// daily-simple, period-effective or compound.
    convention: String,
    /// "sfc-ibc-consumo-ordinario": the embedded SFC series plus the register's additions.
    rate_series: String,
    /// Business days a notice gives to pay.
    payment_term_business_days: u32,
    proration: Rule,
    /// `[[caps]]`: Arts. 7–8's caps on an acceptance (none: acceptances are not capped).
    #[serde(default)]
    caps: Vec<Cap>,
    /// `[later_stages]`: the Second and Third Stages (defaults when absent).
    #[serde(default)]
    later_stages: LaterStagesFile,
    /// `[validity]`: from when and for how many months the program is in force.
    #[serde(default)]
    validity: Option<crate::validity::ValidityFile>,
    /// `[letters]`: issuer, payment instructions, the payment term's start (issue 14).
    #[serde(default)]
    letters: Letters,
    /// `[offer]`: `minimum_months` (default 2), `counted_from` (default
    /// "business-day-after-notice", or "notice") and `article` (default "art. 4") of the
    /// offer's minimum length (Decreto 3939 de 2004 art. 4). Optional as a whole.
    #[serde(default)]
    offer: crate::program_offer::OfferFile,
    /// `[[review_causes]]`: `code`, `article`, `wording` of each cause the program's reglamento
    /// adds to the built-in review causes (seed 001 (v): "las demás que sean establecidas en el
    /// Reglamento"). Default none.
    #[serde(default)]
    review_causes: Vec<crate::program_offer::ReviewCause>,
    /// `[signatures]`: `required_for`, `signatories` (issue 26). Optional as a whole.
    #[serde(default)]
    signatures: crate::program_sign::SignaturesFile,
}

/// A program file that cannot be used: the field at fault (empty when the file as a whole could
/// not be read) and why, in English and Spanish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramError {
    pub field: String,
    pub message: Said,
}

impl ProgramError {
    /// The sentence in `lang`, naming the field (the command line's English, the web's Spanish).
    pub fn in_lang(&self, lang: Lang) -> String {
        let message = self.message.in_lang(lang);
        match (self.field.is_empty(), lang) {
            (true, _) => message.to_string(),
            (false, Lang::En) => format!("field `{}`: {message}", self.field),
            (false, Lang::Es) => format!("campo `{}`: {message}", self.field),
        }
    }
}

/// In English, the command line's language.
impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

fn err(field: &str, message: Said) -> ProgramError {
    ProgramError {
        field: field.into(),
        message,
    }
}

/// A file the TOML reader refused (its syntax, a field missing, unknown or of the wrong type):
/// the reader's own words in English as they always were; in Spanish what is wrong, naming the
/// field and the line, with the reader's detail quoted.
fn unreadable(text: &str, e: &toml::de::Error) -> ProgramError {
    let detail = e.message().trim();
    if let Some(typed) = detail.strip_prefix(UNREAD)
        && let Err(refused) = crate::input::signed_amount(typed)
    {
        return refused_value(text, e, refused.said());
    }
    // a count written with a thousands point (`12.960.982` is no TOML; `12.960` is a float) or
    // quoted: TOML's integers are plain digits
    let whole = [" expected u64", " expected u32", " expected u8"];
    if detail.starts_with("invalid type") && whole.iter().any(|w| detail.ends_with(w)) {
        return refused_value(text, e, said!(program::whole_number_digits_only));
    }
    // the line the reader points at, and its text
    let at = e.span().filter(|s| s.start < text.len()).map(|span| {
        let before = &text[..span.start];
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = before.matches('\n').count() + 1;
        (
            span.start,
            line,
            text[start..].lines().next().unwrap_or("").trim(),
        )
    });
    let quoted = |s: &str| s.split('`').nth(1).unwrap_or("").to_string();
    let (what, located) = if let Some(rest) = detail.strip_prefix("missing field ") {
        let field = quoted(rest);
        // missing at the top of the file: the reader points at its first byte
        let inside = at.filter(|(offset, ..)| *offset > 0);
        (
            format!("falta el campo `{field}`, que es obligatorio"),
            inside.map(|(_, line, t)| format!(" (en la tabla `{t}` de la línea {line})")),
        )
    } else if let Some(rest) = detail.strip_prefix("unknown field ") {
        let field = quoted(rest);
        (
            format!("el campo `{field}` no es de un programa: revise cómo está escrito o quítelo"),
            at.map(|(_, line, _)| format!(" (línea {line})")),
        )
    } else if detail.starts_with("invalid type") || detail.starts_with("invalid value") {
        let key = at
            .and_then(|(_, _, t)| t.split_once('='))
            .map(|(k, _)| format!(" de `{}`", k.trim()))
            .unwrap_or_default();
        (
            format!("el valor{key} no es del tipo que el campo pide"),
            at.map(|(_, line, t)| format!(" (línea {line}: `{t}`)")),
        )
    } else {
        (
            "el archivo no se puede leer como TOML".to_string(),
            at.map(|(_, line, t)| format!(" (línea {line}: `{t}`)")),
        )
    };
    let located = located.unwrap_or_default();
    let whole = e.to_string();
    ProgramError {
        field: String::new(),
        message: Said::new(
            format!("not a valid program file: {}", whole.trim()),
            format!("{what}{located}. Detalle técnico del lector TOML: «{detail}»"),
        ),
    }
}

/// A fine scale refused, in Spanish (its English is [`ScaleError`]'s own).
fn scale_es(e: &ScaleError) -> String {
    match e {
        ScaleError::Empty => "la lista de tramos de la multa está vacía".to_string(),
        ScaleError::Malformed(item) => format!("el tramo «{item}» no es MESES:PORCENTAJE"),
        ScaleError::NotIncreasing { previous, next } => {
            format!("los meses de los tramos deben aumentar, pero {next} sigue a {previous}")
        }
        ScaleError::TooLong { months } => format!(
            "un tramo de {months} meses excede el límite de {MAX_LOCKUP_MONTHS} meses del art. 14 de la Ley 226 de 1995"
        ),
        ScaleError::BadPercent { percent } => format!(
            "el porcentaje de un tramo, {}, debe ser mayor que 0 y a lo sumo 100",
            percent.to_string().replace('.', ",")
        ),
        ScaleError::LockupTooLong { months } => format!(
            "un período de restricción de {months} meses excede el límite de {MAX_LOCKUP_MONTHS} meses del art. 14 de la Ley 226 de 1995"
        ),
        ScaleError::LockupZero => {
            "el período de restricción debe durar al menos un mes".to_string()
        }
        ScaleError::EndMismatch { last, lockup } => format!(
            "el último tramo termina a los {last} meses pero el período de restricción dura {lockup}; el último tramo debe terminar donde termina el período"
        ),
    }
}

/// What [`exact_decimal`] says of a value the one reader refused: this mark, then the value as
/// typed, which [`unreadable`] reads again to word the refusal in both languages.
const UNREAD: &str = "vigia-input-refused:";

/// A value refused (`said`: why, in each language; a quoted amount or percent the one reader
/// refused, in its words: the TOML reader's error carries only one string), named by its field
/// and line.
fn refused_value(text: &str, e: &toml::de::Error, said: Said) -> ProgramError {
    let span = e.span().filter(|s| s.start < text.len());
    let (line, typed, field) = span.map_or((0, "", ""), |span| {
        let before = &text[..span.start];
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let typed = text[start..].lines().next().unwrap_or("").trim();
        // the key just before the value the reader points at (in an inline table too)
        let head = before[start..].trim_end().trim_end_matches('=').trim_end();
        let key = head
            .rsplit(|c: char| c == '{' || c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("");
        (before.matches('\n').count() + 1, typed, key)
    });
    let (why, por_que) = (said.en(), said.es());
    err(
        field,
        said!(
            program::typed_value_refused_at_line,
            line,
            typed,
            why,
            por_que
        ),
    )
}

/// Reads an exact decimal from a quoted string or an integer; a TOML float (binary, inexact) is
/// refused so that no amount ever passes through binary floating point.
fn exact_decimal<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
    struct V;
    impl serde::de::Visitor<'_> for V {
        type Value = Decimal;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an exact decimal written as a quoted string, e.g. \"963\" or \"1.450,50\"")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Decimal, E> {
            // the one reader of typed values: "1.450" is one thousand four hundred and fifty
            // here too (issue 19); a form two readers would read two ways is refused
            crate::input::signed_amount(s).map_err(|_| E::custom(format!("{UNREAD}{s}")))
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Decimal, E> {
            Ok(Decimal::from(n))
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Decimal, E> {
            Ok(Decimal::from(n))
        }
    }
    d.deserialize_any(V)
}

pub const RATE_SERIES_SFC: &str = "sfc-ibc-consumo-ordinario";

/// Most shares a program may offer: the register counts shares as SQLite's signed 64-bit
/// integers.
pub const MAX_SHARES: u64 = i64::MAX as u64;
/// Longest payment term a notice may give, in business days (about four months): the decree
/// sets none, the shipped program uses 10, and a deadline must stay within the calendar vigia
/// checks (`calendar::LAST_DATE` plus the term).
pub const MAX_PAYMENT_TERM: u32 = 90;

/// The longest payment term a later-stage proposal file may give, in days (ten years; the same
/// bound as `offering::proposals::MAX_TERM_DAYS`, written here so that the program file does
/// not import the proposals' reader).
pub const MAX_TERM_DAYS: u32 = 3650;

impl Program {
    /// Whom an adjudication's shares are pledged to (Art. 10): the sellers, named together.
    pub fn pledge_beneficiary(&self) -> String {
        let names: Vec<&str> = self.sellers.iter().map(|s| s.name.as_str()).collect();
        names.join(" y ")
    }

    /// Parses and validates a program file.
    pub fn from_toml(text: &str) -> Result<Program, ProgramError> {
        let p: ProgramFile = toml::from_str(text).map_err(|e| unreadable(text, &e))?;
        p.validate()
    }

    /// The validated fine scale.
    pub fn scale(&self) -> Result<FineScale, crate::calendar::ScaleError> {
        scale(self.lockup_months, &self.brackets)
    }

    /// Whether the program's fine takes this reference price into account.
    pub fn uses(&self, basis: Basis) -> bool {
        self.reference_prices.contains(&basis)
    }

    /// The later stages' price (Art. 9 (iii)) as this program's fine takes it: `stage` when the
    /// program counts it among its reference prices, absent otherwise, so that a later stage
    /// still pending makes a liquidation provisional, and keeps a paid fine's pledge
    /// (`fine::may_grow`), only when its price can raise the fine. The one rule the
    /// liquidation, `pledge release` and the check ask.
    pub fn stage_counted(&self, stage: StagePrice) -> StagePrice {
        match self.uses(Basis::Stage) {
            true => stage,
            false => StagePrice::Absent,
        }
    }
}

impl ProgramFile {
    /// Checks every clause, in the order the file's fields are reported, and gives the program
    /// with its clauses typed.
    fn validate(self) -> Result<Program, ProgramError> {
        if self.code.is_empty()
            || !self
                .code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            let code = &self.code;
            return Err(err("code", said!(program::must_letters_digits, code)));
        }
        if self.sellers.is_empty() {
            return Err(err("sellers", said!(program::list_at_least_one_seller)));
        }
        for s in &self.sellers {
            if let Some(nit) = &s.nit {
                normalized(DocType::Nit, nit).map_err(|m| err("sellers.nit", m))?;
            }
            if s.shares == 0 {
                let name = &s.name;
                return Err(err(
                    "sellers.shares",
                    said!(program::seller_offers_0_shares, name),
                ));
            }
        }
        let (offered, offered_es, max_es) = (
            self.shares_offered,
            numero(self.shares_offered),
            numero(MAX_SHARES),
        );
        if self.shares_offered == 0 || self.shares_offered > MAX_SHARES {
            return Err(err(
                "shares_offered",
                said!(
                    program::not_number_shares_vigia_can_register,
                    offered,
                    MAX_SHARES,
                    offered_es,
                    max_es
                ),
            ));
        }
        let total = self
            .sellers
            .iter()
            .try_fold(0u64, |sum, s| sum.checked_add(s.shares))
            .filter(|&t| t <= MAX_SHARES)
            .ok_or_else(|| {
                err(
                    "sellers.shares",
                    said!(
                        program::sellers_shares_add_up_more_than,
                        MAX_SHARES,
                        offered,
                        max_es,
                        offered_es
                    ),
                )
            })?;
        if total != self.shares_offered {
            let total_es = numero(total);
            return Err(err(
                "shares_offered",
                said!(
                    program::not_sum_sellers_shares,
                    offered,
                    total,
                    offered_es,
                    total_es
                ),
            ));
        }
        if self.fixed_price <= Decimal::ZERO {
            return Err(err("fixed_price", said!(program::must_greater_than_zero)));
        }
        if !(1..=MAX_LOCKUP_MONTHS).contains(&self.lockup_months) {
            let months = self.lockup_months;
            return Err(err(
                "lockup_months",
                said!(
                    program::months_not_lock_up_ley_226,
                    months,
                    MAX_LOCKUP_MONTHS
                ),
            ));
        }
        scale(self.lockup_months, &self.brackets)
            .map_err(|e| err("brackets", Said::new(e.to_string(), scale_es(&e))))?;
        let reference_prices: Vec<Basis> = self
            .reference_prices
            .iter()
            .map(|r| basis_of(r))
            .collect::<Option<_>>()
            .filter(|r: &Vec<Basis>| !r.is_empty())
            .ok_or_else(|| {
                err(
                    "reference_prices",
                    said!(program::list_some_acquisition_transfer_stage),
                )
            })?;
        if !reference_prices.contains(&Basis::Acquisition) {
            return Err(err(
                "reference_prices",
                said!(program::must_include_acquisition),
            ));
        }
        if self.breach_kinds.is_empty() {
            return Err(err("breach_kinds", said!(program::list_at_least_one_kind)));
        }
        if self.categories.is_empty() {
            return Err(err(
                "categories",
                said!(program::list_special_condition_categories),
            ));
        }
        if let Some(both) = self.not_recipients.iter().find(|n| {
            let key = crate::input::folded(n);
            self.categories
                .iter()
                .any(|c| crate::input::folded(c) == key)
        }) {
            return Err(err(
                "not_recipients",
                said!(program::also_category_filer_either_belongs_category, both),
            ));
        }
        for (key, list) in [
            ("legal_person_categories", &self.legal_person_categories),
            ("just_cause_categories", &self.just_cause_categories),
        ] {
            if let Some(unknown) = list.iter().flatten().find(|c| !self.categories.contains(c)) {
                return Err(err(key, said!(program::not_one_categories, unknown)));
            }
        }
        if let Some((alias, unknown)) = self.category_aliases.iter().find_map(|(a, names)| {
            names
                .iter()
                .find(|n| !self.categories.contains(n))
                .map(|n| (a.clone(), n.clone()))
                .or_else(|| names.is_empty().then(|| (a.clone(), String::new())))
        }) {
            return Err(err(
                "category_aliases",
                said!(program::names_which_not_one_categories, alias, unknown),
            ));
        }
        if !(1..=MAX_PAYMENT_TERM).contains(&self.payment_term_business_days) {
            let term = self.payment_term_business_days;
            return Err(err(
                "payment_term_business_days",
                said!(
                    program::not_term_vigia_counts_write_1,
                    term,
                    MAX_PAYMENT_TERM
                ),
            ));
        }
        let convention: Convention = self.convention.parse().map_err(|m: String| {
            let c = &self.convention;
            err(
                "convention",
                Said::new(
                    m,
                    format!(
                        "«{c}» no es una convención; use daily-simple, period-effective o compound"
                    ),
                ),
            )
        })?;
        if self.rate_series != RATE_SERIES_SFC {
            return Err(err(
                "rate_series",
                said!(program::only_known, RATE_SERIES_SFC),
            ));
        }
        caps::validate(&self.caps).map_err(|e| {
            let (n, reason) = (e.index + 1, &e.reason);
            err(
                "caps",
                Said::new(
                    e.to_string(),
                    format!("el tope N.º {n} no es válido (detalle: «{reason}»)"),
                ),
            )
        })?;
        let later_stages = self.later_stages.validate()?;
        let offer = self.offer.validate().map_err(|(field, m)| err(field, m))?;
        crate::program_offer::validate_causes(&self.review_causes)
            .map_err(|(field, m)| err(field, m))?;
        let signatures = self
            .signatures
            .validate()
            .map_err(|(field, m)| err(field, m))?;
        let validity = self
            .validity
            .map(|v| v.validate().map_err(|(field, m)| err(field, m)))
            .transpose()?;
        let l = &self.letters;
        if !(1..=MAX_PAYMENT_TERM).contains(&l.undelivered_after_business_days) {
            let term = l.undelivered_after_business_days;
            return Err(err(
                "letters.undelivered_after_business_days",
                said!(
                    program::not_term_vigia_counts_write_1_2,
                    term,
                    MAX_PAYMENT_TERM
                ),
            ));
        }
        if let Some(nit) = &l.issuer.nit {
            normalized(DocType::Nit, nit).map_err(|m| err("letters.issuer.nit", m))?;
        }
        if let Some(r) = &l.issuer.reference {
            let rest = r
                .replace("{number}", "")
                .replace("{doc}", "")
                .replace("{breach}", "");
            if rest.contains('{') || rest.contains('}') {
                return Err(err(
                    "letters.issuer.reference",
                    said!(program::only_number_doc_breach_replaced, r),
                ));
            }
        }
        if let Some(p) = l
            .paragraphs
            .iter()
            .find(|p| p.heading.trim().is_empty() || p.text.trim().is_empty())
        {
            let heading = &p.heading;
            return Err(err(
                "letters.paragraphs",
                said!(program::paragraph_needs_heading_text, heading),
            ));
        }
        Ok(Program {
            code: self.code,
            name: self.name,
            decree: self.decree,
            fine_article: self.fine_article,
            pledge_article: self.pledge_article,
            issuer: self.issuer,
            sellers: self.sellers,
            shares_offered: self.shares_offered,
            fixed_price: self.fixed_price,
            lockup_months: self.lockup_months,
            brackets: self.brackets,
            reference_prices,
            breach_kinds: self.breach_kinds,
            categories: self.categories,
            category_aliases: self.category_aliases,
            not_recipients: self.not_recipients,
            legal_person_categories: self.legal_person_categories,
            just_cause_categories: self.just_cause_categories,
            convention,
            rate_series: self.rate_series,
            payment_term_business_days: self.payment_term_business_days,
            proration: self.proration,
            caps: self.caps,
            later_stages,
            validity,
            letters: self.letters,
            offer,
            review_causes: self.review_causes,
            signatures,
        })
    }
}

/// The fine scale of a lock-up and its brackets as the file writes them.
fn scale(
    lockup_months: u32,
    brackets: &[BracketSpec],
) -> Result<FineScale, crate::calendar::ScaleError> {
    FineScale::new(
        lockup_months,
        brackets
            .iter()
            .map(|b| Bracket {
                upto_months: b.upto_months,
                percent: b.percent,
            })
            .collect(),
    )
}

fn basis_of(s: &str) -> Option<Basis> {
    match s {
        "acquisition" => Some(Basis::Acquisition),
        "transfer" => Some(Basis::Transfer),
        "stage" => Some(Basis::Stage),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
