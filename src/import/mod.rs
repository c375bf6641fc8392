//! Reading the files people import the way they really have them: UTF-8 with or without BOM, or
//! the es-CO Excel export (Windows-1252, `;` separator, `1.450,50` amounts, `15/03/2024` dates);
//! a workbook's sheet arrives as CSV text ([`crate::workbook`]). One reader ([`reader`]) for
//! every kind of file, each kind a column table and a row parser reading its cells through
//! [`cells`]: adjudications and pledges here, acceptances and proposals in
//! the offering module. Pure: bytes in, validated rows or every row problem out (each said in
//! English and Spanish); storage is the caller's job.

mod adjudications;
pub(crate) mod cells;
mod pledges;
pub(crate) mod reader;
mod seen;

pub use adjudications::{AdjudicationRow, each_in_parallel};
pub use cells::PersonType;
pub(crate) use cells::{parse_amount, parse_count, why, why_above_zero};
pub use pledges::{PledgeOf, PledgeRow, each_pledge_in_parallel};
pub use reader::{Dialect, Fields, Headed, Remedy, RowError, Table, each_record, sniff};
pub(crate) use reader::{in_parallel, sniff_text};

// what the tests (and the template's check of its columns) name
#[cfg(test)]
pub use adjudications::{COLUMNS, CONTACT_COLUMNS, each};
#[cfg(test)]
pub use pledges::{PLEDGE_COLUMNS, PLEDGE_OPTIONAL, each_pledge};
