//! Worked examples of the sixteenth round's readings of names, paraphrase
//! and opposites (branch recall21): a party, a driver, an institution or
//! a tournament by its short form or other name; a leg's "Winner" or
//! "Moneyline" and a scorer prop's "Goalscorer" read as the kind of
//! market, not as a name; a chart's top artist as its most-streamed; a
//! club that stays up against its relegation, a rule that survives
//! against its scrapping; an area in "sq km" as in km². Each beside a
//! look-alike that must stay
//! `different` or `unsure`. The `same` and `inverted` of each test fail
//! on the branch point (9ef6ee2), where they were `different` or
//! `unsure`; the look-alikes keep each reading from reaching further.

use super::worked_market::{neither_same_nor_inverted, titles_relation as relation, worked_market};
use super::*;

const ELECTION: &str = "2031-05-20T12:00:00Z";

#[test]
fn a_party_by_its_short_form_is_the_party_and_not_its_rival() {
    let labor = (
        "Will Labor win the most seats in the 2031 Australian federal election?",
        ELECTION,
    );
    let alp = (
        "Australian federal election 2031: most seats? ALP",
        ELECTION,
    );
    assert_eq!(relation(labor, alp), Relation::Same);
    // The other party of the same country is another question.
    let coalition = (
        "Australian federal election 2031: most seats? Liberal National Coalition",
        ELECTION,
    );
    assert!(neither_same_nor_inverted(relation(coalition, alp)));
    let cpc = ("Canada 2031 federal election: CPC most seats?", ELECTION);
    let conservatives = (
        "Will the Conservatives win the most seats in Canada's 2031 federal election?",
        ELECTION,
    );
    assert_eq!(relation(conservatives, cpc), Relation::Same);
    let liberals = (
        "Will the Liberals win the most seats in Canada's 2031 federal election?",
        ELECTION,
    );
    assert!(neither_same_nor_inverted(relation(liberals, cpc)));
    // "Liberal Democrats" is one party, not the Democrats.
    let lib_dem = ("Ed Davey out as Lib Dem leader by Dec 31, 2031?", ELECTION);
    let liberal_democrat = (
        "Will Ed Davey cease to be Liberal Democrat leader before 2032?",
        ELECTION,
    );
    assert_eq!(relation(lib_dem, liberal_democrat), Relation::Same);
}

const MONACO: &str = "2031-05-25T15:00:00Z";

#[test]
fn a_driver_by_the_code_of_the_timing_screens_and_not_another_driver() {
    let named = (
        "Will Max Verstappen win the 2031 Monaco Grand Prix?",
        MONACO,
    );
    let code = ("Monaco GP 2031 winner: VER?", MONACO);
    assert_eq!(relation(named, code), Relation::Same);
    let other = ("Monaco GP 2031 winner: LEC?", MONACO);
    assert_eq!(relation(named, other), Relation::Different);
}

const GAME: &str = "2031-12-26T05:00:00Z";

#[test]
fn a_legs_winner_or_moneyline_is_the_kind_of_market_not_a_name() {
    let moneyline = (
        "Denver Nuggets Moneyline - at Phoenix Suns (Dec 25, 2031)",
        GAME,
    );
    let winner = ("Denver at Phoenix Winner? Denver", GAME);
    assert_eq!(relation(moneyline, winner), Relation::Same);
    // The first five innings are another market of the same game.
    let f5 = (
        "Mariners vs Astros - First 5 Innings Moneyline: Seattle Mariners (Jun 5, 2031)",
        "2031-06-06T05:00:00Z",
    );
    let game = ("Houston at Seattle Winner? Seattle", "2031-06-06T05:00:00Z");
    assert!(neither_same_nor_inverted(relation(f5, game)));
}

#[test]
fn a_scorer_props_kind_is_no_name_and_first_is_not_anytime() {
    let anytime = (
        "Cole Palmer Anytime Goalscorer - Chelsea v Arsenal (Oct 23, 2031)",
        "2031-10-23T21:00:00Z",
    );
    let to_score = (
        "Cole Palmer To Score Anytime (Chelsea v Arsenal, 23/10/31)",
        "2031-10-23T21:00:00Z",
    );
    assert_eq!(relation(anytime, to_score), Relation::Same);
    let first = (
        "Cole Palmer First Goalscorer - Chelsea v Arsenal (Oct 23, 2031)",
        "2031-10-23T21:00:00Z",
    );
    assert!(neither_same_nor_inverted(relation(first, to_score)));
}

const NOBEL: &str = "2031-10-10T12:00:00Z";

#[test]
fn an_institution_by_its_acronym_and_not_another_agency() {
    let acronym = ("Will UNHCR win the 2031 Nobel Peace Prize?", NOBEL);
    let spelled = ("Nobel Peace Prize 2031 laureate? UN Refugee Agency", NOBEL);
    assert_eq!(relation(acronym, spelled), Relation::Same);
    let unicef = ("Nobel Peace Prize 2031 laureate? UNICEF", NOBEL);
    assert_eq!(relation(acronym, unicef), Relation::Different);
}

const CWC: &str = "2031-11-20T12:00:00Z";

#[test]
fn the_odi_world_cup_is_the_cricket_world_cup_and_not_the_t20() {
    let icc = ("Will India win the 2031 ICC Men's Cricket World Cup?", CWC);
    let odi = ("India to win the 2031 ODI World Cup?", CWC);
    assert_eq!(relation(icc, odi), Relation::Same);
    let t20 = ("India to win the 2031 T20 World Cup?", CWC);
    assert!(neither_same_nor_inverted(relation(icc, t20)));
}

const WRAPPED: &str = "2031-12-05T12:00:00Z";

#[test]
fn a_charts_top_artist_is_its_most_streamed_and_not_its_top_album() {
    let streamed = (
        "Will Bad Bunny be Spotify's most-streamed artist globally in 2031?",
        WRAPPED,
    );
    let top = (
        "Spotify Wrapped 2031 top global artist: Bad Bunny?",
        WRAPPED,
    );
    assert_eq!(relation(streamed, top), Relation::Same);
    let album = ("Spotify Wrapped 2031 top global album: Bad Bunny?", WRAPPED);
    assert!(neither_same_nor_inverted(relation(streamed, album)));
}

const SEASON: &str = "2032-05-30T17:00:00Z";

#[test]
fn a_club_that_stays_up_is_not_relegated_in_that_season_only() {
    let relegated = (
        "Will Everton be relegated from the Premier League in 2031-32?",
        SEASON,
    );
    let stays = (
        "Everton to stay up in the 2031/32 Premier League season?",
        SEASON,
    );
    assert_eq!(relation(relegated, stays), Relation::Inverted);
    // Another club staying up says nothing of this one.
    let other = (
        "Leeds to stay up in the 2031/32 Premier League season?",
        SEASON,
    );
    assert_eq!(relation(relegated, other), Relation::Different);
}

const END_2031: &str = "2031-12-31T23:59:00Z";

#[test]
fn a_rule_that_survives_is_not_scrapped_and_not_another_rule() {
    let survives = (
        "Senate legislative filibuster survives through 2031?",
        END_2031,
    );
    let scrapped = (
        "Will the Senate scrap the legislative filibuster by Dec 31, 2031?",
        END_2031,
    );
    assert_eq!(relation(survives, scrapped), Relation::Inverted);
    let other = (
        "Will the Senate scrap the blue slip by Dec 31, 2031?",
        END_2031,
    );
    assert!(neither_same_nor_inverted(relation(survives, other)));
}

#[test]
fn a_country_by_its_adjective_and_not_its_neighbour() {
    let adjective = (
        "Will Andrej Babiš be out as Czech Prime Minister before 2032?",
        END_2031,
    );
    let country = (
        "Babis no longer Prime Minister of Czechia by Dec 31, 2031?",
        END_2031,
    );
    assert_eq!(relation(adjective, country), Relation::Same);
    let neighbour = (
        "Babis no longer Prime Minister of Slovakia by Dec 31, 2031?",
        END_2031,
    );
    assert!(neither_same_nor_inverted(relation(adjective, neighbour)));
}

const SEA_ICE: &str = "2031-10-15T00:00:00Z";

/// Both sides settle on the agency's index, as the platforms' rules say.
fn with_rules(a: (&str, &str), b: (&str, &str)) -> Relation {
    classify(
        &worked_market("limitless", a.0, Some(a.1), SEA_ICE),
        &worked_market("kalshi", b.0, Some(b.1), SEA_ICE),
    )
    .relation
}

#[test]
fn an_area_in_square_kilometres_however_written_and_not_the_other_pole() {
    let km2 = (
        "Arctic sea ice minimum below 3 million km² in 2031?",
        "Yes if NSIDC's Sea Ice Index reports a 2031 Arctic minimum daily extent below 3 million km².",
    );
    let sq_km = (
        "NSIDC 2031 Arctic minimum extent under 3,000,000 sq km?",
        "If the lowest daily Arctic sea ice extent of 2031 in the NSIDC Sea Ice Index is less than 3,000,000 square kilometers, then the market resolves to Yes.",
    );
    assert_eq!(with_rules(km2, sq_km), Relation::Same);
    let other_pole = (
        "NSIDC 2031 Antarctic minimum extent under 3,000,000 sq km?",
        "If the lowest daily Antarctic sea ice extent of 2031 in the NSIDC Sea Ice Index is less than 3,000,000 square kilometers, then the market resolves to Yes.",
    );
    assert_eq!(with_rules(km2, other_pole), Relation::Different);
}

#[test]
fn replaced_in_an_office_is_leaving_it_by_the_same_day_only() {
    let remain = (
        "Will Mark Carney remain Prime Minister of Canada through June 30, 2031?",
        "2031-06-30T23:59:00Z",
    );
    let replaced = (
        "Carney replaced as Canadian PM before July 2031?",
        "2031-06-30T23:59:00Z",
    );
    assert_eq!(relation(remain, replaced), Relation::Inverted);
    let a_year_earlier = (
        "Carney replaced as Canadian PM before July 2030?",
        "2030-06-30T23:59:00Z",
    );
    assert!(neither_same_nor_inverted(relation(remain, a_year_earlier)));
}
