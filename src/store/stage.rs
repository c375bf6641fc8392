//! The later stages in SQLite (migration 0009): tranches, proposals with their bidders (written in
//! bulk, one audit event per file covering its rows: [`super::stage_import`]), improvements, draws and the stage's conclusion with one
//! award row per tranche (one audit event covering them). Rows are mapped to domain types once;
//! no rule is decided here.

use super::audit::Cover;
use super::columns::{Cols, Day, Exact, Shares};
use super::import::PriorImport;
pub use super::stage_import::{
    IMPORT_CACHE, ProposalWriter, StoredProposals, WrittenProposals, begin_proposals,
    seal_proposals, with_import_cache,
};
use super::{Result, StoreError, Tx};
use crate::later_stages::Stage;
use crate::offering::proposals::{Bidder, ProposalRow};
use chrono::{NaiveDate, NaiveDateTime};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

/// One tranche of a stage as opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tranche {
    pub id: i64,
    pub stage: Stage,
    pub tranche: u32,
    pub shares: u64,
    pub opens: NaiveDate,
    pub closes: NaiveDate,
    pub minimum_price: Decimal,
    pub created_at: String,
    pub created_by: String,
}

/// The tranches of a program's stage, by number.
pub fn tranches(conn: &Connection, program_id: i64, stage: Stage) -> Result<Vec<Tranche>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, stage, tranche, shares, opens, closes, minimum_price, created_at, created_by
         FROM stage_tranches WHERE program_id = ?1 AND stage = ?2 ORDER BY tranche",
    )?;
    let rows = stmt.query_map(params![program_id, stage], |r| {
        let c = Cols::new(r, "stage_tranches");
        Ok(Tranche {
            id: c.get(0)?,
            stage: c.get(1)?,
            tranche: c.get(2)?,
            shares: c.shares(3)?,
            opens: c.date(4)?,
            closes: c.date(5)?,
            minimum_price: c.decimal(6)?,
            created_at: c.get(7)?,
            created_by: c.get(8)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What a tranche is opened with.
pub struct NewTranche {
    pub program_id: i64,
    pub stage: Stage,
    pub tranche: u32,
    pub shares: u64,
    pub opens: NaiveDate,
    pub closes: NaiveDate,
    pub minimum_price: Decimal,
}

/// Records a tranche (audited).
pub fn insert_tranche(tx: &mut Tx<'_>, t: &NewTranche) -> Result<i64> {
    tx.insert(
        "stage_tranches",
        crate::store::Action::StageOpen,
        &[
            ("program_id", &t.program_id),
            ("stage", &t.stage),
            ("tranche", &t.tranche),
            ("shares", &Shares(t.shares)),
            ("opens", &Day(t.opens)),
            ("closes", &Day(t.closes)),
            ("minimum_price", &Exact(t.minimum_price)),
        ],
    )
}

/// A proposal as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredProposal {
    pub id: i64,
    pub import_id: i64,
    pub row: ProposalRow,
}

fn parse_filed(s: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").ok()
}

/// The columns of a proposal as [`proposal_of`] reads them, `p` the table's alias.
const PROPOSAL_COLUMNS: &str = "p.id, p.import_id, p.line, p.reference, p.filed_at, p.beneficial_owner, p.shares, \
     p.price_per_share, p.term_days, p.guarantee, p.funds_accredited, p.review, p.tranche";

/// A proposal read from a row of [`PROPOSAL_COLUMNS`], with its bidders.
fn proposal_of(r: &rusqlite::Row<'_>, bidders: Vec<Bidder>) -> Result<StoredProposal> {
    let c = Cols::new(r, "proposals");
    let id: i64 = c.get(0)?;
    let filed: String = c.get(4)?;
    Ok(StoredProposal {
        id,
        import_id: c.get(1)?,
        row: ProposalRow {
            line: usize::try_from(c.get::<i64>(2)?).unwrap_or(0),
            reference: c.get(3)?,
            filed_at: parse_filed(&filed).ok_or_else(|| {
                StoreError::Corrupt(format!("proposals.filed_at {filed:?} of proposal {id}"))
            })?,
            bidders,
            beneficial_owner: c.get(5)?,
            shares: c.shares(6)?,
            price_per_share: c.decimal(7)?,
            term_days: c.get(8)?,
            guarantee: c.opt_decimal(9)?,
            funds_accredited: c.get::<i64>(10)? != 0,
            review: c.get(11)?,
            tranche: c.get(12)?,
        },
    })
}

fn bidder_of(r: &rusqlite::Row<'_>) -> Result<(i64, Bidder)> {
    let c = Cols::new(r, "proposal_bidders");
    Ok((
        c.get(0)?,
        Bidder {
            doc_type: c.get(1)?,
            doc_number: c.get(2)?,
            name: c.get(3)?,
        },
    ))
}

/// Each proposal of tranche `tranche` of a program's stage, in the order they were stored, with
/// its bidders, handed to `f` until it says to stop: one proposal in memory at a time, whatever
/// the tranche's size (the proposals and their bidders read side by side in the same order).
pub fn each_proposal<E: From<StoreError>>(
    conn: &Connection,
    program_id: i64,
    stage: Stage,
    tranche: u32,
    f: &mut dyn FnMut(StoredProposal) -> std::result::Result<ControlFlow<()>, E>,
) -> std::result::Result<(), E> {
    // `+column`: read in the order of the ids (the table's own), never sorted through an index
    let mut ps = conn
        .prepare_cached(&format!(
            "SELECT {PROPOSAL_COLUMNS} FROM proposals p
             WHERE +p.program_id = ?1 AND +p.stage = ?2 AND +p.tranche = ?3 ORDER BY p.id"
        ))
        .map_err(StoreError::from)?;
    let mut bs = conn
        .prepare_cached(
            "SELECT b.proposal_id, b.doc_type, b.doc_number, b.name FROM proposals p
             JOIN proposal_bidders b ON b.proposal_id = p.id
             WHERE +p.program_id = ?1 AND +p.stage = ?2 AND +p.tranche = ?3 ORDER BY p.id, b.seq",
        )
        .map_err(StoreError::from)?;
    let args = params![program_id, stage, tranche];
    let mut rows = ps.query(args).map_err(StoreError::from)?;
    let mut bidder_rows = bs.query(args).map_err(StoreError::from)?;
    let mut next_bidder = match bidder_rows.next().map_err(StoreError::from)? {
        Some(r) => Some(bidder_of(r)?),
        None => None,
    };
    while let Some(r) = rows.next().map_err(StoreError::from)? {
        let id: i64 = r.get(0).map_err(StoreError::from)?;
        let mut bidders = Vec::new();
        while let Some((pid, b)) = next_bidder.take() {
            if pid > id {
                next_bidder = Some((pid, b));
                break;
            }
            if pid == id {
                bidders.push(b);
            }
            next_bidder = match bidder_rows.next().map_err(StoreError::from)? {
                Some(r) => Some(bidder_of(r)?),
                None => None,
            };
        }
        if f(proposal_of(r, bidders)?)?.is_break() {
            break;
        }
    }
    Ok(())
}

/// The proposal of a program's stage with this reference, or with this id, with its bidders.
pub fn proposal(
    conn: &Connection,
    program_id: i64,
    stage: Stage,
    by: ProposalKey<'_>,
) -> Result<Option<StoredProposal>> {
    let (column, key): (&str, &dyn rusqlite::ToSql) = match &by {
        ProposalKey::Reference(r) => ("reference", r),
        ProposalKey::Id(id) => ("id", id),
    };
    let mut bs = conn.prepare_cached(
        "SELECT proposal_id, doc_type, doc_number, name FROM proposal_bidders
         WHERE proposal_id = ?1 ORDER BY seq",
    )?;
    let mut ps = conn.prepare_cached(&format!(
        "SELECT {PROPOSAL_COLUMNS} FROM proposals p
         WHERE p.program_id = ?1 AND p.stage = ?2 AND p.{column} = ?3"
    ))?;
    let mut rows = ps.query(params![program_id, stage, key])?;
    let Some(r) = rows.next()? else {
        return Ok(None);
    };
    let id: i64 = r.get(0)?;
    let mut bidders = Vec::new();
    let mut b = bs.query(params![id])?;
    while let Some(row) = b.next()? {
        bidders.push(bidder_of(row)?.1);
    }
    Ok(Some(proposal_of(r, bidders)?))
}

/// How [`proposal`] finds a proposal.
#[derive(Debug, Clone, Copy)]
pub enum ProposalKey<'a> {
    Reference(&'a str),
    Id(i64),
}

/// The id and import of the proposal of a program's stage stored with `reference`, if any (a
/// stored reference cannot be imported again).
pub fn stored_reference(
    conn: &Connection,
    program_id: i64,
    stage: Stage,
    reference: &str,
) -> Result<Option<(i64, i64)>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, import_id FROM proposals
             WHERE program_id = ?1 AND stage = ?2 AND reference = ?3",
        )?
        .query_row(params![program_id, stage, reference], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// Whether a program's stage has any proposal stored.
pub fn any_proposal(conn: &Connection, program_id: i64, stage: Stage) -> Result<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM proposals WHERE program_id = ?1 AND stage = ?2)",
        params![program_id, stage],
        |r| r.get(0),
    )?)
}

/// The proposals of a program's stage that share a person or a beneficial owner with another
/// (the keys of `offering::stage::keys`: each bidder's `DOC_TYPE:NUMBER` and the beneficial-owner
/// group, each once per proposal), by id: found by SQLite's sorts, whose temporary storage goes
/// to disk where it may, not by a map of every key in memory.
pub fn same_bidders(conn: &Connection, program_id: i64, stage: Stage) -> Result<HashSet<i64>> {
    super::with_cache(
        conn,
        super::STREAMING_CACHE,
        super::Temp::OnDiskIfAllowed,
        || {
            let mut stmt = conn.prepare_cached(
                "WITH k(pid, key) AS MATERIALIZED (
                     SELECT b.proposal_id, b.doc_type || ':' || b.doc_number
                     FROM proposal_bidders b JOIN proposals p ON p.id = b.proposal_id
                     WHERE p.program_id = ?1 AND p.stage = ?2
                     UNION
                     SELECT id, beneficial_owner FROM proposals
                     WHERE program_id = ?1 AND stage = ?2 AND beneficial_owner IS NOT NULL)
                 SELECT DISTINCT pid FROM k
                 WHERE key IN (SELECT key FROM k GROUP BY key HAVING COUNT(*) > 1)",
            )?;
            let ids = stmt.query_map(params![program_id, stage], |r| r.get(0))?;
            Ok(ids.collect::<rusqlite::Result<_>>()?)
        },
    )
}

/// The earlier import of the same file for this program and stage, if any.
pub fn prior_import(
    conn: &Connection,
    program_id: i64,
    stage: Stage,
    sha256: &str,
) -> Result<Option<PriorImport>> {
    Ok(conn
        .query_row(
            "SELECT id, created_at, created_by FROM proposal_imports
             WHERE program_id = ?1 AND stage = ?2 AND sha256 = ?3",
            params![program_id, stage, sha256],
            |r| {
                Ok(PriorImport {
                    import_id: r.get(0)?,
                    at: r.get(1)?,
                    by: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// A tied proposal's answer to the invitation to improve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Improvement {
    pub id: i64,
    pub proposal_id: i64,
    pub price: Decimal,
    /// False when it was not above the original (recorded, ignored).
    pub counted: bool,
    pub created_at: String,
}

/// The improvements recorded for a program's stage, by proposal id.
pub fn improvements(
    conn: &Connection,
    program_id: i64,
    stage: Stage,
) -> Result<HashMap<i64, Improvement>> {
    let mut stmt = conn.prepare_cached(
        "SELECT i.id, i.proposal_id, i.price, i.counted, i.created_at FROM stage_improvements i
         JOIN proposals p ON p.id = i.proposal_id WHERE p.program_id = ?1 AND p.stage = ?2",
    )?;
    let rows = stmt.query_map(params![program_id, stage], |r| {
        let c = Cols::new(r, "stage_improvements");
        Ok(Improvement {
            id: c.get(0)?,
            proposal_id: c.get(1)?,
            price: c.decimal(2)?,
            counted: c.get::<i64>(3)? != 0,
            created_at: c.get(4)?,
        })
    })?;
    let mut out = HashMap::new();
    for i in rows {
        let i = i?;
        out.insert(i.proposal_id, i);
    }
    Ok(out)
}

/// Records an improvement (audited).
pub fn insert_improvement(
    tx: &mut Tx<'_>,
    proposal_id: i64,
    price: Decimal,
    counted: bool,
) -> Result<i64> {
    tx.insert(
        "stage_improvements",
        crate::store::Action::StageImprove,
        &[
            ("proposal_id", &proposal_id),
            ("price", &Exact(price)),
            ("counted", &i64::from(counted)),
        ],
    )
}

/// A draw as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDraw {
    pub id: i64,
    pub stage: Stage,
    pub tranche: u32,
    pub seed: String,
    pub hashed_text: String,
    pub digest: String,
    pub number: String,
    pub tied: usize,
    pub winner_index: usize,
    pub winner: String,
    pub proposal_id: i64,
    pub created_at: String,
    pub created_by: String,
}

/// The draws of a program's stage, by tranche.
pub fn draws(conn: &Connection, program_id: i64, stage: Stage) -> Result<Vec<StoredDraw>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, stage, tranche, seed, hashed_text, digest, number, tied, winner_index, winner, proposal_id,
                created_at, created_by
         FROM stage_draws WHERE program_id = ?1 AND stage = ?2 ORDER BY tranche",
    )?;
    let rows = stmt.query_map(params![program_id, stage], |r| {
        let c = Cols::new(r, "stage_draws");
        Ok(StoredDraw {
            id: c.get(0)?,
            stage: c.get(1)?,
            tranche: c.get(2)?,
            seed: c.get(3)?,
            hashed_text: c.get(4)?,
            digest: c.get(5)?,
            number: c.get(6)?,
            tied: usize::try_from(c.get::<i64>(7)?).unwrap_or(0),
            winner_index: usize::try_from(c.get::<i64>(8)?).unwrap_or(0),
            winner: c.get(9)?,
            proposal_id: c.get(10)?,
            created_at: c.get(11)?,
            created_by: c.get(12)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What a draw records.
pub struct NewDraw<'a> {
    pub program_id: i64,
    pub stage: Stage,
    pub tranche: u32,
    pub draw: &'a crate::offering::stage::Draw,
    pub seed: &'a str,
    pub proposal_id: i64,
}

/// Records a draw (audited: the event's payload is the row, with the seed, the text hashed, the
/// digest and the winner).
pub fn insert_draw(tx: &mut Tx<'_>, d: &NewDraw<'_>) -> Result<i64> {
    tx.insert(
        "stage_draws",
        crate::store::Action::StageDraw,
        &[
            ("program_id", &d.program_id),
            ("stage", &d.stage),
            ("tranche", &d.tranche),
            ("seed", &d.seed),
            ("hashed_text", &d.draw.text),
            ("digest", &d.draw.digest),
            ("number", &d.draw.number.to_string()),
            ("tied", &(d.draw.sorted.len() as i64)),
            ("winner_index", &(d.draw.index as i64)),
            ("winner", &d.draw.winner),
            ("proposal_id", &d.proposal_id),
        ],
    )
}

/// How a stage ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Adjudicated,
    /// Declared void (desierta).
    Desert,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Adjudicated => "adjudicated",
            Kind::Desert => "desert",
        }
    }
}

/// A stage's conclusion as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conclusion {
    pub id: i64,
    pub stage: Stage,
    pub kind: Kind,
    pub decided_on: NaiveDate,
    pub offered: u64,
    pub awarded: u64,
    pub leftover: u64,
    pub price: Option<Decimal>,
    pub stage_price_id: Option<i64>,
    pub created_at: String,
    pub created_by: String,
}

/// The conclusion of a program's stage, if it was concluded.
pub fn conclusion(conn: &Connection, program_id: i64, stage: Stage) -> Result<Option<Conclusion>> {
    Ok(conn
        .query_row(
            "SELECT id, stage, kind, decided_on, offered, awarded, leftover, price, stage_price_id, created_at,
                    created_by
             FROM stage_conclusions WHERE program_id = ?1 AND stage = ?2",
            params![program_id, stage],
            |r| {
                let c = Cols::new(r, "stage_conclusions");
                let kind: String = c.get(2)?;
                Ok(Conclusion {
                    id: c.get(0)?,
                    stage: c.get(1)?,
                    kind: if kind == "adjudicated" {
                        Kind::Adjudicated
                    } else {
                        Kind::Desert
                    },
                    decided_on: c.date(3)?,
                    offered: c.shares(4)?,
                    awarded: c.shares(5)?,
                    leftover: c.shares(6)?,
                    price: c.opt_decimal(7)?,
                    stage_price_id: c.get(8)?,
                    created_at: c.get(9)?,
                    created_by: c.get(10)?,
                })
            },
        )
        .optional()?)
}

/// One tranche's award (or its lack: `proposal_id` None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    pub tranche: u32,
    pub shares: u64,
    pub proposal_id: Option<i64>,
    pub price: Option<Decimal>,
    pub term_days: Option<u32>,
    pub rate_ea_pct: Option<Decimal>,
    pub value: Option<Decimal>,
    pub payment_due: Option<NaiveDate>,
    pub draw_id: Option<i64>,
}

/// The awards of a conclusion, by tranche.
pub fn awards(conn: &Connection, conclusion_id: i64) -> Result<Vec<Award>> {
    let mut stmt = conn.prepare_cached(
        "SELECT tranche, shares, proposal_id, price, term_days, rate_ea_pct, value, payment_due, draw_id
         FROM stage_awards WHERE conclusion_id = ?1 ORDER BY tranche",
    )?;
    let rows = stmt.query_map(params![conclusion_id], |r| {
        let c = Cols::new(r, "stage_awards");
        Ok(Award {
            tranche: c.get(0)?,
            shares: c.shares(1)?,
            proposal_id: c.get(2)?,
            price: c.opt_decimal(3)?,
            term_days: c.get(4)?,
            rate_ea_pct: c.opt_decimal(5)?,
            value: c.opt_decimal(6)?,
            payment_due: c.opt_date(7)?,
            draw_id: c.get(8)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What a conclusion records.
pub struct NewConclusion {
    pub program_id: i64,
    pub stage: Stage,
    pub kind: Kind,
    pub decided_on: NaiveDate,
    pub offered: u64,
    pub awarded: u64,
    pub leftover: u64,
    pub price: Option<Decimal>,
    pub stage_price_id: Option<i64>,
}

/// Writes a stage's conclusion and its awards with one audit event covering them.
pub fn write_conclusion(tx: &mut Tx<'_>, c: &NewConclusion, awards: &[Award]) -> Result<i64> {
    let id = tx.insert_unaudited(
        "stage_conclusions",
        &[
            ("program_id", &c.program_id),
            ("stage", &c.stage),
            ("kind", &c.kind.as_str()),
            ("decided_on", &Day(c.decided_on)),
            ("offered", &Shares(c.offered)),
            ("awarded", &Shares(c.awarded)),
            ("leftover", &Shares(c.leftover)),
            ("price", &c.price.map(Exact)),
            ("stage_price_id", &c.stage_price_id),
        ],
    )?;
    let (mut first, mut last) = (0, 0);
    for a in awards {
        let aid = tx.insert_unaudited(
            "stage_awards",
            &[
                ("conclusion_id", &id),
                ("tranche", &a.tranche),
                ("shares", &Shares(a.shares)),
                ("proposal_id", &a.proposal_id),
                ("price", &a.price.map(Exact)),
                ("term_days", &a.term_days),
                ("rate_ea_pct", &a.rate_ea_pct.map(Exact)),
                ("value", &a.value.map(Exact)),
                ("payment_due", &a.payment_due.map(Day)),
                ("draw_id", &a.draw_id),
            ],
        )?;
        if first == 0 {
            first = aid;
        }
        last = aid;
    }
    let covers: Vec<Cover> = (first > 0)
        .then_some(Cover {
            table: "stage_awards",
            first,
            last,
            digest: None,
        })
        .into_iter()
        .collect();
    let action = match c.kind {
        Kind::Adjudicated => crate::store::Action::StageAdjudicate,
        Kind::Desert => crate::store::Action::StageDesert,
    };
    tx.audit_bulk(action, "stage_conclusions", id, &covers)?;
    Ok(id)
}
