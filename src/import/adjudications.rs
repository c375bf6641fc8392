//! The adjudications file: its column table and how a row reads (a holder's award: document,
//! name, person type, category, shares, price, date, financing, and optionally the holder's
//! contact). Storage is the caller's job.

use super::cells::{Cells, Column, PersonType, acciones, parse_count, why_above_zero};
use super::reader::{Dialect, Fields, RowError, Table, each_record, in_parallel};
use crate::ids::DocType;
use crate::lang::Said;
use crate::program::Program;
use crate::said;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A column of the adjudications CSV; [`COLUMNS`] lists their names in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    DocType,
    DocNumber,
    Name,
    PersonType,
    Category,
    Shares,
    PricePerShare,
    AdjudicatedOn,
    Lender,
    FinancedShares,
}

impl Col {
    const ALL: [Col; 10] = [
        Col::DocType,
        Col::DocNumber,
        Col::Name,
        Col::PersonType,
        Col::Category,
        Col::Shares,
        Col::PricePerShare,
        Col::AdjudicatedOn,
        Col::Lender,
        Col::FinancedShares,
    ];

    /// The column's name in the header (and in a row problem).
    pub(super) const fn name(self) -> &'static str {
        match self {
            Col::DocType => "doc_type",
            Col::DocNumber => "doc_number",
            Col::Name => "name",
            Col::PersonType => "person_type",
            Col::Category => "category",
            Col::Shares => "shares",
            Col::PricePerShare => "price_per_share",
            Col::AdjudicatedOn => "adjudicated_on",
            Col::Lender => "lender",
            Col::FinancedShares => "financed_shares",
        }
    }
}

/// The columns every adjudications CSV names, in any order.
pub const COLUMNS: [&str; 10] = {
    let mut names = [""; 10];
    let mut i = 0;
    while i < Col::ALL.len() {
        names[i] = Col::ALL[i].name();
        i += 1;
    }
    names
};

/// Columns an adjudications CSV may add (an older file without them reads as before): where the
/// holder receives letters. A row that gives any of them records a contact version for its
/// holder, as `holder update` does.
pub const CONTACT_COLUMNS: [&str; 3] = ["address", "city", "email"];

/// One valid row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjudicationRow {
    pub line: usize,
    pub doc_type: DocType,
    /// Canonical document number (NIT with `-DV`).
    pub doc_number: String,
    pub name: String,
    pub person_type: PersonType,
    pub category: String,
    pub shares: u64,
    /// `None`: the program's fixed price.
    pub price_per_share: Option<Decimal>,
    pub adjudicated_on: NaiveDate,
    pub lender: Option<String>,
    pub financed_shares: u64,
    /// The holder's address, city and e-mail when the row gives any of them
    /// ([`CONTACT_COLUMNS`]); `None` when it gives none.
    pub contact: Option<crate::contact::Contact>,
}

impl Column for Col {
    fn name(self) -> &'static str {
        Col::name(self)
    }
    fn at(self) -> usize {
        self as usize
    }
}

/// The optional contact columns, after the required ones.
#[derive(Debug, Clone, Copy)]
struct Contact(usize);

impl Column for Contact {
    fn name(self) -> &'static str {
        CONTACT_COLUMNS[self.0]
    }
    fn at(self) -> usize {
        COLUMNS.len() + self.0
    }
}

/// The adjudications file's columns.
pub(super) const TABLE: Table = Table {
    required: &COLUMNS,
    optional: &CONTACT_COLUMNS,
};

/// Reads every row, handing each valid one to `f` as soon as it is read (so a million rows need
/// not sit in memory), and returns the dialect and every problem found: empty when the file is
/// clean. An error from `f` (storage) stops the reading.
/// Rows are read for `program`: its special-condition categories, and its offer, which no row's
/// shares can exceed.
pub fn each<E>(
    bytes: &[u8],
    program: &Program,
    f: impl FnMut(AdjudicationRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    let categories = Categories {
        program,
        last: Default::default(),
    };
    each_record(
        bytes,
        &TABLE,
        |line, fields| parse_row(line, fields, program, &categories),
        f,
    )
}

/// The categories a file's cells name, the last one remembered: a file names few, often the
/// same row after row, and matching a cell against the program's names (folded, little words
/// dropped) cost more than reading the rest of the row.
struct Categories<'p> {
    program: &'p Program,
    /// The last cell that named a category, and the category.
    last: std::cell::RefCell<Option<(String, &'p str)>>,
}

impl<'p> Categories<'p> {
    /// What [`Program::category`] says of `typed`.
    fn category(&self, typed: &str) -> Result<&'p str, Said> {
        if let Some((cell, c)) = &*self.last.borrow()
            && cell == typed
        {
            return Ok(c);
        }
        let c = self.program.category(typed)?;
        *self.last.borrow_mut() = Some((typed.to_string(), c));
        Ok(c)
    }
}

/// Like [`each`], but the reading and checking run on a second thread while `f` runs on this
/// one (an import spends about as long parsing as storing): rows travel in batches through a
/// bounded channel, so memory stays flat.
pub fn each_in_parallel<E: Send>(
    bytes: &[u8],
    program: &Program,
    mut f: impl FnMut(AdjudicationRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    in_parallel(
        bytes,
        |sink| each(bytes, program, sink),
        |batch| batch.drain(..).try_for_each(&mut f),
    )
}

#[cfg(test)]
/// Parses the whole file into memory; every valid row, or every problem found.
pub fn parse(
    bytes: &[u8],
    program: &Program,
) -> Result<(Vec<AdjudicationRow>, Dialect), Vec<RowError>> {
    let mut rows = Vec::new();
    let (dialect, errors) = each(bytes, program, |r| {
        rows.push(r);
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    if errors.is_empty() {
        Ok((rows, dialect))
    } else {
        Err(errors)
    }
}

fn parse_row(
    line: usize,
    fields: &Fields<'_>,
    program: &Program,
    categories: &Categories<'_>,
) -> Result<AdjudicationRow, Vec<RowError>> {
    let mut row = Cells::new(line, fields);
    let document = row.document(Col::DocType, Col::DocNumber);
    let name = row.required(
        Col::Name,
        Said::new(
            "the holder's name is required",
            "falta el nombre del titular",
        ),
    );
    let person_type = row.person(Col::PersonType);
    let category_s = row.get(Col::Category);
    let category = match categories.category(category_s) {
        Ok(c) if person_type.is_some_and(|t| !program.category_fits(c, t)) => {
            // Art. 3: each category is of natural or of legal persons (LEGAL_NOTES §7.5)
            let (person, persona) = match person_type {
                Some(PersonType::Legal) => ("a legal person", "una persona jurídica"),
                _ => ("a natural person", "una persona natural"),
            };
            let code = &program.code;
            row.fail(
                Col::Category,
                category_s,
                said!(
                    "{c} is not a category of {person} under {code} (Art. 3); check the category or the person type",
                    "{c} no es una categoría de {persona} en {code} (artículo 3); revise la \
                     categoría o el tipo de persona"
                ),
            );
            c.to_string()
        }
        Ok(c) => c.to_string(),
        Err(why) => {
            row.fail(Col::Category, category_s, why);
            category_s.to_string()
        }
    };
    let shares_s = row.get(Col::Shares);
    let shares = match parse_count(shares_s) {
        Ok(n) if n > program.shares_offered => {
            let (offered, code) = (program.shares_offered, &program.code);
            let ofrecidas = acciones(offered);
            row.fail(
                Col::Shares,
                shares_s,
                said!(
                    "exceeds the {offered} shares {code} offers in all; check the figure",
                    "supera las {ofrecidas} acciones que {code} ofrece en total; revise la cifra"
                ),
            );
            None
        }
        Ok(n) if n > 0 => Some(n),
        other => {
            let own = Said::new(
                "must be a whole number of shares greater than zero",
                "debe ser un número entero de acciones mayor que cero",
            );
            row.fail(Col::Shares, shares_s, why_above_zero(&other, own));
            None
        }
    };
    let price_per_share = row.opt_amount(
        Col::PricePerShare,
        true,
        Said::new(
            "must be a positive amount such as 963,00, or empty for the program's fixed price",
            "debe ser un valor positivo, como 963,00, o quedar vacío para usar el precio \
             fijo del programa",
        ),
    );
    let adjudicated_on = row.date(Col::AdjudicatedOn, false).flatten();
    let (lender, financed_shares) = row.financing(
        (Col::Lender, Col::FinancedShares),
        shares,
        |n| {
            let adjudicadas = acciones(n);
            said!(
                "exceeds the {n} shares adjudicated",
                "supera las {adjudicadas} acciones adjudicadas"
            )
        },
        Said::new(
            "financed_shares is set, so the lender that financed them is required",
            "financed_shares tiene un valor, así que falta el prestamista que las financió",
        ),
    );
    // the optional contact columns, their spaces folded
    let contact_value = |k: usize| {
        let v = row.get(Contact(k));
        (!v.is_empty()).then(|| v.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    let contact = crate::contact::Contact {
        address: contact_value(0),
        city: contact_value(1),
        email: contact_value(2),
    };
    if let Some(e) = &contact.email
        && !crate::contact::plausible_email(e)
    {
        row.fail(
            Contact(2),
            e,
            Said::new(
                "is not an e-mail address (one @, a domain with a dot, no spaces); correct it or leave it empty",
                "no es una dirección de correo electrónico (una @, un dominio con punto, sin \
                 espacios); corríjala o déjela vacía",
            ),
        );
    }
    let contact = (!contact.is_empty()).then_some(contact);
    let read = (|| {
        let (doc_type, doc_number) = document?;
        Some(AdjudicationRow {
            line,
            doc_type,
            doc_number,
            name,
            person_type: person_type?,
            category,
            shares: shares?,
            price_per_share: price_per_share?,
            adjudicated_on: adjudicated_on?,
            lender,
            financed_shares: financed_shares?,
            contact,
        })
    })();
    row.finish(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::cells::parse_date;
    use crate::import::reader::Dialect;
    use crate::lang::Lang;
    use crate::money::dec;

    #[test]
    fn each_column_is_read_by_its_own_name() {
        // the reader is positional: a column's place in the table must be its enum order
        for c in Col::ALL {
            assert_eq!(COLUMNS[c as usize], c.name());
        }
        assert_eq!(COLUMNS[9], "financed_shares");
    }

    /// The shipped program, with two of its categories.
    fn cats() -> Program {
        let mut p = Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
        p.categories = vec!["trabajador".into(), "sindicato".into()];
        p
    }

    const HEADER: &str = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n";

    #[test]
    fn reads_plain_utf8_with_bom() {
        let text = format!(
            "\u{feff}{HEADER}CC,79123456,José Pérez,natural,trabajador,1000,,2024-03-15,,\nNIT,800197268-4,Sindicato Único,legal,sindicato,5000,963.50,2024-03-15,Banco X,5000\n"
        );
        let (rows, dialect) = parse(text.as_bytes(), &cats()).unwrap();
        assert_eq!(dialect.encoding, "UTF-8 (BOM)");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].price_per_share, None);
        assert_eq!(rows[1].price_per_share, Some(dec("963.50")));
        assert_eq!(rows[1].lender.as_deref(), Some("Banco X"));
        assert_eq!(rows[1].line, 3);
    }

    #[test]
    fn reads_the_es_co_excel_export() {
        let header = HEADER.replace(',', ";");
        let mut bytes = header.into_bytes();
        // "José Pérez" in Windows-1252: é = 0xE9; amounts 1.450,50 and dates 15/03/2024.
        bytes.extend_from_slice(
            b"CC;79.123.456;Jos\xE9 P\xE9rez;natural;trabajador;1.000;1.450,50;15/03/2024;;\n",
        );
        let (rows, dialect) = parse(&bytes, &cats()).unwrap();
        assert_eq!(
            dialect,
            Dialect {
                encoding: "Windows-1252",
                separator: b';',
                es_co: true
            }
        );
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].doc_number, "79123456");
        assert_eq!(rows[0].shares, 1000);
        assert_eq!(rows[0].price_per_share, Some(dec("1450.50")));
        assert_eq!(
            rows[0].adjudicated_on,
            NaiveDate::from_ymd_opt(2024, 3, 15).unwrap()
        );
    }

    #[test]
    fn reports_every_bad_field_with_its_line() {
        let text = format!(
            "{HEADER}\
             XX,1,A,natural,trabajador,10,,2024-03-15,,\n\
             NIT,800197268-5,B,legal,sindicato,10,,2024-03-15,,\n\
             CC,123456,C,alien,trabajador,0,,2024-03-15,,\n\
             CC,123457,D,natural,gerente,10,-3,2024-02-30,,\n\
             CC,123458,E,natural,trabajador,10,,2024-03-15,,20\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (2, "doc_type"),
                (3, "doc_number"),
                (4, "person_type"),
                (4, "shares"),
                (5, "category"),
                (5, "price_per_share"),
                (5, "adjudicated_on"),
                (6, "financed_shares"),
                (6, "lender"),
            ]
        );
        assert!(errors[1].reason.en().contains("gives 4"), "{}", errors[1]);
    }

    #[test]
    fn a_negative_count_or_price_keeps_the_columns_sentence_which_asks_for_more_than_zero() {
        // the reader's own «must be zero or more» would lead to a zero these columns refuse too
        let text = format!("{HEADER}CC,123456,A,natural,trabajador,-3,-963,2024-03-15,,\n");
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            [
                "line 2: shares \"-3\": must be a whole number of shares greater than zero",
                "line 2: price_per_share \"-963\": must be a positive amount such as 963,00, or \
                 empty for the program's fixed price",
            ]
        );
    }

    #[test]
    fn a_row_cannot_adjudicate_more_than_the_offer() {
        // issue 11: i64::MAX shares in one row; and one share more than Decreto 3939 offers
        let text = format!(
            "{HEADER}CC,123456,A,natural,trabajador,9223372036854775807,,2024-03-15,,\n\
             CC,123457,B,natural,trabajador,12960983,,2024-03-15,,\n\
             CC,123458,C,natural,trabajador,18446744073709551616,,2024-03-15,,\n\
             CC,123459,D,natural,trabajador,12960982,,2024-03-15,,\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            [
                "line 2: shares \"9223372036854775807\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
                "line 3: shares \"12960983\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
                // one more than a count holds: the bound, not «must be greater than zero»
                "line 4: shares \"18446744073709551616\": \"18446744073709551616\" is too large (at most \
                 18.446.744.073.709.551.615); check the figure",
            ]
        );
    }

    #[test]
    fn dates_in_every_layout_of_the_one_reader() {
        let d = NaiveDate::from_ymd_opt(2024, 3, 15).unwrap();
        {
            assert_eq!(parse_date("2024-03-15"), Ok(d));
            assert_eq!(parse_date("15/03/2024"), Ok(d));
            assert_eq!(parse_date("15-03-2024"), Ok(d));
            // what a Spanish-locale Excel writes
            assert_eq!(parse_date("5/03/2024"), Ok(d - chrono::Days::new(10)));
            for bad in [
                "2024-02-30",
                "2024-3-15",
                "2024-03-1x",
                "",
                "15/03/24",
                "45366",
            ] {
                assert!(parse_date(bad).is_err(), "{bad}");
            }
            let far = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
            assert_eq!(
                parse_date("31/12/9999").unwrap_err().problem,
                crate::input::Problem::OutOfRange(far)
            );
        }
    }

    #[test]
    fn the_parallel_reader_hands_on_the_same_rows_in_order_and_stops_on_a_storage_error() {
        let mut text = HEADER.to_string();
        for i in 0..5000 {
            text.push_str(&format!(
                "CC,{},N{i},natural,trabajador,{},,2024-03-15,,\n",
                1_000_000 + i,
                1 + i % 7
            ));
        }
        let mut serial = Vec::new();
        each(text.as_bytes(), &cats(), |r| {
            serial.push((r.line, r.doc_number, r.shares));
            Ok::<(), ()>(())
        })
        .unwrap();
        let mut parallel = Vec::new();
        let (_, errors) = each_in_parallel(text.as_bytes(), &cats(), |r| {
            parallel.push((r.line, r.doc_number, r.shares));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(errors.is_empty());
        assert_eq!(serial.len(), 5000);
        assert_eq!(parallel, serial);
        let mut seen = 0;
        let stopped = each_in_parallel(text.as_bytes(), &cats(), |_| {
            seen += 1;
            if seen == 3000 {
                Err("disk full")
            } else {
                Ok(())
            }
        });
        assert_eq!(stopped.unwrap_err(), "disk full");
        assert_eq!(seen, 3000);
        // a bad row anywhere is reported with its line
        let bad = text.replace("CC,1004000,", "XX,1004000,");
        let (_, errors) = each_in_parallel(bad.as_bytes(), &cats(), |_| Ok::<(), ()>(())).unwrap();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].line, errors[0].field.as_str()),
            (4002, "doc_type")
        );
    }

    #[test]
    fn row_problems_are_said_in_spanish_for_the_web() {
        let text = format!(
            "{HEADER}\
             CC,123456,A,alien,trabajador,10,,15/03/24,,\n\
             CC,123457,B,natural,trabajador,10,,2024-03-15,,\n\
             CC,123457,B,natural,trabajador,10,,2024-03-15,,\n\
             XX,1,C,natural,trabajador,12960983,,2024-03-15,,\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let es: Vec<String> = errors.iter().map(|e| e.in_lang(Lang::Es)).collect();
        assert_eq!(
            es,
            [
                "línea 2: person_type «alien»: «alien» no es un tipo de persona; use natural o legal \
                 (jurídica)",
                "línea 2: adjudicated_on «15/03/24»: «15/03/24» tiene el año con dos dígitos, que \
                 vigia no adivina; escriba los cuatro, p. ej. 15/03/2024",
                "línea 4: repite exactamente la línea 3; cada fila va una sola vez: borre una de las \
                 dos",
                "línea 5: doc_type «XX»: «XX» no es un tipo de documento; use CC, CE, TI, PA, PEP, \
                 PPT o NIT",
                "línea 5: shares «12960983»: supera las 12.960.982 acciones que D3939-2004 ofrece en \
                 total; revise la cifra",
            ]
        );
        // the command line's words are as they were
        assert_eq!(
            errors[2].in_lang(Lang::En),
            "line 4: repeats line 3 exactly; a row is listed once: remove one of the two"
        );
        assert_eq!(errors[2].in_lang(Lang::En), errors[2].to_string());
        // the Excel export writes dates dd/mm/aaaa; a NIT without its check digit; a value with
        // a control character, shown escaped
        let excel = "doc_type;doc_number;name;person_type;category;shares;price_per_share;adjudicated_on;lender;financed_shares\n\
                     NIT;800197268;A;legal;sindicato;10;;30/02/2024;;\n\
                     CC;123456;B\u{7};natural;trabajador;10;;31/12/9999;;\n";
        let errors = parse(excel.as_bytes(), &cats()).unwrap_err();
        let es: Vec<String> = errors.iter().map(|e| e.in_lang(Lang::Es)).collect();
        assert_eq!(
            es,
            [
                "línea 2: doc_number «800197268»: al NIT 800197268 le falta el dígito de \
                 verificación; escriba 800197268-4",
                "línea 2: adjudicated_on «30/02/2024»: «30/02/2024» no es un día del calendario; \
                 revise el día y el mes (dd/mm/aaaa)",
                "línea 3: name «B\\u{7}»: tiene el carácter de control U+0007 en la posición 2; los \
                 valores se imprimen en los avisos y deben ser texto simple: quítelo",
            ]
        );
        let excel = excel.replace("B\u{7}", "B");
        let errors = parse(excel.as_bytes(), &cats()).unwrap_err();
        assert_eq!(
            errors[2].reason.es(),
            "31/12/9999 está fuera de las fechas que vigia acepta, del 01/01/1990 al 31/12/2099; \
             revise el año"
        );
        assert_eq!(
            errors[2].reason.en(),
            "31/12/9999 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099; check the year"
        );
    }

    #[test]
    fn header_must_name_every_column() {
        let errors = parse(b"doc_type,doc_number\nCC,1\n", &cats()).unwrap_err();
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].reason.en().contains("missing column name"),
            "{}",
            errors[0]
        );
        // a header's problem is the header's, in the reader's language: not vigia's field name
        let es = errors[0].in_lang(Lang::Es);
        assert!(
            es.starts_with("línea 1: encabezado «doc_type,doc_number»: "),
            "{es}"
        );
        assert!(
            errors[0]
                .in_lang(Lang::En)
                .starts_with("line 1: header \"doc_type,doc_number\": "),
            "{}",
            errors[0]
        );
    }

    /// A problem of a whole line (here: no rows at all) names it a row: «fila» in Spanish, not
    /// vigia's English word.
    #[test]
    fn a_problem_of_a_whole_row_is_a_fila_in_spanish() {
        let errors = parse(HEADER.as_bytes(), &cats()).unwrap_err();
        assert_eq!(
            errors[0].in_lang(Lang::Es),
            "línea 2: fila «»: el archivo no tiene filas"
        );
        assert_eq!(
            errors[0].in_lang(Lang::En),
            "line 2: row \"\": the file has no rows"
        );
    }
}
