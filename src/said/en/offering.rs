//! English sentences of the offering area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::offering`, has the same functions).

pub fn exceeds_shares_requested(
    n: &impl std::fmt::Display,
    _pedidas: &impl std::fmt::Display,
) -> String {
    format!("exceeds the {n} shares requested")
}

pub fn must_days_from_adjudication_payment_0(max_term_days: &impl std::fmt::Display) -> String {
    format!("must be the days from adjudication to payment, 0 to {max_term_days}")
}

pub fn must_guarantee_pesos_such_as_empty(example: &impl std::fmt::Display) -> String {
    format!("must be the guarantee in pesos such as {example}, or empty (none given)")
}

pub fn must_one_review_causes_empty(
    list: &impl std::fmt::Display,
    program: &impl std::fmt::Display,
) -> String {
    format!("must be one of {list} (the review causes of {program}), or empty")
}

pub fn must_price_per_share_pesos_greater(example: &impl std::fmt::Display) -> String {
    format!("must be the price per share in pesos, greater than zero, such as {example}")
}

pub fn same_reference_as_line_one_proposal(first: &impl std::fmt::Display) -> String {
    format!("the same reference as line {first}: one proposal, one reference")
}

pub fn write_doc_type_number_name(
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("{en} (write DOC_TYPE:NUMBER:NAME)")
}
