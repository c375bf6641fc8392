//! The few objects of a finished PDF its signature's incremental update needs (the trailer, the
//! catalog, the first page and its annotations), read where the cross-references say they are,
//! a window at a time: signing a million acceptances' acta (264 MB) holds its cross-references
//! and page list, not the file. Reads the cross-reference streams vigia's PDF writer ends a file
//! with (uncompressed, objects not in object streams, any `/Prev` chain); refuses anything else.
//! Objects are read into `lopdf`'s types as its parser reads them, so the update written from
//! them is the one a whole-file reading gave.

use super::{ReadAt, SignError};
use printpdf::lopdf::{Dictionary, Object, ObjectId, StringFormat};
use std::collections::HashMap;

/// What the update is written from.
pub(super) struct Skeleton {
    pub(super) root: ObjectId,
    /// the trailer's `/Size`
    pub(super) size: u32,
    pub(super) catalog: Dictionary,
    pub(super) page: ObjectId,
    pub(super) page_dict: Dictionary,
    /// the first page's `/Annots`, read through a reference when it is one (empty without)
    pub(super) annots: Vec<Object>,
    /// the trailer's `/Info` and `/ID`, when it has them
    pub(super) info: Option<Object>,
    pub(super) id: Option<Object>,
    /// the offset the last `startxref` gives
    pub(super) prev: usize,
    /// whether the file ends with a line end
    pub(super) ends_in_newline: bool,
}

/// Arrays and dictionaries nest at most this deep.
const MAX_DEPTH: usize = 64;
/// One object (the cross-reference stream's dictionary, a page tree node with its kids) is read
/// in at most this many bytes.
const MAX_WINDOW: usize = 64 << 20;
/// Cross-reference sections followed through `/Prev`, page tree levels descended.
const MAX_CHAIN: usize = 64;

fn not_pdf(why: &str) -> SignError {
    SignError::Pdf(why.to_string())
}

/// The file's bytes `[at, at + n)` (fewer at its end).
fn read_window(len: u64, read: &ReadAt<'_>, at: u64, n: usize) -> Result<Vec<u8>, SignError> {
    let n = usize::try_from(len.saturating_sub(at))
        .unwrap_or(usize::MAX)
        .min(n);
    let mut buf = vec![0u8; n];
    read(at, &mut buf).map_err(|e| SignError::Pdf(format!("the file could not be read: {e}")))?;
    Ok(buf)
}

/// Reads the skeleton of the PDF of `len` bytes that `read` reads.
pub(super) fn read(len: u64, read: &ReadAt<'_>) -> Result<Skeleton, SignError> {
    let tail_at = len.saturating_sub(1024);
    let tail = read_window(len, read, tail_at, 1024)?;
    let prev = last_startxref(&tail)?;
    let mut file = File {
        len,
        read,
        offsets: HashMap::new(),
    };
    // the newest section first; an object an older section also gives keeps the newest offset
    let mut trailer: Option<Dictionary> = None;
    let mut next = Some(prev as u64);
    let mut sections = 0;
    while let Some(at) = next.take() {
        sections += 1;
        if sections > MAX_CHAIN {
            return Err(not_pdf("the cross-reference sections loop"));
        }
        let dict = file.xref_section(at)?;
        next = match dict.get(b"Prev") {
            Ok(p) => Some(
                p.as_i64()
                    .ok()
                    .and_then(|p| u64::try_from(p).ok())
                    .ok_or_else(|| not_pdf("/Prev is not an offset"))?,
            ),
            Err(_) => None,
        };
        trailer.get_or_insert(dict);
    }
    let trailer = trailer.ok_or_else(|| not_pdf("no cross-references"))?;
    let root = trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| not_pdf("the trailer names no catalog"))?;
    let size = trailer
        .get(b"Size")
        .and_then(Object::as_i64)
        .ok()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| not_pdf("the trailer has no /Size"))?;
    let catalog = file
        .dictionary(root)
        .map_err(|_| not_pdf("the catalog is not a dictionary"))?;
    let page = file.first_page(&catalog)?;
    let page_dict = file
        .dictionary(page)
        .map_err(|_| not_pdf("the first page is not a dictionary"))?;
    let annots = match page_dict.get(b"Annots") {
        Ok(Object::Array(a)) => a.clone(),
        Ok(Object::Reference(id)) => match file.object(*id) {
            Ok(Object::Array(a)) => a,
            _ => return Err(not_pdf("the page's /Annots is not an array")),
        },
        _ => Vec::new(),
    };
    Ok(Skeleton {
        root,
        size,
        catalog,
        page,
        page_dict,
        annots,
        info: trailer.get(b"Info").ok().cloned(),
        id: trailer.get(b"ID").ok().cloned(),
        prev,
        ends_in_newline: tail.last() == Some(&b'\n'),
    })
}

/// The offset after the last `startxref` keyword's number (in the file's last bytes).
pub(super) fn last_startxref(tail: &[u8]) -> Result<usize, SignError> {
    let key = b"startxref";
    let at = tail
        .windows(key.len())
        .rposition(|w| w == key)
        .ok_or_else(|| not_pdf("no startxref"))?;
    let digits: String = tail[at + key.len()..]
        .iter()
        .skip_while(|c| c.is_ascii_whitespace())
        .take_while(|c| c.is_ascii_digit())
        .map(|&c| char::from(c))
        .collect();
    digits
        .parse()
        .map_err(|_| not_pdf("startxref is not followed by an offset"))
}

/// The file, and where its cross-references put each object.
struct File<'a, 'r> {
    len: u64,
    read: &'a ReadAt<'r>,
    offsets: HashMap<u32, (u64, u16)>,
}

impl File<'_, '_> {
    /// Parses what starts at `at` with `parse`, reading a larger window while it runs out of
    /// bytes before the file does.
    fn parse_at<T>(
        &self,
        at: u64,
        parse: &dyn Fn(&mut Parser<'_>) -> Result<T, Stop>,
    ) -> Result<(T, usize), SignError> {
        let mut n = 4096;
        loop {
            let window = read_window(self.len, self.read, at, n)?;
            let whole = at + window.len() as u64 >= self.len;
            let mut p = Parser {
                bytes: &window,
                pos: 0,
            };
            match parse(&mut p) {
                Ok(t) => return Ok((t, p.pos)),
                Err(Stop::Short) if !whole && n < MAX_WINDOW => n *= 4,
                Err(Stop::Short) => return Err(not_pdf("an object runs past its limit")),
                Err(Stop::Bad(why)) => return Err(not_pdf(why)),
            }
        }
    }

    /// Reads the cross-reference stream at `at` into the offsets (keeping those already known)
    /// and gives its dictionary.
    fn xref_section(&mut self, at: u64) -> Result<Dictionary, SignError> {
        let (dict, data_at) = self.parse_at(at, &|p| {
            p.object_header()?;
            let dict = match p.object(0)? {
                Object::Dictionary(d) => d,
                _ => return Err(Stop::Bad("the cross-references are not a stream")),
            };
            p.skip_space();
            p.keyword(b"stream")?;
            if p.peek()? == b'\r' {
                p.pos += 1;
            }
            if p.peek()? != b'\n' {
                return Err(Stop::Bad("the cross-reference stream's data"));
            }
            p.pos += 1;
            Ok(dict)
        })?;
        if dict.get(b"Type").and_then(Object::as_name).ok() != Some(&b"XRef"[..]) {
            return Err(not_pdf(
                "a cross-reference table, not the stream vigia's PDF writer ends a file with",
            ));
        }
        if dict.has(b"Filter") {
            return Err(not_pdf("compressed cross-references"));
        }
        let number = |o: &Object| o.as_i64().ok().and_then(|n| usize::try_from(n).ok());
        let length = dict
            .get(b"Length")
            .ok()
            .and_then(number)
            .ok_or_else(|| not_pdf("the cross-reference stream has no /Length"))?;
        let w: Vec<usize> = match dict.get(b"W") {
            Ok(Object::Array(w)) => w.iter().filter_map(number).collect(),
            _ => Vec::new(),
        };
        let &[w0, w1, w2] = w.as_slice() else {
            return Err(not_pdf("the cross-reference stream's /W"));
        };
        if w1 > 8 || w2 > 8 || w0 > 8 {
            return Err(not_pdf("the cross-reference stream's /W"));
        }
        let index: Vec<usize> = match dict.get(b"Index") {
            Ok(Object::Array(i)) => i.iter().filter_map(number).collect(),
            _ => {
                let size = dict.get(b"Size").ok().and_then(number).unwrap_or(0);
                vec![0, size]
            }
        };
        if length > MAX_WINDOW || !index.len().is_multiple_of(2) {
            return Err(not_pdf("the cross-reference stream's /Index or /Length"));
        }
        let data = read_window(self.len, self.read, at + data_at as u64, length)?;
        let entry = w0 + w1 + w2;
        let field = |bytes: &[u8]| bytes.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
        let mut rows = data.chunks_exact(entry.max(1));
        for pair in index.chunks_exact(2) {
            for number in pair[0]..pair[0].saturating_add(pair[1]) {
                let row = rows
                    .next()
                    .ok_or_else(|| not_pdf("the cross-reference stream is short"))?;
                let kind = if w0 == 0 { 1 } else { field(&row[..w0]) };
                let offset = field(&row[w0..w0 + w1]);
                let generation = field(&row[w0 + w1..]);
                let number = u32::try_from(number).map_err(|_| not_pdf("an object number"))?;
                if kind == 1 {
                    let generation =
                        u16::try_from(generation).map_err(|_| not_pdf("a generation number"))?;
                    self.offsets.entry(number).or_insert((offset, generation));
                } else if kind == 2 {
                    // an object inside an object stream: vigia's writer makes none
                    self.offsets.entry(number).or_insert((u64::MAX, 0));
                }
            }
        }
        Ok(dict)
    }

    /// The object `id`, where the cross-references put it.
    fn object(&self, id: ObjectId) -> Result<Object, SignError> {
        let &(at, generation) = self
            .offsets
            .get(&id.0)
            .ok_or_else(|| not_pdf("an object the document names is missing"))?;
        if at == u64::MAX {
            return Err(not_pdf("an object inside an object stream"));
        }
        if generation != id.1 {
            return Err(not_pdf("an object of another generation"));
        }
        let (object, _) = self.parse_at(at, &|p| {
            let found = p.object_header()?;
            if found != id {
                return Err(Stop::Bad("the cross-references point at another object"));
            }
            p.object(0)
        })?;
        Ok(object)
    }

    fn dictionary(&self, id: ObjectId) -> Result<Dictionary, SignError> {
        match self.object(id)? {
            Object::Dictionary(d) => Ok(d),
            _ => Err(not_pdf("not a dictionary")),
        }
    }

    /// The first page of the catalog's page tree, as `lopdf` lists pages (depth first).
    fn first_page(&self, catalog: &Dictionary) -> Result<ObjectId, SignError> {
        let no_page = || not_pdf("the document has no page");
        let mut node = catalog
            .get(b"Pages")
            .and_then(Object::as_reference)
            .map_err(|_| no_page())?;
        for _ in 0..MAX_CHAIN {
            let dict = self.dictionary(node)?;
            match dict.get(b"Type").and_then(Object::as_name).ok() {
                Some(b"Page") => return Ok(node),
                Some(b"Pages") => {}
                _ => return Err(no_page()),
            }
            node = match dict.get(b"Kids") {
                Ok(Object::Array(kids)) => kids
                    .first()
                    .and_then(|k| k.as_reference().ok())
                    .ok_or_else(no_page)?,
                _ => return Err(no_page()),
            };
        }
        Err(not_pdf("the page tree is too deep"))
    }
}

/// Why a parse stopped: the window ended first, or the bytes are not what vigia writes.
enum Stop {
    Short,
    Bad(&'static str),
}

/// PDF syntax over a window of the file, as `lopdf`'s parser reads it.
struct Parser<'b> {
    bytes: &'b [u8],
    pos: usize,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'\0')
}

fn is_delimiter(c: u8) -> bool {
    is_space(c) || b"()<>[]{}/%".contains(&c)
}

impl Parser<'_> {
    fn peek(&self) -> Result<u8, Stop> {
        self.bytes.get(self.pos).copied().ok_or(Stop::Short)
    }

    fn next(&mut self) -> Result<u8, Stop> {
        let c = self.peek()?;
        self.pos += 1;
        Ok(c)
    }

    /// White space and comments.
    fn skip_space(&mut self) {
        while let Some(&c) = self.bytes.get(self.pos) {
            if is_space(c) {
                self.pos += 1;
            } else if c == b'%' {
                while let Some(&c) = self.bytes.get(self.pos) {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn keyword(&mut self, word: &[u8]) -> Result<(), Stop> {
        let end = self.pos + word.len();
        if end > self.bytes.len() {
            return Err(Stop::Short);
        }
        if &self.bytes[self.pos..end] != word {
            return Err(Stop::Bad("a keyword is missing"));
        }
        self.pos = end;
        Ok(())
    }

    /// An unsigned integer.
    fn unsigned(&mut self) -> Result<u64, Stop> {
        let start = self.pos;
        while self.peek()?.is_ascii_digit() {
            self.pos += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.pos])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or(Stop::Bad("a number is missing"))
    }

    /// `N G obj`
    fn object_header(&mut self) -> Result<ObjectId, Stop> {
        self.skip_space();
        let number = self.unsigned()?;
        self.skip_space();
        let generation = self.unsigned()?;
        self.skip_space();
        self.keyword(b"obj")?;
        let number = u32::try_from(number).map_err(|_| Stop::Bad("an object number"))?;
        let generation = u16::try_from(generation).map_err(|_| Stop::Bad("a generation"))?;
        Ok((number, generation))
    }

    /// One direct object (a reference `N G R` included).
    fn object(&mut self, depth: usize) -> Result<Object, Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Bad("objects nested too deep"));
        }
        self.skip_space();
        match self.peek()? {
            b'/' => {
                self.pos += 1;
                Ok(Object::Name(self.name()?))
            }
            b'(' => {
                self.pos += 1;
                Ok(Object::String(self.literal()?, StringFormat::Literal))
            }
            b'<' if self.bytes.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                let mut dict = Dictionary::new();
                loop {
                    self.skip_space();
                    if self.peek()? == b'>' {
                        self.keyword(b">>")?;
                        return Ok(Object::Dictionary(dict));
                    }
                    if self.next()? != b'/' {
                        return Err(Stop::Bad("a dictionary key is not a name"));
                    }
                    let key = self.name()?;
                    let value = self.object(depth + 1)?;
                    dict.set(key, value);
                }
            }
            b'<' => {
                self.pos += 1;
                Ok(Object::String(self.hex()?, StringFormat::Hexadecimal))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    if self.peek()? == b']' {
                        self.pos += 1;
                        return Ok(Object::Array(items));
                    }
                    items.push(self.object(depth + 1)?);
                }
            }
            b't' => self.keyword(b"true").map(|()| Object::Boolean(true)),
            b'f' => self.keyword(b"false").map(|()| Object::Boolean(false)),
            b'n' => self.keyword(b"null").map(|()| Object::Null),
            _ => self.number(),
        }
    }

    /// A number, or a reference when two unsigned integers and `R` follow.
    fn number(&mut self) -> Result<Object, Stop> {
        let start = self.pos;
        if matches!(self.peek()?, b'+' | b'-') {
            self.pos += 1;
        }
        let mut real = false;
        while let c @ (b'0'..=b'9' | b'.') = self.peek()? {
            real |= c == b'.';
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("");
        if real {
            return text
                .parse::<f32>()
                .map(Object::Real)
                .map_err(|_| Stop::Bad("a number is malformed"));
        }
        let n: i64 = text
            .parse()
            .map_err(|_| Stop::Bad("a value is malformed"))?;
        // `N G R`?
        let after = self.pos;
        if !text.starts_with(['+', '-']) {
            self.skip_space();
            if self.peek()?.is_ascii_digit() {
                let generation = self.unsigned()?;
                self.skip_space();
                if self.peek()? == b'R' {
                    self.pos += 1;
                    if let (Ok(n), Ok(g)) = (u32::try_from(n), u16::try_from(generation)) {
                        return Ok(Object::Reference((n, g)));
                    }
                }
            }
        }
        self.pos = after;
        Ok(Object::Integer(n))
    }

    /// A name's bytes after its `/`, `#XX` decoded.
    fn name(&mut self) -> Result<Vec<u8>, Stop> {
        let mut out = Vec::new();
        loop {
            let c = self.peek()?;
            if is_delimiter(c) && c != b'\0' {
                return Ok(out);
            }
            self.pos += 1;
            if c == b'#' {
                let hi = hex_value(self.next()?).ok_or(Stop::Bad("a name's #XX"))?;
                let lo = hex_value(self.next()?).ok_or(Stop::Bad("a name's #XX"))?;
                out.push(hi << 4 | lo);
            } else {
                out.push(c);
            }
        }
    }

    /// A literal string's bytes after its `(`, escapes decoded, nested parentheses kept.
    fn literal(&mut self) -> Result<Vec<u8>, Stop> {
        let mut out = Vec::new();
        let mut open = 0usize;
        loop {
            match self.next()? {
                b'\\' => match self.next()? {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(b'\x08'),
                    b'f' => out.push(b'\x0C'),
                    b'\r' => {
                        if self.peek()? == b'\n' {
                            self.pos += 1;
                        }
                    }
                    b'\n' => {}
                    c @ b'0'..=b'7' => {
                        let mut v = u32::from(c - b'0');
                        for _ in 0..2 {
                            match self.peek()? {
                                d @ b'0'..=b'7' => {
                                    v = v * 8 + u32::from(d - b'0');
                                    self.pos += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push((v & 0xFF) as u8);
                    }
                    // `\(`, `\)`, `\\`, and an unknown escape: the character itself
                    c => out.push(c),
                },
                b'(' => {
                    open += 1;
                    out.push(b'(');
                }
                b')' if open == 0 => return Ok(out),
                b')' => {
                    open -= 1;
                    out.push(b')');
                }
                c => out.push(c),
            }
        }
    }

    /// A hexadecimal string's bytes after its `<`.
    fn hex(&mut self) -> Result<Vec<u8>, Stop> {
        let mut digits = Vec::new();
        loop {
            match self.next()? {
                b'>' => break,
                c if is_space(c) => {}
                c => digits.push(hex_value(c).ok_or(Stop::Bad("a hexadecimal string"))?),
            }
        }
        if !digits.len().is_multiple_of(2) {
            digits.push(0);
        }
        Ok(digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect())
    }
}

fn hex_value(c: u8) -> Option<u8> {
    char::from(c)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::super::pdf::serialise;
    use super::*;
    use crate::report::notice::Block;
    use printpdf::lopdf;

    fn skeleton(pdf: &[u8]) -> Result<Skeleton, SignError> {
        read(pdf.len() as u64, &super::super::read_slice(pdf))
    }

    /// What lopdf, reading the whole file, gives for each part of the skeleton.
    fn agrees_with_lopdf(pdf: &[u8]) {
        let s = skeleton(pdf).unwrap();
        let doc = lopdf::Document::load_mem(pdf).unwrap();
        let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
        assert_eq!(s.root, root);
        assert_eq!(
            i64::from(s.size),
            doc.trailer.get(b"Size").unwrap().as_i64().unwrap()
        );
        let dict = |id| serialise(&Object::Dictionary(doc.get_dictionary(id).unwrap().clone()));
        assert_eq!(
            serialise(&Object::Dictionary(s.catalog.clone())),
            dict(root)
        );
        let page = *doc.get_pages().values().next().unwrap();
        assert_eq!(s.page, page);
        assert_eq!(
            serialise(&Object::Dictionary(s.page_dict.clone())),
            dict(page)
        );
        let annots = match doc.get_dictionary(page).unwrap().get(b"Annots") {
            Ok(a) => serialise(a),
            Err(_) => serialise(&Object::Array(Vec::new())),
        };
        assert_eq!(serialise(&Object::Array(s.annots.clone())), annots);
        for (key, ours) in [(&b"Info"[..], &s.info), (b"ID", &s.id)] {
            assert_eq!(
                ours.as_ref().map(serialise),
                doc.trailer.get(key).ok().map(serialise)
            );
        }
        let key = b"startxref";
        let at = pdf.windows(9).rposition(|w| w == key).unwrap();
        let digits: String = String::from_utf8_lossy(&pdf[at + 9..])
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        assert_eq!(s.prev, digits.parse::<usize>().unwrap());
        assert_eq!(s.ends_in_newline, pdf.ends_with(b"\n"));
    }

    fn table(rows: usize) -> Vec<Block> {
        vec![
            Block::Title("ACTA DE ADJUDICACIÓN".into()),
            Block::Table {
                header: vec!["Aceptante".into(), "Acciones".into()],
                rows: (0..rows)
                    .map(|i| vec![format!("Aceptante (número {i})"), format!("{}", i * 7)])
                    .collect(),
                right: vec![false, true],
            },
        ]
    }

    #[test]
    fn the_skeleton_read_where_the_cross_references_point_is_what_lopdf_reads_from_the_whole_file()
    {
        let one = crate::report::pdf::render(&table(3), "Acta", "ACTA-1", (2025, 2, 10));
        agrees_with_lopdf(&one);
        // many pages: the page tree's kids run past the first window read
        let many = crate::report::pdf::render(&table(3000), "Acta", "ACTA-2", (2025, 2, 10));
        assert!(skeleton(&many).is_ok());
        agrees_with_lopdf(&many);
        let doc = lopdf::Document::load_mem(&many).unwrap();
        assert!(doc.get_pages().len() > 50, "{}", doc.get_pages().len());
    }

    #[test]
    fn a_signed_file_is_read_through_its_prev_chain_its_latest_catalog_and_page_winning() {
        let one = crate::report::pdf::render(&table(3), "Acta", "ACTA-1", (2025, 2, 10));
        let base = skeleton(&one).unwrap();
        let fields = super::super::pdf::SigFields {
            reason: "Acta",
            location: "Colombia",
            name: "Laura",
            time: "D:20250211093000-05'00'",
            block: Some(("Laura", "Jefe")),
            contents_bytes: 64,
        };
        let update = super::super::pdf::prepare(&base, one.len(), &fields).unwrap();
        let mut signed = one.clone();
        signed.extend_from_slice(&update.bytes);
        agrees_with_lopdf(&signed);
        let again = skeleton(&signed).unwrap();
        assert!(again.catalog.has(b"AcroForm"));
        assert_eq!(
            serialise(&Object::Array(again.annots.clone())),
            format!("[ {} 0 R]", base.size).into_bytes()
        );
        // a second signature is refused: vigia signs no form
        assert!(super::super::pdf::prepare(&again, signed.len(), &fields).is_err());
    }

    #[test]
    fn literal_and_hexadecimal_strings_names_and_numbers_read_as_the_pdf_syntax_says() {
        let text = b"<</A (a\\(b\\)c\\\\ \\101\\n(x)) /B <41 42 4> /C#20D 1.50 /E -3 /F 12 0 R \
                     /G [true false null 7]>>";
        let mut p = Parser {
            bytes: text,
            pos: 0,
        };
        let Ok(Object::Dictionary(d)) = p.object(0) else {
            panic!("a dictionary")
        };
        let bytes = |k: &[u8]| d.get(k).unwrap().as_str().unwrap().to_vec();
        assert_eq!(bytes(b"A"), b"a(b)c\\ A\n(x)");
        assert_eq!(bytes(b"B"), b"AB@");
        assert_eq!(serialise(d.get(b"C D").unwrap()), b" 1.5".to_vec());
        assert_eq!(d.get(b"E").unwrap().as_i64().unwrap(), -3);
        assert_eq!(d.get(b"F").unwrap().as_reference().unwrap(), (12, 0));
        assert_eq!(
            serialise(d.get(b"G").unwrap()),
            b"[ true false null 7]".to_vec()
        );
        // a window that ends inside an object asks for more
        let mut short = Parser {
            bytes: &text[..20],
            pos: 0,
        };
        assert!(matches!(short.object(0), Err(Stop::Short)));
    }
}
