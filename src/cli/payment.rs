//! `vigia payment ...`: record and list payments against a breach's fine.

use super::{CliError, Ctx, Status, args};
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
                if amount <= Decimal::ZERO {
                    return Err(CliError::Flag {
                        flag: "--amount".into(),
                        value: amount.to_string(),
                        reason: "a payment must be greater than zero".into(),
                    });
                }
                let mut store = ctx.store()?;
                let b = breaches::get(store.conn(), breach)?;
                if let Some(v) = &b.void {
                    return Err(CliError::Flag {
                        flag: "--breach".into(),
                        value: breach.to_string(),
                        reason: format!(
                            "the breach was voided ({}); it has no fine to pay",
                            v.reason
                        ),
                    });
                }
                if date < b.breach_date {
                    return Err(CliError::Flag {
                        flag: "--date".into(),
                        value: date.to_string(),
                        reason: format!(
                            "is before the breach on {}; payments against the fine come after it",
                            b.breach_date
                        ),
                    });
                }
                let id = store.write(&ctx.officer(), |tx| {
                    breaches::record_payment(tx, breach, date, amount, reference.as_deref())
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
