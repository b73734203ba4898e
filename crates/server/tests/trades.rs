//! Trades, price history and profiles, consistent with the markets' prices.

mod common;

use common::{TestServer, enc};
use predmarket_core::models::{
    MarketsResponse, PriceHistoryResponse, ProfileInfoResponse, ProfileTradesResponse,
    TradesResponse,
};
use std::collections::HashSet;

async fn busiest(server: &TestServer, platform: &str) -> predmarket_core::models::Market {
    let list: MarketsResponse = server
        .typed(&format!(
            "/markets?platform={platform}&status=open&sort=volume_total&limit=1"
        ))
        .await;
    list.markets.into_iter().next().expect("a market")
}

#[tokio::test]
async fn trades_page_through_and_agree_with_the_market() {
    let server = TestServer::unlimited().await;
    let market = busiest(&server, "platform_a").await;
    let first: TradesResponse = server
        .typed(&format!("/trades?market_id={}&limit=1000", market.id))
        .await;
    let pagination = first.pagination.clone().unwrap();
    let total = pagination.total.unwrap() as usize;
    assert!(total > 1000, "the busiest market has more than a page");
    assert_eq!(first.trades.len(), 1000);
    // Newest first, and the newest at the market's last price.
    assert!(
        first
            .trades
            .windows(2)
            .all(|w| w[0].timestamp >= w[1].timestamp)
    );
    let newest = &first.trades[0];
    let last = market.current_price("yes").unwrap();
    let expected = if newest.outcome.as_deref() == Some("Yes") {
        last
    } else {
        ((1.0 - last) * 100.0).round() / 100.0
    };
    assert_eq!(newest.price, Some(expected));
    let meta = first.meta.unwrap();
    assert_eq!(meta.market_id.as_deref(), Some(market.id.as_str()));
    assert!(meta.data_freshness.unwrap().ends_with('Z'));
    let (bid, ask) = {
        let md = market.metadata.as_ref().unwrap();
        (md.best_bid.unwrap(), md.best_ask.unwrap())
    };
    // Recent trades sit around the quote.
    for t in first.trades.iter().take(20) {
        let yes_price = if t.outcome.as_deref() == Some("Yes") {
            t.price.unwrap()
        } else {
            1.0 - t.price.unwrap()
        };
        assert!(
            yes_price > bid - 0.2 && yes_price < ask + 0.2,
            "{yes_price}"
        );
        assert!(t.user.as_ref().and_then(|u| u.name.as_ref()).is_some());
    }
    let cursor = pagination.next_cursor.unwrap();
    let second: TradesResponse = server
        .typed(&format!(
            "/trades?market_id={}&limit=1000&cursor={}",
            market.id,
            enc(&cursor)
        ))
        .await;
    let ids: HashSet<String> = first
        .trades
        .iter()
        .chain(&second.trades)
        .map(|t| t.trade_id.clone())
        .collect();
    assert_eq!(ids.len(), first.trades.len() + second.trades.len());
    assert_eq!(first.trades.len() + second.trades.len(), total.min(2000));
    // Capped at 1000.
    let capped = server
        .ok(&format!("/trades?market_id={}&limit=5000", market.id))
        .await;
    assert_eq!(capped["pagination"]["limit"], 1000);
    // The cursor is bound to takerOnly.
    server
        .error(
            &format!(
                "/trades?market_id={}&takerOnly=true&cursor={}",
                market.id,
                enc(&cursor)
            ),
            400,
        )
        .await;
}

#[tokio::test]
async fn taker_only_filters_on_platform_a_only() {
    let server = TestServer::start().await;
    let a = busiest(&server, "platform_a").await;
    let all: TradesResponse = server.typed(&format!("/trades?market_id={}", a.id)).await;
    let takers: TradesResponse = server
        .typed(&format!("/trades?market_id={}&takerOnly=true", a.id))
        .await;
    assert!(takers.trades.iter().all(|t| t.taker == Some(true)));
    assert!(takers.pagination.unwrap().total.unwrap() < all.pagination.unwrap().total.unwrap());
    let b = busiest(&server, "platform_b").await;
    let all_b: TradesResponse = server.typed(&format!("/trades?market_id={}", b.id)).await;
    let takers_b: TradesResponse = server
        .typed(&format!("/trades?market_id={}&takerOnly=true", b.id))
        .await;
    assert_eq!(
        all_b.pagination.unwrap().total,
        takers_b.pagination.unwrap().total
    );
    assert!(all_b.trades.iter().any(|t| t.taker == Some(false)));
    // Other platforms have no trades; market_id is required.
    let c = busiest(&server, "platform_c").await;
    server
        .error(&format!("/trades?market_id={}", c.id), 400)
        .await;
    let body = server.error("/trades", 400).await;
    assert_eq!(body["error"]["details"]["parameter"], "market_id");
    server
        .error(&format!("/trades?market_id={}&takerOnly=yes", a.id), 400)
        .await;
}

#[tokio::test]
async fn price_history_ends_at_the_market_price() {
    let server = TestServer::start().await;
    let a = busiest(&server, "platform_a").await;
    let b = busiest(&server, "platform_b").await;
    let history: PriceHistoryResponse = server
        .typed(&format!(
            "/price-history?market_ids={},{}&interval=1h&limit=48",
            a.id, b.id
        ))
        .await;
    for market in [&a, &b] {
        let points: Vec<_> = history.points_of(&market.id).collect();
        assert_eq!(points.len(), 48, "{}", market.id);
        assert!(
            points
                .windows(2)
                .all(|w| w[1].timestamp.unwrap() - w[0].timestamp.unwrap() == 3600.0)
        );
        let newest = points.last().unwrap();
        assert_eq!(
            newest.price.as_ref().unwrap().close,
            market.current_price("yes")
        );
        let bid_ask = newest.bid_ask.as_ref().unwrap();
        let md = market.metadata.as_ref().unwrap();
        assert_eq!(bid_ask.bid_close(), md.best_bid);
        assert_eq!(bid_ask.ask_close(), md.best_ask);
        for p in &points {
            let bar = p.price.as_ref().unwrap();
            assert!(bar.low.unwrap() <= bar.open.unwrap().min(bar.close.unwrap()));
            assert!(bar.high.unwrap() >= bar.open.unwrap().max(bar.close.unwrap()));
        }
    }
    let meta = history.meta.unwrap();
    assert_eq!(meta.total_points, Some(96.0));
    assert_eq!(meta.platforms.map(|p| p.len()), Some(2));

    // A range, other intervals, and the checks.
    let end = history.data.last().unwrap().timestamp.unwrap() as i64;
    let ranged: PriceHistoryResponse = server
        .typed(&format!(
            "/price-history?market_ids={}&start_ts={}&end_ts={end}&interval=1d",
            a.id,
            end - 5 * 86_400
        ))
        .await;
    assert!(
        (5..=6).contains(&ranged.data.len()),
        "{}",
        ranged.data.len()
    );
    server
        .error(
            &format!("/price-history?market_ids={}&interval=2h", a.id),
            400,
        )
        .await;
    server
        .error(
            &format!("/price-history?market_ids={}&start_ts=10&end_ts=5", a.id),
            400,
        )
        .await;
    let eleven = [a.id.as_str(); 11].join(",");
    server
        .error(&format!("/price-history?market_ids={eleven}"), 400)
        .await;
    server.error("/price-history", 400).await;
    let d = busiest(&server, "platform_d").await;
    server
        .error(&format!("/price-history?market_ids={}", enc(&d.id)), 400)
        .await;
}

#[tokio::test]
async fn profiles_and_their_trades() {
    let server = TestServer::unlimited().await;
    let market = busiest(&server, "platform_a").await;
    let trades: TradesResponse = server
        .typed(&format!("/trades?market_id={}&limit=5", market.id))
        .await;
    let name = trades.trades[0]
        .user
        .as_ref()
        .and_then(|u| u.name.clone())
        .unwrap();
    let info: ProfileInfoResponse = server
        .typed(&format!(
            "/profile/info?platform=platform_a&user={}",
            enc(&name)
        ))
        .await;
    let profile = info.data.profile.unwrap();
    assert_eq!(profile.display_name.as_deref(), Some(name.as_str()));
    let user_id = profile.user_id.unwrap();
    let metrics = info.data.metrics.expect("metrics by default");
    // By id, any case, without metrics.
    let by_id: ProfileInfoResponse = server
        .typed(&format!(
            "/profile/info?platform=platform_a&user={}&include_metrics=false",
            user_id.to_uppercase()
        ))
        .await;
    assert!(by_id.data.metrics.is_none());
    // Trades: all pages, metrics agree with them.
    let mut all = Vec::new();
    let mut path = format!("/profile/trades?platform=platform_a&user={user_id}&limit=100");
    loop {
        let page: ProfileTradesResponse = server.typed(&path).await;
        let pagination = page.data.pagination.clone().unwrap();
        all.extend(page.data.trades);
        match pagination.next_cursor {
            Some(c) => {
                path = format!(
                    "/profile/trades?platform=platform_a&user={user_id}&limit=100&cursor={}",
                    enc(&c)
                )
            }
            None => break,
        }
    }
    assert!(!all.is_empty());
    assert!(all.windows(2).all(|w| w[0].timestamp >= w[1].timestamp));
    let volume: f64 = all.iter().map(|t| t.price.unwrap() * t.size.unwrap()).sum();
    assert!((volume - metrics.volume.unwrap()).abs() < 0.05);
    let markets: HashSet<_> = all.iter().map(|t| t.market_id.clone()).collect();
    assert_eq!(Some(markets.len() as f64), metrics.num_markets_traded);
    let default_page: ProfileTradesResponse = server
        .typed(&format!(
            "/profile/trades?platform=platform_a&user={user_id}&limit=500"
        ))
        .await;
    assert_eq!(default_page.data.pagination.unwrap().limit, Some(100.0));
    // Checks.
    server
        .error(&format!("/profile/info?user={user_id}"), 400)
        .await;
    server.error("/profile/info?platform=platform_a", 400).await;
    server
        .error(
            &format!("/profile/info?platform=platform_c&user={user_id}"),
            400,
        )
        .await;
    server
        .error(
            &format!("/profile/info?platform=platform_b&user={user_id}"),
            404,
        )
        .await;
    let long = "x".repeat(101);
    server
        .error(
            &format!("/profile/info?platform=platform_a&user={long}"),
            400,
        )
        .await;
}
