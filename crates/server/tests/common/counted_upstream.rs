//! The upstream of the proxy tests (`proxy.rs`, `proxy_key.rs`): a local
//! predmarket-server with renamed ids, its own per-key rate limit on the
//! proxy's key and whatever faults a test turns on, which counts what reaches
//! it; a proxy in front of it; and the requests and comparisons the tests
//! share.

#![allow(dead_code)] // each includer uses a different part

use super::common;
use super::proxy_kit::{self, Proxy};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use predmarket_server::config::Config;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The upstream's key: distinctive, so that a leak is found by grep.
pub const UPSTREAM_KEY: &str = "upstream-Z9q7-secret-key";
/// A second upstream key, for reading the upstream directly in tests.
pub const DIRECT_KEY: &str = "direct-read";
pub const VISITOR: &str = "visitor-a";
pub const VISITOR_B: &str = "visitor-b";
/// How long a test waits for something that should happen, at most: long
/// enough that a busy machine never reaches it when the proxy works.
pub const CEILING: Duration = Duration::from_secs(60);

/// What reached the upstream: when, with which status, and whether a 429
/// was the upstream's real rate limit (as opposed to an injected fault).
#[derive(Default)]
pub struct Seen {
    pub requests: Vec<(Instant, u16, bool)>,
}

impl Seen {
    pub fn count(&self) -> usize {
        self.requests.len()
    }

    pub fn real_429s(&self) -> usize {
        self.requests.iter().filter(|r| r.2).count()
    }

    /// Most requests in any 60-second window.
    pub fn max_per_minute(&self) -> usize {
        let times: Vec<Instant> = self.requests.iter().map(|r| r.0).collect();
        (0..times.len())
            .map(|i| {
                times[i..]
                    .iter()
                    .take_while(|t| t.duration_since(times[i]) < Duration::from_secs(60))
                    .count()
            })
            .max()
            .unwrap_or(0)
    }
}

pub type Log = Arc<Mutex<Seen>>;

pub async fn count(State(log): State<Log>, request: Request, next: Next) -> Response {
    let direct = request
        .headers()
        .get("x-api-key")
        .is_some_and(|k| k == DIRECT_KEY);
    let response = next.run(request).await;
    if direct {
        return response;
    }
    let status = response.status().as_u16();
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    // The upstream's own limiter says "more than N requests per minute";
    // injected faults say "injected".
    let real = status == 429 && String::from_utf8_lossy(&bytes).contains("requests per minute");
    log.lock()
        .unwrap()
        .requests
        .push((Instant::now(), status, real));
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

pub struct Upstream {
    pub addr: SocketAddr,
    pub log: Log,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The upstream: the proxy's key with a limit of `limit` per minute (the
/// upstream enforces it: a proxy that overspends gets real 429s), renamed
/// ids, and whatever `tweak` adds (faults, latency).
pub async fn upstream(limit: u32, tweak: impl FnOnce(&mut Config)) -> Upstream {
    upstream_with(limit, tweak, None).await
}

/// Holds every request until the test sends `true` on the gate.
pub async fn held(
    State(gate): State<tokio::sync::watch::Receiver<bool>>,
    request: Request,
    next: Next,
) -> Response {
    let mut gate = gate.clone();
    let _ = gate.wait_for(|open| *open).await;
    next.run(request).await
}

/// `upstream`, with its answers held back until the test opens `gate`.
pub async fn upstream_with(
    limit: u32,
    tweak: impl FnOnce(&mut Config),
    gate: Option<tokio::sync::watch::Receiver<bool>>,
) -> Upstream {
    let mut config = common::config();
    config.api_key = vec![
        format!("{UPSTREAM_KEY}:{limit}"),
        format!("{DIRECT_KEY}:unlimited"),
    ];
    config.rename_ids = true;
    tweak(&mut config);
    let data = renamed_data();
    let log: Log = Arc::default();
    let mut app = predmarket_server::app_with_data(&config, data);
    if let Some(gate) = gate {
        app = app.layer(axum::middleware::from_fn_with_state(gate, held));
    }
    let app = app.layer(axum::middleware::from_fn_with_state(log.clone(), count));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Upstream { addr, log, task }
}

pub fn renamed_data() -> Arc<predmarket_server::data::Dataset> {
    static DATA: std::sync::OnceLock<Arc<predmarket_server::data::Dataset>> =
        std::sync::OnceLock::new();
    DATA.get_or_init(|| {
        let mut config = common::config();
        config.rename_ids = true;
        Arc::new(predmarket_server::data::Dataset::generate(
            &config.data_options(),
        ))
    })
    .clone()
}

pub fn proxy_config(upstream: SocketAddr) -> Config {
    let mut config = Config::for_tests(&format!("{VISITOR}:unlimited"));
    config.api_key.push(format!("{VISITOR_B}:unlimited"));
    config.proxy.upstream = Some(format!("http://{upstream}"));
    config.proxy.upstream_key_file = Some(proxy_kit::key_file(
        "pm-upstream-key",
        &format!("# the upstream key\n{UPSTREAM_KEY}\n"),
    ));
    config.proxy.max_wait_secs = 3.0;
    config
}

pub async fn proxy(config: Config) -> Proxy {
    proxy_kit::start(&config).await
}

/// Status, `X-Cache`, body (JSON, or the test fails), and all header text.
pub async fn get(
    client: &reqwest::Client,
    addr: SocketAddr,
    path: &str,
    key: Option<&str>,
) -> (u16, String, Value, String) {
    let mut request = client.get(format!("http://{addr}{path}"));
    if let Some(key) = key {
        request = request.header("X-API-Key", key);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let cache = response
        .headers()
        .get("x-cache")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let headers = format!("{:?}", response.headers());
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:.300}"));
    (status, cache, body, headers)
}

/// A typed error: the status is an error status and the body one of the
/// public service's envelopes with a code and a message.
pub fn assert_typed(path: &str, status: u16, body: &Value) {
    assert!(status >= 400, "{path}: {status} {body}");
    assert!(body["error"]["code"].is_string(), "{path}: {body}");
    assert!(body["error"]["message"].is_string(), "{path}: {body}");
}

pub async fn direct(upstream: &Upstream, path: &str) -> Value {
    let response = reqwest::Client::new()
        .get(format!("http://{}{path}", upstream.addr))
        .header("X-API-Key", DIRECT_KEY)
        .send()
        .await
        .unwrap();
    response.json().await.unwrap()
}

/// Everything but `meta` (request times differ).
pub fn without_meta(mut body: Value) -> Value {
    if let Some(object) = body.as_object_mut() {
        object.remove("meta");
    }
    same_cursors(&mut body);
    body
}

/// A cursor carries the second it was issued in (src/cursor.rs), so two
/// answers a second apart differ there and nowhere else: whether there is
/// one is compared, not its bytes.
pub fn same_cursors(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object.iter_mut() {
                if key == "next_cursor" && inner.is_string() {
                    *inner = Value::String("<cursor>".into());
                } else {
                    same_cursors(inner);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(same_cursors),
        _ => {}
    }
}
