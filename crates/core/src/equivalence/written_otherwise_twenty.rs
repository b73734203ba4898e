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

const MATCH: &str = "2030-03-02T19:45:00Z";

/// A sportsbook's soccer boilerplate, as FanDuel and DraftKings write it.
const NINETY: &str = "Settled on the result at the end of 90 minutes plus stoppage time; extra \
                      time and penalties do not count.";

#[test]
fn one_span_of_a_game_written_two_ways() {
    let book = ("Juventus vs Lazio - Total Goals: Over 2.5", Some(NINETY));
    let kalshi = |rules| {
        (
            "Juventus vs Lazio: 3 or more goals on Mar 2, 2030?",
            Some(rules),
        )
    };
    let regulation = "If 3 or more goals are scored in the Juventus vs. Lazio match, then the \
                      market resolves to Yes. Regulation time plus stoppage time only.";
    assert_eq!(relation(book, kalshi(regulation), MATCH), Relation::Same);
    // Extra time counted on one side: another question in a cup tie.
    // Fails without the span compared (every span word let go).
    let extra = "If 3 or more goals are scored in the Juventus vs. Lazio match, then the \
                 market resolves to Yes. Extra time counts; penalties do not.";
    assert_eq!(relation(book, kalshi(extra), MATCH), Relation::Unsure);
    // A span on one side against a side silent on it stays a fact.
    let silent = "If 3 or more goals are scored in the Juventus vs. Lazio match, then the \
                  market resolves to Yes.";
    assert_eq!(relation(book, kalshi(silent), MATCH), Relation::Unsure);
}

#[test]
fn a_tie_that_resolves_no_is_what_winning_says() {
    let win = |rules| ("Will Juventus beat Lazio on March 2, 2030?", rules);
    let kalshi = (
        "Juventus vs Lazio Winner? Juventus",
        Some(
            "If Juventus wins the Juventus vs. Lazio match scheduled for Mar 2, 2030, then the \
             market resolves to Yes. The result after regulation time (90 minutes plus \
             stoppage time) is used; a tie resolves all team markets to No.",
        ),
    );
    assert_eq!(relation(win(Some(NINETY)), kalshi, MATCH), Relation::Same);
    // A tie that returns the stakes is another question (draw no bet).
    let push = (
        "Will Juventus beat Lazio on March 2, 2030?",
        Some(
            "Settled after 90 minutes plus stoppage time. If the match is a draw, stakes are refunded.",
        ),
    );
    assert_ne!(relation(push, kalshi, MATCH), Relation::Same);
}

fn relation_of(a: Market, b: Market) -> Relation {
    classify(&a, &b).relation
}

fn sourced(platform: &str, title: &str, source: Option<&str>, rules: Option<&str>) -> Market {
    let mut m = worked_market(platform, title, rules, "2030-06-04T14:00:00Z");
    m.resolution_source = source.map(str::to_owned);
    m
}

#[test]
fn one_agency_named_by_its_domain_and_its_name() {
    let poly = sourced(
        "polymarket",
        "Will the Bank of Canada lower rates in June 2030?",
        None,
        Some(
            "This market will resolve to \"Yes\" if the Bank of Canada announces a cut to its \
             policy interest rate at its June 2030 meeting. Otherwise, this market will resolve \
             to \"No\". The resolution source for this market will be the press release at \
             bankofcanada.ca.",
        ),
    );
    let kalshi = |agency: &str| {
        sourced(
            "kalshi",
            "Bank of Canada cuts the policy interest rate in June 2030?",
            None,
            Some(&format!(
                "If the Bank of Canada decreases the policy interest rate at its meeting in \
                 June 2030, then the market resolves to Yes. The Source Agency is {agency}."
            )),
        )
    };
    assert_eq!(
        relation_of(poly.clone(), kalshi("the Bank of Canada")),
        Relation::Same
    );
    // Another agency named as the source: the publisher's words on both
    // sides are two sources' (fails without the sets compared: both
    // sides' publisher words let go whatever they name).
    assert_ne!(
        relation_of(poly, kalshi("Statistics Canada")),
        Relation::Same
    );
}

#[test]
fn two_stations_of_one_publisher_stay_two_sources() {
    let title = "Highest temperature in Chicago on Jul 20, 2030 above 95°F?";
    let other = "Will Chicago's high temperature be above 95°F on July 20, 2030?";
    let ohare = sourced("kalshi", title, Some("NWS Chicago O'Hare"), None);
    let same_station = sourced(
        "polymarket",
        other,
        Some("National Weather Service, Chicago O'Hare"),
        None,
    );
    assert_eq!(relation_of(ohare.clone(), same_station), Relation::Same);
    // Midway is another station of the same publisher. Fails without the
    // field's other words compared (one publisher taken as one source).
    let midway = sourced("polymarket", other, Some("NWS Chicago Midway"), None);
    assert_eq!(relation_of(ohare, midway), Relation::Different);
}

#[test]
fn a_word_of_a_publishers_name_only_where_the_name_is_written() {
    let am = sourced(
        "polymarket",
        "Will the LBMA platinum AM price be above $2,000 on June 30, 2030?",
        None,
        Some(
            "This market will resolve to \"Yes\" if the LBMA Platinum Price AM (9:45 London) on \
             June 30, 2030 is above $2,000 per troy ounce. Otherwise, this market will resolve \
             to \"No\". The resolution source for this market will be lbma.org.uk.",
        ),
    );
    let pm = sourced(
        "kalshi",
        "Platinum price on Jun 30, 2030? Above $2,000",
        None,
        Some(
            "If the LBMA Platinum Price PM on Jun 30, 2030 is above $2,000 per troy ounce, then \
             the market resolves to Yes. The Source Agency is the LBMA. If no auction is held on \
             Jun 30, the last PM price is used.",
        ),
    );
    // "London" is a word of the LBMA's name, not written as its name
    // here: the morning fix against the afternoon's stays apart. Fails
    // without the words that named the publisher kept per market (any
    // word of its name let go).
    assert_ne!(relation_of(am, pm), Relation::Same);
}

const CUT: &str = "2030-04-11T23:59:00Z";

#[test]
fn a_withdrawal_that_meets_the_question_is_no_void_branch() {
    let make = (
        "Will Rory McIlroy make the cut at the 2030 Masters?",
        Some("Resolves Yes only if McIlroy plays the weekend after the cut."),
    );
    let miss = |rules| {
        (
            "Will McIlroy miss the cut at the 2030 Masters?",
            Some(rules),
        )
    };
    assert_eq!(
        relation(
            make,
            miss("Resolves Yes if McIlroy does not make the cut, including a withdrawal."),
            CUT
        ),
        Relation::Inverted
    );
    // A branch for a withdrawal, however it is worded around "including",
    // stays a branch the other side does not settle alike (this holds
    // without the reading too: it keeps the reading from reaching further).
    assert_eq!(
        relation(
            make,
            miss(
                "Resolves Yes if McIlroy does not make the cut. If he withdraws, including \
                 before his first tee shot, the market resolves 50-50."
            ),
            CUT
        ),
        Relation::Unsure
    );
}

#[test]
fn a_count_of_points_takes_in_overtime_unless_its_rules_say_otherwise() {
    const NIGHT: &str = "2030-02-03T03:00:00Z";
    let poly = (
        "Will Anthony Edwards score 35+ points vs Denver on February 2, 2030?",
        Some("Resolves Yes if Anthony Edwards scores 35 or more points in the game."),
    );
    let kalshi = |rules| ("Anthony Edwards: 35+ points vs Denver?", Some(rules));
    assert_eq!(
        relation(
            poly,
            kalshi(
                "If Anthony Edwards records 35 or more points, the market resolves to Yes. Overtime counts."
            ),
            NIGHT
        ),
        Relation::Same
    );
    // Regulation only on one side: another count than a side silent on it
    // takes. Fails if any one-sided span were let go.
    assert_eq!(
        relation(
            poly,
            kalshi(
                "If Anthony Edwards records 35 or more points in regulation, the market \
                 resolves to Yes. Overtime does not count."
            ),
            NIGHT
        ),
        Relation::Unsure
    );
}

#[test]
fn one_agency_on_both_sides_still_leaves_the_names_each_adds() {
    let title = "US nonfarm payrolls above 150,000 in June 2030?";
    let rules = |report: &str| {
        format!(
            "Resolves Yes if the change in total nonfarm payrolls for June 2030 is above 150,000, \
             as announced by the Bureau of Labor Statistics in the {report}."
        )
    };
    let a = sourced(
        "polymarket",
        title,
        None,
        Some(&rules("Employment Situation")),
    );
    let same = sourced("kalshi", title, None, Some(&rules("Employment Situation")));
    assert_eq!(relation_of(a.clone(), same), Relation::Same);
    // Two reports of one agency named, one on each side: two names each
    // side adds stay a stop (fails without the names kept apart from the
    // agency's boilerplate: `same`).
    let other = sourced(
        "kalshi",
        title,
        None,
        Some(&rules("Current Employment Statistics Survey")),
    );
    assert_ne!(relation_of(a, other), Relation::Same);
}
