//! Finding holders for the web interface: by document number (dots, spaces and a NIT's dash as
//! typed are tolerated) or by the start of the name, through indexes only (a national register
//! holds a million holders).

use super::Result;
use super::adjudications::Holder;
use super::columns::Cols;
use rusqlite::{Connection, OptionalExtension, params};

/// One holder by id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Holder>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, doc_type, doc_number, name, person_type FROM holders WHERE id = ?1",
        )?
        .query_row(params![id], row)
        .optional()?)
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Holder> {
    let c = Cols::new(r, "holders");
    Ok(Holder {
        id: c.get(0)?,
        doc_type: c.get(1)?,
        doc_number: c.get(2)?,
        name: c.get(3)?,
        person_type: c.get(4)?,
    })
}

/// The document number as stored: without dots or spaces (`1.000.000.001` → `1000000001`).
pub fn document_key(q: &str) -> Option<String> {
    let key: String = q
        .chars()
        .filter(|c| !matches!(c, '.' | ' ' | '\u{a0}'))
        .collect();
    let digits = key.chars().filter(char::is_ascii_digit).count();
    (digits > 0 && key.chars().all(|c| c.is_ascii_digit() || c == '-')).then_some(key)
}

/// Holders whose document is `q` (as typed, dotted or not) or whose name starts with `q`
/// (letter case ignored for ASCII letters), at most `limit`, documents first, names in order.
pub fn search(conn: &Connection, q: &str, limit: usize) -> Result<Vec<Holder>> {
    let q = q.trim();
    if q.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    if let Some(key) = document_key(q) {
        let mut stmt = conn.prepare_cached(
            "SELECT id, doc_type, doc_number, name, person_type FROM holders WHERE doc_number = ?1",
        )?;
        for h in stmt.query_map(params![key], row)? {
            out.push(h?);
        }
        return Ok(out);
    }
    // LIKE's wildcards typed by the person are dropped (no name holds them; an ESCAPE clause
    // would keep SQLite from using the index)
    let pattern: String = q
        .chars()
        .filter(|c| !matches!(c, '%' | '_'))
        .chain(['%'])
        .collect();
    let mut stmt = conn.prepare_cached(
        "SELECT id, doc_type, doc_number, name, person_type FROM holders
         WHERE name LIKE ?1 ORDER BY name COLLATE NOCASE, id LIMIT ?2",
    )?;
    for h in stmt.query_map(params![pattern, limit as i64], row)? {
        out.push(h?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_read_dotted_or_not() {
        assert_eq!(document_key("1.000.000.001").as_deref(), Some("1000000001"));
        assert_eq!(
            document_key(" 999000001-2 ").as_deref(),
            Some("999000001-2")
        );
        assert_eq!(document_key("Ana"), None);
        assert_eq!(document_key("-"), None);
    }

    #[test]
    fn the_name_search_uses_the_index() {
        let store = crate::store::Store::in_memory().unwrap();
        let plan: Vec<String> = store
            .conn()
            .prepare(
                "EXPLAIN QUERY PLAN SELECT id FROM holders WHERE name LIKE 'ana%' ORDER BY name COLLATE NOCASE, id LIMIT 20",
            )
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert!(
            plan.iter().any(|p| p.contains("holders_name_nocase")),
            "{plan:?}"
        );
    }
}
