//! `/`, the dashboard: the batch check over the whole register as of a date (kept while the
//! register does not change, `cache`), findings counted by severity, code and program and the
//! first listed, and the rates the series lacks.

use super::auth::User;
use super::charts;
use super::extract::Query;
use super::form::{Page, Sent, download, ok};
use super::views::{self, PesosColumn, fecha, numero, page};
use super::{App, WebError, input as parse};
use crate::check;
use crate::report::excel::{Asked, Cell};
use crate::report::findings;
use crate::store::Store;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderValue;
use axum::routing::get;
use chrono::{Datelike, NaiveDate};
use maud::html;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(dashboard))
        .route("/chequeo/descargar", get(check_download))
}

/// The download's query: which Excel file ([`XLSX`] or [`CSV_EXCEL`]), besides [`AS_OF`].
const FORMAT: &str = "formato";
const XLSX: &str = "xlsx";
const CSV_EXCEL: &str = "csv-excel";

/// The dashboard's query: the check's date.
const AS_OF: &str = "fecha";

/// The batch check over the whole register as of a date, as the dashboard shows it.
pub(crate) struct CheckSummary {
    /// Findings by (severity rank, code, program).
    counts: BTreeMap<(u8, String, String), u64>,
    /// The first [`SHOWN_FINDINGS`] by severity, program and holder ([`FindingKey`]).
    shown: Vec<check::Finding>,
    total: u64,
    /// Why the check stopped, if it did.
    error: Option<String>,
    coverage: Option<(NaiveDate, NaiveDate)>,
    /// When it was computed (UTC, RFC 3339).
    computed_at: String,
    /// The lock-ups ending in each of the 24 months from the check's date's.
    lockups: Vec<crate::register::lockups::Month>,
}

/// Months of the lock-ups' calendar on the dashboard (Ley 226 art. 14's longest lock-up).
const LOCKUP_MONTHS: u32 = 24;

/// Registered breaches listed on the dashboard, the newest first (all are counted and
/// downloaded).
const SHOWN_BREACHES: usize = 20;

/// The breaches recorded, the newest first, each linked to its page and its holder's.
fn registered_breaches(
    total: u64,
    shown: &[(
        crate::store::breaches::Breach,
        crate::store::adjudications::Holder,
        Option<crate::register::settlement::Paid>,
    )],
) -> maud::Markup {
    html! {
        @if shown.is_empty() {
            p { "Ninguno todavía: se registran desde la página del titular («Registrar incumplimiento»)." }
        } @else {
            table.registrados {
                caption {
                    @if (shown.len() as u64) < total { "Los " (shown.len()) " más recientes de " (numero(total)) }
                    @else if total == 1 { "El único registrado" }
                    @else { "Los " (numero(total)) ", el más reciente primero" }
                }
                thead { tr { th { "N.º" } th { "fecha" } th { "clase" } th.num { "acciones" } th { "titular" } th { "estado" } } }
                tbody {
                    @for (b, h, paid) in shown {
                        tr class=[b.void.is_some().then_some("anulado")] {
                            td data-label="N.º" { a href={"/incumplimientos/" (b.id)} { "Incumplimiento " (b.id) } }
                            td data-label="Fecha" { (fecha(b.breach_date)) }
                            td data-label="Clase" { (b.kind.label_es()) }
                            td.num data-label="Acciones" { (numero(b.shares)) }
                            td data-label="Titular" { a href={"/titulares/" (h.id)} { (h.name) } " (" (views::documento(h.doc_type, &h.doc_number)) ")" }
                            td data-label="Estado" {
                                @if b.void.is_some() { "ANULADO" }
                                @else if let Some(p) = paid {
                                    "pagado el " (fecha(p.on))
                                    @if let Some(z) = &p.settlement { "; paz y salvo " a href={"/paz-y-salvo/" (z.id)} { (views::ident(&z.number)) } }
                                }
                                @else { "registrado" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Findings listed on the dashboard (all are counted).
const SHOWN_FINDINGS: usize = 200;

/// The dashboard's order of findings: severity (alta first), program, holder (by name, then
/// document number), adjudication, breach, then the order the check found them in.
type FindingKey = (u8, String, String, String, i64, i64, u64);

/// Keeps the first [`SHOWN_FINDINGS`] of `kept` in [`FindingKey`] order.
fn keep_first(kept: &mut Vec<(FindingKey, check::Finding)>) {
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    kept.truncate(SHOWN_FINDINGS);
}

/// Runs the batch check as of `as_of` (every program).
fn run_check(app: &App, s: &mut Store, as_of: NaiveDate) -> Result<CheckSummary, WebError> {
    let rates = app.rates(s)?;
    let coverage = rates.coverage();
    let mut counts: BTreeMap<(u8, String, String), u64> = BTreeMap::new();
    let mut kept: Vec<(FindingKey, check::Finding)> = Vec::new();
    let mut total = 0u64;
    let opts = check::Options {
        as_of,
        program_id: None,
        within_days: 30,
        min_severity: check::Severity::Low,
    };
    let run = check::run::<check::Error>(
        s.conn(),
        &opts,
        &rates,
        |f| {
            total += 1;
            let rank = match f.severity() {
                check::Severity::High => 0,
                check::Severity::Medium => 1,
                check::Severity::Low => 2,
            };
            *counts
                .entry((
                    rank,
                    f.code.as_str().to_string(),
                    // a finding about the register as a whole (RATE_DUE) has no program
                    f.holding
                        .as_ref()
                        .map(|h| h.program.clone())
                        .unwrap_or_default(),
                ))
                .or_default() += 1;
            let key = match &f.holding {
                Some(h) => (
                    rank,
                    h.program.clone(),
                    h.holder.clone(),
                    h.doc_number.clone(),
                    h.adjudication_id,
                    f.breach_id.unwrap_or(0),
                    total,
                ),
                None => (
                    rank,
                    String::new(),
                    String::new(),
                    String::new(),
                    0,
                    0,
                    total,
                ),
            };
            kept.push((key, f));
            // sorted and cut back now and then: never more than twice the list in memory
            if kept.len() == 2 * SHOWN_FINDINGS {
                keep_first(&mut kept);
            }
            Ok(())
        },
        |_| {},
    );
    let error = match run {
        Ok(()) => None,
        // the register's own answer, kept with the result until it changes
        Err(e @ check::Error::Fine { .. }) => Some(format!(
            "El chequeo no pudo terminar: {}",
            e.es(views::fine_error_text)
        )),
        // a failure to read is no result: not kept, the next visit tries again
        Err(check::Error::Store(e)) => return Err(e.into()),
    };
    keep_first(&mut kept);
    let lockups = crate::register::lockups::ending_by_month(s.conn(), as_of, LOCKUP_MONTHS)?;
    Ok(CheckSummary {
        counts,
        shown: kept.into_iter().map(|(_, f)| f).collect(),
        total,
        error,
        coverage,
        computed_at: app.now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        lockups,
    })
}

/// The check as of `as_of`: kept from an earlier visit while the register and the rates are
/// those it was computed from (`App::check_version`), else computed once for everyone asking.
async fn check_summary(app: &Arc<App>, as_of: NaiveDate) -> Result<Arc<CheckSummary>, WebError> {
    let compute = Arc::clone(app);
    app.checks
        .get(
            (as_of, None),
            || app.check_version(),
            move || async move {
                let a = Arc::clone(&compute);
                compute.db(move |s| run_check(&a, s, as_of)).await
            },
        )
        .await
}

/// The response header that says how many times this server has run the dashboard's check (a
/// test sees through it that a visit was served from the cache).
pub(crate) const CHECK_RUNS_HEADER: &str = "x-vigia-check-runs";

/// A finding code's Spanish name (the summary keeps the code as text).
fn code_es(code: &str) -> &'static str {
    check::Code::ALL
        .into_iter()
        .find(|c| c.as_str() == code)
        .map_or("", |c| {
            crate::catalogue::of(crate::lang::Lang::Es).code_name(c)
        })
}

async fn dashboard(State(app): State<Arc<App>>, user: User, q: Query<Sent>) -> Page {
    let today = app.today();
    let as_of = match q.0.opt(AS_OF) {
        Some(s) => parse::date(&s).map_err(WebError::bad_request)?,
        None => today,
    };
    let summary = check_summary(&app, as_of).await?;
    let priced = app.clone();
    let (breach_count, breaches) = app
        .db(move |s| {
            let (total, latest) = crate::store::breaches::latest(s.conn(), SHOWN_BREACHES)?;
            let rates = priced.rates(s)?;
            // each with its adjudication's holder and whether its fine is paid, by the rule the
            // paz y salvo applies (a fine the engine cannot price is taken as not paid, as the
            // breach page takes it)
            let mut shown = Vec::with_capacity(latest.len());
            for b in latest {
                let holder = crate::store::adjudications::get(s.conn(), b.adjudication_id)?.holder;
                let paid = match crate::register::settlement::paid(s.conn(), b.id, &rates) {
                    Ok(p) => p,
                    Err(crate::register::Error::Fine(_)) => None,
                    Err(e) => return Err(e.into()),
                };
                shown.push((b, holder, paid));
            }
            Ok((total, shown))
        })
        .await?;
    let breach_count = &breach_count;
    let CheckSummary {
        counts,
        shown,
        total,
        error,
        coverage,
        computed_at,
        lockups,
    } = &*summary;
    let mut by_severity = [0u64; 3];
    for ((rank, _, _), n) in counts {
        let slot = &mut by_severity[usize::from(*rank).min(2)];
        *slot = slot
            .checked_add(*n)
            .ok_or_else(|| WebError::bad_request("demasiados hallazgos para contarlos"))?;
    }
    let coverage = *coverage;
    let es = crate::catalogue::of(crate::lang::Lang::Es);
    let sev_es = ["high", "medium", "low"].map(|c| es.code("severity", c).unwrap_or(c));
    let rate_warning = coverage.and_then(|(_, last)| rates_due(last, today));
    let body = html! {
        form method="get" action="/" {
            div.campo { label for=(AS_OF) { "Chequeo al" } input id=(AS_OF) name=(AS_OF) type="text" value=(fecha(as_of)); }
            button type="submit" { "Actualizar" }
        }
        (views::holder_search("Buscar titular (documento, con o sin puntos, o nombre)", ""))
        h2 { "Incumplimientos registrados" }
        p.descargas {
            "Todos, con los anulados marcados: "
            a href="/incumplimientos/descargar?formato=xlsx" download { "Descargar Excel (.xlsx)" }
            " · "
            a href="/incumplimientos/descargar?formato=csv-excel" download { "Descargar CSV para Excel" }
        }
        (registered_breaches(*breach_count, &breaches))
        h2 { "Fin de los períodos de restricción" }
        (charts::lockups(lockups))
        h2 { "Tasas certificadas" }
        @match coverage {
            Some((_, last)) => {
                p { "Última tasa certificada hasta el " strong { (fecha(last)) } "." }
                @if let Some(w) = rate_warning {
                    p.aviso role="alert" { (w) }
                }
            }
            None => p.aviso { "No hay tasas certificadas." }
        }
        h2 { "Hallazgos al " (fecha(as_of)) ": " (numero(*total)) }
        p.nota { "Chequeo calculado el " (views::momento(computed_at)) "; se calcula de nuevo en cuanto cambia el registro." }
        @if let Some(e) = error { p.error role="alert" { (e) } }
        @let day = as_of.to_string();
        p.descargas {
            a href={"/chequeo/descargar?" (AS_OF) "=" (day) "&" (FORMAT) "=" (XLSX)} download { "Descargar Excel (.xlsx)" }
            " · "
            a href={"/chequeo/descargar?" (AS_OF) "=" (day) "&" (FORMAT) "=" (CSV_EXCEL)} download { "Descargar CSV para Excel" }
        }
        @if *total > 0 { (charts::severities(by_severity, as_of)) }
        table.resumen {
            thead { tr { th { "severidad" } th { "código" } th { "programa" } th.num { "hallazgos" } } }
            tbody {
                @for ((rank, code, program), n) in counts {
                    tr { td class={"sev-" (["high","medium","low"][*rank as usize])} data-label="Severidad" { (sev_es[*rank as usize]) } td data-label="Código" { (code_es(code)) br; small { (views::codigo(code)) } } td data-label="Programa" { @if !program.is_empty() { (views::ident(program)) } } td.num data-label="Hallazgos" { (n) } }
                }
            }
        }
        @if !shown.is_empty() {
            table.hallazgos {
                caption {
                    @if shown.len() == 1 { "Primer hallazgo" }
                    @else { "Primeros " (numero(shown.len() as u64)) " hallazgos" }
                    ", por severidad, programa y titular"
                }
                thead { tr { th { "código" } th { "titular" } th { "adjudicación" } th { "incumplimiento" } th.num { "saldo" } th { "motivo" } } }
                @let balances = PesosColumn::of(shown.iter().filter_map(|f| f.outstanding));
                tbody {
                    @for f in shown {
                        tr {
                            td class={"sev-" (f.severity().as_str())} data-label="Código" { (crate::catalogue::of(crate::lang::Lang::Es).code_name(f.code)) br; small { (views::codigo(f.code.as_str())) } }
                            @if let Some(h) = &f.holding {
                                td data-label="Titular" { a href={"/titulares?q=" (h.doc_number)} { (h.holder) } " (" (views::documento(&h.doc_type, &h.doc_number)) ")" }
                                td data-label="Adjudicación" { (h.adjudication_id) }
                            } @else {
                                // a finding about the register (RATE_MISSING): labelled on a
                                // phone's card like the others, its empty cell left out there
                                td data-label="Titular" { "ninguno: el hallazgo es de todo el registro" }
                                td data-label="Adjudicación" {}
                            }
                            td data-label="Incumplimiento" { @if let Some(b) = f.breach_id { a href={"/incumplimientos/" (b)} { (b) } } }
                            td.num data-label="Saldo" { @if let Some(o) = f.outstanding { (balances.show(o)) } }
                            td data-label="Motivo" { (crate::catalogue::of(crate::lang::Lang::Es).finding(f, &crate::catalogue::InWords)) }
                        }
                    }
                }
            }
        }
    };
    let mut r = ok(page(Some(&user), "Tablero", body))?;
    r.headers_mut()
        .insert(CHECK_RUNS_HEADER, HeaderValue::from(app.checks.computed()));
    Ok(r)
}

/// The whole check as of a date (every program, every finding) as `vigia check --format
/// xlsx|csv-excel` writes it (`report::findings`), the reasons in the pages' words; consulta and
/// above (every account).
async fn check_download(State(app): State<Arc<App>>, user: User, q: Query<Sent>) -> Page {
    let as_of = match q.0.opt(AS_OF) {
        Some(s) => parse::date(&s).map_err(WebError::bad_request)?,
        None => app.today(),
    };
    let kind = match q.0.opt(FORMAT).as_deref() {
        Some(XLSX) => findings::Kind::Xlsx,
        Some(CSV_EXCEL) => findings::Kind::CsvExcel,
        other => {
            return Err(WebError::invalid(format!(
                "El formato «{}» no existe: pida «{XLSX}» o «{CSV_EXCEL}».",
                crate::input::escaped(other.unwrap_or(""))
            )));
        }
    };
    let asked: Asked = vec![
        (
            "Origen".into(),
            Cell::Text("chequeo del tablero de vigia serve".into()),
        ),
        ("Descargado por".into(), Cell::Text(user.name.clone())),
        (
            "Generado (hora de Colombia)".into(),
            Cell::DateTime(
                app.now()
                    .with_timezone(&crate::calendar::colombia())
                    .naive_local(),
            ),
        ),
    ];
    let a = Arc::clone(&app);
    let bytes = app
        .db(move |s| check_file(&a, s, as_of, kind, asked))
        .await?;
    let day = as_of.to_string();
    match kind {
        findings::Kind::Xlsx => download(
            &format!("vigia-chequeo-{day}.xlsx"),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            bytes,
        ),
        findings::Kind::CsvExcel => download(
            &format!("vigia-chequeo-{day}.csv"),
            "text/csv; charset=utf-8",
            bytes,
        ),
    }
}

/// Runs the check as of `as_of` into the file `kind` names.
fn check_file(
    app: &App,
    s: &mut Store,
    as_of: NaiveDate,
    kind: findings::Kind,
    asked: Asked,
) -> Result<Vec<u8>, WebError> {
    let rates = app.rates(s)?;
    let opts = check::Options {
        as_of,
        program_id: None,
        within_days: 30,
        min_severity: check::Severity::Low,
    };
    let asked = findings::asked_of(asked, &opts, None, &rates);
    let failed = |e: rust_xlsxwriter::XlsxError| WebError::internal(format!("check file: {e}"));
    let mut bytes = Vec::new();
    let mut writer = findings::Writer::new(kind, &mut bytes, asked).map_err(failed)?;
    let mut total = 0usize;
    let mut broken = None;
    let words = crate::catalogue::of(crate::lang::Lang::Es);
    let run = check::run::<check::Error>(
        s.conn(),
        &opts,
        &rates,
        |f| {
            total += 1;
            if broken.is_none()
                && let Err(e) = writer.push(&f, &words.finding(&f, &crate::catalogue::InWords))
            {
                broken = Some(e);
            }
            Ok(())
        },
        |_| {},
    );
    match run {
        Ok(()) => {}
        Err(e @ check::Error::Fine { .. }) => {
            return Err(WebError::invalid(format!(
                "El chequeo no pudo terminar: {}",
                e.es(views::fine_error_text)
            )));
        }
        Err(check::Error::Store(e)) => return Err(e.into()),
    }
    if let Some(e) = broken {
        return Err(failed(e));
    }
    writer.finish(total).map_err(failed)?;
    Ok(bytes)
}

/// What the dashboard says about the rates the series lacks on `today`, the series ending on
/// `last`: the months from the one after its end through today's, which the register needs now
/// ("Faltan las tasas de noviembre y diciembre de 2026"), or, when those are there, next month's
/// (certified near the end of this one); `None` when next month's is there too.
fn rates_due(last: NaiveDate, today: NaiveDate) -> Option<String> {
    let month_of = |d: NaiveDate| d.with_day(1);
    let this_month = month_of(today)?;
    let next_month = crate::calendar::add_months(this_month, 1)?;
    let first_missing = month_of(last.succ_opt()?)?;
    let ends = fecha(last);
    if first_missing <= this_month {
        let months = views::meses(first_missing, this_month);
        Some(if first_missing == this_month {
            format!(
                "Falta la tasa {months} (la serie termina el {ends}): agréguela en «Tasas»; sin ella \
                 no se liquidan los días que cubre."
            )
        } else {
            format!(
                "Faltan las tasas {months} (la serie termina el {ends}): agréguelas en «Tasas»; sin \
                 ellas no se liquidan los días que cubren."
            )
        })
    } else if first_missing == next_month {
        Some(format!(
            "Falta la tasa del mes siguiente, {} (la serie termina el {ends}): agréguela en «Tasas» \
             cuando la Superintendencia Financiera la certifique.",
            views::meses(next_month, next_month).trim_start_matches("de ")
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        crate::calendar::parse_iso(s).unwrap()
    }

    #[test]
    fn the_dashboard_names_the_missing_rate_months() {
        // issue 13's review: on 01/12/2026 a series ending on 31/10/2026 lacks November and December
        assert_eq!(
            rates_due(day("2026-10-31"), day("2026-12-01")).as_deref(),
            Some(
                "Faltan las tasas de noviembre y diciembre de 2026 (la serie termina el 31/10/2026): \
                 agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
        // one month of this year, one of the last
        assert_eq!(
            rates_due(day("2026-11-30"), day("2027-01-15")).as_deref(),
            Some(
                "Faltan las tasas de diciembre de 2026 y enero de 2027 (la serie termina el \
                 30/11/2026): agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
        // today's month only (a series ending in the middle of it lacks it too)
        assert_eq!(
            rates_due(day("2026-12-15"), day("2026-12-20")).as_deref(),
            Some(
                "Falta la tasa de diciembre de 2026 (la serie termina el 15/12/2026): agréguela en \
                 «Tasas»; sin ella no se liquidan los días que cubre."
            )
        );
        // this month's is there, next month's not yet
        assert_eq!(
            rates_due(day("2026-12-31"), day("2026-12-01")).as_deref(),
            Some(
                "Falta la tasa del mes siguiente, enero de 2027 (la serie termina el 31/12/2026): \
                 agréguela en «Tasas» cuando la Superintendencia Financiera la certifique."
            )
        );
        // next month's is there too
        assert_eq!(rates_due(day("2027-01-31"), day("2026-12-01")), None);
        // a long gap is said as a span
        assert_eq!(
            rates_due(day("2025-10-31"), day("2026-12-01")).as_deref(),
            Some(
                "Faltan las tasas de noviembre de 2025 a diciembre de 2026 (la serie termina el \
                 31/10/2025): agréguelas en «Tasas»; sin ellas no se liquidan los días que cubren."
            )
        );
    }
}
