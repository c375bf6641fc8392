//! Art. 10's rules for a new pledge, as the store checks them inside the write transaction (for
//! `pledge register` and `pledge import` alike). Kept apart from the pledges' storage: they are a
//! rule of the register, not of SQLite, and move to the rules layer.

use chrono::NaiveDate;

/// A pledge in force on an adjudication: (id, rank, registered on).
pub(super) type InForce = (i64, u8, NaiveDate);

/// Art. 10's rules for a new pledge on adjudication `adjudication_id` (adjudicated on
/// `adjudicated_on`, financed by `financed_by`): registered on or after the adjudication, second
/// degree only with a financing lender (the pledge's own or the adjudication's), and no other
/// pledge in force. Returns the lender the pledge records, or the field at fault and why.
pub(super) fn pledge_rules(
    (adjudication_id, adjudicated_on, financed_by): (i64, NaiveDate, Option<&str>),
    rank: u8,
    registered_on: NaiveDate,
    lender: Option<&str>,
    in_force: Option<InForce>,
) -> std::result::Result<Option<String>, (&'static str, String)> {
    if registered_on < adjudicated_on {
        return Err((
            "registered_on",
            format!(
                "is before the adjudication on {adjudicated_on}; a pledge is registered after the shares are adjudicated"
            ),
        ));
    }
    let lender = lender.or(financed_by).map(str::to_string);
    if rank == 2 && lender.is_none() {
        return Err((
            "rank",
            format!(
                "adjudication {adjudication_id} has no financing lender; a second-degree pledge is taken only when \
                 the lender holds the first (Art. 10): name the lender or use rank 1"
            ),
        ));
    }
    if let Some((id, rank, on)) = in_force {
        return Err((
            "adjudication_id",
            format!(
                "adjudication {adjudication_id} already has pledge {id} (rank {rank}, registered {on}) in force; release it first"
            ),
        ));
    }
    Ok(lender)
}
