//! Español: las frases que dicen las reglas, el chequeo y las importaciones, por área.

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
