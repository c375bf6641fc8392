//! The *paz y salvo* as a document, in the notices' block machinery (`report::notice`): the
//! fine, the liquidation that shows it paid with every payment and its imputation, the statement
//! that the obligation is extinguished, and what it means for the pledge.

use super::notice::{
    Block, MoneyFmt, addressee, date_line, letterhead, long_date, md_text, payment_rows, signature,
    tidy,
};
use crate::money::{format_cop, format_number};
use crate::notice::SettlementData;
use rust_decimal::Decimal;

/// The document's blocks, every value an officer typed as typed (HTML, PDF).
pub fn blocks(d: &SettlementData) -> Vec<Block> {
    blocks_with(d, &|s| s.to_string(), true)
}

/// The document's blocks for Markdown (officer-typed values made inert).
pub fn markdown_blocks(d: &SettlementData) -> Vec<Block> {
    blocks_with(d, &md_text, false)
}

/// `glue`: for layout 2, `$` and `%` bound to their figures (HTML and PDF).
fn blocks_with(d: &SettlementData, q: &dyn Fn(&str) -> String, glue: bool) -> Vec<Block> {
    let l = &d.liquidation;
    let issuer = &d.letters.issuer;
    let mut out = letterhead(issuer, q);
    out.extend([
        Block::Title(format!("PAZ Y SALVO No. {}", d.number)),
        Block::Subtitle(format!(
            "Programa: {} — {}",
            q(&d.program_code),
            q(&d.decree)
        )),
        Block::Subtitle(date_line(issuer, d.date, q)),
    ]);
    out.push(Block::Heading("Titular".into()));
    out.push(Block::Para(addressee(
        &d.holder_name,
        &d.doc_type,
        &d.doc_number,
        d.contact.as_ref(),
        q,
    )));
    out.push(Block::Heading("1. La multa".into()));
    let noticed = match &d.notice {
        Some((number, date)) => {
            format!(", notificada con la No. {number} del {}", long_date(*date))
        }
        None => String::new(),
    };
    out.push(Block::Para(format!(
        "Por {} de {} acciones el {}, adquiridas por adjudicación No. {} del {}, se causó la multa del {}, {}{noticed}: \
         {} de capital ({} acciones × {} × {}) más el ajuste a la tasa máxima moratoria (convención de cálculo: {}).",
        d.breach.kind.act_es(),
        format_number(Decimal::from(d.breach.shares)),
        long_date(d.breach.breach_date),
        d.adjudication_id,
        long_date(d.adjudicated_on),
        q(&d.fine_article),
        q(&d.decree),
        format_cop(l.principal),
        format_number(Decimal::from(l.shares)),
        format_cop(l.reference_price),
        crate::money::format_percent(l.bracket.percent),
        l.convention.name_es()
    )));
    out.push(Block::Heading("2. Pagos".into()));
    out.push(Block::Para(
        "Pagos recibidos, imputados primero a intereses y luego a capital (Código Civil, artículo 1653):".into(),
    ));
    out.push(Block::Table {
        header: ["Fecha", "Valor", "A intereses", "A capital", "Excedente"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        rows: payment_rows(l),
        right: vec![false, true, true, true, true],
    });
    let paid: Decimal = l.payments.iter().map(|p| p.amount).sum();
    let money = MoneyFmt::of([l.principal, l.interest, paid, l.total_due, l.surplus]);
    let mut totals = vec![
        vec!["Capital de la multa".to_string(), money.cop(l.principal)],
        vec![
            format!("Intereses causados hasta el {}", long_date(l.until)),
            money.cop(l.interest),
        ],
        vec!["Total pagado".into(), money.cop(paid)],
        vec!["Saldo".into(), money.cop(l.total_due)],
    ];
    if l.surplus > Decimal::ZERO {
        totals.push(vec!["Excedente a devolver".into(), money.cop(l.surplus)]);
    }
    out.push(Block::Table {
        header: vec!["Concepto".into(), "Valor".into()],
        rows: totals,
        right: vec![false, true],
    });
    out.push(Block::Heading("3. Certificación".into()));
    out.push(Block::Strong(format!(
        "Los vendedores certifican que {} se encuentra a paz y salvo por la multa descrita: con el pago del {} la \
         obligación quedó extinguida (Código Civil, artículo 1625) y nada se adeuda por ella.",
        q(&d.holder_name),
        long_date(l.until)
    )));
    if l.surplus > Decimal::ZERO {
        out.push(Block::Para(format!(
            "El excedente de {} se devolverá al titular.",
            format_cop(l.surplus)
        )));
    }
    let v2 = d.layout >= 2;
    // layout 2, several pledges in force (split pledges, Art. 10): each named, in the plural
    let several = v2 && d.pledges.len() > 1;
    let each = d
        .pledges
        .iter()
        .map(|p| {
            format!(
                "N.º {}, de {} grado sobre {} acciones",
                p.id,
                if p.rank == 2 { "segundo" } else { "primer" },
                crate::money::format_number(Decimal::from(p.shares))
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    out.push(Block::Para(match &d.pledge {
        Some(_) if several && d.date > l.lockup_end => format!(
            "El período de restricción de negociabilidad terminó el {}: las prendas sobre las acciones ({each}; {} \
             del {}) pueden levantarse, si no hay otra multa pendiente sobre ellas.",
            long_date(l.lockup_end),
            q(&d.pledge_article),
            q(&d.decree)
        ),
        Some(_) if several => format!(
            "Las prendas sobre las acciones ({each}; {} del {}) se mantienen hasta el fin del período de \
             restricción de negociabilidad, el {}; a partir del día siguiente pueden levantarse, si no hay otra \
             multa pendiente sobre ellas.",
            q(&d.pledge_article),
            q(&d.decree),
            long_date(l.lockup_end)
        ),
        // layout 2: an unrecorded pledge is the sellers' internal finding, not a sentence
        None if v2 => String::new(),
        None => "En el registro no consta prenda sobre las acciones.".into(),
        Some(p) if p.released_on.is_some_and(|r| r <= d.date) => format!(
            "La prenda sobre las acciones se levantó el {}.",
            long_date(p.released_on.unwrap_or(d.date))
        ),
        Some(_) if d.date > l.lockup_end => format!(
            "El período de restricción de negociabilidad terminó el {}: la prenda sobre las acciones ({} del {}) \
             puede levantarse, si no hay otra multa pendiente sobre ellas.",
            long_date(l.lockup_end),
            q(&d.pledge_article),
            q(&d.decree)
        ),
        Some(_) => format!(
            "La prenda sobre las acciones ({} del {}) se mantiene hasta el fin del período de restricción de \
             negociabilidad, el {}; a partir del día siguiente puede levantarse, si no hay otra multa pendiente \
             sobre ellas.",
            q(&d.pledge_article),
            q(&d.decree),
            long_date(l.lockup_end)
        ),
    }));
    out.push(signature(issuer, q));
    out.push(Block::Small(format!(
        "Huella de la liquidación No. {} (SHA-256): {}",
        d.liquidation_id, d.fingerprint
    )));
    if let Some(h) = &d.chain {
        out.push(Block::Small(format!(
            "Registro de auditoría al emitirlo: evento No. {} de la cadena, SHA-256 {}",
            h.count, h.hash
        )));
    }
    if v2 {
        out.push(Block::Small(format!(
            "Para confirmar la autenticidad de este paz y salvo, comuníquese con los vendedores{} citando su número, {}, \
             y la huella de la liquidación indicada arriba: los vendedores la cotejan con su registro.",
            issuer
                .address
                .as_ref()
                .map(|a| format!(" en {}", q(a.trim_end_matches('.'))))
                .unwrap_or_default(),
            d.number
        )));
        out.retain(|b| !matches!(b, Block::Para(t) if t.is_empty()));
        return super::notice_v2::bound(tidy(out), glue);
    }
    out.push(Block::Small(format!(
        "Para verificar este documento ejecute «vigia notice verify ARCHIVO»: recalcula la liquidación No. {} desde el \
         registro y compara sus cifras y su huella con las de este documento.",
        d.liquidation_id
    )));
    tidy(out)
}
