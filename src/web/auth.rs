//! Who is asking: sessions kept in the server's memory (a random 256-bit token in an HttpOnly,
//! SameSite=Strict cookie, Secure behind HTTPS; 30 idle minutes), a CSRF token per session
//! checked on every form, five failed logins locking an account for 15 minutes, and the role
//! every route requires, checked here on the server.

use super::{App, WebError};
use crate::register::user::Role;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A session ends after this long without a request.
pub const IDLE: Duration = Duration::from_secs(30 * 60);
/// Failed logins in a row that lock an account ...
pub const MAX_FAILURES: u32 = 5;
/// ... for this long.
pub const LOCKOUT: Duration = Duration::from_secs(15 * 60);

pub const SESSION_COOKIE: &str = "vigia_sesion";
pub const LOGIN_COOKIE: &str = "vigia_ingreso";

/// An import file read and previewed, waiting for the person to confirm it.
#[derive(Clone)]
pub struct PendingImport {
    pub token: String,
    pub program: String,
    pub name: String,
    pub bytes: Arc<Vec<u8>>,
}

struct Session {
    user: String,
    role: Role,
    csrf: String,
    last_seen: Instant,
    pending_import: Option<PendingImport>,
}

#[derive(Default)]
struct Attempts {
    failures: u32,
    locked_until: Option<Instant>,
}

/// Every session and login attempt of this server process.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<HashMap<String, Session>>,
    attempts: Mutex<HashMap<String, Attempts>>,
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
    /// Whether `name` may try to sign in now.
    pub fn locked(&self, name: &str) -> bool {
        let mut a = self.attempts.lock().unwrap_or_else(|p| p.into_inner());
        match a.get_mut(name) {
            Some(at) => match at.locked_until {
                Some(t) if Instant::now() < t => true,
                Some(_) => {
                    *at = Attempts::default();
                    false
                }
                None => false,
            },
            None => false,
        }
    }

    /// Counts a failed login; the fifth in a row locks the account.
    pub fn failed(&self, name: &str) {
        let mut a = self.attempts.lock().unwrap_or_else(|p| p.into_inner());
        let at = a.entry(name.to_string()).or_default();
        at.failures += 1;
        if at.failures >= MAX_FAILURES {
            at.locked_until = Some(Instant::now() + LOCKOUT);
        }
    }

    /// A new session for a signed-in user: its token.
    pub fn open(&self, user: &str, role: Role) -> String {
        self.attempts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(user);
        let t = token();
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        s.retain(|_, v| now.duration_since(v.last_seen) < IDLE);
        s.insert(
            t.clone(),
            Session {
                user: user.to_string(),
                role,
                csrf: token(),
                last_seen: now,
                pending_import: None,
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

    /// The signed-in user of a token still in force (its idle clock restarts).
    fn touch(&self, token: &str) -> Option<User> {
        let mut s = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let session = s.get_mut(token)?;
        if now.duration_since(session.last_seen) >= IDLE {
            s.remove(token);
            return None;
        }
        session.last_seen = now;
        Some(User {
            name: session.user.clone(),
            role: session.role,
            csrf: session.csrf.clone(),
            token: token.to_string(),
        })
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

    pub fn pending(&self, token: &str) -> Option<PendingImport> {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(token)
            .and_then(|s| s.pending_import.clone())
    }
}

/// The signed-in user of a request. A request without a session in force is sent to the login
/// page (so no page or file is ever served without one).
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

/// Sent to the login page.
pub struct ToLogin;

impl IntoResponse for ToLogin {
    fn into_response(self) -> Response {
        let mut r = Redirect::to("/ingresar").into_response();
        super::secure_headers(&mut r);
        r
    }
}

impl FromRequestParts<Arc<App>> for User {
    type Rejection = ToLogin;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<User, ToLogin> {
        cookie(&parts.headers, SESSION_COOKIE)
            .and_then(|t| app.sessions.touch(&t))
            .ok_or(ToLogin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_lock_the_account() {
        let s = Sessions::default();
        for _ in 0..4 {
            s.failed("ana");
        }
        assert!(!s.locked("ana"));
        s.failed("ana");
        assert!(s.locked("ana"));
        assert!(!s.locked("luis"));
    }

    #[test]
    fn sessions_expire_and_close() {
        let s = Sessions::default();
        let t = s.open("ana", Role::Oficial);
        let u = s.touch(&t).unwrap();
        assert_eq!((u.name.as_str(), u.role), ("ana", Role::Oficial));
        assert!(u.require(Role::Consulta).is_ok() && u.require(Role::Juridico).is_err());
        assert!(u.check_csrf(Some(&u.csrf)).is_ok() && u.check_csrf(None).is_err());
        s.sessions.lock().unwrap().get_mut(&t).unwrap().last_seen -= IDLE;
        assert!(s.touch(&t).is_none(), "30 idle minutes end a session");
        let t = s.open("ana", Role::Oficial);
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
