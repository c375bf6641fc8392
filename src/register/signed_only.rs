//! A program that issues its notices (or paz y salvo certificates) only signed (its
//! `[signatures] required_for`): the web refuses to issue them unsigned while the session holds
//! no certificate (the command line refuses its own way, naming its `--sign`).

use super::{Field, Refusal, Result};
use crate::program_sign::Signed;
use crate::said;
use crate::store::{adjudications, breaches, programs};
use rusqlite::Connection;

/// The code of breach `breach_id`'s program when it issues `what` only signed; `None` otherwise.
pub fn program_requiring(
    conn: &Connection,
    breach_id: i64,
    what: Signed,
) -> Result<Option<String>> {
    let b = breaches::get(conn, breach_id)?;
    let a = adjudications::get(conn, b.adjudication_id)?;
    let p = programs::by_id(conn, a.program_id)?;
    Ok(p.program
        .signatures
        .required(what)
        .then_some(p.program.code))
}

/// Refuses to issue `what` for breach `breach_id` unsigned when its program requires them signed.
pub fn refuse_unsigned(conn: &Connection, breach_id: i64, what: Signed) -> Result<()> {
    let Some(code) = program_requiring(conn, breach_id, what)? else {
        return Ok(());
    };
    let (en, es) = match what {
        Signed::Notices => ("notices", "avisos"),
        Signed::Settlements => ("paz y salvo certificates", "paz y salvo"),
    };
    Err(Refusal::value(
        Field::Breach,
        breach_id,
        said!(
            register_fines::program_issues_only_signed_signatures_required,
            code,
            en,
            es
        ),
    )
    .into())
}
