//! English sentences of the rates area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::rates`, has the same functions).

pub fn both_ibc_ea_pct_usury_ea(
    ibc_name: &impl std::fmt::Display,
    usury_name: &impl std::fmt::Display,
) -> String {
    format!("both {ibc_name} and {usury_name} are empty; give at least one")
}

pub fn cannot_read_as_csv(why: &impl std::fmt::Display) -> String {
    format!("cannot be read as CSV ({why})")
}

pub fn cannot_read_header(e: &impl std::fmt::Display) -> String {
    format!("cannot read the header: {e}")
}

pub fn file_has_header_but_no_periods() -> String {
    "the file has a header but no periods; add one row per certification period".to_string()
}

pub fn gap_no_certified_rate_between_line(
    range: &impl std::fmt::Display,
    line: &impl std::fmt::Display,
    _rango: &impl std::fmt::Display,
) -> String {
    format!("gap: no certified rate for {range} (between line {line} and this one)")
}

pub fn header_lacks_column_s_header_must(missing: &impl std::fmt::Display) -> String {
    format!(
        "header lacks column(s) {missing}; the header must start valid_from,valid_to,ibc_ea_pct,usury_ea_pct"
    )
}

pub fn must_positive_ea(
    column: &impl std::fmt::Display,
    s: &impl std::fmt::Display,
    _columna: &impl std::fmt::Display,
    _s_es: &impl std::fmt::Display,
) -> String {
    format!("{column} {s} must be a positive % EA")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn not_believable_ea_must_from_below(
    column: &impl std::fmt::Display,
    s: &impl std::fmt::Display,
    min: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    percent: &impl std::fmt::Display,
    _columna: &impl std::fmt::Display,
    _s_es: &impl std::fmt::Display,
    _percent_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{column} {s} is not a believable % EA (must be from {min} to below {max}); rates are percentages: \
                     a fraction {s} would be {percent} %, write that"
    )
}

pub fn not_believable_ea_must_from_below_2(
    column: &impl std::fmt::Display,
    s: &impl std::fmt::Display,
    min: &impl std::fmt::Display,
    max: &impl std::fmt::Display,
    _columna: &impl std::fmt::Display,
    _s_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{column} {s} is not a believable % EA (must be from {min} to below {max}); rates are percentages, e.g. 27.90"
    )
}

pub fn not_date_29_oct_71_31(
    column: &impl std::fmt::Display,
    t: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{column} {t:?} is not a date (29-Oct-71, 31-Dic-92 or 1999-01-29)")
}

pub fn not_date_dd_mm_yyyy_yyyy(
    column: &impl std::fmt::Display,
    s: &(impl std::fmt::Debug + std::fmt::Display),
    _columna: &impl std::fmt::Display,
) -> String {
    format!("{column} {s:?} is not a date DD/MM/YYYY or YYYY-MM-DD")
}

pub fn not_number_write_percent_such_as(
    column: &impl std::fmt::Display,
    s: &(impl std::fmt::Debug + std::fmt::Display),
    _columna: &impl std::fmt::Display,
) -> String {
    format!("{column} {s:?} is not a number: write a percent such as 27,90 or 27.90")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn period_overlaps_period_line_each_day(
    bf: &impl std::fmt::Display,
    bt: &impl std::fmt::Display,
    af: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    line: &impl std::fmt::Display,
    _bf_es: &impl std::fmt::Display,
    _bt_es: &impl std::fmt::Display,
    _af_es: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "period {bf}..{bt} overlaps the period {af}..{at} on line {line}; each day must have exactly one certified rate"
    )
}

pub fn rate_neither_percent_18_00_nor(t: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("the rate {t:?} is neither a percent (18.00%) nor a fraction (0.1800)")
}

pub fn res_certifies_but_series_uses_those(
    number: &impl std::fmt::Display,
    heading: &impl std::fmt::Display,
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
    _a: &impl std::fmt::Display,
    _b: &impl std::fmt::Display,
) -> String {
    format!(
        "Res. {number} certifies {heading} for {from}..{to}, but the series uses \
                     {expected} for those days"
    )
}

pub fn res_overlaps_res_line_not_later(
    n: &impl std::fmt::Display,
    pn: &impl std::fmt::Display,
    pl: &impl std::fmt::Display,
) -> String {
    format!(
        "Res. {n} overlaps Res. {pn} (line {pl}) and is not a later \
                         re-certification of its last days; each day has one certified rate"
    )
}

pub fn res_validity_ends_before_starts(
    number: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
    from: &impl std::fmt::Display,
    _b: &impl std::fmt::Display,
    _a: &impl std::fmt::Display,
) -> String {
    format!("Res. {number}: its validity ends on {to}, before it starts on {from}")
}

pub fn section_s_headings_have_no_column(what: &impl std::fmt::Display) -> String {
    format!(
        "the section's headings have no column {what}; it must be the SFC's \
                 certification history (RESOLUCION, FECHA, VIGENCIA DESDE/HASTA, the rates)"
    )
}

pub fn sentence(
    column: &impl std::fmt::Display,
    e: &impl std::fmt::Display,
    _columna: &impl std::fmt::Display,
    _d_es: &impl std::fmt::Display,
    _first: &impl std::fmt::Display,
    _last: &impl std::fmt::Display,
) -> String {
    format!("{column} {e}")
}

pub fn unreadable_row(e: &impl std::fmt::Display) -> String {
    format!("unreadable row: {e}")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn usury_ea_pct_not_1_5(
    u: &impl std::fmt::Display,
    i: &impl std::fmt::Display,
    times: &impl std::fmt::Display,
    _u_es: &impl std::fmt::Display,
    _i_es: &impl std::fmt::Display,
    _times_es: &impl std::fmt::Display,
    usury_name: &impl std::fmt::Display,
    ibc_name: &impl std::fmt::Display,
) -> String {
    format!(
        "{usury_name} {u} is not 1.5 × {ibc_name} {i} (= {times}); check both figures against \
         the SFC resolution"
    )
}

pub fn valid_before_valid_from(
    to: &impl std::fmt::Display,
    from: &impl std::fmt::Display,
    _to_es: &impl std::fmt::Display,
    _from_es: &impl std::fmt::Display,
    to_name: &impl std::fmt::Display,
    from_name: &impl std::fmt::Display,
) -> String {
    format!("{to_name} {to} is before {from_name} {from}")
}
