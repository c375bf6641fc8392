//! TrueType subsetting for the PDF notices: a font keeps the outlines of the glyphs a document
//! uses (and the components they are built from) and loses the rest, so a notice embeds a few
//! kilobytes of font instead of the whole of DejaVu Serif (about 480 KB a notice before).
//!
//! The subset keeps every glyph id: unused glyphs become empty (zero-length in `loca`), the metrics
//! and hinting tables are kept as they are, and the `cmap` maps the document's characters to the
//! same glyphs as before (and nothing else), so text is encoded, measured and read back
//! ([`super::pdf::extract_text`], which uses the whole font) exactly as with the whole font. Tables a PDF viewer never
//! reads from an embedded font (OpenType layout, kerning, glyph names) are dropped. Deterministic:
//! the same font and characters give the same bytes.

use std::collections::BTreeSet;

/// Tables left out of a subset: layout and kerning (the PDF positions every glyph itself), glyph
/// names (`post` is rewritten without them), math.
const DROPPED: [&[u8; 4]; 7] = [
    b"GPOS", b"GSUB", b"GDEF", b"kern", b"MATH", b"BASE", b"JSTF",
];

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The font's tables: (tag, bytes), in directory order.
fn tables(font: &[u8]) -> Option<Vec<([u8; 4], &[u8])>> {
    let count = usize::from(u16_at(font, 4)?);
    (0..count)
        .map(|i| {
            let rec = 12 + 16 * i;
            let tag: [u8; 4] = font.get(rec..rec + 4)?.try_into().ok()?;
            let offset = u32_at(font, rec + 8)? as usize;
            let length = u32_at(font, rec + 12)? as usize;
            Some((tag, font.get(offset..offset + length)?))
        })
        .collect()
}

fn table<'a>(all: &[([u8; 4], &'a [u8])], tag: &[u8; 4]) -> Option<&'a [u8]> {
    all.iter().find(|(t, _)| t == tag).map(|(_, b)| *b)
}

/// The glyph ids a composite glyph is built from.
fn components(glyph: &[u8]) -> Vec<u16> {
    const WORDS: u16 = 0x0001;
    const SCALE: u16 = 0x0008;
    const MORE: u16 = 0x0020;
    const XY_SCALE: u16 = 0x0040;
    const TWO_BY_TWO: u16 = 0x0080;
    let mut out = Vec::new();
    if glyph.len() < 10 || i16::from_be_bytes([glyph[0], glyph[1]]) >= 0 {
        return out; // empty or simple
    }
    let mut at = 10;
    while let (Some(flags), Some(id)) = (u16_at(glyph, at), u16_at(glyph, at + 2)) {
        out.push(id);
        at += 4 + if flags & WORDS != 0 { 4 } else { 2 };
        at += if flags & SCALE != 0 {
            2
        } else if flags & XY_SCALE != 0 {
            4
        } else if flags & TWO_BY_TWO != 0 {
            8
        } else {
            0
        };
        if flags & MORE == 0 {
            break;
        }
    }
    out
}

/// A `cmap` table that maps only `chars` (to their glyphs in the whole font): a Windows Unicode
/// BMP subtable (format 4, a segment per character), and a full-repertoire one (format 12) when
/// a character lies beyond the BMP. printpdf writes a width and a ToUnicode entry for every
/// character a font maps, so this keeps those tables to what the document draws too.
fn cmap(chars: &std::collections::BTreeMap<char, u16>) -> Vec<u8> {
    let bmp: Vec<(u16, u16)> = chars
        .iter()
        .filter_map(|(c, g)| Some((u16::try_from(u32::from(*c)).ok()?, *g)))
        .filter(|(c, _)| *c != 0xFFFF)
        .collect();
    let wide = bmp.len() < chars.len();
    let mut out = Vec::new();
    let push = |out: &mut Vec<u8>, v: u16| out.extend_from_slice(&v.to_be_bytes());
    // header and encoding records
    let tables: u16 = if wide { 2 } else { 1 };
    push(&mut out, 0);
    push(&mut out, tables);
    let first = 4 + 8 * u32::from(tables);
    let seg_count = bmp.len() + 1; // and the closing 0xFFFF segment
    let format4_len = 16 + 8 * seg_count;
    for (encoding, offset) in [(1u16, first), (10, first + format4_len as u32)]
        .into_iter()
        .take(usize::from(tables))
    {
        push(&mut out, 3);
        push(&mut out, encoding);
        out.extend_from_slice(&offset.to_be_bytes());
    }
    // format 4
    let entry_selector = (usize::BITS - 1 - seg_count.leading_zeros()) as u16;
    let search_range = 2u16 << entry_selector;
    for v in [
        4,
        format4_len as u16,
        0,
        2 * seg_count as u16,
        search_range,
        entry_selector,
        2 * seg_count as u16 - search_range,
    ] {
        push(&mut out, v);
    }
    let ends = bmp.iter().map(|(c, _)| *c).chain([0xFFFF]);
    ends.clone().for_each(|c| push(&mut out, c)); // endCode
    push(&mut out, 0); // reservedPad
    ends.for_each(|c| push(&mut out, c)); // startCode (one character a segment)
    for (c, g) in &bmp {
        push(&mut out, g.wrapping_sub(*c)); // idDelta
    }
    push(&mut out, 1);
    for _ in 0..seg_count {
        push(&mut out, 0); // idRangeOffset
    }
    // format 12, only when needed
    if wide {
        let groups = chars.len() as u32;
        push(&mut out, 12);
        push(&mut out, 0);
        for v in [16 + 12 * groups, 0, groups] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        for (c, g) in chars {
            for v in [u32::from(*c), u32::from(*c), u32::from(*g)] {
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
    }
    out
}

/// TrueType table checksum: the sum of its big-endian u32 words (zero-padded).
fn checksum(bytes: &[u8]) -> u32 {
    bytes.chunks(4).fold(0u32, |sum, c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        sum.wrapping_add(u32::from_be_bytes(w))
    })
}

/// `font` with the outlines of only the glyphs that `chars` map to (plus `.notdef` and every
/// component of a kept composite glyph). `None` when the bytes are not a TrueType font with
/// `glyf` outlines.
pub fn subset(font: &[u8], chars: impl IntoIterator<Item = char>) -> Option<Vec<u8>> {
    let face = ttf_parser::Face::parse(font, 0).ok()?;
    let all = tables(font)?;
    let head = table(&all, b"head")?;
    let glyf = table(&all, b"glyf")?;
    let loca = table(&all, b"loca")?;
    let glyphs = usize::from(face.number_of_glyphs());
    let long = i16::from_be_bytes(head.get(50..52)?.try_into().ok()?) == 1;
    let offset = |g: usize| -> Option<usize> {
        if long {
            u32_at(loca, 4 * g).map(|o| o as usize)
        } else {
            u16_at(loca, 2 * g).map(|o| 2 * usize::from(o))
        }
    };
    let outline = |g: usize| -> Option<&[u8]> { glyf.get(offset(g)?..offset(g + 1)?) };

    // The glyphs to keep: .notdef, those of the characters, and their components, recursively.
    let mapped: std::collections::BTreeMap<char, u16> = chars
        .into_iter()
        .filter_map(|c| Some((c, face.glyph_index(c)?.0)))
        .collect();
    let mut keep: BTreeSet<u16> = BTreeSet::from([0]);
    let mut todo: Vec<u16> = mapped.values().copied().collect();
    while let Some(g) = todo.pop() {
        if usize::from(g) < glyphs && keep.insert(g) {
            todo.extend(components(outline(usize::from(g))?));
        }
    }

    // New glyf and (long) loca: kept outlines, 4-byte aligned; the others empty.
    let mut new_glyf = Vec::new();
    let mut new_loca = Vec::with_capacity(4 * (glyphs + 1));
    for g in 0..glyphs {
        new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());
        if keep.contains(&(g as u16)) {
            new_glyf.extend_from_slice(outline(g)?);
            while new_glyf.len() % 4 != 0 {
                new_glyf.push(0);
            }
        }
    }
    new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());
    let mut new_head = head.to_vec();
    new_head[8..12].copy_from_slice(&[0; 4]); // checkSumAdjustment, set at the end
    new_head[50..52].copy_from_slice(&1i16.to_be_bytes()); // long loca
    // post version 3: no glyph names, the rest of the header as it was
    let mut new_post = table(&all, b"post")?.get(..32)?.to_vec();
    new_post[..4].copy_from_slice(&0x0003_0000u32.to_be_bytes());

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = all
        .iter()
        .filter(|(t, _)| !DROPPED.contains(&t))
        .map(|(t, b)| {
            let bytes = match t {
                b"glyf" => new_glyf.clone(),
                b"loca" => new_loca.clone(),
                b"head" => new_head.clone(),
                b"post" => new_post.clone(),
                b"cmap" => cmap(&mapped),
                _ => b.to_vec(),
            };
            (*t, bytes)
        })
        .collect();
    out_tables.sort_by_key(|(t, _)| *t);

    // Offset table, directory, tables (each 4-byte aligned).
    let n = out_tables.len() as u16;
    let entry_selector = 15 - n.leading_zeros() as u16; // floor(log2 n)
    let search_range = 16u16 << entry_selector;
    let mut out = Vec::new();
    out.extend_from_slice(&u32_at(font, 0)?.to_be_bytes());
    for v in [n, search_range, entry_selector, n * 16 - search_range] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    let mut at = 12 + 16 * out_tables.len();
    let mut body = Vec::new();
    for (tag, bytes) in &out_tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(bytes).to_be_bytes());
        out.extend_from_slice(&(at as u32).to_be_bytes());
        out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        body.extend_from_slice(bytes);
        while body.len() % 4 != 0 {
            body.push(0);
        }
        at = 12 + 16 * out_tables.len() + body.len();
    }
    out.extend_from_slice(&body);
    // head.checkSumAdjustment makes the whole file sum to 0xB1B0AFBA
    let head_at = 12 + 16 * out_tables.iter().position(|(t, _)| t == b"head")?;
    let head_offset = u32_at(&out, head_at + 8)? as usize;
    let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
    out[head_offset + 8..head_offset + 12].copy_from_slice(&adjustment.to_be_bytes());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttf_parser::{Face, GlyphId};

    const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerif.ttf");

    /// Whether glyph `g` of `face` has an outline (counted by its bounding box).
    fn drawn(face: &Face<'_>, g: u16) -> bool {
        face.glyph_bounding_box(GlyphId(g)).is_some()
    }

    #[test]
    fn keeps_what_the_text_uses_with_the_same_ids_and_metrics_and_drops_the_rest() {
        let text = "Multa: $ 1.087.500 — señora Peñaloza, Bogotá ← mayor valor";
        let bytes = subset(REGULAR, text.chars()).unwrap();
        let (full, sub) = (
            Face::parse(REGULAR, 0).unwrap(),
            Face::parse(&bytes, 0).unwrap(),
        );
        assert_eq!(sub.number_of_glyphs(), full.number_of_glyphs());
        assert_eq!(sub.units_per_em(), full.units_per_em());
        for c in text.chars() {
            let g = full.glyph_index(c).unwrap();
            assert_eq!(sub.glyph_index(c), Some(g), "{c}");
            assert_eq!(sub.glyph_hor_advance(g), full.glyph_hor_advance(g), "{c}");
            assert_eq!(sub.glyph_bounding_box(g), full.glyph_bounding_box(g), "{c}");
        }
        // a letter the text does not use is no longer mapped, and its glyph keeps its id and
        // width but loses its outline
        let z = full.glyph_index('Z').unwrap();
        assert_eq!(sub.glyph_index('Z'), None);
        assert!(drawn(&full, z.0) && !drawn(&sub, z.0));
        assert_eq!(sub.glyph_hor_advance(z), full.glyph_hor_advance(z));
        // far smaller than the whole font, and the same bytes every time
        assert!(bytes.len() * 4 < REGULAR.len(), "{} bytes", bytes.len());
        assert_eq!(subset(REGULAR, text.chars()).unwrap(), bytes);
        // the file checksum is what TrueType requires
        assert_eq!(checksum(&bytes), 0xB1B0_AFBA);
    }

    #[test]
    fn characters_beyond_the_bmp_get_a_full_unicode_subtable() {
        // DejaVu Serif has no glyph beyond the BMP: the cmap writer is checked on its own
        let chars: std::collections::BTreeMap<char, u16> =
            [('A', 36), ('ñ', 200), ('\u{1D400}', 3000)]
                .into_iter()
                .collect();
        let table = cmap(&chars);
        let parsed = ttf_parser::cmap::Table::parse(&table).unwrap();
        let subtables: Vec<_> = parsed.subtables.into_iter().collect();
        assert_eq!(subtables.len(), 2);
        for (c, g) in &chars {
            let found: Vec<_> = subtables
                .iter()
                .filter_map(|s| s.glyph_index(u32::from(*c)))
                .collect();
            assert!(!found.is_empty() && found.iter().all(|f| f.0 == *g), "{c}");
        }
        assert!(
            subtables
                .iter()
                .all(|s| s.glyph_index(u32::from('B')).is_none())
        );
    }

    #[test]
    fn a_composite_glyph_keeps_its_components() {
        let full = Face::parse(REGULAR, 0).unwrap();
        // find a composite glyph among the characters of a Spanish notice (accented letters
        // are built from a base letter and an accent in DejaVu)
        let all = tables(REGULAR).unwrap();
        let (glyf, loca) = (table(&all, b"glyf").unwrap(), table(&all, b"loca").unwrap());
        let long = table(&all, b"head").unwrap()[51] == 1;
        let outline = |g: u16| {
            let g = usize::from(g);
            let off = |i: usize| {
                if long {
                    u32_at(loca, 4 * i).unwrap() as usize
                } else {
                    2 * usize::from(u16_at(loca, 2 * i).unwrap())
                }
            };
            &glyf[off(g)..off(g + 1)]
        };
        let (c, parts) = "áéíóúñÁÉÍÓÚÑü"
            .chars()
            .map(|c| (c, components(outline(full.glyph_index(c).unwrap().0))))
            .find(|(_, parts)| !parts.is_empty())
            .expect("DejaVu builds some accented letters from components");
        let bytes = subset(REGULAR, [c]).unwrap();
        let sub = Face::parse(&bytes, 0).unwrap();
        for p in parts {
            assert!(drawn(&full, p) == drawn(&sub, p), "component {p} of {c}");
        }
        let g = full.glyph_index(c).unwrap();
        assert_eq!(sub.glyph_bounding_box(g), full.glyph_bounding_box(g));
    }
}
