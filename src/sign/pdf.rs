//! The PDF side of a signature: an incremental update appended to the finished file (the bytes
//! before it are left exactly as the PDF writer made them), and, to verify, the signature fields
//! of a file read back with their byte ranges.
//!
//! The update rewrites two objects and adds three: the catalog (now with an `/AcroForm` whose one
//! field is the signature), the first page (its `/Annots` gain the field's widget), the field and
//! widget in one object, the `/Sig` dictionary (`/ByteRange`, `/Contents` reserved as zeros,
//! `/M`, `/Reason`, `/Location`, `/Name`) and a cross-reference stream (vigia's PDFs end in one,
//! so the update keeps that form) chained to the previous one by `/Prev`.

use super::SignError;
use super::skeleton::{ObjectId, Skeleton};
use crate::pdf_read::{Dict, Obj, get};
use std::collections::HashMap;

/// Bytes reserved for the DER signature (hex doubles them in the file): room for a signer
/// certificate and a chain of four 4096-bit certificates.
pub(super) const CONTENTS_BYTES: usize = 16_384;
/// With a timestamp (PAdES B-T) the token adds the authority's certificate and chain: room for
/// as much again.
pub(super) const CONTENTS_BYTES_STAMPED: usize = 32_768;
/// Width of each number of the `/ByteRange` placeholder (a file under 10 GB).
const WIDTH: usize = 10;

/// What the `/Sig` dictionary says besides the signature itself.
pub(super) struct SigFields<'a> {
    pub(super) reason: &'a str,
    pub(super) location: &'a str,
    pub(super) name: &'a str,
    /// `D:YYYYMMDDHHmmSS-05'00'`
    pub(super) time: &'a str,
    /// the signatory's name and cargo, drawn in a visible block; `None`: an invisible field
    pub(super) block: Option<(&'a str, &'a str)>,
    /// bytes reserved for the DER signature
    pub(super) contents_bytes: usize,
}

/// The visible block's place on the first page, in points: the top right corner, inside the
/// top margin the PDF writer leaves empty (23 mm of a Letter page), right-aligned with the text.
const BLOCK: [i64; 4] = [350, 736, 550, 774];

/// A PDF literal string in WinAnsiEncoding (Latin-1 for the letters Spanish writes; any other
/// character becomes `?`), its delimiters escaped.
fn win_ansi(s: &str) -> Vec<u8> {
    let mut out = vec![b'('];
    for c in s.chars() {
        let b = u8::try_from(u32::from(c))
            .ok()
            .filter(|b| *b >= 0x20 && !(0x7F..0xA0).contains(b));
        match b {
            Some(b @ (b'(' | b')' | b'\\')) => out.extend_from_slice(&[b'\\', b]),
            Some(b) => out.push(b),
            None => out.push(b'?'),
        }
    }
    out.push(b')');
    out
}

/// The block's appearance: a thin frame, "Firmado digitalmente por", the name and the cargo.
fn appearance(name: &str, cargo: &str) -> Vec<u8> {
    let (w, h) = (BLOCK[2] - BLOCK[0], BLOCK[3] - BLOCK[1]);
    let mut content = format!(
        "q 0.4 G 0.5 w 0.5 0.5 {} {} re S Q BT /F1 7 Tf 6 {} Td ",
        w - 1,
        h - 1,
        h - 11
    )
    .into_bytes();
    content.extend_from_slice(&win_ansi("Firmado digitalmente por"));
    content.extend_from_slice(b" Tj /F2 8 Tf 0 -11 Td ");
    content.extend_from_slice(&win_ansi(name));
    content.extend_from_slice(b" Tj /F1 7 Tf 0 -10 Td ");
    content.extend_from_slice(&win_ansi(cargo));
    content.extend_from_slice(b" Tj ET");
    let font = |base: &str| {
        format!("<</Type/Font/Subtype/Type1/BaseFont/{base}/Encoding/WinAnsiEncoding>>")
    };
    let mut out = format!(
        "<</Type/XObject/Subtype/Form/BBox[0 0 {w} {h}]/Resources<</Font<</F1{}/F2{}>>>>/Length {}>>stream\n",
        font("Helvetica"),
        font("Helvetica-Bold"),
        content.len()
    )
    .into_bytes();
    out.extend_from_slice(&content);
    out.extend_from_slice(b"\nendstream");
    out
}

/// The update appended to a file of `base` bytes, its signature space reserved: `bytes` are the
/// appended bytes (a line end first when the file has none), `contents` the `<00…>` hex string's
/// place in the whole signed file, the `/ByteRange` already written around it.
pub(super) struct Prepared {
    pub(super) base: usize,
    pub(super) bytes: Vec<u8>,
    pub(super) contents: std::ops::Range<usize>,
}

impl Prepared {
    /// The update's signed bytes, after the file's: everything but the `/Contents` string.
    pub(super) fn signed_parts(&self) -> [&[u8]; 2] {
        [
            &self.bytes[..self.contents.start - self.base],
            &self.bytes[self.contents.end - self.base..],
        ]
    }

    /// Writes the DER signature into the reserved space (hex, padded with zeros): the update's
    /// bytes.
    pub(super) fn fill(mut self, der: &[u8]) -> Result<Vec<u8>, SignError> {
        if der.len() * 2 > self.contents.len() - 2 {
            return Err(SignError::TooLarge(
                der.len(),
                (self.contents.len() - 2) / 2,
            ));
        }
        let hex = hex_upper(der);
        let at = self.contents.start - self.base + 1;
        self.bytes[at..at + hex.len()].copy_from_slice(hex.as_bytes());
        Ok(self.bytes)
    }
}

fn hex_upper(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02X}");
        s
    })
}

fn not_pdf(why: &str) -> SignError {
    SignError::Pdf(why.to_string())
}

/// The incremental update that appends the signature field, widget and `/Sig` dictionary to the
/// file of `base` bytes whose skeleton is `doc`.
pub(super) fn prepare(
    doc: &Skeleton,
    base: usize,
    fields: &SigFields<'_>,
) -> Result<Prepared, SignError> {
    let (root, size, page) = (doc.root, doc.size, doc.page);
    let mut catalog = doc.catalog.clone();
    if get(&catalog, b"AcroForm").is_some() {
        // vigia's documents have no form; signing someone else's form is not this module's job
        return Err(not_pdf("the document already has a form"));
    }
    let mut page_dict = doc.page_dict.clone();
    let prev = doc.prev;

    let widget: ObjectId = (size, 0);
    let sig: ObjectId = (size + 1, 0);
    // the visible block's appearance stream, when there is one, then the cross-reference stream
    let ap: Option<ObjectId> = fields.block.map(|_| (size + 2, 0));
    let xref: ObjectId = (size + 2 + u32::from(ap.is_some()), 0);
    let mut annots = doc.annots.clone();
    annots.push(Obj::Ref(widget.0));
    set(&mut page_dict, b"Annots", Obj::Array(annots));
    let form = vec![
        (b"Fields".to_vec(), Obj::Array(vec![Obj::Ref(widget.0)])),
        (b"SigFlags".to_vec(), Obj::Int(3)),
    ];
    set(&mut catalog, b"AcroForm", Obj::Dict(form));
    let serialise = |o: &Obj| serialise(o, &doc.generations);

    // `out` holds the update; `at(out)` is where its end is in the whole file
    let mut out = Vec::new();
    if !doc.ends_in_newline {
        out.push(b'\n');
    }
    let at = |out: &Vec<u8>| base + out.len();
    let mut offsets: Vec<(ObjectId, usize)> = Vec::new();
    let mut object = |out: &mut Vec<u8>, id: ObjectId, body: &[u8]| {
        offsets.push((id, at(out)));
        out.extend_from_slice(format!("{} {} obj\n", id.0, id.1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    };
    object(&mut out, root, &serialise(&Obj::Dict(catalog)));
    object(&mut out, page, &serialise(&Obj::Dict(page_dict)));
    let (rect, ap_entry) = match ap {
        Some(id) => (
            format!("[{} {} {} {}]", BLOCK[0], BLOCK[1], BLOCK[2], BLOCK[3]),
            format!("/AP<</N {} 0 R>>", id.0),
        ),
        None => ("[0 0 0 0]".to_string(), String::new()),
    };
    let widget_body = format!(
        "<</Type/Annot/Subtype/Widget/FT/Sig/T{}/F 132/Rect{rect}{ap_entry}/P {} {} R/V {} 0 R>>",
        text_string("Firma"),
        page.0,
        page.1,
        sig.0
    );
    object(&mut out, widget, widget_body.as_bytes());
    if let (Some(id), Some((name, cargo))) = (ap, fields.block) {
        object(&mut out, id, &appearance(name, cargo));
    }
    let placeholder = format!("[0 {0:>WIDTH$} {0:>WIDTH$} {0:>WIDTH$}]", 0);
    let zeros = "0".repeat(fields.contents_bytes * 2);
    let sig_body = format!(
        "<</Type/Sig/Filter/Adobe.PPKLite/SubFilter/ETSI.CAdES.detached/ByteRange{placeholder}\
         /Contents<{zeros}>/M({})/Reason{}/Location{}/Name{}>>",
        fields.time,
        text_string(fields.reason),
        text_string(fields.location),
        text_string(fields.name),
    );
    let sig_at = out.len();
    object(&mut out, sig, sig_body.as_bytes());
    let header = format!("{} 0 obj\n", sig.0).len();
    let range_at = sig_at + header + sig_body.find("/ByteRange").expect("written above") + 10;
    let contents_start =
        base + sig_at + header + sig_body.find("/Contents<").expect("written above") + 9;
    let contents = contents_start..contents_start + zeros.len() + 2;

    // the cross-reference stream: /W [1 4 2], one subsection per object, in number order
    let xref_at = at(&out);
    offsets.push((xref, xref_at));
    offsets.sort_by_key(|(id, _)| id.0);
    let mut index = String::new();
    let mut data = Vec::new();
    for ((number, generation), offset) in &offsets {
        index.push_str(&format!("{number} 1 "));
        let offset = u32::try_from(*offset).map_err(|_| not_pdf("a file over 4 GB"))?;
        let generation = *generation;
        data.push(1);
        data.extend_from_slice(&offset.to_be_bytes());
        data.extend_from_slice(&generation.to_be_bytes());
    }
    let mut trailer = format!(
        "<</Type/XRef/Size {}/Index[{}]/W[1 4 2]/Root {} {} R/Prev {prev}/Length {}",
        xref.0 + 1,
        index.trim_end(),
        root.0,
        root.1,
        data.len()
    );
    for (key, value) in [("Info", &doc.info), ("ID", &doc.id)] {
        if let Some(value) = value {
            trailer.push('/');
            trailer.push_str(key);
            trailer.push_str(&String::from_utf8_lossy(&serialise(value)));
        }
    }
    trailer.push_str(">>stream\n");
    out.extend_from_slice(format!("{} 0 obj\n", xref.0).as_bytes());
    out.extend_from_slice(trailer.as_bytes());
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    out.extend_from_slice(format!("startxref\n{xref_at}\n%%EOF\n").as_bytes());

    let range = format!(
        "[0 {:>WIDTH$} {:>WIDTH$} {:>WIDTH$}]",
        contents.start,
        contents.end,
        at(&out) - contents.end
    );
    assert_eq!(
        range.len(),
        placeholder.len(),
        "the byte range fits its space"
    );
    out[range_at..range_at + range.len()].copy_from_slice(range.as_bytes());
    Ok(Prepared {
        base,
        bytes: out,
        contents,
    })
}

/// A text string as PDF readers read it: UTF-16BE with its byte order mark, in hex.
fn text_string(s: &str) -> String {
    let units: String = s.encode_utf16().map(|u| format!("{u:04X}")).collect();
    format!("<FEFF{units}>")
}

/// `key` in `dict` set to `value`, last (where it was is dropped: the order the update's bytes
/// have always had).
fn set(dict: &mut Dict, key: &[u8], value: Obj) {
    dict.retain(|(k, _)| k != key);
    dict.push((key.to_vec(), value));
}

/// One object written back in PDF syntax (strings in hex, names escaped, each reference with
/// its object's generation: 0 but where `generations` says otherwise).
pub(super) fn serialise(object: &Obj, generations: &HashMap<u32, u16>) -> Vec<u8> {
    let mut out = Vec::new();
    write_object(&mut out, object, generations);
    out
}

fn write_object(out: &mut Vec<u8>, object: &Obj, generations: &HashMap<u32, u16>) {
    match object {
        Obj::Null => out.extend_from_slice(b" null"),
        Obj::Bool(b) => out.extend_from_slice(if *b { b" true" } else { b" false" }),
        Obj::Int(n) => out.extend_from_slice(format!(" {n}").as_bytes()),
        Obj::Real(r) => out.extend_from_slice(format!(" {r}").as_bytes()),
        Obj::Name(name) => write_name(out, name),
        Obj::Str(bytes) => {
            out.push(b'<');
            out.extend_from_slice(hex_upper(bytes).as_bytes());
            out.push(b'>');
        }
        Obj::Array(items) => {
            out.push(b'[');
            for item in items {
                write_object(out, item, generations);
            }
            out.push(b']');
        }
        Obj::Dict(dict) => {
            out.extend_from_slice(b"<<");
            for (key, value) in dict {
                write_name(out, key);
                write_object(out, value, generations);
            }
            out.extend_from_slice(b">>");
        }
        Obj::Ref(n) => {
            let g = generations.get(n).copied().unwrap_or(0);
            out.extend_from_slice(format!(" {n} {g} R").as_bytes());
        }
    }
}

fn write_name(out: &mut Vec<u8>, name: &[u8]) {
    out.push(b'/');
    for &c in name {
        let regular = c.is_ascii_graphic() && !b"()<>[]{}/%#".contains(&c);
        if regular {
            out.push(c);
        } else {
            out.extend_from_slice(format!("#{c:02X}").as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::notice::Block;
    use sha2::{Digest, Sha256};

    fn acta(rows: usize) -> Vec<u8> {
        let blocks = vec![
            Block::Title("ACTA DE ADJUDICACIÓN".into()),
            Block::Table {
                header: vec!["Aceptante".into(), "Acciones".into()],
                rows: (0..rows)
                    .map(|i| vec![format!("Aceptante (número {i})"), format!("{}", i * 7)])
                    .collect(),
                right: vec![false, true],
            },
        ];
        crate::report::pdf::render(&blocks, "Acta", "ACTA-1", (2025, 2, 10))
    }

    fn update(pdf: &[u8], block: Option<(&str, &str)>) -> String {
        let fields = SigFields {
            reason: "Acta de adjudicación",
            location: "Bogotá D.C., Colombia",
            name: "Laura Gómez",
            time: "D:20250211093000-05'00'",
            block,
            contents_bytes: CONTENTS_BYTES,
        };
        let skeleton =
            super::super::skeleton::read(pdf.len() as u64, &super::super::read_slice(pdf)).unwrap();
        let prepared = prepare(&skeleton, pdf.len(), &fields).unwrap();
        let hex: String = Sha256::digest(&prepared.bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        hex
    }

    /// The update's bytes (all a signature adds but the DER it fills in) for vigia's own PDFs,
    /// pinned to what the update written from lopdf's reading, then from `skeleton`'s own
    /// reader, gave: the signed bytes of a document do not change with the reader.
    #[test]
    fn the_update_of_vigias_own_pdfs_keeps_its_bytes() {
        let one = acta(3);
        let many = acta(3000);
        assert_eq!(
            [
                update(&one, None),
                update(&one, Some(("Laura Gómez", "Jefe · 52.123.456"))),
                update(&many, Some(("Laura Gómez", "Jefe"))),
            ],
            [
                "1ec531b01fdeb24cfae7d555ded28b819f5506097ff179b3beebf117a3f1a5b6",
                "3229c285974ea32a666126a43ca0f8629a60c4045f536f9e0d27f2e1b251b859",
                "cff4c7bb0b1080743dfcff0405f0324f167467ef639d1599c5351f93cc2b4609",
            ]
        );
    }
}
