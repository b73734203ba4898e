//! The exported odds, order book and game-id functions of `predmarket/math`
//! (crates/math), on real data the client fetched.

use super::*;
use predmarket_math as pm;

fn throws(result: Result<JsValue, JsValue>) -> JsValue {
    match result {
        Ok(v) => panic!("must throw, got {v:?}"),
        Err(e) => e,
    }
}

#[wasm_bindgen_test]
fn odds_conversions() {
    assert_eq!(pm::american_to_decimal("+250").ok(), Some(3.5));
    assert_eq!(pm::decimal_to_american(1.5).ok().as_deref(), Some("-200"));
    assert_eq!(
        pm::probability_to_american(0.2).ok().as_deref(),
        Some("+400")
    );
    assert_eq!(
        pm::implied_probability("+300".into())
            .ok()
            .and_then(|v| v.as_f64()),
        Some(0.25)
    );
    assert_eq!(
        pm::implied_probability(4.0.into())
            .ok()
            .and_then(|v| v.as_f64()),
        Some(0.25)
    );
    let odds = object(&[("decimal", 2.0.into())]);
    assert_eq!(
        pm::implied_probability(odds).ok().and_then(|v| v.as_f64()),
        Some(0.5)
    );
    let error = throws(pm::american_to_decimal("+50").map(JsValue::from));
    assert_eq!(code(&error), "VALIDATION_ERROR");
    assert_eq!(string(&error, "parameter").as_deref(), Some("odds"));
    let fair =
        pm::no_vig_probabilities(Array::of2(&0.55.into(), &0.55.into()).into()).expect("no vig");
    assert_eq!(array(&fair).get(0).as_f64(), Some(0.5));
}

#[wasm_bindgen_test]
fn arbitrage_over_quotes() {
    let quote = |outcome: &str, platform: &str, decimal: f64| {
        object(&[
            ("outcome", outcome.into()),
            ("label", outcome.into()),
            ("platform", platform.into()),
            ("decimal", decimal.into()),
        ])
    };
    let quotes: Array = [
        quote("a", "platform_a", 2.2),
        quote("b", "platform_b", 2.2),
        quote("a", "platform_f", 1.8),
    ]
    .iter()
    .collect();
    let found = pm::find_arbitrage(quotes.clone().into(), 100.0, U).expect("ok");
    assert!(
        path(&found, &["guaranteed_profit"])
            .as_f64()
            .is_some_and(|p| p > 0.0)
    );
    assert_eq!(array(&get(&found, "legs")).length(), 2);
    let best = pm::best_prices(quotes.into()).expect("best");
    assert_eq!(
        path(&best, &["a", "platform"]).as_string().as_deref(),
        Some("platform_a")
    );
}

#[wasm_bindgen_test]
async fn quotes_of_real_futures_and_games() {
    let named = ids().await;
    let c = client();
    let futures = resolve(c.list_futures(
        object(&[("league", named.league(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let id = string(&array(&path(&futures, &["data", "futures"])).get(0), "id").expect("id");
    let future = resolve(c.get_future(id.into(), U)).await;
    let quotes = pm::future_quotes(future.clone()).expect("quotes");
    assert!(array(&quotes).length() > 0);
    assert_eq!(
        array(&pm::future_quotes(get(&future, "data")).expect("data")).length(),
        array(&quotes).length()
    );

    let games = resolve(c.list_games(
        object(&[("league", named.league(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let game_id = string(&array(&path(&games, &["data", "games"])).get(0), "id").expect("id");
    let game = resolve(c.get_game(game_id.into(), U)).await;
    let moneyline = pm::game_quotes(game, "moneyline".into(), None).expect("quotes");
    assert!(array(&moneyline).length() >= 2);
}

#[wasm_bindgen_test]
async fn order_book_analytics_of_a_real_book() {
    let named = ids().await;
    let c = client();
    let markets = resolve(c.list_markets(
        object(&[("platform", named.platform(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let id = string(&array(&get(&markets, "markets")).get(0), "id").expect("id");
    let book = resolve(c.get_orderbook(id.into(), U)).await;
    let bid = pm::best_bid(book.clone(), U).expect("bid");
    let ask = pm::best_ask(book.clone(), U).expect("ask");
    let (bid, ask) = (
        get(&bid, "price").as_f64().expect("bid"),
        get(&ask, "price").as_f64().expect("ask"),
    );
    assert!(bid < ask);
    let mid = pm::mid_price(book.clone(), U)
        .expect("mid")
        .as_f64()
        .expect("number");
    assert!((mid - (bid + ask) / 2.0).abs() < 1e-9);
    let fill = pm::vwap_to_fill(book.clone(), "buy".into(), 10.0, U).expect("fill");
    assert_eq!(get(&fill, "side").as_string().as_deref(), Some("buy"));
    assert!(get(&fill, "vwap").as_f64().is_some_and(|v| v >= ask));
    let curve = pm::depth_curve(path(&book, &["data", "yes"]), U).expect("curve");
    assert!(array(&get(&curve, "bids")).length() > 0);
    let no_side = pm::best_bid(book.clone(), "no".into()).expect("no");
    assert!(get(&no_side, "price").as_f64().is_some());
    let error = throws(pm::best_bid(book, "maybe".into()));
    assert_eq!(string(&error, "parameter").as_deref(), Some("outcome"));
}

#[wasm_bindgen_test]
fn game_ids() {
    let parts = pm::parse_game_id("KCvSF20250209@NFL").expect("parse");
    assert_eq!(string(&parts, "away").as_deref(), Some("KC"));
    assert_eq!(string(&parts, "date").as_deref(), Some("2025-02-09"));
    assert_eq!(string(&parts, "league").as_deref(), Some("NFL"));
    assert_eq!(
        pm::format_game_id(parts).ok().as_deref(),
        Some("KCvSF20250209@NFL")
    );
    assert_eq!(
        pm::is_same_game("KCvSF20250209@NFL", "KCvSF20250209").ok(),
        Some(true)
    );
    let error = throws(pm::parse_game_id("nope"));
    assert_eq!(string(&error, "parameter").as_deref(), Some("game_id"));
}
