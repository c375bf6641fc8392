//! TrueType subsetting for the PDF notices: a font keeps the outlines of the glyphs a document
//! uses (and the components they are built from) and loses the rest, so a notice embeds a few
//! kilobytes of font instead of the whole of DejaVu Serif (about 480 KB a notice before).
//!
//! The subset keeps every glyph id: unused glyphs become empty (zero-length in `loca`), and the
//! `cmap`, metrics and hinting tables are kept as they are, so text is encoded, measured and read
//! back ([`super::pdf::extract_text`]) exactly as with the whole font. Tables a PDF viewer never
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
    let mut keep: BTreeSet<u16> = BTreeSet::from([0]);
    let mut todo: Vec<u16> = chars
        .into_iter()
        .filter_map(|c| face.glyph_index(c).map(|g| g.0))
        .collect();
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
        // a letter the text does not use keeps its id and width but loses its outline
        let z = full.glyph_index('Z').unwrap();
        assert!(drawn(&full, z.0) && !drawn(&sub, z.0));
        assert_eq!(sub.glyph_hor_advance(z), full.glyph_hor_advance(z));
        // far smaller than the whole font, and the same bytes every time
        assert!(bytes.len() * 4 < REGULAR.len(), "{} bytes", bytes.len());
        assert_eq!(subset(REGULAR, text.chars()).unwrap(), bytes);
        // the file checksum is what TrueType requires
        assert_eq!(checksum(&bytes), 0xB1B0_AFBA);
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
