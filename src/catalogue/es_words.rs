//! The Spanish of the other typed facts the command line words: the codes a table shows in
//! words, the store's and the fine scale's errors, `notice verify`'s report.

use crate::lang::{fecha, momento, numero};

/// The stable codes a Spanish table shows in words (the machine formats keep the codes; a code
/// typed back into the command line is taken in either language where it takes Spanish).
pub fn code(column: &str, value: &str) -> Option<&'static str> {
    use crate::fine::accrual::Convention;
    use crate::program::BreachKind;
    match column {
        // the Spanish name the command line also takes (`venta`, `dacion-en-pago`)
        "kind" => {
            return BreachKind::ALL
                .into_iter()
                .find(|k| k.as_str() == value)
                .map(BreachKind::spanish);
        }
        // as documents print it (`interés simple diario`)
        "convention" => {
            return Convention::ALL
                .into_iter()
                .find(|c| c.as_str() == value)
                .map(Convention::name_es);
        }
        _ => {}
    }
    Some(match (column, value) {
        // a reference price of Art. 9 (`reference_prices` lists them)
        ("basis", "acquisition") => "adquisición (i)",
        ("basis", "transfer") => "transferencia (ii)",
        ("basis", "stage") => "etapa posterior (iii)",
        ("severity" | "min_severity", "high") => "alta",
        ("severity" | "min_severity", "medium") => "media",
        ("severity" | "min_severity", "low") => "baja",
        ("status", "locked") => "en restricción",
        ("status", "free") => "libre",
        ("status", "awarded") => "adjudicada",
        ("status", "rejected") => "rechazada",
        ("status", "winner") => "ganadora",
        ("status", "tied") => "empatada",
        ("status", "valid") => "válida",
        ("via", "correo-certificado") => "correo certificado",
        ("via", "correo-electronico") => "correo electrónico",
        ("via", "personal") => "entrega personal",
        // the manual page's sections (clap_mangen's, and the help's own «Comandos»)
        ("man", "NAME") => "NOMBRE",
        ("man", "SYNOPSIS") => "SINOPSIS",
        ("man", "DESCRIPTION") => "DESCRIPCIÓN",
        ("man", "OPTIONS" | "OPCIONES") => "OPCIONES",
        ("man", "SUBCOMMANDS" | "Comandos") => "COMANDOS",
        ("man", "EXTRA") => "NOTAS",
        ("man", "VERSION") => "VERSIÓN",
        ("man", "AUTHORS") => "AUTORES",
        _ => return None,
    })
}

/// What the operating system said when a file or a stream failed, in Spanish (the English is
/// the system's own text). The kind decides the words; a kind without them keeps the system's
/// error number, so the officer can still look it up.
pub fn io_error(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let words = match e.kind() {
        K::NotFound => "no existe el archivo o la carpeta",
        K::PermissionDenied => "permiso denegado",
        K::AlreadyExists => "ya existe",
        K::IsADirectory => "es una carpeta, no un archivo",
        K::NotADirectory => "una parte de la ruta no es una carpeta",
        K::DirectoryNotEmpty => "la carpeta no está vacía",
        K::ReadOnlyFilesystem => "el sistema de archivos es de solo lectura",
        K::StorageFull => "no queda espacio en el disco",
        K::QuotaExceeded => "se superó la cuota de disco",
        K::FileTooLarge => "el archivo es demasiado grande",
        K::InvalidFilename => "el nombre del archivo no es válido",
        K::CrossesDevices => "la ruta cruza a otro disco",
        K::TooManyLinks => "demasiados enlaces",
        K::UnexpectedEof => "el archivo terminó antes de lo esperado",
        K::InvalidData => "datos no válidos",
        K::BrokenPipe => "la salida se cerró",
        K::TimedOut => "se agotó el tiempo de espera",
        K::ConnectionRefused => "conexión rechazada",
        K::ConnectionReset => "la conexión se interrumpió",
        K::Interrupted => "la operación se interrumpió",
        K::OutOfMemory => "no hay memoria suficiente",
        K::ResourceBusy => "el recurso está ocupado",
        K::WouldBlock => "el recurso no está disponible por ahora",
        _ => {
            return match e.raw_os_error() {
                Some(n) => format!("error del sistema operativo N.º {n}"),
                None => format!("error de entrada o salida ({e})"),
            };
        }
    };
    match e.raw_os_error() {
        Some(n) => format!("{words}, error del sistema N.º {n}"),
        None => words.to_string(),
    }
}

/// What the register could not do, in Spanish (the English is the store's own `Display`).
pub fn store_error(e: &crate::store::StoreError) -> String {
    use crate::store::StoreError as E;
    match e {
        E::Sqlite(e) => format!("error de la base de datos: {e}"),
        E::TooNew { found, known } => format!(
            "la base de datos tiene la versión de esquema {found}, pero este vigia solo conoce \
             hasta la {known}; use un vigia más reciente"
        ),
        E::VersionLowered {
            found,
            table,
            created_by,
            holds,
        } => format!(
            "la versión del esquema del registro se cambió a mano: dice {found}, pero el registro \
             ya tiene la tabla {table}, que crea la migración {created_by}; no se migró ni se escribió \
             nada. Restaure el registro de su copia de seguridad más reciente, o devuelva la \
             versión (PRAGMA user_version = {holds}) y verifique la traza de auditoría"
        ),
        E::Corrupt(m) => format!(
            "un dato guardado no se puede leer: {m}; verifique la traza de auditoría del registro"
        ),
        E::NotFound { what, id } => {
            let noun = match *what {
                "acceptance" => "aceptación",
                "adjudication run" => "adjudicación de la primera etapa",
                "adjudication" => "adjudicación",
                "breach" => "incumplimiento",
                "letterhead" => "membrete",
                "liquidation" => "liquidación",
                "notice" => "aviso",
                "payment" => "pago",
                "pledge" => "prenda",
                "program" => "programa",
                "user" => "usuario",
                other => other,
            };
            let id = if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
                format!("N.º {id}")
            } else {
                id.clone()
            };
            format!("no hay {noun} {id} en el registro")
        }
        E::Rejected(problems) => {
            let mut m = format!(
                "{} problema(s), no se escribió nada:",
                numero(problems.len() as u64)
            );
            for p in problems {
                m.push_str("\n  ");
                m.push_str(&p.in_lang(crate::lang::Lang::Es));
            }
            m
        }
        E::NotARegister(why) => format!(
            "no es un registro de vigia: {why}; no se modificó (un registro solo se crea donde aún \
             no hay ningún archivo)"
        ),
        E::Busy {
            holder: Some(h),
            waited,
        } => format!(
            "el registro está ocupado: {} de {} (proceso {}), escribiendo desde el {}, y aún tenía \
             su bloqueo de escritura después de {} s; no se escribió nada: ejecute el comando de \
             nuevo cuando aquel termine",
            h.who.as_deref().unwrap_or("un comando de vigia"),
            h.actor,
            h.process,
            crate::lang::momento(&h.since),
            waited.as_secs_f64().to_string().replace('.', ",")
        ),
        E::Busy {
            holder: None,
            waited,
        } => format!(
            "el registro está ocupado: otro programa (ningún comando de vigia dejó su nombre: quizá \
             la consola sqlite3 o una copia del archivo) aún tenía su bloqueo de escritura después \
             de {} s; no se escribió nada: inténtelo de nuevo cuando termine",
            waited.as_secs_f64()
        ),
    }
}

/// Why a fine's brackets or lock-up are refused, in Spanish.
pub fn scale_error(e: &crate::calendar::ScaleError) -> String {
    use crate::calendar::{MAX_LOCKUP_MONTHS as MAX, ScaleError as E};
    match e {
        E::Empty => "la lista de tramos está vacía; escriba pares MESES:PORCENTAJE como \
                     6:100,12:75,18:50,24:25"
            .to_string(),
        E::Malformed(item) => {
            format!("el tramo «{item}» no es MESES:PORCENTAJE (p. ej. 6:100)")
        }
        E::NotIncreasing { previous, next } => {
            format!("los meses de los tramos deben crecer, pero {next} sigue a {previous}")
        }
        E::TooLong { months } => format!(
            "un tramo de {months} meses excede el límite de {MAX} meses de la Ley 226 de 1995, art. 14"
        ),
        E::BadPercent { percent } => {
            format!("el porcentaje {percent} de un tramo debe ser mayor que 0 y a lo sumo 100")
        }
        E::LockupTooLong { months } => format!(
            "un período de restricción de {months} meses excede el límite de {MAX} meses de la \
             Ley 226 de 1995, art. 14"
        ),
        E::LockupZero => "el período de restricción debe durar al menos un mes".to_string(),
        E::EndMismatch { last, lockup } => format!(
            "el último tramo termina a los {last} meses, pero el período de restricción dura \
             {lockup}; el último tramo debe terminar donde termina el período de restricción"
        ),
    }
}

/// `notice verify`'s report, in Spanish.
pub fn verified(v: &crate::register::verify::Verified, file: &str) -> Vec<String> {
    use crate::register::verify::{File, Standing, Text};
    let kind = v.kind.said();
    let kind = kind.es();
    let mut out = vec![format!(
        "{file}: {kind} {} del programa {}, liquidación N.º {}",
        v.number, v.program, v.liquidation_id
    )];
    match &v.text {
        Text::Match => out.push("  texto y cifras del documento: coinciden con el registro".into()),
        Text::LineCount { expected, found } => out.push(format!(
            "  texto y cifras del documento: NO COINCIDEN (se esperaban {expected} líneas, hay {found})"
        )),
        Text::LineDiffers {
            line,
            expected,
            found,
        } => {
            out.push(format!(
                "  texto y cifras del documento: NO COINCIDEN en la línea {line}"
            ));
            out.push(format!("    se esperaba: {expected}"));
            out.push(format!("    dice:        {found}"));
        }
    }
    out.push(match &v.file {
        File::Issued { sha256, format, at } => format!(
            "  archivo: idéntico al emitido (SHA-256 {sha256}, {} del {})",
            format.as_str(),
            momento(at)
        ),
        File::RenderedAgain {
            sha256,
            format,
            at,
            by,
        } => format!(
            "  archivo: idéntico al escrito de nuevo el {} por {by} ({}, SHA-256 {sha256})",
            momento(at),
            format.as_str()
        ),
        File::NoRecord { .. } => format!(
            "  archivo: no hay SHA-256 registrado para este {kind} (emitido antes de que vigia \
             registrara sus archivos)"
        ),
        File::Changed { sha256, written } => format!(
            "  archivo: el texto y las cifras coinciden, pero el archivo se modificó: su SHA-256 \
             {sha256} no es el de ninguno de los {written} archivo(s) que vigia escribió de él"
        ),
        File::Different { sha256 } => {
            format!("  archivo: DISTINTO de todos los que vigia escribió de él (SHA-256 {sha256})")
        }
    });
    let fp = &v.fingerprint;
    out.push(if fp.matches() {
        format!("  huella {}: coincide", fp.stored)
    } else {
        format!(
            "  huella: NO COINCIDE (guardada {}, recalculada {}, impresa en el documento: {})",
            fp.stored,
            fp.recomputed,
            if fp.printed { "sí" } else { "no" }
        )
    });
    out.push(if v.same_figures {
        "  recalculado hoy con el registro: las mismas cifras".into()
    } else if let Some(p) = &v.paid_since {
        let paz = match &p.settlement {
            Some((number, date)) => format!("su paz y salvo es el {number} del {}", fecha(*date)),
            None => "emita su paz y salvo (vigia settlement issue), no un aviso nuevo".into(),
        };
        format!(
            "  recalculado hoy con el registro: OTRAS cifras: la multa quedó pagada por completo el \
             {}; no queda nada por cobrar: {paz}",
            fecha(p.on)
        )
    } else {
        format!(
            "  recalculado hoy con el registro: OTRAS cifras (se registró después un pago, un precio \
             de etapa o una tasa); emita un {kind} nuevo"
        )
    });
    for s in &v.voids {
        out.push(format!("  {}", s.said().es()));
    }
    match &v.standing {
        Some(Standing::Replaced { number, date }) => out.push(format!(
            "  reemplazado: por el aviso {number} del {}; este aviso ya no está vigente",
            fecha(*date)
        )),
        Some(Standing::InForce) => {
            out.push("  vigente: ningún aviso posterior lo reemplaza".into())
        }
        None => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::store::{StoreError, Writer};

    #[test]
    fn the_systems_errors_are_said_by_their_kind() {
        use std::io;
        let missing = io::Error::from_raw_os_error(2); // ENOENT on Linux
        assert_eq!(
            super::io_error(&missing),
            "no existe el archivo o la carpeta, error del sistema N.º 2"
        );
        let denied = io::Error::new(io::ErrorKind::PermissionDenied, "Permission denied");
        assert_eq!(super::io_error(&denied), "permiso denegado");
        // a kind without words keeps the system's number
        let odd = io::Error::from_raw_os_error(71); // EPROTO
        assert_eq!(super::io_error(&odd), "error del sistema operativo N.º 71");
    }

    /// The note of the writer holding the lock, worded in Spanish: its own name as it gave it,
    /// the officer, the process, and since when in Colombian time (UTC−5).
    #[test]
    fn a_busy_register_names_its_writer_in_spanish() {
        let e = StoreError::Busy {
            holder: Some(Writer {
                who: Some("`vigia adjudications import`".into()),
                actor: "ana".into(),
                process: 4242,
                since: "2026-12-03T15:04:05Z".into(),
            }),
            waited: std::time::Duration::from_millis(200),
        };
        assert_eq!(
            super::store_error(&e),
            "el registro está ocupado: `vigia adjudications import` de ana (proceso 4242), \
             escribiendo desde el 03/12/2026 10:04 (hora de Colombia), y aún tenía su bloqueo de \
             escritura después de 0,2 s; no se escribió nada: ejecute el comando de nuevo cuando \
             aquel termine"
        );
        // a writer that gave no name
        let e = StoreError::Busy {
            holder: Some(Writer {
                who: None,
                actor: "luis".into(),
                process: 7,
                since: "2026-12-03T15:04:05Z".into(),
            }),
            waited: std::time::Duration::from_secs(30),
        };
        assert!(
            super::store_error(&e)
                .starts_with("el registro está ocupado: un comando de vigia de luis"),
            "{}",
            super::store_error(&e)
        );
    }
}
