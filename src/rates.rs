//! The certified rate series (SFC interés bancario corriente and the maximum moratorium rate,
//! C.Co. Art. 884): parsing and validating the CSV, the rate in force on a day, and splitting an
//! accrual span at every rate change. Parses text it is given; reading files is the caller's job.

use crate::exact;
use crate::lang::{Lang, Said, fecha};
use crate::said;
use chrono::{Days, NaiveDate};
use rust_decimal::Decimal;
use std::fmt;

/// The SFC series shipped with the binary (see `schema/rates/README.md` for its provenance).
pub const SHIPPED_CSV: &str = include_str!("../schema/rates/ibc_consumo_ordinario.csv");
/// Name under which the shipped series is reported.
pub const SHIPPED_NAME: &str = "schema/rates/ibc_consumo_ordinario.csv (embedded)";
/// Name under which the register's series is reported: the shipped one plus the periods added
/// to the register, minus what was superseded (`store::rates::series`).
pub const REGISTER_SERIES: &str = "embedded SFC series + register additions";

/// Where a series came from, read from its source name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin<'a> {
    /// The series vigia carries.
    Shipped,
    /// The register's: the shipped series with the periods added to it.
    Register,
    /// A rates file the caller gave (its path).
    File(&'a str),
}

impl<'a> Origin<'a> {
    pub fn of(source: &'a str) -> Origin<'a> {
        match source {
            SHIPPED_NAME => Origin::Shipped,
            REGISTER_SERIES => Origin::Register,
            file => Origin::File(file),
        }
    }
}

/// A series' source as a Spanish reader knows it ("serie certificada…", "archivo tasas.csv"):
/// the one home of these words (liquidations, messages, refusals, the Consulta sheet).
pub fn source_es(source: &str) -> String {
    match Origin::of(source) {
        Origin::Shipped => {
            "serie certificada por la Superintendencia Financiera incluida en vigia".to_string()
        }
        Origin::Register => "serie certificada por la Superintendencia Financiera incluida en \
             vigia, con los períodos agregados al registro"
            .to_string(),
        Origin::File(file) => format!("archivo {file}"),
    }
}

/// [`source_es`] with its article: "la serie…", "el archivo…".
pub fn source_es_the(source: &str) -> String {
    let article = match Origin::of(source) {
        Origin::File(_) => "el",
        Origin::Shipped | Origin::Register => "la",
    };
    format!("{article} {}", source_es(source))
}

/// A period's resolution as a Spanish reader reads it: the register keeps the citation as the
/// series gives it (`SB Res. 0244 de 2005 modified by Res. 0266 (date given as 2005-02-01)`,
/// part of what a stored liquidation fingerprints), and Spanish outputs show it
/// `SB Res. 0244 de 2005 modificada por Res. 0266 (fecha dada como 01/02/2005)`. The one home
/// of these words; a citation an officer typed in Spanish comes back unchanged but for its dates.
pub fn resolution_es(resolution: &str) -> String {
    let worded = resolution
        .replace(" modified by ", " modificada por ")
        .replace("(date given as ", "(fecha dada como ");
    crate::lang::iso_dates_to_short(&worded)
}

/// Believable certified IBC, % EA: at least 1 and below 100. Colombian IBC peaked near 50 % in
/// the late 1990s and has not been below 10 % since 1999; a figure below 1 is a fraction typed as
/// a percent (0.189 for 18.9 %).
const IBC_PCT: (i64, i64) = (1, 100);
/// Believable moratorium / usury rate, % EA (1.5 × the IBC range).
const MORATORIUM_PCT: (i64, i64) = (1, 150);
/// A change of more than this many points of IBC from one period to the next is worth a second
/// look (a warning, never a refusal: the shipped series has three, e.g. April 1999 and the 2007
/// change of modality).
const JUMP_POINTS: i64 = 5;
/// Allowed distance, in percentage points, between a printed usury figure and 1.5 × IBC
/// (sources print rounded figures: e.g. 29.24 for 1.5 × 19.49 = 29.235).
const USURY_TOLERANCE: (i64, u32) = (5, 2); // 0.05

/// One certification period.
#[derive(Debug, Clone, PartialEq)]
pub struct RatePeriod {
    pub valid_from: NaiveDate,
    /// Inclusive.
    pub valid_to: NaiveDate,
    /// Interés bancario corriente, % EA, if the source gives it.
    pub ibc_ea_pct: Option<Decimal>,
    /// Usury ceiling (= maximum moratorium rate), % EA, if the source gives it.
    pub usury_ea_pct: Option<Decimal>,
    /// Certifying resolution, as the source names it.
    pub resolution: String,
    /// Line in the source file (1-based; 0 when it did not come from a file).
    pub line: usize,
    moratorium_ea_pct: Decimal,
    ln_one_plus_ea: Decimal,
    daily_rate: Decimal,
}

impl RatePeriod {
    /// Builds a period; at least one of `ibc_ea_pct` and `usury_ea_pct` must be given and the
    /// moratorium rate must be positive.
    pub fn new(
        valid_from: NaiveDate,
        valid_to: NaiveDate,
        ibc_ea_pct: Option<Decimal>,
        usury_ea_pct: Option<Decimal>,
        resolution: String,
        line: usize,
    ) -> Option<RatePeriod> {
        // SPEC §5: the usury figure when the source gives it, else 1.5 × IBC exactly.
        let moratorium_ea_pct = match (usury_ea_pct, ibc_ea_pct) {
            (Some(u), _) => u,
            (None, Some(i)) => i * Decimal::new(15, 1),
            (None, None) => return None,
        };
        if moratorium_ea_pct <= Decimal::ZERO {
            return None;
        }
        let ln_one_plus_ea = exact::ln(Decimal::ONE + moratorium_ea_pct / Decimal::ONE_HUNDRED)?;
        Some(RatePeriod {
            valid_from,
            valid_to,
            ibc_ea_pct,
            usury_ea_pct,
            resolution,
            line,
            moratorium_ea_pct,
            ln_one_plus_ea,
            daily_rate: exact::growth_from_log(ln_one_plus_ea, 1),
        })
    }

    /// Maximum legal moratorium rate, % EA.
    pub fn moratorium_ea_pct(&self) -> Decimal {
        self.moratorium_ea_pct
    }

    /// `(1 + EA)^(1/365) − 1`, to about 25 significant digits.
    pub fn daily_rate(&self) -> Decimal {
        self.daily_rate
    }

    /// `(1 + EA)^(days/365) − 1`.
    pub fn growth(&self, days: i64) -> Decimal {
        if days == 1 {
            self.daily_rate
        } else {
            exact::growth_from_log(self.ln_one_plus_ea, days)
        }
    }

    pub fn covers(&self, d: NaiveDate) -> bool {
        self.valid_from <= d && d <= self.valid_to
    }
}

/// A sorted, non-overlapping set of certification periods (gaps allowed: a span that needs a
/// missing day fails with [`MissingRates`]).
#[derive(Debug, Clone)]
pub struct RateSeries {
    periods: Vec<RatePeriod>,
    source: String,
}

/// A problem found in a rates file (or a period typed in a form), with the line it was found
/// on; said in English and Spanish (Spanish writes dates dd/mm/aaaa and rates with a decimal
/// comma: 27,90 %).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: Said,
    pub kind: Kind,
}

/// How much a [`Problem`] stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The file cannot be used.
    Error,
    /// Days without a rate: the file is still usable for spans that avoid them.
    Gap,
    /// A usury figure more than 0.05 points from 1.5 × IBC: an error, unless the person adding
    /// the period says why (`RateSeries::from_csv_forced`).
    UsuryRatio,
    /// A change of more than 5 points of IBC from the period before: a warning only.
    Jump,
}

impl Problem {
    /// Whether the problem stops the file's use (`forced`: a usury figure was confirmed).
    pub fn is_fatal(&self, forced: bool) -> bool {
        match self.kind {
            Kind::Error => true,
            Kind::UsuryRatio => !forced,
            Kind::Gap | Kind::Jump => false,
        }
    }
}

impl Problem {
    /// The problem as one line in `lang`: `line 4: ...` (the command line's), `línea 4: ...`.
    pub fn in_lang(&self, lang: Lang) -> String {
        let (line, warning) = match lang {
            Lang::En => ("line", "warning: "),
            Lang::Es => ("línea", "advertencia: "),
        };
        let warning = if self.kind == Kind::Jump { warning } else { "" };
        format!(
            "{line} {}: {warning}{}",
            self.line,
            self.message.in_lang(lang)
        )
    }
}

/// In English, the command line's language.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

/// A rates file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidRates {
    pub source: String,
    pub problems: Vec<Problem>,
}

impl fmt::Display for InvalidRates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = &self.problems[0];
        write!(f, "rates file {}: {}", self.source, first)?;
        if self.problems.len() > 1 {
            // how to list them all is the front end's to say (the CLI: `vigia rates check FILE`)
            write!(f, " (and {} more problem(s))", self.problems.len() - 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidRates {}

/// Days of an accrual span with no certified rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingRates {
    /// Inclusive ranges of uncovered days.
    pub ranges: Vec<(NaiveDate, NaiveDate)>,
    pub source: String,
}

impl fmt::Display for MissingRates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ranges: Vec<String> = self
            .ranges
            .iter()
            .map(|(a, b)| format_range(*a, *b))
            .collect();
        write!(
            f,
            "no certified moratorium rate for {} in {}; add the SFC certification for those dates to a rates CSV \
             (header valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution)",
            ranges.join(", "),
            self.source
        )
    }
}

impl std::error::Error for MissingRates {}

fn format_range(a: NaiveDate, b: NaiveDate) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}..{b}")
    }
}

/// [`format_range`] in Spanish: `el 01/03/2030`, `del 01/03/2030 al 30/06/2030`.
fn rango(a: NaiveDate, b: NaiveDate) -> String {
    if a == b {
        format!("el {}", fecha(a))
    } else {
        format!("del {} al {}", fecha(a), fecha(b))
    }
}

/// A rate as Spanish writes it, with a decimal comma and its own decimals: `27,90 %`.
fn tasa(r: Decimal) -> String {
    crate::money::format_percent(r)
}

/// A value typed in a column, in Spanish: a number with a decimal comma (`0,189`), anything
/// else as it was typed.
fn typed_es(s: &str) -> String {
    match crate::money::parse_decimal(s) {
        Ok(d) => d.to_string().replace('.', ","),
        Err(_) => s.to_string(),
    }
}

/// A period's value as a Spanish sentence names it: what it is, then where it was written
/// (`shown`: a rates file's column or the flag it was typed in). `column` is its rates file's
/// column.
fn column_es(column: &str, shown: &str) -> String {
    let name = match column {
        "valid_from" => "la fecha «desde»",
        "valid_to" => "la fecha «hasta»",
        "ibc_ea_pct" => "el interés bancario corriente",
        "usury_ea_pct" => "la tasa de usura",
        _ => return shown.to_string(),
    };
    format!("{name} ({shown})")
}

/// What a period's values are called where they were written, for a refusal to name them: a
/// rates file's columns ([`Names::COLUMNS`]), or the flags a person typed them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    pub valid_from: &'static str,
    pub valid_to: &'static str,
    pub ibc_ea_pct: &'static str,
    pub usury_ea_pct: &'static str,
}

impl Names {
    /// A rates file's columns.
    pub const COLUMNS: Names = Names {
        valid_from: "valid_from",
        valid_to: "valid_to",
        ibc_ea_pct: "ibc_ea_pct",
        usury_ea_pct: "usury_ea_pct",
    };
}

/// One certified period as a person typed it (a form, `vigia rates add`).
#[derive(Debug, Clone, Copy)]
pub struct Typed<'a> {
    pub valid_from: NaiveDate,
    pub valid_to: NaiveDate,
    pub ibc_ea_pct: Decimal,
    pub usury_ea_pct: Option<Decimal>,
    pub resolution: &'a str,
}

/// A stretch of consecutive days under one certification period.
#[derive(Debug, Clone, Copy)]
pub struct Segment<'a> {
    /// First day of the stretch (inclusive).
    pub first: NaiveDate,
    /// Last day of the stretch (inclusive).
    pub last: NaiveDate,
    pub period: &'a RatePeriod,
}

impl Segment<'_> {
    pub fn days(&self) -> i64 {
        (self.last - self.first).num_days() + 1
    }
}

impl RateSeries {
    /// The series shipped with the binary (parsed once per process: its text is the binary's, and
    /// parsing derives each period's daily rates exactly, which every liquidation used to redo).
    pub fn shipped() -> RateSeries {
        static SHIPPED: std::sync::OnceLock<RateSeries> = std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                RateSeries::from_csv(SHIPPED_CSV, SHIPPED_NAME)
                    .expect("the shipped rate series is valid")
            })
            .clone()
    }

    /// Parses and validates a rates CSV; fails on any problem but gaps and warnings.
    pub fn from_csv(text: &str, source: &str) -> Result<RateSeries, InvalidRates> {
        RateSeries::parse(text, source, false, Names::COLUMNS)
    }

    /// Like [`RateSeries::from_csv`], but a usury figure that is not 1.5 × IBC is accepted: the
    /// person adding it has confirmed it against the resolution and said why.
    pub fn from_csv_forced(text: &str, source: &str) -> Result<RateSeries, InvalidRates> {
        RateSeries::parse(text, source, true, Names::COLUMNS)
    }

    /// One certified period typed by a person (a form, `vigia rates add`), held to the same
    /// checks as a row of a rates file, its problems naming the file's columns; `forced` as in
    /// [`RateSeries::from_csv_forced`].
    pub fn typed_period(
        valid_from: NaiveDate,
        valid_to: NaiveDate,
        ibc_ea_pct: Decimal,
        usury_ea_pct: Option<Decimal>,
        resolution: &str,
        source: &str,
        forced: bool,
    ) -> Result<RatePeriod, InvalidRates> {
        let typed = Typed {
            valid_from,
            valid_to,
            ibc_ea_pct,
            usury_ea_pct,
            resolution,
        };
        RateSeries::typed(typed, Names::COLUMNS, source, forced)
    }

    /// [`RateSeries::typed_period`], its problems naming each value as `names` says (the
    /// flags it was typed in): read as a row of a rates file by the same reader.
    pub fn typed(
        t: Typed<'_>,
        names: Names,
        source: &str,
        forced: bool,
    ) -> Result<RatePeriod, InvalidRates> {
        let line = format!(
            "valid_from,valid_to,ibc_ea_pct,usury_ea_pct,resolution\n{},{},{},{},\"{}\"\n",
            t.valid_from,
            t.valid_to,
            t.ibc_ea_pct,
            t.usury_ea_pct.map(|u| u.to_string()).unwrap_or_default(),
            t.resolution.replace('"', "'")
        );
        let series = RateSeries::parse(&line, source, forced, names)?;
        Ok(series.periods()[0].clone())
    }

    fn parse(
        text: &str,
        source: &str,
        forced: bool,
        names: Names,
    ) -> Result<RateSeries, InvalidRates> {
        let (periods, problems) = parse(text, names);
        let fatal: Vec<Problem> = problems
            .into_iter()
            .filter(|p| p.is_fatal(forced))
            .collect();
        if !fatal.is_empty() {
            return Err(InvalidRates {
                source: source.to_string(),
                problems: fatal,
            });
        }
        Ok(RateSeries {
            periods,
            source: source.to_string(),
        })
    }

    /// Builds a series from periods already validated elsewhere (e.g. the register).
    /// Fails on overlaps, reported with each period's `line`.
    pub fn from_periods(
        mut periods: Vec<RatePeriod>,
        source: &str,
    ) -> Result<RateSeries, InvalidRates> {
        periods.sort_by_key(|p| p.valid_from);
        let problems: Vec<Problem> = sequence_problems(&periods)
            .into_iter()
            .filter(|p| p.kind == Kind::Error)
            .collect();
        if !problems.is_empty() {
            return Err(InvalidRates {
                source: source.to_string(),
                problems,
            });
        }
        Ok(RateSeries {
            periods,
            source: source.to_string(),
        })
    }

    pub fn periods(&self) -> &[RatePeriod] {
        &self.periods
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The period in force on `d`, if any.
    pub fn period_on(&self, d: NaiveDate) -> Option<&RatePeriod> {
        let i = match self.periods.binary_search_by_key(&d, |p| p.valid_from) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let p = &self.periods[i];
        p.covers(d).then_some(p)
    }

    /// Splits the days `after < d <= through` into stretches under one period each, in order.
    /// Fails naming every uncovered day range.
    pub fn segments(
        &self,
        after: NaiveDate,
        through: NaiveDate,
    ) -> Result<Vec<Segment<'_>>, MissingRates> {
        let mut out = Vec::new();
        let mut missing: Vec<(NaiveDate, NaiveDate)> = Vec::new();
        let mut day = match after.checked_add_days(Days::new(1)) {
            Some(d) => d,
            None => return Ok(out),
        };
        // Index of the first period that could cover `day`.
        let mut i = match self.periods.binary_search_by_key(&day, |p| p.valid_from) {
            Ok(i) => i,
            Err(0) => 0,
            Err(i) => i - 1,
        };
        while day <= through {
            while i < self.periods.len() && self.periods[i].valid_to < day {
                i += 1;
            }
            let next_start = self.periods.get(i).map(|p| p.valid_from);
            match self.periods.get(i) {
                Some(p) if p.covers(day) => {
                    let last = p.valid_to.min(through);
                    out.push(Segment {
                        first: day,
                        last,
                        period: p,
                    });
                    day = last.succ_opt().unwrap_or(last);
                    if last == through {
                        break;
                    }
                }
                _ => {
                    // Uncovered until the next period starts, or to the end of the span.
                    let last = match next_start {
                        Some(s) if s <= through => s.pred_opt().unwrap_or(s),
                        _ => through,
                    };
                    missing.push((day, last));
                    if last == through {
                        break;
                    }
                    day = last.succ_opt().unwrap_or(last);
                }
            }
        }
        if missing.is_empty() {
            Ok(out)
        } else {
            Err(MissingRates {
                ranges: missing,
                source: self.source.clone(),
            })
        }
    }

    /// First and last covered day.
    pub fn coverage(&self) -> Option<(NaiveDate, NaiveDate)> {
        Some((
            self.periods.first()?.valid_from,
            self.periods.last()?.valid_to,
        ))
    }
}

/// Every problem in a rates CSV, gaps and warnings included, in line order (for `vigia rates
/// check`).
pub fn check_csv(text: &str) -> Vec<Problem> {
    parse(text, Names::COLUMNS).1
}

/// Warnings about `period` next to the periods of `series` before and after it (for a period
/// added to the register): a change of more than 5 points of IBC.
pub fn jumps_around(series: &RateSeries, period: &RatePeriod) -> Vec<Jump> {
    let before = period
        .valid_from
        .pred_opt()
        .and_then(|d| series.period_on(d));
    let after = period.valid_to.succ_opt().and_then(|d| series.period_on(d));
    [before.map(|b| (b, period)), after.map(|a| (period, a))]
        .into_iter()
        .flatten()
        .filter_map(|(a, b)| jump(a, b))
        .collect()
}

/// The IBC of a period, or the one its usury figure implies.
fn ibc_of(p: &RatePeriod) -> Decimal {
    p.ibc_ea_pct
        .unwrap_or_else(|| p.moratorium_ea_pct / Decimal::new(15, 1))
}

/// A change of more than [`JUMP_POINTS`] points of IBC from one period to the next: a warning,
/// never a refusal. Said in English through `Display`, in either language through [`Jump::said`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jump {
    /// The earlier period's first and last day.
    pub before: (NaiveDate, NaiveDate),
    /// Its IBC (or the one its usury figure implies), % EA.
    pub before_ibc: Decimal,
    /// The later period's first and last day.
    pub after: (NaiveDate, NaiveDate),
    pub after_ibc: Decimal,
}

impl Jump {
    /// The change in points, without its sign.
    pub fn points(&self) -> Decimal {
        (self.after_ibc - self.before_ibc).abs()
    }

    /// The warning in English and Spanish.
    pub fn said(&self) -> crate::lang::Said {
        use crate::lang::fecha;
        use crate::money::{format_number, format_percent, two_or_more_decimals};
        let ((a_from, a_to), (b_from, b_to)) = (self.before, self.after);
        let up = self.after_ibc > self.before_ibc;
        // the rates as certified, with at least two decimals (19,00; 32,985, never rounded to
        // 32,98) and their exact difference
        let (x, y, points) = (
            two_or_more_decimals(self.before_ibc),
            two_or_more_decimals(self.after_ibc),
            self.points().normalize(),
        );
        crate::lang::Said::new(
            format!(
                "IBC {y} % EA for {b_from}..{b_to} is {points} points {} the {x} % EA of \
                 {a_from}..{a_to}; check it against the SFC resolution",
                if up { "above" } else { "below" },
            ),
            format!(
                "el IBC de {} EA del {} al {} está {} puntos {} del {} EA del {} al {}; compruébelo con \
                 la resolución de la Superintendencia Financiera",
                format_percent(y),
                fecha(b_from),
                fecha(b_to),
                format_number(points),
                if up { "por encima" } else { "por debajo" },
                format_percent(x),
                fecha(a_from),
                fecha(a_to),
            ),
        )
    }
}

/// In English.
impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.said().en())
    }
}

/// The jump from `a` to the adjacent `b`, if the IBC changes by more than [`JUMP_POINTS`].
fn jump(a: &RatePeriod, b: &RatePeriod) -> Option<Jump> {
    let (x, y) = (ibc_of(a), ibc_of(b));
    ((y - x).abs() > Decimal::from(JUMP_POINTS)).then_some(Jump {
        before: (a.valid_from, a.valid_to),
        before_ibc: x,
        after: (b.valid_from, b.valid_to),
        after_ibc: y,
    })
}

const REQUIRED: [&str; 4] = ["valid_from", "valid_to", "ibc_ea_pct", "usury_ea_pct"];

/// The periods of a rates file and its problems, each value named as `names` says.
fn parse(text: &str, names: Names) -> (Vec<RatePeriod>, Vec<Problem>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut problems = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            problems.push(problem(1, said!(rates::cannot_read_header, e)));
            return (Vec::new(), problems);
        }
    };
    let col = |name: &str| headers.iter().position(|h| h == name);
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|n| col(n).is_none())
        .collect();
    if !missing.is_empty() {
        let missing = missing.join(", ");
        problems.push(problem(
            1,
            said!(rates::header_lacks_column_s_header_must, missing),
        ));
        return (Vec::new(), problems);
    }
    let (c_from, c_to, c_ibc, c_usury) = (
        col("valid_from").unwrap_or(0),
        col("valid_to").unwrap_or(1),
        col("ibc_ea_pct").unwrap_or(2),
        col("usury_ea_pct").unwrap_or(3),
    );
    let c_res = col("resolution");
    let mut periods = Vec::new();
    // lines as an editor numbers them: SFC-style files are CRLF
    let mut lines = crate::text::Lines::new(text);
    let mut record = csv::StringRecord::new();
    let mut rows = 0;
    loop {
        let at = reader.position().byte();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = lines.start(e.position().map_or(at, csv::Position::byte)).1;
                problems.push(problem(line, said!(rates::unreadable_row, e)));
                continue;
            }
        }
        let line = lines
            .start(record.position().map_or(at, csv::Position::byte))
            .1;
        if record.iter().all(str::is_empty) {
            continue;
        }
        rows += 1;
        let field = |i: usize| record.get(i).unwrap_or("");
        let before = problems.len();
        let n = &names;
        let from = parse_date(
            field(c_from),
            ("valid_from", n.valid_from),
            line,
            &mut problems,
        );
        let to = parse_date(field(c_to), ("valid_to", n.valid_to), line, &mut problems);
        let ibc = ("ibc_ea_pct", n.ibc_ea_pct);
        let ibc = parse_rate(field(c_ibc), ibc, IBC_PCT, line, &mut problems);
        let usury = ("usury_ea_pct", n.usury_ea_pct);
        let usury = parse_rate(field(c_usury), usury, MORATORIUM_PCT, line, &mut problems);
        if problems.len() > before {
            continue;
        }
        let (Some(from), Some(to)) = (from, to) else {
            continue;
        };
        if to < from {
            let (to_es, from_es) = (fecha(to), fecha(from));
            let (to_name, from_name) = (names.valid_to, names.valid_from);
            problems.push(problem(
                line,
                said!(
                    rates::valid_before_valid_from,
                    to,
                    from,
                    to_es,
                    from_es,
                    to_name,
                    from_name
                ),
            ));
            continue;
        }
        let (ibc, usury) = (ibc.flatten(), usury.flatten());
        if let (Some(i), Some(u)) = (ibc, usury) {
            let tolerance = Decimal::new(USURY_TOLERANCE.0, USURY_TOLERANCE.1);
            let times = i * Decimal::new(15, 1);
            if (u - times).abs() > tolerance {
                // the period is still read: a confirmed figure may be forced in
                let (u_es, i_es, times_es) = (tasa(u), tasa(i), tasa(times));
                let (usury_name, ibc_name) = (names.usury_ea_pct, names.ibc_ea_pct);
                problems.push(Problem {
                    line,
                    message: said!(
                        rates::usury_ea_pct_not_1_5,
                        u,
                        i,
                        times,
                        u_es,
                        i_es,
                        times_es,
                        usury_name,
                        ibc_name
                    ),
                    kind: Kind::UsuryRatio,
                });
            }
        }
        let resolution = c_res.map(|c| field(c).to_string()).unwrap_or_default();
        match RatePeriod::new(from, to, ibc, usury, resolution, line) {
            Some(p) => periods.push(p),
            None => {
                let (ibc_name, usury_name) = (names.ibc_ea_pct, names.usury_ea_pct);
                let said = said!(rates::both_ibc_ea_pct_usury_ea, ibc_name, usury_name);
                problems.push(problem(line, said));
            }
        }
    }
    if rows == 0 && problems.is_empty() {
        problems.push(problem(2, said!(rates::file_has_header_but_no_periods)));
    }
    periods.sort_by_key(|p| p.valid_from);
    problems.extend(sequence_problems(&periods));
    problems.sort_by_key(|p| p.line);
    (periods, problems)
}

/// Overlaps (fatal) and gaps (not fatal) between sorted periods.
fn sequence_problems(periods: &[RatePeriod]) -> Vec<Problem> {
    let mut out = Vec::new();
    for pair in periods.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.valid_from <= a.valid_to {
            let (bf, bt, af, at, line) =
                (b.valid_from, b.valid_to, a.valid_from, a.valid_to, a.line);
            let (bf_es, bt_es, af_es, at_es) = (fecha(bf), fecha(bt), fecha(af), fecha(at));
            out.push(problem(
                b.line,
                said!(
                    rates::period_overlaps_period_line_each_day,
                    bf,
                    bt,
                    af,
                    at,
                    line,
                    bf_es,
                    bt_es,
                    af_es,
                    at_es
                ),
            ));
        } else if let Some(next) = a.valid_to.succ_opt()
            && next < b.valid_from
        {
            let last = b.valid_from.pred_opt().unwrap_or(next);
            let (range, rango) = (format_range(next, last), rango(next, last));
            let line = a.line;
            out.push(Problem {
                line: b.line,
                message: said!(
                    rates::gap_no_certified_rate_between_line,
                    range,
                    line,
                    rango
                ),
                kind: Kind::Gap,
            });
        } else if let Some(j) = jump(a, b) {
            out.push(Problem {
                line: b.line,
                message: j.said(),
                kind: Kind::Jump,
            });
        }
    }
    out
}

fn problem(line: usize, message: Said) -> Problem {
    Problem {
        line,
        message,
        kind: Kind::Error,
    }
}

/// A date in the rates file's `column`, called `shown` where it was written.
fn parse_date(
    s: &str,
    (column, shown): (&str, &str),
    line: usize,
    problems: &mut Vec<Problem>,
) -> Option<NaiveDate> {
    let (columna, column) = (column_es(column, shown), shown);
    // every form the one reader takes (issue 19): 2024-11-01, 01/11/2024, 1/11/2024
    let read = crate::input::date(s).map_err(|r| match r.problem {
        crate::input::Problem::OutOfRange(d) => crate::calendar::DateError::OutOfRange(d),
        _ => crate::calendar::DateError::Malformed,
    });
    match read {
        Ok(d) => Some(d),
        Err(crate::calendar::DateError::Malformed) => {
            problems.push(problem(
                line,
                said!(rates::not_date_dd_mm_yyyy_yyyy, column, s, columna),
            ));
            None
        }
        Err(e @ crate::calendar::DateError::OutOfRange(d)) => {
            let (d_es, first, last) = (
                fecha(d),
                fecha(crate::calendar::FIRST_DATE),
                fecha(crate::calendar::LAST_DATE),
            );
            problems.push(problem(
                line,
                said!(rates::sentence, column, e, columna, d_es, first, last),
            ));
            None
        }
    }
}

/// `Some(None)` for an empty cell, `Some(Some(rate))` for a valid one, `None` after a problem;
/// a rate in the rates file's `column`, called `shown` where it was written.
fn parse_rate(
    s: &str,
    (column, shown): (&str, &str),
    (min, max): (i64, i64),
    line: usize,
    problems: &mut Vec<Problem>,
) -> Option<Option<Decimal>> {
    if s.is_empty() {
        return Some(None);
    }
    let (columna, s_es) = (column_es(column, shown), typed_es(s));
    let column = shown;
    // a percent as rates files write it, 32.985 or 32,985: rates are never grouped, so a point
    // is a decimal point (the shipped series' own form); a typed flag or form is read by
    // `input::percent`, which refuses 32.985 as a thousands point to a Colombian reader
    match crate::input::published_percent(s) {
        Ok(r) if r <= Decimal::ZERO => {
            problems.push(problem(
                line,
                said!(rates::must_positive_ea, column, s, columna, s_es),
            ));
            None
        }
        Ok(r) if r < Decimal::from(min) => {
            let percent = (r * Decimal::ONE_HUNDRED).normalize();
            let percent_es = tasa(percent);
            problems.push(problem(
                line,
                said!(
                    rates::not_believable_ea_must_from_below,
                    column,
                    s,
                    min,
                    max,
                    percent,
                    columna,
                    s_es,
                    percent_es
                ),
            ));
            None
        }
        Ok(r) if r >= Decimal::from(max) => {
            problems.push(problem(
                line,
                said!(
                    rates::not_believable_ea_must_from_below_2,
                    column,
                    s,
                    min,
                    max,
                    columna,
                    s_es
                ),
            ));
            None
        }
        Ok(r) => Some(Some(r)),
        Err(_) => {
            problems.push(problem(
                line,
                said!(rates::not_number_write_percent_such_as, column, s, columna),
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests;
