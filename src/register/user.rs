//! Accounts of the web interface: who may sign in and with which role (consulta < oficial <
//! juridico < admin), argon2id password hashes, the rules for adding, disabling and changing
//! passwords (never the last enabled administrator disabled), the lockout (five failed sign-ins
//! in a row lock an account for 15 minutes, counted from the register; a new password set by an
//! administrator starts the count again) and whether a session opened on an account still
//! stands ([`standing`]), inside the caller's write transaction. No front end and no session
//! kept here.

use super::{Refusal, Result};
use crate::said;
use crate::store::users::{self, User};
use crate::store::{StoreError, Tx};
use argon2::password_hash::phc::PasswordHash;
use chrono::{DateTime, TimeDelta, Utc};
use rusqlite::Connection;
use std::fmt;
use std::sync::OnceLock;

/// What an account may do; each role may do everything the ones before it may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Reads everything.
    Consulta,
    /// Also imports and records adjudications, pledges, breaches, payments and corrections.
    Oficial,
    /// Also liquidates and issues notices.
    Juridico,
    /// Also manages programs, rates and users.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Consulta, Role::Oficial, Role::Juridico, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Consulta => "consulta",
            Role::Oficial => "oficial",
            Role::Juridico => "juridico",
            Role::Admin => "admin",
        }
    }

    /// The role's name for a person (with its accent).
    pub fn label_es(self) -> &'static str {
        match self {
            Role::Consulta => "consulta",
            Role::Oficial => "oficial de cumplimiento",
            Role::Juridico => "jurídico",
            Role::Admin => "administración",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Role, String> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("{s:?} is not a role: consulta, oficial, juridico or admin"))
    }
}

/// The shortest password accepted.
pub const MIN_PASSWORD: usize = 10;

thread_local! {
    // argon2id's memory (19 MiB), kept by each thread that hashes or checks passwords:
    // allocated anew at each one, glibc's allocator kept every one of them (a server grew
    // 19 MiB per failed sign-in, without end)
    static MEMORY: std::cell::RefCell<Vec<argon2::Block>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `argon` run over the thread's own memory ([`MEMORY`]), into `out`.
fn hash_into(
    argon: &argon2::Argon2<'_>,
    blocks: usize,
    password: &str,
    salt: &[u8],
    out: &mut [u8],
) -> argon2::Result<()> {
    MEMORY.with_borrow_mut(|memory| {
        memory.resize(blocks, argon2::Block::new());
        argon.hash_password_into_with_memory(password.as_bytes(), salt, out, &mut memory[..])
    })
}

/// An argon2id hash (PHC string, random salt, the crate's default parameters) of `password`.
pub fn hash_password(password: &str) -> std::result::Result<String, Refusal> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt)
        .map_err(|e| Refusal::Rule(said!(register::no_random_salt_available, e)))?;
    hash_with_salt(password, &salt)
}

/// [`hash_password`] with the salt given.
fn hash_with_salt(password: &str, salt: &[u8]) -> std::result::Result<String, Refusal> {
    use argon2::password_hash::phc::{Output, ParamsString, Salt};
    let cannot =
        |e: &dyn std::fmt::Display| Refusal::Rule(said!(register::cannot_hash_password, e));
    let params = argon2::Params::default();
    let (algorithm, version) = (argon2::Algorithm::default(), argon2::Version::default());
    let mut out = vec![
        0u8;
        params
            .output_len()
            .unwrap_or(argon2::Params::DEFAULT_OUTPUT_LEN)
    ];
    let argon = argon2::Argon2::new(algorithm, version, params.clone());
    hash_into(&argon, params.block_count(), password, salt, &mut out).map_err(|e| cannot(&e))?;
    let phc = PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: ParamsString::try_from(&params).map_err(|e| cannot(&e))?,
        salt: Some(Salt::new(salt).map_err(|e| cannot(&e))?),
        hash: Some(Output::new(&out).map_err(|e| cannot(&e))?),
    };
    Ok(phc.to_string())
}

/// Whether `password` is the one `phc` was made from.
pub fn password_matches(phc: &str, password: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let (Ok(params), Ok(algorithm)) = (
        argon2::Params::try_from(&hash),
        argon2::Algorithm::try_from(hash.algorithm.as_str()),
    ) else {
        return false;
    };
    let version = match hash.version.map(argon2::Version::try_from).transpose() {
        Ok(v) => v.unwrap_or_default(),
        Err(_) => return false,
    };
    let blocks = params.block_count();
    let argon = argon2::Argon2::new(algorithm, version, params);
    let mut out = vec![0u8; expected.len()];
    let hashed = hash_into(&argon, blocks, password, salt, &mut out);
    // `Output`'s comparison takes the same time wherever the bytes differ
    hashed.is_ok()
        && argon2::password_hash::phc::Output::new(&out).is_ok_and(|computed| computed == *expected)
}

fn check_password(password: &str) -> std::result::Result<(), Refusal> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(Refusal::Rule(said!(
            register::password_too_short_at_least_characters,
            MIN_PASSWORD
        )));
    }
    Ok(())
}

/// Adds an account with its first password.
pub fn add(tx: &mut Tx<'_>, name: &str, role: Role, password: &str) -> Result<i64> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'));
    if !valid {
        return Err(Refusal::Rule(said!(register::not_user_name_1_64_letters, name)).into());
    }
    if users::by_name(tx.conn(), name)?.is_some() {
        return Err(Refusal::Rule(said!(register::there_already_user_called, name)).into());
    }
    check_password(password)?;
    let phc = hash_password(password)?;
    let id = users::insert(tx, name, role.as_str())?;
    users::set_password(tx, id, &phc)?;
    Ok(id)
}

/// Changes an account's password. Only an administrator does (`vigia user password`, the web's
/// «Usuarios» page), so it also ends a lockout: the failed sign-ins counted by [`locked_until`]
/// start again after it, and every session opened with the old password ends ([`standing`]).
pub fn set_password(tx: &mut Tx<'_>, name: &str, password: &str) -> Result<User> {
    let user = users::get(tx.conn(), name)?;
    check_password(password)?;
    let phc = hash_password(password)?;
    users::set_password(tx, user.id, &phc)?;
    Ok(user)
}

/// Disables an account: it can no longer sign in (it stays on record) and its open sessions end
/// ([`standing`]). Nobody disables the account they act as (an administrator would lock themself
/// out), and nobody the last enabled administrator (no one could manage the accounts any more,
/// nor enable one: that takes a new account added from the command line).
pub fn disable(tx: &mut Tx<'_>, name: &str) -> Result<User> {
    let user = users::get(tx.conn(), name)?;
    if user.name == tx.actor() {
        return Err(
            Refusal::Rule(said!(register::user_cannot_disable_their_own_account, name)).into(),
        );
    }
    if user.disabled {
        return Err(Refusal::Rule(said!(register::user_already_disabled, name)).into());
    }
    if user.role == Role::Admin.as_str() {
        let others = users::list(tx.conn())?
            .iter()
            .filter(|u| u.id != user.id && !u.disabled && u.role == Role::Admin.as_str())
            .count();
        if others == 0 {
            return Err(Refusal::Rule(said!(
                register::user_last_enabled_administrator_add_another,
                name
            ))
            .into());
        }
    }
    users::disable(tx, user.id)?;
    Ok(user)
}

/// Whether a web session opened on an account still stands, read again on every request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// In force, with the account's role as the register has it now.
    InForce(Role),
    /// The account was disabled (or is no account): the session ends.
    Disabled,
    /// The account's password changed after the session began: the session ends.
    NewPassword,
}

/// Whether a session opened on account `user_id` when `password_id` was its password (the row of
/// `user_passwords` the sign-in checked) still stands: the account enabled and its password the
/// same. One read of the account by its id.
pub fn standing(conn: &Connection, user_id: i64, password_id: Option<i64>) -> Result<Standing> {
    let Some(user) = users::by_id(conn, user_id)? else {
        return Ok(Standing::Disabled);
    };
    if user.disabled {
        return Ok(Standing::Disabled);
    }
    if user.password_id != password_id {
        return Ok(Standing::NewPassword);
    }
    let role = user.role.parse().map_err(|_| {
        StoreError::Corrupt(format!("user {} has the role {:?}", user.name, user.role))
    })?;
    Ok(Standing::InForce(role))
}

/// A hash no password is checked against but to spend the same time as a real check.
fn decoy_phc() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password("no account has this password").unwrap_or_default())
}

/// The account `name` signs in as with `password`: enabled, with that password. `None` for any
/// other case (the caller does not say which). The password is checked against a hash in every
/// case (a decoy when there is no account or no password), so the time the answer takes does not
/// tell whether a name is an account.
pub fn authenticate(user: Option<User>, password: &str) -> Option<(User, Role)> {
    let matches = match user.as_ref().and_then(|u| u.phc.as_deref()) {
        Some(phc) => password_matches(phc, password),
        None => password_matches(decoy_phc(), password),
    };
    let user = user?;
    let role: Role = user.role.parse().ok()?;
    let ok = matches && user.phc.is_some() && !user.disabled;
    ok.then_some((user, role))
}

/// Failed sign-ins in a row that lock an account ...
pub const MAX_FAILURES: u64 = 5;
/// ... for this long after the last of them.
pub const LOCKOUT: TimeDelta = TimeDelta::minutes(15);

/// The audit trail's actor for a failed sign-in: no one has shown who they are. It cannot be a
/// user name (those have no spaces or parentheses).
pub const NOT_SIGNED_IN: &str = "(not signed in)";

/// Until when account `user_id` is locked at `now`, if it is.
///
/// The failed sign-ins counted are those since the later of the last successful sign-in and the
/// latest password set (an administrator setting a new password ends a lockout: the person need
/// not wait the 15 minutes). Nothing is recorded while an account is locked (no password is
/// checked then), so those failures come in runs of [`MAX_FAILURES`], every run but the last
/// ended by a lockout that has run out: the account is locked while their count is a positive
/// multiple of five and the last failure is less than [`LOCKOUT`] old.
pub fn locked_until(
    conn: &Connection,
    user_id: i64,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>> {
    let f = users::failures_since_sign_in(conn, user_id)?;
    let latest = match f.latest_at {
        Some(at) => Some(
            DateTime::parse_from_rfc3339(&at)
                .map_err(|_| StoreError::Corrupt(format!("sign-in time {at:?} is not a UTC time")))?
                .with_timezone(&Utc),
        ),
        None => None,
    };
    Ok(lockout(f.count, latest, now))
}

/// The lockout rule on its own: `failures` in a row (none recorded while locked), the latest at
/// `latest`; until when the account is locked at `now`, if it is.
pub fn lockout(
    failures: u64,
    latest: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let latest = latest.filter(|_| failures > 0 && failures.is_multiple_of(MAX_FAILURES))?;
    let until = latest + LOCKOUT;
    (now < until).then_some(until)
}

/// What an attempt to sign in came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignIn {
    /// Signed in, with this role (recorded).
    Accepted(Role),
    /// Wrong password or disabled account (recorded; the fifth in a row locks the account).
    Refused,
    /// The account is locked until then: nothing was checked or recorded.
    Locked(DateTime<Utc>),
}

/// Records an attempt to sign in to account `user_id` at `now`: `authenticated` is what
/// [`authenticate`] found (checked by the caller before the write transaction: argon2 takes tens
/// of milliseconds and must not hold the write lock). The lockout is read again inside the
/// transaction, so attempts made at the same moment (even through two servers) are counted one
/// after the other and none slips past a lockout another just caused: an account locked in the
/// meantime refuses even the right password and records nothing. A failed attempt should be
/// written under [`NOT_SIGNED_IN`], a successful one under the account's name.
pub fn sign_in(
    tx: &mut Tx<'_>,
    user_id: i64,
    authenticated: Option<Role>,
    now: DateTime<Utc>,
) -> Result<SignIn> {
    if let Some(until) = locked_until(tx.conn(), user_id, now)? {
        return Ok(SignIn::Locked(until));
    }
    users::record_sign_in(tx, user_id, authenticated.is_some())?;
    Ok(match authenticated {
        Some(role) => SignIn::Accepted(role),
        None => SignIn::Refused,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_is_hashed_as_the_argon2_crate_hashes_it() {
        use argon2::password_hash::PasswordHasher;
        let salt = [7u8; 16];
        let ours = hash_with_salt("una clave larga", &salt).unwrap();
        let theirs = argon2::Argon2::default()
            .hash_password_with_salt(b"una clave larga", &salt)
            .unwrap()
            .to_string();
        assert_eq!(ours, theirs);
        // twice on one thread: the memory kept from the first does not change the second
        assert_eq!(hash_with_salt("una clave larga", &salt).unwrap(), theirs);
        let random = hash_password("una clave larga").unwrap();
        assert!(password_matches(&random, "una clave larga"));
        assert!(!password_matches(&random, "una clave larg"));
    }

    use super::*;
    use crate::store::Store;

    #[test]
    fn accounts_are_added_checked_disabled_and_audited() {
        let mut store = Store::in_memory().unwrap();
        store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "ana", Role::Juridico, "una clave larga")
            })
            .unwrap();
        let u = users::by_name(store.conn(), "ana").unwrap();
        assert!(authenticate(u.clone(), "una clave larga").is_some());
        assert!(authenticate(u, "otra clave larga").is_none());
        let short =
            store.write::<_, super::super::Error>("admin", |tx| add(tx, "b", Role::Admin, "corta"));
        assert!(short.unwrap_err().to_string().contains("too short"));
        let dup = store.write::<_, super::super::Error>("admin", |tx| {
            add(tx, "ana", Role::Admin, "una clave larga")
        });
        assert!(dup.unwrap_err().to_string().contains("already"));
        store
            .write::<_, super::super::Error>("admin", |tx| disable(tx, "ana"))
            .unwrap();
        let u = users::by_name(store.conn(), "ana").unwrap();
        assert!(authenticate(u, "una clave larga").is_none());
        let v = crate::store::audit::verify(store.conn()).unwrap();
        assert!(v.first_mismatch.is_none(), "{v:?}");
    }

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn the_lockout_rule() {
        let fifth = at("2026-03-16T10:00:00Z");
        // five in a row lock for 15 minutes from the fifth
        assert_eq!(
            lockout(5, Some(fifth), at("2026-03-16T10:14:59Z")),
            Some(at("2026-03-16T10:15:00Z"))
        );
        assert_eq!(lockout(5, Some(fifth), at("2026-03-16T10:15:00Z")), None);
        // four lock nothing; a sixth (recorded only once the lockout ran out) starts a new run,
        // which the tenth ends
        assert_eq!(lockout(4, Some(fifth), fifth), None);
        assert_eq!(lockout(6, Some(fifth), fifth), None);
        assert_eq!(
            lockout(10, Some(fifth), fifth),
            Some(at("2026-03-16T10:15:00Z"))
        );
        assert_eq!(lockout(0, None, fifth), None);
    }

    #[test]
    fn sign_ins_are_recorded_and_a_locked_account_refuses_the_right_password() {
        let mut store = Store::in_memory().unwrap();
        let id = store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "ana", Role::Oficial, "una clave larga")
            })
            .unwrap();
        let attempt = |store: &mut Store, role: Option<Role>, now: DateTime<Utc>| {
            store
                .write::<_, super::super::Error>(NOT_SIGNED_IN, |tx| sign_in(tx, id, role, now))
                .unwrap()
        };
        let now = Utc::now();
        for _ in 0..4 {
            assert_eq!(attempt(&mut store, None, now), SignIn::Refused);
        }
        assert_eq!(locked_until(store.conn(), id, now).unwrap(), None);
        assert_eq!(attempt(&mut store, None, now), SignIn::Refused);
        let fifth = users::failures_since_sign_in(store.conn(), id).unwrap();
        assert_eq!(fifth.count, 5);
        let until = at(fifth.latest_at.as_deref().unwrap()) + TimeDelta::minutes(15);
        assert_eq!(locked_until(store.conn(), id, now).unwrap(), Some(until));
        let locked = attempt(&mut store, Some(Role::Oficial), now);
        assert_eq!(locked, SignIn::Locked(until));
        assert_eq!(
            users::failures_since_sign_in(store.conn(), id)
                .unwrap()
                .count,
            5,
            "nothing recorded while locked"
        );
        // once the lockout ran out the right password signs in, and the count starts again
        let signed = attempt(&mut store, Some(Role::Oficial), until);
        assert_eq!(signed, SignIn::Accepted(Role::Oficial));
        let after = users::failures_since_sign_in(store.conn(), id).unwrap();
        assert_eq!((after.count, after.latest_at), (0, None));
        let v = crate::store::audit::verify(store.conn()).unwrap();
        assert!(v.first_mismatch.is_none(), "{v:?}");
    }

    #[test]
    fn a_missing_or_disabled_account_never_authenticates() {
        assert!(authenticate(None, "una clave larga").is_none());
        let mut store = Store::in_memory().unwrap();
        store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "ana", Role::Oficial, "una clave larga")?;
                disable(tx, "ana")
            })
            .unwrap();
        let u = users::by_name(store.conn(), "ana").unwrap();
        assert!(authenticate(u, "una clave larga").is_none());
    }

    #[test]
    fn nobody_disables_the_account_they_act_as() {
        let mut store = Store::in_memory().unwrap();
        for name in ["adela", "beto"] {
            store
                .write::<_, super::super::Error>("root", |tx| {
                    add(tx, name, Role::Admin, "una clave larga")
                })
                .unwrap();
        }
        let own = store.write::<_, super::super::Error>("adela", |tx| disable(tx, "adela"));
        let e = own.unwrap_err().to_string();
        assert!(e.contains("cannot disable their own account"), "{e}");
        let u = users::by_name(store.conn(), "adela").unwrap().unwrap();
        assert!(!u.disabled, "nothing was written");
        // another administrator may
        store
            .write::<_, super::super::Error>("beto", |tx| disable(tx, "adela"))
            .unwrap();
        assert!(
            users::by_name(store.conn(), "adela")
                .unwrap()
                .unwrap()
                .disabled
        );
    }

    #[test]
    fn the_last_enabled_administrator_is_not_disabled() {
        let mut store = Store::in_memory().unwrap();
        for (name, role) in [
            ("adela", Role::Admin),
            ("beto", Role::Admin),
            ("oscar", Role::Oficial),
        ] {
            store
                .write::<_, super::super::Error>("root", |tx| {
                    add(tx, name, role, "una clave larga")
                })
                .unwrap();
        }
        // two administrators: one may go
        store
            .write::<_, super::super::Error>("root", |tx| disable(tx, "beto"))
            .unwrap();
        let disables = |store: &Store| -> i64 {
            store
                .conn()
                .query_row("SELECT count(*) FROM user_disables", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(disables(&store), 1);
        // the other is the last enabled one (a disabled administrator does not count)
        match store.write::<_, super::super::Error>("root", |tx| disable(tx, "adela")) {
            Err(super::super::Error::Refused(Refusal::Rule(said))) => {
                assert_eq!(
                    said.en(),
                    "user adela is the last enabled administrator; add another administrator \
                     before disabling this one, or nobody could manage the accounts"
                );
                assert_eq!(
                    said.es(),
                    "el usuario adela es el último administrador habilitado; agregue otro \
                     administrador antes de deshabilitarlo, o nadie podría gestionar las cuentas"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!users::get(store.conn(), "adela").unwrap().disabled);
        assert_eq!(disables(&store), 1, "nothing was written");
        // an account of another role may still be disabled
        store
            .write::<_, super::super::Error>("adela", |tx| disable(tx, "oscar"))
            .unwrap();
        // with a new administrator, the first may go
        store
            .write::<_, super::super::Error>("adela", |tx| {
                add(tx, "carmen", Role::Admin, "una clave larga")
            })
            .unwrap();
        store
            .write::<_, super::super::Error>("carmen", |tx| disable(tx, "adela"))
            .unwrap();
    }

    #[test]
    fn a_new_password_ends_a_lockout_and_starts_the_count_again() {
        let mut store = Store::in_memory().unwrap();
        let id = store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "ana", Role::Oficial, "una clave larga")
            })
            .unwrap();
        let fail = |store: &mut Store, now: DateTime<Utc>| {
            store
                .write::<_, super::super::Error>(NOT_SIGNED_IN, |tx| sign_in(tx, id, None, now))
                .unwrap()
        };
        let new_password = |store: &mut Store| {
            store
                .write::<_, super::super::Error>("adela", |tx| {
                    set_password(tx, "ana", "otra clave larga")
                })
                .unwrap();
        };
        // every write here falls within a second or two: which came first is the trail's order,
        // not the times recorded (whole seconds)
        let now = Utc::now();
        for _ in 0..5 {
            assert_eq!(fail(&mut store, now), SignIn::Refused);
        }
        assert!(locked_until(store.conn(), id, now).unwrap().is_some());
        new_password(&mut store);
        assert_eq!(locked_until(store.conn(), id, now).unwrap(), None);
        let f = users::failures_since_sign_in(store.conn(), id).unwrap();
        assert_eq!((f.count, f.latest_at), (0, None));
        // the count starts again from the new password: four lock nothing, the fifth locks
        for _ in 0..4 {
            assert_eq!(fail(&mut store, now), SignIn::Refused);
        }
        assert_eq!(locked_until(store.conn(), id, now).unwrap(), None);
        assert_eq!(
            users::failures_since_sign_in(store.conn(), id)
                .unwrap()
                .count,
            4
        );
        assert_eq!(fail(&mut store, now), SignIn::Refused);
        let until = locked_until(store.conn(), id, now).unwrap();
        assert!(until.is_some());
        assert_eq!(
            sign_in_now(&mut store, id, now),
            SignIn::Locked(until.unwrap())
        );
        // a successful sign-in after a new password counts from itself, as before
        new_password(&mut store);
        assert_eq!(
            sign_in_now(&mut store, id, now),
            SignIn::Accepted(Role::Oficial)
        );
        assert_eq!(fail(&mut store, now), SignIn::Refused);
        assert_eq!(
            users::failures_since_sign_in(store.conn(), id)
                .unwrap()
                .count,
            1
        );
        // (the password set before that success counts for nothing now)
        let other = store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "beto", Role::Oficial, "una clave larga")
            })
            .unwrap();
        store
            .write::<_, super::super::Error>(NOT_SIGNED_IN, |tx| sign_in(tx, other, None, now))
            .unwrap();
        assert_eq!(
            users::failures_since_sign_in(store.conn(), id)
                .unwrap()
                .count,
            1,
            "another account's attempts are not this one's"
        );
        let v = crate::store::audit::verify(store.conn()).unwrap();
        assert!(v.first_mismatch.is_none(), "{v:?}");
    }

    /// A sign-in to account `id` with its password, at `now`.
    fn sign_in_now(store: &mut Store, id: i64, now: DateTime<Utc>) -> SignIn {
        store
            .write::<_, super::super::Error>("ana", |tx| sign_in(tx, id, Some(Role::Oficial), now))
            .unwrap()
    }

    #[test]
    fn a_session_stands_while_its_account_is_enabled_with_the_same_password() {
        let mut store = Store::in_memory().unwrap();
        let id = store
            .write::<_, super::super::Error>("admin", |tx| {
                add(tx, "ana", Role::Juridico, "una clave larga")
            })
            .unwrap();
        let signed = users::by_id(store.conn(), id).unwrap().unwrap().password_id;
        assert!(signed.is_some());
        assert_eq!(
            standing(store.conn(), id, signed).unwrap(),
            Standing::InForce(Role::Juridico)
        );
        assert_eq!(
            standing(store.conn(), id + 1, signed).unwrap(),
            Standing::Disabled,
            "no account"
        );
        store
            .write::<_, super::super::Error>("admin", |tx| {
                set_password(tx, "ana", "otra clave larga")
            })
            .unwrap();
        assert_eq!(
            standing(store.conn(), id, signed).unwrap(),
            Standing::NewPassword
        );
        let again = users::by_id(store.conn(), id).unwrap().unwrap().password_id;
        assert_ne!(again, signed);
        assert_eq!(
            standing(store.conn(), id, again).unwrap(),
            Standing::InForce(Role::Juridico)
        );
        store
            .write::<_, super::super::Error>("admin", |tx| disable(tx, "ana"))
            .unwrap();
        assert_eq!(
            standing(store.conn(), id, again).unwrap(),
            Standing::Disabled
        );
    }

    #[test]
    fn roles_are_ordered() {
        assert!(Role::Consulta < Role::Oficial && Role::Oficial < Role::Juridico);
        assert!(Role::Juridico < Role::Admin);
        assert_eq!("juridico".parse::<Role>(), Ok(Role::Juridico));
    }
}
