//! Las frases en español del área report, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::report`, tiene las mismas funciones).

pub fn neither_pdf_nor_utf_8_text() -> String {
    "no es un PDF ni texto UTF-8 (HTML o Markdown)".to_string()
}

pub fn sentence(
    _e: &impl std::fmt::Display,
    n: &impl std::fmt::Display,
    max_depth: &impl std::fmt::Display,
) -> String {
    format!("sus objetos se anidan {n} niveles (como máximo {max_depth})")
}

pub fn sentence_2(_e: &impl std::fmt::Display, mib: &impl std::fmt::Display) -> String {
    format!("sus flujos descomprimidos pasan de {mib} MiB, lo máximo que vigia lee")
}

pub fn object_streams_too_large(
    _e: &impl std::fmt::Display,
    mib: &impl std::fmt::Display,
) -> String {
    format!(
        "sus flujos de objetos descomprimidos pasan de {mib} MiB entre todas las consultas, lo máximo que vigia lee"
    )
}

pub fn sentence_3(
    _e: &impl std::fmt::Display,
    object: &impl std::fmt::Display,
    target: &impl std::fmt::Display,
) -> String {
    format!("el /Length del objeto {object} remite al objeto {target}, que no es un número")
}

pub fn sentence_4(_e: &impl std::fmt::Display) -> String {
    "el PDF está dañado o no lo escribió vigia".to_string()
}

pub fn document_unreadable(e: &impl std::fmt::Display) -> String {
    format!("no se pudo leer el documento ({e})")
}
