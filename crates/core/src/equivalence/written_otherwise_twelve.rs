//! Worked examples of the twelfth round's readings, each beside a
//! look-alike that must stay apart: an NHL moneyline against a rules
//! text that counts overtime and the shootout (not regulation only); two
//! teams backed, one named by a city of many teams (not the same side);
//! holding rates steady (not cutting); one coin flipping another by
//! market cap (not falling below it, not flipping a seat); Both Teams To
//! Score (not one team scoring); a player's own team against an opponent
//! named by its city (not another opponent); falling below against
//! staying above through one window (not on one day); a TV award's
//! series, a stock index's "index", a central bank's MPC and a film's
//! gross (not another category, not futures, not a hike, not a budget);
//! at least one against one of a class (not two, not "the Grand Slam");
//! a spread written in brackets (not another line, not the other team
//! giving the points); a city's weather station and the high a
//! temperature reached is (not another city, not the low).

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, rules: Option<&str>) -> Market {
    worked_market(platform, title, rules, "2028-12-31T23:59:00Z")
}

fn relation_with(a: &str, b: &str, rules_b: Option<&str>) -> Relation {
    classify(
        &market("draftkings", a, None),
        &market("kalshi", b, rules_b),
    )
    .relation
}

fn relation(a: &str, b: &str) -> Relation {
    relation_with(a, b, None)
}

const OVERTIME_COUNTS: &str =
    "Resolves Yes if the Boston Bruins win the game, including overtime and a shootout.";

#[test]
fn an_nhl_moneyline_is_a_win_whose_rules_count_overtime() {
    let beat = "Will the Bruins beat the Maple Leafs on February 3, 2028?";
    assert_eq!(
        relation_with(
            "Boston Bruins Moneyline vs Toronto Maple Leafs (Feb 3, 2028)",
            beat,
            Some(OVERTIME_COUNTS)
        ),
        Relation::Same
    );
    assert_eq!(
        relation_with(
            "Toronto Maple Leafs Moneyline at Boston Bruins (Feb 3, 2028)",
            beat,
            Some(OVERTIME_COUNTS)
        ),
        Relation::Inverted
    );
}

#[test]
fn a_win_in_regulation_is_no_moneyline() {
    // A tie after 60 minutes is NO here and settled by overtime there.
    let relation = relation_with(
        "Boston Bruins Moneyline vs Toronto Maple Leafs (Feb 3, 2028)",
        "Will the Bruins beat the Maple Leafs on February 3, 2028?",
        Some("Resolves Yes if the Boston Bruins win the game in regulation time."),
    );
    assert_ne!(relation, Relation::Same);
    assert_ne!(relation, Relation::Inverted);
}

#[test]
fn a_city_of_many_teams_is_not_the_side_a_moneyline_backs() {
    let vegas_wins = "Los Angeles at Vegas (Feb 2, 2028): Vegas wins?";
    let rules = Some("Resolves on the final result including overtime and shootout.");
    assert_eq!(
        relation_with(
            "Vegas Golden Knights Moneyline vs Los Angeles Kings (Feb 2, 2028)",
            vegas_wins,
            rules
        ),
        Relation::Same
    );
    // Backing Los Angeles is not backing Vegas, whatever else agrees.
    assert_ne!(
        relation_with(
            "Los Angeles Kings Moneyline at Vegas Golden Knights (Feb 2, 2028)",
            vegas_wins,
            rules
        ),
        Relation::Same
    );
}

#[test]
fn holding_rates_steady_is_not_changing_them() {
    let hold = "Will the Bank of England hold rates steady in May 2028?";
    assert_eq!(
        relation(hold, "Bank of England changes rates in May 2028?"),
        Relation::Inverted
    );
    // Not cutting is wider than holding: a hike is neither.
    let cut = relation(hold, "Bank of England cuts rates in May 2028?");
    assert_ne!(cut, Relation::Same);
    assert_ne!(cut, Relation::Inverted);
}

#[test]
fn a_coin_flips_another_by_market_cap_where_it_exceeds_it() {
    let flip = "Will Solana flip Ethereum by market cap in 2028?";
    assert_eq!(
        relation(flip, "SOL market cap greater than ETH market cap in 2028?"),
        Relation::Same
    );
    assert_ne!(
        relation(flip, "SOL market cap below ETH market cap in 2028?"),
        Relation::Same
    );
    // Flipping a seat is winning it from the other party: no market cap.
    assert_ne!(
        relation(
            "Will Democrats flip the Senate in 2028?",
            "Will Democrats win the Senate in 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn both_teams_to_score_names_the_two_teams_of_the_match() {
    let btts = "Arsenal v Chelsea — Both Teams To Score: Yes (Mar 2, 2028)";
    assert_eq!(
        relation(
            btts,
            "Will both Arsenal and Chelsea score on March 2, 2028?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(btts, "Will Arsenal score against Chelsea on March 2, 2028?"),
        Relation::Same
    );
}

#[test]
fn a_players_own_team_is_the_other_team_of_a_game_against_a_city() {
    let line = "Jalen Hurts Over 224.5 Passing Yards — Cowboys @ Eagles (Nov 7, 2027)";
    assert_eq!(
        relation(
            line,
            "Jalen Hurts 225+ passing yards vs Dallas on Nov 7, 2027?"
        ),
        Relation::Same
    );
    // Another opponent's city is another game.
    assert_ne!(
        relation(
            line,
            "Jalen Hurts 225+ passing yards vs Washington on Nov 7, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn falling_below_in_a_window_is_not_staying_above_through_it() {
    let stay = "Will Solana stay at or above $100 for all of 2028?";
    assert_eq!(
        relation(stay, "SOL falls below $100 at any point in 2028?"),
        Relation::Inverted
    );
    // Below on one day is not below at any point of the year.
    assert_ne!(
        relation(stay, "SOL falls below $100 on December 31, 2028?"),
        Relation::Inverted
    );
}

#[test]
fn a_category_an_index_a_committee_and_a_gross_said_once() {
    assert_eq!(
        relation(
            "Will Severance win Outstanding Drama Series at the 2028 Emmys?",
            "Severance wins Best Drama at the 2028 Primetime Emmys?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Severance win Outstanding Limited Series at the 2028 Emmys?",
            "Severance wins Best Drama at the 2028 Primetime Emmys?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "DAX index above 25,000 at close on Jun 30, 2028?",
            "Will the DAX close above 25,000 on June 30, 2028?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "DAX futures above 25,000 at close on Jun 30, 2028?",
            "Will the DAX close above 25,000 on June 30, 2028?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will the Bank of England cut its policy rate in May 2028?",
            "BoE lowers its policy rate at the May 2028 MPC meeting?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will the Bank of England hike its policy rate in May 2028?",
            "BoE lowers its policy rate at the May 2028 MPC meeting?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will 'Avatar 4' gross over $2 billion worldwide?",
            "Avatar 4 finishes above $2 billion worldwide?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will 'Avatar 4' have a budget over $2 billion worldwide?",
            "Avatar 4 finishes above $2 billion worldwide?"
        ),
        Relation::Same
    );
}

#[test]
fn at_least_one_is_one_of_a_class_happening() {
    assert_eq!(
        relation(
            "Will Oscar Piastri win a Grand Prix in 2028?",
            "Oscar Piastri to win at least one Grand Prix in the 2028 F1 season?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Aaron Judge To Hit A Home Run vs Orioles (Jul 9, 2027)",
            "Aaron Judge 1+ Home Runs - BAL @ NYY (7/9/27)"
        ),
        Relation::Same
    );
    // Two is not one; the Grand Slam (all four) is not one of the four.
    assert_ne!(
        relation(
            "Aaron Judge To Hit A Home Run vs Orioles (Jul 9, 2027)",
            "Aaron Judge 2+ Home Runs - BAL @ NYY (7/9/27)"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Jannik Sinner win the Grand Slam in 2028?",
            "Jannik Sinner to win at least one Grand Slam in 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn a_spread_in_brackets_is_the_teams_line() {
    let spread = "Spread: Lakers (-4.5) vs. Warriors, December 25, 2027";
    assert_eq!(
        relation(
            "Los Angeles Lakers -4.5 vs Golden State Warriors (Dec 25, 2027)",
            spread
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Golden State Warriors +4.5 at Los Angeles Lakers (Dec 25, 2027)",
            spread
        ),
        Relation::Inverted
    );
    // Another line, or the other team giving the points, is another bet.
    assert_ne!(
        relation(
            "Los Angeles Lakers -5.5 vs Golden State Warriors (Dec 25, 2027)",
            spread
        ),
        Relation::Same
    );
    let other_side = relation(
        "Golden State Warriors -4.5 at Los Angeles Lakers (Dec 25, 2027)",
        spread,
    );
    assert_ne!(other_side, Relation::Same);
    assert_ne!(other_side, Relation::Inverted);
}

#[test]
fn a_citys_weather_station_is_the_city_reading() {
    assert_eq!(
        relation(
            "Will Las Vegas hit 118°F in 2028?",
            "Harry Reid Airport high of 118°F or more in 2028?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Highest temperature in NYC on Jul 4, 2028: 97° or above?",
            "Will Central Park hit 97°F on July 4, 2028?"
        ),
        Relation::Same
    );
    // Another city's station, or the day's low, is another reading.
    assert_ne!(
        relation(
            "Will Chicago hit 97°F on July 4, 2028?",
            "Will Central Park hit 97°F on July 4, 2028?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Las Vegas' low be 90°F or more on July 4, 2028?",
            "Harry Reid Airport high of 90°F or more on July 4, 2028?"
        ),
        Relation::Same
    );
}
