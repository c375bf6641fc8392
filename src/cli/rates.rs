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
    /// Add the periods of the SFC's certification history (the workbook the Superintendencia
    /// publishes, .xls/.xlsx, or its CSV export), all or nothing.
    ///
    /// Takes the line the series follows: the single bancario corriente to 2006, consumo and
    /// crédito comercial y de consumo in January–March 2007, crédito de consumo y ordinario from
    /// April 2007; other modalities are left aside. Periods in force with the same days and IBC
    /// are left as they are (their published usury figure stays); the others are added with
    /// their resolution, the moratorium rate being 1.5 × IBC, under the checks of `rates add`.
    /// Certifications that start before 1990 are left out.
    #[command(name = "import-sfc")]
    ImportSfc {
        /// The history: Historicocertificacionsuperfinancieratasasdeinteres.xls, or a CSV of it.
        file: PathBuf,
        /// Show what would be added, superseded and left as it is; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Replace the periods in force that the file certifies differently (they stay on record).
        #[arg(long, requires = "reason")]
        supersede: bool,
        /// Why the periods in force are replaced.
        #[arg(long, value_name = "TEXT", requires = "supersede")]
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
                            ctx.say(crate::catalogue::msg::Msg::RatesCovered {
                                count: series.periods().len() as u64,
                                from: a,
                                to: b,
                                source: series.source(),
                            })?;
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
                    ctx.say(crate::catalogue::msg::Msg::RatesFileSound {
                        name: &name,
                        count: series.periods().len() as u64,
                        from: a,
                        to: b,
                    })?;
                    Ok(Status::Ok)
                } else {
                    ctx.say(crate::catalogue::msg::Msg::RatesFileProblems {
                        name: &name,
                        count: count as u64,
                    })?;
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
                    what: crate::catalogue::said(&crate::catalogue::msg::Msg::RatesImportOf {
                        name: &name,
                        sfc: false,
                    }),
                    problems: e.problems.iter().map(problem_said).collect(),
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
                ctx.say(crate::catalogue::msg::Msg::RatesAdded {
                    count: added.len() as u64,
                    name: &name,
                })?;
                Ok(Status::Ok)
            }
            RatesCommand::ImportSfc {
                file,
                dry_run,
                supersede,
                reason,
            } => import_sfc(ctx, &file, dry_run, reason.as_deref().filter(|_| supersede)),
        }
    }
}

/// `vigia rates import-sfc`: the history read, compared with the series in force (inside the
/// write transaction unless it is a dry run), and what changes listed.
fn import_sfc(
    ctx: &mut Ctx<'_>,
    file: &std::path::Path,
    dry_run: bool,
    supersede: Option<&str>,
) -> Result<Status, CliError> {
    let bytes = std::fs::read(file).map_err(|e| CliError::File {
        flag: "rates import-sfc",
        path: file.to_path_buf(),
        error: e.to_string(),
    })?;
    let name = file.display().to_string();
    let many = |problems: Vec<crate::rates::Problem>| CliError::Many {
        what: crate::catalogue::said(&crate::catalogue::msg::Msg::RatesImportOf {
            name: &name,
            sfc: true,
        }),
        problems: problems.iter().map(problem_said).collect(),
    };
    let reading = crate::rates_sfc::read_file(&bytes).map_err(many)?;
    let read = reading.periods(&name).map_err(many)?;
    writeln!(
        ctx.out,
        "{name}: {} certification(s) of the series (bancario corriente to 2006, consumo and \
         crédito comercial y de consumo in January–March 2007, crédito de consumo y ordinario \
         from April 2007); {} row(s) of other modalities left aside",
        reading.certifications.len(),
        reading.other_rows
    )?;
    if let Some(last) = read.before_first_date.last() {
        writeln!(
            ctx.out,
            "left out: {} certification(s) that start before {} (vigia reads no earlier date), \
             the last {} for {}..{}",
            read.before_first_date.len(),
            crate::calendar::FIRST_DATE,
            last.resolution(),
            last.valid_from,
            last.valid_to
        )?;
    }
    for cut in &reading.cuts {
        writeln!(
            ctx.out,
            "cut: {} ({}..{}) governs to {}: {} certified {}..{} after it",
            cut.earlier.resolution(),
            cut.earlier.valid_from,
            cut.file_to,
            cut.earlier.valid_to,
            cut.by.resolution(),
            cut.by.valid_from,
            cut.by.valid_to
        )?;
    }
    let (plan, added) = if dry_run {
        let store = ctx.store()?;
        let plan = crate::register::rates::plan(store.conn(), &read.periods)?;
        (plan, Vec::new())
    } else {
        let mut store = ctx.store()?;
        store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
            crate::register::rates::import(tx, &read.periods, supersede)
        })?
    };
    writeln!(
        ctx.out,
        "unchanged: {} period(s) in force with the same days and IBC (their published usury \
         figures stay)",
        plan.unchanged.len()
    )?;
    for (now, theirs) in &plan.unchanged {
        if now.resolution != theirs.resolution {
            writeln!(
                ctx.out,
                "  {}..{}: in force as {}, the file says {} (kept as in force)",
                now.valid_from, now.valid_to, now.resolution, theirs.resolution
            )?;
        }
    }
    let verb = if dry_run { "would add" } else { "adds" };
    writeln!(
        ctx.out,
        "new: {} period(s) ({verb}; moratorium 1.5 × IBC: the history prints no usury figure)",
        plan.new.len()
    )?;
    if dry_run {
        for p in &plan.new {
            writeln!(ctx.out, "  {}", period_line(p))?;
        }
    }
    writeln!(
        ctx.out,
        "supersede: {} period(s) in force certified differently by the file",
        plan.superseding.len()
    )?;
    for (p, old) in &plan.superseding {
        for (origin, q) in old {
            let origin = match origin {
                store_rates::Origin::Shipped => "embedded series".to_string(),
                store_rates::Origin::Register(id) => format!("register rate {id}"),
            };
            writeln!(
                ctx.out,
                "  {}..{} IBC {} ({}, {origin}) → {}",
                q.valid_from,
                q.valid_to,
                q.ibc_ea_pct.map_or("-".to_string(), |i| i.to_string()),
                q.resolution,
                period_line(p)
            )?;
        }
    }
    // before Ley 510 de 1999 (3 August 1999) 1.5 × IBC was not the statutory moratorium rate
    let ley_510 = NaiveDate::from_ymd_opt(1999, 8, 3).unwrap_or(NaiveDate::MIN);
    let early = plan
        .to_add()
        .iter()
        .filter(|p| p.valid_from < ley_510)
        .count();
    if early > 0 {
        writeln!(
            ctx.out,
            "  warning: {early} period(s) start before {ley_510} (Ley 510 de 1999 art. 111): \
             1.5 × IBC was not yet the statutory moratorium rate then (it amended C.Co. art. 884); \
             check before liquidating over them"
        )?;
    }
    if dry_run {
        ctx.say(crate::catalogue::msg::Msg::RatesDryRun)?;
        return Ok(Status::Ok);
    }
    for (p, a) in plan.to_add().iter().zip(&added) {
        report_added(ctx, p, a)?;
    }
    ctx.say(crate::catalogue::msg::Msg::RatesAdded {
        count: added.len() as u64,
        name: &name,
    })?;
    Ok(Status::Ok)
}

/// A period to add, on one line.
fn period_line(p: &RatePeriod) -> String {
    format!(
        "{}..{} IBC {} % → moratorium {} % EA ({})",
        p.valid_from,
        p.valid_to,
        p.ibc_ea_pct.map_or("-".to_string(), |i| i.to_string()),
        p.moratorium_ea_pct(),
        p.resolution
    )
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

/// A rates file's problem in both languages.
fn problem_said(p: &crate::rates::Problem) -> crate::lang::Said {
    crate::lang::Said::new(
        p.in_lang(crate::lang::Lang::En),
        p.in_lang(crate::lang::Lang::Es),
    )
}

fn report_added(
    ctx: &mut Ctx<'_>,
    p: &RatePeriod,
    added: &store_rates::Added,
) -> Result<(), CliError> {
    ctx.say(crate::catalogue::msg::Msg::RateAdded {
        id: added.id,
        from: p.valid_from,
        to: p.valid_to,
        moratorium: p.moratorium_ea_pct(),
        resolution: &p.resolution.to_string(),
    })?;
    for (a, b) in &added.superseded {
        ctx.say(crate::catalogue::msg::Msg::RateSupersedes { from: *a, to: *b })?;
        if *a < p.valid_from || *b > p.valid_to {
            ctx.say(crate::catalogue::msg::Msg::RateGap {
                from: *a,
                to: *b,
                kept_from: p.valid_from,
                kept_to: p.valid_to,
            })?;
        }
    }
    Ok(())
}
