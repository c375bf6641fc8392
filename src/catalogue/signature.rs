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

/// A result of a signature's verification, by what it checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result {
    SignedBytes,
    Coverage,
    Signature,
    Chain,
    Validity,
}

/// The result's name and what "ok" means for it.
pub fn result(lang: Lang, r: Result) -> (&'static str, &'static str) {
    match (lang, r) {
        (Lang::En, Result::SignedBytes) => ("signed bytes", "unchanged since signing"),
        (Lang::Es, Result::SignedBytes) => ("bytes firmados", "sin cambios desde la firma"),
        (Lang::En, Result::Coverage) => ("coverage", "the whole file but the signature itself"),
        (Lang::Es, Result::Coverage) => ("cobertura", "todo el archivo salvo la firma misma"),
        (Lang::En, Result::Signature) => ("signature", "made by the certificate it names"),
        (Lang::Es, Result::Signature) => ("firma", "hecha con el certificado que nombra"),
        (Lang::En, Result::Chain) => ("certificate chain", "reaches a certificate of --trust"),
        (Lang::Es, Result::Chain) => (
            "cadena de certificados",
            "encadena a un certificado de --trust",
        ),
        (Lang::En, Result::Validity) => ("certificate validity", ""),
        (Lang::Es, Result::Validity) => ("vigencia de los certificados", ""),
    }
}

/// A result's line: its name, then what it found.
pub fn line(lang: Lang, name: &str, c: &Check, ok: &str) -> String {
    match (c, lang) {
        (Check::Ok, _) => format!("    {name}: {ok}"),
        (Check::Failed(why), Lang::En) => format!("    {name}: FAILED: {why}"),
        (Check::Failed(why), Lang::Es) => format!("    {name}: NO VÁLIDO: {why}"),
        (Check::NotChecked(why), Lang::En) => format!("    {name}: not checked: {why}"),
        (Check::NotChecked(why), Lang::Es) => format!("    {name}: sin verificar: {why}"),
    }
}

/// The chain's line when no trust store was given.
pub fn chain_not_checked(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "    certificate chain: not checked: give --trust DIR with the certification authority's root"
        }
        Lang::Es => {
            "    cadena de certificados: sin verificar: dé --trust DIR con la raíz de la entidad de certificación"
        }
    }
}

/// The signature's first line: who signed, when they say, why and where.
pub fn heading(
    lang: Lang,
    signer: Option<&str>,
    signed_at: Option<chrono::DateTime<chrono::FixedOffset>>,
    reason: Option<&str>,
    location: Option<&str>,
) -> String {
    let at = |t: chrono::DateTime<chrono::FixedOffset>| t.format("%d/%m/%Y %H:%M %:z").to_string();
    match lang {
        Lang::En => format!(
            "  signature by {}, {}{}{}",
            signer.unwrap_or("an unknown signer"),
            signed_at.map_or_else(
                || "no signing time".to_string(),
                |t| format!("signed {} (the signer's clock)", at(t))
            ),
            reason.map(|r| format!(", reason: {r}")).unwrap_or_default(),
            location.map(|l| format!(", at {l}")).unwrap_or_default(),
        ),
        Lang::Es => format!(
            "  firma de {}, {}{}{}",
            signer.unwrap_or("un firmante desconocido"),
            signed_at.map_or_else(
                || "sin hora de firma".to_string(),
                |t| format!("firmada el {} (hora del firmante)", at(t))
            ),
            reason.map(|r| format!(", motivo: {r}")).unwrap_or_default(),
            location.map(|l| format!(", en {l}")).unwrap_or_default(),
        ),
    }
}

/// Whether the signer is one of the program's authorised signatories.
pub enum Signatory<'a> {
    NoneListed,
    Yes,
    /// `who` (the signer, with the certificate's number when it gives one) is not among `listed`.
    No {
        who: Option<&'a str>,
        listed: &'a str,
    },
}

/// The signatory's line.
pub fn signatory(lang: Lang, s: &Signatory<'_>) -> String {
    match (lang, s) {
        (Lang::En, Signatory::NoneListed) => "    signatory: not checked: the program lists no authorised signatories ([signatures] signatories)".into(),
        (Lang::Es, Signatory::NoneListed) => "    firmante: sin verificar: el programa no lista firmantes autorizados ([signatures] signatories)".into(),
        (Lang::En, Signatory::Yes) => "    signatory: one of the program's authorised signatories".into(),
        (Lang::Es, Signatory::Yes) => "    firmante: uno de los firmantes autorizados del programa".into(),
        (Lang::En, Signatory::No { who, listed }) => format!(
            "    signatory: FAILED: {} is not one of the program's authorised signatories ({listed})",
            who.unwrap_or("the signer")
        ),
        (Lang::Es, Signatory::No { who, listed }) => format!(
            "    firmante: NO VÁLIDO: {} no es uno de los firmantes autorizados del programa ({listed})",
            who.unwrap_or("el firmante")
        ),
    }
}
