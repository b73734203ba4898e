//! Leagues, games, futures and awards.

mod common;

use common::{TestServer, enc};
use predmarket_core::models::{
    AwardResponse, FutureResponse, Game, GameMarket, GameMarketType, LeagueInfoData,
    LeagueInfoResponse, ListAwardsResponse, ListFuturesResponse, ListGamesResponse, Odds,
};
use predmarket_core::odds::{american_to_decimal, find_arbitrage, future_quotes};
use std::collections::HashSet;

fn assert_odds_agree(odds: &Odds) {
    let american = odds.american.as_deref().expect("american");
    let decimal = odds.decimal.expect("decimal");
    let p = odds.implied_probability.expect("implied_probability");
    let from_american = american_to_decimal(american).expect("valid american odds");
    assert!((from_american - decimal).abs() < 1e-3, "{odds:?}");
    assert!((1.0 / decimal - p).abs() < 1e-3, "{odds:?}");
    assert!(p > 0.0 && p < 1.0, "{odds:?}");
}

#[tokio::test]
async fn league_info_with_and_without_teams() {
    let server = TestServer::start().await;
    let all: LeagueInfoResponse = server.typed("/league-info").await;
    let LeagueInfoData::Many(leagues) = all.data else {
        panic!("all leagues come as an array");
    };
    let ids: Vec<&str> = leagues.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["league_a", "league_b", "league_c", "league_d"]);
    assert!(leagues.iter().all(|l| l.teams.is_none()));
    let one: LeagueInfoResponse = server
        .typed("/league-info?league=league_c&include_teams=true")
        .await;
    let league = &one.data.leagues()[0];
    assert_eq!(league.id, "league_c");
    let teams = league.teams.as_ref().expect("teams");
    assert_eq!(
        league.counts.as_ref().and_then(|c| c.teams),
        Some(teams.len() as f64)
    );
    for team in teams {
        assert!(
            team.service_id.starts_with("league_c_"),
            "{}",
            team.service_id
        );
        let ids = team.platform_ids.as_ref().unwrap();
        for p in [
            "platform_a",
            "platform_b",
            "platform_f",
            "platform_g",
            "platform_h",
        ] {
            assert!(ids.contains_key(p), "{} lacks {p}", team.service_id);
        }
    }
    let futures: ListFuturesResponse = server.typed("/list-futures?league=league_c&limit=25").await;
    assert_eq!(
        league.counts.as_ref().and_then(|c| c.futures),
        futures.data.pagination.and_then(|p| p.total)
    );
    server.error("/league-info?league=league_z", 400).await;
    server
        .error("/league-info?league=league_a&include_teams=sure", 400)
        .await;
}

#[tokio::test]
async fn list_games_filters_and_pages() {
    let server = TestServer::unlimited().await;
    let mut seen = HashSet::new();
    let mut path = "/list-games?league=league_b&limit=25".to_owned();
    let total = loop {
        let page: ListGamesResponse = server.typed(&path).await;
        for g in &page.data.games {
            assert!(g.id.ends_with("@NBA"), "{}", g.id);
            assert!(seen.insert(g.id.clone()));
        }
        let meta = page.meta.unwrap();
        assert_eq!(meta.platforms_queried.map(|p| p.len()), Some(5));
        let pagination = page.data.pagination.unwrap();
        match pagination.next_cursor {
            Some(c) => path = format!("/list-games?league=league_b&limit=25&cursor={}", enc(&c)),
            None => break pagination.total.unwrap() as usize,
        }
    };
    assert_eq!(seen.len(), total);
    let upcoming: ListGamesResponse = server
        .typed("/list-games?league=league_a&status=not_started&limit=25")
        .await;
    assert!(!upcoming.data.games.is_empty());
    assert!(
        upcoming
            .data
            .games
            .iter()
            .all(|g| g.status.as_ref().map(|s| s.as_str()) == Some("not_started"))
    );
    let finished: ListGamesResponse = server
        .typed("/list-games?league=league_d&status=final&limit=5")
        .await;
    assert!(!finished.data.games.is_empty());
    let one_day: ListGamesResponse = server
        .typed("/list-games?league=league_c&from=2025-11-03&to=2025-11-03")
        .await;
    assert!(!one_day.data.games.is_empty());
    assert!(one_day.data.games.iter().all(|g| g.id.contains("20251103")));
    server.error("/list-games", 400).await;
    server
        .error("/list-games?league=league_a&from=2025-13-01", 400)
        .await;
    server
        .error(
            "/list-games?league=league_a&from=2025-11-05&to=2025-11-01",
            400,
        )
        .await;
    server
        .error("/list-games?league=league_a&status=soon", 400)
        .await;
}

/// `GET /games/{id}`: `{data: Game with its markets, meta}`
/// (docs/spec/where-the-spec-is-silent.md).
#[derive(serde::Deserialize)]
struct GameAnswer {
    data: GameWithMarkets,
}

#[derive(serde::Deserialize)]
struct GameWithMarkets {
    #[serde(flatten)]
    game: Game,
    markets: Vec<GameMarket>,
}

impl GameWithMarkets {
    fn count_of(&self, kind: &GameMarketType) -> usize {
        self.markets
            .iter()
            .flat_map(|m| m.outcomes())
            .filter(|o| o.kind().as_ref() == Some(kind))
            .count()
    }
}

#[tokio::test]
async fn a_game_by_id_with_and_without_league_suffix() {
    let server = TestServer::start().await;
    let list: ListGamesResponse = server
        .typed("/list-games?league=league_a&status=not_started&limit=1")
        .await;
    let id = list.data.games[0].id.clone();
    let game: GameAnswer = server.typed(&format!("/games/{}", enc(&id))).await;
    assert_eq!(game.data.game.id, id);
    let raw = server.ok(&format!("/games/{}", enc(&id))).await;
    assert!(raw["data"]["markets"].is_array() && raw["data"].get("game").is_none());
    // The public service's 2.0.0 shape: one entry per platform event,
    // the kind on each outcome.
    assert_eq!(
        game.data.markets.len(),
        5,
        "one event on each of 5 platforms"
    );
    assert!(raw["data"]["markets"][0].get("market_type").is_none());
    for kind in [
        GameMarketType::Moneyline,
        GameMarketType::Spread,
        GameMarketType::Total,
    ] {
        assert_eq!(game.data.count_of(&kind), 10, "two sides on 5 platforms");
    }
    for market in &game.data.markets {
        assert!(market.event_name.is_some() && market.event_id.is_some());
        assert!(market.volume().is_some_and(|v| v > 0.0));
        assert!(market.liquidity().is_some_and(|v| v > 0.0));
        for outcome in market.outcomes() {
            let price = outcome.price.unwrap();
            assert!(price > 0.0 && price < 1.0);
            assert!(outcome.label().is_some());
            let book = outcome.order_book.as_ref().expect("an open game has books");
            let yes = predmarket_core::orderbook::Book::new(&book.yes_side());
            assert!(yes.best_bid().unwrap().price < price);
            assert!(yes.best_ask().unwrap().price > price);
        }
    }
    // The odds boards built from it: one per kind, every platform on each
    // side, no-vig probabilities summing to 1.
    let boards = predmarket_core::odds::game_boards(&game.data.markets);
    assert_eq!(boards.len(), 3, "{boards:#?}");
    for board in &boards {
        assert_eq!(board.rows.len(), 2);
        assert!(board.rows.iter().all(|r| r.cells.len() == 5));
        let fair: f64 = board.rows.iter().filter_map(|r| r.fair).sum();
        assert!((fair - 1.0).abs() < 1e-9);
    }
    let (base, _) = id.split_once('@').unwrap();
    let old: GameAnswer = server.typed(&format!("/games/{base}")).await;
    assert_eq!(old.data.game.id, id);
    let label: GameAnswer = server
        .typed(&format!("/games/{}", enc(&format!("{base}@league_a"))))
        .await;
    assert_eq!(label.data.game.id, id);
    let one_platform: GameAnswer = server
        .typed(&format!("/games/{}?platform=platform_g", enc(&id)))
        .await;
    assert_eq!(one_platform.data.markets.len(), 1);
    server.error("/games/not-a-game-id", 400).await;
    server
        .error(&format!("/games/{}", enc(&format!("{base}@NHL"))), 404)
        .await;
}

#[tokio::test]
async fn futures_odds_agree_across_formats_and_differ_between_platforms() {
    let server = TestServer::start().await;
    let list: ListFuturesResponse = server.typed("/list-futures?league=league_a&limit=25").await;
    let futures = list.data.futures;
    assert!(futures.len() >= 3);
    let championship = futures
        .iter()
        .find(|f| f.future_type.as_ref().map(|t| t.as_str()) == Some("championship"))
        .expect("a championship future");
    let markets = championship.markets.as_ref().unwrap();
    assert_eq!(markets.len(), 5);
    for market in markets {
        for outcome in market.outcomes.as_ref().unwrap() {
            assert_odds_agree(outcome.odds.as_ref().unwrap());
        }
    }
    let first_team_prices: HashSet<String> = markets
        .iter()
        .map(|m| {
            m.outcomes.as_ref().unwrap()[0]
                .odds
                .as_ref()
                .unwrap()
                .american
                .clone()
                .unwrap()
        })
        .collect();
    assert!(first_team_prices.len() > 1, "platforms price differently");

    let id = &championship.id;
    let by_id: FutureResponse = server.typed(&format!("/futures/{id}")).await;
    assert_eq!(&by_id.data.id, id);
    for (format, field) in [
        ("american", "american"),
        ("decimal", "decimal"),
        ("probability", "implied_probability"),
    ] {
        let body = server
            .ok(&format!(
                "/futures/{id}?odds_format={format}&platform=platform_f"
            ))
            .await;
        let markets = body["data"]["markets"].as_array().unwrap();
        assert_eq!(markets.len(), 1);
        assert_eq!(markets[0]["platform"], "platform_f");
        let odds = markets[0]["outcomes"][0]["odds"].as_object().unwrap();
        assert_eq!(odds.keys().collect::<Vec<_>>(), [field], "{format}");
    }
    server
        .error(&format!("/futures/{id}?odds_format=fractional"), 400)
        .await;
    server
        .error(&format!("/futures/{id}?platform=platform_c"), 400)
        .await;
    server
        .error("/list-futures?league=league_a&future_type=weekly", 400)
        .await;
    server.error("/list-futures", 400).await;
}

#[tokio::test]
async fn one_future_holds_a_real_cross_platform_arbitrage() {
    let server = TestServer::start().await;
    let mut found = Vec::new();
    for league in ["league_a", "league_b", "league_c", "league_d"] {
        let list: ListFuturesResponse = server
            .typed(&format!("/list-futures?league={league}&limit=25"))
            .await;
        for future in &list.data.futures {
            if let Some(arb) = find_arbitrage(&future_quotes(future), 100.0) {
                assert!(arb.implied_sum < 1.0);
                assert!(arb.guaranteed_profit > 0.0);
                let platforms: HashSet<_> =
                    arb.legs.iter().map(|l| l.quote.platform.clone()).collect();
                assert!(platforms.len() > 1, "the legs span platforms");
                found.push(future.id.clone());
            }
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("league_b_"), "{found:?}");
}

#[tokio::test]
async fn list_pages_by_offset_and_awards() {
    let server = TestServer::start().await;
    let first: ListFuturesResponse = server.typed("/list-futures?league=league_a&limit=4").await;
    let p = first.data.pagination.clone().unwrap();
    assert_eq!(
        (p.offset, p.limit, p.has_more),
        (Some(0.0), Some(4.0), Some(true))
    );
    assert_eq!(p.next_offset, Some(4.0));
    let second: ListFuturesResponse = server
        .typed("/list-futures?league=league_a&limit=4&offset=4")
        .await;
    assert_ne!(first.data.futures[0].id, second.data.futures[0].id);
    let past_end: ListFuturesResponse = server
        .typed("/list-futures?league=league_a&offset=1000")
        .await;
    assert!(past_end.data.futures.is_empty());
    assert_eq!(past_end.data.pagination.unwrap().next_offset, None);
    server
        .error("/list-futures?league=league_a&offset=-1", 400)
        .await;
    let division: ListFuturesResponse = server
        .typed("/list-futures?league=league_a&future_type=division")
        .await;
    assert!(
        division
            .data
            .futures
            .iter()
            .all(|f| f.future_type.as_ref().map(|t| t.as_str()) == Some("division"))
    );

    let awards: ListAwardsResponse = server.typed("/list-awards?league=league_b").await;
    assert!(!awards.data.awards.is_empty());
    let mvp = awards
        .data
        .awards
        .iter()
        .find(|a| a.award_type.as_ref().map(|t| t.as_str()) == Some("mvp"))
        .expect("an MVP award");
    let one: AwardResponse = server.typed(&format!("/awards/{}", mvp.id)).await;
    for market in one.data.markets.as_ref().unwrap() {
        for c in market.candidates.as_ref().unwrap() {
            assert_odds_agree(c.odds.as_ref().unwrap());
            assert!(c.player_name.is_some());
        }
    }
    let season = one.data.season.unwrap();
    let filtered: ListAwardsResponse = server
        .typed(&format!(
            "/list-awards?league=league_b&award_type=mvp&season={season}"
        ))
        .await;
    assert_eq!(filtered.data.awards.len(), 1);
    let none: ListAwardsResponse = server
        .typed("/list-awards?league=league_b&season=1999")
        .await;
    assert!(none.data.awards.is_empty());
    server
        .error(&format!("/awards/{}?odds_format=fractional", mvp.id), 400)
        .await;
}
