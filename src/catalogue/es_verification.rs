//! The web's verification of a notice or a paz y salvo, in Spanish ([`super::verification`]).

use super::verification::{Mark, Outcome, Row, Said};
use crate::lang::{fecha, momento, numero};
use crate::notice::DocFormat;
use crate::register::verify::{File, PaidSince, Standing, Text, Unverifiable, Verified};

pub(super) fn outcome(o: Outcome) -> String {
    match o {
        Outcome::Matches => "El documento coincide con el registro: texto, cifras y huella.".into(),
        Outcome::DoesNotMatch => {
            "El documento NO coincide con el registro (vea el detalle).".into()
        }
        Outcome::Unverifiable => "No se pudo verificar el documento.".into(),
    }
}

pub(super) fn reason(e: &Unverifiable) -> String {
    format!("Motivo: {}.", e.said().es())
}

pub(super) fn paid(p: &PaidSince) -> String {
    format!(
        "La multa de este aviso ya está pagada en su totalidad ({}): {}.",
        fecha(p.on),
        paz_y_salvo(p)
    )
}

pub(super) fn mark(m: Mark) -> &'static str {
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

fn format(f: DocFormat) -> &'static str {
    match f {
        DocFormat::Pdf => "PDF",
        DocFormat::Html => "HTML",
        DocFormat::Md => "Markdown",
    }
}

pub(super) fn said(v: &Verified) -> Said {
    let kind = v.kind.said();
    let kind = kind.es();
    let row = |check, mark, detail| Row {
        check,
        mark,
        detail,
    };
    let mut rows = Vec::new();
    let text = "Texto y cifras";
    rows.push(match &v.text {
        Text::Match => row(text, Mark::Holds, "coinciden con el registro".into()),
        Text::LineDiffers {
            line,
            expected,
            found,
        } => row(
            text,
            Mark::Fails,
            format!("la línea {line} debía decir «{expected}» y dice «{found}»"),
        ),
        Text::LineCount { expected, found } => row(
            text,
            Mark::Fails,
            format!("el documento debía tener {expected} líneas y tiene {found}"),
        ),
    });
    let file = "Archivo";
    rows.push(match &v.file {
        File::Issued {
            sha256,
            format: f,
            at,
        } => row(
            file,
            Mark::Holds,
            format!(
                "idéntico al archivo emitido ({}, {}; SHA-256 {sha256})",
                format(*f),
                momento(at)
            ),
        ),
        File::RenderedAgain {
            sha256,
            format: f,
            at,
            by,
        } => row(
            file,
            Mark::Holds,
            format!(
                "idéntico al archivo generado de nuevo el {} por {by} ({}; SHA-256 {sha256})",
                momento(at),
                format(*f)
            ),
        ),
        File::NoRecord { .. } => row(
            file,
            Mark::NoData,
            format!(
                "no hay un SHA-256 registrado de este {kind} (se emitió antes de que vigia \
                 registrara sus archivos)"
            ),
        ),
        File::Changed { sha256, written } => row(
            file,
            Mark::Fails,
            format!(
                "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 \
                 {sha256} no es {}",
                match written {
                    1 => "el del único archivo que vigia generó".to_string(),
                    n => format!(
                        "el de ninguno de los {} archivos que vigia generó",
                        numero(*n as u64)
                    ),
                }
            ),
        ),
        File::Different { sha256 } => row(
            file,
            Mark::Fails,
            format!("distinto de todos los archivos que vigia generó (SHA-256 {sha256})"),
        ),
    });
    let fp = &v.fingerprint;
    let huella = "Huella de la liquidación";
    rows.push(if fp.matches() {
        row(huella, Mark::Holds, format!("{} coincide", fp.stored))
    } else {
        row(
            huella,
            Mark::Fails,
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
        )
    });
    let figures = "Cifras recalculadas hoy";
    rows.push(match (&v.paid_since, v.same_figures) {
        (_, true) => row(
            figures,
            Mark::Holds,
            "el registro da las mismas cifras".into(),
        ),
        (Some(p), false) => row(
            figures,
            Mark::Fails,
            format!(
                "el registro da cifras distintas porque la multa se pagó en su totalidad después \
                 de este aviso (el {}): ya no hay nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo(p)
            ),
        ),
        (None, false) => row(
            figures,
            Mark::Fails,
            format!(
                "el registro da cifras distintas (se registró después un pago, un precio de etapa \
                 o una tasa); emita un nuevo {kind}"
            ),
        ),
    });
    if let (Some(p), true) = (&v.paid_since, v.same_figures) {
        rows.push(row(
            "Estado de la multa",
            Mark::Note,
            format!(
                "pagada en su totalidad el {}, después de la fecha de esta liquidación: ya no hay \
                 nada que cobrar; {}",
                fecha(p.on),
                paz_y_salvo(p)
            ),
        ));
    }
    for s in &v.voids {
        rows.push(row("Pago anulado", Mark::Fails, s.said().es().to_string()));
    }
    match &v.standing {
        Some(Standing::InForce) => rows.push(row(
            "Vigencia",
            Mark::Holds,
            "vigente: ningún aviso posterior lo reemplaza".into(),
        )),
        Some(Standing::Replaced { number, date }) => rows.push(row(
            "Vigencia",
            Mark::Fails,
            format!(
                "reemplazado por el aviso {number} del {}; este aviso ya no está vigente",
                fecha(*date)
            ),
        )),
        None => {}
    }
    Said {
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
