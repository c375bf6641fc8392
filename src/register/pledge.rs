//! Pledges of adjudicated shares to the sellers (Art. 10): what a new pledge may be (one at a time
//! or a file of them, under one rule), and when the pledges of an adjudication may be released,
//! one at a time or every releasable one at once. Read inside the write transaction.

use super::liquidation::outstanding;
use super::{Error, Field, Refusal, Result};
use crate::calendar::FineScale;
use crate::import::RowError;
use crate::rates::RateSeries;
use crate::store::Tx;
use crate::store::adjudications;
use crate::store::breaches;
use crate::store::pledges::{self, Candidate, NewPledge, PledgesImported};
use crate::store::programs;
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

/// Art. 10's rules for a new pledge: registered on or after the adjudication, second degree only
/// with a financing lender (the pledge's own or the adjudication's), and no other pledge in
/// force. Returns the lender the pledge records.
pub fn rules(c: &Candidate<'_>) -> std::result::Result<Option<String>, Refusal> {
    if c.registered_on < c.adjudicated_on {
        return Err(Refusal::value(
            Field::RegisteredOn,
            c.registered_on,
            format!(
                "is before the adjudication on {}; a pledge is registered after the shares are adjudicated",
                c.adjudicated_on
            ),
        ));
    }
    let lender = c.lender.or(c.financed_by).map(str::to_string);
    if c.rank == 2 && lender.is_none() {
        return Err(Refusal::Value {
            field: Field::PledgeRank,
            value: c.rank.to_string(),
            reason: format!(
                "adjudication {} has no financing lender; a second-degree pledge is taken only when \
                 the lender holds the first (Art. 10): name the lender or use rank 1",
                c.adjudication_id
            ),
            remedy: Some(Field::Lender),
        });
    }
    if let Some(f) = c.in_force {
        return Err(Refusal::Rule(format!(
            "adjudication {} already has pledge {} (rank {}, registered {}) in force; release it first",
            c.adjudication_id, f.id, f.rank, f.registered_on
        )));
    }
    Ok(lender)
}

/// A pledge just registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    pub id: i64,
    pub shares: u64,
    pub beneficiary: String,
}

/// Registers the pledge of an adjudication's shares to the sellers of its program, under
/// [`rules`].
pub fn register(
    tx: &mut Tx<'_>,
    adjudication_id: i64,
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
) -> Result<Registered> {
    let adj = adjudications::get(tx.conn(), adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let lender = rules(&Candidate {
        adjudication_id,
        adjudicated_on: adj.adjudicated_on,
        financed_by: adj.lender.as_deref(),
        rank,
        registered_on,
        lender,
        in_force: pledges::in_force(tx.conn(), adjudication_id)?,
    })?;
    let beneficiary = program.program.pledge_beneficiary();
    let id = pledges::insert(
        tx,
        &NewPledge {
            adjudication_id,
            rank,
            beneficiary: &beneficiary,
            shares: adj.shares,
            lender: lender.as_deref(),
            registered_on,
        },
    )?;
    Ok(Registered {
        id,
        shares: adj.shares,
        beneficiary,
    })
}

/// A row of a pledge file refused by [`rules`], in the file's columns (the line is the store's
/// to set). A second pledge of an adjudication that this file pledged already names that line.
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
        other => (
            "adjudication_id",
            c.adjudication_id.to_string(),
            match c.in_force.and_then(|f| f.line) {
                Some(earlier) => format!(
                    "line {earlier} of this file already pledges it; one pledge in force per adjudication"
                ),
                None => match other {
                    Refusal::Value { reason, .. } | Refusal::Rule(reason) => reason,
                    Refusal::OneOf(..) | Refusal::Repeat { .. } => other.to_string(),
                },
            },
        ),
    };
    RowError {
        line: 0,
        field: field.into(),
        value,
        reason,
    }
}

/// Registers the pledges of a file (see [`crate::import::each_pledge`]), every row under
/// [`rules`] (a pledge earlier in the file counts as in force): all of them, or none with every
/// problem by line. The same file twice adds nothing.
pub fn import(
    tx: &mut Tx<'_>,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    feed: impl FnOnce(
        &mut dyn FnMut(crate::import::PledgeRow) -> crate::store::Result<()>,
    ) -> crate::store::Result<Vec<RowError>>,
) -> Result<PledgesImported> {
    Ok(pledges::import(
        tx,
        file_name,
        sha256,
        encoding,
        |c| rules(c).map_err(|r| row_problem(c, r)),
        feed,
    )?)
}

/// The pledges in force on an adjudication that may be released on `on` (Art. 10: after the
/// lock-up's last day, with no fine of the adjudication outstanding on that date), or why not.
fn releasable(
    conn: &Connection,
    adj: &adjudications::Adjudication,
    scale: &FineScale,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<std::result::Result<Vec<i64>, Refusal>> {
    let lockup_end = scale
        .lockup_end(adj.adjudicated_on)
        .unwrap_or(adj.adjudicated_on);
    if on <= lockup_end {
        return Ok(Err(Refusal::value(
            Field::ReleaseDate,
            on,
            format!(
                "the lock-up of adjudication {} runs until {lockup_end}; the pledge can be released from {}",
                adj.id,
                lockup_end.succ_opt().unwrap_or(lockup_end)
            ),
        )));
    }
    for b in breaches::list(conn, Some(adj.id), None)?
        .iter()
        .filter(|b| b.void.is_none())
    {
        let due = outstanding(conn, b.id, on, rates)?;
        if due > Decimal::ZERO {
            return Ok(Err(Refusal::value(
                Field::ReleaseDate,
                on,
                format!(
                    "the fine of breach {} is outstanding ({} as of {on}); the pledge secures it (Art. 10) and stays \
                     until the fine is paid",
                    b.id,
                    crate::money::format_cop(due)
                ),
            )));
        }
    }
    let active: Vec<i64> = pledges::list(conn, adj.id)?
        .into_iter()
        .filter(|p| p.released_on.is_none())
        .map(|p| p.id)
        .collect();
    if active.is_empty() {
        return Ok(Err(Refusal::Rule(format!(
            "adjudication {} has no pledge in force to release",
            adj.id
        ))));
    }
    Ok(Ok(active))
}

/// Releases every pledge in force on an adjudication, if the lock-up has ended and no fine of
/// the adjudication is outstanding on `on`. Returns the release ids.
pub fn release(
    tx: &mut Tx<'_>,
    adjudication_id: i64,
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Vec<i64>> {
    let adj = adjudications::get(tx.conn(), adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    let pledges = releasable(tx.conn(), &adj, &program.scale()?, on, rates)??;
    let mut out = Vec::new();
    for pledge_id in pledges {
        out.push(pledges::release(tx, pledge_id, on)?);
    }
    Ok(out)
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
/// this transaction; refused, with every reason, if any of them may not be released. One audit
/// event covers all the releases. `None` when there is nothing to release.
pub fn release_many(
    tx: &mut Tx<'_>,
    candidates: &[i64],
    on: NaiveDate,
    rates: &RateSeries,
) -> Result<Option<Released>> {
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
        "pledge.release-releasable",
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
