//! When the lock-ups end: the adjudications in force whose lock-up (the program's, from its
//! adjudication date) ends in each month of a span, for the dashboard's calendar. Read-only.

use crate::store::{self, Result};
use chrono::{Datelike, NaiveDate};

/// The lock-ups ending in one calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    /// The month's first day.
    pub first: NaiveDate,
    pub adjudications: u64,
    pub shares: u64,
}

/// The first day of `d`'s month, `n` months later.
fn month_after(d: NaiveDate, n: u32) -> Option<NaiveDate> {
    let months = d.year().checked_mul(12)? + d.month0() as i32 + i32::try_from(n).ok()?;
    NaiveDate::from_ymd_opt(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1)
}

/// The `months` calendar months from `from`'s, each with the adjudications in force whose
/// lock-up's last day falls in it (voided adjudications left out; every program).
pub fn ending_by_month(
    conn: &rusqlite::Connection,
    from: NaiveDate,
    months: u32,
) -> Result<Vec<Month>> {
    let mut out: Vec<Month> = (0..months)
        .filter_map(|i| month_after(from, i))
        .map(|first| Month {
            first,
            adjudications: 0,
            shares: 0,
        })
        .collect();
    // each program's lock-up rule, read once
    let scales = store::programs::list(conn)?
        .into_iter()
        .map(|p| Ok((p.id, p.scale()?)))
        .collect::<Result<std::collections::HashMap<_, _>>>()?;
    for g in store::lockups::by_date(conn)? {
        let Some(scale) = scales.get(&g.program_id) else {
            continue;
        };
        let Some(end) = scale.lockup_end(g.adjudicated_on) else {
            continue;
        };
        let Some(first) = month_after(end, 0) else {
            continue;
        };
        if let Some(m) = out.iter_mut().find(|m| m.first == first) {
            let sum = |a: u64, b: u64| {
                a.checked_add(b).ok_or_else(|| {
                    store::StoreError::Corrupt("more shares than a u64 holds".into())
                })
            };
            m.adjudications = sum(m.adjudications, g.adjudications)?;
            m.shares = sum(m.shares, g.shares)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::month_after;
    use chrono::NaiveDate;

    #[test]
    fn months_roll_over_the_year() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(month_after(d(2025, 11, 30), 0), Some(d(2025, 11, 1)));
        assert_eq!(month_after(d(2025, 11, 30), 2), Some(d(2026, 1, 1)));
        assert_eq!(month_after(d(2024, 3, 15), 24), Some(d(2026, 3, 1)));
    }
}
