//! Worked examples of one question written otherwise, each beside a
//! look-alike that must stay apart: a sportsbook line on a count against
//! "N or more", a moneyline against "win", a short form against the name
//! it stands for, a word the other side implies, a game that cannot end
//! level, a line taken by one team and given by the other, a name typed
//! without its diacritics, an NFL season named by the year it starts in,
//! a state asked on a day with "still", a ticker written in capitals, and
//! leaving an office against holding it on a day (not nested), "or lower"
//! as a comparator, a central bank by its short name, a name glossed with
//! its ticker, a Double Chance against a win, the Dow and a domestic gross
//! by their other names, US GDP growth as published, "someone other
//! than" the holder of an office, the trade balance of goods and services,
//! ceasing to hold an office read once as its negation, and two
//! moneylines backing the teams written before them (two cities that
//! begin alike, two clubs of one city), a name by its alias and what an
//! entity of the field implies (a team's city and league, a race's
//! circuit), and a game's total points against one team's.

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str) -> Market {
    worked_market(platform, title, None, "2027-02-10T23:59:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("draftkings", a), &market("kalshi", b)).relation
}

#[test]
fn a_half_point_line_on_a_count_is_the_next_whole_number() {
    let over = "Acme Rockets vs Zed Comets (Feb 10, 2027): Over 219.5 Total Points";
    assert_eq!(
        relation(
            over,
            "Acme Rockets vs Zed Comets total points 220 or more on Feb 10, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Acme Rockets vs Zed Comets (Feb 10, 2027): Under 219.5 Total Points",
            "Acme Rockets vs Zed Comets total points 220 or more on Feb 10, 2027?"
        ),
        Relation::Inverted
    );
    // Another line is another bet.
    assert_ne!(
        relation(
            over,
            "Acme Rockets vs Zed Comets total points 221 or more on Feb 10, 2027?"
        ),
        Relation::Same
    );
    // A price is no count: $219.5 is not $220.
    assert_ne!(
        relation(
            "Acme stock above $219.5 on Feb 10, 2027?",
            "Acme stock $220 or more on Feb 10, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn a_moneyline_is_a_bet_on_the_winner() {
    let moneyline = "Acme Rockets Moneyline vs Zed Comets (Feb 10, 2027)";
    assert_eq!(
        relation(
            moneyline,
            "Will the Rockets beat the Comets on February 10, 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            moneyline,
            "Will the Rockets beat the Comets by 10 or more on February 10, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn a_short_form_names_what_it_stands_for_and_nothing_else() {
    assert_eq!(
        relation(
            "Will Quinta Velo Okonkwo win the 2027 Acme Cup?",
            "QVO to win the 2027 Acme Cup?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Quinta Velo Okonkwo win the 2027 Acme Cup?",
            "QVP to win the 2027 Acme Cup?"
        ),
        Relation::Different
    );
}

#[test]
fn a_word_the_other_side_implies_is_accounted_for() {
    assert_eq!(
        relation(
            "Will OpenAI release GPT-7 before July 2027?",
            "GPT-7 released by June 30, 2027?"
        ),
        Relation::Same
    );
    // A maker the other side does not imply is a word of its own.
    assert_ne!(
        relation(
            "Will Acme release GPT-7 before July 2027?",
            "GPT-7 released by June 30, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn win_and_lose_are_opposites_only_where_a_game_cannot_end_level() {
    assert_eq!(
        relation(
            "Will the Lakers beat the Nuggets on February 10, 2027?",
            "Will the Lakers lose to the Nuggets on February 10, 2027?"
        ),
        Relation::Inverted
    );
    assert_ne!(
        relation(
            "Will Arsenal beat Chelsea on February 10, 2027?",
            "Will Arsenal lose to Chelsea on February 10, 2027?"
        ),
        Relation::Inverted
    );
}

#[test]
fn a_line_given_by_one_team_and_taken_by_the_other_is_one_bet() {
    assert_eq!(
        relation(
            "Acme Rockets -4.5 vs Zed Comets (Feb 10, 2027)",
            "Zed Comets +4.5 vs Acme Rockets (Feb 10, 2027)"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Acme Rockets -4.5 vs Zed Comets (Feb 10, 2027)",
            "Zed Comets -4.5 vs Acme Rockets (Feb 10, 2027)"
        ),
        Relation::Different
    );
}

#[test]
fn the_other_teams_moneyline_backs_the_other_side() {
    assert_ne!(
        relation(
            "Zed Comets Moneyline vs Acme Lakers (Feb 10, 2027)",
            "Will the Lakers beat the Comets on February 10, 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn a_name_typed_without_its_diacritics_is_the_same_name() {
    assert_eq!(
        relation(
            "Will Ludvig Åberg win the 2027 Masters?",
            "Ludvig Aberg to win the 2027 Masters Tournament"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Ludvig Åberg win the 2027 Masters?",
            "Ludvig Aberg to win the 2027 PGA Championship"
        ),
        Relation::Different
    );
}

#[test]
fn an_nfl_season_is_named_by_the_year_it_starts_in() {
    assert_eq!(
        relation(
            "Will the Acme Rockets make the 2027-28 NFL playoffs?",
            "Acme Rockets to make the playoffs in the 2027 NFL season?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will the Acme Rockets make the 2027-28 NFL playoffs?",
            "Acme Rockets to make the playoffs in the 2028 NFL season?"
        ),
        Relation::Different
    );
}

#[test]
fn a_state_asked_on_a_day_is_the_same_with_still() {
    assert_eq!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on January 1, 2028?",
            "Jane Roe still Freedonia's Prime Minister on Jan 1, 2028?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on January 1, 2028?",
            "Jane Roe still Freedonia's Prime Minister on Jan 1, 2029?"
        ),
        Relation::Same
    );
}

#[test]
fn a_ticker_that_is_also_a_word_names_its_coin_in_capitals() {
    assert_eq!(
        relation(
            "$DOT above $10 on December 31, 2027?",
            "Will Polkadot be above $10 on Dec 31, 2027?"
        ),
        Relation::Same
    );
    // A dollar figure is the price unless the market says market cap.
    assert_eq!(
        relation(
            "$DOT above $10 on December 31, 2027?",
            "Polkadot market cap above $10B on Dec 31, 2027?"
        ),
        Relation::Different
    );
}

#[test]
fn leaving_an_office_against_holding_it_on_a_day_is_not_nested() {
    // On the window's last day it is the negation (`field_facts`); on a
    // day inside it, neither nested nor the negation.
    assert_eq!(
        relation(
            "Will Jane Roe be Prime Minister of Freedonia on June 30, 2027?",
            "Jane Roe out as Freedonia's Prime Minister before 2028?"
        ),
        Relation::Unsure
    );
}

#[test]
fn or_lower_is_a_comparator_and_a_central_bank_has_its_short_name() {
    assert_eq!(
        relation(
            "Core PCE inflation above 2.5% YoY in April 2027?",
            "Core PCE inflation 2.5% or lower YoY in April 2027?"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Bank of Korea base rate below 2.25% on December 31, 2027?",
            "Will the BoK's base rate be under 2.25% at the end of 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Bank of Korea base rate below 2.25% on December 31, 2027?",
            "Will the BoJ's base rate be under 2.25% at the end of 2027?"
        ),
        Relation::Different
    );
}

#[test]
fn a_name_glossed_with_its_ticker_is_that_ticker() {
    assert_eq!(
        relation(
            "Tether (USDT) market cap above $250B on December 31, 2027?",
            "Will USDT's market capitalization exceed $250 billion on Dec 31, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Tether (USDT) market cap above $250B on December 31, 2027?",
            "Will USDC's market capitalization exceed $250 billion on Dec 31, 2027?"
        ),
        Relation::Different
    );
}

#[test]
fn a_double_chance_is_every_result_but_the_other_sides_win() {
    let dc = "Double Chance: Zed Comets or Draw - Acme Rockets vs Zed Comets (Feb 10, 2027)";
    assert_eq!(
        relation(
            dc,
            "Will Acme Rockets beat Zed Comets on February 10, 2027?"
        ),
        Relation::Inverted
    );
    // The same side's win is narrower: never `same`.
    assert_eq!(
        relation(
            dc,
            "Will Zed Comets beat Acme Rockets on February 10, 2027?"
        ),
        Relation::Superset
    );
}

#[test]
fn the_dow_and_a_domestic_gross_by_their_other_names() {
    assert_eq!(
        relation(
            "Dow Jones Industrial Average at or below 55,000 at the end of 2027?",
            "Will the Dow be above 55000 on December 31, 2027?"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Will Acme: Part Three gross over $300 million in North America?",
            "Acme: Part Three domestic box office above $300M?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Acme: Part Three gross over $300 million in North America?",
            "Acme: Part Three worldwide box office above $300M?"
        ),
        Relation::Same
    );
}

#[test]
fn us_gdp_growth_is_real_annualized_and_each_release_an_estimate() {
    let advance = "US GDP growth above 2.5% annualized in Q1 2027 (advance estimate)?";
    assert_eq!(
        relation(advance, "Q1 2027 US real GDP growth (advance) above 2.5%?"),
        Relation::Same
    );
    assert_eq!(
        relation(
            advance,
            "Q1 2027 US real GDP growth (second estimate) above 2.5%?"
        ),
        Relation::Different
    );
}

#[test]
fn someone_other_than_the_holder_is_the_holder_not_holding_it() {
    let on_day = "Will Jane Roe be Prime Minister of Freedonia on January 1, 2028?";
    assert_eq!(
        relation(
            on_day,
            "Will someone other than Jane Roe be Freedonia's Prime Minister on January 1, 2028?"
        ),
        Relation::Inverted
    );
    assert_ne!(
        relation(
            on_day,
            "Will someone other than Jane Roe be Freedonia's President on January 1, 2028?"
        ),
        Relation::Inverted
    );
}

#[test]
fn the_trade_balance_is_of_goods_and_services_unless_it_says_goods() {
    let headline = "US goods and services trade deficit above $80B in April 2027?";
    assert_eq!(
        relation(
            headline,
            "Will the US trade deficit be more than $80 billion for April 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            headline,
            "Will the US goods trade deficit be more than $80 billion for April 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn ceasing_to_hold_an_office_is_read_once_as_its_negation() {
    // "ceases" is a negation: read again as a leaving word, the pair
    // would be flipped twice and ending the tenure called keeping it.
    let remain = "Will Jane Roe remain Prime Minister of Freedonia through 2027?";
    assert_eq!(
        relation(
            remain,
            "Jane Roe ceases to be Prime Minister of Freedonia before 2028?"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            remain,
            "Will Jane Roe cease to be Prime Minister of Freedonia before 2028?"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            "Jane Roe still Prime Minister of Freedonia on December 31, 2027?",
            "Jane Roe ceases to be Prime Minister of Freedonia in 2027?"
        ),
        Relation::Inverted
    );
    // Both sides ceasing, written alike or not, ask one question.
    assert_eq!(
        relation(
            "Jane Roe ceases to be Prime Minister of Freedonia before 2028?",
            "Will Jane Roe cease to be Prime Minister of Freedonia before 2028?"
        ),
        Relation::Same
    );
}

#[test]
fn a_moneyline_backs_the_team_written_before_it() {
    let rangers = "New York Rangers Moneyline vs New Jersey Devils (Feb 10, 2027)";
    // Two teams of two cities that begin alike ("New") are two teams,
    // and an NHL moneyline counts overtime and the shootout.
    assert_eq!(
        relation(
            rangers,
            "New Jersey Devils Moneyline at New York Rangers (2/10/27)"
        ),
        Relation::Inverted
    );
    assert_eq!(
        relation(
            rangers,
            "New York Rangers Moneyline vs New Jersey Devils (2/10/27)"
        ),
        Relation::Same
    );
    // Two teams of one city share its name and no more.
    assert_eq!(
        relation(
            "Los Angeles Lakers Moneyline vs Los Angeles Clippers (Feb 10, 2027)",
            "Los Angeles Clippers Moneyline at Los Angeles Lakers (Feb 10, 2027)"
        ),
        Relation::Inverted
    );
    // Two clubs of one city end alike: one team or two, the words
    // cannot tell, and a football match can end level.
    let real = "Real Madrid Moneyline vs Atletico Madrid (Feb 10, 2027)";
    for other in [
        "Atletico Madrid Moneyline at Real Madrid (Feb 10, 2027)",
        "New York Red Bulls Moneyline vs New England Revolution (Feb 10, 2027)",
    ] {
        let got = relation(real, other);
        assert!(
            !matches!(got, Relation::Same | Relation::Inverted),
            "{other}: {got:?}"
        );
    }
    let got = relation(
        "New York Red Bulls Moneyline vs New England Revolution (Feb 10, 2027)",
        "New England Revolution Moneyline at New York Red Bulls (Feb 10, 2027)",
    );
    assert!(
        !matches!(got, Relation::Same | Relation::Inverted),
        "{got:?}"
    );
}

#[test]
fn a_name_by_its_alias_and_what_its_entity_implies() {
    // A team by its city and short form, a race by its circuit.
    assert_eq!(
        relation(
            "Will the Lakers beat the Nuggets on Feb 10, 2027?",
            "LAL beat Denver Nuggets on Feb 10, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Max Verstappen win the 2027 Japanese Grand Prix?",
            "Will Max Verstappen win the 2027 race at Suzuka?"
        ),
        Relation::Same
    );
    // A rival of one city, another question at the same circuit, another
    // competition of the same club: apart.
    assert_ne!(
        relation(
            "Will the Lakers beat the Nuggets on Feb 10, 2027?",
            "LA Clippers beat Denver Nuggets on Feb 10, 2027?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Max Verstappen win the 2027 Japanese Grand Prix?",
            "Will Max Verstappen take pole at Suzuka in 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will Real Madrid win the 2027 Champions League?",
            "Will Real Madrid win La Liga in 2027?"
        ),
        Relation::Different
    );
}

#[test]
fn a_games_total_points_are_not_one_teams() {
    let game = "Lakers vs Nuggets (Feb 10, 2027): Over 220.5 Total Points";
    assert_eq!(
        relation(game, "Nuggets 221+ points vs Lakers on Feb 10, 2027"),
        Relation::Different
    );
    assert_eq!(
        relation(
            game,
            "Lakers vs Nuggets total points 221 or more on Feb 10, 2027?"
        ),
        Relation::Same
    );
}
