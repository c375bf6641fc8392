//! Acts outside a program's validity (Decreto 3939 de 2004 art. 28; LEGAL_NOTES §7, item 7):
//! opening the offer or a later stage's tranche on a day the program file's `[validity]` does not
//! cover is refused unless a reason is given, and the reason is recorded with the act, in its
//! transaction.

use super::{Field, Refusal, Result};
use crate::lang::fecha;
use crate::said;
use crate::store::Tx;
use crate::store::programs::{self, Act, StoredProgram};
use chrono::NaiveDate;

/// What an act on `on` needs: nothing when the program states no validity or `on` is inside it;
/// else a reason, or the refusal that asks for one. `Some(reason)` when the act is outside and
/// its reason is to be recorded ([`record`]) once the act has its id.
pub fn reason_needed<'r>(
    program: &StoredProgram,
    act: Act,
    on: NaiveDate,
    reason: Option<&'r str>,
) -> Result<Option<&'r str>> {
    let Some(v) = &program.program.validity else {
        return Ok(None);
    };
    if v.covers(on) {
        return Ok(None);
    }
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => Ok(Some(r)),
        None => {
            let code = &program.program.code;
            let decree = &program.program.decree;
            let (what, que) = match act {
                Act::Offer => ("the offer opens", "la oferta se abre"),
                Act::Tranche => ("the tranche opens", "el tramo se abre"),
            };
            let (valid, vigente) = (v.said().en().to_string(), v.said().es().to_string());
            let on_es = fecha(on);
            Err(Refusal::Repeat {
                reason: said!(
                    register::outside_validity_program_if_extension_later,
                    what,
                    on,
                    code,
                    decree,
                    valid,
                    que,
                    on_es,
                    vigente
                ),
                with: Field::ValidityReason,
            }
            .into())
        }
    }
}

/// Records the reason an act outside the validity was allowed (from [`reason_needed`]).
pub fn record(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    act: Act,
    act_id: i64,
    on: NaiveDate,
    reason: Option<&str>,
) -> Result<()> {
    if let Some(reason) = reason {
        programs::record_validity_exception(tx, program.id, act, act_id, on, reason)?;
    }
    Ok(())
}
