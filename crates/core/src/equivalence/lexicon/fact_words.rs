//! Which words can change what a question asks: the test
//! `rules::unexplained` applies to a word one side writes and the other
//! does not account for. A word that bears a fact (a name, a number, a
//! word of any lexicon the rules read, or a word of [`FACT_WORDS`]) keeps
//! `same` and `inverted` from being earned; any other word ("new",
//! "officially", a rules text's "use" and "recorded") may be left
//! unaccounted once every fact-bearing reading agrees, in a title as in
//! a rules text: any word that is not a name, a figure, a lexicon's word
//! or a word of [`FACT_WORDS`] / [`FACT_STEMS`].
//!
//! The list is of classes of words, not of one pair's words: offices and
//! roles, who competes (sex, age), ordinals, announcing, proposing or
//! applying rather than doing, estimates and revisions, units, times of
//! day and parts of a game, scopes, ranks and degrees, conditions and
//! exclusions; the stages and parts of a contest short of its title and
//! the roles in it other than winning (a nomination, a primary, a group,
//! a podium, hosting, a televote); the components and sectors of a
//! measure (services, goods, private, trimmed); a fiscal year; a trade at
//! any time against a close; a derivative of a price (futures, options,
//! an ETF); figures written in words; a sportsbook's
//! kind of market (double chance, handicap) and part of a season
//! (regular, postseason); a run-off; a party named as a party; a kind of
//! record (studio, compilation, remix).
//! It is one sorted slice (checked by a test), read by binary search.

use super::{
    ANTONYMS, ANY_TIME_WORDS, BOTH_TEAMS_WORDS, COUNT_VERBS, COUNTED, DEFAULT_SCOPES,
    DIRECTION_VERBS, FLIP_WORDS, GAME_RESULT_WORDS, GAME_SCORE_WORDS, GENERIC_MEMBER_WORDS,
    IMPLIED_BY, LINE_WORDS, OFFICE_RANKS, OVERTIME_WORDS, QUALIFIERS, SCOPES,
    SOCCER_FULL_TIME_WORDS, SYNONYMS, names_a_quantity,
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
    "application",
    "applie",
    "applied",
    "apply",
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
    "compilation",
    "complete",
    "component",
    "conditional",
    "consecutive",
    "consecutively",
    "construction",
    "control",
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
    "deluxe",
    "deputy",
    "directly",
    "director",
    "disqualification",
    "dnf",
    "double",
    "double-chance",
    "doubles",
    "dozen",
    "draft",
    "durable",
    "each",
    "early",
    "eight",
    "either",
    "eleven",
    "emergency",
    "enacted",
    "endorse",
    "energy",
    "estimate",
    "etf",
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
    "finalist",
    "first",
    "fiscal",
    "five",
    "flash",
    "food",
    "foot",
    "forecast",
    "foreign",
    "forfeit",
    "formal",
    "forward",
    "four",
    "fourth",
    "future",
    "gallon",
    "general",
    "girl",
    "good",
    "governor",
    "gram",
    "group",
    "half",
    "handicap",
    "head",
    "heat",
    "host",
    "hour",
    "household",
    "hundred",
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
    "jury",
    "justice",
    "kg",
    "kilometer",
    "king",
    "knockout",
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
    "longlist",
    "lowest",
    "mainnet",
    "majority",
    "manager",
    "manufacturing",
    "map",
    "mayor",
    "mean",
    "medal",
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
    "mixtape",
    "monthly",
    "morning",
    "mostly",
    "multiple",
    "nationwide",
    "nearly",
    "net",
    "night",
    "nine",
    "nominal",
    "nominate",
    // "non-manufacturing" against "manufacturing": another survey.
    "non",
    "none",
    "offshore",
    "only",
    "onshore",
    "option",
    "originally",
    "overnight",
    "overseas",
    "parlay",
    "partially",
    "partly",
    "party",
    "pass",
    "passed",
    "pause",
    "penalty",
    "permanently",
    "perp",
    "perpetual",
    "pilot",
    "plan",
    "plurality",
    "podium",
    "pole",
    "postpone",
    "postseason",
    "preliminary",
    "premier",
    "preseason",
    "president",
    "preview",
    "prime",
    "private",
    "projected",
    "propose",
    "proposed",
    "provisional",
    "public",
    "publicly",
    "qualifier",
    "quarter",
    "quarterfinalist",
    "quarterly",
    "queen",
    "real",
    "record",
    "referendum",
    "regional",
    "regular",
    "regulation",
    "remix",
    "repeal",
    "resign",
    "revised",
    "revision",
    "round",
    "rumor",
    "runner",
    "runner-up",
    "second",
    "secretary",
    "sector",
    "seed",
    "semi",
    "semifinalist",
    "senate",
    "senator",
    "senior",
    "service",
    "seven",
    "shelter",
    "shootout",
    "shortlist",
    "sign",
    "signed",
    "simultaneously",
    "singular",
    "six",
    "sole",
    "solely",
    "solo",
    "spokesperson",
    "spot",
    "stage",
    "state",
    "statewide",
    "stoppage",
    "straight",
    "studio",
    "supercore",
    "suspend",
    "team",
    "temporarily",
    "ten",
    "test",
    "testnet",
    "third",
    "three",
    "tie",
    "ton",
    "tonne",
    "top",
    "total",
    "trade",
    "treasurer",
    "trial",
    "trim",
    "twelve",
    "twenty",
    "two",
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
    "wholesale",
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
    "caucus",
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
    "manufactur",
    "nomin",
    "overtime",
    "penalt",
    "postpon",
    "prelim",
    "primar",
    "push",
    "refund",
    "regulation",
    "retire",
    "revis",
    "runoff",
    "shootout",
    "stoppage",
    "suspend",
    "televot",
    "tie",
    "touch",
    "void",
    "walkover",
    "wick",
    "withdr",
];

/// `word` (folded), written by a side whose names are `is_name`, can
/// change what the question asks (see the module doc): a name, a figure,
/// a word of a lexicon the rules read or of [`FACT_WORDS`] /
/// `FACT_STEMS`. Read only for the words left unaccounted in a pair
/// whose subject, quantity, threshold and window agree with no veto
/// (`unexplained_difference` runs only then), in a title as in a rules
/// text: what else is left ("wallet", "film", "network") is a descriptor
/// of what both name.
pub fn bears_a_fact(word: &str, is_name: impl Fn(&str) -> bool) -> bool {
    // Initials, codes and figures ("j.d", "r9", "fy2027", "km²"), and
    // words of two letters, which are mostly short forms ("la", "ot").
    word.len() <= 2
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

/// Words naming a division of a contest ("Junior Eurovision", "U21
/// Euro", "Senior Open"): another contest than the one without the
/// word, and never a person's given name, though they lead a span of
/// capitalized words as one does ("Junior Eurovision" is not a Mr
/// Eurovision whose surname the other side names: test-v13's
/// eurovision-2030-junior-vs-senior-sweden, called `same`). Not "women"
/// (a player's "Women's Singles" is her event) nor "reserve" (a
/// central bank's name).
const DIVISIONS: &[&str] = &[
    "amateur",
    "junior",
    "paralympic",
    "senior",
    "u17",
    "u19",
    "u20",
    "u21",
    "u23",
    "youth",
];

/// Whether `word` names a division of a contest (`DIVISIONS`).
pub fn names_a_division(word: &str) -> bool {
    DIVISIONS.contains(&word)
}

/// A word some rule accounts for only under a condition (one coin
/// flipping another by market cap, both teams scoring, a game's result
/// or score, a price at any time, a count's verb, an office's rank, a
/// scope a measure implies, a high reached, staying): where it was left
/// unaccounted, the condition failed, and in a title it is another
/// question ("Solana flips Ethereum" / "SOL market cap below ETH's").
pub fn read_under_a_condition(w: &str) -> bool {
    [
        FLIP_WORDS,
        BOTH_TEAMS_WORDS,
        GAME_RESULT_WORDS,
        GAME_SCORE_WORDS,
        SOCCER_FULL_TIME_WORDS,
        ANY_TIME_WORDS,
        COUNT_VERBS,
        OFFICE_RANKS,
        GENERIC_MEMBER_WORDS,
    ]
    .iter()
    .any(|list| list.contains(&w))
        || DEFAULT_SCOPES.iter().any(|(scope, _)| scope.contains(&w))
        || matches!(
            w,
            "high" | "highest" | "remain" | "stay" | "throughout" | "all" | "us"
        )
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
            assert!(bears_a_fact(word, no_names), "{word}");
        }
        assert!(bears_a_fact("pebble", |w| w == "pebble"));
        // A rules text's void branch, in any inflection.
        for word in [
            "refunded",
            "postponed",
            "delisted",
            "cancellation",
            "revised",
        ] {
            assert!(bears_a_fact(word, no_names), "{word}");
        }
        // A stage or role short of the title, a component of a measure, a
        // figure in words: another question.
        for word in [
            "service", "host", "podium", "nominee", "primary", "group", "private", "two",
        ] {
            assert!(bears_a_fact(word, no_names), "{word}");
        }
        // A descriptor of what both name, a rules text's boilerplate.
        for word in ["new", "officially", "wallet", "use", "recorded", "strength"] {
            assert!(!bears_a_fact(word, no_names), "{word}");
        }
    }
}
