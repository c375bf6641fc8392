//! The fine notice's text of layout 2 (issue 20 item 10), the notices issued since: the register's
//! letterhead; the obligation breached cited from the program file (the acceptor's declaration,
//! Art. 7 num. 5 / Art. 8 num. 4, and Art. 9's fine over the lock-up); no sentence about a pledge
//! the register does not show; the issue date beside a date set earlier; a provisional
//! liquidation's sum demanded, to be re-liquidated; authenticity confirmed with the sellers, not
//! by running a program; `$` and `%` bound to their figures by no-break spaces (HTML, PDF).
//! Layout 3 (the notices issued since) differs in two places only, each marked: the reference
//! prices with all their decimals (layout 2 rounded them to two), and a price *so far* said to be
//! the highest so far, the liquidation provisional until the later stage concludes (layout 2
//! said it would be re-liquidated "when the stage price is recorded", already recorded then).

use super::notice::*;
use crate::fine::{Basis, StagePrice};
use crate::money::{format_cop, format_percent, format_percent_dp};
use crate::notice::{NoticeData, PerDayRate};
use crate::program::TermFrom;
use crate::report::liquidation::stage_prices_es;
use crate::store::pledges::Pledge;
use chrono::NaiveDate;

/// The blocks, with `q` applied to every value an officer typed.
/// The blocks, with `q` applied to every value an officer typed; `glue`: `$` and `%` bound to
/// their figures by no-break spaces (HTML and PDF; Markdown keeps plain spaces for pasting).
pub(super) fn blocks_with(d: &NoticeData, q: &dyn Fn(&str) -> String, glue: bool) -> Vec<Block> {
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
    if d.issued_on != d.notice_date {
        out.push(Block::Subtitle(format!(
            "Fecha de expedición: {}",
            long_date(d.issued_on)
        )));
    }
    if let Some((number, date)) = &d.supersedes {
        out.push(Block::Strong(format!(
            "Esta notificación reemplaza la No. {number} del {}, que se conserva en el registro.",
            long_date(*date)
        )));
    }
    if l.provisional && d.layout >= 3 && matches!(l.prices.stage, StagePrice::SoFar(_)) {
        // layout 3: what a price so far means, and what ends the provisional state
        let price = l.prices.stage.known().map(format_cop).unwrap_or_default();
        out.push(Block::Strong(format!(
            "LIQUIDACIÓN PROVISIONAL: el precio recibido por los vendedores en la etapa posterior, {price} por acción, \
             es el mayor obtenido hasta ahora; la etapa que ofrece las acciones que quedaron sin vender aún no ha \
             concluido, y esta liquidación es provisional hasta que concluya. Esta notificación cobra la suma \
             liquidada con los precios conocidos, {}; cuando esa etapa concluya, la multa se reliquidará y se le \
             notificará la nueva liquidación.",
            format_cop(l.total_due)
        )));
    } else if l.provisional {
        let why = match l.prices.stage {
            StagePrice::SoFar(_) => {
                "la etapa posterior que ofrece las acciones que quedaron sin vender aún no ha concluido"
            }
            _ => "el precio de la Segunda o Tercera Etapa aún no se ha registrado",
        };
        out.push(Block::Strong(format!(
            "LIQUIDACIÓN PROVISIONAL: {why}. Esta notificación cobra la suma liquidada con los precios conocidos, \
             {}; cuando se registre el precio de la etapa, la multa se reliquidará y se le notificará la nueva \
             liquidación.",
            format_cop(l.total_due)
        )));
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
    // a legal person (NIT) is "identificada"; layout 1 wrote "identificado(a)" for everyone
    let to = addressee(
        &d.holder_name,
        &d.doc_type,
        &d.doc_number,
        d.contact.as_ref(),
        q,
    );
    out.push(Block::Para(if d.doc_type == "NIT" {
        to.replacen("identificado(a) con NIT", "identificada con NIT", 1)
    } else {
        to
    }));

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
    let declared = match &d.declaration {
        Some(a) => format!("{}, {}", q(&d.decree), q(a)),
        None => q(&d.decree),
    };
    out.push(Block::Para(format!(
        "Al aceptar la oferta usted declaró bajo la gravedad de juramento que actuaba por su propia cuenta y \
         beneficio, y manifestó por escrito su voluntad irrevocable de {} dentro del período de restricción de \
         negociabilidad ({declared}), que termina el {}.",
        b.kind.promise_es(),
        long_date(l.lockup_end)
    )));
    if d.pledges.len() > 1 {
        let each: Vec<String> = d
            .pledges
            .iter()
            .map(|p| {
                format!(
                    "{} acciones con prenda de {} grado sin tenencia, inscrita el {}{}",
                    n(p.shares),
                    rank_es(p.rank),
                    long_date(p.registered_on),
                    p.lender
                        .as_ref()
                        .filter(|_| p.rank == 2)
                        .map(|x| format!(
                            " (después de la prenda de primer grado del acreedor financiador, {})",
                            q(x)
                        ))
                        .unwrap_or_default()
                )
            })
            .collect();
        out.push(Block::Para(format!(
            "Las acciones están pignoradas en favor de los vendedores ({}): {}.",
            q(&d.pledge_article),
            each.join("; ")
        )));
    } else if let Some(p) = &d.pledge {
        out.push(Block::Para(format!(
            "Las acciones fueron pignoradas en favor de los vendedores con prenda de {} grado sin tenencia, inscrita el {}{}.",
            rank_es(p.rank),
            long_date(p.registered_on),
            p.lender.as_ref().map(|x| format!(" (acreedor financiador: {})", q(x))).unwrap_or_default()
        ) + &match p.released_on {
            Some(r) if r <= d.notice_date => format!(" La prenda se levantó el {}.", long_date(r)),
            _ => String::new(),
        }));
    }
    let consideration = match (b.consideration_per_share, b.consideration_total) {
        (Some(p), _) => format!(", por una contraprestación de {} por acción", format_cop(p)),
        (None, Some(t)) => format!(", por una contraprestación total de {}", format_cop(t)),
        (None, None) => String::new(),
    };
    let mut facts = format!(
        "El {} tuvo lugar {} de {} acciones{consideration}, dentro de ese período y en contra de esa obligación.",
        long_date(b.breach_date),
        b.kind.act_es(),
        n(b.shares),
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
        "{declared}: el aceptante destinatario de condiciones especiales manifiesta su voluntad irrevocable de no \
         negociar las acciones, no permitir que otra persona tenga el carácter de beneficiario real de sus derechos, \
         no darlas en pago y no subrogar el crédito con que las adquirió, durante el período de restricción de \
         negociabilidad."
    )));
    out.push(Block::Para(format!(
        "{}, {}: el incumplimiento de esas obligaciones acarrea una multa en favor de los vendedores, calculada sobre el \
         mayor valor entre el precio de adquisición, el precio u otra contraprestación obtenida por la transferencia y \
         el precio recibido por los vendedores en la Segunda o Tercera Etapa, en el porcentaje que corresponde al \
         tiempo transcurrido desde la adjudicación dentro del período de restricción, y ajustado a la tasa máxima \
         moratoria legal entre el día del incumplimiento y el día del pago.",
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
    // layout 3: prices with all their decimals; layout 2 rounded them to two
    let money = match d.layout {
        2 => MoneyFmt::of(present.iter().map(|(_, p)| *p)),
        _ => MoneyFmt::exact(present.iter().map(|(_, p)| *p)),
    };
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
    if let Some(listed) = stage_prices_es(&d.stage_prices, l.prices.stage.known()) {
        out.push(Block::Para(listed));
    }
    super::notice_figures::computation(d, q, &mut out);
    out.push(Block::Para(per_day_es(d)));

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
        "Para confirmar la autenticidad de esta notificación, comuníquese con los vendedores{} citando su número, {}, \
         y la huella de la liquidación indicada arriba: los vendedores la cotejan con su registro.",
        issuer
            .address
            .as_ref()
            .map(|a| format!(" en {}", q(a.trim_end_matches('.'))))
            .unwrap_or_default(),
        d.number
    )));
    bound(tidy(out), glue)
}

/// What the pledge does for this fine on the document's date: in force, it secures the fine;
/// released, or none the register shows, the fine is demanded by the legal means (an unrecorded
/// pledge is the sellers' internal finding, never a sentence of the letter).
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
        _ => "El pago de esta multa puede exigirse por las vías legales.".into(),
    }
}

/// `$ 1.450` and `75 %` with a no-break space, in every text of the document, so that a line
/// never ends on `$` nor starts with `%` (when `glue`; else the blocks as they are).
/// The interest of each day after the liquidation's until date. Liquidations that kept the rate
/// of the day after it (LEGAL_NOTES §7.4) quote that rate and say until when it is certified;
/// older ones the until date's, as they always did.
fn per_day_es(d: &NoticeData) -> String {
    let l = &d.liquidation;
    let next = l.until.succ_opt().unwrap_or(l.until);
    match d.per_day.rate {
        PerDayRate::UntilDate => format!(
            "Por cada día adicional a partir del {} se causan {} de intereses (tasa moratoria de {} EA vigente al {}, sobre {}), \
             hasta el pago; cuando la Superintendencia Financiera certifique una nueva tasa, se aplica la nueva.",
            long_date(next),
            format_cop(d.per_day.amount),
            format_percent(d.per_day.ea_pct),
            long_date(l.until),
            format_cop(d.per_day.base)
        ),
        PerDayRate::DayAfter { certified_to } => format!(
            "Por cada día adicional a partir del {} se causan {} de intereses (tasa moratoria de {} EA vigente el {}, \
             certificada hasta el {}, sobre {}), hasta el pago; los días posteriores al {} causan intereses a las tasas que \
             la Superintendencia Financiera certifique para ellos.",
            long_date(next),
            format_cop(d.per_day.amount),
            format_percent_dp(d.per_day.ea_pct, percent_places([d.per_day.ea_pct])),
            long_date(next),
            long_date(certified_to),
            format_cop(d.per_day.base),
            long_date(certified_to)
        ),
        PerDayRate::Uncertified => format!(
            "A partir del {} y hasta el pago se causan intereses sobre {} a la tasa máxima moratoria que la \
             Superintendencia Financiera certifique para cada día; a la fecha de esta liquidación no está certificada \
             la tasa de ese día.",
            long_date(next),
            format_cop(d.per_day.base)
        ),
    }
}

pub(super) fn bound(blocks: Vec<Block>, glue: bool) -> Vec<Block> {
    if !glue {
        return blocks;
    }
    let t = |s: String| nbsp(&s);
    blocks
        .into_iter()
        .map(|b| match b {
            Block::Title(x) => Block::Title(t(x)),
            Block::Subtitle(x) => Block::Subtitle(t(x)),
            Block::Heading(x) => Block::Heading(t(x)),
            Block::Para(x) => Block::Para(t(x)),
            Block::Strong(x) => Block::Strong(t(x)),
            Block::Small(x) => Block::Small(t(x)),
            Block::Signature(lines) => Block::Signature(lines.into_iter().map(t).collect()),
            Block::Table {
                header,
                rows,
                right,
            } => Block::Table {
                header,
                rows: rows
                    .into_iter()
                    .map(|r| r.into_iter().map(t).collect())
                    .collect(),
                right,
            },
        })
        .collect()
}

/// A space after `$` before a digit, or between a digit and `%`, made a no-break space.
pub(crate) fn nbsp(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &ch) in c.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| c[j]);
        let next = c.get(i + 1).copied();
        let money = prev == Some('$') && next.is_some_and(|x| x.is_ascii_digit() || x == '-');
        let percent = prev.is_some_and(|x| x.is_ascii_digit()) && next == Some('%');
        out.push(if ch == ' ' && (money || percent) {
            '\u{a0}'
        } else {
            ch
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::nbsp;

    #[test]
    fn money_and_percent_are_bound_to_their_figures_and_nothing_else() {
        assert_eq!(
            nbsp("$ 1.087.500 × 75 % = $ -3 y 27,90 % EA; $ y % solos; 5 %s"),
            "$\u{a0}1.087.500 × 75\u{a0}% = $\u{a0}-3 y 27,90\u{a0}% EA; $ y % solos; 5\u{a0}%s"
        );
        assert_eq!(nbsp("sin cifras"), "sin cifras");
    }
}
