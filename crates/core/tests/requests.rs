//! Every request renders the spec's path and parameter names, and every
//! check of the spec fails before sending, naming the parameter.

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

#[test]
fn series() {
    assert_eq!(url(&ListSeries::default()), "/series");
    let r = ListSeries {
        limit: Some(100),
        cursor: Some("abc".into()),
        platform: Some(PlatformId::PlatformB),
        query: Some("rates cut".into()),
        include_raw: Some(false),
        include_nested: Some(true),
    };
    assert_eq!(
        url(&r),
        "/series?limit=25&cursor=abc&platform=platform_b&query=rates%20cut&include_raw=false&include_nested=true"
    );
    let c = ListSeries {
        platform: Some(PlatformId::PlatformC),
        ..Default::default()
    };
    assert_eq!(rejected(&c), "platform");
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
    let new_status = ListMarkets {
        status: Some("halted".into()),
        ..Default::default()
    };
    assert_eq!(url(&new_status), "/markets?status=halted");
    for bad in [
        ListMarkets {
            platform: Some(PlatformId::PlatformF),
            ..Default::default()
        },
        ListMarkets {
            platform: Some("platform_a,platform_b".into()),
            ..Default::default()
        },
    ] {
        assert_eq!(rejected(&bad), "platform");
    }
    assert_eq!(
        rejected(&ListMarkets {
            sort: Some("popularity".into()),
            ..Default::default()
        }),
        "sort"
    );
    assert_eq!(
        rejected(&ListMarkets {
            order: Some("up".into()),
            ..Default::default()
        }),
        "order"
    );
    assert_eq!(
        rejected(&ListMarkets {
            status: Some("open,closed".into()),
            ..Default::default()
        }),
        "status"
    );
    assert_eq!(
        rejected(&ListMarkets {
            limit: Some(0),
            ..Default::default()
        }),
        "limit"
    );

    let m = GetMarket {
        platform: Some(PlatformId::PlatformE),
        include_raw: Some(true),
        ..GetMarket::new("0x12")
    };
    assert_eq!(
        url(&m),
        "/markets/0x12?platform=platform_e&include_raw=true"
    );
    assert_eq!(
        rejected(&GetMarket {
            platform: Some(PlatformId::PlatformF),
            ..GetMarket::new("x")
        }),
        "platform"
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
    let e = GetOrderbook {
        platform: Some(PlatformId::PlatformE),
        ..GetOrderbook::new("x")
    };
    assert_eq!(rejected(&e), "platform");
}

#[test]
fn events() {
    let r = ListEvents {
        limit: Some(26),
        platform: Some(PlatformId::PlatformA),
        ..Default::default()
    };
    assert_eq!(url(&r), "/events?limit=25&platform=platform_a");
    let c = ListEvents {
        platform: Some(PlatformId::PlatformC),
        ..Default::default()
    };
    assert_eq!(rejected(&c), "platform");
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
    let bad = GetLeagueInfo {
        league: Some("league_e".into()),
        ..Default::default()
    };
    assert_eq!(rejected(&bad), "league");
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
    assert_eq!(rejected(&ListGames::new("nfl".into())), "league");
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
        url(&GetGame::new("KCvSF20250209@LGA")),
        "/games/KCvSF20250209%40LGA"
    );
    assert_eq!(url(&GetGame::new("KCvSF20250209")), "/games/KCvSF20250209");
    assert_eq!(rejected(&GetGame::new("KCvSF20250230")), "game_id");
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
    assert_eq!(
        rejected(&GetFuture {
            odds_format: Some("fractional".into()),
            ..GetFuture::new("x")
        }),
        "odds_format"
    );
    assert_eq!(
        rejected(&GetFuture {
            platform: Some(PlatformId::PlatformC),
            ..GetFuture::new("x")
        }),
        "platform"
    );

    let l = ListFutures {
        future_type: Some(FutureType::Division),
        season: Some(2025),
        limit: Some(50),
        offset: Some(25),
        ..ListFutures::new(League::LeagueC)
    };
    assert_eq!(
        url(&l),
        "/list-futures?league=league_c&future_type=division&season=2025&limit=25&offset=25"
    );
    assert_eq!(rejected(&ListFutures::default()), "league");
    assert_eq!(
        rejected(&ListFutures {
            future_type: Some("weekly".into()),
            ..ListFutures::new(League::LeagueA)
        }),
        "future_type"
    );
    assert_eq!(
        rejected(&ListFutures {
            season: Some(25),
            ..ListFutures::new(League::LeagueA)
        }),
        "season"
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
        ..ListAwards::new(League::LeagueC)
    };
    assert_eq!(url(&l), "/list-awards?league=league_c&award_type=mvp");
    let new_kind = ListAwards {
        award_type: Some("sixth_man".into()),
        ..ListAwards::new(League::LeagueC)
    };
    assert_eq!(
        url(&new_kind),
        "/list-awards?league=league_c&award_type=sixth_man"
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
    let bad_interval = GetPriceHistory {
        interval: Some("2h".into()),
        ..GetPriceHistory::new(["a"])
    };
    assert_eq!(rejected(&bad_interval), "interval");
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
        rejected(&GetProfileInfo::new(PlatformId::PlatformC, "x")),
        "platform"
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
