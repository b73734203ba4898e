//! A comparison of two named subjects: "Apple worth at least as much as
//! Nvidia on Dec 31?" and "Will Nvidia be worth more than Apple at the
//! close on December 31?" name the same two companies and the same day,
//! and ask opposite questions: which one YES puts higher, and whether a
//! tie is YES, decide it. Read once per market from the title's tokens
//! and compared by `rules::ranked`.

use super::lex::Tok;

/// Which of two names YES puts higher, and whether a tie is YES.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ranked {
    pub higher: String,
    pub lower: String,
    /// "at least as much as": a tie is YES; "more than": a tie is NO.
    pub tie_is_yes: bool,
}

/// The phrases of a comparison between two subjects, in the title's words:
/// whether the first name is the one put higher (`up`) and whether a tie
/// is YES. Longest first: "greater than or equal to" before "greater
/// than".
const PHRASES: &[(&[&str], bool, bool)] = &[
    (&["greater", "than", "or", "equal", "to"], true, true),
    (&["at", "least", "as", "much", "as"], true, true),
    (&["at", "least", "as", "large", "as"], true, true),
    (&["at", "least", "as", "big", "as"], true, true),
    (&["at", "least", "as", "high", "as"], true, true),
    (&["at", "least", "as", "valuable", "as"], true, true),
    (&["at", "most", "as", "much", "as"], false, true),
    (&["more", "than"], true, false),
    (&["greater", "than"], true, false),
    (&["larger", "than"], true, false),
    (&["bigger", "than"], true, false),
    (&["higher", "than"], true, false),
    (&["ahead", "of"], true, false),
    (&["less", "than"], false, false),
    (&["smaller", "than"], false, false),
    (&["lower", "than"], false, false),
    (&["behind"], false, false),
    (&["overtake"], true, false),
    (&["overtakes"], true, false),
    (&["surpass"], true, false),
    (&["surpasses"], true, false),
];

/// Capitalized words that open a question rather than name a subject.
const QUESTION_WORDS: &[&str] = &["will", "is", "does", "did", "can", "could", "would", "has"];

/// How far a name may stand from the phrase: "Apple worth at least as
/// much as", "Nvidia be worth more than", "Nvidia's market cap larger
/// than" (the possessive's "s" is a token of its own).
const NAME_REACH: usize = 5;

/// The first comparison of two names `tokens` writes, if it writes one: a
/// name, a phrase of [`PHRASES`] within [`NAME_REACH`] tokens after it,
/// and another name right after the phrase (past "the").
pub(crate) fn ranked(tokens: &[Tok]) -> Option<Ranked> {
    let word = |i: usize| match tokens.get(i) {
        Some(Tok::Word { lower, .. }) => Some(lower.as_str()),
        _ => None,
    };
    let name = |i: usize| match tokens.get(i) {
        Some(Tok::Word {
            lower, cap: true, ..
        }) if !QUESTION_WORDS.contains(&lower.as_str()) => Some(lower.clone()),
        _ => None,
    };
    for start in 1..tokens.len() {
        let Some(&(phrase, up, tie_is_yes)) = PHRASES.iter().find(|(phrase, ..)| {
            phrase
                .iter()
                .enumerate()
                .all(|(k, w)| word(start + k) == Some(*w))
        }) else {
            continue;
        };
        // A phrase without a name on each side ("more than 3 goals") is
        // no comparison of two subjects; a later one may be.
        let Some(before) = (start.saturating_sub(NAME_REACH)..start)
            .rev()
            .find_map(name)
        else {
            continue;
        };
        let after = start + phrase.len();
        let after = if word(after) == Some("the") {
            after + 1
        } else {
            after
        };
        let Some(second) = name(after).filter(|second| *second != before) else {
            continue;
        };
        let (higher, lower) = if up {
            (before, second)
        } else {
            (second, before)
        };
        return Some(Ranked {
            higher,
            lower,
            tie_is_yes,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn read(title: &str) -> Option<Ranked> {
        ranked(&lex(title))
    }

    #[test]
    fn the_subject_put_higher_and_the_tie_are_read_either_way_round() {
        let at_least = read("Apple worth at least as much as Nvidia on Dec 31, 2029?")
            .expect("a comparison of two names");
        assert_eq!(
            (
                at_least.higher.as_str(),
                at_least.lower.as_str(),
                at_least.tie_is_yes
            ),
            ("apple", "nvidia", true)
        );
        let more = read("Will Nvidia be worth more than Apple at the close on December 31, 2029?")
            .expect("a comparison of two names");
        assert_eq!(
            (more.higher.as_str(), more.lower.as_str(), more.tie_is_yes),
            ("nvidia", "apple", false)
        );
        let behind = read("Will Ethereum's market cap stay behind Solana's?").expect("behind");
        assert_eq!(
            (behind.higher.as_str(), behind.lower.as_str()),
            ("solana", "ethereum")
        );
    }

    #[test]
    fn a_threshold_or_a_single_name_is_no_comparison_of_two_subjects() {
        assert_eq!(
            read("Will Bitcoin be worth more than $150,000 on June 30?"),
            None
        );
        assert_eq!(read("Will the Lakers win more than 50 games?"), None);
        assert_eq!(read("More than 3 Fed cuts in 2029?"), None);
        // A phrase with no name after it does not hide a later comparison.
        let later = read("Tesla or more than 3 rivals: will Tesla be worth more than Toyota?")
            .expect("the second phrase");
        assert_eq!(
            (later.higher.as_str(), later.lower.as_str()),
            ("tesla", "toyota")
        );
    }
}
