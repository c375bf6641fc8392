//! The pages' HTML (maud escapes every value it writes), es-CO formats (dd/mm/aaaa, `$ 1.450,50`),
//! the Spanish names of register fields and refusals, the liquidation tables and the balance
//! chart drawn as SVG on the server. Rendering only.

use super::auth::User;
use crate::fine::{self, FineError, Outcome};
use crate::import::Remedy;
use crate::lang::Lang;
use crate::money::{Places, format_cop, format_cop_dp, format_percent, format_percent_dp};
use crate::register::audit::ChainNow;
use crate::register::user::Role;
use crate::register::{Field, Refusal};
use crate::store::Action;
use chrono::NaiveDate;
use maud::{DOCTYPE, Markup, html};
use rust_decimal::Decimal;

/// The style sheet (served from `/estilo.css`: the CSP allows no inline style).
pub const CSS: &str = include_str!("vigia.css");

/// dd/mm/aaaa.
pub use crate::lang::fecha;

/// A stored UTC time (RFC 3339) in Colombia's time: `dd/mm/aaaa hh:mm (hora de Colombia)`.
pub use crate::lang::momento;

/// What an audit event's stored action code (`payment.void`, `rate.add forced: REASON`) records,
/// in Spanish; a code no action writes as it is (the code itself is shown beside it).
pub fn accion(code: &str) -> &str {
    match Action::read(code) {
        Some((action, _)) => accion_de(action),
        None => code,
    }
}

/// What an audit action records, in Spanish: every action the store writes has its words.
pub fn accion_de(action: Action) -> &'static str {
    match action {
        Action::ProgramAdd => "Registro de un programa",
        Action::ProgramStagePrice => "Registro del precio de una etapa posterior",
        Action::ProgramOutsideValidity => "Acto fuera de la vigencia del programa (con su razón)",
        Action::LettersSet => "Registro del membrete y las firmas de las cartas de un programa",
        Action::DocumentText => "Registro de la versión del texto de un documento",
        Action::RateAdd => "Registro de una certificación de tasa",
        Action::RateAddForced => {
            "Registro de una certificación de tasa con usura distinta de 1,5 × IBC (con su razón)"
        }
        Action::RateSupersede => "Reemplazo de una certificación de tasa",
        Action::OfferOpen => "Apertura de la oferta",
        Action::OfferRecordExternal => "Primera etapa concluida fuera de vigia (registrada)",
        Action::AcceptancesImport => "Importación de aceptaciones",
        Action::OfferAdjudicate => "Adjudicación de la oferta (Art. 12)",
        Action::AdjudicationsImport => "Importación de adjudicaciones",
        Action::AdjudicationVoid => "Anulación de una adjudicación",
        Action::HolderCreate => "Alta de un titular",
        Action::HolderUpdate => "Actualización de los datos de contacto de un titular",
        Action::PledgeRegister => "Inscripción de una prenda",
        Action::PledgeImport => "Importación de prendas",
        Action::PledgeRelease => "Liberación de una prenda",
        Action::PledgeReleaseReleasable => "Liberación en bloque de prendas",
        Action::PledgeVoid => "Anulación de una prenda",
        Action::BreachRecord => "Registro de un incumplimiento",
        Action::BreachVoid => "Anulación de un incumplimiento",
        Action::PaymentRecord => "Registro de un pago",
        Action::PaymentVoid => "Anulación de un pago",
        Action::FineLiquidate => "Liquidación de una multa",
        Action::NoticeIssue => "Expedición de un aviso de cobro",
        Action::NoticeDelivered => "Registro de la entrega de un aviso",
        Action::DocumentRender => "Generación de un documento",
        Action::SettlementIssue => "Expedición de un paz y salvo",
        Action::StageOpen => "Apertura de un tramo de etapa posterior",
        Action::ProposalsImport => "Importación de propuestas",
        Action::StageImprove => "Mejora de precio de una propuesta",
        Action::StageDraw => "Sorteo entre propuestas empatadas",
        Action::StageAdjudicate => "Adjudicación de una etapa posterior",
        Action::StageDesert => "Declaración de una etapa posterior desierta",
        Action::UserAdd => "Alta de un usuario",
        Action::UserDisable => "Deshabilitación de un usuario",
        Action::UserPassword => "Cambio de contraseña",
        Action::UserSignIn => "Ingreso al sistema",
        Action::UserSignInFailed => "Intento de ingreso fallido",
        Action::AuditCheckpoint => "Punto de control firmado de la cadena de auditoría",
        Action::AuditReanchor => "Nuevo punto de partida de los puntos de control (con su razón)",
    }
}

/// What an officer can do about a refused row of a file, as the web words it after the reason
/// (with its separator): the pages that do it, never a command.
pub fn remedio(r: Remedy) -> String {
    match r {
        Remedy::CorrectLineOrVoid { adjudication: id } => format!(
            "; si el registro está bien, corrija la línea; si el archivo está bien, anule la adjudicación \
             N.º {id} (en la página «Adjudicaciones») e importe de nuevo el archivo"
        ),
        Remedy::LookUpAdjudications => {
            " (los números de las adjudicaciones están en la página «Adjudicaciones»)".to_string()
        }
    }
}

/// Why a row of a file was refused, with its remedy in the web's words: a problems table's cell.
pub fn razon_fila(e: &crate::import::RowError) -> String {
    e.reason_worded(Lang::Es, remedio)
}

/// Where a page of a long list starts and ends, in the catalogue's one wording for every paged
/// table: its `shown` rows after the first `before` of `of` («Personas 201 a 260 de 260»).
pub fn page_of(what: crate::catalogue::Listed, before: usize, shown: usize, of: usize) -> String {
    let n = |x: usize| u64::try_from(x).unwrap_or(u64::MAX);
    crate::catalogue::of(Lang::Es).page_of(what, n(before), n(shown), n(of))
}

/// Under an acta that does not match, what is known of the register's audit chain
/// (`App::chain_now`), in the catalogue's words: when it holds, that the register is intact and
/// the document is what differs; when it does not, where the officer sees what was changed (a
/// genuine acta stops matching a register altered); while it is being verified in the
/// background, that it is.
pub fn chain_note(chain: ChainNow) -> Markup {
    let id = match chain {
        ChainNow::Holds => "auditoria-integra",
        ChainNow::BeingVerified => "auditoria-en-curso",
        ChainNow::DoesNotHold => "auditoria-rota",
    };
    let l = crate::catalogue::verification::acta_chain(Lang::Es, chain);
    html! {
        p id=(id) { (l.before) a href="/auditoria/verificar" { (l.link) } (l.after) }
    }
}

/// A code the register writes in capitals joined by underscores (`BREACH_NOT_LIQUIDATED`, a
/// cause's) or in words joined by dots and underscores (an audit action, `settlement.issue`, a
/// table, `payment_voids`), as `code.codigo`: a narrow column breaks it after an underscore or a
/// dot (`<wbr>`), never inside a word (a hash keeps `code`'s break anywhere).
pub fn codigo(code: &str) -> Markup {
    // each part up to and with its '_' or '.' (`settlement.` | `issue`), a break allowed after it
    let parts = code.split_inclusive(['_', '.']);
    html! {
        code.codigo {
            @for p in parts {
                (p)
                @if p.ends_with(['_', '.']) { wbr; }
            }
        }
    }
}

/// An identifier a reader copies whole (a notice's or a paz y salvo's number, `MULTA-2024-0001`;
/// a program's code, `D3939-2004`), as `span.ident`: never broken at its hyphens.
pub fn ident(text: &str) -> Markup {
    html! { span.ident { (text) } }
}

/// `text` with each identifier of `idents` in it (a program's code, a notice's number it names)
/// shown as [`ident`], never broken at its hyphens; the rest as it is (display only: the text is
/// the same words).
pub fn with_idents(text: &str, idents: &[impl AsRef<str>]) -> Markup {
    // the words before each identifier, and the identifier; the earliest first, the longest
    // of those starting at the same place
    let (mut parts, mut rest) = (Vec::new(), text);
    while let Some((at, id)) = idents
        .iter()
        .map(AsRef::as_ref)
        .filter(|id| !id.is_empty())
        .filter_map(|id| rest.find(id).map(|at| (at, id)))
        .min_by_key(|&(at, id)| (at, std::cmp::Reverse(id.len())))
    {
        parts.push((&rest[..at], id));
        rest = &rest[at + id.len()..];
    }
    html! { @for (before, id) in parts { (before) (ident(id)) } (rest) }
}

/// A page's title and the identifiers it names (`Oferta … del programa D3939-2004`): its heading
/// shows each as [`ident`] ([`with_idents`]), the window's title the plain words.
pub struct Title {
    text: String,
    idents: Vec<String>,
}

impl Title {
    /// `text`, naming `idents`.
    pub fn naming(text: impl Into<String>, idents: &[&str]) -> Title {
        Title {
            text: text.into(),
            idents: idents.iter().map(|s| s.to_string()).collect(),
        }
    }
}

impl From<&str> for Title {
    fn from(text: &str) -> Title {
        Title::naming(text, &[])
    }
}

impl From<String> for Title {
    fn from(text: String) -> Title {
        Title::naming(text, &[])
    }
}

impl From<&String> for Title {
    fn from(text: &String) -> Title {
        Title::naming(text.as_str(), &[])
    }
}

impl From<&Title> for Title {
    fn from(t: &Title) -> Title {
        Title {
            text: t.text.clone(),
            idents: t.idents.clone(),
        }
    }
}

/// A person's document, type and number (`NIT 999000001-2`), as `span.ident`: the check digit
/// never on a line of its own.
pub fn documento(doc_type: impl std::fmt::Display, number: &str) -> Markup {
    html! { span.ident { (doc_type.to_string()) " " (number) } }
}

/// The order a page of the offer's preview lists the persons in, as the catalogue says it after
/// [`page_of`] (« (en el orden elegido)»).
pub fn in_order(order: crate::catalogue::Order) -> &'static str {
    crate::catalogue::of(Lang::Es).in_order(order)
}

/// The link to a paged list's next page: how many rows it holds (`following`: at most a page,
/// what remains after this one), «Siguientes 37 →», «Siguiente →» for the last one.
pub fn siguientes(following: usize) -> String {
    match following {
        1 => "Siguiente →".to_string(),
        n => format!("Siguientes {} →", numero(n as u64)),
    }
}

/// A refused input's problem as one Spanish line (a row's with its line), its remedy in the web's
/// words.
pub fn problema(p: &crate::store::Problem) -> String {
    match p {
        crate::store::Problem::Row(e) => e.worded(Lang::Es, remedio),
        crate::store::Problem::Whole(m) => m.es().to_string(),
    }
}

/// The Spanish name of an audited table, as the audit page shows it beside the table's code
/// ([`crate::headers::table_es`]).
pub fn tabla(code: &str) -> &str {
    crate::headers::table_es(code)
}

/// Who made an audited change, as the audit page shows it: a write made without a session
/// (`register::user::NOT_SIGNED_IN`, kept so in the register) in Spanish.
pub fn actor(stored: &str) -> &str {
    if stored == crate::register::user::NOT_SIGNED_IN {
        "(sin sesión)"
    } else {
        stored
    }
}

/// A certified rate (% EA) with two decimals (`27,90 %`, `18,00 %`), or more when the figure
/// has more (`26,745 %`): a rate is never shown other than the one that is used.
pub fn tasa(x: Decimal) -> String {
    format_percent_dp(x, crate::report::notice::percent_places([x]))
}

/// An SFC resolution's text with every ISO date in it written dd/mm/aaaa (the stored text is
/// unchanged): `SFC Res. 2168 de 2024 (2024-10-31)` → `SFC Res. 2168 de 2024 (31/10/2024)`.
pub fn resolucion(text: &str) -> String {
    crate::rates::resolution_es(text)
}

/// A message shown as a sentence of its own: its first letter capital, a period at its end
/// (the register's reasons are worded to follow a field's name, in lower case and without one).
pub fn sentence(text: &str) -> String {
    let mut out = pesos_kept(&capital(text.trim()));
    if !out.is_empty() && !out.ends_with(['.', '!', '?', '…']) {
        out.push('.');
    }
    out
}

/// A catalogue's sentence with each amount's «$ » made a no-break space, as [`pesos`] writes
/// them, so a line never ends at «$» (`por $ 500.000` → `por $\u{a0}500.000`).
pub fn pesos_kept(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("$ ") {
        let digit = rest[i + 2..].starts_with(|c: char| c.is_ascii_digit());
        out.push_str(&rest[..i]);
        out.push_str(if digit { "$\u{a0}" } else { "$ " });
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// `text` with its first letter capital (`interés simple diario` → `Interés simple diario`).
pub fn capital(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How a convention computes, without the name its explanation starts with: `Cada día se
/// liquida …` (the page names it once, before).
pub fn convention_how(c: crate::fine::Convention) -> String {
    let explain = c.explain_es();
    match explain.split_once(": ") {
        Some((head, how)) if head.to_lowercase() == c.name_es() => capital(how),
        _ => explain.to_string(),
    }
}

/// The months from `first`'s through `last`'s, in words: `de diciembre de 2026`, `de noviembre y
/// diciembre de 2026`, `de diciembre de 2026 y enero de 2027`, `de octubre a diciembre de 2026`,
/// `de noviembre de 2025 a diciembre de 2026`.
pub fn meses(first: NaiveDate, last: NaiveDate) -> String {
    use chrono::Datelike;
    let mes = |d: NaiveDate| crate::lang::MESES[d.month0() as usize];
    let count = (last.year() - first.year()) * 12 + last.month() as i32 - first.month() as i32 + 1;
    let (y0, y1) = (first.year(), last.year());
    match (count, y0 == y1) {
        (..=1, _) => format!("de {} de {y0}", mes(first)),
        (2, true) => format!("de {} y {} de {y1}", mes(first), mes(last)),
        (2, false) => format!("de {} de {y0} y {} de {y1}", mes(first), mes(last)),
        (_, true) => format!("de {} a {} de {y1}", mes(first), mes(last)),
        (_, false) => format!("de {} de {y0} a {} de {y1}", mes(first), mes(last)),
    }
}

pub use crate::lang::cuenta;

/// Pesos as documents write them (`$ 1.126.823`), with a no-break space after the sign, so that
/// a line never ends at «$» and starts with its figure (the documents' bytes keep their space).
pub fn pesos(x: Decimal) -> String {
    format_cop(x).replacen("$ ", "$\u{a0}", 1)
}

/// One column of a table's amounts, each shown as [`pesos`] but with the column's decimals
/// (`money::Places`, the rule of the command line's tables): `$ 963,00` beside `$ 1.450,50`,
/// never `$ 963` beside it; nothing rounded.
#[derive(Debug, Clone, Copy)]
pub struct PesosColumn(u32);

impl PesosColumn {
    pub fn of(amounts: impl IntoIterator<Item = Decimal>) -> PesosColumn {
        PesosColumn(Places::of(amounts).scale())
    }

    pub fn show(self, x: Decimal) -> String {
        format_cop_dp(x, self.0).replacen("$ ", "$\u{a0}", 1)
    }
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
        Field::CorrectionReason => "Motivo de la corrección",
        Field::ValidityReason => "Razón del acto fuera de la vigencia del programa",
        Field::Payment => "Pago",
        Field::Pledge => "Prenda",
        Field::AllowDuplicate => "Registrar de todos modos",
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
        Field::Letterhead => "Membrete y firma del programa",
        Field::IssuerNit => "NIT del emisor",
        Field::PaymentReference => "Referencia de pago",
        Field::BackdateReason => "Motivo de la fecha anterior",
        Field::ExternalAwarded => "Acciones adjudicadas en la primera etapa",
        Field::ActaReference => "Acta de la adjudicación",
    }
}

/// A refusal in the form's words, in Spanish: each field by its label; what to supply as the
/// form's field (a paz y salvo, which no form of this page gives, by name).
/// A refusal's reason alone, in Spanish (for a page that names what it is about already).
pub fn refusal_reason(r: &Refusal) -> String {
    match r {
        Refusal::Value { reason, .. }
        | Refusal::Rule(reason)
        | Refusal::Blocked { reason, .. }
        | Refusal::Waits { reason, .. }
        | Refusal::Repeat { reason, .. } => reason.es().to_string(),
        Refusal::OneOf(..) => refusal_text(r),
    }
}

pub fn refusal_text(r: &Refusal) -> String {
    let usage = |f: Field| match f {
        Field::Settlement => "corresponde expedir el paz y salvo".to_string(),
        Field::Letterhead => "regístrelo en la página «Cartas» del programa".to_string(),
        Field::AllowDuplicate => format!("la casilla «{}» marcada", field_label(f)),
        _ => format!("el campo «{}»", field_label(f)),
    };
    match r {
        // nothing was typed (a reason left empty): the field, then why
        Refusal::Value {
            field,
            value,
            reason,
            remedy,
        } if value.es().trim().is_empty() => {
            let mut s = format!("{}: {}", field_label(*field), reason.es());
            if let Some(f) = remedy {
                s.push_str(&format!(" ({})", usage(*f)));
            }
            s
        }
        _ => r.describe(Lang::Es, |f| field_label(f).to_string(), usage),
    }
}

/// The form input a refusal is about, if one.
pub fn refusal_field(r: &Refusal) -> Option<Field> {
    match r {
        Refusal::Value { field, .. } | Refusal::Blocked { field, .. } => Some(*field),
        Refusal::OneOf(a, _) => Some(*a),
        Refusal::Repeat { with, .. } => Some(*with),
        Refusal::Rule(_) | Refusal::Waits { .. } => None,
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
pub fn page(user: Option<&User>, title: impl Into<Title>, body: Markup) -> Markup {
    let title: Title = title.into();
    html! {
        (DOCTYPE)
        html lang="es-CO" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title.text) " — vigia" }
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
                            @if u.may(Role::Juridico) { a href="/avisos/pendientes" { "Avisos pendientes" } }
                            @if u.may(Role::Juridico) { a href="/firma" { "Firma digital" } }
                            @if u.may(Role::Admin) { a href="/usuarios" { "Usuarios" } }
                            @if u.may(Role::Admin) { a href="/respaldo" { "Respaldo" } }
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
                    h1 { (with_idents(&title.text, &title.idents)) }
                    (body)
                }
                footer { "Ley 226 de 1995 · registro con auditoría encadenada (SHA-256)" }
            }
        }
    }
}

/// An error page: `title`, the message as a sentence, a link `back` to the page it came from
/// (when one is known) and to the dashboard; in the frame with `user`'s menu when signed in.
pub fn error_page(user: Option<&User>, title: &str, message: &str, back: Option<&str>) -> Markup {
    page(
        user,
        title,
        html! {
            p.error role="alert" { (sentence(message)) }
            p.volver {
                @if let Some(b) = back { a href=(b) { "Volver" } " · " }
                a href="/" { "Ir al tablero" }
            }
        },
    )
}

/// The name of every form's CSRF input.
pub const CSRF: &str = "csrf";

/// The hidden CSRF input every form carries.
pub fn csrf(u: &User) -> Markup {
    html! { input type="hidden" name=(CSRF) value=(u.csrf); }
}

/// The holder search's query input (`/titulares?q=`).
pub const SEARCH: &str = "q";

/// The form that searches holders, labelled `label`, `query` the search shown.
pub fn holder_search(label: &str, query: &str) -> Markup {
    html! {
        form method="get" action="/titulares" {
            div.campo { label for=(SEARCH) { (label) } input id=(SEARCH) name=(SEARCH) type="text" value=(query); }
            button type="submit" { "Buscar" }
        }
    }
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
            @if let Some(e) = error { p.error id={(name) "-error"} role="alert" { (sentence(e)) } }
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
    // the rates of the accrual table with the decimals the notice prints them with
    let places =
        crate::report::notice::percent_places(l.pieces.iter().map(|p| p.moratorium_ea_pct));
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
            @if l.provisional {
                dt { "Estado" }
                dd {
                    @match l.prices.stage {
                        // a price so far is recorded: what is pending is the later stage itself
                        fine::StagePrice::SoFar(_) => "PROVISIONAL: una etapa posterior está pendiente; la multa puede aumentar si en ella se obtiene un precio mayor",
                        _ => "PROVISIONAL: el precio de la etapa posterior está pendiente",
                    }
                }
            }
        }
        table.precios {
            caption { "Precios de referencia (gana el mayor)" }
            thead { tr { th { "precio" } th.num { "por acción" } th {} } }
            @let present = l.prices.present();
            @let prices = PesosColumn::of(present.iter().map(|(_, p)| *p));
            tbody {
                @for (basis, price) in present {
                    tr class=[(basis == l.basis).then_some("ganador")] {
                        td { (basis.label_es()) }
                        td.num { (prices.show(price)) }
                        td { @if basis == l.basis { "← mayor valor" } }
                    }
                }
            }
        }
        p.capital {
            "Multa (capital): " (numero(l.shares)) " acciones × " (pesos(l.reference_price)) " × "
            (format_percent(b.percent)) " = " strong { (pesos(l.principal)) }
        }
        p title={"convention = \"" (l.convention.as_str()) "\" en el archivo del programa"} { "Convención de intereses: " (l.convention.name_es()) ". " (convention_how(l.convention)) }
        table.causacion {
            caption { "Intereses moratorios del " (fecha(l.breach_date)) " exclusive al " (fecha(l.until)) " inclusive: " (l.days) " días" }
            thead { tr {
                th { "desde" } th { "hasta" } th.num { "días" } th.num { "tasa EA" } th.num { "tasa diaria" }
                th.num { "capital" } th.num { "interés" } th { "resolución" }
            } }
            @let capital = PesosColumn::of(l.pieces.iter().map(|p| p.capital));
            // the total sits under the pieces' interest: one column
            @let interest = PesosColumn::of(l.pieces.iter().map(|p| p.interest).chain([l.interest]));
            tbody {
                @for p in &l.pieces {
                    tr {
                        td data-label="Desde" { (fecha(p.from)) } td data-label="Hasta" { (fecha(p.to)) } td.num data-label="Días" { (p.days) }
                        td.num data-label="Tasa EA" { (format_percent_dp(p.moratorium_ea_pct, places)) }
                        td.num data-label="Tasa diaria" { (crate::liquidation::shown_daily_rate(p.daily_rate).to_string().replace('.', ",")) }
                        td.num data-label="Capital" { (capital.show(p.capital)) } td.num data-label="Interés" { (interest.show(p.interest)) }
                        td data-label="Resolución" { (resolucion(&p.resolution)) }
                    }
                }
            }
            tfoot { tr { td.rotulo colspan="6" { "Intereses causados" } td.num data-label="Intereses causados" { (interest.show(l.interest)) } td data-label="" {} } }
        }
        @if !l.payments.is_empty() {
            table.pagos {
                caption { "Pagos (primero a intereses, luego a capital: C.C. art. 1653)" }
                thead { tr { th { "fecha" } th.num { "valor" } th.num { "a intereses" } th.num { "a capital" } th.num { "excedente" } th.num { "capital después" } } }
                @let of = |f: fn(&crate::fine::AppliedPayment) -> Decimal| PesosColumn::of(l.payments.iter().map(f));
                @let (amount, to_interest, to_capital, surplus, after) = (of(|p| p.amount), of(|p| p.to_interest), of(|p| p.to_capital), of(|p| p.surplus), of(|p| p.capital_after));
                tbody {
                    @for p in &l.payments {
                        tr { td data-label="Fecha" { (fecha(p.date)) } td.num data-label="Valor" { (amount.show(p.amount)) } td.num data-label="A intereses" { (to_interest.show(p.to_interest)) }
                             td.num data-label="A capital" { (to_capital.show(p.to_capital)) } td.num data-label="Excedente" { (surplus.show(p.surplus)) } td.num data-label="Capital después" { (after.show(p.capital_after)) } }
                    }
                }
            }
        }
        // the balances, one under another, are a column too
        @let surplus = (l.surplus > Decimal::ZERO).then_some(l.surplus);
        @let balances = PesosColumn::of([l.outstanding_capital, l.outstanding_interest, l.total_due].into_iter().chain(surplus));
        dl.total {
            dt { "Capital pendiente" } dd { (balances.show(l.outstanding_capital)) }
            dt { "Intereses pendientes" } dd { (balances.show(l.outstanding_interest)) }
            @if let Some(x) = surplus { dt { "Excedente a devolver" } dd { (balances.show(x)) } }
            dt { "TOTAL A PAGAR al " (fecha(l.until)) } dd #total { strong { (balances.show(l.total_due)) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::said;

    /// SPEC §5's case (1,000 shares, transfer $1,450) liquidated on 10/02/2025 with `stage`.
    fn spec_case_page(stage: fine::StagePrice) -> String {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let case = fine::FineCase {
            adjudicated: d("2024-03-15"),
            breach_date: d("2024-11-20"),
            shares: 1000,
            prices: fine::ReferencePrices {
                acquisition: Decimal::from(963),
                transfer: Some(Decimal::from(1450)),
                stage,
            },
            scale: crate::calendar::FineScale::decreto_3939_2004(),
        };
        let o = fine::liquidate(
            &case,
            d("2025-02-10"),
            &[],
            fine::Convention::DailySimple,
            &crate::rates::RateSeries::shipped(),
        )
        .unwrap();
        outcome(&o).into_string()
    }

    #[test]
    fn a_provisional_liquidation_says_what_is_pending() {
        // a price so far is recorded: the later stage is what is pending, not its price
        let so_far = spec_case_page(fine::StagePrice::SoFar(Decimal::from(1100)));
        assert!(
            so_far.contains("PROVISIONAL: una etapa posterior está pendiente")
                && !so_far.contains("el precio de la etapa posterior está pendiente"),
            "{so_far}"
        );
        let pending = spec_case_page(fine::StagePrice::Pending);
        assert!(
            pending.contains("PROVISIONAL: el precio de la etapa posterior está pendiente"),
            "{pending}"
        );
        let known = spec_case_page(fine::StagePrice::Known(Decimal::from(1100)));
        assert!(!known.contains("PROVISIONAL"), "{known}");
    }

    #[test]
    fn the_next_page_link_counts_what_follows_in_the_singular_for_one() {
        assert_eq!(siguientes(1), "Siguiente →");
        assert_eq!(siguientes(37), "Siguientes 37 →");
        assert_eq!(siguientes(200), "Siguientes 200 →");
    }

    #[test]
    fn an_amount_keeps_its_sign_on_its_line_in_a_sentence() {
        assert_eq!(
            sentence("el pago N.º 1 por $ 500.000 y $ 0 de saldo; $ x queda"),
            "El pago N.º 1 por $\u{a0}500.000 y $\u{a0}0 de saldo; $ x queda."
        );
        assert_eq!(pesos(Decimal::new(112682300, 2)), "$\u{a0}1.126.823");
    }

    #[test]
    fn a_refused_rows_remedy_names_pages_never_commands() {
        let row = crate::import::RowError {
            line: 3,
            field: "shares".into(),
            value: "120".into(),
            reason: said!("differs", "difiere"),
            remedy: Some(Remedy::CorrectLineOrVoid { adjudication: 2 }),
        };
        assert_eq!(
            problema(&crate::store::Problem::Row(row.clone())),
            "línea 3: shares «120»: difiere; si el registro está bien, corrija la línea; si el archivo \
             está bien, anule la adjudicación N.º 2 (en la página «Adjudicaciones») e importe de nuevo el \
             archivo"
        );
        for r in [
            Remedy::CorrectLineOrVoid { adjudication: 2 },
            Remedy::LookUpAdjudications,
        ] {
            let words = remedio(r);
            assert!(!words.contains("vigia ") && !words.contains('`'), "{words}");
        }
    }

    #[test]
    fn every_action_the_store_writes_has_its_spanish_words() {
        let mut seen = std::collections::HashSet::new();
        for a in Action::ALL {
            let label = accion(a.as_str());
            // a label, not the code shown again (what an unlabelled code gets)
            assert_ne!(label, a.as_str(), "{a:?} has no label");
            assert!(
                label.chars().next().is_some_and(char::is_uppercase),
                "{label}"
            );
            assert!(seen.insert(label), "{label:?} labels two actions");
        }
        // the trail stores a forced rate's reason after its code
        assert_eq!(
            accion(&Action::RateAddForced.noted("tasa de la resolución")),
            accion_de(Action::RateAddForced)
        );
        assert_eq!(accion("payment.void"), "Anulación de un pago");
        assert_eq!(accion("algo.desconocido"), "algo.desconocido");
    }

    #[test]
    fn an_iso_date_in_a_resolution_is_written_dd_mm_aaaa() {
        assert_eq!(
            resolucion("SFC Res. 2168 de 2024 (2024-10-31)"),
            "SFC Res. 2168 de 2024 (31/10/2024)"
        );
        // only real dates, each one; the rest as it is
        assert_eq!(
            resolucion("Res. 0001 de 2025-01-02 y 2025-02-30; 12024-10-31; sin fecha"),
            "Res. 0001 de 02/01/2025 y 2025-02-30; 12024-10-31; sin fecha"
        );
    }

    #[test]
    fn a_message_shown_alone_is_a_sentence() {
        assert_eq!(
            sentence("la adjudicación N.º 1 no tiene prenda vigente que liberar"),
            "La adjudicación N.º 1 no tiene prenda vigente que liberar."
        );
        assert_eq!(sentence("Ya está bien."), "Ya está bien.");
        assert_eq!(
            sentence("élite (el campo «Prestamista»)"),
            "Élite (el campo «Prestamista»)."
        );
        // a value first keeps its own case
        assert_eq!(
            sentence("«mil» no es un número entero de acciones"),
            "«mil» no es un número entero de acciones."
        );
        assert_eq!(sentence(""), "");
    }

    #[test]
    fn a_reason_left_empty_is_named_without_a_value() {
        let r = Refusal::value(
            Field::VoidReason,
            "",
            said!("say why", "indique por qué se anula el pago"),
        );
        assert_eq!(
            refusal_text(&r),
            "Motivo de la anulación: indique por qué se anula el pago"
        );
        let typed = Refusal::value(Field::VoidReason, "x", said!("short", "es muy corto"));
        assert_eq!(
            refusal_text(&typed),
            "Motivo de la anulación x: es muy corto"
        );
    }

    #[test]
    fn every_audited_table_has_a_spanish_name() {
        for t in crate::store::audit::AUDITED {
            let name = tabla(t);
            assert_ne!(name, *t, "{t} has no Spanish name");
            assert!(!name.contains('_'), "{t}: {name}");
        }
        assert_eq!(tabla("payment_voids"), "Anulaciones de pagos");
        assert_eq!(actor("(not signed in)"), "(sin sesión)");
        assert_eq!(actor("oscar"), "oscar");
    }

    #[test]
    fn rates_have_two_decimals_or_the_ones_they_need() {
        use crate::money::dec;
        assert_eq!(tasa(dec("18")), "18,00 %");
        assert_eq!(tasa(dec("27.0")), "27,00 %");
        assert_eq!(tasa(dec("28.650")), "28,65 %");
        assert_eq!(tasa(dec("19.06")), "19,06 %");
        // never rounded: 1,5 × 17,83
        assert_eq!(tasa(dec("26.745")), "26,745 %");
    }

    #[test]
    fn months_in_words() {
        let d = |s: &str| crate::calendar::parse_iso(s).unwrap();
        assert_eq!(
            meses(d("2026-12-01"), d("2026-12-01")),
            "de diciembre de 2026"
        );
        assert_eq!(
            meses(d("2026-11-01"), d("2026-12-01")),
            "de noviembre y diciembre de 2026"
        );
        assert_eq!(
            meses(d("2026-12-01"), d("2027-01-01")),
            "de diciembre de 2026 y enero de 2027"
        );
        assert_eq!(
            meses(d("2026-10-01"), d("2026-12-01")),
            "de octubre a diciembre de 2026"
        );
        assert_eq!(
            meses(d("2026-11-01"), d("2027-02-01")),
            "de noviembre de 2026 a febrero de 2027"
        );
        assert_eq!(cuenta(1, "problema", "problemas"), "1 problema");
        assert_eq!(cuenta(1000, "evento", "eventos"), "1.000 eventos");
        assert_eq!(cuenta(0, "evento", "eventos"), "0 eventos");
    }
}
