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

/// The ids of a holder's adjudications, in order, through the `adjudications_holder` index (a
/// national register holds a million adjudications: a holder's page never scans them).
pub fn adjudication_ids(conn: &Connection, holder_id: i64) -> Result<Vec<i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT id FROM adjudications WHERE holder_id = ?1 ORDER BY id")?;
    let ids = stmt.query_map(params![holder_id], |r| r.get(0))?;
    Ok(ids.collect::<rusqlite::Result<_>>()?)
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

/// The document search: the unique (doc_type, doc_number) index, sought once per document
/// type (`doc_type IN` its seven values) since the person types no type; `doc_number = ?` alone
/// would scan the whole index.
const BY_DOCUMENT: &str = "SELECT id, doc_type, doc_number, name, person_type FROM holders
     WHERE doc_type IN (?2, ?3, ?4, ?5, ?6, ?7, ?8) AND doc_number = ?1 ORDER BY id";

/// The name search: a range of the `COLLATE NOCASE` name index. A prefix `LIKE ?` with a bound
/// pattern cannot use the index here (the register's connections keep one plan per statement,
/// whatever is bound: SQLITE_DBCONFIG_ENABLE_QPSG), so the range does the finding and `LIKE`
/// only confirms.
const BY_NAME: &str = "SELECT id, doc_type, doc_number, name, person_type FROM holders
     WHERE name >= ?1 COLLATE NOCASE AND name < ?2 COLLATE NOCASE AND name LIKE ?3
     ORDER BY name COLLATE NOCASE, id LIMIT ?4";

/// Holders whose document is `q` (as typed, dotted or not) or whose name starts with `q`
/// (letter case ignored for ASCII letters), at most `limit`, documents first, names in order.
pub fn search(conn: &Connection, q: &str, limit: usize) -> Result<Vec<Holder>> {
    let q = q.trim();
    if q.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    if let Some(key) = document_key(q) {
        let mut stmt = conn.prepare_cached(BY_DOCUMENT)?;
        let types = crate::ids::DocType::ALL.map(|t| t.as_str());
        let [a, b, c, d, e, f, g] = types;
        for h in stmt.query_map(params![key, a, b, c, d, e, f, g], row)? {
            out.push(h?);
        }
        return Ok(out);
    }
    // LIKE's wildcards typed by the person are dropped (no name holds them)
    let prefix: String = q.chars().filter(|c| !matches!(c, '%' | '_')).collect();
    if prefix.is_empty() {
        return Ok(out);
    }
    // every name that starts with `prefix` sorts from it to it followed by the last character
    let upper = format!("{prefix}\u{10FFFF}");
    let pattern = format!("{prefix}%");
    let mut stmt = conn.prepare_cached(BY_NAME)?;
    for h in stmt.query_map(params![prefix, upper, pattern, limit as i64], row)? {
        out.push(h?);
    }
    Ok(out)
}

/// The first page of every holder: the name index read from its start.
const FIRST_PAGE: &str = "SELECT id, doc_type, doc_number, name, person_type FROM holders
     ORDER BY name COLLATE NOCASE, id LIMIT ?1";

/// A later page: the name index from the last holder shown (`?1` its name, `?2` its id); the
/// `>=` bound seeks the index, the rest skips the holders of that name already shown.
const PAGE_AFTER: &str = "SELECT id, doc_type, doc_number, name, person_type FROM holders
     WHERE name >= ?1 COLLATE NOCASE AND (name > ?1 COLLATE NOCASE OR id > ?2)
     ORDER BY name COLLATE NOCASE, id LIMIT ?3";

/// A page of every holder in the name search's order (`COLLATE NOCASE`, then id): the first
/// `limit` (`after` `None`), or the `limit` after holder `after` in that order. A range of the
/// name index from `after`'s name, so a later page reads no row before it (a million holders).
pub fn page(conn: &Connection, after: Option<i64>, limit: usize) -> Result<Vec<Holder>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = match after {
        None => conn
            .prepare_cached(FIRST_PAGE)?
            .query_map(params![limit], row)?
            .collect::<rusqlite::Result<Vec<_>>>()?,
        Some(after) => {
            let Some(last) = get(conn, after)? else {
                return Ok(Vec::new());
            };
            conn.prepare_cached(PAGE_AFTER)?
                .query_map(params![last.name, last.id, limit], row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        }
    };
    Ok(rows)
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
    fn a_holders_adjudications_are_found_through_the_index() {
        let store = crate::store::Store::in_memory().unwrap();
        let plan: Vec<String> = store
            .conn()
            .prepare(
                "EXPLAIN QUERY PLAN SELECT id FROM adjudications WHERE holder_id = 7 ORDER BY id",
            )
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert!(
            plan.iter().any(|p| p.contains("adjudications_holder")),
            "{plan:?}"
        );
    }

    /// The plan of a statement with its parameters left unbound (as they are when planned).
    fn plan(conn: &Connection, sql: &str) -> Vec<String> {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let mut rows = stmt.raw_query();
        let mut out = Vec::new();
        while let Some(r) = rows.next().unwrap() {
            out.push(r.get::<_, String>(3).unwrap());
        }
        out
    }

    #[test]
    fn both_searches_seek_an_index_and_scan_nothing() {
        let store = crate::store::Store::in_memory().unwrap();
        let by_name = plan(store.conn(), BY_NAME);
        assert!(
            by_name
                .iter()
                .any(|p| p.contains("holders_name_nocase") && p.contains("name>? AND name<?")),
            "{by_name:?}"
        );
        let by_doc = plan(store.conn(), BY_DOCUMENT);
        assert!(
            by_doc
                .iter()
                .any(|p| p.contains("SEARCH") && p.contains("doc_type=? AND doc_number=?")),
            "{by_doc:?}"
        );
        for p in by_name.iter().chain(&by_doc) {
            assert!(!p.contains("SCAN"), "{p}");
        }
    }

    #[test]
    fn the_pages_of_every_holder_read_the_name_index_in_order() {
        let store = crate::store::Store::in_memory().unwrap();
        for q in [FIRST_PAGE, PAGE_AFTER] {
            let p = plan(store.conn(), q);
            assert!(
                p.iter().any(|p| p.contains("INDEX holders_name_nocase")),
                "{p:?}"
            );
            assert!(!p.iter().any(|p| p.contains("TEMP B-TREE")), "{p:?}");
        }
        assert!(
            plan(store.conn(), PAGE_AFTER)
                .iter()
                .any(|p| p.starts_with("SEARCH"))
        );
        // ids 1 to 6 in this order; by name, letter case ignored, then id: 2 «ana», 5 «Ana»,
        // 6 «ANA», 3 «Andrés», 1 «bea», 4 «Bea»
        for (i, n) in ["bea", "ana", "Andrés", "Bea", "Ana", "ANA"]
            .iter()
            .enumerate()
        {
            store
                .conn()
                .execute(
                    "INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, created_by)
                     VALUES ('CC', ?1, ?2, 'natural', 'x', 'x')",
                    params![i.to_string(), n],
                )
                .unwrap();
        }
        let ids = |after, limit| -> Vec<i64> {
            page(store.conn(), after, limit)
                .unwrap()
                .into_iter()
                .map(|h| h.id)
                .collect()
        };
        assert_eq!(ids(None, 10), [2, 5, 6, 3, 1, 4]);
        assert_eq!(ids(None, 2), [2, 5]);
        assert_eq!(ids(Some(5), 2), [6, 3]);
        assert_eq!(ids(Some(3), 2), [1, 4]);
        assert!(ids(Some(4), 2).is_empty());
        assert!(ids(Some(99), 2).is_empty(), "no such holder: no page");
    }

    #[test]
    fn names_and_documents_are_found_as_typed() {
        let store = crate::store::Store::in_memory().unwrap();
        for (t, d, n) in [
            ("CC", "1000000001", "Ana María Pérez"),
            ("CC", "2", "ana lucía"),
            ("CC", "3", "Andrés"),
            ("NIT", "900000001-2", "Anagrama S.A.S."),
            ("CE", "2", "Bea"),
        ] {
            store
                .conn()
                .execute(
                    "INSERT INTO holders (doc_type, doc_number, name, person_type, created_at, created_by)
                     VALUES (?1, ?2, ?3, 'natural', 'x', 'x')",
                    params![t, d, n],
                )
                .unwrap();
        }
        let names = |q: &str, limit| -> Vec<String> {
            search(store.conn(), q, limit)
                .unwrap()
                .into_iter()
                .map(|h| h.name)
                .collect()
        };
        assert_eq!(
            names("ana", 50),
            ["ana lucía", "Ana María Pérez", "Anagrama S.A.S."]
        );
        assert_eq!(names("ANA M", 50), ["Ana María Pérez"]);
        assert_eq!(names("An", 2), ["ana lucía", "Ana María Pérez"]);
        assert_eq!(names("Andr%", 50), ["Andrés"]);
        assert_eq!(names("Anagrama S.A.S.", 50), ["Anagrama S.A.S."]);
        assert!(names("Anaz", 50).is_empty());
        assert!(names("%", 50).is_empty());
        assert_eq!(names("1.000.000.001", 50), ["Ana María Pérez"]);
        assert_eq!(names("900000001-2", 50), ["Anagrama S.A.S."]);
        assert_eq!(names("2", 50), ["ana lucía", "Bea"]);
    }
}
