//! A program's validity (Decreto 3939 de 2004 art. 28: "un (1) año, contado a partir de la fecha
//! de publicación"): the `[validity]` table of a program file, and whether a day falls inside it.
//! Pure: the register decides what an act outside it needs (LEGAL_NOTES §7, item 7: a recorded
//! reason, since extensions and later decrees exist in practice).

use crate::calendar::add_months;
use crate::lang::{Said, fecha};
use crate::said;
use chrono::NaiveDate;
use serde::Deserialize;

/// `[validity]` as written: `from` (the publication in the Diario Oficial), how many `months`
/// it runs, and the `article` that says so.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidityFile {
    from: String,
    months: u32,
    article: String,
}

/// The days a program's acts may happen on: `from` through `through`, both included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validity {
    pub from: NaiveDate,
    /// The last day: the same day number `months` later (C.C. art. 67; Ley 4 de 1913 art. 59:
    /// a term of months or years ends on the day of the same number), or the month's last day.
    pub through: NaiveDate,
    pub article: String,
}

/// The longest validity a program file may state (a typing slip of years as months is caught).
pub const MAX_MONTHS: u32 = 120;

impl ValidityFile {
    /// The validity, or the field at fault and why.
    pub fn validate(self) -> Result<Validity, (&'static str, Said)> {
        let from = crate::input::date(&self.from).map_err(|r| ("validity.from", r.said()))?;
        if !(1..=MAX_MONTHS).contains(&self.months) {
            let m = self.months;
            return Err((
                "validity.months",
                said!(program::not_validity_vigia_counts_write_1, m, MAX_MONTHS),
            ));
        }
        if self.article.trim().is_empty() {
            return Err((
                "validity.article",
                said!(program::name_article_that_sets_validity_e),
            ));
        }
        let through = add_months(from, self.months)
            .ok_or(("validity.months", said!(program::runs_out_calendar_s_range)))?;
        Ok(Validity {
            from,
            through,
            article: self.article.trim().to_string(),
        })
    }
}

impl Validity {
    pub fn covers(&self, day: NaiveDate) -> bool {
        self.from <= day && day <= self.through
    }

    /// "valid from 2004-11-25 through 2005-11-25 (artículo 28)", in both languages.
    pub fn said(&self) -> Said {
        let (from, through, article) = (self.from, self.through, &self.article);
        let (from_es, through_es) = (fecha(from), fecha(through));
        said!(
            program::valid_from_through,
            from,
            through,
            article,
            from_es,
            through_es
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(from: &str, months: u32) -> ValidityFile {
        ValidityFile {
            from: from.into(),
            months,
            article: "artículo 28".into(),
        }
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_year_from_publication_ends_on_the_same_day_number() {
        // Art. 28: one year from 25/11/2004 runs through 25/11/2005 (C.C. art. 67)
        let v = file("25/11/2004", 12).validate().unwrap();
        assert_eq!((v.from, v.through), (day("2004-11-25"), day("2005-11-25")));
        assert!(v.covers(day("2004-11-25")) && v.covers(day("2005-11-25")));
        assert!(!v.covers(day("2004-11-24")) && !v.covers(day("2005-11-26")));
        // a month shorter than the day number ends on its last day
        let v = file("2004-02-29", 12).validate().unwrap();
        assert_eq!(v.through, day("2005-02-28"));
    }

    #[test]
    fn a_validity_that_cannot_be_read_names_its_field() {
        assert_eq!(
            file("25/11/04", 12).validate().unwrap_err().0,
            "validity.from"
        );
        assert_eq!(
            file("2004-11-25", 0).validate().unwrap_err().0,
            "validity.months"
        );
        let mut f = file("2004-11-25", 12);
        f.article = " ".into();
        assert_eq!(f.validate().unwrap_err().0, "validity.article");
    }
}
