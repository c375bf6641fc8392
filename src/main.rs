//! The `vigia` binary: parse, run, map the outcome to an exit status. The only place that prints
//! errors. 0 = ok, 1 = findings, 2 = error; a closed output pipe exits quietly. The only place
//! that reads the language from the environment: `--lang`, else `VIGIA_LANG`, else the locale
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`); the commands get it as a value.

use clap::FromArgMatches;
use std::io::Write;
use std::process::ExitCode;
use vigia::cli::{self, Cli, Status};
use vigia::lang::Lang;

/// The language of this run: `--lang`, else `VIGIA_LANG` (a value that is no language is
/// refused), else the locale's.
fn language(flag: Option<Lang>) -> Result<Lang, String> {
    if let Some(lang) = flag {
        return Ok(lang);
    }
    let var = |name: &str| std::env::var(name).ok();
    match var("VIGIA_LANG").filter(|v| !v.trim().is_empty()) {
        Some(v) => Lang::parse(&v).ok_or_else(|| {
            format!(
                "VIGIA_LANG {}: vigia speaks es (Spanish) or en (English); set it to one of them or unset it",
                vigia::input::escaped(&v)
            )
        }),
        None => Ok(Lang::of_locale(
            var("LC_ALL").as_deref(),
            var("LC_MESSAGES").as_deref(),
            var("LANG").as_deref(),
        )),
    }
}

fn main() -> ExitCode {
    // the language of the help and of clap's refusals, before parsing: `--lang` on the line,
    // else the environment's (an unreadable VIGIA_LANG is refused after parsing)
    let early = cli::clap_lang::early_lang(std::env::args_os())
        .or_else(|| language(None).ok())
        .unwrap_or(Lang::En);
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
    let lang = match language(cli.lang) {
        Ok(lang) => lang,
        Err(e) => {
            eprintln!("vigia: error: {e}");
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
