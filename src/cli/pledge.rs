//! `vigia pledge ...`: register, import, release and void the pledge of adjudicated shares
//! (Art. 10).

use super::adjudications::ImportFile;
use super::{CliError, Ctx, Status, args};
use crate::catalogue::msg::{Msg, Rows};
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
        #[arg(value_parser = super::args::id)]
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
    /// Release the pledges of an adjudication: refused while the lock-up runs, a fine of that
    /// adjudication is outstanding, or one is still provisional (a later stage pending may raise
    /// it). With --pledge instead of an adjudication: that one pledge,
    /// under the same rules (one of several in force, say). With --releasable: every pledge the
    /// batch check reports as PLEDGE_RELEASABLE on that date, in one transaction.
    Release {
        /// Adjudication id (omit with --pledge or --releasable).
        #[arg(
            required_unless_present_any = ["releasable", "pledge"],
            conflicts_with_all = ["releasable", "pledge"],
            value_parser = super::args::id
        )]
        adjudication: Option<i64>,
        /// Release only this pledge (see `vigia adjudications show ADJ`).
        #[arg(long, value_name = "ID", conflicts_with = "releasable", value_parser = super::args::id)]
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
        #[arg(value_parser = super::args::id)]
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
                    ctx.say(Msg::PledgeAlready {
                        id: p.id,
                        adjudication,
                        rank,
                        registered: registered_on,
                    })?;
                } else {
                    ctx.say(Msg::PledgeRegistered {
                        id: p.id,
                        shares: p.shares,
                        adjudication,
                        rank,
                        to: &p.beneficiary,
                        registered: registered_on,
                    })?;
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
                            &f.bytes,
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
                        ctx.say(Msg::Imported {
                            rows: Rows::Pledges,
                            import: import_id,
                            added: pledges as u64,
                            ids: (pledges > 0).then_some((first_id, last_id)),
                            new_holders: 0,
                            stage: None,
                            read: f.read_as(),
                        })?;
                        if unchanged.count > 0 {
                            ctx.say(super::adjudications::unchanged(&unchanged, Rows::Pledges))?;
                        }
                    }
                    PledgesImported::AlreadyImported(prior) => {
                        ctx.say(f.already(Rows::Pledges, &prior))?
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
                ctx.say(Msg::PledgeReleased {
                    pledge,
                    on,
                    release: id,
                })?;
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
                            what: crate::catalogue::said(&Msg::ReleaseOf { on }),
                            problems: problems
                                .iter()
                                .map(|r| {
                                    crate::lang::Said::new(
                                        super::refusal(r, super::flag_of),
                                        super::refusal_in(crate::lang::Lang::Es, r, super::flag_of),
                                    )
                                })
                                .collect(),
                        },
                        other => other.into(),
                    })?;
                match released {
                    Some(r) => ctx.say(Msg::PledgesReleased {
                        adjudications: r.adjudications as u64,
                        on,
                        first: r.first_id,
                        last: r.last_id,
                    })?,
                    None => ctx.say(Msg::NoPledgeReleasable { on })?,
                }
                // what could not be decided is said, and released later
                for u in &found.undecided {
                    writeln!(
                        ctx.out,
                        "{} (RATE_MISSING)",
                        crate::catalogue::of(ctx.lang).undecided(u)
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
                ctx.say(Msg::PledgesOfReleased {
                    adjudication,
                    on,
                    ids: &ids,
                })?;
            }
            PledgeCommand::Void { id, reason } => {
                let mut store = ctx.store()?;
                let vid = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::pledge::void(tx, id, &reason)
                })?;
                ctx.say(Msg::PledgeVoided { id, void: vid })?;
            }
        }
        Ok(Status::Ok)
    }
}
