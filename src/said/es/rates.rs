//! Las frases en español del área rates, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::rates`, tiene las mismas funciones).

pub fn both_ibc_ea_pct_usury_ea(
    ibc_name: &impl std::fmt::Display,
    usury_name: &impl std::fmt::Display,
) -> String {
    format!(
        "el interés bancario corriente ({ibc_name}) y la tasa de usura ({usury_name}) están \
         vacíos; indique al menos uno"
    )
}

pub fn cannot_read_as_csv(why: &impl std::fmt::Display) -> String {
    format!("no se puede leer como CSV ({why})")
}

pub fn cannot_read_header(e: &impl std::fmt::Display) -> String {
    format!("no se puede leer el encabezado (detalle técnico: {e})")
}

pub fn file_has_header_but_no_periods() -> String {
    "el archivo tiene encabezado pero ningún período; agregue una fila por cada período \
                 certificado"
        .to_string()
}

pub fn gap_no_certified_rate_between_line(
    _range: &impl std::fmt::Display,
    line: &impl std::fmt::Display,
    rango: &impl std::fmt::Display,
) -> String {
    format!("vacío: no hay tasa certificada {rango} (entre la línea {line} y esta)")
}

pub fn header_lacks_column_s_header_must(missing: &impl std::fmt::Display) -> String {
    format!(
        "al encabezado le faltan las columnas {missing}; debe empezar por \
                 valid_from,valid_to,ibc_ea_pct,usury_ea_pct"
    )
}

pub fn must_positive_ea(
    _column: &impl std::fmt::Display,
    _s: &impl std::fmt::Display,
    columna: &impl std::fmt::Display,
    s_es: &impl std::fmt::Display,
) -> String {
    format!("{columna} {s_es} debe ser un porcentaje efectivo anual positivo")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn not_believable_ea_must_from_below(
    _column: &impl std::fmt::Display,
    _s: &impl std::fmt::Display,
    min: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    _percent: &impl std::fmt::Display,
    columna: &impl std::fmt::Display,
    s_es: &impl std::fmt::Display,
    percent_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{columna} {s_es} no es una tasa creíble en porcentaje efectivo anual (debe estar entre {min} \
                     y menos de {max}); las tasas se escriben en porcentaje: la fracción {s_es} sería {percent_es}, \
                     escriba eso"
    )
}

pub fn not_believable_ea_must_from_below_2(
    _column: &impl std::fmt::Display,
    _s: &impl std::fmt::Display,
    min: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    columna: &impl std::fmt::Display,
    s_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{columna} {s_es} no es una tasa creíble en porcentaje efectivo anual (debe estar entre {min} \
                     y menos de {max}); las tasas se escriben en porcentaje, p. ej. 27,90"
    )
}

pub fn not_date_29_oct_71_31(
    column: &impl std::fmt::Display,
    t: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{column} «{t}» no es una fecha (29-Oct-71, 31-Dic-92 o 1999-01-29)")
}

pub fn not_date_dd_mm_yyyy_yyyy(
    _column: &impl std::fmt::Display,
    s: &(impl std::fmt::Debug + std::fmt::Display),
    columna: &impl std::fmt::Display,
) -> String {
    format!("{columna} «{s}» no es una fecha válida; escríbala dd/mm/aaaa o aaaa-mm-dd")
}

pub fn not_number_write_percent_such_as(
    _column: &impl std::fmt::Display,
    s: &(impl std::fmt::Debug + std::fmt::Display),
    columna: &impl std::fmt::Display,
) -> String {
    format!("{columna} «{s}» no es un número: escriba un porcentaje, p. ej. 27,90")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn period_overlaps_period_line_each_day(
    _bf: &impl std::fmt::Display,
    _bt: &impl std::fmt::Display,
    _af: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    line: &impl std::fmt::Display,
    bf_es: &impl std::fmt::Display,
    bt_es: &impl std::fmt::Display,
    af_es: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el período del {bf_es} al {bt_es} se superpone con el del {af_es} al {at_es} de la \
                     línea {line}; cada día debe tener exactamente una tasa certificada"
    )
}

pub fn rate_neither_percent_18_00_nor(t: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("la tasa «{t}» no es un porcentaje (18.00%) ni una fracción (0.1800)")
}

pub fn res_certifies_but_series_uses_those(
    number: &impl std::fmt::Display,
    heading: &impl std::fmt::Display,
    _from: &impl std::fmt::Display,
    _to: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
    a: &impl std::fmt::Display,
    b: &impl std::fmt::Display,
) -> String {
    format!(
        "la Res. {number} certifica {heading} del {a} al {b}, pero la serie usa \
                     {expected} en esos días"
    )
}

pub fn res_overlaps_res_line_not_later(
    n: &impl std::fmt::Display,
    pn: &impl std::fmt::Display,
    pl: &impl std::fmt::Display,
) -> String {
    format!(
        "la Res. {n} se superpone con la Res. {pn} (línea {pl}) y no es una \
                         certificación posterior de sus últimos días; cada día tiene una sola \
                         tasa certificada"
    )
}

pub fn res_validity_ends_before_starts(
    number: &impl std::fmt::Display,
    _to: &impl std::fmt::Display,
    _from: &impl std::fmt::Display,
    b: &impl std::fmt::Display,
    a: &impl std::fmt::Display,
) -> String {
    format!("Res. {number}: su vigencia termina el {b}, antes de empezar el {a}")
}

pub fn section_s_headings_have_no_column(what: &impl std::fmt::Display) -> String {
    format!(
        "los encabezados de la sección no tienen la columna {what}; debe ser el \
                 histórico de certificaciones de la SFC (RESOLUCION, FECHA, VIGENCIA \
                 DESDE/HASTA, las tasas)"
    )
}

pub fn sentence(
    _column: &impl std::fmt::Display,
    _e: &impl std::fmt::Display,
    columna: &impl std::fmt::Display,
    d_es: &impl std::fmt::Display,
    first: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!(
        "{columna} {d_es} está fuera de las fechas que vigia acepta, del {first} al {last}; \
                     revise el año"
    )
}

pub fn unreadable_row(e: &impl std::fmt::Display) -> String {
    format!("la fila no se puede leer como CSV (detalle técnico: {e})")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn usury_ea_pct_not_1_5(
    _u: &impl std::fmt::Display,
    _i: &impl std::fmt::Display,
    _times: &impl std::fmt::Display,
    u_es: &impl std::fmt::Display,
    i_es: &impl std::fmt::Display,
    times_es: &impl std::fmt::Display,
    usury_name: &impl std::fmt::Display,
    ibc_name: &impl std::fmt::Display,
) -> String {
    format!(
        "la tasa de usura ({usury_name}) {u_es} no es 1,5 × el interés bancario corriente \
         ({ibc_name}) {i_es} (= {times_es}); verifique ambas cifras en la resolución de la \
         Superintendencia Financiera"
    )
}

pub fn valid_before_valid_from(
    _to: &impl std::fmt::Display,
    _from: &impl std::fmt::Display,
    to_es: &impl std::fmt::Display,
    from_es: &impl std::fmt::Display,
    to_name: &impl std::fmt::Display,
    from_name: &impl std::fmt::Display,
) -> String {
    format!(
        "la fecha «hasta» ({to_name}) {to_es} es anterior a la fecha «desde» ({from_name}) \
         {from_es}"
    )
}
