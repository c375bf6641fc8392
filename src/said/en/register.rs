//! English sentences of the register area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::register`, has the same functions).

pub fn already_voided_by(
    at: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
    _anulado: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("already voided on {at} by {by} ({reason})")
}

pub fn cannot_hash_password(e: &impl std::fmt::Display) -> String {
    format!("cannot hash the password: {e}")
}

pub fn no_random_salt_available(e: &impl std::fmt::Display) -> String {
    format!("no random salt available: {e}")
}

pub fn not_user_name_1_64_letters(name: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{name:?} is not a user name: 1 to 64 letters, digits, '.', '-', '_' or '@'")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn outside_validity_program_if_extension_later(
    what: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    decree: &impl std::fmt::Display,
    valid: &impl std::fmt::Display,
    _que: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
    _vigente: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} on {on}, outside the validity of program {code} ({decree}, {valid}): if an extension or a later decree allows it, record why"
    )
}

pub fn overlaps_each_day_has_one_certified(
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
    _from_es: &impl std::fmt::Display,
    _to_es: &impl std::fmt::Display,
    _lista: &impl std::fmt::Display,
) -> String {
    format!("{from}..{to} overlaps {list}; each day has one certified rate")
}

pub fn password_too_short_at_least_characters(min_password: &impl std::fmt::Display) -> String {
    format!("the password is too short: at least {min_password} characters")
}

pub fn program_already_registered_id_with_different(
    code: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
) -> String {
    format!(
        "program {code} is already registered (id {id}) with different contents; programs are never edited: \
                 register the changed file under a new code"
    )
}

pub fn there_already_user_called(name: &impl std::fmt::Display) -> String {
    format!("there is already a user called {name}")
}

pub fn user_already_disabled(name: &impl std::fmt::Display) -> String {
    format!("user {name} is already disabled")
}

pub fn user_cannot_disable_their_own_account(name: &impl std::fmt::Display) -> String {
    format!("user {name} cannot disable their own account; another administrator must do it")
}

pub fn user_last_enabled_administrator_add_another(name: &impl std::fmt::Display) -> String {
    format!(
        "user {name} is the last enabled administrator; add another administrator before \
                 disabling this one, or nobody could manage the accounts"
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
        .map(|(s, p)| format!("stage {s}'s ({})", crate::money::format_cop(*p)))
        .collect();
    let what = match prices.len() {
        0 => "recorded that no later stage happened: its liquidations take no stage price"
            .to_string(),
        1 => format!("{} price recorded, which its liquidations take", prices[0]),
        _ => format!(
            "{} prices recorded, which its liquidations take",
            prices.join(" and ")
        ),
    };
    let new = match new {
        Some((s, p)) => format!("{} per share for stage {s}", crate::money::format_cop(*p)),
        None => "that no later stage happened".to_string(),
    };
    let it = if prices.len() > 1 { "them" } else { "it" };
    format!(
        "program {code} has {what}; recording {new} \
         replaces {it}: it is a correction of the register and must say why (the reason goes into \
         the audit event)"
    )
}
