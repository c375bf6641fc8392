//! Issue 11 (hardening): documents are placed only after the register commits, never over an
//! existing file or through a symlink, readable by their owner only; `notice verify` refuses
//! hostile PDFs within fixed limits instead of crashing; officer-typed text is inert in the
//! Markdown and HTML notices.

use crate::common::{HEADER, Reg};

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
