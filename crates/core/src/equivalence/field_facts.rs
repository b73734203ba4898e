//! Worked examples of the sixth round's readings of names, each a
//! general fact of the field beside a look-alike that must stay apart: a
//! coin's ticker and its name (a ticker that is also a word only in
//! capitals), a stock index by its ticker, its name and its number, a
//! ratio of two assets against the price of one, a commodity named with
//! the exchange it settles on, titles and award categories by their
//! other names, the leagues whose games cannot end level, the first rank
//! as the top, a statistics office and its country, and a team by its
//! city (the readings of numbers, lines and windows are in
//! `field_numbers.rs`).

use super::worked_market::worked_market;
use super::*;

fn market(platform: &str, title: &str, criteria: Option<&str>) -> Market {
    worked_market(platform, title, criteria, "2027-06-30T16:00:00Z")
}

fn relation(a: &str, b: &str) -> Relation {
    classify(&market("kalshi", a, None), &market("polymarket", b, None)).relation
}

#[test]
fn a_coins_ticker_names_the_coin() {
    assert_eq!(
        relation(
            "Tron above $0.50 on June 30, 2027?",
            "$TRX above $0.50 on Jun 30, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Aptos above $20 on June 30, 2027?",
            "$APT at or below $20 on Jun 30, 2027?"
        ),
        Relation::Inverted
    );
    // Another coin's ticker is another subject.
    assert_eq!(
        relation(
            "Tron above $0.50 on June 30, 2027?",
            "$ZEC above $0.50 on Jun 30, 2027?"
        ),
        Relation::Different
    );
    // A ticker that is a word names the coin only in capitals.
    let apt = Facts::of_text("Will an apt candidate win?", None);
    assert!(!apt.words.contains("aptos"));
}

#[test]
fn a_stock_index_by_its_ticker_its_name_and_its_number() {
    assert_eq!(
        relation(
            "Nasdaq-100 closes above 25,000 on Dec 31, 2027?",
            "Will the NDX close above 25000 on December 31, 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Will the Nasdaq 100 close above 25,000 on December 31, 2027?",
            "Nasdaq-100 above 25000 on Dec 31, 2027?"
        ),
        Relation::Same
    );
    // The index's number is no year: "Russell 2000" names no date.
    let rut = Facts::of_text("Will the Russell 2000 close above 3,000?", None);
    assert_eq!(rut.date, None);
    assert!(rut.numbers.is_empty());
    // The Composite is another index; the S&P 500 another still.
    assert_eq!(
        relation(
            "Nasdaq-100 closes above 25,000 on Dec 31, 2027?",
            "Will the Nasdaq Composite close above 25,000 on December 31, 2027?"
        ),
        Relation::Different
    );
    assert_eq!(
        relation(
            "Will the Russell 2000 close above 3,000 on Dec 31, 2027?",
            "Will the S&P 500 close above 3,000 on Dec 31, 2027?"
        ),
        Relation::Different
    );
}

#[test]
fn a_ratio_of_two_assets_is_neither_ones_price() {
    assert_eq!(
        relation(
            "ETH/BTC above 0.05 on June 30, 2027?",
            "$ETH above $5,000 on Jun 30, 2027?"
        ),
        Relation::Different
    );
    assert_eq!(
        relation(
            "ETH/BTC above 0.05 on June 30, 2027?",
            "ETH/BTC ratio above 0.05 on Jun 30, 2027?"
        ),
        Relation::Same
    );
    // Against a dollar or a stablecoin, a pair is the coin's price.
    let price = Facts::of_text("BTC/USDT above 100,000 on June 30, 2027?", None);
    assert!(!price.words.contains("ratio"));
}

#[test]
fn a_commodity_named_with_its_exchange_is_the_commodity() {
    let rules = "Resolves on the settlement price of the front-month COMEX copper futures contract on June 30, 2027.";
    let copper = market(
        "kalshi",
        "Copper above $5.00/lb on June 30, 2027?",
        Some(rules),
    );
    let comex = market(
        "polymarket",
        "COMEX copper settles above $5 per pound on Jun 30, 2027?",
        Some(rules),
    );
    assert_eq!(classify(&copper, &comex).relation, Relation::Same);
    let found = find_pairs(&[copper.clone(), comex], &PairOptions::default());
    assert_eq!(found.len(), 1);
    // Another metal is another quantity.
    let gold = market(
        "polymarket",
        "COMEX gold settles above $5 per pound on Jun 30, 2027?",
        Some(rules),
    );
    assert_eq!(classify(&copper, &gold).relation, Relation::Different);
}

#[test]
fn a_title_by_its_other_name() {
    assert_eq!(
        relation(
            "Will Jane Roe win the 2027 F1 Drivers' Championship?",
            "Roe 2027 Formula 1 World Champion?"
        ),
        Relation::Same
    );
    // The Constructors' Championship is another title.
    assert_ne!(
        relation(
            "Will Acme Racing win the 2027 F1 Constructors' Championship?",
            "Acme Racing 2027 Formula 1 World Champion?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Juventus to win Serie A 2027/28",
            "Juventus wins the Scudetto in 2027-28?"
        ),
        Relation::Same
    );
    // Another league's title is another question.
    assert_ne!(
        relation(
            "Juventus to win the Coppa Italia 2027/28",
            "Juventus wins the Scudetto in 2027-28?"
        ),
        Relation::Same
    );
}

#[test]
fn a_baseball_game_or_two_hockey_moneylines_cannot_end_level() {
    let cubs = "Chicago Cubs Moneyline at Milwaukee Brewers (Jun 30, 2027)";
    assert_eq!(
        relation(cubs, "Brewers beat the Cubs on Jun 30, 2027?"),
        Relation::Inverted
    );
    let leafs = "Toronto Maple Leafs Moneyline vs Boston Bruins (Jun 30, 2027)";
    assert_eq!(
        relation(
            leafs,
            "Boston Bruins Moneyline at Toronto Maple Leafs (Jun 30, 2027)"
        ),
        Relation::Inverted
    );
    // A hockey game asked without moneylines can end level after sixty
    // minutes; a soccer match's two moneylines can both lose to a draw.
    assert_eq!(
        relation(leafs, "Bruins beat the Maple Leafs on Jun 30, 2027?"),
        Relation::Unsure
    );
    assert_eq!(
        relation(
            "Juventus Moneyline vs Napoli (Jun 30, 2027)",
            "Napoli Moneyline at Juventus (Jun 30, 2027)"
        ),
        Relation::Unsure
    );
}

#[test]
fn the_first_rank_is_the_top() {
    assert_eq!(
        relation(
            "Will Jane Roe's next album debut at No. 1 on the Billboard 200?",
            "Jane Roe's next album to top the Billboard 200 in its debut week?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will Jane Roe's next album debut at No. 2 on the Billboard 200?",
            "Jane Roe's next album to top the Billboard 200 in its debut week?"
        ),
        Relation::Same
    );
}

#[test]
fn a_statistics_office_names_its_country_and_an_index_its_inflation() {
    assert_eq!(
        relation(
            "Australia jobless rate 4.5% or higher in March 2027 (ABS)?",
            "Will the ABS report unemployment of at least 4.5% for March 2027?"
        ),
        Relation::Same
    );
    // Another country's office is another figure.
    assert_ne!(
        relation(
            "Australia jobless rate 4.5% or higher in March 2027 (ABS)?",
            "Will the ONS report unemployment of at least 4.5% for March 2027?"
        ),
        Relation::Same
    );
    assert_eq!(
        relation(
            "PCE price index up more than 2.5% year over year in March 2027?",
            "Will PCE inflation be above 2.5% YoY in March 2027?"
        ),
        Relation::Same
    );
    // A rise against a fall below is no reading of the verb.
    assert_ne!(
        relation(
            "PCE price index up more than 2.5% year over year in March 2027?",
            "Will PCE inflation be below 2.5% YoY in March 2027?"
        ),
        Relation::Same
    );
}

#[test]
fn an_awards_edition_and_its_categories_by_their_other_names() {
    assert_eq!(
        relation(
            "Will 'Acme' win Outstanding Drama Series at the 2027 Emmys?",
            "Acme to win Best Drama Series at the 79th Primetime Emmy Awards?"
        ),
        Relation::Same
    );
    // Another edition, another category.
    assert_ne!(
        relation(
            "Will 'Acme' win Outstanding Drama Series at the 2027 Emmys?",
            "Acme to win Best Drama Series at the 80th Primetime Emmy Awards?"
        ),
        Relation::Same
    );
    assert_ne!(
        relation(
            "Will 'Acme' win Outstanding Drama Series at the 2027 Emmys?",
            "Acme to win Best Comedy Series at the 79th Primetime Emmy Awards?"
        ),
        Relation::Same
    );
}

#[test]
fn a_team_by_its_city() {
    let game = "Will the Packers beat the Bears on Jun 30, 2027?";
    assert_eq!(
        relation(game, "Packers vs. Bears on Jun 30, 2027: Green Bay wins?"),
        Relation::Same
    );
    // The other city is the other side of the game.
    assert_ne!(
        relation(game, "Packers vs. Bears on Jun 30, 2027: Chicago wins?"),
        Relation::Same
    );
    assert_eq!(
        relation(
            "Jalen Roe Over 249.5 Passing Yards vs Cowboys (Jun 30, 2027)",
            "Jalen Roe 250+ passing yards vs Dallas on Jun 30, 2027?"
        ),
        Relation::Same
    );
    // Another city is another opponent.
    assert_eq!(
        relation(
            "Jalen Roe Over 249.5 Passing Yards vs Cowboys (Jun 30, 2027)",
            "Jalen Roe 250+ passing yards vs Seattle on Jun 30, 2027?"
        ),
        Relation::Different
    );
}
