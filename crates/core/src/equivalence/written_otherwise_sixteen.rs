//! Worked examples of the two readings test-v14's precision misses asked
//! for (the fourteenth round's after-run): a sportsbook's city code in
//! capitals ("NO Pelicans": New Orleans) is not a negation, so an over
//! against an under on one game stays `inverted`; and the selection a
//! futures market names after "To Win:" is the side it backs, not the
//! event written before the verb. Each beside look-alikes that keep the
//! readings they narrow: a negation in capitals, the team written before
//! "To Win".

use super::worked_market::worked_market;
use super::*;

fn relation(a: &str, b: &str, close: &str) -> Relation {
    classify(
        &worked_market("draftkings", a, None, close),
        &worked_market("fanduel", b, None, close),
    )
    .relation
}

const GAME_NIGHT: &str = "2031-01-12T03:00:00Z";
const SEASON_END: &str = "2031-06-30T03:00:00Z";

#[test]
fn a_city_code_in_capitals_is_no_negation() {
    let over = "Saints vs Buccaneers — Total Points Over 45.5 (Jan 11, 2031)";
    let under = "NO Saints @ TB Buccaneers — Under 45.5 Total Points";
    assert_eq!(relation(over, under, GAME_NIGHT), Relation::Inverted);
    // The same line on both sides, the code written on one: the same bet.
    let over_coded = "NO Saints @ TB Buccaneers — Over 45.5 Total Points";
    assert_eq!(relation(over, over_coded, GAME_NIGHT), Relation::Same);
}

#[test]
fn a_negation_in_capitals_still_denies() {
    assert_ne!(
        relation(
            "Government shutdown in January 2031?",
            "NO government shutdown in January 2031?",
            GAME_NIGHT
        ),
        Relation::Same
    );
}

#[test]
fn the_selection_after_to_win_is_the_side_backed() {
    let futures = "2031 Stanley Cup — To Win: Colorado Avalanche";
    assert_eq!(
        relation(
            "Will the Avalanche win the 2031 Stanley Cup?",
            futures,
            SEASON_END
        ),
        Relation::Same
    );
    // Another team selected: not the same side.
    assert!(!matches!(
        relation(
            "Will the Avalanche win the 2031 Stanley Cup?",
            "2031 Stanley Cup — To Win: Dallas Stars",
            SEASON_END
        ),
        Relation::Same | Relation::Inverted
    ));
    // The team written before the verb, as before.
    assert_eq!(
        relation(
            "Will the Avalanche win the 2031 Stanley Cup?",
            "Colorado Avalanche — To Win 2031 Stanley Cup",
            SEASON_END
        ),
        Relation::Same
    );
}
