//! The program file's schema, documented in one place (`docs/PROGRAM.md`), checked against the
//! parser itself: for every table the parser reads, a key it does not know is slipped into the
//! shipped program and the parser's refusal ("unknown field `…`, expected one of `a`, `b`")
//! lists the keys it does know. Those must be exactly the keys the document lists for that
//! table, so neither can change without the other (issue 27, item 4).

use std::collections::BTreeSet;
use vigia::program::{self, Program};

const DOC: &str = include_str!("../../docs/PROGRAM.md");
const UNKNOWN: &str = "zz_not_a_key";

/// Where each table of the file is, and how to slip an unknown key into it: (the document's
/// prefix for its keys, the program text with the key slipped in).
fn probes(shipped: &str) -> Vec<(&'static str, String)> {
    let after = |header: &str| {
        let at = shipped
            .find(&format!("\n{header}\n"))
            .unwrap_or_else(|| panic!("{header} in the shipped program"))
            + header.len()
            + 2;
        format!("{}{UNKNOWN} = 1\n{}", &shipped[..at], &shipped[at..])
    };
    let appended = |table: &str| format!("{shipped}\n{table}\n{UNKNOWN} = 1\n");
    vec![
        ("", format!("{UNKNOWN} = 1\n{shipped}")),
        (
            "brackets[].",
            shipped.replacen(
                "{ upto_months = 6,",
                &format!("{{ {UNKNOWN} = 1, upto_months = 6,"),
                1,
            ),
        ),
        ("later_stages.", after("[later_stages]")),
        ("validity.", after("[validity]")),
        ("sellers[].", after("[[sellers]]")),
        ("caps[].", after("[[caps]]")),
        ("letters.", after("[letters]")),
        ("letters.issuer.", appended("[letters.issuer]")),
        ("letters.paragraphs[].", appended("[[letters.paragraphs]]")),
        ("offer.", appended("[offer]")),
        (
            "later_stages.articles.",
            appended("[later_stages.articles]"),
        ),
        ("review_causes[].", appended("[[review_causes]]")),
        ("signatures.", appended("[signatures]")),
    ]
}

/// The keys the parser's refusal of [`UNKNOWN`] says it expects.
fn expected_keys(text: &str) -> BTreeSet<String> {
    let e = Program::from_toml(text).expect_err("an unknown key is refused");
    let said = e.to_string();
    let rest = said
        .split(&format!("unknown field `{UNKNOWN}`, expected "))
        .nth(1)
        .unwrap_or_else(|| panic!("the parser names what it expects: {said}"));
    let list = rest.split(" at line").next().unwrap_or(rest);
    let list = list.strip_prefix("one of ").unwrap_or(list);
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The keys the document lists for the table whose keys start with `prefix` (its rows:
/// "| `later_stages.criterion` | …"); nested tables' keys are their own table's.
fn documented(prefix: &str) -> BTreeSet<String> {
    DOC.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter_map(|key| key.strip_prefix(prefix))
        .filter(|key| !key.contains('.') && !key.contains("[]"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_key_the_parser_reads_is_documented_and_nothing_else() {
    let shipped = program::DECRETO_3939_2004;
    Program::from_toml(shipped).expect("the shipped program reads");
    for (prefix, text) in probes(shipped) {
        let parser = expected_keys(&text);
        assert!(!parser.is_empty(), "{prefix}");
        assert_eq!(
            documented(prefix),
            parser,
            "docs/PROGRAM.md and the parser disagree on the keys of `{prefix}`"
        );
    }
}

#[test]
fn the_document_lists_a_default_and_a_source_for_every_key() {
    // each row: | `key` | type | default | what it models (the article) |
    for line in DOC.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 6, "four cells: {line}");
        assert!(
            cells[2..5].iter().all(|c| !c.is_empty()),
            "type, default and source: {line}"
        );
    }
}

#[test]
fn every_embedded_program_reads_and_registers() {
    for (code, text) in program::EMBEDDED {
        let p = Program::from_toml(text).unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(p.code, code);
    }
}
