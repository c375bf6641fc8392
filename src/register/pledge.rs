//! Pledges of adjudicated shares to the sellers (Art. 10): what a new pledge may be (one at a time
//! or a file of them, under one rule; a file may name the adjudication by its holder's
//! document), when the pledges of an adjudication may be released, one at a time or every
//! releasable one at once, and when a pledge registered by mistake may be voided. Read inside
//! the write transaction.

use super::liquidation::outstanding;
use super::{Error, Field, Refusal, Result};
use crate::calendar::FineScale;
use crate::fine::StagePrice;
use crate::import::{PledgeOf, RowError};
use crate::lang::{Lang, Said, Shown, fecha};
use crate::money::format_cop;
use crate::rates::RateSeries;
use crate::said;
use crate::store::Tx;
use crate::store::adjudications;
use crate::store::breaches;
use crate::store::pledges::{
    self, Candidate, ImportRules, Named, NewPledge, PledgesImported, Verdict,
};
use crate::store::programs;
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

/// Art. 10's rules for a new pledge: of an adjudication that is not void, of the first or second
/// degree, registered on or after the adjudication and not after `today` (the officer's date, as
/// the front end knows it), second degree only with a financing lender (the pledge's own or the
/// adjudication's), and of shares no pledge in force covers ([`shares`]). The same pledge (rank,
/// date and lender, and shares when given) already registered, and not by the file being
/// imported, is unchanged: nothing to add. Otherwise returns the lender and the shares the new
/// pledge records.
pub fn rules(c: &Candidate<'_>, today: NaiveDate) -> std::result::Result<Verdict, Refusal> {
    if !(1..=2).contains(&c.rank) {
        return Err(Refusal::value(
            Field::PledgeRank,
            c.rank,
            said!(register_holdings::must_1_first_degree_2_second),
        ));
    }
    if c.adjudication_void {
        return Err(Refusal::value(
            Field::Adjudication,
            c.adjudication_id,
            said!(register_holdings::was_voided_not_award_any_more),
        ));
    }
    let lender = c.lender.or(c.financed_by);
    if let Some(same) = c.registered.iter().find(|e| {
        e.line.is_none()
            && e.rank == c.rank
            && e.registered_on == c.registered_on
            && e.lender.as_deref() == lender
            && c.shares.is_none_or(|n| n == e.shares)
    }) {
        return Ok(Verdict::Unchanged { pledge_id: same.id });
    }
    let id = c.adjudication_id;
    if c.registered_on < c.adjudicated_on {
        // the sentence only for a refusal (a million-row import passes here)
        let (adjudicated, adjudicated_es) = (c.adjudicated_on, fecha(c.adjudicated_on));
        return Err(Refusal::value(
            Field::RegisteredOn,
            c.registered_on,
            said!(
                register_holdings::before_adjudication_pledge_registered_after_shares,
                adjudicated,
                adjudicated_es
            ),
        ));
    }
    if c.registered_on > today {
        let today_es = fecha(today);
        return Err(Refusal::value(
            Field::RegisteredOn,
            c.registered_on,
            said!(
                register_holdings::after_today_register_pledge_once_has,
                today,
                today_es
            ),
        ));
    }
    let lender = lender.map(str::to_string);
    if c.rank == 2 && lender.is_none() {
        return Err(Refusal::Value {
            field: Field::PledgeRank,
            value: c.rank.said(),
            reason: said!(
                register_holdings::adjudication_has_no_financing_lender_second,
                id
            ),
            remedy: Some(Field::Lender),
        });
    }
    let shares = super::pledge_shares::shares(c)?;
    Ok(Verdict::New { lender, shares })
}

/// A pledge just registered, or the same one registered before (`unchanged`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    pub id: i64,
    pub shares: u64,
    pub beneficiary: String,
    pub unchanged: bool,
}

/// Registers the pledge of an adjudication's shares to the sellers of its program, under
/// [`rules`]: of `shares` of them, or (`None`) of every share no pledge in force covers.
pub fn register(
    tx: &mut Tx<'_>,
    adjudication_id: i64,
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
    shares: Option<u64>,
    today: NaiveDate,
) -> Result<Registered> {
    let adj = adjudications::get(tx.conn(), adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let (registered, in_force) = pledges::registered(tx.conn(), adjudication_id)?;
    let verdict = rules(
        &Candidate {
            rank,
            registered_on,
            lender,
            shares,
            registered: &registered,
            ..candidate(&adj, &in_force)
        },
        today,
    )?;
    let beneficiary = program.program.pledge_beneficiary();
    let (lender, shares) = match verdict {
        Verdict::New { lender, shares } => (lender, shares),
        Verdict::Unchanged { pledge_id } => {
            let shares = registered
                .iter()
                .find(|e| e.id == pledge_id)
                .map_or(adj.shares, |e| e.shares);
            return Ok(Registered {
                id: pledge_id,
                shares,
                beneficiary,
                unchanged: true,
            });
        }
    };
    let id = pledges::insert(
        tx,
        &NewPledge {
            adjudication_id,
            rank,
            beneficiary: &beneficiary,
            shares,
            lender: lender.as_deref(),
            registered_on,
        },
    )?;
    Ok(Registered {
        id,
        shares,
        beneficiary,
        unchanged: false,
    })
}

/// Why no pledge at all may be registered on adjudication `adjudication_id` today, whatever is
/// typed, if none may: [`rules`] asked of the pledge any form could send (of the first degree,
/// registered on the adjudication's day, of every share no pledge in force covers), so its
/// refusal is one no input answers: the adjudication was voided, or the pledges in force cover
/// every share. A front end asks it before it offers the pledge's form.
pub fn register_blocked(conn: &Connection, adjudication_id: i64) -> Result<Option<Refusal>> {
    let adj = adjudications::get(conn, adjudication_id)?;
    let (_, in_force) = pledges::registered(conn, adjudication_id)?;
    Ok(rules(&candidate(&adj, &in_force), adj.adjudicated_on).err())
}

/// The pledge any form could send on `adj` (of the first degree, registered on the
/// adjudication's day, of every share no pledge in force covers, none registered before: never
/// "the same pledge again"), with what the rules read of the adjudication; [`register`] sets
/// what was typed over it.
fn candidate<'a>(
    adj: &'a adjudications::Adjudication,
    in_force: &'a [crate::store::pledges::InForce],
) -> Candidate<'a> {
    Candidate {
        adjudication_id: adj.id,
        adjudication_void: adj.void.is_some(),
        adjudicated_on: adj.adjudicated_on,
        adjudicated: adj.shares,
        financed_by: adj.lender.as_deref(),
        financed_shares: adj.financed_shares,
        rank: 1,
        registered_on: adj.adjudicated_on,
        lender: None,
        shares: None,
        in_force,
        registered: &[],
    }
}

/// A row of a pledge file refused by [`rules`], in the file's columns (the line is the store's
/// to set). A pledge this file wrote is named by its line (see [`super::pledge_shares`]).
fn row_problem(c: &Candidate<'_>, refusal: Refusal) -> RowError {
    let (field, value, reason) = match refusal {
        Refusal::Value {
            field: Field::RegisteredOn,
            reason,
            ..
        } => ("registered_on", c.registered_on.to_string(), reason),
        Refusal::Value {
            field: Field::PledgeRank,
            reason,
            ..
        } => ("rank", c.rank.to_string(), reason),
        Refusal::Value {
            field: Field::Shares,
            reason,
            ..
        } => (
            "shares",
            c.shares.map(|n| n.to_string()).unwrap_or_default(),
            reason,
        ),
        other => (
            "adjudication_id",
            c.adjudication_id.to_string(),
            match other {
                Refusal::Value { reason, .. }
                | Refusal::Blocked { reason, .. }
                | Refusal::Waits { reason, .. }
                | Refusal::Rule(reason) => reason,
                Refusal::OneOf(..) | Refusal::Repeat { .. } => Said::new(
                    other.describe(Lang::En, |f| f.as_str().into(), |f| f.as_str().into()),
                    other.describe(Lang::Es, |f| f.as_str().into(), |f| f.as_str().into()),
                ),
            },
        ),
    };
    RowError {
        line: 0,
        field: field.into(),
        value,
        reason,
        remedy: None,
    }
}

/// The rules of a pledge file: [`which`] adjudication a holder's document names, then [`rules`]
/// as of `today`.
struct FileRules {
    today: NaiveDate,
}

impl ImportRules for FileRules {
    fn which(&mut self, of: &PledgeOf, found: &[Named]) -> std::result::Result<i64, RowError> {
        which(of, found)
    }

    fn judge(&mut self, c: &Candidate<'_>) -> std::result::Result<Verdict, RowError> {
        rules(c, self.today).map_err(|r| row_problem(c, r))
    }
}

/// The adjudication a row of a pledge file names by its holder's document: the one adjudication
/// (not void) `found` for it, narrowed to the row's date and program when given. None, or
/// several, is the row's problem, saying what to add.
pub fn which(of: &PledgeOf, found: &[Named]) -> std::result::Result<i64, RowError> {
    let PledgeOf::Holder {
        doc_type,
        doc_number,
        adjudicated_on,
        program,
    } = of
    else {
        return Err(RowError {
            line: 0,
            field: "adjudication_id".into(),
            value: String::new(),
            reason: Said::new(
                "the row names its adjudication by id",
                "la fila nombra su adjudicación por número",
            ),
            remedy: None,
        });
    };
    let narrowed = match (adjudicated_on, program) {
        (Some(d), Some(p)) => format!(" adjudicated on {d} in {p}"),
        (Some(d), None) => format!(" adjudicated on {d}"),
        (None, Some(p)) => format!(" in {p}"),
        (None, None) => String::new(),
    };
    let acotada = match (adjudicated_on, program) {
        (Some(d), Some(p)) => format!(" adjudicada el {} en {p}", fecha(*d)),
        (Some(d), None) => format!(" adjudicada el {}", fecha(*d)),
        (None, Some(p)) => format!(" en {p}"),
        (None, None) => String::new(),
    };
    match found {
        [one] => Ok(one.adjudication_id),
        [] => Err(RowError {
            line: 0,
            field: "doc_number".into(),
            value: doc_number.clone(),
            reason: said!(
                register_holdings::has_no_adjudication_register_voided_ones,
                doc_type,
                doc_number,
                narrowed,
                acotada
            ),
            remedy: None,
        }),
        several => {
            let list = |date: fn(NaiveDate) -> String| {
                let each: Vec<String> = several
                    .iter()
                    .map(|n| {
                        format!(
                            "{} ({}, {})",
                            n.adjudication_id,
                            n.program,
                            date(n.adjudicated_on)
                        )
                    })
                    .collect();
                each.join(", ")
            };
            let (list, lista) = (list(|d| d.to_string()), list(fecha));
            // in Spanish, a column by its Spanish header and vigia's name (the file may be
            // written with either; it does not have this column yet)
            let columna = |name: &str| format!("«{}» ({name})", crate::headers::spanish(name));
            let (add, agregue) = if several
                .iter()
                .all(|n| n.adjudicated_on == several[0].adjudicated_on)
            {
                (
                    "the column program".to_string(),
                    format!("la columna {}", columna("program")),
                )
            } else {
                (
                    "the column adjudicated_on (and program, if needed)".to_string(),
                    format!(
                        "la columna {} (y {}, si hace falta)",
                        columna("adjudicated_on"),
                        columna("program")
                    ),
                )
            };
            let n = several.len();
            Err(RowError {
                line: 0,
                field: "doc_number".into(),
                value: doc_number.clone(),
                reason: said!(
                    register_holdings::has_adjudications_add_say_which_give,
                    doc_type,
                    doc_number,
                    n,
                    narrowed,
                    list,
                    add,
                    acotada,
                    lista,
                    agregue
                ),
                remedy: None,
            })
        }
    }
}

/// Registers the pledges of a file (see [`crate::import::each_pledge`]), every row under
/// [`rules`] (a pledge earlier in the file counts as in force; a row naming its adjudication by
/// the holder's document is resolved by [`which`]): all of them, or none with every problem by
/// line. Rows whose pledge is already registered are reported unchanged; the same file twice
/// adds nothing. `today` is the officer's date: no pledge is registered after it. `bytes` is the
/// file `feed` reads: a refusal names each column as its header writes it
/// ([`crate::store::StoreError::headed`]).
pub fn import(
    tx: &mut Tx<'_>,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    bytes: &[u8],
    today: NaiveDate,
    feed: impl FnOnce(
        &mut dyn FnMut(crate::import::PledgeRow) -> crate::store::Result<()>,
    ) -> crate::store::Result<Vec<RowError>>,
) -> Result<PledgesImported> {
    pledges::import(
        tx,
        file_name,
        sha256,
        encoding,
        &mut FileRules { today },
        feed,
    )
    .map_err(|e| e.headed(bytes).into())
}

/// Voids a pledge registered by mistake (not a release: a release ends a pledge that was
/// rightly registered): it stays on record, marked void, with who, when and why, and no rule or
/// figure counts it. Refused without a reason, for one already voided, and for one released (the
/// release is history: the pledge did exist until then).
pub fn void(tx: &mut Tx<'_>, pledge_id: i64, reason: &str) -> Result<i64> {
    if reason.trim().is_empty() {
        return Err(Refusal::value(
            Field::VoidReason,
            reason,
            said!(register_holdings::say_why_pledge_voided),
        )
        .into());
    }
    let p = pledges::get(tx.conn(), pledge_id)?;
    if let Some(v) = &p.void {
        return Err(
            Refusal::value(Field::Pledge, pledge_id, super::already_voided(v, true)).into(),
        );
    }
    if let Some(on) = p.released_on {
        let on_es = fecha(on);
        return Err(Refusal::value(
            Field::Pledge,
            pledge_id,
            said!(
                register_holdings::was_released_release_history_pledge_secured,
                on,
                on_es
            ),
        )
        .into());
    }
    Ok(pledges::void(tx, pledge_id, reason)?)
}

/// A release dated after `today` (the officer's date): refused, as a release is recorded once
/// it has been inscribed in the share ledger (and the fine it waits for is owed as of that day).
fn not_after_today(on: NaiveDate, today: NaiveDate) -> std::result::Result<(), Refusal> {
    if on > today {
        let today_es = fecha(today);
        return Err(Refusal::value(
            Field::ReleaseDate,
            on,
            said!(
                register_holdings::after_today_record_release_once_has,
                today,
                today_es
            ),
        ));
    }
    Ok(())
}

/// Whether the pledges of an adjudication may be released on `on` (Art. 10: after the lock-up's
/// last day, with no fine of the adjudication outstanding on that date: every pledge in force
/// secures the whole fine), or why not.
fn may_release(
    conn: &Connection,
    adj: &adjudications::Adjudication,
    scale: &FineScale,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<std::result::Result<(), Refusal>> {
    let lockup_end = scale
        .lockup_end(adj.adjudicated_on)
        .unwrap_or(adj.adjudicated_on);
    let id = adj.id;
    if on <= lockup_end {
        let free = lockup_end.succ_opt().unwrap_or(lockup_end);
        let (end_es, free_es) = (fecha(lockup_end), fecha(free));
        return Ok(Err(Refusal::value(
            Field::ReleaseDate,
            on,
            said!(
                register_holdings::lock_up_adjudication_runs_until_pledge,
                id,
                lockup_end,
                free,
                end_es,
                free_es
            ),
        )));
    }
    let breaches: Vec<_> = breaches::list(conn, Some(adj.id), None)?
        .into_iter()
        .filter(|b| b.void.is_none())
        .collect();
    // read only for an adjudication with breaches (a bulk release walks many without); as the
    // program's fine takes it (a program that does not count it has no fine to grow)
    let stage = match breaches.is_empty() {
        true => StagePrice::Absent,
        false => programs::by_id(conn, adj.program_id)?
            .program
            .stage_counted(programs::stage_price(conn, adj.program_id)?),
    };
    for b in &breaches {
        let due = outstanding(conn, b.id, on, rates)?;
        if due > Decimal::ZERO {
            let (breach, due) = (b.id, format_cop(due));
            let on_es = fecha(on);
            return Ok(Err(Refusal::value(
                Field::ReleaseDate,
                on,
                said!(
                    register_holdings::fine_breach_outstanding_as_pledge_secures,
                    breach,
                    due,
                    on,
                    on_es
                ),
            )));
        }
        // paid to date, but not final: a later stage may raise it
        if crate::fine::may_grow(stage, b.breach_date, lockup_end) {
            let breach = b.id;
            let why = match stage {
                StagePrice::SoFar(p) => {
                    let price = format_cop(p);
                    said!(
                        register_holdings::fine_breach_provisional_so_far_pledge_secures,
                        breach,
                        price
                    )
                }
                _ => said!(
                    register_holdings::fine_breach_provisional_stage_pending_pledge_secures,
                    breach
                ),
            };
            return Ok(Err(Refusal::value(Field::ReleaseDate, on, why)));
        }
    }
    Ok(Ok(()))
}

/// A release dated before the pledge it ends was registered: refused.
fn not_before(p: &pledges::Pledge, on: NaiveDate) -> std::result::Result<(), Refusal> {
    if p.registered_on > on {
        let (pledge, id) = (p.id, p.adjudication_id);
        let (registered, registered_es) = (p.registered_on, fecha(p.registered_on));
        return Err(Refusal::value(
            Field::ReleaseDate,
            on,
            said!(
                register_holdings::pledge_adjudication_was_registered_release_ends,
                pledge,
                id,
                registered,
                registered_es
            ),
        ));
    }
    Ok(())
}

/// The pledges in force on an adjudication that may be released on `on` ([`may_release`], and
/// not before a pledge was registered), or why not.
fn releasable(
    conn: &Connection,
    adj: &adjudications::Adjudication,
    scale: &FineScale,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<std::result::Result<Vec<i64>, Refusal>> {
    if let Err(why) = may_release(conn, adj, scale, on, rates)? {
        return Ok(Err(why));
    }
    let id = adj.id;
    let active: Vec<pledges::Pledge> = pledges::list(conn, adj.id)?
        .into_iter()
        .filter(|p| p.released_on.is_none() && p.void.is_none())
        .collect();
    if active.is_empty() {
        return Ok(Err(Refusal::Rule(said!(
            register_holdings::adjudication_has_no_pledge_force_release,
            id
        ))));
    }
    if let Some(why) = active.iter().find_map(|p| not_before(p, on).err()) {
        return Ok(Err(why));
    }
    Ok(Ok(active.into_iter().map(|p| p.id).collect()))
}

/// Releases every pledge in force on an adjudication, if the lock-up has ended and no fine of
/// the adjudication is outstanding on `on` (not after `today`, nor before a pledge it releases
/// was registered). Returns the release ids.
pub fn release(
    tx: &mut Tx<'_>,
    adjudication_id: i64,
    on: NaiveDate,
    today: NaiveDate,
    rates: &RateSeries,
) -> Result<Vec<i64>> {
    not_after_today(on, today)?;
    let adj = adjudications::get(tx.conn(), adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let pledges = releasable(tx.conn(), &adj, &program.scale()?, on, rates)??;
    let mut out = Vec::new();
    for pledge_id in pledges {
        out.push(pledges::release(tx, pledge_id, on)?);
    }
    Ok(out)
}

/// Releases one pledge (of several in force on an adjudication, say, inscribed in the share
/// ledger on different days) under the rules of [`release`]: it is in force (not released, not
/// void), the lock-up has ended, no fine of its adjudication is outstanding on `on`, and it was
/// registered on or before `on`. Returns the release id.
pub fn release_pledge(
    tx: &mut Tx<'_>,
    pledge_id: i64,
    on: NaiveDate,
    today: NaiveDate,
    rates: &RateSeries,
) -> Result<i64> {
    not_after_today(on, today)?;
    let p = pledges::get(tx.conn(), pledge_id)?;
    if let Some(v) = &p.void {
        return Err(
            Refusal::value(Field::Pledge, pledge_id, super::already_voided(v, true)).into(),
        );
    }
    if let Some(released) = p.released_on {
        let released_es = fecha(released);
        return Err(Refusal::value(
            Field::Pledge,
            pledge_id,
            said!(
                register_holdings::was_released_already,
                released,
                released_es
            ),
        )
        .into());
    }
    let adj = adjudications::get(tx.conn(), p.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    may_release(tx.conn(), &adj, &program.scale()?, on, rates)??;
    not_before(&p, on)?;
    Ok(pledges::release(tx, pledge_id, on)?)
}

/// What a release in bulk did: adjudications, and the range of release ids written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Released {
    pub adjudications: usize,
    pub first_id: i64,
    pub last_id: i64,
}

/// Releases the pledges of every adjudication in `candidates` (as the batch check finds them:
/// `PLEDGE_RELEASABLE` on `on`), each checked again under the rules of [`release`] in
/// this transaction; refused, with every reason, if any of them may not be released (and as a
/// whole when `on` is after `today`). One audit event covers all the releases. `None` when there
/// is nothing to release.
pub fn release_many(
    tx: &mut Tx<'_>,
    candidates: &[i64],
    on: NaiveDate,
    today: NaiveDate,
    rates: &RateSeries,
) -> Result<Option<Released>> {
    not_after_today(on, today)?;
    let mut scales = programs::Scales::default();
    let mut problems = Vec::new();
    let (mut first_id, mut last_id) = (0, 0);
    let on_text = on.to_string();
    for &id in candidates {
        let adj = adjudications::get(tx.conn(), id)?;
        let scale = scales.get(tx.conn(), adj.program_id)?;
        match releasable(tx.conn(), &adj, scale, on, rates)? {
            Err(why) => problems.push(why),
            Ok(pledges) => {
                for pledge_id in pledges {
                    last_id = tx.insert_unaudited(
                        "pledge_releases",
                        &[("pledge_id", &pledge_id), ("released_on", &on_text)],
                    )?;
                    if first_id == 0 {
                        first_id = last_id;
                    }
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::Refusals(problems));
    }
    if first_id == 0 {
        return Ok(None);
    }
    tx.audit_bulk(
        crate::store::Action::PledgeReleaseReleasable,
        "pledge_releases",
        first_id,
        &[crate::store::audit::Cover {
            table: "pledge_releases",
            first: first_id,
            last: last_id,
            digest: None,
        }],
    )?;
    Ok(Some(Released {
        adjudications: candidates.len(),
        first_id,
        last_id,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{register, today};
    use super::super::{Error, pledge};
    use crate::store::Tx;

    #[test]
    fn the_imports_store_no_dangling_reference_and_leave_sqlites_checks_on() {
        use rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_FKEY as FKEY;
        // the imports write with SQLite's foreign-key checks off and check each reference
        // themselves: after one that was stored and one that was refused, the checks are on again
        // and nothing stored points at a row that is not there
        let mut s = register();
        assert!(
            s.conn().db_config(FKEY).unwrap(),
            "on after the adjudications import"
        );
        let pledges = |csv: &'static str, sha: &'static str| {
            move |tx: &mut Tx<'_>| {
                pledge::import(tx, "p.csv", sha, "UTF-8", csv.as_bytes(), today(), |sink| {
                    Ok(crate::import::each_pledge(csv.as_bytes(), sink)?.1)
                })
            }
        };
        s.write::<_, Error>(
            "t",
            pledges("adjudication_id,rank,registered_on\n1,1,2024-04-01\n", "p1"),
        )
        .unwrap();
        assert!(
            s.conn().db_config(FKEY).unwrap(),
            "on after the pledge import"
        );
        // a pledge of an adjudication the register does not have is refused by the import's rule
        let e = s.write::<_, Error>(
            "t",
            pledges(
                "adjudication_id,rank,registered_on\n2,1,2024-04-01\n99,1,2024-04-01\n",
                "p2",
            ),
        );
        assert!(
            matches!(
                e,
                Err(Error::Store(crate::store::StoreError::Rejected(ref rows)))
                    if matches!(rows[..], [crate::store::Problem::Row(ref r)] if r.line == 3)
            ),
            "{e:?}"
        );
        assert!(
            s.conn().db_config(FKEY).unwrap(),
            "on after a refused import"
        );
        let dangling: i64 = s
            .conn()
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(dangling, 0);
        let stored: Vec<(i64, i64)> = s
            .conn()
            .prepare("SELECT id, adjudication_id FROM pledges ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(stored, [(1, 1)], "the refused import left nothing");
        // and SQLite's checks are really on: a row of no adjudication is refused by SQLite itself
        let e = s
            .conn()
            .execute(
                "INSERT INTO pledges (adjudication_id, rank, beneficiary, shares, registered_on, created_at, created_by)
                 VALUES (99, 1, 'x', 1, '2024-04-01', 'now', 't')",
                [],
            )
            .unwrap_err();
        assert!(e.to_string().contains("FOREIGN KEY"), "{e}");
    }
}
