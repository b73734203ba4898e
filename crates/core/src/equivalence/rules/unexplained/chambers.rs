//! The legislative chambers a title names alone ("the Senate", "the
//! House"), read for the words written before a name (`accounted.rs`):
//! a place before a chamber may name another chamber, never a title or a
//! given name of the same.

/// Chambers a state or city has its own of: "Arizona House", "London
/// Assembly" are not the US House or a national assembly.
const OWN_CHAMBERS: &[&str] = &["house", "assembly", "legislature"];

/// `word`, written before the name `name`, names another chamber than
/// `name` alone does: any word before a chamber of [`OWN_CHAMBERS`], and
/// "State" before the Senate ("Arizona State Senate"). A state before
/// "Senate" alone is its seat in the US Senate ("Pennsylvania Senate
/// winner"), which the other side's "Senate" may mean.
pub(super) fn names_another_chamber(word: &str, name: &str) -> bool {
    OWN_CHAMBERS.contains(&name) || (word == "state" && name == "senate")
}
