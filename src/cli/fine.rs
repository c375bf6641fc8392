//! `vigia fine ...`: the stateless calculator (`fine quote`).

use super::out::OutFormat;
use super::{CliError, Ctx, Status, args};
use crate::calendar::{FineScale, ScaleError};
use crate::fine::{self, Convention, Field, FineCase, Payment, ReferencePrices, StagePrice};
use crate::register::{self, liquidation::Facts};
use crate::report::excel::Cell;
use crate::report::liquidation;
use crate::store::{StoreError, breaches};
use chrono::NaiveDate;
use clap::{Args, Subcommand, ValueEnum};
use rust_decimal::Decimal;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum FineCommand {
    /// Compute a fine from facts typed on the command line (nothing is stored).
    ///
    /// Example (SPEC §5): vigia fine quote --adjudicated 2024-03-15 --breach-date 2024-11-20
    /// --shares 1000 --acquisition-price 963 --transfer-price 1450 --stage-price 1100
    /// --until 2025-02-10
    Quote(QuoteArgs),
    /// Liquidate a recorded breach as of a date and keep the result: an immutable, numbered
    /// liquidation holding every input (program terms, prices, payments, the rate rows used).
    Liquidate(BreachAsOf),
    /// The live position of a breach's fine as of a date, with the payments recorded up to then
    /// (nothing is stored). Same JSON as `fine quote`.
    Show(BreachAsOf),
    /// Recompute a stored liquidation from its own stored inputs and say whether it still gives
    /// the same figures and fingerprint (exit 1 if not).
    Reproduce {
        /// Liquidation id.
        #[arg(value_parser = super::args::id)]
        liquidation: i64,
    },
}

/// A recorded breach priced as of a date.
#[derive(Debug, Args)]
pub struct BreachAsOf {
    /// Breach id.
    #[arg(value_parser = super::args::id)]
    pub breach: i64,
    /// Payment or as-of date the adjustment runs to, inclusive.
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub until: NaiveDate,
    /// Convention (default: the program's).
    #[arg(long, value_name = "C", value_parser = parse_convention)]
    pub convention: Option<Convention>,
    #[arg(long, value_enum, default_value_t = LiquidationFormat::Table)]
    pub format: LiquidationFormat,
    /// Where --format xlsx or csv-excel is written (0600).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Output format of a liquidation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LiquidationFormat {
    /// Spanish, for people.
    Table,
    /// One JSON object, amounts and rates as decimal strings.
    Json,
    /// For a Spanish-locale Excel: the summary, the periods and the payments one after
    /// another (`;`, UTF-8 with BOM, decimal comma, dd/mm/aaaa).
    CsvExcel,
    /// An Excel workbook (needs --out FILE): summary, periods, payments, and what was asked.
    Xlsx,
}

impl LiquidationFormat {
    fn excel(self) -> Option<OutFormat> {
        match self {
            LiquidationFormat::CsvExcel => Some(OutFormat::CsvExcel),
            LiquidationFormat::Xlsx => Some(OutFormat::Xlsx),
            LiquidationFormat::Table | LiquidationFormat::Json => None,
        }
    }
}

/// `--out` only with the Excel formats, a workbook only with `--out`, refused before any work:
/// where an Excel format is written.
fn check_out(
    format: LiquidationFormat,
    out: Option<&Path>,
    lang: crate::lang::Lang,
) -> Result<super::out::Output<'_>, CliError> {
    super::out::usable(format.excel().unwrap_or(OutFormat::Table), out, lang)
}

/// A liquidation (its JSON) written for Excel, with what was asked.
fn write_excel(
    ctx: &mut Ctx<'_>,
    to: super::out::Output<'_>,
    v: &serde_json::Value,
    mut asked: crate::report::excel::Asked,
    rates: &crate::rates::RateSeries,
) -> Result<(), CliError> {
    super::out::asked_rates(&mut asked, rates);
    let tables = crate::report::excel::liquidation_tables(v);
    super::out::write(ctx, to, &tables, &asked)
}

#[derive(Debug, Args)]
pub struct QuoteArgs {
    /// Adjudication date of the shares (start of the lock-up).
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub adjudicated: NaiveDate,
    /// Date the breach took place (sale, transfer of beneficial ownership, dación en pago,
    /// credit subrogation).
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub breach_date: NaiveDate,
    /// Shares involved in the breach.
    #[arg(long, value_name = "N", value_parser = args::shares, allow_negative_numbers = true)]
    pub shares: u64,
    /// Price per share paid at adjudication (reference price i).
    #[arg(long, value_name = "P", value_parser = args::price, allow_negative_numbers = true)]
    pub acquisition_price: Decimal,
    /// Price or other consideration per share the holder obtained (reference price ii); omit
    /// when there was none.
    #[arg(long, value_name = "P", value_parser = args::price, allow_negative_numbers = true)]
    pub transfer_price: Option<Decimal>,
    /// Per-share price the sellers obtained in the Second or Third Stage (reference price iii);
    /// omit when no later stage happened.
    #[arg(long, value_name = "P", value_parser = args::price, allow_negative_numbers = true, conflicts_with = "stage_pending")]
    pub stage_price: Option<Decimal>,
    /// A later stage is still pending: the liquidation is marked provisional.
    #[arg(long)]
    pub stage_pending: bool,
    /// Payment (or as-of) date the adjustment runs to, inclusive.
    #[arg(long, value_name = "DATE", value_parser = args::date)]
    pub until: NaiveDate,
    /// A payment made, DATE=AMOUNT (repeatable; same-day payments apply in the order given).
    #[arg(long = "payment", value_name = "DATE=AMOUNT", value_parser = args::payment)]
    pub payments: Vec<Payment>,
    /// How interest accrues: daily-simple (default), period-effective or compound.
    #[arg(long, value_name = "C", default_value = "daily-simple", value_parser = parse_convention)]
    pub convention: Convention,
    /// Lock-up length in months from the adjudication (at most 24, Ley 226 art. 14).
    #[arg(long, value_name = "MONTHS", default_value_t = 24, value_parser = args::small_count)]
    pub lockup_months: u32,
    /// Fine brackets, MONTHS:PERCENT in increasing months, ending at the lock-up length; pairs
    /// separated by commas, or by semicolons for a decimal comma (6:100;24:37,5).
    #[arg(value_parser = super::args::text, long, value_name = "LIST", default_value = "6:100,12:75,18:50,24:25")]
    pub brackets: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LiquidationFormat::Table)]
    pub format: LiquidationFormat,
    /// Where --format xlsx or csv-excel is written (0600).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

fn parse_convention(s: &str) -> Result<Convention, args::Unread> {
    s.parse().map_err(|en: String| {
        args::Unread(crate::lang::Said::new(
            en,
            format!("«{s}» no es una convención; use daily-simple, period-effective o compound"),
        ))
    })
}

/// The command-line flag that carries an engine field.
pub fn flag_of(field: Field) -> &'static str {
    match field {
        Field::Adjudicated => "--adjudicated",
        Field::BreachDate => "--breach-date",
        Field::Until => "--until",
        Field::Shares => "--shares",
        Field::AcquisitionPrice => "--acquisition-price",
        Field::TransferPrice => "--transfer-price",
        Field::StagePrice => "--stage-price",
        Field::Payment(_) => "--payment",
    }
}

impl FineCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            FineCommand::Quote(a) => quote(a, ctx),
            FineCommand::Liquidate(BreachAsOf {
                breach,
                until,
                convention,
                format,
                out,
            }) => {
                let to = check_out(format, out.as_deref(), ctx.lang)?;
                let rates = ctx.rates()?;
                let mut store = ctx.store()?;
                let (id, outcome) = store.write::<_, register::Error>(&ctx.officer(), |tx| {
                    register::liquidation::liquidate(tx, breach, until, convention, &rates)
                })?;
                let facts = register::liquidation::facts(store.conn(), breach, until)?;
                match format {
                    LiquidationFormat::Table => {
                        let l = breaches::liquidations(store.conn(), Some(breach))?
                            .into_iter()
                            .find(|l| l.id == id);
                        writeln!(
                            ctx.out,
                            "Liquidación N.º {id} — huella SHA-256 {}",
                            l.map(|l| l.sha256).unwrap_or_default()
                        )?;
                        write!(ctx.out, "{}", holder_header(&facts))?;
                        if let fine::Outcome::Liquidated(l) = &outcome {
                            paid_off_note(ctx, until, l.until)?;
                        }
                        write!(
                            ctx.out,
                            "{}",
                            liquidation::to_table(&outcome, &facts.stage_prices)
                        )?;
                    }
                    LiquidationFormat::Json => {
                        let mut v = liquidation::to_json(&outcome);
                        v["liquidation_id"] = serde_json::json!(id);
                        add_stage_prices(&mut v, &facts);
                        writeln!(
                            ctx.out,
                            "{}",
                            serde_json::to_string_pretty(&v).expect("json")
                        )?;
                    }
                    LiquidationFormat::CsvExcel | LiquidationFormat::Xlsx => {
                        let mut v = liquidation::to_json(&outcome);
                        v["liquidation_id"] = serde_json::json!(id);
                        let asked = breach_asked(ctx, breach, until, &facts);
                        write_excel(ctx, to, &v, asked, &rates)?;
                    }
                }
                Ok(Status::Ok)
            }
            FineCommand::Show(BreachAsOf {
                breach,
                until,
                convention,
                format,
                out,
            }) => {
                let to = check_out(format, out.as_deref(), ctx.lang)?;
                let rates = ctx.rates()?;
                let store = ctx.store()?;
                let facts = register::liquidation::facts(store.conn(), breach, until)?;
                let convention = match convention {
                    Some(c) => c,
                    None => register::liquidation::default_convention(&facts)?,
                };
                let (outcome, ran_to) =
                    register::liquidation::settle(&facts, until, convention, &rates)?;
                match format {
                    LiquidationFormat::Table => {
                        write!(ctx.out, "{}", holder_header(&facts))?;
                        paid_off_note(ctx, until, ran_to)?;
                        write!(
                            ctx.out,
                            "{}",
                            liquidation::to_table(&outcome, &facts.stage_prices)
                        )?;
                    }
                    LiquidationFormat::Json => {
                        let mut v = liquidation::to_json(&outcome);
                        add_stage_prices(&mut v, &facts);
                        writeln!(
                            ctx.out,
                            "{}",
                            serde_json::to_string_pretty(&v).expect("json")
                        )?
                    }
                    LiquidationFormat::CsvExcel | LiquidationFormat::Xlsx => {
                        let v = liquidation::to_json(&outcome);
                        let asked = breach_asked(ctx, breach, until, &facts);
                        write_excel(ctx, to, &v, asked, &rates)?;
                    }
                }
                Ok(Status::Ok)
            }
            FineCommand::Reproduce { liquidation: id } => {
                let store = ctx.store()?;
                let stored = breaches::liquidations(store.conn(), None)?
                    .into_iter()
                    .find(|l| l.id == id)
                    .ok_or_else(|| StoreError::NotFound {
                        what: "liquidation",
                        id: id.to_string(),
                    })?;
                let again = register::liquidation::reproduce(&stored.inputs_json)?;
                let same_result = again == stored.result_json;
                let same_print =
                    register::liquidation::fingerprint(&stored.inputs_json, &stored.result_json)
                        == stored.sha256;
                if same_result && same_print {
                    ctx.say(crate::catalogue::msg::Msg::LiquidationReproduces {
                        id,
                        total: stored.total_due,
                        until: stored.until,
                        fingerprint: &stored.sha256,
                    })?;
                    Ok(Status::Ok)
                } else {
                    ctx.say(crate::catalogue::msg::Msg::LiquidationDiffers { id, same_print })?;
                    Ok(Status::Findings)
                }
            }
        }
    }
}

fn quote(a: QuoteArgs, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let to = check_out(a.format, a.out.as_deref(), ctx.lang)?;
    let said = |e: &ScaleError| crate::catalogue::of(ctx.lang).scale_error(e);
    let brackets = args::brackets(&a.brackets).map_err(|u| CliError::Flag {
        flag: "--brackets".into(),
        value: a.brackets.clone(),
        reason: u.0.in_lang(ctx.lang).to_string(),
    })?;
    let scale = FineScale::new(a.lockup_months, brackets).map_err(|e| match e {
        ScaleError::LockupTooLong { .. } | ScaleError::LockupZero => CliError::Flag {
            flag: "--lockup-months".into(),
            value: a.lockup_months.to_string(),
            reason: said(&e),
        },
        _ => CliError::Flag {
            flag: "--brackets".into(),
            value: a.brackets.clone(),
            reason: said(&e),
        },
    })?;
    let stage = match (a.stage_price, a.stage_pending) {
        (Some(p), _) => StagePrice::Known(p),
        (None, true) => StagePrice::Pending,
        (None, false) => StagePrice::Absent,
    };
    let case = FineCase {
        adjudicated: a.adjudicated,
        breach_date: a.breach_date,
        shares: a.shares,
        prices: ReferencePrices {
            acquisition: a.acquisition_price,
            transfer: a.transfer_price,
            stage,
        },
        scale,
    };
    let rates = ctx.rates()?;
    let (outcome, ran_to) = fine::settled(&case, a.until, &a.payments, a.convention, &rates)?;
    match a.format {
        LiquidationFormat::Table => {
            paid_off_note(ctx, a.until, ran_to)?;
            write!(ctx.out, "{}", liquidation::to_table(&outcome, &[]))?
        }
        LiquidationFormat::Json => writeln!(
            ctx.out,
            "{}",
            serde_json::to_string_pretty(&liquidation::to_json(&outcome)).expect("json")
        )?,
        LiquidationFormat::CsvExcel | LiquidationFormat::Xlsx => {
            let mut asked = super::out::asked(ctx);
            let date = |d: NaiveDate| Cell::Date(d);
            let pesos = |p: Option<Decimal>| p.map_or(Cell::Text("no hubo".into()), Cell::Pesos);
            asked.extend([
                (
                    "Fecha adjudicación (--adjudicated)".into(),
                    date(a.adjudicated),
                ),
                (
                    "Fecha incumplimiento (--breach-date)".into(),
                    date(a.breach_date),
                ),
                (
                    "Acciones (--shares)".into(),
                    Cell::Count(i64::try_from(a.shares).unwrap_or(i64::MAX)),
                ),
                (
                    "Precio de adquisición (--acquisition-price)".into(),
                    Cell::Pesos(a.acquisition_price),
                ),
                (
                    "Precio de transferencia (--transfer-price)".into(),
                    pesos(a.transfer_price),
                ),
                (
                    "Precio de etapa posterior (--stage-price)".into(),
                    if a.stage_pending {
                        Cell::Text("pendiente".into())
                    } else {
                        pesos(a.stage_price)
                    },
                ),
                ("Fecha de corte (--until)".into(), date(a.until)),
                (
                    "Convención (--convention)".into(),
                    Cell::Text(a.convention.to_string()),
                ),
                (
                    "Meses del período de restricción (--lockup-months)".into(),
                    Cell::Count(i64::from(a.lockup_months)),
                ),
                ("Tramos (--brackets)".into(), Cell::Text(a.brackets.clone())),
            ]);
            for (i, p) in a.payments.iter().enumerate() {
                asked.push((format!("Pago {} (--payment)", i + 1), Cell::Date(p.date)));
                asked.push((format!("Valor del pago {}", i + 1), Cell::Pesos(p.amount)));
            }
            let v = liquidation::to_json(&outcome);
            write_excel(ctx, to, &v, asked, &rates)?;
        }
    }
    Ok(Status::Ok)
}

/// Says why a liquidation asked as of `asked` runs only to `ran_to`: the fine was paid off then,
/// and a rate after that day is missing (nothing accrues after it, so it decides nothing).
fn paid_off_note(ctx: &mut Ctx<'_>, asked: NaiveDate, ran_to: NaiveDate) -> std::io::Result<()> {
    if ran_to == asked {
        return Ok(());
    }
    writeln!(
        ctx.out,
        "La multa quedó pagada el {}: después no se causa nada, de modo que la liquidación llega \
         hasta ese día y no al {} (la tasa moratoria de los días siguientes no está certificada y \
         no cambiaría la cifra).\n",
        crate::lang::fecha(ran_to),
        crate::lang::fecha(asked)
    )
}

/// What was asked of `fine show` / `fine liquidate`, for the Consulta sheet.
fn breach_asked(
    ctx: &Ctx<'_>,
    breach: i64,
    until: NaiveDate,
    f: &Facts,
) -> crate::report::excel::Asked {
    let mut asked = super::out::asked(ctx);
    asked.extend([
        ("Incumplimiento N.º".into(), Cell::Count(breach)),
        ("Fecha de corte (--until)".into(), Cell::Date(until)),
        (
            "Programa".into(),
            Cell::Text(format!(
                "{} ({})",
                f.program.program.decree, f.program.program.code
            )),
        ),
        (
            "Adjudicatario".into(),
            Cell::Text(f.adjudication.holder.name.clone()),
        ),
        (
            "Documento".into(),
            Cell::Text(format!(
                "{} {}",
                f.adjudication.holder.doc_type, f.adjudication.holder.doc_number
            )),
        ),
        (
            "Pagos registrados hasta el corte".into(),
            Cell::Count(f.payments.len() as i64),
        ),
    ]);
    asked
}

/// The later stages' prices the stage price is the highest of, beside the result (when any).
fn add_stage_prices(v: &mut serde_json::Value, f: &Facts) {
    if !f.stage_prices.is_empty() {
        v["stage_prices"] = serde_json::to_value(&f.stage_prices).expect("json");
    }
}

/// Who and what a stored liquidation is about, in Spanish.
fn holder_header(f: &Facts) -> String {
    let a = &f.adjudication;
    let b = &f.breach;
    let mut s = format!(
        "Programa: {} ({})\nAdjudicatario: {} — {} {}\nAdjudicación N.º {}: {} acciones el {}\nIncumplimiento N.º {}: {} ({} acciones)\n",
        f.program.program.decree,
        f.program.program.code,
        a.holder.name,
        a.holder.doc_type,
        a.holder.doc_number,
        a.id,
        crate::money::format_number(Decimal::from(a.shares)),
        crate::lang::fecha(a.adjudicated_on),
        b.id,
        b.kind.label_es(),
        crate::money::format_number(Decimal::from(b.shares)),
    );
    if f.payments.is_empty() {
        s.push('\n');
    } else {
        s.push_str(&format!(
            "Pagos registrados hasta la fecha de corte: {}\n\n",
            f.payments.len()
        ));
    }
    s
}
