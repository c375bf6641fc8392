//! The acta of a program's stored first-stage run written from the register as its rows are
//! read (`register::offering::each_stored_row`: Markdown and HTML twice, the tally then the
//! table; PDF once into a spool its layout reads, see `acta::write_pdf`), with the small page
//! cache and the sort on disk (`store::streaming`): memory holds a row or a page, not the run.
//! What `vigia offer acta` and the web's download write; rendering only, from a read.

use super::acta::{self, ActaHead, Format, Pass};
use crate::register::offering as rules;
use crate::store::StoreError;
use crate::store::programs::StoredProgram;
use rusqlite::Connection;
use std::io::Write;

/// Why a stored run's acta was not written.
#[derive(Debug)]
pub enum Unwritten {
    /// The program's offer has no stored run.
    NotAdjudicated,
    Register(crate::register::Error),
    /// The rows of run `run` could not be read as the PDF was laid out (the reader's sentence).
    Rows {
        run: i64,
        reason: String,
    },
    Io(std::io::Error),
}

impl From<StoreError> for Unwritten {
    fn from(e: StoreError) -> Unwritten {
        Unwritten::Register(e.into())
    }
}

impl From<crate::register::Error> for Unwritten {
    fn from(e: crate::register::Error) -> Unwritten {
        Unwritten::Register(e)
    }
}

impl From<std::io::Error> for Unwritten {
    fn from(e: std::io::Error) -> Unwritten {
        Unwritten::Io(e)
    }
}

/// Writes the acta of `p`'s stored run in `format` to `out`; the run's id.
pub fn write(
    conn: &Connection,
    p: &StoredProgram,
    format: Format,
    out: &mut dyn Write,
) -> Result<i64, Unwritten> {
    crate::store::streaming(conn, || write_rows(conn, p, format, out))?
}

fn write_rows(
    conn: &Connection,
    p: &StoredProgram,
    format: Format,
    out: &mut dyn Write,
) -> Result<i64, Unwritten> {
    let run = crate::store::offering::run(conn, p.id)?.ok_or(Unwritten::NotAdjudicated)?;
    let header = rules::stored_header(conn, p, &run)?;
    let head = ActaHead {
        program: &p.program,
        run_id: run.id,
        fingerprint: &run.fingerprint,
        header: &header,
    };
    if format == Format::Md || format == Format::Html {
        let write = match format {
            Format::Md => acta::write_markdown::<Unwritten>,
            _ => acta::write_html::<Unwritten>,
        };
        write(out, &head, &mut |f| {
            rules::each_stored_row::<Unwritten>(conn, run.id, |r| f(&r))
        })?;
        return Ok(run.id);
    }
    // a page at a time, the rows read again from the register at each pass; a run's
    // outcomes are never edited once committed, so every pass reads the same rows
    acta::write_pdf(out, &head, &|f| {
        rules::each_stored_row::<Pass>(conn, run.id, |r| f(&r))
    })
    .map_err(|e| match e {
        super::pdf::stream::WriteError::Io(e) => Unwritten::Io(e),
        super::pdf::stream::WriteError::Rows(reason) => Unwritten::Rows {
            run: run.id,
            reason,
        },
    })?;
    Ok(run.id)
}
