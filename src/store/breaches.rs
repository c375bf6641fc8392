//! Breaches (with their voids), the payments against their fines, and the immutable numbered
//! liquidations computed for them.

use super::columns::{Cols, Exact, Shares};
use super::{Result, StoreError, Tx};
use crate::fine::Convention;
use crate::program::BreachKind;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use rust_decimal::Decimal;
use serde::Serialize;

/// A record voided by mistake (a breach, adjudication, payment or pledge): why, when, by whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Void {
    pub reason: String,
    pub at: String,
    pub by: String,
}

impl Void {
    /// The void whose columns (reason, created_at, created_by of `table`) start at `at`; `None`
    /// when the record is not void (a LEFT JOIN found nothing).
    pub(super) fn from_row(
        r: &Row<'_>,
        table: &'static str,
        at: usize,
    ) -> rusqlite::Result<Option<Void>> {
        let v = Cols::new(r, table);
        Ok(match (v.get(at)?, v.get(at + 1)?, v.get(at + 2)?) {
            (Some(reason), Some(at), Some(by)) => Some(Void { reason, at, by }),
            _ => None,
        })
    }
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
        crate::store::Action::BreachRecord,
        &[
            ("adjudication_id", &b.adjudication_id),
            ("kind", &b.kind),
            ("breach_date", &b.breach_date.to_string()),
            ("shares", &Shares(b.shares)),
            (
                "consideration_per_share",
                &b.consideration_per_share.map(Exact),
            ),
            ("consideration_total", &b.consideration_total.map(Exact)),
            ("registered_on", &b.registered_on.map(|d| d.to_string())),
            ("evidence", &b.evidence),
        ],
    )
}

pub fn void(tx: &mut Tx<'_>, breach_id: i64, reason: &str) -> Result<i64> {
    tx.insert(
        "breach_voids",
        crate::store::Action::BreachVoid,
        &[("breach_id", &breach_id), ("reason", &reason)],
    )
}

const SELECT: &str = "SELECT b.id, b.adjudication_id, b.kind, b.breach_date, b.shares, b.consideration_per_share,
        b.consideration_total, b.registered_on, b.evidence, b.created_at, b.created_by, v.reason, v.created_at, v.created_by
    FROM breaches b LEFT JOIN breach_voids v ON v.breach_id = b.id";

impl Breach {
    /// A row of [`SELECT`]: the breach's columns, then its void's.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Breach> {
        let c = Cols::new(r, "breaches");
        Ok(Breach {
            id: c.get(0)?,
            adjudication_id: c.get(1)?,
            kind: c.get(2)?,
            breach_date: c.date(3)?,
            shares: c.shares(4)?,
            consideration_per_share: c.opt_decimal(5)?,
            consideration_total: c.opt_decimal(6)?,
            registered_on: c.opt_date(7)?,
            evidence: c.get(8)?,
            created_at: c.get(9)?,
            created_by: c.get(10)?,
            void: Void::from_row(r, "breach_voids", 11)?,
        })
    }
}

/// How many breaches still have a fine to liquidate or notify: not voided, on an adjudication
/// not voided, with no paz y salvo (of `program_id`, or of every program).
pub fn open_count(conn: &Connection, program_id: Option<i64>) -> Result<u64> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM breaches b JOIN adjudications a ON a.id = b.adjudication_id \
         WHERE (?1 IS NULL OR a.program_id = ?1) \
         AND NOT EXISTS (SELECT 1 FROM breach_voids v WHERE v.breach_id = b.id) \
         AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id) \
         AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.breach_id = b.id)",
        params![program_id],
        |r| r.get(0),
    )?;
    u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("breach count {n}")))
}

pub fn get(conn: &Connection, id: i64) -> Result<Breach> {
    conn.prepare_cached(&format!("{SELECT} WHERE b.id = ?1"))?
        .query_row(params![id], Breach::from_row)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "breach",
            id: id.to_string(),
        })
}

/// The last `limit` breaches recorded (voided ones included), the newest first, and how many
/// breaches the register holds: the dashboard's list.
pub fn latest(conn: &Connection, limit: usize) -> Result<(u64, Vec<Breach>)> {
    let n: i64 = conn.query_row("SELECT count(*) FROM breaches", [], |r| r.get(0))?;
    let total = u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("breach count {n}")))?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = conn
        .prepare_cached(&format!("{SELECT} ORDER BY b.id DESC LIMIT ?1"))?
        .query_map(params![limit], Breach::from_row)?
        .collect::<rusqlite::Result<_>>()?;
    Ok((total, rows))
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
    let rows = stmt.query_map(params![adjudication_id, program_id], Breach::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
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
    /// Recorded by mistake: it stays on record, and no figure counts it.
    pub void: Option<Void>,
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
        crate::store::Action::PaymentRecord,
        &[
            ("breach_id", &breach_id),
            ("paid_on", &paid_on.to_string()),
            ("amount", &Exact(amount)),
            ("reference", &reference),
        ],
    )
}

const SELECT_PAYMENTS: &str =
    "SELECT p.id, p.breach_id, p.paid_on, p.amount, p.reference, p.created_at, p.created_by,
            v.reason, v.created_at, v.created_by
     FROM payments p LEFT JOIN payment_voids v ON v.payment_id = p.id";

/// The payments that count against a breach's fine (voided ones left out), in the order
/// recorded: what every figure is computed from.
pub fn payments(conn: &Connection, breach_id: i64) -> Result<Vec<StoredPayment>> {
    Ok(payments_recorded(conn, breach_id)?
        .into_iter()
        .filter(|p| p.void.is_none())
        .collect())
}

/// Every payment recorded against a breach's fine, voided ones included (with their void), in
/// the order recorded.
pub fn payments_recorded(conn: &Connection, breach_id: i64) -> Result<Vec<StoredPayment>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT_PAYMENTS} WHERE p.breach_id = ?1 ORDER BY p.id"
    ))?;
    let rows = stmt.query_map(params![breach_id], StoredPayment::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One payment, with its void if it was voided.
pub fn payment(conn: &Connection, id: i64) -> Result<StoredPayment> {
    conn.prepare_cached(&format!("{SELECT_PAYMENTS} WHERE p.id = ?1"))?
        .query_row(params![id], StoredPayment::from_row)
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "payment",
            id: id.to_string(),
        })
}

/// Voids a payment (the register has checked that it may be voided).
pub fn void_payment(tx: &mut Tx<'_>, payment_id: i64, reason: &str) -> Result<i64> {
    tx.insert(
        "payment_voids",
        crate::store::Action::PaymentVoid,
        &[("payment_id", &payment_id), ("reason", &reason)],
    )
}

impl StoredPayment {
    /// A row of [`SELECT_PAYMENTS`]: the payment's columns, then its void's.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<StoredPayment> {
        let c = Cols::new(r, "payments");
        Ok(StoredPayment {
            id: c.get(0)?,
            breach_id: c.get(1)?,
            paid_on: c.date(2)?,
            amount: c.decimal(3)?,
            reference: c.get(4)?,
            created_at: c.get(5)?,
            created_by: c.get(6)?,
            void: Void::from_row(r, "payment_voids", 7)?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredLiquidation {
    pub id: i64,
    pub breach_id: i64,
    pub until: NaiveDate,
    pub convention: Convention,
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
    pub convention: Convention,
    pub provisional: bool,
    pub total_due: Decimal,
    pub inputs_json: &'a str,
    pub result_json: &'a str,
    pub sha256: &'a str,
}

pub fn insert_liquidation(tx: &mut Tx<'_>, l: &NewLiquidation<'_>) -> Result<i64> {
    tx.insert(
        "liquidations",
        crate::store::Action::FineLiquidate,
        &[
            ("breach_id", &l.breach_id),
            ("until", &l.until.to_string()),
            ("convention", &l.convention),
            ("provisional", &l.provisional),
            ("total_due", &Exact(l.total_due)),
            ("inputs_json", &l.inputs_json),
            ("result_json", &l.result_json),
            ("sha256", &l.sha256),
        ],
    )
}

/// One liquidation, by its id (through the primary key: a liquidation's page reads one row, not
/// the register's every liquidation).
pub fn liquidation(conn: &Connection, id: i64) -> Result<StoredLiquidation> {
    conn.prepare_cached(
        "SELECT id, breach_id, until, convention, provisional, total_due, inputs_json, result_json, sha256, created_at, created_by
         FROM liquidations WHERE id = ?1",
    )?
    .query_row(params![id], StoredLiquidation::from_row)
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "liquidation",
        id: id.to_string(),
    })
}

/// The stage price (Art. 9 (iii)) liquidation `id` was computed with, read from its stored
/// inputs alone (the rest of the JSON is not parsed).
pub fn liquidation_stage(conn: &Connection, id: i64) -> Result<crate::fine::StagePrice> {
    let text: Option<String> = conn
        .prepare_cached(
            "SELECT json_extract(inputs_json, '$.prices.stage') FROM liquidations WHERE id = ?1",
        )?
        .query_row(params![id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::NotFound {
            what: "liquidation",
            id: id.to_string(),
        })?;
    let fact: crate::liquidation::StageFact = text
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("liquidation {id}: stage price: {e}")))?
        .ok_or_else(|| StoreError::Corrupt(format!("liquidation {id}: no stage price")))?;
    Ok(fact.into())
}

/// Liquidations of a breach (or all), in id order.
pub fn liquidations(conn: &Connection, breach_id: Option<i64>) -> Result<Vec<StoredLiquidation>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, breach_id, until, convention, provisional, total_due, inputs_json, result_json, sha256, created_at, created_by
         FROM liquidations WHERE {} ORDER BY id",
        super::filter(breach_id.is_some(), "breach_id", 1)
    ))?;
    let rows = stmt.query_map(params![breach_id], StoredLiquidation::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl StoredLiquidation {
    /// id, breach_id, until, convention, provisional, total_due, inputs_json, result_json,
    /// sha256, created_at, created_by.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<StoredLiquidation> {
        let c = Cols::new(r, "liquidations");
        Ok(StoredLiquidation {
            id: c.get(0)?,
            breach_id: c.get(1)?,
            until: c.date(2)?,
            convention: c.get(3)?,
            provisional: c.get(4)?,
            total_due: c.decimal(5)?,
            inputs_json: c.get(6)?,
            result_json: c.get(7)?,
            sha256: c.get(8)?,
            created_at: c.get(9)?,
            created_by: c.get(10)?,
        })
    }
}
