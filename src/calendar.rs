//! Month arithmetic (Art. 829 C.Co.; C.C. 67; Ley 4 de 1913 Art. 59) and the fine brackets of a
//! program (Art. 9): which bracket a breach date falls in, and when the lock-up ends.
//! Pure logic on dates; business days and holidays are not this module's concern (they never move
//! bracket boundaries, SPEC §3).

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use std::fmt;

/// Longest lock-up Ley 226 de 1995 Art. 14 allows ("hasta por dos (2) años").
pub const MAX_LOCKUP_MONTHS: u32 = 24;

/// `n` months after `d`: the same day number, or the last day of the target month when it is
/// shorter (2005-08-31 + 6 = 2006-02-28). `None` only outside chrono's date range.
///
/// Always call it from the origin date with the full offset; chaining steps drifts after a clamp.
pub fn add_months(d: NaiveDate, n: u32) -> Option<NaiveDate> {
    let total = i64::from(d.year()) * 12 + i64::from(d.month0()) + i64::from(n);
    let year = i32::try_from(total.div_euclid(12)).ok()?;
    let month = u32::try_from(total.rem_euclid(12)).ok()? + 1;
    let last = last_day_of_month(year, month)?;
    NaiveDate::from_ymd_opt(year, month, d.day().min(last))
}

/// Parses a strict `YYYY-MM-DD` calendar date (exactly ten characters, a real day). The one
/// date parser of the crate: flags, rate files, imports and stored rows all go through it (a
/// million-row import does, so it does not use a format-string parser).
pub fn parse_iso(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)
}

/// Colombia's legal time: UTC−5 all year (no daylight saving since 1993).
pub const COLOMBIA_SECONDS_EAST: i32 = -5 * 3600;

/// Colombia's legal time as a time zone ([`COLOMBIA_SECONDS_EAST`]).
pub fn colombia() -> chrono::FixedOffset {
    chrono::FixedOffset::east_opt(COLOMBIA_SECONDS_EAST).expect("a valid offset")
}

/// The day it is in Colombia at the instant `now`: the "today" of every default date (a
/// notice's date, a payment's, the check's as-of date). The front ends read `now` from their one
/// injected clock; nothing reads the server's local time zone.
pub fn colombia_date(now: chrono::DateTime<chrono::Utc>) -> NaiveDate {
    now.with_timezone(&colombia()).date_naive()
}

/// First and last date vigia accepts as input (flags, imports, rates files). Ley 226 de 1995
/// governs no sale before 1995 and the embedded SFC series starts in 1999; the holiday calendar
/// is checked against an independent Easter table for 1990–2100, so every deadline computed from
/// an accepted date (at most 90 business days on) falls in checked years. A mistyped year (0000,
/// 9999) is refused instead of running date arithmetic off its range.
pub const FIRST_DATE: NaiveDate = NaiveDate::from_ymd_opt(1990, 1, 1).expect("a real date");
pub const LAST_DATE: NaiveDate = NaiveDate::from_ymd_opt(2099, 12, 31).expect("a real date");

/// Why a date typed or read from a file was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateError {
    /// Not `YYYY-MM-DD`, or not a real day (2025-02-29).
    Malformed,
    /// A real day outside [`FIRST_DATE`]..=[`LAST_DATE`].
    OutOfRange(NaiveDate),
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateError::Malformed => {
                f.write_str("expected a calendar date written YYYY-MM-DD, e.g. 2024-11-20")
            }
            DateError::OutOfRange(d) => write!(
                f,
                "{d} is outside the dates vigia accepts, {FIRST_DATE} to {LAST_DATE}; check the year"
            ),
        }
    }
}

impl std::error::Error for DateError {}

/// A date given as input (a flag, an import row, a rates file): [`parse_iso`], and within
/// [`FIRST_DATE`]..=[`LAST_DATE`]. (Stored rows are read with [`parse_iso`] alone: a date the
/// register computed, such as a deadline, may fall after `LAST_DATE`.)
pub fn parse_input(s: &str) -> Result<NaiveDate, DateError> {
    let d = parse_iso(s).ok_or(DateError::Malformed)?;
    if (FIRST_DATE..=LAST_DATE).contains(&d) {
        Ok(d)
    } else {
        Err(DateError::OutOfRange(d))
    }
}

/// Number of days in `month` of `year`.
pub fn last_day_of_month(year: i32, month: u32) -> Option<u32> {
    let first_next = if month == 12 {
        NaiveDate::from_ymd_opt(year.checked_add(1)?, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)?
    };
    first_next.pred_opt().map(|d| d.day())
}

/// One step of the fine scale: breaches up to `upto_months` after the adjudication (and after the
/// previous step) pay `percent` of the reference value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    pub upto_months: u32,
    pub percent: Decimal,
}

/// The graduated fine scale of a program (Decreto 3939/2004 Art. 9 lits. a–d) and its lock-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FineScale {
    lockup_months: u32,
    brackets: Vec<Bracket>,
}

/// Why a bracket list or lock-up length was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScaleError {
    Empty,
    Malformed(String),
    NotIncreasing { previous: u32, next: u32 },
    TooLong { months: u32 },
    BadPercent { percent: Decimal },
    LockupTooLong { months: u32 },
    LockupZero,
    EndMismatch { last: u32, lockup: u32 },
}

impl fmt::Display for ScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScaleError::Empty => write!(
                f,
                "the bracket list is empty; give MONTHS:PERCENT pairs such as 6:100,12:75,18:50,24:25"
            ),
            ScaleError::Malformed(item) => {
                write!(f, "bracket {item:?} is not MONTHS:PERCENT (e.g. 6:100)")
            }
            ScaleError::NotIncreasing { previous, next } => write!(
                f,
                "bracket months must increase, but {next} follows {previous}"
            ),
            ScaleError::TooLong { months } => write!(
                f,
                "bracket of {months} months exceeds the {MAX_LOCKUP_MONTHS}-month limit of Ley 226 de 1995 Art. 14"
            ),
            ScaleError::BadPercent { percent } => write!(
                f,
                "bracket percent {percent} must be greater than 0 and at most 100"
            ),
            ScaleError::LockupTooLong { months } => write!(
                f,
                "lock-up of {months} months exceeds the {MAX_LOCKUP_MONTHS}-month limit of Ley 226 de 1995 Art. 14"
            ),
            ScaleError::LockupZero => write!(f, "the lock-up must last at least one month"),
            ScaleError::EndMismatch { last, lockup } => write!(
                f,
                "the last bracket ends at {last} months but the lock-up lasts {lockup}; the last bracket must end where the lock-up ends"
            ),
        }
    }
}

impl std::error::Error for ScaleError {}

impl FineScale {
    /// Validates a scale: months strictly increasing and at most 24, percents in (0, 100], and the
    /// last bracket ending exactly at the lock-up's end.
    pub fn new(lockup_months: u32, brackets: Vec<Bracket>) -> Result<FineScale, ScaleError> {
        if lockup_months == 0 {
            return Err(ScaleError::LockupZero);
        }
        if lockup_months > MAX_LOCKUP_MONTHS {
            return Err(ScaleError::LockupTooLong {
                months: lockup_months,
            });
        }
        let mut previous = 0;
        for b in &brackets {
            if b.upto_months <= previous {
                return Err(ScaleError::NotIncreasing {
                    previous,
                    next: b.upto_months,
                });
            }
            if b.upto_months > MAX_LOCKUP_MONTHS {
                return Err(ScaleError::TooLong {
                    months: b.upto_months,
                });
            }
            if b.percent <= Decimal::ZERO || b.percent > Decimal::ONE_HUNDRED {
                return Err(ScaleError::BadPercent { percent: b.percent });
            }
            previous = b.upto_months;
        }
        match brackets.last() {
            None => Err(ScaleError::Empty),
            Some(last) if last.upto_months != lockup_months => Err(ScaleError::EndMismatch {
                last: last.upto_months,
                lockup: lockup_months,
            }),
            Some(_) => Ok(FineScale {
                lockup_months,
                brackets,
            }),
        }
    }

    /// Decreto 3939 de 2004 Art. 9: 24 months; 100 % to 6, 75 % to 12, 50 % to 18, 25 % to 24.
    pub fn decreto_3939_2004() -> FineScale {
        FineScale::new(
            24,
            parse_brackets("6:100,12:75,18:50,24:25").expect("constant scale"),
        )
        .expect("constant scale")
    }

    pub fn lockup_months(&self) -> u32 {
        self.lockup_months
    }

    pub fn brackets(&self) -> &[Bracket] {
        &self.brackets
    }

    /// Last day of the lock-up; the holder is free from the next day.
    pub fn lockup_end(&self, adjudicated: NaiveDate) -> Option<NaiveDate> {
        add_months(adjudicated, self.lockup_months)
    }

    /// Where a breach date falls: inside a bracket, or after the lock-up.
    /// Dates before the adjudication are the caller's input error and give `None`.
    pub fn place(&self, adjudicated: NaiveDate, breach: NaiveDate) -> Option<Placement> {
        if breach < adjudicated {
            return None;
        }
        let mut lower_months = 0;
        for (index, b) in self.brackets.iter().enumerate() {
            let upper = add_months(adjudicated, b.upto_months)?;
            if breach <= upper {
                let lower = if index == 0 {
                    None
                } else {
                    add_months(adjudicated, lower_months)
                };
                return Some(Placement::Inside(BracketHit {
                    index,
                    percent: b.percent,
                    lower_months,
                    upper_months: b.upto_months,
                    after: lower,
                    through: upper,
                }));
            }
            lower_months = b.upto_months;
        }
        Some(Placement::AfterLockup {
            lockup_end: self.lockup_end(adjudicated)?,
        })
    }
}

/// Parses `6:100,12:75,18:50,24:25` into brackets (validation happens in [`FineScale::new`]).
pub fn parse_brackets(text: &str) -> Result<Vec<Bracket>, ScaleError> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (m, p) = item
            .split_once(':')
            .ok_or_else(|| ScaleError::Malformed(item.to_string()))?;
        let upto_months: u32 = m
            .trim()
            .parse()
            .map_err(|_| ScaleError::Malformed(item.to_string()))?;
        let percent = crate::money::parse_decimal(p.trim())
            .map_err(|_| ScaleError::Malformed(item.to_string()))?;
        out.push(Bracket {
            upto_months,
            percent,
        });
    }
    if out.is_empty() {
        return Err(ScaleError::Empty);
    }
    Ok(out)
}

/// Where a breach date fell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    Inside(BracketHit),
    /// After the lock-up: not a breach, no fine.
    AfterLockup {
        lockup_end: NaiveDate,
    },
}

/// The bracket a breach fell in, with the dates that bound it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketHit {
    /// 0-based position in the scale.
    pub index: usize,
    pub percent: Decimal,
    pub lower_months: u32,
    pub upper_months: u32,
    /// The bracket holds dates strictly after this one (`None`: from the adjudication date itself).
    pub after: Option<NaiveDate>,
    /// ... up to and including this one.
    pub through: NaiveDate,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_the_day_in_bogota_not_in_greenwich() {
        let at = |s: &str| s.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        // 04:59 UTC is still 23:59 of the day before in Bogotá; 05:00 UTC is midnight there
        assert_eq!(
            colombia_date(at("2026-12-02T04:59:59Z")),
            date("2026-12-01")
        );
        assert_eq!(
            colombia_date(at("2026-12-02T05:00:00Z")),
            date("2026-12-02")
        );
        assert_eq!(
            colombia_date(at("2027-01-01T03:00:00Z")),
            date("2026-12-31")
        );
    }
    use crate::money::dec;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn percent(adj: &str, breach: &str) -> Option<Decimal> {
        match FineScale::decreto_3939_2004().place(date(adj), date(breach))? {
            Placement::Inside(hit) => Some(hit.percent),
            Placement::AfterLockup { .. } => Some(Decimal::ZERO),
        }
    }

    #[test]
    fn add_months_clamps_to_month_end() {
        // SPEC §3 examples.
        assert_eq!(add_months(date("2005-08-31"), 6), Some(date("2006-02-28")));
        assert_eq!(add_months(date("2007-08-31"), 6), Some(date("2008-02-29")));
        // Consejo de Estado example (LEGAL_NOTES §3.1): 4 months from 30-10-2002 end 28-02-2003.
        assert_eq!(add_months(date("2002-10-30"), 4), Some(date("2003-02-28")));
        assert_eq!(add_months(date("2004-12-15"), 24), Some(date("2006-12-15")));
        assert_eq!(add_months(date("2024-01-31"), 1), Some(date("2024-02-29")));
        assert_eq!(add_months(date("2024-03-15"), 0), Some(date("2024-03-15")));
    }

    #[test]
    fn boundaries_are_computed_from_the_origin_not_chained() {
        // LEGAL_NOTES §3.2 table, row 2005-08-31: E_k are 02-28, 08-31, 02-28, 08-31.
        let s = date("2005-08-31");
        let e: Vec<_> = [6, 12, 18, 24]
            .iter()
            .map(|&m| add_months(s, m).unwrap())
            .collect();
        assert_eq!(
            e,
            vec![
                date("2006-02-28"),
                date("2006-08-31"),
                date("2007-02-28"),
                date("2007-08-31")
            ]
        );
        // Row 2008-02-29.
        let s = date("2008-02-29");
        let e: Vec<_> = [6, 12, 18, 24]
            .iter()
            .map(|&m| add_months(s, m).unwrap())
            .collect();
        assert_eq!(
            e,
            vec![
                date("2008-08-29"),
                date("2009-02-28"),
                date("2009-08-29"),
                date("2010-02-28")
            ]
        );
    }

    #[test]
    fn anniversary_is_in_the_earlier_bracket_and_the_next_day_in_the_later() {
        // SPEC §3: a breach on the 6-month anniversary is 100 %, the day after 75 %;
        // the 24-month anniversary is still 25 %, the day after is free.
        let adj = "2024-03-15";
        assert_eq!(percent(adj, "2024-03-15"), Some(dec("100")));
        assert_eq!(percent(adj, "2024-09-15"), Some(dec("100")));
        assert_eq!(percent(adj, "2024-09-16"), Some(dec("75")));
        assert_eq!(percent(adj, "2025-03-15"), Some(dec("75")));
        assert_eq!(percent(adj, "2025-03-16"), Some(dec("50")));
        assert_eq!(percent(adj, "2025-09-15"), Some(dec("50")));
        assert_eq!(percent(adj, "2025-09-16"), Some(dec("25")));
        assert_eq!(percent(adj, "2026-03-15"), Some(dec("25")));
        assert_eq!(percent(adj, "2026-03-16"), Some(Decimal::ZERO));
        assert_eq!(percent(adj, "2024-03-14"), None);
    }

    #[test]
    fn month_end_adjudications() {
        // Aug 31: 6 months is Feb 28 (2006), the day after (Mar 1) is 75 %.
        assert_eq!(percent("2005-08-31", "2006-02-28"), Some(dec("100")));
        assert_eq!(percent("2005-08-31", "2006-03-01"), Some(dec("75")));
        assert_eq!(percent("2005-08-31", "2006-08-31"), Some(dec("75")));
        assert_eq!(percent("2005-08-31", "2006-09-01"), Some(dec("50")));
        // Jan 31: 6 months is Jul 31.
        assert_eq!(percent("2007-01-31", "2007-07-31"), Some(dec("100")));
        assert_eq!(percent("2007-01-31", "2007-08-01"), Some(dec("75")));
        assert_eq!(percent("2007-01-31", "2009-01-31"), Some(dec("25")));
        assert_eq!(percent("2007-01-31", "2009-02-01"), Some(Decimal::ZERO));
        // Feb 29: 6 months is Aug 29; 12 months is Feb 28 2009; 24 months Feb 28 2010.
        assert_eq!(percent("2008-02-29", "2008-08-29"), Some(dec("100")));
        assert_eq!(percent("2008-02-29", "2008-08-30"), Some(dec("75")));
        assert_eq!(percent("2008-02-29", "2009-02-28"), Some(dec("75")));
        assert_eq!(percent("2008-02-29", "2009-03-01"), Some(dec("50")));
        assert_eq!(percent("2008-02-29", "2010-02-28"), Some(dec("25")));
        assert_eq!(percent("2008-02-29", "2010-03-01"), Some(Decimal::ZERO));
    }

    #[test]
    fn placement_names_the_bracket_bounds() {
        let hit = match FineScale::decreto_3939_2004().place(date("2024-03-15"), date("2024-11-20"))
        {
            Some(Placement::Inside(hit)) => hit,
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(hit.index, 1);
        assert_eq!(hit.after, Some(date("2024-09-15")));
        assert_eq!(hit.through, date("2025-03-15"));
        assert_eq!((hit.lower_months, hit.upper_months), (6, 12));
    }

    #[test]
    fn iso_dates_are_strict() {
        assert_eq!(
            parse_iso("2024-02-29"),
            NaiveDate::from_ymd_opt(2024, 2, 29)
        );
        assert_eq!(parse_iso("2025-02-29"), None);
        assert_eq!(parse_iso("2024-2-29"), None);
        assert_eq!(parse_iso("2024/02/29"), None);
        assert_eq!(parse_iso("2024-02-2x"), None);
        assert_eq!(parse_iso(" 2024-02-29"), None);
    }

    #[test]
    fn scale_validation() {
        let b = |s| parse_brackets(s).unwrap();
        assert_eq!(
            FineScale::new(24, b("6:100,6:75,24:25")),
            Err(ScaleError::NotIncreasing {
                previous: 6,
                next: 6
            })
        );
        assert_eq!(
            FineScale::new(24, b("12:100,6:75,24:25")),
            Err(ScaleError::NotIncreasing {
                previous: 12,
                next: 6
            })
        );
        assert_eq!(
            FineScale::new(24, b("6:100,30:25")),
            Err(ScaleError::TooLong { months: 30 })
        );
        assert_eq!(
            FineScale::new(30, b("6:100,24:25")),
            Err(ScaleError::LockupTooLong { months: 30 })
        );
        assert_eq!(
            FineScale::new(24, b("6:100,18:25")),
            Err(ScaleError::EndMismatch {
                last: 18,
                lockup: 24
            })
        );
        assert_eq!(
            FineScale::new(24, b("6:0,24:25")),
            Err(ScaleError::BadPercent { percent: dec("0") })
        );
        assert_eq!(
            FineScale::new(24, b("6:101,24:25")),
            Err(ScaleError::BadPercent {
                percent: dec("101")
            })
        );
        assert!(matches!(
            parse_brackets("6-100"),
            Err(ScaleError::Malformed(_))
        ));
        assert!(FineScale::new(12, b("6:100,12:50")).is_ok());
    }
}
