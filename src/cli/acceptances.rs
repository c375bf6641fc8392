//! `vigia acceptances ...`: import first-stage acceptances from CSV (all or nothing) and list
//! them with their status.

use super::adjudications::ImportFile;
use super::{CliError, Ctx, Status};
use crate::catalogue::msg::{Msg, Rows};
use crate::offering::adjudicate::{self, Cause, Facts};
use crate::offering::file;
use crate::store::offering::{self as store, ImportedAcceptances};
use crate::store::programs::{self, StoredProgram};
use clap::{Subcommand, ValueEnum};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum AcceptancesCommand {
    /// Import acceptances from CSV or a workbook: columns filed_at,doc_type,doc_number,name,person_type,
    /// category,shares, and optionally accepts_reduction,files_tax_return,patrimonio_liquido,
    /// income,is_director,annual_salary,investment_limit,patrimonio_ajustado,declarations,
    /// dismissed_with_just_cause,review,lender,financed_shares (header order free; empty = not
    /// given), in English or Spanish; CSV (UTF-8 or the es-CO Excel export) or a workbook.
    /// category: one of the program's, or its numeral ((ii)), or `ninguna` for a filer who
    /// belongs to none (rejected at adjudication). Nothing is written unless every row is valid;
    /// the same file twice adds nothing.
    Import {
        file: PathBuf,
        /// Program code.
        #[arg(value_parser = super::args::text, long)]
        program: String,
        /// In a workbook (.xlsx, .xls, .ods), the sheet to read (default: the first).
        #[arg(value_parser = super::args::text, long, value_name = "NAME")]
        sheet: Option<String>,
    },
    /// List acceptances, each with its status: pending (not adjudicated yet), awarded or
    /// rejected, and the cause.
    List {
        #[arg(value_parser = super::args::text, long)]
        program: Option<String>,
        #[arg(long, value_enum, ignore_case = true)]
        status: Option<ListStatus>,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListStatus {
    /// The Spanish words the list prints are accepted too.
    #[value(alias = "pendiente")]
    Pending,
    #[value(alias = "adjudicada")]
    Awarded,
    #[value(alias = "rechazada")]
    Rejected,
}

impl ListStatus {
    fn as_str(self) -> &'static str {
        match self {
            ListStatus::Pending => "pending",
            ListStatus::Awarded => "awarded",
            ListStatus::Rejected => "rejected",
        }
    }
}

/// A stored outcome's status as the list shows it.
impl From<adjudicate::Status> for ListStatus {
    fn from(s: adjudicate::Status) -> ListStatus {
        match s {
            adjudicate::Status::Awarded => ListStatus::Awarded,
            adjudicate::Status::Rejected => ListStatus::Rejected,
        }
    }
}

const ROW_COLUMNS: [&str; 12] = [
    "id",
    "program",
    "line",
    "filed_at",
    "doc_type",
    "doc_number",
    "name",
    "category",
    "shares",
    "accepts_reduction",
    "status",
    "cause",
];

/// A person (document type and number) and their run's status and cause.
/// Each person's outcome in the stored run, by their document: a number of digits (the usual
/// document) kept as a number, any other as text, so that a million persons take tens of MB
/// where a map of two strings each took about 200 MB.
#[derive(Default)]
struct Outcomes {
    numeric: HashMap<(crate::ids::DocType, u64), (ListStatus, Option<Cause>)>,
    text: HashMap<(crate::ids::DocType, String), (ListStatus, Option<Cause>)>,
}

impl Outcomes {
    /// A document number as a number, when it reads back as itself (no sign, no leading zero).
    fn number(doc: &str) -> Option<u64> {
        let n: u64 = doc.parse().ok()?;
        (doc.bytes().all(|b| b.is_ascii_digit()) && n.to_string() == doc).then_some(n)
    }

    fn insert(
        &mut self,
        doc_type: crate::ids::DocType,
        doc: String,
        v: (ListStatus, Option<Cause>),
    ) {
        match Outcomes::number(&doc) {
            Some(n) => self.numeric.insert((doc_type, n), v),
            None => self.text.insert((doc_type, doc), v),
        };
    }

    fn get(&self, doc_type: crate::ids::DocType, doc: &str) -> Option<(ListStatus, Option<Cause>)> {
        match Outcomes::number(doc) {
            Some(n) => self.numeric.get(&(doc_type, n)).copied(),
            None => self.text.get(&(doc_type, doc.to_string())).copied(),
        }
    }
}

/// What a program's run says of each person: status and cause.
struct Judged {
    code: String,
    window: Option<adjudicate::Window>,
    program: crate::program::Program,
    by_person: Option<Outcomes>,
}

fn judged(conn: &rusqlite::Connection, p: &StoredProgram) -> Result<Judged, CliError> {
    let window = store::offer(conn, p.id)?.map(|o| o.window);
    let by_person = match store::run(conn, p.id)? {
        None => None,
        Some(run) => {
            // the outcomes with their persons in one join (not a read per outcome), read in
            // order with the small page cache and the sort on disk
            let mut m = Outcomes::default();
            crate::store::streaming(conn, || {
                store::each_outcome_with_speaker::<CliError>(conn, run.id, |o, speaker| {
                    m.insert(
                        speaker.doc_type,
                        speaker.doc_number,
                        (ListStatus::from(o.status), o.cause),
                    );
                    Ok(())
                })
            })??;
            Some(m)
        }
    };
    Ok(Judged {
        code: p.program.code.clone(),
        window,
        program: p.program.clone(),
        by_person,
    })
}

impl AcceptancesCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            AcceptancesCommand::Import {
                file: path,
                program,
                sheet,
            } => {
                let f = ImportFile::read(&path, "acceptances import", sheet.as_deref())?;
                let mut store = ctx.store()?;
                let p = programs::by_code(store.conn(), &program)?;
                let (bytes, dialect) = (&f.bytes, f.dialect);
                let bar = super::progress::Progress::new(
                    super::progress::Counting::Acceptances,
                    super::progress::rows_of(bytes),
                    ctx.lang,
                );
                let mut tick = bar.counter();
                let result = store
                    .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                        crate::register::offering::import(
                            tx,
                            &p,
                            &f.name,
                            &f.sha256,
                            dialect.encoding,
                            bytes,
                            |prepare, rows| {
                                let counted = |row: &_| {
                                    tick();
                                    prepare(row)
                                };
                                Ok(file::each_in_parallel(bytes, &p.program, counted, rows)?.1)
                            },
                        )
                    })
                    .map_err(|e| f.rejected(e));
                drop(tick);
                bar.done();
                let result = result?;
                match result {
                    ImportedAcceptances::Added {
                        import_id,
                        rows,
                        first_id,
                        last_id,
                    } => ctx.say(Msg::Imported {
                        rows: Rows::Acceptances,
                        import: import_id,
                        added: rows as u64,
                        ids: Some((first_id, last_id)),
                        new_holders: 0,
                        stage: None,
                        read: f.read_as(),
                    })?,
                    ImportedAcceptances::AlreadyImported(prior) => {
                        ctx.say(f.already(Rows::Acceptances, &prior))?
                    }
                }
            }
            AcceptancesCommand::List {
                program,
                status,
                format,
                out: out_path,
            } => {
                // refused before the register is read (a national one holds a million)
                let to = super::out::usable(format, out_path.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let conn = store.conn();
                let filters: crate::report::excel::Asked = [
                    super::out::filter("Programa", program.as_ref()),
                    super::out::filter("Estado", status.map(|s| s.as_str())),
                ]
                .into_iter()
                .flatten()
                .collect();
                let only = program.map(|c| programs::by_code(conn, &c)).transpose()?;
                let mut cache: HashMap<i64, Judged> = HashMap::new();
                if let Some(p) = &only {
                    cache.insert(p.id, judged(conn, p)?);
                }
                let mut out =
                    super::out::Listing::new(ctx, to, "Aceptaciones", &ROW_COLUMNS, filters)?;
                store::each_acceptance::<CliError>(
                    conn,
                    only.as_ref().map(|p| p.id),
                    |program_id, a| {
                        if let std::collections::hash_map::Entry::Vacant(e) =
                            cache.entry(program_id)
                        {
                            let p = programs::by_id(conn, program_id)?;
                            e.insert(judged(conn, &p)?);
                        }
                        let j = &cache[&program_id];
                        let r = &a.row;
                        let own = j.window.and_then(|w| {
                            adjudicate::judge(
                                &Facts {
                                    filed_on: r.filed_at.date(),
                                    category: &r.category,
                                    person_type: r.person_type,
                                    dismissed_with_just_cause: r.dismissed_with_just_cause,
                                    declarations: r.declarations,
                                    review: r.review,
                                },
                                w,
                                &j.program.eligibility(),
                            )
                        });
                        let (st, cause) = match &j.by_person {
                            None => (ListStatus::Pending, own),
                            Some(m) => match own {
                                // a filing rejected on its own stays rejected, whatever the person got
                                Some(c) => (ListStatus::Rejected, Some(c)),
                                None => m
                                    .get(r.doc_type, &r.doc_number)
                                    .unwrap_or((ListStatus::Pending, None)),
                            },
                        };
                        if status.is_some_and(|s| s != st) {
                            return Ok(());
                        }
                        out.push(&json!({
                            "id": a.id,
                            "program": j.code,
                            "line": r.line,
                            "filed_at": store::filed_text(r.filed_at),
                            "doc_type": r.doc_type,
                            "doc_number": r.doc_number,
                            "name": r.name,
                            "category": r.category,
                            "shares": r.shares,
                            "accepts_reduction": r.accepts_reduction,
                            "status": st.as_str(),
                            "cause": cause.map(Cause::as_str),
                        }))?;
                        Ok(())
                    },
                )?;
                out.finish()?;
            }
        }
        Ok(Status::Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::DocType;

    #[test]
    fn outcomes_keep_documents_apart_that_a_number_would_join() {
        let mut m = Outcomes::default();
        m.insert(DocType::Cc, "123".into(), (ListStatus::Awarded, None));
        m.insert(DocType::Cc, "0123".into(), (ListStatus::Rejected, None));
        m.insert(DocType::Nit, "123".into(), (ListStatus::Pending, None));
        m.insert(
            DocType::Cc,
            "900123456-8".into(),
            (ListStatus::Rejected, None),
        );
        // as many entries as documents, each found as it was given
        assert_eq!(m.numeric.len() + m.text.len(), 4);
        assert_eq!(m.get(DocType::Cc, "123"), Some((ListStatus::Awarded, None)));
        assert_eq!(
            m.get(DocType::Cc, "0123"),
            Some((ListStatus::Rejected, None))
        );
        assert_eq!(
            m.get(DocType::Nit, "123"),
            Some((ListStatus::Pending, None))
        );
        assert_eq!(
            m.get(DocType::Cc, "900123456-8"),
            Some((ListStatus::Rejected, None))
        );
        assert_eq!(m.get(DocType::Cc, "+123"), None);
        assert_eq!(m.get(DocType::Ce, "123"), None);
        // a number too large for 64 bits is kept as text
        let big = "123456789012345678901234567890";
        m.insert(DocType::Cc, big.into(), (ListStatus::Awarded, None));
        assert_eq!(m.get(DocType::Cc, big), Some((ListStatus::Awarded, None)));
        assert_eq!(m.text.len(), 3);
    }
}
