//! The pages' HTML (maud escapes every value it writes), es-CO formats (dd/mm/aaaa, `$ 1.450,50`),
//! the Spanish names of register fields and refusals, the liquidation tables and the balance
//! chart drawn as SVG on the server. Rendering only.

use super::auth::User;
use crate::fine::{self, FineError, Outcome};
use crate::lang::Lang;
use crate::money::{format_cop, format_percent};
use crate::register::user::Role;
use crate::register::{Field, Refusal};
use axum::http::StatusCode;
use chrono::NaiveDate;
use maud::{DOCTYPE, Markup, html};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// The style sheet (served from `/estilo.css`: the CSP allows no inline style).
pub const CSS: &str = include_str!("vigia.css");

/// dd/mm/aaaa.
pub use crate::lang::fecha;

/// A stored UTC time (RFC 3339) in Colombia's time: `dd/mm/aaaa hh:mm (hora de Colombia)`.
pub use crate::lang::momento;

/// What an audit event's action code (`payment.void`) records, in Spanish; an unknown code as it
/// is (the code itself is shown beside it).
pub fn accion(code: &str) -> &str {
    match code {
        "program.add" => "Registro de un programa",
        "program.stage-price" => "Precio de una etapa posterior",
        "rate.add" => "Certificación de tasa agregada",
        "rate.supersede" => "Certificación de tasa que reemplaza otra",
        "offer.open" => "Apertura de la oferta",
        "acceptances.import" => "Importación de aceptaciones",
        "offer.adjudicate" => "Adjudicación de la oferta (Art. 12)",
        "adjudications.import" => "Importación de adjudicaciones",
        "adjudication.void" => "Anulación de una adjudicación",
        "holder.create" => "Alta de un titular",
        "holder.update" => "Datos de contacto de un titular",
        "pledge.register" => "Inscripción de una prenda",
        "pledge.import" => "Importación de prendas",
        "pledge.release" => "Liberación de una prenda",
        "pledge.release-releasable" => "Liberación en bloque de prendas",
        "pledge.void" => "Anulación de una prenda",
        "breach.record" => "Registro de un incumplimiento",
        "breach.void" => "Anulación de un incumplimiento",
        "payment.record" => "Registro de un pago",
        "payment.void" => "Anulación de un pago",
        "fine.liquidate" => "Liquidación de una multa",
        "notice.issue" => "Expedición de un aviso de cobro",
        "notice.delivered" => "Entrega de un aviso",
        "document.render" => "Documento generado",
        "settlement.issue" => "Expedición de un paz y salvo",
        "stage.open" => "Apertura de un tramo de etapa posterior",
        "proposals.import" => "Importación de propuestas",
        "stage.improve" => "Mejora de precio de una propuesta",
        "stage.draw" => "Sorteo entre propuestas empatadas",
        "stage.adjudicate" => "Adjudicación de una etapa posterior",
        "stage.desert" => "Etapa posterior declarada desierta",
        "user.add" => "Alta de un usuario",
        "user.disable" => "Usuario deshabilitado",
        "user.password" => "Cambio de contraseña",
        "user.sign_in" => "Ingreso al sistema",
        "user.sign_in_failed" => "Ingreso fallido",
        other => other,
    }
}

pub fn pesos(x: Decimal) -> String {
    format_cop(x)
}

/// A whole number with es-CO thousands (`1.000`).
pub use crate::lang::numero;

/// The label of the form input that gives a register field.
pub fn field_label(f: Field) -> &'static str {
    match f {
        Field::Adjudication => "Adjudicación",
        Field::Breach => "Incumplimiento",
        Field::BreachKind => "Tipo de incumplimiento",
        Field::BreachDate => "Fecha del incumplimiento",
        Field::Shares => "Acciones",
        Field::ConsiderationPerShare => "Contraprestación por acción",
        Field::ConsiderationTotal => "Contraprestación total",
        Field::RegisteredOn => "Fecha de inscripción",
        Field::PledgeRank => "Grado de la prenda",
        Field::Lender => "Prestamista",
        Field::ReleaseDate => "Fecha de liberación",
        Field::PaymentDate => "Fecha del pago",
        Field::PaymentAmount => "Valor del pago",
        Field::VoidReason => "Motivo de la anulación",
        Field::SupersedeReason => "Motivo del reemplazo",
        Field::Payment => "Pago",
        Field::Pledge => "Prenda",
        Field::AllowDuplicate => "Confirmar pago repetido",
        Field::OfferOpens => "Fecha del aviso de oferta",
        Field::OfferCloses => "Cierre de la oferta",
        Field::AdjudicationDate => "Fecha de adjudicación",
        Field::Stage => "Etapa",
        Field::Tranche => "Tramo",
        Field::StageOpens => "Apertura del tramo",
        Field::StageCloses => "Cierre del tramo",
        Field::Proposal => "Propuesta",
        Field::ImprovedPrice => "Precio mejorado",
        Field::DrawSeed => "Semilla del sorteo",
        Field::StageDecisionDate => "Fecha de la decisión",
        Field::Notice => "Notificación",
        Field::NoticeDate => "Fecha del aviso",
        Field::Program => "Programa",
        Field::Settlement => "Paz y salvo",
        Field::SettlementDate => "Fecha del paz y salvo",
        Field::DeliveryDate => "Fecha de entrega",
        Field::DeliveryVia => "Medio de entrega",
        Field::Evidence => "Constancia",
        Field::Holder => "Titular",
        Field::DocType => "Tipo de documento",
        Field::Address => "Dirección",
        Field::City => "Ciudad",
        Field::Email => "Correo electrónico",
    }
}

/// A refusal in the form's words, in Spanish: each field by its label; what to supply as the
/// form's field (a paz y salvo, which no form of this page gives, by name).
pub fn refusal_text(r: &Refusal) -> String {
    r.describe(
        Lang::Es,
        |f| field_label(f).to_string(),
        |f| match f {
            Field::Settlement => "corresponde expedir el paz y salvo".to_string(),
            _ => format!("el campo «{}»", field_label(f)),
        },
    )
}

/// The form input a refusal is about, if one.
pub fn refusal_field(r: &Refusal) -> Option<Field> {
    match r {
        Refusal::Value { field, .. } => Some(*field),
        Refusal::OneOf(a, _) => Some(*a),
        Refusal::Repeat { with, .. } => Some(*with),
        Refusal::Rule(_) => None,
    }
}

/// A fine engine's error in Spanish; missing rates with what to do on these pages.
pub fn fine_error_text(e: &FineError) -> String {
    match e {
        FineError::MissingRates(m) => format!(
            "No hay tasa moratoria certificada {}: agréguela en «Tasas» (perfil administración) o calcule a una fecha anterior.",
            m.ranges
                .iter()
                .map(|(a, b)| format!("del {} al {}", fecha(*a), fecha(*b)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.describe(Lang::Es),
    }
}

/// The page frame: title, the menu the user's role may use, the content.
pub fn page(user: Option<&User>, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="es-CO" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " — vigia" }
                link rel="stylesheet" href="/estilo.css";
            }
            body {
                header {
                    a.marca href="/" { "vigia" }
                    @if let Some(u) = user {
                        nav {
                            a href="/" { "Tablero" }
                            a href="/titulares" { "Titulares" }
                            @if u.may(Role::Oficial) { a href="/importar" { "Importar" } }
                            @if u.may(Role::Oficial) { a href="/prendas/liberar" { "Liberar prendas" } }
                            a href="/avisos/verificar" { "Verificar aviso" }
                            a href="/tasas" { "Tasas" }
                            a href="/programas" { "Programas" }
                            @if u.may(Role::Admin) { a href="/usuarios" { "Usuarios" } }
                            a href="/auditoria" { "Auditoría" }
                        }
                        form.salir method="post" action="/salir" {
                            input type="hidden" name="csrf" value=(u.csrf);
                            span { (u.name) " · " (u.role.label_es()) }
                            button type="submit" { "Salir" }
                        }
                    }
                }
                main {
                    h1 { (title) }
                    (body)
                }
                footer { "Ley 226 de 1995 · registro con auditoría encadenada (SHA-256)" }
            }
        }
    }
}

pub fn error_page(status: StatusCode, message: &str) -> Markup {
    let title = match status {
        StatusCode::FORBIDDEN => "Acceso denegado",
        StatusCode::NOT_FOUND => "No encontrado",
        StatusCode::BAD_REQUEST => "Solicitud rechazada",
        _ => "Error",
    };
    page(
        None,
        title,
        html! {
            p.error role="alert" { (message) }
            p { a href="/" { "Volver al tablero" } }
        },
    )
}

/// The hidden CSRF input every form carries.
pub fn csrf(u: &User) -> Markup {
    html! { input type="hidden" name="csrf" value=(u.csrf); }
}

/// A labelled text input, with the refusal next to it when it is the one refused.
pub fn input(
    name: &str,
    label: &str,
    value: &str,
    error: Option<&str>,
    hint: Option<&str>,
) -> Markup {
    html! {
        div.campo.con-error[error.is_some()] {
            label for=(name) { (label) }
            input id=(name) name=(name) type="text" value=(value);
            @if let Some(h) = hint { small { (h) } }
            @if let Some(e) = error { p.error id={(name) "-error"} role="alert" { (e) } }
        }
    }
}

/// The fine as the engine concluded it: bracket, reference prices and the winner, principal,
/// accrual pieces, payments and the balance.
pub fn outcome(o: &Outcome) -> Markup {
    match o {
        Outcome::NotApplicable(n) => html! {
            p.aviso {
                "No hay multa: el incumplimiento del " (fecha(n.breach_date))
                " es posterior al fin de la restricción (" (fecha(n.lockup_end)) ")."
            }
        },
        Outcome::Liquidated(l) => liquidation(l),
    }
}

fn liquidation(l: &fine::Liquidation) -> Markup {
    let b = &l.bracket;
    let desde = b
        .after
        .map(|d| format!("después del {}", fecha(d)))
        .unwrap_or_else(|| format!("desde el {}", fecha(l.adjudicated)));
    html! {
        dl.hechos {
            dt { "Adjudicación" } dd { (fecha(l.adjudicated)) }
            dt { "Incumplimiento" } dd { (fecha(l.breach_date)) }
            dt { "Fin de la restricción" } dd { (fecha(l.lockup_end)) }
            dt { "Tramo" } dd.tramo {
                (format_percent(b.percent)) " — entre los meses " (b.lower_months) " y " (b.upper_months)
                " (" (desde) " hasta el " (fecha(b.through)) " inclusive)"
            }
            dt { "Acciones" } dd { (numero(l.shares)) }
            @if l.provisional { dt { "Estado" } dd { "PROVISIONAL: el precio de la etapa posterior está pendiente" } }
        }
        table.precios {
            caption { "Precios de referencia (gana el mayor)" }
            thead { tr { th { "precio" } th.num { "por acción" } th {} } }
            tbody {
                @for (basis, price) in l.prices.present() {
                    tr.ganador[basis == l.basis] {
                        td { (basis.label_es()) }
                        td.num { (pesos(price)) }
                        td { @if basis == l.basis { "← mayor valor" } }
                    }
                }
            }
        }
        p.capital {
            "Multa (capital): " (numero(l.shares)) " acciones × " (pesos(l.reference_price)) " × "
            (format_percent(b.percent)) " = " strong { (pesos(l.principal)) }
        }
        p { "Convención: " (l.convention.name_es()) " (" code { (l.convention.as_str()) } "). " (l.convention.explain_es()) }
        table.causacion {
            caption { "Intereses moratorios del " (fecha(l.breach_date)) " exclusive al " (fecha(l.until)) " inclusive: " (l.days) " días" }
            thead { tr {
                th { "desde" } th { "hasta" } th.num { "días" } th.num { "tasa EA" } th.num { "tasa diaria" }
                th.num { "capital" } th.num { "interés" } th { "resolución" }
            } }
            tbody {
                @for p in &l.pieces {
                    tr {
                        td { (fecha(p.from)) } td { (fecha(p.to)) } td.num { (p.days) }
                        td.num { (format_percent(p.moratorium_ea_pct)) }
                        td.num { (crate::liquidation::shown_daily_rate(p.daily_rate).to_string().replace('.', ",")) }
                        td.num { (pesos(p.capital)) } td.num { (pesos(p.interest)) }
                        td { (p.resolution) }
                    }
                }
            }
            tfoot { tr { td colspan="6" { "Intereses causados" } td.num { (pesos(l.interest)) } td {} } }
        }
        @if !l.payments.is_empty() {
            table.pagos {
                caption { "Pagos (primero a intereses, luego a capital: C.C. art. 1653)" }
                thead { tr { th { "fecha" } th.num { "valor" } th.num { "a intereses" } th.num { "a capital" } th.num { "excedente" } th.num { "capital después" } } }
                tbody {
                    @for p in &l.payments {
                        tr { td { (fecha(p.date)) } td.num { (pesos(p.amount)) } td.num { (pesos(p.to_interest)) }
                             td.num { (pesos(p.to_capital)) } td.num { (pesos(p.surplus)) } td.num { (pesos(p.capital_after)) } }
                    }
                }
            }
        }
        dl.total {
            dt { "Capital pendiente" } dd { (pesos(l.outstanding_capital)) }
            dt { "Intereses pendientes" } dd { (pesos(l.outstanding_interest)) }
            @if l.surplus > Decimal::ZERO { dt { "Excedente a devolver" } dd { (pesos(l.surplus)) } }
            dt { "TOTAL A PAGAR al " (fecha(l.until)) } dd #total { strong { (pesos(l.total_due)) } }
        }
    }
}

/// The balance owed (capital plus unpaid interest) at the end of each accrual piece and right
/// after each payment, from the liquidation's own figures (nothing recomputed).
pub fn balance_points(l: &fine::Liquidation) -> Vec<(NaiveDate, Decimal)> {
    let mut points = vec![(l.breach_date, l.principal)];
    let mut accrued = Decimal::ZERO;
    let mut paid_interest = Decimal::ZERO;
    let mut payments = l.payments.iter().peekable();
    let mut capital = l.principal;
    for p in &l.pieces {
        accrued += p.interest;
        while let Some(pay) = payments.peek().filter(|pay| pay.date <= p.to) {
            paid_interest += pay.to_interest;
            capital = pay.capital_after;
            points.push((pay.date, capital + accrued - paid_interest));
            payments.next();
        }
        points.push((p.to, capital + accrued - paid_interest));
    }
    points
}

/// The balance over time as an SVG line chart (no script; drawn here).
pub fn balance_chart(l: &fine::Liquidation) -> Markup {
    let points = balance_points(l);
    // the scale's ends are amounts, kept exact; floats below are only screen coordinates
    let top = points
        .iter()
        .map(|(_, v)| *v)
        .fold(Decimal::ONE, Decimal::max);
    // the axis starts near the lowest balance, so a small change shows
    let lowest = points.iter().map(|(_, v)| *v).fold(top, Decimal::min);
    let low = (lowest * Decimal::new(98, 2)).round();
    let low = if top - low < Decimal::ONE {
        Decimal::ZERO
    } else {
        low
    };
    let (w, h, pad) = (640.0_f64, 220.0_f64, 48.0_f64);
    let first = l.breach_date;
    let span = (l.until - first).num_days().max(1) as f64;
    let x = |d: NaiveDate| pad + (d - first).num_days() as f64 / span * (w - 2.0 * pad);
    // the share of the axis a balance stands at, computed exactly, then made a coordinate
    let y = |v: Decimal| {
        let share = ((v - low) / (top - low)).to_f64().unwrap_or(0.0);
        h - pad / 2.0 - share * (h - pad)
    };
    let path: Vec<String> = points
        .iter()
        .map(|(d, v)| format!("{:.1},{:.1}", x(*d), y(*v)))
        .collect();
    let (top_label, low_label) = (pesos(top.round()), pesos(low));
    html! {
        figure.grafica {
            svg xmlns="http://www.w3.org/2000/svg" viewBox={"0 0 " (w) " " (h)} role="img"
                aria-label="Saldo de la multa en el tiempo" {
                line.eje x1=(pad) y1=(h - pad / 2.0) x2=(w - pad) y2=(h - pad / 2.0) {}
                line.eje x1=(pad) y1=(pad / 2.0) x2=(pad) y2=(h - pad / 2.0) {}
                polyline.saldo points=(path.join(" ")) {}
                @for (d, v) in &points {
                    circle cx=(format!("{:.1}", x(*d))) cy=(format!("{:.1}", y(*v))) r="3" {
                        title { (fecha(*d)) ": " (pesos(*v)) }
                    }
                }
                text x="4" y=(pad / 2.0 + 4.0) { (top_label) }
                text x="4" y=(h - pad / 2.0) { (low_label) }
                text x=(pad) y=(h - 4.0) { (fecha(first)) }
                text x=(w - pad) y=(h - 4.0) text-anchor="end" { (fecha(l.until)) }
            }
            figcaption { "Saldo (capital más intereses pendientes) del " (fecha(first)) " al " (fecha(l.until)) }
        }
    }
}
