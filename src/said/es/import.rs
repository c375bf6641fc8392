//! Las frases en español del área import, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::import`, tiene las mismas funciones).

pub fn columns_both_name_keep_one_them(
    ha: &(impl std::fmt::Debug + std::fmt::Display),
    hb: &(impl std::fmt::Debug + std::fmt::Display),
    col: &impl std::fmt::Display,
) -> String {
    format!("las columnas «{ha}» y «{hb}» nombran las dos {col}; deje solo una")
}

pub fn has_control_character_u_at_character(
    code: &impl std::fmt::UpperHex,
    at: &impl std::fmt::Display,
) -> String {
    format!(
        "tiene el carácter de control U+{code:04X} en la posición {at}; los valores se \
                                 imprimen en los avisos y deben ser texto simple: quítelo"
    )
}

pub fn missing_column_header_must_name_english(
    col: &impl std::fmt::Display,
    es: &(impl std::fmt::Debug + std::fmt::Display),
    _all: &impl std::fmt::Display,
    todas: &impl std::fmt::Display,
) -> String {
    format!(
        "falta la columna «{es}» ({col}); el encabezado debe nombrar {todas} (en español \
                 o en inglés)"
    )
}

pub fn must_date_dd_mm_yyyy_yyyy(
    _empty: &impl std::fmt::Display,
    vacia: &impl std::fmt::Display,
) -> String {
    format!("no es una fecha válida; escríbala dd/mm/aaaa o aaaa-mm-dd{vacia}")
}

pub fn not_person_type_use_natural_legal(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{s}» no es un tipo de persona; use natural o legal (jurídica)")
}

pub fn repeats_line_exactly_row_listed_once(first: &impl std::fmt::Display) -> String {
    format!(
        "repite exactamente la línea {first}; cada fila va una sola vez: borre una de \
                     las dos"
    )
}
