//! Typed refusals of the register's rules: the input a rule refused (a [`Field`], named in the
//! domain), the value and the reason, both said in English and Spanish ([`Said`]). Each front end
//! maps the field to what its user typed (the CLI to a flag, the web to a form field) and picks its
//! language (the CLI English, the web Spanish), so no rule ever knows a flag.

use crate::lang::{Lang, Said, Shown};
use crate::later_stages::Stage;
use std::fmt;

/// An input of a register write, as the domain names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The adjudication a breach or pledge is about (or that is voided).
    Adjudication,
    /// A payment (to void).
    Payment,
    /// A pledge (to void).
    Pledge,
    /// Whether a payment exactly like one already recorded is meant.
    AllowDuplicate,
    /// The breach a payment or void is about.
    Breach,
    /// The kind of breach (Art. 8: sale, beneficial owner, dación en pago, credit subrogation).
    BreachKind,
    /// The date the breach took place.
    BreachDate,
    /// Shares a breach covers.
    Shares,
    /// Consideration obtained per share (Art. 9 (ii)).
    ConsiderationPerShare,
    /// Total consideration obtained.
    ConsiderationTotal,
    /// The date a transfer or pledge was registered in the share ledger.
    RegisteredOn,
    /// The degree of a pledge (1 or 2).
    PledgeRank,
    /// The lender that financed the shares.
    Lender,
    /// The date pledges are released.
    ReleaseDate,
    /// The date a payment was made.
    PaymentDate,
    /// A payment's amount.
    PaymentAmount,
    /// Why a record is voided.
    VoidReason,
    /// The reason a certified rate period supersedes the ones it overlaps.
    SupersedeReason,
    /// Why an offer or a stage opens outside the program's validity (Decreto 3939 art. 28).
    ValidityReason,
    /// The day the first-stage offer's notice is published (Art. 4).
    OfferOpens,
    /// The last day the offer receives acceptances.
    OfferCloses,
    /// The day the first-stage offer is adjudicated (Art. 12).
    AdjudicationDate,
    /// A later stage: 2 (Segunda Etapa) or 3 (Tercera Etapa).
    Stage,
    /// A tranche (tramo) of a later stage.
    Tranche,
    /// The first day a later stage's tranche receives proposals.
    StageOpens,
    /// The last day a later stage's tranche receives proposals.
    StageCloses,
    /// A proposal of a later stage, by its reference.
    Proposal,
    /// The price a tied bidder offers in the improvement round.
    ImprovedPrice,
    /// The public entropy a draw is seeded with.
    DrawSeed,
    /// The day a later stage is adjudicated or declared void.
    StageDecisionDate,
    /// A notice, by its number (MULTA-2025-0007).
    Notice,
    /// The date of a notice (from which its payment term counts).
    NoticeDate,
    /// The program a document number belongs to, when the number alone is ambiguous.
    Program,
    /// The paz y salvo that certifies a settled fine (what to issue instead of a notice).
    Settlement,
    /// The date of a paz y salvo.
    SettlementDate,
    /// The day a notice was delivered to its holder.
    DeliveryDate,
    /// The channel of a delivery.
    DeliveryVia,
    /// What proves a delivery (a receipt, a guide number).
    Evidence,
    /// A holder, by document number.
    Holder,
    /// The type of a holder's document, when the number alone is ambiguous.
    DocType,
    /// A holder's postal address.
    Address,
    /// A holder's city.
    City,
    /// A holder's e-mail address.
    Email,
    /// A program's letterhead (issuer, signatory, payment account, return address): what a
    /// document needs of it, set with its own command or page.
    Letterhead,
    /// The issuer's NIT on the letterhead.
    IssuerNit,
    /// The payment reference template on the letterhead.
    PaymentReference,
    /// Why a notice is dated before the day it is issued.
    BackdateReason,
    /// The shares a first stage concluded outside vigia awarded.
    ExternalAwarded,
    /// The reference of the acta of a first stage concluded outside vigia.
    ActaReference,
    /// Why a record replaces or withdraws a figure in force (a stage price typed again).
    CorrectionReason,
}

impl Field {
    /// The field's stable name (snake case), e.g. for a form input or a log.
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Adjudication => "adjudication",
            Field::Payment => "payment",
            Field::Pledge => "pledge",
            Field::AllowDuplicate => "allow_duplicate",
            Field::Breach => "breach",
            Field::BreachKind => "breach_kind",
            Field::BreachDate => "breach_date",
            Field::Shares => "shares",
            Field::ConsiderationPerShare => "consideration_per_share",
            Field::ConsiderationTotal => "consideration_total",
            Field::RegisteredOn => "registered_on",
            Field::PledgeRank => "pledge_rank",
            Field::Lender => "lender",
            Field::ReleaseDate => "release_date",
            Field::PaymentDate => "payment_date",
            Field::PaymentAmount => "payment_amount",
            Field::VoidReason => "void_reason",
            Field::SupersedeReason => "supersede_reason",
            Field::ValidityReason => "validity_reason",
            Field::OfferOpens => "offer_opens",
            Field::OfferCloses => "offer_closes",
            Field::AdjudicationDate => "adjudication_date",
            Field::Stage => "stage",
            Field::Tranche => "tranche",
            Field::StageOpens => "stage_opens",
            Field::StageCloses => "stage_closes",
            Field::Proposal => "proposal",
            Field::ImprovedPrice => "improved_price",
            Field::DrawSeed => "draw_seed",
            Field::StageDecisionDate => "stage_decision_date",
            Field::Notice => "notice",
            Field::NoticeDate => "notice_date",
            Field::Program => "program",
            Field::Settlement => "settlement",
            Field::SettlementDate => "settlement_date",
            Field::DeliveryDate => "delivery_date",
            Field::DeliveryVia => "delivery_via",
            Field::Evidence => "evidence",
            Field::Holder => "holder",
            Field::DocType => "doc_type",
            Field::Address => "address",
            Field::City => "city",
            Field::Email => "email",
            Field::Letterhead => "letterhead",
            Field::IssuerNit => "issuer_nit",
            Field::PaymentReference => "payment_reference",
            Field::BackdateReason => "backdate_reason",
            Field::ExternalAwarded => "external_awarded",
            Field::ActaReference => "acta_reference",
            Field::CorrectionReason => "correction_reason",
        }
    }
}

/// Why a rule refused a write. Nothing was written. Every reason is said in both languages
/// (the rule words it, with the facts it knows); a front end picks its language in
/// [`Refusal::describe`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The value given for `field` breaks a rule. `remedy`, when present, is the input that
    /// would make the write acceptable (e.g. naming the lender for a second-degree pledge).
    Value {
        field: Field,
        /// The value as each language writes it ([`Shown`]).
        value: Said,
        reason: Said,
        remedy: Option<Field>,
    },
    /// Two inputs were given where only one of them may be.
    OneOf(Field, Field),
    /// The write is refused as a whole: no single input is to blame.
    Rule(Said),
    /// Refused as it stands; repeating it with the input `with` makes it acceptable.
    Repeat { reason: Said, with: Field },
    /// The write as a whole waits for the acts `first` (the reason says them in words).
    Waits { reason: Said, first: Vec<Act> },
    /// The value given for `field` is refused until another act is done first (`first`), which
    /// each front end names its own way (the command line as its command).
    Blocked {
        field: Field,
        value: Said,
        reason: Said,
        first: Box<Act>,
    },
}

/// An act on the register that a refused write waits for, as the domain names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Void a record of this kind (with the reason), when it was recorded by mistake.
    Void(Record),
    /// Open the program's first-stage offer.
    OpenOffer { program: String },
    /// Import the offer's acceptances.
    ImportAcceptances { program: String },
    /// Adjudicate the first-stage offer.
    AdjudicateOffer { program: String },
    /// Record a first stage concluded outside vigia.
    RecordExternal { program: String },
    /// Open a tranche of a later stage (`tranche` and `shares` when they are known).
    OpenTranche {
        program: String,
        stage: Stage,
        tranche: Option<usize>,
        shares: Option<u64>,
    },
    /// Invite the tied bidders to improve their price.
    Improve,
    /// Decide a persisting tie by lot.
    Draw {
        program: String,
        stage: Stage,
        tranche: u32,
    },
    /// Re-check a stage's draws.
    VerifyDraws { program: String, stage: Stage },
    /// Adjudicate a later stage on a day.
    AdjudicateStage {
        program: String,
        stage: Stage,
        on: chrono::NaiveDate,
    },
    /// Declare a later stage void on a day.
    DeclareVoid {
        program: String,
        stage: Stage,
        on: chrono::NaiveDate,
    },
    /// Add a certified rate period.
    AddRate,
    /// Record the program's stage price (Art. 9 (iii)) by hand: the final price of `stage`
    /// when it is known which stage's price is awaited, or the price (or that no later stage
    /// will happen) when none has been recorded.
    RecordStagePrice {
        program: String,
        stage: Option<Stage>,
    },
}

/// A kind of record of the register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Adjudication,
    Breach,
    Pledge,
    Payment,
}

impl Refusal {
    /// A value refused with a reason.
    pub fn value(field: Field, value: impl Shown, reason: Said) -> Refusal {
        Refusal::Value {
            field,
            value: value.said(),
            reason,
            remedy: None,
        }
    }

    /// The refusal's words in `lang`, with each field named by `name` (a flag, a form field's
    /// label) and `usage` giving how to supply a field (e.g. a flag with its value: `--lender
    /// NAME`; a form's field: `el campo «Prestamista»`), both in that language.
    pub fn describe(
        &self,
        lang: Lang,
        name: impl Fn(Field) -> String,
        usage: impl Fn(Field) -> String,
    ) -> String {
        self.describe_acting(lang, name, usage, |_| None)
    }

    /// [`Refusal::describe`], with `act` giving the command that carries out an act a refusal
    /// waits for (`None`: the reason says it in words), shown after the reason.
    pub fn describe_acting(
        &self,
        lang: Lang,
        name: impl Fn(Field) -> String,
        usage: impl Fn(Field) -> String,
        act: impl Fn(&Act) -> Option<String>,
    ) -> String {
        match self {
            Refusal::Blocked {
                field,
                value,
                reason,
                first,
            } => {
                let mut s = format!(
                    "{} {}: {}",
                    name(*field),
                    value.in_lang(lang),
                    reason.in_lang(lang)
                );
                if let Some(command) = act(first) {
                    s.push_str(&format!(" (`{command}`)"));
                }
                s
            }
            Refusal::Waits { reason, first } => {
                let mut s = reason.in_lang(lang).to_string();
                let commands: Vec<String> = first
                    .iter()
                    .filter_map(&act)
                    .map(|c| format!("`{c}`"))
                    .collect();
                if !commands.is_empty() {
                    s.push_str(&format!(" ({})", commands.join("; ")));
                }
                s
            }
            Refusal::Value {
                field,
                value,
                reason,
                remedy,
            } => {
                let mut s = format!(
                    "{} {}: {}",
                    name(*field),
                    value.in_lang(lang),
                    reason.in_lang(lang)
                );
                if let Some(r) = remedy {
                    s.push_str(&format!(" ({})", usage(*r)));
                }
                s
            }
            Refusal::OneOf(a, b) => match lang {
                Lang::En => format!("give {} or {}, not both", name(*a), name(*b)),
                Lang::Es => format!("indique {} o {}, no ambos", name(*a), name(*b)),
            },
            Refusal::Rule(reason) => reason.in_lang(lang).to_string(),
            Refusal::Repeat { reason, with } => match lang {
                Lang::En => format!(
                    "{}. To correct it, repeat with {}",
                    reason.en(),
                    usage(*with)
                ),
                Lang::Es => format!(
                    "{}. Para corregirlo, repita la operación con {}",
                    reason.es(),
                    usage(*with)
                ),
            },
        }
    }
}

/// In English, with the domain's own names (a front end uses [`Refusal::describe`] with its own).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |x: Field| x.as_str().to_string();
        f.write_str(&self.describe(Lang::En, name, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::said;

    fn name(f: Field) -> String {
        format!("<{f:?}>")
    }

    #[test]
    fn a_refusal_names_its_fields_through_the_front_end_in_its_language() {
        let r = Refusal::Value {
            field: Field::PledgeRank,
            value: 2u8.said(),
            reason: said!("no lender", "sin prestamista"),
            remedy: Some(Field::Lender),
        };
        let usage = |f: Field| format!("{f:?}=X");
        assert_eq!(
            r.describe(Lang::En, name, usage),
            "<PledgeRank> 2: no lender (Lender=X)"
        );
        assert_eq!(
            r.describe(Lang::Es, name, usage),
            "<PledgeRank> 2: sin prestamista (Lender=X)"
        );
        let both = Refusal::OneOf(Field::ConsiderationPerShare, Field::ConsiderationTotal);
        assert_eq!(
            both.describe(Lang::En, name, name),
            "give <ConsiderationPerShare> or <ConsiderationTotal>, not both"
        );
        assert_eq!(
            both.describe(Lang::Es, name, name),
            "indique <ConsiderationPerShare> o <ConsiderationTotal>, no ambos"
        );
        let rule = Refusal::Rule(said!("nothing to release", "nada que liberar"));
        assert_eq!(rule.describe(Lang::En, name, name), "nothing to release");
        assert_eq!(rule.describe(Lang::Es, name, name), "nada que liberar");
        let repeat = Refusal::Repeat {
            reason: said!("already recorded", "ya está registrado"),
            with: Field::AllowDuplicate,
        };
        assert_eq!(
            repeat.describe(Lang::En, name, usage),
            "already recorded. To correct it, repeat with AllowDuplicate=X"
        );
        assert_eq!(
            repeat.describe(Lang::Es, name, usage),
            "ya está registrado. Para corregirlo, repita la operación con AllowDuplicate=X"
        );
    }

    #[test]
    fn a_refused_value_is_written_each_language_its_way() {
        let d = chrono::NaiveDate::from_ymd_opt(2026, 3, 16).unwrap();
        let r = Refusal::value(Field::BreachDate, d, said!("late", "tardía"));
        assert_eq!(
            r.describe(Lang::En, name, name),
            "<BreachDate> 2026-03-16: late"
        );
        assert_eq!(
            r.describe(Lang::Es, name, name),
            "<BreachDate> 16/03/2026: tardía"
        );
        // Display is English with the domain's names
        assert_eq!(r.to_string(), "breach_date 2026-03-16: late");
    }
}
