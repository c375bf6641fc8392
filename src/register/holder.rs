//! A holder's contact details (address, city, e-mail): corrected by a new version, never an edit
//! (`holder update`), each version audited. Inside the caller's write transaction.

use super::{Field, Refusal, Result};
use crate::ids::DocType;
use crate::lang::Shown;
use crate::said;
use crate::store::Tx;
use crate::store::contacts::{self, Contact};
use rusqlite::{Connection, params};

/// A holder found by document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub id: i64,
    pub doc_type: String,
    pub doc_number: String,
    pub name: String,
}

/// The holder with document number `doc` (normalized: dots and spaces dropped); `doc_type` when
/// the number alone names several holders.
pub fn find(conn: &Connection, doc: &str, doc_type: Option<DocType>) -> Result<Found> {
    let number = match doc_type {
        Some(t) => crate::ids::normalized(t, doc),
        None => crate::ids::normalized_any(doc),
    }
    .map_err(|m| Refusal::value(Field::Holder, doc, m))?;
    let mut stmt = conn.prepare(
        "SELECT id, doc_type, doc_number, name FROM holders WHERE doc_number = ?1 ORDER BY id",
    )?;
    let mut found: Vec<Found> = stmt
        .query_map(params![number], |r| {
            Ok(Found {
                id: r.get(0)?,
                doc_type: r.get(1)?,
                doc_number: r.get(2)?,
                name: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    if let Some(t) = doc_type {
        found.retain(|h| h.doc_type == t.as_str());
    }
    match found.len() {
        0 => Err(Refusal::value(
            Field::Holder,
            doc,
            said!(register_holdings::no_holder_has_this_document),
        )
        .into()),
        1 => Ok(found.remove(0)),
        n => Err(Refusal::Value {
            field: Field::Holder,
            value: doc.said(),
            reason: said!(
                register_holdings::holders_have_this_number_with_different,
                n
            ),
            remedy: Some(Field::DocType),
        }
        .into()),
    }
}

/// What `holder update` changes: each `Some` replaces that detail (an empty text clears it);
/// `None` keeps the current one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Update {
    pub address: Option<String>,
    pub city: Option<String>,
    pub email: Option<String>,
}

/// Records a new version of a holder's contact details; refused when it changes nothing or an
/// e-mail address is not one.
pub fn update(tx: &mut Tx<'_>, holder_id: i64, u: &Update) -> Result<(Contact, i64)> {
    let current = contacts::current(tx.conn(), holder_id)?.unwrap_or_default();
    let pick = |new: &Option<String>, old: &Option<String>| match new {
        Some(v) if v.trim().is_empty() => None,
        Some(v) => Some(v.split_whitespace().collect::<Vec<_>>().join(" ")),
        None => old.clone(),
    };
    let next = Contact {
        address: pick(&u.address, &current.address),
        city: pick(&u.city, &current.city),
        email: pick(&u.email, &current.email),
    };
    if let Some(e) = &next.email
        && !plausible_email(e)
    {
        return Err(Refusal::value(
            Field::Email,
            e,
            said!(register_holdings::not_e_mail_address_one_domain),
        )
        .into());
    }
    if next == current {
        return Err(Refusal::Rule(said!(
            register_holdings::nothing_change_holder_s_address_city
        ))
        .into());
    }
    let id = contacts::insert(tx, holder_id, &next, crate::store::Action::HolderUpdate)?;
    Ok((next, id))
}

pub use crate::contact::plausible_email;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert!(plausible_email("ana@example.co"));
        for bad in [
            "ana", "@x.co", "a@b", "a@@b.co", "a b@c.co", "a@.co", "a@c.co.",
        ] {
            assert!(!plausible_email(bad), "{bad}");
        }
    }
}
