//! The command line speaks Spanish unless told otherwise: with no `--lang` and no `VIGIA_LANG`,
//! English only when the locale is English (`LANG=en_US.UTF-8`); a server's `C`, `C.UTF-8` or
//! `POSIX`, no locale at all, or another language's gets the Spanish help, Spanish refusals
//! (clap's and vigia's own) and Spanish lines.

use crate::common::{self, Reg};
use std::process::Output;

/// Runs `args` with `VIGIA_LANG`, `LC_ALL` and `LC_MESSAGES` unset (as the harness runs) and
/// `LANG` set to `lang`, or unset too when `None`.
fn under(r: &Reg, lang: Option<&str>, args: &[&str]) -> Output {
    let mut c = r.command();
    match lang {
        Some(l) => c.env("LANG", l),
        None => c.env_remove("LANG"),
    };
    c.args(args).output().unwrap()
}

/// Where no locale says English: a server's or a container's, none, another language's.
const NOT_ENGLISH: [Option<&str>; 5] = [
    Some("C"),
    Some("C.UTF-8"),
    Some("POSIX"),
    None,
    Some("fr_FR.UTF-8"),
];

#[test]
fn the_help_is_spanish_unless_the_locale_is_english() {
    let r = Reg::without_register();
    for lang in NOT_ENGLISH {
        let o = under(&r, lang, &["--help"]);
        assert_eq!(o.status.code(), Some(0), "LANG={lang:?}");
        let help = common::out(&o);
        assert!(
            help.contains("Uso: vigia [OPCIONES] <COMANDO>"),
            "LANG={lang:?}: {help}"
        );
        assert!(
            help.contains("  fine           Cálculo de multas"),
            "{help}"
        );
        assert!(!help.contains("Usage:"), "LANG={lang:?}: {help}");
        let o = under(&r, lang, &["fine", "quote", "-h"]);
        let quote = common::out(&o);
        assert!(
            quote.contains("Uso: vigia fine quote [OPCIONES] --adjudicated <FECHA>"),
            "LANG={lang:?}: {quote}"
        );
    }
    let o = under(&r, Some("en_US.UTF-8"), &["--help"]);
    let help = common::out(&o);
    assert!(help.contains("Usage: vigia [OPTIONS] <COMMAND>"), "{help}");
    assert!(!help.contains("Uso:"), "{help}");
}

#[test]
fn clap_refuses_in_spanish_unless_the_locale_is_english() {
    let r = Reg::without_register();
    for lang in NOT_ENGLISH {
        let o = under(&r, lang, &["breach", "recrd"]);
        assert_eq!(o.status.code(), Some(2), "LANG={lang:?}");
        assert!(o.stdout.is_empty());
        assert_eq!(
            common::err(&o),
            "error: subcomando no reconocido «recrd»\n\n  consejo: quizás quiso decir «record»\n\n\
             Uso: vigia breach [OPCIONES] <COMANDO>\n\nPara más información, pruebe «--help».\n",
            "LANG={lang:?}"
        );
    }
    let o = under(&r, Some("en_US.UTF-8"), &["breach", "recrd"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::err(&o).starts_with("error: unrecognized subcommand 'recrd'"),
        "{}",
        common::err(&o)
    );
}

/// A refusal after parsing (the fine engine's: a breach dated before the adjudication): Spanish,
/// with the date dd/mm/aaaa, under `C` and the like, English under `en_US.UTF-8`.
#[test]
fn vigia_speaks_spanish_unless_the_locale_is_english() {
    let r = Reg::without_register();
    let args = crate::common::QUOTE_BREACH_BEFORE_ADJUDICATION;
    for lang in NOT_ENGLISH {
        let o = under(&r, lang, &args);
        assert_eq!(o.status.code(), Some(2), "LANG={lang:?}");
        let e = common::err(&o);
        assert!(
            e.starts_with("vigia: error: ")
                && e.contains("14/03/2024")
                && e.contains("adjudicación"),
            "LANG={lang:?}: {e}"
        );
    }
    let o = under(&r, Some("en_US.UTF-8"), &args);
    assert_eq!(o.status.code(), Some(2));
    let e = common::err(&o);
    assert!(e.contains("is before the adjudication date"), "{e}");
}
