//! Who the adjudication's persons are, kept compactly while it is computed and written: each
//! person numbered by their document ([`People`]), and what their speaking filing says of them
//! ([`Speakers`]): document and name for the result's rows and, for a real run, what their
//! award's adjudication needs besides (line, kind of person, category, lender, financed shares),
//! so that writing a million awards reads no acceptance back from the register.

use crate::ids::DocType;
use crate::import::PersonType;
use crate::store::StoreError;
use foldhash::HashMap;

/// The document and name of each person's speaking filing: one buffer of text and a few bytes
/// of position per person.
#[derive(Default)]
pub(super) struct Speakers {
    text: String,
    /// Per person: where their document number starts in `text`, its length and the name's
    /// (16 bytes a person).
    at: Vec<(u32, u32, u32, DocType)>,
    /// What each person's award needs (a real run only).
    awards: Option<Awards>,
}

/// What an award's adjudication takes from the filing that speaks for its person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct AwardFacts<'a> {
    pub line: u64,
    pub person_type: PersonType,
    pub category: &'a str,
    pub lender: Option<&'a str>,
    pub financed_shares: u64,
}

/// [`AwardFacts`] of every person, their texts interned (a register's categories and lenders
/// are few).
#[derive(Default)]
struct Awards {
    facts: Vec<Packed>,
    words: Vec<Box<str>>,
    index: HashMap<Box<str>, u32>,
}

/// One person's [`AwardFacts`] in 24 bytes: its texts by their number in `Awards::words`
/// (`NONE`: no lender), the category's with [`LEGAL`] set for a legal person.
#[derive(Clone, Copy)]
struct Packed {
    line: u64,
    financed_shares: u64,
    category: u32,
    lender: u32,
}

const NONE: u32 = u32::MAX;
const LEGAL: u32 = 1 << 31;

impl Awards {
    fn word(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = u32::try_from(self.words.len())
            .ok()
            .filter(|&i| i < LEGAL)
            .expect("fewer than 2 billion categories and lenders");
        self.words.push(s.into());
        self.index.insert(s.into(), i);
        i
    }
}

impl Speakers {
    /// Keeps what each person's award needs too ([`Speakers::award`]).
    pub fn with_awards() -> Self {
        Speakers {
            awards: Some(Awards::default()),
            ..Speakers::default()
        }
    }

    /// Whether [`Speakers::set`] is to be given each speaker's [`AwardFacts`].
    pub fn keeps_awards(&self) -> bool {
        self.awards.is_some()
    }

    /// Person `k` (numbered in order of appearance) is now spoken for by a filing with this
    /// document and name (and, when awards are kept, these facts).
    pub fn set(
        &mut self,
        k: u32,
        doc_type: DocType,
        doc_number: &str,
        name: &str,
        award: Option<AwardFacts<'_>>,
    ) {
        let len = |s: &str| u32::try_from(s.len()).expect("a text shorter than 4 GB");
        let entry = (len(&self.text), len(doc_number), len(name), doc_type);
        self.text.push_str(doc_number);
        self.text.push_str(name);
        match self.at.get_mut(k as usize) {
            Some(e) => *e = entry,
            None => self.at.push(entry),
        }
        if let (Some(awards), Some(a)) = (&mut self.awards, award) {
            let legal = match a.person_type {
                PersonType::Natural => 0,
                PersonType::Legal => LEGAL,
            };
            let packed = Packed {
                line: a.line,
                financed_shares: a.financed_shares,
                category: awards.word(a.category) | legal,
                lender: a.lender.map_or(NONE, |l| awards.word(l)),
            };
            match awards.facts.get_mut(k as usize) {
                Some(e) => *e = packed,
                None => awards.facts.push(packed),
            }
        }
    }

    /// The same speakers with person `order[i]` as person `i` (the outcomes' order, in which
    /// the result is written: each row's document, name and award are then read in sequence,
    /// where a person's number, given in stored order, would jump about a buffer of tens of MB
    /// for each of them).
    pub fn in_order(self, order: impl ExactSizeIterator<Item = u32>) -> Speakers {
        let n = order.len();
        let mut next = Speakers {
            text: String::with_capacity(self.text.len()),
            at: Vec::with_capacity(n),
            awards: self.awards.as_ref().map(|a| Awards {
                facts: Vec::with_capacity(n),
                words: a.words.clone(),
                index: HashMap::default(),
            }),
        };
        for k in order {
            let (start, doc, name, doc_type) = self.at[k as usize];
            let (start, end) = (
                start as usize,
                start as usize + doc as usize + name as usize,
            );
            let at = u32::try_from(next.text.len()).expect("a text shorter than 4 GB");
            next.at.push((at, doc, name, doc_type));
            next.text.push_str(&self.text[start..end]);
            if let (Some(to), Some(from)) = (&mut next.awards, &self.awards) {
                to.facts.push(from.facts[k as usize]);
            }
        }
        next.text.shrink_to_fit();
        next
    }

    pub fn get(&self, k: u32) -> (DocType, &str, &str) {
        let (start, doc, name, doc_type) = self.at[k as usize];
        let start = start as usize;
        let mid = start + doc as usize;
        (
            doc_type,
            &self.text[start..mid],
            &self.text[mid..mid + name as usize],
        )
    }

    /// What person `k`'s award needs; `None` when awards are not kept.
    pub fn award(&self, k: u32) -> Option<AwardFacts<'_>> {
        let awards = self.awards.as_ref()?;
        let p = awards.facts.get(k as usize)?;
        Some(AwardFacts {
            line: p.line,
            person_type: match p.category & LEGAL {
                0 => PersonType::Natural,
                _ => PersonType::Legal,
            },
            category: &awards.words[(p.category & !LEGAL) as usize],
            lender: (p.lender != NONE).then(|| &*awards.words[p.lender as usize]),
            financed_shares: p.financed_shares,
        })
    }
}

/// Persons numbered by their document (type and number) in order of appearance. Most documents
/// are numbers, kept as one `u64` each; any other is kept as text.
#[derive(Default)]
pub(super) struct People {
    numeric: HashMap<u64, u32>,
    other: HashMap<(DocType, Box<str>), u32>,
}

impl People {
    /// The number of the person with this document; `next` if they are new.
    pub fn number(&mut self, doc_type: DocType, doc_number: &str, next: u32) -> u32 {
        match pack(doc_type, doc_number) {
            Some(key) => *self.numeric.entry(key).or_insert(next),
            None => *self
                .other
                .entry((doc_type, doc_number.into()))
                .or_insert(next),
        }
    }
}

/// A document as one number, when it is digits (no leading zero, at most 15) optionally
/// followed by a dash and one digit (a NIT's check digit): `value << 4 | type << 1 | dash`.
/// Two different documents never give the same number; `None` for any other form.
pub(super) fn pack(doc_type: DocType, doc_number: &str) -> Option<u64> {
    let b = doc_number.as_bytes();
    let (digits, check) = match b {
        [rest @ .., b'-', d] => (rest, Some(*d)),
        _ => (b, None),
    };
    let numeral = |s: &[u8]| {
        !s.is_empty()
            && s.len() <= 15
            && s.iter().all(u8::is_ascii_digit)
            && (s[0] != b'0' || s.len() == 1)
    };
    if !numeral(digits) || check.is_some_and(|d| !d.is_ascii_digit()) {
        return None;
    }
    let mut value = digits
        .iter()
        .fold(0u64, |v, d| v * 10 + u64::from(d - b'0'));
    if let Some(d) = check {
        value = value * 10 + u64::from(d - b'0');
    }
    let kind = DocType::ALL
        .iter()
        .position(|&t| t == doc_type)
        .expect("a document type is one of ALL") as u64;
    Some(value << 4 | kind << 1 | u64::from(check.is_some()))
}

/// A stored document type (as written by vigia; read leniently as before).
pub(super) fn doc_type_of(id: i64, s: &str) -> Result<DocType, StoreError> {
    match DocType::ALL.into_iter().find(|t| t.as_str() == s) {
        Some(t) => Ok(t),
        None => s
            .parse()
            .map_err(|e: String| StoreError::Corrupt(format!("acceptance {id}: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_speaker_replaces_the_persons_document_name_and_award_facts() {
        let mut s = Speakers::with_awards();
        let facts = |line, lender, financed_shares| AwardFacts {
            line,
            person_type: PersonType::Natural,
            category: "trabajador",
            lender,
            financed_shares,
        };
        s.set(0, DocType::Cc, "10", "Ana", Some(facts(3, None, 0)));
        let legal = AwardFacts {
            person_type: PersonType::Legal,
            ..facts(4, Some("Banco"), 7)
        };
        s.set(1, DocType::Nit, "900-1", "Bee SAS", Some(legal));
        s.set(
            0,
            DocType::Cc,
            "10",
            "Ana María",
            Some(facts(9, Some("Banco"), 2)),
        );
        assert_eq!(s.get(0), (DocType::Cc, "10", "Ana María"));
        assert_eq!(s.get(1), (DocType::Nit, "900-1", "Bee SAS"));
        assert_eq!(s.award(0), Some(facts(9, Some("Banco"), 2)));
        assert_eq!(s.award(1), Some(legal));
        // an empty lender is a lender, not none
        s.set(
            1,
            DocType::Nit,
            "900-1",
            "Bee SAS",
            Some(facts(4, Some(""), 0)),
        );
        assert_eq!(s.award(1).and_then(|a| a.lender), Some(""));
        assert_eq!(s.award(1).map(|a| a.person_type), Some(PersonType::Natural));
        assert_eq!(Speakers::default().award(0), None);
        // in another order: person 1 first
        let s = s.in_order([1, 0].into_iter());
        assert_eq!(s.get(0), (DocType::Nit, "900-1", "Bee SAS"));
        assert_eq!(s.get(1), (DocType::Cc, "10", "Ana María"));
        assert_eq!(s.award(1), Some(facts(9, Some("Banco"), 2)));
        assert_eq!(s.award(0).and_then(|a| a.lender), Some(""));
    }
}
