//! An acta read back from its file as it is checked (`offer verify`, `stage verify`): Markdown a
//! chunk at a time, line by line; a PDF a page at a time (a signed PDF's unsigned revision, which
//! is a prefix of the file); so memory holds a chunk or a page, not the document. HTML, whose
//! check renders its rows at once, is read whole within [`MAX_HTML`]. Reading only: the lines
//! are compared with a fresh rendering by `report::acta`.

use super::acta::Format;
use super::notice::normalized_lines;
use super::pdf::read::{self, Doc};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// What is read of a Markdown file at once.
pub const CHUNK: usize = 64 << 10;
/// The longest line of a Markdown acta read (an acta's longest are a few hundred bytes).
pub const MAX_LINE: usize = 1 << 20;
/// The largest HTML acta read (it is checked with its rows in memory).
pub const MAX_HTML: u64 = 64 << 20;
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
    /// It is not a document vigia reads, in English: what is wrong.
    Document(String),
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
    /// An HTML acta's lines.
    html: Vec<String>,
}

impl ActaFile {
    /// Opens `path`, reading a Markdown file `chunk` bytes at a time.
    pub fn open(path: &Path, chunk: usize) -> Result<ActaFile, Unread> {
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
            html: Vec::new(),
        };
        if start.starts_with(b"%PDF-") {
            acta.format = Format::Pdf;
            let unsigned = unsigned_revision(&acta.file, len, acta.chunk.max(CHUNK))?;
            let doc = Doc::open(acta.file.try_clone()?, unsigned.unwrap_or(len))
                .map_err(|e| Unread::Document(e.to_string()))?;
            // a form in the latest revision holds the signatures `sign` reads (none: nothing
            // to say); when it cannot be told, `sign` is asked
            acta.signed = unsigned.is_some() || doc.has_form().unwrap_or(true);
            acta.pdf = Some(doc);
        } else if String::from_utf8_lossy(&start)
            .trim_start()
            .starts_with("<!DOCTYPE html")
        {
            acta.format = Format::Html;
            if len > MAX_HTML {
                return Err(Unread::Document(format!(
                    "is an HTML acta of {len} bytes; vigia reads one of at most {MAX_HTML} (check the PDF or \
                     Markdown acta of the same run, which have no such limit)"
                )));
            }
            let mut bytes = Vec::new();
            (&acta.file).take(MAX_HTML).read_to_end(&mut bytes)?;
            acta.html = super::acta::document_lines(&bytes)
                .map_err(Unread::Document)?
                .1;
        }
        Ok(acta)
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// The document's lines from its first, normalized as `acta::lines_of` gives a fresh
    /// rendering's, read as they are asked for; each call starts again.
    pub fn lines(&self) -> Result<Lines<'_>, Unread> {
        Ok(Lines(match (&self.pdf, self.format) {
            (Some(doc), _) => Source::Pdf {
                pages: doc
                    .each_page()
                    .map_err(|e| Unread::Document(e.to_string()))?,
                queue: VecDeque::new(),
            },
            (None, Format::Html) => Source::Html(self.html.iter()),
            (None, _) => Source::Md {
                reader: BufReader::with_capacity(
                    self.chunk,
                    At {
                        file: &self.file,
                        pos: 0,
                    },
                ),
                line: Vec::new(),
            },
        }))
    }

    /// The first [`HEAD_LINES`] lines, where a document says what it is.
    pub fn head(&self) -> Result<Vec<String>, Unread> {
        let mut lines = self.lines()?;
        let mut head = Vec::new();
        while head.len() < HEAD_LINES {
            match lines.next_line().map_err(Unread::Document)? {
                Some(l) => head.push(l),
                None => break,
            }
        }
        Ok(head)
    }

    /// The whole file, when it is a PDF with a signature's form: what `sign` verifies its
    /// signatures on (`sign::verify_pdf` takes the file's bytes). `None` for any other
    /// document, which has no signature to check.
    pub fn signed_bytes(&self) -> Result<Option<Vec<u8>>, Unread> {
        if !self.signed {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        (&self.file).take(self.len).read_to_end(&mut bytes)?;
        Ok(Some(bytes))
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
    },
    Pdf {
        pages: read::PageCursor<'f, 'static>,
        queue: VecDeque<String>,
    },
    Html(std::slice::Iter<'f, String>),
}

/// A document's lines, read as they are asked for.
pub struct Lines<'f>(Source<'f>);

impl Lines<'_> {
    /// The next line, `None` after the last; an `Err` says why the document cannot be read
    /// further, in English.
    pub fn next_line(&mut self) -> Result<Option<String>, String> {
        match &mut self.0 {
            Source::Html(it) => Ok(it.next().cloned()),
            Source::Pdf { pages, queue } => loop {
                if let Some(l) = queue.pop_front() {
                    return Ok(Some(l));
                }
                let Some(page) = pages.next_page().map_err(|e| e.to_string())? else {
                    return Ok(None);
                };
                let text = super::pdf::text_of(page).map_err(|e| e.to_string())?;
                queue.extend(normalized_lines(&text));
            },
            Source::Md { reader, line } => loop {
                line.clear();
                let read = reader
                    .by_ref()
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', line)
                    .map_err(|e| format!("could not be read: {e}"))?;
                if read == 0 {
                    return Ok(None);
                }
                if line.len() > MAX_LINE {
                    return Err(format!(
                        "has a line longer than {MAX_LINE} bytes: not an acta vigia wrote"
                    ));
                }
                let text = std::str::from_utf8(line)
                    .map_err(|_| "neither a PDF nor UTF-8 text (HTML or Markdown)".to_string())?;
                if let Some(l) = normalized_lines(text).into_iter().next() {
                    return Ok(Some(l));
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
