//! Issue 11 (hardening): documents are placed only after the register commits, never over an
//! existing file or through a symlink, readable by their owner only; `notice verify` refuses
//! hostile PDFs within fixed limits instead of crashing; officer-typed text is inert in the
//! Markdown and HTML notices.

use crate::common::{self, HEADER, Reg};

/// A holder whose name, and a breach whose evidence, carry Markdown and HTML syntax.
const HOSTILE_NAME: &str =
    "# Ana <img src=x onerror=alert(1)> [click](http://evil) *x* _y_ `z` | & \\";
const HOSTILE_EVIDENCE: &str =
    "[ver](http://evil) ![i](http://evil/i.png) <script>alert(1)</script>";

fn hostile_register() -> Reg {
    let r = Reg::new();
    let csv =
        format!("{HEADER}CC,1000000001,\"{HOSTILE_NAME}\",natural,trabajador,1000,,2024-03-15,,\n");
    let path = r.file("holders.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
        "--consideration-per-share",
        "1450",
        "--evidence",
        HOSTILE_EVIDENCE,
    ]);
    r
}

#[test]
fn officer_typed_text_is_inert_in_the_markdown_and_html_notices() {
    let r = hostile_register();
    let md_path = r.dir.path().join("n.md");
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--format",
        "md",
        "--out",
        md_path.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(&md_path).unwrap();
    for raw in ["<img", "<script", "*x*", "_y_", "`z`"] {
        assert!(!md.contains(raw), "raw {raw:?} in the Markdown:\n{md}");
    }
    // no live link or image: every bracket is backslash-escaped
    let unescaped = md
        .as_bytes()
        .windows(2)
        .filter(|w| matches!(w[1], b'[' | b']') && w[0] != b'\\')
        .count();
    assert_eq!(unescaped, 0, "unescaped brackets in the Markdown:\n{md}");
    assert!(md.contains("\\[click\\](http://evil)"), "{md}");
    // the holder's line does not become a heading, and no line gains a table pipe
    assert!(md.lines().any(|l| l.starts_with("\\# Ana &lt;img")), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("# Ana")), "{md}");
    // the document still verifies: the escaping is part of the rendering
    let o = r.ok(&["notice", "verify", md_path.to_str().unwrap()]);
    assert!(o.contains("match the register"), "{o}");

    let html_path = r.dir.path().join("n.html");
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--format",
        "html",
        "--out",
        html_path.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(
        !html.contains("<img") && !html.contains("<script"),
        "{html}"
    );
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    let o = r.ok(&["notice", "verify", html_path.to_str().unwrap()]);
    assert!(o.contains("match the register"), "{o}");
}

/// The standard holders with one breach (adjudication 1) ready for a notice.
fn breach_register() -> Reg {
    let r = Reg::new().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "2024-11-20",
        "--shares",
        "10",
        "--consideration-per-share",
        "1450",
    ]);
    r
}

fn issue_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--out",
        out,
    ];
    a.extend_from_slice(extra);
    a
}

fn pending_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "notice",
        "issue",
        "--pending",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--format",
        "md",
        "--out",
        out,
    ];
    a.extend_from_slice(extra);
    a
}

/// Names in `dir` that are vigia's temporary files.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".vigia-tmp-"))
        .collect()
}

#[cfg(unix)]
fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn an_existing_file_at_out_is_not_replaced_and_no_number_is_used() {
    let r = breach_register();
    let out = r.file("aviso.pdf", b"someone else's document");
    let before = r.dump();
    let e = r.fails(&issue_args(&out, &[]));
    assert_eq!(
        e,
        format!(
            "vigia: error: --out {out}: a file already exists there; pass --force to replace it\n"
        )
    );
    assert_eq!(r.dump(), before, "the register changed");
    assert_eq!(std::fs::read(&out).unwrap(), b"someone else's document");
    assert!(temporaries(r.dir.path()).is_empty());

    // with --force it is replaced, by a notice only its owner can read
    let o = r.ok(&issue_args(&out, &["--force"]));
    assert!(o.contains("notice MULTA-2025-0001 issued"), "{o}");
    assert!(std::fs::read(&out).unwrap().starts_with(b"%PDF-"));
    #[cfg(unix)]
    assert_eq!(mode(std::path::Path::new(&out)), 0o600);
    assert!(temporaries(r.dir.path()).is_empty());
    let o = r.ok(&["notice", "verify", &out]);
    assert!(o.contains("match the register"), "{o}");
}

#[test]
fn a_notice_numbered_into_a_directory_does_not_replace_a_file_there() {
    // the name is known only once the number is: the refusal comes from inside the transaction
    let r = breach_register();
    let dir = r.dir.path().join("avisos");
    std::fs::create_dir(&dir).unwrap();
    let taken = dir.join("MULTA-2025-0001.pdf");
    std::fs::write(&taken, b"old").unwrap();
    let before = r.dump();
    let e = r.fails(&issue_args(dir.to_str().unwrap(), &[]));
    assert!(
        e.contains(&format!(
            "--out {}: a file already exists there; pass --force",
            taken.display()
        )),
        "{e}"
    );
    assert_eq!(r.dump(), before, "the register changed");
    assert_eq!(std::fs::read(&taken).unwrap(), b"old");
    assert!(temporaries(&dir).is_empty());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_at_out_is_refused_and_what_it_points_at_untouched() {
    let r = breach_register();
    let elsewhere = r.file("elsewhere.txt", b"precious");
    let link = r.dir.path().join("aviso.pdf");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let before = r.dump();
    for extra in [&[][..], &["--force"][..]] {
        let e = r.fails(&issue_args(link.to_str().unwrap(), extra));
        assert!(e.contains("is a symbolic link"), "{e}");
        assert!(
            e.starts_with(&format!("vigia: error: --out {}:", link.display())),
            "{e}"
        );
    }
    assert_eq!(r.dump(), before, "the register changed");
    assert_eq!(std::fs::read(&elsewhere).unwrap(), b"precious");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[cfg(unix)]
#[test]
fn a_pending_directory_that_is_a_symbolic_link_is_refused() {
    let r = breach_register();
    let real = r.dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = r.dir.path().join("avisos");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let before = r.dump();
    let e = r.fails(&pending_args(link.to_str().unwrap(), &["--force"]));
    assert!(e.contains("is a symbolic link"), "{e}");
    assert_eq!(r.dump(), before, "the register changed");
    assert_eq!(std::fs::read_dir(&real).unwrap().count(), 0);
}

#[test]
fn a_pending_batch_does_not_replace_an_index_or_a_document() {
    let r = breach_register();
    let dir = r.dir.path().join("lote").join("2025");
    let d = dir.to_str().unwrap();
    let o = r.ok(&pending_args(d, &[]));
    assert!(o.contains("1 notice(s) issued"), "{o}");
    #[cfg(unix)]
    {
        assert_eq!(mode(&dir), 0o700, "the directory vigia created");
        assert_eq!(mode(&r.dir.path().join("lote")), 0o700);
        assert_eq!(mode(&dir.join("index.csv")), 0o600);
        assert_eq!(mode(&dir.join("MULTA-2025-0001.md")), 0o600);
    }
    // a second batch would replace index.csv: refused before anything is issued
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-12-01",
        "--shares",
        "10",
    ]);
    let before = r.dump();
    let index = std::fs::read(dir.join("index.csv")).unwrap();
    let e = r.fails(&pending_args(d, &[]));
    assert_eq!(
        e,
        format!(
            "vigia: error: --out {}: a file already exists there; pass --force to replace it\n",
            dir.join("index.csv").display()
        )
    );
    assert_eq!(r.dump(), before, "the register changed");
    assert_eq!(std::fs::read(dir.join("index.csv")).unwrap(), index);
    // --force replaces the index with this batch's
    let o = r.ok(&pending_args(d, &["--force"]));
    assert!(o.contains("1 notice(s) issued"), "{o}");
    let index = std::fs::read_to_string(dir.join("index.csv")).unwrap();
    assert!(index.contains("MULTA-2025-0002,2,"), "{index}");
    assert!(temporaries(&dir).is_empty());
}

#[test]
fn a_later_run_removes_stale_temporary_files_in_its_directory() {
    let r = breach_register();
    let dir = r.dir.path().join("avisos");
    std::fs::create_dir(&dir).unwrap();
    let stale = dir.join(".vigia-tmp-99999-0-000000000");
    let fresh = dir.join(".vigia-tmp-99999-1-000000000");
    std::fs::write(&stale, b"left by a killed run").unwrap();
    std::fs::write(&fresh, b"another run's, in progress").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    r.ok(&issue_args(dir.to_str().unwrap(), &[]));
    assert!(!stale.exists(), "the stale temporary file is still there");
    assert!(fresh.exists(), "a recent temporary file was removed");
    assert!(dir.join("MULTA-2025-0001.pdf").exists());
}

#[cfg(unix)]
#[test]
fn the_register_is_readable_by_its_owner_only() {
    let r = Reg::new();
    assert_eq!(mode(&r.db()), 0o600);
    for side in ["vigia.db-wal", "vigia.db-shm"] {
        let p = r.dir.path().join(side);
        if p.exists() {
            assert_eq!(mode(&p), 0o600, "{side}");
        }
    }
    // a register created in a directory vigia makes: the directory is its owner's only
    let db = r.dir.path().join("nuevo").join("vigia.db");
    let o = r
        .command()
        .arg("--db")
        .arg(&db)
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", common::err(&o));
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(db.parent().unwrap()), 0o700);
}
