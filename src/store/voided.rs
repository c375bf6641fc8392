//! The voided adjudications, read once by an import that reads many awards (the pledges'
//! rules, a re-import's comparison, the program's shares) instead of a correlated `EXISTS`
//! subquery for every award read: a register voids few awards, and nothing an import writes
//! voids one.

use super::Result;
use rusqlite::Connection;

/// Adjudication ids, one bit each (ids are dense: the table's rowids).
#[derive(Default)]
pub(super) struct IdSet(Vec<u64>);

impl IdSet {
    pub(super) fn contains(&self, id: i64) -> bool {
        let Ok(id) = usize::try_from(id) else {
            return false;
        };
        self.0
            .get(id / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    pub(super) fn insert(&mut self, id: i64) {
        let Ok(id) = usize::try_from(id) else {
            return;
        };
        if self.0.len() <= id / 64 {
            self.0.resize(id / 64 + 1, 0);
        }
        self.0[id / 64] |= 1 << (id % 64);
    }

    pub(super) fn remove(&mut self, id: i64) {
        if let Ok(id) = usize::try_from(id)
            && let Some(w) = self.0.get_mut(id / 64)
        {
            *w &= !(1 << (id % 64));
        }
    }
}

/// The ids of every voided adjudication, as the register holds them now (in the caller's
/// transaction, which an import holds until it ends).
pub(super) fn adjudications(conn: &Connection) -> Result<IdSet> {
    let mut set = IdSet::default();
    let mut stmt = conn.prepare_cached("SELECT adjudication_id FROM adjudication_voids")?;
    let mut ids = stmt.query([])?;
    while let Some(r) = ids.next()? {
        set.insert(r.get(0)?);
    }
    Ok(set)
}
