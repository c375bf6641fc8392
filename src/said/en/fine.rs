//! English sentences of the fine area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::fine`, has the same functions).

pub fn before_adjudication_date_breach_can_only(
    adjudicated: &impl std::fmt::Display,
    _adjudicated_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the adjudication date {adjudicated}; a breach can only happen after the shares were adjudicated"
    )
}

pub fn before_breach_date_give_payment_as(
    breach_date: &impl std::fmt::Display,
    _breach_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is before the breach date {breach_date}; give the payment or as-of date, on or after the breach"
    )
}

pub fn must_greater_than_zero() -> String {
    "must be greater than zero".to_string()
}

pub fn must_greater_than_zero_omit_when() -> String {
    "must be greater than zero (omit it when no later stage happened)".to_string()
}

pub fn must_not_negative_omit_when_there() -> String {
    "must not be negative (omit it when there was no consideration)".to_string()
}

pub fn must_whole_number_shares_greater_than() -> String {
    "must be a whole number of shares greater than zero".to_string()
}

pub fn payment_amount_must_greater_than_zero() -> String {
    "a payment amount must be greater than zero".to_string()
}

pub fn payments_must_dated_from_breach_date(
    from: &impl std::fmt::Display,
    until: &impl std::fmt::Display,
    _from_es: &impl std::fmt::Display,
    _until_es: &impl std::fmt::Display,
) -> String {
    format!("payments must be dated from the breach date {from} through the until date {until}")
}
