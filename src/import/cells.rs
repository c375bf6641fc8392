//! One row's cells as a kind's parser reads them ([`Cells`]): each value through the Colombian
//! readers of [`crate::input`] (`1.450` = 1450, `1.450,50`, `DD/MM/YYYY`), each problem kept with
//! its line, its column and the value as typed, the sentence the column's own or the reader's
//! when it says more. What the four imports read alike (a document, a person type, a count of
//! shares, an amount, a date, a yes or no, a lender with its financed shares) is read here once.

use super::reader::{Fields, Remedy, RowError};
use crate::ids::{self, DocType};
use crate::input::Refused;
use crate::lang::Said;
use crate::money::format_number;
use crate::said;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use rust_decimal::Decimal;

/// Natural or legal person (persona natural / jurídica).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PersonType {
    Natural,
    Legal,
}

impl PersonType {
    pub const ALL: [PersonType; 2] = [PersonType::Natural, PersonType::Legal];

    pub fn as_str(self) -> &'static str {
        match self {
            PersonType::Natural => "natural",
            PersonType::Legal => "legal",
        }
    }

    /// As a Spanish page names it beside «Persona»: `natural`, `jurídica`.
    pub fn name_es(self) -> &'static str {
        match self {
            PersonType::Natural => "natural",
            PersonType::Legal => "jurídica",
        }
    }
}

impl std::str::FromStr for PersonType {
    type Err = Said;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "natural" => Ok(PersonType::Natural),
            "legal" | "juridica" | "jurídica" => Ok(PersonType::Legal),
            _ => Err(said!(import::not_person_type_use_natural_legal, s)),
        }
    }
}

/// A column of a kind's [`super::Table`]: its name (what a row problem names) and its place in
/// the table (required columns first, then the optional ones), the enum's order.
pub(crate) trait Column: Copy {
    fn name(self) -> &'static str;
    fn at(self) -> usize;
}

/// The cells of one row, read by column, and the row's problems so far.
pub(crate) struct Cells<'f, 'r> {
    pub line: usize,
    fields: &'f Fields<'r>,
    errors: Vec<RowError>,
}

impl<'f, 'r> Cells<'f, 'r> {
    pub fn new(line: usize, fields: &'f Fields<'r>) -> Self {
        Cells {
            line,
            fields,
            errors: Vec::new(),
        }
    }

    /// The value of `c`, trimmed; empty when the file has no such column.
    pub fn get(&self, c: impl Column) -> &'r str {
        self.fields.get(c.at())
    }

    /// A problem of this row: column `c`, `value`, why.
    pub fn fail(&mut self, c: impl Column, value: &str, reason: Said) {
        self.fail_named(c.name(), value, reason);
    }

    /// [`Cells::fail`], with what the officer can do about it.
    pub fn fail_remedied(&mut self, c: impl Column, value: &str, reason: Said, remedy: Remedy) {
        self.fail(c, value, reason);
        if let Some(e) = self.errors.last_mut() {
            e.remedy = Some(remedy);
        }
    }

    /// A problem of this row in a column named `field`.
    pub fn fail_named(&mut self, field: &str, value: &str, reason: Said) {
        self.errors.push(RowError {
            line: self.line,
            field: field.into(),
            value: value.into(),
            reason,
            remedy: None,
        });
    }

    /// The row, when every cell read and no problem was found; else its problems.
    pub fn finish<T>(self, row: Option<T>) -> Result<T, Vec<RowError>> {
        match row {
            Some(row) if self.errors.is_empty() => Ok(row),
            _ => Err(self.errors),
        }
    }

    /// The value of `c` as an owned text, `None` when empty.
    pub fn text(&self, c: impl Column) -> Option<String> {
        let s = self.get(c);
        (!s.is_empty()).then(|| s.to_string())
    }

    /// The value of `c`, which may not be empty (`missing` says what is).
    pub fn required(&mut self, c: impl Column, missing: Said) -> String {
        let s = self.get(c);
        if s.is_empty() {
            self.fail(c, "", missing);
        }
        s.to_string()
    }

    /// The value of `c` as `read` makes of it, or its problem.
    pub fn read<T>(
        &mut self,
        c: impl Column,
        read: impl FnOnce(&'r str) -> Result<T, Said>,
    ) -> Option<T> {
        let s = self.get(c);
        read(s).map_err(|why| self.fail(c, s, why)).ok()
    }

    /// A document: its type in `t`, its number in `n` (canonical: a NIT with its `-DV`); the
    /// number is read only when the type is.
    pub fn document(&mut self, t: impl Column, n: impl Column) -> Option<(DocType, String)> {
        let doc_type = self.read(t, DocType::read)?;
        let number = self.read(n, |s| ids::normalized(doc_type, s))?;
        Some((doc_type, number))
    }

    /// A person type (natural, legal or jurídica).
    pub fn person(&mut self, c: impl Column) -> Option<PersonType> {
        self.read(c, |s| s.parse())
    }

    /// A whole number of shares greater than zero (`own`: the column's sentence).
    pub fn count(&mut self, c: impl Column, own: Said) -> Option<u64> {
        let s = self.get(c);
        let read = parse_count(s);
        let n = read.as_ref().ok().copied().filter(|&n| n > 0);
        if n.is_none() {
            self.fail(c, s, why_above_zero(&read, own));
        }
        n
    }

    /// A whole number, or `Some(None)` when empty.
    pub fn opt_count(&mut self, c: impl Column, own: Said) -> Option<Option<u64>> {
        let s = self.get(c);
        if s.is_empty() {
            return Some(None);
        }
        match parse_count(s) {
            Ok(n) => Some(Some(n)),
            Err(r) => {
                self.fail(c, s, reason(&r, own));
                None
            }
        }
    }

    /// An amount in pesos (`positive`: greater than zero), or `Some(None)` when empty.
    pub fn opt_amount(
        &mut self,
        c: impl Column,
        positive: bool,
        own: Said,
    ) -> Option<Option<Decimal>> {
        let s = self.get(c);
        if s.is_empty() {
            return Some(None);
        }
        let read = parse_amount(s);
        match read {
            Ok(v) if !positive || v > Decimal::ZERO => Some(Some(v)),
            _ if positive => {
                self.fail(c, s, why_above_zero(&read, own));
                None
            }
            _ => {
                self.fail(c, s, why(&read, own));
                None
            }
        }
    }

    /// A date (`or_empty`: the column may be left empty, `Some(None)`).
    pub fn date(&mut self, c: impl Column, or_empty: bool) -> Option<Option<NaiveDate>> {
        let s = self.get(c);
        if or_empty && s.is_empty() {
            return Some(None);
        }
        match parse_date(s) {
            Ok(d) => Some(Some(d)),
            Err(e) => {
                self.fail(c, s, date_problem(&e, or_empty));
                None
            }
        }
    }

    /// A filing time: a date, or a date and time ([`parse_when`]).
    pub fn when(&mut self, c: impl Column) -> Option<NaiveDateTime> {
        let s = self.get(c);
        let when = parse_when(s);
        if when.is_none() {
            self.fail(
                c,
                s,
                Said::new(
                    "must be a date DD/MM/YYYY (or YYYY-MM-DD), or a date and time DD/MM/YYYY HH:MM[:SS], \
                     with a four-digit year",
                    "debe ser una fecha dd/mm/aaaa (o aaaa-mm-dd), o una fecha y hora dd/mm/aaaa \
                     hh:mm[:ss], con el año de cuatro dígitos",
                ),
            );
        }
        when
    }

    /// si or no (`empty`: what an empty cell, or a refused one, reads as).
    pub fn yes_no(&mut self, c: impl Column, empty: bool) -> bool {
        let s = self.get(c);
        // the usual spellings without folding a copy
        match s {
            "" => return empty,
            "si" => return true,
            "no" => return false,
            _ => {}
        }
        match crate::input::yes_no(s) {
            Some(b) => b,
            None => {
                self.fail(c, s, Said::new("must be si or no", "debe ser sí o no"));
                empty
            }
        }
    }

    /// The lender in `lender` and the shares it financed in `financed` (empty: 0), no more than
    /// the row's `shares` (`exceeds` says so) and only with a lender (`needs_lender` says so).
    pub fn financing<C: Column>(
        &mut self,
        (lender, financed): (C, C),
        shares: Option<u64>,
        exceeds: impl FnOnce(u64) -> Said,
        needs_lender: Said,
    ) -> (Option<String>, Option<u64>) {
        let lender_s = self.text(lender);
        let own = Said::new(
            "must be a whole number of shares",
            "debe ser un número entero de acciones",
        );
        let n = self.opt_count(financed, own).map(|n| n.unwrap_or(0));
        if let (Some(f), Some(shares)) = (n, shares) {
            if f > shares {
                let s = self.get(financed);
                self.fail(financed, s, exceeds(shares));
            }
            if f > 0 && lender_s.is_none() {
                self.fail(lender, "", needs_lender);
            }
        }
        (lender_s, n)
    }
}

/// A count as the one reader reads every typed number ([`crate::input::count`]: `4.000` = 4000,
/// in any file); the file's dialect no longer changes how a number reads.
pub(crate) fn parse_count(s: &str) -> Result<u64, Refused> {
    // the common case of a million-row import: plain digits
    if !s.is_empty() && s.len() < 20 && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().map_err(|_| Refused {
            value: s.into(),
            problem: crate::input::Problem::TooLargeCount { max: u64::MAX },
        });
    }
    crate::input::count(s)
}

/// An amount in pesos, exact, as the one reader reads it ([`crate::input::amount`]:
/// `1.450` = 1450, `1.450,50`, `1450.50`, `$ 1.450`).
pub(crate) fn parse_amount(s: &str) -> Result<Decimal, Refused> {
    crate::input::amount(s)
}

/// Why a cell was refused: the reader's own sentence when it says more than the column's (two
/// readings, a misplaced separator, a two-digit year), else the column's `own`.
pub(crate) fn reason(r: &Refused, own: Said) -> Said {
    if r.explains() { r.said() } else { own }
}

/// [`reason`] for what a reader made of a cell (a value it read but the column refuses keeps the
/// column's sentence).
pub(crate) fn why<T>(read: &Result<T, Refused>, own: Said) -> Said {
    match read {
        Err(r) => reason(r, own),
        Ok(_) => own,
    }
}

/// [`why`] for a column whose value must be above zero: a negative value keeps the column's
/// sentence, since the reader's («the value must be zero or more») would lead to a zero the
/// column refuses too.
pub(crate) fn why_above_zero<T>(read: &Result<T, Refused>, own: Said) -> Said {
    match read {
        Err(r) if r.problem == crate::input::Problem::Negative => own,
        _ => why(read, own),
    }
}

/// Why a date of a file was refused (`or_empty`: the column may also be left empty).
pub(crate) fn date_problem(r: &Refused, or_empty: bool) -> Said {
    if r.explains() {
        return r.said();
    }
    let (empty, vacia) = if or_empty {
        (", or empty", ", o déjela vacía")
    } else {
        ("", "")
    };
    said!(import::must_date_dd_mm_yyyy_yyyy, empty, vacia)
}

/// A number of shares the es-CO way (`12.960.982`).
pub(crate) fn acciones(n: u64) -> String {
    format_number(Decimal::from(n))
}

/// A date of a file: every form the one reader takes ([`crate::input::date`]), whatever the
/// file's dialect (a workbook's date cells arrive written `YYYY-MM-DD`: [`crate::workbook`]).
pub(crate) fn parse_date(s: &str) -> Result<NaiveDate, Refused> {
    if let Some(d) = crate::calendar::parse_iso(s) {
        // the common case, without a copy
        if (crate::calendar::FIRST_DATE..=crate::calendar::LAST_DATE).contains(&d) {
            return Ok(d);
        }
    }
    crate::input::date(s)
}

/// A date in any form the one reader takes ([`crate::input::date`]: `DD/MM/YYYY`, `YYYY-MM-DD`
/// ...), optionally followed by a space or `T` and `HH:MM` or `HH:MM:SS`; a date alone is its
/// midnight. Every file reads dates the same way, whatever its dialect.
pub fn parse_when(s: &str) -> Option<NaiveDateTime> {
    let s = s.trim();
    if s.contains([' ', 'T']) {
        crate::input::datetime(s).ok()
    } else {
        crate::input::date(s)
            .ok()
            .map(|d| d.and_time(NaiveTime::MIN))
    }
}
