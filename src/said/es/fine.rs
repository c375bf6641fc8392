//! Las frases en español del área fine, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::fine`, tiene las mismas funciones).

pub fn before_adjudication_date_breach_can_only(
    _adjudicated: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a la fecha de adjudicación ({adjudicated_es}); solo puede haber incumplimiento \
                 después de adjudicadas las acciones"
    )
}

pub fn before_breach_date_give_payment_as(
    _breach_date: &impl std::fmt::Display,
    breach_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a la fecha del incumplimiento ({breach_es}); indique la fecha del pago o de corte, \
                 igual o posterior al incumplimiento"
    )
}

pub fn must_greater_than_zero() -> String {
    "debe ser mayor que cero".to_string()
}

pub fn must_greater_than_zero_omit_when() -> String {
    "debe ser mayor que cero (omítalo cuando no hubo etapa posterior)".to_string()
}

pub fn must_not_negative_omit_when_there() -> String {
    "no puede ser negativo (omítalo cuando no hubo contraprestación)".to_string()
}

pub fn must_whole_number_shares_greater_than() -> String {
    "debe ser un número entero de acciones mayor que cero".to_string()
}

pub fn payment_amount_must_greater_than_zero() -> String {
    "el valor de un pago debe ser mayor que cero".to_string()
}

pub fn payments_must_dated_from_breach_date(
    _from: &impl std::fmt::Display,
    _until: &impl std::fmt::Display,
    from_es: &impl std::fmt::Display,
    until_es: &impl std::fmt::Display,
) -> String {
    format!(
        "los pagos deben tener fecha entre la del incumplimiento ({from_es}) y la fecha de corte \
                     ({until_es}), ambas inclusive"
    )
}
