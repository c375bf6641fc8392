//! Programs (stored verbatim as their reviewed TOML) and their stage prices.

use super::columns::{self, Cols, Exact};
use super::{Result, StoreError, Tx};
use crate::calendar::FineScale;
use crate::fine::StagePrice;
use crate::later_stages::Stage;
use crate::program::Program;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use rust_decimal::Decimal;

/// A program as registered.
#[derive(Debug, Clone)]
pub struct StoredProgram {
    pub id: i64,
    pub program: Program,
    pub sha256: String,
    pub created_at: String,
    pub created_by: String,
}

impl StoredProgram {
    /// The program's bracket and lock-up rule (a stored program that no longer gives one is
    /// corrupt).
    pub fn scale(&self) -> Result<FineScale> {
        self.program
            .scale()
            .map_err(|e| StoreError::Corrupt(format!("program {}: {e}", self.program.code)))
    }
}

/// Each program's bracket and lock-up rule, read from the register once (for walks over many
/// adjudications).
#[derive(Default)]
pub struct Scales(std::collections::HashMap<i64, FineScale>);

impl Scales {
    pub fn get(&mut self, conn: &Connection, program_id: i64) -> Result<&FineScale> {
        Ok(match self.0.entry(program_id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(by_id(conn, program_id)?.scale()?)
            }
        })
    }
}

/// What `add` did.
pub enum Added {
    New(i64),
    /// The same file was already registered under this id: nothing added.
    AlreadyThere(i64),
}

/// The id and file hash of the program registered under `code`, if any.
pub fn sha256_of(conn: &Connection, code: &str) -> Result<Option<(i64, String)>> {
    Ok(conn
        .query_row(
            "SELECT id, sha256 FROM programs WHERE code = ?1",
            params![code],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Stores a program file (the register has checked its code is free).
pub fn insert(tx: &mut Tx<'_>, program: &Program, source: &str, sha256: &str) -> Result<i64> {
    tx.insert(
        "programs",
        crate::store::Action::ProgramAdd,
        &[
            ("code", &program.code),
            ("source_toml", &source),
            ("sha256", &sha256),
        ],
    )
}

const SELECT: &str = "SELECT id, source_toml, sha256, created_at, created_by FROM programs";

impl StoredProgram {
    /// A row of [`SELECT`]; the reviewed TOML is parsed and validated again (a stored file that
    /// no longer validates is corrupt).
    fn from_row(r: &Row<'_>) -> rusqlite::Result<StoredProgram> {
        let c = Cols::new(r, "programs");
        let id: i64 = c.get(0)?;
        let source: String = c.get(1)?;
        let program = Program::from_toml(&source)
            .map_err(|e| columns::corrupt(1, format!("program {id}: {e}")))?;
        Ok(StoredProgram {
            id,
            program,
            sha256: c.get(2)?,
            created_at: c.get(3)?,
            created_by: c.get(4)?,
        })
    }
}

/// The program with this code.
pub fn by_code(conn: &Connection, code: &str) -> Result<StoredProgram> {
    conn.query_row(
        &format!("{SELECT} WHERE code = ?1"),
        params![code],
        StoredProgram::from_row,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "program",
        id: code.to_string(),
    })
}

/// The program with this id.
pub fn by_id(conn: &Connection, id: i64) -> Result<StoredProgram> {
    conn.query_row(
        &format!("{SELECT} WHERE id = ?1"),
        params![id],
        StoredProgram::from_row,
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "program",
        id: id.to_string(),
    })
}

/// Every program, by code.
pub fn list(conn: &Connection) -> Result<Vec<StoredProgram>> {
    let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY code"))?;
    let rows = stmt.query_map([], StoredProgram::from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A recorded stage-price entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageRecord {
    pub id: i64,
    /// `None`: no later stage will happen.
    pub stage: Option<Stage>,
    pub price: Option<Decimal>,
    pub recorded_on: NaiveDate,
    pub created_at: String,
}

impl StageRecord {
    pub fn as_stage_price(&self) -> StagePrice {
        match self.price {
            Some(p) => StagePrice::Known(p),
            None => StagePrice::Absent,
        }
    }
}

/// An act of a program outside its validity, allowed by a recorded reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Offer,
    Tranche,
}

impl Act {
    pub fn as_str(self) -> &'static str {
        match self {
            Act::Offer => "offer",
            Act::Tranche => "tranche",
        }
    }
}

/// Records why `act` (its id, on `on`) happened outside the program's validity.
pub fn record_validity_exception(
    tx: &mut Tx<'_>,
    program_id: i64,
    act: Act,
    act_id: i64,
    on: NaiveDate,
    reason: &str,
) -> Result<i64> {
    tx.insert(
        "validity_exceptions",
        crate::store::Action::ProgramOutsideValidity,
        &[
            ("program_id", &program_id),
            ("act", &act.as_str()),
            ("act_id", &act_id),
            ("act_date", &columns::Day(on)),
            ("reason", &reason),
        ],
    )
}

/// Records the stage price (`stage` 2 or 3 with `price`), or that no later stage happened
/// (`None`); a `reason` (why it corrects a price in force) goes into its audit event's code.
pub fn record_stage(
    tx: &mut Tx<'_>,
    program_id: i64,
    stage: Option<(Stage, Decimal)>,
    on: NaiveDate,
    reason: Option<&str>,
) -> Result<i64> {
    let (s, p) = match stage {
        Some((s, p)) => (Some(s), Some(Exact(p))),
        None => (None, None),
    };
    let on = on.to_string();
    let columns: &[(&str, &dyn rusqlite::ToSql)] = &[
        ("program_id", &program_id),
        ("stage", &s),
        ("price", &p),
        ("recorded_on", &on),
    ];
    let action = crate::store::Action::ProgramStagePrice;
    match reason {
        Some(reason) => tx.insert_noted("stage_prices", action, reason, columns),
        None => tx.insert("stage_prices", action, columns),
    }
}

/// The latest stage-price record of a program, if any (none yet: the stage is pending).
pub fn latest_stage(conn: &Connection, program_id: i64) -> Result<Option<StageRecord>> {
    Ok(conn
        .query_row(
            "SELECT id, stage, price, recorded_on, created_at FROM stage_prices WHERE program_id = ?1 ORDER BY id DESC LIMIT 1",
            params![program_id],
            |r| {
                let c = Cols::new(r, "stage_prices");
                Ok(StageRecord {
                    id: c.get(0)?,
                    stage: c.get(1)?,
                    price: c.opt_decimal(2)?,
                    recorded_on: c.date(3)?,
                    created_at: c.get(4)?,
                })
            },
        )
        .optional()?)
}

/// The price each later stage obtained, by stage (2, 3), as last recorded for it (a stage
/// adjudicated, or typed by hand with `program stage-price`; a later record corrects an earlier
/// one of the same stage). A `none` typed by hand withdrew every price before it, for good: a
/// price recorded after it does not bring them back (the `none` of a stage declared void,
/// linked from its conclusion, withdraws nothing).
pub fn stage_prices(conn: &Connection, program_id: i64) -> Result<Vec<(Stage, Decimal)>> {
    let mut st = conn.prepare(
        "SELECT stage, price FROM stage_prices WHERE program_id = ?1 AND stage IS NOT NULL \
         AND id > COALESCE((SELECT MAX(n.id) FROM stage_prices n WHERE n.program_id = ?1 \
         AND n.stage IS NULL AND NOT EXISTS (SELECT 1 FROM stage_conclusions c \
         WHERE c.stage_price_id = n.id AND c.kind = 'desert')), 0) \
         ORDER BY id",
    )?;
    let mut by_stage: Vec<(Stage, Decimal)> = Vec::new();
    let mut rows = st.query(params![program_id])?;
    while let Some(r) = rows.next()? {
        let c = Cols::new(r, "stage_prices");
        let stage: Stage = c.get(0)?;
        let Some(price) = c.opt_decimal(1)? else {
            continue;
        };
        match by_stage.iter_mut().find(|(s, _)| *s == stage) {
            Some(entry) => entry.1 = price,
            None => by_stage.push((stage, price)),
        }
    }
    by_stage.sort_by_key(|(s, _)| *s);
    Ok(by_stage)
}

/// The program's Art. 9 (iii) price as the engine takes it (LEGAL_NOTES §7.1): the **highest**
/// of the prices the later stages obtained ("el mayor valor"), each stage's own price
/// share-weighted over its tranches and as last recorded for it; pending until something is
/// recorded. When the latest record says no later stage happened: a `--stage none` typed by
/// hand withdraws the prices before it (absent, as always); the `none` of a last stage declared
/// void (`stage desert`, which links it from its conclusion) keeps the price of a stage that
/// sold before it.
/// While the stage adjudicated last left shares to a later stage not yet concluded (a record of
/// the adjudicated stage's own figure after it concludes nothing), the price is only the highest
/// so far ([`StagePrice::SoFar`]): liquidations stay provisional.
pub fn stage_price(conn: &Connection, program_id: i64) -> Result<StagePrice> {
    Ok(stage_price_and_stages(conn, program_id)?.0)
}

/// [`stage_price`] and the stage prices it is the highest of, by stage (empty unless it is
/// known from recorded stages): what a liquidation lists to show which price it took.
pub fn stage_price_and_stages(
    conn: &Connection,
    program_id: i64,
) -> Result<(StagePrice, Vec<(Stage, Decimal)>)> {
    // the stages' prices, read once: the price is their highest, and they are listed with it
    let stages = stage_prices(conn, program_id)?;
    let highest = stages.iter().map(|(_, p)| *p).max();
    let price = match latest_stage(conn, program_id)? {
        None => StagePrice::Pending,
        Some(r) if r.price.is_none() => {
            let desert: bool = conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM stage_conclusions WHERE stage_price_id = ?1 \
                 AND kind = 'desert')",
                params![r.id],
                |row| row.get(0),
            )?;
            match highest {
                Some(p) if desert => StagePrice::Known(p),
                _ => StagePrice::Absent,
            }
        }
        Some(r) => match highest {
            Some(p) if later_stage_pending(conn, program_id)? => StagePrice::SoFar(p),
            Some(p) => StagePrice::Known(p),
            None => r.as_stage_price(),
        },
    };
    let listed = match price {
        StagePrice::Known(_) | StagePrice::SoFar(_) => stages,
        _ => Vec::new(),
    };
    Ok((price, listed))
}

/// Whether the stage adjudicated last in vigia left shares to a later stage of the program that
/// has not concluded: until a record of that later stage (its adjudication, a price typed for it,
/// or a `none`) follows the adjudication's, the price is only the highest so far (SPEC §4: a
/// later stage still pending makes the liquidation provisional). A record of the adjudicated
/// stage itself after it (its figure corrected by hand) says nothing of the later stage: it stays
/// pending. A price typed by hand for a stage vigia did not adjudicate says nothing of what is
/// left: final.
fn later_stage_pending(conn: &Connection, program_id: i64) -> Result<bool> {
    let adjudicated: Option<(u8, i64, i64)> = conn
        .query_row(
            "SELECT stage, leftover, stage_price_id FROM stage_conclusions WHERE program_id = ?1 \
             AND kind = 'adjudicated' AND stage_price_id IS NOT NULL \
             ORDER BY stage_price_id DESC LIMIT 1",
            params![program_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
    let Some((stage, leftover, record_id)) = adjudicated else {
        return Ok(false);
    };
    let (Some(stage), Ok(leftover)) = (Stage::from_number(stage), u64::try_from(leftover)) else {
        return Err(StoreError::Corrupt(format!(
            "stage_conclusions: stage {stage}, leftover {leftover}"
        )));
    };
    let last = by_id(conn, program_id)?.program.later_stages.last;
    if !stage.leaves_a_later_stage(last, leftover) {
        return Ok(false);
    }
    let concluded: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM stage_prices WHERE program_id = ?1 AND id > ?2 \
         AND (stage IS NULL OR stage > ?3))",
        params![program_id, record_id, stage.number()],
        |row| row.get(0),
    )?;
    Ok(!concluded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;
    use crate::program::{DECRETO_3939_2004, Program};

    /// A register with Decreto 3939's program, and the program's id.
    fn register() -> (super::super::Store, i64) {
        let mut store = super::super::Store::in_memory().unwrap();
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let id = store
            .write::<_, crate::register::Error>("ana", |tx| {
                crate::register::program::add(tx, &program, DECRETO_3939_2004)?;
                Ok(by_code(tx.conn(), &program.code)?.id)
            })
            .unwrap();
        (store, id)
    }

    /// Records by hand, on 2024-`m`-`d`, the price `s` gives a stage, or `none`; its id.
    fn record(
        store: &mut super::super::Store,
        id: i64,
        s: Option<(Stage, &str)>,
        (m, d): (u32, u32),
    ) -> i64 {
        let on = NaiveDate::from_ymd_opt(2024, m, d).unwrap();
        store
            .write::<_, crate::register::Error>("ana", |tx| {
                Ok(record_stage(tx, id, s.map(|(s, p)| (s, dec(p))), on, None)?)
            })
            .unwrap()
    }

    /// The last stage declared void on 2024-10-01, its conclusion linking stage-price record
    /// `none` (as `stage desert` writes it).
    fn desert_third(store: &super::super::Store, id: i64, none: i64) {
        store
            .conn()
            .execute(
                "INSERT INTO stage_conclusions (program_id, stage, kind, decided_on, offered, \
                 awarded, leftover, stage_price_id, created_at, created_by) \
                 VALUES (?1, 3, 'desert', '2024-10-01', 10, 0, 10, ?2, 'x', 'ana')",
                params![id, none],
            )
            .unwrap();
    }

    #[test]
    fn the_stage_price_is_the_highest_stage_and_a_void_last_stage_keeps_it() {
        let (mut store, id) = register();
        assert_eq!(stage_price(store.conn(), id).unwrap(), StagePrice::Pending);
        record(&mut store, id, Some((Stage::Second, "1800")), (6, 28));
        record(&mut store, id, Some((Stage::Third, "1050")), (9, 30));
        // LEGAL_NOTES §7.1: the highest, not the latest
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::Known(dec("1800"))
        );
        assert_eq!(
            stage_prices(store.conn(), id).unwrap(),
            [(Stage::Second, dec("1800")), (Stage::Third, dec("1050"))]
        );
        // a `none` typed by hand withdraws them
        let none = record(&mut store, id, None, (10, 1));
        assert_eq!(stage_price(store.conn(), id).unwrap(), StagePrice::Absent);
        // the same `none` as a void last stage's (linked from its conclusion) keeps them
        desert_third(&store, id, none);
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::Known(dec("1800"))
        );
    }

    #[test]
    fn a_price_typed_after_a_void_last_stage_keeps_the_second_stage_s_price() {
        let (mut store, id) = register();
        record(&mut store, id, Some((Stage::Second, "1800")), (10, 1));
        let void = record(&mut store, id, None, (10, 1));
        record(&mut store, id, Some((Stage::Third, "1050")), (10, 1));
        // the Third Stage declared void: its `none` is linked from its conclusion
        desert_third(&store, id, void);
        // the void stage withdrew nothing: the Second's 1.800 stays beside the Third's 1.050
        // typed after it, and it is the highest (LEGAL_NOTES §7.1)
        assert_eq!(
            stage_prices(store.conn(), id).unwrap(),
            [(Stage::Second, dec("1800")), (Stage::Third, dec("1050"))]
        );
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::Known(dec("1800"))
        );
    }

    #[test]
    fn correcting_by_hand_the_price_of_a_stage_that_left_shares_to_a_later_one_keeps_it_so_far() {
        let (mut store, id) = register();
        // the Second Stage adjudicated in vigia sold 6 of 10 shares: 4 left to the Third
        let second = record(&mut store, id, Some((Stage::Second, "1100")), (7, 1));
        store
            .conn()
            .execute(
                "INSERT INTO stage_conclusions (program_id, stage, kind, decided_on, offered, \
                 awarded, leftover, price, stage_price_id, created_at, created_by) \
                 VALUES (?1, 2, 'adjudicated', '2024-07-01', 10, 6, 4, '1100', ?2, 'x', 'ana')",
                params![id, second],
            )
            .unwrap();
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::SoFar(dec("1100"))
        );
        // the Second's figure corrected by hand says nothing of the Third: still so far
        record(&mut store, id, Some((Stage::Second, "1150")), (7, 1));
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::SoFar(dec("1150"))
        );
        // the Third's price recorded by hand concludes it: final, the highest of the two
        record(&mut store, id, Some((Stage::Third, "1000")), (7, 1));
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::Known(dec("1150"))
        );
    }

    #[test]
    fn prices_withdrawn_by_a_none_typed_by_hand_stay_withdrawn_when_a_price_follows() {
        let (mut store, id) = register();
        record(&mut store, id, Some((Stage::Second, "1800")), (6, 28));
        record(&mut store, id, None, (6, 28));
        record(&mut store, id, Some((Stage::Third, "1050")), (6, 28));
        // the Second's 1.800 was withdrawn: only the Third's price counts, not max(1.800, 1.050)
        assert_eq!(
            stage_price(store.conn(), id).unwrap(),
            StagePrice::Known(dec("1050"))
        );
        assert_eq!(
            stage_prices(store.conn(), id).unwrap(),
            [(Stage::Third, dec("1050"))]
        );
    }
}
