//! Accounts of the web interface: who may sign in and with which role (consulta < oficial <
//! juridico < admin), argon2id password hashes, and the rules for adding, disabling and changing
//! passwords, inside the caller's write transaction. No front end and no session here.

use super::{Refusal, Result};
use crate::said;
use crate::store::Tx;
use crate::store::users::{self, User};
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use std::fmt;

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

/// An argon2id hash (PHC string, random salt, the crate's default parameters) of `password`.
pub fn hash_password(password: &str) -> std::result::Result<String, Refusal> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| {
        Refusal::Rule(said!(
            "no random salt available: {e}",
            "no se pudo obtener una sal aleatoria: {e}"
        ))
    })?;
    argon2::Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| {
            Refusal::Rule(said!(
                "cannot hash the password: {e}",
                "no se pudo calcular el hash de la contraseña: {e}"
            ))
        })
}

/// Whether `password` is the one `phc` was made from.
pub fn password_matches(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

fn check_password(password: &str) -> std::result::Result<(), Refusal> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(Refusal::Rule(said!(
            "the password is too short: at least {MIN_PASSWORD} characters",
            "la contraseña es demasiado corta: debe tener al menos {MIN_PASSWORD} caracteres"
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
        return Err(Refusal::Rule(said!(
            "{name:?} is not a user name: 1 to 64 letters, digits, '.', '-', '_' or '@'",
            "«{name}» no es un nombre de usuario válido: de 1 a 64 letras, dígitos, «.», «-», «_» o «@»"
        ))
        .into());
    }
    if users::by_name(tx.conn(), name)?.is_some() {
        return Err(Refusal::Rule(said!(
            "there is already a user called {name}",
            "ya existe un usuario llamado {name}"
        ))
        .into());
    }
    check_password(password)?;
    let phc = hash_password(password)?;
    let id = users::insert(tx, name, role.as_str())?;
    users::set_password(tx, id, &phc)?;
    Ok(id)
}

/// Changes an account's password.
pub fn set_password(tx: &mut Tx<'_>, name: &str, password: &str) -> Result<User> {
    let user = users::get(tx.conn(), name)?;
    check_password(password)?;
    let phc = hash_password(password)?;
    users::set_password(tx, user.id, &phc)?;
    Ok(user)
}

/// Disables an account: it can no longer sign in (it stays on record). Nobody disables the
/// account they act as (an administrator would lock themself out, perhaps the last one).
pub fn disable(tx: &mut Tx<'_>, name: &str) -> Result<User> {
    let user = users::get(tx.conn(), name)?;
    if user.name == tx.actor() {
        return Err(Refusal::Rule(said!(
            "user {name} cannot disable their own account; another administrator must do it",
            "el usuario {name} no puede deshabilitar su propia cuenta; debe hacerlo otro administrador"
        ))
        .into());
    }
    if user.disabled {
        return Err(Refusal::Rule(said!(
            "user {name} is already disabled",
            "el usuario {name} ya está deshabilitado"
        ))
        .into());
    }
    users::disable(tx, user.id)?;
    Ok(user)
}

/// The account `name` signs in as with `password`: enabled, with that password. `None` for any
/// other case (the caller does not say which).
pub fn authenticate(user: Option<User>, password: &str) -> Option<(User, Role)> {
    let user = user?;
    let role: Role = user.role.parse().ok()?;
    let ok = !user.disabled
        && user
            .phc
            .as_deref()
            .is_some_and(|phc| password_matches(phc, password));
    ok.then_some((user, role))
}

#[cfg(test)]
mod tests {
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
    fn roles_are_ordered() {
        assert!(Role::Consulta < Role::Oficial && Role::Oficial < Role::Juridico);
        assert!(Role::Juridico < Role::Admin);
        assert_eq!("juridico".parse::<Role>(), Ok(Role::Juridico));
    }
}
