//! Events and series: lists, by id, nesting, search mode, counts.

mod common;

use common::{TestServer, enc};
use predmarket_core::models::{EventsResponse, SeriesResponse};
use std::collections::HashSet;

#[tokio::test]
async fn events_list_nest_their_markets_and_counts_match() {
    let server = TestServer::start().await;
    let body: EventsResponse = server
        .typed("/events?platform=platform_b&include_nested=true&limit=10")
        .await;
    assert_eq!(body.events.len(), 10);
    for event in &body.events {
        assert_eq!(
            event.platform.as_ref().map(|p| p.as_str()),
            Some("platform_b")
        );
        let markets = event.markets.as_ref().expect("nested markets");
        assert_eq!(
            Some(markets.len() as f64),
            event.market_count,
            "{}",
            event.id
        );
        let volume: f64 = markets.iter().filter_map(|m| m.volume_total).sum();
        let total = event.total_volume.unwrap_or(0.0);
        assert!(
            (volume - total).abs() < 0.05,
            "{}: {volume} vs {total}",
            event.id
        );
        assert!(
            markets
                .iter()
                .all(|m| m.event_id.as_deref() == Some(&event.id))
        );
    }
    let plain = server.ok("/events?limit=3").await;
    assert!(plain["events"][0].get("markets").is_none());
    let meta = plain["meta"]["platforms_queried"].clone();
    assert_eq!(meta, serde_json::json!(["platform_a", "platform_b"]));
}

#[tokio::test]
async fn event_by_id_with_and_without_nesting() {
    let server = TestServer::start().await;
    let list = server.ok("/events?platform=platform_a&limit=1").await;
    let id = list["events"][0]["id"].as_str().unwrap().to_owned();
    let one: EventsResponse = server.typed(&format!("/events/{id}")).await;
    assert_eq!(one.events.len(), 1);
    assert!(one.events[0].markets.is_none());
    let nested: EventsResponse = server
        .typed(&format!(
            "/events/{id}?include_nested=true&include_raw=true"
        ))
        .await;
    let markets = nested.events[0].markets.as_ref().unwrap();
    assert!(!markets.is_empty());
    assert!(markets.iter().all(|m| {
        m.metadata
            .as_ref()
            .is_some_and(|md| md.extra.contains_key("_raw"))
    }));
    server
        .error(&format!("/events/{id}?platform=platform_b"), 404)
        .await;
    server
        .error(&format!("/events/{id}?include_nested=1"), 400)
        .await;
}

#[tokio::test]
async fn events_filter_by_series_and_query() {
    let server = TestServer::start().await;
    let series = server.ok("/series?platform=platform_a&limit=25").await;
    let target = series["series"]
        .as_array()
        .unwrap()
        .iter()
        .max_by_key(|s| s["event_count"].as_u64().unwrap())
        .unwrap()
        .clone();
    let id = target["id"].as_str().unwrap();
    let events = server
        .ok(&format!("/events?series_id={}&limit=25", enc(id)))
        .await;
    assert_eq!(events["pagination"]["total"], target["event_count"]);
    assert!(
        events["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["series_id"] == id)
    );
    let found = server.ok("/events?query=fed%20decision").await;
    for e in found["events"].as_array().unwrap() {
        assert!(
            e["title"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("fed decision")
        );
    }
}

#[tokio::test]
async fn series_counts_match_their_children_and_nest_events() {
    let server = TestServer::unlimited().await;
    let body: SeriesResponse = server.typed("/series?include_nested=true&limit=25").await;
    assert_eq!(body.series.len(), 25);
    for s in &body.series {
        let events = s.events.as_ref().expect("nested events");
        assert_eq!(Some(events.len() as f64), s.event_count, "{}", s.id);
        let markets: f64 = events.iter().filter_map(|e| e.market_count).sum();
        assert_eq!(Some(markets), s.market_count, "{}", s.id);
        let by_series = server
            .ok(&format!("/markets?series_id={}&limit=1", enc(&s.id)))
            .await;
        assert_eq!(by_series["pagination"]["total"].as_f64(), s.market_count);
    }
    assert_eq!(
        body.meta.and_then(|m| m.platforms_queried).map(|p| p.len()),
        Some(2)
    );
}

#[tokio::test]
async fn series_search_mode_and_walk() {
    let server = TestServer::unlimited().await;
    let found = server.ok("/series?query=inflation").await;
    let total = found["pagination"]["total"].as_u64().unwrap();
    assert!(total > 0);
    for s in found["series"].as_array().unwrap() {
        let text = s.to_string().to_lowercase();
        assert!(text.contains("inflation") || text.contains("cpi"), "{text}");
    }
    // A query that only an event title matches still finds its series.
    let event = server.ok("/events?query=opening%20weekend&limit=1").await;
    let title = event["events"][0]["title"].as_str().unwrap();
    let series_id = event["events"][0]["series_id"].as_str().unwrap();
    let by_event_title = server.ok(&format!("/series?query={}", enc(title))).await;
    assert!(
        by_event_title["series"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == series_id)
    );
    // Every series once.
    let mut seen = HashSet::new();
    let mut path = "/series?limit=25".to_owned();
    let total = loop {
        let body = server.ok(&path).await;
        for s in body["series"].as_array().unwrap() {
            assert!(seen.insert(s["id"].as_str().unwrap().to_owned()));
        }
        match body["pagination"]["next_cursor"].as_str() {
            Some(c) => path = format!("/series?limit=25&cursor={}", enc(c)),
            None => break body["pagination"]["total"].as_u64().unwrap(),
        }
    };
    assert_eq!(seen.len() as u64, total);
}

#[tokio::test]
async fn series_by_id() {
    let server = TestServer::start().await;
    let list = server.ok("/series?platform=platform_b&limit=1").await;
    let id = list["series"][0]["id"].as_str().unwrap().to_owned();
    let one: SeriesResponse = server
        .typed(&format!("/series/{id}?include_nested=true"))
        .await;
    assert_eq!(one.series[0].id, id);
    assert!(one.series[0].events.is_some());
    server
        .error(&format!("/series/{id}?platform=platform_a"), 404)
        .await;
}

#[tokio::test]
async fn events_filter_by_category_and_the_document_names_it() {
    let server = TestServer::start().await;
    // An event has no category field of its own; its markets carry it.
    let category_of = |event: &serde_json::Value| event["markets"][0]["category"].clone();
    let all = server.ok("/events?limit=25&include_nested=true").await;
    let category = all["events"]
        .as_array()
        .and_then(|events| {
            events
                .iter()
                .find_map(|e| category_of(e).as_str().map(str::to_owned))
        })
        .expect("an event with a category");
    let total = all["pagination"]["total"].as_f64().unwrap_or(0.0);
    let path = format!(
        "/events?limit=25&include_nested=true&category={}",
        enc(&category.to_uppercase())
    );
    let some = server.ok(&path).await;
    let events = some["events"].as_array().expect("events");
    assert!(!events.is_empty(), "{path}");
    assert!(
        events.iter().all(|e| category_of(e) == category.as_str()),
        "{path}: {some}"
    );
    let filtered = some["pagination"]["total"].as_f64().unwrap_or(0.0);
    assert!(filtered < total, "{filtered} of {total}");
    // A cursor of the filtered list does not serve another category.
    if let Some(cursor) = some["pagination"]["next_cursor"].as_str() {
        let other = server
            .error(
                &format!("/events?category=Nope&cursor={}", enc(cursor)),
                400,
            )
            .await;
        assert_eq!(other["error"]["code"], "INVALID_CURSOR");
    }
    // The parameter reached the document from the core's declaration alone.
    let doc = server.ok("/openapi.json").await;
    let parameters = doc["paths"]["/events"]["get"]["parameters"]
        .as_array()
        .expect("parameters");
    assert!(parameters.iter().any(|p| p["name"] == "category"));
}
