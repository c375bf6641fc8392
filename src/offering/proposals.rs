//! Reading a later stage's proposals CSV (issue 12; Decreto 3939 Arts. 13–19, 22; seed 002)
//! through the same reader as every import (`import::each_record`, its cells read through
//! `import::cells`: UTF-8 or the es-CO Excel export,
//! header order free, every bad row named by line). Pure: bytes in, rows or every problem out.
//! Whether a proposal is valid is not decided here ([`super::stage::evaluate`] does that): a late
//! filing or a price below the minimum is a fact to record, not a bad row.

use crate::ids::{self, DocType};
use crate::import::cells::{Cells, Column};
use crate::import::{Dialect, Fields, RowError, Table};
use crate::import::{parse_amount, parse_count, why, why_above_zero};
use crate::lang::Said;
use crate::said;
use chrono::NaiveDateTime;
use rust_decimal::Decimal;

/// A column of the proposals CSV, in the order [`COLUMNS`] then [`OPTIONAL`] name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Proposal,
    FiledAt,
    Bidders,
    Shares,
    PricePerShare,
    TermDays,
    BeneficialOwner,
    Guarantee,
    FundsAccredited,
    Review,
    Tranche,
}

impl Col {
    const fn name(self) -> &'static str {
        match self {
            Col::Proposal => "proposal",
            Col::FiledAt => "filed_at",
            Col::Bidders => "bidders",
            Col::Shares => "shares",
            Col::PricePerShare => "price_per_share",
            Col::TermDays => "term_days",
            Col::BeneficialOwner => "beneficial_owner",
            Col::Guarantee => "guarantee",
            Col::FundsAccredited => "funds_accredited",
            Col::Review => "review",
            Col::Tranche => "tranche",
        }
    }
}

/// The columns every proposals file names, in any order.
pub const COLUMNS: [&str; 6] = [
    Col::Proposal.name(),
    Col::FiledAt.name(),
    Col::Bidders.name(),
    Col::Shares.name(),
    Col::PricePerShare.name(),
    Col::TermDays.name(),
];

/// The columns a file may leave out (they read as empty: no beneficial-owner group, no
/// guarantee, funds not accredited, no review cause, tranche 1).
pub const OPTIONAL: [&str; 5] = [
    Col::BeneficialOwner.name(),
    Col::Guarantee.name(),
    Col::FundsAccredited.name(),
    Col::Review.name(),
    Col::Tranche.name(),
];

/// The proposals file's columns.
pub const TABLE: Table = Table {
    required: &COLUMNS,
    optional: &OPTIONAL,
};

/// The longest payment term a proposal may offer, in days (ten years).
pub const MAX_TERM_DAYS: u32 = crate::program::MAX_TERM_DAYS;

/// One bidder of a proposal (a joint proposal has several, jointly liable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bidder {
    pub doc_type: DocType,
    /// Canonical (a NIT with its `-DV`).
    pub doc_number: String,
    pub name: String,
}

impl Bidder {
    /// `DOC_TYPE:NUMBER`: who the bidder is, for the one-proposal-per-person rule.
    pub fn key(&self) -> String {
        format!("{}:{}", self.doc_type.as_str(), self.doc_number)
    }
}

/// One proposal (propuesta de compra) as filed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposalRow {
    pub line: usize,
    /// The bidder's reference.
    pub reference: String,
    pub filed_at: NaiveDateTime,
    pub bidders: Vec<Bidder>,
    pub beneficial_owner: Option<String>,
    pub shares: u64,
    pub price_per_share: Decimal,
    pub term_days: u32,
    pub guarantee: Option<Decimal>,
    pub funds_accredited: bool,
    /// A cause the staff recorded (upper case, e.g. `FORM_DEFECT`).
    pub review: Option<String>,
    pub tranche: u32,
}

/// Reads every row, handing each valid one to `f`; returns the dialect and every problem found
/// (empty when the file is clean). Two rows with the same reference are a problem of the file.
pub fn each<E>(
    bytes: &[u8],
    f: impl FnMut(ProposalRow) -> Result<(), E>,
) -> Result<(Dialect, Vec<RowError>), E> {
    // every reference and the line it was first seen on (checked on every row, bad file or not)
    // (boxed: 8 bytes a reference less than a String, at a million references 16 MB)
    let seen: std::cell::RefCell<std::collections::HashMap<Box<str>, usize>> = Default::default();
    crate::import::each_record(
        bytes,
        &TABLE,
        |line, fields| {
            let row = parse_row(line, fields);
            let reference = fields.get(Col::Proposal as usize);
            if reference.is_empty() {
                return row;
            }
            let mut seen = seen.borrow_mut();
            match seen.get(reference) {
                Some(&first) => {
                    let dupe = RowError {
                        line,
                        field: Col::Proposal.name().into(),
                        value: reference.to_string(),
                        reason: said!(offering::same_reference_as_line_one_proposal, first),
                        remedy: None,
                    };
                    match row {
                        Ok(_) => Err(vec![dupe]),
                        Err(mut e) => {
                            e.push(dupe);
                            Err(e)
                        }
                    }
                }
                None => {
                    seen.insert(reference.into(), line);
                    row
                }
            }
        },
        f,
    )
}

impl Column for Col {
    fn name(self) -> &'static str {
        Col::name(self)
    }
    fn at(self) -> usize {
        self as usize
    }
}

fn parse_row(line: usize, fields: &Fields<'_>) -> Result<ProposalRow, Vec<RowError>> {
    let mut row = Cells::new(line, fields);
    let reference = row.required(
        Col::Proposal,
        Said::new(
            "the proposal's reference is required",
            "falta la referencia de la propuesta",
        ),
    );
    if reference.contains([',', '|']) || reference.chars().any(char::is_control) {
        // the draw hashes the references joined by ',' and the fields by '|'
        row.fail(
            Col::Proposal,
            &reference,
            Said::new(
                "may not contain ',' or '|' (the draw's text joins references with them)",
                "no puede contener ',' ni '|' (el texto del sorteo une las referencias con ellos)",
            ),
        );
    }
    let filed_at = row.when(Col::FiledAt);
    let bidders = bidders(&mut row);
    let beneficial_owner = row.text(Col::BeneficialOwner);
    let shares = row.count(
        Col::Shares,
        Said::new(
            "must be the whole number of shares proposed, greater than zero",
            "debe ser el número entero de acciones propuestas, mayor que cero",
        ),
    );
    let example = "1.100,50";
    let price_s = row.get(Col::PricePerShare);
    let read = parse_amount(price_s);
    let price_per_share = read.as_ref().ok().copied().filter(|p| *p > Decimal::ZERO);
    if price_per_share.is_none() {
        let own = said!(offering::must_price_per_share_pesos_greater, example);
        row.fail(Col::PricePerShare, price_s, why_above_zero(&read, own));
    }
    let term_s = row.get(Col::TermDays);
    let read = parse_count(term_s);
    let term_days = read
        .as_ref()
        .ok()
        .and_then(|&n| u32::try_from(n).ok())
        .filter(|&n| n <= MAX_TERM_DAYS);
    if term_days.is_none() {
        let own = said!(
            offering::must_days_from_adjudication_payment_0,
            MAX_TERM_DAYS
        );
        row.fail(Col::TermDays, term_s, why(&read, own));
    }
    let guarantee = row
        .opt_amount(
            Col::Guarantee,
            false,
            said!(offering::must_guarantee_pesos_such_as_empty, example),
        )
        .flatten();
    let funds_s = row.get(Col::FundsAccredited);
    let funds_accredited = match crate::input::yes_no(funds_s) {
        Some(b) => b,
        None if funds_s.is_empty() => false,
        None => {
            row.fail(
                Col::FundsAccredited,
                funds_s,
                Said::new("must be si or no", "debe ser sí o no"),
            );
            false
        }
    };
    let review_s = row.get(Col::Review);
    let review = if review_s.is_empty() {
        None
    } else {
        let code = review_s.to_uppercase();
        if !code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            row.fail(
                Col::Review,
                review_s,
                Said::new(
                    "must be a cause code in letters, digits and '_' (e.g. FORM_DEFECT), or empty",
                    "debe ser un código de causa en letras, dígitos y '_' (p. ej. FORM_DEFECT), o \
                     quedar vacío",
                ),
            );
        }
        Some(code)
    };
    let tranche_s = row.get(Col::Tranche);
    let tranche = if tranche_s.is_empty() {
        Some(1)
    } else {
        parse_count(tranche_s)
            .ok()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= 1)
    };
    if tranche.is_none() {
        row.fail(
            Col::Tranche,
            tranche_s,
            Said::new(
                "must be the tranche's number (1, 2, ...), or empty for 1",
                "debe ser el número del tramo (1, 2, ...), o quedar vacío para el 1",
            ),
        );
    }
    let read = (|| {
        Some(ProposalRow {
            line,
            reference,
            filed_at: filed_at?,
            bidders,
            beneficial_owner,
            shares: shares?,
            price_per_share: price_per_share?,
            term_days: term_days?,
            guarantee,
            funds_accredited,
            review,
            tranche: tranche?,
        })
    })();
    row.finish(read)
}

/// The bidders of a proposal, `DOC_TYPE:NUMBER:NAME` each, separated by `|`.
fn bidders(row: &mut Cells<'_, '_>) -> Vec<Bidder> {
    let bidders_s = row.get(Col::Bidders);
    let mut bidders: Vec<Bidder> = Vec::new();
    if bidders_s.is_empty() {
        row.fail(
            Col::Bidders,
            "",
            Said::new(
                "name every bidder as DOC_TYPE:NUMBER:NAME, several separated by '|'",
                "nombre a cada oferente como TIPO:NÚMERO:NOMBRE (DOC_TYPE:NUMBER:NAME), varios \
                 separados por '|'",
            ),
        );
    }
    for part in bidders_s.split('|').filter(|_| !bidders_s.is_empty()) {
        let mut it = part.trim().splitn(3, ':');
        let (t, n, name) = (
            it.next().unwrap_or("").trim(),
            it.next().unwrap_or("").trim(),
            it.next().unwrap_or("").trim(),
        );
        let doc_type = match DocType::read(t) {
            Ok(d) => d,
            Err(e) => {
                let (en, es) = (e.en(), e.es());
                row.fail(
                    Col::Bidders,
                    part,
                    said!(offering::write_doc_type_number_name, en, es),
                );
                continue;
            }
        };
        let doc_number = match ids::normalized(doc_type, n) {
            Ok(n) => n,
            Err(e) => {
                row.fail(Col::Bidders, part, e);
                continue;
            }
        };
        if name.is_empty() {
            row.fail(
                Col::Bidders,
                part,
                Said::new(
                    "the bidder's name is missing (write DOC_TYPE:NUMBER:NAME)",
                    "falta el nombre del oferente (escriba TIPO:NÚMERO:NOMBRE)",
                ),
            );
            continue;
        }
        let b = Bidder {
            doc_type,
            doc_number,
            name: name.to_string(),
        };
        if bidders.iter().any(|x| x.key() == b.key()) {
            row.fail(
                Col::Bidders,
                part,
                Said::new(
                    "names the same bidder twice in one proposal",
                    "nombra dos veces al mismo oferente en una propuesta",
                ),
            );
            continue;
        }
        bidders.push(b);
    }
    bidders
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::dec;

    fn read(text: &str) -> (Vec<ProposalRow>, Vec<String>) {
        let mut rows = Vec::new();
        let (_, problems) = each::<()>(text.as_bytes(), |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap();
        (rows, problems.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn a_joint_proposal_and_the_optional_columns() {
        let (rows, problems) = read(
            "proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,guarantee,funds_accredited,review\n\
             P-1,2025-03-10,CC:1000000001:Ana Uno|NIT:800191045-1:Grupo Dos,g1,1000,1100.50,30,5000000,si,\n\
             P-2,2025-03-11 10:00,CC:1000000003:Tres,,1000,1000,0,,no,form_defect\n",
        );
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].bidders.len(), 2);
        assert_eq!(rows[0].bidders[1].key(), "NIT:800191045-1");
        assert_eq!(rows[0].beneficial_owner.as_deref(), Some("g1"));
        assert_eq!(rows[0].price_per_share, dec("1100.50"));
        assert_eq!(rows[0].guarantee, Some(dec("5000000")));
        assert!(rows[0].funds_accredited);
        assert_eq!(rows[0].tranche, 1);
        assert_eq!(rows[1].guarantee, None);
        assert_eq!(rows[1].review.as_deref(), Some("FORM_DEFECT"));
    }

    #[test]
    fn every_bad_value_is_named_by_line() {
        let (rows, problems) = read(
            "proposal,filed_at,bidders,shares,price_per_share,term_days,tranche\n\
             P|1,2025-13-01,CC:12,0,-5,x,0\n\
             P-2,2025-03-10,XX:1001:Uno|CC:1001:,10,1000,0,\n\
             P-3,2025-03-10,CC:1001:Uno|CC:1001:Otra vez,10,1000,0,\n\
             P-4,2025-03-10,CC:1002:Dos,10,1000,0,\n\
             P-4,2025-03-10,CC:1003:Tres,10,1000,0,\n",
        );
        // the one good row is still handed on (for the register's checks), the bad ones are not
        assert_eq!(
            rows.iter().map(|r| r.line).collect::<Vec<_>>(),
            [5],
            "{problems:#?}"
        );
        let all = problems.join("\n");
        for needle in [
            "line 2: proposal \"P|1\": may not contain ',' or '|'",
            "line 2: filed_at \"2025-13-01\"",
            "line 2: bidders",
            "line 2: tranche",
            "line 2: shares",
            "line 2: price_per_share",
            "line 2: term_days",
            "line 3: bidders \"XX:1001:Uno\": unknown document type",
            "line 3: bidders \"CC:1001:\": the bidder's name is missing",
            "line 4: bidders \"CC:1001:Otra vez\": names the same bidder twice",
            "line 6: proposal \"P-4\": the same reference as line 5",
        ] {
            assert!(all.contains(needle), "{needle} in\n{all}");
        }
    }
}
