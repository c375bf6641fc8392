//! `vigia serve`: the web interface (front end 2, `crate::web`) over the register, for the
//! accounts made with `vigia user`. Loopback by default; HTTPS with `--tls-cert` and `--tls-key`;
//! see the README for a reverse proxy.

use super::{CliError, Ctx, Status};
use crate::lang::Lang;
use crate::said;
use crate::web::TlsProblem;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Serve HTTPS with this PEM certificate chain (needs --tls-key; cookies are then Secure).
    #[arg(long, value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE")]
    pub tls_key: Option<PathBuf>,
    /// Mark the session cookie Secure: set it when a reverse proxy serves the pages over HTTPS
    /// (implied by --tls-cert).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Connections served at once (more wait, unaccepted); lowered to the file-descriptor limit
    /// less 64 when that is lower. One client address gets at most 64 of them.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds a client has to send a request's headers, and a connection may stay idle
    /// between requests, before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
}

pub fn run(args: ServeArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let tls = match (&args.tls_cert, &args.tls_key) {
        (None, None) => None,
        (Some(cert), Some(key)) => {
            Some(
                crate::web::tls_config(cert, key).map_err(|e| match e.problem {
                    TlsProblem::Unreadable(error) => CliError::File {
                        flag: e.flag,
                        path: e.path,
                        error,
                    },
                    TlsProblem::Unusable(why) => CliError::Wrong {
                        flag: e.flag.into(),
                        value: e.path.display().to_string(),
                        why,
                    },
                })?,
            )
        }
        (Some(cert), None) => {
            return Err(CliError::Wrong {
                flag: "--tls-cert".into(),
                value: cert.display().to_string(),
                why: crate::said!(cli::https_needs_key),
            });
        }
        (None, Some(key)) => {
            return Err(CliError::Wrong {
                flag: "--tls-key".into(),
                value: key.display().to_string(),
                why: crate::said!(cli::https_needs_cert),
            });
        }
    };
    // refuses a register that does not exist, as every command but `init` does
    drop(ctx.store()?);
    let path = ctx.db_path().unwrap_or_default();
    let rates_file = ctx.rates_path.clone();
    // the accounts' key files kept on the server, when the office keeps them there
    let sign_keys = match std::env::var_os(super::sign::KEYS_VAR).filter(|v| !v.is_empty()) {
        None => None,
        Some(dir) => {
            let dir = std::path::PathBuf::from(dir);
            if !dir.is_dir() {
                return Err(CliError::Wrong {
                    flag: super::sign::KEYS_VAR.into(),
                    value: dir.display().to_string(),
                    why: crate::said!(cli::keys_dir_not_directory),
                });
            }
            Some(dir)
        }
    };
    // the certificates the office trusts, for the signatures «Verificar aviso» checks
    let trust = match std::env::var_os(super::sign::TRUST_VAR).filter(|v| !v.is_empty()) {
        None => None,
        Some(dir) => Some(std::sync::Arc::new(super::sign::trusted_from(
            std::path::Path::new(&dir),
            super::sign::TRUST_VAR,
        )?)),
    };
    let (lang, db) = (ctx.lang, path.display().to_string());
    let audit_key = ctx.key_path().ok();
    let out = &mut *ctx.out;
    let mut listening = |url: &str| {
        writeln!(
            out,
            "{}",
            said!(cli::serving_at_stop_with, url, db).in_lang(lang)
        )?;
        out.flush()
    };
    crate::web::serve(
        crate::web::Config {
            db: path,
            listen: args.listen,
            secure_cookies: args.secure_cookies,
            tls,
            rates_file,
            limits: crate::web::Limits {
                max_connections: args.max_connections as usize,
                header_read: std::time::Duration::from_secs(args.header_timeout),
                ..crate::web::Limits::default()
            },
            audit_key,
            trust,
            sign_keys,
        },
        &mut listening,
    )
    .map_err(|e| match e {
        crate::web::ServeError::Listen(addr, error) => {
            let addr = addr.to_string();
            let (why, por_que) = (
                crate::catalogue::of(Lang::En).io_error(&error),
                crate::catalogue::of(Lang::Es).io_error(&error),
            );
            CliError::Said(said!(cli::cannot_listen_on, addr, why, por_que))
        }
        crate::web::ServeError::Io(e) => CliError::Io(e),
    })?;
    Ok(Status::Ok)
}
