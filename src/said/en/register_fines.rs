//! English sentences of the register_fines area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::register_fines`, has the same functions).

pub fn adjudication_has_shares_only_them_not(
    id: &impl std::fmt::Display,
    shares: &impl std::fmt::Display,
    remaining: &impl std::fmt::Display,
    _shares_es: &impl std::fmt::Display,
    _remaining_es: &impl std::fmt::Display,
) -> String {
    format!(
        "adjudication {id} has {shares} shares, and only {remaining} of them are not in a \
                 breach already recorded: record at most {remaining}"
    )
}

pub fn adjudication_was_not_financed_no_lender(id: &impl std::fmt::Display) -> String {
    format!(
        "adjudication {id} was not financed (no lender on record), so there is no credit to subrogate; record the breach as what it was, or correct the adjudication's lender first"
    )
}

pub fn after_today_notice_dated_day_issued(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!("is after today ({today}); a notice is dated the day it is issued, or earlier")
}

pub fn after_today_paz_y_salvo_dated(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!("is after today ({today}); a paz y salvo is dated the day it is issued, or earlier")
}

pub fn after_today_record_breach_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is after today ({today}); record a breach once it has taken place, with the date it took place"
    )
}

pub fn after_today_record_delivery_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!("is after today ({today}); record a delivery once it has happened")
}

pub fn after_today_record_inscription_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!("is after today ({today}); record the inscription once it has been made")
}

pub fn after_today_record_payment_once_has(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is after today ({today}); record a payment once it has been made, with the date it was made"
    )
}

pub fn already_has_paz_y_salvo_render(
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!("already has its paz y salvo, {number} of {on}; render that one again instead")
}

pub fn before_adjudication(
    adjudicated: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!("is before the adjudication on {adjudicated}")
}

pub fn before_adjudication_breach_can_only_follow(
    adjudicated: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the adjudication on {adjudicated}; a breach can only follow the adjudication"
    )
}

pub fn before_breach_payments_against_fine_come(
    breach_date: &impl std::fmt::Display,
    _breach_es: &impl std::fmt::Display,
) -> String {
    format!("is before the breach on {breach_date}; payments against the fine come after it")
}

pub fn before_breach_share_ledger_inscribes_transfer(
    breach: &impl std::fmt::Display,
    _breach_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the breach on {breach}; the share ledger inscribes a transfer once it has been agreed"
    )
}

pub fn before_day_fine_liquidated_notice_states(
    until: &impl std::fmt::Display,
    _until_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the day the fine is liquidated to ({until}); a notice states what is due on a day that \
                 has come: liquidate to the notice's date or an earlier one"
    )
}

pub fn before_last_payment_certificate_comes_after(
    last: &impl std::fmt::Display,
    _last_es: &impl std::fmt::Display,
) -> String {
    format!("is before the last payment ({last}); the certificate comes after it")
}

pub fn before_notice_s_date_notice_delivered(
    date: &impl std::fmt::Display,
    _date_es: &impl std::fmt::Display,
) -> String {
    format!("is before the notice's date ({date}); a notice is delivered after it is issued")
}

pub fn before_notice_which_this_one_would(
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before notice {number} of {on}, which this one would replace; a notice replaces an earlier one: \
                 date it on or after {on}"
    )
}

pub fn before_today_day_notice_issued_notice(
    today: &impl std::fmt::Display,
    _today_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before today ({today}), the day the notice is issued; a notice is dated the day it \
                 is issued unless the reason for an earlier date is recorded"
    )
}

pub fn belongs_breach_not_breach(
    of: &impl std::fmt::Display,
    named: &impl std::fmt::Display,
) -> String {
    format!("belongs to breach {of}, not to breach {named}")
}

pub fn breach_has_paz_y_salvo_which(
    breach: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "breach {breach} has the paz y salvo {number} of {on}, which certifies its fine paid with this \
                 payment: a certificate given to the holder cannot be taken back, so its payments stay on record"
    )
}

pub fn breach_was_voided_by_has_no(
    breach_id: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("breach {breach_id} was voided on {at} by {by} ({why}); it has no fine")
}

pub fn breach_was_voided_has_no_fine(why: &impl std::fmt::Display) -> String {
    format!("the breach was voided ({why}); it has no fine to pay")
}

pub fn breaches_recorded_adjudication_add_up_more(id: &impl std::fmt::Display) -> String {
    format!("the breaches recorded on adjudication {id} add up to more shares than can be counted")
}

pub fn bytes_long_at_most_mib(
    not_en: &impl std::fmt::Display,
    size: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    _not_es: &impl std::fmt::Display,
    _size_es: &impl std::fmt::Display,
) -> String {
    format!("{not_en}: it is {size} bytes long (at most {max} MiB)")
}

pub fn cannot_read_back_own_rendering(
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("cannot read back its own rendering: {en}")
}

pub fn delivery_already_recorded_by_recorded_by(
    on: &impl std::fmt::Display,
    via: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("its delivery is already recorded: {on} by {via} (recorded by {by} at {at})")
}

pub fn empty_leave_out_say_what_proves() -> String {
    "is empty; leave it out or say what proves the delivery".to_string()
}

pub fn empty_say_why_notice_bears_earlier() -> String {
    "is empty; say why the notice bears an earlier date than the day it is issued".to_string()
}

pub fn fine_settled_paz_y_salvo_there(
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!("its fine is settled: paz y salvo {number} of {on}; there is nothing to demand")
}

pub fn has_force_against_fine_money_received(
    list: &impl std::fmt::Display,
    _tiene: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
    _anulelos: &impl std::fmt::Display,
) -> String {
    format!(
        "has {list} in force against its fine; money received against a voided breach would drop out of every \
                 figure unexplained: void the payments first, saying why"
    )
}

pub fn has_no_letterhead_register_letter_needs(
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("has no letterhead in the register: a letter needs {en}")
}

pub fn has_paz_y_salvo_which_certifies(
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "has the paz y salvo {number} of {on}, which certifies its fine paid in full: no payment \
                 is recorded after it (a sum received since is returned to whoever paid it, outside the \
                 fine)"
    )
}

pub fn holder_has_no_file_so_notice(
    name: &impl std::fmt::Display,
    lacks: &impl std::fmt::Display,
    _lacks_es: &impl std::fmt::Display,
    _on_file_es: &impl std::fmt::Display,
    _label: &impl std::fmt::Display,
) -> String {
    format!(
        "the holder {name} has no {lacks} on file, so the notice cannot have reached them by this \
                 channel; record the holder's {lacks} first, or a delivery by hand (personal)"
    )
}

pub fn issued_notice_demanded_fine_from_holder(
    notices_en: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
    was: &impl std::fmt::Display,
    _expedido: &impl std::fmt::Display,
    _avisos: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
) -> String {
    format!(
        "the {notices_en} {list} {was} issued for it: a notice demanded the fine from the holder and cannot be taken \
             back, so a notified breach stays on record; if it was recorded in error, withdraw the notice by the \
             issuer's own written act (vigia does not record that act)"
    )
}

pub fn issuer() -> String {
    "the issuer".to_string()
}

pub fn letterhead_lacks_which_needs(
    en: &impl std::fmt::Display,
    doc_en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
    _doc_es: &impl std::fmt::Display,
) -> String {
    format!("its letterhead lacks {en}, which a {doc_en} needs")
}

pub fn liquidation_provisional_later_stage_s_price() -> String {
    "its liquidation is provisional (the later stage's price is pending), so the fine may still \
     rise; record the stage price first, or that no later stage will happen"
        .to_string()
}

pub fn liquidation_provisional_later_stage_pending(price: &impl std::fmt::Display) -> String {
    format!(
        "its liquidation is provisional: a later stage is still pending (the stage price so far is \
         {price} per share; a higher price in that stage would raise the fine), so the fine may \
         still rise; conclude that stage first: adjudicate it or declare it void; or, when the \
         sellers obtained its final price outside vigia, record that price"
    )
}

pub fn must_at_least_1_breach_covers() -> String {
    "must be at least 1: a breach covers the shares negotiated".to_string()
}

pub fn must_not_negative() -> String {
    "must not be negative".to_string()
}

pub fn no_document_number_multa_yyyy_nnnn() -> String {
    "no document number (MULTA-YYYY-NNNN or PAZ-YYYY-NNNN) and program line found in it".to_string()
}

pub fn no_fine_applies() -> String {
    "no fine applies to it".to_string()
}

pub fn no_fine_applies_lock_up_adjudication(
    id: &impl std::fmt::Display,
    lockup_end: &impl std::fmt::Display,
    free: &impl std::fmt::Display,
    _end_es: &impl std::fmt::Display,
    _free_es: &impl std::fmt::Display,
) -> String {
    format!(
        "no fine applies: the lock-up of adjudication {id} ended on {lockup_end} and the holder was free \
                     from {free}; nothing was recorded"
    )
}

pub fn no_notice_has_this_number() -> String {
    "no notice has this number".to_string()
}

pub fn no_payment_recorded_against_fine() -> String {
    "no payment is recorded against its fine".to_string()
}

pub fn no_paz_y_salvo_has_this() -> String {
    "no paz y salvo has this number".to_string()
}

pub fn no_program_register(code: &impl std::fmt::Display) -> String {
    format!("no program {code} in the register")
}

pub fn no_register(
    en: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("no {en} {number} in the register")
}

pub fn nothing_change_letterhead_force_already_says() -> String {
    "nothing to change: the letterhead in force already says this".to_string()
}

pub fn nothing_outstanding_fine_as_paid_full(
    until: &impl std::fmt::Display,
    _until_es: &impl std::fmt::Display,
) -> String {
    format!(
        "nothing is outstanding on its fine as of {until} (paid in full): a payment demand \
                 would ask for $ 0"
    )
}

pub fn only_number_doc_breach_replaced_payment() -> String {
    "only {number}, {doc} and {breach} are replaced in a payment reference".to_string()
}

pub fn payment_account() -> String {
    "the payment account".to_string()
}

pub fn payment_bank() -> String {
    "the payment bank".to_string()
}

pub fn payment_must_greater_than_zero() -> String {
    "a payment must be greater than zero".to_string()
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn payment_with_same_reference_already_recorded(
    id: &impl std::fmt::Display,
    amount: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    reference: &impl std::fmt::Display,
    breach: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
    _referencia: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "payment {id} of {amount} on {on} with the same reference ({reference}) is already recorded against breach {breach} \
                 (by {by} at {at}); nothing was recorded: a payment entered twice would be counted twice"
    )
}

pub fn paz_y_salvo_was_issued_certificate(
    number: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "its paz y salvo {number} of {on} was issued: a certificate given to the holder cannot be taken back, \
             so a settled breach stays on record"
    )
}

pub fn program_does_not_list_that_breach(
    code: &impl std::fmt::Display,
    listed: &impl std::fmt::Display,
    _listed_es: &impl std::fmt::Display,
) -> String {
    format!("program {code} does not list that breach kind; it lists {listed}")
}

pub fn program_issues_only_signed_signatures_required(
    code: &impl std::fmt::Display,
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!(
        "program {code} issues its {en} only signed (its [signatures] required_for): sign it with the certificate of one of its authorised signatories"
    )
}

pub fn programs_have_notice_with_this_number(n: &impl std::fmt::Display) -> String {
    format!("{n} programs have a notice with this number")
}

pub fn programs_have_paz_y_salvo_with(n: &impl std::fmt::Display) -> String {
    format!("{n} programs have a paz y salvo with this number")
}

pub fn recorded_only_notice_dated_before_day() -> String {
    "is recorded only for a notice dated before the day it is issued; this one is dated today"
        .to_string()
}

pub fn return_address() -> String {
    "the return address".to_string()
}

pub fn say_why_breach_voided() -> String {
    "say why the breach is voided".to_string()
}

pub fn say_why_payment_voided() -> String {
    "say why the payment is voided".to_string()
}

pub fn sentence(
    not_en: &impl std::fmt::Display,
    en: &impl std::fmt::Display,
    _not_es: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("{not_en}: {en}")
}

pub fn signatory_s_name() -> String {
    "the signatory's name".to_string()
}

pub fn signatory_s_position() -> String {
    "the signatory's position".to_string()
}

pub fn still_outstanding_day_last_payment_paz(
    due: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
    _last_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{due} is still outstanding on the day of its last payment ({last}); a paz y salvo \
                 certifies a fine paid in full"
    )
}

pub fn superseded_payment_voided_by(
    id: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("superseded: payment {id} voided on {at} by {by}: {reason}")
}

pub fn was_replaced_by_deliver_that_one(
    number: &impl std::fmt::Display,
    date: &impl std::fmt::Display,
    _date_es: &impl std::fmt::Display,
) -> String {
    format!("was replaced by {number} of {date}: deliver that one")
}

pub fn was_voided_has_no_fine(
    at: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("was voided on {at} ({why}): it has no fine")
}

pub fn acta_not_notice(stage: &u8, program: &String) -> String {
    let of = if program.is_empty() {
        String::new()
    } else {
        format!(" of program {program}")
    };
    let (name, page) = match stage {
        1 => ("First", "the program's offer page"),
        2 => ("Second", "the stage's page"),
        _ => ("Third", "the stage's page"),
    };
    format!(
        "it is the acta of the {name} Stage{of}, not a notice or a paz y salvo: an acta is verified \
         against its stage's records, on the web on {page} («Verificar el acta»)"
    )
}

pub fn every_share_in_a_breach(
    id: &impl std::fmt::Display,
    shares: &impl std::fmt::Display,
    _shares_es: &impl std::fmt::Display,
) -> String {
    format!(
        "every share of adjudication {id} ({shares}) is in a breach already recorded: there is \
         none left to record a breach for (void a breach recorded in error first)"
    )
}
