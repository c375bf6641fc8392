//! Las frases en español del área offering, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::offering`, tiene las mismas funciones).

pub fn exceeds_shares_requested(
    _n: &impl std::fmt::Display,
    pedidas: &impl std::fmt::Display,
) -> String {
    format!("supera las {pedidas} acciones pedidas")
}

pub fn must_days_from_adjudication_payment_0(max_term_days: &impl std::fmt::Display) -> String {
    format!("debe ser el número de días de la adjudicación al pago, de 0 a {max_term_days}")
}

pub fn must_guarantee_pesos_such_as_empty(example: &impl std::fmt::Display) -> String {
    format!("debe ser la garantía en pesos, como {example}, o quedar vacía (sin garantía)")
}

pub fn must_one_review_causes_empty(
    list: &impl std::fmt::Display,
    program: &impl std::fmt::Display,
) -> String {
    format!("debe ser una de {list} (las causales de revisión de {program}) o quedar vacío")
}

pub fn must_price_per_share_pesos_greater(example: &impl std::fmt::Display) -> String {
    format!("debe ser el precio por acción en pesos, mayor que cero, como {example}")
}

pub fn same_reference_as_line_one_proposal(first: &impl std::fmt::Display) -> String {
    format!("la misma referencia de la línea {first}: una propuesta, una referencia")
}

pub fn write_doc_type_number_name(
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("{es} (escriba TIPO:NÚMERO:NOMBRE)")
}
