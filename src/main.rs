//! The `vigia` binary: parse, run, map the outcome to an exit status. The only place that prints
//! errors. 0 = ok, 1 = findings, 2 = error; a closed output pipe exits quietly.

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use vigia::cli::{self, Cli, Status};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version, on stdout as clap writes them
        Err(e) if !e.use_stderr() => {
            let _closed = e.print();
            return ExitCode::SUCCESS;
        }
        // a usage error quotes the value typed: with its control characters escaped, so that
        // a refused `--address $'\e[2J'` does not reach the terminal as typed
        Err(e) => {
            let text = e.render().to_string();
            let lines: Vec<String> = text.split('\n').map(vigia::input::escaped).collect();
            eprint!("{}", lines.join("\n"));
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result =
        cli::run(cli, &mut out).and_then(|s| out.flush().map(|_| s).map_err(cli::CliError::Io));
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Findings) => ExitCode::from(1),
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _unwritten = out.into_parts(); // nothing half-written reaches stdout
            eprintln!("vigia: error: {e}");
            ExitCode::from(2)
        }
    }
}
