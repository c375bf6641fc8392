//! The lines of a file seen so far, to name a line that repeats an earlier one.

use std::hash::BuildHasher;

/// The distinct lines of a file seen so far, each with the line it was first seen on, to name a
/// line that repeats an earlier one byte for byte. The lines are kept in the order seen, and found
/// through an open-addressing table of 4-byte slots, at most half full: a slot holds a line's
/// place in `lines` (plus one; 0 is empty) in its low bits and the top bits of the line's hash
/// above them, so that a probe rarely looks at a line that is not the one sought. A row costs
/// one probe in a table of 8 MB for a million rows (it missed the cache twice in a map of
/// borrowed slices of 50 MB); about 32 MB in all.
pub(super) struct SeenLines<'t> {
    hasher: foldhash::fast::RandomState,
    slots: Vec<u32>,
    lines: Vec<(&'t str, usize)>,
}

impl<'t> SeenLines<'t> {
    /// Room for `n` lines before the table grows.
    pub(super) fn with_capacity(n: usize) -> SeenLines<'t> {
        SeenLines {
            hasher: Default::default(),
            slots: vec![0; (n.max(1) * 2).next_power_of_two()],
            lines: Vec::with_capacity(n),
        }
    }

    /// The line `raw` was first seen on; or none, and it is now seen, on `line`.
    pub(super) fn repeats(&mut self, raw: &'t str, line: usize) -> Option<usize> {
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

    /// Reads the slots where the lines of `text` before `end` would go, from `from` on (the
    /// lines the file brings next, as far as they are lines), all at once: each is a miss in a
    /// table of megabytes, which one at a time cost [`SeenLines::repeats`] nearly all its time
    /// (perf: 96 % on the one load); read together, the misses overlap and the next lines
    /// find their slots in the cache. A guess only: what a line repeats is decided by
    /// `repeats` alone. Returns where the lines read end.
    pub(super) fn warm(&self, text: &str, from: usize, lines: usize) -> usize {
        let mask = self.slots.len() - 1;
        let (mut at, mut any) = (from, 0u32);
        for _ in 0..lines {
            let Some(rest) = text.get(at..).filter(|r| !r.is_empty()) else {
                break;
            };
            let len = rest.find('\n').map_or(rest.len(), |n| n + 1);
            let raw = rest[..len].trim_end_matches(['\r', '\n']);
            any |= self.slots[self.hasher.hash_one(raw) as usize & mask];
            at += len;
        }
        std::hint::black_box(any);
        at
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_ahead_end_where_the_lines_do_and_change_no_verdict() {
        let text = "a\nb\r\nc";
        let mut seen = SeenLines::with_capacity(3);
        assert_eq!(seen.warm(text, 0, 2), 5);
        assert_eq!(seen.warm(text, 5, 32), 6);
        assert_eq!(seen.warm(text, 6, 32), 6);
        // mid-character: nothing read
        assert_eq!(seen.warm("ñ\n", 1, 4), 1);
        assert_eq!(seen.repeats("a", 2), None);
        assert_eq!(seen.warm(text, 0, 3), 6);
        assert_eq!(seen.repeats("a", 5), Some(2));
        assert_eq!(seen.repeats("b", 6), None);
    }

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
}
