//! What a rules text's leftover words do to a verdict, once the
//! subject, quantity, threshold and window agree and no veto fired (the
//! fifteenth round: docs/benchmarks.md, "Fifteenth round: recall with
//! rules texts (branch recall18)").
//!
//! Two platforms' rules for one question differ in boilerplate: who
//! publishes the figure, how it is announced, ties, delays and closing
//! instants written otherwise. The facts among those words are read once
//! per market (`facts/rules_facts.rs`: a release's vintage, a void or
//! refund branch, the price venues) and compared here, so that the fact
//! decides; the words of a class no reader compares yet (how much of a
//! game counts: `GAME_COUNT_WORDS`) still stop `same`; a name the rules
//! add may be left by one side only (two stations, two agencies are two
//! questions); any other rules word stops nothing.

use super::super::super::facts::Facts;
use super::super::super::facts::rules_facts::{
    FIRST_PRINT, LATER_PRINT, VOID_UNREAD, read_as_a_fact,
};
use super::super::super::lexicon::rules_boilerplate;
use super::super::super::lexicon::rules_classes::{
    FIGURE_BASIS_WORDS, GAME_COUNT_WORDS, VENUES, VINTAGE_WORDS, WINDOW_BASIS_WORDS, in_class,
};

/// What a rules word one side leaves unaccounted does to the verdict.
pub(super) enum RulesWord {
    /// It states a fact no reader compares: it stops `same`.
    Fact,
    /// A reader compares its fact ([`rules_facts_unmatched`]).
    ReadAsAFact,
    /// A name or a publisher's word: one side may leave such words.
    OneSideOnly,
    /// It bears no fact the titles do not state.
    Plain,
}

/// The class of `w`, a word of `x`'s rules text.
pub(super) fn rules_word_class(w: &str, x: &Facts) -> RulesWord {
    if [GAME_COUNT_WORDS, WINDOW_BASIS_WORDS, FIGURE_BASIS_WORDS]
        .iter()
        .any(|list| in_class(list, w))
    {
        RulesWord::Fact
    } else if read_as_a_fact(w) || (in_class(VINTAGE_WORDS, w) && x.rules_facts.vintage != 0) {
        RulesWord::ReadAsAFact
    } else if rules_boilerplate(w) || x.criteria_names.contains(w) {
        RulesWord::OneSideOnly
    } else {
        RulesWord::Plain
    }
}

/// The facts of `x`'s rules that `y` does not state alike: a later
/// vintage or two vintages, a void branch `y` is silent on, a venue `y`
/// does not name. A first print stated on one side only is what a side
/// silent on it settles on (an official figure as first published).
pub(super) fn rules_facts_unmatched(x: &Facts, y: &Facts) -> Vec<String> {
    let (rx, ry) = (&x.rules_facts, &y.rules_facts);
    let mut out = Vec::new();
    if rx.vintage != 0
        && rx.vintage != ry.vintage
        && !(rx.vintage == FIRST_PRINT && ry.vintage == 0)
    {
        let said = match rx.vintage {
            FIRST_PRINT => "a first print",
            LATER_PRINT => "a later print",
            _ => "a first print and a revision",
        };
        out.push(format!("rules: {said} where the other says otherwise"));
    }
    // Two void branches must resolve alike, each read; one side's branch
    // against a side silent on it may settle a cancelled event otherwise.
    if let Some(w) = rx.void_word
        && !y.words.contains(w)
        && (ry.void_word.is_none()
            || rx.void_outcomes != ry.void_outcomes
            || rx.void_outcomes & VOID_UNREAD != 0)
    {
        out.push(format!(
            "rules: a void branch ({w}) the other does not settle alike"
        ));
    }
    // A venue the other side does not name, where the other names a
    // source at all (a side silent on its source is read on any).
    let only_x = rx.venues & !ry.venues;
    if only_x != 0 && (ry.names_source || y.source.is_some()) {
        let named: Vec<&str> = VENUES
            .iter()
            .enumerate()
            .filter(|(bit, _)| only_x & (1 << bit) != 0)
            .map(|(_, v)| *v)
            .collect();
        out.push(format!("rules: the venue {}", named.join(", ")));
    }
    out
}
