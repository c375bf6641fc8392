//! A result kept while what it was computed from stays the same: the dashboard's batch check,
//! which over a million holders takes seconds. Each scope (e.g. the check's as-of date) keeps one
//! result with the version of the register it was computed from; a visitor whose version is
//! another one recomputes it, and visitors asking for one scope at the same time wait for one
//! computation instead of each running their own. Never serves a result older than the version
//! the visitor read. No rule and no SQL here: the caller says what a version is and how to
//! compute.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How many scopes are kept; the one used longest ago makes room for a new one.
const SCOPES: usize = 8;

type Slot<K, V> = Arc<tokio::sync::Mutex<Option<(K, Arc<V>)>>>;

/// A scope's slot and when it was last used.
type Used<K, V> = (u64, Slot<K, V>);

/// Results of type `V` per scope `S`, each with the version `K` it was computed from.
pub(crate) struct Fresh<S, K, V> {
    scopes: Mutex<HashMap<S, Used<K, V>>>,
    /// A clock of uses, for choosing the scope to drop.
    uses: AtomicU64,
    computed: AtomicU64,
}

impl<S, K, V> Default for Fresh<S, K, V> {
    fn default() -> Self {
        Fresh {
            scopes: Mutex::new(HashMap::new()),
            uses: AtomicU64::new(0),
            computed: AtomicU64::new(0),
        }
    }
}

impl<S, K, V> Fresh<S, K, V>
where
    S: Eq + Hash + Clone,
    K: Eq + Send + 'static,
    V: Send + Sync + 'static,
{
    /// How many times a result has been computed since the server started (a test observes the
    /// cache through it, not through timing).
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// The slot of `scope`, made if new.
    fn slot(&self, scope: S) -> Slot<K, V> {
        let tick = self.uses.fetch_add(1, Ordering::Relaxed);
        let mut scopes = self.scopes.lock().unwrap_or_else(|p| p.into_inner());
        if !scopes.contains_key(&scope) && scopes.len() >= SCOPES {
            let oldest = scopes
                .iter()
                .min_by_key(|(_, (used, _))| *used)
                .map(|(s, _)| s.clone());
            if let Some(s) = oldest {
                // a visitor still holding its slot finishes with it; it is only forgotten here
                scopes.remove(&s);
            }
        }
        let entry = scopes
            .entry(scope)
            .or_insert_with(|| (tick, Slot::default()));
        entry.0 = tick;
        Arc::clone(&entry.1)
    }

    /// The result for `scope` at the register's version now.
    ///
    /// `version` reads the version; it is read before `compute` runs, never after, so a result
    /// is filed under a version no later than the state it saw (a write in between only makes
    /// the next visitor compute again). A visitor reads the version, then waits its turn on the
    /// scope; if the result there is not of that version, it reads the version again (another
    /// visitor may have just computed the newer state) and computes only if it still differs.
    /// The computation runs in its own task, so it completes and is kept even if the visitor who
    /// started it goes away.
    pub async fn get<E, VF, VFut, CF, CFut>(
        &self,
        scope: S,
        version: VF,
        compute: CF,
    ) -> Result<Arc<V>, E>
    where
        VF: Fn() -> VFut,
        VFut: Future<Output = Result<K, E>>,
        CF: FnOnce() -> CFut,
        CFut: Future<Output = Result<V, E>> + Send + 'static,
        E: Send + 'static,
    {
        let seen = version().await?;
        let slot = self.slot(scope);
        let mut guard = Arc::clone(&slot).lock_owned().await;
        if let Some((k, v)) = &*guard
            && *k == seen
        {
            return Ok(Arc::clone(v));
        }
        let now = version().await?;
        if let Some((k, v)) = &*guard
            && *k == now
        {
            return Ok(Arc::clone(v));
        }
        self.computed.fetch_add(1, Ordering::Relaxed);
        let work = compute();
        let task = tokio::spawn(async move {
            let v = Arc::new(work.await?);
            *guard = Some((now, Arc::clone(&v)));
            Ok(v)
        });
        match task.await {
            Ok(r) => r,
            // the computation panicked: the slot is left as it was, and so is the visitor's wait
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap()
    }

    /// A register reduced to a version number, and a computation that reports the version it saw.
    struct Fake {
        version: AtomicI64,
    }

    impl Fake {
        async fn version(&self) -> Result<i64, ()> {
            Ok(self.version.load(Ordering::SeqCst))
        }
    }

    #[test]
    fn a_result_is_kept_until_the_version_changes_and_one_computation_serves_everyone() {
        let rt = runtime();
        let fake = Arc::new(Fake {
            version: AtomicI64::new(1),
        });
        let cache: Arc<Fresh<&str, i64, i64>> = Arc::default();
        let get = |scope: &'static str| {
            let (fake, cache) = (Arc::clone(&fake), Arc::clone(&cache));
            async move {
                let seen = fake.version.load(Ordering::SeqCst);
                cache
                    .get(
                        scope,
                        || fake.version(),
                        move || async move {
                            // let the other visitors run meanwhile
                            tokio::task::yield_now().await;
                            Ok(seen * 100)
                        },
                    )
                    .await
                    .map(|v| *v)
            }
        };
        rt.block_on(async {
            // twenty visitors at once: one computation
            let all: Vec<_> = (0..20).map(|_| tokio::spawn(get("hoy"))).collect();
            for t in all {
                assert_eq!(t.await.unwrap(), Ok(100));
            }
            assert_eq!(cache.computed(), 1);
            assert_eq!(get("hoy").await, Ok(100));
            assert_eq!(
                cache.computed(),
                1,
                "the same version is served from the cache"
            );
            // a write: the next visit computes the new state
            fake.version.store(2, Ordering::SeqCst);
            assert_eq!(get("hoy").await, Ok(200));
            assert_eq!(cache.computed(), 2);
            // another scope is computed apart, and does not push the first out
            assert_eq!(get("ayer").await, Ok(200));
            assert_eq!(get("hoy").await, Ok(200));
            assert_eq!(cache.computed(), 3);
        });
    }

    #[test]
    fn a_failed_computation_is_not_kept_and_old_scopes_make_room() {
        let rt = runtime();
        let cache: Fresh<u32, i64, i64> = Fresh::default();
        rt.block_on(async {
            let r = cache
                .get(
                    0,
                    || async { Ok(1) },
                    || async { Err::<i64, &str>("falló") },
                )
                .await;
            assert_eq!(r, Err("falló"));
            let r = cache
                .get(0, || async { Ok(1) }, || async { Ok::<i64, &str>(7) })
                .await;
            assert_eq!(r.map(|v| *v), Ok(7));
            assert_eq!(cache.computed(), 2);
            for scope in 1..=SCOPES as u32 {
                let r = cache
                    .get(scope, || async { Ok(1) }, || async { Ok::<i64, &str>(8) })
                    .await;
                assert_eq!(r.map(|v| *v), Ok(8));
            }
            assert_eq!(cache.scopes.lock().unwrap().len(), SCOPES);
            assert!(
                !cache.scopes.lock().unwrap().contains_key(&0),
                "the scope used longest ago made room"
            );
        });
    }
}
