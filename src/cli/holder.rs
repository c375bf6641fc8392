//! `vigia holder ...`: a holder's contact details (address, city, e-mail), corrected by a new
//! version (audited, never an edit), and their history.

use super::{CliError, Ctx, Status};
use crate::ids::DocType;
use crate::register::{self, holder::Update};
use crate::report::records::{self, Format};
use crate::store::contacts;
use clap::Subcommand;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum HolderCommand {
    /// Correct where a holder receives letters: each flag given replaces that detail (an empty
    /// value clears it); the others stay. The new version is audited; documents already issued
    /// keep the one in force when they were.
    Update {
        /// The holder's document number.
        #[arg(value_parser = super::args::text)]
        doc: String,
        /// The document type, when the number alone names several holders.
        #[arg(long, value_name = "TYPE", value_parser = parse_doc_type)]
        doc_type: Option<DocType>,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        address: Option<String>,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        city: Option<String>,
        #[arg(value_parser = super::args::text, long, value_name = "ADDRESS")]
        email: Option<String>,
    },
    /// A holder's contact details, every version, oldest first.
    Show {
        #[arg(value_parser = super::args::text)]
        doc: String,
        #[arg(long, value_name = "TYPE", value_parser = parse_doc_type)]
        doc_type: Option<DocType>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

fn parse_doc_type(s: &str) -> Result<DocType, super::args::Unread> {
    DocType::read(s).map_err(super::args::Unread)
}

fn refused(e: register::Error) -> CliError {
    match e {
        register::Error::Refused(r) => CliError::Refusal {
            refusal: Box::new(r),
            flag: |f| match f {
                register::Field::Holder => "DOC",
                other => super::flag_of(other),
            },
        },
        other => other.into(),
    }
}

impl HolderCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            HolderCommand::Update {
                doc,
                doc_type,
                address,
                city,
                email,
            } => {
                let mut store = ctx.store()?;
                let officer = ctx.officer();
                let update = Update {
                    address,
                    city,
                    email,
                };
                let (h, c, id) = store.write::<_, CliError>(&officer, |tx| {
                    let h = register::holder::find(tx.conn(), &doc, doc_type).map_err(refused)?;
                    let (c, id) = register::holder::update(tx, h.id, &update).map_err(refused)?;
                    Ok((h, c, id))
                })?;
                ctx.say(crate::catalogue::msg::Msg::HolderUpdated {
                    doc_type: &h.doc_type.to_string(),
                    doc_number: &h.doc_number,
                    name: &h.name,
                    version: id,
                    address: c.address.as_deref(),
                    city: c.city.as_deref(),
                    email: c.email.as_deref(),
                })?;
                Ok(Status::Ok)
            }
            HolderCommand::Show {
                doc,
                doc_type,
                format,
            } => {
                let store = ctx.store()?;
                let h = register::holder::find(store.conn(), &doc, doc_type).map_err(refused)?;
                let rows: Vec<Value> = contacts::history(store.conn(), h.id)?
                    .iter()
                    .map(|v| {
                        json!({"version": v.id, "name": h.name, "address": v.contact.address,
                               "city": v.contact.city, "email": v.contact.email,
                               "recorded_at": v.created_at, "recorded_by": v.created_by})
                    })
                    .collect();
                write!(ctx.out, "{}", records::list_in(&rows, format, ctx.lang))?;
                Ok(Status::Ok)
            }
        }
    }
}
