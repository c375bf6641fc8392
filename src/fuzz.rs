//! Fuzz targets over bytes (issue 11): the adjudications and pledge CSV import, the rates file, the
//! program TOML and the text `notice verify` reads out of a PDF, HTML or Markdown notice. Each
//! target mutates the files of its committed seed corpus (`tests/fuzz_corpus/<target>/`: real
//! files and known hostile ones) with bit flips, truncations, insertions, deletions and splices,
//! and feeds them to the entry point the command uses. Asserted: no panic; every problem is a
//! sentence (not empty, and outside the values it quotes, no longer than [`MAX_WORDS`]); and
//! for the PDF reader, text no longer than the content it may inflate (memory bounded by its
//! limits, not by luck). Stable Rust, no cargo-fuzz: proptest, 256 cases per target by default
//! (`PROPTEST_CASES` overrides it), a few seconds in all; a failing case is shrunk and kept in
//! `proptest-regressions/fuzz.txt`
//! (commit it: it becomes a case of every later run).

use proptest::prelude::*;
use std::path::Path;

/// Longest a problem's own words may be once the values it quotes (`"..."`) are left out: a
/// sentence, not a dump of the input.
const MAX_WORDS: usize = 600;

/// Fragments that mean something to one of the parsers, for insertions.
const TOKENS: &[&[u8]] = &[
    b"\xEF\xBB\xBF",
    b"\r\n",
    b"\n",
    b"\"",
    b",",
    b";",
    b"\xE9",
    b"\xC3\xA9",
    b"\x00",
    b"=1+1",
    b"9223372036854775807",
    b"18446744073709551616",
    b"-1",
    b"1.450,50",
    b"31/12/2099",
    b"0000-01-01",
    b"9999-12-31",
    b"[",
    b"]",
    b"<<",
    b">>",
    b" 1 0 R",
    b"/Length 1 0 R",
    b"stream\n",
    b"endstream",
    b"obj",
    b"xref",
    b"startxref\n0\n",
    b"/FlateDecode",
    b"= 4294967295",
    b"= \"",
    b"[[",
    b"]]",
    b"<!DOCTYPE html>",
    b"<td>",
    b"MULTA-2025-0001",
];

/// One change to a seed; positions are taken modulo the current length.
#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        bit: u8,
    },
    Truncate {
        at: usize,
    },
    Insert {
        at: usize,
        token: usize,
    },
    InsertBytes {
        at: usize,
        bytes: Vec<u8>,
    },
    Delete {
        at: usize,
        len: usize,
    },
    /// Bytes of another seed of the same target copied in.
    Splice {
        seed: usize,
        from: usize,
        len: usize,
        at: usize,
    },
    /// A stretch of the input repeated in place (rows, nesting).
    Repeat {
        at: usize,
        len: usize,
        times: u8,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        4 => (at, 0u8..8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        1 => at.prop_map(|at| Mutation::Truncate { at }),
        3 => (at, 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Insert { at, token }),
        1 => (at, proptest::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::InsertBytes { at, bytes }),
        2 => (at, 1usize..64).prop_map(|(at, len)| Mutation::Delete { at, len }),
        1 => (any::<usize>(), at, 1usize..256, at)
            .prop_map(|(seed, from, len, at)| Mutation::Splice { seed, from, len, at }),
        1 => (at, 1usize..64, 2u8..16).prop_map(|(at, len, times)| Mutation::Repeat { at, len, times }),
    ]
}

/// A seed (by index) and the changes made to it.
fn case(seeds: usize) -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (0..seeds, proptest::collection::vec(mutation(), 0..6))
}

fn apply(seeds: &[Vec<u8>], seed: usize, mutations: &[Mutation]) -> Vec<u8> {
    let mut b = seeds[seed].clone();
    let pos = |at: usize, len: usize| if len == 0 { 0 } else { at % (len + 1) };
    for m in mutations {
        match m {
            Mutation::Flip { at, bit } => {
                if !b.is_empty() {
                    let i = at % b.len();
                    b[i] ^= 1 << bit;
                }
            }
            Mutation::Truncate { at } => b.truncate(pos(*at, b.len())),
            Mutation::Insert { at, token } => {
                let i = pos(*at, b.len());
                b.splice(i..i, TOKENS[*token].iter().copied());
            }
            Mutation::InsertBytes { at, bytes } => {
                let i = pos(*at, b.len());
                b.splice(i..i, bytes.iter().copied());
            }
            Mutation::Delete { at, len } => {
                let i = pos(*at, b.len());
                let end = (i + len).min(b.len());
                b.drain(i..end);
            }
            Mutation::Splice {
                seed,
                from,
                len,
                at,
            } => {
                let other = &seeds[seed % seeds.len()];
                let from = pos(*from, other.len());
                let piece = &other[from..(from + len).min(other.len())];
                let i = pos(*at, b.len());
                b.splice(i..i, piece.iter().copied());
            }
            Mutation::Repeat { at, len, times } => {
                let i = pos(*at, b.len());
                let piece = b[i..(i + len).min(b.len())].to_vec();
                for _ in 1..*times {
                    b.splice(i..i, piece.iter().copied());
                }
            }
        }
    }
    b
}

/// The files of `tests/fuzz_corpus/<target>/`, in name order.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(target);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    paths.sort();
    let seeds: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).expect("a corpus file"))
        .collect();
    assert!(seeds.len() >= 3, "{target}: the corpus is missing");
    seeds
}

/// `message` reads as a sentence: not empty, and its own words are few — what is left once the
/// values it quotes are taken out: `"..."` and `` `...` `` spans, and the excerpt of the input
/// line a TOML error draws (`9 | line`, `  | ^^^`).
fn assert_sentence(message: &str, input: &[u8]) {
    assert!(!message.trim().is_empty(), "an empty problem for {input:?}");
    let mut words = String::new();
    for line in message.lines() {
        let excerpt = line
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start()
            .starts_with('|');
        if excerpt {
            continue;
        }
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in line.chars() {
            match (quote, c) {
                (Some(_), _) if escaped => escaped = false,
                (Some('"'), '\\') => escaped = true,
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '`') => quote = Some(c),
                (None, c) => words.push(c),
            }
        }
    }
    assert!(
        words.chars().count() <= MAX_WORDS,
        "a problem of {} characters outside its quoted values: {message}",
        words.chars().count()
    );
}

/// The adjudications import with the shipped program, as `adjudications import` reads a file.
fn import_adjudications(bytes: &[u8]) {
    let program = crate::program::Program::from_toml(include_str!(
        "../schema/programs/decreto-3939-2004.toml"
    ))
    .expect("the shipped program is valid");
    let mut rows = 0usize;
    let (_, errors) = crate::import::each(bytes, &program, |row| {
        assert!(row.shares <= program.shares_offered, "{row:?}");
        assert!(row.financed_shares <= row.shares, "{row:?}");
        assert!(!row.name.chars().any(char::is_control), "{row:?}");
        rows += 1;
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    for e in &errors {
        assert!(e.line >= 1, "{e:?}");
        assert_sentence(&e.to_string(), bytes);
    }
}

fn import_pledges(bytes: &[u8]) {
    let (_, errors) = crate::import::each_pledge(bytes, |row| {
        assert!(matches!(row.rank, 1 | 2), "{row:?}");
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    for e in &errors {
        assert!(e.line >= 1, "{e:?}");
        assert_sentence(&e.to_string(), bytes);
    }
}

/// `rates check` and `rates import`: the file's text, every problem, then the series.
fn read_rates(bytes: &[u8]) {
    let text = match crate::text::utf8(bytes) {
        Ok(t) => t,
        Err(e) => return assert_sentence(&e.to_string(), bytes),
    };
    let problems = crate::rates::check_csv(text);
    for p in &problems {
        assert!(p.line >= 1, "{p:?}");
        assert_sentence(&p.to_string(), bytes);
    }
    match crate::rates::RateSeries::from_csv(text, "fuzz.csv") {
        Ok(series) => {
            // what `rates check` promises: a usable series has sorted, non-overlapping periods
            assert!(
                series
                    .periods()
                    .windows(2)
                    .all(|w| w[0].valid_to < w[1].valid_from)
            );
            for p in series.periods() {
                assert!(p.valid_from <= p.valid_to);
                let _ = p.daily_rate();
            }
        }
        Err(e) => {
            assert!(!e.problems.is_empty());
            assert_sentence(&e.to_string(), bytes);
        }
    }
}

/// `program add`: the file's text, then the validated program and its fine scale.
fn read_program(bytes: &[u8]) {
    let text = match crate::text::utf8(bytes) {
        Ok(t) => t,
        Err(e) => return assert_sentence(&e.to_string(), bytes),
    };
    match crate::program::Program::from_toml(text) {
        Ok(p) => {
            assert!(p.payment_term_business_days <= crate::program::MAX_PAYMENT_TERM);
            if let Err(e) = p.scale() {
                assert_sentence(&e.to_string(), bytes);
            }
        }
        Err(e) => assert_sentence(&e.to_string(), bytes),
    }
}

/// What `notice verify` reads out of a document before it looks anything up: a PDF's text
/// through the bounded reader, else UTF-8 HTML or Markdown.
fn read_notice(bytes: &[u8]) {
    use crate::report::notice as doc;
    use crate::report::pdf;
    if bytes.starts_with(b"%PDF-") {
        match pdf::extract_text(bytes) {
            Ok(text) => {
                // one line of text per string drawn: never more than the content read
                assert!(text.len() <= 4 * pdf::read::MAX_CONTENT);
                let _ = doc::normalized_lines(&text);
            }
            Err(e) => assert_sentence(&e.to_string(), bytes),
        }
    } else if let Ok(s) = std::str::from_utf8(bytes) {
        // each line placed where a reader finds it: the same lines as the text read whole
        use crate::report::lines::Placed;
        let (placed, whole) = if s.trim_start().starts_with("<!DOCTYPE html") {
            (
                Placed::of_html(s),
                doc::normalized_lines(&doc::html_text(s)),
            )
        } else {
            (Placed::of_file(s), doc::normalized_lines(s))
        };
        assert_eq!(placed.lines, whole);
        assert_eq!(placed.places.len(), whole.len());
    }
}

#[test]
fn every_seed_reads_without_panicking() {
    for seed in corpus("import") {
        import_adjudications(&seed);
    }
    for seed in corpus("pledges") {
        import_pledges(&seed);
    }
    for seed in corpus("rates") {
        read_rates(&seed);
    }
    for seed in corpus("program") {
        read_program(&seed);
    }
    let notices = corpus("notice");
    for seed in &notices {
        read_notice(seed);
    }
    // not vacuous: the real notice reads back
    let real = notices
        .iter()
        .find(|s| s.starts_with(b"%PDF-") && s.len() > 50_000)
        .expect("the real notice PDF");
    let text = crate::report::pdf::extract_text(real).expect("the real notice reads");
    assert!(text.contains("MULTA-2025-0001"), "{text}");
}

proptest! {
    // `PROPTEST_CASES` sets the number of cases (256 by default)
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn fuzz_adjudications_import((seed, ms) in case(corpus("import").len())) {
        import_adjudications(&apply(&corpus("import"), seed, &ms));
    }

    #[test]
    fn fuzz_pledges_import((seed, ms) in case(corpus("pledges").len())) {
        import_pledges(&apply(&corpus("pledges"), seed, &ms));
    }

    #[test]
    fn fuzz_rates_file((seed, ms) in case(corpus("rates").len())) {
        read_rates(&apply(&corpus("rates"), seed, &ms));
    }

    #[test]
    fn fuzz_program_toml((seed, ms) in case(corpus("program").len())) {
        read_program(&apply(&corpus("program"), seed, &ms));
    }

    #[test]
    fn fuzz_notice_verify((seed, ms) in case(corpus("notice").len())) {
        read_notice(&apply(&corpus("notice"), seed, &ms));
    }
}
