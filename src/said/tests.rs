//! The catalogues hold every sentence, and say each in both languages.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (also used by `cli::command_text_tests`).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let p = entry.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The crate's `src/`.
pub(crate) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code before a file's first `#[cfg(test)]`, comment lines left out.
pub(crate) fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if !t.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

#[test]
fn no_sentence_is_written_outside_the_catalogues() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let root = src();
    let mut written = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).expect("under src/");
        if rel.starts_with("said") || rel == Path::new("lang.rs") {
            continue;
        }
        let code = code_of(&fs::read_to_string(f).expect("a source file"));
        // `said!(` followed (after blanks) by a string literal is a sentence written in place
        for (i, _) in code.match_indices("said!(") {
            if code[i + 6..].trim_start().starts_with('"') {
                written.push(format!(
                    "{}: {}",
                    rel.display(),
                    &code[i..(i + 60).min(code.len())]
                ));
            }
        }
    }
    assert!(
        files.len() > 100,
        "the walk found src/ ({} files)",
        files.len()
    );
    assert!(
        written.is_empty(),
        "sentences written in place, not in src/said: {written:#?}"
    );
}

/// Each `pub fn name(param, ...)` of a catalogue file, parameters without a leading `_`.
fn functions(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for chunk in text.split("pub fn ").skip(1) {
        let (name, rest) = chunk.split_once('(').expect("a function's parameters");
        let params = rest.split_once(") -> String").expect("returns a String").0;
        let names = params
            .split(": &impl")
            .filter_map(|p| p.rsplit([',', ' ', '(']).next())
            .map(|p| p.trim().trim_start_matches('_').to_string())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>();
        out.insert(name.trim().to_string(), names);
    }
    out
}

#[test]
fn both_catalogues_have_the_same_sentences_with_the_same_facts() {
    let dir = src().join("said");
    let mut areas = 0;
    for entry in fs::read_dir(dir.join("en")).expect("said/en") {
        let p = entry.expect("an entry").path();
        let name = p.file_name().expect("a file name").to_owned();
        if name == "mod.rs" {
            continue;
        }
        let en = functions(&fs::read_to_string(&p).expect("an English area"));
        let es_path = dir.join("es").join(&name);
        let es = functions(&fs::read_to_string(&es_path).unwrap_or_else(|_| {
            panic!("{} has no Spanish twin", p.display());
        }));
        assert!(!en.is_empty(), "{} says nothing", p.display());
        assert_eq!(en, es, "{name:?}: English and Spanish differ");
        areas += 1;
    }
    assert!(areas >= 5, "found {areas} areas");
}

#[test]
fn a_sentence_reads_its_facts_in_each_language() {
    // one sentence, by hand: the pledge's rank refusal has no facts; the void one names a date
    let s = crate::said!(register_holdings::must_1_first_degree_2_second);
    assert_eq!(
        s.es(),
        "debe ser 1 (primer grado) o 2 (segundo grado, cuando el prestamista tiene el primero)"
    );
    assert!(s.en().starts_with("must be 1 (first degree)"));
}

/// Spanish sentences with a count agree with it in number (no «(es)» or «(s)»).
#[test]
fn spanish_counts_agree_in_number() {
    use super::es::{cli, register_holdings, register_stage};
    let one = register_holdings::register_holds_adjudication_s_imported_shares(
        &1, &"P", &10, &"1", &"10",
    );
    assert!(
        one.contains("1 adjudicación de P importada por 10 acciones")
            && one.contains("lo que ella suma"),
        "{one}"
    );
    let two = register_holdings::register_holds_adjudication_s_imported_shares(
        &2, &"P", &10, &"2", &"10",
    );
    assert!(
        two.contains("2 adjudicaciones de P importadas") && two.contains("lo que ellas suman"),
        "{two}"
    );
    let s = register_stage::stage_can_offer_more_share_s(&1, &5, &4, &"1", &"5", &"");
    assert!(s.contains("ofrecer 1 acción más"), "{s}");
    let s = register_stage::stage_can_offer_more_share_s(&1000, &5, &4, &"1.000", &"5", &"");
    assert!(s.contains("ofrecer 1.000 acciones más"), "{s}");
    let s = cli::nothing_was_signed_reanchor_starts_checkpoint(&"x.checkpoints", &1);
    assert!(s.contains("tiene 1 línea;"), "{s}");
    let s = cli::nothing_was_signed_reanchor_starts_checkpoint(&"x.checkpoints", &3);
    assert!(s.contains("tiene 3 líneas;"), "{s}");
}

/// A flag's refusal is said in both languages (`CliError::Wrong` with a catalogue sentence): a
/// `CliError::Flag` whose reason is a string written in place would print English in a Spanish
/// run (`calendar holidays 1900` did).
#[test]
fn no_flag_refusal_is_written_in_english_in_place() {
    let mut files = Vec::new();
    rust_files(&src().join("cli"), &mut files);
    let mut written = Vec::new();
    for f in &files {
        let code = code_of(&fs::read_to_string(f).expect("a source file"));
        for (i, _) in code.match_indices("reason:") {
            let rest = code[i + 7..].trim_start();
            if rest.starts_with('"') || rest.starts_with("format!(") {
                let end = (i + 70).min(code.len());
                let end = (end..=code.len())
                    .find(|&e| code.is_char_boundary(e))
                    .unwrap_or(end);
                written.push(format!("{}: {}", f.display(), &code[i..end]));
            }
        }
    }
    assert!(
        files.len() > 20,
        "the walk found src/cli ({} files)",
        files.len()
    );
    assert!(written.is_empty(), "reasons written in place: {written:#?}");
}
