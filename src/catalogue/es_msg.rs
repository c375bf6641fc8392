//! The Spanish of [`Msg`]: dates dd/mm/aaaa, counts of shares with es-CO thousands, pesos
//! `$ 1.087.500`, a notice an «aviso» and the lock-up the «período de restricción», as the
//! check's reasons and the web say them.

use super::msg::{Counting, Criterion, Deadline, Msg, ReadAs, Rows, TrancheOutcome, Worth};
use crate::lang::{cuenta, fecha, momento, numero};
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
            "incumplimiento N.º {id} registrado: {} de {} el {} (adjudicación N.º {adjudication})",
            kind.act_es(),
            cuenta(*shares, "acción", "acciones"),
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
            "prenda N.º {id}: {} de la adjudicación N.º {adjudication}, de grado {rank}, a favor \
             de {to}, inscrita el {}",
            cuenta(*shares, "acción", "acciones"),
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
            "prendas de {} liberadas el {} (liberaciones N.º {first} a {last})",
            cuenta(*adjudications, "adjudicación", "adjudicaciones"),
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
            "{} de la adjudicación N.º {adjudication} {} el {} ({} N.º {})",
            match ids.len() { 1 => "prenda", _ => "prendas" },
            match ids.len() { 1 => "liberada", _ => "liberadas" },
            fecha(*on),
            match ids.len() { 1 => "liberación", _ => "liberaciones" },
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
            let ids = ids.map_or(String::new(), |(a, b)| numeros(a, b));
            let n = |one, many| cuenta(*added, one, many);
            match rows {
                Rows::Adjudications => format!(
                    "importación N.º {import}: {}{ids}, {}; {read}",
                    n("adjudicación agregada", "adjudicaciones agregadas"),
                    cuenta(*new_holders, "titular nuevo", "titulares nuevos")
                ),
                Rows::Acceptances => format!(
                    "importación de aceptaciones N.º {import}: {}{ids}; {read}",
                    n("aceptación agregada", "aceptaciones agregadas")
                ),
                Rows::Proposals => {
                    let (stage, program) = stage.unwrap_or((0, ""));
                    format!(
                        "importación de propuestas N.º {import}: {} a la {etapa} de \
                         {program}{ids}; {read}",
                        n("propuesta agregada", "propuestas agregadas"), etapa = etapa(stage)
                    )
                }
                Rows::Pledges => format!(
                    "importación de prendas N.º {import}: {}{ids}; {read}",
                    n("prenda registrada", "prendas registradas")
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
                "{} tal como están, sin cambios: {}{more}",
                cuenta(*count, "fila ya registrada", "filas ya registradas"),
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
            super::msg::left_out(skipped, "Quedan fuera del lote: ", WHY_LEFT_OUT, &numero)
        }
        Msg::NoticesIssued { count, dir, index, skipped } => {
            let left = super::msg::left_out(skipped, "; quedan fuera del lote: ", WHY_LEFT_OUT, &numero);
            format!(
                "{} en {dir}; índice: {index}{left}",
                cuenta(*count, "aviso emitido", "avisos emitidos")
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
             {liquidation}, {} por {} en total, nada pendiente al {} -> {path}",
            cuenta(*payments, "pago", "pagos"),
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
        Msg::StagePriceSet {
            id,
            code,
            stage,
            replaced,
            replaced_none,
        } => {
            let set = match stage {
                Some((s, p)) => format!(
                    "registro de precio de etapa N.º {id}: programa {code}, {etapa}, {} por acción",
                    format_cop(*p), etapa = etapa(s.parse().unwrap_or(0))
                ),
                None => format!(
                    "registro de precio de etapa N.º {id}: el programa {code} no tiene etapa posterior; no hay precio \
                     de la etapa"
                ),
            };
            if *replaced_none {
                format!("{set} (una corrección: reemplaza el registro de que no hubo etapa posterior)")
            } else if replaced.is_empty() {
                set
            } else {
                let was: Vec<String> = replaced
                    .iter()
                    .map(|(s, p)| format!("el de la {} ({})", etapa(*s), format_cop(*p)))
                    .collect();
                format!("{set} (una corrección: reemplaza {})", was.join(" y "))
            }
        }
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
                "copia de seguridad escrita en {path}: {} bytes, {} de auditoría, {head}",
                numero(*bytes),
                cuenta(*events, "evento", "eventos")
            )
        }
        Msg::CheckpointsCopied { path, count } => format!(
            "registro de puntos de control copiado en {path}: {} de control que alcanza la cadena \
             de la copia",
            cuenta(*count, "punto", "puntos")
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
            "adjudicación N.º {run} de {code}: {}{}, {}; huella {fingerprint}",
            cuenta(
                ids.map_or(0, |(a, b)| (b - a + 1).max(0) as u64),
                "adjudicación escrita",
                "adjudicaciones escritas"
            ),
            ids.map_or_else(String::new, |(a, b)| numeros(a, b)),
            cuenta(*new_holders, "titular nuevo", "titulares nuevos")
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
            format!("{} desde {name}", cuenta(*count, "período agregado", "períodos agregados"))
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
             control se firman y se verifican con esa clave: nómbrela con --key en `audit \
             verify`, `audit checkpoint`, `check --checkpoint` y `serve`)"
        ),
        Msg::DemoStep(step) => super::es_words::step_title(*step).to_string(),
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
            "{etapa} de {code}, tramo {tranche} abierto: {} acciones (Todo o Nada), propuestas \
             del {} al {}, precio mínimo {} por acción; la etapa tiene {} por ofrecer, {} en tramos \
             abiertos",
            numero(*shares),
            fecha(*opens),
            fecha(*closes),
            format_cop(*minimum_price),
            cuenta(*available, "acción", "acciones"),
            numero(*offered), etapa = etapa(*stage)
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
                "{etapa} de {code}, tramo {tranche}: {} acciones, propuestas del {} al {}, precio \
                 mínimo {}; {criterion}; {outcome}",
                numero(*shares),
                fecha(*opens),
                fecha(*closes),
                format_cop(*minimum_price), etapa = etapa(*stage)
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
            "verificado: sorteo N.º {id} de la {etapa} de {code}, tramo {tranche}: \
             sha256({text:?}) = {digest}; primeros 8 bytes {}: gana la {winner}",
            draw_place(number, *tied, *index),
            etapa = etapa(*stage)
        ),
        Msg::ActaVerified {
            run,
            code,
            acceptors,
            awarded,
            fingerprint,
            text_only,
        } => format!(
            "{}: acta de la adjudicación N.º {run} de {code} ({}, {}); la huella {fingerprint} \
             coincide con el registro",
            if *text_only { "texto" } else { "verificada" },
            cuenta(*acceptors, "aceptante", "aceptantes"),
            cuenta(*awarded, "acción adjudicada", "acciones adjudicadas")
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
            "traza de auditoría íntegra: {}, la cadena y las filas guardadas coinciden; cabeza \
             {head}\n\
             esquema y disparadores como los crean las migraciones de vigia; quick_check de SQLite \
             correcto\n\
             puntos de control: {}, el último (línea {line}) a los {}, el {}; {} desde entonces",
            cuenta((*events).max(0) as u64, "evento", "eventos"),
            cuenta(*signed, "firmado", "firmados"),
            cuenta((*at_events).max(0) as u64, "evento", "eventos"),
            momento(at),
            cuenta((*since).max(0) as u64, "evento", "eventos")
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
            "sorteo N.º {id} de la {etapa} de {code}, tramo {tranche}:\n  empatadas, en el orden \
             de sus bytes UTF-8: {sorted}\n  texto resumido: {text}\n  SHA-256: {digest}\n  primeros 8 \
             bytes como entero sin signo: {number}\n  {}: gana la {winner}\n  \
             compruébelo: printf %s '{}' | sha256sum",
            draw_place(number, *tied, *index),
            text.replace('\'', "'\\''"), etapa = etapa(*stage)
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
            "{etapa} de {code} adjudicada el {} (conclusión N.º {conclusion}): {} de {} acciones \
             adjudicadas, sobran {}",
            fecha(*on),
            numero(*awarded),
            numero(*offered),
            numero(*leftover), etapa = etapa(*stage)
        ),
        Msg::StagePriceFrom {
            id,
            code,
            stage,
            price,
            composition,
            from,
            so_far,
        } => format!(
            "registro de precio de etapa N.º {id}: programa {code}, {etapa}, {} por acción{composition} \
             (art. 9 (iii)) desde el {}; {}",
            format_cop(*price),
            fecha(*from),
            if *so_far {
                "una etapa posterior sigue pendiente para las acciones sobrantes: este es el precio \
                 hasta ahora, y las liquidaciones siguen provisionales hasta que esa etapa concluya"
            } else {
                "`vigia check` señala las liquidaciones provisionales (PROVISIONAL_STALE) para \
                 liquidarlas de nuevo"
            },
            etapa = etapa(*stage)
        ),
        Msg::Problems { what, count } => format!(
            "{what}: {}, no se escribió nada:",
            cuenta(*count, "problema", "problemas")
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
            "{etapa} de {code} declarada desierta el {} (conclusión N.º {conclusion}): ninguna \
             propuesta válida; {} acciones {}",
            fecha(*on),
            numero(*leftover),
            if *last {
                "quedan sin vender, y era la última etapa del programa"
            } else {
                "pasan a la Tercera Etapa"
            }, etapa = etapa(*stage)
        ),
        Msg::NoLaterStage { id, code } => format!(
            "registro de precio de etapa N.º {id}: el programa {code} no tiene etapa posterior; no hay precio \
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
        Msg::DemoWeb {
            user,
            password,
            db,
            key,
        } => format!(
            "\n## La interfaz web (entre como {user} con la contraseña {password}: una cuenta de \
             demostración, rol admin)\n$ vigia --db {db} --key {key} serve\nluego abra http://127.0.0.1:8080/"
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

/// Why a batch of notices leaves a breach out, in [`super::msg::left_out`]'s order.
/// Each in the singular and the plural, for a count of 1 and for the rest.
const WHY_LEFT_OUT: [(&str, &str); 4] = [
    ("anulado", "anulados"),
    ("que ya tiene aviso", "que ya tienen aviso"),
    ("con paz y salvo", "con paz y salvo"),
    ("ya pagado", "ya pagados"),
];

/// A later stage as the decrees name it: «Segunda Etapa», «Tercera Etapa».
pub(super) fn etapa(n: u8) -> String {
    match crate::later_stages::Stage::try_from(n) {
        Ok(s) => format!("{} Etapa", s.name_es()),
        Err(_) => format!("etapa {n}"),
    }
}

/// The numbers of the records a write added, as a parenthesis: « (N.º 6)» for one, « (N.º 6 a
/// 9)» for several.
fn numeros(first: i64, last: i64) -> String {
    if first == last {
        format!(" (N.º {first})")
    } else {
        format!(" (N.º {first} a {last})")
    }
}

/// A draw's arithmetic: the digest's number modulo the tied proposals gives the winning place
/// («123 mód 2 = 1»).
pub(super) fn draw_place(number: &dyn std::fmt::Display, tied: u64, index: u64) -> String {
    format!("{number} mód {tied} = {index}")
}
