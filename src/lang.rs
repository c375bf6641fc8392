//! The two languages vigia speaks. Spanish is its users' language: every page of the web
//! interface, every document, and the command line unless told otherwise. The command line
//! speaks the one [`Lang::of_run`] chooses (`--lang`, else `VIGIA_LANG`, else the locale:
//! English only when the locale is English, [`Lang::of_locale`]). A rule, a check or an import
//! that explains itself says the same sentence in both,
//! where the facts are known, as a [`Said`]; each front end picks its language. Spanish sentences write dates dd/mm/aaaa ([`fecha`]) and
//! pesos the es-CO way ([`crate::money::format_cop`]).

use std::fmt;

use chrono::NaiveDate;

/// A language a front end speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Spanish (Colombia): the web interface, documents, and the command line's default.
    Es,
    /// English: the command line when asked for (`--lang en`, `VIGIA_LANG=en`, an English
    /// locale).
    En,
}

impl Lang {
    /// `es` or `en` as typed after `--lang` or in `VIGIA_LANG` (any case, surrounding blanks
    /// ignored); anything else is no language.
    pub fn parse(typed: &str) -> Option<Lang> {
        match typed.trim().to_ascii_lowercase().as_str() {
            "es" => Some(Lang::Es),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language the locale asks for, the POSIX way: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` (in that order) decides; English when it starts with `en`
    /// (`en_US.UTF-8`, `en`), Spanish otherwise: a Spanish locale, `C`, `C.UTF-8`, `POSIX`,
    /// another language, or all three empty or unset (a server, a container, cron).
    pub fn of_locale(lc_all: Option<&str>, lc_messages: Option<&str>, lang: Option<&str>) -> Lang {
        let first = [lc_all, lc_messages, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty());
        match first {
            Some(v) if v.starts_with("en") => Lang::En,
            _ => Lang::Es,
        }
    }

    /// The language of a run of the command line, the one rule: `flag` (`--lang`), else
    /// `vigia_lang` (`VIGIA_LANG`; unset or blank is no choice), else `locale` (what
    /// [`Lang::of_locale`] says of the environment). A `VIGIA_LANG` that is no language is
    /// refused: `Err` with its value as typed.
    pub fn of_run(
        flag: Option<Lang>,
        vigia_lang: Option<&str>,
        locale: Lang,
    ) -> Result<Lang, &str> {
        if let Some(lang) = flag {
            return Ok(lang);
        }
        match vigia_lang.filter(|v| !v.trim().is_empty()) {
            Some(v) => Lang::parse(v).ok_or(v),
            None => Ok(locale),
        }
    }
}

/// One sentence said in both languages. There is no way to build one from a single language:
/// a reason shown on a Spanish page must have been written in Spanish.
/// A fixed sentence (a literal) is kept as it is, not copied: the readers of an import build the
/// sentence a column's problem would say for every row, before knowing whether it has one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Said {
    en: std::borrow::Cow<'static, str>,
    es: std::borrow::Cow<'static, str>,
}

impl Said {
    /// The sentence in English and in Spanish.
    pub fn new(
        en: impl Into<std::borrow::Cow<'static, str>>,
        es: impl Into<std::borrow::Cow<'static, str>>,
    ) -> Said {
        Said {
            en: en.into(),
            es: es.into(),
        }
    }

    /// The sentence `words` says in each language (a catalogue's function of the language).
    pub fn each(words: impl Fn(Lang) -> String) -> Said {
        Said::new(words(Lang::En), words(Lang::Es))
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

/// In English, the logs' language; a front end that speaks picks with [`Said::in_lang`].
impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.en)
    }
}

/// `said!(area::key, x, y)`: the sentence `key` of the catalogues' `area` in English
/// (`said::en`) and Spanish (`said::es`), each given the facts `x` and `y` in scope (the Spanish
/// one usually with [`fecha`] and `format_cop` values bound before). Every sentence the code
/// says lives in those two catalogues; the literal form `said!("english", "español")` is for
/// tests only (a test in `said` keeps it so).
#[macro_export]
macro_rules! said {
    ($area:ident :: $key:ident $(, $arg:ident)* $(,)?) => {
        $crate::lang::Said::new(
            $crate::said::en::$area::$key($(&$arg),*),
            $crate::said::es::$area::$key($(&$arg),*),
        )
    };
    ($en:literal, $es:literal $(,)?) => {
        $crate::lang::Said::new(format!($en), format!($es))
    };
}

/// Rewrites every `YYYY-MM-DD` in `s` as `DD/MM/YYYY`.
pub fn iso_dates_to_short(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if i + 10 <= b.len()
            && s.is_char_boundary(i)
            && s.is_char_boundary(i + 10)
            && (i == 0 || !b[i - 1].is_ascii_digit())
            && (i + 10 == b.len() || !b[i + 10].is_ascii_digit())
            && let Some(d) = crate::calendar::parse_iso(&s[i..i + 10])
        {
            out.push_str(&fecha(d));
            i += 10;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The months of the year in Spanish, January first (`MESES[d.month0()]`).
pub const MESES: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];

/// A date as Colombians write it: dd/mm/aaaa.
pub fn fecha(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// A whole number (a count of shares) with es-CO thousands: `1.087.500`.
pub fn numero(n: u64) -> String {
    crate::money::format_number(rust_decimal::Decimal::from(n))
}

/// `n` and the words for it, singular or plural: `1 problema`, `3 problemas`, `1.000 acciones`.
pub fn cuenta(n: u64, singular: &str, plural: &str) -> String {
    format!("{} {}", numero(n), if n == 1 { singular } else { plural })
}

/// A stored UTC time (RFC 3339, as the register writes `created_at`) in Colombia's legal time,
/// as an officer reads a clock: `dd/mm/aaaa hh:mm (hora de Colombia)`; any other text as it is.
pub fn momento(at: &str) -> String {
    let colombia = crate::calendar::colombia();
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|t| {
            t.with_timezone(&colombia)
                .format("%d/%m/%Y %H:%M (hora de Colombia)")
                .to_string()
        })
        .unwrap_or_else(|_| at.to_string())
}

/// A value as each language writes it, for a sentence that quotes it (the value a rule
/// refused): a date ISO in English and dd/mm/aaaa in Spanish, a count or an amount with es-CO
/// separators in Spanish (`1.001`, `-1.450,5`), an id or a text as it is in both.
pub trait Shown {
    fn shown(&self, lang: Lang) -> String;

    /// Both languages' writing.
    fn said(&self) -> Said {
        Said::each(|lang| self.shown(lang))
    }
}

impl Shown for NaiveDate {
    fn shown(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Es => fecha(*self),
        }
    }
}

impl Shown for rust_decimal::Decimal {
    fn shown(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Es => crate::money::format_number(*self),
        }
    }
}

/// A count of shares (`u64` is what the register counts shares in).
impl Shown for u64 {
    fn shown(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Es => numero(*self),
        }
    }
}

/// Ids, degrees, stages, tranches: numbers that name, written without separators.
macro_rules! shown_as_is {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn shown(&self, _: Lang) -> String {
                self.to_string()
            }
        }
    )*};
}
shown_as_is!(i64, u8, u32, str, String);

impl<T: Shown + ?Sized> Shown for &T {
    fn shown(&self, lang: Lang) -> String {
        (**self).shown(lang)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_locale_decides_posix_order_first_non_empty() {
        use super::Lang;
        assert_eq!(Lang::of_locale(None, None, Some("es_CO.UTF-8")), Lang::Es);
        assert_eq!(Lang::of_locale(None, None, Some("en_US.UTF-8")), Lang::En);
        // LC_ALL wins over LANG, LC_MESSAGES over LANG; an empty one is skipped.
        assert_eq!(
            Lang::of_locale(Some("en_GB.UTF-8"), None, Some("es_CO.UTF-8")),
            Lang::En
        );
        assert_eq!(
            Lang::of_locale(Some("C"), None, Some("en_US.UTF-8")),
            Lang::Es
        );
        assert_eq!(
            Lang::of_locale(None, Some("es_ES"), Some("en_US")),
            Lang::Es
        );
        assert_eq!(
            Lang::of_locale(None, Some("en_US"), Some("es_CO")),
            Lang::En
        );
        assert_eq!(Lang::of_locale(Some(""), Some(""), Some("en")), Lang::En);
        assert_eq!(Lang::of_locale(Some(""), Some(""), Some("es")), Lang::Es);
        assert_eq!(
            Lang::of_locale(Some("POSIX"), Some("en_US"), None),
            Lang::Es
        );
    }

    /// Spanish unless the locale is English: a server's, a container's or cron's locale
    /// (`C`, `C.UTF-8`, `POSIX`, none) and other languages get Spanish.
    #[test]
    fn spanish_unless_the_locale_is_english() {
        use super::Lang;
        let of_lang = |v: Option<&str>| Lang::of_locale(None, None, v);
        for es in [
            Some("C"),
            Some("C.UTF-8"),
            Some("POSIX"),
            None,
            Some(""),
            Some("es_CO.UTF-8"),
            Some("fr_FR.UTF-8"),
            Some("pt_BR"),
        ] {
            assert_eq!(of_lang(es), Lang::Es, "LANG={es:?}");
        }
        for en in [Some("en_US.UTF-8"), Some("en_GB"), Some("en")] {
            assert_eq!(of_lang(en), Lang::En, "LANG={en:?}");
        }
        assert_eq!(Lang::of_locale(None, None, None), Lang::Es);
    }

    #[test]
    fn the_flag_then_vigia_lang_then_the_locale() {
        use super::Lang;
        let (es, en) = (Lang::Es, Lang::En);
        // --lang beats VIGIA_LANG, which beats the locale
        assert_eq!(Lang::of_run(Some(en), Some("es"), es), Ok(en));
        assert_eq!(Lang::of_run(Some(es), Some("fr"), en), Ok(es));
        assert_eq!(Lang::of_run(None, Some(" EN "), es), Ok(en));
        assert_eq!(Lang::of_run(None, Some("es"), en), Ok(es));
        // unset or blank: the locale's
        assert_eq!(Lang::of_run(None, None, en), Ok(en));
        assert_eq!(Lang::of_run(None, Some("  "), es), Ok(es));
        // a value that is no language is refused, as typed
        assert_eq!(Lang::of_run(None, Some("fr"), en), Err("fr"));
    }

    #[test]
    fn only_es_and_en_are_languages() {
        use super::Lang;
        assert_eq!(Lang::parse("es"), Some(Lang::Es));
        assert_eq!(Lang::parse(" EN "), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
    }

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

    #[test]
    fn momento_is_day_month_year_in_colombian_time() {
        // 14:05 UTC is 09:05 in Bogotá; 03:00 UTC is still the day before there
        assert_eq!(
            momento("2025-02-10T14:05:09Z"),
            "10/02/2025 09:05 (hora de Colombia)"
        );
        assert_eq!(
            momento("2025-03-01T03:00:00Z"),
            "28/02/2025 22:00 (hora de Colombia)"
        );
        assert_eq!(
            momento("2025-03-01T03:00:00-05:00"),
            "01/03/2025 03:00 (hora de Colombia)"
        );
        assert_eq!(momento("yesterday"), "yesterday");
    }

    #[test]
    fn values_are_shown_each_language_its_way() {
        let d = NaiveDate::from_ymd_opt(2024, 11, 20).unwrap();
        assert_eq!(d.said(), Said::new("2024-11-20", "20/11/2024"));
        assert_eq!(1001u64.said(), Said::new("1001", "1.001"));
        let amount = crate::money::dec("-1450.50");
        assert_eq!(amount.said(), Said::new("-1450.50", "-1.450,5"));
        // ids and texts as they are
        assert_eq!(1234i64.said(), Said::new("1234", "1234"));
        assert_eq!(
            "MULTA-2025-0007".said(),
            Said::new("MULTA-2025-0007", "MULTA-2025-0007")
        );
    }
}
