//! The fine notice's text of layout 1: the documents issued before issue 20 (no text version
//! recorded) keep rendering with it, byte for byte, so that they still verify. Frozen: a change
//! of wording is a new layout (`notice_v2`), never an edit here.

use super::notice::*;
use crate::fine::{Basis, StagePrice};
use crate::money::{format_cop, format_percent};
use crate::notice::NoticeData;
use crate::program::TermFrom;
use crate::store::pledges::Pledge;
use chrono::NaiveDate;

/// The blocks, with `q` applied to every value an officer typed.
pub(super) fn blocks_with(d: &NoticeData, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let l = &d.liquidation;
    let b = &d.breach;
    let issuer = &d.letters.issuer;
    let mut out = letterhead(issuer, q);
    out.extend([
        Block::Title(format!("NOTIFICACIÓN DE MULTA No. {}", d.number)),
        Block::Subtitle(format!(
            "Programa: {} — {}",
            q(&d.program_code),
            q(&d.decree)
        )),
        Block::Subtitle(date_line(issuer, d.notice_date, q)),
    ]);
    if let Some((number, date)) = &d.supersedes {
        out.push(Block::Strong(format!(
            "Esta notificación reemplaza la No. {number} del {}, que se conserva en el registro.",
            long_date(*date)
        )));
    }
    if l.provisional {
        out.push(Block::Strong(
            "LIQUIDACIÓN PROVISIONAL: el precio de la Segunda o Tercera Etapa aún no se conoce; la multa puede aumentar \
             cuando se registre."
                .into(),
        ));
    }
    let sellers: Vec<String> = d
        .sellers
        .iter()
        .map(|s| match &s.nit {
            Some(nit) => format!("{} (NIT {})", q(&s.name), q(nit)),
            None => q(&s.name),
        })
        .collect();
    out.push(Block::Heading("Acreedores".into()));
    out.push(Block::Para(format!(
        "Los vendedores del Programa de Enajenación aprobado por el {}: {}, titulares de las acciones de {}.",
        q(&d.decree),
        sellers.join(" y "),
        q(d.issuer.trim_end_matches('.'))
    )));
    out.push(Block::Heading("Destinatario".into()));
    out.push(Block::Para(addressee(
        &d.holder_name,
        &d.doc_type,
        &d.doc_number,
        d.contact.as_ref(),
        q,
    )));

    out.push(Block::Heading("1. Hechos".into()));
    out.push(Block::Para(format!(
        "Por adjudicación No. {} del {}, en la Primera Etapa del programa y como destinatario de condiciones \
         especiales ({}), usted adquirió {} acciones a {} por acción.",
        d.adjudication_id,
        long_date(d.adjudicated_on),
        q(&d.category),
        n(d.adjudicated_shares),
        format_cop(d.adjudication_price)
    )));
    out.push(Block::Para(match &d.pledge {
        Some(p) => format!(
            "Las acciones fueron pignoradas en favor de los vendedores con prenda de {} grado sin tenencia, inscrita el {}{}.",
            rank_es(p.rank),
            long_date(p.registered_on),
            p.lender.as_ref().map(|x| format!(" (acreedor financiador: {})", q(x))).unwrap_or_default()
        ) + &match p.released_on {
            Some(r) if r <= d.notice_date => format!(" La prenda se levantó el {}.", long_date(r)),
            _ => String::new(),
        },
        None => "En el registro no consta la inscripción de la prenda sobre las acciones.".into(),
    }));
    let consideration = match (b.consideration_per_share, b.consideration_total) {
        (Some(p), _) => format!(", por una contraprestación de {} por acción", format_cop(p)),
        (None, Some(t)) => format!(", por una contraprestación total de {}", format_cop(t)),
        (None, None) => String::new(),
    };
    let mut facts = format!(
        "El {} tuvo lugar {} de {} acciones{consideration}, dentro del período de restricción de negociabilidad, \
         que termina el {}.",
        long_date(b.breach_date),
        b.kind.act_es(),
        n(b.shares),
        long_date(l.lockup_end)
    );
    if let Some(r) = b.registered_on {
        facts.push_str(&format!(" La operación se inscribió el {}.", long_date(r)));
    }
    if let Some(e) = &b.evidence {
        facts.push_str(&format!(" Soporte: {}.", q(e.trim_end_matches('.'))));
    }
    out.push(Block::Para(facts));

    out.push(Block::Heading("2. Fundamento jurídico".into()));
    out.push(Block::Para(
        "Ley 226 de 1995, artículo 14: el programa de enajenación puede limitar la negociabilidad de las acciones \
         adquiridas en condiciones especiales hasta por dos años, con multas graduales según el tiempo transcurrido."
            .into(),
    ));
    out.push(Block::Para(format!(
        "{}, {}: el incumplimiento acarrea una multa en favor de los vendedores, calculada sobre el mayor valor entre el \
         precio de adquisición, el precio u otra contraprestación obtenida por la transferencia y el precio recibido por \
         los vendedores en la Segunda o Tercera Etapa, ajustado a la tasa máxima moratoria legal entre el día del \
         incumplimiento y el día del pago.",
        q(&d.decree),
        q(&d.fine_article)
    )));
    out.push(Block::Para(
        "Código de Comercio, artículo 884 (modificado por la Ley 510 de 1999, artículo 111): la tasa máxima moratoria \
         equivale a una y media veces el interés bancario corriente certificado por la Superintendencia Financiera de \
         Colombia."
            .into(),
    ));

    out.push(Block::Heading("3. Liquidación".into()));
    let mut prices = Vec::new();
    let stage_text = match l.prices.stage {
        StagePrice::Known(_) | StagePrice::SoFar(_) => None,
        StagePrice::Pending => Some("pendiente"),
        StagePrice::Absent => Some("no hubo etapa posterior"),
    };
    let present = l.prices.present();
    let money = MoneyFmt::of(present.iter().map(|(_, p)| *p));
    for (basis, price) in present {
        prices.push(vec![
            basis.label_es().to_string(),
            money.cop(price),
            if basis == l.basis {
                "mayor valor".into()
            } else {
                String::new()
            },
        ]);
    }
    if !l
        .prices
        .present()
        .iter()
        .any(|(b, _)| *b == Basis::Transfer)
    {
        prices.push(vec![
            Basis::Transfer.label_es().into(),
            "sin contraprestación".into(),
            String::new(),
        ]);
    }
    if let Some(t) = stage_text {
        prices.push(vec![
            Basis::Stage.label_es().into(),
            t.into(),
            String::new(),
        ]);
    }
    out.push(Block::Table {
        header: vec![
            "Precio de referencia".into(),
            "Por acción".into(),
            String::new(),
        ],
        rows: prices,
        right: vec![false, true, false],
    });
    super::notice_figures::computation(d, q, &mut out);
    out.push(Block::Para(format!(
        "Por cada día adicional a partir del {} se causan {} de intereses (tasa moratoria de {} EA vigente al {}, sobre {}), \
         hasta el pago; cuando la Superintendencia Financiera certifique una nueva tasa, se aplica la nueva.",
        long_date(l.until.succ_opt().unwrap_or(l.until)),
        format_cop(d.per_day.amount),
        format_percent(d.per_day.ea_pct),
        long_date(l.until),
        format_cop(d.per_day.base)
    )));

    out.push(Block::Heading("4. Pago y garantía".into()));
    let counted = match d.letters.payment_term_from {
        TermFrom::Delivery => format!(
            "contados desde el día en que usted reciba esta notificación; si la recibe en su fecha, vence el {}",
            long_date(d.deadline)
        ),
        TermFrom::Issue => format!(
            "contados desde la fecha de esta notificación, es decir, hasta el {}",
            long_date(d.deadline)
        ),
    };
    out.push(Block::Para(format!(
        "Plazo para pagar: {} días hábiles de Colombia (sin sábados, domingos ni festivos de la Ley 51 de 1983) \
         {counted}.",
        d.term_business_days,
    )));
    out.push(Block::Para(payment_instructions(issuer, &d.reference, q)));
    out.push(Block::Para(pledge_paragraph(
        d.pledge.as_ref(),
        d.notice_date,
        &d.pledge_article,
        &d.decree,
        q,
    )));
    out.push(Block::Para(
        "Distribución informativa del total entre los vendedores, en proporción a sus acciones en el programa \
         (redondeo por residuos mayores, de modo que la suma es exacta):"
            .into(),
    ));
    out.push(Block::Table {
        header: vec!["Vendedor".into(), "Acciones".into(), "Valor".into()],
        rows: {
            let money = MoneyFmt::of(d.split.iter().map(|s| s.2));
            d.split
                .iter()
                .map(|(name, shares, amount)| vec![q(name), n(*shares), money.cop(*amount)])
                .collect()
        },
        right: vec![false, true, true],
    });
    for (i, p) in d.letters.paragraphs.iter().enumerate() {
        out.push(Block::Heading(format!("{}. {}", i + 5, q(&p.heading))));
        out.push(Block::Para(q(&p.text)));
    }

    out.push(signature(issuer, q));
    out.push(Block::Small(format!(
        "Huella de la liquidación No. {} (SHA-256): {}",
        d.liquidation_id, d.fingerprint
    )));
    if let Some(h) = &d.chain {
        out.push(Block::Small(format!(
            "Registro de auditoría al emitirla: evento No. {} de la cadena, SHA-256 {}",
            h.count, h.hash
        )));
    }
    out.push(Block::Small(format!(
        "Para verificar este documento ejecute «vigia notice verify ARCHIVO»: recalcula la liquidación No. {} desde el \
         registro y compara sus cifras y su huella con las de este documento.",
        d.liquidation_id
    )));
    tidy(out)
}

/// What the pledge does for this fine, in each of its states on the document's date: in force
/// (it secures the fine), released (it no longer does), none on record (nothing secures it).
fn pledge_paragraph(
    pledge: Option<&Pledge>,
    on: NaiveDate,
    article: &str,
    decree: &str,
    q: &dyn Fn(&str) -> String,
) -> String {
    match pledge {
        Some(p) if p.released_on.is_none_or(|r| r > on) => format!(
            "La prenda sobre las acciones ({} del {}) garantiza el pago de esta multa; mientras la multa no se pague, \
             la prenda no se levanta.",
            q(article),
            q(decree)
        ),
        Some(p) => format!(
            "La prenda sobre las acciones se levantó el {}; el pago de esta multa no está garantizado con prenda y \
             puede exigirse por las vías legales.",
            long_date(p.released_on.unwrap_or(on))
        ),
        None => "En el registro no consta prenda sobre las acciones; el pago de esta multa no está garantizado con \
                 prenda y puede exigirse por las vías legales."
            .into(),
    }
}
