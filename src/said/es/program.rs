//! Las frases en español del área program, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::program`, tiene las mismas funciones).

pub fn also_category_filer_either_belongs_category(
    both: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!(
        "«{both}» también es una categoría; quien acepta pertenece a una categoría o a \
                     ninguna"
    )
}

pub fn at_most_days_ten_years(
    days: &impl std::fmt::Display,
    most: &impl std::fmt::Display,
) -> String {
    format!("{days}: como máximo {most} días (diez años)")
}

pub fn cause_needs_article_comes_from_wording(
    code: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("la causal «{code}» necesita el artículo del que proviene y su texto")
}

pub fn effective_annual_percent_above_0_below(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("«{s}»: un porcentaje efectivo anual mayor que 0 y menor que 1000")
}

pub fn from_business_day_after_notice(
    _en_n: &impl std::fmt::Display,
    es_n: &impl std::fmt::Display,
) -> String {
    format!("{es_n} contados a partir del día hábil siguiente a la publicación del aviso")
}

pub fn from_notice_s_publication(
    _en_n: &impl std::fmt::Display,
    es_n: &impl std::fmt::Display,
) -> String {
    format!("{es_n} contados a partir de la publicación del aviso")
}

pub fn id_number_certificate_s_serialnumber_c(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("«{s}»: el id es el número del serialNumber del certificado (la cédula o el NIT)")
}

pub fn list_at_least_one_kind() -> String {
    "indique al menos un tipo de incumplimiento".to_string()
}

pub fn list_at_least_one_seller() -> String {
    "indique al menos un vendedor".to_string()
}

pub fn list_some_acquisition_transfer_stage() -> String {
    "indique algunos de \"acquisition\", \"transfer\", \"stage\"".to_string()
}

pub fn list_special_condition_categories() -> String {
    "indique las categorías de condiciones especiales".to_string()
}

pub fn listed_twice(code: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{code}» aparece dos veces")
}

pub fn months_not_lock_up_ley_226(
    months: &impl std::fmt::Display,
    max_lockup_months: &impl std::fmt::Display,
) -> String {
    format!(
        "{months} meses no es un período de restricción que permita el art. 14 de la Ley 226 de 1995: \
                     escriba de 1 a {max_lockup_months}"
    )
}

pub fn must_greater_than_zero() -> String {
    "debe ser mayor que cero".to_string()
}

pub fn must_include_acquisition() -> String {
    "debe incluir \"acquisition\"".to_string()
}

pub fn must_letters_digits(code: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{code}» debe tener solo letras, dígitos, '-' o '_'")
}

pub fn must_zero_more_pesos() -> String {
    "debe ser cero o más pesos".to_string()
}

pub fn name_article_that_sets_offer_s() -> String {
    "indique el artículo que fija la vigencia mínima de la oferta (p. ej. «art. 4»)".to_string()
}

pub fn name_article_that_sets_validity_e() -> String {
    "indique el artículo que fija la vigencia (p. ej. «artículo 28»)".to_string()
}

pub fn names_which_not_one_categories(
    alias: &(impl std::fmt::Debug + std::fmt::Display),
    unknown: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("«{alias}» nombra «{unknown}», que no es una de las categorías")
}

pub fn not_minimum_length_vigia_counts_write(
    m: &impl std::fmt::Display,
    max_minimum_months: &impl std::fmt::Display,
) -> String {
    format!(
        "{m} no es una vigencia mínima que vigia cuente: escriba de 1 a {max_minimum_months} meses \
                     (Decreto 3939, art. 4: 2)"
    )
}

pub fn not_number_shares_vigia_can_register(
    _offered: &impl std::fmt::Display,
    _max_shares: &impl std::fmt::Display,
    offered_es: &impl std::fmt::Display,
    max_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{offered_es} no es un número de acciones que vigia pueda registrar: escriba de 1 a {max_es}"
    )
}

pub fn not_one_categories(unknown: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{unknown}» no es una de las categorías")
}

pub fn not_sum_sellers_shares(
    _offered: &impl std::fmt::Display,
    _total: &impl std::fmt::Display,
    offered_es: &impl std::fmt::Display,
    total_es: &impl std::fmt::Display,
) -> String {
    format!("{offered_es} no es la suma de las acciones de los vendedores ({total_es})")
}

pub fn not_term_vigia_counts_write_1(
    term: &impl std::fmt::Display,
    max_payment_term: &impl std::fmt::Display,
) -> String {
    format!(
        "{term} no es un plazo que vigia cuente: escriba de 1 a {max_payment_term} días hábiles (el \
                     programa incluido usa 10)"
    )
}

pub fn not_term_vigia_counts_write_1_2(
    term: &impl std::fmt::Display,
    max_payment_term: &impl std::fmt::Display,
) -> String {
    format!(
        "{term} no es un plazo que vigia cuente: escriba de 1 a {max_payment_term} días hábiles"
    )
}

pub fn not_validity_vigia_counts_write_1(
    m: &impl std::fmt::Display,
    max_months: &impl std::fmt::Display,
) -> String {
    format!(
        "{m} no es una vigencia que vigia cuente: escriba de 1 a {max_months} meses (Decreto \
                     3939: 12)"
    )
}

pub fn only_known(rate_series_sfc: &impl std::fmt::Debug) -> String {
    format!("solo se conoce {rate_series_sfc:?}")
}

pub fn only_number_doc_breach_replaced(r: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{r}»: solo se reemplazan {{number}}, {{doc}} y {{breach}}")
}

pub fn paragraph_needs_heading_text(
    heading: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("cada párrafo necesita un título y un texto («{heading}»)")
}

pub fn program_has_second_stage_perhaps_third(last: &impl std::fmt::Display) -> String {
    format!("{last}: un programa tiene una Segunda Etapa y quizá una Tercera: escriba 2 o 3")
}

pub fn runs_out_calendar_s_range() -> String {
    "sale del rango del calendario".to_string()
}

pub fn seller_offers_0_shares(name: &impl std::fmt::Display) -> String {
    format!("el vendedor {name} ofrece 0 acciones")
}

pub fn sellers_shares_add_up_more_than(
    _max_shares: &impl std::fmt::Display,
    _offered: &impl std::fmt::Display,
    max_es: &impl std::fmt::Display,
    offered_es: &impl std::fmt::Display,
) -> String {
    format!(
        "las acciones de los vendedores (`shares` de cada `[[sellers]]`) suman más de {max_es}, el \
         máximo que vigia puede registrar; deben sumar lo que dice `shares_offered` ({offered_es})"
    )
}

pub fn signatory_name_as_certificate_gives(
    s: &(impl std::fmt::Debug + std::fmt::Display),
) -> String {
    format!("«{s}»: cada firmante es un nombre, como lo trae su certificado")
}

pub fn valid_from_through(
    _from: &impl std::fmt::Display,
    _through: &impl std::fmt::Display,
    article: &impl std::fmt::Display,
    from_es: &impl std::fmt::Display,
    through_es: &impl std::fmt::Display,
) -> String {
    format!("vigente del {from_es} al {through_es} ({article})")
}

pub fn write_code_capital_letters_digits_starting(
    code: &(impl std::fmt::Debug + std::fmt::Display),
    max_code: &impl std::fmt::Display,
) -> String {
    format!(
        "«{code}»: escriba un código de letras mayúsculas, dígitos y '_', que empiece por una letra, \
                     de a lo sumo {max_code} caracteres (p. ej. «OTRA_CAUSAL»)"
    )
}

pub fn write_ibc_ibc_force_closing_date(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!(
        "«{s}»: escriba \"ibc\" (el interés bancario corriente vigente en la fecha de cierre) o \
                             un porcentaje efectivo anual como \"12.5\""
    )
}

pub fn write_what_acta_cites_leave_key() -> String {
    "escriba lo que cita el acta, u omita la clave para el artículo del Decreto 3939".to_string()
}

pub fn typed_value_refused_at_line(
    line: &impl std::fmt::Display,
    typed: &impl std::fmt::Display,
    _why: &impl std::fmt::Display,
    por_que: &impl std::fmt::Display,
) -> String {
    format!("línea {line} (`{typed}`): {por_que}")
}

pub fn whole_number_digits_only() -> String {
    "un número entero se escribe solo con sus cifras (sin puntos de miles ni comillas), p. ej. \
     12960982"
        .to_string()
}
