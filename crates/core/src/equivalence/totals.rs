//! Whose points (goals, runs) a sportsbook's count is: the game's
//! ("Lakers vs Nuggets Over 220.5 Total Points") or one team's ("Nuggets 221+ points vs
//! Lakers", "Nuggets Team Total Over 110.5"). The two are different
//! quantities on the same game, one about twice the other, so a line on
//! one is never the other's (`rules::predicate::metric_differs`).

use super::lex::Tok;
use super::lexicon::entities::kind_of;
use super::lexicon::may_stand_for_a_team;

/// Whose points the count is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PointsOf {
    /// Both teams' together: "Total Points", "combined".
    Game,
    /// One team's: its name right before the number (or "Over"/"Under"
    /// and the number), or "Team Total".
    OneTeam,
    /// Each team's apart, every one of them to reach the line ("Both
    /// Teams To Score"): not the game's total, yet it nests in one (both
    /// scoring is two goals or more), so compared with neither.
    EachTeam,
}

/// Words of a line between a name and its number, and the verb of a
/// count written as a sentence ("Jacksonville scores 25+ points").
fn is_line_word(w: &str) -> bool {
    matches!(w, "over" | "under" | "o" | "u" | "scores" | "score")
}

/// `w` names a team: a team's name, or its city ("jacksonville" for the
/// Jaguars, as Kalshi writes a game's sides).
fn names_a_team(w: &str) -> bool {
    kind_of(w) == Some("team") || may_stand_for_a_team(w)
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
    // "Will Sevilla and Betis each score?", "Both Teams To Score": each
    // team's goals counted apart, whatever the game's total.
    let scores = words.iter().any(|w| matches!(*w, "score" | "scores"));
    let each = words.contains(&"each") || words.windows(2).any(|p| p == ["both", "teams"]);
    if scores && each {
        return Some(PointsOf::EachTeam);
    }
    let team_total = words.windows(2).any(|p| p == ["team", "total"]);
    // A book's line on a game it names ("Cardinals @ Seahawks Total Over
    // 24.5") counts the game's points without the word.
    let names_a_game = tokens.iter().any(|t| matches!(t, Tok::Sym('@')))
        || words.iter().any(|w| matches!(*w, "vs" | "v" | "versus"));
    let a_game_line = names_a_game
        && words.contains(&"total")
        && words
            .iter()
            .any(|w| matches!(*w, "over" | "under" | "o" | "u"));
    if !team_total
        && !a_game_line
        && !words
            .iter()
            .any(|w| matches!(*w, "points" | "pts" | "point" | "goals" | "runs"))
    {
        return None;
    }
    if team_total {
        return Some(PointsOf::OneTeam);
    }
    if words.iter().any(|w| matches!(*w, "total" | "combined")) {
        return Some(PointsOf::Game);
    }
    team_before_the_count(tokens).map(|_| PointsOf::OneTeam)
}

/// Where a team's name ends right before the count's number (past the
/// line's words: "Nuggets Over 110.5 Points"), unless the team is the
/// second of a game the text names ("Clippers @ Warriors Over 224.5").
fn team_before_the_count(tokens: &[Tok]) -> Option<usize> {
    let at = tokens.iter().position(|t| matches!(t, Tok::Num { .. }))?;
    let (team_at, before) = tokens[..at]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, t)| word(t).is_none_or(|w| !is_line_word(w)))?;
    // The team's last word ("Nuggets"), or its whole capitalized name
    // where only that is a team's ("Crystal Palace").
    let whole_name = || {
        let start = tokens[..=team_at]
            .iter()
            .rposition(|t| !matches!(t, Tok::Word { cap: true, .. }))
            .map_or(0, |i| i + 1);
        let name: Vec<&str> = tokens[start..=team_at].iter().filter_map(word).collect();
        name.len() > 1 && kind_of(&name.join(" ")) == Some("team")
    };
    if word(before).is_none_or(|w| !names_a_team(w)) && !whole_name() {
        return None;
    }
    // "Clippers @ Warriors Over 224.5 Points" names the game, its second
    // team last: the team's name (and city) after "@", "at" or "vs".
    let second_of_a_game = tokens[..team_at]
        .iter()
        .rev()
        .find(|t| !matches!(t, Tok::Word { cap: true, lower, .. } if !is_game_word(lower)))
        .is_some_and(|t| matches!(t, Tok::Sym('@')) || word(t).is_some_and(is_game_word));
    (!second_of_a_game).then_some(team_at)
}

/// Whose points a team's count counts: the capitalized name before "Team
/// Total" ("Kansas City Chiefs Team Total Over 24.5", with or without
/// the word "points") or before the count ("Las Vegas Raiders over 24.5
/// points"), lower-case. `None` where the count is the game's, a
/// player's, or not one of points. Two sides counting two teams of one
/// game ask two questions (`rules::counted_team`).
pub(crate) fn counted_team(tokens: &[Tok]) -> Option<String> {
    let is = |i: usize, w: &str| tokens.get(i).and_then(word) == Some(w);
    let end = match (0..tokens.len()).find(|&i| is(i, "team") && is(i + 1, "total")) {
        Some(team) => team.checked_sub(1)?,
        None if points_of(tokens) == Some(PointsOf::OneTeam) => team_before_the_count(tokens)?,
        None => return None,
    };
    let start = tokens[..=end]
        .iter()
        .rposition(|t| !matches!(t, Tok::Word { cap: true, .. }))
        .map_or(0, |i| i + 1);
    let name: Vec<&str> = tokens[start..=end].iter().filter_map(word).collect();
    (!name.is_empty()).then(|| name.join(" "))
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::*;

    fn of(text: &str) -> Option<PointsOf> {
        points_of(&lex(text))
    }

    #[test]
    fn a_books_lines_without_the_word_points() {
        assert_eq!(
            of("Seattle Seahawks Team Total Over 24.5"),
            Some(PointsOf::OneTeam)
        );
        assert_eq!(
            of("Cardinals @ Seahawks Total Over 24.5"),
            Some(PointsOf::Game)
        );
        // No game named: not read as a count of points.
        assert_eq!(of("Total rainfall over 2 inches in May?"), None);
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
        // Both teams to score counts each team's goals apart.
        assert_eq!(
            of("Will Sevilla and Real Betis each score on February 23, 2030?"),
            Some(PointsOf::EachTeam)
        );
        assert_eq!(of("Both Teams To Score: Yes"), Some(PointsOf::EachTeam));
        assert_eq!(of("Will Sevilla score on February 23, 2030?"), None);
    }

    #[test]
    fn a_teams_goals_or_runs_are_its_count_too() {
        let team = |text: &str| counted_team(&lex(text));
        assert_eq!(
            team("Crystal Palace Over 1.5 Goals (vs Bournemouth)").as_deref(),
            Some("crystal palace")
        );
        assert_eq!(
            team("New York Yankees Over 4.5 Runs (at Boston)").as_deref(),
            Some("new york yankees")
        );
        // A player's goals are no team's.
        assert_eq!(team("Haaland Over 1.5 Goals (vs Arsenal)"), None);
    }

    #[test]
    fn the_team_whose_points_are_counted() {
        let team = |text: &str| counted_team(&lex(text));
        assert_eq!(
            team("Kansas City Chiefs Team Total Over 24.5 — vs Las Vegas Raiders").as_deref(),
            Some("kansas city chiefs")
        );
        assert_eq!(
            team("Las Vegas Raiders over 24.5 points vs Kansas City?").as_deref(),
            Some("las vegas raiders")
        );
        assert_eq!(
            team("Nuggets 221+ points vs Lakers").as_deref(),
            Some("nuggets")
        );
        // A count as a sentence, the team by its city (Kalshi's wording).
        assert_eq!(
            team("Jacksonville at Tennessee: Jacksonville scores 25+ points?").as_deref(),
            Some("jacksonville")
        );
        assert_eq!(
            team("Charlotte at San Antonio: 232 or more points scored?"),
            None
        );
        // The game's points, or a game's second team: no one team's count.
        assert_eq!(team("Lakers vs Nuggets Over 220.5 Total Points"), None);
        assert_eq!(team("Clippers @ Warriors Over 224.5 Points"), None);
    }
}
