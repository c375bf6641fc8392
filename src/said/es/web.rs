//! Las frases en español del área web, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::web`, tiene las mismas funciones).

pub fn no_longer_awaits_notice_one_was() -> String {
    "ya no está pendiente de aviso (se emitió uno, o la multa se saldó, desde que se mostró la lista)".to_string()
}

pub fn not_whole_number_of_shares_write(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{s}» no es un número entero de acciones: escriba las acciones, p. ej. 1.000")
}
