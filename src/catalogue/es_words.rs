//! The Spanish of the other typed facts the command line words: the codes a table shows in
//! words, the store's and the fine scale's errors, `notice verify`'s report.

use crate::lang::{cuenta, fecha, numero};

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
        // a program's Art. 9 (iii) price (`program show`)
        ("stage_price", "pending") => "pendiente",
        ("stage_price", "none (no later stage)") => "ninguno (no hay etapa posterior)",
        ("stage_price_status", "known") => "definitivo",
        ("stage_price_status", "so_far") => {
            "el mayor hasta ahora: una etapa posterior está pendiente (las liquidaciones son \
             provisionales)"
        }
        ("stage_price_status", "pending") => "pendiente (las liquidaciones son provisionales)",
        ("stage_price_status", "none") => "no hay etapa posterior",
        // Decreto 3939's Art. 3 categories (a program's slugs; another program's are shown as
        // written)
        ("category", "asociacion-empleados") => "asociación de empleados",
        ("category", "federacion-sindicatos") => "federación de sindicatos",
        ("category", "fondo-empleados") => "fondo de empleados",
        ("category", "fondo-mutuo-inversion") => "fondo mutuo de inversión",
        ("category", "fondo-cesantias-pensiones") => "fondo de cesantías y pensiones",
        ("category", "caja-compensacion") => "caja de compensación familiar",
        ("severity" | "min_severity", "high") => "alta",
        ("severity" | "min_severity", "medium") => "media",
        ("severity" | "min_severity", "low") => "baja",
        ("status", "locked") => "en restricción",
        ("status", "free") => "libre",
        ("status", "pending") => "pendiente",
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
                "{}, no se escribió nada:",
                cuenta(problems.len() as u64, "problema", "problemas")
            );
            for p in problems {
                m.push_str("\n  ");
                m.push_str(&p.in_lang(crate::lang::Lang::Es));
            }
            m
        }
        E::NotARegister(why) => format!("no es un registro de vigia: {}; no se modificó", why.es()),
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
            at,
            expected,
            found,
        } => {
            out.push(format!(
                "  texto y cifras del documento: NO COINCIDEN en {}",
                super::verification::place(crate::lang::Lang::Es, at)
            ));
            out.push(format!("    se esperaba: {expected}"));
            out.push(format!("    dice:        {found}"));
        }
    }
    out.push(match &v.file {
        f @ (File::Issued { .. } | File::RenderedAgain { .. }) => {
            let line = super::file_words::identical(crate::lang::Lang::Es, f);
            format!("  {}", line.unwrap_or_default())
        }
        File::NoRecord { .. } => format!(
            "  archivo: no hay SHA-256 registrado para este {kind} (emitido antes de que vigia \
             registrara sus archivos)"
        ),
        File::Changed { sha256, written } => format!(
            "  archivo: el texto y las cifras coinciden, pero el archivo se modificó: su SHA-256 \
             {sha256} no es {}",
            match written {
                1 => "el del único archivo que vigia escribió de él".to_string(),
                n => format!(
                    "el de ninguno de los {} archivos que vigia escribió de él",
                    numero(*n as u64)
                ),
            }
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
            "  recalculado hoy con el registro: OTRAS cifras: la multa {}; no queda nada por \
             cobrar: {paz}",
            super::es_verification::pagada(p)
        )
    } else if v.kind == crate::register::verify::Kind::Settlement {
        format!(
            "  recalculado hoy con el registro: OTRAS cifras {}",
            super::es_verification::PAZ_OTRAS_CIFRAS
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
            out.push("  sin reemplazo: ningún aviso posterior lo reemplaza".into())
        }
        None => {}
    }
    out
}

/// A demo step's title.
pub(super) fn step_title(s: super::msg::Step) -> &'static str {
    use super::msg::Step;
    match s {
        Step::OfferTooShort => {
            "Primera etapa: una oferta de menos de dos meses se rechaza (art. 4)"
        }
        Step::OfferOpen => {
            "Abrir la oferta pública: aviso el 02/01/2024, aceptaciones hasta el 08/03/2024"
        }
        Step::AcceptancesImport => {
            "Importar las aceptaciones (aceptantes ficticios; encabezados en español, fechas y números es-CO, los numerales del decreto)"
        }
        Step::AcceptancesAgain => "Importar de nuevo el mismo archivo: no se agrega nada",
        Step::Adjudicate => {
            "Adjudicar el 15/03/2024 (art. 12): topes, rechazos, adjudicaciones y el acta"
        }
        Step::AdjudicateTwice => "La adjudicación tiene lugar una vez: una segunda se rechaza",
        Step::VerifyActa => "Cualquiera puede cotejar el acta con el registro",
        Step::StageOpen => {
            "Segunda Etapa: abrir un tramo de las 12.886.682 acciones que dejó la primera etapa (art. 13)"
        }
        Step::ProposalsImport => "Importar las propuestas (oferentes ficticios; Todo o Nada)",
        Step::Evaluate => {
            "Evaluar: valor presente a la tasa IBC vigente al cierre; un empate en el mejor valor"
        }
        Step::TieFirst => "Un empate debe decidirse antes de adjudicar",
        Step::ImproveLower => {
            "Invitada a mejorar, la P-12 ofrece menos que su original: se registra y no se tiene en cuenta"
        }
        Step::Draw => {
            "El empate persiste: lo decide un sorteo que cualquiera puede comprobar con sha256sum"
        }
        Step::DrawVerify => "El sorteo recalculado a partir del registro",
        Step::StageAdjudicate => {
            "Adjudicar el 28/06/2024: su precio es la referencia del art. 9 (iii), con el acta"
        }
        Step::ProgramAdd => "Registrar el programa del Decreto 3939 de 2004",
        Step::HoldersUpdated => {
            "Una lista de titulares actualizada (los mismos cinco y uno nuevo): solo se agrega el nuevo"
        }
        Step::PledgeFirst => {
            "Pignorar la adjudicación N.º 1 a favor de los vendedores, en primer grado"
        }
        Step::PledgeSecond => "La adjudicación N.º 2 se financió: prenda de segundo grado",
        Step::Stage => "{stage}",
        Step::BreachSale => {
            "La titular N.º 1 vendió sus 1.000 acciones a $ 1.450 cada una el 20/11/2024"
        }
        Step::BreachAfterLockup => {
            "Un incumplimiento después del período de restricción se rechaza"
        }
        Step::Letterhead => {
            "El membrete es un dato del registro (quién firma, dónde pagar y responder): sin él no hay aviso"
        }
        Step::NoticeIssue => {
            "Emitir el aviso de la multa (PDF, numerado, plazo en días hábiles); fechado en el pasado de la historia, por eso con su motivo"
        }
        Step::NoticeHtml => {
            "El mismo aviso en HTML, para enviarlo por correo electrónico: escrito de nuevo, el mismo número, ninguno nuevo"
        }
        Step::NoticeVerify => {
            "Cualquiera puede cotejar el documento con el registro, hasta sus bytes"
        }
        Step::NoAddress => {
            "Sin dirección postal registrada: una entrega por correo certificado se rechaza"
        }
        Step::HolderAddress => {
            "La dirección de la titular, como una versión nueva y auditada de sus datos de contacto"
        }
        Step::Delivered => {
            "Entregado por correo certificado el 03/12/2024: el plazo de pago corre desde ese día"
        }
        Step::PartialPayment => "Un pago parcial de $ 500.000 el 15/12/2024",
        Step::PaymentTwice => "El mismo pago registrado dos veces se rechaza",
        Step::PaymentMistake => "Un pago registrado por error (es de otro titular)",
        Step::PaymentVoid => "Anularlo: queda en el registro y ninguna cifra lo cuenta",
        Step::Check => {
            "El chequeo periódico al 10/01/2025: el aviso está vencido, la prenda es exigible, a cuatro titulares les falta la prenda"
        }
        Step::PledgeHeld => "La prenda no puede liberarse mientras la multa esté pendiente",
        Step::Liquidate => "Liquidar la multa al 10/02/2025 (guardada, numerada)",
        Step::NoticeBalance => {
            "Un aviso nuevo por el saldo reemplaza al primero (que queda en el registro)"
        }
        Step::HandedOver => "Entregado personalmente a la titular el 10/02/2025",
        Step::PaysBalance => "Ella paga el saldo el mismo día",
        Step::Payments => {
            "Los pagos registrados: el anulado con quién, cuándo y por qué; el último extingue la multa"
        }
        Step::NoDemand => "A una multa pagada por completo no se le cobra nada",
        Step::Settlement => {
            "Recibe su paz y salvo: cada pago con su imputación, la multa extinguida"
        }
        Step::SettlementVerify => "El paz y salvo se coteja como un aviso",
        Step::PledgeRelease => {
            "Terminado el período de restricción, con la multa pagada, se libera la prenda"
        }
        Step::Reproduces => {
            "La liquidación guardada aún se reproduce a partir de sus propios datos"
        }
        Step::AdjudicationShow => "La adjudicación N.º 1 completa",
        Step::CheckAfter => {
            "El chequeo después del período de restricción: prendas que ya pueden liberarse"
        }
        Step::Audit => "Cada escritura está en la traza de auditoría, encadenada por SHA-256",
    }
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
