//! Acceptances written in bulk: one file's rows through the bulk writer ([`super::bulk`]), each
//! hashed in its audited form on the reading thread (the write lock is held, so the rows get the
//! ids after the last one, in file order), and one audit event per file covering them by range
//! and digest.

use super::audit::{Cover, RowHasher};
use super::bulk::{Insert, JsonObject, Param, Short, stored_shares};
use super::import::PriorImport;
use super::programs::StoredProgram;
use super::{Result, StoreError, Tx};
use crate::import::RowError;
use crate::offering::adjudicate::Cause;
use crate::offering::file::AcceptanceRow;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;

/// Rows per multi-row INSERT (21 values each, after the 4 they share).
const ROWS_PER_INSERT: usize = 32;

const INSERT_ACCEPTANCES: &str = "INSERT INTO acceptances (program_id, import_id, line, filed_at, doc_type, doc_number, name, \
     person_type, category, shares, accepts_reduction, files_tax_return, patrimonio_liquido, income, is_director, \
     annual_salary, investment_limit, patrimonio_ajustado, declarations, dismissed_with_just_cause, review, lender, \
     financed_shares, created_at, created_by) VALUES";
const PER_ROW: usize = 21;

/// Shared: `?1` program, `?2` import, `?3` now, `?4` actor.
const ACCEPTANCE_ROW: &str = "(?1, ?2, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
     $19, $20, $21, ?3, ?4)";

/// What [`write_acceptances`] stored, for the rules to judge before [`seal_acceptances`].
pub struct StoredAcceptances {
    pub import_id: i64,
    pub file_problems: Vec<RowError>,
    pub rows: usize,
    pub first: i64,
    pub last: i64,
    hash: RowHasher,
    /// The `acceptance_figures` rows written with them (first, last), if any.
    figures: Option<(i64, i64)>,
}

/// What [`write_acceptances`] did.
pub enum AcceptanceWrite {
    Written(Box<StoredAcceptances>),
    AlreadyImported(PriorImport),
}

/// What an acceptances import added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportedAcceptances {
    Added {
        import_id: i64,
        rows: usize,
        first_id: i64,
        last_id: i64,
    },
    AlreadyImported(PriorImport),
}

/// What the store makes of an acceptance on the reading thread ([`Prepare`]): its stored texts
/// (the filing time and the five amounts); the row is hashed in its audited form there too.
pub struct Prepared(Texts);

/// The reading thread's part of an acceptances import: run on each valid row, in file order.
pub type Prepare<'a> = dyn FnMut(&AcceptanceRow) -> Prepared + Send + 'a;

/// The storing part: a batch of rows with what [`Prepare`] made of each, on the calling thread
/// (the rows are left in the batch, to be freed by the thread that made them).
pub type StoreRows<'a> = dyn FnMut(&mut Vec<(AcceptanceRow, Prepared)>) -> Result<()> + 'a;

/// Stores an acceptances file's rows in the caller's transaction, as `feed` reads them (it runs
/// [`Prepare`] on each valid row as it is read, hands the rows to [`StoreRows`] in batches and
/// returns the file's problems), in groups by multi-row INSERTs. Each row is hashed in its
/// audited form as it is read: the write lock is held, so the rows get the ids after the last
/// one, in file order (checked as they are stored).
pub fn write_acceptances(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(&mut Prepare<'_>, &mut StoreRows<'_>) -> Result<Vec<RowError>>,
) -> Result<AcceptanceWrite> {
    if let Some(prior) = tx
        .conn()
        .query_row(
            "SELECT id, created_at, created_by FROM acceptance_imports WHERE sha256 = ?1 AND program_id = ?2",
            params![sha256, program.id],
            |r| {
                Ok(PriorImport {
                    import_id: r.get(0)?,
                    at: r.get(1)?,
                    by: r.get(2)?,
                })
            },
        )
        .optional()?
    {
        return Ok(AcceptanceWrite::AlreadyImported(prior));
    }
    let import_id = tx.insert_unaudited(
        "acceptance_imports",
        &[
            ("program_id", &program.id),
            ("file_name", &file_name),
            ("sha256", &sha256),
            ("encoding", &encoding),
        ],
    )?;
    let (now, actor) = (tx.now().to_string(), tx.actor().to_string());
    let ctx = RowContext {
        program_id: program.id,
        import_id,
        now: &now,
        actor: &actor,
    };
    let conn = tx.conn();
    // SQLite gives a row without an id the one after the largest (the table is append-only)
    let first: i64 = conn.query_row(
        "SELECT coalesce(max(id), 0) + 1 FROM acceptances",
        [],
        |r| r.get(0),
    )?;
    // each row's print kept too (`prints`): one changed later is named by `audit verify`
    let (mut hash, mut json, mut next) = (RowHasher::located(), Vec::with_capacity(1024), first);
    let mut members = super::prints::Members::default();
    let mut prepare = |r: &AcceptanceRow| {
        let texts = [
            Some(Short::filed(r.filed_at)),
            r.patrimonio_liquido.map(Short::amount),
            r.income.map(Short::amount),
            r.annual_salary.map(Short::amount),
            r.investment_limit.map(Short::amount),
            r.patrimonio_ajustado.map(Short::amount),
        ];
        json.clear();
        acceptance_json(&mut json, &mut members, &ctx, next, r, &texts);
        hash.add_members(&json, &members);
        next += 1;
        Prepared(texts)
    };
    let mut writer = AcceptanceWriter {
        conn,
        ctx,
        insert: Insert::new(
            conn,
            (INSERT_ACCEPTANCES, ACCEPTANCE_ROW, ""),
            PER_ROW,
            vec![
                Value::Integer(program.id),
                Value::Integer(import_id),
                Value::Text(now.clone()),
                Value::Text(actor.clone()),
            ],
            ROWS_PER_INSERT,
        )?,
        next: first,
        figures: None,
    };
    let file_problems = feed(&mut prepare, &mut |batch| writer.store(batch))?;
    let rows = usize::try_from(writer.next - first).expect("ids only grow");
    let (first, last) = if rows == 0 {
        (0, 0)
    } else {
        (first, writer.next - 1)
    };
    let figures = writer.figures;
    Ok(AcceptanceWrite::Written(Box::new(StoredAcceptances {
        import_id,
        file_problems,
        rows,
        first,
        last,
        hash,
        figures,
    })))
}

/// What every acceptance of one import shares.
#[derive(Clone, Copy)]
struct RowContext<'a> {
    program_id: i64,
    import_id: i64,
    now: &'a str,
    actor: &'a str,
}

/// An acceptance's stored texts: the filing time and the five amounts.
type Texts = [Option<Short>; 6];

/// Stores acceptances [`ROWS_PER_INSERT`] at a time.
struct AcceptanceWriter<'c, 'x> {
    conn: &'c Connection,
    ctx: RowContext<'x>,
    insert: Insert<'c>,
    /// The id the next row gets.
    next: i64,
    /// The first and last `acceptance_figures` rows written, if any.
    figures: Option<(i64, i64)>,
}

impl AcceptanceWriter<'_, '_> {
    fn store(&mut self, batch: &[(AcceptanceRow, Prepared)]) -> Result<()> {
        batch
            .chunks(self.insert.rows())
            .try_for_each(|group| self.insert(group))
    }

    fn insert(&mut self, group: &[(AcceptanceRow, Prepared)]) -> Result<()> {
        self.insert.insert(group, |(r, Prepared(t)), b| {
            use Param::{Int, Text};
            let flag = |v: bool| Int(i64::from(v));
            let text = |i: usize| Param::from(t[i].as_ref().map(Short::as_str));
            // what differs from one filing to the next is bound as it comes
            b.value(r.line as i64)?;
            b.value(t[0].as_ref().map(Short::as_str))?;
            b.same(Text(r.doc_type.as_str()))?;
            b.value(&r.doc_number)?;
            b.value(&r.name)?;
            b.same(Text(r.person_type.as_str()))?;
            b.same(Text(&r.category))?;
            b.same(Int(stored_shares(r.shares)?))?;
            b.same(flag(r.accepts_reduction))?;
            b.same(flag(r.files_tax_return))?;
            b.same(text(1))?;
            b.same(text(2))?;
            b.same(flag(r.is_director))?;
            b.same(text(3))?;
            b.same(text(4))?;
            b.same(text(5))?;
            b.same(flag(r.declarations))?;
            b.same(flag(r.dismissed_with_just_cause))?;
            b.same(Param::from(r.review.map(Cause::as_str)))?;
            b.same(Param::from(r.lender.as_deref()))?;
            b.same(Int(stored_shares(r.financed_shares)?))
        })?;
        // one INSERT without conflict clauses gives consecutive rowids after the largest: the
        // ids the rows were hashed with
        let last = self.next + group.len() as i64 - 1;
        if self.conn.last_insert_rowid() != last {
            return Err(StoreError::Corrupt(format!(
                "acceptances were stored up to id {} where {last} was expected",
                self.conn.last_insert_rowid()
            )));
        }
        for (k, (r, _)) in (0..).zip(group) {
            if let Some(v) = r.income_financial_statements {
                self.figure(self.next + k, "income_financial_statements", v)?;
            }
        }
        self.next = last + 1;
        Ok(())
    }

    /// Stores a figure of acceptance `id` beyond the acceptances' own columns (migration 0013).
    fn figure(&mut self, id: i64, measure: &str, amount: Decimal) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO acceptance_figures (acceptance_id, measure, amount, created_at, created_by)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                id,
                measure,
                Short::amount(amount).as_str(),
                self.ctx.now,
                self.ctx.actor
            ])?;
        let row = self.conn.last_insert_rowid();
        self.figures = Some(self.figures.map_or((row, row), |(first, _)| (first, row)));
        Ok(())
    }
}

/// An acceptance in its audited form (see [`JsonObject`]).
fn acceptance_json(
    out: &mut Vec<u8>,
    members: &mut super::prints::Members,
    ctx: &RowContext<'_>,
    id: i64,
    r: &AcceptanceRow,
    [filed, pl, inc, sal, lim, aj]: &Texts,
) {
    let mut o = JsonObject::gathering(out, members);
    o.int("id", id);
    o.int("program_id", ctx.program_id);
    o.int("import_id", ctx.import_id);
    o.int("line", r.line as u64);
    o.text("filed_at", filed.as_ref().map(Short::as_str));
    o.text("doc_type", Some(r.doc_type.as_str()));
    o.text("doc_number", Some(&r.doc_number));
    o.text("name", Some(&r.name));
    o.text("person_type", Some(r.person_type.as_str()));
    o.text("category", Some(&r.category));
    o.int("shares", r.shares);
    o.int("accepts_reduction", u8::from(r.accepts_reduction));
    o.int("files_tax_return", u8::from(r.files_tax_return));
    o.text("patrimonio_liquido", pl.as_ref().map(Short::as_str));
    o.text("income", inc.as_ref().map(Short::as_str));
    o.int("is_director", u8::from(r.is_director));
    o.text("annual_salary", sal.as_ref().map(Short::as_str));
    o.text("investment_limit", lim.as_ref().map(Short::as_str));
    o.text("patrimonio_ajustado", aj.as_ref().map(Short::as_str));
    o.int("declarations", u8::from(r.declarations));
    o.int(
        "dismissed_with_just_cause",
        u8::from(r.dismissed_with_just_cause),
    );
    o.text("review", r.review.map(Cause::as_str));
    o.text("lender", r.lender.as_deref());
    o.int("financed_shares", r.financed_shares);
    o.text("created_at", Some(ctx.now));
    o.text("created_by", Some(ctx.actor));
    o.end();
}

/// Covers what [`write_acceptances`] stored with the import's one audit event.
pub fn seal_acceptances(tx: &mut Tx<'_>, mut s: StoredAcceptances) -> Result<ImportedAcceptances> {
    s.hash.store_prints(tx.conn(), "acceptances", s.first)?;
    let mut covers = vec![Cover {
        table: "acceptances",
        first: s.first,
        last: s.last,
        digest: Some(s.hash.finish()),
    }];
    if let Some((first, last)) = s.figures {
        covers.push(Cover {
            table: "acceptance_figures",
            first,
            last,
            digest: None,
        });
    }
    tx.audit_bulk(
        crate::store::Action::AcceptancesImport,
        "acceptance_imports",
        s.import_id,
        &covers,
    )?;
    Ok(ImportedAcceptances::Added {
        import_id: s.import_id,
        rows: s.rows,
        first_id: s.first,
        last_id: s.last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offering::adjudicate::Window;
    use chrono::NaiveDate;

    const HEADER: &str = "filed_at,doc_type,doc_number,name,person_type,category,shares,\
        accepts_reduction,files_tax_return,patrimonio_liquido,income,is_director,annual_salary,\
        investment_limit,patrimonio_ajustado,declarations,dismissed_with_just_cause,review,lender,\
        financed_shares\n";

    /// A register with the acceptances of `csv` (after [`HEADER`]) imported by `actor`.
    fn imported(actor: &str, csv: &str) -> super::super::Store {
        use crate::program::{DECRETO_3939_2004, Program};
        let mut store = super::super::Store::in_memory().unwrap();
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::program::add(tx, &program, DECRETO_3939_2004)
            })
            .unwrap();
        let p = super::super::programs::by_code(store.conn(), &program.code).unwrap();
        let day = |m, d| NaiveDate::from_ymd_opt(2024, m, d).unwrap();
        let window = Window {
            opens: day(1, 2),
            closes: day(3, 8),
        };
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::offering::open(tx, &p, window, Some("test: a 2024 offer"))
            })
            .unwrap();
        let file = format!("{HEADER}{csv}");
        store
            .write::<_, crate::register::Error>(actor, |tx| {
                crate::register::offering::import(
                    tx,
                    &p,
                    "a.csv",
                    "sha",
                    "UTF-8",
                    file.as_bytes(),
                    |prepare, store| {
                        Ok(crate::offering::file::each_in_parallel(
                            file.as_bytes(),
                            &p.program,
                            prepare,
                            store,
                        )?
                        .1)
                    },
                )
            })
            .unwrap();
        store
    }

    #[test]
    fn every_filing_reads_back_as_filed_whatever_the_filing_before_it_held() {
        // 70 filings: two full groups and a partial one, each column changing with its own
        // period, so that a place in a group holds now the value it held last time, now another
        let pick = |k: usize, options: &[&'static str]| options[k % options.len()];
        let mut csv = String::new();
        for k in 0..70 {
            let (doc_type, doc, person) = if k % 7 == 3 {
                let digits = (800_000_000 + k).to_string();
                let dv = crate::ids::nit_check_digit(&digits).unwrap();
                ("NIT", format!("{digits}-{dv}"), "legal")
            } else {
                ("CC", (1_000_000_000 + k).to_string(), "natural")
            };
            let shares = 1 + k % 5;
            let lender = pick(k, &["", "", "Banco Uno", "", "Banco \"Dos\""]);
            let financed = if lender.is_empty() {
                String::new()
            } else {
                (shares / 2).to_string()
            };
            let lender = if lender.contains('"') {
                "\"Banco \"\"Dos\"\"\""
            } else {
                lender
            };
            csv.push_str(&format!(
                "2024-01-{:02} 09:{:02},{doc_type},{doc},Persona {k},{person},{},{shares},{},{},{},{},{},{},{},{},{},{},{},{lender},{financed}\n",
                2 + k % 28,
                k % 60,
                pick(k, &["trabajador", "trabajador", "pensionado", "trabajador", "sindicato"]),
                pick(k, &["", "no", "si"]),
                pick(k, &["si", "no"]),
                pick(k, &["", "1000000", "", "2500000.75"]),
                pick(k, &["", "", "", "800000", ""]),
                pick(k, &["", "si", "", "", "", "", "no"]),
                pick(k, &["", "", "90000000"]),
                pick(k, &["", "12000000", "", "", "", "", "", ""]),
                pick(k, &["", "", "", "", "", "", "", "", "0.50"]),
                pick(k, &["si", "si", "", "si"]),
                pick(k, &["", "", "", "", "si", ""]),
                pick(k, &["", "", "", "", "", "", "", "", "", "", "PRICE_NOT_PAID"]),
            ));
        }
        let store = imported("ana", &csv);
        let mut filed = Vec::new();
        let file = format!("{HEADER}{csv}");
        let program =
            crate::program::Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
        let (_, problems) = crate::offering::file::each(file.as_bytes(), &program, |r| {
            filed.push(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(filed.len(), 70);
        for (id, row) in (1..).zip(&filed) {
            assert_eq!(
                &super::super::offering::acceptance(store.conn(), id)
                    .unwrap()
                    .row,
                row,
                "filing {id}"
            );
        }
        assert!(super::super::audit::verify(store.conn()).unwrap().intact());
    }

    #[test]
    fn the_audited_form_written_by_hand_is_what_verify_reads_back() {
        let actor = "ana \"la\" jefa";
        // texts JSON escapes, amounts with and without cents, empty columns
        let store = imported(
            actor,
            "2024-01-15 09:30:07,CC,1000000001,\"Ana \"\"la\"\" Pérez \\ Ñandú\",natural,trabajador,\
             12,no,si,12500000.50,,si,0.05,7000000,0,si,no,form_defect,\"Banco \"\"Uno\"\"\",5\n\
             2024-01-16,NIT,800000001-1,Fondo Ñ,legal,trabajador,3,,,,,,,,,,,,,\n",
        );
        let conn = store.conn();
        let mut stmt = conn
            .prepare("SELECT * FROM acceptances ORDER BY id")
            .unwrap();
        let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
        let read_back: Vec<String> = stmt
            .query_map([], |r| {
                Ok(super::super::json_of_row(r, &names).unwrap().to_string())
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(read_back.len(), 2);
        let now: String = conn
            .query_row("SELECT created_at FROM acceptances WHERE id = 1", [], |r| {
                r.get(0)
            })
            .unwrap();
        let ctx = RowContext {
            program_id: 1,
            import_id: 1,
            now: &now,
            actor,
        };
        for (id, want) in (1..).zip(&read_back) {
            let row = super::super::offering::acceptance(conn, id).unwrap().row;
            let texts = [
                Some(Short::filed(row.filed_at)),
                row.patrimonio_liquido.map(Short::amount),
                row.income.map(Short::amount),
                row.annual_salary.map(Short::amount),
                row.investment_limit.map(Short::amount),
                row.patrimonio_ajustado.map(Short::amount),
            ];
            let (mut json, mut members) = (Vec::new(), super::super::prints::Members::default());
            acceptance_json(&mut json, &mut members, &ctx, id, &row, &texts);
            // the print made from the members gathered is the one `verify` makes of the JSON
            use super::super::prints::Prints;
            let (mut read, mut gathered) = (Prints::default(), Prints::default());
            read.add(&json);
            gathered.add_members(&members);
            assert_eq!(gathered.bytes(), read.bytes());
            assert_eq!(String::from_utf8(json).unwrap(), *want);
        }
        assert!(read_back[0].contains(r#""name":"Ana \"la\" Pérez \\ Ñandú""#));
        assert!(read_back[0].contains(r#""annual_salary":"0.05""#));
        assert!(read_back[1].contains(r#""lender":null"#));
        // and the import's one event covers them by that form
        assert!(super::super::audit::verify(conn).unwrap().intact());
    }
}
