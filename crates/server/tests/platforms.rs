//! `GET /platforms` over loopback HTTP: the directory, its health, and the
//! key rules every operation shares.

mod common;

use common::{KEY, TestServer};
use predmarket_core::models::PlatformsResponse;
use serde_json::Value;

#[tokio::test]
async fn lists_all_eight_platforms_with_health() {
    let server = TestServer::start().await;
    let response = server.get("/platforms").await;
    assert_eq!(response.status(), 200);
    let body: PlatformsResponse = response.json().await.expect("platforms envelope");
    let ids: Vec<&str> = body.platforms.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "platform_a",
            "platform_b",
            "platform_c",
            "platform_d",
            "platform_e",
            "platform_f",
            "platform_g",
            "platform_h"
        ]
    );
    assert!(
        body.platforms
            .iter()
            .all(|p| p.health.as_ref().and_then(|h| h.status.as_ref()).is_some())
    );
    assert_eq!(body.meta.and_then(|m| m.total), Some(8.0));
}

#[tokio::test]
async fn missing_or_unknown_key_is_a_401_json_error() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    for request in [
        client.get(server.url("/platforms")),
        client
            .get(server.url("/platforms"))
            .header("X-API-Key", "nope"),
        client.get(server.url("/platforms?api_key=test-key")),
    ] {
        let response = request.send().await.expect("request");
        assert_eq!(response.status(), 401);
        let body: Value = response.json().await.expect("json error body");
        assert_eq!(body["error"]["code"], "INVALID_API_KEY");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.contains(KEY))
        );
    }
}

#[tokio::test]
async fn cors_preflight_allows_the_api_key_header() {
    let server = TestServer::start().await;
    let response = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, server.url("/platforms"))
        .header("Origin", "http://127.0.0.1:9999")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "x-api-key")
        .send()
        .await
        .expect("preflight");
    assert!(response.status().is_success(), "{}", response.status());
    let allowed = response.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap_or_default()
        .to_lowercase();
    assert!(allowed.contains("x-api-key"), "{allowed}");
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
}

#[tokio::test]
async fn the_101st_request_in_a_minute_is_a_429_with_retry_after() {
    let server = TestServer::start().await;
    for i in 0..100 {
        let response = server.get("/platforms").await;
        assert_eq!(response.status(), 200, "request {i}");
    }
    let response = server.get("/platforms").await;
    assert_eq!(response.status(), 429);
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0);
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_eq!(response.headers()["x-ratelimit-remaining"], "0");
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["error"]["code"], "RATE_LIMITED");
}

#[tokio::test]
async fn unknown_paths_are_json_404s() {
    let server = TestServer::start().await;
    let response = server.get("/nope").await;
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["error"]["code"], "NOT_FOUND");
}
