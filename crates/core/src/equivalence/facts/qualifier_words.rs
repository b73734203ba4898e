//! The words a title's qualifiers are read from (see
//! [`super::super::lexicon::qualifier_masks`]): its words in order, less
//! a sportsbook's name of a market that only looks like a qualifier.

use super::super::lex::{Tok, word_at};

/// The words of `tokens` in the order written, for the qualifiers' lexicon,
/// but for a sportsbook's name of its market of a field's winner ("-
/// Outright -", "Outright Winner"), which is not a win "outright" (in the
/// first round, without a tie).
pub(super) fn words_in_order(tokens: &[Tok]) -> Vec<&str> {
    let market_name = |i: usize| {
        word_at(tokens, i) == Some("outright")
            && (i
                .checked_sub(1)
                .is_none_or(|k| word_at(tokens, k).is_none())
                || word_at(tokens, i + 1) == Some("winner"))
    };
    tokens
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tok::Word { lower, .. } if !market_name(i) => Some(lower.as_str()),
            _ => None,
        })
        .collect()
}
