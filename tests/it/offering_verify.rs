//! `offer verify` of an acta read as it is checked (issue 23): the 5,000 generated acceptances
//! of `offering_scale`, whose Markdown acta is many times the chunk it is read by and whose PDF
//! is read a page at a time; a byte changed in the middle of either is caught. (The million-row
//! acta is measured by `examples/offering.rs`, not tested here.)

use crate::common::{Reg, out};
use crate::offering_scale::{TEST_PROGRAM, acceptances};

fn adjudicated() -> Reg {
    let text = std::fs::read_to_string(TEST_PROGRAM)
        .unwrap()
        .replace("shares_offered = 10", "shares_offered = 150000")
        .replace("shares = 6\n", "shares = 149996\n");
    let r = crate::offering::opened(&text);
    crate::offering::adjudicated_with_acta(&r, &acceptances(5_000));
    r.ok(&["offer", "acta", "EBSA-TEST", "--out", "acta.md"]);
    r
}

#[test]
fn a_large_acta_verifies_read_as_it_is_checked_and_a_byte_changed_in_its_middle_is_caught() {
    let r = adjudicated();
    let md = std::fs::read(r.dir.path().join("acta.md")).unwrap();
    let pdf = std::fs::read(r.dir.path().join("acta.pdf")).unwrap();
    // larger than the chunk Markdown is read by (64 KiB), many pages of PDF
    assert!(md.len() > 6 * 65_536, "{} bytes", md.len());
    for f in ["acta.md", "acta.pdf"] {
        let v = r.ok(&["offer", "verify", f]);
        assert!(
            v.starts_with("verified: acta of adjudication 1 of EBSA-TEST"),
            "{f}: {v}"
        );
    }
    // a digit of the row in the middle of the Markdown acta: the line is named
    let text = String::from_utf8(md.clone()).unwrap();
    let row = "| 2.500 | ";
    let start = text.find(row).expect("row 2.500");
    let end = start + text[start..].find('\n').unwrap();
    let line = &text[start..end];
    let at = start + line.rfind(|c: char| c.is_ascii_digit()).unwrap();
    let mut forged = md.clone();
    forged[at] = if forged[at] == b'9' {
        b'8'
    } else {
        forged[at] + 1
    };
    std::fs::write(r.dir.path().join("forged.md"), &forged).unwrap();
    let o = r.run(&["offer", "verify", "forged.md"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let v = out(&o);
    let number = text[..start].matches('\n').count() + 1;
    assert!(
        v.starts_with(&format!(
            "NOT VERIFIED: at line {number} of the file the document says "
        )),
        "{v}"
    );
    assert!(v.contains("| 2.500 |"), "{v} (file line {number})");
    // a byte in the middle of the PDF (a page's compressed text): never verified
    let mut forged = pdf.clone();
    let mid = forged.len() / 2;
    forged[mid] ^= 0x20;
    std::fs::write(r.dir.path().join("forged.pdf"), &forged).unwrap();
    let o = r.run(&["offer", "verify", "forged.pdf"]);
    assert_ne!(o.status.code(), Some(0), "{}", out(&o));
    assert!(!out(&o).starts_with("verified"), "{}", out(&o));
}
