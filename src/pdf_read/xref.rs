//! The cross-references of a PDF read into its `Doc`: a table or a stream (its PNG predictor
//! undone), section after section through `/Prev`, and the objects they place inside object
//! streams, read from there.

use super::{Dict, Doc, MAX_CONTENT, Obj, Result, Tok, Unreadable, damaged, decode, get};

/// The highest object number a PDF may use (ISO 32000-1, Annex C).
pub const MAX_OBJECT: u32 = 8_388_607;

/// The object streams kept decoded at once.
pub(super) const KEPT_STREAMS: usize = 4;
/// What object streams may inflate to over a document's lookups (each is within
/// [`MAX_CONTENT`]): a stream is inflated again only when it left the ones kept.
pub const MAX_UNPACKED: usize = 16 * MAX_CONTENT;
const _: () = assert!(MAX_UNPACKED == 256 << 20, "its tests say 256 MiB");
/// The objects one object stream may hold (its `/N`; writers put a hundred or so in one).
pub(super) const MAX_PLACES: usize = 1 << 20;
/// What each object's place in a kept stream takes in memory.
const PLACE_BYTES: usize = std::mem::size_of::<(i64, usize)>();
/// What the kept object streams take at most together, their bytes and their places: one
/// stream at its largest ([`MAX_CONTENT`] and [`MAX_PLACES`]) fills it, a new one evicts older
/// ones until they fit.
pub(super) const MAX_KEPT: usize = MAX_CONTENT + MAX_PLACES * PLACE_BYTES;

/// An object stream decoded: its bytes, where its objects start, and each object's number and
/// offset from there, read once.
pub(super) struct Unpacked {
    data: Vec<u8>,
    first: usize,
    places: Vec<(i64, usize)>,
}

impl Unpacked {
    /// What it takes in memory, its bytes and its places.
    pub(super) fn size(&self) -> usize {
        self.data.capacity() + self.places.capacity() * PLACE_BYTES
    }
}

impl Doc<'_> {
    /// Reads one cross-reference section (table or stream) into `offsets` (newer sections, read
    /// first, win) and returns its trailer and its free entries, for [`Doc::free`] once the
    /// section is read (a hybrid file's table marks free the objects its /XRefStm places). A
    /// free entry numbered at or above the section's `/Size`, or above [`MAX_OBJECT`], frees
    /// nothing that exists: it is left out.
    pub(super) fn xref_section(&mut self, at: usize) -> Result<(Dict, Vec<u32>)> {
        let too_many =
            || Unreadable::Damaged("an object number is above 8,388,607, the most a PDF may have");
        // each object's number, offset and generation
        let mut found: Vec<(u32, usize, i64)> = Vec::new();
        let mut packed: Vec<(u32, (u32, usize))> = Vec::new();
        let mut free: Vec<u32> = Vec::new();
        let here = self.at(at)?;
        let trailer = if here.starts_with(b"xref") {
            let (trailer, _) = self.parse(&here, 4, true, |p| {
                loop {
                    match p.next()? {
                        Some(Tok::Int(first)) => {
                            let Some(Tok::Int(count)) = p.next()? else {
                                return damaged("a cross-reference subsection has no count");
                            };
                            for i in 0..count.max(0) {
                                let (
                                    Some(Tok::Int(off)),
                                    Some(Tok::Int(generation)),
                                    Some(Tok::Word(kind)),
                                ) = (p.next()?, p.next()?, p.next()?)
                                else {
                                    return damaged("a cross-reference entry is damaged");
                                };
                                if kind == b"n"
                                    && let (Ok(id), Ok(off)) = (
                                        u32::try_from(first.saturating_add(i)),
                                        usize::try_from(off),
                                    )
                                {
                                    if id > MAX_OBJECT {
                                        return Err(too_many());
                                    }
                                    found.push((id, off, generation));
                                } else if kind == b"f"
                                    && let Ok(id) = u32::try_from(first.saturating_add(i))
                                {
                                    free.push(id);
                                }
                            }
                        }
                        Some(Tok::Word(b"trailer")) => {
                            let Some(t) = p.next()? else {
                                return damaged("no trailer");
                            };
                            return match p.object(t, 0)? {
                                Obj::Dict(d) => Ok(d),
                                _ => damaged("the trailer is not a dictionary"),
                            };
                        }
                        _ => return damaged("a cross-reference table is damaged"),
                    }
                }
            })?;
            trailer
        } else {
            let (_, obj, data) = self.object_at(at, None, true)?;
            let (Obj::Dict(dict), Some(data)) = (obj, data) else {
                return damaged("startxref points at neither a table nor a stream");
            };
            if get(&dict, b"Type") != Some(&Obj::Name(b"XRef".to_vec())) {
                return damaged("startxref points at neither a table nor a stream");
            }
            let data = decode_rows(&dict, &data, &mut self.xref_budget)?;
            let w: Vec<usize> = match get(&dict, b"W") {
                Some(Obj::Array(a)) if a.len() == 3 => a
                    .iter()
                    .map(|x| match x {
                        Obj::Int(n) if (0..=8).contains(n) => Ok(*n as usize),
                        _ => damaged("a cross-reference stream's /W is damaged"),
                    })
                    .collect::<Result<_>>()?,
                _ => return damaged("a cross-reference stream has no /W"),
            };
            let row = w.iter().sum::<usize>().max(1);
            let size = match get(&dict, b"Size") {
                Some(Obj::Int(n)) => *n,
                _ => 0,
            };
            let index: Vec<i64> = match get(&dict, b"Index") {
                Some(Obj::Array(a)) => a
                    .iter()
                    .map(|x| match x {
                        Obj::Int(n) => Ok(*n),
                        _ => damaged("a cross-reference stream's /Index is damaged"),
                    })
                    .collect::<Result<_>>()?,
                _ => vec![0, size],
            };
            let field = |r: &[u8]| r.iter().fold(0u64, |v, &b| v << 8 | u64::from(b));
            let mut rows = data.chunks_exact(row);
            for pair in index.chunks(2) {
                let [first, count] = pair else {
                    return damaged("a cross-reference stream's /Index is damaged");
                };
                for i in 0..(*count).max(0) {
                    let Some(r) = rows.next() else {
                        return damaged("a cross-reference stream is short");
                    };
                    let kind = if w[0] == 0 { 1 } else { field(&r[..w[0]]) };
                    let off = field(&r[w[0]..w[0] + w[1]]);
                    let third = field(&r[w[0] + w[1]..]);
                    let Ok(id) = u32::try_from(first.saturating_add(i)) else {
                        continue;
                    };
                    if kind != 0 && id > MAX_OBJECT {
                        return Err(too_many());
                    }
                    if kind == 0 {
                        free.push(id);
                    } else if kind == 1
                        && let Ok(off) = usize::try_from(off)
                    {
                        found.push((id, off, i64::try_from(third).unwrap_or(0)));
                    } else if kind == 2
                        && let (Ok(stream), Ok(index)) =
                            (u32::try_from(off), usize::try_from(third))
                    {
                        packed.push((id, (stream, index)));
                    }
                }
            }
            dict
        };
        // a newer section (read first) wins, whichever kind of entry it gives: a free one too
        let decided = |doc: &Self, id: &u32| {
            doc.packed.contains_key(id) || doc.offsets.contains_key(id) || doc.freed.contains(id)
        };
        for (id, off, generation) in found {
            if decided(self, &id) {
                continue;
            }
            self.offsets.insert(id, off);
            if let Ok(g @ 1..) = u16::try_from(generation) {
                self.generations.insert(id, g);
            }
        }
        for (id, place) in packed {
            if !decided(self, &id) {
                self.packed.insert(id, place);
            }
        }
        let size = match get(&trailer, b"Size") {
            Some(Obj::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        free.retain(|&id| id <= MAX_OBJECT && size.is_none_or(|size| id < size));
        Ok((trailer, free))
    }

    /// Marks free the objects of `ids` that no section read so far (newer, or the same
    /// section's /XRefStm) gives: an older section's entry for them is not read.
    pub(super) fn free(&mut self, ids: Vec<u32>) {
        for id in ids {
            if !(self.packed.contains_key(&id) || self.offsets.contains_key(&id)) {
                self.freed.insert(id);
            }
        }
    }

    /// Object `id`, the `index`th of object stream `stream` (`/Type /ObjStm`: `/N` pairs of
    /// number and offset, the objects from `/First` on).
    pub(super) fn packed_object(&self, id: u32, stream: u32, index: usize) -> Result<Obj> {
        let unpacked = self.unpacked(stream)?;
        let at = match unpacked.places.get(index) {
            Some(&(number, offset)) if number == i64::from(id) => unpacked
                .first
                .checked_add(offset)
                .filter(|&a| a < unpacked.data.len())
                .ok_or(Unreadable::Damaged("an object stream is damaged"))?,
            _ => return damaged("an object is not where the cross-reference says"),
        };
        let (obj, _) = self.parse(&unpacked.data, at, true, |p| {
            let Some(t) = p.next()? else {
                return damaged("an object is empty");
            };
            p.object(t, 0)
        })?;
        Ok(obj)
    }

    /// Object stream `stream` decoded (within [`MAX_CONTENT`], and all those inflated within
    /// [`MAX_UNPACKED`]) with its table of places read (at most [`MAX_PLACES`]): one of those
    /// kept, or decoded now and kept (at most [`KEPT_STREAMS`] and [`MAX_KEPT`] bytes).
    fn unpacked(&self, stream: u32) -> Result<std::rc::Rc<Unpacked>> {
        let mut kept = self.unpacked.borrow_mut();
        if let Some(i) = kept.iter().position(|(s, _)| *s == stream) {
            let hit = kept.remove(i);
            let u = std::rc::Rc::clone(&hit.1);
            kept.insert(0, hit);
            return Ok(u);
        }
        let &at = self
            .offsets
            .get(&stream)
            .ok_or(Unreadable::Damaged("an object stream is missing"))?;
        let (_, obj, raw) = self.object_at(at, Some(stream), true)?;
        let (Obj::Dict(dict), Some(raw)) = (obj, raw) else {
            return damaged("an object stream is not a stream");
        };
        let int = |key: &[u8]| match get(&dict, key) {
            Some(Obj::Int(n)) => usize::try_from(*n).ok(),
            _ => None,
        };
        let (Some(Obj::Name(kind)), Some(n), Some(first)) =
            (get(&dict, b"Type"), int(b"N"), int(b"First"))
        else {
            return damaged("an object stream is damaged");
        };
        if kind != b"ObjStm" {
            return damaged("an object stream is damaged");
        }
        if n > MAX_PLACES {
            return damaged("an object stream holds more than 1,048,576 objects");
        }
        let left = self.objstm_budget.get();
        let mut budget = MAX_CONTENT.min(left);
        let mut data = decode(&dict, &raw, &mut budget).map_err(|e| match e {
            Unreadable::TooMuchContent if left < MAX_CONTENT => Unreadable::ObjectStreamsTooLarge,
            e => e,
        })?;
        self.objstm_budget.set(left - data.len());
        self.inflated.set(self.inflated.get() + 1);
        let (places, _) = self.parse(&data, 0, false, |p| {
            // each pair takes 4 bytes at least ("0 0 "): a /N the bytes cannot hold takes
            // no memory before the pairs run out
            let mut places = Vec::with_capacity(n.min(data.len() / 4 + 1));
            for _ in 0..n {
                match (p.next()?, p.next()?) {
                    (Some(Tok::Int(number)), Some(Tok::Int(offset))) => places.push((
                        number,
                        usize::try_from(offset)
                            .map_err(|_| Unreadable::Damaged("an object stream is damaged"))?,
                    )),
                    _ => return damaged("an object stream is damaged"),
                }
            }
            Ok(places)
        })?;
        data.shrink_to_fit();
        let u = std::rc::Rc::new(Unpacked {
            data,
            first,
            places,
        });
        kept.insert(0, (stream, std::rc::Rc::clone(&u)));
        kept.truncate(KEPT_STREAMS);
        while kept.iter().map(|(_, k)| k.size()).sum::<usize>() > MAX_KEPT {
            kept.pop();
        }
        Ok(u)
    }
}

/// A cross-reference stream's rows: its bytes as [`decode`] gives them, with the PNG predictor
/// other writers use on them (`/DecodeParms << /Predictor 12 /Columns 5 >>`) undone.
fn decode_rows(dict: &Dict, raw: &[u8], budget: &mut usize) -> Result<Vec<u8>> {
    let parms = match get(dict, b"DecodeParms") {
        None | Some(Obj::Null) => None,
        Some(Obj::Dict(d)) => Some(d),
        Some(Obj::Array(a)) => match a.as_slice() {
            [] | [Obj::Null] => None,
            [Obj::Dict(d)] => Some(d),
            _ => return damaged("a stream uses parameters vigia does not read"),
        },
        _ => return damaged("a stream uses parameters vigia does not read"),
    };
    let Some(parms) = parms else {
        return decode(dict, raw, budget);
    };
    let plain: Dict = dict
        .iter()
        .filter(|(k, _)| k != b"DecodeParms")
        .cloned()
        .collect();
    let data = decode(&plain, raw, budget)?;
    let int = |key: &[u8], default: i64| match get(parms, key) {
        None => Some(default),
        Some(Obj::Int(n)) => Some(*n),
        _ => None,
    };
    match (
        int(b"Predictor", 1),
        int(b"Colors", 1),
        int(b"BitsPerComponent", 8),
        int(b"Columns", 1),
    ) {
        (Some(1), ..) => Ok(data),
        (Some(10..=15), Some(1), Some(8), Some(columns @ 1..=64)) => {
            unpredict(&data, columns as usize)
        }
        _ => damaged("a stream uses parameters vigia does not read"),
    }
}

/// Rows of `columns` bytes, each after its PNG filter type byte, the filters undone.
fn unpredict(data: &[u8], columns: usize) -> Result<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(data.len());
    let mut above = vec![0u8; columns];
    for row in data.chunks(columns + 1) {
        let (&kind, row) = row
            .split_first()
            .ok_or(Unreadable::Damaged("a predicted stream is damaged"))?;
        if row.len() != columns {
            return damaged("a predicted stream is damaged");
        }
        let mut line = vec![0u8; columns];
        for i in 0..columns {
            let left = if i == 0 { 0 } else { line[i - 1] };
            let up = above[i];
            let up_left = if i == 0 { 0 } else { above[i - 1] };
            let add = match kind {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => {
                    let p = i16::from(left) + i16::from(up) - i16::from(up_left);
                    let (pa, pb, pc) = (
                        (p - i16::from(left)).abs(),
                        (p - i16::from(up)).abs(),
                        (p - i16::from(up_left)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        left
                    } else if pb <= pc {
                        up
                    } else {
                        up_left
                    }
                }
                _ => return damaged("a predicted stream is damaged"),
            };
            line[i] = row[i].wrapping_add(add);
        }
        out.extend_from_slice(&line);
        above = line;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rows of two columns, [10, 20] then [15, 5], the first under the Sub filter, the
    /// second under Up, Average and Paeth, each worked out by hand from the PNG rules.
    #[test]
    fn each_png_filter_is_undone_as_the_png_rules_say() {
        let rows = [10, 20, 15, 5];
        for second in [[2, 5, 241], [3, 10, 244], [4, 5, 241], [0, 15, 5]] {
            let data = [[1, 10, 10], second].concat();
            assert_eq!(unpredict(&data, 2).unwrap(), rows, "{second:?}");
        }
        assert!(unpredict(&[5, 1, 2], 2).is_err());
        assert!(unpredict(&[0, 1], 2).is_err());
    }

    /// The text of other writers' PDFs (`tests/fixtures/sign/other_writers.py`): a table with
    /// objects of generation 1; an object stream holding the page tree, its cross-references
    /// compressed and predicted.
    #[test]
    fn other_writers_tables_and_object_streams_are_read_to_their_pages() {
        for pdf in [
            &include_bytes!("../../tests/fixtures/sign/generations.pdf")[..],
            &include_bytes!("../../tests/fixtures/sign/objstm.pdf")[..],
        ] {
            let doc = Doc::load(pdf).unwrap();
            assert!(!doc.has_form().unwrap());
            let pages = doc.pages().unwrap();
            assert_eq!(pages.len(), 1);
            assert_eq!(pages[0].fonts, [(b"F1".to_vec(), b"Helvetica".to_vec())]);
            assert_eq!(
                pages[0].content,
                b"BT /F1 12 Tf 72 720 Td (Documento de otro programa) Tj ET\n"
            );
        }
    }
}
