//! The proxy forwards operations, never paths: visitors send traversal
//! attempts (raw over TCP, so no client-side URL parser tidies them first)
//! and a local upstream logs every request target and key it receives. The
//! upstream must only ever see the paths of the operations, under its base
//! path, with nothing in an id that a URL parser or a decoding server
//! could read as a step up.
//!
//! The same upstream answers some ids with failures a visitor can choose
//! (an HTML page, a firewall's 403) or not (a 502), to show what the
//! circuit breaker counts and that its probe is the proxy's own request.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use predmarket_server::config::Config;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

#[path = "common/paths.rs"]
mod paths;

use paths::{HOSTILE_IDS, HOSTILE_PATHS, REFUSED_IN_CORE, TEMPLATES, is_an_operation, reason};

const UPSTREAM_KEY: &str = "upstream-paths-secret";
const VISITOR: &str = "visitor-paths";
/// A second visitor: the breaker tells visitors apart.
const OTHER_VISITOR: &str = "visitor-paths-other";

/// Every request target the upstream received, as sent (not decoded).
type Seen = Arc<Mutex<Vec<String>>>;

/// Answers every path with an empty page of every list, so the proxy
/// treats it as a good answer (and would cache it).
/// Ids with `html200`, `html403` or `fail502` get that answer.
async fn record(State(seen): State<Seen>, uri: Uri, headers: HeaderMap) -> Response {
    assert_eq!(
        headers.get("x-api-key").and_then(|v| v.to_str().ok()),
        Some(UPSTREAM_KEY)
    );
    let target = uri.to_string();
    seen.lock().unwrap().push(target.clone());
    let html = |status: u16| {
        let mut response = Response::new(Body::from("<html>no</html>"));
        *response.status_mut() = StatusCode::from_u16(status).unwrap();
        response
    };
    if target.contains("html200") {
        return html(200);
    }
    if target.contains("html403") {
        return html(403);
    }
    if target.contains("fail502") {
        return html(502);
    }
    axum::Json(serde_json::json!({
        "markets": [], "series": [], "events": [], "trades": [], "platforms": [],
        "pagination": null, "meta": {}
    }))
    .into_response()
}

struct Upstream {
    addr: SocketAddr,
    seen: Seen,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn upstream() -> Upstream {
    let seen: Seen = Arc::default();
    let app = axum::Router::new()
        .fallback(record)
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream { addr, seen, task }
}

struct Proxy {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn proxy(base: String, tweak: impl FnOnce(&mut Config)) -> Proxy {
    let mut config = Config::for_tests(&format!("{VISITOR}:unlimited"));
    config.api_key.push(format!("{OTHER_VISITOR}:unlimited"));
    config.proxy.upstream = Some(base);
    tweak(&mut config);
    let key_file = std::env::temp_dir().join(format!(
        "pm-paths-key-{}-{}",
        std::process::id(),
        config.proxy.upstream.as_deref().map_or(0, str::len)
    ));
    std::fs::write(&key_file, format!("{UPSTREAM_KEY}\n")).unwrap();
    config.proxy.upstream_key_file = Some(key_file);
    let built = predmarket_server::proxy_mode::build(&config)
        .await
        .unwrap_or_else(|e| panic!("proxy: {e}"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, built.router).await;
    });
    Proxy { addr, task }
}

/// `GET target` written byte for byte: status and body.
async fn raw_get(addr: SocketAddr, target: &str) -> (u16, String) {
    raw_get_as(addr, target, VISITOR).await
}

/// [`raw_get`] with the key of `visitor`.
async fn raw_get_as(addr: SocketAddr, target: &str, visitor: &str) -> (u16, String) {
    let (status, _, body) = paths::raw_get(addr, target, Some(visitor), None)
        .await
        .unwrap_or_else(|e| panic!("{target}: {e}"));
    (status, body)
}

async fn attack(prefix: &str) {
    let upstream = upstream().await;
    let proxy = proxy(format!("http://{}{prefix}", upstream.addr), |_| {}).await;
    for template in TEMPLATES {
        for id in HOSTILE_IDS {
            let target = template.replace("{}", id);
            let (status, body) = raw_get(proxy.addr, &target).await;
            assert!(
                matches!(status, 200 | 400 | 404),
                "{target}: {status} {body:.300}"
            );
            if status == 400
                && let Ok(json) = serde_json::from_str::<Value>(&body)
            {
                assert_eq!(json["error"]["code"], "VALIDATION_ERROR", "{target}");
            }
        }
    }
    for target in HOSTILE_PATHS {
        let (status, body) = raw_get(proxy.addr, target).await;
        assert!(
            matches!(status, 400 | 404),
            "{target}: {status} {body:.300}"
        );
    }
    // Ids that decode to a dot segment are the core's to refuse, with the
    // server's 400.
    for target in REFUSED_IN_CORE {
        let (status, body) = raw_get(proxy.addr, target).await;
        assert_eq!(status, 400, "{target}: {body}");
        let json: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["error"]["code"], "VALIDATION_ERROR", "{target}");
        assert!(json["error"]["details"]["parameter"].is_string(), "{json}");
    }
    // Parameters the operation does not declare are not forwarded, and a
    // query-string id stays in the query.
    let (status, _) = raw_get(
        proxy.addr,
        "/trades?market_id=..%2f..%2faccount&bust=1&api_key=leak",
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = raw_get(proxy.addr, "/markets/ok-id?include_raw=true&bust=2").await;
    assert_eq!(status, 200);

    let seen = upstream.seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "legitimate ids reached the upstream");
    for target in &seen {
        assert!(
            is_an_operation(prefix, target),
            "the upstream saw {target}, which is no operation under {prefix:?}"
        );
        assert!(
            !target.contains("bust") && !target.contains("api_key"),
            "{target}"
        );
    }
    assert!(
        seen.contains(&format!("{prefix}/trades?market_id=..%2F..%2Faccount")),
        "{seen:?}"
    );
    assert!(
        seen.contains(&format!("{prefix}/markets/ok-id?include_raw=true")),
        "{seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_visitor_path_leaves_the_operations() {
    attack("").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_visitor_path_leaves_the_operations_under_a_base_path() {
    attack("/v2").await;
}

#[test]
fn the_operation_check_of_this_test_can_fail() {
    assert!(is_an_operation("/v2", "/v2/markets/abc%2Fdef?limit=1"));
    assert!(is_an_operation("", "/games/KCvSF20250209%40NFL"));
    for bad in [
        "/account/usage",
        "/v2/markets/..",
        "/v2/markets/%2e%2e",
        "/v2/markets/..%2F..%2Faccount",
        "/v2/markets/a\\b",
        "/markets/x",
        "/v2/markets/x/y",
    ] {
        assert!(!is_an_operation("/v2", bad), "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_failures_no_visitor_chooses_open_the_circuit_and_the_probe_is_the_proxys() {
    let upstream = upstream().await;
    let proxy = proxy(format!("http://{}", upstream.addr), |c| {
        c.proxy.breaker_failures = 2;
        c.proxy.breaker_cooldown_secs = 0.2;
        // The budget is not under test: no request waits for a slot.
        c.proxy.upstream_limit = 100_000;
    })
    .await;
    // Answers a visitor can choose: many of them, the circuit stays closed.
    for i in 0..6 {
        for kind in ["html200", "html403"] {
            let (status, body) = raw_get(proxy.addr, &format!("/markets/{kind}-{i}")).await;
            assert!(status >= 400, "{kind}: {status} {body}");
            assert_ne!(reason(&body), "upstream_circuit_open", "{kind}");
        }
    }
    // One request failing again and again is that request's trouble.
    for _ in 0..4 {
        let (status, body) = raw_get(proxy.addr, "/markets/fail502-same").await;
        assert_eq!(status, 503, "{body}");
        assert_ne!(reason(&body), "upstream_circuit_open");
    }
    let (status, body) = raw_get(proxy.addr, "/markets/good-1").await;
    assert_eq!(status, 200, "{body}");
    // One visitor's many failing requests, five a second, while another
    // visitor's misses go on being served: the circuit stays closed.
    for i in 0..20 {
        let (status, body) = raw_get(proxy.addr, &format!("/markets/fail502-bad-{i}")).await;
        assert_eq!(status, 503, "{body}");
        assert_ne!(reason(&body), "upstream_circuit_open", "{body}");
        if i % 5 == 4 {
            let (status, body) = raw_get_as(
                proxy.addr,
                &format!("/markets/good-other-{i}"),
                OTHER_VISITOR,
            )
            .await;
            assert_eq!(status, 200, "the other visitor's miss: {body}");
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // 502s of two requests of two visitors are the upstream's failures:
    // the circuit opens.
    raw_get(proxy.addr, "/markets/fail502-1").await;
    raw_get_as(proxy.addr, "/markets/fail502-2", OTHER_VISITOR).await;
    let (status, body) = raw_get(proxy.addr, "/markets/good-2").await;
    assert_eq!(
        (status, reason(&body).as_str()),
        (503, "upstream_circuit_open"),
        "{body}"
    );
    assert!(
        !upstream
            .seen
            .lock()
            .unwrap()
            .iter()
            .any(|t| t.contains("good-2"))
    );
    // Past the cooldown the probe is the proxy's own `/platforms`, sent
    // before the visitor's request; it succeeds and closes the circuit.
    let before = upstream.seen.lock().unwrap().len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (status, body) = raw_get(proxy.addr, "/markets/good-3").await;
        if status == 200 {
            break;
        }
        assert_eq!(reason(&body), "upstream_circuit_open", "{body}");
        assert!(
            std::time::Instant::now() < deadline,
            "the circuit never closed"
        );
        tokio::task::yield_now().await;
    }
    let seen = upstream.seen.lock().unwrap()[before..].to_vec();
    assert_eq!(seen, ["/platforms", "/markets/good-3"]);
}
