//! A table's rows spooled to a temporary file, read back as a [`super::RowSource`]: a streamed
//! PDF reads its tables' rows several times (the columns' widths, whether a table fits, the two
//! layouts), and reading them again from where they came (the register, a join per row) cost
//! far more than laying them out. The rows are written once, as they are read from their source,
//! and every later pass reads the file: memory holds a buffer and a row, not the table.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::ops::ControlFlow;
use std::os::unix::fs::FileExt;

/// What is read or written of the spool at once.
const BUFFER: usize = 256 << 10;

/// Rows of cells written to an unnamed temporary file (gone when the spool is dropped, or the
/// process ends), each cell its length (4 bytes, little-endian) then its UTF-8 bytes, each row
/// its number of cells (4 bytes) then its cells.
pub struct Spool {
    out: BufWriter<File>,
    rows: u64,
}

impl Spool {
    /// A new spool in the system's temporary directory.
    pub fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            out: BufWriter::with_capacity(BUFFER, tempfile::tempfile()?),
            rows: 0,
        })
    }

    /// Adds a row.
    pub fn push(&mut self, cells: &[String]) -> std::io::Result<()> {
        let n = |k: usize| {
            u32::try_from(k)
                .map(u32::to_le_bytes)
                .map_err(|_| std::io::Error::other("a table's cell of 4 GiB or more"))
        };
        self.out.write_all(&n(cells.len())?)?;
        for c in cells {
            self.out.write_all(&n(c.len())?)?;
            self.out.write_all(c.as_bytes())?;
        }
        self.rows = self
            .rows
            .checked_add(1)
            .ok_or_else(|| std::io::Error::other("too many rows"))?;
        Ok(())
    }

    /// The rows written, ready to be read (as often as asked).
    pub fn finish(self) -> std::io::Result<Spooled> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Spooled {
            file,
            rows: self.rows,
        })
    }
}

/// A finished spool: its rows, read from the first at each call of [`Spooled::each`].
pub struct Spooled {
    file: File,
    rows: u64,
}

impl Spooled {
    /// How many rows it holds.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Hands each row to `f`, in order, until `f` breaks; an `Err` says why the spool could not be
    /// read. The signature of a [`super::RowSource`].
    pub fn each(&self, f: &mut dyn FnMut(&[String]) -> ControlFlow<()>) -> Result<(), String> {
        self.read(f)
            .map_err(|e| format!("the table's spooled rows could not be read back: {e}"))
    }

    fn read(&self, f: &mut dyn FnMut(&[String]) -> ControlFlow<()>) -> std::io::Result<()> {
        // each pass reads from its own position (`read_at`), so passes may even nest
        let mut r = BufReader::with_capacity(
            BUFFER,
            At {
                file: &self.file,
                pos: 0,
            },
        );
        let mut cells: Vec<String> = Vec::new();
        let mut word = [0u8; 4];
        let mut bytes = Vec::new();
        for _ in 0..self.rows {
            r.read_exact(&mut word)?;
            let n = u32::from_le_bytes(word) as usize;
            cells.resize_with(n, String::new);
            for c in cells.iter_mut() {
                r.read_exact(&mut word)?;
                bytes.resize(u32::from_le_bytes(word) as usize, 0);
                r.read_exact(&mut bytes)?;
                let text = std::str::from_utf8(&bytes)
                    .map_err(|_| std::io::Error::other("a cell is not UTF-8"))?;
                c.clear();
                c.push_str(text);
            }
            if f(&cells).is_break() {
                break;
            }
        }
        Ok(())
    }
}

/// The file read from `pos` on, without moving its offset.
struct At<'f> {
    file: &'f File,
    pos: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spooled_rows_come_back_in_order_at_every_pass_and_a_pass_may_stop_early() {
        let rows: Vec<Vec<String>> = (0..10_000)
            .map(|i| {
                (0..(i % 4))
                    .map(|k| format!("fila {i} ñ celda {k}{}", "é".repeat(i % 13)))
                    .collect()
            })
            .collect();
        let mut s = Spool::new().unwrap();
        for r in &rows {
            s.push(r).unwrap();
        }
        let s = s.finish().unwrap();
        assert_eq!(s.rows(), 10_000);
        for _ in 0..2 {
            let mut back = Vec::new();
            s.each(&mut |r| {
                back.push(r.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(back, rows);
        }
        let mut first = Vec::new();
        s.each(&mut |r| {
            first.push(r.to_vec());
            if first.len() == 7 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(first, rows[..7]);
    }
}
