//! `vigia settlement ...`: the paz y salvo of a fine paid in full (numbered PAZ-YYYY-NNNN, written
//! like a notice and verified like one), and the list of those issued.

use super::notice::{DocFormat, by_number, finish_document, render_settlement, target_of};
use super::places::out_error;
use super::{CliError, Ctx, Status, args};
use crate::files;
use crate::register;
use crate::store::notices::Doc;
use crate::store::settlements;
use chrono::NaiveDate;
use clap::Subcommand;
use serde_json::json;
use std::path::PathBuf;
use std::time::SystemTime;

#[derive(Debug, Subcommand)]
pub enum SettlementCommand {
    /// Issue the paz y salvo of a breach's fine: refused unless the payments recorded leave
    /// nothing outstanding on the day of the last one. Numbered per program and year.
    Issue {
        /// Breach id.
        #[arg(value_parser = super::args::id)]
        breach: i64,
        /// The certificate's date (default: today); not before the last payment.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: Option<NaiveDate>,
        #[arg(long, value_enum, default_value_t = DocFormat::Pdf)]
        format: DocFormat,
        /// File to write (default: NUMBER.EXT in the current directory; a directory receives
        /// NUMBER.EXT). Never a symbolic link; never over an existing file without --force.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Check a paz y salvo document against the register (the same as `notice verify`; exit 0
    /// authentic and in force, 3 authentic but no longer in force, 1 does not match).
    Verify {
        file: PathBuf,
        /// A directory of the certificates the office trusts (see `notice verify`).
        #[arg(long, value_name = "DIR")]
        trust: Option<PathBuf>,
    },
    /// List the paz y salvo certificates issued.
    List {
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

impl SettlementCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            SettlementCommand::Issue {
                breach,
                date,
                format,
                out,
                force,
                sign,
            } => {
                // the key file opens before anything is issued (issue 26)
                let signer = sign.signer(format == DocFormat::Pdf)?;
                let started = SystemTime::now();
                let date = date.unwrap_or_else(|| ctx.today());
                let rates = ctx.rates()?;
                // the path, when --out names a file, is known before the number
                let fixed = target_of(out.as_deref(), "", format)?;
                let into_dir = out.as_ref().is_none_or(|p| p.is_dir());
                if !into_dir {
                    files::check_target(&fixed, force).map_err(|e| out_error("--out", e))?;
                }
                let mut store = ctx.store()?;
                let settlements = crate::program_sign::Signed::Settlements;
                super::sign::require_signed(
                    store.conn(),
                    &[breach],
                    settlements,
                    signer.is_some(),
                )?;
                let officer = ctx.officer();
                // one call into the rules; the document's file is reserved in the transaction
                // (its name is the number) and written after the commit
                let (issued, reserved) = store.write::<_, CliError>(&officer, |tx| {
                    let i = register::settlement::issue(tx, breach, date, ctx.today(), &rates)
                        .map_err(by_number)?;
                    let path = target_of(out.as_deref(), &i.settlement.number, format)?;
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        files::remove_stale(dir, started);
                    }
                    let reserved =
                        files::reserve(&path, force).map_err(|e| out_error("--out", e))?;
                    Ok((i, reserved))
                })?;
                let number = &issued.settlement.number;
                let bytes = render_settlement(&issued.data, format);
                let path = finish_document(
                    &mut store,
                    &officer,
                    reserved,
                    &bytes,
                    (Doc::Settlement(issued.settlement.id), format),
                    Some(super::notice::Committed::Settlement(number)),
                )?;
                if let Some(s) = &signer {
                    let issuer = Some(&issued.data.letters.issuer);
                    super::sign::sign_file(
                        s,
                        &path,
                        &crate::register::signing::settlement_reason(number),
                        issuer,
                    )?;
                }
                let l = &issued.data.liquidation;
                let paid: rust_decimal::Decimal = l.payments.iter().map(|p| p.amount).sum();
                ctx.say(crate::catalogue::msg::Msg::SettlementIssued {
                    number,
                    breach,
                    liquidation: issued.settlement.liquidation_id,
                    payments: l.payments.len() as u64,
                    paid,
                    until: l.until,
                    path: &path.display().to_string(),
                })?;
                Ok(Status::Ok)
            }
            SettlementCommand::Verify { file, trust } => {
                super::notice::verify(ctx, "settlement verify", &file, trust.as_deref())
            }
            SettlementCommand::List { format, out } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let found = settlements::list(store.conn())?;
                // a record at a time (a national register's certificates are tens of thousands)
                super::out::records(
                    ctx,
                    to,
                    "Paz y salvo",
                    &found,
                    |s| {
                        json!({"id": s.id, "number": s.number, "breach_id": s.breach_id,
                               "liquidation_id": s.liquidation_id, "date": s.settlement_date.to_string(),
                               "issued_at": s.created_at, "issued_by": s.created_by})
                    },
                    Vec::new(),
                )?;
                Ok(Status::Ok)
            }
        }
    }
}
