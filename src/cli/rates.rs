//! `vigia rates ...`: show the series in force and check a rates file.

use super::{CliError, Ctx, Status, args, read_file};
use crate::catalogue::sfc::{InForce, Period, SfcLine};
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
        /// Certifying resolution, e.g. "SFC Res. 1650 de 2026 (30/10/2026)".
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
                write!(ctx.out, "{}", report::problems_text(&problems, ctx.lang))?;
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
                // held to the same checks as a rates file row, a problem naming the flag
                let typed = crate::rates::Typed {
                    valid_from: from,
                    valid_to: to,
                    ibc_ea_pct: ibc,
                    usury_ea_pct: usury,
                    resolution: &resolution,
                };
                let period = RateSeries::typed(typed, FLAGS, "rates add", force)
                    .map_err(|e| CliError::Said(refused_rates(from, to, &e.problems)))?;
                let (supersede, forced) = overriding(supersede, force, reason.as_deref());
                let mut store = ctx.store()?;
                let added = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::rates::add(tx, &period, supersede, forced)
                })?;
                report_added(ctx, &period, &added)?;
                let now = store_rates::series(store.conn())?;
                for w in crate::rates::jumps_around(&now, &period) {
                    let said = w.said();
                    let what = said.in_lang(ctx.lang);
                    ctx.say(crate::catalogue::msg::Msg::Warning { what })?;
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
                    writeln!(ctx.out, "  {}", p.in_lang(ctx.lang))?;
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
        error: e,
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
    ctx.sfc(&SfcLine::Read {
        name: &name,
        certifications: reading.certifications.len() as u64,
        other_rows: reading.other_rows as u64,
    })?;
    if let Some(last) = read.before_first_date.last() {
        ctx.sfc(&SfcLine::LeftOut {
            count: read.before_first_date.len() as u64,
            first_date: crate::calendar::FIRST_DATE,
            resolution: &last.resolution(),
            from: last.valid_from,
            to: last.valid_to,
        })?;
    }
    for cut in &reading.cuts {
        ctx.sfc(&SfcLine::Cut {
            earlier: &cut.earlier.resolution(),
            earlier_from: cut.earlier.valid_from,
            file_to: cut.file_to,
            governs_to: cut.earlier.valid_to,
            by: &cut.by.resolution(),
            by_from: cut.by.valid_from,
            by_to: cut.by.valid_to,
        })?;
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
    ctx.sfc(&SfcLine::Unchanged {
        count: plan.unchanged.len() as u64,
    })?;
    for (now, theirs) in &plan.unchanged {
        if now.resolution != theirs.resolution {
            ctx.sfc(&SfcLine::KeptResolution {
                from: now.valid_from,
                to: now.valid_to,
                in_force: &now.resolution.to_string(),
                file: &theirs.resolution.to_string(),
            })?;
        }
    }
    ctx.sfc(&SfcLine::New {
        count: plan.new.len() as u64,
        dry_run,
    })?;
    if dry_run {
        for p in &plan.new {
            let resolution = p.resolution.to_string();
            ctx.sfc(&SfcLine::Adds(period(p, &resolution)))?;
        }
    }
    ctx.sfc(&SfcLine::Supersede {
        count: plan.superseding.len() as u64,
    })?;
    for (p, old) in &plan.superseding {
        let resolution = p.resolution.to_string();
        for (origin, q) in old {
            ctx.sfc(&SfcLine::Supersedes {
                from: q.valid_from,
                to: q.valid_to,
                ibc: q.ibc_ea_pct,
                resolution: &q.resolution.to_string(),
                origin: match origin {
                    store_rates::Origin::Shipped => InForce::Shipped,
                    store_rates::Origin::Register(id) => InForce::Register(*id),
                },
                by: period(p, &resolution),
            })?;
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
        ctx.sfc(&SfcLine::BeforeLey510 {
            count: early as u64,
            ley_510,
        })?;
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

/// A period to add, as the plan's line lists it.
fn period<'a>(p: &RatePeriod, resolution: &'a str) -> Period<'a> {
    Period {
        from: p.valid_from,
        to: p.valid_to,
        ibc: p.ibc_ea_pct,
        moratorium: p.moratorium_ea_pct(),
        resolution,
    }
}

/// The reason given with `--reason`, as the reason to supersede and the reason to force.
fn overriding(supersede: bool, force: bool, reason: Option<&str>) -> (Option<&str>, Option<&str>) {
    (reason.filter(|_| supersede), reason.filter(|_| force))
}

/// What `rates add` calls a period's values: its flags.
const FLAGS: crate::rates::Names = crate::rates::Names {
    valid_from: "--from",
    valid_to: "--to",
    ibc_ea_pct: "--ibc",
    usury_ea_pct: "--usury",
};

/// A typed period's problems in one sentence; a usury figure that is not 1.5 × IBC says how to
/// keep it when the resolution does print it.
fn refused_rates(
    from: NaiveDate,
    to: NaiveDate,
    problems: &[crate::rates::Problem],
) -> crate::lang::Said {
    let why = |lang: crate::lang::Lang| {
        problems
            .iter()
            .map(|p| match p.kind {
                Kind::UsuryRatio => {
                    let force = crate::said!(cli::usury_ratio_confirm_with_force);
                    format!("{}; {}", p.message.in_lang(lang), force.in_lang(lang))
                }
                _ => p.message.in_lang(lang).to_string(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let (en, es) = (why(crate::lang::Lang::En), why(crate::lang::Lang::Es));
    let (desde, hasta) = (crate::lang::fecha(from), crate::lang::fecha(to));
    crate::said!(cli::rates_add_refused, from, to, en, desde, hasta, es)
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
