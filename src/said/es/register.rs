//! Las frases en español del área register, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::register`, tiene las mismas funciones).

pub fn already_voided_by(
    _at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    anulado: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!("ya fue {anulado} el {at_es} por {by} ({reason})")
}

pub fn cannot_hash_password(e: &impl std::fmt::Display) -> String {
    format!("no se pudo calcular el hash de la contraseña: {e}")
}

pub fn no_random_salt_available(e: &impl std::fmt::Display) -> String {
    format!("no se pudo obtener una sal aleatoria: {e}")
}

pub fn not_user_name_1_64_letters(name: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "«{name}» no es un nombre de usuario válido: de 1 a 64 letras, dígitos, «.», «-», «_» o «@»"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn outside_validity_program_if_extension_later(
    _what: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    decree: &impl std::fmt::Display,
    _valid: &impl std::fmt::Display,
    que: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
    vigente: &impl std::fmt::Display,
) -> String {
    format!(
        "{que} el {on_es}, fuera de la vigencia del programa {code} ({decree}, {vigente}): si una \
                     prórroga o un decreto posterior lo permite, registre la razón"
    )
}

pub fn overlaps_each_day_has_one_certified(
    _from: &impl std::fmt::Display,
    _to: &impl std::fmt::Display,
    _list: &impl std::fmt::Display,
    from_es: &impl std::fmt::Display,
    to_es: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
) -> String {
    format!(
        "el período del {from_es} al {to_es} se superpone con {lista}; cada día tiene una \
                         sola tasa certificada"
    )
}

pub fn password_too_short_at_least_characters(min_password: &impl std::fmt::Display) -> String {
    format!("la contraseña es demasiado corta: debe tener al menos {min_password} caracteres")
}

pub fn program_already_registered_id_with_different(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
) -> String {
    format!(
        "el programa {code} ya está registrado (id {id}) con un contenido distinto; los programas no se \
                 modifican: registre el archivo modificado con un código nuevo"
    )
}

pub fn there_already_user_called(name: &impl std::fmt::Display) -> String {
    format!("ya existe un usuario llamado {name}")
}

pub fn user_already_disabled(name: &impl std::fmt::Display) -> String {
    format!("el usuario {name} ya está deshabilitado")
}

pub fn user_cannot_disable_their_own_account(name: &impl std::fmt::Display) -> String {
    format!(
        "el usuario {name} no puede deshabilitar su propia cuenta; debe hacerlo otro administrador"
    )
}

pub fn user_last_enabled_administrator_add_another(name: &impl std::fmt::Display) -> String {
    format!(
        "el usuario {name} es el último administrador habilitado; agregue otro administrador \
                 antes de deshabilitarlo, o nadie podría gestionar las cuentas"
    )
}

/// The prices a stage-price record would replace, and what it records instead.
pub fn stage_price_correction_needs_reason(
    code: &impl std::fmt::Display,
    in_force: &&[(u8, rust_decimal::Decimal)],
    new: &Option<(u8, rust_decimal::Decimal)>,
) -> String {
    let prices: Vec<String> = in_force
        .iter()
        .map(|(s, p)| {
            format!(
                "de la {} ({})",
                crate::words::stage_es(*s),
                crate::money::format_cop(*p)
            )
        })
        .collect();
    let what = match prices.len() {
        0 => "que no hubo etapa posterior: sus liquidaciones no toman precio de etapa".to_string(),
        1 => format!("el precio {}, que toman sus liquidaciones", prices[0]),
        _ => format!(
            "los precios {}, que toman sus liquidaciones",
            prices.join(" y ")
        ),
    };
    let new = match new {
        Some((s, p)) => format!(
            "{} por acción para la {}",
            crate::money::format_cop(*p),
            crate::words::stage_es(*s)
        ),
        None => "que no hubo etapa posterior".to_string(),
    };
    let (registrado, lo) = if prices.len() <= 1 {
        ("registrado", "lo")
    } else {
        ("registrados", "los")
    };
    format!(
        "el programa {code} tiene {registrado} {what}; registrar {new} \
         {lo} reemplaza: es una corrección del registro y debe decir por qué (el motivo queda en el \
         evento de auditoría)"
    )
}
