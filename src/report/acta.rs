//! The acta of the first-stage adjudication (Decreto 3939 de 2004 Art. 12) as a document: one
//! list of blocks built from a stored run's result, rendered as Markdown, HTML or PDF by the
//! notices' machinery (`report::notice`, `report::pdf`). Spanish, es-CO formats. Rendering only.

use super::notice::{Block, long_date, md_text};
use crate::money::{format_cop, format_number};
use crate::offering::adjudicate::Cause;
use crate::program::Program;
use crate::register::offering::{Header, Row};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// What an acta shows: the program, the run and its result.
pub struct ActaData<'a> {
    pub program: &'a Program,
    pub run_id: i64,
    pub fingerprint: &'a str,
    pub header: &'a Header,
    pub rows: &'a [Row],
}

fn n(x: u64) -> String {
    format_number(Decimal::from(x))
}

fn day(s: &str) -> String {
    crate::calendar::parse_iso(s).map_or_else(|| s.to_string(), long_date)
}

fn short(s: &str) -> String {
    crate::calendar::parse_iso(s).map_or_else(
        || s.to_string(),
        |d: NaiveDate| d.format("%d/%m/%Y").to_string(),
    )
}

/// The article as the acta's sentence writes it: the default "art. 4" as "artículo 4", as the
/// acta always said.
fn acta_article(article: &str) -> String {
    match article.strip_prefix("art. ") {
        Some(n) => format!("artículo {n}"),
        None => article.to_string(),
    }
}

/// The acta's number line, which `offer verify` finds: `Adjudicación N.º 3`.
pub fn number_line(run_id: i64) -> String {
    format!("Adjudicación N.º {run_id}")
}

/// The blocks of the acta; `q` makes an officer-typed value safe for the target format.
pub fn blocks(d: &ActaData<'_>, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let p = d.program;
    let h = d.header;
    let mut out = vec![
        Block::Title("Acta de adjudicación de la Primera Etapa".into()),
        Block::Subtitle(format!("{} — {}", q(&p.decree), number_line(d.run_id))),
        Block::Para(format!("Programa: {} — {}", p.code, q(&p.name))),
        Block::Para(format!("Emisor: {}", q(&p.issuer))),
        Block::Heading("1. La oferta".into()),
        Block::Para(format!(
            "Los vendedores ofrecieron {} acciones a los destinatarios de las condiciones especiales, al precio fijo de \
             {} por acción, mediante oferta pública publicada el {} y abierta hasta el {} (vigencia mínima de {}, {} del {}).",
            n(h.offered),
            format_cop(p.fixed_price),
            day(&h.opens),
            day(&h.closes),
            p.offer.length_said().in_lang(crate::lang::Lang::Es),
            q(&acta_article(&p.offer.article)),
            q(&p.decree)
        )),
        Block::Heading("2. Regla aplicada".into()),
        Block::Para(format!(
            "La adjudicación se efectuó en una sola oportunidad, vencido el plazo de la oferta, el {}. Cada aceptación \
             se evaluó por sí misma; las aceptaciones válidas de una misma persona se sumaron y se limitaron una sola \
             vez a los montos máximos de {}; una aceptación por encima de su límite se entiende \
             presentada por el límite.",
            day(&h.adjudicated_on),
            q(&p.offer.caps_article)
        )),
    ];
    let rule = p.proration;
    out.push(Block::Para(if h.oversubscribed {
        format!(
            "La demanda ({} acciones) superó la oferta: se apartaron las aceptaciones que no aceptaron la reducción y \
             las demás se adjudicaron por {}.",
            n(h.demand),
            match &p.offer.proration_article {
                None => rule.source_es().to_string(),
                Some(a) => format!("{} ({})", rule.describe_es(), q(a)),
            }
        )
    } else {
        format!(
            "La demanda ({} acciones) no superó la oferta: a cada aceptante se le adjudicó la cantidad admitida \
             ({}).",
            n(h.demand),
            q(&p.offer.allotment_article)
        )
    }));
    out.push(Block::Heading("3. Totales".into()));
    out.push(Block::Table {
        header: vec!["Concepto".into(), "Acciones".into()],
        rows: vec![
            vec!["Ofrecidas".into(), n(h.offered)],
            vec![
                "Demandadas (aceptaciones válidas, dentro de los límites)".into(),
                n(h.demand),
            ],
            vec!["Adjudicadas".into(), n(h.awarded)],
            vec![
                "Sobrantes, que pasan a la Segunda Etapa".into(),
                n(h.leftover),
            ],
        ],
        right: vec![false, true],
    });
    let awarded = d.rows.iter().filter(|r| r.awarded > 0).count();
    let rejected = d.rows.iter().filter(|r| r.status == "rejected").count();
    out.push(Block::Para(format!(
        "Aceptantes: {}; con adjudicación: {}; rechazados: {}. Valor de lo adjudicado al precio fijo: {}.",
        n(d.rows.len() as u64),
        n(awarded as u64),
        n(rejected as u64),
        format_cop(p.fixed_price * Decimal::from(h.awarded))
    )));
    out.push(Block::Heading("4. Aceptaciones y su resultado".into()));
    out.push(Block::Table {
        header: [
            "N.º",
            "Documento",
            "Aceptante",
            "Solicitadas",
            "Límite",
            "Admitidas",
            "Cuota",
            "Adjudicadas",
            "Resultado",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        rows: d
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                vec![
                    n(i as u64 + 1),
                    format!("{} {}", r.doc_type, r.doc_number),
                    q(&r.name),
                    n(r.requested),
                    r.cap_shares.map_or_else(|| "—".to_string(), n),
                    n(r.admitted),
                    r.quota.clone().unwrap_or_else(|| "—".into()),
                    n(r.awarded),
                    match r.cause {
                        None if r.awarded == 0 => "Sin acciones en la prorrata".to_string(),
                        None => "Adjudicada".to_string(),
                        Some(c) => format!("Rechazada: {c}"),
                    },
                ]
            })
            .collect(),
        right: vec![true, false, false, true, true, true, true, true, false],
    });
    // the limits that bound, and the causes used, explained once
    let mut limits: Vec<&str> = d
        .rows
        .iter()
        .filter_map(|r| r.cap_rule.as_deref())
        .collect();
    limits.sort_unstable();
    limits.dedup();
    if !limits.is_empty() {
        out.push(Block::Para(format!(
            "Límites aplicados (en acciones, al precio fijo, por defecto): {}.",
            limits.iter().map(|s| q(s)).collect::<Vec<_>>().join("; ")
        )));
    }
    let mut causes: Vec<Cause> = d
        .rows
        .iter()
        .filter_map(|r| r.cause.and_then(Cause::parse))
        .collect();
    causes.sort_unstable();
    causes.dedup();
    if !causes.is_empty() {
        out.push(Block::Heading("5. Causales de rechazo".into()));
        out.push(Block::Table {
            header: vec!["Causal".into(), "Significado".into()],
            rows: causes
                .iter()
                .map(|c| vec![c.as_str().to_string(), q(&c.label_for(p))])
                .collect(),
            right: vec![false, false],
        });
    }
    if h.oversubscribed {
        out.push(Block::Para(
            "La cuota es la parte exacta de la oferta que corresponde a cada aceptación admitida, escrita como entero \
             más fracción (acciones ofrecidas × admitidas ÷ demanda de quienes aceptaron la reducción)."
                .into(),
        ));
    }
    out.push(Block::Signature(vec![
        String::new(),
        "______________________________________".into(),
        "Nombre:".into(),
        "Cargo:".into(),
        "En representación de los Vendedores".into(),
    ]));
    out.push(Block::Small(format!(
        "Huella de la {} (SHA-256): {}",
        number_line(d.run_id).to_lowercase(),
        d.fingerprint
    )));
    out.push(Block::Small(format!(
        "Para verificar este documento ejecute `vigia offer verify ARCHIVO`: relee la adjudicación N.º {} del registro, \
         recalcula su huella y compara su texto con el de este documento. Fecha de la adjudicación: {}.",
        d.run_id,
        short(&h.adjudicated_on)
    )));
    out
}

/// The blocks for HTML and PDF (which escape what they write themselves).
pub fn plain_blocks(d: &ActaData<'_>) -> Vec<Block> {
    blocks(d, &|s| s.to_string())
}

/// The blocks for Markdown: every officer-typed value made inert.
pub fn markdown_blocks(d: &ActaData<'_>) -> Vec<Block> {
    blocks(d, &md_text)
}
