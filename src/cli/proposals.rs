//! `vigia proposals import`: a later stage's proposals from CSV (all or nothing, every bad line
//! named; the same file twice adds nothing).

use super::adjudications::ImportFile;
use super::{CliError, Ctx, Status};
use crate::catalogue::msg::{Msg, Rows};
use crate::register::stage::{self as rules, Imported};
use crate::store::programs;
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum ProposalsCommand {
    /// Import a stage's proposals from CSV or a workbook: columns proposal,filed_at,bidders,shares,
    /// price_per_share,term_days and optionally beneficial_owner,guarantee,funds_accredited,
    /// review,tranche (header order free). bidders: DOC_TYPE:NUMBER:NAME, several separated by
    /// '|' (a joint proposal). CSV (UTF-8 or the es-CO Excel export) or a workbook, headers in
    /// English or Spanish. Nothing is written unless every
    /// row is valid; the same file twice adds nothing.
    Import {
        file: PathBuf,
        /// Program code.
        #[arg(value_parser = super::args::text, long)]
        program: String,
        /// 2 (Segunda Etapa) or 3 (Tercera Etapa).
        #[arg(long, value_parser = super::stage::stage_arg())]
        stage: crate::later_stages::Stage,
        /// In a workbook (.xlsx, .xls, .ods), the sheet to read (default: the first).
        #[arg(value_parser = super::args::text, long, value_name = "NAME")]
        sheet: Option<String>,
    },
}

impl ProposalsCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        let ProposalsCommand::Import {
            file: path,
            program,
            stage,
            sheet,
        } = self;
        let f = ImportFile::read(&path, "proposals import", sheet.as_deref())?;
        let bar = super::progress::Progress::new(
            super::progress::Counting::Proposals,
            super::progress::rows_of(&f.bytes),
            ctx.lang,
        );
        let mut tick = bar.counter();
        let mut store = ctx.store()?;
        let p = programs::by_code(store.conn(), &program)?;
        // each row read, judged and written in the transaction (all or nothing)
        let result = store
            .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                rules::import(
                    tx,
                    &p,
                    stage,
                    (&f.name, &f.sha256, f.dialect.encoding),
                    &f.bytes,
                    &mut |_| tick(),
                )
            })
            .map_err(|e| f.rejected(e));
        drop(tick);
        bar.done();
        let result = result?;
        match result {
            Imported::Added(w) => ctx.say(Msg::Imported {
                rows: Rows::Proposals,
                import: w.import_id,
                added: w.rows as u64,
                ids: Some((w.first_id, w.last_id)),
                new_holders: 0,
                stage: Some((stage.number(), &program)),
                read: f.read_as(),
            })?,
            Imported::AlreadyImported(prior) => ctx.say(f.already(Rows::Proposals, &prior))?,
        }
        Ok(Status::Ok)
    }
}
