//! A refused import names each column as the file's header writes it, whether the reader found
//! the problem or the register did (a row already registered with other figures, a document
//! that names another holder, a pledge of an adjudication the register does not hold): the
//! Spanish header's name in a Spanish file, vigia's English one in an English file. Each refusal
//! exits 2 and leaves the register as it was.

use crate::common::{HEADER, Reg};

const ES_HEADER: &str = "Tipo documento;Número de documento;Nombre;Tipo persona;Categoría;Acciones;\
                         Precio por acción;Fecha adjudicación;Acreedor;Acciones financiadas\n";

/// Imports `text` as `name` with `--lang es` (or in English): refused, nothing written; stderr.
fn refused(r: &Reg, name: &str, text: &str, command: &[&str], es: bool) -> String {
    let before = r.dump();
    let path = r.file(name, text.as_bytes());
    let mut args: Vec<&str> = if es { vec!["--lang", "es"] } else { Vec::new() };
    args.extend_from_slice(&command[..2]);
    args.push(&path);
    args.extend_from_slice(&command[2..]);
    let e = r.fails(&args);
    assert_eq!(r.dump(), before, "{name} wrote: {e}");
    e
}

fn has_all(e: &str, wants: &[&str]) {
    for want in wants {
        assert!(e.contains(want), "{want} in {e}");
    }
}

#[test]
fn the_registers_refusals_of_an_adjudications_file_name_its_columns_as_its_header_does() {
    // adjudication 1: Ana Prueba, CC 1000000001, 1,000 shares at the program's price, 15/03/2024
    let r = Reg::new().with_holders();
    let import = ["adjudications", "import", "--program", "D3939-2004"];
    // line 2: Ana's award again with 1.200 shares at $1.100 (the register holds 1,000 at the
    // program's $963); line 3: her document under another name
    let e = refused(
        &r,
        "es.csv",
        &format!(
            "{ES_HEADER}CC;1000000001;Ana Prueba;natural;trabajador;1.200;1.100;15/03/2024;;\n\
             CC;1000000001;Ana Otra;natural;trabajador;5;;16/03/2024;;\n"
        ),
        &import,
        true,
    );
    has_all(
        &e,
        &[
            // the figure quoted as the file writes it, the list in es-CO figures
            "línea 2: Acciones «1.200»: ",
            "(Acciones 1.200, en el registro 1.000; Precio por acción $ 1.100, en el registro $ 963)",
            "línea 3: Nombre «Ana Otra»: CC 1000000001 ya está registrado como «Ana Prueba»",
        ],
    );
    assert!(
        !e.contains("shares") && !e.contains("price_per_share"),
        "{e}"
    );
    // the same rows under the English header
    let e = refused(
        &r,
        "en.csv",
        &format!(
            "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,900,1100,2024-03-15,,\n\
             CC,1000000001,Ana Otra,natural,trabajador,5,,2024-03-16,,\n"
        ),
        &import,
        true,
    );
    has_all(
        &e,
        &[
            "línea 2: shares «900»: ",
            "(shares 900, en el registro 1.000; price_per_share $ 1.100, en el registro $ 963)",
            "línea 3: name «Ana Otra»: ",
        ],
    );
    // a header in another case and spacing is named as typed
    let e = refused(
        &r,
        "mixed.csv",
        &format!(
            "{}CC,1000000001,Ana Prueba,natural,trabajador,900,,2024-03-15,,\n",
            HEADER.replace("shares,", "SHARES ,")
        ),
        &import,
        false,
    );
    has_all(
        &e,
        &["line 2: SHARES \"900\": ", "(SHARES 900, registered 1000)"],
    );
}

#[test]
fn the_registers_refusals_of_a_pledges_file_name_its_columns_as_its_header_does() {
    // adjudication 1 (Ana) has no lender, so no pledge of the second degree; there is no
    // adjudication 7, and no adjudication of CC 1000000009
    let r = Reg::new().with_holders();
    let import = ["pledge", "import"];
    let e = refused(
        &r,
        "prendas.csv",
        "Adjudicación;Grado;Fecha inscripción\n1;2;01/04/2024\n7;1;02/04/2024\n",
        &import,
        true,
    );
    has_all(
        &e,
        &[
            "línea 2: Grado «2»: ",
            "línea 3: Adjudicación «7»: no hay una adjudicación con ese número en el registro",
        ],
    );
    assert!(!e.contains("rank") && !e.contains("adjudication_id"), "{e}");
    let e = refused(
        &r,
        "titular.csv",
        "Grado;Fecha inscripción;Tipo documento;Número de documento\n1;02/04/2024;CC;1000000009\n",
        &import,
        true,
    );
    has_all(
        &e,
        &["línea 2: Número de documento «1000000009»: CC 1000000009 no tiene ninguna adjudicación"],
    );
    // the same rows under the English header
    let e = refused(
        &r,
        "pledges.csv",
        "adjudication_id,rank,registered_on\n1,2,2024-04-01\n7,1,2024-04-02\n",
        &import,
        true,
    );
    has_all(
        &e,
        &["línea 2: rank «2»: ", "línea 3: adjudication_id «7»: "],
    );
    let e = refused(
        &r,
        "holder.csv",
        "rank,registered_on,doc_type,doc_number\n1,2024-04-02,CC,1000000009\n",
        &import,
        false,
    );
    has_all(&e, &["line 2: doc_number \"1000000009\": "]);
}

#[test]
fn an_acceptances_files_refusals_name_its_columns_as_its_header_does() {
    // the test program's categories are its own (no «sindicato-x»); every rule of an
    // acceptance row runs as the file is read, the register's only on the whole file
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/programs/ebsa-2010-test.toml"
    ))
    .unwrap();
    let r = crate::offering::opened(&text);
    let import = ["acceptances", "import", "--program", "EBSA-TEST"];
    let e = refused(
        &r,
        "aceptaciones.csv",
        "Fecha radicación;Tipo documento;Número de documento;Nombre;Tipo persona;Categoría;Acciones\n\
         16/01/2024;CC;1000000001;Uno Prueba;natural;sindicato-x;10\n",
        &import,
        true,
    );
    has_all(&e, &["línea 2: Categoría «sindicato-x»: "]);
    let e = refused(
        &r,
        "acceptances.csv",
        "filed_at,doc_type,doc_number,name,person_type,category,shares\n\
         2024-01-16,CC,1000000001,Uno Prueba,natural,sindicato-x,10\n",
        &import,
        true,
    );
    has_all(&e, &["línea 2: category «sindicato-x»: "]);
}
