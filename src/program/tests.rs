//! Unit tests of `program.rs`.

use super::*;
use crate::money::dec;

#[test]
fn every_embedded_program_reads_under_its_own_code() {
    for (code, text) in EMBEDDED {
        let p = Program::from_toml(text).unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(p.code, code);
    }
    // seed 003 num. 5: five times the least of the two documents' income
    let ebsa = Program::from_toml(EBSA_2010).unwrap();
    let five = ebsa
        .caps
        .iter()
        .find(|c| c.rule.contains("numeral 5"))
        .unwrap();
    assert_eq!(five.of.len(), 2);
}

#[test]
fn shipped_program_matches_the_decree() {
    let p = Program::from_toml(DECRETO_3939_2004).unwrap();
    // Decreto 3939 de 2004, considerandos and Art. 1: Bancafé 12,861,067 + Granahorrar 99,915.
    assert_eq!(p.shares_offered, 12_960_982);
    assert_eq!(
        p.sellers.iter().map(|s| s.shares).collect::<Vec<_>>(),
        vec![12_861_067, 99_915]
    );
    // Art. 5 lit. b: $963.00.
    assert_eq!(p.fixed_price, dec("963.00"));
    // Art. 9 lits. a–d.
    assert_eq!(p.scale().unwrap(), FineScale::decreto_3939_2004());
    assert_eq!(p.breach_kinds.len(), 4);
    assert_eq!(p.convention, Convention::DailySimple);
}

#[test]
fn rejects_inconsistent_files_naming_the_field() {
    let bad = DECRETO_3939_2004.replace("shares_offered = 12960982", "shares_offered = 12960983");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "shares_offered"
    );
    let bad = DECRETO_3939_2004.replace("upto_months = 12,", "upto_months = 30,");
    assert_eq!(Program::from_toml(&bad).unwrap_err().field, "brackets");
    let bad = DECRETO_3939_2004.replace("convention = \"daily-simple\"", "convention = \"daily\"");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().to_string(),
        "field `convention`: \"daily\" is not a convention; use daily-simple, period-effective or compound"
    );
    let bad = DECRETO_3939_2004.replace("\"acquisition\", ", "");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().to_string(),
        "field `reference_prices`: must include \"acquisition\""
    );
    let bad = DECRETO_3939_2004.replace("\"acquisition\"", "\"purchase\"");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "reference_prices"
    );
    let p = Program::from_toml(DECRETO_3939_2004).unwrap();
    assert!(p.uses(Basis::Acquisition));
    assert_eq!(
        p.later_stages,
        LaterStages {
            last: crate::later_stages::Stage::Third,
            criterion: Criterion::PresentValue(CriterionRate::Ibc),
            minimum_guarantee: Decimal::ZERO,
            // Arts. 14 c, 17 c: the next banking business day
            max_term_days: Some(0),
            minimum_price: MinimumPrice::FirstStage,
            articles: crate::later_stages::Articles::default(),
        }
    );
    let bad = DECRETO_3939_2004.replace("max_term_days = 0", "max_term_days = 3651");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "later_stages.max_term_days"
    );
    let fixed = DECRETO_3939_2004.replace("rate = \"ibc\"", "rate = \"12.5\"");
    assert_eq!(
        Program::from_toml(&fixed).unwrap().later_stages.criterion,
        Criterion::PresentValue(CriterionRate::Fixed(dec("12.5")))
    );
    let bad = DECRETO_3939_2004.replace("rate = \"ibc\"", "rate = \"doce\"");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "later_stages.rate"
    );
    // a point then three digits is 32,985 % to some and 32.985 % to a Colombian reader: refused
    // with both readings and how to write it, not with «write an effective annual percent»
    let bad = DECRETO_3939_2004.replace("rate = \"ibc\"", "rate = \"32.985\"");
    let e = Program::from_toml(&bad).unwrap_err();
    assert_eq!(e.field, "later_stages.rate");
    assert_eq!(
        e.message.es(),
        "«32.985» se puede leer de dos maneras: 32,985 % (punto decimal) o 32.985 % (punto de \
         miles); escriba la tasa con coma decimal, 32,985"
    );
    let fixed = DECRETO_3939_2004.replace("rate = \"ibc\"", "rate = \"32,985\"");
    assert_eq!(
        Program::from_toml(&fixed).unwrap().later_stages.criterion,
        Criterion::PresentValue(CriterionRate::Fixed(dec("32.985")))
    );
    let bad = DECRETO_3939_2004.replace("last = 3", "last = 4");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "later_stages.last"
    );
    let bad = DECRETO_3939_2004.replace("criterion = \"present-value\"", "criterion = \"price\"");
    assert_eq!(
        Program::from_toml(&bad).unwrap_err().field,
        "later_stages.criterion"
    );
    let bad = DECRETO_3939_2004.replace("fixed_price = \"963.00\"", "fixed_price = 963.0");
    let e = Program::from_toml(&bad).unwrap_err();
    assert!(e.message.en().contains("fixed_price"), "{e}");
}

#[test]
fn every_program_number_is_bounded_with_the_rule_in_the_message() {
    let with = |from: &str, to: &str| {
        assert!(DECRETO_3939_2004.contains(from), "{from}");
        Program::from_toml(&DECRETO_3939_2004.replace(from, to))
            .unwrap_err()
            .to_string()
    };
    let term = "payment_term_business_days = 10";
    assert_eq!(
        with(term, "payment_term_business_days = 4294967295"),
        "field `payment_term_business_days`: 4294967295 is not a term vigia counts: write 1 to 90 business days (the shipped program uses 10)"
    );
    assert!(with(term, "payment_term_business_days = 0").contains("write 1 to 90"));
    assert!(
        Program::from_toml(&DECRETO_3939_2004.replace(term, "payment_term_business_days = 90"))
            .is_ok()
    );
    assert_eq!(
        with("lockup_months = 24", "lockup_months = 36"),
        "field `lockup_months`: 36 months is not a lock-up Ley 226 de 1995 art. 14 allows: write 1 to 24"
    );
    assert!(with("lockup_months = 24", "lockup_months = 0").starts_with("field `lockup_months`"));
    assert!(
            with("shares_offered = 12960982", "shares_offered = 0")
                .starts_with("field `shares_offered`: 0 is not a number of shares vigia can register: write 1 to 9223372036854775807")
        );
    // sellers whose shares overflow a count when summed (they wrapped to the offer in a
    // release build)
    let big = DECRETO_3939_2004
        .replace("shares = 12861067", "shares = 18446744073709551615")
        .replace("shares = 99915", "shares = 12960983");
    assert_eq!(
        Program::from_toml(&big).unwrap_err().field,
        "sellers.shares"
    );
    // in Spanish, one sentence naming the field, the limit (es-CO) and what the sum must be
    assert_eq!(
        Program::from_toml(&big).unwrap_err().in_lang(Lang::Es),
        "campo `sellers.shares`: las acciones de los vendedores (`shares` de cada `[[sellers]]`) \
         suman más de 9.223.372.036.854.775.807, el máximo que vigia puede registrar; deben sumar \
         lo que dice `shares_offered` (12.960.982)"
    );
}

#[test]
fn a_refused_file_is_said_in_spanish_naming_the_field() {
    let es = |text: &str| Program::from_toml(text).unwrap_err().in_lang(Lang::Es);
    let decree = "decree = \"Decreto 3939 de 2004\"\n";
    assert!(DECRETO_3939_2004.contains(decree));
    let missing = DECRETO_3939_2004.replace(decree, "");
    assert_eq!(
        es(&missing),
        "falta el campo `decree`, que es obligatorio. Detalle técnico del lector TOML: «missing \
             field `decree`»"
    );
    // the English is the reader's own, as before
    assert!(
        Program::from_toml(&missing)
            .unwrap_err()
            .to_string()
            .starts_with("not a valid program file: TOML parse error at line 1, column 1")
    );
    // a seller without its shares: the table it is missing from (line 111 of the shipped file)
    let seller = DECRETO_3939_2004.replace("shares = 99915\n", "");
    assert!(
            es(&seller).starts_with(
                "falta el campo `shares`, que es obligatorio (en la tabla `[[sellers]]` de la línea 111)."
            ),
            "{}",
            es(&seller)
        );
    // a binary float where an exact decimal is asked for: the line, as written
    let float = DECRETO_3939_2004.replace("fixed_price = \"963.00\"", "fixed_price = 963.0");
    let line = DECRETO_3939_2004
        .lines()
        .position(|l| l.starts_with("fixed_price"))
        .unwrap()
        + 1;
    assert!(
            es(&float).starts_with(&format!(
                "el valor de `fixed_price` no es del tipo que el campo pide (línea {line}: `fixed_price = \
                 963.0`). Detalle técnico del lector TOML: «invalid type: floating point `963.0`"
            )),
            "{}",
            es(&float)
        );
    let unknown = DECRETO_3939_2004.replace(decree, "decre = \"x\"\n");
    assert!(
        es(&unknown).starts_with(
            "el campo `decre` no es de un programa: revise cómo está escrito o quítelo (línea 8)."
        ),
        "{}",
        es(&unknown)
    );
    // a clause the file states wrongly, in Spanish with es-CO figures
    let bad = DECRETO_3939_2004.replace("shares_offered = 12960982", "shares_offered = 12960983");
    assert_eq!(
        es(&bad),
        "campo `shares_offered`: 12.960.983 no es la suma de las acciones de los vendedores \
             (12.960.982)"
    );
    let bad = DECRETO_3939_2004.replace("upto_months = 12,", "upto_months = 30,");
    assert_eq!(
        es(&bad),
        "campo `brackets`: un tramo de 30 meses excede el límite de 24 meses del art. 14 de la Ley \
             226 de 1995"
    );
}

/// A quoted amount or percent the one reader refuses is named by its field and line, in the
/// reader's words in each language (the Spanish run showed the English sentence, under «the file
/// cannot be read as TOML», which it can).
#[test]
fn a_value_the_reader_refuses_is_named_by_field_and_line_in_both_languages() {
    let line = |key: &str| {
        DECRETO_3939_2004
            .lines()
            .position(|l| l.trim_start().starts_with(key))
            .unwrap()
            + 1
    };
    let two_ways = DECRETO_3939_2004.replace("fixed_price = \"963.00\"", "fixed_price = \"1,450\"");
    let e = Program::from_toml(&two_ways).unwrap_err();
    let n = line("fixed_price");
    assert_eq!(
        e.in_lang(Lang::Es),
        format!(
            "campo `fixed_price`: línea {n} (`fixed_price = \"1,450\"`): «1,450» se puede leer de dos \
             maneras: 1,45 (coma decimal) o 1.450 (coma de miles); escriba 1.450 o 1,45: punto para \
             los miles y coma para los decimales"
        )
    );
    assert!(
        e.in_lang(Lang::En).starts_with(&format!(
            "field `fixed_price`: line {n} (`fixed_price = \"1,450\"`): \"1,450\" can be read two ways"
        )),
        "{}",
        e.in_lang(Lang::En)
    );
    // inside an inline table, the key before the value
    let bracket = DECRETO_3939_2004.replace(
        "{ upto_months = 6, percent = \"100\" }",
        "{ upto_months = 6, percent = \"\" }",
    );
    let n = line("{ upto_months = 6,");
    assert_eq!(
        Program::from_toml(&bracket).unwrap_err().in_lang(Lang::Es),
        format!(
            "campo `percent`: línea {n} (`{{ upto_months = 6, percent = \"\" }},`): no se escribió \
             nada; escriba el valor"
        )
    );
}

/// A count of a program file written the Colombian way (`12.960`, a TOML float) or quoted is
/// refused saying how TOML writes it (the sentence said only «not of the type the field asks»,
/// quoting the float 12.96).
#[test]
fn a_count_written_with_a_point_or_quoted_says_to_write_its_digits_only() {
    let n = DECRETO_3939_2004
        .lines()
        .position(|l| l.starts_with("shares_offered"))
        .unwrap()
        + 1;
    for typed in ["12.960", "\"12.960.982\""] {
        let text = DECRETO_3939_2004.replace(
            "shares_offered = 12960982",
            &format!("shares_offered = {typed}"),
        );
        let e = Program::from_toml(&text).unwrap_err();
        assert_eq!(
            e.in_lang(Lang::Es),
            format!(
                "campo `shares_offered`: línea {n} (`shares_offered = {typed}`): un número entero se \
                 escribe solo con sus cifras (sin puntos de miles ni comillas), p. ej. 12960982"
            )
        );
        assert!(
            e.in_lang(Lang::En)
                .ends_with("a whole number is written with its digits only (no thousands points, no quotes), e.g. 12960982"),
            "{}",
            e.in_lang(Lang::En)
        );
    }
}
