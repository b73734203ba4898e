//! Every request renders the spec's path and parameter names; every
//! structural check fails before sending, naming the parameter; no check
//! judges membership of an open set (the public service's ids are not the
//! labels: `docs/spec/public-service-facts.md`).

use predmarket_core::models::*;
use predmarket_core::request::*;

fn url<R: Request>(r: &R) -> String {
    r.to_http().expect("valid request").path_and_query()
}

fn rejected<R: Request>(r: &R) -> String {
    let err = r.to_http().expect_err("must be rejected");
    assert_eq!(err.code(), predmarket_core::ErrorCode::ValidationError);
    err.parameter().expect("names a parameter").to_owned()
}

#[test]
fn operation_names_match_the_js_library() {
    assert_eq!(ListSeries::OPERATION, "listSeries");
    assert_eq!(GetSeries::OPERATION, "getSeries");
    assert_eq!(ListMarkets::OPERATION, "listMarkets");
    assert_eq!(GetMarket::OPERATION, "getMarket");
    assert_eq!(GetOrderbook::OPERATION, "getOrderbook");
    assert_eq!(ListEvents::OPERATION, "listEvents");
    assert_eq!(GetEvent::OPERATION, "getEvent");
    assert_eq!(ListTrades::OPERATION, "listTrades");
    assert_eq!(GetLeagueInfo::OPERATION, "getLeagueInfo");
    assert_eq!(ListGames::OPERATION, "listGames");
    assert_eq!(GetGame::OPERATION, "getGame");
    assert_eq!(ListPlatforms::OPERATION, "listPlatforms");
    assert_eq!(GetFuture::OPERATION, "getFuture");
    assert_eq!(ListFutures::OPERATION, "listFutures");
    assert_eq!(GetAward::OPERATION, "getAward");
    assert_eq!(ListAwards::OPERATION, "listAwards");
    assert_eq!(GetPriceHistory::OPERATION, "getPriceHistory");
    assert_eq!(GetProfileInfo::OPERATION, "getProfileInfo");
    assert_eq!(ListProfileTrades::OPERATION, "listProfileTrades");
}

/// The public service's older pages page these lists by offset: a walk
/// goes on from `next_offset` when a page has no cursor, and the offset
/// goes out as `offset`.
#[test]
fn cursor_lists_follow_next_offset_of_older_pages() {
    use predmarket_core::request::{PagePosition, Paged};
    let page: predmarket_core::models::MarketsResponse = serde_json::from_str(
        r#"{"markets": [], "pagination": {"total": 60, "limit": 25, "offset": 0, "has_more": true, "next_offset": 25}}"#,
    )
    .unwrap();
    let next = ListMarkets::next_position(&page);
    assert_eq!(next, Some(PagePosition::Offset(25)));
    let mut r = ListMarkets {
        cursor: Some("old".into()),
        ..Default::default()
    };
    r.set_position(next);
    assert_eq!(url(&r), "/markets?offset=25");
    assert_eq!(r.position(), Some(PagePosition::Offset(25)));
    // A cursor, when the page has one, wins.
    let page: predmarket_core::models::MarketsResponse = serde_json::from_str(
        r#"{"markets": [], "pagination": {"has_more": true, "next_cursor": "c2", "next_offset": 25}}"#,
    )
    .unwrap();
    let next = ListMarkets::next_position(&page);
    assert_eq!(next, Some(PagePosition::Cursor("c2".into())));
    r.set_position(next);
    assert_eq!(url(&r), "/markets?cursor=c2");
    // The last page.
    let page: predmarket_core::models::MarketsResponse = serde_json::from_str(
        r#"{"markets": [], "pagination": {"has_more": false, "next_offset": 50}}"#,
    )
    .unwrap();
    assert_eq!(ListMarkets::next_position(&page), None);
}

#[test]
fn series() {
    assert_eq!(url(&ListSeries::default()), "/series");
    let r = ListSeries {
        limit: Some(100),
        cursor: Some("abc".into()),
        offset: None,
        platform: Some(PlatformId::PlatformB),
        query: Some("rates cut".into()),
        include_raw: Some(false),
        include_nested: Some(true),
    };
    assert_eq!(
        url(&r),
        "/series?limit=25&cursor=abc&platform=platform_b&query=rates%20cut&include_raw=false&include_nested=true"
    );
    let public = ListSeries {
        platform: Some("kalshi".into()),
        ..Default::default()
    };
    assert_eq!(url(&public), "/series?platform=kalshi", "any platform id");
    let zero = ListSeries {
        limit: Some(0),
        ..Default::default()
    };
    assert_eq!(rejected(&zero), "limit");
    let blank = ListSeries {
        query: Some("  ".into()),
        cursor: Some(String::new()),
        ..Default::default()
    };
    assert_eq!(url(&blank), "/series", "blank search and cursor are absent");

    assert_eq!(url(&GetSeries::new("se/1")), "/series/se%2F1");
    assert_eq!(rejected(&GetSeries::new("")), "id");
    let two = GetSeries {
        platform: Some("platform_a,platform_b".into()),
        ..GetSeries::new("x")
    };
    assert_eq!(rejected(&two), "platform");
    let empty = GetSeries {
        platform: Some("".into()),
        ..GetSeries::new("x")
    };
    assert_eq!(rejected(&empty), "platform");
}

#[test]
fn markets() {
    let r = ListMarkets {
        limit: Some(1000),
        platform: Some(PlatformId::PlatformE),
        status: Some(MarketStatus::Open),
        category: Some("sports".into()),
        event_id: Some("ev 1".into()),
        series_id: Some("se_1".into()),
        sort: Some(MarketSort::Volume24h),
        order: Some(SortOrder::Desc),
        ..Default::default()
    };
    assert_eq!(
        url(&r),
        "/markets?limit=250&platform=platform_e&status=open&category=sports&event_id=ev%201&series_id=se_1&sort=volume_24h&order=desc"
    );
    // Open sets: any single value goes to the service, which decides.
    let open = ListMarkets {
        platform: Some("polymarket".into()),
        status: Some("halted".into()),
        sort: Some("popularity".into()),
        order: Some("up".into()),
        ..Default::default()
    };
    assert_eq!(
        url(&open),
        "/markets?platform=polymarket&status=halted&sort=popularity&order=up"
    );
    for (bad, parameter) in [
        (
            ListMarkets {
                platform: Some("platform_a,platform_b".into()),
                ..Default::default()
            },
            "platform",
        ),
        (
            ListMarkets {
                status: Some("open,closed".into()),
                ..Default::default()
            },
            "status",
        ),
        (
            ListMarkets {
                sort: Some(" ".into()),
                ..Default::default()
            },
            "sort",
        ),
        (
            ListMarkets {
                limit: Some(0),
                ..Default::default()
            },
            "limit",
        ),
    ] {
        assert_eq!(rejected(&bad), parameter);
    }

    let m = GetMarket {
        platform: Some(PlatformId::PlatformE),
        include_raw: Some(true),
        ..GetMarket::new("0x12")
    };
    assert_eq!(
        url(&m),
        "/markets/0x12?platform=platform_e&include_raw=true"
    );
    assert_eq!(rejected(&GetMarket::new(" ")), "id");
}

#[test]
fn orderbook() {
    assert_eq!(url(&GetOrderbook::new("pa_1")), "/markets/pa_1/orderbook");
    let d = GetOrderbook {
        platform: Some(PlatformId::PlatformD),
        ..GetOrderbook::new("a#b")
    };
    assert_eq!(url(&d), "/markets/a%23b/orderbook?platform=platform_d");
}

#[test]
fn events() {
    let r = ListEvents {
        limit: Some(26),
        platform: Some(PlatformId::PlatformA),
        ..Default::default()
    };
    assert_eq!(url(&r), "/events?limit=25&platform=platform_a");
    let r = ListEvents {
        category: Some("Politics".into()),
        ..Default::default()
    };
    assert_eq!(url(&r), "/events?category=Politics");
    let blank = ListEvents {
        category: Some(" ".into()),
        ..Default::default()
    };
    assert_eq!(url(&blank), "/events");
    let g = GetEvent {
        include_nested: Some(true),
        ..GetEvent::new("ev_1")
    };
    assert_eq!(url(&g), "/events/ev_1?include_nested=true");
    assert_eq!(rejected(&GetEvent::new("")), "id");
}

#[test]
fn trades() {
    let r = ListTrades {
        limit: Some(5000),
        taker_only: Some(true),
        ..ListTrades::new("pa_1")
    };
    assert_eq!(url(&r), "/trades?market_id=pa_1&limit=1000&takerOnly=true");
    assert_eq!(rejected(&ListTrades::default()), "market_id");
    assert_eq!(
        rejected(&ListTrades {
            limit: Some(0),
            ..ListTrades::new("x")
        }),
        "limit"
    );
}

#[test]
fn league_info() {
    assert_eq!(url(&GetLeagueInfo::default()), "/league-info");
    let r = GetLeagueInfo {
        league: Some(League::LeagueD),
        include_teams: Some(true),
    };
    assert_eq!(url(&r), "/league-info?league=league_d&include_teams=true");
    let nfl = GetLeagueInfo {
        league: Some("nfl".into()),
        ..Default::default()
    };
    assert_eq!(url(&nfl), "/league-info?league=nfl", "any league id");
    let two = GetLeagueInfo {
        league: Some("nfl,nba".into()),
        ..Default::default()
    };
    assert_eq!(rejected(&two), "league");
}

#[test]
fn games() {
    let r = ListGames {
        status: Some(GameStatus::Final),
        from: Some("2025-02-01".into()),
        to: Some("2025-02-09".into()),
        limit: Some(99),
        cursor: Some("c1".into()),
        ..ListGames::new(League::LeagueA)
    };
    assert_eq!(
        url(&r),
        "/list-games?league=league_a&status=final&from=2025-02-01&to=2025-02-09&limit=25&cursor=c1"
    );
    assert_eq!(rejected(&ListGames::default()), "league");
    assert_eq!(url(&ListGames::new("nfl".into())), "/list-games?league=nfl");
    let bad_date = ListGames {
        from: Some("2025-02-30".into()),
        ..ListGames::new(League::LeagueB)
    };
    assert_eq!(rejected(&bad_date), "from");
    let reversed = ListGames {
        from: Some("2025-02-09".into()),
        to: Some("2025-02-01".into()),
        ..ListGames::new(League::LeagueB)
    };
    assert_eq!(rejected(&reversed), "to");

    assert_eq!(
        url(&GetGame::new("KCvSF20250209@NFL")),
        "/games/KCvSF20250209%40NFL"
    );
    assert_eq!(url(&GetGame::new("KCvSF20250209")), "/games/KCvSF20250209");
    let with_platform = GetGame {
        platform: Some("polymarket".into()),
        ..GetGame::new("nfl_kc_sf")
    };
    assert_eq!(url(&with_platform), "/games/nfl_kc_sf?platform=polymarket");
    assert_eq!(rejected(&GetGame::new("")), "game_id");
}

#[test]
fn platforms() {
    assert_eq!(url(&ListPlatforms), "/platforms");
}

#[test]
fn futures() {
    let r = GetFuture {
        platform: Some(PlatformId::PlatformF),
        odds_format: Some(OddsFormat::Decimal),
        ..GetFuture::new("league_a_championship_2025")
    };
    assert_eq!(
        url(&r),
        "/futures/league_a_championship_2025?platform=platform_f&odds_format=decimal"
    );
    let open = GetFuture {
        platform: Some("polymarket".into()),
        odds_format: Some("fractional".into()),
        ..GetFuture::new("x")
    };
    assert_eq!(
        url(&open),
        "/futures/x?platform=polymarket&odds_format=fractional"
    );

    let l = ListFutures {
        future_type: Some(FutureType::Division),
        season: Some(2025),
        platform: Some("kalshi".into()),
        odds_format: Some(OddsFormat::American),
        limit: Some(50),
        offset: Some(25),
        ..ListFutures::new(League::LeagueC)
    };
    assert_eq!(
        url(&l),
        "/list-futures?league=league_c&future_type=division&season=2025&platform=kalshi&odds_format=american&limit=25&offset=25"
    );
    assert_eq!(rejected(&ListFutures::default()), "league");
    let weekly = ListFutures {
        future_type: Some("weekly".into()),
        ..ListFutures::new("nfl".into())
    };
    assert_eq!(url(&weekly), "/list-futures?league=nfl&future_type=weekly");
    for season in [25, SEASON_MIN - 1, SEASON_MAX + 1] {
        assert_eq!(
            rejected(&ListFutures {
                season: Some(season),
                ..ListFutures::new(League::LeagueA)
            }),
            "season"
        );
    }
    assert_eq!(
        rejected(&ListFutures {
            future_type: Some("a,b".into()),
            ..ListFutures::new(League::LeagueA)
        }),
        "future_type"
    );
}

#[test]
fn awards() {
    let r = GetAward {
        odds_format: Some(OddsFormat::American),
        ..GetAward::new("league_c_mvp_2025")
    };
    assert_eq!(url(&r), "/awards/league_c_mvp_2025?odds_format=american");
    let l = ListAwards {
        award_type: Some(AwardType::Mvp),
        platform: Some(PlatformId::PlatformA),
        odds_format: Some(OddsFormat::Probability),
        ..ListAwards::new(League::LeagueC)
    };
    assert_eq!(
        url(&l),
        "/list-awards?league=league_c&award_type=mvp&platform=platform_a&odds_format=probability"
    );
    let new_kind = ListAwards {
        award_type: Some("sixth_man".into()),
        ..ListAwards::new(League::LeagueC)
    };
    assert_eq!(
        url(&new_kind),
        "/list-awards?league=league_c&award_type=sixth_man"
    );
    // Treated as future_type is: one value, a season in range.
    assert_eq!(
        rejected(&ListAwards {
            award_type: Some("mvp,roy".into()),
            ..ListAwards::new(League::LeagueC)
        }),
        "award_type"
    );
    assert_eq!(
        rejected(&ListAwards {
            season: Some(99),
            ..ListAwards::new(League::LeagueC)
        }),
        "season"
    );
    assert_eq!(rejected(&ListAwards::default()), "league");
    assert_eq!(rejected(&GetAward::new("")), "id");
}

#[test]
fn price_history() {
    let r = GetPriceHistory {
        start_ts: Some(1_738_368_000),
        end_ts: Some(1_738_371_600),
        interval: Some(PriceInterval::OneHour),
        limit: Some(10_000),
        ..GetPriceHistory::new(["pa_1", "pb_2"])
    };
    assert_eq!(
        url(&r),
        "/price-history?market_ids=pa_1%2Cpb_2&start_ts=1738368000&end_ts=1738371600&interval=1h&limit=5000"
    );
    assert_eq!(rejected(&GetPriceHistory::default()), "market_ids");
    let eleven = GetPriceHistory::new((0..11).map(|i| format!("m{i}")));
    assert_eq!(rejected(&eleven), "market_ids");
    assert!(
        GetPriceHistory::new((0..10).map(|i| format!("m{i}")))
            .to_http()
            .is_ok()
    );
    assert_eq!(rejected(&GetPriceHistory::new(["a,b"])), "market_ids");
    assert_eq!(rejected(&GetPriceHistory::new([""])), "market_ids");
    let reversed = GetPriceHistory {
        start_ts: Some(10),
        end_ts: Some(5),
        ..GetPriceHistory::new(["a"])
    };
    assert_eq!(rejected(&reversed), "end_ts");
    let other_interval = GetPriceHistory {
        interval: Some("2h".into()),
        ..GetPriceHistory::new(["a"])
    };
    assert_eq!(
        url(&other_interval),
        "/price-history?market_ids=a&interval=2h"
    );
    let zero = GetPriceHistory {
        limit: Some(0),
        ..GetPriceHistory::new(["a"])
    };
    assert_eq!(rejected(&zero), "limit");
}

#[test]
fn profile() {
    let r = GetProfileInfo {
        include_metrics: Some(true),
        ..GetProfileInfo::new(PlatformId::PlatformA, "0xabc")
    };
    assert_eq!(
        url(&r),
        "/profile/info?platform=platform_a&user=0xabc&include_metrics=true"
    );
    assert_eq!(
        rejected(&GetProfileInfo {
            user: "x".into(),
            ..Default::default()
        }),
        "platform"
    );
    assert_eq!(
        url(&GetProfileInfo::new("polymarket".into(), "x")),
        "/profile/info?platform=polymarket&user=x"
    );
    assert_eq!(
        rejected(&GetProfileInfo::new(PlatformId::PlatformA, "")),
        "user"
    );
    assert_eq!(
        rejected(&GetProfileInfo::new(PlatformId::PlatformA, "é".repeat(101))),
        "user"
    );
    assert!(
        GetProfileInfo::new(PlatformId::PlatformA, "é".repeat(100))
            .to_http()
            .is_ok()
    );

    let t = ListProfileTrades {
        limit: Some(500),
        cursor: Some("c".into()),
        ..ListProfileTrades::new(PlatformId::PlatformB, "bob")
    };
    assert_eq!(
        url(&t),
        "/profile/trades?platform=platform_b&user=bob&limit=100&cursor=c"
    );
    assert_eq!(
        rejected(&ListProfileTrades::new(
            "platform_a,platform_b".into(),
            "bob"
        )),
        "platform"
    );
}

#[test]
fn paged_requests_set_their_cursor_or_offset() {
    let mut m = ListMarkets::default();
    m.set_position(Some(PagePosition::Cursor("next".into())));
    assert_eq!(url(&m), "/markets?cursor=next");
    m.set_position(None);
    assert_eq!(url(&m), "/markets");

    let mut f = ListFutures::new(League::LeagueA);
    f.set_position(Some(PagePosition::Offset(50)));
    assert_eq!(url(&f), "/list-futures?league=league_a&offset=50");
    f.set_position(None);
    assert_eq!(url(&f), "/list-futures?league=league_a");
}

#[test]
fn queries_parse_back_with_lenient_values_and_named_errors() {
    let r = ListMarkets::from_query(&[], "limit=50&platform=polymarket&include_raw=true&x=1")
        .expect("parses");
    assert_eq!(r.limit, Some(50));
    assert_eq!(r.platform, Some(PlatformId::from("polymarket")));
    assert_eq!(r.include_raw, Some(true));

    let err = ListMarkets::from_query(&[], "limit=many").unwrap_err();
    assert_eq!(err.parameter(), Some("limit"));
    let err = ListMarkets::from_query(&[], "limit=-1").unwrap_err();
    assert_eq!(err.parameter(), Some("limit"));
    let err = ListMarkets::from_query(&[], "include_raw=yes").unwrap_err();
    assert_eq!(err.parameter(), Some("include_raw"));
    let err = ListMarkets::from_query(&[], "platform=a&platform=b").unwrap_err();
    assert_eq!(err.parameter(), Some("platform"));
    let err = ListGames::from_query(&[], "status=final").unwrap_err();
    assert_eq!(err.parameter(), Some("league"));
    assert!(err.to_string().contains("required"), "{err}");

    // Path parameters come apart and win over a query key of that name.
    let g = GetMarket::from_query(&[("id", "a/b")], "id=evil&include_raw=false").expect("parses");
    assert_eq!(g.id, "a/b");
    assert_eq!(url(&g), "/markets/a%2Fb?include_raw=false");
    let p = GetPriceHistory::from_query(&[], "market_ids=a,b&start_ts=5").expect("parses");
    assert_eq!(p.market_ids, ["a", "b"]);
    assert_eq!(ListPlatforms::from_query(&[], "").ok(), Some(ListPlatforms));

    // JS objects: numbers as numbers or digit strings, arrays or strings.
    let j = ListFutures::from_json(r#"{"league":"nfl","season":"2025","limit":10.0}"#).unwrap();
    assert_eq!((j.season, j.limit), (Some(2025), Some(10)));
    let j = GetPriceHistory::from_json(r#"{"market_ids":["a","b"],"end_ts":7}"#).unwrap();
    assert_eq!(j.market_ids, ["a", "b"]);
    let err = ListFutures::from_json(r#"{"league":"nfl","season":20.5}"#).unwrap_err();
    assert_eq!(err.parameter(), Some("season"));
    let err = GetProfileInfo::from_json(r#"{"platform":"a"}"#).unwrap_err();
    assert_eq!(err.parameter(), Some("user"));
}
