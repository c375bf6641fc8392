//! A document's lines compared with a fresh rendering's as both are made (`offer verify`,
//! `stage verify`): the document read a line at a time ([`NextLine`]), the rendering's lines fed
//! as they are written ([`LineCheck`]; HTML through its text, [`HtmlLines`]), so memory holds a
//! page or a chunk of each, not the document. Each line of the document carries where a reader
//! finds it ([`Place`]: a file's line, a page's), which a difference names. Comparison only.

use super::notice::{HtmlText, normalized_lines};
use std::collections::VecDeque;
use std::io::Write;

pub use crate::register::difference::{Difference, Place, line_difference, row_of};
use crate::report::pdf::PageLines;

/// A document's lines handed out one at a time with where each is found, `None` after the
/// last; an `Err` says why the document could not be read further (in English): an acta read
/// from its file as it is checked (`report::acta_file`), or lines in memory ([`lines_from`],
/// [`Placed::next`]).
pub type NextLine<'a> = dyn FnMut() -> Result<Option<(String, Place)>, String> + 'a;

/// `lines` handed out one at a time, as [`NextLine`], each placed as the `n`-th line of text.
pub fn lines_from(
    lines: &[String],
) -> impl FnMut() -> Result<Option<(String, Place)>, String> + '_ {
    let mut it = lines.iter().enumerate();
    move || Ok(it.next().map(|(k, l)| (l.clone(), Place::Text(k + 1))))
}

/// A document's lines of text in memory (normalized as [`normalized_lines`] gives them), each
/// with where a reader finds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placed {
    pub lines: Vec<String>,
    /// Where each of `lines` is, in its order.
    pub places: Vec<Place>,
}

impl Placed {
    /// Plain text (Markdown): each line on its line of the file, blank lines counted.
    pub fn of_file(text: &str) -> Placed {
        let mut placed = Placed::default();
        for (k, l) in text.lines().enumerate() {
            for l in normalized_lines(l) {
                placed.push(l, Place::File(k + 1));
            }
        }
        placed
    }

    /// An HTML file's text (`notice::html_text`), each line on the line of the file where its
    /// text begins.
    pub fn of_html(html: &str) -> Placed {
        let (mut reader, mut out) = (HtmlPlaced::default(), VecDeque::new());
        reader.push(html.as_bytes(), &mut out);
        reader.finish(&mut out);
        let mut placed = Placed::default();
        for (l, at) in out {
            placed.push(l, at);
        }
        placed
    }

    /// A PDF's lines, page by page (`pdf::extract_page_lines`): each line on its page, counted
    /// from the page's top, the lines of a row that wraps on the row's first ([`on_page`]).
    pub fn of_pages(pages: &[PageLines]) -> Placed {
        let mut placed = Placed::default();
        for (p, lines) in pages.iter().enumerate() {
            for (l, at) in on_page(p + 1, lines) {
                placed.push(l, at);
            }
        }
        placed
    }

    /// Lines whose places are not known: each is the `n`-th line of text.
    pub fn counted(lines: Vec<String>) -> Placed {
        let places = (1..=lines.len()).map(Place::Text).collect();
        Placed { lines, places }
    }

    fn push(&mut self, line: String, at: Place) {
        self.lines.push(line);
        self.places.push(at);
    }

    /// The lines handed out one at a time, as [`NextLine`].
    pub fn next(&self) -> impl FnMut() -> Result<Option<(String, Place)>, String> + '_ {
        let mut it = self.lines.iter().zip(&self.places);
        move || Ok(it.next().map(|(l, at)| (l.clone(), *at)))
    }
}

/// The lines of page `page` (from 1) normalized, each placed on the page as a reader counts its
/// lines from the top, except that a line printed right under the one before in the same row or
/// paragraph (`pdf::PageLines`) is placed where its row begins: what names a difference by
/// its whole row ([`row_of`]).
pub fn on_page(page: usize, lines: &PageLines) -> Vec<(String, Place)> {
    let mut out: Vec<(String, Place)> = Vec::with_capacity(lines.len());
    for (text, follows) in lines {
        for l in normalized_lines(text) {
            let at = match out.last() {
                Some((_, before)) if *follows => *before,
                _ => Place::Page {
                    page,
                    line: out.len() + 1,
                },
            };
            out.push((l, at));
        }
    }
    out
}

/// An HTML file's lines of text (`notice::HtmlText`) made as it is read, a chunk at a time,
/// each with the line of the file (from 1, as an editor counts) on which its text begins: the
/// file's line ends are counted as its bytes pass, and the text line remembers on which file
/// line each of its pieces was read. Memory holds the text line being made.
#[derive(Debug)]
pub struct HtmlPlaced {
    text: HtmlText,
    /// The file's line being read.
    at: usize,
    /// The text line being made, and where in it the text read on each file line begins
    /// (offset, file line).
    line: Vec<u8>,
    marks: Vec<(usize, usize)>,
    buf: Vec<u8>,
}

impl Default for HtmlPlaced {
    fn default() -> HtmlPlaced {
        HtmlPlaced {
            text: HtmlText::default(),
            at: 1,
            line: Vec::new(),
            marks: Vec::new(),
            buf: Vec::new(),
        }
    }
}

impl HtmlPlaced {
    /// The next bytes of the file (ending anywhere but inside a character); the lines of text
    /// they end go to `out`.
    pub fn push(&mut self, html: &[u8], out: &mut VecDeque<(String, Place)>) {
        for piece in html.split_inclusive(|&b| b == b'\n') {
            self.buf.clear();
            self.text.push(piece, &mut self.buf);
            self.take(out);
            if piece.ends_with(b"\n") {
                self.at += 1;
            }
        }
    }

    /// The end of the file: the last line of text goes to `out`.
    pub fn finish(&mut self, out: &mut VecDeque<(String, Place)>) {
        self.buf.clear();
        self.text.finish(&mut self.buf);
        self.buf.push(b'\n');
        self.take(out);
    }

    /// The bytes of the text line being made, not yet ended.
    pub fn pending(&self) -> usize {
        self.line.len()
    }

    /// The text just made (`buf`), read on the file's line `at`.
    fn take(&mut self, out: &mut VecDeque<(String, Place)>) {
        let buf = std::mem::take(&mut self.buf);
        for part in buf.split_inclusive(|&b| b == b'\n') {
            if self.marks.last().is_none_or(|&(_, l)| l != self.at) {
                self.marks.push((self.line.len(), self.at));
            }
            self.line.extend_from_slice(part);
            if part.ends_with(b"\n") {
                let text = String::from_utf8_lossy(&self.line);
                // the file line of the text's first visible character
                let first = text
                    .char_indices()
                    .find(|(_, c)| !c.is_whitespace())
                    .map_or(0, |(i, _)| i);
                let at = self
                    .marks
                    .iter()
                    .rev()
                    .find(|(o, _)| *o <= first)
                    .map_or(self.at, |m| m.1);
                out.extend(
                    normalized_lines(&text)
                        .into_iter()
                        .map(|l| (l, Place::File(at))),
                );
                self.line.clear();
                self.marks.clear();
            }
        }
        self.buf = buf;
    }
}

/// A fresh rendering's lines, fed as they are made, compared with a document's read as they
/// are compared: the first difference, as [`first_difference`] finds it between both lists
/// whole (each side's whole row). After a difference the document is read no further than the
/// end of its row.
pub struct LineCheck<'a, 'n> {
    next: &'n mut NextLine<'a>,
    /// Lines of the document read so far; whether it has no more.
    read: usize,
    done: bool,
    seen: usize,
    diff: Option<Difference>,
    failed: Option<String>,
    partial: Vec<u8>,
    /// The row each side is in (at most a page's lines), and whether the fresh one's may go on
    /// after a difference.
    doc_row: Row,
    fresh_row: Row,
    fresh_open: bool,
    /// The fresh rendering's pages fed so far ([`LineCheck::page`]).
    fresh_pages: usize,
}

/// The lines of the row being read ([`row_of`]), where it begins and its first line's number
/// among the lines of text (from 1).
#[derive(Default)]
struct Row {
    lines: Vec<String>,
    at: Option<Place>,
    nth: usize,
}

impl Row {
    /// Whether a line placed `at` goes on this row: a PDF's line placed where the row begins.
    fn goes_on(&self, at: Option<Place>) -> bool {
        matches!(at, Some(Place::Page { .. })) && at == self.at
    }

    /// Adds the `nth` line, placed `at`: to this row, or as the first of the next.
    fn add(&mut self, line: String, at: Option<Place>, nth: usize) {
        if !self.goes_on(at) {
            self.lines.clear();
            self.at = at;
            self.nth = nth;
        }
        self.lines.push(line);
    }
}

impl<'a, 'n> LineCheck<'a, 'n> {
    pub fn new(next: &'n mut NextLine<'a>) -> LineCheck<'a, 'n> {
        LineCheck {
            next,
            read: 0,
            done: false,
            seen: 0,
            diff: None,
            failed: None,
            partial: Vec::new(),
            doc_row: Row::default(),
            fresh_row: Row::default(),
            fresh_open: false,
            fresh_pages: 0,
        }
    }

    /// Text ending at a line's end (a page's of Markdown or HTML).
    pub fn text(&mut self, text: &str) {
        for l in normalized_lines(text) {
            self.line(l, None);
        }
    }

    /// A fresh PDF's next page (`pdf::stream::each_page_text`), its lines placed ([`on_page`]).
    pub fn page(&mut self, lines: &PageLines) {
        self.fresh_pages += 1;
        for (l, at) in on_page(self.fresh_pages, lines) {
            self.line(l, Some(at));
        }
    }

    /// The document's next line and its place, if it has one (and nothing went wrong reading
    /// it).
    fn document(&mut self) -> Option<(String, Place)> {
        if self.done || self.failed.is_some() {
            return None;
        }
        match (self.next)() {
            Ok(Some(d)) => {
                self.read += 1;
                Some(d)
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    /// The fresh rendering's next line, placed `at` where known.
    fn line(&mut self, fresh: String, at: Option<Place>) {
        let nth = self.seen + 1;
        if self.diff.is_none() {
            if let Some((d, d_at)) = self.document() {
                let differs = d != fresh;
                self.doc_row.add(d, Some(d_at), nth);
                self.fresh_row.add(fresh, at, nth);
                if differs {
                    self.diff = Some(Difference::Line {
                        nth: self.doc_row.nth,
                        at: self.doc_row.at.unwrap_or(d_at),
                        document: String::new(),
                        register: String::new(),
                    });
                    self.fresh_open = true;
                }
            }
        } else if self.fresh_open {
            self.fresh_open = self.fresh_row.goes_on(at);
            if self.fresh_open {
                self.fresh_row.lines.push(fresh);
            }
        }
        self.seen += 1;
    }

    /// The first difference; an `Err` when the document could not be read to it (or, with
    /// none, to its end).
    pub fn finish(mut self) -> Result<Option<Difference>, String> {
        let rest = std::mem::take(&mut self.partial);
        self.text(&String::from_utf8_lossy(&rest));
        if self.diff.is_none() {
            while self.document().is_some() {}
        } else {
            // the document's row to its end (a line past it at most); what cannot be read
            // after the difference does not hide it
            while let Some((d, at)) = self.document() {
                if !self.doc_row.goes_on(Some(at)) {
                    break;
                }
                self.doc_row.lines.push(d);
            }
            self.failed = None;
        }
        if let Some(Difference::Line {
            document, register, ..
        }) = &mut self.diff
        {
            *document = self.doc_row.lines.join(" ");
            *register = self.fresh_row.lines.join(" ");
        }
        if let Some(e) = self.failed {
            return Err(e);
        }
        let (document, register) = (self.read, self.seen);
        Ok(self
            .diff
            .or_else(|| (document != register).then_some(Difference::Count { document, register })))
    }
}

/// Markdown written into the check, line by line.
impl Write for LineCheck<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..=at]);
            let line = std::mem::take(&mut self.partial);
            self.text(&String::from_utf8_lossy(&line));
            rest = &rest[at + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// HTML written into a check (a [`LineCheck`]) as its text, made as it is written
/// (`notice::HtmlText`): the lines `document_lines` reads from the whole file.
pub struct HtmlLines<'c, 'a, 'n> {
    check: &'c mut LineCheck<'a, 'n>,
    text: HtmlText,
    buf: Vec<u8>,
}

impl<'c, 'a, 'n> HtmlLines<'c, 'a, 'n> {
    pub fn new(check: &'c mut LineCheck<'a, 'n>) -> HtmlLines<'c, 'a, 'n> {
        HtmlLines {
            check,
            text: HtmlText::default(),
            buf: Vec::new(),
        }
    }

    /// The end of the HTML: what text is left goes to the check.
    pub fn finish(mut self) {
        self.buf.clear();
        self.text.finish(&mut self.buf);
        let _ = self.check.write_all(&self.buf);
    }
}

impl Write for HtmlLines<'_, '_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buf.clear();
        self.text.push(buf, &mut self.buf);
        self.check.write_all(&self.buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The first difference between a document's lines and a fresh rendering's, each side's whole
/// row ([`line_difference`]).
pub fn first_difference(doc: &Placed, fresh: &Placed) -> Option<Difference> {
    let (lines, fresh_lines) = (&doc.lines, &fresh.lines);
    if let Some(k) = lines.iter().zip(fresh_lines).position(|(a, b)| a != b) {
        return Some(line_difference(
            (lines, &doc.places),
            (fresh_lines, &fresh.places),
            k,
        ));
    }
    (lines.len() != fresh_lines.len()).then_some(Difference::Count {
        document: lines.len(),
        register: fresh_lines.len(),
    })
}

/// [`first_difference`] with the document's lines read as they are compared (a stage's acta
/// read from its file); an `Err` when the document cannot be read.
pub fn first_difference_streamed(
    lines: &mut NextLine<'_>,
    fresh: &Placed,
) -> Result<Option<Difference>, String> {
    let mut lc = LineCheck::new(lines);
    for (l, at) in fresh.lines.iter().zip(&fresh.places) {
        lc.line(l.clone(), Some(*at));
    }
    lc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::notice::Block;

    fn md(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    /// A Markdown notice with its total changed: the difference is named on the file's line as
    /// an editor numbers it. Counted by hand: 1 title, 2 blank, 3 `Programa`, 4 blank, 5 blank,
    /// 6 the table's head, 7 its rule, 8 the total; the total is the 5th line of text.
    #[test]
    fn a_markdown_difference_is_named_on_the_files_line_blank_lines_counted() {
        let issued = "# NOTIFICACIÓN DE MULTA No. MULTA-2025-0001\n\nPrograma: D3939-2004\n\n\n\
                      | Concepto | Valor |\n|---|---|\n| Total a pagar | $ 626.823 |\n";
        let forged = issued.replace("$ 626.823", "$ 26.823");
        let fresh = Placed::of_file(issued);
        let d = first_difference(&Placed::of_file(&forged), &fresh);
        assert_eq!(
            d,
            Some(Difference::Line {
                nth: 5,
                at: Place::File(8),
                document: "| Total a pagar | $ 26.823 |".into(),
                register: "| Total a pagar | $ 626.823 |".into(),
            })
        );
        assert_eq!(md(issued).len(), 8, "the notice's lines, blank ones too");
        // read as it is compared: the same place
        let placed = Placed::of_file(&forged);
        let mut next = placed.next();
        assert_eq!(first_difference_streamed(&mut next, &fresh).unwrap(), d);
    }

    /// An HTML file's lines of text are placed on the line of the file where their text begins,
    /// whatever the chunks it is read in. Counted by hand in `HTML` below: «Aviso» on line 5,
    /// «Programa» on 6, «uno» on 8 (its tag opened on 7), the total on 10 (the row begins on 9,
    /// its text on 10), «fin» on 13 (a tag broken over 11 and 12 before it).
    #[test]
    fn html_text_is_placed_on_the_line_of_the_file_where_it_begins() {
        const HTML: &str = "<!DOCTYPE html>\n<html>\n<head><style>\np { x: 1 }\n</style></head><body><h1>Aviso</h1>\n\
                            <p>Programa: D3939-2004</p>\n<p\n>uno</p>\n<table><tr>\n<td>Total</td><td>$ 626.823</td></tr></table>\n<p\nclass=\"x\"\n>fin &amp; firma</p>\n</body></html>";
        let want = Placed {
            lines: md("Aviso\nPrograma: D3939-2004\nuno\nTotal | $ 626.823 |\nfin & firma"),
            places: [5, 6, 8, 10, 13].map(Place::File).to_vec(),
        };
        assert_eq!(Placed::of_html(HTML), want);
        // the text is the one the documents are compared in
        assert_eq!(
            want.lines,
            super::super::notice::normalized_lines(&super::super::notice::html_text(HTML))
        );
        for chunk in [1, 2, 3, 7, 64] {
            let (mut r, mut out) = (HtmlPlaced::default(), VecDeque::new());
            for c in HTML.as_bytes().chunks(chunk) {
                r.push(c, &mut out);
            }
            r.finish(&mut out);
            let (lines, places): (Vec<_>, Vec<_>) = out.into_iter().unzip();
            assert_eq!(Placed { lines, places }, want, "chunk {chunk}");
        }
    }

    /// A PDF's line is named by its page and its line on that page, as a reader counts the
    /// lines printed on the page. The two pages rendered here, looked at (`pdftoppm -png`): the
    /// first prints the title, «Párrafo 1.» to «Párrafo 33.» and its footer (35 lines); the
    /// second «Párrafo 34.» to «Párrafo 60.» and its footer, so «Párrafo 50.» is its 17th line
    /// and the document's 52nd line of text.
    #[test]
    fn a_pdf_difference_is_named_by_its_page_and_its_line_on_the_page() {
        let blocks = |changed: &str| {
            let mut b = vec![Block::Title("Aviso de prueba".into())];
            b.extend((1..=60).map(|k| {
                Block::Para(if k == 50 {
                    changed.to_string()
                } else {
                    format!("Párrafo {k}.")
                })
            }));
            b
        };
        let render = |changed: &str| {
            super::super::pdf::render(&blocks(changed), "Aviso", "Pie", (2025, 2, 10))
        };
        let pages = |pdf: &[u8]| super::super::pdf::extract_page_lines(pdf).unwrap();
        let (issued, forged) = (render("Párrafo 50."), render("Párrafo 5O."));
        let fresh = Placed::of_pages(&pages(&issued));
        let d = first_difference(&Placed::of_pages(&pages(&forged)), &fresh);
        assert_eq!(
            d,
            Some(Difference::Line {
                nth: 52,
                at: Place::Page { page: 2, line: 17 },
                document: "Párrafo 5O.".into(),
                register: "Párrafo 50.".into(),
            })
        );
    }

    /// A row or a paragraph printed on several lines is quoted whole, its lines joined with a
    /// space, and placed on its first line, wherever in it the change is. Laid out here: the
    /// title (line 1), the table's header (2), Ana's row (3), the long name's row from line 4 on
    /// (the name wraps; its last word, changed, is on the row's last line), Eva's row, then the
    /// paragraph, which wraps too; a paragraph is split only at its spaces.
    #[test]
    fn a_row_printed_on_several_lines_is_quoted_whole_and_placed_on_its_first_line() {
        let name = |last: &str| {
            format!(
                "María de los Ángeles Restrepo {} Peñaloza, representante del Fondo de Empleados \
                 de la Empresa de Energía y de sus sucursales en Boyacá, Cundinamarca y Santander \
                 {last}",
                "Gómez ".repeat(6).trim_end()
            )
        };
        let para = |last: &str| {
            format!(
                "{} {last}",
                "Las acciones adjudicadas quedan sujetas a la restricción de su programa."
                    .repeat(4)
            )
        };
        let blocks = |last: &str| {
            vec![
                Block::Title("Acta de prueba".into()),
                Block::Table {
                    header: vec!["Documento".into(), "Nombre".into(), "Valor".into()],
                    rows: vec![
                        vec!["CC 1".into(), "Ana".into(), "$ 1.000".into()],
                        vec!["CC 2".into(), name(last), "$ 2.000".into()],
                        vec!["CC 3".into(), "Eva".into(), "$ 3.000".into()],
                    ],
                    right: vec![false, false, true],
                },
                Block::Para(para(last)),
            ]
        };
        let placed = |last: &str| {
            let pdf = super::super::pdf::render(&blocks(last), "Acta", "Pie", (2025, 2, 10));
            Placed::of_pages(&super::super::pdf::extract_page_lines(&pdf).unwrap())
        };
        let fresh = placed("Peñaloza");
        let row = |p: &Placed, who: &str| -> Vec<usize> {
            let first = p.lines.iter().position(|l| l.starts_with(who)).unwrap();
            (first..p.lines.len())
                .take_while(|&k| p.places[k] == p.places[first])
                .collect()
        };
        // the long name takes more than one line, Ana's and Eva's one each
        assert!(row(&fresh, "CC 2 |").len() > 1, "{:?}", fresh.lines);
        assert_eq!(row(&fresh, "CC 1 |"), [2]);
        assert_eq!(fresh.places[2], Place::Page { page: 1, line: 3 });
        let forged = placed("Penaloza");
        let d = first_difference(&forged, &fresh);
        let Some(Difference::Line {
            nth,
            at,
            document,
            register,
        }) = d.clone()
        else {
            panic!("{d:?}")
        };
        assert_eq!((nth, at), (4, Place::Page { page: 1, line: 4 }));
        // the whole row: its first line's cells, then the rest of the name
        assert!(
            document.starts_with("CC 2 | María de los Ángeles") && document.ends_with(" Penaloza"),
            "{document}"
        );
        assert!(document.contains(" | $ 2.000 "), "{document}");
        assert_eq!(register, document.replace(" Penaloza", " Peñaloza"));
        let words = |s: &str| {
            let mut w: Vec<String> = s
                .split_whitespace()
                .filter(|w| *w != "|")
                .map(String::from)
                .collect();
            w.sort();
            w
        };
        assert_eq!(
            words(&document),
            words(&format!("CC 2 {} $ 2.000", name("Penaloza")))
        );
        // read as it is compared: the same
        let mut next = forged.next();
        let mut check = LineCheck::new(&mut next);
        let pdf = super::super::pdf::render(&blocks("Peñaloza"), "Acta", "Pie", (2025, 2, 10));
        for page in super::super::pdf::extract_page_lines(&pdf).unwrap() {
            check.page(&page);
        }
        assert_eq!(check.finish().unwrap(), d);

        // the paragraph, whose last line changed: quoted whole, at its first line
        let mut forged = fresh.clone();
        let last = forged.lines.len() - 2; // the footer is the page's last line
        assert!(
            forged.lines[last].ends_with("Peñaloza"),
            "{:?}",
            forged.lines
        );
        forged.lines[last] = forged.lines[last].replace("Peñaloza", "Penaloza");
        let Some(Difference::Line { at, document, .. }) = first_difference(&forged, &fresh) else {
            panic!()
        };
        assert_eq!(document, para("Penaloza"));
        let first = fresh
            .lines
            .iter()
            .position(|l| l.starts_with("Las acciones"))
            .unwrap();
        assert!(last > first, "the paragraph wraps");
        assert_eq!(at, fresh.places[first]);
        assert_eq!(
            at,
            Place::Page {
                page: 1,
                line: first + 1
            }
        );
    }
}
