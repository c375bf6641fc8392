//! The first-stage offering (Decreto 3939 de 2004 Arts. 7, 8, 12; SPEC §9): pure arithmetic of
//! adjudication, with no I/O. [`proration`] shares an oversubscribed offer among the admitted
//! acceptances under the program's rule, in exact integers.

pub mod caps;
pub mod proration;
