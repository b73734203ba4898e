//! The classes of facts a rules text carries that two platforms' rules
//! for one question may state differently, as data: the words that name
//! a void or refund branch and its trigger, how much of a game counts (a
//! tie, overtime, regulation, innings), a release's vintage (the first
//! print against a revision), and the venue or index a price is read on.
//!
//! Built from the development sets' rules texts: the words
//! `unexplained_difference` left over on a labelled different, subset or
//! superset pair that nothing but its rules kept from `same`
//! (docs/benchmarks.md, "Fourteenth round: recall (branch recall17)" and
//! "Fifteenth round: recall with rules texts (branch recall18)"), taken
//! whole as their classes, not pair by pair. A rules word outside every
//! class, and outside the names both sides' rules add, no longer stops a
//! verdict once every title fact agrees (`rules/unexplained.rs`); a word
//! of a class is decided by its fact (`facts/rules_facts.rs`).

/// Words that state a void, refund or push branch or the event that
/// triggers one: a side that states one where the other is silent may
/// settle a cancelled event otherwise (refund against No). Folded as
/// `words::content_word` folds (a plural's `s` dropped).
pub const VOID_WORDS: &[&str] = &[
    "abandoned",
    "cancel",
    "canceled",
    "cancellation",
    "cancelled",
    "delist",
    "delisted",
    "delisting",
    "originally",
    "postpone",
    "postponed",
    "postponement",
    "refund",
    "refunded",
    "rescheduled",
    "void",
    "voided",
    "withdraw",
    "withdrawal",
    "withdrawn",
];

/// Words that say how much of a game counts or what a tie does:
/// overtime or regulation only, a tie pushed or resolving No, a game
/// shortened by its innings, a moneyline's terms. Stated on one side
/// only, such a word is a fact the other may settle otherwise, so it
/// still stops `same` (no reader yet compares two sides' statements).
pub const GAME_COUNT_WORDS: &[&str] = &[
    "draw",
    "early",
    "extra",
    "inning",
    "moneyline",
    "overtime",
    "penaltie",
    "penalty",
    "push",
    "regulation",
    "shootout",
    "shortened",
    "stoppage",
    "tie",
];

/// Words that state the window's basis in the rules ("the seasonal
/// snowfall, July 1 to June 30", "the fiscal year", "Q3 2029"): a window
/// the title may state otherwise (a calendar year). A quarter the title
/// states is accounted for before (`rules/unexplained/accounted.rs`).
pub const WINDOW_BASIS_WORDS: &[&str] = &["fiscal", "q1", "q2", "q3", "q4", "seasonal"];

/// Words that state a figure's basis ("the annualized rate"): another
/// figure than one read quarter on quarter, unless the quantity's own
/// convention accounts for it first (the US GDP's SAAR:
/// `lexicon/accounting.rs`).
pub const FIGURE_BASIS_WORDS: &[&str] = &["annualised", "annualized", "nominal"];

/// Price venues and index providers a crypto or commodity price is read
/// on: two venues print two prices either side of a strike.
pub const VENUES: &[&str] = &[
    "binance",
    "bitstamp",
    "bloomberg",
    "brti",
    "bybit",
    "chainlink",
    "coinbase",
    "coingecko",
    "coinmarketcap",
    "forbes",
    "gemini",
    "kraken",
    "okx",
    "pyth",
];

/// Words that write a release's vintage, read with their neighbours by
/// `facts/rules_facts.rs` ("first release", "as revised"): a rules word
/// of this list is decided by the vintage read, not by itself.
pub const VINTAGE_WORDS: &[&str] = &[
    "actual",
    "advance",
    "detailed",
    "estimate",
    "final",
    "first",
    "flash",
    "initial",
    "preliminary",
    "revised",
    "revision",
    "second",
    "third",
];

/// Whether `word` belongs to `list`, a sorted list of this module.
pub fn in_class(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_sorted_for_binary_search() {
        for list in [
            VOID_WORDS,
            GAME_COUNT_WORDS,
            WINDOW_BASIS_WORDS,
            FIGURE_BASIS_WORDS,
            VENUES,
            VINTAGE_WORDS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }
}
