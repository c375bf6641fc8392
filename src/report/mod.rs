//! Output for people and machines: tables (tabled), JSON and CSV. Formats what the core computed;
//! never computes a figure of its own.

pub mod acta;
pub mod acta_file;
pub mod acta_stored;
pub mod columns;
pub mod document;
pub mod excel;
pub mod excel_stream;
pub mod findings;
pub mod layout_checks;
pub mod lines;
pub mod liquidation;
pub mod listing;
pub mod notice;
mod notice_figures;
pub mod notice_index;
mod notice_v1;
mod notice_v2;
pub mod offer_result;
pub mod pdf;
pub mod rates;
pub mod records;
pub mod settlement;
pub mod stage_acta;
pub mod subset;
pub mod template;
