//! The holder page's choice of which pledge to release when several are in force on one
//! adjudication (Art. 10: the financed shares in the second degree, the rest in the first):
//! markup only; the rules are `register::pledge`'s.

use super::views::numero;
use crate::register::Field;
use crate::store::pledges::Pledge;
use maud::{Markup, html};

/// A select named like [`Field::Pledge`]: every pledge in force (empty value), or one of them,
/// `chosen` the one the sent form named.
pub(super) fn which_to_release(in_force: &[&Pledge], chosen: &str) -> Markup {
    let name = Field::Pledge.as_str();
    html! {
        div.campo {
            label for=(name) { "Prenda que se libera" }
            select id=(name) name=(name) {
                option value="" selected[chosen.is_empty()] { "Todas las vigentes" }
                @for p in in_force {
                    @let id = p.id.to_string();
                    option value=(id) selected[chosen == id] {
                        "N.º " (p.id) ": de grado " (p.rank) ", sobre " (numero(p.shares)) " acciones"
                    }
                }
            }
        }
    }
}
