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
//! - [`rates_sfc`]: the SFC's certification-history workbook (or its CSV export) read into periods;
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
//! - [`program_sign`]: whether a program's notices must be signed, and by whom;
//! - [`pdf_read`]: reading a PDF back within fixed limits, a window of its file at a time (the
//!   text of vigia's own, an acta checked from its file, the objects a signature's update needs);
//! - [`sign`]: PAdES signatures (B-B) appended to a finished PDF's bytes, and their verification;
//! - [`cli`]: clap definitions, one file per command group, converting flags into core inputs;
//! - [`web`]: the Spanish web interface (`vigia serve`), front end 2: routes, pages, sessions.

pub mod calendar;
pub mod caps;
pub(crate) mod catalogue;
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
pub mod pdf_read;
pub mod program;
pub mod program_offer;
pub mod program_sign;
pub mod proration;
pub mod rates;
pub mod rates_sfc;
pub mod register;
pub mod report;
pub mod said;
pub mod sign;
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

    /// The layers of DESIGN.md's module map, top first, each with its top-level modules: the
    /// backquoted names of its "modules" cell outside parentheses (`register/`, `notice.rs`,
    /// `calendar`).
    fn layers() -> Vec<(String, Vec<String>)> {
        let design = include_str!("../DESIGN.md");
        let map = design
            .split("## Module map")
            .nth(1)
            .expect("DESIGN.md has a module map");
        let mut out = Vec::new();
        for row in map
            .lines()
            .skip_while(|l| !l.starts_with("| layer"))
            .skip(2)
        {
            if !row.starts_with('|') {
                break;
            }
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let (layer, modules) = (cells[1], cells[2]);
            let mut names = Vec::new();
            let (mut depth, mut tick) = (0i32, None::<usize>);
            for (i, ch) in modules.char_indices() {
                match ch {
                    '(' if tick.is_none() => depth += 1,
                    ')' if tick.is_none() => depth -= 1,
                    '`' => match tick.take() {
                        None => tick = Some(i + 1),
                        Some(start) if depth == 0 => {
                            let name = modules[start..i]
                                .trim_end_matches('/')
                                .trim_end_matches(".rs");
                            names.push(name.to_string());
                        }
                        Some(_) => {}
                    },
                    _ => {}
                }
            }
            out.push((layer.to_string(), names));
        }
        out
    }

    /// What a module at `rel` (relative to `src/`) must not name: every module of a layer above
    /// its own in DESIGN.md's module map (and the web not the command line, its peer).
    fn forbidden(rel: &str) -> Vec<String> {
        let top = rel.split('/').next().unwrap_or("").trim_end_matches(".rs");
        if matches!(top, "main" | "lib" | "fuzz") {
            return Vec::new();
        }
        let layers = layers();
        let at = layers
            .iter()
            .position(|(_, names)| names.iter().any(|n| n == top))
            .unwrap_or_else(|| panic!("{top} is in no layer of DESIGN.md's module map"));
        let mut out: Vec<String> = layers[..at]
            .iter()
            .flat_map(|(_, names)| names.iter().map(|n| format!("crate::{n}")))
            .filter(|n| n != "crate::main")
            .collect();
        if top == "web" {
            out.extend(["crate::cli".to_string(), "vigia::cli".to_string()]);
        }
        out
    }

    #[test]
    fn every_module_has_its_layer_in_the_module_map() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let layers = layers();
        assert_eq!(
            layers.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
            ["front ends", "rendering", "rules", "storage", "core (pure)"]
        );
        for e in std::fs::read_dir(&src).unwrap() {
            let name = e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if matches!(name.as_str(), "lib" | "fuzz") {
                continue;
            }
            assert!(
                layers.iter().any(|(_, names)| names.contains(&name)),
                "{name} is in no layer of DESIGN.md's module map"
            );
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
            for bad in &forbidden(&rel) {
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

    /// The module a source file is (`store/notices.rs` → `store::notices`, `fine/mod.rs` →
    /// `fine`).
    fn module_of(rel: &str) -> Vec<String> {
        let rel = rel.trim_end_matches(".rs");
        let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
        if parts.last().is_some_and(|l| l == "mod") {
            parts.pop();
        }
        parts
    }

    /// Every module path a source names through `crate::` or `super::` (groups expanded one
    /// level: `crate::store::{self, programs}` names `store` and `store::programs`).
    fn named(text: &str, module: &[String], is_mod_rs: bool) -> Vec<Vec<String>> {
        let ident = |b: &[u8], mut i: usize| {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            (start, i)
        };
        let b = text.as_bytes();
        let mut out = Vec::new();
        for (root, base) in [
            ("crate::", Vec::new()),
            ("super::", {
                // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` (module a::b) it is `a` too
                let mut m = module.to_vec();
                if !is_mod_rs || !m.is_empty() {
                    m.pop();
                }
                m
            }),
        ] {
            for (at, _) in text.match_indices(root) {
                // not part of a longer word (`vigia::crate::` does not occur; `super::super` is
                // followed as one level)
                if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
                    continue;
                }
                let mut path = base.clone();
                let mut i = at + root.len();
                loop {
                    if b.get(i) == Some(&b'{') {
                        let end = text[i..].find('}').map_or(b.len(), |e| i + e);
                        for item in text[i + 1..end].split(',') {
                            let item = item.trim();
                            let first = item.split("::").next().unwrap_or("").trim();
                            let mut p = path.clone();
                            if !first.is_empty() && first != "self" {
                                p.push(first.to_string());
                            }
                            out.push(p);
                        }
                        break;
                    }
                    let (s0, e0) = ident(b, i);
                    if s0 == e0 {
                        out.push(path.clone());
                        break;
                    }
                    path.push(text[s0..e0].to_string());
                    if text[e0..].starts_with("::") {
                        i = e0 + 2;
                    } else {
                        out.push(path.clone());
                        break;
                    }
                }
            }
        }
        out
    }

    /// Every source of `src/` but `lib.rs` and `main.rs`: (path under `src/`, the code before
    /// its test module with comments taken out: they name modules without importing them).
    fn codes() -> Vec<(String, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        files
            .iter()
            .map(|f| {
                f.strip_prefix(&src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .filter(|r| r != "lib.rs" && r != "main.rs")
            .map(|rel| {
                let whole = std::fs::read_to_string(src.join(&rel)).unwrap();
                let code = whole.split("#[cfg(test)]").next().unwrap_or(&whole);
                let text: String = code
                    .lines()
                    .map(|l| match l.find("//") {
                        Some(c) => &l[..c],
                        None => l,
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                (rel, text)
            })
            .collect()
    }

    /// The file-to-file imports of `files` (path, code): for each file, the files it names.
    fn imports(files: &[(String, String)]) -> Vec<Vec<usize>> {
        let modules: Vec<Vec<String>> = files.iter().map(|(r, _)| module_of(r)).collect();
        files
            .iter()
            .enumerate()
            .map(|(i, (rel, text))| {
                let mut to: Vec<usize> = named(text, &modules[i], rel.ends_with("mod.rs"))
                    .into_iter()
                    .filter_map(|path| {
                        // the longest prefix that is a file of its own
                        (1..=path.len())
                            .rev()
                            .find_map(|n| modules.iter().position(|m| m[..] == path[..n]))
                    })
                    .filter(|&j| j != i)
                    .collect();
                to.sort_unstable();
                to.dedup();
                to
            })
            .collect()
    }

    /// Files of `files` (path, code) that import each other in a circle, each circle as its
    /// sorted files.
    fn circles(files: &[(String, String)]) -> Vec<Vec<String>> {
        let rels: Vec<String> = files.iter().map(|(r, _)| r.clone()).collect();
        let edges = imports(files);
        // Tarjan's strongly connected components
        struct T<'a> {
            edges: &'a [Vec<usize>],
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        fn visit(t: &mut T<'_>, v: usize) {
            t.index[v] = Some(t.next);
            t.low[v] = t.next;
            t.next += 1;
            t.stack.push(v);
            t.on[v] = true;
            for &w in &t.edges[v] {
                match t.index[w] {
                    None => {
                        visit(t, w);
                        t.low[v] = t.low[v].min(t.low[w]);
                    }
                    Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                    _ => {}
                }
            }
            if Some(t.low[v]) == t.index[v] {
                let mut c = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on[w] = false;
                    c.push(w);
                    if w == v {
                        break;
                    }
                }
                if c.len() > 1 {
                    t.out.push(c);
                }
            }
        }
        let n = rels.len();
        let mut t = T {
            edges: &edges,
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: Vec::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if t.index[v].is_none() {
                visit(&mut t, v);
            }
        }
        let mut out: Vec<Vec<String>> = t
            .out
            .into_iter()
            .map(|c| {
                let mut c: Vec<String> = c.into_iter().map(|i| rels[i].clone()).collect();
                c.sort();
                c
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn no_files_import_each_other_in_a_circle() {
        let found = circles(&codes());
        assert!(
            found.is_empty(),
            "files importing each other in a circle: {found:?}"
        );
    }

    #[test]
    fn the_circle_finder_sees_a_circle() {
        let file = |rel: &str, text: &str| (rel.to_string(), text.to_string());
        let files = [
            file("web/a.rs", "use super::b::thing;"),
            file("web/b.rs", "use crate::web::{c, views};"),
            file("web/c.rs", "fn f() { super::a::g() }"),
            file("web/views.rs", "use crate::store;"),
            file("store/mod.rs", "pub fn open() {}"),
        ];
        assert_eq!(circles(&files), [vec!["web/a.rs", "web/b.rs", "web/c.rs"]]);
    }

    /// The web's route modules: the files of `web/` with a `routes()` of their own.
    fn route_modules(files: &[(String, String)]) -> Vec<usize> {
        (0..files.len())
            .filter(|&i| {
                let (rel, text) = &files[i];
                rel.starts_with("web/") && text.contains("fn routes()")
            })
            .collect()
    }

    /// Route modules of `files` that import another route module: (importer, imported).
    fn route_modules_importing_each_other(files: &[(String, String)]) -> Vec<(String, String)> {
        let handlers = route_modules(files);
        let edges = imports(files);
        handlers
            .iter()
            .flat_map(|&i| {
                edges[i]
                    .iter()
                    .filter(|j| handlers.contains(j))
                    .map(move |&j| (files[i].0.clone(), files[j].0.clone()))
            })
            .collect()
    }

    #[test]
    fn no_web_route_module_imports_another() {
        let files = codes();
        // the web has its route modules, one per route prefix, over the kernel
        let handlers: Vec<&str> = route_modules(&files)
            .into_iter()
            .map(|i| files[i].0.as_str())
            .collect();
        for m in [
            "web/session.rs",
            "web/breaches.rs",
            "web/holders.rs",
            "web/rates.rs",
        ] {
            assert!(handlers.contains(&m), "{m} is a route module: {handlers:?}");
        }
        assert!(!handlers.contains(&"web/form.rs"), "{handlers:?}");
        let wrong = route_modules_importing_each_other(&files);
        assert!(
            wrong.is_empty(),
            "route modules importing each other: {wrong:?}"
        );
        // and the rule sees one that does
        let file = |rel: &str, text: &str| (rel.to_string(), text.to_string());
        let files = [
            file("web/a.rs", "fn routes() {}\nuse super::form::Page;"),
            file("web/b.rs", "fn routes() {}\nuse super::{form, a};"),
            file("web/form.rs", "use super::views;"),
            file("web/views.rs", ""),
        ];
        assert_eq!(
            route_modules_importing_each_other(&files),
            [("web/b.rs".to_string(), "web/a.rs".to_string())]
        );
    }

    #[test]
    fn the_rule_sees_what_it_forbids() {
        let has = |rel: &str, name: &str| forbidden(rel).iter().any(|n| n == name);
        assert_eq!(forbidden("web/breaches.rs"), ["crate::cli", "vigia::cli"]);
        assert!(has("register/verify.rs", "crate::report"));
        assert!(has("check/mod.rs", "crate::web"));
        assert!(has("notice.rs", "crate::report"));
        assert!(forbidden("cli/notice.rs").is_empty());
        assert!(has("store/notices.rs", "crate::notice"));
        assert!(has("store/notices.rs", "crate::register"));
        assert!(has("import.rs", "crate::store"));
        assert!(has("liquidation.rs", "crate::register"));
        assert!(!has("register/liquidation.rs", "crate::store"));
    }

    /// Lines of code of a source file: not blank, not a comment (`//`, `///`, `//!`).
    fn code_lines(text: &str) -> usize {
        text.lines()
            .map(str::trim_start)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .count()
    }

    /// STYLE's ceiling: no file over 900 lines of code, in the library, the binaries, the tests
    /// and the benchmarks alike.
    #[test]
    fn no_file_has_more_than_900_lines_of_code() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["src", "tests", "examples"] {
            sources(&root.join(dir), &mut files);
        }
        let long: Vec<(String, usize)> = files
            .iter()
            .map(|p| (p, code_lines(&std::fs::read_to_string(p).unwrap())))
            .filter(|(_, n)| *n > 900)
            .map(|(p, n)| (p.strip_prefix(root).unwrap().display().to_string(), n))
            .collect();
        assert!(long.is_empty(), "over 900 lines of code: {long:?}");
    }

    #[test]
    fn code_lines_skip_blanks_and_comments_only() {
        let text = "//! module\n\nfn f() {\n    // why\n    /// doc\n    let s = \"// not a comment\";\n}\n";
        assert_eq!(code_lines(text), 3);
    }
}
