//! `vigia stage ...`: the Second and Third Stages (Decreto 3939 Arts. 3, 13–19, 22; seed 002):
//! open a tranche, evaluate the proposals, record a tied bidder's improvement, decide a
//! persisting tie by a verifiable draw (and re-check it), adjudicate or declare the stage void
//! with its acta. Translates flags into the rules' inputs and renders; decides nothing.

use super::offer::acta_format;
use super::places::out_error;
use super::stage_words;
use super::{CliError, Ctx, Status, args};
use crate::catalogue::msg::{Criterion, TrancheOutcome, Worth};
use crate::files;
use crate::later_stages::{Stage, Valuation};
use crate::register::stage::{self as rules, Concluded, Open, Standing, TrancheEvaluation};
use crate::report::records::{Format, ListWriter};
use crate::report::stage_acta::{self, StageActaData};
use crate::store::Snapshot;
use crate::store::acta_files::Acta;
use crate::store::programs::{self, StoredProgram};
use crate::store::stage::Kind;
use chrono::NaiveDate;
use clap::Subcommand;
use rust_decimal::Decimal;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `--stage`: 2 or 3, read as a [`Stage`], refused with clap's own sentence for a number out of
/// the range (`4 is not in 2..=3`) or not a number, exit status 2.
pub(super) fn stage_arg() -> impl clap::builder::TypedValueParser<Value = Stage> {
    use clap::builder::TypedValueParser;
    clap::value_parser!(u8)
        .range(2..=3)
        .try_map(|n| Stage::try_from(n).map_err(|n| format!("{n} is not in 2..=3")))
}

#[derive(Debug, Subcommand)]
pub enum StageCommand {
    /// Open a tranche of the Second or Third Stage: its shares come from what the previous stage
    /// left; the minimum price is the first stage's fixed price (Art. 14 a, Art. 17 a).
    Open {
        /// Program code.
        #[arg(value_parser = super::args::text)]
        code: String,
        /// 2 or 3.
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        /// The tranche's shares (Todo o Nada: a proposal is for exactly these).
        #[arg(long, value_parser = args::shares)]
        shares: u64,
        /// The first day proposals are received.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        opens: NaiveDate,
        /// The last day proposals are received.
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        closes: NaiveDate,
        /// The tranche's number (tranches open in order).
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = args::small_count)]
        tranche: u32,
        /// Why it opens outside the program's validity (Decreto 3939 art. 28), when it does: an
        /// extension, a later decree. Recorded with it.
        #[arg(value_parser = super::args::text, long, value_name = "TEXT")]
        reason: Option<String>,
    },
    /// Every proposal with its status and cause, its value under the program's criterion and
    /// the ranking, tranche by tranche (improvements and a recorded draw taken into account).
    /// Read in one snapshot of the register; a failure while the rows are written exits
    /// non-zero and says on standard error that the output is incomplete.
    Evaluate {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Record a tied bidder's answer to the invitation to improve: only a proposal tied
    /// at the best value, once, until the tie is drawn; a price not above the original is
    /// recorded and ignored (the original stands).
    Improve {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        /// The proposal's reference.
        #[arg(value_parser = super::args::text, long, value_name = "REF")]
        proposal: String,
        /// The new price per share.
        #[arg(long, value_name = "P", value_parser = args::price)]
        price: Decimal,
    },
    /// Decide a persisting tie by lot, in a way anyone can re-check with any SHA-256 tool: sort
    /// the tied references by their UTF-8 bytes, hash `SEED|PROGRAM|STAGE|TRANCHE|REF1,REF2,…`,
    /// read the first 8 bytes as a big-endian unsigned integer, modulo the number tied: that
    /// place (from 0) wins. `--verify` recomputes the recorded draws instead (exit 1 on a
    /// difference).
    Draw {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        /// Public entropy named by the officer (e.g. a public lottery's result).
        #[arg(
            long,
            value_name = "TEXT",
            value_parser = super::args::text,
            required_unless_present = "verify",
            conflicts_with = "verify"
        )]
        seed: Option<String>,
        #[arg(long, value_name = "K", default_value_t = 1, value_parser = args::small_count)]
        tranche: u32,
        /// Recompute the recorded draws from the register and compare.
        #[arg(long)]
        verify: bool,
    },
    /// Adjudicate the stage, once: each tranche to its winner (all its bidders jointly liable),
    /// payment due the next banking business day (Art. 14 c); the price per share (several
    /// tranches: share-weighted) becomes the program's Art. 9 (iii) price from that day.
    Adjudicate {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        /// The day of the adjudication (after the proposals closed).
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
        /// Also write the acta (.pdf, .html or .md), never over a file without --force.
        #[arg(long, value_name = "FILE")]
        acta: Option<PathBuf>,
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Declare the stage void (desierta) when no proposal is valid: its shares pass to the next
    /// stage; a void last stage records that there is no Art. 9 (iii) price.
    Desert {
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        #[arg(long, value_name = "DATE", value_parser = args::date)]
        on: NaiveDate,
        #[arg(long, value_name = "FILE")]
        acta: Option<PathBuf>,
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Write the acta of a concluded stage (adjudicated or void) again (its file's SHA-256 is
    /// recorded for `verify`).
    Acta {
        /// Program code.
        #[arg(value_parser = super::args::text)]
        code: String,
        #[arg(long, value_parser = stage_arg())]
        stage: Stage,
        /// The file (.pdf, .html or .md).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Replace a file already at --out.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        sign: super::sign::SignArgs,
    },
    /// Check a stage's acta against the register: the program and stage come from its text; the
    /// stored proposals, improvements and draws must give the stored conclusion and awards, and
    /// the text must be what they render (exit 1 names the first difference where a reader finds
    /// it: its line in a Markdown or HTML file, its page and line in a PDF). The acta is read
    /// as it is compared with one rendered again as it is compared, a page or a chunk of each
    /// at a time, whatever its size and format.
    /// Then its bytes are compared with the files vigia wrote of the acta (their SHA-256 are
    /// recorded): exit 1 when its text matches but the file is none of them, said on the first
    /// line («NOT VERIFIED: the text matches the register, but the file is not the one issued»).
    Verify {
        file: PathBuf,
        /// A directory of the certificates the office trusts (see `notice verify`): a signed
        /// acta's signer must chain to one of them.
        #[arg(long, value_name = "DIR")]
        trust: Option<PathBuf>,
    },
}

const ROW_COLUMNS: [&str; 14] = [
    "tranche",
    "proposal",
    "filed_at",
    "bidders",
    "beneficial_owner",
    "shares",
    "price_per_share",
    "improved_price",
    "price",
    "term_days",
    "value",
    "rank",
    "status",
    "cause",
];

/// How the tranche's proposals are valued, for the catalogue to word.
fn criterion_of(e: &TrancheEvaluation) -> Criterion<'_> {
    match (e.valuation, &e.rate) {
        (Valuation::PresentValue { rate_ea_pct }, r) => Criterion::PresentValue {
            rate_ea_pct,
            source: r
                .as_ref()
                .map(|r| (r.source.as_str(), r.source_es.as_str())),
        },
        (Valuation::HighestPrice, _) => Criterion::HighestPrice,
        (Valuation::PriceAndTerm(w), _) => Criterion::PriceAndTerm {
            price: w.price,
            term: w.term,
        },
    }
}

/// A winner's value under the criterion, for the catalogue to word.
fn value_of(v: Valuation, value: Option<rust_decimal::Decimal>) -> Worth {
    match (v, value) {
        (_, None) => Worth::None,
        (Valuation::PresentValue { .. }, Some(x)) => Worth::PresentValue(x),
        (Valuation::HighestPrice, Some(x)) => Worth::Value(x),
        (Valuation::PriceAndTerm(_), Some(x)) => Worth::Points(x),
    }
}

fn outcome_of(e: &TrancheEvaluation) -> TrancheOutcome<'_> {
    match &e.standing {
        Standing::Winner { proposal, draw } => TrancheOutcome::Winner {
            proposal: &e.proposal(*proposal).row.reference,
            draw: *draw,
        },
        Standing::Tie(v) => TrancheOutcome::Tie(e.references(v)),
        Standing::Desert => TrancheOutcome::Desert,
    }
}

/// `stage evaluate --format json`: the document, each tranche's proposals read as they are
/// written (fields in the order the JSON always had).
#[derive(serde::Serialize)]
struct JsonEvaluation<'a> {
    program: &'a str,
    stage: u8,
    tranches: Vec<JsonTranche<'a>>,
}

#[derive(serde::Serialize)]
struct JsonTranche<'a> {
    tranche: u32,
    shares: u64,
    opens: String,
    closes: String,
    minimum_price: String,
    criterion: &'static str,
    rate_ea_pct: Option<String>,
    rate_source: Option<String>,
    outcome: &'static str,
    winner: Option<String>,
    tied: Vec<String>,
    draw: Option<i64>,
    proposals: JsonRows<'a>,
}

impl<'a> JsonTranche<'a> {
    fn of(e: &'a TrancheEvaluation, p: &StoredProgram, conn: Snapshot<'a>) -> Self {
        JsonTranche {
            tranche: e.tranche.tranche,
            shares: e.tranche.shares,
            opens: e.tranche.opens.to_string(),
            closes: e.tranche.closes.to_string(),
            minimum_price: e.tranche.minimum_price.to_string(),
            criterion: stage_acta::criterion_code(&p.program.later_stages.criterion),
            rate_ea_pct: e.rate.as_ref().map(|r| r.rate_ea_pct.to_string()),
            rate_source: e.rate.as_ref().map(|r| r.source.clone()),
            outcome: match &e.standing {
                Standing::Winner { .. } => "winner",
                Standing::Tie(_) => "tie",
                Standing::Desert => "desert",
            },
            winner: match &e.standing {
                Standing::Winner { proposal, .. } => {
                    Some(e.proposal(*proposal).row.reference.clone())
                }
                _ => None,
            },
            tied: match &e.standing {
                Standing::Tie(v) => e.references(v).iter().map(|s| s.to_string()).collect(),
                _ => Vec::new(),
            },
            draw: e.draw.as_ref().map(|d| d.id),
            proposals: JsonRows { e, conn },
        }
    }
}

/// A tranche's rows, serialized as they are read from the store (the evaluation's snapshot).
struct JsonRows<'a> {
    e: &'a TrancheEvaluation,
    conn: Snapshot<'a>,
}

impl serde::Serialize for JsonRows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        // no length: the rows are counted as they are read (serde_json writes `[]` at once for
        // a length of 0, and would append any row after it)
        let mut seq = s.serialize_seq(None)?;
        let mut failed = None;
        self.e
            .each_row::<crate::store::StoreError>(self.conn, &mut |r| {
                Ok(match seq.serialize_element(&r) {
                    Ok(()) => std::ops::ControlFlow::Continue(()),
                    Err(e) => {
                        failed = Some(e);
                        std::ops::ControlFlow::Break(())
                    }
                })
            })
            .map_err(S::Error::custom)?;
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
    }
}

impl StageCommand {
    pub fn run(self, ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
        match self {
            StageCommand::Open {
                code,
                stage,
                shares,
                opens,
                closes,
                tranche,
                reason,
            } => open_tranche(
                ctx,
                &code,
                Open {
                    stage,
                    tranche,
                    shares,
                    opens,
                    closes,
                    reason: reason.as_deref(),
                },
            ),
            StageCommand::Evaluate {
                code,
                stage,
                format,
            } => evaluate(ctx, code, stage, format),
            StageCommand::Improve {
                code,
                stage,
                proposal,
                price,
            } => improve(ctx, code, stage, proposal, price),
            StageCommand::Draw {
                code,
                stage,
                seed,
                tranche,
                verify,
            } => draw(ctx, code, stage, seed, tranche, verify),
            StageCommand::Adjudicate {
                code,
                stage,
                on,
                acta,
                force,
                sign,
            } => conclude(ctx, code, stage, on, ActaTo { acta, force, sign }, true),
            StageCommand::Desert {
                code,
                stage,
                on,
                acta,
                force,
                sign,
            } => conclude(ctx, code, stage, on, ActaTo { acta, force, sign }, false),
            StageCommand::Acta {
                code,
                stage,
                out,
                force,
                sign,
            } => acta(ctx, code, stage, out, force, &sign),
            StageCommand::Verify { file, trust } => {
                super::stage_verify::verify(ctx, &file, trust.as_deref())
            }
        }
    }
}

/// Open a tranche: one call into the rules (`register::stage::open`).
fn open_tranche(ctx: &mut Ctx<'_>, code: &str, open: Open<'_>) -> Result<Status, CliError> {
    let Open {
        stage,
        tranche,
        shares,
        opens,
        closes,
        ..
    } = open;
    let mut store = ctx.store()?;
    let p = programs::by_code(store.conn(), code)?;
    let o =
        store.write::<_, crate::register::Error>(&ctx.officer(), |tx| rules::open(tx, &p, open))?;
    ctx.say(crate::catalogue::msg::Msg::TrancheOpened {
        stage: stage.number(),
        code,
        tranche,
        shares,
        opens,
        closes,
        minimum_price: o.minimum_price,
        available: o.available.shares,
        offered: o.offered,
    })?;
    super::outside_validity(ctx, &p.program, opens)?;
    Ok(Status::Ok)
}

/// `stage evaluate`: the rules' evaluation (`register::stage::evaluate`) as JSON, CSV or a table,
/// evaluated and written in one read transaction (one snapshot: a proposals import committed
/// meanwhile is in none of it). A failure once the rows are being written stops with a non-zero
/// status and says on standard error that what standard output received is incomplete.
fn evaluate(
    ctx: &mut Ctx<'_>,
    code: String,
    stage: Stage,
    format: Format,
) -> Result<Status, CliError> {
    let rates = ctx.rates()?;
    let store = ctx.store()?;
    let p = programs::by_code(store.conn(), &code)?;
    Snapshot::read(store.conn(), |snap| {
        let evals = rules::evaluate(snap, &p, stage, &rates)?;
        write_evaluation(ctx, snap, &p, stage, format, &evals).map_err(incomplete)
    })?;
    Ok(Status::Ok)
}

/// A failure while the evaluation was being written: standard output received part of it, and
/// the error says so (a reader gone away stays the quiet broken pipe).
fn incomplete(e: CliError) -> CliError {
    if e.is_broken_pipe() {
        return e;
    }
    let (why, why_es) = (
        e.describe(crate::lang::Lang::En),
        e.describe(crate::lang::Lang::Es),
    );
    CliError::Said(crate::said!(
        cli::evaluation_stopped_output_incomplete,
        why,
        why_es
    ))
}

/// The evaluation `evals`, made in `snap`, written as `format` with its rows read in `snap`.
fn write_evaluation(
    ctx: &mut Ctx<'_>,
    snap: Snapshot<'_>,
    p: &StoredProgram,
    stage: Stage,
    format: Format,
    evals: &[TrancheEvaluation],
) -> Result<(), CliError> {
    let code = &p.program.code;
    match format {
        Format::Json => {
            // written as its rows are read: the same bytes as the whole document pretty-printed
            let doc = JsonEvaluation {
                program: code,
                stage: stage.number(),
                tranches: evals.iter().map(|e| JsonTranche::of(e, p, snap)).collect(),
            };
            let mut out = std::io::BufWriter::new(&mut *ctx.out);
            serde_json::to_writer_pretty(&mut out, &doc).map_err(|e| match e.io_error_kind() {
                Some(kind) => CliError::Io(kind.into()),
                None => CliError::Said(crate::said!(cli::evaluation_unwritten, e)),
            })?;
            writeln!(out)?;
            out.flush()?;
        }
        Format::Csv | Format::Table => {
            if format == Format::Table {
                for e in evals {
                    ctx.say(crate::catalogue::msg::Msg::TrancheEvaluated {
                        stage: stage.number(),
                        code,
                        tranche: e.tranche.tranche,
                        shares: e.tranche.shares,
                        opens: e.tranche.opens,
                        closes: e.tranche.closes,
                        minimum_price: e.tranche.minimum_price,
                        criterion: criterion_of(e),
                        outcome: outcome_of(e),
                    })?;
                }
            }
            let mut list = ListWriter::new_in(format, &ROW_COLUMNS, &mut *ctx.out, ctx.lang)?;
            // the causes the rows name: a Spanish table ends with what each means (the codes
            // stay in the cells, as in the CSV and the JSON)
            let mut causes = std::collections::BTreeSet::new();
            for e in evals {
                e.each_row::<CliError>(snap, &mut |r| {
                    list.push(&serde_json::to_value(&r).expect("row"))?;
                    causes.extend(r.cause);
                    Ok(std::ops::ControlFlow::Continue(()))
                })?;
            }
            list.finish()?;
            if format == Format::Table && ctx.lang == crate::lang::Lang::Es {
                for line in crate::catalogue::stage::causes_legend_es(&causes) {
                    writeln!(ctx.out, "{line}")?;
                }
            }
        }
    }
    Ok(())
}

/// `stage improve`: one call into the rules (`register::stage::improve`).
fn improve(
    ctx: &mut Ctx<'_>,
    code: String,
    stage: Stage,
    proposal: String,
    price: Decimal,
) -> Result<Status, CliError> {
    let rates = ctx.rates()?;
    let mut store = ctx.store()?;
    let p = programs::by_code(store.conn(), &code)?;
    let i = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
        rules::improve(tx, &p, stage, &proposal, price, &rates)
    })?;
    ctx.say(crate::catalogue::msg::Msg::Improvement {
        id: i.id,
        proposal: &proposal,
        tranche: i.tranche,
        original: i.original,
        offered: i.offered,
        counted: i.counted,
        code: &code,
        stage: stage.number(),
    })?;
    Ok(Status::Ok)
}

/// `stage draw`: one call into the rules (`register::stage::draw`), or `--verify` of the recorded draws.
fn draw(
    ctx: &mut Ctx<'_>,
    code: String,
    stage: Stage,
    seed: Option<String>,
    tranche: u32,
    verify: bool,
) -> Result<Status, CliError> {
    let rates = ctx.rates()?;
    if verify {
        let store = ctx.store()?;
        let p = programs::by_code(store.conn(), &code)?;
        let checks = rules::verify_draws(store.conn(), &p, stage, &rates)?;
        let mut status = Status::Ok;
        for c in checks {
            if c.differences.is_empty() {
                ctx.say(crate::catalogue::msg::Msg::DrawVerified {
                    id: c.stored.id,
                    stage: stage.number(),
                    code: &code,
                    tranche: c.stored.tranche,
                    text: &c.recomputed.text,
                    digest: &c.recomputed.digest,
                    number: &c.recomputed.number.to_string(),
                    tied: c.recomputed.sorted.len() as u64,
                    index: c.recomputed.index as u64,
                    winner: &c.recomputed.winner,
                })?;
            } else {
                status = Status::Findings;
                let line = stage_words::line(
                    ctx.lang,
                    &stage_words::Line::DrawNotVerified {
                        draw: c.stored.id,
                        stage,
                        code: &code,
                        tranche: c.stored.tranche,
                        found: &c.differences,
                    },
                );
                writeln!(ctx.out, "{line}")?;
            }
        }
        return Ok(status);
    }
    let seed = seed.expect("clap requires --seed without --verify");
    let mut store = ctx.store()?;
    let p = programs::by_code(store.conn(), &code)?;
    let d = store.write::<_, crate::register::Error>(&ctx.officer(), |tx| {
        rules::draw(tx, &p, stage, tranche, &seed, &rates)
    })?;
    let r = &d.draw;
    ctx.say(crate::catalogue::msg::Msg::Drawn {
        id: d.id,
        stage: stage.number(),
        code: &code,
        tranche: d.tranche,
        sorted: &r.sorted.join(", "),
        text: &r.text,
        digest: &r.digest,
        number: &r.number.to_string(),
        tied: r.sorted.len() as u64,
        index: r.index as u64,
        winner: &r.winner,
    })?;
    Ok(Status::Ok)
}

/// `stage acta`: the acta of a concluded stage, rendered from a read of the register.
fn acta(
    ctx: &mut Ctx<'_>,
    code: String,
    stage: Stage,
    out: PathBuf,
    force: bool,
    sign: &super::sign::SignArgs,
) -> Result<Status, CliError> {
    // the key file opens before anything is written (issue 26)
    let signer = sign.signer_for_acta(Some(&out), "--out")?;
    let f = acta_format(&out, "--out")?;
    files::check_target(&out, force).map_err(|e| out_error("--out", e))?;
    let rates = ctx.rates()?;
    let mut store = ctx.store()?;
    let p = programs::by_code(store.conn(), &code)?;
    let c = rules::concluded(store.conn(), &p, stage, &rates)?;
    // written into its temporary file as it is made (a page or a row at a time), then moved
    // into place
    let mut reserved = files::reserve(&out, force).map_err(|e| out_error("--out", e))?;
    let data = StageActaData {
        program: &p.program,
        stage,
        concluded: &c,
        conn: store.conn(),
        layout: stage_acta::Layout::CURRENT,
    };
    stage_acta::write(&mut reserved, &data, f).map_err(|e| acta_unwritten("--out", &out, e))?;
    let staged = reserved.finish().map_err(|e| out_error("--out", e))?;
    let tmp = staged.temp_path().to_path_buf();
    let path = staged.place().map_err(|e| {
        let _ = std::fs::remove_file(tmp); // nothing to keep: nothing was just stored
        out_error("--out", e)
    })?;
    if let Some(s) = &signer {
        let issuer = super::sign::letterhead(store.conn(), &p);
        super::sign::sign_file(s, &path, &stage_reason(stage, &code), issuer.as_ref())?;
    }
    let acta = (Acta::Conclusion(c.conclusion.id), f);
    super::acta_record::record(&mut store, &ctx.officer(), acta, (&path, "--out"), false)?;
    let line = stage_words::line(
        ctx.lang,
        &stage_words::Line::ActaWritten {
            stage,
            code: &code,
            conclusion: &c.conclusion,
            path: &path.display().to_string(),
        },
    );
    writeln!(ctx.out, "{line}")?;
    Ok(Status::Ok)
}

/// An acta that could not be written into its file at `flag`.
fn acta_unwritten(
    flag: &'static str,
    path: &Path,
    e: crate::report::pdf::stream::WriteError,
) -> CliError {
    match e {
        crate::report::pdf::stream::WriteError::Io(error) => CliError::File {
            flag,
            path: path.to_path_buf(),
            error,
        },
        crate::report::pdf::stream::WriteError::Rows(e) => {
            CliError::Said(crate::said!(cli::acta_unwritten_at, flag, e))
        }
    }
}

/// The signature's reason on a stage's acta.
fn stage_reason(stage: Stage, code: &str) -> String {
    format!(
        "Acta de la {} {code}",
        crate::words::stage_es(stage.number())
    )
}

/// Where a concluding command writes its acta: `--acta`, `--force`, `--sign`.
struct ActaTo {
    acta: Option<PathBuf>,
    force: bool,
    sign: super::sign::SignArgs,
}

fn conclude(
    ctx: &mut Ctx<'_>,
    code: String,
    stage: Stage,
    on: NaiveDate,
    to: ActaTo,
    adjudicate: bool,
) -> Result<Status, CliError> {
    let ActaTo { acta, force, sign } = to;
    // the key file opens before anything is concluded (issue 26)
    let signer = sign.signer_for_acta(acta.as_deref(), "--acta")?;
    let af = acta
        .as_deref()
        .map(|a| acta_format(a, "--acta"))
        .transpose()?;
    if let Some(a) = &acta {
        files::check_target(a, force).map_err(|e| out_error("--acta", e))?;
    }
    let rates = ctx.rates()?;
    let mut store = ctx.store()?;
    let p: StoredProgram = programs::by_code(store.conn(), &code)?;
    // one call into the rules; the acta's file is reserved in the transaction (a path that
    // cannot be written refuses the conclusion while nothing is stored), and the acta is rendered
    // after the commit from what the rules returned, without the write lock
    let (c, reserved) = store.write::<_, CliError>(&ctx.officer(), |tx| {
        let c = if adjudicate {
            rules::adjudicate(tx, &p, stage, on, &rates)?
        } else {
            rules::desert(tx, &p, stage, on, &rates)?
        };
        let reserved = acta
            .as_deref()
            .map(|path| files::reserve(path, force).map_err(|e| out_error("--acta", e)))
            .transpose()?;
        Ok((c, reserved))
    })?;
    let placed = match (reserved, af) {
        (Some(r), Some(f)) => {
            let path = r.target().to_path_buf();
            let data = StageActaData {
                program: &p.program,
                stage,
                concluded: &c,
                conn: store.conn(),
                layout: stage_acta::Layout::CURRENT,
            };
            // written into the reserved file as it is made, a page or a row at a time
            let mut r = r;
            let written = stage_acta::write(&mut r, &data, f)
                .map_err(|e| acta_unwritten("--acta", &path, e))
                .and_then(|()| r.finish().map_err(|e| out_error("--acta", e)));
            let n = stage.number();
            let what = crate::said!(cli::stage_conclusion_named, n, code);
            let staged = written.map_err(|e| {
                let again = format!(
                    "vigia stage acta {code} --stage {n} --out {}",
                    path.display()
                );
                super::notice::acta_unwritten(&what, "--acta", &e, &again)
            })?;
            let tmp = staged.temp_path().to_path_buf();
            Some(
                staged
                    .place()
                    .map_err(|e| super::notice::not_placed(&what, "--acta", &path, &e, &tmp))?,
            )
        }
        _ => None,
    };
    if let (Some(s), Some(path)) = (&signer, &placed) {
        let issuer = super::sign::letterhead(store.conn(), &p);
        super::sign::sign_file(s, path, &stage_reason(stage, &code), issuer.as_ref())?;
    }
    // its file recorded once placed (and signed), in a transaction of its own
    if let (Some(path), Some(f)) = (&placed, af) {
        let n = stage.number();
        let again = format!("vigia stage acta {code} --stage {n}");
        let what = (crate::said!(cli::stage_conclusion_named, n, code), again);
        let acta = (Acta::Conclusion(c.conclusion.id), f);
        super::acta_record::issued(&mut store, &ctx.officer(), acta, path, what)?;
    }
    write_conclusion((ctx.out, ctx.lang), &code, stage, &c)?;
    if let Some(path) = placed {
        writeln!(ctx.out, "acta -> {}", path.display())?;
    }
    Ok(Status::Ok)
}

fn write_conclusion(
    (out, lang): (&mut dyn Write, crate::lang::Lang),
    code: &str,
    stage: Stage,
    c: &Concluded,
) -> Result<(), CliError> {
    let k = &c.conclusion;
    match k.kind {
        Kind::Adjudicated => {
            let line =
                crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::StageAdjudicated {
                    stage: stage.number(),
                    code,
                    on: k.decided_on,
                    conclusion: k.id,
                    awarded: k.awarded,
                    offered: k.offered,
                    leftover: k.leftover,
                });
            writeln!(out, "{line}")?;
            for a in &c.awards {
                let p = c.awarded_proposal(a);
                match (p, a.price, a.payment_due) {
                    (Some(p), Some(price), Some(due)) => {
                        let bidders = p
                            .row
                            .bidders
                            .iter()
                            .map(|b| format!("{} {} {}", b.doc_type.as_str(), b.doc_number, b.name))
                            .collect::<Vec<_>>()
                            .join("; ");
                        let valuation = c
                            .evaluations
                            .iter()
                            .find(|e| e.tranche.tranche == a.tranche)
                            .map_or(Valuation::HighestPrice, |e| e.valuation);
                        let line = crate::catalogue::of(lang).msg(
                            &crate::catalogue::msg::Msg::StageAward {
                                tranche: a.tranche,
                                shares: a.shares,
                                proposal: &p.row.reference,
                                bidders: &bidders,
                                price,
                                total: price * Decimal::from(a.shares),
                                value: value_of(valuation, a.value),
                                due,
                                draw: a.draw_id,
                            },
                        );
                        writeln!(out, "{line}")?
                    }
                    _ => {
                        let line = crate::catalogue::of(lang).msg(
                            &crate::catalogue::msg::Msg::TrancheVoid {
                                tranche: a.tranche,
                                shares: a.shares,
                            },
                        );
                        writeln!(out, "{line}")?
                    }
                }
            }
            if let (Some(price), Some((id, _))) = (k.price, c.stage_price) {
                let composition = if c.parts.len() > 1 {
                    format!(
                        " = ({}) / {} rounded to centavos",
                        c.parts
                            .iter()
                            .map(|x| format!("{} × {}", x.shares, x.price))
                            .collect::<Vec<_>>()
                            .join(" + "),
                        c.parts.iter().map(|x| x.shares).sum::<u64>()
                    )
                } else {
                    String::new()
                };
                let line =
                    crate::catalogue::of(lang).msg(&crate::catalogue::msg::Msg::StagePriceFrom {
                        id,
                        code,
                        stage: stage.number(),
                        price,
                        composition: &composition,
                        from: k.decided_on,
                        so_far: c.later_stage_pending,
                    });
                writeln!(out, "{line}")?;
            }
        }
        Kind::Desert => {
            let catalogue = crate::catalogue::of(lang);
            let line = catalogue.msg(&crate::catalogue::msg::Msg::StageVoid {
                stage: stage.number(),
                code,
                on: k.decided_on,
                conclusion: k.id,
                leftover: k.leftover,
                last: c.stage_price.is_some(),
            });
            writeln!(out, "{line}")?;
            if let Some((id, _)) = c.stage_price {
                let line = catalogue.msg(&crate::catalogue::msg::Msg::NoLaterStage { id, code });
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_while_the_rows_are_written_says_the_output_is_incomplete() {
        let e = incomplete(CliError::Store(crate::store::StoreError::Corrupt(
            "x".into(),
        )));
        let (en, es) = (
            e.describe(crate::lang::Lang::En),
            e.describe(crate::lang::Lang::Es),
        );
        assert!(
            en.contains("what standard output received is incomplete"),
            "{en}"
        );
        assert!(
            es.contains("lo que recibió la salida estándar está incompleto"),
            "{es}"
        );
        assert!(matches!(e, CliError::Said(_)));
        let gone = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert!(incomplete(CliError::Io(gone)).is_broken_pipe());
    }
}
