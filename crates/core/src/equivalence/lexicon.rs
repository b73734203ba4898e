//! The words the rules read as facts: predicates that ask the opposite
//! of each other, the quantities a question measures (in
//! `quantities.rs`), the words one side may leave unwritten (in
//! `accounting.rs`), the tickers of coins and indices (in `tickers.rs`),
//! the teams of the leagues and their cities (in `teams.rs`), the words
//! that can change what a question asks (in `fact_words.rs`), the last
//! trading day of a year (in `calendar.rs`), the days of the year known
//! by a name (in `named_days.rs`), the NFL's teams (in `nfl_teams.rs`),
//! and the recurring
//! events whose editions are named by number ("Super Bowl LXII", "the
//! 99th Academy Awards") with the year each edition falls in.
//!
//! Kept as tables so that a miss is fixed by a line here, not by a branch
//! in a rule.

mod accounting;
pub use accounting::{
    ANY_TIME_WORDS, BOTH_TEAMS_WORDS, COUNT_VERBS, DEFAULT_SCOPES, DIRECTION_VERBS, EVENT_NOUNS,
    FILLER, FLIP_WORDS, GAME_RESULT_WORDS, GAME_SCORE_WORDS, IMPLIED_BY, LIGHT_VERBS, LINE_WORDS,
    NO_OP, OFFICE_RANKS, OVERTIME_WORDS, SCOPES, SOCCER_FULL_TIME_WORDS, SYNONYMS, TAKES_PLACE,
    US_GDP_BASIS, implied_by,
};
mod boilerplate;
mod calendar;
mod editions;
pub(crate) mod entities;
mod fact_words;
mod named_days;
mod nfl_teams;
pub(crate) mod publishers;
mod quantities;
pub(crate) mod rules_classes;
mod stages;
pub(crate) mod team_codes;
mod teams;
pub(crate) mod tickers;
pub use boilerplate::rules_boilerplate;
pub use calendar::{closed_on_december_31, last_trading_day};
pub use editions::{EDITIONS, Edition};
pub use fact_words::{FACT_WORDS, bears_a_fact, names_a_division, read_under_a_condition};
pub use named_days::{EVENT_MONTHS, Falls, NAMED_DAYS, day_in};
pub use nfl_teams::{NFL_ONLY_TEAMS, NFL_SHARED_NICKNAMES};
pub use quantities::{
    GENERIC_MEMBER_WORDS, QUANTITIES, Quantity, commodity_keys, names_a_quantity, quantity_keys,
    quantity_masks, quantity_members_of,
};
pub(crate) use stages::{STAGE_VERBS, STAGES};
pub use teams::{
    MLB_ONLY_NAMES, MLB_TEAMS, NO_DRAW_TEAMS, SHOOTOUT_TEAMS, SHOOTOUT_TEAMS_BY_CITY, TEAM_CITIES,
    city_stands_for_team, may_stand_for_a_team, nickname_lead, of_a_shared_city,
    other_team_against_a_city, other_team_of_the_game, team_of_a_shared_city,
};

/// How two opposite predicates relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opposition {
    /// One is the negation of the other, on one subject and window ("hold"
    /// / "change" rates, "remain" / "leave" an office, "make" / "miss" the
    /// playoffs): YES on one is NO on the other.
    Complementary,
    /// Both can be NO ("cut" / "hike": a hold; "confirm" / "reject": no
    /// vote): two questions.
    Contrary,
    /// Complementary only where a draw or no contest cannot happen ("win"
    /// / "lose" a soccer match can both be NO): the text cannot tell.
    Conditional,
}

/// Opposite predicates, as folded words (see `words::fold`). Each side of
/// an entry is a list of words that say it.
pub const ANTONYMS: &[(&[&str], &[&str], Opposition)] = &[
    (
        // "hold rates steady": the state the hold keeps.
        &["hold", "unchanged", "pause", "keep", "steady"],
        &["change", "move"],
        Opposition::Complementary,
    ),
    (
        &["remain", "stay"],
        // Not "cease": it is a negation ("ceases to be PM"), which the
        // negation rule reads; read here too, it would flip the pair twice.
        &[
            "leave", "out", "resign", "exit", "step", "ousted", "removed", "replaced",
        ],
        Opposition::Complementary,
    ),
    (&["make"], &["miss"], Opposition::Complementary),
    (&["cut"], &["hike"], Opposition::Contrary),
    (
        &["hold", "unchanged", "pause", "steady"],
        &["cut", "hike"],
        Opposition::Contrary,
    ),
    (
        &["approve", "confirm"],
        &["reject", "deny", "block"],
        Opposition::Contrary,
    ),
    (&["rise"], &["fall"], Opposition::Contrary),
    (&["up"], &["down"], Opposition::Contrary),
    (&["gain"], &["loss"], Opposition::Contrary),
    (&["win"], &["lose"], Opposition::Conditional),
    // "sell any" / "hold all": keeping every unit is selling none.
    (&["sell"], &["hold"], Opposition::Complementary),
    // "Republicans hold the seat" / "lose the seat", "keep" / "lose its
    // majority": what is held is either kept or lost, with no third
    // outcome (unlike "win" / "lose" a game, which a draw can end).
    (
        &["hold", "keep", "retain"],
        &["lose"],
        Opposition::Complementary,
    ),
    // The sixteenth round's opposites (branch recall21, docs/benchmarks.md
    // "Sixteenth round: names, paraphrase and antonyms"), each the two
    // outcomes of one event with no third: a club that stays up is not
    // relegated; a filibuster or a programme that survives is not
    // scrapped. The negative side alone against neither word is read as
    // another question (`one_sided_complement`), so the side a text may
    // write without its opposite in mind ("relegated") is the second.
    (
        &["survive", "stay"],
        &["relegated", "relegation", "scrap", "scrapped"],
        Opposition::Complementary,
    ),
];

/// Names that are the two sides of a two-way contest: a question on one
/// is the opposite of the same question on the other.
pub const OPPOSED: &[(&str, &str)] = &[("republican", "democrat")];

/// Comparatives asked without a number ("Solana's market cap above
/// Ethereum's" / "below Ethereum's"): the negation of each other, but for
/// a tie.
pub const COMPARATIVES: (&[&str], &[&str]) = (
    &["above", "over", "exceed", "exceeds", "surpass", "surpasses"],
    &["below", "under"],
);

/// A family of qualifiers: ways of meeting a question's YES that one
/// platform names and another leaves open ("win by KO/TKO" against
/// "win"). A qualifier on one side only narrows that side; two different
/// members of one family ("by KO" / "by decision") are two questions.
/// Each member is a list of phrases, each phrase the title's words in
/// order, lower-case as written.
pub struct Qualifier {
    pub family: &'static str,
    pub members: &'static [&'static [&'static [&'static str]]],
}

pub const QUALIFIERS: &[Qualifier] = &[
    Qualifier {
        family: "method of victory",
        members: &[
            &[&["ko"], &["tko"], &["knockout"]],
            &[&["by", "decision"], &["on", "points"]],
            &[&["by", "submission"]],
            &[&["inside", "the", "distance"], &["by", "stoppage"]],
        ],
    },
    Qualifier {
        family: "time of the win",
        members: &[
            &[&["in", "regulation"], &["regulation", "time"]],
            &[&["in", "straight", "sets"]],
            &[&["in", "the", "first", "round"], &["outright"]],
        ],
    },
    Qualifier {
        family: "margin of the vote",
        members: &[&[&["unanimously"], &["unanimous"]]],
    },
    Qualifier {
        family: "crew",
        members: &[&[&["uncrewed"], &["unmanned"]], &[&["crewed"], &["manned"]]],
    },
    // A role at an event against any appearance at it: the headliner
    // performs, a performer need not headline. A title that names the
    // role is the narrower question, whatever the other's rules text says
    // of headliners.
    Qualifier {
        family: "role at an event",
        members: &[&[
            &["headline"],
            &["headlines"],
            &["headlined"],
            &["headlining"],
            &["headliner"],
            &["headliners"],
        ]],
    },
];

/// The members of each family of [`QUALIFIERS`] a title names, as a bit
/// mask per family (index-aligned), from its words in order.
pub fn qualifier_masks(words: &[&str]) -> Vec<u32> {
    let says =
        |phrase: &[&str]| !phrase.is_empty() && words.windows(phrase.len()).any(|w| w == phrase);
    QUALIFIERS
        .iter()
        .map(|q| {
            q.members
                .iter()
                .enumerate()
                .filter(|(_, phrases)| phrases.iter().any(|ph| says(ph)))
                .fold(0, |mask, (i, _)| mask | 1 << i)
        })
        .collect()
}

/// Words by which a market says overtime (and a shoot-out or penalties)
/// decide its game, so that it cannot end level: each entry's words all
/// written.
pub const OVERTIME_COUNTS: &[&[&str]] = &[
    &["including", "overtime"],
    &["including", "ot"],
    &["incl", "ot"],
    &["overtime", "included"],
    &["including", "extra", "time"],
    &["to", "advance"],
];

/// Words that name a quantity counted in whole units: "more than 3" is
/// "4 or more" of them.
pub const COUNTED: &[&str] = &[
    "time",
    "times",
    "cut",
    "cuts",
    "hike",
    "hikes",
    "game",
    "games",
    "run",
    "runs",
    "goal",
    "goals",
    "assist",
    "assists",
    "tweet",
    "tweets",
    "post",
    "posts",
    "day",
    "days",
    "case",
    "cases",
    "seat",
    "seats",
    "vehicle",
    "vehicles",
    "touchdown",
    "touchdowns",
    "yard",
    "yards",
    "inch",
    "inches",
    // A player's or a team's line ("Over 24.5 Points", "Over 52.5 Wins").
    "points",
    "rbi",
    "rbis",
    "wins",
    "rebounds",
    "strikeouts",
    "medals",
    "dissents",
];

/// A name written as words and a number ("Nasdaq-100", "Russell 2000",
/// "S&P 500", "Formula 1") and the one word it is read as: for a stock
/// index, what its ticker is read as too (`tickers::index_of_ticker`).
/// Its number is neither a year nor a line.
pub struct NumberedName {
    pub words: &'static [&'static str],
    pub number: f64,
    pub name: &'static str,
}

pub const NUMBERED_NAMES: &[NumberedName] = &[
    NumberedName {
        words: &["nasdaq"],
        number: 100.0,
        name: "ndx",
    },
    NumberedName {
        words: &["russell"],
        number: 2000.0,
        name: "rut",
    },
    NumberedName {
        words: &["s", "p"],
        number: 500.0,
        name: "spx",
    },
    NumberedName {
        words: &["nikkei"],
        number: 225.0,
        name: "nikkei",
    },
    NumberedName {
        words: &["ftse"],
        number: 100.0,
        name: "ftse",
    },
    NumberedName {
        words: &["cac"],
        number: 40.0,
        name: "cac",
    },
    NumberedName {
        words: &["euro", "stoxx"],
        number: 50.0,
        name: "stoxx",
    },
    NumberedName {
        words: &["formula"],
        number: 1.0,
        name: "f1",
    },
];

/// For each entry of [`ANTONYMS`] (index-aligned), the word of its first
/// side the text has (when it has none of the second) and the word of its
/// second side (when it has none of the first).
pub fn antonym_sides(
    has: impl Fn(&str) -> bool,
) -> Vec<(Option<&'static str>, Option<&'static str>)> {
    let one_side = |these: &[&'static str], those: &[&'static str]| {
        these
            .iter()
            .copied()
            .find(|w| has(w))
            .filter(|_| !those.iter().any(|w| has(w)))
    };
    ANTONYMS
        .iter()
        .map(|&(xs, ys, _)| (one_side(xs, ys), one_side(ys, xs)))
        .collect()
}

/// The value of a Roman numeral (lower-case), if the word is one.
pub fn roman(word: &str) -> Option<i64> {
    let digit = |c: char| match c {
        'i' => Some(1),
        'v' => Some(5),
        'x' => Some(10),
        'l' => Some(50),
        'c' => Some(100),
        _ => None,
    };
    let values: Vec<i64> = word.chars().map(digit).collect::<Option<_>>()?;
    let mut total = 0;
    for (i, v) in values.iter().enumerate() {
        if values.get(i + 1).is_some_and(|next| next > v) {
            total -= v;
        } else {
            total += v;
        }
    }
    (total > 0).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_numerals() {
        assert_eq!(roman("lxii"), Some(62));
        assert_eq!(roman("lxi"), Some(61));
        assert_eq!(roman("xlix"), Some(49));
        assert_eq!(roman("bowl"), None);
    }

    #[test]
    fn editions_land_on_their_years() {
        let year = |words: &[&str], n: i64| {
            EDITIONS
                .iter()
                .find(|e| e.words == words)
                .map(|e| e.year_zero + n * e.every)
        };
        assert_eq!(year(&["super", "bowl"], 62), Some(2028));
        assert_eq!(year(&["oscars"], 98), Some(2026));
        assert_eq!(year(&["grammy"], 69), Some(2027));
        assert_eq!(year(&["masters"], 89), Some(2025));
        assert_eq!(year(&["kentucky", "derby"], 151), Some(2025));
        assert_eq!(year(&["eurovision"], 69), Some(2025));
        assert_eq!(year(&["fifa", "world", "cup"], 23), Some(2026));
        assert_eq!(year(&["tour", "de", "france"], 112), Some(2025));
        assert_eq!(year(&["wimbledon"], 138), Some(2025));
        assert_eq!(year(&["world", "series"], 121), Some(2025));
        assert_eq!(year(&["open"], 153), Some(2025));
        assert_eq!(year(&["indianapolis"], 109), Some(2025));
        assert_eq!(year(&["boston", "marathon"], 129), Some(2025));
    }

    #[test]
    fn qualifiers_are_read_as_phrases() {
        let masks = qualifier_masks(&["will", "jones", "win", "by", "ko", "tko"]);
        assert_eq!(masks[0], 1);
        // "decision" alone (a central bank's) is no way of winning a fight.
        let masks = qualifier_masks(&["fed", "decision", "in", "march"]);
        assert!(masks.iter().all(|&m| m == 0));
        let masks = qualifier_masks(&["win", "by", "decision"]);
        assert_eq!(masks[0], 2);
    }

    /// A negation word is the negation rule's: were it also one side of
    /// an opposite pair, a pair using it would be flipped twice and the
    /// negation of a question called the question itself.
    #[test]
    fn no_negation_is_an_opposite_predicate() {
        for negation in super::super::words::NEGATIONS {
            let folded = super::super::words::fold(negation);
            for (xs, ys, _) in ANTONYMS {
                assert!(
                    !xs.contains(&folded) && !ys.contains(&folded),
                    "{negation} ({folded}) is both a negation and an opposite predicate"
                );
            }
        }
    }
}
