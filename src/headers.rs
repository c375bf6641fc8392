//! The names a column of an imported file may go by: vigia's English names and the Spanish ones
//! an officer writes (`Tipo documento`, `Número documento`, `Fecha adjudicación` ...), matched
//! without regard to case, accents, spaces, underscores or hyphens. One table for the four
//! imports (adjudications, pledges, acceptances, proposals); each import still decides which
//! columns it needs; and the register's tables by their Spanish names. Pure: no I/O.

use crate::input::folded;

/// Each column's English name (what vigia writes and its row problems name) with its Spanish
/// aliases (what the templates write, first).
pub const ALIASES: &[(&str, &[&str])] = &[
    (
        "doc_type",
        &[
            "Tipo documento",
            "Tipo de documento",
            "Tipo doc",
            "Tipo identificación",
        ],
    ),
    (
        "doc_number",
        &[
            "Número documento",
            "Número de documento",
            "Documento",
            "Número identificación",
            "Cédula o NIT",
            "Cédula",
            "Número de identificación",
        ],
    ),
    (
        "name",
        &[
            "Nombre",
            "Nombres y apellidos",
            "Razón social",
            "Nombre o razón social",
        ],
    ),
    (
        "person_type",
        &["Tipo persona", "Tipo de persona", "Naturaleza"],
    ),
    (
        "category",
        &["Categoría", "Categoría destinatario", "Destinatario"],
    ),
    (
        "shares",
        &[
            "Acciones",
            "Número de acciones",
            "Cantidad de acciones",
            "Acciones pignoradas",
        ],
    ),
    (
        "price_per_share",
        &["Precio por acción", "Precio", "Valor por acción"],
    ),
    (
        "adjudicated_on",
        &["Fecha adjudicación", "Fecha de adjudicación"],
    ),
    (
        "lender",
        &["Acreedor", "Prestamista", "Entidad financiadora"],
    ),
    ("financed_shares", &["Acciones financiadas"]),
    ("address", &["Dirección"]),
    ("city", &["Ciudad", "Municipio"]),
    ("email", &["Correo", "Correo electrónico", "E-mail"]),
    // pledges
    ("rank", &["Grado", "Grado prenda", "Grado de la prenda"]),
    (
        "registered_on",
        &[
            "Fecha inscripción",
            "Fecha de inscripción",
            "Fecha registro",
        ],
    ),
    (
        "adjudication_id",
        &["Adjudicación", "Id adjudicación", "Número adjudicación"],
    ),
    ("program", &["Programa", "Código programa"]),
    // acceptances
    (
        "filed_at",
        &["Fecha radicación", "Fecha de radicación", "Radicada"],
    ),
    (
        "accepts_reduction",
        &["Acepta reducción", "Acepta la reducción"],
    ),
    (
        "files_tax_return",
        &["Declara renta", "Declarante de renta"],
    ),
    ("patrimonio_liquido", &["Patrimonio líquido"]),
    ("income", &["Ingresos", "Ingresos anuales"]),
    (
        "income_financial_statements",
        &[
            "Ingresos estados financieros",
            "Ingresos según estados financieros",
            "Ingresos anuales estados financieros",
        ],
    ),
    (
        "is_director",
        &["Es directivo", "Directivo", "Administrador"],
    ),
    ("annual_salary", &["Salario anual", "Salario"]),
    (
        "investment_limit",
        &["Límite de inversión", "Límite inversión"],
    ),
    ("patrimonio_ajustado", &["Patrimonio ajustado"]),
    (
        "declarations",
        &["Declaraciones", "Declaraciones completas"],
    ),
    (
        "dismissed_with_just_cause",
        &["Desvinculado con justa causa", "Justa causa"],
    ),
    ("review", &["Revisión", "Causal", "Causal de rechazo"]),
    // proposals
    ("proposal", &["Propuesta", "Número propuesta"]),
    ("bidders", &["Proponentes", "Oferentes"]),
    (
        "term_days",
        &["Plazo días", "Plazo en días", "Plazo de pago días", "Plazo"],
    ),
    ("beneficial_owner", &["Beneficiario real"]),
    ("guarantee", &["Garantía", "Garantía de seriedad"]),
    (
        "funds_accredited",
        &["Fondos acreditados", "Origen de fondos acreditado"],
    ),
    ("tranche", &["Tramo"]),
];

/// Columns that hold a date (or a date and time): a workbook cell there may be Excel's day
/// number.
pub const DATE_COLUMNS: [&str; 3] = ["adjudicated_on", "registered_on", "filed_at"];

/// The English name of the column a header cell names, or `None` when it names none vigia
/// knows (the import ignores such a column, or says which required one is missing).
pub fn canonical(header: &str) -> Option<&'static str> {
    let key = folded(header);
    ALIASES.iter().find_map(|(name, spanish)| {
        (folded(name) == key || spanish.iter().any(|s| folded(s) == key)).then_some(*name)
    })
}

/// The Spanish name the templates write for a column (its first alias).
pub fn spanish(name: &str) -> &'static str {
    ALIASES
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, s)| s.first().copied())
        .unwrap_or("")
}

/// The Spanish name of an audited table (`store::audit::AUDITED`), as the audit page and a
/// Spanish audit sentence show it beside the table's code; an unknown code as it is.
pub fn table_es(code: &str) -> &str {
    match code {
        "programs" => "Programas",
        "stage_prices" => "Precios de etapas posteriores",
        "holders" => "Titulares",
        "imports" => "Importaciones de adjudicaciones",
        "adjudications" => "Adjudicaciones",
        "pledge_imports" => "Importaciones de prendas",
        "pledges" => "Prendas",
        "pledge_releases" => "Liberaciones de prendas",
        "breaches" => "Incumplimientos",
        "breach_voids" => "Anulaciones de incumplimientos",
        "payments" => "Pagos",
        "liquidations" => "Liquidaciones",
        "rate_periods" => "Certificaciones de tasas",
        "rate_supersessions" => "Reemplazos de certificaciones de tasas",
        "notices" => "Avisos de cobro",
        "adjudication_voids" => "Anulaciones de adjudicaciones",
        "payment_voids" => "Anulaciones de pagos",
        "pledge_voids" => "Anulaciones de prendas",
        "offers" => "Ofertas",
        "acceptance_imports" => "Importaciones de aceptaciones",
        "acceptances" => "Aceptaciones",
        "offering_runs" => "Adjudicaciones de ofertas",
        "offering_outcomes" => "Resultados de adjudicación por aceptación",
        "users" => "Usuarios",
        "user_passwords" => "Contraseñas de usuarios",
        "user_disables" => "Deshabilitaciones de usuarios",
        "user_sign_ins" => "Ingresos al sistema",
        "stage_tranches" => "Tramos de etapas posteriores",
        "proposal_imports" => "Importaciones de propuestas",
        "proposals" => "Propuestas",
        "proposal_bidders" => "Proponentes",
        "stage_improvements" => "Mejoras de precio",
        "stage_draws" => "Sorteos",
        "stage_conclusions" => "Cierres de etapas posteriores",
        "stage_awards" => "Adjudicaciones de etapas posteriores",
        "settlements" => "Paz y salvos",
        "renderings" => "Documentos generados",
        "notice_deliveries" => "Entregas de avisos",
        "holder_contacts" => "Datos de contacto de titulares",
        "letterheads" => "Membretes y firmas de las cartas",
        "document_texts" => "Versiones del texto de avisos y paz y salvo",
        "validity_exceptions" => "Actos fuera de la vigencia del programa",
        "external_first_stages" => "Primeras etapas concluidas fuera de vigia",
        "acceptance_figures" => "Cifras adicionales de las aceptaciones",
        "audit_checkpoints" => "Puntos de control firmados",
        "acta_files" => "Archivos de actas generados",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_headers_name_the_columns_whatever_their_case_accents_and_spacing() {
        for (typed, want) in [
            ("Tipo documento", "doc_type"),
            ("TIPO_DOCUMENTO", "doc_type"),
            ("Número documento", "doc_number"),
            ("Cédula", "doc_number"),
            ("numero documento", "doc_number"),
            ("Nombre", "name"),
            ("Tipo persona", "person_type"),
            ("Categoría", "category"),
            ("CATEGORIA", "category"),
            ("Acciones", "shares"),
            ("Precio por acción", "price_per_share"),
            ("Fecha adjudicación", "adjudicated_on"),
            ("Acreedor", "lender"),
            ("Acciones financiadas", "financed_shares"),
            ("Acciones pignoradas", "shares"),
            ("Fecha radicación", "filed_at"),
            ("Acepta reducción", "accepts_reduction"),
            ("doc_type", "doc_type"),
            ("Doc Type", "doc_type"),
            (" price_per_share ", "price_per_share"),
        ] {
            assert_eq!(canonical(typed), Some(want), "{typed}");
        }
        assert_eq!(canonical("Observaciones"), None);
    }

    #[test]
    fn no_alias_names_two_columns() {
        let mut seen = std::collections::HashMap::new();
        for (name, spanish) in ALIASES {
            for alias in std::iter::once(name).chain(spanish.iter()) {
                if let Some(other) = seen.insert(folded(alias), *name) {
                    assert_eq!(other, *name, "{alias} names {other} and {name}");
                }
            }
        }
        for d in DATE_COLUMNS {
            assert!(ALIASES.iter().any(|(n, _)| *n == d), "{d}");
        }
    }
}
