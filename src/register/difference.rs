//! Where a document departs from what the register gives, and where a reader finds that line:
//! the facts a verification returns (`register::verify` for notices and paz y salvo,
//! `report::lines` for actas) and the catalogues word. Data only.

/// Where a reader finds a line of a document's text: what a difference names, so that whoever
/// defends a figure can go to it (blank lines are not compared, but an editor counts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Line `n` (from 1) of the file as an editor counts it, blank lines counted: where the line
    /// of a Markdown file is, or where the text of an HTML file's line begins in its source.
    File(usize),
    /// Line `line` of page `page` (both from 1), the page's lines of text counted from its top
    /// as a reader counts them: a PDF, which has no lines of a file.
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
