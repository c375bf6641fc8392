//! `vigia completions SHELL` and `vigia man`: the shell's tab completion and the manual page,
//! generated from the same clap definitions as `--help` (clap_complete, clap_mangen), so they
//! never drift from the commands.

use super::{CliError, Ctx, Status};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
#[command(after_help = "Install them, e.g.:\n  \
    vigia completions bash > ~/.local/share/bash-completion/completions/vigia\n  \
    vigia completions zsh > ~/.zfunc/_vigia   (with fpath+=~/.zfunc before compinit)\n  \
    vigia completions fish > ~/.config/fish/completions/vigia.fish\n  \
    vigia completions powershell >> $PROFILE")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

/// Writes the completion script for `shell` to standard output.
pub fn completions(a: CompletionsArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let shell = match a.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
        Shell::Powershell => clap_complete::Shell::PowerShell,
    };
    let mut cmd = super::clap_lang::command(ctx.lang);
    // generated in memory first: clap_complete panics when its writer fails (a closed pipe)
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "vigia", &mut script);
    ctx.out.write_all(&script)?;
    Ok(Status::Ok)
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write a page for every command into DIR (vigia.1, vigia-rates.1,
    /// vigia-rates-import-sfc.1 ...), e.g. ~/.local/share/man/man1, instead of vigia.1 on
    /// standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Replace pages already in DIR.
    #[arg(long, requires = "dir")]
    pub force: bool,
}

/// The manual page (roff, section 1) on standard output, or every command's page in a directory.
pub fn man(a: ManArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let mut cmd = manual_command(ctx.lang);
    cmd.build();
    let lang = ctx.lang;
    let Some(dir) = a.dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page)?;
        ctx.out.write_all(&headings(page, lang))?;
        return Ok(Status::Ok);
    };
    let mut pages = Vec::new();
    pages_of(&cmd, "vigia", &mut pages, lang)?;
    // `man --dir ~/.local/share/man/man1` on a fresh account: the directory is made, as
    // `install -D` would
    crate::files::create_dirs(&dir).map_err(|e| super::places::out_error("--dir", e))?;
    for (name, bytes) in &pages {
        let target = dir.join(format!("{name}.1"));
        crate::files::write(&target, bytes, a.force)
            .map_err(|e| super::places::out_error("--dir", e))?;
    }
    ctx.say(crate::catalogue::msg::Msg::ManPages {
        count: pages.len() as u64,
        dir: &dir.display().to_string(),
    })?;
    Ok(Status::Ok)
}

/// The command tree as the manual shows it: the NAME line already says "vigia \-", so the
/// top-level description drops the "vigia — " that `--help` starts with. In the run's language.
fn manual_command(lang: crate::lang::Lang) -> clap::Command {
    let cmd = super::clap_lang::command(lang);
    let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    match about.strip_prefix("vigia — ") {
        Some(rest) => {
            let rest = rest.to_string();
            cmd.about(rest)
        }
        None => cmd,
    }
}

/// The page of `cmd`, named `name`, and those of its subcommands (`vigia-rates-add`).
fn pages_of(
    cmd: &clap::Command,
    name: &str,
    out: &mut Vec<(String, Vec<u8>)>,
    lang: crate::lang::Lang,
) -> Result<(), CliError> {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .title(name)
        .render(&mut bytes)?;
    out.push((name.to_string(), headings(bytes, lang)));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        pages_of(sub, &format!("{name}-{}", sub.get_name()), out, lang)?;
    }
    Ok(())
}

/// A page's section headings (`.SH NAME`, `.SH SYNOPSIS`...) as the run's catalogue names
/// them; clap_mangen writes them in English.
fn headings(page: Vec<u8>, lang: crate::lang::Lang) -> Vec<u8> {
    let catalogue = crate::catalogue::of(lang);
    let Ok(text) = String::from_utf8(page) else {
        return Vec::new();
    };
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let heading = line.trim_end_matches('\n').strip_prefix(".SH ");
        match heading.and_then(|h| catalogue.code("man", h)) {
            Some(h) => {
                out.push_str(".SH ");
                out.push_str(h);
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    out.into_bytes()
}
