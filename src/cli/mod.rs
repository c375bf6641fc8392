//! The command line: clap definitions (one file per command group), flag parsing into validated
//! core inputs, and the CLI error type whose `Display` names the flag, the value and what to do.
//! Prints results to the writer it is given; never prints errors (that is `main`'s job).

pub mod args;
pub mod fine;
pub mod rates;

use crate::fine::{Field, FineError};
use crate::rates::{InvalidRates, RateSeries};
use clap::{Parser, Subcommand};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// vigia — register and fine calculator for the lock-up of Ley 226 de 1995 share sales.
///
/// Computes the Art. 9 fine (Decreto 3939 de 2004 and programs like it): the bracket of the
/// breach date, the highest reference price, and the adjustment at the maximum legal moratorium
/// rate certified by the Superintendencia Financiera. Exit status: 0 ok, 1 findings (e.g. `rates
/// check` found problems), 2 error (bad input, missing rates, unreadable file).
#[derive(Debug, Parser)]
#[command(name = "vigia", version, max_term_width = 100)]
pub struct Cli {
    /// Certified rate series to use instead of the embedded SFC series (CSV with header
    /// valid_from,valid_to,ibc_ea_pct,usury_ea_pct[,resolution,...]).
    #[arg(long, global = true, value_name = "FILE")]
    pub rates: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute fines.
    #[command(subcommand)]
    Fine(fine::FineCommand),
    /// Show and check certified rate series.
    #[command(subcommand)]
    Rates(rates::RatesCommand),
}

/// What a successful run reports to a scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit 0: nothing needs attention.
    Ok,
    /// Exit 1: the command ran and found something that needs attention.
    Findings,
}

/// Everything a command needs from outside: where to write, and which rate series to use.
pub struct Ctx<'a> {
    pub out: &'a mut dyn Write,
    rates_path: Option<PathBuf>,
}

impl Ctx<'_> {
    /// The rate series in force: `--rates FILE`, else the embedded SFC series.
    pub fn rates(&self) -> Result<RateSeries, CliError> {
        match &self.rates_path {
            None => Ok(RateSeries::shipped()),
            Some(path) => {
                let text = read_file(path, "--rates")?;
                RateSeries::from_csv(&text, &path.display().to_string()).map_err(CliError::Rates)
            }
        }
    }
}

/// Reads a whole text file, naming the flag on failure.
pub fn read_file(path: &Path, flag: &'static str) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::File {
        flag,
        path: path.to_path_buf(),
        error: e.to_string(),
    })
}

/// Every way a command can fail; all map to exit status 2 except a broken pipe.
#[derive(Debug)]
pub enum CliError {
    /// A flag's value is wrong on its own or together with others.
    Flag {
        flag: String,
        value: String,
        reason: String,
    },
    File {
        flag: &'static str,
        path: PathBuf,
        error: String,
    },
    Rates(InvalidRates),
    Fine(FineError),
    Io(io::Error),
}

impl CliError {
    /// True when the reader of our output went away (e.g. `vigia rates list | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Flag {
                flag,
                value,
                reason,
            } => write!(f, "{flag} {value}: {reason}"),
            CliError::File { flag, path, error } => {
                write!(
                    f,
                    "{flag} {}: cannot read the file ({error}); check the path",
                    path.display()
                )
            }
            CliError::Rates(e) => e.fmt(f),
            CliError::Fine(e) => e.fmt(f),
            CliError::Io(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

impl From<FineError> for CliError {
    /// Names the flag the person typed instead of the engine's field.
    fn from(e: FineError) -> Self {
        match e {
            FineError::Invalid {
                field,
                value,
                reason,
            } => CliError::Flag {
                flag: fine::flag_of(field).to_string(),
                value,
                reason: match field {
                    Field::Payment(i) => format!("(payment #{}) {reason}", i + 1),
                    _ => reason,
                },
            },
            other => CliError::Fine(other),
        }
    }
}

/// Runs a parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<Status, CliError> {
    let mut ctx = Ctx {
        out,
        rates_path: cli.rates,
    };
    match cli.command {
        Command::Fine(cmd) => cmd.run(&mut ctx),
        Command::Rates(cmd) => cmd.run(&mut ctx),
    }
}
