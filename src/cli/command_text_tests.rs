//! Command text stays in the front ends (issue 21): a rule's sentence is read on the web too.
//! Here, in `cli/`, because it asks the command line for its commands; it walks `src/` with the
//! catalogues' own test helpers.

use crate::said::tests::{code_of, rust_files, src};
use std::fs;

/// Below the front ends nothing names a command: a rule's sentence is read on the web too, where
/// there is no `vigia …` to type. The command line names its commands in `said::*::cli` and in
/// `cli/`; the web in `said::*::web` and `web/`. Rendering is not a rule: a document's own
/// fixed text (`report/`, which tells its reader how to verify it) and the command line's
/// success lines (`catalogue::*_msg`) may name commands.
#[test]
fn no_sentence_below_the_front_ends_names_a_command_or_a_flag() {
    let commands = crate::cli::clap_lang::command(crate::lang::Lang::En)
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect::<Vec<_>>();
    assert!(commands.iter().any(|c| c == "notice"), "{commands:?}");
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let root = src();
    let mut named = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).expect("under src/").to_string_lossy();
        let front = rel.starts_with("cli/")
            || rel.starts_with("web/")
            || rel == "main.rs"
            || rel.starts_with("report/")
            || rel.starts_with("catalogue/")
            || rel.ends_with("tests.rs")
            || rel.ends_with("/cli.rs") && rel.starts_with("said/")
            || rel.ends_with("/web.rs") && rel.starts_with("said/");
        if front {
            continue;
        }
        let code = code_of(&fs::read_to_string(f).expect("a source file"));
        // a command given as a fact (`vigia {cmd} --sign`) names one too
        for quoted in ["`vigia {", "«vigia {"] {
            if code.contains(quoted) {
                named.push(format!("{rel}: {quoted}"));
            }
        }
        for c in &commands {
            for quoted in [format!("`vigia {c}"), format!("«vigia {c}")] {
                if code.contains(&quoted) {
                    named.push(format!("{rel}: {quoted}"));
                }
            }
        }
        if rel.starts_with("said/") {
            for (i, _) in code.match_indices(" --") {
                if code[i + 3..].starts_with(|ch: char| ch.is_ascii_lowercase()) {
                    named.push(format!("{rel}: {}", &code[i..(i + 24).min(code.len())]));
                }
            }
        }
    }
    assert!(
        named.is_empty(),
        "command text below the front ends: {named:#?}"
    );
}
