//! The first-stage offer as program data (issue 27): how long the public offer must stay open and
//! from when that is counted (`[offer]`; Decreto 3939 de 2004 art. 4), and the review causes a
//! program's own reglamento adds to the built-in ones (`[[review_causes]]`; seed 001 (v)). Pure:
//! validates what the program file says; the register applies it.

use crate::calendar::add_months;
use crate::holidays::next_business_day;
use crate::lang::Said;
use crate::said;
use chrono::NaiveDate;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};

/// From which day the offer's minimum length runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountedFrom {
    /// From the business day after the notice's publication (Decreto 3939 art. 4: "contados a
    /// partir del día hábil siguiente a la publicación del aviso de oferta"). The default.
    #[default]
    BusinessDayAfterNotice,
    /// From the day the notice is published.
    Notice,
}

/// `[offer]` as written; every key optional, the defaults being Decreto 3939 de 2004 art. 4.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferFile {
    /// The offer's minimum length in months (vigencia mínima). Default 2 (Decreto 3939 art. 4:
    /// "una vigencia mínima de dos (2) meses").
    #[serde(default)]
    minimum_months: Option<u32>,
    /// From when the months are counted: `"business-day-after-notice"` (default, Decreto 3939
    /// art. 4) or `"notice"`.
    #[serde(default)]
    counted_from: Option<CountedFrom>,
    /// The article a refusal and the acta cite for the minimum length, after the program's
    /// decree. Default `"art. 4"` (Decreto 3939 art. 4).
    #[serde(default)]
    article: Option<String>,
    /// What the acta cites for the caps on an acceptance. Default `"los artículos 7 y 8"`
    /// (Decreto 3939 arts. 7–8).
    #[serde(default)]
    caps_article: Option<String>,
    /// What the acta cites for awarding each acceptor what it asked when demand does not exceed
    /// the offer. Default `"artículo 12, numeral 1"` (Decreto 3939).
    #[serde(default)]
    allotment_article: Option<String>,
    /// What the acta cites for the pro-rata rule. Default: the rule's own source (Decreto 3939
    /// art. 12 num. 2 for `nearest-adjust`; none for seed 000's rule).
    #[serde(default)]
    proration_article: Option<String>,
}

/// The offer's minimum length, validated, and what the acta cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub minimum_months: u32,
    pub counted_from: CountedFrom,
    pub article: String,
    pub caps_article: String,
    pub allotment_article: String,
    /// `None`: the pro-rata rule's own source.
    pub proration_article: Option<String>,
}

/// The default minimum length (Decreto 3939 de 2004 art. 4).
pub const DEFAULT_MINIMUM_MONTHS: u32 = 2;
/// The longest minimum a program file may state (a slip of years as months is caught).
pub const MAX_MINIMUM_MONTHS: u32 = 24;

impl Default for Offer {
    fn default() -> Self {
        Offer {
            minimum_months: DEFAULT_MINIMUM_MONTHS,
            counted_from: CountedFrom::default(),
            article: "art. 4".into(),
            caps_article: "los artículos 7 y 8".into(),
            allotment_article: "artículo 12, numeral 1".into(),
            proration_article: None,
        }
    }
}

impl OfferFile {
    pub fn validate(self) -> Result<Offer, (&'static str, Said)> {
        let d = Offer::default();
        let minimum_months = self.minimum_months.unwrap_or(d.minimum_months);
        if !(1..=MAX_MINIMUM_MONTHS).contains(&minimum_months) {
            let m = minimum_months;
            return Err((
                "offer.minimum_months",
                said!(
                    program::not_minimum_length_vigia_counts_write,
                    m,
                    MAX_MINIMUM_MONTHS
                ),
            ));
        }
        let article = match self.article {
            None => d.article,
            Some(a) if a.trim().is_empty() => {
                return Err((
                    "offer.article",
                    said!(program::name_article_that_sets_offer_s),
                ));
            }
            Some(a) => a.trim().to_string(),
        };
        let text = |key: &'static str, v: Option<String>, default: String| match v {
            None => Ok(default),
            Some(a) if a.trim().is_empty() => {
                Err((key, said!(program::write_what_acta_cites_leave_key)))
            }
            Some(a) => Ok(a.trim().to_string()),
        };
        let caps_article = text("offer.caps_article", self.caps_article, d.caps_article)?;
        let allotment_article = text(
            "offer.allotment_article",
            self.allotment_article,
            d.allotment_article,
        )?;
        let proration_article = match self.proration_article {
            None => None,
            some => Some(text("offer.proration_article", some, String::new())?),
        };
        Ok(Offer {
            minimum_months,
            counted_from: self.counted_from.unwrap_or(d.counted_from),
            article,
            caps_article,
            allotment_article,
            proration_article,
        })
    }
}

impl Offer {
    /// The earliest day an offer whose notice is published on `notice` may close: the minimum
    /// months from the day the program counts from (the business day after the notice, or the
    /// notice's day), the same day number or the month's last day (C.Co. art. 829 num. 3; C.C.
    /// art. 67), moved to the next business day when it falls on a weekend or holiday (Ley 4 de
    /// 1913 art. 62; LEGAL_NOTES §3.1).
    pub fn earliest_close(&self, notice: NaiveDate) -> Option<NaiveDate> {
        let start = match self.counted_from {
            CountedFrom::BusinessDayAfterNotice => next_business_day(notice.succ_opt()?),
            CountedFrom::Notice => notice,
        };
        Some(next_business_day(add_months(start, self.minimum_months)?))
    }

    /// "two months from the business day after the notice", in both languages.
    pub fn length_said(&self) -> Said {
        let m = self.minimum_months;
        let (en_n, es_n) = match m {
            1 => ("one month".to_string(), "un mes".to_string()),
            2 => ("two months".to_string(), "dos meses".to_string()),
            n => (format!("{n} months"), format!("{n} meses")),
        };
        match self.counted_from {
            CountedFrom::BusinessDayAfterNotice => {
                said!(program::from_business_day_after_notice, en_n, es_n)
            }
            CountedFrom::Notice => said!(program::from_notice_s_publication, en_n, es_n),
        }
    }
}

/// A review cause the program's reglamento adds (`[[review_causes]]`): recorded in an
/// acceptance's `review` column by its code, shown in the acta and the outcomes with the
/// program's wording and article.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewCause {
    /// The code the `review` column takes: capital letters, digits and `_`, up to
    /// [`MAX_CODE`] characters, none of the built-in causes' codes (`OTRA_CAUSAL`).
    pub code: String,
    /// Where the cause comes from, e.g. "Reglamento de Primera Etapa, numeral 5.3".
    pub article: String,
    /// The cause in the acta's words.
    pub wording: String,
}

/// The longest code a program-defined cause may have.
pub const MAX_CODE: usize = 40;

/// Whether `s` is written as a cause code (capital letters, digits and `_`, starting with a
/// letter).
pub fn is_code(s: &str) -> bool {
    s.len() <= MAX_CODE
        && s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A program cause's code as a `'static` string, so that a cause stays a small `Copy` value: each
/// distinct code is kept once for the life of the process (a register holds a handful).
pub fn intern(code: &str) -> &'static str {
    static CODES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut set = CODES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = set.get(code) {
        return known;
    }
    let leaked: &'static str = Box::leak(code.to_string().into_boxed_str());
    set.insert(leaked);
    leaked
}

/// Checks a program's review causes: well-formed codes, unique, each with its article and
/// wording (a built-in cause's code rewords that cause).
pub fn validate_causes(causes: &[ReviewCause]) -> Result<(), (&'static str, Said)> {
    let mut seen = BTreeSet::new();
    for c in causes {
        let code = &c.code;
        if !is_code(code) {
            return Err((
                "review_causes.code",
                said!(
                    program::write_code_capital_letters_digits_starting,
                    code,
                    MAX_CODE
                ),
            ));
        }
        // a built-in code is allowed: it rewords that cause with the program's own article
        // (its documents cite the program's numbering, not Decreto 3939's)
        if !seen.insert(code.as_str()) {
            return Err(("review_causes.code", said!(program::listed_twice, code)));
        }
        if c.article.trim().is_empty() || c.wording.trim().is_empty() {
            return Err((
                "review_causes",
                said!(program::cause_needs_article_comes_from_wording, code),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_default_is_decreto_3939_art_4() {
        let o = OfferFile::default().validate().unwrap();
        assert_eq!(o, Offer::default());
        // Thursday 2024-06-27 → Friday 28 → 2024-08-28 (Wednesday)
        assert_eq!(o.earliest_close(d("2024-06-27")), Some(d("2024-08-28")));
    }

    #[test]
    fn an_offer_counted_from_the_notice_may_close_a_day_earlier() {
        let o = Offer {
            minimum_months: 1,
            counted_from: CountedFrom::Notice,
            article: "artículo 5".into(),
            ..Offer::default()
        };
        // 2024-06-27 + 1 month = 2024-07-27, a Saturday → Monday 2024-07-29
        assert_eq!(o.earliest_close(d("2024-06-27")), Some(d("2024-07-29")));
        // Wednesday 2024-05-15 + 1 month = Saturday 2024-06-15 → Monday 17 (June's Monday
        // holidays of 2024 are the 3rd and the 10th)
        assert_eq!(o.earliest_close(d("2024-05-15")), Some(d("2024-06-17")));
    }

    #[test]
    fn a_cause_code_may_not_be_a_built_in_one_nor_repeat() {
        let c = |code: &str| ReviewCause {
            code: code.into(),
            article: "Reglamento, num. 5 (v)".into(),
            wording: "otra".into(),
        };
        assert!(validate_causes(&[c("OTRA_CAUSAL")]).is_ok());
        // a built-in code is allowed: it rewords the built-in cause
        assert!(validate_causes(&[c("LATE")]).is_ok());
        assert!(validate_causes(&[c("otra")]).is_err());
        assert!(validate_causes(&[c("A"), c("A")]).is_err());
        assert_eq!(
            intern("OTRA_CAUSAL").as_ptr(),
            intern("OTRA_CAUSAL").as_ptr()
        );
    }
}
