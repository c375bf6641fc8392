//! `vigia rates ...`: show the series in force and check a rates file.

use super::{CliError, Ctx, Status, args, read_file};
use crate::rates::{Kind, RatePeriod, RateSeries, check_csv};
use crate::report::rates as report;
use crate::store::rates as store_rates;
use chrono::NaiveDate;
use clap::{Subcommand, ValueEnum};
use rust_decimal::Decimal;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum RatesCommand {
    /// List the certified periods in force (the embedded SFC series, or --rates FILE).
    List {
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// Validate a rates CSV and report every problem with its line number.
    ///
    /// Exit 0 when the file is clean, 1 when it has problems (overlaps, gaps, malformed or
    /// implausible rates), 2 when it cannot be read.
    Check {
        /// The CSV file to check.
        file: PathBuf,
    },
    /// Add one certified period to the register (e.g. the SFC certification of a new month).
    #[command(group(clap::ArgGroup::new("overriding").args(["supersede", "force"]).multiple(true)))]
    Add {
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        from: NaiveDate,
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        to: NaiveDate,
        /// Interés bancario corriente, % EA (e.g. 19,06 or 19.06).
        #[arg(long, value_name = "PCT", value_parser = args::percent, allow_negative_numbers = true)]
        ibc: Decimal,
        /// Usury rate (= maximum moratorium rate), % EA, when the SFC prints it (default 1.5 × IBC).
        #[arg(long, value_name = "PCT", value_parser = args::percent, allow_negative_numbers = true)]
        usury: Option<Decimal>,
        /// Certifying resolution, e.g. "SFC Res. 1650 de 2026 (2026-10-30)".
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        resolution: String,
        /// Replace the periods this one overlaps (they stay on record).
        #[arg(long, requires = "reason")]
        supersede: bool,
        /// Accept a usury figure that is not 1.5 × IBC (within 0.05 points), after checking it
        /// against the resolution; the reason is kept in the audit trail.
        #[arg(long, requires = "reason")]
        force: bool,
        /// Why the overlapped periods are replaced (--supersede), or why the usury figure is
        /// right (--force).
        #[arg(value_parser = super::args::text, long, value_name = "TEXT", requires = "overriding")]
        reason: Option<String>,
    },
    /// Add every period of a rates CSV to the register, all or nothing.
    #[command(group(clap::ArgGroup::new("overriding").args(["supersede", "force"]).multiple(true)))]
    Import {
        file: PathBuf,
        #[arg(long, requires = "reason")]
        supersede: bool,
        #[arg(long, requires = "reason")]
        force: bool,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT", requires = "overriding")]
        reason: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Json,
}

impl RatesCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            RatesCommand::List { format } => {
                let series = ctx.rates()?;
                match format {
                    ListFormat::Table => {
                        writeln!(ctx.out, "{}", report::periods_table(series.periods()))?;
                        if let Some((a, b)) = series.coverage() {
                            writeln!(
                                ctx.out,
                                "{} periods, {a}..{b}; source: {}",
                                series.periods().len(),
                                series.source()
                            )?;
                        }
                    }
                    ListFormat::Json => {
                        let v = report::periods_json(series.periods());
                        writeln!(
                            ctx.out,
                            "{}",
                            serde_json::to_string_pretty(&v).expect("json")
                        )?;
                    }
                }
                Ok(Status::Ok)
            }
            RatesCommand::Check { file } => {
                let text = read_file(&file, "rates check")?;
                let problems = check_csv(&text);
                let name = file.display().to_string();
                // warnings are listed but are not problems
                let count = problems.iter().filter(|p| p.kind != Kind::Jump).count();
                write!(ctx.out, "{}", report::problems_text(&problems))?;
                if count == 0 {
                    let series = RateSeries::from_csv(&text, &name).map_err(CliError::Rates)?;
                    let (a, b) = series.coverage().unwrap_or_default();
                    writeln!(
                        ctx.out,
                        "{name}: {} periods, {a}..{b}, no problems",
                        series.periods().len()
                    )?;
                    Ok(Status::Ok)
                } else {
                    writeln!(ctx.out, "{name}: {count} problem(s)")?;
                    Ok(Status::Findings)
                }
            }
            RatesCommand::Add {
                from,
                to,
                ibc,
                usury,
                resolution,
                supersede,
                force,
                reason,
            } => {
                // held to the same checks as a rates file row
                let period =
                    RateSeries::typed_period(from, to, ibc, usury, &resolution, "rates add", force)
                        .map_err(|e| CliError::Flag {
                            flag: "rates add".into(),
                            value: format!("{from}..{to}"),
                            reason: refused_rates(&e.problems),
                        })?;
                let (supersede, forced) = overriding(supersede, force, reason.as_deref());
                let mut store = ctx.store()?;
                let added = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::rates::add(tx, &period, supersede, forced)
                })?;
                report_added(ctx, &period, &added)?;
                let now = store_rates::series(store.conn())?;
                for w in crate::rates::jumps_around(&now, &period) {
                    writeln!(ctx.out, "  warning: {w}")?;
                }
                Ok(Status::Ok)
            }
            RatesCommand::Import {
                file,
                supersede,
                force,
                reason,
            } => {
                let text = read_file(&file, "rates import")?;
                let name = file.display().to_string();
                let parsed = if force {
                    RateSeries::from_csv_forced(&text, &name)
                } else {
                    RateSeries::from_csv(&text, &name)
                };
                let series = parsed.map_err(|e| CliError::Many {
                    what: format!("rates import of {name}"),
                    problems: e.problems.iter().map(|p| p.to_string()).collect(),
                })?;
                let (supersede, forced) = overriding(supersede, force, reason.as_deref());
                let mut store = ctx.store()?;
                let periods: Vec<RatePeriod> = series.periods().to_vec();
                let added = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::rates::add_all(tx, &periods, supersede, forced)
                })?;
                for (p, a) in periods.iter().zip(&added) {
                    report_added(ctx, p, a)?;
                }
                for p in check_csv(&text).iter().filter(|p| p.kind == Kind::Jump) {
                    writeln!(ctx.out, "  {p}")?;
                }
                writeln!(ctx.out, "{} period(s) added from {name}", added.len())?;
                Ok(Status::Ok)
            }
        }
    }
}

/// The reason given with `--reason`, as the reason to supersede and the reason to force.
fn overriding(supersede: bool, force: bool, reason: Option<&str>) -> (Option<&str>, Option<&str>) {
    (reason.filter(|_| supersede), reason.filter(|_| force))
}

/// A typed period's problems in one sentence; a usury figure that is not 1.5 × IBC says how to
/// keep it when the resolution does print it.
fn refused_rates(problems: &[crate::rates::Problem]) -> String {
    problems
        .iter()
        .map(|p| match p.kind {
            Kind::UsuryRatio => format!(
                "{}; if the resolution prints exactly this figure, repeat with --force --reason TEXT",
                p.message
            ),
            _ => p.message.en().to_string(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn report_added(
    ctx: &mut Ctx<'_>,
    p: &RatePeriod,
    added: &store_rates::Added,
) -> Result<(), CliError> {
    writeln!(
        ctx.out,
        "rate {}: {}..{} moratorium {} % EA ({})",
        added.id,
        p.valid_from,
        p.valid_to,
        p.moratorium_ea_pct(),
        p.resolution
    )?;
    for (a, b) in &added.superseded {
        writeln!(ctx.out, "  supersedes {a}..{b} (kept on record)")?;
        if *a < p.valid_from || *b > p.valid_to {
            writeln!(
                ctx.out,
                "  warning: days of {a}..{b} outside {}..{} now have no rate; add them",
                p.valid_from, p.valid_to
            )?;
        }
    }
    Ok(())
}
