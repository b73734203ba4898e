//! Every operation against the real server, with ids found in its data.

use super::*;

fn first(list: &JsValue) -> JsValue {
    let list = array(list);
    assert!(list.length() > 0, "an empty list");
    list.get(0)
}

#[wasm_bindgen_test]
async fn every_operation_answers_with_the_documented_shape() {
    let named = ids().await;
    let c = client();

    // Markets, order book, trades, price history.
    let markets = resolve(c.list_markets(
        object(&[("platform", named.platform(0)), ("limit", 5.into())]),
        U,
    ))
    .await;
    assert_eq!(array(&get(&markets, "markets")).length(), 5);
    assert_eq!(path(&markets, &["pagination", "limit"]).as_f64(), Some(5.0));
    let market = first(&get(&markets, "markets"));
    let market_id = string(&market, "id").expect("market id");
    assert_eq!(string(&market, "platform"), named.platform(0).as_string());

    let by_id = resolve(c.get_market(market_id.clone().into(), U)).await;
    assert_eq!(
        string(&first(&get(&by_id, "markets")), "id"),
        Some(market_id.clone())
    );
    let by_params = resolve(c.get_market(
        object(&[
            ("id", market_id.clone().into()),
            ("platform", named.platform(0)),
        ]),
        U,
    ))
    .await;
    assert_eq!(
        string(&first(&get(&by_params, "markets")), "id"),
        Some(market_id.clone())
    );

    let book = resolve(c.get_orderbook(market_id.clone().into(), U)).await;
    assert!(array(&path(&book, &["data", "yes", "bids"])).length() > 0);

    let trades = resolve(c.list_trades(
        object(&[("market_id", market_id.clone().into()), ("limit", 3.into())]),
        U,
    ))
    .await;
    let trade = first(&get(&trades, "trades"));
    assert_eq!(string(&trade, "market_id"), Some(market_id.clone()));
    let user = path(&trade, &["user", "name"])
        .as_string()
        .expect("a trader");

    let history = resolve(c.get_price_history(
        object(&[
            ("market_ids", Array::of1(&market_id.clone().into()).into()),
            ("interval", "1h".into()),
            ("limit", 3.into()),
        ]),
        U,
    ))
    .await;
    let point = first(&get(&history, "data"));
    assert!(path(&point, &["price", "close"]).as_f64().is_some());
    assert_eq!(string(&point, "marketId"), Some(market_id.clone()));

    // Events and series.
    let events = resolve(c.list_events(object(&[("limit", 2.into())]), U)).await;
    let event_id = string(&first(&get(&events, "events")), "id").expect("event id");
    let event = resolve(c.get_event(
        object(&[
            ("id", event_id.clone().into()),
            ("include_nested", true.into()),
        ]),
        U,
    ))
    .await;
    let event = first(&get(&event, "events"));
    assert_eq!(string(&event, "id"), Some(event_id));
    assert!(
        array(&get(&event, "markets")).length() > 0,
        "nested markets"
    );

    let series = resolve(c.list_series(object(&[("limit", 2.into())]), U)).await;
    assert!(path(&series, &["meta", "platforms_queried"]).is_object());
    let series_id = string(&first(&get(&series, "series")), "id").expect("series id");
    let one = resolve(c.get_series(series_id.clone().into(), U)).await;
    assert_eq!(string(&first(&get(&one, "series")), "id"), Some(series_id));

    // Sports.
    let league = resolve(c.get_league_info(
        object(&[("league", named.league(0)), ("include_teams", true.into())]),
        U,
    ))
    .await;
    assert_eq!(
        path(&league, &["data", "id"]).as_string(),
        named.league(0).as_string()
    );
    assert!(array(&path(&league, &["data", "teams"])).length() > 0);
    let all = resolve(c.get_league_info(U, U)).await;
    assert_eq!(array(&get(&all, "data")).length(), 4);

    let games = resolve(c.list_games(
        object(&[("league", named.league(0)), ("limit", 2.into())]),
        U,
    ))
    .await;
    let game_id = string(&first(&path(&games, &["data", "games"])), "id").expect("game id");
    let game = resolve(c.get_game(game_id.clone().into(), U)).await;
    assert_eq!(
        path(&game, &["data", "id"]).as_string(),
        Some(game_id.clone())
    );
    assert!(array(&path(&game, &["data", "markets"])).length() > 0);
    let without_league = game_id.split('@').next().unwrap_or_default().to_owned();
    resolve(c.get_game(object(&[("game_id", without_league.into())]), U)).await;

    let futures = resolve(c.list_futures(
        object(&[("league", named.league(0)), ("limit", 2.into())]),
        U,
    ))
    .await;
    assert!(
        path(&futures, &["data", "pagination", "next_offset"])
            .as_f64()
            .is_some(),
        "offset paging"
    );
    let future_id = string(&first(&path(&futures, &["data", "futures"])), "id").expect("future id");
    let future = resolve(c.get_future(
        object(&[
            ("id", future_id.clone().into()),
            ("odds_format", "decimal".into()),
        ]),
        U,
    ))
    .await;
    assert_eq!(path(&future, &["data", "id"]).as_string(), Some(future_id));

    let awards = resolve(c.list_awards(
        object(&[("league", named.league(0)), ("limit", 2.into())]),
        U,
    ))
    .await;
    let award_id = string(&first(&path(&awards, &["data", "awards"])), "id").expect("award id");
    let award = resolve(c.get_award(award_id.clone().into(), U)).await;
    assert_eq!(path(&award, &["data", "id"]).as_string(), Some(award_id));

    // Profiles.
    let profile = resolve(c.get_profile_info(
        object(&[
            ("platform", named.platform(0)),
            ("user", user.clone().into()),
            ("include_metrics", true.into()),
        ]),
        U,
    ))
    .await;
    assert_eq!(
        path(&profile, &["data", "profile", "display_name"]).as_string(),
        Some(user.clone())
    );
    assert!(
        path(&profile, &["data", "metrics", "volume"])
            .as_f64()
            .is_some()
    );
    let profile_trades = resolve(c.list_profile_trades(
        object(&[
            ("platform", named.platform(0)),
            ("user", user.into()),
            ("limit", 2.into()),
        ]),
        U,
    ))
    .await;
    assert_eq!(
        array(&path(&profile_trades, &["data", "trades"])).length(),
        2
    );

    // Platforms: the 19th.
    resolve(c.list_platforms(U, U)).await;
}

#[wasm_bindgen_test]
async fn a_failing_platform_shows_in_platform_errors_and_the_rest_is_served() {
    let named = ids().await;
    let c = client();
    let futures = resolve(c.list_futures(
        object(&[("league", named.league(1)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let id = string(&first(&path(&futures, &["data", "futures"])), "id").expect("future id");
    let future = resolve(c.get_future(id.into(), U)).await;
    let errors = path(&future, &["meta", "platform_errors"]);
    let failing = named.platform(7).as_string().expect("id");
    assert_eq!(
        path(&errors, &[failing.as_str(), "code"])
            .as_string()
            .as_deref(),
        Some("PLATFORM_UNAVAILABLE")
    );
    assert!(
        array(&path(&future, &["data", "markets"])).length() > 0,
        "the other platforms answered"
    );

    let games = resolve(c.list_games(
        object(&[("league", named.league(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    assert!(path(&games, &["meta", "platform_errors", failing.as_str()]).is_object());
}

#[wasm_bindgen_test]
async fn identical_concurrent_calls_each_get_their_own_plain_objects() {
    let c = client();
    let params = || object(&[("limit", 50.into())]);
    let (a, b) = futures::join!(
        resolve(c.list_markets(params(), U)),
        resolve(c.list_markets(params(), U))
    );
    assert!(!Object::is(&a, &b), "each caller parses its own copy");
    let market = array(&get(&a, "markets")).get(0);
    assert_eq!(
        Object::get_prototype_of(&market),
        Object::get_prototype_of(&Object::new().into())
    );
    let text = |v: &JsValue| String::from(js_sys::JSON::stringify(v).expect("stringify"));
    assert_eq!(text(&a), text(&b), "one answer shared (coalesced)");
}
