//! English sentences of the register_holdings area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::register_holdings`, has the same functions).

pub fn acceptances_add_up_more_shares_than() -> String {
    "the acceptances add up to more shares than a count can hold; check the file".to_string()
}

pub fn adjudication_already_has_pledge_rank_registered(
    id: &impl std::fmt::Display,
    pledge: &impl std::fmt::Display,
    rank: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "adjudication {id} already has pledge {pledge} (rank {rank}, registered {on}) in force; release it first"
    )
}

pub fn adjudication_has_no_financing_lender_second(id: &impl std::fmt::Display) -> String {
    format!(
        "adjudication {id} has no financing lender; a second-degree pledge is taken only when \
                 the lender holds the first (Art. 10): name the lender or use rank 1"
    )
}

pub fn adjudication_has_no_pledge_force_release(id: &impl std::fmt::Display) -> String {
    format!("adjudication {id} has no pledge in force to release")
}

pub fn adjudication_takes_place_once_offer_has(
    closes: &impl std::fmt::Display,
    _closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the adjudication takes place once the offer has closed (\"vencido el plazo de la oferta \
                 pública\", art. 12): the offer closes on {closes}, adjudicate on a later day"
    )
}

pub fn after_today_record_release_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is after today ({today}); record a release once it has been inscribed in the share ledger, with \
                 the date of the inscription"
    )
}

pub fn after_today_register_pledge_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is after today ({today}); register a pledge once it has been inscribed in the share ledger, with \
                 the date of the inscription"
    )
}

pub fn already_has_adjudicated_shares_register_imported(
    code: &impl std::fmt::Display,
    already: &impl std::fmt::Display,
    _already_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{code} already has {already} adjudicated shares in the register (imported); the first-stage \
             adjudication must start from an empty register for the program"
    )
}

pub fn already_registered_as_adjudication_with_other(
    award: &impl std::fmt::Display,
    program: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    what: &impl std::fmt::Display,
    _adjudicacion: &impl std::fmt::Display,
    _cifras: &impl std::fmt::Display,
) -> String {
    format!(
        "{award} is already registered in {program} as adjudication {id} with other figures ({what})"
    )
}

pub fn already_registered_as_holder_register_earlier(
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    registered: &impl std::fmt::Display,
    holder: &impl std::fmt::Display,
    _registrado: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} is already registered as {registered} (holder {holder}, in the register or earlier in this file); one document, one holder"
    )
}

pub fn before_adjudication_pledge_registered_after_shares(
    adjudicated: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the adjudication on {adjudicated}; a pledge is registered after the shares are adjudicated"
    )
}

pub fn file_adjudicates_shares_with_already_registered(
    shares: &impl std::fmt::Display,
    already: &impl std::fmt::Display,
    offered: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _adjudica: &impl std::fmt::Display,
    _ya: &impl std::fmt::Display,
    _ofrecidas: &impl std::fmt::Display,
) -> String {
    format!(
        "the file adjudicates {shares} shares; with the {already} already registered that exceeds the {offered} offered by {code}"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn file_adjudicates_shares_with_already_registered_2(
    shares: &impl std::fmt::Display,
    already: &impl std::fmt::Display,
    awarded: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    _adjudica: &impl std::fmt::Display,
    _ya: &impl std::fmt::Display,
    _adjudicada: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the file adjudicates {shares} shares; with the {already} already registered that exceeds the {awarded} the first stage of {code} awarded as recorded (concluded outside vigia on {on}, acta {acta})"
    )
}

pub fn file_s_rows_add_up_more(
    code: &impl std::fmt::Display,
    offered: &impl std::fmt::Display,
    _ofrecidas: &impl std::fmt::Display,
) -> String {
    format!("the file's rows add up to more shares than can be counted; {code} offers {offered}")
}

pub fn fine_breach_provisional_stage_pending_pledge_secures(
    breach: &impl std::fmt::Display,
) -> String {
    format!(
        "the fine of breach {breach} is provisional (the later stage's price is pending), so it \
         may still rise; the pledge secures it (Art. 10) and stays until the stage price is \
         recorded"
    )
}

pub fn fine_breach_provisional_so_far_pledge_secures(
    breach: &impl std::fmt::Display,
    price: &impl std::fmt::Display,
) -> String {
    format!(
        "the fine of breach {breach} is provisional: a later stage is still pending (the stage \
         price so far is {price} per share; a higher price in that stage would raise the fine); \
         the pledge secures it (Art. 10) and stays until that stage concludes: adjudicate it or \
         declare it void"
    )
}

pub fn fine_breach_outstanding_as_pledge_secures(
    breach: &impl std::fmt::Display,
    due: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the fine of breach {breach} is outstanding ({due} as of {on}); the pledge secures it (Art. 10) and stays \
                     until the fine is paid"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn first_stage_already_recorded_as_concluded(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    awarded: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    _awarded_es: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the first stage of {code} is already recorded as concluded outside vigia (record {id}: {awarded} shares \
             awarded on {on}, {acta}, by {by}); records are never edited"
    )
}

pub fn first_stage_offer_run_vigia_offer(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    opens: &impl std::fmt::Display,
    _opens_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the first-stage offer of {code} is run in vigia (offer {id}, opened on {opens}): adjudicate it in vigia"
    )
}

pub fn first_stage_was_concluded_outside_vigia(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    acta: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the first stage of {code} was concluded outside vigia (record {id}: adjudicated on {on}, {acta}); a \
             program has one first stage"
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
    narrowed: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
    add: &impl std::fmt::Display,
    _acotada: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
    _agregue: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} has {n} adjudications{narrowed}: {list}; add or fill in {add} to say which, or give adjudication_id"
    )
}

pub fn has_force_void_first_if_was(
    list: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
) -> String {
    format!("has {list} in force; void it first if it was registered by mistake")
}

pub fn has_no_acceptances_register_import_them(code: &impl std::fmt::Display) -> String {
    format!(
        "{code} has no acceptances in the register; import them first (the adjudication takes place once, so it \
                 is not run on an empty offer)"
    )
}

pub fn has_no_adjudication_register_voided_ones(
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    narrowed: &impl std::fmt::Display,
    _acotada: &impl std::fmt::Display,
) -> String {
    format!(
        "{doc_type} {doc_number} has no adjudication{narrowed} in the register (voided ones do not count); \
                 check the document, or import the adjudication first"
    )
}

pub fn has_no_offer_adjudicate_record_opening(code: &impl std::fmt::Display) -> String {
    format!("{code} has no offer to adjudicate; record its opening and import its acceptances")
}

pub fn has_no_offer_yet_acceptances_answer(code: &impl std::fmt::Display) -> String {
    format!(
        "{code} has no offer yet: acceptances answer a public offer (Art. 4); record its opening first, with \
                 the notice's date and the closing date"
    )
}

pub fn has_recorded_against_void_them_first(
    list: &impl std::fmt::Display,
    _tiene: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
    _si: &impl std::fmt::Display,
) -> String {
    format!("has {list} recorded against it; void them first if they were recorded by mistake")
}

pub fn holders_have_this_number_with_different(n: &impl std::fmt::Display) -> String {
    format!("{n} holders have this number with different document types")
}

pub fn lender_financed_shares_adjudication_second_degree(
    financed: &impl std::fmt::Display,
    adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    second: &impl std::fmt::Display,
    _financed_es: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
    _second_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the lender financed {financed} of the {adjudicated} shares of adjudication {id}, and second-degree \
                 pledges would cover {second}; the second degree applies to the financed shares the lender holds in \
                 pledge, the rest carry the first-degree pledge (Art. 10): pledge at most those in the second degree, \
                 the others in the first"
    )
}

pub fn line_this_file_already_awards_holder(
    line: &impl std::fmt::Display,
    award: &impl std::fmt::Display,
    _adjudicacion: &impl std::fmt::Display,
) -> String {
    format!(
        "line {line} of this file already awards {award}; a holder is awarded once per program and date: \
                 keep one line (with the award's total shares)"
    )
}

pub fn lock_up_adjudication_runs_until_pledge(
    id: &impl std::fmt::Display,
    lockup_end: &impl std::fmt::Display,
    free: &impl std::fmt::Display,
    _end_es: &impl std::fmt::Display,
    _free_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the lock-up of adjudication {id} runs until {lockup_end}; the pledge can be released from {free}"
    )
}

pub fn more_than_shares_adjudication_pledge_covers(
    adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is more than the {adjudicated} shares of adjudication {id}; a pledge covers at most the shares \
                     adjudicated"
    )
}

pub fn more_than_shares_adjudication_that_no(
    free: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    adjudicated: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
    _free_es: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
) -> String {
    format!(
        "is more than the {free} shares of adjudication {id} that no pledge in force covers ({adjudicated} \
                     adjudicated; in force: {list}); the pledges in force together cover at most the shares adjudicated"
    )
}

pub fn must_1_first_degree_2_second() -> String {
    "must be 1 (first degree) or 2 (second degree, when the lender holds the first)".to_string()
}

pub fn must_name_acta_that_states_adjudication() -> String {
    "must name the acta that states the adjudication (e.g. \"Acta 014 de 2007\"), on one line"
        .to_string()
}

pub fn no_holder_has_this_document() -> String {
    "no holder has this document".to_string()
}

pub fn not_e_mail_address_one_domain() -> String {
    "is not an e-mail address (one @, a domain with a dot, no spaces)".to_string()
}

pub fn nothing_change_holder_s_address_city() -> String {
    "nothing to change: the holder's address, city and e-mail are already these".to_string()
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn offer_must_stay_open_at_least(
    length_en: &impl std::fmt::Display,
    decree: &impl std::fmt::Display,
    article: &impl std::fmt::Display,
    opens: &impl std::fmt::Display,
    earliest: &impl std::fmt::Display,
    _length_es: &impl std::fmt::Display,
    _opens_es: &impl std::fmt::Display,
    _earliest_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the offer must stay open at least {length_en} \
         ({decree} {article}; C.Co. art. 829): with the notice on {opens}, it closes on {earliest} or later"
    )
}

pub fn offer_was_adjudicated_run_adjudication_takes(
    code: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    run_id: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the offer of {code} was adjudicated on {on} (run {run_id}); the adjudication takes place once \
             (Art. 12), so later acceptances cannot be considered"
    )
}

pub fn offer_was_already_adjudicated_run_fingerprint(
    code: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    run_id: &impl std::fmt::Display,
    fingerprint: &impl std::fmt::Display,
    source: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
    _fuente: &impl std::fmt::Display,
) -> String {
    format!(
        "the offer of {code} was already adjudicated on {on} (run {run_id}, fingerprint {fingerprint}); the adjudication \
             takes place \"en una sola oportunidad\" ({source}): it cannot be run again"
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn offer_was_already_opened_by_program(
    code: &impl std::fmt::Display,
    opens: &impl std::fmt::Display,
    closes: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    _opens_es: &impl std::fmt::Display,
    _closes_es: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the offer of {code} was already opened ({opens} to {closes}, by {by} on {at}); a program has one first-stage offer"
    )
}

pub fn out_calendar_s_range() -> String {
    "is out of the calendar's range".to_string()
}

pub fn pledge_adjudication_was_registered_release_ends(
    pledge: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    registered: &impl std::fmt::Display,
    _registered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "pledge {pledge} of adjudication {id} was registered on {registered}; a release ends a pledge that \
                 exists: date it on or after {registered}"
    )
}

pub fn pledge_covers_at_least_one_share(id: &impl std::fmt::Display) -> String {
    format!(
        "a pledge covers at least one share; leave it out to pledge every share of adjudication {id} not yet pledged"
    )
}

pub fn program_offers_shares_all_shares_offered(
    code: &impl std::fmt::Display,
    offered: &impl std::fmt::Display,
    _offered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "program {code} offers {offered} shares in all (shares_offered): the first stage cannot award more"
    )
}

pub fn register_holds_adjudication_s_imported_shares(
    count: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    shares: &impl std::fmt::Display,
    _count_es: &impl std::fmt::Display,
    _shares_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the register holds {count} adjudication(s) of {code} imported for {shares} shares: the first stage \
                 awarded what they add up to; correct the figure or the import"
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
        "{doc_type} {doc} is registered as {registered:?} (holder {holder}) but accepted as {name:?}; one document, one holder: \
                         correct the acceptance or the register before adjudicating"
    )
}

pub fn say_why_adjudication_voided() -> String {
    "say why the adjudication is voided".to_string()
}

pub fn say_why_pledge_voided() -> String {
    "say why the pledge is voided".to_string()
}

pub fn shares_adjudication_all_pledged_already(
    adjudicated: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
    then: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
    _luego: &impl std::fmt::Display,
) -> String {
    format!(
        "the {adjudicated} shares of adjudication {id} are all pledged already ({list}); {then}"
    )
}

pub fn this_adjudication_was_already_written_as(
    import: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("this adjudication was already written as import {import} on {at}")
}

pub fn vigia_adjudicated_first_stage_itself_run(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "vigia adjudicated the first stage of {code} itself (run {id}, on {on}): it cannot also have concluded \
             outside vigia"
    )
}

pub fn was_released_already(
    released: &impl std::fmt::Display,
    _released_es: &impl std::fmt::Display,
) -> String {
    format!("was released on {released} already")
}

pub fn was_released_release_history_pledge_secured(
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "was released on {on}; a release is history (the pledge secured the shares until then) and a released pledge cannot be voided"
    )
}

pub fn was_voided_by_not_award_any(
    at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("was voided on {at} by {by} ({reason}); it is not an award any more")
}

pub fn was_voided_not_award_any_more() -> String {
    "was voided; it is not an award any more and takes no pledge".to_string()
}
