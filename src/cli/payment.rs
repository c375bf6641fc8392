//! `vigia payment ...`: record, list and void payments against a breach's fine.

use super::{CliError, Ctx, Status, args};
use crate::register::payment::NewPayment;
use crate::store::breaches;
use chrono::NaiveDate;
use clap::Subcommand;
use rust_decimal::Decimal;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum PaymentCommand {
    /// Record a payment against a breach's fine (imputed to interest first, then capital).
    Record {
        #[arg(long, value_name = "ID", value_parser = super::args::id)]
        breach: i64,
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: NaiveDate,
        #[arg(long, value_name = "X", value_parser = args::paid, allow_negative_numbers = true)]
        amount: Decimal,
        /// Bank reference, receipt number.
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reference: Option<String>,
        /// Record it even though a payment with the same date, amount and reference is already
        /// recorded against the breach (two real payments alike).
        #[arg(long)]
        allow_duplicate: bool,
    },
    /// Void a payment recorded by mistake: it stays on record, marked void, with who, when and
    /// why, and no figure counts it any more (stored liquidations and notices keep theirs;
    /// `notice verify` says they were superseded).
    Void {
        /// Payment id (see `vigia payment list`).
        #[arg(value_parser = super::args::id)]
        id: i64,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: String,
    },
    /// List the payments of a breach, voided ones included (with who voided them, when and why).
    List {
        #[arg(long, value_name = "ID", value_parser = super::args::id)]
        breach: i64,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

impl PaymentCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            PaymentCommand::Record {
                breach,
                date,
                amount,
                reference,
                allow_duplicate,
            } => {
                let mut store = ctx.store()?;
                let new = NewPayment {
                    breach_id: breach,
                    paid_on: date,
                    amount,
                    reference: reference.as_deref(),
                    // the officer's local date: no payment is recorded before it is made
                    today: ctx.today(),
                    allow_duplicate,
                };
                let id = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::payment::record(tx, &new)
                })?;
                ctx.say(crate::catalogue::msg::Msg::PaymentRecorded {
                    id,
                    amount,
                    date,
                    breach,
                })?;
            }
            PaymentCommand::List {
                breach,
                format,
                out,
            } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let filters = vec![(
                    "Incumplimiento".to_string(),
                    crate::report::excel::Cell::Count(breach),
                )];
                let store = ctx.store()?;
                let rows: Vec<Value> = breaches::payments_recorded(store.conn(), breach)?
                    .iter()
                    .map(|p| json!({"id": p.id, "breach_id": p.breach_id, "date": p.paid_on.to_string(), "amount": p.amount.to_string(),
                                    "reference": p.reference, "recorded_at": p.created_at, "recorded_by": p.created_by,
                                    "void_reason": p.void.as_ref().map(|v| v.reason.clone()),
                                    "voided_at": p.void.as_ref().map(|v| v.at.clone()),
                                    "voided_by": p.void.as_ref().map(|v| v.by.clone())}))
                    .collect();
                super::out::list(ctx, to, "Pagos", &rows, filters)?;
            }
            PaymentCommand::Void { id, reason } => {
                let mut store = ctx.store()?;
                let vid = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::payment::void(tx, id, &reason)
                })?;
                ctx.say(crate::catalogue::msg::Msg::PaymentVoided { id, void: vid })?;
            }
        }
        Ok(Status::Ok)
    }
}
