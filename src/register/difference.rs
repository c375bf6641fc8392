//! Where a document departs from what the register gives, and where a reader finds that line:
//! the facts a verification returns (`register::verify` for notices and paz y salvo,
//! `report::lines` for actas) and the catalogues word, and the one rule that names a difference
//! by its whole row ([`line_difference`]).

/// Where a reader finds a line of a document's text: what a difference names, so that whoever
/// defends a figure can go to it (blank lines are not compared, but an editor counts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Line `n` (from 1) of the file as an editor counts it, blank lines counted: where the line
    /// of a Markdown file is, or where the text of an HTML file's line begins in its source.
    File(usize),
    /// Line `line` of page `page` (both from 1), the page's lines of text counted from its top
    /// as a reader counts them: a PDF, which has no lines of a file. A table's row or a
    /// paragraph printed on several lines is one row: each of its lines is placed on the row's
    /// first ([`row_of`]).
    Page { page: usize, line: usize },
    /// The `n`-th line of text (from 1), blank lines not counted: where neither is known.
    Text(usize),
}

/// Where a document first departs from a fresh rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The document's `nth` line of text (from 1, blank lines not counted), found at `at`, says
    /// `document`; the register gives `register`.
    Line {
        nth: usize,
        at: Place,
        document: String,
        register: String,
    },
    /// Same lines as far as both go, but not as many.
    Count { document: usize, register: usize },
}

/// The lines of the row line `k` is on (0-based), first to last: the lines about it placed on
/// the same line of a page (a PDF's row or paragraph printed on several lines, [`Place::Page`]);
/// any other line is a row of its own.
pub fn row_of(places: &[Place], k: usize) -> std::ops::Range<usize> {
    let at = places.get(k).copied();
    let same = |i: usize| matches!(at, Some(Place::Page { .. })) && places.get(i).copied() == at;
    let mut first = k;
    while first > 0 && same(first - 1) {
        first -= 1;
    }
    let mut end = k + 1;
    while same(end) {
        end += 1;
    }
    first..end
}

/// The difference at line `k` (0-based) of a document's lines and a fresh rendering's, each with
/// its places ([`rows_at`]), as the `nth` line of text's.
pub fn line_difference(
    doc: (&[String], &[Place]),
    fresh: (&[String], &[Place]),
    k: usize,
) -> Difference {
    let nth = row_of(doc.1, k).start + 1;
    let (at, document, register) = rows_at(doc, fresh, k);
    Difference::Line {
        nth,
        at,
        document,
        register,
    }
}

/// Where line `k` (0-based) of a document's lines differs from a fresh rendering's, each with
/// its places: where the document's row begins, and each side's whole row ([`row_of`]), its
/// lines joined with a space (document, register).
pub fn rows_at(
    (lines, places): (&[String], &[Place]),
    (fresh, fresh_places): (&[String], &[Place]),
    k: usize,
) -> (Place, String, String) {
    let row = row_of(places, k);
    let joined = |lines: &[String], r: std::ops::Range<usize>| {
        lines.get(r).map_or_else(String::new, |l| l.join(" "))
    };
    let at = places
        .get(row.start)
        .copied()
        .unwrap_or(Place::Text(row.start + 1));
    (
        at,
        joined(lines, row),
        joined(fresh, row_of(fresh_places, k)),
    )
}
