//! The register's rules on top of the store and the fine engine, one file per aggregate (breach,
//! payment, pledge, offering, stage; pricing a stored breach, live or as an immutable liquidation that keeps every
//! input, is here). Every rule runs inside the caller's write transaction and refuses with a typed
//! [`Refusal`] naming a [`Field`], never a flag: each front end names the field its own way. No
//! clap and no printing.

pub mod acta_files;
pub mod adjudication;
pub mod audit;
pub mod backup;
pub mod breach;
pub mod difference;
pub mod external;
pub mod holder;
pub mod letterhead;
pub mod liquidation;
pub mod lockups;
pub mod notice;
pub mod notice_data;
pub mod offering;
pub mod offering_page;
pub mod payment;
pub mod pledge;
pub mod pledge_shares;
pub mod program;
pub mod rates;
mod refusal;
pub mod renderings;
pub mod settlement;
pub mod signed_only;
pub mod signing;
pub mod stage;
pub mod user;
pub mod validity;
pub mod verify;
pub mod verify_signed;

pub use refusal::{Act, Field, Record, Refusal};

use crate::lang::{Said, momento};
use crate::said;
use crate::store::breaches::Void;

use crate::fine::FineError;
use crate::store::StoreError;
use std::fmt;

/// Errors of the register's rules.
#[derive(Debug)]
pub enum Error {
    Store(StoreError),
    Fine(FineError),
    /// A rule refused the write.
    Refused(Refusal),
    /// Rules refused several parts of one write (e.g. a release in bulk): every reason.
    Refusals(Vec<Refusal>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Store(e) => e.fmt(f),
            Error::Fine(e) => e.fmt(f),
            Error::Refused(r) => r.fmt(f),
            Error::Refusals(rs) => {
                write!(f, "{} problem(s), nothing was written:", rs.len())?;
                for r in rs {
                    write!(f, "\n  {r}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        Error::Store(e)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Store(StoreError::Sqlite(e))
    }
}

impl From<FineError> for Error {
    fn from(e: FineError) -> Self {
        Error::Fine(e)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Why a record voided before cannot be voided again (its void: when, by whom, why); `feminine`
/// for a record Spanish names in the feminine (la adjudicación, la prenda).
fn already_voided(v: &Void, feminine: bool) -> Said {
    let (at, by, reason) = (&v.at, &v.by, &v.reason);
    let at_es = momento(at);
    let anulado = if feminine { "anulada" } else { "anulado" };
    said!(register::already_voided_by, at, by, reason, anulado, at_es)
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        Error::Refused(r)
    }
}

#[cfg(test)]
mod tests;
