//! `vigia program ...`: register program files, list and show them, record the stage price.

use super::{CliError, Ctx, Status, args, read_file};
use crate::fine::StagePrice;
use crate::later_stages::Stage;
use crate::program::Program;
use crate::report::records::{self, Format};
use crate::store::programs::{self, Added, StoredProgram};
use chrono::NaiveDate;
use clap::Subcommand;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum ProgramCommand {
    /// Register a program file (TOML; see schema/programs/decreto-3939-2004.toml), or a program
    /// shipped inside vigia by its code: `vigia program add D3939-2004` (a file of that name,
    /// when there is one, is read instead).
    Add {
        /// The program file, or the code of a shipped program: D3939-2004, SEMILLA-000, SEMILLA-001, EBSA-2010, FOGAFIN-TON.
        #[arg(value_name = "FILE|CODE")]
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print a shipped program's file (TOML), to start another program from it:
    /// `vigia program show-file D3939-2004 > mi-programa.toml`.
    ShowFile {
        /// The shipped program's code: D3939-2004, SEMILLA-000, SEMILLA-001, EBSA-2010, FOGAFIN-TON.
        #[arg(value_parser = super::args::text)]
        code: String,
    },
    /// List registered programs.
    List {
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Show one program's terms.
    Show {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// The letters' letterhead (issuer, signatory, payment account and reference, return
    /// address): register data, changed with an audited new version, never a new program code.
    Letters {
        #[command(subcommand)]
        command: super::letters::LettersCommand,
    },
    /// Record the Art. 9 (iii) price: the per-share price the sellers obtained in the Second or
    /// Third Stage, or `--stage none` when no later stage will happen. Until one is recorded,
    /// liquidations are provisional; so are they while the price is only the highest so far (a
    /// stage adjudicated in vigia left shares to a later stage still pending): that stage's
    /// conclusion, or its final price recorded here, makes them final.
    StagePrice {
        #[arg(value_parser = super::args::text)]
        code: String,
        /// 2, 3 or none.
        #[arg(value_parser = super::args::text, long, value_name = "2|3|none")]
        stage: String,
        /// Price per share (required with --stage 2 or 3).
        #[arg(long, value_name = "P", value_parser = args::price, allow_negative_numbers = true)]
        price: Option<Decimal>,
        /// Date the price was obtained (or the decision that no later stage will happen).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: NaiveDate,
        /// Why this record corrects a price in force (a new figure for a stage already priced, or
        /// none while a price is in force): required then, kept in the audit event.
        #[arg(long, value_name = "TEXT", value_parser = super::args::text)]
        reason: Option<String>,
    },
}

/// A program as a record.
pub fn record(p: &StoredProgram, stage: StagePrice) -> Value {
    let g = &p.program;
    json!({
        "id": p.id,
        "code": g.code,
        "name": g.name,
        "decree": g.decree,
        "issuer": g.issuer,
        "sellers": g.sellers.iter().map(|s| json!({"name": s.name, "nit": s.nit, "shares": s.shares})).collect::<Vec<_>>(),
        "shares_offered": g.shares_offered,
        "fixed_price": g.fixed_price.to_string(),
        "lockup_months": g.lockup_months,
        "brackets": g.brackets.iter().map(|b| format!("{}:{}", b.upto_months, b.percent)).collect::<Vec<_>>().join(","),
        "reference_prices": g.reference_prices.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(","),
        "breach_kinds": g.breach_kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(","),
        "convention": g.convention,
        "payment_term_business_days": g.payment_term_business_days,
        // the price alone when there is one, and whether it is final: the codes of a
        // liquidation's stage fact (`so_far`: a later stage still pending), which a table for
        // people words from the catalogue
        "stage_price": match stage {
            StagePrice::Known(p) | StagePrice::SoFar(p) => p.to_string(),
            StagePrice::Absent => "none (no later stage)".into(),
            StagePrice::Pending => "pending".into(),
        },
        "stage_price_status": match stage {
            StagePrice::Known(_) => "known",
            StagePrice::SoFar(_) => "so_far",
            StagePrice::Absent => "none",
            StagePrice::Pending => "pending",
        },
        "sha256": p.sha256,
        "added_at": p.created_at,
        "added_by": p.created_by,
    })
}

impl ProgramCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            ProgramCommand::ShowFile { code } => match crate::program::embedded(&code) {
                Some(text) => write!(ctx.out, "{text}")?,
                None => {
                    let shipped: Vec<&str> =
                        crate::program::EMBEDDED.iter().map(|(c, _)| *c).collect();
                    let shipped = shipped.join(", ");
                    return Err(CliError::Wrong {
                        flag: "program show-file".into(),
                        value: code,
                        why: crate::said!(cli::not_shipped_program, shipped),
                    });
                }
            },
            ProgramCommand::Add { file, format } => {
                let shipped = (!file.exists())
                    .then(|| crate::program::embedded(&file.to_string_lossy()))
                    .flatten();
                let text = match shipped {
                    Some(text) => text.to_string(),
                    None => read_file(&file, "program add")?,
                };
                // the file's problem in the run's language, naming the field
                let program = Program::from_toml(&text).map_err(|e| CliError::Flag {
                    flag: "program add".into(),
                    value: file.display().to_string(),
                    reason: e.in_lang(ctx.lang),
                })?;
                let mut store = ctx.store()?;
                let added = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::program::add(tx, &program, &text)
                })?;
                let (id, new) = match added {
                    Added::New(id) => (id, true),
                    Added::AlreadyThere(id) => (id, false),
                };
                if format == Format::Table {
                    ctx.say(crate::catalogue::msg::Msg::ProgramAdded {
                        code: &program.code,
                        id,
                        new,
                    })?;
                } else {
                    let p = programs::by_id(store.conn(), id)?;
                    let stage = programs::stage_price(store.conn(), id)?;
                    write!(
                        ctx.out,
                        "{}",
                        records::one_in(&record(&p, stage), format, ctx.lang)
                    )?;
                }
            }
            ProgramCommand::List { format, out } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let rows: Vec<Value> = programs::list(store.conn())?
                    .iter()
                    .map(|p| {
                        json!({"id": p.id, "code": p.program.code, "decree": p.program.decree, "name": p.program.name,
                               "shares_offered": p.program.shares_offered, "fixed_price": p.program.fixed_price.to_string()})
                    })
                    .collect();
                super::out::list(ctx, to, "Programas", &rows, Vec::new())?;
            }
            ProgramCommand::Letters { command } => return command.run(ctx),
            ProgramCommand::Show { code, format } => {
                let store = ctx.store()?;
                let p = programs::by_code(store.conn(), &code)?;
                let stage = programs::stage_price(store.conn(), p.id)?;
                write!(
                    ctx.out,
                    "{}",
                    records::one_in(&record(&p, stage), format, ctx.lang)
                )?;
            }
            ProgramCommand::StagePrice {
                code,
                stage,
                price,
                date,
                reason,
            } => {
                let stage = match (stage.as_str(), price) {
                    ("2" | "3", Some(p)) if p > Decimal::ZERO => Some((
                        if stage == "2" {
                            Stage::Second
                        } else {
                            Stage::Third
                        },
                        p,
                    )),
                    ("2" | "3", _) => {
                        return Err(CliError::Wrong {
                            flag: "--price".into(),
                            value: price.map(|p| p.to_string()).unwrap_or_default(),
                            why: crate::said!(cli::stage_needs_price, stage),
                        });
                    }
                    ("none", None) => None,
                    ("none", Some(p)) => {
                        return Err(CliError::Wrong {
                            flag: "--price".into(),
                            value: p.to_string(),
                            why: crate::said!(cli::stage_none_takes_no_price),
                        });
                    }
                    _ => {
                        return Err(CliError::Wrong {
                            flag: "--stage".into(),
                            value: stage,
                            why: crate::said!(cli::stage_is_2_3_or_none),
                        });
                    }
                };
                let mut store = ctx.store()?;
                let program = programs::by_code(store.conn(), &code)?;
                let recorded = store.write(&ctx.officer(), |tx| {
                    crate::register::program::record_stage_price(
                        tx,
                        program.id,
                        &program.program.code,
                        stage,
                        date,
                        reason.as_deref(),
                    )
                })?;
                ctx.say(crate::catalogue::msg::Msg::StagePriceSet {
                    id: recorded.id,
                    code: &code,
                    stage: stage.map(|(s, p)| (s.to_string(), p)),
                    replaced: recorded
                        .replaced
                        .iter()
                        .map(|(s, p)| (s.number(), *p))
                        .collect(),
                    replaced_none: recorded.replaced_none,
                })?;
            }
        }
        Ok(Status::Ok)
    }
}
