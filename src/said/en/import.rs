//! English sentences of the import area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::import`, has the same functions).

pub fn columns_both_name_keep_one_them(
    ha: &(impl std::fmt::Debug + std::fmt::Display),
    hb: &(impl std::fmt::Debug + std::fmt::Display),
    col: &impl std::fmt::Display,
) -> String {
    format!("columns {ha:?} and {hb:?} both name {col}; keep one of them")
}

pub fn has_control_character_u_at_character(
    code: &impl std::fmt::UpperHex,
    at: &impl std::fmt::Display,
) -> String {
    format!(
        "has the control character U+{code:04X} at character {at}; values are printed on notices and must be plain text: remove it"
    )
}

pub fn missing_column_header_must_name_english(
    col: &impl std::fmt::Display,
    es: &(impl std::fmt::Debug + std::fmt::Display),
    all: &impl std::fmt::Display,
    _todas: &impl std::fmt::Display,
) -> String {
    format!("missing column {col} (or {es:?}); the header must name {all} (in English or Spanish)")
}

pub fn must_date_dd_mm_yyyy_yyyy(
    empty: &impl std::fmt::Display,
    _vacia: &impl std::fmt::Display,
) -> String {
    format!("must be a date DD/MM/YYYY or YYYY-MM-DD{empty}")
}

pub fn not_person_type_use_natural_legal(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{s:?} is not a person type; use natural or legal (jurídica)")
}

pub fn repeats_line_exactly_row_listed_once(first: &impl std::fmt::Display) -> String {
    format!("repeats line {first} exactly; a row is listed once: remove one of the two")
}
