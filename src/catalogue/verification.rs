//! What the web shows after verifying a notice or a paz y salvo (`/avisos/verificar`): the
//! outcome, what a paid fine's holder is owed, the document named, and a row per check with how
//! it came out, worded by [`es_verification`](super::es_verification) and
//! [`en_verification`](super::en_verification) from the register's typed [`Verified`]. The web
//! only lays these out (`vigia notice verify` says the same facts as lines:
//! [`super::Catalogue::verified`]).

use crate::lang::Lang;
use crate::register::verify::{PaidSince, Unverifiable, Verified};

/// How a check of a verified document came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Holds,
    Fails,
    /// Nothing to compare.
    NoData,
    /// Not a check: something to know.
    Note,
}

/// One check, worded: what was checked, how it came out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub check: &'static str,
    pub mark: Mark,
    pub detail: String,
}

/// What a verification page says, worded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The document named: the words before its number, its number, the words after.
    pub document: (String, String, String),
    /// The headers of the table of checks.
    pub headers: [&'static str; 3],
    pub rows: Vec<Row>,
}

/// The outcome of a verification, in one sentence.
#[derive(Debug, Clone, Copy)]
pub enum Outcome {
    /// Every check passed.
    Matches,
    /// A check failed (the detail says which).
    DoesNotMatch,
    /// The document could not be read as one vigia wrote ([`reason`] says why).
    Unverifiable,
}

/// `o` in `lang`.
pub fn outcome(lang: Lang, o: Outcome) -> String {
    match lang {
        Lang::Es => super::es_verification::outcome(o),
        Lang::En => super::en_verification::outcome(o),
    }
}

/// Why a document could not be verified.
pub fn reason(lang: Lang, e: &Unverifiable) -> String {
    match lang {
        Lang::Es => super::es_verification::reason(e),
        Lang::En => super::en_verification::reason(e),
    }
}

/// A notice whose fine has been paid in full since: the sentence above the checks.
pub fn paid(lang: Lang, p: &PaidSince) -> String {
    match lang {
        Lang::Es => super::es_verification::paid(p),
        Lang::En => super::en_verification::paid(p),
    }
}

/// The document named and each of its checks, in `lang`.
pub fn said(lang: Lang, v: &Verified) -> Said {
    match lang {
        Lang::Es => super::es_verification::said(v),
        Lang::En => super::en_verification::said(v),
    }
}

/// How a row's mark reads.
pub fn mark(lang: Lang, m: Mark) -> &'static str {
    match lang {
        Lang::Es => super::es_verification::mark(m),
        Lang::En => super::en_verification::mark(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::verify::{File, Fingerprint, Kind, Standing, Text};

    fn day(s: &str) -> chrono::NaiveDate {
        s.parse().unwrap()
    }

    /// A notice changed after issue, paid in full since with no paz y salvo yet, and replaced.
    fn changed() -> Verified {
        Verified {
            kind: Kind::Notice,
            number: "MULTA-2025-0003".into(),
            program: "D3939-2004".into(),
            liquidation_id: 7,
            text: Text::Match,
            file: File::Changed {
                sha256: "ab12".into(),
                written: 2,
            },
            fingerprint: Fingerprint {
                stored: "f1".into(),
                recomputed: "f2".into(),
                printed: false,
            },
            same_figures: false,
            voids: Vec::new(),
            standing: Some(Standing::Replaced {
                number: "MULTA-2025-0009".into(),
                date: day("2025-03-04"),
            }),
            paid_since: Some(PaidSince {
                on: day("2025-03-01"),
                settlement: None,
            }),
        }
    }

    #[test]
    fn each_check_is_worded_in_spanish_with_its_mark() {
        let s = said(Lang::Es, &changed());
        assert_eq!(
            s.document,
            (
                "Documento: aviso de cobro ".to_string(),
                "MULTA-2025-0003".to_string(),
                " del programa D3939-2004, liquidación N.º 7.".to_string()
            )
        );
        let rows: Vec<(&str, Mark, &str)> = s
            .rows
            .iter()
            .map(|r| (r.check, r.mark, r.detail.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Texto y cifras", Mark::Holds, "coinciden con el registro"),
                (
                    "Archivo",
                    Mark::Fails,
                    "el texto y las cifras coinciden, pero el archivo fue modificado: su SHA-256 \
                     ab12 no es el de ninguno de los 2 archivos que vigia generó"
                ),
                (
                    "Huella de la liquidación",
                    Mark::Fails,
                    "registrada f1, recalculada f2; el documento no la muestra"
                ),
                (
                    "Cifras recalculadas hoy",
                    Mark::Fails,
                    "el registro da cifras distintas porque la multa se pagó en su totalidad \
                     después de este aviso (el 01/03/2025): ya no hay nada que cobrar; \
                     corresponde expedir su paz y salvo, no un nuevo aviso de cobro"
                ),
                (
                    "Vigencia",
                    Mark::Fails,
                    "reemplazado por el aviso MULTA-2025-0009 del 04/03/2025; este aviso ya no \
                     está vigente"
                ),
            ]
        );
        assert_eq!(mark(Lang::Es, Mark::Fails), "✗ no coincide");
        assert_eq!(
            outcome(Lang::Es, Outcome::DoesNotMatch),
            "El documento NO coincide con el registro (vea el detalle)."
        );
        assert_eq!(
            paid(Lang::Es, changed().paid_since.as_ref().unwrap()),
            "La multa de este aviso ya está pagada en su totalidad (01/03/2025): corresponde \
             expedir su paz y salvo, no un nuevo aviso de cobro."
        );
        assert_eq!(
            reason(Lang::Es, &Unverifiable::NoNumber),
            format!("Motivo: {}.", Unverifiable::NoNumber.said().es())
        );
    }

    #[test]
    fn english_says_the_same_checks() {
        let (es, en) = (said(Lang::Es, &changed()), said(Lang::En, &changed()));
        let marks = |s: &Said| s.rows.iter().map(|r| r.mark).collect::<Vec<_>>();
        assert_eq!(marks(&es), marks(&en));
        assert_eq!(en.rows[1].check, "File");
        assert_eq!(
            en.rows[4].detail,
            "replaced by notice MULTA-2025-0009 of 2025-03-04; this notice is no longer in force"
        );
        assert_eq!(en.document.1, "MULTA-2025-0003");
    }
}
