//! Worked examples of the sixteenth round's readings of the settlement
//! source and the rules texts' leftovers (branch recall20), each beside
//! a look-alike that must stay `different` or `unsure`. Each look-alike
//! marked "fails without" was run without the reading it guards and
//! fails there.

use super::worked_market::worked_market;
use super::*;

fn relation(a: (&str, Option<&str>), b: (&str, Option<&str>), closes: &str) -> Relation {
    classify(
        &worked_market("fanduel", a.0, a.1, closes),
        &worked_market("kalshi", b.0, b.1, closes),
    )
    .relation
}

const GAME: &str = "2030-10-06T20:00:00Z";

/// Kalshi names a game by the date it was "originally scheduled for":
/// which game, not a branch for a moved one.
const KALSHI_CLEVELAND: &str = "If Cleveland scores 25 or more points in the Cincinnati at \
     Cleveland game originally scheduled for Oct 6, 2030, then the market resolves to Yes. \
     Overtime counts.";

#[test]
fn a_game_originally_scheduled_is_no_void_branch() {
    let kalshi = (
        "Cincinnati at Cleveland: Cleveland scores 25+ points?",
        Some(KALSHI_CLEVELAND),
    );
    let browns = (
        "Cleveland Browns Team Total Points: Over 24.5 (vs Bengals, Oct 6, 2030)",
        Some("Team totals include overtime."),
    );
    assert_eq!(relation(browns, kalshi, GAME), Relation::Same);
    // The other team's total on the same line and game: two teams'
    // points. Fails without the count read as a sentence ("Cleveland
    // scores 25+ points" counts Cleveland's): `same` once "originally"
    // is no branch.
    let bengals = (
        "Cincinnati Bengals Team Total Points: Over 24.5 (at Browns, Oct 6, 2030)",
        Some("Team totals include overtime."),
    );
    assert_eq!(relation(bengals, kalshi, GAME), Relation::Different);
    // The game's total against one team's: another quantity.
    let game_total = (
        "Bengals @ Browns - Total Points: Over 24.5 (Oct 6, 2030)",
        Some("Totals include overtime."),
    );
    assert_eq!(relation(game_total, kalshi, GAME), Relation::Different);
    // A branch for a postponed game is still read as one.
    let postponed = (
        "Cleveland Browns Team Total Points: Over 24.5 (vs Bengals, Oct 6, 2030)",
        Some("Team totals include overtime. If the game is postponed, the market resolves No."),
    );
    assert_eq!(relation(postponed, kalshi, GAME), Relation::Unsure);
}
