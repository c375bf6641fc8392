//! What vigia says, one catalogue per language: the typed facts the rules and the check return
//! (a finding's [`check::Why`] with its [`check::Context`], the [`check::Remedy`] that answers
//! it) worded in English ([`en`]) and Spanish ([`es`]). Each language is one implementation of
//! [`Catalogue`], so a sentence one language has and the other lacks does not compile.
//!
//! A remedy is said the way the front end showing it carries it out: the command line names its
//! command ([`Front::command`], implemented in `cli/`; no command text lives here), the web says
//! what to do in words (its [`Front`] names no command). A front end picks a catalogue with
//! [`of`].

pub mod en;
mod en_msg;
mod en_verification;
pub mod es;
mod es_msg;
mod es_verification;
mod es_words;
pub mod file_words;
pub mod msg;
#[cfg(test)]
mod msg_tests;
pub mod sfc;
pub mod signature;
pub mod signature_why;
pub mod stage;
pub mod verification;

use crate::check::{Code, Finding, Remedy, Undecided};
use crate::lang::Lang;

/// How a front end carries out a remedy.
pub trait Front {
    /// The command that carries out `remedy`, as this front end's user types it; `None`: the
    /// catalogue says what to do in words.
    fn command(&self, remedy: &Remedy) -> Option<String>;
    /// How this front end's user says a notice was delivered by hand (the option of the command
    /// that records a delivery); `None`: in words.
    fn by_hand(&self) -> Option<String>;
}

/// A front end with no commands to name (the web): every remedy in words.
pub struct InWords;

impl Front for InWords {
    fn command(&self, _: &Remedy) -> Option<String> {
        None
    }
    fn by_hand(&self) -> Option<String> {
        None
    }
}

/// The file a suggested rates import reads, when the rates are the register's.
pub const SUGGESTED_RATES_FILE: &str = "sfc-rates.csv";

/// One language's sentences.
pub trait Catalogue {
    /// A finding's one-line reason: its facts, then what to do, as `front` carries it out.
    fn finding(&self, f: &Finding, front: &dyn Front) -> String;
    /// What a finding's code means (shown beside the stable code).
    fn code_name(&self, code: Code) -> &'static str;
    /// Why an adjudication could not be decided (a balance needs rates not certified).
    fn undecided(&self, u: &Undecided) -> String;
    /// A command's success line (or a line of the demo's narration).
    fn msg(&self, m: &msg::Msg<'_>) -> String;
    /// A draw's arithmetic, the digest's number modulo the tied proposals giving the winning
    /// place (`123 mód 2 = 1`): in the draw's lines above and on the web's stage page.
    fn draw_place(&self, number: &dyn std::fmt::Display, tied: u64, index: u64) -> String;
    /// A stable code of a record's column (`kind` `sale`, `convention` `daily-simple`) as a
    /// table for people shows it; `None`: as it is (English keeps every code).
    fn code(&self, column: &str, value: &str) -> Option<&'static str>;
    /// What the register could not do (a record not found, a busy register, an import's
    /// problems).
    fn store_error(&self, e: &crate::store::StoreError) -> String;
    /// What the operating system said when a file or a stream failed.
    fn io_error(&self, e: &std::io::Error) -> String;
    /// Why a fine's brackets or its lock-up's length are refused.
    fn scale_error(&self, e: &crate::calendar::ScaleError) -> String;
    /// `notice verify`'s report on the document at `file`: one line, then a line per check.
    fn verified(&self, v: &crate::register::verify::Verified, file: &str) -> Vec<String>;
    /// The web's verification of a document the register could check: the outcome, a paid
    /// fine's sentence, the document named and a row per check.
    fn verification(
        &self,
        v: &crate::register::verify::Verified,
        o: &crate::register::verify::Outcome,
    ) -> verification::Said;
    /// What a verification comes to, in one sentence: in force; authentic but no longer in
    /// force (why, since when); does not match; its signature does not hold.
    fn verdict(
        &self,
        kind: crate::register::verify::Kind,
        o: &crate::register::verify::Outcome,
    ) -> String;
    /// The web's verification of a file that is no document vigia can check, and why.
    fn unverifiable(&self, e: &crate::register::verify::Unverifiable) -> verification::Unverified;
    /// Where a page of a long list starts and ends: its `shown` rows (one at least) after the
    /// first `before` of `of` («Personas 201 a 260 de 260»).
    fn page_of(&self, what: Listed, before: u64, shown: u64, of: u64) -> String;
    /// The order a page of the offer's adjudication preview lists the persons in, said after
    /// where the page starts and ends: « (en el orden del acta)», « (en el orden elegido)».
    fn in_order(&self, order: Order) -> &'static str;
    /// The span of a fine's bracket, in months after the adjudication: the first one's up to
    /// `upto` («hasta 6 meses»), a later one's from the day after the previous one's end, `after`
    /// («6 meses y un día a 12 meses»), as the notice and the liquidation say where a breach fell.
    fn bracket_span(&self, after: Option<u32>, upto: u32) -> String;
}

/// What a paged list lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// The persons of a first-stage offer's adjudication.
    Persons,
    /// A later stage's tranche's proposals.
    Proposals,
}

/// The order a list is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// As the acta lists it.
    Acta,
    /// By a column the reader chose (the preview's «Orden»).
    Chosen,
}

/// `m` in both languages, for an error that is worded when printed.
pub fn said(m: &msg::Msg<'_>) -> crate::lang::Said {
    crate::lang::Said::new(of(Lang::En).msg(m), of(Lang::Es).msg(m))
}

/// The catalogue of `lang`.
pub fn of(lang: Lang) -> &'static dyn Catalogue {
    match lang {
        Lang::En => &en::En,
        Lang::Es => &es::Es,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Context, Part, RatesHome, Why};
    use chrono::NaiveDate;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    fn finding(why: Why, context: Context) -> Finding {
        Finding {
            code: Code::RateDue,
            holding: None,
            breach_id: None,
            outstanding: None,
            why,
            context,
        }
    }

    /// A front that names a made-up command for every remedy.
    struct Named;

    impl Front for Named {
        fn command(&self, remedy: &Remedy) -> Option<String> {
            Some(format!("HACER {remedy:?}"))
        }
        fn by_hand(&self) -> Option<String> {
            Some("A MANO".into())
        }
    }
    /// Which variant a reason is: an exhaustive match, so a new variant fails to compile until
    /// the table below gives its Spanish sentence.
    fn variant(why: &Why) -> usize {
        match why {
            Why::NoLiquidation { .. } => 0,
            Why::NoNotice { .. } => 1,
            Why::ProvisionalStale { .. } => 2,
            Why::NoticeOverdue { .. } => 3,
            Why::NoticeUndelivered { .. } => 4,
            Why::RateMissing { .. } => 5,
            Why::SharesExceeded { .. } => 6,
            Why::MissingPledgeInLockup { .. } => 7,
            Why::MissingPledgeWhileOwed => 8,
            Why::PledgeRank { .. } => 9,
            Why::RateDue { .. } => 10,
            Why::RatesUncertified { .. } => 16,
            Why::LockupEnding { .. } => 11,
            Why::PledgeReleasable { .. } => 12,
            Why::PledgeEnforceable { .. } => 13,
            Why::PledgeShort { .. } => 14,
            Why::PledgeRankBeyondFinancing { .. } => 15,
            Why::HolderNoAddress { .. } => 17,
        }
    }

    #[test]
    fn every_reason_is_said_in_both_languages_in_words_or_with_a_command() {
        let register = |as_of: &str| Context {
            as_of: day(as_of),
            rates: RatesHome::Register,
            uncertified: None,
        };
        let file = |as_of: &str| Context {
            as_of: day(as_of),
            rates: RatesHome::File("/srv/tasas.csv".into()),
            uncertified: None,
        };
        let number = || "MULTA-2026-0007".to_string();
        let table: Vec<(Why, Context, &str)> = vec![
            (
                Why::NoLiquidation {
                    breach: 12,
                    on: day("2024-11-20"),
                },
                register("2026-12-01"),
                "el incumplimiento N.º 12 del 20/11/2024 no tiene liquidación: liquide su multa al \
                 01/12/2026",
            ),
            (
                Why::NoNotice {
                    breach: 12,
                    on: day("2024-11-20"),
                },
                register("2026-12-01"),
                "el incumplimiento N.º 12 del 20/11/2024 no tiene aviso de cobro: emita el aviso \
                 con la multa liquidada al 01/12/2026",
            ),
            (
                Why::ProvisionalStale {
                    breach: 12,
                    liquidation: 3,
                    so_far: false,
                },
                register("2026-12-01"),
                "la liquidación N.º 3 era provisional y el precio de la etapa ya está registrado: \
                 liquide de nuevo la multa del incumplimiento N.º 12 al 01/12/2026",
            ),
            (
                Why::ProvisionalStale {
                    breach: 12,
                    liquidation: 3,
                    so_far: true,
                },
                register("2026-12-01"),
                "la liquidación N.º 3 es provisional y el precio de la etapa cambió desde que se \
                 hizo (es el mayor hasta ahora; una etapa posterior sigue pendiente): liquide de \
                 nuevo la multa del incumplimiento N.º 12 al 01/12/2026",
            ),
            (
                Why::NoticeOverdue {
                    number: number(),
                    deadline: day("2026-11-25"),
                    due: crate::money::dec("1087500.25"),
                },
                register("2026-12-01"),
                "el plazo de pago del aviso MULTA-2026-0007 venció el 25/11/2026; al 01/12/2026 se \
                 deben $ 1.087.500,25",
            ),
            (
                Why::NoticeUndelivered {
                    number: number(),
                    deliver_by: day("2026-11-20"),
                    late: true,
                },
                register("2026-12-01"),
                "el aviso MULTA-2026-0007 no tiene entrega registrada y debía entregarse a más \
                 tardar el 20/11/2026: entréguelo y registre el día y el medio de la entrega",
            ),
            (
                Why::HolderNoAddress { number: number() },
                register("2026-12-01"),
                "el aviso MULTA-2026-0007 no se ha entregado y su titular no tiene dirección postal \
                 registrada: no puede enviarse por correo certificado; registre la dirección del \
                 titular o entréguelo personalmente",
            ),
            (
                Why::RateMissing {
                    breach: 2,
                    overdue: Some(("MULTA-2025-0001".into(), day("2025-02-25"))),
                    missing: vec![
                        (day("2026-11-03"), day("2026-11-03")),
                        (day("2026-12-01"), day("2026-12-01")),
                    ],
                },
                register("2026-12-01"),
                "el plazo de pago del aviso MULTA-2025-0001 venció el 25/02/2025, pero el saldo del \
                 incumplimiento N.º 2 al 01/12/2026 no se puede calcular: no hay tasa moratoria \
                 certificada el 03/11/2026, el 01/12/2026; agregue las tasas certificadas de \
                 noviembre a diciembre de 2026 en «Tasas»",
            ),
            (
                Why::RateMissing {
                    breach: 5,
                    overdue: None,
                    missing: vec![(day("2026-11-01"), day("2026-11-30"))],
                },
                file("2026-12-01"),
                "el saldo del incumplimiento N.º 5 al 01/12/2026 no se puede calcular: no hay tasa \
                 moratoria certificada del 01/11/2026 al 30/11/2026; agregue la tasa certificada \
                 de noviembre de 2026 al archivo /srv/tasas.csv (una fila por mes)",
            ),
            (
                Why::RateMissing {
                    breach: 5,
                    overdue: None,
                    missing: vec![(day("2026-12-15"), day("2027-01-10"))],
                },
                register("2027-01-10"),
                "el saldo del incumplimiento N.º 5 al 10/01/2027 no se puede calcular: no hay tasa \
                 moratoria certificada del 15/12/2026 al 10/01/2027; agregue las tasas \
                 certificadas de diciembre de 2026 a enero de 2027 en «Tasas»",
            ),
            (
                Why::SharesExceeded {
                    breached: 12500,
                    adjudicated: 10000,
                },
                register("2026-12-01"),
                "los incumplimientos suman 12.500 acciones, pero solo se adjudicaron 10.000",
            ),
            (
                Why::MissingPledgeInLockup {
                    end: day("2026-03-15"),
                },
                register("2024-06-30"),
                "no hay prenda vigente durante el período de restricción (termina el 15/03/2026): \
                 regístrela (art. 10)",
            ),
            (
                Why::MissingPledgeWhileOwed,
                register("2026-12-01"),
                "no hay prenda vigente mientras se debe una multa: regístrela (art. 10)",
            ),
            (
                Why::PledgeRank { pledge: 7 },
                register("2026-12-01"),
                "la prenda N.º 7 es de segundo grado, pero la adjudicación no fue financiada: debe \
                 ser de primer grado",
            ),
            (
                Why::RateDue {
                    first: day("2026-12-01"),
                },
                register("2026-11-27"),
                "aún no hay tasa moratoria certificada para diciembre de 2026: desde el 01/12/2026 \
                 no se podrán calcular los saldos que la necesiten; cuando la Superintendencia \
                 Financiera la certifique, agregue la tasa certificada de diciembre de 2026 en \
                 «Tasas»",
            ),
            (
                Why::LockupEnding {
                    end: day("2026-12-31"),
                },
                register("2026-12-01"),
                "el período de restricción termina el 31/12/2026; el titular queda libre desde el \
                 01/01/2027",
            ),
            (
                Why::PledgeReleasable {
                    end: day("2026-03-15"),
                    pledge: 7,
                    of: None,
                },
                register("2026-12-01"),
                "el período de restricción terminó el 15/03/2026 y no se debe ninguna multa: la \
                 prenda N.º 7 puede liberarse",
            ),
            (
                Why::PledgeEnforceable {
                    breach: 12,
                    pledge: 7,
                    due: crate::money::dec("1087500"),
                    of: None,
                },
                register("2026-12-01"),
                "la multa del incumplimiento N.º 12 está vencida: la prenda N.º 7 garantiza \
                 $ 1.087.500 (art. 10)",
            ),
            (
                Why::RatesUncertified {
                    from: day("2026-11-01"),
                    to: day("2026-12-01"),
                    open: 3,
                },
                register("2026-12-01"),
                "no hay tasa moratoria certificada del 01/11/2026 al 01/12/2026: las multas de 3 \
                 incumplimientos sin paz y salvo no pueden liquidarse ni notificarse al 01/12/2026 \
                 hasta que se certifique; agregue las tasas certificadas de noviembre a diciembre de \
                 2026 en «Tasas»",
            ),
            (
                Why::NoNotice {
                    breach: 12,
                    on: day("2024-11-20"),
                },
                Context {
                    uncertified: Some((day("2026-11-01"), day("2026-12-31"))),
                    ..register("2026-12-01")
                },
                "el incumplimiento N.º 12 del 20/11/2024 no tiene aviso de cobro: cuando se \
                 certifique la tasa moratoria de noviembre a diciembre de 2026 (RATE_MISSING), emita \
                 el aviso con la multa liquidada al 01/12/2026",
            ),
            // split pledges (Art. 10): 600 financed shares in the second degree, 400 in the first
            (
                Why::PledgeShort {
                    end: Some(day("2026-03-15")),
                    covered: 600,
                    shares: 1000,
                },
                register("2024-06-30"),
                "las prendas vigentes cubren 600 de las 1.000 acciones: 400 acciones no tienen \
                 prenda durante el período de restricción (termina el 15/03/2026): registre su \
                 prenda (art. 10)",
            ),
            (
                Why::PledgeRankBeyondFinancing {
                    pledges: vec![7, 9],
                    second: 1000,
                    financed: 600,
                },
                register("2024-06-30"),
                "las prendas de segundo grado N.º 7, 9 cubren 1.000 acciones, pero el prestamista \
                 financió 600: 400 de ellas deben llevar la prenda de primer grado (art. 10)",
            ),
            (
                Why::PledgeEnforceable {
                    breach: 12,
                    pledge: 8,
                    due: crate::money::dec("1087500"),
                    of: Some(Part {
                        rank: 2,
                        shares: 600,
                    }),
                },
                register("2026-12-01"),
                "la multa del incumplimiento N.º 12 está vencida: la prenda N.º 8 (de segundo \
                 grado, sobre 600 acciones: después de la prenda de primer grado del prestamista) \
                 garantiza $ 1.087.500 (art. 10)",
            ),
            (
                Why::PledgeReleasable {
                    end: day("2026-03-15"),
                    pledge: 9,
                    of: Some(Part {
                        rank: 1,
                        shares: 400,
                    }),
                },
                register("2026-12-01"),
                "el período de restricción terminó el 15/03/2026 y no se debe ninguna multa: la \
                 prenda N.º 9 (de grado 1, sobre 400 acciones) puede liberarse",
            ),
        ];
        let mut covered = [false; 18];
        for (why, context, spanish) in table {
            covered[variant(&why)] = true;
            let f = finding(why, context);
            assert_eq!(of(Lang::Es).finding(&f, &InWords), spanish);
            let english = of(Lang::En).finding(&f, &InWords);
            assert_ne!(english, spanish);
            // in words, neither language names a command (the web's front names none)
            for command in ["vigia", "--", "`"] {
                assert!(!english.contains(command), "{command} in {english}");
            }
            // with a command to run, each language names it
            let commands = Named;
            for lang in [Lang::En, Lang::Es] {
                let said = of(lang).finding(&f, &commands);
                match f.remedy() {
                    // rows for the caller's own rates file: no command adds them there
                    Some(Remedy::Certify {
                        into: RatesHome::File(_),
                        ..
                    }) => assert_eq!(said, of(lang).finding(&f, &InWords)),
                    Some(r) => assert!(said.contains(&commands.command(&r).unwrap()), "{said}"),
                    None => assert_eq!(said, of(lang).finding(&f, &InWords)),
                }
            }
            // no command, flag or ISO date in Spanish
            for english in ["vigia", "--", "`", "sfc-rates", "Art."] {
                assert!(!spanish.contains(english), "{english} in {spanish}");
            }
            let iso = |w: &[u8]| {
                w.iter().enumerate().all(|(i, b)| match i {
                    4 | 7 => *b == b'-',
                    _ => b.is_ascii_digit(),
                })
            };
            assert!(!spanish.as_bytes().windows(10).any(iso), "{spanish}");
        }
        assert!(covered.iter().all(|&c| c), "a variant without its Spanish");
    }

    #[test]
    fn a_page_of_a_list_says_where_it_starts_and_ends_of_how_many() {
        let es = of(Lang::Es);
        assert_eq!(
            es.page_of(Listed::Persons, 200, 60, 260),
            "Personas 201 a 260 de 260"
        );
        assert_eq!(
            es.page_of(Listed::Proposals, 1_000, 200, 1_234_567),
            "Propuestas 1.001 a 1.200 de 1.234.567"
        );
        assert_eq!(
            es.page_of(Listed::Persons, 449, 1, 450),
            "Persona 450 de 450"
        );
        let en = of(Lang::En);
        assert_eq!(
            en.page_of(Listed::Proposals, 5, 5, 10),
            "Proposals 6 to 10 of 10"
        );
        assert_eq!(en.page_of(Listed::Persons, 0, 1, 3), "Person 1 of 3");
    }

    #[test]
    fn a_fine_bracket_is_said_from_the_day_after_the_previous_ones_end() {
        let (es, en) = (of(Lang::Es), of(Lang::En));
        assert_eq!(es.bracket_span(None, 6), "hasta 6 meses");
        assert_eq!(es.bracket_span(Some(6), 12), "6 meses y un día a 12 meses");
        assert_eq!(es.bracket_span(Some(1), 24), "1 mes y un día a 24 meses");
        assert_eq!(es.bracket_span(None, 1), "hasta 1 mes");
        assert_eq!(en.bracket_span(None, 6), "up to 6 months");
        assert_eq!(
            en.bracket_span(Some(18), 24),
            "18 months and one day to 24 months"
        );
    }

    #[test]
    fn a_page_of_the_preview_says_the_order_it_lists_in() {
        let es = of(Lang::Es);
        assert_eq!(es.in_order(Order::Acta), " (en el orden del acta)");
        assert_eq!(es.in_order(Order::Chosen), " (en el orden elegido)");
        let en = of(Lang::En);
        assert_eq!(en.in_order(Order::Acta), " (in the acta's order)");
        assert_eq!(en.in_order(Order::Chosen), " (in the chosen order)");
    }
}
