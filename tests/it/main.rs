//! The integration tests: one binary, one harness (`common`). Each module drives the real `vigia`
//! binary or the library's public API; output is compared with reviewed snapshots in
//! `snapshots/`, and the conformance cases in `../conformance/` each name their source.

mod common;

mod audit;
mod audit_located;
mod backup;
mod bad_input;
mod browser;
mod check;
mod check_output;
mod cli;
mod conformance;
mod corrections;
mod csv_cells;
mod excel_out;
mod hardening;
mod kill;
mod legal;
mod letters;
mod letters_signed;
mod notices;
mod offering;
mod offering_scale;
mod outputs;
mod program_schema;
mod progress;
mod properties;
mod rates_sfc;
mod refusals;
mod register;
mod register_pledges;
mod register_rates;
mod seed_programs;
mod seed_stages;
mod serve_limits;
mod shell;
mod signatures;
mod signatures_actas;
mod signatures_program;
mod spanish_cli;
mod split_pledges;
mod stages;
mod stages_prices;
mod typed_input;
mod web;
mod web_admin;
mod web_breaches;
mod web_downloads;
mod web_files;
mod web_letters;
mod web_offering;
mod web_pages;
mod web_refusals;
mod web_session;
mod web_stages;
