//! `vigia rates ...`: show the series in force and check a rates file.

use super::{CliError, Ctx, Status, read_file};
use crate::rates::{RateSeries, check_csv};
use crate::report::rates as report;
use clap::{Subcommand, ValueEnum};
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
                if problems.is_empty() {
                    let series = RateSeries::from_csv(&text, &name).map_err(CliError::Rates)?;
                    let (a, b) = series.coverage().unwrap_or_default();
                    writeln!(
                        ctx.out,
                        "{name}: {} periods, {a}..{b}, no problems",
                        series.periods().len()
                    )?;
                    Ok(Status::Ok)
                } else {
                    write!(ctx.out, "{}", report::problems_text(&problems))?;
                    writeln!(ctx.out, "{name}: {} problem(s)", problems.len())?;
                    Ok(Status::Findings)
                }
            }
        }
    }
}
