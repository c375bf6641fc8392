//! The Spanish catalogue: the web's language and the documents'. Dates dd/mm/aaaa, pesos the
//! es-CO way, counts of shares with thousands (`1.000`), articles lower-case (`art. 10`).

use super::{Catalogue, Front, SUGGESTED_RATES_FILE};
use crate::check::{Code, Finding, Part, RatesHome, Remedy, Undecided, Why};
use crate::lang::{MESES, fecha, numero};
use crate::money::format_cop;
use chrono::{Datelike, NaiveDate};

/// Spanish (Colombia).
pub struct Es;

impl Catalogue for Es {
    fn finding(&self, f: &Finding, front: &dyn Front) -> String {
        let hoy = fecha(f.context.as_of);
        let remedy = f.remedy();
        let command = remedy.as_ref().and_then(|r| front.command(r));
        // what to do: the command to run, or `words`
        let act = |words: String| match &command {
            Some(c) => format!("ejecute `{c}`"),
            None => words,
        };
        let certify = || remedy.as_ref().map_or(String::new(), |r| certify(r, front));
        let cuando = match f.context.uncertified {
            Some((first, last)) => format!(
                "cuando se certifique la tasa moratoria {} (RATE_MISSING), ",
                meses(first, last)
            ),
            None => String::new(),
        };
        match &f.why {
            Why::NoLiquidation { breach, on } => format!(
                "el incumplimiento N.º {breach} del {} no tiene liquidación: {cuando}{}",
                fecha(*on),
                act(format!("liquide su multa al {hoy}"))
            ),
            Why::NoNotice { breach, on } => format!(
                "el incumplimiento N.º {breach} del {} no tiene aviso de cobro: {cuando}{}",
                fecha(*on),
                act(format!("emita el aviso con la multa liquidada al {hoy}"))
            ),
            Why::ProvisionalStale {
                breach,
                liquidation,
                so_far,
            } => format!(
                "la liquidación N.º {liquidation} {}: {cuando}{}",
                if *so_far {
                    "es provisional y el precio de la etapa cambió desde que se hizo (es el mayor \
                     hasta ahora; una etapa posterior sigue pendiente)"
                } else {
                    "era provisional y el precio de la etapa ya está registrado"
                },
                act(format!(
                    "liquide de nuevo la multa del incumplimiento N.º {breach} al {hoy}"
                ))
            ),
            Why::NoticeUndelivered {
                number,
                deliver_by,
                late: true,
            } => format!(
                "el aviso {number} no tiene entrega registrada y debía entregarse a más tardar el {}: entréguelo y {}",
                fecha(*deliver_by),
                delivery(&command)
            ),
            Why::HolderNoAddress { number } => {
                let address = match &command {
                    Some(c) => format!("registre la dirección del titular con {c}"),
                    None => "registre la dirección del titular".to_string(),
                };
                let by_hand = match front.by_hand() {
                    Some(o) => format!("entréguelo personalmente ({o})"),
                    None => "entréguelo personalmente".to_string(),
                };
                format!(
                    "el aviso {number} no se ha entregado y su titular no tiene dirección postal registrada: no puede enviarse por correo certificado; {address} o {by_hand}"
                )
            }
            Why::NoticeUndelivered {
                number, deliver_by, ..
            } => format!(
                "el aviso {number} no tiene entrega registrada: su plazo de pago corre desde la entrega, así que aún no vence; entréguelo a más tardar el {} y {}",
                fecha(*deliver_by),
                delivery(&command)
            ),
            Why::NoticeOverdue {
                number,
                deadline,
                due,
            } => format!(
                "el plazo de pago del aviso {number} venció el {}; al {hoy} se deben {}",
                fecha(*deadline),
                format_cop(*due)
            ),
            Why::RateMissing {
                breach,
                overdue,
                missing,
            } => {
                let why = match overdue {
                    Some((number, deadline)) => format!(
                        "el plazo de pago del aviso {number} venció el {}, pero ",
                        fecha(*deadline)
                    ),
                    None => String::new(),
                };
                format!(
                    "{why}el saldo del incumplimiento N.º {breach} al {hoy} no se puede calcular: no hay tasa moratoria certificada {}; {}",
                    rangos(missing),
                    certify()
                )
            }
            Why::SharesExceeded {
                breached,
                adjudicated,
            } => format!(
                "los incumplimientos suman {} acciones, pero solo se adjudicaron {}",
                numero(*breached),
                numero(*adjudicated)
            ),
            Why::MissingPledgeInLockup { end } => format!(
                "no hay prenda vigente durante el período de restricción (termina el {}): regístrela (art. 10)",
                fecha(*end)
            ),
            Why::MissingPledgeWhileOwed => {
                "no hay prenda vigente mientras se debe una multa: regístrela (art. 10)".to_string()
            }
            Why::PledgeShort {
                end,
                covered,
                shares,
            } => corta(*end, *covered, *shares),
            Why::PledgeRank { pledge } => format!(
                "la prenda N.º {pledge} es de segundo grado, pero la adjudicación no fue financiada: debe ser de primer grado"
            ),
            Why::RatesUncertified { from, to, open } => {
                let que = match open {
                    0 => "ningún incumplimiento tiene hoy una multa por liquidar, pero ninguna podría liquidarse".to_string(),
                    n => format!("las multas de {} sin paz y salvo no pueden liquidarse ni notificarse", crate::lang::cuenta(*n, "incumplimiento", "incumplimientos")),
                };
                format!(
                    "no hay tasa moratoria certificada {}: {que} al {hoy} hasta que se certifique; {}",
                    rangos(&[(*from, *to)]),
                    certify()
                )
            }
            Why::PledgeRankBeyondFinancing {
                pledges: ids,
                second,
                financed,
            } => mas_alla(ids, *second, *financed),
            Why::RateDue { first } => format!(
                "aún no hay tasa moratoria certificada para {} de {}: desde el {} no se podrán calcular los saldos que la necesiten; cuando la Superintendencia Financiera la certifique, {}",
                MESES[first.month0() as usize],
                first.year(),
                fecha(*first),
                certify()
            ),
            Why::LockupEnding { end } => format!(
                "el período de restricción termina el {}; el titular queda libre desde el {}",
                fecha(*end),
                fecha(end.succ_opt().unwrap_or(*end))
            ),
            Why::PledgeReleasable { end, pledge, of } => format!(
                "el período de restricción terminó el {} y no se debe ninguna multa: la prenda N.º {pledge}{} puede liberarse",
                fecha(*end),
                parte(of, false)
            ),
            Why::PledgeEnforceable {
                breach,
                pledge,
                due,
                of,
            } => format!(
                "la multa del incumplimiento N.º {breach} está vencida: la prenda N.º {pledge}{} garantiza {} (art. 10)",
                parte(of, true),
                format_cop(*due)
            ),
        }
    }

    fn code_name(&self, code: Code) -> &'static str {
        match code {
            Code::NoticeOverdue => "Aviso vencido sin pago",
            Code::PledgeEnforceable => "Prenda exigible",
            Code::SharesExceeded => "Más acciones incumplidas que adjudicadas",
            Code::MissingPledge => "Falta la prenda",
            Code::RateMissing => "Falta una tasa certificada para el saldo",
            Code::BreachNotLiquidated => "Incumplimiento sin liquidar",
            Code::NoticeUndelivered => "Aviso sin entrega registrada",
            Code::HolderNoAddress => "Titular sin dirección para el aviso",
            Code::ProvisionalStale => "Liquidación provisional sin el precio de la etapa",
            Code::PledgeRank => "Grado de la prenda sin financiación",
            Code::RateDue => "Falta la tasa del mes siguiente",
            Code::LockupEnding => "Período de restricción por terminar",
            Code::PledgeReleasable => "Prenda liberable",
        }
    }

    fn undecided(&self, u: &Undecided) -> String {
        format!(
            "la adjudicación N.º {} no se decidió: el saldo del incumplimiento N.º {} necesita la tasa moratoria certificada {}",
            u.adjudication,
            u.breach,
            rangos(&u.missing)
        )
    }

    fn msg(&self, m: &super::msg::Msg<'_>) -> String {
        super::es_msg::msg(m)
    }

    fn draw_place(&self, number: &dyn std::fmt::Display, tied: u64, index: u64) -> String {
        super::es_msg::draw_place(number, tied, index)
    }

    fn code(&self, column: &str, value: &str) -> Option<&'static str> {
        super::es_words::code(column, value)
    }

    fn io_error(&self, e: &std::io::Error) -> String {
        super::es_words::io_error(e)
    }

    fn store_error(&self, e: &crate::store::StoreError) -> String {
        super::es_words::store_error(e)
    }

    fn scale_error(&self, e: &crate::calendar::ScaleError) -> String {
        super::es_words::scale_error(e)
    }

    fn verified(&self, v: &crate::register::verify::Verified, file: &str) -> Vec<String> {
        super::es_words::verified(v, file)
    }

    fn verification(
        &self,
        v: &crate::register::verify::Verified,
        o: &crate::register::verify::Outcome,
    ) -> super::verification::Said {
        super::es_verification::verification(v, o)
    }

    fn verdict(
        &self,
        kind: crate::register::verify::Kind,
        o: &crate::register::verify::Outcome,
    ) -> String {
        super::es_verification::verdict(kind, o)
    }

    fn unverifiable(
        &self,
        e: &crate::register::verify::Unverifiable,
    ) -> super::verification::Unverified {
        super::es_verification::unverifiable(e)
    }

    fn page_of(&self, what: super::Listed, before: u64, shown: u64, of: u64) -> String {
        let (one, many) = match what {
            super::Listed::Persons => ("Persona", "Personas"),
            super::Listed::Proposals => ("Propuesta", "Propuestas"),
        };
        let (first, last) = (before.saturating_add(1), before.saturating_add(shown));
        if first >= last {
            format!("{one} {} de {}", numero(first), numero(of))
        } else {
            format!(
                "{many} {} a {} de {}",
                numero(first),
                numero(last),
                numero(of)
            )
        }
    }

    fn in_order(&self, order: super::Order) -> &'static str {
        match order {
            super::Order::Acta => " (en el orden del acta)",
            super::Order::Chosen => " (en el orden elegido)",
        }
    }

    fn bracket_span(&self, after: Option<u32>, upto: u32) -> String {
        let months = |n: u32| match n {
            1 => "1 mes".to_string(),
            n => format!("{n} meses"),
        };
        match after {
            None => format!("hasta {}", months(upto)),
            Some(a) => format!("{} y un día a {}", months(a), months(upto)),
        }
    }
}

/// "registre el día y el medio de la entrega", or with the command that records it.
fn delivery(command: &Option<String>) -> String {
    match command {
        Some(c) => format!("registre el día y el medio de la entrega con {c}"),
        None => "registre el día y el medio de la entrega".to_string(),
    }
}

/// How to add a missing certification ([`Remedy::Certify`]).
fn certify(remedy: &Remedy, front: &dyn Front) -> String {
    let Remedy::Certify { first, last, into } = remedy else {
        return String::new();
    };
    let (first, last) = (*first, *last);
    let tasas = if (first.year(), first.month()) == (last.year(), last.month()) {
        "la tasa certificada"
    } else {
        "las tasas certificadas"
    };
    let months = meses(first, last);
    match (into, front.command(remedy)) {
        (RatesHome::Register, Some(c)) => format!(
            "guarde {tasas} {months} en {SUGGESTED_RATES_FILE} (encabezado \
             valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution; una fila por mes) y ejecute \
             `{c}`"
        ),
        (RatesHome::Register, None) => format!("agregue {tasas} {months} en «Tasas»"),
        (RatesHome::File(path), _) => {
            format!("agregue {tasas} {months} al archivo {path} (una fila por mes)")
        }
    }
}

/// The months from `first`'s to `last`'s, in words: "de noviembre de 2026", "de noviembre a
/// diciembre de 2026", "de diciembre de 2026 a enero de 2027".
fn meses(first: NaiveDate, last: NaiveDate) -> String {
    let mes = |d: NaiveDate| MESES[d.month0() as usize];
    if (first.year(), first.month()) == (last.year(), last.month()) {
        format!("de {} de {}", mes(first), first.year())
    } else if first.year() == last.year() {
        format!("de {} a {} de {}", mes(first), mes(last), last.year())
    } else {
        format!(
            "de {} de {} a {} de {}",
            mes(first),
            first.year(),
            mes(last),
            last.year()
        )
    }
}

/// Days without a rate, to follow "no hay tasa": "el 03/11/2026, del 01/12/2026 al
/// 31/12/2026".
fn rangos(missing: &[(NaiveDate, NaiveDate)]) -> String {
    let text: Vec<String> = missing
        .iter()
        .map(|(a, b)| {
            if a == b {
                format!("el {}", fecha(*a))
            } else {
                format!("del {} al {}", fecha(*a), fecha(*b))
            }
        })
        .collect();
    text.join(", ")
}

/// A pledge's part, when it is one of several in force.
fn parte(of: &Option<Part>, enforced: bool) -> String {
    match of {
        None => String::new(),
        Some(Part { rank: 2, shares }) if enforced => format!(
            " (de segundo grado, sobre {} acciones: después de la prenda de primer grado del prestamista)",
            numero(*shares)
        ),
        Some(Part { rank, shares }) => {
            format!(" (de grado {rank}, sobre {} acciones)", numero(*shares))
        }
    }
}

/// The reason of [`Why::PledgeShort`].
fn corta(end: Option<NaiveDate>, covered: u64, shares: u64) -> String {
    let uncovered = shares.saturating_sub(covered);
    let when = match end {
        Some(end) => format!(
            "durante el período de restricción (termina el {})",
            fecha(end)
        ),
        None => "mientras se debe una multa".to_string(),
    };
    format!(
        "las prendas vigentes cubren {} de las {} acciones: {} acciones no tienen prenda {when}: registre su prenda (art. 10)",
        numero(covered),
        numero(shares),
        numero(uncovered)
    )
}

/// The reason of [`Why::PledgeRankBeyondFinancing`].
fn mas_alla(pledges: &[i64], second: u64, financed: u64) -> String {
    let list: Vec<String> = pledges.iter().map(i64::to_string).collect();
    let over = second.saturating_sub(financed);
    let (las_prendas, cubren) = if pledges.len() > 1 {
        ("las prendas de segundo grado N.º", "cubren")
    } else {
        ("la prenda de segundo grado N.º", "cubre")
    };
    format!(
        "{las_prendas} {} {cubren} {} acciones, pero el prestamista financió {}: {} de ellas deben llevar la prenda de primer grado (art. 10)",
        list.join(", "),
        numero(second),
        numero(financed),
        numero(over)
    )
}
