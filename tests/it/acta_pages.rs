//! An acta PDF's pages as vigia's own reader gives their text, and where a section's heading
//! falls among them: how the layout tests (`offer_acta_v1`, `stage_acta_v2`) see whether a
//! heading was left alone at the foot of a page.

/// Each page's lines of text (trimmed, blank lines left out), read back by vigia's own reader.
pub fn pages(bytes: &[u8]) -> Vec<Vec<String>> {
    vigia::report::pdf::extract_pages(bytes)
        .unwrap()
        .iter()
        .map(|p| {
            p.lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        })
        .collect()
}

/// The number of the page (from 0) holding `heading`, and that page's lines after it.
pub fn after_heading(pages: &[Vec<String>], heading: &str) -> (usize, Vec<String>) {
    let (k, page) = pages
        .iter()
        .enumerate()
        .find(|(_, p)| p.iter().any(|l| l == heading))
        .expect("the acta has the heading");
    let at = page.iter().position(|l| l == heading).unwrap();
    (k, page[at + 1..].to_vec())
}

/// The table's header row (the line starting with `first_cell` that also holds each of
/// `cells`) and then, after it, the line holding `first_row` are among `lines`.
pub fn holds_table_start(lines: &[String], header: (&str, &[&str]), first_row: &str) -> bool {
    let (first_cell, cells) = header;
    let at = lines
        .iter()
        .position(|l| l.starts_with(first_cell) && cells.iter().all(|c| l.contains(c)));
    let first = lines.iter().position(|l| l.contains(first_row));
    matches!((at, first), (Some(h), Some(f)) if h < f)
}

/// `pages` (an acta written before the heading was kept with its table) end page 1 on
/// `heading`, only the footer after it, and its table (as `holds_start` knows its first rows)
/// starts page 2.
pub fn heading_alone_on_page_1(
    pages: &[Vec<String>],
    heading: &str,
    holds_start: impl Fn(&[String]) -> bool,
) {
    let (k, rest) = after_heading(pages, heading);
    assert_eq!(k, 0, "the heading on page 1: {pages:?}");
    assert!(!holds_start(&rest), "{pages:?}");
    assert!(
        rest.iter().all(|l| l.contains("Página")),
        "only the footer follows the heading on its page: {rest:?}"
    );
    assert!(
        holds_start(&pages[1]),
        "its table starts on page 2: {pages:?}"
    );
}
