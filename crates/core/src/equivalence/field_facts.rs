//! Worked examples of the sixth round's readings, each a general fact of
//! the field beside a look-alike that must stay apart: a coin's ticker
//! and its name (and a ticker that is also a word, only in capitals), a
//! stock index by its ticker, its name and its number, a ratio of two
//! assets against the price of one, a commodity named with the exchange
//! it settles on, and the time of day a market's rules state.

use super::*;
use crate::models::PlatformId;

fn market(platform: &str, title: &str, criteria: Option<&str>) -> Market {
    let mut m = Market::new(format!("{platform}-{}", title.len()));
    m.platform = Some(PlatformId::from(platform));
    m.title = Some(title.to_owned());
    m.trading_end_at = Some("2027-06-30T16:00:00Z".into());
    m.resolution_criteria = criteria.map(str::to_owned);
    m
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
