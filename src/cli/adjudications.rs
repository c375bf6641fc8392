//! `vigia adjudications ...`: import from CSV (all or nothing; rows already registered are
//! reported unchanged), list, show, void.

use super::{CliError, Ctx, Status, args};
use crate::catalogue::msg::{Msg, ReadAs, Rows};
use crate::import;
use crate::report::records::{self, Format};
use crate::store::adjudications::{self as store_adj, Adjudication};
use crate::store::import::{self as store_import, Imported};
use crate::store::pledges;
use crate::store::{StoreError, breaches, programs, sha256_hex};
use chrono::NaiveDate;
use clap::{Subcommand, ValueEnum};
use rusqlite::Connection;
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum AdjudicationsCommand {
    /// Import adjudications from CSV or a workbook (.xlsx, .xls, .ods): columns doc_type,
    /// doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,
    /// financed_shares, and optionally address,city,email (the holder's contact, recorded as
    /// `holder update` does), in English or Spanish (Tipo documento, Número documento ...; see
    /// `vigia template adjudicaciones`). UTF-8 (with or without BOM) or the es-CO Excel export
    /// (Windows-1252, `;`); numbers and dates as `vigia --help` says (1.450,50, DD/MM/YYYY). Nothing is
    /// written unless every row is valid; the same file twice adds nothing. A row whose award
    /// (holder document and adjudication date) is already registered with the same figures is
    /// reported unchanged; with other figures it is refused, saying what differs.
    Import {
        file: PathBuf,
        /// Program code (see `vigia program list`).
        #[arg(value_parser = super::args::text, long)]
        program: String,
        /// In a workbook (.xlsx, .xls, .ods), the sheet to read (default: the first).
        #[arg(value_parser = super::args::text, long, value_name = "NAME")]
        sheet: Option<String>,
    },
    /// List adjudications.
    List {
        #[arg(value_parser = super::args::text, long)]
        program: Option<String>,
        /// Holder document number (dots and spaces are ignored: 79.263.082; a NIT with -DV).
        #[arg(long, value_name = "DOC", value_parser = args::document)]
        holder: Option<String>,
        /// Lock-up status as of --as-of: locked (inside the lock-up; also en-restriccion) or free
        /// (after it; also libre), as the list's Status column shows them.
        #[arg(long, value_enum, ignore_case = true)]
        status: Option<LockStatus>,
        /// Date for the lock-up status (default: today).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        as_of: Option<NaiveDate>,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Show one adjudication: holder, lock-up end, pledges, breaches, liquidations, payments.
    Show {
        #[arg(value_parser = super::args::id)]
        id: i64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Void an adjudication recorded by mistake: it stays on record, marked void, with who,
    /// when and why; no figure counts it, and its award may be imported again. Refused while a
    /// breach (not void) or a pledge in force depends on it.
    Void {
        #[arg(value_parser = super::args::id)]
        id: i64,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: String,
    },
}

/// Rows of an import already registered as they are: how many, and the first few by line.
pub(super) fn unchanged(u: &store_import::Unchanged, rows: Rows) -> Msg<'_> {
    Msg::Unchanged {
        rows,
        count: u.count as u64,
        first: &u.first,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LockStatus {
    /// The Spanish words the list prints («en restricción», «libre») are accepted too.
    #[value(aliases = ["en-restriccion", "en-restricción", "en restricción", "en restriccion", "restringida"])]
    Locked,
    #[value(alias = "libre")]
    Free,
}

fn lockup_end(conn: &Connection, a: &Adjudication) -> Result<NaiveDate, CliError> {
    Ok(programs::by_id(conn, a.program_id)?
        .scale()?
        .lockup_end(a.adjudicated_on)
        .unwrap_or(a.adjudicated_on))
}

/// The columns of [`row`], in order.
const ROW_COLUMNS: [&str; 14] = [
    "id",
    "program",
    "doc_type",
    "doc_number",
    "name",
    "category",
    "shares",
    "price_per_share",
    "adjudicated_on",
    "lockup_end",
    "status",
    "lender",
    "financed_shares",
    "void",
];

/// An adjudication as a list row.
pub fn row(a: &Adjudication, lockup_end: NaiveDate, as_of: NaiveDate) -> Value {
    json!({
        "id": a.id,
        "program": a.program_code,
        "doc_type": a.holder.doc_type,
        "doc_number": a.holder.doc_number,
        "name": a.holder.name,
        "category": a.category,
        "shares": a.shares,
        "price_per_share": a.price_per_share.to_string(),
        "adjudicated_on": a.adjudicated_on.to_string(),
        "lockup_end": lockup_end.to_string(),
        "status": if as_of <= lockup_end { "locked" } else { "free" },
        "lender": a.lender,
        "financed_shares": a.financed_shares,
        "void": a.void.as_ref().map(|v| format!("voided {} by {}: {}", v.at, v.by, v.reason)),
    })
}

/// A file to import, read whole: its bytes, name, SHA-256 (a file is imported once) and dialect.
pub(super) struct ImportFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub name: String,
    pub sha256: String,
    pub dialect: import::Dialect,
}

impl ImportFile {
    /// The file at `path`; a workbook's sheet (`sheet`, or the first) as the CSV text the
    /// imports read ([`crate::workbook`]), hashed as that text, so that the same rows saved
    /// again are found as imported before.
    pub fn read(
        path: &std::path::Path,
        command: &'static str,
        sheet: Option<&str>,
    ) -> Result<ImportFile, CliError> {
        let bytes = std::fs::read(path).map_err(|e| CliError::File {
            flag: command,
            path: path.to_path_buf(),
            error: e,
        })?;
        let workbook = crate::workbook::is_workbook(&bytes);
        let bytes = match crate::workbook::as_csv(&bytes, sheet) {
            Ok(std::borrow::Cow::Owned(csv)) => csv,
            Ok(std::borrow::Cow::Borrowed(_)) => bytes,
            Err(why) => {
                return Err(CliError::Wrong {
                    flag: command.into(),
                    value: path.display().to_string(),
                    why,
                });
            }
        };
        // the file's hash on a second thread while it is decoded once, for its dialect (a
        // million rows are 100 MB)
        let (sha256, decoded) = std::thread::scope(|scope| {
            let sha256 = scope.spawn(|| sha256_hex(&bytes));
            let decoded = crate::text::decode(&bytes)
                .map(|(text, encoding)| import::sniff_text(&text, encoding));
            (sha256.join().expect("hashing does not panic"), decoded)
        });
        // a workbook, a PDF or a file that mixes encodings is named before anything is read
        let dialect = match decoded {
            Ok(dialect) if workbook => import::Dialect {
                encoding: "workbook",
                ..dialect
            },
            Ok(dialect) => dialect,
            Err(e) => {
                return Err(CliError::Wrong {
                    flag: command.into(),
                    value: path.display().to_string(),
                    why: e.said(),
                });
            }
        };
        Ok(ImportFile {
            path: path.to_path_buf(),
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            sha256,
            dialect,
            bytes,
        })
    }

    /// How the file was read, for the import's last words: `read as UTF-8, separator ';'`, or
    /// `read from a workbook's sheet`.
    pub fn read_as(&self) -> ReadAs<'_> {
        if self.dialect.encoding == "workbook" {
            ReadAs::Workbook
        } else {
            ReadAs::Text {
                encoding: self.dialect.encoding,
                separator: self.dialect.separator as char,
            }
        }
    }

    /// What to say when the file was imported before.
    pub fn already<'a>(&'a self, rows: Rows, prior: &'a store_import::PriorImport) -> Msg<'a> {
        Msg::AlreadyImported {
            rows,
            path: &self.path,
            import: prior.import_id,
            at: &prior.at,
            by: &prior.by,
        }
    }

    /// A refused import as the list of every problem, named after the file.
    pub fn rejected(&self, e: impl Into<crate::register::Error>) -> CliError {
        match e.into() {
            crate::register::Error::Store(StoreError::Rejected(problems)) => CliError::Many {
                what: crate::catalogue::said(&Msg::ImportOf {
                    path: &self.path.display().to_string(),
                }),
                problems: problems
                    .iter()
                    .map(|p| {
                        crate::lang::Said::new(
                            super::remedy::problem(p, crate::lang::Lang::En),
                            super::remedy::problem(p, crate::lang::Lang::Es),
                        )
                    })
                    .collect(),
            },
            other => other.into(),
        }
    }
}

impl AdjudicationsCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            AdjudicationsCommand::Import {
                file,
                program,
                sheet,
            } => {
                let f = ImportFile::read(&file, "adjudications import", sheet.as_deref())?;
                let mut store = ctx.store()?;
                let p = programs::by_code(store.conn(), &program)?;
                let (bytes, dialect) = (&f.bytes, f.dialect);
                let bar = super::progress::Progress::new(
                    super::progress::Counting::Adjudications,
                    super::progress::rows_of(bytes),
                    ctx.lang,
                );
                let mut tick = bar.counter();
                let result = store
                    .write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                        crate::register::adjudication::import(
                            tx,
                            &p,
                            &f.name,
                            &f.sha256,
                            dialect.encoding,
                            bytes,
                            |sink| {
                                let rows = |row| {
                                    tick();
                                    sink(row)
                                };
                                Ok(import::each_in_parallel(bytes, &p.program, rows)?.1)
                            },
                        )
                    })
                    .map_err(|e| f.rejected(e));
                drop(tick);
                bar.done();
                let result = result?;
                match result {
                    Imported::Added {
                        import_id,
                        rows,
                        new_holders,
                        first_id,
                        last_id,
                        unchanged: same,
                    } => {
                        ctx.say(Msg::Imported {
                            rows: Rows::Adjudications,
                            import: import_id,
                            added: rows as u64,
                            ids: (rows > 0).then_some((first_id, last_id)),
                            new_holders: new_holders as u64,
                            stage: None,
                            read: f.read_as(),
                        })?;
                        if same.count > 0 {
                            ctx.say(unchanged(&same, Rows::Adjudications))?;
                        }
                    }
                    Imported::AlreadyImported(prior) => {
                        ctx.say(f.already(Rows::Adjudications, &prior))?
                    }
                }
            }
            AdjudicationsCommand::List {
                program,
                holder,
                status,
                as_of,
                format,
                out: out_path,
            } => {
                // refused before the register is read (a national one holds a million)
                let to = super::out::usable(format, out_path.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let conn = store.conn();
                let filters: crate::report::excel::Asked = [
                    super::out::filter("Programa", program.as_ref()),
                    super::out::filter("Titular", holder.as_ref()),
                ]
                .into_iter()
                .flatten()
                .collect();
                let program_id = program
                    .map(|c| programs::by_code(conn, &c).map(|p| p.id))
                    .transpose()?;
                let as_of = as_of.unwrap_or_else(|| ctx.today());
                // written as read (a national register holds a million), each program's
                // lock-up rule read once
                let mut scales = programs::Scales::default();
                let mut out =
                    super::out::Listing::new(ctx, to, "Adjudicaciones", &ROW_COLUMNS, filters)?;
                store_adj::each(
                    conn,
                    program_id,
                    holder.as_deref(),
                    |a| -> Result<(), CliError> {
                        let end = scales
                            .get(conn, a.program_id)?
                            .lockup_end(a.adjudicated_on)
                            .unwrap_or(a.adjudicated_on);
                        let locked = a.adjudicated_on <= as_of && as_of <= end;
                        match status {
                            Some(LockStatus::Locked) if !locked => return Ok(()),
                            Some(LockStatus::Free) if as_of <= end => return Ok(()),
                            _ => {}
                        }
                        out.push(&row(&a, end, as_of))
                    },
                )?;
                out.finish()?;
            }
            AdjudicationsCommand::Show { id, format } => {
                let store = ctx.store()?;
                let conn = store.conn();
                let a = store_adj::get(conn, id)?;
                let end = lockup_end(conn, &a)?;
                let mut rec = row(&a, end, ctx.today());
                let unbreached = crate::register::breach::unbreached_shares(conn, &a)?;
                let pledges: Vec<Value> = pledges::list(conn, id)?
                    .iter()
                    .map(|p| json!({"id": p.id, "rank": p.rank, "beneficiary": p.beneficiary, "shares": p.shares, "lender": p.lender,
                                    "registered_on": p.registered_on.to_string(), "released_on": p.released_on.map(|d| d.to_string()),
                                    "void": p.void.as_ref().map(|v| v.reason.clone())}))
                    .collect();
                let mut breach_rows = Vec::new();
                for b in breaches::list(conn, Some(id), None)? {
                    let liqs: Vec<Value> = breaches::liquidations(conn, Some(b.id))?
                        .iter()
                        .map(|l| json!({"id": l.id, "until": l.until.to_string(), "convention": l.convention, "total_due": l.total_due.to_string(), "provisional": l.provisional}))
                        .collect();
                    let pays: Vec<Value> = breaches::payments_recorded(conn, b.id)?
                        .iter()
                        .map(|p| json!({"id": p.id, "date": p.paid_on.to_string(), "amount": p.amount.to_string(), "reference": p.reference,
                                        "void": p.void.as_ref().map(|v| v.reason.clone())}))
                        .collect();
                    breach_rows.push(json!({"id": b.id, "kind": b.kind.as_str(), "date": b.breach_date.to_string(), "shares": b.shares,
                        "void": b.void.as_ref().map(|v| v.reason.clone()), "liquidations": liqs, "payments": pays}));
                }
                if let Value::Object(m) = &mut rec {
                    m.shift_remove("status");
                    m.insert("unbreached_shares".into(), json!(unbreached));
                    m.insert("pledges".into(), Value::Array(pledges));
                    m.insert("breaches".into(), Value::Array(breach_rows));
                }
                write!(ctx.out, "{}", records::one_in(&rec, format, ctx.lang))?;
            }
            AdjudicationsCommand::Void { id, reason } => {
                let mut store = ctx.store()?;
                let vid = store
                    .write(&ctx.officer(), |tx| {
                        crate::register::adjudication::void(tx, id, &reason)
                    })
                    .map_err(|e| match e {
                        // the adjudication is the command's positional argument
                        crate::register::Error::Refused(r) => CliError::Refusal {
                            refusal: Box::new(r),
                            flag: |f| match f {
                                crate::register::Field::Adjudication => "adjudications void",
                                other => super::flag_of(other),
                            },
                        },
                        other => other.into(),
                    })?;
                ctx.say(Msg::AdjudicationVoided { id, void: vid })?;
            }
        }
        Ok(Status::Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_row_has_exactly_the_listed_columns_in_order() {
        let d = NaiveDate::from_ymd_opt(2024, 3, 15).unwrap();
        let a = Adjudication {
            id: 1,
            program_id: 1,
            program_code: "P".into(),
            holder: store_adj::Holder {
                id: 1,
                doc_type: crate::ids::DocType::Cc,
                doc_number: "1".into(),
                name: "A".into(),
                person_type: import::PersonType::Natural,
            },
            category: "trabajador".into(),
            shares: 1,
            price_per_share: rust_decimal::Decimal::ONE,
            adjudicated_on: d,
            lender: None,
            financed_shares: 0,
            import_id: 1,
            line: 2,
            void: None,
        };
        let keys: Vec<String> = row(&a, d, d).as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ROW_COLUMNS);
    }
}
