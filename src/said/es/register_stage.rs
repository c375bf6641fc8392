//! Las frases en español del área register_stage, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::register_stage`, tiene las mismas funciones).

pub fn already_answered_invitation_with_bidder_answers(
    offered: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "ya respondió la invitación con {offered} el {at_es}; cada proponente responde una sola vez"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn already_open_shares_by_next_tranche(
    _shares: &impl std::fmt::Display,
    _opens: &impl std::fmt::Display,
    _closes: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    next: &impl std::fmt::Display,
    shares_es: &impl std::fmt::Display,
    opens_es: &impl std::fmt::Display,
    closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "ya está abierto ({shares_es} acciones, del {opens_es} al {closes_es}, por {by}); el siguiente \
                 tramo es el {next}"
    )
}

pub fn already_registered_proposal_proposals_import_one(
    id: &impl std::fmt::Display,
    import: &impl std::fmt::Display,
) -> String {
    format!(
        "ya está registrada (propuesta N.º {id}, importación de propuestas N.º {import}): una propuesta, \
                     una referencia"
    )
}

pub fn before_opening(
    _opens: &impl std::fmt::Display,
    opens_es: &impl std::fmt::Display,
) -> String {
    format!("es anterior a la apertura del {opens_es}")
}

pub fn file_holds_no_proposal() -> String {
    "el archivo no contiene ninguna propuesta".to_string()
}

pub fn first_stage_has_not_been_adjudicated(code: &impl std::fmt::Display) -> String {
    format!(
        "la primera etapa de {code} no se ha adjudicado: la Segunda Etapa ofrece lo que aquella no \
                     enajenó (art. 13); adjudique primero la oferta de la primera etapa o, si concluyó fuera de \
                     vigia, registre esa adjudicación"
    )
}

pub fn first_stage_placed_every_share_adjudicated(
    code: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la primera etapa de {code} colocó todas las acciones (adjudicada el {on_es}): no queda \
                 nada para una Segunda Etapa"
    )
}

pub fn improvement_round_tranche_closed_when_tie(
    tranche: &impl std::fmt::Display,
    _at: &impl std::fmt::Display,
    draw: &impl std::fmt::Display,
    at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la ronda de mejora del tramo {tranche} se cerró cuando el empate se sorteó el {at_es} \
                 (sorteo N.º {draw})"
    )
}

pub fn must_at_least_1_tranche_offers() -> String {
    "debe ser al menos 1: un tramo ofrece acciones".to_string()
}

pub fn must_greater_than_zero() -> String {
    "debe ser mayor que cero".to_string()
}

pub fn must_public_entropy_named_e_g() -> String {
    "debe ser la fuente pública de azar anunciada (p. ej., el resultado de una lotería), sin «|» ni \
                 caracteres de control".to_string()
}

pub fn no_certified_rate_force_tranche_closes(
    _closes: &impl std::fmt::Display,
    tranche: &impl std::fmt::Display,
    closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "no hay tasa certificada vigente el {closes_es} (fecha de cierre del tramo {tranche}) y el \
                         criterio del programa descuenta al interés bancario corriente vigente en la fecha de cierre: \
                         agregue la certificación de esa fecha"
    )
}

pub fn no_tranche_stage_has_valid_proposal(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "ningún tramo de la {name_es} Etapa de {code} tiene una propuesta válida: declare desierta la etapa"
    )
}

pub fn not_proposal_stage(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!("no es una propuesta de la {name_es} Etapa de {code}")
}

pub fn only_proposals_tied_at_best_value(
    _why: &impl std::fmt::Display,
    porque: &impl std::fmt::Display,
) -> String {
    format!(
        "solo las propuestas empatadas en el mejor valor son invitadas a mejorar su precio: {porque}"
    )
}

pub fn payment_date_falls_outside_calendar() -> String {
    "la fecha de pago queda fuera del calendario".to_string()
}

pub fn previous_stage_ended_decide_later_day(
    _since: &impl std::fmt::Display,
    since_es: &impl std::fmt::Display,
) -> String {
    format!("la etapa anterior concluyó el {since_es}: decida en una fecha posterior")
}

pub fn program_provides_stages_2_after_first(
    code: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!("el programa {code} prevé, después de la primera, las etapas 2 a {last}")
}

pub fn proposals_stage_were_read_tie_round(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "las propuestas de la {name_es} Etapa de {code} ya se leyeron y comenzó la ronda de desempate: no \
             pueden considerarse propuestas posteriores"
    )
}

pub fn rate_period_gives_no_inter_s(
    _from: &impl std::fmt::Display,
    _to: &impl std::fmt::Display,
    from_es: &impl std::fmt::Display,
    to_es: &impl std::fmt::Display,
) -> String {
    format!(
        "el período de tasas del {from_es} al {to_es} no trae el interés bancario corriente; el criterio \
                     del programa lo requiere"
    )
}

pub fn stage_can_offer_more_share_s(
    left: &impl std::fmt::Display,
    _all: &impl std::fmt::Display,
    _held: &impl std::fmt::Display,
    left_es: &impl std::fmt::Display,
    all_es: &impl std::fmt::Display,
    tienen: &impl std::fmt::Display,
) -> String {
    let acciones = if left.to_string() == "1" {
        "acción"
    } else {
        "acciones"
    };
    format!(
        "la etapa puede ofrecer {left_es} {acciones} más: la etapa anterior dejó {all_es}{tienen}"
    )
}

pub fn stage_follows_previous_one_which_ended(
    _since: &impl std::fmt::Display,
    since_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la etapa sigue a la anterior, que concluyó el {since_es}: ábrala en una fecha posterior"
    )
}

pub fn stage_has_no_open_tranche_open(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {name_es} Etapa de {code} no tiene un tramo abierto; abra primero un tramo, con sus acciones y \
                 sus fechas de apertura y cierre"
    )
}

pub fn stage_has_no_open_tranche_proposals(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {name_es} Etapa de {code} no tiene un tramo abierto: las propuestas responden a una invitación \
                 pública (art. 13); abra primero un tramo, con sus acciones y sus fechas de apertura y cierre"
    )
}

pub fn stage_has_no_recorded_draw(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!("la {name_es} Etapa de {code} no tiene ningún sorteo registrado")
}

pub fn stage_has_no_such_tranche(
    _name: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!("la {name_es} Etapa no tiene ese tramo")
}

pub fn stage_has_not_been_adjudicated_nor(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
) -> String {
    format!("la {name_es} Etapa de {code} no ha sido adjudicada ni declarada desierta")
}

pub fn stage_has_not_ended_third_stage(
    _prev_name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    prev_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {prev_es} Etapa de {code} no ha concluido: la Tercera Etapa ofrece lo que aquella no enajenó \
             (art. 16); adjudíquela o declárela desierta primero"
    )
}

pub fn stage_has_tranche_s_1_open(
    _name: &impl std::fmt::Display,
    n: &usize,
    nombre: &impl std::fmt::Display,
) -> String {
    if *n == 1 {
        format!("la {nombre} Etapa tiene el tramo 1: abra antes este tramo")
    } else {
        format!("la {nombre} Etapa tiene los tramos 1 a {n}: abra antes este tramo")
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn stage_offers_totality_what_previous_stage(
    _name: &impl std::fmt::Display,
    _all: &impl std::fmt::Display,
    _offered: &impl std::fmt::Display,
    _missing: &impl std::fmt::Display,
    next: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
    all_es: &impl std::fmt::Display,
    offered_es: &impl std::fmt::Display,
    missing_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {name_es} Etapa ofrece la totalidad de lo que dejó la etapa anterior (arts. 13 y 16): \
                 {all_es} acciones, pero sus tramos suman {offered_es}; abra las {missing_es} restantes como el \
                 tramo {next}"
    )
}

pub fn stage_receives_proposals_until_tranche_decide(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _closes: &impl std::fmt::Display,
    tranche: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
    closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {name_es} Etapa de {code} recibe propuestas hasta el {closes_es} (tramo {tranche}): decida en \
                 una fecha posterior"
    )
}

pub fn stage_sold_every_share_nothing_left(
    _prev_name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    _stage: &impl std::fmt::Display,
    prev_es: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {prev_es} Etapa de {code} enajenó todas las acciones el {on_es}: no queda nada para la etapa siguiente"
    )
}

pub fn stage_was_art_3_stage_exhausted(
    _name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _how: &impl std::fmt::Display,
    _on: &impl std::fmt::Display,
    name_es: &impl std::fmt::Display,
    como: &impl std::fmt::Display,
    on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la {name_es} Etapa de {code} fue {como} el {on_es} (art. 3: la etapa se agotó); no puede hacerse \
             nada más en ella"
    )
}

pub fn tranche_has_no_tie_draw_has(
    tranche: &impl std::fmt::Display,
    best: &impl std::fmt::Display,
) -> String {
    format!(
        "el tramo {tranche} no tiene empate que sortear: la propuesta {best} tiene el mejor valor"
    )
}

pub fn tranche_has_no_valid_proposal_nothing(tranche: &impl std::fmt::Display) -> String {
    format!("el tramo {tranche} no tiene ninguna propuesta válida: no hay nada que sortear")
}

pub fn tranche_has_valid_proposal_stage_with(
    tranche: &impl std::fmt::Display,
    best: &impl std::fmt::Display,
) -> String {
    format!(
        "el tramo {tranche} tiene una propuesta válida ({best}): una etapa con propuesta válida se adjudica, \
                 no se declara desierta"
    )
}

pub fn tranche_tied_between_at_best_value(
    tranche: &impl std::fmt::Display,
    tied: &impl std::fmt::Display,
) -> String {
    format!(
        "en el tramo {tranche} hay empate en el mejor valor entre {tied}: antes de adjudicar, invite a \
                         los proponentes empatados a mejorar su precio y, si el empate persiste, decídalo por sorteo"
    )
}

pub fn tranche_was_already_drawn_draw_seed(
    tranche: &impl std::fmt::Display,
    draw: &impl std::fmt::Display,
    seed: &(impl std::fmt::Debug + std::fmt::Display),
    winner: &impl std::fmt::Display,
) -> String {
    format!(
        "el empate del tramo {tranche} ya se sorteó (sorteo N.º {draw}, semilla «{seed}», propuesta ganadora {winner}); \
                 puede verificar ese sorteo en lugar de repetirlo"
    )
}

pub fn tranches_opened_order_next_one(next: &impl std::fmt::Display) -> String {
    format!("los tramos se abren en orden: el siguiente es el {next}")
}
