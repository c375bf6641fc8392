//! The offering's arithmetic (Decreto 3939 de 2004 Arts. 7, 8, 12–19; SPEC §9 and §9b), pure, with
//! no I/O: [`caps`] bounds what each first-stage acceptor may buy (program data), [`proration`]
//! shares an oversubscribed offer among the admitted acceptances under the program's rule in
//! exact integers, [`adjudicate`] judges the filings and adjudicates, [`file`] reads the
//! acceptances CSV, and [`stage`] judges and values the later stages' proposals and draws lots in
//! a way anyone can re-check.

pub mod adjudicate;
pub mod caps;
pub mod file;
pub mod proposals;
pub mod proration;
pub mod stage;
