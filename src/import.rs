//! Reading an adjudications CSV the way people really have it: UTF-8 with or without BOM, or the
//! es-CO Excel export (Windows-1252, `;` separator, `1.450,50` amounts, `15/03/2024` dates).
//! Pure: bytes in, validated rows or every row problem out (each said in English and Spanish);
//! storage is the caller's job.

use crate::ids::{self, DocType};
use crate::input::Refused;
use crate::lang::{Lang, Said};
use crate::money::format_number;
use crate::program::Program;
use crate::said;
use crate::text::{self, Lines};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;
use std::hash::BuildHasher;

/// A column of the adjudications CSV; [`COLUMNS`] lists their names in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    DocType,
    DocNumber,
    Name,
    PersonType,
    Category,
    Shares,
    PricePerShare,
    AdjudicatedOn,
    Lender,
    FinancedShares,
}

impl Col {
    const ALL: [Col; 10] = [
        Col::DocType,
        Col::DocNumber,
        Col::Name,
        Col::PersonType,
        Col::Category,
        Col::Shares,
        Col::PricePerShare,
        Col::AdjudicatedOn,
        Col::Lender,
        Col::FinancedShares,
    ];

    /// The column's name in the header (and in a row problem).
    const fn name(self) -> &'static str {
        match self {
            Col::DocType => "doc_type",
            Col::DocNumber => "doc_number",
            Col::Name => "name",
            Col::PersonType => "person_type",
            Col::Category => "category",
            Col::Shares => "shares",
            Col::PricePerShare => "price_per_share",
            Col::AdjudicatedOn => "adjudicated_on",
            Col::Lender => "lender",
            Col::FinancedShares => "financed_shares",
        }
    }
}

/// The columns every adjudications CSV names, in any order.
pub const COLUMNS: [&str; 10] = {
    let mut names = [""; 10];
    let mut i = 0;
    while i < Col::ALL.len() {
        names[i] = Col::ALL[i].name();
        i += 1;
    }
    names
};

/// Columns an adjudications CSV may add (an older file without them reads as before): where the
/// holder receives letters. A row that gives any of them records a contact version for its
/// holder, as `holder update` does.
pub const CONTACT_COLUMNS: [&str; 3] = ["address", "city", "email"];

/// Natural or legal person (persona natural / jurídica).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PersonType {
    Natural,
    Legal,
}

impl PersonType {
    pub const ALL: [PersonType; 2] = [PersonType::Natural, PersonType::Legal];

    pub fn as_str(self) -> &'static str {
        match self {
            PersonType::Natural => "natural",
            PersonType::Legal => "legal",
        }
    }
}

impl std::str::FromStr for PersonType {
    type Err = Said;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "natural" => Ok(PersonType::Natural),
            "legal" | "juridica" | "jurídica" => Ok(PersonType::Legal),
            _ => Err(said!(
                "{s:?} is not a person type; use natural or legal (jurídica)",
                "«{s}» no es un tipo de persona; use natural o legal (jurídica)"
            )),
        }
    }
}

/// One valid row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjudicationRow {
    pub line: usize,
    pub doc_type: DocType,
    /// Canonical document number (NIT with `-DV`).
    pub doc_number: String,
    pub name: String,
    pub person_type: PersonType,
    pub category: String,
    pub shares: u64,
    /// `None`: the program's fixed price.
    pub price_per_share: Option<Decimal>,
    pub adjudicated_on: NaiveDate,
    pub lender: Option<String>,
    pub financed_shares: u64,
    /// The holder's address, city and e-mail when the row gives any of them
    /// ([`CONTACT_COLUMNS`]); `None` when it gives none.
    pub contact: Option<crate::contact::Contact>,
}

/// A problem with one row (or the header, line 1): the column (as the file's header names it)
/// and the value, and why in English and Spanish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: usize,
    pub field: String,
    pub value: String,
    pub reason: Said,
}

impl RowError {
    /// The problem as one line in `lang`: `line 4: shares "0": must be ...` (the command
    /// line's), `línea 4: shares «0»: debe ser ...`.
    pub fn in_lang(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Es if self.field.is_empty() => {
                format!("línea {}: {}", self.line, self.reason.es())
            }
            Lang::Es => format!(
                "línea {}: {} «{}»: {}",
                self.line,
                self.field,
                shown(&self.value),
                self.reason.es()
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

/// In English, the command line's language.
impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            // a problem of the whole line (e.g. it repeats another)
            return write!(f, "line {}: {}", self.line, self.reason);
        }
        write!(
            f,
            "line {}: {} {:?}: {}",
            self.line, self.field, self.value, self.reason
        )
    }
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
/// (A file that is not text reads as the plain dialect: [`each_row`] reports what it is.)
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

/// Reads every row, handing each valid one to `f` as soon as it is read (so a million rows need
/// not sit in memory), and returns the dialect and every problem found: empty when the file is
/// clean. An error from `f` (storage) stops the reading.
/// Rows are read for `program`: its special-condition categories, and its offer, which no row's
/// shares can exceed.
pub fn each<E>(
    bytes: &[u8],
    program: &Program,
    f: impl FnMut(AdjudicationRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    each_row(
        bytes,
        &COLUMNS,
        &CONTACT_COLUMNS,
        |line, get| parse_row(line, get, program),
        f,
    )
}

/// Reads a CSV file whose header names every column of `required` (in any order and case; other
/// columns are ignored, and `optional` ones may be missing: they read as empty). Each non-blank
/// row goes to `parse` with its line number (as an editor numbers lines, CRLF or not) and a
/// getter by position in `required` followed by `optional`; every valid row goes on to `f`,
/// even after a bad one (the caller judges it against the register, so that one reading finds
/// every problem; a file with problems is refused whole all the same). A file that is not text (a
/// workbook, a PDF) or mixes encodings, a value with a control character and a line that repeats
/// an earlier one byte for byte are problems too. Returns the dialect and every problem found
/// (empty when the file is clean). An error from `f` (storage) stops the reading.
///
/// The getter gives each value as an owned `String`; [`each_record`] lends them instead.
pub fn each_row<T, E>(
    bytes: &[u8],
    required: &[&str],
    optional: &[&str],
    parse: impl Fn(usize, &dyn Fn(usize) -> String) -> Result<T, Vec<RowError>>,
    f: impl FnMut(T) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    each_record(
        bytes,
        required,
        optional,
        |line, fields| parse(line, &|i| fields.get(i).to_string()),
        f,
    )
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

/// [`each_row`], lending `parse` the row's values ([`Fields`]) rather than a copy of each: what
/// a reader of a million rows uses (a value it keeps, it copies).
///
/// Repeated lines are found by keeping each distinct line's place in the file (a borrowed slice
/// and a line number, in a table sized once: about 50 MB for a million rows).
pub fn each_record<T, E>(
    bytes: &[u8],
    required: &[&str],
    optional: &[&str],
    parse: impl Fn(usize, &Fields<'_>) -> Result<T, Vec<RowError>>,
    mut f: impl FnMut(T) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
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
            };
            return Ok((sniff_text("", "UTF-8"), vec![problem]));
        }
    };
    let first_line = text.lines().next().unwrap_or("");
    let dialect = sniff_text(&text, encoding);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(dialect.separator)
        .flexible(true)
        // values are trimmed as they are read (`Fields::get`): trimming here copies every record
        .from_reader(text.as_bytes());
    let header_error = |reason: Said| {
        vec![RowError {
            line: 1,
            field: "header".into(),
            value: first_line.into(),
            reason,
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
            header_error(said!(
                "columns {ha:?} and {hb:?} both name {col}; keep one of them",
                "las columnas «{ha}» y «{hb}» nombran las dos {col}; deje solo una"
            )),
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
                "missing column {col} (or {es:?}); the header must name {all} (in English or Spanish)",
                "falta la columna «{es}» ({col}); el encabezado debe nombrar {todas} (en español \
                 o en inglés)"
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
    let mut seen = SeenLines::with_capacity(text.bytes().filter(|&b| b == b'\n').count());
    loop {
        let at = reader.position().byte();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = lines.start(e.position().map_or(at, csv::Position::byte)).1;
                errors.push(RowError {
                    line,
                    field: "row".into(),
                    value: String::new(),
                    reason: Said::new(e.to_string(), "la línea no se puede leer como CSV"),
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
        if let Some(first) = seen.repeats(raw, line) {
            errors.push(RowError {
                line,
                field: String::new(),
                value: String::new(),
                reason: said!(
                    "repeats line {first} exactly; a row is listed once: remove one of the two",
                    "repite exactamente la línea {first}; cada fila va una sola vez: borre una de \
                     las dos"
                ),
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
                            said!(
                                "has the control character U+{code:04X} at character {at}; values are printed on notices and must be plain text: remove it",
                                "tiene el carácter de control U+{code:04X} en la posición {at}; los valores se \
                                 imprimen en los avisos y deben ser texto simple: quítelo"
                            )
                        },
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
    if !any && errors.is_empty() {
        errors.push(RowError {
            line: 2,
            field: "row".into(),
            value: String::new(),
            reason: Said::new("the file has no rows", "el archivo no tiene filas"),
        });
    }
    Ok((dialect, errors))
}

/// The distinct lines of a file seen so far, each with the line it was first seen on, to name a
/// line that repeats an earlier one byte for byte. The lines are kept in the order seen, and found
/// through an open-addressing table of 4-byte slots, at most half full: a slot holds a line's
/// place in `lines` (plus one; 0 is empty) in its low bits and the top bits of the line's hash
/// above them, so that a probe rarely looks at a line that is not the one sought. A row costs
/// one probe in a table of 8 MB for a million rows (it missed the cache twice in a map of
/// borrowed slices of 50 MB); about 32 MB in all.
struct SeenLines<'t> {
    hasher: foldhash::fast::RandomState,
    slots: Vec<u32>,
    lines: Vec<(&'t str, usize)>,
}

impl<'t> SeenLines<'t> {
    /// Room for `n` lines before the table grows.
    fn with_capacity(n: usize) -> SeenLines<'t> {
        SeenLines {
            hasher: Default::default(),
            slots: vec![0; (n.max(1) * 2).next_power_of_two()],
            lines: Vec::with_capacity(n),
        }
    }

    /// The line `raw` was first seen on; or none, and it is now seen, on `line`.
    fn repeats(&mut self, raw: &'t str, line: usize) -> Option<usize> {
        if self.lines.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let hash = self.hasher.hash_one(raw);
        let at = self.place(hash, raw);
        match self.slots[at] {
            0 => {
                self.slots[at] = self.tag(hash) | self.number(self.lines.len());
                self.lines.push((raw, line));
                None
            }
            slot => Some(self.lines[self.index(slot)].1),
        }
    }

    /// Bits of a slot that number a line: enough for the lines of a half-full table.
    fn bits(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }

    /// The slot bits that say which line (the place in `lines` plus one).
    fn number(&self, place: usize) -> u32 {
        u32::try_from(place + 1)
            .ok()
            .filter(|n| self.bits() < 32 && *n >> self.bits() == 0)
            .expect("fewer than 2 billion lines")
    }

    /// The slot bits that hold the top of `hash`.
    fn tag(&self, hash: u64) -> u32 {
        ((hash >> 32) as u32).checked_shl(self.bits()).unwrap_or(0)
    }

    fn index(&self, slot: u32) -> usize {
        (slot & ((1 << self.bits()) - 1)) as usize - 1
    }

    /// The slot of the line with `hash` that is `raw` (`None`: no line is), or the empty slot
    /// where it goes.
    fn place(&self, hash: u64, raw: impl Into<Option<&'t str>>) -> usize {
        let (raw, tag, mask) = (raw.into(), self.tag(hash), self.slots.len() - 1);
        let high = !((1u32 << self.bits()) - 1);
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                0 => return at,
                slot if slot & high == tag
                    && raw.is_some_and(|raw| self.lines[self.index(slot)].0 == raw) =>
                {
                    return at;
                }
                _ => at = (at + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        self.slots = vec![0; self.slots.len() * 2];
        for place in 0..self.lines.len() {
            let hash = self.hasher.hash_one(self.lines[place].0);
            let at = self.place(hash, None);
            self.slots[at] = self.tag(hash) | self.number(place);
        }
    }
}

/// Like [`each`], but the reading and checking run on a second thread while `f` runs on this
/// one (an import spends about as long parsing as storing): rows travel in batches through a
/// bounded channel, so memory stays flat.
pub fn each_in_parallel<E: Send>(
    bytes: &[u8],
    program: &Program,
    mut f: impl FnMut(AdjudicationRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    in_parallel(
        bytes,
        |sink| each(bytes, program, sink),
        |batch| batch.drain(..).try_for_each(&mut f),
    )
}

/// Like [`each_pledge`], reading on a second thread (see [`each_in_parallel`]).
pub fn each_pledge_in_parallel<E: Send>(
    bytes: &[u8],
    mut f: impl FnMut(PledgeRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    in_parallel(
        bytes,
        |sink| each_pledge(bytes, sink),
        |batch| batch.drain(..).try_for_each(&mut f),
    )
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

#[cfg(test)]
/// Parses the whole file into memory; every valid row, or every problem found.
pub fn parse(
    bytes: &[u8],
    program: &Program,
) -> Result<(Vec<AdjudicationRow>, Dialect), Vec<RowError>> {
    let mut rows = Vec::new();
    let (dialect, errors) = each(bytes, program, |r| {
        rows.push(r);
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|never| match never {});
    if errors.is_empty() {
        Ok((rows, dialect))
    } else {
        Err(errors)
    }
}

fn parse_row(
    line: usize,
    get: &dyn Fn(usize) -> String,
    program: &Program,
) -> Result<AdjudicationRow, Vec<RowError>> {
    let get_at = get;
    let get = |c: Col| get(c as usize);
    let mut errors = Vec::new();
    let mut fail = |field: Col, value: &str, reason: Said| {
        errors.push(RowError {
            line,
            field: field.name().into(),
            value: value.into(),
            reason,
        });
    };
    let doc_type_s = get(Col::DocType);
    let doc_type = DocType::read(&doc_type_s)
        .map_err(|e| fail(Col::DocType, &doc_type_s, e))
        .ok();
    let doc_number_s = get(Col::DocNumber);
    let doc_number = doc_type.and_then(|t| {
        ids::normalized(t, &doc_number_s)
            .map_err(|e| fail(Col::DocNumber, &doc_number_s, e))
            .ok()
    });
    let name = get(Col::Name);
    if name.is_empty() {
        fail(
            Col::Name,
            "",
            Said::new(
                "the holder's name is required",
                "falta el nombre del titular",
            ),
        );
    }
    let person_s = get(Col::PersonType);
    let person_type = person_s
        .parse::<PersonType>()
        .map_err(|e| fail(Col::PersonType, &person_s, e))
        .ok();
    let category_s = get(Col::Category);
    let category = match program.category(&category_s) {
        Ok(c) if person_type.is_some_and(|t| !program.category_fits(c, t)) => {
            // Art. 3: each category is of natural or of legal persons (LEGAL_NOTES §7.5)
            let (person, persona) = match person_type {
                Some(PersonType::Legal) => ("a legal person", "una persona jurídica"),
                _ => ("a natural person", "una persona natural"),
            };
            let code = &program.code;
            fail(
                Col::Category,
                &category_s,
                said!(
                    "{c} is not a category of {person} under {code} (Art. 3); check the category or the person type",
                    "{c} no es una categoría de {persona} en {code} (artículo 3); revise la \
                     categoría o el tipo de persona"
                ),
            );
            c.to_string()
        }
        Ok(c) => c.to_string(),
        Err(why) => {
            fail(Col::Category, &category_s, why);
            category_s
        }
    };
    let shares_s = get(Col::Shares);
    let shares = match parse_count(&shares_s) {
        Ok(n) if n > program.shares_offered => {
            let (offered, code) = (program.shares_offered, &program.code);
            let ofrecidas = acciones(offered);
            fail(
                Col::Shares,
                &shares_s,
                said!(
                    "exceeds the {offered} shares {code} offers in all; check the figure",
                    "supera las {ofrecidas} acciones que {code} ofrece en total; revise la cifra"
                ),
            );
            None
        }
        Ok(n) if n > 0 => Some(n),
        other => {
            let own = Said::new(
                "must be a whole number of shares greater than zero",
                "debe ser un número entero de acciones mayor que cero",
            );
            let why = match &other {
                Err(r) => reason(r, own),
                Ok(_) => own,
            };
            fail(Col::Shares, &shares_s, why);
            None
        }
    };
    let price_s = get(Col::PricePerShare);
    let price_per_share = if price_s.is_empty() {
        Some(None)
    } else {
        match parse_amount(&price_s) {
            Ok(p) if p > Decimal::ZERO => Some(Some(p)),
            other => {
                let own = Said::new(
                    "must be a positive amount such as 963,00, or empty for the program's fixed price",
                    "debe ser un valor positivo, como 963,00, o quedar vacío para usar el precio \
                     fijo del programa",
                );
                let why = match &other {
                    Err(r) => reason(r, own),
                    Ok(_) => own,
                };
                fail(Col::PricePerShare, &price_s, why);
                None
            }
        }
    };
    let date_s = get(Col::AdjudicatedOn);
    let adjudicated_on = parse_date(&date_s)
        .map_err(|e| fail(Col::AdjudicatedOn, &date_s, date_problem(&e, false)))
        .ok();
    let lender_s = get(Col::Lender);
    let lender = (!lender_s.is_empty()).then_some(lender_s);
    let financed_s = get(Col::FinancedShares);
    let financed_shares = if financed_s.is_empty() {
        Some(0)
    } else {
        match parse_count(&financed_s) {
            Ok(n) => Some(n),
            Err(r) => {
                let own = Said::new(
                    "must be a whole number of shares",
                    "debe ser un número entero de acciones",
                );
                fail(Col::FinancedShares, &financed_s, reason(&r, own));
                None
            }
        }
    };
    if let (Some(f), Some(n)) = (financed_shares, shares) {
        if f > n {
            let adjudicadas = acciones(n);
            fail(
                Col::FinancedShares,
                &financed_s,
                said!(
                    "exceeds the {n} shares adjudicated",
                    "supera las {adjudicadas} acciones adjudicadas"
                ),
            );
        }
        if f > 0 && lender.is_none() {
            fail(
                Col::Lender,
                "",
                Said::new(
                    "financed_shares is set, so the lender that financed them is required",
                    "financed_shares tiene un valor, así que falta el prestamista que las financió",
                ),
            );
        }
    }
    // the optional contact columns follow the required ones
    let contact_value = |k: usize| {
        let v = get_at(COLUMNS.len() + k);
        (!v.is_empty()).then(|| v.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    let contact = crate::contact::Contact {
        address: contact_value(0),
        city: contact_value(1),
        email: contact_value(2),
    };
    if let Some(e) = &contact.email
        && !crate::contact::plausible_email(e)
    {
        errors.push(RowError {
            line,
            field: CONTACT_COLUMNS[2].into(),
            value: e.clone(),
            reason: Said::new(
                "is not an e-mail address (one @, a domain with a dot, no spaces); correct it or leave it empty",
                "no es una dirección de correo electrónico (una @, un dominio con punto, sin \
                 espacios); corríjala o déjela vacía",
            ),
        });
    }
    let contact = (!contact.is_empty()).then_some(contact);
    match (
        doc_type,
        doc_number,
        person_type,
        shares,
        price_per_share,
        adjudicated_on,
        financed_shares,
    ) {
        (
            Some(doc_type),
            Some(doc_number),
            Some(person_type),
            Some(shares),
            Some(price_per_share),
            Some(adjudicated_on),
            Some(financed_shares),
        ) if errors.is_empty() => Ok(AdjudicationRow {
            line,
            doc_type,
            doc_number,
            name,
            person_type,
            category,
            shares,
            price_per_share,
            adjudicated_on,
            lender,
            financed_shares,
            contact,
        }),
        _ => Err(errors),
    }
}

/// The columns every pledge file has: which rank, when it was registered in the share ledger.
/// Which adjudication is pledged comes from [`PLEDGE_OPTIONAL`]: vigia's `adjudication_id`, or
/// the holder's `doc_type,doc_number` (officers do not have vigia's ids).
pub const PLEDGE_COLUMNS: [&str; 2] = [PledgeCol::Rank.name(), PledgeCol::RegisteredOn.name()];
/// Columns a pledge file may add: the adjudication's id, or its holder's document (checked
/// against the adjudication when both are given), with the adjudication date and the program's
/// code when the holder has several adjudications; the financing lender (default: the
/// adjudication's); and the shares the pledge covers (default: every share of the adjudication
/// no pledge in force covers; Art. 10: a lender's financed shares may carry a second-degree
/// pledge and the rest a first-degree one).
pub const PLEDGE_OPTIONAL: [&str; 7] = [
    PledgeCol::AdjudicationId.name(),
    PledgeCol::Lender.name(),
    PledgeCol::DocType.name(),
    PledgeCol::DocNumber.name(),
    PledgeCol::AdjudicatedOn.name(),
    PledgeCol::Program.name(),
    PledgeCol::Shares.name(),
];

/// A column of a pledge file, required ones first, in the order of [`PLEDGE_COLUMNS`] then
/// [`PLEDGE_OPTIONAL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PledgeCol {
    Rank,
    RegisteredOn,
    AdjudicationId,
    Lender,
    DocType,
    DocNumber,
    AdjudicatedOn,
    Program,
    Shares,
}

impl PledgeCol {
    const fn name(self) -> &'static str {
        match self {
            PledgeCol::Rank => "rank",
            PledgeCol::RegisteredOn => "registered_on",
            PledgeCol::AdjudicationId => "adjudication_id",
            PledgeCol::Lender => "lender",
            PledgeCol::DocType => "doc_type",
            PledgeCol::DocNumber => "doc_number",
            PledgeCol::AdjudicatedOn => "adjudicated_on",
            PledgeCol::Program => "program",
            PledgeCol::Shares => "shares",
        }
    }
}

/// Which adjudication a row of a pledge file pledges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PledgeOf {
    /// vigia's adjudication id; the holder's document, when the file gives it, is checked
    /// against the adjudication's holder.
    Id {
        adjudication_id: i64,
        holder: Option<(DocType, String)>,
    },
    /// The holder's document (canonical number): the holder's one adjudication that is not
    /// void, or the one of that date and program when the file gives them.
    Holder {
        doc_type: DocType,
        doc_number: String,
        adjudicated_on: Option<NaiveDate>,
        program: Option<String>,
    },
}

/// One valid row of a pledge file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PledgeRow {
    pub line: usize,
    pub of: PledgeOf,
    pub rank: u8,
    pub registered_on: NaiveDate,
    pub lender: Option<String>,
    /// The shares the pledge covers, when the file says.
    pub shares: Option<u64>,
}

/// Reads a pledge file like [`each`] reads adjudications.
pub fn each_pledge<E>(
    bytes: &[u8],
    f: impl FnMut(PledgeRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    each_row(
        bytes,
        &PLEDGE_COLUMNS,
        &PLEDGE_OPTIONAL,
        parse_pledge_row,
        f,
    )
}

fn parse_pledge_row(
    line: usize,
    get: &dyn Fn(usize) -> String,
) -> Result<PledgeRow, Vec<RowError>> {
    let get = |c: PledgeCol| get(c as usize);
    let mut errors = Vec::new();
    let mut fail = |field: PledgeCol, value: &str, reason: Said| {
        errors.push(RowError {
            line,
            field: field.name().into(),
            value: value.into(),
            reason,
        });
    };
    let id_s = get(PledgeCol::AdjudicationId);
    let adjudication_id = if id_s.is_empty() {
        Some(None)
    } else {
        match id_s.parse::<i64>().ok().filter(|&id| id > 0) {
            Some(id) => Some(Some(id)),
            None => {
                fail(
                    PledgeCol::AdjudicationId,
                    &id_s,
                    Said::new(
                        "must be the id of an adjudication (see `vigia adjudications list`)",
                        "debe ser el número de una adjudicación del registro",
                    ),
                );
                None
            }
        }
    };
    let rank_s = get(PledgeCol::Rank);
    let rank = match rank_s.as_str() {
        "1" => Some(1),
        "2" => Some(2),
        _ => {
            fail(
                PledgeCol::Rank,
                &rank_s,
                Said::new(
                    "must be 1 (first degree) or 2 (second degree, when the lender holds the first)",
                    "debe ser 1 (primer grado) o 2 (segundo grado, cuando el prestamista tiene el \
                     primero)",
                ),
            );
            None
        }
    };
    let date_s = get(PledgeCol::RegisteredOn);
    let registered_on = match parse_date(&date_s) {
        Ok(d) => Some(d),
        Err(e) => {
            fail(PledgeCol::RegisteredOn, &date_s, date_problem(&e, false));
            None
        }
    };
    let lender_s = get(PledgeCol::Lender);
    let lender = (!lender_s.is_empty()).then_some(lender_s);
    let (doc_type_s, doc_number_s) = (get(PledgeCol::DocType), get(PledgeCol::DocNumber));
    let holder = match (doc_type_s.is_empty(), doc_number_s.is_empty()) {
        (true, true) => Some(None),
        (false, false) => match DocType::read(&doc_type_s) {
            Ok(t) => match ids::normalized(t, &doc_number_s) {
                Ok(n) => Some(Some((t, n))),
                Err(e) => {
                    fail(PledgeCol::DocNumber, &doc_number_s, e);
                    None
                }
            },
            Err(e) => {
                fail(PledgeCol::DocType, &doc_type_s, e);
                None
            }
        },
        (true, false) => {
            fail(
                PledgeCol::DocType,
                "",
                Said::new(
                    "give it with doc_number, or leave both empty",
                    "escríbalo junto con doc_number, o deje ambos vacíos",
                ),
            );
            None
        }
        (false, true) => {
            fail(
                PledgeCol::DocNumber,
                "",
                Said::new(
                    "give it with doc_type, or leave both empty",
                    "escríbalo junto con doc_type, o deje ambos vacíos",
                ),
            );
            None
        }
    };
    let on_s = get(PledgeCol::AdjudicatedOn);
    let adjudicated_on = if on_s.is_empty() {
        Some(None)
    } else {
        match parse_date(&on_s) {
            Ok(d) => Some(Some(d)),
            Err(e) => {
                fail(PledgeCol::AdjudicatedOn, &on_s, date_problem(&e, true));
                None
            }
        }
    };
    let program_s = get(PledgeCol::Program);
    let program = (!program_s.is_empty()).then_some(program_s);
    let shares_s = get(PledgeCol::Shares);
    let shares = if shares_s.is_empty() {
        Some(None)
    } else {
        match parse_count(&shares_s) {
            Ok(n) => Some(Some(n)),
            Err(r) => {
                let own = Said::new(
                    "must be the whole number of shares the pledge covers, or empty for every share not yet pledged",
                    "debe ser el número entero de acciones que cubre la prenda, o quedar vacío para todas las aún \
                     no pignoradas",
                );
                fail(PledgeCol::Shares, &shares_s, reason(&r, own));
                None
            }
        }
    };
    let of = match (adjudication_id, holder, adjudicated_on) {
        (Some(Some(adjudication_id)), Some(holder), Some(_)) => Some(PledgeOf::Id {
            adjudication_id,
            holder,
        }),
        (Some(None), Some(Some((doc_type, doc_number))), Some(adjudicated_on)) => {
            Some(PledgeOf::Holder {
                doc_type,
                doc_number,
                adjudicated_on,
                program,
            })
        }
        (Some(None), Some(None), _) => {
            fail(
                PledgeCol::AdjudicationId,
                "",
                Said::new(
                    "say which adjudication is pledged: its id, or the holder's doc_type and doc_number",
                    "indique qué adjudicación se pignora: su número, o doc_type y doc_number del \
                     titular",
                ),
            );
            None
        }
        _ => None,
    };
    match (of, rank, registered_on, shares) {
        (Some(of), Some(rank), Some(registered_on), Some(shares)) => Ok(PledgeRow {
            line,
            of,
            rank,
            registered_on,
            lender,
            shares,
        }),
        _ => Err(errors),
    }
}

/// A count as the one reader reads every typed number ([`crate::input::count`]: `4.000` = 4000,
/// in any file); the file's dialect no longer changes how a number reads.
pub(crate) fn parse_count(s: &str) -> Result<u64, Refused> {
    // the common case of a million-row import: plain digits
    if !s.is_empty() && s.len() < 20 && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().map_err(|_| Refused {
            value: s.into(),
            problem: crate::input::Problem::TooLarge,
        });
    }
    crate::input::count(s)
}

/// An amount in pesos, exact, as the one reader reads it ([`crate::input::amount`]:
/// `1.450` = 1450, `1.450,50`, `1450.50`, `$ 1.450`).
pub(crate) fn parse_amount(s: &str) -> Result<Decimal, Refused> {
    crate::input::amount(s)
}

/// Why a cell was refused: the reader's own sentence when it says more than the column's (two
/// readings, a misplaced separator, a two-digit year), else the column's `own`.
pub(crate) fn reason(r: &Refused, own: Said) -> Said {
    if r.explains() { r.said() } else { own }
}

/// [`reason`] for what a reader made of a cell (a value it read but the column refuses keeps the
/// column's sentence).
pub(crate) fn why<T>(read: &Result<T, Refused>, own: Said) -> Said {
    match read {
        Err(r) => reason(r, own),
        Ok(_) => own,
    }
}

/// Why a date of a file was refused (`or_empty`: the column may also be left empty).
fn date_problem(r: &Refused, or_empty: bool) -> Said {
    if r.explains() {
        return r.said();
    }
    let (empty, vacia) = if or_empty {
        (", or empty", ", o déjela vacía")
    } else {
        ("", "")
    };
    said!(
        "must be a date DD/MM/YYYY or YYYY-MM-DD{empty}",
        "no es una fecha válida; escríbala dd/mm/aaaa o aaaa-mm-dd{vacia}"
    )
}

/// A number of shares the es-CO way (`12.960.982`).
fn acciones(n: u64) -> String {
    format_number(Decimal::from(n))
}

/// A date of a file: every form the one reader takes ([`crate::input::date`]), whatever the
/// file's dialect (a workbook's date cells arrive written `YYYY-MM-DD`: [`crate::workbook`]).
pub(crate) fn parse_date(s: &str) -> Result<NaiveDate, Refused> {
    if let Some(d) = crate::calendar::parse_iso(s) {
        // the common case, without a copy
        if (crate::calendar::FIRST_DATE..=crate::calendar::LAST_DATE).contains(&d) {
            return Ok(d);
        }
    }
    crate::input::date(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_line_is_found_with_the_line_it_repeats_however_the_table_grew() {
        // 5,000 lines, a third of them repeating an earlier one, into a table sized for one
        let lines: Vec<String> = (0..5000u64)
            .map(|k| {
                let n = if k % 3 == 2 {
                    (k.wrapping_mul(2_654_435_761) >> 7) % k
                } else {
                    k
                };
                format!("line {n}")
            })
            .collect();
        let mut seen = SeenLines::with_capacity(1);
        let mut first: std::collections::HashMap<&str, usize> = Default::default();
        let mut repeats = 0;
        for (k, line) in lines.iter().enumerate() {
            let want = first.get(line.as_str()).copied();
            first.entry(line).or_insert(k + 2);
            assert_eq!(seen.repeats(line, k + 2), want, "{line}");
            repeats += usize::from(want.is_some());
        }
        assert!(repeats > 1000, "{repeats}");
        assert!(seen.slots.len() >= 2 * first.len());
    }

    #[test]
    fn each_column_is_read_by_its_own_name() {
        // the getter is positional: a column's place in the header list must be its enum order
        for c in Col::ALL {
            assert_eq!(COLUMNS[c as usize], c.name());
        }
        let pledge: Vec<&str> = PLEDGE_COLUMNS
            .iter()
            .chain(&PLEDGE_OPTIONAL)
            .copied()
            .collect();
        for c in [
            PledgeCol::Rank,
            PledgeCol::RegisteredOn,
            PledgeCol::AdjudicationId,
            PledgeCol::Lender,
            PledgeCol::DocType,
            PledgeCol::DocNumber,
            PledgeCol::AdjudicatedOn,
            PledgeCol::Program,
        ] {
            assert_eq!(pledge[c as usize], c.name());
        }
        assert_eq!(COLUMNS[9], "financed_shares");
        assert_eq!(pledge[7], "program");
    }
    use crate::money::dec;

    /// The shipped program, with two of its categories.
    fn cats() -> Program {
        let mut p = Program::from_toml(crate::program::DECRETO_3939_2004).unwrap();
        p.categories = vec!["trabajador".into(), "sindicato".into()];
        p
    }

    const HEADER: &str = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n";

    #[test]
    fn reads_plain_utf8_with_bom() {
        let text = format!(
            "\u{feff}{HEADER}CC,79123456,José Pérez,natural,trabajador,1000,,2024-03-15,,\nNIT,800197268-4,Sindicato Único,legal,sindicato,5000,963.50,2024-03-15,Banco X,5000\n"
        );
        let (rows, dialect) = parse(text.as_bytes(), &cats()).unwrap();
        assert_eq!(dialect.encoding, "UTF-8 (BOM)");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].price_per_share, None);
        assert_eq!(rows[1].price_per_share, Some(dec("963.50")));
        assert_eq!(rows[1].lender.as_deref(), Some("Banco X"));
        assert_eq!(rows[1].line, 3);
    }

    #[test]
    fn reads_the_es_co_excel_export() {
        let header = HEADER.replace(',', ";");
        let mut bytes = header.into_bytes();
        // "José Pérez" in Windows-1252: é = 0xE9; amounts 1.450,50 and dates 15/03/2024.
        bytes.extend_from_slice(
            b"CC;79.123.456;Jos\xE9 P\xE9rez;natural;trabajador;1.000;1.450,50;15/03/2024;;\n",
        );
        let (rows, dialect) = parse(&bytes, &cats()).unwrap();
        assert_eq!(
            dialect,
            Dialect {
                encoding: "Windows-1252",
                separator: b';',
                es_co: true
            }
        );
        assert_eq!(rows[0].name, "José Pérez");
        assert_eq!(rows[0].doc_number, "79123456");
        assert_eq!(rows[0].shares, 1000);
        assert_eq!(rows[0].price_per_share, Some(dec("1450.50")));
        assert_eq!(
            rows[0].adjudicated_on,
            NaiveDate::from_ymd_opt(2024, 3, 15).unwrap()
        );
    }

    #[test]
    fn reports_every_bad_field_with_its_line() {
        let text = format!(
            "{HEADER}\
             XX,1,A,natural,trabajador,10,,2024-03-15,,\n\
             NIT,800197268-5,B,legal,sindicato,10,,2024-03-15,,\n\
             CC,123456,C,alien,trabajador,0,,2024-03-15,,\n\
             CC,123457,D,natural,gerente,10,-3,2024-02-30,,\n\
             CC,123458,E,natural,trabajador,10,,2024-03-15,,20\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (2, "doc_type"),
                (3, "doc_number"),
                (4, "person_type"),
                (4, "shares"),
                (5, "category"),
                (5, "price_per_share"),
                (5, "adjudicated_on"),
                (6, "financed_shares"),
                (6, "lender"),
            ]
        );
        assert!(errors[1].reason.en().contains("gives 4"), "{}", errors[1]);
    }

    #[test]
    fn a_row_cannot_adjudicate_more_than_the_offer() {
        // issue 11: i64::MAX shares in one row; and one share more than Decreto 3939 offers
        let text = format!(
            "{HEADER}CC,123456,A,natural,trabajador,9223372036854775807,,2024-03-15,,\n\
             CC,123457,B,natural,trabajador,12960983,,2024-03-15,,\n\
             CC,123458,C,natural,trabajador,18446744073709551616,,2024-03-15,,\n\
             CC,123459,D,natural,trabajador,12960982,,2024-03-15,,\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            [
                "line 2: shares \"9223372036854775807\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
                "line 3: shares \"12960983\": exceeds the 12960982 shares D3939-2004 offers in all; check the figure",
                "line 4: shares \"18446744073709551616\": must be a whole number of shares greater than zero",
            ]
        );
    }

    #[test]
    fn dates_in_every_layout_of_the_one_reader() {
        let d = NaiveDate::from_ymd_opt(2024, 3, 15).unwrap();
        {
            assert_eq!(parse_date("2024-03-15"), Ok(d));
            assert_eq!(parse_date("15/03/2024"), Ok(d));
            assert_eq!(parse_date("15-03-2024"), Ok(d));
            // what a Spanish-locale Excel writes
            assert_eq!(parse_date("5/03/2024"), Ok(d - chrono::Days::new(10)));
            for bad in [
                "2024-02-30",
                "2024-3-15",
                "2024-03-1x",
                "",
                "15/03/24",
                "45366",
            ] {
                assert!(parse_date(bad).is_err(), "{bad}");
            }
            let far = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
            assert_eq!(
                parse_date("31/12/9999").unwrap_err().problem,
                crate::input::Problem::OutOfRange(far)
            );
        }
    }

    #[test]
    fn the_parallel_reader_hands_on_the_same_rows_in_order_and_stops_on_a_storage_error() {
        let mut text = HEADER.to_string();
        for i in 0..5000 {
            text.push_str(&format!(
                "CC,{},N{i},natural,trabajador,{},,2024-03-15,,\n",
                1_000_000 + i,
                1 + i % 7
            ));
        }
        let mut serial = Vec::new();
        each(text.as_bytes(), &cats(), |r| {
            serial.push((r.line, r.doc_number, r.shares));
            Ok::<(), ()>(())
        })
        .unwrap();
        let mut parallel = Vec::new();
        let (_, errors) = each_in_parallel(text.as_bytes(), &cats(), |r| {
            parallel.push((r.line, r.doc_number, r.shares));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(errors.is_empty());
        assert_eq!(serial.len(), 5000);
        assert_eq!(parallel, serial);
        let mut seen = 0;
        let stopped = each_in_parallel(text.as_bytes(), &cats(), |_| {
            seen += 1;
            if seen == 3000 {
                Err("disk full")
            } else {
                Ok(())
            }
        });
        assert_eq!(stopped.unwrap_err(), "disk full");
        assert_eq!(seen, 3000);
        // a bad row anywhere is reported with its line
        let bad = text.replace("CC,1004000,", "XX,1004000,");
        let (_, errors) = each_in_parallel(bad.as_bytes(), &cats(), |_| Ok::<(), ()>(())).unwrap();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].line, errors[0].field.as_str()),
            (4002, "doc_type")
        );
    }

    #[test]
    fn row_problems_are_said_in_spanish_for_the_web() {
        let text = format!(
            "{HEADER}\
             CC,123456,A,alien,trabajador,10,,15/03/24,,\n\
             CC,123457,B,natural,trabajador,10,,2024-03-15,,\n\
             CC,123457,B,natural,trabajador,10,,2024-03-15,,\n\
             XX,1,C,natural,trabajador,12960983,,2024-03-15,,\n"
        );
        let errors = parse(text.as_bytes(), &cats()).unwrap_err();
        let es: Vec<String> = errors.iter().map(|e| e.in_lang(Lang::Es)).collect();
        assert_eq!(
            es,
            [
                "línea 2: person_type «alien»: «alien» no es un tipo de persona; use natural o legal \
                 (jurídica)",
                "línea 2: adjudicated_on «15/03/24»: «15/03/24» tiene el año con dos dígitos, que \
                 vigia no adivina; escriba los cuatro, p. ej. 15/03/2024",
                "línea 4: repite exactamente la línea 3; cada fila va una sola vez: borre una de las \
                 dos",
                "línea 5: doc_type «XX»: «XX» no es un tipo de documento; use CC, CE, TI, PA, PEP, \
                 PPT o NIT",
                "línea 5: shares «12960983»: supera las 12.960.982 acciones que D3939-2004 ofrece en \
                 total; revise la cifra",
            ]
        );
        // the command line's words are as they were
        assert_eq!(
            errors[2].in_lang(Lang::En),
            "line 4: repeats line 3 exactly; a row is listed once: remove one of the two"
        );
        assert_eq!(errors[2].in_lang(Lang::En), errors[2].to_string());
        // the Excel export writes dates dd/mm/aaaa; a NIT without its check digit; a value with
        // a control character, shown escaped
        let excel = "doc_type;doc_number;name;person_type;category;shares;price_per_share;adjudicated_on;lender;financed_shares\n\
                     NIT;800197268;A;legal;sindicato;10;;30/02/2024;;\n\
                     CC;123456;B\u{7};natural;trabajador;10;;31/12/9999;;\n";
        let errors = parse(excel.as_bytes(), &cats()).unwrap_err();
        let es: Vec<String> = errors.iter().map(|e| e.in_lang(Lang::Es)).collect();
        assert_eq!(
            es,
            [
                "línea 2: doc_number «800197268»: al NIT 800197268 le falta el dígito de \
                 verificación; escriba 800197268-4",
                "línea 2: adjudicated_on «30/02/2024»: «30/02/2024» no es un día del calendario; \
                 revise el día y el mes (dd/mm/aaaa)",
                "línea 3: name «B\\u{7}»: tiene el carácter de control U+0007 en la posición 2; los \
                 valores se imprimen en los avisos y deben ser texto simple: quítelo",
            ]
        );
        let excel = excel.replace("B\u{7}", "B");
        let errors = parse(excel.as_bytes(), &cats()).unwrap_err();
        assert_eq!(
            errors[2].reason.es(),
            "31/12/9999 está fuera de las fechas que vigia acepta, del 01/01/1990 al 31/12/2099; \
             revise el año"
        );
        assert_eq!(
            errors[2].reason.en(),
            "31/12/9999 is outside the dates vigia accepts, 01/01/1990 to 31/12/2099; check the year"
        );
    }

    #[test]
    fn header_must_name_every_column() {
        let errors = parse(b"doc_type,doc_number\nCC,1\n", &cats()).unwrap_err();
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].reason.en().contains("missing column name"),
            "{}",
            errors[0]
        );
    }
}
