//! A PDF's drawn text read and changed through its fonts' ToUnicode maps, independently of
//! vigia's own reader: how the tests read a page's strings back and forge a figure inside a
//! page's content, as someone editing the file would.

use printpdf::lopdf;
use std::collections::HashMap;

/// gid → text, from the ToUnicode CMaps of every font in the PDF.
pub fn to_unicode(doc: &lopdf::Document) -> HashMap<Vec<u8>, HashMap<u16, String>> {
    let mut out = HashMap::new();
    for (_, page) in doc.get_pages() {
        let (direct, referenced) = doc.get_page_resources(page);
        let mut dicts: Vec<&lopdf::Dictionary> = direct.into_iter().collect();
        dicts.extend(
            referenced
                .into_iter()
                .map(|id| doc.get_dictionary(id).unwrap()),
        );
        for res in dicts {
            let Ok(fonts) = res
                .get(b"Font")
                .and_then(|f| doc.dereference(f))
                .and_then(|(_, o)| o.as_dict())
            else {
                continue;
            };
            for (name, f) in fonts.iter() {
                let font = doc.dereference(f).unwrap().1.as_dict().unwrap();
                let cmap = doc
                    .dereference(font.get(b"ToUnicode").unwrap())
                    .unwrap()
                    .1
                    .as_stream()
                    .unwrap();
                let text = String::from_utf8_lossy(
                    &cmap
                        .decompressed_content()
                        .unwrap_or_else(|_| cmap.content.clone()),
                )
                .into_owned();
                let mut map = HashMap::new();
                for line in text.lines() {
                    let parts: Vec<&str> = line.split_whitespace().collect();
                    if parts.len() == 2 && parts[0].starts_with('<') && parts[1].starts_with('<') {
                        let gid = u16::from_str_radix(
                            parts[0].trim_matches(|c| c == '<' || c == '>'),
                            16,
                        )
                        .unwrap();
                        let cp = u32::from_str_radix(
                            parts[1].trim_matches(|c| c == '<' || c == '>'),
                            16,
                        )
                        .unwrap();
                        if let Some(c) = char::from_u32(cp) {
                            map.insert(gid, c.to_string());
                        }
                    }
                }
                out.insert(name.clone(), map);
            }
        }
    }
    out
}

/// A drawn string's text: its two-byte glyph ids through the font's map.
pub fn decoded(map: &HashMap<u16, String>, glyphs: &[u8]) -> String {
    glyphs
        .chunks(2)
        .map(|p| {
            map.get(&(u16::from(p[0]) << 8 | u16::from(p[1])))
                .cloned()
                .unwrap_or_default()
        })
        .collect()
}

/// `pdf` with the first string it draws that contains `from` drawn with `to` in its place (as
/// many characters, each one the font draws somewhere in the document), re-saved; panics when
/// no string contains `from`.
pub fn text_changed(pdf: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.chars().count(), to.chars().count(), "{from} → {to}");
    let mut doc = lopdf::Document::load_mem(pdf).unwrap();
    let maps = to_unicode(&doc);
    let glyph_of = |map: &HashMap<u16, String>, c: char| {
        *map.iter()
            .find(|(_, v)| v.chars().eq([c]))
            .unwrap_or_else(|| panic!("the font draws no {c:?}"))
            .0
    };
    let mut changed = false;
    for (_, page) in doc.get_pages() {
        let mut content = doc.get_and_decode_page_content(page).unwrap();
        let mut font: Vec<u8> = Vec::new();
        for op in content.operations.iter_mut() {
            if op.operator == "Tf" {
                font = op.operands[0].as_name().unwrap().to_vec();
            }
            if op.operator != "Tj" || changed {
                continue;
            }
            let map = &maps[&font];
            if let lopdf::Object::String(b, _) = &mut op.operands[0] {
                let text = decoded(map, b);
                let Some(at) = text.find(from) else {
                    continue;
                };
                let start = text[..at].chars().count();
                for (k, c) in to.chars().enumerate() {
                    let g = glyph_of(map, c);
                    b[(start + k) * 2] = (g >> 8) as u8;
                    b[(start + k) * 2 + 1] = (g & 0xff) as u8;
                }
                changed = true;
            }
        }
        if changed {
            doc.change_page_content(page, content.encode().unwrap())
                .unwrap();
            break;
        }
    }
    assert!(changed, "no drawn string contains {from:?}");
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}
