//! `vigia offer record-external`: record a first stage concluded outside vigia (its adjudication
//! date, the shares awarded and the acta's reference), so that the program's later stages run in
//! vigia. Maps flags to the rule's input; the rule is `register::external`.

use super::{CliError, Ctx, Status, args};
use crate::register::external::{self as rules, External};
use crate::store::programs;
use chrono::NaiveDate;
use clap::Args;

/// The flags of `offer record-external`.
#[derive(Debug, Args)]
pub struct RecordExternal {
    /// Program code.
    #[arg(value_parser = super::args::text)]
    code: String,
    /// The day the first stage was adjudicated (the acta's date of adjudication).
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    on: NaiveDate,
    /// The shares it awarded (0 or more); the rest of the program's shares_offered is left for
    /// the Second Stage. Must equal the shares of the adjudications imported, if any.
    #[arg(long, value_name = "N", value_parser = awarded)]
    awarded: u64,
    /// The reference of the acta that states the adjudication, e.g. "Acta 014 de 2007".
    #[arg(value_parser = super::args::text, long, value_name = "REF")]
    acta: String,
}

/// A whole number of shares, zero allowed (a first stage may have sold none).
fn awarded(s: &str) -> Result<u64, super::args::Unread> {
    crate::input::count(s).map_err(super::args::Unread::from)
}

impl RecordExternal {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        let mut store = ctx.store()?;
        let p = programs::by_code(store.conn(), &self.code)?;
        let e = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
            rules::record(
                tx,
                &p,
                External {
                    on: self.on,
                    awarded: self.awarded,
                    acta: &self.acta,
                },
            )
        })?;
        writeln!(
            ctx.out,
            "first stage of {} recorded as concluded outside vigia (record {}): adjudicated on {}, {} of {} shares \
             awarded, {} left for the Second Stage ({})",
            p.program.code, e.id, e.adjudicated_on, e.awarded, e.offered, e.leftover, e.acta
        )?;
        Ok(Status::Ok)
    }
}
