//! Unit tests of `mod.rs`.

use super::*;
use crate::store::{Store, programs as store_programs};

const PROGRAM: &str = include_str!("../../schema/programs/decreto-3939-2004.toml");

/// `holders` holders adjudicated 10 shares each on 2024-03-15, the first with a pledge: as
/// of 2024-06-30 every other one lacks one. `store` is a fresh register, in memory or in a
/// file.
fn register(mut store: Store, holders: u64) -> Store {
    let program = Program::from_toml(PROGRAM).unwrap();
    store
        .write::<_, crate::register::Error>("t", |tx| {
            crate::register::program::add(tx, &program, PROGRAM)
        })
        .unwrap();
    let p = store_programs::by_code(store.conn(), "D3939-2004").unwrap();
    let mut csv = String::from(
        "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n\
             CC,1000000001,Con Prenda,natural,trabajador,10,,2024-03-15,,\n",
    );
    for i in 2..=holders {
        csv.push_str(&format!(
            "CC,{},Sin Prenda,natural,trabajador,10,,2024-03-15,,\n",
            1_000_000_000 + i
        ));
    }
    store
        .write::<_, crate::register::Error>("t", |tx| {
            crate::register::adjudication::import_csv(tx, &p, &csv)
        })
        .unwrap();
    store
        .write::<_, crate::register::Error>("t", |tx| {
            crate::register::pledge::register(
                tx,
                1,
                1,
                NaiveDate::from_ymd_opt(2024, 4, 1).unwrap(),
                None,
                None,
                NaiveDate::from_ymd_opt(2024, 6, 30).unwrap(),
            )
        })
        .unwrap();
    store
}

fn opts() -> Options {
    Options {
        as_of: NaiveDate::from_ymd_opt(2024, 6, 30).unwrap(),
        program_id: None,
        within_days: 30,
        min_severity: Severity::Low,
    }
}

fn findings_of(store: Store) -> Vec<Finding> {
    let store = register(store, 2);
    let mut found = Vec::new();
    run(
        store.conn(),
        &opts(),
        &RateSeries::shipped(),
        |f| {
            found.push(f);
            Ok::<(), Error>(())
        },
        &mut |_| {},
    )
    .unwrap();
    found
}

#[test]
fn in_memory_and_in_a_file_the_check_finds_the_same() {
    let expected = vec![Finding {
        code: Code::MissingPledge,
        holding: Some(Holding {
            program: "D3939-2004".into(),
            doc_type: "CC".into(),
            doc_number: "1000000002".into(),
            holder: "Sin Prenda".into(),
            adjudication_id: 2,
        }),
        breach_id: None,
        outstanding: None,
        why: Why::MissingPledgeInLockup {
            end: day("2026-03-15"),
        },
        context: Context {
            as_of: opts().as_of,
            rates: RatesHome::Register,
            uncertified: None,
        },
    }];
    // one thread (no second connection can see a register in memory)
    assert_eq!(findings_of(Store::in_memory().unwrap()), expected);
    // two threads, the scan on its own read-only connection
    let dir = tempfile::tempdir().unwrap();
    let store = Store::create(&dir.path().join("v.db")).unwrap();
    assert!(crate::store::reader(store.conn()).unwrap().is_some());
    assert_eq!(findings_of(store), expected);
}

/// A sink's own error, e.g. a report that could not be written.
#[derive(Debug, PartialEq)]
enum SinkError {
    Full,
    Check(String),
}

impl From<Error> for SinkError {
    fn from(e: Error) -> Self {
        SinkError::Check(e.to_string())
    }
}

#[test]
fn a_failing_sink_stops_the_check_with_its_own_error() {
    // 12,000 findings: more batches than the channel holds, so on two threads the scan is
    // still running, and is stopped, when the sink fails on the first finding
    let dir = tempfile::tempdir().unwrap();
    for store in [
        Store::in_memory().unwrap(),
        Store::create(&dir.path().join("v.db")).unwrap(),
    ] {
        let store = register(store, 12_001);
        let mut offered = 0;
        let ran = run(
            store.conn(),
            &opts(),
            &RateSeries::shipped(),
            |_| {
                offered += 1;
                Err(SinkError::Full)
            },
            &mut |_| {},
        );
        assert_eq!(ran, Err(SinkError::Full));
        assert_eq!(offered, 1);
    }
}

#[test]
fn codes_are_listed_in_their_order_most_urgent_first() {
    // summaries count by `code as usize` and print in `Code::ALL` order
    for (i, code) in Code::ALL.into_iter().enumerate() {
        assert_eq!(code as usize, i, "{}", code.as_str());
    }
    assert!(Code::ALL.is_sorted_by_key(|c| c.severity()));
}

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn the_check_error_is_said_in_spanish_for_the_web() {
    let e = Error::Fine {
        breach: 3,
        error: FineError::Overflow,
    };
    assert_eq!(
        e.es(|_| "la multa excede el rango".to_string()),
        "incumplimiento N.º 3: la multa excede el rango"
    );
    let e = Error::Store(StoreError::Corrupt("adjudications.price_per_share".into()));
    assert_eq!(
        e.es(|_| unreachable!()),
        "un dato guardado en el registro no se puede leer (adjudications.price_per_share); \
             verifique el registro"
    );
}

#[test]
fn an_engine_error_names_its_breach() {
    let e = Error::Fine {
        breach: 3,
        error: FineError::Overflow,
    };
    assert_eq!(
        e.to_string(),
        "breach 3: the fine exceeds the range of exact arithmetic; check shares and prices"
    );
}

#[test]
fn the_scans_total_counts_the_adjudications_not_voided_of_the_program_asked() {
    let mut store = register(Store::in_memory().unwrap(), 5);
    let count = |s: &Store, program| crate::store::scan::adjudications_count(s.conn(), program);
    assert_eq!(count(&store, None).unwrap(), 5);
    store
        .write::<_, crate::register::Error>("t", |tx| {
            crate::register::adjudication::void(tx, 3, "typo")
        })
        .unwrap();
    assert_eq!(count(&store, None).unwrap(), 4);
    assert_eq!(count(&store, Some(1)).unwrap(), 4);
    // a program with nothing adjudicated
    assert_eq!(count(&store, Some(99)).unwrap(), 0);
    // what the scan itself reads
    let mut read = 0;
    crate::store::scan::adjudications::<StoreError>(store.conn(), None, opts().as_of, |_| {
        read += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(read, 4);
}
