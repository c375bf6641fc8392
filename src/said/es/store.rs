//! Las frases en español del área store, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::store`, tiene las mismas funciones).

pub fn adjudication_belongs_not_check_file_s(
    adjudication_id: &impl std::fmt::Display,
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
    n: &impl std::fmt::Display,
) -> String {
    format!(
        "la adjudicación N.º {adjudication_id} es de {doc_type} {doc_number}, no de {t} {n}; revise las \
                         filas del archivo"
    )
}

pub fn chain_no_longer_passes_through_head(
    count: &impl std::fmt::Display,
    hash: &impl std::fmt::Display,
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "la cadena ya no pasa por el último eslabón que firmó ({count} eventos, hash {hash}): {es}"
    )
}

pub fn chain_now_has_events_events_were(now: &impl std::fmt::Display) -> String {
    format!("la cadena tiene ahora {now} eventos: se quitaron eventos de su final")
}

pub fn chain_was_rewritten_row_forged(
    _en: &impl std::fmt::Display,
    _w_en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
    w_es: &impl std::fmt::Display,
) -> String {
    format!("{es}: {w_es}; la cadena se reescribió o la fila se falsificó")
}

pub fn checkpoint_chain_records_audit_checkpoints_row(
    id: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    _count: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
    count_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el punto de control que la cadena registra en la fila {id} de audit_checkpoints (firmado el {at_es}, {count_es} eventos)"
    )
}

pub fn checkpoint_signed(n: &impl std::fmt::Display, at: &impl std::fmt::Display) -> String {
    format!("el punto de control {n} (firmado {at})")
}

pub fn event_missing(expected: &impl std::fmt::Display) -> String {
    format!("falta el evento {expected}")
}

pub fn event_not_one_signed(seq: &impl std::fmt::Display) -> String {
    format!("el evento {seq} no es el que firmó")
}

pub fn event_not_one_signed_chain_was(seq: &impl std::fmt::Display) -> String {
    format!(
        "el evento {seq} no es el que firmó: la cadena se reescribió hasta ese evento o \
                     después (y se recalcularon sus hashes)"
    )
}

pub fn event_s_link_event_before_broken(seq: &impl std::fmt::Display) -> String {
    format!("el enlace del evento {seq} con el anterior está roto")
}

pub fn event_was_altered(seq: &impl std::fmt::Display) -> String {
    format!("el evento {seq} fue alterado")
}

pub fn hash_does_not_match_contents_event() -> String {
    "su hash no coincide con su contenido: el evento fue alterado".to_string()
}

pub fn if_this_register_s_checkpoints_signed(
    _en: &impl std::fmt::Display,
    _w_en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
    w_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{es}: {w_es}; si los puntos de control de este registro se firman con otra clave de \
                     auditoría, verifique de nuevo con esa clave; si esta es su clave, la cadena se \
                     reescribió o la fila se falsificó"
    )
}

pub fn line_checkpoint_log(
    n: &impl std::fmt::Display,
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("línea {n} del registro de puntos de control: {es}")
}

pub fn line_checkpoint_log_cannot_read(
    n: &impl std::fmt::Display,
    e: &impl std::fmt::Display,
) -> String {
    format!("la línea {n} del registro de puntos de control no se puede leer ({e})")
}

pub fn previous_hash_link_does_not_match() -> String {
    "su enlace al hash anterior no coincide con el evento anterior".to_string()
}

pub fn row_added_by_hand(id: &impl std::fmt::Display) -> String {
    format!("fila {id} añadida a mano")
}

pub fn row_changed(id: &impl std::fmt::Display) -> String {
    format!("fila {id} modificada")
}

/// `c_es`: the column's name in a Spanish file's header, empty when it has none (an id, a time).
pub fn row_column_changed(
    id: &impl std::fmt::Display,
    c: &impl std::fmt::Display,
    c_es: &impl std::fmt::Display,
) -> String {
    let c_es = c_es.to_string();
    if c_es.is_empty() {
        format!("fila {id}, columna {c} modificada")
    } else {
        format!("fila {id}, columna «{c_es}» ({c}) modificada")
    }
}

pub fn row_differs_from_what_was_recorded(
    table: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    now: &impl std::fmt::Display,
    then: &impl std::fmt::Display,
) -> String {
    format!(
        "la fila {id} de {table} difiere de lo registrado: guardada ahora {now}, registrada {then}"
    )
}

pub fn row_has_no_audit_event_was(
    table: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
) -> String {
    format!("la fila {id} de {table} no tiene evento de auditoría: se insertó por fuera de vigia")
}

pub fn row_no_longer_exists(table: &impl std::fmt::Display, id: &impl std::fmt::Display) -> String {
    format!("la fila {id} de {table} ya no existe")
}

pub fn row_removed(id: &impl std::fmt::Display) -> String {
    format!("fila {id} eliminada")
}

pub fn rows_written_with_no_longer_match(
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("filas escritas con él ya no coinciden con lo registrado: {es}")
}

pub fn rows_written_with_no_longer_match_2(
    _ranges: &impl std::fmt::Display,
    rangos: &impl std::fmt::Display,
    _also_en: &impl std::fmt::Display,
    also_es: &impl std::fmt::Display,
) -> String {
    format!(
        "filas escritas con él ya no coinciden con lo registrado (p. ej., {rangos} editadas o borradas a mano){also_es}"
    )
}

pub fn sequence_jumps_from_events_were_removed(
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
) -> String {
    format!("la secuencia salta del {from} al {to}: se quitaron eventos")
}

pub fn signature_does_not_verify_line_was() -> String {
    "su firma no se verifica: la línea fue alterada o falsificada".to_string()
}

pub fn signed_empty_chain_with_non_zero() -> String {
    "firmó una cadena vacía con un hash distinto de cero".to_string()
}

pub fn signed_events_chain_now_has_events(
    signed: &impl std::fmt::Display,
    expected_seq: &impl std::fmt::Display,
) -> String {
    format!(
        "firmó {signed} eventos y la cadena tiene ahora {expected_seq}: se quitaron eventos \
                 del final de la cadena"
    )
}

pub fn was_signed_by_another_key_id(
    _en: &impl std::fmt::Display,
    other: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "{es} lo firmó otra clave (id {other}), antes de que el registro se iniciara de nuevo: \
                     no se puede verificar con esta clave"
    )
}

pub fn was_signed_by_another_key_id_2(
    other: &impl std::fmt::Display,
    this: &impl std::fmt::Display,
) -> String {
    format!("lo firmó otra clave (id {other}; esta clave es {this})")
}

pub fn row_of_table(
    t: &impl std::fmt::Display,
    _row_en: &impl std::fmt::Display,
    row_es: &impl std::fmt::Display,
) -> String {
    format!("{t}: {row_es}")
}

pub fn file_not_sqlite() -> String {
    "el archivo no es una base de datos SQLite".to_string()
}

pub fn vigia_id_but_schema_version(v: &impl std::fmt::Display) -> String {
    format!("tiene el identificador de aplicación de vigia pero la versión de esquema {v}")
}

pub fn another_application_id(app: &impl std::fmt::Display) -> String {
    format!("es la base de datos SQLite de otra aplicación (identificador de aplicación {app})")
}

pub fn sqlite_without_tables() -> String {
    "es una base de datos SQLite sin tablas".to_string()
}

pub fn another_application_tables(
    version: &impl std::fmt::Display,
    listed: &impl std::fmt::Display,
) -> String {
    format!(
        "es la base de datos SQLite de otra aplicación (versión de esquema {version}, tablas \
         {listed})"
    )
}

pub fn file_empty() -> String {
    "el archivo está vacío".to_string()
}

pub fn cannot_create(e: &impl std::fmt::Display) -> String {
    format!("no se puede crear ({e})")
}

pub fn key_directory_not_created(e: &impl std::fmt::Display) -> String {
    format!("no se puede crear su carpeta ({e})")
}

pub fn key_no_random_bytes(e: &impl std::fmt::Display) -> String {
    format!("el sistema no dio bytes aleatorios ({e})")
}

pub fn key_not_created(e: &impl std::fmt::Display) -> String {
    format!("no se puede crear ({e})")
}

pub fn key_not_written(e: &impl std::fmt::Display) -> String {
    format!("no se puede escribir ({e})")
}

pub fn cannot_be_read(e: &impl std::fmt::Display) -> String {
    format!("no se puede leer ({e})")
}

pub fn key_not_regular_file() -> String {
    "no es un archivo común (un enlace simbólico no se sigue)".to_string()
}

pub fn key_public_not_hex() -> String {
    "su línea public no tiene 64 dígitos hexadecimales: no es una clave de auditoría de vigia"
        .to_string()
}

pub fn key_secret_not_hex() -> String {
    "su línea secret no tiene 64 dígitos hexadecimales: no es una clave de auditoría de vigia"
        .to_string()
}

pub fn key_no_public_line() -> String {
    "no tiene línea public: no es una clave de auditoría de vigia".to_string()
}

pub fn key_not_ed25519() -> String {
    "su clave pública no es una clave Ed25519".to_string()
}

pub fn key_lines_mismatch() -> String {
    "sus líneas secret y public no corresponden a la misma clave".to_string()
}

pub fn key_readable_by_others(mode: &impl std::fmt::Display) -> String {
    format!("otros usuarios pueden leerla (modo {mode}); hágala privada con chmod 600")
}

pub fn key_public_only() -> String {
    "solo contiene la clave pública: sirve para verificar puntos de control, no para firmarlos"
        .to_string()
}

pub fn log_not_appended(e: &impl std::fmt::Display) -> String {
    format!("no se le puede agregar una línea ({e})")
}
