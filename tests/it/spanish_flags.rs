//! The command line's refusals that were said in English only in a Spanish run (a flag's
//! reason written in place, the store's and the audit key's reasons, a damaged acta): each
//! Spanish sentence below is the catalogue's, written here by hand.

use crate::common::Reg;
use crate::spanish_cli::refused_both_ways;

/// The command line's refusals of a flag's value that were written in English only (a
/// `CliError::Flag` with an English reason) are now said in Spanish too: each Spanish sentence
/// below is the catalogue's, written here by hand.
#[test]
fn flag_refusals_once_english_only_are_said_in_spanish() {
    let r = Reg::new();
    let db = r.db().display().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["calendar".into(), "holidays".into(), "1900".into()],
            "calendar holidays 1900: escriba un año entre 1984 (vigencia de la Ley 51 de 1983) y 9999",
        ),
        (
            vec!["demo".into()],
            "la demostración construye un registro nuevo: indique una ruta donde todavía no haya un archivo",
        ),
        (
            vec!["serve".into(), "--tls-cert".into(), db.clone()],
            "HTTPS necesita también la clave privada del certificado: agregue --tls-key ARCHIVO",
        ),
        (
            vec![
                "program".into(),
                "stage-price".into(),
                "D3939-2004".into(),
                "--stage".into(),
                "4".into(),
                "--date".into(),
                "2024-06-30".into(),
            ],
            "--stage 4: escriba 2, 3 o none",
        ),
        (
            vec![
                "offer".into(),
                "adjudicate".into(),
                "D3939-2004".into(),
                "--on".into(),
                "2024-03-15".into(),
                "--acta".into(),
                "acta.txt".into(),
            ],
            "el formato del acta sale de su extensión: nómbrela .pdf, .html o .md",
        ),
        (
            vec![
                "offer".into(),
                "acta".into(),
                "D3939-2004".into(),
                "--out".into(),
                "acta.md".into(),
            ],
            "la oferta de D3939-2004 no se ha adjudicado; ejecute `vigia offer adjudicate D3939-2004 --on D`",
        ),
    ];
    // a folder given as the register: named as such (SQLite said «disk I/O error»)
    let es = refused_both_ways(
        &Reg::without_register(),
        &[
            "--db",
            r.dir.path().to_str().unwrap(),
            "adjudications",
            "list",
        ],
    );
    assert!(
        es.contains("es un directorio; indique un nombre de archivo"),
        "{es}"
    );
    // the audit key: missing, and one that is not a key
    let missing = r.dir.path().join("no-hay").join("audit.key");
    let es = refused_both_ways(&r, &["--key", missing.to_str().unwrap(), "audit", "verify"]);
    assert!(
        es.contains("no hay ninguna clave allí; `vigia init` crea una, o indique la ruta de la clave con --key"),
        "{es}"
    );
    let not_key = r.file("clave.txt", b"public 12\n");
    let es = refused_both_ways(&r, &["--key", &not_key, "audit", "verify"]);
    assert!(
        es.contains("su línea public no tiene 64 dígitos hexadecimales"),
        "{es}"
    );
    // a damaged PDF given as an acta: the PDF reader's sentence, in Spanish
    let bad = r.file("dañada.pdf", b"%PDF-1.4\ngarbage\n");
    for verify in ["offer", "stage"] {
        let es = refused_both_ways(&r, &[verify, "verify", &bad]);
        assert!(
            es.contains("el PDF está dañado o no lo escribió vigia"),
            "{es}"
        );
    }
    for (args, spanish) in cases {
        let es = refused_both_ways(&r, &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(es.contains(spanish), "{args:?}:\n{es}");
    }
    // a file that is not a register: the store's reason and the remedy, both in Spanish
    let not_db = r.file("notas.txt", b"hola\n");
    let es = refused_both_ways(
        &Reg::without_register(),
        &["--db", &not_db, "adjudications", "list"],
    );
    assert!(
        es.contains("no es una base de datos SQLite")
            && es.contains(
                "; no se modificó: `vigia init` crea un registro, y solo donde aún no hay ningún \
                 archivo"
            )
            && es.matches("vigia init").count() == 1
            && !es.contains("solo se crea"),
        "{es}"
    );
}

/// `rates add` reads the typed period as a row of a rates file (one reader), but its refusals
/// name the flags the user typed, not the file's columns («(--to)», not «(valid_to)»).
#[test]
fn rates_add_refusals_name_the_flags_typed() {
    let r = Reg::new();
    let add = |from: &str, to: &str, rates: &[&str]| {
        let mut args = vec!["rates", "add", "--from", from, "--to", to];
        args.extend_from_slice(rates);
        args.extend_from_slice(&["--resolution", "SFC Res. 1 de 2030"]);
        let es = refused_both_ways(&r, &args);
        (r.fails(&args), es)
    };
    let (en, es) = add("2030-01-31", "2030-01-01", &["--ibc", "20"]);
    assert!(
        en.contains(": --to 2030-01-01 is before --from 2030-01-31"),
        "{en}"
    );
    assert!(
        es.contains(
            ": la fecha «hasta» (--to) 01/01/2030 es anterior a la fecha «desde» (--from) \
             31/01/2030"
        ),
        "{es}"
    );
    let (en, es) = add("2030-01-01", "2030-01-31", &["--ibc", "150"]);
    assert!(en.contains(": --ibc 150 is not a believable % EA"), "{en}");
    assert!(
        es.contains(": el interés bancario corriente (--ibc) 150 no es una tasa creíble"),
        "{es}"
    );
    // 1.5 × 20 = 30, not 40
    let (en, es) = add(
        "2030-01-01",
        "2030-01-31",
        &["--ibc", "20", "--usury", "40"],
    );
    assert!(
        en.contains(": --usury 40 is not 1.5 × --ibc 20 (= 30.0)"),
        "{en}"
    );
    assert!(
        es.contains(
            ": la tasa de usura (--usury) 40 % no es 1,5 × el interés bancario corriente (--ibc) \
             20 % (= 30,0 %)"
        ),
        "{es}"
    );
    for said in [en, es] {
        assert!(
            !said.contains("valid_") && !said.contains("_ea_pct"),
            "{said}"
        );
    }
}
