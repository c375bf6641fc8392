//! A large write's checkpoint done beside the work that follows its commit. SQLite's automatic
//! checkpoint runs in the committing call, copying every page the transaction wrote from the
//! WAL into the database (and syncing it) before the caller can go on; a command with more to do
//! after the commit (`offer adjudicate` writing its result) leaves the copying to a connection of
//! its own on a second thread meanwhile. What is durable, and when, is unchanged: the commit is
//! in the WAL either way, and the checkpoint is the same passive one, on another connection.

use super::{BUSY_TIMEOUT, Result, Store, Tx, identify};
use rusqlite::{Connection, OpenFlags};

/// The checkpoint of a write committed by [`Store::write_checkpointing_aside`], running on a
/// thread of its own; waited for when dropped (before the store is closed, when it is a local
/// made after the store).
pub struct Checkpointing(Option<std::thread::JoinHandle<()>>);

impl Checkpointing {
    /// Checkpoints the register at `path` on a second thread, through a connection of its own
    /// (none for a register in memory). Passive, as SQLite's automatic checkpoint: it waits for
    /// no reader nor writer, and what it leaves is copied by the next checkpoint (at the latest
    /// when the last connection closes). Its errors are SQLite's automatic checkpoint's: not
    /// the write's, which is committed.
    fn start(path: Option<&str>) -> Checkpointing {
        let Some(path) = path.filter(|p| !p.is_empty()).map(std::path::PathBuf::from) else {
            return Checkpointing(None);
        };
        Checkpointing(Some(std::thread::spawn(move || {
            let checkpointed = (|| -> Result<()> {
                // never created: the register is there, it was just written
                let conn = Connection::open_with_flags(
                    &path,
                    OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                identify(&conn)?;
                conn.busy_timeout(BUSY_TIMEOUT)?;
                conn.pragma_update(None, "synchronous", "FULL")?;
                conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
                Ok(())
            })();
            // as SQLite's own automatic checkpoint's: nobody to tell, and nothing lost
            let _ignored = checkpointed;
        })))
    }

    /// Waits for the checkpoint to end.
    pub fn finish(mut self) {
        self.wait();
    }

    fn wait(&mut self) {
        if let Some(h) = self.0.take() {
            let _ignored = h.join();
        }
    }
}

impl Drop for Checkpointing {
    fn drop(&mut self) {
        self.wait();
    }
}

impl Store {
    /// [`Store::write`], without the automatic checkpoint at the commit: it starts on a second
    /// thread once the write is committed, while the caller goes on (see [`Checkpointing`]).
    pub fn write_checkpointing_aside<T, E: From<super::StoreError>>(
        &mut self,
        actor: &str,
        f: impl FnOnce(&mut Tx<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<(T, Checkpointing), E> {
        let every: i64 = self
            .conn
            .pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0))
            .map_err(super::StoreError::from)?;
        self.conn
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(super::StoreError::from)?;
        let written = self.write(actor, f);
        let back = self.conn.pragma_update(None, "wal_autocheckpoint", every);
        let written = written?;
        let aside = Checkpointing::start(self.conn.path());
        back.map_err(super::StoreError::from)?;
        Ok((written, aside))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables the database file itself holds, the WAL left aside (`immutable=1`).
    fn in_the_file(path: &std::path::Path) -> Vec<String> {
        let uri = format!("file:{}?immutable=1", path.display());
        let conn = Connection::open_with_flags(
            uri,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
        )
        .unwrap();
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'probe%' ORDER BY name")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn a_write_committed_aside_is_checkpointed_into_the_file_by_the_second_connection() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.db");
        let mut store = Store::create(&path).unwrap();
        // a small write stays in the WAL: below SQLite's automatic checkpoint's 1,000 pages
        store
            .write::<_, super::super::StoreError>("t", |tx| {
                tx.conn().execute_batch("CREATE TABLE probe_a (x)")?;
                Ok(())
            })
            .unwrap();
        assert!(in_the_file(&path).is_empty());
        let ((), aside) = store
            .write_checkpointing_aside::<_, super::super::StoreError>("t", |tx| {
                tx.conn().execute_batch("CREATE TABLE probe_b (x)")?;
                Ok(())
            })
            .unwrap();
        aside.finish();
        // both writes are in the file now, the store's connection still open
        assert_eq!(in_the_file(&path), ["probe_a", "probe_b"]);
        let every: i64 = store
            .conn()
            .pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0))
            .unwrap();
        assert_eq!(every, 1000, "the automatic checkpoint is back on");
    }
}
