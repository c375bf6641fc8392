//! `vigia serve`: the web interface (front end 2, `crate::web`) over the register, for the
//! accounts made with `vigia user`. Loopback by default; see the README for a reverse proxy.

use super::{CliError, Ctx, Status};
use clap::Args;
use std::net::SocketAddr;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Mark the session cookie Secure: set it when a reverse proxy serves the pages over HTTPS.
    #[arg(long)]
    pub secure_cookies: bool,
}

pub fn run(args: ServeArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    // refuses a register that does not exist, as every command but `init` does
    drop(ctx.store()?);
    let path = ctx.db_path().unwrap_or_default();
    let rates_file = ctx.rates_path.clone();
    crate::web::serve(
        crate::web::Config {
            db: path,
            listen: args.listen,
            secure_cookies: args.secure_cookies,
            rates_file,
        },
        &mut *ctx.out,
    )
    .map_err(CliError::Io)?;
    Ok(Status::Ok)
}
