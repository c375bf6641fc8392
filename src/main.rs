//! The `vigia` binary: parse, run, map the outcome to an exit status. The only place that prints
//! errors. 0 = ok, 1 = findings, 2 = error; a closed output pipe exits quietly. The only place
//! that reads the language from the environment (`VIGIA_LANG`, the locale's `LC_ALL`,
//! `LC_MESSAGES`, `LANG`); [`Lang::of_run`] chooses with `--lang`, and the commands get the
//! language as a value.

use clap::FromArgMatches;
use std::io::Write;
use std::process::ExitCode;
use vigia::cli::{self, Cli, Status};
use vigia::lang::Lang;

/// What the environment asks for: `VIGIA_LANG` as set, and the locale's language.
fn environment() -> (Option<String>, Lang) {
    let var = |name: &str| std::env::var(name).ok();
    let locale = Lang::of_locale(
        var("LC_ALL").as_deref(),
        var("LC_MESSAGES").as_deref(),
        var("LANG").as_deref(),
    );
    (var("VIGIA_LANG"), locale)
}

fn main() -> ExitCode {
    // the language of the help and of clap's refusals, before parsing: the same rule with
    // `--lang` as written on the line (an unreadable VIGIA_LANG is refused after parsing; until
    // then the locale's)
    let (vigia_lang, locale) = environment();
    let early = Lang::of_run(
        cli::clap_lang::early_lang(std::env::args_os()),
        vigia_lang.as_deref(),
        locale,
    )
    .unwrap_or(locale);
    let parsed = cli::clap_lang::command(early)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        // --help and --version, on stdout as clap writes them
        Err(e) if !e.use_stderr() => {
            let _closed = e.print();
            return ExitCode::SUCCESS;
        }
        // a usage error quotes the value typed: with its control characters escaped, so that
        // a refused `--address $'\e[2J'` does not reach the terminal as typed
        Err(e) => {
            let text = cli::clap_lang::error_in(&e, early);
            let lines: Vec<String> = text.split('\n').map(vigia::input::escaped).collect();
            eprint!("{}", lines.join("\n"));
            return ExitCode::from(2);
        }
    };
    let lang = match Lang::of_run(cli.lang, vigia_lang.as_deref(), locale) {
        Ok(lang) => lang,
        // refused in the locale's language
        Err(typed) => {
            let typed = vigia::input::escaped(typed);
            let said = vigia::said!(cli::vigia_lang_is_no_language, typed);
            eprintln!("vigia: error: {}", said.in_lang(locale));
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = cli::run(cli, lang, &mut out)
        .and_then(|s| out.flush().map(|_| s).map_err(cli::CliError::Io));
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Findings) => ExitCode::from(1),
        Ok(Status::Lapsed) => ExitCode::from(3),
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _unwritten = out.into_parts(); // nothing half-written reaches stdout
            eprintln!("vigia: error: {}", e.describe(lang));
            ExitCode::from(2)
        }
    }
}
