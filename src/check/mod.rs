//! The periodic batch check (SPEC §8): every finding about every adjudication and breach as of a
//! date, each with a stable code, a severity and a one-line reason; overdue fines carry their
//! balance accrued to the as-of date. Streams through the store (findings go to a sink as they
//! are found) and prices through the engine with one parsed rate series. No printing. The scan
//! here gathers each adjudication's facts; `assess` (pure) decides its findings.

mod assess;
mod pledges;

use crate::calendar::FineScale;
use crate::fine::{self, Convention, FineError, Payment, StagePrice};
use crate::program::Program;
use crate::rates::RateSeries;
use crate::register;
use crate::store::breaches::{self, transfer_price};
use crate::store::{StoreError, programs, scan};
use assess::{Assessed, Owed};
use chrono::{Datelike, NaiveDate};
use foldhash::HashMap;
pub use pledges::Part;
use rusqlite::Connection;
use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// What a finding is about; the names are stable (schedulers and spreadsheets key on them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    NoticeOverdue,
    PledgeEnforceable,
    SharesExceeded,
    MissingPledge,
    /// A balance the decisions need cannot be computed: a day of its accrual has no certified
    /// rate. Stands in for that breach's NOTICE_OVERDUE and PLEDGE_ENFORCEABLE until the rate
    /// is added.
    RateMissing,
    BreachNotLiquidated,
    /// A notice issued more than the program's `undelivered_after_business_days` ago has no
    /// recorded delivery (issue 14).
    NoticeUndelivered,
    /// An undelivered notice's holder has no postal address on file: it cannot go by mail
    /// (`notice delivered` refuses certified mail), only by hand (issue 20).
    HolderNoAddress,
    ProvisionalStale,
    PledgeRank,
    /// About the register as a whole: next month's rate is not certified yet, and the month
    /// ends within [`RATE_DUE_DAYS`] days.
    RateDue,
    LockupEnding,
    PledgeReleasable,
}

/// RATE_DUE is reported on the last this many days of a month.
pub const RATE_DUE_DAYS: u32 = 5;

impl Code {
    /// Every code, most urgent first (the order of the summaries).
    pub const ALL: [Code; 13] = [
        Code::NoticeOverdue,
        Code::PledgeEnforceable,
        Code::SharesExceeded,
        Code::MissingPledge,
        Code::RateMissing,
        Code::BreachNotLiquidated,
        Code::NoticeUndelivered,
        Code::HolderNoAddress,
        Code::ProvisionalStale,
        Code::PledgeRank,
        Code::RateDue,
        Code::LockupEnding,
        Code::PledgeReleasable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::NoticeOverdue => "NOTICE_OVERDUE",
            Code::PledgeEnforceable => "PLEDGE_ENFORCEABLE",
            Code::SharesExceeded => "SHARES_EXCEEDED",
            Code::MissingPledge => "MISSING_PLEDGE",
            Code::RateMissing => "RATE_MISSING",
            Code::BreachNotLiquidated => "BREACH_NOT_LIQUIDATED",
            Code::NoticeUndelivered => "NOTICE_UNDELIVERED",
            Code::HolderNoAddress => "HOLDER_NO_ADDRESS",
            Code::ProvisionalStale => "PROVISIONAL_STALE",
            Code::PledgeRank => "PLEDGE_RANK",
            Code::RateDue => "RATE_DUE",
            Code::LockupEnding => "LOCKUP_ENDING",
            Code::PledgeReleasable => "PLEDGE_RELEASABLE",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::NoticeOverdue
            | Code::PledgeEnforceable
            | Code::SharesExceeded
            | Code::MissingPledge
            | Code::RateMissing => Severity::High,
            // RATE_DUE is paperwork with a date (add the certification before the month
            // starts), like liquidating or notifying; left undone it becomes RATE_MISSING
            Code::BreachNotLiquidated
            | Code::NoticeUndelivered
            | Code::HolderNoAddress
            | Code::ProvisionalStale
            | Code::PledgeRank
            | Code::RateDue => Severity::Medium,
            Code::LockupEnding | Code::PledgeReleasable => Severity::Low,
        }
    }
}

/// How urgent one finding is: its code's severity, but a notice with no delivery recorded
/// becomes high once its delivery term has passed (LEGAL_NOTES §7.3).
fn severity_of(code: Code, why: &Why) -> Severity {
    match why {
        Why::NoticeUndelivered { late: true, .. } => Severity::High,
        _ => code.severity(),
    }
}

impl Finding {
    /// How urgent this finding is ([`severity_of`]).
    pub fn severity(&self) -> Severity {
        severity_of(self.code, &self.why)
    }
}

/// How urgent a finding is; ordered from the most urgent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    High,
    Medium,
    Low,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// One thing that needs attention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    /// The adjudication it is about; `None` for a finding about the register as a whole
    /// (RATE_DUE).
    pub holding: Option<Holding>,
    pub breach_id: Option<i64>,
    /// Balance accrued to the as-of date, for overdue fines.
    pub outstanding: Option<Decimal>,
    /// Why it was made: the facts, worded by each language's catalogue
    /// (the catalogue).
    pub why: Why,
    /// What its words need besides its facts.
    pub context: Context,
}

/// The adjudication a finding is about, and its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub program: String,
    pub doc_type: String,
    pub doc_number: String,
    pub holder: String,
    pub adjudication_id: i64,
}

/// What to check.
#[derive(Debug, Clone)]
pub struct Options {
    pub as_of: NaiveDate,
    pub program_id: Option<i64>,
    /// LOCKUP_ENDING: lock-ups that end within this many days after the as-of date.
    pub within_days: u32,
    /// Only findings this urgent or more (`Severity::Low`: all).
    pub min_severity: Severity,
}

/// Why the check could not run.
#[derive(Debug)]
pub enum Error {
    Store(StoreError),
    /// The engine could not price a breach's fine: the check stops rather than report a wrong
    /// figure. (A month without a certified rate does not stop [`run`]: it is a RATE_MISSING
    /// finding.)
    Fine {
        breach: i64,
        error: FineError,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Store(e) => e.fmt(f),
            Error::Fine { breach, error } => write!(f, "breach {breach}: {error}"),
        }
    }
}

impl Error {
    /// The error in Spanish, for the web. The engine words its own errors: `fine` gives an
    /// engine error's Spanish; a store error's detail (SQLite's message, a stored value that does
    /// not read) is given as the store words it.
    pub fn es(&self, fine: impl FnOnce(&FineError) -> String) -> String {
        match self {
            Error::Store(StoreError::Sqlite(e)) => {
                format!("error de la base de datos del registro: {e}")
            }
            Error::Store(StoreError::Corrupt(what)) => format!(
                "un dato guardado en el registro no se puede leer ({what}); verifique el registro"
            ),
            Error::Store(other) => format!("no se pudo leer el registro: {other}"),
            Error::Fine { breach, error } => {
                format!("incumplimiento N.º {breach}: {}", fine(error))
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        Error::Store(e)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Store(e.into())
    }
}

/// A program's terms, read once.
struct Terms {
    program: Program,
    scale: FineScale,
    stage: StagePrice,
    convention: Convention,
}

/// Whether the holder's contact details in force give a postal address.
fn has_address(conn: &Connection, holder_id: i64) -> Result<bool, StoreError> {
    Ok(crate::store::contacts::current(conn, holder_id)?
        .and_then(|c| c.address)
        .is_some_and(|a| !a.trim().is_empty()))
}

fn terms(conn: &Connection) -> Result<HashMap<i64, Terms>, StoreError> {
    let mut out = HashMap::default();
    for p in programs::list(conn)? {
        let scale = p.scale()?;
        let convention = p.program.convention;
        // the Art. 9 (iii) price as every liquidation takes it (the highest of the stages' prices,
        // LEGAL_NOTES §7.1), never the latest record's own price
        let stage = p.program.stage_counted(programs::stage_price(conn, p.id)?);
        out.insert(
            p.id,
            Terms {
                stage,
                program: p.program,
                scale,
                convention,
            },
        );
    }
    Ok(out)
}

/// Balance of a breach's fine on `as_of` with the payments recorded up to then.
fn outstanding(
    conn: &Connection,
    t: &Terms,
    a: &scan::AdjudicationRow<'_>,
    b: &scan::BreachRow,
    as_of: NaiveDate,
    rates: &RateSeries,
) -> Result<Decimal, Error> {
    let case = register::liquidation::fine_case(
        &t.program,
        t.scale.clone(),
        t.stage,
        (a.adjudicated_on, a.price_per_share),
        (
            b.breach_date,
            b.shares,
            transfer_price(b.consideration_per_share, b.consideration_total, b.shares),
        ),
    );
    let payments: Vec<Payment> = if b.has_payments {
        register::liquidation::payments_until(conn, b.id, as_of)?
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    } else {
        Vec::new()
    };
    fine::balance(&case, as_of, &payments, t.convention, rates).map_err(|error| Error::Fine {
        breach: b.id,
        error,
    })
}

/// Why a finding was made: the facts of its one-line reason, which the catalogue words in
/// each language where the finding is shown (off the scanning thread), with the [`Remedy`] the
/// finding calls for ([`Finding::remedy`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    NoLiquidation {
        breach: i64,
        on: NaiveDate,
    },
    NoNotice {
        breach: i64,
        on: NaiveDate,
    },
    ProvisionalStale {
        breach: i64,
        liquidation: i64,
        /// The price now is only the highest so far (a later stage is still pending): the
        /// liquidation stays provisional once made again.
        so_far: bool,
    },
    NoticeOverdue {
        number: String,
        deadline: NaiveDate,
        due: Decimal,
    },
    NoticeUndelivered {
        number: String,
        deliver_by: NaiveDate,
        /// Its delivery term has passed.
        late: bool,
    },
    /// The undelivered notice's holder has no postal address on file.
    HolderNoAddress {
        number: String,
    },
    /// The balance of `breach` is needed (its notice is overdue, or payments may have settled
    /// it) but these days of its accrual have no certified rate.
    RateMissing {
        breach: i64,
        /// The overdue notice (number, deadline), if that is why the balance is needed.
        overdue: Option<(String, NaiveDate)>,
        missing: Vec<(NaiveDate, NaiveDate)>,
    },
    SharesExceeded {
        breached: u64,
        adjudicated: u64,
    },
    MissingPledgeInLockup {
        end: NaiveDate,
    },
    MissingPledgeWhileOwed,
    /// Pledges are in force, but over fewer shares than were adjudicated (Art. 10): during the
    /// lock-up (`end`, its last day) or while a fine is owed (`None`).
    PledgeShort {
        end: Option<NaiveDate>,
        covered: u64,
        shares: u64,
    },
    PledgeRank {
        pledge: i64,
    },
    /// About the register as a whole (RATE_MISSING with no breach): the days `from..=to`, up to
    /// the as-of date, have no certified rate, so no fine can be liquidated or notified as of
    /// then; `open` breaches have a fine that may need it (not voided, no paz y salvo).
    RatesUncertified {
        from: NaiveDate,
        to: NaiveDate,
        open: u64,
    },
    /// Second-degree pledges over more shares than the lender financed: the rest should carry
    /// the first degree (Art. 10).
    PledgeRankBeyondFinancing {
        pledges: Vec<i64>,
        second: u64,
        financed: u64,
    },
    /// The month `first` starts has no certified rate yet.
    RateDue {
        first: NaiveDate,
    },
    LockupEnding {
        end: NaiveDate,
    },
    PledgeReleasable {
        end: NaiveDate,
        pledge: i64,
        /// Its part, when it is one of several pledges in force.
        of: Option<pledges::Part>,
    },
    PledgeEnforceable {
        breach: i64,
        pledge: i64,
        due: Decimal,
        /// Its part, when it is one of several pledges in force.
        of: Option<pledges::Part>,
    },
}

/// Where the rates the check prices with come from, which says how a missing certification is
/// added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RatesHome {
    /// The register's series (or the embedded one): a rates import adds to it (the web's
    /// «Tasas» page too).
    Register,
    /// A rates file the caller chose: the certification goes into it.
    File(Arc<str>),
}

impl RatesHome {
    pub fn of(rates: &RateSeries) -> RatesHome {
        match crate::rates::Origin::of(rates.source()) {
            crate::rates::Origin::Register | crate::rates::Origin::Shipped => RatesHome::Register,
            crate::rates::Origin::File(file) => RatesHome::File(file.into()),
        }
    }
}

/// What a finding's words need besides its facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    pub as_of: NaiveDate,
    pub rates: RatesHome,
    /// The whole months, up to the as-of date's, that have no certified rate when the as-of
    /// date has none: a liquidation as of that date cannot run until they are certified.
    pub uncertified: Option<(NaiveDate, NaiveDate)>,
}

/// What a finding calls for: the act that answers it, which each front end words its own way
/// (the command line as the command to run, the web in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remedy {
    /// Liquidate (again) the fine of `breach` as of `until`.
    Liquidate { breach: i64, until: NaiveDate },
    /// Issue the notice of `breach`'s fine, liquidated as of `until`.
    IssueNotice { breach: i64, until: NaiveDate },
    /// Deliver the notice `number`, then record the day and channel of its delivery.
    RecordDelivery { number: String },
    /// Record the postal address of notice `number`'s holder, or deliver it by hand.
    RecordAddress { number: String },
    /// Add the SFC's certification of the whole months `first..=last` where the rates come from.
    Certify {
        first: NaiveDate,
        last: NaiveDate,
        into: RatesHome,
    },
}

impl Finding {
    /// The act this finding calls for, if one answers it (a missing pledge is registered as
    /// the pledge's own facts say; an overdue notice is collected outside vigia).
    pub fn remedy(&self) -> Option<Remedy> {
        let as_of = self.context.as_of;
        let certify = |(first, last): (NaiveDate, NaiveDate)| Remedy::Certify {
            first,
            last,
            into: self.context.rates.clone(),
        };
        Some(match &self.why {
            Why::NoLiquidation { breach, .. } | Why::ProvisionalStale { breach, .. } => {
                Remedy::Liquidate {
                    breach: *breach,
                    until: as_of,
                }
            }
            Why::NoNotice { breach, .. } => Remedy::IssueNotice {
                breach: *breach,
                until: as_of,
            },
            Why::NoticeUndelivered { number, .. } => Remedy::RecordDelivery {
                number: number.clone(),
            },
            Why::HolderNoAddress { number } => Remedy::RecordAddress {
                number: number.clone(),
            },
            Why::RateMissing { missing, .. } => certify(months_missing(missing, as_of)),
            Why::RatesUncertified { from, to, .. } => certify(whole_months(*from, *to)),
            Why::RateDue { first } => certify(whole_months(*first, *first)),
            Why::NoticeOverdue { .. }
            | Why::SharesExceeded { .. }
            | Why::MissingPledgeInLockup { .. }
            | Why::MissingPledgeWhileOwed
            | Why::PledgeShort { .. }
            | Why::PledgeRank { .. }
            | Why::PledgeRankBeyondFinancing { .. }
            | Why::LockupEnding { .. }
            | Why::PledgeReleasable { .. }
            | Why::PledgeEnforceable { .. } => return None,
        })
    }
}

/// The first day of the month of `d`, and the last day of the month of `e`: the whole months
/// an SFC certification covers.
fn whole_months(d: NaiveDate, e: NaiveDate) -> (NaiveDate, NaiveDate) {
    let first = d.with_day(1).unwrap_or(d);
    let last = crate::calendar::last_day_of_month(e.year(), e.month())
        .and_then(|n| e.with_day(n))
        .unwrap_or(e);
    (first, last)
}

/// The whole months a RATE_MISSING finding asks to certify.
fn months_missing(missing: &[(NaiveDate, NaiveDate)], as_of: NaiveDate) -> (NaiveDate, NaiveDate) {
    match (missing.first(), missing.last()) {
        (Some((first, _)), Some((_, last))) => whole_months(*first, *last),
        _ => (as_of, as_of),
    }
}

/// A finding as the scan makes it: its holder and program still to be named, its reason to be
/// written.
struct Found {
    holder_id: i64,
    program_id: i64,
    adjudication_id: i64,
    assessed: Assessed,
}

/// Findings as the scan makes them, and how many adjudications it has read so far.
struct Batch {
    found: Vec<Found>,
    read: u64,
}

/// Why the scan stopped: the check failed, or whoever it hands its batches to did.
enum Stop<E> {
    Check(Error),
    Emit(E),
}

impl<E> From<Error> for Stop<E> {
    fn from(e: Error) -> Self {
        Stop::Check(e)
    }
}

impl<E> From<StoreError> for Stop<E> {
    fn from(e: StoreError) -> Self {
        Stop::Check(e.into())
    }
}

impl<E> From<rusqlite::Error> for Stop<E> {
    fn from(e: rusqlite::Error) -> Self {
        Stop::Check(e.into())
    }
}

/// The scanning thread's batches were not taken: handing on failed on the calling thread.
struct NotTaken;

/// Findings go on in batches of about this many.
const BATCH: usize = 1024;

/// Runs the check, handing each finding to `sink` as it is found: the register's own (RATE_DUE)
/// first, then adjudication by adjudication (its breaches' findings first). A balance that cannot
/// be priced for lack of a certified rate is a RATE_MISSING finding, and the check goes on. `progress` gets the adjudications read so far. An error of
/// `sink` stops the check and comes back as it is (the caller's own type `E`); so does the check's
/// own [`Error`], converted.
///
/// On a register in a file, the scan runs on a second thread with its own read-only connection
/// (one snapshot for the whole scan), while this thread names the holders of the findings and
/// hands them to `sink`: after the lock-ups end nearly every holder has a finding, and naming and
/// writing them is then as much work as the scan. Holders are never changed or deleted, so every
/// holder the scan's snapshot refers to is in this connection's later one.
pub fn run<E: From<Error>>(
    conn: &Connection,
    opts: &Options,
    rates: &RateSeries,
    mut sink: impl FnMut(Finding) -> Result<(), E>,
    mut progress: impl FnMut(u64),
) -> Result<(), E> {
    let mut holders_stmt = scan::Holders::statement(conn).map_err(Error::from)?;
    let mut holders = scan::Holders::new(conn, &mut holders_stmt).map_err(Error::from)?;
    let codes: HashMap<i64, String> = programs::list(conn)
        .map_err(Error::from)?
        .into_iter()
        .map(|p| (p.id, p.program.code))
        .collect();
    let certified = |d: NaiveDate| rates.period_on(d).is_some();
    let uncertified = assess::uncertified_days(opts.as_of, certified);
    let context = Context {
        as_of: opts.as_of,
        rates: RatesHome::of(rates),
        uncertified: uncertified.map(|(from, to)| whole_months(from, to)),
    };
    // about the register as a whole, known before the scan: first
    let open = match uncertified {
        Some(_) => breaches::open_count(conn, opts.program_id).map_err(Error::from)?,
        None => 0,
    };
    let register_wide = [
        assess::rates_uncertified(opts, uncertified, open),
        assess::rate_due(opts, certified),
    ];
    for Assessed { code, why, .. } in register_wide.into_iter().flatten() {
        sink(Finding {
            code,
            holding: None,
            breach_id: None,
            outstanding: None,
            why,
            context: context.clone(),
        })?;
    }
    let mut hand_on = |batch: Batch| -> Result<(), E> {
        for f in batch.found {
            let (doc_type, doc_number, holder) = holders.get(f.holder_id).map_err(Error::from)?;
            let Assessed {
                code,
                breach_id,
                outstanding,
                why,
            } = f.assessed;
            sink(Finding {
                code,
                holding: Some(Holding {
                    program: codes.get(&f.program_id).cloned().unwrap_or_default(),
                    doc_type,
                    doc_number,
                    holder,
                    adjudication_id: f.adjudication_id,
                }),
                breach_id,
                outstanding,
                why,
                context: context.clone(),
            })?;
        }
        progress(batch.read);
        Ok(())
    };
    let Some(reader) = crate::store::reader(conn).map_err(Error::from)? else {
        // an in-memory register: one connection, one thread
        return findings(conn, opts, rates, &mut hand_on).map_err(|stop| match stop {
            Stop::Check(e) => e.into(),
            Stop::Emit(e) => e,
        });
    };
    // this connection only walks the holders in order now (see STREAMING_CACHE)
    let cache = crate::store::PageCache::set(
        conn,
        crate::store::STREAMING_CACHE,
        crate::store::Temp::AsIs,
    )
    .map_err(Error::from)?;
    let ran: Result<(), E> = std::thread::scope(|scope| {
        let (to_main, from_scan) = std::sync::mpsc::sync_channel::<Batch>(8);
        let scan = scope.spawn(move || -> Result<(), Stop<NotTaken>> {
            reader.execute_batch("BEGIN")?;
            let found = findings(&reader, opts, rates, &mut |batch| {
                // the receiver is gone only when handing on failed: stop scanning
                to_main.send(batch).map_err(|_| NotTaken)
            });
            reader.execute_batch("COMMIT")?;
            found
        });
        let mut handed = Ok(());
        for batch in from_scan.iter() {
            handed = hand_on(batch);
            if handed.is_err() {
                break;
            }
        }
        drop(from_scan);
        let scanned = scan.join().expect("the scanning thread does not panic");
        // a failure to hand on is the cause when both failed
        handed?;
        match scanned {
            Ok(()) => Ok(()),
            Err(Stop::Check(e)) => Err(e.into()),
            Err(Stop::Emit(NotTaken)) => {
                unreachable!("batches are refused only after handing on failed")
            }
        }
    });
    // the check's own error first, then the cache's
    let put_back = cache.put_back(conn);
    ran?;
    put_back.map_err(Error::from)?;
    Ok(())
}

/// The adjudications with a finding of `code` as of `opts.as_of`, in id order: the scan alone,
/// nothing named or written (e.g. the candidates of `pledge release --releasable`), and the
/// adjudications it could not decide because a balance needs a rate not certified (a RATE_MISSING
/// finding): whoever acts on the list acts on what is decided and is told what is not. A fine
/// paid off before the missing days needs no rate and is decided.
pub fn adjudications_with(
    conn: &Connection,
    opts: &Options,
    rates: &RateSeries,
    code: Code,
) -> Result<Candidates, Error> {
    let mut found = Candidates::default();
    findings(conn, opts, rates, &mut |batch| -> Result<(), Error> {
        for f in &batch.found {
            if let Why::RateMissing {
                breach, missing, ..
            } = &f.assessed.why
            {
                found.undecided.push(Undecided {
                    adjudication: f.adjudication_id,
                    breach: *breach,
                    missing: missing.clone(),
                });
            } else if f.assessed.code == code
                // one adjudication may have a finding per pledge (split pledges, Art. 10)
                && found.ids.last() != Some(&f.adjudication_id)
            {
                found.ids.push(f.adjudication_id);
            }
        }
        Ok(())
    })
    .map_err(|stop| match stop {
        Stop::Check(e) | Stop::Emit(e) => e,
    })?;
    found
        .ids
        .retain(|id| !found.undecided.iter().any(|u| u.adjudication == *id));
    Ok(found)
}

/// What [`adjudications_with`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Candidates {
    /// The adjudications with the finding, in id order.
    pub ids: Vec<i64>,
    /// The adjudications that could not be decided.
    pub undecided: Vec<Undecided>,
}

/// An adjudication the check could not decide: the balance of `breach` needs the rates of the
/// `missing` days, which are not certified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecided {
    pub adjudication: i64,
    pub breach: i64,
    pub missing: Vec<(NaiveDate, NaiveDate)>,
}

/// The scan: every finding, in batches to `emit`, holders not yet named. It gathers each
/// adjudication's facts (pricing a breach only when the decisions need its balance) and
/// [`assess::assess`] decides.
fn findings<E>(
    conn: &Connection,
    opts: &Options,
    rates: &RateSeries,
    emit: &mut dyn FnMut(Batch) -> Result<(), E>,
) -> Result<(), Stop<E>> {
    let terms = terms(conn)?;
    let as_of = opts.as_of;
    let mut ends: HashMap<(i64, NaiveDate), NaiveDate> = HashMap::default();
    let mut read = 0u64;
    let mut batch: Vec<Found> = Vec::with_capacity(BATCH);
    let mut in_force: Vec<assess::Pledge> = Vec::new();
    scan::adjudications_with_breaches::<Stop<E>>(conn, opts.program_id, as_of, |a, breaches| {
        read += 1;
        if batch.len() >= BATCH || read.is_multiple_of(10_000) {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            emit(Batch { found: full, read }).map_err(Stop::Emit)?;
        }
        let t = terms
            .get(&a.program_id)
            .ok_or_else(|| StoreError::Corrupt(format!("program {} is missing", a.program_id)))?;
        let end = *ends
            .entry((a.program_id, a.adjudicated_on))
            .or_insert_with(|| {
                t.scale
                    .lockup_end(a.adjudicated_on)
                    .unwrap_or(a.adjudicated_on)
            });
        // read only for a holder with an undelivered notice
        let no_address = breaches.iter().any(|b| {
            b.latest_notice
                .as_ref()
                .is_some_and(|n| n.delivered_on.is_none())
        }) && !has_address(conn, a.holder_id)?;
        let mut facts: Vec<assess::Breach<'_>> = Vec::with_capacity(breaches.len());
        for b in breaches {
            let liquidation = match b.latest_liquidation {
                Some((id, provisional)) => Some(assess::Liquidation {
                    id,
                    stale: register::liquidation::stale(conn, id, provisional, t.stage)?,
                }),
                None => None,
            };
            facts.push(assess::Breach {
                id: b.id,
                on: b.breach_date,
                shares: b.shares,
                has_payments: b.has_payments,
                liquidation,
                notice: b.latest_notice.as_ref().map(|n| {
                    let letters = &t.program.letters;
                    assess::Notice {
                        number: &n.number,
                        deadline: crate::notice::effective_deadline(
                            n.deadline,
                            n.delivered_on,
                            letters.payment_term_from,
                            t.program.payment_term_business_days,
                        ),
                        undelivered: n.delivered_on.is_none(),
                        holder_no_address: n.delivered_on.is_none() && no_address,
                        awaits_delivery: n.delivered_on.is_none()
                            && letters.payment_term_from == crate::program::TermFrom::Delivery,
                        deliver_by: crate::holidays::add_business_days(
                            n.notice_date,
                            letters.undelivered_after_business_days,
                        )
                        .unwrap_or(n.deadline),
                    }
                }),
                settled: b.settled,
                may_grow: crate::fine::may_grow(t.stage, b.breach_date, end),
                owed: Owed::Unknown,
            });
        }
        for (f, b) in facts.iter_mut().zip(breaches) {
            if f.needs_balance(as_of, end) {
                f.owed = match outstanding(conn, t, &a, b, as_of, rates) {
                    Ok(balance) => Owed::priced(balance),
                    // reported (RATE_MISSING), and the scan goes on; any other error stops it
                    Err(Error::Fine {
                        error: FineError::MissingRates(m),
                        ..
                    }) => Owed::Unpriced(m.ranges),
                    Err(e) => return Err(e.into()),
                };
            }
        }
        in_force.clear();
        in_force.extend(a.pledges.iter().map(|p| assess::Pledge {
            id: p.id,
            rank: p.rank,
            shares: p.shares,
        }));
        let facts = assess::Adjudication {
            shares: a.shares,
            financed: a.financed,
            financed_shares: a.financed_shares,
            lockup_end: end,
            pledges: &in_force,
            stage_so_far: matches!(t.stage, StagePrice::SoFar(_)),
            breaches: &facts,
        };
        // the holder and program are named, and the reason written, later (see `run`)
        assess::assess(&facts, opts, |assessed| {
            batch.push(Found {
                holder_id: a.holder_id,
                program_id: a.program_id,
                adjudication_id: a.id,
                assessed,
            })
        });
        Ok(())
    })?;
    emit(Batch { found: batch, read }).map_err(Stop::Emit)
}

#[cfg(test)]
mod tests;
