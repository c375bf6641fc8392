//! The acta of a later stage (Decreto 3939 de 2004 Arts. 3, 13–19, 22; seed 002): one list of
//! blocks built from a concluded stage (its tranches, every proposal with its value and cause, the
//! improvements, the draw and the award or the declaration that the stage is void), rendered as
//! Markdown, HTML or PDF by the notices' machinery. Spanish, es-CO formats. Rendering only.

use super::acta::Format;
use super::lines::{Difference, HtmlLines, LineCheck, NextLine};
use super::notice::{Block, long_date, markdown, md_table_head, md_table_row, md_text};
use super::pdf::{Item, RowSource};
use crate::later_stages::{MinimumPrice, Stage};
use crate::money::{format_cop, format_number};
use crate::program::{Criterion, CriterionRate, Program};
use crate::register::stage::{Concluded, Row, Standing, TrancheEvaluation};
use crate::store::StoreError;
use crate::store::stage::Kind;
use rust_decimal::Decimal;
use std::io::Write;
use std::ops::ControlFlow;

pub use super::layout_checks::LayoutChecks;

/// What a stage's acta shows.
pub struct StageActaData<'a> {
    pub program: &'a Program,
    pub stage: Stage,
    pub concluded: &'a Concluded,
    /// The register the tables of proposals are read from, a row at a time.
    pub conn: &'a rusqlite::Connection,
    /// [`Layout::CURRENT`] for an acta written now.
    pub layout: Layout,
}

fn n(x: u64) -> String {
    format_number(Decimal::from(x))
}

fn pct(x: Decimal) -> String {
    format!("{} %", x.normalize().to_string().replace('.', ","))
}

/// The criterion's code as the program file writes it (`present-value`, `highest-price`,
/// `price-and-term`).
pub fn criterion_code(c: &Criterion) -> &'static str {
    match c {
        Criterion::PresentValue(_) => "present-value",
        Criterion::HighestPrice => "highest-price",
        Criterion::PriceAndTerm(_) => "price-and-term",
    }
}

/// The paragraph stating the criterion (section 2 of the acta).
fn criterion_para(c: &Criterion) -> String {
    const TIE: &str = "En caso de empate los proponentes empatados fueron invitados a mejorar su precio (un precio \
                       inferior al original no se tiene en cuenta) y, de persistir el empate, se decidió por sorteo \
                       verificable.";
    match c {
        Criterion::PresentValue(rate) => format!(
            "Se adjudica a la propuesta de mejor valor presente: precio por acción ÷ (1 + r)^(días de plazo ÷ 365), con \
             r {}, calculado con decimales exactos y comparado en pesos con centavos; dos valores iguales son un empate. \
             {TIE}",
            match rate {
                CriterionRate::Ibc => {
                    "el interés bancario corriente certificado vigente en la fecha de cierre"
                        .to_string()
                }
                CriterionRate::Fixed(r) =>
                    format!("del {} efectivo anual fijado en el programa", pct(*r)),
            }
        ),
        Criterion::HighestPrice => format!(
            "Se adjudica a la propuesta de mayor precio por acción, comparado en pesos con centavos; dos precios \
             iguales son un empate. {TIE}"
        ),
        Criterion::PriceAndTerm(w) => format!(
            "Se adjudica a la propuesta de mayor puntaje, que considera el precio ofrecido y el plazo para la compra: \
             puntaje = 100 × ({} × precio ÷ mejor precio + {} × plazo más corto ÷ plazo), con el mejor precio y el \
             plazo más corto de las propuestas válidas del tramo (mejoras incluidas) y cada plazo contado en días \
             desde la adjudicación, al menos uno; calculado con decimales exactos y redondeado a cuatro decimales; \
             dos puntajes iguales son un empate. {TIE}",
            w.price.to_string().replace('.', ","),
            w.term.to_string().replace('.', ",")
        ),
    }
}

/// The acta's number line: `Etapa 2 — Acta N.º 4`.
pub fn number_line(stage: Stage, conclusion_id: i64) -> String {
    format!("Etapa {stage} — Acta N.º {conclusion_id}")
}

/// Which acta a document's lines say it is: the first stage's (its title line), a later
/// stage's (its «Etapa N — Acta N.º K» line), or neither. `offer verify` and the offer page say
/// another kind of document as such, not as a forged acta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActaKind {
    FirstStage,
    LaterStage,
    Other,
}

/// [`ActaKind`] of a document's `lines`.
pub fn acta_kind(lines: &[String]) -> ActaKind {
    if lines
        .iter()
        .any(|l| l.trim_start_matches("# ") == super::acta::TITLE)
    {
        ActaKind::FirstStage
    } else if lines.iter().any(|l| parse_number_line(l).is_some()) {
        ActaKind::LaterStage
    } else {
        ActaKind::Other
    }
}

/// The stage and conclusion a line of text names, when it holds a number line (the last one
/// on the line: the decree before it is typed by an officer).
pub fn parse_number_line(line: &str) -> Option<(Stage, i64)> {
    let at = line.rfind("Etapa ")?;
    let rest = &line[at + "Etapa ".len()..];
    let (stage, rest) = rest.split_once(" — Acta N.º ")?;
    let id = rest.split_whitespace().next()?;
    let stage = Stage::from_number(stage.parse().ok()?)?;
    Some((stage, id.parse().ok()?))
}

/// A piece of the acta: a block, or a tranche's table of proposals, whose rows are made as they
/// are written, one at a time (a stage's proposals are never all rendered at once).
pub enum Piece<'a> {
    Block(Block),
    Proposals {
        e: &'a TrancheEvaluation,
        cells: Cells,
        header: Vec<String>,
        right: Vec<bool>,
    },
}

/// How a table of proposals writes its cells.
#[derive(Debug, Clone, Copy)]
pub struct Cells {
    /// The value column shows points (`price-and-term`) rather than pesos.
    pub points: bool,
    /// A rejection's cause in words (layout 2), not its code (layout 1).
    pub words: bool,
}

/// The layout of a stage's acta. An acta written before is verified against its own layout:
/// its text is compared with the acta rendered again in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Until this version: a rejection's cause as its code, explained in a paragraph.
    CausesAsCodes,
    /// A rejection's cause in Spanish words in the table.
    CausesInWords,
    /// The same text; in the PDF a heading is kept on the page of the block after it (a
    /// heading no longer ends a page above its table on the next).
    HeadingsKept,
}

impl Layout {
    /// The layout a new acta is written in.
    pub const CURRENT: Layout = Layout::HeadingsKept;
    /// Every layout, the current one first: what verification tries.
    pub const ALL: [Layout; 3] = [
        Layout::HeadingsKept,
        Layout::CausesInWords,
        Layout::CausesAsCodes,
    ];

    /// Whether a rejection's cause is worded in the table (from layout 2 on).
    fn words(self) -> bool {
        self != Layout::CausesAsCodes
    }

    /// Whether the PDF keeps a heading with the block after it (from layout 3 on).
    fn keeps_headings(self) -> bool {
        self == Layout::HeadingsKept
    }

    /// Whether a document in `format` may read differently in this layout than in every layout
    /// before it in [`Layout::ALL`]: layouts 2 and 3 differ only in a PDF's page breaks, so a
    /// Markdown or HTML acta is compared with one of them only.
    pub fn tried_for(self, format: Format) -> bool {
        self != Layout::CausesInWords || format == Format::Pdf
    }
}

/// The cells of one proposal's row in the table of proposals.
fn proposal_cells(r: &Row, cells: Cells, q: &dyn Fn(&str) -> String) -> Vec<String> {
    let points = cells.points;
    vec![
        r.tranche.to_string(),
        q(&r.proposal),
        q(&r.bidders),
        format_cop(r.price_per_share.parse().unwrap_or_default()),
        r.improved_price.as_ref().map_or_else(
            || "—".to_string(),
            |x| {
                let offered: Decimal = x.parse().unwrap_or_default();
                let original: Decimal = r.price_per_share.parse().unwrap_or_default();
                if offered > original {
                    format_cop(offered)
                } else {
                    format!(
                        "{} (no mejora: se mantiene el original)",
                        format_cop(offered)
                    )
                }
            },
        ),
        r.term_days.to_string(),
        r.value.as_ref().map_or_else(
            || "—".to_string(),
            |x| {
                if points {
                    x.replace('.', ",")
                } else {
                    format_cop(x.parse().unwrap_or_default())
                }
            },
        ),
        r.rank.map_or_else(|| "—".to_string(), |k| k.to_string()),
        match (r.status, &r.cause) {
            ("winner", _) => "Adjudicataria".to_string(),
            ("tied", _) => "Empatada".to_string(),
            ("valid", _) => "Válida".to_string(),
            (_, Some(c)) if cells.words => format!(
                "Rechazada: {}",
                q(&crate::catalogue::stage::cause_es(
                    &crate::offering::stage::Cause::from_code(c)
                ))
            ),
            (_, Some(c)) => format!("Rechazada: {}", q(c)),
            _ => "Rechazada".to_string(),
        },
    ]
}

/// Why a table of proposals stopped: the register could not be read, or the sink failed.
enum Stopped<E> {
    Store(StoreError),
    Sink(E),
}

impl<E> From<StoreError> for Stopped<E> {
    fn from(e: StoreError) -> Self {
        Stopped::Store(e)
    }
}

/// Each proposal's cells of tranche `e`, in stored order, read from the register and made one
/// at a time and handed to `f` until it fails.
fn each_proposal<E>(
    conn: &rusqlite::Connection,
    e: &TrancheEvaluation,
    cells: Cells,
    q: &dyn Fn(&str) -> String,
    f: &mut dyn FnMut(&[String]) -> Result<(), E>,
) -> Result<(), Stopped<E>> {
    // a concluded stage takes no more proposals: its own snapshot, or the one it is read in
    crate::store::Snapshot::read(conn, |s| {
        e.each_row::<Stopped<E>>(s, &mut |r| {
            f(&proposal_cells(&r, cells, q)).map_err(Stopped::Sink)?;
            Ok(ControlFlow::Continue(()))
        })
    })
}

/// [`each_proposal`] into a writer: a register that cannot be read is an I/O error of the
/// document.
fn write_proposals(
    d: &StageActaData<'_>,
    e: &TrancheEvaluation,
    cells: Cells,
    q: &dyn Fn(&str) -> String,
    f: &mut dyn FnMut(&[String]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    each_proposal(d.conn, e, cells, q, f).map_err(|s| match s {
        Stopped::Sink(e) => e,
        Stopped::Store(e) => std::io::Error::other(e.to_string()),
    })
}

/// The blocks of the acta, every table's rows made; `q` makes an officer-typed value safe for
/// the target format. A register that cannot be read is an error, never a shorter table.
pub fn blocks(d: &StageActaData<'_>, q: &dyn Fn(&str) -> String) -> Result<Vec<Block>, StoreError> {
    pieces(d, q)
        .into_iter()
        .map(|piece| match piece {
            Piece::Block(b) => Ok(b),
            Piece::Proposals {
                e,
                cells,
                header,
                right,
            } => {
                let mut rows = Vec::new();
                each_proposal::<std::convert::Infallible>(d.conn, e, cells, q, &mut |c| {
                    rows.push(c.to_vec());
                    Ok(())
                })
                .map_err(|s| match s {
                    Stopped::Store(e) => e,
                    Stopped::Sink(never) => match never {},
                })?;
                Ok(Block::Table {
                    header,
                    rows,
                    right,
                })
            }
        })
        .collect()
}

/// The pieces of the acta, its tables of proposals unmade; `q` makes an officer-typed value safe
/// for the target format.
pub fn pieces<'a>(d: &StageActaData<'a>, q: &dyn Fn(&str) -> String) -> Vec<Piece<'a>> {
    let concluded: &'a Concluded = d.concluded;
    let p = d.program;
    let c = &concluded.conclusion;
    let name = d.stage.name_es();
    let cite = &p.later_stages.articles;
    let articles = q(if d.stage == Stage::Second {
        &cite.second
    } else {
        &cite.third
    });
    let minimum = match p.later_stages.minimum_price {
        MinimumPrice::FirstStage => format!(
            "al precio mínimo de {} por acción (precio fijo de la Primera Etapa)",
            format_cop(p.fixed_price)
        ),
        MinimumPrice::Fixed(x) => {
            format!(
                "al precio mínimo de {} por acción fijado en el programa",
                format_cop(x)
            )
        }
    };
    let valuation = concluded.evaluations.first().map(|e| e.valuation);
    let points = matches!(
        valuation,
        Some(crate::later_stages::Valuation::PriceAndTerm(_))
    );
    let mut out = Pieces(vec![
        Block::Title(match c.kind {
            Kind::Adjudicated => format!("Acta de adjudicación de la {name} Etapa"),
            Kind::Desert => format!("Acta de declaratoria de desierta de la {name} Etapa"),
        }),
        Block::Subtitle(format!("{} — {}", q(&p.decree), number_line(d.stage, c.id))),
        Block::Para(format!("Programa: {} — {}", p.code, q(&p.name))),
        Block::Para(format!("Emisor: {}", q(&p.issuer))),
        Block::Heading("1. Las acciones ofrecidas".into()),
        Block::Para(format!(
            "En la {name} Etapa se ofrecieron, bajo la condición \"Todo o Nada\", las {} acciones que no se \
             enajenaron en la etapa anterior ({} del {}), {minimum}.",
            n(c.offered),
            articles,
            q(&p.decree),
        )),
    ]
    .into_iter()
    .map(Piece::Block)
    .collect());
    if !concluded.evaluations.is_empty() {
        out.push(Block::Table {
            header: vec![
                "Tramo".into(),
                "Acciones".into(),
                "Recepción de propuestas".into(),
                "Tasa de descuento".into(),
            ],
            rows: d
                .concluded
                .evaluations
                .iter()
                .map(|e| {
                    vec![
                        e.tranche.tranche.to_string(),
                        n(e.tranche.shares),
                        format!(
                            "{} a {}",
                            e.tranche.opens.format("%d/%m/%Y"),
                            e.tranche.closes.format("%d/%m/%Y")
                        ),
                        e.rate.as_ref().map_or_else(
                            || "—".to_string(),
                            |r| format!("{} E.A.", pct(r.rate_ea_pct)),
                        ),
                    ]
                })
                .collect(),
            right: vec![true, true, false, true],
        });
    }
    out.push(Block::Heading("2. Criterio técnico de comparación".into()));
    out.push(Block::Para(criterion_para(&p.later_stages.criterion)));
    if p.later_stages.minimum_guarantee > Decimal::ZERO {
        out.push(Block::Para(format!(
            "Garantía de seriedad mínima ({}): {}.",
            q(&cite.guarantee),
            format_cop(p.later_stages.minimum_guarantee)
        )));
    }
    out.push(Block::Heading("3. Propuestas y su evaluación".into()));
    let mut draws = Vec::new();
    for e in &concluded.evaluations {
        if e.is_empty() {
            out.push(Block::Para(format!(
                "Tramo {}: no se recibieron propuestas.",
                e.tranche.tranche
            )));
            continue;
        }
        out.0.push(Piece::Proposals {
            e,
            cells: Cells {
                points,
                words: d.layout.words(),
            },
            header: [
                "Tramo",
                "Propuesta",
                "Proponentes",
                "Precio",
                "Mejora",
                "Plazo (días)",
                match p.later_stages.criterion {
                    Criterion::PresentValue(_) => "Valor presente",
                    Criterion::HighestPrice => "Valor",
                    Criterion::PriceAndTerm(_) => "Puntaje",
                },
                "Orden",
                "Resultado",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            right: vec![true, false, false, true, true, true, true, true, false],
        });
        if let Some(dr) = &e.draw {
            draws.push(dr.clone());
        }
        if matches!(e.standing, Standing::Desert) {
            out.push(Block::Para(format!(
                "Tramo {}: ninguna propuesta válida.",
                e.tranche.tranche
            )));
        }
    }
    // TERM_TOO_LONG is named only under a program that bounds the term, so that the actas of a
    // program registered before the key existed render as they always did
    let term = match p.later_stages.max_term_days {
        Some(0) => format!(
            " TERM_TOO_LONG (ofrece pagar después del día hábil bancario siguiente a la \
             adjudicación, {}),",
            q(&cite.payment)
        ),
        Some(days) => format!(
            " TERM_TOO_LONG (ofrece un plazo de pago de más de {days} días, el máximo del programa),"
        ),
        None => String::new(),
    };
    if d.layout.words() {
        // the causes are in words in the tables: here, what each rests on
        let term = match p.later_stages.max_term_days {
            Some(0) => format!(
                " plazo de pago mayor que el permitido (ofrece pagar después del día hábil \
                 bancario siguiente a la adjudicación, {});",
                q(&cite.payment)
            ),
            Some(days) => format!(
                " plazo de pago mayor que el permitido (de más de {days} días, el máximo del \
                 programa);"
            ),
            None => String::new(),
        };
        out.push(Block::Para(format!(
            "Causales de rechazo: presentada fuera de las fechas del tramo; precio por debajo del \
             mínimo ({});{term} no es por la totalidad de las acciones del tramo (\"Todo o \
             Nada\"); un proponente o beneficiario real en más de una propuesta (todas se \
             rechazan); sin garantía de seriedad suficiente ({}); origen de los fondos no \
             acreditado ({}); o la causal registrada en la revisión.",
            q(&cite.minimum_price),
            q(&cite.guarantee),
            q(&cite.funds)
        )));
    } else {
        out.push(Block::Para(format!(
        "Causales de rechazo: OUTSIDE_WINDOW (presentada fuera del plazo), BELOW_MINIMUM_PRICE (precio inferior al \
         mínimo, {}),{term} NOT_WHOLE_BLOCK (no es por la totalidad del tramo: \"Todo o Nada\"), \
         SAME_BIDDER (una misma persona o beneficiario real en más de una propuesta: todas se rechazan), \
         NO_GUARANTEE (sin garantía de seriedad, {}), FUNDS_NOT_ACCREDITED (sin acreditar la fuente de los \
         recursos, {}) o la causal anotada en la revisión.",
        q(&cite.minimum_price),
        q(&cite.guarantee),
        q(&cite.funds)
    )));
    }
    if !draws.is_empty() {
        out.push(Block::Heading("4. Sorteo".into()));
        for dr in &draws {
            out.push(Block::Para(format!(
                "Tramo {}: semilla pública {:?}. Se ordenaron las referencias empatadas por sus bytes UTF-8 y se \
                 calculó el SHA-256 del texto \"{}\": {}. Sus primeros 8 bytes, leídos como entero sin signo, son \
                 {}; módulo {} da {}, y en esa posición (contando desde 0) está la propuesta {}.",
                dr.tranche,
                q(&dr.seed),
                q(&dr.hashed_text),
                dr.digest,
                dr.number,
                dr.tied,
                dr.winner_index,
                q(&dr.winner)
            )));
        }
    }
    out.push(Block::Heading(
        if draws.is_empty() {
            "4. Decisión"
        } else {
            "5. Decisión"
        }
        .into(),
    ));
    match c.kind {
        Kind::Desert => {
            out.push(Block::Para(format!(
                "El {} se declaró desierta la {name} Etapa: ninguna propuesta válida. Sus {} acciones {}",
                long_date(c.decided_on),
                n(c.leftover),
                if c.stage_price_id.is_some() {
                    format!(
                        "no se enajenaron, y no hay precio de una etapa posterior ({}).",
                        q(&cite.stage_price)
                    )
                } else {
                    format!("pasan a la Tercera Etapa ({}).", q(&cite.to_third))
                }
            )));
        }
        Kind::Adjudicated => {
            out.push(Block::Para(format!(
                "El {} se adjudicaron {} de las {} acciones de la {name} Etapa. Los proponentes de una propuesta \
                 conjunta responden solidariamente. El pago se debe el día hábil bancario siguiente a la \
                 adjudicación ({}), o al vencer el plazo ofrecido si es posterior.",
                long_date(c.decided_on),
                n(c.awarded),
                n(c.offered),
                q(&cite.payment)
            )));
            let mut rows = Vec::new();
            for a in &concluded.awards {
                let (reference, bidders) = concluded
                    .awarded_proposal(a)
                    .map(|p| {
                        (
                            p.row.reference.clone(),
                            p.row
                                .bidders
                                .iter()
                                .map(|b| {
                                    format!("{} {} {}", b.doc_type.as_str(), b.doc_number, b.name)
                                })
                                .collect::<Vec<_>>()
                                .join("; "),
                        )
                    })
                    .unwrap_or_else(|| ("—".into(), "Desierto".into()));
                rows.push(vec![
                    a.tranche.to_string(),
                    n(a.shares),
                    q(&reference),
                    q(&bidders),
                    a.price.map_or_else(|| "—".into(), format_cop),
                    a.price
                        .map_or_else(|| "—".into(), |pr| format_cop(pr * Decimal::from(a.shares))),
                    a.payment_due
                        .map_or_else(|| "—".into(), |x| x.format("%d/%m/%Y").to_string()),
                ]);
            }
            out.push(Block::Table {
                header: [
                    "Tramo",
                    "Acciones",
                    "Propuesta",
                    "Adjudicatarios",
                    "Precio por acción",
                    "Valor",
                    "Pago a más tardar",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect(),
                rows,
                right: vec![true, true, false, false, true, true, false],
            });
            if c.leftover > 0 {
                out.push(Block::Para(format!(
                    "{} acciones de tramos sin propuesta válida no se enajenaron y pasan a la etapa siguiente.",
                    n(c.leftover)
                )));
            }
            if let Some(price) = c.price {
                let parts = &concluded.parts;
                let composition = if parts.len() > 1 {
                    format!(
                        ": promedio ponderado por acciones ({}) ÷ {}, redondeado a centavos",
                        parts
                            .iter()
                            .map(|x| format!("{} × {}", n(x.shares), format_cop(x.price)))
                            .collect::<Vec<_>>()
                            .join(" + "),
                        n(parts.iter().map(|x| x.shares).sum())
                    )
                } else {
                    String::new()
                };
                out.push(Block::Strong(format!(
                    "Precio por acción recibido por los vendedores en la {name} Etapa: {}{composition}. Es el precio \
                     de referencia del {}), desde el {}.",
                    format_cop(price),
                    q(&cite.stage_price),
                    c.decided_on.format("%d/%m/%Y")
                )));
            }
        }
    }
    out.push(Block::Signature(vec![
        String::new(),
        "______________________________________".into(),
        "Nombre:".into(),
        "Cargo:".into(),
        "En representación de los Vendedores".into(),
    ]));
    // layout 1 said «de la etapa 2»; an acta written now names the stage as the decrees do
    let etapa = if d.layout == Layout::CausesAsCodes {
        format!("la etapa {}", d.stage)
    } else {
        format!("la {}", crate::words::stage_es(d.stage.number()))
    };
    out.push(Block::Small(format!(
        "Registro: conclusión N.º {} de {} del programa {}, del {}. El sorteo, si lo hubo, puede \
         verificarse con `vigia stage draw --verify {} --stage {}` o con cualquier herramienta SHA-256.",
        c.id,
        etapa,
        p.code,
        c.decided_on.format("%d/%m/%Y"),
        p.code,
        d.stage
    )));
    out.0
}

/// The pieces as they are built: blocks pushed one by one.
struct Pieces<'a>(Vec<Piece<'a>>);

impl Pieces<'_> {
    fn push(&mut self, b: Block) {
        self.0.push(Piece::Block(b));
    }
}

/// The blocks for HTML and PDF (which escape what they write themselves).
pub fn plain_blocks(d: &StageActaData<'_>) -> Result<Vec<Block>, StoreError> {
    blocks(d, &|s| s.to_string())
}

/// The blocks for Markdown: every officer-typed value made inert.
pub fn markdown_blocks(d: &StageActaData<'_>) -> Result<Vec<Block>, StoreError> {
    blocks(d, &md_text)
}

/// The acta's title (an HTML page's, a PDF's metadata), its PDF footer and date (y, m, d).
fn title_footer_date(d: &StageActaData<'_>) -> (String, String, (i32, u8, u8)) {
    use chrono::Datelike;
    let c = &d.concluded.conclusion;
    let day = c.decided_on;
    (
        if d.layout == Layout::CausesAsCodes {
            format!("Acta de la etapa {} de {}", d.stage, d.program.code)
        } else {
            format!(
                "Acta de la {} de {}",
                crate::words::stage_es(d.stage.number()),
                d.program.code
            )
        },
        number_line(d.stage, c.id),
        (day.year(), day.month() as u8, day.day() as u8),
    )
}

/// The acta in Markdown, written to `out` as its rows are made: memory holds a row, not the
/// stage's proposals rendered. The same bytes as `markdown(&markdown_blocks(..))`.
pub fn write_markdown(out: &mut dyn Write, d: &StageActaData<'_>) -> std::io::Result<()> {
    let q = &md_text;
    for piece in pieces(d, q) {
        match piece {
            Piece::Block(b) => out.write_all(markdown(std::slice::from_ref(&b)).as_bytes())?,
            Piece::Proposals {
                e,
                cells,
                header,
                right,
            } => {
                out.write_all(md_table_head(&header, &right).as_bytes())?;
                write_proposals(d, e, cells, q, &mut |c| {
                    out.write_all(md_table_row(c).as_bytes())
                })?;
                out.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

/// The acta in HTML, written to `out` as its rows are made, as [`write_markdown`]. The same
/// bytes as `html(&plain_blocks(..), title)`.
pub fn write_html(out: &mut dyn Write, d: &StageActaData<'_>) -> std::io::Result<()> {
    use super::notice::{HTML_CLOSE, HTML_TABLE_END, html_block, html_open, html_table_head};
    let q = &|s: &str| s.to_string();
    let (title, _, _) = title_footer_date(d);
    let mut s = html_open(&title);
    for piece in pieces(d, q) {
        match piece {
            Piece::Block(b) => html_block(&mut s, &b),
            Piece::Proposals {
                e,
                cells,
                header,
                right,
            } => {
                s.push_str(&html_table_head(&header, &right));
                out.write_all(s.as_bytes())?;
                s.clear();
                write_proposals(d, e, cells, q, &mut |c| {
                    out.write_all(super::notice::html_table_row(c, &right).as_bytes())
                })?;
                s.push_str(HTML_TABLE_END);
            }
        }
    }
    s.push_str(HTML_CLOSE);
    out.write_all(s.as_bytes())
}

/// The PDF's items laid out from `pieces`, each table of proposals read from its `sources`
/// (one per table, in order).
fn pdf_items<'s>(pieces: Vec<Piece<'s>>, sources: &'s [Box<RowSource<'s>>]) -> Vec<Item<'s>> {
    let mut sources = sources.iter();
    pieces
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Block(b) => Some(Item::Block(b)),
            Piece::Proposals { header, right, .. } => sources
                .next()
                .map(|rows| Item::rows(header, right, rows.as_ref())),
        })
        .collect()
}

/// The rows of each table of proposals among `pieces`, read from the register again at each
/// pass of the layout.
fn row_sources<'s>(
    conn: &'s rusqlite::Connection,
    pieces: &[Piece<'s>],
) -> Vec<Box<RowSource<'s>>> {
    pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Proposals { e, cells, .. } => {
                let (e, cells) = (*e, *cells);
                let rows: Box<RowSource<'s>> = Box::new(move |f| {
                    let read =
                        each_proposal(
                            conn,
                            e,
                            cells,
                            &|s: &str| s.to_string(),
                            &mut |c| match f(c) {
                                ControlFlow::Continue(()) => Ok(()),
                                ControlFlow::Break(()) => Err(()),
                            },
                        );
                    match read {
                        Err(Stopped::Store(e)) => Err(e.to_string()),
                        Ok(()) | Err(Stopped::Sink(())) => Ok(()),
                    }
                });
                Some(rows)
            }
            Piece::Block(_) => None,
        })
        .collect()
}

/// The acta as a PDF, written to `out` a page at a time (`report::pdf::stream`), its tables'
/// rows made at each pass of the layout: memory holds a page, not the stage's proposals
/// rendered. The same bytes as `pdf::render(&plain_blocks(..), ..)` (layouts 1 and 2), or
/// `pdf::render_layout(.., 2)` (layout 3: a heading kept with the block after it).
pub fn write_pdf(
    out: &mut dyn Write,
    d: &StageActaData<'_>,
) -> Result<(), super::pdf::stream::WriteError> {
    let pieces = pieces(d, &|s: &str| s.to_string());
    let sources = row_sources(d.conn, &pieces);
    let items = pdf_items(pieces, &sources);
    let (title, footer, date) = title_footer_date(d);
    super::pdf::stream::write(
        &items,
        &title,
        &footer,
        date,
        d.layout.keeps_headings(),
        out,
    )
}

/// Writes the acta in `format` to `out` (see [`write_pdf`], [`write_markdown`],
/// [`write_html`]): what `vigia stage acta` writes and the web serves.
pub fn write(
    out: &mut dyn Write,
    d: &StageActaData<'_>,
    format: Format,
) -> Result<(), super::pdf::stream::WriteError> {
    match format {
        Format::Md => write_markdown(out, d)?,
        Format::Html => write_html(out, d)?,
        Format::Pdf => write_pdf(out, d)?,
    }
    Ok(())
}

/// The acta's bytes in `format`, in memory ([`write`] into a vector): an error when the
/// register cannot be read for its tables (writing to memory cannot fail otherwise).
pub fn render(
    data: &StageActaData<'_>,
    format: Format,
) -> Result<Vec<u8>, super::pdf::stream::WriteError> {
    let mut out = Vec::new();
    write(&mut out, data, format)?;
    Ok(out)
}

/// The first difference between a document's lines (`lines`, read as they are compared, in
/// `format`) and the acta rendered again, its lines made as they are compared: memory holds a
/// page of each, not the stage's proposals rendered. An `Err` says why the document could not
/// be read to the difference (or, with none, to its end).
pub fn check(
    d: &StageActaData<'_>,
    format: Format,
    lines: &mut NextLine<'_>,
) -> Result<Option<Difference>, String> {
    let mut lc = LineCheck::new(lines);
    match format {
        Format::Pdf => {
            let pieces = pieces(d, &|s: &str| s.to_string());
            let sources = row_sources(d.conn, &pieces);
            let items = pdf_items(pieces, &sources);
            let (title, footer, date) = title_footer_date(d);
            super::pdf::stream::each_page_text(
                &items,
                &title,
                &footer,
                date,
                d.layout.keeps_headings(),
                &mut |p| lc.page(p),
            )
            .map_err(|e| e.to_string())?;
        }
        Format::Md => write_markdown(&mut lc, d).map_err(|e| e.to_string())?,
        Format::Html => {
            let mut html = HtmlLines::new(&mut lc);
            write_html(&mut html, d).map_err(|e| e.to_string())?;
            html.finish();
        }
    }
    lc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_number_line_reads_back() {
        assert_eq!(
            parse_number_line(&format!(
                "## Decreto 3939 de 2004 — {}",
                number_line(Stage::Third, 14)
            )),
            Some((Stage::Third, 14))
        );
        assert_eq!(parse_number_line("Etapa 4 — Acta N.º 1"), None);
        assert_eq!(parse_number_line("Adjudicación N.º 1"), None);
    }
}
