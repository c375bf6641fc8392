//! `vigia calendar ...`: the Colombian public holidays that move payment deadlines.

use super::{CliError, Ctx, Status};
use crate::holidays;
use clap::Subcommand;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum CalendarCommand {
    /// The public holidays of a year (Ley 51 de 1983, Easter-based feasts included).
    Holidays {
        #[arg(value_parser = super::args::year)]
        year: i32,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

impl CalendarCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            CalendarCommand::Holidays { year, format, out } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let filters = vec![(
                    "Año".to_string(),
                    crate::report::excel::Cell::Count(i64::from(year)),
                )];
                let (first, last) = (holidays::FIRST_YEAR, holidays::LAST_YEAR);
                if !(first..=last).contains(&year) {
                    return Err(CliError::Wrong {
                        flag: "calendar holidays".into(),
                        value: year.to_string(),
                        why: crate::said!(cli::holidays_year_range, first, last),
                    });
                }
                let rows: Vec<Value> = holidays::holidays(year)
                    .iter()
                    .map(|h| {
                        json!({"date": h.date.to_string(), "weekday": weekday_es(h.date), "holiday": h.name,
                               "moved_from": h.moved_from.map(|d| d.to_string())})
                    })
                    .collect();
                super::out::list(ctx, to, "Festivos", &rows, filters)?;
                Ok(Status::Ok)
            }
        }
    }
}

fn weekday_es(d: chrono::NaiveDate) -> &'static str {
    use chrono::Datelike;
    [
        "lunes",
        "martes",
        "miércoles",
        "jueves",
        "viernes",
        "sábado",
        "domingo",
    ][d.weekday().num_days_from_monday() as usize]
}
