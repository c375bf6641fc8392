//! Adjudications: importing a file of them for a program, and voiding one recorded by mistake.
//! The file's rows are stored as they are read; a row whose award (program, holder document,
//! adjudication date) is already registered is judged here: unchanged, or a conflict saying what
//! differs. These rules then judge what was stored (one document, one holder; the program's
//! offer not exceeded) before the import is sealed by its audit event, or rolled back whole.

use super::{Act, Field, Record, Refusal, Result};
use crate::ids::DocType;
use crate::import::{AdjudicationRow, PersonType, RowError};
use crate::lang::Shown;
use crate::lang::{fecha, momento};
use crate::money::{format_cop, format_number};
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
/// overriding earlier ones; nothing when it is already the holder's current one). `bytes` is the
/// file `feed` reads: a refusal names each column as its header writes it
/// ([`crate::store::StoreError::headed`]; the header is read only then).
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    bytes: &[u8],
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
    // read only when a refusal names a column
    let header = std::cell::OnceCell::new();
    let column = |name: &'static str| {
        header
            .get_or_init(|| crate::import::Headed::of(bytes))
            .column(name)
            .to_string()
    };
    let written = match import::write(
        tx,
        program,
        file_name,
        import::Sha256::Known(sha256),
        encoding,
        &mut |r| judge(r, &program.program.code, &column),
        feed,
    )? {
        Write::AlreadyImported(prior) => return Ok(Imported::AlreadyImported(prior)),
        Write::Written(w) => *w,
    };
    let mut rows = written.file_problems.clone();
    // one document, one holder: within the file and against the register
    rows.extend(written.conflicts.iter().map(|c| {
        let (field, value, registered, registrado) = if c.name != c.registered_name {
            (
                "name",
                c.name.clone(),
                format!("{:?}", c.registered_name),
                format!("«{}»", c.registered_name),
            )
        } else {
            let persona = match c.registered_person_type {
                PersonType::Natural => "persona natural",
                PersonType::Legal => "persona jurídica",
            };
            (
                "person_type",
                c.person_type.as_str().to_string(),
                format!("a {} person", c.registered_person_type.as_str()),
                persona.to_string(),
            )
        };
        let (doc_type, doc_number, holder) = (c.doc_type, &c.doc_number, c.holder_id);
        RowError {
            line: c.line,
            field: field.into(),
            value,
            reason: said!(
                register_holdings::already_registered_as_holder_register_earlier,
                doc_type,
                doc_number,
                registered,
                holder,
                registrado
            ),
            remedy: None,
        }
    }));
    rows.extend(written.repeats.iter().cloned());
    let mut whole = Vec::new();
    let p = &program.program;
    let (already, offered, code) = (written.already, p.shares_offered, &p.code);
    let acciones = |n: u64| format_number(n.into());
    let (ya, ofrecidas) = (acciones(already), acciones(offered));
    match written.shares {
        Some(shares) if already.checked_add(shares).is_some_and(|t| t <= offered) => {}
        Some(shares) => {
            let adjudica = acciones(shares);
            whole.push(said!(
                register_holdings::file_adjudicates_shares_with_already_registered,
                shares,
                already,
                offered,
                code,
                adjudica,
                ya,
                ofrecidas
            ))
        }
        None => whole.push(said!(
            register_holdings::file_s_rows_add_up_more,
            code,
            offered,
            ofrecidas
        )),
    }
    // a first stage recorded as concluded outside vigia awarded so many shares: the holders
    // imported for it cannot come to more
    if let (Some(e), Some(shares)) = (
        crate::store::external::get(tx.conn(), program.id)?,
        written.shares,
    ) && already.checked_add(shares).is_none_or(|t| t > e.awarded)
    {
        let (awarded, acta, on) = (e.awarded, &e.acta, e.adjudicated_on);
        let (adjudicada, on_es) = (acciones(awarded), crate::lang::fecha(on));
        let adjudica = acciones(shares);
        whole.push(said!(
            register_holdings::file_adjudicates_shares_with_already_registered_2,
            shares,
            already,
            awarded,
            code,
            on,
            acta,
            adjudica,
            ya,
            adjudicada,
            on_es
        ));
    }
    if !rows.is_empty() || !whole.is_empty() {
        // the caller's transaction is rolled back: nothing of this import stays
        return Err(crate::store::rejected(rows, whole).headed(bytes).into());
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

/// [`import`] of `csv` named `a.csv`, read as `adjudications import` reads a file: the tests'
/// registers.
#[cfg(test)]
pub(crate) fn import_csv(tx: &mut Tx<'_>, program: &StoredProgram, csv: &str) -> Result<Imported> {
    import(
        tx,
        program,
        "a.csv",
        "sha",
        "UTF-8",
        csv.as_bytes(),
        |sink| Ok(crate::import::each(csv.as_bytes(), &program.program, sink)?.1),
    )
}

/// A row whose award (program, holder document, adjudication date) is already registered: the
/// same person is awarded once per program and date. Unchanged when the shares, the price per
/// share (the row's own or the program's fixed price), the lender, the financed shares and the
/// category are the same; otherwise refused, saying what differs (each column as `column` names
/// it: as the file's header writes it) and how to correct it. A row repeating an earlier line of
/// the same file is refused.
pub fn judge(
    r: &Repeated<'_>,
    program: &str,
    column: &dyn Fn(&'static str) -> String,
) -> std::result::Result<(), RowError> {
    let row = r.row;
    // the award in words only for a refusal (a re-import of a million rows passes here)
    let award = || {
        format!(
            "{} {} on {}",
            row.doc_type, row.doc_number, row.adjudicated_on
        )
    };
    let adjudicacion = || {
        format!(
            "{} {} el {}",
            row.doc_type,
            row.doc_number,
            fecha(row.adjudicated_on)
        )
    };
    let reg = &r.registered;
    if let Some(line) = reg.line_in_this_file {
        let (award, adjudicacion) = (award(), adjudicacion());
        return Err(RowError {
            line: row.line,
            field: "adjudicated_on".into(),
            value: row.adjudicated_on.to_string(),
            reason: said!(
                register_holdings::line_this_file_already_awards_holder,
                line,
                award,
                adjudicacion
            ),
            remedy: None,
        });
    }
    // a value, or none (a lender not given): as the file and the register have it, then as a
    // Spanish sentence writes it (es-CO figures: `1.000`, `$ 1.100`, `$ 963`)
    type Figure = Option<(String, String)>;
    let mut differs: Vec<(&'static str, Figure, Figure)> = Vec::new();
    let count = |n: u64| Some((n.to_string(), format_number(n.into())));
    let price = |p: rust_decimal::Decimal| Some((p.to_string(), format_cop(p)));
    let text = |t: &Option<String>| t.clone().map(|t| (t.clone(), t));
    if row.shares != reg.shares {
        differs.push(("shares", count(row.shares), count(reg.shares)));
    }
    if r.price_per_share != reg.price_per_share {
        differs.push((
            "price_per_share",
            price(r.price_per_share),
            price(reg.price_per_share),
        ));
    }
    if row.lender != reg.lender {
        differs.push(("lender", text(&row.lender), text(&reg.lender)));
    }
    if row.financed_shares != reg.financed_shares {
        differs.push((
            "financed_shares",
            count(row.financed_shares),
            count(reg.financed_shares),
        ));
    }
    if row.category != reg.category {
        differs.push((
            "category",
            Some((row.category.clone(), row.category.clone())),
            Some((reg.category.clone(), reg.category.clone())),
        ));
    }
    let Some((field, value, _)) = differs.first() else {
        return Ok(());
    };
    // `es`: the Spanish figures
    let listed = |registered: &str, none: &str, es: bool| {
        let shown = |v: &Figure| match v {
            Some((en, es_co)) => {
                if es {
                    es_co.clone()
                } else {
                    en.clone()
                }
            }
            None => none.to_string(),
        };
        let each: Vec<String> = differs
            .iter()
            .map(|(f, file, reg)| {
                let f = column(f);
                format!("{f} {}, {registered} {}", shown(file), shown(reg))
            })
            .collect();
        each.join("; ")
    };
    let (what, cifras) = (
        listed("registered", "none", false),
        listed("en el registro", "ninguno", true),
    );
    // the row's value; none given is the file's empty cell, quoted as such in either language
    let value = value
        .as_ref()
        .map_or_else(String::new, |(en, _)| en.clone());
    let (id, award, adjudicacion) = (reg.id, award(), adjudicacion());
    Err(RowError {
        line: row.line,
        field: (*field).into(),
        value,
        reason: said!(
            register_holdings::already_registered_as_adjudication_with_other,
            award,
            program,
            id,
            what,
            adjudicacion,
            cifras
        ),
        remedy: Some(crate::import::Remedy::CorrectLineOrVoid { adjudication: id }),
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
                register_holdings::was_voided_by_not_award_any,
                at,
                by,
                reason,
                at_es
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
            said!(register_holdings::say_why_adjudication_voided),
        )
        .into());
    }
    if let Some(refused) = void_blocked(tx.conn(), id)? {
        return Err(refused.into());
    }
    Ok(adjudications::void(tx, id, reason)?)
}

/// Why adjudication `id` may not be voided whatever the reason given, if it may not: it was
/// voided already, a breach that is not void is recorded against it, or a pledge is in force on
/// it (void or release those first). [`void`] asks it; a front end asks it before it offers the
/// void.
pub fn void_blocked(conn: &Connection, id: i64) -> Result<Option<Refusal>> {
    let a = adjudications::get(conn, id)?;
    if let Some(v) = &a.void {
        return Ok(Some(Refusal::value(
            Field::Adjudication,
            id,
            super::already_voided(v, true),
        )));
    }
    let live: Vec<_> = breaches::list(conn, Some(id), None)?
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
        return Ok(Some(Refusal::Blocked {
            field: Field::Adjudication,
            value: id.said(),
            reason: said!(
                register_holdings::has_recorded_against_void_them_first,
                list,
                tiene,
                lista,
                si
            ),
            first: Box::new(Act::Void(Record::Breach)),
        }));
    }
    let in_force: Vec<_> = pledges::list(conn, id)?
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
        return Ok(Some(Refusal::Blocked {
            field: Field::Adjudication,
            value: id.said(),
            reason: said!(register_holdings::has_force_void_first_if_was, list, lista),
            first: Box::new(Act::Void(Record::Pledge)),
        }));
    }
    Ok(None)
}
