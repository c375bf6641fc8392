//! The pledge file: its column table and how a row reads (which adjudication is pledged, by id
//! or by its holder's document; the rank, the date, the lender, the shares).

use super::cells::{Cells, Column};
use super::reader::{Dialect, Fields, RowError, Table, each_record, in_parallel};
use crate::ids::DocType;
use crate::lang::Said;
use chrono::NaiveDate;

/// The columns every pledge file has: which rank, when it was registered in the share ledger.
/// Which adjudication is pledged comes from [`PLEDGE_OPTIONAL`]: vigia's `adjudication_id`, or
/// the holder's `doc_type,doc_number` (officers do not have vigia's ids).
pub const PLEDGE_COLUMNS: [&str; 2] = [PledgeCol::Rank.name(), PledgeCol::RegisteredOn.name()];
/// Columns a pledge file may add: the adjudication's id, or its holder's document (checked
/// against the adjudication when both are given), with the adjudication date and the program's
/// code when the holder has several adjudications; the financing lender (default: the
/// adjudication's); and the shares the pledge covers (default: every share of the adjudication
/// no pledge in force covers; Art. 10: a lender's financed shares may carry a second-degree
/// pledge and the rest a first-degree one).
pub const PLEDGE_OPTIONAL: [&str; 7] = [
    PledgeCol::AdjudicationId.name(),
    PledgeCol::Lender.name(),
    PledgeCol::DocType.name(),
    PledgeCol::DocNumber.name(),
    PledgeCol::AdjudicatedOn.name(),
    PledgeCol::Program.name(),
    PledgeCol::Shares.name(),
];

/// A column of a pledge file, required ones first, in the order of [`PLEDGE_COLUMNS`] then
/// [`PLEDGE_OPTIONAL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PledgeCol {
    Rank,
    RegisteredOn,
    AdjudicationId,
    Lender,
    DocType,
    DocNumber,
    AdjudicatedOn,
    Program,
    Shares,
}

impl PledgeCol {
    pub(super) const fn name(self) -> &'static str {
        match self {
            PledgeCol::Rank => "rank",
            PledgeCol::RegisteredOn => "registered_on",
            PledgeCol::AdjudicationId => "adjudication_id",
            PledgeCol::Lender => "lender",
            PledgeCol::DocType => "doc_type",
            PledgeCol::DocNumber => "doc_number",
            PledgeCol::AdjudicatedOn => "adjudicated_on",
            PledgeCol::Program => "program",
            PledgeCol::Shares => "shares",
        }
    }
}

/// Which adjudication a row of a pledge file pledges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PledgeOf {
    /// vigia's adjudication id; the holder's document, when the file gives it, is checked
    /// against the adjudication's holder.
    Id {
        adjudication_id: i64,
        holder: Option<(DocType, String)>,
    },
    /// The holder's document (canonical number): the holder's one adjudication that is not
    /// void, or the one of that date and program when the file gives them.
    Holder {
        doc_type: DocType,
        doc_number: String,
        adjudicated_on: Option<NaiveDate>,
        program: Option<String>,
    },
}

/// One valid row of a pledge file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PledgeRow {
    pub line: usize,
    pub of: PledgeOf,
    pub rank: u8,
    pub registered_on: NaiveDate,
    pub lender: Option<String>,
    /// The shares the pledge covers, when the file says.
    pub shares: Option<u64>,
}

impl Column for PledgeCol {
    fn name(self) -> &'static str {
        PledgeCol::name(self)
    }
    fn at(self) -> usize {
        self as usize
    }
}

/// The pledge file's columns.
pub(super) const PLEDGE_TABLE: Table = Table {
    required: &PLEDGE_COLUMNS,
    optional: &PLEDGE_OPTIONAL,
};

/// Reads a pledge file like [`super::each`] reads adjudications.
pub fn each_pledge<E>(
    bytes: &[u8],
    f: impl FnMut(PledgeRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    each_record(bytes, &PLEDGE_TABLE, parse_pledge_row, f)
}

/// Like [`each_pledge`], reading on a second thread (see [`super::each_in_parallel`]).
pub fn each_pledge_in_parallel<E: Send>(
    bytes: &[u8],
    mut f: impl FnMut(PledgeRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    in_parallel(
        bytes,
        |sink| each_pledge(bytes, sink),
        |batch| batch.drain(..).try_for_each(&mut f),
    )
}

fn parse_pledge_row(line: usize, fields: &Fields<'_>) -> Result<PledgeRow, Vec<RowError>> {
    let mut row = Cells::new(line, fields);
    let adjudication_id = match row.get(PledgeCol::AdjudicationId) {
        "" => Some(None),
        id_s => match id_s.parse::<i64>().ok().filter(|&id| id > 0) {
            Some(id) => Some(Some(id)),
            None => {
                row.fail_remedied(
                    PledgeCol::AdjudicationId,
                    id_s,
                    Said::new(
                        "must be the id of an adjudication",
                        "debe ser el número de una adjudicación del registro",
                    ),
                    super::Remedy::LookUpAdjudications,
                );
                None
            }
        },
    };
    let rank = match row.get(PledgeCol::Rank) {
        "1" => Some(1),
        "2" => Some(2),
        rank_s => {
            row.fail(
                PledgeCol::Rank,
                rank_s,
                Said::new(
                    "must be 1 (first degree) or 2 (second degree, when the lender holds the first)",
                    "debe ser 1 (primer grado) o 2 (segundo grado, cuando el prestamista tiene el \
                     primero)",
                ),
            );
            None
        }
    };
    let registered_on = row.date(PledgeCol::RegisteredOn, false).flatten();
    let lender = row.text(PledgeCol::Lender);
    let (doc_type_s, doc_number_s) = (row.get(PledgeCol::DocType), row.get(PledgeCol::DocNumber));
    let holder = match (doc_type_s.is_empty(), doc_number_s.is_empty()) {
        (true, true) => Some(None),
        (false, false) => row
            .document(PledgeCol::DocType, PledgeCol::DocNumber)
            .map(Some),
        (true, false) => {
            row.fail(
                PledgeCol::DocType,
                "",
                Said::new(
                    "give it with doc_number, or leave both empty",
                    "escríbalo junto con doc_number, o deje ambos vacíos",
                ),
            );
            None
        }
        (false, true) => {
            row.fail(
                PledgeCol::DocNumber,
                "",
                Said::new(
                    "give it with doc_type, or leave both empty",
                    "escríbalo junto con doc_type, o deje ambos vacíos",
                ),
            );
            None
        }
    };
    let adjudicated_on = row.date(PledgeCol::AdjudicatedOn, true);
    let program = row.text(PledgeCol::Program);
    let shares = row.opt_count(
        PledgeCol::Shares,
        Said::new(
            "must be the whole number of shares the pledge covers, or empty for every share not yet pledged",
            "debe ser el número entero de acciones que cubre la prenda, o quedar vacío para todas las aún \
             no pignoradas",
        ),
    );
    let of = match (adjudication_id, holder, adjudicated_on) {
        (Some(Some(adjudication_id)), Some(holder), Some(_)) => Some(PledgeOf::Id {
            adjudication_id,
            holder,
        }),
        (Some(None), Some(Some((doc_type, doc_number))), Some(adjudicated_on)) => {
            Some(PledgeOf::Holder {
                doc_type,
                doc_number,
                adjudicated_on,
                program,
            })
        }
        (Some(None), Some(None), _) => {
            row.fail(
                PledgeCol::AdjudicationId,
                "",
                Said::new(
                    "say which adjudication is pledged: its id, or the holder's doc_type and doc_number",
                    "indique qué adjudicación se pignora: su número, o doc_type y doc_number del \
                     titular",
                ),
            );
            None
        }
        _ => None,
    };
    let read = match (of, rank, registered_on, shares) {
        (Some(of), Some(rank), Some(registered_on), Some(shares)) => Some(PledgeRow {
            line,
            of,
            rank,
            registered_on,
            lender,
            shares,
        }),
        _ => None,
    };
    row.finish(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_column_is_read_by_its_own_name() {
        // the reader is positional: a column's place in the table must be its enum order
        let pledge: Vec<&str> = PLEDGE_COLUMNS
            .iter()
            .chain(&PLEDGE_OPTIONAL)
            .copied()
            .collect();
        for c in [
            PledgeCol::Rank,
            PledgeCol::RegisteredOn,
            PledgeCol::AdjudicationId,
            PledgeCol::Lender,
            PledgeCol::DocType,
            PledgeCol::DocNumber,
            PledgeCol::AdjudicatedOn,
            PledgeCol::Program,
        ] {
            assert_eq!(pledge[c as usize], c.name());
        }
        assert_eq!(pledge[7], "program");
    }
}
