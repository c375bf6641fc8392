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
                "program {code} is already registered (id {id}) with different contents; programs are never edited: \
                 register the changed file under a new code",
                "el programa {code} ya está registrado (id {id}) con un contenido distinto; los programas no se \
                 modifican: registre el archivo modificado con un código nuevo"
            ))
            .into())
        }
        None => Ok(Added::New(programs::insert(tx, program, source, &sha)?)),
    }
}
