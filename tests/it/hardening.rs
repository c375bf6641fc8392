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
    let r = Reg::new().with_letterhead();
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
        "--reason",
        "fecha del caso de prueba",
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
        "--reason",
        "fecha del caso de prueba",
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
    let r = Reg::new().with_letterhead().with_holders();
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
        "--reason",
        "fecha del caso de prueba",
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
        "--reason",
        "fecha del caso de prueba",
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
    assert!(index.contains("\r\nMULTA-2025-0002;2;"), "{index}");
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
    let r = Reg::new().with_letterhead();
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

/// A PDF with a classic cross-reference table over `objects` (object i+1 is `objects[i]`, whole
/// `N 0 obj ... endobj` bodies without the header), catalog `1 0 R`.
fn pdf_with(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        pdf.extend_from_slice(body);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        pdf.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<</Size {}/Root 1 0 R>>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// `notice verify` on a hostile file: exit 2, nothing on stdout, one sentence naming the file and
/// the limit.
fn refused(r: &Reg, name: &str, bytes: &[u8], limit: &str) {
    let path = r.file(name, bytes);
    let e = r.fails(&["notice", "verify", &path]);
    assert_eq!(
        e,
        format!("vigia: error: notice verify {path}: not a notice vigia can read: {limit}\n")
    );
}

#[test]
fn notice_verify_refuses_deeply_nested_pdfs_without_crashing() {
    let r = Reg::new().with_letterhead();
    let depth = 10_000;
    let nested = [b"[".repeat(depth), b"]".repeat(depth)].concat();
    let pdf = pdf_with(&[nested]);
    assert!(pdf.len() < 25_000);
    refused(
        &r,
        "nested.pdf",
        &pdf,
        "nested 10000 levels deep (at most 64)",
    );
    // dictionaries too, and inside a page's content stream
    let dicts = [b"<</A ".repeat(200), b">>".repeat(200)].concat();
    refused(
        &r,
        "dicts.pdf",
        &pdf_with(&[dicts]),
        "nested 200 levels deep (at most 64)",
    );
    let content = [b"[".repeat(5000), b"]".repeat(5000), b" TJ".to_vec()].concat();
    let mut stream = format!("<</Length {}>>stream\n", content.len()).into_bytes();
    stream.extend_from_slice(&content);
    stream.extend_from_slice(b"\nendstream");
    let pdf = pdf_with(&[
        b"<</Type/Catalog/Pages 2 0 R>>".to_vec(),
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>".to_vec(),
        b"<</Type/Page/Parent 2 0 R/Contents 4 0 R>>".to_vec(),
        stream,
    ]);
    refused(
        &r,
        "content.pdf",
        &pdf,
        "nested 5000 levels deep (at most 64)",
    );
}

#[test]
fn notice_verify_refuses_a_stream_whose_length_refers_to_itself() {
    let r = Reg::new().with_letterhead();
    let pdf = pdf_with(&[b"<</Length 1 0 R>>stream\nBT ET\nendstream".to_vec()]);
    refused(
        &r,
        "length.pdf",
        &pdf,
        "the /Length of object 1 refers to object 1, which is not a number",
    );
    // two streams whose lengths refer to each other
    let pdf = pdf_with(&[
        b"<</Length 2 0 R>>stream\nBT ET\nendstream".to_vec(),
        b"<</Length 1 0 R>>stream\nBT ET\nendstream".to_vec(),
    ]);
    let path = r.file("lengths.pdf", &pdf);
    let e = r.fails(&["notice", "verify", &path]);
    assert!(e.contains("which is not a number"), "{e}");
}

#[test]
fn notice_verify_refuses_a_flate_bomb_within_bounded_memory() {
    use std::io::Write;
    let r = Reg::new().with_letterhead();
    // 48 MiB of spaces deflate to about 48 KB; the limit is 16 MiB inflated
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..48 {
        z.write_all(&chunk).unwrap();
    }
    let bomb = z.finish().unwrap();
    let mut stream = format!("<</Filter/FlateDecode/Length {}>>stream\n", bomb.len()).into_bytes();
    stream.extend_from_slice(&bomb);
    stream.extend_from_slice(b"\nendstream");
    let pdf = pdf_with(&[
        b"<</Type/Catalog/Pages 2 0 R>>".to_vec(),
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>".to_vec(),
        b"<</Type/Page/Parent 2 0 R/Contents 4 0 R>>".to_vec(),
        stream,
    ]);
    refused(
        &r,
        "bomb.pdf",
        &pdf,
        "its streams inflate to more than 16 MiB, the most vigia reads",
    );
}

#[test]
fn notice_verify_refuses_a_file_larger_than_any_notice() {
    let r = Reg::new().with_letterhead();
    let mut big = b"%PDF-1.3\n".to_vec();
    big.resize(20 * 1024 * 1024 + 1, b' ');
    refused(
        &r,
        "big.pdf",
        &big,
        "it is 20971521 bytes long (at most 20 MiB)",
    );
}

#[test]
fn reading_back_damaged_copies_of_a_notice_never_panics() {
    use vigia::report::notice::Block;
    use vigia::report::pdf;
    let blocks = vec![
        Block::Title("NOTIFICACIÓN DE MULTA No. MULTA-2025-0001".into()),
        Block::Para("Ana Prueba, identificado(a) con CC No. 1000000001.".into()),
        Block::Table {
            header: vec!["Fecha".into(), "Valor".into()],
            rows: vec![vec!["2025-02-10".into(), "$ 1.143.967".into()]],
            right: vec![false, true],
        },
    ];
    let good = pdf::render(&blocks, "t", "MULTA-2025-0001", (2025, 2, 11));
    assert!(pdf::extract_text(&good).unwrap().contains("Ana Prueba"));
    // a fixed pseudo-random sequence: the same cases every run
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut read = 0;
    for case in 0..600 {
        let mut bytes = good.clone();
        if case % 2 == 0 {
            bytes.truncate((next() % good.len() as u64) as usize);
        } else {
            for _ in 0..1 + next() % 8 {
                let i = (next() % bytes.len() as u64) as usize;
                bytes[i] ^= 1 << (next() % 8);
            }
        }
        read += usize::from(pdf::extract_text(&bytes).is_ok());
    }
    // a bit flipped in a stream the reader never opens (the fonts) changes nothing: not vacuous
    assert!(read > 0, "none of 600 damaged copies read");
}

#[test]
fn a_notice_into_a_directory_that_does_not_exist_is_refused_with_nothing_stored() {
    // the document is rendered after the commit, but its file is reserved inside the transaction:
    // a path that cannot be written still refuses the notice before any number is used
    let r = breach_register();
    let missing = r.dir.path().join("no-such-dir").join("aviso.pdf");
    let before = r.dump();
    let e = r.fails(&issue_args(missing.to_str().unwrap(), &[]));
    assert!(e.contains(&missing.display().to_string()), "{e}");
    assert_eq!(r.dump(), before, "the register changed");
    assert!(!missing.exists());
    // the same path once its directory exists: the notice and its recorded file verify
    std::fs::create_dir(missing.parent().unwrap()).unwrap();
    let o = r.ok(&issue_args(missing.to_str().unwrap(), &[]));
    assert!(o.contains("notice MULTA-2025-0001 issued"), "{o}");
    assert_eq!(mode(&missing), 0o600);
    let v = r.ok(&["notice", "verify", missing.to_str().unwrap()]);
    assert!(v.contains("file: identical to the issued file"), "{v}");
    assert!(temporaries(missing.parent().unwrap()).is_empty());
}
