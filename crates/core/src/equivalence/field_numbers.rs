//! Worked examples of the sixth round's readings of numbers, lines and
//! windows, each a general fact of the field beside a look-alike that
//! must stay apart: a sportsbook's line as the margin it asks and its
//! total counting overtime, a state held on a window's last day against
//! leaving within it, staying on one side of a value through a window,
//! whole degrees, a maturity, "top" before a value, a price reached at
//! any time, numbers written as words and sequels' numerals, and the
//! time of day a market's rules state.

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, criteria: Option<&str>) -> Market {
    worked_market(platform, title, criteria, "2027-06-30T16:00:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("kalshi", a, None), &market("polymarket", b, None)).relation
}

#[test]
fn the_time_of_day_the_rules_state_is_the_markets() {
    let noon =
        "Resolves on the Binance TAO/USDT 1-minute candle close at 12:00 PM ET on June 30, 2027.";
    let late =
        "Resolves on the Binance TAO/USDT 1-minute candle close at 11:59 PM ET on June 30, 2027.";
    let untimed = market(
        "kalshi",
        "Bittensor above $1,000 on June 30, 2027?",
        Some(noon),
    );
    let at_noon = market(
        "polymarket",
        "$TAO over $1000 at noon ET on Jun 30, 2027?",
        Some(noon),
    );
    assert_eq!(classify(&untimed, &at_noon).relation, Relation::Same);
    let at_night = market(
        "polymarket",
        "$TAO over $1000 at 11:59 PM ET on Jun 30, 2027?",
        Some(late),
    );
    assert_eq!(classify(&untimed, &at_night).relation, Relation::Different);
}

#[test]
fn a_line_given_is_a_margin_won_by() {
    let line = "Acme Rockets -3.5 at Zed Comets (Jun 30, 2027)";
    assert_eq!(
        relation(
            "Acme Rockets beat the Zed Comets by 4 or more points on Jun 30, 2027?",
            line
        ),
        Relation::Same
    );
    // A smaller margin is a wider question; the other team's margin,
    // or points taken, are no reading of this line.
    assert_eq!(
        relation(
            line,
            "Acme Rockets beat the Zed Comets by 3 or more points on Jun 30, 2027?"
        ),
        Relation::Subset
    );
    assert_ne!(
        relation(
            "Zed Comets beat the Acme Rockets by 4 or more points on Jun 30, 2027?",
            line
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Acme Rockets beat the Zed Comets by 4 or more points on Jun 30, 2027?",
            "Acme Rockets +3.5 at Zed Comets (Jun 30, 2027)"
        ),
        Relation::Same
    );
}

#[test]
fn a_sportsbook_total_counts_overtime() {
    let over = "Acme @ Zed Over 44.5 Total Points (Jun 30, 2027)";
    assert_eq!(
        relation(
            over,
            "Acme at Zed: 45 or more total points on Jun 30, 2027 (overtime included)?"
        ),
        Relation::Same
    );
    // Soccer's extra time is not what a total counts.
    assert_ne!(
        relation(
            "Acme v Zed Over 2.5 Goals (Jun 30, 2027)",
            "Acme v Zed: 3 or more goals on Jun 30, 2027 (extra time included)?"
        ),
        Relation::Same
    );
}

#[test]
fn a_state_on_the_windows_last_day_against_its_end_in_it() {
    let out = "Jane Roe out as Freedonia's Prime Minister before 2028?";
    assert_eq!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on December 31, 2027?",
            out
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Jane Roe still Freedonia's Prime Minister on Jan 1, 2028?",
            out
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Will Jane Roe still be Freedonia's Prime Minister on December 31, 2027?",
            "Will Jane Roe cease to be Prime Minister of Freedonia in 2027?"
        ),
        Relation::Inverted
    );
    // A day inside the window is not its end: she may leave after it.
    assert_eq!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on June 30, 2027?",
            out
        ),
        Relation::Unsure
    );
    // Another window's end is another question.
    assert_ne!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on December 31, 2027?",
            "Jane Roe out as Freedonia's Prime Minister before July 2027?"
        ),
        Relation::Inverted
    );
}

#[test]
fn numbers_in_words_and_sequels_in_roman_numerals() {
    assert_eq!(
        relation(
            "Will the Acme Bank cut rates 2 or more times in 2027?",
            "Acme Bank: at least two rate cuts in 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will the Acme Bank cut rates 3 or more times in 2027?",
            "Acme Bank: at least two rate cuts in 2027?"
        ),
        Relation::Same
    );
    // A number word that compares nothing stays a word.
    let f = Facts::of_text("Will the one-week repo rate be cut?", None);
    assert!(f.numbers.is_empty());
    assert_eq!(
        relation(
            "Will GTA VI win Game of the Year at The Game Awards 2027?",
            "GTA 6 wins GOTY at TGA 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will GTA VII win Game of the Year at The Game Awards 2027?",
            "GTA 6 wins GOTY at TGA 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn staying_on_one_side_through_a_window_is_never_crossing_it() {
    let reach = "Will Acme reach $10 by December 31, 2027?";
    assert_eq!(
        relation(reach, "Acme stays under $10 through 2027?"),
        Relation::Inverted
    );
    // Staying under on one day is another question.
    assert_ne!(
        relation(reach, "Acme stays under $10 on December 31, 2027?"),
        Relation::Inverted
    );
}

#[test]
fn whole_degrees_a_pause_and_the_words_of_an_office() {
    assert_eq!(
        relation(
            "Phoenix high above 114°F on Jul 20, 2027?",
            "Phoenix high temp at least 115°F on Jul 20, 2027?"
        ),
        Relation::Same
    );
    // A price is not reported in whole dollars.
    assert_ne!(
        relation(
            "Acme stock above $114 on Jul 20, 2027?",
            "Acme stock at least $115 on Jul 20, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Fed pauses at the June 2028 FOMC meeting?",
            "Will the Fed move rates at its June 2028 meeting?"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Will Jane Roe be re-elected Mayor of Chicago in 2027?",
            "Jane Roe wins the 2027 Chicago mayoral election?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Jane Roe be re-elected Mayor of Chicago in 2027?",
            "Jane Roe wins the 2027 Illinois gubernatorial election?"
        ),
        Relation::Same
    );
}

#[test]
fn a_maturity_a_league_table_and_a_price_reached_at_any_time() {
    assert_eq!(
        relation(
            "Will the 10-year German Bund yield close above 3% on December 31, 2027?",
            "10Y Bund yield above 3.00% at close Dec 31, 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will the 10-year German Bund yield close above 3% on December 31, 2027?",
            "2Y Bund yield above 3.00% at close Dec 31, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Acme FC win the 2027-28 Premier League?",
            "Acme FC to finish top of the EPL table in 2027-28?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Dogecoin trade at $1 or higher at any point in 2027?",
            "DOGE to hit $1.00 before 2028?"
        ),
        Relation::Same
    );
    // A close is not a price reached at any time.
    assert_ne!(
        relation(
            "Nasdaq-100 closes above 25,000 on Dec 31, 2027?",
            "Nasdaq-100 trades above 25,000 at any time on Dec 31, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn top_before_a_value_is_above_it_and_a_final_won_is_the_title() {
    assert_eq!(
        relation(
            "Canada CPI inflation above 3% YoY in June 2027?",
            "Will Canada's annual inflation rate top 3% in June 2027?"
        ),
        Relation::Same
    );
    // Before a rank, "top" is the rank.
    let chart = Facts::of_text("Will Acme top the Hot 100 in 2027?", None);
    assert!(chart.threshold.is_none() && chart.words.contains("top"));
    assert_eq!(
        relation(
            "Will Acme FC win the 2027–28 UEFA Champions League?",
            "Acme FC to win the 2028 Champions League final?"
        ),
        Relation::Same
    );
    // Reaching the final is a stage short of the title.
    assert_ne!(
        relation(
            "Will Acme FC win the 2027–28 UEFA Champions League?",
            "Acme FC to reach the 2028 Champions League final?"
        ),
        Relation::Same
    );
}

#[test]
fn a_quantitys_qualifier_names_no_subject() {
    assert_eq!(
        relation(
            "Core PCE below 2.5% YoY for December 2027?",
            "Will core PCE inflation be 2.5% or higher in December 2027?"
        ),
        Relation::Inverted
    );
    // Another period is another quantity.
    assert_ne!(
        relation(
            "Core PCE below 2.5% MoM for December 2027?",
            "Will core PCE inflation be 2.5% or higher YoY in December 2027?"
        ),
        Relation::Inverted
    );
}

#[test]
fn holding_or_hiking_is_not_cutting_and_selling_is_sell() {
    assert_eq!(
        relation(
            "Will the Acme Bank cut rates at the September 2027 meeting?",
            "Acme Bank holds or hikes in September 2027?"
        ),
        Relation::Inverted
    );
    // A hike alone leaves the hold to NO on both.
    assert_eq!(
        relation(
            "Will the Acme Bank cut rates at the September 2027 meeting?",
            "Acme Bank hikes in September 2027?"
        ),
        Relation::Different
    );
    assert!(
        Facts::of_text("Will Acme hold its bitcoin without selling?", None)
            .words
            .contains("sell")
    );
}
