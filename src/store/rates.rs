//! Certified rate periods added to the register, supersessions, and the register's series: the
//! embedded SFC series plus these additions, minus what was superseded.

use super::columns::Cols;
use super::{Result, StoreError, Tx};
use crate::rates::{RatePeriod, RateSeries};
use chrono::NaiveDate;
use rusqlite::Connection;
use rust_decimal::Decimal;

pub use crate::rates::REGISTER_SERIES;

/// A period stored in the register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRate {
    pub id: i64,
    pub valid_from: NaiveDate,
    pub valid_to: NaiveDate,
    pub ibc_ea_pct: Option<Decimal>,
    pub usury_ea_pct: Option<Decimal>,
    pub resolution: String,
    pub created_at: String,
    pub created_by: String,
}

/// A period that a later one took out of the series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supersession {
    pub by_rate_id: i64,
    pub superseded_rate_id: Option<i64>,
    pub shipped_valid_from: Option<NaiveDate>,
    pub reason: String,
}

pub fn stored(conn: &Connection) -> Result<Vec<StoredRate>> {
    let mut stmt = conn.prepare(
        "SELECT id, valid_from, valid_to, ibc_ea_pct, usury_ea_pct, resolution, created_at, created_by FROM rate_periods ORDER BY id",
    )?;
    let rows = stmt.query_map([], StoredRate::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl StoredRate {
    /// id, valid_from, valid_to, ibc_ea_pct, usury_ea_pct, resolution, created_at, created_by.
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRate> {
        let c = Cols::new(r, "rate_periods");
        Ok(StoredRate {
            id: c.get(0)?,
            valid_from: c.date(1)?,
            valid_to: c.date(2)?,
            ibc_ea_pct: c.opt_decimal(3)?,
            usury_ea_pct: c.opt_decimal(4)?,
            resolution: c.get(5)?,
            created_at: c.get(6)?,
            created_by: c.get(7)?,
        })
    }
}

pub fn supersessions(conn: &Connection) -> Result<Vec<Supersession>> {
    let mut stmt =
        conn.prepare("SELECT by_rate_id, superseded_rate_id, shipped_valid_from, reason FROM rate_supersessions ORDER BY id")?;
    let rows = stmt.query_map([], |r| {
        let c = Cols::new(r, "rate_supersessions");
        Ok(Supersession {
            by_rate_id: c.get(0)?,
            superseded_rate_id: c.get(1)?,
            shipped_valid_from: c.opt_date(2)?,
            reason: c.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Where a period in force came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Shipped,
    Register(i64),
}

/// The periods in force, with their origin.
pub fn in_force(conn: &Connection) -> Result<Vec<(Origin, RatePeriod)>> {
    let sup = supersessions(conn)?;
    let mut out: Vec<(Origin, RatePeriod)> = RateSeries::shipped()
        .periods()
        .iter()
        .filter(|p| {
            !sup.iter()
                .any(|s| s.shipped_valid_from == Some(p.valid_from))
        })
        .map(|p| (Origin::Shipped, p.clone()))
        .collect();
    for r in stored(conn)? {
        if sup.iter().any(|s| s.superseded_rate_id == Some(r.id)) {
            continue;
        }
        let p = RatePeriod::new(
            r.valid_from,
            r.valid_to,
            r.ibc_ea_pct,
            r.usury_ea_pct,
            r.resolution.clone(),
            0,
        )
        .ok_or_else(|| StoreError::Corrupt(format!("rate period {} has no usable rate", r.id)))?;
        out.push((Origin::Register(r.id), p));
    }
    out.sort_by_key(|(_, p)| p.valid_from);
    Ok(out)
}

/// The register's series.
pub fn series(conn: &Connection) -> Result<RateSeries> {
    let periods = in_force(conn)?.into_iter().map(|(_, p)| p).collect();
    RateSeries::from_periods(periods, REGISTER_SERIES)
        .map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// What adding a period did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub id: i64,
    /// Periods taken out, as `valid_from..valid_to`.
    pub superseded: Vec<(NaiveDate, NaiveDate)>,
}

/// Stores a certified period; with `supersede` (the reason, and the periods in force it
/// overlaps), those periods leave the series and stay on record. The register has checked that
/// an overlap comes with a reason. `forced` (why a usury figure that is not 1.5 × IBC was
/// accepted) goes into the period's audit event as its action, `rate.add forced: REASON`: the
/// table has no column for it, and the event's payload must stay the stored row.
pub fn insert(
    tx: &mut Tx<'_>,
    period: &RatePeriod,
    supersede: Option<(&str, &[(Origin, RatePeriod)])>,
    forced: Option<&str>,
) -> Result<Added> {
    let columns: &[(&str, &dyn rusqlite::ToSql)] = &[
        ("valid_from", &period.valid_from.to_string()),
        ("valid_to", &period.valid_to.to_string()),
        ("ibc_ea_pct", &period.ibc_ea_pct.map(|d| d.to_string())),
        ("usury_ea_pct", &period.usury_ea_pct.map(|d| d.to_string())),
        ("resolution", &period.resolution),
    ];
    let id = match forced {
        Some(reason) => tx.insert_noted(
            "rate_periods",
            crate::store::Action::RateAddForced,
            reason,
            columns,
        )?,
        None => tx.insert("rate_periods", crate::store::Action::RateAdd, columns)?,
    };
    let mut superseded = Vec::new();
    if let Some((reason, overlapping)) = supersede {
        for (origin, p) in overlapping {
            let (rate_id, shipped) = match origin {
                Origin::Shipped => (None, Some(p.valid_from.to_string())),
                Origin::Register(rid) => (Some(*rid), None),
            };
            tx.insert(
                "rate_supersessions",
                crate::store::Action::RateSupersede,
                &[
                    ("by_rate_id", &id),
                    ("superseded_rate_id", &rate_id),
                    ("shipped_valid_from", &shipped),
                    ("reason", &reason),
                ],
            )?;
            superseded.push((p.valid_from, p.valid_to));
        }
    }
    Ok(Added { id, superseded })
}
