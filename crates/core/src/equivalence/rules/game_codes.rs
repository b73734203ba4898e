//! A game written by the sportsbooks' team codes ("Tyrese Maxey 28+
//! Points - PHI @ TOR") against the same game written by a team's name
//! ("Tyrese Maxey Over 27.5 Points at Raptors"): read by the subject rule
//! for a name one side adds and by `unexplained_difference` for a word.
//! The codes are facts of the field ([`team_codes`]); which team a code
//! means is what the other side names.

use super::super::facts::Facts;
use super::super::lexicon::team_codes;

/// Whether `word`, a name or a word of `x`, is accounted for by `y` as a
/// team of one game: a code of the team `y` names, that team against
/// `y`'s code, or the other team of the game one of whose teams both
/// sides name that way ("PHI @ TOR" against "at Raptors": PHI is the
/// player's own team). The other team is read only where both sides
/// state a date (one game, whose two teams are known), as the seventh
/// round's other team of a game is.
pub(crate) fn team_of_the_game(word: &str, x: &Facts, y: &Facts) -> bool {
    if !team_codes::is_team_or_code(word) {
        return false;
    }
    let y_says = |w: &str| y.mentions(w);
    if team_codes::code_and_team(word, y_says) {
        return true;
    }
    // The other team: one more team or code of `x` that `y` names by
    // code or name, and not a name of the same team as `word`. Only a
    // code is read so: a team's own name is the entity table's and the
    // seventh round's reading.
    let x_has_a_code = x.entities.iter().any(|e| team_codes::is_code(e));
    x_has_a_code
        && x.date.is_some()
        && y.date.is_some()
        && x.entities.iter().any(|o| {
            o != word
                && team_codes::is_team_or_code(o)
                && !team_codes::may_be_one_team(o, word)
                && team_codes::code_and_team(o, y_says)
        })
}
