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
//! They are FNV-1a (a row's 64 bits, a column's 32 folded to 16), cheap enough to add less than
//! the import's hashing already costs; a change whose column print happens to collide (1 in
//! 65,536) is still named by its row, and one whose prints all collide is reported by range, as
//! before.

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
}

impl Prints {
    /// The print of one row, from its audited form (the JSON `audit::RowHasher` hashes).
    pub fn add(&mut self, row_json: &[u8]) {
        if self.chunks.is_empty() || self.in_chunk == ROWS_PER_CHUNK {
            self.chunks
                .push(Vec::with_capacity(ROWS_PER_CHUNK * (10 + 2 * 16)));
            self.in_chunk = 0;
            self.prev_id = 0;
        }
        let out = self.chunks.last_mut().expect("a chunk");
        self.prev_id = print_row(row_json, self.prev_id, out);
        self.in_chunk += 1;
    }

    /// Stores the prints of the rows of `table` written from id `first` on (nothing when there
    /// are none), in the write transaction, before the event that covers them is appended.
    pub fn store(&mut self, conn: &Connection, table: &str, first: i64) -> Result<()> {
        let mut stmt = conn.prepare_cached(
            "INSERT INTO bulk_row_prints (table_name, first_id, chunk, prints) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (k, chunk) in std::mem::take(&mut self.chunks).iter().enumerate() {
            stmt.execute(params![table, first, k as i64, chunk])?;
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits.
const FNV64: (u64, u64) = (0xcbf2_9ce4_8422_2325, 0x0000_0100_0000_01b3);
/// FNV-1a, 32 bits.
const FNV32: (u32, u32) = (0x811c_9dc5, 0x0100_0193);

fn fnv32(bytes: &[u8]) -> u16 {
    let h = bytes
        .iter()
        .fold(FNV32.0, |h, &b| (h ^ u32::from(b)).wrapping_mul(FNV32.1));
    ((h >> 16) ^ (h & 0xffff)) as u16
}

fn fnv64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(FNV64.0, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV64.1))
}

/// The members of a row's audited form, a flat JSON object as `serde_json` writes it compactly
/// (keys are column names; values are numbers, `null` or strings): each key and the text of its
/// value. `None` when the text is not such an object.
fn members(json: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
    let mut out = Vec::with_capacity(16);
    let mut at = 1;
    if json.first() != Some(&b'{') {
        return None;
    }
    if json.get(1) == Some(&b'}') {
        return Some(out);
    }
    loop {
        // "key":
        if json.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = at + 1 + json.get(at + 1..)?.iter().position(|&b| b == b'"')?;
        let key = &json[at + 1..key_end];
        if json.get(key_end + 1) != Some(&b':') {
            return None;
        }
        let start = key_end + 2;
        let end = if json.get(start) == Some(&b'"') {
            let mut i = start + 1;
            loop {
                match json.get(i)? {
                    b'\\' => i += 2,
                    b'"' => break i + 1,
                    _ => i += 1,
                }
            }
        } else {
            start
                + json
                    .get(start..)?
                    .iter()
                    .position(|&b| b == b',' || b == b'}')?
        };
        out.push((key, &json[start..end]));
        match json.get(end)? {
            b',' => at = end + 1,
            b'}' if end + 1 == json.len() => return Some(out),
            _ => return None,
        }
    }
}

/// The row's id: its first member, `id`.
fn id_of(members: &[(&[u8], &[u8])]) -> Option<i64> {
    match members.first() {
        Some((b"id", v)) => std::str::from_utf8(v).ok()?.parse().ok(),
        _ => None,
    }
}

/// Appends the print of one row to `out`: its id (LEB128, after the previous row's, `prev`),
/// the row's 8-byte hash, its count of columns and each column's 2-byte hash. Returns its id.
fn print_row(json: &[u8], prev: i64, out: &mut Vec<u8>) -> i64 {
    let members = members(json).unwrap_or_default();
    let id = id_of(&members).unwrap_or(prev);
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
    out.extend_from_slice(&fnv64(json).to_le_bytes());
    out.push(u8::try_from(members.len()).unwrap_or(u8::MAX));
    for (_, value) in members.iter().take(usize::from(u8::MAX)) {
        out.extend_from_slice(&fnv32(value).to_le_bytes());
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
        let row: [u8; 8] = blob.get(at..at + 8)?.try_into().ok()?;
        let n = usize::from(*blob.get(at + 8)?);
        at += 9;
        let columns = blob
            .get(at..at + 2 * n)?
            .chunks_exact(2)
            .map(|c| [c[0], c[1]])
            .collect();
        at += 2 * n;
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
    /// The finding, in both languages: e.g. "adjudications: fila 123456, columna shares
    /// modificada".
    pub fn said(&self) -> crate::lang::Said {
        let (t, id) = (&self.table, self.id);
        match &self.change {
            Change::Edited { column: Some(c) } => crate::said!(
                "{t}: row {id}, column {c} changed",
                "{t}: fila {id}, columna {c} modificada"
            ),
            Change::Edited { column: None } => {
                crate::said!("{t}: row {id} changed", "{t}: fila {id} modificada")
            }
            Change::Removed => crate::said!("{t}: row {id} removed", "{t}: fila {id} eliminada"),
            Change::Added => crate::said!(
                "{t}: row {id} added by hand",
                "{t}: fila {id} añadida a mano"
            ),
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

    #[test]
    fn a_row_reads_as_its_members() {
        let json = br#"{"id":12,"name":"A \"b\", c}","shares":-5,"lender":null}"#;
        let m = members(json).unwrap();
        let keys: Vec<&[u8]> = m.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, [&b"id"[..], b"name", b"shares", b"lender"]);
        assert_eq!(m[1].1, br#""A \"b\", c}""#);
        assert_eq!(m[2].1, b"-5");
        assert_eq!(m[3].1, b"null");
        assert_eq!(id_of(&m), Some(12));
        assert_eq!(members(b"{}").unwrap().len(), 0);
        assert!(members(b"[1]").is_none());
        assert!(members(br#"{"id":1"#).is_none());
    }

    #[test]
    fn prints_read_back_as_written() {
        let mut blob = Vec::new();
        let a = print_row(br#"{"id":300,"x":"a"}"#, 0, &mut blob);
        let b = print_row(br#"{"id":302,"x":"b","y":1}"#, a, &mut blob);
        assert_eq!((a, b), (300, 302));
        let read = read_chunk(&blob).unwrap();
        assert_eq!(read.iter().map(|p| p.id).collect::<Vec<_>>(), [300, 302]);
        assert_eq!(read[1].columns.len(), 3);
        // the column `x` differs, `id` does not
        assert_eq!(read[0].columns[0], fnv32(b"300").to_le_bytes());
        assert_eq!(read[0].columns[1], fnv32(br#""a""#).to_le_bytes());
        assert_ne!(read[0].columns[1], read[1].columns[1]);
        // FNV-1a's published test value: fnv1a64("a") = 0xaf63dc4c8601ec8c
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        // fnv1a32("a") = 0xe40c292c, folded: 0xe40c ^ 0x292c
        assert_eq!(fnv32(b"a"), 0xe40c ^ 0x292c);
    }
}
