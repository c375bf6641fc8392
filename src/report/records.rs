//! Register records (JSON objects with ordered keys) rendered the three ways every listing and
//! showing command offers: a table for people, CSV and JSON for machines. What a record holds is
//! made safe for where it goes: a table cell cannot move a terminal's cursor ([`table_cell`]), a
//! CSV cell is not a spreadsheet formula ([`csv_cell`]).

use crate::lang::Lang;
use crate::money::{Places, format_cop_dp};
use crate::report::columns::{amount_of, csv_value, header_es, shown_es};
use rust_decimal::Decimal;
use serde_json::Value;
use std::borrow::Cow;
use std::io::{BufRead, Write};
use tabled::builder::Builder;
use tabled::settings::Style;
use unicode_width::UnicodeWidthStr;

/// Output format of register listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => {
            if *b {
                "yes".into()
            } else {
                "no".into()
            }
        }
        other => other.to_string(),
    }
}

/// A cell as a table shows it on a terminal: control characters (C0, DEL and C1, which start
/// terminal escape sequences) and the Unicode bidirectional overrides and isolates (which reorder
/// what is shown) are removed; tabs and line breaks become spaces, so a cell keeps to its line.
/// Anything else, accents and other scripts included, is left as it is.
pub fn table_cell(s: &str) -> Cow<'_, str> {
    fn unsafe_char(c: char) -> bool {
        c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    }
    // fast: only these bytes can start an unsafe character (C1 controls are C2 80..9F in UTF-8,
    // the overrides and isolates E2 80 AA..AE and E2 81 A6..A9)
    let suspect = |b: &u8| *b < 0x20 || *b == 0x7F || *b == 0xC2 || *b == 0xE2;
    if !s.as_bytes().iter().any(suspect) || !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' => Some(' '),
                c if unsafe_char(c) => None,
                c => Some(c),
            })
            .collect(),
    )
}

/// A cell as it goes into a CSV file a spreadsheet may open: text that starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return gets a leading `'`, so Excel and LibreOffice show it
/// instead of evaluating it as a formula (CSV injection). A plain number (`-5`, `12.50`) is left
/// as it is: it cannot be a formula, and it stays a number for the spreadsheet (vigia writes no
/// negative amount, but a listing may show any number).
pub fn csv_cell(s: &str) -> Cow<'_, str> {
    let risky = s
        .as_bytes()
        .first()
        .is_some_and(|b| matches!(b, b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'));
    if risky && !is_plain_number(s) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `-?digits(.digits)?`: a number and nothing else.
fn is_plain_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    all_digits(int) && frac.is_none_or(all_digits)
}

/// A key that orders names as a Spanish reader expects: case and accents ignored (`Álvaro`
/// next to `alvaro`), `ñ` after `n` and before `o`; control characters left out. Only for
/// sorting; never shown.
pub fn collation_key(s: &str) -> String {
    let mut key = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        if c.is_ascii() {
            if !c.is_ascii_control() {
                key.push(c.to_ascii_lowercase());
            }
            continue;
        }
        for c in c.to_lowercase() {
            collate(c, &mut key);
        }
    }
    key
}

fn collate(c: char, key: &mut String) {
    match c {
        'á' | 'à' | 'â' | 'ä' => key.push('a'),
        'é' | 'è' | 'ê' | 'ë' => key.push('e'),
        'í' | 'ì' | 'î' | 'ï' => key.push('i'),
        'ó' | 'ò' | 'ô' | 'ö' => key.push('o'),
        'ú' | 'ù' | 'û' | 'ü' => key.push('u'),
        'ç' => key.push('c'),
        // after every "n" + letter, before "o"
        'ñ' => key.push_str("n~"),
        c if c.is_control() => {}
        c => key.push(c),
    }
}

fn columns(rows: &[Value]) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for r in rows {
        if let Value::Object(m) = r {
            for k in m.keys() {
                if !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    cols
}

/// A list of records: table (one row each), CSV (header + rows) or a JSON array.
pub fn list(rows: &[Value], format: Format) -> String {
    match format {
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&Value::Array(rows.to_vec())).expect("json")
        ),
        Format::Csv => {
            let cols = columns(rows);
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(&cols);
            for r in rows {
                let _ = w.write_record(
                    cols.iter()
                        .map(|c| csv_cell(&csv_value(c, cell(&r[c]))).into_owned()),
                );
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        Format::Table => {
            if rows.is_empty() {
                return "(none)\n".into();
            }
            let cols = columns(rows);
            let mut b = Builder::default();
            b.push_record(cols.iter().cloned());
            for cells in table_rows(&cols, rows, Lang::En) {
                b.push_record(cells);
            }
            let mut t = b.build();
            t.with(Style::psql());
            format!("{t}\n")
        }
    }
}

/// [`list`] in `lang`: the table of a Spanish run has Spanish headings and es-CO values
/// ([`crate::report::columns`]); JSON and CSV, machine formats, are the same in both languages.
pub fn list_in(rows: &[Value], format: Format, lang: Lang) -> String {
    match (format, lang) {
        (Format::Table, Lang::Es) => {
            if rows.is_empty() {
                return "(ninguno)\n".into();
            }
            let cols = columns(rows);
            let mut b = Builder::default();
            b.push_record(cols.iter().map(|c| header_es(c)));
            for cells in table_rows(&cols, rows, Lang::Es) {
                b.push_record(cells);
            }
            let mut t = b.build();
            t.with(Style::psql());
            format!("{t}\n")
        }
        _ => list(rows, format),
    }
}

/// A value as a table for people shows it in `lang`: in English as the record holds it, in
/// Spanish the es-CO way ([`shown_es`]).
fn shown(key: &str, v: &Value, lang: Lang) -> String {
    match lang {
        Lang::En => cell(v),
        Lang::Es => shown_es(key, v),
    }
}

/// An amount as a table for people shows it, with its column's `scale` decimals ([`Places`]:
/// never fewer than it needs, so nothing is rounded): `$ 1.450,50` in Spanish, `1450.50` in
/// English.
fn amount_shown(d: Decimal, scale: u32, lang: Lang) -> String {
    match lang {
        Lang::Es => format_cop_dp(d, scale),
        Lang::En => {
            let mut d = d;
            d.rescale(scale);
            d.to_string()
        }
    }
}

/// The cells of `rows` as a table for people shows them in `lang`, safe for a terminal, each
/// amount with its column's decimals.
fn table_rows(cols: &[String], rows: &[Value], lang: Lang) -> Vec<Vec<String>> {
    let mut places = vec![Places::default(); cols.len()];
    for r in rows {
        for (p, c) in places.iter_mut().zip(cols) {
            if let Some(d) = amount_of(c, &r[c]) {
                p.add(d);
            }
        }
    }
    rows.iter()
        .map(|r| {
            cols.iter()
                .zip(&places)
                .map(|(c, p)| match amount_of(c, &r[c]) {
                    Some(d) => amount_shown(d, p.scale(), lang),
                    None => table_cell(&shown(c, &r[c], lang)).into_owned(),
                })
                .collect()
        })
        .collect()
}

/// A CSV writer's error as the I/O error it is (so that a closed pipe is recognised as one).
pub fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// A list of records written as they come, in the same bytes as [`list`] would give for them
/// all: for listings too long to hold (a national register's adjudications). Every record has
/// the given columns, in that order.
pub enum ListWriter<'a> {
    Csv {
        w: Box<csv::Writer<&'a mut dyn std::io::Write>>,
        columns: Vec<String>,
    },
    Json {
        out: &'a mut dyn std::io::Write,
        first: bool,
    },
    Table {
        out: &'a mut dyn std::io::Write,
        columns: Vec<String>,
        table: Box<SpooledTable>,
        lang: Lang,
    },
}

impl<'a> ListWriter<'a> {
    pub fn new(
        format: Format,
        columns: &[&str],
        out: &'a mut dyn std::io::Write,
    ) -> std::io::Result<ListWriter<'a>> {
        Self::new_in(format, columns, out, Lang::En)
    }

    /// [`ListWriter::new`] in `lang`: a Spanish table as [`list_in`] writes it.
    pub fn new_in(
        format: Format,
        columns: &[&str],
        out: &'a mut dyn std::io::Write,
        lang: Lang,
    ) -> std::io::Result<ListWriter<'a>> {
        Ok(match format {
            Format::Csv => {
                let mut w = csv::Writer::from_writer(out);
                w.write_record(columns).map_err(csv_io)?;
                ListWriter::Csv {
                    w: Box::new(w),
                    columns: columns.iter().map(|c| c.to_string()).collect(),
                }
            }
            Format::Json => ListWriter::Json { out, first: true },
            Format::Table => {
                let names: Vec<String> = match lang {
                    Lang::En => columns.iter().map(|c| c.to_string()).collect(),
                    Lang::Es => columns.iter().map(|c| header_es(c)).collect(),
                };
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                ListWriter::Table {
                    out,
                    columns: columns.iter().map(|c| c.to_string()).collect(),
                    table: Box::new(SpooledTable::new(&names)?.amounts_in(lang)),
                    lang,
                }
            }
        })
    }

    pub fn push(&mut self, record: &Value) -> std::io::Result<()> {
        match self {
            ListWriter::Csv { w, columns } => {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| csv_value(c, cell(&record[c])))
                    .collect();
                w.write_record(cells.iter().map(|c| csv_cell(c).into_owned()))
                    .map_err(csv_io)
            }
            ListWriter::Json { out, first } => {
                // as serde_json pretty-prints an array: each element indented by two spaces
                let text = serde_json::to_string_pretty(record).expect("json");
                out.write_all(if *first { b"[\n" } else { b",\n" })?;
                *first = false;
                for (i, line) in text.lines().enumerate() {
                    if i > 0 {
                        out.write_all(b"\n")?;
                    }
                    write!(out, "  {line}")?;
                }
                Ok(())
            }
            ListWriter::Table {
                columns,
                table,
                lang,
                ..
            } => {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| match amount_of(c, &record[c]) {
                        Some(d) => amount_cell(d),
                        None => shown(c, &record[c], *lang),
                    })
                    .collect();
                table.push(&cells)
            }
        }
    }

    pub fn finish(self) -> std::io::Result<()> {
        match self {
            ListWriter::Csv { mut w, .. } => w.flush(),
            ListWriter::Json { out, first } => {
                out.write_all(if first { b"[]\n" } else { b"\n]\n" })
            }
            ListWriter::Table {
                out, table, lang, ..
            } => match lang {
                Lang::En => table.write_to(out),
                Lang::Es => table.write_to_saying(out, "(ninguno)"),
            },
        }
    }
}

/// A table too long to hold in memory (a batch check can find a million things): rows go to
/// temporary files as they come, with each column's width, and are rendered at the end in the
/// style of [`list`] (psql), line by line, so memory stays flat however many rows there are.
/// Rows come out in the order they were pushed ([`SpooledTable::new`]) or by a key
/// ([`SpooledTable::sorted`]: an external merge sort, sorted runs of [`RUN_BYTES`] merged at the
/// end; rows with equal keys keep the order they came in).
///
/// Cells are made safe for a terminal on the way in ([`table_cell`]); a spooled row is one line
/// of its cells separated by U+001F (and its key before U+001E), which no safe cell contains.
/// An amount ([`amount_cell`]) is spooled as its decimal and shown at the end with as many
/// decimals as every amount of its column ([`Places`]), in the language of
/// [`SpooledTable::amounts_in`].
pub struct SpooledTable {
    header: Vec<String>,
    widths: Vec<usize>,
    /// Each column's amounts: their decimals, and the widest of them shown without decimals.
    amounts: Vec<(Places, usize)>,
    lang: Lang,
    rows: u64,
    spool: Spool,
}

/// A sorted table holds up to this many bytes of rows in memory before it sorts them and writes
/// them out as a run.
pub const RUN_BYTES: usize = 8 << 20;

/// The bytes gathered before each write to a spool file, and read from it at once: the
/// standard library's 8 KiB made a million-row table's spooling 50,000 calls to the system.
const SPOOL_BUFFER: usize = 1 << 16;

const CELL_SEP: char = '\u{1F}';
/// Before a spooled amount's decimal (a control character: no safe cell holds it).
const AMOUNT: char = '\u{1D}';

/// An amount as a cell of a [`SpooledTable`], shown when the table is written with its column's
/// decimals.
pub fn amount_cell(d: Decimal) -> String {
    format!("{AMOUNT}{d}")
}

/// The amount a spooled cell holds, if it is one.
fn spooled_amount(c: &str) -> Option<Decimal> {
    c.strip_prefix(AMOUNT)
        .and_then(|d| Decimal::from_str_exact(d).ok())
}

/// The characters `scale` decimals add to an amount: the decimal sign and the digits.
fn decimals_width(scale: u32) -> usize {
    if scale == 0 { 0 } else { scale as usize + 1 }
}
const KEY_SEP: char = '\u{1E}';

enum Spool {
    InOrder(std::io::BufWriter<std::fs::File>),
    Sorted {
        /// Rows not yet written out, each `key U+001E row` with the key's length.
        run: Vec<(usize, String)>,
        run_bytes: usize,
        /// Bytes of rows a run holds ([`RUN_BYTES`]; less in tests).
        run_limit: usize,
        /// Runs written out, each sorted.
        runs: Vec<std::fs::File>,
    },
}

impl SpooledTable {
    /// Rows in the order they are pushed.
    pub fn new(header: &[&str]) -> std::io::Result<SpooledTable> {
        Ok(Self::with(
            header,
            Spool::InOrder(std::io::BufWriter::with_capacity(
                SPOOL_BUFFER,
                tempfile::tempfile()?,
            )),
        ))
    }

    /// Rows in the order of the keys they are pushed with ([`SpooledTable::push_sorted`]).
    pub fn sorted(header: &[&str]) -> SpooledTable {
        Self::sorted_in_runs(header, RUN_BYTES)
    }

    fn sorted_in_runs(header: &[&str], run_limit: usize) -> SpooledTable {
        Self::with(
            header,
            Spool::Sorted {
                run: Vec::new(),
                run_bytes: 0,
                run_limit,
                runs: Vec::new(),
            },
        )
    }

    fn with(header: &[&str], spool: Spool) -> SpooledTable {
        SpooledTable {
            header: header.iter().map(|h| h.to_string()).collect(),
            widths: header.iter().map(|h| shown_width(h)).collect(),
            amounts: vec![(Places::default(), 0); header.len()],
            lang: Lang::En,
            rows: 0,
            spool,
        }
    }

    /// The table with its amounts shown in `lang` (English unless told).
    pub fn amounts_in(mut self, lang: Lang) -> SpooledTable {
        self.lang = lang;
        self
    }

    /// Appends the row's line to `line`: its cells made safe, with the widths noted.
    fn line<S: AsRef<str>>(&mut self, cells: &[S], line: &mut String) {
        line.reserve(cells.iter().map(|c| c.as_ref().len() + 1).sum());
        for (i, ((w, a), c)) in self
            .widths
            .iter_mut()
            .zip(&mut self.amounts)
            .zip(cells)
            .enumerate()
        {
            let c = c.as_ref();
            if let Some(d) = spooled_amount(c) {
                // its width once the column's decimals are known: that of its whole part now
                let own = Places::of([d]).scale();
                let shown = amount_shown(d, own, self.lang).len() - decimals_width(own);
                a.0.add(d);
                a.1 = a.1.max(shown);
                if i > 0 {
                    line.push(CELL_SEP);
                }
                line.push_str(c);
                continue;
            }
            // printable ASCII (most cells): safe as it is, one column a byte
            let (c, width) = if printable_ascii(c) {
                (Cow::Borrowed(c), c.len())
            } else {
                let c = table_cell(c);
                let width = shown_width(&c);
                (c, width)
            };
            *w = (*w).max(width);
            if i > 0 {
                line.push(CELL_SEP);
            }
            line.push_str(&c);
        }
        self.rows += 1;
    }

    /// Adds a row (one cell per header column) to a table in push order.
    pub fn push<S: AsRef<str>>(&mut self, cells: &[S]) -> std::io::Result<()> {
        let mut line = String::new();
        self.line(cells, &mut line);
        line.push('\n');
        match &mut self.spool {
            Spool::InOrder(w) => w.write_all(line.as_bytes()),
            Spool::Sorted { .. } => Err(std::io::Error::other(
                "a sorted table takes rows with their key (push_sorted)",
            )),
        }
    }

    /// Adds a row to a sorted table, placed by `key`: its parts compare in turn, as strings
    /// (e.g. a rank, then a [`collation_key`]).
    pub fn push_sorted<S: AsRef<str>>(&mut self, key: &[&str], cells: &[S]) -> std::io::Result<()> {
        let mut row = String::with_capacity(key.iter().map(|k| k.len() + 1).sum());
        for (i, part) in key.iter().enumerate() {
            if i > 0 {
                // below every character a safe part holds: a shorter part sorts first
                row.push(CELL_SEP);
            }
            row.push_str(&table_cell(part));
        }
        let key_len = row.len();
        row.push(KEY_SEP);
        self.line(cells, &mut row);
        let Spool::Sorted {
            run,
            run_bytes,
            run_limit,
            runs,
        } = &mut self.spool
        else {
            return Err(std::io::Error::other(
                "a table in push order takes rows without a key (push)",
            ));
        };
        *run_bytes += row.len();
        run.push((key_len, row));
        if *run_bytes >= *run_limit {
            runs.push(write_run(run)?);
            *run_bytes = 0;
        }
        Ok(())
    }

    /// Writes the table (`(none)` when no row was added).
    pub fn write_to(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.write_to_saying(out, "(none)")
    }

    /// Writes the table, `none` on its own line when no row was added.
    pub fn write_to_saying(self, out: &mut dyn std::io::Write, none: &str) -> std::io::Result<()> {
        if self.rows == 0 {
            return writeln!(out, "{none}");
        }
        let scales: Vec<Option<u32>> = self
            .amounts
            .iter()
            .map(|(p, whole)| (*whole > 0).then(|| p.scale()))
            .collect();
        let widths: Vec<usize> = self
            .widths
            .iter()
            .zip(&self.amounts)
            .zip(&scales)
            .map(|((w, (_, whole)), s)| match s {
                Some(s) => (*w).max(whole + decimals_width(*s)),
                None => *w,
            })
            .collect();
        let lang = self.lang;
        // each line made in one buffer and written at once
        let mut buf: Vec<u8> = Vec::new();
        let mut line = |out: &mut dyn std::io::Write, cells: &mut dyn Iterator<Item = &str>| {
            buf.clear();
            for (i, (c, w)) in cells.zip(&widths).enumerate() {
                buf.extend_from_slice(if i == 0 { b" " } else { b"| " });
                buf.extend_from_slice(c.as_bytes());
                // the padding, and one space before the next separator
                let pad = w - shown_width(c) + 1;
                buf.resize(buf.len() + pad, b' ');
            }
            buf.push(b'\n');
            out.write_all(&buf)
        };
        line(out, &mut self.header.iter().map(String::as_str))?;
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(w + 2)).collect();
        writeln!(out, "{}", rule.join("+"))?;
        let mut row = |text: &str| {
            if !text.contains(AMOUNT) {
                return line(out, &mut text.split(CELL_SEP));
            }
            let cells: Vec<Cow<'_, str>> = text
                .split(CELL_SEP)
                .zip(&scales)
                .map(|(c, s)| match (spooled_amount(c), s) {
                    (Some(d), Some(s)) => Cow::Owned(amount_shown(d, *s, lang)),
                    _ => Cow::Borrowed(c),
                })
                .collect();
            line(out, &mut cells.iter().map(|c| c.as_ref()))
        };
        match self.spool {
            Spool::InOrder(w) => {
                let mut file = w.into_inner().map_err(|e| e.into_error())?;
                std::io::Seek::rewind(&mut file)?;
                each_line(file, |text| row(text))
            }
            Spool::Sorted { mut run, runs, .. } if runs.is_empty() => {
                // it all fitted in memory
                sort_run(&mut run);
                run.iter()
                    .try_for_each(|(key_len, text)| row(&text[key_len + KEY_SEP.len_utf8()..]))
            }
            Spool::Sorted {
                mut run, mut runs, ..
            } => {
                if !run.is_empty() {
                    runs.push(write_run(&mut run)?);
                }
                drop(run);
                merge(runs, |text| row(text))
            }
        }
    }
}

/// Whether every byte is printable ASCII (space to `~`): a cell [`table_cell`] leaves as it is,
/// one column a byte. Checked without stopping early, which the compiler turns into wide
/// comparisons.
fn printable_ascii(s: &str) -> bool {
    s.bytes()
        .fold(true, |ok, b| ok & (b.wrapping_sub(0x20) < 0x5F))
}

/// Columns a safe cell takes on a terminal (ASCII, the usual case, without a table look-up).
fn shown_width(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.width() }
}

/// Sorts a run stably, by key.
fn sort_run(run: &mut [(usize, String)]) {
    run.sort_by(|(a_len, a), (b_len, b)| a[..*a_len].cmp(&b[..*b_len]));
}

/// Sorts a run, writes it to a temporary file as `key U+001E row` lines and empties it.
fn write_run(run: &mut Vec<(usize, String)>) -> std::io::Result<std::fs::File> {
    sort_run(run);
    let mut w = std::io::BufWriter::with_capacity(SPOOL_BUFFER, tempfile::tempfile()?);
    for (_, line) in run.drain(..) {
        w.write_all(line.as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.into_inner().map_err(|e| e.into_error())
}

/// Each line of a spool file from its start, without its line break.
fn each_line(
    mut file: std::fs::File,
    mut f: impl FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    std::io::Seek::rewind(&mut file)?;
    let mut r = std::io::BufReader::with_capacity(SPOOL_BUFFER, file);
    let mut text = String::new();
    while r.read_line(&mut text)? > 0 {
        f(text.strip_suffix('\n').unwrap_or(&text))?;
        text.clear();
    }
    Ok(())
}

/// The rows of sorted runs, merged in key order; on equal keys the earlier run first (rows came
/// in run by run, so equal keys keep the order they came in).
fn merge(
    runs: Vec<std::fs::File>,
    mut f: impl FnMut(&str) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::cmp::Reverse;
    let mut readers = Vec::with_capacity(runs.len());
    for mut file in runs {
        std::io::Seek::rewind(&mut file)?;
        readers.push(std::io::BufReader::with_capacity(SPOOL_BUFFER, file));
    }
    let mut heads = vec![String::new(); readers.len()];
    // (key of the run's next line, run): the smallest first; a key's buffer is reused
    let mut heap = std::collections::BinaryHeap::new();
    let key_into = |line: &str, key: &mut String| {
        key.clear();
        key.push_str(line.split_once(KEY_SEP).map_or("", |(k, _)| k));
    };
    for (i, r) in readers.iter_mut().enumerate() {
        if r.read_line(&mut heads[i])? > 0 {
            let mut key = String::new();
            key_into(&heads[i], &mut key);
            heap.push(Reverse((key, i)));
        }
    }
    while let Some(Reverse((mut key, i))) = heap.pop() {
        let head = heads[i].strip_suffix('\n').unwrap_or(&heads[i]);
        f(head.split_once(KEY_SEP).map_or(head, |(_, row)| row))?;
        heads[i].clear();
        if readers[i].read_line(&mut heads[i])? > 0 {
            key_into(&heads[i], &mut key);
            heap.push(Reverse((key, i)));
        }
    }
    Ok(())
}

/// One record: `key: value` lines, CSV with one row, or a JSON object.
pub fn one(record: &Value, format: Format) -> String {
    one_in(record, format, Lang::En)
}

/// [`one`] in `lang`: in Spanish the lines and the tables below them have Spanish names and
/// es-CO values.
pub fn one_in(record: &Value, format: Format, lang: Lang) -> String {
    let name = |k: &str| match lang {
        Lang::En => k.to_string(),
        Lang::Es => header_es(k),
    };
    let value = |k: &str, v: &Value| match lang {
        Lang::En => cell(v),
        Lang::Es => shown_es(k, v),
    };
    match format {
        Format::Json => format!("{}\n", serde_json::to_string_pretty(record).expect("json")),
        Format::Csv => list(std::slice::from_ref(record), Format::Csv),
        Format::Table => {
            // Scalars as `key  value` lines; lists of records as titled tables below them.
            let mut out = String::new();
            let mut sections = String::new();
            if let Value::Object(m) = record {
                let width = m.keys().map(|k| name(k).chars().count()).max().unwrap_or(0);
                for (k, v) in m {
                    let n = name(k);
                    match v {
                        Value::Array(items) if items.iter().all(Value::is_object) => {
                            let flat: Vec<Value> = items.iter().map(flatten).collect();
                            let t = list_in(&flat, Format::Table, lang);
                            sections.push_str(&format!("\n{n}:\n{t}"));
                        }
                        Value::Array(_) | Value::Object(_) => out.push_str(&format!(
                            "{n:<width$}  {}\n",
                            serde_json::to_string(v).unwrap_or_default()
                        )),
                        other => out
                            .push_str(&format!("{n:<width$}  {}\n", table_cell(&value(k, other)))),
                    }
                }
            }
            out + &sections
        }
    }
}

/// A record whose nested lists are summarised (e.g. `payments: 2`) so it fits one table row.
fn flatten(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let x = match x {
                        Value::Array(a) => Value::from(a.len()),
                        Value::Object(_) => Value::String(x.to_string()),
                        other => other.clone(),
                    };
                    (k.clone(), x)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn printable_ascii_is_exactly_what_a_table_cell_keeps_one_column_a_byte() {
        // every byte on its own, then at the end of a longer cell (past the first wide step)
        for b in 0u8..=0x7F {
            let one = (b as char).to_string();
            let long = format!("{}{one}", "x".repeat(40));
            for s in [&one, &long] {
                let kept = table_cell(s) == s.as_str() && s.width() == s.len();
                assert_eq!(printable_ascii(s), kept, "byte {b:#04x}");
            }
        }
        // accents are safe, but not one column a byte: the slow path measures them
        assert!(!printable_ascii("Peñaloza"));
        assert!(printable_ascii(""));
    }

    #[test]
    fn a_spooled_table_renders_exactly_like_a_listed_one() {
        // tabled's psql rendering is the reference: accents, empty cells, a cell wider than its
        // header and a header wider than its cells
        let rows = vec![
            json!({"code": "MISSING_PLEDGE", "holder": "Ana Gómez Peñaloza", "breach_id": ""}),
            json!({"code": "X", "holder": "Sindicato Ficticio de Trabajadores", "breach_id": "12"}),
        ];
        let mut spooled = SpooledTable::new(&["code", "holder", "breach_id"]).unwrap();
        for r in &rows {
            let cells: Vec<String> = ["code", "holder", "breach_id"]
                .iter()
                .map(|c| cell(&r[*c]))
                .collect();
            spooled.push(&cells).unwrap();
        }
        let mut out = Vec::new();
        spooled.write_to(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), list(&rows, Format::Table));

        let mut out = Vec::new();
        SpooledTable::new(&["code"])
            .unwrap()
            .write_to(&mut out)
            .unwrap();
        assert_eq!(out, b"(none)\n");
    }

    #[test]
    fn a_sorted_table_is_the_stable_sort_of_its_rows_in_memory_or_merged_from_runs() {
        // keys with ties (stability), accents and a part that is a prefix of another
        let names = [
            "Ñusta",
            "Nora",
            "Álvaro",
            "alvaro",
            "Zoe",
            "Oscar",
            "Ana",
            "Ana María",
        ];
        let rows: Vec<(String, [String; 3])> = (0..500)
            .map(|i: usize| {
                let name = names[(i * 7) % names.len()];
                let rank = ((i * 13) % 3).to_string();
                (rank.clone(), [rank, name.to_string(), i.to_string()])
            })
            .collect();
        // the reference: a stable sort in memory, rendered by tabled
        let mut expected: Vec<&(String, [String; 3])> = rows.iter().collect();
        expected.sort_by_key(|(rank, cells)| (rank.clone(), collation_key(&cells[1])));
        let listed: Vec<Value> = expected
            .iter()
            .map(|(_, c)| json!({"rank": c[0], "holder": c[1], "seq": c[2]}))
            .collect();
        let expected = list(&listed, Format::Table);
        // all in memory; runs of about ten rows (fifty files) merged
        for run_limit in [RUN_BYTES, 200] {
            let mut t = SpooledTable::sorted_in_runs(&["rank", "holder", "seq"], run_limit);
            for (rank, cells) in &rows {
                t.push_sorted(&[rank, &collation_key(&cells[1])], cells)
                    .unwrap();
            }
            let mut out = Vec::new();
            t.write_to(&mut out).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                expected,
                "runs of {run_limit} bytes"
            );
        }
    }

    #[test]
    fn names_sort_as_a_spanish_reader_expects() {
        let mut names = vec![
            "Zoe", "Ñusta", "Oscar", "Álvaro", "nora", "Nuñez", "Núñez", "Nz",
        ];
        names.sort_by_key(|n| collation_key(n));
        assert_eq!(
            names,
            [
                "Álvaro", "nora", "Nuñez", "Núñez", "Nz", "Ñusta", "Oscar", "Zoe"
            ]
        );
    }

    #[test]
    fn a_table_cell_cannot_reach_the_terminal_a_csv_cell_is_no_formula() {
        for (raw, shown) in [
            ("Ana Gómez Peñaloza", "Ana Gómez Peñaloza"),
            ("\u{1b}[2J\u{1b}[31mRojo\u{1b}[0m", "[2J[31mRojo[0m"),
            ("dos\nlíneas\tcon tab\r", "dos líneas con tab "),
            ("bell\u{7} del\u{7f} c1\u{9b}", "bell del c1"),
            ("\u{202e}gnp.exe\u{2066}x\u{2069}", "gnp.exex"),
            ("家族 👪 zwj\u{200d}", "家族 👪 zwj\u{200d}"),
        ] {
            assert_eq!(table_cell(raw), shown, "{raw:?}");
        }
        assert!(matches!(table_cell("plain"), Cow::Borrowed(_)));
        for (raw, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+57 300", "'+57 300"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("-", "'-"),
            ("-.5", "'-.5"),
            ("-5.", "'-5."),
            // plain numbers stay numbers
            ("-5", "-5"),
            ("-1087500.25", "-1087500.25"),
            ("1087500", "1087500"),
            // anything else as it is
            ("Ana = Ana", "Ana = Ana"),
            ("", ""),
            ("'quoted", "'quoted"),
        ] {
            assert_eq!(csv_cell(raw), written, "{raw:?}");
        }
        // every listing's CSV, at once or as it comes (pesos with their two decimals)
        let rows = vec![json!({"name": "=1+1", "amount": -5})];
        assert_eq!(list(&rows, Format::Csv), "name,amount\n'=1+1,-5.00\n");
        let mut out = Vec::new();
        let mut w = ListWriter::new(Format::Csv, &["name", "amount"], &mut out).unwrap();
        w.push(&rows[0]).unwrap();
        w.finish().unwrap();
        assert_eq!(out, b"name,amount\n'=1+1,-5.00\n");
    }

    #[test]
    fn a_list_written_as_it_comes_is_the_list_written_at_once() {
        let rows = vec![
            json!({"id": 1, "name": "Ana Gómez", "lender": null, "shares": 1000, "ok": true,
                   "payload": {"row": {"a": [1, 2]}, "covers": []}}),
            json!({"id": 2, "name": "Sindicato \"Unidos\", Bogotá", "lender": "Banco X", "shares": 5, "ok": false,
                   "payload": null}),
        ];
        let columns = ["id", "name", "lender", "shares", "ok", "payload"];
        for format in [Format::Table, Format::Json, Format::Csv] {
            let mut out = Vec::new();
            let mut w = ListWriter::new(format, &columns, &mut out).unwrap();
            for r in &rows {
                w.push(r).unwrap();
            }
            w.finish().unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                list(&rows, format),
                "{format:?}"
            );
        }
        // nothing to list: the same for a person and for JSON; CSV keeps its header
        for (format, expected) in [
            (Format::Table, "(none)\n"),
            (Format::Json, "[]\n"),
            (Format::Csv, "id,name,lender,shares,ok,payload\n"),
        ] {
            let mut out = Vec::new();
            ListWriter::new(format, &columns, &mut out)
                .unwrap()
                .finish()
                .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
        assert_eq!(list(&[], Format::Json), "[]\n");
    }

    #[test]
    fn every_amount_of_a_column_shows_its_columns_decimals_listed_or_written_as_it_comes() {
        // 963.00 as the program stores it, 963 as it was typed; a price that is no amount
        let whole = [
            json!({"id": 1, "price_per_share": "963.00", "stage_price": "pending"}),
            json!({"id": 2, "price_per_share": "1450", "stage_price": "963"}),
        ];
        let cents = [
            json!({"id": 1, "price_per_share": "963", "stage_price": null}),
            json!({"id": 2, "price_per_share": "1450.5", "stage_price": "2.125"}),
        ];
        let expected = [
            (&whole, Lang::Es, "$ 963", "$ 1.450"),
            (&whole, Lang::En, "963", "1450"),
            (&cents, Lang::Es, "$ 963,00", "$ 1.450,50"),
            (&cents, Lang::En, "963.00", "1450.50"),
        ];
        for (rows, lang, first, second) in expected {
            let listed = list_in(rows.as_slice(), Format::Table, lang);
            let prices: Vec<&str> = listed
                .lines()
                .skip(2)
                .map(|l| l.split('|').nth(1).unwrap().trim())
                .collect();
            assert_eq!(prices, [first, second], "{listed}");
            let mut out = Vec::new();
            let columns = ["id", "price_per_share", "stage_price"];
            let mut w = ListWriter::new_in(Format::Table, &columns, &mut out, lang).unwrap();
            for r in rows.iter() {
                w.push(r).unwrap();
            }
            w.finish().unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), listed, "{lang:?}");
        }
        // the other column: text beside an amount (in Spanish words), and three decimals
        // beside none
        let listed = list_in(&whole, Format::Table, Lang::Es);
        assert!(
            listed.contains("| pendiente ") && listed.contains("| $ 963 "),
            "{listed}"
        );
        let listed = list_in(&cents, Format::Table, Lang::Es);
        assert!(listed.contains("| $ 2,125 "), "{listed}");
        // a sorted spooled table shows its amounts the same way
        let mut t = SpooledTable::sorted(&["n", "valor"]).amounts_in(Lang::Es);
        t.push_sorted(&["b"], &["2", &amount_cell(Decimal::new(-5, 1))])
            .unwrap();
        t.push_sorted(&["a"], &["1", &amount_cell(Decimal::new(12345, 0))])
            .unwrap();
        t.push_sorted(&["c"], &["3", ""]).unwrap();
        let mut out = Vec::new();
        t.write_to(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            " n | valor       \n\
             ---+-------------\n\
             \x201 | $ 12.345,00 \n\
             \x202 | -$ 0,50     \n\
             \x203 |             \n"
        );
    }
}
