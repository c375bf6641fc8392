//! What the web shows after verifying a notice or a paz y salvo (`/avisos/verificar`), worded:
//! the outcome, what a paid fine's holder is owed, the document named, and a row per check with
//! how it came out. Each catalogue words it from the register's typed [`Verified`]
//! ([`super::Catalogue::verification`], [`super::Catalogue::unverifiable`]: `es_verification`,
//! `en_verification`); the web only lays it out (`vigia notice verify` says the same facts as
//! lines: [`super::Catalogue::verified`]).

#[cfg(doc)]
use crate::register::verify::Verified;

/// How a check of a verified document came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Holds,
    Fails,
    /// Nothing to compare.
    NoData,
    /// Not a check: something to know.
    Note,
}

/// One check, worded: what was checked, how it came out (and how that reads), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub check: &'static str,
    pub mark: Mark,
    pub shown: &'static str,
    pub detail: String,
}

/// What a verification page says of a document the register could check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// Whether it matches, in one sentence.
    pub outcome: String,
    /// A notice whose fine has been paid in full since: what its holder is owed now.
    pub paid: Option<String>,
    /// The document named: the words before its number, its number, the words after.
    pub document: (String, String, String),
    /// The headers of the table of checks.
    pub headers: [&'static str; 3],
    pub rows: Vec<Row>,
}

/// What a verification page says of a file that is no document vigia can check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unverified {
    pub outcome: String,
    pub reason: String,
}
