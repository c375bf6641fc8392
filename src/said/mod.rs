//! Every sentence the rules, the check, the imports and the front ends say through
//! [`crate::said!`], one catalogue per language: [`en`] and [`es`], one module per area, one
//! function per sentence taking the facts it names. A sentence one catalogue has and the other
//! lacks does not compile (the macro calls both); the tests below keep every sentence here.

pub mod en;
pub mod es;

#[cfg(test)]
pub(crate) mod tests;
