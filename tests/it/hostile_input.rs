//! Hostile and ambiguous values at every door (audit h-input): each is read the Colombian way or
//! refused with a sentence naming the field, the value and what to write, in Spanish first;
//! nothing is guessed and nothing is written by a refusal. Each expectation is worked by hand
//! from the rule (`1.450` = 1450, `1.450,50`, a point followed by one or two digits is a decimal
//! point, `DD/MM/YYYY` with four digits), not copied from an output.

use crate::common::{HEADER, Reg};
use crate::web::*;
use serde_json::Value;

/// What `fine quote` (SPEC §5's case) made of `typed` in `flag`, in Spanish: the JSON read, or
/// the sentence after clap names the flag and the value.
fn quote(flag: &str, typed: &str) -> Result<Value, String> {
    let r = Reg::without_register();
    let mut args = vec![
        ("--adjudicated", "15/03/2024"),
        ("--breach-date", "20/11/2024"),
        ("--shares", "1.000"),
        ("--acquisition-price", "963"),
        ("--transfer-price", "1.450"),
        ("--until", "10/02/2025"),
    ];
    for a in args.iter_mut() {
        if a.0 == flag {
            a.1 = typed;
        }
    }
    let mut argv = vec!["--lang", "es", "fine", "quote", "--format", "json"];
    for (f, v) in &args {
        argv.push(f);
        argv.push(v);
    }
    let o = r.run(&argv);
    if o.status.success() {
        return Ok(serde_json::from_str(&crate::common::out(&o)).unwrap());
    }
    assert_eq!(o.status.code(), Some(2), "{typed:?}");
    let e = crate::common::err(&o);
    let head = format!("«{typed}» no es válido para «{flag} ");
    let at = e.find(&head).unwrap_or_else(|| panic!("{head} in {e}"));
    let rest = &e[at + head.len()..];
    let sentence = &rest[rest.find("»: ").unwrap() + "»: ".len()..];
    Err(sentence.lines().next().unwrap().to_string())
}

const NOT_A_NUMBER: &str = "no es un número; escríbalo a la colombiana, p. ej. 1.450 o 1.450,50";
const NOT_A_COUNT: &str = "no es un número entero: escriba sus cifras, p. ej. 12 o 1.450";
const SEPARATORS: &str = "tiene los separadores fuera de lugar; escriba un punto cada tres dígitos \
                          para los miles y una coma para los decimales, p. ej. 1.450.000,50";

#[test]
fn an_amount_flag_reads_the_colombian_way_or_refuses_with_the_value_and_what_to_write() {
    let read = |typed: &str| {
        quote("--transfer-price", typed).map(|v| v["reference_prices"]["transfer"].clone())
    };
    for (typed, pesos) in [
        ("1.450", "1450"),
        ("1 450", "1450"),
        ("1\u{a0}450", "1450"),
        ("1\u{202f}450", "1450"),
        ("$1.450", "1450"),
        ("$ 1.450,50", "1450.50"),
        // a point followed by two digits is a decimal point (the rule's `1450.50`)
        ("1.45", "1.45"),
        ("1,45", "1.45"),
        ("007", "7"),
    ] {
        assert_eq!(read(typed), Ok(Value::from(pesos)), "{typed:?}");
    }
    let us = "«1,450.50» está escrito a la estadounidense (comas de miles, punto decimal); vigia \
              lee punto para los miles y coma para los decimales: escriba 1.450,50";
    let refused = [
        ("1.450.5", format!("«1.450.5» {SEPARATORS}")),
        ("1.450,5.0", format!("«1.450,5.0» {SEPARATORS}")),
        // a space where no thousands point could be: read 145050 and 145 before
        ("1450 50", format!("«1450 50» {SEPARATORS}")),
        ("1 45", format!("«1 45» {SEPARATORS}")),
        ("1,450.50", us.to_string()),
        (
            "-3",
            "«-3» es negativo; el valor debe ser cero o más".to_string(),
        ),
        // a plus sign said as such (it said «no es un número»)
        (
            "+3",
            "«+3» lleva el signo +: los valores se escriben sin signo; escriba 3".to_string(),
        ),
        ("٣", format!("«٣» {NOT_A_NUMBER}")),
        ("１２", format!("«１２» {NOT_A_NUMBER}")),
        ("1e3", format!("«1e3» {NOT_A_NUMBER}")),
        ("0x10", format!("«0x10» {NOT_A_NUMBER}")),
        ("", "no se escribió nada; escriba el valor".to_string()),
        (" ", "no se escribió nada; escriba el valor".to_string()),
        (
            "99999999999999999999999999999",
            "«99999999999999999999999999999» es demasiado grande (como máximo \
             1.000.000.000.000.000); revise la cifra"
                .to_string(),
        ),
    ];
    for (typed, sentence) in refused {
        assert_eq!(read(typed), Err(sentence), "{typed:?}");
    }
}

#[test]
fn a_count_flag_is_whole_and_never_money() {
    let read = |typed: &str| quote("--shares", typed).map(|v| v["shares"].clone());
    assert_eq!(read("1.450"), Ok(Value::from(1450)));
    assert_eq!(read("007"), Ok(Value::from(7)));
    for (typed, sentence) in [
        (
            "1,450",
            "«1,450»: la coma separa los decimales (y esta cantidad es entera) o agrupa miles; si \
             quiere decir 1.450, escriba 1.450, con punto para los miles",
        ),
        (
            "1,45",
            "«1,45» se lee 1,45, que no es un número entero; escriba un entero, p. ej. 4.000",
        ),
        (
            "0,5",
            "«0,5» se lee 0,5, que no es un número entero; escriba un entero, p. ej. 4.000",
        ),
        // an amount of money is no number of shares (it was read as 1450 shares)
        (
            "$1.450",
            "«$1.450» es una cantidad, no una suma de dinero: escríbala sin $ ni COP, p. ej. 1.000",
        ),
        ("-3", "«-3» es negativo; el valor debe ser cero o más"),
        (
            "+3",
            "«+3» lleva el signo +: los valores se escriben sin signo; escriba 3",
        ),
        ("0", "el número de acciones debe ser al menos 1"),
        // 2^64: the bound a count holds, not the amounts' 10^15
        (
            "18446744073709551616",
            "«18446744073709551616» es demasiado grande (como máximo \
             18.446.744.073.709.551.615); revise la cifra",
        ),
    ] {
        assert_eq!(read(typed), Err(sentence.to_string()), "{typed:?}");
    }
}

#[test]
fn a_date_flag_takes_four_digit_years_day_first_and_refuses_the_rest() {
    let read = |typed: &str| quote("--adjudicated", typed).map(|v| v["adjudicated"].clone());
    for (typed, iso) in [
        ("1/2/2024", "2024-02-01"),
        ("5-03-2024", "2024-03-05"),
        ("29/02/2024", "2024-02-29"),
    ] {
        assert_eq!(read(typed), Ok(Value::from(iso)), "{typed:?}");
    }
    let not_a_date = |t: &str| {
        format!(
            "«{t}» no es una fecha; escríbala dd/mm/aaaa (20/11/2024) o aaaa-mm-dd (2024-11-20)"
        )
    };
    let no_such_day =
        |t: &str| format!("«{t}» no es un día del calendario; revise el día y el mes (dd/mm/aaaa)");
    for (typed, sentence) in [
        (
            "01/02/03",
            "«01/02/03» tiene el año con dos dígitos, que vigia no adivina; escriba los cuatro, p. \
             ej. 01/02/2003"
                .to_string(),
        ),
        ("2024-3-5", not_a_date("2024-3-5")),
        ("05.03.2024", not_a_date("05.03.2024")),
        ("05/03/2024 14:30", not_a_date("05/03/2024 14:30")),
        ("2024-03-05T00:00:00", not_a_date("2024-03-05T00:00:00")),
        ("45366", not_a_date("45366")),
        ("31/02/2024", no_such_day("31/02/2024")),
        ("29/02/2023", no_such_day("29/02/2023")),
        // month first, the US way: no 13th month
        ("05/13/2024", no_such_day("05/13/2024")),
    ] {
        assert_eq!(read(typed), Err(sentence), "{typed:?}");
    }
}

/// Days, months and brackets were read by clap's integer parser (`1.000` refused as «not a whole
/// number», `+3` read as 3); `rates add` refused in English in a Spanish run.
#[test]
fn days_months_brackets_and_rates_are_read_by_the_one_reader_in_the_runs_language() {
    let r = Reg::new();
    let o = r.run(&["--lang", "es", "check", "--within-days", "1.000"]);
    assert_ne!(o.status.code(), Some(2), "{}", crate::common::err(&o));
    let e = r.fails(&["--lang", "es", "check", "--within-days", "+3"]);
    assert!(
        e.contains(
            "«--within-days <DÍAS>»: «+3» lleva el signo +: los valores se escriben sin signo; \
             escriba 3"
        ),
        "{e}"
    );
    // what is no number at all is still told to write a count's digits
    let e = r.fails(&["--lang", "es", "check", "--within-days", "tres"]);
    assert!(
        e.contains(&format!("«--within-days <DÍAS>»: «tres» {NOT_A_COUNT}")),
        "{e}"
    );
    let q = Reg::without_register();
    let e = q.fails(&[
        "--lang",
        "es",
        "fine",
        "quote",
        "--adjudicated",
        "15/03/2024",
        "--breach-date",
        "20/11/2024",
        "--shares",
        "1.000",
        "--acquisition-price",
        "963",
        "--until",
        "10/02/2025",
        "--brackets",
        "+6:100,12:75,18:50,24:25",
    ]);
    assert!(
        e.contains(
            "--brackets +6:100,12:75,18:50,24:25: «+6» lleva el signo +: los valores se escriben \
             sin signo; escriba 6"
        ),
        "{e}"
    );
    // a percentage with a decimal comma in a comma-separated list: said why, and how
    let brackets = |list: &str| {
        let mut args = vec![
            "--lang",
            "es",
            "fine",
            "quote",
            "--adjudicated",
            "15/03/2024",
            "--breach-date",
            "20/11/2025",
            "--shares",
            "1.000",
            "--acquisition-price",
            "963",
            "--until",
            "10/02/2026",
            "--brackets",
        ];
        args.push(list);
        q.run(&args)
    };
    let o = brackets("6:100,12:75,18:50,24:37,5");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        crate::common::err(&o).contains(
            "«24:37,5» quedó partido en dos; para un porcentaje con coma decimal separe los tramos \
             con punto y coma: 6:100;12:75;18:50;24:37,5"
        ),
        "{}",
        crate::common::err(&o)
    );
    // with semicolons it is read: 20/11/2025 is between 18 and 24 months after 15/03/2024, so
    // 37,5 %: 1.000 × $ 963 × 37,5 % = $ 361.125
    let o = brackets("6:100;12:75;18:50;24:37,5");
    assert_eq!(o.status.code(), Some(0), "{}", crate::common::err(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("Multa (capital): 1.000 acciones × $ 963 × 37,5 % = $ 361.125"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // a record's number reads as a count; clap's integer parser answered in Rust's English
    assert_eq!(
        r.fails(&["--lang", "es", "breach", "show", "1.450"]),
        "vigia: error: no hay incumplimiento N.º 1450 en el registro; consulte la lista con `vigia breach list`\n"
    );
    let e = r.fails(&["--lang", "en", "breach", "show", "1,5"]);
    assert!(
        e.contains("invalid value '1,5' for '<ID>': \"1,5\" is not a record's number: write its digits, e.g. 12"),
        "{e}"
    );
    let before = r.dump();
    let add = |lang: &str, ibc: &str| {
        r.fails(&[
            "--lang",
            lang,
            "rates",
            "add",
            "--from",
            "01/02/2099",
            "--to",
            "28/02/2099",
            "--ibc",
            ibc,
            "--resolution",
            "SFC Res. 1 de 2099",
        ])
    };
    assert_eq!(
        add("es", "-3"),
        "vigia: error: rates add --from 01/02/2099 --to 28/02/2099: el interés bancario corriente \
         (--ibc) -3 debe ser un porcentaje efectivo anual positivo\n"
    );
    assert_eq!(
        add("en", "-3"),
        "vigia: error: rates add --from 2099-02-01 --to 2099-02-28: --ibc -3 must be a \
         positive % EA\n"
    );
    let e = add("es", "$18");
    assert!(
        e.contains(
            "«$18» es una tasa, no una suma de dinero: escríbala sin $ ni COP, p. ej. 27,90"
        ),
        "{e}"
    );
    // a point then three digits: 32,985 % to some, 32.985 % to a Colombian reader (the usury
    // rate of 2016-10 is 1,5 × 21,99 = 32,985): both readings, never one guessed
    let e = add("es", "32.985");
    assert!(
        e.contains(
            "«32.985» se puede leer de dos maneras: 32,985 % (punto decimal) o 32.985 % (punto \
             de miles); escriba la tasa con coma decimal, 32,985"
        ),
        "{e}"
    );
    assert_eq!(r.dump(), before, "nothing was written");
}

/// The breach form (its preview writes nothing) reads its inputs as the flags do; a refusal is
/// shown beside its input.
#[test]
fn the_breach_form_reads_hostile_values_as_the_flags_do() {
    let r = register_with_users();
    let s = Server::start(&r);
    let (mut c, csrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let before = r.dump();
    let mut post = |field: &str, typed: &str| {
        let mut f = breach_fields(&csrf, "vista");
        for kv in f.iter_mut() {
            if kv.0 == field {
                kv.1 = typed;
            }
        }
        let resp = c.post("/adjudicaciones/1/incumplimiento", &f);
        (resp.status, resp.text())
    };
    // read: 1.000 shares at $ 1.450, the principal of SPEC §5
    for typed in ["1.450", "1 450", "1\u{a0}450", "$1.450", "$ 1.450"] {
        let (status, t) = post("consideration_per_share", typed);
        assert_eq!(status, 200, "{typed:?}");
        assert!(
            t.contains("1.000 acciones × $\u{a0}1.450 × 75 % = <strong>$\u{a0}1.087.500</strong>"),
            "{typed:?}: {t}"
        );
    }
    let refused = [
        (
            "consideration_per_share",
            "1,450.50",
            "«1,450.50» está escrito a la estadounidense \
          (comas de miles, punto decimal); vigia lee punto para los miles y coma para los \
          decimales: escriba 1.450,50.",
        ),
        (
            "consideration_per_share",
            "1e3",
            "«1e3» no es un número: escríbalo como 1.450,50.",
        ),
        (
            "consideration_per_share",
            "1450 50",
            "«1450 50» tiene los separadores fuera de lugar; escriba un punto cada tres dígitos \
             para los miles y una coma para los decimales, p. ej. 1.450.000,50.",
        ),
        (
            "consideration_per_share",
            "-3",
            "«-3» es negativo: el valor debe ser positivo, p. ej. 1.450,50.",
        ),
        (
            "shares",
            "$1.450",
            "«$1.450» es una cantidad, no una suma de dinero: escríbala sin $ \
          ni COP, p. ej. 1.000.",
        ),
        (
            "shares",
            "-3",
            "«-3» no es un número entero de acciones: escriba las acciones, p. ej. 1.000.",
        ),
        (
            "shares",
            "１２",
            "«１２» no es un número entero de acciones: escriba las acciones, p. ej. 1.000.",
        ),
        (
            "shares",
            "0,5",
            "«0,5» se lee 0,5, que no es un número entero; escriba un entero, p. ej. 4.000.",
        ),
        ("shares", "", "Falta: indique el número de acciones."),
        (
            "breach_date",
            "01/02/03",
            "«01/02/03» tiene el año con dos dígitos, que vigia no adivina; \
          escriba los cuatro, p. ej. 01/02/2003.",
        ),
        (
            "breach_date",
            "31/02/2024",
            "«31/02/2024» no es un día del calendario; revise el día y el \
          mes (dd/mm/aaaa).",
        ),
        (
            "breach_date",
            "20/11/2024 14:30",
            "«20/11/2024 14:30» no es una fecha; escríbala \
          dd/mm/aaaa (20/11/2024) o aaaa-mm-dd (2024-11-20).",
        ),
    ];
    for (field, typed, sentence) in refused {
        let (status, t) = post(field, typed);
        assert_eq!(status, 422, "{field} {typed:?}");
        assert_eq!(
            error_text(&t, field).as_deref(),
            Some(sentence),
            "{field} {typed:?}"
        );
    }
    assert_eq!(r.dump(), before, "a preview or a refusal writes nothing");
}

/// A workbook's cells: a number cell is read as the value it holds (the shortest decimal of its
/// double, which is what was typed), whatever its display format rounds it to; a date with a
/// time of day, or a count beyond what a count holds, is refused by name.
#[test]
fn workbook_cells_are_read_by_the_value_they_hold_and_refused_by_name() {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let import = |fill: &dyn Fn(&mut rust_xlsxwriter::Worksheet)| {
        let r = Reg::new();
        let mut book = Workbook::new();
        let s = book.add_worksheet();
        for (c, h) in (0u16..).zip(HEADER.trim().split(',')) {
            s.write_string(0, c, h).unwrap();
        }
        let row = [
            "CC",
            "1000000001",
            "Ana",
            "natural",
            "trabajador",
            "1000",
            "",
            "15/03/2024",
        ];
        for (c, v) in (0u16..).zip(row) {
            s.write_string(1, c, v).unwrap();
        }
        fill(s);
        let path = r.file("a.xlsx", &book.save_to_buffer().unwrap());
        let before = r.dump();
        let o = r.run(&["adjudications", "import", &path, "--program", "D3939-2004"]);
        if o.status.success() {
            Ok(r.json(&["adjudications", "list", "--format", "json"])[0].clone())
        } else {
            assert_eq!(o.status.code(), Some(2));
            assert_eq!(r.dump(), before, "nothing was written");
            Err(crate::common::err(&o))
        }
    };
    // 1450,5 in a cell shown without decimals (`1.451`): the value held
    let a = import(&|s| {
        let whole = Format::new().set_num_format("#,##0");
        s.write_number_with_format(1, 6, 1450.5, &whole).unwrap();
    })
    .unwrap();
    assert_eq!(a["price_per_share"], "1450.5", "{a}");
    // a date cell with a time of day is not a day
    let e = import(&|s| {
        let at = ExcelDateTime::from_ymd(2024, 3, 15)
            .unwrap()
            .and_hms(14, 30, 0)
            .unwrap();
        let day = Format::new().set_num_format("dd/mm/yyyy");
        s.write_datetime_with_format(1, 7, &at, &day).unwrap();
    })
    .unwrap_err();
    assert!(
        e.contains("line 2: adjudicated_on \"2024-03-15 14:30:00\": must be a date DD/MM/YYYY or YYYY-MM-DD"),
        "{e}"
    );
    // 10^20 shares: too large for a count, said with the bound
    let e = import(&|s| {
        s.write_number(1, 5, 1e20).unwrap();
    })
    .unwrap_err();
    assert!(
        e.contains(
            "line 2: shares \"100000000000000000000\": \"100000000000000000000\" is too large (at \
             most 18.446.744.073.709.551.615); check the figure"
        ),
        "{e}"
    );
}
