//! Fine notices: issuing one (the liquidation it presents, the next number of the program's
//! sequence, the payment deadline in business days, the notice it replaces) — never for a fine
//! with nothing outstanding, which gets a paz y salvo instead (`settlement`); which breaches
//! still await one; finding one by its number; recording each file written of it (format and
//! SHA-256) and its delivery, from which the payment term runs when the program says so. Inside
//! the caller's write transaction; rendering is `report`'s.

use super::{Field, Refusal, Result};
use crate::fine::Outcome;
use crate::holidays::add_business_days;
use crate::lang::{Said, Shown, fecha, momento};
use crate::notice::{self, DocFormat, NoticeData, Via};
use crate::rates::RateSeries;
use crate::said;
use crate::store::letterheads::{self, DocText};
use crate::store::notices::{Delivery, Doc, Notice};
use crate::store::{Tx, adjudications, breaches, notices, programs, settlements};
use chrono::NaiveDate;
use rusqlite::Connection;

/// A notice just stored, with everything its document shows.
#[derive(Debug, Clone)]
pub struct Issued {
    pub notice: notices::Notice,
    pub data: NoticeData,
}

/// Issues a notice for a breach: liquidates it as of `until` (or reuses the same liquidation),
/// numbers it in its program's sequence for the year of `date`, sets the deadline the program's
/// payment term after `date` in business days, and cites the notice it replaces, if any.
/// The notice is dated no later than `today` (the officer's date, as the front end knows it, and
/// the day it is issued, which it records), before it only with a `reason` (kept with it), not
/// before the day it liquidates to (a notice demands what is due on a day that has come:
/// interest not yet accrued, or payments not yet made, cannot be stated), and not before the
/// notice it replaces. It needs the program's letterhead in the register (issuer, signatory,
/// payment account, return address: `letterhead::require`), which it records and shows.
pub fn issue(
    tx: &mut Tx<'_>,
    breach_id: i64,
    until: NaiveDate,
    date: NaiveDate,
    today: NaiveDate,
    reason: Option<&str>,
    rates: &RateSeries,
) -> Result<Issued> {
    if date > today {
        let today_es = fecha(today);
        return Err(Refusal::value(
            Field::NoticeDate,
            date,
            said!(
                register_fines::after_today_notice_dated_day_issued,
                today,
                today_es
            ),
        )
        .into());
    }
    let reason = reason.map(str::trim);
    if reason == Some("") {
        return Err(Refusal::value(
            Field::BackdateReason,
            "\"\"",
            said!(register_fines::empty_say_why_notice_bears_earlier),
        )
        .into());
    }
    if date < today && reason.is_none() {
        let today_es = fecha(today);
        return Err(Refusal::Value {
            field: Field::NoticeDate,
            value: date.said(),
            reason: said!(
                register_fines::before_today_day_notice_issued_notice,
                today,
                today_es
            ),
            remedy: Some(Field::BackdateReason),
        }
        .into());
    }
    if date == today
        && let Some(r) = reason
    {
        return Err(Refusal::value(
            Field::BackdateReason,
            r,
            said!(register_fines::recorded_only_notice_dated_before_day),
        )
        .into());
    }
    if date < until {
        let until_es = fecha(until);
        return Err(Refusal::value(
            Field::NoticeDate,
            date,
            said!(
                register_fines::before_day_fine_liquidated_notice_states,
                until,
                until_es
            ),
        )
        .into());
    }
    let breach = breaches::get(tx.conn(), breach_id)?;
    let adj = adjudications::get(tx.conn(), breach.adjudication_id)?;
    let program = programs::by_id(tx.conn(), adj.program_id)?;
    if let Some(s) = settlements::for_breach(tx.conn(), breach_id)? {
        let (number, on, on_es) = (&s.number, s.settlement_date, fecha(s.settlement_date));
        return Err(Refusal::value(
            Field::Breach,
            breach_id,
            said!(
                register_fines::fine_settled_paz_y_salvo_there,
                number,
                on,
                on_es
            ),
        )
        .into());
    }
    let letterhead =
        super::letterhead::require(tx.conn(), &program, super::letterhead::For::Notice)?;
    let previous = notices::latest_for_breach(tx.conn(), breach_id)?;
    if let Some(p) = &previous
        && date < p.notice_date
    {
        let (number, on, on_es) = (&p.number, p.notice_date, fecha(p.notice_date));
        return Err(Refusal::value(
            Field::NoticeDate,
            date,
            said!(
                register_fines::before_notice_which_this_one_would,
                number,
                on,
                on_es
            ),
        )
        .into());
    }
    let (liquidation_id, outcome) =
        super::liquidation::liquidation_for(tx, breach_id, until, rates)?;
    if let Outcome::Liquidated(l) = &outcome
        && l.total_due <= rust_decimal::Decimal::ZERO
    {
        let until_es = fecha(until);
        return Err(Refusal::Value {
            field: Field::Breach,
            value: breach_id.said(),
            reason: said!(
                register_fines::nothing_outstanding_fine_as_paid_full,
                until,
                until_es
            ),
            remedy: Some(Field::Settlement),
        }
        .into());
    }
    let term = program.program.payment_term_business_days;
    let deadline = add_business_days(date, term).ok_or_else(|| {
        crate::store::StoreError::Corrupt(format!(
            "program {}: a payment term of {term} business days from {date} runs past the calendar; register a corrected program",
            program.program.code
        ))
    })?;
    let id = notices::insert(
        tx,
        program.id,
        breach_id,
        liquidation_id,
        date,
        deadline,
        previous.map(|n| n.id),
    )?;
    letterheads::insert_text(
        tx,
        Doc::Notice(id),
        &DocText {
            layout: notice::LAYOUT,
            letterhead_id: letterhead.id,
            issued_on: today,
            backdate_reason: reason.map(str::to_string),
        },
    )?;
    let stored = notices::get(tx.conn(), id)?;
    let data = crate::register::notice_data::gather(tx.conn(), &stored)?;
    Ok(Issued {
        notice: stored,
        data,
    })
}

/// The breaches (not void) that have no notice yet and whose fine is not settled (a paz y
/// salvo, or nothing outstanding as of `until`), in id order.
pub fn pending(conn: &Connection, until: NaiveDate, rates: &RateSeries) -> Result<Vec<i64>> {
    Ok(pending_and_skipped(conn, until, rates)?.0)
}

/// The breaches a batch of notices leaves out, by why: each breach of the register is pending
/// or counted in exactly one of these, in this order of precedence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// voided
    pub voided: u64,
    /// a notice already issued (a new one replaces it only when asked for, one breach at a time)
    pub noticed: u64,
    /// a paz y salvo issued
    pub settled: u64,
    /// paid: nothing outstanding as of the batch's date
    pub paid: u64,
}

/// [`pending`], and the breaches it leaves out counted by why.
pub fn pending_and_skipped(
    conn: &Connection,
    until: NaiveDate,
    rates: &RateSeries,
) -> Result<(Vec<i64>, Skipped)> {
    let mut out = Vec::new();
    let mut skipped = Skipped::default();
    for b in breaches::list(conn, None, None)? {
        let why = if b.void.is_some() {
            Some(&mut skipped.voided)
        } else if notices::latest_for_breach(conn, b.id)?.is_some() {
            Some(&mut skipped.noticed)
        } else if settlements::for_breach(conn, b.id)?.is_some() {
            Some(&mut skipped.settled)
        } else if !breaches::payments(conn, b.id)?.is_empty()
            && super::liquidation::outstanding(conn, b.id, until, rates)?
                <= rust_decimal::Decimal::ZERO
        {
            Some(&mut skipped.paid)
        } else {
            None
        };
        match why {
            Some(n) => *n += 1,
            None => out.push(b.id),
        }
    }
    Ok((out, skipped))
}

/// The notice numbered `number`; `program` (a code) when the number is in several programs.
pub fn find(conn: &Connection, number: &str, program: Option<&str>) -> Result<Notice> {
    let mut found = notices::with_number(conn, number)?;
    if let Some(code) = program {
        let p = programs::by_code(conn, code)?;
        found.retain(|n| n.program_id == p.id);
    }
    match found.len() {
        0 => Err(Refusal::value(
            Field::Notice,
            number,
            said!(register_fines::no_notice_has_this_number),
        )
        .into()),
        1 => Ok(found.remove(0)),
        n => Err(Refusal::Value {
            field: Field::Notice,
            value: number.said(),
            reason: said!(register_fines::programs_have_notice_with_this_number, n),
            remedy: Some(Field::Program),
        }
        .into()),
    }
}

/// Records a file written of a notice or a paz y salvo: its format and the SHA-256 of `bytes`.
pub fn rendered(tx: &mut Tx<'_>, doc: Doc, format: DocFormat, bytes: &[u8]) -> Result<i64> {
    Ok(notices::insert_rendering(
        tx,
        doc,
        format,
        &crate::store::sha256_hex(bytes),
    )?)
}

/// The data of a stored notice, to render it again (same number, date, figures, fingerprint).
pub fn render(conn: &Connection, number: &str, program: Option<&str>) -> Result<Issued> {
    let stored = find(conn, number, program)?;
    let data = crate::register::notice_data::gather(conn, &stored)?;
    Ok(Issued {
        notice: stored,
        data,
    })
}

/// Records the delivery (*notificación*) of a notice to its holder. Refused before the notice's
/// date, after `today`, for a notice replaced by another (deliver that one), and for a notice
/// whose delivery is already recorded.
pub fn deliver(
    tx: &mut Tx<'_>,
    notice: &Notice,
    on: NaiveDate,
    via: Via,
    evidence: Option<&str>,
    today: NaiveDate,
) -> Result<Delivery> {
    if on < notice.notice_date {
        let (date, date_es) = (notice.notice_date, fecha(notice.notice_date));
        return Err(Refusal::value(
            Field::DeliveryDate,
            on,
            said!(
                register_fines::before_notice_s_date_notice_delivered,
                date,
                date_es
            ),
        )
        .into());
    }
    if on > today {
        let today_es = fecha(today);
        return Err(Refusal::value(
            Field::DeliveryDate,
            on,
            said!(
                register_fines::after_today_record_delivery_once_has,
                today,
                today_es
            ),
        )
        .into());
    }
    if let Some(next) = notices::superseded_by(tx.conn(), notice.id)? {
        let (number, date, date_es) = (&next.number, next.notice_date, fecha(next.notice_date));
        return Err(Refusal::value(
            Field::Notice,
            &notice.number,
            said!(
                register_fines::was_replaced_by_deliver_that_one,
                number,
                date,
                date_es
            ),
        )
        .into());
    }
    if let Some(d) = notices::delivery(tx.conn(), notice.id)? {
        let (on, via, by, at) = (
            d.delivered_on,
            d.via.label_es(),
            &d.created_by,
            &d.created_at,
        );
        let (on_es, at_es) = (fecha(on), momento(at));
        return Err(Refusal::value(
            Field::Notice,
            &notice.number,
            said!(
                register_fines::delivery_already_recorded_by_recorded_by,
                on,
                via,
                by,
                at,
                on_es,
                at_es
            ),
        )
        .into());
    }
    let breach = breaches::get(tx.conn(), notice.breach_id)?;
    let holder = adjudications::get(tx.conn(), breach.adjudication_id)?.holder;
    let contact = crate::store::contacts::current(tx.conn(), holder.id)?.unwrap_or_default();
    let blank = |x: &Option<String>| x.as_deref().is_none_or(|v| v.trim().is_empty());
    let (lacks, lacks_es, on_file_es) = match via {
        Via::CorreoCertificado if blank(&contact.address) => {
            ("postal address", "dirección postal", "registrada")
        }
        Via::CorreoElectronico if blank(&contact.email) => {
            ("e-mail address", "correo electrónico", "registrado")
        }
        _ => ("", "", ""),
    };
    if !lacks.is_empty() {
        let (name, label) = (&holder.name, via.label_es());
        let via_en = via.as_str();
        return Err(Refusal::Value {
            field: Field::DeliveryVia,
            value: via_en.said(),
            reason: said!(
                register_fines::holder_has_no_file_so_notice,
                name,
                lacks,
                lacks_es,
                on_file_es,
                label
            ),
            remedy: Some(if via == Via::CorreoCertificado {
                Field::Address
            } else {
                Field::Email
            }),
        }
        .into());
    }
    if evidence.is_some_and(|e| e.trim().is_empty()) {
        return Err(Refusal::value(
            Field::Evidence,
            "\"\"",
            said!(register_fines::empty_leave_out_say_what_proves),
        )
        .into());
    }
    let id = notices::insert_delivery(tx, notice.id, on, via, evidence)?;
    notices::delivery(tx.conn(), notice.id)?
        .filter(|d| d.id == id)
        .ok_or_else(|| {
            crate::store::StoreError::Corrupt(format!("delivery {id} not read back")).into()
        })
}

/// A delivery just recorded, with the deadline it leaves in force and the program's term.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub notice: Notice,
    pub delivery: Delivery,
    /// The deadline in force now ([`deadline`]).
    pub deadline: NaiveDate,
    /// Where the program counts the payment term from, and how many business days it is.
    pub term_from: crate::program::TermFrom,
    pub term_days: u32,
}

/// `notice delivered`: finds the notice numbered `number` ([`find`]), records its delivery
/// ([`deliver`]) and reads the deadline that leaves in force, in the caller's transaction.
pub fn record_delivery(
    tx: &mut Tx<'_>,
    number: &str,
    program: Option<&str>,
    on: NaiveDate,
    via: Via,
    evidence: Option<&str>,
    today: NaiveDate,
) -> Result<Delivered> {
    let notice = find(tx.conn(), number, program)?;
    let delivery = deliver(tx, &notice, on, via, evidence, today)?;
    let deadline = deadline(tx.conn(), &notice)?;
    let p = programs::by_id(tx.conn(), notice.program_id)?.program;
    Ok(Delivered {
        notice,
        delivery,
        deadline,
        term_from: p.letters.payment_term_from,
        term_days: p.payment_term_business_days,
    })
}

/// A notice as `notice list` shows it: the number it replaced, its delivery, and its deadline as
/// it stands (`None` while it awaits a delivery the term runs from).
#[derive(Debug, Clone)]
pub struct Listed {
    pub notice: Notice,
    pub supersedes: Option<String>,
    pub delivery: Option<Delivery>,
    pub deadline: Option<NaiveDate>,
}

/// The notices issued (of one breach, or all), oldest first, each with what [`Listed`] adds.
pub fn listing(conn: &Connection, breach: Option<i64>) -> Result<Vec<Listed>> {
    notices::list(conn, breach)?
        .into_iter()
        .map(|n| {
            let supersedes = match n.supersedes_id {
                Some(id) => Some(notices::get(conn, id)?.number),
                None => None,
            };
            Ok(Listed {
                supersedes,
                delivery: notices::delivery(conn, n.id)?,
                deadline: deadline_as_stands(conn, &n)?,
                notice: n,
            })
        })
        .collect()
}

/// A notice's payment deadline as the register stands: the one it was issued with, or, when the
/// program counts the term from delivery and a delivery is recorded, the term from that day.
pub fn deadline(conn: &Connection, notice: &Notice) -> Result<NaiveDate> {
    let program = programs::by_id(conn, notice.program_id)?;
    let delivered = notices::delivery(conn, notice.id)?.map(|d| d.delivered_on);
    Ok(notice::effective_deadline(
        notice.deadline,
        delivered,
        program.program.letters.payment_term_from,
        program.program.payment_term_business_days,
    ))
}

/// A notice's deadline as it stands: `None` while the program counts the term from delivery and
/// none is recorded (LEGAL_NOTES §7.3: such a notice has no deadline yet), else [`deadline`].
pub fn deadline_as_stands(conn: &Connection, notice: &Notice) -> Result<Option<NaiveDate>> {
    let program = programs::by_id(conn, notice.program_id)?;
    let delivered = notices::delivery(conn, notice.id)?.is_some();
    if !delivered && program.program.letters.payment_term_from == crate::program::TermFrom::Delivery
    {
        return Ok(None);
    }
    deadline(conn, notice).map(Some)
}

/// A void recorded since a stored liquidation that changes its figures: a payment it applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superseded {
    pub payment_id: i64,
    pub void: breaches::Void,
}

impl Superseded {
    /// What changed, in both languages (the time of the void as each language writes it).
    pub fn said(&self) -> Said {
        let (id, by, reason) = (self.payment_id, &self.void.by, &self.void.reason);
        let (at, at_es) = (&self.void.at, momento(&self.void.at));
        said!(
            register_fines::superseded_payment_voided_by,
            id,
            at,
            by,
            reason,
            at_es
        )
    }
}

/// In English, as the command line says it.
impl std::fmt::Display for Superseded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.said().en())
    }
}

/// The voids that change a stored liquidation's figures (and the notices that present it): the
/// payments it applied that have been voided since. The stored liquidation keeps its figures; a
/// new notice presents the register as it is now.
pub fn superseded(
    conn: &Connection,
    liquidation: &breaches::StoredLiquidation,
) -> Result<Vec<Superseded>> {
    let inputs = crate::liquidation::LiquidationInputs::from_json(&liquidation.inputs_json)
        .map_err(|e| {
            crate::store::StoreError::Corrupt(format!("liquidation {} inputs: {e}", liquidation.id))
        })?;
    let mut out = Vec::new();
    for p in &inputs.payments {
        if let Some(void) = breaches::payment(conn, p.id)?.void {
            out.push(Superseded {
                payment_id: p.id,
                void,
            });
        }
    }
    Ok(out)
}
