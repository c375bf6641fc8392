//! `vigia user ...`: the web interface's accounts (add, list, disable, password). Passwords come
//! from a prompt without echo or, for scripts, one line of standard input (`--password-stdin`);
//! never from a flag, which would leave them in the shell's history.

use super::{CliError, Ctx, Status};
use crate::register::user::{self, Role};
use crate::store::users;
use clap::Subcommand;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add an account: consulta reads everything; oficial also imports and records; juridico also
    /// liquidates and issues notices; admin also manages programs, rates and users.
    Add {
        #[arg(value_parser = super::args::text)]
        name: String,
        #[arg(long, value_parser = parse_role)]
        role: Role,
        /// Read the password from the first line of standard input instead of a prompt.
        #[arg(long)]
        password_stdin: bool,
    },
    /// List the accounts.
    List {
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Disable an account: it can no longer sign in, and its open web sessions end; it stays on
    /// record. Refused for the account named by --officer (nobody disables the account they act
    /// as) and for the last enabled administrator.
    Disable {
        #[arg(value_parser = super::args::text)]
        name: String,
    },
    /// Set a new password for an account: it ends the account's lockout, and the web sessions
    /// begun with the old password.
    Password {
        #[arg(value_parser = super::args::text)]
        name: String,
        /// Read the password from the first line of standard input instead of a prompt.
        #[arg(long)]
        password_stdin: bool,
    },
}

fn parse_role(s: &str) -> Result<Role, super::args::Unread> {
    s.parse().map_err(|en: String| {
        super::args::Unread(crate::lang::Said::new(
            en,
            format!("«{s}» no es un rol: consulta, oficial, juridico o admin"),
        ))
    })
}

/// The password: one line of standard input, or typed twice at a prompt without echo.
fn read_password(from_stdin: bool) -> Result<String, CliError> {
    let refused = |why: crate::lang::Said| CliError::Wrong {
        flag: "--password-stdin".into(),
        value: String::new(),
        why,
    };
    let stdin = std::io::stdin();
    if from_stdin {
        let mut line = String::new();
        stdin.lock().read_line(&mut line)?;
        return Ok(line.trim_end_matches(['\r', '\n']).to_string());
    }
    if !stdin.is_terminal() {
        return Err(refused(crate::said!(cli::password_stdin_not_terminal)));
    }
    let ask = |prompt: &str| -> Result<String, CliError> {
        eprint!("{prompt}");
        std::io::stderr().flush()?;
        let quiet = std::process::Command::new("stty").arg("-echo").status();
        let mut line = String::new();
        let read = stdin.lock().read_line(&mut line);
        if quiet.is_ok() {
            let _ = std::process::Command::new("stty").arg("echo").status();
        }
        eprintln!();
        read?;
        Ok(line.trim_end_matches(['\r', '\n']).to_string())
    };
    let first = ask("Contraseña: ")?;
    if ask("Repita la contraseña: ")? != first {
        return Err(refused(crate::said!(cli::passwords_differ)));
    }
    Ok(first)
}

impl UserCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        let officer = ctx.officer();
        match self {
            UserCommand::Add {
                name,
                role,
                password_stdin,
            } => {
                let password = read_password(password_stdin)?;
                let mut store = ctx.store()?;
                let id = store.write::<_, crate::register::Error>(&officer, |tx| {
                    user::add(tx, &name, role, &password)
                })?;
                ctx.say(crate::catalogue::msg::Msg::UserAdded {
                    name: &name,
                    id,
                    role: &role.to_string(),
                })?;
            }
            UserCommand::List { format, out } => {
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let store = ctx.store()?;
                let rows: Vec<_> = users::list(store.conn())?
                    .into_iter()
                    .map(|u| {
                        json!({"id": u.id, "name": u.name, "role": u.role, "disabled": u.disabled,
                               "created_at": u.created_at, "created_by": u.created_by})
                    })
                    .collect();
                super::out::list(ctx, to, "Cuentas", &rows, Vec::new())?;
            }
            UserCommand::Disable { name } => {
                let mut store = ctx.store()?;
                store
                    .write::<_, crate::register::Error>(&officer, |tx| user::disable(tx, &name))?;
                ctx.say(crate::catalogue::msg::Msg::UserDisabled { name: &name })?;
            }
            UserCommand::Password {
                name,
                password_stdin,
            } => {
                let password = read_password(password_stdin)?;
                let mut store = ctx.store()?;
                store.write::<_, crate::register::Error>(&officer, |tx| {
                    user::set_password(tx, &name, &password)
                })?;
                ctx.say(crate::catalogue::msg::Msg::PasswordChanged { name: &name })?;
            }
        }
        Ok(Status::Ok)
    }
}
