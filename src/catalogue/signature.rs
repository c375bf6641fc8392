//! What a signature's verification says (issue 26), line by line, in English and Spanish: who
//! signed, when and why, each result named (the signed bytes, the coverage, the signature, the
//! chain, the timestamp of a PAdES B-T signature or that the time is the signer's claim, the
//! certificates' validity, the signatory). The command line's `notice verify`, `settlement
//! verify`, `offer verify` and `stage verify` and the web's «Verificar aviso» say it alike; only
//! where the trusted certificates come from differs ([`TrustFrom`]).

use crate::lang::Lang;
use crate::register::verify_signed::{Found, Signature, SignatureReport};
use crate::sign::{Check, Stamp};

/// Where the office's trusted certificates come from, as the report names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustFrom {
    /// the command line's `--trust DIR`
    Flag,
    /// the server's `VIGIA_TRUST` directory
    Server,
}

fn why_failed(lang: Lang, f: &crate::sign::Failure) -> String {
    super::signature_why::failure(lang, f)
}

fn why_unchecked(lang: Lang, u: &crate::sign::Unchecked) -> &'static str {
    super::signature_why::unchecked(lang, u)
}

/// "a certificate of --trust", or the server's store, in `lang`.
fn trusted_store(lang: Lang, from: TrustFrom) -> &'static str {
    match (lang, from) {
        (Lang::En, TrustFrom::Flag) => "a certificate of --trust",
        (Lang::Es, TrustFrom::Flag) => "un certificado de --trust",
        (Lang::En, TrustFrom::Server) => "a certificate the office trusts (VIGIA_TRUST)",
        (Lang::Es, TrustFrom::Server) => "un certificado de confianza de la oficina (VIGIA_TRUST)",
    }
}

/// Every line of a document's signatures: for each, its heading, its results and its
/// signatory. Nothing for an unsigned document.
pub fn report(lang: Lang, r: &SignatureReport, from: TrustFrom) -> Vec<String> {
    match &r.found {
        Found::Unsigned => Vec::new(),
        Found::Unreadable(e) => vec![match lang {
            Lang::En => format!("  signature: could not be read ({e})"),
            Lang::Es => format!("  firma: no se pudo leer ({e})"),
        }],
        Found::Signed(all) => all
            .iter()
            .flat_map(|s| one(lang, s, r.trust_given, from))
            .collect(),
    }
}

/// Whether every signature holds, in a sentence (a web page's summary).
pub fn summary(lang: Lang, r: &SignatureReport) -> Option<&'static str> {
    let signed = r.is_signed();
    match (signed, r.holds(), lang) {
        (false, _, _) => None,
        (true, true, Lang::En) => Some("The digital signature is valid."),
        (true, true, Lang::Es) => Some("La firma digital es válida."),
        (true, false, Lang::En) => Some("The digital signature is NOT valid (see the detail)."),
        (true, false, Lang::Es) => Some("La firma digital NO es válida (vea el detalle)."),
    }
}

fn one(lang: Lang, s: &Signature, trust_given: bool, from: TrustFrom) -> Vec<String> {
    let v = &s.verification;
    let mut out = vec![heading(
        lang,
        v.signer.as_deref(),
        v.signed_at,
        v.reason.as_deref(),
        v.location.as_deref(),
    )];
    let mut push = |r: Result, c: &Check| {
        let (name, ok) = result(lang, r);
        let ok = if r == Result::Chain {
            chain_ok(lang, from)
        } else {
            ok.to_string()
        };
        out.push(line(lang, name, c, &ok));
    };
    push(Result::SignedBytes, &v.intact);
    push(Result::Coverage, &v.whole_file);
    push(Result::Signature, &v.signature);
    if trust_given {
        push(Result::Chain, &v.trusted);
    } else {
        out.push(chain_not_checked(lang, from).to_string());
    }
    out.extend(stamp_lines(lang, v.stamp.as_ref(), trust_given, from));
    let stamped = v.stamp.as_ref().and_then(Stamp::proven_time).is_some();
    let (name, _) = result(lang, Result::Validity);
    out.push(line(
        lang,
        name,
        &v.valid_at_signing,
        validity_at(lang, stamped),
    ));
    if let Some(a) = &s.authorised {
        use crate::program_sign::Authorised;
        let name = v.signer.as_deref().unwrap_or("");
        let who = match (&v.signer_id, name.is_empty()) {
            (_, true) => None,
            (Some(id), false) => Some(format!("{name} ({id})")),
            (None, false) => Some(name.to_string()),
        };
        out.push(signatory(
            lang,
            &match a {
                Authorised::NoneListed => Signatory::NoneListed,
                Authorised::Yes => Signatory::Yes,
                Authorised::No => Signatory::No {
                    who: who.as_deref(),
                    listed: &s.listed,
                },
            },
        ));
    }
    out
}

/// What "ok" means for the chain: it reaches a trusted certificate.
fn chain_ok(lang: Lang, from: TrustFrom) -> String {
    match lang {
        Lang::En => format!("reaches {}", trusted_store(lang, from)),
        Lang::Es => format!("encadena a {}", trusted_store(lang, from)),
    }
}

/// A time as the report gives it: dd/mm/aaaa HH:MM in Colombia's legal time (UTC−5).
fn when(t: chrono::DateTime<chrono::Utc>) -> String {
    t.with_timezone(&crate::calendar::colombia())
        .format("%d/%m/%Y %H:%M:%S %:z")
        .to_string()
}

/// The lines on a signature's time: what its timestamp says and whether it holds, each
/// indented as the signature's other results; `trust_given`: whether `--trust` was given (the
/// authority's chain is checked against it).
fn stamp_lines(
    lang: Lang,
    stamp: Option<&Stamp>,
    trust_given: bool,
    from: TrustFrom,
) -> Vec<String> {
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
        (Check::Failed(why), Lang::En) => {
            format!("    timestamp token: FAILED: {}", why_failed(lang, why))
        }
        (Check::Failed(why), Lang::Es) => {
            format!("    token del sello: NO VÁLIDO: {}", why_failed(lang, why))
        }
        (Check::NotChecked(why), Lang::En) => format!(
            "    timestamp token: not checked: {}",
            why_unchecked(lang, why)
        ),
        (Check::NotChecked(why), Lang::Es) => format!(
            "    token del sello: sin verificar: {}",
            why_unchecked(lang, why)
        ),
    });
    out.push(match (&s.trusted, lang, trust_given) {
        (_, Lang::En, false) => format!(
            "    timestamp authority: not checked: {} with the authority's root",
            give_trust(lang, from)
        ),
        (_, Lang::Es, false) => format!(
            "    autoridad de sellado: sin verificar: {} con la raíz de la autoridad",
            give_trust(lang, from)
        ),
        (Check::Ok, _, true) => format!(
            "    {}: {}",
            match lang {
                Lang::En => "timestamp authority",
                Lang::Es => "autoridad de sellado",
            },
            chain_ok(lang, from)
        ),
        (Check::Failed(why), Lang::En, true) => {
            format!("    timestamp authority: FAILED: {}", why_failed(lang, why))
        }
        (Check::Failed(why), Lang::Es, true) => {
            format!(
                "    autoridad de sellado: NO CONFIABLE: {}",
                why_failed(lang, why)
            )
        }
        (Check::NotChecked(why), Lang::En, true) => {
            format!(
                "    timestamp authority: not checked: {}",
                why_unchecked(lang, why)
            )
        }
        (Check::NotChecked(why), Lang::Es, true) => {
            format!(
                "    autoridad de sellado: sin verificar: {}",
                why_unchecked(lang, why)
            )
        }
    });
    out
}

/// What the certificates' validity was judged at: the timestamp's time when its token is
/// valid, else the signer's claim.
fn validity_at(lang: Lang, stamped: bool) -> &'static str {
    match (lang, stamped) {
        (Lang::En, true) => "every certificate valid at the timestamp's time",
        (Lang::En, false) => "every certificate valid at the signing time the signer claims",
        (Lang::Es, true) => "todos los certificados vigentes a la hora del sello de tiempo",
        (Lang::Es, false) => "todos los certificados vigentes a la hora que declara el firmante",
    }
}

/// A result of a signature's verification, by what it checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Result {
    SignedBytes,
    Coverage,
    Signature,
    Chain,
    Validity,
}

/// The result's name and what "ok" means for it.
fn result(lang: Lang, r: Result) -> (&'static str, &'static str) {
    match (lang, r) {
        (Lang::En, Result::SignedBytes) => ("signed bytes", "unchanged since signing"),
        (Lang::Es, Result::SignedBytes) => ("bytes firmados", "sin cambios desde la firma"),
        (Lang::En, Result::Coverage) => ("coverage", "the whole file but the signature itself"),
        (Lang::Es, Result::Coverage) => ("cobertura", "todo el archivo salvo la firma misma"),
        (Lang::En, Result::Signature) => ("signature", "made by the certificate it names"),
        (Lang::Es, Result::Signature) => ("firma", "hecha con el certificado que nombra"),
        (Lang::En, Result::Chain) => ("certificate chain", ""),
        (Lang::Es, Result::Chain) => ("cadena de certificados", ""),
        (Lang::En, Result::Validity) => ("certificate validity", ""),
        (Lang::Es, Result::Validity) => ("vigencia de los certificados", ""),
    }
}

/// A result's line: its name, then what it found.
fn line(lang: Lang, name: &str, c: &Check, ok: &str) -> String {
    match (c, lang) {
        (Check::Ok, _) => format!("    {name}: {ok}"),
        (Check::Failed(why), Lang::En) => format!("    {name}: FAILED: {}", why_failed(lang, why)),
        (Check::Failed(why), Lang::Es) => {
            format!("    {name}: NO VÁLIDO: {}", why_failed(lang, why))
        }
        (Check::NotChecked(why), Lang::En) => {
            format!("    {name}: not checked: {}", why_unchecked(lang, why))
        }
        (Check::NotChecked(why), Lang::Es) => {
            format!("    {name}: sin verificar: {}", why_unchecked(lang, why))
        }
    }
}

/// What to do to have the chains checked: give the trusted certificates.
fn give_trust(lang: Lang, from: TrustFrom) -> &'static str {
    match (lang, from) {
        (Lang::En, TrustFrom::Flag) => "give --trust DIR",
        (Lang::Es, TrustFrom::Flag) => "dé --trust DIR",
        (Lang::En, TrustFrom::Server) => {
            "the server has no trusted certificates: start vigia serve with VIGIA_TRUST=DIR"
        }
        (Lang::Es, TrustFrom::Server) => {
            "el servidor no tiene certificados de confianza: inicie vigia serve con VIGIA_TRUST=DIR"
        }
    }
}

/// The chain's line when no trust store was given.
fn chain_not_checked(lang: Lang, from: TrustFrom) -> String {
    match lang {
        Lang::En => format!(
            "    certificate chain: not checked: {} with the certification authority's root",
            give_trust(lang, from)
        ),
        Lang::Es => format!(
            "    cadena de certificados: sin verificar: {} con la raíz de la entidad de certificación",
            give_trust(lang, from)
        ),
    }
}

/// The signature's first line: who signed, when they say, why and where.
fn heading(
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
enum Signatory<'a> {
    NoneListed,
    Yes,
    /// `who` (the signer, with the certificate's number when it gives one) is not among `listed`.
    No {
        who: Option<&'a str>,
        listed: &'a str,
    },
}

/// The signatory's line.
fn signatory(lang: Lang, s: &Signatory<'_>) -> String {
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
