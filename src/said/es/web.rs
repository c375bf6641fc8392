//! Las frases en español del área web, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::web`, tiene las mismas funciones).

pub fn no_longer_awaits_notice_one_was() -> String {
    "ya no está pendiente de aviso (se emitió uno, o la multa se saldó, desde que se mostró la lista)".to_string()
}
