//! Markets, orderbooks and the list rules (pagination, cursors, limits,
//! platforms) over real HTTP.

mod common;

use common::{TestServer, enc, unlimited};
use predmarket_core::models::{MarketsResponse, OrderbookResponse};
use predmarket_core::orderbook::Book;
use predmarket_server::data::Dataset;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;

#[tokio::test]
async fn walking_all_pages_of_10000_markets_yields_each_exactly_once() {
    let mut config = unlimited();
    config.scale = 2.0;
    let data = Arc::new(Dataset::generate(&config.data_options()));
    let server = TestServer::with_data(config, data).await;
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    let mut total = None;
    loop {
        let path = match &cursor {
            None => "/markets?limit=250".to_owned(),
            Some(c) => format!("/markets?limit=250&cursor={}", enc(c)),
        };
        let page: MarketsResponse = server.typed(&path).await;
        pages += 1;
        let pagination = page.pagination.expect("pagination");
        total.get_or_insert(pagination.total.expect("total"));
        assert_eq!(pagination.limit, Some(250.0));
        for market in &page.markets {
            assert!(seen.insert(market.id.clone()), "{} twice", market.id);
        }
        match (pagination.has_more, pagination.next_cursor) {
            (Some(true), Some(next)) => cursor = Some(next),
            (Some(false), None) => break,
            other => panic!("inconsistent pagination {other:?}"),
        }
        assert!(pages < 100, "runaway pagination");
    }
    assert!(seen.len() >= 10_000, "{}", seen.len());
    assert_eq!(Some(seen.len() as f64), total);
    assert_eq!(pages, seen.len().div_ceil(250));
}

#[tokio::test]
async fn filtered_walk_with_small_pages_matches_the_total() {
    let server = TestServer::unlimited().await;
    let mut seen = HashSet::new();
    let mut path =
        "/markets?platform=platform_c&status=open&limit=100&sort=liquidity&order=asc".to_owned();
    let mut last_liquidity = f64::MIN;
    let total = loop {
        let body = server.ok(&path).await;
        for m in body["markets"].as_array().unwrap() {
            assert_eq!(m["platform"], "platform_c");
            assert_eq!(m["status"], "open");
            let liquidity = m["liquidity"].as_f64().unwrap();
            assert!(liquidity >= last_liquidity, "ascending liquidity");
            last_liquidity = liquidity;
            assert!(seen.insert(m["id"].as_str().unwrap().to_owned()));
        }
        match body["pagination"]["next_cursor"].as_str() {
            Some(c) => {
                path = format!(
                    "/markets?platform=platform_c&status=open&limit=100&sort=liquidity&order=asc&cursor={}",
                    enc(c)
                )
            }
            None => break body["pagination"]["total"].as_u64().unwrap(),
        }
    };
    assert_eq!(seen.len() as u64, total);
    assert!(total > 100);
}

#[tokio::test]
async fn a_cursor_is_bound_to_its_filters_and_operation() {
    let server = TestServer::start().await;
    let first = server.ok("/markets?platform=platform_a&limit=5").await;
    let cursor = first["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    // Same filters, another page size: fine.
    server
        .ok(&format!(
            "/markets?platform=platform_a&limit=7&cursor={}",
            enc(&cursor)
        ))
        .await;
    for (path, reason) in [
        (
            format!(
                "/markets?platform=platform_b&limit=5&cursor={}",
                enc(&cursor)
            ),
            "filters_changed",
        ),
        (
            format!("/markets?limit=5&cursor={}", enc(&cursor)),
            "filters_changed",
        ),
        (
            format!(
                "/markets?platform=platform_a&status=open&limit=5&cursor={}",
                enc(&cursor)
            ),
            "filters_changed",
        ),
        (
            format!("/events?platform=platform_a&cursor={}", enc(&cursor)),
            "other_operation",
        ),
    ] {
        let body = server.error(&path, 400).await;
        assert_eq!(body["error"]["code"], "INVALID_CURSOR", "{path}");
        assert_eq!(body["error"]["details"]["reason"], reason, "{path}");
    }
}

#[tokio::test]
async fn tampered_and_foreign_cursors_are_refused() {
    let server = TestServer::start().await;
    let first = server.ok("/markets?limit=5").await;
    let cursor = first["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut bytes = cursor.clone().into_bytes();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    // A cursor of another server run (another secret).
    let other = TestServer::start().await;
    let foreign = other.ok("/markets?limit=5").await["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    for (c, reason) in [
        (tampered.as_str(), "tampered"),
        (foreign.as_str(), "tampered"),
        ("not-a-cursor", "malformed"),
        ("%%%", "malformed"),
    ] {
        let body = server
            .error(&format!("/markets?limit=5&cursor={}", enc(c)), 400)
            .await;
        assert_eq!(body["error"]["code"], "INVALID_CURSOR");
        assert_eq!(body["error"]["details"]["reason"], reason, "{c}");
    }
}

#[tokio::test]
async fn an_expired_cursor_is_refused() {
    let mut config = common::config();
    config.cursor_ttl_secs = 1;
    let server = TestServer::with(config).await;
    let cursor = server.ok("/markets?limit=5").await["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    // Asked until the server's clock has moved past the cursor's second
    // and its lifetime; each time with another limit (not part of the
    // cursor's scope), so that no cache in front answers from before.
    let asked = std::time::Instant::now();
    let mut limit = 1;
    let body = loop {
        let (status, body) = server
            .json(&format!("/markets?limit={limit}&cursor={}", enc(&cursor)))
            .await;
        if status != 200 {
            assert_eq!(status, 400, "{body}");
            break body;
        }
        assert!(
            asked.elapsed() < std::time::Duration::from_secs(60),
            "a cursor of a 1 s lifetime still accepted after a minute"
        );
        limit = limit % 250 + 1;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(body["error"]["code"], "INVALID_CURSOR");
    assert_eq!(body["error"]["details"]["reason"], "expired");
}

#[tokio::test]
async fn limits_are_capped_and_bad_limits_refused() {
    let server = TestServer::start().await;
    let body = server.ok("/markets?limit=100000").await;
    assert_eq!(body["pagination"]["limit"], 250);
    assert_eq!(body["markets"].as_array().unwrap().len(), 250);
    let body = server.ok("/markets").await;
    assert_eq!(body["pagination"]["limit"], 25);
    assert_eq!(
        server.ok("/events?limit=500").await["pagination"]["limit"],
        25
    );
    assert_eq!(
        server.ok("/series?limit=500").await["pagination"]["limit"],
        25
    );
    for bad in ["0", "-1", "abc", "", "2.5", "1e3"] {
        let body = server.error(&format!("/markets?limit={bad}"), 400).await;
        assert_eq!(body["error"]["code"], "VALIDATION_ERROR", "{bad}");
        assert_eq!(body["error"]["details"]["parameter"], "limit", "{bad}");
    }
    let body = server.error("/trades?market_id=500001&limit=0", 400).await;
    assert_eq!(body["error"]["details"]["parameter"], "limit");
}

#[tokio::test]
async fn platform_takes_exactly_one_value() {
    let server = TestServer::start().await;
    for path in [
        "/markets?platform=platform_a,platform_b",
        "/markets?platform=platform_a%2Cplatform_b",
        "/events?platform=platform_a,platform_b",
        "/series?platform=platform_a,platform_b",
        "/markets?platform=platform_a&platform=platform_b",
        "/markets?platform=platform_z",
        "/series?platform=platform_c",
    ] {
        let body = server.error(path, 400).await;
        assert_eq!(body["error"]["code"], "VALIDATION_ERROR", "{path}");
        assert_eq!(body["error"]["details"]["parameter"], "platform", "{path}");
    }
}

#[tokio::test]
async fn unknown_ids_are_404() {
    let server = TestServer::start().await;
    for path in [
        "/markets/999999999",
        "/markets/nope/orderbook",
        "/events/nope",
        "/series/nope",
        "/futures/nope",
        "/awards/nope",
        "/games/XXvYY20250101@NFL",
        "/trades?market_id=nope",
        "/price-history?market_ids=nope",
        "/profile/info?platform=platform_a&user=nobody-at-all",
    ] {
        let body = server.error(path, 404).await;
        assert_eq!(body["error"]["code"], "NOT_FOUND", "{path}");
    }
}

#[tokio::test]
async fn platform_b_serves_no_mve_market() {
    let server = TestServer::unlimited().await;
    let mve = server.data.mve_market_ids();
    assert!(!mve.is_empty(), "the data has MVE markets to exclude");
    for id in &mve {
        server.error(&format!("/markets/{}", enc(id)), 404).await;
    }
    let mut cursor: Option<String> = None;
    let mut count = 0;
    loop {
        let path = match &cursor {
            None => "/markets?platform=platform_b&limit=250".to_owned(),
            Some(c) => format!("/markets?platform=platform_b&limit=250&cursor={}", enc(c)),
        };
        let body = server.ok(&path).await;
        for m in body["markets"].as_array().unwrap() {
            let id = m["id"].as_str().unwrap();
            assert!(!id.starts_with("KXMVE"), "{id}");
            assert_ne!(m["metadata"]["marketType"], "multivariate");
            count += 1;
        }
        match body["pagination"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert!(count > 0);
    let search = server.ok("/markets?query=yes&platform=platform_b").await;
    assert!(
        search["markets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| !m["id"].as_str().unwrap().starts_with("KXMVE"))
    );
}

#[tokio::test]
async fn orderbooks_are_never_crossed_and_agree_with_the_market() {
    let server = TestServer::unlimited().await;
    let mut checked = 0;
    for platform in ["platform_a", "platform_b", "platform_c", "platform_d"] {
        let list: MarketsResponse = server
            .typed(&format!(
                "/markets?platform={platform}&status=open&limit=15"
            ))
            .await;
        for market in list.markets {
            let meta = market.metadata.clone().expect("metadata");
            // Without `platform`: detected from the id.
            let book: OrderbookResponse = server
                .typed(&format!("/markets/{}/orderbook", enc(&market.id)))
                .await;
            let data = book.data;
            assert_eq!(data.platform.as_ref().map(|p| p.as_str()), Some(platform));
            let yes = Book::new(data.yes.as_ref().expect("yes side"));
            let no = Book::new(data.no.as_ref().expect("no side"));
            assert!(!yes.is_crossed() && !no.is_crossed(), "{}", market.id);
            let bid = yes.best_bid().expect("bid").price;
            let ask = yes.best_ask().expect("ask").price;
            assert_eq!(Some(bid), meta.best_bid, "{}", market.id);
            assert_eq!(Some(ask), meta.best_ask, "{}", market.id);
            assert!(bid < ask);
            // No mirrors yes.
            let no_bid = no.best_bid().expect("no bid").price;
            assert!((no_bid - (1.0 - ask)).abs() < 1e-9, "{}", market.id);
            let price = market.current_price("yes").expect("yes price");
            assert!(bid <= price && price <= ask, "{}: {price}", market.id);
            checked += 1;
        }
    }
    assert!(checked >= 40);
}

#[tokio::test]
async fn orderbook_platform_detection_and_rules() {
    let server = TestServer::start().await;
    let d = server.ok("/markets?platform=platform_d&limit=1").await;
    let id = d["markets"][0]["id"].as_str().unwrap().to_owned();
    let book = server
        .ok(&format!(
            "/markets/{id}/orderbook?platform=platform_d&include_raw=true"
        ))
        .await;
    assert_eq!(book["data"]["platform"], "platform_d");
    assert!(book["data"]["metadata"]["_raw"].is_object());
    server
        .error(&format!("/markets/{id}/orderbook?platform=platform_a"), 404)
        .await;
    server
        .error(&format!("/markets/{id}/orderbook?platform=platform_e"), 400)
        .await;
    let e = server.ok("/markets?platform=platform_e&limit=1").await;
    let id = e["markets"][0]["id"].as_str().unwrap().to_owned();
    server.error(&format!("/markets/{id}/orderbook"), 400).await;
    // A resolved market has an empty book.
    let resolved = server
        .ok("/markets?platform=platform_a&status=resolved&limit=1")
        .await;
    let id = resolved["markets"][0]["id"].as_str().unwrap().to_owned();
    let book = server.ok(&format!("/markets/{id}/orderbook")).await;
    assert_eq!(book["data"]["yes"]["bids"], Value::Array(vec![]));
}

#[tokio::test]
async fn market_by_id_and_filters() {
    let server = TestServer::start().await;
    let list = server.ok("/markets?platform=platform_b&limit=3").await;
    let id = list["markets"][0]["id"].as_str().unwrap().to_owned();
    let one: MarketsResponse = server.typed(&format!("/markets/{id}")).await;
    assert_eq!(one.markets.len(), 1);
    assert_eq!(one.markets[0].id, id);
    let pagination = one.pagination.unwrap();
    assert_eq!(pagination.has_more, Some(false));
    assert_eq!(pagination.next_cursor, None);
    server
        .ok(&format!("/markets/{id}?platform=platform_b"))
        .await;
    server
        .error(&format!("/markets/{id}?platform=platform_a"), 404)
        .await;
    let raw = server.ok(&format!("/markets/{id}?include_raw=true")).await;
    assert_eq!(raw["markets"][0]["metadata"]["_raw"]["ticker"], id.as_str());
    server
        .error(&format!("/markets/{id}?include_raw=maybe"), 400)
        .await;

    // Filters: status, category, event, series, query, sort.
    for status in ["open", "closed", "resolved"] {
        let body = server
            .ok(&format!("/markets?status={status}&limit=50"))
            .await;
        assert!(
            body["markets"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["status"] == status)
        );
        assert!(
            body["pagination"]["total"].as_u64().unwrap() > 0,
            "{status}"
        );
    }
    assert_eq!(
        server.ok("/markets?status=suspended").await["pagination"]["total"],
        0
    );
    server.error("/markets?status=open,closed", 400).await;
    let crypto = server.ok("/markets?category=crypto&limit=50").await;
    assert!(
        crypto["markets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["category"] == "Crypto")
    );
    let event_id = list["markets"][0]["event_id"].as_str().unwrap();
    let by_event = server
        .ok(&format!("/markets?event_id={}", enc(event_id)))
        .await;
    let event = server.ok(&format!("/events/{}", enc(event_id))).await;
    assert_eq!(
        by_event["pagination"]["total"],
        event["events"][0]["market_count"]
    );
    let series_id = list["markets"][0]["series_id"].as_str().unwrap();
    let by_series = server
        .ok(&format!("/markets?series_id={}&limit=250", enc(series_id)))
        .await;
    assert!(
        by_series["markets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["series_id"] == series_id)
    );
    let found = server.ok("/markets?query=BITCOIN%20above").await;
    for m in found["markets"].as_array().unwrap() {
        let title = m["title"].as_str().unwrap().to_lowercase();
        assert!(
            title.contains("bitcoin") && title.contains("above"),
            "{title}"
        );
    }
    assert!(found["pagination"]["total"].as_u64().unwrap() > 0);
    let by_volume = server.ok("/markets?sort=volume_total&limit=50").await;
    let volumes: Vec<f64> = by_volume["markets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["volume_total"].as_f64().unwrap())
        .collect();
    assert!(volumes.windows(2).all(|w| w[0] >= w[1]));
    server.error("/markets?sort=popularity", 400).await;
    server.error("/markets?order=sideways", 400).await;
    let meta = &by_volume["meta"];
    assert!(meta["request_time"].is_number());
    assert_eq!(meta["cache_hit"], false);
    assert!(meta["data_freshness"].is_string());
}

#[tokio::test]
async fn search_results_are_complete_and_sorted() {
    let server = TestServer::unlimited().await;
    let expected = server
        .data
        .catalog
        .markets
        .iter()
        .filter(|m| !m.mve && m.title.to_lowercase().contains("above"))
        .count();
    for order in ["desc", "asc"] {
        let mut seen = HashSet::new();
        let mut volumes = Vec::new();
        let base = format!("/markets?query=ABOVE&sort=volume_7d&order={order}&limit=250");
        let mut path = base.clone();
        loop {
            let body = server.ok(&path).await;
            for m in body["markets"].as_array().unwrap() {
                assert!(
                    m["title"]
                        .as_str()
                        .unwrap()
                        .to_lowercase()
                        .contains("above")
                );
                assert!(seen.insert(m["id"].as_str().unwrap().to_owned()));
                volumes.push(m["volume_7d"].as_f64().unwrap());
            }
            match body["pagination"]["next_cursor"].as_str() {
                Some(c) => path = format!("{base}&cursor={}", enc(c)),
                None => break,
            }
        }
        assert_eq!(seen.len(), expected, "{order}");
        let sorted = volumes.windows(2).all(|w| {
            if order == "desc" {
                w[0] >= w[1]
            } else {
                w[0] <= w[1]
            }
        });
        assert!(sorted, "{order}");
    }
}

/// A page asked by `offset` (as the public service's older pages page) is
/// the page a cursor walk reaches there; past the end it is empty; a
/// cursor wins over an offset.
#[tokio::test]
async fn an_offset_starts_the_page_where_a_cursor_would() {
    let server = TestServer::start().await;
    let first = server.ok("/markets?limit=5").await;
    let cursor = first["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let by_cursor = server
        .ok(&format!("/markets?limit=5&cursor={}", enc(&cursor)))
        .await;
    let by_offset = server.ok("/markets?limit=5&offset=5").await;
    let ids = |body: &serde_json::Value| -> Vec<String> {
        body["markets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&by_offset).len(), 5);
    assert_eq!(ids(&by_offset), ids(&by_cursor));
    assert_ne!(ids(&by_offset), ids(&first));
    let past = server.ok("/markets?limit=5&offset=99999999").await;
    assert!(ids(&past).is_empty());
    assert_eq!(past["pagination"]["has_more"], false);
    let both = server
        .ok(&format!(
            "/markets?limit=5&offset=40&cursor={}",
            enc(&cursor)
        ))
        .await;
    assert_eq!(ids(&both), ids(&by_cursor));
    server.error("/markets?offset=-1", 400).await;
}
