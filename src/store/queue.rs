//! The writers of one process queue for a register's write lock here before they ask SQLite
//! for it. SQLite's busy handler makes a writer that finds the lock taken sleep and try again
//! (1, 2, 5, 10 … 100 ms between tries), so twenty writers of one server contending for it wait
//! far longer than their writes take: one of them may sleep 100 ms while the lock was free
//! after 2. Queued on a condition variable, each starts the moment the one before it finishes.
//! A writer that waits the whole busy timeout here is refused as busy, as SQLite would refuse it;
//! writers of other processes (a CLI import beside the server) are still waited for by SQLite's
//! busy timeout, which the transaction keeps. No SQL here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Whether the register's turn is taken, and the writers waiting for it.
#[derive(Default)]
struct Turn {
    taken: Mutex<bool>,
    freed: Condvar,
}

/// The turns of the registers this process writes, by file.
fn turns() -> &'static Mutex<HashMap<PathBuf, Arc<Turn>>> {
    static TURNS: OnceLock<Mutex<HashMap<PathBuf, Arc<Turn>>>> = OnceLock::new();
    TURNS.get_or_init(Mutex::default)
}

/// This process's turn at writing the register at `db`, held until dropped.
pub(super) struct Held(Option<Arc<Turn>>);

/// Waits for this process's turn at writing the register at `db` (the path SQLite reports for
/// the connection), at most `patience` (the busy timeout): `None` when another writer of this
/// process held it that long (as SQLite's busy handler would have given up; a nested write of
/// the same register on one thread ends so instead of waiting forever). An in-memory register
/// (no path) has no turn to wait for.
pub(super) fn wait(db: Option<&Path>, patience: Duration) -> Option<Held> {
    let Some(db) = db else {
        return Some(Held(None));
    };
    let turn = {
        let mut all = turns().lock().unwrap_or_else(|p| p.into_inner());
        Arc::clone(all.entry(db.to_path_buf()).or_default())
    };
    let until = Instant::now() + patience;
    let mut taken = turn.taken.lock().unwrap_or_else(|p| p.into_inner());
    while *taken {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        taken = turn
            .freed
            .wait_timeout(taken, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    *taken = true;
    drop(taken);
    Some(Held(Some(turn)))
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(turn) = self.0.take() {
            *turn.taken.lock().unwrap_or_else(|p| p.into_inner()) = false;
            turn.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn one_writer_at_a_time_per_register() {
        let db = PathBuf::from("/nonexistent/queue-test-1.db");
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (db, inside, most) = (db.clone(), Arc::clone(&inside), Arc::clone(&most));
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _turn = wait(Some(&db), Duration::from_secs(30)).unwrap();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn other_registers_do_not_wait_and_patience_ends() {
        let a = PathBuf::from("/nonexistent/queue-test-a.db");
        let b = PathBuf::from("/nonexistent/queue-test-b.db");
        let held = wait(Some(&a), Duration::from_secs(1)).unwrap();
        assert!(held.0.is_some());
        // another register's turn is free
        assert!(wait(Some(&b), Duration::from_millis(10)).is_some());
        // the same register's is not: after its patience a writer is told so
        let t = Instant::now();
        assert!(wait(Some(&a), Duration::from_millis(50)).is_none());
        assert!(t.elapsed() >= Duration::from_millis(50));
        drop(held);
        // freed: the next writer gets it at once
        assert!(wait(Some(&a), Duration::from_millis(10)).is_some());
        // an in-memory register has no turn
        assert!(wait(None, Duration::ZERO).is_some_and(|h| h.0.is_none()));
    }
}
