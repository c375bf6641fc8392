//! Programs (programas de enajenación): a program file is registered once under its code and
//! never edited.

use super::{Refusal, Result};
use crate::program::Program;
use crate::said;
use crate::store::Tx;
use crate::store::programs::{self, Added};

/// Registers a program file. The same file again adds nothing; a different file under an existing
/// code is refused (programs are never edited: a changed file is a new program).
pub fn add(tx: &mut Tx<'_>, program: &Program, source: &str) -> Result<Added> {
    let sha = crate::store::sha256_hex(source.as_bytes());
    match programs::sha256_of(tx.conn(), &program.code)? {
        Some((id, s)) if s == sha => Ok(Added::AlreadyThere(id)),
        Some((id, _)) => {
            let code = &program.code;
            Err(Refusal::Rule(said!(
                register::program_already_registered_id_with_different,
                code,
                id
            ))
            .into())
        }
        None => Ok(Added::New(programs::insert(tx, program, source, &sha)?)),
    }
}
