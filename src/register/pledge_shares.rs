//! Split pledges (Art. 10; LEGAL_NOTES §7.6): which shares a new pledge covers. Several pledges
//! may be in force on one adjudication (the shares a lender financed and took in pledge carry the
//! sellers' second-degree pledge, the rest a first-degree one), as long as together they cover no
//! more than the adjudicated shares, and second-degree ones no more than the financed shares when
//! the adjudication records how many. Pure: the caller reads the pledges in force.

use super::{Field, Refusal};
use crate::lang::{Said, Shown, fecha};
use crate::money::format_number;
use crate::said;
use crate::store::pledges::{Candidate, InForce};
use rust_decimal::Decimal;

/// A count of shares as the Spanish sentences write it (`50.000`).
fn acciones(n: u64) -> String {
    format_number(Decimal::from(n))
}

/// The shares some pledges cover together; `None` past `u64` (no register holds that many).
pub fn covered<'a>(pledges: impl IntoIterator<Item = &'a InForce>) -> Option<u64> {
    pledges
        .into_iter()
        .try_fold(0u64, |sum, p| sum.checked_add(p.shares))
}

/// The pledges in force, each named by its id, or by its line when the file being imported
/// wrote it: "pledge 7: rank 2, 600 shares, registered 2024-04-01; line 6 of this file: …".
fn listed(in_force: &[InForce]) -> Said {
    let en: Vec<String> = in_force
        .iter()
        .map(|p| {
            let (rank, shares, on) = (p.rank, p.shares, p.registered_on);
            match p.line {
                Some(line) => format!(
                    "line {line} of this file: rank {rank}, {shares} shares, registered {on}"
                ),
                None => format!(
                    "pledge {}: rank {rank}, {shares} shares, registered {on}",
                    p.id
                ),
            }
        })
        .collect();
    let es: Vec<String> = in_force
        .iter()
        .map(|p| {
            let (rank, shares, on) = (p.rank, acciones(p.shares), fecha(p.registered_on));
            match p.line {
                Some(line) => format!(
                    "la línea {line} de este archivo: de grado {rank}, sobre {shares} acciones, inscrita el {on}"
                ),
                None => format!(
                    "la prenda N.º {}: de grado {rank}, sobre {shares} acciones, inscrita el {on}",
                    p.id
                ),
            }
        })
        .collect();
    Said::new(en.join("; "), es.join("; "))
}

/// The shares a new pledge covers: those given (at least one, and no more than the adjudicated
/// shares no pledge in force covers), or every share no pledge in force covers. A second-degree
/// pledge, when the adjudication records how many shares the lender financed, keeps the
/// second-degree pledges in force within them: the rest carry the first degree (Art. 10).
pub fn shares(c: &Candidate<'_>) -> Result<u64, Refusal> {
    let id = c.adjudication_id;
    let adjudicated = c.adjudicated;
    // the Spanish figures only for a refusal (a million-row import passes here)
    let adjudicated_es = || acciones(adjudicated);
    let total = covered(c.in_force).unwrap_or(u64::MAX);
    let free = adjudicated.saturating_sub(total);
    let shares = match c.shares {
        Some(0) => {
            return Err(Refusal::value(
                Field::Shares,
                0u64,
                said!(register_holdings::pledge_covers_at_least_one_share, id),
            ));
        }
        Some(n) if n > free => {
            let (adjudicated_es, free_es) = (adjudicated_es(), acciones(free));
            let reason = if c.in_force.is_empty() {
                said!(
                    register_holdings::more_than_shares_adjudication_pledge_covers,
                    adjudicated,
                    id,
                    adjudicated_es
                )
            } else {
                let l = listed(c.in_force);
                let (list, lista) = (l.en(), l.es());
                said!(
                    register_holdings::more_than_shares_adjudication_that_no,
                    free,
                    id,
                    adjudicated,
                    list,
                    free_es,
                    adjudicated_es,
                    lista
                )
            };
            return Err(Refusal::value(Field::Shares, n, reason));
        }
        Some(n) => n,
        None if free == 0 => {
            let adjudicated_es = adjudicated_es();
            return Err(Refusal::Rule(match c.in_force {
                // one pledge of every share, registered before: today's words
                [f] if f.line.is_none() => {
                    let (pledge, rank, on) = (f.id, f.rank, f.registered_on);
                    let on_es = fecha(on);
                    said!(
                        register_holdings::adjudication_already_has_pledge_rank_registered,
                        id,
                        pledge,
                        rank,
                        on,
                        on_es
                    )
                }
                _ => {
                    let l = listed(c.in_force);
                    let (list, lista) = (l.en(), l.es());
                    // a file that pledged them itself splits them by giving each row its shares
                    let (then, luego) = if c.in_force.iter().any(|p| p.line.is_some()) {
                        (
                            "give each row its shares to split them between pledges",
                            "indique en cada fila sus acciones para repartirlas entre prendas",
                        )
                    } else {
                        ("release a pledge first", "libere antes una prenda")
                    };
                    said!(
                        register_holdings::shares_adjudication_all_pledged_already,
                        adjudicated,
                        id,
                        list,
                        then,
                        adjudicated_es,
                        lista,
                        luego
                    )
                }
            }));
        }
        None => free,
    };
    let financed = c.financed_shares;
    if c.rank == 2 && financed > 0 {
        let second = covered(c.in_force.iter().filter(|p| p.rank == 2))
            .and_then(|s| s.checked_add(shares))
            .unwrap_or(u64::MAX);
        if second > financed {
            let (financed_es, second_es) = (acciones(financed), acciones(second));
            let adjudicated_es = adjudicated_es();
            let reason = said!(
                register_holdings::lender_financed_shares_adjudication_second_degree,
                financed,
                adjudicated,
                id,
                second,
                financed_es,
                adjudicated_es,
                second_es
            );
            return Err(match c.shares {
                Some(n) => Refusal::value(Field::Shares, n, reason),
                None => Refusal::Value {
                    field: Field::PledgeRank,
                    value: c.rank.said(),
                    reason,
                    remedy: Some(Field::Shares),
                },
            });
        }
    }
    Ok(shares)
}

#[cfg(test)]
mod tests {
    //! Adjudication 1: 1,000 shares adjudicated on 2024-03-15, 600 of them financed by a lender.
    use super::*;
    use chrono::NaiveDate;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    fn candidate<'a>(rank: u8, shares: Option<u64>, in_force: &'a [InForce]) -> Candidate<'a> {
        Candidate {
            adjudication_id: 1,
            adjudication_void: false,
            adjudicated_on: day("2024-03-15"),
            adjudicated: 1000,
            financed_by: Some("Banco"),
            financed_shares: 600,
            rank,
            registered_on: day("2024-04-01"),
            lender: None,
            shares,
            in_force,
            registered: &[],
        }
    }

    const SECOND: InForce = InForce {
        id: 7,
        rank: 2,
        shares: 600,
        registered_on: NaiveDate::from_ymd_opt(2024, 4, 1).unwrap(),
        line: None,
    };

    fn refused(r: Result<u64, Refusal>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn the_financed_shares_in_the_second_degree_and_the_rest_in_the_first_cover_the_adjudication() {
        assert_eq!(shares(&candidate(2, Some(600), &[])), Ok(600));
        // 1,000 − 600 = 400 left for the first-degree pledge, by default or given
        assert_eq!(shares(&candidate(1, None, &[SECOND])), Ok(400));
        assert_eq!(shares(&candidate(1, Some(400), &[SECOND])), Ok(400));
        assert_eq!(shares(&candidate(1, Some(150), &[SECOND])), Ok(150));
    }

    #[test]
    fn pledges_in_force_never_cover_more_than_the_adjudicated_shares() {
        assert_eq!(
            refused(shares(&candidate(1, Some(401), &[SECOND]))),
            "shares 401: is more than the 400 shares of adjudication 1 that no pledge in force covers \
             (1000 adjudicated; in force: pledge 7: rank 2, 600 shares, registered 2024-04-01); the pledges in \
             force together cover at most the shares adjudicated"
        );
        assert_eq!(
            refused(shares(&candidate(1, Some(1001), &[]))),
            "shares 1001: is more than the 1000 shares of adjudication 1; a pledge covers at most the shares adjudicated"
        );
        let rest = InForce {
            id: 8,
            rank: 1,
            shares: 400,
            ..SECOND
        };
        assert_eq!(
            refused(shares(&candidate(1, None, &[SECOND, rest]))),
            "the 1000 shares of adjudication 1 are all pledged already (pledge 7: rank 2, 600 shares, registered \
             2024-04-01; pledge 8: rank 1, 400 shares, registered 2024-04-01); release a pledge first"
        );
        assert!(
            refused(shares(&candidate(1, Some(0), &[])))
                .starts_with("shares 0: a pledge covers at least one share")
        );
    }

    #[test]
    fn the_second_degree_stays_within_the_financed_shares() {
        // 600 financed: a second-degree pledge of all 1,000 leaves 400 unfinanced shares in it
        let e = refused(shares(&candidate(2, None, &[])));
        assert!(
            e.starts_with(
                "pledge_rank 2: the lender financed 600 of the 1000 shares of adjudication 1, and \
                           second-degree pledges would cover 1000;"
            ),
            "{e}"
        );
        assert!(e.ends_with("(shares)"), "{e}");
        let e = refused(shares(&candidate(2, Some(1), &[SECOND])));
        assert!(e.starts_with("shares 1: the lender financed 600"), "{e}");
        // no count recorded (only the lender): the rule has nothing to compare with
        let unknown = Candidate {
            financed_shares: 0,
            ..candidate(2, None, &[])
        };
        assert_eq!(shares(&unknown), Ok(1000));
    }
}
