//! The PDF written as it is laid out, a page at a time: memory holds a page (and, for the whole
//! document, a few hundred bytes a page: the page tree and the cross-references), not the rows of
//! its tables. The bytes are those printpdf gives for the whole document at once
//! ([`super::render_layout`] is this writer into memory; a test holds it to the bytes of the
//! whole-document path): the layout runs twice, first to count the pages and the characters each
//! font draws, then to write; printpdf writes the document's frame (metadata, fonts, page tree,
//! one empty page per page) and each empty page's contents are replaced, as they are written, by
//! the page laid out; the cross-references are moved to match.

use super::{
    CONTENT_W, FOOTER_Y, Item, MARGIN_X, Measure, Op, PAGE_H, PAGE_W, SMALL, lay_out, mm, pt,
};
use printpdf::lopdf::content::{Content, Operation};
use printpdf::lopdf::{Dictionary, Object, Stream, StringFormat};
use printpdf::{Line, PdfDocument, Point, Pt};
use std::collections::BTreeSet;
use std::io::Write;
use ttf_parser::Face;

/// Why a streamed PDF was not written.
#[derive(Debug)]
pub enum WriteError {
    /// A table's rows could not be read (the reader's sentence).
    Rows(String),
    Io(std::io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Rows(e) => write!(f, "{e}"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Writes `items` as a Letter-size PDF to `out`, a page at a time (see the module). `footer`
/// prefixes the page numbers; `date` stamps the metadata; `headings`: layout 2 (a heading kept
/// with what follows it).
pub fn write(
    items: &[Item<'_>],
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    headings: bool,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    let Counted {
        total,
        regular,
        bold,
    } = count(items, footer, headings)?;
    // 2. The frame, by printpdf: the same document with its pages empty.
    let frame = frame(title, footer, date, total, &regular, &bold);
    let mut splice = Splice::new(frame, total)?;
    // 3. The pages, laid out again, each written where its empty page stood. Each page's
    //    content is encoded and deflated on a second thread while the next pages are laid out:
    //    one worker, so the pages come back in their order, at most `IN_FLIGHT` of them waiting.
    let mut written = 0usize;
    let mut error: Option<std::io::Error> = None;
    let (again, failed) = std::thread::scope(|s| {
        let (pages, to_encode) = std::sync::mpsc::sync_channel::<(usize, Vec<Op>)>(IN_FLIGHT);
        let (encoded, done) = std::sync::mpsc::channel::<Vec<u8>>();
        let (regular, bold) = (&regular, &bold);
        s.spawn(move || {
            let faces = [
                Face::parse(regular, 0).expect("the subset parses"),
                Face::parse(bold, 0).expect("the subset parses"),
            ];
            let measure = Measure::new();
            for (n, page) in to_encode {
                let footer = format!("{footer} — Página {n} de {total}");
                let content = stream_object(contents(&page, &footer, &faces, &measure));
                if encoded.send(content).is_err() {
                    break;
                }
            }
        });
        let mut put = |content: Vec<u8>| {
            if error.is_none() {
                written += 1;
                if let Err(e) = splice.page(out, written - 1, &content) {
                    error = Some(e);
                }
            }
        };
        let mut laid = 0usize;
        let mut emit = |page: Vec<Op>| {
            laid += 1;
            // a worker that stopped has failed: its panic is raised when the scope ends
            let _ = pages.send((laid, page));
            while let Ok(content) = done.try_recv() {
                put(content);
            }
        };
        let laid_out = lay_out(items, headings, Some(&mut emit));
        drop(pages);
        for content in done {
            put(content);
        }
        laid_out
    });
    if let Some(e) = failed {
        return Err(WriteError::Rows(e));
    }
    if let Some(e) = error {
        return Err(WriteError::Io(e));
    }
    if again != total {
        return Err(changed(total, again));
    }
    splice.end(out)?;
    Ok(())
}

/// The pages laid out and waiting to be encoded, at most (a page's operations are a few tens
/// of KB).
const IN_FLIGHT: usize = 8;

fn changed(total: usize, again: usize) -> WriteError {
    WriteError::Rows(format!(
        "the rows changed while the document was written ({total} pages, then {again})"
    ))
}

/// What the first pass finds: the number of pages and each face subset to what it draws.
struct Counted {
    total: usize,
    regular: Vec<u8>,
    bold: Vec<u8>,
}

/// 1. Counts the pages and the characters each face draws (the footers' too).
fn count(items: &[Item<'_>], footer: &str, headings: bool) -> Result<Counted, WriteError> {
    let mut chars: [BTreeSet<char>; 2] = [BTreeSet::new(), BTreeSet::new()];
    let mut count = |page: Vec<Op>| {
        for op in page {
            if let Op::Text { bold, text, .. } = op {
                chars[usize::from(bold)].extend(text.chars());
            }
        }
    };
    let (total, failed) = lay_out(items, headings, Some(&mut count));
    if let Some(e) = failed {
        return Err(WriteError::Rows(e));
    }
    for i in 1..=total {
        chars[0].extend(format!("{footer} — Página {i} de {total}").chars());
    }
    let [regular_chars, bold_chars] = chars;
    let subset = |font: &[u8], chars| {
        super::super::subset::subset(font, chars).expect("shipped font subsets")
    };
    Ok(Counted {
        total,
        regular: subset(super::REGULAR, regular_chars),
        bold: subset(super::BOLD, bold_chars),
    })
}

/// The lines of each page of the PDF [`write`] would write, handed to `page` in order as it is
/// laid out, as [`super::extract_page_lines`] reads each page of the written file: what a document is
/// checked against without writing the PDF or holding more than a page.
pub fn each_page_text(
    items: &[Item<'_>],
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    headings: bool,
    page: &mut dyn FnMut(&super::PageLines),
) -> Result<(), WriteError> {
    let Counted {
        total,
        regular,
        bold,
    } = count(items, footer, headings)?;
    // the fonts as the reader sees them: from a one-page frame with the same fonts
    let one = frame(title, footer, date, 1, &regular, &bold);
    let unreadable = |e: super::read::Unreadable| WriteError::Rows(e.to_string());
    let doc = super::read::Doc::load(&one).map_err(unreadable)?;
    let fonts = doc
        .pages()
        .map_err(unreadable)?
        .into_iter()
        .next()
        .map(|p| super::bold_fonts(p.fonts))
        .unwrap_or_default();
    let faces = [
        Face::parse(&regular, 0).expect("the subset parses"),
        Face::parse(&bold, 0).expect("the subset parses"),
    ];
    let measure = Measure::new();
    let mut written = 0usize;
    let mut error: Option<String> = None;
    let mut emit = |ops: Vec<Op>| {
        if error.is_some() {
            return;
        }
        written += 1;
        let footer = format!("{footer} — Página {written} de {total}");
        match super::page_lines(&contents(&ops, &footer, &faces, &measure), &fonts) {
            Ok(lines) => page(&lines),
            Err(e) => error = Some(e.to_string()),
        }
    };
    let (again, failed) = lay_out(items, headings, Some(&mut emit));
    if let Some(e) = failed.or(error) {
        return Err(WriteError::Rows(e));
    }
    if again != total {
        return Err(changed(total, again));
    }
    Ok(())
}

/// printpdf's document with `total` empty pages and the two subset fonts, as
/// [`super::finish`] leaves it: made from printpdf's document of one page
/// ([`super::frame::frame_of`]), so that memory holds a few hundred bytes a page, not
/// printpdf's pages.
fn frame(
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    total: usize,
    regular: &[u8],
    bold: &[u8],
) -> Vec<u8> {
    let one = printpdf_frame(title, footer, date, 1, regular, bold);
    if total == 1 {
        return one;
    }
    super::frame::frame_of(&one, total)
        .unwrap_or_else(|| printpdf_frame(title, footer, date, total, regular, bold))
}

/// printpdf's document with `total` empty pages, made by printpdf.
pub(super) fn printpdf_frame(
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    total: usize,
    regular: &[u8],
    bold: &[u8],
) -> Vec<u8> {
    let stamp = super::time_stamp(date);
    let (doc, _, _) = PdfDocument::new(title, mm(PAGE_W), mm(PAGE_H), "contenido");
    let doc = doc
        .with_creation_date(stamp)
        .with_mod_date(stamp)
        .with_metadata_date(stamp)
        .with_document_id(footer.to_string())
        .with_producer("vigia")
        .with_creator("vigia");
    // F0 the regular face, F1 the bold, as the page contents name them
    doc.add_external_font(regular).expect("font embeds");
    doc.add_external_font(bold).expect("font embeds");
    for _ in 1..total {
        doc.add_page(mm(PAGE_W), mm(PAGE_H), "contenido");
    }
    let bytes = doc.save_to_bytes().expect("PDF serialises");
    super::finish(bytes, title, footer)
}

/// A page's content, as printpdf writes a layer: the optional content group, the line width, the
/// page's text and rules, its footer.
fn contents(page: &[Op], footer: &str, faces: &[Face<'_>; 2], m: &Measure) -> Vec<u8> {
    let mut ops = vec![
        Operation::new(
            "BDC",
            vec![Object::Name(b"OC".to_vec()), Object::Name(b"MC0".to_vec())],
        ),
        Operation::new("q", vec![]),
        Operation::new("w", vec![Object::Real(0.4)]),
    ];
    let text = |ops: &mut Vec<Operation>, text: &str, size: i64, x: i64, y_up: i64, bold: bool| {
        let face = &faces[usize::from(bold)];
        let glyphs: Vec<u8> = text
            .chars()
            .filter_map(|c| face.glyph_index(c))
            .flat_map(|g| g.0.to_be_bytes())
            .collect();
        let (x, y): (Pt, Pt) = (mm(x).into(), mm(y_up).into());
        ops.push(Operation::new("BT", vec![]));
        ops.push(Operation::new(
            "Tf",
            vec![
                Object::Name(if bold { b"F1".to_vec() } else { b"F0".to_vec() }),
                pt(size).into(),
            ],
        ));
        ops.push(Operation::new("Td", vec![x.into(), y.into()]));
        ops.push(Operation::new(
            "Tj",
            vec![Object::String(glyphs, StringFormat::Hexadecimal)],
        ));
        ops.push(Operation::new("ET", vec![]));
    };
    for op in page {
        match op {
            Op::Text {
                x,
                y,
                size,
                bold,
                text: t,
            } => text(&mut ops, t, *size, *x, PAGE_H - y, *bold),
            Op::Rule { x1, y1, x2, y2 } => ops.extend(
                Line {
                    points: vec![
                        (Point::new(mm(*x1), mm(PAGE_H - y1)), false),
                        (Point::new(mm(*x2), mm(PAGE_H - y2)), false),
                    ],
                    is_closed: false,
                }
                .into_stream_op(),
            ),
        }
    }
    let x = MARGIN_X + (CONTENT_W - m.width(footer, SMALL, false)) / 2;
    text(&mut ops, footer, SMALL, x, FOOTER_Y, false);
    ops.push(Operation::new("Q", vec![]));
    ops.push(Operation::new("EMC", vec![]));
    Content { operations: ops }
        .encode()
        .expect("operations encode")
}

/// A page's content stream object's body (after `N 0 obj\n`), deflated as lopdf does.
fn stream_object(encoded: Vec<u8>) -> Vec<u8> {
    let mut stream = Stream::new(Dictionary::new(), encoded);
    stream.compress().expect("deflates in memory");
    let mut out = b"<<".to_vec();
    for (key, value) in stream.dict.iter() {
        out.push(b'/');
        out.extend_from_slice(key);
        match value {
            Object::Integer(n) => out.extend_from_slice(format!(" {n}").as_bytes()),
            Object::Name(n) => {
                out.push(b'/');
                out.extend_from_slice(n);
            }
            other => unreachable!("a content stream's dictionary holds {other:?}"),
        }
    }
    out.extend_from_slice(b">>stream\n");
    out.extend_from_slice(&stream.content);
    out.extend_from_slice(b"\nendstream ");
    out
}

/// The frame written out with each empty page's contents replaced.
struct Splice {
    frame: Vec<u8>,
    /// Each object's offset in the frame, by number (0 for none).
    offsets: Vec<usize>,
    /// For each page, its contents' object: number, start and end in the frame.
    contents: Vec<(u32, usize, usize)>,
    /// How far the frame is copied.
    copied: usize,
    /// (end in the frame of a replaced object, total shift after it), in order.
    moves: Vec<(usize, i64)>,
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn number(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let end = at
        + b.get(at..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
    let n = std::str::from_utf8(&b[at..end]).ok()?.parse().ok()?;
    Some((n, end))
}

/// The shape printpdf gives its frame, broken.
fn malformed(what: &str) -> std::io::Error {
    std::io::Error::other(format!("printpdf's frame: {what}"))
}

/// The cross-reference stream's dictionary and entries (`/W[1 4 2]`, not deflated): where the
/// dictionary starts, where its entries start and how many bytes they take.
fn xref_stream(frame: &[u8]) -> std::io::Result<(usize, usize, usize, usize)> {
    let sx = find(frame, b"startxref\n", frame.len().saturating_sub(64))
        .ok_or_else(|| malformed("no startxref"))?;
    let (xref, _) = number(frame, sx + 10).ok_or_else(|| malformed("startxref"))?;
    let dict_end = find(frame, b">>stream\n", xref).ok_or_else(|| malformed("xref stream"))?;
    let dict = &frame[xref..dict_end];
    let has = |s: &[u8]| find(dict, s, 0).is_some();
    if !has(b"/Type/XRef") || !has(b"/W[1 4 2]") || has(b"/Filter") {
        return Err(malformed("an unexpected cross-reference stream"));
    }
    let at = find(dict, b"/Length ", 0).ok_or_else(|| malformed("xref length"))?;
    let (length, _) = number(dict, at + 8).ok_or_else(|| malformed("xref length"))?;
    // the number of the first entry (`/Index[1 20]`: one range, from object 1)
    let first = match find(dict, b"/Index[", 0) {
        Some(at) => {
            number(dict, at + 7)
                .ok_or_else(|| malformed("xref index"))?
                .0
        }
        None => 0,
    };
    Ok((xref, dict_end + 9, length, first))
}

impl Splice {
    fn new(frame: Vec<u8>, total: usize) -> std::io::Result<Splice> {
        let (xref, data, length, first) = xref_stream(&frame)?;
        let offsets: Vec<usize> = std::iter::repeat_n(0, first)
            .chain(
                frame
                    .get(data..data + length)
                    .ok_or_else(|| malformed("xref entries"))?
                    .chunks_exact(7)
                    .map(|e| {
                        if e[0] == 1 {
                            u32::from_be_bytes([e[1], e[2], e[3], e[4]]) as usize
                        } else {
                            0
                        }
                    }),
            )
            .collect();
        let mut sorted: Vec<usize> = offsets.iter().copied().filter(|&o| o > 0).collect();
        sorted.push(xref);
        sorted.sort_unstable();
        // the page objects, in the order of the page tree's kids
        let kids_at = find(&frame, b"/Kids[", 0).ok_or_else(|| malformed("no kids"))? + 6;
        let kids_end = find(&frame, b"]", kids_at).ok_or_else(|| malformed("kids"))?;
        let kids: Vec<usize> = std::str::from_utf8(&frame[kids_at..kids_end])
            .map_err(|_| malformed("kids"))?
            .split(" 0 R")
            .filter_map(|k| k.trim().parse().ok())
            .collect();
        if kids.len() != total {
            return Err(malformed("not one kid a page"));
        }
        let mut contents = Vec::with_capacity(total);
        for kid in kids {
            let at = *offsets.get(kid).ok_or_else(|| malformed("a kid"))?;
            let next = sorted[sorted.partition_point(|&o| o <= at)];
            let c = find(&frame[..next], b"/Contents ", at).ok_or_else(|| malformed("contents"))?;
            let (id, _) = number(&frame, c + 10).ok_or_else(|| malformed("contents"))?;
            let start = *offsets.get(id).ok_or_else(|| malformed("contents"))?;
            let head = format!("{id} 0 obj\n");
            if !frame[start..].starts_with(head.as_bytes()) {
                return Err(malformed("contents object"));
            }
            let end = find(&frame, b"\nendstream ", start).ok_or_else(|| malformed("stream"))? + 11;
            contents.push((id as u32, start + head.len(), end));
        }
        if contents.windows(2).any(|w| w[0].2 > w[1].1) {
            return Err(malformed("pages out of order"));
        }
        Ok(Splice {
            frame,
            offsets,
            contents,
            copied: 0,
            moves: Vec::new(),
        })
    }

    /// Writes the frame up to page `i`'s contents, then `content` in their place.
    fn page(&mut self, out: &mut dyn Write, i: usize, content: &[u8]) -> std::io::Result<()> {
        let &(_, start, end) = self
            .contents
            .get(i)
            .ok_or_else(|| std::io::Error::other("more pages than counted"))?;
        out.write_all(&self.frame[self.copied..start])?;
        out.write_all(content)?;
        self.copied = end;
        let before = self.moves.last().map_or(0, |m| m.1);
        self.moves
            .push((end, before + content.len() as i64 - (end - start) as i64));
        Ok(())
    }

    fn shifted(&self, old: usize) -> std::io::Result<u32> {
        let k = self.moves.partition_point(|(end, _)| *end <= old);
        let shift = if k == 0 { 0 } else { self.moves[k - 1].1 };
        u32::try_from(old as i64 + shift)
            .map_err(|_| std::io::Error::other("a PDF over 4 GB is not written"))
    }

    /// The rest of the frame, its cross-references moved to where the objects now are.
    fn end(mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let (xref, data, length, first) = xref_stream(&self.frame)?;
        let mut entries = self.frame[data..data + length].to_vec();
        for (k, entry) in (first..).zip(entries.chunks_exact_mut(7)) {
            if entry[0] == 1 {
                let new = self.shifted(self.offsets[k])?;
                entry[1..5].copy_from_slice(&new.to_be_bytes());
            }
        }
        let new_xref = self.shifted(xref)?;
        out.write_all(&self.frame[self.copied..data])?;
        out.write_all(&entries)?;
        let sx = find(&self.frame, b"startxref\n", data + length)
            .ok_or_else(|| malformed("no startxref"))?;
        out.write_all(&self.frame[data + length..sx])?;
        out.write_all(format!("startxref\n{new_xref}\n%%EOF").as_bytes())?;
        self.copied = self.frame.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Block, reference_layout, render_layout};

    #[test]
    fn each_page_text_is_the_text_read_back_from_the_written_pdf() {
        let blocks = vec![
            Block::Title("NOTIFICACIÓN".into()),
            Block::Table {
                header: vec!["Fila".into(), "Valor".into()],
                rows: (0..150)
                    .map(|i| vec![format!("fila ñ {i}"), format!("$ {i}.000")])
                    .collect(),
                right: vec![false, true],
            },
            Block::Strong("Negrilla".into()),
        ];
        let pdf = render_layout(&blocks, "t", "X-1", (2025, 1, 1), 2);
        let read = super::super::extract_page_lines(&pdf).unwrap();
        assert!(read.len() > 2, "{} pages", read.len());
        let items: Vec<super::Item<'_>> = blocks.iter().cloned().map(super::Item::Block).collect();
        let mut pages = Vec::new();
        super::each_page_text(&items, "t", "X-1", (2025, 1, 1), true, &mut |p| {
            pages.push(p.clone())
        })
        .unwrap();
        assert_eq!(pages, read);
        // the lines are the text's
        let text: Vec<String> = super::super::extract_pages(&pdf).unwrap();
        let joined: Vec<String> = read
            .iter()
            .map(|p| p.iter().map(|(l, _)| format!("{l}\n")).collect())
            .collect();
        assert_eq!(joined, text);
    }

    #[test]
    fn the_streamed_pdf_is_byte_for_byte_the_whole_document_path() {
        let mut blocks = vec![
            Block::Title("Acta de adjudicación".into()),
            Block::Subtitle("Decreto — N.º 3".into()),
            Block::Heading("1. La oferta".into()),
            Block::Para("Año, señor, café, acción, número 1º: ".repeat(12)),
            Block::Strong("Negrilla ñ".into()),
        ];
        blocks.push(Block::Table {
            header: vec!["N.º".into(), "Aceptante".into(), "Valor".into()],
            rows: (0..300)
                .map(|i| {
                    vec![
                        format!("{i}"),
                        format!(
                            "Persona número {i} con un nombre largo que se parte {}",
                            "x".repeat(i % 7)
                        ),
                        format!("$ {}.000", i * 7),
                    ]
                })
                .collect(),
            right: vec![true, false, true],
        });
        blocks.push(Block::Para("Sigue:".into()));
        blocks.push(Block::Table {
            header: vec!["Causal".into(), "Significado".into()],
            rows: vec![vec!["LATE".into(), "Fuera de plazo".into()]],
            right: vec![false, false],
        });
        blocks.push(Block::Signature(vec![
            String::new(),
            "____".into(),
            "Nombre:".into(),
        ]));
        blocks.push(Block::Small("Huella: ab12".into()));
        for version in [1, 2] {
            let streamed = render_layout(
                &blocks,
                "Acta X N.º 3",
                "Adjudicación N.º 3",
                (2024, 3, 15),
                version,
            );
            let whole = reference_layout(
                &blocks,
                "Acta X N.º 3",
                "Adjudicación N.º 3",
                (2024, 3, 15),
                version,
            );
            let pages = super::super::extract_pages(&whole).unwrap().len();
            assert!(pages > 5, "{pages} pages");
            if streamed != whole {
                let at = streamed
                    .iter()
                    .zip(&whole)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                let lo = at.saturating_sub(80);
                panic!(
                    "layout {version}: differ at byte {at} of {}/{}:\n{}\n---\n{}",
                    streamed.len(),
                    whole.len(),
                    String::from_utf8_lossy(&streamed[lo..(at + 80).min(streamed.len())]),
                    String::from_utf8_lossy(&whole[lo..(at + 80).min(whole.len())])
                );
            }
        }
    }
}
