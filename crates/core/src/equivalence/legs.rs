//! The side a Kalshi game leg backs: "Denver at Minnesota Winner?
//! Minnesota" is YES if Minnesota wins. The leg names its side after the
//! question mark, often by the city alone, where another venue names a
//! team's nickname ("Will the Nuggets win at Minnesota?"). Read once per
//! market into `Facts::winner`, so that `rules::subject::winner_differs`
//! compares the backed sides (a city and its team are one side, two
//! teams of one game are each other's complement) as it does for "X
//! beat Y" and moneylines. A sportsbook's selection after "To Win:" is
//! read here too, and its city codes ("NO" for New Orleans) told from a
//! negation.

use super::lex::Tok;
use super::words::name_of;

/// The name written after a capitalized "Winner?" (a leg's title, not a
/// sentence that asks who wins; its capitalized words, up to the
/// first word, number or sign that is not one), lower-case and aliased
/// as every name is: `None` where the text is not a leg.
pub(crate) fn leg_winner(tokens: &[Tok]) -> Option<String> {
    let at = tokens.windows(2).position(|w| {
        matches!(&w[0], Tok::Word { lower, cap: true, .. } if lower == "winner")
            && matches!(w[1], Tok::Sym('?'))
    })?;
    name_from(&tokens[at + 2..])
}

/// The name the capitalized words at the start of `tokens` write (up to
/// the first word, number or sign that is not one), lower-case and
/// aliased as every name is; `None` where the first is not one.
fn name_from(tokens: &[Tok]) -> Option<String> {
    let side: Vec<String> = tokens
        .iter()
        .map_while(|t| match t {
            Tok::Word {
                lower, cap: true, ..
            } => Some(name_of(lower)),
            _ => None,
        })
        .collect();
    (!side.is_empty()).then(|| side.join(" "))
}

/// The selection a sportsbook names after a colon that follows its win
/// verb: "2029 World Series — To Win: Tampa Bay Rays" backs the Rays,
/// not the event written before the verb (as in "Rays to win the World
/// Series"). `at` is the verb's index; `None` where no colon follows it
/// or no capitalized word follows the colon.
pub(crate) fn selection_after_colon(tokens: &[Tok], at: usize) -> Option<String> {
    if !matches!(tokens.get(at + 1), Some(Tok::Sym(':'))) {
        return None;
    }
    name_from(tokens.get(at + 2..)?)
}

/// A negation written in capitals before a capitalized name is a place's
/// code, not a negation: "NO Pelicans @ UTA Jazz" is New Orleans's game
/// (a sportsbook's city codes), where "No rate cut" and "NO RATE CUT"
/// deny.
pub(crate) fn is_a_code_before_a_name(tokens: &[Tok], at: usize) -> bool {
    matches!(tokens.get(at), Some(Tok::Word { upper: true, .. }))
        && matches!(
            tokens.get(at + 1),
            Some(Tok::Word {
                cap: true,
                upper: false,
                ..
            })
        )
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn of(text: &str) -> Option<String> {
        leg_winner(&lex(text))
    }

    /// `read` of `text`'s tokens at the first `word`; `None` without it.
    fn read_at<T>(text: &str, word: &str, read: fn(&[Tok], usize) -> T) -> Option<T> {
        let tokens = lex(text);
        let at = tokens
            .iter()
            .position(|t| matches!(t, Tok::Word { lower, .. } if lower == word))?;
        Some(read(&tokens, at))
    }

    #[test]
    fn the_side_after_the_question_mark() {
        assert_eq!(
            of("Denver at Minnesota Winner? Minnesota").as_deref(),
            Some("minnesota")
        );
        assert_eq!(
            of("Green Bay at Chicago Winner? Green Bay (Oct 4, 2029)").as_deref(),
            Some("green bay")
        );
        // A winner asked without a side named, or no leg at all.
        assert_eq!(of("Denver at Minnesota Winner?"), None);
        assert_eq!(of("Who will be the winner? Vote"), None);
        assert_eq!(of("Will the Nuggets win at Minnesota?"), None);
    }

    #[test]
    fn the_selection_after_to_win_and_a_colon() {
        let after = |text: &str| read_at(text, "win", selection_after_colon).flatten();
        assert_eq!(
            after("2029 World Series — To Win: Tampa Bay Rays").as_deref(),
            Some("tampa bay rays")
        );
        // The team before the verb, the event after it: no selection.
        assert_eq!(after("New York Yankees — To Win 2028 World Series"), None);
        assert_eq!(after("Will the Rays win the World Series?"), None);
    }

    #[test]
    fn a_capital_no_before_a_name_is_new_orleans() {
        let code = |text: &str| read_at(text, "no", is_a_code_before_a_name).unwrap();
        assert!(code("NO Pelicans @ UTA Jazz — Under 229.5 Total Points"));
        assert!(!code("No rate cut in March 2030?"));
        assert!(!code("NO RATE CUT IN MARCH?"));
        assert!(!code("Will there be no Fed cut?"));
    }
}
