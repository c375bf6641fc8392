//! What a file handed to vigia as text really is: UTF-8 (with or without BOM), Windows-1252, or
//! something that is not text at all (an Excel workbook, a PDF, a zip) named as such; and the
//! line a person sees in an editor for a CSV record. Pure: bytes in, text or a reason (in English
//! and Spanish) out.

use crate::lang::Said;
use crate::said;
use std::borrow::Cow;
use std::fmt;

/// A file that is not text, recognised by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    /// Office Open XML workbook (`.xlsx`): a zip holding `xl/`.
    Xlsx,
    /// OpenDocument spreadsheet (`.ods`, LibreOffice).
    Ods,
    /// Any other zip archive (`.zip`, `.docx` ...).
    Zip,
    /// OLE compound file: an Excel 97–2003 workbook (`.xls`) or another old Office document.
    Xls,
    Pdf,
    /// UTF-16 text (Excel's "Unicode Text"), which has a NUL in every other byte.
    Utf16,
    /// Many NUL bytes near the start: some other binary file.
    Other,
}

impl Binary {
    /// What the file is, in words.
    pub fn describe(self) -> Said {
        let (en, es) = match self {
            Binary::Xlsx => (
                "an Excel workbook (.xlsx), not a CSV file",
                "un libro de Excel (.xlsx), no un archivo CSV",
            ),
            Binary::Ods => (
                "a LibreOffice spreadsheet (.ods), not a CSV file",
                "una hoja de cálculo de LibreOffice (.ods), no un archivo CSV",
            ),
            Binary::Zip => (
                "a zip archive, not a text file",
                "un archivo comprimido zip, no un archivo de texto",
            ),
            Binary::Xls => (
                "an Excel 97-2003 workbook (.xls) or another old Office document, not a CSV file",
                "un libro de Excel 97-2003 (.xls) u otro documento antiguo de Office, no un \
                 archivo CSV",
            ),
            Binary::Pdf => (
                "a PDF document, not a text file",
                "un documento PDF, no un archivo de texto",
            ),
            Binary::Utf16 => (
                "UTF-16 text (Excel's \"Unicode Text\"), not UTF-8",
                "texto UTF-16 (el «Texto Unicode» de Excel), no UTF-8",
            ),
            Binary::Other => (
                "a binary file (it contains NUL bytes), not a text file",
                "un archivo binario (contiene bytes NUL), no un archivo de texto",
            ),
        };
        Said::new(en, es)
    }

    /// What to do instead, for a CSV the person exported from a spreadsheet.
    pub fn remedy(self) -> Said {
        let (en, es) = match self {
            Binary::Xlsx | Binary::Xls | Binary::Ods | Binary::Utf16 => (
                "open it in the spreadsheet, save it as \"CSV UTF-8 (Comma delimited)\" or \"CSV (separado por punto y coma)\" and import that file",
                "ábralo en la hoja de cálculo, guárdelo como «CSV UTF-8 (delimitado por comas)» o \
                 «CSV (separado por punto y coma)» e importe ese archivo",
            ),
            Binary::Zip => (
                "extract the CSV file from it and give that file",
                "extraiga de él el archivo CSV y entregue ese archivo",
            ),
            Binary::Pdf => (
                "vigia cannot read figures out of a PDF: type them into a CSV file (or, for a certified rate, add its period with its figures)",
                "vigia no puede leer cifras de un PDF: escríbalas en un archivo CSV (o, si es una \
                 tasa certificada, agréguela en «Tasas»)",
            ),
            Binary::Other => (
                "give the CSV (or TOML) text file itself",
                "entregue el propio archivo de texto CSV (o TOML)",
            ),
        };
        Said::new(en, es)
    }
}

/// Why bytes given as text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotText {
    Binary(Binary),
    /// A byte that is not UTF-8 where UTF-8 is required (`bom`: the file starts with a UTF-8
    /// byte-order mark, so the rest must be UTF-8 too). Line and column are 1-based; the column
    /// counts characters.
    BadUtf8 {
        line: usize,
        column: usize,
        byte: u8,
        bom: bool,
    },
}

impl NotText {
    /// Why, in English and Spanish.
    pub fn said(&self) -> Said {
        match self {
            NotText::Binary(b) => {
                let (what, remedy) = (b.describe(), b.remedy());
                let (what_es, remedy_es) = (what.es(), remedy.es());
                said!(core::this, what, remedy, what_es, remedy_es)
            }
            NotText::BadUtf8 {
                line,
                column,
                byte,
                bom,
            } => {
                let as_1252 = (*byte >= 0xA0).then(|| char::from(*byte));
                let (hint, pista) = match as_1252 {
                    Some(c) => (
                        format!(" (in Windows-1252 it would be {c:?})"),
                        format!(" (en Windows-1252 sería «{c}»)"),
                    ),
                    None => (String::new(), String::new()),
                };
                if *bom {
                    said!(
                        core::line_column_byte_0x_not_utf,
                        line,
                        column,
                        byte,
                        hint,
                        pista
                    )
                } else {
                    said!(
                        core::line_column_byte_0x_not_utf_2,
                        line,
                        column,
                        byte,
                        hint,
                        pista
                    )
                }
            }
        }
    }
}

/// In English (the command line's).
impl fmt::Display for NotText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.said().en())
    }
}

impl std::error::Error for NotText {}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the bytes are when they are not text: recognised by their signature, or by NUL bytes
/// making up more than 1 % of the first 8 KiB.
pub fn binary(bytes: &[u8]) -> Option<Binary> {
    let head = &bytes[..bytes.len().min(8192)];
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
        return Some(if has(b"opendocument.spreadsheet") {
            Binary::Ods
        } else if has(b"xl/") {
            Binary::Xlsx
        } else {
            Binary::Zip
        });
    }
    if bytes.starts_with(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") {
        return Some(Binary::Xls);
    }
    if bytes.starts_with(b"%PDF-") {
        return Some(Binary::Pdf);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Some(Binary::Utf16);
    }
    // text has no NUL bytes; a stray one in a field is left to the reader of each field
    let nul = head.iter().filter(|&&b| b == 0).count();
    (nul * 100 > head.len()).then_some(Binary::Other)
}

/// Decodes the bytes of a CSV file: UTF-8 (a BOM is dropped; no copy), else Windows-1252. A file
/// that starts with a UTF-8 BOM must be UTF-8 throughout, and a binary file is refused: both are
/// named, never guessed at.
pub fn decode(bytes: &[u8]) -> Result<(Cow<'_, str>, &'static str), NotText> {
    if let Some(b) = binary(bytes) {
        return Err(NotText::Binary(b));
    }
    if let Some(rest) = bytes.strip_prefix(BOM) {
        return std::str::from_utf8(rest)
            .map(|s| (Cow::Borrowed(s), "UTF-8 (BOM)"))
            .map_err(|e| bad_utf8(rest, e.valid_up_to(), true));
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), "UTF-8"),
        Err(_) => (
            Cow::Owned(bytes.iter().map(|&b| windows_1252(b)).collect()),
            "Windows-1252",
        ),
    })
}

/// The bytes as UTF-8 text (a BOM is kept), for files whose format requires UTF-8 (TOML) or that
/// vigia reads only as UTF-8 (rates files); a binary file or a byte that is not UTF-8 is named.
pub fn utf8(bytes: &[u8]) -> Result<&str, NotText> {
    if let Some(b) = binary(bytes) {
        return Err(NotText::Binary(b));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let bom = bytes.starts_with(BOM);
        let skip = if bom { BOM.len() } else { 0 };
        bad_utf8(&bytes[skip..], e.valid_up_to() - skip, bom)
    })
}

/// Where the first byte that is not UTF-8 is: `valid` bytes of `text` are.
fn bad_utf8(text: &[u8], valid: usize, bom: bool) -> NotText {
    let before = &text[..valid];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    NotText::BadUtf8 {
        line: before.iter().filter(|&&b| b == b'\n').count() + 1,
        column,
        byte: text[valid],
        bom,
    }
}

/// Windows-1252 to Unicode: Latin-1 except 0x80–0x9F.
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    if (0x80..0xA0).contains(&b) {
        HIGH[usize::from(b - 0x80)]
    } else {
        char::from(b)
    }
}

/// The line of a CSV record as an editor shows it, from the byte offset where the csv crate
/// says the record starts. (The crate's own `position().line()` counts the `\n` bytes it has
/// consumed: a CRLF file's record starts before the `\n` that ends the previous line, and blank
/// lines skipped before a record are not counted, so it names a line too low. For a quoted field
/// over several lines, the line is where the record starts.) Offsets must come in order.
pub struct Lines<'a> {
    text: &'a [u8],
    /// Offset up to which `line` has counted.
    at: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text: text.as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// The byte where the record at `offset` really starts (past line ends and blank lines) and
    /// its 1-based line.
    pub fn start(&mut self, offset: u64) -> (usize, usize) {
        let mut start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        while matches!(self.text.get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        if start >= self.at {
            self.line += self.text[self.at..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.at = start;
        }
        (start, self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_files_are_named_by_their_signature() {
        let xlsx = b"PK\x03\x04\x14\x00\x06\x00[Content_Types].xml....xl/workbook.xml";
        assert_eq!(binary(xlsx), Some(Binary::Xlsx));
        assert_eq!(
            binary(b"PK\x03\x04mimetypeapplication/vnd.oasis.opendocument.spreadsheet"),
            Some(Binary::Ods)
        );
        assert_eq!(binary(b"PK\x03\x04data.csv"), Some(Binary::Zip));
        assert_eq!(
            binary(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00\x00"),
            Some(Binary::Xls)
        );
        assert_eq!(binary(b"%PDF-1.7\n"), Some(Binary::Pdf));
        assert_eq!(binary(b"\xFF\xFEd\x00o\x00"), Some(Binary::Utf16));
        assert_eq!(binary(b"\x7FELF\x02\x01\x00"), Some(Binary::Other));
        assert_eq!(binary(b"doc_type,doc_number\n"), None);
        assert_eq!(binary(b""), None);
        // one stray NUL in a row of text is a bad value, not a binary file
        let row = b"doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on\n\
                    CC,79263082,Ana\x00G,natural,trabajador,10,,2024-03-15\n";
        assert_eq!(binary(row), None);
        let e = decode(xlsx).unwrap_err().to_string();
        assert!(e.starts_with("this is an Excel workbook (.xlsx)"), "{e}");
        assert!(e.contains("CSV UTF-8 (Comma delimited)"), "{e}");
        assert!(utf8(b"%PDF-1.4").is_err());
    }

    #[test]
    fn what_a_file_is_not_is_said_in_spanish_too() {
        let xlsx = NotText::Binary(Binary::Xlsx);
        assert_eq!(
            xlsx.said().es(),
            "este archivo es un libro de Excel (.xlsx), no un archivo CSV; ábralo en la hoja de \
             cálculo, guárdelo como «CSV UTF-8 (delimitado por comas)» o «CSV (separado por punto \
             y coma)» e importe ese archivo"
        );
        assert_eq!(xlsx.said().en(), xlsx.to_string());
        let mixed = NotText::BadUtf8 {
            line: 3,
            column: 4,
            byte: 0xE9,
            bom: true,
        };
        assert_eq!(
            mixed.said().es(),
            "línea 3, columna 4: el byte 0xE9 no es UTF-8 (en Windows-1252 sería «é»), pero el \
             archivo empieza con la marca de orden de bytes de UTF-8: mezcla dos codificaciones y \
             sus nombres se guardarían dañados; guárdelo de nuevo como «CSV UTF-8 (delimitado por \
             comas)» e importe ese archivo"
        );
        let pdf = NotText::Binary(Binary::Pdf).said();
        assert!(!pdf.es().contains("vigia rates"), "{}", pdf.es());
        // what to do in words in both: the command belongs to the command line
        assert!(!pdf.en().contains("vigia rates"), "{}", pdf.en());
        assert!(pdf.en().contains("CSV file"), "{}", pdf.en());
    }

    #[test]
    fn a_bom_promises_utf8_and_the_first_bad_byte_is_located() {
        // "José" written in Windows-1252 after a UTF-8 BOM, on line 3, column 4 (after "Jos")
        let bytes = b"\xEF\xBB\xBFa,b\nx,y\nJos\xE9,1\n";
        assert_eq!(
            decode(bytes).unwrap_err(),
            NotText::BadUtf8 {
                line: 3,
                column: 4,
                byte: 0xE9,
                bom: true
            }
        );
        let e = decode(bytes).unwrap_err().to_string();
        assert!(e.contains("'é'"), "{e}");
        // without a BOM, Windows-1252 is read as such
        let (text, enc) = decode(&bytes[3..]).unwrap();
        assert_eq!((text.as_ref(), enc), ("a,b\nx,y\nJosé,1\n", "Windows-1252"));
        // a column counts characters, not bytes
        assert!(utf8("ñandú,\u{e9}\n".as_bytes()).is_ok());
        assert_eq!(
            utf8(b"name = \"\xC3\xB1a\xE9\"").unwrap_err(),
            NotText::BadUtf8 {
                line: 1,
                column: 11,
                byte: 0xE9,
                bom: false
            }
        );
    }

    fn lines(text: &str) -> Vec<usize> {
        let mut lines = Lines::new(text);
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut record = csv::StringRecord::new();
        let mut out = Vec::new();
        while reader.read_record(&mut record).unwrap() {
            out.push(lines.start(record.position().unwrap().byte()).1);
        }
        out
    }

    #[test]
    fn records_are_numbered_as_an_editor_numbers_lines() {
        assert_eq!(lines("h\na\nb\n"), vec![2, 3]);
        // CRLF (Excel on Windows): the csv crate alone says 1 and 2
        assert_eq!(lines("h\r\na\r\nb\r\n"), vec![2, 3]);
        // blank lines are skipped and counted
        assert_eq!(lines("h\r\n\r\n\r\na\r\nb"), vec![4, 5]);
        assert_eq!(lines("h\n\na\n\n\nb\n"), vec![3, 6]);
        // a quoted field over two lines: the record's first line; the next record after it
        assert_eq!(lines("h\r\n\"a\r\nstill a\",1\r\nb,2\r\n"), vec![2, 4]);
    }
}
