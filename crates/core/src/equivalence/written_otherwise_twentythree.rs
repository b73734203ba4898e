//! Worked examples of the eighteenth round's readings of the words one
//! side adds (branch recall23): a day's high stayed under, a year's last
//! close against its day, WTI as crude oil, the party a "Which party"
//! market names, a soccer book's "Match Result" as its moneyline,
//! falling short as not reaching; and two readings that keep pairs apart:
//! a place before a chamber names another chamber, and a role at an
//! event (headlining) is narrower than any appearance. Each beside a
//! look-alike that must stay `different` or `unsure`. The `same` and
//! `inverted` of each test fail on the branch point (d68657d), where
//! they were `unsure`; so do the look-alikes of the last two readings,
//! which were `same` there.

use super::worked_market::{neither_same_nor_inverted, titles_relation as relation, worked_market};
use super::*;

const JULY_10: &str = "2031-07-11T04:00:00Z";

#[test]
fn staying_under_a_temperature_for_a_day_is_the_days_high_under_it() {
    let stays = (
        "Will Denver's high stay below 95°F on July 10, 2031?",
        JULY_10,
    );
    let high = (
        "Denver high temperature on Jul 10, 2031: 95° or above?",
        JULY_10,
    );
    assert_eq!(relation(stays, high), Relation::Inverted);
    // Staying above a level all day is the day's low, another quantity.
    let stays_above = (
        "Will Denver's temperature stay above 60°F on July 10, 2031?",
        JULY_10,
    );
    let high_above = (
        "Denver high temperature on Jul 10, 2031: above 60°?",
        JULY_10,
    );
    assert!(neither_same_nor_inverted(relation(stays_above, high_above)));
    // Staying under through a month is not one day's high.
    let month = (
        "Will Denver stay below 95°F through July 2031?",
        "2031-08-01T04:00:00Z",
    );
    assert!(neither_same_nor_inverted(relation(month, high)));
}

const YEAR_END: &str = "2031-12-31T21:00:00Z";

#[test]
fn a_years_last_close_is_the_day_the_other_side_names() {
    let last = (
        "Nasdaq 100 above 25,000 at the last close of 2031?",
        YEAR_END,
    );
    let day = (
        "Will the Nasdaq 100 close above 25,000 on December 31, 2031?",
        YEAR_END,
    );
    assert_eq!(relation(last, day), Relation::Same);
    // Another day of December is another close.
    let mid_month = (
        "Will the Nasdaq 100 close above 25,000 on December 15, 2031?",
        "2031-12-15T21:00:00Z",
    );
    assert!(neither_same_nor_inverted(relation(last, mid_month)));
}

const JUNE_30: &str = "2031-06-30T18:30:00Z";

#[test]
fn wti_is_a_crude_oil_and_brent_is_another() {
    let wti = ("WTI crude oil above $95 on Jun 30, 2031?", JUNE_30);
    let spelled = (
        "Will West Texas Intermediate settle over $95/bbl on June 30, 2031?",
        JUNE_30,
    );
    assert_eq!(relation(wti, spelled), Relation::Same);
    let brent = ("Brent crude oil above $95 on Jun 30, 2031?", JUNE_30);
    assert!(neither_same_nor_inverted(relation(brent, spelled)));
}

const ELECTION: &str = "2036-11-04T12:00:00Z";

#[test]
fn which_party_names_the_party_the_other_side_names() {
    let which = (
        "Which party will win the 2036 presidential election? Republican",
        ELECTION,
    );
    let named = (
        "Will a Republican win the 2036 US presidential election?",
        ELECTION,
    );
    assert_eq!(relation(which, named), Relation::Same);
    // The party's word accounts for no other office.
    let governor = (
        "Will a Republican win the 2036 Ohio governor election?",
        ELECTION,
    );
    assert!(neither_same_nor_inverted(relation(which, governor)));
}

const MATCH: &str = "2031-03-12T21:00:00Z";

#[test]
fn a_match_result_market_is_the_games_winner() {
    let result = ("Napoli v Inter - Match Result: Napoli (12 Mar 2031)", MATCH);
    let beat = ("Will Napoli beat Inter on March 12, 2031?", MATCH);
    assert_eq!(relation(result, beat), Relation::Same);
    // The half-time result is another market of the game.
    let half = (
        "Napoli v Inter - Half Time Result: Napoli (12 Mar 2031)",
        MATCH,
    );
    assert!(neither_same_nor_inverted(relation(half, beat)));
}

const SEMIS: &str = "2031-09-06T23:00:00Z";

#[test]
fn falling_short_of_a_stage_is_not_reaching_it() {
    let short = (
        "Will Jannik Sinner fall short of the US Open 2031 semifinals?",
        SEMIS,
    );
    let reach = ("Jannik Sinner reaches the US Open 2031 semifinals?", SEMIS);
    assert_eq!(relation(short, reach), Relation::Inverted);
    // Falling short of the final is not missing the semifinals.
    let short_of_final = (
        "Will Jannik Sinner fall short of the US Open 2031 final?",
        SEMIS,
    );
    assert!(neither_same_nor_inverted(relation(short_of_final, reach)));
}

#[test]
fn a_state_chamber_is_not_the_us_senate() {
    let senate = ("Will Democrats win the Senate in 2032?", ELECTION);
    let state_senate = (
        "Will Democrats win the Arizona State Senate in 2032?",
        ELECTION,
    );
    assert!(neither_same_nor_inverted(relation(senate, state_senate)));
    let house = (
        "Which party will control the House after the 2032 election? Democratic Party",
        ELECTION,
    );
    let state_house = ("Will Democrats win the Arizona House in 2032?", ELECTION);
    assert!(neither_same_nor_inverted(relation(house, state_house)));
    // A state's Senate race is its seat in the US Senate.
    let seat = ("Pennsylvania Senate winner 2032: John Fetterman?", ELECTION);
    let reelection = (
        "Will John Fetterman win re-election to the Senate in 2032?",
        ELECTION,
    );
    assert_eq!(relation(seat, reelection), Relation::Same);
}

const HALFTIME: &str = "2031-02-09T23:30:00Z";

#[test]
fn headlining_is_narrower_than_performing() {
    let festival = "2031-06-29T23:00:00Z";
    let headline = ("Will Dua Lipa headline Glastonbury 2031?", festival);
    let headliner = ("Dua Lipa a Glastonbury 2031 headliner?", festival);
    assert_eq!(relation(headline, headliner), Relation::Same);
    // A performer's market whose rules count a headliner or a guest:
    // the headliner's market is the narrower question, never the same.
    let headlines = worked_market(
        "kalshi",
        "Rihanna headlines the Super Bowl LXV halftime show?",
        Some(
            "If Rihanna is the announced headliner of the Super Bowl LXV halftime show and performs, then the market resolves to Yes.",
        ),
        HALFTIME,
    );
    let performs = worked_market(
        "polymarket",
        "Will Rihanna perform at the 2031 Super Bowl halftime show?",
        Some(
            "This market will resolve to \"Yes\" if Rihanna performs, as headliner or guest, during the halftime show of the Super Bowl played in February 2031.",
        ),
        HALFTIME,
    );
    assert!(neither_same_nor_inverted(
        classify(&headlines, &performs).relation
    ));
    let perform = ("Dua Lipa performs at Glastonbury 2031?", festival);
    assert!(neither_same_nor_inverted(relation(headline, perform)));
}

const MVP: &str = "2031-05-20T00:00:00Z";

#[test]
fn kalshis_source_agency_is_the_platforms_phrase_not_a_word_of_the_question() {
    let kalshi = worked_market(
        "kalshi",
        "NBA MVP 2031? Victor Wembanyama",
        Some(
            "If Victor Wembanyama is named the 2030-31 NBA Most Valuable Player, then the market resolves to Yes. The Source Agency is the NBA.",
        ),
        MVP,
    );
    let polymarket = worked_market(
        "polymarket",
        "Will Victor Wembanyama win the 2030-31 NBA MVP?",
        Some(
            "This market will resolve to \"Yes\" if Victor Wembanyama wins the Michael Jordan Trophy for the 2030-31 NBA season.",
        ),
        MVP,
    );
    assert_eq!(classify(&kalshi, &polymarket).relation, Relation::Same);
    // A price one side's rules read at one instant of a day, against a
    // side that names another auction of that day and no time: the
    // phrase no longer keeps them apart, the instant does.
    let closes = "2031-12-31T16:00:00Z";
    let am = worked_market(
        "polymarket",
        "Will the LBMA silver AM price be above $80 on December 31, 2031?",
        Some(
            "This market will resolve to \"Yes\" if the LBMA Silver Price AM (10:30 London) on December 31, 2031 is above $80 per troy ounce.",
        ),
        closes,
    );
    let pm = worked_market(
        "kalshi",
        "Silver price at the end of 2031? Above $80",
        Some(
            "If the LBMA Silver Price PM on Dec 31, 2031 is above $80 per troy ounce, then the market resolves to Yes. The Source Agency is the LBMA.",
        ),
        closes,
    );
    assert!(neither_same_nor_inverted(classify(&am, &pm).relation));
}
