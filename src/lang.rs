//! The two languages vigia speaks. Spanish is its users' language: every page of the web
//! interface and every document. English is the command line's, as it always was (scripts and
//! the README rely on its words). A rule, a check or an import that explains itself says the same
//! sentence in both, where the facts are known, as a [`Said`]; each front end picks its language
//! (the web Spanish, the CLI English). Spanish sentences write dates dd/mm/aaaa ([`fecha`]) and
//! pesos the es-CO way ([`crate::money::format_cop`]).

use std::fmt;

use chrono::NaiveDate;

/// A language a front end speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Spanish (Colombia): the web interface and documents.
    Es,
    /// English: the command line.
    En,
}

/// One sentence said in both languages. There is no way to build one from a single language:
/// a reason shown on a Spanish page must have been written in Spanish.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Said {
    en: String,
    es: String,
}

impl Said {
    /// The sentence in English and in Spanish.
    pub fn new(en: impl Into<String>, es: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            es: es.into(),
        }
    }

    /// The sentence in `lang`.
    pub fn in_lang(&self, lang: Lang) -> &str {
        match lang {
            Lang::Es => &self.es,
            Lang::En => &self.en,
        }
    }

    pub fn en(&self) -> &str {
        &self.en
    }

    pub fn es(&self) -> &str {
        &self.es
    }
}

/// In English, the command line's language (and the logs').
impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

/// `said!("english {x}", "español {x}")`: both sentences formatted with the same arguments in
/// scope (the Spanish one usually with [`fecha`] and `format_cop` values bound before).
#[macro_export]
macro_rules! said {
    ($en:literal, $es:literal $(,)?) => {
        $crate::lang::Said::new(format!($en), format!($es))
    };
}

/// A date as Colombians write it: dd/mm/aaaa.
pub fn fecha(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_gets_its_own_sentence() {
        let n = 3;
        let s = said!("{n} shares", "{n} acciones");
        assert_eq!(s.in_lang(Lang::En), "3 shares");
        assert_eq!(s.in_lang(Lang::Es), "3 acciones");
        assert_eq!(s.to_string(), "3 shares");
    }

    #[test]
    fn fecha_is_day_month_year() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 7).unwrap();
        assert_eq!(fecha(d), "07/03/2026");
    }
}
