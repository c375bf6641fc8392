//! The command line in Spanish (issue 25): `--lang es`, `VIGIA_LANG` or a Spanish locale words
//! the refusals, the fine engine's errors and the check's reasons in Spanish; `LC_ALL` beats
//! `LANG` the POSIX way, and a value that is no language is refused with exit 2. Each Spanish
//! sentence is compared with the English one the same command prints, so that a message left in
//! English fails here as well as in the snapshot.

use crate::common::{self, Reg};

/// Runs `args` in English and in Spanish (`--lang es`); both refuse (exit 2, nothing on
/// stdout) and say different words.
pub(crate) fn refused_both_ways(r: &Reg, args: &[&str]) -> String {
    let en = r.fails(args);
    let es = r.fails(&[&["--lang", "es"], args].concat());
    assert_ne!(en, es, "{args:?} is not worded in Spanish");
    es
}

#[test]
fn a_refusal_of_each_kind_in_spanish() {
    let r = Reg::new().with_letterhead().with_holders();
    let mut seen = String::new();
    let mut refused = |args: &[&str]| {
        let before = r.dump();
        let e = refused_both_ways(&r, args);
        assert_eq!(r.dump(), before, "{args:?} wrote something");
        seen.push_str(&format!("$ vigia --lang es {}\n{e}\n", args.join(" ")));
    };
    let breach = |date: &'static str, shares: &'static str| {
        vec![
            "breach",
            "record",
            "--adjudication",
            "1",
            "--kind",
            "sale",
            "--date",
            date,
            "--shares",
            shares,
        ]
    };
    // a value that breaks a rule
    refused(&breach("2024-03-14", "10"));
    // a value, with the input that would make it acceptable
    refused(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "2",
        "--registered-on",
        "2024-04-01",
    ]);
    r.ok(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-01",
    ]);
    // the write as a whole
    refused(&[
        "pledge",
        "register",
        "1",
        "--rank",
        "1",
        "--registered-on",
        "2024-04-02",
    ]);
    // refused as it stands, accepted when repeated with another input
    refused(&[
        "rates",
        "add",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--ibc",
        "20",
        "--resolution",
        "x",
    ]);
    // waits for another act first
    refused(&["offer", "adjudicate", "D3939-2004", "--on", "2024-06-01"]);
    // a value refused until another act is done
    r.ok(&breach("2024-11-20", "10"));
    refused(&["adjudications", "void", "1", "--reason", "por error"]);
    let seen = seen.replace(&r.dir.path().display().to_string(), "<dir>");
    insta::assert_snapshot!(seen);
}

#[test]
fn the_fine_engines_errors_in_spanish() {
    let r = Reg::without_register();
    let quote = |breach: &'static str, until: &'static str| {
        vec![
            "fine",
            "quote",
            "--adjudicated",
            "2024-03-15",
            "--breach-date",
            breach,
            "--shares",
            "10",
            "--acquisition-price",
            "963",
            "--until",
            until,
        ]
    };
    let mut seen = String::new();
    for args in [
        quote("2024-03-14", "2025-02-10"),
        quote("2024-11-20", "2024-11-19"),
        [
            &quote("2024-11-20", "2025-02-10")[..],
            &["--payment", "2024-11-19=100"],
        ]
        .concat(),
        // no certified rate in 2099
        quote("2024-11-20", "2099-01-10"),
    ] {
        let e = refused_both_ways(&r, &args);
        seen.push_str(&format!("$ vigia --lang es {}\n{e}\n", args.join(" ")));
    }
    insta::assert_snapshot!(seen);
}

#[test]
fn the_check_in_spanish() {
    let r = crate::check::register_with_every_case();
    let en = r.run(&["check", "--as-of", "2025-03-10"]);
    let es = r.run(&["--lang", "es", "check", "--as-of", "2025-03-10"]);
    // the same findings, the same exit status (1: findings)
    assert_eq!(es.status.code(), Some(1));
    assert_eq!(en.status.code(), Some(1));
    let (en, es) = (common::out(&en), common::out(&es));
    assert_ne!(en, es);
    // every reason is in Spanish: none of the English table's reasons is left in it
    for line in en.lines().filter(|l| l.contains(" | ")) {
        let reason = line.rsplit('|').next().unwrap().trim();
        if reason.len() > 20 {
            assert!(!es.contains(reason), "left in English: {reason}");
        }
    }
    insta::assert_snapshot!(es);
}

/// The first line of what a run printed on stderr.
fn error_of(o: &std::process::Output) -> String {
    common::err(o)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_locale_chooses_spanish_and_lc_all_beats_lang() {
    let r = Reg::without_register();
    // a breach before the adjudication: refused by the engine in the chosen language
    let args = crate::common::QUOTE_BREACH_BEFORE_ADJUDICATION;
    let english = error_of(&r.run(&args));
    let spanish = error_of(&r.run(&[&["--lang", "es"][..], &args].concat()));
    assert!(
        english.contains("is before the adjudication date"),
        "{english}"
    );
    assert!(
        spanish.contains("Fecha del incumplimiento") || spanish.contains("adjudicación"),
        "{spanish}"
    );
    let with = |env: &[(&str, &str)]| {
        let o = r.with_locale(env, &args);
        assert_eq!(o.status.code(), Some(2), "{env:?}");
        error_of(&o)
    };
    assert_eq!(with(&[("LANG", "es_CO.UTF-8")]), spanish);
    assert_eq!(with(&[("LANG", "en_US.UTF-8")]), english);
    // the first set of LC_ALL, LC_MESSAGES and LANG decides; C is no English
    assert_eq!(
        with(&[("LANG", "es_CO.UTF-8"), ("LC_ALL", "en_US.UTF-8")]),
        english
    );
    assert_eq!(with(&[("LANG", "en_US.UTF-8"), ("LC_ALL", "C")]), spanish);
    assert_eq!(
        with(&[("LANG", "C"), ("LC_MESSAGES", "es_CO.UTF-8")]),
        spanish
    );
    assert_eq!(
        with(&[("LANG", "es_CO.UTF-8"), ("LC_MESSAGES", "en_US.UTF-8")]),
        english
    );
    // VIGIA_LANG beats the locale, --lang beats VIGIA_LANG
    assert_eq!(
        with(&[("LANG", "es_CO.UTF-8"), ("VIGIA_LANG", "en")]),
        english
    );
    let o = r.with_locale(
        &[("VIGIA_LANG", "es")],
        &[&["--lang", "en"][..], &args].concat(),
    );
    assert_eq!(error_of(&o), english);
    assert_eq!(with(&[("VIGIA_LANG", "es")]), spanish);
}

#[test]
fn a_value_that_is_no_language_is_refused() {
    let r = Reg::without_register();
    let o = r.with_locale(&[("VIGIA_LANG", "fr")], &["calendar", "holidays", "2025"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        common::err(&o),
        "vigia: error: VIGIA_LANG fr: vigia speaks es (Spanish) or en (English); set it to one of them or unset it\n"
    );
    // refused in the locale's language: Spanish under a server's `C`
    let o = r.with_locale(
        &[("VIGIA_LANG", "fr"), ("LANG", "C.UTF-8")],
        &["calendar", "holidays", "2025"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        common::err(&o),
        "vigia: error: VIGIA_LANG fr: vigia habla es (español) o en (inglés); dele uno de esos \
         valores o elimínela\n"
    );
    let e = r.fails(&["--lang", "fr", "calendar", "holidays", "2025"]);
    assert!(
        e.contains("'--lang <LANG>'") && e.contains("vigia speaks es (Spanish) or en (English)"),
        "{e}"
    );
}

/// The help in Spanish: vigia's own and a command's, with a Spanish locale and with `--lang es`,
/// headings, usage line, placeholders, value lists and defaults in Spanish; English untouched.
#[test]
fn help_in_spanish() {
    let r = Reg::without_register();
    let by_locale = |args: &[&str]| {
        let o = r.with_locale(&[("LANG", "es_CO.UTF-8")], args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", common::err(&o));
        common::out(&o)
    };
    let top = by_locale(&["--help"]);
    assert_eq!(top, r.ok(&["--lang", "es", "--help"]));
    for english in [
        "Usage:",
        "Options:",
        "Commands:",
        "Print help",
        "Compute fines",
    ] {
        assert!(
            !top.contains(english),
            "{english:?} left in the Spanish help:\n{top}"
        );
    }
    assert!(top.contains("Uso: vigia [OPCIONES] <COMANDO>"), "{top}");
    assert!(top.contains("  fine           Cálculo de multas"), "{top}");
    insta::assert_snapshot!("help_es", top);
    let quote = by_locale(&["fine", "quote", "-h"]);
    insta::assert_snapshot!("fine_quote_help_es", quote);
    // the English help keeps clap's wording of the doc comments
    let en = r.ok(&["fine", "quote", "-h"]);
    assert!(
        en.starts_with("Compute a fine from facts typed on the command line"),
        "{en}"
    );
    assert!(
        en.contains("Usage: vigia fine quote [OPTIONS] --adjudicated <DATE>"),
        "{en}"
    );
}

/// Clap's refusals in Spanish, the one reader's sentence included: `1.450,5` shares, a day that
/// does not exist, a misspelt command, a missing argument, a value not in the list.
#[test]
fn usage_errors_in_spanish() {
    let r = Reg::without_register();
    let es = |args: &[&str]| {
        let o = r.with_locale(&[("LANG", "es_CO.UTF-8")], args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty());
        common::err(&o)
    };
    let quote = |extra: &[&'static str]| {
        let mut a = vec![
            "fine",
            "quote",
            "--adjudicated",
            "15/03/2024",
            "--breach-date",
            "20/11/2024",
            "--acquisition-price",
            "963",
            "--until",
            "10/02/2025",
        ];
        a.extend_from_slice(extra);
        a
    };
    assert_eq!(
        es(&quote(&["--shares", "1.450,5"])),
        "error: el valor «1.450,5» no es válido para «--shares <N>»: «1.450,5» se lee 1.450,5, \
         que no es un número entero; escriba un entero, p. ej. 4.000\n\n\
         Para más información, pruebe «--help».\n"
    );
    assert_eq!(
        es(&quote(&["--shares", "1.000", "--stage-price", "-5"])),
        "error: el valor «-5» no es válido para «--stage-price <P>»: «-5» es negativo; el valor \
         debe ser cero o más\n\nPara más información, pruebe «--help».\n"
    );
    assert_eq!(
        es(&quote(&["--shares", "10", "--convention", "simple"])),
        "error: el valor «simple» no es válido para «--convention <C>»: «simple» no es una \
         convención; use daily-simple, period-effective o compound\n\n\
         Para más información, pruebe «--help».\n"
    );
    let mut no_day = quote(&["--shares", "10"]);
    no_day[9] = "31/02/2025";
    assert_eq!(
        es(&no_day),
        "error: el valor «31/02/2025» no es válido para «--until <FECHA>»: «31/02/2025» no es un \
         día del calendario; revise el día y el mes (dd/mm/aaaa)\n\n\
         Para más información, pruebe «--help».\n"
    );
    assert_eq!(
        es(&["breach", "recrd"]),
        "error: subcomando no reconocido «recrd»\n\n  consejo: quizás quiso decir «record»\n\n\
         Uso: vigia breach [OPCIONES] <COMANDO>\n\nPara más información, pruebe «--help».\n"
    );
    let missing = es(&["fine", "quote", "--shares", "10"]);
    assert!(
        missing
            .starts_with("error: faltan los argumentos obligatorios:\n  --adjudicated <FECHA>\n"),
        "{missing}"
    );
    assert_eq!(
        es(&["check", "--format", "xml"]),
        "error: el valor «xml» no es válido para «--format <FORMATO>»\n  \
         [valores posibles: «table», «json», «csv», «csv-excel», «xlsx»]\n\n  \
         consejo: quizás quiso decir «xlsx»\n\nPara más información, pruebe «--help».\n"
    );
    // the same refusal in English is clap's
    let en = r.fails(&quote(&["--shares", "1.450,5"]));
    assert!(
        en.starts_with("error: invalid value '1.450,5' for '--shares <N>': \"1.450,5\" reads as"),
        "{en}"
    );
}

/// The tables of the listings in Spanish: every heading Spanish (none is a key with its `_`
/// turned into spaces, the fallback of a column with no Spanish name), dates dd/mm/aaaa, shares
/// with es-CO thousands, pesos `$ 1.450`; JSON and CSV keep the English keys.
#[test]
fn listings_in_spanish() {
    let r = Reg::new().with_letterhead().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "20/11/2024",
        "--shares",
        "1.000",
        "--consideration-per-share",
        "1.450",
        "--evidence",
        "contrato",
    ]);
    r.ok(&[
        "payment",
        "record",
        "--breach",
        "1",
        "--date",
        "15/12/2024",
        "--amount",
        "500.000",
    ]);
    let listings: &[&[&str]] = &[
        &["program", "list"],
        &["program", "show", "D3939-2004"],
        &["program", "letters", "show", "D3939-2004"],
        &["breach", "list"],
        &["breach", "show", "1"],
        &["payment", "list", "--breach", "1"],
        &["holder", "show", "1000000002"],
        &["calendar", "holidays", "2025"],
    ];
    for args in listings {
        let es = r.ok(&[&["--lang", "es"][..], args].concat());
        let en_keys: Vec<String> = match r.json(&[&args[..], &["--format", "json"]].concat()) {
            serde_json::Value::Array(rows) => rows
                .iter()
                .flat_map(|o| o.as_object().unwrap().keys().cloned().collect::<Vec<_>>())
                .collect(),
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            other => panic!("{other}"),
        };
        for key in en_keys.iter().filter(|k| k.contains('_')) {
            let fallback = key.replace('_', " ");
            assert!(
                !es.contains(&format!(" {fallback} ")) && !es.starts_with(&format!("{fallback} ")),
                "{args:?}: the column {key} has no Spanish name:\n{es}"
            );
        }
        // the machine formats are the same in both languages
        for format in ["json", "csv"] {
            let a = [&args[..], &["--format", format]].concat();
            assert_eq!(
                r.ok(&a),
                r.ok(&[&["--lang", "es"][..], &a].concat()),
                "{a:?}"
            );
        }
    }
    let breaches = r.ok(&["--lang", "es", "breach", "list"]);
    let header = breaches.lines().next().unwrap();
    for heading in [
        "N.º",
        "Adjudicación",
        "Fecha incumplimiento",
        "Acciones",
        "Contraprestación por acción",
    ] {
        assert!(header.contains(heading), "{header}");
    }
    let row = breaches.lines().nth(2).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(
        &cells[..6],
        ["1", "1", "venta", "20/11/2024", "1.000", "$ 1.450"],
        "the kind's code in words, as --kind also takes it: {row}"
    );
    let payments = r.ok(&["--lang", "es", "payment", "list", "--breach", "1"]);
    assert!(
        payments.contains("15/12/2024") && payments.contains("$ 500.000"),
        "{payments}"
    );
    let english = r.ok(&["breach", "list"]);
    assert!(
        english.starts_with(" id | adjudication_id | kind | breach_date"),
        "{english}"
    );
}

/// Every listing in Excel's formats: `--format xlsx --out FILE` writes a workbook (0600) whose
/// cells, read back with calamine, are typed (shares and pesos as numbers, dates as dates)
/// under the Spanish headers, with a Consulta sheet naming the command and its filters;
/// `--format csv-excel` is the `;` CSV with a BOM that a Spanish Excel opens.
#[test]
fn listings_for_excel() {
    use calamine::{Data, Reader, open_workbook_auto};
    use std::os::unix::fs::PermissionsExt;
    let r = Reg::new().with_letterhead().with_holders();
    r.ok(&[
        "breach",
        "record",
        "--adjudication",
        "1",
        "--kind",
        "sale",
        "--date",
        "20/11/2024",
        "--shares",
        "1.000",
        "--consideration-per-share",
        "1.450,50",
    ]);
    let path = r.file("incumplimientos.xlsx", b"");
    std::fs::remove_file(&path).unwrap();
    let printed = r.ok(&[
        "breach",
        "list",
        "--adjudication",
        "1",
        "--format",
        "xlsx",
        "--out",
        &path,
    ]);
    assert!(printed.is_empty() || printed.contains(&path), "{printed}");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let mut book = open_workbook_auto(&path).unwrap();
    assert_eq!(book.sheet_names(), ["Incumplimientos", "Consulta"]);
    let sheet = book.worksheet_range("Incumplimientos").unwrap();
    let header: Vec<String> = sheet
        .rows()
        .next()
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} in {header:?}"))
    };
    let row = sheet.rows().nth(1).unwrap();
    assert_eq!(row[col("Acciones")], Data::Float(1000.0));
    assert_eq!(row[col("Contraprestación por acción")], Data::Float(1450.5));
    match &row[col("Fecha incumplimiento")] {
        Data::DateTime(d) => assert_eq!(d.as_datetime().unwrap().date().to_string(), "2024-11-20"),
        other => panic!("the breach date is not a date: {other:?}"),
    }
    assert_eq!(sheet.rows().count(), 2, "one breach, under its header");
    // a stored moment is an Excel date and time, in Colombia's legal time (UTC−5, no DST)
    match &row[col("Registrado el")] {
        Data::DateTime(t) => {
            let t = t.as_datetime().unwrap();
            let utc = chrono::Utc::now().naive_utc();
            let hours = (utc - t).num_minutes() as f64 / 60.0;
            assert!(
                (4.9..5.2).contains(&hours),
                "{t} is not five hours behind {utc}"
            );
        }
        other => panic!("the time recorded is not a date and time: {other:?}"),
    }
    let asked = book.worksheet_range("Consulta").unwrap();
    let asked: Vec<String> = asked
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join("=")
        })
        .collect();
    assert!(
        asked.iter().any(|l| l == "Comando=vigia breach list"),
        "{asked:?}"
    );
    assert!(asked.iter().any(|l| l == "Adjudicación=1"), "{asked:?}");
    // csv-excel on standard output
    let csv = r.ok(&["breach", "list", "--format", "csv-excel"]);
    let first = csv.lines().next().unwrap();
    assert!(
        first.starts_with("\u{feff}N.º;Adjudicación;Clase;Fecha incumplimiento;Acciones;"),
        "{first}"
    );
    assert!(csv.contains(";20/11/2024;1000;1450,50;"), "{csv}");
    // the formats that go to standard output refuse --out; a workbook needs it
    let e = r.fails(&["payment", "list", "--breach", "1", "--out", &path]);
    assert!(e.contains("--out"), "{e}");
    let e = r.fails(&["notice", "list", "--format", "xlsx"]);
    assert!(e.contains("--out FILE.xlsx"), "{e}");
    for args in [
        &["program", "list"][..],
        &["calendar", "holidays", "2025"],
        &["user", "list"],
        &["settlement", "list"],
        &["notice", "list"],
        &["program", "letters", "history", "D3939-2004"],
        &["payment", "list", "--breach", "1"],
    ] {
        let csv = r.ok(&[args, &["--format", "csv-excel"]].concat());
        assert!(csv.starts_with('\u{feff}'), "{args:?}: {csv}");
    }
}

/// What a run prints that changes from one run to the next: the register's directory, the
/// moments of now (`02/12/2026 16:20 (hora de Colombia)`, `2026-12-02T21:20:48Z`), and the
/// hashes that cover them (a PDF's SHA-256, the chain's head, the audit key's id).
fn steady(text: &str, dir: &str) -> String {
    let text = text.replace(dir, "<dir>");
    let c: Vec<char> = text.chars().collect();
    // `#` a digit, any other a character as it is
    let shaped = |i: usize, pattern: &str| {
        pattern
            .chars()
            .enumerate()
            .all(|(k, p)| match (c.get(i + k), p) {
                (Some(x), '#') => x.is_ascii_digit(),
                (Some(x), p) => *x == p,
                (None, _) => false,
            })
    };
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let starts = i == 0 || !c[i - 1].is_ascii_alphanumeric();
        if starts && c[i].is_ascii_hexdigit() {
            let mut j = i;
            while j < c.len() && c[j].is_ascii_hexdigit() {
                j += 1;
            }
            let ends = j == c.len() || !c[j].is_ascii_alphanumeric();
            if ends && matches!(j - i, 12 | 16 | 64) {
                out.push_str(&format!("<hex{}>", j - i));
                i = j;
                continue;
            }
        }
        let moment = "##/##/#### ##:## (hora de Colombia)";
        if shaped(i, moment) {
            out.push_str("<ahora>");
            i += moment.chars().count();
            continue;
        }
        let iso = "####-##-##T##:##:##Z";
        if shaped(i, iso) {
            out.push_str("<ahora>");
            i += iso.len();
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// `vigia demo` in Spanish: every step's title, every success line of the story and every
/// refusal it means to show in Spanish (the English run's own lines are not in it).
#[test]
fn the_demo_in_spanish() {
    let r = Reg::without_register();
    let run = |lang: &str| {
        let db = r.dir.path().join(format!("{lang}/demo.db"));
        let o = r
            .command()
            .args(["--lang", lang, "--db"])
            .arg(&db)
            .arg("demo")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", common::err(&o));
        common::out(&o)
    };
    let (en, es) = (run("en"), run("es"));
    // each step titled in Spanish: no English title is left in it
    let titles = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(str::to_string)
            .collect()
    };
    let (en_titles, es_titles) = (titles(&en), titles(&es));
    assert_eq!(en_titles.len(), es_titles.len());
    assert!(en_titles.len() > 40, "{en_titles:?}");
    for (e, s) in en_titles.iter().zip(&es_titles) {
        assert_ne!(e, s, "a step left in English");
    }
    for english in [
        "refused, as it should be",
        "breach 1 recorded",
        "payment 1:",
        "issued for breach",
        "delivered on",
        "acceptances import 1",
        "already imported",
        "released the pledge",
        "reproduces",
        "row(s) already registered",
    ] {
        assert!(en.contains(english), "the English run says {english:?}");
        assert!(
            !es.contains(english),
            "{english:?} left in the Spanish demo"
        );
    }
    insta::assert_snapshot!(steady(&es, &r.dir.path().display().to_string()));
}

/// The refusals this part of issue 25 words in Spanish: a record that does not exist, a fine's
/// brackets, a workbook without a file to go to, a rate the engine lacks.
#[test]
fn more_refusals_in_spanish() {
    let r = Reg::new().with_letterhead().with_holders();
    let mut seen = String::new();
    let mut refused = |args: &[&str]| {
        let e = refused_both_ways(&r, args);
        seen.push_str(&format!("$ vigia --lang es {}\n{e}\n", args.join(" ")));
    };
    let bad = r.file(
        "malas.csv",
        format!(
            "{}XX,1,A,natural,trabajador,10,,2024-03-15,,\nCC,2000000001,B,natural,trabajador,-1,,2024-03-15,,\n",
            crate::common::HEADER
        )
        .as_bytes(),
    );
    refused(&["adjudications", "import", &bad, "--program", "D3939-2004"]);
    refused(&["breach", "show", "99"]);
    refused(&["fine", "liquidate", "42", "--until", "2025-02-10"]);
    refused(&["notice", "list", "--format", "xlsx"]);
    refused(&["check", "--format", "xlsx"]);
    let quote = |brackets: &'static str| {
        vec![
            "fine",
            "quote",
            "--adjudicated",
            "2024-03-15",
            "--breach-date",
            "2024-11-20",
            "--shares",
            "10",
            "--acquisition-price",
            "963",
            "--until",
            "2025-02-10",
            "--brackets",
            brackets,
        ]
    };
    refused(&quote("6:100,5:10"));
    refused(&quote("6:100"));
    refused(&quote("seis"));
    refused(&[
        "fine",
        "quote",
        "--adjudicated",
        "2024-03-15",
        "--breach-date",
        "2024-11-20",
        "--shares",
        "10",
        "--acquisition-price",
        "963",
        "--until",
        "2025-02-10",
        "--lockup-months",
        "0",
    ]);
    let seen = seen.replace(&r.dir.path().display().to_string(), "<dir>");
    // no ISO date and no English word of the refusals left
    // the reason, after the flag and its value
    for said in seen.lines().filter_map(|l| l.strip_prefix("vigia: error:")) {
        let reason = said.split_once(": ").map_or(said, |(_, r)| r);
        for english in ["no breach", "bracket", "workbook", "lock-up", "FILE"] {
            assert!(!reason.contains(english), "{english:?} in: {said}");
        }
    }
    insta::assert_snapshot!(seen);
}

/// The manual page in Spanish: its section headings too; English keeps clap_mangen's.
#[test]
fn the_manual_page_in_spanish() {
    let r = Reg::without_register();
    let heads = |args: &[&str]| -> Vec<String> {
        r.ok(args)
            .lines()
            .filter_map(|l| l.strip_prefix(".SH "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        heads(&["--lang", "es", "man"]),
        [
            "NOMBRE",
            "SINOPSIS",
            "DESCRIPCIÓN",
            "OPCIONES",
            "COMANDOS",
            "NOTAS",
            "VERSIÓN"
        ]
    );
    assert_eq!(
        heads(&["man"]),
        [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "SUBCOMMANDS",
            "EXTRA",
            "VERSION"
        ]
    );
}

/// `program show` in Spanish names the reference prices and the breach kinds in words, not
/// their codes (a review found `acquisition,transfer,stage`).
#[test]
fn a_programs_lists_read_in_spanish() {
    let r = Reg::new();
    let t = r.ok(&["--lang", "es", "program", "show", "D3939-2004"]);
    assert!(
        t.contains("Precios de referencia             adquisición (i), transferencia (ii), etapa posterior (iii)"),
        "{t}"
    );
    assert!(
        t.contains("venta, beneficiario-real, dacion-en-pago"),
        "{t}"
    );
    // no stage price recorded yet: said in words (it read «pending»)
    assert!(
        t.lines()
            .any(|l| l.starts_with("Precio de etapa ") && l.ends_with(" pendiente"))
            && t.lines()
                .any(|l| l.starts_with("Estado del precio de etapa ")
                    && l.ends_with(" pendiente (las liquidaciones son provisionales)")),
        "{t}"
    );
    // the JSON keeps its codes
    let j = r.ok(&["program", "show", "D3939-2004", "--format", "json"]);
    assert!(j.contains("\"acquisition,transfer,stage\""), "{j}");
}

/// What the operating system says is worded in Spanish too (issue 25): a file that is not
/// there and a directory given as an output, with nothing written.
#[test]
fn the_systems_errors_in_spanish() {
    let r = Reg::new();
    let missing = r.dir.path().join("no-existe.csv");
    let missing = missing.to_str().expect("a UTF-8 path");
    let e = refused_both_ways(
        &r,
        &["acceptances", "import", missing, "--program", "D3939-2004"],
    );
    assert!(
        e.contains(
            "no se puede abrir (no existe el archivo o la carpeta, error del sistema N.º 2)"
        ),
        "{e}"
    );
    assert!(!e.contains("No such file"), "{e}");
    let dir = r.dir.path().to_str().expect("a UTF-8 path");
    let e = refused_both_ways(&r, &["check", "--format", "csv", "--out", dir]);
    assert!(e.contains("(es una carpeta, no un archivo)"), "{e}");
    assert!(!e.contains("directory"), "{e}");
}

/// A refused flag with no value is named alone: `--price:`, not `--price :` (the stage price
/// with no price gave the second), in both languages.
#[test]
fn a_flag_refused_for_its_missing_value_is_named_alone() {
    let r = Reg::new();
    let args = [
        "program",
        "stage-price",
        "D3939-2004",
        "--stage",
        "2",
        "--date",
        "2024-06-28",
    ];
    let es = r.fails(&[&["--lang", "es"], &args[..]].concat());
    assert_eq!(
        es.trim_end(),
        "vigia: error: --price: --stage 2 necesita el precio por acción obtenido, mayor que cero"
    );
    let en = r.fails(&[&["--lang", "en"], &args[..]].concat());
    assert!(en.starts_with("vigia: error: --price: --stage 2 "), "{en}");
}

/// An acta that is a damaged PDF is refused in the run's language (the PDF reader's English
/// reached a Spanish run: «the PDF is damaged or not one vigia wrote (no startxref)»).
#[test]
fn a_damaged_pdf_given_as_an_acta_is_refused_in_spanish() {
    let r = Reg::new();
    let pdf = r.file("acta.pdf", b"%PDF-1.4\nnothing else\n");
    for command in ["offer", "stage"] {
        let es = r.fails(&["--lang", "es", command, "verify", &pdf]);
        assert_eq!(
            es.trim_end(),
            format!(
                "vigia: error: {command} verify {pdf}: el PDF está dañado o no lo escribió vigia"
            )
        );
        let en = r.fails(&["--lang", "en", command, "verify", &pdf]);
        assert!(
            en.contains(&format!(
                "{command} verify {pdf}: the PDF is damaged or not one vigia wrote ("
            )),
            "{en}"
        );
    }
}
