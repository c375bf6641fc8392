//! What the page of a later stage (`/programas/{code}/etapas/{n}`, [`super::stages`]) shows, and
//! no handler: the stage as the register reads it ([`load`]: what it may offer, its tranches, the
//! evaluation of its proposals under the program's criterion, the invitations to improve, the
//! draws recomputed, its conclusion and the stage price it recorded), drawn in Spanish with es-CO
//! formats, each form with the refusal it caused beside its button. No rule lives here.

use super::auth::User;
use super::form::{Errors, refusal_texts};
use super::views::{self, PesosColumn, csrf, cuenta, fecha, input, momento, numero, pesos};
use super::{App, WebError};
use crate::later_stages::{Stage, Valuation};
use crate::register::Field;
use crate::register::stage::{self as rules, Available, Concluded, DrawCheck, Standing};
use crate::register::stage::{Named, TrancheEvaluation};
use crate::register::user::Role;
use crate::store::programs::{self, StoredProgram};
use crate::store::stage::{self as stored, Kind, Tranche};
use crate::store::{Snapshot, Store};
use maud::{Markup, html};
use rust_decimal::Decimal;

/// The stage as it stands.
pub(super) struct View {
    pub(super) program: StoredProgram,
    pub(super) stage: Stage,
    /// What the stage may offer, or why it cannot offer anything yet.
    pub(super) available: Result<Available, Vec<String>>,
    pub(super) tranches: Vec<Tranche>,
    /// The evaluation (empty without tranches), or why it cannot be made (a rate missing).
    pub(super) evaluation: Result<Vec<TrancheEvaluation>, Vec<String>>,
    /// One page of each evaluated tranche's proposals, as evaluated, in the order of the
    /// ranking ([`ROWS_SHOWN`] at most: a national stage has a million).
    pub(super) listed: Vec<Vec<Named>>,
    /// Which page of which tranche is shown.
    pub(super) paging: Paging,
    /// Every recorded draw recomputed from the register.
    pub(super) draws: Vec<DrawCheck>,
    pub(super) concluded: Option<Concluded>,
}

impl View {
    pub(super) fn code(&self) -> &str {
        &self.program.program.code
    }

    /// `/programas/{code}/etapas/{n}`.
    pub(super) fn base(&self) -> String {
        base(self.code(), self.stage)
    }
}

/// How a tranche's table orders its proposals (the acta and `stage evaluate` list them as
/// filed, with their place).
const BY_PLACE: &str = ", por puesto; las rechazadas, al final y en el orden en que se radicaron.";

/// Proposals a tranche's table shows at a time.
pub(super) const ROWS_SHOWN: usize = 200;

/// Which page of a tranche's proposals is shown: `?tramo=` the tranche, `?desde=` the place in
/// its ranking the page starts at (0 the first); every other tranche shows its first page.
#[derive(Debug, Default, Clone, serde::Deserialize)]
pub(super) struct Paging {
    tramo: Option<u32>,
    desde: Option<usize>,
}

impl Paging {
    /// Where tranche `t`'s page starts.
    fn from(&self, t: u32) -> usize {
        match self.tramo {
            Some(x) if x == t => self.desde.unwrap_or(0),
            _ => 0,
        }
    }
}

/// The later stage an address names, and its program: a stage the program does not provide for
/// is no page.
pub(super) fn stage_of(s: &Store, code: &str, n: u8) -> Result<(StoredProgram, Stage), WebError> {
    let p = programs::by_code(s.conn(), code)?;
    match Stage::try_from(n) {
        Ok(stage) if stage <= p.program.later_stages.last => Ok((p, stage)),
        _ => Err(WebError::not_found(&format!(
            "una etapa {n} del programa {}: sus etapas posteriores son la 2{}",
            p.program.code,
            if p.program.later_stages.last == Stage::Third {
                " y la 3"
            } else {
                ""
            }
        ))),
    }
}

pub(super) fn base(code: &str, stage: Stage) -> String {
    format!("/programas/{code}/etapas/{stage}")
}

pub(super) fn title(code: &str, stage: Stage) -> views::Title {
    views::Title::naming(
        format!("{} Etapa del programa {code}", stage.name_es()),
        &[code],
    )
}

/// Reads stage `stage` of `program` as the command line's `stage evaluate` and `stage draw
/// --verify` read it, outside any write: in one read transaction (one snapshot), the evaluation
/// and the rows it lists alike.
pub(super) fn load(
    app: &App,
    s: &Store,
    program: StoredProgram,
    stage: Stage,
) -> Result<View, WebError> {
    load_at(app, s, (program, stage), Paging::default())
}

/// [`load`], with the page of a tranche's proposals `paging` names.
pub(super) fn load_at(
    app: &App,
    s: &Store,
    (program, stage): (StoredProgram, Stage),
    paging: Paging,
) -> Result<View, WebError> {
    Snapshot::read(s.conn(), |conn| {
        load_in(app, s, conn, (program, stage), paging)
    })
}

fn load_in(
    app: &App,
    s: &Store,
    conn: Snapshot<'_>,
    (program, stage): (StoredProgram, Stage),
    paging: Paging,
) -> Result<View, WebError> {
    let n = stage;
    let available = match rules::available(&conn, &program, n) {
        Ok(a) => Ok(a),
        Err(e) => Err(refusal_texts(e)?),
    };
    let tranches = stored::tranches(&conn, program.id, n)?;
    let rates = app.rates(s)?;
    let evaluation = if tranches.is_empty() {
        Ok(Vec::new())
    } else {
        match rules::evaluate(conn, &program, n, &rates) {
            Ok(e) => Ok(e),
            Err(e) => Err(refusal_texts(e)?),
        }
    };
    let listed = match &evaluation {
        Ok(evals) => evals
            .iter()
            .map(|e| e.ranked_page(conn, paging.from(e.tranche.tranche), ROWS_SHOWN))
            .collect::<Result<_, _>>()?,
        Err(_) => Vec::new(),
    };
    let draws = if stored::draws(&conn, program.id, n)?.is_empty() || evaluation.is_err() {
        Vec::new()
    } else {
        match rules::verify_draws(&conn, &program, n, &rates) {
            Ok(d) => d,
            // the one refusal (no draw recorded) was ruled out above; a store failure goes up
            Err(e) => {
                refusal_texts(e)?;
                Vec::new()
            }
        }
    };
    let concluded = match stored::conclusion(&conn, program.id, n)? {
        Some(_) => Some(rules::concluded(&conn, &program, n, &rates)?),
        None => None,
    };
    Ok(View {
        program,
        stage,
        available,
        tranches,
        evaluation,
        listed,
        paging,
        draws,
        concluded,
    })
}

/// Which of the page's forms was sent: its refusals are shown beside its button, and its inputs
/// as typed.
#[derive(Default)]
pub(super) enum Sent {
    #[default]
    None,
    Open,
    Improve,
    Draw,
    Conclude,
    Verify,
}

/// The open form as typed.
#[derive(Default)]
pub(super) struct OpenTyped {
    pub(super) tranche: String,
    pub(super) shares: String,
    pub(super) opens: String,
    pub(super) closes: String,
    pub(super) reason: String,
}

/// What a sent form shows again.
#[derive(Default)]
pub(super) struct Typed {
    pub(super) sent: Sent,
    pub(super) open: OpenTyped,
    pub(super) proposal: String,
    pub(super) price: String,
    pub(super) seed: String,
    pub(super) on: String,
    /// The consequences of a conclusion, with its confirmation.
    pub(super) confirmation: Option<Markup>,
    /// The verification of an uploaded acta.
    pub(super) verdict: Option<Markup>,
    /// What a write just did, in a sentence.
    pub(super) done: Option<String>,
}

/// The action input of the conclusion form, and its values.
pub(super) const ACTION: &str = "accion";
pub(super) const PREVIEW_ADJUDICATE: &str = "vista-adjudicar";
pub(super) const PREVIEW_DESERT: &str = "vista-desierta";
pub(super) const ADJUDICATE: &str = "adjudicar";
pub(super) const DESERT: &str = "desierta";
/// The preview's fingerprint, which the confirmation must find unchanged.
pub(super) const FINGERPRINT: &str = "huella";

/// The whole page.
pub(super) fn markup(user: &User, v: &View, errors: &Errors, typed: &Typed) -> Markup {
    let none = Errors::default();
    let mine = |s: Sent| -> &Errors {
        if std::mem::discriminant(&s) == std::mem::discriminant(&typed.sent) {
            errors
        } else {
            &none
        }
    };
    let code = v.code();
    html! {
        p {
            "Programa " a href={"/programas/" (code)} { (views::ident(code)) } ": " (v.program.program.name) ". "
            a href={"/programas/" (code) "/oferta"} { "Oferta de primera etapa" }
            @for other in Stage::ALL {
                @if other != v.stage && other <= v.program.program.later_stages.last {
                    " · " a href=(base(code, other)) { (other.name_es()) " Etapa" }
                }
            }
        }
        @if let Some(d) = &typed.done { p.ok role="status" { (views::sentence(d)) } }
        (state(v))
        @match &v.concluded {
            Some(c) => (concluded_markup(user, v, c, typed.verdict.as_ref())),
            None => {
                (tranches_markup(user, v, mine(Sent::Open), typed))
                (evaluation_markup(user, v, mine(Sent::Improve), mine(Sent::Draw), typed))
                (draws_markup(v))
                (conclude_markup(user, v, mine(Sent::Conclude), typed))
            }
        }
    }
}

/// What the stage may offer, and whether it ended.
fn state(v: &View) -> Markup {
    let offered: u64 = v.tranches.iter().map(|t| t.shares).sum();
    html! {
        dl.hechos #estado {
            dt { "Estado" }
            dd {
                @match &v.concluded {
                    Some(c) if c.conclusion.kind == Kind::Adjudicated => { "adjudicada el " (fecha(c.conclusion.decided_on)) }
                    Some(c) => { "declarada desierta el " (fecha(c.conclusion.decided_on)) }
                    None if v.tranches.is_empty() => "sin tramos abiertos",
                    None => "recibiendo o evaluando propuestas",
                }
            }
            @if let Ok(a) = &v.available {
                dt { "Acciones que la etapa ofrece" }
                dd { (numero(a.shares)) " (lo que la etapa anterior no enajenó; concluyó el " (fecha(a.since)) ")" }
                dt { @if v.concluded.is_some() { "Ofrecidas en sus tramos" } @else { "En tramos abiertos" } } dd { (numero(offered)) }
            }
            dt { "Criterio de comparación" } dd { (criterion_es(&v.program.program.later_stages.criterion)) }
        }
        @if let (Err(why), None) = (&v.available, &v.concluded) {
            @for w in why { p.aviso #no-disponible { (views::sentence(w)) } }
        }
    }
}

fn criterion_es(c: &crate::program::Criterion) -> String {
    use crate::program::{Criterion, CriterionRate};
    match c {
        Criterion::PresentValue(CriterionRate::Ibc) => {
            "valor presente al interés bancario corriente vigente al cierre del tramo".into()
        }
        Criterion::PresentValue(CriterionRate::Fixed(r)) => {
            format!("valor presente al {} EA", views::tasa(*r))
        }
        Criterion::HighestPrice => "mayor precio por acción".into(),
        Criterion::PriceAndTerm(w) => format!(
            "precio y plazo (pesos {} y {})",
            w.price.to_string().replace('.', ","),
            w.term.to_string().replace('.', ",")
        ),
    }
}

/// The tranches opened and, for an administrator, the form that opens the next.
fn tranches_markup(user: &User, v: &View, errors: &Errors, typed: &Typed) -> Markup {
    let base = v.base();
    let next = v.tranches.len() + 1;
    let offered: u64 = v.tranches.iter().map(|t| t.shares).sum();
    // what the form proposes: the next tranche with what is left (the register checks both)
    let left = v
        .available
        .as_ref()
        .map(|a| a.shares.saturating_sub(offered))
        .unwrap_or(0);
    let o = &typed.open;
    let sent = matches!(typed.sent, Sent::Open);
    let pick = |t: &str, d: String| if sent { t.to_string() } else { d };
    let e = |f: Field| errors.get(f.as_str());
    html! {
        section #tramos {
            h2 { "Tramos" }
            @if v.tranches.is_empty() {
                p { "La etapa no tiene tramos abiertos: las propuestas responden a una invitación pública (art. 13)." }
            } @else {
                div.tabla {
                    table.tramos-etapa {
                        thead { tr { th.num scope="col" { "Tramo" } th.num scope="col" { "Acciones (Todo o Nada)" } th scope="col" { "Propuestas desde" } th scope="col" { "hasta" } th.num scope="col" { "Precio mínimo por acción" } th scope="col" { "Registrado" } } }
                        @let minimums = PesosColumn::of(v.tranches.iter().map(|t| t.minimum_price));
                        tbody {
                            @for t in &v.tranches {
                                tr {
                                    td.num { (t.tranche) } td.num { (numero(t.shares)) } td { (fecha(t.opens)) } td { (fecha(t.closes)) }
                                    td.num { (minimums.show(t.minimum_price)) } td { (momento(&t.created_at)) " por " (t.created_by) }
                                }
                            }
                        }
                    }
                }
                @if user.may(Role::Oficial) {
                    p { a href={(base) "/propuestas"} { "Importar un archivo de propuestas" } }
                }
            }
            @if user.may(Role::Admin) && v.available.is_ok() && (left > 0 || sent) {
                h3 { "Abrir el tramo " (next) }
                p { "Sus acciones salen de lo que dejó la etapa anterior; el precio mínimo es el del programa (art. 14 a, art. 17 a), fijado al abrir el tramo." }
                form method="post" action={(base) "/tramos"} {
                    (csrf(user))
                    (input(Field::Tranche.as_str(), views::field_label(Field::Tranche), &pick(&o.tranche, next.to_string()), e(Field::Tranche), Some("los tramos se abren en orden")))
                    (input(Field::Shares.as_str(), views::field_label(Field::Shares), &pick(&o.shares, numero(left)), e(Field::Shares), Some("una propuesta es por exactamente estas acciones (Todo o Nada)")))
                    (input(Field::StageOpens.as_str(), views::field_label(Field::StageOpens), &o.opens, e(Field::StageOpens), Some("dd/mm/aaaa: el primer día en que se reciben propuestas")))
                    (input(Field::StageCloses.as_str(), views::field_label(Field::StageCloses), &o.closes, e(Field::StageCloses), Some("dd/mm/aaaa: el último día en que se reciben propuestas")))
                    (input(Field::ValidityReason.as_str(), views::field_label(Field::ValidityReason), &o.reason, e(Field::ValidityReason), Some("solo si el tramo abre fuera de la vigencia del programa (art. 28)")))
                    div.acciones #abrir-tramo {
                        button type="submit" { "Abrir el tramo" }
                        (errors.general())
                    }
                }
            }
        }
    }
}

/// A value under the criterion: pesos with their column's decimals, or points with four
/// decimals.
fn value_es(v: Valuation, x: Option<Decimal>, column: PesosColumn) -> String {
    match x {
        None => String::new(),
        Some(x) => match v {
            Valuation::PriceAndTerm(_) => format!("{x:.4} puntos").replace('.', ","),
            _ => column.show(x),
        },
    }
}

fn valuation_es(program: &StoredProgram, e: &TrancheEvaluation) -> String {
    use crate::program::{Criterion, CriterionRate};
    match (&e.valuation, &program.program.later_stages.criterion) {
        (Valuation::PresentValue { rate_ea_pct }, Criterion::PresentValue(CriterionRate::Ibc)) => {
            format!(
                "valor presente al {} EA, el interés bancario corriente certificado vigente el {} (cierre del tramo)",
                views::tasa(*rate_ea_pct),
                fecha(e.tranche.closes)
            )
        }
        (Valuation::PresentValue { rate_ea_pct }, _) => format!(
            "valor presente al {} EA, fijado en el programa",
            views::tasa(*rate_ea_pct)
        ),
        (Valuation::HighestPrice, _) => "mayor precio".into(),
        (Valuation::PriceAndTerm(_), _) => "puntaje de precio y plazo".into(),
    }
}

/// Each tranche's proposals with their value and ranking, its standing, and the invitations to
/// improve and the draw of a tie.
fn evaluation_markup(
    user: &User,
    v: &View,
    improve_errors: &Errors,
    draw_errors: &Errors,
    typed: &Typed,
) -> Markup {
    html! {
        @match &v.evaluation {
            Err(why) => {
                section #evaluacion {
                    h2 { "Evaluación de las propuestas" }
                    @for w in why { p.aviso { (views::sentence(w)) } }
                }
            }
            Ok(evals) if evals.is_empty() => {},
            Ok(evals) => {
                section #evaluacion {
                    h2 { "Evaluación de las propuestas" }
                    @for e in evals { (tranche_evaluation(user, v, e, improve_errors, draw_errors, typed)) }
                }
            }
        }
    }
}

fn tranche_evaluation(
    user: &User,
    v: &View,
    e: &TrancheEvaluation,
    improve_errors: &Errors,
    draw_errors: &Errors,
    typed: &Typed,
) -> Markup {
    let t = e.tranche.tranche;
    let base = v.base();
    let tied_now: Vec<usize> = match &e.standing {
        Standing::Tie(x) => x.clone(),
        _ => Vec::new(),
    };
    // tied at the best value, drawn or not (the command line's `tied`)
    let tied_all = e.outcome_tie().unwrap_or_default();
    let winner = match e.standing {
        Standing::Winner { proposal, .. } => Some(proposal),
        _ => None,
    };
    // a page of the ranking as its column reads: ranked proposals by place, then the rest as
    // filed (`TrancheEvaluation::ranked_page`)
    let listed: &[Named] = match &v.evaluation {
        Ok(evals) => evals
            .iter()
            .position(|x| x.tranche.tranche == e.tranche.tranche)
            .and_then(|k| v.listed.get(k))
            .map_or(&[], Vec::as_slice),
        Err(_) => &[],
    };
    let (from, total) = (v.paging.from(t), e.len());
    let page_at = |desde: usize| format!("{base}?tramo={t}&desde={desde}#tramo-{t}");
    html! {
        h3 #{"tramo-" (t)} { "Tramo " (t) }
        p { "Criterio: " (valuation_es(&v.program, e)) "." }
        @if e.is_empty() {
            p { "El tramo no tiene propuestas." }
        } @else {
            p.paginado {
                @if listed.is_empty() { "Ninguna propuesta en esta página: el tramo tiene " (numero(total as u64)) "." }
                @else if listed.len() < total { (views::page_of(crate::catalogue::Listed::Proposals, from, listed.len(), total)) (BY_PLACE) }
                @else if total == 1 { "Una propuesta." }
                @else { (numero(total as u64)) " propuestas" (BY_PLACE) }
            }
            div.tabla.desplazable {
                table.propuestas.tarjetas {
                    thead { tr {
                        th.num scope="col" { "Puesto" } th scope="col" { "Propuesta" } th scope="col" { "Proponentes" }
                        th scope="col" { "Presentada" } th.num scope="col" { "Precio por acción" } th.num scope="col" { "Precio mejorado" }
                        th.num scope="col" { "Plazo (días)" } th.num scope="col" { "Valor" } th scope="col" { "Resultado" }
                    } }
                    @let prices = PesosColumn::of(listed.iter().map(|n| n.proposal.row.price_per_share));
                    @let improved = PesosColumn::of(listed.iter().filter_map(|n| n.improvement.as_ref().map(|m| m.price)));
                    @let values = PesosColumn::of(listed.iter().filter_map(|n| n.evaluated.value));
                    tbody {
                        @for n in listed {
                            @let (i, p, ev) = (n.index, &n.proposal, &n.evaluated);
                            tr {
                                td.num data-label="Puesto" { @if let Some(r) = ev.rank { (r) } }
                                td data-label="Propuesta" { (p.row.reference) }
                                td.proponentes data-label="Proponentes" { @for (k, b) in p.row.bidders.iter().enumerate() { @if k > 0 { br; } (views::documento(b.doc_type, &b.doc_number)) " " (b.name) } }
                                td data-label="Presentada" { (p.row.filed_at.format("%d/%m/%Y %H:%M")) }
                                td.num data-label="Precio por acción" { (prices.show(p.row.price_per_share)) }
                                td.num data-label="Precio mejorado" { @if let Some(m) = &n.improvement { (improved.show(m.price)) @if !m.counted { br; small { "no supera el original: no cuenta" } } } }
                                td.num data-label="Plazo (días)" { (p.row.term_days) }
                                td.num data-label="Valor" { (value_es(e.valuation, ev.value, values)) }
                                td.resultado data-label="Resultado" {
                                    @if Some(i) == winner { strong { "ganadora" } @if let Some(d) = &e.draw { " (sorteo N.º " (d.id) ")" } }
                                    @else if tied_all.contains(&i) { "empatada" @if e.draw.is_some() { " (no favorecida por el sorteo)" } }
                                    @else if let Some(c) = &ev.cause { "rechazada: " (crate::catalogue::stage::cause_es(c)) br; small { (views::codigo(c.code())) } }
                                    @else { "válida" }
                                }
                            }
                        }
                    }
                }
            }
            @if from > 0 || from + listed.len() < total {
                nav.paginas aria-label={"Páginas de las propuestas del tramo " (t)} {
                    @if from > 0 { a href=(page_at(0)) { "Desde el principio" } " " }
                    @if from + listed.len() < total { a.siguientes href=(page_at(from + listed.len())) { (views::siguientes((total - from - listed.len()).min(ROWS_SHOWN))) } }
                }
            }
        }
        p.resultado-tramo {
            @match &e.standing {
                Standing::Winner { proposal, draw } => {
                    "Gana la propuesta " strong { (e.proposal(*proposal).row.reference) }
                    @if let Some(d) = draw { " por el sorteo N.º " (d) }
                    " a " (pesos(e.evaluated(*proposal).price)) " por acción."
                }
                Standing::Tie(x) => { "Empate en el mejor valor entre " (e.references(x).join(", ")) ": se invita a los empatados a mejorar su precio y, si persiste, se decide por sorteo." }
                Standing::Desert if e.is_empty() => "Aún no se han recibido propuestas para este tramo; si cierra sin ninguna válida, queda desierto y sus acciones pasan a la etapa siguiente.",
                Standing::Desert => "Ninguna propuesta válida: el tramo queda desierto y sus acciones pasan a la etapa siguiente.",
            }
        }
        @if !e.original_tie.is_empty() && e.draw.is_none() {
            (invitations(user, &base, e, improve_errors, typed))
        }
        @if !tied_now.is_empty() && e.draw.is_none() && user.may(Role::Admin) {
            (draw_form(user, (&base, v.code(), v.stage), e, &tied_now, draw_errors, typed))
        }
    }
}

/// The invitations to improve of a tie as filed: who is invited, who answered, and the form that
/// records an answer.
fn invitations(
    user: &User,
    base: &str,
    e: &TrancheEvaluation,
    errors: &Errors,
    typed: &Typed,
) -> Markup {
    let invited: Vec<usize> = e.original_tie.clone();
    let open: Vec<&str> = invited
        .iter()
        .filter(|&&i| e.named(i).is_some_and(|n| n.improvement.is_none()))
        .map(|&i| e.proposal(i).row.reference.as_str())
        .collect();
    let (p, price) = (Field::Proposal.as_str(), Field::ImprovedPrice.as_str());
    let id = format!("mejora-{}", e.tranche.tranche);
    html! {
        div.invitaciones {
            h4 { "Invitación a mejorar el precio" }
            p { "Invitadas, por estar empatadas en el mejor valor tal como se presentaron: " (e.references(&invited).join(", ")) ". Cada una responde una sola vez; un precio que no supere el original se registra y no cuenta." }
            ul {
                @for &i in &invited {
                    li {
                        (e.proposal(i).row.reference) ": "
                        @match e.named(i).and_then(|n| n.improvement.as_ref()) {
                            Some(m) => { "respondió con " (pesos(m.price)) " el " (momento(&m.created_at)) @if !m.counted { " (no supera el original; queda el precio original)" } }
                            None => "sin respuesta",
                        }
                    }
                }
            }
            @if user.may(Role::Oficial) && !open.is_empty() {
                form method="post" action={(base) "/mejoras"} {
                    (csrf(user))
                    div.campo.con-error[errors.get(p).is_some()] {
                        label for={(id) "-" (p)} { (views::field_label(Field::Proposal)) }
                        select id={(id) "-" (p)} name=(p) {
                            @for r in &open { option value=(r) selected[typed.proposal == *r] { (r) } }
                        }
                        @if let Some(m) = errors.get(p) { p.error id={(p) "-error"} role="alert" { (views::sentence(m)) } }
                    }
                    div.campo.con-error[errors.get(price).is_some()] {
                        label for={(id) "-" (price)} { "Nuevo precio por acción" }
                        input id={(id) "-" (price)} name=(price) type="text" value=(typed.price);
                        small { "en pesos, p. ej. 1.120 o 1.120,50" }
                        @if let Some(m) = errors.get(price) { p.error id={(price) "-error"} role="alert" { (views::sentence(m)) } }
                    }
                    div.acciones #registrar-mejora {
                        button type="submit" { "Registrar la respuesta" }
                        (errors.general())
                    }
                }
            }
        }
    }
}

/// The draw of a persisting tie: how it is decided, and its form.
fn draw_form(
    user: &User,
    (base, code, stage): (&str, &str, crate::later_stages::Stage),
    e: &TrancheEvaluation,
    tied: &[usize],
    errors: &Errors,
    typed: &Typed,
) -> Markup {
    let seed = Field::DrawSeed.as_str();
    let mut sorted: Vec<&str> = e.references(tied);
    sorted.sort_unstable();
    html! {
        div.sorteo {
            h4 { "Sorteo del empate" }
            p {
                "Si el empate persiste, se decide por sorteo verificable: las referencias empatadas se ordenan por sus bytes UTF-8 ("
                (sorted.join(", ")) "); se calcula el SHA-256 del texto "
                code.partir { "SEMILLA|" (code) "|" (stage) "|" (e.tranche.tranche) "|" (sorted.join(",")) }
                "; los primeros 8 bytes del resumen, leídos como entero sin signo, módulo " (tied.len())
                ", dan el puesto (desde 0) que gana. Cualquiera puede repetirlo con una herramienta SHA-256."
            }
            form method="post" action={(base) "/sorteo"} {
                (csrf(user))
                input type="hidden" name=(Field::Tranche.as_str()) value=(e.tranche.tranche);
                (input(seed, views::field_label(Field::DrawSeed), &typed.seed, errors.get(seed), Some("la fuente pública de azar anunciada, p. ej. el resultado de una lotería; sin «|»")))
                div.acciones #sortear {
                    button type="submit" { "Sortear el empate" }
                    (errors.general())
                }
            }
        }
    }
}

/// Every recorded draw with its recomputation, which anyone can repeat.
fn draws_markup(v: &View) -> Markup {
    html! {
        @if !v.draws.is_empty() {
            section #sorteos {
                h2 { "Sorteos registrados" }
                @for c in &v.draws { (draw_check(c)) }
            }
        }
    }
}

/// A draw's arithmetic in the catalogue's words (the command line's `stage draw` says it alike).
pub(super) fn draw_place(number: &dyn std::fmt::Display, tied: usize, index: usize) -> String {
    let n = |x: usize| u64::try_from(x).unwrap_or(u64::MAX);
    crate::catalogue::of(crate::lang::Lang::Es).draw_place(number, n(tied), n(index))
}

fn draw_check(c: &DrawCheck) -> Markup {
    let (d, r) = (&c.stored, &c.recomputed);
    html! {
        div.sorteo-registrado {
            h3 { "Sorteo N.º " (d.id) " del tramo " (d.tranche) }
            dl.hechos {
                dt { "Registrado" } dd { (momento(&d.created_at)) " por " (d.created_by) }
                dt { "Semilla" } dd { code { (d.seed) } }
                dt { "Empatadas, ordenadas por sus bytes UTF-8" } dd { (r.sorted.join(", ")) }
                dt { "Texto del resumen" } dd { code.partir { (d.hashed_text) } }
                dt { "SHA-256" } dd { code.partir { (d.digest) } }
                dt { "Primeros 8 bytes como entero" } dd { code { (d.number) } }
                dt { "Puesto ganador" } dd { (draw_place(&d.number, d.tied, d.winner_index)) ": gana " strong { (d.winner) } }
            }
            p { "Para repetirlo: " code.partir { "printf %s '" (d.hashed_text.replace('\'', "'\\''")) "' | sha256sum" } }
            @if c.differences.is_empty() {
                p.ok role="status" { "Recalculado desde el registro: coincide (" code { (r.digest) } ", gana " (r.winner) ")." }
            } @else {
                p.error role="alert" { "Recalculado desde el registro: NO coincide. " (c.differences.iter().map(|d| crate::catalogue::stage::draw_discrepancy(crate::lang::Lang::Es, d)).collect::<Vec<_>>().join("; ")) "." }
            }
        }
    }
}

/// The conclusion form: the date, and the two previews (adjudicate, declare void) whose
/// confirmation names the consequences.
fn conclude_markup(user: &User, v: &View, errors: &Errors, typed: &Typed) -> Markup {
    let on = Field::StageDecisionDate.as_str();
    html! {
        @if user.may(Role::Admin) && v.available.is_ok() {
            section #concluir {
                h2 { "Adjudicar la etapa o declararla desierta" }
                p { "Una sola vez (art. 3: la etapa se agota). Primero se muestra lo que la decisión escribiría; nada se escribe hasta que usted confirme." }
                form method="post" action={(v.base()) "/concluir"} {
                    (csrf(user))
                    (input(on, views::field_label(Field::StageDecisionDate), &typed.on, errors.get(on), Some("dd/mm/aaaa; después del cierre del último tramo")))
                    div.acciones #decidir {
                        button type="submit" name=(ACTION) value=(PREVIEW_ADJUDICATE) { "Vista previa de la adjudicación" }
                        button.secundario type="submit" name=(ACTION) value=(PREVIEW_DESERT) { "Vista previa de la declaratoria de desierta" }
                        (errors.general())
                    }
                }
                @if let Some(c) = &typed.confirmation { (c) }
            }
        }
    }
}

/// The awards of a conclusion, computed (a preview) or stored.
pub(super) fn awards_table(c: &Concluded) -> Markup {
    let proposal = |id: Option<i64>| c.awarded.iter().find(|p| Some(p.id) == id);
    html! {
        div.tabla {
            table.adjudicacion-etapa.tarjetas {
                thead { tr {
                    th.num scope="col" { "Tramo" } th.num scope="col" { "Acciones" } th scope="col" { "Propuesta ganadora" }
                    th scope="col" { "Proponentes (solidariamente responsables)" } th.num scope="col" { "Precio por acción" }
                    th.num scope="col" { "Total" } th scope="col" { "Pago a más tardar" }
                } }
                @let priced: Vec<(Decimal, u64)> = c.awards.iter().filter_map(|a| Some((a.price?, a.shares))).collect();
                @let prices = PesosColumn::of(priced.iter().map(|(p, _)| *p));
                @let totals = PesosColumn::of(priced.iter().map(|(p, n)| *p * Decimal::from(*n)));
                tbody {
                    @for a in &c.awards {
                        tr {
                            td.num data-label="Tramo" { (a.tranche) } td.num data-label="Acciones" { (numero(a.shares)) }
                            @match (proposal(a.proposal_id), a.price) {
                                (Some(p), Some(price)) => {
                                    td data-label="Propuesta ganadora" { (p.row.reference) @if let Some(d) = a.draw_id { br; small { "decidida por el sorteo N.º " (d) } } }
                                    td.proponentes data-label="Proponentes" { @for (k, b) in p.row.bidders.iter().enumerate() { @if k > 0 { br; } (views::documento(b.doc_type, &b.doc_number)) " " (b.name) } }
                                    td.num data-label="Precio por acción" { (prices.show(price)) }
                                    td.num data-label="Total" { (totals.show(price * Decimal::from(a.shares))) }
                                    td data-label="Pago a más tardar" { @if let Some(d) = a.payment_due { (fecha(d)) } }
                                }
                                _ => { td colspan="5" { "desierto: sin propuesta válida; sus acciones pasan a la etapa siguiente" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The stage price a conclusion records (Art. 9 (iii)), in a sentence.
pub(super) fn stage_price_es(code: &str, stage: Stage, c: &Concluded) -> String {
    let k = &c.conclusion;
    match (k.kind, k.price, c.stage_price) {
        (Kind::Adjudicated, Some(price), Some((id, _))) => {
            let composition = if c.parts.len() > 1 {
                format!(
                    " = ({}) ÷ {} acciones, redondeado a centavos",
                    c.parts
                        .iter()
                        .map(|x| format!("{} × {}", numero(x.shares), pesos(x.price)))
                        .collect::<Vec<_>>()
                        .join(" + "),
                    numero(c.parts.iter().map(|x| x.shares).sum::<u64>())
                )
            } else {
                String::new()
            };
            format!(
                "Precio de la {} Etapa (registro N.º {id}): {} por acción{composition}, precio de referencia del art. 9 (iii) del programa {code} desde el {}; {}",
                stage.name_es(),
                pesos(price),
                fecha(k.decided_on),
                if c.later_stage_pending {
                    "una etapa posterior sigue pendiente para las acciones sobrantes: es el precio hasta ahora, y las liquidaciones siguen provisionales hasta que esa etapa concluya"
                } else {
                    "las liquidaciones provisionales quedan señaladas para reliquidar"
                }
            )
        }
        (Kind::Desert, _, Some((id, _))) => format!(
            "Precio de la {} Etapa (registro N.º {id}): el programa {code} no tiene etapa posterior; no hay precio del art. 9 (iii) desde el {}",
            stage.name_es(),
            fecha(k.decided_on)
        ),
        (Kind::Desert, _, None) => format!(
            "La {} Etapa no registra precio: sus {} pasan a la Tercera Etapa",
            stage.name_es(),
            cuenta(k.leftover, "acción", "acciones")
        ),
        _ => "La etapa no registra precio".into(),
    }
}

/// A concluded stage: its conclusion, awards and stage price, the acta to download and the form
/// that verifies one.
fn concluded_markup(user: &User, v: &View, c: &Concluded, verdict: Option<&Markup>) -> Markup {
    let k = &c.conclusion;
    let base = v.base();
    html! {
        section #conclusion {
            h2 {
                @if k.kind == Kind::Adjudicated { "Adjudicación" } @else { "Declaratoria de desierta" }
                " (acta N.º " (k.id) ") del " (fecha(k.decided_on))
            }
            p { "Registrada " (momento(&k.created_at)) " por " (k.created_by) ": " (numero(k.awarded)) " de " (numero(k.offered)) " acciones adjudicadas, " (numero(k.leftover)) " sin adjudicar." }
            @if !c.awards.is_empty() { (awards_table(c)) }
            p.aviso #precio-etapa { (views::sentence(&stage_price_es(v.code(), v.stage, c))) }
        }
        @if let Ok(evals) = &v.evaluation {
            @if !evals.is_empty() {
                details open[v.paging.tramo.is_some()] {
                    summary { "Evaluación de las propuestas" }
                    @for e in evals { (tranche_evaluation(user, v, e, &Errors::default(), &Errors::default(), &Typed::default())) }
                }
            }
        }
        (draws_markup(v))
        section #acta {
            h2 { "Acta de la etapa" }
            p {
                "Descargar acta: "
                a href={(base) "/acta.pdf"} download { "PDF" } " · "
                a href={(base) "/acta.html"} download { "HTML" } " · "
                a href={(base) "/acta.md"} download { "Markdown" }
                " (la misma que escribe el programa de línea de comandos)."
            }
            h3 { "Verificar un acta" }
            p { "Suba un acta de etapa (PDF, HTML o Markdown): se recalculan desde el registro las propuestas, mejoras y sorteos, y su texto debe ser el que da la conclusión registrada." }
            div.verificacion {
                (super::form::upload_form(user, &format!("{base}/verificar#acta"), "Archivo del acta", html! {}, "Verificar el acta"))
                @if let Some(x) = verdict { (x) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stage::Conclusion;

    /// The Second Stage of `P` adjudicated on 16/08/2024 at $ 1.100, leaving `leftover` shares.
    fn concluded(leftover: u64, later_stage_pending: bool) -> Concluded {
        Concluded {
            conclusion: Conclusion {
                id: 1,
                stage: Stage::Second,
                kind: Kind::Adjudicated,
                decided_on: chrono::NaiveDate::from_ymd_opt(2024, 8, 16).unwrap(),
                offered: 1000 + leftover,
                awarded: 1000,
                leftover,
                price: Some(Decimal::from(1100)),
                stage_price_id: Some(7),
                created_at: String::new(),
                created_by: String::new(),
            },
            awards: Vec::new(),
            parts: Vec::new(),
            stage_price: Some((7, Some(Decimal::from(1100)))),
            evaluations: Vec::new(),
            awarded: Vec::new(),
            later_stage_pending,
        }
    }

    #[test]
    fn a_stage_price_says_whether_liquidations_are_flagged_or_stay_provisional() {
        let sold = stage_price_es("P", Stage::Second, &concluded(0, false));
        assert!(
            sold.ends_with("; las liquidaciones provisionales quedan señaladas para reliquidar"),
            "{sold}"
        );
        // shares left to the Third: the price so far, nothing flagged until it concludes
        let so_far = stage_price_es("P", Stage::Second, &concluded(500, true));
        assert!(
            so_far.ends_with(
                "; una etapa posterior sigue pendiente para las acciones sobrantes: es el precio \
                 hasta ahora, y las liquidaciones siguen provisionales hasta que esa etapa concluya"
            ),
            "{so_far}"
        );
    }
}
