//! Whose points a sportsbook's count is: the game's ("Lakers vs Nuggets
//! Over 220.5 Total Points") or one team's ("Nuggets 221+ points vs
//! Lakers", "Nuggets Team Total Over 110.5"). The two are different
//! quantities on the same game, one about twice the other, so a line on
//! one is never the other's (`rules::predicate::metric_differs`).

use super::lex::Tok;
use super::lexicon::entities::kind_of;

/// Whose points the count is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PointsOf {
    /// Both teams' together: "Total Points", "combined".
    Game,
    /// One team's: its name right before the number (or "Over"/"Under"
    /// and the number), or "Team Total".
    OneTeam,
}

/// Words of a line between a name and its number.
fn is_line_word(w: &str) -> bool {
    matches!(w, "over" | "under" | "o" | "u")
}

/// Words between the two teams of a game.
fn is_game_word(w: &str) -> bool {
    matches!(w, "vs" | "v" | "versus" | "at")
}

fn word(t: &Tok) -> Option<&str> {
    match t {
        Tok::Word { lower, .. } => Some(lower.as_str()),
        _ => None,
    }
}

/// Whose points the count of `tokens` is, where the text says: `None`
/// where it names no count of points, or not whose.
pub(crate) fn points_of(tokens: &[Tok]) -> Option<PointsOf> {
    let words: Vec<&str> = tokens.iter().filter_map(word).collect();
    if !words
        .iter()
        .any(|w| matches!(*w, "points" | "pts" | "point"))
    {
        return None;
    }
    if words.windows(2).any(|p| p == ["team", "total"]) {
        return Some(PointsOf::OneTeam);
    }
    if words.iter().any(|w| matches!(*w, "total" | "combined")) {
        return Some(PointsOf::Game);
    }
    // The token just before the count's number, past the line's words.
    let at = tokens.iter().position(|t| matches!(t, Tok::Num { .. }))?;
    let (team_at, before) = tokens[..at]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, t)| word(t).is_none_or(|w| !is_line_word(w)))?;
    if word(before).is_none_or(|w| kind_of(w) != Some("team")) {
        return None;
    }
    // "Clippers @ Warriors Over 224.5 Points" names the game, its second
    // team last: the team's name (and city) after "@", "at" or "vs".
    let second_of_a_game = tokens[..team_at]
        .iter()
        .rev()
        .find(|t| !matches!(t, Tok::Word { cap: true, lower, .. } if !is_game_word(lower)))
        .is_some_and(|t| matches!(t, Tok::Sym('@')) || word(t).is_some_and(is_game_word));
    (!second_of_a_game).then_some(PointsOf::OneTeam)
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn of(text: &str) -> Option<PointsOf> {
        points_of(&lex(text))
    }

    #[test]
    fn a_game_total_and_a_team_total() {
        use PointsOf::{Game, OneTeam};
        assert_eq!(of("Lakers vs Nuggets Over 220.5 Total Points"), Some(Game));
        assert_eq!(of("Lakers vs Nuggets: 221+ combined points"), Some(Game));
        assert_eq!(of("Nuggets 221+ points vs Lakers"), Some(OneTeam));
        assert_eq!(of("Denver Nuggets Over 110.5 Points"), Some(OneTeam));
        assert_eq!(of("Nuggets Team Total Over 110.5 Points"), Some(OneTeam));
        // A player's points, or no points at all: not read.
        assert_eq!(of("Doncic 31+ points vs Nuggets"), None);
        assert_eq!(of("Lakers vs Nuggets: Over 220.5 points?"), None);
        assert_eq!(of("Clippers @ Warriors Over 224.5 Points"), None);
        assert_eq!(
            of("LA Clippers at Golden State Warriors Over 224.5 Points"),
            None
        );
        assert_eq!(of("Nuggets 50+ wins"), None);
    }
}
