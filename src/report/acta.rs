//! The acta of the first-stage adjudication (Decreto 3939 de 2004 Art. 12) as a document: one
//! list of blocks built from a stored run's result, rendered as Markdown, HTML or PDF by the
//! notices' machinery (`report::notice`, `report::pdf`). Spanish, es-CO formats. Rendering only.

use super::notice::{Block, long_date, markdown, md_table_head, md_table_row, md_text};
use crate::money::{format_cop, format_number};
use crate::offering::adjudicate::{Cause, Status};
use crate::program::Program;
use crate::register::offering::{Header, Row};
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use std::collections::BTreeSet;
use std::io::Write;

use super::layout_checks::LayoutChecks;
pub use super::lines::{
    Difference, HtmlLines, LineCheck, NextLine, Place, Placed, first_difference,
    first_difference_streamed, lines_from,
};

/// The layout of a first-stage acta. Its text is the same in each; a PDF's page breaks are not,
/// and they are part of what verification compares (each page's text ends with its footer), so
/// an acta written before is compared with a rendering in its own layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Until this version: a heading could end a PDF's page, its table on the next (the demo's
    /// first page ended on «4. Aceptaciones y su resultado»).
    HeadingsAlone,
    /// In the PDF a heading is kept on the page of the block after it: the rule of a stage
    /// acta's layout 3 and a notice's text version 2 (`pdf::stream::write`'s `headings`).
    HeadingsKept,
}

impl Layout {
    /// The layout a new acta is written in.
    pub const CURRENT: Layout = Layout::HeadingsKept;
    /// Every layout, the current one first: what verification tries.
    pub const ALL: [Layout; 2] = [Layout::HeadingsKept, Layout::HeadingsAlone];

    /// Whether the PDF keeps a heading with the block after it (layout 2).
    fn keeps_headings(self) -> bool {
        self == Layout::HeadingsKept
    }

    /// Whether a document in `format` is compared with this layout: the layouts differ only in
    /// a PDF's page breaks, so a Markdown or HTML acta is compared with the current one only.
    pub fn tried_for(self, format: Format) -> bool {
        self == Layout::CURRENT || format == Format::Pdf
    }
}

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

fn short(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
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

/// What the acta says of its rows as a whole, counted in one pass over them (so that the acta
/// can be written as its rows are read, holding one row at a time).
#[derive(Debug, Default)]
pub struct Tally {
    pub rows: u64,
    pub awarded: u64,
    pub rejected: u64,
    /// The limits that bound someone (a few rules, not one per person), in byte order.
    pub limits: BTreeSet<String>,
    /// The causes of rejection used.
    pub causes: BTreeSet<Cause>,
}

impl Tally {
    pub fn add(&mut self, r: &Row) {
        self.rows += 1;
        self.awarded += u64::from(r.awarded > 0);
        self.rejected += u64::from(r.status == Status::Rejected);
        if let Some(l) = &r.cap_rule
            && !self.limits.contains(l)
        {
            self.limits.insert(l.clone());
        }
        if let Some(c) = r.cause.and_then(Cause::parse) {
            self.causes.insert(c);
        }
    }
}

/// What the acta shows besides its rows.
pub struct ActaHead<'a> {
    pub program: &'a Program,
    pub run_id: i64,
    pub fingerprint: &'a str,
    pub header: &'a Header,
}

impl<'a> ActaData<'a> {
    fn head(&self) -> ActaHead<'a> {
        ActaHead {
            program: self.program,
            run_id: self.run_id,
            fingerprint: self.fingerprint,
            header: self.header,
        }
    }
}

/// The table of acceptances' header and alignment.
fn rows_table(rows: Vec<Vec<String>>) -> Block {
    Block::Table {
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
        rows,
        right: vec![true, false, false, true, true, true, true, true, false],
    }
}

/// The cells of the `i`-th row (from 0) of the table of acceptances.
fn row_cells(i: u64, r: &Row, q: &dyn Fn(&str) -> String) -> Vec<String> {
    vec![
        n(i + 1),
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
}

/// The blocks before the table of acceptances (its heading included).
fn head_blocks(d: &ActaHead<'_>, t: &Tally, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let p = d.program;
    let h = d.header;
    let mut out = vec![
        Block::Title(TITLE.into()),
        Block::Subtitle(format!("{} — {}", q(&p.decree), number_line(d.run_id))),
        Block::Para(format!("Programa: {} — {}", p.code, q(&p.name))),
        Block::Para(format!("Emisor: {}", q(&p.issuer))),
        Block::Heading("1. La oferta".into()),
        Block::Para(format!(
            "Los vendedores ofrecieron {} acciones a los destinatarios de las condiciones especiales, al precio fijo de \
             {} por acción, mediante oferta pública publicada el {} y abierta hasta el {} (vigencia mínima de {}, {} del {}).",
            n(h.offered),
            format_cop(p.fixed_price),
            long_date(h.opens),
            long_date(h.closes),
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
            long_date(h.adjudicated_on),
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
    out.push(Block::Para(format!(
        "Aceptantes: {}; con adjudicación: {}; rechazados: {}. Valor de lo adjudicado al precio fijo: {}.",
        n(t.rows),
        n(t.awarded),
        n(t.rejected),
        format_cop(p.fixed_price * Decimal::from(h.awarded))
    )));
    out.push(Block::Heading("4. Aceptaciones y su resultado".into()));
    out
}

/// The blocks after the table of acceptances.
fn tail_blocks(d: &ActaHead<'_>, t: &Tally, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let p = d.program;
    let h = d.header;
    let mut out = Vec::new();
    // the limits that bound, and the causes used, explained once
    if !t.limits.is_empty() {
        out.push(Block::Para(format!(
            "Límites aplicados (en acciones, al precio fijo, por defecto): {}.",
            t.limits.iter().map(|s| q(s)).collect::<Vec<_>>().join("; ")
        )));
    }
    if !t.causes.is_empty() {
        out.push(Block::Heading("5. Causales de rechazo".into()));
        out.push(Block::Table {
            header: vec!["Causal".into(), "Significado".into()],
            rows: t
                .causes
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
        short(h.adjudicated_on)
    )));
    out
}

/// The blocks of the acta; `q` makes an officer-typed value safe for the target format.
pub fn blocks(d: &ActaData<'_>, q: &dyn Fn(&str) -> String) -> Vec<Block> {
    let mut t = Tally::default();
    d.rows.iter().for_each(|r| t.add(r));
    let head = d.head();
    let mut out = head_blocks(&head, &t, q);
    out.push(rows_table(
        d.rows
            .iter()
            .enumerate()
            .map(|(i, r)| row_cells(i as u64, r, q))
            .collect(),
    ));
    out.extend(tail_blocks(&head, &t, q));
    out
}

/// The rows of a run handed to a sink, in order, each once per call.
pub type EachRow<'a, E> = dyn FnMut(&mut dyn FnMut(&Row) -> Result<(), E>) -> Result<(), E> + 'a;

/// The first pass of a streamed acta: the tally of every row, and the rows' table's header and
/// right-aligned columns.
fn tally_and_columns<E>(each: &mut EachRow<'_, E>) -> Result<(Tally, Vec<String>, Vec<bool>), E> {
    let mut t = Tally::default();
    each(&mut |r| {
        t.add(r);
        Ok(())
    })?;
    let Block::Table { header, right, .. } = rows_table(Vec::new()) else {
        unreachable!("the rows' table is a table")
    };
    Ok((t, header, right))
}

/// The acta in Markdown, written to `out` as its rows are read: `each` is called twice (the
/// tally, then the table), so memory holds a row, not the run. The same bytes as
/// `markdown(&markdown_blocks(..))` of the rows all at once.
pub fn write_markdown<E: From<std::io::Error>>(
    out: &mut dyn Write,
    d: &ActaHead<'_>,
    each: &mut EachRow<'_, E>,
) -> Result<(), E> {
    let (t, header, right) = tally_and_columns(each)?;
    let q = &md_text;
    out.write_all(markdown(&head_blocks(d, &t, q)).as_bytes())?;
    out.write_all(md_table_head(&header, &right).as_bytes())?;
    let mut k = 0u64;
    each(&mut |r| {
        out.write_all(md_table_row(&row_cells(k, r, q)).as_bytes())?;
        k += 1;
        Ok(())
    })?;
    out.write_all(b"\n")?;
    out.write_all(markdown(&tail_blocks(d, &t, q)).as_bytes())?;
    Ok(())
}

/// The acta in HTML, written to `out` as its rows are read, as [`write_markdown`] writes
/// Markdown: `each` is called twice (the tally, then the table). The same bytes as
/// `html(&plain_blocks(..), title)` of the rows all at once.
pub fn write_html<E: From<std::io::Error>>(
    out: &mut dyn Write,
    d: &ActaHead<'_>,
    each: &mut EachRow<'_, E>,
) -> Result<(), E> {
    use super::notice::{HTML_CLOSE, HTML_TABLE_END, html_block, html_open, html_table_head};
    let (t, header, right) = tally_and_columns(each)?;
    let q = &|s: &str| s.to_string();
    let (title, _) = pdf_title_and_date(d);
    let mut s = html_open(&title);
    head_blocks(d, &t, q)
        .iter()
        .for_each(|b| html_block(&mut s, b));
    s.push_str(&html_table_head(&header, &right));
    out.write_all(s.as_bytes())?;
    let mut k = 0u64;
    each(&mut |r| {
        let row = super::notice::html_table_row(&row_cells(k, r, q), &right);
        out.write_all(row.as_bytes())?;
        k += 1;
        Ok(())
    })?;
    let mut s = String::from(HTML_TABLE_END);
    tail_blocks(d, &t, q)
        .iter()
        .for_each(|b| html_block(&mut s, b));
    s.push_str(HTML_CLOSE);
    out.write_all(s.as_bytes())?;
    Ok(())
}

/// Why a pass over an acta's rows ended before their end: the writer had read enough (a
/// trial of whether a table fits on a page), or the rows could not be read.
#[derive(Debug)]
pub enum Pass {
    Stopped,
    Failed(String),
}

impl From<crate::store::StoreError> for Pass {
    fn from(e: crate::store::StoreError) -> Pass {
        Pass::Failed(e.to_string())
    }
}

/// The rows of a run handed to a sink, in order, from the first each call, until the sink stops
/// the pass (`Err(Pass::Stopped)`): the PDF acta reads its rows several times.
pub type ReadRows<'a> = dyn Fn(&mut dyn FnMut(&Row) -> Result<(), Pass>) -> Result<(), Pass> + 'a;

/// The acta as a PDF, written to `out` a page at a time: its rows are read once (`rows`), tallied
/// and spooled to a temporary file as their cells (`report::pdf::spool`), and the layout's passes
/// (the table's column widths, then twice its pages: see `report::pdf::stream`) read the spool,
/// so memory holds a page, not the run. The same bytes as [`render`] of the rows all at once;
/// in [`Layout::CURRENT`].
pub fn write_pdf(
    out: &mut dyn Write,
    d: &ActaHead<'_>,
    rows: &ReadRows<'_>,
) -> Result<(), super::pdf::stream::WriteError> {
    let (t, spooled) = spool(rows, &mut |_| {})?;
    let cells = |f: &mut dyn FnMut(&[String]) -> std::ops::ControlFlow<()>| spooled.each(f);
    let items = pdf_items(d, &t, &cells);
    let (title, date) = pdf_title_and_date(d);
    let headings = Layout::CURRENT.keeps_headings();
    super::pdf::stream::write(&items, &title, &number_line(d.run_id), date, headings, out)
}

/// One pass over the rows: their tally, and the table's cells of each spooled (for the PDF,
/// which escapes what it writes itself); `also` sees each row too.
fn spool(
    rows: &ReadRows<'_>,
    also: &mut dyn FnMut(&Row),
) -> Result<(Tally, super::pdf::spool::Spooled), super::pdf::stream::WriteError> {
    use super::pdf::stream::WriteError;
    let mut t = Tally::default();
    let mut s = super::pdf::spool::Spool::new()?;
    rows(&mut |r| {
        also(r);
        s.push(&row_cells(t.rows, r, &|s: &str| s.to_string()))?;
        t.add(r);
        Ok(())
    })
    .map_err(|e| match e {
        Pass::Failed(e) => WriteError::Rows(e),
        Pass::Stopped => WriteError::Rows("the rows stopped unasked".into()),
    })?;
    Ok((t, s.finish()?))
}

/// The PDF acta's items: its blocks, with the table of acceptances read from `cells`.
fn pdf_items<'a>(
    d: &ActaHead<'_>,
    t: &Tally,
    cells: &'a super::pdf::RowSource<'a>,
) -> Vec<super::pdf::Item<'a>> {
    use super::pdf::Item;
    let q = &|s: &str| s.to_string();
    let Block::Table { header, right, .. } = rows_table(Vec::new()) else {
        unreachable!("the rows' table is a table")
    };
    let mut items: Vec<Item<'a>> = head_blocks(d, t, q).into_iter().map(Item::Block).collect();
    items.push(Item::rows(header, right, cells));
    items.extend(tail_blocks(d, t, q).into_iter().map(Item::Block));
    items
}

impl From<std::io::Error> for Pass {
    fn from(e: std::io::Error) -> Pass {
        Pass::Failed(e.to_string())
    }
}

/// A document's lines read from its first each call, as [`NextLine`] hands them out: a PDF is
/// compared with a rendering in each [`Layout`] it may be in, each reading the document again
/// (from its file, a page at a time); an `Err` says why it cannot be read (in English).
pub type OpenLines<'a> = dyn FnMut() -> Result<Box<NextLine<'a>>, String> + 'a;

/// [`check`] with the run's rows read from the register as they are compared (`rows`, a few
/// passes), and the document's lines (`open`) read as they are compared: memory holds a page (a
/// row, for Markdown and HTML) of the fresh rendering and a page or a chunk of the document,
/// not the run. A PDF is compared in each layout until one gives its text, the current one
/// first: the rows are read once for all of them (fingerprinted and spooled), the document
/// once per layout tried, each time to its first difference (an acta of the current layout is
/// read once; one of layout 1 as far as its first moved page break, then whole), and the
/// rendering laid out again from the spool for each. The number of rows, and the mismatch if
/// any (a difference named in the layout that agrees longest, [`LayoutChecks`]); an `Err` when
/// either cannot be read.
pub fn check_streamed(
    d: &ActaHead<'_>,
    rows: &ReadRows<'_>,
    format: Format,
    open: &mut OpenLines<'_>,
) -> Result<(u64, Option<Mismatch>), String> {
    let failed = |e: Pass| match e {
        Pass::Failed(e) => e,
        Pass::Stopped => "the rows stopped unasked".to_string(),
    };
    let mut fp = crate::register::offering::Fingerprint::default();
    fp.header(d.header);
    let mut n = 0u64;
    // a PDF's rows are spooled in the same pass as the fingerprint (its layouts read them a
    // few times each); Markdown reads them twice more from `rows`
    let spooled = if format == Format::Pdf {
        Some(
            spool(rows, &mut |r| {
                fp.row(r);
                n += 1;
            })
            .map_err(|e| e.to_string())?,
        )
    } else {
        rows(&mut |r| {
            fp.row(r);
            n += 1;
            Ok(())
        })
        .map_err(failed)?;
        None
    };
    let recomputed = fp.finish();
    if recomputed != d.fingerprint {
        return Ok((n, Some(Mismatch::Fingerprint { recomputed })));
    }
    let mut checks = LayoutChecks::default();
    for layout in Layout::ALL.into_iter().filter(|l| l.tried_for(format)) {
        let mut lines = open()?;
        let mut lc = LineCheck::new(&mut *lines);
        match (format, &spooled) {
            (Format::Pdf, Some((t, spooled))) => {
                let cells =
                    |f: &mut dyn FnMut(&[String]) -> std::ops::ControlFlow<()>| spooled.each(f);
                let items = pdf_items(d, t, &cells);
                let (title, date) = pdf_title_and_date(d);
                super::pdf::stream::each_page_text(
                    &items,
                    &title,
                    &number_line(d.run_id),
                    date,
                    layout.keeps_headings(),
                    &mut |p| lc.page(p),
                )
                .map_err(|e| e.to_string())?;
            }
            (Format::Md, _) => {
                write_markdown::<Pass>(&mut lc, d, &mut |f| rows(f)).map_err(failed)?
            }
            (Format::Html, _) => {
                let mut html = HtmlLines::new(&mut lc);
                write_html::<Pass>(&mut html, d, &mut |f| rows(f)).map_err(failed)?;
                html.finish();
            }
            (Format::Pdf, None) => unreachable!("a PDF's rows are spooled"),
        }
        if checks.add(lc.finish()?) {
            break;
        }
    }
    Ok((n, checks.difference().map(Mismatch::Text)))
}

/// The PDF acta's title (its metadata) and date (y, m, d).
fn pdf_title_and_date(d: &ActaHead<'_>) -> (String, (i32, u8, u8)) {
    let title = format!("Acta de adjudicación {} N.º {}", d.program.code, d.run_id);
    let day = d.header.adjudicated_on;
    (title, (day.year(), day.month() as u8, day.day() as u8))
}

/// The blocks for HTML and PDF (which escape what they write themselves).
pub fn plain_blocks(d: &ActaData<'_>) -> Vec<Block> {
    blocks(d, &|s| s.to_string())
}

/// The blocks for Markdown: every officer-typed value made inert.
pub fn markdown_blocks(d: &ActaData<'_>) -> Vec<Block> {
    blocks(d, &md_text)
}

// ---------------------------------------------------------------------------- files and their check

/// The formats an acta is written in (`vigia offer acta`, `vigia stage acta`, the web's download).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Pdf,
    Html,
    Md,
}

impl Format {
    /// The register's name for the format (an acta's file is recorded with it).
    pub fn doc_format(self) -> crate::contact::DocFormat {
        match self {
            Format::Pdf => crate::contact::DocFormat::Pdf,
            Format::Html => crate::contact::DocFormat::Html,
            Format::Md => crate::contact::DocFormat::Md,
        }
    }
}

/// The acta's bytes in `format`: what `vigia offer acta` writes and the web serves.
pub fn render(data: &ActaData<'_>, format: Format) -> Vec<u8> {
    render_in(data, format, Layout::CURRENT)
}

/// [`render`] in `layout` (which only a PDF's page breaks show).
pub fn render_in(data: &ActaData<'_>, format: Format, layout: Layout) -> Vec<u8> {
    let (title, date) = pdf_title_and_date(&data.head());
    match format {
        Format::Md => super::notice::markdown(&markdown_blocks(data)).into_bytes(),
        Format::Html => super::notice::html(&plain_blocks(data), &title).into_bytes(),
        Format::Pdf => {
            // the notices' text version 2 keeps a heading with the block after it
            let version = if layout.keeps_headings() { 2 } else { 1 };
            let footer = number_line(data.run_id);
            super::pdf::render_layout(&plain_blocks(data), &title, &footer, date, version)
        }
    }
}

/// A document's format (PDF, HTML or Markdown, from its bytes) and its lines of text, normalized
/// as [`lines_of`] gives a fresh rendering's, each with where a reader finds it; why it cannot
/// be read, in English.
pub fn document_lines(bytes: &[u8]) -> Result<(Format, Placed), String> {
    if bytes.starts_with(b"%PDF-") {
        let pages = super::pdf::extract_page_lines(bytes).map_err(|e| e.to_string())?;
        Ok((Format::Pdf, Placed::of_pages(&pages)))
    } else {
        let s = std::str::from_utf8(bytes)
            .map_err(|_| "neither a PDF nor UTF-8 text (HTML or Markdown)".to_string())?;
        if s.trim_start().starts_with("<!DOCTYPE html") {
            Ok((Format::Html, Placed::of_html(s)))
        } else {
            Ok((Format::Md, Placed::of_file(s)))
        }
    }
}

/// The lines of text of a rendering vigia just made, normalized and placed as
/// [`document_lines`] reads one.
pub fn lines_of(fresh: &[u8], format: Format) -> Result<Placed, String> {
    Ok(match format {
        Format::Pdf => {
            Placed::of_pages(&super::pdf::extract_page_lines(fresh).map_err(|e| e.to_string())?)
        }
        Format::Html => Placed::of_html(std::str::from_utf8(fresh).expect("vigia writes UTF-8")),
        Format::Md => Placed::of_file(std::str::from_utf8(fresh).expect("UTF-8")),
    })
}

/// What checking a document against the program's stored adjudication found, when it is not
/// the acta the register gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// The run's stored outcomes no longer give the fingerprint the run recorded: the register
    /// itself needs review, whatever the document says.
    Fingerprint { recomputed: String },
    /// The document's text departs from the acta rendered again in its format.
    Text(Difference),
}

/// Checks a document's `lines` (read by [`document_lines`] in `format`) against the stored run
/// `r` of `program`, as `vigia offer verify` and the web's verification do: the run's outcomes
/// must still give its fingerprint, and the text must be the acta rendered again, in one of the
/// layouts it may be in (the current one first; a difference named in the layout that agrees
/// longest). `None` when it matches; an `Err` when a fresh rendering cannot be read back.
pub fn check(
    program: &Program,
    r: &crate::register::offering::StoredResult,
    format: Format,
    lines: &Placed,
) -> Result<Option<Mismatch>, String> {
    if r.recomputed != r.run.fingerprint {
        return Ok(Some(Mismatch::Fingerprint {
            recomputed: r.recomputed.clone(),
        }));
    }
    let data = ActaData {
        program,
        run_id: r.run.id,
        fingerprint: &r.run.fingerprint,
        header: &r.header,
        rows: &r.rows,
    };
    let mut checks = LayoutChecks::default();
    for layout in Layout::ALL.into_iter().filter(|l| l.tried_for(format)) {
        let fresh = lines_of(&render_in(&data, format, layout), format)?;
        if checks.add(first_difference(lines, &fresh)) {
            break;
        }
    }
    Ok(checks.difference().map(Mismatch::Text))
}

/// The first-stage acta's title, its first line in every format.
pub const TITLE: &str = "Acta de adjudicación de la Primera Etapa";

/// The program code an acta names on its `Programa: CODE` line.
pub fn program_code(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|l| {
        l.strip_prefix("Programa: ")?
            .split_whitespace()
            .next()
            .map(str::to_string)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{DECRETO_3939_2004, Program};

    fn row(name: &str, awarded: u64, cap_rule: Option<&str>, cause: Option<&'static str>) -> Row {
        Row {
            doc_type: "CC".into(),
            doc_number: "1000000001".into(),
            name: name.into(),
            requested: 40,
            cap_shares: cap_rule.map(|_| 30),
            cap_rule: cap_rule.map(str::to_string),
            admitted: if cause.is_some() { 0 } else { 30 },
            quota: Some("12 + 1/3".into()),
            awarded,
            status: if cause.is_some() {
                Status::Rejected
            } else {
                Status::Awarded
            },
            cause,
        }
    }

    /// `doc`'s lines handed out from the first at each opening, as [`OpenLines`].
    fn opened<'a>(doc: &'a [String]) -> impl FnMut() -> Result<Box<NextLine<'a>>, String> + 'a {
        move || Ok(Box::new(lines_from(doc)))
    }

    /// The header of the tests' runs: 100 shares offered, 130 asked, prorated.
    fn test_header() -> Header {
        Header {
            program: "D3939-2004".into(),
            program_sha256: "00".into(),
            opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
            closes: NaiveDate::from_ymd_opt(2024, 3, 8).unwrap(),
            adjudicated_on: NaiveDate::from_ymd_opt(2024, 3, 15).unwrap(),
            offered: 100,
            demand: 130,
            awarded: 100,
            leftover: 0,
            oversubscribed: true,
            rule: "proportional",
        }
    }

    #[test]
    fn the_streamed_markdown_acta_is_the_acta_of_the_rows_at_once() {
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let header = test_header();
        // limits given in another order than byte order, one twice; a cause; a name with the
        // table's separator, which Markdown escapes; a person with nothing in the proration
        let rows = [
            row("Ana | Gómez", 12, Some("regla B"), None),
            row("Luis", 0, None, Some("LATE")),
            row("Eva", 0, Some("regla A"), None),
            row("Juan", 88, Some("regla B"), None),
        ];
        let data = ActaData {
            program: &program,
            run_id: 3,
            fingerprint: "ab12",
            header: &header,
            rows: &rows,
        };
        let whole = markdown(&markdown_blocks(&data));
        let mut streamed = Vec::new();
        let mut calls = 0;
        write_markdown::<std::io::Error>(&mut streamed, &data.head(), &mut |f| {
            calls += 1;
            rows.iter().try_for_each(&mut *f)
        })
        .unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        assert_eq!(
            calls, 2,
            "the rows are read twice: the tally, then the table"
        );
        // what the tally decided is in the acta: counts, limits in byte order, the cause
        assert!(
            whole.contains("Aceptantes: 4; con adjudicación: 2; rechazados: 1."),
            "{whole}"
        );
        assert!(whole.contains("por defecto): regla A; regla B."), "{whole}");
        assert!(whole.contains("| LATE |"), "{whole}");
        assert!(whole.contains("Ana \\| Gómez"), "{whole}");
    }

    #[test]
    fn the_streamed_html_acta_is_the_acta_of_the_rows_at_once() {
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let header = test_header();
        // a name with markup, which HTML escapes
        let rows = [
            row("Ana <b>Gómez</b> & Cía", 12, Some("regla B"), None),
            row("Luis", 0, None, Some("LATE")),
        ];
        let data = ActaData {
            program: &program,
            run_id: 3,
            fingerprint: "ab12",
            header: &header,
            rows: &rows,
        };
        let whole = render(&data, Format::Html);
        let mut streamed = Vec::new();
        let mut calls = 0;
        write_html::<std::io::Error>(&mut streamed, &data.head(), &mut |f| {
            calls += 1;
            rows.iter().try_for_each(&mut *f)
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            String::from_utf8(whole.clone()).unwrap()
        );
        assert_eq!(
            calls, 2,
            "the rows are read twice: the tally, then the table"
        );
        let whole = String::from_utf8(whole).unwrap();
        assert!(
            whole.contains("Ana &lt;b&gt;Gómez&lt;/b&gt; &amp; Cía"),
            "{whole}"
        );
        assert!(whole.ends_with("</body>\n</html>\n"), "{whole}");
    }

    #[test]
    fn the_streamed_check_finds_what_the_check_of_the_whole_rendering_finds() {
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let header = Header {
            program: "D3939-2004".into(),
            program_sha256: "00".into(),
            opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
            closes: NaiveDate::from_ymd_opt(2024, 3, 8).unwrap(),
            adjudicated_on: NaiveDate::from_ymd_opt(2024, 3, 15).unwrap(),
            offered: 100,
            demand: 130,
            awarded: 100,
            leftover: 0,
            oversubscribed: false,
            rule: "proportional",
        };
        let rows: Vec<Row> = (0..120)
            .map(|i| {
                row(
                    &format!("Persona {i}"),
                    3,
                    None,
                    (i % 7 == 0).then_some("LATE"),
                )
            })
            .collect();
        let mut fp = crate::register::offering::Fingerprint::default();
        fp.header(&header);
        rows.iter().for_each(|r| fp.row(r));
        let fingerprint = fp.finish();
        let data = ActaData {
            program: &program,
            run_id: 4,
            fingerprint: &fingerprint,
            header: &header,
            rows: &rows,
        };
        let read = |f: &mut dyn FnMut(&Row) -> Result<(), Pass>| rows.iter().try_for_each(f);
        for format in [Format::Pdf, Format::Md] {
            let fresh = lines_of(&render(&data, format), format).unwrap().lines;
            assert!(fresh.len() > 120, "{format:?}: {} lines", fresh.len());
            assert_eq!(
                check_streamed(&data.head(), &read, format, &mut opened(&fresh)).unwrap(),
                (120, None),
                "{format:?}"
            );
            // a line changed, a line missing at the end, a line more: what the whole check says
            let mut changed = fresh.clone();
            changed[40].push_str(" 1");
            let mut short = fresh.clone();
            short.pop();
            let mut long = fresh.clone();
            long.push("Otra línea".into());
            let fresh = Placed::counted(fresh);
            for doc in [changed, short, long] {
                let placed = Placed::counted(doc.clone());
                let want = first_difference(&placed, &fresh).map(Mismatch::Text);
                assert!(want.is_some());
                assert_eq!(
                    first_difference_streamed(&mut lines_from(&doc), &fresh).unwrap(),
                    first_difference(&placed, &fresh)
                );
                assert_eq!(
                    check_streamed(&data.head(), &read, format, &mut opened(&doc)).unwrap(),
                    (120, want),
                    "{format:?}"
                );
            }
        }
        // a stored row changed since the run: the fingerprint, whatever the text
        let mut other = rows.clone();
        other[3].awarded += 1;
        let read = |f: &mut dyn FnMut(&Row) -> Result<(), Pass>| other.iter().try_for_each(f);
        let (_, found) =
            check_streamed(&data.head(), &read, Format::Pdf, &mut opened(&[])).unwrap();
        assert!(
            matches!(found, Some(Mismatch::Fingerprint { .. })),
            "{found:?}"
        );
    }

    #[test]
    fn the_streamed_pdf_acta_is_the_acta_of_the_rows_at_once() {
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        let header = test_header();
        // enough rows for several pages of the table, some names long enough to wrap
        let rows: Vec<Row> = (0..260)
            .map(|i| {
                let name = format!("Persona {i} {}", "de Tal ".repeat(i % 9));
                match i % 5 {
                    0 => row(&name, 0, None, Some("LATE")),
                    1 => row(&name, 7, Some("regla B"), None),
                    _ => row(&name, 12, None, None),
                }
            })
            .collect();
        let data = ActaData {
            program: &program,
            run_id: 3,
            fingerprint: "ab12",
            header: &header,
            rows: &rows,
        };
        let whole = render(&data, Format::Pdf);
        let passes = std::cell::Cell::new(0);
        let mut streamed = Vec::new();
        write_pdf(&mut streamed, &data.head(), &|f| {
            passes.set(passes.get() + 1);
            rows.iter().try_for_each(&mut *f)
        })
        .unwrap();
        let pages = crate::report::pdf::extract_pages(&whole).unwrap().len();
        assert!(pages > 5, "{pages} pages");
        assert!(streamed == whole, "the streamed PDF acta differs");
        // the rows are read once (tallied and spooled); the layout's passes read the spool
        assert_eq!(passes.get(), 1, "{} passes over the rows", passes.get());
        // a pass that fails is the writer's error, nothing said to have worked
        let failed = write_pdf(&mut Vec::new(), &data.head(), &|_| {
            Err(Pass::Failed("disco lleno".into()))
        });
        assert!(
            matches!(failed, Err(crate::report::pdf::stream::WriteError::Rows(e)) if e == "disco lleno")
        );
    }

    /// A PDF of layout 1 (whose first page ended on the heading above the table of
    /// acceptances, as the demo's did) verifies against layout 1, the document read once more;
    /// a PDF of layout 2 and a Markdown acta are read once; a figure changed below the moved
    /// page break is named in layout 1, which agrees with the document longest.
    #[test]
    fn a_pdf_of_layout_1_verifies_read_once_more_and_its_difference_is_named_in_layout_1() {
        let program = Program::from_toml(DECRETO_3939_2004).unwrap();
        // the demo's run: its head fills the first page down to the heading
        let header = Header {
            program: "D3939-2004".into(),
            program_sha256: "00".into(),
            opens: NaiveDate::from_ymd_opt(2024, 1, 2).unwrap(),
            closes: NaiveDate::from_ymd_opt(2024, 3, 8).unwrap(),
            adjudicated_on: NaiveDate::from_ymd_opt(2024, 3, 15).unwrap(),
            offered: 12_960_982,
            demand: 74_300,
            awarded: 74_300,
            leftover: 12_886_682,
            oversubscribed: false,
            rule: "nearest-adjust",
        };
        // a limit applied: its paragraph stands between the table and the signature, which
        // otherwise takes the table and the paragraph above the heading onto its page
        let rows: Vec<Row> = (0..12)
            .map(|i| row(&format!("Persona {i}"), 30, Some("regla A"), None))
            .collect();
        let mut fp = crate::register::offering::Fingerprint::default();
        fp.header(&header);
        rows.iter().for_each(|r| fp.row(r));
        let fingerprint = fp.finish();
        let data = ActaData {
            program: &program,
            run_id: 1,
            fingerprint: &fingerprint,
            header: &header,
            rows: &rows,
        };
        let pdf = |layout| {
            lines_of(&render_in(&data, Format::Pdf, layout), Format::Pdf)
                .unwrap()
                .lines
        };
        let (old, new) = (pdf(Layout::HeadingsAlone), pdf(Layout::HeadingsKept));
        let heading = old
            .iter()
            .position(|l| l == "4. Aceptaciones y su resultado");
        assert!(
            heading.is_some_and(|k| old[k + 1].contains("Página 1 de")),
            "layout 1 ends page 1 on the heading: {old:?}"
        );
        assert_ne!(old, new);
        let read = |f: &mut dyn FnMut(&Row) -> Result<(), Pass>| rows.iter().try_for_each(f);
        let check = |doc: &[String], format| {
            let opened = std::cell::Cell::new(0);
            let mut open = || {
                opened.set(opened.get() + 1);
                Ok(Box::new(lines_from(doc)) as Box<NextLine<'_>>)
            };
            let found = check_streamed(&data.head(), &read, format, &mut open).unwrap();
            (found, opened.get())
        };
        assert_eq!(check(&new, Format::Pdf), ((12, None), 1));
        assert_eq!(check(&old, Format::Pdf), ((12, None), 2));
        let md = lines_of(&render(&data, Format::Md), Format::Md)
            .unwrap()
            .lines;
        assert_eq!(check(&md, Format::Md), ((12, None), 1));
        // a figure of the last row changed in the PDF of layout 1: layout 2 departs where
        // the heading moved, layout 1 at the row
        let last = old.iter().rposition(|l| l.contains("Persona 11")).unwrap();
        let mut forged = old.clone();
        forged[last] = forged[last].replacen("40", "41", 1);
        assert_ne!(forged, old);
        let placed = Placed::counted(forged.clone());
        let want = first_difference(&placed, &Placed::counted(old.clone()));
        assert!(
            matches!(&want, Some(Difference::Line { nth, .. }) if *nth == last + 1),
            "{want:?}"
        );
        assert!(first_difference(&placed, &Placed::counted(new)) != want);
        assert_eq!(
            check(&forged, Format::Pdf),
            ((12, want.map(Mismatch::Text)), 2)
        );
    }
}
