//! Adjudications: importing a file of them for a program, and voiding one recorded by mistake.
//! The file's rows are stored as they are read; a row whose award (program, holder document,
//! adjudication date) is already registered is judged here: unchanged, or a conflict saying what
//! differs. These rules then judge what was stored (one document, one holder; the program's
//! offer not exceeded) before the import is sealed by its audit event, or rolled back whole.

use super::{Field, Refusal, Result};
use crate::ids::DocType;
use crate::import::{AdjudicationRow, RowError};
use crate::lang::{fecha, momento};
use crate::said;
use crate::store::Tx;
use crate::store::adjudications::{self, Adjudication};
use crate::store::breaches;
use crate::store::contacts::{self, Contact};
use crate::store::import::{self, Imported, Repeated, Write};
use crate::store::pledges;
use crate::store::programs::StoredProgram;
use rusqlite::Connection;
use std::collections::BTreeMap;

/// Imports a file of adjudications for `program` in the caller's transaction, as `feed` reads it
/// (see [`import::write`]): the new rows are added, the rows already registered as they are
/// reported unchanged; all of it, or nothing with every problem by line. The same file twice
/// adds nothing. A row that gives the holder's address, city or e-mail records a new version of
/// the holder's contact details as `holder update` does (one per holder, the file's later rows
/// overriding earlier ones; nothing when it is already the holder's current one).
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(
        &mut dyn FnMut(AdjudicationRow) -> crate::store::Result<()>,
    ) -> crate::store::Result<Vec<RowError>>,
) -> Result<Imported> {
    // each holder's contact as the file gives it, by document
    let mut given: BTreeMap<(DocType, String), Contact> = BTreeMap::new();
    let feed = |sink: &mut dyn FnMut(AdjudicationRow) -> crate::store::Result<()>| {
        feed(&mut |row: AdjudicationRow| {
            if let Some(c) = &row.contact {
                let into = given
                    .entry((row.doc_type, row.doc_number.clone()))
                    .or_default();
                for (to, from) in [
                    (&mut into.address, &c.address),
                    (&mut into.city, &c.city),
                    (&mut into.email, &c.email),
                ] {
                    if from.is_some() {
                        to.clone_from(from);
                    }
                }
            }
            sink(row)
        })
    };
    let written = match import::write(
        tx,
        program,
        file_name,
        sha256,
        encoding,
        &mut |r| judge(r, &program.program.code),
        feed,
    )? {
        Write::AlreadyImported(prior) => return Ok(Imported::AlreadyImported(prior)),
        Write::Written(w) => *w,
    };
    let mut rows = written.file_problems.clone();
    // one document, one holder: within the file and against the register
    rows.extend(written.conflicts.iter().map(|c| {
        let (field, value, registered) = if c.name != c.registered_name {
            ("name", c.name.clone(), format!("{:?}", c.registered_name))
        } else {
            (
                "person_type",
                c.person_type.as_str().to_string(),
                format!("a {} person", c.registered_person_type.as_str()),
            )
        };
        RowError {
            line: c.line,
            field: field.into(),
            value,
            reason: format!(
                "{} {} is already registered as {registered} (holder {}, in the register or earlier in this file); one document, one holder",
                c.doc_type, c.doc_number, c.holder_id
            ),
        }
    }));
    rows.extend(written.repeats.iter().cloned());
    let mut whole = Vec::new();
    let p = &program.program;
    match written.shares {
        Some(shares) if written.already.checked_add(shares).is_some_and(|t| t <= p.shares_offered) => {}
        Some(shares) => whole.push(format!(
            "the file adjudicates {shares} shares; with the {} already registered that exceeds the {} offered by {}",
            written.already, p.shares_offered, p.code
        )),
        None => whole.push(format!(
            "the file's rows add up to more shares than can be counted; {} offers {}",
            p.code, p.shares_offered
        )),
    }
    if !rows.is_empty() || !whole.is_empty() {
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(crate::store::rejected(rows, whole).into());
    }
    let imported = import::seal(tx, written)?;
    for ((doc_type, doc_number), c) in &given {
        let holder = super::holder::find(tx.conn(), doc_number, Some(*doc_type))?;
        let current = contacts::current(tx.conn(), holder.id)?.unwrap_or_default();
        let keep = |new: &Option<String>, old: &Option<String>| new.clone().or(old.clone());
        let next = Contact {
            address: keep(&c.address, &current.address),
            city: keep(&c.city, &current.city),
            email: keep(&c.email, &current.email),
        };
        if next == current {
            continue;
        }
        let update = super::holder::Update {
            address: c.address.clone(),
            city: c.city.clone(),
            email: c.email.clone(),
        };
        super::holder::update(tx, holder.id, &update)?;
    }
    Ok(imported)
}

/// A row whose award (program, holder document, adjudication date) is already registered: the
/// same person is awarded once per program and date. Unchanged when the shares, the price per
/// share (the row's own or the program's fixed price), the lender, the financed shares and the
/// category are the same; otherwise refused, saying what differs and how to correct it. A row
/// repeating an earlier line of the same file is refused.
pub fn judge(r: &Repeated<'_>, program: &str) -> std::result::Result<(), RowError> {
    let row = r.row;
    let award = format!(
        "{} {} on {}",
        row.doc_type, row.doc_number, row.adjudicated_on
    );
    let reg = &r.registered;
    if let Some(line) = reg.line_in_this_file {
        return Err(RowError {
            line: row.line,
            field: "adjudicated_on".into(),
            value: row.adjudicated_on.to_string(),
            reason: format!(
                "line {line} of this file already awards {award}; a holder is awarded once per program and date: \
                 keep one line (with the award's total shares)"
            ),
        });
    }
    let text = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".into());
    let mut differs: Vec<(&str, String, String)> = Vec::new();
    if row.shares != reg.shares {
        differs.push(("shares", row.shares.to_string(), reg.shares.to_string()));
    }
    if r.price_per_share != reg.price_per_share {
        differs.push((
            "price_per_share",
            r.price_per_share.to_string(),
            reg.price_per_share.to_string(),
        ));
    }
    if row.lender != reg.lender {
        differs.push(("lender", text(&row.lender), text(&reg.lender)));
    }
    if row.financed_shares != reg.financed_shares {
        differs.push((
            "financed_shares",
            row.financed_shares.to_string(),
            reg.financed_shares.to_string(),
        ));
    }
    if row.category != reg.category {
        differs.push(("category", row.category.clone(), reg.category.clone()));
    }
    let Some((field, value, _)) = differs.first() else {
        return Ok(());
    };
    let what: Vec<String> = differs
        .iter()
        .map(|(f, file, registered)| format!("{f} {file}, registered {registered}"))
        .collect();
    Err(RowError {
        line: row.line,
        field: (*field).into(),
        value: value.clone(),
        reason: format!(
            "{award} is already registered in {program} as adjudication {} with other figures ({}); \
             if the register is right, correct the line; if the file is, void adjudication {} \
             (`vigia adjudications void {} --reason TEXT`) and import the file again",
            reg.id,
            what.join("; "),
            reg.id,
            reg.id
        ),
    })
}

/// An adjudication that is not void: what a pledge or a breach may be recorded against.
pub fn live(conn: &Connection, id: i64) -> Result<Adjudication> {
    let a = adjudications::get(conn, id)?;
    if let Some(v) = &a.void {
        let (at, by, reason) = (&v.at, &v.by, &v.reason);
        let at_es = momento(at);
        return Err(Refusal::value(
            Field::Adjudication,
            id,
            said!(
                "was voided on {at} by {by} ({reason}); it is not an award any more",
                "fue anulada el {at_es} por {by} ({reason}); ya no es una adjudicación vigente"
            ),
        )
        .into());
    }
    Ok(a)
}

/// Voids an adjudication recorded by mistake: it stays on record, marked void, with who, when
/// and why; no figure counts it any more, and its award (holder and date) may be imported again.
/// Refused without a reason, for one already voided, and while something depends on it: a breach
/// that is not void, or a pledge in force (void or release those first).
pub fn void(tx: &mut Tx<'_>, id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(Refusal::value(
            Field::VoidReason,
            reason,
            said!(
                "say why the adjudication is voided",
                "indique por qué se anula la adjudicación"
            ),
        )
        .into());
    }
    let a = adjudications::get(tx.conn(), id)?;
    if let Some(v) = &a.void {
        return Err(Refusal::value(Field::Adjudication, id, super::already_voided(v, true)).into());
    }
    let live: Vec<_> = breaches::list(tx.conn(), Some(id), None)?
        .into_iter()
        .filter(|b| b.void.is_none())
        .collect();
    if !live.is_empty() {
        let list = live
            .iter()
            .map(|b| format!("breach {} ({} on {})", b.id, b.kind.as_str(), b.breach_date))
            .collect::<Vec<_>>()
            .join(", ");
        let lista = live
            .iter()
            .map(|b| {
                format!(
                    "el incumplimiento N.º {} ({} del {})",
                    b.id,
                    b.kind.label_es(),
                    fecha(b.breach_date)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let (tiene, si) = if live.len() == 1 {
            (
                "tiene registrado",
                "si se registró por error, anúlelo primero",
            )
        } else {
            (
                "tiene registrados",
                "si se registraron por error, anúlelos primero",
            )
        };
        return Err(Refusal::value(
            Field::Adjudication,
            id,
            said!(
                "has {list} recorded against it; void them first (`vigia breach void ID --reason TEXT`) if they were recorded by mistake",
                "{tiene} {lista}; {si}"
            ),
        )
        .into());
    }
    let in_force: Vec<_> = pledges::list(tx.conn(), id)?
        .into_iter()
        .filter(|p| p.released_on.is_none() && p.void.is_none())
        .collect();
    if !in_force.is_empty() {
        let list = in_force
            .iter()
            .map(|p| {
                format!(
                    "pledge {} (rank {}, registered {})",
                    p.id, p.rank, p.registered_on
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let lista = in_force
            .iter()
            .map(|p| {
                format!(
                    "la prenda N.º {} (de grado {}, inscrita el {})",
                    p.id,
                    p.rank,
                    fecha(p.registered_on)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Refusal::value(
            Field::Adjudication,
            id,
            said!(
                "has {list} in force; void it first (`vigia pledge void ID --reason TEXT`) if it was registered by mistake",
                "tiene vigente {lista}; si se inscribió por error, anúlela primero"
            ),
        )
        .into());
    }
    Ok(adjudications::void(tx, id, reason)?)
}
