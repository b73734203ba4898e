//! Every operation's response, written by hand from the spec (not by our
//! serializer), decodes into its type with the values it holds. Unknown
//! fields are ignored and unknown enum values kept.

use predmarket_core::models::*;
use serde::de::DeserializeOwned;

fn load<T: DeserializeOwned>(name: &str) -> T {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Serializing what we decoded and decoding again changes nothing (the
/// server and the wasm crate depend on our serializer writing what we read).
fn round_trips<T: DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug>(value: &T) {
    let text = serde_json::to_string(value).expect("serialize");
    let again: T = serde_json::from_str(&text).expect("decode own output");
    assert_eq!(&again, value);
}

#[test]
fn list_markets() {
    let r: MarketsResponse = load("list_markets.json");
    let p = r.pagination.as_ref().expect("pagination");
    assert_eq!(p.total, Some(1342.0));
    assert_eq!(p.next(), Some("eyJvZmZzZXQiOjJ9"));
    assert_eq!(r.markets.len(), 2);

    let m = &r.markets[0];
    assert_eq!(m.id, "pa_0x5f1c");
    assert_eq!(m.platform, Some(PlatformId::PlatformA));
    assert_eq!(m.platform_id.as_deref(), Some("0x5f1c9e7e0a"));
    assert_eq!(m.status, Some(MarketStatus::Open));
    assert_eq!(m.market_type, Some(MarketType::Binary));
    let outcomes = m.outcomes.as_ref().expect("outcomes");
    assert_eq!(outcomes[1].id, "no");
    assert_eq!(outcomes[1].name.as_deref(), Some("No"));
    assert_eq!(m.current_price("yes"), Some(0.62));
    assert_eq!(m.current_price("NO"), Some(0.38));
    assert_eq!(m.event_id.as_deref(), Some("ev_rates_2025"));
    assert_eq!(m.event_slug.as_deref(), Some("rate-decisions-2025"));
    assert_eq!(m.series_id.as_deref(), Some("se_rates"));
    assert_eq!(m.subcategory.as_deref(), Some("rates"));
    assert_eq!(
        m.tags.as_deref(),
        Some(&["rates".to_owned(), "macro".to_owned()][..])
    );
    assert_eq!(m.volume_24h, Some(125000.5));
    assert_eq!(m.volume_total, Some(4200000.0));
    assert_eq!(m.unique_traders, Some(4521.0));
    assert_eq!(m.withdrawal_fee, Some(0.0));
    assert_eq!(m.trading_end_at.as_deref(), Some("2025-03-19T18:00:00Z"));
    assert_eq!(m.resolved_at, None, "null reads as absent");
    assert_eq!(
        m.price_24h_changes.as_ref().and_then(|c| c["no"].as_f64()),
        Some(-0.03)
    );
    assert!(
        m.last_trades
            .as_ref()
            .is_some_and(|t| t.contains_key("yes"))
    );

    let md = m.metadata.as_ref().expect("metadata");
    assert_eq!(md.condition_id.as_deref(), Some("0xabc123"));
    assert_eq!(md.amm_type.as_deref(), Some("clob"));
    assert_eq!(md.market_type.as_deref(), Some("normal"));
    assert_eq!(md.format_type.as_deref(), Some("percent"));
    assert_eq!(md.competitive, Some(0.93));
    assert_eq!(md.score, Some(12.5));
    assert_eq!(
        (md.best_bid, md.best_ask, md.spread),
        (Some(0.61), Some(0.63), Some(0.02))
    );
    assert_eq!(
        md.clob_token_ids.as_deref(),
        Some(&["7132".to_owned(), "8841".to_owned()][..])
    );
    // Raw keys beyond the spec's are kept.
    assert_eq!(
        md.extra.get("umaBond").and_then(|v| v.as_str()),
        Some("500")
    );
    assert_eq!(
        md.extra.get("negRisk").and_then(|v| v.as_bool()),
        Some(false)
    );
    assert!(!md.extra.contains_key("conditionId"));

    let second = &r.markets[1];
    assert_eq!(
        second.status,
        Some(MarketStatus::Other("halted_for_review".into()))
    );
    assert_eq!(
        second.market_type.as_ref().map(|t| t.as_str()),
        Some("range")
    );
    assert_eq!(second.current_price("yes"), Some(0.58));
    let ids = second
        .metadata
        .as_ref()
        .and_then(|m| m.clob_token_ids.clone());
    assert_eq!(
        ids,
        Some(vec!["1".to_owned(), "2".to_owned()]),
        "string-encoded array"
    );

    let meta = r.meta.as_ref().expect("meta");
    assert_eq!(meta.request_time, Some(42.5));
    assert_eq!(meta.cache_hit, Some(false));
    round_trips(&r);
}

#[test]
fn get_market() {
    let r: MarketsResponse = load("get_market.json");
    assert_eq!(r.pagination.as_ref().and_then(|p| p.next()), None);
    let m = &r.markets[0];
    assert_eq!(m.platform, Some(PlatformId::PlatformC));
    assert_eq!(m.status, Some(MarketStatus::Resolved));
    assert_eq!(m.current_price("yes"), Some(1.0));
    let raw = &m.metadata.as_ref().expect("metadata").extra["raw_platform_payload"];
    assert_eq!(raw["ticker"], "X-FINAL");
    assert_eq!(r.meta.as_ref().and_then(|m| m.cache_hit), Some(true));
    round_trips(&r);
}

#[test]
fn list_events() {
    let r: EventsResponse = load("list_events.json");
    assert_eq!(
        r.pagination.as_ref().and_then(|p| p.next()),
        Some("ZXZfMjU=")
    );
    let e = &r.events[0];
    assert_eq!(e.id, "ev_rates_2025");
    assert_eq!(e.platform, Some(PlatformId::PlatformA));
    assert_eq!(
        e.resolution_source_url.as_deref(),
        Some("https://bank.example/press")
    );
    assert_eq!(e.event_end_at.as_deref(), Some("2025-12-31T23:59:59Z"));
    assert_eq!(e.market_count, Some(8.0));
    assert_eq!(e.total_volume, Some(9100000.5));
    assert!(e.markets.is_none(), "not nested unless asked");
    round_trips(&r);
}

#[test]
fn get_event_with_nested_markets() {
    let r: EventsResponse = load("get_event.json");
    let markets = r.events[0].markets.as_ref().expect("nested markets");
    assert_eq!(markets.len(), 2);
    assert_eq!(markets[1].status, Some(MarketStatus::Closed));
    round_trips(&r);
}

#[test]
fn list_series() {
    let r: SeriesResponse = load("list_series.json");
    assert_eq!(r.series.len(), 3);
    let s = &r.series[0];
    assert_eq!(s.category.as_deref(), Some("economics"));
    assert_eq!(s.event_count, Some(12.0));
    assert_eq!(s.market_count, Some(96.0));
    assert_eq!(s.total_volume, Some(55_000_000.0));
    assert_eq!(
        r.series[2].platform,
        Some(PlatformId::Other("platform_z".into()))
    );
    let queried = r.meta.as_ref().and_then(|m| m.platforms_queried.clone());
    assert_eq!(
        queried,
        Some(vec![PlatformId::PlatformA, PlatformId::PlatformB])
    );
    round_trips(&r);
}

#[test]
fn get_series_with_nested_events() {
    let r: SeriesResponse = load("get_series.json");
    let events = r.series[0].events.as_ref().expect("nested events");
    assert_eq!(events[0].id, "ev_rates_2025");
    round_trips(&r);
}

#[test]
fn get_orderbook() {
    let r: OrderbookResponse = load("get_orderbook.json");
    let book = &r.data;
    assert_eq!(book.market_id.as_deref(), Some("pa_0x5f1c"));
    assert_eq!(book.timestamp.as_deref(), Some("2025-02-01T12:00:00.123Z"));
    let yes = book.yes.as_ref().expect("yes");
    assert_eq!(yes.bids[1], PriceLevel::new(0.6, 3400.5));
    assert_eq!(yes.asks[0].price, 0.63);
    assert_eq!(yes.depth, Some(7400.5));
    assert_eq!(book.no.as_ref().map(|n| n.asks.len()), Some(1));
    let md = book.metadata.as_ref().expect("metadata");
    assert_eq!(md.min_order_size, Some(5.0));
    assert_eq!(md.tick_size, Some(0.01));
    assert_eq!(md.neg_risk, Some(false));
    assert_eq!(
        md.raw.as_ref().map(|raw| raw["hash"].clone()),
        Some("0xdeadbeef".into())
    );
    assert_eq!(r.meta.as_ref().and_then(|m| m.request_time), Some(55.0));
    round_trips(&r);
}

#[test]
fn list_trades() {
    let r: TradesResponse = load("list_trades.json");
    let t = &r.trades[0];
    assert_eq!(t.trade_id, "t_1");
    assert_eq!(t.side, Some(TradeSide::Buy));
    assert_eq!(t.price, Some(0.62));
    assert_eq!(t.timestamp, Some(1738411200.0));
    assert_eq!(t.taker, Some(true));
    let user = t.user.as_ref().expect("user");
    assert_eq!(user.pseudonym.as_deref(), Some("Quiet-Otter"));
    assert_eq!(
        t.metadata.as_ref().and_then(|m| m["fee"].as_f64()),
        Some(0.3)
    );
    assert_eq!(r.trades[1].side, Some(TradeSide::Other("short".into())));
    // float_roundtrip: the last digit survives.
    assert_eq!(r.trades[1].price, Some(0.6100000000000001));
    let meta = r.meta.as_ref().expect("meta");
    assert_eq!(meta.market_id.as_deref(), Some("pa_0x5f1c"));
    assert_eq!(meta.platform, Some(PlatformId::PlatformA));
    assert_eq!(r.pagination.as_ref().and_then(|p| p.next()), Some("dF8y"));
    round_trips(&r);
}

#[test]
fn get_league_info_one_league() {
    let r: LeagueInfoResponse = load("get_league_info.json");
    let leagues = r.data.leagues();
    assert_eq!(leagues.len(), 1);
    let l = &leagues[0];
    assert_eq!(l.league(), League::LeagueA);
    assert_eq!(l.abbreviation.as_deref(), Some("LGA"));
    assert_eq!(l.season.as_ref().and_then(|s| s.year), Some(2025.0));
    assert_eq!(
        l.season.as_ref().and_then(|s| s.end_date.as_deref()),
        Some("2026-02-08")
    );
    let ep = l.endpoints.as_ref().expect("endpoints");
    assert_eq!((ep.list_games, ep.list_futures), (Some(true), Some(false)));
    assert_eq!(l.counts.as_ref().and_then(|c| c.futures), Some(40.0));
    assert_eq!(l.status, Some(LeagueStatus::Operational));
    let teams = l.teams.as_ref().expect("teams");
    assert_eq!(teams[0].service_id, "league_a_kc");
    assert_eq!(
        teams[0]
            .platform_ids
            .as_ref()
            .and_then(|p| p.get("platform_h").cloned()),
        Some("A-KC".into())
    );
    let tm = teams[0].metadata.as_ref().expect("team metadata");
    assert_eq!(tm.founded, Some(1960.0));
    assert_eq!(tm.colors.as_ref().map(Vec::len), Some(2));
    // The public service's spelling.
    assert_eq!(teams[1].service_id, "league_a_sf");
    round_trips(&r);
    // Written back as integers, under our spelling.
    let text = serde_json::to_string(&r).expect("serialize");
    assert!(text.contains("\"year\":2025,"), "{text}");
    assert!(text.contains("\"service_id\":\"league_a_sf\""));
}

#[test]
fn get_league_info_all_leagues() {
    let r: LeagueInfoResponse = load("get_league_info_all.json");
    let leagues = r.data.leagues();
    assert_eq!(leagues.len(), 2);
    assert_eq!(
        leagues[1].status,
        Some(LeagueStatus::Other("offseason_break".into()))
    );
    round_trips(&r);
}

#[test]
fn list_games() {
    let r: ListGamesResponse = load("list_games.json");
    let g = &r.data.games[0];
    assert_eq!(g.id, "KCvSF20250209@LGA");
    assert_eq!(g.league, Some(League::LeagueA));
    assert_eq!(g.teams.as_ref().map(|t| t.join(",")), Some("KC,SF".into()));
    assert_eq!(g.scheduled_at.as_deref(), Some("2025-02-09T23:30:00Z"));
    assert_eq!(g.status, Some(GameStatus::NotStarted));
    assert_eq!(
        g.metadata.as_ref().map(|m| m["venue"].clone()),
        Some("Dome".into())
    );
    assert_eq!(
        r.data.games[1].status,
        Some(GameStatus::Other("rain_delay".into()))
    );
    assert_eq!(
        r.data.pagination.as_ref().and_then(|p| p.next()),
        Some("Z2FtZXM6Mg==")
    );
    let meta = r.meta.as_ref().expect("meta");
    assert!(meta.is_partial());
    let err = &meta.platform_errors.as_ref().expect("errors")["platform_g"];
    assert_eq!(err.code.as_deref(), Some("PLATFORM_UNAVAILABLE"));
    assert_eq!(err.message.as_deref(), Some("timeout after 5000 ms"));
    round_trips(&r);
}

#[test]
fn get_game() {
    let r: GameResponse = load("get_game.json");
    let d = &r.data;
    assert_eq!(d.game.status, Some(GameStatus::InProgress));
    assert_eq!(d.markets.len(), 3, "one entry per platform event");
    assert_eq!(d.markets_of(&PlatformId::PlatformF).count(), 1);
    let ml: Vec<_> = d.outcomes_of_kind(&GameMarketType::Moneyline).collect();
    assert_eq!(ml.len(), 2);
    assert_eq!(
        ml[0].1.odds.as_ref().and_then(|o| o.american.as_deref()),
        Some("+122")
    );
    assert_eq!(ml[1].1.team_id(), Some("league_a_sf"));
    let event = &d.markets[0];
    assert_eq!(event.name(), Some("Kansas City at San Francisco: winner"));
    assert_eq!(
        (event.volume(), event.volume_24h()),
        (Some(50_000.0), Some(12_000.0))
    );
    assert_eq!(event.liquidity(), Some(2000.5));
    let book = ml[0].1.order_book.as_ref().expect("order book").yes_side();
    assert_eq!((book.bids.len(), book.asks.len()), (1, 1));
    let so = d.markets[1].outcomes();
    assert_eq!(so[1].line(), Some(-3.5));
    assert_eq!(so[2].line(), Some(47.5), "from the name");
    assert_eq!(so[2].side_name(), Some("Over"));
    assert_eq!(
        so[1].odds.as_ref().and_then(|o| o.american.as_deref()),
        Some("-110"),
        "number accepted"
    );
    assert_eq!(
        d.markets[2].outcomes()[0].kind(),
        Some(GameMarketType::Other("first_scorer".into()))
    );
    assert!(!r.meta.as_ref().expect("meta").is_partial());
    round_trips(&r);
}

#[test]
fn list_platforms() {
    let r: PlatformsResponse = load("list_platforms.json");
    let a = &r.platforms[0];
    assert_eq!(a.status, Some(PlatformStatus::Available));
    let h = a.health.as_ref().expect("health");
    assert_eq!(h.status, Some(HealthStatus::Pass));
    assert_eq!(h.response_time_ms, Some(120.5));
    assert_eq!(
        a.endpoints.as_ref().map(|e| e.available()[1].0),
        Some("orderbook")
    );
    assert_eq!(
        a.features.as_ref().and_then(|f| f.user_profiles),
        Some(true)
    );
    assert_eq!(
        r.platforms[1].status,
        Some(PlatformStatus::Other("sunset".into()))
    );
    assert_eq!(r.meta.as_ref().and_then(|m| m.total), Some(2.0));
    round_trips(&r);
}

#[test]
fn get_future() {
    let r: FutureResponse = load("get_future.json");
    let f = &r.data;
    assert_eq!(f.id, "league_a_championship_2025");
    assert_eq!(f.league, Some(League::LeagueA));
    assert_eq!(f.future_type, Some(FutureType::Championship));
    assert_eq!(f.category, Some(FutureCategory::Team));
    assert_eq!(f.season, Some(2025.0));
    let markets = f.markets.as_ref().expect("markets");
    assert_eq!(markets[0].platform, Some(PlatformId::PlatformA));
    let outcomes = markets[0].outcomes.as_ref().expect("outcomes");
    let odds = outcomes[0].odds.as_ref().expect("odds");
    assert_eq!(odds.american.as_deref(), Some("+250"));
    assert_eq!(odds.decimal, Some(3.5));
    assert_eq!(odds.implied_probability, Some(0.2857));
    assert_eq!(outcomes[0].last_trade_price, Some(0.29));
    assert_eq!(outcomes[1].team_id(), Some("league_a_sf"), "alias");
    let md = f.metadata.as_ref().expect("metadata");
    assert_eq!(md.eligible_teams.as_ref().map(Vec::len), Some(2));
    assert!(r.meta.as_ref().expect("meta").is_partial());
    round_trips(&r);
}

#[test]
fn list_futures() {
    let r: ListFuturesResponse = load("list_futures.json");
    assert_eq!(r.data.futures.len(), 3);
    assert_eq!(r.data.futures[1].future_type, Some(FutureType::Division));
    assert_eq!(
        r.data.futures[2].future_type,
        Some(FutureType::Other("season_leader".into()))
    );
    assert_eq!(r.data.futures[2].category, Some(FutureCategory::Player));
    let p = r.data.pagination.as_ref().expect("pagination");
    assert_eq!((p.total, p.offset), (Some(40.0), Some(0.0)));
    assert_eq!(p.next(), Some(3));
    round_trips(&r);
}

#[test]
fn get_award() {
    let r: AwardResponse = load("get_award.json");
    let a = &r.data;
    assert_eq!(a.award_type, Some(AwardType::Mvp));
    assert_eq!(a.league, Some(League::LeagueC));
    let c = &a.markets.as_ref().expect("markets")[0]
        .candidates
        .as_ref()
        .expect("candidates")[..];
    assert_eq!(c[0].player_name.as_deref(), Some("Player One"));
    assert_eq!(
        c[0].odds.as_ref().and_then(|o| o.american.as_deref()),
        Some("-150")
    );
    assert_eq!(c[0].volume_24h, Some(3000.0));
    assert_eq!(c[1].team_id(), Some("league_c_okc"));
    assert_eq!(
        a.metadata.as_ref().and_then(|m| m.eligibility.as_deref()),
        Some("65 games played")
    );
    round_trips(&r);
}

#[test]
fn list_awards() {
    let r: ListAwardsResponse = load("list_awards.json");
    assert_eq!(
        r.data.awards[1].award_type,
        Some(AwardType::RookieOfTheYear)
    );
    assert_eq!(
        r.data.awards[2].award_type,
        Some(AwardType::Other("clutch_player".into()))
    );
    let p = r.data.pagination.as_ref().expect("pagination");
    assert_eq!(p.has_more, Some(false));
    assert_eq!(p.next(), None);
    let errors = r
        .meta
        .as_ref()
        .and_then(|m| m.platform_errors.as_ref())
        .expect("errors");
    assert_eq!(errors["platform_b"].code.as_deref(), Some("NOT_FOUND"));
    round_trips(&r);
}

#[test]
fn get_price_history() {
    let r: PriceHistoryResponse = load("get_price_history.json");
    assert_eq!(r.data.len(), 3);
    let p = &r.data[0];
    assert_eq!(p.timestamp, Some(1738368000.0));
    let bar = p.price.as_ref().expect("price");
    assert_eq!(
        (bar.open, bar.high, bar.low, bar.close),
        (Some(0.58), Some(0.61), Some(0.57), Some(0.6))
    );
    assert_eq!(p.open_interest, Some(300000.0));
    assert_eq!(p.bid_ask.as_ref().and_then(|b| b.ask_close()), Some(0.61));
    assert_eq!(p.outcome_id.as_deref(), Some("yes"));
    assert_eq!(r.data[1].price.as_ref().and_then(|b| b.open), None);
    assert_eq!(r.points_of("pa_0x5f1c").count(), 2);
    let meta = r.meta.as_ref().expect("meta");
    assert_eq!(meta.total_points, Some(3.0));
    assert_eq!(meta.interval, Some(PriceInterval::OneHour));
    assert_eq!(
        meta.time_range.as_ref().and_then(|t| t.end),
        Some(1738371600.0)
    );
    assert_eq!(meta.platforms.as_ref().map(Vec::len), Some(2));
    round_trips(&r);
    let text = serde_json::to_string(&r).expect("serialize");
    assert!(text.contains("\"openInterest\":300000"), "{text}");
    assert!(text.contains("\"marketId\":\"pa_0x5f1c\""));
}

#[test]
fn get_profile_info() {
    let r: ProfileInfoResponse = load("get_profile_info.json");
    let p = r.data.profile.as_ref().expect("profile");
    assert_eq!(p.user_id.as_deref(), Some("0x9a8b7c"));
    assert_eq!(p.follower_count, Some(1200.0));
    assert_eq!(p.profile_view_count, Some(98000.0));
    let m = r.data.metrics.as_ref().expect("metrics");
    assert_eq!(m.pnl, Some(-1234.5));
    assert_eq!(m.num_markets_traded, Some(412.0));
    assert_eq!(m.roi, Some(-0.012));
    round_trips(&r);
}

#[test]
fn list_profile_trades() {
    let r: ProfileTradesResponse = load("list_profile_trades.json");
    let t = &r.data.trades[0];
    assert_eq!(t.trade_id, "pt_1");
    assert_eq!(t.ticker.as_deref(), Some("RATES-25MAR"));
    assert_eq!(t.side, Some(TradeSide::Sell));
    assert_eq!(t.transaction_hash, None);
    assert_eq!(
        r.data.pagination.as_ref().and_then(|p| p.next()),
        Some("cHRfNTA=")
    );
    assert!(r.meta.is_none());
    round_trips(&r);
}

#[test]
fn error_body() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/error_invalid_cursor.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let err = predmarket_core::Error::from_response(400, &text, None);
    assert_eq!(err.code(), predmarket_core::ErrorCode::InvalidCursor);
    let body: predmarket_core::ErrorBody = serde_json::from_str(&text).expect("decode");
    assert_eq!(
        body.error.timestamp.as_deref(),
        Some("2025-02-01T12:00:00Z")
    );
}

#[test]
fn every_operation_has_a_fixture() {
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    for op in [
        "list_series",
        "get_series",
        "list_markets",
        "get_market",
        "get_orderbook",
        "list_events",
        "get_event",
        "list_trades",
        "get_league_info",
        "list_games",
        "get_game",
        "list_platforms",
        "get_future",
        "list_futures",
        "get_award",
        "list_awards",
        "get_price_history",
        "get_profile_info",
        "list_profile_trades",
    ] {
        assert!(
            std::path::Path::new(&format!("{dir}/{op}.json")).exists(),
            "{op}"
        );
    }
}

#[test]
fn a_missing_id_is_an_error_but_missing_optional_fields_are_not() {
    assert!(serde_json::from_str::<Market>(r#"{"title": "x"}"#).is_err());
    let m: Market = serde_json::from_str(r#"{"id": "m"}"#).expect("only id");
    assert_eq!(m, Market::new("m"));
}

#[test]
fn list_meta_types_platform_errors() {
    let meta: ListMeta = serde_json::from_str(
        r#"{"request_time":12,"platform_errors":{"kalshi":{"code":"PLATFORM_UNAVAILABLE","message":"timeout"}}}"#,
    )
    .expect("decodes");
    let errors = meta.platform_errors.expect("typed");
    assert_eq!(
        errors["kalshi"].code.as_deref(),
        Some("PLATFORM_UNAVAILABLE")
    );
    assert_eq!(errors["kalshi"].message.as_deref(), Some("timeout"));
}
