//! Who is asking: signing in (the lockout read from and every attempt on an account recorded in
//! the register, so a restart unlocks nothing: [`sign_in`]), sessions kept in the server's memory
//! (a random 256-bit token in an HttpOnly, SameSite=Strict cookie, Secure behind HTTPS; 30 idle
//! minutes), each checked against the register on every request (a disabled account or a new
//! password ends it, and the role is the register's: `register::user::standing`), a CSRF token
//! per session checked on every form, and the role every route requires, checked here on the
//! server.

use super::{App, WebError};
use crate::register::user::{self as account, Role, SignIn, Standing};
use crate::store::users;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A session ends after this long without a request.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

pub const SESSION_COOKIE: &str = "vigia_sesion";
pub const LOGIN_COOKIE: &str = "vigia_ingreso";

/// Names that are no account whose failed sign-ins are remembered at most; past it, those no
/// longer locked and last tried a lockout ago are forgotten.
const UNKNOWN_NAMES: usize = 10_000;

/// An import file read and previewed, waiting for the person to confirm it.
#[derive(Clone)]
pub struct PendingImport {
    pub token: String,
    pub program: String,
    pub name: String,
    pub bytes: Arc<Vec<u8>>,
}

/// The account a session was opened on, as the sign-in found it: its name, its id and the row of
/// its password the sign-in checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub name: String,
    pub user_id: i64,
    pub password_id: Option<i64>,
}

struct Session {
    who: Who,
    csrf: String,
    last_seen: Instant,
    pending_import: Option<PendingImport>,
    /// The certificate and private key loaded on «Firma digital» (`/firma`) for this session:
    /// in memory only, never written; dropped with the session (sign-out, expiry, restart).
    signer: Option<Arc<crate::sign::Signer>>,
}

/// Failed sign-ins in a row on a name that is no account, the latest at `latest`.
struct Attempts {
    failures: u64,
    latest: DateTime<Utc>,
}

/// Every session of this server process, the sign-in attempts on names that are no account
/// (answered like an account's, so the lockout does not tell which names are accounts; kept in
/// memory because there is nothing in the register to record them against), the failed sign-ins
/// of each client address, and the bound on password checks running at once.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<HashMap<String, Session>>,
    unknown: Mutex<HashMap<String, Attempts>>,
    clients: Mutex<HashMap<IpAddr, ClientAttempts>>,
}

/// The window a client's failed sign-ins are counted in ([`Sessions::client_attempt`]).
pub const CLIENT_WINDOW: Duration = Duration::from_secs(15 * 60);

/// Client addresses whose attempts are remembered at most; past it, the oldest is forgotten.
const CLIENTS: usize = 10_000;

/// A client's sign-ins that opened no session, since `since`.
struct ClientAttempts {
    failures: u32,
    since: Instant,
}

/// Password checks (argon2id: 19 MiB and tens of milliseconds each) running at once, each on
/// one of this many threads of their own (so that the memory an allocator keeps per thread is
/// kept by these only), and how many more may wait: the memory and the threads sign-ins can take,
/// whoever sends them.
pub const HASHING_AT_ONCE: usize = 2;
pub const HASHING_WAITING: usize = 32;

type Job = Box<dyn FnOnce() + Send>;

/// The threads that check passwords, fed through a queue of [`HASHING_WAITING`].
struct HashPool {
    jobs: std::sync::mpsc::SyncSender<Job>,
}

impl HashPool {
    fn get() -> &'static HashPool {
        static POOL: std::sync::OnceLock<HashPool> = std::sync::OnceLock::new();
        POOL.get_or_init(|| {
            let (jobs, queue) = std::sync::mpsc::sync_channel::<Job>(HASHING_WAITING);
            let queue = Arc::new(Mutex::new(queue));
            for n in 0..HASHING_AT_ONCE {
                let queue = Arc::clone(&queue);
                let spawned = std::thread::Builder::new()
                    .name(format!("vigia-password-{n}"))
                    .spawn(move || {
                        loop {
                            let job = queue.lock().unwrap_or_else(|p| p.into_inner()).recv();
                            match job {
                                Ok(job) => job(),
                                Err(_) => return, // the pool is gone: the server stops
                            }
                        }
                    });
                if let Err(e) = spawned {
                    eprintln!("vigia serve: no thread for password checks: {e}");
                }
            }
            HashPool { jobs }
        })
    }

    /// Runs `f` on one of the pool's threads; `None` when the queue is full.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _gone = done.send(f());
        });
        self.jobs.try_send(job).ok()?;
        result.await.ok()
    }
}

/// 32 random bytes, hex.
pub fn token() -> String {
    let mut b = [0u8; 32];
    // the operating system's generator; without it no session can be made safely
    getrandom::fill(&mut b).expect("the operating system's random generator is unavailable");
    crate::store::hex(&b)
}

/// Compares two tokens in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A cookie's value from the request's headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, whole site; Secure behind HTTPS.
pub fn set_cookie(name: &str, value: &str, secure: bool, max_age: Option<u64>) -> String {
    let mut c = format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict");
    if secure {
        c.push_str("; Secure");
    }
    if let Some(age) = max_age {
        c.push_str(&format!("; Max-Age={age}"));
    }
    c
}

impl Sessions {
    /// An attempt at `now` to sign in as `name`, which is no account: until when it is answered
    /// as locked, or `None` after counting it as a failure. One step under one lock, so attempts
    /// at the same moment are counted one after the other, as an account's are.
    fn unknown_attempt(&self, name: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let mut a = self.unknown.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(at) = a.get(name)
            && let Some(until) = account::lockout(at.failures, Some(at.latest), now)
        {
            return Some(until);
        }
        if a.len() >= UNKNOWN_NAMES && !a.contains_key(name) {
            a.retain(|_, at| now < at.latest + account::LOCKOUT);
        }
        let at = a.entry(name.to_string()).or_insert(Attempts {
            failures: 0,
            latest: now,
        });
        at.failures += 1;
        at.latest = now;
        None
    }

    /// A sign-in attempt from `ip`, counted as failed until [`Sessions::client_signed_in`] says
    /// otherwise (so attempts sent at once are all counted): refused, with the time to wait,
    /// when `max` failed in the last [`CLIENT_WINDOW`]. Beside each account's lockout, which an
    /// attacker could otherwise keep renewing for every account from one address.
    pub fn client_attempt(&self, ip: IpAddr, max: u32) -> Result<(), Duration> {
        let mut c = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        if c.len() >= CLIENTS && !c.contains_key(&ip) {
            c.retain(|_, a| now.duration_since(a.since) < CLIENT_WINDOW);
            if c.len() >= CLIENTS
                && let Some(oldest) = c.iter().min_by_key(|(_, a)| a.since).map(|(ip, _)| *ip)
            {
                c.remove(&oldest);
            }
        }
        let a = c.entry(ip).or_insert(ClientAttempts {
            failures: 0,
            since: now,
        });
        if now.duration_since(a.since) >= CLIENT_WINDOW {
            *a = ClientAttempts {
                failures: 0,
                since: now,
            };
        }
        if a.failures >= max {
            return Err(CLIENT_WINDOW.saturating_sub(now.duration_since(a.since)));
        }
        a.failures += 1;
        Ok(())
    }

    /// The attempt from `ip` opened a session: it is not counted as failed.
    pub fn client_signed_in(&self, ip: IpAddr) {
        let mut c = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = c.get_mut(&ip) {
            a.failures = a.failures.saturating_sub(1);
        }
    }

    /// Whether `token` is a session in force (not idle too long), without restarting its idle
    /// clock: what the body limit of an upload asks before anything is read.
    pub fn is_live(&self, token: &str) -> bool {
        let s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        s.get(token)
            .is_some_and(|v| Instant::now().duration_since(v.last_seen) < IDLE)
    }

    /// A new session for a signed-in account: its token.
    pub fn open(&self, who: Who) -> String {
        let t = token();
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        s.retain(|_, v| now.duration_since(v.last_seen) < IDLE);
        s.insert(
            t.clone(),
            Session {
                who,
                csrf: token(),
                last_seen: now,
                pending_import: None,
                signer: None,
            },
        );
        t
    }

    pub fn close(&self, token: &str) {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(token);
    }

    /// The account and CSRF token of a session not idle too long (its idle clock restarts); whether
    /// the account still stands is the caller's to read.
    fn touch(&self, token: &str) -> Option<(Who, String)> {
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        // sessions idle too long go now, with any certificate loaded in them (`/firma`), not
        // at the next sign-in
        s.retain(|_, v| now.duration_since(v.last_seen) < IDLE);
        let session = s.get_mut(token)?;
        session.last_seen = now;
        Some((session.who.clone(), session.csrf.clone()))
    }

    pub fn set_pending(&self, token: &str, p: Option<PendingImport>) {
        if let Some(s) = self
            .sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_mut(token)
        {
            s.pending_import = p;
        }
    }

    /// Keeps `signer` for the session `token` (`None`: drops the one it had).
    pub fn set_signer(&self, token: &str, signer: Option<Arc<crate::sign::Signer>>) {
        if let Some(s) = self
            .sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_mut(token)
        {
            s.signer = signer;
        }
    }

    /// The signer loaded for the session `token`, if any.
    pub fn signer(&self, token: &str) -> Option<Arc<crate::sign::Signer>> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(token)
            .and_then(|s| s.signer.clone())
    }

    pub fn pending(&self, token: &str) -> Option<PendingImport> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(token)
            .and_then(|s| s.pending_import.clone())
    }
}

/// What a sign-in came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Signed in: the new session's token.
    SignedIn(String),
    /// Wrong name or password, or a disabled account (which of them is not said).
    Refused,
    /// Five failed sign-ins in a row: locked until then.
    Locked(DateTime<Utc>),
}

/// Signs `name` in with `password`, at the server's time now. The account's lockout is read from
/// the register first (a locked account checks no password), the password is checked
/// (`register::user::authenticate`: argon2id, tens of milliseconds, off the async threads), and
/// the attempt is recorded under the rules of `register::user::sign_in`, which read the lockout
/// again inside the write. A name that is no account takes the same time and is locked the same
/// way, counted in this process's memory.
pub async fn sign_in(app: &Arc<App>, name: &str, password: String) -> Result<Outcome, WebError> {
    let now = app.now();
    let who = name.to_string();
    let a = Arc::clone(app);
    // the account and its lockout (a locked account checks no password)
    let found = app
        .db(move |s| {
            let Some(user) = users::by_name(s.conn(), &who)? else {
                return Ok(match a.sessions.unknown_attempt(&who, now) {
                    Some(until) => Err(until),
                    None => Ok(None),
                });
            };
            Ok(match account::locked_until(s.conn(), user.id, now)? {
                Some(until) => Err(until),
                None => Ok(Some(user)),
            })
        })
        .await?;
    let user = match found {
        Err(until) => return Ok(Outcome::Locked(until)),
        Ok(user) => user,
    };
    // the password, on one of the few threads that check passwords: a flood of sign-ins waits
    // for its turn, and past a queue is told to come back, instead of growing memory and threads
    let checked = HashPool::get()
        .run(move || {
            let authenticated = account::authenticate(user.clone(), &password);
            (user, authenticated)
        })
        .await;
    let Some((user, authenticated)) = checked else {
        return Err(WebError {
            title: "Servidor ocupado",
            ..WebError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "Hay demasiados ingresos en curso. Intente de nuevo en unos segundos.",
            )
        });
    };
    // a name that is no account: the decoy was checked, nothing to record
    let Some(user) = user else {
        return Ok(Outcome::Refused);
    };
    // the password checked is the one of this row: a session begun with it ends when another
    // is set
    let found = Who {
        name: user.name.clone(),
        user_id: user.id,
        password_id: user.password_id,
    };
    let id = user.id;
    let actor = match &authenticated {
        Some((u, _)) => u.name.clone(),
        None => account::NOT_SIGNED_IN.to_string(),
    };
    let role = authenticated.map(|(_, role)| role);
    let result = app
        .db(move |s| {
            Ok(s.write::<_, crate::register::Error>(&actor, |tx| {
                account::sign_in(tx, id, role, now)
            })?)
        })
        .await?;
    Ok(match result {
        SignIn::Accepted(_) => Outcome::SignedIn(app.sessions.open(found)),
        SignIn::Refused => Outcome::Refused,
        SignIn::Locked(until) => Outcome::Locked(until),
    })
}

/// The signed-in user of a request, with the role the register gives the account now. A request
/// without a session in force is sent to the login page (so no page or file is ever served
/// without one).
#[derive(Debug, Clone)]
pub struct User {
    pub name: String,
    pub role: Role,
    pub csrf: String,
    token: String,
}

impl User {
    /// Refuses (403) unless the user's role is `role` or above.
    pub fn require(&self, role: Role) -> Result<(), WebError> {
        if self.role >= role {
            Ok(())
        } else {
            Err(WebError::forbidden())
        }
    }

    /// Refuses (403) a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: Option<&str>) -> Result<(), WebError> {
        match sent {
            Some(s) if same(s, &self.csrf) => Ok(()),
            _ => Err(WebError::csrf()),
        }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// May the user do what `role` may?
    pub fn may(&self, role: Role) -> bool {
        self.role >= role
    }
}

/// Why a session ended before its time, as the login page says it (`/ingresar?motivo=...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The account was disabled.
    Disabled,
    /// A new password was set for the account.
    NewPassword,
}

impl Ended {
    const ALL: [Ended; 2] = [Ended::Disabled, Ended::NewPassword];

    /// The value of `motivo` in the login page's address.
    pub fn code(self) -> &'static str {
        match self {
            Ended::Disabled => "cuenta-deshabilitada",
            Ended::NewPassword => "clave-nueva",
        }
    }

    pub fn from_code(code: &str) -> Option<Ended> {
        Ended::ALL.into_iter().find(|e| e.code() == code)
    }

    /// What the login page says.
    pub fn message(self) -> &'static str {
        match self {
            Ended::Disabled => {
                "Su sesión terminó: la cuenta fue deshabilitada. Si cree que es un error, pida ayuda a un administrador."
            }
            Ended::NewPassword => {
                "Su sesión terminó porque se asignó una contraseña nueva a la cuenta. Ingrese con la contraseña nueva."
            }
        }
    }
}

/// A request without a session in force.
#[derive(Debug)]
pub enum ToLogin {
    /// No session (none, unknown, or idle too long): to the login page.
    Anonymous,
    /// The session just ended (its cookie cleared): to the login page, which says why.
    Ended { why: Ended, secure: bool },
    /// The register could not be read to check the session.
    Failed(WebError),
}

impl IntoResponse for ToLogin {
    fn into_response(self) -> Response {
        let mut r = match self {
            ToLogin::Anonymous => Redirect::to("/ingresar").into_response(),
            ToLogin::Ended { why, secure } => {
                let mut r =
                    Redirect::to(&format!("/ingresar?motivo={}", why.code())).into_response();
                if let Ok(v) =
                    header::HeaderValue::from_str(&set_cookie(SESSION_COOKIE, "", secure, Some(0)))
                {
                    r.headers_mut().append(header::SET_COOKIE, v);
                }
                r
            }
            ToLogin::Failed(e) => return e.into_response(),
        };
        super::secure_headers(&mut r);
        r
    }
}

impl FromRequestParts<Arc<App>> for User {
    type Rejection = ToLogin;

    /// The session of the request's cookie, then the account it was opened on, read again from
    /// the register (one read by its id): a disabled account or a new password ends the session;
    /// otherwise the role is the account's now.
    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<User, ToLogin> {
        let token = cookie(&parts.headers, SESSION_COOKIE).ok_or(ToLogin::Anonymous)?;
        let (who, csrf) = app.sessions.touch(&token).ok_or(ToLogin::Anonymous)?;
        let (id, password_id) = (who.user_id, who.password_id);
        let standing = app
            .db(move |s| Ok(account::standing(s.conn(), id, password_id)?))
            .await
            .map_err(ToLogin::Failed)?;
        let why = match standing {
            Standing::InForce(role) => {
                let user = User {
                    name: who.name,
                    role,
                    csrf,
                    token,
                };
                // an error page of this request is drawn with this person's menu
                if let Some(s) = parts.extensions.get::<super::SignedIn>() {
                    s.set(&user);
                }
                return Ok(user);
            }
            Standing::Disabled => Ended::Disabled,
            Standing::NewPassword => Ended::NewPassword,
        };
        app.sessions.close(&token);
        Err(ToLogin::Ended {
            why,
            secure: app.config.secure_cookies,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::store::Store;
    use chrono::TimeDelta;

    const PASSWORD: &str = "una clave larga";

    /// A register with the account `ana`, in a temporary directory.
    fn register() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("vigia.db");
        Store::create(&db)
            .unwrap()
            .write::<_, crate::register::Error>("admin", |tx| {
                account::add(tx, "ana", Role::Oficial, PASSWORD)
            })
            .unwrap();
        (dir, db)
    }

    /// A server's state over `db` (as `vigia serve` makes it) whose clock reads `clock`.
    fn server(db: &std::path::Path, clock: &Arc<Mutex<DateTime<Utc>>>) -> Arc<App> {
        let clock = Arc::clone(clock);
        Arc::new(App::new(
            super::super::Config::over(db),
            None,
            Box::new(move || *clock.lock().unwrap()),
        ))
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap()
    }

    /// The sign-ins recorded: (succeeded, actor, created_at), in order.
    fn recorded(db: &std::path::Path) -> Vec<(bool, String, String)> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn
            .prepare("SELECT succeeded, created_by, created_at FROM user_sign_ins ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn a_lockout_survives_a_restart_and_ends_fifteen_minutes_after_the_fifth_failure() {
        let (_dir, db) = register();
        let rt = runtime();
        let start = Utc::now();
        let clock = Arc::new(Mutex::new(start));
        let first = server(&db, &clock);
        let until = rt.block_on(async {
            for _ in 0..5 {
                let r = sign_in(&first, "ana", "no es la clave".into()).await;
                assert_eq!(r.unwrap(), Outcome::Refused);
            }
            // the sixth, with the right password, is refused
            match sign_in(&first, "ana", PASSWORD.into()).await.unwrap() {
                Outcome::Locked(until) => until,
                other => panic!("{other:?}"),
            }
        });
        drop(first);
        let rows = recorded(&db);
        assert_eq!(
            rows.len(),
            5,
            "an attempt refused for the lockout is not recorded"
        );
        assert!(
            rows.iter()
                .all(|(ok, actor, _)| !ok && actor == account::NOT_SIGNED_IN)
        );
        let fifth = DateTime::parse_from_rfc3339(&rows[4].2).unwrap();
        assert_eq!(until, fifth + TimeDelta::minutes(15));

        // a restart: another server over the same register, a minute later
        *clock.lock().unwrap() = start + TimeDelta::minutes(1);
        let second = server(&db, &clock);
        rt.block_on(async {
            let r = sign_in(&second, "ana", PASSWORD.into()).await.unwrap();
            assert_eq!(r, Outcome::Locked(until), "the restart unlocked nothing");
            *clock.lock().unwrap() = until - TimeDelta::seconds(1);
            let r = sign_in(&second, "ana", PASSWORD.into()).await.unwrap();
            assert_eq!(r, Outcome::Locked(until));
            *clock.lock().unwrap() = until;
            let r = sign_in(&second, "ana", PASSWORD.into()).await.unwrap();
            assert!(matches!(r, Outcome::SignedIn(_)), "{r:?}");
            // the success starts the count again: four failures lock nothing
            for _ in 0..4 {
                let r = sign_in(&second, "ana", "no es la clave".into()).await;
                assert_eq!(r.unwrap(), Outcome::Refused);
            }
            let r = sign_in(&second, "ana", PASSWORD.into()).await.unwrap();
            assert!(matches!(r, Outcome::SignedIn(_)), "{r:?}");
        });
        let rows = recorded(&db);
        assert_eq!(rows.len(), 11);
        assert_eq!((rows[5].0, rows[5].1.as_str()), (true, "ana"));
        assert_eq!((rows[10].0, rows[10].1.as_str()), (true, "ana"));
        let store = Store::open(&db).unwrap();
        let v = crate::store::audit::verify(store.conn()).unwrap();
        assert!(v.first_mismatch.is_none(), "{v:?}");
        let actions: Vec<String> = store
            .conn()
            .prepare("SELECT action FROM audit_events WHERE entity = 'user_sign_ins' ORDER BY seq")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(actions.len(), 11);
        assert_eq!(actions[0], "user.sign_in_failed");
        assert_eq!(actions[5], "user.sign_in");
    }

    #[test]
    fn attempts_at_the_same_moment_are_counted_one_after_the_other() {
        let (_dir, db) = register();
        let rt = runtime();
        let clock = Arc::new(Mutex::new(Utc::now()));
        let app = server(&db, &clock);
        let at_once = |name: &'static str| -> Vec<Outcome> {
            rt.block_on(async {
                let tries: Vec<_> = (0..12)
                    .map(|_| {
                        let app = Arc::clone(&app);
                        tokio::spawn(
                            async move { sign_in(&app, name, "no es la clave".into()).await },
                        )
                    })
                    .collect();
                let mut out = Vec::new();
                for t in tries {
                    out.push(t.await.unwrap().unwrap());
                }
                out
            })
        };
        let refused = |o: &[Outcome]| o.iter().filter(|o| **o == Outcome::Refused).count();
        let outcomes = at_once("ana");
        assert_eq!(refused(&outcomes), 5, "{outcomes:?}");
        assert_eq!(recorded(&db).len(), 5, "none slipped past the lockout");
        // a name that is no account, the same
        let outcomes = at_once("nadie");
        assert_eq!(refused(&outcomes), 5, "{outcomes:?}");
    }

    #[test]
    fn a_name_that_is_no_account_is_answered_like_one() {
        let (_dir, db) = register();
        let rt = runtime();
        let start = Utc::now();
        let clock = Arc::new(Mutex::new(start));
        let app = server(&db, &clock);
        rt.block_on(async {
            for _ in 0..5 {
                let r = sign_in(&app, "nadie", PASSWORD.into()).await.unwrap();
                assert_eq!(r, Outcome::Refused);
            }
            let r = sign_in(&app, "nadie", PASSWORD.into()).await.unwrap();
            assert_eq!(r, Outcome::Locked(start + TimeDelta::minutes(15)));
            *clock.lock().unwrap() = start + TimeDelta::minutes(15);
            let r = sign_in(&app, "nadie", PASSWORD.into()).await.unwrap();
            assert_eq!(r, Outcome::Refused);
        });
        assert!(recorded(&db).is_empty(), "nothing to record it against");
    }

    /// The user a request with the session cookie `token` is served as.
    fn request_as(
        rt: &tokio::runtime::Runtime,
        app: &Arc<App>,
        token: &str,
    ) -> Result<User, ToLogin> {
        let (mut parts, ()) = axum::http::Request::builder()
            .header(header::COOKIE, format!("{SESSION_COOKIE}={token}"))
            .body(())
            .unwrap()
            .into_parts();
        rt.block_on(User::from_request_parts(&mut parts, app))
    }

    fn signed_in(rt: &tokio::runtime::Runtime, app: &Arc<App>, password: &str) -> String {
        match rt.block_on(sign_in(app, "ana", password.into())).unwrap() {
            Outcome::SignedIn(token) => token,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_request_reads_the_account_again() {
        let (_dir, db) = register();
        let rt = runtime();
        let clock = Arc::new(Mutex::new(Utc::now()));
        let app = server(&db, &clock);
        let admin = |f: &dyn Fn(&mut crate::store::Tx<'_>) -> crate::register::Result<()>| {
            Store::open(&db)
                .unwrap()
                .write::<_, crate::register::Error>("admin", f)
                .unwrap()
        };
        let first = signed_in(&rt, &app, PASSWORD);
        let u = request_as(&rt, &app, &first).unwrap();
        assert_eq!((u.name.as_str(), u.role), ("ana", Role::Oficial));
        // a new password ends the session begun with the old one, and it stays ended
        admin(&|tx| account::set_password(tx, "ana", "otra clave larga").map(drop));
        match request_as(&rt, &app, &first) {
            Err(ToLogin::Ended { why, .. }) => assert_eq!(why, Ended::NewPassword),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            request_as(&rt, &app, &first),
            Err(ToLogin::Anonymous)
        ));
        // one begun with the new password stands, until the account is disabled
        let second = signed_in(&rt, &app, "otra clave larga");
        assert!(request_as(&rt, &app, &second).is_ok());
        admin(&|tx| account::disable(tx, "ana").map(drop));
        match request_as(&rt, &app, &second) {
            Err(ToLogin::Ended { why, .. }) => assert_eq!(why, Ended::Disabled),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            request_as(&rt, &app, &second),
            Err(ToLogin::Anonymous)
        ));
    }

    #[test]
    fn sessions_expire_and_close() {
        let s = Sessions::default();
        let ana = Who {
            name: "ana".into(),
            user_id: 1,
            password_id: Some(1),
        };
        let t = s.open(ana.clone());
        let (who, csrf) = s.touch(&t).unwrap();
        assert_eq!(who, ana);
        let u = User {
            name: who.name,
            role: Role::Oficial,
            csrf,
            token: t.clone(),
        };
        assert!(u.require(Role::Consulta).is_ok() && u.require(Role::Juridico).is_err());
        assert!(u.check_csrf(Some(&u.csrf)).is_ok() && u.check_csrf(None).is_err());
        s.sessions.lock().unwrap().get_mut(&t).unwrap().last_seen -= IDLE;
        assert!(s.touch(&t).is_none(), "30 idle minutes end a session");
        let t = s.open(ana);
        s.close(&t);
        assert!(s.touch(&t).is_none());
    }

    #[test]
    fn cookies_are_read_and_set_strictly() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "a=1; vigia_sesion=abc".parse().unwrap());
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("abc"));
        let c = set_cookie(SESSION_COOKIE, "x", true, None);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Strict") && c.contains("Secure"));
    }
}
