//! Las frases en español del área register_holdings, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::register_holdings`, tiene las mismas funciones).

pub fn acceptances_add_up_more_shares_than() -> String {
    "las aceptaciones suman más acciones de las que se pueden contar; revise el archivo".to_string()
}

pub fn adjudication_already_has_pledge_rank_registered(
    id: &impl std::fmt::Display,
    pledge: &impl std::fmt::Display,
    rank: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la adjudicación N.º {id} ya tiene vigente la prenda N.º {pledge} (de grado {rank}, inscrita el \
                         {on_es}); libérela primero"
    )
}

pub fn adjudication_has_no_financing_lender_second(id: &impl std::fmt::Display) -> String {
    format!(
        "la adjudicación N.º {id} no tiene prestamista que haya financiado la compra; la prenda de \
                 segundo grado solo procede cuando el prestamista tiene la de primer grado (art. 10): \
                 indique el prestamista o use el grado 1"
    )
}

pub fn adjudication_has_no_pledge_force_release(id: &impl std::fmt::Display) -> String {
    format!("la adjudicación N.º {id} no tiene prenda vigente que liberar")
}

pub fn adjudication_takes_place_once_offer_has(
    _closes: &impl std::fmt::Display,
    closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la adjudicación se hace «vencido el plazo de la oferta pública» (art. 12): la oferta cierra el \
                 {closes_es}; adjudique en una fecha posterior"
    )
}

pub fn after_today_record_release_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); registre la liberación una vez inscrita en el libro \
                 de registro de acciones, con la fecha de la inscripción"
    )
}

pub fn after_today_register_pledge_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); registre la prenda una vez inscrita en el libro de \
                 registro de acciones, con la fecha de la inscripción"
    )
}

pub fn already_has_adjudicated_shares_register_imported(
    code: &impl std::fmt::Display,
    _already: &impl std::fmt::Display,
    already_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{code} ya tiene {already_es} acciones adjudicadas en el registro (importadas); la adjudicación de \
             la primera etapa debe partir de un registro sin adjudicaciones del programa"
    )
}

pub fn already_registered_as_adjudication_with_other(
    _award: &impl std::fmt::Display,
    program: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _what: &impl std::fmt::Display,
    adjudicacion: &impl std::fmt::Display,
    cifras: &impl std::fmt::Display,
) -> String {
    format!(
        "{adjudicacion} ya está registrada en {program} como la adjudicación N.º {id} con otras cifras \
             ({cifras})"
    )
}

pub fn already_registered_as_holder_register_earlier(
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    _registered: &impl std::fmt::Display,
    holder: &impl std::fmt::Display,
    registrado: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} ya está registrado como {registrado} (titular N.º {holder}, en el registro o antes \
                 en este archivo); un documento, un titular"
    )
}

pub fn before_adjudication_pledge_registered_after_shares(
    _adjudicated: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a la adjudicación del {adjudicated_es}; la prenda se inscribe después de \
                 adjudicadas las acciones"
    )
}

pub fn file_adjudicates_shares_with_already_registered(
    _shares: &impl std::fmt::Display,
    _already: &impl std::fmt::Display,
    _offered: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    adjudica: &impl std::fmt::Display,
    ya: &impl std::fmt::Display,
    ofrecidas: &impl std::fmt::Display,
) -> String {
    format!(
        "el archivo adjudica {adjudica} acciones; con las {ya} ya registradas supera las {ofrecidas} que ofrece {code}"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn file_adjudicates_shares_with_already_registered_2(
    _shares: &impl std::fmt::Display,
    _already: &impl std::fmt::Display,
    _awarded: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    adjudica: &impl std::fmt::Display,
    ya: &impl std::fmt::Display,
    adjudicada: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el archivo adjudica {adjudica} acciones; con las {ya} ya registradas supera las {adjudicada} que adjudicó la \
             primera etapa de {code} según su registro (concluida fuera de vigia el {on_es}, acta {acta})"
    )
}

pub fn file_s_rows_add_up_more(
    code: &impl std::fmt::Display,
    _offered: &impl std::fmt::Display,
    ofrecidas: &impl std::fmt::Display,
) -> String {
    format!(
        "las filas del archivo suman más acciones de las que se pueden contar; {code} ofrece {ofrecidas}"
    )
}

pub fn fine_breach_provisional_stage_pending_pledge_secures(
    breach: &impl std::fmt::Display,
) -> String {
    format!(
        "la multa del incumplimiento N.º {breach} es provisional (el precio de la etapa posterior \
         está pendiente), de modo que aún puede aumentar; la prenda la garantiza (art. 10) y se \
         mantiene hasta que se registre el precio de la etapa"
    )
}

pub fn fine_breach_provisional_so_far_pledge_secures(
    breach: &impl std::fmt::Display,
    price: &impl std::fmt::Display,
) -> String {
    format!(
        "la multa del incumplimiento N.º {breach} es provisional: una etapa posterior sigue \
         pendiente (el precio de la etapa hasta ahora es {price} por acción; un precio mayor en \
         esa etapa aumentaría la multa); la prenda la garantiza (art. 10) y se mantiene hasta que \
         esa etapa concluya: adjudíquela o declárela desierta"
    )
}

pub fn fine_breach_outstanding_as_pledge_secures(
    breach: &impl std::fmt::Display,
    due: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la multa del incumplimiento N.º {breach} tiene saldo pendiente ({due} al {on_es}); la prenda \
                     la garantiza (art. 10) y se mantiene hasta que la multa se pague"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn first_stage_already_recorded_as_concluded(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _awarded: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    awarded_es: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la primera etapa de {code} ya está registrada como concluida fuera de vigia (registro N.º {id}: \
             {awarded_es} acciones adjudicadas el {on_es}, {acta}, por {by}); los registros no se modifican"
    )
}

pub fn first_stage_offer_run_vigia_offer(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _opens: &impl std::fmt::Display,
    opens_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la oferta de primera etapa de {code} se lleva en vigia (oferta N.º {id}, abierta el {opens_es}): \
             adjudíquela en vigia"
    )
}

pub fn first_stage_was_concluded_outside_vigia(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la primera etapa de {code} concluyó fuera de vigia (registro N.º {id}: adjudicada el {on_es}, {acta}); \
             un programa tiene una sola primera etapa"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn has_adjudications_add_say_which_give(
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    n: &impl std::fmt::Display,
    _narrowed: &impl std::fmt::Display,
    _list: &impl std::fmt::Display,
    _add: &impl std::fmt::Display,
    acotada: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
    agregue: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} tiene {n} adjudicaciones{acotada}: {lista}; agregue o llene {agregue} para decir cuál, \
                     o dé la columna «Adjudicación» (adjudication_id)"
    )
}

pub fn has_force_void_first_if_was(
    _list: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
) -> String {
    format!("tiene vigente {lista}; si se inscribió por error, anúlela primero")
}

pub fn has_no_acceptances_register_import_them(code: &impl std::fmt::Display) -> String {
    format!(
        "{code} no tiene aceptaciones en el registro; impórtelas primero (la adjudicación se hace en una \
                 sola oportunidad, de modo que no se ejecuta sobre una oferta sin aceptaciones)"
    )
}

pub fn has_no_adjudication_register_voided_ones(
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    _narrowed: &impl std::fmt::Display,
    acotada: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} no tiene ninguna adjudicación{acotada} en el registro (las anuladas no \
                 cuentan); revise el documento o importe antes la adjudicación"
    )
}

pub fn has_no_offer_adjudicate_record_opening(code: &impl std::fmt::Display) -> String {
    format!(
        "{code} no tiene oferta que adjudicar; registre la apertura de la oferta e importe sus aceptaciones"
    )
}

pub fn has_no_offer_yet_acceptances_answer(code: &impl std::fmt::Display) -> String {
    format!(
        "{code} aún no tiene oferta: las aceptaciones responden a una oferta pública (art. 4); registre \
                 primero la apertura de la oferta, con la fecha del aviso y la de cierre"
    )
}

pub fn has_recorded_against_void_them_first(
    _list: &impl std::fmt::Display,
    tiene: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
    si: &impl std::fmt::Display,
) -> String {
    format!("{tiene} {lista}; {si}")
}

pub fn holders_have_this_number_with_different(n: &impl std::fmt::Display) -> String {
    format!("{n} titulares tienen este número con distintos tipos de documento")
}

pub fn lender_financed_shares_adjudication_second_degree(
    _financed: &impl std::fmt::Display,
    _adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _second: &impl std::fmt::Display,
    financed_es: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
    second_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el prestamista financió {financed_es} de las {adjudicated_es} acciones de la adjudicación N.º {id}, y \
                 las prendas de segundo grado cubrirían {second_es}; el segundo grado corresponde a las acciones \
                 financiadas que el prestamista tiene en prenda, las demás llevan la prenda de primer grado (art. 10): \
                 pignore a lo sumo esas en segundo grado y las demás en primero"
    )
}

pub fn line_this_file_already_awards_holder(
    line: &impl std::fmt::Display,
    _award: &impl std::fmt::Display,
    adjudicacion: &impl std::fmt::Display,
) -> String {
    format!(
        "la línea {line} de este archivo ya adjudica a {adjudicacion}; un titular recibe una sola adjudicación \
                 por programa y fecha: deje una sola línea (con el total de acciones)"
    )
}

pub fn lock_up_adjudication_runs_until_pledge(
    id: &impl std::fmt::Display,
    _lockup_end: &impl std::fmt::Display,
    _free: &impl std::fmt::Display,
    end_es: &impl std::fmt::Display,
    free_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el período de restricción de negociabilidad de la adjudicación N.º {id} va hasta el {end_es}; \
                 la prenda puede liberarse a partir del {free_es}"
    )
}

pub fn more_than_shares_adjudication_pledge_covers(
    _adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "supera las {adjudicated_es} acciones de la adjudicación N.º {id}; una prenda cubre a lo sumo las \
                     acciones adjudicadas"
    )
}

pub fn more_than_shares_adjudication_that_no(
    _free: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _adjudicated: &impl std::fmt::Display,
    _list: &impl std::fmt::Display,
    free_es: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
) -> String {
    format!(
        "supera las {free_es} acciones de la adjudicación N.º {id} que ninguna prenda vigente cubre \
                     ({adjudicated_es} adjudicadas; vigentes: {lista}); las prendas vigentes juntas cubren a lo sumo \
                     las acciones adjudicadas"
    )
}

pub fn must_1_first_degree_2_second() -> String {
    "debe ser 1 (primer grado) o 2 (segundo grado, cuando el prestamista tiene el primero)"
        .to_string()
}

pub fn must_name_acta_that_states_adjudication() -> String {
    "debe nombrar el acta que consigna la adjudicación (p. ej., «Acta 014 de 2007»), en una sola línea".to_string()
}

pub fn no_holder_has_this_document() -> String {
    "ningún titular tiene este documento".to_string()
}

pub fn not_e_mail_address_one_domain() -> String {
    "no es una dirección de correo electrónico (una @, un dominio con punto, sin espacios)"
        .to_string()
}

pub fn nothing_change_holder_s_address_city() -> String {
    "no hay nada que cambiar: la dirección, la ciudad y el correo electrónico del titular ya son estos".to_string()
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn offer_must_stay_open_at_least(
    _length_en: &impl std::fmt::Display,
    decree: &impl std::fmt::Display,
    article: &impl std::fmt::Display,
    _opens: &impl std::fmt::Display,
    _earliest: &impl std::fmt::Display,
    length_es: &impl std::fmt::Display,
    opens_es: &impl std::fmt::Display,
    earliest_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la oferta debe permanecer vigente al menos {length_es} \
         ({decree}, {article}; C. Co., art. 829): con el aviso \
         publicado el {opens_es}, cierra el {earliest_es} o después"
    )
}

pub fn offer_was_adjudicated_run_adjudication_takes(
    code: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    run_id: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la oferta de {code} se adjudicó el {on_es} (Adjudicación N.º {run_id}); la adjudicación se hace en \
             una sola oportunidad (art. 12), de modo que no pueden considerarse aceptaciones posteriores"
    )
}

pub fn offer_was_already_adjudicated_run_fingerprint(
    code: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    run_id: &impl std::fmt::Display,
    fingerprint: &impl std::fmt::Display,
    _source: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
    fuente: &impl std::fmt::Display,
) -> String {
    format!(
        "la oferta de {code} ya se adjudicó el {on_es} (Adjudicación N.º {run_id}, huella {fingerprint}); la \
             adjudicación se hace «en una sola oportunidad» ({fuente}): no puede repetirse"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn offer_was_already_opened_by_program(
    code: &impl std::fmt::Display,
    _opens: &impl std::fmt::Display,
    _closes: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    opens_es: &impl std::fmt::Display,
    closes_es: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la oferta de {code} ya se abrió (del {opens_es} al {closes_es}, por {by} el {at_es}); un programa \
             tiene una sola oferta de primera etapa"
    )
}

pub fn out_calendar_s_range() -> String {
    "está fuera del rango del calendario".to_string()
}

pub fn pledge_adjudication_was_registered_release_ends(
    pledge: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _registered: &impl std::fmt::Display,
    registered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la prenda N.º {pledge} de la adjudicación N.º {id} se inscribió el {registered_es}; la liberación \
                 pone fin a una prenda existente: féchela el {registered_es} o después"
    )
}

pub fn pledge_covers_at_least_one_share(id: &impl std::fmt::Display) -> String {
    format!(
        "una prenda cubre al menos una acción; omítalo para pignorar todas las acciones de la adjudicación \
                     N.º {id} aún no pignoradas"
    )
}

pub fn program_offers_shares_all_shares_offered(
    code: &impl std::fmt::Display,
    _offered: &impl std::fmt::Display,
    offered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el programa {code} ofrece {offered_es} acciones en total (shares_offered): la primera etapa no puede \
                 adjudicar más"
    )
}

pub fn register_holds_adjudication_s_imported_shares(
    count: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _shares: &impl std::fmt::Display,
    count_es: &impl std::fmt::Display,
    shares_es: &impl std::fmt::Display,
) -> String {
    let (adjudicaciones, importadas, ellas_suman) = if count.to_string() == "1" {
        ("adjudicación", "importada", "ella suma")
    } else {
        ("adjudicaciones", "importadas", "ellas suman")
    };
    format!(
        "el registro tiene {count_es} {adjudicaciones} de {code} {importadas} por {shares_es} acciones: la \
                 primera etapa adjudicó lo que {ellas_suman}; corrija la cifra o la importación"
    )
}

pub fn registered_as_holder_but_accepted_as(
    doc_type: &impl std::fmt::Display,
    doc: &impl std::fmt::Display,
    registered: &(impl std::fmt::Debug + std::fmt::Display),
    holder: &impl std::fmt::Display,
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "el documento {doc_type} {doc} está registrado a nombre de «{registered}» (titular N.º {holder}), pero \
                         la aceptación lo presenta como «{name}»; un documento corresponde a un solo titular: \
                         corrija la aceptación o el registro antes de adjudicar"
    )
}

pub fn say_why_adjudication_voided() -> String {
    "indique por qué se anula la adjudicación".to_string()
}

pub fn say_why_pledge_voided() -> String {
    "indique por qué se anula la prenda".to_string()
}

pub fn shares_adjudication_all_pledged_already(
    _adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _list: &impl std::fmt::Display,
    _then: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
    luego: &impl std::fmt::Display,
) -> String {
    format!(
        "las {adjudicated_es} acciones de la adjudicación N.º {id} ya están todas pignoradas ({lista}); \
                         {luego}"
    )
}

pub fn this_adjudication_was_already_written_as(
    import: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!("esta adjudicación ya se registró como la importación N.º {import} el {at_es}")
}

pub fn vigia_adjudicated_first_stage_itself_run(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "vigia adjudicó la primera etapa de {code} (Adjudicación N.º {id}, el {on_es}): no puede haber concluido \
             también fuera de vigia"
    )
}

pub fn was_released_already(
    _released: &impl std::fmt::Display,
    released_es: &impl std::fmt::Display,
) -> String {
    format!("ya fue liberada el {released_es}")
}

pub fn was_released_release_history_pledge_secured(
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "fue liberada el {on_es}; la liberación es un hecho cumplido (la prenda gravó las acciones hasta \
                 entonces) y una prenda liberada no puede anularse"
    )
}

pub fn was_voided_by_not_award_any(
    _at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!("fue anulada el {at_es} por {by} ({reason}); ya no es una adjudicación vigente")
}

pub fn was_voided_not_award_any_more() -> String {
    "fue anulada; ya no es una adjudicación vigente y no admite prenda".to_string()
}
