//! The command line in the run's language before it is parsed: [`command`] gives the clap
//! command tree with its help in Spanish ([`super::help_es`]) when the run speaks Spanish, and
//! [`error_in`] words clap's refusals (an unknown flag, a missing argument, a value the one
//! reader refused) in Spanish, the value reader's own sentence included ([`super::args::Unread`]).
//! [`early_lang`] finds the language before parsing: `--lang` on the line, else the environment
//! main.rs passes. English is clap's own wording of the doc comments, untouched.

use super::Cli;
use super::args::Unread;
use super::help_es::ES;
use crate::lang::Lang;
use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::collections::HashMap;

/// The `--lang` value written on the command line (`--lang es`, `--lang=es`), if it names a
/// language; `None` when absent or not a language (clap then refuses it in the environment's
/// language).
pub fn early_lang<I, S>(args: I) -> Option<Lang>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut args = args
        .into_iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned());
    let mut found = None;
    while let Some(a) = args.next() {
        if a == "--" {
            break;
        }
        if a == "--lang" {
            found = args.next().and_then(|v| Lang::parse(&v));
        } else if let Some(v) = a.strip_prefix("--lang=") {
            found = Lang::parse(v);
        }
    }
    found
}

const TEMPLATE_ES: &str =
    "{before-help}{about-with-newline}\nUso: {usage}\n\n{all-args}{after-help}";

/// The command tree of `lang`, the options every command has listed last: clap's own wording
/// for English; for Spanish every command's and
/// argument's text from the catalogue, the headings, the usage line and the lists of values
/// and defaults in Spanish.
pub fn command(lang: Lang) -> clap::Command {
    let mut cmd = Cli::command();
    cmd.build();
    let cmd = globals_last(cmd);
    if lang == Lang::En {
        return cmd;
    }
    let texts: HashMap<(&str, &str), &str> = ES.iter().map(|(p, a, t)| ((*p, *a), *t)).collect();
    spanish(cmd, "", &texts)
}

fn spanish(
    mut cmd: clap::Command,
    path: &str,
    texts: &HashMap<(&str, &str), &str>,
) -> clap::Command {
    let text = |id: &str| texts.get(&(path, id)).map(|t| t.to_string());
    let ids: Vec<(String, bool)> = cmd
        .get_arguments()
        .map(|a| (a.get_id().to_string(), a.is_global_set()))
        .collect();
    // every argument is passed through `mut_arg`, in order (see `globals_last`)
    for (id, global) in ids {
        // a global option is described once, at vigia's own level
        let at = if global { "" } else { path };
        let own = texts.get(&(at, id.as_str())).map(|t| t.to_string());
        cmd = cmd.mut_arg(&id, |a| spanish_arg(a, own));
    }
    let usage = cmd.render_usage().to_string();
    let usage = usage
        .trim_start_matches("Usage: ")
        .replace("[OPTIONS]", "[OPCIONES]")
        .replace("<COMMAND>", "<COMANDO>");
    if let Some(about) = text("") {
        cmd = cmd.about(about);
    } else if path.ends_with("help") || path == "help" {
        cmd = cmd.about("Muestra esta ayuda o la de los subcomandos dados");
    }
    cmd = match text("#long") {
        Some(t) => cmd.long_about(t),
        None => cmd.long_about(None::<&str>),
    };
    if let Some(t) = text("#after") {
        cmd = cmd.after_help(t.clone()).after_long_help(t);
    }
    cmd = cmd
        .help_template(TEMPLATE_ES)
        .override_usage(usage)
        .subcommand_help_heading("Comandos")
        .subcommand_value_name("COMANDO");
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        cmd = cmd.mut_subcommand(&name, |s| spanish(s, &sub_path, texts));
    }
    cmd
}

/// The options every command has (`--db`, `--officer`, `--rates`, `--key`, `--lang`) listed after
/// the command's own in each command's help, not among them.
fn globals_last(mut cmd: clap::Command) -> clap::Command {
    // every argument is passed through `mut_arg`, in order: on a built command that keeps the
    // arguments where clap's index of flags expects them
    let ids: Vec<(String, bool)> = cmd
        .get_arguments()
        .map(|a| (a.get_id().to_string(), a.is_global_set()))
        .collect();
    for (i, (id, global)) in ids.iter().enumerate() {
        cmd = cmd.mut_arg(id, |a| {
            if *global {
                a.display_order(1000 + i)
            } else {
                a
            }
        });
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(&name, globals_last);
    }
    cmd
}

fn spanish_arg(a: clap::Arg, own: Option<String>) -> clap::Arg {
    let mut help = match a.get_id().as_str() {
        "help" => "Muestra la ayuda (-h: un resumen, --help: completa)".to_string(),
        "version" => "Muestra la versión".to_string(),
        _ => own.unwrap_or_default(),
    };
    if a.get_action().takes_values() {
        let values: Vec<String> = a
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !values.is_empty() && !a.is_hide_possible_values_set() {
            help.push_str(&format!(" [valores: {}]", values.join(", ")));
        }
        let defaults: Vec<String> = a
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() && !a.is_hide_default_value_set() {
            help.push_str(&format!(" [por omisión: {}]", defaults.join(", ")));
        }
    }
    let names: Option<Vec<&'static str>> = a
        .get_value_names()
        .map(|v| v.iter().map(|n| value_name_es(n.as_str())).collect());
    let a = match names {
        Some(n) => a.value_names(n),
        None => a,
    };
    let heading = match a.get_help_heading() {
        Some(_) => None,
        None if a.is_positional() => Some("Argumentos"),
        None => Some("Opciones"),
    };
    let a = a
        .help(help.trim().to_string())
        .long_help(None::<&str>)
        .hide_possible_values(true)
        .hide_default_value(true);
    match heading {
        Some(h) => a.help_heading(h),
        None => a,
    }
}

/// A placeholder in a sentence (a refusal's suggested command) as the help of `lang` writes it:
/// the usage line's table ([`value_name_es`]), a bare `D` being a date.
pub(super) fn placeholder(lang: crate::lang::Lang, en: &'static str) -> &'static str {
    match (lang, en) {
        (crate::lang::Lang::En, _) => en,
        (crate::lang::Lang::Es, "D") => "FECHA",
        (crate::lang::Lang::Es, _) => value_name_es(en),
    }
}

/// A placeholder of the usage line in Spanish (`<FECHA>` for `<DATE>`); the tests check that
/// every placeholder of the tree is listed.
pub(super) fn value_name_es(name: &str) -> &'static str {
    match name {
        "DATE" => "FECHA",
        "FILE" => "ARCHIVO",
        "URL" => "URL",
        "PATH" => "RUTA",
        "NAME" => "NOMBRE",
        "TEXT" => "TEXTO",
        "CODE" => "CÓDIGO",
        "FORMAT" => "FORMATO",
        "PROGRAM" => "PROGRAMA",
        "STATUS" => "ESTADO",
        "BREACH" => "INCUMPLIMIENTO",
        "ADJUDICATION" => "ADJUDICACIÓN",
        "LIQUIDATION" => "LIQUIDACIÓN",
        "RANK" => "GRADO",
        "KIND" => "CLASE",
        "STAGE" => "ETAPA",
        "SHARES" => "ACCIONES",
        "LANG" => "IDIOMA",
        "SEVERITY" => "GRAVEDAD",
        "DAYS" => "DÍAS",
        "YEAR" => "AÑO",
        "ENTITY" => "TABLA",
        "SHELL" => "TERMINAL",
        "ROLE" => "ROL",
        "SECONDS" => "SEGUNDOS",
        "NUMBER" => "NÚMERO",
        "VIA" => "MEDIO",
        "TYPE" => "TIPO",
        "ADDRESS" => "CORREO",
        "MONTHS" => "MESES",
        "LIST" => "LISTA",
        "X" => "MONTO",
        "PCT" => "PCT",
        "DATE=AMOUNT" => "FECHA=MONTO",
        "ADDR:PORT" => "DIRECCIÓN:PUERTO",
        "FILE|CODE" => "ARCHIVO|CÓDIGO",
        "2|3|none" => "2|3|none",
        "CERT.p12" => "CERT.p12",
        "DIR" => "DIR",
        "DOC" => "DOC",
        "ID" => "ID",
        "NIT" => "NIT",
        "REF" => "REF",
        "N" => "N",
        "P" => "P",
        "C" => "C",
        "K" => "K",
        _ => UNLISTED,
    }
}

pub(super) const UNLISTED: &str = "VALOR";

fn quoted(e: &clap::Error, kind: ContextKind) -> String {
    match e.get(kind) {
        Some(ContextValue::String(s)) => format!("«{s}»"),
        Some(ContextValue::Strings(v)) => v
            .iter()
            .map(|s| format!("«{s}»"))
            .collect::<Vec<_>>()
            .join(", "),
        Some(ContextValue::StyledStr(s)) => format!("«{s}»"),
        Some(ContextValue::StyledStrs(v)) => v
            .iter()
            .map(|s| format!("«{s}»"))
            .collect::<Vec<_>>()
            .join(", "),
        Some(ContextValue::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// Clap's refusal `e` in `lang`: for English clap's own text; for Spanish the same facts in
/// Spanish, the value reader's sentence included, then the usage line and where to read more.
/// Help and version output (and the help shown for a command given without its subcommand) are
/// clap's rendering of the tree [`command`] built.
pub fn error_in(e: &clap::Error, lang: Lang) -> String {
    if lang == Lang::En || !e.use_stderr() {
        return e.render().to_string();
    }
    let arg = quoted(e, ContextKind::InvalidArg);
    let value = quoted(e, ContextKind::InvalidValue);
    let suggested = || {
        let s = quoted(e, ContextKind::SuggestedArg);
        let s = if s.is_empty() {
            quoted(e, ContextKind::SuggestedSubcommand)
        } else {
            s
        };
        let s = if s.is_empty() {
            quoted(e, ContextKind::SuggestedValue)
        } else {
            s
        };
        if s.is_empty() {
            String::new()
        } else {
            format!("\n\n  consejo: quizás quiso decir {s}")
        }
    };
    let valid = || {
        let v = quoted(e, ContextKind::ValidValue);
        if v.is_empty() {
            String::new()
        } else {
            format!("\n  [valores posibles: {v}]")
        }
    };
    let message = match e.kind() {
        ErrorKind::ValueValidation => {
            let source = std::error::Error::source(e);
            let reason = match source.and_then(|s| s.downcast_ref::<Unread>()) {
                Some(u) => u.0.es().to_string(),
                // a year read by clap's own integer parser: its words are Rust's, in English
                None if source.is_some_and(|s| s.is::<std::num::ParseIntError>()) => {
                    "no es un número entero: escriba solo sus cifras, p. ej. 12".to_string()
                }
                None => source.map(|s| s.to_string()).unwrap_or_default(),
            };
            format!("el valor {value} no es válido para {arg}: {reason}")
        }
        ErrorKind::InvalidValue if value == "«»" => {
            format!("{arg} necesita un valor y no se dio ninguno{}", valid())
        }
        ErrorKind::InvalidValue => {
            format!(
                "el valor {value} no es válido para {arg}{}{}",
                valid(),
                suggested()
            )
        }
        ErrorKind::UnknownArgument => format!("argumento inesperado {arg}{}", suggested()),
        ErrorKind::InvalidSubcommand => format!(
            "subcomando no reconocido {}{}",
            quoted(e, ContextKind::InvalidSubcommand),
            suggested()
        ),
        ErrorKind::NoEquals => format!("{arg} necesita «=» entre la opción y su valor"),
        ErrorKind::TooManyValues => format!("sobra el valor {value} de {arg}"),
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            format!("{arg} no recibió el número de valores que espera")
        }
        ErrorKind::ArgumentConflict => {
            let prior = quoted(e, ContextKind::PriorArg);
            if prior == arg {
                format!("{arg} se indicó más de una vez; indíquelo una sola vez")
            } else if prior.is_empty() {
                format!("{arg} no puede usarse con otro argumento dado")
            } else {
                format!("{arg} no puede usarse junto con {prior}")
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(v)) => v
                    .iter()
                    .map(|s| format!("  {s}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => String::new(),
            };
            format!("faltan los argumentos obligatorios:\n{missing}")
        }
        ErrorKind::MissingSubcommand => {
            format!(
                "falta el subcomando de {}",
                quoted(e, ContextKind::InvalidSubcommand)
            )
        }
        ErrorKind::InvalidUtf8 => "un argumento no es texto UTF-8 válido".to_string(),
        _ => return e.render().to_string(),
    };
    let usage = match e.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(u)) => {
            let u = u.to_string();
            let u = u
                .trim_start_matches("Usage:")
                .trim_start_matches("Uso:")
                .trim();
            format!("\n\nUso: {u}")
        }
        _ => String::new(),
    };
    format!("error: {message}{usage}\n\nPara más información, pruebe «--help».\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn keys(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String, bool)>) {
        let about = cmd.get_about().is_some();
        out.push((path.to_string(), String::new(), about));
        if cmd.get_long_about().is_some() {
            out.push((path.to_string(), "#long".into(), true));
        }
        if cmd.get_after_help().is_some() {
            out.push((path.to_string(), "#after".into(), true));
        }
        for a in cmd.get_arguments() {
            out.push((
                path.to_string(),
                a.get_id().to_string(),
                a.get_help().is_some(),
            ));
        }
        for s in cmd.get_subcommands() {
            let p = if path.is_empty() {
                s.get_name().to_string()
            } else {
                format!("{path} {}", s.get_name())
            };
            keys(s, &p, out);
        }
    }

    #[test]
    fn every_command_and_argument_has_its_spanish_text_and_every_entry_names_one() {
        let mut all = Vec::new();
        keys(&Cli::command(), "", &mut all);
        let spanish: HashSet<(&str, &str)> = ES.iter().map(|(p, a, _)| (*p, *a)).collect();
        let english: HashSet<(String, String)> =
            all.iter().map(|(p, a, _)| (p.clone(), a.clone())).collect();
        let missing: Vec<String> = all
            .iter()
            .filter(|(_, _, has)| *has)
            .filter(|(p, a, _)| !spanish.contains(&(p.as_str(), a.as_str())))
            .map(|(p, a, _)| format!("{p:?} {a:?}"))
            .collect();
        assert!(missing.is_empty(), "no Spanish text for: {missing:#?}");
        let stale: Vec<String> = ES
            .iter()
            .filter(|(p, a, _)| !english.contains(&(p.to_string(), a.to_string())))
            .map(|(p, a, _)| format!("{p:?} {a:?}"))
            .collect();
        assert!(stale.is_empty(), "Spanish texts for nothing: {stale:#?}");
        assert_eq!(spanish.len(), ES.len(), "an entry is repeated");
    }

    fn placeholders(cmd: &clap::Command, out: &mut Vec<String>) {
        for a in cmd
            .get_arguments()
            .filter(|a| a.get_action().takes_values())
        {
            for n in a.get_value_names().unwrap_or_default() {
                if value_name_es(n.as_str()) == UNLISTED {
                    out.push(format!("{} {}", cmd.get_name(), n));
                }
            }
        }
        cmd.get_subcommands().for_each(|s| placeholders(s, out));
    }

    #[test]
    fn every_placeholder_has_its_spanish_name() {
        let mut cmd = Cli::command();
        cmd.build();
        let mut unlisted = Vec::new();
        placeholders(&cmd, &mut unlisted);
        assert!(
            unlisted.is_empty(),
            "no Spanish placeholder for: {unlisted:?}"
        );
    }

    #[test]
    fn spanish_help_and_refusals_are_spanish() {
        let help = command(Lang::Es)
            .try_get_matches_from(["vigia", "fine", "quote", "--help"])
            .unwrap_err()
            .render()
            .to_string();
        assert!(
            help.contains("Uso: vigia fine quote [OPCIONES] --adjudicated <FECHA>"),
            "{help}"
        );
        assert!(
            help.contains("Opciones:") && !help.contains("Options:"),
            "{help}"
        );
        // a global option keeps the text written once at vigia's level
        assert!(help.contains("Base de datos del registro"), "{help}");
        assert!(help.contains("[por omisión: daily-simple]"), "{help}");
        let e = command(Lang::Es)
            .try_get_matches_from(["vigia", "fine", "quote", "--shares", "1.450,5"])
            .unwrap_err();
        assert_eq!(
            error_in(&e, Lang::Es),
            "error: el valor «1.450,5» no es válido para «--shares <N>»: «1.450,5» se lee 1.450,5, \
             que no es un número entero; escriba un entero, p. ej. 4.000\n\n\
             Para más información, pruebe «--help».\n"
        );
        // a record's number, read as a count by `args::id`
        let e = command(Lang::Es)
            .try_get_matches_from(["vigia", "breach", "show", "abc"])
            .unwrap_err();
        assert_eq!(
            error_in(&e, Lang::Es),
            "error: el valor «abc» no es válido para «<ID>»: «abc» no es el número de un registro: \
             escriba sus cifras, p. ej. 12\n\n\
             Para más información, pruebe «--help».\n"
        );
        // a year, read by the one reader (clap read it once, and Rust's English words showed)
        let e = command(Lang::Es)
            .try_get_matches_from(["vigia", "calendar", "holidays", "abc"])
            .unwrap_err();
        assert_eq!(
            error_in(&e, Lang::Es),
            "error: el valor «abc» no es válido para «<AÑO>»: «abc» no es un año: escriba sus \
             cuatro cifras, sin puntos, p. ej. 2026\n\n\
             Para más información, pruebe «--help».\n"
        );
        // English stays clap's own
        let e = command(Lang::En)
            .try_get_matches_from(["vigia", "fine", "quote", "--shares", "1.450,5"])
            .unwrap_err();
        assert!(
            error_in(&e, Lang::En).starts_with("error: invalid value '1.450,5' for '--shares <N>'")
        );
    }

    #[test]
    fn the_lang_flag_is_found_before_parsing() {
        assert_eq!(
            early_lang(["vigia", "--lang", "es", "check"]),
            Some(Lang::Es)
        );
        assert_eq!(early_lang(["vigia", "check", "--lang=en"]), Some(Lang::En));
        assert_eq!(early_lang(["vigia", "--lang", "fr", "check"]), None);
        assert_eq!(
            early_lang(["vigia", "breach", "record", "--", "--lang", "es"]),
            None
        );
        assert_eq!(early_lang(["vigia", "check"]), None);
    }
}
