//! `vigia template KIND --out FILE.xlsx|FILE.csv`: an empty import file to fill in, with the
//! Spanish headers, one example row and (in a workbook) a sheet of notes on each column.

use super::{CliError, Ctx, Status};
use crate::report::template::{self, Kind};
use std::path::PathBuf;

/// Write an empty template of an import file.
#[derive(Debug, clap::Args)]
pub struct TemplateArgs {
    /// adjudications (adjudicaciones), pledges (prendas), acceptances (aceptaciones) or
    /// proposals (propuestas).
    #[arg(value_enum)]
    kind: Kind,
    /// Where to write it: a name ending in .xlsx (a workbook with a notes sheet) or .csv (UTF-8,
    /// `;`, as the es-CO Excel opens it).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(a: TemplateArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let ext = a
        .out
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let bytes = match ext.as_str() {
        "xlsx" => template::xlsx(a.kind).map_err(|e| CliError::Wrong {
            flag: "--out".into(),
            value: a.out.display().to_string(),
            why: crate::said!(cli::workbook_not_made, e),
        })?,
        "csv" => template::csv(a.kind),
        _ => {
            return Err(CliError::Wrong {
                flag: "--out".into(),
                value: a.out.display().to_string(),
                why: crate::said!(cli::template_xlsx_or_csv),
            });
        }
    };
    let placed = crate::files::write(&a.out, &bytes, a.force)
        .map_err(|e| super::places::out_error("--out", e))?;
    ctx.say(crate::catalogue::msg::Msg::TemplateWritten {
        path: &placed.display().to_string(),
    })?;
    Ok(Status::Ok)
}
