//! A stored liquidation as one typed record: the inputs that reproduce it and the result it gave,
//! serialised to the exact bytes the register hashes and read back from them. Owns the stored
//! format only: no computation beyond converting to and from the engine's types, and no I/O.

#[cfg(test)]
mod tests {
    use crate::fine::Convention;
    use crate::money::dec;
    use crate::program::Program;
    use crate::rates::RateSeries;
    use crate::register;
    use crate::store::breaches::{self, NewBreach};
    use crate::store::{Store, adjudications, programs};
    use chrono::NaiveDate;
    use serde::Deserialize;

    /// The program and rates of the fixtures: copies, so that a change to the shipped files does
    /// not change the facts the fixtures were stored from.
    const PROGRAM: &str = include_str!("../tests/fixtures/liquidations/program.toml");
    const RATES: &str = include_str!("../tests/fixtures/liquidations/rates.csv");
    const RATES_SOURCE: &str = "tests/fixtures/liquidations/rates.csv";

    /// One stored liquidation as the register wrote it before its format became a type.
    #[derive(Deserialize)]
    struct Fixture {
        name: String,
        id: i64,
        inputs_json: String,
        result_json: String,
        sha256: String,
    }

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    /// Builds the register of the fixtures and stores its liquidations; returns the store and the
    /// name and id of each liquidation.
    fn stored_liquidations() -> (Store, Vec<(&'static str, i64)>) {
        let mut store = Store::in_memory().unwrap();
        let rates = RateSeries::from_csv(RATES, RATES_SOURCE).unwrap();
        let program = Program::from_toml(PROGRAM).unwrap();
        store
            .write("t", |tx| programs::add(tx, &program, PROGRAM))
            .unwrap();
        let p = programs::by_code(store.conn(), "D3939-2004").unwrap();
        let csv = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n\
                   CC,1000000001,\"José \"\"Pepe\"\" Núñez\",natural,trabajador,1000,,2024-03-15,,\n\
                   CC,1000000002,Luis Prueba,natural,pensionado,2500,,2024-03-15,Banco Ejemplo,2500\n\
                   NIT,999000001-2,Sindicato de Prueba,legal,sindicato,50000,963.00,2024-03-15,,\n";
        store
            .write("t", |tx| {
                adjudications::import(tx, &p, "a.csv", "sha", "UTF-8", |sink| {
                    Ok(crate::import::each(csv.as_bytes(), &p.program.categories, sink)?.1)
                })
            })
            .unwrap();
        let breach = |store: &mut Store, b: NewBreach<'_>| {
            store.write("t", |tx| breaches::record(tx, &b)).unwrap()
        };
        let pay = |store: &mut Store, breach: i64, on: &str, amount: &str| {
            store
                .write("t", |tx| {
                    breaches::record_payment(tx, breach, day(on), dec(amount), None)
                })
                .unwrap();
        };
        let liquidate =
            |store: &mut Store, breach: i64, until: &str, convention: Option<Convention>| {
                store
                    .write("t", |tx| {
                        register::liquidate(tx, breach, day(until), convention, &rates)
                    })
                    .unwrap()
                    .0
            };
        let mut out = Vec::new();

        // No stage price recorded yet: pending, so provisional; the transfer price is the highest.
        let sale = breach(
            &mut store,
            NewBreach {
                adjudication_id: 1,
                kind: crate::program::BreachKind::Sale,
                breach_date: day("2024-11-20"),
                shares: 1000,
                consideration_per_share: Some(dec("1450")),
                consideration_total: None,
                registered_on: None,
                evidence: None,
            },
        );
        out.push((
            "provisional-transfer-daily-simple",
            liquidate(&mut store, sale, "2025-02-10", None),
        ));

        // A known stage price; a subrogation has no consideration; two payments.
        store
            .write("t", |tx| {
                programs::record_stage(tx, p.id, Some((2, dec("1100.50"))), day("2024-06-28"))
            })
            .unwrap();
        let subrogation = breach(
            &mut store,
            NewBreach {
                adjudication_id: 3,
                kind: crate::program::BreachKind::CreditSubrogation,
                breach_date: day("2024-06-10"),
                shares: 20000,
                consideration_per_share: None,
                consideration_total: None,
                registered_on: Some(day("2024-06-20")),
                evidence: Some("escritura"),
            },
        );
        pay(&mut store, subrogation, "2024-08-15", "1500000");
        pay(&mut store, subrogation, "2024-12-20", "2500000.50");
        for (name, convention) in [
            ("stage-payments-daily-simple", Convention::DailySimple),
            (
                "stage-payments-period-effective",
                Convention::PeriodEffective,
            ),
            ("stage-payments-compound", Convention::Compound),
        ] {
            out.push((
                name,
                liquidate(&mut store, subrogation, "2025-01-15", Some(convention)),
            ));
        }

        // After the lock-up (written past the rules, which would refuse it): no fine applies.
        let late = breach(
            &mut store,
            NewBreach {
                adjudication_id: 2,
                kind: crate::program::BreachKind::DacionEnPago,
                breach_date: day("2026-04-01"),
                shares: 2500,
                consideration_per_share: None,
                consideration_total: Some(dec("3000000")),
                registered_on: None,
                evidence: None,
            },
        );
        out.push((
            "not-applicable",
            liquidate(&mut store, late, "2026-05-01", None),
        ));

        // No later stage: overpaid, so a surplus to refund.
        store
            .write("t", |tx| {
                programs::record_stage(tx, p.id, None, day("2025-02-20"))
            })
            .unwrap();
        pay(&mut store, sale, "2025-03-01", "2000000");
        out.push((
            "no-stage-surplus",
            liquidate(&mut store, sale, "2025-03-10", None),
        ));
        (store, out)
    }

    /// Liquidations stored by the register before their format was a type (commit 201fab7),
    /// from the facts [`stored_liquidations`] records.
    fn fixtures() -> Vec<Fixture> {
        serde_json::from_str(include_str!("../tests/fixtures/liquidations/stored.json")).unwrap()
    }

    #[test]
    fn the_same_facts_store_the_same_bytes_and_fingerprint() {
        let (store, made) = stored_liquidations();
        let rows = breaches::liquidations(store.conn(), None).unwrap();
        let fixtures = fixtures();
        assert_eq!(made.len(), fixtures.len());
        for ((name, id), f) in made.into_iter().zip(&fixtures) {
            assert_eq!((name, id), (f.name.as_str(), f.id));
            let l = rows.iter().find(|l| l.id == id).unwrap();
            assert_eq!(l.inputs_json, f.inputs_json, "{name}: inputs");
            assert_eq!(l.result_json, f.result_json, "{name}: result");
            assert_eq!(l.sha256, f.sha256, "{name}: fingerprint");
            assert_eq!(
                register::fingerprint(&f.inputs_json, &f.result_json),
                f.sha256,
                "{name}"
            );
        }
    }

    #[test]
    fn stored_liquidations_reproduce_from_their_own_inputs() {
        for f in fixtures() {
            let again = register::reproduce(&f.inputs_json).unwrap();
            assert_eq!(again, f.result_json, "{}", f.name);
        }
    }
}
