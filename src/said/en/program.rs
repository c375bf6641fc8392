//! English sentences of the program area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::program`, has the same functions).

pub fn also_category_filer_either_belongs_category(
    both: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{both:?} is also a category; a filer either belongs to a category or to none")
}

pub fn at_most_days_ten_years(
    days: &impl std::fmt::Display,
    most: &impl std::fmt::Display,
) -> String {
    format!("{days}: at most {most} days (ten years)")
}

pub fn cause_needs_article_comes_from_wording(
    code: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("cause {code:?} needs the article it comes from and its wording")
}

pub fn effective_annual_percent_above_0_below(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{s:?}: an effective annual percent above 0 and below 1000")
}

pub fn from_business_day_after_notice(
    en_n: &impl std::fmt::Display,
    _es_n: &impl std::fmt::Display,
) -> String {
    format!("{en_n} from the business day after the notice")
}

pub fn from_notice_s_publication(
    en_n: &impl std::fmt::Display,
    _es_n: &impl std::fmt::Display,
) -> String {
    format!("{en_n} from the notice's publication")
}

pub fn id_number_certificate_s_serialnumber_c(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{s:?}: an id is the number of the certificate's serialNumber (the cédula or NIT)")
}

pub fn list_at_least_one_kind() -> String {
    "list at least one kind".to_string()
}

pub fn list_at_least_one_seller() -> String {
    "list at least one seller".to_string()
}

pub fn list_some_acquisition_transfer_stage() -> String {
    "list some of \"acquisition\", \"transfer\", \"stage\"".to_string()
}

pub fn list_special_condition_categories() -> String {
    "list the special-condition categories".to_string()
}

pub fn listed_twice(code: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{code:?} is listed twice")
}

pub fn months_not_lock_up_ley_226(
    months: &impl std::fmt::Display,
    max_lockup_months: &impl std::fmt::Display,
) -> String {
    format!(
        "{months} months is not a lock-up Ley 226 de 1995 art. 14 allows: write 1 to {max_lockup_months}"
    )
}

pub fn must_greater_than_zero() -> String {
    "must be greater than zero".to_string()
}

pub fn must_include_acquisition() -> String {
    "must include \"acquisition\"".to_string()
}

pub fn must_letters_digits(code: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{code:?} must be letters, digits, '-' or '_'")
}

pub fn must_zero_more_pesos() -> String {
    "must be zero or more pesos".to_string()
}

pub fn name_article_that_sets_offer_s() -> String {
    "name the article that sets the offer's minimum length (e.g. \"art. 4\")".to_string()
}

pub fn name_article_that_sets_validity_e() -> String {
    "name the article that sets the validity (e.g. \"artículo 28\")".to_string()
}

pub fn names_which_not_one_categories(
    alias: &(impl std::fmt::Debug + std::fmt::Display),
    unknown: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{alias:?} names {unknown:?}, which is not one of the categories")
}

pub fn not_minimum_length_vigia_counts_write(
    m: &impl std::fmt::Display,
    max_minimum_months: &impl std::fmt::Display,
) -> String {
    format!(
        "{m} is not a minimum length vigia counts: write 1 to {max_minimum_months} months (Decreto 3939 art. 4: 2)"
    )
}

pub fn not_number_shares_vigia_can_register(
    offered: &impl std::fmt::Display,
    max_shares: &impl std::fmt::Display,
    _offered_es: &impl std::fmt::Display,
    _max_es: &impl std::fmt::Display,
) -> String {
    format!("{offered} is not a number of shares vigia can register: write 1 to {max_shares}")
}

pub fn not_one_categories(unknown: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{unknown:?} is not one of the categories")
}

pub fn not_sum_sellers_shares(
    offered: &impl std::fmt::Display,
    total: &impl std::fmt::Display,
    _offered_es: &impl std::fmt::Display,
    _total_es: &impl std::fmt::Display,
) -> String {
    format!("{offered} is not the sum of the sellers' shares ({total})")
}

pub fn not_term_vigia_counts_write_1(
    term: &impl std::fmt::Display,
    max_payment_term: &impl std::fmt::Display,
) -> String {
    format!(
        "{term} is not a term vigia counts: write 1 to {max_payment_term} business days (the shipped program uses 10)"
    )
}

pub fn not_term_vigia_counts_write_1_2(
    term: &impl std::fmt::Display,
    max_payment_term: &impl std::fmt::Display,
) -> String {
    format!("{term} is not a term vigia counts: write 1 to {max_payment_term} business days")
}

pub fn not_validity_vigia_counts_write_1(
    m: &impl std::fmt::Display,
    max_months: &impl std::fmt::Display,
) -> String {
    format!("{m} is not a validity vigia counts: write 1 to {max_months} months (Decreto 3939: 12)")
}

pub fn only_known(rate_series_sfc: &impl std::fmt::Debug) -> String {
    format!("only {rate_series_sfc:?} is known")
}

pub fn only_number_doc_breach_replaced(r: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{r:?}: only {{number}}, {{doc}} and {{breach}} are replaced")
}

pub fn paragraph_needs_heading_text(
    heading: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("a paragraph needs a heading and a text ({heading:?})")
}

pub fn program_has_second_stage_perhaps_third(last: &impl std::fmt::Display) -> String {
    format!("{last}: a program has a Second Stage and perhaps a Third: write 2 or 3")
}

pub fn runs_out_calendar_s_range() -> String {
    "runs out of the calendar's range".to_string()
}

pub fn seller_offers_0_shares(name: &impl std::fmt::Display) -> String {
    format!("seller {name} offers 0 shares")
}

pub fn sellers_shares_add_up_more_than(
    max_shares: &impl std::fmt::Display,
    offered: &impl std::fmt::Display,
    _max_es: &impl std::fmt::Display,
    _offered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the sellers' shares add up to more than {max_shares}; they must add up to shares_offered ({offered})"
    )
}

pub fn signatory_name_as_certificate_gives(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("{s:?}: a signatory is a name, as the certificate gives it")
}

pub fn valid_from_through(
    from: &impl std::fmt::Display,
    through: &impl std::fmt::Display,
    article: &impl std::fmt::Display,
    _from_es: &impl std::fmt::Display,
    _through_es: &impl std::fmt::Display,
) -> String {
    format!("valid from {from} through {through} ({article})")
}

pub fn write_code_capital_letters_digits_starting(
    code: &(impl std::fmt::Debug + std::fmt::Display),
    max_code: &impl std::fmt::Display,
) -> String {
    format!(
        "{code:?}: write a code of capital letters, digits and '_', starting with a letter, at most {max_code} characters (e.g. \"OTRA_CAUSAL\")"
    )
}

pub fn write_ibc_ibc_force_closing_date(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "{s:?}: write \"ibc\" (the IBC in force on the closing date) or an effective annual percent such as \"12.5\""
    )
}

pub fn write_what_acta_cites_leave_key() -> String {
    "write what the acta cites, or leave the key out for Decreto 3939's article".to_string()
}

pub fn typed_value_refused_at_line(
    line: &impl std::fmt::Display,
    typed: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    _por_que: &impl std::fmt::Display,
) -> String {
    format!("line {line} (`{typed}`): {why}")
}

pub fn whole_number_digits_only() -> String {
    "a whole number is written with its digits only (no thousands points, no quotes), e.g. \
     12960982"
        .to_string()
}
