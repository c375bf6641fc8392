//! Reading a PDF back, within fixed limits and without a general PDF library: the one reader
//! of the PDFs `report::pdf` writes (their text, an acta checked from its file) and of the PDF
//! `sign` appends a signature to. A hostile file (nesting thousands deep, a stream `/Length`
//! that refers to itself, a flate bomb, loops in the page tree or the cross-reference chain) is
//! refused naming the limit it broke; it can never overflow the stack, take unbounded memory or
//! print anything. Knows the cross-reference table or stream (its PNG predictor too), free
//! entries, a hybrid file's /XRefStm, objects in object streams, indirect objects, the page tree, fonts by resource name, FlateDecode, and
//! content-stream operators; nothing else. Pure but for the file it is handed to read.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;
use std::io::Read;

#[cfg(test)]
mod handmade;
mod pages;
mod signatures;
mod xref;
pub use pages::PageCursor;
pub use signatures::{SignatureField, decode_text};
pub use xref::{MAX_OBJECT, MAX_UNPACKED};

/// Arrays and dictionaries nest at most this deep (a notice nests 3 deep).
pub const MAX_DEPTH: usize = 64;
/// The content streams a document's pages draw, decompressed, come to at most this (a notice's
/// come to a few tens of KB).
pub const MAX_CONTENT: usize = 16 << 20;
/// Pages read (a notice has a handful).
pub const MAX_PAGES: usize = 1000;
/// Pages read from a file a page at a time ([`Doc::open`]; a million acceptances' acta has
/// 73,076), each within [`MAX_CONTENT`] and the token limit on its own.
pub const MAX_STREAMED_PAGES: usize = 10_000_000;
/// The bytes read at once from a file for one object (a page's content stream is a few KB,
/// the cross-references of 73,076 pages about 2 MB).
const MAX_WINDOW: usize = 64 << 20;
/// Tokens read from the file's objects, all pages together: bounds the time a file full of
/// shared, repeated references can take.
const MAX_TOKENS: usize = 20_000_000;
/// Elements one content-stream operation may carry in its operands.
const MAX_OPERANDS: usize = 100_000;

/// Why a PDF is not one vigia can read: the words complete "not a notice vigia can read: ...".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Arrays or dictionaries nested deeper than [`MAX_DEPTH`]: how deep they went.
    TooDeep(usize),
    /// The pages' content streams come to more than [`MAX_CONTENT`] bytes.
    TooMuchContent,
    /// The object streams looked up inflate to more than their budget over the whole reading
    /// (`xref::MAX_UNPACKED`, 256 MiB), all lookups together.
    ObjectStreamsTooLarge,
    /// A stream's `/Length` refers to an object that is not a plain number (itself, another
    /// stream...).
    LengthNotNumber { object: u32, target: u32 },
    /// Anything else: what is wrong, in a few words.
    Damaged(&'static str),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::TooDeep(n) => write!(f, "nested {n} levels deep (at most {MAX_DEPTH})"),
            Unreadable::TooMuchContent => write!(
                f,
                "its streams inflate to more than {} MiB, the most vigia reads",
                MAX_CONTENT >> 20
            ),
            Unreadable::ObjectStreamsTooLarge => write!(
                f,
                "its object streams inflate to more than {} MiB, all lookups together, the most \
                 vigia reads",
                xref::MAX_UNPACKED >> 20
            ),
            Unreadable::LengthNotNumber { object, target } => write!(
                f,
                "the /Length of object {object} refers to object {target}, which is not a number"
            ),
            Unreadable::Damaged(what) => {
                write!(f, "the PDF is damaged or not one vigia wrote ({what})")
            }
        }
    }
}

type Result<T> = std::result::Result<T, Unreadable>;

fn damaged<T>(what: &'static str) -> Result<T> {
    Err(Unreadable::Damaged(what))
}

/// A PDF object, as far as vigia needs one.
#[derive(Debug, Clone, PartialEq)]
pub enum Obj {
    Null,
    Bool(bool),
    Int(i64),
    /// A real, as a double: what other writers' reals say (a float of 24 bits turned 612.123456
    /// into 612.1235 when a signature's update wrote an object back).
    Real(f64),
    Name(Vec<u8>),
    Str(Vec<u8>),
    Array(Vec<Obj>),
    Dict(Dict),
    Ref(u32),
}

/// A dictionary's entries in file order.
pub type Dict = Vec<(Vec<u8>, Obj)>;

/// The value of `key` in `d` (its first, if it has two).
pub fn get<'d>(d: &'d Dict, key: &[u8]) -> Option<&'d Obj> {
    d.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl Obj {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Obj::Int(i) => Some(*i as f64),
            Obj::Real(r) => Some(*r),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bracket {
    Array,
    Dict,
}

#[derive(Debug)]
enum Tok<'a> {
    Int(i64),
    Real(f64),
    Name(Vec<u8>),
    Str(Vec<u8>),
    Open(Bracket),
    Close(Bracket),
    Word(&'a [u8]),
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0 | 0x0c)
}

fn is_regular(c: u8) -> bool {
    !is_space(c) && !b"()<>[]{}/%".contains(&c)
}

/// Tokens of PDF syntax; strings (with their own parentheses and escapes) and comments are read
/// without recursion. Always moves forward.
struct Lexer<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn new(b: &'a [u8], pos: usize) -> Self {
        Lexer { b, pos }
    }

    fn skip_space(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if is_space(c) {
                self.pos += 1;
            } else if c == b'%' {
                while self
                    .b
                    .get(self.pos)
                    .is_some_and(|&c| c != b'\n' && c != b'\r')
                {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular_run(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.b.get(self.pos).is_some_and(|&c| is_regular(c)) {
            self.pos += 1;
        }
        &self.b[start..self.pos]
    }

    fn next(&mut self) -> Result<Option<Tok<'a>>> {
        self.skip_space();
        let Some(&c) = self.b.get(self.pos) else {
            return Ok(None);
        };
        let next = self.b.get(self.pos + 1).copied();
        let tok = match c {
            b'[' => {
                self.pos += 1;
                Tok::Open(Bracket::Array)
            }
            b']' => {
                self.pos += 1;
                Tok::Close(Bracket::Array)
            }
            b'<' if next == Some(b'<') => {
                self.pos += 2;
                Tok::Open(Bracket::Dict)
            }
            b'>' if next == Some(b'>') => {
                self.pos += 2;
                Tok::Close(Bracket::Dict)
            }
            b'<' => Tok::Str(self.hex_string()?),
            b'(' => Tok::Str(self.literal_string()?),
            b'/' => {
                self.pos += 1;
                Tok::Name(self.name())
            }
            b')' | b'>' | b'{' | b'}' => {
                self.pos += 1;
                Tok::Word(&self.b[self.pos - 1..self.pos])
            }
            _ => {
                let run = self.regular_run();
                number(run).unwrap_or(Tok::Word(run))
            }
        };
        Ok(Some(tok))
    }

    fn name(&mut self) -> Vec<u8> {
        let run = self.regular_run();
        let mut out = Vec::with_capacity(run.len());
        let mut i = 0;
        while i < run.len() {
            let hex = (run[i] == b'#')
                .then(|| run.get(i + 1..i + 3))
                .flatten()
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(v) => {
                    out.push(v);
                    i += 3;
                }
                None => {
                    out.push(run[i]);
                    i += 1;
                }
            }
        }
        out
    }

    fn hex_string(&mut self) -> Result<Vec<u8>> {
        self.pos += 1; // <
        let mut digits = Vec::new();
        loop {
            match self.b.get(self.pos) {
                None => return damaged("a hexadecimal string is not closed"),
                Some(b'>') => {
                    self.pos += 1;
                    break;
                }
                Some(&c) if is_space(c) => self.pos += 1,
                Some(&c) => {
                    let v = (c as char).to_digit(16).ok_or(Unreadable::Damaged(
                        "a hexadecimal string has a non-hex digit",
                    ))?;
                    digits.push(v as u8);
                    self.pos += 1;
                }
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(0);
        }
        Ok(digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect())
    }

    fn literal_string(&mut self) -> Result<Vec<u8>> {
        self.pos += 1; // (
        let mut out = Vec::new();
        let mut open = 1usize; // balanced parentheses inside the string are part of it
        loop {
            let Some(&c) = self.b.get(self.pos) else {
                return damaged("a string is not closed");
            };
            self.pos += 1;
            match c {
                b'(' => {
                    open += 1;
                    out.push(c);
                }
                b')' => {
                    open -= 1;
                    if open == 0 {
                        return Ok(out);
                    }
                    out.push(c);
                }
                b'\\' => {
                    let Some(&e) = self.b.get(self.pos) else {
                        return damaged("a string is not closed");
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.b.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((v & 0xff) as u8);
                        }
                        b'\r' => {
                            if self.b.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(c),
            }
        }
    }
}

fn number(run: &[u8]) -> Option<Tok<'_>> {
    let first = *run.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.')) {
        return None;
    }
    let s = std::str::from_utf8(run).ok()?;
    if s.contains('.') {
        s.parse::<f64>().ok().map(Tok::Real)
    } else {
        s.parse::<i64>().ok().map(Tok::Int)
    }
}

/// How deep brackets go from the lexer's position, starting at `depth` open: counts without
/// building anything, for the refusal's words.
fn measure_depth(lx: &mut Lexer<'_>, mut depth: usize) -> usize {
    let mut max = depth;
    while let Ok(Some(t)) = lx.next() {
        match t {
            Tok::Open(_) => {
                depth += 1;
                max = max.max(depth);
            }
            Tok::Close(_) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    max
}

/// Builds objects from tokens, never deeper than [`MAX_DEPTH`] and never more than `budget`
/// tokens.
struct Parser<'a, 'b> {
    lx: Lexer<'a>,
    /// `N G R` is a reference (in the file's objects, not in content streams).
    refs: bool,
    budget: &'b mut usize,
}

impl<'a> Parser<'a, '_> {
    fn next(&mut self) -> Result<Option<Tok<'a>>> {
        if *self.budget == 0 {
            return damaged("it has far more objects than a notice");
        }
        *self.budget -= 1;
        self.lx.next()
    }

    fn object(&mut self, tok: Tok<'a>, depth: usize) -> Result<Obj> {
        Ok(match tok {
            Tok::Int(n) => {
                if self.refs {
                    let save = self.lx.pos;
                    if let (Ok(Some(Tok::Int(_))), Ok(Some(Tok::Word(b"R")))) =
                        (self.lx.next(), self.lx.next())
                    {
                        return u32::try_from(n)
                            .map(Obj::Ref)
                            .map_err(|_| Unreadable::Damaged("a reference is out of range"));
                    }
                    self.lx.pos = save;
                }
                Obj::Int(n)
            }
            Tok::Real(r) => Obj::Real(r),
            Tok::Name(n) => Obj::Name(n),
            Tok::Str(s) => Obj::Str(s),
            Tok::Word(b"true") => Obj::Bool(true),
            Tok::Word(b"false") => Obj::Bool(false),
            Tok::Word(b"null") => Obj::Null,
            Tok::Open(kind) => {
                if depth + 1 > MAX_DEPTH {
                    return Err(Unreadable::TooDeep(measure_depth(&mut self.lx, depth + 1)));
                }
                let mut items = Vec::new();
                loop {
                    let Some(t) = self.next()? else {
                        return damaged("an array or dictionary is not closed");
                    };
                    if let Tok::Close(k) = t {
                        if k != kind {
                            return damaged("brackets do not match");
                        }
                        break;
                    }
                    items.push(self.object(t, depth + 1)?);
                }
                match kind {
                    Bracket::Array => Obj::Array(items),
                    Bracket::Dict => {
                        if items.len() % 2 == 1 {
                            return damaged("a dictionary key has no value");
                        }
                        let mut d = Dict::with_capacity(items.len() / 2);
                        let mut it = items.into_iter();
                        while let (Some(k), Some(v)) = (it.next(), it.next()) {
                            let Obj::Name(k) = k else {
                                return damaged("a dictionary key is not a name");
                            };
                            d.push((k, v));
                        }
                        Obj::Dict(d)
                    }
                }
            }
            Tok::Close(_) | Tok::Word(_) => return damaged("unexpected token"),
        })
    }
}

/// The operators of a content stream with their operands, in order.
pub fn operations(content: &[u8], mut f: impl FnMut(&[u8], &[Obj])) -> Result<()> {
    let mut budget = MAX_OPERANDS;
    let mut p = Parser {
        lx: Lexer::new(content, 0),
        refs: false,
        budget: &mut budget,
    };
    let mut operands = Vec::new();
    while let Some(t) = p.next()? {
        match t {
            Tok::Word(w) if !matches!(w, b"true" | b"false" | b"null") => {
                f(w, &operands);
                operands.clear();
                *p.budget = MAX_OPERANDS;
            }
            t => operands.push(p.object(t, 0)?),
        }
    }
    Ok(())
}

/// A page: its font resources (name → BaseFont) and its content, decoded.
pub struct Page {
    pub fonts: Vec<(Vec<u8>, Vec<u8>)>,
    pub content: Vec<u8>,
}

/// A stream's raw bytes: borrowed from a document in memory, read from a file.
type Bytes<'a> = Cow<'a, [u8]>;

/// Reads `buf.len()` bytes at an offset of a file the caller opened (`FileExt::read_exact_at`).
pub type ReadAt<'a> = dyn Fn(u64, &mut [u8]) -> std::io::Result<()> + 'a;

/// Where a document's bytes are: all in memory, or in a file read an object at a time.
enum Src<'a> {
    Mem(&'a [u8]),
    File {
        file: Reader<'a>,
        /// The document is the file's first `len` bytes (a signed PDF's unsigned revision).
        len: usize,
        /// Where objects start, sorted, and `len`: an object ends before the next one starts.
        bounds: Vec<usize>,
    },
}

/// A file read at offsets: one the reader holds, or the caller's.
enum Reader<'a> {
    Own(std::fs::File),
    Given(&'a ReadAt<'a>),
}

impl Reader<'_> {
    fn read_exact_at(&self, buf: &mut [u8], at: u64) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        match self {
            Reader::Own(file) => file.read_exact_at(buf, at),
            Reader::Given(read) => read(at, buf),
        }
    }
}

/// A loaded PDF: where each object is, and the trailer.
pub struct Doc<'a> {
    src: Src<'a>,
    /// What one page's content may inflate to when read a page at a time.
    page_content: usize,
    offsets: HashMap<u32, usize>,
    /// Objects inside object streams: the stream's number and the object's place in it.
    packed: HashMap<u32, (u32, usize)>,
    /// The generation numbers the cross-references give other than 0.
    generations: HashMap<u32, u16>,
    /// Objects a newer section marks free (`f`, or type 0 in a stream): an older section's
    /// entry for them is not read.
    freed: HashSet<u32>,
    /// The object streams decoded last (most recent first, at most [`xref::KEPT_STREAMS`]), so
    /// that the objects packed in one are not each inflated again.
    unpacked: std::cell::RefCell<Vec<(u32, std::rc::Rc<xref::Unpacked>)>>,
    /// What object streams may still inflate to, all lookups together.
    objstm_budget: std::cell::Cell<usize>,
    /// How many times an object stream was inflated.
    inflated: std::cell::Cell<usize>,
    trailer: Dict,
    /// The offset the last `startxref` gives: the latest cross-reference section.
    startxref: usize,
    tokens: std::cell::Cell<usize>,
    /// What every cross-reference stream together may still inflate to: one budget for all the
    /// sections, so that many small streams cannot each inflate to [`MAX_CONTENT`].
    xref_budget: usize,
}

impl<'a> Doc<'a> {
    pub fn load(b: &'a [u8]) -> Result<Doc<'a>> {
        Doc::start(Src::Mem(b))
    }

    /// The PDF made of the first `len` bytes of `file`, read an object at a time as it is
    /// asked for ([`Doc::each_page`], each page's content within `page_content` bytes:
    /// [`MAX_CONTENT`] but in tests): memory holds the cross-references and a page, not the
    /// file.
    pub fn open(file: std::fs::File, len: u64, page_content: usize) -> Result<Doc<'static>> {
        let mut doc = Doc::start_file(Reader::Own(file), len)?;
        doc.page_content = page_content;
        Ok(doc)
    }

    /// The PDF of `len` bytes that `read` reads, read an object at a time as [`Doc::open`]
    /// reads a file (`sign` writes a signature's update from a few of its objects).
    pub fn read_at(read: &'a ReadAt<'a>, len: u64) -> Result<Doc<'a>> {
        Doc::start_file(Reader::Given(read), len)
    }

    fn start_file(file: Reader<'a>, len: u64) -> Result<Doc<'a>> {
        let len = usize::try_from(len).map_err(|_| Unreadable::Damaged("the file is too large"))?;
        let mut doc = Doc::start(Src::File {
            file,
            len,
            bounds: Vec::new(),
        })?;
        let mut bounds: Vec<usize> = doc.offsets.values().copied().collect();
        bounds.push(len);
        bounds.sort_unstable();
        if let Src::File { bounds: b, .. } = &mut doc.src {
            *b = bounds;
        }
        Ok(doc)
    }

    fn len(&self) -> usize {
        match &self.src {
            Src::Mem(b) => b.len(),
            Src::File { len, .. } => *len,
        }
    }

    /// The bytes from `at` on: to the end in memory; from a file, to where the next object
    /// starts (at most [`MAX_WINDOW`]).
    fn at(&self, at: usize) -> Result<Cow<'a, [u8]>> {
        match &self.src {
            Src::Mem(b) => Ok(Cow::Borrowed(b.get(at..).unwrap_or(&[]))),
            Src::File { file, len, bounds } => {
                let next = bounds.partition_point(|&x| x <= at);
                let end = bounds.get(next).copied().unwrap_or(*len);
                let end = end.min(*len).min(at.saturating_add(MAX_WINDOW));
                let mut buf = vec![0; end.saturating_sub(at)];
                file.read_exact_at(&mut buf, at as u64)
                    .map_err(|_| Unreadable::Damaged("the file could not be read"))?;
                Ok(Cow::Owned(buf))
            }
        }
    }

    /// At most `n` bytes from `at` on (the header, the file's last bytes).
    fn few(&self, at: usize, n: usize) -> Result<Cow<'a, [u8]>> {
        let end = self.len().min(at.saturating_add(n));
        match &self.src {
            Src::Mem(b) => Ok(Cow::Borrowed(b.get(at..end).unwrap_or(&[]))),
            Src::File { file, .. } => {
                let mut buf = vec![0; end.saturating_sub(at)];
                file.read_exact_at(&mut buf, at as u64)
                    .map_err(|_| Unreadable::Damaged("the file could not be read"))?;
                Ok(Cow::Owned(buf))
            }
        }
    }

    fn start(src: Src<'a>) -> Result<Doc<'a>> {
        let mut doc = Doc {
            src,
            page_content: MAX_CONTENT,
            offsets: HashMap::new(),
            packed: HashMap::new(),
            generations: HashMap::new(),
            freed: HashSet::new(),
            unpacked: Default::default(),
            objstm_budget: std::cell::Cell::new(xref::MAX_UNPACKED),
            inflated: std::cell::Cell::new(0),
            trailer: Dict::new(),
            startxref: 0,
            tokens: std::cell::Cell::new(MAX_TOKENS),
            xref_budget: MAX_CONTENT,
        };
        if !doc.few(0, 5)?.starts_with(b"%PDF-") {
            return damaged("no %PDF- header");
        }
        let len = doc.len();
        let tail = len.saturating_sub(1024);
        let end = doc.few(tail, 1024)?;
        let sx = end
            .windows(9)
            .rposition(|w| w == b"startxref")
            .map(|i| i + 9)
            .ok_or(Unreadable::Damaged("no startxref"))?;
        let mut lx = Lexer::new(&end, sx);
        let Ok(Some(Tok::Int(start))) = lx.next() else {
            return damaged("no startxref");
        };
        let mut seen = HashSet::new();
        let mut next = Some(start);
        let mut first = true;
        while let Some(at) = next {
            let at = usize::try_from(at)
                .ok()
                .filter(|&a| a < len)
                .ok_or(Unreadable::Damaged(
                    "a cross-reference offset is outside the file",
                ))?;
            if !seen.insert(at) || seen.len() > 64 {
                return damaged("the cross-reference sections loop");
            }
            let (trailer, free) = doc.xref_section(at)?;
            // a hybrid file: the table's stream of the objects older readers do not see, read
            // after the table and before the older sections (ISO 32000-1, 7.5.8.4); the table
            // may mark them free (the standard's example does), so its free entries free only
            // what the stream does not place, and the stream's own free entries nothing
            if let Some(Obj::Int(stm)) = get(&trailer, b"XRefStm") {
                let stm =
                    usize::try_from(*stm)
                        .ok()
                        .filter(|&a| a < len)
                        .ok_or(Unreadable::Damaged(
                            "a cross-reference offset is outside the file",
                        ))?;
                if !seen.insert(stm) {
                    return damaged("the cross-reference sections loop");
                }
                doc.xref_section(stm)?;
            }
            doc.free(free);
            next = match get(&trailer, b"Prev") {
                Some(Obj::Int(p)) => Some(*p),
                _ => None,
            };
            if first {
                doc.trailer = trailer;
                doc.startxref = at;
                first = false;
            }
        }
        Ok(doc)
    }

    /// `f` over the tokens of `bytes` (the bytes from some offset on) from `at`; where it
    /// stopped, in `bytes`.
    fn parse<T>(
        &self,
        bytes: &[u8],
        at: usize,
        refs: bool,
        f: impl FnOnce(&mut Parser<'_, '_>) -> Result<T>,
    ) -> Result<(T, usize)> {
        let mut budget = self.tokens.get();
        let mut p = Parser {
            lx: Lexer::new(bytes, at),
            refs,
            budget: &mut budget,
        };
        let out = f(&mut p);
        let pos = p.lx.pos;
        self.tokens.set(budget);
        Ok((out?, pos))
    }

    /// The indirect object at `at` (`N G obj ...`): its number, its value, and, for a stream
    /// when `streams`, its raw bytes. A stream's `/Length` is a number, or a reference to an
    /// object that is a plain number: never followed further.
    fn object_at(
        &self,
        at: usize,
        id: Option<u32>,
        streams: bool,
    ) -> Result<(u32, Obj, Option<Bytes<'a>>)> {
        let here = self.at(at)?;
        let ((n, obj), pos) = self.parse(&here, 0, true, |p| {
            let (Some(Tok::Int(n)), Some(Tok::Int(_)), Some(Tok::Word(b"obj"))) =
                (p.next()?, p.next()?, p.next()?)
            else {
                return damaged("an object is not where the cross-reference says");
            };
            let n = u32::try_from(n)
                .map_err(|_| Unreadable::Damaged("an object number is out of range"))?;
            if id.is_some_and(|id| id != n) {
                return damaged("an object is not where the cross-reference says");
            }
            let Some(t) = p.next()? else {
                return damaged("an object is empty");
            };
            Ok((n, p.object(t, 0)?))
        })?;
        let mut lx = Lexer::new(&here, pos);
        lx.skip_space();
        let is_stream = here[lx.pos..].starts_with(b"stream");
        let Obj::Dict(dict) = &obj else {
            return Ok((n, obj, None));
        };
        if !is_stream {
            return Ok((n, obj, None));
        }
        if !streams {
            // asked for a /Length: the stream's bytes are not read (its own /Length not followed)
            return Ok((n, obj, Some(Cow::Borrowed(&[]))));
        }
        let mut start = lx.pos + b"stream".len();
        if here.get(start) == Some(&b'\r') {
            start += 1;
        }
        if here.get(start) == Some(&b'\n') {
            start += 1;
        }
        let length = match get(dict, b"Length") {
            Some(Obj::Int(l)) => *l,
            Some(Obj::Ref(target)) => {
                let number = self
                    .offsets
                    .get(target)
                    .ok_or(Unreadable::Damaged(
                        "a stream's /Length refers to a missing object",
                    ))
                    .and_then(|&off| self.object_at(off, Some(*target), false));
                match number {
                    Ok((_, Obj::Int(l), None)) => l,
                    Ok(_) => {
                        return Err(Unreadable::LengthNotNumber {
                            object: n,
                            target: *target,
                        });
                    }
                    Err(e) => return Err(e),
                }
            }
            _ => return damaged("a stream has no /Length"),
        };
        let end = usize::try_from(length)
            .ok()
            .and_then(|l| start.checked_add(l))
            .filter(|&e| e <= here.len())
            .ok_or(Unreadable::Damaged(
                "a stream runs past the end of the file",
            ))?;
        let data = match here {
            Cow::Borrowed(b) => Cow::Borrowed(&b[start..end]),
            Cow::Owned(mut b) => {
                b.truncate(end);
                b.drain(..start);
                Cow::Owned(b)
            }
        };
        Ok((n, obj, Some(data)))
    }

    /// Object `id`, with its raw stream bytes if it is a stream.
    fn object(&self, id: u32) -> Result<(Obj, Option<Bytes<'a>>)> {
        if let Some(&(stream, index)) = self.packed.get(&id) {
            return Ok((self.packed_object(id, stream, index)?, None));
        }
        let &at = self
            .offsets
            .get(&id)
            .ok_or(Unreadable::Damaged("an object it refers to is missing"))?;
        let (_, obj, data) = self.object_at(at, Some(id), true)?;
        Ok((obj, data))
    }

    /// The latest revision's trailer.
    pub fn trailer(&self) -> &Dict {
        &self.trailer
    }

    /// The offset the last `startxref` gives (an update's `/Prev`).
    pub fn startxref(&self) -> usize {
        self.startxref
    }

    /// The highest object number the cross-references give, if any (a freed one below its
    /// section's `/Size` counts: an update numbering new objects after it does not reuse it).
    pub fn highest_object(&self) -> Option<u32> {
        self.offsets
            .keys()
            .chain(self.packed.keys())
            .chain(&self.freed)
            .copied()
            .max()
    }

    /// Object `id`'s generation number, as the cross-references give it.
    pub fn generation(&self, id: u32) -> u16 {
        self.generations.get(&id).copied().unwrap_or(0)
    }

    /// `o`, through references (at most a few in a row).
    pub fn resolve(&self, o: &Obj) -> Result<Obj> {
        let mut o = o.clone();
        for _ in 0..8 {
            match o {
                Obj::Ref(id) => o = self.object(id)?.0,
                other => return Ok(other),
            }
        }
        damaged("references lead to references")
    }

    fn dict(&self, o: &Obj) -> Result<Dict> {
        match self.resolve(o)? {
            Obj::Dict(d) => Ok(d),
            _ => damaged("a dictionary was expected"),
        }
    }

    /// Whether the document's catalogue has an interactive form (`/AcroForm`: where a
    /// signature's field is), read from its latest revision.
    pub fn has_form(&self) -> Result<bool> {
        let root =
            self.dict(get(&self.trailer, b"Root").ok_or(Unreadable::Damaged("no /Root"))?)?;
        Ok(get(&root, b"AcroForm").is_some())
    }

    /// The pages in order, each with its fonts and decoded content; the page tree is walked
    /// without recursion, each node once. At most [`MAX_PAGES`], [`MAX_CONTENT`] in all.
    pub fn pages(&self) -> Result<Vec<Page>> {
        let mut cursor = self.cursor(false)?;
        let mut pages = Vec::new();
        while let Some(p) = cursor.next_page()? {
            pages.push(p);
        }
        Ok(pages)
    }

    /// The pages in order, read one at a time as [`PageCursor::next_page`] is called (as
    /// [`Doc::pages`] gives them): at most [`MAX_STREAMED_PAGES`], each within its content
    /// limit ([`Doc::open`]) and the token limit on its own, so that memory and time go with a
    /// page, not the document.
    pub fn each_page(&self) -> Result<PageCursor<'_, 'a>> {
        self.cursor(true)
    }

    fn cursor(&self, per_page: bool) -> Result<PageCursor<'_, 'a>> {
        let root =
            self.dict(get(&self.trailer, b"Root").ok_or(Unreadable::Damaged("no /Root"))?)?;
        let top = get(&root, b"Pages")
            .ok_or(Unreadable::Damaged("no /Pages"))?
            .clone();
        Ok(PageCursor {
            doc: self,
            per_page,
            budget: MAX_CONTENT,
            visited: HashSet::new(),
            stack: vec![(top, None)],
            count: 0,
        })
    }
    /// A `/Contents` value: a reference to a stream stays a reference; a reference to an array
    /// becomes the array.
    fn resolve_shallow(&self, o: &Obj) -> Result<Obj> {
        match o {
            Obj::Ref(id) => match self.object(*id)? {
                (Obj::Array(a), None) => Ok(Obj::Array(a)),
                _ => Ok(o.clone()),
            },
            other => Ok(other.clone()),
        }
    }

    /// Font resource names and their BaseFont.
    fn fonts(&self, resources: &Obj) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let res = self.dict(resources)?;
        let Some(fonts) = get(&res, b"Font") else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (name, f) in self.dict(fonts)? {
            let base = match get(&self.dict(&f)?, b"BaseFont") {
                Some(Obj::Name(b)) => b.clone(),
                _ => Vec::new(),
            };
            out.push((name, base));
        }
        Ok(out)
    }
}

/// A stream's bytes, decompressed if it is FlateDecode, counted against `budget`.
fn decode(dict: &Dict, raw: &[u8], budget: &mut usize) -> Result<Vec<u8>> {
    let flate = match get(dict, b"Filter") {
        None => false,
        Some(Obj::Name(n)) if n == b"FlateDecode" => true,
        Some(Obj::Array(a)) if a.is_empty() => false,
        Some(Obj::Array(a)) if a.len() == 1 && a[0] == Obj::Name(b"FlateDecode".to_vec()) => true,
        _ => return damaged("a stream uses a filter vigia does not write"),
    };
    if get(dict, b"DecodeParms").is_some_and(|p| *p != Obj::Null) {
        return damaged("a stream uses parameters vigia does not write");
    }
    let out = if flate {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(raw)
            .take(*budget as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|_| Unreadable::Damaged("a compressed stream is damaged"))?;
        out
    } else {
        raw.iter().take(*budget + 1).copied().collect()
    };
    if out.len() > *budget {
        return Err(Unreadable::TooMuchContent);
    }
    *budget -= out.len();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_names_and_numbers() {
        let mut budget = 100;
        let mut p = Parser {
            lx: Lexer::new(
                b"[(a\\)b(c)\\101\\\n) <41 42 4> /A#42 -.5 12 3 0 R true] % x",
                0,
            ),
            refs: true,
            budget: &mut budget,
        };
        let t = p.next().unwrap().unwrap();
        let o = p.object(t, 0).unwrap();
        assert_eq!(
            o,
            Obj::Array(vec![
                Obj::Str(b"a)b(c)A".to_vec()),
                Obj::Str(b"AB@".to_vec()),
                Obj::Name(b"AB".to_vec()),
                Obj::Real(-0.5),
                Obj::Int(12),
                Obj::Ref(3),
                Obj::Bool(true),
            ])
        );
        assert!(p.next().unwrap().is_none());
    }

    #[test]
    fn nesting_is_refused_past_the_limit_and_measured() {
        let ok = [b"[".repeat(MAX_DEPTH), b"]".repeat(MAX_DEPTH)].concat();
        let deep = [b"[".repeat(100_000), b"]".repeat(100_000)].concat();
        let mut seen = Vec::new();
        operations(&[ok.as_slice(), b" TJ"].concat(), |op, _| {
            seen.push(op.to_vec())
        })
        .unwrap();
        assert_eq!(seen, [b"TJ".to_vec()]);
        assert_eq!(
            operations(&deep, |_, _| {}),
            Err(Unreadable::TooDeep(100_000))
        );
    }

    #[test]
    fn a_string_of_parentheses_is_not_nesting() {
        let s = [b"(".repeat(10_000), b")".repeat(10_000), b" Tj".to_vec()].concat();
        let mut n = 0;
        operations(&s, |op, args| {
            assert_eq!(op, b"Tj");
            assert!(matches!(&args[0], Obj::Str(b) if b.len() == 19_998));
            n += 1;
        })
        .unwrap();
        assert_eq!(n, 1);
    }
}
