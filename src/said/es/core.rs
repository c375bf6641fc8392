//! Las frases en español del área core, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::core`, tiene las mismas funciones).

pub fn can_read_two_ways_decimal_comma(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» se puede leer de dos maneras: {d} (coma decimal) o {t} (coma de miles); \
                     escriba {t} o {d}: punto para los miles y coma para los decimales"
    )
}

pub fn rate_can_read_two_ways_point(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» se puede leer de dos maneras: {d} % (punto decimal) o {t} % (punto de miles); \
                     escriba la tasa con coma decimal, {d}"
    )
}

pub fn can_read_two_ways_point_neither(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» no se puede leer con certeza: el punto no es decimal (lo siguen uno o \
                     dos dígitos) ni de miles (grupos de tres); escriba {d} si es ese decimal, o \
                     agrupe los miles de a tres, p. ej. 1.450.000"
    )
}

pub fn criterion_price_term_needs_both_weights() -> String {
    "el criterio \"price-and-term\" necesita los dos pesos que fija el reglamento: escriba \
                         price_weight y term_weight como decimales entre comillas que sumen 1, p. ej. \"0.7\" y \"0.3\"".to_string()
}

pub fn discount_rate_belongs_criterion_present_value(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "la tasa de descuento es del criterio \"present-value\"; el criterio «{name}» no la usa: quite \
                 la clave"
    )
}

pub fn has_control_character_u_at_character(
    v: &impl std::fmt::Display,
    code: &impl std::fmt::UpperHex,
    at: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» tiene el carácter de control U+{code:04X} en la posición {at}; los \
                     valores se imprimen en los avisos y deben ser texto simple: quítelo"
    )
}

pub fn count_separators_wrong_places_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "«{v}» tiene los separadores fuera de lugar; es una cantidad entera: escriba un punto \
                 cada tres dígitos para los miles, p. ej. 1.450.000, o solo los dígitos"
    )
}

pub fn has_separators_wrong_places_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "«{v}» tiene los separadores fuera de lugar; escriba un punto cada tres dígitos \
                 para los miles y una coma para los decimales, p. ej. 1.450.000,50"
    )
}

pub fn has_two_digit_year_which_vigia(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» tiene el año con dos dígitos, que vigia no adivina; escriba los \
                     cuatro, p. ej. {es}"
    )
}

pub fn header_row_sheet_has_merged_cells(
    row: &impl std::fmt::Display,
    sheet: &(impl std::fmt::Debug + std::fmt::Display),
    a: &impl std::fmt::Display,
    b: &impl std::fmt::Display,
) -> String {
    format!(
        "la fila de encabezado {row} de la hoja «{sheet}» tiene celdas combinadas ({a}:{b}); \
             vigia necesita un nombre de columna por celda: sepárelas (o borre las filas de \
             título sobre el encabezado) e importe de nuevo"
    )
}

pub fn holds_computed_number_round_workbook_redondear(shown: &impl std::fmt::Display) -> String {
    format!(
        "tiene el número calculado {shown}; redondéelo en el libro (REDONDEAR) o escriba el \
             valor como debe leerse"
    )
}

pub fn holds_error_correct_formula_type_value(e: &impl std::fmt::Display) -> String {
    format!("tiene el error {e}; corrija la fórmula o escriba el valor")
}

pub fn holds_number_date_column_write_date(shown: &impl std::fmt::Display) -> String {
    format!(
        "tiene el número {shown} en una columna de fechas; escriba la fecha dd/mm/aaaa o \
                 dé a la celda formato de fecha"
    )
}

pub fn holds_number_which_not_exact_amount(shortest: &impl std::fmt::Display) -> String {
    format!("tiene el número {shortest}, que no es un valor exacto; escriba el valor")
}

pub fn line_column_byte_0x_not_utf(
    line: &impl std::fmt::Display,
    column: &impl std::fmt::Display,
    byte: &impl std::fmt::UpperHex,
    _hint: &impl std::fmt::Display,
    pista: &impl std::fmt::Display,
) -> String {
    format!(
        "línea {line}, columna {column}: el byte 0x{byte:02X} no es UTF-8{pista}, pero el archivo empieza con la marca \
                         de orden de bytes de UTF-8: mezcla dos codificaciones y sus nombres se guardarían dañados; guárdelo de nuevo \
                         como «CSV UTF-8 (delimitado por comas)» e importe ese archivo"
    )
}

pub fn line_column_byte_0x_not_utf_2(
    line: &impl std::fmt::Display,
    column: &impl std::fmt::Display,
    byte: &impl std::fmt::UpperHex,
    _hint: &impl std::fmt::Display,
    pista: &impl std::fmt::Display,
) -> String {
    format!(
        "línea {line}, columna {column}: el byte 0x{byte:02X} no es UTF-8{pista}; guarde el archivo como texto UTF-8 \
                         y entréguelo de nuevo"
    )
}

pub fn must_3_11_digits(
    doc_type: &impl std::fmt::Display,
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("el número de {doc_type} «{number}» debe tener de 3 a 11 dígitos")
}

pub fn must_3_20_letters_digits(
    doc_type: &impl std::fmt::Display,
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("el número de {doc_type} «{number}» debe tener de 3 a 20 letras o dígitos")
}

pub fn names_several_categories_write_which_one(
    alias: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
) -> String {
    format!("{alias} nombra varias categorías ({list}); escriba cuál")
}

pub fn negative_value_must_zero_more(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» es negativo; el valor debe ser cero o más")
}

pub fn nit_has_wrong_check_digit_dian(
    base: &impl std::fmt::Display,
    d: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
) -> String {
    format!(
        "el NIT {base}-{d} tiene un dígito de verificación errado: el algoritmo de la DIAN da {expected} \
                     ({base}-{expected}); revise el número"
    )
}

pub fn nit_lacks_check_digit_write(
    base: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
) -> String {
    format!("al NIT {base} le falta el dígito de verificación; escriba {base}-{expected}")
}

pub fn nit_must_up_15_digits_followed(
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("el NIT «{number}» debe tener hasta 15 dígitos seguidos de -DV, p. ej. 800197268-4")
}

pub fn not_date_time_write_dd_mm(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es una fecha y hora; escríbala dd/mm/aaaa hh:mm, p. ej. 20/11/2024 14:30")
}

pub fn not_date_write_dd_mm_yyyy(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "«{v}» no es una fecha; escríbala dd/mm/aaaa (20/11/2024) o aaaa-mm-dd \
                 (2024-11-20)"
    )
}

pub fn not_day_calendar_check_day_month(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es un día del calendario; revise el día y el mes (dd/mm/aaaa)")
}

pub fn not_number_write_colombian_way_e(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es un número; escríbalo a la colombiana, p. ej. 1.450 o 1.450,50")
}

pub fn not_special_condition_category_use_one(
    typed: &(impl std::fmt::Debug + std::fmt::Display),
    code: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
) -> String {
    format!(
        "«{typed}» no es una categoría de condiciones especiales de {code}; use una de estas: \
             {list}"
    )
}

pub fn outside_dates_vigia_accepts_check_year(
    shown: &impl std::fmt::Display,
    first: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!(
        "{shown} está fuera de las fechas que vigia acepta, del {first} al {last}; \
                     revise el año"
    )
}

pub fn plus_sign_written_without(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    unsigned: &impl std::fmt::Display,
) -> String {
    format!("«{v}» lleva el signo +: los valores se escriben sin signo; escriba {unsigned}")
}

pub fn price_weight_term_weight_add_up(
    price: &impl std::fmt::Display,
    term: &impl std::fmt::Display,
    sum: &impl std::fmt::Display,
) -> String {
    format!("price_weight {price} y term_weight {term} suman {sum}: deben sumar exactamente 1")
}

pub fn reads_as_which_not_whole_number(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    shown: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» se lee {shown}, que no es un número entero; escriba un entero, p. ej. \
                     4.000"
    )
}

pub fn reads_as_with_fractions_centavo_payment(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    shown: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» se lee {shown}, con fracciones de centavo; un pago va en pesos y \
                     centavos: escriba a lo sumo dos decimales"
    )
}

pub fn sheet_cannot_read(
    name: &(impl std::fmt::Debug + std::fmt::Display),
    why: &impl std::fmt::Display,
) -> String {
    format!("la hoja «{name}» no se puede leer ({why})")
}

pub fn sheet_was_asked_but_file_not(name: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("se indicó la hoja «{name}» pero el archivo no es un libro (.xlsx, .xls, .ods)")
}

pub fn this(
    _what: &impl std::fmt::Display,
    _remedy: &impl std::fmt::Display,
    what_es: &impl std::fmt::Display,
    remedy_es: &impl std::fmt::Display,
) -> String {
    format!("este archivo es {what_es}; {remedy_es}")
}

pub fn too_large_at_most_1_000(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» es demasiado grande (como máximo 1.000.000.000.000.000); revise la cifra")
}

pub fn unknown_document_type_use_one_cc(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{s}» no es un tipo de documento; use CC, CE, TI, PA, PEP, PPT o NIT")
}

pub fn weight_above_0_below_1_criterion(w: &impl std::fmt::Display) -> String {
    format!(
        "{w}: un peso es mayor que 0 y menor que 1 (el criterio considera el precio y el plazo)"
    )
}

pub fn weights_belong_criterion_price_term_criterion(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "los pesos son del criterio \"price-and-term\"; el criterio «{name}» no los usa: quite la clave"
    )
}

pub fn workbook_cannot_read_save_again_from(why: &impl std::fmt::Display) -> String {
    format!(
        "el libro no se puede leer ({why}); guárdelo de nuevo desde la hoja de cálculo, o \
             como CSV"
    )
}

pub fn workbook_has_no_sheet_sheets(
    wanted: &(impl std::fmt::Debug + std::fmt::Display),
    all: &impl std::fmt::Display,
) -> String {
    format!("el libro no tiene la hoja «{wanted}»; sus hojas son {all}")
}

pub fn write_first_stage_first_stage_s(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "«{s}»: escriba \"first-stage\" (el precio fijo de la primera etapa) o un precio por acción en pesos \
                 mayor que cero, como \"1200.00\""
    )
}

pub fn write_present_value_highest_price_price(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("«{name}»: escriba \"present-value\", \"highest-price\" o \"price-and-term\"")
}

pub fn write_what_acta_cites_leave_key() -> String {
    "escriba lo que cita el acta, u omita la clave para el artículo del Decreto 3939".to_string()
}

pub fn written_us_way_commas_thousands_point(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}» está escrito a la estadounidense (comas de miles, punto decimal); vigia \
                     lee punto para los miles y coma para los decimales: escriba {es}"
    )
}

pub fn count_comma_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "«{v}»: la coma separa los decimales (y esta cantidad es entera) o agrupa \
         miles; si quiere decir {t}, escriba {t}, con punto para los miles"
    )
}

pub fn nothing_written_write_value() -> String {
    "no se escribió nada; escriba el valor".to_string()
}

pub fn count_too_large_at_most(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    max: &impl std::fmt::Display,
) -> String {
    format!("«{v}» es demasiado grande (como máximo {max}); revise la cifra")
}

pub fn rate_has_more_than_one_separator(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "«{v}» tiene más de un separador: una tasa en porcentaje lleva solo la coma decimal, sin \
         puntos de miles, p. ej. 27,90"
    )
}

pub fn rate_has_currency_sign(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» es una tasa, no una suma de dinero: escríbala sin $ ni COP, p. ej. 27,90")
}

pub fn count_has_currency_sign(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» es una cantidad, no una suma de dinero: escríbala sin $ ni COP, p. ej. 1.000")
}

pub fn not_whole_number_write_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es un número entero: escriba sus cifras, p. ej. 12 o 1.450")
}

pub fn not_percent_write_decimal_comma(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es un porcentaje: escriba sus cifras con coma decimal, p. ej. 27,90")
}

pub fn tsa_http_only() -> String {
    "vigia consulta las autoridades de sellado de tiempo solo por http:// (la autoridad firma el \
     sello, así que no necesita TLS): indique la dirección http:// de la autoridad"
        .to_string()
}

pub fn tsa_not_http_address() -> String {
    "no es una dirección http:// (http://servidor[:puerto]/ruta)".to_string()
}

pub fn tsa_port_not_number(p: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("el puerto «{p}» no es un número de 1 a 65535")
}

pub fn tsa_names_no_host() -> String {
    "no indica el servidor (http://servidor[:puerto]/ruta)".to_string()
}

pub fn tsa_blank_in_path() -> String {
    "tiene un espacio en su ruta".to_string()
}

pub fn not_year_write_four_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es un año: escriba sus cuatro cifras, sin puntos, p. ej. 2026")
}

pub fn tsa_request_not_encoded(e: &impl std::fmt::Display) -> String {
    format!("no se pudo codificar la solicitud ({e})")
}

pub fn tsa_no_random_nonce(e: &impl std::fmt::Display) -> String {
    format!("el sistema no dio un número aleatorio para la solicitud ({e})")
}

pub fn tsa_answer_not_rfc3161(e: &impl std::fmt::Display) -> String {
    format!("su respuesta no es una TimeStampResp del RFC 3161 ({e})")
}

pub fn tsa_refused_request(
    status: &impl std::fmt::Display,
    text: &impl std::fmt::Display,
) -> String {
    format!("rechazó la solicitud (PKIStatus {status}{text})")
}

pub fn tsa_no_token() -> String {
    "aceptó la solicitud pero no envió el sello".to_string()
}

pub fn tsa_token_unreadable(e: &impl std::fmt::Display) -> String {
    format!("su sello no se puede leer ({e})")
}

pub fn tsa_token_other_hash() -> String {
    "su sello es sobre otro resumen (hash) que el pedido".to_string()
}

pub fn tsa_token_no_nonce() -> String {
    "su sello no lleva el número aleatorio (nonce) de la solicitud".to_string()
}

pub fn tsa_host_not_found(e: &impl std::fmt::Display) -> String {
    format!("no se encuentra su servidor ({e})")
}

pub fn tsa_host_no_address() -> String {
    "su servidor no tiene dirección".to_string()
}

pub fn tsa_unreachable(e: &impl std::fmt::Display) -> String {
    format!("no se puede conectar con ella ({e})")
}

pub fn tsa_exchange_failed(e: &impl std::fmt::Display) -> String {
    format!("falló el intercambio con ella ({e})")
}

pub fn tsa_answer_not_http() -> String {
    "su respuesta no es HTTP".to_string()
}

pub fn tsa_answered_not_ok(status: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("respondió «{status}», no 200 OK")
}

pub fn tsa_chunked_cut() -> String {
    "su respuesta por partes (chunked) llegó cortada".to_string()
}

pub fn tsa_answer_shorter() -> String {
    "su respuesta es más corta de lo que declara".to_string()
}
