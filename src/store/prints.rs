//! Where rows written in bulk were changed by hand (issue 24.2): a bulk write's one audit event
//! covers its rows by range and one SHA-256 (`audit::Cover`), which tells that some row of the
//! range changed but not which. So each row also leaves a short print as it is hashed: its id, an
//! 8-byte hash of its audited form and a 2-byte hash of each column's value, kept in
//! `bulk_row_prints`, one blob per [`ROWS_PER_CHUNK`] rows. The event's payload records the
//! SHA-256 of those blobs, so they are as anchored as the rows: a print changed with its row
//! breaks that digest. When the rows' digest no longer matches and the prints do, `audit verify`
//! recomputes the prints of the rows as stored now and names the first row and column that
//! differ ([`locate`]).
//!
//! The prints only locate: that something changed is told by the SHA-256 of the rows, as before.
//! They are a fast non-cryptographic hash ([`mix64`], eight bytes at a time; a column keeps its
//! top 16 bits, the row a hash of its columns' 64), cheap enough to add a few per cent to an
//! import; a change whose column print happens to collide (1 in 65,536) is still named by its
//! row, and one whose prints all collide is reported by range, as before.

use super::Result;
use rusqlite::{Connection, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Rows a stored blob of prints holds.
pub const ROWS_PER_CHUNK: usize = 4096;

/// The prints of rows being written in bulk, in the order they are hashed.
#[derive(Default)]
pub struct Prints {
    chunks: Vec<Vec<u8>>,
    in_chunk: usize,
    prev_id: i64,
    /// Chunks already stored ([`Prints::store_full`]), before those in `chunks`.
    stored: usize,
}

impl Prints {
    /// The print of one row, from its audited form (the JSON `audit::RowHasher` hashes).
    pub fn add(&mut self, row_json: &[u8]) {
        let (prev, out) = self.chunk();
        self.prev_id = print_row(row_json, prev, out);
        self.in_chunk += 1;
    }

    /// The print of one row whose members' hashes its writer gathered as it wrote them
    /// ([`Members`]): the same print [`Prints::add`] makes of its JSON, without reading it again.
    pub fn add_members(&mut self, members: &Members) {
        let (prev, out) = self.chunk();
        let head = out.len();
        out.push(0);
        let n = members.hashes.len().min(255);
        for &h in &members.hashes[..n] {
            out.extend_from_slice(&column_print(h));
        }
        let row = members
            .hashes
            .iter()
            .fold(K, |row, &h| (row ^ h).wrapping_mul(K).rotate_left(29));
        self.prev_id = end_print(out, head, n, row, members.id.unwrap_or(prev), prev);
        self.in_chunk += 1;
    }

    /// The id of the previous row in the chunk the next row's print goes into (0 in a new
    /// chunk), and the chunk.
    fn chunk(&mut self) -> (i64, &mut Vec<u8>) {
        if self.chunks.is_empty() || self.in_chunk == ROWS_PER_CHUNK {
            self.chunks
                .push(Vec::with_capacity(ROWS_PER_CHUNK * (10 + 2 * 16)));
            self.in_chunk = 0;
            self.prev_id = 0;
        }
        (self.prev_id, self.chunks.last_mut().expect("a chunk"))
    }

    /// Stores the prints of the rows of `table` written from id `first` on (nothing when there
    /// are none), in the write transaction, before the event that covers them is appended.
    pub fn store(&mut self, conn: &Connection, table: &str, first: i64) -> Result<()> {
        let all = self.chunks.len();
        self.store_first(conn, (table, first), all)
    }

    /// Stores the chunks already full ([`ROWS_PER_CHUNK`] prints each), as [`Prints::store`]
    /// does, and frees them: a writer that calls it as it goes holds one chunk, not the
    /// import's prints. The chunk being filled is kept.
    pub fn store_full(&mut self, conn: &Connection, table: &str, first: i64) -> Result<()> {
        let full = if self.in_chunk == ROWS_PER_CHUNK {
            self.chunks.len()
        } else {
            self.chunks.len().saturating_sub(1)
        };
        self.store_first(conn, (table, first), full)
    }

    /// Stores the first `n` chunks held, numbered after those stored before, and frees them.
    fn store_first(
        &mut self,
        conn: &Connection,
        (table, first): (&str, i64),
        n: usize,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO bulk_row_prints (table_name, first_id, chunk, prints) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for chunk in self.chunks.drain(..n) {
            stmt.execute(params![table, first, self.stored as i64, chunk])?;
            self.stored += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
impl Prints {
    /// The prints kept so far, as one blob.
    pub fn bytes(&self) -> Vec<u8> {
        self.chunks.concat()
    }
}

/// The golden ratio's 64 bits: the multiplier of [`mix64`].
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser: every bit of `h` reaches every bit of the result.
fn finish(mut h: u64) -> u64 {
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A fast 64-bit hash of `bytes`, eight at a time (multiply and rotate), before [`finish`]: not
/// cryptographic, it only locates (see the module's note).
fn mix64(bytes: &[u8]) -> u64 {
    let step = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(29);
    let mut words = bytes.chunks_exact(8);
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    for w in &mut words {
        h = step(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        h = step(h, u64::from_le_bytes(last));
    }
    h
}

/// The members of a row's audited form as its writer wrote them (`bulk::JsonObject`): each
/// value's [`mix64`] in order, and the leading `id`'s value. What [`each_member`] would find in
/// the JSON, gathered without reading it again.
#[derive(Default)]
pub struct Members {
    hashes: Vec<u64>,
    id: Option<i64>,
}

impl Members {
    /// Empty, for the next row.
    pub fn clear(&mut self) {
        self.hashes.clear();
        self.id = None;
    }

    /// A member's value, as written: the text after its key (a quoted string with its quotes, a
    /// number, `null`).
    pub fn value(&mut self, text: &[u8]) {
        self.hashes.push(mix64(text));
    }

    /// The row's leading `id`, written as an integer.
    pub fn id(&mut self, id: i64) {
        if self.hashes.is_empty() {
            self.id = Some(id);
        }
    }
}

/// A column's 2-byte print: the top bits of its value's [`mix64`], multiplied once more.
fn column_print(h: u64) -> [u8; 2] {
    ((h.wrapping_mul(K) >> 48) as u16).to_le_bytes()
}

/// Calls `f` with each member of a row's audited form, a flat JSON object as `serde_json` writes
/// it compactly (keys are column names; values are numbers, `null` or strings): its key and the
/// text of its value. `None` when the text is not such an object (then `f` saw a part of it).
fn each_member<'j>(json: &'j [u8], mut f: impl FnMut(&'j [u8], &'j [u8])) -> Option<()> {
    if json.first() != Some(&b'{') {
        return None;
    }
    if json.get(1) == Some(&b'}') {
        return (json.len() == 2).then_some(());
    }
    let mut at = 1;
    loop {
        // "key":
        if json.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = at + 1 + json.get(at + 1..)?.iter().position(|&b| b == b'"')?;
        if json.get(key_end + 1) != Some(&b':') {
            return None;
        }
        let start = key_end + 2;
        let end = if json.get(start) == Some(&b'"') {
            let mut i = start + 1;
            loop {
                i += json
                    .get(i..)?
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\')?;
                match json[i] {
                    b'\\' => i += 2,
                    _ => break i + 1,
                }
            }
        } else {
            start
                + json
                    .get(start..)?
                    .iter()
                    .position(|&b| b == b',' || b == b'}')?
        };
        f(&json[at + 1..key_end], json.get(start..end)?);
        match json.get(end)? {
            b',' => at = end + 1,
            b'}' if end + 1 == json.len() => return Some(()),
            _ => return None,
        }
    }
}

/// Appends the print of one row to `out`: its count of columns, each column's 2-byte print
/// ([`column_print`]), the row's 8-byte hash (of its columns' hashes, in order) and its id
/// (LEB128, after the previous row's, `prev`). Returns its id (`prev` when the row has no
/// leading `id`).
fn print_row(json: &[u8], prev: i64, out: &mut Vec<u8>) -> i64 {
    let (mut id, mut n, mut row) = (None, 0usize, K);
    let head = out.len();
    out.push(0);
    let whole = each_member(json, |key, value| {
        if n == 0 && key == b"id" {
            id = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
        }
        let h = mix64(value);
        row = (row ^ h).wrapping_mul(K).rotate_left(29);
        if n < 255 {
            out.extend_from_slice(&column_print(h));
            n += 1;
        }
    });
    if whole.is_none() {
        // not a row as vigia writes it: a print that matches nothing but itself
        out.truncate(head + 1);
        (row, n) = (mix64(json), 0);
    }
    end_print(out, head, n, row, id.unwrap_or(prev), prev)
}

/// Ends the print begun at `head` (its count byte, then `n` column prints): the count, the row's
/// hash from `row` (its columns' hashes folded), and `id` after `prev`. Returns `id`.
fn end_print(out: &mut Vec<u8>, head: usize, n: usize, row: u64, id: i64, prev: i64) -> i64 {
    out[head] = n as u8;
    out.extend_from_slice(&finish(row ^ n as u64).to_le_bytes());
    let mut delta = id.wrapping_sub(prev) as u64;
    loop {
        let byte = (delta & 0x7f) as u8;
        delta >>= 7;
        if delta == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    id
}

/// One row's print, read back.
struct Print {
    id: i64,
    row: [u8; 8],
    columns: Vec<[u8; 2]>,
}

/// Reads the prints of one blob; `None` when it does not read as prints.
fn read_chunk(blob: &[u8]) -> Option<Vec<Print>> {
    let (mut at, mut prev, mut out) = (0usize, 0i64, Vec::new());
    while at < blob.len() {
        let n = usize::from(*blob.get(at)?);
        let columns = blob
            .get(at + 1..at + 1 + 2 * n)?
            .chunks_exact(2)
            .map(|c| [c[0], c[1]])
            .collect();
        at += 1 + 2 * n;
        let row: [u8; 8] = blob.get(at..at + 8)?.try_into().ok()?;
        at += 8;
        let (mut delta, mut shift) = (0u64, 0u32);
        loop {
            let b = *blob.get(at)?;
            at += 1;
            delta |= u64::from(b & 0x7f).checked_shl(shift)?;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let id = prev.wrapping_add(delta as i64);
        out.push(Print { id, row, columns });
        prev = id;
    }
    Some(out)
}

/// How many blobs of prints the rows of `table` written from id `first` on have, and the SHA-256
/// of them in order (what the covering event's payload records); `None` when they have none (a
/// register written before prints were kept, or a bulk write that keeps none).
pub fn digest(conn: &Connection, table: &str, first: i64) -> Result<Option<(i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT prints FROM bulk_row_prints WHERE table_name = ?1 AND first_id = ?2 ORDER BY chunk",
    )?;
    let mut rows = stmt.query(params![table, first])?;
    let (mut h, mut n) = (Sha256::new(), 0i64);
    while let Some(r) = rows.next()? {
        let blob = r.get_ref(0)?.as_blob().unwrap_or_default();
        h.update((blob.len() as u64).to_le_bytes());
        h.update(blob);
        n += 1;
    }
    Ok((n > 0).then(|| (n, super::hex(&h.finalize()))))
}

/// What happened to a row written in bulk, as its print tells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Change {
    /// The row was edited: the first column whose value differs (`None` when its print names
    /// none: the column's 2-byte hash collided, or the columns themselves changed).
    Edited { column: Option<String> },
    /// The row is gone.
    Removed,
    /// A row of the range that the write did not leave.
    Added,
}

/// The row of a bulk write found changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Located {
    pub table: String,
    pub id: i64,
    pub change: Change,
}

impl Located {
    /// The finding, in both languages, with its table: e.g. "adjudications: fila 123456, columna
    /// «Acciones» (shares) modificada".
    pub fn said(&self) -> crate::lang::Said {
        let t = &self.table;
        let row = self.change_said();
        let (row_en, row_es) = (row.en(), row.es());
        crate::said!(store::row_of_table, t, row_en, row_es)
    }

    /// What happened to the row, without its table (for a page that names the table itself):
    /// e.g. "fila 123456, columna «Acciones» (shares) modificada".
    pub fn change_said(&self) -> crate::lang::Said {
        let id = self.id;
        match &self.change {
            Change::Edited { column: Some(c) } => {
                // the column as a Spanish file's header names it, when files give it
                let c_es = crate::headers::spanish(c);
                crate::said!(store::row_column_changed, id, c, c_es)
            }
            Change::Edited { column: None } => crate::said!(store::row_changed, id),
            Change::Removed => crate::said!(store::row_removed, id),
            Change::Added => crate::said!(store::row_added_by_hand, id),
        }
    }
}

/// The first row of `table` in `first..=last` whose print differs from the one kept when it
/// was written (the prints read back are the caller's to have checked against the event); `None`
/// when there are no prints, or every row matches its print.
pub fn locate(conn: &Connection, table: &str, first: i64, last: i64) -> Result<Option<Located>> {
    let mut prints = Vec::new();
    {
        let mut stmt = conn.prepare(
            "SELECT prints FROM bulk_row_prints WHERE table_name = ?1 AND first_id = ?2 ORDER BY chunk",
        )?;
        let mut rows = stmt.query(params![table, first])?;
        while let Some(r) = rows.next()? {
            match read_chunk(r.get_ref(0)?.as_blob().unwrap_or_default()) {
                Some(p) => prints.extend(p),
                None => return Ok(None),
            }
        }
    }
    if prints.is_empty() {
        return Ok(None);
    }
    let found = |id, change| {
        Ok(Some(Located {
            table: table.to_string(),
            id,
            change,
        }))
    };
    let mut stmt = conn.prepare(&format!(
        "SELECT * FROM {table} WHERE id BETWEEN ?1 AND ?2 ORDER BY id"
    ))?;
    let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
    let mut rows = stmt.query(params![first, last])?;
    let mut expected = prints.iter().peekable();
    let mut now = Vec::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get("id")?;
        // a print before this row: its row is gone
        if let Some(p) = expected.peek()
            && p.id < id
        {
            return found(p.id, Change::Removed);
        }
        let Some(p) = expected.next_if(|p| p.id == id) else {
            return found(id, Change::Added);
        };
        now.clear();
        print_row(
            super::json_of_row(r, &names)?.to_string().as_bytes(),
            0,
            &mut now,
        );
        let Some(current) = read_chunk(&now).and_then(|mut v| v.pop()) else {
            continue;
        };
        if current.row == p.row {
            continue;
        }
        let column = (current.columns.len() == p.columns.len())
            .then(|| {
                current
                    .columns
                    .iter()
                    .zip(&p.columns)
                    .position(|(a, b)| a != b)
                    .and_then(|i| names.get(i).cloned())
            })
            .flatten();
        return found(id, Change::Edited { column });
    }
    match expected.next() {
        Some(p) => found(p.id, Change::Removed),
        None => Ok(None),
    }
}

/// Among a bulk event's covers (table, first and last id) whose rows differ from what the event
/// recorded (`recorded`, its payload's list of covers, against `now`, the same recomputed), the
/// first row its prints name, where the prints kept still match the event (then they are the
/// ones written); and the tables whose prints themselves differ.
pub fn locate_in_covers(
    conn: &Connection,
    covers: &[(&'static str, i64, i64)],
    recorded: &serde_json::Value,
    now: &serde_json::Value,
) -> Result<(Option<Located>, Vec<&'static str>)> {
    let (mut located, mut reprinted) = (None, Vec::new());
    let was_list = recorded.as_array().map(Vec::as_slice).unwrap_or_default();
    for (&(table, first, last), is) in covers.iter().zip(now.as_array().into_iter().flatten()) {
        let was = was_list
            .iter()
            .find(|w| w["table"].as_str() == Some(table) && w["first"].as_i64() == Some(first));
        let Some(was) = was.filter(|w| *w != is) else {
            continue;
        };
        match (was.get("prints"), is.get("prints")) {
            (Some(a), Some(b)) if a == b => {
                if located.is_none() {
                    located = locate(conn, table, first, last)?;
                }
            }
            (None, None) => {}
            _ => reprinted.push(table),
        }
    }
    Ok((located, reprinted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(json: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
        let mut m = Vec::new();
        each_member(json, |k, v| m.push((k, v)))?;
        Some(m)
    }

    fn column(value: &[u8]) -> [u8; 2] {
        column_print(mix64(value))
    }

    #[test]
    fn a_row_reads_as_its_members() {
        let json = br#"{"id":12,"name":"A \"b\", c}\\","shares":-5,"lender":null}"#;
        let m = members(json).unwrap();
        let keys: Vec<&[u8]> = m.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, [&b"id"[..], b"name", b"shares", b"lender"]);
        assert_eq!(m[1].1, br#""A \"b\", c}\\""#);
        assert_eq!(m[2].1, b"-5");
        assert_eq!(m[3].1, b"null");
        assert_eq!(members(b"{}").unwrap().len(), 0);
        assert!(members(b"[1]").is_none());
        assert!(members(br#"{"id":1"#).is_none());
        assert!(members(br#"{"id":1}x"#).is_none());
    }

    #[test]
    fn a_row_printed_as_it_is_written_gets_the_print_of_its_json() {
        use super::super::bulk::JsonObject;
        let (mut json, mut members) = (Vec::new(), Members::default());
        let (mut read, mut gathered) = (Prints::default(), Prints::default());
        for (id, name, n) in [
            (7i64, Some("Ana \"la\" Pérez \\ Ñandú\n"), -5i64),
            (8, None, 0),
            (300, Some("plain, with a comma } and a brace"), i64::MIN),
        ] {
            let mut o = JsonObject::gathering(&mut json, &mut members);
            o.int("id", id);
            o.text("name", name);
            o.int("n", n);
            o.int("big", u64::MAX);
            o.end();
            read.add(&json);
            gathered.add_members(&members);
        }
        assert_eq!(gathered.bytes(), read.bytes());
        let rows = read_chunk(&read.chunks[0]).unwrap();
        assert_eq!(rows.iter().map(|p| p.id).collect::<Vec<_>>(), [7, 8, 300]);
        assert_eq!(rows[1].columns[1], column(b"null"));
        // an `id` that is not the row's first member is not its id
        let mut o = JsonObject::gathering(&mut json, &mut members);
        o.text("x", Some("a"));
        o.int("id", 9);
        o.end();
        let (mut read, mut gathered) = (Prints::default(), Prints::default());
        read.add(&json);
        gathered.add_members(&members);
        assert_eq!(gathered.bytes(), read.bytes());
        assert_eq!(read_chunk(&read.bytes()).unwrap()[0].id, 0);
        // ids start again from 0 in each chunk of prints
        let mut gathered = Prints::default();
        for id in 1..=ROWS_PER_CHUNK as i64 + 2 {
            let mut o = JsonObject::gathering(&mut json, &mut members);
            o.int("id", id);
            o.end();
            gathered.add_members(&members);
        }
        let second = read_chunk(&gathered.chunks[1]).unwrap();
        let ids: Vec<i64> = second.iter().map(|p| p.id).collect();
        assert_eq!(ids, [ROWS_PER_CHUNK as i64 + 1, ROWS_PER_CHUNK as i64 + 2]);
    }

    #[test]
    fn prints_stored_as_their_chunks_fill_are_those_stored_at_the_end() {
        let blobs = |incremental: bool| -> Vec<(i64, Vec<u8>)> {
            let conn = Connection::open_in_memory().unwrap();
            conn.execute_batch(
                "CREATE TABLE bulk_row_prints (id INTEGER PRIMARY KEY, table_name TEXT NOT NULL,
                 first_id INTEGER NOT NULL, chunk INTEGER NOT NULL, prints BLOB NOT NULL,
                 UNIQUE (table_name, first_id, chunk))",
            )
            .unwrap();
            let mut p = Prints::default();
            // two chunks and a part, stored after every 1000 rows (and once exactly at a chunk's end)
            for id in 1..=(2 * ROWS_PER_CHUNK + 5) as i64 {
                p.add(format!("{{\"id\":{id},\"x\":\"v{id}\"}}").as_bytes());
                if incremental && (id % 1000 == 0 || id == ROWS_PER_CHUNK as i64) {
                    p.store_full(&conn, "t", 1).unwrap();
                    assert!(p.chunks.len() <= 1, "only the chunk being filled is held");
                }
            }
            p.store(&conn, "t", 1).unwrap();
            let mut stmt = conn
                .prepare("SELECT chunk, prints FROM bulk_row_prints ORDER BY chunk")
                .unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .map(|r| r.unwrap())
                .collect()
        };
        let (at_once, as_they_fill) = (blobs(false), blobs(true));
        assert_eq!(at_once.len(), 3);
        assert_eq!(
            at_once.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(as_they_fill, at_once);
        assert_eq!(read_chunk(&at_once[2].1).unwrap().len(), 5);
    }

    #[test]
    fn prints_read_back_as_written() {
        let mut blob = Vec::new();
        let a = print_row(br#"{"id":300,"x":"a"}"#, 0, &mut blob);
        let b = print_row(br#"{"id":302,"x":"b","y":1}"#, a, &mut blob);
        let c = print_row(br#"{"id":302,"x":"a"}"#, 0, &mut Vec::new());
        assert_eq!((a, b, c), (300, 302, 302));
        let read = read_chunk(&blob).unwrap();
        assert_eq!(read.iter().map(|p| p.id).collect::<Vec<_>>(), [300, 302]);
        assert_eq!(read[1].columns.len(), 3);
        assert_eq!(read[0].columns, [column(b"300"), column(br#""a""#)]);
        // the column `x` differs, and so does the row
        assert_ne!(read[0].columns[1], read[1].columns[1]);
        assert_ne!(read[0].row, read[1].row);
        // a hash of eight bytes at a time sees every byte, the last partial word's included
        let h = |s: &[u8]| finish(mix64(s));
        assert_ne!(h(b"12345678"), h(b"12345679"));
        assert_ne!(h(b"123456789"), h(b"123456788"));
        assert_ne!(h(b"1"), h(b"1\0"));
        assert_ne!(h(b""), h(b"\0"));
    }
}
