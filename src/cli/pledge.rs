//! `vigia pledge ...`: register and release the pledge of adjudicated shares (Art. 10).

use super::{CliError, Ctx, Status, args};
use crate::store::{adjudications, programs};
use chrono::NaiveDate;
use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum PledgeCommand {
    /// Register the pledge of an adjudication's shares to the sellers: rank 1 (first degree
    /// without tenancy) or 2 (second degree, when the financing lender holds the first).
    Register {
        /// Adjudication id.
        adjudication: i64,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
        rank: u8,
        /// Date the pledge was registered in the share ledger.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        registered_on: NaiveDate,
        /// The financing lender (default: the adjudication's lender).
        #[arg(long, value_name = "NAME")]
        lender: Option<String>,
    },
    /// Release the pledges of an adjudication: refused while the lock-up runs or a fine of that
    /// adjudication is outstanding.
    Release {
        adjudication: i64,
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
    },
}

impl PledgeCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            PledgeCommand::Register {
                adjudication,
                rank,
                registered_on,
                lender,
            } => {
                let mut store = ctx.store()?;
                let adj = adjudications::get(store.conn(), adjudication)?;
                let program = programs::by_id(store.conn(), adj.program_id)?;
                let sellers: Vec<&str> = program
                    .program
                    .sellers
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect();
                let beneficiary = sellers.join(" y ");
                let id = store.write(&ctx.officer(), |tx| {
                    adjudications::register_pledge(
                        tx,
                        &adj,
                        &beneficiary,
                        rank,
                        registered_on,
                        lender.as_deref(),
                    )
                })?;
                writeln!(
                    ctx.out,
                    "pledge {id}: {} shares of adjudication {adjudication}, rank {rank}, to {beneficiary}, registered {registered_on}",
                    adj.shares
                )?;
            }
            PledgeCommand::Release { adjudication, on } => {
                let rates = ctx.rates()?;
                let mut store = ctx.store()?;
                let ids = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::release_pledges(tx, adjudication, on, &rates)
                })?;
                writeln!(
                    ctx.out,
                    "released the pledge(s) of adjudication {adjudication} on {on} (release ids {ids:?})"
                )?;
            }
        }
        Ok(Status::Ok)
    }
}
