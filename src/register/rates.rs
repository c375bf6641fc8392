//! Certified rate periods added to the register (SFC certifications): each day has one certified
//! rate, so a period that overlaps one in force is refused unless a reason supersedes it.

use super::{Field, Refusal, Result};
use crate::lang::fecha;
use crate::rates::RatePeriod;
use crate::said;
use crate::store::Tx;
use crate::store::rates::{self, Added, Origin};
use chrono::NaiveDate;
use std::collections::BTreeMap;

/// Adds a certified period; see [`add_all`].
pub fn add(
    tx: &mut Tx<'_>,
    period: &RatePeriod,
    supersede: Option<&str>,
    forced: Option<&str>,
) -> Result<Added> {
    let mut added = add_all(tx, std::slice::from_ref(period), supersede, forced)?;
    Ok(added.remove(0))
}

/// Adds certified periods in order. One that overlaps a period in force (an earlier one of
/// `periods` included) is refused unless `supersede` gives the reason; the overlapped periods
/// then leave the series and stay on record. The periods in force are read once. `forced` is
/// why a usury figure that is not 1.5 × IBC was accepted (`RateSeries::from_csv_forced`); it is
/// kept in each period's audit event.
pub fn add_all(
    tx: &mut Tx<'_>,
    periods: &[RatePeriod],
    supersede: Option<&str>,
    forced: Option<&str>,
) -> Result<Vec<Added>> {
    // the periods in force, by first day: they do not overlap, so the ones a period overlaps
    // are found from the last one starting by its end, going back while they reach its start
    // (a scan of every period per period made 8,000 periods take 0.2 s and 24,000 take 1 s)
    let mut in_force: BTreeMap<(NaiveDate, usize), (Origin, RatePeriod)> =
        rates::in_force(tx.conn())?
            .into_iter()
            .enumerate()
            .map(|(k, (o, p))| ((p.valid_from, k), (o, p)))
            .collect();
    let first_key = in_force.len();
    let mut out = Vec::with_capacity(periods.len());
    for (k, period) in periods.iter().enumerate() {
        let mut keys: Vec<(NaiveDate, usize)> = in_force
            .range(..=(period.valid_to, usize::MAX))
            .rev()
            .take_while(|(_, (_, p))| p.valid_to >= period.valid_from)
            .map(|(key, _)| *key)
            .collect();
        keys.reverse();
        let overlapping: Vec<(Origin, RatePeriod)> =
            keys.iter().map(|key| in_force[key].clone()).collect();
        let reason = match supersede {
            Some(r) => r,
            None if overlapping.is_empty() => "",
            None => {
                let list = overlapping
                    .iter()
                    .map(|(o, p)| {
                        let origin = match o {
                            Origin::Shipped => "embedded series".to_string(),
                            Origin::Register(id) => format!("register rate {id}"),
                        };
                        format!(
                            "{}..{} ({}, {})",
                            p.valid_from, p.valid_to, p.resolution, origin
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let lista = overlapping
                    .iter()
                    .map(|(o, p)| {
                        let origen = match o {
                            Origin::Shipped => "serie incorporada".to_string(),
                            Origin::Register(id) => format!("tasa N.º {id} del registro"),
                        };
                        format!(
                            "el del {} al {} ({}, {})",
                            fecha(p.valid_from),
                            fecha(p.valid_to),
                            p.resolution,
                            origen
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let (from, to) = (period.valid_from, period.valid_to);
                let (from_es, to_es) = (fecha(from), fecha(to));
                return Err(Refusal::Repeat {
                    reason: said!(
                        register::overlaps_each_day_has_one_certified,
                        from,
                        to,
                        list,
                        from_es,
                        to_es,
                        lista
                    ),
                    with: Field::SupersedeReason,
                }
                .into());
            }
        };
        let added = rates::insert(
            tx,
            period,
            supersede.map(|_| (reason, overlapping.as_slice())),
            forced,
        )?;
        for k in &keys {
            in_force.remove(k);
        }
        in_force.insert(
            (period.valid_from, first_key + k),
            (Origin::Register(added.id), period.clone()),
        );
        out.push(added);
    }
    Ok(out)
}

/// What adding a file of periods would do to the series in force (`vigia rates import-sfc`).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Periods in force with the same days and IBC as the file's: left as they are, so the
    /// usury figure the SFC published for them stays the moratorium rate (LN §9). Each with the
    /// file's period, whose resolution may be written differently.
    pub unchanged: Vec<(RatePeriod, RatePeriod)>,
    /// Periods that overlap nothing in force.
    pub new: Vec<RatePeriod>,
    /// Periods that overlap periods in force with other days or another IBC, with those.
    pub superseding: Vec<(RatePeriod, Vec<(Origin, RatePeriod)>)>,
}

impl Plan {
    /// The periods to add, in date order.
    pub fn to_add(&self) -> Vec<RatePeriod> {
        let mut out: Vec<RatePeriod> = self
            .new
            .iter()
            .cloned()
            .chain(self.superseding.iter().map(|(p, _)| p.clone()))
            .collect();
        out.sort_by_key(|p| p.valid_from);
        out
    }
}

/// Compares `periods` (sorted, not overlapping) with the series in force.
pub fn plan(conn: &rusqlite::Connection, periods: &[RatePeriod]) -> Result<Plan> {
    let in_force = rates::in_force(conn)?;
    let mut plan = Plan::default();
    for p in periods {
        let overlapping: Vec<(Origin, RatePeriod)> = in_force
            .iter()
            .filter(|(_, q)| q.valid_from <= p.valid_to && p.valid_from <= q.valid_to)
            .cloned()
            .collect();
        match overlapping.as_slice() {
            [] => plan.new.push(p.clone()),
            [(_, q)]
                if q.valid_from == p.valid_from
                    && q.valid_to == p.valid_to
                    && q.ibc_ea_pct == p.ibc_ea_pct =>
            {
                plan.unchanged.push((q.clone(), p.clone()));
            }
            _ => plan.superseding.push((p.clone(), overlapping)),
        }
    }
    Ok(plan)
}

/// Adds what [`plan`] finds new or different, read and decided inside the write transaction:
/// a period that would replace one in force needs `supersede`'s reason, as with [`add_all`].
pub fn import(
    tx: &mut Tx<'_>,
    periods: &[RatePeriod],
    supersede: Option<&str>,
) -> Result<(Plan, Vec<Added>)> {
    let plan = plan(tx.conn(), periods)?;
    let added = add_all(tx, &plan.to_add(), supersede, None)?;
    Ok((plan, added))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;
    use crate::store::Store;
    use crate::store::rates::{series, supersessions};
    use chrono::NaiveDate;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn period(from: &str, to: &str, ibc: &str) -> RatePeriod {
        RatePeriod::new(
            d(from),
            d(to),
            Some(dec(ibc)),
            None,
            "SFC Res. test".into(),
            0,
        )
        .unwrap()
    }

    #[test]
    fn additions_extend_the_series_and_overlaps_need_a_reason() {
        let mut store = Store::in_memory().unwrap();
        store
            .write::<_, crate::register::Error>("t", |tx| {
                add(tx, &period("2026-11-01", "2026-11-30", "19.00"), None, None)
            })
            .unwrap();
        let s = series(store.conn()).unwrap();
        assert_eq!(
            s.period_on(d("2026-11-15")).unwrap().moratorium_ea_pct(),
            dec("28.500")
        );

        let e = store
            .write::<_, crate::register::Error>("t", |tx| {
                add(tx, &period("2026-10-01", "2026-10-31", "19.10"), None, None)
            })
            .err()
            .unwrap();
        match e {
            crate::register::Error::Refused(Refusal::Repeat { reason, with }) => {
                assert_eq!(with, Field::SupersedeReason);
                assert!(
                    reason
                        .en()
                        .starts_with("2026-10-01..2026-10-31 overlaps 2026-10-01..2026-10-31 ("),
                    "{reason}"
                );
                assert!(
                    reason.es().starts_with(
                        "el período del 01/10/2026 al 31/10/2026 se superpone con el del 01/10/2026 al \
                         31/10/2026 ("
                    ),
                    "{}",
                    reason.es()
                );
            }
            other => panic!("{other}"),
        }
        let added = store
            .write::<_, crate::register::Error>("t", |tx| {
                add(
                    tx,
                    &period("2026-10-01", "2026-10-31", "19.10"),
                    Some("typo in source"),
                    None,
                )
            })
            .unwrap();
        assert_eq!(added.superseded, vec![(d("2026-10-01"), d("2026-10-31"))]);
        let s = series(store.conn()).unwrap();
        assert_eq!(
            s.period_on(d("2026-10-15")).unwrap().ibc_ea_pct,
            Some(dec("19.10"))
        );
        // the superseded shipped row stays on record as a supersession
        assert_eq!(
            supersessions(store.conn()).unwrap()[0].shipped_valid_from,
            Some(d("2026-10-01"))
        );
        assert_eq!(
            crate::store::audit::verify(store.conn())
                .unwrap()
                .first_mismatch,
            None
        );
    }

    #[test]
    fn a_period_supersedes_every_period_it_overlaps_and_no_other() {
        let mut store = Store::in_memory().unwrap();
        let days: Vec<RatePeriod> = (1..=9)
            .map(|i| {
                let day = format!("2030-03-0{i}");
                period(&day, &day, "20")
            })
            .collect();
        store
            .write::<_, crate::register::Error>("t", |tx| add_all(tx, &days, None, None))
            .unwrap();
        // 03-03..03-05 overlaps three of the nine days, and the shipped series none
        let e = store.write::<_, crate::register::Error>("t", |tx| {
            add(tx, &period("2030-03-03", "2030-03-05", "21"), None, None)
        });
        match e {
            Err(crate::register::Error::Refused(Refusal::Repeat { reason, .. })) => assert!(
                reason.en().starts_with(
                    "2030-03-03..2030-03-05 overlaps 2030-03-03..2030-03-03 (SFC Res. test, register rate 3), \
                     2030-03-04..2030-03-04 (SFC Res. test, register rate 4), \
                     2030-03-05..2030-03-05 (SFC Res. test, register rate 5);"
                ),
                "{reason}"
            ),
            other => panic!("{other:?}"),
        }
        let added = store
            .write::<_, crate::register::Error>("t", |tx| {
                add_all(
                    tx,
                    &[
                        period("2030-03-03", "2030-03-05", "21"),
                        // overlaps the one just added and the ninth day
                        period("2030-03-05", "2030-03-09", "22"),
                    ],
                    Some("corrected"),
                    None,
                )
            })
            .unwrap();
        let day = |s: &str| (d(s), d(s));
        assert_eq!(
            added[0].superseded,
            vec![day("2030-03-03"), day("2030-03-04"), day("2030-03-05")]
        );
        assert_eq!(
            added[1].superseded,
            vec![
                (d("2030-03-03"), d("2030-03-05")),
                day("2030-03-06"),
                day("2030-03-07"),
                day("2030-03-08"),
                day("2030-03-09")
            ]
        );
    }

    #[test]
    fn periods_added_together_see_each_other() {
        let mut store = Store::in_memory().unwrap();
        // the second overlaps the first of the same batch: refused without a reason, and the
        // whole batch with it
        let e = store.write::<_, crate::register::Error>("t", |tx| {
            add_all(
                tx,
                &[
                    period("2030-01-01", "2030-01-31", "20"),
                    period("2030-01-15", "2030-02-14", "21"),
                ],
                None,
                None,
            )
        });
        assert!(matches!(e, Err(crate::register::Error::Refused(_))));
        assert_eq!(crate::store::rates::stored(store.conn()).unwrap(), vec![]);
        // with a reason the second supersedes the first
        let added = store
            .write::<_, crate::register::Error>("t", |tx| {
                add_all(
                    tx,
                    &[
                        period("2030-01-01", "2030-01-31", "20"),
                        period("2030-01-15", "2030-02-14", "21"),
                    ],
                    Some("corrected"),
                    None,
                )
            })
            .unwrap();
        assert_eq!(
            added[1].superseded,
            vec![(d("2030-01-01"), d("2030-01-31"))]
        );
    }
}
