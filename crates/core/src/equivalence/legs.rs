//! The side a Kalshi game leg backs: "Denver at Minnesota Winner?
//! Minnesota" is YES if Minnesota wins. The leg names its side after the
//! question mark, often by the city alone, where another venue names a
//! team's nickname ("Will the Nuggets win at Minnesota?"). Read once per
//! market into `Facts::winner`, so that `rules::subject::winner_differs`
//! compares the backed sides (a city and its team are one side, two
//! teams of one game are each other's complement) as it does for "X
//! beat Y" and moneylines.

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
    let side: Vec<String> = tokens[at + 2..]
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

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn of(text: &str) -> Option<String> {
        leg_winner(&lex(text))
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
}
