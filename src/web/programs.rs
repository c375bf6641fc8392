//! `/programas`: the programs registered (`vigia program list`), one program's terms (`vigia
//! program show`: its brackets, caps, conventions and stage price) and, for an administrator, a
//! program registered from its TOML file (`vigia program add`). A program is never edited.

use super::App;
use super::auth::User;
use super::extract::Path;
use super::form::{Page, ok, read_upload, refusal_texts, see_other, upload_form, with_status};
use super::views::{self, PesosColumn, momento, numero, page, pesos};
use crate::caps::{Cap, Measure, Person, When};
use crate::fine::StagePrice;
use crate::program::{Criterion, CriterionRate, TermFrom};
use crate::register;
use crate::register::user::Role;
use crate::store::programs::{self, Added, StoredProgram};
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::get;
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/programas", get(programs_page).post(program_add))
        .route("/programas/{code}", get(program_page))
}

async fn programs_markup(
    app: Arc<App>,
    user: User,
    message: Option<Markup>,
    status: StatusCode,
) -> Page {
    let all = app.db(|s| Ok(programs::list(s.conn())?)).await?;
    let body = html! {
        @if let Some(m) = message { (m) }
        table.programas.tarjetas {
            @let prices = PesosColumn::of(all.iter().map(|p| p.program.fixed_price));
            thead { tr { th { "código" } th { "nombre" } th { "decreto" } th.num { "acciones ofrecidas" } th.num { "precio fijo" } th { "registrado" } } }
            tbody {
                @for p in &all {
                    tr {
                        td data-label="Código" { a href={"/programas/" (p.program.code)} { (views::ident(&p.program.code)) } }
                        td data-label="Nombre" { (p.program.name) } td data-label="Decreto" { (p.program.decree) }
                        td.num data-label="Acciones ofrecidas" { (numero(p.program.shares_offered)) } td.num data-label="Precio fijo" { (prices.show(p.program.fixed_price)) }
                        td data-label="Registrado" { (momento(&p.created_at)) " por " (p.created_by) }
                    }
                }
            }
        }
        @if user.may(Role::Admin) {
            h2 { "Registrar un programa" }
            p {
                "El archivo del programa (TOML) describe su decreto: categorías, topes, plazos y "
                "tramos de la multa; lo prepara quien administra vigia, que trae el del Decreto 3939 "
                "de 2004 como modelo. Un programa "
                "no se edita nunca: el mismo archivo otra vez no agrega nada, y un archivo distinto "
                "con un código ya registrado se rechaza (regístrelo con otro código)."
            }
            (upload_form(&user, "/programas", "Archivo del programa (TOML)", html! {}, "Registrar el programa"))
        }
    };
    with_status(status, page(Some(&user), "Programas", body))
}

async fn programs_page(State(app): State<Arc<App>>, user: User) -> Page {
    programs_markup(app, user, None, StatusCode::OK).await
}

/// `vigia program add FILE`.
async fn program_add(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let up = read_upload(m).await?;
    user.check_csrf(up.fields.csrf())?;
    user.require(Role::Admin)?;
    let refused = |app, user, m: String| {
        programs_markup(
            app,
            user,
            Some(html! { p.error role="alert" { (views::sentence(&m)) } }),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let Some(received) = up.received() else {
        let m = "Elija el archivo del programa; no se subió ninguno.".to_string();
        return refused(app, user, m).await;
    };
    // written to a temporary file as it arrived; read when parsed
    let (name, bytes) = (received.name.clone(), received.read().await?);
    // read as `vigia program add` reads its file: UTF-8 text, then the program's own checks
    let text = match crate::text::utf8(&bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            let m = format!(
                "El archivo «{name}» no es un archivo de texto UTF-8 (un programa es un archivo TOML); nada se registró. Detalle: {e}"
            );
            return refused(app, user, m).await;
        }
    };
    let program = match crate::program::Program::from_toml(&text) {
        Ok(p) => p,
        Err(e) => {
            let m = format!(
                "El archivo «{name}» no es un programa válido; nada se registró. Motivo: {}",
                e.in_lang(crate::lang::Lang::Es)
            );
            return refused(app, user, m).await;
        }
    };
    let officer = user.name.clone();
    let code = program.code.clone();
    let result = app
        .db(move |s| {
            Ok(s.write::<_, register::Error>(&officer, |tx| {
                register::program::add(tx, &program, &text)
            }))
        })
        .await?;
    match result {
        Ok(Added::New(_)) => see_other(format!("/programas/{code}")),
        Ok(Added::AlreadyThere(id)) => {
            let m = html! {
                p.aviso role="status" {
                    "El programa " a href={"/programas/" (code)} { (views::ident(&code)) } " ya estaba registrado (id " (id)
                    ") con el mismo contenido: no se agregó nada."
                }
            };
            programs_markup(app, user, Some(m), StatusCode::OK).await
        }
        Err(e) => {
            let m = format!(
                "El registro rechazó el programa: {}",
                refusal_texts(e)?.join("; ")
            );
            refused(app, user, m).await
        }
    }
}

fn measure_es(m: Measure) -> &'static str {
    match m {
        Measure::PatrimonioLiquido => "el patrimonio líquido",
        Measure::Income => "los ingresos",
        Measure::AnnualSalary => "el salario anual",
        Measure::InvestmentLimit => "el límite legal o estatutario de inversión",
        Measure::PatrimonioAjustado => "el patrimonio ajustado",
        Measure::IncomeFinancialStatements => "los ingresos de los estados financieros",
    }
}

/// A cap's documents in words: one, or the least or the sum of several.
fn measures_es(of: &[Measure], combine: crate::caps::Combine) -> String {
    let names: Vec<&str> = of.iter().map(|&m| measure_es(m)).collect();
    match (names.split_last(), combine) {
        (Some((last, [])), _) => (*last).to_string(),
        (Some((last, rest)), crate::caps::Combine::Least) => {
            format!("el menor entre {} y {last}", rest.join(", "))
        }
        (Some((last, rest)), crate::caps::Combine::Sum) => {
            format!("la suma de {} y {last}", rest.join(", "))
        }
        (None, _) => String::new(),
    }
}

/// The program's categories in Spanish, each with the numeral that names it in a file
/// (`asociación de empleados (iii)`); a category the catalogue has no words for, as written.
fn categories_es(g: &crate::program::Program) -> String {
    let es = crate::catalogue::of(crate::lang::Lang::Es);
    g.categories
        .iter()
        .map(|c| {
            let words = es.code("category", c).unwrap_or(c);
            match g.category_numeral(c) {
                Some(n) => format!("{words} {n}"),
                None => words.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One cap in words: to whom it applies and how much it allows.
fn cap_es(c: &Cap) -> (String, String) {
    let person = match c.person {
        Person::Natural => "persona natural",
        Person::Legal => "persona jurídica",
    };
    let when = match c.when {
        When::Always => "",
        When::FilesTaxReturn => ", que declara renta",
        When::NoTaxReturn => ", que no declara renta",
        When::Director => ", con cargo directivo en la sociedad",
    };
    let limit = match (c.times, c.of.is_empty(), c.shares) {
        (Some(t), false, _) if t == rust_decimal::Decimal::ONE => {
            format!("una vez {}", measures_es(&c.of, c.combine))
        }
        (Some(t), false, _) => {
            format!(
                "{} veces {}",
                crate::money::format_number(t),
                measures_es(&c.of, c.combine)
            )
        }
        (_, _, Some(n)) => format!("{} acciones", numero(n)),
        _ => String::new(),
    };
    (format!("{person}{when}"), limit)
}

async fn program_page(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    let (p, stage): (StoredProgram, StagePrice) = app
        .db(move |s| {
            let p = programs::by_code(s.conn(), &code)?;
            let stage = programs::stage_price(s.conn(), p.id)?;
            Ok((p, stage))
        })
        .await?;
    let g = &p.program;
    let body = html! {
        dl.hechos {
            dt { "Código" } dd { (views::ident(&g.code)) }
            dt { "Nombre" } dd { (g.name) }
            dt { "Norma" } dd { (g.decree) " (multa: " (g.fine_article) "; prenda: " (g.pledge_article) ")" }
            dt { "Emisor" } dd { (g.issuer) }
            dt { "Acciones ofrecidas" } dd { (numero(g.shares_offered)) }
            dt { "Precio fijo por acción" } dd { (pesos(g.fixed_price)) }
            dt { "Período de restricción" } dd { (g.lockup_months) " meses" }
            dt { "Precios de referencia" } dd { (g.reference_prices.iter().map(|b| b.label_es()).collect::<Vec<_>>().join("; ")) }
            dt { "Incumplimientos" } dd { (g.breach_kinds.iter().map(|k| k.label_es()).collect::<Vec<_>>().join("; ")) }
            dt { "Convención de intereses" } dd title={"convention = \"" (g.convention.as_str()) "\" en el archivo del programa"} {
                // its Spanish name, then how it computes (the code of the program's file in the title)
                (views::capital(g.convention.name_es())) ". " (views::convention_how(g.convention))
            }
            dt { "Plazo de pago del aviso" } dd {
                (g.payment_term_business_days) " días hábiles desde "
                @match g.letters.payment_term_from { TermFrom::Delivery => "la entrega del aviso", TermFrom::Issue => "la fecha del aviso" }
            }
            dt { "Precio de la etapa posterior" } dd {
                @match stage {
                    StagePrice::Known(x) => { (pesos(x)) " por acción" }
                    StagePrice::SoFar(x) => { (pesos(x)) " por acción por ahora: una etapa posterior está pendiente (las liquidaciones son provisionales)" }
                    StagePrice::Absent => "no hay etapa posterior",
                    StagePrice::Pending => "pendiente (las liquidaciones son provisionales)",
                }
            }
            dt { "Prorrata" } dd { (g.proration.source_es()) }
            dt { "Etapas posteriores" } dd {
                "hasta la " (g.later_stages.last.name_es()) " Etapa; "
                @match g.later_stages.criterion {
                    Criterion::PresentValue(CriterionRate::Ibc) => "valor presente al interés bancario corriente vigente al cierre",
                    Criterion::PresentValue(CriterionRate::Fixed(r)) => { "valor presente al " (views::tasa(r)) " EA" }
                    Criterion::HighestPrice => "mayor precio",
                    Criterion::PriceAndTerm(w) => { "precio y plazo (pesos " (w.price) " y " (w.term) ")" }
                }
                // zero: a proposal still needs a guarantee of seriedad, of any amount
                @if g.later_stages.minimum_guarantee.is_zero() { "; garantía de seriedad de cualquier monto (sin mínimo)" }
                @else { "; garantía de seriedad mínima " (pesos(g.later_stages.minimum_guarantee)) }
            }
            dt { "Categorías" } dd { (categories_es(g)) }
            dt { "Huella SHA-256 del TOML" } dd { code { (p.sha256) } }
            dt { "Registrado" } dd { (momento(&p.created_at)) " por " (p.created_by) }
        }
        p {
            a href={"/programas/" (g.code) "/oferta"} { "Oferta de primera etapa" }
            @for n in (2..=g.later_stages.last.number()) {
                " · " a href={"/programas/" (g.code) "/etapas/" (n)} { @if n == 2 { "Segunda" } @else { "Tercera" } " Etapa" }
            }
        }
        p { a href={"/programas/" (g.code) "/cartas"} { "Membrete, firma y cuenta de pago de las cartas" } }
        h2 { "Vendedores" }
        // the NIT column only when the program names one; a seller without it, «—»
        @let nits = g.sellers.iter().any(|s| s.nit.is_some());
        table.vendedores {
            thead { tr { th { "vendedor" } @if nits { th { "NIT" } } th.num { "acciones" } } }
            tbody {
                @for s in &g.sellers {
                    tr {
                        td { (s.name) }
                        @if nits { td { @match &s.nit { Some(n) => (views::ident(n)), None => "—" } } }
                        td.num { (numero(s.shares)) }
                    }
                }
            }
        }
        h2 { "Tramos de la multa" }
        @let es = crate::catalogue::of(crate::lang::Lang::Es);
        table.tramos {
            thead { tr { th { "tiempo de la adjudicación al incumplimiento" } th.num { "porcentaje" } } }
            tbody {
                @for (i, b) in g.brackets.iter().enumerate() {
                    tr {
                        td { (es.bracket_span(i.checked_sub(1).map(|j| g.brackets[j].upto_months), b.upto_months)) }
                        td.num { (crate::money::format_percent(b.percent)) }
                    }
                }
            }
        }
        h2 { "Topes de la primera etapa" }
        @if g.caps.is_empty() {
            p { "El programa no fija topes." }
        } @else {
            table.topes {
                caption { "Cada tope que aplica al aceptante lo limita; cuenta el menor" }
                thead { tr { th { "norma" } th { "aplica a" } th { "hasta" } } }
                tbody {
                    @for c in &g.caps {
                        @let (who, limit) = cap_es(c);
                        tr { td { (c.rule) } td { (who) } td { (limit) } }
                    }
                }
            }
        }
        p { a href="/programas" { "Volver a los programas" } }
    };
    let title = views::Title::naming(format!("Programa {}", g.code), &[&g.code]);
    ok(page(Some(&user), title, body))
}
