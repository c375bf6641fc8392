//! The offering's arithmetic (Decreto 3939 de 2004 Arts. 7, 8, 12–19; SPEC §9 and §9b), pure, with
//! no I/O: [`adjudicate`] judges the filings and adjudicates, [`file`] reads the
//! acceptances CSV, and [`stage`] judges and values the later stages' proposals and draws lots in
//! a way anyone can re-check. What bounds each acceptor ([`crate::caps`]) and how an oversubscribed
//! offer is shared ([`crate::proration`]) are the program's terms, below both.

pub mod adjudicate;
pub mod file;
pub mod proposals;
pub mod stage;
