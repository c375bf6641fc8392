//! Pledges of adjudicated shares to the sellers (Art. 10): when the pledges of an adjudication may
//! be released, one at a time or every releasable one at once. Read inside the write transaction.

use super::liquidation::outstanding;
use super::{Error, Field, Refusal, Result};
use crate::calendar::FineScale;
use crate::rates::RateSeries;
use crate::store::Tx;
use crate::store::adjudications;
use crate::store::breaches;
use crate::store::pledges;
use crate::store::programs;
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

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
