//! What a signature's verification says of its time (issue 26): the timestamp of a PAdES B-T
//! signature (its time, its authority, whether its token is valid over the signature and its
//! authority trusted), or, without one, that the time is the signer's claim. English and
//! Spanish; the command line's `notice verify`, `settlement verify`, `offer verify` and `stage
//! verify` say it alike.

use crate::lang::Lang;
use crate::sign::{Check, Stamp};

/// A time as the report gives it: dd/mm/aaaa HH:MM in Colombia's legal time (UTC−5).
fn when(t: chrono::DateTime<chrono::Utc>) -> String {
    t.with_timezone(&crate::calendar::colombia())
        .format("%d/%m/%Y %H:%M:%S %:z")
        .to_string()
}

/// The lines on a signature's time: what its timestamp says and whether it holds, each
/// indented as the signature's other results; `trust_given`: whether `--trust` was given (the
/// authority's chain is checked against it).
pub fn stamp_lines(lang: Lang, stamp: Option<&Stamp>, trust_given: bool) -> Vec<String> {
    let Some(s) = stamp else {
        return vec![match lang {
            Lang::En => "    timestamp: none: the signing time is the signer's clock, no timestamp"
                .to_string(),
            Lang::Es => {
                "    sello de tiempo: ninguno: Hora del firmante, sin sello de tiempo".to_string()
            }
        }];
    };
    let time = s.time.map(when);
    let authority = s.authority.as_deref();
    let mut out = vec![match lang {
        Lang::En => format!(
            "    timestamp: {} by {}",
            time.as_deref().unwrap_or("(time unreadable)"),
            authority.unwrap_or("an unnamed authority")
        ),
        Lang::Es => format!(
            "    sello de tiempo: {} de {}",
            time.as_deref().unwrap_or("(hora ilegible)"),
            authority.unwrap_or("una autoridad sin nombre")
        ),
    }];
    out.push(match (&s.token, lang) {
        (Check::Ok, Lang::En) => {
            "    timestamp token: valid over this signature, by a timestamping certificate".into()
        }
        (Check::Ok, Lang::Es) => {
            "    token del sello: válido sobre esta firma, de un certificado de estampado de tiempo"
                .into()
        }
        (Check::Failed(why), Lang::En) => format!("    timestamp token: FAILED: {why}"),
        (Check::Failed(why), Lang::Es) => format!("    token del sello: NO VÁLIDO: {why}"),
        (Check::NotChecked(why), Lang::En) => format!("    timestamp token: not checked: {why}"),
        (Check::NotChecked(why), Lang::Es) => format!("    token del sello: sin verificar: {why}"),
    });
    out.push(match (&s.trusted, lang, trust_given) {
        (_, Lang::En, false) => "    timestamp authority: not checked: give --trust DIR with the \
             authority's root"
            .into(),
        (_, Lang::Es, false) => "    autoridad de sellado: sin verificar: dé --trust DIR con la \
             raíz de la autoridad"
            .into(),
        (Check::Ok, Lang::En, true) => {
            "    timestamp authority: reaches a certificate of --trust".into()
        }
        (Check::Ok, Lang::Es, true) => {
            "    autoridad de sellado: encadena a un certificado de --trust".into()
        }
        (Check::Failed(why), Lang::En, true) => format!("    timestamp authority: FAILED: {why}"),
        (Check::Failed(why), Lang::Es, true) => {
            format!("    autoridad de sellado: NO CONFIABLE: {why}")
        }
        (Check::NotChecked(why), Lang::En, true) => {
            format!("    timestamp authority: not checked: {why}")
        }
        (Check::NotChecked(why), Lang::Es, true) => {
            format!("    autoridad de sellado: sin verificar: {why}")
        }
    });
    out
}

/// What the certificates' validity was judged at: the timestamp's time when its token is
/// valid, else the signer's claim.
pub fn validity_at(lang: Lang, stamped: bool) -> &'static str {
    match (lang, stamped) {
        (Lang::En, true) => "every certificate valid at the timestamp's time",
        (Lang::En, false) => "every certificate valid at the signing time the signer claims",
        (Lang::Es, true) => "todos los certificados vigentes a la hora del sello de tiempo",
        (Lang::Es, false) => "todos los certificados vigentes a la hora que declara el firmante",
    }
}
