//! Worked examples of the eleventh round's readings, each beside a
//! look-alike that must stay apart: a game written by the sportsbooks'
//! team codes ("NYK @ BOS") against a team's name (not a code of another
//! team, not another game).

use super::*;
use crate::models::PlatformId;

fn market(platform: &str, title: &str, rules: Option<&str>) -> Market {
    let mut m = Market::new(format!("{platform}-{}", title.len()));
    m.platform = Some(PlatformId::from(platform));
    m.title = Some(title.to_owned());
    m.trading_end_at = Some("2028-03-31T23:59:00Z".into());
    m.resolution_criteria = rules.map(str::to_owned);
    m
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
