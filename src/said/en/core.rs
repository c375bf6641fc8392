//! English sentences of the core area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::core`, has the same functions).

pub fn can_read_two_ways_decimal_comma(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} can be read two ways: {d} (a decimal comma) or {t} (a thousands comma); \
                     write {t} or {d}, points for thousands and a comma for decimals"
    )
}

pub fn rate_can_read_two_ways_point(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} can be read two ways: {d} % (a decimal point) or {t} % (a thousands point); \
                     write the rate with a decimal comma, {d}"
    )
}

pub fn can_read_two_ways_point_neither(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    d: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} cannot be read for certain: the point is neither a decimal point (one or \
                     two digits follow it) nor a thousands point (groups of three); write {d} for \
                     that decimal, or group the thousands in threes, e.g. 1.450.000"
    )
}

pub fn criterion_price_term_needs_both_weights() -> String {
    "criterion \"price-and-term\" needs both weights, as the reglamento sets them: write \
                         price_weight and term_weight as quoted decimals summing to 1, e.g. \"0.7\" and \"0.3\"".to_string()
}

pub fn discount_rate_belongs_criterion_present_value(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "a discount rate belongs to criterion = \"present-value\"; criterion {name:?} takes none: remove the key"
    )
}

pub fn has_control_character_u_at_character(
    v: &impl std::fmt::Display,
    code: &impl std::fmt::UpperHex,
    at: &impl std::fmt::Display,
) -> String {
    format!(
        "\"{v}\" has the control character U+{code:04X} at character {at}; values are \
                     printed on notices and must be plain text: remove it"
    )
}

pub fn count_separators_wrong_places_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "{v:?} has separators in the wrong places; it is a whole count: write a point every \
                 three digits for thousands, e.g. 1.450.000, or the digits only"
    )
}

pub fn has_separators_wrong_places_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "{v:?} has its separators in the wrong places; write points every three digits \
                 for thousands and one comma for decimals, e.g. 1.450.000,50"
    )
}

pub fn has_two_digit_year_which_vigia(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} has a two-digit year, which vigia does not guess; write the four \
                     digits, e.g. {en}"
    )
}

pub fn header_row_sheet_has_merged_cells(
    row: &impl std::fmt::Display,
    sheet: &(impl std::fmt::Debug + std::fmt::Display),
    a: &impl std::fmt::Display,
    b: &impl std::fmt::Display,
) -> String {
    format!(
        "the header row {row} of sheet {sheet:?} has merged cells ({a}:{b}); vigia needs one column name per cell: unmerge them (or delete the title rows above the header) and import again"
    )
}

pub fn holds_computed_number_round_workbook_redondear(shown: &impl std::fmt::Display) -> String {
    format!(
        "holds the computed number {shown}; round it in the workbook (REDONDEAR) or type the \
             value as it should be read"
    )
}

pub fn holds_error_correct_formula_type_value(e: &impl std::fmt::Display) -> String {
    format!("holds the error {e}; correct the formula or type the value")
}

pub fn holds_number_date_column_write_date(shown: &impl std::fmt::Display) -> String {
    format!(
        "holds the number {shown} in a date column; write the date as DD/MM/YYYY or \
                 format the cell as a date"
    )
}

pub fn holds_number_which_not_exact_amount(shortest: &impl std::fmt::Display) -> String {
    format!("holds the number {shortest}, which is not an exact amount; type the value")
}

pub fn line_column_byte_0x_not_utf(
    line: &impl std::fmt::Display,
    column: &impl std::fmt::Display,
    byte: &impl std::fmt::UpperHex,
    hint: &impl std::fmt::Display,
    _pista: &impl std::fmt::Display,
) -> String {
    format!(
        "line {line}, column {column}: byte 0x{byte:02X} is not UTF-8{hint}, yet the file starts with a UTF-8 byte-order mark: \
                         it mixes two encodings and its names would be stored mangled; save it again as \"CSV UTF-8 (Comma delimited)\" and import that file"
    )
}

pub fn line_column_byte_0x_not_utf_2(
    line: &impl std::fmt::Display,
    column: &impl std::fmt::Display,
    byte: &impl std::fmt::UpperHex,
    hint: &impl std::fmt::Display,
    _pista: &impl std::fmt::Display,
) -> String {
    format!(
        "line {line}, column {column}: byte 0x{byte:02X} is not UTF-8{hint}; save the file as UTF-8 text and give it again"
    )
}

pub fn must_3_11_digits(
    doc_type: &impl std::fmt::Display,
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{doc_type} {number:?} must be 3 to 11 digits")
}

pub fn must_3_20_letters_digits(
    doc_type: &impl std::fmt::Display,
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{doc_type} {number:?} must be 3 to 20 letters or digits")
}

pub fn names_several_categories_write_which_one(
    alias: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
) -> String {
    format!("{alias} names several categories ({list}); write which one")
}

pub fn negative_value_must_zero_more(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is negative; the value must be zero or more")
}

pub fn nit_has_wrong_check_digit_dian(
    base: &impl std::fmt::Display,
    d: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
) -> String {
    format!(
        "NIT {base}-{d} has a wrong check digit: the DIAN algorithm gives {expected} ({base}-{expected}); check the number"
    )
}

pub fn nit_lacks_check_digit_write(
    base: &impl std::fmt::Display,
    expected: &impl std::fmt::Display,
) -> String {
    format!("NIT {base} lacks its check digit; write {base}-{expected}")
}

pub fn nit_must_up_15_digits_followed(
    number: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("NIT {number:?} must be up to 15 digits followed by -DV, e.g. 800197268-4")
}

pub fn not_date_time_write_dd_mm(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a date and time; write DD/MM/YYYY HH:MM, e.g. 20/11/2024 14:30")
}

pub fn not_date_write_dd_mm_yyyy(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a date; write DD/MM/YYYY (20/11/2024) or YYYY-MM-DD (2024-11-20)")
}

pub fn not_day_calendar_check_day_month(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a day of the calendar; check the day and the month (DD/MM/YYYY)")
}

pub fn not_number_write_colombian_way_e(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a number; write it the Colombian way, e.g. 1.450 or 1.450,50")
}

pub fn not_special_condition_category_use_one(
    typed: &(impl std::fmt::Debug + std::fmt::Display),
    code: &impl std::fmt::Display,
    list: &impl std::fmt::Display,
) -> String {
    format!("{typed:?} is not a special-condition category of {code}; use one of {list}")
}

pub fn outside_dates_vigia_accepts_check_year(
    shown: &impl std::fmt::Display,
    first: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!("{shown} is outside the dates vigia accepts, {first} to {last}; check the year")
}

pub fn plus_sign_written_without(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    unsigned: &impl std::fmt::Display,
) -> String {
    format!("{v:?} has a plus sign: a value is written without a sign; write {unsigned}")
}

pub fn price_weight_term_weight_add_up(
    price: &impl std::fmt::Display,
    term: &impl std::fmt::Display,
    sum: &impl std::fmt::Display,
) -> String {
    format!(
        "price_weight {price} and term_weight {term} add up to {sum}: they must add up to exactly 1"
    )
}

pub fn reads_as_which_not_whole_number(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    shown: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} reads as {shown}, which is not a whole number; write a whole number, \
                     e.g. 4.000"
    )
}

pub fn reads_as_with_fractions_centavo_payment(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    shown: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} reads as {shown}, with fractions of a centavo; a payment is in pesos and \
                     centavos: write at most two decimals"
    )
}

pub fn sheet_cannot_read(
    name: &(impl std::fmt::Debug + std::fmt::Display),
    why: &impl std::fmt::Display,
) -> String {
    format!("the sheet {name:?} cannot be read ({why})")
}

pub fn sheet_was_asked_but_file_not(name: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("the sheet {name:?} was asked for but the file is not a workbook (.xlsx, .xls, .ods)")
}

pub fn this(
    what: &impl std::fmt::Display,
    remedy: &impl std::fmt::Display,
    _what_es: &impl std::fmt::Display,
    _remedy_es: &impl std::fmt::Display,
) -> String {
    format!("this is {what}; {remedy}")
}

pub fn too_large_at_most_1_000(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is too large (at most 1.000.000.000.000.000); check the figure")
}

pub fn unknown_document_type_use_one_cc(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("unknown document type {s:?}; use one of CC, CE, TI, PA, PEP, PPT, NIT")
}

pub fn weight_above_0_below_1_criterion(w: &impl std::fmt::Display) -> String {
    format!(
        "{w}: a weight is above 0 and below 1 (the criterion considers both the price and the term)"
    )
}

pub fn weights_belong_criterion_price_term_criterion(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "weights belong to criterion = \"price-and-term\"; criterion {name:?} takes none: remove the key"
    )
}

pub fn workbook_cannot_read_save_again_from(why: &impl std::fmt::Display) -> String {
    format!("the workbook cannot be read ({why}); save it again from the spreadsheet, or as CSV")
}

pub fn workbook_has_no_sheet_sheets(
    wanted: &(impl std::fmt::Debug + std::fmt::Display),
    all: &impl std::fmt::Display,
) -> String {
    format!("the workbook has no sheet {wanted:?}; its sheets are {all}")
}

pub fn write_first_stage_first_stage_s(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "{s:?}: write \"first-stage\" (the first stage's fixed price) or a price per share in pesos above \
                 zero, such as \"1200.00\""
    )
}

pub fn write_present_value_highest_price_price(
    name: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{name:?}: write \"present-value\", \"highest-price\" or \"price-and-term\"")
}

pub fn write_what_acta_cites_leave_key() -> String {
    "write what the acta cites, or leave the key out for Decreto 3939's article".to_string()
}

pub fn written_us_way_commas_thousands_point(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    es: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?} is written the US way (commas for thousands, a point for decimals); \
                     vigia reads points for thousands and a comma for decimals: write {es}"
    )
}

pub fn count_comma_write_points(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    t: &impl std::fmt::Display,
) -> String {
    format!(
        "{v:?}: a comma starts the decimals (and this count is whole) or groups thousands; if \
         you mean {t}, write {t}, with points for thousands"
    )
}

pub fn nothing_written_write_value() -> String {
    "nothing was written; write the value".to_string()
}

pub fn count_too_large_at_most(
    v: &(impl std::fmt::Debug + std::fmt::Display),
    max: &impl std::fmt::Display,
) -> String {
    format!("{v:?} is too large (at most {max}); check the figure")
}

pub fn rate_has_more_than_one_separator(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "{v:?} has more than one separator: a rate in percent has only its decimal comma, no \
         thousands points, e.g. 27,90"
    )
}

pub fn rate_has_currency_sign(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is a rate, not an amount of money: write it without $ or COP, e.g. 27,90")
}

pub fn count_has_currency_sign(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is a count, not an amount of money: write it without $ or COP, e.g. 1.000")
}

pub fn not_whole_number_write_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a whole number: write its digits, e.g. 12 or 1.450")
}

pub fn not_percent_write_decimal_comma(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a percentage: write its digits with a decimal comma, e.g. 27,90")
}

pub fn tsa_http_only() -> String {
    "vigia asks timestamp authorities over http:// only (the token is signed by the authority, \
     so it needs no TLS): give the authority's http:// address"
        .to_string()
}

pub fn tsa_not_http_address() -> String {
    "is not an http:// address (http://host[:port]/path)".to_string()
}

pub fn tsa_port_not_number(p: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("the port {p:?} is not a number from 1 to 65535")
}

pub fn tsa_names_no_host() -> String {
    "names no host (http://host[:port]/path)".to_string()
}

pub fn tsa_blank_in_path() -> String {
    "has a blank in its path".to_string()
}

pub fn not_year_write_four_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a year: write its four digits, without points, e.g. 2026")
}

pub fn tsa_request_not_encoded(e: &impl std::fmt::Display) -> String {
    format!("the request could not be encoded ({e})")
}

pub fn tsa_no_random_nonce(e: &impl std::fmt::Display) -> String {
    format!("no random nonce ({e})")
}

pub fn tsa_answer_not_rfc3161(e: &impl std::fmt::Display) -> String {
    format!("its answer is not an RFC 3161 TimeStampResp ({e})")
}

pub fn tsa_refused_request(
    status: &impl std::fmt::Display,
    text: &impl std::fmt::Display,
) -> String {
    format!("it refused the request (PKIStatus {status}{text})")
}

pub fn tsa_no_token() -> String {
    "it granted the request but sent no token".to_string()
}

pub fn tsa_token_unreadable(e: &impl std::fmt::Display) -> String {
    format!("its token cannot be read ({e})")
}

pub fn tsa_token_other_hash() -> String {
    "its token is over another hash than the one asked for".to_string()
}

pub fn tsa_token_no_nonce() -> String {
    "its token does not carry the request's nonce".to_string()
}

pub fn tsa_host_not_found(e: &impl std::fmt::Display) -> String {
    format!("its host cannot be found ({e})")
}

pub fn tsa_host_no_address() -> String {
    "its host has no address".to_string()
}

pub fn tsa_unreachable(e: &impl std::fmt::Display) -> String {
    format!("it cannot be reached ({e})")
}

pub fn tsa_exchange_failed(e: &impl std::fmt::Display) -> String {
    format!("the exchange with it failed ({e})")
}

pub fn tsa_answer_not_http() -> String {
    "its answer is not HTTP".to_string()
}

pub fn tsa_answered_not_ok(status: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("it answered {status:?}, not 200 OK")
}

pub fn tsa_chunked_cut() -> String {
    "its chunked answer is cut short".to_string()
}

pub fn tsa_answer_shorter() -> String {
    "its answer is shorter than it says".to_string()
}
