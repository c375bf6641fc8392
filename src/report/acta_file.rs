//! An acta read back from its file as it is checked (`offer verify`, `stage verify`): Markdown a
//! chunk at a time, line by line; HTML a chunk at a time, its text made as it is read
//! (`notice::HtmlText`, through `lines::HtmlPlaced`); a PDF a page at a time (a signed PDF's
//! unsigned revision, which is a prefix of the file); so memory holds a chunk or a page, not the
//! document. Each line carries where a reader finds it (the file's line, the page's), counted as
//! it is read. Reading only: the lines are compared with a fresh rendering by `report::acta`.

use super::acta::Format;
use super::lines::{HtmlPlaced, NextLine, Place};
use super::notice::normalized_lines;
use super::pdf::read::{self, Doc};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// What is read of a Markdown file at once.
pub const CHUNK: usize = 64 << 10;
/// The longest line of a Markdown acta read, or of an HTML acta's text (an acta's longest are a
/// few hundred bytes).
pub const MAX_LINE: usize = 1 << 20;
/// What a document that is neither a PDF nor UTF-8 text is told.
const NOT_TEXT: &str = "neither a PDF nor UTF-8 text (HTML or Markdown)";
/// The lines at the start of a document where what it is (its title, program and number
/// lines) is looked for.
pub const HEAD_LINES: usize = 200;
/// The largest last revision read to tell whether it is a signature's (vigia's are about
/// 40 KB).
const MAX_REVISION: u64 = 16 << 20;

/// Why an acta's file could not be read.
#[derive(Debug)]
pub enum Unread {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// It is not a document vigia reads: what is wrong, in both languages.
    Document(crate::lang::Said),
}

impl From<std::io::Error> for Unread {
    fn from(e: std::io::Error) -> Unread {
        Unread::Io(e)
    }
}

/// An acta's file, opened: its format, and for a PDF its pages' index.
pub struct ActaFile {
    file: File,
    len: u64,
    format: Format,
    chunk: usize,
    /// A PDF: the document vigia wrote (a signed one's unsigned revision).
    pdf: Option<Doc<'static>>,
    /// Whether a PDF carries a signature's form: its signatures are checked on the whole file.
    signed: bool,
}

impl ActaFile {
    /// Opens `path`, reading a Markdown file `chunk` bytes at a time, a PDF a page at a time.
    pub fn open(path: &Path, chunk: usize) -> Result<ActaFile, Unread> {
        ActaFile::open_paged(path, chunk, read::MAX_CONTENT)
    }

    /// [`ActaFile::open`], a PDF's page read within `page_content` bytes of content.
    fn open_paged(path: &Path, chunk: usize, page_content: usize) -> Result<ActaFile, Unread> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let mut start = vec![0; usize::try_from(len.min(1024)).unwrap_or(1024)];
        file.read_exact_at(&mut start, 0)?;
        let mut acta = ActaFile {
            file,
            len,
            format: Format::Md,
            chunk: chunk.max(1),
            pdf: None,
            signed: false,
        };
        if start.starts_with(b"%PDF-") {
            acta.format = Format::Pdf;
            let unsigned = unsigned_revision(&acta.file, len, acta.chunk.max(CHUNK))?;
            let doc = Doc::open(
                acta.file.try_clone()?,
                unsigned.unwrap_or(len),
                page_content,
            )
            .map_err(|e| Unread::Document(super::document::unreadable_pdf(&e)))?;
            // a form in the latest revision holds the signatures `sign` reads (none: nothing
            // to say); when it cannot be told, `sign` is asked
            acta.signed = unsigned.is_some() || doc.has_form().unwrap_or(true);
            acta.pdf = Some(doc);
        } else if String::from_utf8_lossy(&start)
            .trim_start()
            .starts_with("<!DOCTYPE html")
        {
            acta.format = Format::Html;
        }
        Ok(acta)
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// The document's lines from its first, normalized as `acta::lines_of` gives a fresh
    /// rendering's, each with where a reader finds it (a PDF's page and line on it; a Markdown
    /// or HTML file's line), read as they are asked for; each call starts again.
    pub fn lines(&self) -> Result<Lines<'_>, Unread> {
        Ok(Lines(match (&self.pdf, self.format) {
            (Some(doc), _) => Source::Pdf {
                pages: doc
                    .each_page()
                    .map_err(|e| Unread::Document(super::document::unreadable_pdf(&e)))?,
                page: 0,
                queue: VecDeque::new(),
            },
            (None, Format::Html) => Source::Html {
                reader: At {
                    file: &self.file,
                    pos: 0,
                },
                chunk: vec![0; self.chunk],
                text: HtmlPlaced::default(),
                carry: Vec::new(),
                queue: VecDeque::new(),
                done: false,
            },
            (None, _) => Source::Md {
                reader: BufReader::with_capacity(
                    self.chunk,
                    At {
                        file: &self.file,
                        pos: 0,
                    },
                ),
                line: Vec::new(),
                at: 0,
            },
        }))
    }

    /// [`ActaFile::lines`] as `acta::check_streamed` opens them, once per layout it tries; why
    /// they cannot be read, in English.
    pub fn open_lines(&self) -> Result<Box<NextLine<'_>>, String> {
        let mut lines = self.lines().map_err(|e| match e {
            Unread::Document(e) => e.en().to_string(),
            Unread::Io(e) => format!("could not be read: {e}"),
        })?;
        Ok(Box::new(move || lines.next_line()))
    }

    /// The first [`HEAD_LINES`] lines, where a document says what it is.
    pub fn head(&self) -> Result<Vec<String>, Unread> {
        let mut lines = self.lines()?;
        let mut head = Vec::new();
        while head.len() < HEAD_LINES {
            // (a line's reason is the reader's English, named as such in Spanish)
            let line = lines
                .next_line()
                .map_err(|e| Unread::Document(crate::said!(report::document_unreadable, e)))?;
            match line {
                Some((l, _)) => head.push(l),
                None => break,
            }
        }
        Ok(head)
    }

    /// Whether it is a PDF with a signature's form, whose signatures are to be checked.
    pub fn is_signed(&self) -> bool {
        self.signed
    }

    /// The signatures of a PDF with a signature's form, verified against `trusted`
    /// (`sign::verify_found`): the form's fields read from the file as objects
    /// (`Doc::signature_fields`, over the whole file, every revision), the signed bytes hashed as
    /// they are read, the file's chunk at a time, so memory holds a chunk, not the file. An unsigned
    /// document gives an empty list.
    pub fn verify_signatures(
        &self,
        trusted: &[x509_cert::Certificate],
    ) -> Result<Vec<crate::sign::Verification>, crate::sign::SignError> {
        if !self.signed {
            return Ok(Vec::new());
        }
        let unreadable = |e: String| crate::sign::SignError::Pdf(e);
        let file = self
            .file
            .try_clone()
            .map_err(|e| unreadable(e.to_string()))?;
        let doc =
            Doc::open(file, self.len, read::MAX_CONTENT).map_err(|e| unreadable(e.to_string()))?;
        let found = doc
            .signature_fields()
            .map_err(|e| unreadable(e.to_string()))?;
        let read = |at: u64, buf: &mut [u8]| self.file.read_exact_at(buf, at);
        crate::sign::verify_found(&found, self.len, &read, self.chunk, trusted)
    }
}

/// The file read from `pos` on, without moving its offset (`read_at`).
struct At<'f> {
    file: &'f File,
    pos: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

enum Source<'f> {
    Md {
        reader: BufReader<At<'f>>,
        line: Vec<u8>,
        /// The file's lines read.
        at: usize,
    },
    Pdf {
        pages: read::PageCursor<'f, 'static>,
        /// The pages read.
        page: usize,
        queue: VecDeque<(String, Place)>,
    },
    Html {
        reader: At<'f>,
        chunk: Vec<u8>,
        text: HtmlPlaced,
        /// A character begun at the end of the last chunk.
        carry: Vec<u8>,
        queue: VecDeque<(String, Place)>,
        done: bool,
    },
}

/// A document's lines, read as they are asked for.
pub struct Lines<'f>(Source<'f>);

impl Lines<'_> {
    /// The next line and where it is, `None` after the last; an `Err` says why the document
    /// cannot be read further, in English.
    pub fn next_line(&mut self) -> Result<Option<(String, Place)>, String> {
        match &mut self.0 {
            Source::Html {
                reader,
                chunk,
                text,
                carry,
                queue,
                done,
            } => loop {
                if let Some(l) = queue.pop_front() {
                    return Ok(Some(l));
                }
                if *done {
                    return Ok(None);
                }
                let n = reader
                    .read(chunk)
                    .map_err(|e| format!("could not be read: {e}"))?;
                if n == 0 {
                    *done = true;
                    if !carry.is_empty() {
                        return Err(NOT_TEXT.into());
                    }
                    text.finish(queue);
                } else {
                    carry.extend_from_slice(&chunk[..n]);
                    let valid = match std::str::from_utf8(carry) {
                        Ok(_) => carry.len(),
                        Err(e) if e.error_len().is_none() => e.valid_up_to(),
                        Err(_) => return Err(NOT_TEXT.into()),
                    };
                    // whole characters: the text is made of whole characters and tags
                    text.push(&carry[..valid], queue);
                    carry.drain(..valid);
                }
                if text.pending() > MAX_LINE {
                    return Err(format!(
                        "has a line of text longer than {MAX_LINE} bytes: not an acta vigia wrote"
                    ));
                }
            },
            Source::Pdf { pages, page, queue } => loop {
                if let Some(l) = queue.pop_front() {
                    return Ok(Some(l));
                }
                let Some(next) = pages.next_page().map_err(|e| e.to_string())? else {
                    return Ok(None);
                };
                let lines = super::pdf::lines_of(next).map_err(|e| e.to_string())?;
                *page += 1;
                queue.extend(super::lines::on_page(*page, &lines));
            },
            Source::Md { reader, line, at } => loop {
                line.clear();
                let read = reader
                    .by_ref()
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', line)
                    .map_err(|e| format!("could not be read: {e}"))?;
                if read == 0 {
                    return Ok(None);
                }
                *at += 1;
                if line.len() > MAX_LINE {
                    return Err(format!(
                        "has a line longer than {MAX_LINE} bytes: not an acta vigia wrote"
                    ));
                }
                let text = std::str::from_utf8(line).map_err(|_| NOT_TEXT.to_string())?;
                if let Some(l) = normalized_lines(text).into_iter().next() {
                    return Ok(Some((l, Place::File(*at))));
                }
            },
        }
    }
}

/// Where the unsigned revision of a signed PDF ends (`sign::unsigned_revision`, asked about the
/// file's last revision only, which it is about): the file is read `chunk` bytes at a time for
/// its `%%EOF` markers, and only the last revision is held. `None`: not signed by vigia.
fn unsigned_revision(file: &File, len: u64, chunk: usize) -> Result<Option<u64>, Unread> {
    const MARKER: &[u8] = b"%%EOF";
    let mut ends: [Option<u64>; 2] = [None, None];
    let mut buf = vec![0; chunk + MARKER.len()];
    let mut pos = 0u64;
    let mut kept = 0usize; // bytes of the chunk before carried over
    while pos < len {
        let n = usize::try_from((len - pos).min(chunk as u64)).unwrap_or(chunk);
        file.read_exact_at(&mut buf[kept..kept + n], pos)?;
        let have = kept + n;
        let base = pos - kept as u64;
        for (i, w) in buf[..have].windows(MARKER.len()).enumerate() {
            if w == MARKER {
                let at = base + i as u64;
                if ends[1] != Some(at) {
                    ends = [ends[1], Some(at)];
                }
            }
        }
        kept = (MARKER.len() - 1).min(have);
        buf.copy_within(have - kept..have, 0);
        pos += n as u64;
    }
    let [Some(previous), Some(_)] = ends else {
        return Ok(None);
    };
    if len - previous > MAX_REVISION {
        return Ok(None);
    }
    let mut last = vec![0; usize::try_from(len - previous).unwrap_or(0)];
    file.read_exact_at(&mut last, previous)?;
    Ok(crate::sign::unsigned_revision(&last).map(|r| previous + r.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offering::adjudicate::Status;
    use crate::program::{DECRETO_3939_2004, Program};
    use crate::register::offering::{Fingerprint, Header, Row};
    use crate::report::acta::{self, ActaHead, Difference, Mismatch, Pass};
    use chrono::NaiveDate;

    fn rows(n: u64) -> Vec<Row> {
        (0..n)
            .map(|i| Row {
                doc_type: "CC".into(),
                doc_number: (1_000_000_000 + i).to_string(),
                name: format!("Aceptante Ñandú {i}"),
                requested: 40 + i % 13,
                cap_shares: None,
                cap_rule: None,
                admitted: 40 + i % 13,
                quota: Some(format!("{} + {}/97", 30 + i % 13, i % 97)),
                awarded: 30 + i % 13,
                status: Status::Awarded,
                cause: None,
            })
            .collect()
    }

    fn header(n: u64) -> Header {
        Header {
            program: "D3939-2004".into(),
            program_sha256: "00".into(),
            opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
            closes: NaiveDate::from_ymd_opt(2024, 3, 8).unwrap(),
            adjudicated_on: NaiveDate::from_ymd_opt(2024, 3, 15).unwrap(),
            offered: 30 * n,
            demand: 46 * n,
            awarded: 30 * n,
            leftover: 0,
            oversubscribed: true,
            rule: "proportional",
        }
    }

    /// An adjudication of `n` rows as an acta is written from: the program, the rows, their
    /// header and their fingerprint.
    struct Run {
        program: Program,
        rows: Vec<Row>,
        header: Header,
        fingerprint: String,
    }

    fn run(n: u64) -> Run {
        let (rows, header) = (rows(n), header(n));
        let mut fp = Fingerprint::default();
        fp.header(&header);
        rows.iter().for_each(|r| fp.row(r));
        Run {
            program: Program::from_toml(DECRETO_3939_2004).unwrap(),
            rows,
            header,
            fingerprint: fp.finish(),
        }
    }

    impl Run {
        fn head(&self) -> ActaHead<'_> {
            ActaHead {
                program: &self.program,
                run_id: 7,
                fingerprint: &self.fingerprint,
                header: &self.header,
            }
        }
    }

    /// The acta of `rows` in `format` written to a file, then checked against the same rows
    /// read from that file with `chunk`: the number of rows and what differs.
    fn check_file(
        head: &ActaHead<'_>,
        rows: &[Row],
        path: &Path,
        chunk: usize,
    ) -> Result<(u64, Option<Mismatch>), String> {
        check_paged(head, rows, path, chunk, read::MAX_CONTENT)
    }

    fn check_paged(
        head: &ActaHead<'_>,
        rows: &[Row],
        path: &Path,
        chunk: usize,
        page_content: usize,
    ) -> Result<(u64, Option<Mismatch>), String> {
        let acta = ActaFile::open_paged(path, chunk, page_content).map_err(|e| format!("{e:?}"))?;
        let read = |f: &mut dyn FnMut(&Row) -> Result<(), Pass>| rows.iter().try_for_each(f);
        acta::check_streamed(head, &read, acta.format(), &mut || acta.open_lines())
    }

    /// A Markdown acta many times the chunk it is read by verifies; a byte changed in the
    /// middle of it is found on its line.
    #[test]
    fn a_markdown_acta_read_a_small_chunk_at_a_time_verifies_and_a_changed_byte_is_found() {
        let made = run(3_000);
        let (rows, head) = (&made.rows, made.head());
        let mut md = Vec::new();
        acta::write_markdown::<std::io::Error>(&mut md, &head, &mut |f| {
            rows.iter().try_for_each(f)
        })
        .unwrap();
        let chunk = 256;
        assert!(md.len() > 500 * chunk, "{} bytes", md.len());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acta.md");
        std::fs::write(&path, &md).unwrap();
        assert_eq!(check_file(&head, rows, &path, chunk), Ok((3_000, None)));
        // the first lines say what it is
        let first = ActaFile::open(&path, chunk).unwrap().head().unwrap();
        assert_eq!(first.len(), HEAD_LINES);
        assert_eq!(first[0], format!("# {}", acta::TITLE));
        // a figure of the row in the middle changed, by one byte
        let text = String::from_utf8(md.clone()).unwrap();
        let row = "| 1.500 | CC 1000001499 | Aceptante Ñandú 1499 |";
        let at = text.find(row).expect("the middle row") + row.len() + " ".len();
        let mut forged = md.clone();
        assert_eq!(&forged[at..at + 3], b"44 ", "{}", &text[at - 40..at + 20]);
        forged[at] = b'5';
        std::fs::write(&path, &forged).unwrap();
        // named on its line of the file, as an editor counts (blank lines too)
        let line = text[..at].matches('\n').count() + 1;
        let want = acta::first_difference(
            &acta::document_lines(&forged).unwrap().1,
            &acta::document_lines(&md).unwrap().1,
        );
        assert!(
            matches!(&want, Some(Difference::Line { document, at, .. })
                if document.contains("Aceptante Ñandú 1499") && *at == Place::File(line)),
            "{want:?} at line {line}"
        );
        assert_eq!(
            check_file(&head, rows, &path, chunk),
            Ok((3_000, want.map(Mismatch::Text)))
        );
        // a line longer than the reader holds, or text that is not UTF-8, is refused
        let mut long = md[..md.len() / 2].to_vec();
        long.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        std::fs::write(&path, &long).unwrap();
        let e = check_file(&head, rows, &path, chunk).unwrap_err();
        assert!(e.contains("longer than"), "{e}");
        let mut latin1 = md.clone();
        latin1[at] = 0xE9;
        std::fs::write(&path, &latin1).unwrap();
        let e = check_file(&head, rows, &path, chunk).unwrap_err();
        assert!(e.contains("UTF-8"), "{e}");
    }

    /// An HTML acta many times the chunk it is read by (chunks ending inside tags, entities
    /// and characters) gives the lines of the whole file read at once, verifies, and a name
    /// changed in the middle of it is found on its line.
    #[test]
    fn an_html_acta_read_a_small_chunk_at_a_time_verifies_and_a_changed_name_is_found() {
        let made = run(3_000);
        let (rows, head) = (&made.rows, made.head());
        let mut html = Vec::new();
        acta::write_html::<std::io::Error>(&mut html, &head, &mut |f| rows.iter().try_for_each(f))
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acta.html");
        std::fs::write(&path, &html).unwrap();
        let whole = acta::document_lines(&html).unwrap().1;
        for chunk in [1, 7, 256, CHUNK] {
            let acta = ActaFile::open(&path, chunk).unwrap();
            assert_eq!(acta.format(), Format::Html);
            let mut lines = acta.lines().unwrap();
            let mut read = acta::Placed::default();
            while let Some((l, at)) = lines.next_line().unwrap() {
                read.lines.push(l);
                read.places.push(at);
            }
            assert!(
                read == whole,
                "chunk {chunk}: {} lines, {}",
                read.lines.len(),
                whole.lines.len()
            );
        }
        assert!(html.len() > 500 * 256, "{} bytes", html.len());
        assert_eq!(check_file(&head, rows, &path, 256), Ok((3_000, None)));
        let text = String::from_utf8(html.clone()).unwrap();
        let forged = text.replacen("Aceptante Ñandú 1499<", "Aceptante Ñandu 1499<", 1);
        assert_ne!(forged, text);
        std::fs::write(&path, &forged).unwrap();
        let want =
            acta::first_difference(&acta::document_lines(forged.as_bytes()).unwrap().1, &whole);
        // named on the line of the file where the changed name is, as an editor counts
        let line = forged[..forged.find("Ñandu 1499").unwrap()]
            .matches('\n')
            .count()
            + 1;
        assert!(
            matches!(&want, Some(Difference::Line { document, at, .. })
                if document.contains("Ñandu 1499") && *at == Place::File(line)),
            "{want:?} at line {line}"
        );
        assert_eq!(
            check_file(&head, rows, &path, 256),
            Ok((3_000, want.map(Mismatch::Text)))
        );
        // text that is not UTF-8 is refused
        let mut latin1 = html.clone();
        let at = text.find("Ñandú 1499").unwrap();
        latin1[at] = 0xE9;
        std::fs::write(&path, &latin1).unwrap();
        let e = check_file(&head, rows, &path, 256).unwrap_err();
        assert!(e.contains("UTF-8"), "{e}");
    }

    /// A PDF acta read a page at a time from its file is bounded by its largest page, not by
    /// the document: with the content limit of one page set to its largest page (the
    /// test-sized stand-in for the whole-file reader's 16 MiB over a million rows' 73,076
    /// pages), a document of many times that verifies; a page past the limit is refused; a
    /// byte changed in the middle of the file does not verify.
    #[test]
    fn a_pdf_acta_read_a_page_at_a_time_is_bounded_by_a_page_not_by_the_document() {
        let n = 1_500;
        let made = run(n);
        let (rows, head) = (&made.rows, made.head());
        let mut pdf = Vec::new();
        acta::write_pdf(&mut pdf, &head, &|f| rows.iter().try_for_each(f)).unwrap();
        let pages = Doc::load(&pdf).unwrap().pages().unwrap();
        let largest = pages.iter().map(|p| p.content.len()).max().unwrap();
        let total: usize = pages.iter().map(|p| p.content.len()).sum();
        assert!(
            pages.len() > 50 && total > 50 * largest,
            "{} pages",
            pages.len()
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acta.pdf");
        std::fs::write(&path, &pdf).unwrap();
        // a page's one content stream, read back, is followed by a line end
        let inflated = largest - 1;
        assert_eq!(
            check_paged(&head, rows, &path, CHUNK, inflated),
            Ok((n, None))
        );
        let e = check_paged(&head, rows, &path, CHUNK, inflated - 1).unwrap_err();
        assert!(e.contains("inflate to more than"), "{e}");
        assert!(!ActaFile::open(&path, CHUNK).unwrap().signed);
        // one byte in the middle (a page's compressed content): not verified
        let mut forged = pdf.clone();
        let mid = forged.len() / 2;
        forged[mid] ^= 0x20;
        std::fs::write(&path, &forged).unwrap();
        let found = check_file(&head, rows, &path, CHUNK);
        assert!(
            !matches!(found, Ok((_, None))),
            "a changed byte verified: {found:?}"
        );
    }
}
