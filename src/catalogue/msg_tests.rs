//! Every line of [`Msg`] in both languages: a variant the table below lacks fails to compile
//! (the exhaustive `variant`), one a language leaves as the other's words fails here.

use super::msg::{Counting, Criterion, Deadline, Msg, ReadAs, Rows, Step, TrancheOutcome};
use super::of;
use crate::lang::{Lang, Said};
use chrono::NaiveDate;

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// Which variant a line is; a new variant fails to compile until it gets its index here (and
/// an example in [`examples`]).
fn variant(m: &Msg<'_>) -> usize {
    match m {
        Msg::RegisterReady { .. } => 0,
        Msg::AuditKey { .. } => 1,
        Msg::CheckpointLogCreated { .. } => 2,
        Msg::CheckpointLogMissing { .. } => 3,
        Msg::OutsideValidity { .. } => 4,
        Msg::BreachRecorded { .. } => 5,
        Msg::BreachVoided { .. } => 6,
        Msg::PaymentRecorded { .. } => 7,
        Msg::PaymentVoided { .. } => 8,
        Msg::AdjudicationVoided { .. } => 9,
        Msg::PledgeAlready { .. } => 10,
        Msg::PledgeRegistered { .. } => 11,
        Msg::PledgeReleased { .. } => 12,
        Msg::PledgesReleased { .. } => 13,
        Msg::NoPledgeReleasable { .. } => 14,
        Msg::PledgesOfReleased { .. } => 15,
        Msg::PledgeVoided { .. } => 16,
        Msg::Imported { .. } => 17,
        Msg::Unchanged { .. } => 18,
        Msg::AlreadyImported { .. } => 19,
        Msg::NoticeIssued { .. } => 20,
        Msg::NoticesIssued { .. } => 21,
        Msg::RenderedAgain { .. } => 22,
        Msg::NoticeDelivered { .. } => 23,
        Msg::SettlementIssued { .. } => 24,
        Msg::HolderUpdated { .. } => 25,
        Msg::ProgramAdded { .. } => 26,
        Msg::StagePriceSet { .. } => 27,
        Msg::LetterheadSet { .. } => 28,
        Msg::NoLetterhead { .. } => 29,
        Msg::UserAdded { .. } => 30,
        Msg::UserDisabled { .. } => 31,
        Msg::PasswordChanged { .. } => 32,
        Msg::BackupWritten { .. } => 33,
        Msg::CheckpointsCopied { .. } => 34,
        Msg::TemplateWritten { .. } => 35,
        Msg::OfferOpened { .. } => 36,
        Msg::OfferRun { .. } => 37,
        Msg::ActaWritten { .. } => 38,
        Msg::ActaOfRun { .. } => 39,
        Msg::RateAdded { .. } => 40,
        Msg::RateSupersedes { .. } => 41,
        Msg::RateGap { .. } => 42,
        Msg::RatesAdded { .. } => 43,
        Msg::RatesDryRun => 44,
        Msg::RatesCovered { .. } => 45,
        Msg::Warning { .. } => 46,
        Msg::LiquidationReproduces { .. } => 47,
        Msg::LiquidationDiffers { .. } => 48,
        Msg::DemoStart { .. } => 49,
        Msg::DemoStep(_) => 50,
        Msg::DemoRefused { .. } => 51,
        Msg::DemoWeb { .. } => 52,
        Msg::OfferHeader { .. } => 53,
        Msg::TrancheOpened { .. } => 54,
        Msg::TrancheEvaluated { .. } => 55,
        Msg::WorkbookNotText => 56,
        Msg::OutIsSymlink => 57,
        Msg::Counting(_) => 58,
        Msg::Left => 59,
        Msg::Improvement { .. } => 60,
        Msg::DrawVerified { .. } => 61,
        Msg::ActaVerified { .. } => 62,
        Msg::AuditIntact { .. } => 63,
        Msg::Drawn { .. } => 64,
        Msg::StageAdjudicated { .. } => 65,
        Msg::StagePriceFrom { .. } => 66,
        Msg::Problems { .. } => 67,
        Msg::ImportOf { .. } => 68,
        Msg::ReleaseOf { .. } => 69,
        Msg::RatesImportOf { .. } => 70,
        Msg::StageAward { .. } => 71,
        Msg::TrancheVoid { .. } => 72,
        Msg::StageVoid { .. } => 73,
        Msg::NoLaterStage { .. } => 74,
        Msg::RatesFileSound { .. } => 75,
        Msg::RatesFileProblems { .. } => 76,
        Msg::ManPages { .. } => 77,
        Msg::OutOnlyForExcel => 78,
        Msg::NoticesLeftOut { .. } => 79,
    }
}
const VARIANTS: usize = 80;

/// Every step of the demo, in its order (an exhaustive match keeps the list whole).
fn steps() -> Vec<Step> {
    let all = [
        Step::OfferTooShort,
        Step::OfferOpen,
        Step::AcceptancesImport,
        Step::AcceptancesAgain,
        Step::Adjudicate,
        Step::AdjudicateTwice,
        Step::VerifyActa,
        Step::StageOpen,
        Step::ProposalsImport,
        Step::Evaluate,
        Step::TieFirst,
        Step::ImproveLower,
        Step::Draw,
        Step::DrawVerify,
        Step::StageAdjudicate,
        Step::ProgramAdd,
        Step::HoldersUpdated,
        Step::PledgeFirst,
        Step::PledgeSecond,
        Step::BreachSale,
        Step::BreachAfterLockup,
        Step::Letterhead,
        Step::NoticeIssue,
        Step::NoticeHtml,
        Step::NoticeVerify,
        Step::NoAddress,
        Step::HolderAddress,
        Step::Delivered,
        Step::PartialPayment,
        Step::PaymentTwice,
        Step::PaymentMistake,
        Step::PaymentVoid,
        Step::Check,
        Step::PledgeHeld,
        Step::Liquidate,
        Step::NoticeBalance,
        Step::HandedOver,
        Step::PaysBalance,
        Step::Payments,
        Step::NoDemand,
        Step::Settlement,
        Step::SettlementVerify,
        Step::PledgeRelease,
        Step::Reproduces,
        Step::AdjudicationShow,
        Step::CheckAfter,
        Step::Audit,
    ];
    // a step missing from the list above fails to compile here
    for s in all {
        match s {
            Step::OfferTooShort
            | Step::OfferOpen
            | Step::AcceptancesImport
            | Step::AcceptancesAgain
            | Step::Adjudicate
            | Step::AdjudicateTwice
            | Step::VerifyActa
            | Step::StageOpen
            | Step::ProposalsImport
            | Step::Evaluate
            | Step::TieFirst
            | Step::ImproveLower
            | Step::Draw
            | Step::DrawVerify
            | Step::StageAdjudicate
            | Step::ProgramAdd
            | Step::HoldersUpdated
            | Step::PledgeFirst
            | Step::PledgeSecond
            | Step::Stage
            | Step::BreachSale
            | Step::BreachAfterLockup
            | Step::Letterhead
            | Step::NoticeIssue
            | Step::NoticeHtml
            | Step::NoticeVerify
            | Step::NoAddress
            | Step::HolderAddress
            | Step::Delivered
            | Step::PartialPayment
            | Step::PaymentTwice
            | Step::PaymentMistake
            | Step::PaymentVoid
            | Step::Check
            | Step::PledgeHeld
            | Step::Liquidate
            | Step::NoticeBalance
            | Step::HandedOver
            | Step::PaysBalance
            | Step::Payments
            | Step::NoDemand
            | Step::Settlement
            | Step::SettlementVerify
            | Step::PledgeRelease
            | Step::Reproduces
            | Step::AdjudicationShow
            | Step::CheckAfter
            | Step::Audit => {}
        }
    }
    all.to_vec()
}

/// One example (or more) of every line.
fn examples<'a>(validity: &'a Said, ids: &'a [i64], first: &'a [(usize, i64)]) -> Vec<Msg<'a>> {
    let (d, d2) = (day("2024-11-20"), day("2025-02-10"));
    let amount = crate::money::dec("1087500.25");
    let mut v = vec![
        Msg::RegisterReady {
            created: true,
            path: "/r/vigia.db",
            schema: 16,
        },
        Msg::AuditKey {
            created: false,
            path: "/r/audit.key",
            id: "abc",
        },
        Msg::CheckpointLogCreated {
            path: "/r/vigia.db.checkpoints",
            line: 1,
            events: 0,
        },
        Msg::CheckpointLogMissing {
            path: "/r/vigia.db.checkpoints",
            events: 3,
        },
        Msg::OutsideValidity { validity },
        Msg::BreachRecorded {
            id: 1,
            kind: crate::program::BreachKind::Sale,
            shares: 1000,
            date: d,
            adjudication: 1,
        },
        Msg::BreachVoided { id: 1, void: 2 },
        Msg::PaymentRecorded {
            id: 1,
            amount,
            date: d,
            breach: 1,
        },
        Msg::PaymentVoided { id: 1, void: 2 },
        Msg::AdjudicationVoided { id: 1, void: 2 },
        Msg::PledgeAlready {
            id: 1,
            adjudication: 1,
            rank: 1,
            registered: d,
        },
        Msg::PledgeRegistered {
            id: 1,
            shares: 1000,
            adjudication: 1,
            rank: 2,
            to: "Banco",
            registered: d,
        },
        Msg::PledgeReleased {
            pledge: 1,
            on: d,
            release: 1,
        },
        Msg::PledgesReleased {
            adjudications: 2,
            on: d,
            first: 1,
            last: 2,
        },
        Msg::NoPledgeReleasable { on: d },
        Msg::PledgesOfReleased {
            adjudication: 1,
            on: d,
            ids,
        },
        Msg::PledgeVoided { id: 1, void: 2 },
        Msg::Unchanged {
            rows: Rows::Adjudications,
            count: 7,
            first,
        },
        Msg::AlreadyImported {
            rows: Rows::Acceptances,
            path: std::path::Path::new("/r/a.csv"),
            import: 1,
            at: "2025-02-10T14:05:09Z",
            by: "ana",
        },
        Msg::NoticeIssued {
            number: "MULTA-2025-0001",
            breach: 1,
            liquidation: 2,
            total: amount,
            until: d2,
            deadline: Deadline::FromDelivery(d2),
            path: "/r/m.pdf",
        },
        Msg::NoticeIssued {
            number: "MULTA-2025-0001",
            breach: 1,
            liquidation: 2,
            total: amount,
            until: d2,
            deadline: Deadline::By(d2),
            path: "/r/m.pdf",
        },
        Msg::NoticesIssued {
            count: 3,
            dir: "/r",
            index: "/r/index.csv",
            skipped: crate::register::notice::Skipped {
                voided: 1,
                noticed: 0,
                settled: 2,
                paid: 197,
            },
        },
        Msg::NoticesLeftOut {
            skipped: crate::register::notice::Skipped {
                voided: 0,
                noticed: 1_000,
                settled: 0,
                paid: 3,
            },
        },
        Msg::RenderedAgain {
            number: "MULTA-2025-0001",
            ext: "html",
            path: "/r/m.html",
        },
        Msg::NoticeDelivered {
            number: "MULTA-2025-0001",
            on: d,
            via: "correo certificado",
            term_days: Some(10),
            due: d2,
        },
        Msg::NoticeDelivered {
            number: "MULTA-2025-0001",
            on: d,
            via: "correo certificado",
            term_days: None,
            due: d2,
        },
        Msg::SettlementIssued {
            number: "PAZ-2025-0001",
            breach: 1,
            liquidation: 3,
            payments: 2,
            paid: amount,
            until: d2,
            path: "/r/p.pdf",
        },
        Msg::HolderUpdated {
            doc_type: "CC",
            doc_number: "1",
            name: "Ana",
            version: 1,
            address: Some("Calle 1"),
            city: None,
            email: None,
        },
        Msg::ProgramAdded {
            code: "P",
            id: 1,
            new: true,
        },
        Msg::ProgramAdded {
            code: "P",
            id: 1,
            new: false,
        },
        Msg::StagePriceSet {
            id: 1,
            code: "P",
            stage: Some(("2".into(), amount)),
            replaced: vec![],
            replaced_none: true,
        },
        Msg::StagePriceSet {
            id: 1,
            code: "P",
            stage: None,
            replaced: vec![(2, amount)],
            replaced_none: false,
        },
        Msg::LetterheadSet {
            code: "P",
            version: 1,
            lacks: vec![],
        },
        Msg::NoLetterhead { code: "P" },
        Msg::UserAdded {
            name: "ana",
            id: 1,
            role: "admin",
        },
        Msg::UserDisabled { name: "ana" },
        Msg::PasswordChanged { name: "ana" },
        Msg::BackupWritten {
            path: "/b",
            bytes: 4096,
            events: 3,
            head: None,
        },
        Msg::CheckpointsCopied {
            path: "/b.checkpoints",
            count: 1,
        },
        Msg::TemplateWritten { path: "/t.xlsx" },
        Msg::OfferOpened {
            id: 1,
            code: "P",
            opens: d,
            closes: d2,
            earliest: Some(d2),
        },
        Msg::OfferRun {
            run: 1,
            code: "P",
            ids: Some((1, 5)),
            new_holders: 5,
            fingerprint: "ff",
        },
        Msg::ActaWritten { path: "/a.pdf" },
        Msg::ActaOfRun {
            run: 1,
            code: "P",
            path: "/a.pdf",
        },
        Msg::RateAdded {
            id: 1,
            from: d,
            to: d2,
            moratorium: crate::money::dec("27.90"),
            resolution: "Res. 1",
        },
        Msg::RateSupersedes { from: d, to: d2 },
        Msg::RateGap {
            from: d,
            to: d2,
            kept_from: d,
            kept_to: d,
        },
        Msg::RatesAdded {
            count: 2,
            name: "t.csv",
        },
        Msg::RatesDryRun,
        Msg::RatesCovered {
            count: 2,
            from: d,
            to: d2,
            source: crate::rates::SHIPPED_NAME,
        },
        Msg::Warning { what: "x" },
        Msg::LiquidationReproduces {
            id: 1,
            total: amount,
            until: d2,
            fingerprint: "ff",
        },
        Msg::LiquidationDiffers {
            id: 1,
            same_print: true,
        },
        Msg::DemoStart {
            db: "/d.db",
            key: "/d/audit.key",
        },
        Msg::DemoRefused { error: "x" },
        Msg::DemoWeb {
            user: "demo",
            password: "clave",
            db: "/d.db",
            key: "/d/audit.key",
        },
        Msg::OfferHeader {
            program: "P",
            offered: 1000,
            demand: 10,
            awarded: 10,
            leftover: 990,
            oversubscribed: false,
            rule: "nearest-adjust",
        },
        Msg::TrancheOpened {
            stage: 2,
            code: "P",
            tranche: 1,
            shares: 1000,
            opens: d,
            closes: d2,
            minimum_price: amount,
            available: 1000,
            offered: 1000,
        },
        Msg::Improvement {
            id: 1,
            proposal: "P-12",
            tranche: 1,
            original: amount,
            offered: amount,
            counted: true,
            code: "P",
            stage: 2,
        },
        Msg::Improvement {
            id: 1,
            proposal: "P-12",
            tranche: 1,
            original: amount,
            offered: amount,
            counted: false,
            code: "P",
            stage: 2,
        },
        Msg::DrawVerified {
            id: 1,
            stage: 2,
            code: "P",
            tranche: 1,
            text: "semilla",
            digest: "ff",
            number: "15",
            tied: 2,
            index: 1,
            winner: "P-12",
        },
        Msg::ActaVerified {
            run: 1,
            code: "P",
            acceptors: 9,
            awarded: 74300,
            fingerprint: "ff",
            text_only: false,
        },
        Msg::AuditIntact {
            events: 39,
            head: "d99bcc445704",
            signed: 1,
            line: 1,
            at_events: 0,
            at: "2026-12-02T21:20:54Z",
            since: 38,
        },
        Msg::Drawn {
            id: 1,
            stage: 2,
            code: "P",
            tranche: 1,
            sorted: "P-07, P-12",
            text: "semilla|P|2|1|P-07,P-12",
            digest: "ff",
            number: "15",
            tied: 2,
            index: 1,
            winner: "P-12",
        },
        Msg::StageAdjudicated {
            stage: 2,
            code: "P",
            on: d2,
            conclusion: 1,
            awarded: 1000,
            offered: 1000,
            leftover: 0,
        },
        Msg::StagePriceFrom {
            id: 1,
            code: "P",
            stage: 2,
            price: amount,
            composition: "",
            from: d2,
            so_far: false,
        },
        Msg::Problems {
            what: "x",
            count: 2,
        },
        Msg::ImportOf { path: "/r/a.csv" },
        Msg::ReleaseOf { on: d2 },
        Msg::RatesImportOf {
            name: "t.csv",
            sfc: false,
        },
        Msg::RatesImportOf {
            name: "t.csv",
            sfc: true,
        },
        Msg::StageAward {
            tranche: 1,
            shares: 1000,
            proposal: "P-12",
            bidders: "CC 1 Ana",
            price: amount,
            total: amount,
            value: super::msg::Worth::PresentValue(amount),
            due: d2,
            draw: Some(1),
        },
        Msg::TrancheVoid {
            tranche: 1,
            shares: 1000,
        },
        Msg::StageVoid {
            stage: 3,
            code: "P",
            on: d2,
            conclusion: 2,
            leftover: 1000,
            last: true,
        },
        Msg::StageVoid {
            stage: 2,
            code: "P",
            on: d2,
            conclusion: 2,
            leftover: 1000,
            last: false,
        },
        Msg::NoLaterStage { id: 1, code: "P" },
        Msg::ManPages {
            count: 2,
            dir: "man1",
        },
        Msg::RatesFileSound {
            name: "tasas.csv",
            count: 2,
            from: d,
            to: d2,
        },
        Msg::RatesFileProblems {
            name: "tasas.csv",
            count: 3,
        },
        Msg::WorkbookNotText,
        Msg::OutOnlyForExcel,
        Msg::OutIsSymlink,
        Msg::Left,
    ];
    for rows in [
        Rows::Adjudications,
        Rows::Acceptances,
        Rows::Proposals,
        Rows::Pledges,
    ] {
        v.push(Msg::Imported {
            rows,
            import: 1,
            added: 3,
            ids: Some((1, 3)),
            new_holders: 1,
            stage: Some((2, "P")),
            read: ReadAs::Text {
                encoding: "UTF-8",
                separator: ';',
            },
        });
    }
    for (criterion, outcome) in [
        (
            Criterion::PresentValue {
                rate_ea_pct: crate::money::dec("20.56"),
                source: Some(("IBC", "IBC")),
            },
            TrancheOutcome::Tie(vec!["P-07", "P-12"]),
        ),
        (Criterion::HighestPrice, TrancheOutcome::Desert),
        (
            Criterion::PriceAndTerm {
                price: crate::money::dec("0.7"),
                term: crate::money::dec("0.3"),
            },
            TrancheOutcome::Winner {
                proposal: "P-07",
                draw: Some(1),
            },
        ),
    ] {
        v.push(Msg::TrancheEvaluated {
            stage: 2,
            code: "P",
            tranche: 1,
            shares: 1000,
            opens: d,
            closes: d2,
            minimum_price: amount,
            criterion,
            outcome,
        });
    }
    for c in [
        Counting::Check,
        Counting::Notices,
        Counting::Adjudications,
        Counting::Pledges,
        Counting::Acceptances,
        Counting::Proposals,
        Counting::AdjudicationReading,
        Counting::Adjudicating,
    ] {
        v.push(Msg::Counting(c));
    }
    v.extend(steps().into_iter().map(Msg::DemoStep));
    v
}

/// An ISO date (`2024-11-20`) in a text.
fn has_iso_date(text: &str) -> bool {
    text.as_bytes().windows(10).any(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    })
}

#[test]
fn every_line_is_said_in_both_languages() {
    let validity = Said::new(
        "valid 2004-11-26..2005-11-26",
        "vigente del 26/11/2004 al 26/11/2005",
    );
    let ids = [3, 4, 5];
    let first = [(2, 1), (3, 2)];
    let mut covered = [false; VARIANTS];
    for m in examples(&validity, &ids, &first) {
        covered[variant(&m)] = true;
        let (en, es) = (of(Lang::En).msg(&m), of(Lang::Es).msg(&m));
        assert!(!en.is_empty() && !es.is_empty(), "{m:?}");
        // the same words in both languages only where they are a placeholder or a path
        if !matches!(m, Msg::ActaWritten { .. }) {
            assert_ne!(en, es, "{m:?} is not worded in Spanish");
        }
        assert!(!has_iso_date(&es), "an ISO date in Spanish: {es}");
        for english in [
            " shares", " breach ", "recorded", " issued", "imported", "(ids ",
        ] {
            assert!(!es.contains(english), "{english:?} in {es}");
        }
    }
    assert!(covered.iter().all(|&c| c), "a line without an example");
}

#[test]
fn the_demo_steps_are_titled_in_both_languages_each_once() {
    let titles = |lang| -> Vec<String> {
        steps()
            .into_iter()
            .map(|s| of(lang).msg(&Msg::DemoStep(s)))
            .collect()
    };
    for lang in [Lang::En, Lang::Es] {
        let mut t = titles(lang);
        let n = t.len();
        t.sort();
        t.dedup();
        assert_eq!(t.len(), n, "two steps share a title in {lang:?}");
    }
}

#[test]
fn codes_in_words_only_in_spanish_and_only_those_it_knows() {
    assert_eq!(of(Lang::Es).code("kind", "sale"), Some("venta"));
    assert_eq!(
        of(Lang::Es).code("convention", "daily-simple"),
        Some("interés simple diario")
    );
    assert_eq!(of(Lang::Es).code("severity", "high"), Some("alta"));
    // a kind as the command line takes it back
    for k in crate::program::BreachKind::ALL {
        let word = of(Lang::Es).code("kind", k.as_str()).unwrap();
        assert_eq!(word.parse::<crate::program::BreachKind>(), Ok(k));
    }
    assert_eq!(of(Lang::Es).code("kind", "LATE"), None);
    assert_eq!(of(Lang::Es).code("doc_type", "CC"), None);
    assert_eq!(of(Lang::En).code("kind", "sale"), None);
}

/// One share is «1 acción», never «1 acciones» (a breach and a pledge of one share).
#[test]
fn one_share_is_said_in_the_singular() {
    let breach = |shares| Msg::BreachRecorded {
        id: 2,
        kind: crate::program::BreachKind::Sale,
        shares,
        date: day("2024-11-01"),
        adjudication: 3,
    };
    let said = super::of(crate::lang::Lang::Es).msg(&breach(1));
    assert!(said.contains(" de 1 acción el 01/11/2024"), "{said}");
    let said = super::of(crate::lang::Lang::Es).msg(&breach(1000));
    assert!(said.contains(" de 1.000 acciones el 01/11/2024"), "{said}");
}
