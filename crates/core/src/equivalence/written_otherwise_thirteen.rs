//! Worked examples of the three readings test-v12 showed missing, each
//! beside a look-alike that must stay apart: a game leg backing one side
//! by its city ("X at Y Winner? Y") against the other side's nickname
//! (the other side's complement where the game cannot end level, not
//! the same side); one team's total against the other team's in
//! the same game (not the same count); reaching a competition's final,
//! named by its own name ("reach the World Series"), against winning it
//! (narrower, not the same).

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str) -> Market {
    worked_market(platform, title, None, "2028-12-31T23:59:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("kalshi", a), &market("polymarket", b)).relation
}

#[test]
fn a_leg_backs_the_side_named_after_its_question_mark() {
    let mavericks = "Will the Mavericks win at Phoenix on December 20, 2028?";
    // The home side's leg against the visitors' win: an NBA game cannot
    // end level, so one is YES exactly when the other is NO.
    assert_eq!(
        relation(
            "Dallas at Phoenix Winner? Phoenix (Dec 20, 2028)",
            mavericks
        ),
        Relation::Inverted
    );
    // An NFL game can end level: not complements, and never the same.
    let cowboys = relation(
        "Dallas at Philadelphia Winner? Philadelphia (Dec 20, 2028)",
        "Will the Cowboys win at Philadelphia on December 20, 2028?",
    );
    assert_eq!(cowboys, Relation::Unsure);
    // The visitors' leg is the visitors' win, by nickname or by city.
    let visitors = "Dallas at Phoenix Winner? Dallas (Dec 20, 2028)";
    assert_eq!(relation(visitors, mavericks), Relation::Same);
    assert_eq!(
        relation(visitors, "Will Dallas win at Phoenix on December 20, 2028?"),
        Relation::Same
    );
}

#[test]
fn a_team_total_counts_one_teams_points() {
    let bills = "Buffalo Bills Team Total Over 27.5 — vs Miami Dolphins (Nov 12, 2028)";
    // The other team's total on the same line in the same game.
    assert_eq!(
        relation(
            bills,
            "Miami Dolphins over 27.5 points vs Buffalo (Nov 12, 2028)?"
        ),
        Relation::Different
    );
    // The same team's total, written the other way.
    assert_eq!(
        relation(
            bills,
            "Buffalo Bills over 27.5 points vs Miami (Nov 12, 2028)?"
        ),
        Relation::Same
    );
}

#[test]
fn reaching_a_final_is_wider_than_winning_it() {
    let win = "New York Yankees — To Win 2028 World Series";
    assert_eq!(
        relation("Will the Yankees reach the 2028 World Series?", win),
        Relation::Superset
    );
    assert_eq!(
        relation("Will the Yankees qualify for the 2028 World Series?", win),
        Relation::Superset
    );
    // Winning it, in another venue's words.
    assert_eq!(
        relation("Will the Yankees win the 2028 World Series?", win),
        Relation::Same
    );
    // A count reaching a number is no stage of the award won.
    let reached = relation(
        "Will Shohei Ohtani reach 50 home runs in 2028?",
        "Will Shohei Ohtani win the 2028 AL MVP?",
    );
    assert!(
        !matches!(reached, Relation::Subset | Relation::Superset),
        "{reached:?}"
    );
}
