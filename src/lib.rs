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
//! - [`input`]: what people type, read once the Colombian way (amounts, counts, dates), for both
//!   front ends and every file's cells;
//! - [`offering`]: the first-stage offering's arithmetic: caps (Arts. 7, 8), pro-rata (Art. 12);
//! - [`program`]: a programa de enajenación as a validated TOML file;
//! - [`later_stages`]: the later stages' criterion (present value, highest price, price and term)
//!   and minimum price, as program keys and pure arithmetic;
//! - [`categories`]: which of a program's categories a file's cell names;
//! - [`lang`]: the two languages (Spanish for pages and documents, English for the CLI): `Said`;
//! - [`text`]: what a file given as text is (UTF-8, Windows-1252, or a workbook/PDF named as such);
//! - [`headers`]: the English and Spanish names of an imported file's columns;
//! - [`import`]: reading adjudication CSVs (UTF-8 or the es-CO Excel export);
//! - [`workbook`]: a workbook's sheet (`.xlsx`, `.xls`, `.ods`) as the CSV text the imports read;
//! - [`store`]: the SQLite register, migrations and the hash-chained audit trail;
//! - [`liquidation`]: the stored liquidation as one typed record (inputs, result), written and read;
//! - [`register`]: the register's rules, one file per aggregate, with typed refusals (`Refusal`);
//! - [`notice`]: what a fine notice says (parties, facts, computation, deadline, split);
//! - [`check`]: the periodic batch check over every holder (findings with stable codes);
//! - [`files`]: writing documents safely: staged beside the target, placed after the commit, 0600;
//! - [`report`]: turning a liquidation into a Spanish table or JSON;
//! - [`words`]: amounts in Spanish words for notices;
//! - [`validity`]: a program's validity (Decreto 3939 art. 28) and whether a day is inside it;
//! - [`program_offer`]: the first-stage offer's minimum length and the program's own review causes;
//! - [`cli`]: clap definitions, one file per command group, converting flags into core inputs;
//! - [`web`]: the Spanish web interface (`vigia serve`), front end 2: routes, pages, sessions.

pub mod calendar;
pub(crate) mod categories;
pub(crate) mod check;
pub mod cli;
pub mod contact;
pub(crate) mod exact;
pub(crate) mod files;
pub mod fine;
#[cfg(test)]
mod fuzz;
pub(crate) mod headers;
pub(crate) mod holidays;
pub(crate) mod ids;
pub(crate) mod import;
pub mod input;
pub mod lang;
pub mod later_stages;
pub(crate) mod liquidation;
pub mod money;
pub(crate) mod notice;
pub mod offering;
pub mod program;
pub mod program_offer;
pub mod rates;
pub mod register;
pub mod report;
pub mod store;
pub(crate) mod text;
pub mod validity;
pub(crate) mod web;
pub(crate) mod words;
pub mod workbook;

/// The layering DESIGN.md describes, held by the sources themselves: the front ends (`cli`,
/// `web`) sit on the rules and rendering, never on each other; rendering (`report`) sits on the
/// rules, never on a front end; the rules and the core (`register`, `check`, `store`, `fine`,
/// `offering`, the top-level modules) name neither a front end nor the rendering.
#[cfg(test)]
mod layering {
    use std::path::{Path, PathBuf};

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                sources(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// What a module at `rel` (relative to `src/`) must not name: the front ends nothing of
    /// each other, rendering no front end, the rules no rendering, the store no rule, and the
    /// pure core neither the store nor a rule (issue 21: a 17-file loop tied them together).
    fn forbidden(rel: &str) -> &'static [&'static str] {
        let top = rel.split('/').next().unwrap_or("");
        match top {
            "cli" | "main.rs" | "lib.rs" | "fuzz.rs" => &[],
            "web" => &["crate::cli", "vigia::cli"],
            "report" => &["crate::cli", "crate::web"],
            "register" | "check" | "notice.rs" | "files.rs" => {
                &["crate::cli", "crate::web", "crate::report"]
            }
            "store" => &[
                "crate::cli",
                "crate::web",
                "crate::report",
                "crate::register",
                "crate::check",
                "crate::notice",
            ],
            _ => &[
                "crate::cli",
                "crate::web",
                "crate::report",
                "crate::register",
                "crate::check",
                "crate::notice",
                "crate::store",
            ],
        }
    }

    #[test]
    fn no_layer_names_a_layer_above_it() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        assert!(files.len() > 50, "the sources were found: {}", files.len());
        let mut wrong = Vec::new();
        for f in &files {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let whole = std::fs::read_to_string(f).unwrap();
            // a module's tests may set up a register through the layers above it
            let text = whole
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or(&whole);
            for bad in forbidden(&rel) {
                // `use crate::{cli, ...}` is caught by its path as well
                let grouped = format!("{}::{{", &bad[..bad.find("::").unwrap()]);
                let name = &bad[bad.find("::").unwrap() + 2..];
                let in_group = text.match_indices(&grouped).any(|(i, _)| {
                    let rest = &text[i + grouped.len()..];
                    let group = &rest[..rest.find('}').unwrap_or(rest.len())];
                    group
                        .split([',', ' ', '\n'])
                        .any(|w| w.trim() == name || w.trim().starts_with(&format!("{name}::")))
                });
                if text.contains(bad) || in_group {
                    wrong.push(format!("{rel} names {bad}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn the_rule_sees_what_it_forbids() {
        assert_eq!(forbidden("web/pages.rs"), &["crate::cli", "vigia::cli"]);
        assert!(forbidden("register/verify.rs").contains(&"crate::report"));
        assert!(forbidden("check/mod.rs").contains(&"crate::web"));
        assert!(forbidden("notice.rs").contains(&"crate::report"));
        assert!(forbidden("cli/notice.rs").is_empty());
        assert!(forbidden("store/notices.rs").contains(&"crate::notice"));
        assert!(forbidden("import.rs").contains(&"crate::store"));
        assert!(forbidden("liquidation.rs").contains(&"crate::register"));
        assert!(!forbidden("register/liquidation.rs").contains(&"crate::store"));
    }
}
