//! `vigia`: the register and fine calculator for the lock-up of Ley 226 de 1995 share sales.
//!
//! Map of the modules (pure logic first; I/O only in `cli` and `report`). Modules only the crate
//! itself uses are `pub(crate)`; the public ones serve the binary, the benchmark and the tests.
//!
//! - [`calendar`]: month arithmetic (Art. 829 C.Co.), fine brackets and the lock-up end;
//! - [`holidays`]: Colombian public holidays and business days (payment deadlines);
//! - [`money`]: exact COP amounts, the one rounding step, es-CO formatting;
//! - [`exact`]: exact-decimal `ln` / `exp` for converting effective annual rates;
//! - [`rates`]: the certified SFC rate series, the rate in force on a day, span splitting;
//! - [`fine`]: reference prices, principal, accrual conventions and payment imputation (Art. 9);
//! - [`ids`]: document types and the NIT check digit;
//! - [`offering`]: the first-stage offering's arithmetic: caps (Arts. 7, 8), pro-rata (Art. 12);
//! - [`program`]: a programa de enajenación as a validated TOML file;
//! - [`lang`]: the two languages (Spanish for pages and documents, English for the CLI): `Said`;
//! - [`text`]: what a file given as text is (UTF-8, Windows-1252, or a workbook/PDF named as such);
//! - [`import`]: reading adjudication CSVs (UTF-8 or the es-CO Excel export);
//! - [`store`]: the SQLite register, migrations and the hash-chained audit trail;
//! - [`liquidation`]: the stored liquidation as one typed record (inputs, result), written and read;
//! - [`register`]: the register's rules, one file per aggregate, with typed refusals (`Refusal`);
//! - [`notice`]: what a fine notice says (parties, facts, computation, deadline, split);
//! - [`check`]: the periodic batch check over every holder (findings with stable codes);
//! - [`files`]: writing documents safely: staged beside the target, placed after the commit, 0600;
//! - [`report`]: turning a liquidation into a Spanish table or JSON;
//! - [`words`]: amounts in Spanish words for notices;
//! - [`cli`]: clap definitions, one file per command group, converting flags into core inputs;
//! - [`web`]: the Spanish web interface (`vigia serve`), front end 2: routes, pages, sessions.

pub mod calendar;
pub(crate) mod check;
pub mod cli;
pub(crate) mod exact;
pub(crate) mod files;
pub mod fine;
#[cfg(test)]
mod fuzz;
pub(crate) mod holidays;
pub(crate) mod ids;
pub(crate) mod import;
pub mod lang;
pub(crate) mod liquidation;
pub mod money;
pub(crate) mod notice;
pub mod offering;
pub mod program;
pub mod rates;
pub mod register;
pub mod report;
pub mod store;
pub(crate) mod text;
pub(crate) mod web;
pub(crate) mod words;
