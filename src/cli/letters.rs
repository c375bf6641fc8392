//! `vigia program letters ...`: a program's letterhead as register data (issue 20): set it (a new
//! audited version with the changes given; the first starts from the program file's
//! `[letters.issuer]`), show the one in force and what a notice or a paz y salvo would still lack,
//! and list every version.

use super::{CliError, Ctx, Status};
use crate::register::letterhead::{self, For, Update};
use crate::report::records::{self, Format};
use crate::store::letterheads::{self, Letterhead};
use crate::store::programs;
use clap::Subcommand;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum LettersCommand {
    /// Record a new version of the program's letterhead: the one in force with the values given
    /// (an empty value clears one). The first version starts from the program file's
    /// [letters.issuer]. A notice needs the issuer, the signatory's name and position, the
    /// return address, the payment bank and account; a paz y salvo all but the payment ones.
    Set {
        /// The program's code (D3939-2004).
        #[arg(value_parser = super::args::text)]
        code: String,
        #[command(flatten)]
        parts: Box<Parts>,
    },
    /// The letterhead in force and what a notice or a paz y salvo would still lack.
    Show {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Every version of the letterhead, oldest first.
    History {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

/// The parts `letters set` changes (each flag given replaces its part; an empty value clears it).
#[derive(Debug, clap::Args)]
pub struct Parts {
    /// The entity that writes on the sellers' behalf.
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    entity: Option<String>,
    /// The issuer's NIT, NNNNNNNNN-D (check digit verified).
    #[arg(value_parser = super::args::text, long, value_name = "NIT")]
    nit: Option<String>,
    /// Where the holder answers and the post returns an undelivered letter.
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    return_address: Option<String>,
    /// The city of the date line.
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    city: Option<String>,
    /// The bank the fine is paid into.
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    bank: Option<String>,
    /// The account, e.g. "cuenta corriente No. 000-00000-0".
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    account: Option<String>,
    /// The payment reference the holder quotes: {number} (the notice's), {doc} (the
    /// holder's document) and {breach} are replaced; default {number}.
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    reference: Option<String>,
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    signatory_name: Option<String>,
    /// The signatory's position (cargo).
    #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
    signatory_position: Option<String>,
}

fn record(l: &Letterhead) -> Value {
    let i = &l.issuer;
    let lacks = |k| {
        letterhead::missing(i, k)
            .iter()
            .map(|p| p.said().en().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    json!({
        "version": l.id,
        "entity": i.entity,
        "nit": i.nit,
        "return_address": i.address,
        "city": i.city,
        "bank": i.bank,
        "account": i.account,
        "reference": i.reference.as_deref().unwrap_or("{number}"),
        "signatory_name": i.signatory_name,
        "signatory_position": i.signatory_position,
        "notice_lacks": lacks(For::Notice),
        "paz_y_salvo_lacks": lacks(For::Settlement),
        "set_at": l.created_at,
        "set_by": l.created_by,
    })
}

impl LettersCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            LettersCommand::Set { code, parts } => {
                let Parts {
                    entity,
                    nit,
                    return_address,
                    city,
                    bank,
                    account,
                    reference,
                    signatory_name,
                    signatory_position,
                } = *parts;
                let u = Update {
                    entity,
                    nit,
                    address: return_address,
                    city,
                    bank,
                    account,
                    reference,
                    signatory_name,
                    signatory_position,
                };
                let mut store = ctx.store()?;
                let program = programs::by_code(store.conn(), &code)?;
                let l = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    letterhead::set(tx, &program, &u)
                })?;
                let lacks: Vec<String> = letterhead::missing(&l.issuer, For::Notice)
                    .iter()
                    .map(|p| p.said().in_lang(ctx.lang).to_string())
                    .collect();
                ctx.say(crate::catalogue::msg::Msg::LetterheadSet {
                    code: &code,
                    version: l.id,
                    lacks,
                })?;
            }
            LettersCommand::Show { code, format } => {
                let store = ctx.store()?;
                let program = programs::by_code(store.conn(), &code)?;
                match letterheads::current(store.conn(), program.id)? {
                    Some(l) => write!(
                        ctx.out,
                        "{}",
                        records::one_in(&record(&l), format, ctx.lang)
                    )?,
                    None => ctx.say(crate::catalogue::msg::Msg::NoLetterhead { code: &code })?,
                }
            }
            LettersCommand::History { code, format, out } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let filters = vec![(
                    "Programa".to_string(),
                    crate::report::excel::Cell::Text(code.clone()),
                )];
                let store = ctx.store()?;
                let program = programs::by_code(store.conn(), &code)?;
                let rows: Vec<Value> = letterheads::history(store.conn(), program.id)?
                    .iter()
                    .map(record)
                    .collect();
                super::out::list(ctx, to, "Membrete", &rows, filters)?;
            }
        }
        Ok(Status::Ok)
    }
}
