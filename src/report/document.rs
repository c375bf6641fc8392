//! A notice's or a paz y salvo's document in one of its formats (PDF, HTML, Markdown), and the
//! text of a document in the form documents are compared. [`Documents`] hands both to the
//! register's verification (`register::verify`), which does not import this layer.

use super::lines::Placed;
use super::notice::{self as doc, Block};
use super::pdf::{self, read::Unreadable};
use crate::lang::Said;
use crate::notice::{DocFormat, NoticeData, SettlementData};
use crate::register::verify::TextRead;
use crate::said;
use chrono::Datelike;

/// The document's blocks, with every value an officer typed (names, evidence, articles,
/// resolutions) as typed: for HTML (which escapes everything it writes) and PDF.
fn blocks(d: &NoticeData) -> Vec<Block> {
    match d.layout {
        1 => super::notice_v1::blocks_with(d, &|s| s.to_string()),
        _ => super::notice_v2::blocks_with(d, &|s| s.to_string(), true),
    }
}

/// The document's blocks for Markdown: every value an officer typed made inert by [`doc::md_text`],
/// the document's own wording (its parentheses, the signature line, the backquoted command) as
/// it is.
fn markdown_blocks(d: &NoticeData) -> Vec<Block> {
    match d.layout {
        1 => super::notice_v1::blocks_with(d, &doc::md_text),
        _ => super::notice_v2::blocks_with(d, &doc::md_text, false),
    }
}

/// The document of a notice in a format.
pub fn notice(data: &NoticeData, format: DocFormat) -> Vec<u8> {
    let title = format!("Notificación de multa {}", data.number);
    match format {
        // officer-typed values escaped for Markdown; HTML escapes everything it writes
        DocFormat::Md => doc::markdown(&markdown_blocks(data)).into_bytes(),
        DocFormat::Html => doc::html(&blocks(data), &title).into_bytes(),
        DocFormat::Pdf => {
            let d = data.notice_date;
            pdf::render_layout(
                &blocks(data),
                &title,
                &format!("Notificación {}", data.number),
                (d.year(), d.month() as u8, d.day() as u8),
                data.layout,
            )
        }
    }
}

/// The document of a paz y salvo in a format.
pub fn settlement(data: &SettlementData, format: DocFormat) -> Vec<u8> {
    use super::settlement as paz;
    let title = format!("Paz y salvo {}", data.number);
    match format {
        DocFormat::Md => doc::markdown(&paz::markdown_blocks(data)).into_bytes(),
        DocFormat::Html => doc::html(&paz::blocks(data), &title).into_bytes(),
        DocFormat::Pdf => {
            let d = data.date;
            pdf::render_layout(
                &paz::blocks(data),
                &title,
                &title,
                (d.year(), d.month() as u8, d.day() as u8),
                data.layout,
            )
        }
    }
}

/// The visible text of a document and its format, as lines in the form documents are compared
/// ([`doc::normalized_lines`]), each with where a reader finds it (a PDF's page and line on it,
/// a Markdown or HTML file's line: [`Placed`]); why not, in both languages, when it is neither a
/// PDF vigia can read (which limit it broke) nor UTF-8 text.
pub fn text(bytes: &[u8]) -> Result<TextRead, Said> {
    let read = |format, Placed { lines, places }| TextRead {
        format,
        lines,
        places,
    };
    if bytes.starts_with(b"%PDF-") {
        let pages = pdf::extract_page_lines(bytes).map_err(|e| unreadable_pdf(&e))?;
        return Ok(read(DocFormat::Pdf, Placed::of_pages(&pages)));
    }
    let s = std::str::from_utf8(bytes).map_err(|_| said!(report::neither_pdf_nor_utf_8_text))?;
    if s.trim_start().starts_with("<!DOCTYPE html") {
        Ok(read(DocFormat::Html, Placed::of_html(s)))
    } else {
        Ok(read(DocFormat::Md, Placed::of_file(s)))
    }
}

/// Why a PDF cannot be read: the English is the reader's own sentence.
pub(crate) fn unreadable_pdf(e: &Unreadable) -> Said {
    use pdf::read::{MAX_CONTENT, MAX_DEPTH};
    match e {
        Unreadable::TooDeep(n) => said!(report::sentence, e, n, MAX_DEPTH),
        Unreadable::TooMuchContent => {
            let mib = MAX_CONTENT >> 20;
            said!(report::sentence_2, e, mib)
        }
        Unreadable::ObjectStreamsTooLarge => {
            let mib = pdf::read::MAX_UNPACKED >> 20;
            said!(report::object_streams_too_large, e, mib)
        }
        Unreadable::LengthNotNumber { object, target } => {
            said!(report::sentence_3, e, object, target)
        }
        Unreadable::Damaged(_) => said!(report::sentence_4, e),
    }
}

/// How the register's verification reads and renders documents: this module's functions.
pub struct Documents;

impl crate::register::verify::Documents for Documents {
    fn text(&self, bytes: &[u8]) -> Result<TextRead, Said> {
        text(bytes)
    }

    fn notice(&self, data: &NoticeData, format: DocFormat) -> Vec<u8> {
        notice(data, format)
    }

    fn settlement(&self, data: &SettlementData, format: DocFormat) -> Vec<u8> {
        settlement(data, format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::verify::Place;

    #[test]
    fn text_names_the_format_and_says_why_not() {
        let t = text(b"# Title\n\n  two   words \n").unwrap();
        assert_eq!(t.format, DocFormat::Md);
        assert_eq!(t.lines, ["# Title", "two words"]);
        // the blank line is the file's second
        assert_eq!(t.places, [Place::File(1), Place::File(3)]);
        let t = text(b"<!DOCTYPE html>\n<html><body><p>uno</p><p>dos &amp; tres</p></body></html>")
            .unwrap();
        assert_eq!(t.format, DocFormat::Html);
        assert_eq!(t.lines, ["uno", "dos & tres"]);
        assert_eq!(t.places, [Place::File(2), Place::File(2)]);
        let e = text(b"\xff\xfe\x00").unwrap_err();
        assert_eq!(e.en(), "neither a PDF nor UTF-8 text (HTML or Markdown)");
        assert_eq!(e.es(), "no es un PDF ni texto UTF-8 (HTML o Markdown)");
        // each limit of the PDF reader has its own sentence in each language, naming the limit
        let e = unreadable_pdf(&Unreadable::ObjectStreamsTooLarge);
        assert_eq!(
            e.es(),
            "sus flujos de objetos descomprimidos pasan de 256 MiB entre todas las consultas, lo \
             máximo que vigia lee"
        );
        assert!(
            e.en().contains("more than 256 MiB, all lookups together"),
            "{}",
            e.en()
        );
        let e = unreadable_pdf(&Unreadable::TooMuchContent);
        assert_eq!(
            e.es(),
            "sus flujos descomprimidos pasan de 16 MiB, lo máximo que vigia lee"
        );
        let e = text(b"%PDF-1.4 nothing else").unwrap_err();
        assert!(
            e.en()
                .starts_with("the PDF is damaged or not one vigia wrote (")
        );
        assert_eq!(e.es(), "el PDF está dañado o no lo escribió vigia");
    }
}
