//! The text read back out of a PDF written by [`super::render`]: one line per baseline, top to
//! bottom, page by page, each glyph turned back into its character through the embedded faces'
//! cmaps. What `notice verify`, the acta's checks and the layout tests compare; the one PDF
//! reader ([`super::read`]) parses the file.

use super::{face, read};
use std::collections::HashMap;
use ttf_parser::Face;

/// Glyph id → character, for the regular and the bold face: built once.
fn glyph_chars() -> &'static (HashMap<u16, char>, HashMap<u16, char>) {
    static MAPS: std::sync::OnceLock<(HashMap<u16, char>, HashMap<u16, char>)> =
        std::sync::OnceLock::new();
    MAPS.get_or_init(|| {
        let map_of = |f: &Face<'static>| {
            let mut map: HashMap<u16, char> = HashMap::new();
            if let Some(cmap) = f.tables().cmap {
                for sub in cmap.subtables {
                    if !sub.is_unicode() {
                        continue;
                    }
                    sub.codepoints(|cp| {
                        if let (Some(c), Some(g)) = (char::from_u32(cp), sub.glyph_index(cp)) {
                            map.entry(g.0).or_insert(c);
                        }
                    });
                }
            }
            map
        };
        (map_of(&face(false)), map_of(&face(true)))
    })
}

/// The text of a PDF written by [`super::render`], one line per baseline, top to bottom, page by page.
/// Read by [`super::read`], within its limits (nesting, decompressed size, pages): an error says which
/// limit a file broke, or that it is not such a PDF. Nothing is printed.
pub fn extract_text(bytes: &[u8]) -> Result<String, read::Unreadable> {
    Ok(extract_pages(bytes)?.concat())
}

/// The text of each page of a PDF written by [`super::render`] (as [`extract_text`] gives it), in
/// order: what a layout check reads.
pub fn extract_pages(bytes: &[u8]) -> Result<Vec<String>, read::Unreadable> {
    each_page(bytes, page_text)
}

/// A page's font resource names → whether the font is bold ([`bold_fonts`]).
type Bold = HashMap<Vec<u8>, bool>;

/// `read` of each page of a PDF, in order.
fn each_page<T>(
    bytes: &[u8],
    read: fn(&[u8], &Bold) -> Result<T, read::Unreadable>,
) -> Result<Vec<T>, read::Unreadable> {
    let doc = read::Doc::load(bytes)?;
    let mut pages = Vec::new();
    for page in doc.pages()? {
        pages.push(read(&page.content, &bold_fonts(page.fonts))?);
    }
    Ok(pages)
}

/// The text of a page read by [`super::read`] (as [`extract_pages`] gives each): a document read
/// from its file a page at a time (`read::Doc::open`, `read::Doc::each_page`).
pub fn text_of(page: read::Page) -> Result<String, read::Unreadable> {
    page_text(&page.content, &bold_fonts(page.fonts))
}

/// A page's lines as [`page_text`] gives them, one per baseline, each with whether it is printed
/// right under the line before at its type's line spacing: the next line of a table's row or a
/// paragraph that wraps (rows and paragraphs are set apart by more; so are a title and what
/// follows it). What names a difference by its whole row (`register::difference::row_of`).
pub type PageLines = Vec<(String, bool)>;

/// The lines of each page of a PDF written by [`super::render`] ([`PageLines`]).
pub fn extract_page_lines(bytes: &[u8]) -> Result<Vec<PageLines>, read::Unreadable> {
    each_page(bytes, page_lines)
}

/// [`text_of`] as [`PageLines`].
pub fn lines_of(page: read::Page) -> Result<PageLines, read::Unreadable> {
    page_lines(&page.content, &bold_fonts(page.fonts))
}

/// A page's font resource names → whether the font is bold.
pub(super) fn bold_fonts(fonts: Vec<(Vec<u8>, Vec<u8>)>) -> HashMap<Vec<u8>, bool> {
    fonts
        .into_iter()
        .map(|(name, base)| (name, base.windows(4).any(|w| w == b"Bold")))
        .collect()
}

/// The text of a page's (decoded) content stream, as [`extract_pages`] gives it.
pub(super) fn page_text(
    content: &[u8],
    bold_fonts: &HashMap<Vec<u8>, bool>,
) -> Result<String, read::Unreadable> {
    let mut out = String::new();
    for (line, _) in page_lines(content, bold_fonts)? {
        out.push_str(&line);
        out.push('\n');
    }
    if out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// The lines of a page's (decoded) content stream ([`PageLines`]), as [`page_text`] gives them.
pub(super) fn page_lines(
    content: &[u8],
    bold_fonts: &HashMap<Vec<u8>, bool>,
) -> Result<PageLines, read::Unreadable> {
    let (regular, bold) = glyph_chars();
    // (-y, x, size, text), positions and sizes in hundredths of a point
    let mut lines: Vec<(i64, i64, i64, String)> = Vec::new();
    let mut is_bold = false;
    let mut size = 0i64;
    let mut pos = (0i64, 0i64);
    read::operations(content, |op, operands| match op {
        b"Tf" => {
            if let Some(read::Obj::Name(name)) = operands.first() {
                is_bold = bold_fonts.get(name).copied().unwrap_or(false);
            }
            let points = operands.get(1).and_then(read::Obj::as_f64).unwrap_or(0.0);
            size = (points * 100.0).round() as i64;
        }
        b"Td" => {
            let num = |i: usize| operands.get(i).and_then(read::Obj::as_f64).unwrap_or(0.0);
            pos = (
                (num(0) * 100.0).round() as i64,
                (num(1) * 100.0).round() as i64,
            );
        }
        b"Tj" => {
            if let Some(read::Obj::Str(b)) = operands.first() {
                let map = if is_bold { bold } else { regular };
                let text: String = b
                    .chunks(2)
                    .filter(|p| p.len() == 2)
                    .map(|p| u16::from(p[0]) << 8 | u16::from(p[1]))
                    .filter_map(|g| map.get(&g).copied())
                    .map(|c| if c == '\u{a0}' { ' ' } else { c })
                    .collect();
                lines.push((-pos.1, pos.0, size, text));
            }
        }
        _ => {}
    })?;
    lines.sort_by_key(|a| (a.0, a.1));
    let mut out: PageLines = Vec::new();
    // the baseline of the line being made and its largest type; the line before's baseline
    let mut current: Option<(i64, i64)> = None;
    let mut before: Option<i64> = None;
    for (y, _, size, text) in lines {
        match current {
            Some((c, largest)) if (c - y).abs() < 50 => {
                current = Some((c, largest.max(size)));
                if let Some((line, _)) = out.last_mut() {
                    line.push_str(" | ");
                    line.push_str(&text);
                }
                continue;
            }
            Some((c, largest)) => {
                // the line just ended follows the one before it at its type's spacing (135 %
                // of the size as laid out; a row's or a paragraph's end adds at least a fifth)
                if let (Some(b), Some((_, follows))) = (before, out.last_mut()) {
                    *follows = (c - b) * 100 <= largest * 150;
                }
                before = Some(c);
            }
            None => {}
        }
        out.push((text, false));
        current = Some((y, size));
    }
    if let (Some((c, largest)), Some(b), Some((_, follows))) = (current, before, out.last_mut()) {
        *follows = (c - b) * 100 <= largest * 150;
    }
    Ok(out)
}
