//! Reading an acceptances CSV (issue 15): the columns of a first-stage acceptance, header order
//! free, empty meaning "not given", through the same reader as the adjudications
//! (`import::each_record`, its cells read through `import::cells`: UTF-8 or the es-CO Excel export, every bad row named by line). Pure:
//! bytes in, rows or every problem out. Whether a filing is valid is not decided here
//! ([`super::adjudicate::judge`] does that when adjudicating): a late filing is a fact to
//! record, not a bad row. A category the program does not have is a bad row (issue 19).

use super::adjudicate::Cause;
use crate::ids::DocType;
use crate::import::cells::{Cells, Column};
use crate::import::{Dialect, Fields, PersonType, RowError, Table};
use crate::lang::Said;
use crate::money::format_number;
use crate::program::Program;
use crate::said;
use chrono::NaiveDateTime;
use rust_decimal::Decimal;

/// A column of the acceptances CSV; [`COLUMNS`] then [`OPTIONAL`] list their names in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    FiledAt,
    DocType,
    DocNumber,
    Name,
    PersonType,
    Category,
    Shares,
    AcceptsReduction,
    FilesTaxReturn,
    PatrimonioLiquido,
    Income,
    IsDirector,
    AnnualSalary,
    InvestmentLimit,
    PatrimonioAjustado,
    Declarations,
    DismissedWithJustCause,
    Review,
    Lender,
    FinancedShares,
    IncomeFinancialStatements,
}

impl Col {
    const ALL: [Col; 21] = [
        Col::FiledAt,
        Col::DocType,
        Col::DocNumber,
        Col::Name,
        Col::PersonType,
        Col::Category,
        Col::Shares,
        Col::AcceptsReduction,
        Col::FilesTaxReturn,
        Col::PatrimonioLiquido,
        Col::Income,
        Col::IsDirector,
        Col::AnnualSalary,
        Col::InvestmentLimit,
        Col::PatrimonioAjustado,
        Col::Declarations,
        Col::DismissedWithJustCause,
        Col::Review,
        Col::Lender,
        Col::FinancedShares,
        Col::IncomeFinancialStatements,
    ];

    const fn name(self) -> &'static str {
        match self {
            Col::FiledAt => "filed_at",
            Col::DocType => "doc_type",
            Col::DocNumber => "doc_number",
            Col::Name => "name",
            Col::PersonType => "person_type",
            Col::Category => "category",
            Col::Shares => "shares",
            Col::AcceptsReduction => "accepts_reduction",
            Col::FilesTaxReturn => "files_tax_return",
            Col::PatrimonioLiquido => "patrimonio_liquido",
            Col::Income => "income",
            Col::IsDirector => "is_director",
            Col::AnnualSalary => "annual_salary",
            Col::InvestmentLimit => "investment_limit",
            Col::PatrimonioAjustado => "patrimonio_ajustado",
            Col::Declarations => "declarations",
            Col::DismissedWithJustCause => "dismissed_with_just_cause",
            Col::Review => "review",
            Col::Lender => "lender",
            Col::FinancedShares => "financed_shares",
            Col::IncomeFinancialStatements => "income_financial_statements",
        }
    }
}

/// How many columns every acceptances file names (the first of [`Col::ALL`]).
const REQUIRED: usize = 7;

/// The columns every acceptances file names, in any order.
pub const COLUMNS: [&str; REQUIRED] = {
    let mut names = [""; REQUIRED];
    let mut i = 0;
    while i < REQUIRED {
        names[i] = Col::ALL[i].name();
        i += 1;
    }
    names
};

/// The columns a file may leave out (they read as empty).
pub const OPTIONAL: [&str; 14] = {
    let mut names = [""; 14];
    let mut i = 0;
    while i < 14 {
        names[i] = Col::ALL[REQUIRED + i].name();
        i += 1;
    }
    names
};

/// The acceptances file's columns.
pub const TABLE: Table = Table {
    required: &COLUMNS,
    optional: &OPTIONAL,
};

/// One acceptance (aceptación de compra) as filed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptanceRow {
    pub line: usize,
    /// Date, or date and time; a date alone counts as its first instant.
    pub filed_at: NaiveDateTime,
    pub doc_type: DocType,
    pub doc_number: String,
    pub name: String,
    pub person_type: PersonType,
    /// As written; judged against the program's categories when adjudicating.
    pub category: String,
    /// Shares requested.
    pub shares: u64,
    /// Empty = silence = accepts (Art. 12).
    pub accepts_reduction: bool,
    pub files_tax_return: bool,
    pub patrimonio_liquido: Option<Decimal>,
    pub income: Option<Decimal>,
    pub is_director: bool,
    pub annual_salary: Option<Decimal>,
    pub investment_limit: Option<Decimal>,
    pub patrimonio_ajustado: Option<Decimal>,
    pub declarations: bool,
    pub dismissed_with_just_cause: bool,
    pub review: Option<Cause>,
    pub lender: Option<String>,
    pub financed_shares: u64,
    /// Annual income as the audited financial statements show it (seed 003 num. 5 (b));
    /// stored apart (`acceptance_figures`, migration 0013).
    pub income_financial_statements: Option<Decimal>,
}

/// Reads every row, handing each valid one to `f` as it is read; returns the dialect and every
/// problem found (empty when the file is clean). An error from `f` stops the reading.
/// Rows are read for `program`: a category it does not have is refused here, naming the line
/// and the program's categories (never a rejection found only when adjudicating).
pub fn each<E>(
    bytes: &[u8],
    program: &Program,
    f: impl FnMut(AcceptanceRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    crate::import::each_record(
        bytes,
        &TABLE,
        |line, fields| parse_row(line, fields, program),
        f,
    )
}

/// Like [`each`], reading and checking on a second thread, which also runs `prepare` on each
/// valid row in file order, while `f` runs on this one with a batch of rows and what `prepare`
/// made of each (rows travel in batches through a bounded channel: memory stays flat; the rows
/// go back to be freed by the thread that made them).
pub fn each_in_parallel<P: Send, E: Send>(
    bytes: &[u8],
    program: &Program,
    mut prepare: impl FnMut(&AcceptanceRow) -> P + Send,
    f: impl FnMut(&mut Vec<(AcceptanceRow, P)>) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    crate::import::in_parallel(
        bytes,
        |sink| {
            each(bytes, program, |row| {
                let prepared = prepare(&row);
                sink((row, prepared))
            })
        },
        f,
    )
}

impl Column for Col {
    fn name(self) -> &'static str {
        Col::name(self)
    }
    fn at(self) -> usize {
        self as usize
    }
}

fn parse_row(
    line: usize,
    fields: &Fields<'_>,
    program: &Program,
) -> Result<AcceptanceRow, Vec<RowError>> {
    let mut row = Cells::new(line, fields);
    let filed_at = row.when(Col::FiledAt);
    let document = row.document(Col::DocType, Col::DocNumber);
    let name = row.required(
        Col::Name,
        Said::new(
            "the acceptor's name is required",
            "falta el nombre del aceptante",
        ),
    );
    let person_type = row.person(Col::PersonType);
    let category = if row.get(Col::Category).is_empty() {
        row.fail(
            Col::Category,
            "",
            Said::new(
                "the acceptor's special-condition category is required",
                "falta la categoría de condiciones especiales del aceptante",
            ),
        );
        String::new()
    } else {
        row.read(Col::Category, |s| {
            program.filing_category(s).map(str::to_string)
        })
        .unwrap_or_default()
    };
    let shares = row.count(
        Col::Shares,
        Said::new(
            "must be the whole number of shares requested, greater than zero",
            "debe ser el número entero de acciones pedidas, mayor que cero",
        ),
    );
    // Art. 12: silence means the reduction is accepted; elsewhere empty means no
    let accepts_reduction = row.yes_no(Col::AcceptsReduction, true);
    let files_tax_return = row.yes_no(Col::FilesTaxReturn, false);
    let is_director = row.yes_no(Col::IsDirector, false);
    let declarations = row.yes_no(Col::Declarations, false);
    // LEGAL_NOTES §7.5: a dismissal with just cause bars the program's named categories (the
    // ex-workers): for them an empty cell could be read as "no" or as "not asked", so it is
    // refused; for the others it is "no"
    let barred_by_just_cause = program
        .just_cause_categories
        .as_deref()
        .is_some_and(|named| named.contains(&category));
    let dismissed_with_just_cause =
        if barred_by_just_cause && row.get(Col::DismissedWithJustCause).is_empty() {
            row.fail(
            Col::DismissedWithJustCause,
            "",
            Said::new(
                format!(
                    "a filer of category {category} must say whether they were dismissed with \
                         just cause (si or no): the program bars those who were"
                ),
                format!(
                    "quien acepta en la categoría {category} debe decir si fue desvinculado con \
                         justa causa (si o no): el programa excluye a quienes lo fueron"
                ),
            ),
        );
            false
        } else {
            row.yes_no(Col::DismissedWithJustCause, false)
        };
    let mut pesos = |col: Col| {
        let own = Said::new(
            "must be an amount in pesos such as 12.500.000,00, or empty",
            "debe ser un valor en pesos, como 12.500.000,00, o quedar vacío",
        );
        row.opt_amount(col, false, own).flatten()
    };
    let patrimonio_liquido = pesos(Col::PatrimonioLiquido);
    let income = pesos(Col::Income);
    let annual_salary = pesos(Col::AnnualSalary);
    let investment_limit = pesos(Col::InvestmentLimit);
    let patrimonio_ajustado = pesos(Col::PatrimonioAjustado);
    let income_financial_statements = pesos(Col::IncomeFinancialStatements);
    let review = match row.get(Col::Review) {
        "" => None,
        _ => row.read(Col::Review, |s| Cause::of_review(program, s)),
    };
    let (lender, financed_shares) = row.financing(
        (Col::Lender, Col::FinancedShares),
        shares,
        |n| {
            let pedidas = format_number(Decimal::from(n));
            said!(offering::exceeds_shares_requested, n, pedidas)
        },
        Said::new(
            "financed_shares is set, so the lender that finances them is required",
            "financed_shares tiene un valor, así que falta el prestamista que las financia",
        ),
    );
    let read = (|| {
        let (doc_type, doc_number) = document?;
        Some(AcceptanceRow {
            line,
            filed_at: filed_at?,
            doc_type,
            doc_number,
            name,
            person_type: person_type?,
            category,
            shares: shares?,
            accepts_reduction,
            files_tax_return,
            patrimonio_liquido,
            income,
            is_director,
            annual_salary,
            investment_limit,
            patrimonio_ajustado,
            declarations,
            dismissed_with_just_cause,
            review,
            lender,
            financed_shares: financed_shares?,
            income_financial_statements,
        })
    })();
    row.finish(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<AcceptanceRow>, Vec<RowError>) {
        let mut rows = Vec::new();
        let program = Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
        let (_, errors) = each(text.as_bytes(), &program, |r| {
            rows.push(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        (rows, errors)
    }

    #[test]
    fn each_column_is_read_by_its_own_name() {
        let all: Vec<&str> = COLUMNS.iter().chain(&OPTIONAL).copied().collect();
        for c in Col::ALL {
            assert_eq!(all[c as usize], c.name());
        }
    }

    #[test]
    fn a_minimal_row_reads_with_the_defaults_of_empty_columns() {
        let (rows, errors) = read(
            "shares,doc_type,doc_number,name,person_type,category,filed_at\n\
             1.000,CC,1.000.000.001,Ana,natural,trabajador,2024-01-15 09:30\n",
        );
        // one reading in every file: 1.000 is a thousand (issue 19)
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows[0].shares, 1000);
        let (rows, errors) = read(
            "shares,doc_type,doc_number,name,person_type,category,filed_at\n\
             \"1,5\",CC,1.000.000.001,Ana,natural,trabajador,2024-01-15 09:30\n",
        );
        assert_eq!(rows.len(), 0, "1,5 is not a count");
        assert_eq!(errors[0].field, "shares");
        let (rows, errors) = read(
            "shares,doc_type,doc_number,name,person_type,category,filed_at\n\
             1000,CC,1000000001,Ana,natural,trabajador,2024-01-15 09:30\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let r = &rows[0];
        assert_eq!(r.filed_at.to_string(), "2024-01-15 09:30:00");
        assert!(
            r.accepts_reduction,
            "silence accepts the reduction (Art. 12)"
        );
        assert!(!r.declarations && !r.files_tax_return && !r.is_director);
        assert_eq!((r.shares, r.review, r.financed_shares), (1000, None, 0));
    }

    #[test]
    fn every_bad_value_is_named_by_line_and_column() {
        let (rows, errors) = read(
            "filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,income,review,financed_shares\n\
             2024-02-30,CC,1000000001,Ana,natural,trabajador,0,quizá,1e6,LATE,5\n",
        );
        assert!(rows.is_empty());
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "filed_at",
                "shares",
                "accepts_reduction",
                "income",
                "review",
            ],
            "{errors:?}"
        );
        assert!(errors.iter().all(|e| e.line == 2));
    }

    #[test]
    fn the_excel_export_reads_es_co_numbers_and_dates() {
        let (rows, errors) = read(
            "filed_at;doc_type;doc_number;name;person_type;category;shares;patrimonio_liquido;declarations\n\
             15/01/2024 14:05:09;CC;1.000.000.001;Ana;natural;trabajador;1.000;12.500.000,50;sí\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows[0].shares, 1000);
        assert_eq!(
            rows[0].patrimonio_liquido,
            Some(crate::money::dec("12500000.50"))
        );
        assert_eq!(rows[0].filed_at.to_string(), "2024-01-15 14:05:09");
        assert!(rows[0].declarations);
    }
}
