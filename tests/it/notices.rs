//! Fine notices end to end: the three formats of one notice as reviewed snapshots, the PDF's text
//! read back independently (through the PDF's own ToUnicode map), numbering and re-issue,
//! batch issue, and `notice verify` catching an altered total. Figures: SPEC.md §5 with the
//! payment of 500,000 on 2024-12-15 → 626,823 due at 2025-02-10.

use crate::common::{self, Reg};
use crate::pdf_glyphs::{decoded, text_changed, to_unicode};
use printpdf::lopdf;

/// A register with the SPEC §5 breach and its partial payment (fictional holder Ana Prueba).
pub(crate) fn spec_register() -> Reg {
    spec_register_in(Reg::new())
}

/// The SPEC §5 register's breach 1 paid in full on 2025-02-10: $ 626.823, what is due that day
/// (the index of a batch liquidated to that day shows it).
pub(crate) fn pay_in_full(r: &Reg) {
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2025-02-10",
        "--amount",
        "626823",
    ]);
}

/// The SPEC §5 register over `r`, a fresh register with the shipped program (or one with a tail).
pub(crate) fn spec_register_in(r: Reg) -> Reg {
    let r = r.with_letterhead().with_holders();
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    r.ok(&[
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--price",
        "1100",
        "--date",
        "2024-06-28",
    ]);
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
        "1000",
        "--consideration-per-share",
        "1450",
        "--evidence",
        "contrato de compraventa",
    ]);
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2024-12-15",
        "--amount",
        "500000",
    ]);
    r
}

/// `notice render NUMBER --format F --out NAME`: the stored notice written again.
fn render(r: &Reg, number: &str, format: &str, name: &str) -> Vec<u8> {
    let path = r.dir.path().join(name);
    let p = path.display().to_string();
    r.ok(&["notice", "render", number, "--format", format, "--out", &p]);
    std::fs::read(&path).unwrap()
}

fn issue(r: &Reg, format: &str, name: &str, date: &str) -> Vec<u8> {
    let path = r.dir.path().join(name);
    let p = path.display().to_string();
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2025-02-10",
        "--date",
        date,
        "--reason",
        "fecha del caso de prueba",
        "--format",
        format,
        "--out",
        &p,
    ]);
    std::fs::read(&path).unwrap()
}

/// Every text-showing string of the PDF, decoded through its ToUnicode maps, in content order.
fn pdf_strings(bytes: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(bytes).unwrap();
    let maps = to_unicode(&doc);
    let mut out = Vec::new();
    for (_, page) in doc.get_pages() {
        let content = doc.get_and_decode_page_content(page).unwrap();
        let mut font: Vec<u8> = Vec::new();
        for op in content.operations {
            match op.operator.as_str() {
                "Tf" => font = op.operands[0].as_name().unwrap().to_vec(),
                "Tj" => {
                    let lopdf::Object::String(b, _) = &op.operands[0] else {
                        continue;
                    };
                    out.push(decoded(&maps[&font], b));
                }
                _ => {}
            }
        }
    }
    out
}

/// The notice carries the audit chain's head right after it was recorded; the hash depends on the
/// time of every write, so the snapshot shows a placeholder and this checks the hash against the
/// trail: the event the notice names holds exactly that hash, and it is the notice's own event.
pub(crate) fn chain_head_checked(r: &Reg, text: &str) -> String {
    chain_head_checked_as(r, text, ("notices", "notice.issue"))
}

/// [`chain_head_checked`] for a document recorded as `(entity, action)` (a paz y salvo:
/// `("settlements", "settlement.issue")`).
pub(crate) fn chain_head_checked_as(r: &Reg, text: &str, recorded: (&str, &str)) -> String {
    let at = text
        .find("evento No. ")
        .expect("the notice names its audit event");
    let rest = &text[at + "evento No. ".len()..];
    let seq: i64 = rest[..rest.find(' ').unwrap()].parse().unwrap();
    let start = at + rest.find("SHA-256").unwrap() + "evento No. ".len() + "SHA-256".len();
    let tail = &text[start..];
    let skip = tail.len() - tail.trim_start().len();
    let hash = &tail[skip..skip + 64];
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{hash}");
    let log = r.json(&["audit", "log", "--format", "json"]);
    let event = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seq"] == seq)
        .expect("the event the notice names");
    assert_eq!(event["hash"], hash);
    assert_eq!(
        (event["entity"].as_str(), event["action"].as_str()),
        (Some(recorded.0), Some(recorded.1))
    );
    // the day the notice was issued (issue 20) is the day the test runs
    let issued =
        vigia::report::notice::long_date(vigia::calendar::colombia_date(chrono::Utc::now()));
    text.replace(hash, "<cabeza de la cadena>").replace(
        &format!("Fecha de expedición: {issued}"),
        "Fecha de expedición: <hoy>",
    )
}

#[test]
fn the_three_formats_of_one_notice() {
    let r = spec_register();
    let md = String::from_utf8(issue(&r, "md", "n.md", "2025-02-11")).unwrap();
    let fingerprint =
        r.json(&["breach", "show", "1", "--format", "json"])["liquidations"][0]["sha256"]
            .as_str()
            .unwrap()
            .to_string();
    assert!(md.contains(&fingerprint));
    insta::assert_snapshot!("notice_markdown", chain_head_checked(&r, &md));
    // the other formats are the same notice rendered again: no new number (issue 14)
    let html = String::from_utf8(render(&r, "MULTA-2025-0001", "html", "n.html")).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") && !html.contains("src=") && !html.contains("href="),
        "self-contained"
    );
    insta::assert_snapshot!("notice_html", chain_head_checked(&r, &html));

    let pdf = render(&r, "MULTA-2025-0001", "pdf", "n.pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    // the fonts carry only the glyphs the notice draws: with the whole of DejaVu Serif embedded
    // (two faces, 737 KB) the three pages took 483 KB
    assert!(pdf.len() < 100_000, "{} bytes", pdf.len());
    // its ID is its own (from the footer that names it), not shared by every notice
    let id: String = {
        use sha2::Digest;
        sha2::Sha256::digest("Notificación MULTA-2025-0001".as_bytes())
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let trailer_id = format!("/ID[({id})({id})]");
    assert!(
        pdf.windows(trailer_id.len())
            .any(|w| w == trailer_id.as_bytes()),
        "{trailer_id} not in the PDF"
    );
    let strings = pdf_strings(&pdf);
    let all = strings.join("\n");
    for expected in [
        "NOTIFICACIÓN DE MULTA No. MULTA-2025-0001",
        "Ana Prueba, identificado(a) con CC No. 1000000001.",
        // `$` bound to its figure by a no-break space (issue 20)
        "TOTAL A PAGAR AL 10 DE FEBRERO DE 2025: $\u{a0}626.823 (SEISCIENTOS VEINTISÉIS",
        "MIL OCHOCIENTOS VEINTITRÉS PESOS M/CTE).",
        "Notificación MULTA-2025-0001 — Página 1 de 3",
    ] {
        assert!(
            strings.iter().any(|s| s == expected),
            "missing {expected:?} in:\n{all}"
        );
    }
    // the term runs from delivery (the shipped program's reading); the date if delivered that day
    assert!(
        strings
            .join(" ")
            .contains("si la recibe en su fecha, vence el 25 de febrero de 2025."),
        "{all}"
    );
    // the fingerprint may wrap at the page width: it is in the text once its pieces are joined
    assert!(
        strings.concat().contains(&fingerprint),
        "fingerprint missing"
    );
    // the page is Letter: 612 × 792 points
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let page = doc
        .get_dictionary(*doc.get_pages().values().next().unwrap())
        .unwrap();
    let mb: Vec<f32> = page
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect();
    assert_eq!(
        mb.iter().map(|x| x.round() as i64).collect::<Vec<_>>(),
        vec![0, 0, 612, 792]
    );
    // and the fonts are embedded
    assert!(pdf.windows(9).any(|w| w == b"FontFile2"));
    insta::assert_snapshot!("notice_pdf_text", chain_head_checked(&r, &all));
}

#[test]
fn numbering_reissue_and_list() {
    let r = spec_register();
    let o = r.ok(&[
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
        r.dir.path().to_str().unwrap(),
    ]);
    assert!(
        o.contains("MULTA-2025-0001")
            && o.contains("total $ 626.823")
            && o.contains("pay by 2025-02-25"),
        "{o}"
    );
    assert!(r.dir.path().join("MULTA-2025-0001.md").exists());
    // a later notice for a later date: new number, cites the earlier one, which stays
    r.ok(&[
        "rates",
        "add",
        "--from",
        "2026-11-01",
        "--to",
        "2026-11-30",
        "--ibc",
        "19.00",
        "--resolution",
        "SFC Res. prueba",
    ]);
    let md = String::from_utf8(issue(&r, "md", "later.md", "2026-01-05")).unwrap();
    assert!(
        md.contains("MULTA-2026-0001"),
        "a new year starts a new sequence"
    );
    assert!(
        md.contains("reemplaza la No. MULTA-2025-0001 del 11 de febrero de 2025"),
        "{md}"
    );
    // 10 business days from Monday 2026-01-05: Reyes moves to Monday 12 January → 20 January
    assert!(md.contains("vence el 20 de enero de 2026"), "{md}");
    let list = r.json(&["notice", "list", "--format", "json"]);
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(list[1]["supersedes"], "MULTA-2025-0001");
    assert!(r.ok(&["audit", "verify"]).contains("intact"));
}

#[test]
fn verify_catches_an_altered_total_in_every_format() {
    let r = spec_register();
    for (format, name) in [("md", "v.md"), ("html", "v.html"), ("pdf", "v.pdf")] {
        issue(&r, format, name, "2025-02-11");
        let path = r.dir.path().join(name).display().to_string();
        let ok = r.ok(&["notice", "verify", &path]);
        assert!(
            ok.contains("document text and figures: match") && ok.contains("same figures"),
            "{ok}"
        );
    }
    // Markdown and HTML: someone edits the total.
    for name in ["v.md", "v.html"] {
        let path = r.dir.path().join(name);
        // HTML binds `$` to its figure with a no-break space (issue 20)
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("$ 626.823", "$ 26.823")
            .replace("$\u{a0}626.823", "$\u{a0}26.823");
        std::fs::write(&path, text).unwrap();
        let o = r.run(&["notice", "verify", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let out = common::out(&o);
        assert!(
            out.contains("DO NOT MATCH") && out.contains("$ 626.823") && out.contains("$ 26.823"),
            "{out}"
        );
    }
    // PDF: the glyphs of the total changed inside the page content ("626.823" → "926.823").
    let path = r.dir.path().join("v.pdf");
    let forged = text_changed(&std::fs::read(&path).unwrap(), "626.823", "926.823");
    std::fs::write(&path, forged).unwrap();
    let o = r.run(&["notice", "verify", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(common::out(&o).contains("926.823"), "{}", common::out(&o));

    // A payment recorded after the notice makes it outdated: verify says so.
    issue(&r, "md", "w.md", "2025-02-11");
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "2025-01-15",
        "--amount",
        "1000",
    ]);
    let o = r.run(&[
        "notice",
        "verify",
        r.dir.path().join("w.md").to_str().unwrap(),
    ]);
    // genuine but outdated: exit 3, not the 1 of an altered document
    assert_eq!(o.status.code(), Some(3));
    assert!(
        common::out(&o).contains(
            "but no longer in force: the register gives other figures today (a payment, stage \
             price or rate recorded since); a new notice is due."
        ),
        "{}",
        common::out(&o)
    );
    assert!(
        common::out(&o).contains("DIFFERENT figures"),
        "{}",
        common::out(&o)
    );
}

#[test]
fn pending_notices_are_issued_in_one_batch_with_an_index() {
    let r = spec_register();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "3",
        "--kind",
        // no consideration; adjudication 3 was not financed, so not a credit subrogation
        "beneficial-owner",
        "--date",
        "2024-12-01",
        "--shares",
        "100",
    ]);
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
    r.ok(&["breach", "void", "3", "--reason", "error"]);
    let dir = r.dir.path().join("out");
    let o = r.ok(&[
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
        "html",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.contains("2 notice(s) issued"), "{o}");
    // the voided breach is said to be left out, and why
    assert!(o.trim_end().ends_with("; left out: 1 voided"), "{o}");
    let index = std::fs::read_to_string(dir.join("index.csv")).unwrap();
    // the csv-excel of `notice list` (README): BOM, `;`, CRLF, Spanish headers, dd/mm/aaaa,
    // whole pesos without grouping
    let lines: Vec<&str> = index.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "\u{feff}Número;Incumplimiento;Liquidación;Tipo documento;Número documento;Nombre;Total a pagar;Hasta;Vence;Archivo"
    );
    assert_eq!(
        lines[1],
        // the program counts the term from delivery: no deadline until one is recorded, as
        // `notice list` says (LEGAL_NOTES §7.3)
        "MULTA-2025-0001;1;1;CC;1000000001;Ana Prueba;626823;10/02/2025;;MULTA-2025-0001.html",
        "{index}"
    );
    assert!(lines[2].starts_with("MULTA-2025-0002;2;"), "{index}");
    assert_eq!(lines[3], "", "{index}");
    let lines = &lines[..3];
    assert_eq!(lines.len(), 3, "the voided breach gets no notice");
    assert!(dir.join("MULTA-2025-0002.html").exists());
    // a fourth breach, paid before the batch's date more than its fine can come to (5 shares,
    // well under $ 100.000.000): the batch leaves it out as paid in full
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "2",
        "--kind",
        "sale",
        "--date",
        "2024-12-05",
        "--shares",
        "5",
    ]);
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "4",
        "--date",
        "2025-01-10",
        "--amount",
        "100.000.000",
    ]);
    // a second batch into the same directory replaces the index only when told to
    let o = r.ok(&[
        "notice",
        "issue",
        "--pending",
        "--until",
        "2025-02-10",
        "--date",
        "2025-02-11",
        "--reason",
        "fecha del caso de prueba",
        "--out",
        dir.to_str().unwrap(),
        "--force",
    ]);
    assert!(o.contains("0 notice(s) issued"), "{o}");
    assert!(
        o.trim_end()
            .ends_with("; left out: 1 voided, 2 noticed already, 1 paid in full"),
        "{o}"
    );
}

#[test]
fn calendar_lists_the_holidays() {
    let r = Reg::new().with_letterhead();
    let j = r.json(&["calendar", "holidays", "2025", "--format", "json"]);
    let dates: Vec<&str> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["date"].as_str().unwrap())
        .collect();
    assert_eq!(dates.len(), 18);
    assert_eq!(
        dates.iter().filter(|d| **d == "2025-06-30").count(),
        2,
        "Sagrado Corazón and San Pedro share 30 June"
    );
    let t = r.ok(&["calendar", "holidays", "2026"]);
    assert!(
        t.contains("2026-01-12 | lunes") && t.contains("2026-01-06"),
        "{t}"
    );
    assert!(r.fails(&["calendar", "holidays", "1900"]).contains("1984"));
}

#[test]
fn a_notice_of_a_fine_paid_since_says_so_and_names_the_paz_y_salvo() {
    // SPEC §5 with the payment: $ 626.823 outstanding on 10/02/2025 after the 500.000 of 15/12
    let r = spec_register();
    issue(&r, "md", "n.md", "2025-02-11");
    let path = r.dir.path().join("n.md").display().to_string();
    pay_in_full(&r);
    let o = r.run(&["notice", "verify", &path]);
    // the notice is genuine, no longer in force: exit 3
    assert_eq!(o.status.code(), Some(3));
    let out = common::out(&o);
    // paid on the liquidation's day, recorded after the notice dated the 11th
    assert!(
        out.contains(
            "recomputed from the register today: DIFFERENT figures: the fine was paid in full on \
             2025-02-10, the day the notice prices the fine to (the notice is of 2025-02-11); \
             nothing is left to demand: issue its paz y salvo (vigia settlement issue), not a new \
             notice"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "but no longer in force: the fine was paid in full on 2025-02-10, the day the notice \
             prices the fine to (the notice is of 2025-02-11); its paz y salvo is due, not a new \
             payment demand."
        ),
        "{out}"
    );
    assert!(!out.contains("issue a new notice"), "{out}");
    r.ok(&[
        "settlement",
        "issue",
        "1",
        "--date",
        "2025-02-12",
        "--out",
        &r.dir.path().join("p.md").display().to_string(),
    ]);
    let out = common::out(&r.run(&["notice", "verify", &path]));
    assert!(
        out.contains("nothing is left to demand: its paz y salvo is PAZ-2025-0001 of 2025-02-12"),
        "{out}"
    );
}

/// A fine paid in full while the stage price is still pending: its paz y salvo is refused, and
/// the refusal names the command that records the price (`program stage-price`), in both
/// languages. (SPEC §5's figures: the transfer price 1.450 is above any stage price, so the
/// $ 626.823 of 10/02/2025 pays it, but the liquidation stays provisional.)
#[test]
fn a_paz_y_salvo_of_a_fine_priced_without_the_stage_price_names_the_command_that_records_it() {
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
        "1000",
        "--consideration-per-share",
        "1450",
    ]);
    for (date, amount) in [("2024-12-15", "500000"), ("2025-02-10", "626823")] {
        let args = ["payment", "record", "--breach", "1", "--date", date];
        r.ok(&[&args[..], &["--amount", amount]].concat());
    }
    let issue = ["settlement", "issue", "1", "--date", "2025-02-12"];
    let en = r.fails(&issue);
    assert!(
        en.contains(
            "breach 1: its liquidation is provisional (the later stage's price is pending), so \
             the fine may still rise; record the stage price first, or that no later stage will \
             happen (`vigia program stage-price D3939-2004 --stage 2|3|none [--price P] --date D`)"
        ),
        "{en}"
    );
    let es = r.fails(&[&["--lang", "es"][..], &issue].concat());
    assert!(
        es.contains(
            "registre primero el precio de la etapa, o que no habrá etapa posterior (`vigia \
             program stage-price D3939-2004 --stage 2|3|none [--price P] --date FECHA`)"
        ),
        "{es}"
    );
}
