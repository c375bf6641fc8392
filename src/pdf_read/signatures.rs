//! The signature fields of a PDF read from its file (`Doc::signature_fields`): the dictionaries
//! `sign` verifies ([`SignatureField`]), found through the latest revision's catalogue (its `/AcroForm`, each field
//! whose type is `/Sig`, its value), as `sign` finds them in a file in memory; only those
//! objects are read, so a signed million-row acta is verified without loading it.

use super::{Doc, MAX_TOKENS, Obj, Result, get};

/// A signature found in a file: its dictionary's entries and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureField {
    /// `/ByteRange` as written: `[a, b, c, d]`
    pub byte_range: Vec<i64>,
    /// the DER inside `/Contents` (with its zero padding)
    pub contents: Vec<u8>,
    /// `/M`, `/Reason`, `/Location`, as text ([`decode_text`])
    pub time: Option<String>,
    pub reason: Option<String>,
    pub location: Option<String>,
    pub sub_filter: Option<String>,
}

/// A PDF text string: UTF-16BE after its byte order mark, else PDFDocEncoding (read as Latin-1,
/// which it matches for the characters vigia writes).
pub fn decode_text(bytes: &[u8]) -> String {
    match bytes.strip_prefix(&[0xFE, 0xFF]) {
        Some(utf16) => {
            let units: Vec<u16> = utf16
                .chunks_exact(2)
                .map(|p| u16::from_be_bytes([p[0], p[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        None => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// At most this many fields are looked at (vigia's documents carry one or two signatures).
const MAX_FIELDS: usize = 1000;

impl Doc<'_> {
    /// Every signature field of the form of the latest revision, in the form's order, with its
    /// value's entries: none for a document without a form.
    pub fn signature_fields(&self) -> Result<Vec<SignatureField>> {
        self.tokens.set(MAX_TOKENS);
        let root =
            self.dict(get(&self.trailer, b"Root").ok_or(super::Unreadable::Damaged("no /Root"))?)?;
        let Some(form) = get(&root, b"AcroForm") else {
            return Ok(Vec::new());
        };
        let Obj::Dict(form) = self.resolve(form)? else {
            return Ok(Vec::new());
        };
        let fields = match get(&form, b"Fields").map(|f| self.resolve(f)).transpose()? {
            Some(Obj::Array(a)) => a,
            _ => Vec::new(),
        };
        let text = |d: &super::Dict, key: &[u8]| -> Result<Option<String>> {
            Ok(match get(d, key).map(|o| self.resolve(o)).transpose()? {
                Some(Obj::Str(bytes)) => Some(decode_text(&bytes)),
                _ => None,
            })
        };
        let mut found = Vec::new();
        for field in fields.iter().take(MAX_FIELDS) {
            let Obj::Dict(field) = self.resolve(field)? else {
                continue;
            };
            if !matches!(get(&field, b"FT"), Some(Obj::Name(n)) if n == b"Sig") {
                continue;
            }
            let Some(Obj::Dict(sig)) = get(&field, b"V").map(|v| self.resolve(v)).transpose()?
            else {
                continue;
            };
            let byte_range = match get(&sig, b"ByteRange")
                .map(|r| self.resolve(r))
                .transpose()?
            {
                Some(Obj::Array(a)) => a
                    .iter()
                    .filter_map(|n| match n {
                        Obj::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let contents = match get(&sig, b"Contents")
                .map(|c| self.resolve(c))
                .transpose()?
            {
                Some(Obj::Str(bytes)) => bytes,
                _ => Vec::new(),
            };
            found.push(SignatureField {
                byte_range,
                contents,
                time: text(&sig, b"M")?,
                reason: text(&sig, b"Reason")?,
                location: text(&sig, b"Location")?,
                sub_filter: match get(&sig, b"SubFilter") {
                    Some(Obj::Name(n)) => Some(String::from_utf8_lossy(n).into_owned()),
                    _ => None,
                },
            });
        }
        Ok(found)
    }
}
