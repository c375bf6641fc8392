//! How domain values sit in SQLite columns: the one place where a stored integer or text becomes
//! a domain type (`FromSql`) and back (`ToSql`), in exactly the stored forms the audit trail hashes
//! (ISO dates, exact decimals as text, enums by their kebab-case or upper-case names, counts as
//! non-negative integers). A value that does not convert is read as corrupt, naming its table,
//! column and value; nothing is wrapped with `as`.

use crate::fine::Convention;
use crate::ids::DocType;
use crate::import::PersonType;
use crate::program::BreachKind;
use chrono::NaiveDate;
use rusqlite::Row;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use rust_decimal::Decimal;
use std::fmt;

/// A count of shares: stored as an INTEGER, never negative. The one checked conversion between
/// SQLite's `i64` and the domain's `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shares(pub u64);

impl FromSql for Shares {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let n = i64::column_result(value)?;
        u64::try_from(n)
            .map(Shares)
            .map_err(|_| bad("is a negative number of shares"))
    }
}

impl ToSql for Shares {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        i64::try_from(self.0)
            .map(ToSqlOutput::from)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
    }
}

/// A date stored as ISO `YYYY-MM-DD` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day(pub NaiveDate);

impl FromSql for Day {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        crate::calendar::parse_iso(value.as_str()?)
            .map(Day)
            .ok_or_else(|| bad("is not a date"))
    }
}

impl ToSql for Day {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.to_string()))
    }
}

/// An exact decimal stored as text (never a binary float).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exact(pub Decimal);

impl FromSql for Exact {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        crate::money::parse_decimal(value.as_str()?)
            .map(Exact)
            .map_err(|_| bad("is not a decimal"))
    }
}

impl ToSql for Exact {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.to_string()))
    }
}

/// Enums stored as their names: `as_str` writes, the same names read back (exactly; the lenient
/// parsing of user input is not for stored values).
macro_rules! stored_by_name {
    ($ty:ty, $what:literal) => {
        impl FromSql for $ty {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                let text = value.as_str()?;
                <$ty>::ALL
                    .into_iter()
                    .find(|v| v.as_str() == text)
                    .ok_or_else(|| bad(concat!("is not ", $what)))
            }
        }

        impl ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
    };
}

stored_by_name!(DocType, "a document type");
stored_by_name!(PersonType, "a person type");
stored_by_name!(BreachKind, "a breach kind");
stored_by_name!(Convention, "a convention");
stored_by_name!(crate::contact::DocFormat, "a document format");
stored_by_name!(crate::contact::Via, "a delivery channel");
stored_by_name!(crate::offering::adjudicate::Status, "an offering outcome");

/// A rejection cause as stored: a built-in one by its exact name, or a program's code (checked
/// against the program when it was recorded); anything else is corrupt, never read as no cause.
impl FromSql for crate::offering::adjudicate::Cause {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        crate::offering::adjudicate::Cause::parse(value.as_str()?)
            .ok_or_else(|| bad("is not a rejection cause"))
    }
}

/// A later stage stored as its number (2 or 3); any other number is corrupt.
impl FromSql for crate::later_stages::Stage {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let n = i64::column_result(value)?;
        u8::try_from(n)
            .ok()
            .and_then(crate::later_stages::Stage::from_number)
            .ok_or_else(|| bad("is not a later stage (2 or 3)"))
    }
}

impl ToSql for crate::later_stages::Stage {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(i64::from(self.number())))
    }
}

/// Why a stored value does not convert; the column and value are added by [`Cols::get`].
#[derive(Debug)]
struct Bad(&'static str);

impl fmt::Display for Bad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Bad {}

fn bad(reason: &'static str) -> FromSqlError {
    FromSqlError::Other(Box::new(Bad(reason)))
}

/// A stored value that could not be read, with its table, column and value: what
/// `StoreError::Corrupt` says.
#[derive(Debug)]
pub(crate) struct Corruption(pub String);

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Corruption {}

/// A stored value that cannot be used although column `i` converted (e.g. a program file that no
/// longer validates): corrupt, with `message` saying what and where.
pub(crate) fn corrupt(i: usize, message: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        i,
        rusqlite::types::Type::Text,
        Box::new(Corruption(message)),
    )
}

/// The columns of one row, read as the table `table` stores them.
pub(crate) struct Cols<'a, 'r> {
    row: &'a Row<'r>,
    table: &'static str,
}

impl<'a, 'r> Cols<'a, 'r> {
    pub fn new(row: &'a Row<'r>, table: &'static str) -> Self {
        Cols { row, table }
    }

    /// Column `i` as a `T`; a value that does not convert is a [`Corruption`] naming the table,
    /// the column and the value (carried through rusqlite's conversion error).
    pub fn get<T: FromSql>(&self, i: usize) -> rusqlite::Result<T> {
        let value = self.row.get_ref(i)?;
        T::column_result(value).map_err(|e| {
            let reason = match &e {
                FromSqlError::InvalidType => "has the wrong type".to_string(),
                FromSqlError::OutOfRange(_) => "is out of range".to_string(),
                other => other.to_string(),
            };
            let column = self.row.as_ref().column_name(i).unwrap_or("?");
            let shown = match value {
                ValueRef::Null => "NULL".to_string(),
                ValueRef::Integer(n) => n.to_string(),
                ValueRef::Real(x) => x.to_string(),
                ValueRef::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
                ValueRef::Blob(_) => "(a blob)".to_string(),
            };
            rusqlite::Error::FromSqlConversionFailure(
                i,
                value.data_type(),
                Box::new(Corruption(format!(
                    "{}.{column} {shown} {reason}",
                    self.table
                ))),
            )
        })
    }

    pub fn shares(&self, i: usize) -> rusqlite::Result<u64> {
        Ok(self.get::<Shares>(i)?.0)
    }

    pub fn date(&self, i: usize) -> rusqlite::Result<NaiveDate> {
        Ok(self.get::<Day>(i)?.0)
    }

    pub fn opt_date(&self, i: usize) -> rusqlite::Result<Option<NaiveDate>> {
        Ok(self.get::<Option<Day>>(i)?.map(|d| d.0))
    }

    pub fn decimal(&self, i: usize) -> rusqlite::Result<Decimal> {
        Ok(self.get::<Exact>(i)?.0)
    }

    pub fn opt_decimal(&self, i: usize) -> rusqlite::Result<Option<Decimal>> {
        Ok(self.get::<Option<Exact>>(i)?.map(|d| d.0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Store, StoreError, adjudications};
    use crate::program::{DECRETO_3939_2004, Program};

    /// A register with one adjudication written by hand with SQL (as a hand edit would), whose
    /// holder's document type is `doc_type` and whose financed shares are `financed`.
    fn hand_written(doc_type: &str, financed: i64) -> Store {
        let mut store = Store::in_memory().unwrap();
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        store
            .write::<_, crate::register::Error>("ana", |tx| {
                crate::register::program::add(tx, &program, DECRETO_3939_2004)
            })
            .unwrap();
        store
            .conn()
            .execute_batch(&format!(
                "INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, created_by)
                 VALUES ('{doc_type}', '123', 'A', 'natural', 't', 'u');
                 INSERT INTO imports (program_id, file_name, sha256, encoding, created_at, created_by)
                 VALUES (1, 'a.csv', 'x', 'UTF-8', 't', 'u');
                 INSERT INTO adjudications (program_id, holder_id, import_id, line, category, shares,
                     price_per_share, adjudicated_on, lender, financed_shares, created_at, created_by)
                 VALUES (1, 1, 1, 2, 'trabajador', 10, '963.00', '2024-03-15', 'Banco', {financed}, 't', 'u');"
            ))
            .unwrap();
        store
    }

    fn corrupt(store: &Store) -> String {
        match adjudications::get(store.conn(), 1) {
            Err(StoreError::Corrupt(m)) => m,
            other => panic!("not read as corrupt: {other:?}"),
        }
    }

    #[test]
    fn a_well_formed_row_reads_back_typed() {
        let store = hand_written("CC", 5);
        let a = adjudications::get(store.conn(), 1).unwrap();
        assert_eq!(a.holder.doc_type, crate::ids::DocType::Cc);
        assert_eq!(a.holder.person_type, crate::import::PersonType::Natural);
        assert_eq!((a.shares, a.financed_shares), (10, 5));
    }

    #[test]
    fn a_negative_count_of_shares_is_corrupt_not_wrapped() {
        let store = hand_written("CC", -5);
        let m = corrupt(&store);
        assert_eq!(
            m,
            "adjudications.financed_shares -5 is a negative number of shares"
        );
        let e = StoreError::Corrupt(m).to_string();
        assert!(e.starts_with("stored data cannot be read: "), "{e}");
        // and the streaming read says the same
        let listed = adjudications::each::<StoreError>(store.conn(), None, None, |_| Ok(()));
        assert!(matches!(listed, Err(StoreError::Corrupt(_))), "{listed:?}");
    }

    #[test]
    fn an_unknown_enum_name_is_corrupt_naming_the_column() {
        let store = hand_written("XX", 0);
        assert_eq!(
            corrupt(&store),
            "holders.doc_type \"XX\" is not a document type"
        );
        // stored names are exact: the lenient parsing of input is not applied to stored values
        let store = hand_written("cc", 0);
        assert_eq!(
            corrupt(&store),
            "holders.doc_type \"cc\" is not a document type"
        );
    }

    #[test]
    fn an_outcome_is_read_back_by_its_stored_name_and_an_unknown_one_is_corrupt() {
        use crate::offering::adjudicate::Status;
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read = |text: &str| {
            conn.query_row("SELECT ?1 AS status", [text], |r| {
                super::Cols::new(r, "offering_outcomes").get::<Status>(0)
            })
        };
        assert_eq!(read("awarded").unwrap(), Status::Awarded);
        assert_eq!(read("rejected").unwrap(), Status::Rejected);
        for unknown in ["pending", "Awarded", "adjudicada"] {
            match read(unknown) {
                Err(rusqlite::Error::FromSqlConversionFailure(_, _, e)) => assert_eq!(
                    e.to_string(),
                    format!("offering_outcomes.status \"{unknown}\" is not an offering outcome")
                ),
                other => panic!("{unknown:?} not refused: {other:?}"),
            }
        }
    }

    #[test]
    fn a_stored_cause_is_a_known_or_program_code_and_anything_else_is_corrupt() {
        use crate::offering::adjudicate::Cause;
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read = |text: &str| {
            conn.query_row("SELECT ?1 AS cause", [text], |r| {
                super::Cols::new(r, "offering_outcomes").get::<Option<Cause>>(0)
            })
        };
        assert_eq!(read("LATE").unwrap(), Some(Cause::Late));
        // a program's own cause code (upper case, digits, underscores) reads back as that code
        assert_eq!(
            read("SIN_PAZ_Y_SALVO").unwrap().map(Cause::as_str),
            Some("SIN_PAZ_Y_SALVO")
        );
        // before, an unreadable stored cause was silently read as no cause at all
        for unknown in ["late", "fuera de plazo", ""] {
            match read(unknown) {
                Err(rusqlite::Error::FromSqlConversionFailure(_, _, e)) => assert_eq!(
                    e.to_string(),
                    format!("offering_outcomes.cause \"{unknown}\" is not a rejection cause")
                ),
                other => panic!("{unknown:?} not refused: {other:?}"),
            }
        }
    }

    #[test]
    fn a_stored_stage_is_2_or_3_and_any_other_number_is_corrupt() {
        use crate::later_stages::Stage;
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read = |n: i64| {
            conn.query_row("SELECT ?1 AS stage", [n], |r| {
                super::Cols::new(r, "stage_tranches").get::<Stage>(0)
            })
        };
        assert_eq!(read(2).unwrap(), Stage::Second);
        assert_eq!(read(3).unwrap(), Stage::Third);
        for n in [0, 1, 4, 256, -2] {
            match read(n) {
                Err(rusqlite::Error::FromSqlConversionFailure(_, _, e)) => assert_eq!(
                    e.to_string(),
                    format!("stage_tranches.stage {n} is not a later stage (2 or 3)")
                ),
                other => panic!("{n} not refused: {other:?}"),
            }
        }
        // written as the number it always was
        let stored: i64 = conn
            .query_row("SELECT ?1", [Stage::Third], |r| r.get(0))
            .unwrap();
        assert_eq!(stored, 3);
    }

    #[test]
    fn enums_are_stored_by_the_names_they_always_had() {
        use rusqlite::types::{ToSql, ToSqlOutput, Value};
        let text = |v: &dyn ToSql| match v.to_sql().unwrap() {
            ToSqlOutput::Borrowed(rusqlite::types::ValueRef::Text(t)) => {
                Value::Text(String::from_utf8(t.to_vec()).unwrap())
            }
            ToSqlOutput::Owned(v) => v,
            _ => unreachable!(),
        };
        assert_eq!(text(&crate::ids::DocType::Nit), Value::Text("NIT".into()));
        assert_eq!(
            text(&crate::fine::Convention::PeriodEffective),
            Value::Text("period-effective".into())
        );
        assert_eq!(
            text(&crate::program::BreachKind::DacionEnPago),
            Value::Text("dacion-en-pago".into())
        );
        assert_eq!(text(&super::Shares(7)), Value::Integer(7));
        assert!(super::Shares(u64::MAX).to_sql().is_err());
    }
}
