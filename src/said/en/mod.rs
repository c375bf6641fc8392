//! English: the sentences rules, checks and imports say, by area.

pub mod cli;
pub mod core;
pub mod fine;
pub mod import;
pub mod offering;
pub mod program;
pub mod rates;
pub mod register;
pub mod register_fines;
pub mod register_holdings;
pub mod register_stage;
pub mod report;
pub mod store;
pub mod web;
