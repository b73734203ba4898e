//! Which words can change what a question asks: the test
//! `rules::unexplained` applies to a word one side writes and the other
//! does not account for. A word that bears a fact (a name, a number, a
//! word of any lexicon the rules read, or a word of [`FACT_WORDS`]) keeps
//! `same` and `inverted` from being earned; any other word ("new",
//! "officially", a rules text's "use" and "recorded") may be left
//! unaccounted once every fact-bearing reading agrees. In a title only
//! adverbs and a few adjectives can bear none; in a rules text, any word
//! that is not a name, a figure, a lexicon's word or a word of
//! [`FACT_WORDS`] / [`FACT_STEMS`].
//!
//! The list is of classes of words, not of one pair's words: offices and
//! roles, who competes (sex, age), ordinals, announcing or proposing
//! rather than doing, estimates and revisions, units, times of day and
//! parts of a game, scopes, ranks and degrees, conditions and exclusions.
//! It is one sorted slice (checked by a test), read by binary search.

use super::{
    ANTONYMS, COUNTED, DIRECTION_VERBS, IMPLIED_BY, LINE_WORDS, OVERTIME_WORDS, QUALIFIERS, SCOPES,
    SYNONYMS, names_a_quantity,
};

/// Words (folded as `words::content_word` folds them: lower-case, a
/// plural's `s` dropped) that can make two questions differ on their own.
pub const FACT_WORDS: &[&str] = &[
    "abandon",
    "abroad",
    "acting",
    "actual",
    "adjusted",
    "advance",
    "again",
    "age",
    "alone",
    "alternate",
    "amateur",
    "ambassador",
    "amended",
    "amendment",
    "annual",
    "annualized",
    "annually",
    "anytime",
    "appeal",
    "appoint",
    "attempt",
    "attorney",
    "average",
    "back",
    "ballot",
    "ban",
    "basis",
    "best",
    "beta",
    "biggest",
    "bill",
    "board",
    "both",
    "bottom",
    "boy",
    "cabinet",
    "call",
    "called",
    "campaign",
    "cancel",
    "captain",
    "carat",
    "celsius",
    "cent",
    "central",
    "certified",
    "chair",
    "chairman",
    "chancellor",
    "chief",
    "coach",
    "commissioner",
    "complete",
    "conditional",
    "consecutive",
    "consecutively",
    "core",
    "correct",
    "council",
    "court",
    "cumulative",
    "daily",
    "dawn",
    "declare",
    "degree",
    "delay",
    "deputy",
    "directly",
    "director",
    "disqualification",
    "dnf",
    "double",
    "doubles",
    "draft",
    "each",
    "early",
    "either",
    "emergency",
    "enacted",
    "endorse",
    "estimate",
    "evening",
    "ever",
    "every",
    "ex",
    "exact",
    "exactly",
    "except",
    "excluding",
    "exclusively",
    "executive",
    "expect",
    "expected",
    "extra",
    "fahrenheit",
    "federal",
    "feet",
    "file",
    "filed",
    "first",
    "flash",
    "foot",
    "forecast",
    "foreign",
    "forfeit",
    "formal",
    "fourth",
    "gallon",
    "general",
    "girl",
    "governor",
    "gram",
    "half",
    "head",
    "hour",
    "individually",
    "initial",
    "initially",
    "inning",
    "interim",
    "intraday",
    "introduce",
    "introduced",
    "jointly",
    "judge",
    "junior",
    "justice",
    "kg",
    "kilometer",
    "king",
    "knot",
    "ladie",
    "lady",
    "lap",
    "largest",
    "last",
    "law",
    "leader",
    "leg",
    "liter",
    "litre",
    "local",
    "lowest",
    "mainnet",
    "majority",
    "manager",
    "map",
    "mayor",
    "mean",
    "median",
    "member",
    "meter",
    "metre",
    "metric",
    "midnight",
    "mile",
    "minister",
    "minute",
    "mixed",
    "monthly",
    "morning",
    "mostly",
    "multiple",
    "nationwide",
    "nearly",
    "net",
    "night",
    "nominal",
    "nominate",
    "none",
    "offshore",
    "only",
    "onshore",
    "option",
    "originally",
    "overnight",
    "overseas",
    "partially",
    "partly",
    "pass",
    "passed",
    "pause",
    "penalty",
    "permanently",
    "perpetual",
    "pilot",
    "plan",
    "plurality",
    "postpone",
    "preliminary",
    "premier",
    "president",
    "preview",
    "prime",
    "projected",
    "propose",
    "proposed",
    "provisional",
    "publicly",
    "quarter",
    "quarterly",
    "queen",
    "real",
    "record",
    "referendum",
    "regional",
    "regulation",
    "repeal",
    "resign",
    "revised",
    "revision",
    "round",
    "rumor",
    "runner",
    "second",
    "secretary",
    "semi",
    "senate",
    "senator",
    "senior",
    "shootout",
    "sign",
    "signed",
    "simultaneously",
    "singular",
    "sole",
    "solely",
    "solo",
    "spokesperson",
    "spot",
    "state",
    "statewide",
    "stoppage",
    "straight",
    "suspend",
    "team",
    "temporarily",
    "test",
    "testnet",
    "third",
    "tie",
    "ton",
    "tonne",
    "top",
    "total",
    "treasurer",
    "trial",
    "unadjusted",
    "unanimous",
    "unofficial",
    "veto",
    "vice",
    "void",
    "vote",
    "walkover",
    "weekday",
    "weekly",
    "wheelchair",
    "withdrawal",
    "woman",
    "women",
    "worst",
    "yard",
    "yearly",
    "youth",
];

/// Beginnings of words that bear a fact in any inflection: what happens
/// when the event is void ("refunded", "postponed", "delisted"), which
/// estimate is read ("revised", "preliminary"), whether a game's extra
/// time counts, whether a price is read at any time ("touches").
pub const FACT_STEMS: &[&str] = &[
    "abandon",
    "adjust",
    "advance",
    "cancel",
    "delist",
    "disqualif",
    "draw",
    "estimat",
    "extra",
    "final",
    "flash",
    "forfeit",
    "halt",
    "intraday",
    "overtime",
    "penalt",
    "postpon",
    "prelim",
    "push",
    "refund",
    "regulation",
    "retire",
    "revis",
    "shootout",
    "stoppage",
    "suspend",
    "tie",
    "touch",
    "void",
    "walkover",
    "wick",
    "withdr",
];

/// Words of a title that bear no fact beyond the adverbs (words in
/// "-ly" that no lexicon reads): "a new studio album" is a studio album
/// released in the window.
const PLAIN_TITLE_WORDS: &[&str] = &["new"];

/// `word` (folded), written by a side whose names are `is_name`, can
/// change what the question asks (see the module doc). In a title, only
/// adverbs and `PLAIN_TITLE_WORDS` can bear none: an unknown noun or
/// verb ("services", "host", "podium") may be another question. Read
/// only for the words left unaccounted in a pair that may be `same` or
/// `inverted`.
pub fn bears_a_fact(word: &str, is_name: impl Fn(&str) -> bool, in_title: bool) -> bool {
    let plain_in_title = word.ends_with("ly") || PLAIN_TITLE_WORDS.contains(&word);
    (in_title && !plain_in_title)
        // Initials, codes and figures ("j.d", "r9", "fy2027", "km²"), and
        // words of two letters, which are mostly short forms ("la", "ot").
        || word.len() <= 2
        || word.chars().any(|c| !(c.is_ascii_lowercase() || c == '-'))
        || is_name(word)
        || FACT_WORDS.binary_search(&word).is_ok()
        || FACT_STEMS.iter().any(|stem| word.starts_with(stem))
        || names_a_quantity(word)
        || ANTONYMS
            .iter()
            .any(|(xs, ys, _)| xs.contains(&word) || ys.contains(&word))
        || QUALIFIERS.iter().any(|q| {
            q.members
                .iter()
                .any(|phrases| phrases.iter().any(|p| p.contains(&word)))
        })
        || SCOPES.contains(&word)
        || SYNONYMS.iter().any(|group| group.contains(&word))
        || OVERTIME_WORDS.contains(&word)
        || LINE_WORDS.contains(&word)
        || COUNTED.contains(&word)
        || DIRECTION_VERBS.0.contains(&word)
        || DIRECTION_VERBS.1.contains(&word)
        || IMPLIED_BY.iter().any(|(implied, _)| *implied == word)
        || super::super::words::NEGATIONS.contains(&word)
        || matches!(word, "semifinal" | "quarterfinal" | "playoff")
}

#[cfg(test)]
mod tests {
    use super::{FACT_WORDS, bears_a_fact};

    #[test]
    fn the_list_is_sorted_and_unique_for_binary_search() {
        assert!(
            FACT_WORDS.windows(2).all(|w| w[0] < w[1]),
            "FACT_WORDS must be sorted and unique"
        );
    }

    #[test]
    fn names_numbers_and_lexicon_words_bear_facts_adverbs_do_not() {
        let no_names = |_: &str| false;
        for word in [
            "women", "third", "r9", "la", "cpi", "hold", "globally", "overtime", "early",
        ] {
            assert!(bears_a_fact(word, no_names, true), "{word}");
            assert!(bears_a_fact(word, no_names, false), "{word}");
        }
        assert!(bears_a_fact("pebble", |w| w == "pebble", false));
        // A rules text's void branch, in any inflection.
        for word in [
            "refunded",
            "postponed",
            "delisted",
            "cancellation",
            "revised",
        ] {
            assert!(bears_a_fact(word, no_names, false), "{word}");
        }
        // An unknown noun or verb of a title may be another question.
        for word in ["service", "host", "podium", "strength"] {
            assert!(bears_a_fact(word, no_names, true), "{word}");
        }
        for word in ["new", "officially"] {
            assert!(!bears_a_fact(word, no_names, true), "{word}");
        }
        for word in ["use", "recorded", "strength"] {
            assert!(!bears_a_fact(word, no_names, false), "{word}");
        }
    }
}
