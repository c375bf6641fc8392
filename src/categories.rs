//! Which of a program's special-condition categories (Art. 3) a file's cell names: the category
//! itself whatever its case, accents, spaces and hyphens (`Trabajador`, `Asociación empleados`),
//! or one of the program's aliases (Decreto 3939's numerals `(i)`…`(x)`, with or without the
//! parentheses). A name that fits none, or an alias that covers several (`(i)`: workers and
//! pensioners), is refused with the program's list: at import, never turned into a rejection
//! later. Pure: no I/O.

use crate::input::folded;
use crate::lang::Said;
use crate::program::Program;
use crate::said;

/// A category's name as a key: [`folded`], without the little words a person adds (`Fondo de
/// empleados` = `fondo-empleados`).
fn key(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| {
            !matches!(
                folded(w).as_str(),
                "de" | "del" | "la" | "las" | "los" | "el" | "y"
            )
        })
        .map(folded)
        .collect()
}

/// A numeral or name without its parentheses: `(ii)` = `ii`.
fn bare(key: &str) -> String {
    folded(key).replace(['(', ')'], "")
}

impl Program {
    /// The category `typed` names, as the program writes it.
    pub fn category(&self, typed: &str) -> Result<&str, Said> {
        let wanted = key(typed);
        if let Some(c) = self.categories.iter().find(|c| key(c) == wanted) {
            return Ok(c);
        }
        let key = bare(typed);
        if let Some((alias, names)) = self
            .category_aliases
            .iter()
            .find(|(a, _)| !key.is_empty() && bare(a) == key)
        {
            return match names.as_slice() {
                [one] => self
                    .categories
                    .iter()
                    .find(|c| *c == one)
                    .map(String::as_str)
                    .ok_or_else(|| self.unknown(typed)),
                several => {
                    let list = several.join(", ");
                    Err(said!(
                        core::names_several_categories_write_which_one,
                        alias,
                        list
                    ))
                }
            };
        }
        Err(self.unknown(typed))
    }

    /// What an acceptance's category cell names: a category ([`Program::category`]), or one of
    /// the program's names for a filer who belongs to none (`ninguna`), kept as the program
    /// writes it so that the adjudication rejects the filing as not a recipient.
    pub fn filing_category(&self, typed: &str) -> Result<&str, Said> {
        let key = folded(typed);
        match self.not_recipients.iter().find(|n| folded(n) == key) {
            Some(n) => Ok(n),
            None => self.category(typed).map_err(|e| {
                if self.not_recipients.is_empty() {
                    return e;
                }
                let none = self.not_recipients.join(", ");
                Said::new(
                    format!("{}; for a filer who belongs to none, write {none}", e.en()),
                    format!(
                        "{}; para quien no pertenece a ninguna, escriba {none}",
                        e.es()
                    ),
                )
            }),
        }
    }

    /// Who may accept under the program (Art. 3), for [`crate::offering::adjudicate::judge`].
    pub fn eligibility(&self) -> crate::offering::adjudicate::Eligibility<'_> {
        crate::offering::adjudicate::Eligibility {
            categories: &self.categories,
            legal: self.legal_person_categories.as_deref(),
            just_cause: self.just_cause_categories.as_deref(),
        }
    }

    /// Whether `category` belongs to the kind of person `person` is (always, when the program
    /// does not tie categories to kinds of person).
    pub fn category_fits(&self, category: &str, person: crate::import::PersonType) -> bool {
        self.eligibility().fits(category, person)
    }

    /// The program's categories with the numerals that name them: `trabajador (i)`.
    pub fn category_list(&self) -> String {
        self.categories
            .iter()
            .map(|c| match self.category_numeral(c) {
                Some(numeral) => format!("{c} {numeral}"),
                None => c.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The first alias that names `category` (Decreto 3939's numeral, `(iii)`), if any.
    pub fn category_numeral(&self, category: &str) -> Option<&str> {
        self.category_aliases
            .iter()
            .find(|(_, names)| names.iter().any(|n| n == category))
            .map(|(a, _)| a.as_str())
    }

    fn unknown(&self, typed: &str) -> Said {
        let (list, code) = (self.category_list(), &self.code);
        said!(
            core::not_special_condition_category_use_one,
            typed,
            code,
            list
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::program::{DECRETO_3939_2004, Program};

    #[test]
    fn a_category_is_named_whatever_its_case_accents_or_numeral() {
        let p = Program::from_toml(DECRETO_3939_2004).unwrap();
        assert_eq!(p.category("Trabajador"), Ok("trabajador"));
        assert_eq!(p.category("TRABAJADOR"), Ok("trabajador"));
        assert_eq!(
            p.category("Asociación empleados"),
            Ok("asociacion-empleados")
        );
        assert_eq!(p.category("Caja compensación"), Ok("caja-compensacion"));
        assert_eq!(p.category("Fondo de empleados"), Ok("fondo-empleados"));
        assert_eq!(
            p.category("Asociación de empleados"),
            Ok("asociacion-empleados")
        );
        assert_eq!(p.category("(ii)"), Ok("extrabajador"));
        assert_eq!(p.category("TRABAJADORA"), Ok("trabajador"));
        assert_eq!(p.category("Ex trabajadora"), Ok("extrabajador"));
        assert_eq!(p.category("ix"), Ok("cooperativa"));
        assert_eq!(p.category("(X)"), Ok("caja-compensacion"));
        let both = p.category("(i)").unwrap_err();
        assert!(both.en().contains("trabajador, pensionado"), "{both}");
        let e = p.category("accionista").unwrap_err();
        assert!(
            e.es().contains("«accionista» no es una categoría"),
            "{}",
            e.es()
        );
        assert!(
            e.en()
                .contains("trabajador (i), pensionado (i), extrabajador (ii)"),
            "{e}"
        );
        assert!(p.category("").is_err());
        // an acceptance may say the filer belongs to none: recorded, rejected when adjudicating
        assert_eq!(p.filing_category("Ninguna"), Ok("ninguna"));
        assert!(p.category("ninguna").is_err());
        let e = p.filing_category("gerente").unwrap_err();
        assert!(
            e.es()
                .ends_with("para quien no pertenece a ninguna, escriba ninguna"),
            "{}",
            e.es()
        );
    }
}
