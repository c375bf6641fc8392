//! What the web shows after verifying a notice or a paz y salvo (`/avisos/verificar`), worded:
//! the outcome, what a paid fine's holder is owed, the document named, and a row per check with
//! how it came out. Each catalogue words it from the register's typed [`Verified`]
//! ([`super::Catalogue::verification`], [`super::Catalogue::unverifiable`]: `es_verification`,
//! `en_verification`); the web only lays it out (`vigia notice verify` says the same facts as
//! lines: [`super::Catalogue::verified`]).

use crate::lang::{Lang, numero};
use crate::register::audit::ChainNow;
use crate::register::difference::Difference;
use crate::register::notice::Superseded;
use crate::register::verify::{File, Fingerprint, PaidSince, Place, Standing, Text, Verified};

/// How a check of a verified document came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Holds,
    Fails,
    /// Nothing to compare.
    NoData,
    /// Not a check: something to know.
    Note,
    /// The document no longer holds in the register (replaced, figures changed, a payment
    /// voided): not a sign that it was altered.
    Lapsed,
}

/// One check, worded: what was checked, how it came out (and how that reads), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub check: &'static str,
    pub mark: Mark,
    pub shown: &'static str,
    pub detail: String,
}

/// What a verification page says of a document the register could check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// What the verification comes to (in force, no longer in force and why, does not match),
    /// in one sentence: [`super::Catalogue::verdict`].
    pub outcome: String,
    /// A notice whose fine has been paid in full since, when the outcome does not already say
    /// so: what its holder is owed now.
    pub paid: Option<String>,
    /// The document named: the words before its number, its number, the words after.
    pub document: (String, String, String),
    /// The headers of the table of checks.
    pub headers: [&'static str; 3],
    pub rows: Vec<Row>,
}

/// What a verification page says of a file that is no document vigia can check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unverified {
    pub outcome: String,
    pub reason: String,
    /// An acta of a program in the register: the words of the link to the page whose form
    /// verifies it (the offer's or the stage's).
    pub acta_link: Option<String>,
}

/// Where a line of a document is, in `lang`: what a reader goes to (a file's line as an editor
/// counts it, a PDF's page and line on it, else the line of text counted without blank lines).
pub fn place(lang: Lang, at: &Place) -> String {
    match (lang, *at) {
        (Lang::Es, Place::File(n)) => format!("la línea {} del archivo", numero(n as u64)),
        (Lang::Es, Place::Page { page, line }) => format!(
            "la página {}, línea {}",
            numero(page as u64),
            numero(line as u64)
        ),
        (Lang::Es, Place::Text(n)) => format!(
            "la {}.ª línea de texto (sin contar las líneas en blanco)",
            numero(n as u64)
        ),
        (Lang::En, Place::File(n)) => format!("line {n} of the file"),
        (Lang::En, Place::Page { page, line }) => format!("page {page}, line {line}"),
        (Lang::En, Place::Text(n)) => {
            format!("the {} line of text (blank lines not counted)", ordinal(n))
        }
    }
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st, 112th.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Where an acta departs from the acta the register renders again (`offer verify`,
/// `stage verify`, the offer's and the stage's pages), in `lang`, beginning in lower case: the
/// place of the first line that differs with both lines, or the counts of lines.
pub fn acta_difference(lang: Lang, d: &Difference) -> String {
    match (lang, d) {
        (
            Lang::Es,
            Difference::Line {
                at,
                document,
                register,
                ..
            },
        ) => format!(
            "en {}, el documento dice «{document}»; el registro da «{register}»",
            place(lang, at)
        ),
        (
            Lang::En,
            Difference::Line {
                at,
                document,
                register,
                ..
            },
        ) => format!(
            "at {} the document says {document:?}; the register gives {register:?}",
            place(lang, at)
        ),
        (Lang::Es, Difference::Count { document, register }) => format!(
            "el documento tiene {} líneas de texto; el registro da {}",
            numero(*document as u64),
            numero(*register as u64)
        ),
        (Lang::En, Difference::Count { document, register }) => {
            format!("the document has {document} lines of text; the register gives {register}")
        }
    }
}

/// [`acta_difference`] as a sentence of its own (a page's verdict).
pub fn acta_difference_sentence(lang: Lang, d: &Difference) -> String {
    let said = acta_difference(lang, d);
    let mut chars = said.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// A sentence with a link in it: the words before the link, the link's words, the words after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Linked {
    pub before: &'static str,
    pub link: &'static str,
    pub after: &'static str,
}

/// What an acta page adds, in `lang`, under an acta that does not match the register, from what
/// it knows of the register's audit chain: when it holds, that the register was not changed
/// outside vigia, so what differs is the document; when it does not, that a genuine acta stops
/// matching an altered register, and where to see what changed; while it is being verified, that
/// it is, how long that takes, and where to see it. The link goes to the audit's verification.
pub fn acta_chain(lang: Lang, chain: ChainNow) -> Linked {
    let (before, link) = match (lang, chain) {
        (Lang::Es, ChainNow::Holds) => (
            "La cadena de auditoría del registro se verifica: el registro no se cambió por fuera \
             de vigia; lo que difiere es el documento. Vea la verificación en ",
            "Auditoría",
        ),
        (Lang::En, ChainNow::Holds) => (
            "The register's audit chain verifies: the register was not changed outside vigia; \
             what differs is the document. See the verification in ",
            "Audit",
        ),
        (Lang::Es, ChainNow::DoesNotHold) => (
            "La cadena de auditoría del registro tampoco se verifica: un acta auténtica deja de \
             coincidir cuando el registro se alteró. Vea qué cambió en ",
            "Auditoría",
        ),
        (Lang::Es, ChainNow::BeingVerified) => (
            "La cadena de auditoría del registro se está verificando en segundo plano (un acta \
             auténtica deja de coincidir cuando el registro se alteró): suba el acta de nuevo \
             cuando termine (segundos en un registro pequeño, alrededor de un minuto en uno de un \
             millón de titulares) para saber si se verifica, o vea la verificación en ",
            "Auditoría",
        ),
        (Lang::En, ChainNow::DoesNotHold) => (
            "The register's audit chain does not verify either: a genuine acta stops matching \
             when the register was altered. See what changed in ",
            "Audit",
        ),
        (Lang::En, ChainNow::BeingVerified) => (
            "The register's audit chain is being verified in the background (a genuine acta \
             stops matching when the register was altered): upload the acta again when it \
             ends (seconds on a small register, about a minute on one of a million holders) to \
             learn whether it holds, or see the verification in ",
            "Audit",
        ),
    };
    Linked {
        before,
        link,
        after: ".",
    }
}

/// A document format's name, in both languages.
pub(super) fn format(f: crate::notice::DocFormat) -> &'static str {
    use crate::notice::DocFormat;
    match f {
        DocFormat::Pdf => "PDF",
        DocFormat::Html => "HTML",
        DocFormat::Md => "Markdown",
    }
}

/// What one row of a verified document checked and found: the facts each language words.
pub(super) enum Found<'v> {
    Text(&'v Text),
    File(&'v File),
    Fingerprint(&'v Fingerprint),
    /// The register gives the same figures today.
    SameFigures,
    /// It gives other figures: because the fine was paid in full since, or not.
    OtherFigures(Option<&'v PaidSince>),
    /// Not a check: the fine was paid in full after the liquidation's date.
    PaidSince(&'v PaidSince),
    Void(&'v Superseded),
    Standing(&'v Standing),
}

impl Found<'_> {
    pub(super) fn mark(&self) -> Mark {
        match self {
            Found::Text(t) if **t == Text::Match => Mark::Holds,
            Found::File(File::NoRecord { .. }) => Mark::NoData,
            Found::File(f) if f.ok() => Mark::Holds,
            Found::Fingerprint(fp) if fp.matches() => Mark::Holds,
            Found::SameFigures | Found::Standing(Standing::InForce) => Mark::Holds,
            Found::PaidSince(_) => Mark::Note,
            Found::OtherFigures(_)
            | Found::Void(_)
            | Found::Standing(Standing::Replaced { .. }) => Mark::Lapsed,
            _ => Mark::Fails,
        }
    }
}

/// The rows of `v`, in order, each worded by `words` (what was checked, why) and its mark by
/// `shown`.
pub(super) fn rows(
    v: &Verified,
    words: impl Fn(&Found<'_>) -> (&'static str, String),
    shown: fn(Mark) -> &'static str,
) -> Vec<Row> {
    let mut found = vec![
        Found::Text(&v.text),
        Found::File(&v.file),
        Found::Fingerprint(&v.fingerprint),
    ];
    found.push(match (v.same_figures, &v.paid_since) {
        (true, _) => Found::SameFigures,
        (false, p) => Found::OtherFigures(p.as_ref()),
    });
    if let (true, Some(p)) = (v.same_figures, &v.paid_since) {
        found.push(Found::PaidSince(p));
    }
    found.extend(v.voids.iter().map(Found::Void));
    found.extend(v.standing.iter().map(Found::Standing));
    found
        .iter()
        .map(|f| {
            let (check, detail) = words(f);
            let mark = f.mark();
            Row {
                check,
                mark,
                shown: shown(mark),
                detail,
            }
        })
        .collect()
}

/// The document both languages' tests word: a notice changed after issue, paid in full since
/// with no paz y salvo yet, and replaced.
#[cfg(test)]
pub(super) fn changed() -> Verified {
    use crate::register::verify::Kind;
    Verified {
        kind: Kind::Notice,
        number: "MULTA-2025-0003".into(),
        program: "D3939-2004".into(),
        liquidation_id: 7,
        text: Text::Match,
        file: File::Changed {
            sha256: "ab12".into(),
            written: 2,
        },
        fingerprint: Fingerprint {
            stored: "f1".into(),
            recomputed: "f2".into(),
            printed: false,
        },
        same_figures: false,
        voids: Vec::new(),
        standing: Some(Standing::Replaced {
            number: "MULTA-2025-0009".into(),
            date: "2025-03-04".parse().unwrap(),
        }),
        paid_since: Some(PaidSince {
            on: "2025-03-01".parse().unwrap(),
            settlement: None,
            notice_date: "2025-02-20".parse().unwrap(),
            until: "2025-02-19".parse().unwrap(),
        }),
    }
}

/// The same notice as vigia issued it (no file on record, its fingerprint as printed): authentic,
/// but paid in full since and replaced — no longer in force.
#[cfg(test)]
pub(super) fn lapsed() -> Verified {
    let mut v = changed();
    v.file = File::NoRecord {
        sha256: "ab12".into(),
    };
    v.fingerprint.recomputed = "f1".into();
    v.fingerprint.printed = true;
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each place as a reader is told to find it, in both languages, and an acta's difference
    /// as the command line and the pages say it.
    #[test]
    fn a_place_says_where_a_reader_finds_the_line() {
        let page = Place::Page { page: 2, line: 17 };
        let said = |at: &Place| (place(Lang::Es, at), place(Lang::En, at));
        assert_eq!(
            said(&Place::File(1052)),
            (
                "la línea 1.052 del archivo".to_string(),
                "line 1052 of the file".to_string()
            )
        );
        assert_eq!(
            said(&page),
            (
                "la página 2, línea 17".to_string(),
                "page 2, line 17".to_string()
            )
        );
        assert_eq!(
            said(&Place::Text(32)),
            (
                "la 32.ª línea de texto (sin contar las líneas en blanco)".to_string(),
                "the 32nd line of text (blank lines not counted)".to_string()
            )
        );
        let ordinals = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112];
        assert_eq!(
            ordinals.map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
        let d = Difference::Line {
            nth: 52,
            at: page,
            document: "Párrafo 5O.".into(),
            register: "Párrafo 50.".into(),
        };
        assert_eq!(
            acta_difference_sentence(Lang::Es, &d),
            "En la página 2, línea 17, el documento dice «Párrafo 5O.»; el registro da «Párrafo \
             50.»."
        );
        assert_eq!(
            acta_difference(Lang::En, &d),
            "at page 2, line 17 the document says \"Párrafo 5O.\"; the register gives \"Párrafo \
             50.\""
        );
        let count = Difference::Count {
            document: 1200,
            register: 1201,
        };
        assert_eq!(
            acta_difference_sentence(Lang::Es, &count),
            "El documento tiene 1.200 líneas de texto; el registro da 1.201."
        );
    }

    /// Under an acta that does not match: what the chain's verdict says of the register and of
    /// the document; the link's words apart from the sentence around them, in both languages.
    #[test]
    fn an_acta_page_says_what_it_knows_of_the_chain() {
        let whole = |lang, c| {
            let l = acta_chain(lang, c);
            format!("{}[{}]{}", l.before, l.link, l.after)
        };
        assert_eq!(
            whole(Lang::Es, ChainNow::Holds),
            "La cadena de auditoría del registro se verifica: el registro no se cambió por fuera \
             de vigia; lo que difiere es el documento. Vea la verificación en [Auditoría]."
        );
        assert_eq!(
            whole(Lang::En, ChainNow::Holds),
            "The register's audit chain verifies: the register was not changed outside vigia; \
             what differs is the document. See the verification in [Audit]."
        );
        assert_eq!(
            whole(Lang::En, ChainNow::BeingVerified),
            "The register's audit chain is being verified in the background (a genuine acta stops \
             matching when the register was altered): upload the acta again when it ends \
             (seconds on a small register, about a minute on one of a million holders) to learn \
             whether it holds, or see the verification in [Audit]."
        );
        assert_eq!(
            whole(Lang::En, ChainNow::DoesNotHold),
            "The register's audit chain does not verify either: a genuine acta stops matching \
             when the register was altered. See what changed in [Audit]."
        );
        assert_eq!(
            whole(Lang::Es, ChainNow::BeingVerified),
            "La cadena de auditoría del registro se está verificando en segundo plano (un acta \
             auténtica deja de coincidir cuando el registro se alteró): suba el acta de nuevo cuando \
             termine (segundos en un registro pequeño, alrededor de un minuto en uno de un millón \
             de titulares) para saber si se verifica, o vea la verificación en [Auditoría]."
        );
    }
}
