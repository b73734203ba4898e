//! Words of a rules text that [`bears_a_fact`](super::bears_a_fact)
//! flags but that, in a rules text, only say how a figure or a decision
//! becomes known: the closed set of the matcher's fourteenth round
//! (docs/benchmarks.md, "Fourteenth round: recall").
//!
//! Real platforms' rules differ in boilerplate for one question (who
//! publishes the figure, how a decision is announced, the unit a price
//! is quoted in); until this list such a word, on one side's rules only,
//! kept `same` and `inverted` from being earned. A word here may be left
//! over by **one** side's rules (`unexplained_difference`), once the
//! subject, quantity, threshold and window agree and no veto fired; both
//! sides leaving words of this list (two publishers, two units) still
//! stops the verdict.
//!
//! Built as data, not pair by pair: the words the development sets'
//! rules texts hold that `bears_a_fact` flags (584 words with the names;
//! the 104 that are no name and stand in two sets or more, and the names
//! in three sets or more; `docs/benchmarks.md`, "Fourteenth round:
//! recall"), sorted into classes, and only these classes kept:
//! - announcing or reporting a decision or a result, by whoever makes it: the
//!   outcome is the decision, not its announcement (a title's
//!   "announces" stays a fact: `FACT_WORDS`);
//! - the body that decides and its meeting, as a rate decision's rules
//!   name them ("the Monetary Policy Committee's meeting");
//! - the unit a commodity's price is quoted in (gallon, barrel);
//! - the agency that publishes an official series, by its short name
//!   (BLS, BEA, NWS, Eurostat): the series has one publisher, and two
//!   sides naming two agencies stop the verdict as above.
//!
//! Left out on purpose, because in a rules text they carry a fact some
//! labelled pair turned on (`different` or nested) in more than one set:
//! a void or refund branch and its event (void, refunded, cancelled,
//! push, tie, draw, delist, withdraw, postponed, "originally"), overtime
//! and regulation, a release's vintage (first, initial, advance, flash,
//! second, revised, final, estimate, actual, release, month), a price's
//! method and venue (minute, close, average, high, index, real, exchange
//! names, USD/USDT), a station or place (airport, national, NY), a
//! component or scope (service, studio, domestic, national), an office
//! or a stage; and every spelled-out agency name, whose words ("national
//! bureau of statistics", "weather service") are also scopes and
//! components elsewhere.
//!
//! Since the fifteenth round (docs/benchmarks.md, "Fifteenth round:
//! recall with rules texts") a name a rules text adds is left the same
//! way (one side only), the facts among the words left out above are
//! read and compared (`facts/rules_facts.rs`, `lexicon/rules_classes.rs`),
//! and a rules word of no class stops nothing (`rules/unexplained/rules_text.rs`).

/// Sorted for binary search (a test checks); folded as
/// `words::content_word` folds (lower-case, a plural's `s` dropped).
const RULES_BOILERPLATE: &[&str] = &[
    "announce",
    "announced",
    "barrel",
    "bea",
    "bls",
    "committee",
    "eurostat",
    "gallon",
    "meeting",
    "monetary",
    "nws",
    "report",
];

/// Whether `word`, left over by one side's rules text, only says how the
/// figure or decision becomes known (the closed set of this module).
pub fn rules_boilerplate(word: &str) -> bool {
    RULES_BOILERPLATE.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::RULES_BOILERPLATE;

    #[test]
    fn the_list_is_sorted_for_binary_search() {
        assert!(RULES_BOILERPLATE.windows(2).all(|w| w[0] < w[1]));
    }
}
