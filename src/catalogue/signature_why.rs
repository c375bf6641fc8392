//! Why a signature's result failed or was not decided (`sign::Failure`, `sign::Unchecked`),
//! worded in English and Spanish: what follows «FAILED:» or «NO VÁLIDO:» in a verification.

use crate::lang::Lang;
use crate::sign::{Failure, Unchecked};

/// A time as the reasons give it: dd/mm/aaaa HH:MM in Colombia's legal time (UTC−5).
fn at<Tz: chrono::TimeZone>(t: &chrono::DateTime<Tz>) -> String {
    t.with_timezone(&crate::calendar::colombia())
        .format("%d/%m/%Y %H:%M %:z")
        .to_string()
}

/// Why a result failed, in `lang`.
pub fn failure(lang: Lang, f: &Failure) -> String {
    use Failure as F;
    let en = lang == Lang::En;
    let pick = |e: &str, s: &str| if en { e.to_string() } else { s.to_string() };
    match f {
        F::ByteRangeShape(r) => pick(
            &format!("the byte range {r:?} is not [0 a b c]"),
            &format!("el rango de bytes {r:?} no es [0 a b c]"),
        ),
        F::ByteRangeOutside(r) => pick(
            &format!("the byte range {r:?} is outside the file"),
            &format!("el rango de bytes {r:?} sale del archivo"),
        ),
        F::GapNotContents => pick(
            "the bytes left out of the signature are not just the signature itself",
            "los bytes que la firma deja fuera no son solo la firma misma",
        ),
        F::Appended(n) => pick(
            &format!(
                "{n} bytes were appended after the signature (the document was changed after signing)"
            ),
            &format!(
                "se agregaron {n} bytes después de la firma (el documento se modificó después de firmado)"
            ),
        ),
        F::NotDetachedCms(found) => {
            let found = found.as_deref().unwrap_or("-");
            pick(
                &format!("the signature's format {found} is not a detached CMS"),
                &format!("el formato de la firma {found} no es un CMS separado (detached)"),
            )
        }
        F::NotSignedData => pick(
            "/Contents is not a CMS SignedData",
            "/Contents no es un CMS SignedData",
        ),
        F::NoSigner => pick(
            "the SignedData has no signer",
            "el SignedData no tiene firmante",
        ),
        F::SignerByKeyId => pick(
            "the signer is named by key identifier, not by certificate",
            "el firmante se nombra por identificador de clave, no por certificado",
        ),
        F::SignerCertificateMissing => pick(
            "the signer's certificate is not in the signature",
            "el certificado del firmante no está en la firma",
        ),
        F::NoSignedAttributes => pick(
            "the signature has no signed attributes",
            "la firma no tiene atributos firmados",
        ),
        F::UnknownDigest(oid) => pick(
            &format!("unknown digest algorithm {oid}"),
            &format!("algoritmo de resumen desconocido {oid}"),
        ),
        F::DigestMismatch => pick(
            "the signed bytes changed: their digest is not the signed one",
            "los bytes firmados cambiaron: su resumen no es el firmado",
        ),
        F::NoMessageDigest => pick(
            "no message-digest attribute",
            "no hay atributo message-digest",
        ),
        F::NotRsaKey => pick(
            "the signer's key is not an RSA key",
            "la clave del firmante no es una clave RSA",
        ),
        F::SignatureMismatch => pick(
            "the signature does not match the signer's key",
            "la firma no corresponde a la clave del firmante",
        ),
        F::NoEss => pick(
            "no ESS signing-certificate-v2 attribute (PAdES requires it)",
            "no hay atributo ESS signing-certificate-v2 (PAdES lo exige)",
        ),
        F::EssEmpty => pick(
            "the ESS signing-certificate-v2 attribute names no certificate",
            "el atributo ESS signing-certificate-v2 no nombra ningún certificado",
        ),
        F::EssOtherCertificate => pick(
            "the ESS signing-certificate-v2 attribute names another certificate",
            "el atributo ESS signing-certificate-v2 nombra otro certificado",
        ),
        F::ChainTooLong => pick(
            "the chain is longer than ten certificates",
            "la cadena tiene más de diez certificados",
        ),
        F::NoTrustGiven(issuer) => pick(
            &format!("no trusted certificate given ({issuer})"),
            &format!("no se dio ningún certificado de confianza ({issuer})"),
        ),
        F::UntrustedRoot(issuer) => pick(
            &format!("the chain ends in a certificate that is not trusted ({issuer})"),
            &format!("la cadena termina en un certificado que no es de confianza ({issuer})"),
        ),
        F::NoTrustedReached(issuer) => pick(
            &format!("the chain reaches no trusted certificate ({issuer})"),
            &format!("la cadena no llega a ningún certificado de confianza ({issuer})"),
        ),
        F::NotValidAt {
            holder,
            at: t,
            from,
            to,
        } => pick(
            &format!(
                "the certificate of {holder} was not valid on {} (valid {} to {})",
                at(t),
                at(from),
                at(to)
            ),
            &format!(
                "el certificado de {holder} no estaba vigente el {} (vigente del {} al {})",
                at(t),
                at(from),
                at(to)
            ),
        ),
        F::TokenUnreadable(None) => pick(
            "the timestamp token cannot be read",
            "el token del sello de tiempo no se puede leer",
        ),
        F::TokenUnreadable(Some(why)) => pick(
            &format!("the timestamp token cannot be read ({why})"),
            &format!("el token del sello de tiempo no se puede leer ({why})"),
        ),
        F::StampHashUnknown(oid) => pick(
            &format!("the timestamp's hash algorithm {oid} is unknown"),
            &format!("el algoritmo de resumen del sello de tiempo {oid} es desconocido"),
        ),
        F::StampOverAnotherSignature => pick(
            "the timestamp is over another signature",
            "el sello de tiempo es de otra firma",
        ),
        F::NotForTimestamping => pick(
            "the authority's certificate is not one for timestamping (extended key usage)",
            "el certificado de la autoridad no es de estampado de tiempo (uso extendido de la clave)",
        ),
    }
}

/// Why a result was not decided, in `lang`.
pub fn unchecked(lang: Lang, u: &Unchecked) -> &'static str {
    match (lang, u) {
        (Lang::En, Unchecked::ByteRangeUnread) => "the byte range could not be read",
        (Lang::Es, Unchecked::ByteRangeUnread) => "no se pudo leer el rango de bytes",
        (Lang::En, Unchecked::SignatureUnread) => "the signature could not be read",
        (Lang::Es, Unchecked::SignatureUnread) => "no se pudo leer la firma",
        (Lang::En, Unchecked::NoSigningTime) => "the signature claims no signing time (/M)",
        (Lang::Es, Unchecked::NoSigningTime) => "la firma no declara hora de firma (/M)",
        (Lang::En, Unchecked::NoCertificate) => "no certificate found",
        (Lang::Es, Unchecked::NoCertificate) => "no se encontró ningún certificado",
        (Lang::En, Unchecked::TokenUnread) => "the timestamp token cannot be read",
        (Lang::Es, Unchecked::TokenUnread) => "el token del sello de tiempo no se puede leer",
    }
}

/// Why a key file was not loaded, or a document not signed, in `lang` (the web's «Firma
/// digital» and the command line's `--sign`).
pub fn sign_refused(lang: Lang, e: &crate::sign::SignError) -> String {
    use crate::sign::SignError as E;
    match (lang, e) {
        (Lang::Es, E::KeyFile(_)) => "el archivo no abre con esa contraseña, o no es un PKCS#12 \
            (.p12, .pfx): revise el archivo y su contraseña"
            .into(),
        (Lang::Es, E::NoCertificate) => "el archivo no contiene una clave privada con su \
            certificado: exporte el certificado con su clave privada"
            .into(),
        (Lang::Es, E::Key(_)) => {
            "la clave privada no es RSA: vigia firma solo con claves RSA".into()
        }
        (Lang::Es, E::Pdf(why)) => format!("el PDF no se pudo firmar: {why}"),
        (Lang::Es, E::Encoding(why)) => format!("la firma no se pudo codificar: {why}"),
        (Lang::Es, E::TooLarge(n, room)) => format!(
            "la firma ocupa {n} bytes, más de los {room} reservados: la cadena de certificados es \
             demasiado larga"
        ),
        (Lang::Es, E::Tsa(url, why)) => {
            format!("la autoridad de sellado de tiempo {url}: {}", why.es())
        }
        (Lang::En, e) => e.to_string(),
    }
}
