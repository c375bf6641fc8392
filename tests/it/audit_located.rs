//! Issue 24.2: a row changed by hand inside a bulk import is named by `audit verify`, table, row
//! and column, from the prints the import kept; a bulk write without prints (made before them)
//! is still reported by range.

use crate::audit::{
    as_before_prints, behind_vigias_back, intact, mismatch_in as mismatch, rehash_from,
};
use crate::common::{HEADER, Reg};

/// Adjudications in the one import: ids 1..=ROWS, one new holder each (holder ids 1..=ROWS).
const ROWS: usize = 20_000;

/// The event of the import (after init's checkpoint and the program).
const IMPORT_EVENT: i64 = 3;

fn imported() -> Reg {
    let r = Reg::new();
    let mut csv = String::from(HEADER);
    for i in 0..ROWS {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,{},,2024-03-15,,\n",
            3_000_000_000u64 + i as u64,
            100 + i % 7
        ));
    }
    let path = r.file("many.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    let (seq, action): (i64, String) = r
        .conn()
        .query_row(
            "SELECT seq, action FROM audit_events WHERE entity = 'imports'",
            [],
            |x| Ok((x.get(0)?, x.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (seq, action.as_str()),
        (IMPORT_EVENT, "adjudications.import")
    );
    intact(&r);
    r
}

#[test]
fn one_cell_changed_among_an_import_s_rows_is_named_by_row_and_column() {
    let r = imported();
    // 20,000 rows: 5 blobs of prints each for adjudications and holders (4096 rows a blob)
    let blobs: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM bulk_row_prints WHERE table_name = 'adjudications' AND first_id = 1",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(blobs, ROWS.div_ceil(4096) as i64);

    // row 12,345 (the 12,345th of the file: i = 12,344, 100 + 12,344 % 7 = 103 shares)
    let shares: i64 = r
        .conn()
        .query_row(
            "SELECT shares FROM adjudications WHERE id = 12345",
            [],
            |x| x.get(0),
        )
        .unwrap();
    assert_eq!(shares, 103);
    behind_vigias_back(&r, "UPDATE adjudications SET shares = 104 WHERE id = 12345");
    let text = mismatch(&r, &[]);
    assert!(
        text.contains(&format!(
            "AUDIT MISMATCH at event {IMPORT_EVENT} (imports 1): rows written with it no longer \
             match what was recorded: adjudications: row 12345, column shares changed"
        )),
        "{text}"
    );
    let texto = mismatch(&r, &[("VIGIA_LANG", "es")]);
    assert!(
        texto.contains("adjudications: fila 12345, columna «Acciones» (shares) modificada"),
        "{texto}"
    );
    // put back as it was, the register verifies again
    behind_vigias_back(&r, "UPDATE adjudications SET shares = 103 WHERE id = 12345");
    intact(&r);

    // a holder written by the same import: holder 777's name
    behind_vigias_back(&r, "UPDATE holders SET name = 'Otro' WHERE id = 777");
    let text = mismatch(&r, &[]);
    assert!(
        text.contains("holders: row 777, column name changed"),
        "{text}"
    );
    behind_vigias_back(&r, "UPDATE holders SET name = 'Titular 776' WHERE id = 777");
    intact(&r);

    // the last row of a blob, and a row removed
    behind_vigias_back(
        &r,
        "UPDATE adjudications SET adjudicated_on = '2024-03-16' WHERE id = 8192",
    );
    assert!(mismatch(&r, &[]).contains("adjudications: row 8192, column adjudicated_on changed"),);
    behind_vigias_back(
        &r,
        "UPDATE adjudications SET adjudicated_on = '2024-03-15' WHERE id = 8192;
         DELETE FROM adjudications WHERE id = 19999",
    );
    let text = mismatch(&r, &[]);
    assert!(text.contains("adjudications: row 19999 removed"), "{text}");
}

#[test]
fn prints_changed_with_their_row_are_caught_and_the_range_is_reported() {
    let r = imported();
    // whoever edits a row and its print too: the prints no longer match the event either
    behind_vigias_back(
        &r,
        "UPDATE adjudications SET shares = 1 WHERE id = 5;
         UPDATE bulk_row_prints SET prints = zeroblob(length(prints))
          WHERE table_name = 'adjudications' AND chunk = 0",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains(
            "(e.g. adjudications 1..20000, holders 1..20000 edited or removed by hand); the \
             prints kept of the rows of adjudications were changed too"
        ),
        "{text}"
    );
    // in Spanish, the tables by their Spanish names, the ranges «1 a 20000»
    let texto = mismatch(&r, &[("VIGIA_LANG", "es")]);
    assert!(
        texto.contains(
            "(p. ej., Adjudicaciones (adjudications) 1 a 20000, Titulares (holders) 1 a 20000 \
             editadas o borradas a mano); también se cambiaron las huellas guardadas de las \
             filas de Adjudicaciones (adjudications)"
        ),
        "{texto}"
    );
}

#[test]
fn an_import_recorded_without_prints_is_reported_by_range_as_before() {
    let r = imported();
    // the register as an import before prints were kept left it: no prints, and none in the
    // event's payload
    as_before_prints(&r, IMPORT_EVENT, None);
    intact(&r);
    behind_vigias_back(&r, "UPDATE adjudications SET shares = 104 WHERE id = 12345");
    let text = mismatch(&r, &[]);
    assert!(
        text.contains(
            "rows written with it no longer match what was recorded (e.g. adjudications \
             1..20000, holders 1..20000 edited or removed by hand)\n"
        ),
        "{text}"
    );
}

#[test]
fn a_pledge_changed_inside_a_pledge_import_is_named() {
    let r = Reg::new().with_holders();
    let mut csv = String::from(HEADER);
    for i in 0..5000 {
        csv.push_str(&format!(
            "CC,{},Titular {i},natural,trabajador,100,,2024-03-15,,\n",
            3_100_000_000u64 + i
        ));
    }
    let path = r.file("more.csv", csv.as_bytes());
    r.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
    // adjudications 4..=5003: a first-degree pledge on each
    let mut pledges = String::from("adjudication_id,rank,registered_on\n");
    for id in 4..=5003 {
        pledges.push_str(&format!("{id},1,2024-04-01\n"));
    }
    r.ok(&["pledge", "import", &r.file("p.csv", pledges.as_bytes())]);
    intact(&r);
    behind_vigias_back(
        &r,
        "UPDATE pledges SET registered_on = '2024-05-01' WHERE id = 4321",
    );
    let text = mismatch(&r, &[]);
    assert!(
        text.contains("pledges: row 4321, column registered_on changed"),
        "{text}"
    );
}

/// The web's verification page (issue 24 C): the same verification as `vigia audit verify`
/// (`register::audit::verify`), through the checkpoints of the log and of the chain, its findings
/// in Spanish.
#[test]
fn the_web_verifies_through_the_signed_checkpoints_as_the_cli_does() {
    use crate::web::{Client, PASSWORD, Server, register_with_users};
    let r = register_with_users();
    r.ok(&["audit", "checkpoint"]);
    let s = Server::start(&r);
    let (mut j, _) = Client::signed_in(&s, "julia", PASSWORD);
    let page = |j: &mut Client<'_>| j.get("/auditoria/verificar").text();
    let t = page(&mut j);
    // init's checkpoint and this one, both in the log
    assert!(
        t.contains("Cadena de auditoría íntegra") && t.contains("Puntos de control: 2 firmados"),
        "{t}"
    );

    // an imported adjudication changed by hand: its row and column named
    behind_vigias_back(&r, "UPDATE adjudications SET shares = 999 WHERE id = 2");
    let t = page(&mut j);
    assert!(
        t.contains("La auditoría NO coincide en el evento")
            && t.contains(
                "Adjudicaciones (<code>adjudications</code>): fila 2, columna «Acciones» (shares) modificada"
            )
            && !t.contains("adjudications: fila"),
        "{t}"
    );
    behind_vigias_back(&r, "UPDATE adjudications SET shares = 2500 WHERE id = 2");
    assert!(page(&mut j).contains("Cadena de auditoría íntegra"));

    // the log deleted and an account's role rewritten, its event and every hash after it too:
    // the checkpoint the chain records catches it, and nothing suggests a plain checkpoint
    let log = std::path::PathBuf::from(format!("{}.checkpoints", r.db().display()));
    std::fs::remove_file(&log).unwrap();
    let seq: i64 = r
        .conn()
        .query_row(
            "SELECT seq FROM audit_events WHERE entity = 'users' AND payload LIKE '%\"carla\"%'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    behind_vigias_back(
        &r,
        &format!(
            "UPDATE users SET role = 'admin' WHERE name = 'carla';
             UPDATE audit_events SET payload = replace(payload, '\"role\":\"consulta\"', '\"role\":\"admin\"')
              WHERE seq = {seq};"
        ),
    );
    rehash_from(&r, seq);
    let t = page(&mut j);
    assert!(
        t.contains(
            "La auditoría NO coincide con el punto de control que la cadena registra en la fila 2 de \
             audit_checkpoints"
        ) && t.contains("no es el que firmó: la cadena se reescribió hasta ese evento"),
        "{t}"
    );
    assert!(
        t.contains("FALTA EL REGISTRO DE PUNTOS DE CONTROL")
            && t.contains("la cadena registra 2 puntos de control"),
        "{t}"
    );
    assert!(!t.contains("`vigia audit checkpoint`"), "{t}");
}
