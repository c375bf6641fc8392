//! English sentences of the report area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::report`, has the same functions).

pub fn neither_pdf_nor_utf_8_text() -> String {
    "neither a PDF nor UTF-8 text (HTML or Markdown)".to_string()
}

pub fn sentence(
    e: &impl std::fmt::Display,
    _n: &impl std::fmt::Display,
    _max_depth: &impl std::fmt::Display,
) -> String {
    format!("{e}")
}

pub fn sentence_2(e: &impl std::fmt::Display, _mib: &impl std::fmt::Display) -> String {
    format!("{e}")
}

pub fn object_streams_too_large(
    e: &impl std::fmt::Display,
    _mib: &impl std::fmt::Display,
) -> String {
    format!("{e}")
}

pub fn sentence_3(
    e: &impl std::fmt::Display,
    _object: &impl std::fmt::Display,
    _target: &impl std::fmt::Display,
) -> String {
    format!("{e}")
}

pub fn sentence_4(e: &impl std::fmt::Display) -> String {
    format!("{e}")
}

pub fn document_unreadable(e: &impl std::fmt::Display) -> String {
    format!("{e}")
}
