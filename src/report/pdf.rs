//! Notice blocks laid out on Letter pages as a real PDF: embedded DejaVu Serif (so á é í ó ú ñ º
//! show; only the glyphs the document draws), page numbers, tables that break cleanly across pages with their header repeated. Layout
//! works in whole hundredths of a millimetre; the PDF library takes millimetres as its own float
//! type only at the last step. The text read back out of a PDF this module wrote is [`text`]'s.

use super::notice::Block;

mod frame;
/// The one PDF reader, below the rendering (`sign` reads with it too).
pub use crate::pdf_read as read;
pub mod spool;
pub mod stream;
mod text;
use printpdf::{Mm, OffsetDateTime};
use std::cell::OnceCell;
use std::ops::ControlFlow;
pub use text::{PageLines, extract_page_lines, extract_pages, extract_text, lines_of, text_of};
use text::{bold_fonts, page_lines};
use ttf_parser::Face;

const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerif.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerif-Bold.ttf");

/// Letter, in hundredths of a millimetre.
const PAGE_W: i64 = 21590;
const PAGE_H: i64 = 27940;
const MARGIN_X: i64 = 2200;
const MARGIN_TOP: i64 = 2300;
const MARGIN_BOTTOM: i64 = 2200;
const FOOTER_Y: i64 = 1200; // from the bottom
const CONTENT_W: i64 = PAGE_W - 2 * MARGIN_X;
const CELL_PAD: i64 = 120;

/// Font sizes in tenths of a point.
const TITLE: i64 = 140;
const SUBTITLE: i64 = 100;
const HEADING: i64 = 115;
const BODY: i64 = 100;
const TABLE: i64 = 80;
const SMALL: i64 = 72;

fn face(bold: bool) -> Face<'static> {
    Face::parse(if bold { BOLD } else { REGULAR }, 0).expect("embedded font parses")
}

/// Height of a line of text at `size` (tenths of a point), with leading, in hundredths of a mm.
fn line_height(size: i64) -> i64 {
    // 1 pt = 25.4/72 mm; 10 tenths per point; 135 % leading.
    size * 2540 * 135 / (720 * 100)
}

/// Text measured with the font's advance widths.
struct Measure {
    regular: Face<'static>,
    bold: Face<'static>,
    /// The advance of each of the first 256 characters, regular then bold, in font units: a
    /// table's every cell is measured a few times, and the font's own lookup is a search.
    latin: [[i64; 256]; 2],
}

impl Measure {
    fn new() -> Measure {
        let (regular, bold) = (face(false), face(true));
        let mut latin = [[0i64; 256]; 2];
        for (table, f) in latin.iter_mut().zip([&regular, &bold]) {
            for (c, units) in table.iter_mut().enumerate() {
                *units = char::from_u32(c as u32).map_or(0, |c| advance(f, c));
            }
        }
        Measure {
            regular,
            bold,
            latin,
        }
    }

    fn face(&self, bold: bool) -> &Face<'static> {
        if bold { &self.bold } else { &self.regular }
    }

    /// A character's advance in font units (0 for one the font lacks).
    fn char_units(&self, c: char, bold: bool) -> i64 {
        match self.latin[usize::from(bold)].get(c as usize) {
            Some(&u) => u,
            None => advance(self.face(bold), c),
        }
    }

    fn units(&self, text: &str, bold: bool) -> i64 {
        text.chars().map(|c| self.char_units(c, bold)).sum()
    }

    /// Font units as hundredths of a millimetre at `size`.
    fn scaled(&self, units: i64, size: i64, bold: bool) -> i64 {
        units * size * 2540 / (i64::from(self.face(bold).units_per_em()) * 720)
    }

    fn width(&self, text: &str, size: i64, bold: bool) -> i64 {
        self.scaled(self.units(text, bold), size, bold)
    }

    /// Greedy word wrap to `width`; a word longer than a line is cut by characters. A line's
    /// width is the sum of its characters' advances, so it is added up as the line grows.
    fn wrap(&self, text: &str, size: i64, bold: bool, width: i64) -> Vec<String> {
        let fits = |units: i64| self.scaled(units, size, bold) <= width;
        let space = self.char_units(' ', bold);
        let mut lines = Vec::new();
        let mut line = String::new();
        let mut line_units = 0i64;
        for word in text.split(' ').filter(|w| !w.is_empty()) {
            let word_units = self.units(word, bold);
            let candidate = if line.is_empty() {
                word_units
            } else {
                line_units + space + word_units
            };
            if fits(candidate) {
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
                line_units = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                line_units = 0;
            }
            if fits(word_units) {
                line.push_str(word);
                line_units = word_units;
            } else {
                for c in word.chars() {
                    let u = self.char_units(c, bold);
                    if !fits(line_units + u) && !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                        line_units = 0;
                    }
                    line.push(c);
                    line_units += u;
                }
            }
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// A character's advance in `f`'s units (0 for one the font lacks).
fn advance(f: &Face<'_>, c: char) -> i64 {
    f.glyph_index(c)
        .and_then(|g| f.glyph_hor_advance(g))
        .map(i64::from)
        .unwrap_or(0)
}

/// A drawing operation on a page; `y` is the baseline, measured from the top of the page.
#[derive(Debug, Clone)]
enum Op {
    Text {
        x: i64,
        y: i64,
        size: i64,
        bold: bool,
        text: String,
    },
    Rule {
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
    },
}

/// A table's rows handed to a sink, in order, each once per call, until the sink says to stop:
/// a table of the register read again from the store at each pass, or the rows of a
/// [`Block::Table`]. An error says why the rows could not be read.
pub type RowSource<'a> =
    dyn Fn(&mut dyn FnMut(&[String]) -> ControlFlow<()>) -> Result<(), String> + 'a;

/// What a streamed document is made of: blocks, and tables whose rows are read as they are laid
/// out (never all at once).
pub enum Item<'a> {
    Block(Block),
    Rows {
        header: Vec<String>,
        right: Vec<bool>,
        rows: &'a RowSource<'a>,
        /// The columns' widths, worked out once from every row.
        widths: OnceCell<Vec<i64>>,
    },
}

impl<'a> Item<'a> {
    /// A table whose rows come from `rows`.
    pub fn rows(header: Vec<String>, right: Vec<bool>, rows: &'a RowSource<'a>) -> Item<'a> {
        Item::Rows {
            header,
            right,
            rows,
            widths: OnceCell::new(),
        }
    }

    /// The block this item stands for when pages are broken (a streamed table is a table).
    fn kind(&self) -> &Block {
        static TABLE: Block = Block::Table {
            header: Vec::new(),
            rows: Vec::new(),
            right: Vec::new(),
        };
        match self {
            Item::Block(b) => b,
            Item::Rows { .. } => &TABLE,
        }
    }
}

/// A finished page handed on by the layout.
type PageSink<'s> = dyn FnMut(Vec<Op>) + 's;

struct Layout<'s> {
    m: Measure,
    /// The page being laid out.
    page: Vec<Op>,
    /// How many pages are finished before it.
    done: usize,
    y: i64,
    /// Where finished pages go (none for a trial).
    sink: Option<&'s mut PageSink<'s>>,
    /// A trial stops as soon as it leaves its first page.
    trial: bool,
    /// The first error reading a table's rows.
    failed: Option<String>,
}

impl<'s> Layout<'s> {
    fn new(sink: Option<&'s mut PageSink<'s>>) -> Layout<'s> {
        Layout {
            m: Measure::new(),
            page: Vec::new(),
            done: 0,
            y: MARGIN_TOP,
            sink,
            trial: false,
            failed: None,
        }
    }

    /// Whether `items` end on the page where this layout stands now.
    fn fits(&mut self, items: &[Item<'_>]) -> bool {
        let mut trial = Layout::new(None);
        trial.y = self.y;
        trial.trial = true;
        for b in items {
            trial.item(b);
            if trial.done > 0 {
                break;
            }
        }
        if let Some(e) = trial.failed {
            self.failed.get_or_insert(e);
        }
        trial.done == 0
    }

    fn page_is_empty(&self) -> bool {
        self.page.is_empty()
    }

    fn page(&mut self) -> &mut Vec<Op> {
        &mut self.page
    }

    fn new_page(&mut self) {
        let page = std::mem::take(&mut self.page);
        self.done += 1;
        if let Some(sink) = &mut self.sink {
            sink(page);
        }
        self.y = MARGIN_TOP;
    }

    /// Hands on the last page; the number of pages.
    fn end(mut self) -> (usize, Option<String>) {
        let page = std::mem::take(&mut self.page);
        if let Some(sink) = &mut self.sink {
            sink(page);
        }
        (self.done + 1, self.failed)
    }

    fn ensure(&mut self, height: i64) {
        if self.y + height > PAGE_H - MARGIN_BOTTOM {
            self.new_page();
        }
    }

    fn text_lines(&mut self, text: &str, size: i64, bold: bool, centered: bool) {
        let lh = line_height(size);
        for line in self.m.wrap(text, size, bold, CONTENT_W) {
            self.ensure(lh);
            self.y += lh;
            let x = if centered {
                MARGIN_X + (CONTENT_W - self.m.width(&line, size, bold)) / 2
            } else {
                MARGIN_X
            };
            let y = self.y - lh / 4;
            self.page().push(Op::Text {
                x,
                y,
                size,
                bold,
                text: line,
            });
        }
    }

    fn gap(&mut self, h: i64) {
        self.y += h;
    }

    /// Column widths. Each column gets at least its widest unbreakable word (dates, figures and
    /// `$ 1.087.500` never break), then the space left is shared in proportion to how much more
    /// each column would need to hold its longest cell on one line. Read in one pass over the
    /// rows (a row shorter than the header counts as empty cells).
    fn widths(&mut self, header: &[String], rows: &RowSource<'_>) -> Vec<i64> {
        let pad = 2 * CELL_PAD + 1;
        let m = &self.m;
        let word = |t: &str, b: bool| {
            t.split(' ')
                .map(|w| m.width(w, TABLE, b))
                .max()
                .unwrap_or(0)
        };
        let mut min: Vec<i64> = header.iter().map(|h| word(h, true)).collect();
        let mut natural: Vec<i64> = header.iter().map(|h| m.width(h, TABLE, true)).collect();
        let read = rows(&mut |r| {
            for (c, (lo, nat)) in min.iter_mut().zip(natural.iter_mut()).enumerate() {
                let t = r.get(c).map(String::as_str).unwrap_or("");
                *lo = (*lo).max(word(t, false));
                *nat = (*nat).max(m.width(t, TABLE, false));
            }
            ControlFlow::Continue(())
        });
        if let Err(e) = read {
            self.failed.get_or_insert(e);
        }
        let min: Vec<i64> = min.into_iter().map(|w| w + pad).collect();
        let natural: Vec<i64> = natural.into_iter().map(|w| w + pad).collect();
        let min_total: i64 = min.iter().sum();
        let mut w: Vec<i64> = if min_total >= CONTENT_W {
            min.iter()
                .map(|m| m * CONTENT_W / min_total.max(1))
                .collect()
        } else {
            let spare = CONTENT_W - min_total;
            let wants: Vec<i64> = natural
                .iter()
                .zip(&min)
                .map(|(n, m)| (n - m).max(0))
                .collect();
            let want_total: i64 = wants.iter().sum();
            if want_total <= spare {
                // everything fits on one line: share the rest in proportion to the natural widths
                let nat_total: i64 = natural.iter().sum::<i64>().max(1);
                natural.iter().map(|n| n * CONTENT_W / nat_total).collect()
            } else {
                min.iter()
                    .zip(&wants)
                    .map(|(m, x)| m + x * spare / want_total.max(1))
                    .collect()
            }
        };
        let used: i64 = w.iter().sum();
        if let Some(last) = w.last_mut() {
            *last += CONTENT_W - used;
        }
        w
    }

    /// Each cell wrapped to its column.
    fn wrap_cells(&self, cells: &[String], widths: &[i64], bold: bool) -> Vec<Vec<String>> {
        cells
            .iter()
            .zip(widths)
            .map(|(c, w)| self.m.wrap(c, TABLE, bold, w - 2 * CELL_PAD))
            .collect()
    }

    fn row(&mut self, cells: &[String], widths: &[i64], right: &[bool], bold: bool) -> i64 {
        let wrapped = self.wrap_cells(cells, widths, bold);
        self.wrapped_row(&wrapped, widths, right, bold)
    }

    /// A row whose cells are wrapped already.
    fn wrapped_row(
        &mut self,
        wrapped: &[Vec<String>],
        widths: &[i64],
        right: &[bool],
        bold: bool,
    ) -> i64 {
        let lh = line_height(TABLE);
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1) as i64;
        let height = lines * lh + CELL_PAD;
        let top = self.y;
        let mut x = MARGIN_X;
        for ((cell_lines, w), r) in wrapped
            .iter()
            .zip(widths)
            .zip(right.iter().chain(std::iter::repeat(&false)))
        {
            let mut y = top + CELL_PAD / 2;
            for l in cell_lines {
                y += lh;
                let tx = if *r {
                    x + w - CELL_PAD - self.m.width(l, TABLE, bold)
                } else {
                    x + CELL_PAD
                };
                self.page().push(Op::Text {
                    x: tx,
                    y: y - lh / 4,
                    size: TABLE,
                    bold,
                    text: l.clone(),
                });
            }
            x += w;
        }
        let bottom = top + height;
        let mut x = MARGIN_X;
        let page = self.page();
        page.push(Op::Rule {
            x1: MARGIN_X,
            y1: top,
            x2: MARGIN_X + CONTENT_W,
            y2: top,
        });
        page.push(Op::Rule {
            x1: MARGIN_X,
            y1: bottom,
            x2: MARGIN_X + CONTENT_W,
            y2: bottom,
        });
        page.push(Op::Rule {
            x1: x,
            y1: top,
            x2: x,
            y2: bottom,
        });
        for w in widths {
            x += w;
            page.push(Op::Rule {
                x1: x,
                y1: top,
                x2: x,
                y2: bottom,
            });
        }
        self.y = bottom;
        height
    }

    fn row_height(&self, cells: &[String], widths: &[i64], bold: bool) -> i64 {
        height_of(&self.wrap_cells(cells, widths, bold))
    }

    /// A table, its rows read from `rows` (the columns' widths kept in `widths` once worked
    /// out): one pass for the widths, one for as many rows as a page holds, one to lay them out.
    fn table(
        &mut self,
        header: &[String],
        rows: &RowSource<'_>,
        right: &[bool],
        widths: &OnceCell<Vec<i64>>,
    ) {
        // `$` stays with its figure
        let glue = |r: &[String]| -> Vec<String> {
            r.iter().map(|c| c.replace("$ ", "$\u{a0}")).collect()
        };
        let glued = |f: &mut dyn FnMut(&[String]) -> ControlFlow<()>| rows(&mut |r| f(&glue(r)));
        if widths.get().is_none() {
            let w = self.widths(header, &glued);
            let _ = widths.set(w);
        }
        let widths = widths.get().expect("just worked out");
        let head_h = self.row_height(header, widths, true);
        let limit = PAGE_H - MARGIN_BOTTOM - MARGIN_TOP;
        // the whole table's height, as far as it fits on a page
        let mut first_h = None;
        let mut whole = head_h;
        let read = glued(&mut |r| {
            let h = self.row_height(r, widths, false);
            first_h.get_or_insert(h);
            whole += h;
            if whole > limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if let Err(e) = read {
            self.failed.get_or_insert(e);
        }
        self.gap(150);
        // a table that fits on one page is never split: it starts a new page when it does not
        // fit on this one; a longer one continues with its header repeated
        if whole <= limit {
            self.ensure(whole);
        }
        self.ensure(head_h + first_h.unwrap_or(0));
        self.row(header, widths, right, true);
        // each row wrapped once, for its height and its lines
        let read = glued(&mut |r| {
            let wrapped = self.wrap_cells(r, widths, false);
            let h = height_of(&wrapped);
            if self.y + h > PAGE_H - MARGIN_BOTTOM {
                self.new_page();
                if self.trial {
                    return ControlFlow::Break(());
                }
                self.row(header, widths, right, true);
            }
            self.wrapped_row(&wrapped, widths, right, false);
            ControlFlow::Continue(())
        });
        if let Err(e) = read {
            self.failed.get_or_insert(e);
        }
        self.gap(250);
    }

    fn item(&mut self, item: &Item<'_>) {
        match item {
            Item::Block(b) => self.block(b),
            Item::Rows {
                header,
                right,
                rows,
                widths,
            } => self.table(header, rows, right, widths),
        }
    }

    fn block(&mut self, b: &Block) {
        match b {
            Block::Title(t) => {
                self.text_lines(t, TITLE, true, true);
                self.gap(150);
            }
            Block::Subtitle(t) => self.text_lines(t, SUBTITLE, false, true),
            Block::Heading(t) => {
                self.ensure(line_height(HEADING) + 3 * line_height(BODY));
                self.gap(400);
                self.text_lines(t, HEADING, true, false);
                let y = self.y + 60;
                self.page().push(Op::Rule {
                    x1: MARGIN_X,
                    y1: y,
                    x2: MARGIN_X + CONTENT_W,
                    y2: y,
                });
                self.gap(200);
            }
            Block::Para(t) => {
                self.text_lines(t, BODY, false, false);
                self.gap(200);
            }
            Block::Strong(t) => {
                self.text_lines(t, BODY, true, false);
                self.gap(200);
            }
            Block::Table {
                header,
                rows,
                right,
            } => {
                let each = |f: &mut dyn FnMut(&[String]) -> ControlFlow<()>| {
                    for r in rows {
                        if f(r).is_break() {
                            break;
                        }
                    }
                    Ok(())
                };
                self.table(header, &each, right, &OnceCell::new())
            }
            Block::Signature(lines) => {
                self.ensure(lines.len() as i64 * line_height(BODY) + 400);
                self.gap(400);
                for l in lines {
                    if l.is_empty() {
                        self.gap(line_height(BODY));
                    } else {
                        self.text_lines(l, BODY, false, false);
                    }
                }
                self.gap(300);
            }
            Block::Small(t) => {
                self.text_lines(t, SMALL, false, false);
                self.gap(100);
            }
        }
    }
}

/// The height of a table's row whose cells are wrapped so.
fn height_of(wrapped: &[Vec<String>]) -> i64 {
    let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1) as i64;
    lines * line_height(TABLE) + CELL_PAD
}

/// Whether `b` goes on the same page as `next`: the block before a signature (so the signature
/// never stands alone), and a paragraph ending in a colon before the table it introduces.
fn kept_with_next(b: &Block, next: &Block, headings: bool) -> bool {
    match (b, next) {
        // layout 2: a heading never ends a page
        (Block::Heading(_), _) if headings => true,
        (_, Block::Signature(_)) => true,
        (Block::Para(t) | Block::Strong(t), Block::Table { .. }) => t.trim_end().ends_with(':'),
        _ => false,
    }
}

/// The blocks in the groups laid out together ([`kept_with_next`]). The group that ends with the
/// signature also takes the groups before it until it holds some text of the letter besides
/// tables and the paragraphs introducing them: a table alone above the signature would read as an
/// appendix signed by itself.
fn group_ranges(blocks: &[&Block], headings: bool) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let mut end = i;
        while end + 1 < blocks.len() && kept_with_next(blocks[end], blocks[end + 1], headings) {
            end += 1;
        }
        ranges.push((i, end));
        i = end + 1;
    }
    // text of the letter: a paragraph that does not introduce the table after it
    let text = |k: usize| match blocks[k] {
        Block::Para(_) | Block::Strong(_) => match blocks.get(k + 1) {
            Some(next @ Block::Table { .. }) => !kept_with_next(blocks[k], next, headings),
            _ => true,
        },
        _ => false,
    };
    let mut g = 0;
    while g < ranges.len() {
        let (start, end) = ranges[g];
        let signed = matches!(blocks[end], Block::Signature(_));
        if signed && g > 0 && !(start..end).any(text) {
            ranges[g - 1].1 = end;
            ranges.remove(g);
            g -= 1;
            continue;
        }
        g += 1;
    }
    ranges
}

#[cfg(test)]
fn groups(blocks: &[Block], headings: bool) -> Vec<&[Block]> {
    let kinds: Vec<&Block> = blocks.iter().collect();
    group_ranges(&kinds, headings)
        .into_iter()
        .map(|(s, e)| &blocks[s..=e])
        .collect()
}

/// Lays `items` out on pages, handing each finished page to `sink`: the number of pages, and the
/// first error reading a table's rows.
fn lay_out<'s>(
    items: &[Item<'_>],
    headings: bool,
    sink: Option<&'s mut PageSink<'s>>,
) -> (usize, Option<String>) {
    let kinds: Vec<&Block> = items.iter().map(Item::kind).collect();
    let mut layout = Layout::new(sink);
    for (s, e) in group_ranges(&kinds, headings) {
        let group = &items[s..=e];
        // blocks kept together (a paragraph that introduces a table, the block before the
        // signature, the signature) start a new page when they would not end on this one
        if group.len() > 1 && !layout.page_is_empty() && !layout.fits(group) {
            layout.new_page();
        }
        for b in group {
            layout.item(b);
        }
    }
    layout.end()
}

fn mm(hundredths: i64) -> Mm {
    Mm(hundredths as f32 / 100.0)
}

fn pt(tenths: i64) -> f32 {
    tenths as f32 / 10.0
}

/// Renders blocks as a Letter-size PDF. `footer` prefixes the page numbers ("… — Página 1 de 3");
/// `date` (y, m, d) stamps the document's metadata so the same notice always gives the same bytes.
pub fn render(blocks: &[Block], title: &str, footer: &str, date: (i32, u8, u8)) -> Vec<u8> {
    render_layout(blocks, title, footer, date, 1)
}

/// [`render`] for a document of text version `version` (`crate::notice::LAYOUT`): from 2 on, a
/// heading is kept with the block after it, so no page ends on a heading.
pub fn render_layout(
    blocks: &[Block],
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    version: u8,
) -> Vec<u8> {
    let items: Vec<Item<'_>> = blocks.iter().cloned().map(Item::Block).collect();
    let mut out = Vec::new();
    let heading = version >= 2;
    stream::write(&items, title, footer, date, heading, &mut out)
        .expect("blocks in memory lay out and write to memory");
    out
}

/// What [`render_layout`] wrote before it streamed: the whole document laid out in memory and
/// handed to printpdf at once. Kept to check the streamed bytes against.
#[cfg(test)]
fn reference_layout(
    blocks: &[Block],
    title: &str,
    footer: &str,
    date: (i32, u8, u8),
    version: u8,
) -> Vec<u8> {
    use printpdf::{IndirectFontRef, Line, PdfDocument, Point};
    let items: Vec<Item<'_>> = blocks.iter().cloned().map(Item::Block).collect();
    let mut pages: Vec<Vec<Op>> = Vec::new();
    let mut sink = |p: Vec<Op>| pages.push(p);
    lay_out(&items, version >= 2, Some(&mut sink));
    let total = pages.len();
    let stamp = time_stamp(date);
    let (doc, first_page, first_layer) =
        PdfDocument::new(title, mm(PAGE_W), mm(PAGE_H), "contenido");
    let doc = doc
        .with_creation_date(stamp)
        .with_mod_date(stamp)
        .with_metadata_date(stamp)
        .with_document_id(footer.to_string())
        .with_producer("vigia")
        .with_creator("vigia");
    // Each font is embedded with only the glyphs this document draws (see `subset`).
    let footers: Vec<String> = (1..=total)
        .map(|i| format!("{footer} — Página {i} de {total}"))
        .collect();
    let drawn = |in_bold: bool| {
        let mut chars: std::collections::BTreeSet<char> = pages
            .iter()
            .flatten()
            .filter_map(|op| match op {
                Op::Text { bold, text, .. } if *bold == in_bold => Some(text.chars()),
                _ => None,
            })
            .flatten()
            .collect();
        if !in_bold {
            chars.extend(footers.iter().flat_map(|f| f.chars()));
        }
        chars
    };
    let embed = |font: &[u8], in_bold: bool| -> IndirectFontRef {
        let subset = super::subset::subset(font, drawn(in_bold)).expect("shipped font subsets");
        doc.add_external_font(subset.as_slice())
            .expect("font embeds")
    };
    let regular = embed(REGULAR, false);
    let bold = embed(BOLD, true);
    let measure = Measure::new();
    for (i, ops) in (0..).zip(pages.iter()) {
        let (page, layer) = if i == 0 {
            (first_page, first_layer)
        } else {
            doc.add_page(mm(PAGE_W), mm(PAGE_H), "contenido")
        };
        let layer = doc.get_page(page).get_layer(layer);
        layer.set_outline_thickness(0.4);
        for op in ops {
            match op {
                Op::Text {
                    x,
                    y,
                    size,
                    bold: b,
                    text,
                } => layer.use_text(
                    text.clone(),
                    pt(*size),
                    mm(*x),
                    mm(PAGE_H - y),
                    if *b { &bold } else { &regular },
                ),
                Op::Rule { x1, y1, x2, y2 } => layer.add_line(Line {
                    points: vec![
                        (Point::new(mm(*x1), mm(PAGE_H - y1)), false),
                        (Point::new(mm(*x2), mm(PAGE_H - y2)), false),
                    ],
                    is_closed: false,
                }),
            }
        }
        let text = footers[i].clone();
        let x = MARGIN_X + (CONTENT_W - measure.width(&text, SMALL, false)) / 2;
        layer.use_text(text, pt(SMALL), mm(x), mm(FOOTER_Y), &regular);
    }
    let bytes = doc.save_to_bytes().expect("PDF serialises");
    finish(bytes, title, footer)
}

/// Makes the file reproducible, small and correctly titled without parsing it back (lopdf's
/// parser took 0.12 s a notice, most of the time of a batch of notices). printpdf, built without
/// debug assertions (as Cargo.toml asks in every profile), has deflated every stream but the
/// fonts'; those are deflated here. It writes the title's UTF-8 bytes as they are, which viewers
/// read as PDFDocEncoding ("NotificaciÃ³n"): the title is rewritten in UTF-16. The offsets in the
/// cross-reference stream are moved to match, and the trailer's random IDs replaced by 32 hex
/// digits of the SHA-256 of the footer (which names the notice), so every notice has its own ID
/// and the same notice always the same bytes.
fn finish(bytes: Vec<u8>, title: &str, footer: &str) -> Vec<u8> {
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        hay[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|p| p + from)
    };
    let number = |b: &[u8], at: usize| -> (usize, usize) {
        let end = at + b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
        let n = std::str::from_utf8(&b[at..end])
            .ok()
            .and_then(|s| s.parse().ok());
        (n.expect("a number in printpdf's output"), end)
    };
    // 1. What to rewrite, in file order: (start, end, new bytes).
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    // font streams: `<</Length1 A/Length B>>stream\n` + B bytes, deflated
    let mut from = 0;
    // (looked for where an object starts, `N 0 obj\n<<`: 15 exact bytes that deflated data
    // will not plausibly contain; and a stray match would stop here, not write a bad file)
    while let Some(at) = find(&bytes, b"obj\n<</Length1 ", from).map(|at| at + 4) {
        let (length1, after) = number(&bytes, at + 11);
        assert_eq!(
            &bytes[after..after + 8],
            b"/Length ",
            "printpdf's font stream"
        );
        let (length, after) = number(&bytes, after + 8);
        assert_eq!(
            &bytes[after..after + 9],
            b">>stream\n",
            "printpdf's font stream"
        );
        let end = after + 9 + length;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut z, &bytes[after + 9..end]).expect("deflates in memory");
        let deflated = z.finish().expect("deflates in memory");
        let mut new = format!(
            "<</Length1 {length1}/Filter/FlateDecode/Length {}>>stream\n",
            deflated.len()
        )
        .into_bytes();
        new.extend_from_slice(&deflated);
        edits.push((at, end, new));
        from = end;
    }
    // the title, as printpdf wrote it (a literal string of UTF-8 bytes), in UTF-16BE
    let literal = [b"/Title(", title.as_bytes(), b")"].concat();
    // (a title printpdf had to escape is left as it wrote it)
    if let Some(at) = find(&bytes, &literal, 0) {
        let utf16: String = title.encode_utf16().map(|u| format!("{u:04X}")).collect();
        edits.push((
            at,
            at + literal.len(),
            format!("/Title<FEFF{utf16}>").into_bytes(),
        ));
    }
    edits.sort_by_key(|e| e.0);
    let mut out = Vec::with_capacity(bytes.len());
    let mut moves: Vec<(usize, isize)> = Vec::new(); // (end of an edit, total shift after it)
    let mut copied = 0;
    for (start, end, new) in edits {
        out.extend_from_slice(&bytes[copied..start]);
        out.extend_from_slice(&new);
        copied = end;
        moves.push((end, out.len() as isize - end as isize));
    }
    out.extend_from_slice(&bytes[copied..]);
    let shifted = |old: usize| -> usize {
        let shift = moves
            .iter()
            .take_while(|(end, _)| *end <= old)
            .last()
            .map_or(0, |(_, s)| *s);
        (old as isize + shift) as usize
    };
    // 2. The cross-reference stream (`/W[1 4 2]`, not deflated): every object's new offset.
    let sx = find(&out, b"startxref\n", out.len().saturating_sub(64)).expect("startxref");
    let (xref_at, _) = number(&out, sx + 10);
    let xref = shifted(xref_at);
    let dict_end = find(&out, b">>stream\n", xref).expect("the xref stream");
    let dict = String::from_utf8(out[xref..dict_end].to_vec()).expect("an ASCII dictionary");
    assert!(
        dict.contains("/Type/XRef") && dict.contains("/W[1 4 2]") && !dict.contains("/Filter"),
        "printpdf's cross-reference stream: {dict}"
    );
    let data = dict_end + 9;
    let (length, _) = number(&out, xref + dict.find("/Length ").expect("its length") + 8);
    for entry in out[data..data + length].chunks_exact_mut(7) {
        if entry[0] == 1 {
            let old = u32::from_be_bytes(entry[1..5].try_into().expect("4 bytes"));
            let new = u32::try_from(shifted(old as usize)).expect("a PDF under 4 GB");
            entry[1..5].copy_from_slice(&new.to_be_bytes());
        }
    }
    // 3. The IDs, in place (32 characters each), and where the cross-references now start.
    let id = crate::store::sha256_hex(footer.as_bytes())[..32].to_string();
    let ids = xref + dict.find("/ID[(").expect("the trailer's IDs") + 5;
    assert_eq!(&out[ids + 32..ids + 34], b")(", "two 32-character IDs");
    out[ids..ids + 32].copy_from_slice(id.as_bytes());
    out[ids + 34..ids + 66].copy_from_slice(id.as_bytes());
    out.truncate(sx);
    out.extend_from_slice(format!("startxref\n{xref}\n%%EOF").as_bytes());
    out
}

fn time_stamp((y, m, d): (i32, u8, u8)) -> OffsetDateTime {
    let month = time::Month::try_from(m).unwrap_or(time::Month::January);
    let date = time::Date::from_calendar_date(y, month, d).unwrap_or(time::Date::MIN);
    date.midnight().assume_utc()
}

#[cfg(test)]
mod tests;
