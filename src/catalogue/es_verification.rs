//! The web's verification of a notice or a paz y salvo, in Spanish ([`super::verification`]).

use super::verification::{Found, Mark, Said, Unverified, format};
use crate::lang::{fecha, momento, numero};
use crate::register::verify::{File, PaidSince, Standing, Text, Unverifiable, Verified};

pub(super) fn unverifiable(e: &Unverifiable) -> Unverified {
    Unverified {
        outcome: "No se pudo verificar el documento.".into(),
        reason: format!("Motivo: {}.", e.said().es()),
    }
}

fn paid(p: &PaidSince) -> String {
    format!(
        "La multa de este aviso ya está pagada en su totalidad ({}): {}.",
        fecha(p.on),
        paz_y_salvo(p)
    )
}

fn mark(m: Mark) -> &'static str {
    match m {
        Mark::Holds => "✓ coincide",
        Mark::Fails => "✗ no coincide",
        Mark::NoData => "sin dato",
        Mark::Note => "ⓘ a tener en cuenta",
    }
}

/// What a paid fine's holder is owed: its paz y salvo, issued or to issue.
fn paz_y_salvo(p: &PaidSince) -> String {
    match &p.settlement {
        Some((number, date)) => format!("su paz y salvo es el {number} del {}", fecha(*date)),
        None => "corresponde expedir su paz y salvo, no un nuevo aviso de cobro".into(),
    }
}

/// What `f` checked and found, in Spanish (`kind`: the document's kind).
fn words(f: &Found<'_>, kind: &str) -> (&'static str, String) {
    match f {
        Found::Text(Text::Match) => ("Texto y cifras", "coinciden con el registro".into()),
        Found::Text(Text::LineDiffers {
            line,
            expected,
            found,
        }) => (
            "Texto y cifras",
            format!("la línea {line} debía decir «{expected}» y dice «{found}»"),
        ),
        Found::Text(Text::LineCount { expected, found }) => (
            "Texto y cifras",
            format!("el documento debía tener {expected} líneas y tiene {found}"),
        ),
        Found::File(file) => ("Archivo", file_es(file, kind)),
        Found::Fingerprint(fp) if fp.matches() => (
            "Huella de la liquidación",
            format!("{} coincide", fp.stored),
        ),
        Found::Fingerprint(fp) => (
            "Huella de la liquidación",
            format!(
                "registrada {}, recalculada {}; {}",
                fp.stored,
                fp.recomputed,
                if fp.printed {
                    "el documento la muestra"
                } else {
                    "el documento no la muestra"
                }
            ),
        ),
        Found::SameFigures => (
            "Cifras recalculadas hoy",
            "el registro da las mismas cifras".into(),
        ),
        Found::OtherFigures(Some(p)) => (
            "Cifras recalculadas hoy",
            format!(
                "el registro da cifras distintas porque la multa se pagó en su totalidad después \
                 de este aviso (el {}): ya no hay nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo(p)
            ),
        ),
        Found::OtherFigures(None) => (
            "Cifras recalculadas hoy",
            format!(
                "el registro da cifras distintas (se registró después un pago, un precio de etapa \
                 o una tasa); emita un nuevo {kind}"
            ),
        ),
        Found::PaidSince(p) => (
            "Estado de la multa",
            format!(
                "pagada en su totalidad el {}, después de la fecha de esta liquidación: ya no hay \
                 nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo(p)
            ),
        ),
        Found::Void(s) => ("Pago anulado", s.said().es().to_string()),
        Found::Standing(Standing::InForce) => (
            "Vigencia",
            "vigente: ningún aviso posterior lo reemplaza".into(),
        ),
        Found::Standing(Standing::Replaced { number, date }) => (
            "Vigencia",
            format!(
                "reemplazado por el aviso {number} del {}; este aviso ya no está vigente",
                fecha(*date)
            ),
        ),
    }
}

/// The file against those vigia wrote, in Spanish.
fn file_es(file: &File, kind: &str) -> String {
    match file {
        File::Issued {
            sha256,
            format: f,
            at,
        } => format!(
            "idéntico al archivo emitido ({}, {}; SHA-256 {sha256})",
            format(*f),
            momento(at)
        ),
        File::RenderedAgain {
            sha256,
            format: f,
            at,
            by,
        } => format!(
            "idéntico al archivo generado de nuevo el {} por {by} ({}; SHA-256 {sha256})",
            momento(at),
            format(*f)
        ),
        File::NoRecord { .. } => format!(
            "no hay un SHA-256 registrado de este {kind} (se emitió antes de que vigia registrara \
             sus archivos)"
        ),
        File::Changed { sha256, written } => format!(
            "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 {sha256} \
             no es {}",
            match written {
                1 => "el del único archivo que vigia generó".to_string(),
                n => format!(
                    "el de ninguno de los {} archivos que vigia generó",
                    numero(*n as u64)
                ),
            }
        ),
        File::Different { sha256 } => {
            format!("distinto de todos los archivos que vigia generó (SHA-256 {sha256})")
        }
    }
}

pub(super) fn verification(v: &Verified) -> Said {
    let kind = v.kind.said();
    let kind = kind.es();
    let rows = super::verification::rows(v, |f| words(f, kind), mark);
    Said {
        outcome: if v.matches() {
            "El documento coincide con el registro: texto, cifras y huella.".into()
        } else {
            "El documento NO coincide con el registro (vea el detalle).".into()
        },
        paid: v.paid_since.as_ref().map(paid),
        document: (
            format!("Documento: {kind} "),
            v.number.clone(),
            format!(
                " del programa {}, liquidación N.º {}.",
                v.program, v.liquidation_id
            ),
        ),
        headers: ["comprobación", "resultado", "detalle"],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::verification::changed;

    #[test]
    fn each_check_is_worded_in_spanish_with_its_mark() {
        let s = verification(&changed());
        assert_eq!(
            s.outcome,
            "El documento NO coincide con el registro (vea el detalle)."
        );
        assert_eq!(
            s.paid.as_deref(),
            Some(
                "La multa de este aviso ya está pagada en su totalidad (01/03/2025): corresponde \
                 expedir su paz y salvo, no un nuevo aviso de cobro."
            )
        );
        assert_eq!(
            s.document,
            (
                "Documento: aviso de cobro ".to_string(),
                "MULTA-2025-0003".to_string(),
                " del programa D3939-2004, liquidación N.º 7.".to_string()
            )
        );
        let rows: Vec<(&str, Mark, &str, &str)> = s
            .rows
            .iter()
            .map(|r| (r.check, r.mark, r.shown, r.detail.as_str()))
            .collect();
        let fails = (Mark::Fails, "✗ no coincide");
        assert_eq!(
            rows,
            [
                (
                    "Texto y cifras",
                    Mark::Holds,
                    "✓ coincide",
                    "coinciden con el registro"
                ),
                (
                    "Archivo",
                    fails.0,
                    fails.1,
                    "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 \
                     ab12 no es el de ninguno de los 2 archivos que vigia generó"
                ),
                (
                    "Huella de la liquidación",
                    fails.0,
                    fails.1,
                    "registrada f1, recalculada f2; el documento no la muestra"
                ),
                (
                    "Cifras recalculadas hoy",
                    fails.0,
                    fails.1,
                    "el registro da cifras distintas porque la multa se pagó en su totalidad \
                     después de este aviso (el 01/03/2025): ya no hay nada que cobrar; \
                     corresponde expedir su paz y salvo, no un nuevo aviso de cobro"
                ),
                (
                    "Vigencia",
                    fails.0,
                    fails.1,
                    "reemplazado por el aviso MULTA-2025-0009 del 04/03/2025; este aviso ya no \
                     está vigente"
                ),
            ]
        );
        assert_eq!(
            unverifiable(&Unverifiable::NoNumber),
            Unverified {
                outcome: "No se pudo verificar el documento.".into(),
                reason: format!("Motivo: {}.", Unverifiable::NoNumber.said().es()),
            }
        );
    }
}
