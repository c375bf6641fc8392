//! Streaming reads for the batch check: one pass over the breaches (with what the engine needs to
//! price them and their latest liquidation and notice) and one pass over the adjudications (with
//! the pledges in force). Rows go to a callback as they are read; text columns are lent, not
//! copied, so a million rows cost no allocation unless a finding keeps them.

use super::columns::Cols;
use super::{Result, StoreError, date, decimal};
use chrono::NaiveDate;
use foldhash::{HashMap, HashSet};
use rusqlite::{Connection, params};
use rust_decimal::Decimal;

/// One adjudication as the check sees it on the as-of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdjudicationRow<'p> {
    pub id: i64,
    pub program_id: i64,
    pub holder_id: i64,
    pub shares: u64,
    pub adjudicated_on: NaiveDate,
    pub financed: bool,
    /// How many of its shares the lender financed (0 when not recorded).
    pub financed_shares: u64,
    /// The pledges in force on the as-of date, in id order.
    pub pledges: &'p [PledgeInForce],
    pub price_per_share: Decimal,
}

/// A pledge in force on the as-of date (Art. 10: an adjudication may have several, each over
/// its shares).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PledgeInForce {
    pub id: i64,
    /// 1 = first degree, 2 = second degree.
    pub rank: u8,
    pub shares: u64,
}

fn text<'r>(r: &'r rusqlite::Row<'_>, i: usize) -> Result<&'r str> {
    r.get_ref(i)?
        .as_str()
        .map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// Calls `f` for every adjudication (of one program, or all; voided ones left out) adjudicated on
/// or before `as_of`, in id order, with the pledges in force on that date (registered by then,
/// not released by then, not voided), in id order. Two sequential
/// reads merged here — adjudications by id, pledges by adjudication through their covering
/// index — instead of one index probe per adjudication. An error of `f` (the caller's own type)
/// ends the walk and comes back unchanged.
pub fn adjudications<E: From<StoreError> + From<rusqlite::Error>>(
    conn: &Connection,
    program_id: Option<i64>,
    as_of: NaiveDate,
    mut f: impl FnMut(AdjudicationRow<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let as_of_s = as_of.to_string();
    let any_release: bool =
        conn.query_row("SELECT EXISTS (SELECT 1 FROM pledge_releases)", [], |r| {
            r.get(0)
        })?;
    let not_released = if any_release {
        "AND NOT EXISTS (SELECT 1 FROM pledge_releases r WHERE r.pledge_id = p.id AND r.released_on <= ?1)"
    } else {
        ""
    };
    // voids are rare: a clause (a probe per row) only when there is one
    let any = |table: &str| -> rusqlite::Result<bool> {
        conn.query_row(&format!("SELECT EXISTS (SELECT 1 FROM {table})"), [], |r| {
            r.get(0)
        })
    };
    let not_void_pledge = if any("pledge_voids")? {
        "AND NOT EXISTS (SELECT 1 FROM pledge_voids v WHERE v.pledge_id = p.id)"
    } else {
        ""
    };
    let not_void_adjudication = if any("adjudication_voids")? {
        "AND NOT EXISTS (SELECT 1 FROM adjudication_voids v WHERE v.adjudication_id = a.id)"
    } else {
        ""
    };
    let mut pledges_stmt = conn.prepare(&format!(
        "SELECT p.adjudication_id, p.id, p.rank, p.shares FROM pledges p
         WHERE p.registered_on <= ?1 {not_released} {not_void_pledge}
         ORDER BY p.adjudication_id"
    ))?;
    let mut pledges = pledges_stmt.query(params![as_of_s])?;
    let mut next_pledge = || -> Result<Option<(i64, PledgeInForce)>> {
        Ok(match pledges.next()? {
            Some(r) => {
                let c = Cols::new(r, "pledges");
                Some((
                    c.get(0)?,
                    PledgeInForce {
                        id: c.get(1)?,
                        rank: c.get(2)?,
                        shares: c.shares(3)?,
                    },
                ))
            }
            None => None,
        })
    };
    let mut pledge_ahead = next_pledge()?;
    let mut in_force: Vec<PledgeInForce> = Vec::new();
    let mut stmt = conn.prepare(&format!(
        "SELECT a.id, a.program_id, a.holder_id, a.shares, a.adjudicated_on,
                (a.lender IS NOT NULL OR a.financed_shares > 0), a.price_per_share, a.financed_shares
         FROM adjudications a
         WHERE (?1 IS NULL OR a.program_id = ?1) {not_void_adjudication}
         ORDER BY a.id"
    ))?;
    let mut rows = stmt.query(params![program_id])?;
    // Offerings adjudicate on a handful of dates at a handful of prices: parse each text once.
    let mut dates: HashMap<[u8; 10], NaiveDate> = HashMap::default();
    let mut prices = Parsed::default();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        in_force.clear();
        while let Some((adj, p)) = pledge_ahead {
            if adj > id {
                break;
            }
            if adj == id {
                in_force.push(p);
            }
            pledge_ahead = next_pledge()?;
        }
        // the index walks an adjudication's pledges by date: in id order for the check
        in_force.sort_unstable_by_key(|p| p.id);
        let on_text = text(r, 4)?;
        let key = <[u8; 10]>::try_from(on_text.as_bytes()).ok();
        let adjudicated_on = match key.and_then(|k| dates.get(&k).copied()) {
            Some(d) => d,
            None => {
                let d = date(on_text, "adjudicated_on")?;
                if let Some(k) = key {
                    dates.insert(k, d);
                }
                d
            }
        };
        if adjudicated_on > as_of {
            continue;
        }
        let a = Cols::new(r, "adjudications");
        f(AdjudicationRow {
            id,
            program_id: r.get(1)?,
            holder_id: r.get(2)?,
            shares: a.shares(3)?,
            adjudicated_on,
            financed: r.get(5)?,
            financed_shares: a.shares(7)?,
            pledges: &in_force,
            price_per_share: prices.get(text(r, 6)?)?,
        })?;
    }
    Ok(())
}

/// A holder's (document type, document number, name), for the findings that name them.
pub fn holder(conn: &Connection, holder_id: i64) -> Result<(String, String, String)> {
    let mut stmt =
        conn.prepare_cached("SELECT doc_type, doc_number, name FROM holders WHERE id = ?1")?;
    Ok(stmt.query_row(params![holder_id], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?)
}

/// Holders by id for a walk over the adjudications in id order: imports register holders in
/// that order, so a forward cursor over the holders table meets nearly every one as it is asked
/// for (after a lock-up, when nearly every holder has a finding, this is one sequential read
/// instead of a million probes). An id behind the cursor (a holder registered before, bought
/// again) is looked up with [`holder`].
pub struct Holders<'s> {
    conn: &'s Connection,
    rows: rusqlite::Rows<'s>,
    /// The id of the row the cursor is on; `None` before the first step, `i64::MAX` at the end.
    at: Option<i64>,
}

impl<'s> Holders<'s> {
    /// The statement the cursor walks (kept by the caller while the cursor lives).
    pub fn statement(conn: &Connection) -> Result<rusqlite::Statement<'_>> {
        Ok(conn.prepare("SELECT id, doc_type, doc_number, name FROM holders ORDER BY id")?)
    }

    pub fn new(conn: &'s Connection, statement: &'s mut rusqlite::Statement<'_>) -> Result<Self> {
        Ok(Holders {
            conn,
            rows: statement.query([])?,
            at: None,
        })
    }

    pub fn get(&mut self, id: i64) -> Result<(String, String, String)> {
        use rusqlite::fallible_streaming_iterator::FallibleStreamingIterator;
        if self.at.is_some_and(|at| at > id) {
            return holder(self.conn, id);
        }
        while self.at.is_none_or(|at| at < id) {
            self.at = Some(match self.rows.next()? {
                Some(r) => r.get(0)?,
                None => i64::MAX,
            });
        }
        match self.rows.get() {
            Some(r) if self.at == Some(id) => Ok((
                text(r, 1)?.to_string(),
                text(r, 2)?.to_string(),
                text(r, 3)?.to_string(),
            )),
            _ => holder(self.conn, id),
        }
    }
}

/// Exact decimals parsed once per distinct text.
#[derive(Default)]
struct Parsed(HashMap<String, Decimal>);

impl Parsed {
    fn get(&mut self, text: &str) -> Result<Decimal> {
        if let Some(d) = self.0.get(text) {
            return Ok(*d);
        }
        let d = decimal(text, "price_per_share")?;
        self.0.insert(text.to_string(), d);
        Ok(d)
    }
}

/// One non-void breach with what it takes to price it and what has been done about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreachRow {
    pub id: i64,
    pub adjudication_id: i64,
    pub breach_date: NaiveDate,
    pub shares: u64,
    pub consideration_per_share: Option<Decimal>,
    pub consideration_total: Option<Decimal>,
    /// Some payment against the fine is recorded on or before the as-of date.
    pub has_payments: bool,
    /// The latest liquidation: (id, provisional).
    pub latest_liquidation: Option<(i64, bool)>,
    /// The latest notice.
    pub latest_notice: Option<LatestNotice>,
    /// A paz y salvo dated on or before the as-of date certifies the fine paid.
    pub settled: bool,
}

/// A breach's latest notice, as the check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatestNotice {
    pub number: String,
    pub notice_date: NaiveDate,
    /// The deadline it was issued with (the term from its date).
    pub deadline: NaiveDate,
    /// Its delivery, if recorded on or before the as-of date.
    pub delivered_on: Option<NaiveDate>,
}

/// What has been done about each breach: latest liquidation, latest notice, payments.
#[derive(Debug, Default)]
struct Followed {
    liquidation: HashMap<i64, (i64, bool)>,
    notice: HashMap<i64, LatestNotice>,
    paid: HashSet<i64>,
    settled: HashSet<i64>,
}

/// Reads the (small) liquidation, notice and payment tables once, in sequence, instead of
/// probing them for every breach. A notice dated after `as_of` did not exist on that day: the
/// latest notice of a breach is the latest dated by then.
fn followed(conn: &Connection, as_of: &str) -> Result<Followed> {
    let mut f = Followed::default();
    // (breach_id, id, provisional) is a covering index: the big JSON columns are never read
    let mut stmt =
        conn.prepare("SELECT breach_id, id, provisional FROM liquidations ORDER BY breach_id, id")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        f.liquidation.insert(r.get(0)?, (r.get(1)?, r.get(2)?));
    }
    let mut stmt = conn.prepare(
        "SELECT n.breach_id, n.number, n.notice_date, n.deadline, d.delivered_on FROM notices n
         LEFT JOIN notice_deliveries d ON d.notice_id = n.id AND d.delivered_on <= ?1
         WHERE n.notice_date <= ?1 ORDER BY n.id",
    )?;
    let mut rows = stmt.query(params![as_of])?;
    while let Some(r) = rows.next()? {
        let delivered: Option<String> = r.get(4)?;
        f.notice.insert(
            r.get(0)?,
            LatestNotice {
                number: r.get(1)?,
                notice_date: date(text(r, 2)?, "notice_date")?,
                deadline: date(text(r, 3)?, "deadline")?,
                delivered_on: delivered.map(|d| date(&d, "delivered_on")).transpose()?,
            },
        );
    }
    let mut stmt = conn.prepare("SELECT breach_id FROM settlements WHERE settlement_date <= ?1")?;
    let mut rows = stmt.query(params![as_of])?;
    while let Some(r) = rows.next()? {
        f.settled.insert(r.get(0)?);
    }
    let mut stmt = conn.prepare(
        "SELECT DISTINCT p.breach_id FROM payments p
         WHERE p.paid_on <= ?1 AND NOT EXISTS (SELECT 1 FROM payment_voids v WHERE v.payment_id = p.id)",
    )?;
    let mut rows = stmt.query(params![as_of])?;
    while let Some(r) = rows.next()? {
        f.paid.insert(r.get(0)?);
    }
    Ok(f)
}

/// Walks the adjudications (see [`adjudications`]) and, beside each, its non-void breaches dated
/// on or before `as_of`: a merge of two ordered cursors, so neither side is probed at random.
pub fn adjudications_with_breaches<E: From<StoreError> + From<rusqlite::Error>>(
    conn: &Connection,
    program_id: Option<i64>,
    as_of: NaiveDate,
    mut f: impl FnMut(AdjudicationRow<'_>, &[BreachRow]) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let as_of_s = as_of.to_string();
    let mut done = followed(conn, &as_of_s)?;
    let mut stmt = conn.prepare(
        "SELECT b.id, b.adjudication_id, b.breach_date, b.shares, b.consideration_per_share, b.consideration_total
         FROM breaches b
         WHERE b.breach_date <= ?1 AND NOT EXISTS (SELECT 1 FROM breach_voids v WHERE v.breach_id = b.id)
         ORDER BY b.adjudication_id, b.id",
    )?;
    let mut rows = stmt.query(params![as_of_s])?;
    let mut next = || -> Result<Option<BreachRow>> {
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        let opt_dec = |i: usize, what: &str| -> Result<Option<Decimal>> {
            r.get::<_, Option<String>>(i)?
                .map(|x| decimal(&x, what))
                .transpose()
        };
        let id: i64 = r.get(0)?;
        Ok(Some(BreachRow {
            id,
            adjudication_id: r.get(1)?,
            breach_date: date(text(r, 2)?, "breach_date")?,
            shares: Cols::new(r, "breaches").shares(3)?,
            consideration_per_share: opt_dec(4, "consideration_per_share")?,
            consideration_total: opt_dec(5, "consideration_total")?,
            has_payments: done.paid.contains(&id),
            latest_liquidation: done.liquidation.get(&id).copied(),
            latest_notice: done.notice.remove(&id),
            settled: done.settled.contains(&id),
        }))
    };
    let mut ahead = next()?;
    let mut group: Vec<BreachRow> = Vec::new();
    adjudications(conn, program_id, as_of, |a| {
        group.clear();
        while let Some(b) = ahead.take() {
            if b.adjudication_id < a.id {
                ahead = next()?; // an adjudication outside this scan
            } else if b.adjudication_id == a.id {
                group.push(b);
                ahead = next()?;
            } else {
                ahead = Some(b);
                break;
            }
        }
        f(a, &group)
    })
}

/// How many adjudications the check's scan reads (those not voided), of one program or of all:
/// the total its progress bar counts towards.
///
/// Counted as the adjudications less the voided ones (an adjudication is voided at most once:
/// `adjudication_voids.adjudication_id` is UNIQUE), so that SQLite counts the entries of an index
/// (of the program's) instead of reading every row of the table, and probing the voids for each,
/// before the check starts: that took about a tenth of the check's time on a million holders.
pub fn adjudications_count(conn: &Connection, program_id: Option<i64>) -> Result<u64> {
    let program = super::filter(program_id.is_some(), "a.program_id", 1);
    let n: i64 = conn.query_row(
        &format!(
            "SELECT (SELECT count(*) FROM adjudications a WHERE {program})
                  - (SELECT count(*) FROM adjudication_voids v WHERE ?1 IS NULL
                     OR EXISTS (SELECT 1 FROM adjudications a
                                WHERE a.id = v.adjudication_id AND a.program_id = ?1))"
        ),
        [program_id],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n).unwrap_or_default())
}
