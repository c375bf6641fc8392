//! Programs (programas de enajenación): a program file is registered once under its code and
//! never edited.

use super::{Field, Refusal, Result};
use crate::fine::StagePrice;
use crate::later_stages::Stage;
use crate::program::Program;
use crate::said;
use crate::store::Tx;
use crate::store::programs::{self, Added};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Registers a program file. The same file again adds nothing; a different file under an existing
/// code is refused (programs are never edited: a changed file is a new program).
pub fn add(tx: &mut Tx<'_>, program: &Program, source: &str) -> Result<Added> {
    let sha = crate::store::sha256_hex(source.as_bytes());
    match programs::sha256_of(tx.conn(), &program.code)? {
        Some((id, s)) if s == sha => Ok(Added::AlreadyThere(id)),
        Some((id, _)) => {
            let code = &program.code;
            Err(Refusal::Rule(said!(
                register::program_already_registered_id_with_different,
                code,
                id
            ))
            .into())
        }
        None => Ok(Added::New(programs::insert(tx, program, source, &sha)?)),
    }
}

/// A stage-price record written by hand, and the prices in force it replaced (empty when it
/// replaced none), or whether it replaced a record that no later stage happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagePriceRecorded {
    pub id: i64,
    pub replaced: Vec<(Stage, Decimal)>,
    pub replaced_none: bool,
}

/// Records by hand the Art. 9 (iii) price of a later stage (`stage` with its price) or that no
/// later stage happened (`None`). A record that changes a price the liquidations take now — a
/// new figure for a stage already priced, or `none` while a price is in force — is a
/// correction of the register, and so is a price after a record that no later stage happened
/// (the liquidations took no stage price): it is refused without `reason`, which goes into its audit
/// event (`program.stage-price: REASON`); what it replaced is returned.
pub fn record_stage_price(
    tx: &mut Tx<'_>,
    program_id: i64,
    code: &str,
    stage: Option<(Stage, Decimal)>,
    on: NaiveDate,
    reason: Option<&str>,
) -> Result<StagePriceRecorded> {
    let (now, in_force) = programs::stage_price_and_stages(tx.conn(), program_id)?;
    let replaced: Vec<(Stage, Decimal)> = match (now, stage) {
        (StagePrice::Known(_) | StagePrice::SoFar(_), None) => in_force,
        (StagePrice::Known(_) | StagePrice::SoFar(_), Some((s, p))) => in_force
            .into_iter()
            .filter(|(was, price)| *was == s && *price != p)
            .collect(),
        (StagePrice::Pending | StagePrice::Absent, _) => Vec::new(),
    };
    let replaced_none = now == StagePrice::Absent && stage.is_some();
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if (!replaced.is_empty() || replaced_none) && reason.is_none() {
        // the stages by their numbers: the catalogue names them
        let numbered: Vec<(u8, Decimal)> = replaced.iter().map(|(s, p)| (s.number(), *p)).collect();
        let in_force = numbered.as_slice();
        let new = stage.map(|(s, p)| (s.number(), p));
        return Err(Refusal::Repeat {
            reason: said!(
                register::stage_price_correction_needs_reason,
                code,
                in_force,
                new
            ),
            with: Field::CorrectionReason,
        }
        .into());
    }
    let id = programs::record_stage(tx, program_id, stage, on, reason)?;
    Ok(StagePriceRecorded {
        id,
        replaced,
        replaced_none,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;
    use crate::program::DECRETO_3939_2004;
    use crate::store::Store;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2024, 6, 28).unwrap()
    }

    /// A register with Decreto 3939's program; its id and code.
    fn register() -> (Store, i64, String) {
        let mut store = Store::in_memory().unwrap();
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let id = store
            .write::<_, super::super::Error>("ana", |tx| {
                add(tx, &program, DECRETO_3939_2004)?;
                Ok(programs::by_code(tx.conn(), &program.code)?.id)
            })
            .unwrap();
        (store, id, program.code)
    }

    fn record(
        store: &mut Store,
        id: i64,
        code: &str,
        stage: Option<(Stage, &str)>,
        reason: Option<&str>,
    ) -> Result<StagePriceRecorded> {
        store.write("ana", |tx| {
            record_stage_price(tx, id, code, stage.map(|(s, p)| (s, dec(p))), day(), reason)
        })
    }

    fn refused_for_reason(r: Result<StagePriceRecorded>) -> String {
        match r {
            Err(super::super::Error::Refused(Refusal::Repeat { reason, with })) => {
                assert_eq!(with, Field::CorrectionReason);
                reason.es().to_string()
            }
            other => panic!("expected a refusal asking for the reason, got {other:?}"),
        }
    }

    #[test]
    fn a_first_price_or_the_same_price_again_needs_no_reason() {
        let (mut s, id, code) = register();
        let first = record(&mut s, id, &code, Some((Stage::Second, "1100")), None).unwrap();
        assert!(first.replaced.is_empty());
        let again = record(&mut s, id, &code, Some((Stage::Second, "1100")), None).unwrap();
        assert!(again.replaced.is_empty());
        // a Third Stage's price beside the Second's replaces nothing (the highest is taken)
        let third = record(&mut s, id, &code, Some((Stage::Third, "900")), None).unwrap();
        assert!(third.replaced.is_empty());
    }

    #[test]
    fn withdrawing_or_changing_a_price_in_force_is_refused_without_a_reason_and_writes_nothing() {
        let (mut s, id, code) = register();
        record(&mut s, id, &code, Some((Stage::Second, "1100")), None).unwrap();
        let count = |s: &Store| -> i64 {
            s.conn()
                .query_row("SELECT COUNT(*) FROM stage_prices", [], |r| r.get(0))
                .unwrap()
        };
        let why = refused_for_reason(record(&mut s, id, &code, None, None));
        assert!(why.contains("Segunda Etapa ($ 1.100)"), "{why}");
        assert!(why.contains("que no hubo etapa posterior"), "{why}");
        let why = refused_for_reason(record(
            &mut s,
            id,
            &code,
            Some((Stage::Second, "1200")),
            Some("  "),
        ));
        assert!(
            why.contains("$ 1.200 por acción para la Segunda Etapa"),
            "{why}"
        );
        assert_eq!(count(&s), 1, "nothing written");
        assert_eq!(
            programs::stage_price(s.conn(), id).unwrap(),
            StagePrice::Known(dec("1100"))
        );
    }

    #[test]
    fn after_a_void_last_stage_the_second_stage_s_price_is_in_force_and_withdrawing_it_is_a_correction()
     {
        let (mut s, id, code) = register();
        record(&mut s, id, &code, Some((Stage::Second, "1100")), None).unwrap();
        // the Third Stage declared void: `stage desert` records its `none`, linked from its
        // conclusion, which keeps the Second's price
        let void = s
            .write::<_, super::super::Error>("ana", |tx| {
                Ok(programs::record_stage(tx, id, None, day(), None)?)
            })
            .unwrap();
        s.conn()
            .execute(
                "INSERT INTO stage_conclusions (program_id, stage, kind, decided_on, offered, \
                 awarded, leftover, stage_price_id, created_at, created_by) \
                 VALUES (?1, 3, 'desert', '2024-06-28', 10, 0, 10, ?2, 'x', 'ana')",
                rusqlite::params![id, void],
            )
            .unwrap();
        assert_eq!(
            programs::stage_price(s.conn(), id).unwrap(),
            StagePrice::Known(dec("1100"))
        );
        let why = refused_for_reason(record(&mut s, id, &code, None, None));
        assert!(why.contains("Segunda Etapa ($ 1.100)"), "{why}");
        let why = refused_for_reason(record(
            &mut s,
            id,
            &code,
            Some((Stage::Second, "1000")),
            None,
        ));
        assert!(why.contains("Segunda Etapa ($ 1.100)"), "{why}");
        // a price for the void stage itself replaces none in force: the highest stays 1.100
        let third = record(&mut s, id, &code, Some((Stage::Third, "900")), None).unwrap();
        assert!(third.replaced.is_empty());
        assert_eq!(
            programs::stage_price(s.conn(), id).unwrap(),
            StagePrice::Known(dec("1100"))
        );
    }

    #[test]
    fn a_correction_with_its_reason_is_recorded_with_the_reason_in_its_audit_event() {
        let (mut s, id, code) = register();
        record(&mut s, id, &code, Some((Stage::Second, "1100")), None).unwrap();
        record(&mut s, id, &code, Some((Stage::Third, "1500")), None).unwrap();
        let fixed = record(
            &mut s,
            id,
            &code,
            Some((Stage::Second, "1150")),
            Some("cifra mal digitada"),
        )
        .unwrap();
        assert_eq!(fixed.replaced, [(Stage::Second, dec("1100"))]);
        // two prices in force: both named, in the plural, in either language
        let refused = record(&mut s, id, &code, None, None).unwrap_err();
        let super::super::Error::Refused(Refusal::Repeat { reason, .. }) = refused else {
            panic!("expected a refusal asking for the reason, got {refused:?}");
        };
        assert!(
            reason.es().contains(
                "tiene registrados los precios de la Segunda Etapa ($ 1.150) y de la Tercera \
                 Etapa ($ 1.500), que toman sus liquidaciones; registrar que no hubo etapa \
                 posterior los reemplaza"
            ),
            "{}",
            reason.es()
        );
        assert!(
            reason.en().contains(
                "has stage 2's ($ 1.150) and stage 3's ($ 1.500) prices recorded, which its \
                 liquidations take; recording that no later stage happened replaces them"
            ),
            "{}",
            reason.en()
        );
        let withdrawn = record(&mut s, id, &code, None, Some("no hubo etapas")).unwrap();
        assert_eq!(
            withdrawn.replaced,
            [(Stage::Second, dec("1150")), (Stage::Third, dec("1500"))]
        );
        assert_eq!(
            programs::stage_price(s.conn(), id).unwrap(),
            StagePrice::Absent
        );
        let actions: Vec<String> = s
            .conn()
            .prepare("SELECT action FROM audit_events WHERE entity = 'stage_prices' ORDER BY seq")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            actions,
            [
                "program.stage-price",
                "program.stage-price",
                "program.stage-price: cifra mal digitada",
                "program.stage-price: no hubo etapas",
            ]
        );
        // once withdrawn, a price replaces the record that no later stage happened: a
        // correction too
        let why = refused_for_reason(record(
            &mut s,
            id,
            &code,
            Some((Stage::Second, "1000")),
            None,
        ));
        assert!(
            why.contains("tiene registrado que no hubo etapa posterior")
                && why.contains("registrar $ 1.000 por acción para la Segunda Etapa lo reemplaza"),
            "{why}"
        );
        let after = record(
            &mut s,
            id,
            &code,
            Some((Stage::Second, "1000")),
            Some("sí hubo"),
        )
        .unwrap();
        assert!(after.replaced.is_empty() && after.replaced_none);
        assert_eq!(
            programs::stage_price(s.conn(), id).unwrap(),
            StagePrice::Known(dec("1000"))
        );
    }
}
