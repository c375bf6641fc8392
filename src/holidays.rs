//! The Colombian business-day calendar: weekends plus the public holidays of Ley 51 de 1983 (fixed
//! feasts, feasts moved to the following Monday, and the Easter-based ones), for any year.
//! Used for payment deadlines only: bracket boundaries never move (SPEC §3). Pure.

use chrono::{Datelike, Days, NaiveDate, Weekday};

/// Why a day is a holiday.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holiday {
    pub date: NaiveDate,
    pub name: &'static str,
    /// The feast's own date, when Ley 51 de 1983 Art. 1 par. 1 moved it to a Monday.
    pub moved_from: Option<NaiveDate>,
}

/// Easter Sunday of `year` in the Gregorian calendar (anonymous algorithm: Meeus/Jones/Butcher).
pub fn easter(year: i32) -> NaiveDate {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(year, month as u32, day as u32).expect("Easter is a real date")
}

/// The Monday on or after `d` (Ley 51 de 1983: "se trasladará al lunes siguiente").
fn to_monday(d: NaiveDate) -> NaiveDate {
    let ahead = (7 - d.weekday().num_days_from_monday()) % 7;
    d + Days::new(u64::from(ahead))
}

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("fixed feast date")
}

/// The first year whose holidays the Ley 51 de 1983 moves (in force from 1984), and the last
/// year a date of four digits holds: the years `calendar holidays` lists.
pub const FIRST_YEAR: i32 = 1984;
pub const LAST_YEAR: i32 = 9999;

/// The holidays of `year`, in date order. Two feasts on the same Monday are both listed.
pub fn holidays(year: i32) -> Vec<Holiday> {
    let fixed = |m, d, name| Holiday {
        date: ymd(year, m, d),
        name,
        moved_from: None,
    };
    let moved = |date: NaiveDate, name| {
        let monday = to_monday(date);
        Holiday {
            date: monday,
            name,
            moved_from: (monday != date).then_some(date),
        }
    };
    let e = easter(year);
    let mut out = vec![
        // Art. 1: days of rest that stay where they fall.
        fixed(1, 1, "Año Nuevo"),
        fixed(5, 1, "Día del Trabajo"),
        fixed(7, 20, "Día de la Independencia"),
        fixed(8, 7, "Batalla de Boyacá"),
        fixed(12, 8, "Inmaculada Concepción"),
        fixed(12, 25, "Navidad"),
        // Art. 1: Holy Thursday and Good Friday, not moved.
        Holiday {
            date: e - Days::new(3),
            name: "Jueves Santo",
            moved_from: None,
        },
        Holiday {
            date: e - Days::new(2),
            name: "Viernes Santo",
            moved_from: None,
        },
        // Art. 1 par. 1: moved to the following Monday when they do not fall on one.
        moved(ymd(year, 1, 6), "Reyes Magos"),
        moved(ymd(year, 3, 19), "San José"),
        moved(ymd(year, 6, 29), "San Pedro y San Pablo"),
        moved(ymd(year, 8, 15), "Asunción de la Virgen"),
        moved(ymd(year, 10, 12), "Día de la Raza"),
        moved(ymd(year, 11, 1), "Todos los Santos"),
        moved(ymd(year, 11, 11), "Independencia de Cartagena"),
        moved(e + Days::new(39), "Ascensión del Señor"),
        moved(e + Days::new(60), "Corpus Christi"),
        moved(e + Days::new(68), "Sagrado Corazón de Jesús"),
    ];
    out.sort_by_key(|h| h.date);
    out
}

/// Neither Saturday, Sunday nor one of `holidays` (the holidays of `d`'s year).
fn business(d: NaiveDate, holidays: &[Holiday]) -> bool {
    !matches!(d.weekday(), Weekday::Sat | Weekday::Sun) && !holidays.iter().any(|h| h.date == d)
}

/// Neither Saturday, Sunday nor a public holiday.
pub fn is_business_day(d: NaiveDate) -> bool {
    business(d, &holidays(d.year()))
}

/// `d` itself when it is a business day, else the next one (C.Co. 829 num. 3; Ley 4 de 1913
/// Art. 62: a deadline that falls on a holiday moves to the next business day).
pub fn next_business_day(d: NaiveDate) -> NaiveDate {
    let mut x = d;
    while !is_business_day(x) {
        x = x.succ_opt().expect("date in range");
    }
    x
}

/// The `n`-th business day after `d` (`d` itself not counted): a term of `n` business days
/// counted from `d`. `None` when the term runs past the last date chrono knows; never panics,
/// and a term longer than the days left is answered at once.
pub fn add_business_days(d: NaiveDate, n: u32) -> Option<NaiveDate> {
    // every business day is a day: the answer is at least n days on
    d.checked_add_days(Days::new(u64::from(n)))?;
    let mut x = d;
    let mut left = n;
    let mut year = (d.year(), holidays(d.year()));
    while left > 0 {
        x = x.succ_opt()?;
        if x.year() != year.0 {
            year = (x.year(), holidays(x.year()));
        }
        if business(x, &year.1) {
            left -= 1;
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn dates(year: i32) -> Vec<String> {
        holidays(year)
            .iter()
            .map(|h| h.date.format("%m-%d").to_string())
            .collect()
    }

    #[test]
    fn holidays_2024_match_the_published_list() {
        // Published 2024 calendar (e.g. seguimiento.co "Estos son los días feriados que habrá en
        // Colombia en el 2024"; noticias24colombia.com): 18 holidays.
        assert_eq!(
            dates(2024),
            [
                "01-01", "01-08", "03-25", "03-28", "03-29", "05-01", "05-13", "06-03", "06-10",
                "07-01", "07-20", "08-07", "08-19", "10-14", "11-04", "11-11", "12-08", "12-25"
            ]
        );
    }

    #[test]
    fn holidays_2025_match_the_published_list() {
        // festivos.com.co/2025 and publicholidays.co (citing Banco de la República): Sagrado
        // Corazón and San Pedro y San Pablo both fall on Monday 30 June.
        assert_eq!(
            dates(2025),
            [
                "01-01", "01-06", "03-24", "04-17", "04-18", "05-01", "06-02", "06-23", "06-30",
                "06-30", "07-20", "08-07", "08-18", "10-13", "11-03", "11-17", "12-08", "12-25"
            ]
        );
    }

    #[test]
    fn holidays_2026_match_the_published_list() {
        // El Colombiano, "Colombia festivos 2026" (2025-09-11): Reyes moves to 12 January.
        assert_eq!(
            dates(2026),
            [
                "01-01", "01-12", "03-23", "04-02", "04-03", "05-01", "05-18", "06-08", "06-15",
                "06-29", "07-20", "08-07", "08-17", "10-12", "11-02", "11-16", "12-08", "12-25"
            ]
        );
        let reyes = holidays(2026)
            .into_iter()
            .find(|h| h.name == "Reyes Magos")
            .unwrap();
        assert_eq!(reyes.moved_from, Some(d("2026-01-06")));
    }

    /// Easter Sundays 1990–2100 as MMDD, ten years a line, from python-dateutil's
    /// `dateutil.easter.easter` (EASTER_WESTERN), an independent implementation.
    const EASTERS_1990_2100: [&str; 12] = [
        "0415 0331 0419 0411 0403 0416 0407 0330 0412 0404",
        "0423 0415 0331 0420 0411 0327 0416 0408 0323 0412",
        "0404 0424 0408 0331 0420 0405 0327 0416 0401 0421",
        "0412 0404 0417 0409 0331 0420 0405 0328 0416 0401",
        "0421 0413 0328 0417 0409 0325 0413 0405 0425 0410",
        "0401 0421 0406 0329 0417 0409 0325 0414 0405 0418",
        "0410 0402 0421 0406 0329 0418 0402 0422 0414 0330",
        "0418 0410 0326 0415 0406 0329 0411 0403 0422 0414",
        "0330 0419 0410 0326 0415 0407 0419 0411 0403 0423",
        "0407 0330 0419 0404 0326 0415 0331 0420 0411 0403",
        "0416 0408 0330 0412 0404 0424 0415 0331 0420 0412",
        "0328",
    ];

    #[test]
    fn easter_matches_an_independent_table_1990_to_2100() {
        let all: Vec<&str> = EASTERS_1990_2100
            .iter()
            .flat_map(|l| l.split(' '))
            .collect();
        assert_eq!(all.len(), 111);
        for (i, mmdd) in all.iter().enumerate() {
            let y = 1990 + i as i32;
            assert_eq!(easter(y).format("%m%d").to_string(), *mmdd, "{y}");
        }
    }

    #[test]
    fn easter_1990_to_2100() {
        // Known Easter Sundays (Gregorian), spot checks across the range.
        for (y, s) in [
            (1990, "1990-04-15"),
            (2000, "2000-04-23"),
            (2008, "2008-03-23"),
            (2011, "2011-04-24"),
            (2019, "2019-04-21"),
            (2024, "2024-03-31"),
            (2025, "2025-04-20"),
            (2026, "2026-04-05"),
            (2038, "2038-04-25"),
            (2049, "2049-04-18"),
            (2076, "2076-04-19"),
            (2100, "2100-03-28"),
        ] {
            assert_eq!(easter(y), d(s), "{y}");
        }
        // Invariants for every year: a Sunday, between 22 March and 25 April.
        for y in 1990..=2100 {
            let e = easter(y);
            assert_eq!(e.weekday(), Weekday::Sun, "{y}");
            assert!(e >= ymd(y, 3, 22) && e <= ymd(y, 4, 25), "{y}: {e}");
        }
    }

    #[test]
    fn business_days_skip_weekends_and_holidays() {
        // Friday 2025-04-11 + 5 business days: Mon 14, Tue 15, Wed 16, (Thu 17, Fri 18 holy),
        // Mon 21, Tue 22.
        assert_eq!(add_business_days(d("2025-04-11"), 5), Some(d("2025-04-22")));
        assert_eq!(add_business_days(d("2025-04-11"), 0), Some(d("2025-04-11")));
        // across a year end: Mon 2025-12-29, Tue 30, Wed 31, (Thu 1 Jan), Fri 2, Mon 5
        assert_eq!(add_business_days(d("2025-12-26"), 5), Some(d("2026-01-05")));
        // A deadline on Saturday 2025-12-06 moves to Tuesday 9 (Monday 8 is a holiday).
        assert_eq!(next_business_day(d("2025-12-06")), d("2025-12-09"));
        assert_eq!(next_business_day(d("2025-12-09")), d("2025-12-09"));
        assert!(!is_business_day(d("2026-01-12")));
        assert!(is_business_day(d("2026-01-06")));
    }

    #[test]
    fn a_term_past_the_calendar_is_none_not_a_panic() {
        // issue 11: payment_term_business_days = 4294967295 spun for seconds, then panicked
        let started = std::time::Instant::now();
        assert_eq!(add_business_days(d("2025-04-11"), u32::MAX), None);
        assert_eq!(add_business_days(NaiveDate::MAX - Days::new(3), 10), None);
        assert_eq!(add_business_days(NaiveDate::MAX, 1), None);
        assert_eq!(add_business_days(NaiveDate::MAX, 0), Some(NaiveDate::MAX));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
