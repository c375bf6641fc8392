//! The lines `audit verify` and `audit checkpoint` print, and their refusals, in English and in
//! Spanish: one home for their words (the findings themselves come from the store as
//! [`Said`], worded in both languages where they are found).

use crate::lang::{Lang, Said, momento, numero};
use crate::store::anchors::Recorded;
use crate::store::audit::Place;
use crate::store::checkpoint::Checkpoint;
use std::path::Path;

/// A line of `audit verify`'s report, or of `audit checkpoint`'s.
pub(super) enum Line<'a> {
    /// The first place the chain and the rows disagree.
    Mismatch { place: &'a Place, reason: &'a Said },
    /// A checkpoint recorded in the chain that does not verify.
    InChain(&'a Said),
    /// No checkpoint log; `recorded` what the chain records of its checkpoints.
    LogMissing {
        path: &'a Path,
        recorded: &'a [Recorded],
    },
    /// A line of the checkpoint log that does not verify.
    Log(&'a Said),
    /// A checkpoint the chain records that the log lacks.
    NotInLog {
        recorded: &'a Recorded,
        path: &'a Path,
    },
    /// The tables, indexes or triggers differ from what the migrations create.
    Schema(&'a Said),
    /// What SQLite's quick_check says (its own words).
    Storage(&'a str),
    /// The log was started again.
    Restarted {
        recorded: &'a Recorded,
        reason: &'a str,
    },
    /// A note about the checkpoints in the chain.
    Note(&'a Said),
    /// A checkpoint signed and recorded.
    Signed {
        line: usize,
        checkpoint: &'a Checkpoint,
        path: &'a Path,
    },
}

/// [`Line`] in `lang`.
pub(super) fn line(lang: Lang, l: &Line<'_>) -> String {
    match lang {
        Lang::En => en(l),
        Lang::Es => es(l),
    }
}

fn en(l: &Line<'_>) -> String {
    match l {
        Line::Mismatch { place, reason } => {
            let at = match place {
                Place::Event {
                    seq,
                    entity,
                    entity_id,
                } => format!("event {seq} ({entity} {entity_id})"),
                Place::Row { entity, entity_id } => format!("no event ({entity} {entity_id})"),
                Place::Anchor { name } => name.en().to_string(),
            };
            format!("AUDIT MISMATCH at {at}: {}", reason.en())
        }
        Line::InChain(p) => format!("CHECKPOINT IN THE CHAIN: {}", p.en()),
        Line::LogMissing { path, recorded } => {
            let held = match recorded.last() {
                Some(r) => format!(
                    "the chain records {} checkpoint(s), the last signed {} at {} events, and \
                     was checked against them",
                    recorded.len(),
                    r.checkpoint.at,
                    r.checkpoint.count
                ),
                None => "nothing outside the database anchors the chain, and it records no \
                         checkpoint"
                    .into(),
            };
            format!(
                "CHECKPOINT LOG MISSING: there is no checkpoint in {}: {held}; restore the log \
                 from a backup (`vigia backup` writes it beside each copy as FILE.checkpoints); \
                 only if it is lost for good, `vigia audit checkpoint --reanchor --reason TEXT` \
                 starts a new one (recorded in the chain, reported by every later verify)",
                path.display()
            )
        }
        Line::Log(p) => format!("CHECKPOINT LOG: {}", p.en()),
        Line::NotInLog { recorded, path } => {
            format!("CHECKPOINT LOG: {}", not_in_log(Lang::En, recorded, path))
        }
        Line::Schema(s) => format!("SCHEMA MISMATCH: {}", s.en()),
        Line::Storage(s) => format!("FILE DAMAGED (SQLite quick_check): {s}"),
        Line::Restarted {
            recorded: r,
            reason,
        } => format!(
            "CHECKPOINT LOG STARTED AGAIN on {} by {} at {} events (audit_checkpoints row {}): \
             {reason}; what the chain held before it is anchored only by the checkpoints it \
             records",
            r.created_at, r.created_by, r.checkpoint.count, r.id
        ),
        Line::Note(n) => format!("NOTE: {}", n.en()),
        Line::Signed {
            line,
            checkpoint: c,
            path,
        } => format!(
            "checkpoint {line}: {} events, head {}, signed {} with key {}; appended to {} and \
             recorded in the chain",
            c.count,
            &c.head[..c.head.len().min(12)],
            c.at,
            c.key,
            path.display()
        ),
    }
}

fn es(l: &Line<'_>) -> String {
    match l {
        Line::Mismatch { place, reason } => {
            let at = match place {
                Place::Event {
                    seq,
                    entity,
                    entity_id,
                } => format!("el evento N.º {seq} ({entity} {entity_id})"),
                Place::Row { entity, entity_id } => {
                    format!("una fila sin evento ({entity} {entity_id})")
                }
                Place::Anchor { name } => name.es().to_string(),
            };
            format!("DISCREPANCIA EN LA AUDITORÍA en {at}: {}", reason.es())
        }
        Line::InChain(p) => format!("PUNTO DE CONTROL EN LA CADENA: {}", p.es()),
        Line::LogMissing { path, recorded } => {
            let held = match recorded.last() {
                Some(r) => format!(
                    "la cadena registra {} de control, el último firmado el {} a los {}, y se \
                     verificó contra ellos",
                    crate::lang::cuenta(recorded.len() as u64, "punto", "puntos"),
                    momento(&r.checkpoint.at),
                    crate::lang::cuenta(r.checkpoint.count.unsigned_abs(), "evento", "eventos")
                ),
                None => "nada fuera de la base de datos ancla la cadena, y esta no registra \
                         ningún punto de control"
                    .into(),
            };
            format!(
                "FALTA EL REGISTRO DE PUNTOS DE CONTROL: no hay ningún punto de control en {}: \
                 {held}; restaure el registro de una copia de seguridad (`vigia backup` lo \
                 escribe junto a cada copia como ARCHIVO.checkpoints); solo si se perdió para \
                 siempre, `vigia audit checkpoint --reanchor --reason TEXTO` empieza uno nuevo \
                 (queda en la cadena y lo informa cada verificación posterior)",
                path.display()
            )
        }
        Line::Log(p) => format!("REGISTRO DE PUNTOS DE CONTROL: {}", p.es()),
        Line::NotInLog { recorded, path } => format!(
            "REGISTRO DE PUNTOS DE CONTROL: {}",
            not_in_log(Lang::Es, recorded, path)
        ),
        Line::Schema(s) => format!("ESQUEMA DISTINTO: {}", s.es()),
        Line::Storage(s) => format!("ARCHIVO DAÑADO (quick_check de SQLite): {s}"),
        Line::Restarted {
            recorded: r,
            reason,
        } => format!(
            "REGISTRO DE PUNTOS DE CONTROL EMPEZADO DE NUEVO el {} por {} a los {} eventos \
             (fila {} de audit_checkpoints): {reason}; lo que la cadena tenía antes solo lo \
             anclan los puntos de control que registra",
            momento(&r.created_at),
            r.created_by,
            numero(r.checkpoint.count.unsigned_abs()),
            r.id
        ),
        Line::Note(n) => format!("NOTA: {}", n.es()),
        Line::Signed {
            line,
            checkpoint: c,
            path,
        } => format!(
            "punto de control {line}: {} eventos, cabeza {}, firmado el {} con la clave {}; \
             agregado a {} y registrado en la cadena",
            numero(c.count.unsigned_abs()),
            &c.head[..c.head.len().min(12)],
            momento(&c.at),
            c.key,
            path.display()
        ),
    }
}

/// A checkpoint the chain records that the log at `path` lacks, and what to do.
pub(super) fn not_in_log(lang: Lang, r: &Recorded, path: &Path) -> String {
    match lang {
        Lang::En => format!(
            "the chain records the checkpoint signed {} at {} events (audit_checkpoints row {}), \
             which is not in {}: the log was replaced by an older copy or cut; restore it from a \
             backup",
            r.checkpoint.at,
            r.checkpoint.count,
            r.id,
            path.display()
        ),
        Lang::Es => format!(
            "la cadena registra el punto de control firmado el {} a los {} eventos (fila {} de \
             audit_checkpoints), que no está en {}: el registro se reemplazó por una copia más \
             antigua o se recortó; restáurelo de una copia de seguridad",
            momento(&r.checkpoint.at),
            numero(r.checkpoint.count.unsigned_abs()),
            r.id,
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded() -> Recorded {
        Recorded {
            id: 3,
            checkpoint: Checkpoint {
                count: 1200,
                head: "ab".repeat(32),
                at: "2024-12-03T15:04:05Z".into(),
                key: "k1".into(),
                signature: String::new(),
            },
            reanchor_reason: None,
            created_by: "ana".into(),
            created_at: "2024-12-03T15:04:06Z".into(),
        }
    }

    #[test]
    fn a_mismatch_and_a_missing_checkpoint_read_in_each_language() {
        let place = Place::Event {
            seq: 7,
            entity: "breaches".into(),
            entity_id: 2,
        };
        let reason = crate::said!("the row differs", "la fila difiere");
        let m = Line::Mismatch {
            place: &place,
            reason: &reason,
        };
        assert_eq!(
            line(Lang::En, &m),
            "AUDIT MISMATCH at event 7 (breaches 2): the row differs"
        );
        assert_eq!(
            line(Lang::Es, &m),
            "DISCREPANCIA EN LA AUDITORÍA en el evento N.º 7 (breaches 2): la fila difiere"
        );
        let r = recorded();
        let path = Path::new("r.db.checkpoints");
        // 15:04 UTC is 10:04 in Bogotá (UTC−5, no daylight saving)
        assert_eq!(
            not_in_log(Lang::Es, &r, path),
            "la cadena registra el punto de control firmado el 03/12/2024 10:04 (hora de \
             Colombia) a los 1.200 eventos (fila 3 de audit_checkpoints), que no está en \
             r.db.checkpoints: el registro se reemplazó por una copia más antigua o se recortó; \
             restáurelo de una copia de seguridad"
        );
        assert!(not_in_log(Lang::En, &r, path).contains("signed 2024-12-03T15:04:05Z at 1200"));
    }
}
