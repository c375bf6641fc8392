//! Whether the register's audit chain holds, as the acta pages ask it when an uploaded acta does
//! not match the register (`register::audit::holds`: a full `audit verify`, over a minute on a
//! register of a million holders). A page never waits for it: the verification runs in a thread
//! of its own, one at a time per server, and its verdict is remembered for the register's state
//! ([`State`]); a page asked before the verdict for the state it sees says the verification is
//! under way. So an acta uploaded again and again on the same register is checked against the
//! chain once, and a change made behind vigia's back (the sqlite3 shell) is verified afresh.
//! The audit page's verification, which a person waits for, runs one at a time too
//! ([`OneAtATime`]): a request made while it runs is given its result.
//! No rule of the register here: what holds is `register::audit`'s, the words the catalogue's.

use super::App;
use crate::register::audit::{self, ChainNow};
use crate::store::Store;
use crate::store::checkpoint::Key;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::SystemTime;

/// The register's state as its files show it: for the register's file, its write-ahead log
/// (`-wal`, where a write lands first), its checkpoint log and the audit key, whether each is
/// there, its size and modification time, and on Unix its inode and (but for the `-wal`) the
/// time its inode last changed, which no tool sets back. Any write to a file changes them,
/// whoever makes it: vigia, the sqlite3 shell, a copy put in its place. Read without opening
/// the register. What it can miss is in DESIGN.md («La cadena bajo un acta que no coincide»).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct State(Vec<Option<Stamp>>);

/// A file's size and times, as [`State`] compares them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// The inode's number and device: on Unix only.
    inode: Option<(u64, u64)>,
    /// The inode's change time (seconds, nanoseconds), where it counts: on Unix only.
    changed: Option<(i64, i64)>,
}

impl State {
    /// The state of the files at `paths` now (a file that is not there is a state too), each
    /// with whether its inode's change time counts: not for the `-wal`, whose owner SQLite run
    /// as root sets again (to the same) on every connection it opens, changing only that time.
    pub(crate) fn of(paths: &[(PathBuf, bool)]) -> State {
        State(
            paths
                .iter()
                .map(|(p, changed)| std::fs::metadata(p).ok().map(|m| stamp(&m, *changed)))
                .collect(),
        )
    }
}

#[cfg(unix)]
fn stamp(m: &std::fs::Metadata, changed: bool) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    Stamp {
        len: m.len(),
        modified: m.modified().ok(),
        inode: Some((m.ino(), m.dev())),
        changed: changed.then(|| (m.ctime(), m.ctime_nsec())),
    }
}

#[cfg(not(unix))]
fn stamp(m: &std::fs::Metadata, _changed: bool) -> Stamp {
    Stamp {
        len: m.len(),
        modified: m.modified().ok(),
        inode: None,
        changed: None,
    }
}

/// A verification of the chain: whether it holds (one that could not run does not).
pub(crate) type Verify = Arc<dyn Fn() -> bool + Send + Sync>;

/// How many verdicts are kept, each with its state, the latest first: a verification that ends
/// after a newer one (the audit page's) does not push the newer verdict out.
const VERDICTS: usize = 4;

/// What the server knows of the chain.
#[derive(Default)]
struct Known {
    /// The last verdicts, each with the state it was asked for, the latest first.
    verdicts: std::collections::VecDeque<(State, bool)>,
    /// Whether a verification runs now.
    running: bool,
    /// A state asked about while a verification ran for another: verified next, by the same
    /// thread.
    next: Option<State>,
    /// Verifications started since the server started (a test counts them).
    started: u64,
}

impl Known {
    /// Keeps `holds` as the verdict for `state`, in place of any other for it.
    fn file(&mut self, state: State, holds: bool) {
        self.verdicts.retain(|(s, _)| *s != state);
        self.verdicts.push_front((state, holds));
        self.verdicts.truncate(VERDICTS);
    }
}

/// The chain's verdicts and the one verification that may be running.
#[derive(Default)]
pub(crate) struct Watch {
    known: Arc<(Mutex<Known>, Condvar)>,
}

fn lock(known: &(Mutex<Known>, Condvar)) -> MutexGuard<'_, Known> {
    known.0.lock().unwrap_or_else(|p| p.into_inner())
}

impl Watch {
    /// What is known of the chain for the register in state `now`: the verdict for that state,
    /// else [`ChainNow::BeingVerified`], `verify` then started in a thread unless a verification
    /// already runs (the state is then verified after it). Never waits for a verification.
    pub(crate) fn ask(&self, now: State, verify: Verify) -> ChainNow {
        let mut k = lock(&self.known);
        if let Some((_, holds)) = k.verdicts.iter().find(|(state, _)| *state == now) {
            return if *holds {
                ChainNow::Holds
            } else {
                ChainNow::DoesNotHold
            };
        }
        if k.running {
            k.next = Some(now);
            return ChainNow::BeingVerified;
        }
        let known = Arc::clone(&self.known);
        let started = std::thread::Builder::new()
            .name("vigia-chain".into())
            .spawn(move || run(&known, now, &verify));
        match started {
            Ok(_) => {
                k.running = true;
                k.started += 1;
                ChainNow::BeingVerified
            }
            // no thread for it: the chain could not be checked, which the page treats as not
            // holding (it points to «Auditoría»)
            Err(e) => {
                eprintln!("vigia serve: the audit chain's verification could not start: {e}");
                ChainNow::DoesNotHold
            }
        }
    }

    /// A verdict found elsewhere (the audit page's verification) for state `state`, read before
    /// it ran.
    pub(crate) fn learned(&self, state: State, holds: bool) {
        lock(&self.known).file(state, holds);
    }

    /// How many verifications were started.
    #[cfg(test)]
    pub(crate) fn started(&self) -> u64 {
        lock(&self.known).started
    }

    /// Waits until no verification runs (a test's deterministic wait for the verdict).
    #[cfg(test)]
    pub(crate) fn wait_idle(&self) {
        let mut k = lock(&self.known);
        while k.running {
            k = self.known.1.wait(k).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The thread: verifies for `state`, files the verdict, then verifies the state asked about
/// meanwhile, if any. The verification reads the register after `state` was read, so a verdict
/// is filed under a state no later than what it saw (a write in between only makes the next
/// page verify again). A verification that panicked did not hold.
fn run(known: &(Mutex<Known>, Condvar), mut state: State, verify: &Verify) {
    loop {
        let holds =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verify())).unwrap_or(false);
        let mut k = lock(known);
        k.file(state, holds);
        // (unless it has its verdict now: this one's, or the audit page's)
        let next = k
            .next
            .take()
            .filter(|s| k.verdicts.iter().all(|(v, _)| v != s));
        match next {
            Some(s) => {
                k.started += 1;
                state = s;
            }
            None => {
                k.running = false;
                known.1.notify_all();
                return;
            }
        }
    }
}

/// A full verification that a person waits for (the audit page's, `/auditoria/verificar`: over
/// a minute on a national register, open to every role): at most one runs per server. A request
/// that arrives while one runs joins it and is given its result, instead of starting a second
/// that would take another core; the one after it ends starts afresh. The work runs as a task of
/// its own, so a request that goes away neither stops it nor leaves the others without it.
/// (Unlike [`Watch`], whose verdicts a page never waits for.)
pub(crate) struct OneAtATime<T> {
    slot: Arc<Mutex<Slot<T>>>,
}

struct Slot<T> {
    /// The run under way.
    run: Option<Run<T>>,
    /// Runs started since the server started (a test counts them).
    started: u64,
}

impl<T> Default for OneAtATime<T> {
    fn default() -> Self {
        OneAtATime {
            slot: Arc::new(Mutex::new(Slot {
                run: None,
                started: 0,
            })),
        }
    }
}

/// A run, as a request sees it: when it started, whether this request started it, and its
/// result to come.
#[derive(Clone)]
pub(crate) struct Run<T> {
    pub(crate) at: chrono::DateTime<chrono::Utc>,
    pub(crate) own: bool,
    done: tokio::sync::watch::Receiver<Option<T>>,
}

fn lock_slot<T>(slot: &Mutex<Slot<T>>) -> MutexGuard<'_, Slot<T>> {
    slot.lock().unwrap_or_else(|p| p.into_inner())
}

/// Ends a run however its work ends (a panic included): the next request starts another, and
/// then its waiters are given the result, or none.
struct Ended<T> {
    slot: Arc<Mutex<Slot<T>>>,
    done: tokio::sync::watch::Sender<Option<T>>,
}

impl<T> Drop for Ended<T> {
    fn drop(&mut self) {
        lock_slot(&self.slot).run = None;
    }
}

impl<T: Clone + Send + Sync + 'static> OneAtATime<T> {
    /// The run under way, or `work` started now, at `at`, on a task of its own.
    pub(crate) fn join(
        &self,
        at: chrono::DateTime<chrono::Utc>,
        work: impl std::future::Future<Output = T> + Send + 'static,
    ) -> Run<T> {
        let mut slot = lock_slot(&self.slot);
        if let Some(run) = &slot.run {
            return Run {
                own: false,
                ..run.clone()
            };
        }
        let (done, result) = tokio::sync::watch::channel(None);
        let run = Run {
            at,
            own: true,
            done: result,
        };
        slot.run = Some(run.clone());
        slot.started += 1;
        let ended = Ended {
            slot: Arc::clone(&self.slot),
            done,
        };
        tokio::spawn(async move {
            let ended = ended;
            let out = work.await;
            ended.done.send_replace(Some(out));
        });
        run
    }

    /// How many runs were started.
    #[cfg(test)]
    pub(crate) fn started(&self) -> u64 {
        lock_slot(&self.slot).started
    }
}

impl<T: Clone> Run<T> {
    /// Its result when it ends; `None` when its work did not end (it panicked).
    pub(crate) async fn result(mut self) -> Option<T> {
        let got = self.done.wait_for(Option::is_some).await.ok()?;
        got.clone()
    }
}

impl App {
    /// The register's [`State`] now: its file, its `-wal`, its checkpoint log, the audit key.
    pub(super) fn chain_state(&self) -> State {
        let db = &self.config.db;
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        let mut paths = vec![
            (db.clone(), true),
            (PathBuf::from(wal), false),
            (audit::log_path(db), true),
        ];
        paths.extend(self.config.audit_key.clone().map(|k| (k, true)));
        State::of(&paths)
    }

    /// What an acta page says of the register's audit chain under an acta that does not match
    /// it ([`Watch::ask`]): checked with the server's audit key when it has one (without it, the
    /// chain, rows and schema alone), on a connection of its own, never while the page waits.
    pub(super) fn chain_now(&self) -> ChainNow {
        let db = self.config.db.clone();
        let key = self.config.audit_key.clone();
        self.chain.ask(
            self.chain_state(),
            Arc::new(move || holds(&db, key.as_deref())),
        )
    }

    /// The audit page's verification, with the server's audit key, of the register in state
    /// `state` (read before it ran): its verdict is the acta pages' for that state too.
    pub(super) fn chain_learned(&self, state: State, found: &audit::Audit) {
        self.chain.learned(state, found.anchored().is_some());
    }
}

/// Whether the chain of the register at `db` holds (`register::audit::holds`). A chain that
/// cannot be checked (a key file there but unreadable, the register or its checkpoint log
/// unreadable) does not hold for the page: it points to «Auditoría», which says why, rather than
/// losing the acta's verdict to an error.
fn holds(db: &Path, key_path: Option<&Path>) -> bool {
    let key = match key_path {
        Some(path) if path.exists() => match Key::load(path) {
            Ok(key) => Some(key),
            Err(_) => return false,
        },
        _ => None,
    };
    let Ok(store) = Store::open(db) else {
        return false;
    };
    audit::holds(store.conn(), key.as_ref(), &audit::log_path(db)).unwrap_or(false)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A verification a test holds until it answers: `holds` says what it finds; each run says
    /// it started on `began`.
    fn held() -> (Verify, mpsc::Sender<bool>, mpsc::Receiver<()>) {
        let (answer, answers) = mpsc::channel::<bool>();
        let (began, begun) = mpsc::channel::<()>();
        let answers = Mutex::new(answers);
        let began = Mutex::new(began);
        let verify: Verify = Arc::new(move || {
            began.lock().unwrap().send(()).unwrap();
            answers.lock().unwrap().recv().unwrap()
        });
        (verify, answer, begun)
    }

    fn state(n: u64) -> State {
        State(vec![Some(Stamp {
            len: n,
            modified: None,
            inode: None,
            changed: None,
        })])
    }

    #[test]
    fn one_verification_at_a_time_and_its_verdict_kept_for_its_state() {
        let watch = Watch::default();
        let (verify, answer, begun) = held();
        // no verdict yet: under way, started once however often it is asked
        assert_eq!(
            watch.ask(state(1), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        begun.recv().unwrap();
        assert_eq!(
            watch.ask(state(1), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        assert_eq!(watch.started(), 1);
        answer.send(true).unwrap();
        watch.wait_idle();
        // the verdict, for the same state, without verifying again
        assert_eq!(watch.ask(state(1), Arc::clone(&verify)), ChainNow::Holds);
        assert_eq!(watch.started(), 1);
        // another state: verified afresh
        assert_eq!(
            watch.ask(state(2), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        begun.recv().unwrap();
        // a third state while the second's runs: no second verification at the same time, but
        // the same thread verifies it next
        assert_eq!(
            watch.ask(state(3), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        assert_eq!(watch.started(), 2);
        answer.send(true).unwrap();
        begun.recv().unwrap();
        assert_eq!(watch.started(), 3);
        answer.send(false).unwrap();
        watch.wait_idle();
        assert_eq!(
            watch.ask(state(3), Arc::clone(&verify)),
            ChainNow::DoesNotHold
        );
        assert_eq!(watch.started(), 3);
        // the audit page's verdict for a state is taken as it is
        watch.learned(state(4), true);
        assert_eq!(watch.ask(state(4), Arc::clone(&verify)), ChainNow::Holds);
        assert_eq!(watch.started(), 3);
        // and a verification that ends after it, for an older state, does not push it out
        assert_eq!(
            watch.ask(state(5), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        begun.recv().unwrap();
        watch.learned(state(6), false);
        answer.send(true).unwrap();
        watch.wait_idle();
        assert_eq!(
            watch.ask(state(6), Arc::clone(&verify)),
            ChainNow::DoesNotHold
        );
        assert_eq!(watch.ask(state(5), verify), ChainNow::Holds);
        assert_eq!(watch.started(), 4);
    }

    #[test]
    fn a_verification_that_panics_does_not_hold_and_frees_the_next() {
        let watch = Watch::default();
        let verify: Verify = Arc::new(|| panic!("a verification that fails"));
        assert_eq!(
            watch.ask(state(1), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        watch.wait_idle();
        assert_eq!(
            watch.ask(state(1), Arc::clone(&verify)),
            ChainNow::DoesNotHold
        );
        assert_eq!(
            watch.ask(state(2), Arc::clone(&verify)),
            ChainNow::BeingVerified
        );
        watch.wait_idle();
        assert_eq!(watch.started(), 2);
    }

    #[test]
    fn a_run_asked_for_while_one_runs_is_that_one() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let one = OneAtATime::<u32>::default();
        let worked = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let (release, released) = tokio::sync::oneshot::channel::<u32>();
        let at = |h: i64| chrono::DateTime::from_timestamp(h * 3600, 0).unwrap();
        let (first, second) = rt.block_on(async {
            let w = Arc::clone(&worked);
            let first = one.join(at(1), async move {
                w.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                released.await.unwrap()
            });
            // asked while the first runs: no work of its own, the first's start and result
            let w = Arc::clone(&worked);
            let second = one.join(at(2), async move {
                w.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                0
            });
            release.send(7).unwrap();
            let (a, b) = tokio::join!(first.clone().result(), second.clone().result());
            assert_eq!((a, b), (Some(7), Some(7)));
            (first, second)
        });
        assert_eq!(worked.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(one.started(), 1);
        assert!(first.own && !second.own);
        assert_eq!((first.at, second.at), (at(1), at(1)));
        // once it ended, the next is a run of its own; one that panics frees the next too
        rt.block_on(async {
            let third = one.join(at(3), async { panic!("a verification that fails") });
            assert!(third.own);
            assert_eq!(third.result().await, None);
            let fourth = one.join(at(4), async { 9 });
            assert!(fourth.own && fourth.at == at(4));
            assert_eq!(fourth.result().await, Some(9));
        });
        assert_eq!(one.started(), 3);
    }

    /// A new register and a server over it (no audit key: the chain, the rows and the schema
    /// are verified).
    pub(in crate::web) fn server() -> (tempfile::TempDir, PathBuf, App) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("vigia.db");
        let store = Store::create(&db).unwrap();
        let app = App::new(
            super::super::Config::over(&db),
            Some(store),
            Box::new(chrono::Utc::now),
        );
        (dir, db, app)
    }

    #[test]
    fn the_server_verifies_an_unchanged_register_once_and_a_change_behind_its_back_afresh() {
        let (_dir, db, app) = server();
        // two mismatching actas on the register as it is: one verification
        assert_eq!(app.chain_now(), ChainNow::BeingVerified);
        let second = app.chain_now();
        assert!(
            matches!(second, ChainNow::BeingVerified | ChainNow::Holds),
            "{second:?}"
        );
        app.chain.wait_idle();
        assert_eq!(app.chain_now(), ChainNow::Holds);
        assert_eq!(app.chain.started(), 1);
        // a row written into the register file behind vigia's back (no audit event for it)
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute(
                "INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, \
                 created_by) VALUES ('CC', '9', 'X', 'natural', 't', 'u')",
                [],
            )
            .unwrap();
        // not the verdict kept for the register before: verified again, and it does not hold
        assert_eq!(app.chain_now(), ChainNow::BeingVerified);
        app.chain.wait_idle();
        assert_eq!(app.chain_now(), ChainNow::DoesNotHold);
        assert_eq!(app.chain.started(), 2);
    }
}
