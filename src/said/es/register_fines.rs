//! Las frases en español del área register_fines, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::register_fines`, tiene las mismas funciones).

pub fn adjudication_has_shares_only_them_not(
    id: &impl std::fmt::Display,
    _shares: &impl std::fmt::Display,
    _remaining: &impl std::fmt::Display,
    shares_es: &impl std::fmt::Display,
    remaining_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la adjudicación N.º {id} tiene {shares_es} acciones y solo quedan {remaining_es} sin un \
                 incumplimiento ya registrado: registre como máximo {remaining_es}"
    )
}

pub fn adjudication_was_not_financed_no_lender(id: &impl std::fmt::Display) -> String {
    format!(
        "la adjudicación {id} no fue financiada (no tiene prestamista registrado), así que \
                 no hay crédito que subrogar; registre el incumplimiento como lo que fue, o corrija \
                 antes el prestamista de la adjudicación"
    )
}

pub fn after_today_notice_dated_day_issued(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); un aviso lleva la fecha en que se emite, o una \
                 anterior"
    )
}

pub fn after_today_paz_y_salvo_dated(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); un paz y salvo lleva la fecha en que se \
                 expide, o una anterior"
    )
}

pub fn after_today_record_breach_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); registre el incumplimiento una vez ocurrido, con \
                 la fecha en que ocurrió"
    )
}

pub fn after_today_record_delivery_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!("es posterior a la fecha de hoy ({today_es}); registre la entrega una vez ocurrida")
}

pub fn after_today_record_inscription_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!("es posterior a la fecha de hoy ({today_es}); registre la inscripción una vez hecha")
}

pub fn after_today_record_payment_once_has(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es posterior a la fecha de hoy ({today_es}); registre el pago una vez efectuado, con la fecha \
                 en que se hizo"
    )
}

pub fn already_has_paz_y_salvo_render(
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "ya tiene su paz y salvo, el {number} del {on_es}; en lugar de expedir otro, genere de nuevo \
             ese documento"
    )
}

pub fn before_adjudication(
    _adjudicated: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!("es anterior a la adjudicación del {adjudicated_es}")
}

pub fn before_adjudication_breach_can_only_follow(
    _adjudicated: &impl std::fmt::Display,
    adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a la adjudicación del {adjudicated_es}; un incumplimiento solo puede ser \
                     posterior a la adjudicación"
    )
}

pub fn before_breach_payments_against_fine_come(
    _breach_date: &impl std::fmt::Display,
    breach_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior al incumplimiento del {breach_es}; los pagos de la multa son posteriores a él"
    )
}

pub fn before_breach_share_ledger_inscribes_transfer(
    _breach: &impl std::fmt::Display,
    breach_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior al incumplimiento del {breach_es}; el libro de registro de acciones inscribe un \
                     traspaso después de acordado"
    )
}

pub fn before_day_fine_liquidated_notice_states(
    _until: &impl std::fmt::Display,
    until_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a la fecha a la que se liquida la multa ({until_es}); un aviso indica lo que se debe \
                 a una fecha ya cumplida: liquide a la fecha del aviso o a una anterior"
    )
}

pub fn before_last_payment_certificate_comes_after(
    _last: &impl std::fmt::Display,
    last_es: &impl std::fmt::Display,
) -> String {
    format!("es anterior al último pago ({last_es}); el paz y salvo se expide después de él")
}

pub fn before_notice_s_date_notice_delivered(
    _date: &impl std::fmt::Display,
    date_es: &impl std::fmt::Display,
) -> String {
    format!("es anterior a la fecha del aviso ({date_es}); un aviso se entrega después de emitido")
}

pub fn before_notice_which_this_one_would(
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior al aviso {number} del {on_es}, que este reemplazaría; un aviso reemplaza a uno \
                 anterior: féchelo el {on_es} o después"
    )
}

pub fn before_today_day_notice_issued_notice(
    _today: &impl std::fmt::Display,
    today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "es anterior a hoy ({today_es}), el día en que se emite el aviso; un aviso lleva la fecha \
                 de su emisión, salvo que se registre el motivo de una fecha anterior"
    )
}

pub fn belongs_breach_not_breach(
    of: &impl std::fmt::Display,
    named: &impl std::fmt::Display,
) -> String {
    format!("pertenece al incumplimiento N.º {of}, no al N.º {named}")
}

pub fn breach_has_paz_y_salvo_which(
    breach: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el incumplimiento N.º {breach} tiene el paz y salvo {number} del {on_es}, que certifica su multa \
                 pagada con este pago: un certificado entregado al titular no puede retirarse, de modo que sus \
                 pagos permanecen en el registro"
    )
}

pub fn breach_was_voided_by_has_no(
    breach_id: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el incumplimiento N.º {breach_id} fue anulado el {at_es} por {by} ({why}); no tiene multa"
    )
}

pub fn breach_was_voided_has_no_fine(why: &impl std::fmt::Display) -> String {
    format!("el incumplimiento fue anulado ({why}); no tiene multa que pagar")
}

pub fn breaches_recorded_adjudication_add_up_more(id: &impl std::fmt::Display) -> String {
    format!(
        "los incumplimientos registrados sobre la adjudicación N.º {id} suman más acciones de las \
                 que se pueden contar"
    )
}

pub fn bytes_long_at_most_mib(
    _not_en: &impl std::fmt::Display,
    _size: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    not_es: &impl std::fmt::Display,
    size_es: &impl std::fmt::Display,
) -> String {
    format!("{not_es}: mide {size_es} bytes (como máximo {max} MiB)")
}

pub fn cannot_read_back_own_rendering(
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("vigia no puede leer su propio documento: {es}")
}

pub fn delivery_already_recorded_by_recorded_by(
    _on: &impl std::fmt::Display,
    via: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!("su entrega ya está registrada: el {on_es} por {via} (registrada por {by} el {at_es})")
}

pub fn empty_leave_out_say_what_proves() -> String {
    "está vacía; omítala o indique qué prueba la entrega".to_string()
}

pub fn empty_say_why_notice_bears_earlier() -> String {
    "está vacío; indique por qué el aviso lleva una fecha anterior a la de su emisión".to_string()
}

pub fn fine_settled_paz_y_salvo_there(
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!("su multa está pagada: paz y salvo {number} del {on_es}; no hay nada que cobrar")
}

pub fn has_force_against_fine_money_received(
    _list: &impl std::fmt::Display,
    tiene: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
    anulelos: &impl std::fmt::Display,
) -> String {
    format!(
        "{tiene} {lista} de su multa; el dinero recibido por un incumplimiento anulado desaparecería de todas las \
                 cifras sin explicación: {anulelos}, indicando el motivo"
    )
}

pub fn has_no_letterhead_register_letter_needs(
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("no tiene membrete en el registro: una carta necesita {es}")
}

pub fn has_paz_y_salvo_which_certifies(
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "tiene el paz y salvo {number} del {on_es}, que certifica su multa pagada por completo: \
                 después de él no se registran pagos (una suma recibida después se devuelve a quien la \
                 pagó, fuera de la multa)"
    )
}

pub fn holder_has_no_file_so_notice(
    name: &impl std::fmt::Display,
    _lacks: &impl std::fmt::Display,
    lacks_es: &impl std::fmt::Display,
    on_file_es: &impl std::fmt::Display,
    label: &impl std::fmt::Display,
) -> String {
    format!(
        "el titular {name} no tiene {lacks_es} {on_file_es}, de modo que el aviso no pudo llegarle por \
                 {label}; registre primero su {lacks_es}, o una entrega personal"
    )
}

pub fn issued_notice_demanded_fine_from_holder(
    _notices_en: &impl std::fmt::Display,
    _list: &impl std::fmt::Display,
    _was: &impl std::fmt::Display,
    expedido: &impl std::fmt::Display,
    avisos: &impl std::fmt::Display,
    lista: &impl std::fmt::Display,
) -> String {
    format!(
        "por él {expedido} {avisos} {lista}: un aviso le cobró la multa al titular y no puede retirarse, de modo \
             que un incumplimiento notificado permanece en el registro; si se registró por error, el emisor debe \
             revocar el aviso mediante un acto escrito propio (vigia no registra ese acto)"
    )
}

pub fn issuer() -> String {
    "el emisor".to_string()
}

pub fn letterhead_lacks_which_needs(
    _en: &impl std::fmt::Display,
    _doc_en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
    doc_es: &impl std::fmt::Display,
) -> String {
    format!("a su membrete le falta {es}, que {doc_es} necesita")
}

pub fn liquidation_provisional_later_stage_s_price() -> String {
    "su liquidación es provisional (el precio de la etapa posterior está pendiente), de modo que \
     la multa aún puede aumentar; registre primero el precio de la etapa, o que no habrá etapa \
     posterior"
        .to_string()
}

pub fn liquidation_provisional_later_stage_pending(price: &impl std::fmt::Display) -> String {
    format!(
        "su liquidación es provisional: una etapa posterior sigue pendiente (el precio de la etapa \
         hasta ahora es {price} por acción; un precio mayor en esa etapa aumentaría la multa), de \
         modo que la multa aún puede aumentar; concluya primero esa etapa: adjudíquela o declárela \
         desierta; o, si los enajenantes obtuvieron su precio final fuera de vigia, registre ese \
         precio"
    )
}

pub fn must_at_least_1_breach_covers() -> String {
    "debe ser al menos 1: un incumplimiento cubre las acciones negociadas".to_string()
}

pub fn must_not_negative() -> String {
    "no puede ser negativa".to_string()
}

pub fn no_document_number_multa_yyyy_nnnn() -> String {
    "no se encontró en él el número del documento (MULTA-AAAA-NNNN o PAZ-AAAA-NNNN) \
                 y la línea del programa"
        .to_string()
}

pub fn no_fine_applies() -> String {
    "no hay lugar a multa por este incumplimiento".to_string()
}

pub fn no_fine_applies_lock_up_adjudication(
    id: &impl std::fmt::Display,
    _lockup_end: &impl std::fmt::Display,
    _free: &impl std::fmt::Display,
    end_es: &impl std::fmt::Display,
    free_es: &impl std::fmt::Display,
) -> String {
    format!(
        "no hay lugar a multa: el período de restricción de negociabilidad de la adjudicación N.º {id} \
                     terminó el {end_es} y el titular podía negociar libremente sus acciones desde el {free_es}; \
                     no se registró nada"
    )
}

pub fn no_notice_has_this_number() -> String {
    "ningún aviso de cobro tiene este número".to_string()
}

pub fn no_payment_recorded_against_fine() -> String {
    "no hay pagos registrados de su multa".to_string()
}

pub fn no_paz_y_salvo_has_this() -> String {
    "ningún paz y salvo tiene este número".to_string()
}

pub fn no_program_register(code: &impl std::fmt::Display) -> String {
    format!("el programa {code} que nombra no está en el registro")
}

pub fn no_register(
    _en: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("ningún {es} del registro tiene el número {number}")
}

pub fn nothing_change_letterhead_force_already_says() -> String {
    "no hay nada que cambiar: el membrete vigente ya dice esto".to_string()
}

pub fn nothing_outstanding_fine_as_paid_full(
    _until: &impl std::fmt::Display,
    until_es: &impl std::fmt::Display,
) -> String {
    format!(
        "su multa no tiene saldo pendiente al {until_es} (está pagada en su totalidad): un aviso \
                 de cobro pediría $ 0"
    )
}

pub fn only_number_doc_breach_replaced_payment() -> String {
    "en una referencia de pago solo se reemplazan {number}, {doc} y {breach}".to_string()
}

pub fn payment_account() -> String {
    "la cuenta de pago".to_string()
}

pub fn payment_bank() -> String {
    "el banco de pago".to_string()
}

pub fn payment_must_greater_than_zero() -> String {
    "debe ser mayor que cero".to_string()
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn payment_with_same_reference_already_recorded(
    id: &impl std::fmt::Display,
    amount: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    _reference: &impl std::fmt::Display,
    breach: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
    referencia: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el pago N.º {id} por {amount} del {on_es} con la misma referencia ({referencia}) ya está \
                 registrado en el incumplimiento N.º {breach} (lo registró {by} el {at_es}); no se registró nada: un \
                 pago ingresado dos veces se contaría dos veces"
    )
}

pub fn paz_y_salvo_was_issued_certificate(
    number: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "se expidió su paz y salvo {number} del {on_es}: un certificado entregado al titular no puede \
             retirarse, de modo que un incumplimiento con paz y salvo permanece en el registro"
    )
}

pub fn program_does_not_list_that_breach(
    code: &impl std::fmt::Display,
    _listed: &impl std::fmt::Display,
    listed_es: &impl std::fmt::Display,
) -> String {
    format!("el programa {code} no contempla ese tipo de incumplimiento; contempla: {listed_es}")
}

pub fn program_issues_only_signed_signatures_required(
    code: &impl std::fmt::Display,
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "el programa {code} emite sus {es} solo firmados (su [signatures] required_for): fírmelo con el certificado de uno de sus firmantes autorizados"
    )
}

pub fn programs_have_notice_with_this_number(n: &impl std::fmt::Display) -> String {
    format!("{n} programas tienen un aviso de cobro con este número")
}

pub fn programs_have_paz_y_salvo_with(n: &impl std::fmt::Display) -> String {
    format!("{n} programas tienen un paz y salvo con este número")
}

pub fn recorded_only_notice_dated_before_day() -> String {
    "solo se registra para un aviso fechado antes del día de su emisión; este lleva la fecha de hoy"
        .to_string()
}

pub fn return_address() -> String {
    "la dirección de respuesta".to_string()
}

pub fn say_why_breach_voided() -> String {
    "indique por qué se anula el incumplimiento".to_string()
}

pub fn say_why_payment_voided() -> String {
    "indique por qué se anula el pago".to_string()
}

pub fn sentence(
    _not_en: &impl std::fmt::Display,
    _en: &impl std::fmt::Display,
    not_es: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("{not_es}: {es}")
}

pub fn signatory_s_name() -> String {
    "el nombre de quien firma".to_string()
}

pub fn signatory_s_position() -> String {
    "el cargo de quien firma".to_string()
}

pub fn still_outstanding_day_last_payment_paz(
    due: &impl std::fmt::Display,
    _last: &impl std::fmt::Display,
    last_es: &impl std::fmt::Display,
) -> String {
    format!(
        "al día de su último pago ({last_es}) queda un saldo pendiente de {due}; el paz y salvo \
                 certifica una multa pagada en su totalidad"
    )
}

pub fn superseded_payment_voided_by(
    id: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la liquidación quedó superada: el pago {id} que aplicaba fue anulado el {at_es} por \
             {by}: {reason}"
    )
}

pub fn was_replaced_by_deliver_that_one(
    number: &impl std::fmt::Display,
    _date: &impl std::fmt::Display,
    date_es: &impl std::fmt::Display,
) -> String {
    format!("este aviso fue reemplazado por el aviso {number} del {date_es}: entregue ese")
}

pub fn was_voided_has_no_fine(
    _at: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!("fue anulado el {at_es} ({why}): no tiene multa")
}

pub fn acta_not_notice(stage: &u8, program: &String) -> String {
    let del = if program.is_empty() {
        String::new()
    } else {
        format!(" del programa {program}")
    };
    let (etapa, donde) = match stage {
        1 => ("Primera", "la página de la oferta del programa"),
        2 => ("Segunda", "la página de la etapa"),
        _ => ("Tercera", "la página de la etapa"),
    };
    format!(
        "es el acta de la {etapa} Etapa{del}, no un aviso de cobro ni un paz y salvo: las actas se \
         verifican contra los registros de su etapa, en la web en {donde} («Verificar el acta»)"
    )
}

pub fn every_share_in_a_breach(
    id: &impl std::fmt::Display,
    _shares: &impl std::fmt::Display,
    shares_es: &impl std::fmt::Display,
) -> String {
    format!(
        "todas las acciones de la adjudicación N.º {id} ({shares_es}) ya están en incumplimientos \
         registrados: no queda ninguna por la cual registrar otro (anule antes el incumplimiento \
         registrado por error)"
    )
}
