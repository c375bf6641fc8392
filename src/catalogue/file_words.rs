//! A verified document's file against the files vigia wrote of it (`register::verify::File`),
//! in each language: the lines `notice verify` shares with `offer verify` and `stage verify`
//! (a file identical to one vigia wrote), and an acta's own (its bytes changed, no record).

use crate::lang::{Lang, momento};
use crate::register::verify::File;

/// «archivo: idéntico al emitido (…)» of a file identical to one vigia wrote; `None` for any
/// other finding.
pub fn identical(lang: Lang, file: &File) -> Option<String> {
    Some(match (lang, file) {
        (Lang::Es, File::Issued { sha256, format, at }) => format!(
            "archivo: idéntico al emitido (SHA-256 {sha256}, {} del {})",
            format.as_str(),
            momento(at)
        ),
        (
            Lang::Es,
            File::RenderedAgain {
                sha256,
                format,
                at,
                by,
            },
        ) => format!(
            "archivo: idéntico al escrito de nuevo el {} por {by} ({}, SHA-256 {sha256})",
            momento(at),
            format.as_str()
        ),
        (Lang::En, File::Issued { sha256, format, at }) => format!(
            "file: identical to the issued file (SHA-256 {sha256}, {} of {at})",
            format.as_str()
        ),
        (
            Lang::En,
            File::RenderedAgain {
                sha256,
                format,
                at,
                by,
            },
        ) => format!(
            "file: identical to the file rendered again on {at} by {by} ({}, SHA-256 {sha256})",
            format.as_str()
        ),
        _ => return None,
    })
}

/// The first line `offer verify` and `stage verify` say of an acta whose text matched but whose
/// file is none vigia wrote, before the text's details (so that it never begins «verificada»);
/// `None` for a file vigia wrote, or one written before vigia recorded acta files.
pub fn acta_headline(lang: Lang, file: &File) -> Option<String> {
    if file.ok() {
        return None;
    }
    Some(
        match lang {
            Lang::Es => {
                "NO VERIFICADA: el texto coincide con el registro, pero el archivo no es el emitido"
            }
            Lang::En => {
                "NOT VERIFIED: the text matches the register, but the file is not the one issued"
            }
        }
        .to_string(),
    )
}

/// What `offer verify`, `stage verify` and the web's acta verification say of an acta's file
/// after its text's details: identical to a file vigia wrote, none of them (its text matched,
/// so its bytes changed), or written before vigia recorded acta files.
pub fn acta(lang: Lang, file: &File) -> String {
    if let Some(line) = identical(lang, file) {
        return line;
    }
    match (lang, file) {
        (Lang::Es, File::NoRecord { sha256 }) => format!(
            "archivo: vigia no registró este archivo del acta (el acta es anterior a que vigia \
             registrara los archivos de las actas; SHA-256 {sha256})"
        ),
        (Lang::Es, File::Changed { sha256, .. } | File::Different { sha256 }) => format!(
            "el archivo no es ninguno de los que vigia escribió: el texto coincide, pero sus \
             bytes cambiaron (SHA-256 {sha256})"
        ),
        (Lang::En, File::NoRecord { sha256 }) => format!(
            "file: vigia did not record this file of the acta (the acta predates vigia's \
             records of actas' files; SHA-256 {sha256})"
        ),
        (_, File::Changed { sha256, .. } | File::Different { sha256 }) => format!(
            "the file is none of those vigia wrote: the text matches, but its bytes changed \
             (SHA-256 {sha256})"
        ),
        // said by `identical`
        (_, File::Issued { sha256, .. } | File::RenderedAgain { sha256, .. }) => sha256.clone(),
    }
}
