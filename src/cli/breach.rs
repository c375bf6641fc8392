//! `vigia breach ...`: record, list, show and void breaches of the lock-up.

use super::{CliError, Ctx, Status, args};
use crate::catalogue::msg::Msg;
use crate::program::BreachKind;
use crate::report::records::{self, Format};
use crate::store::breaches::{self, NewBreach};
use crate::store::programs;
use chrono::NaiveDate;
use clap::Subcommand;
use rust_decimal::Decimal;
use serde_json::{Value, json};

#[derive(Debug, Subcommand)]
pub enum BreachCommand {
    /// Record a breach. Refused outside the lock-up, before the adjudication, after today, for
    /// more shares than remain unbreached, or for a kind the program does not list.
    Record {
        #[arg(long, value_name = "ID", value_parser = super::args::id)]
        adjudication: i64,
        /// sale (venta), beneficial-owner (beneficiario-real), dacion-en-pago or credit-subrogation (subrogacion-credito).
        #[arg(long, value_parser = parse_kind)]
        kind: BreachKind,
        /// Date the breach took place.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        date: NaiveDate,
        #[arg(long, value_name = "N", value_parser = args::shares, allow_negative_numbers = true)]
        shares: u64,
        /// Price or consideration obtained per share (Art. 9 (ii)).
        #[arg(long, value_name = "P", value_parser = args::amount, allow_negative_numbers = true, conflicts_with = "consideration_total")]
        consideration_per_share: Option<Decimal>,
        /// Total price or consideration obtained for the shares (divided by --shares).
        #[arg(long, value_name = "P", value_parser = args::amount, allow_negative_numbers = true)]
        consideration_total: Option<Decimal>,
        /// Date the transfer was registered in the share ledger (on or after --date, not after
        /// today).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        registered_on: Option<NaiveDate>,
        /// Where the breach is documented (document, letter, ledger entry).
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        evidence: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// List breaches.
    List {
        #[arg(long, value_name = "ID", value_parser = super::args::id)]
        adjudication: Option<i64>,
        #[arg(value_parser = super::args::text, long)]
        program: Option<String>,
        #[arg(long, value_enum, default_value_t = super::out::OutFormat::Table)]
        format: super::out::OutFormat,
        /// Where --format xlsx or csv-excel is written (0600).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Show one breach.
    Show {
        #[arg(value_parser = super::args::id)]
        id: i64,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Void a breach recorded in error: it stays on record, marked void, with who and why.
    /// Refused while payments against its fine are in force (void them first), and once a
    /// notice or a paz y salvo was issued for it (a notified breach stays on record).
    Void {
        #[arg(value_parser = super::args::id)]
        id: i64,
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: String,
    },
}

fn parse_kind(s: &str) -> Result<BreachKind, super::args::Unread> {
    s.parse().map_err(|en: String| {
        super::args::Unread(crate::lang::Said::new(
            en,
            format!(
                "clase de incumplimiento desconocida «{s}»; use sale (venta), beneficial-owner \
                 (beneficiario-real), dacion-en-pago o credit-subrogation (subrogacion-credito)"
            ),
        ))
    })
}

/// A breach as a record.
pub use crate::report::listing::breach as record;

impl BreachCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            BreachCommand::Record {
                adjudication,
                kind,
                date,
                shares,
                consideration_per_share,
                consideration_total,
                registered_on,
                evidence,
                format,
            } => {
                let mut store = ctx.store()?;
                let new = NewBreach {
                    adjudication_id: adjudication,
                    kind,
                    breach_date: date,
                    shares,
                    consideration_per_share,
                    consideration_total,
                    registered_on,
                    evidence: evidence.as_deref(),
                };
                let id = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
                    crate::register::breach::record(tx, &new, ctx.today())
                })?;
                if format == Format::Table {
                    ctx.say(Msg::BreachRecorded {
                        id,
                        kind,
                        shares,
                        date,
                        adjudication,
                    })?;
                } else {
                    write!(
                        ctx.out,
                        "{}",
                        records::one_in(
                            &record(&breaches::get(store.conn(), id)?),
                            format,
                            ctx.lang
                        )
                    )?;
                }
            }
            BreachCommand::List {
                adjudication,
                program,
                format,
                out,
            } => {
                // refused before the register is read (a national one holds tens of thousands)
                let to = super::out::usable(format, out.as_deref(), ctx.lang)?;
                let filters = [
                    super::out::filter("Adjudicación", adjudication),
                    super::out::filter("Programa", program.as_ref()),
                ]
                .into_iter()
                .flatten()
                .collect();
                let store = ctx.store()?;
                let program_id = program
                    .map(|c| programs::by_code(store.conn(), &c).map(|p| p.id))
                    .transpose()?;
                let found = breaches::list(store.conn(), adjudication, program_id)?;
                super::out::records(ctx, to, "Incumplimientos", &found, record, filters)?;
            }
            BreachCommand::Show { id, format } => {
                let store = ctx.store()?;
                let b = breaches::get(store.conn(), id)?;
                let mut rec = record(&b);
                if let Value::Object(m) = &mut rec {
                    let adjudication =
                        crate::store::adjudications::get(store.conn(), b.adjudication_id)?;
                    let stage =
                        crate::store::programs::stage_price(store.conn(), adjudication.program_id)?;
                    let mut liqs: Vec<Value> = Vec::new();
                    for l in breaches::liquidations(store.conn(), Some(id))? {
                        // PROVISIONAL_STALE's rule, as the check asks it
                        let stale = crate::register::liquidation::stale(
                            store.conn(),
                            l.id,
                            l.provisional,
                            stage,
                        )?;
                        liqs.push(json!({"id": l.id, "until": l.until.to_string(), "convention": l.convention, "total_due": l.total_due.to_string(), "provisional": l.provisional, "stale": stale, "sha256": l.sha256}));
                    }
                    let pays: Vec<Value> = breaches::payments(store.conn(), id)?
                        .iter()
                        .map(|p| json!({"id": p.id, "date": p.paid_on.to_string(), "amount": p.amount.to_string(), "reference": p.reference}))
                        .collect();
                    m.insert("liquidations".into(), Value::Array(liqs));
                    m.insert("payments".into(), Value::Array(pays));
                }
                write!(ctx.out, "{}", records::one_in(&rec, format, ctx.lang))?;
            }
            BreachCommand::Void { id, reason } => {
                let mut store = ctx.store()?;
                let vid = store
                    .write(&ctx.officer(), |tx| {
                        crate::register::breach::void(tx, id, &reason)
                    })
                    .map_err(|e| match e {
                        // the breach is the command's positional argument
                        crate::register::Error::Refused(r) => CliError::Refusal {
                            refusal: Box::new(r),
                            flag: |f| match f {
                                crate::register::Field::Breach => "breach void",
                                other => super::flag_of(other),
                            },
                        },
                        other => other.into(),
                    })?;
                ctx.say(Msg::BreachVoided { id, void: vid })?;
            }
        }
        Ok(Status::Ok)
    }
}
