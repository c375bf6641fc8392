//! The fine notice as a document: one list of blocks (title, headings, paragraphs, tables,
//! signature) built from [`NoticeData`], rendered as Markdown, as one self-contained printable
//! HTML file, or as PDF (`report::pdf`). Also extracts the text back from a rendered document so
//! `notice verify` can compare it with a fresh rendering.

use crate::money::{format_cop_dp, format_number};
use crate::program::Issuer;
use crate::store::contacts::Contact;
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

/// One piece of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Title(String),
    /// Centered line under the title.
    Subtitle(String),
    Heading(String),
    Para(String),
    /// A paragraph set in bold.
    Strong(String),
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        right: Vec<bool>,
    },
    Signature(Vec<String>),
    Small(String),
}

/// `10 de febrero de 2025`.
pub fn long_date(d: NaiveDate) -> String {
    format!(
        "{} de {} de {}",
        d.day(),
        crate::lang::MESES[d.month0() as usize],
        d.year()
    )
}

pub(super) fn n(x: u64) -> String {
    format_number(Decimal::from(x))
}

pub(super) fn rank_es(rank: u8) -> &'static str {
    if rank == 1 { "primer" } else { "segundo" }
}

/// A value an officer typed, as Markdown text that stays text: `<` and `>` become entities (no
/// raw HTML, no autolink); `\`, `&`, `[`, `]`, `*`, `_`, `` ` ``, `#` and `~` are
/// backslash-escaped (no link, image, emphasis, code span, heading or entity); line breaks become
/// spaces (no new block, no table row). Parentheses stay: without a `[` no link can form, and the
/// document's own wording is full of them. Table cells escape `|` on top of this.
pub fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '&' | '[' | ']' | '*' | '_' | '`' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The issuer's letterhead: entity, NIT and address, centered above the title (nothing when the
/// program names no entity).
pub fn letterhead(issuer: &Issuer, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let Some(entity) = &issuer.entity else {
        return Vec::new();
    };
    let mut out = vec![Block::Subtitle(q(entity))];
    if let Some(nit) = &issuer.nit {
        out.push(Block::Subtitle(format!("NIT {}", q(nit))));
    }
    let place: Vec<String> = [&issuer.address, &issuer.city]
        .into_iter()
        .flatten()
        .map(|x| q(x))
        .collect();
    if !place.is_empty() {
        out.push(Block::Subtitle(place.join(", ")));
    }
    out
}

/// "Bogotá D.C., 11 de febrero de 2025", or "Fecha: 11 de febrero de 2025" without a city.
pub fn date_line(issuer: &Issuer, date: NaiveDate, q: &dyn Fn(&str) -> String) -> String {
    match &issuer.city {
        Some(city) => format!("{}, {}", q(city), long_date(date)),
        None => format!("Fecha: {}", long_date(date)),
    }
}

/// The addressee: name and document, then the address, city and e-mail on record.
pub fn addressee(
    name: &str,
    doc_type: &str,
    doc_number: &str,
    contact: Option<&Contact>,
    q: &dyn Fn(&str) -> String,
) -> String {
    let mut s = format!(
        "{}, identificado(a) con {} No. {}.",
        q(name),
        q(doc_type),
        q(doc_number)
    );
    if let Some(c) = contact {
        let place: Vec<String> = [&c.address, &c.city]
            .into_iter()
            .flatten()
            .map(|x| q(x.trim_end_matches('.')))
            .collect();
        if !place.is_empty() {
            s.push_str(&format!(" Dirección: {}.", place.join(", ")));
        }
        if let Some(e) = &c.email {
            s.push_str(&format!(" Correo electrónico: {}.", q(e)));
        }
    }
    s
}

/// How to pay: the account when the program names one, and always the reference to quote.
pub(super) fn payment_instructions(
    issuer: &Issuer,
    reference: &str,
    q: &dyn Fn(&str) -> String,
) -> String {
    match (&issuer.bank, &issuer.account) {
        (Some(bank), Some(account)) => format!(
            "Forma de pago: consignación o transferencia a {}{}, en {}, citando la referencia {}.",
            q(account),
            issuer
                .entity
                .as_ref()
                .map(|e| format!(" a nombre de {}", q(e)))
                .unwrap_or_default(),
            q(bank),
            q(reference)
        ),
        _ => format!(
            "Forma de pago: cite la referencia {} en su pago a los vendedores.",
            q(reference)
        ),
    }
}

/// The signature block: the signatory's name and position when the program names them, a line to
/// fill in by hand otherwise.
pub fn signature(issuer: &Issuer, q: &dyn Fn(&str) -> String) -> Block {
    let mut lines = vec![
        "Atentamente,".to_string(),
        String::new(),
        String::new(),
        "______________________________________".into(),
    ];
    lines.push(match &issuer.signatory_name {
        Some(x) => q(x),
        None => "Nombre:".into(),
    });
    lines.push(match &issuer.signatory_position {
        Some(x) => q(x),
        None => "Cargo:".into(),
    });
    if let Some(e) = &issuer.entity {
        lines.push(q(e));
    }
    lines.push("En representación de los Vendedores".into());
    Block::Signature(lines)
}

/// The payments table's rows: date, amount and its imputation.
pub fn payment_rows(l: &crate::fine::Liquidation) -> Vec<Vec<String>> {
    let money = MoneyFmt::of(
        l.payments
            .iter()
            .flat_map(|p| [p.amount, p.to_interest, p.to_capital, p.surplus]),
    );
    l.payments
        .iter()
        .map(|p| {
            vec![
                short_date(p.date),
                money.cop(p.amount),
                money.cop(p.to_interest),
                money.cop(p.to_capital),
                money.cop(p.surplus),
            ]
        })
        .collect()
}

/// `11/02/2025`: dates in tables, the Colombian way.
pub fn short_date(d: NaiveDate) -> String {
    format!("{:02}/{:02}/{}", d.day(), d.month(), d.year())
}

/// How the amounts of one table print: with two decimals each when any of them has cents, whole
/// pesos otherwise ([`MoneyFmt::of`], which rounds more decimals to two: amounts in pesos), or
/// with all their decimals ([`MoneyFmt::exact`]: prices per share).
#[derive(Debug, Clone, Copy)]
pub struct MoneyFmt {
    dp: u32,
    /// Each amount with at least its own decimals ([`MoneyFmt::exact`]).
    exact: bool,
}

impl MoneyFmt {
    pub fn of(amounts: impl IntoIterator<Item = Decimal>) -> MoneyFmt {
        let cents = amounts.into_iter().any(|x| !x.fract().is_zero());
        MoneyFmt {
            dp: if cents { 2 } else { 0 },
            exact: false,
        }
    }

    /// As [`MoneyFmt::of`], except that an amount with more than two decimals shows them all,
    /// none rounded: prices per share, which may have more than cents (notice layout 3 on). The
    /// others keep the table's 0 or 2 (`$ 963,00` beside `$ 1.450,125`, never `$ 963,000`, which
    /// a reader used to a thousands comma takes for 963 thousand).
    pub fn exact(amounts: impl IntoIterator<Item = Decimal>) -> MoneyFmt {
        MoneyFmt {
            exact: true,
            ..MoneyFmt::of(amounts)
        }
    }

    pub fn cop(self, x: Decimal) -> String {
        let own = if self.exact { x.normalize().scale() } else { 0 };
        format_cop_dp(x, self.dp.max(own))
    }
}

/// The decimals a column of percentages prints with: the most any of them needs.
pub fn percent_places(xs: impl IntoIterator<Item = Decimal>) -> u32 {
    xs.into_iter()
        .map(|x| x.normalize().scale())
        .max()
        .unwrap_or(0)
        .max(2)
}

/// The finishing pass over a document's blocks: no doubled punctuation where a value that ends
/// in a period meets the sentence's own ("S.A.S.."), and every ISO date inside a table cell (an
/// SFC resolution's date) in the Colombian style.
pub fn tidy(blocks: Vec<Block>) -> Vec<Block> {
    let fix = |t: String| {
        let mut t = t;
        for (from, to) in [("..", "."), (",.", ".")] {
            while t.contains(from) && !t.contains("...") {
                t = t.replace(from, to);
            }
        }
        t
    };
    blocks
        .into_iter()
        .map(|b| match b {
            Block::Para(t) => Block::Para(fix(t)),
            Block::Strong(t) => Block::Strong(fix(t)),
            Block::Subtitle(t) => Block::Subtitle(fix(t)),
            Block::Table {
                header,
                rows,
                right,
            } => Block::Table {
                header,
                rows: rows
                    .into_iter()
                    .map(|r| r.into_iter().map(|c| iso_dates_to_short(&c)).collect())
                    .collect(),
                right,
            },
            other => other,
        })
        .collect()
}

pub use crate::lang::iso_dates_to_short;

fn md_escape_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A Markdown table's header and alignment lines.
pub fn md_table_head(header: &[String], right: &[bool]) -> String {
    format!(
        "| {} |\n|{}|\n",
        header
            .iter()
            .map(|h| md_escape_cell(h))
            .collect::<Vec<_>>()
            .join(" | "),
        right
            .iter()
            .map(|r| if *r { "---:" } else { "---" })
            .collect::<Vec<_>>()
            .join("|")
    )
}

/// One row of a Markdown table.
pub fn md_table_row(cells: &[String]) -> String {
    format!(
        "| {} |\n",
        cells
            .iter()
            .map(|c| md_escape_cell(c))
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

/// Markdown, for pasting into other documents.
pub fn markdown(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        match b {
            Block::Title(t) => s.push_str(&format!("# {t}\n\n")),
            Block::Subtitle(t) => s.push_str(&format!("{t}  \n")),
            Block::Heading(t) => s.push_str(&format!("\n## {t}\n\n")),
            Block::Para(t) => s.push_str(&format!("{t}\n\n")),
            Block::Strong(t) => s.push_str(&format!("**{t}**\n\n")),
            Block::Table {
                header,
                rows,
                right,
            } => {
                s.push_str(&md_table_head(header, right));
                for r in rows {
                    s.push_str(&md_table_row(r));
                }
                s.push('\n');
            }
            Block::Signature(lines) => {
                s.push('\n');
                for l in lines {
                    s.push_str(&format!("{l}  \n"));
                }
                s.push('\n');
            }
            Block::Small(t) => s.push_str(&format!("<small>{t}</small>\n\n")),
        }
    }
    s
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const CSS: &str = "@page{size:Letter;margin:25mm 22mm 20mm 22mm}\
body{font-family:'DejaVu Serif',Georgia,'Times New Roman',serif;font-size:10.5pt;line-height:1.4;color:#000;max-width:180mm;margin:auto}\
h1{font-size:15pt;text-align:center;margin:0 0 4pt}p.sub{text-align:center;margin:0}h2{font-size:11.5pt;margin:14pt 0 4pt;border-bottom:0.5pt solid #444}\
table{border-collapse:collapse;width:100%;margin:6pt 0;font-size:9pt;page-break-inside:auto}tr{page-break-inside:avoid}\
thead{display:table-header-group}th,td{border:0.5pt solid #888;padding:2pt 4pt;vertical-align:top}th{background:#eee}\
td.r,th.r{text-align:right}p.strong{font-weight:bold}div.sig{margin-top:24pt}div.sig p{margin:0}small{font-size:8pt;word-break:break-all}";

/// One self-contained HTML file (no external resources) that prints on Letter paper.
pub fn html(blocks: &[Block], title: &str) -> String {
    let mut s = html_open(title);
    for b in blocks {
        html_block(&mut s, b);
    }
    s.push_str(HTML_CLOSE);
    s
}

/// The HTML file up to its first block (the document's title in its head).
pub fn html_open(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"es\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        html_escape(title)
    )
}

/// The HTML file after its last block.
pub const HTML_CLOSE: &str = "</body>\n</html>\n";

/// A table's start, up to its first row.
pub fn html_table_head(header: &[String], right: &[bool]) -> String {
    let mut s = String::from("<table>\n<thead><tr>");
    for (i, h) in header.iter().enumerate() {
        s.push_str(&format!(
            "<th{}>{}</th>",
            right_class(right, i),
            html_escape(h)
        ));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    s
}

/// One row of a table.
pub fn html_table_row(row: &[String], right: &[bool]) -> String {
    let mut s = String::from("<tr>");
    for (i, c) in row.iter().enumerate() {
        s.push_str(&format!(
            "<td{}>{}</td>",
            right_class(right, i),
            html_escape(c)
        ));
    }
    s.push_str("</tr>\n");
    s
}

/// A table's end, after its last row.
pub const HTML_TABLE_END: &str = "</tbody>\n</table>\n";

fn right_class(right: &[bool], i: usize) -> &'static str {
    if right.get(i).copied().unwrap_or(false) {
        " class=\"r\""
    } else {
        ""
    }
}

/// One block in HTML, pushed onto `s`.
pub fn html_block(s: &mut String, b: &Block) {
    match b {
        Block::Title(t) => s.push_str(&format!("<h1>{}</h1>\n", html_escape(t))),
        Block::Subtitle(t) => s.push_str(&format!("<p class=\"sub\">{}</p>\n", html_escape(t))),
        Block::Heading(t) => s.push_str(&format!("<h2>{}</h2>\n", html_escape(t))),
        Block::Para(t) => s.push_str(&format!("<p>{}</p>\n", html_escape(t))),
        Block::Strong(t) => s.push_str(&format!("<p class=\"strong\">{}</p>\n", html_escape(t))),
        Block::Table {
            header,
            rows,
            right,
        } => {
            s.push_str(&html_table_head(header, right));
            for r in rows {
                s.push_str(&html_table_row(r, right));
            }
            s.push_str(HTML_TABLE_END);
        }
        Block::Signature(lines) => {
            s.push_str("<div class=\"sig\">\n");
            for l in lines {
                s.push_str(&format!(
                    "<p>{}</p>\n",
                    if l.is_empty() {
                        "&nbsp;".into()
                    } else {
                        html_escape(l)
                    }
                ));
            }
            s.push_str("</div>\n");
        }
        Block::Small(t) => s.push_str(&format!("<p><small>{}</small></p>\n", html_escape(t))),
    }
}

/// The visible text of an HTML document, one line per block element.
pub fn html_text(html: &str) -> String {
    let mut out = Vec::new();
    let mut t = HtmlText::default();
    t.push(html.as_bytes(), &mut out);
    t.finish(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`html_text`] made as the HTML is read, a chunk at a time (chunks may end anywhere, inside a
/// tag, an entity or a character): the same text, with a tag's name and a pending entity held
/// between chunks. Tags and entities are ASCII, so the bytes between them pass through whole.
#[derive(Debug, Default)]
pub struct HtmlText {
    in_tag: bool,
    in_style: bool,
    tag: Vec<u8>,
    /// The start of what may be an entity (`&` and what followed it so far).
    entity: Vec<u8>,
}

/// The entities [`html_text`] reads, and what each stands for.
const ENTITIES: [(&[u8], u8); 5] = [
    (b"&nbsp;", b' '),
    (b"&lt;", b'<'),
    (b"&gt;", b'>'),
    (b"&quot;", b'"'),
    (b"&amp;", b'&'),
];

/// The bytes of a tag [`HtmlText`] keeps: enough for the longest name it looks at (`/style`).
const TAG_HELD: usize = 8;

impl HtmlText {
    /// The text of `html`, the next bytes of the document, appended to `out`.
    pub fn push(&mut self, html: &[u8], out: &mut Vec<u8>) {
        for &c in html {
            if self.in_tag {
                if c == b'>' {
                    self.in_tag = false;
                    let t = std::mem::take(&mut self.tag).to_ascii_lowercase();
                    if t.starts_with(b"style") {
                        self.in_style = true;
                    } else if t.starts_with(b"/style") {
                        self.in_style = false;
                    }
                    if t.starts_with(b"/p")
                        || t.starts_with(b"/h")
                        || t.starts_with(b"/tr")
                        || t.starts_with(b"br")
                    {
                        self.text(b'\n', out);
                    } else if t.starts_with(b"/td") || t.starts_with(b"/th") {
                        for &x in b" | " {
                            self.text(x, out);
                        }
                    }
                } else if self.tag.len() < TAG_HELD {
                    // only a tag's first bytes decide anything: an unclosed tag holds no more
                    self.tag.push(c);
                }
            } else if c == b'<' {
                self.in_tag = true;
            } else if !self.in_style {
                self.text(c, out);
            }
        }
    }

    /// The end of the document: an entity begun and not ended is text.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        out.append(&mut self.entity);
    }

    /// One byte of text, its entities read (leftmost first, as replacing each in turn does:
    /// none holds another's `&`, and only `&amp;` gives one).
    fn text(&mut self, c: u8, out: &mut Vec<u8>) {
        if self.entity.is_empty() {
            if c == b'&' {
                self.entity.push(c);
            } else {
                out.push(c);
            }
            return;
        }
        self.entity.push(c);
        if let Some((_, to)) = ENTITIES.iter().find(|(e, _)| *e == self.entity.as_slice()) {
            out.push(*to);
            self.entity.clear();
        } else if !ENTITIES.iter().any(|(e, _)| e.starts_with(&self.entity)) {
            // not an entity: its `&` is text, and what followed it is read again
            let rest = std::mem::take(&mut self.entity);
            out.push(rest[0]);
            for &x in &rest[1..] {
                self.text(x, out);
            }
        }
    }
}

/// Lines of text, trimmed, empty ones dropped: the form in which documents are compared.
pub fn normalized_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::format_percent_dp;

    /// One table's money column: two decimals on every amount when any amount has cents, whole
    /// pesos when none does (never `$ 1.450,5` beside `$ 1.450,50`); one decimal count per
    /// percent column, the most any rate in it needs and at least two (never `28,350 %` beside
    /// `28,59 %`).
    /// The text of an HTML document as `html_text` made it before it streamed: tags dropped
    /// from the whole string, then each entity replaced in turn.
    fn html_text_whole(html: &str) -> String {
        let mut out = String::new();
        let (mut in_tag, mut in_style, mut tag) = (false, false, String::new());
        for c in html.chars() {
            if in_tag {
                if c == '>' {
                    in_tag = false;
                    let t = tag.to_ascii_lowercase();
                    in_style = (in_style || t.starts_with("style")) && !t.starts_with("/style");
                    if ["/p", "/h", "/tr", "br"].iter().any(|p| t.starts_with(p)) {
                        out.push('\n');
                    } else if t.starts_with("/td") || t.starts_with("/th") {
                        out.push_str(" | ");
                    }
                    tag.clear();
                } else {
                    tag.push(c);
                }
            } else if c == '<' {
                in_tag = true;
            } else if !in_style {
                out.push(c);
            }
        }
        out.replace("&nbsp;", " ")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    }

    /// HTML read a few bytes at a time (chunks ending inside tags, entities and characters)
    /// gives the text of the whole string, entities and all.
    #[test]
    fn html_text_made_chunk_by_chunk_is_the_text_of_the_whole_document() {
        let html = "<!DOCTYPE html>\n<html><head><title>Acta &amp; más</title><style>p{x:1}</style></head>\
                    <body><h1>Ñandú &lt;1&gt; &quot;a&quot;</h1><p>&amp;lt; &&amp; &nbsp;x &am &nbsp &</p>\
                    <table><tr><th class=\"r\">N.º</th><td>$ 1.450,50</td></tr></table>\
                    <p>Sí<br>no&amp;amp;</p></body></html>\n&amp";
        let want = html_text_whole(html);
        assert!(want.contains("Ñandú <1> \"a\""), "{want}");
        assert!(want.contains("&lt; && \u{20}x &am &nbsp &"), "{want}");
        assert_eq!(html_text(html), want);
        for size in 1..=9 {
            let mut t = HtmlText::default();
            let mut out = Vec::new();
            for chunk in html.as_bytes().chunks(size) {
                t.push(chunk, &mut out);
            }
            t.finish(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), want, "chunks of {size}");
        }
    }

    /// A tag left open holds a few bytes, however long the file goes on, and a long tag's name
    /// still decides as its first bytes say.
    #[test]
    fn an_unclosed_tag_holds_only_its_first_bytes() {
        let mut t = HtmlText::default();
        let mut out = Vec::new();
        t.push(b"<p>a</p><x", &mut out);
        for _ in 0..1000 {
            t.push(&[b'y'; 1024], &mut out);
        }
        assert!(t.tag.len() <= TAG_HELD, "{}", t.tag.len());
        let mut out = Vec::new();
        let long = format!(
            "<style{}>p{{}}</style{}>b",
            " x".repeat(500),
            " z".repeat(500)
        );
        HtmlText::default().push(long.as_bytes(), &mut out);
        assert_eq!(out, b"b");
    }

    #[test]
    fn money_and_percent_decimals_are_one_per_column() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        let cents = MoneyFmt::of([d("1450.5"), d("1450"), d("1087500.00")]);
        assert_eq!(
            [d("1450.5"), d("1450"), d("1087500.00"), d("0")].map(|x| cents.cop(x)),
            ["$ 1.450,50", "$ 1.450,00", "$ 1.087.500,00", "$ 0,00"]
        );
        // trailing zero cents are no cents: whole pesos
        let whole = MoneyFmt::of([d("1450.00"), d("626823"), d("0")]);
        assert_eq!(
            [d("1450.00"), d("626823"), d("0")].map(|x| whole.cop(x)),
            ["$ 1.450", "$ 626.823", "$ 0"]
        );
        // an empty column prints whole pesos
        assert_eq!(MoneyFmt::of([]).cop(d("12")), "$ 12");
        // prices per share (notice layout 3): a third decimal is shown, not rounded to cents;
        // the column's 0 or 2 stay for the others (963,125 rounded to two was «$ 963,13»)
        let prices = [d("963"), d("963.125"), d("1100.00")];
        assert_eq!(MoneyFmt::of(prices).cop(d("963.125")), "$ 963,13");
        assert_eq!(
            prices.map(|x| MoneyFmt::exact(prices).cop(x)),
            ["$ 963,00", "$ 963,125", "$ 1.100,00"]
        );
        let exact = [d("963"), d("963.13")];
        assert_eq!(
            exact.map(|x| MoneyFmt::exact(exact).cop(x)),
            ["$ 963,00", "$ 963,13"]
        );
        let whole = [d("963"), d("1450")];
        assert_eq!(
            whole.map(|x| MoneyFmt::exact(whole).cop(x)),
            ["$ 963", "$ 1.450"]
        );

        let rates = [d("28.350"), d("28.59"), d("25.1")];
        let dp = percent_places(rates);
        assert_eq!(dp, 2, "28,350 needs only two");
        assert_eq!(
            rates.map(|x| format_percent_dp(x, dp)),
            ["28,35 %", "28,59 %", "25,10 %"]
        );
        let rates = [d("28.59"), d("25.175"), d("30")];
        let dp = percent_places(rates);
        assert_eq!(dp, 3);
        assert_eq!(
            rates.map(|x| format_percent_dp(x, dp)),
            ["28,590 %", "25,175 %", "30,000 %"]
        );
        assert_eq!(percent_places([d("30"), d("25")]), 2);
        assert_eq!(percent_places([]), 2);
    }

    #[test]
    fn long_dates_in_spanish() {
        assert_eq!(
            long_date(NaiveDate::from_ymd_opt(2025, 2, 10).unwrap()),
            "10 de febrero de 2025"
        );
        assert_eq!(
            long_date(NaiveDate::from_ymd_opt(2024, 12, 1).unwrap()),
            "1 de diciembre de 2024"
        );
    }

    #[test]
    fn officer_text_is_inert_markdown_and_plain_text_is_unchanged() {
        assert_eq!(
            md_text("<img src=x> [a](http://e) *b* _c_ `d` # & \\ ~e~\nf"),
            "&lt;img src=x&gt; \\[a\\](http://e) \\*b\\* \\_c\\_ \\`d\\` \\# \\& \\\\ \\~e\\~ f"
        );
        // what the demo's values contain is left alone
        for plain in [
            "Granahorrar Banco Comercial S.A.",
            "SFC Res. 2168 de 2024 (2024-10-31)",
            "999000001-2",
            "Marta Supuesta Díaz (DEMO) 75 % $ 1.450",
        ] {
            assert_eq!(md_text(plain), plain);
        }
    }

    #[test]
    fn html_text_keeps_the_visible_words() {
        let h = html(
            &[
                Block::Title("A & B".into()),
                Block::Table {
                    header: vec!["x".into()],
                    rows: vec![vec!["<1>".into()]],
                    right: vec![true],
                },
            ],
            "t",
        );
        let t = html_text(&h);
        assert!(
            t.contains("A & B") && t.contains("<1>") && !t.contains("font-family"),
            "{t}"
        );
    }
}
