//! Breaches (with their voids), the payments against their fines, and the immutable numbered
//! liquidations computed for them.

use super::{Result, StoreError, Tx, date, decimal};
use crate::program::BreachKind;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Void {
    pub reason: String,
    pub at: String,
    pub by: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breach {
    pub id: i64,
    pub adjudication_id: i64,
    pub kind: BreachKind,
    pub breach_date: NaiveDate,
    pub shares: u64,
    pub consideration_per_share: Option<Decimal>,
    pub consideration_total: Option<Decimal>,
    pub registered_on: Option<NaiveDate>,
    pub evidence: Option<String>,
    pub created_at: String,
    pub created_by: String,
    pub void: Option<Void>,
}

impl Breach {
    /// Art. 9 (ii): the consideration per share, from the per-share figure or the total.
    pub fn transfer_price(&self) -> Option<Decimal> {
        transfer_price(
            self.consideration_per_share,
            self.consideration_total,
            self.shares,
        )
    }
}

/// The per-share consideration from what was recorded: the per-share figure, or the total divided
/// by the shares.
pub fn transfer_price(
    per_share: Option<Decimal>,
    total: Option<Decimal>,
    shares: u64,
) -> Option<Decimal> {
    if shares == 0 {
        return per_share;
    }
    per_share.or_else(|| total.map(|t| t / Decimal::from(shares)))
}

/// What a new breach says.
pub struct NewBreach<'a> {
    pub adjudication_id: i64,
    pub kind: BreachKind,
    pub breach_date: NaiveDate,
    pub shares: u64,
    pub consideration_per_share: Option<Decimal>,
    pub consideration_total: Option<Decimal>,
    pub registered_on: Option<NaiveDate>,
    pub evidence: Option<&'a str>,
}

pub fn record(tx: &mut Tx<'_>, b: &NewBreach<'_>) -> Result<i64> {
    tx.insert(
        "breaches",
        "breach.record",
        &[
            ("adjudication_id", &b.adjudication_id),
            ("kind", &b.kind.as_str()),
            ("breach_date", &b.breach_date.to_string()),
            ("shares", &(b.shares as i64)),
            (
                "consideration_per_share",
                &b.consideration_per_share.map(|d| d.to_string()),
            ),
            (
                "consideration_total",
                &b.consideration_total.map(|d| d.to_string()),
            ),
            ("registered_on", &b.registered_on.map(|d| d.to_string())),
            ("evidence", &b.evidence),
        ],
    )
}

pub fn void(tx: &mut Tx<'_>, breach_id: i64, reason: &str) -> Result<i64> {
    tx.insert(
        "breach_voids",
        "breach.void",
        &[("breach_id", &breach_id), ("reason", &reason)],
    )
}

const SELECT: &str = "SELECT b.id, b.adjudication_id, b.kind, b.breach_date, b.shares, b.consideration_per_share,
        b.consideration_total, b.registered_on, b.evidence, b.created_at, b.created_by, v.reason, v.created_at, v.created_by
    FROM breaches b LEFT JOIN breach_voids v ON v.breach_id = b.id";

type Raw = (
    i64,
    i64,
    String,
    String,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn raw(r: &rusqlite::Row<'_>) -> rusqlite::Result<Raw> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
        r.get(10)?,
        r.get(11)?,
        r.get(12)?,
        r.get(13)?,
    ))
}

fn cook(r: Raw) -> Result<Breach> {
    let (
        id,
        adjudication_id,
        kind,
        on,
        shares,
        per,
        total,
        reg,
        evidence,
        created_at,
        created_by,
        vr,
        va,
        vb,
    ) = r;
    Ok(Breach {
        id,
        adjudication_id,
        kind: kind.parse().map_err(StoreError::Corrupt)?,
        breach_date: date(&on, "breach_date")?,
        shares: shares as u64,
        consideration_per_share: per
            .map(|p| decimal(&p, "consideration_per_share"))
            .transpose()?,
        consideration_total: total
            .map(|p| decimal(&p, "consideration_total"))
            .transpose()?,
        registered_on: reg.map(|d| date(&d, "registered_on")).transpose()?,
        evidence,
        created_at,
        created_by,
        void: match (vr, va, vb) {
            (Some(reason), Some(at), Some(by)) => Some(Void { reason, at, by }),
            _ => None,
        },
    })
}

pub fn get(conn: &Connection, id: i64) -> Result<Breach> {
    let r = conn
        .prepare_cached(&format!("{SELECT} WHERE b.id = ?1"))?
        .query_row(params![id], raw)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "breach",
            id: id.to_string(),
        })?;
    cook(r)
}

/// Breaches, optionally of one adjudication or one program, in id order (voided ones included).
pub fn list(
    conn: &Connection,
    adjudication_id: Option<i64>,
    program_id: Option<i64>,
) -> Result<Vec<Breach>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} JOIN adjudications a ON a.id = b.adjudication_id WHERE {} AND {} ORDER BY b.id",
        super::filter(adjudication_id.is_some(), "b.adjudication_id", 1),
        super::filter(program_id.is_some(), "a.program_id", 2),
    ))?;
    let rows = stmt.query_map(params![adjudication_id, program_id], raw)?;
    rows.map(|r| cook(r?)).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredPayment {
    pub id: i64,
    pub breach_id: i64,
    pub paid_on: NaiveDate,
    pub amount: Decimal,
    pub reference: Option<String>,
    pub created_at: String,
    pub created_by: String,
}

pub fn record_payment(
    tx: &mut Tx<'_>,
    breach_id: i64,
    paid_on: NaiveDate,
    amount: Decimal,
    reference: Option<&str>,
) -> Result<i64> {
    tx.insert(
        "payments",
        "payment.record",
        &[
            ("breach_id", &breach_id),
            ("paid_on", &paid_on.to_string()),
            ("amount", &amount.to_string()),
            ("reference", &reference),
        ],
    )
}

/// Payments against a breach's fine, in the order recorded.
pub fn payments(conn: &Connection, breach_id: i64) -> Result<Vec<StoredPayment>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, breach_id, paid_on, amount, reference, created_at, created_by FROM payments WHERE breach_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map(params![breach_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, String>(6)?,
        ))
    })?;
    rows.map(|r| {
        let (id, breach_id, on, amount, reference, created_at, created_by) = r?;
        Ok(StoredPayment {
            id,
            breach_id,
            paid_on: date(&on, "paid_on")?,
            amount: decimal(&amount, "amount")?,
            reference,
            created_at,
            created_by,
        })
    })
    .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredLiquidation {
    pub id: i64,
    pub breach_id: i64,
    pub until: NaiveDate,
    pub convention: String,
    pub provisional: bool,
    pub total_due: Decimal,
    pub inputs_json: String,
    pub result_json: String,
    pub sha256: String,
    pub created_at: String,
    pub created_by: String,
}

/// What a new liquidation holds.
pub struct NewLiquidation<'a> {
    pub breach_id: i64,
    pub until: NaiveDate,
    pub convention: &'a str,
    pub provisional: bool,
    pub total_due: Decimal,
    pub inputs_json: &'a str,
    pub result_json: &'a str,
    pub sha256: &'a str,
}

pub fn insert_liquidation(tx: &mut Tx<'_>, l: &NewLiquidation<'_>) -> Result<i64> {
    tx.insert(
        "liquidations",
        "fine.liquidate",
        &[
            ("breach_id", &l.breach_id),
            ("until", &l.until.to_string()),
            ("convention", &l.convention),
            ("provisional", &l.provisional),
            ("total_due", &l.total_due.to_string()),
            ("inputs_json", &l.inputs_json),
            ("result_json", &l.result_json),
            ("sha256", &l.sha256),
        ],
    )
}

/// Liquidations of a breach (or all), in id order.
pub fn liquidations(conn: &Connection, breach_id: Option<i64>) -> Result<Vec<StoredLiquidation>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, breach_id, until, convention, provisional, total_due, inputs_json, result_json, sha256, created_at, created_by
         FROM liquidations WHERE {} ORDER BY id",
        super::filter(breach_id.is_some(), "breach_id", 1)
    ))?;
    let rows = stmt.query_map(params![breach_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, bool>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, String>(6)?,
            r.get::<_, String>(7)?,
            r.get::<_, String>(8)?,
            r.get::<_, String>(9)?,
            r.get::<_, String>(10)?,
        ))
    })?;
    rows.map(|r| {
        let (
            id,
            breach_id,
            until,
            convention,
            provisional,
            total,
            inputs_json,
            result_json,
            sha256,
            created_at,
            created_by,
        ) = r?;
        Ok(StoredLiquidation {
            id,
            breach_id,
            until: date(&until, "until")?,
            convention,
            provisional,
            total_due: decimal(&total, "total_due")?,
            inputs_json,
            result_json,
            sha256,
            created_at,
            created_by,
        })
    })
    .collect()
}
