//! The few objects of a finished PDF its signature's incremental update needs (the trailer, the
//! catalog, the first page and its annotations), read with the one PDF reader
//! (`pdf_read::Doc`) where the cross-references say they are, a window of the file at a time:
//! signing a million acceptances' acta (264 MB) holds its cross-references and these objects,
//! not the file. Whatever cross-references the reader knows: a table or a stream (predicted or
//! not), objects in object streams, a `/Prev` chain.

use super::{ReadAt, SignError};
use crate::pdf_read::{Dict, Doc, MAX_OBJECT, Obj, Unreadable, get};
use std::collections::HashMap;

/// An object's number and generation.
pub(super) type ObjectId = (u32, u16);

/// What the update is written from.
pub(super) struct Skeleton {
    pub(super) root: ObjectId,
    /// the trailer's `/Size`
    pub(super) size: u32,
    pub(super) catalog: Dict,
    pub(super) page: ObjectId,
    pub(super) page_dict: Dict,
    /// the first page's `/Annots`, read through a reference when it is one (empty without)
    pub(super) annots: Vec<Obj>,
    /// the trailer's `/Info` and `/ID`, when it has them
    pub(super) info: Option<Obj>,
    pub(super) id: Option<Obj>,
    /// the offset the last `startxref` gives
    pub(super) prev: usize,
    /// whether the file ends with a line end
    pub(super) ends_in_newline: bool,
    /// the generation numbers other than 0 of the objects these name (a reference is written
    /// back with its object's generation)
    pub(super) generations: HashMap<u32, u16>,
}

/// Page tree levels descended.
const MAX_LEVELS: usize = 64;

fn not_pdf(why: &str) -> SignError {
    SignError::Pdf(why.to_string())
}

fn unreadable(e: Unreadable) -> SignError {
    SignError::Pdf(e.to_string())
}

/// Reads the skeleton of the PDF of `len` bytes that `read` reads.
pub(super) fn read(len: u64, read: &ReadAt<'_>) -> Result<Skeleton, SignError> {
    let doc = Doc::read_at(read, len).map_err(unreadable)?;
    let trailer = doc.trailer();
    let reference = |o: Option<&Obj>| match o {
        Some(Obj::Ref(n)) => Some((*n, doc.generation(*n))),
        _ => None,
    };
    let root =
        reference(get(trailer, b"Root")).ok_or_else(|| not_pdf("the trailer names no catalog"))?;
    let size = match get(trailer, b"Size") {
        Some(Obj::Int(n)) => u32::try_from(*n).ok(),
        _ => None,
    }
    .ok_or_else(|| not_pdf("the trailer has no /Size"))?;
    // the update's objects take the numbers after every one in use: a /Size at or below an
    // object's number would make the update replace that object
    let size = doc
        .highest_object()
        .and_then(|h| h.checked_add(1))
        .map_or(size, |next| next.max(size));
    if size > MAX_OBJECT - 4 {
        return Err(not_pdf(
            "the document has too many objects to add a signature",
        ));
    }
    let dictionary = |id: ObjectId, what: &str| match doc.resolve(&Obj::Ref(id.0)) {
        Ok(Obj::Dict(d)) => Ok(d),
        Ok(_) => Err(not_pdf(what)),
        Err(e) => Err(unreadable(e)),
    };
    let catalog = dictionary(root, "the catalog is not a dictionary")?;
    // the first page, as a depth-first walk of the page tree meets it
    let no_page = || not_pdf("the document has no page");
    let mut page = reference(get(&catalog, b"Pages")).ok_or_else(no_page)?;
    let mut levels = 0;
    let page_dict = loop {
        levels += 1;
        if levels > MAX_LEVELS {
            return Err(not_pdf("the page tree is too deep"));
        }
        let node = dictionary(page, "the page tree's node is not a dictionary")?;
        match get(&node, b"Type") {
            Some(Obj::Name(t)) if t == b"Page" => break node,
            Some(Obj::Name(t)) if t == b"Pages" => {}
            _ => return Err(no_page()),
        }
        page = match get(&node, b"Kids").map(|k| doc.resolve(k)) {
            Some(Ok(Obj::Array(kids))) => reference(kids.first()).ok_or_else(no_page)?,
            Some(Err(e)) => return Err(unreadable(e)),
            _ => return Err(no_page()),
        };
    };
    let annots = match get(&page_dict, b"Annots") {
        Some(Obj::Array(a)) => a.clone(),
        Some(o @ Obj::Ref(_)) => match doc.resolve(o).map_err(unreadable)? {
            Obj::Array(a) => a,
            _ => return Err(not_pdf("the page's /Annots is not an array")),
        },
        _ => Vec::new(),
    };
    let mut last = [0u8; 1];
    if len > 0 {
        read(len - 1, &mut last)
            .map_err(|e| SignError::Pdf(format!("the file could not be read: {e}")))?;
    }
    let mut skeleton = Skeleton {
        root,
        size,
        catalog,
        page,
        page_dict,
        annots,
        info: get(trailer, b"Info").cloned(),
        id: get(trailer, b"ID").cloned(),
        prev: doc.startxref(),
        ends_in_newline: len > 0 && last[0] == b'\n',
        generations: HashMap::new(),
    };
    let mut named = Vec::new();
    for o in [
        Obj::Dict(skeleton.catalog.clone()),
        Obj::Dict(skeleton.page_dict.clone()),
        Obj::Array(skeleton.annots.clone()),
    ]
    .iter()
    .chain(skeleton.info.iter())
    .chain(skeleton.id.iter())
    {
        references(o, &mut named);
    }
    skeleton.generations = named
        .into_iter()
        .map(|n| (n, doc.generation(n)))
        .filter(|&(_, g)| g != 0)
        .collect();
    Ok(skeleton)
}

/// The objects `o` refers to (the reader has bounded its nesting).
fn references(o: &Obj, out: &mut Vec<u32>) {
    match o {
        Obj::Ref(n) => out.push(*n),
        Obj::Array(items) => items.iter().for_each(|i| references(i, out)),
        Obj::Dict(d) => d.iter().for_each(|(_, v)| references(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::pdf::serialise;
    use super::*;
    use crate::report::notice::Block;
    use printpdf::lopdf::{self, Object};

    fn skeleton(pdf: &[u8]) -> Result<Skeleton, SignError> {
        read(pdf.len() as u64, &super::super::read_slice(pdf))
    }

    /// An object as lopdf read it, written as `serialise` writes the reader's.
    fn lopdf_bytes(o: &Object) -> Vec<u8> {
        let name = |n: &[u8]| serialise(&Obj::Name(n.to_vec()), &HashMap::new());
        match o {
            Object::Array(items) => {
                let mut out = b"[".to_vec();
                items.iter().for_each(|i| out.extend(lopdf_bytes(i)));
                out.push(b']');
                out
            }
            Object::Dictionary(d) => {
                let mut out = b"<<".to_vec();
                for (k, v) in d.iter() {
                    out.extend(name(k));
                    out.extend(lopdf_bytes(v));
                }
                out.extend(b">>");
                out
            }
            Object::Reference((n, g)) => format!(" {n} {g} R").into_bytes(),
            Object::Name(n) => name(n),
            Object::String(s, _) => serialise(&Obj::Str(s.clone()), &HashMap::new()),
            Object::Integer(n) => format!(" {n}").into_bytes(),
            Object::Real(r) => format!(" {r}").into_bytes(),
            Object::Boolean(b) => format!(" {b}").into_bytes(),
            Object::Null => b" null".to_vec(),
            Object::Stream(_) => panic!("no stream is written back"),
        }
    }

    /// What lopdf, reading the whole file, gives for each part of the skeleton.
    fn agrees_with_lopdf(pdf: &[u8]) {
        let s = skeleton(pdf).unwrap();
        let ours = |o: Obj| serialise(&o, &s.generations);
        let doc = lopdf::Document::load_mem(pdf).unwrap();
        let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
        assert_eq!(s.root, root);
        assert_eq!(
            i64::from(s.size),
            doc.trailer.get(b"Size").unwrap().as_i64().unwrap()
        );
        let dict = |id| lopdf_bytes(&Object::Dictionary(doc.get_dictionary(id).unwrap().clone()));
        assert_eq!(ours(Obj::Dict(s.catalog.clone())), dict(root));
        let page = *doc.get_pages().values().next().unwrap();
        assert_eq!(s.page, page);
        assert_eq!(ours(Obj::Dict(s.page_dict.clone())), dict(page));
        let annots = match doc.get_dictionary(page).unwrap().get(b"Annots") {
            Ok(a) => lopdf_bytes(a),
            Err(_) => b"[]".to_vec(),
        };
        assert_eq!(ours(Obj::Array(s.annots.clone())), annots);
        for (key, mine) in [(&b"Info"[..], &s.info), (b"ID", &s.id)] {
            assert_eq!(
                mine.clone().map(ours),
                doc.trailer.get(key).ok().map(lopdf_bytes)
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
        agrees_with_lopdf(&many);
        let doc = lopdf::Document::load_mem(&many).unwrap();
        assert!(doc.get_pages().len() > 50, "{}", doc.get_pages().len());
    }

    /// Other writers' PDFs (`tests/fixtures/sign/other_writers.py`): a cross-reference table
    /// (with a page tree of generation 1 too), and a catalog and pages inside an object stream with
    /// predicted, compressed cross-references.
    #[test]
    fn other_writers_cross_reference_tables_and_object_streams_read_as_lopdf_reads_them() {
        let classic = include_bytes!("../../tests/fixtures/sign/classic.pdf");
        agrees_with_lopdf(classic);
        assert!(skeleton(classic).unwrap().info.is_some());
        let generations = include_bytes!("../../tests/fixtures/sign/generations.pdf");
        agrees_with_lopdf(generations);
        let s = skeleton(generations).unwrap();
        assert_eq!((s.page, s.generations.get(&2)), ((3, 1), Some(&1)));
        let packed = include_bytes!("../../tests/fixtures/sign/objstm.pdf");
        agrees_with_lopdf(packed);
        let s = skeleton(packed).unwrap();
        assert_eq!((s.root, s.page), ((2, 0), (4, 0)));
    }

    #[test]
    fn a_size_below_an_objects_number_does_not_let_the_update_reuse_that_number() {
        let classic = include_bytes!("../../tests/fixtures/sign/classic.pdf");
        assert_eq!(skeleton(classic).unwrap().size, 7);
        // the same file claiming /Size 3 (same length, so every offset still holds): objects
        // 3 to 6 exist, so the update's must start at 7, not at 3 (the page)
        let swap = |from: &[u8], to: &[u8]| {
            let at = classic.windows(from.len()).position(|w| w == from).unwrap();
            [&classic[..at], to, &classic[at + from.len()..]].concat()
        };
        let low = &swap(b"/Size 7/", b"/Size 3/")[..];
        assert_eq!(low.len(), classic.len());
        assert_eq!(skeleton(low).unwrap().size, 7);
        // an object number above the most a PDF may have is refused, not allocated for
        let huge = &swap(b"xref\n0 7\n", b"xref\n8388607 7\n")[..];
        assert!(huge.len() > classic.len());
        let e = skeleton(huge).err().expect("refused");
        assert!(e.to_string().contains("8,388,607"), "{e}");
        // an update's free entries past its /Size (one above the most a PDF may have, one at
        // the last u32) free nothing: the update's objects still start at 7
        for stray in [7, 8_388_608, u32::MAX] {
            let update = format!(
                "xref\n{stray} 1\n0000000000 00001 f \ntrailer\n<</Size 7/Root 1 0 R/Prev 443>>\nstartxref\n{}\n%%EOF\n",
                classic.len()
            );
            let freed = [&classic[..], update.as_bytes()].concat();
            assert_eq!(skeleton(&freed).unwrap().size, 7, "{stray}");
        }
    }

    #[test]
    fn a_signed_file_is_read_through_its_prev_chain_its_latest_catalog_and_page_winning() {
        let generations = include_bytes!("../../tests/fixtures/sign/generations.pdf");
        let one = crate::report::pdf::render(&table(3), "Acta", "ACTA-1", (2025, 2, 10));
        for pdf in [&one[..], &generations[..]] {
            let base = skeleton(pdf).unwrap();
            let fields = super::super::pdf::SigFields {
                reason: "Acta",
                location: "Colombia",
                name: "Laura",
                time: "D:20250211093000-05'00'",
                block: Some(("Laura", "Jefe")),
                contents_bytes: 64,
            };
            let update = super::super::pdf::prepare(&base, pdf.len(), &fields).unwrap();
            let mut signed = pdf.to_vec();
            signed.extend_from_slice(&update.bytes);
            agrees_with_lopdf(&signed);
            let again = skeleton(&signed).unwrap();
            assert!(get(&again.catalog, b"AcroForm").is_some());
            assert_eq!(
                serialise(&Obj::Array(again.annots.clone()), &again.generations),
                format!("[ {} 0 R]", base.size).into_bytes()
            );
            // a second signature is refused: vigia signs no form
            assert!(super::super::pdf::prepare(&again, signed.len(), &fields).is_err());
        }
    }
}
