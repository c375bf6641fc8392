//! What the check writes: nothing when a run fails, a report file replaced whole, cells that cannot
//! run as formulas, and a past as-of date (the register with every case is in `check.rs`).

use crate::check::*;
use crate::common::{self, HEADER, PROGRAM, Reg};
use serde_json::Value;
use std::collections::BTreeSet;

/// 1,100 holders without a pledge (more findings than one batch, more bytes than any output
/// buffer), then an adjudication whose stored price is not a number: the check fails after it
/// has found and handed on more than a thousand findings.
fn register_failing_mid_run() -> Reg {
    let r = Reg::new().with_letterhead();
    let mut csv = String::from(HEADER);
    for i in 1..=1100 {
        csv.push_str(&format!(
            "CC,{},Sin Prenda {i},natural,trabajador,10,,2025-06-02,,\n",
            1_000_000_000 + i
        ));
    }
    let path = r.file("a.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    r.conn()
        .execute(
            "INSERT INTO adjudications (id, program_id, holder_id, import_id, line, category, shares,
                 price_per_share, adjudicated_on, created_at, created_by)
             VALUES (5000, 1, 1, 1, 2, 'trabajador', 10, 'not a price', '2025-06-02',
                 '2025-06-02T00:00:00Z', 'migration')",
            [],
        )
        .unwrap();
    r
}

#[test]
fn a_run_that_fails_writes_nothing_however_much_it_had_found() {
    // issue 11: main discards its own buffer on error, but what had already been flushed (a
    // check writes findings as it finds them) reached standard output or --out
    let r = register_failing_mid_run();
    let previous = r.file("report", b"yesterday's report\n");
    for format in ["csv", "json", "table"] {
        let err = r.fails(&["check", "--as-of", "2025-12-01", "--format", format]);
        assert!(err.contains("not a price"), "{format}: {err}");
        let o = r.run(&[
            "check",
            "--as-of",
            "2025-12-01",
            "--format",
            format,
            "--out",
            &previous,
        ]);
        assert_eq!(o.status.code(), Some(2), "{format}");
        assert_eq!(
            std::fs::read_to_string(&previous).unwrap(),
            "yesterday's report\n",
            "{format}: --out is left as it was"
        );
    }
    // and no temporary file is left behind
    let names: BTreeSet<String> = std::fs::read_dir(r.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("vigia.db"))
        .collect();
    // (`vigia/` is the audit key's directory: the harness's XDG_CONFIG_HOME is the test dir)
    assert_eq!(
        names,
        ["a.csv", "report", "vigia"]
            .iter()
            .map(|n| n.to_string())
            .collect()
    );
}

#[test]
fn a_report_written_to_a_file_replaces_it_whole() {
    let r = register_failing_mid_run();
    // the corrupt row stays (the register is append-only): check a program it is not in
    let p2 = std::fs::read_to_string(PROGRAM)
        .unwrap()
        .replace("code = \"D3939-2004\"", "code = \"P2\"");
    let p2 = r.file("p2.toml", p2.as_bytes());
    r.ok(&["program", "add", &p2]);
    let path = r.file(
        "b.csv",
        format!("{HEADER}CC,2000000001,Otra,natural,trabajador,10,,2025-06-02,,\n").as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "P2"]);
    let report = r.file(
        "report.csv",
        b"yesterday's report, longer than today's\n"
            .repeat(100)
            .as_slice(),
    );
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-12-01",
        "--program",
        "P2",
        "--format",
        "csv",
        "--out",
        &report,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    assert!(o.stdout.is_empty());
    let text = std::fs::read_to_string(&report).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    // something that is not a file (here our standard output, a pipe) is written to, not
    // replaced
    let o = r.run(&[
        "check",
        "--as-of",
        "2025-12-01",
        "--program",
        "P2",
        "--format",
        "csv",
        "--out",
        "/dev/stdout",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
    assert_eq!(common::out(&o), text);
    // a symbolic link is refused, like every other output's (issue 24.4): its target is left
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let target = r.file("target.csv", b"old\n");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = r.dir.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let o = r.run(&[
            "check",
            "--as-of",
            "2025-12-01",
            "--program",
            "P2",
            "--format",
            "csv",
            "--out",
            link.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", common::err(&o));
        assert!(
            common::err(&o).contains("it is a symbolic link"),
            "{}",
            common::err(&o)
        );
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("MISSING_PLEDGE,high,P2,CC,2000000001,Otra,")
    );
}

#[test]
fn cells_that_could_be_formulas_or_terminal_escapes_are_made_harmless() {
    // data entered outside vigia's import (which may refuse such names): a formula, and a name
    // that would clear the terminal, recolour it and ring its bell
    let r = Reg::new().with_letterhead();
    let path = r.file(
        "a.csv",
        format!("{HEADER}CC,1000000001,Primera,natural,trabajador,10,,2025-06-02,,\n").as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let conn = r.conn();
    for (id, name) in [
        (2, "=HYPERLINK(\"http://example.com\",\"x\")"),
        (3, "\u{1b}[2J\u{1b}[31mRojo\u{7}\nSegunda línea"),
        (4, "-2+3"),
    ] {
        conn.execute(
            "INSERT INTO holders (id, doc_type, doc_number, name, person_type, created_at, created_by)
             VALUES (?1, 'CC', ?2, ?3, 'natural', '2025-06-02T00:00:00Z', 'migration')",
            rusqlite::params![id, format!("100000000{id}"), name],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO adjudications (id, program_id, holder_id, import_id, line, category, shares,
                 price_per_share, adjudicated_on, created_at, created_by)
             VALUES (?1, 1, ?1, 1, ?1, 'trabajador', 10, '963.00', '2025-06-02',
                 '2025-06-02T00:00:00Z', 'migration')",
            [id],
        )
        .unwrap();
    }
    // CSV, the check's and a listing's: a leading ' keeps the spreadsheet from evaluating it
    for args in [
        &["check", "--as-of", "2025-12-01", "--format", "csv"][..],
        &["adjudications", "list", "--format", "csv"][..],
    ] {
        let o = r.run(args);
        let rows = csv_rows(&common::out(&o));
        let names: Vec<String> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .find(|c| c.contains("HYPERLINK") || c.contains("-2+3") || c.contains("Rojo"))
                    .unwrap_or("")
                    .to_string()
            })
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(
            names,
            [
                "'=HYPERLINK(\"http://example.com\",\"x\")",
                "\u{1b}[2J\u{1b}[31mRojo\u{7}\nSegunda línea",
                "'-2+3"
            ],
            "{args:?}"
        );
    }
    // tables, the check's and a listing's: no control character reaches the terminal, and each
    // row keeps to its line
    for args in [
        &["check", "--as-of", "2025-12-01"][..],
        &["adjudications", "list"][..],
    ] {
        let t = String::from_utf8(r.run(args).stdout).unwrap();
        assert!(
            !t.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: {t:?}"
        );
        assert!(t.contains("[2J[31mRojo Segunda línea"), "{t}");
        assert!(t.contains("| =HYPERLINK("), "{t}");
        let widths: BTreeSet<usize> = t
            .lines()
            .filter(|l| l.contains('|'))
            .map(unicode_width::UnicodeWidthStr::width)
            .collect();
        assert!(
            widths.len() <= 2,
            "{args:?}: every row as wide as the header: {t}"
        );
    }
    // JSON keeps the value as it is (escaped)
    let v: Value = serde_json::from_str(&common::out(&r.run(&[
        "check",
        "--as-of",
        "2025-12-01",
        "--format",
        "json",
    ])))
    .unwrap();
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["holder"] == "-2+3")
    );
}

/// The JSON report, byte for byte as worked out by hand: names with quotes, accents, a
/// backslash, a terminal's escape, U+2028 and a tab (JSON escapes the quotes, the backslash and
/// the control characters, and leaves the rest as it is), each finding on its line.
#[test]
fn the_json_report_is_written_byte_for_byte() {
    let r = Reg::new().with_letterhead();
    let path = r.file(
        "a.csv",
        format!("{HEADER}CC,1000000001,Primera,natural,trabajador,10,,2025-06-02,,\n").as_bytes(),
    );
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let conn = r.conn();
    for (id, name) in [
        (2, "Ana \"la\" Peñaloza"),
        (3, "Núñez \\ Ávila\u{1b}[1m\u{2028}fin\t"),
    ] {
        conn.execute(
            "INSERT INTO holders (id, doc_type, doc_number, name, person_type, created_at, created_by)
             VALUES (?1, 'CC', ?2, ?3, 'natural', '2025-06-02T00:00:00Z', 'migration')",
            rusqlite::params![id, format!("100000000{id}"), name],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO adjudications (id, program_id, holder_id, import_id, line, category, shares,
                 price_per_share, adjudicated_on, created_at, created_by)
             VALUES (?1, 1, ?1, 1, ?1, 'trabajador', 10, '963.00', '2025-06-02',
                 '2025-06-02T00:00:00Z', 'migration')",
            [id],
        )
        .unwrap();
    }
    // none of the three has a pledge, and their lock-ups (two years) end on 2027-06-02
    let line = |id: u8, holder: &str| {
        format!(
            r#"{{"code":"MISSING_PLEDGE","severity":"high","program":"D3939-2004","doc_type":"CC","doc_number":"100000000{id}","holder":"{holder}","adjudication_id":{id},"breach_id":null,"outstanding":null,"reason":"no pledge in force during the lock-up (ends 2027-06-02): register it (Art. 10)"}}"#
        )
    };
    let expected = format!(
        "{{\n  \"as_of\": \"2025-06-30\",\n  \"findings\": [\n    {},\n    {},\n    {}\n  ],\n  \"findings_total\": 3,\n  \"summary\": {{\"MISSING_PLEDGE\":3}}\n}}\n",
        line(1, "Primera"),
        line(2, r#"Ana \"la\" Peñaloza"#),
        line(3, "Núñez \\\\ Ávila\\u001b[1m\u{2028}fin\\t"),
    );
    let out = r.dir.path().join("report.json");
    for args in [
        &["check", "--as-of", "2025-06-30", "--format", "json"][..],
        &[
            "check",
            "--as-of",
            "2025-06-30",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ][..],
    ] {
        let o = r.run(args);
        assert_eq!(o.status.code(), Some(1), "{}", common::err(&o));
        let written = if o.stdout.is_empty() {
            std::fs::read_to_string(&out).unwrap()
        } else {
            common::out(&o)
        };
        assert_eq!(written, expected, "{args:?}");
    }
}

/// A check as of a past day sees the register as it stood then: after the demo's whole story,
/// the check as of 10/01/2025 gives what the demo's own check gave that day (README's tour): the
/// first notice, MULTA-2024-0001 (due 17/12/2024), overdue with $ 615.207 outstanding and its
/// pledge enforceable; the notice dated 10/02/2025 and the payment of that day did not exist yet.
#[test]
fn a_check_as_of_a_past_day_ignores_what_came_after() {
    let r = Reg::without_register();
    let db = r.demo();
    let key = std::path::Path::new(&db).with_file_name("audit.key");
    let o = r.run(&[
        "--db",
        &db,
        "--key",
        key.to_str().unwrap(),
        "check",
        "--as-of",
        "2025-01-10",
        "--format",
        "csv",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let csv = common::out(&o);
    assert_eq!(
        csv.lines().count(),
        7,
        "six findings, as on that day:\n{csv}"
    );
    assert!(
        csv.lines().any(
            |l| l.starts_with("NOTICE_OVERDUE,high,D3939-2004,CC,1000000001,")
                && l.contains(",1,1,615207.00,notice MULTA-2024-0001 was due on 2024-12-17")
        ),
        "{csv}"
    );
    assert!(csv.contains("PLEDGE_ENFORCEABLE,high,"), "{csv}");
    assert!(
        !csv.contains("NOTICE_UNDELIVERED"),
        "no notice of 2025 existed yet:\n{csv}"
    );
}
