//! What a command did, as the typed facts the catalogues word ([`super::Catalogue::msg`]): the
//! success lines of the command line (a breach recorded, a notice issued, an import's summary)
//! and the demo's narration ([`Step`]). Each language words every variant in its own file
//! (`en_msg`, `es_msg`) with an exhaustive match: a line one language lacks does not compile.

use crate::program::BreachKind;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// How an import's file was read.
#[derive(Debug, Clone, Copy)]
pub enum ReadAs<'a> {
    /// A workbook's sheet.
    Workbook,
    /// Text in `encoding`, its columns split by `separator`.
    Text { encoding: &'a str, separator: char },
}

/// What an import adds rows of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    Adjudications,
    Acceptances,
    Proposals,
    Pledges,
}

/// When a notice's payment term ends.
#[derive(Debug, Clone, Copy)]
pub enum Deadline {
    /// Counted from the notice's date.
    By(NaiveDate),
    /// Counted from its delivery, not recorded yet: the day it would be if delivered on its date.
    FromDelivery(NaiveDate),
}

/// What a progress bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// The check's adjudications read.
    Check,
    /// A batch's notices issued.
    Notices,
    /// An import's adjudication rows.
    Adjudications,
    /// An import's pledge rows.
    Pledges,
    /// An import's acceptance rows.
    Acceptances,
    /// An import's proposal rows.
    Proposals,
    /// The first stage's acceptances read and judged by the adjudication, then its awards
    /// registered as adjudications (a dry run only reads).
    AdjudicationReading,
    /// The first stage's acceptances adjudicated and written out.
    Adjudicating,
}

/// How a later stage's proposals are valued.
#[derive(Debug, Clone)]
pub enum Criterion<'a> {
    /// Present value at an IBC rate, named by its source when known (in English, in Spanish).
    PresentValue {
        rate_ea_pct: Decimal,
        source: Option<(&'a str, &'a str)>,
    },
    HighestPrice,
    /// Points for price and term, with their weights.
    PriceAndTerm {
        price: Decimal,
        term: Decimal,
    },
}

/// How a tranche stands after the evaluation.
#[derive(Debug, Clone)]
pub enum TrancheOutcome<'a> {
    Winner {
        proposal: &'a str,
        draw: Option<i64>,
    },
    Tie(Vec<&'a str>),
    Desert,
}

/// A winning proposal's value under the stage's criterion.
#[derive(Debug, Clone, Copy)]
pub enum Worth {
    PresentValue(Decimal),
    Value(Decimal),
    Points(Decimal),
    None,
}

/// One success line of a command.
#[derive(Debug, Clone)]
pub enum Msg<'a> {
    RegisterReady {
        created: bool,
        path: &'a str,
        schema: i64,
    },
    AuditKey {
        created: bool,
        path: &'a str,
        id: &'a str,
    },
    CheckpointLogCreated {
        path: &'a str,
        line: u64,
        events: u64,
    },
    CheckpointLogMissing {
        path: &'a str,
        events: u64,
    },
    OutsideValidity {
        validity: &'a crate::lang::Said,
    },
    BreachRecorded {
        id: i64,
        kind: BreachKind,
        shares: u64,
        date: NaiveDate,
        adjudication: i64,
    },
    BreachVoided {
        id: i64,
        void: i64,
    },
    PaymentRecorded {
        id: i64,
        amount: Decimal,
        date: NaiveDate,
        breach: i64,
    },
    PaymentVoided {
        id: i64,
        void: i64,
    },
    AdjudicationVoided {
        id: i64,
        void: i64,
    },
    PledgeAlready {
        id: i64,
        adjudication: i64,
        rank: u8,
        registered: NaiveDate,
    },
    PledgeRegistered {
        id: i64,
        shares: u64,
        adjudication: i64,
        rank: u8,
        to: &'a str,
        registered: NaiveDate,
    },
    PledgeReleased {
        pledge: i64,
        on: NaiveDate,
        release: i64,
    },
    PledgesReleased {
        adjudications: u64,
        on: NaiveDate,
        first: i64,
        last: i64,
    },
    NoPledgeReleasable {
        on: NaiveDate,
    },
    PledgesOfReleased {
        adjudication: i64,
        on: NaiveDate,
        ids: &'a [i64],
    },
    PledgeVoided {
        id: i64,
        void: i64,
    },
    /// An import added its rows; `ids` the first and last, when it added any.
    Imported {
        rows: Rows,
        import: i64,
        added: u64,
        ids: Option<(i64, i64)>,
        new_holders: u64,
        /// A later stage's proposals: the stage and the program.
        stage: Option<(u8, &'a str)>,
        read: ReadAs<'a>,
    },
    /// Rows of an import already registered as they are: how many, the first few by line.
    Unchanged {
        rows: Rows,
        count: u64,
        first: &'a [(usize, i64)],
    },
    AlreadyImported {
        rows: Rows,
        path: &'a std::path::Path,
        import: i64,
        at: &'a str,
        by: &'a str,
    },
    NoticeIssued {
        number: &'a str,
        breach: i64,
        liquidation: i64,
        total: Decimal,
        until: NaiveDate,
        deadline: Deadline,
        path: &'a str,
    },
    NoticesIssued {
        count: u64,
        dir: &'a str,
        index: &'a str,
        /// the register's breaches the batch left out, by why (said only when some were)
        skipped: crate::register::notice::Skipped,
    },
    /// The breaches a batch of notices leaves out, by why, as the web's list of pending notices
    /// says it (nothing when it leaves none out).
    NoticesLeftOut {
        skipped: crate::register::notice::Skipped,
    },
    RenderedAgain {
        number: &'a str,
        ext: &'a str,
        path: &'a str,
    },
    NoticeDelivered {
        number: &'a str,
        on: NaiveDate,
        via: &'a str,
        /// The business days of the term when it runs from delivery; `None`: from the notice's
        /// date.
        term_days: Option<u32>,
        due: NaiveDate,
    },
    SettlementIssued {
        number: &'a str,
        breach: i64,
        liquidation: i64,
        payments: u64,
        paid: Decimal,
        until: NaiveDate,
        path: &'a str,
    },
    HolderUpdated {
        doc_type: &'a str,
        doc_number: &'a str,
        name: &'a str,
        version: i64,
        address: Option<&'a str>,
        city: Option<&'a str>,
        email: Option<&'a str>,
    },
    ProgramAdded {
        code: &'a str,
        id: i64,
        new: bool,
    },
    StagePriceSet {
        id: i64,
        code: &'a str,
        stage: Option<(String, Decimal)>,
        /// The prices in force the record replaced (a correction, with its reason), by stage.
        replaced: Vec<(u8, Decimal)>,
        /// It replaced a record that no later stage happened.
        replaced_none: bool,
    },
    LetterheadSet {
        code: &'a str,
        version: i64,
        lacks: Vec<String>,
    },
    NoLetterhead {
        code: &'a str,
    },
    UserAdded {
        name: &'a str,
        id: i64,
        role: &'a str,
    },
    UserDisabled {
        name: &'a str,
    },
    PasswordChanged {
        name: &'a str,
    },
    BackupWritten {
        path: &'a str,
        bytes: u64,
        events: u64,
        head: Option<&'a str>,
    },
    CheckpointsCopied {
        path: &'a str,
        count: u64,
    },
    TemplateWritten {
        path: &'a str,
    },
    OfferOpened {
        id: i64,
        code: &'a str,
        opens: NaiveDate,
        closes: NaiveDate,
        earliest: Option<NaiveDate>,
    },
    OfferRun {
        run: i64,
        code: &'a str,
        ids: Option<(i64, i64)>,
        new_holders: u64,
        fingerprint: &'a str,
    },
    ActaWritten {
        path: &'a str,
    },
    ActaOfRun {
        run: i64,
        code: &'a str,
        path: &'a str,
    },
    RateAdded {
        id: i64,
        from: NaiveDate,
        to: NaiveDate,
        moratorium: Decimal,
        resolution: &'a str,
    },
    RateSupersedes {
        from: NaiveDate,
        to: NaiveDate,
    },
    RateGap {
        from: NaiveDate,
        to: NaiveDate,
        kept_from: NaiveDate,
        kept_to: NaiveDate,
    },
    RatesAdded {
        count: u64,
        name: &'a str,
    },
    RatesDryRun,
    /// Under `rates list`: how many periods, the days they cover, the series.
    RatesCovered {
        count: u64,
        from: NaiveDate,
        to: NaiveDate,
        source: &'a str,
    },
    Warning {
        what: &'a str,
    },
    LiquidationReproduces {
        id: i64,
        total: Decimal,
        until: NaiveDate,
        fingerprint: &'a str,
    },
    LiquidationDiffers {
        id: i64,
        same_print: bool,
    },
    /// The demo: a fresh register at `db`, signed with the audit key at `key`.
    DemoStart {
        db: &'a str,
        key: &'a str,
    },
    /// A demo step's title.
    DemoStep(Step),
    /// A step that is refused, as the story means it to be.
    DemoRefused {
        error: &'a str,
    },
    DemoWeb {
        user: &'a str,
        password: &'a str,
        db: &'a str,
        /// the demo's audit key, which the web's audit pages check the checkpoints with
        key: &'a str,
    },
    /// The first stage's result, above its table.
    OfferHeader {
        program: &'a str,
        offered: u64,
        demand: u64,
        awarded: u64,
        leftover: u64,
        oversubscribed: bool,
        rule: &'a str,
    },
    TrancheOpened {
        stage: u8,
        code: &'a str,
        tranche: u32,
        shares: u64,
        opens: NaiveDate,
        closes: NaiveDate,
        minimum_price: Decimal,
        available: u64,
        offered: u64,
    },
    /// A tranche as evaluated, above the proposals' table.
    TrancheEvaluated {
        stage: u8,
        code: &'a str,
        tranche: u32,
        shares: u64,
        opens: NaiveDate,
        closes: NaiveDate,
        minimum_price: Decimal,
        criterion: Criterion<'a>,
        outcome: TrancheOutcome<'a>,
    },
    /// A later stage's improvement round: one proposal's new price, counted or not.
    Improvement {
        id: i64,
        proposal: &'a str,
        tranche: u32,
        original: Decimal,
        offered: Decimal,
        counted: bool,
        code: &'a str,
        stage: u8,
    },
    /// A recorded draw recomputed and found the same.
    DrawVerified {
        id: i64,
        stage: u8,
        code: &'a str,
        tranche: u32,
        text: &'a str,
        digest: &'a str,
        number: &'a str,
        tied: u64,
        index: u64,
        winner: &'a str,
    },
    /// `offer verify`: the acta's text is the register's; `text_only` when its file is none
    /// vigia wrote (said before it: the line then says the text's match, not «verificada»).
    ActaVerified {
        run: i64,
        code: &'a str,
        acceptors: u64,
        awarded: u64,
        fingerprint: &'a str,
        text_only: bool,
    },
    /// `audit verify` found nothing wrong: the chain, the schema, the last checkpoint.
    AuditIntact {
        events: i64,
        head: &'a str,
        signed: u64,
        line: u64,
        at_events: i64,
        at: &'a str,
        since: i64,
    },
    /// A later stage's draw, with what anyone needs to check it.
    Drawn {
        id: i64,
        stage: u8,
        code: &'a str,
        tranche: u32,
        sorted: &'a str,
        text: &'a str,
        digest: &'a str,
        number: &'a str,
        tied: u64,
        index: u64,
        winner: &'a str,
    },
    StageAdjudicated {
        stage: u8,
        code: &'a str,
        on: NaiveDate,
        conclusion: i64,
        awarded: u64,
        offered: u64,
        leftover: u64,
    },
    /// The price a later stage's adjudication records for Art. 9 (iii); `composition` says how
    /// several tranches' prices make it (empty for one); `so_far`: the stage left shares to a
    /// later stage still to conclude, so liquidations stay provisional until it does.
    StagePriceFrom {
        id: i64,
        code: &'a str,
        stage: u8,
        price: Decimal,
        composition: &'a str,
        from: NaiveDate,
        so_far: bool,
    },
    /// Several problems refused `what`; nothing was written.
    Problems {
        what: &'a str,
        count: u64,
    },
    /// What an import's problems refused: the import of the file at `path`.
    ImportOf {
        path: &'a str,
    },
    /// `pledge release --releasable`'s problems refused the release on `on`.
    ReleaseOf {
        on: NaiveDate,
    },
    /// A rates file's problems refused its import (`sfc`: the SFC's history).
    RatesImportOf {
        name: &'a str,
        sfc: bool,
    },
    /// A later stage's tranche awarded to a proposal (its bidders jointly liable).
    StageAward {
        tranche: u32,
        shares: u64,
        proposal: &'a str,
        bidders: &'a str,
        price: Decimal,
        total: Decimal,
        value: Worth,
        due: NaiveDate,
        draw: Option<i64>,
    },
    /// A tranche without a valid proposal: its shares pass on.
    TrancheVoid {
        tranche: u32,
        shares: u64,
    },
    /// A later stage declared void; `last`: it was the program's last stage.
    StageVoid {
        stage: u8,
        code: &'a str,
        on: NaiveDate,
        conclusion: i64,
        leftover: u64,
        last: bool,
    },
    /// The stage price recorded absent after the last stage was declared void.
    NoLaterStage {
        id: i64,
        code: &'a str,
    },
    /// `man --dir`: how many pages were written where.
    ManPages {
        count: u64,
        dir: &'a str,
    },
    /// `rates check`: the file reads as a series with no problem.
    RatesFileSound {
        name: &'a str,
        count: u64,
        from: NaiveDate,
        to: NaiveDate,
    },
    /// `rates check`: how many problems the file has (listed above it).
    RatesFileProblems {
        name: &'a str,
        count: u64,
    },
    /// `--format xlsx` without `--out`.
    WorkbookNotText,
    /// `--out` with a format written to standard output (table, json, csv).
    OutOnlyForExcel,
    /// `--out` names a symbolic link (the check's report).
    OutIsSymlink,
    /// A progress bar's label.
    Counting(Counting),
    /// The word before a progress bar's time left.
    Left,
}

/// The steps of `vigia demo`, in the order the story tells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    OfferTooShort,
    OfferOpen,
    AcceptancesImport,
    AcceptancesAgain,
    Adjudicate,
    AdjudicateTwice,
    VerifyActa,
    StageOpen,
    ProposalsImport,
    Evaluate,
    TieFirst,
    ImproveLower,
    Draw,
    DrawVerify,
    StageAdjudicate,
    ProgramAdd,
    HoldersUpdated,
    PledgeFirst,
    PledgeSecond,
    /// Where the Second Stage's steps come in.
    Stage,
    BreachSale,
    BreachAfterLockup,
    Letterhead,
    NoticeIssue,
    NoticeHtml,
    NoticeVerify,
    NoAddress,
    HolderAddress,
    Delivered,
    PartialPayment,
    PaymentTwice,
    PaymentMistake,
    PaymentVoid,
    Check,
    PledgeHeld,
    Liquidate,
    NoticeBalance,
    HandedOver,
    PaysBalance,
    Payments,
    NoDemand,
    Settlement,
    SettlementVerify,
    PledgeRelease,
    Reproduces,
    AdjudicationShow,
    CheckAfter,
    Audit,
}

/// What a batch of notices left out, said after `lead` ("; breaches left out: 197 paid in
/// full"), each count with its `words` (voided, noticed, settled, paid) written by `number`;
/// nothing when it left none out.
pub(super) fn left_out(
    s: &crate::register::notice::Skipped,
    lead: &str,
    words: [(&str, &str); 4],
    number: &dyn Fn(u64) -> String,
) -> String {
    let said: Vec<String> = [s.voided, s.noticed, s.settled, s.paid]
        .iter()
        .zip(words)
        .filter(|(n, _)| **n > 0)
        .map(|(n, (one, many))| format!("{} {}", number(*n), if *n == 1 { one } else { many }))
        .collect();
    match said.is_empty() {
        true => String::new(),
        false => format!("{lead}{}", said.join(", ")),
    }
}
