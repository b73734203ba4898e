//! The cross-cutting rules: JSON errors everywhere, keys and budgets, fault
//! injection, hostile data, compression, determinism.

mod common;

use common::{KEY, TestServer, config, enc};
use predmarket_core::models::{MarketsResponse, PlatformsResponse};
use predmarket_server::data::{Dataset, Options};
use serde_json::Value;

async fn send(server: &TestServer, method: reqwest::Method, path: &str) -> reqwest::Response {
    reqwest::Client::new()
        .request(method, server.url(path))
        .header("X-API-Key", KEY)
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn errors_are_json_everywhere() {
    let server = TestServer::start().await;
    for (path, status) in [
        ("/markets/%FF%FE", 400),
        ("/markets/", 404),
        ("/nope/nope", 404),
        ("/markets?limit=%", 400),
        (
            "/list-games?league=league_a&limit=9999999999999999999999",
            200,
        ),
        ("/markets?cursor=", 200),
        ("/games/%40", 400),
    ] {
        let response = server.get(path).await;
        assert_eq!(response.status().as_u16(), status, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{path}"
        );
        let body: Value = response.json().await.expect("JSON");
        if status != 200 {
            assert!(body["error"]["code"].is_string(), "{path}: {body}");
            assert!(body["error"]["timestamp"].is_string(), "{path}: {body}");
            assert!(body["meta"]["request_time"].is_number(), "{path}: {body}");
        }
    }
    let response = send(&server, reqwest::Method::POST, "/markets").await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers()["allow"], "GET");
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR");
    let response = send(&server, reqwest::Method::DELETE, "/markets/1").await;
    assert_eq!(response.status(), 405);
}

#[tokio::test]
async fn the_key_never_shows_in_an_answer() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    for path in [
        format!("/markets?api_key={KEY}"),
        format!("/markets/{KEY}"),
        format!("/markets?limit={KEY}"),
    ] {
        for key in [None, Some(KEY)] {
            let mut request = client.get(server.url(&path));
            if let Some(k) = key {
                request = request.header("X-API-Key", k);
            }
            let response = request.send().await.expect("request");
            let text = response.text().await.expect("body");
            if key.is_none() {
                assert!(!text.contains(KEY), "{path}: {text}");
            } else {
                // An id the caller chose may be echoed in details; the
                // message never quotes the key header.
                let body: Value = serde_json::from_str(&text).expect("JSON");
                let message = body["error"]["message"].as_str().unwrap_or("");
                assert!(!message.contains(KEY), "{path}: {message}");
            }
        }
    }
}

#[tokio::test]
async fn per_key_budgets_and_key_files() {
    let dir = std::env::temp_dir().join(format!("pm-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("keys.txt");
    std::fs::write(&file, "# team keys\nfile-key:2\n\nbulk-key:unlimited\n").expect("write");
    let mut config = config();
    config.api_key = vec![format!("{KEY}:3")];
    config.api_key_file = Some(file);
    let server = TestServer::with(config).await;
    let client = reqwest::Client::new();
    let get = |key: &'static str| {
        client
            .get(server.url("/platforms"))
            .header("X-API-Key", key)
            .send()
    };
    for i in 0..3 {
        let r = get(KEY).await.expect("request");
        assert_eq!(r.status(), 200, "request {i}");
        assert_eq!(r.headers()["x-ratelimit-limit"], "3");
    }
    let limited = get(KEY).await.expect("request");
    assert_eq!(limited.status(), 429);
    assert!(limited.headers().contains_key("retry-after"));
    assert!(limited.headers().contains_key("x-ratelimit-reset"));
    for _ in 0..2 {
        assert_eq!(get("file-key").await.expect("request").status(), 200);
    }
    assert_eq!(get("file-key").await.expect("request").status(), 429);
    for _ in 0..150 {
        let r = get("bulk-key").await.expect("request");
        assert_eq!(r.status(), 200);
    }
    // Budgets are per key: the limited keys did not touch each other.
    assert_eq!(get("wrong").await.expect("request").status(), 401);
}

#[tokio::test]
async fn without_keys_the_demo_key_works() {
    let mut config = config();
    config.api_key.clear();
    let server = TestServer::with(config).await;
    let response = reqwest::Client::new()
        .get(server.url("/platforms"))
        .header("X-API-Key", predmarket_core::DEMO_API_KEY)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn a_failing_platform_shows_in_platform_errors_and_alone_is_503() {
    let mut config = common::unlimited();
    config.fail_platforms = vec!["platform_c".into(), "platform_g".into()];
    let server = TestServer::with(config).await;
    let body = server.ok("/markets?limit=250").await;
    assert_eq!(
        body["meta"]["platform_errors"]["platform_c"]["code"],
        "PLATFORM_UNAVAILABLE"
    );
    assert!(
        body["markets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["platform"] != "platform_c")
    );
    let healthy = TestServer::start().await;
    let all = healthy.ok("/markets?limit=1").await["pagination"]["total"]
        .as_u64()
        .unwrap();
    let c = healthy.ok("/markets?platform=platform_c&limit=1").await["pagination"]["total"]
        .as_u64()
        .unwrap();
    assert_eq!(body["pagination"]["total"].as_u64(), Some(all - c));
    let alone = server.error("/markets?platform=platform_c", 503).await;
    assert_eq!(alone["error"]["code"], "PLATFORM_UNAVAILABLE");
    let c_market = healthy.ok("/markets?platform=platform_c&limit=1").await["markets"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.error(&format!("/markets/{c_market}"), 503).await;
    server
        .error(&format!("/markets/{c_market}/orderbook"), 503)
        .await;
    // Sports: the rest is served.
    let future = server.ok("/futures/league_a_championship_2025").await;
    let errors = &future["meta"]["platform_errors"];
    assert_eq!(errors["platform_g"]["code"], "PLATFORM_UNAVAILABLE");
    assert!(errors.get("platform_f").is_none());
    let markets = future["data"]["markets"].as_array().unwrap();
    assert_eq!(markets.len(), 4);
    assert!(markets.iter().all(|m| m["platform"] != "platform_g"));
    assert_eq!(
        future["meta"]["platforms_queried"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    server
        .error(
            "/futures/league_a_championship_2025?platform=platform_g",
            503,
        )
        .await;
    let games = server.ok("/list-games?league=league_a&limit=1").await;
    assert!(games["meta"]["platform_errors"]["platform_g"].is_object());
    let platforms: PlatformsResponse = server.typed("/platforms").await;
    let c = platforms
        .platforms
        .iter()
        .find(|p| p.id == "platform_c")
        .unwrap();
    assert_eq!(c.status.as_ref().map(|s| s.as_str()), Some("unavailable"));
}

#[tokio::test]
async fn injected_5xx_429_and_malformed_answers() {
    let mut c = config();
    c.fault_5xx = 1.0;
    let server = TestServer::with(c).await;
    for _ in 0..5 {
        let response = server.get("/markets").await;
        let status = response.status().as_u16();
        assert!(status == 500 || status == 503, "{status}");
        let body: Value = response.json().await.expect("JSON error");
        assert!(body["error"]["code"].is_string());
    }
    // The document and the key check are never faulted.
    let doc = reqwest::get(server.url("/openapi.json"))
        .await
        .expect("doc");
    assert_eq!(doc.status(), 200);
    let anonymous = reqwest::get(server.url("/markets")).await.expect("request");
    assert_eq!(anonymous.status(), 401);

    let mut c = config();
    c.fault_429 = 1.0;
    let server = TestServer::with(c).await;
    let response = server.get("/markets").await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "1");

    let mut c = config();
    c.fault_malformed = 1.0;
    let server = TestServer::with(c).await;
    if common::through_proxy() {
        // What a proxy promises instead: a body it cannot read reaches no
        // visitor; it becomes a typed error (and, repeated, opens the
        // circuit).
        let body = server.error("/markets", 503).await;
        assert_eq!(
            body["error"]["details"]["reason"],
            "upstream_malformed_body"
        );
        for _ in 0..4 {
            let body = server.error("/markets", 503).await;
            let reason = &body["error"]["details"]["reason"];
            assert!(
                reason == "upstream_malformed_body" || reason == "upstream_circuit_open",
                "{body}"
            );
        }
        return;
    }
    let mut kinds = std::collections::HashSet::new();
    for _ in 0..8 {
        let response = server.get("/markets").await;
        assert_eq!(response.status(), 200);
        let text = response.text().await.expect("body");
        assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
        kinds.insert(text.starts_with('{'));
    }
    assert_eq!(kinds.len(), 2, "truncated JSON and non-JSON bodies");

    let mut c = config();
    c.fault_5xx = 0.5;
    let server = TestServer::with(c).await;
    let mut failed = 0;
    for _ in 0..40 {
        if server.get("/platforms").await.status().is_server_error() {
            failed += 1;
        }
    }
    assert!((8..=32).contains(&failed), "{failed} of 40");
}

// The delay itself is not timed (a lower bound on a clock is still a
// timing assertion): the latency holds the answer back, which shows as the
// request timeout's 504 when the latency outlasts it, and it changes
// nothing in the answer when it does not.
#[tokio::test]
async fn added_latency() {
    let mut c = config();
    c.latency_ms = 250;
    let server = TestServer::with(c).await;
    let plain = TestServer::start().await;
    // Health carries the time of the check, which may differ by a second.
    let without_health = |mut body: Value| {
        if let Some(platforms) = body["platforms"].as_array_mut() {
            for platform in platforms {
                if let Some(platform) = platform.as_object_mut() {
                    platform.remove("health");
                }
            }
        }
        body["platforms"].take()
    };
    let delayed = without_health(server.ok("/platforms").await);
    assert_eq!(delayed.as_array().map(Vec::len), Some(8));
    assert_eq!(delayed, without_health(plain.ok("/platforms").await));
    // Through a proxy the request timeout must exceed the proxy's own
    // upstream waits, so a short one cannot be set: checked directly.
    if !common::through_proxy() {
        let mut c = config();
        c.latency_ms = 3_600_000;
        c.request_timeout_secs = 1.0;
        let held = TestServer::with(c).await;
        let body = held.error("/platforms", 504).await;
        assert_eq!(body["error"]["code"], "TIMEOUT");
    }
}

#[tokio::test]
async fn hostile_text_is_served_verbatim_as_json_strings() {
    let mut c = config();
    c.hostile = true;
    c.scale = 0.2;
    let server = TestServer::generated(c).await;
    let body: MarketsResponse = server.typed("/markets?limit=100").await;
    let titles: Vec<String> = body
        .markets
        .iter()
        .filter_map(|m| m.title.clone())
        .collect();
    let has = |needle: &str| titles.iter().any(|t| t.contains(needle));
    assert!(has("<script>alert(\"xss\")</script>"));
    assert!(has("<img src=x onerror="));
    assert!(has("\u{202E}"));
    assert!(has("🚀"));
    assert!(has("\u{200F}"));
    assert!(titles.iter().any(|t| t.len() >= 4_000));
    let raw = server.get("/markets?limit=100").await.text().await.unwrap();
    // Markup travels inside JSON strings; nothing is HTML-escaped or lost.
    assert!(raw.contains("<script>alert(\\\"xss\\\")</script>"));
    let teams = server
        .ok("/league-info?league=league_a&include_teams=true")
        .await;
    let names: Vec<&str> = teams["data"]["teams"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.iter().any(|n| n.contains("<script>")));
    // Searching hostile titles works on the text.
    let found = server
        .ok(&format!("/markets?query={}", enc("<script>")))
        .await;
    assert!(found["pagination"]["total"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn answers_are_gzipped_on_request() {
    let server = TestServer::start().await;
    let response = reqwest::Client::new()
        .get(server.url("/markets?limit=50"))
        .header("X-API-Key", KEY)
        .header("Accept-Encoding", "gzip")
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["content-encoding"], "gzip");
}

#[tokio::test]
async fn cors_origins_can_be_restricted() {
    let mut c = config();
    c.cors_origins = vec!["http://allowed.test".into()];
    let server = TestServer::with(c).await;
    let preflight = |origin: &'static str| {
        reqwest::Client::new()
            .request(reqwest::Method::OPTIONS, server.url("/markets"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "x-api-key")
            .send()
    };
    let ok = preflight("http://allowed.test").await.expect("preflight");
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "http://allowed.test"
    );
    let other = preflight("http://evil.test").await.expect("preflight");
    assert!(!other.headers().contains_key("access-control-allow-origin"));
}

#[test]
fn data_is_deterministic_per_seed() {
    let options = |seed| Options {
        seed,
        scale: 0.2,
        hostile: false,
        names: Default::default(),
        as_of: 1_762_041_600,
    };
    let a = Dataset::generate(&options(7));
    let b = Dataset::generate(&options(7));
    let c = Dataset::generate(&options(8));
    let json = |d: &Dataset| {
        d.catalog
            .markets
            .iter()
            .map(|m| m.json.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(json(&a), json(&b));
    assert_ne!(json(&a), json(&c));
    assert_eq!(a.catalog.events.len(), b.catalog.events.len());
}

#[tokio::test]
async fn a_panic_becomes_a_json_500() {
    // The server's own panic handler, on a route that panics.
    let app = axum::Router::new()
        .route(
            "/boom",
            axum::routing::get(|| async {
                if std::hint::black_box(true) {
                    panic!("secret detail");
                }
                "unreachable"
            }),
        )
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            predmarket_server::error::panic_response,
        ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let response = reqwest::get(format!("http://{addr}/boom"))
        .await
        .expect("answer");
    assert_eq!(response.status(), 500);
    let text = response.text().await.expect("body");
    let body: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(body["error"]["code"], "INTERNAL_ERROR");
    assert!(!text.contains("secret detail"));
    task.abort();
}
