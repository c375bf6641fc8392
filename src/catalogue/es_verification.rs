//! The web's verification of a notice or a paz y salvo, in Spanish ([`super::verification`]).

use super::verification::{Found, Mark, Said, Unverified, format, place};
use crate::lang::{Lang, fecha, momento, numero};
use crate::register::verify::{
    File, Kind, Lapse, Outcome, PaidSince, Standing, Text, Unverifiable, Verified,
};

pub(super) fn unverifiable(e: &Unverifiable) -> Unverified {
    Unverified {
        outcome: "No se pudo verificar el documento.".into(),
        reason: format!("Motivo: {}.", e.said().es()),
        acta_link: match e {
            Unverifiable::Acta {
                stage,
                program: Some(_),
            } => Some(format!(
                "Verificar el acta en la página de {} del programa",
                match stage {
                    1 => "la oferta",
                    2 => "la Segunda Etapa",
                    _ => "la Tercera Etapa",
                }
            )),
            _ => None,
        },
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
        Mark::Note => "• a tener en cuenta",
        Mark::Lapsed => "• ya no vigente",
    }
}

/// When a notice's fine was paid in full, against the notice's date and the day it prices the
/// fine to: «se pagó en su totalidad el 10/02/2025, el mismo día del aviso».
pub(super) fn pagada(p: &PaidSince) -> String {
    let on = fecha(p.on);
    let aviso = fecha(p.notice_date);
    let cuando = if p.on == p.notice_date {
        "el mismo día del aviso".to_string()
    } else if p.on > p.notice_date {
        format!("después de la fecha del aviso ({aviso})")
    } else if p.on == p.until {
        format!("el día al que el aviso liquida la multa (el aviso es del {aviso})")
    } else {
        format!("antes de la fecha del aviso ({aviso})")
    };
    format!("se pagó en su totalidad el {on}, {cuando}")
}

/// A paz y salvo whose figures the register no longer gives: why (no payment or void is
/// recorded after one) and what it calls for (vigia issues one per fine, not a new one).
pub(super) const PAZ_OTRAS_CIFRAS: &str = "(se registró después un precio de etapa o una tasa): \
     revise la liquidación de la multa; un paz y salvo no se expide dos veces";

/// What a verification comes to, in one sentence (the web's headline, the command line's last
/// line): in force; authentic but no longer in force, why and since when; or not the
/// register's.
pub(super) fn verdict(kind: Kind, o: &Outcome) -> String {
    match o {
        Outcome::InForce => {
            "El documento coincide con el registro: texto, cifras y huella; está vigente.".into()
        }
        Outcome::Lapsed(why) => {
            let why: Vec<String> = why.iter().map(|l| lapse(l, kind)).collect();
            format!(
                "El documento es auténtico (texto, cifras y huella tal como vigia lo emitió), pero \
                 ya no está vigente: {}.",
                why.join("; ")
            )
        }
        Outcome::Mismatch => "El documento NO coincide con el registro (vea el detalle).".into(),
        Outcome::BadSignature => "La firma digital del documento no es válida (vea «Firma \
             digital»): no debe tenerse por auténtico, diga lo que diga el registro."
            .into(),
    }
}

/// Why an authentic document is no longer in force, in Spanish.
fn lapse(l: &Lapse, kind: Kind) -> String {
    match l {
        Lapse::Paid(p) => format!("la multa {}; {}", pagada(p), paz_y_salvo(p)),
        Lapse::Replaced { number, date } => {
            format!("lo reemplazó el aviso {number} del {}", fecha(*date))
        }
        Lapse::Voided(s) => s.said().es().to_string(),
        Lapse::OtherFigures if kind == Kind::Settlement => {
            format!("el registro da hoy otras cifras {PAZ_OTRAS_CIFRAS}")
        }
        Lapse::OtherFigures => "el registro da hoy otras cifras (se registró después un pago, un \
                                precio de etapa o una tasa); corresponde emitir un nuevo aviso de \
                                cobro"
            .into(),
    }
}

/// What a paid fine's holder is owed: its paz y salvo, issued or to issue.
fn paz_y_salvo(p: &PaidSince) -> String {
    match &p.settlement {
        Some((number, date)) => format!("su paz y salvo es el {number} del {}", fecha(*date)),
        None => "corresponde expedir su paz y salvo, no un nuevo aviso de cobro".into(),
    }
}

/// What `f` checked and found, in Spanish (`k`: the document's kind).
fn words(f: &Found<'_>, k: Kind) -> (&'static str, String) {
    let kind = k.said();
    let kind = kind.es();
    match f {
        Found::Text(Text::Match) => ("Texto y cifras", "coinciden con el registro".into()),
        Found::Text(Text::LineDiffers {
            at,
            expected,
            found,
        }) => (
            "Texto y cifras",
            format!(
                "en {} debía decir «{expected}» y dice «{found}»",
                place(Lang::Es, at)
            ),
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
                "el registro da cifras distintas porque la multa {}: ya no hay nada que cobrar; {}",
                pagada(p),
                paz_y_salvo(p)
            ),
        ),
        Found::OtherFigures(None) if k == Kind::Settlement => (
            "Cifras recalculadas hoy",
            format!("el registro da cifras distintas {PAZ_OTRAS_CIFRAS}"),
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
            "Aviso posterior",
            "ningún aviso posterior lo reemplaza".into(),
        ),
        Found::Standing(Standing::Replaced { number, date }) => (
            "Aviso posterior",
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

/// The web's verification of `v`, whose outcome (with its signature's) is `o`.
pub(super) fn verification(v: &Verified, o: &Outcome) -> Said {
    let kind = v.kind.said();
    let kind = kind.es();
    let rows = super::verification::rows(v, |f| words(f, v.kind), mark);
    Said {
        outcome: verdict(v.kind, o),
        paid: match o {
            Outcome::Lapsed(_) => None,
            _ => v.paid_since.as_ref().map(paid),
        },
        document: (
            format!("Documento: {kind} "),
            v.number.clone(),
            format!(
                " del programa {}, liquidación N.º {}.",
                v.program, v.liquidation_id
            ),
        ),
        headers: ["Comprobación", "Resultado", "Detalle"],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::verification::{changed, lapsed};

    fn day(s: &str) -> chrono::NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn each_check_is_worded_in_spanish_with_its_mark() {
        let v = changed();
        let s = verification(&v, &v.outcome());
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
        let lapsed = (Mark::Lapsed, "• ya no vigente");
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
                    lapsed.0,
                    lapsed.1,
                    "el registro da cifras distintas porque la multa se pagó en su totalidad el \
                     01/03/2025, después de la fecha del aviso (20/02/2025): ya no hay nada que \
                     cobrar; corresponde expedir su paz y salvo, no un nuevo aviso de cobro"
                ),
                (
                    "Aviso posterior",
                    lapsed.0,
                    lapsed.1,
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
                acta_link: None,
            }
        );
        // an acta of a program: the link to the page that verifies it
        let acta = unverifiable(&Unverifiable::Acta {
            stage: 3,
            program: Some("D3939-2004".into()),
        });
        assert_eq!(
            acta.acta_link.as_deref(),
            Some("Verificar el acta en la página de la Tercera Etapa del programa")
        );
    }

    #[test]
    fn a_genuine_document_no_longer_in_force_says_why_and_since_when() {
        // the same notice, as vigia issued it: paid in full on 01/03, replaced on 04/03
        let v = lapsed();
        let o = v.outcome();
        let s = verification(&v, &o);
        assert_eq!(
            s.outcome,
            "El documento es auténtico (texto, cifras y huella tal como vigia lo emitió), pero ya \
             no está vigente: la multa se pagó en su totalidad el 01/03/2025, después de la fecha \
             del aviso (20/02/2025); corresponde expedir su paz y salvo, no un nuevo aviso de \
             cobro; lo reemplazó el aviso MULTA-2025-0009 del 04/03/2025."
        );
        // said once, in the outcome
        assert_eq!(s.paid, None);
        assert_eq!(
            verdict(Kind::Notice, &Outcome::InForce),
            "El documento coincide con el registro: texto, cifras y huella; está vigente."
        );
        assert_eq!(
            verdict(
                Kind::Settlement,
                &Outcome::Lapsed(vec![Lapse::OtherFigures])
            ),
            "El documento es auténtico (texto, cifras y huella tal como vigia lo emitió), pero ya \
             no está vigente: el registro da hoy otras cifras (se registró después un precio de \
             etapa o una tasa): revise la liquidación de la multa; un paz y salvo no se expide dos \
             veces."
        );
        // a notice: a new one is due
        assert_eq!(
            verdict(Kind::Notice, &Outcome::Lapsed(vec![Lapse::OtherFigures])),
            "El documento es auténtico (texto, cifras y huella tal como vigia lo emitió), pero ya \
             no está vigente: el registro da hoy otras cifras (se registró después un pago, un \
             precio de etapa o una tasa); corresponde emitir un nuevo aviso de cobro."
        );
        // a paz y salvo's check says the same: not "issue a new one" (one per fine)
        let mut paz = changed();
        (paz.kind, paz.paid_since, paz.standing) = (Kind::Settlement, None, None);
        let row = verification(&paz, &paz.outcome())
            .rows
            .into_iter()
            .find(|r| r.check == "Cifras recalculadas hoy")
            .unwrap();
        assert_eq!(
            row.detail,
            "el registro da cifras distintas (se registró después un precio de etapa o una tasa): \
             revise la liquidación de la multa; un paz y salvo no se expide dos veces"
        );
        // a bad signature outweighs whatever the register says
        assert!(
            verdict(Kind::Notice, &Outcome::BadSignature)
                .starts_with("La firma digital del documento no es válida")
        );
    }

    #[test]
    fn the_day_paid_is_said_against_the_notices_dates() {
        let paid = |on: &str| {
            pagada(&PaidSince {
                on: day(on),
                settlement: None,
                notice_date: day("2025-02-11"),
                until: day("2025-02-10"),
            })
        };
        assert_eq!(
            paid("2025-02-11"),
            "se pagó en su totalidad el 11/02/2025, el mismo día del aviso"
        );
        assert_eq!(
            paid("2025-02-12"),
            "se pagó en su totalidad el 12/02/2025, después de la fecha del aviso (11/02/2025)"
        );
        assert_eq!(
            paid("2025-02-10"),
            "se pagó en su totalidad el 10/02/2025, el día al que el aviso liquida la multa (el \
             aviso es del 11/02/2025)"
        );
        assert_eq!(
            paid("2025-02-09"),
            "se pagó en su totalidad el 09/02/2025, antes de la fecha del aviso (11/02/2025)"
        );
    }
}
