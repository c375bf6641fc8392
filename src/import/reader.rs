//! The one reader of every imported file (adjudications, pledges, acceptances, proposals): the
//! file's encoding and dialect, its header matched against a kind's column table ([`Table`]),
//! every row handed to the kind's parser with its line, and every problem said in English and
//! Spanish ([`RowError`]). Pure: bytes in, rows or problems out.

use crate::lang::{Lang, Said};
use crate::said;
use crate::text::{self, Lines};
use std::fmt;

/// The columns of one kind of file, by their English names (the Spanish ones an officer writes
/// are [`crate::headers`]'): those every file names, then those it may leave out. A row's values
/// come to the kind's parser in this order ([`Fields::get`]).
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
}

/// A problem with one row (or the header, line 1): the column (as the file's header names it:
/// [`Headed`]; vigia's English name until then)
/// and the value, why in English and Spanish, and what the officer can do about it when the
/// rule knows ([`Remedy`], which each front end words its own way: the command line names its
/// command, the web its pages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: usize,
    pub field: String,
    pub value: String,
    pub reason: Said,
    pub remedy: Option<Remedy>,
}

/// What an officer can do about a refused row, as the domain names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// The row names an award already registered as adjudication `id` with other figures: if the
    /// register is right, correct the line; if the file is, void that adjudication and import
    /// the file again.
    CorrectLineOrVoid { adjudication: i64 },
    /// The row names an adjudication by an id the register does not hold: look the ids up in
    /// the register's adjudications.
    LookUpAdjudications,
}

impl Remedy {
    /// The remedy in words of the domain alone, in `lang`, as it follows the reason (with its
    /// own separator: `; if the register is right…`, or nothing to add); a front end words it
    /// its own way instead ([`RowError::worded`]).
    pub fn in_lang(self, lang: Lang) -> String {
        match (self, lang) {
            (Remedy::CorrectLineOrVoid { adjudication: id }, Lang::En) => format!(
                "; if the register is right, correct the line; if the file is, void adjudication {id} and \
                 import the file again"
            ),
            (Remedy::CorrectLineOrVoid { adjudication: id }, Lang::Es) => format!(
                "; si el registro está bien, corrija la línea; si el archivo está bien, anule la \
                 adjudicación N.º {id} e importe de nuevo el archivo"
            ),
            (Remedy::LookUpAdjudications, _) => String::new(),
        }
    }
}

/// The field of a problem with the file's header (its first line) rather than a column.
const HEADER: &str = "header";
/// The field of a problem with a whole line (a row) rather than a column: no rows at all, a
/// line that cannot be read as CSV.
const ROW: &str = "row";

impl RowError {
    /// A problem with the value of `field` on `line`, without a remedy.
    pub fn new(
        line: usize,
        field: impl Into<String>,
        value: impl Into<String>,
        reason: Said,
    ) -> RowError {
        RowError {
            line,
            field: field.into(),
            value: value.into(),
            reason,
            remedy: None,
        }
    }

    /// The problem as one line in `lang`: `line 4: shares "0": must be ...` (the command
    /// line's), `línea 4: shares «0»: debe ser ...`, its remedy in the domain's words.
    pub fn in_lang(&self, lang: Lang) -> String {
        self.worded(lang, |r| r.in_lang(lang))
    }

    /// The column as `lang` names it: the file's header (line 1) is «encabezado» in Spanish, a
    /// whole line «fila»; any other column as the file's header writes it (or vigia's name, see
    /// [`Headed`]).
    pub fn field_in(&self, lang: Lang) -> &str {
        match (self.field.as_str(), lang) {
            (HEADER, Lang::Es) => "encabezado",
            (ROW, Lang::Es) => "fila",
            (field, _) => field,
        }
    }

    /// Why, in `lang`, with the remedy as `remedy` words it (after the reason, with its own
    /// separator): what a front end shows in a table's "problem" column.
    pub fn reason_worded(&self, lang: Lang, remedy: impl Fn(Remedy) -> String) -> String {
        let mut s = self.reason.in_lang(lang).to_string();
        if let Some(r) = self.remedy {
            s.push_str(&remedy(r));
        }
        s
    }

    /// [`RowError::in_lang`] with the remedy as `remedy` words it.
    pub fn worded(&self, lang: Lang, remedy: impl Fn(Remedy) -> String) -> String {
        let reason = self.reason_worded(lang, remedy);
        match lang {
            Lang::En if self.field.is_empty() => format!("line {}: {reason}", self.line),
            Lang::En => format!(
                "line {}: {} {:?}: {reason}",
                self.line, self.field, self.value
            ),
            Lang::Es if self.field.is_empty() => format!("línea {}: {reason}", self.line),
            Lang::Es => format!(
                "línea {}: {} «{}»: {reason}",
                self.line,
                self.field_in(lang),
                shown(&self.value)
            ),
        }
    }
}

/// A value as a Spanish sentence quotes it: as typed, its control characters escaped.
fn shown(value: &str) -> String {
    value
        .chars()
        .flat_map(|c| {
            let escaped = crate::input::is_hidden(c).then(|| c.escape_unicode());
            escaped
                .into_iter()
                .flatten()
                .chain((!crate::input::is_hidden(c)).then_some(c))
        })
        .collect()
}

/// In English, the remedy in the domain's words.
impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

/// How a file's header writes each column vigia knows (`Precio por acción`, `price_per_share`,
/// `Tramo`): a row problem names its column so, whichever language the file was written in, and
/// whether the reader or the register found it ([`Headed::name`]).
#[derive(Debug, Clone, Default)]
pub struct Headed(Vec<(&'static str, String)>);

impl Headed {
    /// The known columns among `cells` (a header's), each as written there.
    fn of_cells<'h>(cells: impl Iterator<Item = &'h str>) -> Headed {
        Headed(
            cells
                .filter_map(|h| Some((crate::headers::canonical(h)?, h.trim().to_string())))
                .collect(),
        )
    }

    /// The header of `bytes` (its first line, decoded and split as [`each_record`] reads it);
    /// none when it cannot be read. Read again only to word a refusal.
    pub fn of(bytes: &[u8]) -> Headed {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |at| at + 1);
        let Ok((text, encoding)) = text::decode(&bytes[..end]) else {
            return Headed::default();
        };
        let dialect = sniff_text(&text, encoding);
        let mut reader = records(&text, &dialect);
        match reader.headers() {
            Ok(cells) => Headed::of_cells(cells.iter()),
            Err(_) => Headed::default(),
        }
    }

    /// Column `name` (vigia's English name) as the header writes it; `name` itself when the
    /// header does not write it.
    pub fn column<'a>(&'a self, name: &'a str) -> &'a str {
        self.0
            .iter()
            .find(|(known, _)| *known == name)
            .map_or(name, |(_, written)| written.as_str())
    }

    /// Each row problem's value as `bytes`, the refused file, writes it in that row's cell of
    /// its column (`1.200`, `1.450,50`), where a rule quoted the figure it read (`1200`,
    /// `1450.50`): the file read again, once, only to word a refusal, as far as the last line
    /// named. A problem of a column the header does not write, of the header itself or of an
    /// empty cell keeps its value. Before [`Headed::name`]: the columns are still vigia's names.
    pub fn quote_cells(bytes: &[u8], problems: &mut [&mut RowError]) {
        let mut wanted: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (k, e) in problems.iter().enumerate() {
            if e.line >= 2 && crate::headers::canonical(&e.field) == Some(e.field.as_str()) {
                wanted.entry(e.line).or_default().push(k);
            }
        }
        if wanted.is_empty() {
            return;
        }
        let Ok((text, encoding)) = text::decode(bytes) else {
            return;
        };
        let dialect = sniff_text(&text, encoding);
        let mut reader = records(&text, &dialect);
        let Ok(headers) = reader.headers().cloned() else {
            return;
        };
        let column = |name: &str| {
            headers
                .iter()
                .position(|h| crate::headers::canonical(h) == Some(name))
        };
        let (mut lines, mut record) = (Lines::new(&text), csv::StringRecord::new());
        while !wanted.is_empty() {
            let at = reader.position().byte();
            match reader.read_record(&mut record) {
                Ok(true) => {}
                Ok(false) => return,
                Err(_) => continue,
            }
            let line = lines
                .start(record.position().map_or(at, csv::Position::byte))
                .1;
            for k in wanted.remove(&line).unwrap_or_default() {
                let e = &mut problems[k];
                let cell = column(&e.field)
                    .and_then(|c| record.get(c))
                    .map(str::trim)
                    .filter(|c| !c.is_empty());
                if let Some(cell) = cell {
                    e.value = cell.to_string();
                }
            }
        }
    }

    /// Each problem's column (vigia's English name) as the header writes it; a column the header
    /// does not write (`header`, `row`) stays as it is.
    pub fn name(&self, problems: &mut [RowError]) {
        for e in problems {
            if let Some((_, written)) = self.0.iter().find(|(name, _)| *name == e.field) {
                e.field.clone_from(written);
            }
        }
    }
}

/// The records of `text` as every import reads them: `dialect`'s separator, rows of any length
/// (a short or long row is the rules' to judge), nothing trimmed.
fn records<'t>(text: &'t str, dialect: &Dialect) -> csv::Reader<&'t [u8]> {
    csv::ReaderBuilder::new()
        .delimiter(dialect.separator)
        .flexible(true)
        .from_reader(text.as_bytes())
}

/// How the file was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    pub encoding: &'static str,
    pub separator: u8,
    /// The es-CO Excel export (`;`): how the file was written, told to the user; numbers and
    /// dates read the same in every dialect ([`crate::input`]).
    pub es_co: bool,
}

/// How a file will be read: its encoding, and `;` with es-CO numbers when the header has `;` and
/// no `,`.
/// (A file that is not text reads as the plain dialect: [`each_record`] reports what it is.)
pub fn sniff(bytes: &[u8]) -> Dialect {
    match text::decode(bytes) {
        Ok((text, encoding)) => sniff_text(&text, encoding),
        Err(_) => sniff_text("", "UTF-8"),
    }
}

/// [`sniff`] for text already decoded from `encoding`.
pub(crate) fn sniff_text(text: &str, encoding: &'static str) -> Dialect {
    let first_line = text.lines().next().unwrap_or("");
    let separator = if first_line.contains(';') && !first_line.contains(',') {
        b';'
    } else {
        b','
    };
    Dialect {
        encoding,
        separator,
        es_co: separator == b';',
    }
}

/// The values of one row, by position in the reader's `required` columns followed by its
/// `optional` ones: trimmed, and empty for a column the file does not have.
pub struct Fields<'r> {
    record: &'r csv::StringRecord,
    index: &'r [Option<usize>],
}

impl<'r> Fields<'r> {
    pub fn get(&self, i: usize) -> &'r str {
        self.index[i]
            .and_then(|at| self.record.get(at))
            .unwrap_or("")
            .trim()
    }
}

/// Reads a file of `table`'s kind: its header names every column of `table.required` (in any
/// order and case, in English or Spanish: [`crate::headers`]; other columns are ignored, and
/// `table.optional` ones may be missing: they read as empty). Each non-blank row goes to `parse`
/// with its line number (as an editor numbers lines, CRLF or not) and its values ([`Fields`], by
/// position in the table, lent rather than copied: a value the parser keeps, it copies); every
/// valid row goes on to `f`, even after a bad one (the caller judges it against the register, so
/// that one reading finds every problem; a file with problems is refused whole all the same). A
/// file that is not text (a workbook, a PDF) or mixes encodings, a value with a control
/// character and a line that repeats an earlier one byte for byte are problems too. Returns the
/// dialect and every problem found (empty when the file is clean). An error from `f` (storage)
/// stops the reading.
///
/// Repeated lines are found by keeping each distinct line's place in the file
/// ([`super::seen::SeenLines`]: about 32 MB for a million rows).
pub fn each_record<T, E>(
    bytes: &[u8],
    table: &Table,
    parse: impl Fn(usize, &Fields<'_>) -> Result<T, Vec<RowError>>,
    mut f: impl FnMut(T) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    let (required, optional) = (table.required, table.optional);
    let (text, encoding) = match text::decode(bytes) {
        Ok(decoded) => decoded,
        Err(e) => {
            let line = match e {
                text::NotText::BadUtf8 { line, .. } => line,
                text::NotText::Binary(_) => 1,
            };
            let problem = RowError {
                line,
                field: String::new(),
                value: String::new(),
                reason: e.said(),
                remedy: None,
            };
            return Ok((sniff_text("", "UTF-8"), vec![problem]));
        }
    };
    let first_line = text.lines().next().unwrap_or("");
    let dialect = sniff_text(&text, encoding);
    // values are trimmed as they are read (`Fields::get`): trimming here copies every record
    let mut reader = records(&text, &dialect);
    let header_error = |reason: Said| {
        vec![RowError {
            line: 1,
            field: HEADER.into(),
            value: first_line.into(),
            reason,
            remedy: None,
        }]
    };
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            let why = Said::new(
                e.to_string(),
                "el encabezado (la primera línea) no se puede leer como CSV",
            );
            return Ok((dialect, header_error(why)));
        }
    };
    // English or Spanish names, whatever their case, accents and spacing (`headers::canonical`)
    let names: Vec<String> = headers
        .iter()
        .map(|h| match crate::headers::canonical(h) {
            Some(name) => name.to_string(),
            None => h.trim().to_lowercase(),
        })
        .collect();
    let find = |col: &&str| names.iter().position(|n| n == col);
    // two header cells that name one column (`Precio` and `Precio por acción`): which one to
    // read would be a guess
    let known: Vec<&str> = required.iter().chain(optional).copied().collect();
    if let Some((a, b)) = known.iter().find_map(|col| {
        let mut at = names.iter().enumerate().filter(|(_, n)| n == col);
        let first = at.next()?.0;
        at.next().map(|(second, _)| (first, second))
    }) {
        let (ha, hb) = (
            headers.get(a).unwrap_or("").trim().to_string(),
            headers.get(b).unwrap_or("").trim().to_string(),
        );
        let col = &names[a];
        return Ok((
            dialect,
            header_error(said!(import::columns_both_name_keep_one_them, ha, hb, col)),
        ));
    }
    if let Some(col) = required.iter().find(|c| find(c).is_none()) {
        let all = required.join(",");
        let todas = required
            .iter()
            .map(|c| crate::headers::spanish(c))
            .collect::<Vec<_>>()
            .join("; ");
        let es = crate::headers::spanish(col);
        return Ok((
            dialect,
            header_error(said!(
                import::missing_column_header_must_name_english,
                col,
                es,
                all,
                todas
            )),
        ));
    }
    let columns: Vec<&str> = required.iter().chain(optional).copied().collect();
    let index: Vec<Option<usize>> = columns.iter().map(find).collect();
    let mut errors = Vec::new();
    let mut any = false;
    let mut record = csv::StringRecord::new();
    let mut lines = Lines::new(&text);
    // sized once from the count of line ends, so that a million rows do not hold two tables
    let mut seen =
        super::seen::SeenLines::with_capacity(text.bytes().filter(|&b| b == b'\n').count());
    // where the lines whose slots were last read ahead end (`SeenLines::warm`)
    let mut warmed = 0;
    loop {
        let at = reader.position().byte();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = lines.start(e.position().map_or(at, csv::Position::byte)).1;
                errors.push(RowError {
                    line,
                    field: ROW.into(),
                    value: String::new(),
                    reason: Said::new(e.to_string(), "la línea no se puede leer como CSV"),
                    remedy: None,
                });
                continue;
            }
        }
        let (start, line) = lines.start(record.position().map_or(at, csv::Position::byte));
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        any = true;
        let end =
            usize::try_from(reader.position().byte()).map_or(text.len(), |e| e.min(text.len()));
        let raw = text
            .get(start..end.max(start))
            .unwrap_or("")
            .trim_end_matches(['\r', '\n']);
        if end >= warmed {
            warmed = seen.warm(&text, end, 32);
        }
        if let Some(first) = seen.repeats(raw, line) {
            errors.push(RowError {
                line,
                field: String::new(),
                value: String::new(),
                reason: said!(import::repeats_line_exactly_row_listed_once, first),
                remedy: None,
            });
            continue;
        }
        let fields = Fields {
            record: &record,
            index: &index,
        };
        // a character that is not plain text (`input::is_hidden`) starts with a byte below
        // 0x20, 0x7F, 0xC2 (C1 controls), 0xD8 (U+061C) or 0xE2 (U+200E.., U+202A.., U+2066..):
        // a line without any of those bytes has no value to look into
        let suspect = |b: u8| b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2;
        // (every byte looked at, without stopping at the first: the loop vectorises)
        if raw.is_empty() || raw.bytes().fold(false, |any, b| any | suspect(b)) {
            let controls: Vec<RowError> = columns
                .iter()
                .enumerate()
                .filter_map(|(i, name)| {
                    let value = fields.get(i);
                    if !value.bytes().any(suspect) {
                        return None;
                    }
                    let (at, c) = crate::input::first_hidden(value)?;
                    Some(RowError {
                        line,
                        field: (*name).into(),
                        value: value.into(),
                        reason: {
                            let code = u32::from(c);
                            said!(import::has_control_character_u_at_character, code, at)
                        },
                        remedy: None,
                    })
                })
                .collect();
            if !controls.is_empty() {
                errors.extend(controls);
                continue;
            }
        }
        match parse(line, &fields) {
            // once the file is known to be bad, rows are only checked, not handed on
            // handed on even once the file is known to be bad, so that the register's own
            // problems with them are found in the same reading and reported with the file's
            Ok(row) => f(row)?,
            Err(mut e) => errors.append(&mut e),
        }
    }
    Headed::of_cells(headers.iter()).name(&mut errors);
    if !any && errors.is_empty() {
        errors.push(RowError {
            line: 2,
            field: ROW.into(),
            value: String::new(),
            reason: Said::new("the file has no rows", "el archivo no tiene filas"),
            remedy: None,
        });
    }
    Ok((dialect, errors))
}

/// Runs `read` (which hands rows to the sink it is given) on a second thread and `f` on this
/// one, with each batch of rows (2,048), which it may take rows out of or only read; a storage
/// error from `f` stops the reading. Each batch then goes back to the reading thread, which drops
/// what is left in it and fills it again: a million rows do not allocate (and fault in) a fresh
/// batch every 2,048, and rows `f` leaves are freed by the thread that made them.
pub(crate) fn in_parallel<T: Send, E: Send>(
    bytes: &[u8],
    read: impl FnOnce(&mut dyn FnMut(T) -> Result<(), ()>) -> Result<(Dialect, Vec<RowError>), ()>
    + Send,
    mut f: impl FnMut(&mut Vec<T>) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    const BATCH: usize = 2048;
    std::thread::scope(|scope| {
        let (to_store, from_parser) = std::sync::mpsc::sync_channel::<Vec<T>>(4);
        let (to_parser, done) = std::sync::mpsc::sync_channel::<Vec<T>>(4);
        let parser = scope.spawn(move || {
            let fresh = || match done.try_recv() {
                Ok(mut batch) => {
                    batch.clear();
                    batch
                }
                Err(_) => Vec::with_capacity(BATCH),
            };
            let mut batch = fresh();
            let read = read(&mut |row| {
                batch.push(row);
                if batch.len() == BATCH {
                    // the receiver is gone only when storing failed: stop reading
                    to_store
                        .send(std::mem::replace(&mut batch, fresh()))
                        .map_err(|_| ())?;
                }
                Ok(())
            });
            if !batch.is_empty() {
                let _ = to_store.send(batch);
            }
            read
        });
        let mut stored = Ok(());
        for mut batch in from_parser.iter() {
            stored = f(&mut batch);
            if stored.is_err() {
                break;
            }
            // the reader may have finished, or hold enough batches already
            let _ = to_parser.try_send(batch);
        }
        drop(from_parser);
        let read = parser.join().expect("the parsing thread does not panic");
        stored?;
        Ok(read.unwrap_or_else(|()| (sniff(bytes), Vec::new())))
    })
}
