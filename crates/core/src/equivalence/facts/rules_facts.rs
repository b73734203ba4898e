//! Facts a rules text carries beyond its title, read once per market
//! (in `Facts::of`, never per pair): the release's vintage (the first
//! print against a revision), the void or refund branch and the word
//! that triggers it, the price venues named, and whether the rules name
//! where the figure comes from. `rules/unexplained.rs` compares them, so
//! that the fact, not a leftover word, decides; the word classes are
//! data (`lexicon/rules_classes.rs`).

use super::super::lexicon::rules_classes::{VENUES, VOID_WORDS, in_class};
use super::super::words::content_word;
use super::Facts;
use crate::models::Market;

/// The first print of a figure ("the BLS's first release", "the flash
/// estimate", "the Sunday studio estimate").
pub(crate) const FIRST_PRINT: u8 = 1;
/// A later vintage ("as revised", "the second estimate", "the final
/// release", "the actual gross reported on Monday").
pub(crate) const LATER_PRINT: u8 = 2;

/// What the rules text says beyond the title (see the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RulesFacts {
    /// [`FIRST_PRINT`] and [`LATER_PRINT`] bits, from the title and the
    /// rules; 0 when neither says.
    pub vintage: u8,
    /// The first word of the rules that states a void or refund branch
    /// or its trigger ("postponed", "refunded", "delisted", "50-50").
    pub void_word: Option<&'static str>,
    /// What the void branches resolve to: [`VOID_HALF`], [`VOID_REFUND`],
    /// [`VOID_NO`], [`VOID_YES`] bits, [`VOID_UNREAD`] when a branch's
    /// outcome is not written in a form read here.
    pub void_outcomes: u8,
    /// One bit per venue of [`VENUES`] named in the title, the rules or
    /// the resolution source.
    pub venues: u32,
    /// The rules name where the figure comes from (an agency, a URL, "the
    /// resolution source will be …"): a missing `resolution_source`
    /// field is then no risk.
    pub names_source: bool,
    /// The initials of each name of two words or more the rules write
    /// ("National Weather Service" as `nws`, "Bank of England" as `boe`
    /// and `be`), with the name's words folded as content words are: a
    /// side writing the initials accounts for the words, and the other
    /// way round.
    pub initials: Vec<Initials>,
    /// How much of a game counts and what a tie does
    /// ([`super::game_span`]'s bits; 0 when the rules do not say).
    pub game_span: u8,
    /// The publishers the title, the source field and the rules name
    /// ([`super::publishers`], one bit each), and the words that named
    /// them.
    pub publishers: super::publishers::Named,
    /// The publishers the `resolution_source` field alone names.
    pub source_publishers: u128,
    /// The field's other words, lower-case ("central park" of "NWS
    /// Central Park"): a station, a fix, a pair the publisher has many of.
    pub source_rest: Vec<String>,
}

/// A void branch resolves 50-50.
pub(crate) const VOID_HALF: u8 = 1;
/// A void branch refunds (the market is cancelled or void).
pub(crate) const VOID_REFUND: u8 = 2;
/// A void branch resolves No.
pub(crate) const VOID_NO: u8 = 4;
/// A void branch resolves Yes.
pub(crate) const VOID_YES: u8 = 8;
/// A void branch whose outcome is not read.
pub(crate) const VOID_UNREAD: u8 = 16;

/// Phrases by which a rules text names its source.
const SOURCE_PHRASES: &[&str] = &[
    "according to",
    "as reported",
    "data from",
    "http",
    "published by",
    "reported by",
    "resolution source",
    "source agency",
    "www.",
];

/// Phrases by which a sentence sets its vintage words aside ("the flash
/// estimate is not used", "later revisions are ignored", "revisions are
/// not considered", "the initial estimate will not be taken into
/// account").
const SET_ASIDE: &[&str] = &[
    "disregard",
    "excluded",
    "ignore",
    "not be considered",
    "not be taken into account",
    "not be used",
    "not considered",
    "not count",
    "not taken into account",
    "not used",
    "regardless",
];

/// Nouns a vintage adjective must come before ("first release"): "first"
/// alone is a place, a round or a game.
const RELEASE_NOUNS: &[&str] = &[
    "estimate",
    "estimates",
    "figure",
    "print",
    "published",
    "reading",
    "release",
    "report",
    "results",
];

/// The vintage bits one sentence's words write.
fn vintage_of_sentence(words: &[&str]) -> u8 {
    let before_release = |i: usize| {
        words[i + 1..]
            .iter()
            .take(3)
            .any(|n| RELEASE_NOUNS.contains(n))
    };
    let mut bits = 0;
    for (i, w) in words.iter().enumerate() {
        bits |= match *w {
            "initial" | "advance" | "flash" | "preliminary" => FIRST_PRINT,
            "first" if before_release(i) => FIRST_PRINT,
            "revised" | "revision" | "revisions" | "actual" | "actuals" => LATER_PRINT,
            "second" | "third" | "final" | "later" | "detailed" if before_release(i) => LATER_PRINT,
            "estimate" | "estimates"
                if i == 0 || !matches!(words[i - 1], "second" | "third" | "final" | "later") =>
            {
                FIRST_PRINT
            }
            _ => 0,
        };
    }
    bits
}

/// The words of one sentence, lower-case.
fn words_of(sentence: &str) -> Vec<&str> {
    sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '/'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The void trigger `w` writes, if any ("delists" as "delist").
/// "Originally" is none: "the game originally scheduled for Jan 14"
/// names which game (the one of that date, wherever it is moved), the
/// way a league's site does; a branch for a moved or cancelled game is
/// written with its own word ("postponed", "rescheduled", "cancelled").
fn void_trigger(w: &str) -> Option<&'static str> {
    if matches!(w, "50-50" | "50/50") {
        return Some("50-50");
    }
    if w == "originally" {
        return None;
    }
    let stem = w.strip_suffix('s').unwrap_or(w);
    [w, stem]
        .iter()
        .find_map(|x| VOID_WORDS.binary_search(x).ok().map(|i| VOID_WORDS[i]))
}

/// What one void sentence resolves to.
fn void_outcome_of(words: &[&str]) -> u8 {
    if words
        .iter()
        .any(|w| matches!(*w, "50-50" | "50/50" | "fifty"))
    {
        return VOID_HALF;
    }
    // "resolves No", "resolve to Yes", "is resolved as No".
    let after_resolve = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.starts_with("resolve"))
        .find_map(|(i, _)| {
            words[i + 1..]
                .iter()
                .take(3)
                .find(|w| matches!(**w, "no" | "yes"))
        });
    match after_resolve {
        Some(&"no") => VOID_NO,
        Some(_) => VOID_YES,
        None if words.iter().any(|w| w.starts_with("refund")) => VOID_REFUND,
        // "the market is cancelled", "the wager is void", "Void if the
        // player does not play": a branch that resolves nothing returns
        // the stakes.
        None if words.iter().any(|w| matches!(*w, "void" | "voided")) => VOID_REFUND,
        None if words.windows(3).any(|w| {
            matches!(w[0], "market" | "contract") && matches!(w[2], "cancelled" | "canceled")
        }) =>
        {
            VOID_REFUND
        }
        None => VOID_UNREAD,
    }
}

/// Phrases that state the event's not taking place, the trigger of a
/// void branch however the branch resolves ("If the game is not
/// completed by December 19, the market resolves No").
const EVENT_NOT_HELD: &[&str] = &[
    "does not play",
    "not completed",
    "not held",
    "not played",
    "not take place",
];

/// The trigger at `i` states how the question itself is met, not a
/// branch for an event that does not take place: "does not make the
/// cut, including a withdrawal", "for any reason including withdrawal",
/// "a withdrawal after qualifying counts as reaching it".
fn part_of_the_predicate(words: &[&str], i: usize) -> bool {
    let before = &words[i.saturating_sub(2)..i];
    let after = words.get(i + 1..).unwrap_or_default();
    before.iter().any(|w| w.starts_with("includ"))
        || after
            .windows(2)
            .take(5)
            .any(|p| matches!(p[0], "counts" | "count") && p[1] == "as")
}

/// The first void trigger of a rules text (`lower`, lower-cased) and
/// what its branches resolve to.
fn void_branches(lower: &str) -> (Option<&'static str>, u8) {
    let mut first = None;
    let mut outcomes = 0;
    for sentence in lower.split(['.', ';', '\n']) {
        let words = words_of(sentence);
        let trigger = words
            .iter()
            .enumerate()
            .filter(|&(i, _)| !part_of_the_predicate(&words, i))
            .find_map(|(_, w)| void_trigger(w))
            .or_else(|| {
                EVENT_NOT_HELD
                    .iter()
                    .find(|phrase| sentence.contains(*phrase))
                    .copied()
            });
        if let Some(t) = trigger {
            first = first.or(Some(t));
            outcomes |= void_outcome_of(&words);
        }
    }
    (first, outcomes)
}

/// The initials of a name and its words, letter by letter: a small word
/// ("of") has a letter and no word.
pub(crate) type Initials = (String, Vec<Option<String>>);

/// The names of two capitalized words or more in `rules` ("of", "the"
/// and "and" may stand inside; a possessive ends one), each read twice:
/// by its capitals ("Bureau of Labor Statistics": `bls`) and with its
/// small words ("Bank of England": `boe`).
fn initials_of_names(rules: &str) -> Vec<Initials> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let mut flush = |run: &mut Vec<&str>| {
        while run
            .last()
            .is_some_and(|w| w.starts_with(char::is_lowercase))
        {
            run.pop();
        }
        if run
            .iter()
            .filter(|w| w.starts_with(char::is_uppercase))
            .count()
            >= 2
        {
            for with_small in [false, true] {
                let (letters, words) = run
                    .iter()
                    .filter(|w| with_small || w.starts_with(char::is_uppercase))
                    .filter_map(|w| {
                        let first = w.chars().next()?.to_lowercase().next()?;
                        let word = w
                            .starts_with(char::is_uppercase)
                            .then(|| content_word(&w.to_lowercase()))
                            .flatten();
                        Some((first, word))
                    })
                    .unzip();
                out.push((letters, words));
            }
        }
        run.clear();
    };
    for raw in rules.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}')) {
        let possessive = raw.ends_with("'s") || raw.ends_with("\u{2019}s");
        let w = raw.trim_end_matches("'s").trim_end_matches("\u{2019}s");
        let capital = w.starts_with(char::is_uppercase) && !w.chars().all(char::is_uppercase);
        if capital || (!run.is_empty() && matches!(w, "of" | "the" | "and")) {
            run.push(w);
        } else {
            flush(&mut run);
        }
        if possessive {
            flush(&mut run);
        }
    }
    flush(&mut run);
    out
}

/// The vintage bits a text (`lower`, lower-cased) writes, sentence by
/// sentence.
pub(crate) fn vintage_of(lower: &str) -> u8 {
    lower
        .split(['.', ';', '\n'])
        .filter(|sentence| !SET_ASIDE.iter().any(|p| sentence.contains(p)))
        .map(|sentence| vintage_of_sentence(&words_of(sentence)))
        .fold(0, |a, b| a | b)
}

impl Facts {
    /// Reads the rules text's facts of `market` (see the module doc);
    /// after `read_criteria` and the source, once per market.
    pub(super) fn read_rules_facts(&mut self, market: &Market) {
        // The title too: "Euro area inflation in June (flash)?".
        let title = market.title.as_deref().unwrap_or_default();
        let rules = market.resolution_criteria.as_deref().unwrap_or_default();
        // Lower-cased once for every reader of this module.
        let lower = rules.to_lowercase();
        let mut facts = RulesFacts {
            vintage: vintage_of(&title.to_lowercase()) | vintage_of(&lower),
            ..RulesFacts::default()
        };
        (facts.void_word, facts.void_outcomes) = void_branches(&lower);
        let source = self.source.as_deref().unwrap_or_default();
        for (bit, venue) in VENUES.iter().enumerate() {
            if self.criteria_words.contains(venue) || source.split_whitespace().any(|w| w == *venue)
            {
                facts.venues |= 1 << bit;
            }
        }
        facts.names_source = facts.venues != 0 || SOURCE_PHRASES.iter().any(|p| lower.contains(p));
        facts.initials = initials_of_names(rules);
        facts.game_span = super::game_span::game_span(&lower);
        let field = market.resolution_source.as_deref().unwrap_or_default();
        // The field's publishers alone, then with the title's and the
        // rules': each text split once.
        let mut publishers = super::publishers::publishers_in(&[field]);
        facts.source_publishers = publishers.bits;
        if !field.is_empty() {
            facts.source_rest = super::publishers::other_words(publishers.bits, field);
        }
        let others = super::publishers::publishers_in(&[title, rules]);
        publishers.bits |= others.bits;
        publishers.words.extend(others.words);
        facts.publishers = publishers;
        self.rules_facts = facts;
    }
}

/// Whether `word` is a rules word some reader of this module decides.
pub(crate) fn read_as_a_fact(word: &str) -> bool {
    in_class(VOID_WORDS, word) || in_class(VENUES, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn void_branches_of(text: &str) -> (Option<&'static str>, u8) {
        void_branches(&text.to_lowercase())
    }

    fn vintage_of_text(text: &str) -> u8 {
        vintage_of(&text.to_lowercase())
    }

    #[test]
    fn a_void_branch_is_read_with_what_it_resolves_to() {
        let no = void_branches_of("If the pair is delisted before then, this market resolves No.");
        assert_eq!(no, (Some("delisted"), VOID_NO));
        let refund = void_branches_of(
            "If Binance delists WIF/USDT before that time, the market is cancelled and all \
             positions are refunded.",
        );
        assert_eq!(refund, (Some("delist"), VOID_REFUND));
        let half =
            void_branches_of("If the feed is unavailable at expiry, this market resolves 50-50.");
        assert_eq!(half, (Some("50-50"), VOID_HALF));
        let void = void_branches_of("Void if the player does not take the court.");
        assert_eq!(void, (Some("void"), VOID_REFUND));
        let unread = void_branches_of("If the game is cancelled, see the house rules.");
        assert_eq!(unread, (Some("cancelled"), VOID_UNREAD));
        assert_eq!(void_branches_of("Resolves Yes if the Fed cuts."), (None, 0));
        let not_completed = void_branches_of(
            "If the game is not completed by December 19, the market resolves No.",
        );
        assert_eq!(not_completed, (Some("not completed"), VOID_NO));
        // A trigger that says how the question is met is no branch.
        let including =
            void_branches_of("Resolves Yes if he does not make the cut, including a withdrawal.");
        assert_eq!(including, (None, 0));
        let counts = void_branches_of("A withdrawal after qualifying counts as reaching it.");
        assert_eq!(counts, (None, 0));
    }

    #[test]
    fn names_are_read_with_their_initials() {
        let read = initials_of_names(
            "Per the National Weather Service's Daily Climate Report. The Bank of England's \
             Monetary Policy Committee.",
        );
        let initials: Vec<&str> = read.iter().map(|(i, _)| i.as_str()).collect();
        assert_eq!(
            initials,
            ["pnws", "ptnws", "dcr", "dcr", "tbe", "tboe", "mpc", "mpc"]
        );
        let words: Vec<Option<&str>> = read[5].1.iter().map(Option::as_deref).collect();
        // "The" and "of" have letters, and no word ("the" is no content
        // word): "BoE" covers "bank" and "england".
        assert_eq!(words, [None, Some("bank"), None, Some("england")]);
    }

    #[test]
    fn a_vintage_is_read_with_its_noun_and_its_sentence() {
        assert_eq!(
            vintage_of_text("Resolves on the initial BLS release of nonfarm payrolls."),
            FIRST_PRINT
        );
        assert_eq!(
            vintage_of_text("Resolves on the second estimate published in the following month."),
            LATER_PRINT
        );
        assert_eq!(
            vintage_of_text(
                "Resolves on the first release. Later revisions are ignored; \
                 the final figure is not used."
            ),
            FIRST_PRINT
        );
        // Each side names the vintage it does not use: only the other
        // one is read.
        assert_eq!(
            vintage_of_text(
                "The initial estimate in the report is used; revisions are not considered."
            ),
            FIRST_PRINT
        );
        assert_eq!(
            vintage_of_text(
                "Resolves on the second monthly revision. The initial estimate will not be \
                 considered; advance figures are excluded."
            ),
            LATER_PRINT
        );
        // "first" without a release is a place or a round.
        assert_eq!(
            vintage_of_text("The driver who finishes first in the race."),
            0
        );
        assert_eq!(vintage_of_text("On the final trading day of 2029."), 0);
    }
}
