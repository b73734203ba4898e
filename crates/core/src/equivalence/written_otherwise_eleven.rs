//! Worked examples of the eleventh round's readings, each beside a
//! look-alike that must stay apart: a game written by the sportsbooks'
//! team codes ("NYK @ BOS") against a team's name (not a code of another
//! team, not another game); a team of a city with two teams in one league
//! named by its city in a game whose other team both sides name (not
//! without that team); a two-word nickname's first word beside its last
//! (not alone); a department's head as its secretary (not a deputy);
//! leaving an office however worded, and against the state's negation
//! (not the manner of leaving); becoming law as being enacted (not
//! signed); a game that cannot end level by its league (not soccer); an
//! edition by its number read through the aliases of its name (not
//! another edition).

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, rules: Option<&str>) -> Market {
    worked_market(platform, title, rules, "2028-03-31T23:59:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("fanduel", a, None), &market("draftkings", b, None)).relation
}

#[test]
fn a_game_by_its_codes_is_the_game_by_a_teams_name() {
    assert_eq!(
        relation(
            "Jalen Brunson Over 26.5 Points at Celtics (Mar 3, 2028)",
            "Jalen Brunson 27+ Points - NYK @ BOS (3/3/28)"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Jalen Brunson Under 26.5 Points at Celtics (Mar 3, 2028)",
            "Jalen Brunson 27+ Points - NYK @ BOS (3/3/28)"
        ),
        Relation::Inverted
    );
    // A code of one city names a team of any of its leagues: the other
    // side's team says which.
    assert_eq!(
        relation(
            "Kirill Kaprizov Over 0.5 Goals vs Jets (Jan 9, 2028)",
            "Kirill Kaprizov 1+ Goals - WPG @ MIN (1/9/28)"
        ),
        Relation::Same
    );
}

#[test]
fn a_code_of_another_team_is_another_game() {
    // BOS is no code of the 76ers: another opponent, another game.
    assert_eq!(
        relation(
            "Jalen Brunson Over 26.5 Points at 76ers (Mar 3, 2028)",
            "Jalen Brunson 27+ Points - NYK @ BOS (3/3/28)"
        ),
        Relation::Different
    );
    // The opponent named by neither code of the game.
    assert_eq!(
        relation(
            "Kirill Kaprizov Over 0.5 Goals vs Stars (Jan 9, 2028)",
            "Kirill Kaprizov 1+ Goals - WPG @ MIN (1/9/28)"
        ),
        Relation::Different
    );
    // The same game on another day.
    assert_ne!(
        relation(
            "Jalen Brunson Over 26.5 Points at Celtics (Mar 5, 2028)",
            "Jalen Brunson 27+ Points - NYK @ BOS (3/3/28)"
        ),
        Relation::Same
    );
}

#[test]
fn a_team_of_a_two_team_city_is_named_by_the_city_in_one_game() {
    assert_eq!(
        relation(
            "Eagles @ Jets Over 40.5 Total Points (Jan 2, 2028)",
            "Philadelphia at New York: 41+ points scored on Jan 2, 2028?"
        ),
        Relation::Same
    );
    // Without the other team named on both sides, New York names no one
    // team.
    assert_ne!(
        relation(
            "Jets Over 20.5 Points (Jan 2, 2028)",
            "New York 21+ points on Jan 2, 2028?"
        ),
        Relation::Same
    );
    // Another opponent on each side: another game.
    assert_ne!(
        relation(
            "Eagles @ Jets Over 40.5 Total Points (Jan 2, 2028)",
            "Dallas at New York: 41+ points scored on Jan 2, 2028?"
        ),
        Relation::Same
    );
    // "Sox" is Chicago's only as the White Sox: the Red Sox are Boston's.
    assert_ne!(
        relation(
            "Red Sox @ Twins Over 8.5 Total Runs (Jun 2, 2028)",
            "Chicago at Minnesota: 9+ runs scored on Jun 2, 2028?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "White Sox @ Twins Over 8.5 Total Runs (Jun 2, 2028)",
            "Chicago at Minnesota: 9+ runs scored on Jun 2, 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn a_two_word_nicknames_first_word_goes_with_its_last() {
    assert_eq!(
        relation(
            "Chicago White Sox Moneyline at Kansas City Royals (6/3/27)",
            "Chicago at Kansas City (Jun 3, 2027): Chicago wins?"
        ),
        Relation::Same
    );
    // "White" beside no "Sox" is no team's word.
    assert_ne!(
        relation(
            "Kansas City Royals Moneyline vs White Team (6/3/27)",
            "Kansas City at Chicago (Jun 3, 2027): Kansas City wins?"
        ),
        Relation::Same
    );
}

#[test]
fn a_departments_head_is_its_secretary() {
    assert_eq!(
        relation(
            "Will Jane Doe remain HUD Secretary through 2027?",
            "Jane Doe leaves HUD before 2028?"
        ),
        Relation::Inverted
    );
    // A deputy is another office.
    assert_ne!(
        relation(
            "Will Jane Doe remain Deputy HUD Secretary through 2027?",
            "Jane Doe leaves HUD before 2028?"
        ),
        Relation::Inverted
    );
}

#[test]
fn leaving_an_office_however_worded_is_one_question() {
    assert_eq!(
        relation(
            "Jane Doe out as Speaker by June 30, 2028?",
            "Will Jane Doe leave the Speakership before July 2028?"
        ),
        Relation::Same
    );
    // Leaving against the state's negation: "ceases to be", "no longer".
    assert_eq!(
        relation(
            "Will Jane Doe cease to be Governor of Ohio before 2028?",
            "Jane Doe out as Ohio governor by Dec 31, 2027?"
        ),
        Relation::Same
    );
    // The manner of leaving is another question.
    assert_ne!(
        relation(
            "Will Jane Doe resign as Governor of Ohio before 2028?",
            "Jane Doe out as Ohio governor by Dec 31, 2027?"
        ),
        Relation::Same
    );
    // Staying against the state's negation stays inverted.
    assert_eq!(
        relation(
            "Will Jane Doe remain Governor of Ohio through 2027?",
            "Will Jane Doe cease to be Governor of Ohio before 2028?"
        ),
        Relation::Inverted
    );
}

#[test]
fn becoming_law_is_being_enacted_not_being_signed() {
    assert_eq!(
        relation(
            "Will the Farm Safety Act become law before 2028?",
            "Farm Safety Act enacted before 2028?"
        ),
        Relation::Same
    );
    // Signed is narrower: a veto can be overridden.
    assert_ne!(
        relation(
            "Will the Farm Safety Act become law before 2028?",
            "Farm Safety Act signed into law before 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn a_game_that_cannot_end_level_by_its_league() {
    // Baseball: "Tigers" is also a college's name, "Sox" only baseball's.
    assert_eq!(
        relation(
            "Detroit Tigers Moneyline vs Chicago White Sox (May 22, 2027)",
            "Will the White Sox beat the Tigers on May 22, 2027?"
        ),
        Relation::Inverted
    );
    // A soccer match can: "win" and "lose" stay apart.
    assert_ne!(
        relation(
            "Chelsea Moneyline vs Arsenal (May 22, 2027)",
            "Will Arsenal beat Chelsea on May 22, 2027?"
        ),
        Relation::Inverted
    );
}

#[test]
fn an_edition_is_read_through_the_aliases_of_its_name() {
    // "Grammys" is read as "grammy", the edition's word.
    assert_eq!(
        relation(
            "Will Jane Doe win Album of the Year at the 2028 Grammys?",
            "Jane Doe wins Album of the Year at the 70th Grammys?"
        ),
        Relation::Same
    );
    // The 69th were 2027's.
    assert_ne!(
        relation(
            "Will Jane Doe win Album of the Year at the 2028 Grammys?",
            "Jane Doe wins Album of the Year at the 69th Grammys?"
        ),
        Relation::Same
    );
}
