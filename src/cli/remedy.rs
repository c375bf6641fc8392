//! The command line's way of carrying out what a finding calls for, or what a refused write
//! waits for: the command to run, as it parses (a test in `tests/it/check.rs` runs every one the check suggests through the real
//! command line). The sentence around it is the catalogue's (`crate::catalogue`).

use crate::catalogue::{self, Front, SUGGESTED_RATES_FILE};
use crate::check::{Finding, RatesHome, Remedy};
use crate::lang::Lang;

/// The command line as a [`Front`].
pub(crate) struct Commands;

impl Front for Commands {
    fn command(&self, remedy: &Remedy) -> Option<String> {
        Some(match remedy {
            Remedy::Liquidate { breach, until } => {
                format!("vigia fine liquidate {breach} --until {until}")
            }
            Remedy::IssueNotice { breach, until } => {
                format!("vigia notice issue {breach} --until {until}")
            }
            Remedy::RecordDelivery { .. } => "vigia notice delivered".to_string(),
            Remedy::RecordAddress { .. } => "vigia holder update".to_string(),
            Remedy::Certify {
                into: RatesHome::Register,
                ..
            } => format!("vigia rates import {SUGGESTED_RATES_FILE}"),
            // the rows go into the caller's own file, which the command line already reads
            Remedy::Certify {
                into: RatesHome::File(_),
                ..
            } => return None,
        })
    }

    fn by_hand(&self) -> Option<String> {
        Some("--via personal".to_string())
    }
}

/// What an officer can do about a refused row of a file, as the command line words it after the
/// reason (with its separator), naming the command that does it.
pub(crate) fn row(remedy: crate::import::Remedy, lang: Lang) -> String {
    use crate::import::Remedy;
    match (remedy, lang) {
        (Remedy::CorrectLineOrVoid { adjudication: id }, Lang::En) => format!(
            "; if the register is right, correct the line; if the file is, void adjudication {id} \
             (`vigia adjudications void {id} --reason TEXT`) and import the file again"
        ),
        (Remedy::CorrectLineOrVoid { adjudication: id }, Lang::Es) => format!(
            "; si el registro está bien, corrija la línea; si el archivo está bien, anule la adjudicación \
             N.º {id} (`vigia adjudications void {id} --reason TEXTO`) e importe de nuevo el archivo"
        ),
        (Remedy::LookUpAdjudications, Lang::En) => " (see `vigia adjudications list`)".to_string(),
        (Remedy::LookUpAdjudications, Lang::Es) => " (vea `vigia adjudications list`)".to_string(),
    }
}

/// A refused input's problem as the command line says it in `lang`, a row's remedy naming its
/// command.
pub(crate) fn problem(p: &crate::store::Problem, lang: Lang) -> String {
    match p {
        crate::store::Problem::Row(e) => e.worded(lang, |r| row(r, lang)),
        crate::store::Problem::Whole(m) => m.in_lang(lang).to_string(),
    }
}

/// The command that carries out an act a register refusal waits for, its placeholders and
/// dates written as the help of `lang` writes them (`--reason TEXTO`, `--on 28/06/2024`).
pub(crate) fn act(act: &crate::register::Act, lang: Lang) -> String {
    use crate::register::{Act, Record};
    let es = lang == Lang::Es;
    let ph = |en: &'static str| super::clap_lang::placeholder(lang, en);
    let (text, d) = (ph("TEXT"), ph("D"));
    let date = |on: &chrono::NaiveDate| {
        if es {
            crate::lang::fecha(*on)
        } else {
            on.to_string()
        }
    };
    match act {
        Act::Void(record) => {
            let what = match record {
                Record::Adjudication => "adjudications",
                Record::Breach => "breach",
                Record::Pledge => "pledge",
                Record::Payment => "payment",
            };
            format!("vigia {what} void ID --reason {text}")
        }
        Act::OpenOffer { program } => {
            format!("vigia offer open {program} --opens {d} --closes {d}")
        }
        Act::ImportAcceptances { program } => {
            let file = ph("FILE");
            format!("vigia acceptances import {file} --program {program}")
        }
        Act::AdjudicateOffer { program } => format!("vigia offer adjudicate {program} --on {d}"),
        Act::RecordExternal { program } => format!(
            "vigia offer record-external {program} --on {d} --awarded N --acta {}",
            ph("REF")
        ),
        Act::OpenTranche {
            program,
            stage,
            tranche: Some(tranche),
            shares: Some(shares),
        } => format!(
            "vigia stage open {program} --stage {stage} --tranche {tranche} --shares {shares} --opens {d} --closes {d}"
        ),
        Act::OpenTranche { program, stage, .. } => {
            format!(
                "vigia stage open {program} --stage {stage} --shares N --opens {d} --closes {d}"
            )
        }
        Act::Improve => "vigia stage improve".to_string(),
        Act::Draw {
            program,
            stage,
            tranche,
        } => {
            format!("vigia stage draw {program} --stage {stage} --tranche {tranche} --seed {text}")
        }
        Act::VerifyDraws { program, stage } => {
            format!("vigia stage draw --verify {program} --stage {stage}")
        }
        Act::AdjudicateStage { program, stage, on } => {
            format!(
                "vigia stage adjudicate {program} --stage {stage} --on {}",
                date(on)
            )
        }
        Act::DeclareVoid { program, stage, on } => {
            format!(
                "vigia stage desert {program} --stage {stage} --on {}",
                date(on)
            )
        }
        Act::AddRate => "vigia rates add".to_string(),
        // the stage awaited: its final price; none known: a price, or that no later stage will
        // happen (`--stage none`, without a price), as the rule's sentence says
        Act::RecordStagePrice {
            program,
            stage: Some(stage),
        } => format!(
            "vigia program stage-price {program} --stage {} --price P --date {d}",
            stage.number()
        ),
        Act::RecordStagePrice {
            program,
            stage: None,
        } => {
            format!("vigia program stage-price {program} --stage 2|3|none [--price P] --date {d}")
        }
    }
}

/// A finding's reason as the command line prints it, in `lang`.
pub(crate) fn reason(f: &Finding, lang: Lang) -> String {
    catalogue::of(lang).finding(f, &Commands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Code, Context, Part, Why};
    use crate::rates::RateSeries;
    use chrono::NaiveDate;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn a_refused_rows_remedy_names_the_command_that_carries_it_out() {
        use crate::import::{Remedy, RowError};
        let row = RowError {
            line: 4,
            field: "adjudication_id".into(),
            value: "9".into(),
            reason: crate::said!("no such adjudication in the register", "no existe"),
            remedy: Some(Remedy::LookUpAdjudications),
        };
        let p = crate::store::Problem::Row(row.clone());
        assert_eq!(
            problem(&p, Lang::En),
            "line 4: adjudication_id \"9\": no such adjudication in the register (see `vigia adjudications list`)"
        );
        // the domain's own words name no command
        assert_eq!(
            row.to_string(),
            "line 4: adjudication_id \"9\": no such adjudication in the register"
        );
        assert_eq!(
            super::row(Remedy::CorrectLineOrVoid { adjudication: 2 }, Lang::Es),
            "; si el registro está bien, corrija la línea; si el archivo está bien, anule la adjudicación \
             N.º 2 (`vigia adjudications void 2 --reason TEXTO`) e importe de nuevo el archivo"
        );
    }

    fn finding(why: Why, context: Context) -> Finding {
        Finding {
            code: Code::RateMissing,
            holding: None,
            breach_id: None,
            outstanding: None,
            why,
            context,
        }
    }

    #[test]
    fn a_missing_rate_is_advised_as_a_command_that_runs_or_a_file_to_complete() {
        let why = Why::RateMissing {
            breach: 2,
            overdue: Some(("MULTA-2025-0001".into(), day("2025-02-25"))),
            missing: vec![
                (day("2026-11-03"), day("2026-11-03")),
                (day("2026-12-01"), day("2026-12-01")),
            ],
        };
        let register = RateSeries::shipped();
        let context = Context {
            as_of: day("2026-12-01"),
            rates: RatesHome::of(&register),
            uncertified: None,
        };
        assert_eq!(
            reason(&finding(why, context), Lang::En),
            "notice MULTA-2025-0001 was due on 2025-02-25, but the balance of breach 2 as of 2026-12-01 \
             cannot be computed: no certified moratorium rate for 2026-11-03, 2026-12-01; save the \
             SFC certification for 2026-11-01..2026-12-31 in sfc-rates.csv (header \
             valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution; one row per month) and run \
             `vigia rates import sfc-rates.csv`"
        );
        let file = RateSeries::from_csv(crate::rates::SHIPPED_CSV, "/srv/tasas.csv").unwrap();
        let context = Context {
            as_of: day("2026-11-27"),
            rates: RatesHome::of(&file),
            uncertified: None,
        };
        let why = Why::RateDue {
            first: day("2026-12-01"),
        };
        assert_eq!(
            reason(&finding(why, context), Lang::En),
            "no certified moratorium rate for 2026-12-01..2026-12-31 yet: from 2026-12-01 balances \
             that need it cannot be computed; when the SFC certifies it, add the SFC certification \
             for 2026-12-01..2026-12-31 to /srv/tasas.csv (one row per month)"
        );
    }

    #[test]
    fn each_remedy_names_the_command_that_carries_it_out() {
        let context = || Context {
            as_of: day("2026-12-01"),
            rates: RatesHome::Register,
            uncertified: Some((day("2026-11-01"), day("2026-12-31"))),
        };
        let table = [
            (
                Why::ProvisionalStale {
                    breach: 12,
                    liquidation: 3,
                    so_far: false,
                },
                "liquidation 3 was provisional and the stage price is now recorded: once the \
                 moratorium rate for 2026-11-01..2026-12-31 is certified (RATE_MISSING), run \
                 `vigia fine liquidate 12 --until 2026-12-01`",
            ),
            (
                Why::HolderNoAddress {
                    number: "MULTA-2026-0007".into(),
                },
                "notice MULTA-2026-0007 is undelivered and its holder has no postal address on \
                 file: it cannot go by certified mail; record the address with vigia holder \
                 update, or deliver it by hand (--via personal)",
            ),
            (
                Why::PledgeShort {
                    end: Some(day("2026-03-15")),
                    covered: 600,
                    shares: 1000,
                },
                "pledges in force cover 600 of the 1000 shares: 400 shares have no pledge during \
                 the lock-up (ends 2026-03-15): register their pledge (Art. 10)",
            ),
            (
                Why::PledgeRankBeyondFinancing {
                    pledges: vec![7],
                    second: 1000,
                    financed: 600,
                },
                "second-degree pledge 7 covers 1000 shares but the lender financed 600: 400 of \
                 them should carry the first-degree pledge (Art. 10)",
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
                "the fine of breach 12 is overdue: pledge 8 (second degree, 600 shares: after \
                 the lender's first-degree pledge) secures $ 1.087.500 (Art. 10)",
            ),
            (
                Why::PledgeEnforceable {
                    breach: 12,
                    pledge: 9,
                    due: crate::money::dec("1087500"),
                    of: Some(Part {
                        rank: 1,
                        shares: 400,
                    }),
                },
                "the fine of breach 12 is overdue: pledge 9 (rank 1, 400 shares) secures \
                 $ 1.087.500 (Art. 10)",
            ),
        ];
        for (why, expected) in table {
            assert_eq!(reason(&finding(why, context()), Lang::En), expected);
        }
    }
}
