//! `vigia payment ...`: record and list payments against a breach's fine.

use super::{CliError, Ctx, Status, args};
use crate::register::payment::NewPayment;
use crate::report::records::{self, Format};
use crate::store::breaches;
use chrono::NaiveDate;
use clap::Subcommand;
use rust_decimal::Decimal;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum PaymentCommand {
    /// Record a payment against a breach's fine (imputed to interest first, then capital).
    Record {
        #[arg(long, value_name = "ID")]
        breach: i64,
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: NaiveDate,
        #[arg(long, value_name = "X", value_parser = args::amount, allow_negative_numbers = true)]
        amount: Decimal,
        /// Bank reference, receipt number.
        #[arg(long, value_name = "TEXT")]
        reference: Option<String>,
    },
    /// List the payments of a breach.
    List {
        #[arg(long, value_name = "ID")]
        breach: i64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
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
            } => {
                let mut store = ctx.store()?;
                let new = NewPayment {
                    breach_id: breach,
                    paid_on: date,
                    amount,
                    reference: reference.as_deref(),
                };
                let id = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::payment::record(tx, &new)
                })?;
                writeln!(
                    ctx.out,
                    "payment {id}: {} on {date} against breach {breach}",
                    crate::money::format_cop(amount)
                )?;
            }
            PaymentCommand::List { breach, format } => {
                let store = ctx.store()?;
                let rows: Vec<Value> = breaches::payments(store.conn(), breach)?
                    .iter()
                    .map(|p| json!({"id": p.id, "breach_id": p.breach_id, "date": p.paid_on.to_string(), "amount": p.amount.to_string(),
                                    "reference": p.reference, "recorded_at": p.created_at, "recorded_by": p.created_by}))
                    .collect();
                write!(ctx.out, "{}", records::list(&rows, format))?;
            }
        }
        Ok(Status::Ok)
    }
}
