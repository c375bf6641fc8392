//! `vigia pledge ...`: register, import, release and void the pledge of adjudicated shares
//! (Art. 10).

use super::adjudications::ImportFile;
use super::{CliError, Ctx, Status, args};
use crate::import;
use crate::store::pledges::PledgesImported;
use crate::store::programs;
use chrono::NaiveDate;
use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum PledgeCommand {
    /// Register the pledge of an adjudication's shares to the sellers: rank 1 (first degree
    /// without tenancy) or 2 (second degree, when the financing lender holds the first). When a
    /// lender financed part of the adjudication, register two pledges: the financed shares in
    /// the second degree (--shares), the rest in the first (Art. 10). Pledges in force together
    /// cover at most the adjudicated shares.
    Register {
        /// Adjudication id.
        adjudication: i64,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
        rank: u8,
        /// Shares the pledge covers (default: every share of the adjudication that no pledge in
        /// force covers).
        #[arg(long, value_name = "N", value_parser = args::shares)]
        shares: Option<u64>,
        /// Date the pledge was registered in the share ledger (not after today).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        registered_on: NaiveDate,
        /// The financing lender (default: the adjudication's lender).
        #[arg(value_parser = super::args::text, long, value_name = "NAME")]
        lender: Option<String>,
    },
    /// Register pledges in bulk from CSV or a workbook: columns rank,registered_on and either adjudication_id
    /// or the holder's doc_type,doc_number (with adjudicated_on, and program, when the holder
    /// has several adjudications; with adjudication_id the document is checked against its
    /// holder); optionally lender (default: the adjudication's) and shares (the shares the
    /// pledge covers; default: every share not yet pledged). CSV (UTF-8 or the es-CO
    /// Excel export, `;`) or a workbook, headers in English or Spanish. Each row follows the rules of `pledge register`; rows already
    /// registered as they are (same adjudication, rank, date and lender, and shares when
    /// given) are reported unchanged; nothing is written unless every row passes, and the same
    /// file twice adds nothing.
    Import {
        file: std::path::PathBuf,
        /// In a workbook (.xlsx, .xls, .ods), the sheet to read (default: the first).
        #[arg(value_parser = super::args::text, long, value_name = "NAME")]
        sheet: Option<String>,
    },
    /// Release the pledges of an adjudication: refused while the lock-up runs or a fine of that
    /// adjudication is outstanding. With --pledge instead of an adjudication: that one pledge,
    /// under the same rules (one of several in force, say). With --releasable: every pledge the
    /// batch check reports as PLEDGE_RELEASABLE on that date, in one transaction.
    Release {
        /// Adjudication id (omit with --pledge or --releasable).
        #[arg(
            required_unless_present_any = ["releasable", "pledge"],
            conflicts_with_all = ["releasable", "pledge"]
        )]
        adjudication: Option<i64>,
        /// Release only this pledge (see `vigia adjudications show ADJ`).
        #[arg(long, value_name = "ID", conflicts_with = "releasable")]
        pledge: Option<i64>,
        /// Release every releasable pledge (of --program, or of every program).
        #[arg(long)]
        releasable: bool,
        /// With --releasable: only this program.
        #[arg(value_parser = super::args::text, long, requires = "releasable")]
        program: Option<String>,
        /// Date of the release (after the lock-up's last day, not before the pledge was
        /// registered, not after today).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
    },
    /// Void a pledge registered by mistake (not a release): it stays on record, marked void,
    /// with who, when and why, and no rule or figure counts it. A released pledge cannot be
    /// voided.
    Void {
        /// Pledge id (see `vigia adjudications show ADJ`).
        id: i64,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: String,
    },
}

impl PledgeCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            PledgeCommand::Register {
                adjudication,
                rank,
                shares,
                registered_on,
                lender,
            } => {
                let mut store = ctx.store()?;
                let p = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::pledge::register(
                        tx,
                        adjudication,
                        rank,
                        registered_on,
                        lender.as_deref(),
                        shares,
                        ctx.today(),
                    )
                })?;
                if p.unchanged {
                    writeln!(
                        ctx.out,
                        "pledge {} of adjudication {adjudication} (rank {rank}, registered {registered_on}) is already registered: nothing added",
                        p.id
                    )?;
                } else {
                    writeln!(
                        ctx.out,
                        "pledge {}: {} shares of adjudication {adjudication}, rank {rank}, to {}, registered {registered_on}",
                        p.id, p.shares, p.beneficiary
                    )?;
                }
            }
            PledgeCommand::Import { file, sheet } => {
                let f = ImportFile::read(&file, "pledge import", sheet.as_deref())?;
                let mut store = ctx.store()?;
                let bar = super::progress::Progress::new(
                    super::progress::Counting::Pledges,
                    super::progress::rows_of(&f.bytes),
                    ctx.lang,
                );
                let mut tick = bar.counter();
                let result = store
                    .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                        crate::register::pledge::import(
                            tx,
                            &f.name,
                            &f.sha256,
                            f.dialect.encoding,
                            ctx.today(),
                            |sink| {
                                let rows = |row| {
                                    tick();
                                    sink(row)
                                };
                                Ok(import::each_pledge_in_parallel(&f.bytes, rows)?.1)
                            },
                        )
                    })
                    .map_err(|e| f.rejected(e));
                drop(tick);
                bar.done();
                let result = result?;
                match result {
                    PledgesImported::Added {
                        import_id,
                        pledges,
                        first_id,
                        last_id,
                        unchanged,
                    } => {
                        let ids = if pledges > 0 {
                            format!(" (ids {first_id}..{last_id})")
                        } else {
                            String::new()
                        };
                        writeln!(
                            ctx.out,
                            "pledge import {import_id}: {pledges} pledge(s) registered{ids}; {}",
                            f.read_as()
                        )?;
                        if unchanged.count > 0 {
                            writeln!(
                                ctx.out,
                                "{}",
                                super::adjudications::unchanged(&unchanged, "pledge")
                            )?;
                        }
                    }
                    PledgesImported::AlreadyImported(prior) => {
                        writeln!(ctx.out, "{}", f.already("pledge import", &prior))?
                    }
                }
            }
            PledgeCommand::Release {
                adjudication: None,
                pledge: Some(pledge),
                on,
                ..
            } => {
                let rates = ctx.rates()?;
                let mut store = ctx.store()?;
                let id = store
                    .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                        crate::register::pledge::release_pledge(tx, pledge, on, ctx.today(), &rates)
                    })
                    .map_err(|e| match e {
                        // the pledge is this command's --pledge
                        crate::register::Error::Refused(r) => CliError::Refusal {
                            refusal: Box::new(r),
                            flag: |f| match f {
                                crate::register::Field::Pledge => "--pledge",
                                other => super::flag_of(other),
                            },
                        },
                        other => other.into(),
                    })?;
                writeln!(
                    ctx.out,
                    "released pledge {pledge} on {on} (release id {id})"
                )?;
            }
            PledgeCommand::Release {
                adjudication: None,
                program,
                on,
                ..
            } => {
                let rates = ctx.rates()?;
                let mut store = ctx.store()?;
                let program_id = program
                    .map(|c| programs::by_code(store.conn(), &c).map(|p| p.id))
                    .transpose()?;
                // the candidates: what the batch check reports as releasable on that date
                let opts = crate::check::Options {
                    as_of: on,
                    program_id,
                    within_days: 0,
                    min_severity: crate::check::Severity::Low,
                };
                let found = crate::check::adjudications_with(
                    store.conn(),
                    &opts,
                    &rates,
                    crate::check::Code::PledgeReleasable,
                )?;
                let candidates = found.ids;
                let released = store
                    .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                        crate::register::pledge::release_many(
                            tx,
                            &candidates,
                            on,
                            ctx.today(),
                            &rates,
                        )
                    })
                    .map_err(|e| match e {
                        crate::register::Error::Refusals(problems) => CliError::Many {
                            what: format!("release of the releasable pledges on {on}"),
                            problems: problems
                                .iter()
                                .map(|r| super::refusal(r, super::flag_of))
                                .collect(),
                        },
                        other => other.into(),
                    })?;
                match released {
                    Some(r) => writeln!(
                        ctx.out,
                        "released the pledges of {} adjudication(s) on {on} (release ids {}..{})",
                        r.adjudications, r.first_id, r.last_id
                    )?,
                    None => writeln!(ctx.out, "no pledge can be released on {on}")?,
                }
                // what could not be decided is said, and released later
                for u in &found.undecided {
                    writeln!(
                        ctx.out,
                        "{} (RATE_MISSING)",
                        crate::catalogue::of(crate::lang::Lang::En).undecided(u)
                    )?;
                }
            }
            PledgeCommand::Release {
                adjudication: Some(adjudication),
                on,
                ..
            } => {
                let rates = ctx.rates()?;
                let mut store = ctx.store()?;
                let ids = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::pledge::release(tx, adjudication, on, ctx.today(), &rates)
                })?;
                writeln!(
                    ctx.out,
                    "released the pledge(s) of adjudication {adjudication} on {on} (release ids {ids:?})"
                )?;
            }
            PledgeCommand::Void { id, reason } => {
                let mut store = ctx.store()?;
                let vid = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::pledge::void(tx, id, &reason)
                })?;
                writeln!(
                    ctx.out,
                    "pledge {id} voided (void {vid}); it stays on record and no rule counts it"
                )?;
            }
        }
        Ok(Status::Ok)
    }
}
