//! What a record's column is, once for every human or Excel rendering: its Spanish name
//! ([`header_es`]) and the type of its values ([`cell_of`]: pesos, rates, counts, dates), which
//! the workbooks write as typed cells and the Spanish tables show the es-CO way ([`shown_es`]).
//! Rendering only; the machine formats (JSON, CSV) keep the English keys.

use crate::lang::fecha;
use crate::money::{format_cop_dp, format_number, format_percent_dp};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde_json::Value;

/// One typed cell (serialized only to spool rows a writer reads back: `report::findings`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    Empty,
    Text(String),
    /// A whole number (shares, days, ids).
    Count(i64),
    /// Pesos.
    Pesos(Decimal),
    /// A rate in percent points (27.90 for 27,90 %).
    Percent(Decimal),
    /// Any other decimal (a daily rate).
    Number(Decimal),
    Date(NaiveDate),
    /// A moment in Colombia's legal time (a stored UTC time, `recorded_at`, read for people).
    DateTime(chrono::NaiveDateTime),
}

/// The Spanish name of a record's column; the key with spaces for `_` when it has none (a test
/// runs every listing in Spanish and fails on such a heading).
pub fn header_es(key: &str) -> String {
    let es = match key {
        "id" => "N.º",
        "program" => "Programa",
        "doc_type" => "Tipo documento",
        "doc_number" => "Número documento",
        "name" => "Nombre",
        "holder" => "Titular",
        "category" => "Categoría",
        "shares" => "Acciones",
        "price_per_share" => "Precio por acción",
        "adjudicated_on" | "adjudicated" => "Fecha adjudicación",
        "lockup_end" => "Fin del período de restricción",
        "status" => "Estado",
        "lender" => "Acreedor",
        "financed_shares" => "Acciones financiadas",
        "void" => "Anulado",
        "adjudication_id" => "Adjudicación",
        "breach_id" => "Incumplimiento",
        "kind" => "Clase",
        "breach_date" => "Fecha incumplimiento",
        "consideration_per_share" => "Contraprestación por acción",
        "consideration_total" => "Contraprestación total",
        "registered_on" => "Fecha de registro",
        "evidence" => "Soporte",
        "recorded_at" => "Registrado el",
        "recorded_by" => "Registrado por",
        "void_reason" => "Motivo de anulación",
        "voided_at" => "Anulado el",
        "voided_by" => "Anulado por",
        "date" => "Fecha",
        "amount" => "Valor",
        "reference" => "Referencia",
        "code" => "Código",
        "severity" => "Gravedad",
        "outstanding" => "Saldo pendiente",
        "reason" => "Motivo",
        "valid_from" | "from" => "Desde",
        "valid_to" | "to" => "Hasta",
        "ibc_ea_percent" => "IBC (% EA)",
        "usury_ea_percent" => "Usura (% EA)",
        "moratorium_ea_percent" => "Tasa moratoria (% EA)",
        "resolution" => "Resolución",
        "days" => "Días",
        "daily_rate" => "Tasa diaria",
        "capital" => "Capital",
        "interest" => "Interés",
        "to_interest" => "A intereses",
        "to_capital" => "A capital",
        "surplus" => "Excedente",
        "capital_after" => "Capital después",
        "decree" => "Decreto",
        "issuer" => "Emisor",
        "shares_offered" => "Acciones ofrecidas",
        "fixed_price" => "Precio fijo",
        "lockup_months" => "Meses del período de restricción",
        "brackets" => "Tramos de la multa",
        "reference_prices" => "Precios de referencia",
        "breach_kinds" => "Clases de incumplimiento",
        "convention" => "Convención",
        "payment_term_business_days" => "Plazo de pago (días hábiles)",
        "stage_price" => "Precio de etapa",
        "stage_price_status" => "Estado del precio de etapa",
        "sha256" => "SHA-256",
        "added_at" => "Agregado el",
        "added_by" => "Agregado por",
        "sellers" => "Enajenantes",
        "nit" => "NIT",
        "account" => "Cuenta",
        "bank" => "Banco",
        "city" => "Ciudad",
        "entity" => "Entidad",
        "notice_lacks" => "Le falta a la notificación",
        "paz_y_salvo_lacks" => "Le falta al paz y salvo",
        "return_address" => "Dirección de respuesta",
        "set_at" => "Fijado el",
        "set_by" => "Fijado por",
        "signatory_name" => "Firmante",
        "signatory_position" => "Cargo del firmante",
        "version" => "Versión",
        "accepts_reduction" => "Acepta reducción",
        "cause" => "Causa",
        "filed_at" => "Presentada el",
        "line" => "Línea",
        "breaches" => "Incumplimientos",
        "pledges" => "Prendas",
        "unbreached_shares" => "Acciones sin incumplir",
        "liquidations" => "Liquidaciones",
        "payments" => "Pagos",
        "awaits_delivery" => "Espera entrega",
        "deadline" => "Vence",
        "delivered_on" => "Entregada el",
        "issued_at" => "Emitida el",
        "issued_by" => "Emitida por",
        "liquidation_id" => "Liquidación",
        "notice_date" => "Fecha de la notificación",
        "number" => "Número",
        "supersedes" => "Reemplaza a",
        "via" => "Medio",
        "address" => "Dirección",
        "email" => "Correo electrónico",
        "holiday" => "Festivo",
        "moved_from" => "Trasladado del",
        "weekday" => "Día",
        "action" => "Acción",
        "actor" => "Autor",
        "at" => "Momento",
        "entity_id" => "Fila",
        "hash" => "Hash",
        "payload" => "Contenido",
        "prev_hash" => "Hash anterior",
        "seq" => "Evento",
        "created_at" => "Creada el",
        "created_by" => "Creada por",
        "disabled" => "Deshabilitada",
        "role" => "Rol",
        "stage" => "Etapa",
        "tranches" => "Tramos",
        "until" => "Hasta",
        "total_due" => "Total a pagar",
        "provisional" => "Provisional",
        "rank" => "Grado",
        "released_on" => "Levantada el",
        "beneficiary" => "Beneficiario",
        "findings" => "Hallazgos",
        "principal" => "Multa",
        "requested" => "Acciones pedidas",
        "cap_shares" => "Tope por persona",
        "cap_rule" => "Regla del tope",
        "admitted" => "Acciones admitidas",
        "quota" => "Cupo",
        "awarded" => "Acciones adjudicadas",
        "tranche" => "Tramo",
        "proposal" => "Propuesta",
        "bidders" => "Oferentes",
        "beneficial_owner" => "Beneficiario real",
        "improved_price" => "Precio mejorado",
        "price" => "Precio",
        "term_days" => "Plazo (días)",
        "value" => "Valor presente",
        "file" => "Archivo",
        _ => return key.replace('_', " "),
    };
    es.to_string()
}

/// Whether a record's column holds pesos.
pub fn is_pesos(key: &str) -> bool {
    matches!(
        key,
        "price_per_share"
            | "fixed_price"
            | "improved_price"
            | "price"
            | "value"
            | "stage_price"
            | "consideration_per_share"
            | "consideration_total"
            | "amount"
            | "outstanding"
            | "capital"
            | "interest"
            | "to_interest"
            | "to_capital"
            | "surplus"
            | "capital_after"
            | "principal"
            | "total_due"
    )
}

/// A record's value as the amount it is: a decimal string in a column of pesos.
pub fn amount_of(key: &str, v: &Value) -> Option<Decimal> {
    match v {
        Value::String(s) if is_pesos(key) => Decimal::from_str_exact(s).ok(),
        _ => None,
    }
}

/// A record's value as a typed cell, by its column: pesos and rates from their decimal strings,
/// whole numbers as numbers, `YYYY-MM-DD` as a date, yes/no in Spanish, anything else as text
/// (document numbers stay text: their leading zeros count).
pub fn cell_of(key: &str, v: &Value) -> Cell {
    let decimal = |s: &str| Decimal::from_str_exact(s).ok();
    match v {
        Value::Null => Cell::Empty,
        Value::Bool(b) => Cell::Text(if *b { "sí" } else { "no" }.into()),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Cell::Count(i),
            None => Cell::Text(n.to_string()),
        },
        Value::String(s) => {
            if let Some(d) = amount_of(key, v) {
                return Cell::Pesos(d);
            }
            if key.ends_with("_percent")
                && let Some(d) = decimal(s)
            {
                return Cell::Percent(d);
            }
            if key == "daily_rate"
                && let Some(d) = decimal(s)
            {
                return Cell::Number(d);
            }
            if s.len() == 10
                && let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
            {
                return Cell::Date(d);
            }
            // a rate period's resolution in Spanish words and dates; a stable code (a severity,
            // a status, a convention) in the words a Spanish table shows
            if key == "resolution" {
                return Cell::Text(crate::rates::resolution_es(s));
            }
            // a program's lists of codes, each in words
            if let Some(item) = match key {
                "reference_prices" => Some("basis"),
                "breach_kinds" => Some("kind"),
                _ => None,
            } {
                let es = crate::catalogue::of(crate::lang::Lang::Es);
                let words: Vec<&str> = s
                    .split(',')
                    .map(|c| es.code(item, c).unwrap_or(c))
                    .collect();
                return Cell::Text(words.join(", "));
            }
            if let Some(es) = crate::catalogue::of(crate::lang::Lang::Es).code(key, s) {
                return Cell::Text(es.into());
            }
            if s.len() >= 20
                && s.as_bytes().get(10) == Some(&b'T')
                && let Ok(t) = chrono::DateTime::parse_from_rfc3339(s)
            {
                return Cell::DateTime(t.with_timezone(&crate::calendar::colombia()).naive_local());
            }
            Cell::Text(s.clone())
        }
        other => Cell::Text(other.to_string()),
    }
}

/// A record's value as a CSV cell: as the JSON has it, except pesos, which have at least the
/// column's two decimals (`500000.00` beside `623432.50`, so that a spreadsheet reads one kind
/// of number) and every further decimal the exact value has (`963.125`, a price typed with
/// three): a machine format carries the stored value, never a rounded one. Written as it is
/// read (a CSV streams), so a value's own digits decide, not the column's.
pub fn csv_value(key: &str, text: String) -> String {
    if is_pesos(key)
        && let Ok(d) = Decimal::from_str_exact(&text)
    {
        return crate::money::two_or_more_decimals(d).to_string();
    }
    text
}

/// A record's value as a Spanish table shows it: dates dd/mm/aaaa, times in Colombia's legal
/// time, pesos `$ 1.450,50` with their own decimals, rates `27,90 %`, counts with es-CO
/// thousands (ids, line numbers and versions as they are), yes/no as sí/no, stable codes in
/// words (`sale`: venta).
pub fn shown_es(key: &str, v: &Value) -> String {
    let plain = key == "id"
        || key.ends_with("_id")
        || matches!(key, "line" | "version" | "seq" | "stage" | "rank" | "year");
    match cell_of(key, v) {
        Cell::Empty => String::new(),
        Cell::DateTime(t) => t.format("%d/%m/%Y %H:%M (hora de Colombia)").to_string(),
        // a local time as filed (an acceptance's or a proposal's `filed_at`)
        Cell::Text(s)
            if s.len() == 19
                && let Ok(t) = chrono::NaiveDateTime::parse_from_str(&s, "%Y-%m-%d %H:%M:%S") =>
        {
            t.format("%d/%m/%Y %H:%M:%S").to_string()
        }
        // a stable code in words (`sale`: venta), from the Spanish catalogue
        Cell::Text(s) => crate::catalogue::of(crate::lang::Lang::Es)
            .code(key, &s)
            .map_or(s, str::to_string),
        Cell::Count(i) if plain => i.to_string(),
        Cell::Count(i) => match u64::try_from(i) {
            Ok(n) => crate::lang::numero(n),
            Err(_) => format!("-{}", crate::lang::numero(i.unsigned_abs())),
        },
        Cell::Pesos(d) => format_cop_dp(d, d.scale()),
        Cell::Percent(d) => format_percent_dp(d, d.scale()),
        Cell::Number(d) => format_number(d),
        Cell::Date(d) => fecha(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_writes_every_decimal_an_amount_has_and_at_least_two() {
        let csv = |key: &str, text: &str| csv_value(key, text.to_string());
        // a price per share typed with three decimals is written as typed, never as 963.13
        assert_eq!(csv("price_per_share", "963.125"), "963.125");
        // whole and one-decimal amounts keep the column's two; zeros stored past them are not
        // figures
        assert_eq!(csv("price_per_share", "1450"), "1450.00");
        assert_eq!(csv("amount", "1450.5"), "1450.50");
        assert_eq!(csv("amount", "2.2500"), "2.25");
        assert_eq!(csv("outstanding", "-0.125"), "-0.125");
        // not an amount: as it is
        assert_eq!(csv("shares", "1000"), "1000");
    }
}
