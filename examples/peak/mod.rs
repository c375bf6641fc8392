//! Peak memory of the commands that can touch many rows (issue 23 item 5), shared by the
//! `offering` and `national` benchmarks: each command runs under GNU `/usr/bin/time -v`, its
//! standard output to a file, and a table says its time, its peak resident memory against the
//! target (under 300 MB, i.e. 286 MiB) and how it exited.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The target: under 300 MB (decimal), in MiB.
pub const TARGET_MIB: f64 = 300_000_000.0 / 1_048_576.0;

/// One command measured.
pub struct Peak {
    pub label: String,
    pub secs: f64,
    pub mib: f64,
    /// The exit status (`None`: killed by a signal).
    pub code: Option<i32>,
}

/// Runs `cmd` under `/usr/bin/time -v` (after `sync`), its standard output to `out` (a file in
/// the benchmark's directory, not a terminal or a pipe nobody reads).
pub fn measure(label: &str, cmd: &mut Command, dir: &Path) -> Peak {
    let _ = Command::new("sync").status();
    let stats = dir.join("peak-time.txt");
    let out = std::fs::File::create(dir.join("peak-stdout.txt")).expect("stdout file");
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let mut timed = Command::new("/usr/bin/time");
    timed
        .arg("-v")
        .arg("-o")
        .arg(&stats)
        .arg(program)
        .args(args);
    // the command's own environment (a signing password) and directory go with it
    same_env(cmd, &mut timed);
    if let Some(d) = cmd.get_current_dir() {
        timed.current_dir(d);
    }
    let start = Instant::now();
    let status = timed
        .stdout(out)
        .stderr(Stdio::null())
        .status()
        .expect("/usr/bin/time runs");
    let secs = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&stats).unwrap_or_default();
    let kib: f64 = text
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0);
    // GNU time exits with the command's status
    let code = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Exit status: "))
        .and_then(|v| v.trim().parse().ok())
        .or(status.code());
    let p = Peak {
        label: label.to_string(),
        secs,
        mib: kib / 1024.0,
        code,
    };
    eprintln!(
        "  {:<60} {:>8.2} s {:>7.0} MiB exit {:?}",
        p.label, p.secs, p.mib, p.code
    );
    p
}

/// The table of peaks, for the README, with the load average it was measured at.
pub fn print(title: &str, peaks: &[Peak], load_before: &str, load_after: &str) {
    println!("{title} (load average {load_before} before, {load_after} after)");
    println!("| command | time (s) | peak memory (MiB) | under 300 MB | exit |");
    println!("|---|---:|---:|---|---:|");
    for p in peaks {
        println!(
            "| {} | {:.2} | {:.0} | {} | {} |",
            p.label,
            p.secs,
            p.mib,
            if p.mib < TARGET_MIB { "yes" } else { "**no**" },
            p.code.map_or("signal".to_string(), |c| c.to_string())
        );
    }
}

/// The load averages over 1, 5 and 15 minutes.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|e| format!("unknown ({e})"))
}

/// Sets on `timer` (`/usr/bin/time` running `cmd`'s program) the environment `cmd` was given
/// (`VIGIA_LANG`, a signing password…): a command rebuilt from `cmd`'s program and arguments
/// would run without it.
pub fn same_env(cmd: &Command, timer: &mut Command) {
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => timer.env(key, v),
            None => timer.env_remove(key),
        };
    }
}
