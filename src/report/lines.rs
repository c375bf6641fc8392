//! A document's lines compared with a fresh rendering's as both are made (`offer verify`,
//! `stage verify`): the document read a line at a time ([`NextLine`]), the rendering's lines fed
//! as they are written ([`LineCheck`]; HTML through its text, [`HtmlLines`]), so memory holds a
//! page or a chunk of each, not the document. Comparison only.

use std::io::Write;

/// A document's lines handed out one at a time, `None` after the last; an `Err` says why the
/// document could not be read further (in English): an acta read from its file as it is
/// checked (`report::acta_file`), or lines in memory ([`lines_from`]).
pub type NextLine<'a> = dyn FnMut() -> Result<Option<String>, String> + 'a;

/// `lines` handed out one at a time, as [`NextLine`].
pub fn lines_from(lines: &[String]) -> impl FnMut() -> Result<Option<String>, String> + '_ {
    let mut it = lines.iter();
    move || Ok(it.next().cloned())
}

/// A fresh rendering's lines, fed as they are made, compared with a document's read as they
/// are compared: the first difference, as [`first_difference`] finds it between both lists
/// whole. After a difference the document is read no further.
pub struct LineCheck<'a, 'n> {
    next: &'n mut NextLine<'a>,
    /// Lines of the document read so far; whether it has no more.
    read: usize,
    done: bool,
    seen: usize,
    diff: Option<Difference>,
    failed: Option<String>,
    partial: Vec<u8>,
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
        }
    }

    /// Text ending at a line's end (a page's).
    pub fn text(&mut self, text: &str) {
        for l in super::notice::normalized_lines(text) {
            self.line(l);
        }
    }

    /// The document's next line, if it has one (and nothing went wrong reading it).
    fn document(&mut self) -> Option<String> {
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

    fn line(&mut self, fresh: String) {
        if self.diff.is_none()
            && let Some(d) = self.document()
            && d != fresh
        {
            self.diff = Some(Difference::Line {
                line: self.seen + 1,
                document: d,
                register: fresh,
            });
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
    text: super::notice::HtmlText,
    buf: Vec<u8>,
}

impl<'c, 'a, 'n> HtmlLines<'c, 'a, 'n> {
    pub fn new(check: &'c mut LineCheck<'a, 'n>) -> HtmlLines<'c, 'a, 'n> {
        HtmlLines {
            check,
            text: super::notice::HtmlText::default(),
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

/// Where a document first departs from a fresh rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Line `line` (from 1) says `document`; the register gives `register`.
    Line {
        line: usize,
        document: String,
        register: String,
    },
    /// Same lines as far as both go, but not as many.
    Count { document: usize, register: usize },
}

/// The first difference between a document's lines and a fresh rendering's.
pub fn first_difference(lines: &[String], fresh: &[String]) -> Option<Difference> {
    if let Some((k, (a, b))) = lines
        .iter()
        .zip(fresh)
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        return Some(Difference::Line {
            line: k + 1,
            document: a.clone(),
            register: b.clone(),
        });
    }
    (lines.len() != fresh.len()).then_some(Difference::Count {
        document: lines.len(),
        register: fresh.len(),
    })
}

/// [`first_difference`] with the document's lines read as they are compared (a stage's acta
/// read from its file); an `Err` when the document cannot be read.
pub fn first_difference_streamed(
    lines: &mut NextLine<'_>,
    fresh: &[String],
) -> Result<Option<Difference>, String> {
    let mut lc = LineCheck::new(lines);
    for l in fresh {
        lc.line(l.clone());
    }
    lc.finish()
}
