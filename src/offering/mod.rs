//! The first-stage offering (Decreto 3939 de 2004 Arts. 7, 8, 12; SPEC §9): pure arithmetic of
//! adjudication, with no I/O. [`proration`] shares an oversubscribed offer among the admitted
//! acceptances under the program's rule, in exact integers; [`caps`] bounds one acceptor;
//! [`adjudicate`] judges the filings and adjudicates; [`file`] reads the acceptances CSV.

pub mod adjudicate;
pub mod caps;
pub mod file;
pub mod proration;
