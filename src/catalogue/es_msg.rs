//! The Spanish of [`Msg`]: dates dd/mm/aaaa, counts of shares with es-CO thousands, pesos
//! `$ 1.087.500`, a notice an «aviso» and the lock-up the «período de restricción», as the
//! check's reasons and the web say them.

use super::msg::{Counting, Criterion, Deadline, Msg, ReadAs, Rows, Step, TrancheOutcome, Worth};
use crate::lang::{fecha, momento, numero};
use crate::money::format_cop;

/// A command's success line in Spanish.
pub fn msg(m: &Msg<'_>) -> String {
    match m {
        Msg::RegisterReady {
            created,
            path,
            schema,
        } => {
            let verb = if *created { "creado" } else { "ya existe" };
            format!("registro {verb}: {path} (versión del esquema {schema})")
        }
        Msg::AuditKey { created, path, id } => {
            let verb = if *created { "creada" } else { "en uso" };
            format!("clave de auditoría {verb}: {path} (id {id}); guárdela lejos del registro")
        }
        Msg::CheckpointLogCreated { path, line, events } => format!(
            "registro de puntos de control creado: {path} (punto de control {line}: {} eventos)",
            numero(*events)
        ),
        Msg::CheckpointLogMissing { path, events } => format!(
            "FALTA EL REGISTRO DE PUNTOS DE CONTROL: {path} (el registro tiene {} eventos): no se \
             inició ninguno; restáurelo de una copia de seguridad y ejecute `vigia audit verify`",
            numero(*events)
        ),
        Msg::OutsideValidity { validity } => format!(
            "fuera de la vigencia del programa ({}): el motivo dado queda registrado con el acto",
            validity.es()
        ),
        Msg::BreachRecorded {
            id,
            kind,
            shares,
            date,
            adjudication,
        } => format!(
            "incumplimiento N.º {id} registrado: {} de {} acciones el {} (adjudicación N.º {adjudication})",
            kind.act_es(),
            numero(*shares),
            fecha(*date)
        ),
        Msg::BreachVoided { id, void } => {
            format!("incumplimiento N.º {id} anulado (anulación N.º {void}); queda en el registro")
        }
        Msg::PaymentRecorded {
            id,
            amount,
            date,
            breach,
        } => format!(
            "pago N.º {id}: {} el {} contra el incumplimiento N.º {breach}",
            format_cop(*amount),
            fecha(*date)
        ),
        Msg::PaymentVoided { id, void } => format!(
            "pago N.º {id} anulado (anulación N.º {void}); queda en el registro y ninguna cifra lo cuenta"
        ),
        Msg::AdjudicationVoided { id, void } => format!(
            "adjudicación N.º {id} anulada (anulación N.º {void}); queda en el registro, ninguna cifra la \
             cuenta y su adjudicación puede importarse de nuevo"
        ),
        Msg::PledgeAlready {
            id,
            adjudication,
            rank,
            registered,
        } => format!(
            "la prenda N.º {id} de la adjudicación N.º {adjudication} (de grado {rank}, inscrita el {}) ya \
             está registrada: no se agregó nada",
            fecha(*registered)
        ),
        Msg::PledgeRegistered {
            id,
            shares,
            adjudication,
            rank,
            to,
            registered,
        } => format!(
            "prenda N.º {id}: {} acciones de la adjudicación N.º {adjudication}, de grado {rank}, a favor \
             de {to}, inscrita el {}",
            numero(*shares),
            fecha(*registered)
        ),
        Msg::PledgeReleased {
            pledge,
            on,
            release,
        } => format!(
            "prenda N.º {pledge} liberada el {} (liberación N.º {release})",
            fecha(*on)
        ),
        Msg::PledgesReleased {
            adjudications,
            on,
            first,
            last,
        } => format!(
            "prendas de {} adjudicación(es) liberadas el {} (liberaciones N.º {first} a {last})",
            numero(*adjudications),
            fecha(*on)
        ),
        Msg::NoPledgeReleasable { on } => {
            format!("ninguna prenda puede liberarse el {}", fecha(*on))
        }
        Msg::PledgesOfReleased {
            adjudication,
            on,
            ids,
        } => format!(
            "prenda(s) de la adjudicación N.º {adjudication} liberada(s) el {} (liberaciones N.º {})",
            fecha(*on),
            list(ids)
        ),
        Msg::PledgeVoided { id, void } => format!(
            "prenda N.º {id} anulada (anulación N.º {void}); queda en el registro y ninguna regla la cuenta"
        ),
        Msg::Imported {
            rows,
            import,
            added,
            ids,
            new_holders,
            stage,
            read,
        } => {
            let read = read_as(*read);
            let ids = ids.map_or(String::new(), |(a, b)| format!(" (N.º {a} a {b})"));
            let n = numero(*added);
            match rows {
                Rows::Adjudications => format!(
                    "importación N.º {import}: {n} adjudicación(es) agregada(s){ids}, {} titular(es) \
                     nuevo(s); {read}",
                    numero(*new_holders)
                ),
                Rows::Acceptances => format!(
                    "importación de aceptaciones N.º {import}: {n} aceptación(es) agregada(s){ids}; {read}"
                ),
                Rows::Proposals => {
                    let (stage, program) = stage.unwrap_or((0, ""));
                    format!(
                        "importación de propuestas N.º {import}: {n} propuesta(s) agregada(s) a la etapa \
                         {stage} de {program}{ids}; {read}"
                    )
                }
                Rows::Pledges => format!(
                    "importación de prendas N.º {import}: {n} prenda(s) registrada(s){ids}; {read}"
                ),
            }
        }
        Msg::Unchanged { rows, count, first } => {
            let what = match rows {
                Rows::Adjudications => "adjudicación",
                Rows::Acceptances => "aceptación",
                Rows::Proposals => "propuesta",
                Rows::Pledges => "prenda",
            };
            let named: Vec<String> = first
                .iter()
                .map(|(line, id)| format!("línea {line} ({what} N.º {id})"))
                .collect();
            let more = count.saturating_sub(first.len() as u64);
            let more = if more > 0 {
                format!(" y {} más", numero(more))
            } else {
                String::new()
            };
            format!(
                "{} fila(s) ya registrada(s) tal como están, sin cambios: {}{more}",
                numero(*count),
                named.join(", ")
            )
        }
        Msg::AlreadyImported {
            rows,
            path,
            import,
            at,
            by,
        } => {
            let kind = match rows {
                Rows::Adjudications => "importación",
                Rows::Acceptances => "importación de aceptaciones",
                Rows::Proposals => "importación de propuestas",
                Rows::Pledges => "importación de prendas",
            };
            format!(
                "{} ya se importó como {kind} N.º {import} el {} por {by}: no se agregó nada",
                path.display(),
                momento(at)
            )
        }
        Msg::NoticeIssued {
            number,
            breach,
            liquidation,
            total,
            until,
            deadline,
            path,
        } => {
            let pay = match deadline {
                Deadline::FromDelivery(d) => format!(
                    "sin plazo de pago hasta que se registre su entrega (si se entrega en su fecha, \
                     pague a más tardar el {})",
                    fecha(*d)
                ),
                Deadline::By(d) => format!("pague a más tardar el {}", fecha(*d)),
            };
            format!(
                "aviso {number} emitido por el incumplimiento N.º {breach}: liquidación N.º {liquidation}, \
                 total {} al {}, {pay} -> {path}",
                format_cop(*total),
                fecha(*until)
            )
        }
        Msg::NoticesLeftOut { skipped } => {
            super::msg::left_out(skipped, "Sin aviso: ", WHY_LEFT_OUT, &numero)
        }
        Msg::NoticesIssued { count, dir, index, skipped } => {
            let left = super::msg::left_out(skipped, "; sin aviso: ", WHY_LEFT_OUT, &numero);
            format!(
                "{} aviso(s) emitido(s) en {dir}; índice: {index}{left}",
                numero(*count)
            )
        }
        Msg::RenderedAgain { number, ext, path } => format!(
            "{number} escrito de nuevo como {ext} (el mismo número, fecha y cifras) -> {path}"
        ),
        Msg::NoticeDelivered {
            number,
            on,
            via,
            term_days,
            due,
        } => {
            let term = match term_days {
                Some(days) => format!(
                    "el plazo de pago ({days} días hábiles) corre ahora desde la entrega: pague a más \
                     tardar el {}",
                    fecha(*due)
                ),
                None => format!(
                    "el programa cuenta el plazo de pago desde la fecha del aviso: pague a más tardar \
                     el {}",
                    fecha(*due)
                ),
            };
            format!(
                "aviso {number} entregado el {} por {via}; {term}",
                fecha(*on)
            )
        }
        Msg::SettlementIssued {
            number,
            breach,
            liquidation,
            payments,
            paid,
            until,
            path,
        } => format!(
            "paz y salvo {number} emitido por el incumplimiento N.º {breach}: liquidación N.º \
             {liquidation}, {} pago(s) por {} en total, nada pendiente al {} -> {path}",
            numero(*payments),
            format_cop(*paid),
            fecha(*until)
        ),
        Msg::HolderUpdated {
            doc_type,
            doc_number,
            name,
            version,
            address,
            city,
            email,
        } => format!(
            "titular {doc_type} {doc_number} ({name}): versión {version} de sus datos de contacto: \
             dirección {}, ciudad {}, correo electrónico {}",
            address.unwrap_or("-"),
            city.unwrap_or("-"),
            email.unwrap_or("-")
        ),
        Msg::ProgramAdded { code, id, new } => {
            let note = if *new {
                "registrado"
            } else {
                "ya estaba registrado con el mismo contenido; no se agregó nada"
            };
            format!("programa {code} (id {id}) {note}")
        }
        Msg::StagePriceSet { id, code, stage } => match stage {
            Some((s, p)) => format!(
                "precio de la etapa N.º {id}: programa {code}, etapa {s}, {} por acción",
                format_cop(*p)
            ),
            None => format!(
                "precio de la etapa N.º {id}: el programa {code} no tiene etapa posterior; no hay precio \
                 de la etapa"
            ),
        },
        Msg::LetterheadSet {
            code,
            version,
            lacks,
        } => format!(
            "programa {code}: versión {version} del membrete registrada{}",
            if lacks.is_empty() {
                "; ya pueden emitirse avisos y paz y salvos".to_string()
            } else {
                format!("; a un aviso aún le falta: {}", lacks.join(", "))
            }
        ),
        Msg::NoLetterhead { code } => format!(
            "el programa {code} aún no tiene membrete en el registro: los avisos y los paz y salvos se \
             rechazan hasta que `vigia program letters set {code}` registre uno"
        ),
        Msg::UserAdded { name, id, role } => {
            format!("usuario {name} (id {id}) agregado con el rol {role}")
        }
        Msg::UserDisabled { name } => format!("usuario {name} desactivado; queda en el registro"),
        Msg::PasswordChanged { name } => format!("contraseña de {name} cambiada"),
        Msg::BackupWritten {
            path,
            bytes,
            events,
            head,
        } => {
            let head = match head {
                Some(h) => format!("cabeza de la cadena {h}"),
                None => "sin cabeza de cadena".into(),
            };
            format!(
                "copia de seguridad escrita en {path}: {} bytes, {} evento(s) de auditoría, {head}",
                numero(*bytes),
                numero(*events)
            )
        }
        Msg::CheckpointsCopied { path, count } => format!(
            "registro de puntos de control copiado en {path}: {} punto(s) de control que alcanza la \
             cadena de la copia",
            numero(*count)
        ),
        Msg::TemplateWritten { path } => format!(
            "plantilla escrita en {path}: llene una fila por línea debajo de los encabezados (borre la \
             fila de ejemplo) y luego impórtela"
        ),
        Msg::OfferOpened {
            id,
            code,
            opens,
            closes,
            earliest,
        } => format!(
            "oferta N.º {id} de {code} abierta: aviso el {}, aceptaciones hasta el {} (cierre más \
             temprano permitido: {})",
            fecha(*opens),
            fecha(*closes),
            earliest.map_or_else(|| "-".into(), fecha)
        ),
        Msg::OfferRun {
            run,
            code,
            ids,
            new_holders,
            fingerprint,
        } => format!(
            "adjudicación N.º {run} de {code}: {} adjudicación(es) escrita(s){}, {} titular(es) \
             nuevo(s); huella {fingerprint}",
            numero(ids.map_or(0, |(a, b)| (b - a + 1).max(0) as u64)),
            ids.map_or_else(String::new, |(a, b)| format!(" (N.º {a} a {b})")),
            numero(*new_holders)
        ),
        Msg::ActaWritten { path } => format!("acta -> {path}"),
        Msg::ActaOfRun { run, code, path } => {
            format!("acta de la adjudicación N.º {run} de {code} -> {path}")
        }
        Msg::RateAdded {
            id,
            from,
            to,
            moratorium,
            resolution,
        } => format!(
            "tasa N.º {id}: del {} al {}, moratoria {} E.A. ({resolution})",
            fecha(*from),
            fecha(*to),
            crate::money::format_percent_dp(*moratorium, moratorium.scale())
        ),
        Msg::RateSupersedes { from, to } => format!(
            "  reemplaza la del {} al {} (se conserva en el registro)",
            fecha(*from),
            fecha(*to)
        ),
        Msg::RateGap {
            from,
            to,
            kept_from,
            kept_to,
        } => format!(
            "  advertencia: los días del {} al {} fuera del {} al {} quedan sin tasa; agréguelos",
            fecha(*from),
            fecha(*to),
            fecha(*kept_from),
            fecha(*kept_to)
        ),
        Msg::RatesAdded { count, name } => {
            format!("{} período(s) agregado(s) desde {name}", numero(*count))
        }
        Msg::RatesCovered {
            count,
            from,
            to,
            source,
        } => format!(
            "{} períodos, del {} al {}; fuente: {}",
            numero(*count),
            fecha(*from),
            fecha(*to),
            crate::rates::source_es(source)
        ),
        Msg::RatesDryRun => "simulación: no se escribió nada".into(),
        Msg::Warning { what } => format!("  advertencia: {what}"),
        Msg::LiquidationReproduces {
            id,
            total,
            until,
            fingerprint,
        } => format!(
            "la liquidación N.º {id} se reproduce: total a pagar {} al {}, huella {fingerprint}",
            format_cop(*total),
            fecha(*until)
        ),
        Msg::LiquidationDiffers { id, same_print } => format!(
            "la liquidación N.º {id} NO se reproduce: {}",
            if *same_print {
                "recalcular sus datos da otras cifras"
            } else {
                "su huella no coincide con su contenido guardado"
            }
        ),
        Msg::DemoStart { db, key } => format!(
            "vigia demo — un registro nuevo con titulares FICTICIOS en {db}\n\
             (explórelo después con: vigia --db {db} --key {key} adjudications list; sus puntos de \
             control se firman con esa clave, así que nómbrela en cada comando)"
        ),
        Msg::DemoStep(step) => step_title(*step).to_string(),
        Msg::Counting(c) => match c {
            Counting::Check => "chequeo: adjudicaciones leídas",
            Counting::Notices => "emitiendo avisos",
            Counting::Adjudications => "importando adjudicaciones",
            Counting::Pledges => "importando prendas",
            Counting::Acceptances => "importando aceptaciones",
            Counting::Proposals => "importando propuestas",
            Counting::AdjudicationReading => "adjudicando: aceptaciones leídas, luego adjudicaciones registradas",
            Counting::Adjudicating => "adjudicando: aceptaciones escritas",
        }
        .to_string(),
        Msg::OfferHeader {
            program,
            offered,
            demand,
            awarded,
            leftover,
            oversubscribed,
            rule,
        } => format!(
            "oferta de {program}: ofrecidas {}, demandadas {}, adjudicadas {}, sobrante {} (para la \
             Segunda Etapa), {}, {}",
            numero(*offered),
            numero(*demand),
            numero(*awarded),
            numero(*leftover),
            if *oversubscribed {
                "con sobredemanda"
            } else {
                "sin sobredemanda"
            },
            // the rule in the acta's words (its code stays in the JSON)
            rule.parse::<crate::proration::Rule>()
                .map_or_else(|_| format!("regla {rule}"), |r| r.describe_es().to_string())
        ),
        Msg::TrancheOpened {
            stage,
            code,
            tranche,
            shares,
            opens,
            closes,
            minimum_price,
            available,
            offered,
        } => format!(
            "etapa {stage} de {code}, tramo {tranche} abierto: {} acciones (Todo o Nada), propuestas \
             del {} al {}, precio mínimo {} por acción; la etapa tiene {} acción(es) por ofrecer, {} \
             en tramos abiertos",
            numero(*shares),
            fecha(*opens),
            fecha(*closes),
            format_cop(*minimum_price),
            numero(*available),
            numero(*offered)
        ),
        Msg::TrancheEvaluated {
            stage,
            code,
            tranche,
            shares,
            opens,
            closes,
            minimum_price,
            criterion,
            outcome,
        } => {
            let pct = |d: &rust_decimal::Decimal| crate::money::format_percent_dp(*d, d.scale());
            let criterion = match criterion {
                Criterion::PresentValue {
                    rate_ea_pct,
                    source: Some((_, s)),
                } => format!("valor presente al {} E.A. ({s})", pct(rate_ea_pct)),
                Criterion::PresentValue { rate_ea_pct, .. } => {
                    format!("valor presente al {} E.A.", pct(rate_ea_pct))
                }
                Criterion::HighestPrice => "mayor precio".into(),
                Criterion::PriceAndTerm { price, term } => format!(
                    "precio y plazo: puntos = 100 × ({} × precio / mejor precio + {} × plazo más \
                     corto / plazo)",
                    crate::money::format_number(*price),
                    crate::money::format_number(*term)
                ),
            };
            let outcome = match outcome {
                TrancheOutcome::Winner { proposal, draw } => format!(
                    "ganadora {proposal}{}",
                    draw.map_or_else(String::new, |d| format!(" (por el sorteo N.º {d})"))
                ),
                TrancheOutcome::Tie(v) => format!(
                    "empate entre {}: invítelas a mejorar y luego sortee",
                    v.join(", ")
                ),
                TrancheOutcome::Desert => "ninguna propuesta válida".into(),
            };
            format!(
                "etapa {stage} de {code}, tramo {tranche}: {} acciones, propuestas del {} al {}, precio \
                 mínimo {}; {criterion}; {outcome}",
                numero(*shares),
                fecha(*opens),
                fecha(*closes),
                format_cop(*minimum_price)
            )
        }
        Msg::Improvement {
            id,
            proposal,
            tranche,
            original,
            offered,
            counted: true,
            code,
            stage,
        } => format!(
            "mejora N.º {id}: la {proposal} (tramo {tranche}) sube su precio de {} a {} por acción; \
             vuelva a evaluar las propuestas con `vigia stage evaluate {code} --stage {stage}`",
            format_cop(*original),
            format_cop(*offered)
        ),
        Msg::Improvement {
            id,
            proposal,
            tranche,
            original,
            offered,
            ..
        } => format!(
            "mejora N.º {id}: la {proposal} (tramo {tranche}) ofreció {}, que no supera su precio \
             original de {}: se registra y no se tiene en cuenta: «se entenderá que el proponente mantiene el precio de \
             compra de la Propuesta de Compra original»",
            format_cop(*offered),
            format_cop(*original)
        ),
        Msg::DrawVerified {
            id,
            stage,
            code,
            tranche,
            text,
            digest,
            number,
            tied,
            index,
            winner,
        } => format!(
            "verificado: sorteo N.º {id} de la etapa {stage} de {code}, tramo {tranche}: \
             sha256({text:?}) = {digest}; primeros 8 bytes {number} mód {tied} = {index}: gana la {winner}"
        ),
        Msg::ActaVerified {
            run,
            code,
            acceptors,
            awarded,
            fingerprint,
        } => format!(
            "verificada: acta de la adjudicación N.º {run} de {code} ({} aceptante(s), {} acciones \
             adjudicadas); la huella {fingerprint} coincide con el registro",
            numero(*acceptors),
            numero(*awarded)
        ),
        Msg::AuditIntact {
            events,
            head,
            signed,
            line,
            at_events,
            at,
            since,
        } => format!(
            "traza de auditoría íntegra: {events} eventos, la cadena y las filas guardadas \
             coinciden; cabeza {head}\n\
             esquema y disparadores como los crean las migraciones de vigia; quick_check de SQLite \
             correcto\n\
             puntos de control: {signed} firmado(s), el último (línea {line}) a los {at_events} \
             eventos, el {}; {since} evento(s) desde entonces",
            momento(at)
        ),
        Msg::Drawn {
            id,
            stage,
            code,
            tranche,
            sorted,
            text,
            digest,
            number,
            tied,
            index,
            winner,
        } => format!(
            "sorteo N.º {id} de la etapa {stage} de {code}, tramo {tranche}:\n  empatadas, en el orden \
             de sus bytes UTF-8: {sorted}\n  texto resumido: {text}\n  SHA-256: {digest}\n  primeros 8 \
             bytes como entero sin signo: {number}\n  {number} mód {tied} = {index}: gana la {winner}\n  \
             compruébelo: printf %s '{}' | sha256sum",
            text.replace('\'', "'\\''")
        ),
        Msg::StageAdjudicated {
            stage,
            code,
            on,
            conclusion,
            awarded,
            offered,
            leftover,
        } => format!(
            "etapa {stage} de {code} adjudicada el {} (conclusión N.º {conclusion}): {} de {} acciones \
             adjudicadas, sobran {}",
            fecha(*on),
            numero(*awarded),
            numero(*offered),
            numero(*leftover)
        ),
        Msg::StagePriceFrom {
            id,
            code,
            stage,
            price,
            composition,
            from,
        } => format!(
            "precio de la etapa N.º {id}: programa {code}, etapa {stage}, {} por acción{composition} \
             (art. 9 (iii)) desde el {}; `vigia check` señala las liquidaciones provisionales \
             (PROVISIONAL_STALE) para liquidarlas de nuevo",
            format_cop(*price),
            fecha(*from)
        ),
        Msg::Problems { what, count } => format!(
            "{what}: {} problema(s), no se escribió nada:",
            numero(*count)
        ),
        Msg::ImportOf { path } => format!("importación de {path}"),
        Msg::ReleaseOf { on } => {
            format!("liberación de las prendas liberables el {}", fecha(*on))
        }
        Msg::RatesImportOf { name, sfc: false } => format!("importación de tasas de {name}"),
        Msg::RatesImportOf { name, sfc: true } => {
            format!("importación del histórico de la SFC de {name}")
        }
        Msg::StageAward {
            tranche,
            shares,
            proposal,
            bidders,
            price,
            total,
            value,
            due,
            draw,
        } => {
            let value = match value {
                Worth::None => "-".to_string(),
                Worth::PresentValue(x) => format!("valor presente {}", format_cop(*x)),
                Worth::Value(x) => format!("valor {}", format_cop(*x)),
                Worth::Points(x) => format!(
                    "{} puntos",
                    crate::money::format_number(x.round_dp(4))
                ),
            };
            format!(
                "  tramo {tranche}: {} acciones a la {proposal} ({bidders}; solidariamente \
                 responsables) a {} por acción = {}, {value}; pago a más tardar el {}{}",
                numero(*shares),
                format_cop(*price),
                format_cop(*total),
                fecha(*due),
                draw.map_or_else(String::new, |d| format!(" (decidido por el sorteo N.º {d})"))
            )
        }
        Msg::TrancheVoid { tranche, shares } => format!(
            "  tramo {tranche}: {} acciones, ninguna propuesta válida (desierto: pasan a la etapa \
             siguiente)",
            numero(*shares)
        ),
        Msg::StageVoid {
            stage,
            code,
            on,
            conclusion,
            leftover,
            last,
        } => format!(
            "etapa {stage} de {code} declarada desierta el {} (conclusión N.º {conclusion}): ninguna \
             propuesta válida; {} acciones {}",
            fecha(*on),
            numero(*leftover),
            if *last {
                "quedan sin vender, y era la última etapa del programa"
            } else {
                "pasan a la Tercera Etapa"
            }
        ),
        Msg::NoLaterStage { id, code } => format!(
            "precio de la etapa N.º {id}: el programa {code} no tiene etapa posterior; no hay precio \
             de la etapa (como con `program stage-price --stage none`)"
        ),
        Msg::RatesFileSound {
            name,
            count,
            from,
            to,
        } => format!(
            "{name}: {}, del {} al {}, sin problemas",
            super::sfc::periodos(*count),
            fecha(*from),
            fecha(*to)
        ),
        Msg::RatesFileProblems { name, count } => match count {
            1 => format!("{name}: 1 problema"),
            n => format!("{name}: {} problemas", numero(*n)),
        },
        Msg::WorkbookNotText => "un libro de Excel no es texto: nombre el archivo con --out ARCHIVO.xlsx".to_string(),
        Msg::OutOnlyForExcel => {
            "es para --format csv-excel o xlsx; redirija los demás formatos (> ARCHIVO)".to_string()
        }
        Msg::OutIsSymlink => "es un enlace simbólico, a través del cual vigia no escribe (ni lo reemplaza); indique la ruta del archivo mismo".to_string(),
        Msg::Left => "faltan".to_string(),
        Msg::ManPages { count, dir } => format!("{} páginas de manual escritas en {dir}", numero(*count)),
        Msg::DemoRefused { error } => format!("rechazado, como debe ser: {error}"),
        Msg::DemoWeb { user, password, db } => format!(
            "\n## La interfaz web (entre como {user} con la contraseña {password}: una cuenta de \
             demostración, rol admin)\n$ vigia --db {db} serve\nluego abra http://127.0.0.1:8080/"
        ),
    }
}

fn read_as(r: ReadAs<'_>) -> String {
    match r {
        ReadAs::Workbook => "leído de una hoja de un libro".into(),
        ReadAs::Text {
            encoding,
            separator,
        } => format!("leído como {encoding}, separador «{separator}»"),
    }
}

/// "3, 4 y 5".
fn list(ids: &[i64]) -> String {
    let text: Vec<String> = ids.iter().map(i64::to_string).collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} y {last}", rest.join(", ")),
        _ => text.join(""),
    }
}

/// A demo step's title.
fn step_title(s: Step) -> &'static str {
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

/// Why a batch of notices leaves a breach out, in [`super::msg::left_out`]'s order.
const WHY_LEFT_OUT: [&str; 4] = ["anulados", "ya con aviso", "con paz y salvo", "ya pagados"];
