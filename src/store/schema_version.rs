//! A schema version lowered by hand (issue 24 item 8): `PRAGMA user_version` says how many
//! migrations ran, and vigia applies the rest. Were the number lowered, the next migration would
//! meet tables that already exist and SQLite would answer with that migration's whole SQL. So
//! before migrating, the tables the pending migrations create are looked for: one that is there
//! already means the number was changed, and the register is refused as it is.

use super::{MIGRATIONS, Result, StoreError};
use rusqlite::Connection;

/// The tables a migration's SQL creates, in order (`CREATE TABLE name`).
fn tables_created(sql: &str) -> impl Iterator<Item = &str> {
    sql.lines().filter_map(|line| {
        let rest = line.trim_start().strip_prefix("CREATE TABLE ")?;
        let rest = rest.strip_prefix("IF NOT EXISTS ").unwrap_or(rest);
        let name = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()?;
        (!name.is_empty()).then_some(name)
    })
}

/// Refuses a register whose version `found` is below a table it holds: the highest migration
/// whose table is there is the version it should say.
pub(super) fn not_lowered(conn: &Connection, found: i64) -> Result<()> {
    let skip = usize::try_from(found).unwrap_or(0);
    let mut stmt =
        conn.prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?;
    let mut first: Option<(String, i64)> = None;
    let mut holds = None;
    for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(skip) {
        let number = i64::try_from(i).map_or(i64::MAX, |i| i.saturating_add(1));
        for table in tables_created(sql) {
            if stmt.exists([table])? {
                first.get_or_insert_with(|| (table.to_string(), number));
                holds = Some(number);
            }
        }
    }
    match (first, holds) {
        (Some((table, created_by)), Some(holds)) => Err(StoreError::VersionLowered {
            found,
            table,
            created_by,
            holds,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_but_the_indexes_creates_a_table_the_reader_finds() {
        // worked out from schema/: 0003 only adds indexes; each other migration creates tables,
        // 0001 fourteen of them
        let counts: Vec<usize> = MIGRATIONS
            .iter()
            .map(|(_, sql)| tables_created(sql).count())
            .collect();
        assert_eq!(counts[0], 14);
        assert_eq!(counts[2], 0);
        assert!(counts.iter().enumerate().all(|(i, &n)| i == 2 || n > 0));
        assert_eq!(
            tables_created(MIGRATIONS[15].1).collect::<Vec<_>>(),
            ["bulk_row_prints"]
        );
    }
}
