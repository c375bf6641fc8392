//! The progress bar (issue 25): drawn on standard error when it is a terminal (here, the pseudo
//! terminal util-linux's `script` gives), with percentage, rate and time left, and cleared; never
//! in standard output, and nothing at all on standard error when it is not a terminal (cron).

use crate::common::{self, Reg};

#[test]
fn the_check_shows_its_progress_on_a_terminal_only() {
    let r = Reg::new().with_holders();
    let quiet = r.run(&["check", "--as-of", "01/04/2024", "--format", "csv"]);
    assert_eq!(quiet.status.code(), Some(1));
    assert!(quiet.stderr.is_empty(), "{}", common::err(&quiet));
    let Ok(script) = which("script") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux's script is missing"
        );
        eprintln!("skipped: no `script` to give the check a terminal");
        return;
    };
    let out = r.dir.path().join("check.csv");
    let typescript = r.dir.path().join("typescript");
    let line = format!(
        "{} --db {} --officer tester check --as-of 01/04/2024 --format csv > {}",
        env!("CARGO_BIN_EXE_vigia"),
        r.db().display(),
        out.display()
    );
    let o = std::process::Command::new(script)
        .args(["-qc", &line])
        .arg(&typescript)
        .env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("VIGIA_LANG")
        .env_remove("VIGIA_KEY")
        .env("XDG_DATA_HOME", r.dir.path())
        .env("XDG_CONFIG_HOME", r.dir.path())
        .env("TMPDIR", r.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success() || o.status.code() == Some(1), "{o:?}");
    let drawn = String::from_utf8_lossy(&std::fs::read(&typescript).unwrap()).into_owned();
    assert!(drawn.contains("checking: adjudications read"), "{drawn}");
    assert!(
        drawn.contains("100% 3/3"),
        "three adjudications, all read: {drawn}"
    );
    assert!(
        drawn.contains("/s") && drawn.contains("left"),
        "rate and time left: {drawn}"
    );
    // the report is the same bytes as without a terminal
    assert_eq!(std::fs::read(&out).unwrap(), quiet.stdout);
}

fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}

/// An import of 5,000 adjudications shows its rows counted towards the file's on a terminal,
/// and nothing on standard error without one; the import is the same either way.
#[test]
fn an_import_shows_its_rows_on_a_terminal_only() {
    let r = Reg::new();
    let mut csv = crate::common::HEADER.to_string();
    for i in 0..5000 {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,10,,2024-03-15,,\n",
            2_000_000_000u64 + i
        ));
    }
    let path = r.file("muchas.csv", csv.as_bytes());
    let Ok(script) = which("script") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux's script is missing"
        );
        return;
    };
    let typescript = r.dir.path().join("typescript");
    let line = format!(
        "{} --db {} --officer tester adjudications import {path} --program D3939-2004 > {}",
        env!("CARGO_BIN_EXE_vigia"),
        r.db().display(),
        r.dir.path().join("out.txt").display()
    );
    let o = std::process::Command::new(script)
        .args(["-qc", &line])
        .arg(&typescript)
        .env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("VIGIA_LANG")
        .env_remove("VIGIA_KEY")
        .env("XDG_DATA_HOME", r.dir.path())
        .env("XDG_CONFIG_HOME", r.dir.path())
        .env("TMPDIR", r.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let drawn = String::from_utf8_lossy(&std::fs::read(&typescript).unwrap()).into_owned();
    assert!(drawn.contains("importing adjudications"), "{drawn}");
    assert!(
        drawn.contains("/5000"),
        "the file's 5,000 rows as the total: {drawn}"
    );
    let printed = std::fs::read_to_string(r.dir.path().join("out.txt")).unwrap();
    assert!(printed.contains("5000 adjudication(s) added"), "{printed}");
    // without a terminal: nothing on standard error
    let r2 = Reg::new();
    let path = r2.file("muchas.csv", csv.as_bytes());
    let o = r2.run(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        common::err(&o)
    );
}

/// Runs `args` under `script`'s pseudo terminal (standard output to `out.txt` in the register's
/// directory), in the locale `lang`: what the terminal showed, or `None` without `script`.
fn on_a_terminal(r: &Reg, args: &str, lang: &str) -> Option<String> {
    let Ok(script) = which("script") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "util-linux's script is missing"
        );
        return None;
    };
    let typescript = r.dir.path().join("typescript");
    let line = format!(
        "{} --db {} --officer tester {args} > {}",
        env!("CARGO_BIN_EXE_vigia"),
        r.db().display(),
        r.dir.path().join("out.txt").display()
    );
    let o = std::process::Command::new(script)
        .args(["-qc", &line])
        .arg(&typescript)
        .env("LANG", lang)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("VIGIA_LANG")
        .env_remove("VIGIA_KEY")
        .env("XDG_DATA_HOME", r.dir.path())
        .env("XDG_CONFIG_HOME", r.dir.path())
        .env("TMPDIR", r.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{args}: {o:?}");
    Some(String::from_utf8_lossy(&std::fs::read(&typescript).unwrap()).into_owned())
}

/// 5,000 acceptances imported and adjudicated on a terminal: each command's bar counts the
/// file's rows (the import) and the acceptances (the adjudication), in the locale's language;
/// without a terminal neither writes anything on standard error.
#[test]
fn the_acceptances_import_and_the_adjudication_show_their_progress() {
    let demo = include_str!("../../schema/demo/aceptaciones-demo.csv");
    let (header, first) = {
        let mut lines = demo.lines();
        (lines.next().unwrap(), lines.next().unwrap())
    };
    let mut csv = format!("{header}\n");
    for i in 0..5000u64 {
        let doc = 3_000_000_000u64 + i;
        csv.push_str(&first.replace("1.000.000.001", &doc.to_string()));
        csv.push('\n');
    }
    let open = [
        "offer",
        "open",
        "D3939-2004",
        "--opens",
        "2024-01-02",
        "--closes",
        "2024-03-08",
        "--reason",
        "prueba",
    ];
    let r = Reg::new();
    r.ok(&open);
    let path = r.file("aceptaciones.csv", csv.as_bytes());
    let import = format!("acceptances import {path} --program D3939-2004");
    let Some(drawn) = on_a_terminal(&r, &import, "en_US.UTF-8") else {
        return;
    };
    assert!(drawn.contains("importing acceptances"), "{drawn}");
    assert!(
        drawn.contains("/5000"),
        "the file's rows as the total: {drawn}"
    );
    let Some(drawn) = on_a_terminal(
        &r,
        "offer adjudicate D3939-2004 --on 2024-03-15 --dry-run",
        "es_CO.UTF-8",
    ) else {
        return;
    };
    assert!(
        drawn.contains("adjudicando: aceptaciones escritas"),
        "{drawn}"
    );
    assert!(
        drawn.contains("/5000") && drawn.contains("faltan"),
        "{drawn}"
    );
    // the long phase before the result is counted too: the acceptances read (a review found
    // the bar silent until the rows were printed)
    assert!(
        drawn.contains("adjudicando: aceptaciones leídas"),
        "{drawn}"
    );
    // the real run: the acceptances read, then the awards registered, in one bar (total: at
    // most two steps per acceptance)
    let Some(drawn) = on_a_terminal(
        &r,
        "offer adjudicate D3939-2004 --on 2024-03-15",
        "es_CO.UTF-8",
    ) else {
        return;
    };
    assert!(
        drawn.contains("adjudicando: aceptaciones leídas, luego adjudicaciones registradas")
            && drawn.contains("/10000"),
        "{drawn}"
    );
    // without a terminal: nothing on standard error, the same import
    let r2 = Reg::new();
    r2.ok(&open);
    let path = r2.file("aceptaciones.csv", csv.as_bytes());
    let o = r2.run(&["acceptances", "import", &path, "--program", "D3939-2004"]);
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        common::err(&o)
    );
    assert!(common::out(&o).contains("5000 acceptance(s) added"));
    let o = r2.run(&["offer", "adjudicate", "D3939-2004", "--on", "2024-03-15"]);
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        common::err(&o)
    );
}
