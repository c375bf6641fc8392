//! Verifying a notice or paz y salvo document against the register (`notice verify`, the web's
//! «Verificar un aviso»): what the document is (its number and program, read in its text), and
//! each check's outcome as data — its text against a fresh rendering of the stored record, its
//! bytes against the files vigia wrote of it, the liquidation's fingerprint, the figures the
//! register gives today, the payments voided since, the notice that replaced it and, for a
//! notice, whether its fine has been paid in full since (a paz y salvo is due). Reading and
//! rendering documents is the rendering layer's ([`Documents`], given by the caller); the front
//! ends word the outcome, each in its language.

pub use super::difference::Place;
use super::notice::Superseded;
use crate::lang::Said;
use crate::liquidation::LiquidationResult;
use crate::notice::{DocFormat, NoticeData, SettlementData};
use crate::rates::RateSeries;
use crate::said;
use crate::store::notices::Doc;
use crate::store::{StoreError, breaches, notices, programs, settlements};
use chrono::NaiveDate;
use rusqlite::Connection;

/// The largest document vigia verifies: a notice is about 80 KB.
pub const MAX_DOCUMENT: u64 = 20 << 20;

/// How documents are read and written, supplied by the rendering layer (which the rules do not
/// import): `report::document::Documents`.
pub trait Documents {
    /// The visible text of a document as trimmed, non-empty lines, where a reader finds each,
    /// and its format; why not when it is not a document vigia can read.
    fn text(&self, bytes: &[u8]) -> Result<TextRead, Said>;
    /// A notice's document in a format.
    fn notice(&self, data: &NoticeData, format: DocFormat) -> Vec<u8>;
    /// A paz y salvo's document in a format.
    fn settlement(&self, data: &SettlementData, format: DocFormat) -> Vec<u8>;
}

/// A document's visible text as [`Documents::text`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRead {
    pub format: DocFormat,
    /// Its lines of text, trimmed, blank ones dropped: the form in which documents are compared.
    pub lines: Vec<String>,
    /// Where a reader finds each of `lines`, in its order.
    pub places: Vec<Place>,
}

/// What a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A fine notice (*notificación de multa*), `MULTA-YYYY-NNNN`.
    Notice,
    /// A paz y salvo, `PAZ-YYYY-NNNN`.
    Settlement,
}

impl Kind {
    /// Its name: "notice" / "aviso de cobro", "paz y salvo" in both.
    pub fn said(self) -> Said {
        match self {
            Kind::Notice => Said::new("notice", "aviso de cobro"),
            Kind::Settlement => Said::new("paz y salvo", "paz y salvo"),
        }
    }
}

/// Why a document cannot be verified: nothing was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unverifiable {
    /// Larger than [`MAX_DOCUMENT`]: its size in bytes.
    TooLarge(u64),
    /// Not a document vigia reads (neither a PDF it wrote nor UTF-8 text): why.
    NotADocument(Said),
    /// No number (`MULTA-YYYY-NNNN`, `PAZ-YYYY-NNNN`) and program line in it.
    NoNumber,
    /// The program it names is not in the register.
    UnknownProgram(String),
    /// The register holds no notice (paz y salvo) with its number in its program.
    UnknownNumber { kind: Kind, number: String },
    /// vigia could not read back its own rendering of the record (a defect): why.
    OwnRendering(Said),
    /// An acta, not a notice: its stage (1, the first-stage offer; 2 or 3) and the program its
    /// `Programa:` line names. Actas are verified where they are adjudicated: `offer verify`,
    /// `stage verify`, the offer's and the stage's pages.
    Acta { stage: u8, program: Option<String> },
}

impl Unverifiable {
    /// What is wrong, in both languages.
    pub fn said(&self) -> Said {
        const NOT_EN: &str = "not a notice vigia can read";
        const NOT_ES: &str = "no es un documento que vigia pueda leer";
        match self {
            Unverifiable::TooLarge(size) => {
                let max = MAX_DOCUMENT >> 20;
                let size_es = crate::lang::numero(*size);
                said!(
                    register_fines::bytes_long_at_most_mib,
                    NOT_EN,
                    size,
                    max,
                    NOT_ES,
                    size_es
                )
            }
            Unverifiable::NotADocument(why) => {
                let (en, es) = (why.en(), why.es());
                said!(register_fines::sentence, NOT_EN, en, NOT_ES, es)
            }
            Unverifiable::NoNumber => said!(register_fines::no_document_number_multa_yyyy_nnnn),
            Unverifiable::UnknownProgram(code) => said!(register_fines::no_program_register, code),
            Unverifiable::UnknownNumber { kind, number } => {
                let (en, es) = (kind.said().en().to_string(), kind.said().es().to_string());
                said!(register_fines::no_register, en, number, es)
            }
            Unverifiable::OwnRendering(why) => {
                let (en, es) = (why.en(), why.es());
                said!(register_fines::cannot_read_back_own_rendering, en, es)
            }
            Unverifiable::Acta { stage, program } => {
                let program = program.clone().unwrap_or_default();
                said!(register_fines::acta_not_notice, stage, program)
            }
        }
    }

    /// True when the fault is in the file itself (too large, unreadable, no number), false when
    /// the register does not hold what it names.
    pub fn is_in_file(&self) -> bool {
        !matches!(
            self,
            Unverifiable::UnknownProgram(_) | Unverifiable::UnknownNumber { .. }
        )
    }
}

/// A verification that could not run: the document, or the register.
#[derive(Debug)]
pub enum Error {
    Unverifiable(Unverifiable),
    Register(super::Error),
}

impl From<super::Error> for Error {
    fn from(e: super::Error) -> Self {
        Error::Register(e)
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Self {
        Error::Register(e.into())
    }
}

impl From<Unverifiable> for Error {
    fn from(e: Unverifiable) -> Self {
        Error::Unverifiable(e)
    }
}

/// A document read: what it says it is.
#[derive(Debug, Clone)]
pub struct Document {
    pub format: DocFormat,
    /// Its visible text, as [`Documents::text`] gives it.
    pub lines: Vec<String>,
    /// Where a reader finds each of `lines`.
    pub places: Vec<Place>,
    pub kind: Kind,
    pub number: String,
    /// The program's code.
    pub program: String,
    /// The SHA-256 of its bytes.
    pub sha256: String,
}

/// Reads a document's bytes: its text, its number and program. Refused when it is larger than
/// [`MAX_DOCUMENT`], not a document vigia reads, or has no number and program line.
pub fn read(bytes: &[u8], docs: &dyn Documents) -> Result<Document, Unverifiable> {
    if bytes.len() as u64 > MAX_DOCUMENT {
        return Err(Unverifiable::TooLarge(bytes.len() as u64));
    }
    let text = docs.text(bytes).map_err(Unverifiable::NotADocument)?;
    let lines = &text.lines;
    let (number, program) =
        identify(lines).ok_or_else(|| acta(lines).unwrap_or(Unverifiable::NoNumber))?;
    Ok(Document {
        format: text.format,
        kind: if number.starts_with("PAZ-") {
            Kind::Settlement
        } else {
            Kind::Notice
        },
        lines: text.lines,
        places: text.places,
        number,
        program,
        sha256: crate::store::sha256_hex(bytes),
    })
}

/// The number in a line: `MULTA-YYYY-NNNN` or `PAZ-YYYY-NNNN`.
fn number_in(l: &str, prefix: &str) -> Option<String> {
    let i = l.find(prefix)?;
    let n = prefix.len();
    let cand: String = l[i..].chars().take(n + 9).collect();
    let ok = cand.len() == n + 9
        && cand[n..n + 4].bytes().all(|b| b.is_ascii_digit())
        && &cand[n + 4..n + 5] == "-"
        && cand[n + 5..n + 9].bytes().all(|b| b.is_ascii_digit());
    ok.then_some(cand)
}

/// Finds the document's number (`MULTA-YYYY-NNNN` in a notice's title, or `PAZ-YYYY-NNNN` in a
/// paz y salvo's) and the program code (`Programa: CODE —`) in a document's lines.
fn identify(lines: &[String]) -> Option<(String, String)> {
    let number = lines.iter().find_map(|l| {
        if l.trim_start_matches('#')
            .trim_start()
            .starts_with("PAZ Y SALVO No. ")
        {
            number_in(l, "PAZ-")
        } else {
            number_in(l, "MULTA-")
        }
    })?;
    let code = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("Programa: ")?;
        rest.split_whitespace().next().map(str::to_string)
    })?;
    Some((number, code))
}

/// An acta's title among a document's first lines (the first-stage offer's «Acta de
/// adjudicación de la Primera Etapa», a later stage's adjudication or desert declaration): its
/// stage and program.
fn acta(lines: &[String]) -> Option<Unverifiable> {
    let stage = lines.iter().take(6).find_map(|l| {
        let title = l.trim_start_matches('#').trim();
        let name = title
            .strip_prefix("Acta de adjudicación de la ")
            .or_else(|| title.strip_prefix("Acta de declaratoria de desierta de la "))?;
        match name {
            "Primera Etapa" => Some(1),
            "Segunda Etapa" => Some(2),
            "Tercera Etapa" => Some(3),
            _ => None,
        }
    })?;
    let program = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("Programa: ")?;
        rest.split_whitespace().next().map(str::to_string)
    });
    Some(Unverifiable::Acta { stage, program })
}

/// The document's text against the stored record rendered again in its format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// Every line the same: text and figures match the register.
    Match,
    /// The first line that differs, and where the document has it.
    LineDiffers {
        at: Place,
        expected: String,
        found: String,
    },
    /// The lines agree as far as both go, but their counts differ.
    LineCount { expected: usize, found: usize },
}

/// The document's bytes against the files vigia wrote of it (their SHA-256 are recorded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum File {
    /// The file written when it was issued.
    Issued {
        sha256: String,
        format: DocFormat,
        at: String,
    },
    /// A file written when it was rendered again (`notice render`).
    RenderedAgain {
        sha256: String,
        format: DocFormat,
        at: String,
        by: String,
    },
    /// No file's SHA-256 is on record (issued before vigia recorded them): not a finding.
    NoRecord { sha256: String },
    /// Its text and figures match, but its bytes are none of the `written` files'.
    Changed { sha256: String, written: usize },
    /// Neither its text nor its bytes are those of a file vigia wrote.
    Different { sha256: String },
}

impl File {
    /// True unless the bytes were changed.
    pub fn ok(&self) -> bool {
        !matches!(self, File::Changed { .. } | File::Different { .. })
    }
}

/// The stored liquidation's fingerprint: recomputed from its stored inputs and result, and
/// printed in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub stored: String,
    pub recomputed: String,
    /// The document prints the stored fingerprint.
    pub printed: bool,
}

impl Fingerprint {
    pub fn matches(&self) -> bool {
        self.recomputed == self.stored && self.printed
    }
}

/// A notice in force, or replaced by a later one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    InForce,
    Replaced { number: String, date: NaiveDate },
}

/// A notice's fine paid in full since it was issued: the day of the payment that left nothing
/// outstanding, and the paz y salvo that certifies it, if issued (number, date). The notice no
/// longer demands anything: its holder is owed a paz y salvo, not a new notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidSince {
    pub on: NaiveDate,
    pub settlement: Option<(String, NaiveDate)>,
    /// The notice's own date, and the day its liquidation prices the fine to: to say when the
    /// payment came against them.
    pub notice_date: NaiveDate,
    pub until: NaiveDate,
}

/// Why a document vigia issued (text, figures and fingerprint as it wrote them) is no longer in
/// force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lapse {
    /// The notice's fine was paid in full: a paz y salvo is due (or was issued).
    Paid(PaidSince),
    /// A later notice replaced it, dated `date`.
    Replaced { number: String, date: NaiveDate },
    /// A payment its liquidation applied was voided since.
    Voided(Superseded),
    /// The register's current facts give other figures (a payment, stage price or rate
    /// recorded since), and nothing above explains it: a new document is due.
    OtherFigures,
}

/// What a verification comes to, the three answers a reader needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Authentic and in force.
    InForce,
    /// Authentic, but no longer in force: why (at least one reason).
    Lapsed(Vec<Lapse>),
    /// Not what vigia issued: its text, file or fingerprint differs.
    Mismatch,
    /// A signed document whose signature does not hold (`verify_signed`): not to be relied on,
    /// whatever the register says.
    BadSignature,
}

/// The outcome of every check of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub kind: Kind,
    pub number: String,
    pub program: String,
    pub liquidation_id: i64,
    pub text: Text,
    pub file: File,
    pub fingerprint: Fingerprint,
    /// The register's current facts, priced again as of the liquidation's date, give the same
    /// figures.
    pub same_figures: bool,
    /// Payments the liquidation applied that were voided since.
    pub voids: Vec<Superseded>,
    /// A notice's standing; `None` for a paz y salvo.
    pub standing: Option<Standing>,
    /// A notice whose fine has been paid in full since (`None` for a paz y salvo).
    pub paid_since: Option<PaidSince>,
}

impl Verified {
    /// True when every check passed: the document is the register's, and in force.
    pub fn matches(&self) -> bool {
        self.outcome() == Outcome::InForce
    }

    /// True when the document is as vigia issued it: its text and figures, its file (when one
    /// is on record) and its liquidation's fingerprint.
    pub fn authentic(&self) -> bool {
        self.text == Text::Match && self.file.ok() && self.fingerprint.matches()
    }

    /// In force, no longer in force (why), or not the register's.
    pub fn outcome(&self) -> Outcome {
        if !self.authentic() {
            return Outcome::Mismatch;
        }
        let mut why: Vec<Lapse> = self.paid_since.iter().cloned().map(Lapse::Paid).collect();
        if let Some(Standing::Replaced { number, date }) = &self.standing {
            why.push(Lapse::Replaced {
                number: number.clone(),
                date: *date,
            });
        }
        why.extend(self.voids.iter().cloned().map(Lapse::Voided));
        if !self.same_figures && why.is_empty() {
            why.push(Lapse::OtherFigures);
        }
        if why.is_empty() {
            Outcome::InForce
        } else {
            Outcome::Lapsed(why)
        }
    }
}

/// Checks a document read by [`read`] against the register: its stored record (notice or paz y
/// salvo, by number within its program) rendered again in the document's format, the files
/// written of it, its liquidation's fingerprint, the figures the register gives today (`rates`),
/// the payments voided since and, for a notice, the notice that replaced it.
pub fn verify(
    conn: &Connection,
    doc: &Document,
    rates: &RateSeries,
    docs: &dyn Documents,
) -> Result<Verified, Error> {
    let program = match programs::by_code(conn, &doc.program) {
        Err(StoreError::NotFound { .. }) => {
            return Err(Unverifiable::UnknownProgram(doc.program.clone()).into());
        }
        other => other?,
    };
    let unknown = || Unverifiable::UnknownNumber {
        kind: doc.kind,
        number: doc.number.clone(),
    };
    // what the document is: its stored record, a fresh rendering, its liquidation
    let (record, breach_id, liquidation_id, expected_bytes, notice_date) = match doc.kind {
        Kind::Settlement => {
            let s = settlements::with_number(conn, &doc.number)?
                .into_iter()
                .find(|s| s.program_id == program.id)
                .ok_or_else(unknown)?;
            let data = crate::register::notice_data::gather_settlement(conn, &s)?;
            (
                Doc::Settlement(s.id),
                s.breach_id,
                s.liquidation_id,
                docs.settlement(&data, doc.format),
                None,
            )
        }
        Kind::Notice => {
            let stored = match notices::by_number(conn, program.id, &doc.number) {
                Err(StoreError::NotFound { .. }) => return Err(unknown().into()),
                other => other?,
            };
            let data = crate::register::notice_data::gather(conn, &stored)?;
            (
                Doc::Notice(stored.id),
                stored.breach_id,
                stored.liquidation_id,
                docs.notice(&data, doc.format),
                Some(stored.notice_date),
            )
        }
    };
    let liq = breaches::liquidations(conn, Some(breach_id))?
        .into_iter()
        .find(|l| l.id == liquidation_id)
        .ok_or_else(|| {
            StoreError::Corrupt(format!(
                "{} {} without its liquidation",
                doc.kind.said(),
                doc.number
            ))
        })?;

    // 1. The document says exactly what the stored record and liquidation say.
    let fresh = docs
        .text(&expected_bytes)
        .map_err(Unverifiable::OwnRendering)?;
    let (expected, found) = (&fresh.lines, &doc.lines);
    let text = match expected.iter().zip(found).position(|(a, b)| a != b) {
        None if expected.len() == found.len() => Text::Match,
        None => Text::LineCount {
            expected: expected.len(),
            found: found.len(),
        },
        // each side's whole row (a PDF's row printed on several lines), where the document's
        // begins
        Some(i) => {
            let (at, found, expected) =
                super::difference::rows_at((found, &doc.places), (expected, &fresh.places), i);
            Text::LineDiffers {
                at,
                expected,
                found,
            }
        }
    };
    // 2. The file's bytes: one vigia wrote (and recorded), or changed since.
    let sha256 = doc.sha256.clone();
    let written = notices::renderings(conn, record)?;
    let file = match written.iter().position(|r| r.sha256 == sha256) {
        Some(0) => File::Issued {
            sha256,
            format: written[0].format,
            at: written[0].created_at.clone(),
        },
        Some(i) => File::RenderedAgain {
            sha256,
            format: written[i].format,
            at: written[i].created_at.clone(),
            by: written[i].created_by.clone(),
        },
        None if written.is_empty() => File::NoRecord { sha256 },
        None if text == Text::Match => File::Changed {
            sha256,
            written: written.len(),
        },
        None => File::Different { sha256 },
    };
    // 3. The stored liquidation still has the fingerprint the document prints.
    let fingerprint = Fingerprint {
        recomputed: super::liquidation::fingerprint(&liq.inputs_json, &liq.result_json),
        printed: found.iter().any(|l| l.contains(&liq.sha256)),
        stored: liq.sha256.clone(),
    };
    // 4. The register's current facts still give the same figures.
    let facts = super::liquidation::facts(conn, breach_id, liq.until)?;
    let now = super::liquidation::price(&facts, liq.until, liq.convention, rates)?;
    let same_figures = LiquidationResult::from(&now).to_json() == liq.result_json;
    let voids = super::notice::superseded(conn, &liq)?;
    // 5. A notice replaced by a later one is no longer the one in force.
    let standing = match record {
        Doc::Notice(id) => Some(match notices::superseded_by(conn, id)? {
            Some(next) => Standing::Replaced {
                number: next.number,
                date: next.notice_date,
            },
            None => Standing::InForce,
        }),
        Doc::Settlement(_) => None,
    };
    // 6. A notice's fine paid in full since: a paz y salvo is due, not a new notice.
    let paid_since = match notice_date {
        Some(notice_date) => super::settlement::paid(conn, breach_id, rates)?.map(|p| PaidSince {
            on: p.on,
            settlement: p.settlement.map(|s| (s.number, s.settlement_date)),
            notice_date,
            until: liq.until,
        }),
        None => None,
    };
    Ok(Verified {
        kind: doc.kind,
        number: doc.number.clone(),
        program: doc.program.clone(),
        liquidation_id: liq.id,
        text,
        file,
        fingerprint,
        same_figures,
        voids,
        standing,
        paid_since,
    })
}

#[cfg(test)]
mod tests {
    //! The typed outcomes on a register in memory. Documents are "rendered" by a plain-text
    //! stand-in for `report` (one line per fact), so each expected line is written out here.
    use super::*;
    use crate::money::dec;
    use crate::register::{Error as RegisterError, notice, payment, settlement};
    use crate::store::Store;
    use sha2::{Digest, Sha256};

    /// Number, program, total due and fingerprint, one per line.
    struct Plain;

    impl Documents for Plain {
        /// Each line trimmed, blank ones dropped, placed on its line of the file.
        fn text(&self, bytes: &[u8]) -> Result<TextRead, Said> {
            let s = std::str::from_utf8(bytes).map_err(|_| said!("not text", "no es texto"))?;
            let (places, lines) = s
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(k, l)| (Place::File(k + 1), l.trim().to_string()))
                .unzip();
            Ok(TextRead {
                format: DocFormat::Md,
                lines,
                places,
            })
        }

        fn notice(&self, d: &NoticeData, format: DocFormat) -> Vec<u8> {
            assert_eq!(format, DocFormat::Md);
            let (n, p, t, f) = (
                &d.number,
                &d.program_code,
                d.liquidation.total_due,
                &d.fingerprint,
            );
            format!("NOTIFICACIÓN DE MULTA No. {n}\nPrograma: {p} — x\nTotal: {t}\nHuella: {f}\n")
                .into_bytes()
        }

        fn settlement(&self, d: &SettlementData, _: DocFormat) -> Vec<u8> {
            let (n, p, f) = (&d.number, &d.program_code, &d.fingerprint);
            format!("# PAZ Y SALVO No. {n}\nPrograma: {p} — x\nHuella: {f}\n").into_bytes()
        }
    }

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    fn sha(bytes: &[u8]) -> String {
        Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    fn pay(s: &mut Store, on: &str, amount: &str) {
        let p = payment::NewPayment {
            breach_id: 1,
            paid_on: day(on),
            amount: dec(amount),
            reference: None,
            today: day("2025-03-01"),
            allow_duplicate: false,
        };
        s.write::<_, RegisterError>("t", |tx| payment::record(tx, &p))
            .unwrap();
    }

    /// The SPEC §5 breach (1,000 shares sold at $ 1.450 on 2024-11-20; the second stage sold
    /// at $ 1.100) with its payment of $ 500.000 on 2024-12-15.
    fn spec() -> Store {
        let mut s = super::super::tests::register();
        s.write::<_, RegisterError>("t", |tx| {
            programs::record_stage(
                tx,
                1,
                Some((crate::later_stages::Stage::Second, dec("1100"))),
                day("2024-06-28"),
                None,
            )?;
            super::super::breach::record(
                tx,
                &super::super::tests::sale("2024-11-20", 1000),
                super::super::tests::today(),
            )
        })
        .unwrap();
        pay(&mut s, "2024-12-15", "500000");
        s
    }

    /// Issues a notice of breach 1 to 2025-02-10, dated `date`, and records its file (`Plain`'s
    /// rendering) as issued; returns the file.
    fn issue(s: &mut Store, date: &str) -> Vec<u8> {
        let rates = RateSeries::shipped();
        s.write::<_, RegisterError>("officer", |tx| {
            let i = notice::issue(
                tx,
                1,
                day("2025-02-10"),
                day(date),
                super::super::tests::today(),
                Some("prueba"),
                &rates,
            )?;
            let bytes = Plain.notice(&i.data, DocFormat::Md);
            notice::rendered(tx, Doc::Notice(i.notice.id), DocFormat::Md, &bytes)?;
            Ok(bytes)
        })
        .unwrap()
    }

    fn check(s: &Store, bytes: &[u8]) -> Verified {
        let doc = read(bytes, &Plain).unwrap();
        verify(s.conn(), &doc, &RateSeries::shipped(), &Plain).unwrap()
    }

    fn stored_liquidation(s: &Store) -> breaches::StoredLiquidation {
        let mut l = breaches::liquidations(s.conn(), Some(1)).unwrap();
        assert_eq!(l.len(), 1);
        l.remove(0)
    }

    #[test]
    fn a_notice_as_issued_passes_every_check() {
        let mut s = spec();
        let bytes = issue(&mut s, "2025-02-11");
        let text = String::from_utf8(bytes.clone()).unwrap();
        // SPEC §5: $ 626.823 due on 2025-02-10 after the payment
        assert!(text.contains("\nTotal: 626823\n"), "{text}");
        let liq = stored_liquidation(&s);
        let issued = notices::renderings(s.conn(), Doc::Notice(1)).unwrap();
        let v = check(&s, &bytes);
        assert_eq!(
            v,
            Verified {
                kind: Kind::Notice,
                number: "MULTA-2025-0001".into(),
                program: "D3939-2004".into(),
                liquidation_id: liq.id,
                text: Text::Match,
                file: File::Issued {
                    sha256: sha(&bytes),
                    format: DocFormat::Md,
                    at: issued[0].created_at.clone(),
                },
                fingerprint: Fingerprint {
                    stored: liq.sha256.clone(),
                    recomputed: liq.sha256.clone(),
                    printed: true,
                },
                same_figures: true,
                voids: vec![],
                standing: Some(Standing::InForce),
                paid_since: None,
            }
        );
        assert!(v.matches());
        // the same text with another byte: changed, though its text matches
        let mut extra = bytes.clone();
        extra.extend_from_slice(b"\n\n");
        let v = check(&s, &extra);
        assert_eq!(v.text, Text::Match);
        assert_eq!(
            v.file,
            File::Changed {
                sha256: sha(&extra),
                written: 1
            }
        );
        assert!(!v.matches());
        assert_eq!(v.outcome(), Outcome::Mismatch);
        // a file vigia did not record: nothing to compare the bytes with, not a finding
        let rates = RateSeries::shipped();
        s.write::<_, RegisterError>("t", |tx| {
            notice::issue(
                tx,
                1,
                day("2025-02-10"),
                day("2025-02-12"),
                super::super::tests::today(),
                Some("prueba"),
                &rates,
            )
        })
        .unwrap();
        let data = crate::register::notice_data::gather(
            s.conn(),
            &notices::by_number(s.conn(), 1, "MULTA-2025-0002").unwrap(),
        )
        .unwrap();
        let unrecorded = Plain.notice(&data, DocFormat::Md);
        let v = check(&s, &unrecorded);
        assert_eq!(
            v.file,
            File::NoRecord {
                sha256: sha(&unrecorded)
            }
        );
        assert!(v.matches());
    }

    #[test]
    fn a_tampered_notice_names_the_line_that_differs() {
        let mut s = spec();
        let bytes = issue(&mut s, "2025-02-11");
        let text = String::from_utf8(bytes).unwrap();
        // two blank lines above the title: the total is on the file's fifth line
        let tampered = format!("\n\n{}", text.replace("Total: 626823", "Total: 26823"));
        let v = check(&s, tampered.as_bytes());
        assert_eq!(
            v.text,
            Text::LineDiffers {
                at: Place::File(5),
                expected: "Total: 626823".into(),
                found: "Total: 26823".into(),
            }
        );
        assert_eq!(
            v.file,
            File::Different {
                sha256: sha(tampered.as_bytes())
            }
        );
        // the rest holds: the register is unchanged
        assert!(v.fingerprint.matches() && v.same_figures);
        assert_eq!(v.standing, Some(Standing::InForce));
        assert!(!v.matches());
        assert_eq!(v.outcome(), Outcome::Mismatch);
        // a line more: the counts differ
        let longer = format!("{text}Firma\n");
        let v = check(&s, longer.as_bytes());
        assert_eq!(
            v.text,
            Text::LineCount {
                expected: 4,
                found: 5
            }
        );
        // the fingerprint line altered: not printed, and the line differs
        let liq = stored_liquidation(&s);
        let forged = text.replace(&liq.sha256, &"0".repeat(64));
        let v = check(&s, forged.as_bytes());
        assert_eq!(
            v.fingerprint,
            Fingerprint {
                stored: liq.sha256.clone(),
                recomputed: liq.sha256.clone(),
                printed: false,
            }
        );
        assert!(matches!(
            v.text,
            Text::LineDiffers {
                at: Place::File(4),
                ..
            }
        ));
    }

    #[test]
    fn a_replaced_notice_and_a_voided_payment_are_findings() {
        let mut s = spec();
        let first = issue(&mut s, "2025-02-11");
        let second = issue(&mut s, "2025-02-12");
        let v = check(&s, &first);
        assert_eq!(
            v.standing,
            Some(Standing::Replaced {
                number: "MULTA-2025-0002".into(),
                date: day("2025-02-12"),
            })
        );
        assert_eq!(v.text, Text::Match);
        assert!(!v.matches());
        assert_eq!(
            v.outcome(),
            Outcome::Lapsed(vec![Lapse::Replaced {
                number: "MULTA-2025-0002".into(),
                date: day("2025-02-12"),
            }])
        );
        assert_eq!(check(&s, &second).outcome(), Outcome::InForce);
        // the payment the liquidation applied is voided: the figures are no longer the
        // register's, and the void is named
        s.write::<_, RegisterError>("ana", |tx| payment::void(tx, 1, "otro titular"))
            .unwrap();
        let v = check(&s, &second);
        assert!(!v.same_figures);
        assert_eq!(v.voids.len(), 1);
        let void = &v.voids[0];
        assert_eq!(
            (
                void.payment_id,
                void.void.by.as_str(),
                void.void.reason.as_str()
            ),
            (1, "ana", "otro titular")
        );
        // genuine, but its figures rest on a voided payment: no longer in force, not a forgery
        assert_eq!(
            v.outcome(),
            Outcome::Lapsed(vec![Lapse::Voided(void.clone())])
        );
        // Colombia's time: five hours behind the stored UTC
        let at_es = (chrono::DateTime::parse_from_rfc3339(&void.void.at).unwrap()
            - chrono::TimeDelta::hours(5))
        .format("%d/%m/%Y %H:%M (hora de Colombia)")
        .to_string();
        assert_eq!(
            void.said().es(),
            format!(
                "la liquidación quedó superada: el pago 1 que aplicaba fue anulado el {at_es} por \
                 ana: otro titular"
            )
        );
        assert_eq!(
            void.said().en(),
            format!(
                "superseded: payment 1 voided on {} by ana: otro titular",
                void.void.at
            )
        );
        assert!(!v.matches());
    }

    #[test]
    fn a_notice_of_a_fine_paid_since_says_so() {
        let mut s = spec();
        let bytes = issue(&mut s, "2025-02-11");
        // part of the $ 626.823 due on 2025-02-10: a balance of $ 526.823 remains
        pay(&mut s, "2025-02-10", "100000");
        let v = check(&s, &bytes);
        assert!(!v.same_figures);
        assert_eq!(v.paid_since, None);
        // a payment recorded since, dated within the liquidation: other figures, a new notice due
        assert_eq!(v.outcome(), Outcome::Lapsed(vec![Lapse::OtherFigures]));
        // the rest, the same day: nothing outstanding, no paz y salvo yet
        pay(&mut s, "2025-02-10", "526823");
        let v = check(&s, &bytes);
        assert!(!v.same_figures);
        assert_eq!(
            v.paid_since,
            Some(PaidSince {
                on: day("2025-02-10"),
                settlement: None,
                notice_date: day("2025-02-11"),
                until: day("2025-02-10"),
            })
        );
        assert!(!v.matches());
        // authentic, but no longer in force: paid in full (not a mismatch, nor "other figures")
        assert!(v.authentic());
        assert_eq!(
            v.outcome(),
            Outcome::Lapsed(vec![Lapse::Paid(v.paid_since.clone().unwrap())])
        );
        let rates = RateSeries::shipped();
        s.write::<_, RegisterError>("t", |tx| {
            settlement::issue(tx, 1, day("2025-02-12"), day("2026-12-01"), &rates)
        })
        .unwrap();
        assert_eq!(
            check(&s, &bytes).paid_since,
            Some(PaidSince {
                on: day("2025-02-10"),
                settlement: Some(("PAZ-2025-0001".into(), day("2025-02-12"))),
                notice_date: day("2025-02-11"),
                until: day("2025-02-10"),
            })
        );
    }

    #[test]
    fn a_paz_y_salvo_is_verified_without_a_standing() {
        let mut s = spec();
        pay(&mut s, "2025-02-10", "626823");
        let rates = RateSeries::shipped();
        let bytes = s
            .write::<_, RegisterError>("t", |tx| {
                let i = settlement::issue(tx, 1, day("2025-02-12"), day("2026-12-01"), &rates)?;
                let bytes = Plain.settlement(&i.data, DocFormat::Md);
                notice::rendered(tx, Doc::Settlement(i.settlement.id), DocFormat::Md, &bytes)?;
                Ok(bytes)
            })
            .unwrap();
        let v = check(&s, &bytes);
        assert_eq!(
            (v.kind, v.number.as_str()),
            (Kind::Settlement, "PAZ-2025-0001")
        );
        assert_eq!(v.standing, None);
        assert!(v.matches(), "{v:?}");
    }

    #[test]
    fn documents_that_cannot_be_verified_say_why_in_both_languages() {
        let s = spec();
        let too_large = vec![b'a'; MAX_DOCUMENT as usize + 1];
        let e = read(&too_large, &Plain).unwrap_err();
        assert_eq!(e, Unverifiable::TooLarge(20_971_521));
        assert_eq!(
            e.said(),
            Said::new(
                "not a notice vigia can read: it is 20971521 bytes long (at most 20 MiB)",
                "no es un documento que vigia pueda leer: mide 20.971.521 bytes (como máximo 20 MiB)"
            )
        );
        let e = read(b"\xff", &Plain).unwrap_err();
        assert_eq!(
            e.said(),
            Said::new(
                "not a notice vigia can read: not text",
                "no es un documento que vigia pueda leer: no es texto"
            )
        );
        assert_eq!(read(b"hola\n", &Plain).unwrap_err(), Unverifiable::NoNumber);
        // an acta: refused with where actas are verified
        let e = read(
            "# Acta de adjudicación de la Tercera Etapa\nDecreto\nPrograma: D3939-2004 — x\n"
                .as_bytes(),
            &Plain,
        )
        .unwrap_err();
        assert_eq!(
            e,
            Unverifiable::Acta {
                stage: 3,
                program: Some("D3939-2004".into())
            }
        );
        assert!(e.is_in_file());
        assert_eq!(
            e.said(),
            Said::new(
                "it is the acta of the Third Stage of program D3939-2004, not a notice or a paz y \
                 salvo: an acta is verified against its stage's records, on the web on the stage's \
                 page («Verificar el acta»)",
                "es el acta de la Tercera Etapa del programa D3939-2004, no un aviso de cobro ni \
                 un paz y salvo: las actas se verifican contra los registros de su etapa, en la web \
                 en la página de la etapa («Verificar el acta»)"
            )
        );
        let e = read(
            b"Acta de adjudicaci\xc3\xb3n de la Primera Etapa\nx\n",
            &Plain,
        )
        .unwrap_err();
        assert_eq!(
            e.said().es(),
            "es el acta de la Primera Etapa, no un aviso de cobro ni un paz y salvo: las actas se \
             verifican contra los registros de su etapa, en la web en la página de la oferta del \
             programa («Verificar el acta»)"
        );
        let unknown = |text: &str| {
            let doc = read(text.as_bytes(), &Plain).unwrap();
            match verify(s.conn(), &doc, &RateSeries::shipped(), &Plain) {
                Err(Error::Unverifiable(e)) => e,
                other => panic!("{other:?}"),
            }
        };
        let e = unknown("NOTIFICACIÓN DE MULTA No. MULTA-2025-0001\nPrograma: X-1 — x\n");
        assert_eq!(e, Unverifiable::UnknownProgram("X-1".into()));
        assert!(!e.is_in_file());
        let e = unknown("NOTIFICACIÓN DE MULTA No. MULTA-2025-0099\nPrograma: D3939-2004 — x\n");
        assert_eq!(
            e.said(),
            Said::new(
                "no notice MULTA-2025-0099 in the register",
                "ningún aviso de cobro del registro tiene el número MULTA-2025-0099"
            )
        );
        let e = unknown("# PAZ Y SALVO No. PAZ-2025-0001\nPrograma: D3939-2004 — x\n");
        assert_eq!(
            e,
            Unverifiable::UnknownNumber {
                kind: Kind::Settlement,
                number: "PAZ-2025-0001".into()
            }
        );
    }

    #[test]
    fn identifies_number_and_program() {
        let lines = vec![
            "NOTIFICACIÓN DE MULTA No. MULTA-2025-0007".to_string(),
            "Programa: D3939-2004 — Decreto 3939 de 2004".to_string(),
        ];
        assert_eq!(
            identify(&lines),
            Some(("MULTA-2025-0007".into(), "D3939-2004".into()))
        );
        assert_eq!(identify(&["MULTA-25-7".to_string()]), None);
    }
}
