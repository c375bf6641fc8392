//! The first-stage offering's rules (Decreto 3939 de 2004 Arts. 4 and 12; issue 15): the offer's
//! window (at least two months from the business day after the notice), what an acceptances
//! import needs (an open offer, no adjudication yet), and the adjudication, which happens "en una
//! sola oportunidad vencido el plazo de la oferta pública": once, after the window, writing its
//! awards as adjudications of the register with one audit event. Refusals name fields.

use super::{Act, Error, Field, Refusal, Result};
use crate::caps::Person;
use crate::import::{AdjudicationRow, PersonType, RowError};
use crate::lang::{Said, fecha, momento, numero};
use crate::offering::adjudicate::{
    self, Adjudication, CapFacts, Cause, Facts, Filing, Gatherer, Order, Outcome, Status, Terms,
    Window,
};
use crate::said;
use crate::store::offering::{
    self as store, AcceptanceWrite, CapFigures, ImportedAcceptances, ReadAcceptances, StoredOutcome,
};
use crate::store::programs::StoredProgram;
use crate::store::{StoreError, sha256_hex};
use crate::store::{Temp, Tx};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use sha2::{Digest, Sha256};

mod aside;
mod people;

use people::{AwardFacts, People, Speakers, doc_type_of};

/// The earliest day an offer of `program` whose notice is published on `notice` may close: the
/// program's `[offer]` minimum length ([`crate::program_offer::Offer::earliest_close`]; Decreto
/// 3939 art. 4 by default: "una vigencia mínima de dos (2) meses, contados a partir del día
/// hábil siguiente a la publicación del aviso de oferta").
pub fn earliest_close(program: &crate::program::Program, notice: NaiveDate) -> Option<NaiveDate> {
    program.offer.earliest_close(notice)
}

/// Why an offer closing before `earliest` is refused, citing the program's article.
fn offer_too_short(
    program: &crate::program::Program,
    opens: NaiveDate,
    earliest: NaiveDate,
) -> Said {
    let (opens_es, earliest_es) = (fecha(opens), fecha(earliest));
    let (decree, article) = (&program.decree, &program.offer.article);
    let length = program.offer.length_said();
    let (length_en, length_es) = (
        length.in_lang(crate::lang::Lang::En),
        length.in_lang(crate::lang::Lang::Es),
    );
    said!(
        register_holdings::offer_must_stay_open_at_least,
        length_en,
        decree,
        article,
        opens,
        earliest,
        length_es,
        opens_es,
        earliest_es
    )
}

/// Records the offer's window for a program: `opens` is the day the notice (aviso de oferta) is
/// published, `closes` the last day acceptances are received. Once per program. Opening outside
/// the program's validity needs `reason`, recorded with it ([`super::validity`]).
pub fn open(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    window: Window,
    reason: Option<&str>,
) -> Result<i64> {
    let code = &program.program.code;
    if let Some(o) = store::offer(tx.conn(), program.id)? {
        let (opens, closes, by, at) = (
            o.window.opens,
            o.window.closes,
            &o.created_by,
            &o.created_at,
        );
        let (opens_es, closes_es, at_es) = (fecha(opens), fecha(closes), momento(at));
        return Err(Refusal::Rule(said!(
            register_holdings::offer_was_already_opened_by_program,
            code,
            opens,
            closes,
            by,
            at,
            opens_es,
            closes_es,
            at_es
        ))
        .into());
    }
    super::external::refuse_if_recorded(tx.conn(), program)?;
    let earliest = earliest_close(&program.program, window.opens).ok_or_else(|| {
        Refusal::value(
            Field::OfferOpens,
            window.opens,
            said!(register_holdings::out_calendar_s_range),
        )
    })?;
    if window.closes < earliest {
        return Err(Refusal::value(
            Field::OfferCloses,
            window.closes,
            offer_too_short(&program.program, window.opens, earliest),
        )
        .into());
    }
    let act = crate::store::programs::Act::Offer;
    let outside = super::validity::reason_needed(program, act, window.opens, reason)?;
    let id = store::insert_offer(tx, program.id, window)?;
    super::validity::record(tx, program, act, id, window.opens, outside)?;
    Ok(id)
}

/// Imports a file of acceptances for `program` in the caller's transaction, as `feed` reads it:
/// all of it, or nothing with every bad row by line. The same file twice adds nothing. The offer
/// must be open and not yet adjudicated. `bytes` is the file `feed` reads: a refusal names each
/// column as its header writes it ([`crate::store::StoreError::headed`]).
pub fn import(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    file_name: &str,
    sha256: &str,
    encoding: &str,
    bytes: &[u8],
    feed: impl FnOnce(
        &mut store::Prepare<'_>,
        &mut store::StoreRows<'_>,
    ) -> crate::store::Result<Vec<RowError>>,
) -> Result<ImportedAcceptances> {
    let code = &program.program.code;
    if store::offer(tx.conn(), program.id)?.is_none() {
        return Err(Refusal::Waits {
            reason: said!(register_holdings::has_no_offer_yet_acceptances_answer, code),
            first: vec![Act::OpenOffer {
                program: code.to_string(),
            }],
        }
        .into());
    }
    if let Some(run) = store::run(tx.conn(), program.id)? {
        let (on, run_id) = (run.adjudicated_on, run.id);
        let on_es = fecha(on);
        return Err(Refusal::Rule(said!(
            register_holdings::offer_was_adjudicated_run_adjudication_takes,
            code,
            on,
            run_id,
            on_es
        ))
        .into());
    }
    match store::write_acceptances(tx, program, file_name, sha256, encoding, feed)? {
        AcceptanceWrite::AlreadyImported(p) => Ok(ImportedAcceptances::AlreadyImported(p)),
        AcceptanceWrite::Written(w) => {
            if !w.file_problems.is_empty() {
                let refused = crate::store::rejected(w.file_problems.clone(), Vec::new());
                return Err(refused.headed(bytes).into());
            }
            Ok(store::seal_acceptances(tx, *w)?)
        }
    }
}

/// The adjudication computed from the register's acceptances, before anything is written.
pub struct Computed {
    pub window: Window,
    pub on: NaiveDate,
    pub adjudication: Adjudication,
    /// Who each person is, as their speaking filing says (for the result's rows): the `i`th
    /// outcome's person is speaker `i`.
    speakers: Speakers,
    /// The acceptances read (a real run's outcomes point at them; empty for a dry run).
    read: ReadAcceptances,
}

/// The totals of a run as its result's first line (and the JSON's first keys).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Header {
    pub program: String,
    pub program_sha256: String,
    pub opens: NaiveDate,
    pub closes: NaiveDate,
    pub adjudicated_on: NaiveDate,
    pub offered: u64,
    pub demand: u64,
    pub awarded: u64,
    pub leftover: u64,
    pub oversubscribed: bool,
    pub rule: &'static str,
}

/// One person's outcome as the result lists it (issue 15's JSON row).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Row {
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
    pub requested: u64,
    pub cap_shares: Option<u64>,
    pub cap_rule: Option<String>,
    pub admitted: u64,
    pub quota: Option<String>,
    pub awarded: u64,
    pub status: Status,
    pub cause: Option<&'static str>,
}

impl Computed {
    pub fn header(&self, program: &StoredProgram) -> Header {
        let a = &self.adjudication;
        Header {
            program: program.program.code.clone(),
            program_sha256: program.sha256.clone(),
            opens: self.window.opens,
            closes: self.window.closes,
            adjudicated_on: self.on,
            offered: a.offered,
            demand: a.demand,
            awarded: a.awarded,
            leftover: a.leftover,
            oversubscribed: a.oversubscribed,
            rule: a.rule.as_str(),
        }
    }
}

/// Checks that the program's offer can be adjudicated on `on` and computes the adjudication
/// from its acceptances (nothing is written: a dry run stops here).
pub fn compute(conn: &Connection, program: &StoredProgram, on: NaiveDate) -> Result<Computed> {
    compute_counting(conn, program, on, &mut || {})
}

/// What a long adjudication reports as it goes (a front end's progress bar): each acceptance
/// read, then each award written.
pub struct Counters<'a> {
    pub read: &'a mut dyn FnMut(),
    pub written: &'a mut dyn FnMut(),
}

/// [`compute`], calling `read` for each acceptance read.
pub fn compute_counting(
    conn: &Connection,
    program: &StoredProgram,
    on: NaiveDate,
    read: &mut dyn FnMut(),
) -> Result<Computed> {
    compute_with(conn, program, on, read, Speakers::default())
}

/// [`compute_counting`] into `speakers`, which keep each person's award facts for a real run.
fn compute_with(
    conn: &Connection,
    program: &StoredProgram,
    on: NaiveDate,
    read: &mut dyn FnMut(),
    mut speakers: Speakers,
) -> Result<Computed> {
    let p = &program.program;
    let code = &p.code;
    let offer = store::offer(conn, program.id)?.ok_or_else(|| Refusal::Waits {
        reason: said!(
            register_holdings::has_no_offer_adjudicate_record_opening,
            code
        ),
        first: vec![
            Act::OpenOffer {
                program: code.to_string(),
            },
            Act::ImportAcceptances {
                program: code.to_string(),
            },
        ],
    })?;
    if let Some(run) = store::run(conn, program.id)? {
        let (on, run_id, fingerprint) = (run.adjudicated_on, run.id, &run.fingerprint);
        let on_es = fecha(on);
        // Decreto 3939's article, or only the program's decree when it numbers its own
        let (source, fuente) = if program.program.offer.allotment_article
            == crate::program_offer::Offer::default().allotment_article
        {
            (
                "Decreto 3939 de 2004 art. 12".to_string(),
                "Decreto 3939 de 2004, art. 12".to_string(),
            )
        } else {
            (
                program.program.decree.clone(),
                program.program.decree.clone(),
            )
        };
        return Err(Refusal::Rule(said!(
            register_holdings::offer_was_already_adjudicated_run_fingerprint,
            code,
            on,
            run_id,
            fingerprint,
            source,
            on_es,
            fuente
        ))
        .into());
    }
    if on <= offer.window.closes {
        let closes = offer.window.closes;
        let closes_es = fecha(closes);
        return Err(Refusal::value(
            Field::AdjudicationDate,
            on,
            said!(
                register_holdings::adjudication_takes_place_once_offer_has,
                closes,
                closes_es
            ),
        )
        .into());
    }
    let window = offer.window;
    let terms = Terms {
        offered: p.shares_offered,
        rule: p.proration,
        caps: &p.caps,
        fixed_price: p.fixed_price,
    };
    // one scan in stored order: every filing judged on its own and gathered into its person
    // (numbered by their document), the cap judged on the figures of the first valid filing as
    // it is read, the speaking filing's document and name kept for the result
    let mut gathered = Gatherer::new(terms);
    let mut people = People::default();
    let mut seq = 0u64;
    let awards = speakers.keeps_awards();
    let mut read_ids = ReadAcceptances::default();
    store::each_filing::<Error>(conn, program.id, awards, |f| {
        read();
        if awards {
            read_ids.insert(f.id);
        }
        let doc_type = doc_type_of(f.id, f.doc_type)?;
        let k = people.number(doc_type, f.doc_number, gathered.persons());
        let cause = adjudicate::judge(
            &Facts {
                filed_on: f.filed_at.date(),
                category: f.category,
                person_type: f.person_type()?,
                dismissed_with_just_cause: f.dismissed_with_just_cause,
                declarations: f.declarations,
                review: f.review,
            },
            window,
            &p.eligibility(),
        );
        let filing = Filing {
            id: f.id,
            filed_at: f.filed_at,
            line: f.line,
            person: k,
            shares: f.shares,
            accepts_reduction: f.accepts_reduction,
            cause,
        };
        // stored order breaks ties of time and line, as the stable sort by them did
        let order = Order {
            filed_at: f.filed_at,
            line: f.line,
            seq,
        };
        seq += 1;
        let speaks =
            gathered.add::<Error>(k, k, order, &filing, || Ok(cap_facts(f.cap_figures()?)))?;
        if speaks {
            let award = match awards {
                true => {
                    let (lender, financed_shares) = f.award_figures()?;
                    Some(AwardFacts {
                        line: f.line,
                        person_type: f.person_type()?,
                        category: f.category,
                        lender,
                        financed_shares,
                    })
                }
                false => None,
            };
            speakers.set(k, doc_type, f.doc_number, f.name, award);
        }
        Ok(())
    })?;
    drop(people);
    if seq == 0 {
        return Err(Refusal::Waits {
            reason: said!(
                register_holdings::has_no_acceptances_register_import_them,
                code
            ),
            first: vec![Act::ImportAcceptances {
                program: code.to_string(),
            }],
        }
        .into());
    }
    let adjudication = gathered.finish()?;
    // the result is written in the outcomes' order: the speakers too
    let speakers = speakers.in_order(adjudication.outcomes.iter().map(|o| o.person));
    Ok(Computed {
        window,
        on,
        adjudication,
        speakers,
        read: read_ids,
    })
}

impl From<adjudicate::Error> for Error {
    fn from(e: adjudicate::Error) -> Self {
        Error::Refused(Refusal::Rule(match e {
            adjudicate::Error::Overflow => {
                said!(register_holdings::acceptances_add_up_more_shares_than)
            }
        }))
    }
}

fn cap_facts(f: CapFigures) -> CapFacts {
    CapFacts {
        person: match f.person_type {
            PersonType::Natural => Person::Natural,
            PersonType::Legal => Person::Legal,
        },
        evidence: f.evidence,
    }
}

/// Each person's row of the result, in filing order, with their outcome, to `f`. Nothing is
/// read from the register: the rows come from what [`compute`] kept.
pub fn each_row<E: From<Error>>(
    _conn: &Connection,
    program: &StoredProgram,
    c: &Computed,
    f: impl FnMut(&Row, &Outcome) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    rows_of(program, c, f)
}

/// [`each_row`], without the register (on any thread).
fn rows_of<E>(
    program: &StoredProgram,
    c: &Computed,
    mut f: impl FnMut(&Row, &Outcome) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let a = &c.adjudication;
    for (i, o) in (0u32..).zip(&a.outcomes) {
        let (doc_type, doc_number, name) = c.speakers.get(i);
        let row = Row {
            doc_type: doc_type.as_str().to_string(),
            doc_number: doc_number.to_string(),
            name: name.to_string(),
            requested: o.requested,
            cap_shares: o.cap.map(|(s, _)| s),
            cap_rule: o.cap.map(|(_, i)| program.program.caps[i].rule.clone()),
            admitted: o.admitted,
            quota: a.quota(o).map(crate::proration::Quota::text),
            awarded: o.awarded,
            status: o.status,
            cause: o.cause.map(Cause::as_str),
        };
        f(&row, o)?;
    }
    Ok(())
}

/// SHA-256 of a result: its header as one line of JSON, then each row as one line of JSON, each
/// line ending in a newline.
#[derive(Default)]
pub struct Fingerprint {
    sha: Sha256,
    /// The line being made (one buffer for every row).
    line: Vec<u8>,
}

impl Fingerprint {
    pub fn header(&mut self, h: &Header) {
        self.line(&serde_json::to_vec(h).expect("header serialises"));
    }
    pub fn row(&mut self, r: &Row) {
        self.row_line(r);
    }
    /// Hashes a row's line, which it gives back (the bytes a JSON result writes for the row).
    pub fn row_line(&mut self, r: &Row) -> &[u8] {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        serde_json::to_writer(&mut line, r).expect("row serialises");
        self.line(&line);
        self.line = line;
        &self.line
    }
    /// A line already made: a row as `serde_json` writes it (for a caller that writes the same
    /// bytes out).
    pub fn line(&mut self, bytes: &[u8]) {
        self.sha.update(bytes);
        self.sha.update(b"\n");
    }
    pub fn finish(self) -> String {
        crate::store::hex(&self.sha.finalize())
    }
}

/// The fingerprint of a computed adjudication.
pub fn fingerprint(_conn: &Connection, program: &StoredProgram, c: &Computed) -> Result<String> {
    Ok(fingerprint_of(program, c, None))
}

/// Where a real run hands each row of its result, as the line of JSON its fingerprint hashes,
/// while the run is written (on the fingerprint's thread, [`adjudicate_counting`]): a front end
/// can spool its output there and write it out once the run is committed.
pub type Spool<'s> = Option<&'s mut (dyn FnMut(&[u8]) + Send)>;

/// [`fingerprint`], without the register (on any thread), each row's line to `spool` too.
fn fingerprint_of(program: &StoredProgram, c: &Computed, mut spool: Spool<'_>) -> String {
    let mut fp = Fingerprint::default();
    fp.header(&c.header(program));
    let hashed = rows_of::<std::convert::Infallible>(program, c, |r, _| {
        let line = fp.row_line(r);
        if let Some(spool) = spool.as_deref_mut() {
            spool(line);
        }
        Ok(())
    });
    let Ok(()) = hashed;
    fp.finish()
}

/// A fingerprint being hashed on a second thread, waited for the first time it is asked for.
struct Hashing<'s> {
    thread: Option<std::thread::ScopedJoinHandle<'s, String>>,
    fingerprint: String,
}

impl Hashing<'_> {
    fn get(&mut self) -> String {
        if let Some(t) = self.thread.take() {
            self.fingerprint = t.join().expect("the fingerprint's thread does not panic");
        }
        self.fingerprint.clone()
    }
}

/// What a run wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudicated {
    pub run_id: i64,
    pub fingerprint: String,
    pub adjudications: Option<(i64, i64)>,
    pub new_holders: usize,
}

/// Adjudicates the program's offer on `on` in the caller's transaction: computes it, writes every
/// award as an adjudication of the register (through the adjudications' bulk writer, so one
/// document is one holder), the run with its fingerprint and one outcome per person, and one
/// audit event covering all of it. Refused when the offer was adjudicated before.
pub fn adjudicate(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    on: NaiveDate,
) -> Result<(Computed, Adjudicated)> {
    adjudicate_counting(
        tx,
        program,
        on,
        Counters {
            read: &mut || {},
            written: &mut || {},
        },
        None,
    )
}

/// [`adjudicate`], reporting each acceptance read and each award written to `counters`, and
/// each row of the result, as it is hashed, to `spool`.
pub fn adjudicate_counting(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    on: NaiveDate,
    counters: Counters<'_>,
    spool: Spool<'_>,
) -> Result<(Computed, Adjudicated)> {
    let Counters { read, written } = counters;
    let computed = compute_with(tx.conn(), program, on, read, Speakers::with_awards())?;
    let code = &program.program.code;
    let already = store::adjudicated_shares(tx.conn(), program.id)?;
    if already > 0 {
        let already_es = numero(already);
        return Err(Refusal::Rule(said!(
            register_holdings::already_has_adjudicated_shares_register_imported,
            code,
            already,
            already_es
        ))
        .into());
    }
    // the awards and outcomes are written through the smaller page cache, put back whatever
    // the writing returned
    let cache = crate::store::PageCache::set(tx.conn(), store::AWARDS_CACHE, Temp::AsIs)?;
    // the fingerprint (every row as JSON, hashed, and handed to the spool) is made on a second
    // thread while the awards are stored: only their `imports` row and the run's record it,
    // both written after them
    let run = std::thread::scope(|scope| {
        let c = &computed;
        let mut fp = Hashing {
            thread: Some(scope.spawn(move || fingerprint_of(program, c, spool))),
            fingerprint: String::new(),
        };
        write_run(tx, program, on, &computed, &mut fp, written)
    });
    // the run's own error or refusal first, then the cache's
    let put_back = cache.put_back(tx.conn());
    let run = run?;
    put_back?;
    Ok((computed, run))
}

/// Writes a computed run in the caller's transaction: its awards as adjudications, the run
/// with its fingerprint `fp`, its outcomes and the audit event covering them.
fn write_run(
    tx: &mut Tx<'_>,
    program: &StoredProgram,
    on: NaiveDate,
    computed: &Computed,
    fp: &mut Hashing<'_>,
    written: &mut dyn FnMut(),
) -> Result<Adjudicated> {
    let code = &program.program.code;
    let a = &computed.adjudication;
    let next_adjudication = store::max_adjudication_id(tx.conn())? + 1;
    let mut covers = Vec::new();
    let (mut range, mut new_holders) = (None, 0);
    let import_id = if a.awarded > 0 {
        let name = format!("adjudicación primera etapa {code}");
        // each award's row made as the bulk writer asks for it, from what the computation kept
        // of the filing that speaks for its person: the million rows of a national offering are
        // not held at once, and no acceptance is read back (a point read each, in filing order,
        // took a third of the run)
        let award = |i: u32, o: &Outcome| -> crate::store::Result<AdjudicationRow> {
            let (doc_type, doc_number, name) = computed.speakers.get(i);
            let facts = computed.speakers.award(i).ok_or_else(|| {
                StoreError::Corrupt(format!("acceptance {}: its award was not kept", o.filing))
            })?;
            Ok(AdjudicationRow {
                line: usize::try_from(facts.line).unwrap_or(0),
                doc_type,
                doc_number: doc_number.to_string(),
                name: name.to_string(),
                person_type: facts.person_type,
                category: facts.category.to_string(),
                shares: o.awarded,
                price_per_share: None,
                adjudicated_on: on,
                lender: facts.lender.map(str::to_string),
                financed_shares: facts.financed_shares.min(o.awarded),
                contact: None,
            })
        };
        let written = match crate::store::import::write(
            tx,
            program,
            &name,
            crate::store::import::Sha256::Later(&mut || fp.get()),
            "vigia",
            // no file: the register's own column names
            &mut |r| super::adjudication::judge(r, &program.program.code, &|c| c.to_string()),
            |sink: &mut dyn FnMut(crate::import::AdjudicationRow) -> crate::store::Result<()>| {
                // made on a second thread (as an import's reading thread makes its rows),
                // stored here as they come
                aside::made_aside::<_, StoreError>(
                    |give| {
                        for (i, o) in (0u32..).zip(&a.outcomes).filter(|(_, o)| o.awarded > 0) {
                            if !give(award(i, o)?) {
                                break;
                            }
                        }
                        Ok(())
                    },
                    |row| {
                        sink(row)?;
                        written();
                        Ok(())
                    },
                )?;
                Ok(Vec::new())
            },
        )? {
            crate::store::import::Write::Written(w) => *w,
            crate::store::import::Write::AlreadyImported(p) => {
                let (import, at) = (p.import_id, &p.at);
                let at_es = momento(at);
                return Err(Refusal::Rule(said!(
                    register_holdings::this_adjudication_was_already_written_as,
                    import,
                    at,
                    at_es
                ))
                .into());
            }
        };
        if !written.conflicts.is_empty() || !written.repeats.is_empty() {
            let problems = written
                .conflicts
                .iter()
                .map(|c| {
                    let (doc_type, doc, registered, holder, name) =
                        (c.doc_type, &c.doc_number, &c.registered_name, c.holder_id, &c.name);
                    Refusal::Rule(said!(register_holdings::registered_as_holder_but_accepted_as, doc_type, doc, registered, holder, name))
                })
                // an award already registered: the program's register is not the offering's to
                // produce (it is refused before this; kept as a guard)
                .chain(written.repeats.iter().map(|e| {
                    let line = e.line;
                    Refusal::Rule(Said::new(
                        e.to_string(),
                        format!(
                            "línea {line}: esta adjudicación ya está registrada en el programa; la adjudicación \
                             de la primera etapa parte de un registro sin adjudicaciones del programa"
                        ),
                    ))
                }))
                .collect();
            return Err(Error::Refusals(problems));
        }
        let (c, added) = crate::store::import::covers(written);
        covers = c;
        if let crate::store::import::Imported::Added {
            import_id,
            new_holders: n,
            first_id,
            last_id,
            ..
        } = added
        {
            if first_id != next_adjudication {
                return Err(StoreError::Corrupt(format!(
                    "adjudications were numbered from {first_id}, expected {next_adjudication}"
                ))
                .into());
            }
            range = Some((first_id, last_id));
            new_holders = n;
            Some(import_id)
        } else {
            None
        }
    } else {
        None
    };
    let fp = fp.get();
    let run_id = store::insert_run(
        tx,
        &store::NewRun {
            program_id: program.id,
            import_id,
            adjudicated_on: on,
            rule: a.rule.as_str(),
            offered: a.offered,
            demand: a.demand,
            awarded: a.awarded,
            leftover: a.leftover,
            oversubscribed: a.oversubscribed,
            fingerprint: &fp,
        },
    )?;
    let mut w = store::OutcomeWriter::new(tx, run_id, &computed.read, range)?;
    // the rows made on a second thread (their quotas' texts), stored here as they come
    aside::made_aside::<_, StoreError>(
        |give| {
            // each award's adjudication, numbered in the order they were written
            let mut next = next_adjudication;
            for (seq, o) in a.outcomes.iter().enumerate() {
                let adj = (o.awarded > 0).then(|| {
                    next += 1;
                    next - 1
                });
                let made = give(StoredOutcome {
                    seq: seq as u64 + 1,
                    acceptance_id: o.filing,
                    requested: o.requested,
                    cap_shares: o.cap.map(|(s, _)| s),
                    cap_rule: o.cap.map(|(_, i)| program.program.caps[i].rule.clone()),
                    admitted: o.admitted,
                    quota: a.quota(o).map(crate::proration::Quota::text),
                    awarded: o.awarded,
                    status: o.status,
                    cause: o.cause,
                    adjudication_id: adj,
                });
                if !made {
                    break;
                }
            }
            Ok(())
        },
        |o| w.add(o),
    )?;
    if let Some(c) = w.finish()? {
        covers.push(c);
    }
    store::seal_run(tx, run_id, &covers)?;
    Ok(Adjudicated {
        run_id,
        fingerprint: fp,
        adjudications: range,
        new_holders,
    })
}

/// A stored run's result, rebuilt from the register (header and rows in filing order), for the
/// acta and its verification; the fingerprint recomputed from them.
pub struct StoredResult {
    pub run: store::Run,
    pub header: Header,
    pub rows: Vec<Row>,
    pub recomputed: String,
}

/// Reads back a run's result and recomputes its fingerprint.
pub fn stored_result(
    conn: &Connection,
    program: &StoredProgram,
    run: store::Run,
) -> Result<StoredResult> {
    let header = stored_header(conn, program, &run)?;
    let mut fp = Fingerprint::default();
    fp.header(&header);
    let mut rows = Vec::new();
    each_stored_row::<Error>(conn, run.id, |row| {
        fp.row(&row);
        rows.push(row);
        Ok(())
    })?;
    Ok(StoredResult {
        run,
        header,
        rows,
        recomputed: fp.finish(),
    })
}

/// A stored run's totals, as its result's header.
pub fn stored_header(
    conn: &Connection,
    program: &StoredProgram,
    run: &store::Run,
) -> Result<Header> {
    let offer = store::offer(conn, program.id)?
        .ok_or_else(|| StoreError::Corrupt(format!("run {} has no offer", run.id)))?;
    Ok(Header {
        program: program.program.code.clone(),
        program_sha256: program.sha256.clone(),
        opens: offer.window.opens,
        closes: offer.window.closes,
        adjudicated_on: run.adjudicated_on,
        offered: run.offered,
        demand: run.demand,
        awarded: run.awarded,
        leftover: run.leftover,
        oversubscribed: run.oversubscribed,
        rule: program.program.proration.as_str(),
    })
}

/// Hands each stored row of run `run_id` to `f`, in filing order, as it is read (one row in
/// memory at a time: the acta of a million acceptances is written this way).
pub fn each_stored_row<E: From<StoreError>>(
    conn: &Connection,
    run_id: i64,
    mut f: impl FnMut(Row) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    store::each_outcome_with_speaker::<E>(conn, run_id, |o, speaker| {
        f(Row {
            doc_type: speaker.doc_type.as_str().to_string(),
            doc_number: speaker.doc_number,
            name: speaker.name,
            requested: o.requested,
            cap_shares: o.cap_shares,
            cap_rule: o.cap_rule,
            admitted: o.admitted,
            quota: o.quota,
            awarded: o.awarded,
            status: o.status,
            cause: o.cause.map(Cause::as_str),
        })
    })
}

/// The SHA-256 of a file's bytes (for imports).
pub fn file_sha256(bytes: &[u8]) -> String {
    sha256_hex(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    #[test]
    fn the_window_runs_two_months_from_the_business_day_after_the_notice() {
        // (notice, earliest close), worked by hand against the calendar of Ley 51 de 1983:
        let cases = [
            // Monday 2024-01-15 → Tuesday 16 → 2024-03-16 is a Saturday → Monday 18
            ("2024-01-15", "2024-03-18"),
            // Friday 2024-03-01 → Monday 4 → 2024-05-04 Saturday → Monday 6
            ("2024-03-01", "2024-05-06"),
            // Wednesday 2024-05-29 → Thursday 30 → 2024-07-30 (Tuesday)
            ("2024-05-29", "2024-07-30"),
            // Friday 2023-12-29 → Tuesday 2024-01-02 (Jan 1 holiday) → 2024-03-02 Saturday →
            // Monday 2024-03-04
            ("2023-12-29", "2024-03-04"),
            // Thursday 2024-06-27 → Friday 28 → 2024-08-28 (Wednesday)
            ("2024-06-27", "2024-08-28"),
            // month end: Friday 2023-12-29 is covered; Tuesday 2024-12-31 → Thursday 2025-01-02
            // → 2025-03-02 Sunday → Monday 3
            ("2024-12-31", "2025-03-03"),
        ];
        for (notice, close) in cases {
            assert_eq!(
                crate::program_offer::Offer::default().earliest_close(d(notice)),
                Some(d(close)),
                "notice {notice}"
            );
        }
    }
}
