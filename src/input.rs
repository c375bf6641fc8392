//! What people type, read once and the Colombian way, below both front ends: the command line's
//! flags, the web's fields and every cell of an imported file call these readers. Amounts
//! (`1.450` = 1450, `1.450,50`, `1450,5`, `1450.50`, `$ 1.450`), counts (`4.000`), percentages
//! (`18,9`, `18.9`), dates (`2024-11-20`, `20/11/2024`, `5/3/2024`, `20-11-2024`) and datetimes
//! (`20/11/2024 14:30`). Anything two readers could read two ways (`1,450`, `1,450.50`,
//! `1.4500`, a two-digit year) is refused with a [`Refused`] that shows the readings and how to
//! write the value; nothing is guessed. Pure: no I/O.

use crate::calendar::{FIRST_DATE, LAST_DATE};
use crate::lang::{Said, fecha};
use crate::money::format_number;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use rust_decimal::Decimal;
use std::fmt;

/// What a value was refused for: the facts, worded by [`Refused::said`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Nothing was written.
    Empty,
    /// Not a number at all (letters, two signs, a lone separator).
    NotANumber,
    /// [`Problem::NotANumber`] where a count was asked for (shares, days, a year, a record's
    /// number): its example has no decimals.
    CountNotANumber,
    /// [`Problem::NotANumber`] where a percentage was asked for: its example is a rate.
    PercentNotANumber,
    /// A comma followed by exactly three digits after one to three digits (`1,450`): a decimal
    /// comma to some, a thousands comma to others.
    CommaOrThousands {
        decimal: Decimal,
        thousands: Decimal,
    },
    /// The US way, commas for thousands and a point for decimals (`1,450.50`, `1,450,000`).
    UsGrouping { us: Decimal },
    /// A point followed by four or more digits (`1.4500`), or by three after more than three
    /// (`1450.500`), or after a lone `0` (`0.450`): neither a decimal point (one or two digits
    /// follow one) nor a thousands point (groups of three after one to three digits).
    PointOrThousands { decimal: Decimal },
    /// A percentage with a point followed by exactly three digits (`32.985`): a decimal point to
    /// some, a thousands point to a Colombian reader (32.985 = 32985).
    RatePointOrThousands {
        decimal: Decimal,
        thousands: Decimal,
    },
    /// Points or spaces that are not every three digits (`1.45.0`, `14.50.000`, `1450 50`), or a
    /// point and a comma in the wrong places (`1.450.50`).
    MisplacedSeparators,
    /// [`Problem::MisplacedSeparators`] in a count, which has no decimals to write.
    CountMisplacedSeparators,
    /// A percentage with more than one point or comma (`1.906,5`): a rate has one decimal
    /// separator and is never grouped in thousands.
    RateSeparators,
    /// A minus sign where the value cannot be negative.
    Negative,
    /// A plus sign before the number (`+3`): a value is written without a sign; `unsigned` is
    /// what was typed without it.
    PlusSign { unsigned: String },
    /// A count with a fraction (`4,5`).
    NotWhole { value: Decimal },
    /// A count written with a comma then three digits (`1,450`): a thousands comma to some, to
    /// a Colombian reader a decimal comma, which no count has: written only one way, `1.450`.
    CountComma { thousands: Decimal },
    /// An amount or a percentage above [`MAX_AMOUNT`].
    TooLarge,
    /// A count above the most its field holds (`max`: a count of shares holds up to
    /// `u64::MAX`, a number of days or months up to `u32::MAX`).
    TooLargeCount { max: u64 },
    /// A currency sign on a percentage (`$18`): a rate is not an amount of money.
    CurrencyOnRate,
    /// A currency sign on a count (`$1.450` shares): a count is not an amount of money.
    CurrencyOnCount,
    /// An amount paid with fractions of a centavo (`1.000,001`).
    BelowCentavo { value: Decimal },
    /// A year written with two digits (`15/03/24`).
    TwoDigitYear { day: u32, month: u32, year: u32 },
    /// Not a date in any of the accepted forms.
    NotADate,
    /// The form of a date, but no such day (`31/02/2024`).
    NoSuchDay,
    /// A real day outside the range vigia accepts.
    OutOfRange(NaiveDate),
    /// Not a time of day `HH:MM`.
    NotATime,
    /// Not a year of four digits (`2.026`, `26`, `dos mil`).
    NotAYear,
    /// Text holding a character that is not plain text ([`is_hidden`]): `code` is its code
    /// point, `at` its position counting characters from 1.
    ControlCharacter { code: u32, at: usize },
}

/// A value refused: what was typed and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub value: String,
    pub problem: Problem,
}

fn refuse<T>(value: &str, problem: Problem) -> Result<T, Refused> {
    Err(Refused {
        value: value.trim().to_string(),
        problem,
    })
}

impl Refused {
    /// The sentence in English and in Spanish: why, the readings when there are two, and how to
    /// write the value. Amounts are shown the es-CO way in both languages, as vigia prints them.
    pub fn said(&self) -> Said {
        let v = &self.value;
        let (first, last) = (FIRST_DATE.format("%d/%m/%Y"), LAST_DATE.format("%d/%m/%Y"));
        match &self.problem {
            Problem::Empty => crate::said!(core::nothing_written_write_value),
            Problem::NotANumber => crate::said!(core::not_number_write_colombian_way_e, v),
            Problem::CountNotANumber => crate::said!(core::not_whole_number_write_digits, v),
            Problem::PercentNotANumber => crate::said!(core::not_percent_write_decimal_comma, v),
            Problem::CommaOrThousands { decimal, thousands } => {
                // the decimal reading written so that it has no second reading: 963,125 is what
                // was refused, 963,1250 is read one way only
                let decimal = decimal.normalize();
                let d = match decimal.scale() {
                    3 => format!("{}0", es(decimal)),
                    _ => es(decimal),
                };
                let t = es(*thousands);
                crate::said!(core::can_read_two_ways_decimal_comma, v, d, t)
            }
            Problem::UsGrouping { us } => {
                let es = es(*us);
                crate::said!(core::written_us_way_commas_thousands_point, v, es)
            }
            Problem::PointOrThousands { decimal } => {
                let d = es(decimal.normalize());
                crate::said!(core::can_read_two_ways_point_neither, v, d)
            }
            Problem::RatePointOrThousands { decimal, thousands } => {
                let (d, t) = (es(decimal.normalize()), es(*thousands));
                crate::said!(core::rate_can_read_two_ways_point, v, d, t)
            }
            Problem::MisplacedSeparators => {
                crate::said!(core::has_separators_wrong_places_write_points, v)
            }
            Problem::CountMisplacedSeparators => {
                crate::said!(core::count_separators_wrong_places_write_points, v)
            }
            Problem::RateSeparators => crate::said!(core::rate_has_more_than_one_separator, v),
            Problem::Negative => crate::said!(core::negative_value_must_zero_more, v),
            Problem::PlusSign { unsigned } => {
                crate::said!(core::plus_sign_written_without, v, unsigned)
            }
            Problem::NotWhole { value } => {
                let shown = es(value.normalize());
                crate::said!(core::reads_as_which_not_whole_number, v, shown)
            }
            Problem::CountComma { thousands } => {
                let t = es(*thousands);
                crate::said!(core::count_comma_write_points, v, t)
            }
            Problem::TooLarge => crate::said!(core::too_large_at_most_1_000, v),
            Problem::TooLargeCount { max } => {
                let max = format_number(Decimal::from(*max));
                crate::said!(core::count_too_large_at_most, v, max)
            }
            Problem::CurrencyOnRate => crate::said!(core::rate_has_currency_sign, v),
            Problem::CurrencyOnCount => crate::said!(core::count_has_currency_sign, v),
            Problem::BelowCentavo { value } => {
                let shown = es(value.normalize());
                crate::said!(core::reads_as_with_fractions_centavo_payment, v, shown)
            }
            Problem::TwoDigitYear { day, month, year } => {
                // the readings in the range vigia accepts (1990-2099)
                let (en, es) = if *year >= 90 {
                    (
                        format!(
                            "{day:02}/{month:02}/19{year:02} or {day:02}/{month:02}/20{year:02}"
                        ),
                        format!(
                            "{day:02}/{month:02}/19{year:02} o {day:02}/{month:02}/20{year:02}"
                        ),
                    )
                } else {
                    let w = format!("{day:02}/{month:02}/20{year:02}");
                    (w.clone(), w)
                };
                crate::said!(core::has_two_digit_year_which_vigia, v, en, es)
            }
            Problem::NotADate => crate::said!(core::not_date_write_dd_mm_yyyy, v),
            Problem::NoSuchDay => crate::said!(core::not_day_calendar_check_day_month, v),
            Problem::OutOfRange(d) => {
                let shown = fecha(*d);
                crate::said!(
                    core::outside_dates_vigia_accepts_check_year,
                    shown,
                    first,
                    last
                )
            }
            Problem::NotATime => crate::said!(core::not_date_time_write_dd_mm, v),
            Problem::NotAYear => crate::said!(core::not_year_write_four_digits, v),
            Problem::ControlCharacter { code, at } => {
                let v = escaped(v);
                crate::said!(core::has_control_character_u_at_character, v, code, at)
            }
        }
    }
}

/// In English, the command line's language.
impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.said().en())
    }
}

impl std::error::Error for Refused {}

impl Refused {
    /// Whether the sentence says more than "not a number / not a date" (two readings, misplaced
    /// separators, a two-digit year, no such day, the bound a value passed): a column's own
    /// sentence then gives way to it.
    pub fn explains(&self) -> bool {
        !matches!(
            self.problem,
            Problem::Empty
                | Problem::NotANumber
                | Problem::CountNotANumber
                | Problem::PercentNotANumber
                | Problem::NotADate
                | Problem::NotATime
        )
    }
}

/// `text` without `$` and `COP` (each may be followed by spaces), and a minus sign apart (a plus
/// sign before a number is refused: [`Problem::PlusSign`]); a space
/// inside the number (also a no-break or narrow no-break space) is a thousands separator, so it
/// is taken only where a thousands point would be (`1 450`, `1 450,50`, `12 345 678`); anywhere
/// else (`1450 50`, `1 45`) the number is refused, never read with the space dropped (`1450 50`
/// read 145050).
fn bare(text: &str) -> Result<(bool, String), Problem> {
    let mut t = text.trim();
    let mut negative = false;
    if let Some(rest) = t.strip_prefix('-') {
        negative = true;
        t = rest.trim_start();
    }
    if let Some(rest) = t.strip_prefix('$') {
        t = rest.trim_start();
    }
    if let Some(rest) = t.strip_prefix("COP") {
        t = rest.trim_start();
    }
    if !negative && let Some(rest) = t.strip_prefix('-') {
        // `$ -1.450`
        negative = true;
        t = rest.trim_start();
    }
    if !negative
        && let Some(rest) = t.strip_prefix('+')
        && rest.trim_start().starts_with(|c: char| c.is_ascii_digit())
    {
        // `+3`, `$ +1.450`: a value is written without a sign (a minus is read, and refused
        // where the value cannot be negative); said as typed, the sign left out
        let typed = text.trim();
        let (before, after) = typed.split_once('+').unwrap_or((typed, ""));
        let unsigned = format!("{before}{}", after.trim_start());
        return Err(Problem::PlusSign { unsigned });
    }
    if !t.contains(char::is_whitespace) {
        return Ok((negative, t.to_string()));
    }
    let chunks: Vec<&str> = t.split_whitespace().collect();
    let lead = |c: &str| c.bytes().take_while(u8::is_ascii_digit).count();
    let (first, rest) = chunks.split_first().unwrap_or((&"", &[]));
    let (last, middle) = rest.split_last().unwrap_or((&"", &[]));
    let grouped = digits(first)
        && first.len() <= 3
        && !first.starts_with('0')
        && middle.iter().all(|c| c.len() == 3 && digits(c))
        && lead(last) == 3
        && last[3..]
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'.');
    if grouped {
        Ok((negative, chunks.concat()))
    } else {
        Err(Problem::MisplacedSeparators)
    }
}

/// Whether `text` carries a currency sign (`$`, `COP`), which only an amount may.
fn has_currency(text: &str) -> bool {
    text.contains('$') || text.contains("COP")
}

fn digits(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// `int` and `frac` (digits only, checked) as one exact decimal.
fn exact(int: &str, frac: &str) -> Option<Decimal> {
    let s = if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    };
    Decimal::from_str_exact(&s).ok()
}

/// Groups of a thousands-grouped integer (`1.450.000` split at the points) are one to three
/// digits, not starting with 0 unless alone, then exactly three each.
fn grouped(groups: &[&str]) -> bool {
    let Some((head, rest)) = groups.split_first() else {
        return false;
    };
    digits(head)
        && head.len() <= 3
        && !(head.starts_with('0'))
        && rest.iter().all(|g| g.len() == 3 && digits(g))
}

/// A decimal number the Colombian way, sign allowed (the caller decides whether a negative
/// value is refused). See the module header for the forms.
pub fn number(text: &str) -> Result<Decimal, Refused> {
    let (negative, t) = bare(text).or_else(|p| refuse(text, p))?;
    if t.is_empty() {
        return refuse(
            text,
            if negative {
                Problem::NotANumber
            } else {
                Problem::Empty
            },
        );
    }
    if !t
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return refuse(text, Problem::NotANumber);
    }
    let value = unsigned(text, &t)?;
    Ok(if negative { -value } else { value })
}

fn unsigned(text: &str, t: &str) -> Result<Decimal, Refused> {
    let commas = t.matches(',').count();
    let points = t.matches('.').count();
    let malformed = || refuse(text, Problem::MisplacedSeparators);
    if t.starts_with(['.', ',']) || t.ends_with(['.', ',']) || t.contains(",,") || t.contains("..")
    {
        return refuse(text, Problem::NotANumber);
    }
    // a point after a comma is the US way (`1,450.50`); two commas too (`1,450,000`)
    let us_order = t.rfind('.').zip(t.find(',')).is_some_and(|(d, c)| d > c);
    match (points, commas) {
        (_, _) if commas >= 2 || us_order => {
            let (int, frac) = t.split_once('.').unwrap_or((t, ""));
            let us_ok = points <= 1
                && grouped(&int.split(',').collect::<Vec<_>>())
                && (frac.is_empty() || digits(frac));
            match us_ok.then(|| exact(&int.replace(',', ""), frac)).flatten() {
                Some(us) => refuse(text, Problem::UsGrouping { us }),
                None => malformed(),
            }
        }
        (0, 0) => exact(t, "")
            .ok_or(())
            .or_else(|()| refuse(text, Problem::TooLarge)),
        // `1450,5`, `1.450,50`, `1.450.000,5`
        (_, 1) => {
            let (int, frac) = t.split_once(',').unwrap_or((t, ""));
            if int.contains('.') && !grouped(&int.split('.').collect::<Vec<_>>()) {
                return malformed();
            }
            let plain = int.replace('.', "");
            if !digits(&plain) || !digits(frac) {
                return malformed();
            }
            let decimal = exact(&plain, frac)
                .ok_or(())
                .or_else(|()| refuse(text, Problem::TooLarge))?;
            if points == 0 && frac.len() == 3 && int.len() <= 3 && !int.starts_with('0') {
                let thousands = exact(&format!("{int}{frac}"), "").unwrap_or_default();
                return refuse(text, Problem::CommaOrThousands { decimal, thousands });
            }
            Ok(decimal)
        }
        // `1450.5`, `1450.50`, `1.5`: a point followed by one or two digits is a decimal point
        (1, 0) => {
            let (int, frac) = t.split_once('.').unwrap_or((t, ""));
            let decimal = exact(int, frac)
                .ok_or(())
                .or_else(|()| refuse(text, Problem::TooLarge))?;
            match frac.len() {
                1 | 2 => Ok(decimal),
                3 if int.len() <= 3 && !int.starts_with('0') => {
                    Ok(exact(&format!("{int}{frac}"), "")
                        .ok_or(())
                        .or_else(|()| refuse(text, Problem::TooLarge))?)
                }
                _ => refuse(text, Problem::PointOrThousands { decimal }),
            }
        }
        // `1.450.000`
        (_, _) => {
            let groups: Vec<&str> = t.split('.').collect();
            if !grouped(&groups) {
                return malformed();
            }
            exact(&groups.concat(), "")
                .ok_or(())
                .or_else(|()| refuse(text, Problem::TooLarge))
        }
    }
}

/// The largest amount vigia reads: a thousand billion pesos (10^15), far above any fine or
/// stage; a longer number is a typing slip.
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(2_764_472_320, 232_830, 0, false, 0);

/// [`number`] within [`MAX_AMOUNT`] either way.
fn bounded(text: &str) -> Result<Decimal, Refused> {
    let v = number(text)?;
    if v.abs() > MAX_AMOUNT {
        return refuse(text, Problem::TooLarge);
    }
    Ok(v)
}

/// An amount of money paid or owed: [`amount`] with at most two decimals (centavos).
pub fn pesos_paid(text: &str) -> Result<Decimal, Refused> {
    let v = signed_amount(text)?;
    if v.normalize().scale() > 2 {
        return refuse(text, Problem::BelowCentavo { value: v });
    }
    Ok(v)
}

/// An amount in pesos or a price per share ([`number`]), never negative.
pub fn amount(text: &str) -> Result<Decimal, Refused> {
    let v = bounded(text)?;
    if v.is_sign_negative() && !v.is_zero() {
        return refuse(text, Problem::Negative);
    }
    Ok(v)
}

/// An amount that may be negative (the caller's rule refuses it with its own sentence).
pub fn signed_amount(text: &str) -> Result<Decimal, Refused> {
    bounded(text)
}

/// A count (shares, days): [`number`] whole and not negative (`4.000` = 4000; `4.000,00` too).
pub fn count(text: &str) -> Result<u64, Refused> {
    if has_currency(text) {
        return refuse(text, Problem::CurrencyOnCount);
    }
    let v = number(text).map_err(|r| match r.problem {
        // of the two readings only the thousands comma is a count: say how to write it
        Problem::CommaOrThousands { thousands, .. } => Refused {
            problem: Problem::CountComma { thousands },
            ..r
        },
        Problem::TooLarge => Refused {
            problem: Problem::TooLargeCount { max: u64::MAX },
            ..r
        },
        Problem::MisplacedSeparators => Refused {
            problem: Problem::CountMisplacedSeparators,
            ..r
        },
        Problem::NotANumber => Refused {
            problem: Problem::CountNotANumber,
            ..r
        },
        _ => r,
    })?;
    if v.is_sign_negative() && !v.is_zero() {
        return refuse(text, Problem::Negative);
    }
    if !v.fract().is_zero() {
        return refuse(text, Problem::NotWhole { value: v });
    }
    u64::try_from(v.trunc()).or_else(|_| refuse(text, Problem::TooLargeCount { max: u64::MAX }))
}

/// A year as a person types it: its four digits (`2026`); a point, a comma, a sign or two digits
/// are refused (a year is never written `2.026`), never read.
pub fn year(text: &str) -> Result<i32, Refused> {
    let t = text.trim();
    if t.is_empty() {
        return refuse(text, Problem::Empty);
    }
    match t.parse::<i32>() {
        Ok(y) if t.len() == 4 && digits(t) => Ok(y),
        _ => refuse(text, Problem::NotAYear),
    }
}

/// A [`count`] held in a `u32` (days, months, a tranche's number): one above `u32::MAX` is
/// refused with that bound.
pub fn small_count(text: &str) -> Result<u32, Refused> {
    let too_large = || Problem::TooLargeCount {
        max: u64::from(u32::MAX),
    };
    let n = count(text).map_err(|r| match r.problem {
        Problem::TooLargeCount { .. } => Refused {
            problem: too_large(),
            ..r
        },
        _ => r,
    })?;
    u32::try_from(n).or_else(|_| refuse(text, too_large()))
}

/// A percentage as a person types it (`18,9`, `18.9`, `27,90 %`, `32,985`): at most one point or
/// comma, which is the decimal separator (rates are never grouped in thousands); a point followed
/// by exactly three digits (`32.985`) is refused with both readings, as a Colombian reader takes
/// it for a thousands point. Sign allowed; the caller's rule judges the range.
pub fn percent(text: &str) -> Result<Decimal, Refused> {
    let v = published_percent(text)?;
    let t = text.trim().trim_end_matches('%').trim_end();
    if let Some((int, frac)) = t.split_once('.')
        && frac.len() == 3
        && digits(frac)
    {
        let int = int.trim_start_matches('-').trim();
        // a thousands point follows one to three digits, never a lone 0 (0.189: a decimal only)
        if grouped(&[int, frac])
            && let Some(thousands) = exact(&format!("{int}{frac}"), "")
        {
            let thousands = if v.is_sign_negative() {
                -thousands
            } else {
                thousands
            };
            return refuse(
                text,
                Problem::RatePointOrThousands {
                    decimal: v,
                    thousands,
                },
            );
        }
    }
    Ok(v)
}

/// A percentage as a published file writes it (the SFC's workbook: `32.985%`, `0.455`): any
/// point or comma is the decimal separator. [`percent`] reads what people type.
pub fn published_percent(text: &str) -> Result<Decimal, Refused> {
    if has_currency(text) {
        return refuse(text, Problem::CurrencyOnRate);
    }
    let (negative, t) = bare(text.trim().trim_end_matches('%')).or_else(|p| refuse(text, p))?;
    if t.is_empty() {
        return refuse(
            text,
            if negative {
                Problem::PercentNotANumber
            } else {
                Problem::Empty
            },
        );
    }
    let t = t.replace(',', ".");
    let (int, frac) = t.split_once('.').unwrap_or((&t, ""));
    if !digits(int) || (t.contains('.') && !digits(frac)) {
        let problem = if t.matches('.').count() > 1 {
            Problem::RateSeparators
        } else {
            Problem::PercentNotANumber
        };
        return refuse(text, problem);
    }
    let v = exact(int, frac)
        .filter(|v| *v <= MAX_AMOUNT)
        .ok_or(())
        .or_else(|()| refuse(text, Problem::TooLarge))?;
    Ok(if negative { -v } else { v })
}

/// A calendar day: `YYYY-MM-DD`, `DD/MM/YYYY`, `D/M/YYYY`, `DD-MM-YYYY`, within the range vigia
/// accepts (1990–2099). A two-digit year is refused, never guessed.
pub fn date(text: &str) -> Result<NaiveDate, Refused> {
    let t = text.trim();
    if t.is_empty() {
        return refuse(text, Problem::Empty);
    }
    let d = day(t).or_else(|p| refuse(text, p))?;
    if (FIRST_DATE..=LAST_DATE).contains(&d) {
        Ok(d)
    } else {
        refuse(text, Problem::OutOfRange(d))
    }
}

fn day(t: &str) -> Result<NaiveDate, Problem> {
    let num = |s: &str| -> Option<u32> { (digits(s) && s.len() <= 4).then(|| s.parse().ok())? };
    let sep = if t.contains('/') { '/' } else { '-' };
    let parts: Vec<&str> = t.split(sep).collect();
    let [a, b, c] = parts[..] else {
        return Err(Problem::NotADate);
    };
    let (Some(na), Some(nb), Some(nc)) = (num(a), num(b), num(c)) else {
        return Err(Problem::NotADate);
    };
    // year first: `2024-11-20` (ISO; the dash only, as ISO writes it)
    if a.len() == 4 && sep == '-' && b.len() == 2 && c.len() == 2 {
        return NaiveDate::from_ymd_opt(na as i32, nb, nc).ok_or(Problem::NoSuchDay);
    }
    if a.len() > 2 || b.len() > 2 {
        return Err(Problem::NotADate);
    }
    match c.len() {
        4 => NaiveDate::from_ymd_opt(nc as i32, nb, na).ok_or(Problem::NoSuchDay),
        2 => Err(Problem::TwoDigitYear {
            day: na,
            month: nb,
            year: nc,
        }),
        _ => Err(Problem::NotADate),
    }
}

/// A day and a time of day: `DD/MM/YYYY HH:MM` (or any [`date`] form, then `HH:MM`, seconds
/// allowed; ISO's `T` too).
pub fn datetime(text: &str) -> Result<NaiveDateTime, Refused> {
    let t = text.trim();
    if t.is_empty() {
        return refuse(text, Problem::Empty);
    }
    let (d, time) = t
        .split_once([' ', 'T'])
        .map(|(d, h)| (d, h.trim()))
        .ok_or(())
        .or_else(|()| refuse(text, Problem::NotATime))?;
    let d = date(d).map_err(|r| Refused {
        value: t.to_string(),
        problem: r.problem,
    })?;
    let time = NaiveTime::parse_from_str(time, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(time, "%H:%M:%S"))
        .or_else(|_| refuse(text, Problem::NotATime))?;
    Ok(d.and_time(time))
}

/// `v` the es-CO way with the decimals it has (`1.450,50`, not `1.450,5`): how a refusal
/// shows a reading.
fn es(v: Decimal) -> String {
    let s = v.abs().to_string();
    let sign = if v.is_sign_negative() && !v.is_zero() {
        "-"
    } else {
        ""
    };
    match s.split_once('.') {
        Some((int, frac)) => {
            let int = format_number(Decimal::from_str_exact(int).unwrap_or_default());
            format!("{sign}{int},{frac}")
        }
        None => format!("{sign}{}", format_number(v.abs())),
    }
}

/// Whether `c` must never reach a document, a listing or a terminal: a control character (C0,
/// DEL, C1: ESC starts terminal sequences, BEL rings) or one that silently reorders the text
/// around it (the bidirectional embeddings, overrides and isolates U+202A..U+202E and
/// U+2066..U+2069, the marks U+200E, U+200F and U+061C: a right-to-left override makes
/// `1000` read `0001`).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The first character of `s` that [`is_hidden`], with its position counting from 1.
pub fn first_hidden(s: &str) -> Option<(usize, char)> {
    s.chars()
        .enumerate()
        .find(|(_, c)| is_hidden(*c))
        .map(|(i, c)| (i + 1, c))
}

/// Free text as typed (a reason, an evidence, a reference, an address, a name, a code): the
/// same refusal the imports give a cell, for the first character that is not plain text
/// ([`is_hidden`]). Every text flag and every form field is read through it.
pub fn text(s: &str) -> Result<&str, Refused> {
    match first_hidden(s) {
        None => Ok(s),
        Some((at, c)) => Err(Refused {
            value: s.to_string(),
            problem: Problem::ControlCharacter {
                code: u32::from(c),
                at,
            },
        }),
    }
}

/// `s` with every character that [`is_hidden`] written as its escape (`\u{1b}`): how a
/// refusal quotes a value, so that the quote itself carries none.
pub fn escaped(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` as a key to match names by (headers, categories, kinds, yes and no): lowercase, accents
/// folded (`Categoría` = `categoria`, `Ñ` = `n`), and spaces, underscores, hyphens and dots
/// dropped (`Tipo documento` = `tipo_documento` = `tipodocumento`).
pub fn folded(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

/// A yes or no (`si`, `sí`, `SI`, `s`, `no`, `n`, `yes`, `true`/`false`, `1`/`0`, `x` for yes).
pub fn yes_no(text: &str) -> Option<bool> {
    match folded(text).as_str() {
        "si" | "s" | "yes" | "y" | "true" | "verdadero" | "1" | "x" => Some(true),
        "no" | "n" | "false" | "falso" | "0" => Some(false),
        _ => None,
    }
}

/// How the rule is stated once, for `--help` and the README.
pub const RULE: &str = "\
How vigia reads what you type (flags, web forms, every imported file):
  Amounts and counts the Colombian way: a point groups thousands (1.450 = 1450) and a comma
  starts the decimals (1.450,50); a point followed by one or two digits is a decimal point
  (1450.50); a space may group thousands as a point does (1 450); `$` goes with amounts only
  (never a count or a rate). Forms two readers could read two ways (1,450; 1,450.50; 1.4500)
  are refused with both readings, never guessed.
  Rates in percent: 18,9 or 18.9; 32,985 (32.985 is refused: to a Colombian reader 32985).
  Dates: DD/MM/YYYY, D/M/YYYY, DD-MM-YYYY or YYYY-MM-DD, with a four-digit year.";

#[cfg(test)]
mod tests;
