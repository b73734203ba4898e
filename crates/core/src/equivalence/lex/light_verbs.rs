//! A verb that only says an event takes place ("hold an independence
//! referendum", "conduct a nuclear test", "a border poll held in 2028")
//! is written [`TAKES_PLACE`] before or after the event's noun (see
//! [`LIGHT_VERBS`] and [`EVENT_NOUNS`]): the noun is the question, and
//! "hold" read as a predicate would be the opposite of "change". A word
//! the other side may leave unwritten, it still counts among the words
//! two titles share or not (the wording rule's ratio is unchanged).
//! Runs once per text, in `lex`.

use super::super::lexicon::{EVENT_NOUNS, LIGHT_VERBS, TAKES_PLACE};
use super::{Tok, word_at};

/// Words between a light verb and its event's noun that leave the verb
/// light: an article or a possessive.
const DETERMINERS: &[&str] = &["a", "an", "another", "its", "their", "the"];

/// Whether the verb at `at` is followed by an event's noun: after any
/// determiners and at most one other word ("an *independence*
/// referendum", "its *July* meeting"), or preceded by it with at most
/// "be" or "been" between when it is a participle ("a poll *be* held").
fn before_or_after_an_event(tokens: &[Tok], at: usize) -> bool {
    let event = |i: usize| word_at(tokens, i).is_some_and(|w| EVENT_NOUNS.contains(&w));
    let mut i = at + 1;
    while word_at(tokens, i).is_some_and(|w| DETERMINERS.contains(&w)) {
        i += 1;
    }
    if event(i) || event(i + 1) && word_at(tokens, i).is_some() {
        return true;
    }
    // After the noun, only a participle: "the June meeting hold rates"
    // is the Fed holding rates.
    let participle =
        word_at(tokens, at).is_some_and(|w| matches!(w, "held" | "conducted" | "staged"));
    let passive = |i: usize| word_at(tokens, i).is_some_and(|w| matches!(w, "be" | "been" | "is"));
    participle && ((at >= 1 && event(at - 1)) || (at >= 2 && passive(at - 1) && event(at - 2)))
}

pub(super) fn light_verbs(tokens: Vec<Tok>) -> Vec<Tok> {
    // Most texts have none: returned as they are, without a copy.
    let light =
        |t: &Tok| matches!(t, Tok::Word { lower, .. } if LIGHT_VERBS.contains(&lower.as_str()));
    if !tokens.iter().any(light) {
        return tokens;
    }
    let light_at: Vec<bool> = (0..tokens.len())
        .map(|i| light(&tokens[i]) && before_or_after_an_event(&tokens, i))
        .collect();
    tokens
        .into_iter()
        .zip(light_at)
        .map(|(t, light)| {
            if light {
                Tok::Word {
                    lower: TAKES_PLACE.to_owned(),
                    cap: false,
                    upper: false,
                }
            } else {
                t
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::facts::Facts;

    fn words(text: &str) -> Vec<String> {
        Facts::of_text(text, None).words.into_iter().collect()
    }

    #[test]
    fn a_verb_that_says_an_event_takes_place_is_read_as_such() {
        for text in [
            "Will Scotland hold an independence referendum before 2028?",
            "Will North Korea conduct a nuclear test by Dec 31, 2027?",
            "Will a Northern Ireland border poll be held before 2029?",
        ] {
            let w = words(text);
            assert!(
                !w.iter().any(|w| w.starts_with("hold")
                    || w.starts_with("held")
                    || w.starts_with("conduct")),
                "{text}: {w:?}"
            );
            assert!(w.iter().any(|w| w == super::TAKES_PLACE), "{text}: {w:?}");
        }
    }

    #[test]
    fn hold_as_a_predicate_stays() {
        // Holding rates, a seat or a coin is what is asked.
        for text in [
            "Will the Fed hold rates at its March meeting?",
            "Will the Fed at the June meeting hold rates?",
            "Republicans hold North Carolina's Senate seat in 2028?",
            "Will Metaplanet hold all its bitcoin through 2027?",
        ] {
            let w = words(text);
            assert!(w.iter().any(|w| w.starts_with("hold")), "{text}: {w:?}");
        }
    }
}
