//! Worked examples of the tenth round's readings, each beside a
//! look-alike that must stay apart: a verb that only says an event takes
//! place ("hold a referendum", not "hold rates"), an edition of a
//! recurring event named by its number (and another edition), a soccer
//! match's full time that one side's rules state (not extra time, not
//! another sport's regulation), staying on one side of a value through a
//! window against crossing it in that window (not another window, not
//! the same side), holding what one has against losing it, and a rules
//! text's "combined final score of both teams" on a game's total (not
//! one team's), a half-goal Asian handicap as a win or a Double
//! Chance (not a goal and a half), a film's "3-day" opening as its
//! opening weekend (not a 4-day holiday opening); and a share against an
//! amount of money, two quantities, beside a rate with and without "%";
//! and a day written D/M/YY where it cannot be a month (not "3/4/28",
//! which stays March 4).

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, rules: Option<&str>) -> Market {
    worked_market(platform, title, rules, "2027-12-31T23:59:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    with_rules(a, None, b, None)
}

fn with_rules(a: &str, rules_a: Option<&str>, b: &str, rules_b: Option<&str>) -> Relation {
    classify(
        &market("polymarket", a, rules_a),
        &market("kalshi", b, rules_b),
    )
    .relation
}

#[test]
fn a_verb_that_says_an_event_takes_place_adds_nothing() {
    assert_eq!(
        relation(
            "Will Wales hold an independence referendum before 2028?",
            "Wales independence referendum by December 31, 2027?"
        ),
        Relation::Same
    );
    // Holding rates is the question: the opposite of changing them.
    assert_eq!(
        relation(
            "Will the Fed hold rates at its March 2027 meeting?",
            "Will the Fed change rates at its March 2027 meeting?"
        ),
        Relation::Inverted
    );
    // Another predicate of the same event is another question.
    assert_ne!(
        relation(
            "Will Wales hold an independence referendum before 2028?",
            "Will Wales pass an independence referendum before 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn an_edition_by_its_number_is_its_year() {
    assert_eq!(
        relation(
            "Will Patrick Cantlay win the 2028 PGA Championship?",
            "Cantlay wins the 110th PGA Championship?"
        ),
        Relation::Same
    );
    // The 109th was played in 2027.
    assert_eq!(
        relation(
            "Will Patrick Cantlay win the 2028 PGA Championship?",
            "Cantlay wins the 109th PGA Championship?"
        ),
        Relation::Different
    );
    assert_eq!(
        relation(
            "Will Denny Hamlin win the 2027 Daytona 500?",
            "Denny Hamlin wins the 69th Daytona 500?"
        ),
        Relation::Same
    );
}

#[test]
fn a_soccer_matchs_full_time_is_what_a_side_that_does_not_say_means() {
    let a = "Will Juventus beat Napoli on October 17, 2027?";
    let b = "Juventus to Win vs Napoli (17 Oct 2027)";
    assert_eq!(
        with_rules(
            a,
            None,
            b,
            Some("Settles on the result after 90 minutes plus stoppage time (regulation).")
        ),
        Relation::Same
    );
    // Extra time and penalties counted are said, and stay a fact.
    assert_ne!(
        with_rules(
            a,
            None,
            b,
            Some("Settles on the result including extra time and penalties.")
        ),
        Relation::Same
    );
    // Regulation in hockey is another question than the game's winner.
    assert_ne!(
        with_rules(
            "Will the Canadiens beat the Senators on February 12, 2028?",
            None,
            "Canadiens to Win vs Senators (12 Feb 2028)",
            Some("Settles on the result after 60 minutes of regulation time.")
        ),
        Relation::Same
    );
}

#[test]
fn staying_through_a_window_is_never_crossing_in_it() {
    let reach = "Will Death Valley reach 130°F in 2027?";
    assert_eq!(
        relation("Death Valley stays below 130°F throughout 2027?", reach),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Will Las Vegas hit 120°F in 2027?",
            "Las Vegas stays under 120°F all of 2027?"
        ),
        Relation::Inverted
    );
    // Another window.
    assert_ne!(
        relation(
            "Death Valley stays below 130°F throughout July 2027?",
            reach
        ),
        Relation::Inverted
    );
    // The same side of the value: staying above all year is not being
    // above at some point.
    let stays_above = relation(
        "Death Valley stays above 80°F throughout 2027?",
        "Will Death Valley be above 80°F in 2027?",
    );
    assert!(
        !matches!(stays_above, Relation::Same | Relation::Inverted),
        "{stays_above:?}"
    );
}

#[test]
fn holding_what_one_has_is_not_losing_it() {
    assert_eq!(
        relation(
            "Republicans hold Ohio's Senate seat in 2028?",
            "Republicans lose the Ohio Senate seat in 2028?"
        ),
        Relation::Inverted
    );
    // The other party's loss is another question.
    assert_ne!(
        relation(
            "Republicans hold Ohio's Senate seat in 2028?",
            "Democrats lose the Ohio Senate seat in 2028?"
        ),
        Relation::Inverted
    );
}

#[test]
fn a_games_final_score_of_both_teams_is_its_total() {
    let rules = Some("Combined final score of both teams, overtime included.");
    let b = "49ers vs Seahawks: 46+ total points on Oct 10, 2027?";
    assert_eq!(
        with_rules(
            "Over 45.5 Total Points - 49ers @ Seahawks (Oct 10, 2027)",
            None,
            b,
            rules
        ),
        Relation::Same
    );
    // One team's total is another quantity.
    assert_eq!(
        with_rules(
            "49ers Team Total Over 45.5 Points (Oct 10, 2027)",
            None,
            b,
            rules
        ),
        Relation::Different
    );
}

#[test]
fn a_half_goal_asian_handicap_is_a_win_or_a_double_chance() {
    let beat = "Will Borussia Dortmund beat Bayer Leverkusen on March 4, 2028?";
    assert_eq!(
        relation("Dortmund -0.5 Asian Handicap vs Leverkusen (3/4/28)", beat),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Bayer Leverkusen +0.5 Asian Handicap at Dortmund (Mar 4, 2028)",
            beat
        ),
        Relation::Inverted
    );
    // A goal and a half is a margin of two: not the win.
    assert_ne!(
        relation("Dortmund -1.5 Asian Handicap vs Leverkusen (3/4/28)", beat),
        Relation::Same
    );
}

#[test]
fn a_three_day_opening_is_the_opening_weekend() {
    let weekend = "Will 'Star Wars: Starfighter' gross over $100M in its domestic opening weekend?";
    assert_eq!(
        relation(
            weekend,
            "Star Wars: Starfighter 3-day domestic opening gross above $100 million?"
        ),
        Relation::Same
    );
    // A holiday's four days are another span.
    assert_ne!(
        relation(
            weekend,
            "Star Wars: Starfighter 4-day domestic opening gross above $100 million?"
        ),
        Relation::Same
    );
}

#[test]
fn a_share_is_never_an_amount_of_money() {
    assert_eq!(
        relation(
            "Will Bitcoin be above $140,000 on December 31, 2027?",
            "Bitcoin dominance above 60% on Dec 31, 2027?"
        ),
        Relation::Different
    );
    // A rate written with "%" on one side only is one quantity.
    assert_eq!(
        relation(
            "Will the US unemployment rate be above 4.5% for April 2027?",
            "US unemployment rate above 4.5 in April 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn a_day_that_cannot_be_a_month_is_written_first() {
    assert_eq!(
        relation(
            "Everton v West Ham Under 2.5 Goals (18/12/2027)",
            "Fewer than 3 goals in Everton vs West Ham on Dec 18, 2027?"
        ),
        Relation::Same
    );
    // "3/4/28" is March 4, as US platforms write it: not April 3.
    assert_ne!(
        relation(
            "Dortmund -0.5 Asian Handicap vs Leverkusen (3/4/28)",
            "Will Borussia Dortmund beat Bayer Leverkusen on April 3, 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn a_word_before_a_class_of_events_names_a_narrower_one() {
    // "a Grand Prix" is any race of the season; "the Italian Grand Prix"
    // is one of them (a subset at most, never the same question).
    assert_ne!(
        relation(
            "Will Oscar Piastri win the 2028 Italian Grand Prix?",
            "Will Oscar Piastri win a Grand Prix in 2028?"
        ),
        Relation::Same
    );
    // A city before its team's name is the same team.
    assert_eq!(
        relation(
            "Will the Cleveland Cavaliers win the 2028 NBA Finals?",
            "Will the Cavaliers win the 2028 NBA Finals?"
        ),
        Relation::Same
    );
}
