//! A program's letterhead (issuer, NIT, return address, city, payment bank, account and
//! reference, signatory's name and position) as register data: changed by a new version, never
//! an edit and never a new program code (`program letters set`, the web's «Cartas»), each
//! version audited; and what a notice or a paz y salvo needs of it before it is issued. Inside
//! the caller's write transaction; the wording of documents is `report`'s.

use super::{Field, Refusal, Result};
use crate::ids::{DocType, normalized};
use crate::lang::{Said, Shown};
use crate::program::Issuer;
use crate::said;
use crate::store::Tx;
use crate::store::letterheads::{self, Letterhead};
use crate::store::programs::StoredProgram;
use rusqlite::Connection;

/// What `letters set` changes: each `Some` replaces that part (an empty text clears it); `None`
/// keeps the one in force (the register's, or the program file's `[letters.issuer]` before the
/// first version).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Update {
    pub entity: Option<String>,
    pub nit: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub bank: Option<String>,
    pub account: Option<String>,
    pub reference: Option<String>,
    pub signatory_name: Option<String>,
    pub signatory_position: Option<String>,
}

/// A part of the letterhead a document cannot go without.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The entity that writes on the sellers' behalf.
    Entity,
    SignatoryName,
    /// The signatory's position (*cargo*).
    SignatoryPosition,
    /// Where the holder answers and the post returns an undelivered letter.
    ReturnAddress,
    PaymentBank,
    PaymentAccount,
}

impl Part {
    pub const ALL: [Part; 6] = [
        Part::Entity,
        Part::SignatoryName,
        Part::SignatoryPosition,
        Part::ReturnAddress,
        Part::PaymentBank,
        Part::PaymentAccount,
    ];

    /// Its name in each language.
    pub fn said(self) -> Said {
        match self {
            Part::Entity => said!(register_fines::issuer),
            Part::SignatoryName => said!(register_fines::signatory_s_name),
            Part::SignatoryPosition => said!(register_fines::signatory_s_position),
            Part::ReturnAddress => said!(register_fines::return_address),
            Part::PaymentBank => said!(register_fines::payment_bank),
            Part::PaymentAccount => said!(register_fines::payment_account),
        }
    }

    fn of(self, i: &Issuer) -> &Option<String> {
        match self {
            Part::Entity => &i.entity,
            Part::SignatoryName => &i.signatory_name,
            Part::SignatoryPosition => &i.signatory_position,
            Part::ReturnAddress => &i.address,
            Part::PaymentBank => &i.bank,
            Part::PaymentAccount => &i.account,
        }
    }
}

/// Which document asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum For {
    /// A payment demand: everything, the payment account included.
    Notice,
    /// A paz y salvo: who certifies and where to answer; nothing is paid on it.
    Settlement,
}

/// What `issuer` lacks for a document of kind `kind`, in [`Part::ALL`]'s order.
pub fn missing(issuer: &Issuer, kind: For) -> Vec<Part> {
    Part::ALL
        .into_iter()
        .filter(|p| kind == For::Notice || !matches!(p, Part::PaymentBank | Part::PaymentAccount))
        .filter(|p| p.of(issuer).as_deref().is_none_or(|v| v.trim().is_empty()))
        .collect()
}

/// "a, b and c" / "a, b y c".
fn listed(parts: &[Part]) -> Said {
    let join = |words: Vec<String>, and: &str| match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {and} {last}", rest.join(", ")),
        _ => words.concat(),
    };
    let en = join(
        parts.iter().map(|p| p.said().en().to_string()).collect(),
        "and",
    );
    let es = join(
        parts.iter().map(|p| p.said().es().to_string()).collect(),
        "y",
    );
    Said::new(en, es)
}

/// The letterhead in force for new documents of `program`, refused when there is none or it
/// lacks a part `kind` needs (naming every one missing).
pub fn require(conn: &Connection, program: &StoredProgram, kind: For) -> Result<Letterhead> {
    let code = &program.program.code;
    let Some(l) = letterheads::current(conn, program.id)? else {
        let all = listed(&missing(&Issuer::default(), kind));
        let (en, es) = (all.en(), all.es());
        return Err(Refusal::Value {
            field: Field::Letterhead,
            value: code.as_str().said(),
            reason: said!(
                register_fines::has_no_letterhead_register_letter_needs,
                en,
                es
            ),
            remedy: Some(Field::Letterhead),
        }
        .into());
    };
    let lacks = missing(&l.issuer, kind);
    if lacks.is_empty() {
        return Ok(l);
    }
    let lacks = listed(&lacks);
    let (en, es) = (lacks.en(), lacks.es());
    let (doc_en, doc_es) = match kind {
        For::Notice => ("notice", "un aviso de cobro"),
        For::Settlement => ("paz y salvo", "un paz y salvo"),
    };
    Err(Refusal::Value {
        field: Field::Letterhead,
        value: code.as_str().said(),
        reason: said!(
            register_fines::letterhead_lacks_which_needs,
            en,
            doc_en,
            es,
            doc_es
        ),
        remedy: Some(Field::Letterhead),
    }
    .into())
}

/// Records a new version of `program`'s letterhead: the one in force (the register's, else the
/// program file's) with `u`'s changes. Refused when the NIT's check digit or the reference's
/// placeholders are wrong, and when it changes nothing.
pub fn set(tx: &mut Tx<'_>, program: &StoredProgram, u: &Update) -> Result<Letterhead> {
    let current = letterheads::current(tx.conn(), program.id)?;
    let base = current.as_ref().map_or_else(
        || program.program.letters.issuer.clone(),
        |l| l.issuer.clone(),
    );
    let pick = |new: &Option<String>, old: &Option<String>| match new {
        Some(v) if v.trim().is_empty() => None,
        Some(v) => Some(v.split_whitespace().collect::<Vec<_>>().join(" ")),
        None => old.clone(),
    };
    let mut next = Issuer {
        entity: pick(&u.entity, &base.entity),
        nit: pick(&u.nit, &base.nit),
        address: pick(&u.address, &base.address),
        city: pick(&u.city, &base.city),
        bank: pick(&u.bank, &base.bank),
        account: pick(&u.account, &base.account),
        reference: pick(&u.reference, &base.reference),
        signatory_name: pick(&u.signatory_name, &base.signatory_name),
        signatory_position: pick(&u.signatory_position, &base.signatory_position),
    };
    if let Some(nit) = &next.nit {
        let n =
            normalized(DocType::Nit, nit).map_err(|m| Refusal::value(Field::IssuerNit, nit, m))?;
        next.nit = Some(n);
    }
    if let Some(r) = &next.reference {
        let rest = r
            .replace("{number}", "")
            .replace("{doc}", "")
            .replace("{breach}", "");
        if rest.contains('{') || rest.contains('}') {
            return Err(Refusal::value(
                Field::PaymentReference,
                r,
                said!(register_fines::only_number_doc_breach_replaced_payment),
            )
            .into());
        }
    }
    if current.as_ref().is_some_and(|c| c.issuer == next) {
        return Err(Refusal::Rule(said!(
            register_fines::nothing_change_letterhead_force_already_says
        ))
        .into());
    }
    let id = letterheads::insert(tx, program.id, &next)?;
    Ok(letterheads::get(tx.conn(), id)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_needs_the_payment_account_and_a_paz_y_salvo_does_not() {
        let mut i = Issuer {
            entity: Some("Fiduciaria Ejemplo S.A.".into()),
            signatory_name: Some("Ana Firma".into()),
            address: Some("Calle 1 # 2-3".into()),
            ..Issuer::default()
        };
        assert_eq!(
            missing(&i, For::Notice),
            [
                Part::SignatoryPosition,
                Part::PaymentBank,
                Part::PaymentAccount
            ]
        );
        assert_eq!(missing(&i, For::Settlement), [Part::SignatoryPosition]);
        i.signatory_position = Some("  ".into());
        assert_eq!(
            missing(&i, For::Settlement),
            [Part::SignatoryPosition],
            "blank is missing"
        );
        let l = listed(&missing(&i, For::Notice));
        assert_eq!(
            l.en(),
            "the signatory's position, the payment bank and the payment account"
        );
        assert_eq!(
            l.es(),
            "el cargo de quien firma, el banco de pago y la cuenta de pago"
        );
    }
}
