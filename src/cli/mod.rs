//! The command line: clap definitions (one file per command group), flag parsing into validated
//! core inputs, and the CLI error type whose `Display` names the flag, the value and what to do.
//! Prints results to the writer it is given; never prints errors (that is `main`'s job).

pub(crate) mod acceptances;
mod acta_record;
pub(crate) mod adjudications;
pub(crate) mod args;
pub(crate) mod audit;
mod audit_words;
pub(crate) mod backup;
pub(crate) mod breach;
pub(crate) mod calendar;
pub(crate) mod check;
pub mod clap_lang;
#[cfg(test)]
mod command_text_tests;
pub(crate) mod demo;
pub(crate) mod fine;
pub(crate) mod help_es;
pub(crate) mod holder;
pub(crate) mod letters;
pub(crate) mod notice;
pub(crate) mod offer;
pub(crate) mod offer_external;
pub(crate) mod out;
pub(crate) mod payment;
pub(crate) mod places;
pub(crate) mod pledge;
pub(crate) mod program;
pub(crate) mod progress;
pub(crate) mod proposals;
pub(crate) mod rates;
pub(crate) mod remedy;
pub(crate) mod serve;
pub(crate) mod settlement;
pub(crate) mod shell;
pub(crate) mod sign;
pub(crate) mod stage;
mod stage_verify;
mod stage_words;
pub(crate) mod template;
pub(crate) mod user;

use crate::catalogue::msg::Msg;
use crate::fine::{Field, FineError};
use crate::lang::Lang;
use crate::rates::{InvalidRates, RateSeries};
use crate::register;
use crate::store::checkpoint::{self, CheckpointError};
use crate::store::{Store, StoreError};
use clap::{Parser, Subcommand};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// vigia — register and fine calculator for the lock-up of Ley 226 de 1995 share sales.
///
/// Computes the Art. 9 fine (Decreto 3939 de 2004 and programs like it): the bracket of the
/// breach date, the highest reference price, and the adjustment at the maximum legal moratorium
/// rate certified by the Superintendencia Financiera, and keeps the register of holders,
/// adjudications, pledges, breaches, payments and liquidations with a hash-chained audit trail.
/// Exit status: 0 ok, 1 findings (`rates check` found problems, `audit verify` found a
/// mismatch, `notice verify`, `settlement verify`, `offer verify` or `stage verify` a document
/// that does not match), 2 error (bad input, refused write, missing rates, unreadable file), 3
/// `notice verify`: authentic but no longer in force.
#[derive(Debug, Parser)]
#[command(name = "vigia", version, max_term_width = 100, after_help = crate::input::RULE)]
pub struct Cli {
    /// Certified rate series to use (CSV with header valid_from,valid_to,ibc_ea_pct,
    /// usury_ea_pct[,resolution,...]). Default: the register's series (the embedded SFC series
    /// plus periods added with `vigia rates add`), or the embedded series when there is no
    /// register.
    #[arg(long, global = true, value_name = "FILE")]
    pub rates: Option<PathBuf>,

    /// Register database (default: $VIGIA_DB, else vigia.db in the platform's data directory,
    /// e.g. ~/.local/share/vigia/vigia.db).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// Who is making the change, for the audit trail (default: $VIGIA_OFFICER, else the OS user from $USER or $LOGNAME, else the account number, `uid N`).
    #[arg(value_parser = args::text, long, global = true, value_name = "NAME")]
    pub officer: Option<String>,

    /// Audit key that signs and checks the chain's checkpoints, kept outside the register
    /// (default: $VIGIA_KEY, else audit.key in vigia's configuration directory, e.g.
    /// ~/.config/vigia/audit.key; `vigia init` creates it).
    #[arg(long, global = true, value_name = "PATH")]
    pub key: Option<PathBuf>,

    /// Language of the messages, refusals and check reasons: es or en (default: $VIGIA_LANG,
    /// else English when the first set of LC_ALL, LC_MESSAGES and LANG starts with en, else
    /// Spanish, also for C, POSIX or no locale).
    #[arg(value_parser = args::lang, long, global = true, value_name = "LANG")]
    pub lang: Option<Lang>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the register database and print where it is.
    Init,
    /// Build a fresh demo register (fictional holders) and show a fine's whole life.
    Demo,
    /// Programs (programas de enajenación) and their stage prices.
    #[command(subcommand)]
    Program(program::ProgramCommand),
    /// The first-stage offer (Arts. 4 and 12): open its window, adjudicate it, verify its acta.
    #[command(subcommand)]
    Offer(offer::OfferCommand),
    /// First-stage acceptances: import from CSV or a workbook, list with their outcome.
    #[command(subcommand)]
    Acceptances(acceptances::AcceptancesCommand),
    /// The Second and Third Stages (Arts. 13-19): open a tranche, evaluate, improve a tie, draw,
    /// adjudicate (its price becomes Art. 9 (iii)'s) or declare void.
    #[command(subcommand)]
    Stage(stage::StageCommand),
    /// Later-stage proposals: import from CSV or a workbook.
    #[command(subcommand)]
    Proposals(proposals::ProposalsCommand),
    /// Adjudications: import from CSV or a workbook, list, show.
    #[command(subcommand)]
    Adjudications(adjudications::AdjudicationsCommand),
    /// Pledges of adjudicated shares to the sellers (Art. 10).
    #[command(subcommand)]
    Pledge(pledge::PledgeCommand),
    /// Breaches of the lock-up: record, list, show, void.
    #[command(subcommand)]
    Breach(breach::BreachCommand),
    /// Compute fines.
    #[command(subcommand)]
    Fine(fine::FineCommand),
    /// Fine notices: issue (PDF, HTML, Markdown), render again, record delivery, list, verify.
    #[command(subcommand)]
    Notice(notice::NoticeCommand),
    /// Paz y salvo certificates of fines paid in full: issue, list, verify.
    #[command(subcommand)]
    Settlement(settlement::SettlementCommand),
    /// Holders' contact details (address, city, e-mail): update, show.
    #[command(subcommand)]
    Holder(holder::HolderCommand),
    /// Payments against fines.
    #[command(subcommand)]
    Payment(payment::PaymentCommand),
    /// Show, check and add certified rate periods.
    #[command(subcommand)]
    Rates(rates::RatesCommand),
    /// The periodic batch check over every holder (exit 0 nothing to do, 1 findings, 2 could not
    /// run).
    Check(check::CheckArgs),
    /// The Colombian business-day calendar.
    #[command(subcommand)]
    Calendar(calendar::CalendarCommand),
    /// An empty import file to fill in (.xlsx or .csv): the Spanish headers, an example row and
    /// notes on each column.
    Template(template::TemplateArgs),
    /// The audit trail: log and verify.
    #[command(subcommand)]
    Audit(audit::AuditCommand),
    /// Copy the register to FILE while others keep writing: one consistent snapshot, checked and
    /// flushed to disk before it takes the name (exit 2, and no file, if it could not).
    Backup(backup::BackupArgs),
    /// Accounts of the web interface: add, list, disable, password.
    #[command(subcommand)]
    User(user::UserCommand),
    /// Serve the Spanish web interface over the register (loopback by default).
    ///
    /// Signing on the web: a jurídico loads a PKCS#12 certificate for the session on «Firma
    /// digital»; with VIGIA_SIGN_KEYS=DIR the server keeps one DIR/USER.p12 per account (0600),
    /// unlocked by its password once per session. VIGIA_TRUST=DIR names the certificates the
    /// verification pages trust (as --trust does on the command line).
    Serve(serve::ServeArgs),
    /// The shell's tab completion for vigia (bash, zsh, fish, powershell), on standard output.
    Completions(shell::CompletionsArgs),
    /// The manual page (roff): `vigia man > vigia.1; man ./vigia.1`, or every command's page
    /// with --dir.
    Man(shell::ManArgs),
}

/// What a successful run reports to a scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit 0: nothing needs attention.
    Ok,
    /// Exit 1: the command ran and found something that needs attention.
    Findings,
    /// Exit 3: `notice verify` / `settlement verify` found the document authentic (as vigia
    /// issued it) but no longer in force: paid in full, replaced, its figures superseded.
    Lapsed,
}

/// Everything a command needs from outside: where to write, the register, the officer, and
/// which rate series to use.
pub struct Ctx<'a> {
    pub out: &'a mut dyn Write,
    /// The language refusals, errors and check reasons are worded in (chosen by `main`).
    pub lang: Lang,
    rates_path: Option<PathBuf>,
    db: Option<PathBuf>,
    officer: Option<String>,
    key: Option<PathBuf>,
    /// The command being run, e.g. "payment record" (see [`command_name`]).
    command: String,
    /// The command line's one clock ([`Ctx::today`]).
    clock: fn() -> chrono::DateTime<chrono::Utc>,
}

impl Ctx<'_> {
    /// Today in Colombia, by the command line's one clock: the default of every date a command
    /// takes (the server's own time zone plays no part).
    pub fn today(&self) -> chrono::NaiveDate {
        crate::calendar::colombia_date((self.clock)())
    }

    /// The rate series in force: `--rates FILE`, else the register's series (embedded SFC
    /// series plus the periods added with `vigia rates add`) when a register exists, else the
    /// embedded series.
    pub fn rates(&self) -> Result<RateSeries, CliError> {
        match &self.rates_path {
            Some(path) => {
                let text = read_file(path, "--rates")?;
                RateSeries::from_csv(&text, &path.display().to_string()).map_err(CliError::Rates)
            }
            None => match self.db_path() {
                Some(path) if path.exists() => {
                    Ok(crate::store::rates::series(self.store()?.conn())?)
                }
                _ => Ok(RateSeries::shipped()),
            },
        }
    }

    /// Where the register is: `--db`, else `$VIGIA_DB`, else the platform's data directory.
    pub fn db_path(&self) -> Option<PathBuf> {
        self.db
            .clone()
            .or_else(|| {
                std::env::var_os("VIGIA_DB")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| dirs::data_dir().map(|d| d.join("vigia").join("vigia.db")))
    }

    fn require_db_path(&self) -> Result<PathBuf, CliError> {
        self.db_path().ok_or_else(|| CliError::Unusable {
            flag: "--db",
            value: String::new(),
            unusable: places::Unusable::DataDirectory,
        })
    }

    /// Opens the existing register.
    pub fn store(&self) -> Result<Store, CliError> {
        let path = self.require_db_path()?;
        // a directory is named as such (SQLite said only "disk I/O error")
        if path.is_dir() {
            return Err(CliError::Unusable {
                flag: "--db",
                value: path.display().to_string(),
                unusable: places::Unusable::IsDir,
            });
        }
        if !path.exists() {
            return Err(CliError::Unusable {
                flag: "--db",
                value: path.display().to_string(),
                unusable: places::Unusable::Register,
            });
        }
        let mut store = Store::open(&path).map_err(|e| not_a_register(e, &path))?;
        store.set_command(&format!("`vigia {}`", self.command));
        Ok(store)
    }

    /// Creates the register (if needed) and returns it with its path.
    pub fn create_store(&self) -> Result<(Store, PathBuf, bool), CliError> {
        let path = self.require_db_path()?;
        let existed = path.exists();
        let file_error = |e: crate::files::FileError| CliError::File {
            flag: "--db",
            path: e.path().to_path_buf(),
            error: e.into(),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::files::create_dirs(dir).map_err(file_error)?;
        }
        // created 0600 (create_new) before SQLite opens it: its -wal and -shm files take the
        // same mode
        let mut store = Store::create(&path).map_err(|e| not_a_register(e, &path))?;
        store.set_command(&format!("`vigia {}`", self.command));
        restrict_permissions(&path);
        Ok((store, path, existed))
    }

    /// Where the audit key is: `--key`, else `$VIGIA_KEY`, else `audit.key` in vigia's
    /// configuration directory (never beside the register: whoever can rewrite the register
    /// should not also find the key that signs its checkpoints).
    pub fn key_path(&self) -> Result<PathBuf, CliError> {
        self.key
            .clone()
            .or_else(|| {
                std::env::var_os("VIGIA_KEY")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| dirs::config_dir().map(|d| d.join("vigia").join("audit.key")))
            .ok_or_else(|| CliError::Unusable {
                flag: "--key",
                value: String::new(),
                unusable: places::Unusable::ConfigDirectory,
            })
    }

    /// The audit key, read (it must exist).
    pub fn audit_key(&self) -> Result<checkpoint::Key, CliError> {
        Ok(checkpoint::Key::load(&self.key_path()?)?)
    }

    /// The register's checkpoint log: `<register>.checkpoints`, beside it.
    pub fn checkpoint_log(&self) -> Result<PathBuf, CliError> {
        let mut p = self.require_db_path()?.into_os_string();
        p.push(".checkpoints");
        Ok(PathBuf::from(p))
    }

    /// One line of `rates import-sfc`'s plan, worded by its catalogue.
    pub fn sfc(&mut self, line: &crate::catalogue::sfc::SfcLine<'_>) -> io::Result<()> {
        let line = crate::catalogue::sfc::word(self.lang, line);
        writeln!(self.out, "{line}")
    }

    /// Writes a command's success line, worded by the run's catalogue.
    pub fn say(&mut self, m: crate::catalogue::msg::Msg<'_>) -> io::Result<()> {
        let line = crate::catalogue::of(self.lang).msg(&m);
        writeln!(self.out, "{line}")
    }

    /// The officer recorded in the audit trail.
    pub fn officer(&self) -> String {
        self.officer
            .clone()
            .or_else(|| {
                std::env::var("VIGIA_OFFICER")
                    .ok()
                    .filter(|v| !v.is_empty())
            })
            .or_else(|| std::env::var("USER").ok().filter(|v| !v.is_empty()))
            .or_else(|| std::env::var("USERNAME").ok().filter(|v| !v.is_empty()))
            .or_else(|| std::env::var("LOGNAME").ok().filter(|v| !v.is_empty()))
            .unwrap_or_else(process_owner)
    }
}

/// Who runs this process when the environment names nobody (a bare cron or container): the
/// system account's number, which the machine's own records name, rather than a word that
/// names nobody.
fn process_owner() -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = std::fs::metadata("/proc/self") {
            return format!("uid {}", m.uid());
        }
    }
    "unknown".into()
}

/// The command that lists the records of the kind a lookup did not find (`breach` → `breach
/// list`), when there is one.
fn list_command(what: &str) -> Option<&'static str> {
    Some(match what {
        "breach" => "breach list",
        "adjudication" => "adjudications list",
        "acceptance" => "acceptances list",
        "notice" => "notice list",
        "paz y salvo" => "settlement list",
        "program" => "program list",
        "user" => "user list",
        _ => return None,
    })
}

/// A file that is not a register, named by the flag that gave it.
fn not_a_register(e: StoreError, path: &Path) -> CliError {
    match e {
        StoreError::NotARegister(_) => {
            let of = |lang| crate::catalogue::of(lang).store_error(&e);
            CliError::Wrong {
                flag: "--db".into(),
                value: path.display().to_string(),
                why: crate::lang::Said::new(
                    crate::said::en::cli::only_init_creates_register(&of(Lang::En)),
                    crate::said::es::cli::only_init_creates_register(&of(Lang::Es)),
                ),
            }
        }
        e => CliError::Store(e),
    }
}

/// The register holds personal data: readable by its owner only (0600) where the OS allows, and
/// so are its -wal and -shm files while they exist (a register created by an older vigia).
fn restrict_permissions(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
        for side in ["-wal", "-shm"] {
            let mut p = path.as_os_str().to_os_string();
            p.push(side);
            let p = PathBuf::from(p);
            if p.exists() {
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Reads a whole UTF-8 text file, naming the flag on failure; a workbook, a PDF or a byte that is
/// not UTF-8 is named (`text::utf8`), never echoed.
pub fn read_file(path: &Path, flag: &'static str) -> Result<String, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::File {
        flag,
        path: path.to_path_buf(),
        error: e,
    })?;
    match crate::text::utf8(&bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => Err(CliError::Wrong {
            flag: flag.into(),
            value: path.display().to_string(),
            why: e.said(),
        }),
    }
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
    /// A flag's value is wrong, the reason said in both languages and worded when printed.
    Wrong {
        flag: String,
        value: String,
        why: crate::lang::Said,
    },
    /// A flag's path cannot be used (worded in the run's language).
    Unusable {
        flag: &'static str,
        value: String,
        unusable: places::Unusable,
    },
    File {
        flag: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    Rates(InvalidRates),
    Fine(FineError),
    Store(StoreError),
    Checkpoint(CheckpointError),
    /// A refusal worded in both languages where it is found (the words name the flags).
    Said(crate::lang::Said),
    /// A register rule refused the write, worded when printed in the run's language, each
    /// field named by `flag`.
    Refusal {
        refusal: Box<register::Refusal>,
        flag: fn(register::Field) -> &'static str,
    },
    /// Several refusals (e.g. every bad row of an import); nothing was written.
    Refusals {
        refusals: Vec<register::Refusal>,
        flag: fn(register::Field) -> &'static str,
    },
    /// An input of the fine engine refused ([`FineError::Invalid`]), named by its flag.
    FineInput {
        flag: &'static str,
        error: Box<FineError>,
    },
    /// Pricing one breach failed (e.g. in the batch check).
    Breach {
        breach: i64,
        error: Box<CliError>,
    },
    /// Several problems (e.g. every bad row of an import); nothing was written. Each said in
    /// both languages (`what` from the catalogue's [`crate::catalogue::msg::Msg`]).
    Many {
        what: crate::lang::Said,
        problems: Vec<crate::lang::Said>,
    },
    Io(io::Error),
}

impl CliError {
    /// True when the reader of our output went away (e.g. `vigia rates list | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl CliError {
    /// The error's words in `lang`: refusals, the fine engine's errors and the breach they
    /// concern in that language; the others in English.
    pub fn describe(&self, lang: Lang) -> String {
        if let Some(words) = self.typed_in(lang) {
            return words;
        }
        match (self, lang) {
            (_, Lang::En) => self.to_string(),
            (CliError::Fine(e @ FineError::MissingRates(_)), _) => {
                format!(
                    "{}; o pase el archivo con --rates ARCHIVO",
                    e.describe(lang)
                )
            }
            (CliError::Fine(e), _) => e.describe(lang),
            (CliError::File { flag, path, error }, _) => format!(
                "{flag} {}: no se puede abrir ({}); revise la ruta y sus permisos",
                path.display(),
                crate::catalogue::of(lang).io_error(error)
            ),
            (CliError::Io(e), _) => format!(
                "no se puede escribir la salida: {}",
                crate::catalogue::of(lang).io_error(e)
            ),
            (CliError::Breach { breach, error }, _) => {
                format!("incumplimiento N.º {breach}: {}", error.describe(lang))
            }
            (CliError::Checkpoint(e), _) => {
                use crate::said::es::cli as es;
                match e {
                    CheckpointError::KeyMissing { path } => es::audit_key_missing(&path.display()),
                    CheckpointError::Key { path, why } => {
                        es::audit_key_problem(&path.display(), &why.es())
                    }
                    CheckpointError::Log { path, why } => {
                        es::checkpoint_log_problem(&path.display(), &why.es())
                    }
                }
            }
            // the store says what happened; the command line names the command that helps
            (CliError::Store(e), _) => {
                let said = crate::catalogue::of(lang).store_error(e);
                match e {
                    StoreError::Corrupt(_) => format!("{said}: ejecute `vigia audit verify`"),
                    StoreError::NotARegister(_) => {
                        crate::said::es::cli::only_init_creates_register(&said)
                    }
                    StoreError::NotFound { what, .. } => match list_command(what) {
                        Some(command) => crate::said::es::cli::not_found_listed_by(&said, &command),
                        None => said,
                    },
                    _ => said,
                }
            }
            _ => self.to_string(),
        }
    }

    /// The words of the errors that stay typed until printed (refusals, a refused input of the
    /// fine engine), in `lang`; `None` for the others.
    fn typed_in(&self, lang: Lang) -> Option<String> {
        Some(match self {
            CliError::Refusal { refusal, flag } => refusal_in(lang, refusal, flag),
            CliError::Refusals { refusals, flag } => {
                let mut m = match lang {
                    Lang::En => format!("{} problem(s), nothing was written:", refusals.len()),
                    Lang::Es => format!(
                        "{}, no se escribió nada:",
                        crate::lang::cuenta(refusals.len() as u64, "problema", "problemas")
                    ),
                };
                for r in refusals {
                    m.push_str("\n  ");
                    m.push_str(&refusal_in(lang, r, flag));
                }
                m
            }
            CliError::FineInput { flag, error } => fine_input(flag, error, lang),
            CliError::Said(s) => s.in_lang(lang).to_string(),
            CliError::Wrong { flag, value, why } => {
                format!("{}: {}", flag_and_value(flag, value), why.in_lang(lang))
            }
            CliError::Unusable {
                flag,
                value,
                unusable,
            } => format!("{flag} {value}: {}", unusable.reason(lang)),
            CliError::Many { what, problems } => {
                let mut m = crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::Problems {
                    what: what.in_lang(lang),
                    count: problems.len() as u64,
                });
                for p in problems {
                    m.push_str("\n  ");
                    m.push_str(p.in_lang(lang));
                }
                m
            }
            _ => return None,
        })
    }
}

/// A refused flag as a refusal names it: with its value, or alone when none was given
/// (`--price: …`, not `--price : …`).
fn flag_and_value(flag: &str, value: &str) -> String {
    match value {
        "" => flag.to_string(),
        v => format!("{flag} {v}"),
    }
}

/// A refused input of the fine engine in `lang`, named by its flag (a payment also by its
/// number).
fn fine_input(flag: &str, error: &FineError, lang: Lang) -> String {
    let FineError::Invalid {
        field,
        value,
        reason,
    } = error
    else {
        return error.describe(lang);
    };
    let (value, reason) = (value.in_lang(lang), reason.in_lang(lang));
    match (field, lang) {
        (Field::Payment(i), Lang::En) => format!("{flag} {value}: (payment #{}) {reason}", i + 1),
        (Field::Payment(i), Lang::Es) => format!("{flag} {value}: (pago N.º {}) {reason}", i + 1),
        _ => format!("{flag} {value}: {reason}"),
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
            CliError::Wrong { flag, value, why } => {
                write!(f, "{}: {}", flag_and_value(flag, value), why.en())
            }
            CliError::Unusable {
                flag,
                value,
                unusable,
            } => write!(f, "{flag} {value}: {}", unusable.reason(Lang::En)),
            CliError::File { flag, path, error } => {
                write!(
                    f,
                    "{flag} {}: cannot open it ({error}); check the path and its permissions",
                    path.display()
                )
            }
            // the first problem, and the command that lists them all
            CliError::Rates(e) if e.problems.len() > 1 => write!(
                f,
                "rates file {}: {} (and {} more problem(s); run `vigia rates check {}` to list them all)",
                e.source,
                e.problems[0],
                e.problems.len() - 1,
                e.source
            ),
            CliError::Rates(e) => e.fmt(f),
            CliError::Fine(FineError::MissingRates(m)) => {
                write!(f, "{m} and pass it with --rates FILE")
            }
            CliError::Fine(e) => e.fmt(f),
            // the store says what happened; the command line names the command that helps
            CliError::Store(e @ StoreError::Corrupt(_)) => {
                write!(f, "{e}: run `vigia audit verify`")
            }
            CliError::Store(e @ StoreError::NotARegister(_)) => {
                f.write_str(&crate::said::en::cli::only_init_creates_register(&e))
            }
            CliError::Store(e @ StoreError::NotFound { what, .. }) => match list_command(what) {
                Some(command) => {
                    f.write_str(&crate::said::en::cli::not_found_listed_by(&e, &command))
                }
                None => e.fmt(f),
            },
            CliError::Store(e) => e.fmt(f),
            CliError::Checkpoint(CheckpointError::KeyMissing { path }) => {
                f.write_str(&crate::said::en::cli::audit_key_missing(&path.display()))
            }
            CliError::Checkpoint(e) => e.fmt(f),
            CliError::Said(said) => f.write_str(said.en()),
            CliError::Refusal { .. } | CliError::Refusals { .. } | CliError::FineInput { .. } => {
                f.write_str(&self.typed_in(Lang::En).unwrap_or_default())
            }
            CliError::Breach { breach, error } => write!(f, "breach {breach}: {error}"),
            CliError::Many { .. } => f.write_str(&self.typed_in(Lang::En).unwrap_or_default()),
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

impl From<StoreError> for CliError {
    fn from(e: StoreError) -> Self {
        CliError::Store(e)
    }
}

impl From<CheckpointError> for CliError {
    fn from(e: CheckpointError) -> Self {
        CliError::Checkpoint(e)
    }
}

impl From<register::Error> for CliError {
    fn from(e: register::Error) -> Self {
        match e {
            register::Error::Store(s) => CliError::Store(s),
            register::Error::Fine(f) => f.into(),
            register::Error::Refused(r) => CliError::Refusal {
                refusal: Box::new(r),
                flag: flag_of,
            },
            // as the store words a refused input, the refusals naming flags
            register::Error::Refusals(refusals) => CliError::Refusals {
                refusals,
                flag: flag_of,
            },
        }
    }
}

/// After an act the register allowed outside the program's validity: says so (its reason is
/// recorded with it).
fn outside_validity(
    ctx: &mut Ctx<'_>,
    program: &crate::program::Program,
    on: chrono::NaiveDate,
) -> std::io::Result<()> {
    match &program.validity {
        Some(v) if !v.covers(on) => ctx.say(Msg::OutsideValidity {
            validity: &v.said(),
        }),
        _ => Ok(()),
    }
}

/// The flag that gives a register field (see [`register::Field`]), in the commands that take it.
pub fn flag_of(field: register::Field) -> &'static str {
    use register::Field as F;
    match field {
        F::Adjudication => "--adjudication",
        F::Payment => "payment void",
        F::Pledge => "pledge void",
        F::AllowDuplicate => "--allow-duplicate",
        F::Breach => "--breach",
        F::BreachKind => "--kind",
        F::BreachDate | F::PaymentDate => "--date",
        F::Shares => "--shares",
        F::ConsiderationPerShare => "--consideration-per-share",
        F::ConsiderationTotal => "--consideration-total",
        F::RegisteredOn => "--registered-on",
        F::PledgeRank => "--rank",
        F::Lender => "--lender",
        F::ReleaseDate => "--on",
        F::PaymentAmount => "--amount",
        F::VoidReason | F::CorrectionReason => "--reason",
        F::SupersedeReason => "--supersede",
        F::ValidityReason => "--reason",
        F::OfferOpens => "--opens",
        F::OfferCloses => "--closes",
        F::AdjudicationDate => "--on",
        F::Stage => "--stage",
        F::Tranche => "--tranche",
        F::StageOpens => "--opens",
        F::StageCloses => "--closes",
        F::Proposal => "--proposal",
        F::ImprovedPrice => "--price",
        F::DrawSeed => "--seed",
        F::StageDecisionDate => "--on",
        F::Notice => "NUMBER",
        F::NoticeDate => "--date",
        F::Program => "--program",
        F::Settlement => "settlement issue",
        F::SettlementDate => "--date",
        F::DeliveryDate => "--on",
        F::DeliveryVia => "--via",
        F::Evidence => "--evidence",
        F::Holder => "DOC",
        F::DocType => "--doc-type",
        F::Address => "--address",
        F::City => "--city",
        F::Email => "--email",
        F::Letterhead => "program",
        F::IssuerNit => "--nit",
        F::PaymentReference => "--reference",
        F::BackdateReason => "--reason",
        F::ExternalAwarded => "--awarded",
        F::ActaReference => "--acta",
    }
}

/// A register refusal in the CLI's words: each field named by `flag` (a command may name a field
/// its own way, e.g. a positional id), a remedy as the flag with its value's name.
pub fn refusal(r: &register::Refusal, flag: impl Fn(register::Field) -> &'static str) -> String {
    refusal_in(Lang::En, r, flag)
}

/// [`refusal`] in `lang`; the commands it quotes are the same in both.
pub fn refusal_in(
    lang: Lang,
    r: &register::Refusal,
    flag: impl Fn(register::Field) -> &'static str,
) -> String {
    // the placeholders as the help of the run's language writes them
    let ph = |en: &'static str| clap_lang::placeholder(lang, en);
    let (its, set_it) = match lang {
        Lang::En => ("its paz y salvo", "set it with"),
        Lang::Es => ("su paz y salvo", "regístrelo con"),
    };
    let text = ph("TEXT");
    r.describe_acting(
        lang,
        // a positional argument named as the help of the run's language names it
        |f| match (lang, flag(f)) {
            (Lang::Es, "breach") => "incumplimiento N.º".to_string(),
            (Lang::Es, name) if name.chars().all(|c| c.is_ascii_uppercase()) => {
                match clap_lang::value_name_es(name) {
                    clap_lang::UNLISTED => name.to_string(),
                    es => es.to_string(),
                }
            }
            (_, name) => name.to_string(),
        },
        |f| {
            let value = match f {
                register::Field::Lender => format!(" {}", ph("NAME")),
                register::Field::VoidReason
                | register::Field::ValidityReason
                | register::Field::CorrectionReason => format!(" {text}"),
                register::Field::SupersedeReason => format!(" --reason {text}"),
                register::Field::AllowDuplicate => String::new(),
                register::Field::Settlement => {
                    let breach = ph("BREACH");
                    return format!("{its}: vigia settlement issue {breach}");
                }
                // a holder's contact, recorded with its own command (a delivery needs it)
                register::Field::Address => {
                    return format!("vigia holder update DOC --address {text} --city {text}");
                }
                register::Field::Email => {
                    let address = ph("ADDRESS");
                    return format!("vigia holder update DOC --email {address}");
                }
                register::Field::Letterhead => {
                    let code = ph("CODE");
                    return format!(
                        "{set_it}: vigia program letters set {code} --entity {text} \
                         --signatory-name {text} --signatory-position {text} --return-address \
                         {text} --bank {text} --account {text}"
                    );
                }
                _ => format!(" {}", ph("VALUE")),
            };
            format!("{}{value}", flag(f))
        },
        |act| Some(remedy::act(act, lang)),
    )
}

impl From<FineError> for CliError {
    /// Names the flag the person typed instead of the engine's field.
    fn from(e: FineError) -> Self {
        match e {
            FineError::Invalid { field, .. } => CliError::FineInput {
                flag: fine::flag_of(field),
                error: Box::new(e),
            },
            other => CliError::Fine(other),
        }
    }
}

/// The command's name as typed, e.g. "payment record", from the clap enums' derived `Debug`
/// (`Payment(Record { .. })`): the variant names before any field, in kebab case, as clap names
/// the subcommands. Never the values (they may hold personal data).
fn command_name(command: &Command) -> String {
    let debug = format!("{command:?}");
    let head = debug.split([' ', '{']).next().unwrap_or_default();
    head.split('(')
        .map(|w| w.trim_end_matches(')'))
        .filter(|w| !w.is_empty() && !w.ends_with("Args"))
        .map(|w| {
            let mut kebab = String::new();
            for (i, c) in w.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    kebab.push('-');
                }
                kebab.extend(c.to_lowercase());
            }
            kebab
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs a parsed command line in `lang` (which `main` chose), writing results to `out`.
pub fn run(cli: Cli, lang: Lang, out: &mut dyn Write) -> Result<Status, CliError> {
    let mut ctx = Ctx {
        out,
        lang,
        rates_path: cli.rates,
        db: cli.db,
        officer: cli.officer,
        key: cli.key,
        command: command_name(&cli.command),
        clock: chrono::Utc::now,
    };
    match cli.command {
        Command::Fine(cmd) => cmd.run(&mut ctx),
        Command::Rates(cmd) => cmd.run(&mut ctx),
        Command::Init => init(&mut ctx),
        Command::Demo => demo::run(&mut ctx),
        Command::Program(cmd) => cmd.run(&mut ctx),
        Command::Offer(cmd) => cmd.run(&mut ctx),
        Command::Acceptances(cmd) => cmd.run(&mut ctx),
        Command::Stage(cmd) => cmd.run(&mut ctx),
        Command::Proposals(cmd) => cmd.run(&mut ctx),
        Command::Adjudications(cmd) => cmd.run(&mut ctx),
        Command::Pledge(cmd) => cmd.run(&mut ctx),
        Command::Breach(cmd) => cmd.run(&mut ctx),
        Command::Payment(cmd) => cmd.run(&mut ctx),
        Command::Audit(cmd) => cmd.run(&mut ctx),
        Command::Notice(cmd) => cmd.run(&mut ctx),
        Command::Settlement(cmd) => cmd.run(&mut ctx),
        Command::Holder(cmd) => cmd.run(&mut ctx),
        Command::Calendar(cmd) => cmd.run(&mut ctx),
        Command::Template(a) => template::run(a, &mut ctx),
        Command::Check(a) => check::run(a, &mut ctx),
        Command::Backup(a) => backup::run(a, &mut ctx),
        Command::User(cmd) => cmd.run(&mut ctx),
        Command::Serve(a) => serve::run(a, &mut ctx),
        Command::Completions(a) => shell::completions(a, &mut ctx),
        Command::Man(a) => shell::man(a, &mut ctx),
    }
}

/// Creates the register (or finds the one there), the audit key when there is none, and the
/// checkpoint log with its first checkpoint when there is none.
fn init(ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let (store, path, existed) = ctx.create_store()?;
    let schema = store.version()?;
    ctx.say(Msg::RegisterReady {
        created: !existed,
        path: &path.display().to_string(),
        schema,
    })?;
    let key_path = ctx.key_path()?;
    let (key, created) = match std::fs::symlink_metadata(&key_path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            (checkpoint::Key::create(&key_path)?, true)
        }
        _ => (checkpoint::Key::load(&key_path)?, false),
    };
    ctx.say(Msg::AuditKey {
        created,
        path: &key_path.display().to_string(),
        id: &key.id().to_string(),
    })?;
    let log = ctx.checkpoint_log()?;
    let events = crate::store::audit::head(store.conn())?.count;
    let mut store = store;
    if !log.exists() && events == 0 {
        let officer = ctx.officer();
        let (line, c) = audit::Checkpointer::new(ctx, true)?.sign(&mut store, &officer)?;
        ctx.say(Msg::CheckpointLogCreated {
            path: &log.display().to_string(),
            line: line as u64,
            events: c.count as u64,
        })?;
    } else if !log.exists() {
        // a register with events is never anchored again here: whatever its chain holds now,
        // a rewritten one included, would verify from then on
        ctx.say(Msg::CheckpointLogMissing {
            path: &log.display().to_string(),
            events: events as u64,
        })?;
        return Ok(Status::Findings);
    }
    Ok(Status::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_named_as_it_is_typed_without_its_values() {
        for (line, name) in [
            (&["vigia", "init"][..], "init"),
            (
                &[
                    "vigia",
                    "payment",
                    "record",
                    "--breach",
                    "1",
                    "--date",
                    "2024-12-01",
                    "--amount",
                    "5",
                ],
                "payment record",
            ),
            (
                &[
                    "vigia",
                    "program",
                    "stage-price",
                    "P",
                    "--stage",
                    "none",
                    "--date",
                    "2024-01-01",
                ],
                "program stage-price",
            ),
            (&["vigia", "check", "--checkpoint"], "check"),
            (&["vigia", "audit", "verify"], "audit verify"),
            (
                &[
                    "vigia",
                    "adjudications",
                    "import",
                    "f.csv",
                    "--program",
                    "Ana Prueba",
                ],
                "adjudications import",
            ),
        ] {
            let cli = Cli::try_parse_from(line).unwrap();
            assert_eq!(command_name(&cli.command), name, "{line:?}");
        }
    }
}
