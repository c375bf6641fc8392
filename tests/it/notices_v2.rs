//! A notice of layout 2 printed its reference prices rounded to two decimals («$ 1.450,13» for a
//! consideration of $ 1.450,125 per share) and, for a price *so far*, promised a re-liquidation
//! "cuando se registre el precio de la etapa" (recorded already). Layout 3 prints every decimal
//! and says the price is the highest so far. `tests/fixtures/notices-v2/` holds a register and a
//! notice of layout 2 written by the build before layout 3 (its README says how): it must still
//! verify and render again byte for byte, while a new notice takes layout 3.

use crate::common::Reg;

const NUMBER: &str = "MULTA-2024-0001";

fn path(r: &Reg, name: &str) -> String {
    r.dir.path().join(name).display().to_string()
}

/// By hand: Ana (adjudication 1, 1.000 shares at $ 963 on 15/03/2024) sold 10 on 10/07/2024
/// (first 6 months: 100 %) at $ 1.450,125 each; the Second Stage sold part at $ 1.100 and left
/// the rest to the Third (so far). Reference max(963; 1.450,125; 1.100) = 1.450,125 (transfer):
/// principal 10 × 1.450,125 × 100 % = 14.501,25 → $ 14.501; provisional.
#[test]
fn a_notice_of_layout_2_renders_as_it_was_and_a_new_one_shows_every_decimal() {
    let r = Reg::copy_of("notices-v2");
    let old = std::fs::read_to_string(r.dir.path().join(format!("{NUMBER}.md"))).unwrap();
    assert!(
        old.contains(
            "| precio o contraprestación de la transferencia | $ 1.450,13 | mayor valor |"
        ) && old.contains("cuando se registre el precio de la etapa, la multa se reliquidará")
            && old.contains("**Multa: 10 acciones × $ 1.450,125 × 100 % = $ 14.501**"),
        "{old}"
    );
    for format in ["md", "html", "pdf"] {
        let file = format!("{NUMBER}.{format}");
        let o = r.ok(&["notice", "verify", &path(&r, &file)]);
        assert!(
            o.contains("document text and figures: match the register")
                && o.contains("file: identical to the"),
            "{o}"
        );
        let again = format!("again-{file}");
        r.ok(&[
            "notice",
            "render",
            NUMBER,
            "--format",
            format,
            "--out",
            &path(&r, &again),
        ]);
        assert_eq!(
            std::fs::read(r.dir.path().join(&file)).unwrap(),
            std::fs::read(r.dir.path().join(&again)).unwrap(),
            "{file} renders again byte for byte under layout 2"
        );
    }
    // a new notice of the same fine: layout 3
    r.ok(&[
        "notice",
        "issue",
        "1",
        "--until",
        "2024-07-31",
        "--date",
        "2024-07-31",
        "--reason",
        "fecha del caso de prueba",
        "--format",
        "md",
        "--out",
        &path(&r, "new.md"),
    ]);
    let new = std::fs::read_to_string(r.dir.path().join("new.md")).unwrap();
    assert!(
        new.contains("| precio de adquisición | $ 963,00 |  |")
            && new.contains(
                "| precio o contraprestación de la transferencia | $ 1.450,125 | mayor valor |"
            )
            && new.contains("| precio de la Segunda o Tercera Etapa | $ 1.100,00 |  |")
            && new.contains("**Multa: 10 acciones × $ 1.450,125 × 100 % = $ 14.501**"),
        "{new}"
    );
    assert!(
        new.contains(
            "**LIQUIDACIÓN PROVISIONAL: el precio recibido por los vendedores en la etapa \
             posterior, $ 1.100 por acción, es el mayor obtenido hasta ahora; la etapa que ofrece \
             las acciones que quedaron sin vender aún no ha concluido, y esta liquidación es \
             provisional hasta que concluya. Esta notificación cobra la suma liquidada con los \
             precios conocidos, $ 14.717; cuando esa etapa concluya, la multa se reliquidará y se \
             le notificará la nueva liquidación.**"
        ) && !new.contains("cuando se registre el precio de la etapa"),
        "{new}"
    );
    let o = r.ok(&["notice", "verify", &path(&r, "new.md")]);
    assert!(
        o.contains("document text and figures: match the register"),
        "{o}"
    );
}
